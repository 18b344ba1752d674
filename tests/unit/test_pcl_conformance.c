/* test_pcl_conformance.c — Pulumi's language-conformance programs through cimport's PCL front end
 * and all six emitters (issue 18).
 *
 * Every `main.pp` under ../shared/data/pcl-conformance (one per program, one per step of a
 * multi-step program) is parsed, bound against the conformance providers' schemas
 * (tests/fixtures/conformance/schemas) and emitted in TypeScript, Python, Go, C#, Java and YAML.
 * For each program × language the result is "refused" (an error naming the construct), or
 * "accepted"; accepted TypeScript, Python and Go are compared with the code Pulumi's own
 * generators produce for the program (expected/…) after normalising whitespace (outside string
 * literals), comments and import order.
 *
 * The test asserts:
 * - no program crashes or hangs an emitter (the suite's timeout), and a refusal always comes with
 *   an error diagnostic;
 * - every accepted TypeScript file passes `tsc --strict` against the real @pulumi/pulumi and the
 *   test providers' declarations derived from their schemas (fixtures/conformance/dts.js), every Go
 *   file `gofmt -l -e`, every Python file `py_compile` and pyflakes (no undefined name), every C#
 *   and Java file parses with the pinned tree-sitter grammars, every Java file compiles with javac
 *   against pulumi-java's API surface (tests/peers/java: our own classes with pulumi-java's
 *   signatures, not the real jar) and the test providers' classes derived from their schemas
 *   (fixtures/conformance/javastubs.js), every YAML file loads with libyaml;
 * - every accepted TS/Python/Go output that differs from Pulumi's is listed, with its reason, in
 *   tests/fixtures/conformance/known-differences.tsv, and no listed difference is stale;
 * - every refusal is listed, with its reason, in tests/fixtures/conformance/known-refusals.tsv, and
 *   no listed refusal is stale: a program a language accepted and no longer does fails the test
 *   (so does one that was equivalent and now differs, through known-differences.tsv).
 * With CIMPORT_CONFORMANCE_TABLE=1 it prints the whole table and the refusal reasons
 * (bench/pcl_conformance.sh). */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "base/vec.h"
#include "emitters/emit.h"
#include "emitters/ts_check.h"
#include "pcl/pcl.h"
#include "specs/json_strict.h"
#include "specs/schema.h"
#include "testutil.h"

enum { N_LANGS = 6 };
static const lang_t LANGS[N_LANGS] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA, LANG_YAML};
static const char *const LANG_COL[N_LANGS] = {"ts", "py", "go", "cs", "java", "yaml"};
/* expected file per language (TS, Python, Go only) */
static const char *const EXPECTED[3][2] = {{"typescript", "index.ts"}, {"python", "__main__.py"}, {"go", "main.go"}};

typedef enum { R_REFUSED = 0, R_ACCEPTED, R_EQUIVALENT } result_t;

typedef struct program {
    const char *name; /* `l2-resource-simple` or `l2-destroy/1` */
    const char *path;
    const char *rel; /* sub-directory of the case holding main.pp ("" or "0", "subdir") */
    const char *case_dir;
    result_t res[N_LANGS];
    char *code[N_LANGS];
    const char *reason[N_LANGS]; /* refusal: the first error */
    bool no_expected[3];         /* Pulumi ships no expected output for this language */
} program_t;

static int str_cmp(const void *x, const void *y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The end of the string literal that starts at s (a quote of language li: 0 TypeScript, 1 Python,
 * 2 Go), or NULL when s starts none. TypeScript: "…", '…', `…` (a template; its ${…} copied as
 * text); Python: "…", '…', """…""", '''…''' (prefixes such as f or r are code before it);
 * Go: "…", '…' (a rune), `…` (raw: no escapes). An unterminated literal ends at the text's end. */
static const char *string_end(const char *s, int li) {
    char q = *s;
    if (q != '"' && q != '\'' && q != '`') return NULL;
    if (q == '`' && li == 1) return NULL;
    bool raw = q == '`' && li == 2;
    bool triple = li == 1 && s[1] == q && s[2] == q;
    const char *p = s + (triple ? 3 : 1);
    for (; *p; p++) {
        if (*p == '\\' && !raw && p[1]) {
            p++;
            continue;
        }
        if (*p != q) continue;
        if (!triple) return p + 1;
        if (p[1] == q && p[2] == q) return p + 3;
    }
    return p;
}

/* What "the same code" means for the comparison of language li's text (0 TypeScript, 1 Python,
 * 2 Go): whitespace removed outside string literals (a string's spaces, tabs and newlines are its
 * value, kept as written); comments removed (TypeScript and Go `//` to the end of the line,
 * Python `#`, outside strings); import lines (TS `import`, Python `import`/`from`, the specs of a
 * Go `import (…)` block) moved into a sorted block ahead of the rest. A line here is a logical
 * one: a string literal that spans lines is part of the line it starts on. */
static char *normalise(arena_t *a, const char *text, int li) {
    size_t n_lines = 0, cap = 0;
    char **imports = NULL;
    buf_t body, line;
    buf_init(&body);
    buf_init(&line);
    bool in_go_imports = false;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        const char *start = p;
        line.len = 0;
        if (line.data) line.data[0] = 0;
        while (*p && *p != '\n') { /* the logical line, whitespace outside strings dropped */
            const char *e = string_end(p, li);
            if (e) {
                buf_append(&line, p, (size_t)(e - p));
                p = e;
            } else if ((li != 1 && p[0] == '/' && p[1] == '/') || (li == 1 && p[0] == '#')) {
                while (*p && *p != '\n') /* a comment, to the end of the line */
                    p++;
            } else {
                if (!isspace((unsigned char)*p)) buf_append(&line, p, 1);
                p++;
            }
        }
        if (*p) p++;
        const char *t = line.data ? line.data : "";
        bool imp = strncmp(start, "import ", 7) == 0 || (li == 1 && strncmp(start, "from ", 5) == 0) ||
                   (in_go_imports && *t && *t != ')');
        if (li == 2 && strcmp(t, "import(") == 0)
            in_go_imports = true, imp = false;
        else if (in_go_imports && t[0] == ')')
            in_go_imports = false, imp = false;
        if (imp && *t) {
            imports = vec_grow(imports, &cap, n_lines + 1, sizeof *imports);
            imports[n_lines++] = arena_strdup(a, t);
        } else {
            buf_puts(&body, t);
        }
    }
    if (n_lines) qsort(imports, n_lines, sizeof *imports, str_cmp);
    buf_t out;
    buf_init(&out);
    for (size_t i = 0; i < n_lines; i++)
        buf_puts(&out, imports[i]);
    buf_puts(&out, body.data ? body.data : "");
    char *r = arena_strdup(a, out.data ? out.data : "");
    free(imports);
    buf_free(&body);
    buf_free(&line);
    buf_free(&out);
    return r;
}

typedef struct known {
    char *program, *lang, *reason;
    bool seen;
} known_t;

static known_t *load_known(arena_t *a, const char *file, size_t *n) {
    char *path = arena_sprintf(a, "%s/tests/fixtures/conformance/%s", SOURCE_DIR, file);
    char *text = tu_read(path, NULL);
    ck_assert_msg(text, "cannot read %s", path);
    size_t cap = 0;
    known_t *k = NULL;
    *n = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || !line[0]) continue;
        char *t1 = strchr(line, '\t');
        char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        ck_assert_msg(t2 && t2[1], "%s: '%s' needs program<TAB>language<TAB>reason", file, line);
        *t1 = *t2 = 0;
        k = arena_grow_array(a, k, &cap, *n + 1, sizeof *k);
        k[(*n)++] = (known_t){arena_strdup(a, line), arena_strdup(a, t1 + 1), arena_strdup(a, t2 + 1), false};
    }
    free(text);
    return k;
}

static known_t *find_known(known_t *k, size_t n, const char *program, const char *lang) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(k[i].program, program) == 0 && strcmp(k[i].lang, lang) == 0) return &k[i];
    return NULL;
}

/* "<file>:12:3: resource 'x': the thing" → "the thing" with quoted names kept: a reason key. */
static const char *reason_key(arena_t *a, const char *msg) {
    const char *m = msg;
    const char *pp = strstr(m, ".pp:");
    if (pp) {
        m = pp + 4;
        while (*m && *m != ' ')
            m++;
        while (*m == ' ')
            m++;
    }
    if (strncmp(m, "resource '", 10) == 0 || strncmp(m, "component '", 11) == 0 || strncmp(m, "config '", 8) == 0 ||
        strncmp(m, "output '", 8) == 0) {
        const char *c = strstr(m, "': ");
        if (c) m = c + 3;
    }
    const char *semi = strpbrk(m, ";(");
    return arena_strndup(a, m, semi ? (size_t)(semi - m) : strlen(m));
}

static void run_program(arena_t *a, schema_set_t *set, program_t *pr) {
    size_t len;
    char *text = tu_read(pr->path, &len);
    ck_assert_ptr_nonnull(text);
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(text, len, arena_sprintf(a, "%s/main.pp", pr->name), &d);
    bool bound = p && pcl_bind(p, set, &d);
    for (int li = 0; li < N_LANGS; li++) {
        if (!bound) {
            ck_assert_msg(d.errors > 0, "%s: refused without an error", pr->name);
            pr->reason[li] = reason_key(a, diag_format(&d, d.head));
            continue;
        }
        diag_list_t e;
        diag_list_init(&e);
        char *code = emit_program(p, LANGS[li], &e);
        if (code && e.errors == 0) {
            pr->res[li] = R_ACCEPTED;
            pr->code[li] = code;
        } else {
            ck_assert_msg(e.errors > 0, "%s (%s): refused without an error", pr->name, LANG_COL[li]);
            for (diag_t *x = e.head; x; x = x->next)
                if (x->severity == DIAG_ERROR) {
                    pr->reason[li] = reason_key(a, diag_format(&e, x));
                    break;
                }
            free(code);
        }
        diag_list_free(&e);
    }
    pcl_program_free(p);
    diag_list_free(&d);
    free(text);
}

static void compare_expected(arena_t *a, program_t *pr) {
    for (int li = 0; li < 3; li++) {
        if (pr->res[li] != R_ACCEPTED) continue;
        char *path = arena_sprintf(a, "%s/expected/%s/%s%s%s", pr->case_dir, EXPECTED[li][0], pr->rel,
                                   *pr->rel ? "/" : "", EXPECTED[li][1]);
        char *want = tu_read(path, NULL);
        if (!want) {
            pr->no_expected[li] = true;
            continue;
        }
        if (strcmp(normalise(a, want, li), normalise(a, pr->code[li], li)) == 0) pr->res[li] = R_EQUIVALENT;
        free(want);
    }
}

/* Whether Pulumi YAML could load `text`: one document that libyaml parses, whose root is a mapping
 * (a program file is a mapping of its sections; an empty file is no program). NULL when it is, the
 * problem otherwise. */
static const char *yaml_problem(arena_t *a, const char *text) {
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) return "libyaml could not start";
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    const char *problem = NULL;
    if (!yaml_parser_load(&parser, &doc)) {
        problem = arena_sprintf(a, "%s at line %zu", parser.problem ? parser.problem : "parse error",
                                parser.problem_mark.line + 1);
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (!root || root->type != YAML_MAPPING_NODE) problem = root ? "the root is not a mapping" : "no document";
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    return problem;
}

/* After a compiler failed: the programs its output names by their file, `<pre><i><post>`. */
static void name_programs(arena_t *a, const program_t *prs, size_t n, const char *out, const char *pre,
                          const char *post) {
    for (size_t i = 0; out && i < n; i++)
        if (strstr(out, arena_sprintf(a, "%s%zu%s", pre, i, post)))
            fprintf(stderr, "%s%zu%s is %s\n", pre, i, post, prs[i].name);
}

/* Valid UTF-8 in every language; gofmt over every accepted Go file, py_compile and pyflakes over
 * every Python file, tree-sitter for C#/Java, libyaml for YAML. */
static void check_compiles(arena_t *a, program_t *prs, size_t n) {
    char *dir = tu_mkdtemp();
    buf_t py, gofiles;
    buf_init(&py);
    buf_init(&gofiles);
    size_t n_py = 0, n_go = 0;
    for (size_t i = 0; i < n; i++) {
        program_t *pr = &prs[i];
        for (int li = 0; li < N_LANGS; li++) { /* every language's text: UTF-8, whatever its strings hold */
            size_t bad = 0;
            ck_assert_msg(pr->res[li] == R_REFUSED || utf8_valid(pr->code[li], strlen(pr->code[li]), &bad),
                          "%s: the %s output is not valid UTF-8 at byte %zu", pr->name, LANG_COL[li], bad);
        }
        if (pr->res[1] != R_REFUSED) {
            char *f = arena_sprintf(a, "%s/p%zu.py", dir, i);
            ck_assert(tu_write(f, pr->code[1]));
            buf_printf(&py, " '%s'", f);
            n_py++;
        }
        if (pr->res[2] != R_REFUSED) {
            char *f = arena_sprintf(a, "%s/p%zu.go", dir, i);
            ck_assert(tu_write(f, pr->code[2]));
            buf_printf(&gofiles, " '%s'", f);
            n_go++;
        }
        if (pr->res[5] != R_REFUSED) {
            const char *problem = yaml_problem(a, pr->code[5]);
            ck_assert_msg(!problem, "%s: the YAML output is not a Pulumi YAML program: %s\n%s", pr->name, problem,
                          pr->code[5]);
        }
        for (int li = 3; li < 5; li++) {
            if (pr->res[li] == R_REFUSED) continue;
            diag_list_t d;
            diag_list_init(&d);
            size_t probs = ts_check_buffer(LANGS[li], pr->code[li], strlen(pr->code[li]), pr->name, &d);
            ck_assert_msg(probs == 0, "%s: the %s output does not parse: %s\n%s", pr->name, LANG_COL[li],
                          d.head ? diag_format(&d, d.head) : "", pr->code[li]);
            diag_list_free(&d);
        }
    }
    int status = -1;
    char *out;
    if (n_go) {
        out = tu_run(arena_sprintf(a, "gofmt -l -e%s 2>&1", gofiles.data), &status);
        ck_assert_msg(status == 0 && (!out || !*out), "gofmt rejects or would reformat generated Go:\n%s", out);
        free(out);
        /* go vet needs the packages the program imports, and the Pulumi SDK cannot be fetched here:
         * fixtures/conformance/gocheck.go type-checks each file with go/types (the standard library
         * imported, the SDKs left unresolved) and runs vet's printf and self-assignment checks */
        out = tu_run(arena_sprintf(a,
                                   "cd '%s' && cp '%s/tests/fixtures/conformance/gocheck.go' . && "
                                   "HOME=${HOME:-/tmp} go build -o gocheck gocheck.go 2>&1 && ./gocheck%s 2>&1",
                                   dir, SOURCE_DIR, gofiles.data),
                     &status);
        if (status != 0) name_programs(a, prs, n, out, "/p", ".go:"); /* p<i>.go is prs[i] */
        ck_assert_msg(status == 0, "the Go checks (go/types, printf) reject generated Go:\n%.3000s", out ? out : "");
        free(out);
    }
    if (n_py) {
        out = tu_run(arena_sprintf(a, "python3 -m py_compile%s 2>&1", py.data), &status);
        ck_assert_msg(status == 0, "py_compile rejects generated Python:\n%s", out);
        free(out);
        /* pyflakes (Debian's python3-pyflakes): a name the code uses and never defines or imports
         * (a module, a helper) compiles, and fails only when the program runs */
        out = tu_run(arena_sprintf(a, "/usr/bin/python3 -m pyflakes%s 2>&1", py.data), &status);
        ck_assert_msg(out && !strstr(out, "No module named"),
                      "pyflakes is missing: install python3-pyflakes (scripts/setup.sh --tests)\n%s", out);
        ck_assert_msg(!strstr(out, "undefined name") && !strstr(out, "redefinition of"),
                      "pyflakes finds undefined or redefined names in generated Python:\n%s", out);
        free(out);
    }
    buf_free(&py);
    buf_free(&gofiles);
    tu_rmtree(dir);
    free(dir);
}

/* tsc --strict over every accepted TypeScript file, against the real @pulumi/pulumi (tests/peers)
 * and declarations for the test providers derived from their schemas (conformance/dts.js). */
static void check_tsc(arena_t *a, program_t *prs, size_t n) {
    const char *peers = arena_sprintf(a, "%s/tests/peers", SOURCE_DIR);
    struct stat st;
    ck_assert_msg(stat(arena_sprintf(a, "%s/node_modules/typescript/bin/tsc", peers), &st) == 0,
                  "tests/peers/node_modules is missing: run scripts/setup.sh --tests first");
    char *dir = tu_mkdtemp();
    int status = -1;
    char *out = tu_run(
        arena_sprintf(
            a, "node '%s/tests/fixtures/conformance/dts.js' '%s/tests/fixtures/conformance/schemas' '%s/types' 2>&1",
            SOURCE_DIR, SOURCE_DIR, dir),
        &status);
    ck_assert_msg(status == 0, "dts.js failed:\n%s", out);
    free(out);
    buf_t files;
    buf_init(&files);
    for (size_t i = 0; i < n; i++) {
        if (prs[i].res[0] == R_REFUSED) continue;
        char *f = arena_sprintf(a, "%s/p%zu.ts", dir, i);
        ck_assert(tu_write(f, prs[i].code[0]));
        buf_printf(&files, "%s\"%s\"", files.len ? "," : "", f);
    }
    if (files.len) {
        char *tsconfig = arena_sprintf(
            a,
            "{\"compilerOptions\":{\"module\":\"commonjs\",\"target\":\"es2022\",\"strict\":true,\"noEmit\":true,"
            "\"skipLibCheck\":true,\"moduleResolution\":\"node\",\"baseUrl\":\".\",\"typeRoots\":[\"%s/node_modules/"
            "@types\"],"
            "\"types\":[\"node\"],\"paths\":{\"@pulumi/pulumi\":[\"%s/node_modules/@pulumi/pulumi\"],\"*\":[\"%s/types/"
            "*\"]}},"
            "\"files\":[%s]}",
            peers, peers, dir, files.data);
        ck_assert(tu_write(arena_sprintf(a, "%s/tsconfig.json", dir), tsconfig));
        out = tu_run(
            arena_sprintf(a, "cd '%s' && node '%s/node_modules/typescript/bin/tsc' -p tsconfig.json 2>&1", dir, peers),
            &status);
        if (status != 0) name_programs(a, prs, n, out, "p", ".ts("); /* p<i>.ts is prs[i] */
        ck_assert_msg(status == 0, "tsc --strict rejects generated TypeScript:\n%.3000s", out ? out : "");
        free(out);
    }
    buf_free(&files);
    tu_rmtree(dir);
    free(dir);
}

/* javac over every accepted Java file, against the API surface of pulumi-java that tests/peers/java
 * declares (our own classes with pulumi-java's signatures; bodies only throw) and the test
 * providers' classes derived from their schemas (conformance/javastubs.js). Each program goes in
 * its own package (p<i>) so one javac run compiles them all. */
static void check_javac(arena_t *a, program_t *prs, size_t n) {
    int status = -1;
    char *out = tu_run("javac -version 2>&1", &status);
    ck_assert_msg(status == 0, "javac is missing: install openjdk-17-jdk-headless (scripts/setup.sh --tests)\n%s",
                  out ? out : "");
    free(out);
    char *dir = tu_mkdtemp();
    out = tu_run(
        arena_sprintf(a,
                      "node '%s/tests/fixtures/conformance/javastubs.js' '%s/tests/fixtures/conformance/schemas' "
                      "'%s/gen' 2>&1 && find '%s/tests/peers/java' '%s/gen' -name '*.java' > '%s/api.txt' && "
                      "javac -nowarn -encoding UTF-8 -d '%s/classes' @'%s/api.txt' 2>&1",
                      SOURCE_DIR, SOURCE_DIR, dir, SOURCE_DIR, dir, dir, dir, dir),
        &status);
    ck_assert_msg(status == 0, "the Java API surface (tests/peers/java, javastubs.js) does not compile:\n%.3000s",
                  out ? out : "");
    free(out);
    buf_t files;
    buf_init(&files);
    for (size_t i = 0; i < n; i++) {
        const char *code = prs[i].code[4];
        if (prs[i].res[4] == R_REFUSED) continue;
        const char *head = "package generated_program;";
        ck_assert_msg(strncmp(code, head, strlen(head)) == 0, "%s: the Java output does not start with '%s'",
                      prs[i].name, head);
        free(tu_run(arena_sprintf(a, "mkdir -p '%s/src/p%zu'", dir, i), &status));
        char *f = arena_sprintf(a, "%s/src/p%zu/App.java", dir, i);
        ck_assert(tu_write(f, arena_sprintf(a, "package p%zu;%s", i, code + strlen(head))));
        buf_printf(&files, "%s\n", f);
    }
    if (files.len) {
        ck_assert(tu_write(arena_sprintf(a, "%s/programs.txt", dir), files.data));
        out = tu_run(arena_sprintf(a,
                                   "javac -nowarn -encoding UTF-8 -Xmaxerrs 1000 -cp '%s/classes' -d '%s/out' "
                                   "@'%s/programs.txt' 2>&1",
                                   dir, dir, dir),
                     &status);
        if (status != 0) name_programs(a, prs, n, out, "/src/p", "/App.java:"); /* src/p<i> is prs[i] */
        ck_assert_msg(status == 0, "javac rejects generated Java:\n%.6000s", out ? out : "");
        free(out);
    }
    buf_free(&files);
    tu_rmtree(dir);
    free(dir);
}

typedef struct reason_count {
    const char *reason;
    size_t n;
} reason_count_t;

static int reason_cmp(const void *x, const void *y) {
    const reason_count_t *a = x, *b = y;
    return a->n != b->n ? (a->n < b->n ? 1 : -1) : strcmp(a->reason, b->reason);
}

static void print_table(arena_t *a, program_t *prs, size_t n, const size_t *acc, const size_t *eq) {
    static const char *const mark[] = {"--", "ok", "eq"};
    printf("%-58s %4s %4s %4s %4s %4s %4s\n", "program", "ts", "py", "go", "cs", "java", "yaml");
    for (size_t i = 0; i < n; i++) {
        printf("%-58s", prs[i].name);
        for (int li = 0; li < N_LANGS; li++)
            printf(" %4s", mark[prs[i].res[li]]);
        printf("\n");
    }
    printf("%-58s", "accepted");
    for (int li = 0; li < N_LANGS; li++)
        printf(" %4zu", acc[li]);
    printf("   of %zu programs\n%-58s", n, "equivalent to Pulumi's output");
    for (int li = 0; li < 3; li++)
        printf(" %4zu", eq[li]);
    printf("\n");
    reason_count_t *rc = arena_alloc(a, (n + 1) * sizeof *rc);
    for (int li = 0; li < N_LANGS; li++) {
        printf("\nrefusals (%s), by the construct that blocks them:\n", LANG_COL[li]);
        size_t nr = 0;
        for (size_t i = 0; i < n; i++) {
            if (prs[i].res[li] != R_REFUSED || !prs[i].reason[li]) continue;
            size_t k = 0;
            while (k < nr && strcmp(rc[k].reason, prs[i].reason[li]) != 0)
                k++;
            if (k == nr) rc[nr++] = (reason_count_t){prs[i].reason[li], 0};
            rc[k].n++;
        }
        qsort(rc, nr, sizeof *rc, reason_cmp);
        for (size_t k = 0; k < nr; k++)
            printf("%5zu  %s\n", rc[k].n, rc[k].reason);
    }
}

START_TEST(test_conformance_programs) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    schema_set_t *set = schema_set_new();
    ck_assert(schema_set_add_path(set, arena_sprintf(a, "%s/tests/fixtures/conformance/schemas", SOURCE_DIR), &d));
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);

    const char *root = tu_data(a, "pcl-conformance");
    size_t n = 0;
    char **files = tu_find_files(a, root, "main.pp", &n);
    ck_assert_uint_ge(n, 150);
    program_t *prs = arena_alloc(a, n * sizeof *prs);
    for (size_t i = 0; i < n; i++) {
        program_t *pr = &prs[i];
        pr->path = files[i];
        const char *r = files[i] + strlen(root) + 1; /* case[/rel]/main.pp */
        const char *slash = strchr(r, '/');
        pr->case_dir = arena_sprintf(a, "%s/%.*s", root, (int)(slash - r), r);
        const char *last = strrchr(r, '/');
        pr->rel = last > slash ? arena_strndup(a, slash + 1, (size_t)(last - slash - 1)) : "";
        pr->name = arena_strndup(a, r, (size_t)(last - r));
        run_program(a, set, pr);
        compare_expected(a, pr);
    }
    const char *dump = getenv(
        "CIMPORT_CONFORMANCE_DUMP"); /* every accepted output under this dir (before the checks: also when one fails) */
    for (size_t i = 0; dump && *dump && i < n; i++)
        for (int li = 0; li < N_LANGS; li++) {
            if (prs[i].res[li] == R_REFUSED) continue;
            char *dir = arena_sprintf(a, "%s/%s/%s", dump, LANG_COL[li], prs[i].name);
            int st;
            free(tu_run(arena_sprintf(a, "mkdir -p '%s'", dir), &st));
            ck_assert(tu_write(arena_sprintf(a, "%s/%s", dir, li < 3 ? EXPECTED[li][1] : "out"), prs[i].code[li]));
        }
    check_compiles(a, prs, n);
    check_tsc(a, prs, n);
    check_javac(a, prs, n);

    size_t acc[N_LANGS] = {0}, eq[3] = {0};
    size_t n_known = 0, n_refusals = 0;
    known_t *known = load_known(a, "known-differences.tsv", &n_known);
    known_t *refusals = load_known(a, "known-refusals.tsv", &n_refusals);
    buf_t unexplained;
    buf_init(&unexplained);
    for (size_t i = 0; i < n; i++) {
        for (int li = 0; li < N_LANGS; li++) {
            if (prs[i].res[li] != R_REFUSED) acc[li]++;
            if (li < 3 && prs[i].res[li] == R_EQUIVALENT) eq[li]++;
            known_t *r = find_known(refusals, n_refusals, prs[i].name, LANG_COL[li]);
            if (r) r->seen = true;
            if (prs[i].res[li] == R_REFUSED && !r)
                buf_printf(&unexplained, "%s\t%s: refused and not in known-refusals.tsv: %s\n", prs[i].name,
                           LANG_COL[li], prs[i].reason[li] ? prs[i].reason[li] : "");
            if (prs[i].res[li] != R_REFUSED && r)
                buf_printf(&unexplained, "%s\t%s: now accepted; remove it from known-refusals.tsv\n", prs[i].name,
                           LANG_COL[li]);
            if (li >= 3) continue;
            known_t *k = find_known(known, n_known, prs[i].name, LANG_COL[li]);
            if (k) k->seen = true;
            if (prs[i].res[li] == R_ACCEPTED && !k && !prs[i].no_expected[li])
                buf_printf(&unexplained,
                           "%s\t%s: differs from Pulumi's output and is not in known-differences.tsv:\n%s\n",
                           prs[i].name, LANG_COL[li], prs[i].code[li]);
            if (prs[i].res[li] == R_EQUIVALENT && k)
                buf_printf(&unexplained, "%s\t%s: now equivalent; remove it from known-differences.tsv\n", prs[i].name,
                           LANG_COL[li]);
            if (k && (prs[i].res[li] == R_REFUSED || prs[i].no_expected[li]))
                buf_printf(&unexplained, "%s\t%s: listed in known-differences.tsv but %s; remove it\n", prs[i].name,
                           LANG_COL[li], prs[i].res[li] == R_REFUSED ? "refused" : "Pulumi ships no expected output");
        }
    }
    for (size_t k = 0; k < n_known; k++)
        if (!known[k].seen)
            buf_printf(&unexplained, "%s\t%s: listed in known-differences.tsv but no such program/language\n",
                       known[k].program, known[k].lang);
    for (size_t k = 0; k < n_refusals; k++)
        if (!refusals[k].seen)
            buf_printf(&unexplained, "%s\t%s: listed in known-refusals.tsv but no such program/language\n",
                       refusals[k].program, refusals[k].lang);
    const char *table = getenv("CIMPORT_CONFORMANCE_TABLE");
    if (table && *table)
        print_table(a, prs, n, acc, eq);
    else {
        fprintf(stderr,
                "pcl conformance: %zu programs; accepted ts %zu py %zu go %zu cs %zu java %zu yaml %zu; "
                "equivalent ts %zu py %zu go %zu\n",
                n, acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], eq[0], eq[1], eq[2]);
    }
    if (unexplained.len) fputs(unexplained.data, stderr); /* Check's messages are short */
    ck_assert_msg(unexplained.len == 0,
                  "unexplained refusals or differences from Pulumi's output, or stale list entries (listed above)");
    for (size_t i = 0; i < n; i++)
        for (int li = 0; li < N_LANGS; li++)
            free(prs[i].code[li]);
    buf_free(&unexplained);
    schema_set_free(set);
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pcl_conformance");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_conformance_programs);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* test_splice_split.c — a big file parsed in two halves (splice/splice.c).
 *
 * A file of 256 KB or more is parsed as two trees on two threads, split at a line that starts a
 * top-level statement near the middle (TypeScript, Python), or a statement of the block of the
 * program's body (Go, C#, Java: each tree then holds the file around that block and half of its
 * statements), when the two trees confirm that one parse would read the file the same way (no errors
 * in either, the first half ending on a statement's own `;` or `}`, the second starting with a
 * statement; Go, C#, Java: both trees hold the block that the program's body is, from its `{` to its
 * `}`); the result's re-parse is split the same way. Every splice here
 * is run twice, split and whole (splice_options_t.whole_parse), and must give the same text,
 * statistics or messages. Splits the confirmation must reject (a template literal, block comment,
 * triple-quoted string or open brace or bracket across the middle, a statement continued across it,
 * errors) fall back to the whole parse; an ordinary big file must really be split. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "splice/splice.h"
#include "testutil.h"

static char *fixture(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/splice/%s", SOURCE_DIR, name);
    char *t = tu_read(path, NULL);
    ck_assert_msg(t != NULL, "missing fixture %s", path);
    return t;
}

/* One splice: the result (malloc'd) or NULL and every diagnostic formatted in *msgs (malloc'd). */
static char *splice_run(const char *target, size_t len, lang_t lang, const char *gen, bool whole, splice_stats_t *st,
                        char **msgs) {
    splicer_t *s = splicer_new();
    diag_list_t d;
    diag_list_init(&d);
    splice_options_t o = {.filename = "prog", .whole_parse = whole};
    char *out = NULL;
    memset(st, 0, sizeof *st);
    bool ok = splicer_splice(s, target, len, lang, gen, strlen(gen), &o, &out, NULL, NULL, st, &d);
    buf_t b;
    buf_init(&b);
    for (const diag_t *x = d.head; x; x = x->next)
        buf_printf(&b, "%s\n", diag_format(&d, x));
    *msgs = buf_take(&b);
    ck_assert(ok == (out != NULL));
    diag_list_free(&d);
    splicer_free(s);
    return out;
}

static int current_case = -1; /* named in failures */

/* Splices split and whole and checks both agree; returns whether the split parse was taken. */
static bool same_both_ways(const char *target, lang_t lang, const char *gen, bool expect_ok) {
    size_t len = strlen(target);
    ck_assert_uint_ge(len, (size_t)256 * 1024);
    splice_stats_t s1, s2;
    char *m1, *m2;
    char *split = splice_run(target, len, lang, gen, false, &s1, &m1);
    char *whole = splice_run(target, len, lang, gen, true, &s2, &m2);
    ck_assert_msg(expect_ok == (split != NULL), "case %d, split: %s", current_case, m1);
    ck_assert_str_eq(m1, m2);
    ck_assert(!s2.split_parse);
    bool taken = s1.split_parse;
    if (split) {
        ck_assert_ptr_nonnull(whole);
        ck_assert_msg(strcmp(split, whole) == 0, "split and whole results differ");
        s1.split_parse = s1.split_find = s1.split_reparse = false;
        s1.reparsed = s2.reparsed; /* the whole result, or the halves' parts of it */
        ck_assert_mem_eq(&s1, &s2, sizeof s1);
    } else {
        ck_assert_ptr_null(whole);
    }
    free(split);
    free(whole);
    free(m1);
    free(m2);
    return taken;
}

/* A big TypeScript program: the fixture's head, `n` resources, and `mid` written at the middle
 * (a line past half of the resources), with a resource the generated program replaces and a name
 * it declares in the second half. */
static char *ts_program(int n, const char *mid) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n"
                 "import * as tls from \"@pulumi/tls\";\n\n// resources\n");
    for (int i = 0; i < n; i++) {
        if (i == n / 2 && mid) buf_puts(&b, mid);
        if (i == n * 3 / 4)
            buf_puts(&b, "const theKey = new tls.PrivateKey(\"my-key\", {algorithm: \"ECDSA\"});\n"
                         "const certKeyPem = `multi\nline ${theKey.id}\n`;\n/* a comment\n   on lines */\n");
        buf_printf(&b, "const p%d = new random.RandomPet(\"p%d\", {\n    length: %d,\n});\n", i, i, i % 7 + 1);
        if (i % 500 == 0) buf_printf(&b, "function f%d() {\n    return p%d;\n}\n", i, i);
    }
    buf_puts(&b, "export const last = p0.id;\n");
    return buf_take(&b);
}

/* `open`, `line` written n times (its %d the count), `close` (malloc'd). */
static char *repeated(const char *open, const char *line, const char *close, int n) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, open);
    for (int k = 0; k < n; k++)
        buf_printf(&b, line, k);
    buf_puts(&b, close);
    return buf_take(&b);
}

/* Go, C#, Java: `n` resources in the body, `mid` at the middle, a resource the generated program
 * replaces and a name it declares at three quarters, a function before or after the body. */
static char *go_program(int n, const char *mid) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b,
             "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
             "\t\"github.com/pulumi/pulumi-tls/sdk/v5/go/tls\"\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\n"
             "func helper() string {\n\treturn \"{\"\n}\n\nfunc main() {\n"
             "\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tvar err error\n");
    for (int i = 0; i < n; i++) {
        if (i == n / 2 && mid) buf_puts(&b, mid);
        if (i == n * 3 / 4)
            buf_puts(
                &b, "\t\tmyKey, err := tls.NewPrivateKey(ctx, \"my-key\", &tls.PrivateKeyArgs{\n"
                    "\t\t\tAlgorithm: pulumi.String(\"ECDSA\"),\n\t\t})\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
                    "\t\tcertKeyPem := `multi\nline {\n`\n\t\t/* a comment\n\t\t   on lines } */\n"
                    "\t\t_, _ = myKey, certKeyPem\n");
        buf_printf(
            &b,
            "\t\t_, err = random.NewRandomPet(ctx, \"p%d\", &random.RandomPetArgs{\n\t\t\tLength: pulumi.Int(%d),\n"
            "\t\t})\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n",
            i, i % 7 + 1);
    }
    buf_puts(&b, "\t\treturn nil\n\t})\n}\n\nfunc after() rune {\n\treturn '}'\n}\n");
    return buf_take(&b);
}

static char *cs_program(int n, const char *mid) {
    buf_t b;
    buf_init(&b);
    buf_puts(
        &b,
        "using System.Collections.Generic;\nusing Pulumi;\nusing Random = Pulumi.Random;\nusing Tls = Pulumi.Tls;\n\n"
        "return await Deployment.RunAsync(() => \n{\n");
    for (int i = 0; i < n; i++) {
        if (i == n / 2 && mid) buf_puts(&b, mid);
        if (i == n * 3 / 4)
            buf_puts(&b, "    var myKey = new Tls.PrivateKey(\"my-key\", new()\n    {\n        Algorithm = "
                         "\"ECDSA\",\n    });\n\n"
                         "    var certKeyPem = @\"multi\nline {\"\"\n\";\n    /* a comment\n       on lines } */\n\n");
        buf_printf(&b, "    var p%d = new Random.RandomPet(\"p%d\", new()\n    {\n        Length = %d,\n    });\n\n", i,
                   i, i % 7 + 1);
    }
    buf_puts(&b, "});\n\nclass Helper\n{\n    static char F() => '}';\n}\n");
    return buf_take(&b);
}

static char *java_program(int n, const char *mid) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "package generated_program;\n\nimport com.pulumi.Context;\nimport com.pulumi.Pulumi;\n"
                 "import com.pulumi.random.RandomPet;\nimport com.pulumi.random.RandomPetArgs;\n"
                 "import com.pulumi.tls.PrivateKey;\nimport com.pulumi.tls.PrivateKeyArgs;\n\npublic class App {\n"
                 "    public static void main(String[] args) {\n        Pulumi.run(App::stack);\n    }\n\n"
                 "    public static void stack(Context ctx) {\n");
    for (int i = 0; i < n; i++) {
        if (i == n / 2 && mid) buf_puts(&b, mid);
        if (i == n * 3 / 4)
            buf_puts(&b, "        var myKey = new PrivateKey(\"my-key\", PrivateKeyArgs.builder()\n"
                         "            .algorithm(\"ECDSA\")\n            .build());\n\n"
                         "        var certKeyPem = \"\"\"\n            multi\n            line {\n            \"\"\";\n"
                         "        /* a comment\n           on lines } */\n\n");
        buf_printf(&b,
                   "        var p%d = new RandomPet(\"p%d\", RandomPetArgs.builder()\n            .length(%d)\n"
                   "            .build());\n\n",
                   i, i, i % 7 + 1);
    }
    buf_puts(&b, "    }\n\n    static char helper() {\n        return '}';\n    }\n}\n");
    return buf_take(&b);
}

/* The program of `lang` with n resources (go_program, ...). */
static char *block_program(lang_t lang, int n, const char *mid) {
    return lang == LANG_GO ? go_program(n, mid) : lang == LANG_CSHARP ? cs_program(n, mid) : java_program(n, mid);
}

static const char *gen_fixture_name(lang_t lang) {
    return lang == LANG_GO ? "gen.go" : lang == LANG_CSHARP ? "gen.cs" : "gen.java";
}

static char *py_program(int n, const char *mid) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "import pulumi\nimport pulumi_random as random\nimport pulumi_tls as tls\n\n# resources\n");
    for (int i = 0; i < n; i++) {
        if (i == n / 2 && mid) buf_puts(&b, mid);
        if (i == n * 3 / 4)
            buf_puts(&b, "the_key = tls.PrivateKey(\"my-key\", algorithm=\"ECDSA\")\n"
                         "cert_key_pem = \"\"\"multi\nline\n\"\"\"\n# a comment\n");
        buf_printf(&b, "p%d = random.RandomPet(\"p%d\",\n    length=%d)\n", i, i, i % 7 + 1);
        if (i % 500 == 0) buf_printf(&b, "def f%d():\n    return p%d\n\n", i, i);
    }
    buf_puts(&b, "pulumi.export(\"last\", p0.id)\n");
    return buf_take(&b);
}

/* An ordinary big file is split, and the result is the whole parse's: the resource in the second
 * half is replaced, the name declared there is not taken again. */
START_TEST(test_split_taken_and_same) {
    char *gts = fixture("gen.ts"), *gpy = fixture("gen.py");
    char *ts = ts_program(8000, NULL), *py = py_program(8000, NULL);
    ck_assert(same_both_ways(ts, LANG_TYPESCRIPT, gts, true));
    ck_assert(same_both_ways(py, LANG_PYTHON, gpy, true));
    splice_stats_t st;
    char *m;
    char *out = splice_run(ts, strlen(ts), LANG_TYPESCRIPT, gts, false, &st, &m);
    ck_assert_ptr_nonnull(out);
    ck_assert(st.split_parse);
    ck_assert_uint_eq(st.replaced, 1); /* my-key, in the second half */
    ck_assert_ptr_nonnull(strstr(out, "const theKey = new tls.PrivateKey(\"my-key\", {algorithm: \"RSA\"});"));
    ck_assert_ptr_null(strstr(out, "const certKeyPem = config"));
    free(out);
    free(m);
    free(ts);
    free(py);
    free(gts);
    free(gpy);
    /* Go, C#, Java: the block of the body split */
    static const lang_t B[] = {LANG_GO, LANG_CSHARP, LANG_JAVA};
    for (size_t i = 0; i < sizeof B / sizeof *B; i++) {
        char *gen = fixture(gen_fixture_name(B[i])), *t = block_program(B[i], 4000, NULL);
        current_case = (int)i;
        ck_assert_msg(same_both_ways(t, B[i], gen, true), "%s not split", lang_name(B[i]));
        out = splice_run(t, strlen(t), B[i], gen, false, &st, &m);
        ck_assert_msg(out != NULL, "%s", m);
        ck_assert(st.split_parse);
        ck_assert_uint_eq(st.replaced, 1); /* my-key, in the second half */
        ck_assert_ptr_nonnull(strstr(out, "\"RSA\""));
        ck_assert_ptr_null(strstr(out, "\"ECDSA\""));
        free(out);
        free(m);
        free(t);
        free(gen);
    }
}
END_TEST

/* Go, C#, Java: constructs across the middle of the body's block, a block that is not the program's
 * body, errors: each gives the whole parse's result or message, split only where a line after (or
 * before) the construct is a good cut. */
START_TEST(test_split_block_hazards) {
    static const struct {
        lang_t lang;
        const char *open, *line, *close;
        bool ok, may_split;
    } C[] = {
        /* a raw string, a block comment: the cut goes after them */
        {LANG_GO, "\t\tdoc := `\n", "\t\tf(%d)\n", "`\n\t\t_ = doc\n", true, true},
        {LANG_GO, "\t\t/*\n", "\t\tf(%d)\n", "\t\t*/\n", true, true},
        /* a nested block holding the middle: its block is not the body */
        {LANG_GO, "\t\tif ctx != nil {\n", "\t\t\tf(%d)\n", "\t\t}\n", true, false},
        {LANG_GO, "\t\tgo func() {\n", "\t\t\tf(%d)\n", "\t\t}()\n", true, false},
        /* an open bracket, an unclosed block, a syntax error */
        {LANG_GO, "\t\tf(\n", "\t\t\tg(%d),\n", "\t\t)\n", true, true},
        {LANG_GO, "\t\tif ctx != nil {\n", "\t\t\tf(%d)\n", "", false, false},
        {LANG_GO, "", "\t\tf(%d)\n", "\t\tx := ;\n", false, false},
        {LANG_GO, "\t\tx := ;\n", "\t\tf(%d)\n", "", false, false},
        {LANG_CSHARP, "    var doc = @\"\n", "    F(%d);\"\"\n", "\";\n", true, true},
        {LANG_CSHARP, "    var doc = \"\"\"\n", "    F(%d);\n", "    \"\"\";\n", true, true},
        {LANG_CSHARP, "    /*\n", "    F(%d);\n", "    */\n", true, true},
        {LANG_CSHARP, "    Action a = () =>\n    {\n", "        F(%d);\n", "    };\n", true, false},
        {LANG_CSHARP, "    if (true)\n    {\n", "        F(%d);\n", "    }\n", true, false},
        /* an interpolated string whose hole holds braces in strings (the cut's scan is misled) */
        {LANG_CSHARP, "", "    var s%d = $\"{(true ? \"}\" : \"{\")}\";\n", "", true, true},
        {LANG_CSHARP, "    var a = new[]\n    {\n", "        G(%d),\n", "    };\n", true, true},
        {LANG_CSHARP, "    if (true)\n    {\n", "        F(%d);\n", "", false, false},
        {LANG_CSHARP, "", "    F(%d);\n", "    var x = ;\n", false, false},
        {LANG_JAVA, "        var doc = \"\"\"\n", "        f(%d);\n", "        \"\"\";\n", true, true},
        {LANG_JAVA, "        /*\n", "        f(%d);\n", "        */\n", true, true},
        {LANG_JAVA, "        Runnable r = () -> {\n", "            f(%d);\n", "        };\n", true, false},
        {LANG_JAVA, "        {\n", "            f(%d);\n", "        }\n", true, false},
        {LANG_JAVA, "        f(\n", "            g(%d),\n", "            0);\n", true, true},
        {LANG_JAVA, "        if (true) {\n", "            f(%d);\n", "", false, false},
        {LANG_JAVA, "", "        f(%d);\n", "        var = ;\n", false, false},
        /* `else` continues the statement before it */
        {LANG_JAVA, "", "        if (ctx == null) f(%d);\n        else\n            f(0);\n", "", true, true},
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        char *mid = repeated(C[i].open, C[i].line, C[i].close, 6000);
        char *gen = fixture(gen_fixture_name(C[i].lang));
        char *t = block_program(C[i].lang, 2600, mid);
        current_case = (int)i;
        bool taken = same_both_ways(t, C[i].lang, gen, C[i].ok);
        ck_assert_msg(!taken || C[i].may_split, "case %zu was split", i);
        free(t);
        free(gen);
        free(mid);
    }
}
END_TEST

/* The big block is not the program's body (a function before it, a class after it, a method that
 * takes no Context): parsed whole, the same result. */
START_TEST(test_split_block_not_the_body) {
    static const struct {
        lang_t lang;
        const char *head, *line, *tail;
    } C[] = {
        {LANG_GO, "package main\n\nimport \"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n\nfunc big() {\n", "\tf(%d)\n",
         "}\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\treturn nil\n\t})\n}\n"},
        {LANG_CSHARP,
         "using Pulumi;\n\nreturn await Deployment.RunAsync(() =>\n{\n});\n\nclass Big\n{\n    void F()\n    {\n",
         "        F(%d);\n", "    }\n}\n"},
        {LANG_JAVA, "package p;\n\nimport com.pulumi.Context;\n\npublic class App {\n    static void big() {\n",
         "        f(%d);\n", "    }\n\n    public static void stack(Context ctx) {\n    }\n}\n"},
        /* Java: a second method taking a Context: the first one is the body */
        {LANG_JAVA,
         "package p;\n\nimport com.pulumi.Context;\n\npublic class App {\n    static void first(Context c) {\n    }\n\n"
         "    public static void stack(Context ctx) {\n",
         "        f(%d);\n", "    }\n}\n"},
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        char *t = repeated(C[i].head, C[i].line, C[i].tail, 40000);
        char *gen = fixture(gen_fixture_name(C[i].lang));
        current_case = (int)i;
        ck_assert_msg(!same_both_ways(t, C[i].lang, gen, true), "case %zu was split", i);
        free(gen);
        free(t);
    }
}
END_TEST

/* Text across the middle that one parse reads as one construct: each must fall back to the whole
 * parse (not split) and give its result or refusal. */
START_TEST(test_split_refused_across_constructs) {
    char *gts = fixture("gen.ts"), *gpy = fixture("gen.py");
    buf_t mid;
    static const struct {
        lang_t lang;
        const char *open, *line, *close;
        bool ok, may_split; /* may_split: a line after the construct is a good split */
    } C[] = {
        /* a multi-line template literal, a block comment, a function body, each holding lines
         * that look like top-level statements */
        {LANG_TYPESCRIPT, "const doc = `\n", "const x%d = 1;\n", "`;\n", true, false},
        {LANG_TYPESCRIPT, "/*\n", "const x%d = 1;\n", "*/\n", true, false},
        {LANG_TYPESCRIPT, "function big() {\n", "const x%d = 1;\n", "}\n", true, false},
        /* a statement the next line continues: `declare` then `const` reads as one declaration */
        {LANG_TYPESCRIPT, "", "declare\nconst x%d: number;\n", "", true, false},
        /* no line starts a statement inside: split after it */
        {LANG_TYPESCRIPT, "const o = {\n", "a%d: 1,\n", "};\n", true, true},
        {LANG_TYPESCRIPT, "", "let x%d = function () {}\n", "", true, true},
        /* an unclosed brace: refused, by the same message */
        {LANG_TYPESCRIPT, "function broken() {\n", "const x%d = 1;\n", "", false, false},
        {LANG_PYTHON, "doc = \"\"\"\n", "x%d = 1\n", "\"\"\"\n", true, false},
        {LANG_PYTHON, "d = dict(\n", "a%d=1,\n", ")\n", true, false},
        {LANG_PYTHON, "if True:\n    pass\n", "else:\n    x%d = 1\n", "", true, true},
        {LANG_PYTHON, "", "x%d = 1 + \\\n2\n", "", true, true},
        /* a decorator on the line before the cut */
        {LANG_PYTHON, "", "@dec\ndef f%d():\n    pass\n", "", true, false},
        {LANG_PYTHON, "d = [\n", "x%d,\n", "", false, false},
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        buf_init(&mid);
        buf_puts(&mid, C[i].open);
        for (int k = 0; k < 4000; k++)
            buf_printf(&mid, C[i].line, k);
        buf_puts(&mid, C[i].close);
        char *t = C[i].lang == LANG_PYTHON ? py_program(6000, mid.data) : ts_program(5000, mid.data);
        current_case = (int)i;
        bool taken = same_both_ways(t, C[i].lang, C[i].lang == LANG_PYTHON ? gpy : gts, C[i].ok);
        ck_assert_msg(!taken || C[i].may_split, "case %zu was split", i);
        free(t);
        buf_free(&mid);
    }
    free(gts);
    free(gpy);
}
END_TEST

/* Python: statements of the module at another column than the first's are an error one parse sees
 * across the halves (each half alone is consistent); a file with errors in either half. */
START_TEST(test_split_errors_as_whole) {
    char *gts = fixture("gen.ts"), *gpy = fixture("gen.py");
    buf_t b;
    buf_init(&b);
    for (int i = 0; i < 20000; i++)
        buf_printf(&b, "  p%d = 1\n", i);
    for (int i = 0; i < 20000; i++)
        buf_printf(&b, "q%d = 1\n", i);
    ck_assert(!same_both_ways(b.data, LANG_PYTHON, gpy, false));
    buf_free(&b);
    char *t = ts_program(8000, "const = ;\n");
    ck_assert(!same_both_ways(t, LANG_TYPESCRIPT, gts, false));
    free(t);
    t = py_program(8000, "x = (\n");
    ck_assert(!same_both_ways(t, LANG_PYTHON, gpy, false));
    free(t);
    free(gts);
    free(gpy);
}
END_TEST

/* A file with more comments than the whole parse takes as they are (it hides the inner ones of long
 * runs, ts_check.h) is parsed whole, though each half alone has fewer. */
START_TEST(test_split_comment_runs) {
    char *gpy = fixture("gen.py");
    buf_t mid;
    buf_init(&mid);
    for (int k = 0; k < 45000; k++) /* the middle of the file is in here: the cut is the next line */
        buf_puts(&mid, "# a\n");
    buf_puts(&mid, "mid = 1\n");
    for (int k = 0; k < 35000; k++)
        buf_puts(&mid, "# b\n");
    char *t = py_program(2000, mid.data);
    ck_assert(!same_both_ways(t, LANG_PYTHON, gpy, true));
    free(t);
    buf_free(&mid);
    free(gpy);
}
END_TEST

/* A parse budget run out in one half is reported as for the whole file. */
START_TEST(test_split_parse_budget) {
    ck_assert_int_eq(setenv("CIMPORT_PARSE_TIMEOUT", "1", 1), 0);
    char *gpy = fixture("gen.py");
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "import pulumi\n");
    for (int i = 0; b.len < (size_t)300 * 1024; i++)
        buf_printf(&b, "p%d = 1\n", i);
    buf_puts(&b, "x = 1\n");
    for (int i = 0; i < 30000; i++)
        buf_puts(&b, "\\\n");
    buf_puts(&b, "y = 2\n");
    splice_stats_t st;
    char *m;
    char *out = splice_run(b.data, b.len, LANG_PYTHON, gpy, false, &st, &m);
    ck_assert_ptr_null(out);
    ck_assert_str_eq(m, "prog: cannot parse the Python program within 1 s (tree-sitter gave up on text this "
                        "irregular, such as thousands of line continuations; CIMPORT_PARSE_TIMEOUT=SECONDS allows "
                        "longer); nothing was changed\n");
    free(m);
    buf_free(&b);
    free(gpy);
    unsetenv("CIMPORT_PARSE_TIMEOUT");
}
END_TEST

/* `text` with `line` written after its first line holding `after`. */
static char *insert_after(const char *text, const char *after, const char *line) {
    const char *at = strstr(text, after);
    ck_assert_ptr_nonnull(at);
    at = strchr(at, '\n') + 1;
    buf_t b;
    buf_init(&b);
    buf_append(&b, text, (size_t)(at - text));
    buf_puts(&b, line);
    buf_puts(&b, at);
    return buf_take(&b);
}

/* The file's resources are read on two threads, each over half of the candidates (in order), and put
 * together as one reading gives them: an ordinary big file's are split (splice_stats_t.split_find),
 * and where that cannot be shown the same — the candidates' middle inside one statement holding many
 * resources, whose first alone counts — they are read on one thread. Two resources of one name, one
 * in each half, are refused as the whole reading refuses them. */
START_TEST(test_split_find_resources) {
    char *gts = fixture("gen.ts"), *gpy = fixture("gen.py");
    splice_stats_t st;
    char *m;
    char *ts = ts_program(8000, NULL), *py = py_program(8000, NULL);
    char *out = splice_run(ts, strlen(ts), LANG_TYPESCRIPT, gts, false, &st, &m);
    ck_assert_ptr_nonnull(out);
    ck_assert(st.split_parse && st.split_find);
    free(out);
    free(m);
    out = splice_run(py, strlen(py), LANG_PYTHON, gpy, false, &st, &m);
    ck_assert_ptr_nonnull(out);
    ck_assert(st.split_parse && st.split_find);
    free(out);
    free(m);

    /* "my-key" twice: near the top (the first half's candidates) and at three quarters (the second's):
     * refused (which one the import is cannot be told), the two named in the order one reading gives
     * (a refusal gives no stats: that the candidates were read split is not shown here) */
    char *dup[2] = {
        insert_after(ts, "// resources", "const early = new tls.PrivateKey(\"my-key\", {algorithm: \"DSA\"});\n"),
        insert_after(py, "# resources", "early = tls.PrivateKey(\"my-key\", algorithm=\"DSA\")\n")};
    for (int i = 0; i < 2; i++) {
        lang_t l = i ? LANG_PYTHON : LANG_TYPESCRIPT;
        same_both_ways(dup[i], l, i ? gpy : gts, false); /* the split reading's message is the whole one's */
        out = splice_run(dup[i], strlen(dup[i]), l, i ? gpy : gts, false, &st, &m);
        ck_assert_ptr_null(out);
        size_t late = 1; /* the line of the second, at three quarters */
        for (const char *q = dup[i]; q < strstr(dup[i], "ECDSA"); q++)
            late += *q == '\n';
        char want[64];
        snprintf(want, sizeof want, "prog:6: the program defines the resource 'my-key'");
        ck_assert_msg(strncmp(m, want, strlen(want)) == 0, "%s", m);
        snprintf(want, sizeof want, "here and again at line %zu ", late);
        ck_assert_msg(strstr(m, want) != NULL, "%s", m);
        free(m);
        free(dup[i]);
    }

    /* one statement holding most of the file's candidates, across their middle */
    static const struct {
        lang_t lang;
        const char *open, *line, *close;
    } C[] = {
        {LANG_TYPESCRIPT, "const big = [\n", "    new tls.PrivateKey(\"%s\", {algorithm: \"DSA\"}),\n", "];\n"},
        {LANG_PYTHON, "big = [\n", "    tls.PrivateKey(\"%s\", algorithm=\"DSA\"),\n", "]\n"},
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        buf_t mid;
        buf_init(&mid);
        buf_puts(&mid, C[i].open);
        for (int k = 0; k < 9000; k++) /* only the first counts: the others are not the "my-key" replaced */
            buf_printf(&mid, C[i].line, k ? "my-key" : "n0");
        buf_puts(&mid, C[i].close);
        char *t = C[i].lang == LANG_PYTHON ? py_program(5000, mid.data) : ts_program(5000, mid.data);
        current_case = (int)i;
        ck_assert(same_both_ways(t, C[i].lang, C[i].lang == LANG_PYTHON ? gpy : gts, true));
        out = splice_run(t, strlen(t), C[i].lang, C[i].lang == LANG_PYTHON ? gpy : gts, false, &st, &m);
        ck_assert_ptr_nonnull(out);
        ck_assert(st.split_parse && !st.split_find);
        free(out);
        free(m);
        free(t);
        buf_free(&mid);
    }
    free(ts);
    free(py);
    free(gts);
    free(gpy);
}
END_TEST

/* A candidate the resources query must answer (a comment where its anchor is), in the second half of
 * the candidates: the other thread does not compile the query, so on a new splicer it gives up and
 * all are read on one thread; once a splice has compiled it, the other thread runs it with a cursor
 * of its own. Either way the result is the whole reading's. */
START_TEST(test_split_find_query) {
    char *gts = fixture("gen.ts");
    char *t = ts_program(8000, NULL);
    char *ts = insert_after(t, "export const last", "const odd = new random.RandomPet(/* a comment */ \"odd\", {});\n");
    free(t);
    ck_assert(same_both_ways(ts, LANG_TYPESCRIPT, gts, true));
    splicer_t *s = splicer_new();
    for (int call = 0; call < 2; call++) {
        diag_list_t d;
        diag_list_init(&d);
        splice_options_t o = {.filename = "prog"};
        splice_stats_t st;
        char *out = NULL;
        ck_assert(splicer_splice(s, ts, strlen(ts), LANG_TYPESCRIPT, gts, strlen(gts), &o, &out, NULL, NULL, &st, &d));
        ck_assert(st.split_parse);
        ck_assert(st.split_find == (call == 1)); /* the first call compiles the query on this thread */
        ck_assert_ptr_nonnull(strstr(out, "new random.RandomPet(/* a comment */ \"odd\", {});"));
        free(out);
        diag_list_free(&d);
    }
    splicer_free(s);
    free(ts);
    free(gts);
}
END_TEST

/* The result of a splice into a file parsed in two halves is confirmed in halves too, and a half no
 * edit touches — the file's text, which parsed clean — is not parsed again (splice_stats_t.reparsed):
 * every language's ordinary big file, whose one replaced resource is in the second half; that half is
 * then parsed again in two parts on two threads (split_reparse). An edit in the first half (a
 * resource of the same name replaced there) has both halves parsed again. The results are the whole
 * parse's. */
START_TEST(test_split_reparse_changed_half) {
    static const lang_t L[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA};
    for (size_t i = 0; i < sizeof L / sizeof *L; i++) {
        lang_t l = L[i];
        char *gen = fixture(l == LANG_TYPESCRIPT ? "gen.ts" : l == LANG_PYTHON ? "gen.py" : gen_fixture_name(l));
        char *t = l == LANG_TYPESCRIPT ? ts_program(8000, NULL)
                  : l == LANG_PYTHON   ? py_program(8000, NULL)
                                       : block_program(l, 4000, NULL);
        /* the imports the generated program adds would be edits in the first half */
        if (l == LANG_GO) {
            char *t1 = insert_after(t, "\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"",
                                    "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config\"\n");
            free(t);
            t = t1;
        } else if (l == LANG_JAVA) {
            char *t1 =
                insert_after(t, "import com.pulumi.tls.PrivateKeyArgs;",
                             "import com.pulumi.random.RandomPassword;\nimport com.pulumi.random.RandomPasswordArgs;\n"
                             "import com.pulumi.resources.CustomResourceOptions;\n"
                             "import com.pulumi.tls.SelfSignedCert;\nimport com.pulumi.tls.SelfSignedCertArgs;\n"
                             "import com.pulumi.tls.inputs.SelfSignedCertSubjectArgs;\n");
            free(t);
            t = t1;
        }
        current_case = (int)i;
        ck_assert(same_both_ways(t, l, gen, true));
        splice_stats_t st;
        char *m;
        char *out = splice_run(t, strlen(t), l, gen, false, &st, &m);
        ck_assert_msg(out != NULL, "%s", m);
        size_t n = strlen(out);
        ck_assert(st.split_parse);
        ck_assert_msg(st.reparsed > 0 && st.reparsed < n / 2, "%s: %zu of %zu bytes parsed again", lang_name(l),
                      st.reparsed, n);
        ck_assert_msg(st.split_reparse, "%s: the second half parsed again in one piece", lang_name(l));
        free(out);
        free(m);
        /* the same name near the top: that one is replaced, in the first half */
        static const char *const AFTER[] = {[LANG_TYPESCRIPT] = "// resources",
                                            [LANG_PYTHON] = "# resources",
                                            [LANG_GO] = "\t\tvar err error",
                                            [LANG_CSHARP] = "{\n    var p0 =",
                                            [LANG_JAVA] = "void stack(Context ctx)"};
        static const char *const EARLY[] = {
            [LANG_TYPESCRIPT] = "const early = new tls.PrivateKey(\"my-key\", {algorithm: \"DSA\"});\n",
            [LANG_PYTHON] = "early = tls.PrivateKey(\"my-key\", algorithm=\"DSA\")\n",
            [LANG_GO] = "\t\t_, err = tls.NewPrivateKey(ctx, \"my-key\", &tls.PrivateKeyArgs{\n\t\t\tAlgorithm: "
                        "pulumi.String(\"DSA\"),\n\t\t})\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n",
            [LANG_CSHARP] = "    var early = new Tls.PrivateKey(\"my-key\", new()\n    {\n        Algorithm = "
                            "\"DSA\",\n    });\n",
            [LANG_JAVA] = "        var early = new PrivateKey(\"my-key\", PrivateKeyArgs.builder()\n"
                          "            .algorithm(\"DSA\")\n            .build());\n"};
        char *t1 = insert_after(t, AFTER[l], EARLY[l]);
        /* ... and the one at three quarters named otherwise (two of one name are refused) */
        char *late = t1, *q;
        while ((q = strstr(late + 1, "\"my-key\"")) != NULL)
            late = q;
        buf_t b2;
        buf_init(&b2);
        buf_append(&b2, t1, (size_t)(late - t1));
        buf_puts(&b2, "\"my-late-key\"");
        buf_puts(&b2, late + strlen("\"my-key\""));
        char *t2 = buf_take(&b2);
        free(t1);
        ck_assert(same_both_ways(t2, l, gen, true));
        out = splice_run(t2, strlen(t2), l, gen, false, &st, &m);
        ck_assert_msg(out != NULL, "%s", m);
        ck_assert(st.split_parse);
        ck_assert_ptr_null(strstr(out, "\"DSA\""));
        ck_assert_msg(st.reparsed > strlen(out) / 2, "%s: %zu of %zu bytes parsed again", lang_name(l), st.reparsed,
                      strlen(out));
        ck_assert(!st.split_reparse); /* the halves, each on a thread */
        free(out);
        free(m);
        free(t2);
        free(t);
        free(gen);
    }
}
END_TEST

static Suite *split_suite(void) {
    Suite *s = suite_create("splice_split");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_split_taken_and_same);
    tcase_add_test(tc, test_split_refused_across_constructs);
    tcase_add_test(tc, test_split_block_hazards);
    tcase_add_test(tc, test_split_block_not_the_body);
    tcase_add_test(tc, test_split_errors_as_whole);
    tcase_add_test(tc, test_split_comment_runs);
    tcase_add_test(tc, test_split_parse_budget);
    tcase_add_test(tc, test_split_find_resources);
    tcase_add_test(tc, test_split_find_query);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("reparse"); /* CK_RUN_CASE=reparse runs it alone */
    tcase_set_timeout(tr, 300);
    tcase_add_test(tr, test_split_reparse_changed_half);
    suite_add_tcase(s, tr);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(split_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

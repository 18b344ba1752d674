/* test_emit_go_cs_java.c — the Go, C# and Java emitters and the tree-sitter syntax checker.
 *
 * Every generated Go file must be left unchanged by gofmt (`gofmt -l` prints nothing) and parse
 * (`gofmt -e`); every C# and Java file must parse with the pinned tree-sitter grammars without an
 * ERROR or MISSING node. This is checked for a hand-written program (tests/fixtures/emit/program.pp),
 * for every resource of Pulumi's importer test cases, and for every custom resource of the shared
 * stack exports of random, tls, command, digitalocean and azuread. Golden files under
 * tests/fixtures/emit/{go,csharp,java}/ pin the exact text (CIMPORT_UPDATE_GOLDEN=1 rewrites them;
 * review the diff like code). */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emitters/emit.h"
#include "emitters/emit_internal.h"
#include "emitters/ts_check.h"
#include "specs/deployment.h"
#include "testutil.h"

static const lang_t LANGS[] = {LANG_GO, LANG_CSHARP, LANG_JAVA};
static const char *const LANG_DIR[] = {"go", "csharp", "java"};
static const char *const LANG_EXT[] = {"go", "cs", "java"};

/* --- helpers ------------------------------------------------------------------------------------ */

static schema_set_t *load_schemas(const char *const *rel, size_t n) {
    arena_t *a = arena_new();
    schema_set_t *set = schema_set_new();
    diag_list_t d;
    diag_list_init(&d);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(schema_set_add_path(set, tu_data(a, rel[i]), &d), "schema %s", rel[i]);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    arena_free(a);
    return set;
}

static char *emit_lang(const pcl_program_t *p, lang_t lang) {
    diag_list_t d;
    diag_list_init(&d);
    char *s = emit_program(p, lang, &d);
    ck_assert_msg(s != NULL, "%s emitter failed", lang_name(lang));
    for (diag_t *x = d.head; x; x = x->next)
        ck_assert_msg(x->severity != DIAG_ERROR, "%s: %s", lang_name(lang), x->message);
    diag_list_free(&d);
    return s;
}

/* gofmt must accept the file and have nothing to change. */
static void check_gofmt(const char *src, const char *label) {
    char *dir = tu_mkdtemp();
    char path[4096];
    snprintf(path, sizeof path, "%s/main.go", dir);
    ck_assert(tu_write(path, src));
    char cmd[8192];
    int status = -1;
    snprintf(cmd, sizeof cmd, "gofmt -l '%s' 2>&1", path);
    char *out = tu_run(cmd, &status);
    ck_assert_msg(status == 0 && out && out[0] == 0, "%s: gofmt -l: %s", label, out ? out : "(no output)");
    free(out);
    snprintf(cmd, sizeof cmd, "gofmt -e '%s' >/dev/null 2>&1 || echo FAILED", path);
    out = tu_run(cmd, &status);
    ck_assert_msg(out && strstr(out, "FAILED") == NULL, "%s: gofmt -e reports errors", label);
    free(out);
    tu_rmtree(dir);
    free(dir);
}

static void check_parses(lang_t lang, const char *src, const char *label) {
    diag_list_t d;
    diag_list_init(&d);
    size_t n = ts_check_buffer(lang, src, strlen(src), label, &d);
    ck_assert_msg(n == 0, "%s: %s", label, d.head ? diag_format(&d, d.head) : "?");
    diag_list_free(&d);
}

static void check_lang(lang_t lang, const char *src, const char *label) {
    if (lang == LANG_GO)
        check_gofmt(src, label);
    else
        check_parses(lang, src, label);
}

/* Compares with tests/fixtures/emit/<dir>/<name>.<ext>; CIMPORT_UPDATE_GOLDEN=1 rewrites it. */
static void check_golden(size_t li, const char *name, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fixtures/emit/%s/%s.%s", SOURCE_DIR, LANG_DIR[li], name, LANG_EXT[li]);
    const char *upd = getenv("CIMPORT_UPDATE_GOLDEN");
    if (upd && *upd == '1') ck_assert(tu_write(path, text));
    size_t len = 0;
    char *want = tu_read(path, &len);
    ck_assert_msg(want != NULL, "missing golden file %s (run with CIMPORT_UPDATE_GOLDEN=1 and review it)", path);
    if (strcmp(want, text) != 0) {
        /* report the first differing line */
        const char *w = want, *g = text;
        int line = 1;
        while (*w && *w == *g) {
            if (*w == '\n') line++;
            w++;
            g++;
        }
        ck_abort_msg("%s differs from the golden file at line %d:\n got: %.80s\nwant: %.80s", path, line, g, w);
    }
    free(want);
}

static pcl_program_t *parse_bind(const char *text, schema_set_t *set) {
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(text, strlen(text), "program.pp", &d);
    ck_assert_msg(p != NULL, "%s", d.head ? diag_format(&d, d.head) : "parse failed");
    ck_assert_msg(pcl_bind(p, set, &d), "%s", d.head ? diag_format(&d, d.head) : "bind failed");
    diag_list_free(&d);
    return p;
}

static const char *urn_name(const char *urn) {
    const char *s = strrchr(urn, ':');
    return s && s > urn && s[-1] == ':' ? s + 1 : urn;
}

/* PCL for the custom, non-provider resources of a deployment (as the CLI would generate it). */
static pcl_program_t *generate(arena_t *a, const deployment_t *dep, schema_set_t *set,
                               bool (*keep)(const state_resource_t *)) {
    pcl_gen_resource_t *res = arena_alloc(a, (dep->n_resources + 1) * sizeof *res);
    size_t n = 0;
    for (size_t i = 0; i < dep->n_resources; i++) {
        const state_resource_t *r = &dep->resources[i];
        if (!r->custom || strncmp(r->type, "pulumi:", 7) == 0 || (keep && !keep(r))) continue;
        pcl_gen_resource_t *g = &res[n++];
        g->type = r->type;
        g->name = urn_name(r->urn);
        g->logical_name = urn_name(r->urn);
        g->urn = r->urn;
        g->id = r->id;
        g->inputs = r->inputs;
        g->outputs = r->outputs;
        g->protect = true;
    }
    ck_assert_uint_gt(n, 0);
    pcl_gen_options_t opts;
    pcl_gen_options_default(&opts);
    pcl_gen_result_t out = {0};
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_msg(pcl_generate(res, n, set, &opts, &out, &d), "%s",
                  d.head ? diag_format(&d, d.head) : "generate failed");
    ck_assert_msg(d.errors == 0, "%s", d.head ? diag_format(&d, d.head) : "?");
    diag_list_free(&d);
    return out.program;
}

/* --- tree-sitter checker ------------------------------------------------------------------------ */

START_TEST(test_ts_check_finds_errors) {
    diag_list_t d;
    diag_list_init(&d);
    const char *ok = "class A { void f() { int x = 1; } }\n";
    ck_assert_uint_eq(ts_check_buffer(LANG_JAVA, ok, strlen(ok), "A.java", &d), 0);
    ck_assert_uint_eq(d.count, 0);

    const char *missing = "var x = new Foo(1, 2;\n";
    ck_assert_uint_ge(ts_check_buffer(LANG_CSHARP, missing, strlen(missing), "Program.cs", &d), 1);
    ck_assert_str_eq(d.head->message, "syntax error in generated C# code: missing `)` at column 21");
    ck_assert_int_eq(d.head->line, 1);
    ck_assert_str_eq(d.head->file, "Program.cs");

    diag_list_free(&d);
    diag_list_init(&d);
    const char *junk = "package main\n\nfunc main() {\n\tx := = 1\n}\n";
    ck_assert_uint_ge(ts_check_buffer(LANG_GO, junk, strlen(junk), "main.go", &d), 1);
    ck_assert_int_eq(d.head->line, 4);
    ck_assert_ptr_nonnull(strstr(d.head->message, "syntax error in generated Go code"));

    diag_list_free(&d);
    diag_list_init(&d);
    ck_assert_uint_eq(ts_check_buffer(LANG_PCL, "x", 1, NULL, &d), 1);
    ck_assert_str_eq(d.head->message, "cannot check PCL code: no tree-sitter grammar for it is built in");
    diag_list_free(&d);

    /* every grammar is present and accepted by the runtime */
    const lang_t all[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA, LANG_YAML};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        TSTree *t = ts_check_parse(all[i], "", 0);
        ck_assert_msg(t != NULL, "grammar for %s", lang_name(all[i]));
        ts_tree_delete(t);
    }
}
END_TEST

START_TEST(test_ts_check_collect_positions) {
    const char *src = "class A {\n  void f( {\n}\n";
    TSTree *t = ts_check_parse(LANG_JAVA, src, strlen(src));
    ts_check_problem_t probs[4];
    size_t n = ts_check_collect(ts_tree_root_node(t), probs, 4);
    ck_assert_uint_ge(n, 1);
    ck_assert_uint_eq(probs[0].line, 2);
    ts_tree_delete(t);
}
END_TEST

/* --- the hand-written program ------------------------------------------------------------------- */

START_TEST(test_golden_program) {
    const char *schemas[] = {"schemas/random", "schemas/tls"};
    schema_set_t *set = load_schemas(schemas, 2);
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fixtures/emit/program.pp", SOURCE_DIR);
    char *text = tu_read(path, NULL);
    ck_assert_ptr_nonnull(text);
    pcl_program_t *p = parse_bind(text, set);
    for (size_t li = 0; li < 3; li++) {
        char *src = emit_lang(p, LANGS[li]);
        check_lang(LANGS[li], src, "program.pp");
        check_golden(li, "program", src);
        free(src);
    }
    pcl_program_free(p);
    free(text);
    schema_set_free(set);
}
END_TEST

/* gofmt's alignment rules: runs of single-line key/value elements align; a multi-line element
 * breaks the run; a very long key after short ones starts a new run. */
START_TEST(test_go_alignment) {
    const char *schemas[] = {"schemas/random"};
    schema_set_t *set = load_schemas(schemas, 1);
    const char *text = "resource p \"random:index/randomPet:RandomPet\" {\n"
                       "    keepers = {\n"
                       "        \"a\" = \"1\"\n"
                       "        \"abcdef\" = \"2\"\n"
                       "        \"an-extraordinarily-long-key-name-well-over-forty-characters-long\" = \"3\"\n"
                       "        \"b\" = \"4\"\n"
                       "    }\n"
                       "    length = 2\n"
                       "    prefix = \"x\"\n"
                       "}\n";
    pcl_program_t *p = parse_bind(text, set);
    char *src = emit_lang(p, LANG_GO);
    check_gofmt(src, "alignment");
    ck_assert_ptr_nonnull(strstr(src, "\t\t\tKeepers: pulumi.StringMap{\n"
                                      "\t\t\t\t\"a\":      pulumi.String(\"1\"),\n"
                                      "\t\t\t\t\"abcdef\": pulumi.String(\"2\"),\n"
                                      "\t\t\t\t\"an-extraordinarily-long-key-name-well-over-forty-characters-long\": "
                                      "pulumi.String(\"3\"),\n"
                                      "\t\t\t\t\"b\": pulumi.String(\"4\"),\n"
                                      "\t\t\t},\n"
                                      "\t\t\tLength: pulumi.Int(2),\n"
                                      "\t\t\tPrefix: pulumi.String(\"x\"),\n"));
    free(src);
    pcl_program_free(p);
    schema_set_free(set);
}
END_TEST

/* Config of every type is read with its type, secret or not: a list as a list, a map as a map (never
 * as a string), nested ones too; Go passes a typed Output (StringArrayOutput, ...), C# deserializes
 * into arrays and dictionaries, Java into arrays and maps. Each file must parse (gofmt, tree-sitter). */
START_TEST(test_config_types) {
    const char *schemas[] = {"schemas/random"};
    schema_set_t *set = load_schemas(schemas, 1);
    const char *text =
        "config size \"int\" {\n    __secret = true\n}\n"
        "config ratio \"number\" {\n    __secret = true\n}\n"
        "config special \"bool\" {\n    __secret = true\n}\n"
        "config chars \"string\" {\n    __secret = true\n}\n"
        "config inputs \"list(string)\" {\n    __secret = true\n}\n"
        "config counts \"list(int)\" {\n    __secret = true\n}\n"
        "config keepers \"map(string)\" {\n    __secret = true\n}\n"
        "config groups \"list(map(string))\" {\n    __secret = true\n}\n"
        "config deep \"map(list(map(string)))\" {\n    __secret = true\n}\n"
        "config blob \"any\" {\n    __secret = true\n}\n"
        "config plainTags \"map(string)\" {\n}\n"
        "config plainList \"list(bool)\" {\n}\n"
        "resource rs \"random:index/randomString:RandomString\" {\n"
        "    length = size\n    special = special\n    overrideSpecial = chars\n    keepers = keepers\n}\n"
        "resource sh \"random:index/randomShuffle:RandomShuffle\" {\n    inputs = inputs\n}\n"
        "resource other \"random:index/randomString:RandomString\" {\n"
        "    length = 3\n    keepers = plainTags\n}\n"
        "output g {\n    value = groups\n}\n"
        "output d {\n    value = deep\n}\n"
        "output b {\n    value = blob\n}\n"
        "output c {\n    value = counts\n}\n"
        "output l {\n    value = plainList\n}\n";
    pcl_program_t *p = parse_bind(text, set);
    static const char *const want[3][14] = {
        {"\t\tsize := cfg.RequireSecretInt(\"size\")\n", "\t\t_ = cfg.RequireSecretFloat64(\"ratio\")\n",
         ("\t\tvar inputsValue []string\n\t\tcfg.RequireSecretObject(\"inputs\", &inputsValue)\n"
          "\t\tinputs := pulumi.ToSecret(inputsValue).(pulumi.StringArrayOutput)\n"),
         "\t\tcounts := pulumi.ToSecret(countsValue).(pulumi.IntArrayOutput)\n",
         "\t\tvar keepersValue map[string]string\n",
         "\t\tkeepers := pulumi.ToSecret(keepersValue).(pulumi.StringMapOutput)\n",
         "\t\tvar groupsValue []map[string]string\n",
         "\t\tgroups := pulumi.ToSecret(groupsValue).(pulumi.StringMapArrayOutput)\n",
         "\t\tvar deepValue interface{}\n", "\t\tdeep := pulumi.ToSecret(pulumi.Any(deepValue)).(pulumi.AnyOutput)\n",
         "\t\tblob := pulumi.ToSecret(pulumi.Any(blobValue)).(pulumi.AnyOutput)\n",
         ("\t\tcfg.RequireObject(\"plainTags\", &plainTagsValue)\n"
          "\t\tplainTags := pulumi.ToOutput(plainTagsValue).(pulumi.StringMapOutput)\n"),
         "\t\t\tKeepers: plainTags,\n", "\t\tplainList := pulumi.ToOutput(plainListValue).(pulumi.BoolArrayOutput)\n"},
        {"var size = config.RequireSecretInt32(\"size\");", "var ratio = config.RequireSecretDouble(\"ratio\");",
         "var inputs = config.RequireSecretObject<string[]>(\"inputs\");",
         "var counts = config.RequireSecretObject<int[]>(\"counts\");",
         "var keepers = config.RequireSecretObject<Dictionary<string, string>>(\"keepers\");",
         ("var groups = config.RequireSecretObject<System.Collections.Immutable.ImmutableDictionary<string, "
          "string>[]>(\"groups\");"),
         ("var deep = config.RequireSecretObject<Dictionary<string, System.Collections.Immutable.ImmutableArray<"
          "System.Collections.Immutable.ImmutableDictionary<string, string>>>>(\"deep\");"),
         "var blob = config.RequireSecretObject<JsonElement>(\"blob\");",
         "var plainTags = config.RequireObject<Dictionary<string, string>>(\"plainTags\");",
         "var plainList = config.RequireObject<bool[]>(\"plainList\");", "var special = config.RequireSecretBoolean(",
         "var chars = config.RequireSecret(\"chars\");", "Keepers = plainTags,", "Inputs = inputs,"},
        {"final var size = ctx.config().requireSecretInteger(\"size\");",
         "final var ratio = ctx.config().requireSecretDouble(\"ratio\");",
         "final var inputs = ctx.config().requireSecretObject(\"inputs\", String[].class).applyValue(Arrays::asList);",
         "final var counts = ctx.config().requireSecretObject(\"counts\", Integer[].class).applyValue(Arrays::asList);",
         "final var keepers = ctx.config().requireSecretObject(\"keepers\", Map.class).applyValue(v -> (Map<String, "
         "String>) v);",
         "final var groups = ctx.config().requireSecretObject(\"groups\", List.class).applyValue(v -> "
         "(List<Map<String, "
         "String>>) v);",
         "final var deep = ctx.config().requireSecretObject(\"deep\", Map.class).applyValue(v -> (Map<String, "
         "List<Map<String, String>>>) v);",
         "final var blob = ctx.config().requireSecretObject(\"blob\", Object.class);",
         "final var plainTags = (Map<String, String>) ctx.config().requireObject(\"plainTags\", Map.class);",
         "final var plainList = Arrays.asList(ctx.config().requireObject(\"plainList\", Boolean[].class));",
         "import java.util.Arrays;", "import java.util.List;", "import java.util.Map;",
         "final var chars = ctx.config().requireSecret(\"chars\");"},
    };
    for (size_t li = 0; li < 3; li++) {
        char *src = emit_lang(p, LANGS[li]);
        check_lang(LANGS[li], src, "config types");
        for (size_t k = 0; k < 14; k++)
            ck_assert_msg(strstr(src, want[li][k]) != NULL, "%s lacks:\n%s\n--- in:\n%s", lang_name(LANGS[li]),
                          want[li][k], src);
        free(src);
    }
    pcl_program_free(p);
    schema_set_free(set);
}
END_TEST

START_TEST(test_go_names_and_imports) {
    const char *schemas[] = {"schemas/random"};
    schema_set_t *set = load_schemas(schemas, 1);
    /* `random` as a variable collides with the import alias; `len` is predeclared in Go */
    const char *text = "resource random \"random:index/randomId:RandomId\" {\n    byteLength = 8\n}\n"
                       "resource len \"random:index/randomId:RandomId\" {\n    byteLength = 4\n"
                       "    prefix = random.hex\n}\n"
                       "resource other \"random:index/randomId:RandomId\" {\n    byteLength = 2\n"
                       "    keepers = {\n        \"k\" = len.id\n    }\n}\n";
    pcl_program_t *p = parse_bind(text, set);
    char *src = emit_lang(p, LANG_GO);
    check_gofmt(src, "names");
    ck_assert_ptr_nonnull(strstr(src, "\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"));
    ck_assert_ptr_nonnull(strstr(src, "random2, err := random.NewRandomId(ctx, \"random\", &random.RandomIdArgs{"));
    ck_assert_ptr_nonnull(strstr(src, "_len, err := random.NewRandomId(ctx, \"len\""));
    ck_assert_ptr_nonnull(strstr(src, "Prefix:     random2.Hex,"));
    ck_assert_ptr_nonnull(strstr(src, "_, err = random.NewRandomId(ctx, \"other\""));
    ck_assert_ptr_nonnull(strstr(src, "\"k\": _len.ID(),"));
    free(src);
    pcl_program_free(p);
    schema_set_free(set);
}
END_TEST

/* --- Pulumi's importer test cases --------------------------------------------------------------- */

static deployment_t *load_cases(arena_t *a) {
    char *path = tu_data(a, "pulumi-importer/cases.json");
    char *text = tu_read(path, NULL);
    ck_assert_ptr_nonnull(text);
    /* cases.json is {"resources": [...]}: the shape of a deployment's body */
    char *doc = arena_sprintf(a, "{\"version\": 3, \"deployment\": %s}", text);
    free(text);
    diag_list_t d;
    diag_list_init(&d);
    deployment_t *dep = deployment_parse(a, doc, strlen(doc), path, &d);
    ck_assert_msg(dep != NULL, "%s", d.head ? diag_format(&d, d.head) : "?");
    diag_list_free(&d);
    return dep;
}

static bool keep_golden_case(const state_resource_t *r) {
    static const char *const types[] = {"importer:ec2/securityGroup:SecurityGroup",
                                        "importer:ecs/taskDefinition:TaskDefinition",
                                        "importer:s3/bucket:Bucket",
                                        "importer:autoscaling/group:Group",
                                        "importer:iam/role:Role",
                                        "random:index/randomId:RandomId",
                                        "importer:lb/loadBalancer:LoadBalancer",
                                        "importer:route53/record:Record"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(r->type, types[i]) == 0) return true;
    return false;
}

static void run_cases(bool golden) {
    arena_t *a = arena_new();
    const char *schemas[] = {"pulumi-importer/schemas/importer-1.0.0.json",
                             "pulumi-importer/schemas/random-4.11.2.json"};
    schema_set_t *set = load_schemas(schemas, 2);
    deployment_t *dep = load_cases(a);
    pcl_program_t *p = generate(a, dep, set, golden ? keep_golden_case : NULL);
    for (size_t li = 0; li < 3; li++) {
        char *src = emit_lang(p, LANGS[li]);
        check_lang(LANGS[li], src, golden ? "importer cases (sample)" : "importer cases (all)");
        if (golden) check_golden(li, "importer_cases", src);
        free(src);
    }
    pcl_program_free(p);
    deployment_free(dep);
    schema_set_free(set);
    arena_free(a);
}

START_TEST(test_importer_cases_golden) {
    run_cases(true);
}
END_TEST

START_TEST(test_importer_cases_all) {
    run_cases(false);
}
END_TEST

/* --- real stack exports -------------------------------------------------------------------------- */

static const char *const STACK_PACKAGES[] = {"random", "tls", "command", "digitalocean", "azuread"};

START_TEST(test_stack_exports) {
    const char *pkg = STACK_PACKAGES[_i];
    arena_t *a = arena_new();
    /* stacks mix packages (the digitalocean ones hold tls keys): load all five */
    const char *schemas[] = {"schemas/random", "schemas/tls", "schemas/command", "schemas/digitalocean",
                             "schemas/azuread"};
    schema_set_t *set = load_schemas(schemas, 5);
    size_t n = 0;
    char **files = tu_find_files(a, tu_data(a, arena_sprintf(a, "pulumi-state/pulumi-%s", pkg)), "stack.json", &n);
    ck_assert_uint_gt(n, 0);
    size_t programs = 0;
    for (size_t f = 0; f < n; f++) {
        diag_list_t d;
        diag_list_init(&d);
        deployment_t *dep = deployment_load(a, files[f], &d);
        ck_assert_msg(dep != NULL, "%s", files[f]);
        diag_list_free(&d);
        bool any = false;
        for (size_t i = 0; i < dep->n_resources; i++)
            any |= dep->resources[i].custom && strncmp(dep->resources[i].type, "pulumi:", 7) != 0;
        if (!any) {
            deployment_free(dep);
            continue;
        }
        pcl_program_t *p = generate(a, dep, set, NULL);
        for (size_t li = 0; li < 3; li++) {
            char *src = emit_lang(p, LANGS[li]);
            check_lang(LANGS[li], src, files[f]);
            /* one golden per package: its first stack export */
            if (programs == 0) check_golden(li, arena_sprintf(a, "stack_%s", pkg), src);
            free(src);
        }
        programs++;
        pcl_program_free(p);
        deployment_free(dep);
    }
    ck_assert_uint_gt(programs, 0);
    schema_set_free(set);
    arena_free(a);
}
END_TEST

/* --- bad input -------------------------------------------------------------------------------------- */

START_TEST(test_missing_token_is_an_error) {
    pcl_program_t *p = pcl_program_new();
    pcl_node_t *n = pcl_program_add(p, PCL_NODE_RESOURCE);
    n->name = "bad";
    for (size_t li = 0; li < 3; li++) {
        diag_list_t d;
        diag_list_init(&d);
        ck_assert_ptr_null(emit_program(p, LANGS[li], &d));
        ck_assert_uint_eq(d.errors, 1);
        ck_assert_ptr_nonnull(strstr(d.head->message, "resource 'bad' has no type token"));
        diag_list_free(&d);
    }
    pcl_program_free(p);
}
END_TEST

/* --- PCL values (read8a findings) --------------------------------------------------------------- */

/* A package like the reviewer's: a resource with number, bool, integer, map and object outputs and
 * string, map and list inputs; a function whose result holds a map and an object. */
static const char *AN_SCHEMA =
    "{\"name\":\"an\",\"version\":\"1.0.0\",\"resources\":{\"an:index:Res\":{"
    "\"properties\":{\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},"
    "\"num\":{\"type\":\"number\"},\"b\":{\"type\":\"boolean\"},\"cnt\":{\"type\":\"integer\"},"
    "\"obj\":{\"$ref\":\"#/types/an:index:Obj\"}},\"required\":[\"tags\",\"num\",\"b\",\"cnt\",\"obj\"],"
    "\"inputProperties\":{\"text\":{\"type\":\"string\"},\"val\":{\"type\":\"number\"},\"size\":{\"type\":\"integer\"},"
    "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},"
    "\"strs\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}},"
    "\"types\":{\"an:index:Obj\":{\"type\":\"object\",\"properties\":{\"num\":{\"type\":\"number\"},"
    "\"nums\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}},"
    "\"labels\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}},"
    "\"required\":[\"num\",\"nums\",\"labels\"]}},"
    "\"functions\":{\"an:index:getThing\":{\"inputs\":{\"properties\":{\"a\":{\"type\":\"string\"}},"
    "\"type\":\"object\"},\"outputs\":{\"properties\":{\"m\":{\"type\":\"object\",\"additionalProperties\":"
    "{\"type\":\"string\"}},\"obj\":{\"$ref\":\"#/types/an:index:Obj\"}},\"type\":\"object\","
    "\"required\":[\"m\",\"obj\"]}}}}";

static char *an_emit(const char *pcl, lang_t lang) {
    tu_pcl_t f = tu_pcl_load(AN_SCHEMA, "an.json", pcl);
    char *s = tu_pcl_emit_ok(&f, lang);
    tu_pcl_unload(&f);
    check_lang(lang, s, lang_name(lang));
    return s;
}

/* An invoke result's map key read as an attribute (`t.m.k`, `invoke(...).m.k`) was written as a
 * getter Go's StringMapOutput does not have (`t.M().K()`: did not compile); it is read by key as a
 * resource output's is: `.MapIndex(pulumi.String("k"))`. */
START_TEST(test_go_invoke_map_key) {
    char *go =
        an_emit("t = invoke(\"an:index:getThing\", {a = \"x\"})\n"
                "resource \"r\" \"an:index:Res\" {\n    text = t.m.k\n}\n"
                "resource \"w\" \"an:index:Res\" {\n    text = t.obj.labels.q\n}\n"
                "resource \"u\" \"an:index:Res\" {\n    text = invoke(\"an:index:getThing\", {a = \"y\"}).m.k\n}\n"
                "output \"o\" {\n    value = invoke(\"an:index:getThing\", {a = \"z\"}).obj.labels.q\n}\n",
                LANG_GO);
    tu_has(go, "Text: t.M().MapIndex(pulumi.String(\"k\")),\n");
    tu_has(go, "Text: t.Obj().Labels().MapIndex(pulumi.String(\"q\")),\n");
    tu_has(go, "}, nil).M().MapIndex(pulumi.String(\"k\")),\n");
    tu_has(go, "}, nil).Obj().Labels().MapIndex(pulumi.String(\"q\")))\n");
    free(go);
}
END_TEST

/* A float64 in a template was printed with %v: 1000000 as 1e+06, 123456789 as 1.23456789e+08, where
 * PCL (JavaScript's String) prints 1000000. It goes through formatNumber (a helper written in the
 * program, as JavaScript prints a number); an int or a whole literal stays as it is. */
START_TEST(test_go_number_in_template) {
    char *go = an_emit("config \"n\" \"number\" {}\nconfig \"ln\" \"list(number)\" {}\nconfig \"i\" \"int\" {}\n"
                       "resource \"r\" \"an:index:Res\" {\n    text = \"${n}\"\n}\n"
                       "resource \"u\" \"an:index:Res\" {\n    text = \"${r.num}-${r.tags.k}\"\n"
                       "    strs = [for x in ln : \"v-${x}\"]\n}\n"
                       "resource \"w\" \"an:index:Res\" {\n    text = \"${r.obj.nums[0]}\"\n}\n"
                       "output \"o\" {\n    value = \"i=${i} c=${r.cnt} l=${1500000} f=${1.5e-7}\"\n}\n",
                       LANG_GO);
    tu_has(go, "\t\"math\"\n\t\"strconv\"\n\t\"strings\"\n");
    tu_has(go, "func formatNumber(v float64) string {\n"
               "\tif math.IsInf(v, 1) {\n"
               "\t\treturn \"Infinity\"\n"
               "\t} else if math.IsInf(v, -1) {\n"
               "\t\treturn \"-Infinity\"\n"
               "\t}\n"
               "\tif a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {\n"
               "\t\ts := strconv.FormatFloat(v, 'e', -1, 64)\n"
               "\t\treturn strings.Replace(strings.Replace(s, \"e-0\", \"e-\", 1), \"e+0\", \"e+\", 1)\n"
               "\t}\n"
               "\treturn strconv.FormatFloat(v+0, 'f', -1, 64)\n"
               "}\n");
    tu_has(go, "Text: pulumi.Sprintf(\"%v\", formatNumber(n)),\n");
    tu_has(go, "fmt.Sprintf(\"v-%v\", formatNumber(x))");
    tu_has(go, "return fmt.Sprintf(\"%v-%v\", formatNumber(num), tags[\"k\"]), nil\n");
    tu_has(go, "return fmt.Sprintf(\"%v\", formatNumber(obj.Nums[0])), nil\n");
    tu_has(go, "fmt.Sprintf(\"i=%v c=%v l=%v f=%v\", i, cnt, 1500000, formatNumber(1.5e-07))");
    free(go);
}
END_TEST

/* A config value or local named like one of the helper functions (formatNumber, sha1Hash) was declared
 * under that name in main's body, hiding the function: `formatNumber(formatNumber)` did not compile
 * (read8c). The helpers' names are taken: the variable gets another. */
START_TEST(test_go_helper_names_taken) {
    char *go = an_emit("config \"formatNumber\" \"number\" {}\nconfig \"n\" \"number\" {}\n"
                       "sha1Hash = \"x\"\n"
                       "output \"o1\" {\n    value = \"${n} ${formatNumber}\"\n}\n"
                       "output \"o2\" {\n    value = sha1(sha1Hash)\n}\n",
                       LANG_GO);
    ck_assert_msg(!strstr(go, "formatNumber := "), "%s", go);
    ck_assert_msg(!strstr(go, "sha1Hash := "), "%s", go);
    ck_assert_msg(!strstr(go, "formatNumber(formatNumber)"), "%s", go);
    ck_assert_msg(!strstr(go, "sha1Hash(sha1Hash)"), "%s", go);
    tu_has(go, "func formatNumber(v float64) string {\n");
    tu_has(go, "func sha1Hash(input string) string {\n");
    free(go);
}
END_TEST

/* An output's number, int or bool where the schema wants a string (`tags = {a = r.num}`, PCL converts
 * it) was passed as it is: a Float64Output in a pulumi.StringMap (did not compile). It is converted in
 * an apply, the number as PCL prints it; a plain config number through formatNumber too (strconv's
 * 'f' printed 1e21 as 1000000000000000000000). */
START_TEST(test_go_output_number_as_string) {
    char *go = an_emit("config \"n\" \"number\" {}\n"
                       "resource \"r\" \"an:index:Res\" {\n    text = \"x\"\n}\n"
                       "resource \"u\" \"an:index:Res\" {\n    tags = {\n        a = r.num\n        c = r.b\n"
                       "        e = r.obj.num\n        f = r.cnt\n    }\n    strs = [r.num]\n    text = n\n}\n",
                       LANG_GO);
    tu_has(go, "\"a\": r.Num.ApplyT(func(v float64) (string, error) { return formatNumber(v), nil "
               "}).(pulumi.StringOutput),\n");
    tu_has(go, "\"c\": r.B.ApplyT(func(v bool) (string, error) { return strconv.FormatBool(v), nil "
               "}).(pulumi.StringOutput),\n");
    tu_has(go, "\"e\": r.Obj.Num().ApplyT(func(v float64) (string, error) { return formatNumber(v), nil "
               "}).(pulumi.StringOutput),\n");
    tu_has(go, "\"f\": r.Cnt.ApplyT(func(v int) (string, error) { return strconv.Itoa(v), nil "
               "}).(pulumi.StringOutput),\n");
    tu_has(go, "\t\t\t\tr.Num.ApplyT(func(v float64) (string, error) { return formatNumber(v), nil "
               "}).(pulumi.StringOutput),\n");
    tu_has(go, "Text: pulumi.String(formatNumber(n)),\n");
    free(go);
}
END_TEST

/* C# and Java: an output's number or bool where the schema wants a string (`tags = {a = r.num}`) was
 * passed as it is (C# an Output<double> in an InputMap<string>, Java Output.all into a
 * Map<String, Object>: neither compiled); refused with its position now. */
START_TEST(test_cs_java_output_number_as_string_refused) {
    static const char *const pcl[] = {
        "resource \"r\" \"an:index:Res\" {\n    text = \"x\"\n}\n"
        "resource \"u\" \"an:index:Res\" {\n    tags = {\n        a = r.num\n    }\n}\n",
        "resource \"r\" \"an:index:Res\" {\n    text = \"x\"\n}\n"
        "resource \"u\" \"an:index:Res\" {\n    tags = {\n        c = r.b\n    }\n}\n",
        "resource \"r\" \"an:index:Res\" {\n    text = \"x\"\n}\n"
        "resource \"u\" \"an:index:Res\" {\n    tags = {\n        e = r.obj.num\n    }\n}\n",
        "resource \"r\" \"an:index:Res\" {\n    text = \"x\"\n}\n"
        "resource \"u\" \"an:index:Res\" {\n    strs = [r.cnt]\n}\n",
    };
    static const char *const where[] = {"main.pp:6:13", "main.pp:6:13", "main.pp:6:13", "main.pp:5:13"};
    for (size_t i = 0; i < sizeof pcl / sizeof *pcl; i++) {
        tu_pcl_t f = tu_pcl_load(AN_SCHEMA, "an.json", pcl[i]);
        tu_pcl_emit_refused(&f, LANG_CSHARP, where[i], "output's");
        tu_pcl_emit_refused(&f, LANG_JAVA, where[i], "where the schema wants a string");
        tu_pcl_unload(&f);
    }
    /* in a template it is printed as PCL prints it, as before */
    char *cs = an_emit("resource \"r\" \"an:index:Res\" {\n    text = \"x\"\n}\n"
                       "resource \"u\" \"an:index:Res\" {\n    text = \"n-${r.num}\"\n}\n",
                       LANG_CSHARP);
    tu_has(cs, "Text = Output.Format($\"n-{r.Num.Apply(v => FormatValue(v))}\"),\n");
    free(cs);
}
END_TEST

/* Java wrote a whole number beyond an int of no schema type bare (`ctx.export("e", 3000000000)`):
 * no Java int holds it (did not compile); it is a double, as PCL's numbers are (C# too). Where the
 * schema wants an integer, such a number is refused in both. */
START_TEST(test_cs_java_big_whole_number) {
    const char *pcl = "resource \"r\" \"an:index:Res\" {\n    val = 3000000000\n}\n"
                      "output \"e\" {\n    value = 3000000000\n}\n"
                      "output \"f\" {\n    value = [-3000000000, 1]\n}\n";
    char *java = an_emit(pcl, LANG_JAVA);
    tu_has(java, ".val(3000000000.0)");
    tu_has(java, "ctx.export(\"e\", 3000000000.0);");
    tu_has(java, "-3000000000.0,\n");
    tu_has(java, "            1)");
    free(java);
    char *cs = an_emit(pcl, LANG_CSHARP);
    tu_has(cs, "[\"e\"] = 3000000000.0,");
    free(cs);
    tu_pcl_t f = tu_pcl_load(AN_SCHEMA, "an.json", "resource \"r\" \"an:index:Res\" {\n    size = 3000000000\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:2:12", "beyond a Java int");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:2:12", "beyond a C# int");
    tu_pcl_unload(&f);
}
END_TEST

/* A number config value where the schema wants a string was C#'s n.ToString(InvariantCulture)
 * (1E+15) and Java's BigDecimal toPlainString (1000000000000000000000 for 1e21), where PCL prints
 * 1000000000000000 and 1e+21: FormatValue / formatValue now, as in a template; an int as before. */
START_TEST(test_cs_java_config_number_as_string) {
    const char *pcl = "config \"n\" \"number\" {}\nconfig \"i\" \"int\" {}\n"
                      "config \"s\" \"number\" {\n    secret = true\n}\n"
                      "resource \"r\" \"an:index:Res\" {\n    text = n\n    tags = {\n        i = i\n        s = s\n"
                      "    }\n}\n";
    char *cs = an_emit(pcl, LANG_CSHARP);
    tu_has(cs, "Text = FormatValue(n),\n");
    tu_has(cs, "{ \"i\", i.ToString(System.Globalization.CultureInfo.InvariantCulture) },\n");
    tu_has(cs, "{ \"s\", s.Apply(x => FormatValue(x)) },\n");
    tu_has(cs, "string FormatValue(object? value)\n");
    free(cs);
    char *java = an_emit(pcl, LANG_JAVA);
    tu_has(java, ".text(formatValue(n))\n");
    tu_has(java, "java.math.BigDecimal.valueOf(i).stripTrailingZeros().toPlainString()");
    tu_has(java, "s.applyValue(x -> formatValue(x))");
    tu_has(java, "private static String formatValue(Object value) {\n");
    free(java);
}
END_TEST

/* The text of the emitted helper function that starts with `start` and ends at the first `end` after
 * it (included; malloc'd). */
static char *helper_text(const char *code, const char *start, const char *end) {
    const char *from = strstr(code, start);
    ck_assert_msg(from != NULL, "no [%s] in:\n%s", start, code);
    const char *to = strstr(from, end);
    ck_assert_msg(to != NULL, "no end of [%s] in:\n%s", start, code);
    return strndup(from, (size_t)(to - from) + strlen(end));
}

/* Writes `source` as dir/name, runs `cmd` in dir and asserts it succeeds printing `want`. */
static void run_prints(const char *name, const char *source, const char *cmd, const char *want) {
    int status = -1;
    char *out = tu_run_source(name, source, cmd, &status);
    ck_assert_msg(status == 0 && out && strcmp(out, want) == 0, "%s printed:\n%s\nwanted:\n%s\n(program:\n%s)", cmd,
                  out ? out : "", want, source);
    free(out);
}

/* What JavaScript's String(x) prints for the doubles of these bits (node), one a line: halfway
 * values the nearest shortest digits tie on (the even one: ...114.2, not .3), powers of two whose
 * shortest digits are not the nearest 17 (7.120236347223045e-307, not ...0444e-307), and the forms. */
static const struct {
    const char *bits, *js;
} JS_NUMBERS[] = {
    {"43063d320b410852", "782466829263114.2"},
    {"42b7169024285410", "25385675008084.062"},
    {"c31768e56d61ff5d", "-1647314764070871.2"},
    {"0060000000000000", "7.120236347223045e-307"},
    {"0100000000000000", "7.291122019556398e-304"},
    {"2020000000000000", "5.966672584960166e-154"},
    {"444b1ae4d6e2ef50", "1e+21"},
    {"3ea421f5f40d8376", "6e-7"},
    {"3e8421f5f40d8376", "1.5e-7"},
    {"3eb0c6f7a0b5ed8d", "0.000001"},
    {"0000000000000001", "5e-324"},
    {"8000000000000000", "0"},
    {"7ff0000000000000", "Infinity"},
    {"fff0000000000000", "-Infinity"},
    {"7ff8000000000000", "NaN"},
    {"4415af1d78b58c40", "100000000000000000000"},
};
#define N_JS_NUMBERS (sizeof JS_NUMBERS / sizeof JS_NUMBERS[0])

static char *js_numbers_wanted(void) {
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < N_JS_NUMBERS; i++)
        buf_printf(&b, "%s\n", JS_NUMBERS[i].js);
    return buf_take(&b);
}

/* Go's formatNumber printed ±Infinity as Go's +Inf and -Inf (strconv) where PCL (JavaScript) prints
 * Infinity and -Infinity; run here over JS_NUMBERS with go run. A literal beyond a float64 (1e999)
 * was written +Inf (no Go); refused with its position. */
START_TEST(test_go_format_number_runs) {
    char *go = an_emit("config \"n\" \"number\" {}\noutput \"o\" {\n    value = \"${n}\"\n}\n", LANG_GO);
    char *helper = helper_text(go, "func formatNumber(", "\n}\n");
    buf_t src;
    buf_init(&src);
    buf_printf(&src,
               "package main\n\nimport (\n\t\"fmt\"\n\t\"math\"\n\t\"strconv\"\n\t\"strings\"\n)\n\n%s\n"
               "func main() {\n\tfor _, b := range []uint64{",
               helper);
    for (size_t i = 0; i < N_JS_NUMBERS; i++)
        buf_printf(&src, "%s0x%s", i ? ", " : "", JS_NUMBERS[i].bits);
    buf_puts(&src, "} {\n\t\tfmt.Println(formatNumber(math.Float64frombits(b)))\n\t}\n}\n");
    char *want = js_numbers_wanted();
    run_prints("main.go", src.data, "go run main.go", want);
    free(want);
    buf_free(&src);
    free(helper);
    free(go);
    tu_pcl_t f = tu_pcl_load(AN_SCHEMA, "an.json", "output \"o\" {\n    value = \"x${-1e999}\"\n}\n");
    for (size_t i = 0; i < 3; i++)
        tu_pcl_emit_refused(&f, LANGS[i], "main.pp:2:17", "beyond a float64");
    /* PCL's printer wrote it `null` (the value unset), exit 0 (read12b F14); refused as the others */
    tu_pcl_emit_refused(&f, LANG_PCL, "main.pp:2:17",
                        "output 'o': 'value' has a number beyond a float64 (-Infinity), which cimport does not write: "
                        "write a number of at most 1.7976931348623157e308 in size");
    tu_pcl_unload(&f);
}
END_TEST

/* Java's formatValue rounded the shortest digits half up (BigDecimal's MathContext) where JavaScript
 * takes the even one (782466829263114.25 as ...114.3, not .2: 338 of 300k random doubles differed)
 * and missed the shortest digits of a power of two whose nearest 17 digits are the ones that read
 * back (7.1202363472230444e-307); run here over JS_NUMBERS with javac and java. */
START_TEST(test_java_format_value_runs) {
    char *java = an_emit("config \"n\" \"number\" {}\noutput \"o\" {\n    value = \"${n}\"\n}\n", LANG_JAVA);
    char *helper = helper_text(java, "    private static String formatValue(", "\n    }\n");
    buf_t src;
    buf_init(&src);
    buf_printf(&src,
               "public class H {\n%s\n    public static void main(String[] args) {\n        for (long b : new long[] {",
               helper);
    for (size_t i = 0; i < N_JS_NUMBERS; i++)
        buf_printf(&src, "%s0x%sL", i ? ", " : "", JS_NUMBERS[i].bits);
    buf_puts(&src,
             "}) {\n            System.out.println(formatValue(Double.longBitsToDouble(b)));\n        }\n    }\n}\n");
    char *want = js_numbers_wanted();
    run_prints("H.java", src.data,
               "javac -nowarn -sourcepath '" SOURCE_DIR "/tests/peers/java' -d . H.java && java -cp . H", want);
    free(want);
    buf_free(&src);
    free(helper);
    free(java);
}
END_TEST

/* A number literal where the schema wants a string was written as Go's %g prints it ("1e-07",
 * "1e+20") where PCL (JavaScript) prints 1e-7 and 100000000000000000000. */
START_TEST(test_number_literal_as_string) {
    const char *pcl = "resource \"r\" \"an:index:Res\" {\n    text = 0.0000001\n"
                      "    tags = {\n        a = 1e20\n        b = 1e21\n    }\n    strs = [2.5e-8, 1500000]\n}\n";
    static const char *const want[3][5] = {
        {"Text: pulumi.String(\"1e-7\")", "\"a\": pulumi.String(\"100000000000000000000\")",
         "\"b\": pulumi.String(\"1e+21\")", "pulumi.String(\"2.5e-8\")", "pulumi.String(\"1500000\")"},
        {"Text = \"1e-7\"", "{ \"a\", \"100000000000000000000\" }", "{ \"b\", \"1e+21\" }", "\"2.5e-8\",",
         "\"1500000\","},
        {".text(\"1e-7\")", "Map.entry(\"a\", \"100000000000000000000\")", "Map.entry(\"b\", \"1e+21\")", "\"2.5e-8\",",
         "\"1500000\")"},
    };
    for (size_t li = 0; li < 3; li++) {
        char *code = an_emit(pcl, LANGS[li]);
        for (size_t k = 0; k < 5; k++)
            tu_has(code, want[li][k]);
        free(code);
    }
}
END_TEST

/* Ints added, subtracted or multiplied wrapped (Java: 65536 * 65536 is 0, i - -2147483648) or threw
 * (C# checked, Java Math.multiplyExact: i * 1000000000 of i = 3) where PCL's float64 numbers give
 * 4294967296, 2147483651 and 3000000000. Where a double may stand (an output, a for expression's
 * items, a template's part, a comparison, a number input) they are computed as doubles; where the
 * schema wants an integer, checked as before (no int holds a result beyond one), two literals and a
 * negation too (Java wrapped them: -i of -2147483648). */
/* A list index that is no int64 (1e300, 1.5) was cast to long long where Go wants an int: undefined
 * behaviour (found by reading the casts after fuzz_pcl's runs; UBSan stops on it, x86 wrote
 * a[-9223372036854775808]) or a silently different index (a[1] for a[1.5]). It is written as the
 * number it is, which Go refuses to compile as an index, as Pulumi refuses it. */
START_TEST(test_index_not_an_int) {
    char *go = an_emit("output \"big\" {\n    value = [1, 2][1e300]\n}\noutput \"half\" {\n    value = [1, 2][1.5]\n}\n"
                       "output \"one\" {\n    value = [1, 2][1]\n}\n",
                       LANG_GO);
    tu_has(go, "[1e+300]");
    tu_has(go, "[1.5]");
    tu_has(go, "[1]");
    ck_assert_msg(!strstr(go, "9223372036854775808"), "%s", go);
    free(go);
    /* YAML reads a literal's element through a path whose index is a size_t: 1e300, -1 and 1.5 are
     * no such index (the cast was undefined behaviour), so the read is refused as any other index on
     * an expression is */
    static const char *const keys[] = {"1e300", "-1", "1.5"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        char pcl[128];
        snprintf(pcl, sizeof pcl, "output \"o\" {\n    value = [1, 2][%s]\n}\n", keys[i]);
        tu_pcl_t f = tu_pcl_load(AN_SCHEMA, "an.json", pcl);
        tu_pcl_emit_refused(&f, LANG_YAML, "uses an index on an expression", NULL);
        tu_pcl_unload(&f);
    }
    char *yaml = an_emit("output \"o\" {\n    value = [1, 2][1]\n}\n", LANG_YAML);
    free(yaml);
}
END_TEST

START_TEST(test_cs_java_int_arith_as_pcl) {
    const char *pcl = "config \"i\" \"int\" {}\nconfig \"l\" \"list(string)\" {}\n"
                      "resource \"r\" \"an:index:Res\" {\n    text = \"${i * 1000000000}\"\n"
                      "    val = i * 1000000000\n    size = i * 1000\n}\n"
                      "resource \"w\" \"an:index:Res\" {\n    size = 65536 * 65536\n}\n"
                      "output \"a\" {\n    value = i * 1000000000\n}\noutput \"b\" {\n    value = 65536 * 65536\n}\n"
                      "output \"c\" {\n    value = [i - -2147483648, -i]\n}\n"
                      "output \"d\" {\n    value = length(l) * 1000000000 + i * i\n}\n"
                      "output \"e\" {\n    value = 2 * 3\n}\n"
                      "config \"li\" \"list(int)\" {}\nresource \"n\" \"an:index:Res\" {\n    size = -i\n}\n"
                      "output \"f\" {\n    value = [for v in li : v * 1000000000 if v * 2 > 3]\n}\n";
    char *cs = an_emit(pcl, LANG_CSHARP);
    tu_has(cs, "Text = $\"{FormatValue((double) i * 1000000000)}\",\n");
    tu_has(cs, "Val = (double) i * 1000000000,\n");
    tu_has(cs, "Size = checked(i * 1000),\n");
    tu_has(cs, "Size = checked(65536 * 65536),\n");
    tu_has(cs, "[\"a\"] = (double) i * 1000000000,\n");
    tu_has(cs, "[\"b\"] = (double) 65536 * 65536,\n");
    tu_has(cs, "(double) i - -2147483648,\n");
    tu_has(cs, "-(double) i,\n");
    tu_has(cs, "[\"d\"] = (double) l.Length * 1000000000 + (double) i * i,\n");
    tu_has(cs, "[\"e\"] = 2 * 3,\n");
    tu_has(cs, "Size = checked(-i),\n");
    tu_has(cs, "[\"f\"] = li.Where(v => (double) v * 2 > 3).Select(v => (double) v * 1000000000).ToList(),\n");
    free(cs);
    char *java = an_emit(pcl, LANG_JAVA);
    tu_has(java, ".text(String.format(\"%s\", formatValue((double) i * 1000000000)))\n");
    tu_has(java, ".val((double) i * 1000000000)\n");
    tu_has(java, ".size(Math.multiplyExact(i, 1000))\n");
    tu_has(java, ".size(Math.multiplyExact(65536, 65536))\n");
    tu_has(java, "ctx.export(\"a\", (double) i * 1000000000);\n");
    tu_has(java, "ctx.export(\"b\", (double) 65536 * 65536);\n");
    tu_has(java, "(double) i - -2147483648,\n");
    tu_has(java, "-(double) i));\n");
    tu_has(java, "ctx.export(\"d\", (double) l.size() * 1000000000 + (double) i * i);\n");
    tu_has(java, "ctx.export(\"e\", 2 * 3);\n");
    tu_has(java, ".size(Math.negateExact(i))\n");
    tu_has(java, "li.stream().filter(v -> (double) v * 2 > 3).map(v -> (double) v * 1000000000)");
    free(java);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("emit_go_cs_java");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_ts_check_finds_errors);
    tcase_add_test(tc, test_ts_check_collect_positions);
    tcase_add_test(tc, test_golden_program);
    tcase_add_test(tc, test_go_alignment);
    tcase_add_test(tc, test_go_names_and_imports);
    tcase_add_test(tc, test_config_types);
    tcase_add_test(tc, test_importer_cases_golden);
    tcase_add_test(tc, test_importer_cases_all);
    tcase_add_loop_test(tc, test_stack_exports, 0, (int)(sizeof STACK_PACKAGES / sizeof STACK_PACKAGES[0]));
    tcase_add_test(tc, test_missing_token_is_an_error);
    suite_add_tcase(s, tc);
    TCase *pv = tcase_create("pcl_values");
    tcase_set_timeout(pv, 120); /* go run, javac and java */
    tcase_add_test(pv, test_go_invoke_map_key);
    tcase_add_test(pv, test_go_number_in_template);
    tcase_add_test(pv, test_go_helper_names_taken);
    tcase_add_test(pv, test_go_output_number_as_string);
    tcase_add_test(pv, test_cs_java_output_number_as_string_refused);
    tcase_add_test(pv, test_cs_java_big_whole_number);
    tcase_add_test(pv, test_cs_java_config_number_as_string);
    tcase_add_test(pv, test_go_format_number_runs);
    tcase_add_test(pv, test_java_format_value_runs);
    tcase_add_test(pv, test_number_literal_as_string);
    tcase_add_test(pv, test_cs_java_int_arith_as_pcl);
    tcase_add_test(pv, test_index_not_an_int);
    suite_add_tcase(s, pv);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* test_existing_refs.c — references to resources the stack and the program already have.
 *
 * Three layers, each asserted on exact text:
 *   - pcl_generate with external reference candidates (pcl_gen_options_t.external): the traversal
 *     `<root>.<attr>` with a root that is not a node, ambiguity and self-reference rules, names of
 *     imported resources kept clear of external roots, superseding by a re-imported resource;
 *   - every emitter's text for such an unbound root (TypeScript, Python, Go — gofmt-clean,
 *     `serverName.ID()` —, C#, Java, YAML), without "does not declare" warnings;
 *   - splice_list_definitions per language and splice_type_matches; existing_refs_collect over a
 *     stack export and a program; and the whole chain (stack + program → PCL → TypeScript → splice)
 *     type-checked with tsc against tests/peers. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "session/existing_refs.h"
#include "splice/splice.h"
#include "testutil.h"

#define PET "random:index/randomPet:RandomPet"
#define RID "random:index/randomId:RandomId"
#define RSTR "random:index/randomString:RandomString"

/* --- helpers -------------------------------------------------------------------------------------- */

/* Loaded once: generated programs point into it until the emitters are done. */
static schema_set_t *g_schemas;

static schema_set_t *random_schema(void) {
    if (g_schemas) return g_schemas;
    arena_t *a = arena_new();
    g_schemas = schema_set_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(schema_set_add_path(g_schemas, tu_data(a, "schemas/random/schema.json"), &d));
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    arena_free(a);
    return g_schemas;
}

static pv_t *json_value(arena_t *a, const char *json) {
    cJSON *j = cJSON_Parse(json);
    ck_assert_ptr_nonnull(j);
    pv_t *v = pv_from_state_json(a, j, "test", NULL);
    cJSON_Delete(j);
    ck_assert_ptr_nonnull(v);
    return v;
}

/* The quickstart's RandomId `server-id`, whose keepers name the RandomPet's ID. */
static pcl_gen_resource_t server_id(arena_t *a) {
    pcl_gen_resource_t r = {0};
    r.type = RID;
    r.name = "serverId";
    r.logical_name = "server-id";
    r.id = "q8Vb1f0Zk3Y";
    r.inputs = json_value(a, "{\"byteLength\": 8, \"keepers\": {\"server\": \"clever-wombat\"}}");
    r.outputs = json_value(a, "{\"b64Url\": \"q8Vb1f0Zk3Y\", \"byteLength\": 8}");
    return r;
}

static pcl_gen_resource_t server_name(arena_t *a) {
    pcl_gen_resource_t r = {0};
    r.type = PET;
    r.name = "serverName";
    r.logical_name = "server-name";
    r.id = "clever-wombat";
    r.inputs = json_value(a, "{\"length\": 2, \"separator\": \"-\"}");
    r.outputs = json_value(a, "{\"id\": \"clever-wombat\", \"length\": 2}");
    return r;
}

static const pcl_external_ref_t PET_REF = {"clever-wombat", "serverName", "id", PET};

/* Generates, checks there are no diagnostics, and returns the printed PCL (malloc'd). */
static char *generate(const pcl_gen_resource_t *res, size_t n, const pcl_external_ref_t *ext, size_t n_ext,
                      pcl_gen_result_t *out) {
    schema_set_t *s = random_schema();
    pcl_gen_options_t o;
    pcl_gen_options_default(&o);
    o.external = ext;
    o.n_external = n_ext;
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(pcl_generate(res, n, s, &o, out, &d));
    ck_assert_msg(d.count == 0, "unexpected diagnostic: %s", d.head ? d.head->message : "");
    diag_list_free(&d);
    return pcl_print(out->program);
}

static char *emit_clean(const pcl_program_t *p, lang_t lang) {
    diag_list_t d;
    diag_list_init(&d);
    char *code = emit_program(p, lang, &d);
    ck_assert_msg(code != NULL, "%s emitter failed: %s", lang_name(lang), d.head ? d.head->message : "");
    ck_assert_msg(d.count == 0, "%s emitter warned: %s", lang_name(lang), d.head ? d.head->message : "");
    diag_list_free(&d);
    return code;
}

#define ck_assert_contains(hay, needle)                                                                                \
    ck_assert_msg(strstr((hay), (needle)) != NULL, "missing `%s` in:\n%s", (needle), (hay))
#define ck_assert_lacks(hay, needle)                                                                                   \
    ck_assert_msg(strstr((hay), (needle)) == NULL, "unexpected `%s` in:\n%s", (needle), (hay))

/* --- pcl generation --------------------------------------------------------------------------------- */

START_TEST(test_gen_external_id) {
    arena_t *a = arena_new();
    pcl_gen_resource_t r = server_id(a);
    pcl_gen_result_t g;
    char *pcl = generate(&r, 1, &PET_REF, 1, &g);
    ck_assert_str_eq(pcl, "package random {\n"
                          "    baseProviderName = \"random\"\n"
                          "}\n"
                          "\n"
                          "resource serverId \"random:index/randomId:RandomId\" {\n"
                          "    __logicalName = \"server-id\"\n"
                          "    byteLength = 8\n"
                          "    keepers = {\n"
                          "        \"server\" = serverName.id\n"
                          "    }\n"
                          "}\n");
    /* the root is no node of the program, and is recorded as external */
    ck_assert_int_eq(pcl_program_find(g.program, "serverName"), -1);
    ck_assert_uint_eq(g.program->n_external_roots, 1);
    ck_assert_str_eq(g.program->external_roots[0], "serverName");
    ck_assert(pcl_program_is_external(g.program, "serverName"));
    ck_assert(!pcl_program_is_external(g.program, "serverId"));
    free(pcl);
    pcl_program_free(g.program);
    arena_free(a);
}
END_TEST

START_TEST(test_gen_external_name_arn) {
    arena_t *a = arena_new();
    pcl_gen_resource_t r = server_id(a);
    r.inputs = json_value(a, "{\"byteLength\": 8, \"keepers\": {\"a\": \"role-x\", \"b\": \"arn:aws:iam::1:role/x\", "
                             "\"c\": \"role-x-suffix\", \"d\": \"ROLE-X\"}}");
    static const pcl_external_ref_t ext[] = {
        {"AROA123", "appRole", "id", "aws:iam/role:Role"},
        {"role-x", "appRole", "name", "aws:iam/role:Role"},
        {"arn:aws:iam::1:role/x", "appRole", "arn", "aws:iam/role:Role"},
    };
    pcl_gen_result_t g;
    char *pcl = generate(&r, 1, ext, 3, &g);
    ck_assert_contains(pcl, "\"a\" = appRole.name\n");
    ck_assert_contains(pcl, "\"b\" = appRole.arn\n");
    /* exact whole-string matches only */
    ck_assert_contains(pcl, "\"c\" = \"role-x-suffix\"\n");
    ck_assert_contains(pcl, "\"d\" = \"ROLE-X\"\n");
    ck_assert_uint_eq(g.program->n_external_roots, 1);
    free(pcl);
    pcl_program_free(g.program);
    arena_free(a);
}
END_TEST

START_TEST(test_gen_external_ambiguous) {
    arena_t *a = arena_new();
    /* the same value names two variables of the program: literal */
    {
        pcl_gen_resource_t r = server_id(a);
        static const pcl_external_ref_t ext[] = {{"clever-wombat", "serverName", "id", PET},
                                                 {"clever-wombat", "otherPet", "id", PET}};
        pcl_gen_result_t g;
        char *pcl = generate(&r, 1, ext, 2, &g);
        ck_assert_contains(pcl, "\"server\" = \"clever-wombat\"\n");
        ck_assert_uint_eq(g.program->n_external_roots, 0);
        free(pcl);
        pcl_program_free(g.program);
    }
    /* the same value is an imported resource's id and a variable's: literal */
    {
        pcl_gen_resource_t r[2] = {server_id(a), {0}};
        r[1].type = RSTR;
        r[1].name = "suffix";
        r[1].logical_name = "suffix";
        r[1].id = "clever-wombat";
        r[1].inputs = json_value(a, "{\"length\": 8}");
        pcl_gen_result_t g;
        char *pcl = generate(r, 2, &PET_REF, 1, &g);
        ck_assert_contains(pcl, "\"server\" = \"clever-wombat\"\n");
        ck_assert_uint_eq(g.program->n_external_roots, 0);
        free(pcl);
        pcl_program_free(g.program);
    }
    /* one variable whose id and name coincide: a reference (to the id) */
    {
        pcl_gen_resource_t r = server_id(a);
        static const pcl_external_ref_t ext[] = {{"clever-wombat", "serverName", "id", PET},
                                                 {"clever-wombat", "serverName", "name", PET}};
        pcl_gen_result_t g;
        char *pcl = generate(&r, 1, ext, 2, &g);
        ck_assert_contains(pcl, "\"server\" = serverName.id\n");
        free(pcl);
        pcl_program_free(g.program);
    }
    /* invalid candidates are ignored: empty value or root, another attribute */
    {
        pcl_gen_resource_t r = server_id(a);
        static const pcl_external_ref_t ext[] = {{"clever-wombat", "", "id", PET},
                                                 {"clever-wombat", "serverName", "urn", PET},
                                                 {"", "serverName", "id", PET}};
        pcl_gen_result_t g;
        char *pcl = generate(&r, 1, ext, 3, &g);
        ck_assert_contains(pcl, "\"server\" = \"clever-wombat\"\n");
        free(pcl);
        pcl_program_free(g.program);
    }
    /* guess_references off: no references at all */
    {
        pcl_gen_resource_t r = server_id(a);
        schema_set_t *s = random_schema();
        pcl_gen_options_t o;
        pcl_gen_options_default(&o);
        o.guess_references = false;
        o.external = &PET_REF;
        o.n_external = 1;
        pcl_gen_result_t g;
        ck_assert(pcl_generate(&r, 1, s, &o, &g, NULL));
        char *pcl = pcl_print(g.program);
        ck_assert_contains(pcl, "\"server\" = \"clever-wombat\"\n");
        free(pcl);
        pcl_program_free(g.program);
    }
    arena_free(a);
}
END_TEST

/* Importing the RandomPet again with the RandomId: the program's serverName is the same resource,
 * so the reference goes to the imported node (and the RandomPet never references itself). */
START_TEST(test_gen_external_superseded) {
    arena_t *a = arena_new();
    pcl_gen_resource_t r[2] = {server_name(a), server_id(a)};
    static const pcl_external_ref_t ext[] = {{"clever-wombat", "serverName", "id", PET},
                                             {"clever-wombat", "serverName", "name", PET}};
    pcl_gen_result_t g;
    char *pcl = generate(r, 2, ext, 2, &g);
    ck_assert_contains(pcl, "resource serverName \"random:index/randomPet:RandomPet\" {\n");
    ck_assert_contains(pcl, "\"server\" = serverName.id\n");
    ck_assert_int_ge(pcl_program_find(g.program, "serverName"), 0);
    ck_assert_uint_eq(g.program->n_external_roots, 0);
    free(pcl);
    pcl_program_free(g.program);
    arena_free(a);
}
END_TEST

/* An imported resource whose name is an external root gets another identifier, so the traversal
 * still names the program's variable. */
START_TEST(test_gen_external_root_reserved) {
    arena_t *a = arena_new();
    pcl_gen_resource_t r[2] = {server_id(a), {0}};
    r[1].type = RSTR;
    r[1].name = "serverName";
    r[1].logical_name = "server-name";
    r[1].id = "x7k2p9qa";
    r[1].inputs = json_value(a, "{\"length\": 8}");
    pcl_gen_result_t g;
    char *pcl = generate(r, 2, &PET_REF, 1, &g);
    ck_assert_contains(
        pcl, "resource serverNameRandomString \"random:index/randomString:RandomString\" {\n"); /* issue 16: not
                                                                                                   serverName2 */
    ck_assert_contains(pcl, "\"server\" = serverName.id\n");
    ck_assert(pcl_program_is_external(g.program, "serverName"));
    free(pcl);
    pcl_program_free(g.program);
    arena_free(a);
}
END_TEST

/* --- emitters --------------------------------------------------------------------------------------- */

START_TEST(test_emit_unbound_root) {
    arena_t *a = arena_new();
    pcl_gen_resource_t r = server_id(a);
    pcl_gen_result_t g;
    free(generate(&r, 1, &PET_REF, 1, &g));
    static const struct {
        lang_t lang;
        const char *want;
    } W[] = {
        {LANG_TYPESCRIPT, "    keepers: {\n        server: serverName.id,\n    },\n"},
        {LANG_PYTHON, "    keepers={\n        \"server\": serverName.id,\n    })\n"},
        {LANG_GO, "\t\t\tKeepers: pulumi.StringMap{\n\t\t\t\t\"server\": serverName.ID(),\n\t\t\t},\n"},
        {LANG_CSHARP, "        Keepers = \n        {\n            { \"server\", serverName.Id },\n        },\n"},
        {LANG_JAVA, "                Map.entry(\"server\", serverName.id())\n"},
        {LANG_YAML, "      keepers:\n        server: ${serverName.id}\n"},
    };
    char *dir = tu_mkdtemp();
    for (size_t i = 0; i < sizeof W / sizeof W[0]; i++) {
        char *code = emit_clean(g.program, W[i].lang);
        ck_assert_contains(code, W[i].want);
        if (W[i].lang == LANG_GO) {
            /* the root is used, never `_`, and the file is gofmt-clean */
            ck_assert_lacks(code, "_.ID()");
            char *f = arena_sprintf(a, "%s/main.go", dir);
            ck_assert(tu_write(f, code));
            int status;
            char *o = tu_run(arena_sprintf(a, "gofmt -l '%s' 2>&1", f), &status);
            ck_assert_msg(status == 0 && o[0] == 0, "gofmt would change:\n%s\n%s", o, code);
            free(o);
        }
        free(code);
    }
    tu_rmtree(dir);
    free(dir);
    pcl_program_free(g.program);

    /* roots are written as the program spells them: Python's snake_case, a Go name with a
     * predeclared identifier's spelling is not renamed, a Java name is not re-cased */
    static const pcl_external_ref_t snake = {"clever-wombat", "server_name", "id", PET};
    free(generate(&r, 1, &snake, 1, &g));
    char *py = emit_clean(g.program, LANG_PYTHON);
    ck_assert_contains(py, "\"server\": server_name.id,");
    free(py);
    char *java = emit_clean(g.program, LANG_JAVA);
    ck_assert_contains(java, "Map.entry(\"server\", server_name.id())");
    free(java);
    pcl_program_free(g.program);
    static const pcl_external_ref_t named = {"clever-wombat", "pet", "name", PET};
    free(generate(&r, 1, &named, 1, &g));
    char *go = emit_clean(g.program, LANG_GO);
    ck_assert_contains(go, "\"server\": pet.Name,");
    free(go);
    char *cs = emit_clean(g.program, LANG_CSHARP);
    ck_assert_contains(cs, "{ \"server\", pet.Name },");
    free(cs);
    pcl_program_free(g.program);
    arena_free(a);
}
END_TEST

/* --- splice_list_definitions ------------------------------------------------------------------------ */

typedef struct want_def {
    const char *variable, *logical_name, *type;
    unsigned line;
} want_def_t;

static void check_defs(lang_t lang, const char *text, const want_def_t *want, size_t n_want) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    splice_definition_t *defs;
    size_t n;
    ck_assert_msg(splice_list_definitions(text, strlen(text), lang, "prog", a, &defs, &n, &d), "%s: %s",
                  lang_name(lang), d.head ? d.head->message : "");
    ck_assert_int_eq(d.count, 0);
    ck_assert_msg(n == n_want, "%s: %zu definitions, want %zu", lang_name(lang), n, n_want);
    for (size_t i = 0; i < n; i++) {
        if (want[i].variable)
            ck_assert_pstr_eq(defs[i].variable, want[i].variable);
        else
            ck_assert_msg(defs[i].variable == NULL, "%s #%zu: variable %s, want none", lang_name(lang), i,
                          defs[i].variable);
        ck_assert_str_eq(defs[i].logical_name, want[i].logical_name);
        ck_assert_str_eq(defs[i].type, want[i].type);
        ck_assert_uint_eq(defs[i].line, want[i].line);
    }
    diag_list_free(&d);
    arena_free(a);
}

START_TEST(test_list_typescript) {
    const char *ts = "import * as pulumi from \"@pulumi/pulumi\";\n"
                     "import * as rnd from \"@pulumi/random\";\n"
                     "import { RandomId } from \"@pulumi/random\";\n"
                     "\n"
                     "const serverName = new rnd.RandomPet(\"server-name\", {length: 2});\n"
                     "new rnd.RandomString(\"unbound\", {length: 4});\n"
                     "const holder = { pet: new rnd.RandomPet(\"nested\", {}) };\n"
                     "if (pulumi.getStack() === \"x\") {\n"
                     "    const inner = new rnd.RandomPet(\"inner\", {});\n"
                     "}\n"
                     "export const sid: RandomId = new RandomId(\"server-id\", {byteLength: 8});\n"
                     "const two = new rnd.RandomPet(\"two\", {}), three = 3;\n";
    static const want_def_t W[] = {
        {"serverName", "server-name", "@pulumi/random.RandomPet", 5},
        {NULL, "unbound", "@pulumi/random.RandomString", 6},
        {NULL, "nested", "@pulumi/random.RandomPet", 7},
        {NULL, "inner", "@pulumi/random.RandomPet", 9},
        {"sid", "server-id", "@pulumi/random.RandomId", 11},
        {NULL, "two", "@pulumi/random.RandomPet", 12},
    };
    check_defs(LANG_TYPESCRIPT, ts, W, 6);
    /* inside `export = async () => { ... }` */
    const char *fn = "import * as random from \"@pulumi/random\";\n"
                     "export = async () => {\n"
                     "    const serverName = new random.RandomPet(\"server-name\");\n"
                     "    return { name: serverName.id };\n"
                     "};\n";
    static const want_def_t F[] = {{"serverName", "server-name", "@pulumi/random.RandomPet", 3}};
    check_defs(LANG_TYPESCRIPT, fn, F, 1);
}
END_TEST

START_TEST(test_list_python) {
    const char *py = "import pulumi\n"
                     "import pulumi_random as random\n"
                     "from pulumi_random import RandomId\n"
                     "\n"
                     "server_name = random.RandomPet(\"server-name\", length=2)\n"
                     "server_id = RandomId(\"server-id\", byte_length=8)\n"
                     "pets = [random.RandomPet(\"in-list\")]\n"
                     "def make():\n"
                     "    local = random.RandomPet(\"local\")\n";
    static const want_def_t W[] = {
        {"server_name", "server-name", "pulumi_random.RandomPet", 5},
        {"server_id", "server-id", "pulumi_random.RandomId", 6},
        {NULL, "in-list", "pulumi_random.RandomPet", 7},
        {NULL, "local", "pulumi_random.RandomPet", 9},
    };
    check_defs(LANG_PYTHON, py, W, 4);
}
END_TEST

START_TEST(test_list_go) {
    const char *go = "package main\n"
                     "\n"
                     "import (\n"
                     "\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                     "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n"
                     ")\n"
                     "\n"
                     "func main() {\n"
                     "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                     "\t\tserverName, err := random.NewRandomPet(ctx, \"server-name\", &random.RandomPetArgs{})\n"
                     "\t\tif err != nil {\n"
                     "\t\t\treturn err\n"
                     "\t\t}\n"
                     "\t\t_, err = random.NewRandomId(ctx, \"server-id\", nil)\n"
                     "\t\tif err != nil {\n"
                     "\t\t\treturn err\n"
                     "\t\t}\n"
                     "\t\tctx.Export(\"name\", serverName.ID())\n"
                     "\t\treturn nil\n"
                     "\t})\n"
                     "}\n";
    static const want_def_t W[] = {
        {"serverName", "server-name", "github.com/pulumi/pulumi-random/sdk/v4/go/random.NewRandomPet", 10},
        {NULL, "server-id", "github.com/pulumi/pulumi-random/sdk/v4/go/random.NewRandomId", 14},
    };
    check_defs(LANG_GO, go, W, 2);
}
END_TEST

START_TEST(test_list_csharp_java_yaml) {
    const char *cs = "using System.Collections.Generic;\n"
                     "using Pulumi;\n"
                     "using Random = Pulumi.Random;\n"
                     "\n"
                     "return await Deployment.RunAsync(() =>\n"
                     "{\n"
                     "    var serverName = new Random.RandomPet(\"server-name\", new()\n"
                     "    {\n"
                     "        Length = 2,\n"
                     "    });\n"
                     "});\n";
    static const want_def_t C[] = {{"serverName", "server-name", "Pulumi.Random.RandomPet", 7}};
    check_defs(LANG_CSHARP, cs, C, 1);

    const char *java = "package generated_program;\n"
                       "\n"
                       "import com.pulumi.Context;\n"
                       "import com.pulumi.Pulumi;\n"
                       "import com.pulumi.random.RandomPet;\n"
                       "import com.pulumi.random.*;\n"
                       "\n"
                       "public class App {\n"
                       "    public static void main(String[] args) {\n"
                       "        Pulumi.run(App::stack);\n"
                       "    }\n"
                       "\n"
                       "    public static void stack(Context ctx) {\n"
                       "        var serverName = new RandomPet(\"server-name\");\n"
                       "        var serverId = new RandomId(\"server-id\");\n"
                       "    }\n"
                       "}\n";
    static const want_def_t J[] = {{"serverName", "server-name", "com.pulumi.random.RandomPet", 14},
                                   {"serverId", "server-id", "*.RandomId", 15}};
    check_defs(LANG_JAVA, java, J, 2);

    const char *yaml = "name: webshop\n"
                       "runtime: yaml\n"
                       "resources:\n"
                       "  serverName:\n"
                       "    type: random:RandomPet\n"
                       "    name: server-name\n"
                       "  server-id:\n"
                       "    type: random:index/randomId:RandomId\n"
                       "  notAResource: 3\n"
                       "outputs:\n"
                       "  pet: ${serverName.id}\n";
    static const want_def_t Y[] = {{"serverName", "server-name", "random:RandomPet", 4},
                                   {"server-id", "server-id", "random:RandomId", 7}};
    check_defs(LANG_YAML, yaml, Y, 2);
}
END_TEST

START_TEST(test_list_refused) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    splice_definition_t *defs = (splice_definition_t *)1;
    size_t n = 7;
    const char *bad = "import * as random from \"@pulumi/random\";\n\nconst x = new random.RandomPet(\"x\", {;\n";
    ck_assert(!splice_list_definitions(bad, strlen(bad), LANG_TYPESCRIPT, "index.ts", a, &defs, &n, &d));
    ck_assert_ptr_null(defs);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(d.head->file, "index.ts");
    ck_assert_int_eq(d.head->line, 3);
    ck_assert_contains(d.head->message, "syntax error");
    diag_list_free(&d);
    diag_list_init(&d);
    ck_assert(!splice_list_definitions("x", 1, LANG_PCL, "main.pp", a, &defs, &n, &d));
    ck_assert_str_eq(d.head->message, "cannot read the resources of a pcl file: only TypeScript/JavaScript, Python, "
                                      "Go, C#, Java and Pulumi YAML programs are supported");
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_type_matches) {
    static const struct {
        lang_t lang;
        const char *type, *token;
        bool match;
    } C[] = {
        {LANG_TYPESCRIPT, "@pulumi/random.RandomPet", PET, true},
        {LANG_TYPESCRIPT, "@pulumi/random.RandomPet", RID, false},
        {LANG_TYPESCRIPT, "@pulumi/aws.s3.Bucket", "aws:s3/bucket:Bucket", true},
        {LANG_TYPESCRIPT, "@pulumi/aws.s3.Bucket", "aws:s3control/bucket:Bucket", false},
        {LANG_TYPESCRIPT, "@pulumi/aws.Bucket", "aws:s3/bucket:Bucket", false},
        {LANG_TYPESCRIPT, "@pulumi/gcp.RandomPet", PET, false},
        {LANG_TYPESCRIPT, "@pulumi/kubernetes.apps.v1.Deployment", "kubernetes:apps/v1:Deployment", true},
        {LANG_TYPESCRIPT, "@pulumi/random.Provider", "pulumi:providers:random", true},
        {LANG_PYTHON, "pulumi_random.RandomPet", PET, true},
        {LANG_PYTHON, "pulumi_azure_native.storage.StorageAccount", "azure-native:storage:StorageAccount", true},
        {LANG_GO, "github.com/pulumi/pulumi-random/sdk/v4/go/random.NewRandomPet", PET, true},
        {LANG_GO, "github.com/pulumi/pulumi-random/sdk/v4/go/random.RandomPet", PET, false},
        {LANG_GO, "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/s3.NewBucket", "aws:s3/bucket:Bucket", true},
        {LANG_GO, "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/apps/v1.NewDeployment",
         "kubernetes:apps/v1:Deployment", true},
        {LANG_CSHARP, "Pulumi.Random.RandomPet", PET, true},
        {LANG_CSHARP, "Pulumi.Aws.S3.Bucket", "aws:s3/bucket:Bucket", true},
        {LANG_JAVA, "com.pulumi.random.RandomPet", PET, true},
        {LANG_JAVA, "*.RandomPet", PET, true},
        {LANG_JAVA, "*.RandomPet", RID, false},
        {LANG_YAML, "random:RandomPet", PET, true},
        {LANG_YAML, "random:index:RandomPet", PET, true},
        {LANG_YAML, "aws:s3:Bucket", "aws:s3/bucket:Bucket", true},
        {LANG_YAML, "aws:Bucket", "aws:s3/bucket:Bucket", false},
    };
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        ck_assert_msg(splice_type_matches(C[i].lang, C[i].type, C[i].token) == C[i].match, "%s %s vs %s: want %d",
                      lang_name(C[i].lang), C[i].type, C[i].token, C[i].match);
}
END_TEST

/* --- existing_refs_collect --------------------------------------------------------------------------- */

static const char *TS_PROGRAM = "import * as pulumi from \"@pulumi/pulumi\";\n"
                                "import * as random from \"@pulumi/random\";\n"
                                "import * as aws from \"@pulumi/aws\";\n"
                                "\n"
                                "const serverName = new random.RandomPet(\"server-name\", {\n"
                                "    length: 2,\n"
                                "});\n"
                                "const appRole = new aws.iam.Role(\"app-role\", {assumeRolePolicy: \"{}\"});\n"
                                "const suffix = new random.RandomPet(\"bucket-suffix\", {});\n"
                                "export const name = serverName.id;\n";

/* A stack with the quickstart's RandomPet, an IAM role with name and arn outputs, a RandomString
 * the program declares with another type, a resource pending delete and a component. */
static const char *STACK =
    "{\"version\": 3, \"deployment\": {\"manifest\": {\"time\": \"2026-01-01T00:00:00Z\", \"magic\": \"\", "
    "\"version\": \"v3.200.0\"}, \"resources\": ["
    "{\"urn\": \"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev\", \"custom\": false, \"type\": "
    "\"pulumi:pulumi:Stack\"},"
    "{\"urn\": \"urn:pulumi:dev::proj::random:index/randomPet:RandomPet::server-name\", \"custom\": true, "
    "\"id\": \"clever-wombat\", \"type\": \"random:index/randomPet:RandomPet\", \"inputs\": {\"length\": 2}, "
    "\"outputs\": {\"id\": \"clever-wombat\", \"length\": 2}},"
    "{\"urn\": \"urn:pulumi:dev::proj::aws:iam/role:Role::app-role\", \"custom\": true, \"id\": \"app-role\", "
    "\"type\": \"aws:iam/role:Role\", \"inputs\": {}, \"outputs\": {\"name\": \"app-role\", \"arn\": "
    "\"arn:aws:iam::123456789012:role/app-role\", \"uniqueId\": \"AROA1\"}},"
    "{\"urn\": \"urn:pulumi:dev::proj::random:index/randomString:RandomString::bucket-suffix\", \"custom\": true, "
    "\"id\": \"x7k2p9qa\", \"type\": \"random:index/randomString:RandomString\", \"inputs\": {}, \"outputs\": {}},"
    "{\"urn\": \"urn:pulumi:dev::proj::random:index/randomPet:RandomPet::server-name\", \"custom\": true, "
    "\"id\": \"old-wombat\", \"type\": \"random:index/randomPet:RandomPet\", \"delete\": true, \"inputs\": {}, "
    "\"outputs\": {}}"
    "]}}";

START_TEST(test_collect) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/stack.json", dir);
    ck_assert(tu_write(path, STACK));
    diag_list_t d;
    diag_list_init(&d);
    pcl_external_ref_t *refs;
    size_t n = existing_refs_collect(a, path, TS_PROGRAM, strlen(TS_PROGRAM), LANG_TYPESCRIPT, &refs, &d);
    ck_assert_msg(d.count == 0, "%s", d.head ? d.head->message : "");
    ck_assert_uint_eq(n, 4);
    static const pcl_external_ref_t W[] = {
        {"clever-wombat", "serverName", "id", PET},
        {"app-role", "appRole", "id", "aws:iam/role:Role"},
        {"app-role", "appRole", "name", "aws:iam/role:Role"},
        {"arn:aws:iam::123456789012:role/app-role", "appRole", "arn", "aws:iam/role:Role"},
    };
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(refs[i].value, W[i].value);
        ck_assert_str_eq(refs[i].root, W[i].root);
        ck_assert_str_eq(refs[i].attr, W[i].attr);
        ck_assert_str_eq(refs[i].type, W[i].type);
    }

    /* a stack that does not exist yet, no path: nothing, silently */
    ck_assert_uint_eq(existing_refs_collect(a, arena_sprintf(a, "%s/none.json", dir), TS_PROGRAM, strlen(TS_PROGRAM),
                                            LANG_TYPESCRIPT, &refs, &d),
                      0);
    ck_assert_ptr_null(refs);
    ck_assert_uint_eq(existing_refs_collect(a, NULL, TS_PROGRAM, strlen(TS_PROGRAM), LANG_TYPESCRIPT, &refs, &d), 0);
    ck_assert_int_eq(d.count, 0);

    /* a program that does not parse: nothing, one warning naming the line */
    const char *bad = "const x = new random.RandomPet(\"x\", {;\n";
    ck_assert_uint_eq(existing_refs_collect(a, path, bad, strlen(bad), LANG_TYPESCRIPT, &refs, &d), 0);
    ck_assert_int_eq(d.count, 1);
    ck_assert_int_eq(d.head->severity, DIAG_WARNING);
    ck_assert_int_eq(d.head->line, 1);
    ck_assert_contains(d.head->message, "not turned into references to the resources the program already has: syntax "
                                        "error");
    diag_list_free(&d);

    /* a stack file that is not a stack export: nothing, one warning */
    diag_list_init(&d);
    ck_assert(tu_write(path, "{\"not\": \"a stack\"}"));
    ck_assert_uint_eq(existing_refs_collect(a, path, TS_PROGRAM, strlen(TS_PROGRAM), LANG_TYPESCRIPT, &refs, &d), 0);
    ck_assert_int_eq(d.count, 1);
    ck_assert_int_eq(d.head->severity, DIAG_WARNING);
    ck_assert_contains(d.head->message, "the stack already has: ");
    diag_list_free(&d);

    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* Two definitions of the same resource: both roots are candidates, so generation keeps the value
 * literal. */
START_TEST(test_collect_twice_declared) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/stack.json", dir);
    ck_assert(tu_write(path, STACK));
    const char *py = "import pulumi_random as random\n"
                     "a = random.RandomPet(\"server-name\")\n"
                     "b = random.RandomPet(\"server-name\")\n";
    pcl_external_ref_t *refs;
    size_t n = existing_refs_collect(a, path, py, strlen(py), LANG_PYTHON, &refs, NULL);
    ck_assert_uint_eq(n, 2);
    pcl_gen_resource_t r = server_id(a);
    pcl_gen_result_t g;
    char *pcl = generate(&r, 1, refs, n, &g);
    ck_assert_contains(pcl, "\"server\" = \"clever-wombat\"\n");
    free(pcl);
    pcl_program_free(g.program);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* The whole chain with the quickstart: its stack records the RandomPet office-name, index.ts declares
 * it as serverName; the RandomId's code spliced into index.ts says `server: serverName.id` and the file
 * type-checks against the real SDKs. */
START_TEST(test_chain_typescript) {
    arena_t *a = arena_new();
    const char *stack = arena_sprintf(a, "%s/examples/quickstart/stack.json", SOURCE_DIR);
    const char *program = "import * as pulumi from \"@pulumi/pulumi\";\n"
                          "import * as random from \"@pulumi/random\";\n"
                          "\n"
                          "const serverName = new random.RandomPet(\"office-name\", {\n"
                          "    length: 2,\n"
                          "    separator: \"-\",\n"
                          "});\n"
                          "export const petName = serverName.id;\n";
    diag_list_t d;
    diag_list_init(&d);
    pcl_external_ref_t *refs;
    size_t n = existing_refs_collect(a, stack, program, strlen(program), LANG_TYPESCRIPT, &refs, &d);
    ck_assert_int_eq(d.count, 0);
    ck_assert_uint_eq(n, 1);
    pcl_gen_resource_t r = server_id(a);
    pcl_gen_result_t g;
    free(generate(&r, 1, refs, n, &g));
    char *code = emit_clean(g.program, LANG_TYPESCRIPT);
    char *out = NULL;
    bool changed = false;
    ck_assert_msg(splice_program(program, strlen(program), LANG_TYPESCRIPT, code, NULL, &out, &changed, &d), "%s",
                  d.head ? d.head->message : "");
    ck_assert(changed);
    ck_assert_contains(out, "const serverId = new random.RandomId(\"server-id\", {\n"
                            "    byteLength: 8,\n"
                            "    keepers: {\n"
                            "        server: serverName.id,\n"
                            "    },\n"
                            "});\n");
    ck_assert_lacks(out, "clever-wombat");

    char *dir = tu_mkdtemp();
    char *peers = arena_sprintf(a, "%s/tests/peers", SOURCE_DIR);
    struct stat st;
    ck_assert_msg(stat(arena_sprintf(a, "%s/node_modules/typescript/bin/tsc", peers), &st) == 0,
                  "tests/peers/node_modules is missing: run `cd tests/peers && npm ci --ignore-scripts`");
    ck_assert(tu_write(arena_sprintf(a, "%s/index.ts", dir), out));
    ck_assert(
        tu_write(arena_sprintf(a, "%s/tsconfig.json", dir),
                 arena_sprintf(a,
                               "{\"compilerOptions\":{\"module\":\"commonjs\",\"target\":\"es2020\",\"strict\":true,"
                               "\"noEmit\":true,\"skipLibCheck\":true,\"moduleResolution\":\"node\","
                               "\"typeRoots\":[\"%s/node_modules/@types\"],\"types\":[\"node\"],"
                               "\"paths\":{\"@pulumi/*\":[\"%s/node_modules/@pulumi/*\"]}},\"files\":[\"index.ts\"]}",
                               peers, peers)));
    int status;
    char *o = tu_run(
        arena_sprintf(a, "cd '%s' && node '%s/node_modules/typescript/bin/tsc' -p tsconfig.json 2>&1", dir, peers),
        &status);
    ck_assert_msg(status == 0, "tsc rejected:\n%s\n%s", o, out);
    free(o);
    tu_rmtree(dir);
    free(dir);
    free(out);
    free(code);
    pcl_program_free(g.program);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Go: the RandomId spliced into a program declaring serverName references serverName.ID() and the
 * file stays gofmt-clean. */
START_TEST(test_chain_go) {
    arena_t *a = arena_new();
    const char *stack = arena_sprintf(a, "%s/examples/quickstart/stack.json", SOURCE_DIR);
    const char *program = "package main\n"
                          "\n"
                          "import (\n"
                          "\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                          "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n"
                          ")\n"
                          "\n"
                          "func main() {\n"
                          "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                          "\t\tserverName, err := random.NewRandomPet(ctx, \"office-name\", &random.RandomPetArgs{\n"
                          "\t\t\tLength: pulumi.Int(2),\n"
                          "\t\t})\n"
                          "\t\tif err != nil {\n"
                          "\t\t\treturn err\n"
                          "\t\t}\n"
                          "\t\tctx.Export(\"petName\", serverName.ID())\n"
                          "\t\treturn nil\n"
                          "\t})\n"
                          "}\n";
    pcl_external_ref_t *refs;
    size_t n = existing_refs_collect(a, stack, program, strlen(program), LANG_GO, &refs, NULL);
    ck_assert_uint_eq(n, 1);
    pcl_gen_resource_t r = server_id(a);
    pcl_gen_result_t g;
    free(generate(&r, 1, refs, n, &g));
    char *code = emit_clean(g.program, LANG_GO);
    char *out = NULL;
    bool changed = false;
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_msg(splice_program(program, strlen(program), LANG_GO, code, NULL, &out, &changed, &d), "%s",
                  d.head ? d.head->message : "");
    ck_assert_contains(out, "\"server\": serverName.ID(),");
    char *dir = tu_mkdtemp();
    char *f = arena_sprintf(a, "%s/main.go", dir);
    ck_assert(tu_write(f, out));
    int status;
    char *o = tu_run(arena_sprintf(a, "gofmt -l '%s' 2>&1", f), &status);
    ck_assert_msg(status == 0 && o[0] == 0, "gofmt would change:\n%s\n%s", o, out);
    free(o);
    tu_rmtree(dir);
    free(dir);
    free(out);
    free(code);
    pcl_program_free(g.program);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

static Suite *existing_refs_suite(void) {
    Suite *s = suite_create("existing_refs");
    TCase *tc = tcase_create("pcl");
    tcase_add_test(tc, test_gen_external_id);
    tcase_add_test(tc, test_gen_external_name_arn);
    tcase_add_test(tc, test_gen_external_ambiguous);
    tcase_add_test(tc, test_gen_external_superseded);
    tcase_add_test(tc, test_gen_external_root_reserved);
    suite_add_tcase(s, tc);
    tc = tcase_create("emitters");
    tcase_add_test(tc, test_emit_unbound_root);
    suite_add_tcase(s, tc);
    tc = tcase_create("splice");
    tcase_add_test(tc, test_list_typescript);
    tcase_add_test(tc, test_list_python);
    tcase_add_test(tc, test_list_go);
    tcase_add_test(tc, test_list_csharp_java_yaml);
    tcase_add_test(tc, test_list_refused);
    tcase_add_test(tc, test_type_matches);
    suite_add_tcase(s, tc);
    tc = tcase_create("collect");
    tcase_add_test(tc, test_collect);
    tcase_add_test(tc, test_collect_twice_declared);
    tcase_add_test(tc, test_chain_typescript);
    tcase_add_test(tc, test_chain_go);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(existing_refs_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (g_schemas) schema_set_free(g_schemas);
    return failed ? 1 : 0;
}

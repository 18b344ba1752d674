/* test_emit_ts_py_yaml.c — the TypeScript, Python and YAML emitters and the shared names helper.
 *
 * Programs come from the real pipeline pieces (stack export / importer cases → pcl_generate with
 * the real schemas → emitter). Checks: naming rules (PyName, identifiers, unique names, numbers,
 * quoting), exact output for small programs (pcl-emitters §7), secrets as config, components,
 * enums/objects/numbers per language, golden files under tests/fixtures/emit/, and for every
 * custom resource of the random/tls/command/digitalocean/azuread stack exports: TypeScript that
 * `tsc --strict --noEmit` accepts against the real SDKs in tests/peers, Python that py_compile
 * accepts, YAML that libyaml parses into `resources: <name>: {type, properties, options}`.
 *
 * CIMPORT_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing (review the diff). */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "emitters/emit_internal.h"
#include "pcl/pcl.h"
#include "specs/deployment.h"
#include "testutil.h"

/* --- pipeline helpers ---------------------------------------------------------------------------- */

static const char *const STACKS[] = {
    "pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randompassword/4.16.0/stack.json",
    "pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randomstring/4.16.0/stack.json",
    "pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randomid/4.16.0/stack.json",
    "pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randominteger/4.16.0/stack.json",
    "pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randomshuffle/4.16.0/stack.json",
    "pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randompet/4.16.0/stack.json",
    "pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randomuuid/4.16.0/stack.json",
    "pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randombytes/4.16.0/stack.json",
    "pulumi-state/pulumi-tls/provider/testdata/recorded/TestProviderUpgrade/index_certrequest/5.0.2/stack.json",
    "pulumi-state/pulumi-tls/provider/testdata/recorded/TestProviderUpgrade/index_privatekey/5.0.2/stack.json",
    "pulumi-state/pulumi-tls/examples/testdata/recorded/TestProviderUpgrade/yaml/5.0.0/stack.json",
    "pulumi-state/pulumi-tls/examples/testdata/recorded/TestProviderUpgrade/ts/5.0.0/stack.json",
    "pulumi-state/pulumi-command/examples/testdata/recorded/TestProviderUpgrade/stdin/0.11.1/stack.json",
    "pulumi-state/pulumi-digitalocean/provider/testdata/recorded/TestProviderUpgrade/index_volume/4.27.0/stack.json",
    "pulumi-state/pulumi-digitalocean/provider/testdata/recorded/TestProviderUpgrade/index_projectresources/4.27.0/"
    "stack.json",
    "pulumi-state/pulumi-digitalocean/provider/testdata/recorded/TestProviderUpgrade/index_droplet/4.27.0/stack.json",
    "pulumi-state/pulumi-digitalocean/provider/testdata/recorded/TestProviderUpgrade/index_tag/4.27.0/stack.json",
    "pulumi-state/pulumi-azuread/provider/testdata/recorded/TestProviderUpgrade/ad-app/5.53.5/stack.json",
    "pulumi-state/pulumi-azuread/provider/testdata/recorded/TestProviderUpgrade/ad-app-password/5.53.5/stack.json",
};
#define N_STACKS (sizeof STACKS / sizeof STACKS[0])

static schema_set_t *load_schemas(arena_t *a) {
    static const char *const dirs[] = {"schemas/random",  "schemas/tls",
                                       "schemas/command", "schemas/digitalocean",
                                       "schemas/azuread", "pulumi-importer/schemas/importer-1.0.0.json"};
    schema_set_t *set = schema_set_new();
    diag_list_t d;
    diag_list_init(&d);
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        ck_assert(schema_set_add_path(set, tu_data(a, dirs[i]), &d));
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    return set;
}

static const char *urn_name(const char *urn) {
    const char *s = strrchr(urn, ':');
    return s ? s + 1 : urn;
}

/* Stack/checkpoint resources → generator input: custom resources except providers, the stack
 * and pending deletes; parents that are in the set are referenced by their variable. */
static size_t gen_inputs_from_states(arena_t *a, const state_resource_t *rs, size_t n, pcl_gen_resource_t *out) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const state_resource_t *r = &rs[i];
        if (!r->custom || r->del || strncmp(r->type, "pulumi:", 7) == 0) continue;
        pcl_gen_resource_t *g = &out[k++];
        memset(g, 0, sizeof *g);
        g->type = r->type;
        g->name = urn_name(r->urn);
        g->logical_name = g->name;
        g->urn = r->urn;
        g->id = r->id;
        g->inputs = r->inputs;
        g->outputs = r->outputs;
        g->protect = r->protect;
        for (size_t j = 0; r->parent && j < n; j++)
            if (strcmp(rs[j].urn, r->parent) == 0 && rs[j].custom && strncmp(rs[j].type, "pulumi:", 7) != 0)
                g->parent = urn_name(rs[j].urn);
    }
    (void)a;
    return k;
}

static pcl_program_t *program_from_gen(const pcl_gen_resource_t *in, size_t n, schema_set_t *set,
                                       pcl_gen_result_t *res) {
    pcl_gen_options_t o;
    pcl_gen_options_default(&o);
    diag_list_t d;
    diag_list_init(&d);
    bool ok = pcl_generate(in, n, set, &o, res, &d);
    for (diag_t *x = d.head; x && d.errors; x = x->next)
        fprintf(stderr, "%s\n", diag_format(&d, x));
    ck_assert(ok);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    return res->program;
}

static pcl_program_t *program_from_stack(arena_t *a, schema_set_t *set, const char *rel, pcl_gen_result_t *res) {
    diag_list_t d;
    diag_list_init(&d);
    deployment_t *dep = deployment_load(a, tu_data(a, rel), &d);
    ck_assert_msg(dep != NULL, "cannot load %s", rel);
    pcl_gen_resource_t *in = arena_alloc(a, (dep->n_resources + 1) * sizeof *in);
    size_t n = gen_inputs_from_states(a, dep->resources, dep->n_resources, in);
    ck_assert_uint_gt(n, 0);
    pcl_program_t *p = program_from_gen(in, n, set, res);
    deployment_free(dep);
    diag_list_free(&d);
    return p;
}

/* A sample of Pulumi's importer test states (cases.json): indices chosen to cover nested
 * objects, lists, maps, JSON policy strings, numbers and the random package. */
static pcl_program_t *program_from_importer_cases(arena_t *a, schema_set_t *set, pcl_gen_result_t *res) {
    static const int picks[] = {0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 70, 80, 90};
    size_t len;
    char *text = tu_read(tu_data(a, "pulumi-importer/cases.json"), &len);
    ck_assert_ptr_nonnull(text);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    cJSON *arr = cJSON_GetObjectItem(doc, "resources");
    pcl_gen_resource_t in[sizeof picks / sizeof picks[0]];
    size_t n = 0;
    diag_list_t d;
    diag_list_init(&d);
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++) {
        cJSON *r = cJSON_GetArrayItem(arr, picks[i]);
        ck_assert_ptr_nonnull(r);
        pcl_gen_resource_t *g = &in[n++];
        memset(g, 0, sizeof *g);
        g->type = arena_strdup(a, cJSON_GetObjectItem(r, "type")->valuestring);
        g->urn = arena_strdup(a, cJSON_GetObjectItem(r, "urn")->valuestring);
        g->name = g->logical_name = urn_name(g->urn);
        cJSON *id = cJSON_GetObjectItem(r, "id");
        g->id = cJSON_IsString(id) ? arena_strdup(a, id->valuestring) : NULL;
        g->inputs = pv_from_state_json(a, cJSON_GetObjectItem(r, "inputs"), "cases.json", &d);
        cJSON *outs = cJSON_GetObjectItem(r, "outputs");
        g->outputs = outs ? pv_from_state_json(a, outs, "cases.json", &d) : NULL;
        g->protect = cJSON_IsTrue(cJSON_GetObjectItem(r, "protect"));
    }
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    cJSON_Delete(doc);
    return program_from_gen(in, n, set, res);
}

/* Emits with `fn`, asserting no error diagnostics; returns the text (malloc'd). */
static char *emit_ok(char *(*fn)(const pcl_program_t *, diag_list_t *), const pcl_program_t *p) {
    diag_list_t d;
    diag_list_init(&d);
    char *s = fn(p, &d);
    for (diag_t *x = d.head; x; x = x->next)
        fprintf(stderr, "%s\n", diag_format(&d, x));
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    return s;
}

/* A small schema in the shape of Pulumi's conformance `simple` provider, plus an enum, an object
 * type, a map, a number and an integer to exercise typed printing. */
static const char *SIMPLE_SCHEMA =
    "{\"name\":\"simple\",\"version\":\"2.0.0\",\"resources\":{\"simple:index:Resource\":{"
    "\"inputProperties\":{\"value\":{\"type\":\"boolean\"},\"color\":{\"$ref\":\"#/types/simple:index:Color\"},"
    "\"ratio\":{\"type\":\"number\"},\"count\":{\"type\":\"integer\"},"
    "\"nested\":{\"$ref\":\"#/types/simple:index:Nested\"},"
    "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},"
    "\"resourceName\":{\"type\":\"string\"}},"
    "\"properties\":{\"value\":{\"type\":\"boolean\"}}}},"
    "\"types\":{\"simple:index:Color\":{\"type\":\"string\",\"enum\":[{\"value\":\"red\",\"name\":\"Red\"},"
    "{\"value\":\"light-blue\"}]},"
    "\"simple:index:Nested\":{\"type\":\"object\",\"properties\":{\"innerValue\":{\"type\":\"string\"},"
    "\"subnetIDs\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}}%s}";

static schema_set_t *simple_schemas(bool classes) {
    char text[4096];
    snprintf(text, sizeof text, SIMPLE_SCHEMA,
             classes ? ",\"language\":{\"python\":{\"inputTypes\":\"classes\"}}" : "");
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *pkg = schema_load_buffer(text, strlen(text), "simple.json", &d);
    ck_assert_ptr_nonnull(pkg);
    diag_list_free(&d);
    schema_set_t *set = schema_set_new();
    schema_set_add(set, pkg);
    return set;
}

static pcl_gen_resource_t gen_res(const char *type, const char *name, const pv_t *inputs) {
    pcl_gen_resource_t r;
    memset(&r, 0, sizeof r);
    r.type = type;
    r.name = name;
    r.logical_name = name;
    r.inputs = inputs;
    return r;
}

/* --- names ------------------------------------------------------------------------------------- */

START_TEST(test_names_py_name) {
    arena_t *a = arena_new();
    static const char *const cases[][2] = {
        {"enableFIPS", "enable_fips"},
        {"vnetSubnetID", "vnet_subnet_id"},
        {"effectiveOutboundIPs", "effective_outbound_ips"},
        {"osSKU", "os_sku"},
        {"SHA256Hash", "sha256_hash"},
        {"HTTPServer", "http_server"},
        {"openXJsonSerDe", "open_x_json_ser_de"},
        {"privateKeyPem", "private_key_pem"},
        {"value", "value"},
        {"ipv6Address", "ipv6_address"},
        {"a-b", "a_b"},
        {"Name", "name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_str_eq(names_py_name(a, cases[i][0]), cases[i][1]);
    arena_free(a);
}
END_TEST

START_TEST(test_names_identifiers) {
    arena_t *a = arena_new();
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_TYPESCRIPT, "import"), "_import");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_TYPESCRIPT, "aws-native"), "aws_native");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_TYPESCRIPT, "1st"), "_1st");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_TYPESCRIPT, "$ok"), "$ok");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_PYTHON, "lambda"), "lambda_");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_PYTHON, "$x"), "_x");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_GO, "string"), "_string");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_CSHARP, "class"), "@class");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_JAVA, "boolean"), "boolean_");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_YAML, "import"), "import");
    ck_assert_str_eq(names_make_valid_identifier(a, LANG_TYPESCRIPT, ""), "_");
    ck_assert(names_is_identifier(LANG_TYPESCRIPT, "fooBar"));
    ck_assert(!names_is_identifier(LANG_TYPESCRIPT, "foo-bar"));
    ck_assert(!names_is_identifier(LANG_PYTHON, "None"));
    ck_assert_str_eq(names_title(a, "foo-bar"), "FooBar");
    ck_assert_str_eq(names_title(a, "$ref"), "Ref");
    ck_assert_str_eq(names_camel(a, "FooBar"), "fooBar");
    ck_assert_str_eq(names_pascal(a, "fooBar"), "FooBar");
    char *pkg, *mod, *member;
    ck_assert(names_token_split(a, "aws:s3/bucket:Bucket", &pkg, &mod, &member));
    ck_assert_str_eq(pkg, "aws");
    ck_assert_str_eq(mod, "s3/bucket");
    ck_assert_str_eq(member, "Bucket");
    ck_assert(names_token_split(a, "pulumi:providers:aws", &pkg, &mod, &member));
    ck_assert_str_eq(pkg, "aws");
    ck_assert_ptr_null(mod);
    ck_assert_str_eq(member, "Provider");
    ck_assert(!names_token_split(a, "nocolon", &pkg, &mod, &member));
    arena_free(a);
}
END_TEST

START_TEST(test_names_unique_and_map) {
    arena_t *a = arena_new();
    names_table_t *t = names_table_new(a);
    names_table_reserve(t, "random");
    ck_assert_str_eq(names_table_unique(t, "bucket", "", 2), "bucket");
    ck_assert_str_eq(names_table_unique(t, "bucket", "", 2), "bucket2");
    ck_assert_str_eq(names_table_unique(t, "bucket", "", 2), "bucket3");
    ck_assert_str_eq(names_table_unique(t, "random", "_", 1), "random_1");
    ck_assert_int_eq(names_table_get(t, "random"), -1);
    /* grows past its initial size and keeps every value */
    for (int i = 0; i < 5000; i++)
        names_table_put(t, arena_sprintf(a, "n%d", i), i);
    for (int i = 0; i < 5000; i++)
        ck_assert_int_eq(names_table_get(t, arena_sprintf(a, "n%d", i)), i);
    ck_assert(names_table_has(t, "bucket2"));
    ck_assert(!names_table_has(t, "bucket4"));
    arena_free(a);
}
END_TEST

static const char *num(buf_t *b, double n) {
    b->len = 0;
    names_append_number(b, n);
    buf_putc(b, 0);
    return b->data;
}

START_TEST(test_names_numbers_and_quotes) {
    buf_t b;
    buf_init(&b);
    ck_assert_str_eq(num(&b, 42), "42");
    ck_assert_str_eq(num(&b, -3), "-3");
    ck_assert_str_eq(num(&b, 3.14), "3.14");
    ck_assert_str_eq(num(&b, 0.1 + 0.2), "0.30000000000000004");
    ck_assert_str_eq(num(&b, 1.5e-7), "1.5e-07");
    ck_assert_str_eq(num(&b, 0.0001), "0.0001");
    ck_assert_str_eq(num(&b, 1234567.5), "1.2345675e+06");
    ck_assert_str_eq(num(&b, 123456.5), "123456.5");
    ck_assert_str_eq(num(&b, 1e21), "1e+21");
    ck_assert_str_eq(num(&b, 9007199254740993.0), "9007199254740992");
    ck_assert(!names_number_is_int(9223372036854775808.0));
    b.len = 0;
    names_append_quoted(&b, LANG_TYPESCRIPT, "a\"b\\c\nd\x01");
    buf_putc(&b, 0);
    ck_assert_str_eq(b.data, "\"a\\\"b\\\\c\\nd\\x01\"");
    b.len = 0;
    names_append_quoted(&b, LANG_JAVA, "x\x01");
    buf_putc(&b, 0);
    ck_assert_str_eq(b.data, "\"x\\001\"");
    b.len = 0;
    names_append_quoted(&b, LANG_CSHARP, "x\x01y");
    buf_putc(&b, 0);
    ck_assert_str_eq(b.data, "\"x\\u0001y\"");
    buf_free(&b);
    arena_t *a = arena_new();
    schema_enum_value_t ev = {.name = NULL, .value = pv_string(a, "Standard_LRS")};
    ck_assert_str_eq(names_enum_member(a, LANG_TYPESCRIPT, &ev, "SkuName"), "Standard_LRS");
    ck_assert_str_eq(names_enum_member(a, LANG_PYTHON, &ev, "SkuName"), "STANDARD_LRS");
    ev.value = pv_string(a, "*");
    ck_assert_str_eq(names_enum_member(a, LANG_TYPESCRIPT, &ev, "Methods"), "Asterisk");
    ev.value = pv_string(a, "light-blue");
    ck_assert_str_eq(names_enum_member(a, LANG_TYPESCRIPT, &ev, "Color"), "Light_blue");
    ck_assert_str_eq(names_enum_member(a, LANG_PYTHON, &ev, "Color"), "LIGHT_BLUE");
    ev.value = pv_string(a, "Color");
    ck_assert_str_eq(names_enum_member(a, LANG_TYPESCRIPT, &ev, "Color"), "ColorValue");
    ev.value = pv_string(a, "?");
    ck_assert_ptr_null(names_enum_member(a, LANG_TYPESCRIPT, &ev, "Color"));
    arena_free(a);
}
END_TEST

/* --- exact output of small programs ------------------------------------------------------------- */

/* pcl-emitters §7 (conformance l2-explicit-provider). */
START_TEST(test_explicit_provider_all_languages) {
    arena_t *a = arena_new();
    schema_set_t *set = simple_schemas(false);
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "value", pv_bool(a, true));
    pcl_gen_resource_t rs[2] = {gen_res("pulumi:providers:simple", "prov", pv_object(a)),
                                gen_res("simple:index:Resource", "res", in)};
    rs[1].provider = "prov";
    pcl_gen_result_t res;
    pcl_program_t *p = program_from_gen(rs, 2, set, &res);
    char *ts = emit_ok(emit_typescript, p);
    ck_assert_str_eq(ts, "import * as pulumi from \"@pulumi/pulumi\";\n"
                         "import * as simple from \"@pulumi/simple\";\n"
                         "\n"
                         "const prov = new simple.Provider(\"prov\", {});\n"
                         "const res = new simple.Resource(\"res\", {value: true}, {\n"
                         "    provider: prov,\n"
                         "});\n");
    char *py = emit_ok(emit_python, p);
    ck_assert_str_eq(py, "import pulumi\n"
                         "import pulumi_simple as simple\n"
                         "\n"
                         "prov = simple.Provider(\"prov\")\n"
                         "res = simple.Resource(\"res\", value=True,\n"
                         "opts = pulumi.ResourceOptions(provider=prov))\n");
    char *y = emit_ok(emit_yaml, p);
    ck_assert_str_eq(y, "resources:\n"
                        "  prov:\n"
                        "    type: pulumi:providers:simple\n"
                        "  res:\n"
                        "    type: simple:Resource\n"
                        "    properties:\n"
                        "      value: true\n"
                        "    options:\n"
                        "      provider: ${prov}\n");
    free(ts);
    free(py);
    free(y);
    pcl_program_free(p);
    schema_set_free(set);
    arena_free(a);
}
END_TEST

/* Typed printing: enum members, float() for numbers, TypedDict keys vs Args classes, map keys
 * verbatim, `resource_name_`, several inputs with options in each language's order. */
START_TEST(test_typed_values) {
    arena_t *a = arena_new();
    pv_t *nested = pv_object(a);
    pv_object_set(a, nested, "innerValue", pv_string(a, "x"));
    pv_t *ids = pv_array(a);
    pv_array_push(a, ids, pv_string(a, "s-1"));
    pv_array_push(a, ids, pv_string(a, "s-2"));
    pv_object_set(a, nested, "subnetIDs", ids);
    pv_t *tags = pv_object(a);
    pv_object_set(a, tags, "my.key", pv_string(a, "v"));
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "color", pv_string(a, "light-blue"));
    pv_object_set(a, in, "count", pv_number(a, 3));
    pv_object_set(a, in, "nested", nested);
    pv_object_set(a, in, "ratio", pv_number(a, 2));
    pv_object_set(a, in, "resourceName", pv_string(a, "multi\nline\ntext"));
    pv_object_set(a, in, "tags", tags);
    pcl_gen_resource_t rs[1] = {gen_res("simple:index:Resource", "import", in)};
    rs[0].protect = true;
    const char *ign[] = {"tags"};
    rs[0].ignore_changes = ign;
    rs[0].n_ignore_changes = 1;

    schema_set_t *set = simple_schemas(false);
    pcl_gen_result_t res;
    pcl_program_t *p = program_from_gen(rs, 1, set, &res);
    char *ts = emit_ok(emit_typescript, p);
    ck_assert_str_eq(ts, "import * as pulumi from \"@pulumi/pulumi\";\n"
                         "import * as simple from \"@pulumi/simple\";\n"
                         "\n"
                         "const _import = new simple.Resource(\"import\", {\n"
                         "    color: simple.Color.Light_blue,\n"
                         "    count: 3,\n"
                         "    nested: {\n"
                         "        innerValue: \"x\",\n"
                         "        subnetIDs: [\n"
                         "            \"s-1\",\n"
                         "            \"s-2\",\n"
                         "        ],\n"
                         "    },\n"
                         "    ratio: 2,\n"
                         "    resourceName: `multi\nline\ntext`,\n"
                         "    tags: {\n"
                         "        \"my.key\": \"v\",\n"
                         "    },\n"
                         "}, {\n"
                         "    ignoreChanges: [\"tags\"],\n"
                         "    protect: true,\n"
                         "});\n");
    char *py = emit_ok(emit_python, p);
    ck_assert_str_eq(py, "import pulumi\n"
                         "import pulumi_simple as simple\n"
                         "\n"
                         "import_ = simple.Resource(\"import\",\n"
                         "    color=simple.Color.LIGHT_BLUE,\n"
                         "    count=3,\n"
                         "    nested={\n"
                         "        \"inner_value\": \"x\",\n"
                         "        \"subnet_ids\": [\n"
                         "            \"s-1\",\n"
                         "            \"s-2\",\n"
                         "        ],\n"
                         "    },\n"
                         "    ratio=float(2),\n"
                         "    resource_name_=\"\"\"multi\nline\ntext\"\"\",\n"
                         "    tags={\n"
                         "        \"my.key\": \"v\",\n"
                         "    },\n"
                         "    opts = pulumi.ResourceOptions(protect=True,\n"
                         "        ignore_changes=[\"tags\"]))\n");
    char *y = emit_ok(emit_yaml, p);
    ck_assert_str_eq(y, "resources:\n"
                        "  import:\n"
                        "    type: simple:Resource\n"
                        "    properties:\n"
                        "      color: light-blue\n"
                        "      count: 3\n"
                        "      nested:\n"
                        "        innerValue: x\n"
                        "        subnetIDs:\n"
                        "          - s-1\n"
                        "          - s-2\n"
                        "      ratio: 2\n"
                        "      resourceName: |-\n"
                        "        multi\n"
                        "        line\n"
                        "        text\n"
                        "      tags:\n"
                        "        my.key: v\n"
                        "    options:\n"
                        "      ignoreChanges:\n"
                        "        - tags\n"
                        "      protect: true\n");
    free(ts);
    free(py);
    free(y);
    pcl_program_free(p);
    schema_set_free(set);

    /* inputTypes "classes": nested objects become Args classes with keyword arguments */
    set = simple_schemas(true);
    p = program_from_gen(rs, 1, set, &res);
    py = emit_ok(emit_python, p);
    ck_assert_msg(strstr(py, "    nested=simple.NestedArgs(\n"
                             "        inner_value=\"x\",\n"
                             "        subnet_ids=[\n"
                             "            \"s-1\",\n"
                             "            \"s-2\",\n"
                             "        ],\n"
                             "    ),\n"),
                  "%s", py);
    free(py);
    pcl_program_free(p);
    schema_set_free(set);
    arena_free(a);
}
END_TEST

/* A secret input becomes a secret stack-config read in every language. */
START_TEST(test_secret_config) {
    arena_t *a = arena_new();
    schema_set_t *set = load_schemas(a);
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "length", pv_number(a, 16));
    pv_object_set(a, in, "overrideSpecial", pv_secret(a, pv_string(a, "!#$")));
    pcl_gen_resource_t rs[1] = {gen_res("random:index/randomPassword:RandomPassword", "password", in)};
    pcl_gen_result_t res;
    pcl_program_t *p = program_from_gen(rs, 1, set, &res);
    ck_assert_uint_eq(res.n_secrets, 1);
    const char *key = res.secrets[0].config_key;
    char *ts = emit_ok(emit_typescript, p);
    char *want =
        arena_sprintf(a, "const config = new pulumi.Config();\nconst %s = config.requireSecret(\"%s\");\n", key, key);
    ck_assert_msg(strstr(ts, want), "%s", ts);
    ck_assert_msg(strstr(ts, arena_sprintf(a, "    overrideSpecial: %s,\n", key)), "%s", ts);
    ck_assert_ptr_null(strstr(ts, "!#$"));
    char *py = emit_ok(emit_python, p);
    const char *pykey = names_py_name(a, key);
    want = arena_sprintf(a, "config = pulumi.Config()\n%s = config.require_secret(\"%s\")\n", pykey, key);
    ck_assert_msg(strstr(py, want), "%s", py);
    ck_assert_msg(strstr(py, arena_sprintf(a, "    override_special=%s", pykey)), "%s", py);
    char *y = emit_ok(emit_yaml, p);
    want = arena_sprintf(a, "configuration:\n  %s:\n    type: string\n    secret: true\nresources:\n", key);
    ck_assert_msg(strncmp(y, want, strlen(want)) == 0, "%s", y);
    ck_assert_msg(strstr(y, arena_sprintf(a, "      overrideSpecial: ${%s}\n", key)), "%s", y);
    free(ts);
    free(py);
    free(y);
    pcl_program_free(p);
    schema_set_free(set);
    arena_free(a);
}
END_TEST

/* Local components: TS/Python ComponentResource; YAML reports and leaves them out. */
START_TEST(test_components) {
    arena_t *a = arena_new();
    schema_set_t *set = load_schemas(a);
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "length", pv_number(a, 8));
    pcl_gen_resource_t rs[2] = {gen_res("company:product:CRClass", "parentComponent", pv_object(a)),
                                gen_res("random:index/randomPet:RandomPet", "pet", in)};
    rs[0].component = true;
    rs[0].protect = true;
    rs[0].logical_name = "example";
    rs[1].parent = "parentComponent";
    pcl_gen_result_t res;
    pcl_program_t *p = program_from_gen(rs, 2, set, &res);
    char *ts = emit_ok(emit_typescript, p);
    ck_assert_msg(
        strstr(ts, "const parentComponent = new pulumi.ComponentResource(\"company:product:CRClass\", "
                   "\"example\", {}, {\n    protect: true,\n});\n"
                   "const pet = new random.RandomPet(\"pet\", {length: 8}, {\n    parent: parentComponent,\n});\n"),
        "%s", ts);
    ck_assert_ptr_null(strstr(ts, "@pulumi/company"));
    char *py = emit_ok(emit_python, p);
    ck_assert_msg(strstr(py, "parent_component = pulumi.ComponentResource(\"company:product:CRClass\", \"example\", "
                             "opts = pulumi.ResourceOptions(protect=True))\n"
                             "pet = random.RandomPet(\"pet\", length=8,\n"
                             "opts = pulumi.ResourceOptions(parent=parent_component))\n"),
                  "%s", py);
    diag_list_t d;
    diag_list_init(&d);
    char *y = emit_yaml(p, &d);
    ck_assert_str_eq(y, "resources:\n  pet:\n    type: random:RandomPet\n    properties:\n      length: 8\n");
    ck_assert_int_eq(d.errors, 0);
    ck_assert_uint_eq(d.count, 2);
    ck_assert_str_eq(d.head->resource, "component 'example' of type 'company:product:CRClass'");
    ck_assert_str_eq(d.head->message,
                     "Pulumi YAML cannot declare local components, so it was left out of the YAML program; generate "
                     "TypeScript or Python to keep it, or import its children without a parent");
    ck_assert_str_eq(d.head->next->resource, "resource 'pet' of type 'random:index/randomPet:RandomPet'");
    ck_assert_str_eq(d.head->next->message, "its parent 'parentComponent' is a local component, which Pulumi YAML "
                                            "cannot declare; the option was left out");
    diag_list_free(&d);
    free(ts);
    free(py);
    free(y);
    pcl_program_free(p);
    schema_set_free(set);
    arena_free(a);
}
END_TEST

/* Identifiers never collide with reserved words, import aliases, the config variable or each
 * other (hand-built: generation already renames some of these for PCL). */
START_TEST(test_identifier_collisions) {
    pcl_program_t *p = pcl_program_new();
    const char *names[] = {"random", "pulumi", "class", "config", "None", "my-pet"};
    for (size_t i = 0; i < 6; i++) {
        pcl_node_t *n = pcl_program_add(p, PCL_NODE_RESOURCE);
        n->name = names[i];
        n->token = "random:index/randomPet:RandomPet";
    }
    pcl_node_t *c = pcl_program_add(p, PCL_NODE_CONFIG);
    c->name = "token";
    c->token = "string";
    c->config_secret = true;
    char *ts = emit_ok(emit_typescript, p);
    ck_assert_str_eq(ts, "import * as pulumi from \"@pulumi/pulumi\";\n"
                         "import * as random from \"@pulumi/random\";\n"
                         "\n"
                         "const random2 = new random.RandomPet(\"random\", {});\n"
                         "const pulumi2 = new random.RandomPet(\"pulumi\", {});\n"
                         "const _class = new random.RandomPet(\"class\", {});\n"
                         "const config2 = new random.RandomPet(\"config\", {});\n"
                         "const None = new random.RandomPet(\"None\", {});\n"
                         "const my_pet = new random.RandomPet(\"my-pet\", {});\n"
                         "const config = new pulumi.Config();\n"
                         "const token = config.requireSecret(\"token\");\n");
    char *py = emit_ok(emit_python, p);
    ck_assert_str_eq(py, "import pulumi\n"
                         "import pulumi_random as random\n"
                         "\n"
                         "random_1 = random.RandomPet(\"random\")\n"
                         "pulumi_1 = random.RandomPet(\"pulumi\")\n"
                         "class_ = random.RandomPet(\"class\")\n"
                         "config_1 = random.RandomPet(\"config\")\n"
                         "none = random.RandomPet(\"None\")\n"
                         "my_pet = random.RandomPet(\"my-pet\")\n"
                         "config = pulumi.Config()\n"
                         "token = config.require_secret(\"token\")\n");
    free(ts);
    free(py);
    pcl_program_free(p);
}
END_TEST

/* An unknown PCL function is an error naming it (hand-built program: generation never makes one). */
START_TEST(test_unknown_function_diagnostic) {
    pcl_program_t *p = pcl_program_new();
    pcl_node_t *n = pcl_program_add(p, PCL_NODE_RESOURCE);
    n->name = "r";
    n->token = "simple:index:Resource";
    n->attrs = arena_alloc(p->arena, sizeof *n->attrs);
    n->n_attrs = 1;
    n->attrs[0].name = "value";
    pcl_expr_t *e = arena_alloc(p->arena, sizeof *e);
    e->kind = PCL_CALL;
    e->call.name = "notAFunction";
    n->attrs[0].value = e;
    char *(*fns[])(const pcl_program_t *, diag_list_t *) = {emit_typescript, emit_python, emit_yaml};
    const char *langs[] = {"TypeScript", "Python", "YAML"};
    for (size_t i = 0; i < 3; i++) {
        diag_list_t d;
        diag_list_init(&d);
        char *s = fns[i](p, &d);
        free(s);
        ck_assert_int_eq(d.errors, 1);
        char want[256];
        snprintf(want, sizeof want, "0:0: the %s emitter does not know the PCL function 'notAFunction'", langs[i]);
        ck_assert_str_eq(d.head->message, want);
        diag_list_free(&d);
    }
    pcl_program_free(p);
}
END_TEST

/* Tricky strings survive YAML: libyaml reads back exactly what was meant (with Pulumi YAML's
 * `$` → `$$` escape), and Python/TypeScript literals compile. */
static const char *const TRICKY[] = {"",
                                     "true",
                                     "No",
                                     "null",
                                     "~",
                                     "123",
                                     "1.5",
                                     "0x1F",
                                     "2001-12-14",
                                     "12:30",
                                     "- item",
                                     "a: b",
                                     "a #b",
                                     "#x",
                                     "@at",
                                     "`tick",
                                     "'single'",
                                     "\"double\"",
                                     "trailing ",
                                     " leading",
                                     "line1\nline2",
                                     "line1\nline2\n",
                                     "ends\n\n",
                                     "tab\there",
                                     "cr\rhere",
                                     "ctl\x01x",
                                     "${notref}",
                                     "pid $$ cost $5$",
                                     "ünïcödé ✓",
                                     "back\\slash",
                                     "x:",
                                     "{braces}",
                                     "[list]",
                                     "%pct",
                                     "!bang",
                                     "*star",
                                     "&amp",
                                     "|pipe",
                                     ">gt",
                                     "?q",
                                     ",comma",
                                     "multi\n  indented\nlines"};
#define N_TRICKY (sizeof TRICKY / sizeof TRICKY[0])

static pcl_program_t *tricky_program(void) {
    pcl_program_t *p = pcl_program_new();
    pcl_node_t *n = pcl_program_add(p, PCL_NODE_RESOURCE);
    n->name = "r";
    n->token = "simple:index:Resource";
    n->attrs = arena_alloc(p->arena, sizeof *n->attrs);
    n->n_attrs = 1;
    n->attrs[0].name = "tags";
    pcl_expr_t *obj = arena_alloc(p->arena, sizeof *obj);
    obj->kind = PCL_OBJECT;
    obj->object.n = N_TRICKY;
    obj->object.items = arena_alloc(p->arena, N_TRICKY * sizeof *obj->object.items);
    for (size_t i = 0; i < N_TRICKY; i++) {
        pcl_expr_t *v = arena_alloc(p->arena, sizeof *v);
        v->kind = PCL_STRING;
        v->s = TRICKY[i];
        obj->object.items[i].key = TRICKY[i][0] ? TRICKY[i] : "empty";
        obj->object.items[i].key_quoted = true;
        obj->object.items[i].value = v;
    }
    n->attrs[0].value = obj;
    return p;
}

START_TEST(test_tricky_strings) {
    arena_t *a = arena_new();
    pcl_program_t *p = tricky_program();
    char *y = emit_ok(emit_yaml, p);
    yaml_parser_t parser;
    yaml_document_t doc;
    ck_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_string(&parser, (const unsigned char *)y, strlen(y));
    ck_assert_msg(yaml_parser_load(&parser, &doc), "%s", y);
    /* resources → r → properties → tags */
    yaml_node_t *node = yaml_document_get_root_node(&doc);
    const char *path[] = {"resources", "r", "properties", "tags"};
    for (size_t k = 0; k < 4; k++) {
        yaml_node_t *next = NULL;
        for (yaml_node_pair_t *pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++)
            if (strcmp((const char *)yaml_document_get_node(&doc, pr->key)->data.scalar.value, path[k]) == 0)
                next = yaml_document_get_node(&doc, pr->value);
        ck_assert_msg(next != NULL, "missing %s in\n%s", path[k], y);
        node = next;
    }
    size_t i = 0;
    for (yaml_node_pair_t *pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++, i++) {
        yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
        yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
        ck_assert_int_eq(v->type, YAML_SCALAR_NODE);
        /* pulumi-yaml reads `$$` as `$` in keys and values alike: each `$` is written `$$` */
        char want[64];
        size_t o = 0;
        for (const char *c = TRICKY[i]; *c && o + 2 < sizeof want; c++) {
            if (*c == '$') want[o++] = '$';
            want[o++] = *c;
        }
        want[o] = 0;
        ck_assert_str_eq((const char *)k->data.scalar.value, TRICKY[i][0] ? want : "empty");
        ck_assert_msg(strcmp((const char *)v->data.scalar.value, want) == 0,
                      "value %zu '%s' read back as '%s' from\n%s", i, want, v->data.scalar.value, y);
        /* a plain scalar must not be read as another type: every non-plain one carries quotes or a block */
        if (v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
            ck_assert_msg(strcmp(want, "true") && strcmp(want, "123") && strcmp(want, "null") && *want, "%s", want);
    }
    ck_assert_uint_eq(i, N_TRICKY);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);

    /* Python and TypeScript: write the strings and have the real toolchains read them back */
    char *dir = tu_mkdtemp();
    char *py = emit_ok(emit_python, p);
    char *pyf = arena_sprintf(a, "%s/tricky.py", dir);
    /* replace the import of a package that does not exist with a stub that prints the tags */
    char *body = strstr(py, "r = simple.Resource(");
    ck_assert_ptr_nonnull(body);
    char *prog = arena_sprintf(a,
                               "import json\nclass simple:\n    @staticmethod\n    def Resource(name, tags):\n"
                               "        print(json.dumps([tags[k] for k in tags]))\n%s",
                               body);
    ck_assert(tu_write(pyf, prog));
    int status;
    char *out = tu_run(arena_sprintf(a, "python3 '%s'", pyf), &status);
    ck_assert_msg(status == 0, "python3 failed on\n%s", prog);
    cJSON *arr = cJSON_Parse(out);
    ck_assert_ptr_nonnull(arr);
    ck_assert_int_eq(cJSON_GetArraySize(arr), (int)N_TRICKY);
    for (size_t j = 0; j < N_TRICKY; j++)
        ck_assert_msg(strcmp(cJSON_GetArrayItem(arr, (int)j)->valuestring, TRICKY[j]) == 0, "python read '%s' as '%s'",
                      TRICKY[j], cJSON_GetArrayItem(arr, (int)j)->valuestring);
    cJSON_Delete(arr);
    free(out);
    free(py);

    char *ts = emit_ok(emit_typescript, p);
    body = strstr(ts, "const r = new simple.Resource(");
    ck_assert_ptr_nonnull(body);
    body += strlen("const r = new simple.Resource(\"r\", ");
    char *js = arena_sprintf(a, "const args = %s", body);
    /* `{...});` → `{...};` then print the values in order */
    char *end = strrchr(js, ')');
    ck_assert_ptr_nonnull(end);
    *end = 0;
    js = arena_sprintf(a, "%s;\nconsole.log(JSON.stringify(args.tags));\n", js);
    char *jsf = arena_sprintf(a, "%s/tricky.js", dir);
    ck_assert(tu_write(jsf, js));
    out = tu_run(arena_sprintf(a, "node '%s'", jsf), &status);
    ck_assert_msg(status == 0, "node failed on\n%s", js);
    /* an object (JavaScript orders integer-like keys first, so compare by key) */
    arr = cJSON_Parse(out);
    ck_assert_ptr_nonnull(arr);
    ck_assert_int_eq(cJSON_GetArraySize(arr), (int)N_TRICKY);
    for (size_t j = 0; j < N_TRICKY; j++) {
        cJSON *v = cJSON_GetObjectItemCaseSensitive(arr, TRICKY[j][0] ? TRICKY[j] : "empty");
        ck_assert_msg(cJSON_IsString(v) && strcmp(v->valuestring, TRICKY[j]) == 0, "node lost '%s'", TRICKY[j]);
    }
    cJSON_Delete(arr);
    free(out);
    free(ts);
    free(y);
    tu_rmtree(dir);
    free(dir);
    pcl_program_free(p);
    arena_free(a);
}
END_TEST

/* --- real stacks: compilers and parsers accept the output ---------------------------------------- */

static char *peers_dir(arena_t *a) {
    return arena_sprintf(a, "%s/tests/peers", SOURCE_DIR);
}

/* Checks `resources: <name>: {type: scalar, properties?: mapping, options?: mapping}` and
 * returns the number of resources. */
static size_t yaml_check_structure(const char *text) {
    yaml_parser_t parser;
    yaml_document_t doc;
    ck_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    ck_assert_msg(yaml_parser_load(&parser, &doc), "YAML does not parse: %s at line %zu\n%s", parser.problem,
                  parser.problem_mark.line + 1, text);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    ck_assert_ptr_nonnull(root);
    ck_assert_int_eq(root->type, YAML_MAPPING_NODE);
    size_t count = 0;
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
        yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
        const char *key = (const char *)k->data.scalar.value;
        ck_assert_msg(strcmp(key, "resources") == 0 || strcmp(key, "configuration") == 0, "top-level key %s", key);
        ck_assert_int_eq(v->type, YAML_MAPPING_NODE);
        if (strcmp(key, "resources") != 0) continue;
        for (yaml_node_pair_t *r = v->data.mapping.pairs.start; r < v->data.mapping.pairs.top; r++) {
            yaml_node_t *body = yaml_document_get_node(&doc, r->value);
            ck_assert_int_eq(body->type, YAML_MAPPING_NODE);
            bool has_type = false;
            for (yaml_node_pair_t *f = body->data.mapping.pairs.start; f < body->data.mapping.pairs.top; f++) {
                yaml_node_t *fk = yaml_document_get_node(&doc, f->key);
                yaml_node_t *fv = yaml_document_get_node(&doc, f->value);
                const char *field = (const char *)fk->data.scalar.value;
                if (strcmp(field, "type") == 0) {
                    has_type = fv->type == YAML_SCALAR_NODE;
                } else if (strcmp(field, "properties") == 0 || strcmp(field, "options") == 0) {
                    ck_assert_int_eq(fv->type, YAML_MAPPING_NODE);
                } else {
                    ck_assert_msg(strcmp(field, "name") == 0, "unexpected resource field %s", field);
                }
            }
            ck_assert(has_type);
            count++;
        }
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return count;
}

static size_t count_resource_nodes(const pcl_program_t *p) {
    size_t n = 0;
    for (size_t i = 0; i < p->n_nodes; i++)
        n += p->nodes[i].kind == PCL_NODE_RESOURCE;
    return n;
}

START_TEST(test_real_stacks_compile) {
    arena_t *a = arena_new();
    char *peers = peers_dir(a);
    struct stat st;
    ck_assert_msg(stat(arena_sprintf(a, "%s/node_modules/typescript/bin/tsc", peers), &st) == 0,
                  "tests/peers/node_modules is missing: run scripts/setup.sh first");
    schema_set_t *set = load_schemas(a);
    char *dir = tu_mkdtemp();
    buf_t files;
    buf_init(&files);
    buf_t pyfiles;
    buf_init(&pyfiles);
    size_t total = 0;
    for (size_t i = 0; i < N_STACKS; i++) {
        pcl_gen_result_t res;
        pcl_program_t *p = program_from_stack(a, set, STACKS[i], &res);
        total += count_resource_nodes(p);
        char *ts = emit_ok(emit_typescript, p);
        char *py = emit_ok(emit_python, p);
        char *y = emit_ok(emit_yaml, p);
        ck_assert_uint_eq(yaml_check_structure(y), count_resource_nodes(p));
        char *tsf = arena_sprintf(a, "%s/stack%zu.ts", dir, i);
        char *pyf = arena_sprintf(a, "%s/stack%zu.py", dir, i);
        ck_assert(tu_write(tsf, ts));
        ck_assert(tu_write(pyf, py));
        buf_printf(&files, "%s\"%s\"", files.len ? "," : "", tsf);
        buf_printf(&pyfiles, " '%s'", pyf);
        free(ts);
        free(py);
        free(y);
        pcl_program_free(p);
    }
    ck_assert_uint_ge(total, N_STACKS);
    buf_putc(&files, 0);
    buf_putc(&pyfiles, 0);
    char *tsconfig = arena_sprintf(
        a,
        "{\"compilerOptions\":{\"module\":\"commonjs\",\"target\":\"es2020\",\"strict\":true,\"noEmit\":true,"
        "\"skipLibCheck\":true,\"moduleResolution\":\"node\",\"typeRoots\":[\"%s/node_modules/@types\"],"
        "\"types\":[\"node\"],\"paths\":{\"@pulumi/*\":[\"%s/node_modules/@pulumi/*\"]}},\"files\":[%s]}",
        peers, peers, files.data);
    ck_assert(tu_write(arena_sprintf(a, "%s/tsconfig.json", dir), tsconfig));
    int status;
    char *out = tu_run(
        arena_sprintf(a, "cd '%s' && node '%s/node_modules/typescript/bin/tsc' -p tsconfig.json 2>&1", dir, peers),
        &status);
    ck_assert_msg(status == 0, "tsc rejected the generated TypeScript:\n%s", out);
    free(out);
    out = tu_run(arena_sprintf(a, "python3 -m py_compile %s 2>&1", pyfiles.data), &status);
    ck_assert_msg(status == 0, "py_compile rejected the generated Python:\n%s", out);
    free(out);
    buf_free(&files);
    buf_free(&pyfiles);
    tu_rmtree(dir);
    free(dir);
    schema_set_free(set);
    arena_free(a);
}
END_TEST

/* --- golden files -------------------------------------------------------------------------------- */

static void golden_compare(arena_t *a, const char *lang, const char *name, const char *ext, const char *got) {
    char *path = arena_sprintf(a, "%s/tests/fixtures/emit/%s/%s.%s", SOURCE_DIR, lang, name, ext);
    if (getenv("CIMPORT_UPDATE_GOLDEN")) {
        ck_assert(tu_write(path, got));
        return;
    }
    size_t len;
    char *want = tu_read(path, &len);
    ck_assert_msg(want != NULL, "golden file %s is missing (CIMPORT_UPDATE_GOLDEN=1 writes it)", path);
    ck_assert_msg(strcmp(want, got) == 0, "%s differs from the emitter's output:\n%s", path, got);
    free(want);
}

static void golden_program(arena_t *a, const char *name, const pcl_program_t *p) {
    char *ts = emit_ok(emit_typescript, p);
    char *py = emit_ok(emit_python, p);
    char *y = emit_ok(emit_yaml, p);
    golden_compare(a, "typescript", name, "ts", ts);
    golden_compare(a, "python", name, "py", py);
    golden_compare(a, "yaml", name, "yaml", y);
    free(ts);
    free(py);
    free(y);
}

START_TEST(test_golden_files) {
    static const struct {
        const char *name;
        size_t stack;
    } stacks[] = {{"random_password", 0}, {"tls_cert_request", 8},      {"tls_self_signed", 11},
                  {"command_stdin", 12},  {"digitalocean_droplet", 15}, {"azuread_app_password", 18}};
    arena_t *a = arena_new();
    schema_set_t *set = load_schemas(a);
    for (size_t i = 0; i < sizeof stacks / sizeof stacks[0]; i++) {
        pcl_gen_result_t res;
        pcl_program_t *p = program_from_stack(a, set, STACKS[stacks[i].stack], &res);
        golden_program(a, stacks[i].name, p);
        pcl_program_free(p);
    }
    pcl_gen_result_t res;
    pcl_program_t *p = program_from_importer_cases(a, set, &res);
    golden_program(a, "importer_cases", p);
    pcl_program_free(p);
    schema_set_free(set);
    arena_free(a);
}
END_TEST

/* The conformance schemas `files` (under tests/fixtures/conformance/schemas) and pcl bound to them. */
static tu_pcl_t conformance_program(const char *const *files, size_t n, const char *pcl) {
    diag_list_t d;
    diag_list_init(&d);
    tu_pcl_t f = {schema_set_new(), NULL};
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/fixtures/conformance/schemas/%s", SOURCE_DIR, files[i]);
        size_t len = 0;
        char *text = tu_read(path, &len);
        ck_assert_ptr_nonnull(text);
        schema_package_t *pkg = schema_load_buffer(text, len, files[i], &d);
        ck_assert_ptr_nonnull(pkg);
        schema_set_add(f.set, pkg);
        free(text);
    }
    f.p = pcl_parse(pcl, strlen(pcl), "main.pp", &d);
    ck_assert_ptr_nonnull(f.p);
    ck_assert(pcl_bind(f.p, f.set, &d));
    diag_list_free(&d);
    return f;
}

/* Enum members where Pulumi's generators write them (l2-union, l2-external-enum): a literal at a
 * `oneOf: [string, Enum]` position that the enum lists, and a literal typed by another package's
 * enum (`$ref: /enum/v30.0.0/schema.json#/types/...`) when the program imports that package; any
 * other string stays a string. Both used to be written as the plain string. */
START_TEST(test_enum_members_union_and_external) {
    static const char *const UNION[] = {"union-18.0.0.json"};
    tu_pcl_t f =
        conformance_program(UNION, 1,
                            "resource \"a\" \"union:index:Example\" {\n    typedEnumProperty = \"Block\"\n"
                            "    stringEnumUnionListProperty = [\"Listen\", \"NotAnEnumValue\"]\n}\n"
                            "resource \"b\" \"union:index:Example\" {\n    typedEnumProperty = \"Other\"\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "typedEnumProperty: union.BlobType.Block,");
    tu_has(ts, "union.AccessRights.Listen,\n        \"NotAnEnumValue\",\n");
    tu_has(ts, "{typedEnumProperty: \"Other\"}");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "typed_enum_property=union.BlobType.BLOCK");
    tu_has(py, "union.AccessRights.LISTEN,\n        \"NotAnEnumValue\",\n");
    tu_has(py, "typed_enum_property=\"Other\"");
    free(ts);
    free(py);
    tu_pcl_unload(&f);

    static const char *const EXT[] = {"enum-30.0.0.json", "extenumref-32.0.0.json"};
    f = conformance_program(EXT, 2,
                            "resource \"r\" \"enum:index:Res\" {\n    intEnum = 1\n    stringEnum = \"one\"\n}\n"
                            "resource \"s\" \"extenumref:index:Sink\" {\n    stringEnum = \"two\"\n}\n");
    ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "new extenumref.Sink(\"s\", {stringEnum: _enum.StringEnum.StringTwo});");
    py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "extenumref.Sink(\"s\", string_enum=enum.StringEnum.STRING_TWO)");
    free(ts);
    free(py);
    tu_pcl_unload(&f);
    /* without the enum's package imported, the value stays a string */
    f = conformance_program(EXT, 2, "resource \"s\" \"extenumref:index:Sink\" {\n    stringEnum = \"two\"\n}\n");
    ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "{stringEnum: \"two\"}");
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* A list element below required output properties is read lifted, as Pulumi writes it
 * (`res.data.boolArray[0]`: Output lifting indexes a list that cannot be undefined); below an optional
 * property (`innerDataList?`) in an apply with optional chaining. The first used to be an apply too. */
START_TEST(test_ts_list_index_lifted_below_required) {
    static const char *const REF[] = {"ref-ref-12.0.0.json"};
    tu_pcl_t f = conformance_program(REF, 1,
                                     "resource \"res\" \"ref-ref:index:Resource\" {\n}\n"
                                     "output \"array\" {\n    value = res.data.boolArray[0]\n}\n"
                                     "output \"listIndex\" {\n    value = res.data.innerDataList[0].string\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const array = res.data.boolArray[0];\n");
    tu_has(ts, "export const listIndex = res.data.apply(data => data.innerDataList?.[0]?.string);\n");
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* TypeScript config of an object type is read with Pulumi's type, each field optional
 * (`requireObject<{other?: number, prop?: Array<boolean>}>`, fields sorted), a read below a field with
 * optional chaining (`anObject.prop?.[0]`) and one field of its secret() lifted; a null outside any
 * input is the JSON null (`[null]`), at an input `undefined`. All used to be `any`, an apply and
 * `[undefined]`. */
START_TEST(test_ts_object_config_and_null) {
    tu_pcl_t f = conformance_program(NULL, 0,
                                     "config \"anObject\" \"object({prop=list(bool), other=int})\" {}\n"
                                     "c = secret(anObject)\n"
                                     "output \"first\" {\n    value = anObject.prop[0]\n}\n"
                                     "output \"other\" {\n    value = c.other\n}\n"
                                     "output \"array\" {\n    value = [null]\n}\n"
                                     "l = [null]\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "const anObject = config.requireObject<{other?: number, prop?: Array<boolean>}>(\"anObject\");\n");
    tu_has(ts, "export const first = anObject.prop?.[0];\n");
    tu_has(ts, "export const other = c.other;\n");
    tu_has(ts, "export const array = [null];\n");
    tu_has(ts, "const l = [undefined];\n"); /* a local may reach an input, which takes no null */
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* Python: a provider's output at an enum input is converted to the enum in an apply, as Pulumi writes
 * it (the SDK gives a provider's outputs as strings); it used to be passed as it is. */
START_TEST(test_py_provider_output_at_enum) {
    static const char *const CFG[] = {"config-enum-41.0.0.json"};
    tu_pcl_t f = conformance_program(CFG, 1,
                                     "resource \"prov\" \"pulumi:providers:config-enum\" {\n    aString = \"hello\"\n"
                                     "    aEnum = \"two\"\n}\n"
                                     "resource \"res\" \"config-enum:index:Resource\" {\n    theString = prov.aString\n"
                                     "    theEnum = prov.aEnum\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "    the_string=prov.a_string,\n    the_enum=prov.a_enum.apply(lambda x: config_enum.MyEnum(x)))");
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* Strings escaped as Pulumi's TypeScript and Python generators escape them (l1-output-string): a
 * tab as \x09, also inside a template literal or """, and a code point that is not printable (the
 * tag character U+E0021, a zero-width space) as \u{e0021} / \U000e0021; printable non-ASCII (an
 * emoji) stays as it is. They used to be \t, a raw tab and the invisible characters themselves. */
START_TEST(test_ts_py_string_escapes) {
    tu_pcl_t f =
        conformance_program(NULL, 0,
                            "output \"a\" {\n    value = \"tab\\t tag\\U000e0021 zw\\u200b ok\\U0001F44B\"\n}\n"
                            "output \"b\" {\n    value = \"one\\ntwo\\tthree\\U000e0021\"\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const a = \"tab\\x09 tag\\u{e0021} zw\\u{200b} ok\xF0\x9F\x91\x8B\";\n");
    tu_has(ts, "export const b = `one\ntwo\\x09three\\u{e0021}`;\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.export(\"a\", \"tab\\x09 tag\\U000e0021 zw\\u200b ok\xF0\x9F\x91\x8B\")\n");
    tu_has(py, "pulumi.export(\"b\", \"\"\"one\ntwo\\x09three\\U000e0021\"\"\")\n");
    free(ts);
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

static Suite *emit_suite(void) {
    Suite *s = suite_create("emit_ts_py_yaml");
    TCase *names = tcase_create("names");
    tcase_add_test(names, test_names_py_name);
    tcase_add_test(names, test_names_identifiers);
    tcase_add_test(names, test_names_unique_and_map);
    tcase_add_test(names, test_names_numbers_and_quotes);
    suite_add_tcase(s, names);
    TCase *small = tcase_create("programs");
    tcase_add_test(small, test_explicit_provider_all_languages);
    tcase_add_test(small, test_typed_values);
    tcase_add_test(small, test_secret_config);
    tcase_add_test(small, test_components);
    tcase_add_test(small, test_identifier_collisions);
    tcase_add_test(small, test_unknown_function_diagnostic);
    tcase_add_test(small, test_tricky_strings);
    tcase_add_test(small, test_enum_members_union_and_external);
    tcase_add_test(small, test_ts_list_index_lifted_below_required);
    tcase_add_test(small, test_ts_object_config_and_null);
    tcase_add_test(small, test_py_provider_output_at_enum);
    tcase_add_test(small, test_ts_py_string_escapes);
    suite_add_tcase(s, small);
    TCase *real = tcase_create("real");
    tcase_set_timeout(real, 300);
    tcase_add_test(real, test_golden_files);
    tcase_add_test(real, test_real_stacks_compile);
    suite_add_tcase(s, real);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(emit_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

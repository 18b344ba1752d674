/* test_pcl.c — PCL generation, printing, parsing and binding.
 *
 * The acceptance test is Pulumi's own importer test, compared on values: every resource state in
 * ../shared/data/pulumi-importer/cases.json is generated into PCL, printed, parsed, bound and read
 * back, and must give the same inputs and options — with secrets as secret(..) literals and with
 * secrets moved into stack config. The other tests pin the exact text shapes (references, names,
 * escapes, options, cycles, secrets) and the parser's error messages. */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcl/pcl.h"
#include "testutil.h"

/* --- helpers -------------------------------------------------------------------------------------- */

static schema_set_t *load_schemas(void) {
    arena_t *a = arena_new();
    schema_set_t *s = schema_set_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(schema_set_add_path(s, tu_data(a, "pulumi-importer/schemas/importer-1.0.0.json"), &d));
    ck_assert(schema_set_add_path(s, tu_data(a, "pulumi-importer/schemas/random-4.11.2.json"), &d));
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    arena_free(a);
    return s;
}

static pv_t *state_value(arena_t *a, const char *json) {
    cJSON *j = cJSON_Parse(json);
    ck_assert_ptr_nonnull(j);
    pv_t *v = pv_from_state_json(a, j, "test", NULL);
    cJSON_Delete(j);
    ck_assert_ptr_nonnull(v);
    return v;
}

/* The cases' secrets carry the JSON of the plaintext as "ciphertext": decode them in place. */
static void decode_secrets(arena_t *a, pv_t *v) {
    if (!v) return;
    switch (v->kind) {
    case PV_SECRET:
        if (!v->u.secret.inner && v->u.secret.ciphertext) {
            v->u.secret.inner = state_value(a, v->u.secret.ciphertext);
            v->u.secret.ciphertext = NULL;
        }
        decode_secrets(a, v->u.secret.inner);
        break;
    case PV_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++)
            decode_secrets(a, v->u.arr.items[i]);
        break;
    case PV_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++)
            decode_secrets(a, v->u.obj.members[i].value);
        break;
    default: break;
    }
}

/* The name after the last "::" of a URN. */
static const char *urn_name(arena_t *a, const char *urn) {
    const char *p = urn, *last = urn;
    while ((p = strstr(p, "::")) != NULL)
        last = p += 2;
    return arena_strdup(a, last);
}

typedef struct pcl_case {
    pcl_gen_resource_t r;
    const pv_t *expected; /* inputs with secrets decoded */
} pcl_case_t;

/* The cases with Pulumi's test NameTable: parent URN → `parent`, the explicit provider →
 * `provider`, "strange logical name" → `logical`. */
static pcl_case_t *load_cases(arena_t *a, size_t *n) {
    char *text = tu_read(tu_data(a, "pulumi-importer/cases.json"), NULL);
    ck_assert_ptr_nonnull(text);
    cJSON *root = cJSON_Parse(text);
    free(text);
    ck_assert_ptr_nonnull(root);
    cJSON *list = cJSON_GetObjectItem(root, "resources");
    *n = (size_t)cJSON_GetArraySize(list);
    pcl_case_t *cs = arena_alloc(a, *n * sizeof *cs);
    size_t i = 0;
    cJSON *r;
    cJSON_ArrayForEach(r, list) {
        pcl_case_t *c = &cs[i++];
        const char *urn = cJSON_GetObjectItem(r, "urn")->valuestring;
        c->r.type = arena_strdup(a, cJSON_GetObjectItem(r, "type")->valuestring);
        c->r.urn = arena_strdup(a, urn);
        c->r.logical_name = urn_name(a, urn);
        c->r.name = strcmp(c->r.logical_name, "strange logical name") == 0 ? "logical" : c->r.logical_name;
        cJSON *in = cJSON_GetObjectItem(r, "inputs");
        pv_t *inputs = in ? pv_from_state_json(a, in, urn, NULL) : pv_object(a);
        ck_assert_ptr_nonnull(inputs);
        decode_secrets(a, inputs);
        c->r.inputs = inputs;
        c->expected = inputs;
        if (cJSON_GetObjectItem(r, "parent")) c->r.parent = "parent";
        cJSON *prov = cJSON_GetObjectItem(r, "provider");
        if (prov) {
            /* a provider reference is "<urn>::<id>"; default providers are named default* */
            char *purn = arena_strdup(a, prov->valuestring);
            *strrchr(purn, ':') = 0;
            purn[strlen(purn) - 1] = 0;
            if (strncmp(urn_name(a, purn), "default", 7) != 0) c->r.provider = "provider";
        }
        c->r.protect = cJSON_IsTrue(cJSON_GetObjectItem(r, "protect"));
        cJSON *imp = cJSON_GetObjectItem(r, "importId");
        if (imp) c->r.import_id = arena_strdup(a, imp->valuestring);
        cJSON *ign = cJSON_GetObjectItem(r, "ignoreChanges");
        if (ign) {
            c->r.n_ignore_changes = (size_t)cJSON_GetArraySize(ign);
            c->r.ignore_changes = arena_alloc(a, c->r.n_ignore_changes * sizeof(char *));
            for (size_t k = 0; k < c->r.n_ignore_changes; k++)
                c->r.ignore_changes[k] = arena_strdup(a, cJSON_GetArrayItem(ign, (int)k)->valuestring);
        }
    }
    cJSON_Delete(root);
    return cs;
}

static pcl_program_t *reparse(const char *text, schema_set_t *schemas) {
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(text, strlen(text), "generated.pp", &d);
    if (!p) ck_abort_msg("generated PCL does not parse: %s\n%s", diag_format(&d, d.head), text);
    if (schemas && !pcl_bind(p, schemas, &d)) ck_abort_msg("generated PCL does not bind: %s", diag_format(&d, d.head));
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    return p;
}

/* Reads a bound expression back as the value the importer started from: config reads are
 * replaced by the secret handed back in g->secrets, and a file asset/archive written for a string
 * in an asset/archive-typed input is that string again (Pulumi's own round trip does the same). */
static pv_t *value_of(arena_t *a, const pcl_program_t *p, const pcl_gen_result_t *g, const pcl_expr_t *e) {
    if (e->kind == PCL_TRAVERSAL && e->trav.n == 0) {
        int idx = pcl_program_find(p, e->trav.root);
        if (idx >= 0 && p->nodes[idx].kind == PCL_NODE_CONFIG) {
            ck_assert(p->nodes[idx].config_secret);
            for (size_t i = 0; i < g->n_secrets; i++)
                if (strcmp(g->secrets[i].config_key, p->nodes[idx].config_key) == 0)
                    return pv_secret(a, pv_clone(a, g->secrets[i].value));
            ck_abort_msg("config '%s' has no secret value", e->trav.root);
        }
    }
    if (e->kind == PCL_CALL && e->type && e->call.n == 1 &&
        ((strcmp(e->call.name, "fileArchive") == 0 && e->type->kind == SCHEMA_ARCHIVE) ||
         (strcmp(e->call.name, "fileAsset") == 0 && e->type->kind == SCHEMA_ASSET)))
        return pv_string(a, e->call.args[0]->s);
    if (e->kind == PCL_CALL && strcmp(e->call.name, "secret") == 0)
        return pv_secret(a, value_of(a, p, g, e->call.args[0]));
    if (e->kind == PCL_TUPLE) {
        pv_t *arr = pv_array(a);
        for (size_t i = 0; i < e->tuple.n; i++)
            pv_array_push(a, arr, value_of(a, p, g, e->tuple.items[i]));
        return arr;
    }
    if (e->kind == PCL_OBJECT) {
        pv_t *o = pv_object(a);
        for (size_t i = 0; i < e->object.n; i++)
            pv_object_set(a, o, e->object.items[i].key, value_of(a, p, g, e->object.items[i].value));
        return o;
    }
    pv_t *v = pcl_expr_to_value(a, e);
    ck_assert_ptr_nonnull(v);
    return v;
}

static const pcl_attr_t *find_option(const pcl_node_t *n, const char *name) {
    for (size_t i = 0; i < n->n_options; i++)
        if (strcmp(n->options[i].name, name) == 0) return &n->options[i];
    return NULL;
}

static void assert_option_var(const pcl_node_t *n, const char *name, const char *want) {
    const pcl_attr_t *o = find_option(n, name);
    if (!want) {
        ck_assert_ptr_null(o);
        return;
    }
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(o->value->kind, PCL_TRAVERSAL);
    ck_assert_str_eq(o->value->trav.root, want);
}

/* Checks that the parsed resource node reproduces the case. */
static void assert_round_trip(arena_t *a, const pcl_program_t *p, const pcl_gen_result_t *g, const pcl_node_t *n,
                              const pcl_case_t *c) {
    ck_assert_int_eq(n->kind, PCL_NODE_RESOURCE);
    ck_assert_str_eq(n->token, c->r.type);
    ck_assert_str_eq(n->logical_name ? n->logical_name : n->name, c->r.logical_name);
    ck_assert_ptr_nonnull(n->schema);
    pv_t *got = pv_object(a);
    for (size_t k = 0; k < n->n_attrs; k++) {
        ck_assert_ptr_nonnull(n->attrs[k].prop);
        pv_object_set(a, got, n->attrs[k].name, value_of(a, p, g, n->attrs[k].value));
    }
    if (!pv_equal(got, c->expected)) {
        cJSON *x = pv_to_display_json(got, true), *y = pv_to_display_json(c->expected, true);
        char *xs = cJSON_PrintUnformatted(x), *ys = cJSON_PrintUnformatted(y);
        ck_abort_msg("%s: inputs differ\n got %s\nwant %s", c->r.urn, xs, ys);
    }
    assert_option_var(n, "parent", c->r.parent);
    assert_option_var(n, "provider", c->r.provider);
    const pcl_attr_t *pr = find_option(n, "protect");
    ck_assert_int_eq(pr != NULL && pr->value->kind == PCL_BOOL && pr->value->b, c->r.protect);
    const pcl_attr_t *imp = find_option(n, "import");
    if (c->r.import_id)
        ck_assert_str_eq(imp->value->s, c->r.import_id);
    else
        ck_assert_ptr_null(imp);
    const pcl_attr_t *ign = find_option(n, "ignoreChanges");
    if (!c->r.n_ignore_changes) {
        ck_assert_ptr_null(ign);
    } else {
        ck_assert_int_eq(ign->value->tuple.n, c->r.n_ignore_changes);
        for (size_t k = 0; k < c->r.n_ignore_changes; k++) {
            char *t = pcl_print_expr(ign->value->tuple.items[k]);
            ck_assert_str_eq(t, c->r.ignore_changes[k]);
            free(t);
        }
    }
}

/* Generates `n` cases as one program and checks every resource reads back. */
static void round_trip(const pcl_case_t *cs, size_t n, pcl_secrets_mode_t mode, schema_set_t *schemas) {
    arena_t *a = arena_new();
    pcl_gen_resource_t *rs = arena_alloc(a, n * sizeof *rs);
    for (size_t i = 0; i < n; i++)
        rs[i] = cs[i].r;
    pcl_gen_options_t o;
    pcl_gen_options_default(&o);
    o.secrets = mode;
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(pcl_generate(rs, n, schemas, &o, &g, &d));
    ck_assert_int_eq(d.errors, 0);
    char *text = pcl_print(g.program);
    pcl_program_t *p = reparse(text, schemas);
    size_t k = 0;
    for (size_t i = 0; i < p->n_nodes; i++) {
        if (p->nodes[i].kind != PCL_NODE_RESOURCE) continue;
        ck_assert_uint_lt(k, n);
        assert_round_trip(a, p, &g, &p->nodes[i], &cs[k++]);
    }
    ck_assert_uint_eq(k, n);
    /* printing the parsed program gives the same text: the printer and parser agree */
    char *again = pcl_print(p);
    ck_assert_str_eq(again, text);
    free(again);
    free(text);
    pcl_program_free(p);
    pcl_program_free(g.program);
    diag_list_free(&d);
    arena_free(a);
}

/* The inputs and outputs of a generation that holds none (pcl_gen_options_t.load_inputs,
 * load_outputs): the caller's. */
static const pv_t *load_from(void *user, size_t i) {
    const pcl_gen_resource_t *rs = user;
    return rs[i].inputs;
}

static const pv_t *load_outputs_from(void *user, size_t i) {
    const pcl_gen_resource_t *rs = user;
    return rs[i].outputs;
}

/* The same program printed as it is generated (pcl_gen_options_t.print_to), `batch` resources a batch:
 * the same text, the same messages in the same order, the same secrets; no node kept. With `load`, the
 * resources' inputs and outputs are not held but given when asked (load_inputs, load_outputs). */
static void assert_printed_alike(const pcl_gen_resource_t *rs, size_t n, pcl_secrets_mode_t mode, schema_set_t *s,
                                 const pcl_gen_result_t *held, const diag_list_t *held_diags, const char *text,
                                 size_t batch, bool load) {
    spool_t *sp = spool_new("/tmp/cimport-test-print");
    ck_assert_ptr_nonnull(sp);
    pcl_gen_options_t o;
    pcl_gen_options_default(&o);
    o.secrets = mode;
    o.print_to = sp;
    o.print_batch = batch;
    pcl_gen_resource_t *bare = NULL;
    if (load) {
        bare = malloc((n ? n : 1) * sizeof *bare);
        ck_assert_ptr_nonnull(bare);
        for (size_t i = 0; i < n; i++) {
            bare[i] = rs[i];
            bare[i].inputs = NULL;
            bare[i].outputs = NULL;
        }
        o.load_inputs = load_from;
        o.load_outputs = load_outputs_from;
        o.release_user = (void *)rs;
    }
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(pcl_generate(load ? bare : rs, n, s, &o, &g, &d));
    free(bare);
    ck_assert_uint_eq(g.program->n_nodes, 0);
    FILE *f = tmpfile();
    ck_assert(f && spool_copy_to(sp, fileno(f)));
    size_t len = spool_size(sp);
    char *got = calloc(len + 1, 1);
    rewind(f);
    ck_assert_uint_eq(fread(got, 1, len, f), len);
    fclose(f);
    ck_assert_msg(strcmp(got, text) == 0, "printed in batches of %zu:\n%s\n--- held:\n%s", batch, got, text);
    const diag_t *x = held_diags->head, *y = d.head;
    for (; x && y; x = x->next, y = y->next)
        ck_assert_str_eq(x->message, y->message);
    ck_assert_msg(!x && !y, "batches of %zu: another number of messages", batch);
    ck_assert_uint_eq(g.n_secrets, held->n_secrets);
    for (size_t i = 0; i < g.n_secrets; i++)
        ck_assert_str_eq(g.secrets[i].config_key, held->secrets[i].config_key);
    free(got);
    pcl_program_free(g.program);
    diag_list_free(&d);
    spool_free(sp);
}

/* Generates, prints and returns the text (malloc'd); the result stays in *g for inspection. The same
 * program printed as it is generated, a resource a batch and three, is checked to give the same. */
static char *gen_text(const pcl_gen_resource_t *rs, size_t n, pcl_secrets_mode_t mode, schema_set_t *s,
                      pcl_gen_result_t *g, diag_list_t *d) {
    pcl_gen_options_t o;
    pcl_gen_options_default(&o);
    o.secrets = mode;
    size_t before = 0;
    for (const diag_t *x = d->head; x; x = x->next)
        before++;
    ck_assert(pcl_generate(rs, n, s, &o, g, d));
    char *text = pcl_print(g->program);
    if (before == 0) { /* the messages are compared from the first */
        assert_printed_alike(rs, n, mode, s, g, d, text, 1, false);
        assert_printed_alike(rs, n, mode, s, g, d, text, 3, true);
    }
    return text;
}

/* --- acceptance: Pulumi's importer cases ----------------------------------------------------------- */

START_TEST(test_cases_round_trip_each_literal) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    size_t n;
    pcl_case_t *cs = load_cases(a, &n);
    ck_assert_uint_eq(n, 91);
    for (size_t i = 0; i < n; i++)
        round_trip(&cs[i], 1, PCL_SECRETS_LITERAL, s);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_cases_round_trip_each_config) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    size_t n;
    pcl_case_t *cs = load_cases(a, &n);
    for (size_t i = 0; i < n; i++)
        round_trip(&cs[i], 1, PCL_SECRETS_CONFIG, s);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_cases_round_trip_one_program) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    size_t n;
    pcl_case_t *cs = load_cases(a, &n);
    round_trip(cs, n, PCL_SECRETS_CONFIG, s);
    round_trip(cs, n, PCL_SECRETS_LITERAL, s);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_cases_secrets_and_names) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    size_t n;
    pcl_case_t *cs = load_cases(a, &n);
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text;
    /* the task definition with secret inputs: config reads, and the values handed back */
    size_t td = n;
    for (size_t i = 0; i < n && td == n; i++)
        if (strcmp(cs[i].r.type, "importer:ecs/taskDefinition:TaskDefinition") == 0 &&
            pv_contains_secret(cs[i].r.inputs))
            td = i;
    ck_assert_uint_lt(td, n);
    text = gen_text(&cs[td].r, 1, PCL_SECRETS_CONFIG, s, &g, &d);
    ck_assert_ptr_nonnull(strstr(text, "config TaskDefinitionCpu \"string\" {\n    __secret = true\n}\n"));
    ck_assert_ptr_nonnull(strstr(text, "    cpu = TaskDefinitionCpu\n"));
    ck_assert_ptr_null(strstr(text, "secret("));
    ck_assert_uint_ge(g.n_secrets, 3);
    for (size_t i = 0; i < g.n_secrets; i++) {
        ck_assert_int_eq(g.secrets[i].value->kind, PV_STRING);
        ck_assert_str_eq(g.secrets[i].value->u.str.s, "foobar");
    }
    free(text);
    pcl_program_free(g.program);
    text = gen_text(&cs[td].r, 1, PCL_SECRETS_LITERAL, s, &g, &d);
    ck_assert_ptr_nonnull(strstr(text, "    cpu = secret(\"foobar\")\n"));
    ck_assert_uint_eq(g.n_secrets, 0);
    free(text);
    pcl_program_free(g.program);
    /* names: NameTable entry and a sanitized URN name, both with __logicalName; the escaped prefix */
    for (size_t i = 0; i < n; i++) {
        if (strcmp(cs[i].r.type, "random:index/randomId:RandomId") != 0) continue;
        text = gen_text(&cs[i].r, 1, PCL_SECRETS_CONFIG, s, &g, &d);
        if (strcmp(cs[i].r.logical_name, "strange logical name") == 0)
            ck_assert_ptr_nonnull(strstr(text, "resource logical \"random:index/randomId:RandomId\" {\n"
                                               "    __logicalName = \"strange logical name\"\n"));
        if (strcmp(cs[i].r.logical_name, "imported resource") == 0)
            ck_assert_ptr_nonnull(strstr(text, "resource imported_resource \"random:index/randomId:RandomId\" {\n"
                                               "    __logicalName = \"imported resource\"\n    byteLength = 42\n"
                                               "    options {\n        import = \"random-id\"\n    }\n}\n"));
        if (strcmp(cs[i].r.logical_name, "RandomId") == 0)
            ck_assert_ptr_nonnull(strstr(text, "    prefix = \"f$${oo}ba%%{}r\"\n"));
        if (strcmp(cs[i].r.logical_name, "ignored") == 0)
            ck_assert_ptr_nonnull(strstr(text, "    options {\n        ignoreChanges = [byteLength]\n    }\n"));
        free(text);
        pcl_program_free(g.program);
    }
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

/* The whole case set as one program, pinned as a reviewed golden file (set CIMPORT_UPDATE_GOLDEN=1
 * to rewrite it after an intended change, then review the diff). */
START_TEST(test_cases_golden_text) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    size_t n;
    pcl_case_t *cs = load_cases(a, &n);
    pcl_gen_resource_t *rs = arena_alloc(a, n * sizeof *rs);
    for (size_t i = 0; i < n; i++)
        rs[i] = cs[i].r;
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, n, PCL_SECRETS_LITERAL, s, &g, &d);
    const char *path = SOURCE_DIR "/tests/fixtures/pcl/importer-cases.pp";
    if (getenv("CIMPORT_UPDATE_GOLDEN")) ck_assert(tu_write(path, text));
    char *want = tu_read(path, NULL);
    ck_assert_ptr_nonnull(want);
    ck_assert_str_eq(text, want);
    free(want);
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

/* --- exact text shapes ------------------------------------------------------------------------------ */

START_TEST(test_reference_by_id_and_order) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    pcl_gen_resource_t rs[2] = {
        {.type = "importer:s3/bucketObject:BucketObject",
         .name = "exampleBucketObject",
         .logical_name = "exampleBucketObject",
         .id = "obj-1",
         .inputs = state_value(a, "{\"bucket\":\"my-bucket-123\",\"storageClass\":\"STANDARD\"}")},
        {.type = "importer:s3/bucket:Bucket",
         .name = "exampleBucket",
         .logical_name = "exampleBucket",
         .id = "my-bucket-123",
         .inputs = state_value(a, "{}")},
    };
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, 2, PCL_SECRETS_CONFIG, s, &g, &d);
    ck_assert_str_eq(text, "package importer {\n"
                           "    baseProviderName = \"importer\"\n"
                           "    baseProviderVersion = \"1.0.0\"\n"
                           "}\n"
                           "\n"
                           "resource exampleBucket \"importer:s3/bucket:Bucket\" {\n"
                           "}\n"
                           "\n"
                           "resource exampleBucketObject \"importer:s3/bucketObject:BucketObject\" {\n"
                           "    bucket = exampleBucket.id\n"
                           "    storageClass = \"STANDARD\"\n"
                           "}\n");
    /* the reference carries the schema type of its position */
    const pcl_node_t *obj = &g.program->nodes[pcl_program_find(g.program, "exampleBucketObject")];
    ck_assert_int_eq(obj->attrs[0].value->kind, PCL_TRAVERSAL);
    ck_assert_int_eq(obj->attrs[0].value->type->kind, SCHEMA_STRING);
    ck_assert_str_eq(obj->attrs[0].prop->name, "bucket");
    free(text);
    pcl_program_free(g.program);
    /* without guessing the id stays a literal */
    pcl_gen_options_t o;
    pcl_gen_options_default(&o);
    o.guess_references = false;
    ck_assert(pcl_generate(rs, 2, s, &o, &g, &d));
    text = pcl_print(g.program);
    ck_assert_ptr_nonnull(strstr(text, "    bucket = \"my-bucket-123\"\n"));
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_reference_name_arn_ambiguous_self) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    pcl_gen_resource_t rs[4] = {
        {.type = "importer:iam/role:Role",
         .name = "role",
         .logical_name = "role",
         .id = "role-1",
         .inputs = state_value(a, "{\"assumeRolePolicy\":\"{}\",\"name\":\"my-role\"}"),
         .outputs = state_value(a, "{\"name\":\"my-role\",\"arn\":\"arn:aws:iam::1:role/my-role\"}")},
        {.type = "importer:iam/rolePolicyAttachment:RolePolicyAttachment",
         .name = "att",
         .logical_name = "att",
         .id = "att-1",
         .inputs = state_value(a, "{\"policyArn\":\"arn:aws:iam::1:role/my-role\",\"role\":\"my-role\"}")},
        {.type = "importer:iam/role:Role",
         .name = "dup1",
         .logical_name = "dup1",
         .id = "dup-1",
         .inputs = state_value(a, "{\"assumeRolePolicy\":\"{}\"}"),
         .outputs = state_value(a, "{\"name\":\"dup\"}")},
        {.type = "importer:iam/role:Role",
         .name = "dup2",
         .logical_name = "dup2",
         .id = "dup-2",
         .inputs = state_value(a, "{\"assumeRolePolicy\":\"{}\",\"name\":\"dup\"}"),
         .outputs = state_value(a, "{\"name\":\"dup\"}")},
    };
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, 4, PCL_SECRETS_CONFIG, s, &g, &d);
    /* role's own name output equals its input: no self reference */
    ck_assert_ptr_nonnull(strstr(text, "resource role \"importer:iam/role:Role\" {\n"
                                       "    assumeRolePolicy = \"{}\"\n    name = \"my-role\"\n}\n"));
    ck_assert_ptr_nonnull(strstr(text, "resource att \"importer:iam/rolePolicyAttachment:RolePolicyAttachment\" {\n"
                                       "    policyArn = role.arn\n    role = role.name\n}\n"));
    /* "dup" is the name of two resources: ambiguous, so literal */
    ck_assert_ptr_nonnull(strstr(text, "    name = \"dup\"\n"));
    ck_assert_ptr_null(strstr(text, "dup1.name"));
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_reference_cycle_broken_at_one_edge) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    pcl_gen_resource_t rs[3] = {
        {.type = "importer:iam/role:Role",
         .name = "a",
         .logical_name = "a",
         .id = "a-id",
         .inputs = state_value(a, "{\"name\":\"b-id\"}")},
        {.type = "importer:iam/role:Role",
         .name = "b",
         .logical_name = "b",
         .id = "b-id",
         .inputs = state_value(a, "{\"name\":\"a-id\"}")},
        {.type = "importer:iam/role:Role",
         .name = "c",
         .logical_name = "c",
         .id = "c-id",
         .inputs = state_value(a, "{\"name\":\"a-id\",\"path\":\"b-id\"}")},
    };
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, 3, PCL_SECRETS_CONFIG, s, &g, &d);
    /* b → a is the edge that closes the cycle; a → b and every reference of c are kept. The
     * missing required assumeRolePolicy gets the zero value of its simplest union member. */
    ck_assert_str_eq(text, "package importer {\n"
                           "    baseProviderName = \"importer\"\n"
                           "    baseProviderVersion = \"1.0.0\"\n"
                           "}\n"
                           "\n"
                           "resource b \"importer:iam/role:Role\" {\n"
                           "    assumeRolePolicy = \"\"\n"
                           "    name = \"a-id\"\n"
                           "}\n"
                           "\n"
                           "resource a \"importer:iam/role:Role\" {\n"
                           "    assumeRolePolicy = \"\"\n"
                           "    name = b.id\n"
                           "}\n"
                           "\n"
                           "resource c \"importer:iam/role:Role\" {\n"
                           "    assumeRolePolicy = \"\"\n"
                           "    name = a.id\n"
                           "    path = b.id\n"
                           "}\n");
    ck_assert_int_eq(d.errors, 0);
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_cycle_through_parent_breaks_a_reference) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    /* child's parent is p (hard edge), and p's input references child's id: the reference goes */
    pcl_gen_resource_t rs[2] = {
        {.type = "importer:iam/role:Role",
         .name = "p",
         .logical_name = "p",
         .id = "p-id",
         .inputs = state_value(a, "{\"assumeRolePolicy\":\"x\",\"name\":\"child-id\"}")},
        {.type = "importer:iam/role:Role",
         .name = "child",
         .logical_name = "child",
         .id = "child-id",
         .parent = "p",
         .inputs = state_value(a, "{\"assumeRolePolicy\":\"y\",\"name\":\"p-id\"}")},
    };
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, 2, PCL_SECRETS_CONFIG, s, &g, &d);
    ck_assert_ptr_nonnull(strstr(text, "resource p \"importer:iam/role:Role\" {\n"
                                       "    assumeRolePolicy = \"x\"\n    name = \"child-id\"\n}\n\n"
                                       "resource child \"importer:iam/role:Role\" {\n"
                                       "    assumeRolePolicy = \"y\"\n    name = p.id\n"
                                       "    options {\n        parent = p\n    }\n}\n"));
    ck_assert_int_eq(d.errors, 0);
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_names_sanitized_unique_logical) {
    arena_t *a = arena_new();
    ck_assert_str_eq(pcl_sanitize_identifier(a, "my.Bucket.com"), "my_Bucket_com");
    ck_assert_str_eq(pcl_sanitize_identifier(a, "1abc"), "_1abc");
    ck_assert_str_eq(pcl_sanitize_identifier(a, "resource"), "_resource");
    ck_assert_str_eq(pcl_sanitize_identifier(a, "options"), "_options");
    ck_assert_str_eq(pcl_sanitize_identifier(a, "for"), "_for");
    ck_assert_str_eq(pcl_sanitize_identifier(a, "h\xc3\xa9llo w\xc3\xb6rld"), "h_llo_w_rld");
    ck_assert_str_eq(pcl_sanitize_identifier(a, ""), "_");
    ck_assert_str_eq(pcl_sanitize_identifier(a, "a-b_c9"), "a-b_c9");
    ck_assert_str_eq(pcl_sanitize_identifier(a, "-x"), "_-x");
    schema_set_t *s = load_schemas();
    pcl_gen_resource_t rs[3] = {
        {.type = "importer:s3/bucket:Bucket",
         .name = "my.Bucket.com",
         .logical_name = "my.Bucket.com",
         .id = "b-1",
         .inputs = state_value(a, "{}")},
        {.type = "importer:s3/bucketObject:BucketObject",
         .name = "obj",
         .logical_name = "obj",
         .inputs = state_value(a, "{\"bucket\":\"b-1\"}")},
        {.type = "importer:s3/bucketObject:BucketObject",
         .name = "obj",
         .logical_name = "obj",
         .inputs = state_value(a, "{\"bucket\":\"b-1\"}")},
    };
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, 3, PCL_SECRETS_CONFIG, s, &g, &d);
    ck_assert_ptr_nonnull(strstr(text, "resource my_Bucket_com \"importer:s3/bucket:Bucket\" {\n"
                                       "    __logicalName = \"my.Bucket.com\"\n}\n"));
    ck_assert_ptr_nonnull(strstr(text, "resource obj \"importer:s3/bucketObject:BucketObject\" {\n"
                                       "    bucket = my_Bucket_com.id\n}\n"));
    /* issue 16: the second `obj` is named after its type, not `obj2` */
    ck_assert_ptr_nonnull(strstr(text, "resource objBucketObject \"importer:s3/bucketObject:BucketObject\" {\n"
                                       "    __logicalName = \"obj\"\n    bucket = my_Bucket_com.id\n}\n"));
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_literals_escapes_numbers) {
    pcl_expr_t e = {.kind = PCL_STRING, .s = "a\"b\\c\nd\re\tf\x01g${h}%{i}$j%k\x7f\xc3\xa9"};
    char *t = pcl_print_expr(&e);
    ck_assert_str_eq(t, "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g$${h}%%{i}$j%k\\u007F\xc3\xa9\"");
    /* and back */
    buf_t b;
    buf_init(&b);
    buf_printf(&b, "package p {\n    v = %s\n}\n", t);
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(b.data, b.len, "s.pp", &d);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->nodes[0].attrs[0].value->s, e.s);
    pcl_program_free(p);
    buf_free(&b);
    free(t);
    /* object keys: bare when they are identifiers, quoted for maps and for reserved words */
    pcl_object_item_t items[3] = {
        {.key = "plain", .value = &e}, {.key = "for", .value = &e}, {.key = "k", .key_quoted = true, .value = &e}};
    pcl_expr_t obj = {.kind = PCL_OBJECT, .object = {items, 3}};
    e.s = "v";
    t = pcl_print_expr(&obj);
    ck_assert_str_eq(t, "{\n    plain = \"v\"\n    \"for\" = \"v\"\n    \"k\" = \"v\"\n}");
    free(t);
    static const struct {
        double n;
        const char *want;
    } nums[] = {{42, "42"},
                {-7, "-7"},
                {0, "0"},
                {3.14, "3.14"},
                {-1.5, "-1.5"},
                {1234567.5, "1.2345675e+06"},
                {123456.5, "123456.5"},
                {1e21, "1e+21"},
                {1e20 + 0.5, "1e+20"},
                {0.0001, "0.0001"},
                {0.00001, "1e-05"},
                {2.5e-7, "2.5e-07"},
                {0.1, "0.1"},
                {1.0 / 3, "0.3333333333333333"},
                {9007199254740993.0, "9007199254740992"},
                {1e300, "1e+300"}};
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
        pcl_expr_t x = {.kind = PCL_NUMBER, .n = nums[i].n};
        char *s = pcl_print_expr(&x);
        ck_assert_msg(strcmp(s, nums[i].want) == 0, "%.17g printed as %s, want %s", nums[i].n, s, nums[i].want);
        /* every printed number parses back to the same double */
        buf_init(&b);
        buf_printf(&b, "package p {\n    v = %s\n}\n", s);
        p = pcl_parse(b.data, b.len, "n.pp", &d);
        ck_assert_ptr_nonnull(p);
        ck_assert(p->nodes[0].attrs[0].value->n == nums[i].n);
        pcl_program_free(p);
        buf_free(&b);
        free(s);
    }
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
}
END_TEST

START_TEST(test_options_component_package) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    const char *ign[] = {"byteLength", "keepers[\"a.b\"]"};
    const char *deps[] = {"other", "parentComponent"};
    const char *repl[] = {"other"};
    pcl_gen_resource_t rs[2] = {
        {.type = "company:product:CRClass",
         .name = "parentComponent",
         .logical_name = "example",
         .component = true,
         .protect = true},
        {.type = "random:index/randomId:RandomId",
         .name = "rid",
         .logical_name = "rid",
         .inputs = state_value(a, "{\"byteLength\":8,\"keepers\":{\"a\":\"x\",\"b\":1,\"c\":null}}"),
         .parent = "parentComponent",
         .provider = "prov",
         .version = "4.12.0",
         .plugin_download_url = "https://example.com/random",
         .protect = true,
         .retain_on_delete = true,
         .ignore_changes = ign,
         .n_ignore_changes = 2,
         .deleted_with = "other",
         .replace_with = repl,
         .n_replace_with = 1,
         .depends_on = deps,
         .n_depends_on = 2,
         .import_id = "rid-1"},
    };
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, 2, PCL_SECRETS_CONFIG, s, &g, &d);
    /* keepers is map(string): the number and the null do not fit and are left out */
    ck_assert_str_eq(text, "component parentComponent {\n"
                           "    __logicalName = \"example\"\n"
                           "    token = \"company:product:CRClass\"\n"
                           "    options {\n"
                           "        protect = true\n"
                           "    }\n"
                           "}\n"
                           "\n"
                           "package random {\n"
                           "    baseProviderName = \"random\"\n"
                           "    baseProviderVersion = \"4.12.0\"\n"
                           "    baseProviderDownloadUrl = \"https://example.com/random\"\n"
                           "}\n"
                           "\n"
                           "resource rid \"random:index/randomId:RandomId\" {\n"
                           "    byteLength = 8\n"
                           "    keepers = {\n"
                           "        \"a\" = \"x\"\n"
                           "    }\n"
                           "    options {\n"
                           "        parent = parentComponent\n"
                           "        provider = prov\n"
                           "        dependsOn = [other, parentComponent]\n"
                           "        protect = true\n"
                           "        retainOnDelete = true\n"
                           "        ignoreChanges = [byteLength, keepers[\"a.b\"]]\n"
                           "        deletedWith = other\n"
                           "        replaceWith = [other]\n"
                           "        import = \"rid-1\"\n"
                           "    }\n"
                           "}\n");
    int info = 0;
    for (diag_t *x = d.head; x; x = x->next)
        info += x->severity == DIAG_INFO;
    ck_assert_int_eq(info, 2);
    pcl_program_t *p = reparse(text, s);
    ck_assert_int_eq(p->nodes[0].kind, PCL_NODE_COMPONENT);
    ck_assert_str_eq(p->nodes[0].token, "company:product:CRClass");
    ck_assert_str_eq(p->nodes[0].logical_name, "example");
    ck_assert_int_eq(p->nodes[2].n_options, 9);
    pcl_program_free(p);
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

static const pcl_expr_t *attr_value(const pcl_attr_t *attrs, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(attrs[i].name, name) == 0) return attrs[i].value;
    ck_abort_msg("no attribute '%s'", name);
    return NULL;
}

/* A program of many resources holds each repeated literal once: the `protect` and `retainOnDelete`
 * options, a bool or number of the same type and value, and a type token are shared by every
 * node that has them (at 100,000 resources each copy was 216 bytes a resource, kept to the end). What
 * differs is not shared, and the text is as before. */
START_TEST(test_repeated_literals_shared) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    pcl_gen_resource_t rs[3];
    const char *inputs[] = {"{\"length\":8,\"lower\":true,\"special\":false}",
                            "{\"length\":8,\"lower\":true,\"special\":false}",
                            "{\"length\":9,\"lower\":false,\"special\":false}"};
    const char *names[] = {"one", "two", "three"};
    for (size_t i = 0; i < 3; i++)
        rs[i] = (pcl_gen_resource_t){.type = "random:index/randomString:RandomString",
                                     .name = names[i],
                                     .logical_name = names[i],
                                     .id = names[i],
                                     .inputs = state_value(a, inputs[i]),
                                     .protect = true,
                                     .retain_on_delete = true};
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, 3, PCL_SECRETS_CONFIG, s, &g, &d);
    ck_assert_msg(strstr(text, "resource one \"random:index/randomString:RandomString\" {\n"
                               "    length = 8\n"
                               "    lower = true\n"
                               "    special = false\n"
                               "    options {\n"
                               "        protect = true\n"
                               "        retainOnDelete = true\n"
                               "    }\n"
                               "}\n"),
                  "%s", text);
    ck_assert_msg(strstr(text, "    length = 9\n    lower = false\n    special = false\n"), "%s", text);
    const pcl_node_t *n[3];
    for (size_t i = 0; i < 3; i++) {
        int k = pcl_program_find(g.program, names[i]);
        ck_assert_int_ge(k, 0);
        n[i] = &g.program->nodes[k];
    }
    for (size_t i = 1; i < 3; i++) {
        ck_assert_uint_eq(n[i]->n_options, 2);
        ck_assert_ptr_eq(n[i]->options[0].value, n[0]->options[0].value);
        ck_assert_ptr_eq(n[i]->options[1].value, n[0]->options[1].value);
        ck_assert_ptr_eq(n[i]->token, n[0]->token);
        ck_assert_ptr_eq(attr_value(n[i]->attrs, n[i]->n_attrs, "special"),
                         attr_value(n[0]->attrs, n[0]->n_attrs, "special"));
    }
    ck_assert_ptr_eq(attr_value(n[1]->attrs, n[1]->n_attrs, "length"),
                     attr_value(n[0]->attrs, n[0]->n_attrs, "length"));
    ck_assert_ptr_eq(attr_value(n[1]->attrs, n[1]->n_attrs, "lower"), attr_value(n[0]->attrs, n[0]->n_attrs, "lower"));
    ck_assert_ptr_ne(attr_value(n[2]->attrs, n[2]->n_attrs, "length"),
                     attr_value(n[0]->attrs, n[0]->n_attrs, "length"));
    ck_assert_ptr_ne(attr_value(n[2]->attrs, n[2]->n_attrs, "lower"), attr_value(n[0]->attrs, n[0]->n_attrs, "lower"));
    /* `true` as an option (no type) and as an input (bool) are two literals */
    ck_assert_ptr_ne(n[0]->options[0].value, attr_value(n[0]->attrs, n[0]->n_attrs, "lower"));
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

/* pcl_gen_outputs_needed keeps of a state exactly what generation reads: a program generated from
 * the trimmed states is the one generated from the whole — a secret input that another resource
 * outputs as a secret becomes a reference named after the property being set (the producer also
 * outputs it in the clear under that name), a plain `name` output becomes a reference; the rest of
 * the state goes. */
START_TEST(test_gen_outputs_needed_generates_the_same) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    pv_t *out = pv_object(a);
    pv_object_set(a, out, "arn", pv_string(a, "arn:aws:iam::1:role/producer"));
    pv_object_set(a, out, "name", pv_string(a, "producer-role"));
    pv_object_set(a, out, "policyCopy", pv_secret(a, pv_string(a, "s3cr3t-policy")));
    pv_object_set(a, out, "assumeRolePolicy", pv_string(a, "s3cr3t-policy"));
    pv_object_set(a, out, "description", pv_string(a, "not read by generation"));
    /* a long secret (a private key's PEM) is kept by its digest, and still found by an input */
    const char *pem =
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1UqaGD/P7w6HbvRzdLdjnGGhzNtyLtTrLhKivraREMRi3IwC\n"
        "-----END RSA PRIVATE KEY-----\n";
    pv_object_set(a, out, "tags", pv_secret(a, pv_string(a, pem)));
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "assumeRolePolicy", pv_secret(a, pv_string(a, "s3cr3t-policy")));
    pv_object_set(a, in, "name", pv_string(a, "producer-role"));
    pv_object_set(a, in, "path", pv_secret(a, pv_string(a, pem)));
    pcl_gen_resource_t rs[2] = {
        {.type = "importer:iam/role:Role",
         .name = "producer",
         .logical_name = "producer",
         .id = "p1",
         .inputs = pv_object(a),
         .outputs = out},
        {.type = "importer:iam/role:Role",
         .name = "consumer",
         .logical_name = "consumer",
         .id = "c1",
         .inputs = in,
         .outputs = pv_object(a)},
    };
    pv_t *trimmed = pcl_gen_outputs_needed(a, out);
    ck_assert_uint_eq(trimmed->u.obj.len, 5);
    ck_assert_ptr_null(pv_object_get(trimmed, "description"));
    const pv_t *held = pv_unwrap(pv_object_get(trimmed, "tags"));
    ck_assert_ptr_nonnull(held);
    ck_assert_uint_le(held->u.str.len, 80);
    ck_assert_str_ne(held->u.str.s, pem);
    ck_assert_str_eq(pv_unwrap(pv_object_get(trimmed, "policyCopy"))->u.str.s, "s3cr3t-policy");
    pcl_gen_result_t g1, g2;
    diag_list_t d;
    diag_list_init(&d);
    char *whole = gen_text(rs, 2, PCL_SECRETS_CONFIG, s, &g1, &d);
    rs[0].outputs = trimmed;
    char *kept = gen_text(rs, 2, PCL_SECRETS_CONFIG, s, &g2, &d);
    ck_assert_str_eq(kept, whole);
    ck_assert_ptr_nonnull(strstr(whole, "assumeRolePolicy = producer.assumeRolePolicy"));
    ck_assert_ptr_nonnull(strstr(whole, "name = producer.name"));
    ck_assert_msg(strstr(whole, "path = producer.tags"), "%s", whole);
    free(whole);
    free(kept);
    pcl_program_free(g1.program);
    pcl_program_free(g2.program);
    ck_assert_ptr_null(pcl_gen_outputs_needed(a, NULL));
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_secrets_config_never_in_text) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "assumeRolePolicy", pv_secret(a, pv_string(a, "s3cr3t-policy")));
    pv_object_set(a, in, "maxSessionDuration", pv_secret(a, pv_number(a, 3607)));
    pv_object_set(a, in, "name", pv_string(a, "plain"));
    pcl_gen_resource_t r = {
        .type = "importer:iam/role:Role", .name = "db role", .logical_name = "db role", .inputs = in};
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(&r, 1, PCL_SECRETS_CONFIG, s, &g, &d);
    ck_assert_ptr_null(strstr(text, "s3cr3t"));
    ck_assert_ptr_null(strstr(text, "3607"));
    ck_assert_str_eq(text, "package importer {\n"
                           "    baseProviderName = \"importer\"\n"
                           "    baseProviderVersion = \"1.0.0\"\n"
                           "}\n"
                           "\n"
                           "config db_roleAssumeRolePolicy \"string\" {\n"
                           "    __secret = true\n"
                           "}\n"
                           "\n"
                           "config db_roleMaxSessionDuration \"int\" {\n"
                           "    __secret = true\n"
                           "}\n"
                           "\n"
                           "resource db_role \"importer:iam/role:Role\" {\n"
                           "    __logicalName = \"db role\"\n"
                           "    assumeRolePolicy = db_roleAssumeRolePolicy\n"
                           "    maxSessionDuration = db_roleMaxSessionDuration\n"
                           "    name = \"plain\"\n"
                           "}\n");
    ck_assert_uint_eq(g.n_secrets, 2);
    ck_assert_str_eq(g.secrets[0].config_key, "db_roleAssumeRolePolicy");
    ck_assert_str_eq(g.secrets[0].value->u.str.s, "s3cr3t-policy");
    ck_assert_str_eq(g.secrets[1].config_key, "db_roleMaxSessionDuration");
    ck_assert(g.secrets[1].value->kind == PV_NUMBER && g.secrets[1].value->u.n == 3607);
    pcl_program_t *p = reparse(text, s);
    ck_assert(p->nodes[1].config_secret);
    ck_assert_str_eq(p->nodes[1].config_key, "db_roleAssumeRolePolicy");
    ck_assert_str_eq(p->nodes[2].token, "int");
    pcl_program_free(p);
    free(text);
    pcl_program_free(g.program);
    /* literal mode keeps secrecy for non-strings too */
    text = gen_text(&r, 1, PCL_SECRETS_LITERAL, s, &g, &d);
    ck_assert_ptr_nonnull(strstr(text, "    maxSessionDuration = secret(3607)\n"));
    ck_assert_ptr_nonnull(strstr(text, "    assumeRolePolicy = secret(\"s3cr3t-policy\")\n"));
    free(text);
    pcl_program_free(g.program);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_generate_types_and_missing_schema) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    pcl_gen_resource_t rs[2] = {
        {.type = "nopkg:index:Thing", .name = "t", .logical_name = "t", .inputs = state_value(a, "{}")},
        {.type = "importer:s3/bucket:Bucket",
         .name = "b",
         .logical_name = "b",
         .inputs = state_value(a, "{\"replicationConfiguration\":{\"role\":\"r\",\"rules\":[{\"destination\":"
                                  "{\"bucket\":\"x\"},\"priority\":1,\"status\":\"on\"}]},\"extra\":1}")},
    };
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, 2, PCL_SECRETS_CONFIG, s, &g, &d);
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(diag_format(&d, d.head), "resource 't' of type 'nopkg:index:Thing': no code was generated: the "
                                              "schema of package 'nopkg' is not loaded");
    ck_assert_ptr_null(strstr(text, "nopkg"));
    ck_assert_ptr_null(strstr(text, "extra"));
    const pcl_node_t *b = &g.program->nodes[pcl_program_find(g.program, "b")];
    ck_assert_int_eq(b->n_attrs, 1);
    const pcl_expr_t *rc = b->attrs[0].value;
    ck_assert_int_eq(rc->type->kind, SCHEMA_OBJECT);
    ck_assert_str_eq(rc->object.items[1].key, "rules");
    ck_assert_str_eq(rc->object.items[1].prop->name, "rules");
    const pcl_expr_t *rules = rc->object.items[1].value;
    ck_assert_int_eq(rules->type->kind, SCHEMA_ARRAY);
    ck_assert_int_eq(rules->tuple.items[0]->type->kind, SCHEMA_OBJECT);
    /* binding the printed text attaches the same types */
    pcl_program_t *p = reparse(text, s);
    const pcl_node_t *pb = &p->nodes[pcl_program_find(p, "b")];
    ck_assert_ptr_eq(pb->attrs[0].value->type, rc->type);
    ck_assert_ptr_eq(pb->attrs[0].value->object.items[1].value->tuple.items[0]->type, rules->tuple.items[0]->type);
    ck_assert_ptr_eq(pb->attrs[0].value->object.items[1].prop, rc->object.items[1].prop);
    pcl_program_free(p);
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    /* nothing generated at all */
    diag_list_init(&d);
    pcl_gen_options_t o;
    pcl_gen_options_default(&o);
    ck_assert(!pcl_generate(rs, 1, s, &o, &g, &d));
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_explicit_provider_ordered_first) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    /* the user comes first in the input; the provider it names must still be declared before it */
    pcl_gen_resource_t rs[2] = {
        {.type = "random:index/randomId:RandomId",
         .name = "rid",
         .logical_name = "rid",
         .provider = "prov",
         .inputs = state_value(a, "{\"byteLength\":4}")},
        {.type = "pulumi:providers:random",
         .name = "prov",
         .logical_name = "prov",
         .inputs = state_value(a, "{\"version\":\"4.11.2\"}")},
    };
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, 2, PCL_SECRETS_CONFIG, s, &g, &d);
    ck_assert_str_eq(text, "package random {\n"
                           "    baseProviderName = \"random\"\n"
                           "    baseProviderVersion = \"4.11.2\"\n"
                           "}\n"
                           "\n"
                           "resource prov \"pulumi:providers:random\" {\n"
                           "}\n"
                           "\n"
                           "resource rid \"random:index/randomId:RandomId\" {\n"
                           "    byteLength = 4\n"
                           "    options {\n"
                           "        provider = prov\n"
                           "    }\n"
                           "}\n");
    ck_assert(g.program->nodes[1].schema->is_provider);
    pcl_program_t *p = reparse(text, s);
    ck_assert(p->nodes[1].schema->is_provider);
    pcl_program_free(p);
    ck_assert_int_eq(d.errors, 0);
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_reference_ring_keeps_all_but_one) {
    /* a ring of 200 resources, each referencing the next one's id: exactly one reference is
     * dropped, and every resource still comes after the one it references */
    enum { N = 200 };
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    pcl_gen_resource_t rs[N];
    memset(rs, 0, sizeof rs);
    for (int i = 0; i < N; i++) {
        rs[i].type = "importer:iam/role:Role";
        rs[i].name = arena_sprintf(a, "r%d", i);
        rs[i].logical_name = rs[i].name;
        rs[i].id = arena_sprintf(a, "id-%d", i);
        pv_t *in = pv_object(a);
        pv_object_set(a, in, "assumeRolePolicy", pv_string(a, "{}"));
        pv_object_set(a, in, "name", pv_string(a, arena_sprintf(a, "id-%d", (i + 1) % N)));
        rs[i].inputs = in;
    }
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(rs, N, PCL_SECRETS_CONFIG, s, &g, &d);
    size_t refs = 0, literals = 0;
    for (size_t i = 0; i < g.program->n_nodes; i++) {
        const pcl_node_t *n = &g.program->nodes[i];
        if (n->kind != PCL_NODE_RESOURCE) continue;
        const pcl_expr_t *v = n->attrs[1].value;
        if (v->kind == PCL_STRING) {
            literals++;
            continue;
        }
        refs++;
        ck_assert_int_eq(v->kind, PCL_TRAVERSAL);
        int target = pcl_program_find(g.program, v->trav.root);
        ck_assert_int_lt(target, (int)i);
    }
    ck_assert_uint_eq(refs, N - 1);
    ck_assert_uint_eq(literals, 1);
    ck_assert_int_eq(d.errors, 0);
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

START_TEST(test_nested_secret_and_unknown_values) {
    arena_t *a = arena_new();
    schema_set_t *s = load_schemas();
    pv_t *tags = pv_object(a);
    pv_object_set(a, tags, "Env", pv_string(a, "prod"));
    pv_object_set(a, tags, "api-token", pv_secret(a, pv_string(a, "t0k3n")));
    pv_object_set(a, tags, "Later", pv_unknown(a));
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "cidrBlock", pv_unknown(a));
    pv_object_set(a, in, "tags", tags);
    pcl_gen_resource_t r = {.type = "importer:ec2/vpc:Vpc", .name = "vpc", .logical_name = "vpc", .inputs = in};
    pcl_gen_result_t g;
    diag_list_t d;
    diag_list_init(&d);
    char *text = gen_text(&r, 1, PCL_SECRETS_CONFIG, s, &g, &d);
    /* the secret map entry is read from config named after its path; the unknown entry does not
     * fit map(string) and is left out; the unknown top-level input is absent */
    ck_assert_ptr_nonnull(strstr(text, "config vpcTagsApiToken \"string\" {\n    __secret = true\n}\n\n"
                                       "resource vpc \"importer:ec2/vpc:Vpc\" {\n"
                                       "    tags = {\n"
                                       "        \"Env\" = \"prod\"\n"
                                       "        \"api-token\" = vpcTagsApiToken\n"
                                       "    }\n"
                                       "}\n"));
    ck_assert_ptr_null(strstr(text, "t0k3n"));
    ck_assert_uint_eq(g.n_secrets, 1);
    ck_assert_str_eq(g.secrets[0].value->u.str.s, "t0k3n");
    ck_assert_int_eq(d.errors, 0);
    free(text);
    pcl_program_free(g.program);
    diag_list_free(&d);
    schema_set_free(s);
    arena_free(a);
}
END_TEST

/* --- parser and binder -------------------------------------------------------------------------------- */

START_TEST(test_parse_full_subset) {
    const char *text = "# a comment\n"
                       "// another\n"
                       "/* block\n comment */\n"
                       "package \"random\" {\n"
                       "    baseProviderName = \"random\"\n"
                       "}\n"
                       "resource \"my res\" \"random:index/randomId:RandomId\" {\n"
                       "    byteLength = -(8)\n"
                       "    prefix = <<-EOT\n"
                       "        line $${one}\n"
                       "          two %%{x}\n"
                       "\n"
                       "        EOT\n"
                       "    keepers = { a: \"1\", \"b.c\" = \"2\",\n"
                       "        d = \"3\", }\n"
                       "    options {\n"
                       "        protect = true\n"
                       "        parent = other.children[0][\"k\"] # trailing\n"
                       "        ignoreChanges = [\n"
                       "            byteLength,\n"
                       "        ]\n"
                       "    }\n"
                       "}\n"
                       "resource plain \"random:index/randomId:RandomId\" {\n"
                       "    prefix = <<EOT\n"
                       "  raw\n"
                       "EOT\n"
                       "    byteLength = 1.5e3\n"
                       "}\n";
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(text, strlen(text), "full.pp", &d);
    if (!p) ck_abort_msg("%s", diag_format(&d, d.head));
    ck_assert_int_eq(p->n_nodes, 3);
    ck_assert_str_eq(p->nodes[0].name, "random");
    const pcl_node_t *r = &p->nodes[1];
    ck_assert_str_eq(r->name, "my res");
    ck_assert_int_eq(r->n_attrs, 3);
    ck_assert(r->attrs[0].value->kind == PCL_NUMBER && r->attrs[0].value->n == -8);
    ck_assert_str_eq(r->attrs[1].value->s, "line ${one}\n  two %{x}\n\n");
    const pcl_expr_t *k = r->attrs[2].value;
    ck_assert_int_eq(k->object.n, 3);
    ck_assert_str_eq(k->object.items[1].key, "b.c");
    ck_assert(k->object.items[1].key_quoted);
    /* options sorted into Pulumi's order */
    ck_assert_str_eq(r->options[0].name, "parent");
    ck_assert_str_eq(r->options[1].name, "protect");
    ck_assert_str_eq(r->options[2].name, "ignoreChanges");
    char *t = pcl_print_expr(r->options[0].value);
    ck_assert_str_eq(t, "other.children[0][\"k\"]");
    free(t);
    ck_assert_str_eq(p->nodes[2].attrs[0].value->s, "  raw\n");
    ck_assert(p->nodes[2].attrs[1].value->n == 1500);
    schema_set_t *s = load_schemas();
    ck_assert(pcl_bind(p, s, &d));
    ck_assert_int_eq(r->attrs[2].value->type->kind, SCHEMA_MAP);
    ck_assert_int_eq(r->attrs[2].value->object.items[0].value->type->kind, SCHEMA_STRING);
    ck_assert_int_eq(d.errors, 0);
    /* printing quotes the label that is not an identifier */
    char *out = pcl_print(p);
    ck_assert_ptr_nonnull(strstr(out, "resource \"my res\" \"random:index/randomId:RandomId\" {\n"));
    ck_assert_ptr_nonnull(strstr(out, "    prefix = \"line $${one}\\n  two %%{x}\\n\\n\"\n"));
    free(out);
    pcl_program_free(p);
    schema_set_free(s);
    diag_list_free(&d);
}
END_TEST

static void assert_parse_error(const char *text, const char *want) {
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(text, strlen(text), "bad.pp", &d);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(diag_format(&d, d.head), want);
    diag_list_free(&d);
}

/* The whole PCL expression language parses into its own kinds, with positions, and prints back to
 * text that parses to the same print (issue 18). */
START_TEST(test_parse_language) {
    const char *text = "names = [\"a\", \"b\"]\n"
                       "greeting = \"hi ${names[0]}-${res.out} $${lit}\"\n"
                       "math = -x + 2 * (y - 1) % 3 >= 4 && !flag || a != b\n"
                       "pick = flag ? names[1] : \"none\"\n"
                       "first = invoke(\"p:index:f\", {value = \"v\"}).result\n"
                       "byKey = lookup(m, \"k\", \"d\")[k]\n"
                       "ids = res[*].id\n"
                       "upper = [for i, n in names : \"${i}:${n}\" if n != \"b\"]\n"
                       "tags = {for k, v in m : k => v}\n"
                       "text = <<-EOT\n    line ${greeting}\n    $${not}\n    EOT\n";
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(text, strlen(text), "lang.pp", &d);
    if (!p) fprintf(stderr, "%s\n", diag_format(&d, d.head));
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->n_nodes, 10);
    for (size_t i = 0; i < p->n_nodes; i++)
        ck_assert_int_eq(p->nodes[i].kind, PCL_NODE_LOCAL);
    const pcl_expr_t *g = p->nodes[1].attrs[0].value;
    ck_assert_int_eq(g->kind, PCL_TEMPLATE);
    ck_assert_uint_eq(g->tuple.n, 5); /* "hi ", names[0], "-", res.out, " ${lit}" */
    ck_assert_str_eq(g->tuple.items[0]->s, "hi ");
    ck_assert_int_eq(g->tuple.items[1]->kind, PCL_TRAVERSAL);
    ck_assert_int_eq(g->tuple.items[1]->line, 2);
    ck_assert_int_eq(g->tuple.items[1]->col, 18);
    const pcl_expr_t *m = p->nodes[2].attrs[0].value; /* || at the top: HCL precedence */
    ck_assert_int_eq(m->kind, PCL_BINARY);
    ck_assert_str_eq(m->op, "||");
    ck_assert_str_eq(m->x->op, "&&");
    ck_assert_str_eq(m->x->x->op, ">=");
    ck_assert_str_eq(m->x->x->x->op, "+");
    ck_assert_str_eq(m->x->x->x->y->op, "%");
    ck_assert_int_eq(p->nodes[3].attrs[0].value->kind, PCL_COND);
    const pcl_expr_t *f = p->nodes[4].attrs[0].value;
    ck_assert_int_eq(f->kind, PCL_GETATTR);
    ck_assert_str_eq(f->s, "result");
    ck_assert_int_eq(f->x->kind, PCL_CALL);
    ck_assert_int_eq(p->nodes[5].attrs[0].value->kind, PCL_INDEX);
    ck_assert_int_eq(p->nodes[6].attrs[0].value->kind, PCL_SPLAT);
    const pcl_expr_t *fo = p->nodes[7].attrs[0].value;
    ck_assert_int_eq(fo->kind, PCL_FOR);
    ck_assert_str_eq(fo->kvar, "i");
    ck_assert_str_eq(fo->vvar, "n");
    ck_assert_ptr_nonnull(fo->w);
    ck_assert(p->nodes[8].attrs[0].value->for_object);
    ck_assert_int_eq(p->nodes[9].attrs[0].value->kind, PCL_TEMPLATE);

    char *out = pcl_print(p);
    const char *want = "names = [\"a\", \"b\"]\n\n"
                       "greeting = \"hi ${names[0]}-${res.out} $${lit}\"\n\n"
                       "math = ((((-x) + ((2 * (y - 1)) % 3)) >= 4) && (!flag)) || (a != b)\n\n"
                       "pick = flag ? names[1] : \"none\"\n\n"
                       "first = invoke(\"p:index:f\", {\n    value = \"v\"\n}).result\n\n"
                       "byKey = lookup(m, \"k\", \"d\")[k]\n\n"
                       "ids = res[*].id\n\n"
                       "upper = [for i, n in names : \"${i}:${n}\" if n != \"b\"]\n\n"
                       "tags = {for k, v in m : k => v}\n\n"
                       "text = \"line ${greeting}\\n$${not}\\n\"\n";
    ck_assert_str_eq(out, want);
    pcl_program_t *q = pcl_parse(out, strlen(out), "again.pp", &d);
    ck_assert_ptr_nonnull(q);
    char *again = pcl_print(q);
    ck_assert_str_eq(again, out);
    free(again);
    free(out);
    pcl_program_free(q);
    pcl_program_free(p);

    /* nesting is capped: a walk over any parsed expression may recurse */
    buf_t deep;
    buf_init(&deep);
    buf_puts(&deep, "x = ");
    for (int i = 0; i < 300; i++)
        buf_putc(&deep, '(');
    buf_putc(&deep, '1');
    for (int i = 0; i < 300; i++)
        buf_putc(&deep, ')');
    buf_putc(&deep, '\n');
    ck_assert_ptr_null(pcl_parse(deep.data, deep.len, "deep.pp", &d));
    ck_assert_ptr_nonnull(strstr(diag_format(&d, d.tail), "nested more than 200 levels deep"));
    buf_free(&deep);
    /* so are the trees the parser's loops build without recursing: a chain of operators (each
     * operator nests the chain before it), of splats, indexes and attributes on an expression; at
     * 200,000 they overflowed the stack of every walk after the parse (a crash, not an error) */
    const char *chains[][3] = {
        {"1", " + 1", ""}, {"1", " == 1", ""}, {"[1]", "[*]", ""}, {"[[1]]", "[x]", ""}, {"{a = 1}", ".a", "f()"}};
    for (size_t c = 0; c < sizeof chains / sizeof chains[0]; c++) {
        for (int n = 0; n < 2; n++) {
            buf_t chain;
            buf_init(&chain);
            buf_printf(&chain, "x = 1\nl = %s%s", chains[c][2][0] ? "element(" : "", chains[c][0]);
            if (chains[c][2][0]) buf_puts(&chain, ", 0)");
            for (int i = 0; i < (n ? 200000 : 150); i++)
                buf_puts(&chain, chains[c][1]);
            buf_putc(&chain, '\n');
            diag_list_t cd;
            diag_list_init(&cd);
            pcl_program_t *cp = pcl_parse(chain.data, chain.len, "chain.pp", &cd);
            if (n) {
                ck_assert_msg(cp == NULL, "a chain of 200,000 '%s' parsed", chains[c][1]);
                ck_assert_ptr_nonnull(strstr(diag_format(&cd, cd.tail), "nested more than 200 levels deep"));
            } else {
                ck_assert_msg(cp != NULL, "a chain of 150 '%s' refused: %s", chains[c][1],
                              cd.tail ? diag_format(&cd, cd.tail) : "");
                char *printed = pcl_print(cp);
                free(printed);
            }
            pcl_program_free(cp);
            diag_list_free(&cd);
            buf_free(&chain);
        }
    }
    diag_list_free(&d);
}
END_TEST

START_TEST(test_parse_errors) {
    /* a value followed by more on its line: refused (de9f40a looped forever on it, found by fuzz_pcl) */
    assert_parse_error("resource a \"t:i:R\" {\n    x = 1 2\n}\n",
                       "bad.pp:2:11: expected a new line after the value of 'x' but found '2'");
    assert_parse_error("x = 1 2\n", "bad.pp:1:7: expected a new line after the value of 'x' but found '2'");
    assert_parse_error("resource a \"t:i:R\" {\n    x = \"abc\n}\n",
                       "bad.pp:2:9: unterminated string: add the closing '\"' on the same line");
    assert_parse_error("output x {\n}\n", "bad.pp:1:1: output 'x' needs exactly one attribute, value = <expression>");
    assert_parse_error("locals x {\n}\n",
                       "bad.pp:1:1: unsupported block type 'locals': cimport reads package, resource, component, "
                       "config, output and hook blocks");
    assert_parse_error("resource a \"t:i:R\" {\n    x = \"a${b\"\n}\n",
                       "bad.pp:2:14: expected '}' to close the interpolation opened at 2:11 but found '\"'");
    assert_parse_error("resource a \"t:i:R\" {\n    x = \"a%{if b}\"\n}\n",
                       "bad.pp:2:11: template directive '%{' is not supported; write '%%{' for a literal '%{'");
    assert_parse_error("resource \"a${b}\" \"t:i:R\" {\n}\n",
                       "bad.pp:1:12: template interpolation '${' is not allowed here (a key or a label); write '$${' "
                       "for a literal '${'");
    assert_parse_error("x = [for a in b : a ...]\n",
                       "bad.pp:1:21: grouping ('...') in a for expression is not supported");
    assert_parse_error("x = a ? b\n", "bad.pp:2:1: expected ':' in the conditional '?' at 1:7 but found end of file");
    assert_parse_error("resource a \"t:i:R\" {\n    x = [1, 2\n}\n", "bad.pp:3:1: expected ',' or ']' but found '}'");
    assert_parse_error("resource a \"t:i:R\" {\n    x = 1 +\n}\n", "bad.pp:3:1: expected an expression but found '}'");
    assert_parse_error("x = 1\nx = 2\n",
                       "bad.pp:2:1: 'x' is declared twice; every resource, component, config and local needs its own "
                       "name");
    assert_parse_error("resource a \"t:i:R\" {\n    x = <<EOT\nabc\n", "bad.pp:2:9: unterminated heredoc: add a line "
                                                                       "holding only 'EOT'");
    assert_parse_error("resource a \"t:i:R\" {\n    x 1\n}\n",
                       "bad.pp:2:7: expected '=' after the attribute name 'x' but found '1'");
    assert_parse_error("resource a \"t:i:R\" {\n    x = \"\\q\"\n}\n",
                       "bad.pp:2:10: invalid escape sequence '\\q' in string; use \\n, \\r, \\t, \\\", \\\\, \\uXXXX "
                       "or \\UXXXXXXXX");
    assert_parse_error("resource a \"t:i:R\" {\n}\nresource a \"t:i:R\" {\n}\n",
                       "bad.pp:3:1: 'a' is declared twice; every resource, component and config needs its own name");
    assert_parse_error("resource a \"t:i:R\" {\n    x = 1\n", "bad.pp:1:20: unterminated block: add the closing '}'");
    assert_parse_error("resource a \"t:i:R\" {\n    nested {\n    }\n}\n",
                       "bad.pp:2:5: unsupported block 'nested' here; only resources and components have a nested "
                       "block, 'options', and packages one, 'parameterization'");
    assert_parse_error("/* open", "bad.pp:1:1: unterminated /* comment");
}
END_TEST

START_TEST(test_bind_errors) {
    const char *text = "resource x \"importer:nope/nope:Nope\" {\n}\n"
                       "resource y \"other:index:Thing\" {\n}\n"
                       "resource z \"importer:s3/bucket:Bucket\" {\n    bogus = 1\n    acl = \"private\"\n}\n"
                       "resource prov \"pulumi:providers:random\" {\n}\n";
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(text, strlen(text), "b.pp", &d);
    ck_assert_ptr_nonnull(p);
    schema_set_t *s = load_schemas();
    ck_assert(!pcl_bind(p, s, &d));
    ck_assert_int_eq(d.errors, 3);
    ck_assert_str_eq(
        d.head->message,
        "resource 'x' has unknown type 'importer:nope/nope:Nope': the importer schema has no such resource");
    ck_assert_str_eq(d.head->next->message, "resource 'y' has unknown type 'other:index:Thing': no schema for package "
                                            "'other' is loaded");
    ck_assert_str_eq(d.head->next->next->message, "resource 'z' of type 'importer:s3/bucket:Bucket' has no input "
                                                  "property 'bogus'; check its spelling in the schema");
    ck_assert_ptr_nonnull(p->nodes[2].schema);
    ck_assert_int_eq(p->nodes[2].attrs[1].value->type->kind, SCHEMA_STRING);
    ck_assert_ptr_nonnull(p->nodes[3].schema);
    ck_assert(p->nodes[3].schema->is_provider);
    pcl_program_free(p);
    schema_set_free(s);
    diag_list_free(&d);
}
END_TEST

START_TEST(test_expr_to_value_assets) {
    const char *text = "package p {\n"
                       "    a = fileAsset(\"./f.txt\")\n"
                       "    b = stringAsset(\"hi\")\n"
                       "    c = remoteArchive(\"https://x/y.zip\")\n"
                       "    d = assetArchive({\n        \"k\" = fileArchive(\"dir\")\n    })\n"
                       "    e = secret([1, null, true])\n"
                       "    f = unknownFn(1)\n"
                       "}\n";
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(text, strlen(text), "v.pp", &d);
    ck_assert_ptr_nonnull(p);
    arena_t *a = arena_new();
    const pcl_attr_t *at = p->nodes[0].attrs;
    pv_t *v = pcl_expr_to_value(a, at[0].value);
    ck_assert(v->kind == PV_ASSET && strcmp(v->u.asset.path, "./f.txt") == 0);
    v = pcl_expr_to_value(a, at[1].value);
    ck_assert(v->kind == PV_ASSET && strcmp(v->u.asset.text, "hi") == 0);
    v = pcl_expr_to_value(a, at[2].value);
    ck_assert(v->kind == PV_ARCHIVE && strcmp(v->u.archive.uri, "https://x/y.zip") == 0);
    v = pcl_expr_to_value(a, at[3].value);
    ck_assert(v->kind == PV_ARCHIVE && v->u.archive.has_assets && v->u.archive.nassets == 1);
    ck_assert_str_eq(v->u.archive.assets[0].value->u.archive.path, "dir");
    v = pcl_expr_to_value(a, at[4].value);
    ck_assert(v->kind == PV_SECRET && v->u.secret.inner->kind == PV_ARRAY && v->u.secret.inner->u.arr.len == 3);
    ck_assert_ptr_null(pcl_expr_to_value(a, at[5].value));
    arena_free(a);
    pcl_program_free(p);
    diag_list_free(&d);
}
END_TEST

static Suite *pcl_suite(void) {
    Suite *s = suite_create("pcl");
    TCase *tc = tcase_create("cases");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_cases_round_trip_each_literal);
    tcase_add_test(tc, test_cases_round_trip_each_config);
    tcase_add_test(tc, test_cases_round_trip_one_program);
    tcase_add_test(tc, test_cases_secrets_and_names);
    tcase_add_test(tc, test_cases_golden_text);
    suite_add_tcase(s, tc);
    tc = tcase_create("text");
    tcase_add_test(tc, test_reference_by_id_and_order);
    tcase_add_test(tc, test_reference_name_arn_ambiguous_self);
    tcase_add_test(tc, test_reference_cycle_broken_at_one_edge);
    tcase_add_test(tc, test_cycle_through_parent_breaks_a_reference);
    tcase_add_test(tc, test_names_sanitized_unique_logical);
    tcase_add_test(tc, test_literals_escapes_numbers);
    tcase_add_test(tc, test_options_component_package);
    tcase_add_test(tc, test_repeated_literals_shared);
    tcase_add_test(tc, test_secrets_config_never_in_text);
    tcase_add_test(tc, test_gen_outputs_needed_generates_the_same);
    tcase_add_test(tc, test_generate_types_and_missing_schema);
    tcase_add_test(tc, test_explicit_provider_ordered_first);
    tcase_add_test(tc, test_reference_ring_keeps_all_but_one);
    tcase_add_test(tc, test_nested_secret_and_unknown_values);
    suite_add_tcase(s, tc);
    tc = tcase_create("parse");
    tcase_add_test(tc, test_parse_full_subset);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_parse_language);
    tcase_add_test(tc, test_bind_errors);
    tcase_add_test(tc, test_expr_to_value_assets);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(pcl_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

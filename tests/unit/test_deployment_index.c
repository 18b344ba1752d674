/* test_deployment_index.c — the indexed stack-state reader (deployment_load_indexed) against the
 * whole-document one (deployment_load): on every shared stack export, state and checkpoint they give
 * the same resources, the same inputs and outputs and the same import file; on the 67 of them holding
 * resources of a package with a shared schema, the same generated PCL and TypeScript byte for byte
 * through the offline provider (Terraform states have no indexed reader and are not compared here); bad big input (a
 * state cut off mid-resource, a file changed after indexing, damaged JSON) gets a clear error and no deployment. Also
 * the scanner itself. */
#include <check.h>
#include <cjson/cJSON.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emitters/emit.h"
#include "importer/engine.h"
#include "importer/offline.h"
#include "migrate/convert.h"
#include "pcl/pcl.h"
#include "specs/deployment.h"
#include "specs/jsonscan.h"
#include "specs/schema.h"
#include "testutil.h"

/* Every shared schema of a package the shared states hold (aws: a subset, gcp: an older version —
 * resources they lack are refused alike by both readers, and each resource's status is compared
 * too). azure, cloud and awsx resources have no shared schema: their files compare no code. */
static const char *SCHEMAS[] = {"random/schema.json",     "tls/schema.json",
                                "command/schema.json",    "digitalocean/schema.json",
                                "azuread/schema.json",    "aws-subset-phillipedwards/schema.json",
                                "gcp/schema-v2.11.1.json"};

static schema_set_t *shared_schemas(arena_t *a) {
    diag_list_t d;
    diag_list_init(&d);
    schema_set_t *set = schema_set_new();
    for (size_t i = 0; i < sizeof SCHEMAS / sizeof *SCHEMAS; i++) {
        char *p = arena_sprintf(a, "schemas/%s", SCHEMAS[i]);
        ck_assert(schema_set_add_path(set, tu_data(a, p), &d));
    }
    diag_list_free(&d);
    return set;
}

static void assert_same_str(const char *x, const char *y, const char *what, const char *file) {
    if (!x || !y) {
        if (x != y) ck_abort_msg("%s: %s differs (%s vs %s)", file, what, x ? x : "NULL", y ? y : "NULL");
        return;
    }
    if (strcmp(x, y) != 0) ck_abort_msg("%s: %s differs (%s vs %s)", file, what, x, y);
}

/* The statuses and the PCL (or TypeScript) of every custom resource of the state through the offline
 * provider (tu_offline_import); NULL when the state has none with a schema. */
static char *generate(arena_t *a, const deployment_t *dep, schema_set_t *schemas, bool ts, bool trim) {
    tu_import_t *imp = tu_offline_import(a, dep, schemas);
    if (!imp) return NULL;
    lang_t lang = ts ? LANG_TYPESCRIPT : LANG_PCL;
    char *code = tu_import_code(a, imp, 0, tu_import_count(imp), schemas, &lang, 1, trim);
    char *out = arena_sprintf(a, "%s\n%s", tu_import_statuses(a, imp), code ? code : "");
    tu_import_free(imp);
    return out;
}

static void compare_file(arena_t *a, const char *path, schema_set_t *schemas, size_t *resources, size_t *programs) {
    diag_list_t d1, d2;
    diag_list_init(&d1);
    diag_list_init(&d2);
    deployment_t *full = deployment_load(a, path, &d1);
    bool not_pulumi = true;
    deployment_t *idx = deployment_load_indexed(a, path, &not_pulumi, &d2);
    ck_assert(!not_pulumi);
    if (!full) {
        /* Both refuse, with the same message when the document itself is fine JSON. */
        if (idx) ck_abort_msg("%s: the indexed reader accepted what the full one refused: %s", path, d1.head->message);
        ck_assert_ptr_nonnull(d2.head);
        diag_list_free(&d1);
        diag_list_free(&d2);
        return;
    }
    if (!idx) ck_abort_msg("%s: indexed reader refused: %s", path, d2.head ? d2.head->message : "?");
    ck_assert(idx->indexed);
    ck_assert_int_eq(full->version, idx->version);
    ck_assert_int_eq(full->is_checkpoint, idx->is_checkpoint);
    assert_same_str(full->stack, idx->stack, "stack", path);
    assert_same_str(full->project, idx->project, "project", path);
    ck_assert_int_eq(full->n_resources, idx->n_resources);
    for (size_t i = 0; i < full->n_resources; i++) {
        const state_resource_t *f = &full->resources[i], *x = &idx->resources[i];
        assert_same_str(f->urn, x->urn, "urn", path);
        assert_same_str(f->type, x->type, "type", path);
        assert_same_str(f->id, x->id, "id", path);
        assert_same_str(f->parent, x->parent, "parent", path);
        assert_same_str(f->provider, x->provider, "provider", path);
        ck_assert_int_eq(f->custom, x->custom);
        ck_assert_int_eq(f->protect, x->protect);
        ck_assert_int_eq(f->del, x->del);
        ck_assert_int_eq(f->external, x->external);
        ck_assert_int_eq(f->retain_on_delete, x->retain_on_delete);
        ck_assert_int_eq(f->n_dependencies, x->n_dependencies);
        for (size_t k = 0; k < f->n_dependencies; k++)
            assert_same_str(f->dependencies[k], x->dependencies[k], "dependency", path);
        ck_assert(x->lazy && !x->inputs && !x->outputs);
        pv_t *in, *out;
        if (!deployment_resource_read(idx, x, a, &in, &out, &d2))
            ck_abort_msg("%s: %s: %s", path, x->urn, d2.head ? d2.head->message : "?");
        if (!pv_equal(in, f->inputs) || !pv_equal(out, f->outputs))
            ck_abort_msg("%s: resource %s: properties differ", path, x->urn);
        (*resources)++;
    }
    /* The same import file from `convert --from pulumi`, byte for byte (providers' configuration is
     * read from the indexed file's ranges). */
    convert_report_t r1 = {0}, r2 = {0};
    import_file_t *f1 = convert_deployment_to_import_file(a, full, &r1, &d1);
    import_file_t *f2 = convert_deployment_to_import_file(a, idx, &r2, &d2);
    ck_assert_int_eq(f1 != NULL, f2 != NULL);
    if (f1) {
        char *j1 = import_file_to_json(f1), *j2 = import_file_to_json(f2);
        if (strcmp(j1, j2) != 0) ck_abort_msg("%s: the indexed state converts to another import file", path);
        free(j1);
        free(j2);
    }
    ck_assert_int_eq(r1.n_entries, r2.n_entries);
    ck_assert_int_eq(r1.providers, r2.providers);
    /* The same code, byte for byte. */
    for (int ts = 0; ts < 2; ts++) {
        char *p1 = generate(a, full, schemas, ts, false), *p2 = generate(a, idx, schemas, ts, false);
        char *p3 = generate(a, idx, schemas, ts, true);
        if (!p1 || !p2 || !p3) {
            ck_assert(p1 == p2 && p2 == p3);
            continue;
        }
        if (strcmp(p1, p2) != 0) ck_abort_msg("%s: generated %s differs", path, ts ? "TypeScript" : "PCL");
        if (strcmp(p1, p3) != 0)
            ck_abort_msg("%s: generated %s differs from the trimmed state's", path, ts ? "TypeScript" : "PCL");
        (*programs)++;
    }
    deployment_free(full);
    deployment_free(idx);
    diag_list_free(&d1);
    diag_list_free(&d2);
}

START_TEST(test_indexed_equals_full_on_shared_states) {
    arena_t *a = arena_new();
    schema_set_t *schemas = shared_schemas(a);
    size_t n1, n2, n3;
    char **stacks = tu_find_files(a, tu_data(a, "pulumi-state"), "/stack.json", &n1);
    char **states = tu_find_files(a, tu_data(a, "pulumi-state"), "/state.json", &n2);
    char **cps = tu_find_files(a, tu_data(a, "checkpoints"), ".json", &n3);
    ck_assert_int_ge(n1 + n2, 70);
    ck_assert_int_ge(n3, 6);
    size_t files = 0, resources = 0, programs = 0;
    char **lists[] = {stacks, states, cps};
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; lists[l][i]; i++, files++)
            compare_file(a, lists[l][i], schemas, &resources, &programs);
    ck_assert_int_ge(resources, 400);
    /* 134 of 168 (84 files x PCL, TypeScript): the files whose resources all lack a shared schema
     * (azure, cloud, awsx, pulumi-internal types only) give no program */
    ck_assert_int_ge(programs, 134);
    schema_set_free(schemas);
    arena_free(a);
}
END_TEST

/* The index holds a text many resources repeat once: every resource of a stack export names its
 * type, its parent (the stack, mostly) and its provider, and at a million resources a copy each was
 * about 0.2 KB a resource of the run's peak. Resources that repeat one share it (one pointer); an
 * escaped text reads as it decodes, and different texts stay apart. */
START_TEST(test_index_shares_repeated_texts) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/s.json", dir);
    const char *fmt = "{\"urn\": \"urn:pulumi:dev::p::%s::r%d\", \"type\": \"%s\", \"custom\": true, "
                      "\"id\": \"id-%d\", \"parent\": \"urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev\", "
                      "\"provider\": \"urn:pulumi:dev::p::pulumi:providers:random::default::prov-%s\"}";
    const char *pet = "random:index/randomPet:RandomPet", *str = "random:index/randomString:RandomString";
    buf_t doc = {0};
    buf_puts(&doc, "{\"version\": 3, \"deployment\": {\"resources\": [");
    for (int i = 0; i < 6; i++) {
        const char *type = i % 2 ? str : pet;
        /* the fifth resource writes its type and provider with escapes: the same texts decoded */
        const char *written = i == 4 ? "random:index\\/randomPet:RandomPet" : type;
        buf_printf(&doc, "%s", i ? ", " : "");
        buf_printf(&doc, fmt, type, i, written, i, i == 4 ? "\\u0031" : i == 5 ? "2" : "1");
    }
    buf_puts(&doc, "]}}");
    ck_assert(tu_write(path, doc.data));
    buf_free(&doc);
    diag_list_t d;
    diag_list_init(&d);
    bool not_pulumi;
    deployment_t *dep = deployment_load_indexed(a, path, &not_pulumi, &d);
    ck_assert_ptr_nonnull(dep);
    ck_assert_uint_eq(dep->n_resources, 6);
    const state_resource_t *r = dep->resources;
    for (size_t i = 0; i < 6; i++) {
        ck_assert_str_eq(r[i].type, i % 2 ? str : pet);
        ck_assert_str_eq(r[i].parent, "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev");
        ck_assert_str_eq(r[i].provider, i == 5 ? "urn:pulumi:dev::p::pulumi:providers:random::default::prov-2"
                                               : "urn:pulumi:dev::p::pulumi:providers:random::default::prov-1");
        ck_assert_str_eq(r[i].id, arena_sprintf(a, "id-%zu", i));
    }
    /* shared where the text repeats */
    ck_assert_ptr_eq(r[0].type, r[2].type);
    ck_assert_ptr_eq(r[0].type, r[4].type);
    ck_assert_ptr_eq(r[1].type, r[3].type);
    ck_assert_ptr_ne(r[0].type, r[1].type);
    for (size_t i = 1; i < 6; i++)
        ck_assert_ptr_eq(r[i].parent, r[0].parent);
    ck_assert_ptr_eq(r[0].provider, r[3].provider);
    ck_assert_ptr_eq(r[0].provider, r[4].provider);
    ck_assert_ptr_ne(r[0].provider, r[5].provider);
    deployment_free(dep);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* Member names written with escapes ("\u0063ustom" is `custom`, as cJSON and Go's decoder read it):
 * the indexed reader finds them as the whole-document one does. It skipped escaped names, so an
 * escaped `custom` made the resource non-custom, an escaped `id` dropped the ID, and an escaped
 * `deployment`, `latest` or `resources` was not found at all (fuzz_stackstate's differential). */
START_TEST(test_escaped_member_names) {
    arena_t *a = arena_new();
    schema_set_t *schemas = shared_schemas(a);
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/s.json", dir);
    const char *res = "{\"urn\": \"urn:pulumi:dev::p::random:index/randomPet:RandomPet::pet\", "
                      "\"\\u0074ype\": \"random:index/randomPet:RandomPet\", \"\\u0063ustom\": true, "
                      "\"\\u0069d\": \"pet-1\", \"pr\\u006ftect\": true, \"\\u0064ependencies\": [\"x\"], "
                      "\"\\u0069nputs\": {\"length\": 2}, \"outputs\": {\"length\": 2, \"id\": \"pet-1\"}}";
    const char *docs[] = {
        "{\"version\": 3, \"deployment\": {\"resources\": [%s]}}",
        "{\"version\": 3, \"\\u0064eployment\": {\"resources\": [%s]}}",
        "{\"version\": 3, \"deployment\": {\"\\u0072esources\": [%s]}}",
        "{\"version\": 3, \"checkpoint\": {\"\\u006catest\": {\"resources\": [%s]}}}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        ck_assert(tu_write(path, arena_sprintf(a, docs[i], res)));
        diag_list_t d;
        diag_list_init(&d);
        deployment_t *full = deployment_load(a, path, &d);
        ck_assert_msg(full && full->n_resources == 1, "document %zu", i);
        const state_resource_t *r = &full->resources[0];
        ck_assert(r->custom && r->protect && r->id && strcmp(r->id, "pet-1") == 0 && r->n_dependencies == 1);
        deployment_free(full);
        diag_list_free(&d);
        size_t resources = 0, programs = 0;
        compare_file(a, path, schemas, &resources, &programs);
        ck_assert_uint_eq(resources, 1);
    }
    tu_rmtree(dir);
    free(dir);
    schema_set_free(schemas);
    arena_free(a);
}
END_TEST

/* A document with more than one container (`deployment`, `latest`, `checkpoint.latest`): the indexed
 * reader reads the one the whole-document reader reads (`deployment` when there is a version, else
 * `latest`). It indexed whichever came first, so these read a resource the other reader did not see
 * (fuzz_stackstate's differential), and refused a bad resource in the container that is not read. */
START_TEST(test_several_containers) {
    arena_t *a = arena_new();
    schema_set_t *schemas = shared_schemas(a);
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/s.json", dir);
    const char *pet = "{\"urn\": \"urn:pulumi:dev::p::random:index/randomPet:RandomPet::pet\", \"type\": "
                      "\"random:index/randomPet:RandomPet\", \"custom\": true, \"id\": \"pet-1\"}";
    struct {
        const char *doc;
        size_t n; /* resources read */
    } cases[] = {
        {"{\"version\": 3, \"latest\": {\"resources\": [%s]}, \"deployment\": {}}", 0},
        {"{\"version\": 3, \"checkpoint\": {\"latest\": {\"resources\": [%s]}}, \"deployment\": {\"resources\": []}}",
         0},
        {"{\"version\": 3, \"deployment\": {\"resources\": []}, \"checkpoint\": {\"latest\": {\"resources\": [%s]}}}",
         0},
        {"{\"version\": 3, \"latest\": {\"resources\": [%s]}, \"checkpoint\": {\"latest\": {\"resources\": []}}}", 0},
        {"{\"latest\": {\"resources\": [%s]}, \"deployment\": {\"resources\": [7]}}", 1},
        {"{\"version\": 3, \"latest\": {\"resources\": [5]}, \"deployment\": {\"resources\": [%s]}}", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ck_assert(tu_write(path, arena_sprintf(a, cases[i].doc, pet)));
        diag_list_t d;
        diag_list_init(&d);
        deployment_t *full = deployment_load(a, path, &d);
        ck_assert_msg(full && full->n_resources == cases[i].n, "case %zu", i);
        deployment_free(full);
        diag_list_free(&d);
        size_t resources = 0, programs = 0;
        compare_file(a, path, schemas, &resources, &programs);
        ck_assert_uint_eq(resources, cases[i].n);
    }
    tu_rmtree(dir);
    free(dir);
    schema_set_free(schemas);
    arena_free(a);
}
END_TEST

static const char *load_fail(arena_t *a, const char *path, int *line) {
    diag_list_t d;
    diag_list_init(&d);
    bool np;
    deployment_t *dep = deployment_load_indexed(a, path, &np, &d);
    ck_assert_ptr_null(dep);
    ck_assert(!np);
    ck_assert_int_ge(d.errors, 1);
    const char *msg = arena_strdup(a, d.head->message);
    if (line) *line = d.head->line;
    diag_list_free(&d);
    return msg;
}

/* A real export's last resource repeated n times (URNs ...::r<i>), as text (malloc'd): pretty-printed,
 * or (numbered) on one line with inputs and outputs of each its own (seq = its index). */
static char *repeated_state(arena_t *a, int n, bool numbered) {
    size_t n_files;
    char **stacks = tu_find_files(a, tu_data(a, "pulumi-state/pulumi-digitalocean"), "/stack.json", &n_files);
    ck_assert_int_ge(n_files, 1);
    size_t len;
    char *one = tu_read(stacks[0], &len);
    cJSON *doc = cJSON_Parse(one);
    free(one);
    cJSON *res = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "deployment"), "resources");
    cJSON *proto = cJSON_Duplicate(cJSON_GetArrayItem(res, cJSON_GetArraySize(res) - 1), true);
    while (cJSON_GetArraySize(res) > 0)
        cJSON_DeleteItemFromArray(res, 0);
    for (int i = 0; i < n; i++) {
        cJSON *c = cJSON_Duplicate(proto, true);
        cJSON_ReplaceItemInObject(c, "urn", cJSON_CreateString(arena_sprintf(a, "urn:pulumi:dev::p::t:m:T::r%d", i)));
        if (numbered) {
            cJSON *in = cJSON_GetObjectItem(c, "inputs");
            if (!in) cJSON_AddItemToObject(c, "inputs", in = cJSON_CreateObject());
            cJSON_AddNumberToObject(in, "seq", i);
            cJSON *out = cJSON_GetObjectItem(c, "outputs");
            if (!out) cJSON_AddItemToObject(c, "outputs", out = cJSON_CreateObject());
            cJSON_AddStringToObject(out, "seqText", arena_sprintf(a, "resource %d", i));
        }
        cJSON_AddItemToArray(res, c);
    }
    char *text = numbered ? cJSON_PrintUnformatted(doc) : cJSON_Print(doc);
    cJSON_Delete(doc);
    cJSON_Delete(proto);
    return text;
}

/* A real export repeated to 3,000 resources, cut off inside resource #1234. */
START_TEST(test_state_cut_mid_resource) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *text = repeated_state(a, 3000, false);
    /* where resource #1234 starts: its URN's line */
    char *at = strstr(text, "::r1234\"");
    ck_assert_ptr_nonnull(at);
    char *path = arena_sprintf(a, "%s/cut.json", dir);
    /* cut a little after its URN */
    size_t cut = (size_t)(at - text) + 40;
    char saved = text[cut];
    text[cut] = 0;
    ck_assert(tu_write(path, text));
    text[cut] = saved;
    int line;
    const char *msg = load_fail(a, path, &line);
    ck_assert_msg(strstr(msg, "resource #1234") && strstr(msg, "cut off"), "%s", msg);
    ck_assert_int_gt(line, 1000);
    /* The whole document is fine: 3,000 resources. */
    ck_assert(tu_write(path, text));
    diag_list_t d;
    diag_list_init(&d);
    bool np;
    deployment_t *dep = deployment_load_indexed(a, path, &np, &d);
    ck_assert_ptr_nonnull(dep);
    ck_assert_int_eq(dep->n_resources, 3000);
    /* The file changes after indexing: reading a resource says so instead of using wrong bytes. */
    char *shifted = arena_sprintf(a, "   %s", text);
    ck_assert(tu_write(path, shifted));
    pv_t *in, *out;
    ck_assert(!deployment_resource_read(dep, &dep->resources[10], a, &in, &out, &d));
    ck_assert_ptr_nonnull(strstr(d.tail->message, "changed while it was being read"));
    deployment_free(dep);
    diag_list_free(&d);
    free(text);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

static void read_both(arena_t *a, const deployment_t *ref, deployment_t *dep, size_t i, diag_list_t *d) {
    pv_t *in1, *out1, *in2, *out2;
    ck_assert(deployment_resource_read(ref, &ref->resources[i], a, &in1, &out1, d));
    ck_assert(deployment_resource_read(dep, &dep->resources[i], a, &in2, &out2, d));
    if (!pv_equal(in1, in2) || !pv_equal(out1, out2)) ck_abort_msg("resource %zu: read-ahead values differ", i);
    const pv_t *seq = pv_object_get(in2, "seq");
    ck_assert(seq && seq->kind == PV_NUMBER && seq->u.n == (double)i); /* its own, not a neighbour's */
}

/* Read-ahead (deployment_read_ahead): the same values as reading without it, whatever the order the
 * resources are read in (in order, out of order, twice, one it was not told of); never more than its
 * window parsed and unread; stopped cleanly with resources unread (ASan/LSan check the memory); and a
 * file changed after indexing gets the same error through the worker as without it. */
START_TEST(test_read_ahead_agrees_and_stays_in_window) {
    enum { N = 2000 };
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/numbered.json", dir);
    char *state = repeated_state(a, N, true);
    ck_assert(tu_write(path, state));
    free(state);
    diag_list_t d;
    diag_list_init(&d);
    bool np;
    deployment_t *ref = deployment_load_indexed(a, path, &np, &d);
    deployment_t *dep = deployment_load_indexed(a, path, &np, &d);
    ck_assert(ref && dep && dep->n_resources == N);
    size_t *order = malloc(N * sizeof *order), n = 0;
    for (size_t i = 0; i < N; i++)
        if (i != 5) order[n++] = i == 99 ? 100 : i == 100 ? 99 : i; /* 5 left out; 99 and 100 swapped */
    /* nothing to read ahead */
    ck_assert(!deployment_read_ahead(ref, order, 0));
    ck_assert(deployment_read_ahead(dep, order, n));
    ck_assert(!deployment_read_ahead(dep, order, n)); /* one at a time */
    for (size_t i = 0; i < N; i++) {
        read_both(a, ref, dep, i, &d);
        if (i == 7 || i == 1500) read_both(a, ref, dep, i, &d); /* read again: parsed again */
        if (i == 300) read_both(a, ref, dep, 1900, &d);         /* far ahead of the worker */
    }
    ck_assert_int_eq(d.count, 0);
    size_t peak = deployment_read_ahead_peak(dep);
    ck_assert_uint_ge(peak, 1);
    ck_assert_uint_le(peak, DEPLOYMENT_READ_AHEAD + 1); /* +1: resource 1900, claimed ahead of it */
    ck_assert(deployment_read_ahead_end(dep));
    ck_assert(!deployment_read_ahead_end(dep));
    read_both(a, ref, dep, 42, &d); /* read as without it */
    deployment_free(dep);

    /* Stopped with most of it unread. */
    dep = deployment_load_indexed(a, path, &np, &d);
    ck_assert(deployment_read_ahead(dep, order, n));
    for (size_t i = 0; i < 10; i++)
        read_both(a, ref, dep, i, &d);
    deployment_free(dep);

    /* The file changes after indexing: the worker's reads say so, as a reader's would. */
    dep = deployment_load_indexed(a, path, &np, &d);
    size_t len;
    char *text = tu_read(path, &len);
    ck_assert(tu_write(path, arena_sprintf(a, "   %s", text)));
    free(text);
    ck_assert(deployment_read_ahead(dep, order, n));
    for (size_t i = 0; i < 10; i++) {
        pv_t *in, *out;
        diag_list_t e;
        diag_list_init(&e);
        ck_assert(!deployment_resource_read(dep, &dep->resources[i], a, &in, &out, &e));
        ck_assert_int_eq(e.count, 1);
        ck_assert_ptr_nonnull(strstr(e.head->message, "changed while it was being read"));
        ck_assert_ptr_nonnull(strstr(e.head->message, arena_sprintf(a, "::r%zu'", i)));
        diag_list_free(&e);
    }
    deployment_free(dep);
    deployment_free(ref);
    free(order);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* What the read-ahead holds for the resources it is not parsing: a slot each of 16 bytes, the values
 * of one it parsed kept apart until read (a slot each of 72 bytes was 72 MB of a million-resource
 * import's peak). Told of one resource of 20,000, it holds about 20,000 slots and that one. */
START_TEST(test_read_ahead_slots_are_small) {
    enum { N = 20000 };
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/numbered.json", dir);
    char *state = repeated_state(a, N, true);
    ck_assert(tu_write(path, state));
    free(state);
    diag_list_t d;
    diag_list_init(&d);
    bool np;
    deployment_t *dep = deployment_load_indexed(a, path, &np, &d);
    ck_assert(dep && dep->n_resources == N);
    size_t one = 17;
    struct mallinfo2 before = mallinfo2();
    ck_assert(deployment_read_ahead(dep, &one, 1));
    while (deployment_read_ahead_peak(dep) == 0) /* the one parsed */
        usleep(1000);
    struct mallinfo2 after = mallinfo2();
    ck_assert_uint_lt(after.uordblks - before.uordblks, (size_t)N * 24);
    pv_t *in, *out;
    ck_assert(deployment_resource_read(dep, &dep->resources[one], a, &in, &out, &d));
    const pv_t *seq = pv_object_get(in, "seq");
    ck_assert(seq && seq->kind == PV_NUMBER && seq->u.n == (double)one);
    deployment_free(dep);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

START_TEST(test_bad_documents) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/s.json", dir);
    struct {
        const char *text, *expect;
        int line;
    } cases[] = {
        {"", "not valid JSON", 0}, /* empty: the whole-file reader's message */
        {"[1,2]", "not a JSON object", 0},
        {"{\"version\": 3, \"deployment\": {\"resources\": [{\"urn\": \"u\", \"type\": \"t\"},\n 7]}}",
         "resource #1 of the stack state is not a JSON object", 0},
        {"{\"version\": 3, \"deployment\": {\"resources\": [{\"type\": \"t\"}]}}", "has no `urn`", 0},
        {"{\"version\": 3, \"deployment\": {\"resources\": [{\"urn\": \"u\", \"type\": \"t\", \"inputs\": {\"a\": "
         "01}}]}}",
         "resource #0", 1},
        {"{\"version\": 3,\n \"deployment\": {\"resources\": []}} x", "end of the text", 2},
        {"{\"version\": 3, \"deployment\": {\"resources\": [{\"urn\": \"u\", \"type\": \"t\", \"inputs\": {\"a\": "
         "\"\x01\"}}]}}",
         "control character", 1},
        {"{\"version\": 9, \"deployment\": {\"resources\": []}}", "newer than this cimport", 0},
        {"{\"version\": 3, \"deployment\": {\"resources\": 5}}", "`resources` is not an array", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ck_assert(tu_write(path, cases[i].text));
        int line = 0;
        const char *msg = load_fail(a, path, &line);
        if (!strstr(msg, cases[i].expect)) ck_abort_msg("case %zu: %s", i, msg);
        if (cases[i].line) ck_assert_int_eq(line, cases[i].line);
    }
    /* Not a Pulumi state (a Terraform state): no diagnostic, not_pulumi set. */
    ck_assert(tu_write(path, "{\"version\": 4, \"lineage\": \"x\", \"serial\": 1, \"resources\": []}"));
    diag_list_t d;
    diag_list_init(&d);
    bool np = false;
    ck_assert_ptr_null(deployment_load_indexed(a, path, &np, &d));
    ck_assert(np);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* What the scanner accepts cJSON accepts (the scanner is stricter on numbers: "1.e5"); the valid
 * documents (the first six) both accept. */
START_TEST(test_scanner_agrees_with_cjson) {
    const char *docs[] = {
        "{}",
        "[]",
        "{\"a\":[1,2.5,-3e+2,true,false,null,\"x\\u00e9\\n\"]}",
        "[[[[]]]]",
        " 0 ",
        "\"\\\"\"",
        "{\"a\":1,}",
        "[1,]",
        "[1 2]",
        "{\"a\" 1}",
        "{a:1}",
        "\"\\x\"",
        "\"abc",
        "[",
        "tru",
        "nul",
        "-",
        "1.e5",
        "[\"\\ud834\"]",
        "[\"\\udd1e\"]",
        "[\"\\ud834\\udd1e\"]",
        "[\"\\u12G4\"]",
        "[\"\\ud834\\uZZZZ\"]",
        "[\"\\ud834\\u0041\"]",
        "[\"\\ud834\\u\"]",
        "{\"k\":{\"n\":[{}]}}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        jscan_t s;
        jscan_init(&s, docs[i], strlen(docs[i]));
        bool ok = jscan_value(&s, NULL) && jscan_end(&s);
        cJSON *j = cJSON_ParseWithOpts(docs[i], NULL, true);
        bool cj = j != NULL;
        cJSON_Delete(j);
        if ((ok && !cj) || (i < 6 && !ok) || (!cj && ok != cj))
            ck_abort_msg("'%s': scanner %d, cJSON %d (%s)", docs[i], ok, cj, s.err ? s.err : "");
    }
    /* Strings are read eight bytes at a time: a closing quote, an escape, a raw control character
     * (refused; cJSON lets it through) or a UTF-8 byte (accepted) at every offset of a word, after
     * every run length — and an accepted string ends where cJSON's does. */
    for (int pad = 0; pad < 20; pad++) {
        const char *tails[] = {"\"", "\\n\"", "\\u00e9\"", "\x01\"", "\x1f\"", "\t\"", "\xc3\xa9\"", "\x7f\""};
        for (size_t k = 0; k < sizeof tails / sizeof *tails; k++) {
            char doc[96];
            snprintf(doc, sizeof doc, "[\"%.*s%s,1]", pad, "abcdefghijklmnopqrstuvwxyz", tails[k]);
            jscan_t w;
            jscan_init(&w, doc, strlen(doc));
            bool ok = jscan_value(&w, NULL) && jscan_end(&w);
            cJSON *j = cJSON_ParseWithOpts(doc, NULL, true);
            bool cj = j != NULL;
            if (cj) ck_assert_int_eq(cJSON_GetArraySize(j), 2); /* the string ended where cJSON's did */
            cJSON_Delete(j);
            ck_assert_msg(!ok || cj, "'%s': scanner %d, cJSON %d (%s)", doc, ok, cj, w.err ? w.err : "");
            ck_assert_msg(ok == (k != 3 && k != 4 && k != 5), "'%s': scanner %d", doc, ok);
        }
    }
    /* Nesting beyond the limit is refused, not a crash. */
    size_t deep = 5000;
    char *t = malloc(2 * deep + 1);
    memset(t, '[', deep);
    memset(t + deep, ']', deep);
    t[2 * deep] = 0;
    jscan_t s;
    jscan_init(&s, t, 2 * deep);
    ck_assert(!jscan_value(&s, NULL));
    free(t);
}
END_TEST

int main(void) {
    Suite *s = suite_create("deployment_index");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_indexed_equals_full_on_shared_states);
    tcase_add_test(tc, test_state_cut_mid_resource);
    tcase_add_test(tc, test_bad_documents);
    tcase_add_test(tc, test_escaped_member_names);
    tcase_add_test(tc, test_index_shares_repeated_texts);
    tcase_add_test(tc, test_several_containers);
    tcase_add_test(tc, test_read_ahead_agrees_and_stays_in_window);
    tcase_add_test(tc, test_read_ahead_slots_are_small);
    tcase_add_test(tc, test_scanner_agrees_with_cjson);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

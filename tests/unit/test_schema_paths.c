/* test_schema_paths.c — issue 17's acceptance for package schemas: the indexed loader (a structural
 * scan recording each token's byte range; what the CLI uses for every schema) agrees with a parse of
 * the whole document on every shared schema — every schema under ../shared/data/schemas and
 * ../shared/data/pulumi-importer/schemas, and every schema among tests/fixtures' JSON files — and
 * generates the same code byte for byte.
 *
 * 1. What the scan finds, against a reference of its own: each file is parsed whole with cJSON here,
 *    and the package schema_load_file gives (the mapped file, its strict check beside the scan) must
 *    have the header fields the loader takes (name, version, displayName, namespace, repository,
 *    pluginDownloadURL, meta.moduleFormat and supportPack, the language names the emitters read and the
 *    whole `language` block) and the header document itself (the provider in it); every resource,
 *    type and function token in order and count; each resource's aliases as the scan found them and
 *    as lookups resolve them; and for each token JSON equal to the tree's member (cJSON_Compare, and
 *    printed byte for byte). The shared data holds no schema of 8 MB or more, so a 9 MB one made of
 *    four copies of digitalocean's is checked the same way, scanned and then read back from the index
 *    cache.
 * 2. The same code: with (1) shown, schema_load_buffer_whole — the loader resolving every token from
 *    the whole tree's member — is the full-parse path. For every resource (components excepted) of
 *    every shared schema, a stack state holding it with each input and output property set to a value
 *    of its schema type (objects one level deep, secrets as secrets) is imported offline as the CLI
 *    does (tu_offline_import: plan, engine over the offline provider, pcl_generate) with each loader,
 *    and the statuses and the PCL, TypeScript, Python and Go of each resource compared byte for byte
 *    (a language's refusal compares its errors). Every function is called in a PCL program
 *    (`invoke` with each input set), bound against each loader and emitted in the same four
 *    languages: the same text. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/deployment.h"
#include "specs/schema.h"
#include "testutil.h"

static const lang_t LANGS[] = {LANG_PCL, LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO};
#define N_LANGS (sizeof LANGS / sizeof *LANGS)

typedef struct figures {
    size_t schemas, resources, types, functions, aliases, resource_programs, function_programs, components;
} figures_t;

static const char *jstr(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *jobj(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsObject(v) ? v : NULL;
}

static void same_str(const char *path, const char *what, const char *got, const char *want) {
    if (!got && !want) return;
    if (!got || !want || strcmp(got, want) != 0)
        ck_abort_msg("%s: %s: the index has %s%s%s, the document %s%s%s", path, what, got ? "\"" : "",
                     got ? got : "none", got ? "\"" : "", want ? "\"" : "", want ? want : "none", want ? "\"" : "");
}

static void same_json(const char *path, const char *what, const cJSON *got, const cJSON *want) {
    if (!got && !want) return;
    if (!got || !want) ck_abort_msg("%s: %s: %s", path, what, got ? "the document has none" : "the index has none");
    ck_assert_msg(cJSON_Compare(got, want, true), "%s: %s: the index's JSON is not the document's", path, what);
    char *g = cJSON_PrintUnformatted(got), *w = cJSON_PrintUnformatted(want);
    if (strcmp(g, w) != 0)
        ck_abort_msg("%s: %s: printed differently:\n%.300s\n--- the document:\n%.300s", path, what, g, w);
    free(g);
    free(w);
}

/* Whether a parsed document is a package schema as the loader defines one. */
static bool is_schema(const cJSON *doc) {
    const char *name = jstr(doc, "name");
    return name && *name &&
           (jobj(doc, "resources") || jobj(doc, "types") || jobj(doc, "provider") || jobj(doc, "functions"));
}

/* The alias tokens of a resource's JSON, as Pulumi's schema gives them: strings or {"type": ...}. */
static size_t doc_aliases(const cJSON *res, const char **out, size_t cap) {
    const cJSON *al = cJSON_GetObjectItemCaseSensitive(res, "aliases"), *x;
    size_t n = 0;
    if (!cJSON_IsArray(al)) return 0;
    cJSON_ArrayForEach(x, al) {
        const char *t = cJSON_IsString(x) ? x->valuestring : jstr(x, "type");
        if (t && n < cap) out[n++] = t;
    }
    return n;
}

/* (1): the indexed package against the whole document. */
static void check_scan(schema_package_t *pkg, const cJSON *doc, const char *path, figures_t *fig) {
    /* the header fields the loader takes */
    same_str(path, "name", pkg->name, jstr(doc, "name"));
    same_str(path, "version", pkg->version, jstr(doc, "version"));
    same_str(path, "displayName", pkg->display_name, jstr(doc, "displayName"));
    same_str(path, "namespace", pkg->namespace_, jstr(doc, "namespace"));
    same_str(path, "repository", pkg->repository, jstr(doc, "repository"));
    same_str(path, "pluginDownloadURL", pkg->plugin_download_url, jstr(doc, "pluginDownloadURL"));
    const cJSON *meta = jobj(doc, "meta"), *lang = jobj(doc, "language");
    const char *fmt = jstr(meta, "moduleFormat");
    same_str(path, "meta.moduleFormat", pkg->module_format, fmt ? fmt : "(.*)");
    ck_assert_int_eq(pkg->support_pack, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(meta, "supportPack")));
    same_str(path, "language.nodejs.packageName", pkg->nodejs_package_name, jstr(jobj(lang, "nodejs"), "packageName"));
    same_str(path, "language.python.packageName", pkg->python_package_name, jstr(jobj(lang, "python"), "packageName"));
    same_str(path, "language.python.inputTypes", pkg->python_input_types, jstr(jobj(lang, "python"), "inputTypes"));
    same_str(path, "language.go.importBasePath", pkg->go_import_base_path, jstr(jobj(lang, "go"), "importBasePath"));
    same_str(path, "language.csharp.rootNamespace", pkg->csharp_root_namespace,
             jstr(jobj(lang, "csharp"), "rootNamespace"));
    same_str(path, "language.java.basePackage", pkg->java_base_package, jstr(jobj(lang, "java"), "basePackage"));
    same_json(path, "language", pkg->language, lang);
    /* the header document: the whole one with its three indexed sections emptied */
    cJSON *head = cJSON_Duplicate(doc, true);
    const char *sections[3] = {"resources", "types", "functions"};
    for (int k = 0; k < 3; k++)
        if (jobj(head, sections[k])) cJSON_ReplaceItemInObjectCaseSensitive(head, sections[k], cJSON_CreateObject());
    same_json(path, "the document without its resources, types and functions", schema_indexed_header(pkg), head);
    cJSON_Delete(head);
    /* every token in order, with its JSON */
    schema_section_t secs[3] = {SCHEMA_SECTION_RESOURCES, SCHEMA_SECTION_TYPES, SCHEMA_SECTION_FUNCTIONS};
    size_t counts[3] = {schema_resource_count(pkg), schema_type_count(pkg), schema_function_count(pkg)};
    for (int k = 0; k < 3; k++) {
        size_t i = 0;
        const cJSON *m;
        cJSON_ArrayForEach(m, jobj(doc, sections[k])) {
            if (!cJSON_IsObject(m)) continue; /* not a resource, type or function: the loader skips it too */
            if (i >= counts[k]) ck_abort_msg("%s: %s: the index has %zu, the document more", path, sections[k], i);
            const char *tok = k == 0   ? schema_resource_token_at(pkg, i)
                              : k == 1 ? schema_type_token_at(pkg, i)
                                       : schema_function_token_at(pkg, i);
            if (strcmp(tok, m->string) != 0)
                ck_abort_msg("%s: %s #%zu: the index has %s, the document %s", path, sections[k], i, tok, m->string);
            same_json(path, tok, schema_indexed_json(pkg, secs[k], i), m);
            i++;
        }
        if (i != counts[k])
            ck_abort_msg("%s: %s: the index has %zu, the document %zu", path, sections[k], counts[k], i);
    }
    fig->resources += counts[0];
    fig->types += counts[1];
    fig->functions += counts[2];
    /* aliases: as the scan found them, and what a lookup of each finds (the first token wins: the
     * provider, then every resource's own token, then aliases in schema order) */
    char prov[512];
    snprintf(prov, sizeof prov, "pulumi:providers:%s", pkg->name);
    const schema_resource_t *p = schema_find_resource(pkg, prov);
    ck_assert_msg(p && p->is_provider, "%s: no provider resource", path);
    const cJSON *res = jobj(doc, "resources"), *m;
    size_t i = 0;
    cJSON_ArrayForEach(m, res) {
        if (!cJSON_IsObject(m)) continue;
        const char *want[256];
        size_t nw = doc_aliases(m, want, 256), ng;
        ck_assert_uint_le(nw, 255);
        const char *const *got = schema_indexed_aliases(pkg, i, &ng);
        if (ng != nw) ck_abort_msg("%s: %s: the index has %zu aliases, the document %zu", path, m->string, ng, nw);
        for (size_t j = 0; j < nw; j++) {
            same_str(path, m->string, got[j], want[j]);
            const char *owner = m->string;
            if (strcmp(want[j], prov) == 0)
                owner = prov;
            else if (jobj(res, want[j]))
                owner = want[j];
            else {
                /* an earlier resource naming the same alias keeps it */
                const cJSON *e;
                cJSON_ArrayForEach(e, res) {
                    if (e == m) break;
                    const char *other[256];
                    size_t no = cJSON_IsObject(e) ? doc_aliases(e, other, 256) : 0;
                    for (size_t o = 0; o < no && owner == m->string; o++)
                        if (strcmp(other[o], want[j]) == 0) owner = e->string;
                }
            }
            const schema_resource_t *r = schema_find_resource(pkg, want[j]);
            if (!r || strcmp(r->token, owner) != 0)
                ck_abort_msg("%s: alias %s of %s finds %s, not %s", path, want[j], m->string, r ? r->token : "nothing",
                             owner);
        }
        fig->aliases += nw;
        const schema_resource_t *r = schema_find_resource(pkg, m->string);
        ck_assert_msg(r && strcmp(r->token, m->string) == 0, "%s: %s does not find itself", path, m->string);
        i++;
    }
}

/* --- (2) values of a schema type ----------------------------------------------------------------- */

static pv_t *sample_value(arena_t *a, const schema_type_t *t, const char *name, int depth);

/* An object of every property given a value (secret ones as secrets); NULL past the depth. */
static pv_t *sample_object(arena_t *a, const schema_property_t *props, size_t n, int depth) {
    if (depth > 1) return NULL;
    pv_t *o = pv_object(a);
    for (size_t i = 0; i < n; i++) {
        pv_t *v = sample_value(a, props[i].type, props[i].name, depth);
        if (v) pv_object_set(a, o, props[i].name, props[i].secret ? pv_secret(a, v) : v);
    }
    return o;
}

static pv_t *state_json(arena_t *a, const char *text) {
    cJSON *j = cJSON_Parse(text);
    pv_t *v = pv_from_state_json(a, j, "sample", NULL);
    cJSON_Delete(j);
    return v;
}

static pv_t *sample_value(arena_t *a, const schema_type_t *t, const char *name, int depth) {
    if (!t) return pv_string(a, name);
    switch (t->kind) {
    case SCHEMA_BOOL: return pv_bool(a, true);
    case SCHEMA_INT: return pv_number(a, 42);
    case SCHEMA_NUMBER: return pv_number(a, 2.5);
    case SCHEMA_STRING:
    case SCHEMA_ANY:
    case SCHEMA_RESOURCE: return pv_string(a, arena_sprintf(a, "%s-value", name));
    case SCHEMA_ENUM: /* the last member: generation's zero value is the first */
        if (t->n_enum_values && t->enum_values[t->n_enum_values - 1].value)
            return pv_clone(a, t->enum_values[t->n_enum_values - 1].value);
        return sample_value(a, t->element, name, depth);
    case SCHEMA_ARRAY: {
        pv_t *e = sample_value(a, t->element, name, depth), *arr = pv_array(a);
        if (e) pv_array_push(a, arr, e);
        return arr;
    }
    case SCHEMA_MAP: {
        pv_t *e = sample_value(a, t->element, name, depth), *map = pv_object(a);
        if (e) pv_object_set(a, map, "key1", e);
        return map;
    }
    case SCHEMA_OBJECT:
        return t->object ? sample_object(a, t->object->props, t->object->n_props, depth + 1) : pv_object(a);
    case SCHEMA_UNION: return t->n_members ? sample_value(a, t->members[0], name, depth) : pv_string(a, name);
    case SCHEMA_JSON: return state_json(a, "{\"k\": [1, \"two\"]}");
    case SCHEMA_ASSET:
        return state_json(a, "{\"" PV_SIG_KEY "\": \"c44067f5952c0a294b673a41bacd8c17\", \"text\": \"hello\"}");
    case SCHEMA_ARCHIVE:
        return state_json(a, "{\"" PV_SIG_KEY "\": \"" PV_SIG_ARCHIVE "\", \"assets\": {\"a.txt\": {\"" PV_SIG_KEY
                             "\": \"c44067f5952c0a294b673a41bacd8c17\", \"text\": \"hello\"}}}");
    }
    return NULL;
}

/* A stack state holding every resource of the package (components excepted) with every input and
 * output property set. */
static deployment_t *sample_state(arena_t *a, schema_package_t *pkg, figures_t *fig) {
    size_t n = schema_resource_count(pkg);
    deployment_t *dep = arena_alloc(a, sizeof *dep);
    dep->version = 3;
    dep->resources = arena_alloc(a, (n ? n : 1) * sizeof *dep->resources);
    for (size_t i = 0; i < n; i++) {
        const char *tok = schema_resource_token_at(pkg, i);
        const schema_resource_t *r = schema_find_resource(pkg, tok);
        if (r->is_component) {
            fig->components++;
            continue;
        }
        state_resource_t *s = &dep->resources[dep->n_resources++];
        s->urn = arena_sprintf(a, "urn:pulumi:dev::p::%s::r%zu", tok, i);
        s->type = tok;
        s->id = arena_sprintf(a, "id-%zu", i);
        s->custom = true;
        s->inputs = sample_object(a, r->inputs, r->n_inputs, 0);
        s->outputs = sample_object(a, r->outputs, r->n_outputs, 0);
    }
    return dep;
}

/* The JSON of a function's inputs, every one set (a method's `__self__`, the resource, left out). */
static char *sample_args(arena_t *a, const schema_function_t *f) {
    pv_t *args = sample_object(a, f->inputs, f->n_inputs, 0);
    pv_object_remove(args, "__self__");
    cJSON *j = pv_to_display_json(args, true);
    char *json = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    char *out = arena_strdup(a, json);
    free(json);
    return out;
}

/* The program calling a function: the i-th, by `invoke`, or (resource set) the resource's i-th method
 * by `call` on a resource of that type. Bound against `set` and written in each language (or the
 * errors); *written when any language was. */
static char *function_code(arena_t *a, schema_package_t *values, const schema_resource_t *resource, size_t i,
                           schema_set_t *set, bool *written) {
    char *text;
    if (resource) {
        const schema_method_t *m = &resource->methods[i];
        const schema_function_t *f = schema_find_function(values, m->function);
        ck_assert_msg(f != NULL, "method %s of %s: no function %s", m->name, resource->token, m->function);
        text = arena_sprintf(a, "resource r \"%s\" {\n}\noutput \"result\" {\n    value = call(r, \"%s\", %s)\n}\n",
                             resource->token, m->name, sample_args(a, f));
    } else {
        const char *tok = schema_function_token_at(values, i);
        text = arena_sprintf(a, "output \"result\" {\n    value = invoke(\"%s\", %s)\n}\n", tok,
                             sample_args(a, schema_find_function(values, tok)));
    }
    buf_t b = {0};
    diag_list_t d;
    diag_list_init(&d);
    *written = false;
    pcl_program_t *p = pcl_parse(text, strlen(text), "main.pp", &d);
    if (p && pcl_bind(p, set, &d)) {
        for (size_t l = 0; l < N_LANGS; l++) {
            char *code = LANGS[l] == LANG_PCL ? pcl_print(p) : emit_program(p, LANGS[l], &d);
            buf_printf(&b, "--- %s\n%s", lang_name(LANGS[l]), code ? code : "");
            *written |= code != NULL;
            free(code);
        }
    }
    for (const diag_t *x = d.head; x; x = x->next)
        buf_printf(&b, "%s\n", diag_format(&d, x));
    if (p) pcl_program_free(p);
    diag_list_free(&d);
    char *out = arena_strdup(a, b.data ? b.data : "");
    buf_free(&b);
    return out;
}

/* The same function program through both loaders. */
static void same_function_code(arena_t *a, schema_package_t *idx, const schema_resource_t *resource, size_t i,
                               schema_set_t **sets, const char *path, figures_t *fig) {
    bool w0, w1;
    char *c0 = function_code(a, idx, resource, i, sets[0], &w0), *c1 = function_code(a, idx, resource, i, sets[1], &w1);
    if (strcmp(c0, c1) != 0)
        ck_abort_msg("%s: %s %s: the code differs:\n%s\n--- whole-tree:\n%s", path, resource ? "method" : "function",
                     resource ? resource->methods[i].function : schema_function_token_at(idx, i), c0, c1);
    fig->function_programs += w0;
}

/* (2): the code through the indexed package and the whole-tree one. */
static void check_code(arena_t *a, schema_package_t *idx, schema_package_t *whole, const char *path, figures_t *fig) {
    schema_set_t *sets[2] = {schema_set_new(), schema_set_new()};
    schema_set_add_borrowed(sets[0], idx);
    schema_set_add_borrowed(sets[1], whole);
    deployment_t *dep = sample_state(a, idx, fig);
    tu_import_t *imp[2];
    for (int k = 0; k < 2; k++)
        imp[k] = tu_offline_import(a, dep, sets[k]);
    ck_assert_int_eq(imp[0] != NULL, imp[1] != NULL);
    if (imp[0]) {
        same_str(path, "import statuses", tu_import_statuses(a, imp[0]), tu_import_statuses(a, imp[1]));
        for (size_t i = 0; i < tu_import_count(imp[0]); i++) {
            char *c0 = tu_import_code(a, imp[0], i, 1, sets[0], LANGS, N_LANGS, false);
            char *c1 = tu_import_code(a, imp[1], i, 1, sets[1], LANGS, N_LANGS, false);
            ck_assert_int_eq(c0 != NULL, c1 != NULL);
            if (!c0) continue;
            if (strcmp(c0, c1) != 0) {
                size_t k = 0;
                while (c0[k] == c1[k])
                    k++;
                ck_abort_msg("%s: resource %zu: the code differs at:\n%.200s\n--- whole-tree:\n%.200s", path, i,
                             c0 + (k > 80 ? k - 80 : 0), c1 + (k > 80 ? k - 80 : 0));
            }
            fig->resource_programs++;
        }
        tu_import_free(imp[0]);
        tu_import_free(imp[1]);
    }
    /* functions by invoke; methods (a `__self__` input) by call on a resource of theirs */
    for (size_t i = 0; i < schema_function_count(idx); i++) {
        const schema_function_t *f = schema_find_function(idx, schema_function_token_at(idx, i));
        if (!schema_find_property(f->inputs, f->n_inputs, "__self__"))
            same_function_code(a, idx, NULL, i, sets, path, fig);
    }
    char prov[512];
    snprintf(prov, sizeof prov, "pulumi:providers:%s", idx->name);
    for (size_t i = 0; i <= schema_resource_count(idx); i++) {
        const schema_resource_t *r =
            schema_find_resource(idx, i < schema_resource_count(idx) ? schema_resource_token_at(idx, i) : prov);
        for (size_t k = 0; k < r->n_methods; k++)
            same_function_code(a, idx, r, k, sets, path, fig);
    }
    schema_set_free(sets[0]);
    schema_set_free(sets[1]);
}

/* Both checks on one file; false when it is not a schema (a fixture of another kind). */
static bool check_file(const char *path, bool must_be_schema, figures_t *fig) {
    arena_t *a = arena_new();
    size_t len;
    char *text = tu_read(path, &len);
    ck_assert_ptr_nonnull(text);
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (!doc || !is_schema(doc)) {
        ck_assert_msg(!must_be_schema, "%s: not a package schema", path);
        cJSON_Delete(doc);
        free(text);
        arena_free(a);
        return false;
    }
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *idx = schema_load_file(path, &d);
    if (!idx) ck_abort_msg("%s: the indexed loader refused it: %s", path, d.head ? d.head->message : "?");
    check_scan(idx, doc, path, fig);
    schema_package_t *whole = schema_load_buffer_whole(text, len, path, &d);
    ck_assert_ptr_nonnull(whole);
    check_code(a, idx, whole, path, fig);
    fig->schemas++;
    schema_free(idx);
    schema_free(whole);
    diag_list_free(&d);
    cJSON_Delete(doc);
    free(text);
    arena_free(a);
    return true;
}

/* The 9 MB schema (four copies of digitalocean's; its aliases repeated, so later copies' lookups
 * find the first's), as a file: scanned (mapped, strict check beside the scan) and its index cache
 * entry written, then loaded again from the entry; both against the whole document, and the code of
 * the one from the entry against the whole-tree loader's. */
START_TEST(test_big_schema_scanned_and_cached_agree) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *cache = arena_sprintf(a, "%s/cache", dir), *path = arena_sprintf(a, "%s/schema.json", dir);
    setenv("XDG_CACHE_HOME", cache, 1);
    unsetenv("CIMPORT_NO_SCHEMA_CACHE");
    char *text = tu_big_schema_text(a, 4, false);
    size_t len = strlen(text);
    ck_assert_uint_gt(len, 8u << 20);
    ck_assert(tu_write(path, text));
    cJSON *doc = cJSON_ParseWithLength(text, len);
    figures_t fig = {0};
    diag_list_t d;
    diag_list_init(&d);
    size_t n;
    for (int warm = 0; warm < 2; warm++) {
        tu_find_files(a, arena_sprintf(a, "%s/cimport/schema-index", cache), ".idx", &n);
        ck_assert_uint_eq(n, (size_t)warm); /* the second load has the first's entry */
        schema_package_t *pkg = schema_load_file(path, &d);
        if (!pkg) ck_abort_msg("%s: %s", path, d.head ? d.head->message : "?");
        check_scan(pkg, doc, path, &fig);
        if (warm) {
            schema_package_t *whole = schema_load_buffer_whole(text, len, path, &d);
            check_code(a, pkg, whole, path, &fig);
            schema_free(whole);
        }
        schema_free(pkg);
    }
    /* four copies of 86 resources (8 aliases), loaded twice */
    ck_assert_uint_ge(fig.resources, 640);
    ck_assert_uint_ge(fig.aliases, 64);
    ck_assert_uint_ge(fig.resource_programs, 320);
    ck_assert_uint_ge(fig.function_programs, 80);
    printf("big schema (%zu bytes, scanned, then from the cache): %zu resources, %zu aliases each time; programs "
           "compared: %zu resources, %zu functions\n",
           len, fig.resources / 2, fig.aliases / 2, fig.resource_programs, fig.function_programs);
    diag_list_free(&d);
    cJSON_Delete(doc);
    free(text);
    unsetenv("XDG_CACHE_HOME");
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

START_TEST(test_shared_schemas_scan_and_code_agree) {
    arena_t *a = arena_new();
    setenv("CIMPORT_NO_SCHEMA_CACHE", "1", 1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    figures_t fig = {0};
    size_t n;
    const char *shared[2] = {tu_data(a, "schemas"), tu_data(a, "pulumi-importer/schemas")};
    for (int l = 0; l < 2; l++) {
        char **files = tu_find_files(a, shared[l], ".json", &n);
        for (size_t i = 0; files[i]; i++)
            if (!strstr(files[i], "bridge-metadata")) check_file(files[i], true, &fig);
    }
    size_t from_shared = fig.schemas;
    char **fixtures = tu_find_files(a, SOURCE_DIR "/tests/fixtures", ".json", &n);
    for (size_t i = 0; fixtures[i]; i++)
        check_file(fixtures[i], false, &fig);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("schemas %zu (%zu shared, %zu fixtures): %zu resources, %zu types, %zu functions, %zu aliases; "
           "programs compared: %zu resources x %zu languages, %zu functions x %zu languages (%zu components "
           "skipped); %.1f s\n",
           fig.schemas, from_shared, fig.schemas - from_shared, fig.resources, fig.types, fig.functions, fig.aliases,
           fig.resource_programs, N_LANGS, fig.function_programs, N_LANGS, fig.components,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    ck_assert_uint_ge(from_shared, 35);
    ck_assert_uint_ge(fig.schemas, 100);
    ck_assert_uint_ge(fig.resources, 1100);
    ck_assert_uint_ge(fig.aliases, 180);
    unsetenv("CIMPORT_NO_SCHEMA_CACHE");
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("schema_paths");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_shared_schemas_scan_and_code_agree);
    tcase_add_test(tc, test_big_schema_scanned_and_cached_agree);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

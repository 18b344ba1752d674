/* bridge.c — Terraform-bridge metadata and Terraform provider schemas, indexed for the converter.
 *
 * Every loaded JSON document is kept (the set owns it) and indexed by hash maps of strings, so a
 * lookup per attribute of a large state is O(1). The metadata of several providers may be loaded
 * at once; Terraform type names are unique across providers (they carry the provider prefix). */
#include "specs/bridge.h"
#include "specs/json_strict.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "specs/bridge_internal.h"

/* --- string-keyed lookups over base/hashmap (keys are arena strings) --------------------------- */

static void *smap_get(const hashmap_t *m, const char *key) {
    void **v = key ? hashmap_find_str(m, key) : NULL;
    return v ? *v : NULL;
}

/* Inserts unless present; returns whether it inserted (the first source of a fact wins). */
static bool smap_put(hashmap_t *m, const char *key, void *value) {
    return hashmap_add_str(m, key, value);
}

/* --- the set ----------------------------------------------------------------------------------- */

typedef struct provider_info {
    const char *package;
    const char *origin;
} provider_info_t;

struct bridge_set {
    arena_t *arena;
    cJSON **docs;
    size_t n_docs, cap_docs;
    hashmap_t resources;    /* tf_type → bridge_resource_t */
    hashmap_t renames;      /* "token\ntf_name" → pulumi name */
    hashmap_t providers;    /* tf provider prefix → provider_info_t */
    hashmap_t overrides;    /* "tf_type\npath" → (void*)1 true / (void*)2 false */
    hashmap_t tf_blocks;    /* tf_type → block JSON of a Terraform provider schema */
    hashmap_t data_sources; /* tf_type → token (mapping documents) */
    hashmap_t config;       /* "tf_provider\ntf_name" → Pulumi config name (mapping documents) */
    size_t n_tf_schemas;
    size_t n_mappings; /* mapping documents read */
};

bridge_set_t *bridge_set_new(void) {
    arena_t *a = arena_new();
    bridge_set_t *s = arena_alloc(a, sizeof *s);
    s->arena = a;
    return s;
}

void bridge_set_free(bridge_set_t *set) {
    if (!set) return;
    for (size_t i = 0; i < set->n_docs; i++)
        cJSON_Delete(set->docs[i]);
    free(set->docs);
    hashmap_t *maps[] = {&set->resources, &set->renames,      &set->providers, &set->overrides,
                         &set->tf_blocks, &set->data_sources, &set->config};
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
        hashmap_free(maps[i]);
    arena_free(set->arena);
}

size_t bridge_resource_count(const bridge_set_t *set) {
    return set ? hashmap_count(&set->resources) : 0;
}
size_t bridge_mapping_count(const bridge_set_t *set) {
    return set ? set->n_mappings : 0;
}
arena_t *bridge_arena(bridge_set_t *set) {
    return set->arena;
}
size_t bridge_tf_schema_count(const bridge_set_t *set) {
    return set ? set->n_tf_schemas : 0;
}

void bridge_keep_doc(bridge_set_t *set, cJSON *doc) {
    set->docs = vec_grow(set->docs, &set->cap_docs, set->n_docs + 1, sizeof *set->docs);
    set->docs[set->n_docs++] = doc;
}

/* The Terraform provider prefix of a type: `google_compute_instance` → "google". */
static char *tf_type_provider(arena_t *a, const char *tf_type) {
    const char *u = strchr(tf_type, '_');
    return u ? arena_strndup(a, tf_type, (size_t)(u - tf_type)) : arena_strdup(a, tf_type);
}

void bridge_add_resource(bridge_set_t *set, const char *tf_type, const char *token, const cJSON *fields,
                         const char *origin) {
    arena_t *a = set->arena;
    bridge_resource_t *r = arena_alloc(a, sizeof *r);
    r->tf_type = arena_strdup(a, tf_type);
    r->token = arena_strdup(a, token);
    r->fields = fields;
    r->origin = origin;
    if (!smap_put(&set->resources, r->tf_type, r)) return;
    const char *colon = strchr(token, ':');
    if (!colon) return;
    bridge_add_provider(set, tf_type_provider(a, tf_type), arena_strndup(a, token, (size_t)(colon - token)), origin);
}

void bridge_add_provider(bridge_set_t *set, const char *tf_provider, const char *package, const char *origin) {
    arena_t *a = set->arena;
    provider_info_t *p = arena_alloc(a, sizeof *p);
    p->package = arena_strdup(a, package);
    p->origin = origin;
    smap_put(&set->providers, arena_strdup(a, tf_provider), p);
}

void bridge_add_data_source(bridge_set_t *set, const char *tf_type, const char *token) {
    smap_put(&set->data_sources, arena_strdup(set->arena, tf_type), arena_strdup(set->arena, token));
}

void bridge_add_config(bridge_set_t *set, const char *tf_provider, const char *tf_name, const char *pulumi_name) {
    smap_put(&set->config, arena_sprintf(set->arena, "%s\n%s", tf_provider, tf_name),
             arena_strdup(set->arena, pulumi_name));
}

static void add_renamed_properties(bridge_set_t *set, const cJSON *rp) {
    const cJSON *tok;
    cJSON_ArrayForEach(tok, rp) {
        if (!cJSON_IsObject(tok) || !tok->string) continue;
        const cJSON *pr;
        cJSON_ArrayForEach(pr, tok) {
            if (!cJSON_IsString(pr) || !pr->string) continue;
            char *key = arena_sprintf(set->arena, "%s\n%s", tok->string, pr->valuestring);
            smap_put(&set->renames, key, arena_strdup(set->arena, pr->string));
        }
    }
}

/* token → tf_type tables (older metadata keeps the mapping only there). */
static void add_token_table(bridge_set_t *set, const cJSON *table, const char *origin) {
    const cJSON *e;
    cJSON_ArrayForEach(e, table) {
        if (cJSON_IsString(e) && e->string) bridge_add_resource(set, e->valuestring, e->string, NULL, origin);
    }
}

static void add_overrides(bridge_set_t *set, const cJSON *settings) {
    const cJSON *res;
    cJSON_ArrayForEach(res, cJSON_GetObjectItemCaseSensitive(settings, "resources")) {
        const cJSON *ov;
        cJSON_ArrayForEach(ov, cJSON_GetObjectItemCaseSensitive(res, "maxItemsOneOverrides")) {
            if (!cJSON_IsBool(ov) || !ov->string) continue;
            char *key = arena_sprintf(set->arena, "%s\n%s", res->string, ov->string);
            smap_put(&set->overrides, key, cJSON_IsTrue(ov) ? (void *)1 : (void *)2);
        }
    }
}

static bool add_metadata(bridge_set_t *set, cJSON *doc, const char *origin) {
    const cJSON *aa = cJSON_GetObjectItemCaseSensitive(doc, "auto-aliasing");
    const cJSON *renames = cJSON_GetObjectItemCaseSensitive(doc, "renames");
    const cJSON *top_res = cJSON_GetObjectItemCaseSensitive(doc, "resources");
    /* A Pulumi schema also has a top-level `resources`, but of objects; metadata maps tokens to strings. */
    if (top_res && (!cJSON_IsObject(top_res) || (top_res->child && !cJSON_IsString(top_res->child)))) top_res = NULL;
    if (!cJSON_IsObject(aa) && !cJSON_IsObject(renames) && !top_res) return false;
    bridge_keep_doc(set, doc);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(aa, "resources")) {
        const cJSON *cur = cJSON_GetObjectItemCaseSensitive(e, "current");
        if (cJSON_IsString(cur) && e->string)
            bridge_add_resource(set, e->string, cur->valuestring, cJSON_GetObjectItemCaseSensitive(e, "fields"),
                                origin);
    }
    add_token_table(set, cJSON_GetObjectItemCaseSensitive(renames, "resources"), origin);
    add_token_table(set, top_res, origin);
    add_renamed_properties(set, cJSON_GetObjectItemCaseSensitive(renames, "renamedProperties"));
    add_renamed_properties(set, cJSON_GetObjectItemCaseSensitive(doc, "renamedProperties"));
    add_overrides(set, cJSON_GetObjectItemCaseSensitive(doc, "auto-settings"));
    return true;
}

/* Terraform provider schemas come in two shapes: `terraform providers schema -json`
 * (provider_schemas.<addr>.resource_schemas.<type>.block, lower-case keys) and the Go struct dump
 * driftctl records (<type>.Block with Attributes/BlockTypes). Both are indexed by type → block. */
static bool add_tf_schema(bridge_set_t *set, cJSON *doc) {
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(doc, "provider_schemas");
    size_t before = hashmap_count(&set->tf_blocks);
    if (cJSON_IsObject(ps)) {
        const cJSON *prov;
        cJSON_ArrayForEach(prov, ps) {
            const cJSON *rs;
            cJSON_ArrayForEach(rs, cJSON_GetObjectItemCaseSensitive(prov, "resource_schemas")) {
                const cJSON *block = cJSON_GetObjectItemCaseSensitive(rs, "block");
                if (cJSON_IsObject(block) && rs->string)
                    smap_put(&set->tf_blocks, arena_strdup(set->arena, rs->string), (void *)block);
            }
        }
    } else {
        const cJSON *rs;
        cJSON_ArrayForEach(rs, doc) {
            const cJSON *block = cJSON_GetObjectItemCaseSensitive(rs, "Block");
            if (cJSON_IsObject(block) && rs->string)
                smap_put(&set->tf_blocks, arena_strdup(set->arena, rs->string), (void *)block);
        }
    }
    if (hashmap_count(&set->tf_blocks) == before && !cJSON_IsObject(ps)) return false;
    bridge_keep_doc(set, doc);
    set->n_tf_schemas++;
    return true;
}

/* The provider key of a mapping file: its base name without the extension (`helm.json` → "helm"). */
static char *file_provider_key(arena_t *a, const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? arena_strndup(a, base, (size_t)(dot - base)) : arena_strdup(a, base);
}

static bool add_text(bridge_set_t *set, const char *text, size_t len, const char *origin, bool named,
                     diag_list_t *diags) {
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (doc && !json_strict_check(text, len, origin, named ? diags : NULL)) {
        cJSON_Delete(doc);
        return false;
    }
    if (!doc) {
        if (named)
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, origin, NULL,
                     "the mapping is not valid JSON (near byte %zu); nothing was converted",
                     end ? (size_t)(end - text) : (size_t)0);
        return false;
    }
    const char *org = arena_strdup(set->arena, origin);
    int m = tfmapping_add(set, doc, org, file_provider_key(set->arena, origin), diags);
    if (m != 0) {
        if (m < 0) cJSON_Delete(doc);
        return m > 0;
    }
    if (add_metadata(set, doc, org)) return true;
    if (add_tf_schema(set, doc)) return true;
    cJSON_Delete(doc);
    if (named)
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, origin, NULL,
                 "not a mapping document (GetMapping's format: `resources` of `{\"tok\": ...}` objects), nor "
                 "Terraform-bridge metadata (no `auto-aliasing`, `renames` or `resources`), nor a Terraform provider "
                 "schema");
    return false;
}

bool bridge_set_add_buffer(bridge_set_t *set, const char *text, size_t len, const char *origin, diag_list_t *diags) {
    return add_text(set, text, len, origin, true, diags);
}

static bool add_file(bridge_set_t *set, const char *path, bool named, diag_list_t *diags) {
    arena_t *tmp = arena_new();
    size_t len = 0;
    char *text = file_read_all(tmp, path, &len, named ? diags : NULL);
    bool ok = text && add_text(set, text, len, path, named, diags);
    arena_free(tmp);
    return ok;
}

/* A directory scan reads bridge-metadata*.json and those schema.json files that start like a
 * Terraform provider schema; Pulumi schemas (also schema.json) are not opened whole. */
static bool looks_like_tf_schema(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char head[512];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = 0;
    return strstr(head, "\"provider_schemas\"") || strstr(head, "\"Block\"");
}

/* A mapping document names type tokens as `"tok"` early on (after the provider's shim schema, which
 * may be long, so the whole head is not enough: look for the key within the first 1 MiB). */
static bool looks_like_mapping(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t cap = 1 << 20;
    char *head = malloc(cap + 1);
    if (!head) abort();
    size_t n = fread(head, 1, cap, f);
    fclose(f);
    head[n] = 0;
    bool yes = n && strstr(head, "\"tok\"") != NULL;
    free(head);
    return yes;
}

static int cmp_str(const void *x, const void *y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void scan_dir(bridge_set_t *set, arena_t *a, const char *dir, size_t *found, diag_list_t *diags) {
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        names = arena_grow_array(a, names, &cap, n + 1, sizeof *names);
        names[n++] = arena_strdup(a, e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str); /* a stable order: the first source of a fact wins */
    for (size_t i = 0; i < n; i++) {
        char *p = arena_sprintf(a, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            scan_dir(set, a, p, found, diags);
        } else if (S_ISREG(st.st_mode)) {
            size_t l = strlen(names[i]);
            bool meta =
                strncmp(names[i], "bridge-metadata", 15) == 0 && l > 5 && strcmp(names[i] + l - 5, ".json") == 0;
            bool tfs = strcmp(names[i], "schema.json") == 0 && looks_like_tf_schema(p);
            /* `<tf provider>.json` mapping documents; Pulumi schemas (schema*.json) are not opened. */
            bool doc = !meta && l > 5 && strcmp(names[i] + l - 5, ".json") == 0 &&
                       strncmp(names[i], "schema", 6) != 0 && looks_like_mapping(p);
            if ((meta || tfs || doc) && add_file(set, p, meta, diags)) (*found)++;
        }
    }
}

bool bridge_set_add_path(bridge_set_t *set, const char *path, diag_list_t *diags) {
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot read the mapping: no such file or directory");
        return false;
    }
    if (!S_ISDIR(st.st_mode)) return add_file(set, path, true, diags);
    arena_t *a = arena_new();
    size_t found = 0;
    size_t errors = diags ? diags->errors : 0;
    scan_dir(set, a, path, &found, diags);
    arena_free(a);
    if (!found) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "the directory holds no mapping document (`<tf provider>.json`) and no bridge-metadata*.json file; "
                 "pass a directory of GetMapping documents or of a bridged provider's metadata "
                 "(e.g. provider/cmd/pulumi-resource-<pkg>/bridge-metadata.json)");
        return false;
    }
    return !diags || diags->errors == errors;
}

/* --- lookups ----------------------------------------------------------------------------------- */

const bridge_resource_t *bridge_find_resource(bridge_set_t *set, const char *tf_type) {
    return set ? smap_get(&set->resources, tf_type) : NULL;
}

const char *bridge_package_for_provider(bridge_set_t *set, const char *tf_provider) {
    provider_info_t *p = set ? smap_get(&set->providers, tf_provider) : NULL;
    return p ? p->package : NULL;
}

const char *bridge_origin_for_provider(bridge_set_t *set, const char *tf_provider) {
    provider_info_t *p = set ? smap_get(&set->providers, tf_provider) : NULL;
    return p ? p->origin : NULL;
}

const char *bridge_find_data_source(bridge_set_t *set, const char *tf_type) {
    return set ? smap_get(&set->data_sources, tf_type) : NULL;
}

const char *bridge_config_name(bridge_set_t *set, const char *tf_provider, const char *tf_name) {
    if (!set || !hashmap_count(&set->config)) return NULL;
    arena_t *a = arena_new();
    const char *r = smap_get(&set->config, arena_sprintf(a, "%s\n%s", tf_provider, tf_name));
    arena_free(a);
    return r;
}

bool bridge_set_add_mapping(bridge_set_t *set, const char *text, size_t len, const char *tf_provider,
                            const char *origin, diag_list_t *diags) {
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!doc) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, origin, NULL, "the mapping is not valid JSON (near byte %zu)",
                 end ? (size_t)(end - text) : (size_t)0);
        return false;
    }
    int m = tfmapping_add(set, doc, arena_strdup(set->arena, origin), tf_provider, diags);
    if (m <= 0) cJSON_Delete(doc);
    if (m == 0)
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, origin, NULL,
                 "not a mapping document: it has no `resources` object of `{\"tok\": ...}` entries");
    return m > 0;
}

void bridge_note_mapping(bridge_set_t *set) {
    set->n_mappings++;
}

const char *bridge_field_name(const cJSON *field) {
    const cJSON *n = field ? cJSON_GetObjectItemCaseSensitive(field, "name") : NULL;
    const char *name = cJSON_GetStringValue(n);
    return name && name[0] ? name : NULL;
}

bool bridge_field_sensitive(const cJSON *field) {
    return field && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(field, "sensitive"));
}

const char *bridge_renamed_property(bridge_set_t *set, const char *token, const char *tf_name) {
    if (!set || !token || !hashmap_count(&set->renames)) return NULL;
    char stack[256];
    size_t tl = strlen(token), nl = strlen(tf_name), need = tl + nl + 2;
    char *key = need <= sizeof stack ? stack : malloc(need);
    if (!key) abort();
    /* key = token "\n" tf_name (built by hand: snprintf here trips -Wformat-truncation at -O2) */
    memcpy(key, token, tl + 1);
    key[tl] = '\n'; /* over token's terminator */
    memcpy(key + tl + 1, tf_name, nl + 1);
    const char *r = smap_get(&set->renames, key);
    if (key != stack) free(key);
    return r;
}

const cJSON *bridge_field(const cJSON *fields, const char *tf_name) {
    return fields ? cJSON_GetObjectItemCaseSensitive(fields, tf_name) : NULL;
}

const cJSON *bridge_field_elem_fields(const cJSON *field) {
    const cJSON *elem = field ? cJSON_GetObjectItemCaseSensitive(field, "elem") : NULL;
    return elem ? cJSON_GetObjectItemCaseSensitive(elem, "fields") : NULL;
}

bridge_mio_t bridge_field_max_items_one(const cJSON *field) {
    const cJSON *m = field ? cJSON_GetObjectItemCaseSensitive(field, "maxItemsOne") : NULL;
    if (!cJSON_IsBool(m)) return BRIDGE_MIO_UNKNOWN;
    return cJSON_IsTrue(m) ? BRIDGE_MIO_TRUE : BRIDGE_MIO_FALSE;
}

bridge_mio_t bridge_max_items_one_override(bridge_set_t *set, const char *tf_type, const char *path) {
    if (!set || !hashmap_count(&set->overrides)) return BRIDGE_MIO_UNKNOWN;
    arena_t *a = arena_new();
    void *v = smap_get(&set->overrides, arena_sprintf(a, "%s\n%s", tf_type, path));
    arena_free(a);
    return v == (void *)1 ? BRIDGE_MIO_TRUE : v == (void *)2 ? BRIDGE_MIO_FALSE : BRIDGE_MIO_UNKNOWN;
}

/* Key lookup that accepts both schema shapes (`attributes` / `Attributes`). */
static const cJSON *get2(const cJSON *o, const char *lower, const char *upper) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, lower);
    return j ? j : cJSON_GetObjectItemCaseSensitive(o, upper);
}

bool bridge_tf_sensitive(bridge_set_t *set, const char *tf_type, const char *const *path, size_t n) {
    const cJSON *block = set ? smap_get(&set->tf_blocks, tf_type) : NULL;
    for (size_t i = 0; block && i < n; i++) {
        const cJSON *attr = cJSON_GetObjectItemCaseSensitive(get2(block, "attributes", "Attributes"), path[i]);
        if (attr) return cJSON_IsTrue(get2(attr, "sensitive", "Sensitive"));
        const cJSON *bt = cJSON_GetObjectItemCaseSensitive(get2(block, "block_types", "BlockTypes"), path[i]);
        if (!bt) return false;
        const cJSON *inner = cJSON_GetObjectItemCaseSensitive(bt, "block");
        block = inner ? inner : bt;
    }
    return false;
}

/* --- naming ------------------------------------------------------------------------------------ */

char *bridge_camel_case(arena_t *a, const char *snake) {
    size_t n = strlen(snake);
    char *out = arena_alloc(a, n + 1);
    size_t j = 0;
    bool up = false;
    for (size_t i = 0; i < n; i++) {
        if (snake[i] == '_') {
            up = j > 0;
            continue;
        }
        out[j++] = up ? (char)toupper((unsigned char)snake[i]) : snake[i];
        up = false;
    }
    out[j] = 0;
    return out;
}

char *bridge_default_token(arena_t *a, const char *package, const char *tf_provider, const char *tf_type,
                           const char *const *modules, size_t n_modules) {
    size_t plen = strlen(tf_provider);
    const char *rest = tf_type;
    if (strncmp(tf_type, tf_provider, plen) == 0 && tf_type[plen] == '_') rest = tf_type + plen + 1;
    const char *mod = "index";
    size_t mlen = 0;
    for (size_t i = 0; i < n_modules; i++) {
        size_t l = strlen(modules[i]);
        if (l > mlen && strncmp(rest, modules[i], l) == 0 && rest[l] == '_') {
            mod = modules[i];
            mlen = l;
        }
    }
    char *camel = bridge_camel_case(a, mlen ? rest + mlen + 1 : rest);
    char *upper = arena_strdup(a, camel);
    upper[0] = (char)toupper((unsigned char)upper[0]);
    camel[0] = (char)tolower((unsigned char)camel[0]);
    return arena_sprintf(a, "%s:%s/%s:%s", package, mlen ? bridge_camel_case(a, mod) : mod, camel, upper);
}

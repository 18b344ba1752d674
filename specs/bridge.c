/* bridge.c — the bridge set: Terraform-bridge metadata, Terraform provider schemas and mapping
 * documents indexed for the converter (read by bridge_load.c and tfmapping.c, which insert here).
 *
 * Every loaded JSON document is kept (the set owns it) and indexed by hash maps of strings, so a
 * lookup per attribute of a large state is O(1). The metadata of several providers may be loaded
 * at once; Terraform type names are unique across providers (they carry the provider prefix). */
#include "specs/bridge.h"

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

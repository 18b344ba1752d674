/* bridge_internal.h — what the readers of the bridge set's input formats share inside specs/: the
 * set itself and its insert operations (bridge.c); bridge_load.c reads the files — bridge metadata
 * and Terraform provider schemas itself, mapping documents (GetMapping data) through tfmapping.c.
 * Not included from outside specs/. */
#ifndef CIMPORT_BRIDGE_INTERNAL_H
#define CIMPORT_BRIDGE_INTERNAL_H

#include <stdbool.h>

#include "base/hashmap.h"
#include "specs/bridge.h"

struct cJSON;

/* --- string-keyed lookups over base/hashmap (keys are arena strings) --------------------------- */

static inline void *smap_get(const hashmap_t *m, const char *key) {
    void **v = key ? hashmap_find_str(m, key) : NULL;
    return v ? *v : NULL;
}

/* Inserts unless present; returns whether it inserted (the first source of a fact wins). */
static inline bool smap_put(hashmap_t *m, const char *key, void *value) {
    return hashmap_add_str(m, key, value);
}

/* --- the set ----------------------------------------------------------------------------------- */

typedef struct provider_info {
    const char *package;
    const char *origin;
} provider_info_t;

struct bridge_set {
    arena_t *arena;
    struct cJSON **docs;
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

/* The set owns doc from now on (freed with the set). */
void bridge_keep_doc(bridge_set_t *set, struct cJSON *doc);
/* Adds a Terraform type → token entry (the first source of a type wins) and registers the type's
 * provider prefix as covered by the token's package. fields may be NULL. */
void bridge_add_resource(bridge_set_t *set, const char *tf_type, const char *token, const struct cJSON *fields,
                         const char *origin);
/* Registers a Terraform provider name as covered by a Pulumi package (the first source wins). */
void bridge_add_provider(bridge_set_t *set, const char *tf_provider, const char *package, const char *origin);
void bridge_add_data_source(bridge_set_t *set, const char *tf_type, const char *token);
void bridge_add_config(bridge_set_t *set, const char *tf_provider, const char *tf_name, const char *pulumi_name);
arena_t *bridge_arena(bridge_set_t *set);
/* Counts one more mapping document read. */
void bridge_note_mapping(bridge_set_t *set);

/* Reads a mapping document (tfmapping.c). Returns 1 when doc is one and was added (the set then owns
 * doc), 0 when doc is not a mapping document (doc untouched), -1 when it is one but malformed (an
 * error naming origin and the JSON path is added; doc untouched, nothing added). tf_provider is the
 * provider key (file base name, or the provider GetMapping was asked for); NULL: the doc's `name`. */
int tfmapping_add(bridge_set_t *set, struct cJSON *doc, const char *origin, const char *tf_provider,
                  diag_list_t *diags);

#endif

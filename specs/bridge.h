/* bridge.h — Terraform-bridge metadata: which Pulumi type token a Terraform resource type became,
 * which Pulumi property name each Terraform attribute became, and which list blocks the bridge
 * flattened to a single object (maxItemsOne). Also holds the Sensitive flags of Terraform provider
 * schemas (`terraform providers schema -json`), so a converter knows which attributes are secret.
 *
 * Sources, in the order a type is looked up:
 *   - mapping documents: the `data` a bridged provider plugin returns from GetMapping("terraform", P)
 *     (its MarshallableProviderInfo, reference/terraform-mapping.md), or the same JSON in a file
 *     `<P>.json`: `resources.<tf_type>.tok`, field renames (`fields.<attr>.name`, nested `fields` and
 *     `elem`/`element`), and the Terraform shim schema under `provider` (value types, `maxItems: 1`
 *     flattening, `sensitive`); `dataSources` and `config` too;
 *   - `auto-aliasing.resources.<tf_type>.current` (with per-field `maxItemsOne`, nested under
 *     `elem.fields`) in bridge-metadata*.json files;
 *   - `renames.resources` and a top-level `resources` (token → tf_type), as older files have;
 *   - `renames.renamedProperties` / top-level `renamedProperties` (token → {pulumiName: tfName});
 *   - `auto-settings.resources.<tf_type>.maxItemsOneOverrides` (`a.$.b` paths → bool).
 * When a Terraform type is in no metadata, bridge_default_token applies the bridge's default
 * naming rule (tfbridge tokens.KnownModules + MakeStandard). */
#ifndef CIMPORT_BRIDGE_H
#define CIMPORT_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"

struct cJSON;

typedef struct bridge_set bridge_set_t;

/* What the metadata says about one Terraform resource type. */
typedef struct bridge_resource {
    const char *tf_type;
    const char *token;          /* the Pulumi type token */
    const struct cJSON *fields; /* auto-aliasing `fields` object, or NULL */
    const char *origin;         /* the metadata file */
} bridge_resource_t;

/* Tri-state answer for maxItemsOne: the metadata may not mention a field. */
typedef enum { BRIDGE_MIO_UNKNOWN = 0, BRIDGE_MIO_TRUE, BRIDGE_MIO_FALSE } bridge_mio_t;

bridge_set_t *bridge_set_new(void);
void bridge_set_free(bridge_set_t *set);
/* Adds a bridge-metadata file, a Terraform provider schema file, or — for a directory — every
 * `bridge-metadata*.json` and every Terraform provider schema (`schema.json` with
 * `provider_schemas`) below it. Naming a file that is neither is an error. */
bool bridge_set_add_path(bridge_set_t *set, const char *path, diag_list_t *diags);
/* Adds a mapping document (GetMapping data) for Terraform provider tf_provider. False with an error
 * naming origin and the JSON path when it is not valid JSON, not a mapping document, or malformed
 * (a `tok` that is not a type token, a `fields` that is not an object, an unknown value type, ...);
 * nothing of the document is added then. */
bool bridge_set_add_mapping(bridge_set_t *set, const char *text, size_t len, const char *tf_provider,
                            const char *origin, diag_list_t *diags);
/* Number of mapping documents read. */
size_t bridge_mapping_count(const bridge_set_t *set);
/* The token a mapping document gives a Terraform data source, or NULL. */
const char *bridge_find_data_source(bridge_set_t *set, const char *tf_type);
/* The Pulumi name a mapping document gives a provider configuration key, or NULL (no rename). */
const char *bridge_config_name(bridge_set_t *set, const char *tf_provider, const char *tf_name);
/* Adds bridge metadata from text (origin names it in messages). */
bool bridge_set_add_buffer(bridge_set_t *set, const char *text, size_t len, const char *origin, diag_list_t *diags);
/* Number of Terraform resource types known from metadata, and of Terraform provider schemas. */
size_t bridge_resource_count(const bridge_set_t *set);
size_t bridge_tf_schema_count(const bridge_set_t *set);

/* The metadata entry of a Terraform resource type, or NULL. */
const bridge_resource_t *bridge_find_resource(bridge_set_t *set, const char *tf_type);
/* The Pulumi package the metadata maps a Terraform provider to (`google` → "gcp"), or NULL when
 * no loaded metadata covers the provider. */
const char *bridge_package_for_provider(bridge_set_t *set, const char *tf_provider);
/* The file the metadata of a Terraform provider came from, or NULL. */
const char *bridge_origin_for_provider(bridge_set_t *set, const char *tf_provider);

/* The Pulumi name the metadata gives a Terraform attribute of the resource or object type `token`,
 * or NULL when it records no rename (then the name is bridge_camel_case of the attribute). */
const char *bridge_renamed_property(bridge_set_t *set, const char *token, const char *tf_name);
/* The `fields` entry of an attribute in a fields object (NULL-safe), and its nested fields. */
const struct cJSON *bridge_field(const struct cJSON *fields, const char *tf_name);
const struct cJSON *bridge_field_elem_fields(const struct cJSON *field);
bridge_mio_t bridge_field_max_items_one(const struct cJSON *field);
/* The Pulumi name a field entry gives its attribute (mapping documents' `name`), or NULL. */
const char *bridge_field_name(const struct cJSON *field);
/* Whether a field entry marks its attribute sensitive (mapping documents: shim `sensitive` or info
 * `secret`). */
bool bridge_field_sensitive(const struct cJSON *field);
/* maxItemsOne override from auto-settings for a path of attribute names (`a.$.b` form). */
bridge_mio_t bridge_max_items_one_override(bridge_set_t *set, const char *tf_type, const char *path);

/* Whether a Terraform provider schema marks the attribute at `path` (attribute names, nested
 * blocks followed through `block_types`) of tf_type Sensitive. False when no schema knows it. */
bool bridge_tf_sensitive(bridge_set_t *set, const char *tf_type, const char *const *path, size_t n);

/* The bridge's default property naming: `min_lower` → "minLower", `b64_std` → "b64Std". */
char *bridge_camel_case(arena_t *a, const char *snake);
/* The bridge's default type token for a Terraform type of package `package` whose Terraform
 * provider prefix is `tf_provider`: the longest known module that prefixes the rest of the name
 * (followed by `_`), else "index"; the rest in UpperCamelCase is the type name:
 * (`aws`, `aws`, `aws_s3_bucket`, {"s3"}) → "aws:s3/bucket:Bucket". */
char *bridge_default_token(arena_t *a, const char *package, const char *tf_provider, const char *tf_type,
                           const char *const *modules, size_t n_modules);

#endif

/* schema.h — Pulumi package schemas: resources, types, properties, language overrides.
 *
 * Loading scans the JSON once and indexes every resource and type token with the byte range of its
 * JSON (no tree of the whole document); a lookup parses that range, resolves the token to its
 * description once and caches it, so no lookup ever re-parses. Properties of
 * resources and object types are sorted by name in byte order (Pulumi's schema order). Types
 * referenced by `$ref` to another package are kept as SCHEMA_ANY with `external_ref` set.
 * Lookups fill the package's caches, so one package must not be looked up from two threads at once. */
#ifndef CIMPORT_SCHEMA_H
#define CIMPORT_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "specs/value.h"

struct cJSON;

typedef enum {
    SCHEMA_ANY = 0,
    SCHEMA_BOOL,
    SCHEMA_INT,
    SCHEMA_NUMBER,
    SCHEMA_STRING,
    SCHEMA_ARRAY,
    SCHEMA_MAP,
    SCHEMA_OBJECT,   /* a named object type (types section), see `object` */
    SCHEMA_ENUM,     /* a named enum type, see enum_* */
    SCHEMA_UNION,    /* oneOf */
    SCHEMA_ASSET,    /* pulumi.json#/Asset */
    SCHEMA_ARCHIVE,  /* pulumi.json#/Archive */
    SCHEMA_JSON,     /* pulumi.json#/Json */
    SCHEMA_RESOURCE, /* a reference to a resource type (#/resources/...) */
} schema_kind_t;

typedef struct schema_type schema_type_t;
typedef struct schema_object schema_object_t;

typedef struct schema_enum_value {
    const char *name; /* may be NULL: then the value names the member */
    const pv_t *value;
    const char *description;
    const char *deprecation;
} schema_enum_value_t;

typedef struct schema_union_mapping {
    const char *value; /* discriminator value */
    const char *ref;   /* the $ref it selects */
} schema_union_mapping_t;

struct schema_type {
    schema_kind_t kind;
    const schema_type_t *element;  /* ARRAY, MAP: element type; ENUM: the underlying scalar type */
    const schema_object_t *object; /* OBJECT */
    const char *token;             /* OBJECT, ENUM, RESOURCE: the type token; also set on a MAP that a
                                      property-less named object type became, and on the ANY of a
                                      dangling `#/types/` reference */
    const char *external_ref;      /* a $ref outside this package, if any */
    /* ENUM */
    const schema_enum_value_t *enum_values;
    size_t n_enum_values;
    /* UNION */
    const schema_type_t **members;
    size_t n_members;
    const char *discriminator;
    const schema_union_mapping_t *mapping;
    size_t n_mapping;
};

typedef struct schema_property {
    const char *name;
    const schema_type_t *type;
    bool required; /* listed in requiredInputs (resources) or required (types) */
    bool secret;
    bool plain;
    bool replace_on_changes;
    const char *deprecation;   /* deprecationMessage, if any */
    const pv_t *default_value; /* `default`, NULL if none */
    const char **default_env;  /* defaultInfo.environment */
    size_t n_default_env;
    const char *const_value_json; /* `const`, as JSON text, if any */
    /* language overrides */
    const char *csharp_name; /* language.csharp.name */
    const char *python_name; /* language.python.name (older schemas) */
    const struct cJSON *language;
} schema_property_t;

struct schema_object {
    const char *token;
    const schema_property_t *props; /* sorted by name */
    size_t n_props;
    bool is_overlay;
    const struct cJSON *language;
};

/* A method of a resource (`methods` in the schema): its name and the function that implements it
 * (whose first input, `__self__`, is the resource). */
typedef struct schema_method {
    const char *name;
    const char *function; /* the function's token */
} schema_method_t;

typedef struct schema_resource {
    const char *token;
    const schema_property_t *inputs; /* inputProperties, sorted by name; required from requiredInputs */
    size_t n_inputs;
    const schema_property_t *outputs; /* properties, sorted by name; required from required */
    size_t n_outputs;
    const char **aliases; /* alias type tokens */
    size_t n_aliases;
    bool is_component;
    bool is_provider;
    const char *csharp_name; /* language.csharp.name override of the class name, if any */
    const char *deprecation;
    const struct cJSON *language;
    const schema_method_t *methods; /* `methods`, in schema order */
    size_t n_methods;
} schema_resource_t;

/* A function (`functions`): what an invoke or a resource method call takes and returns. */
typedef struct schema_function {
    const char *token;
    const schema_property_t *inputs; /* inputs.properties, sorted by name; required from inputs.required */
    size_t n_inputs;
    bool multi_argument;     /* multiArgumentInputs: the SDKs take the inputs as positional arguments */
    const char **multi_args; /* ... in this order */
    size_t n_multi_args;
    /* The return type: an object of `outputs` (its token the function's), or for a function whose
     * `outputs` is not an object of properties, that type as is (scalar_return). NULL when the
     * function returns nothing. */
    const schema_type_t *return_type;
    const schema_property_t *outputs; /* the object's properties, sorted by name */
    size_t n_outputs;
    bool scalar_return;
    bool return_plain; /* outputs.plain: the SDKs return the value itself, not an Output */
    const char *deprecation;
} schema_function_t;

typedef struct schema_package {
    const char *name;
    const char *version; /* may be NULL */
    const char *display_name;
    const char *namespace_; /* `namespace`, may be NULL */
    const char *repository;
    const char *plugin_download_url;
    const char *module_format; /* meta.moduleFormat, default "(.*)" */
    bool support_pack;         /* meta.supportPack */
    /* language overrides used by the emitters (NULL when absent) */
    const char *nodejs_package_name;
    const char *python_package_name;
    const char *python_input_types; /* "classes", "classes-and-dicts", ... */
    const char *go_import_base_path;
    const char *csharp_root_namespace;
    const char *java_base_package;
    const struct cJSON *language; /* the whole `language` object */
    const char *origin;           /* file the schema came from */
    void *impl;                   /* private: index, caches, arena */
} schema_package_t;

/* Loads a schema from a file; on error returns NULL with a diagnostic naming the file. A file that
 * is JSON but not a package schema (no `name`, or none of `resources`/`types`/`provider`/`functions`)
 * is rejected with DIAG_SCHEMA; empty or malformed JSON gets DIAG_INPUT and the line. */
schema_package_t *schema_load_file(const char *path, diag_list_t *diags);
schema_package_t *schema_load_buffer(const char *text, size_t len, const char *origin, diag_list_t *diags);
/* As schema_load_buffer, but every resource and type resolves from one cJSON tree of the whole
 * document (the loader before indexing), not from its own byte range: the reference the indexed
 * path is tested against. */
schema_package_t *schema_load_buffer_whole(const char *text, size_t len, const char *origin, diag_list_t *diags);
void schema_free(schema_package_t *pkg);

/* Resource by token (also finds resources by an alias token, and `pulumi:providers:<pkg>` finds
 * the provider resource, which exists even when the schema has no `provider`). NULL if unknown.
 * Tokens may be URL-escaped (`%2F`); type tokens fall back to a case-insensitive match. */
const schema_resource_t *schema_find_resource(schema_package_t *pkg, const char *token);
/* The resource token of pkg closest to a mistyped one ("did you mean"), or NULL. */
const char *schema_suggest_resource(schema_package_t *pkg, const char *token);
const schema_object_t *schema_find_object(schema_package_t *pkg, const char *token);
/* The function of a token (`functions`), resolved on first lookup; NULL when the package has none. */
const schema_function_t *schema_find_function(schema_package_t *pkg, const char *token);
/* The functions in schema order, by position. */
size_t schema_function_count(const schema_package_t *pkg);
const char *schema_function_token_at(const schema_package_t *pkg, size_t i);
/* The method `name` of a resource, NULL when it has none. */
const schema_method_t *schema_find_method(const schema_resource_t *r, const char *name);
/* An enum or object type by token, as a type. NULL if unknown. An object type without properties is
 * returned as a MAP of ANY (with its token); schema_find_object still gives its (empty) object. */
const schema_type_t *schema_find_type(schema_package_t *pkg, const char *token);
/* Number of resource tokens indexed (excluding the provider). */
size_t schema_resource_count(const schema_package_t *pkg);
/* The i-th resource token in the schema's own order. */
const char *schema_resource_token_at(const schema_package_t *pkg, size_t i);
/* Number of type tokens indexed, and the i-th in the schema's own order (for tests and tools that
 * walk every type). */
size_t schema_type_count(const schema_package_t *pkg);
const char *schema_type_token_at(const schema_package_t *pkg, size_t i);
/* What the load-time scan indexed, for tests that check it against a parse of the whole document:
 * the JSON the i-th resource, type or function (schema order) resolves from — its byte range parsed
 * on first use, or the whole tree's member for schema_load_buffer_whole — NULL when i is out of
 * range; a resource's alias tokens as the scan found them (what the index maps to it); and the
 * document without its resources, types and functions (each `{}`), which the package's fields and
 * the provider are read from. */
typedef enum { SCHEMA_SECTION_RESOURCES, SCHEMA_SECTION_TYPES, SCHEMA_SECTION_FUNCTIONS } schema_section_t;
const struct cJSON *schema_indexed_json(schema_package_t *pkg, schema_section_t section, size_t i);
const char *const *schema_indexed_aliases(const schema_package_t *pkg, size_t i, size_t *n);
const struct cJSON *schema_indexed_header(const schema_package_t *pkg);
/* Property by name in a sorted property list; NULL if absent. */
const schema_property_t *schema_find_property(const schema_property_t *props, size_t n, const char *name);
/* Wraps in a secret (from arena a) every value of obj that props, or the object, list and map types
 * below them, mark `secret` — at any depth, whatever the value came as; a value secret already, or
 * null, is left as it is. A union's object members are all applied (a key secret in any of them is
 * kept secret). Values are changed in place. */
void schema_wrap_secrets(arena_t *a, const schema_property_t *props, size_t n, pv_t *obj);
/* Module of a token per the package's moduleFormat: `aws:s3/bucket:Bucket` → "s3";
 * `aws:index/region:Region` → "index". "" when the token is not `pkg:module:member` or the format
 * does not match (as Pulumi's TokenToModule). */
char *schema_token_module(arena_t *a, const schema_package_t *pkg, const char *token);

/* The package part of a type token: `aws:s3/bucket:Bucket` → "aws"; `pulumi:providers:aws` → "aws".
 * Returns a pointer into an arena copy. */
char *schema_token_package(arena_t *a, const char *token);

/* A set of schemas keyed by package name, e.g. from `--schema DIR`. */
typedef struct schema_set schema_set_t;
schema_set_t *schema_set_new(void);
void schema_set_free(schema_set_t *set);
/* Adds a schema file, or the schemas of a directory: every `schema.json` and `schema-*.json` below
 * it, and every other `*.json` directly in it that is a schema (`bridge-metadata*.json` and other
 * valid JSON that is not a schema are skipped when scanning, but a file named directly must be a
 * schema). Returns false if anything failed to load (what did load stays added). */
bool schema_set_add_path(schema_set_t *set, const char *path, diag_list_t *diags);
/* Takes ownership. A second schema of the same package replaces the first only if newer. */
void schema_set_add(schema_set_t *set, schema_package_t *pkg);
/* Adds a schema owned elsewhere (e.g. a provider's GetSchema cache); the set never frees it, and it
 * must outlive the set's use. */
void schema_set_add_borrowed(schema_set_t *set, schema_package_t *pkg);
schema_package_t *schema_set_get(schema_set_t *set, const char *package);
size_t schema_set_count(const schema_set_t *set);
schema_package_t *schema_set_at(schema_set_t *set, size_t i);

#endif

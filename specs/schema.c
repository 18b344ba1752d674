/* schema.c — loading Pulumi package schemas and resolving their resources and types (see schema.h).
 *
 * Loading builds no tree of the whole document (Pulumi's PartialPackage is the model): the file is
 * mapped and a validating structural scan (specs/jsonscan.h) indexes every resource token, alias
 * token and type token with the byte range of its JSON in open-addressing hash tables; only the
 * package header (name, version, meta, language overrides, provider) is parsed with cJSON. Nothing
 * else is looked at until somebody asks: the first lookup of a resource or type parses its range,
 * turns it into schema_* structs (and, transitively, the types it refers to) and caches the result
 * in the token's slot, so later lookups are a hash probe. A 200 MB schema costs one scan and the
 * index, not a tree ten times its size.
 *
 * Everything a package allocates comes from one arena it owns; schema_free releases the arena, the
 * parsed ranges, the map and the compiled moduleFormat regex. Lookups fill caches, so a package must not be
 * looked up from two threads at once. */
#include "specs/schema.h"
#include "specs/json_strict.h"
#include "specs/suggest.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "specs/jsonscan.h"

/* One token in an index: the JSON it names and, once resolved, what it resolved to. Alias tokens
 * point at the canonical token's slot so both share one resolution. */
typedef struct schema_slot {
    const char *token;
    const cJSON *json; /* parsed from [start, start + len) of the text on first use */
    size_t start, len;
    bool is_provider;
    const char **aliases; /* resources: the alias tokens the scan found (what the index maps to this slot) */
    size_t n_aliases;
    schema_resource_t *resource; /* resources: resolved on first lookup */
    schema_type_t *type;         /* types: resolved on first lookup */
    schema_object_t *object;     /* object types: the object view (also for property-less objects) */
    schema_function_t *function; /* functions: resolved on first lookup */
} schema_slot_t;

typedef enum { MODULE_RE_UNTRIED = 0, MODULE_RE_OK, MODULE_RE_FAILED } module_re_state_t;

typedef struct schema_impl {
    arena_t *arena;
    cJSON *root; /* the document without its resources, types and functions */
    /* the schema text: a read-only map of the file, or a malloc'd copy of a buffer */
    const char *text;
    size_t text_len;
    bool mapped;
    cJSON **parsed; /* the JSON of every slot parsed so far (resolved structs point into them) */
    /* what the scan found, kept for writing the index cache entry */
    const char *skel; /* the document without resources, types and functions */
    size_t skel_len;
    struct scan_list *scan_res, *scan_types, *scan_fns;
    size_t n_parsed, cap_parsed;
    /* token → its schema_slot_t (tokens are arena strings; freed with the arena: index_release) */
    hashmap_t resources; /* canonical tokens, alias tokens and pulumi:providers:<name> */
    hashmap_t types;
    hashmap_t types_folded;   /* lower-cased type tokens, built on the first exact-match miss */
    hashmap_t functions;      /* function tokens (invokes and resource methods) */
    schema_slot_t *res_slots; /* resources in schema order (provider excluded) */
    size_t n_res;
    schema_slot_t *type_slots;
    size_t n_types;
    schema_slot_t *fn_slots;
    size_t n_fns;
    schema_slot_t provider;
    /* meta.moduleFormat compiled on first use of schema_token_module */
    module_re_state_t module_re_state;
    regex_t module_re;
    size_t module_group; /* the POSIX group number of the format's first capturing group, 0 if none */
    hashmap_t modules;   /* a token's module part → the module the format gives (im->arena strings) */
} schema_impl_t;

/* Primitive types carry no per-use data, so every property of such a type shares one of these. */
static const schema_type_t type_any = {.kind = SCHEMA_ANY};
static const schema_type_t type_bool = {.kind = SCHEMA_BOOL};
static const schema_type_t type_int = {.kind = SCHEMA_INT};
static const schema_type_t type_number = {.kind = SCHEMA_NUMBER};
static const schema_type_t type_string = {.kind = SCHEMA_STRING};
static const schema_type_t type_asset = {.kind = SCHEMA_ASSET};
static const schema_type_t type_archive = {.kind = SCHEMA_ARCHIVE};
static const schema_type_t type_json = {.kind = SCHEMA_JSON};

/* --- small JSON helpers ------------------------------------------------------------------------- */

static const cJSON *jget(const cJSON *obj, const char *key) {
    return obj ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

static const char *jstr(const cJSON *obj, const char *key) {
    const cJSON *v = jget(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool jbool(const cJSON *obj, const char *key) {
    return cJSON_IsTrue(jget(obj, key));
}

static const cJSON *jobj(const cJSON *obj, const char *key) {
    const cJSON *v = jget(obj, key);
    return cJSON_IsObject(v) ? v : NULL;
}

/* language.<lang>.<key> as a string, NULL when absent. */
static const char *jlang(const cJSON *language, const char *lang, const char *key) {
    return jstr(jobj(language, lang), key);
}

/* --- token index ------------------------------------------------------------------------------- */

static schema_slot_t *map_get(const hashmap_t *m, const char *key) {
    void **v = hashmap_find_str(m, key);
    return v ? *v : NULL;
}

/* Inserts key unless present; the first insertion of a token wins (a canonical token is inserted
 * before any alias, so an alias never shadows a real resource). */
static void map_put(hashmap_t *m, const char *key, schema_slot_t *val) {
    hashmap_add_str(m, key, val);
}

/* The token maps live as long as the package's arena. */
static void index_release(void *impl) {
    schema_impl_t *im = impl;
    hashmap_free(&im->resources);
    hashmap_free(&im->types);
    hashmap_free(&im->types_folded);
    hashmap_free(&im->functions);
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes %XX escapes (schemas escape "/" in $ref tokens as %2F); a malformed escape is kept as is. */
static char *url_decode(arena_t *a, const char *s) {
    size_t n = strlen(s);
    char *out = arena_alloc(a, n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < n && (hi = hex_digit(s[i + 1])) >= 0 && (lo = hex_digit(s[i + 2])) >= 0) {
            *o++ = (char)(hi * 16 + lo);
            i += 2;
        } else {
            *o++ = s[i];
        }
    }
    *o = '\0';
    return out;
}

/* Lower-cases ASCII letters (tokens are ASCII in practice; other bytes are kept). */
static char *fold_case(arena_t *a, const char *s) {
    char *out = arena_strdup(a, s);
    for (char *p = out; *p; p++) {
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    }
    return out;
}

/* The slot of a type token. Type tokens are unique without regard to case in Pulumi schemas, and
 * real schemas refer to types with the wrong case (the AWS provider's `region` is
 * `#/types/aws:index/region:Region` while the type is `aws:index/Region:Region`), so an exact miss
 * falls back to a case-insensitive match. */
static schema_slot_t *find_type_slot(schema_impl_t *im, const char *token) {
    schema_slot_t *s = map_get(&im->types, token);
    if (s || !im->n_types) return s;
    if (!hashmap_count(&im->types_folded)) {
        for (size_t i = 0; i < im->n_types; i++)
            map_put(&im->types_folded, fold_case(im->arena, im->type_slots[i].token), &im->type_slots[i]);
    }
    arena_t *tmp = arena_new();
    s = map_get(&im->types_folded, fold_case(tmp, token));
    arena_free(tmp);
    return s;
}

/* --- resolution -------------------------------------------------------------------------------- */

static const schema_type_t *resolve_named_type(schema_impl_t *im, schema_slot_t *slot);

static schema_type_t *type_new(schema_impl_t *im, schema_kind_t kind) {
    schema_type_t *t = arena_alloc(im->arena, sizeof *t);
    t->kind = kind;
    return t;
}

static const schema_type_t *primitive_type(const char *name) {
    if (!name) return NULL;
    if (strcmp(name, "string") == 0) return &type_string;
    if (strcmp(name, "integer") == 0) return &type_int;
    if (strcmp(name, "number") == 0) return &type_number;
    if (strcmp(name, "boolean") == 0) return &type_bool;
    return NULL;
}

/* The token after `#/types/` or `#/resources/` in a reference, decoded; NULL if the section is not
 * in the reference. */
static char *ref_token(schema_impl_t *im, const char *ref, const char *section) {
    const char *p = strstr(ref, section);
    return p ? url_decode(im->arena, p + strlen(section)) : NULL;
}

static schema_slot_t *find_type_slot(schema_impl_t *im, const char *token);

static const schema_type_t *resolve_ref(schema_impl_t *im, const char *ref, const cJSON *spec) {
    if (strcmp(ref, "pulumi.json#/Any") == 0) return &type_any;
    if (strcmp(ref, "pulumi.json#/Json") == 0) return &type_json;
    if (strcmp(ref, "pulumi.json#/Asset") == 0) return &type_asset;
    if (strcmp(ref, "pulumi.json#/Archive") == 0) return &type_archive;
    bool local = ref[0] == '#';
    if (local && strncmp(ref, "#/types/", 8) == 0) {
        char *tok = url_decode(im->arena, ref + 8);
        schema_slot_t *slot = find_type_slot(im, tok);
        if (slot) return resolve_named_type(im, slot);
        /* A dangling reference. Real bridged schemas have them (the AWS schema's
         * `{"type": "string", "$ref": "#/types/aws:iam/role:Role"}` union members name a resource or a
         * type the schema does not define), so it is not an error: the spec's own scalar `type` (else
         * any) with the missing token kept so callers can say what is missing. */
        const schema_type_t *prim = primitive_type(jstr(spec, "type"));
        schema_type_t *t = type_new(im, prim ? prim->kind : SCHEMA_ANY);
        t->token = tok;
        return t;
    }
    if (local && strncmp(ref, "#/resources/", 12) == 0) {
        schema_type_t *t = type_new(im, SCHEMA_RESOURCE);
        t->token = url_decode(im->arena, ref + 12);
        return t;
    }
    if (local && strcmp(ref, "#/provider") == 0) {
        schema_type_t *t = type_new(im, SCHEMA_RESOURCE);
        t->token = im->provider.token;
        return t;
    }
    /* Another package's type or resource (`/aws/v4.0.0/schema.json#/types/...`) or something we do not
     * understand: untyped, with the reference kept. */
    schema_type_t *t = type_new(im, SCHEMA_ANY);
    t->external_ref = ref;
    t->token = ref_token(im, ref, "#/types/");
    if (!t->token) t->token = ref_token(im, ref, "#/resources/");
    return t;
}

/* A property's type spec: {type...}, {$ref}, {oneOf}. Unknown or missing type → any (tolerant of
 * older schema formats). */
static const schema_type_t *resolve_typespec(schema_impl_t *im, const cJSON *spec) {
    if (!cJSON_IsObject(spec)) return &type_any;
    const char *ref = jstr(spec, "$ref");
    if (ref) return resolve_ref(im, ref, spec);
    const cJSON *one_of = jget(spec, "oneOf");
    if (cJSON_IsArray(one_of)) {
        schema_type_t *t = type_new(im, SCHEMA_UNION);
        size_t n = (size_t)cJSON_GetArraySize(one_of);
        const schema_type_t **members = arena_alloc(im->arena, (n ? n : 1) * sizeof *members);
        const cJSON *m;
        size_t i = 0;
        cJSON_ArrayForEach(m, one_of) members[i++] = resolve_typespec(im, m);
        t->members = members;
        t->n_members = i;
        const cJSON *disc = jobj(spec, "discriminator");
        if (disc) {
            t->discriminator = jstr(disc, "propertyName");
            const cJSON *mapping = jobj(disc, "mapping");
            size_t nm = mapping ? (size_t)cJSON_GetArraySize(mapping) : 0;
            if (nm) {
                schema_union_mapping_t *mp = arena_alloc(im->arena, nm * sizeof *mp);
                size_t k = 0;
                cJSON_ArrayForEach(m, mapping) {
                    if (!cJSON_IsString(m)) continue;
                    mp[k].value = m->string;
                    mp[k].ref = m->valuestring;
                    k++;
                }
                t->mapping = mp;
                t->n_mapping = k;
            }
        }
        return t;
    }
    const char *type = jstr(spec, "type");
    const schema_type_t *prim = primitive_type(type);
    if (prim) return prim;
    if (type && strcmp(type, "array") == 0) {
        schema_type_t *t = type_new(im, SCHEMA_ARRAY);
        t->element = resolve_typespec(im, jget(spec, "items"));
        return t;
    }
    if (type && strcmp(type, "object") == 0) {
        /* A property-level object is a map; without additionalProperties it is a map of anything. */
        schema_type_t *t = type_new(im, SCHEMA_MAP);
        t->element = resolve_typespec(im, jget(spec, "additionalProperties"));
        return t;
    }
    return &type_any;
}

static int cmp_prop(const void *x, const void *y) {
    return strcmp(((const schema_property_t *)x)->name, ((const schema_property_t *)y)->name);
}

static bool name_in(const cJSON *arr, const char *name) {
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        if (cJSON_IsString(e) && strcmp(e->valuestring, name) == 0) return true;
    }
    return false;
}

static void resolve_property(schema_impl_t *im, schema_property_t *p, const cJSON *spec, bool required) {
    p->name = spec->string;
    p->required = required;
    p->type = resolve_typespec(im, spec);
    p->secret = jbool(spec, "secret");
    p->plain = jbool(spec, "plain");
    /* `willReplaceOnChanges` is the schema's spelling; a few hand-written schemas use replaceOnChanges. */
    p->replace_on_changes = jbool(spec, "willReplaceOnChanges") || jbool(spec, "replaceOnChanges");
    p->deprecation = jstr(spec, "deprecationMessage");
    const cJSON *def = jget(spec, "default");
    if (def) p->default_value = pv_from_state_json(im->arena, def, "default", NULL);
    const cJSON *env = jget(jobj(spec, "defaultInfo"), "environment");
    if (cJSON_IsArray(env)) {
        size_t n = (size_t)cJSON_GetArraySize(env), k = 0;
        const char **vars = arena_alloc(im->arena, (n ? n : 1) * sizeof *vars);
        const cJSON *e;
        cJSON_ArrayForEach(e, env) {
            if (cJSON_IsString(e)) vars[k++] = e->valuestring;
        }
        p->default_env = vars;
        p->n_default_env = k;
    }
    const cJSON *cst = jget(spec, "const");
    if (cst) {
        char *text = cJSON_PrintUnformatted(cst);
        if (text) {
            p->const_value_json = arena_strdup(im->arena, text);
            free(text);
        }
    }
    p->language = jobj(spec, "language");
    p->csharp_name = jlang(p->language, "csharp", "name");
    p->python_name = jlang(p->language, "python", "name");
}

/* The properties of a resource or object type, sorted by name; `required` names the required ones. */
static schema_property_t *resolve_properties(schema_impl_t *im, const cJSON *props, const cJSON *required,
                                             size_t *n_out) {
    *n_out = 0;
    if (!cJSON_IsObject(props)) return NULL;
    size_t n = (size_t)cJSON_GetArraySize(props);
    if (!n) return NULL;
    schema_property_t *out = arena_alloc(im->arena, n * sizeof *out);
    size_t k = 0;
    const cJSON *spec;
    cJSON_ArrayForEach(spec, props) {
        resolve_property(im, &out[k], spec, cJSON_IsArray(required) && name_in(required, spec->string));
        k++;
    }
    qsort(out, k, sizeof *out, cmp_prop);
    *n_out = k;
    return out;
}

/* A slot's JSON: its byte range parsed on first use (the scan at load time validated it). */
/* Keeps a parsed tree until the schema is freed (the one growable-array rule of base/vec). */
static void keep_parsed(schema_impl_t *im, cJSON *j) {
    im->parsed = vec_grow(im->parsed, &im->cap_parsed, im->n_parsed + 1, sizeof *im->parsed);
    im->parsed[im->n_parsed++] = j;
}

static const cJSON *slot_json(schema_impl_t *im, schema_slot_t *slot) {
    if (slot->json || !slot->len) return slot->json;
    cJSON *j = cJSON_ParseWithLength(im->text + slot->start, slot->len);
    if (!j) return NULL;
    keep_parsed(im, j);
    slot->json = j;
    return j;
}

static const schema_type_t *resolve_named_type(schema_impl_t *im, schema_slot_t *slot) {
    if (slot->type) return slot->type;
    const cJSON *j = slot_json(im, slot);
    const char *type = jstr(j, "type");
    const cJSON *enm = jget(j, "enum");
    if (cJSON_IsArray(enm)) {
        schema_type_t *t = type_new(im, SCHEMA_ENUM);
        slot->type = t;
        t->token = slot->token;
        t->element = primitive_type(type);
        if (!t->element) t->element = &type_string;
        size_t n = (size_t)cJSON_GetArraySize(enm), k = 0;
        schema_enum_value_t *vals = arena_alloc(im->arena, (n ? n : 1) * sizeof *vals);
        const cJSON *e;
        cJSON_ArrayForEach(e, enm) {
            const cJSON *v = jget(e, "value");
            if (!v) continue;
            vals[k].name = jstr(e, "name");
            vals[k].value = pv_from_state_json(im->arena, v, "enum value", NULL);
            vals[k].description = jstr(e, "description");
            vals[k].deprecation = jstr(e, "deprecationMessage");
            k++;
        }
        t->enum_values = vals;
        t->n_enum_values = k;
        return t;
    }
    const schema_type_t *prim = primitive_type(type);
    if (prim) {
        /* A named scalar (seen in hand-written schemas): the scalar, with its token. */
        schema_type_t *t = type_new(im, prim->kind);
        t->token = slot->token;
        slot->type = t;
        return t;
    }
    /* An object type (the default when `type` is absent, as in some older schemas). The object is
     * cached before its properties are resolved so that recursive types refer to themselves. */
    schema_object_t *o = arena_alloc(im->arena, sizeof *o);
    o->token = slot->token;
    o->is_overlay = jbool(j, "isOverlay");
    o->language = jobj(j, "language");
    slot->object = o;
    const cJSON *props = jobj(j, "properties");
    schema_type_t *t;
    if (!props || cJSON_GetArraySize(props) == 0) {
        /* `{"type": "object"}` with no properties declares nothing to check keys against; treating it
         * as an empty object would drop every key of a value, so it is a map of anything. */
        t = type_new(im, SCHEMA_MAP);
        t->element = &type_any;
    } else {
        t = type_new(im, SCHEMA_OBJECT);
        t->object = o;
    }
    t->token = slot->token;
    slot->type = t;
    size_t n;
    o->props = resolve_properties(im, props, jget(j, "required"), &n);
    o->n_props = n;
    return t;
}

static const schema_resource_t *resolve_resource(schema_impl_t *im, schema_slot_t *slot) {
    if (slot->resource) return slot->resource;
    const cJSON *j = slot_json(im, slot);
    schema_resource_t *r = arena_alloc(im->arena, sizeof *r);
    slot->resource = r;
    r->token = slot->token;
    r->is_provider = slot->is_provider;
    r->is_component = jbool(j, "isComponent");
    r->deprecation = jstr(j, "deprecationMessage");
    r->language = jobj(j, "language");
    r->csharp_name = jlang(r->language, "csharp", "name");
    size_t n;
    r->inputs = resolve_properties(im, jget(j, "inputProperties"), jget(j, "requiredInputs"), &n);
    r->n_inputs = n;
    r->outputs = resolve_properties(im, jget(j, "properties"), jget(j, "required"), &n);
    r->n_outputs = n;
    const cJSON *aliases = jget(j, "aliases");
    if (cJSON_IsArray(aliases)) {
        size_t na = (size_t)cJSON_GetArraySize(aliases), k = 0;
        const char **out = arena_alloc(im->arena, (na ? na : 1) * sizeof *out);
        const cJSON *a;
        cJSON_ArrayForEach(a, aliases) {
            const char *t = cJSON_IsString(a) ? a->valuestring : jstr(a, "type");
            if (t) out[k++] = t;
        }
        r->aliases = out;
        r->n_aliases = k;
    }
    const cJSON *methods = jobj(j, "methods");
    size_t nm = methods ? (size_t)cJSON_GetArraySize(methods) : 0;
    if (nm) {
        schema_method_t *ms = arena_alloc(im->arena, nm * sizeof *ms);
        size_t k = 0;
        const cJSON *m;
        cJSON_ArrayForEach(m, methods) {
            if (!cJSON_IsString(m) || !m->string) continue;
            ms[k].name = m->string;
            ms[k].function = m->valuestring;
            k++;
        }
        r->methods = ms;
        r->n_methods = k;
    }
    return r;
}

/* A function's `outputs`: an object type of named properties (what most functions return), or any
 * other type spec (a scalar, list or map return: Pulumi's ReturnTypeSpec). */
static void resolve_function_return(schema_impl_t *im, schema_function_t *f, const cJSON *outs) {
    if (!cJSON_IsObject(outs)) return; /* returns nothing */
    f->return_plain = jbool(outs, "plain");
    const cJSON *props = jobj(outs, "properties");
    const char *type = jstr(outs, "type");
    bool object = props || (!jstr(outs, "$ref") && !jget(outs, "oneOf") && type && strcmp(type, "object") == 0 &&
                            !jget(outs, "additionalProperties"));
    if (!object) {
        f->return_type = resolve_typespec(im, outs);
        f->scalar_return = true;
        return;
    }
    schema_object_t *o = arena_alloc(im->arena, sizeof *o);
    o->token = f->token;
    size_t n;
    o->props = resolve_properties(im, props, jget(outs, "required"), &n);
    o->n_props = n;
    f->outputs = o->props;
    f->n_outputs = n;
    schema_type_t *t = type_new(im, SCHEMA_OBJECT);
    t->object = o;
    t->token = f->token;
    f->return_type = t;
}

static const schema_function_t *resolve_function(schema_impl_t *im, schema_slot_t *slot) {
    if (slot->function) return slot->function;
    const cJSON *j = slot_json(im, slot);
    schema_function_t *f = arena_alloc(im->arena, sizeof *f);
    slot->function = f;
    f->token = slot->token;
    f->deprecation = jstr(j, "deprecationMessage");
    const cJSON *ins = jobj(j, "inputs");
    size_t n;
    f->inputs = resolve_properties(im, jget(ins, "properties"), jget(ins, "required"), &n);
    f->n_inputs = n;
    const cJSON *multi = jget(j, "multiArgumentInputs");
    if (cJSON_IsArray(multi)) {
        size_t nm = (size_t)cJSON_GetArraySize(multi), k = 0;
        const char **names = arena_alloc(im->arena, (nm ? nm : 1) * sizeof *names);
        const cJSON *m;
        cJSON_ArrayForEach(m, multi) {
            if (cJSON_IsString(m)) names[k++] = m->valuestring;
        }
        f->multi_args = names;
        f->n_multi_args = k;
        f->multi_argument = true;
    }
    resolve_function_return(im, f, jget(j, "outputs"));
    return f;
}

/* --- loading ----------------------------------------------------------------------------------- */

/* One resource or type found by the load-time scan. */
typedef struct scan_entry {
    const char *token;
    size_t start, len;
    const char **aliases; /* resources: alias tokens */
    size_t n_aliases;
} scan_entry_t;

typedef struct scan_list {
    scan_entry_t *items;
    size_t n, cap;
} scan_list_t;

static scan_entry_t *scan_list_add(arena_t *a, scan_list_t *l) {
    l->items = arena_grow_array(a, l->items, &l->cap, l->n + 1, sizeof *l->items);
    return &l->items[l->n++];
}

/* Releases the scanned part of a mapped schema every few megabytes (the pages stay in the page
 * cache; a lookup maps back only the few it reads). */
static void drop_scanned(schema_impl_t *im, size_t *dropped, size_t upto) {
    if (!im->mapped) return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t end = upto & ~(page - 1);
    if (end > *dropped + (16u << 20)) {
        madvise((void *)(im->text + *dropped), end - *dropped, MADV_DONTNEED);
        *dropped = end;
    }
}

/* `resources` or `types`: each member's token and the byte range of its value; resources also
 * give their alias tokens. Members that are not objects are skipped, as the whole-tree loader did. */
static bool scan_section(schema_impl_t *im, jscan_t *s, bool resources, scan_list_t *out, size_t *dropped) {
    jscan_object_begin(s);
    bool first = true, done = false;
    while (true) {
        jscan_range_t key;
        bool esc;
        if (!jscan_object_next(s, &first, &key, &esc, &done)) return false;
        if (done) return true;
        if (jscan_peek(s) != '{') {
            if (!jscan_value(s, NULL)) return false;
            continue;
        }
        size_t start = s->pos;
        scan_entry_t *e = scan_list_add(im->arena, out);
        e->token = jscan_string(im->arena, s, (jscan_range_t){key.start - 1, key.end + 1});
        if (resources) {
            /* one level down, for `aliases` */
            jscan_object_begin(s);
            bool f2 = true, d2 = false;
            bool seen = false;
            while (true) {
                jscan_range_t k2, v;
                bool e2;
                if (!jscan_object_next(s, &f2, &k2, &e2, &d2)) return false;
                if (d2) break;
                if (!jscan_value(s, &v)) return false;
                if (seen || !jscan_key_is(s, k2, e2, "aliases") || s->text[v.start] != '[') continue;
                seen = true;
                cJSON *al = cJSON_ParseWithLength(s->text + v.start, v.end - v.start);
                size_t n = (size_t)cJSON_GetArraySize(al), k = 0;
                e->aliases = arena_alloc(im->arena, (n ? n : 1) * sizeof *e->aliases);
                const cJSON *x;
                cJSON_ArrayForEach(x, al) {
                    const char *t = cJSON_IsString(x) ? x->valuestring : jstr(x, "type");
                    if (t) e->aliases[k++] = arena_strdup(im->arena, t);
                }
                e->n_aliases = k;
                cJSON_Delete(al);
            }
        } else if (!jscan_value(s, NULL)) {
            return false;
        }
        e->start = start;
        e->len = s->pos - start;
        drop_scanned(im, dropped, s->pos);
    }
}

static void index_package(schema_impl_t *im, const char *pkg_name, const scan_list_t *res, const scan_list_t *types,
                          const scan_list_t *fns) {
    arena_on_free(im->arena, index_release, im);

    /* The provider resource always exists (Pulumi's binder supplies an empty one when the schema has
     * none), so `pulumi:providers:<pkg>` always resolves. */
    im->provider.token = arena_sprintf(im->arena, "pulumi:providers:%s", pkg_name);
    im->provider.json = jobj(im->root, "provider");
    im->provider.is_provider = true;
    map_put(&im->resources, im->provider.token, &im->provider);

    /* each map sized once for what it is about to hold (a 200 MB schema: tens of thousands) */
    size_t n_aliases = 0;
    for (size_t i = 0; i < res->n; i++)
        n_aliases += res->items[i].n_aliases;
    hashmap_reserve(&im->resources, res->n + n_aliases);
    hashmap_reserve(&im->types, types->n);
    hashmap_reserve(&im->functions, fns->n);
    im->res_slots = arena_alloc(im->arena, (res->n ? res->n : 1) * sizeof *im->res_slots);
    size_t k = 0;
    for (size_t i = 0; i < res->n; i++) {
        const scan_entry_t *e = &res->items[i];
        if (!e->token) continue;
        im->res_slots[k].token = e->token;
        im->res_slots[k].start = e->start;
        im->res_slots[k].len = e->len;
        im->res_slots[k].aliases = e->aliases;
        im->res_slots[k].n_aliases = e->n_aliases;
        map_put(&im->resources, e->token, &im->res_slots[k]);
        k++;
    }
    im->n_res = k;
    k = 0;
    for (size_t i = 0; i < res->n; i++) {
        const scan_entry_t *e = &res->items[i];
        if (!e->token) continue;
        for (size_t j = 0; j < e->n_aliases; j++)
            map_put(&im->resources, e->aliases[j], &im->res_slots[k]);
        k++;
    }

    im->type_slots = arena_alloc(im->arena, (types->n ? types->n : 1) * sizeof *im->type_slots);
    k = 0;
    for (size_t i = 0; i < types->n; i++) {
        const scan_entry_t *e = &types->items[i];
        if (!e->token) continue;
        im->type_slots[k].token = e->token;
        im->type_slots[k].start = e->start;
        im->type_slots[k].len = e->len;
        map_put(&im->types, e->token, &im->type_slots[k]);
        k++;
    }
    im->n_types = k;

    im->fn_slots = arena_alloc(im->arena, (fns->n ? fns->n : 1) * sizeof *im->fn_slots);
    k = 0;
    for (size_t i = 0; i < fns->n; i++) {
        const scan_entry_t *e = &fns->items[i];
        if (!e->token) continue;
        im->fn_slots[k].token = e->token;
        im->fn_slots[k].start = e->start;
        im->fn_slots[k].len = e->len;
        map_put(&im->functions, e->token, &im->fn_slots[k]);
        k++;
    }
    im->n_fns = k;
}

/* The 1-based line of a position in text, and that line's text (leading blanks skipped, at most
 * 60 bytes) for the message. cJSON's error position can be one past the offending character, so
 * the message quotes the line rather than claiming an exact column. */
static size_t text_line(const char *text, size_t len, size_t pos, const char **line_start, int *line_len) {
    size_t line = 1;
    size_t start = 0;
    for (size_t i = 0; i < pos && i < len; i++) {
        if (text[i] == '\n') {
            line++;
            start = i + 1;
        }
    }
    while (start < len && (text[start] == ' ' || text[start] == '\t'))
        start++;
    size_t end = start;
    while (end < len && text[end] != '\n' && text[end] != '\r' && end - start < 60)
        end++;
    /* do not cut a UTF-8 sequence in two */
    while (end > start && end < len && ((unsigned char)text[end] & 0xC0) == 0x80)
        end--;
    *line_start = text + start;
    *line_len = (int)(end - start);
    return line;
}

#define SCHEMA_HINT "a package schema is the JSON printed by `pulumi package get-schema <plugin>`"

static const char *json_first_kind(char c) {
    switch (c) {
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    default: return "a number";
    }
}

static schema_package_t *finish_load(schema_package_t *pkg, scan_list_t *res, scan_list_t *types, scan_list_t *fns,
                                     const char *where, diag_list_t *diags);

/* Loads from text that the package then owns: a map of the file (mapped) or a malloc'd copy (not
 * const: ownership passes here, and schema_free unmaps or frees it). A validating scan indexes every
 * resource and type by the byte range of its JSON; only the rest of the document (name, version,
 * meta, language, provider, config) becomes a cJSON tree. */
static schema_package_t *load_indexed(char *text, size_t len, bool mapped, const char *where, diag_list_t *diags) {
    size_t start = 0;
    while (start < len && (text[start] == ' ' || text[start] == '\t' || text[start] == '\n' || text[start] == '\r'))
        start++;
    arena_t *a = arena_new();
    schema_impl_t *im = arena_alloc(a, sizeof *im);
    im->arena = a;
    im->text = text;
    im->text_len = len;
    im->mapped = mapped;
    schema_package_t *pkg = arena_alloc(a, sizeof *pkg);
    pkg->impl = im;
    if (start == len) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL, "the schema file is empty; %s", SCHEMA_HINT);
        schema_free(pkg);
        return NULL;
    }
    if (!json_encoding_check(text, len, where, diags)) {
        schema_free(pkg);
        return NULL;
    }
    if (mapped) madvise((void *)text, len, MADV_SEQUENTIAL);
    /* Duplicate keys and the like (issue 15): a map is checked on a second thread beside the scan
     * (its pages given back as they are read), its answer used once the text is known to be JSON. */
    json_strict_job_t strict = {0};
    if (mapped) json_strict_start(&strict, text, len, where);
    jscan_t s;
    jscan_init(&s, text, len);
    scan_list_t res = {0}, types = {0}, fns = {0};
    jscan_range_t cuts[3];
    int n_cuts = 0;
    bool seen_res = false, seen_types = false, seen_fns = false;
    size_t dropped = 0;
    char first_char = jscan_peek(&s);
    if (first_char == '{') {
        jscan_object_begin(&s);
        bool first = true, done = false;
        while (true) {
            jscan_range_t key;
            bool esc;
            if (!jscan_object_next(&s, &first, &key, &esc, &done) || done) break;
            bool is_res = !seen_res && jscan_key_is(&s, key, esc, "resources");
            bool is_types = !seen_types && jscan_key_is(&s, key, esc, "types");
            bool is_fns = !seen_fns && jscan_key_is(&s, key, esc, "functions");
            if ((is_res || is_types || is_fns) && jscan_peek(&s) == '{') {
                size_t vstart = s.pos;
                bool ok = scan_section(im, &s, is_res, is_res ? &res : is_types ? &types : &fns, &dropped);
                if (!ok) break;
                cuts[n_cuts++] = (jscan_range_t){vstart, s.pos};
                seen_res |= is_res;
                seen_types |= is_types;
                seen_fns |= is_fns;
            } else if (!jscan_value(&s, NULL)) {
                break;
            }
        }
    } else {
        jscan_value(&s, NULL);
    }
    if (!s.err) jscan_end(&s);
    if (s.err) {
        if (mapped) json_strict_finish(&strict, false, diags);
        const char *excerpt;
        int excerpt_len;
        size_t line = text_line(text, len, s.err_pos, &excerpt, &excerpt_len);
        diag_t *d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL,
                             "the schema is not valid JSON (syntax error in `%.*s`%s); %s", excerpt_len, excerpt,
                             s.err_pos >= len ? ": the file ends early, it is cut off" : "", SCHEMA_HINT);
        if (d) d->line = (long)line;
        schema_free(pkg);
        return NULL;
    }
    if (!(mapped ? json_strict_finish(&strict, true, diags) : json_strict_check(text, len, where, diags))) {
        schema_free(pkg);
        return NULL;
    }
    if (first_char != '{') {
        diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, where, NULL,
                 "not a Pulumi package schema (it is %s, not a JSON object); %s", json_first_kind(first_char),
                 SCHEMA_HINT);
        schema_free(pkg);
        return NULL;
    }
    /* The document without its resources, types and functions (each cut to `{}`). */
    size_t cut_total = 0;
    for (int i = 0; i < n_cuts; i++)
        cut_total += cuts[i].end - cuts[i].start - 2;
    size_t skel_len = len - cut_total;
    char *skel = malloc(skel_len + 1);
    if (!skel) abort();
    size_t from = 0, at = 0;
    for (int i = 0; i < n_cuts; i++) {
        memcpy(skel + at, text + from, cuts[i].start - from);
        at += cuts[i].start - from;
        memcpy(skel + at, "{}", 2);
        at += 2;
        from = cuts[i].end;
    }
    memcpy(skel + at, text + from, len - from);
    skel[skel_len] = 0;
    im->skel = arena_strndup(a, skel, skel_len);
    im->skel_len = skel_len;
    free(skel);
    return finish_load(pkg, &res, &types, &fns, where, diags);
}

/* The package from its skeleton and its scanned (or cached) resources and types. */
static schema_package_t *finish_load(schema_package_t *pkg, scan_list_t *res, scan_list_t *types, scan_list_t *fns,
                                     const char *where, diag_list_t *diags) {
    schema_impl_t *im = pkg->impl;
    arena_t *a = im->arena;
    im->scan_res = arena_alloc(a, sizeof *res);
    *im->scan_res = *res;
    im->scan_types = arena_alloc(a, sizeof *types);
    *im->scan_types = *types;
    im->scan_fns = arena_alloc(a, sizeof *fns);
    *im->scan_fns = *fns;
    cJSON *root = cJSON_ParseWithLength(im->skel, im->skel_len);
    im->root = root;
    const char *name = jstr(root, "name");
    bool has_section =
        jobj(root, "resources") || jobj(root, "types") || jobj(root, "provider") || jobj(root, "functions");
    if (!name || !*name || !has_section) {
        diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, where, NULL, "not a Pulumi package schema (it has %s); %s",
                 !name && !has_section ? "no `name` and no `resources`"
                 : !name               ? "no `name`"
                 : !*name              ? "an empty `name`"
                                       : "no `resources`, `types`, `provider` or `functions`",
                 SCHEMA_HINT);
        schema_free(pkg);
        return NULL;
    }
    pkg->origin = arena_strdup(a, where);
    pkg->name = name;
    pkg->version = jstr(root, "version");
    pkg->display_name = jstr(root, "displayName");
    pkg->namespace_ = jstr(root, "namespace");
    pkg->repository = jstr(root, "repository");
    pkg->plugin_download_url = jstr(root, "pluginDownloadURL");
    const cJSON *meta = jobj(root, "meta");
    pkg->module_format = jstr(meta, "moduleFormat");
    if (!pkg->module_format) pkg->module_format = "(.*)";
    pkg->support_pack = jbool(meta, "supportPack");
    pkg->language = jobj(root, "language");
    pkg->nodejs_package_name = jlang(pkg->language, "nodejs", "packageName");
    pkg->python_package_name = jlang(pkg->language, "python", "packageName");
    pkg->python_input_types = jlang(pkg->language, "python", "inputTypes");
    pkg->go_import_base_path = jlang(pkg->language, "go", "importBasePath");
    pkg->csharp_root_namespace = jlang(pkg->language, "csharp", "rootNamespace");
    pkg->java_base_package = jlang(pkg->language, "java", "basePackage");
    index_package(im, name, res, types, fns);
    return pkg;
}

schema_package_t *schema_load_buffer(const char *text, size_t len, const char *origin, diag_list_t *diags) {
    char *copy = malloc(len + 1);
    if (!copy) abort();
    if (len) memcpy(copy, text, len);
    copy[len] = 0;
    return load_indexed(copy, len, false, origin ? origin : "<schema>", diags);
}

schema_package_t *schema_load_buffer_whole(const char *text, size_t len, const char *origin, diag_list_t *diags) {
    schema_package_t *pkg = schema_load_buffer(text, len, origin, diags);
    if (!pkg) return NULL;
    schema_impl_t *im = pkg->impl;
    cJSON *whole = cJSON_ParseWithLength(text, len);
    if (!whole) return pkg; /* cannot happen: the scan accepted it */
    /* Every slot resolves from the whole tree's member instead of its own range. */
    const cJSON *sections[3] = {jobj(whole, "resources"), jobj(whole, "types"), jobj(whole, "functions")};
    schema_slot_t *slots[3] = {im->res_slots, im->type_slots, im->fn_slots};
    size_t counts[3] = {im->n_res, im->n_types, im->n_fns};
    for (int k = 0; k < 3; k++) {
        size_t i = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, sections[k]) {
            if (!e->string || !cJSON_IsObject(e) || i >= counts[k]) continue;
            slots[k][i++].json = e;
        }
    }
    keep_parsed(im, whole);
    return pkg;
}

/* --- the index cache ------------------------------------------------------------------------------
 *
 * Scanning a 200 MB schema costs ~0.2 s; the cache makes the next load of the same file a read of
 * its index. An entry is `<cache>/schema-index/<FNV-1a of the file's real path>.idx`, where <cache>
 * is $XDG_CACHE_HOME/cimport or ~/.cache/cimport; it records the package name and version, the
 * schema file's identity (size, mtime and ctime in ns, inode, device) and a hash of its contents,
 * which scanner wrote it (CIMPORT_SCAN_ID: a hash of the scanner's sources),
 * the document without its resources, types and functions, and every token with the byte range of
 * its JSON, followed by nothing: a header (magic with the format version, body length, a 64-bit
 * checksum of the body) guards it. An entry whose magic, length, checksum or file identity does not
 * match — corrupted, written by another format version, or the schema file changed — is ignored and
 * rewritten after a fresh scan, so a bad entry costs time, never a wrong answer. The ctime is what
 * catches a file rewritten in place with its size and mtime kept (`cp -p` of another version onto
 * it): no program can set it back. A file changed within the ctime's granularity after its entry was
 * written would keep it, so an entry written less than CACHE_RACY_S seconds after the file's ctime
 * is "racy", as git calls it: its hash of the contents is checked when it is read (once the file is
 * old enough, the entry's mtime is moved on so that the check stops). Entries are written to a temporary file and
 * renamed, so concurrent runs see a whole entry or none. Only schemas of at least
 * SCHEMA_CACHE_MIN_BYTES are cached; CIMPORT_NO_SCHEMA_CACHE=1 turns the cache off. */

#define SCHEMA_CACHE_MIN_BYTES (8u << 20)
static const char cache_magic[16] = "cimport-sidx-v4\n"; /* v2: functions; v3: body_sum; v4: ctime, contents */
enum {
    CACHE_RACY_S = 2,
    CACHE_MARK_S = 86400,         /* a used entry's mtime is moved on at most once a day */
    CACHE_UNUSED_S = 30 * 86400,  /* an entry no run has used for this long is removed */
    CACHE_ABANDONED_TMP_S = 3600, /* a temporary entry this old is a killed writer's */
};
/* Which scanner wrote an entry: a hash of its sources (CMakeLists.txt), so that an entry written by a
 * build whose scan found other tokens or ranges is rebuilt, not trusted. */
#ifndef CIMPORT_SCAN_ID
#define CIMPORT_SCAN_ID "unknown"
#endif

static uint64_t fnv1a(const unsigned char *p, size_t n, uint64_t h) {
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* The entry body's checksum: base's word-at-a-time hash (a byte-at-a-time FNV-1a over the 3 MB body
 * of a 200 MB schema's entry was 40 % of a warm run), salted with the body length by the hash. */
static uint64_t body_sum(const char *p, size_t n) {
    return hashmap_hash(p, n);
}

/* A hash of the mapped schema file's contents: four independent lanes of 8 bytes (one lane's multiply
 * chain ran at ~5 GB/s, 40 ms of a 200 MB schema's cold load), joined by base's hash; the pages read
 * are given back every 16 MB, as the scan gives them back (a cold load holds well under 100 MB). Not
 * cryptographic: it tells one version of a file from another, not a forgery. */
static uint64_t contents_sum(const char *p, size_t n) {
    const uint64_t m = 0xFF51AFD7ED558CCDULL;
    uint64_t lane[4] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL, 0x27D4EB2F165667C5ULL};
    const size_t chunk = (size_t)16 << 20; /* a multiple of the page size and of 32 */
    size_t i = 0;
    while (i + 32 <= n) {
        size_t end = n - i > chunk ? i + chunk : n - (n - i) % 32;
        for (; i < end; i += 32)
            for (int k = 0; k < 4; k++) {
                uint64_t w;
                memcpy(&w, p + i + (size_t)8 * (size_t)k, 8);
                lane[k] = (lane[k] ^ w) * m;
                lane[k] ^= lane[k] >> 29;
            }
        if (i % chunk == 0) madvise((void *)(p + i - chunk), chunk, MADV_DONTNEED);
    }
    uint64_t tail[5] = {lane[0], lane[1], lane[2], lane[3], hashmap_hash(p + i, n - i)};
    return hashmap_hash(tail, sizeof tail) ^ (uint64_t)n;
}

static char *cache_entry_path(arena_t *a, const char *path) {
    const char *off = getenv("CIMPORT_NO_SCHEMA_CACHE");
    if (off && *off && strcmp(off, "0") != 0) return NULL;
    const char *root = file_cache_root(a);
    if (!root) return NULL;
    char *real = realpath(path, NULL);
    if (!real) return NULL;
    uint64_t h = fnv1a((const unsigned char *)real, strlen(real), 1469598103934665603ull);
    free(real);
    return arena_sprintf(a, "%s/schema-index/%016llx.idx", root, (unsigned long long)h);
}

typedef struct ident {
    uint64_t size, mtime_s, mtime_ns, ctime_s, ctime_ns, ino, dev;
} ident_t;

static ident_t ident_of(const struct stat *st) {
    return (ident_t){(uint64_t)st->st_size,        (uint64_t)st->st_mtim.tv_sec,  (uint64_t)st->st_mtim.tv_nsec,
                     (uint64_t)st->st_ctim.tv_sec, (uint64_t)st->st_ctim.tv_nsec, (uint64_t)st->st_ino,
                     (uint64_t)st->st_dev};
}

/* Whether an entry written at `written` could have missed a change of the file made within its ctime's
 * granularity (see the cache's comment above). */
static bool cache_racy(const struct stat *st, struct timespec written) {
    return written.tv_sec < st->st_ctim.tv_sec + CACHE_RACY_S;
}

static void put_u64(buf_t *b, uint64_t v) {
    buf_append(b, (const char *)&v, sizeof v);
}
static void put_str(buf_t *b, const char *s) {
    uint64_t n = strlen(s);
    put_u64(b, n);
    buf_append(b, s, n + 1); /* with its NUL: tokens point into the loaded entry */
}

/* Removes from the entry's directory the temporary files of writers killed over an hour ago and the
 * entries no run has used for CACHE_UNUSED_S (a hit marks an entry used: its mtime), so that the cache
 * does not grow for ever. Run when an entry is written, not on every load. */
static void cache_sweep(const char *entry) {
    char *dir = strdup(entry);
    char *slash = strrchr(dir, '/');
    if (!slash) {
        free(dir);
        return;
    }
    *slash = 0;
    DIR *d = opendir(dir);
    struct timespec now;
    if (!d || clock_gettime(CLOCK_REALTIME, &now) != 0) {
        if (d) closedir(d);
        free(dir);
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        bool tmp = strstr(e->d_name, ".idx.cimport-tmp-") != NULL;
        bool idx = n > 4 && strcmp(e->d_name + n - 4, ".idx") == 0;
        struct stat st;
        if ((!tmp && !idx) || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        long age = (long)(now.tv_sec - st.st_mtim.tv_sec);
        if ((tmp && age > CACHE_ABANDONED_TMP_S) || (idx && age > CACHE_UNUSED_S)) unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
    free(dir);
}

static void cache_write(const schema_package_t *pkg, const char *entry, const struct stat *st, uint64_t contents) {
    const schema_impl_t *im = pkg->impl;
    buf_t b = {0};
    buf_append(&b, cache_magic, sizeof cache_magic);
    put_u64(&b, 0); /* body length */
    put_u64(&b, 0); /* checksum */
    size_t body = b.len;
    ident_t id = ident_of(st);
    put_u64(&b, id.size);
    put_u64(&b, id.mtime_s);
    put_u64(&b, id.mtime_ns);
    put_u64(&b, id.ctime_s);
    put_u64(&b, id.ctime_ns);
    put_u64(&b, id.ino);
    put_u64(&b, id.dev);
    put_u64(&b, contents);
    put_str(&b, CIMPORT_SCAN_ID);
    put_str(&b, pkg->name);
    put_str(&b, pkg->version ? pkg->version : "");
    put_str(&b, im->skel);
    const scan_list_t *lists[3] = {im->scan_res, im->scan_types, im->scan_fns};
    for (int k = 0; k < 3; k++) {
        put_u64(&b, lists[k]->n);
        for (size_t i = 0; i < lists[k]->n; i++) {
            const scan_entry_t *e = &lists[k]->items[i];
            put_str(&b, e->token ? e->token : "");
            put_u64(&b, e->start);
            put_u64(&b, e->len);
            put_u64(&b, e->n_aliases);
            for (size_t j = 0; j < e->n_aliases; j++)
                put_str(&b, e->aliases[j]);
        }
    }
    uint64_t n = b.len - body, sum = body_sum(b.data + body, n);
    memcpy(b.data + sizeof cache_magic, &n, sizeof n);
    memcpy(b.data + sizeof cache_magic + 8, &sum, sizeof sum);
    /* the directory, then the entry through a temporary file and a rename */
    char *dir = strdup(entry);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(dir, 0700);
        *p = '/';
    }
    free(dir);
    cache_sweep(entry);
    /* Something other than an entry where the entry goes (a link, a FIFO, a socket): it is not followed
     * or written into, but removed, so the entry replaces it and whatever it named stays as it was; a
     * directory is left, and the cache skipped. */
    struct stat old;
    if (lstat(entry, &old) == 0 && !S_ISREG(old.st_mode) && (S_ISDIR(old.st_mode) || unlink(entry) != 0)) {
        free(b.data);
        return;
    }
    diag_list_t quiet;
    diag_list_init(&quiet);
    file_write_atomic(entry, b.data, b.len, 0600, false, &quiet); /* a cache that cannot be written is skipped */
    diag_list_free(&quiet);
    free(b.data);
}

typedef struct reader {
    const char *p, *end;
    bool bad;
} reader_t;

static uint64_t get_u64(reader_t *r) {
    uint64_t v = 0;
    if (r->end - r->p < 8) {
        r->bad = true;
        return 0;
    }
    memcpy(&v, r->p, 8);
    r->p += 8;
    return v;
}

static const char *get_str(reader_t *r) {
    uint64_t n = get_u64(r);
    if (r->bad || (uint64_t)(r->end - r->p) < n + 1 || r->p[n] != 0) {
        r->bad = true;
        return NULL;
    }
    const char *s = r->p;
    r->p += n + 1;
    return s;
}

typedef struct cache_mapping {
    void *p;
    size_t len;
} cache_mapping_t;

static void cache_unmap(void *ctx) {
    cache_mapping_t *m = ctx;
    munmap(m->p, m->len);
}

/* The entry mapped read-only for as long as arena a lives (tokens point into it), or NULL. Mapped
 * with its pages populated in one call rather than read into a buffer: the copy and a page fault per
 * 4 KB of a 6 MB entry were a third of a warm run's page touching. A file that is not a regular one
 * is not an entry. */
static const char *cache_map(arena_t *a, const char *entry, size_t *n, struct timespec *written) {
    /* not through a link (an entry is a file cimport wrote), and no wait on a FIFO */
    int fd = open(entry, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return NULL;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return NULL;
    cache_mapping_t *m = arena_alloc(a, sizeof *m);
    *m = (cache_mapping_t){p, (size_t)st.st_size};
    arena_on_free(a, cache_unmap, m);
    *n = m->len;
    *written = st.st_mtim;
    return p;
}

/* The package from a cache entry, or NULL (no entry, or one that does not match: the caller scans). */
static schema_package_t *cache_read(const char *text, size_t len, const struct stat *st, const char *entry,
                                    const char *where, diag_list_t *diags) {
    arena_t *a = arena_new();
    size_t n = 0;
    struct timespec written = {0};
    const char *data = cache_map(a, entry, &n, &written);
    size_t head = sizeof cache_magic + 16;
    if (!data || n < head || memcmp(data, cache_magic, sizeof cache_magic) != 0) goto miss;
    uint64_t body_len, sum;
    memcpy(&body_len, data + sizeof cache_magic, 8);
    memcpy(&sum, data + sizeof cache_magic + 8, 8);
    if (body_len != n - head || body_sum(data + head, body_len) != sum) goto miss;
    reader_t r = {data + head, data + n, false};
    ident_t id = ident_of(st), got;
    got.size = get_u64(&r);
    got.mtime_s = get_u64(&r);
    got.mtime_ns = get_u64(&r);
    got.ctime_s = get_u64(&r);
    got.ctime_ns = get_u64(&r);
    got.ino = get_u64(&r);
    got.dev = get_u64(&r);
    uint64_t contents = get_u64(&r);
    const char *scanner = get_str(&r);
    if (r.bad || memcmp(&id, &got, sizeof id) != 0 || strcmp(scanner, CIMPORT_SCAN_ID) != 0) goto miss;
    struct timespec now = {0};
    clock_gettime(CLOCK_REALTIME, &now);
    bool mark = now.tv_sec - written.tv_sec > CACHE_MARK_S; /* used: kept from the sweep */
    if (cache_racy(st, written)) {
        if (contents_sum(text, len) != contents) goto miss;
        mark = true; /* checked now: written "now", racy only while the file is younger than CACHE_RACY_S */
    }
    get_str(&r); /* package name and version: for people looking at the cache */
    get_str(&r);
    const char *skel = get_str(&r);
    scan_list_t lists[3] = {{0}, {0}, {0}};
    for (int k = 0; k < 3 && !r.bad; k++) {
        uint64_t count = get_u64(&r);
        if (r.bad || count > (uint64_t)(r.end - r.p) / 24) {
            r.bad = true;
            break;
        }
        lists[k].items = arena_alloc(a, (count ? count : 1) * sizeof *lists[k].items);
        lists[k].n = lists[k].cap = count;
        for (uint64_t i = 0; i < count && !r.bad; i++) {
            scan_entry_t *e = &lists[k].items[i];
            e->token = get_str(&r);
            if (e->token && !*e->token) e->token = NULL;
            e->start = get_u64(&r);
            e->len = get_u64(&r);
            uint64_t na = get_u64(&r);
            if (r.bad || e->start > len || e->len > len - e->start || na > (uint64_t)(r.end - r.p) / 9) {
                r.bad = true;
                break;
            }
            /* ranges must still hold objects: checked on a sample (every range would map the whole
             * file back in; the file's identity already says it has not changed) */
            bool sample = i == 0 || i + 1 == count || i % 4096 == 0;
            if (e->len < 2 || (sample && (text[e->start] != '{' || text[e->start + e->len - 1] != '}'))) {
                r.bad = true;
                break;
            }
            e->n_aliases = na;
            e->aliases = na ? arena_alloc(a, na * sizeof *e->aliases) : NULL;
            for (uint64_t j = 0; j < na && !r.bad; j++)
                e->aliases[j] = get_str(&r);
        }
    }
    if (r.bad || r.p != r.end || !skel) goto miss;
    /* The entry stays in the package's arena: tokens point into it. */
    schema_impl_t *im = arena_alloc(a, sizeof *im);
    im->arena = a;
    im->skel = skel;
    im->skel_len = strlen(skel);
    schema_package_t *pkg = arena_alloc(a, sizeof *pkg);
    pkg->impl = im;
    /* The map joins the package only on success: a failure frees the package but not the map,
     * which the caller then scans. */
    pkg = finish_load(pkg, &lists[0], &lists[1], &lists[2], where, diags);
    if (!pkg) return NULL;
    im->text = text;
    im->text_len = len;
    im->mapped = true;
    if (mark) utimensat(AT_FDCWD, entry, NULL, 0);
    return pkg;
miss:
    arena_free(a);
    return NULL;
}

schema_package_t *schema_load_file(const char *path, diag_list_t *diags) {
    struct stat st;
    int fd = file_open_regular(path, &st);
    if (fd >= 0 && st.st_size > 0) {
        if (!file_size_within_cap(path, (unsigned long long)st.st_size, diags)) {
            close(fd);
            return NULL;
        }
        void *map = file_map(fd, (size_t)st.st_size, path);
        close(fd);
        if (map) {
            size_t len = (size_t)st.st_size;
            arena_t *tmp = arena_new();
            char *entry = len >= SCHEMA_CACHE_MIN_BYTES ? cache_entry_path(tmp, path) : NULL;
            schema_package_t *pkg = entry ? cache_read(map, len, &st, entry, path, diags) : NULL;
            if (!pkg) {
                pkg = load_indexed(map, len, true, path, diags);
                if (pkg && entry) cache_write(pkg, entry, &st, contents_sum(map, len));
            }
            arena_free(tmp);
            return pkg;
        }
    } else if (fd >= 0) {
        close(fd);
    }
    /* Not a mappable regular file (empty, a pipe, unreadable): read it whole, which also gives the
     * usual I/O errors. */
    arena_t *tmp = arena_new();
    size_t len = 0;
    char *text = file_read_all(tmp, path, &len, diags);
    schema_package_t *pkg = text ? schema_load_buffer(text, len, path, diags) : NULL;
    arena_free(tmp);
    return pkg;
}

void schema_free(schema_package_t *pkg) {
    if (!pkg) return;
    schema_impl_t *im = pkg->impl;
    if (im->module_re_state == MODULE_RE_OK) regfree(&im->module_re);
    hashmap_free(&im->modules);
    cJSON_Delete(im->root);
    for (size_t i = 0; i < im->n_parsed; i++)
        cJSON_Delete(im->parsed[i]);
    free(im->parsed);
    if (im->mapped)
        file_unmap((void *)im->text, im->text_len);
    else
        free((void *)im->text);
    arena_free(im->arena); /* holds pkg and im themselves */
}

/* --- lookups ----------------------------------------------------------------------------------- */

/* The slot of a token, URL-decoding the token first if it is not found as given and has escapes. */
static schema_slot_t *find_slot(schema_impl_t *im, bool types, const char *token) {
    if (!token) return NULL;
    schema_slot_t *s = types ? find_type_slot(im, token) : map_get(&im->resources, token);
    if (s || !strchr(token, '%')) return s;
    arena_t *tmp = arena_new();
    const char *decoded = url_decode(tmp, token);
    s = types ? find_type_slot(im, decoded) : map_get(&im->resources, decoded);
    arena_free(tmp);
    return s;
}

const schema_resource_t *schema_find_resource(schema_package_t *pkg, const char *token) {
    if (!pkg) return NULL;
    schema_impl_t *im = pkg->impl;
    schema_slot_t *s = find_slot(im, false, token);
    return s ? resolve_resource(im, s) : NULL;
}

const char *schema_suggest_resource(schema_package_t *pkg, const char *token) {
    if (!pkg) return NULL;
    schema_impl_t *im = pkg->impl;
    const char **tokens = malloc((im->n_res + 1) * sizeof *tokens);
    if (!tokens) abort();
    for (size_t i = 0; i < im->n_res; i++)
        tokens[i] = im->res_slots[i].token;
    const char *best = suggest_closest(token, tokens, im->n_res, true);
    free(tokens);
    return best;
}

const schema_type_t *schema_find_type(schema_package_t *pkg, const char *token) {
    if (!pkg) return NULL;
    schema_impl_t *im = pkg->impl;
    schema_slot_t *s = find_slot(im, true, token);
    return s ? resolve_named_type(im, s) : NULL;
}

const schema_function_t *schema_find_function(schema_package_t *pkg, const char *token) {
    if (!pkg || !token) return NULL;
    schema_impl_t *im = pkg->impl;
    schema_slot_t *s = map_get(&im->functions, token);
    return s ? resolve_function(im, s) : NULL;
}

size_t schema_function_count(const schema_package_t *pkg) {
    return pkg ? ((const schema_impl_t *)pkg->impl)->n_fns : 0;
}

const char *schema_function_token_at(const schema_package_t *pkg, size_t i) {
    if (!pkg) return NULL;
    const schema_impl_t *im = pkg->impl;
    return i < im->n_fns ? im->fn_slots[i].token : NULL;
}

const schema_method_t *schema_find_method(const schema_resource_t *r, const char *name) {
    if (!r || !name) return NULL;
    for (size_t i = 0; i < r->n_methods; i++)
        if (strcmp(r->methods[i].name, name) == 0) return &r->methods[i];
    return NULL;
}

const schema_object_t *schema_find_object(schema_package_t *pkg, const char *token) {
    if (!pkg) return NULL;
    schema_impl_t *im = pkg->impl;
    schema_slot_t *s = find_slot(im, true, token);
    if (!s) return NULL;
    resolve_named_type(im, s);
    return s->object;
}

size_t schema_resource_count(const schema_package_t *pkg) {
    return pkg ? ((const schema_impl_t *)pkg->impl)->n_res : 0;
}

const char *schema_resource_token_at(const schema_package_t *pkg, size_t i) {
    if (!pkg) return NULL;
    const schema_impl_t *im = pkg->impl;
    return i < im->n_res ? im->res_slots[i].token : NULL;
}

size_t schema_type_count(const schema_package_t *pkg) {
    return pkg ? ((const schema_impl_t *)pkg->impl)->n_types : 0;
}

const char *schema_type_token_at(const schema_package_t *pkg, size_t i) {
    if (!pkg) return NULL;
    const schema_impl_t *im = pkg->impl;
    return i < im->n_types ? im->type_slots[i].token : NULL;
}

const struct cJSON *schema_indexed_json(schema_package_t *pkg, schema_section_t section, size_t i) {
    if (!pkg) return NULL;
    schema_impl_t *im = pkg->impl;
    schema_slot_t *slots = section == SCHEMA_SECTION_RESOURCES ? im->res_slots
                           : section == SCHEMA_SECTION_TYPES   ? im->type_slots
                                                               : im->fn_slots;
    size_t n = section == SCHEMA_SECTION_RESOURCES ? im->n_res
               : section == SCHEMA_SECTION_TYPES   ? im->n_types
                                                   : im->n_fns;
    return i < n ? slot_json(im, &slots[i]) : NULL;
}

const char *const *schema_indexed_aliases(const schema_package_t *pkg, size_t i, size_t *n) {
    *n = 0;
    if (!pkg) return NULL;
    const schema_impl_t *im = pkg->impl;
    if (i >= im->n_res) return NULL;
    *n = im->res_slots[i].n_aliases;
    return im->res_slots[i].aliases;
}

const struct cJSON *schema_indexed_header(const schema_package_t *pkg) {
    return pkg ? ((const schema_impl_t *)pkg->impl)->root : NULL;
}

const schema_property_t *schema_find_property(const schema_property_t *props, size_t n, const char *name) {
    if (!props || !name) return NULL;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(props[mid].name, name);
        if (c == 0) return &props[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static bool value_is_secret(const pv_t *v) {
    return v->kind == PV_SECRET || (v->kind == PV_OUTPUT && v->u.output.secret);
}

/* The secrets below a value of type t (the value itself is not secret). */
static void wrap_secrets_in(arena_t *a, const schema_type_t *t, pv_t *v) {
    while (v && v->kind == PV_OUTPUT && !v->u.output.secret)
        v = v->u.output.value;
    if (!t || !v || value_is_secret(v)) return; /* everything inside a secret is secret */
    switch (t->kind) {
    case SCHEMA_OBJECT:
        if (t->object) schema_wrap_secrets(a, t->object->props, t->object->n_props, v);
        break;
    case SCHEMA_ARRAY:
        for (size_t i = 0; v->kind == PV_ARRAY && i < v->u.arr.len; i++)
            wrap_secrets_in(a, t->element, v->u.arr.items[i]);
        break;
    case SCHEMA_MAP:
        for (size_t i = 0; v->kind == PV_OBJECT && i < v->u.obj.len; i++)
            wrap_secrets_in(a, t->element, v->u.obj.members[i].value);
        break;
    case SCHEMA_UNION:
        for (size_t i = 0; i < t->n_members; i++)
            if (t->members[i]->kind == SCHEMA_OBJECT) wrap_secrets_in(a, t->members[i], v);
        break;
    default: break;
    }
}

void schema_wrap_secrets(arena_t *a, const schema_property_t *props, size_t n, pv_t *obj) {
    if (!obj || obj->kind != PV_OBJECT) return;
    for (size_t i = 0; i < obj->u.obj.len; i++) {
        pv_member_t *m = &obj->u.obj.members[i];
        const schema_property_t *p = schema_find_property(props, n, m->key);
        if (!p || !m->value || m->value->kind == PV_NULL) continue;
        if (p->secret && !value_is_secret(m->value))
            m->value = pv_secret(a, m->value);
        else
            wrap_secrets_in(a, p->type, m->value);
    }
}

/* --- tokens ------------------------------------------------------------------------------------ */

/* Translates a moduleFormat (Go RE2 syntax) to POSIX ERE: `(?:` becomes a plain group, and the
 * number of the first group that was capturing in the original is returned through group. */
static char *module_format_to_ere(const char *fmt, size_t *group) {
    size_t n = strlen(fmt);
    char *out = malloc(n + 1);
    if (!out) return NULL;
    size_t o = 0, groups = 0;
    bool in_bracket = false;
    *group = 0;
    for (size_t i = 0; i < n; i++) {
        char c = fmt[i];
        if (c == '\\' && i + 1 < n) {
            out[o++] = c;
            out[o++] = fmt[++i];
            continue;
        }
        if (in_bracket) {
            if (c == ']') in_bracket = false;
            out[o++] = c;
            continue;
        }
        if (c == '[') {
            in_bracket = true;
            out[o++] = c;
            /* a `]` right after `[` or `[^` is a literal member, not the end */
            if (fmt[i + 1] == '^') out[o++] = fmt[++i];
            if (fmt[i + 1] == ']') out[o++] = fmt[++i];
            continue;
        }
        if (c == '(') {
            groups++;
            out[o++] = c;
            if (fmt[i + 1] == '?' && fmt[i + 2] == ':')
                i += 2;
            else if (!*group)
                *group = groups;
            continue;
        }
        out[o++] = c;
    }
    out[o] = '\0';
    return out;
}

static bool module_regex(schema_impl_t *im, const char *fmt) {
    if (im->module_re_state == MODULE_RE_UNTRIED) {
        size_t group = 0;
        char *ere = module_format_to_ere(fmt, &group);
        im->module_re_state = ere && regcomp(&im->module_re, ere, REG_EXTENDED) == 0 ? MODULE_RE_OK : MODULE_RE_FAILED;
        im->module_group = group;
        free(ere);
    }
    return im->module_re_state == MODULE_RE_OK;
}

char *schema_token_module(arena_t *a, const schema_package_t *pkg, const char *token) {
    if (!token) return arena_strdup(a, "");
    const char *c1 = strchr(token, ':');
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2 || strchr(c2 + 1, ':')) return arena_strdup(a, ""); /* not pkg:module:member */
    char *mod = arena_strndup(a, c1 + 1, (size_t)(c2 - c1 - 1));
    if (!pkg) return mod;
    schema_impl_t *im = pkg->impl;
    /* A format POSIX regex cannot express falls back to the whole module part, which is what the
     * default format "(.*)" gives. */
    if (!module_regex(im, pkg->module_format)) return mod;
    /* Every resource of a program asks: the regex runs once per module (it was 4 % of a 100k run). */
    void **known = hashmap_find_str(&im->modules, mod);
    if (known) return arena_strdup(a, *known);
    regmatch_t m[10];
    size_t g = im->module_group < 10 ? im->module_group : 0;
    const char *found = "";
    if (regexec(&im->module_re, mod, 10, m, 0) == 0 && m[g].rm_so >= 0)
        found = arena_strndup(im->arena, mod + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
    hashmap_add_str(&im->modules, arena_strdup(im->arena, mod), (void *)found);
    return arena_strdup(a, found);
}

char *schema_token_package(arena_t *a, const char *token) {
    if (!token) return NULL;
    if (strncmp(token, "pulumi:providers:", 17) == 0) return arena_strdup(a, token + 17);
    const char *c = strchr(token, ':');
    return c ? arena_strndup(a, token, (size_t)(c - token)) : arena_strdup(a, token);
}

/* tfmapping.c — mapping documents: what a bridged Pulumi provider plugin answers to
 * GetMapping("terraform", <tf provider>) (its MarshallableProviderInfo; reference/terraform-mapping.md),
 * read into the bridge set (specs/bridge.h).
 *
 * Two halves of the document describe one resource:
 *   - `resources.<tf_type>` (the bridge's info): `tok`, the Pulumi type token, and `fields`, per
 *     attribute `name` (a rename), `maxItemsOne`, `secret`, nested `fields` and `elem`/`element`;
 *   - `provider.resources.<tf_type>` (the Terraform shim schema): per attribute `type` (1 bool, 2 int,
 *     3 float, 4 string, 5 list, 6 map, 7 set), `maxItems`, `sensitive`, and `elem`/`element` holding
 *     either one element `schema` or a block (`schema` or `resource` as a map of attributes).
 * Both are merged into one `fields` tree in the shape the converter already reads from bridge
 * metadata (`{attr: {name, maxItemsOne, sensitive, elem: {fields: {...}}}}`), so a mapping document and
 * auto-aliasing metadata are consumed by the same code. A list or set of blocks with `maxItems: 1` is
 * flattened (maxItemsOne) unless the info says `maxItemsOne: false`; every other attribute the shim
 * schema describes is explicitly not flattened.
 *
 * A malformed document is refused whole: the first problem is reported with its JSON path and
 * nothing of the document is added. */
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "specs/bridge_internal.h"

typedef struct tfm {
    const char *origin;
    diag_list_t *diags;
    bool failed;
} tfm_t;

static bool fail(tfm_t *m, const char *path, const char *what) {
    if (!m->failed)
        diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->origin, NULL, "mapping document: %s %s; nothing was converted",
                 path, what);
    m->failed = true;
    return false;
}

/* `pkg:module:Name` with three non-empty parts. */
static bool is_type_token(const char *s) {
    const char *c1 = strchr(s, ':');
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    return c1 && c2 && c1 > s && c2 > c1 + 1 && c2[1] && !strchr(c2 + 1, ':');
}

static const cJSON *get(const cJSON *o, const char *k) {
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* `elem` (the reference notes' spelling) or `element` (the bridge's JSON tag). */
static const cJSON *elem_of(const cJSON *o) {
    const cJSON *e = get(o, "element");
    return e ? e : get(o, "elem");
}

/* An object member that must be an object when present. */
static bool want_object(tfm_t *m, const cJSON *v, const char *path) {
    if (v && !cJSON_IsObject(v)) return fail(m, path, "must be an object");
    return true;
}

/* The attribute map of a shim block element (NULL when the element is a single value schema). */
static const cJSON *shim_block_of(const cJSON *shim) {
    const cJSON *e = elem_of(shim);
    if (!e) return NULL;
    const cJSON *r = get(e, "resource");
    if (cJSON_IsObject(r)) return r;
    const cJSON *s = get(e, "schema");
    /* `schema` holding a `type` number is one element's schema; otherwise it is a block's attributes. */
    if (cJSON_IsObject(s) && !cJSON_IsNumber(get(s, "type"))) return s;
    return NULL;
}

static bool check_shim(tfm_t *m, const cJSON *shim, const char *path, arena_t *a) {
    if (!cJSON_IsObject(shim)) return fail(m, path, "must be an object (a Terraform attribute schema)");
    const cJSON *t = get(shim, "type");
    if (t &&
        (!cJSON_IsNumber(t) || t->valuedouble != floor(t->valuedouble) || t->valuedouble < 0 || t->valuedouble > 7))
        return fail(m, arena_sprintf(a, "%s.type", path),
                    "must be a value type number 1-7 (1 bool, 2 int, 3 float, "
                    "4 string, 5 list, 6 map, 7 set)");
    const cJSON *mi = get(shim, "maxItems");
    if (mi && !cJSON_IsNumber(mi)) return fail(m, arena_sprintf(a, "%s.maxItems", path), "must be a number");
    const cJSON *e = elem_of(shim);
    if (e && !cJSON_IsObject(e)) return fail(m, arena_sprintf(a, "%s.element", path), "must be an object");
    return true;
}

static cJSON *merge_fields(tfm_t *m, const cJSON *shim_attrs, const cJSON *info_fields, const char *path, arena_t *a);

/* One attribute's merged entry. */
static cJSON *merge_field(tfm_t *m, const char *name, const cJSON *shim, const cJSON *info, const char *path,
                          arena_t *a) {
    const char *here = arena_sprintf(a, "%s.%s", path, name);
    if (shim && !check_shim(m, shim, here, a)) return NULL;
    if (info && !want_object(m, info, here)) return NULL;
    cJSON *out = cJSON_CreateObject();
    const cJSON *rename = get(info, "name");
    if (rename && !cJSON_IsString(rename)) {
        cJSON_Delete(out);
        fail(m, arena_sprintf(a, "%s.name", here), "must be a string (the Pulumi property name)");
        return NULL;
    }
    const char *pulumi_name = cJSON_GetStringValue(rename);
    if (pulumi_name && pulumi_name[0]) cJSON_AddStringToObject(out, "name", pulumi_name);
    bool sensitive = cJSON_IsTrue(get(shim, "sensitive")) || cJSON_IsTrue(get(info, "secret"));
    if (sensitive) cJSON_AddBoolToObject(out, "sensitive", true);
    const cJSON *mio = get(info, "maxItemsOne");
    const cJSON *block = shim ? shim_block_of(shim) : NULL;
    if (cJSON_IsBool(mio)) {
        cJSON_AddBoolToObject(out, "maxItemsOne", cJSON_IsTrue(mio));
    } else if (shim) {
        const cJSON *t = get(shim, "type"), *mi = get(shim, "maxItems");
        bool listish = cJSON_IsNumber(t) && (t->valueint == 5 || t->valueint == 7);
        cJSON_AddBoolToObject(out, "maxItemsOne", listish && block && cJSON_IsNumber(mi) && mi->valueint == 1);
    }
    /* Nested renames: `fields` directly (the reference notes) or under `elem`/`element`. */
    const cJSON *info_nested = get(info, "fields");
    if (!info_nested) info_nested = get(elem_of(info), "fields");
    if (!want_object(m, info_nested, arena_sprintf(a, "%s.fields", here))) {
        cJSON_Delete(out);
        return NULL;
    }
    if (block || info_nested) {
        cJSON *nested = merge_fields(m, block, info_nested, here, a);
        if (!nested) {
            cJSON_Delete(out);
            return NULL;
        }
        cJSON *el = cJSON_AddObjectToObject(out, "elem");
        cJSON_AddItemToObject(el, "fields", nested);
    }
    return out;
}

/* Every attribute either half names, merged. */
static cJSON *merge_fields(tfm_t *m, const cJSON *shim_attrs, const cJSON *info_fields, const char *path, arena_t *a) {
    cJSON *out = cJSON_CreateObject();
    const cJSON *e;
    cJSON_ArrayForEach(e, shim_attrs) {
        cJSON *f = merge_field(m, e->string, e, get(info_fields, e->string), path, a);
        if (!f) {
            cJSON_Delete(out);
            return NULL;
        }
        cJSON_AddItemToObject(out, e->string, f);
    }
    cJSON_ArrayForEach(e, info_fields) {
        if (get(shim_attrs, e->string)) continue;
        cJSON *f = merge_field(m, e->string, NULL, e, path, a);
        if (!f) {
            cJSON_Delete(out);
            return NULL;
        }
        cJSON_AddItemToObject(out, e->string, f);
    }
    return out;
}

/* The `tok` of a resources/dataSources entry. */
static const char *entry_token(tfm_t *m, const cJSON *e, const char *path, arena_t *a) {
    if (!cJSON_IsObject(e)) {
        fail(m, path, "must be an object with a `tok`");
        return NULL;
    }
    const cJSON *tok = get(e, "tok");
    if (!cJSON_IsString(tok)) {
        fail(m, arena_sprintf(a, "%s.tok", path), tok ? "must be a string" : "is missing");
        return NULL;
    }
    if (!is_type_token(tok->valuestring)) {
        fail(m, arena_sprintf(a, "%s.tok", path),
             arena_sprintf(a, "'%s' is not a Pulumi type token (package:module:Name)", tok->valuestring));
        return NULL;
    }
    return tok->valuestring;
}

/* Whether a document is a mapping document: a `provider` shim schema, or `resources` whose entries
 * are objects with `tok` (bridge metadata's top-level `resources` maps tokens to strings; a Pulumi
 * schema's resources have no `tok`). */
static bool is_mapping_doc(const cJSON *doc) {
    if (!cJSON_IsObject(doc)) return false;
    if (get(doc, "auto-aliasing") || get(doc, "renames")) return false;
    const cJSON *res = get(doc, "resources");
    if (cJSON_IsObject(res) && res->child) return cJSON_IsObject(res->child) && get(res->child, "tok");
    const cJSON *prov = get(doc, "provider");
    return cJSON_IsObject(prov) && (get(prov, "resources") || get(prov, "schema") || get(prov, "dataSources"));
}

int tfmapping_add(bridge_set_t *set, cJSON *doc, const char *origin, const char *tf_provider, diag_list_t *diags) {
    if (!is_mapping_doc(doc)) return 0;
    tfm_t m = {origin, diags, false};
    arena_t *tmp = arena_new();
    const cJSON *prov = get(doc, "provider");
    const cJSON *shim_res = get(prov, "resources");
    const cJSON *res = get(doc, "resources");
    const cJSON *ds = get(doc, "dataSources");
    const cJSON *config = get(doc, "config");
    const cJSON *name = get(doc, "name");
    if (name && !cJSON_IsString(name)) fail(&m, "`name`", "must be a string (the Pulumi package name)");
    if (!m.failed) want_object(&m, prov, "`provider`");
    if (!m.failed) want_object(&m, shim_res, "`provider.resources`");
    if (!m.failed) want_object(&m, res, "`resources`");
    if (!m.failed) want_object(&m, ds, "`dataSources`");
    if (!m.failed) want_object(&m, config, "`config`");
    const cJSON *pschema = get(prov, "schema");
    if (!m.failed) want_object(&m, pschema, "`provider.schema`");
    /* Validate everything first, so a malformed document adds nothing. */
    const cJSON *e;
    cJSON_ArrayForEach(e, res) {
        if (m.failed) break;
        const char *path = arena_sprintf(tmp, "resources.%s", e->string);
        if (!entry_token(&m, e, path, tmp)) break;
        const cJSON *f = get(e, "fields");
        if (!want_object(&m, f, arena_sprintf(tmp, "%s.fields", path))) break;
    }
    cJSON_ArrayForEach(e, ds) {
        if (m.failed) break;
        entry_token(&m, e, arena_sprintf(tmp, "dataSources.%s", e->string), tmp);
    }
    cJSON_ArrayForEach(e, shim_res) {
        if (m.failed) break;
        want_object(&m, e, arena_sprintf(tmp, "provider.resources.%s", e->string));
    }
    cJSON_ArrayForEach(e, config) {
        if (m.failed) break;
        const char *path = arena_sprintf(tmp, "config.%s", e->string);
        if (want_object(&m, e, path) && get(e, "name") && !cJSON_IsString(get(e, "name")))
            fail(&m, arena_sprintf(tmp, "%s.name", path), "must be a string");
    }
    /* The merged fields of every resource (also validates the shim schema and nested fields). */
    cJSON *merged = cJSON_CreateObject();
    cJSON_ArrayForEach(e, res) {
        if (m.failed) break;
        cJSON *f = merge_fields(&m, get(shim_res, e->string), get(e, "fields"),
                                arena_sprintf(tmp, "resources.%s.fields", e->string), tmp);
        if (f) cJSON_AddItemToObject(merged, e->string, f);
    }
    if (m.failed) {
        cJSON_Delete(merged);
        arena_free(tmp);
        return -1;
    }
    /* Commit: the set keeps the document and the merged fields. */
    bridge_keep_doc(set, doc);
    bridge_keep_doc(set, merged);
    bridge_note_mapping(set);
    const char *package = cJSON_GetStringValue(name);
    const char *key = tf_provider ? tf_provider : package;
    cJSON_ArrayForEach(e, res) {
        const char *tok = get(e, "tok")->valuestring;
        if (!package) package = arena_strndup(tmp, tok, (size_t)(strchr(tok, ':') - tok));
        bridge_add_resource(set, e->string, tok, get(merged, e->string), origin);
    }
    cJSON_ArrayForEach(e, ds) bridge_add_data_source(set, e->string, get(e, "tok")->valuestring);
    if (key && package) {
        bridge_add_provider(set, key, package, origin);
        cJSON_ArrayForEach(e, config) {
            const cJSON *n = get(e, "name");
            if (cJSON_IsString(n) && n->valuestring[0]) bridge_add_config(set, key, e->string, n->valuestring);
        }
    }
    arena_free(tmp);
    return 1;
}

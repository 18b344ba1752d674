/* bind.c — attaching schemas to a parsed PCL program, and reading expressions back as values.
 *
 * pcl_bind resolves each resource block's schema (the package from the token's prefix;
 * `pulumi:providers:<pkg>` is the package's provider resource) and writes the schema type at every
 * position of its inputs — through objects, maps, tuples and secret() — the same way generation
 * does, so a bound program looks to the emitters exactly like a generated one. */
#include <stdlib.h>
#include <string.h>

#include "pcl/pcl_internal.h"

static void bind_expr(pcl_program_t *p, const schema_type_t *t, pcl_expr_t *e);

static void bind_items(pcl_program_t *p, const schema_type_t *shape, pcl_expr_t *e) {
    if (e->kind == PCL_TUPLE) {
        const schema_type_t *elem = NULL;
        if (shape && shape->kind == SCHEMA_ARRAY)
            elem = shape->element;
        else if (shape && (shape->kind == SCHEMA_ANY || shape->kind == SCHEMA_JSON))
            elem = shape;
        for (size_t i = 0; i < e->tuple.n; i++)
            bind_expr(p, elem, e->tuple.items[i]);
        return;
    }
    /* object */
    for (size_t i = 0; i < e->object.n; i++) {
        pcl_object_item_t *it = &e->object.items[i];
        const schema_type_t *vt = NULL;
        if (shape && shape->kind == SCHEMA_OBJECT && shape->object) {
            /* quoting does not matter for schema objects (Pulumi binds "selector" = .. to selector) */
            it->prop = schema_find_property(shape->object->props, shape->object->n_props, it->key);
            vt = it->prop ? it->prop->type : NULL;
        } else if (shape && shape->kind == SCHEMA_MAP) {
            vt = shape->element;
        } else if (shape && (shape->kind == SCHEMA_ANY || shape->kind == SCHEMA_JSON)) {
            vt = shape;
        }
        bind_expr(p, vt, it->value);
    }
}

static void bind_expr(pcl_program_t *p, const schema_type_t *t, pcl_expr_t *e) {
    if (!e) return;
    if (e->kind == PCL_CALL && strcmp(e->call.name, "secret") == 0) {
        e->type = t;
        for (size_t i = 0; i < e->call.n; i++)
            bind_expr(p, t, e->call.args[i]);
        return;
    }
    const schema_type_t *pos = t;
    if (t && t->kind == SCHEMA_UNION) {
        const pv_t *v = pcl_expr_to_value(p->arena, e);
        const schema_type_t *r = v ? pcl_reduce_union(t, v) : NULL;
        if (r) pos = r;
    }
    e->type = pos;
    const schema_type_t *shape = pos && pos->kind == SCHEMA_UNION ? NULL : pos;
    if (shape && shape->kind == SCHEMA_ENUM) shape = shape->element;
    if (e->kind == PCL_TUPLE || e->kind == PCL_OBJECT)
        bind_items(p, shape, e);
    else if (e->kind == PCL_CALL)
        for (size_t i = 0; i < e->call.n; i++)
            bind_expr(p, NULL, e->call.args[i]);
}

bool pcl_bind(pcl_program_t *p, schema_set_t *schemas, diag_list_t *diags) {
    bool ok = true;
    for (size_t i = 0; i < p->n_nodes; i++) {
        pcl_node_t *n = &p->nodes[i];
        if (n->kind == PCL_NODE_PACKAGE) {
            n->package = schemas ? schema_set_get(schemas, n->name) : NULL;
            continue;
        }
        if (n->kind != PCL_NODE_RESOURCE) continue;
        const char *token = n->token ? n->token : "";
        char *pkg_name = schema_token_package(p->arena, token);
        schema_package_t *pkg = schemas ? schema_set_get(schemas, pkg_name) : NULL;
        if (!pkg) {
            char advice[DIAG_ADVICE_MAX];
            diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, NULL, NULL,
                     "resource '%s' has unknown type '%s': no schema for package '%s' is loaded%s", n->name, token,
                     pkg_name, diag_advice(advice, DIAG_ADVICE_SCHEMA_LOADED, pkg_name));
            ok = false;
            continue;
        }
        const schema_resource_t *r = schema_find_resource(pkg, token);
        if (!r) {
            diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, NULL, NULL,
                     "resource '%s' has unknown type '%s': the %s schema has no such resource", n->name, token,
                     pkg_name);
            ok = false;
            continue;
        }
        n->package = pkg;
        n->schema = r;
        for (size_t k = 0; k < n->n_attrs; k++) {
            pcl_attr_t *a = &n->attrs[k];
            a->prop = schema_find_property(r->inputs, r->n_inputs, a->name);
            if (!a->prop) {
                diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, NULL, NULL,
                         "resource '%s' of type '%s' has no input property '%s'; check its spelling in the schema",
                         n->name, token, a->name);
                ok = false;
            }
            bind_expr(p, a->prop ? a->prop->type : NULL, a->value);
        }
    }
    return ok;
}

/* --- expressions back to values --------------------------------------------------------------------- */

static pv_t *new_special(arena_t *a, pv_kind_t kind) {
    pv_t *v = arena_alloc(a, sizeof *v);
    v->kind = kind;
    return v;
}

static const char *string_arg(const pcl_expr_t *e) {
    return e->call.n == 1 && e->call.args[0] && e->call.args[0]->kind == PCL_STRING ? e->call.args[0]->s : NULL;
}

static pv_t *call_to_value(arena_t *a, const pcl_expr_t *e) {
    const char *fn = e->call.name;
    if (strcmp(fn, "secret") == 0) {
        if (e->call.n != 1) return NULL;
        pv_t *inner = pcl_expr_to_value(a, e->call.args[0]);
        return inner ? pv_secret(a, inner) : NULL;
    }
    if (strcmp(fn, "assetArchive") == 0) {
        if (e->call.n != 1 || !e->call.args[0] || e->call.args[0]->kind != PCL_OBJECT) return NULL;
        const pcl_expr_t *o = e->call.args[0];
        pv_t *v = new_special(a, PV_ARCHIVE);
        v->u.archive.has_assets = true;
        v->u.archive.assets = arena_alloc(a, (o->object.n ? o->object.n : 1) * sizeof *v->u.archive.assets);
        for (size_t i = 0; i < o->object.n; i++) {
            pv_t *m = pcl_expr_to_value(a, o->object.items[i].value);
            if (!m || (m->kind != PV_ASSET && m->kind != PV_ARCHIVE)) return NULL;
            v->u.archive.assets[v->u.archive.nassets++] = (pv_member_t){arena_strdup(a, o->object.items[i].key), m};
        }
        return v;
    }
    const char *s = string_arg(e);
    if (!s) return NULL;
    pv_t *v;
    if (strcmp(fn, "fileAsset") == 0 || strcmp(fn, "stringAsset") == 0 || strcmp(fn, "remoteAsset") == 0) {
        v = new_special(a, PV_ASSET);
        const char *c = arena_strdup(a, s);
        if (fn[0] == 'f')
            v->u.asset.path = c;
        else if (fn[0] == 's')
            v->u.asset.text = c;
        else
            v->u.asset.uri = c;
        return v;
    }
    if (strcmp(fn, "fileArchive") == 0 || strcmp(fn, "remoteArchive") == 0) {
        v = new_special(a, PV_ARCHIVE);
        if (fn[0] == 'f')
            v->u.archive.path = arena_strdup(a, s);
        else
            v->u.archive.uri = arena_strdup(a, s);
        return v;
    }
    return NULL;
}

pv_t *pcl_expr_to_value(arena_t *a, const pcl_expr_t *e) {
    if (!e) return NULL;
    switch (e->kind) {
    case PCL_NULL: return pv_null(a);
    case PCL_BOOL: return pv_bool(a, e->b);
    case PCL_NUMBER: return pv_number(a, e->n);
    case PCL_STRING: return pv_string(a, e->s ? e->s : "");
    case PCL_TUPLE: {
        pv_t *arr = pv_array(a);
        for (size_t i = 0; i < e->tuple.n; i++) {
            pv_t *v = pcl_expr_to_value(a, e->tuple.items[i]);
            if (!v) return NULL;
            pv_array_push(a, arr, v);
        }
        return arr;
    }
    case PCL_OBJECT: {
        pv_t *obj = pv_object(a);
        for (size_t i = 0; i < e->object.n; i++) {
            pv_t *v = pcl_expr_to_value(a, e->object.items[i].value);
            if (!v) return NULL;
            pv_object_set(a, obj, e->object.items[i].key, v);
        }
        return obj;
    }
    case PCL_TRAVERSAL: {
        char *text = pcl_print_expr(e);
        pv_t *v = pv_string(a, text);
        free(text);
        return v;
    }
    case PCL_CALL: return call_to_value(a, e);
    case PCL_TEMPLATE: /* computed by the program, not literal values */
    case PCL_UNARY:
    case PCL_BINARY:
    case PCL_COND:
    case PCL_INDEX:
    case PCL_GETATTR:
    case PCL_SPLAT:
    case PCL_FOR: return NULL;
    }
    return NULL;
}

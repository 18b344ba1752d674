/* typing.c — structural typing of property values against schema types (pcl_internal.h).
 *
 * These are Pulumi's importer rules (valueStructurallyTypedAs, reduceUnionType): they decide which
 * map entries survive generation and which member of a union a value is generated (and bound) as. */
#include <string.h>

#include "pcl/pcl_internal.h"

/* Looks through secrets and known outputs; NULL for absent or unknown values. */
static const pv_t *plain_value(const pv_t *v) {
    while (v) {
        if (v->kind == PV_SECRET)
            v = v->u.secret.inner;
        else if (v->kind == PV_OUTPUT)
            v = v->u.output.known ? v->u.output.value : NULL;
        else
            break;
    }
    return v;
}

bool pcl_value_conforms(const pv_t *v, const schema_type_t *t) {
    if (!t || t->kind == SCHEMA_ANY || t->kind == SCHEMA_JSON) return true;
    v = plain_value(v);
    if (!v || v->kind == PV_NULL || v->kind == PV_UNKNOWN) return false;
    switch (t->kind) {
    case SCHEMA_ENUM: return pcl_value_conforms(v, t->element);
    case SCHEMA_UNION:
        for (size_t i = 0; i < t->n_members; i++)
            if (pcl_value_conforms(v, t->members[i])) return true;
        return false;
    case SCHEMA_BOOL: return v->kind == PV_BOOL;
    case SCHEMA_INT:
    case SCHEMA_NUMBER: return v->kind == PV_NUMBER;
    case SCHEMA_STRING: return v->kind == PV_STRING;
    case SCHEMA_ASSET: return v->kind == PV_ASSET;
    case SCHEMA_ARCHIVE: return v->kind == PV_ARCHIVE;
    case SCHEMA_RESOURCE: return v->kind == PV_RESOURCE_REF;
    case SCHEMA_ARRAY:
        if (v->kind != PV_ARRAY) return false;
        for (size_t i = 0; i < v->u.arr.len; i++)
            if (!pcl_value_conforms(v->u.arr.items[i], t->element)) return false;
        return true;
    case SCHEMA_MAP:
        if (v->kind != PV_OBJECT) return false;
        for (size_t i = 0; i < v->u.obj.len; i++)
            if (!pcl_value_conforms(v->u.obj.members[i].value, t->element)) return false;
        return true;
    case SCHEMA_OBJECT: {
        if (v->kind != PV_OBJECT || !t->object) return false;
        const schema_object_t *o = t->object;
        for (size_t i = 0; i < v->u.obj.len; i++) {
            const schema_property_t *p = schema_find_property(o->props, o->n_props, v->u.obj.members[i].key);
            if (!p) return false;
            const pv_t *mv = plain_value(v->u.obj.members[i].value);
            /* an explicit null fits an optional property */
            if ((!mv || mv->kind == PV_NULL) && !p->required) continue;
            if (!pcl_value_conforms(mv, p->type)) return false;
        }
        for (size_t i = 0; i < o->n_props; i++)
            if (o->props[i].required && !pv_object_get(v, o->props[i].name)) return false;
        return true;
    }
    default: return false;
    }
}

/* The name part of a type token or `$ref`: `#/types/pkg:mod:Name` → `Name`. */
static const char *token_name(const char *s) {
    if (!s) return "";
    const char *c = strrchr(s, ':');
    if (c) return c + 1;
    const char *sl = strrchr(s, '/');
    return sl ? sl + 1 : s;
}

const schema_type_t *pcl_reduce_union(const schema_type_t *u, const pv_t *v) {
    const pv_t *pv = plain_value(v);
    if (pv && pv->kind == PV_OBJECT && u->discriminator) {
        const pv_t *d = plain_value(pv_object_get(pv, u->discriminator));
        if (d && d->kind == PV_STRING) {
            for (size_t i = 0; i < u->n_mapping; i++) {
                if (strcmp(u->mapping[i].value, d->u.str.s) != 0) continue;
                const char *want = token_name(u->mapping[i].ref);
                for (size_t j = 0; j < u->n_members; j++) {
                    const schema_type_t *m = u->members[j];
                    if (m->kind == SCHEMA_OBJECT && strcmp(token_name(m->token), want) == 0) return m;
                }
            }
        }
    }
    for (size_t i = 0; i < u->n_members; i++) {
        const schema_type_t *m = u->members[i];
        if (m->kind == SCHEMA_UNION) {
            const schema_type_t *r = pcl_reduce_union(m, v);
            if (r) return r;
        } else if (pcl_value_conforms(v, m)) {
            return m;
        }
    }
    return NULL;
}

const schema_type_t *pcl_resolve_type(const schema_type_t *t, const pv_t *v) {
    if (t && t->kind == SCHEMA_UNION) return pcl_reduce_union(t, v);
    return t;
}

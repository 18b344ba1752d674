/* offline.c — the offline snapshot provider (see offline.h): Read from a recorded stack state, Check
 * against the package schema, Diff structurally over the schema's input properties.
 *
 * The source indexes the state's custom, non-deleted resources by (type, ID) once in base/hashmap,
 * so every Read is O(1) whatever the size of the state. Providers made from
 * the source share it (one provider per package, as the registry asks).
 *
 * Several recorded resources may share a type and an ID (one `kube-system/aws-auth` ConfigMap per
 * cluster, each under its own provider). Read then matches what the real engine would read: the
 * provider the import plan gives the resource (its explicit provider's name, or a default provider)
 * against each candidate's recorded provider, then the resource's name (the last URN part); when more
 * than one candidate is left, or none, Read fails with an error naming the candidates. */
#include "importer/offline.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/vec.h"
#include "importer/offline_internal.h"
#include "specs/importfile.h"
#include "specs/importid.h"
#include "specs/stackstate.h"
#include "specs/suggest.h"

typedef struct offline_slot {
    const state_resource_t *res;   /* the first recorded resource of its (type, ID) */
    const state_resource_t **more; /* further resources with the same type and ID (malloc'd) */
    size_t n_more, cap_more;
} offline_slot_t;

/* Slots by type, then by ID: a map of type text → its own map of ID text → slot. The keys are the
 * texts the stack state holds (its types are held once, deployment_load_indexed), so an index of
 * a million resources copies no key (a "<type>\0<ID>" key each was 0.1 KB a resource). */
typedef struct type_index {
    hashmap_t types; /* type → hashmap_t * (malloc'd) of ID → offline_slot_t * */
} type_index_t;

struct offline_source {
    const deployment_t *state;
    schema_set_t *schemas;
    const import_plan_t *plan; /* for each URN's provider; may be NULL */
    offline_slot_t *slots;     /* one per distinct (type, ID), in state order */
    size_t n_slots;
    type_index_t index;
    /* The resources of types whose import ID does not hold their ID (importid_apart_from_id), by
     * type and import ID (its text in `import_ids`): made once a plan imports such a type
     * (offline_source_set_plan). */
    offline_slot_t *id_slots;
    size_t n_id_slots;
    type_index_t by_import_id;
    arena_t *import_ids;
    bool import_ids_indexed;
    hashmap_t by_urn; /* plan item URN → 1 + index of the first item with it (a scan per Read was
                       * quadratic: 100,000 resources took 40 s) */
    /* The state's ciphertexts (source_reveal): the run's passphrase (NULL: none), and the key that
     * opens the state's salt, looked for at the first ciphertext; else why none does. */
    passphrase_keyring_t *keyring;
    bool reveal_tried;
    const passphrase_crypter_t *reveal;
    const char *reveal_unable, *reveal_fix;
    const char *reveal_provider; /* a secrets provider other than the passphrase one, by name */
};

typedef struct offline_impl {
    offline_source_t *src;
    schema_package_t *pkg;
    /* Answers are known at once; their completions run from offline_poll, so a callback never runs
     * inside the call that started it. */
    provider_queue_t done;
} offline_impl_t;

/* --- the (type, ID) index ----------------------------------------------------------------------- */

static const offline_slot_t *index_find(const type_index_t *x, const char *type, const char *id, size_t li) {
    void **ids = hashmap_find_str(&x->types, type);
    void **v = ids ? hashmap_find(*ids, id, li) : NULL;
    return v ? *v : NULL;
}

static const offline_slot_t *source_find_n(const offline_source_t *src, const char *type, const char *id, size_t li) {
    return index_find(&src->index, type, id, li);
}

/* Adds r under (type, id) to an index whose slots are `slots`: a new slot, or a further candidate of
 * the slot the two have (same type and ID: told apart at Read). The texts are borrowed: they must
 * live as long as the index. */
static void slot_add(type_index_t *x, offline_slot_t *slots, size_t *n_slots, const char *type, const char *id,
                     const state_resource_t *r) {
    void **found = hashmap_find_str(&x->types, type);
    hashmap_t *ids;
    if (found) {
        ids = *found;
    } else {
        ids = calloc(1, sizeof *ids);
        if (!ids) abort();
        hashmap_add_str(&x->types, type, ids);
    }
    size_t li = strlen(id);
    void **hit = hashmap_find(ids, id, li);
    if (hit) {
        offline_slot_t *sl = *hit;
        sl->more = vec_grow(sl->more, &sl->cap_more, sl->n_more + 1, sizeof(const state_resource_t *));
        sl->more[sl->n_more++] = r;
        return;
    }
    offline_slot_t *sl = &slots[(*n_slots)++];
    *sl = (offline_slot_t){.res = r};
    hashmap_add(ids, id, li, sl);
}

static void index_free(type_index_t *x) {
    const hashmap_entry_t *e;
    for (size_t it = 0; (e = hashmap_next(&x->types, &it));) {
        hashmap_free(e->value);
        free(e->value);
    }
    hashmap_free(&x->types);
}

/* The resources recorded with ID `id` of `type`; else, for an import ID that holds more than the ID
 * (importid.h: a RandomInteger's "83,1,100"), those recorded with the ID inside it (*by_part then);
 * else those whose import ID, made of other outputs, is `id` (*by_import_id then). */
static const offline_slot_t *source_find(const offline_source_t *src, const char *type, const char *id, bool *by_part,
                                         bool *by_import_id) {
    *by_part = *by_import_id = false;
    const offline_slot_t *sl = source_find_n(src, type, id, strlen(id));
    size_t at, n;
    if (sl) return sl;
    if (importid_resource_id(type, id, &at, &n)) {
        *by_part = true;
        return source_find_n(src, type, id + at, n);
    }
    if (!src->import_ids_indexed || !importid_apart_from_id(type)) return NULL;
    sl = index_find(&src->by_import_id, type, id, strlen(id));
    *by_import_id = sl != NULL;
    return sl;
}

/* Indexes the resources of types whose import ID is made of other outputs by that import ID (their
 * outputs are read for it: done only when a plan imports such a type). A resource whose import ID
 * cannot be made (a part not recorded) is found by its ID only, and refused there. */
static void source_index_import_ids(offline_source_t *src) {
    src->import_ids_indexed = true;
    size_t n = src->state ? src->state->n_resources : 0;
    src->id_slots = calloc(n ? n : 1, sizeof *src->id_slots);
    if (!src->id_slots) abort();
    src->import_ids = arena_new();
    arena_t *a = arena_new();
    for (size_t k = 0; k < n; k++) {
        const state_resource_t *r = &src->state->resources[k];
        if (!r->custom || r->del || !r->id || !importid_apart_from_id(r->type)) continue;
        diag_list_t quiet;
        diag_list_init(&quiet);
        pv_t *in = NULL, *out = NULL;
        const char *why, *iid = NULL;
        if (deployment_resource_read(src->state, r, a, &in, &out, &quiet))
            iid = importid_of(a, r->type, r->id, out, "Pulumi", &why);
        diag_list_free(&quiet);
        if (!iid) continue;
        slot_add(&src->by_import_id, src->id_slots, &src->n_id_slots, r->type, arena_strdup(src->import_ids, iid), r);
    }
    arena_free(a);
}

void offline_source_set_plan(offline_source_t *src, const import_plan_t *plan) {
    src->plan = plan;
    hashmap_clear(&src->by_urn);
    for (size_t i = 0; plan && i < plan->n_items; i++) {
        if (plan->items[i].urn) hashmap_add_str(&src->by_urn, plan->items[i].urn, (void *)(uintptr_t)(i + 1));
        if (!src->import_ids_indexed && plan->items[i].type && importid_apart_from_id(plan->items[i].type))
            source_index_import_ids(src);
    }
}

size_t *offline_source_read_order(const offline_source_t *src, size_t *n) {
    *n = 0;
    if (!src->plan || !src->state || src->plan->n_items == 0) return NULL;
    size_t *order = malloc(src->plan->n_items * sizeof *order);
    if (!order) abort();
    for (size_t i = 0; i < src->plan->n_items; i++) {
        const import_plan_item_t *it = &src->plan->items[i];
        bool by_part, by_import_id;
        const offline_slot_t *sl =
            it->type && it->id ? source_find(src, it->type, it->id, &by_part, &by_import_id) : NULL;
        if (sl && sl->n_more == 0) order[(*n)++] = (size_t)(sl->res - src->state->resources);
    }
    if (*n == 0) {
        free(order);
        return NULL;
    }
    return order;
}

/* The recorded provider of a resource: its name (last URN part of "<provider URN>::<ID>"), NULL when
 * none is recorded; *is_default when it is a default provider. */
static const char *recorded_provider(arena_t *a, const state_resource_t *r, bool *is_default) {
    *is_default = false;
    if (!r->provider || !*r->provider) return NULL;
    const char *sep = NULL;
    for (const char *q = r->provider; (q = strstr(q, "::")); q += 2)
        sep = q;
    char *purn = sep ? arena_strndup(a, r->provider, (size_t)(sep - r->provider)) : arena_strdup(a, r->provider);
    char *name = urn_name(a, purn);
    if (!name) name = purn;
    *is_default = stackstate_is_default_provider_name(name);
    return name;
}

/* Picks the recorded resource Read serves for urn, or NULL with *why (an error naming candidates). */
static const state_resource_t *source_pick(const offline_source_t *src, const offline_slot_t *slot, const char *urn,
                                           arena_t *a, const char **why) {
    *why = NULL;
    size_t n = 1 + slot->n_more;
    const state_resource_t **c = arena_alloc(a, n * sizeof *c);
    c[0] = slot->res;
    for (size_t i = 0; i < slot->n_more; i++)
        c[i + 1] = slot->more[i];
    /* The provider the plan gives this resource. */
    void **hit = src->plan ? hashmap_find_str(&src->by_urn, urn) : NULL;
    const import_plan_item_t *item = hit ? &src->plan->items[(uintptr_t)*hit - 1] : NULL;
    const char *want_provider = item && item->provider_urn ? urn_name(a, item->provider_urn) : NULL;
    const state_resource_t **keep = arena_alloc(a, n * sizeof *keep);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool dflt;
        const char *have = recorded_provider(a, c[i], &dflt);
        bool ok = !item || !have || (want_provider ? !dflt && strcmp(have, want_provider) == 0 : dflt);
        if (ok) keep[k++] = c[i];
    }
    /* Then the resource's own name, when that narrows it. */
    const char *name = urn_name(a, urn);
    if (k > 1 && name) {
        size_t m = 0;
        for (size_t i = 0; i < k; i++) {
            const char *cn = urn_name(a, keep[i]->urn);
            if (cn && strcmp(cn, name) == 0) keep[m++] = keep[i];
        }
        if (m) k = m;
    }
    if (k == 1) return keep[0];
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        bool dflt;
        const char *have = recorded_provider(a, c[i], &dflt);
        buf_printf(&b, "%s%s (provider %s)", i ? ", " : "", c[i]->urn, have ? have : "none recorded");
    }
    const char *under = want_provider ? arena_sprintf(a, "provider '%s'", want_provider) : "a default provider";
    if (k == 0)
        *why = arena_sprintf(a,
                             "the offline state records %zu resource(s) of type '%s' with ID '%s', none under %s as "
                             "this resource is: %s; give the resource the provider that recorded it",
                             n, c[0]->type, c[0]->id, under, b.data);
    else
        *why = arena_sprintf(a,
                             "the offline state records %zu resources of type '%s' with ID '%s' under %s, and the "
                             "name does not tell them apart: %s; give each resource its own provider or the name "
                             "it has in the state",
                             k, c[0]->type, c[0]->id, under, b.data);
    buf_free(&b);
    return NULL;
}

offline_source_t *offline_source_new(const deployment_t *state, schema_set_t *schemas) {
    offline_source_t *src = calloc(1, sizeof *src);
    if (!src) abort();
    src->state = state;
    src->schemas = schemas;
    size_t n = state ? state->n_resources : 0;
    /* Sized for every resource up front: the index points into this array, which never moves. */
    src->slots = calloc(n ? n : 1, sizeof *src->slots);
    if (!src->slots) abort();
    for (size_t k = 0; k < n; k++) {
        const state_resource_t *r = &state->resources[k];
        if (!r->custom || r->del || !r->id) continue;
        slot_add(&src->index, src->slots, &src->n_slots, r->type, r->id, r);
    }
    return src;
}

void offline_source_free(offline_source_t *src) {
    if (!src) return;
    for (size_t i = 0; i < src->n_slots; i++)
        free(src->slots[i].more);
    for (size_t i = 0; i < src->n_id_slots; i++)
        free(src->id_slots[i].more);
    free(src->id_slots);
    index_free(&src->by_import_id);
    index_free(&src->index);
    arena_free(src->import_ids);
    hashmap_free(&src->by_urn);
    free(src->slots);
    free(src);
}

/* --- Check ------------------------------------------------------------------------------------- */

#define OFFLINE_MAX_DEPTH 64

typedef struct check_ctx {
    arena_t *a;
    pv_path_seg_t segs[OFFLINE_MAX_DEPTH];
    size_t depth;
    provider_check_failure_t *fails;
    size_t n, cap;
} check_ctx_t;

static void check_fail(check_ctx_t *c, const char *reason) {
    c->fails = arena_grow_array(c->a, c->fails, &c->cap, c->n + 1, sizeof *c->fails);
    pv_path_t p = {c->segs, c->depth};
    c->fails[c->n].property = c->depth ? pv_path_format(c->a, &p) : NULL;
    c->fails[c->n].reason = arena_strdup(c->a, reason);
    c->n++;
}

static bool check_push_key(check_ctx_t *c, const char *key) {
    if (c->depth == OFFLINE_MAX_DEPTH) return false;
    c->segs[c->depth++] = (pv_path_seg_t){.key = key};
    return true;
}

static bool check_push_index(check_ctx_t *c, size_t index) {
    if (c->depth == OFFLINE_MAX_DEPTH) return false;
    c->segs[c->depth++] = (pv_path_seg_t){.key = NULL, .index = index};
    return true;
}

/* "a string", "an array", ... as providers word the kind of a value. */
static const char *kind_phrase(const pv_t *v) {
    switch (v->kind) {
    case PV_NULL: return "null";
    case PV_BOOL: return "a boolean";
    case PV_NUMBER: return "a number";
    case PV_STRING: return "a string";
    case PV_ARRAY: return "an array";
    case PV_OBJECT: return "an object";
    case PV_ASSET: return "an asset";
    case PV_ARCHIVE: return "an archive";
    case PV_RESOURCE_REF: return "a resource reference";
    default: return "a value";
    }
}

static void check_mismatch(check_ctx_t *c, const char *expected, const pv_t *v) {
    check_fail(c, arena_sprintf(c->a, "expected %s, got %s", expected, kind_phrase(v)));
}

static bool is_bookkeeping_key(const char *key) {
    return key[0] == '_' && key[1] == '_';
}

static void check_value(check_ctx_t *c, const schema_type_t *t, const pv_t *v);

static void check_object(check_ctx_t *c, const schema_property_t *props, size_t n_props, const pv_t *v) {
    for (size_t i = 0; i < n_props; i++) {
        const pv_t *pv = pv_object_get(v, props[i].name);
        if (props[i].required && (!pv || pv->kind == PV_NULL) && check_push_key(c, props[i].name)) {
            check_fail(c, arena_sprintf(c->a, "Missing required property '%s'", props[i].name));
            c->depth--;
        }
    }
    for (size_t i = 0; i < v->u.obj.len; i++) {
        const pv_member_t *m = &v->u.obj.members[i];
        if (is_bookkeeping_key(m->key)) continue;
        const schema_property_t *p = schema_find_property(props, n_props, m->key);
        if (!check_push_key(c, m->key)) continue;
        if (!p)
            check_fail(c, "Invalid or unknown key");
        else
            check_value(c, p->type, m->value);
        c->depth--;
    }
}

static void check_value(check_ctx_t *c, const schema_type_t *t, const pv_t *raw) {
    const pv_t *v = pv_unwrap(raw);
    /* Null is "not set"; unknowns and opaque secrets cannot be checked. */
    if (!t || !v || v->kind == PV_NULL || v->kind == PV_UNKNOWN || (v->kind == PV_OUTPUT && !v->u.output.known)) return;
    switch (t->kind) {
    case SCHEMA_ANY:
    case SCHEMA_JSON: return;
    case SCHEMA_BOOL:
        if (v->kind != PV_BOOL) check_mismatch(c, "a boolean", v);
        return;
    case SCHEMA_INT:
        if (v->kind != PV_NUMBER)
            check_mismatch(c, "an integer", v);
        else if (v->u.n != floor(v->u.n))
            check_fail(c, "expected an integer, got a number with a fractional part");
        return;
    case SCHEMA_NUMBER:
        if (v->kind != PV_NUMBER) check_mismatch(c, "a number", v);
        return;
    case SCHEMA_STRING:
        if (v->kind != PV_STRING) check_mismatch(c, "a string", v);
        return;
    case SCHEMA_ARRAY:
        if (v->kind != PV_ARRAY) {
            check_mismatch(c, "an array", v);
            return;
        }
        for (size_t i = 0; i < v->u.arr.len; i++) {
            if (!check_push_index(c, i)) return;
            check_value(c, t->element, v->u.arr.items[i]);
            c->depth--;
        }
        return;
    case SCHEMA_MAP:
        if (v->kind != PV_OBJECT) {
            check_mismatch(c, "an object", v);
            return;
        }
        for (size_t i = 0; i < v->u.obj.len; i++) {
            /* Bridged providers keep `__defaults` inside maps too. */
            if (is_bookkeeping_key(v->u.obj.members[i].key)) continue;
            if (!check_push_key(c, v->u.obj.members[i].key)) return;
            check_value(c, t->element, v->u.obj.members[i].value);
            c->depth--;
        }
        return;
    case SCHEMA_OBJECT:
        if (v->kind != PV_OBJECT) {
            check_mismatch(c, "an object", v);
            return;
        }
        if (t->object) check_object(c, t->object->props, t->object->n_props, v);
        return;
    case SCHEMA_ENUM: {
        for (size_t i = 0; i < t->n_enum_values; i++)
            if (pv_equal(pv_unwrap(t->enum_values[i].value), v)) return;
        if (t->element && t->element->kind == SCHEMA_STRING && v->kind != PV_STRING) {
            check_mismatch(c, "a string", v);
            return;
        }
        /* The allowed values come from the schema, never from the (possibly secret) value. */
        buf_t b;
        buf_init(&b);
        buf_puts(&b, "value is not one of the allowed values: ");
        for (size_t i = 0; i < t->n_enum_values && i < 10; i++) {
            cJSON *j = pv_to_display_json(t->enum_values[i].value, false);
            char *s = cJSON_PrintUnformatted(j);
            buf_printf(&b, "%s%s", i ? ", " : "", s);
            free(s);
            cJSON_Delete(j);
        }
        if (t->n_enum_values > 10) buf_printf(&b, ", … (%zu in all)", t->n_enum_values);
        check_fail(c, buf_arena_str(&b, c->a));
        buf_free(&b);
        return;
    }
    case SCHEMA_UNION: {
        for (size_t i = 0; i < t->n_members; i++) {
            check_ctx_t trial = {.a = c->a, .depth = c->depth};
            memcpy(trial.segs, c->segs, c->depth * sizeof c->segs[0]);
            check_value(&trial, t->members[i], v);
            if (trial.n == 0) return;
        }
        if (t->n_members)
            check_fail(c, arena_sprintf(c->a, "expected one of the property's types, got %s", kind_phrase(v)));
        return;
    }
    case SCHEMA_ASSET:
        if (v->kind != PV_ASSET && v->kind != PV_ARCHIVE) check_mismatch(c, "an asset", v);
        return;
    case SCHEMA_ARCHIVE:
        if (v->kind != PV_ARCHIVE) check_mismatch(c, "an archive", v);
        return;
    case SCHEMA_RESOURCE:
        if (v->kind != PV_STRING && v->kind != PV_RESOURCE_REF) check_mismatch(c, "a resource reference", v);
        return;
    }
}

/* --- Diff -------------------------------------------------------------------------------------- */

typedef struct diff_ctx {
    arena_t *a;
    pv_path_seg_t segs[OFFLINE_MAX_DEPTH];
    size_t depth;
    provider_diff_result_t *out;
    size_t cap_detailed, cap_diffs, cap_replaces;
    bool replace;  /* the current top-level property forces replacement */
    bool all_keys; /* `__` keys too (offline_diff_legacy) */
} diff_ctx_t;

static void push_str(arena_t *a, const char ***arr, size_t *n, size_t *cap, const char *s) {
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*arr)[i], s) == 0) return;
    *arr = arena_grow_array(a, (void *)*arr, cap, *n + 1, sizeof(char *));
    (*arr)[(*n)++] = arena_strdup(a, s);
}

static void diff_report(diff_ctx_t *c, property_diff_kind_t kind) {
    provider_diff_result_t *o = c->out;
    o->detailed = arena_grow_array(c->a, o->detailed, &c->cap_detailed, o->n_detailed + 1, sizeof *o->detailed);
    if (c->replace)
        kind = kind == PDIFF_ADD      ? PDIFF_ADD_REPLACE
               : kind == PDIFF_DELETE ? PDIFF_DELETE_REPLACE
                                      : PDIFF_UPDATE_REPLACE;
    pv_path_t p = {c->segs, c->depth};
    o->detailed[o->n_detailed++] =
        (provider_property_diff_t){.path = pv_path_format(c->a, &p), .kind = kind, .input_diff = true};
    push_str(c->a, &o->diffs, &o->n_diffs, &c->cap_diffs, c->segs[0].key);
    if (c->replace) push_str(c->a, &o->replaces, &o->n_replaces, &c->cap_replaces, c->segs[0].key);
}

/* A value that counts as set: present and not null. */
static const pv_t *set_value(const pv_t *v) {
    return v && v->kind != PV_NULL ? v : NULL;
}

/* Looks through secret/output wrappers unless the secret is opaque (ciphertext only): opaque
 * secrets are compared as they are. */
static const pv_t *diff_unwrap(const pv_t *v) {
    const pv_t *u = pv_unwrap(v);
    return u ? u : v;
}

static void diff_value(diff_ctx_t *c, const pv_t *o, const pv_t *n) {
    const pv_t *ou = diff_unwrap(o), *nu = diff_unwrap(n);
    if (ou->kind == PV_OBJECT && nu->kind == PV_OBJECT && c->depth < OFFLINE_MAX_DEPTH) {
        for (size_t i = 0; i < nu->u.obj.len; i++) {
            const pv_member_t *m = &nu->u.obj.members[i];
            if (!c->all_keys && is_bookkeeping_key(m->key)) continue;
            const pv_t *nv = set_value(m->value), *ov = set_value(pv_object_get(ou, m->key));
            if (!nv && !ov) continue;
            c->segs[c->depth++] = (pv_path_seg_t){.key = m->key};
            if (!ov)
                diff_report(c, PDIFF_ADD);
            else if (!nv)
                diff_report(c, PDIFF_DELETE);
            else
                diff_value(c, ov, nv);
            c->depth--;
        }
        for (size_t i = 0; i < ou->u.obj.len; i++) {
            const pv_member_t *m = &ou->u.obj.members[i];
            if ((!c->all_keys && is_bookkeeping_key(m->key)) || !set_value(m->value) || pv_object_get(nu, m->key))
                continue;
            c->segs[c->depth++] = (pv_path_seg_t){.key = m->key};
            diff_report(c, PDIFF_DELETE);
            c->depth--;
        }
        return;
    }
    if (ou->kind == PV_ARRAY && nu->kind == PV_ARRAY && ou->u.arr.len == nu->u.arr.len &&
        c->depth < OFFLINE_MAX_DEPTH) {
        for (size_t i = 0; i < nu->u.arr.len; i++) {
            c->segs[c->depth++] = (pv_path_seg_t){.key = NULL, .index = i};
            diff_value(c, ou->u.arr.items[i], nu->u.arr.items[i]);
            c->depth--;
        }
        return;
    }
    if (!pv_equal(ou, nu)) diff_report(c, PDIFF_UPDATE);
}

void offline_diff_inputs(const schema_resource_t *res, const pv_t *old_inputs, const pv_t *news, arena_t *a,
                         provider_diff_result_t *out) {
    memset(out, 0, sizeof *out);
    diff_ctx_t c = {.a = a, .out = out};
    for (size_t i = 0; i < res->n_inputs; i++) {
        const schema_property_t *p = &res->inputs[i];
        if (is_bookkeeping_key(p->name)) continue;
        const pv_t *nv = set_value(pv_object_get(news, p->name));
        const pv_t *ov = set_value(pv_object_get(old_inputs, p->name));
        if (!nv && !ov) continue;
        c.segs[0] = (pv_path_seg_t){.key = p->name};
        c.depth = 1;
        c.replace = p->replace_on_changes;
        if (!ov) {
            /* Check filled in the schema default: the resource has it too, so this is no change. */
            if (p->default_value && pv_equal(pv_unwrap(nv), pv_unwrap(p->default_value))) continue;
            diff_report(&c, PDIFF_ADD);
        } else if (!nv) {
            diff_report(&c, PDIFF_DELETE);
        } else {
            diff_value(&c, ov, nv);
        }
    }
    out->changes = out->n_detailed ? DIFF_SOME : DIFF_NONE;
    out->has_detailed_diff = true;
}

void offline_diff_legacy(const pv_t *old_inputs, const pv_t *news, arena_t *a, provider_diff_result_t *out) {
    memset(out, 0, sizeof *out);
    diff_ctx_t c = {.a = a, .out = out, .all_keys = true};
    pv_t *none = pv_object(a); /* a side that is no object: nothing there */
    diff_value(&c, old_inputs && old_inputs->kind == PV_OBJECT ? old_inputs : none,
               news && news->kind == PV_OBJECT ? news : none);
    out->changes = out->n_detailed ? DIFF_SOME : DIFF_NONE;
    out->has_detailed_diff = true;
}

/* --- Read, Check and Diff, answered at once -------------------------------------------------- */

static const schema_resource_t *offline_find_resource(offline_impl_t *im, arena_t *a, const char *urn,
                                                      const char **type_out, diag_list_t *diags) {
    char *type = urn_type(a, urn);
    if (!type) {
        diag_error(diags, DIAG_INPUT, "'%s' is not a valid resource URN", urn);
        return NULL;
    }
    *type_out = type;
    const schema_resource_t *res = schema_find_resource(im->pkg, type);
    const char *near = res ? NULL : schema_suggest_resource(im->pkg, type);
    if (!res && near)
        diag_error(diags, DIAG_SCHEMA, "the schema of package '%s' (%s) has no resource type '%s'; did you mean '%s'?",
                   im->pkg->name, im->pkg->origin ? im->pkg->origin : "no file", type, near);
    else if (!res) {
        char advice[DIAG_ADVICE_MAX];
        diag_error(diags, DIAG_SCHEMA, "the schema of package '%s' (%s) has no resource type '%s'%s", im->pkg->name,
                   im->pkg->origin ? im->pkg->origin : "no file", type,
                   diag_advice(advice, DIAG_ADVICE_SCHEMA_WITH_TYPE, im->pkg->name));
    }
    return res;
}

static schema_package_t *offline_get_schema(provider_t *p, diag_list_t *diags) {
    return ((offline_impl_t *)p->impl)->pkg;
}

static bool offline_configure(provider_t *p, const pv_t *config, diag_list_t *diags) {
    return true;
}

void offline_source_set_keyring(offline_source_t *src, passphrase_keyring_t *keyring) {
    src->keyring = keyring;
}

#define EXPORT_SHOW_SECRETS                                                                                            \
    "export that stack with `pulumi stack export --show-secrets --file FILE` and import from that file (it holds "     \
    "the secrets in plaintext: delete it afterwards)"

/* Whether the state's ciphertexts can be decrypted: its passphrase provider's salt state opened with
 * the run's passphrase, once. */
static bool source_reveal_open(offline_source_t *src) {
    if (src->reveal_tried) return src->reveal != NULL;
    src->reveal_tried = true;
    const char *salt;
    const char *sp = deployment_secrets_provider(src->state, &salt);
    src->reveal_fix = EXPORT_SHOW_SECRETS;
    if (!sp || strcmp(sp, "passphrase") != 0 || !salt) {
        if (sp && strcmp(sp, "passphrase") != 0)
            src->reveal_provider = sp; /* in the state's document, which outlives the source */
        else
            src->reveal_unable = sp ? "the state's passphrase secrets provider records no salt state"
                                    : "the state names no secrets provider that could decrypt them";
        return false;
    }
    src->reveal_fix = "set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to that stack's passphrase, "
                      "or " EXPORT_SHOW_SECRETS;
    if (!src->keyring) {
        src->reveal_unable = "that stack's passphrase encrypted them, and no passphrase is set";
        return false;
    }
    diag_list_t quiet;
    diag_list_init(&quiet);
    src->reveal = passphrase_keyring_open(src->keyring, salt, src->state->path, &quiet);
    diag_list_free(&quiet);
    if (!src->reveal) {
        src->reveal_unable = "the passphrase set (PULUMI_CONFIG_PASSPHRASE or the file PULUMI_CONFIG_PASSPHRASE_FILE "
                             "names) does not open the salt state of the state's passphrase secrets provider";
        src->reveal_fix = "set that stack's passphrase (a run has one passphrase: when the target stack's is another, "
                          "use the export), or " EXPORT_SHOW_SECRETS;
    }
    return src->reveal != NULL;
}

/* A recorded resource's secrets held as the ciphertext of the stack the state comes from (a `pulumi
 * stack export` as it comes): decrypted with that stack's secrets provider, they are the values they
 * are, which the run encrypts again for wherever they go. One that cannot be decrypted refuses the
 * resource: another stack's ciphertext never reads back in the stack the import goes into, and the
 * code cannot hold a value nobody can read. */
static bool source_reveal(offline_source_t *src, const state_resource_t *r, arena_t *a, pv_t *inputs, pv_t *state,
                          diag_list_t *diags) {
    size_t n = deployment_secrets_decrypt(a, inputs, NULL) + deployment_secrets_decrypt(a, state, NULL);
    if (!n) return true;
    const char *why;
    if (source_reveal_open(src)) {
        n = deployment_secrets_decrypt(a, inputs, src->reveal) + deployment_secrets_decrypt(a, state, src->reveal);
        if (!n) return true;
        why = "they do not decrypt with the key that opens the state's salt state (the file is damaged)";
    } else {
        why = src->reveal_provider ? arena_sprintf(a,
                                                   "the state's '%s' secrets provider encrypted them, which cimport "
                                                   "cannot decrypt",
                                                   src->reveal_provider)
                                   : src->reveal_unable;
    }
    diag_add(diags, DIAG_ERROR, DIAG_INPUT, src->state->path, NULL,
             "the offline state's resource '%s' holds %zu secret value%s as ciphertext of the stack it was exported "
             "from, and %s; that ciphertext is not copied into another stack, and the code cannot hold a value "
             "nobody can read: %s",
             r->urn, n, n == 1 ? "" : "s", why, src->reveal_fix);
    return false;
}

static bool offline_read(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state,
                         arena_t *a, provider_read_result_t *out, diag_list_t *diags) {
    offline_impl_t *im = p->impl;
    memset(out, 0, sizeof *out);
    char *type = urn_type(a, urn);
    if (!type) {
        diag_error(diags, DIAG_INPUT, "'%s' is not a valid resource URN", urn);
        return false;
    }
    /* a source without a plan (or whose plan did not have this type) indexes import IDs now */
    if (!im->src->import_ids_indexed && importid_apart_from_id(type)) source_index_import_ids(im->src);
    bool by_part, by_import_id;
    const offline_slot_t *slot = source_find(im->src, type, id, &by_part, &by_import_id);
    const state_resource_t *r = NULL;
    if (slot) {
        const char *why;
        r = source_pick(im->src, slot, urn, a, &why);
        if (!r) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, im->src->state ? im->src->state->path : NULL, NULL, "%s", why);
            return false;
        }
    }
    if (!r) {
        const char *file = im->src->state ? im->src->state->path : NULL;
        diag_add(diags, DIAG_INFO, DIAG_PROVIDER, file, NULL,
                 "the offline state%s has no resource of type '%s' with ID '%s'; check the ID, or pass the stack "
                 "state that records it",
                 file ? "" : " (given without a file name)", type, id);
        return true; /* state NULL: the engine reports that the resource does not exist */
    }
    /* Copies: the engine edits what it is given, and the state is shared by every import. */
    out->id = arena_strdup(a, r->id);
    if (!deployment_resource_read(im->src->state, r, a, &out->inputs, &out->state, diags) ||
        !source_reveal(im->src, r, a, out->inputs, out->state, diags)) {
        memset(out, 0, sizeof *out);
        return false;
    }
    if (!by_import_id && importid_assembled(type)) {
        /* Found by the ID inside the import ID: the provider's importer makes the state from the import
         * ID's other parts (a range, a prefix), so another one than recorded is not this resource. Found
         * by the recorded ID itself: the importer takes another ID (parts of it, or other outputs), and
         * refuses that one. */
        const char *why, *want = importid_of(a, type, r->id, out->state, "Pulumi", &why);
        if (!want || strcmp(want, id) != 0) {
            const char *file = im->src->state ? im->src->state->path : NULL;
            if (want)
                diag_add(diags, DIAG_INFO, DIAG_PROVIDER, file, NULL,
                         "the offline state's resource '%s' has ID '%s', and its import ID is '%s', not '%s' (%s); "
                         "check the ID",
                         r->urn, r->id, want, id,
                         by_part ? "the provider's importer would record another resource than the state's"
                                 : "the provider's importer does not take the ID the state records");
            else
                diag_add(diags, DIAG_INFO, DIAG_PROVIDER, file, NULL,
                         "the offline state's resource '%s' has ID '%s', but cannot be told to be the one import ID "
                         "'%s' names: %s",
                         r->urn, r->id, id, why);
            memset(out, 0, sizeof *out);
            return true; /* state NULL: the engine reports that the resource does not exist */
        }
    }
    return true;
}

static bool offline_check(provider_t *p, const char *urn, const pv_t *olds, const pv_t *news, const unsigned char *seed,
                          size_t seed_len, arena_t *a, provider_check_result_t *out, diag_list_t *diags) {
    offline_impl_t *im = p->impl;
    memset(out, 0, sizeof *out);
    const char *type;
    const schema_resource_t *res = offline_find_resource(im, a, urn, &type, diags);
    if (!res) return false;
    pv_t *checked = news && news->kind == PV_OBJECT ? pv_clone(a, news) : pv_object(a);
    /* Defaults first, so a property that has one is never "missing". Defaults from the environment
     * (defaultInfo) are not applied: the offline provider has no ambient configuration. */
    for (size_t i = 0; i < res->n_inputs; i++) {
        const schema_property_t *prop = &res->inputs[i];
        if (prop->default_value && !set_value(pv_object_get(checked, prop->name)))
            pv_object_set(a, checked, prop->name, pv_clone(a, prop->default_value));
    }
    check_ctx_t c = {.a = a};
    check_object(&c, res->inputs, res->n_inputs, checked);
    out->inputs = checked;
    out->failures = c.fails;
    out->n_failures = c.n;
    return true;
}

static bool offline_diff(provider_t *p, const char *urn, const char *id, const pv_t *old_state, const pv_t *old_inputs,
                         const pv_t *news, arena_t *a, provider_diff_result_t *out, diag_list_t *diags) {
    offline_impl_t *im = p->impl;
    const char *type;
    const schema_resource_t *res = offline_find_resource(im, a, urn, &type, diags);
    if (!res) {
        memset(out, 0, sizeof *out);
        return false;
    }
    offline_diff_inputs(res, old_inputs, news, a, out);
    return true;
}

/* --- the operations: each answer computed at once, its completion run from the next poll ------ */

static void offline_read_async(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state,
                               arena_t *a, provider_read_result_t *out, diag_list_t *diags, provider_done_fn done,
                               void *user) {
    bool ok = offline_read(p, urn, id, inputs, state, a, out, diags);
    provider_queue_push(&((offline_impl_t *)p->impl)->done, done, user, ok);
}

static void offline_check_async(provider_t *p, const char *urn, const pv_t *olds, const pv_t *news,
                                const unsigned char *seed, size_t seed_len, arena_t *a, provider_check_result_t *out,
                                diag_list_t *diags, provider_done_fn done, void *user) {
    bool ok = offline_check(p, urn, olds, news, seed, seed_len, a, out, diags);
    provider_queue_push(&((offline_impl_t *)p->impl)->done, done, user, ok);
}

static void offline_diff_async(provider_t *p, const char *urn, const char *id, const pv_t *old_state,
                               const pv_t *old_inputs, const pv_t *news, arena_t *a, provider_diff_result_t *out,
                               diag_list_t *diags, provider_done_fn done, void *user) {
    bool ok = offline_diff(p, urn, id, old_state, old_inputs, news, a, out, diags);
    provider_queue_push(&((offline_impl_t *)p->impl)->done, done, user, ok);
}

static size_t offline_poll(provider_t *p) {
    return provider_queue_run(&((offline_impl_t *)p->impl)->done);
}

static void offline_close(provider_t *p) {
    offline_impl_t *im = p->impl;
    provider_queue_free(&im->done);
    free(im);
    free(p);
}

static const provider_ops_t offline_ops = {
    .get_schema = offline_get_schema,
    .configure = offline_configure,
    .read_async = offline_read_async,
    .check_async = offline_check_async,
    .diff_async = offline_diff_async,
    .poll = offline_poll,
    .close = offline_close,
};

provider_t *offline_provider_factory(void *user, const char *package, const char *version, const char *download_url,
                                     diag_list_t *diags) {
    offline_source_t *src = user;
    schema_package_t *pkg = schema_set_get(src->schemas, package);
    if (!pkg) {
        size_t n = schema_set_count(src->schemas);
        buf_t b;
        buf_init(&b);
        for (size_t i = 0; i < n; i++) {
            const schema_package_t *s = schema_set_at(src->schemas, i);
            buf_printf(&b, "%s'%s'", i ? ", " : "", s->name);
        }
        const char **names = malloc((n + 1) * sizeof *names);
        if (!names) abort();
        for (size_t i = 0; i < n; i++)
            names[i] = schema_set_at(src->schemas, i)->name;
        const char *near = suggest_closest(package, names, n, true);
        free(names);
        char advice[DIAG_ADVICE_MAX];
        if (near)
            diag_error(diags, DIAG_SCHEMA,
                       "the offline provider needs the schema of package '%s', but the schemas given are for %s; did "
                       "you mean '%s'?",
                       package, b.data, near);
        else if (n)
            diag_error(diags, DIAG_SCHEMA,
                       "the offline provider needs the schema of package '%s', but the schemas given are for %s%s",
                       package, b.data, diag_advice(advice, DIAG_ADVICE_SCHEMA, package));
        else
            diag_error(diags, DIAG_SCHEMA,
                       "the offline provider needs the schema of package '%s', but no schemas were given%s", package,
                       diag_advice(advice, DIAG_ADVICE_SCHEMA, package));
        buf_free(&b);
        return NULL;
    }
    /* the import file names another version than the schema given: checked against that schema */
    if (version && *version && pkg->version && strcmp(version, pkg->version) != 0)
        diag_add(diags, DIAG_WARNING, DIAG_SCHEMA, NULL, NULL,
                 "the import file asks for %s %s, but the schema given is %s %s: resources of %s are checked "
                 "against %s; pass the schema of %s %s to check them against that version",
                 package, version, package, pkg->version, package, pkg->version, package, version);
    offline_impl_t *im = calloc(1, sizeof *im);
    provider_t *p = calloc(1, sizeof *p);
    if (!im || !p) abort();
    im->src = src;
    im->pkg = pkg;
    p->ops = &offline_ops;
    p->package = pkg->name;
    p->version = pkg->version;
    p->impl = im;
    return p;
}

/* engine.c — the import algorithm (ARCHITECTURE §6) over any provider (importer/provider.h).
 *
 * Per plan item: Read → Iₐ, Sₐ; schema of T; Iₚ := spec inputs + spec properties + required inputs
 * (or every Read input with --inputs read); then rounds of Check(Iₐ, Iₚ) → Iₖ and Diff(Sₐ, Iₐ, Iₖ),
 * copying each differing path from Iₐ (input diffs) or Sₐ into Iₚ, until Diff reports nothing
 * (verified) or the round budget is spent (residual paths).
 *
 * Scheduling: each resource in flight is a state machine (Read → Check → Diff → copy → Check → Diff
 * ...) in a pool slot; at most `parallel` are in flight. A step starts a provider call (the
 * provider's asynchronous operation) whose completion only queues the slot; the driver loop runs
 * the queue, then waits in provider_registry_poll. So no provider callback ever re-enters
 * the engine, and the same plan gives the same results at any parallelism: a resource's result
 * depends only on its own calls. Ready items start lowest plan index first; a child becomes ready
 * when its parent finished OK and is skipped otherwise. Results reach on_result in plan order.
 *
 * Memory: results, their values and diagnostics live in the caller's arena (or, with
 * release_results, one arena per result freed after on_result) and the per-result diag lists;
 * everything a round produces (checked inputs, diff paths) goes to the resource's scratch arena,
 * freed when the resource is done, so memory grows with the results kept, not with rounds or with
 * the plan. */
#include "importer/engine.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "importer/engine_internal.h"
#include "importer/grpc.h"
#include "importer/offline_internal.h"
#include "specs/importid.h"
#include "specs/stackstate.h"
#include "specs/suggest.h"

#define ENGINE_SEED_LEN 32
#define ENGINE_VALUE_MAX 200 /* longest value text quoted in a Check warning */

void engine_options_default(engine_options_t *o) {
    memset(o, 0, sizeof *o);
    o->inputs = INPUTS_MINIMAL;
    o->max_rounds = 3;
}

typedef struct engine engine_t;

typedef enum { STEP_READ, STEP_CHECK, STEP_DIFF } engine_step_t;

typedef struct diff_path {
    const char *path;
    bool input_diff;
} diff_path_t;

/* The state of one resource's import while it is in flight (a pool slot; `parallel` of them). */
typedef struct engine_item {
    engine_t *eng;
    size_t index; /* in the plan */
    bool in_use;
    arena_t *a;       /* the result's arena: the caller's, or the result's own (release_results) */
    arena_t *scratch; /* this resource's round-by-round garbage, freed when it is done */
    import_result_t *r;
    const char *name; /* as the user named it */
    const char *desc; /* "resource 'name' of type 'T'" */
    const schema_resource_t *schema;
    size_t prov_cap;
    /* the call in flight and what the rounds carry from one step to the next */
    provider_t *p;
    engine_step_t step;
    bool call_ok;
    diag_list_t local; /* the running call's diagnostics, absorbed when it completes */
    provider_read_result_t rr;
    provider_check_result_t cr;
    provider_diff_result_t dr;
    unsigned char seed[ENGINE_SEED_LEN];
    int budget;
    diff_path_t *paths;
    size_t n_paths;
    bool unnamed;                  /* the last Diff answered DIFF_SOME without naming a property */
    bool stand_in;                 /* the last Diff answered DIFF_UNKNOWN: its paths are Pulumi's own diff */
    bool warned_not_input;         /* a Diff path outside the schema's inputs was reported */
    struct engine_item *next_done; /* the completion queue */
} engine_item_t;

static const char *item_name(const import_plan_item_t *it) {
    return it->spec && it->spec->name ? it->spec->name : it->logical_name;
}

/* Moves a provider call's diagnostics to the result, tagging them with the resource. */
static void item_absorb(engine_item_t *e, diag_list_t *local) {
    for (diag_t *d = local->head; d; d = d->next) {
        diag_t *n = diag_add(&e->r->diags, d->severity, d->code, d->file, d->resource ? d->resource : e->desc, "%s",
                             d->message);
        n->line = d->line;
    }
    diag_list_free(local);
}

static void item_fail(engine_item_t *e, diag_code_t code, const char *msg) {
    diag_add(&e->r->diags, DIAG_ERROR, code, NULL, e->desc, "%s", msg);
    e->r->status = IMPORT_FAILED;
}

/* --- provenance -------------------------------------------------------------------------------- */

static void prov_add(engine_item_t *e, const char *path, input_provenance_t kind) {
    import_result_t *r = e->r;
    for (size_t i = 0; i < r->n_provenance; i++)
        if (strcmp(r->provenance[i].path, path) == 0) return; /* the first reason an input is there wins */
    r->provenance = arena_grow_array(e->a, r->provenance, &e->prov_cap, r->n_provenance + 1, sizeof *r->provenance);
    r->provenance[r->n_provenance++] = (input_provenance_entry_t){arena_strdup(e->a, path), kind};
}

/* Drops the entries of a path that left Iₚ, and of everything below it. */
static void prov_drop(engine_item_t *e, const char *path) {
    import_result_t *r = e->r;
    size_t len = strlen(path), kept = 0;
    for (size_t i = 0; i < r->n_provenance; i++) {
        const char *p = r->provenance[i].path;
        bool under = strncmp(p, path, len) == 0 && (p[len] == 0 || p[len] == '.' || p[len] == '[');
        if (!under) r->provenance[kept++] = r->provenance[i];
    }
    r->n_provenance = kept;
}

/* --- values ------------------------------------------------------------------------------------ */

/* Whether the path passes through (or ends at) a secret in root: a value copied from there must
 * stay secret even though pv_path_get looks through the wrapper. */
static bool path_crosses_secret(const pv_t *root, const pv_path_t *p) {
    const pv_t *v = root;
    for (size_t i = 0; v; i++) {
        if (v->kind == PV_SECRET || (v->kind == PV_OUTPUT && v->u.output.secret)) return true;
        if (i == p->len) return false;
        const pv_t *u = pv_unwrap(v);
        if (!u) return false;
        const pv_path_seg_t *s = &p->segs[i];
        if (s->key)
            v = u->kind == PV_OBJECT ? pv_object_get(u, s->key) : NULL;
        else
            v = u->kind == PV_ARRAY && s->index < u->u.arr.len ? u->u.arr.items[s->index] : NULL;
    }
    return false;
}

/* Removes the value at the path; an array element becomes null (indices of the others keep). */
static bool path_remove(arena_t *a, pv_t *root, const pv_path_t *p) {
    if (p->len == 0) return false;
    pv_path_t parent = {p->segs, p->len - 1};
    pv_t *holder = parent.len ? pv_path_get(root, &parent) : root;
    while (holder && (holder->kind == PV_SECRET || holder->kind == PV_OUTPUT))
        holder = holder->kind == PV_SECRET ? holder->u.secret.inner : holder->u.output.value;
    if (!holder) return false;
    const pv_path_seg_t *last = &p->segs[p->len - 1];
    if (last->key) return holder->kind == PV_OBJECT && pv_object_remove(holder, last->key);
    if (holder->kind != PV_ARRAY || last->index >= holder->u.arr.len) return false;
    if (holder->u.arr.items[last->index]->kind == PV_NULL) return false;
    holder->u.arr.items[last->index] = pv_null(a);
    return true;
}

/* Secret schema properties are wrapped, whatever Read returned them as — at every depth (a secret
 * field of an object type, of a list's or a map's elements), not only at the top level. */
static void wrap_secret_properties(engine_item_t *e, pv_t *inputs) {
    schema_wrap_secrets(e->a, e->schema->inputs, e->schema->n_inputs, inputs);
}

/* An input whose property the provider keeps secret in the state (Read answered it secret: the
 * gcp sql User's password under a schema that does not mark it) is secret too, in the code and in
 * what the stack records: the results document lists it secret (secretPaths), so the code must not
 * hold it as a literal. Top-level properties, as the state names them. */
static void wrap_state_secrets(arena_t *a, pv_t *inputs, const pv_t *state) {
    if (!inputs || inputs->kind != PV_OBJECT || !state || state->kind != PV_OBJECT) return;
    for (size_t i = 0; i < inputs->u.obj.len; i++) {
        pv_member_t *m = &inputs->u.obj.members[i];
        const pv_t *sv = pv_object_get(state, m->key);
        if (!m->value || m->value->kind == PV_NULL || m->value->kind == PV_SECRET || !sv) continue;
        if (sv->kind == PV_SECRET || (sv->kind == PV_OUTPUT && sv->u.output.secret)) m->value = pv_secret(a, m->value);
    }
}

/* Deterministic Check seed (providers use it for autonaming): the same URN always gets the same
 * 32 bytes, so runs are reproducible. FNV-1a per 8-byte word with a different basis each. */
static void seed_from_urn(const char *urn, unsigned char seed[ENGINE_SEED_LEN]) {
    for (int w = 0; w < ENGINE_SEED_LEN / 8; w++) {
        uint64_t h = 1469598103934665603ull ^ ((uint64_t)(w + 1) * 0x9e3779b97f4a7c15ull);
        for (const unsigned char *c = (const unsigned char *)urn; *c; c++)
            h = (h ^ *c) * 1099511628211ull;
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        for (int b = 0; b < 8; b++)
            seed[w * 8 + b] = (unsigned char)(h >> (8 * b));
    }
}

/* JSON text of a value for a warning: "[secret]" for anything secret, shortened when long. */
static const char *value_text(engine_item_t *e, const pv_t *root, const char *path_text) {
    pv_path_t p;
    if (!path_text || !pv_path_parse(e->scratch, path_text, &p, NULL)) return "null";
    const pv_t *v = pv_path_get(root, &p);
    if (!v) return "null";
    const schema_property_t *top =
        p.segs[0].key ? schema_find_property(e->schema->inputs, e->schema->n_inputs, p.segs[0].key) : NULL;
    if ((top && top->secret) || path_crosses_secret(root, &p) || pv_contains_secret(v)) return "[secret]";
    cJSON *j = pv_to_display_json(v, false);
    char *s = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    size_t len = strlen(s);
    const char *out;
    if (len > ENGINE_VALUE_MAX) {
        size_t cut = ENGINE_VALUE_MAX;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--; /* not inside a UTF-8 sequence */
        out = arena_sprintf(e->scratch, "%.*s…", (int)cut, s);
    } else {
        out = arena_strdup(e->scratch, s);
    }
    free(s);
    return out;
}

/* --- the rounds -------------------------------------------------------------------------------- */

/* The paths a Diff answer asks to copy: detailed paths when given, else top-level keys. e->unnamed
 * says whether the answer was a change without any path (the paths are then Pulumi's fallback, every
 * input Read returned, which need not be where the difference is). */
static diff_path_t *diff_paths(engine_item_t *e, const provider_diff_result_t *d, const pv_t *checked, size_t *n) {
    provider_diff_result_t own;
    e->unnamed = false;
    e->stand_in = d->changes == DIFF_UNKNOWN && d->n_detailed == 0 && d->n_diffs == 0;
    if (e->stand_in) {
        /* "Don't know": diff the inputs ourselves as Pulumi's engine does, over every key (not only the
         * schema's inputs, and a schema default Check filled in is a difference too). */
        offline_diff_legacy(e->r->read_inputs, checked, e->scratch, &own);
        d = &own;
    }
    diff_path_t *out;
    if (d->n_detailed) {
        out = arena_alloc(e->scratch, d->n_detailed * sizeof *out);
        for (size_t i = 0; i < d->n_detailed; i++)
            out[i] = (diff_path_t){d->detailed[i].path, d->detailed[i].input_diff};
        *n = d->n_detailed;
        return out;
    }
    if (d->n_diffs) {
        out = arena_alloc(e->scratch, d->n_diffs * sizeof *out);
        for (size_t i = 0; i < d->n_diffs; i++)
            out[i] = (diff_path_t){d->diffs[i], pv_object_get(e->r->read_inputs, d->diffs[i]) != NULL};
        *n = d->n_diffs;
        return out;
    }
    if (d->changes == DIFF_SOME) {
        /* Changes without saying where: take every input Read returned (Pulumi's fallback, ImportStep:
         * "If no detailed diff was returned, take the actual inputs wholesale"). Whatever that copies,
         * only a later Diff that reports no change verifies the resource. */
        e->unnamed = true;
        const pv_t *ia = e->r->read_inputs;
        out = arena_alloc(e->scratch, (ia->u.obj.len + 1) * sizeof *out);
        size_t k = 0;
        for (size_t i = 0; i < ia->u.obj.len; i++)
            if (schema_find_property(e->schema->inputs, e->schema->n_inputs, ia->u.obj.members[i].key))
                out[k++] = (diff_path_t){ia->u.obj.members[i].key, true};
        *n = k;
        return out;
    }
    *n = 0;
    return NULL;
}

/* One copy round; returns whether Iₚ changed. */
static bool copy_round(engine_item_t *e, const diff_path_t *paths, size_t n) {
    import_result_t *r = e->r;
    bool changed = false;
    for (size_t i = 0; i < n; i++) {
        pv_path_t p;
        diag_list_t local;
        diag_list_init(&local);
        if (!pv_path_parse(e->scratch, paths[i].path, &p, &local)) {
            diag_add(&r->diags, DIAG_WARNING, DIAG_PROVIDER, NULL, e->desc,
                     "the provider's Diff reported a property path that cannot be parsed: %s", local.head->message);
            diag_list_free(&local);
            continue;
        }
        if (!p.segs[0].key || !schema_find_property(e->schema->inputs, e->schema->n_inputs, p.segs[0].key)) {
            /* The code holds only the schema's inputs (pcl/gen.c generate_inputs): a value copied here
             * would be verified, then dropped. It stays a difference, said once. */
            if (!e->warned_not_input)
                diag_add(&r->diags, DIAG_WARNING, DIAG_PROVIDER, NULL, e->desc,
                         "%s '%s', which is not an input of this type in the provider's schema, so the code cannot "
                         "hold it and the difference stays",
                         e->stand_in ? "the provider's Diff does not know whether anything changed, and Pulumi's own "
                                       "diff of the inputs then finds"
                                     : "the provider's Diff names",
                         paths[i].path);
            e->warned_not_input = true;
            continue;
        }
        const pv_t *src = paths[i].input_diff ? r->read_inputs : r->state;
        const pv_t *v = pv_path_get(src, &p);
        /* A state diff whose path the state lacks: Read's inputs are the next best source, and
         * better than dropping a value the resource was created with. */
        if (!v && !paths[i].input_diff) {
            src = r->read_inputs;
            v = pv_path_get(src, &p);
        }
        char *text = pv_path_format(e->scratch, &p);
        if (!v) {
            if (path_remove(e->a, r->inputs, &p)) {
                prov_drop(e, text);
                changed = true;
            }
            continue;
        }
        pv_t *cur = pv_path_get(r->inputs, &p);
        if (cur && pv_equal(cur, v)) continue;
        pv_t *copy = pv_clone(e->a, v);
        if (copy->kind != PV_SECRET && path_crosses_secret(src, &p)) copy = pv_secret(e->a, copy);
        if (!pv_path_set(e->a, r->inputs, &p, copy)) {
            /* The path crosses a scalar in Iₚ: replace the top-level value wholesale instead. */
            pv_path_t top = {p.segs, 1};
            const pv_t *tv = pv_path_get(src, &top);
            if (!tv || !p.segs[0].key) continue;
            pv_object_set(e->a, r->inputs, p.segs[0].key, pv_clone(e->a, tv));
            text = pv_path_format(e->scratch, &top);
        }
        prov_add(e, text, PROVENANCE_DIFF);
        changed = true;
    }
    wrap_secret_properties(e, r->inputs);
    return changed;
}

static void report_check_failures(engine_item_t *e, const provider_check_result_t *c, const pv_t *news) {
    const char *type = e->r->item->type, *lname = e->r->item->logical_name;
    for (size_t i = 0; i < c->n_failures; i++) {
        const provider_check_failure_t *f = &c->failures[i];
        if (f->property && *f->property)
            diag_add(&e->r->diags, DIAG_WARNING, DIAG_CHECK, NULL, e->desc,
                     "%s resource '%s': property %s value %s has a problem: %s", type, lname, f->property,
                     value_text(e, news, f->property), f->reason);
        else
            diag_add(&e->r->diags, DIAG_WARNING, DIAG_CHECK, NULL, e->desc, "%s resource '%s' has a problem: %s", type,
                     lname, f->reason);
    }
}

/* --- the driver ---------------------------------------------------------------------------------- */

/* Where a plan item is. */
enum {
    ITEM_WAITING = 0, /* its parent has not finished */
    ITEM_READY,       /* in the ready heap */
    ITEM_RUNNING,     /* in flight */
    ITEM_FINISHED,    /* finished, waiting for an earlier resource of its type to settle (settle) */
    ITEM_DONE,        /* settled, its result not yet handed to on_result */
    ITEM_DELIVERED,
};

struct engine {
    arena_t *a; /* the caller's */
    const import_plan_t *plan;
    provider_registry_t *providers;
    schema_set_t *schemas;
    const engine_options_t *opts;
    diag_list_t *diags;
    import_result_t *results;
    size_t n;
    unsigned char *where; /* ITEM_* per plan item */
    long *parent;         /* resolved parent index or -1 */
    long *first_child, *next_sibling;
    int32_t *same_prev, *same_next; /* the plan's previous / next resource of its type that may be an object
                                       (may_be_object), or -1 */
    size_t *heap, n_heap;           /* ready items, lowest plan index first (entries may be stale) */
    size_t *work;                   /* worklist of complete() */
    engine_item_t *pool;            /* `parallel` slots */
    size_t parallel, window;
    engine_item_t *done_head, *done_tail;
    size_t in_flight, finished, failed, delivered;
    int64_t next_tick;
    engine_stats_t stats;
    bool stopping; /* opts->stop was seen: nothing starts, the calls in flight were cancelled */
    /* The cloud objects claimed (claim_object): each key's 64-bit hash and its first claim's plan index in a table
     * sized once for the plan's resources that may be objects (16 bytes a slot, linear probing), not the key
     * itself (a resource's type, ID and provider URN: ~70 bytes a resource, held for the whole run) */
    struct object_slot *objects;
    size_t objects_mask;
    hashmap_t objects_alike_hash; /* the rare key whose hash an earlier, different key has: key → first claim + 1 */
    hashmap_t objects_read_ids;   /* a first claim whose Read ID is not its import ID: its plan index → that ID */
    hashmap_t alike;              /* an explicit provider's URN → the first one's configured alike, "" the default
                                   * provider's (alike_providers) */
    arena_t *objects_claims;      /* the claims, the read IDs and the keys of objects_alike_hash */
    arena_t *objects_scratch;     /* the key being claimed and the first claim's, remade now and then */
    const char **refusals;        /* per declared explicit provider: NULL not judged yet, "" fine, else why it
                                   * is refused (declared_provider_refusal) */
    arena_t *refusals_arena;      /* their texts */
};

uint64_t (*engine_object_hash)(const void *key, size_t len) = hashmap_hash;

/* A slot of engine_t.objects: the first resource of the run to claim a cloud object. A released result no longer has
 * its ID, so the ID Read gave is kept apart (objects_read_ids) when it is not the plan's import ID, to remake the
 * key. */
struct object_slot {
    uint64_t hash;
    uint32_t index1; /* plan index + 1; 0: an empty slot */
};

static long item_parent(const engine_t *g, size_t i) {
    int pi = g->plan->items[i].parent_index;
    return pi >= 0 && (size_t)pi < g->n && (size_t)pi != i ? pi : -1;
}

static void heap_push(engine_t *g, size_t i) {
    size_t k = g->n_heap++;
    while (k > 0 && g->heap[(k - 1) / 2] > i) {
        g->heap[k] = g->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    g->heap[k] = i;
}

static size_t heap_pop(engine_t *g) {
    size_t top = g->heap[0], last = g->heap[--g->n_heap], k = 0;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= g->n_heap) break;
        if (c + 1 < g->n_heap && g->heap[c + 1] < g->heap[c]) c++;
        if (g->heap[c] >= last) break;
        g->heap[k] = g->heap[c];
        k = c;
    }
    if (g->n_heap) g->heap[k] = last;
    return top;
}

/* The arena a result's values go to. */
static arena_t *result_arena(engine_t *g, import_result_t *r) {
    if (!g->opts->release_results) return g->a;
    if (!r->arena) r->arena = arena_new();
    return r->arena;
}

static void release_result(import_result_t *r) {
    diag_list_free(&r->diags);
    diag_list_init(&r->diags);
    arena_free(r->arena);
    r->arena = NULL;
    r->id = NULL;
    r->inputs = r->read_inputs = r->state = NULL;
    r->provenance = NULL;
    r->n_provenance = 0;
    r->residual = r->ignore_changes = NULL;
    r->n_residual = r->n_ignore_changes = 0;
}

/* Hands finished results to on_result in plan order. */
static void deliver(engine_t *g) {
    while (g->delivered < g->n && g->where[g->delivered] == ITEM_DONE) {
        import_result_t *r = &g->results[g->delivered];
        g->where[g->delivered] = ITEM_DELIVERED;
        g->delivered++;
        if (g->opts->on_result) g->opts->on_result(g->opts->user, r, g->delivered, g->n);
        if (!g->opts->release_results) continue;
        release_result(r);
        if (g->opts->on_released) g->opts->on_released(g->opts->user, r);
    }
    size_t held = g->finished - g->delivered;
    if (held > g->stats.peak_held) g->stats.peak_held = held;
}

static void skip_child(engine_t *g, size_t c, size_t parent) {
    import_result_t *r = &g->results[c];
    const import_plan_item_t *it = r->item;
    arena_t *a = result_arena(g, r);
    diag_add(&r->diags, DIAG_ERROR, DIAG_GENERIC, NULL,
             arena_sprintf(a, "resource '%s' of type '%s'", item_name(it), it->type),
             "skipped: its parent '%s' failed to import", item_name(g->results[parent].item));
    r->status = IMPORT_SKIPPED;
    r->inputs = pv_object(a);
}

/* Whether two explicit providers' inputs are one configuration: equal in every configuration key
 * (stackstate_is_provider_config_key), a null one as absent. */
static bool config_alike(const pv_t *a, const pv_t *b) {
    for (int side = 0; side < 2; side++) {
        const pv_t *x = side ? b : a, *y = side ? a : b;
        for (size_t k = 0; x && x->kind == PV_OBJECT && k < x->u.obj.len; k++) {
            const char *key = x->u.obj.members[k].key;
            if (!stackstate_is_provider_config_key(key)) continue;
            const pv_t *u = x->u.obj.members[k].value, *v = y && y->kind == PV_OBJECT ? pv_object_get(y, key) : NULL;
            bool u_null = !u || u->kind == PV_NULL, v_null = !v || v->kind == PV_NULL;
            if (u_null != v_null || (!u_null && !pv_equal(u, v))) return false;
        }
    }
    return true;
}

/* Explicit providers configured alike reach one account, so an object under either is one object:
 * g->alike maps each provider's URN to "" when it is configured as its package's default provider
 * (engine_options_t.default_config), else to the first one's configured as it — the import file's
 * providers (their inputs there), then those it names by URN only (engine_options_t.known_providers). */
static void alike_providers(engine_t *g) {
    size_t cap = g->n, k = 0;
    const pv_t *known = g->opts->known_providers;
    if (known && known->kind == PV_OBJECT) cap += known->u.obj.len;
    arena_t *t = arena_new();
    const char **urn = arena_alloc(t, (cap + 1) * sizeof *urn), **type = arena_alloc(t, (cap + 1) * sizeof *type);
    const pv_t **in = arena_alloc(t, (cap + 1) * sizeof(const pv_t *));
    for (size_t i = 0; i < g->n; i++) {
        const import_plan_item_t *it = &g->plan->items[i];
        if (it->is_provider && it->urn) urn[k] = it->urn, in[k++] = it->spec ? it->spec->inputs : NULL;
    }
    for (size_t i = 0; known && known->kind == PV_OBJECT && i < known->u.obj.len; i++)
        urn[k] = known->u.obj.members[i].key, in[k++] = known->u.obj.members[i].value;
    const pv_t *dc = g->opts->default_config;
    for (size_t i = 0; i < k; i++) {
        type[i] = urn_type(t, urn[i]);
        const char *pkg = strncmp(type[i], "pulumi:providers:", 17) == 0 ? type[i] + 17 : NULL;
        if (pkg && !hashmap_find(&g->alike, urn[i], strlen(urn[i])) &&
            config_alike(in[i], dc && dc->kind == PV_OBJECT ? pv_object_get(dc, pkg) : NULL))
            hashmap_add(&g->alike, urn[i], strlen(urn[i]), (void *)"");
    }
    for (size_t j = 1; j < k; j++)
        for (size_t i = 0; i < j && !hashmap_find(&g->alike, urn[j], strlen(urn[j])); i++) {
            if (hashmap_find(&g->alike, urn[i], strlen(urn[i])) || strcmp(urn[i], urn[j]) == 0) continue;
            if (strcmp(type[i], type[j]) != 0 || !config_alike(in[i], in[j])) continue;
            hashmap_add(&g->alike, urn[j], strlen(urn[j]), (void *)urn[i]);
            break;
        }
    arena_free(t);
}

/* The URN that stands for an explicit provider's configuration (alike_providers); NULL stays NULL. */
static const char *canon_provider(const engine_t *g, const char *provider_urn) {
    void **v = provider_urn ? hashmap_find(&g->alike, provider_urn, strlen(provider_urn)) : NULL;
    return v ? *v : provider_urn;
}

/* The key of the cloud object plan item `it` is, Read's ID being `id` (stackstate_object_key, as the stack merge keys
 * the stack's): its type, ID and provider configuration — "" for the package's default provider, else the explicit
 * provider's URN, or the first one's configured alike (alike_providers). */
static const char *item_object_key(engine_t *g, const import_plan_item_t *it, const char *id, size_t *len) {
    return stackstate_object_key(g->objects_scratch, it->type, id, canon_provider(g, it->provider_urn), len);
}

/* Whether a result is a cloud object of its own: imported, read (not a component or a provider), of a type whose ID
 * is an identity. */
static bool is_object(const import_result_t *r) {
    const import_plan_item_t *it = r->item;
    return r->status == IMPORT_OK && !it->is_component && !it->is_provider && r->id && *r->id &&
           !importid_id_is_no_identity(it->type);
}

/* The plan index of the first resource that claimed the object of key `key`, or -1 when none has: plan item i is
 * then recorded as its first. Equal hashes are confirmed on the keys themselves (the first claim's remade from its
 * plan item and Read ID); a different key of an equal hash is kept whole in objects_alike_hash. */
static long find_or_claim(engine_t *g, size_t i, const char *key, size_t len) {
    uint64_t h = engine_object_hash(key, len);
    size_t k = (size_t)h & g->objects_mask;
    while (g->objects[k].index1 && g->objects[k].hash != h)
        k = (k + 1) & g->objects_mask;
    struct object_slot *slot = &g->objects[k];
    if (!slot->index1) {
        slot->hash = h;
        slot->index1 = (uint32_t)i + 1;
        const import_result_t *r = &g->results[i];
        if (!r->item->id || strcmp(r->id, r->item->id) != 0) {
            uint32_t *index = arena_alloc(g->objects_claims, sizeof *index);
            *index = (uint32_t)i;
            hashmap_add(&g->objects_read_ids, (const char *)index, sizeof *index,
                        arena_strdup(g->objects_claims, r->id));
        }
        return -1;
    }
    /* the first claim of this hash: the same object, or (rarely) another whose key hashes alike */
    uint32_t first = slot->index1 - 1;
    const import_plan_item_t *ft = g->results[first].item;
    void **read_id = hashmap_find(&g->objects_read_ids, (const char *)&first, sizeof first);
    size_t flen;
    const char *fkey = item_object_key(g, ft, read_id ? *read_id : ft->id, &flen);
    if (flen == len && memcmp(fkey, key, len) == 0) return (long)first;
    void **other = hashmap_find(&g->objects_alike_hash, key, len);
    if (other) return (long)(uintptr_t)*other - 1;
    hashmap_add(&g->objects_alike_hash, arena_strndup(g->objects_claims, key, len), len, (void *)(uintptr_t)(i + 1));
    return -1;
}

/* Whether plan item i may be a cloud object of its own (object_key gives it a key once imported). */
static bool may_be_object(const import_plan_item_t *it) {
    return !it->is_component && !it->is_provider && !importid_id_is_no_identity(it->type);
}

/* Two resources of the run that Read as one object (two import IDs the provider resolves to one ID:
 * a name and an ARN) would be two Pulumi resources managing it, and a `pulumi destroy` of either
 * deletes it: the later of the two in plan order is refused. The resources of a type claim in plan
 * order (settle; parents first), so the one already holding the key is the earlier, whichever Read
 * answered first. */
static void claim_object(engine_t *g, size_t i) {
    import_result_t *r = &g->results[i];
    if (!is_object(r)) return;
    if (!g->objects) {
        /* sized once: at most one slot a resource that may be an object, at most three quarters full */
        size_t n = 0, cap = 16;
        for (size_t k = 0; k < g->n; k++)
            n += may_be_object(&g->plan->items[k]);
        while (cap < n + n / 3 + 1)
            cap *= 2;
        g->objects = calloc(cap, sizeof *g->objects);
        if (!g->objects) abort();
        g->objects_mask = cap - 1;
        g->objects_claims = arena_new();
    }
    if (g->objects_scratch && arena_used(g->objects_scratch) > 65536) {
        arena_free(g->objects_scratch);
        g->objects_scratch = NULL;
    }
    if (!g->objects_scratch) g->objects_scratch = arena_new();
    size_t len;
    const char *key = item_object_key(g, r->item, r->id, &len);
    long first = find_or_claim(g, i, key, len);
    if (first < 0) return;
    const import_plan_item_t *it = r->item, *kt = g->results[first].item;
    arena_t *a = result_arena(g, r);
    /* equal keys: both under the default provider, or under one explicit provider, or two configured
     * alike (two explicit ones, or one and the default provider) */
    const char *mine = stackstate_explicit_provider_name(a, it->provider_urn),
               *theirs = stackstate_explicit_provider_name(a, kt->provider_urn);
    const char *under = "";
    if (mine && theirs && strcmp(it->provider_urn, kt->provider_urn) != 0)
        under = arena_sprintf(a, " under providers '%s' and '%s', which are configured alike", mine, theirs);
    else if (mine && theirs)
        under = arena_sprintf(a, " under provider '%s'", mine);
    else if (mine || theirs)
        under = arena_sprintf(a, " under provider '%s' and the package's default provider, which are configured alike",
                              mine ? mine : theirs);
    diag_add(&r->diags, DIAG_ERROR, DIAG_INPUT, NULL,
             arena_sprintf(a, "resource '%s' of type '%s'", item_name(it), it->type),
             "resource '%s' (import ID '%s') is the same object as '%s' (import ID '%s'): the provider's Read gives "
             "both the ID '%s'%s, and two resources would manage one object (a `pulumi destroy` of either deletes "
             "it); keep one of them in the import file",
             item_name(it), it->id, item_name(kt), kt->id, r->id, under);
    r->status = IMPORT_FAILED;
    g->failed++;
}

/* Marks plan item i finished (ITEM_FINISHED), its status counted. */
static void finish_item(engine_t *g, size_t i) {
    g->where[i] = ITEM_FINISHED;
    g->finished++;
    if (g->results[i].status != IMPORT_OK) g->failed++;
}

/* Settles the finished items from i on: an item settles once the previous resource of its type
 * (chain_types) has settled (or at once with `force`) — it claims its object (claim_object), and its children become
 * ready, or are skipped when it failed (and so on down); then the next resource of its type may settle.
 * Children wait for it: had they started while an earlier resource of the type was still being read,
 * which of two resources of one object is kept would depend on which Read answered first, and the
 * later one's children would already be imported. */
static void settle(engine_t *g, size_t i, bool force) {
    size_t n_work = 0;
    g->work[n_work++] = i;
    while (n_work) {
        size_t k = g->work[--n_work];
        if (g->where[k] != ITEM_FINISHED) continue; /* settled already (entered the worklist twice) */
        int32_t prev = g->same_prev[k];
        if (prev >= 0 && g->where[prev] < ITEM_DONE && !(force && k == i)) continue;
        claim_object(g, k);
        g->where[k] = ITEM_DONE;
        bool ok = g->results[k].status == IMPORT_OK;
        for (long c = g->first_child[k]; c >= 0; c = g->next_sibling[c]) {
            if (g->where[c] != ITEM_WAITING) continue;
            if (ok) {
                g->where[c] = ITEM_READY;
                heap_push(g, (size_t)c);
            } else {
                skip_child(g, (size_t)c, k);
                finish_item(g, (size_t)c);
                g->work[n_work++] = (size_t)c; /* once as finished, once as the next of its type: 2n */
            }
        }
        int32_t next = g->same_next[k];
        if (next >= 0 && g->where[next] == ITEM_FINISHED) g->work[n_work++] = (size_t)next;
    }
}

/* Marks a plan item finished and settles what can settle. */
static void complete(engine_t *g, size_t i) {
    finish_item(g, i);
    settle(g, i, false);
    deliver(g);
}

static void item_done(void *user, bool ok) {
    engine_item_t *e = user;
    engine_t *g = e->eng;
    e->call_ok = ok;
    e->next_done = NULL;
    if (g->done_tail)
        g->done_tail->next_done = e;
    else
        g->done_head = e;
    g->done_tail = e;
}

static size_t scratch_in_flight(const engine_t *g) {
    size_t sum = 0;
    for (size_t k = 0; k < g->parallel; k++)
        if (g->pool[k].in_use) sum += arena_used(g->pool[k].scratch);
    return sum;
}

/* The resource is done (imported or failed): free its scratch, give back its slot. */
static void item_finish(engine_item_t *e) {
    engine_t *g = e->eng;
    import_result_t *r = e->r;
    if (r->diags.errors && r->status == IMPORT_OK) r->status = IMPORT_FAILED;
    /* a blocking call (GetSchema, Configure) is cancelled by the stop before the loop has seen it */
    bool stopped = g->stopping || (g->opts->stop && *g->opts->stop);
    if (stopped && r->status == IMPORT_FAILED) {
        /* Its call was cancelled by the stop (or failed meanwhile): not imported, to be retried. */
        diag_add(&r->diags, DIAG_ERROR, DIAG_GENERIC, NULL,
                 arena_sprintf(e->a, "resource '%s' of type '%s'", item_name(r->item), r->item->type),
                 "not imported: the run was stopped while it was being imported");
        r->status = IMPORT_SKIPPED;
        g->stats.stopped++;
    }
    if (!r->inputs) r->inputs = pv_object(e->a);
    if (r->status == IMPORT_OK && e->schema) {
        /* What a stack records of it (Read's inputs and state) keeps the schema's secrets secret as the
         * code does, at every depth; after the rounds, which compared them as Read gave them. */
        schema_wrap_secrets(e->a, e->schema->inputs, e->schema->n_inputs, r->read_inputs);
        schema_wrap_secrets(e->a, e->schema->outputs, e->schema->n_outputs, r->state);
    }
    if (r->status == IMPORT_OK) {
        wrap_state_secrets(e->a, r->inputs, r->state);
        wrap_state_secrets(e->a, r->read_inputs, r->state);
    }
    size_t scratch = scratch_in_flight(g);
    if (scratch > g->stats.peak_scratch_bytes) g->stats.peak_scratch_bytes = scratch;
    arena_free(e->scratch);
    size_t index = e->index;
    memset(e, 0, sizeof *e);
    g->in_flight--;
    complete(g, index);
}

/* Starts the call of the current step; its completion (item_done) only queues the slot, so the
 * state machine advances in one place. */
static void item_call(engine_item_t *e) {
    provider_t *p = e->p;
    const import_plan_item_t *it = e->r->item;
    import_result_t *r = e->r;
    engine_stats_t *st = &e->eng->stats;
    diag_list_init(&e->local);
    switch (e->step) {
    case STEP_READ: {
        /* An import knows neither inputs nor state. */
        pv_t *none = pv_object(e->scratch);
        st->reads++;
        p->ops->read_async(p, it->urn, it->id, none, none, e->a, &e->rr, &e->local, item_done, e);
        break;
    }
    case STEP_CHECK:
        st->checks++;
        p->ops->check_async(p, it->urn, r->read_inputs, r->inputs, e->seed, sizeof e->seed, e->scratch, &e->cr,
                            &e->local, item_done, e);
        break;
    case STEP_DIFF: {
        const pv_t *checked = e->cr.inputs ? e->cr.inputs : r->inputs;
        st->diffs++;
        p->ops->diff_async(p, it->urn, r->id, r->state, r->read_inputs, checked, e->scratch, &e->dr, &e->local,
                           item_done, e);
        break;
    }
    }
}

/* The schema of T (the provider's, else one given with --schema), into e->schema; false with the
 * resource failed when there is none. Looked up again after every call, not kept across calls: a
 * provider may be restarted meanwhile (the plugin host restarts a crashed plugin), which frees the
 * schema it handed out. */
static bool stop_requested(const engine_t *g);

static bool item_find_schema(engine_item_t *e) {
    engine_t *g = e->eng;
    const char *type = e->r->item->type;
    char *pkg = schema_token_package(e->scratch, type);
    provider_t *p = e->p;
    schema_package_t *sp = NULL;
    diag_list_t local;
    diag_list_init(&local);
    if (p->ops->get_schema) sp = p->ops->get_schema(p, &local);
    const schema_resource_t *res = sp ? schema_find_resource(sp, type) : NULL;
    if (!res) {
        schema_package_t *given = schema_set_get(g->schemas, pkg);
        const schema_resource_t *gres = given ? schema_find_resource(given, type) : NULL;
        if (gres) {
            sp = given;
            res = gres;
        }
    }
    if (!res) {
        item_absorb(e, &local);
        if (!sp && (g->stopping || stop_requested(g))) {
            /* GetSchema was cancelled by the stop: no schema to give (item_finish says it was stopped) */
            e->r->status = IMPORT_FAILED;
            return false;
        }
        char advice[DIAG_ADVICE_MAX];
        if (!sp && !schema_set_get(g->schemas, pkg)) {
            /* A package name that is nearly one of the schemas given is a typo. */
            size_t np = schema_set_count(g->schemas);
            const char **names = arena_alloc(e->scratch, (np + 1) * sizeof *names);
            for (size_t i = 0; i < np; i++)
                names[i] = schema_set_at(g->schemas, i)->name;
            const char *near = suggest_closest(pkg, names, np, true);
            item_fail(e, DIAG_SCHEMA,
                      near ? arena_sprintf(e->scratch,
                                           "no schema for package '%s': the provider gave none and none was given; "
                                           "did you mean '%s'?",
                                           pkg, near)
                           : arena_sprintf(e->scratch,
                                           "no schema for package '%s': the provider gave none and none was given%s",
                                           pkg, diag_advice(advice, DIAG_ADVICE_SCHEMA, pkg)));
        } else {
            const char *near = schema_suggest_resource(sp ? sp : schema_set_get(g->schemas, pkg), type);
            item_fail(e, DIAG_SCHEMA,
                      near ? arena_sprintf(e->scratch,
                                           "the schema of package '%s' has no resource type '%s'; did you mean '%s'?",
                                           pkg, type, near)
                           : arena_sprintf(e->scratch, "the schema of package '%s' has no resource type '%s'%s", pkg,
                                           type, diag_advice(advice, DIAG_ADVICE_SCHEMA_WITH_TYPE, pkg)));
        }
        e->r->status = IMPORT_FAILED;
        return false;
    }
    diag_list_free(&local);
    e->schema = res;
    return true;
}

/* The provider a resource of package pkg is read through. Under an explicit provider: that provider,
 * configured with its own inputs (those of its spec in the import file; for a provider referenced by URN
 * only, those the stack records for it, engine_options_t.known_providers, else none that cimport knows),
 * the plugin of the provider's own version, as Pulumi's engine loads an explicit provider's. */
static provider_t *resource_provider(engine_t *g, const import_plan_item_t *it, const char *pkg, arena_t *scratch,
                                     diag_list_t *diags) {
    const import_spec_t *spec = it->spec;
    const import_plan_item_t *prov = it->provider_index >= 0 ? &g->plan->items[it->provider_index] : NULL;
    const pv_t *prov_config = prov && prov->spec ? prov->spec->inputs : NULL;
    if (prov && !prov_config) prov_config = pv_object(scratch);
    const char *version = prov && prov->spec && prov->spec->version ? prov->spec->version : spec ? spec->version : NULL;
    if (!prov && it->provider_urn && g->opts->known_providers) {
        prov_config = pv_object_get(g->opts->known_providers, it->provider_urn);
        const pv_t *v = prov_config && prov_config->kind == PV_OBJECT ? pv_object_get(prov_config, "version") : NULL;
        if (v && v->kind == PV_STRING && *v->u.str.s) version = v->u.str.s;
    }
    return provider_registry_get_for(g->providers, pkg, version, spec ? spec->plugin_download_url : NULL,
                                     it->provider_urn, prov_config, diags);
}

static const char *declared_provider_refusal(engine_t *g, size_t index);

/* Provider and schema of T (ARCHITECTURE §6 step 2): an unknown type is reported as such, not as a
 * Read that found nothing. Then Read. Returns false when the resource is
 * already done (failed before any call). */
static bool item_begin(engine_item_t *e) {
    import_result_t *r = e->r;
    const import_plan_item_t *it = r->item;
    engine_t *g = e->eng;
    char *pkg = schema_token_package(e->scratch, it->type);
    if (!it->id || !*it->id) {
        /* The planner rejects these; a hand-built plan might not. */
        item_fail(e, DIAG_INPUT, arena_sprintf(e->scratch, "%s has no ID", e->desc));
        return false;
    }

    diag_list_t local;
    diag_list_init(&local);
    const char *prov_pkg = it->provider_urn ? urn_type(e->scratch, it->provider_urn) : NULL;
    if (prov_pkg && strncmp(prov_pkg, "pulumi:providers:", 17) == 0 && strcmp(prov_pkg + 17, pkg) != 0) {
        item_fail(e, DIAG_INPUT,
                  arena_sprintf(e->scratch, "its provider '%s' is a provider of package '%s', not of '%s'",
                                urn_name(e->scratch, it->provider_urn), prov_pkg + 17, pkg));
        return false;
    }
    if (it->provider_index >= 0 && declared_provider_refusal(g, (size_t)it->provider_index)) {
        /* its provider is refused (import_declared says why): not read with a configuration no code holds */
        diag_list_free(&local);
        item_fail(e, DIAG_GENERIC,
                  arena_sprintf(e->scratch, "skipped: its provider '%s' failed to import",
                                item_name(&g->plan->items[it->provider_index])));
        r->status = IMPORT_SKIPPED;
        return false;
    }
    provider_t *p = resource_provider(g, it, pkg, e->scratch, &local);
    item_absorb(e, &local);
    if (!p) {
        if (!r->diags.errors)
            item_fail(e, DIAG_PROVIDER, arena_sprintf(e->scratch, "no provider for package '%s'", pkg));
        r->status = IMPORT_FAILED;
        return false;
    }

    e->p = p;
    if (!item_find_schema(e)) return false;

    /* 1. Read. */
    e->step = STEP_READ;
    item_call(e);
    return true;
}

/* A key the code cannot hold (no input of the type's schema) is said, with the nearest input name. */
static void warn_not_input(engine_item_t *e, const char *key, const char *where) {
    const schema_resource_t *res = e->schema;
    const char **names = arena_alloc(e->scratch, (res->n_inputs + 1) * sizeof *names);
    for (size_t j = 0; j < res->n_inputs; j++)
        names[j] = res->inputs[j].name;
    const char *near = suggest_closest(key, names, res->n_inputs, true);
    diag_add(&e->r->diags, DIAG_WARNING, DIAG_INPUT, NULL, e->desc,
             "'%s' (%s) is not an input of this type, so it was not kept%s%s%s", key, where,
             near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
}

/* Read has answered: the starting inputs (step 3), then the first Check. */
static bool item_after_read(engine_item_t *e) {
    import_result_t *r = e->r;
    const import_plan_item_t *it = r->item;
    const import_spec_t *spec = it->spec;
    const schema_resource_t *res = e->schema;
    arena_t *a = e->a;
    provider_read_result_t *rr = &e->rr;
    item_absorb(e, &e->local);
    if (!e->call_ok) {
        if (!r->diags.errors) item_fail(e, DIAG_PROVIDER, "the provider's Read failed");
        r->status = IMPORT_FAILED;
        return false;
    }
    if (!rr->state) {
        item_fail(e, DIAG_PROVIDER, arena_sprintf(e->scratch, "resource '%s' does not exist", it->id));
        return false;
    }
    if (!rr->inputs) {
        item_fail(e, DIAG_PROVIDER,
                  arena_sprintf(e->scratch,
                                "provider does not support importing resources; please try updating the '%s' plugin",
                                schema_token_package(e->scratch, it->type)));
        return false;
    }
    r->id = rr->id && *rr->id ? arena_strdup(a, rr->id) : it->id;
    r->read_inputs = rr->inputs->kind == PV_OBJECT ? rr->inputs : pv_object(a);
    r->state = rr->state->kind == PV_OBJECT ? rr->state : pv_object(a);

    /* 3. Starting inputs. */
    pv_t *ip = pv_object(a);
    r->inputs = ip;
    if (spec && spec->inputs && spec->inputs->kind == PV_OBJECT)
        for (size_t i = 0; i < spec->inputs->u.obj.len; i++) {
            const pv_member_t *m = &spec->inputs->u.obj.members[i];
            /* the code holds only the schema's inputs: another key would be checked, then dropped */
            if (!schema_find_property(res->inputs, res->n_inputs, m->key)) {
                warn_not_input(e, m->key, "in inputs");
                continue;
            }
            pv_object_set(a, ip, m->key, pv_clone(a, m->value));
            prov_add(e, m->key, PROVENANCE_SPEC);
        }
    const pv_t *ia = r->read_inputs;
    if (spec)
        for (size_t i = 0; i < spec->n_properties; i++) {
            const char *k = spec->properties[i];
            const pv_t *v = pv_object_get(ia, k);
            if (v && !pv_object_get(ip, k)) {
                pv_object_set(a, ip, k, pv_clone(a, v));
                prov_add(e, k, PROVENANCE_SPEC);
            } else if (!v && !pv_object_get(ip, k)) {
                /* a property asked for by name that cannot be kept is said, not dropped silently */
                if (schema_find_property(res->inputs, res->n_inputs, k)) {
                    diag_add(&r->diags, DIAG_WARNING, DIAG_INPUT, NULL, e->desc,
                             "'%s' (asked for in properties) has no value in what Read returned, so it was not kept",
                             k);
                } else {
                    warn_not_input(e, k, "asked for in properties");
                }
            }
        }
    if (e->eng->opts->inputs == INPUTS_READ) {
        for (size_t i = 0; i < ia->u.obj.len; i++) {
            const pv_member_t *m = &ia->u.obj.members[i];
            if (pv_object_get(ip, m->key) || !schema_find_property(res->inputs, res->n_inputs, m->key)) continue;
            pv_object_set(a, ip, m->key, pv_clone(a, m->value));
            prov_add(e, m->key, PROVENANCE_READ);
        }
    } else {
        for (size_t i = 0; i < res->n_inputs; i++) {
            const schema_property_t *prop = &res->inputs[i];
            const pv_t *v = prop->required ? pv_object_get(ia, prop->name) : NULL;
            if (!v || pv_object_get(ip, prop->name)) continue;
            pv_object_set(a, ip, prop->name, pv_clone(a, v));
            prov_add(e, prop->name, PROVENANCE_REQUIRED);
        }
    }
    wrap_secret_properties(e, ip);

    /* 4–6. Check + Diff rounds until no diff, or the budget is spent. */
    seed_from_urn(it->urn, e->seed);
    int max_rounds = e->eng->opts->max_rounds;
    e->budget = 1 + (max_rounds > 0 ? max_rounds : 0);
    e->step = STEP_CHECK;
    item_call(e);
    return true;
}

/* The rounds are over: Check warnings of the last Check, residual paths. */
static void item_after_rounds(engine_item_t *e) {
    import_result_t *r = e->r;
    arena_t *a = e->a;
    const engine_options_t *opts = e->eng->opts;
    report_check_failures(e, &e->cr, r->inputs);
    r->check_rejected = e->cr.n_failures > 0;
    if (r->verified && e->cr.n_failures) {
        /* Imported as Pulumi imports it (its failures are warnings), but the code's inputs fail the
         * provider's Check, so `pulumi up` with them fails: not verified. */
        r->verified = false;
        diag_add(&r->diags, DIAG_WARNING, DIAG_CHECK, NULL, e->desc,
                 "the provider's Check rejected these inputs (above), so the resource is not verified: `pulumi up` "
                 "fails on its code until they are fixed; edit them, or import it with other properties");
        return;
    }
    if (r->verified) return;
    if (e->unnamed) {
        /* Nothing names the difference: no residual path to review or to ignore. */
        r->residual_unnamed = true;
        diag_add(&r->diags, DIAG_WARNING, DIAG_RESIDUAL, NULL, e->desc,
                 "after %d copy round%s the provider's Diff reports changes without naming the properties that "
                 "differ, so the resource is not verified: the next update would change it; compare its inputs "
                 "with the resource%s",
                 r->rounds, r->rounds == 1 ? "" : "s",
                 opts->ignore_residual ? " (--ignore-residual has no property to ignore)" : "");
        return;
    }
    size_t n_paths = e->n_paths;
    r->residual = arena_alloc(a, n_paths * sizeof(char *));
    buf_t list;
    buf_init(&list);
    for (size_t i = 0; i < n_paths; i++) {
        bool dup = false;
        for (size_t k = 0; k < r->n_residual; k++)
            dup = dup || strcmp(r->residual[k], e->paths[i].path) == 0;
        if (dup) continue;
        r->residual[r->n_residual++] = arena_strdup(a, e->paths[i].path);
        buf_printf(&list, "%s%s", list.len ? ", " : "", e->paths[i].path);
    }
    if (opts->ignore_residual) {
        r->ignore_changes = r->residual;
        r->n_ignore_changes = r->n_residual;
    }
    /* What the last Diff says forces a replacement: its `replaces` keys and *_REPLACE paths. */
    buf_t repl;
    buf_init(&repl);
    const provider_diff_result_t *d = &e->dr;
    for (size_t i = 0; i < d->n_replaces; i++)
        buf_printf(&repl, "%s%s", repl.len ? ", " : "", d->replaces[i]);
    for (size_t i = 0; !d->n_replaces && i < d->n_detailed; i++) {
        property_diff_kind_t k = d->detailed[i].kind;
        if (k == PDIFF_ADD_REPLACE || k == PDIFF_DELETE_REPLACE || k == PDIFF_UPDATE_REPLACE)
            buf_printf(&repl, "%s%s", repl.len ? ", " : "", d->detailed[i].path);
    }
    const char *replaced = repl.len ? arena_sprintf(e->scratch, "the provider says %s force%s a replacement", repl.data,
                                                    strchr(repl.data, ',') ? "" : "s")
                                    : NULL;
    const char *tail;
    if (opts->ignore_residual)
        tail = replaced ? arena_sprintf(e->scratch, "%s; they were added to ignoreChanges", replaced)
                        : "they were added to ignoreChanges";
    else
        tail = arena_sprintf(
            e->scratch, "%s%s: review these inputs, or pass --ignore-residual to add them to ignoreChanges",
            replaced ? replaced : "the next update would change them",
            replaced ? ": the next update would REPLACE the resource (delete it and create a new one)" : "");
    diag_add(&r->diags, DIAG_WARNING, DIAG_RESIDUAL, NULL, e->desc,
             "after %d copy round%s the inputs still differ from the resource at %s; %s", r->rounds,
             r->rounds == 1 ? "" : "s", list.data, tail);
    buf_free(&repl);
    buf_free(&list);
}

/* A call has completed: the next step. Returns false when the resource is done. */
static bool item_advance(engine_item_t *e) {
    import_result_t *r = e->r;
    if (e->call_ok && !item_find_schema(e)) {
        item_absorb(e, &e->local);
        return false;
    }
    switch (e->step) {
    case STEP_READ: return item_after_read(e);
    case STEP_CHECK:
        item_absorb(e, &e->local);
        if (!e->call_ok) {
            if (!r->diags.errors) item_fail(e, DIAG_PROVIDER, "the provider's Check failed");
            r->status = IMPORT_FAILED;
            return false;
        }
        e->step = STEP_DIFF;
        item_call(e);
        return true;
    case STEP_DIFF: {
        item_absorb(e, &e->local);
        if (!e->call_ok) {
            if (!r->diags.errors) item_fail(e, DIAG_PROVIDER, "the provider's Diff failed");
            r->status = IMPORT_FAILED;
            return false;
        }
        const pv_t *checked = e->cr.inputs ? e->cr.inputs : r->inputs;
        e->paths = diff_paths(e, &e->dr, checked, &e->n_paths);
        if (e->n_paths == 0 && !e->unnamed) {
            r->verified = true;
        } else if (r->rounds < e->budget && copy_round(e, e->paths, e->n_paths)) {
            /* A round that changes nothing would repeat forever: what differs then is residual. */
            r->rounds++;
            e->step = STEP_CHECK;
            item_call(e);
            return true;
        }
        item_after_rounds(e);
        return false;
    }
    }
    return false;
}

/* Components and explicit providers are created, not read: their inputs are what the spec says. */
/* The schema of a declared item's type, for the secrets among the inputs the import file gives it (an
 * explicit provider's `password`): a schema given (--schema, offline), else an explicit provider's
 * from the plugin its first resource is read through (which that resource starts anyway; the
 * registry keeps it). A component's package is not started for it. NULL when there is none. */
static const schema_resource_t *declared_schema(engine_t *g, size_t index) {
    const import_plan_item_t *it = &g->plan->items[index];
    arena_t *t = arena_new();
    const char *pkg = schema_token_package(t, it->type);
    schema_package_t *sp = pkg ? schema_set_get(g->schemas, pkg) : NULL;
    for (size_t i = 0; !sp && pkg && it->is_provider && g->providers && i < g->n; i++) {
        const import_plan_item_t *under = &g->plan->items[i];
        if (under->provider_index != (int)index || under->is_provider || under->is_component) continue;
        if (strcmp(schema_token_package(t, under->type), pkg) != 0) break; /* refused by item_begin */
        diag_list_t quiet; /* a plugin that cannot start is reported by the resources under it */
        diag_list_init(&quiet);
        provider_t *p = resource_provider(g, under, pkg, t, &quiet);
        if (p && p->ops->get_schema) sp = p->ops->get_schema(p, &quiet);
        diag_list_free(&quiet);
        break;
    }
    arena_free(t);
    return sp ? schema_find_resource(sp, it->type) : NULL;
}

/* Why the declared explicit provider at plan index `index` cannot be imported, or NULL: an input of its
 * spec that its package's schema does not list (read17 F11). The code declares a provider with its
 * schema's inputs only (a typed SDK has no other argument), so Pulumi's next preview would check the
 * provider without it — the stack recording it would see the provider's inputs change (DiffConfig; a
 * replacement of its resources where the provider says so). `version` and `pluginDownloadURL` are the
 * code's resource options, no input. Judged once (the schema of a provider's package does not change
 * within a run); NULL also where no schema is known (none given and its plugin gave none). */
static const char *declared_provider_refusal(engine_t *g, size_t index) {
    if (!g->refusals) {
        g->refusals = calloc(g->n ? g->n : 1, sizeof *g->refusals);
        if (!g->refusals) abort();
    }
    if (g->refusals[index]) return *g->refusals[index] ? g->refusals[index] : NULL;
    if (!g->refusals_arena) g->refusals_arena = arena_new();
    arena_t *a = g->refusals_arena;
    g->refusals[index] = "";
    const import_plan_item_t *it = &g->plan->items[index];
    const pv_t *inputs = it->spec ? it->spec->inputs : NULL;
    if (!it->is_provider || !inputs || inputs->kind != PV_OBJECT || !inputs->u.obj.len) return NULL;
    const schema_resource_t *res = declared_schema(g, index);
    if (!res) return NULL;
    const char *pkg = it->type + 17; /* pulumi:providers:<pkg> */
    size_t n = 0;
    for (size_t i = 0; i < inputs->u.obj.len; i++) {
        const char *key = inputs->u.obj.members[i].key;
        n += stackstate_is_provider_config_key(key) && !schema_find_property(res->inputs, res->n_inputs, key);
    }
    if (!n) return NULL;
    const char **names = arena_alloc(a, (res->n_inputs + 1) * sizeof *names);
    for (size_t j = 0; j < res->n_inputs; j++)
        names[j] = res->inputs[j].name;
    /* the keys; the nearest input of each: "did you mean 'region'?" for one, "'region' for 'regoin'" each of several */
    buf_t keys, hint;
    buf_init(&keys);
    buf_init(&hint);
    for (size_t i = 0; i < inputs->u.obj.len; i++) {
        const char *key = inputs->u.obj.members[i].key;
        if (!stackstate_is_provider_config_key(key) || schema_find_property(res->inputs, res->n_inputs, key)) continue;
        buf_printf(&keys, "%s'%s'", keys.len ? ", " : "", key);
        const char *close = suggest_closest(key, names, res->n_inputs, true);
        if (close && n == 1)
            buf_printf(&hint, "'%s'", close);
        else if (close)
            buf_printf(&hint, "%s'%s' for '%s'", hint.len ? ", " : "", close, key);
    }
    const char *them = n == 1 ? "it" : "them";
    g->refusals[index] = arena_sprintf(
        a,
        "%s (in inputs) %s of the %s provider: its schema does not list %s, so the code cannot declare the provider "
        "with %s, and a stack recording %s would see the provider's inputs change at the next `pulumi preview`: "
        "remove %s from the provider's `inputs` in the import file%s%s%s, or use a version of the %s plugin whose "
        "schema lists %s",
        keys.data, n == 1 ? "is not an input" : "are not inputs", pkg, them, them, them, them,
        hint.len ? " (did you mean " : "", hint.len ? hint.data : "", hint.len ? "?)" : "", pkg, them);
    buf_free(&keys);
    buf_free(&hint);
    return *g->refusals[index] ? g->refusals[index] : NULL;
}

static void import_declared(engine_t *g, import_result_t *r) {
    const import_spec_t *spec = r->item->spec;
    arena_t *a = result_arena(g, r);
    engine_item_t e = {.eng = g, .a = a, .r = r};
    const char *refused = r->item->is_provider ? declared_provider_refusal(g, (size_t)(r - g->results)) : NULL;
    if (refused) {
        diag_add(&r->diags, DIAG_ERROR, DIAG_INPUT, NULL,
                 arena_sprintf(a, "provider '%s' of type '%s'", item_name(r->item), r->item->type), "%s", refused);
        r->status = IMPORT_FAILED;
        r->inputs = pv_object(a);
        return;
    }
    r->inputs = pv_object(a);
    if (spec && spec->inputs && spec->inputs->kind == PV_OBJECT)
        for (size_t i = 0; i < spec->inputs->u.obj.len; i++) {
            const pv_member_t *m = &spec->inputs->u.obj.members[i];
            pv_object_set(a, r->inputs, m->key, pv_clone(a, m->value));
            prov_add(&e, m->key, PROVENANCE_SPEC);
        }
    const schema_resource_t *res = declared_schema(g, (size_t)(r - g->results));
    if (res) schema_wrap_secrets(a, res->inputs, res->n_inputs, r->inputs);
    r->read_inputs = pv_object(a);
    r->state = pv_object(a);
    r->id = r->item->id;
    r->verified = false; /* no Read, Check or Diff ran: nothing was verified */
}

/* Starts plan item i: finishes it at once when it needs no provider call. */
static void engine_start(engine_t *g, size_t i) {
    import_result_t *r = &g->results[i];
    const import_plan_item_t *it = r->item;
    g->where[i] = ITEM_RUNNING;
    if (g->opts->resume && engine_resume_apply(g->opts->resume, r, result_arena(g, r), g->schemas)) {
        g->stats.resumed++;
        complete(g, i);
        return;
    }
    if (it->is_component || it->is_provider) {
        import_declared(g, r);
        complete(g, i);
        return;
    }
    engine_item_t *e = NULL;
    for (size_t k = 0; k < g->parallel && !e; k++)
        if (!g->pool[k].in_use) e = &g->pool[k];
    if (!e) abort(); /* callers start an item only while a slot is free (in_flight < parallel) */
    *e = (engine_item_t){.eng = g,
                         .index = i,
                         .in_use = true,
                         .a = result_arena(g, r),
                         .scratch = arena_new(),
                         .r = r,
                         .name = item_name(it)};
    e->desc = arena_sprintf(e->scratch, "resource '%s' of type '%s'", e->name, it->type);
    g->in_flight++;
    if (g->in_flight > g->stats.peak_in_flight) g->stats.peak_in_flight = g->in_flight;
    if (!item_begin(e)) item_finish(e);
}

/* The next item to start, or -1. Lowest plan index first, within the window (release_results) —
 * except an ancestor the oldest unfinished item waits for, which may always start. */
static long next_startable(engine_t *g) {
    while (g->n_heap && g->where[g->heap[0]] != ITEM_READY)
        heap_pop(g); /* started out of turn */
    if (!g->n_heap) return -1;
    size_t i = g->heap[0];
    if (!g->opts->release_results || i < g->delivered + g->window || g->in_flight == 0) return (long)heap_pop(g);
    long k = (long)g->delivered;
    for (size_t steps = 0; k >= 0 && g->where[k] == ITEM_WAITING && steps < g->n; steps++)
        k = g->parent[k];
    if (k >= 0 && g->where[k] == ITEM_READY) return k; /* its heap entry goes stale */
    return -1;
}

/* Nothing runs and nothing can start, yet items remain: they wait on a cycle of parents (only a
 * hand-built plan can have one). Fail the first cycle member found from the oldest such item; its
 * descendants are then skipped as usual. */
static void break_cycle(engine_t *g) {
    size_t i = g->delivered;
    while (i < g->n && g->where[i] != ITEM_WAITING)
        i++;
    if (i == g->n) return;
    /* Floyd would do; a walk of n steps from i surely ends inside the cycle. */
    long k = (long)i;
    for (size_t steps = 0; steps < g->n; steps++)
        k = g->parent[k];
    import_result_t *r = &g->results[k];
    arena_t *a = result_arena(g, r);
    diag_add(&r->diags, DIAG_ERROR, DIAG_INPUT, NULL,
             arena_sprintf(a, "resource '%s' of type '%s'", item_name(r->item), r->item->type),
             "its parents form a cycle (its parent '%s' is also its descendant); fix the parent of one of them",
             item_name(g->results[g->parent[k]].item));
    r->status = IMPORT_FAILED;
    r->inputs = pv_object(a);
    complete(g, (size_t)k);
}

static void engine_tick(engine_t *g, bool force) {
    if (!g->opts->on_tick) return;
    int64_t now = grpc_now_ms();
    if (!force && now < g->next_tick) return;
    int tick = g->opts->tick_ms > 0 ? g->opts->tick_ms : ENGINE_TICK_MS_DEFAULT;
    g->next_tick = now + tick;
    g->opts->on_tick(g->opts->user, g->finished, g->failed, g->in_flight, g->n);
}

static bool stop_requested(const engine_t *g) {
    return g->opts->stop && *g->opts->stop;
}

/* The first time a stop is seen: cancel every call in flight (their completions come back failed). */
static void engine_stop(engine_t *g) {
    if (g->stopping) return;
    g->stopping = true;
    provider_registry_cancel_all(g->providers);
}

/* After a stop, once nothing is in flight: every resource not started ends as not imported. */
static void stop_rest(engine_t *g) {
    for (size_t i = g->delivered; i < g->n; i++) {
        if (g->where[i] != ITEM_WAITING && g->where[i] != ITEM_READY) continue;
        import_result_t *r = &g->results[i];
        arena_t *a = result_arena(g, r);
        diag_add(&r->diags, DIAG_ERROR, DIAG_GENERIC, NULL,
                 arena_sprintf(a, "resource '%s' of type '%s'", item_name(r->item), r->item->type),
                 "not imported: the run was stopped before it started");
        r->status = IMPORT_SKIPPED;
        r->inputs = pv_object(a);
        finish_item(g, i);
        g->stats.stopped++;
    }
    /* in plan order, so each one's previous resource of its type has settled before it */
    for (size_t i = g->delivered; i < g->n; i++)
        if (g->where[i] == ITEM_FINISHED) settle(g, i, false);
    deliver(g);
}

/* Nothing runs and nothing can start, yet a finished item waits for an earlier resource of its type,
 * which waits for a parent below the finished one (only a hand-built plan, whose children may come
 * before their parents, can do that): the first such item settles without waiting. False when there is
 * none. */
static bool settle_stalled(engine_t *g) {
    for (size_t i = g->delivered; i < g->n; i++)
        if (g->where[i] == ITEM_FINISHED) {
            settle(g, i, true);
            deliver(g);
            return true;
        }
    return false;
}

/* Runs the completions queued so far; returns whether there were any. */
static bool run_completions(engine_t *g) {
    engine_item_t *e = g->done_head;
    if (!e) return false;
    g->done_head = g->done_tail = NULL;
    while (e) {
        engine_item_t *next = e->next_done; /* e may be reused (and re-queued) once advanced */
        if (!item_advance(e)) item_finish(e);
        e = next;
    }
    return true;
}

/* Links each resource that may be an object to the previous and next of its type (same_prev,
 * same_next) in the order they settle in: the plan's, except that a parent comes before its children
 * (a hand-built plan may list a child first; waiting there for a resource that waits for one's own
 * child would never end). Resources in a cycle of parents take their place where the walk finds them:
 * break_cycle fails them. */
static void chain_types(engine_t *g) {
    size_t n = g->n, n_order = 0, *order = g->work, *walk = g->work + n; /* g->work is free until now */
    unsigned char *state = calloc(n + 1, 1);                             /* 0 new, 1 on the walk, 2 placed */
    if (!state) abort();
    for (size_t i = 0; i < n; i++) {
        g->same_prev[i] = g->same_next[i] = -1;
        size_t depth = 0;
        for (long j = (long)i; j >= 0 && state[j] == 0; j = g->parent[j]) {
            state[j] = 1;
            walk[depth++] = (size_t)j;
        }
        while (depth > 0) {
            size_t j = walk[--depth];
            state[j] = 2;
            order[n_order++] = j;
        }
    }
    free(state);
    hashmap_t last_of_type = {0}; /* type → its last resource so far + 1 */
    for (size_t k = 0; k < n_order; k++) {
        size_t i = order[k];
        const import_plan_item_t *it = g->results[i].item;
        if (!may_be_object(it)) continue;
        void *old = NULL;
        hashmap_set(&last_of_type, it->type, strlen(it->type), (void *)(uintptr_t)(i + 1), &old);
        if (!old) continue;
        g->same_prev[i] = (int32_t)((uintptr_t)old - 1);
        g->same_next[(uintptr_t)old - 1] = (int32_t)i;
    }
    hashmap_free(&last_of_type);
}

import_result_t *engine_run(arena_t *a, const import_plan_t *plan, provider_registry_t *providers,
                            schema_set_t *schemas, const engine_options_t *opts, diag_list_t *diags) {
    engine_options_t defaults;
    if (!opts) {
        engine_options_default(&defaults);
        opts = &defaults;
    }
    size_t n = plan ? plan->n_items : 0;
    import_result_t *results = arena_alloc(a, (n ? n : 1) * sizeof *results);
    engine_t g = {.a = a,
                  .plan = plan,
                  .providers = providers,
                  .schemas = schemas,
                  .opts = opts,
                  .diags = diags,
                  .results = results,
                  .n = n};
    g.parallel = opts->parallel > 0 ? (size_t)opts->parallel : ENGINE_PARALLEL_DEFAULT;
    g.window = 64 * g.parallel > 1024 ? 64 * g.parallel : 1024;
    g.where = calloc(n + 1, 1);
    g.parent = malloc((n + 1) * sizeof *g.parent);
    g.first_child = malloc((n + 1) * sizeof *g.first_child);
    g.next_sibling = malloc((n + 1) * sizeof *g.next_sibling);
    g.heap = malloc((n + 1) * sizeof *g.heap);
    g.same_prev = malloc((n + 1) * sizeof *g.same_prev);
    g.same_next = malloc((n + 1) * sizeof *g.same_next);
    g.work = malloc((2 * n + 1) * sizeof *g.work);
    g.pool = calloc(g.parallel, sizeof *g.pool);
    if (!g.where || !g.parent || !g.first_child || !g.next_sibling || !g.same_prev || !g.same_next || !g.heap ||
        !g.work || !g.pool)
        abort();
    for (size_t i = 0; i < n; i++) {
        results[i].item = &plan->items[i];
        results[i].status = IMPORT_OK;
        diag_list_init(&results[i].diags);
        g.parent[i] = item_parent(&g, i);
        g.first_child[i] = -1;
    }
    chain_types(&g);
    alike_providers(&g);
    /* Children lists in plan order: built back to front. */
    for (size_t i = n; i-- > 0;) {
        long p = g.parent[i];
        g.next_sibling[i] = p >= 0 ? g.first_child[p] : -1;
        if (p >= 0) g.first_child[p] = (long)i;
    }
    for (size_t i = 0; i < n; i++)
        if (g.parent[i] < 0) {
            g.where[i] = ITEM_READY;
            g.heap[g.n_heap++] = i; /* ascending: already a heap */
        }

    while (g.delivered < n) {
        long i;
        if (stop_requested(&g)) engine_stop(&g);
        while (!g.stopping && !stop_requested(&g) && g.in_flight < g.parallel && (i = next_startable(&g)) >= 0)
            engine_start(&g, (size_t)i);
        engine_tick(&g, false);
        if (run_completions(&g)) continue;
        if (g.delivered == n) break;
        if (g.in_flight == 0) {
            if (g.stopping)
                stop_rest(&g);
            else if (!settle_stalled(&g))
                break_cycle(&g);
            continue;
        }
        int timeout = -1;
        if (opts->on_tick) {
            int64_t left = g.next_tick - grpc_now_ms();
            timeout = left > 0 ? (int)left : 0;
        }
        /* A stop flag set by a signal handler between the check above and poll(2) is seen within
         * this bound even when no call completes. */
        if (opts->stop && (timeout < 0 || timeout > 200)) timeout = 200;
        if (provider_registry_poll(providers, timeout) == 0 && !g.done_head && !stop_requested(&g)) {
            /* Calls are in flight but no provider can complete them: a provider broke the async
             * contract. Fail what is left rather than wait forever; the slots are not reused. */
            diag_error(diags, DIAG_PROVIDER, "%zu provider calls never completed", g.in_flight);
            for (size_t k = 0; k < g.parallel; k++) {
                engine_item_t *e = &g.pool[k];
                if (!e->in_use) continue;
                diag_list_free(&e->local);
                item_fail(e, DIAG_PROVIDER, "the provider never answered its call");
                item_finish(e);
            }
        }
    }
    engine_tick(&g, true);
    if (opts->stats) *opts->stats = g.stats;
    free(g.where);
    free(g.parent);
    free(g.first_child);
    free(g.next_sibling);
    free(g.same_prev);
    free(g.same_next);
    free(g.heap);
    free(g.work);
    free(g.pool);
    free(g.objects);
    hashmap_free(&g.objects_alike_hash);
    hashmap_free(&g.objects_read_ids);
    hashmap_free(&g.alike);
    arena_free(g.objects_claims);
    arena_free(g.objects_scratch);
    free(g.refusals);
    arena_free(g.refusals_arena);
    return results;
}

void engine_results_free(import_result_t *results, size_t n) {
    if (!results) return;
    for (size_t i = 0; i < n; i++) {
        diag_list_free(&results[i].diags);
        arena_free(results[i].arena);
        results[i].arena = NULL;
    }
}

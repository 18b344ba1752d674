/* engine.c — the import algorithm (ARCHITECTURE §6) over any provider_ops implementation.
 *
 * Per plan item, in plan order (parents before children):
 *   Read → Iₐ, Sₐ; schema of T; Iₚ := spec inputs + spec properties + required inputs (or every
 *   Read input with --inputs read); then rounds of Check(Iₐ, Iₚ) → Iₖ and Diff(Sₐ, Iₐ, Iₖ), copying
 *   each differing path from Iₐ (input diffs) or Sₐ into Iₚ, until Diff reports nothing (verified) or
 *   the round budget is spent (residual paths).
 *
 * Memory: results, their values and diagnostics live in the caller's arena and the per-result diag
 * lists; everything a round produces (checked inputs, diff paths) goes to a scratch arena that is
 * freed when the resource is done, so memory grows with the size of the results, not with rounds. */
#include "importer/engine.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importer/offline_internal.h"

#define ENGINE_SEED_LEN 32
#define ENGINE_VALUE_MAX 200 /* longest value text quoted in a Check warning */

const char *provenance_name(input_provenance_t p) {
    switch (p) {
    case PROVENANCE_REQUIRED: return "required";
    case PROVENANCE_DIFF: return "diff";
    case PROVENANCE_READ: return "read";
    case PROVENANCE_SPEC: return "spec";
    }
    return "?";
}

const char *import_status_name(import_status_t s) {
    switch (s) {
    case IMPORT_OK: return "ok";
    case IMPORT_FAILED: return "failed";
    case IMPORT_SKIPPED: return "skipped";
    }
    return "?";
}

void engine_options_default(engine_options_t *o) {
    memset(o, 0, sizeof *o);
    o->inputs = INPUTS_MINIMAL;
    o->max_rounds = 3;
}

/* The state of one resource's import. */
typedef struct engine_item {
    arena_t *a;       /* the results' arena */
    arena_t *scratch; /* this resource's round-by-round garbage */
    import_result_t *r;
    const char *name; /* as the user named it */
    const char *desc; /* "resource 'name' of type 'T'" */
    const schema_resource_t *schema;
    size_t prov_cap;
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
    if (r->n_provenance == e->prov_cap) {
        size_t ncap = e->prov_cap ? e->prov_cap * 2 : 8;
        r->provenance = arena_grow(e->a, r->provenance, r->n_provenance * sizeof *r->provenance,
                                   ncap * sizeof *r->provenance);
        e->prov_cap = ncap;
    }
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

/* Secret schema properties are wrapped, whatever Read returned them as. */
static void wrap_secret_properties(engine_item_t *e, pv_t *inputs) {
    for (size_t i = 0; i < inputs->u.obj.len; i++) {
        pv_member_t *m = &inputs->u.obj.members[i];
        const schema_property_t *p = schema_find_property(e->schema->inputs, e->schema->n_inputs, m->key);
        if (p && p->secret && m->value->kind != PV_SECRET && m->value->kind != PV_NULL)
            m->value = pv_secret(e->a, m->value);
    }
}

/* Deterministic Check seed (providers use it for autonaming): the same URN always gets the same
 * 32 bytes, so runs are reproducible. FNV-1a per 8-byte word with a different basis each. */
static void seed_from_urn(const char *urn, unsigned char seed[ENGINE_SEED_LEN]) {
    for (int w = 0; w < ENGINE_SEED_LEN / 8; w++) {
        uint64_t h = 1469598103934665603ull ^ ((uint64_t)(w + 1) * 0x9e3779b97f4a7c15ull);
        for (const unsigned char *c = (const unsigned char *)urn; *c; c++) h = (h ^ *c) * 1099511628211ull;
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        for (int b = 0; b < 8; b++) seed[w * 8 + b] = (unsigned char)(h >> (8 * b));
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
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--; /* not inside a UTF-8 sequence */
        out = arena_sprintf(e->scratch, "%.*s…", (int)cut, s);
    } else {
        out = arena_strdup(e->scratch, s);
    }
    free(s);
    return out;
}

/* --- the rounds -------------------------------------------------------------------------------- */

typedef struct diff_path {
    const char *path;
    bool input_diff;
} diff_path_t;

/* The paths a Diff answer asks to copy: detailed paths when given, else top-level keys. */
static diff_path_t *diff_paths(engine_item_t *e, const provider_diff_result_t *d, const pv_t *checked, size_t *n) {
    provider_diff_result_t own;
    if (d->changes == DIFF_UNKNOWN && d->n_detailed == 0 && d->n_diffs == 0) {
        /* "Don't know": diff the inputs ourselves, as Pulumi's engine does. */
        offline_diff_inputs(e->schema, e->r->read_inputs, checked, e->scratch, &own);
        d = &own;
    }
    diff_path_t *out;
    if (d->n_detailed) {
        out = arena_alloc(e->scratch, d->n_detailed * sizeof *out);
        for (size_t i = 0; i < d->n_detailed; i++) out[i] = (diff_path_t){d->detailed[i].path, d->detailed[i].input_diff};
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
        /* Changes without saying where: take every input Read returned (Pulumi's old fallback). */
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
            diag_add(&e->r->diags, DIAG_WARNING, DIAG_CHECK, NULL, e->desc, "%s resource '%s' has a problem: %s",
                     type, lname, f->reason);
    }
}

static void import_custom(engine_item_t *e, provider_registry_t *providers, schema_set_t *schemas,
                          const engine_options_t *opts) {
    import_result_t *r = e->r;
    const import_plan_item_t *it = r->item;
    const import_spec_t *spec = it->spec;
    arena_t *a = e->a;
    char *pkg = schema_token_package(e->scratch, it->type);
    if (!it->id || !*it->id) {
        /* The planner rejects these; a hand-built plan might not. */
        item_fail(e, DIAG_INPUT, arena_sprintf(e->scratch, "%s has no ID", e->desc));
        return;
    }

    diag_list_t local;
    diag_list_init(&local);
    provider_t *p = provider_registry_get(providers, pkg, spec ? spec->version : NULL,
                                          spec ? spec->plugin_download_url : NULL, &local);
    item_absorb(e, &local);
    if (!p) {
        if (!r->diags.errors) item_fail(e, DIAG_PROVIDER, arena_sprintf(e->scratch, "no provider for package '%s'", pkg));
        r->status = IMPORT_FAILED;
        return;
    }

    /* The schema of T first (the provider's, else one given with --schema): an unknown type is
     * reported as such, not as a Read that found nothing (ARCHITECTURE §6 step 2). */
    schema_package_t *sp = NULL;
    diag_list_init(&local);
    if (p->ops->get_schema) sp = p->ops->get_schema(p, &local);
    const schema_resource_t *res = sp ? schema_find_resource(sp, it->type) : NULL;
    if (!res) {
        schema_package_t *given = schema_set_get(schemas, pkg);
        const schema_resource_t *gres = given ? schema_find_resource(given, it->type) : NULL;
        if (gres) {
            sp = given;
            res = gres;
        }
    }
    if (!res) {
        item_absorb(e, &local);
        if (!sp && !schema_set_get(schemas, pkg))
            item_fail(e, DIAG_SCHEMA,
                      arena_sprintf(e->scratch,
                                    "no schema for package '%s': the provider gave none and none was given; pass "
                                    "--schema FILE|DIR with the %s package schema",
                                    pkg, pkg));
        else
            item_fail(e, DIAG_SCHEMA,
                      arena_sprintf(e->scratch,
                                    "the schema of package '%s' has no resource type '%s'; check the type token, or "
                                    "pass --schema FILE|DIR with a %s schema that has it",
                                    pkg, it->type, pkg));
        return;
    }
    diag_list_free(&local);
    e->schema = res;

    /* 1. Read, with empty inputs and state (an import knows neither). */
    provider_read_result_t rr;
    diag_list_init(&local);
    bool ok = p->ops->read(p, it->urn, it->id, pv_object(e->scratch), pv_object(e->scratch), a, &rr, &local);
    item_absorb(e, &local);
    if (!ok) {
        if (!r->diags.errors) item_fail(e, DIAG_PROVIDER, "the provider's Read failed");
        r->status = IMPORT_FAILED;
        return;
    }
    if (!rr.state) {
        item_fail(e, DIAG_PROVIDER, arena_sprintf(e->scratch, "resource '%s' does not exist", it->id));
        return;
    }
    if (!rr.inputs) {
        item_fail(e, DIAG_PROVIDER,
                  arena_sprintf(e->scratch,
                                "provider does not support importing resources; please try updating the '%s' plugin",
                                pkg));
        return;
    }
    r->id = rr.id && *rr.id ? arena_strdup(a, rr.id) : it->id;
    r->read_inputs = rr.inputs->kind == PV_OBJECT ? rr.inputs : pv_object(a);
    r->state = rr.state->kind == PV_OBJECT ? rr.state : pv_object(a);


    /* 3. Starting inputs. */
    pv_t *ip = pv_object(a);
    r->inputs = ip;
    if (spec && spec->inputs && spec->inputs->kind == PV_OBJECT)
        for (size_t i = 0; i < spec->inputs->u.obj.len; i++) {
            const pv_member_t *m = &spec->inputs->u.obj.members[i];
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
            }
        }
    if (opts->inputs == INPUTS_READ) {
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
    unsigned char seed[ENGINE_SEED_LEN];
    seed_from_urn(it->urn, seed);
    int budget = 1 + (opts->max_rounds > 0 ? opts->max_rounds : 0);
    provider_check_result_t cr;
    diff_path_t *paths = NULL;
    size_t n_paths = 0;
    for (;;) {
        diag_list_init(&local);
        ok = p->ops->check(p, it->urn, ia, ip, seed, sizeof seed, e->scratch, &cr, &local);
        item_absorb(e, &local);
        if (!ok) {
            if (!r->diags.errors) item_fail(e, DIAG_PROVIDER, "the provider's Check failed");
            r->status = IMPORT_FAILED;
            return;
        }
        provider_diff_result_t dr;
        const pv_t *checked = cr.inputs ? cr.inputs : ip;
        diag_list_init(&local);
        ok = p->ops->diff(p, it->urn, r->id, r->state, ia, checked, e->scratch, &dr, &local);
        item_absorb(e, &local);
        if (!ok) {
            if (!r->diags.errors) item_fail(e, DIAG_PROVIDER, "the provider's Diff failed");
            r->status = IMPORT_FAILED;
            return;
        }
        paths = diff_paths(e, &dr, checked, &n_paths);
        if (n_paths == 0) {
            r->verified = true;
            break;
        }
        /* A round that changes nothing would repeat forever: what differs then is residual. */
        if (r->rounds >= budget || !copy_round(e, paths, n_paths)) break;
        r->rounds++;
    }
    report_check_failures(e, &cr, ip);

    if (!r->verified) {
        r->residual = arena_alloc(a, n_paths * sizeof(char *));
        buf_t list;
        buf_init(&list);
        for (size_t i = 0; i < n_paths; i++) {
            bool dup = false;
            for (size_t k = 0; k < r->n_residual; k++) dup = dup || strcmp(r->residual[k], paths[i].path) == 0;
            if (dup) continue;
            r->residual[r->n_residual++] = arena_strdup(a, paths[i].path);
            buf_printf(&list, "%s%s", list.len ? ", " : "", paths[i].path);
        }
        if (opts->ignore_residual) {
            r->ignore_changes = r->residual;
            r->n_ignore_changes = r->n_residual;
        }
        diag_add(&r->diags, DIAG_WARNING, DIAG_RESIDUAL, NULL, e->desc,
                 "after %d copy round%s the inputs still differ from the resource at %s; %s", r->rounds,
                 r->rounds == 1 ? "" : "s", list.data,
                 opts->ignore_residual ? "they were added to ignoreChanges"
                                       : "the next update would change them: review these inputs, or pass "
                                         "--ignore-residual to add them to ignoreChanges");
        buf_free(&list);
    }
}

/* Components and explicit providers are created, not read: their inputs are what the spec says. */
static void import_declared(engine_item_t *e) {
    import_result_t *r = e->r;
    const import_spec_t *spec = r->item->spec;
    r->inputs = pv_object(e->a);
    if (spec && spec->inputs && spec->inputs->kind == PV_OBJECT)
        for (size_t i = 0; i < spec->inputs->u.obj.len; i++) {
            const pv_member_t *m = &spec->inputs->u.obj.members[i];
            pv_object_set(e->a, r->inputs, m->key, pv_clone(e->a, m->value));
            prov_add(e, m->key, PROVENANCE_SPEC);
        }
    r->read_inputs = pv_object(e->a);
    r->state = pv_object(e->a);
    r->id = r->item->id;
    r->verified = true;
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
    for (size_t i = 0; i < n; i++) {
        const import_plan_item_t *it = &plan->items[i];
        import_result_t *r = &results[i];
        r->item = it;
        r->status = IMPORT_OK;
        diag_list_init(&r->diags);
        engine_item_t e = {.a = a, .scratch = arena_new(), .r = r, .name = item_name(it)};
        e.desc = arena_sprintf(a, "resource '%s' of type '%s'", e.name, it->type);
        const import_result_t *parent =
            it->parent_index >= 0 && (size_t)it->parent_index < i ? &results[it->parent_index] : NULL;
        if (parent && parent->status != IMPORT_OK) {
            diag_add(&r->diags, DIAG_ERROR, DIAG_GENERIC, NULL, e.desc, "skipped: its parent '%s' failed to import",
                     item_name(parent->item));
            r->status = IMPORT_SKIPPED;
            r->inputs = pv_object(a);
        } else if (it->is_component || it->is_provider) {
            import_declared(&e);
        } else {
            import_custom(&e, providers, schemas, opts);
            if (r->diags.errors && r->status == IMPORT_OK) r->status = IMPORT_FAILED;
            if (!r->inputs) r->inputs = pv_object(a);
        }
        arena_free(e.scratch);
        if (opts->on_result) opts->on_result(opts->user, r, i + 1, n);
    }
    return results;
}

void engine_results_free(import_result_t *results, size_t n) {
    if (!results) return;
    for (size_t i = 0; i < n; i++) diag_list_free(&results[i].diags);
}

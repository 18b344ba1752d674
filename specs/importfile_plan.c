/* importfile_plan.c — the import plan: Pulumi's `parseImportFile` (import-semantics §1.3) in C.
 *
 * Phase 0 defaults name/logicalName from each other; phase 1 checks every spec on its own; phase 2
 * resolves parents in passes (a spec waits for an in-file parent), computes URNs and the code
 * variable names; phase 3 resolves providers, versions and unknown values. Messages are Pulumi's,
 * word for word, so that scripts and users that know `pulumi import` recognise them. Beyond
 * Pulumi, a cyclic parent chain is reported instead of looping forever. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "specs/importfile.h"
#include "specs/readable_name.h"

#define PROVIDER_TYPE_PREFIX "pulumi:providers:"

/* --- string-keyed lookups over base/hashmap ------------------------------------------------------ */

static bool strmap_get(const hashmap_t *m, const char *key, void **value) {
    void **v = hashmap_find_str(m, key);
    if (v && value) *value = *v;
    return v != NULL;
}

static void strmap_set(hashmap_t *m, const char *key, void *value) {
    hashmap_set_str(m, key, value, NULL);
}

/* The maps the planner keeps while it builds one plan (keys borrowed from the file and the arena). */
typedef struct plan_maps {
    hashmap_t taken, table, urns, by_name, taken_urns, names, name_values;
} plan_maps_t;

/* --- helpers ---------------------------------------------------------------------------------- */

static bool type_is_provider(const char *type) {
    return type && strncmp(type, PROVIDER_TYPE_PREFIX, strlen(PROVIDER_TYPE_PREFIX)) == 0 &&
           type[strlen(PROVIDER_TYPE_PREFIX)] != '\0';
}

/* A variable for a spec whose name is taken: Pulumi's uniqueName (name + TitleCase(type name))
 * when free, else what else says which resource it is (its logical name, module, ID; issue 16:
 * `thingMooBaz`, not Pulumi's `thingBaz2`), numbering only when all of these are taken. */
static const char *plan_unique_name(arena_t *a, arena_t *t, hashmap_t *taken, hashmap_t *vars, const import_spec_t *s) {
    const char *cands[READABLE_MAX];
    size_t n = readable_name_candidates(t, READABLE_CAMEL, s->name, s->type, s->logical_name, s->id, cands);
    const char *candidate = NULL;
    for (size_t i = 0; i < n && !candidate; i++)
        if (!strmap_get(taken, cands[i], NULL) && !strmap_get(vars, cands[i], NULL)) candidate = cands[i];
    for (int counter = 2; !candidate || strmap_get(taken, candidate, NULL) || strmap_get(vars, candidate, NULL);
         counter++)
        candidate = arena_sprintf(t, "%s%d", n ? cands[0] : s->name, counter);
    candidate = arena_strdup(a, candidate); /* the plan keeps the one taken, not the candidates */
    /* Pulumi marks a generated name as taken *and ambiguous*. */
    strmap_set(taken, candidate, (void *)1);
    return candidate;
}

static bool all_of(const char *s, size_t n, const char *set) {
    for (size_t i = 0; i < n; i++)
        if (!strchr(set, s[i]) || !s[i]) return false;
    return true;
}

#define SEMVER_DIGITS "0123456789"
#define SEMVER_ALNUM "-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

static const char *semver_number(arena_t *a, const char *s, size_t n, const char *what, const char *What) {
    if (!all_of(s, n, SEMVER_DIGITS))
        return arena_sprintf(a, "Invalid character(s) found in %s number \"%.*s\"", what, (int)n, s);
    if (n > 1 && s[0] == '0')
        return arena_sprintf(a, "%s number must not contain leading zeroes \"%.*s\"", What, (int)n, s);
    if (n == 0) return "strconv.ParseUint: parsing \"\": invalid syntax";
    char *copy = arena_strndup(a, s, n);
    errno = 0;
    (void)strtoull(copy, NULL, 10);
    if (errno == ERANGE) return arena_sprintf(a, "strconv.ParseUint: parsing \"%s\": value out of range", copy);
    return NULL;
}

/* blang/semver's ParseTolerant (what Pulumi uses for `version`): returns NULL when the version
 * parses, else its error text. */
static const char *semver_check(arena_t *a, const char *version) {
    const char *s = version;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\v' || *s == '\f')
        s++;
    size_t n = strlen(s);
    while (n > 0 && strchr(" \t\n\r\v\f", s[n - 1]))
        n--;
    if (n > 0 && s[0] == 'v') s++, n--;
    /* Split into at most three parts; strip leading zeroes; pad short versions with ".0". */
    const char *parts[3];
    size_t lens[3], np = 0;
    const char *p = s, *end = s + n;
    while (np < 3) {
        const char *dot = np < 2 ? memchr(p, '.', (size_t)(end - p)) : NULL;
        parts[np] = p;
        lens[np] = dot ? (size_t)(dot - p) : (size_t)(end - p);
        np++;
        if (!dot) break;
        p = dot + 1;
    }
    char *norm[3];
    for (size_t i = 0; i < np; i++) {
        const char *q = parts[i];
        size_t l = lens[i];
        if (l > 1) {
            while (l > 0 && *q == '0')
                q++, l--;
            if (l == 0 || !(*q >= '0' && *q <= '9')) {
                norm[i] = arena_sprintf(a, "0%.*s", (int)l, q);
                continue;
            }
        }
        norm[i] = arena_strndup(a, q, l);
    }
    if (np < 3) {
        if (strpbrk(norm[np - 1], "+-")) return "Short version cannot contain PreRelease/Build meta data";
        while (np < 3)
            norm[np++] = "0";
    }
    const char *err = semver_number(a, norm[0], strlen(norm[0]), "major", "Major");
    if (!err) err = semver_number(a, norm[1], strlen(norm[1]), "minor", "Minor");
    if (err) return err;
    char *patch = norm[2];
    char *build = strchr(patch, '+');
    if (build) *build++ = '\0';
    char *pre = strchr(patch, '-');
    if (pre) *pre++ = '\0';
    err = semver_number(a, patch, strlen(patch), "patch", "Patch");
    if (err) return err;
    for (char *id = pre; id;) {
        char *dot = strchr(id, '.');
        if (dot) *dot = '\0';
        size_t l = strlen(id);
        if (l == 0) return "Prerelease is empty";
        if (all_of(id, l, SEMVER_DIGITS)) {
            if (l > 1 && id[0] == '0')
                return arena_sprintf(a, "Numeric PreRelease version must not contain leading zeroes \"%s\"", id);
        } else if (!all_of(id, l, SEMVER_ALNUM)) {
            return arena_sprintf(a, "Invalid character(s) found in prerelease \"%s\"", id);
        }
        id = dot ? dot + 1 : NULL;
    }
    for (char *id = build; id;) {
        char *dot = strchr(id, '.');
        if (dot) *dot = '\0';
        if (!*id) return "Build meta data is empty";
        if (!all_of(id, strlen(id), SEMVER_ALNUM))
            return arena_sprintf(a, "Invalid character(s) found in build meta data \"%s\"", id);
        id = dot ? dot + 1 : NULL;
    }
    return NULL;
}

/* --- the plan --------------------------------------------------------------------------------- */

typedef struct planner {
    arena_t *a; /* the plan's: what it keeps (items, names, URNs, variables) */
    arena_t *t; /* the planner's own: what only planning reads, freed when the plan is built */
    const import_file_t *f;
    diag_list_t *diags;
    import_spec_t *specs; /* defaulted copies */
    size_t n;
    const char **desc; /* each spec's description, made when a message needs it (spec_desc) */
    size_t errors;
} planner_t;

/* "resource 'name' of type 'T'": for messages only, so made when one is given. */
static const char *spec_desc(planner_t *p, size_t i) {
    if (!p->desc[i]) p->desc[i] = import_spec_describe(p->t, &p->specs[i]);
    return p->desc[i];
}

static void plan_error(planner_t *p, size_t spec, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void plan_error(planner_t *p, size_t spec, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vsprintf(p->t, fmt, ap);
    va_end(ap);
    diag_add(p->diags, DIAG_ERROR, DIAG_INPUT, p->f->path, spec_desc(p, spec), "%s", msg);
    p->errors++;
}

/* Walks the parent chain from spec i through unresolved in-file parents; true when it comes back
 * to i, with the chain text in *chain. */
static bool plan_cycle_from(planner_t *p, const hashmap_t *by_name, size_t i, char **chain) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, p->specs[i].name);
    size_t j = i;
    bool cyclic = false;
    for (size_t steps = 0; steps < p->n; steps++) {
        void *v;
        if (!p->specs[j].parent || !strmap_get(by_name, p->specs[j].parent, &v)) break;
        j = (size_t)(uintptr_t)v;
        buf_puts(&b, " -> ");
        buf_puts(&b, p->specs[j].name);
        if (j == i) {
            cyclic = true;
            break;
        }
    }
    *chain = buf_arena_str(&b, p->t);
    buf_free(&b);
    return cyclic;
}

static import_plan_t *plan_build(plan_maps_t *m, arena_t *a, arena_t *t, const import_file_t *f, const char *stack,
                                 const char *project, bool protect, diag_list_t *diags) {
    planner_t p = {.a = a, .t = t, .f = f, .diags = diags, .n = f->n_specs};
    size_t n = f->n_specs;
    p.specs = arena_alloc(t, (n ? n : 1) * sizeof *p.specs);
    p.desc = arena_alloc(t, (n ? n : 1) * sizeof *p.desc);

    /* Phase 0: name and logicalName default to each other. */
    for (size_t i = 0; i < n; i++) {
        p.specs[i] = f->specs[i];
        p.specs[i].index = (int)i;
        if (!p.specs[i].logical_name) p.specs[i].logical_name = p.specs[i].name;
        if (!p.specs[i].name) p.specs[i].name = p.specs[i].logical_name;
    }

    /* Phase 1: each spec on its own. Duplicate names are only an error when used as a reference,
     * so they are recorded as ambiguous (value 1) in `taken`. */
    for (size_t i = 0; i < n; i++) {
        const import_spec_t *s = &p.specs[i];
        if (!s->type) plan_error(&p, i, "%s has no type", spec_desc(&p, i));
        if (!s->name) plan_error(&p, i, "%s has no name", spec_desc(&p, i));
        if (type_is_provider(s->type)) {
            if (s->id)
                plan_error(&p, i, "%s has an ID, but is a provider, which is created rather than read",
                           spec_desc(&p, i));
            if (s->component)
                plan_error(&p, i, "%s is a provider and may not be marked as a component", spec_desc(&p, i));
            if (s->outputs && s->outputs->kind == PV_OBJECT && s->outputs->u.obj.len > 0)
                plan_error(&p, i, "%s is a provider and may not have outputs", spec_desc(&p, i));
        } else if (!s->component && !s->id) {
            plan_error(&p, i, "%s has no ID", spec_desc(&p, i));
        } else if (s->component && s->id) {
            plan_error(&p, i, "%s has an ID, but is marked as a component", spec_desc(&p, i));
        }
        if (s->remote && !s->component)
            plan_error(&p, i, "%s is marked as remote, but not as a component", spec_desc(&p, i));
        const char *key = s->name ? s->name : "";
        strmap_set(&m->taken, key, (void *)(uintptr_t)strmap_get(&m->taken, key, NULL));
    }
    if (p.errors) return NULL;

    /* Phase 2: URNs and variable names. `urns` maps a reference name to its URN: nameTable entries,
     * shadowed by spec names whose URN is NULL until resolved. */
    /* plan->names keeps insertion order; `names` maps a URN to its position there. */
    import_name_entry_t *out_names = arena_alloc(a, (f->n_names + n + 1) * sizeof *out_names);
    size_t n_out_names = 0;
    for (size_t i = 0; i < f->n_names; i++) {
        const import_name_entry_t *e = &f->name_table[i];
        const char *urn = e->urn ? e->urn : "";
        strmap_set(&m->table, e->name, (void *)urn);
        strmap_set(&m->urns, e->name, (void *)urn);
        strmap_set(&m->taken_urns, urn, NULL);
        void *pos;
        if (strmap_get(&m->names, urn, &pos)) {
            out_names[(size_t)(uintptr_t)pos].name = e->name;
        } else {
            strmap_set(&m->names, urn, (void *)(uintptr_t)n_out_names);
            out_names[n_out_names].urn = urn;
            out_names[n_out_names].name = e->name;
            n_out_names++;
        }
    }
    for (size_t i = 0; i < n_out_names; i++)
        strmap_set(&m->name_values, out_names[i].name, NULL);
    for (size_t i = 0; i < n; i++) {
        strmap_set(&m->urns, p.specs[i].name, NULL);
        strmap_set(&m->by_name, p.specs[i].name, (void *)(uintptr_t)i);
    }

    const char **spec_urn = arena_alloc(t, (n ? n : 1) * sizeof *spec_urn);
    const char **spec_var = arena_alloc(t, (n ? n : 1) * sizeof *spec_var);
    size_t *order = arena_alloc(t, (n ? n : 1) * sizeof *order);
    size_t n_resolved = 0;
    while (n_resolved < n && !p.errors) {
        size_t before = n_resolved;
        for (size_t i = 0; i < n; i++) {
            const import_spec_t *s = &p.specs[i];
            if (spec_urn[i]) continue;
            const char *parent_qt = NULL;
            if (s->parent) {
                void *amb = NULL;
                if (strmap_get(&m->taken, s->parent, &amb) && amb)
                    plan_error(&p, i, "%s has an ambiguous parent", spec_desc(&p, i));
                void *v;
                if (strmap_get(&m->table, s->parent, &v)) {
                    /* The nameTable wins here (Pulumi takes the parent *type* from it). */
                    parent_qt = urn_qualified_type(t, v);
                    if (!parent_qt) {
                        plan_error(&p, i,
                                   "the parent '%s' for %s has the invalid URN '%s' in 'nameTable'; a URN has the form "
                                   "urn:pulumi:<stack>::<project>::<type>::<name>",
                                   s->parent, spec_desc(&p, i), (const char *)v);
                    }
                } else if (!strmap_get(&m->urns, s->parent, &v)) {
                    plan_error(&p, i, "the parent '%s' for %s has no entry in 'nameTable'", s->parent,
                               spec_desc(&p, i));
                } else if (!v) {
                    continue; /* the parent is a spec not resolved yet: next pass */
                } else {
                    parent_qt = urn_qualified_type(t, v);
                }
            }
            const char *urn = urn_make(a, stack, project, parent_qt, s->type, s->logical_name);
            if (strmap_get(&m->taken_urns, urn, NULL))
                plan_error(&p, i, "%s has an ambiguous URN, set name (or logical name) to be unique", spec_desc(&p, i));
            strmap_set(&m->urns, s->name, (void *)urn);
            strmap_set(&m->taken_urns, urn, NULL);
            const char *var = strmap_get(&m->name_values, s->name, NULL)
                                  ? plan_unique_name(a, t, &m->taken, &m->name_values, s)
                                  : s->name;
            void *pos;
            if (strmap_get(&m->names, urn, &pos)) {
                out_names[(size_t)(uintptr_t)pos].name = var;
            } else {
                strmap_set(&m->names, urn, (void *)(uintptr_t)n_out_names);
                out_names[n_out_names].urn = urn;
                out_names[n_out_names].name = var;
                n_out_names++;
            }
            strmap_set(&m->name_values, var, NULL);
            spec_urn[i] = urn;
            spec_var[i] = var;
            order[n_resolved++] = i;
        }
        if (n_resolved == before && !p.errors) {
            /* No progress: every unresolved spec waits on a parent that waits on it (Pulumi loops
             * forever here). Report each cycle once, from its first member in the file. */
            bool *reported = arena_alloc(t, n * sizeof *reported);
            for (size_t i = 0; i < n; i++) {
                char *chain;
                if (spec_urn[i] || reported[i] || !plan_cycle_from(&p, &m->by_name, i, &chain)) continue;
                plan_error(&p, i, "%s has a cyclic parent chain: %s", spec_desc(&p, i), chain);
                for (size_t j = i;;) {
                    reported[j] = true;
                    void *v = NULL;
                    /* every member of a reported cycle has a parent in the file */
                    if (!strmap_get(&m->by_name, p.specs[j].parent, &v)) break;
                    j = (size_t)(uintptr_t)v;
                    if (j == i) break;
                }
            }
        }
    }
    if (p.errors) return NULL;

    /* the maps only phase 2 reads, freed before the rest is built (at 100,000 resources the planner's seven maps are
     * 25 MB, beside the stack export's index being built: the run's peak) */
    hashmap_free(&m->table);
    hashmap_free(&m->name_values);

    /* Phase 3: parents' URNs, providers, versions, unknown values. */
    int *parent_spec = arena_alloc(t, (n ? n : 1) * sizeof *parent_spec);
    int *provider_spec = arena_alloc(t, (n ? n : 1) * sizeof *provider_spec);
    const char **parent_urn = arena_alloc(t, (n ? n : 1) * sizeof *parent_urn);
    const char **provider_urn = arena_alloc(t, (n ? n : 1) * sizeof *provider_urn);
    for (size_t i = 0; i < n; i++) {
        const import_spec_t *s = &p.specs[i];
        void *v;
        parent_spec[i] = provider_spec[i] = -1;
        /* A spec name shadows an equal nameTable key here (unlike the parent type above). */
        if (s->parent && strmap_get(&m->urns, s->parent, &v)) {
            parent_urn[i] = v;
            if (strmap_get(&m->by_name, s->parent, &v)) parent_spec[i] = (int)(uintptr_t)v;
        }
        if (s->provider) {
            void *amb = NULL;
            if (strmap_get(&m->taken, s->provider, &amb) && amb) {
                plan_error(&p, i, "%s has an ambiguous provider", spec_desc(&p, i));
            } else if (!strmap_get(&m->urns, s->provider, &v)) {
                plan_error(&p, i, "the provider '%s' for %s has no entry in 'nameTable' or 'resources'", s->provider,
                           spec_desc(&p, i));
            } else if (!urn_is_valid(v) || !type_is_provider(urn_type(t, v))) {
                plan_error(&p, i, "the provider '%s' for %s is not a provider", s->provider, spec_desc(&p, i));
            } else {
                provider_urn[i] = v;
                if (strmap_get(&m->by_name, s->provider, &v)) provider_spec[i] = (int)(uintptr_t)v;
            }
        }
        if (s->version) {
            const char *err = semver_check(t, s->version);
            if (err) plan_error(&p, i, "could not parse version '%s' for %s: %s", s->version, spec_desc(&p, i), err);
        }
        if (s->inputs && pv_contains_unknown(s->inputs))
            plan_error(&p, i, "the inputs for %s contain unknown values; fill them in before importing",
                       spec_desc(&p, i));
        if (s->outputs && pv_contains_unknown(s->outputs))
            plan_error(&p, i, "the outputs for %s contain unknown values; fill them in before importing",
                       spec_desc(&p, i));
    }

    /* Items in resolution order, except that a parent always precedes its children: when a spec
     * name shadows a nameTable key, phase 2 did not wait for that parent, and the parent pointers
     * may even form a cycle phase 2 could not see. */
    int *item_of = arena_alloc(t, (n ? n : 1) * sizeof *item_of);
    int *state = arena_alloc(t, (n ? n : 1) * sizeof *state); /* 0 new, 1 on the walk, 2 placed */
    size_t *walk = arena_alloc(t, (n ? n : 1) * sizeof *walk);
    size_t *final = arena_alloc(t, (n ? n : 1) * sizeof *final);
    size_t n_final = 0;
    for (size_t k = 0; k < n && !p.errors; k++) {
        size_t depth = 0;
        for (int j = (int)order[k]; j >= 0 && state[j] != 2; j = parent_spec[j]) {
            if (state[j] == 1) {
                char *chain;
                plan_cycle_from(&p, &m->by_name, (size_t)j, &chain);
                plan_error(&p, (size_t)j, "%s has a cyclic parent chain: %s", spec_desc(&p, j), chain);
                break;
            }
            state[j] = 1;
            walk[depth++] = (size_t)j;
        }
        while (depth > 0) {
            size_t j = walk[--depth];
            state[j] = 2;
            item_of[j] = (int)n_final;
            final[n_final++] = j;
        }
    }
    if (p.errors) return NULL;

    /* phase 4 reads only taken_urns and names */
    hashmap_free(&m->taken);
    hashmap_free(&m->urns);
    hashmap_free(&m->by_name);

    /* Phase 4: each URN as Pulumi's engine makes it, from the parent the resource is recorded under.
     * Where a spec name shadows a nameTable key, phase 2 took the parent's type from the nameTable
     * (as Pulumi's import file parser does), but the parent is the spec's resource, and the engine
     * makes the URN from that: keep phase 2's and the stack records a URN no program declares (and
     * `pulumi up` creates the resource anew). Parents come first in `final`, so a changed URN reaches
     * the children; then the providers' URNs. */
    /* First every new URN (a child's from its parent's new one), then the URNs given up are freed —
     * all of them before any new one is checked, so which resource comes first cannot matter — then
     * each new URN must be no other resource's. */
    const char **new_urn = arena_alloc(t, (n ? n : 1) * sizeof *new_urn);
    for (size_t k = 0; k < n; k++) {
        size_t i = final[k];
        new_urn[i] = spec_urn[i];
        if (parent_spec[i] < 0) continue;
        parent_urn[i] = new_urn[parent_spec[i]];
        new_urn[i] =
            urn_make(a, stack, project, urn_qualified_type(t, parent_urn[i]), p.specs[i].type, p.specs[i].logical_name);
    }
    void **name_pos = arena_alloc(t, (n ? n : 1) * sizeof *name_pos); /* its names-table entry (0 is one) */
    bool *named = arena_alloc(t, (n ? n : 1) * sizeof *named);
    for (size_t i = 0; i < n; i++) {
        named[i] = false;
        if (strcmp(new_urn[i], spec_urn[i]) == 0) continue;
        hashmap_delete(&m->taken_urns, spec_urn[i], strlen(spec_urn[i]), NULL);
        named[i] = hashmap_delete(&m->names, spec_urn[i], strlen(spec_urn[i]), &name_pos[i]);
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = final[k];
        if (strcmp(new_urn[i], spec_urn[i]) == 0) continue;
        if (strmap_get(&m->taken_urns, new_urn[i], NULL)) {
            plan_error(&p, i, "%s has an ambiguous URN, set name (or logical name) to be unique", spec_desc(&p, i));
            continue;
        }
        strmap_set(&m->taken_urns, new_urn[i], NULL);
        if (named[i]) {
            out_names[(size_t)(uintptr_t)name_pos[i]].urn = new_urn[i];
            strmap_set(&m->names, new_urn[i], name_pos[i]);
        }
        spec_urn[i] = new_urn[i];
    }
    for (size_t i = 0; i < n; i++)
        if (provider_spec[i] >= 0) provider_urn[i] = spec_urn[provider_spec[i]];
    if (p.errors) return NULL;

    import_plan_t *plan = arena_alloc(a, sizeof *plan);
    plan->stack = arena_strdup(a, stack);
    plan->project = arena_strdup(a, project);
    plan->items = arena_alloc(a, (n ? n : 1) * sizeof *plan->items);
    plan->n_items = n;
    for (size_t k = 0; k < n; k++) {
        size_t i = final[k];
        const import_spec_t *s = &p.specs[i];
        import_plan_item_t *it = &plan->items[k];
        it->spec = &f->specs[i];
        it->type = s->type;
        it->logical_name = s->logical_name;
        it->variable = spec_var[i];
        it->is_provider = type_is_provider(s->type);
        it->is_component = s->component;
        it->id = it->is_provider || it->is_component ? NULL : s->id;
        it->urn = spec_urn[i];
        it->parent_urn = parent_urn[i];
        it->parent_index = parent_spec[i] >= 0 ? item_of[parent_spec[i]] : -1;
        it->provider_urn = provider_urn[i];
        it->provider_index = provider_spec[i] >= 0 ? item_of[provider_spec[i]] : -1;
        /* --protect applies to imported resources, not to providers (they are created). */
        it->protect = protect && !it->is_provider;
        it->depth = it->parent_index >= 0 ? plan->items[it->parent_index].depth + 1 : 0;
    }
    plan->names = out_names;
    plan->n_names = n_out_names;
    return plan;
}

import_plan_t *import_plan_build(arena_t *a, const import_file_t *f, const char *stack, const char *project,
                                 bool protect, diag_list_t *diags) {
    plan_maps_t m = {0};
    arena_t *t = arena_new();
    import_plan_t *plan = plan_build(&m, a, t, f, stack, project, protect, diags);
    hashmap_t *maps[] = {&m.taken, &m.table, &m.urns, &m.by_name, &m.taken_urns, &m.names, &m.name_values};
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
        hashmap_free(maps[i]);
    arena_free(t);
    return plan;
}

char *import_format_errors(arena_t *a, const diag_list_t *diags) {
    size_t count = 0;
    for (const diag_t *d = diags->head; d; d = d->next)
        count += d->severity == DIAG_ERROR;
    if (count == 0) return arena_strdup(a, "");
    buf_t b;
    buf_init(&b);
    if (count == 1)
        buf_puts(&b, "1 error occurred:\n");
    else
        buf_printf(&b, "%zu errors occurred:\n", count);
    for (const diag_t *d = diags->head; d; d = d->next)
        if (d->severity == DIAG_ERROR) buf_printf(&b, "\t* %s\n", d->message);
    buf_putc(&b, '\n');
    char *s = buf_arena_str(&b, a);
    buf_free(&b);
    return s;
}

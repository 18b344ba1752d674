/* existing_refs.c — reference candidates from the stack state and the program (existing_refs.h).
 *
 * Steps: list the program's resource definitions (splice_list_definitions) and sort those with a
 * usable variable by logical name; load the stack export; for each custom, live stack resource,
 * look its URN name up among the definitions and keep the ones whose type matches; give each its
 * ID and `name`/`arn` outputs as candidates. O((R + D) log D) for R stack resources and D
 * definitions. */
#include "session/existing_refs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "specs/deployment.h"
#include "specs/importfile.h"
#include "splice/splice.h"

static int def_cmp(const void *x, const void *y) {
    return strcmp(((const splice_definition_t *)x)->logical_name, ((const splice_definition_t *)y)->logical_name);
}

/* Adds a diagnostic's problem as one warning: the caller goes on without references. */
static void warn_no_refs(diag_list_t *diags, const diag_list_t *why, const char *what) {
    const diag_t *d = why->head;
    while (d && d->severity != DIAG_ERROR)
        d = d->next;
    diag_t *w = diag_add(diags, DIAG_WARNING, DIAG_INPUT, d ? d->file : NULL, NULL,
                         "values of imported resources are not turned into references to the resources the %s "
                         "already has: %s",
                         what, d ? d->message : "it could not be read");
    if (w && d) w->line = d->line;
}

typedef struct refs {
    arena_t *a;
    pcl_external_ref_t *v;
    size_t n, cap;
} refs_t;

static void refs_add(refs_t *r, const char *value, const char *root, const char *attr, const char *type) {
    if (!value || !*value) return;
    r->v = arena_grow_array(r->a, r->v, &r->cap, r->n + 1, sizeof *r->v);
    r->v[r->n++] = (pcl_external_ref_t){arena_strdup(r->a, value), root, attr, type};
}

size_t existing_refs_collect(arena_t *a, const char *stack_state_path, const char *program_text, size_t len,
                             lang_t lang, pcl_external_ref_t **out, diag_list_t *diags) {
    *out = NULL;
    if (!stack_state_path || !program_text) return 0;
    struct stat st;
    if (stat(stack_state_path, &st) != 0 && errno == ENOENT) return 0; /* a new stack: nothing exists yet */

    arena_t *tmp = arena_new();
    diag_list_t why;
    diag_list_init(&why);
    refs_t refs = {.a = a};

    /* 1. the program's definitions that a reference can name, by logical name */
    splice_definition_t *defs = NULL;
    size_t n_defs = 0, n_usable = 0;
    if (!splice_list_definitions(program_text, len, lang, NULL, tmp, &defs, &n_defs, &why)) {
        warn_no_refs(diags, &why, "program");
        goto done;
    }
    for (size_t i = 0; i < n_defs; i++)
        if (defs[i].variable) defs[n_usable++] = defs[i];
    if (n_usable == 0) goto done;
    qsort(defs, n_usable, sizeof *defs, def_cmp);

    /* 2. the stack's resources */
    deployment_t *dep = deployment_load(tmp, stack_state_path, &why);
    if (!dep) {
        warn_no_refs(diags, &why, "stack");
        goto done;
    }
    for (size_t i = 0; i < dep->n_resources; i++) {
        const state_resource_t *r = &dep->resources[i];
        if (!r->custom || r->del || !r->id || !*r->id || !r->type) continue;
        const char *name = urn_name(tmp, r->urn);
        if (!name) continue;
        splice_definition_t key = {.logical_name = name};
        splice_definition_t *hit = bsearch(&key, defs, n_usable, sizeof *defs, def_cmp);
        if (!hit) continue;
        /* every definition of that name (several: the values become ambiguous and stay literal) */
        while (hit > defs && strcmp(hit[-1].logical_name, name) == 0)
            hit--;
        const char *type = NULL;
        for (; hit < defs + n_usable && strcmp(hit->logical_name, name) == 0; hit++) {
            if (!splice_type_matches(lang, hit->type, r->type)) continue;
            if (!type) type = arena_strdup(a, r->type);
            const char *root = arena_strdup(a, hit->variable);
            refs_add(&refs, r->id, root, "id", type);
            static const char *const attrs[] = {"name", "arn"};
            for (size_t k = 0; k < 2; k++) {
                const pv_t *v = pv_unwrap(pv_object_get(r->outputs, attrs[k]));
                if (v && v->kind == PV_STRING) refs_add(&refs, v->u.str.s, root, attrs[k], type);
            }
        }
    }
    deployment_free(dep);

done:
    diag_list_free(&why);
    arena_free(tmp);
    *out = refs.v;
    return refs.n;
}

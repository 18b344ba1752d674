/* engine.h — the import algorithm (ARCHITECTURE §6): Read → copy required inputs → Check → Diff →
 * copy differing values → verify with a second Check + Diff (bounded further rounds), recording
 * where each input came from. */
#ifndef CIMPORT_ENGINE_H
#define CIMPORT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "importer/provider.h"
#include "specs/importfile.h"
#include "specs/schema.h"

typedef enum {
    INPUTS_MINIMAL = 0, /* smallest inputs that produce no diff (default) */
    INPUTS_READ,        /* every input Read returned, as current `pulumi import` does */
} inputs_mode_t;

typedef enum {
    PROVENANCE_REQUIRED = 0, /* a required input copied from Read's inputs */
    PROVENANCE_DIFF,         /* copied because Diff reported it differing */
    PROVENANCE_READ,         /* kept from Read (`--inputs read`) */
    PROVENANCE_SPEC,         /* given in the import file's `inputs` */
} input_provenance_t;

const char *provenance_name(input_provenance_t p);

typedef struct input_provenance_entry {
    const char *path; /* top-level key or nested path text */
    input_provenance_t provenance;
} input_provenance_entry_t;

typedef enum {
    IMPORT_OK = 0,
    IMPORT_FAILED,
    IMPORT_SKIPPED, /* e.g. its parent failed */
} import_status_t;

const char *import_status_name(import_status_t s);

typedef struct import_result {
    const import_plan_item_t *item;
    import_status_t status;
    const char *id;     /* the ID Read returned, else the import ID */
    pv_t *inputs;       /* the final inputs Iₚ (object) */
    pv_t *read_inputs;  /* Iₐ */
    pv_t *state;        /* Sₐ */
    input_provenance_entry_t *provenance;
    size_t n_provenance;
    bool verified;         /* the final Check + Diff reported no difference */
    const char **residual; /* paths still differing after the last round */
    size_t n_residual;
    const char **ignore_changes; /* with --ignore-residual: the residual paths */
    size_t n_ignore_changes;
    int rounds;        /* copy rounds run */
    diag_list_t diags; /* this resource's diagnostics (errors, Check failures, provider logs) */
} import_result_t;

typedef struct engine_options {
    inputs_mode_t inputs;
    int max_rounds;       /* further copy rounds after the first; default 3 */
    bool ignore_residual; /* put residual paths into ignoreChanges */
    /* Progress: called after each plan item is done (results in plan order; done counts from 1).
     * May be NULL. The result stays valid until engine_results_free. */
    void (*on_result)(void *user, const import_result_t *r, size_t done, size_t total);
    void *user;
} engine_options_t;

void engine_options_default(engine_options_t *o);

/* Runs every plan item; results[i] belongs to plan->items[i]. A failing resource never stops the
 * others; children of a failed parent are skipped. Components and providers are planned with no
 * Read. Returns the results array (allocated in the arena). */
import_result_t *engine_run(arena_t *a, const import_plan_t *plan, provider_registry_t *providers,
                            schema_set_t *schemas, const engine_options_t *opts, diag_list_t *diags);
void engine_results_free(import_result_t *results, size_t n);

#endif

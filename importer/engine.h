/* engine.h — the import algorithm (ARCHITECTURE §6): Read → copy required inputs → Check → Diff →
 * copy differing values → verify with a second Check + Diff (bounded further rounds), recording
 * where each input came from.
 *
 * Each resource is a small state machine; up to `parallel` of them are in flight at once across all
 * providers, driven by one event loop (provider_registry_poll) over the providers' asynchronous
 * operations (the gRPC plugin host: HTTP/2 streams on one connection). Parents
 * finish before their children start; results are the same whatever the parallelism. */
#ifndef CIMPORT_ENGINE_H
#define CIMPORT_ENGINE_H

#include <signal.h>
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
    /* Pointers and sizes first, the small fields together at the end: 152 bytes, not 176 (one a resource, held
     * for the whole run). */
    const import_plan_item_t *item;
    const char *id;    /* the ID Read returned, else the import ID */
    pv_t *inputs;      /* the final inputs Iₚ (object) */
    pv_t *read_inputs; /* Iₐ */
    pv_t *state;       /* Sₐ */
    input_provenance_entry_t *provenance;
    size_t n_provenance;
    const char **residual; /* paths still differing after the last round */
    size_t n_residual;
    const char **ignore_changes; /* with --ignore-residual: the residual paths */
    size_t n_ignore_changes;
    diag_list_t diags; /* this resource's diagnostics (errors, Check failures, provider logs) */
    arena_t *arena;    /* with release_results: this result's own arena (its values and strings) */
    import_status_t status;
    int rounds;            /* copy rounds run */
    bool verified;         /* the final Check + Diff reported no difference */
    bool verified_offline; /* resumed: that Check + Diff was cimport's own over the schema (an --offline-state
                            * run), not the provider's */
    bool residual_unnamed; /* the last Diff reported changes without naming them (nothing to copy or ignore) */
    bool check_rejected;   /* the last Check failed the final inputs: `pulumi up` with them fails */
    bool resumed;          /* carried over from a previous run's results (engine_options_t.resume): no calls */
} import_result_t;

/* A previous run's `--json` results document (README "--json results"): the resources it records as
 * "imported" are carried over instead of imported again. */
typedef struct engine_resume engine_resume_t;

/* Reads the document. NULL with a diagnostic naming the file when it cannot be read or is not a
 * results document. Resources are matched to plan items by URN and type. A resource whose recorded
 * inputs hold a redacted secret ("[secret]": written without --show-secrets) cannot be carried over
 * faithfully and is imported again; one INFO diagnostic says how many. */
engine_resume_t *engine_resume_load(const char *path, diag_list_t *diags);
engine_resume_t *engine_resume_parse(const char *text, size_t len, const char *path, diag_list_t *diags);
/* How many resources will be carried over (recorded as imported, usable). */
size_t engine_resume_count(const engine_resume_t *r);
void engine_resume_free(engine_resume_t *r);
/* Whether the document records imported resources and none of them is of stack `stack` of project
 * `project` (their URNs name another): nothing can be carried over. *doc_stack and *doc_project then
 * name the first record's (NULL when its URN does not say). */
bool engine_resume_other_stack(const engine_resume_t *r, const char *stack, const char *project, arena_t *a,
                               const char **doc_stack, const char **doc_project);

/* Figures of one run (benchmarks, memory tests). */
typedef struct engine_stats {
    size_t reads, checks, diffs; /* provider calls made */
    size_t resumed;              /* results carried over from engine_options_t.resume */
    size_t peak_in_flight;       /* most resources in flight at once */
    size_t peak_held;            /* most finished results held back for an earlier one (plan order) */
    size_t peak_scratch_bytes;   /* most scratch-arena bytes of the resources in flight, together */
    size_t stopped;              /* resources not imported because of a stop (engine_options_t.stop) */
} engine_stats_t;

#define ENGINE_PARALLEL_DEFAULT 16 /* as `pulumi import` */
#define ENGINE_TICK_MS_DEFAULT 250

typedef struct engine_options {
    inputs_mode_t inputs;
    int max_rounds;       /* further copy rounds after the first; default 3 */
    bool ignore_residual; /* put residual paths into ignoreChanges */
    /* Progress: called after each plan item is done (results in plan order; done counts from 1).
     * May be NULL. The result stays valid until engine_results_free (see release_results). */
    void (*on_result)(void *user, const import_result_t *r, size_t done, size_t total);
    void *user;
    /* Resources in flight at once, across all providers; <= 0: ENGINE_PARALLEL_DEFAULT. */
    int parallel;
    /* Streaming: each result gets its own arena, and once on_result has returned its values,
     * strings and diagnostics are freed (pointers cleared, counts zeroed; item, status, verified,
     * rounds and resumed stay). Copy in on_result whatever you keep. Finished results wait for
     * earlier ones (plan order); to keep memory flat no resource more than
     * max(64 × parallel, 1024) places past the oldest unfinished one is started, except the
     * ancestors that one waits for. */
    bool release_results;
    /* With release_results: called with the result once its values are freed (right after on_result),
     * so that what the caller copied in on_result goes back into the array engine_run returns, not
     * into a copy of that array beside it (at 1,000,000 resources each is 0.16 GB). The caller may set
     * id, inputs, state, ignore_changes, residual (with their counts) and diags, in memory of its own
     * (engine_results_free frees the diags). May be NULL. */
    void (*on_released)(void *user, import_result_t *r);
    /* Called about every tick_ms while the engine runs, and once at the end: resources finished
     * (done, of which failed or skipped: failed), in flight, and the plan's size. May be NULL. */
    void (*on_tick)(void *user, size_t done, size_t failed, size_t in_flight, size_t total);
    int tick_ms;                   /* <= 0: ENGINE_TICK_MS_DEFAULT */
    const engine_resume_t *resume; /* may be NULL */
    engine_stats_t *stats;         /* filled when not NULL */
    /* A stop request (a signal handler's flag, an LSP cancel): once *stop is non-zero no resource is
     * started any more, the provider calls in flight are cancelled, and every resource not finished
     * ends IMPORT_SKIPPED ("not imported: the run was stopped"); finished results stay as they are.
     * May be NULL. */
    const volatile sig_atomic_t *stop;
    /* Explicit providers the import file names by URN only (nameTable), as a stack records them:
     * {provider URN: its recorded inputs}; a resource under one is read through that provider configured
     * with them (the plugin of their `version`). NULL: none known (such a resource is refused). */
    const pv_t *known_providers;
    /* What each package's default provider is configured with ({package: {key: value}}: the stack's
     * configuration and --config, as the plugins get it): an explicit provider configured as its
     * package's default one reaches the same account, so an object under either is one object. NULL:
     * none given (a default provider with no configuration). */
    const pv_t *default_config;
} engine_options_t;

void engine_options_default(engine_options_t *o);

/* Runs every plan item; results[i] belongs to plan->items[i]. A failing resource never stops the
 * others; children of a failed parent are skipped (a parent listed after its child is still waited
 * for; a cycle of parents fails one of its members). Components and providers are planned with no
 * Read. Returns the results array (allocated in the arena). */
import_result_t *engine_run(arena_t *a, const import_plan_t *plan, provider_registry_t *providers,
                            schema_set_t *schemas, const engine_options_t *opts, diag_list_t *diags);
void engine_results_free(import_result_t *results, size_t n);

#endif

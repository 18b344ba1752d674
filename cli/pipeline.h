/* pipeline.h — the import pipeline as one call: import file → plan → providers → engine → PCL →
 * language code. It prints nothing and writes no file; the import command (import_cmd.c) and the
 * language server (lsp.c) decide what to show and where to write. */
#ifndef CIMPORT_PIPELINE_H
#define CIMPORT_PIPELINE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "cli/cli.h"
#include "importer/engine.h"
#include "importer/provider.h"
#include "pcl/pcl.h"
#include "migrate/convert.h"
#include "specs/deployment.h"
#include "specs/importfile.h"
#include "specs/schema.h"

typedef struct pipeline {
    arena_t *arena;
    diag_list_t diags; /* errors and warnings not tied to one resource */
    lang_t lang;
    const char *stack;
    const char *project;
    const import_plan_t *plan;
    import_result_t *results; /* plan->n_items entries, NULL if the engine did not run */
    size_t n_ok, n_verified; /* n_verified: verified by the provider's own Check and Diff */
    bool offline;             /* --offline-state: cimport's own Check/Diff over the schema, no provider */
    size_t n_consistent;      /* offline: final Check + Diff found no difference (never "verified") */
    engine_stats_t stats; /* provider calls made, resources carried over from --resume */
    pcl_gen_result_t gen; /* gen.program NULL when no code was generated */
    char *code;           /* malloc'd; NULL when none */
    /* --offline-state with a Terraform state: what its conversion left out (unmapped, no ID) */
    convert_report_t offline_report;
    bool offline_is_terraform;
    /* owned resources */
    schema_set_t *schemas;
    deployment_t *state;
    void *offline_source;
    provider_registry_t *registry;
    void *plugin_host;
    void *resume;
} pipeline_t;

/* Engine hooks passed through (all may be NULL). */
typedef struct pipeline_hooks {
    void (*on_result)(void *user, const import_result_t *r, size_t done, size_t total);
    void (*on_tick)(void *user, size_t done, size_t failed, size_t in_flight, size_t total);
    void *user;
    const volatile sig_atomic_t *stop; /* engine_options_t.stop: SIGINT/SIGTERM, an LSP cancel; may be NULL */
    /* Keep only what code output needs of each result (ID, final inputs, `name`/`arn` outputs,
     * ignoreChanges, diagnostics): Read's inputs, the rest of the state and the provenance are freed
     * as results arrive. For callers that write no stack; ignored with --json, --stack-state,
     * --resume and --report, which need whole results. */
    bool lean_results;
} pipeline_hooks_t;

/* Runs everything. `file` may be NULL: then o->spec_path or the inline TYPE NAME ID is used.
 * Returns false when the input was bad (nothing ran; diagnostics say why). True means the engine
 * ran: look at n_ok / results for how it went. */
/* The stack and project a run works on: --stack (default "dev"), --project, else Pulumi.yaml's name in
 * the working directory, else "project". Strings live in the arena or in o. */
void pipeline_names(arena_t *a, const cli_options_t *o, const char **stack, const char **project);
bool pipeline_run(pipeline_t *p, const cli_options_t *o, const import_file_t *file, const pipeline_hooks_t *hooks);
void pipeline_free(pipeline_t *p);

/* The `--json` results document (shape documented in README.md). */
cJSON *pipeline_results_json(const pipeline_t *p, const cli_options_t *o);
/* What the final Check + Diff established, for summary lines: "3 verified" with a provider;
 * offline "3 consistent with the schema (offline), none verified by a provider". Arena text. */
const char *pipeline_checked_text(const pipeline_t *p);

#endif

/* target.h — where an import goes, decided the way `pulumi import` decides it, and what the user
 * is told at the end.
 *
 * - A Pulumi project with a selected stack on a backend cimport can write (DIY file or PostgreSQL,
 *   Pulumi Cloud): the resources are imported into that stack (the session's into_stack: it opens
 *   the stack under its lock, merges and writes it), after a preview and a confirmation on a
 *   terminal (--yes / --skip-preview skip it; non-interactive runs without --yes refuse before
 *   anything runs).
 * - Otherwise the code carries each resource's `import` option, so `pulumi up` adopts the
 *   resources instead of creating them; `--code-only` (by name only) leaves it out.
 * - `--stack-state FILE` merges into a stack export; a missing FILE is refused unless
 *   --new-stack-state, and the document's project and stack must be the ones of this run.
 * Every run ends with the next step to take. */
#ifndef CIMPORT_TARGET_H
#define CIMPORT_TARGET_H

#include <stdbool.h>

#include "cli/cli.h"
#include "session/session.h"
#include "stacks/backend.h"
#include "stacks/workspace.h"

typedef enum {
    TARGET_IMPORT_OPTION = 0, /* code with the `import` option; no stack written */
    TARGET_CODE_ONLY,         /* --code-only */
    TARGET_STACK_STATE,       /* --stack-state FILE */
    TARGET_STACK,             /* the selected stack on its backend */
    TARGET_PREVIEW,           /* --preview-only */
} target_mode_t;

typedef struct import_target {
    target_mode_t mode;
    arena_t *a;
    workspace_t ws; /* TARGET_STACK: the session's into_stack */
    diag_list_t diags;
    const char *why_not_stack;      /* why the selected stack is not written (for the summary); may be NULL */
    const import_file_t *file;      /* --from: the converted import file */
    struct tf_state *from_state;    /* the Terraform state it was converted from (freed at the end) */
    size_t n_not_converted;         /* --from terraform: managed resources left out (unmapped, no ID), warned about */
    convert_entry_t *not_converted; /* ... each (in `a`), for the results document */
    size_t cap_not_converted;
    bool nothing_converted;    /* --from: every resource left out, none converted: nothing to import */
    const char *diff_of_stack; /* --diff where a run without it imports into this stack: its code, no `import` */
    bool interactive;
    bool declined;      /* the user answered no */
    bool preview_stack; /* TARGET_PREVIEW of a run that would import into the selected stack: the stack is read
                         * (not locked) and merged as that run would, never written */
} import_target_t;

/* Before the session: --cwd, the project/stack/backend, the mode; fills o->stack, o->project,
 * o->language, o->config_file and o->import_option from them. False with *exit_code when the run
 * must stop (diagnostics printed). */
bool target_prepare(cli_options_t *o, import_target_t *t, int *exit_code);

/* TARGET_STACK, the session initialised: the stack opened under its lock (session_stack_open) and
 * where the import goes said; a preview of such a run (preview_stack): read without the lock, and a
 * lock another process holds told. False when it cannot be (diagnostics printed). */
bool target_open_stack(const cli_options_t *o, import_target_t *t, import_session_t *p);

/* After the session's run, TARGET_STACK (and preview_stack: no confirmation) only: the merge and its
 * check (session_stack_merge), the preview and the confirmation — nothing is written yet. False when the stack must not
 * be written (declined, refused, or failed: see t->declined and p->diags); true when session_commit may write it
 * (p->stack_merged NULL: every resource is in the stack already). */
bool target_plan(const cli_options_t *o, import_target_t *t, import_session_t *p);

/* Per-resource failures, grouped by cause (several resources with one cause: one line). */
void target_print_failures(const import_session_t *p);

/* The summary line with counts, and the next step. */
void target_print_summary(const cli_options_t *o, const import_target_t *t, const import_session_t *p, bool wrote_ok);

void target_finish(import_target_t *t);

#endif

/* backend.h — the stack of a Pulumi backend, read and written the way the Pulumi CLI does, so that
 * cimport can import into the selected stack itself (as `pulumi import` does).
 *
 * DIY backends (pulumi/pulumi pkg/backend/diy) keep blobs under keys relative to the backend root:
 *   .pulumi/meta.yaml                                     `version: 1` (project-scoped layout)
 *   .pulumi/stacks/<project>/<stack>.json[.gz]            the checkpoint {version, checkpoint: {stack, latest}}
 *   .pulumi/stacks/<project>/<stack>.json[.gz].bak        the previous checkpoint (written before each save)
 *   .pulumi/stacks/<project>/<stack>.json[.gz].<unix ns>  a retained copy (PULUMI_[DIY_BACKEND_]RETAIN_CHECKPOINTS)
 *   .pulumi/backups/<project>/<stack>/<stack>.<unix ns>.json[.gz]   a copy taken before an update
 *   .pulumi/history/<project>/<stack>/<stack>-<unix ns>.history.json    the update record
 *   .pulumi/history/<project>/<stack>/<stack>-<unix ns>.checkpoint.json the checkpoint after it
 *   .pulumi/locks/organization/<project>/<stack>/<uuid>.json          {pid, username, hostname, timestamp}
 * The file backend (`file://DIR`, `file://~`) stores them as files under DIR; the PostgreSQL backend
 * (`postgres://…?table=T`, default table `pulumi_state`) as rows (key TEXT, data, updated_at) of
 * one table.
 *
 * Pulumi Cloud (`https://…`) is reached through its REST API: GET …/export, then POST …/import of
 * the merged deployment, with `Authorization: token <access token>`.
 *
 * A stack is opened (lock taken, document read), merged by the caller, written (backup, checkpoint,
 * history), then the write is made final or taken back, and the stack is closed (lock released). The
 * lock is held from open to close, so a write can be taken back by restoring what open read: the
 * run's files and the stack commit together (session/stack.c makes the stack a participant of the
 * run's transaction, specs/txn.h). Nothing is written before stack_store_write. */
#ifndef CIMPORT_BACKEND_H
#define CIMPORT_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "stacks/workspace.h"

typedef struct stack_store stack_store_t;

typedef struct stack_store_options {
    int lock_timeout_ms; /* how long to wait for another holder of the stack's lock (default 10 s) */
    int retries;         /* Cloud: tries for a 5xx answer or a lost connection (default 3) */
    int retry_delay_ms;  /* Cloud: first delay between tries, doubled each time (default 500) */
    int import_wait_ms;  /* Cloud: how long to wait for an import's update to finish (default 2 minutes;
                            CIMPORT_CLOUD_IMPORT_WAIT=SECONDS sets another) */
    /* Read the stack without taking its lock (a preview: the checks of an open, nothing written); a
     * lock another process holds is not waited for but told (stack_store_held_by), and
     * stack_store_write refuses. */
    bool peek;
    /* Called once while waiting for a lock held by someone else (may be NULL). */
    void (*on_wait)(void *user, const char *holder);
    void *user;
} stack_store_options_t;

void stack_store_options_default(stack_store_options_t *o);

/* Whether cimport can write stacks of this backend. */
bool backend_writable(backend_kind_t k);

/* Opens the stack w->stack of project `project` on w's backend. For DIY backends: checks the layout
 * (meta.yaml), takes the stack's lock (waiting up to lock_timeout_ms for another holder, then
 * refusing with who holds it), and reads the checkpoint. Cloud: exports the deployment. NULL with
 * diagnostics when the stack does not exist or cannot be read (nothing is left locked). */
stack_store_t *stack_store_open(const workspace_t *w, const char *project, const stack_store_options_t *o,
                                diag_list_t *diags);

/* Opened with `peek`: the locks other processes hold on the stack now, as "\n  KEY: created by
 * USER@HOST (pid N) at TIME" lines; NULL when none (or not a DIY backend). */
const char *stack_store_held_by(const stack_store_t *s);

/* The current document (a DIY checkpoint or a Cloud export), and where it is. */
const char *stack_store_text(const stack_store_t *s, size_t *len);
const char *stack_store_describe(const stack_store_t *s); /* "organization/proj/dev at file:///…" */
const char *stack_store_location(const stack_store_t *s); /* the checkpoint file / key / URL */
const char *stack_store_backup(const stack_store_t *s);   /* after a write: the backup taken, or NULL */
/* After a write that returned false: the write the backend accepted without cimport seeing its
 * outcome (Pulumi Cloud: an import update still running when cimport stopped waiting), as "update
 * ID (URL)"; NULL when nothing of the write was accepted (the stack is as it was). */
const char *stack_store_unconfirmed(const stack_store_t *s);

/* Writes the merged document so that it can still be taken back: DIY — backup copy, `.bak`, the
 * checkpoint (atomically), history, on PostgreSQL inside one SQL transaction that stays open;
 * Cloud — the import call. n_imported is recorded in the history entry. False: nothing of the
 * write is left (what was written is taken back). After a true, call stack_store_commit or
 * stack_store_undo. */
bool stack_store_write(stack_store_t *s, const char *text, size_t len, size_t n_imported, diag_list_t *diags);
/* Makes the write final (PostgreSQL: COMMIT). False: the write did not land (nothing of it left). */
bool stack_store_commit(stack_store_t *s, diag_list_t *diags);
/* Takes the write back: the stack as open read it.
 * - file: the checkpoint and its `.bak` restored byte for byte, the backup and history entries of
 *   the write removed (an undone write is no update: it leaves no trace but the directories
 *   .pulumi/backups/… and .pulumi/history/… that Pulumi's first update creates anyway);
 * - PostgreSQL: ROLLBACK of the write's transaction (nothing of it was ever visible);
 * - Pulumi Cloud: the deployment exported at open is imported again — the API has no other way
 *   back, so the stack's update history shows both imports, and the undo itself can fail (then the
 *   diagnostic says so and how to restore the stack by hand).
 * False with a diagnostic when it could not. */
bool stack_store_undo(stack_store_t *s, diag_list_t *diags);

/* Releases the lock (DIY) and frees everything; a PostgreSQL write neither committed nor undone is
 * rolled back. NULL is fine. */
void stack_store_close(stack_store_t *s, diag_list_t *diags);

#endif

/* txn.h — one run's file outputs committed together: all of them or none.
 *
 * A run stages its outputs (the code file, a spliced program, the stack state, the stack config, a
 * secrets file) and commits them at the end:
 *
 *   txn_t *t = txn_new(&opts);
 *   txn_write(t, "main.ts", code, len, 0644, false);          // a whole file
 *   txn_update(t, "stack.json", 0600, merge_fn, &ctx);         // read → change → write, under a lock
 *   if (!txn_commit(t, &diags)) ...                            // nothing changed; diags say why
 *   txn_free(t);
 *
 * Commit:
 *  1. locks every file (`<path>.lock`, filelock.h) in path order, waiting up to lock_timeout_ms;
 *  2. reads each file to update and calls its update function with the current text — under the
 *     lock, so another cimport run's changes are included rather than overwritten;
 *  3. writes every new text to a temporary file beside its target and syncs it;
 *  4. checks that each updated file is still the one read in step 2 (same inode, size, mtime, ctime):
 *     a writer that does not take the lock (an editor) makes the commit fail with nothing changed;
 *  5. prepares the participant, if any (txn_set_participant: something that is not a file, such as
 *     the selected stack on its backend): it makes its change in a way that can still be undone;
 *  6. renames the temporary files over their targets, keeping a hard link to each old file, then
 *     writes devices and FIFOs, then finishes the participant; on any failure puts every old file
 *     back (new files are removed) and undoes the participant;
 *  7. syncs the directories, removes the old-file links and releases the locks.
 * Temporary files that a writer killed mid-commit left beside a file are removed by the next commit
 * that holds its lock (only a lock holder creates them).
 * A target that is a device or a FIFO (`-o /dev/null`) is written into after every rename.
 * A failure in steps 1–5 changes nothing; temporary files are always removed. The participant is
 * prepared only once every file has been written and synced, so what is left to fail after it (a
 * rename in a directory already written to, a device) is rare, and is undone. A crash (SIGKILL) at
 * any moment leaves each file whole, old or new: never torn or half-merged; a crash between steps 5
 * and 7 can leave the participant's change made with the files old (no process is left to undo it).
 *
 * Update functions run once per commit and must not write files themselves. */
#ifndef CIMPORT_TXN_H
#define CIMPORT_TXN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/diag.h"

typedef struct txn txn_t;

/* Something that commits with the files but is not one (the selected stack on its backend). */
typedef struct txn_participant {
    /* Makes the change so that it can still be taken back. False: the commit fails with no file
     * changed, and the participant must have left itself as it was (undo is not called). */
    bool (*prepare)(void *user, diag_list_t *diags);
    /* Makes the prepared change final once every file is in place (NULL: nothing to do). False: the
     * files are put back; the participant must have taken its change back itself. */
    bool (*finish)(void *user, diag_list_t *diags);
    /* Takes the prepared change back after a later failure. False: it could not (say so in diags). */
    bool (*undo)(void *user, diag_list_t *diags);
    void *user;
} txn_participant_t;

typedef struct txn_options {
    int lock_timeout_ms; /* wait for another writer's lock at most this long; negative: forever */
    /* Fault injection for tests: called for each file once its temporary file is complete and the
     * participant is prepared, before any rename. Returning false stops the commit there (every file
     * is left as it was, the participant undone). */
    bool (*before_rename)(void *user, const char *path, const char *tmp_path);
    void *user;
} txn_options_t;

void txn_options_default(txn_options_t *o); /* 30 s lock timeout, no hook */

/* Computes a file's new text from its current one (old is NULL when the file does not exist; it is
 * NUL-terminated otherwise). Sets *out to a malloc'd text (taken over by the transaction), or leaves
 * it NULL to leave the file as it is. Returning false fails the commit; put the reason in diags. */
typedef bool (*txn_update_fn)(void *user, const char *path, const char *old, size_t old_len, char **out,
                              size_t *out_len, diag_list_t *diags);

txn_t *txn_new(const txn_options_t *o);
/* Frees the transaction; if it was not committed nothing is written. */
void txn_free(txn_t *t);

/* Stages a whole file (data is copied). mode applies to a new file; an existing one keeps its mode
 * unless force_mode. */
void txn_write(txn_t *t, const char *path, const char *data, size_t len, mode_t mode, bool force_mode);
/* The same without the copy, for big texts: data must stay valid and unchanged until txn_free. */
void txn_write_borrowed(txn_t *t, const char *path, const char *data, size_t len, mode_t mode, bool force_mode);
/* Stages a whole file whose text is in a spool (base/spool.h), borrowed until txn_free: at commit the
 * spool's own file takes the temporary name (spool_link; copied where the file system cannot, and when
 * the spool was placed already), never held in memory. A spool that failed to take all of its text
 * fails the commit (nothing is written). */
struct spool;
void txn_write_spool(txn_t *t, const char *path, struct spool *spool, mode_t mode, bool force_mode);
/* Stages an in-place update of path (mode as above, for a new file). */
void txn_update(txn_t *t, const char *path, mode_t mode, bool force_mode, txn_update_fn fn, void *user);
/* Adds the participant (one per transaction; p is copied). */
void txn_set_participant(txn_t *t, const txn_participant_t *p);
/* The number of files staged. */
size_t txn_count(const txn_t *t);

/* Commits every staged file or none (see above). Each file's outcome: txn_changed. */
bool txn_commit(txn_t *t, diag_list_t *diags);
/* What a commit would do, writing nothing (--diff): each file is read (no lock taken) and its update
 * function run on it, or its whole new text compared with it. False with the update function's
 * diagnostics when a commit would refuse (the participant is not asked). Else *changed (malloc'd,
 * NULL when none; the caller frees it, not the paths, which stay the transaction's) lists the files a
 * commit would create or change. */
bool txn_dry_run(txn_t *t, const char ***changed, size_t *n_changed, diag_list_t *diags);
/* After a successful commit: whether the i-th staged file was created or replaced (false when its
 * update function left it as it was). */
bool txn_changed(const txn_t *t, size_t i);

/* Whether the file at path is, unchanged, a version an in-place update of a transaction wrote (each
 * such file carries its identity — inode, size, mtime — in an extended attribute). False when another
 * program has rewritten it since, or the file system keeps no such attributes. Lets a caller tell
 * another cimport run's change (merge with it) from an editor's (refuse). */
bool txn_last_written_by_txn(const char *path);

#endif

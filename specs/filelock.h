/* filelock.h — an advisory lock on a file that cimport updates in place (stack state, program,
 * stack config), so two runs never lose each other's changes.
 *
 * The lock is an exclusive flock(2) on a lock file beside the target, `<path>.lock`, created on
 * demand and removed on release. Removal is safe against a waiter that opened the old lock file:
 * after taking the flock, the holder checks that the lock file it locked is still the one at that
 * path, and starts over if not. Other cimport runs (and anything else that takes the same lock) wait;
 * editors do not take it, which is why writers also compare the file before replacing it (txn.h). */
#ifndef CIMPORT_FILELOCK_H
#define CIMPORT_FILELOCK_H

#include <stdbool.h>

#include "base/diag.h"

typedef struct file_lock file_lock_t;

/* Locks `<path>.lock`, waiting up to timeout_ms for another holder (negative: wait forever, 0: try
 * once). NULL with an error naming path when the lock file cannot be created or the wait timed out. */
file_lock_t *file_lock_acquire(const char *path, int timeout_ms, diag_list_t *diags);
/* Removes the lock file and releases the lock. NULL is fine. */
void file_lock_release(file_lock_t *l);
/* The lock file's path (`<path>.lock`). */
const char *file_lock_path(const file_lock_t *l);

#endif

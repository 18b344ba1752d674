/* fileio.h — reading whole files and writing them atomically (temporary file + rename). */
#ifndef CIMPORT_FILEIO_H
#define CIMPORT_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/arena.h"
#include "base/diag.h"

/* Every file cimport reads is capped: FILE_READ_LIMIT_DEFAULT unless raised (the CLI's
 * --max-input-size). A regular file is measured before it is read; a pipe, FIFO, device or
 * /dev/stdin is counted while reading, and one that sends nothing for the idle timeout
 * (FILE_READ_IDLE_MS_DEFAULT; --input-timeout) is given up on. Both are errors naming the file. */
#define FILE_READ_LIMIT_DEFAULT ((size_t)512 << 20)
#define FILE_READ_IDLE_MS_DEFAULT 60000
void file_read_set_limit(size_t bytes);
size_t file_read_limit(void);
void file_read_set_idle_timeout(int ms);

/* For a regular file read some other way (a memory map): false with the same error as
 * file_read_all when `size` bytes exceed the cap. */
bool file_size_within_cap(const char *path, unsigned long long size, diag_list_t *diags);

/* Reads a whole file into the arena (NUL-terminated). Error diagnostic names the file. */
char *file_read_all(arena_t *a, const char *path, size_t *len, diag_list_t *diags);
/* The file a write to path replaces (malloc'd): path itself, or, when path is a symbolic link, the
 * file it names at the end of its chain (which need not exist yet), so that the write goes into that
 * file and the link stays a link. A chain longer than 40 links is left as it is (the write fails). */
char *file_link_target(const char *path);
/* For a file that will hold secret values: true when path is no symbolic link, or its chain ends at
 * an existing file inside the link's own directory (or below it). Otherwise false with an error naming
 * the link, where it leads and the fix: a link a project ships (say to ~/.profile, or to nothing yet)
 * must not carry plaintext secrets out of the project. */
bool file_link_stays_inside(const char *path, diag_list_t *diags);

/* Writes through `<path>.cimport-tmp-XXXXXX` in the same directory, fsyncs, renames over path
 * (a symbolic link: over the file it names, file_link_target). mode is used for a new file (an existing file keeps its
 * mode unless force_mode); the directory is synced after the rename. On failure the old file is untouched and the
 * temporary file removed. A target that is not a regular file (a device, a FIFO) is written in place instead. */
bool file_write_atomic(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
                       diag_list_t *diags);

/* The same, with a hook called after the temporary file is complete and synced, just before the
 * rename (fault injection for tests). A hook returning false stops there as a crash would: the
 * temporary file is removed, *stopped (if given) is set, and no diagnostic is added (the caller
 * words it). */
bool file_write_atomic_hooked(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
                              bool (*before_rename)(void *user, const char *tmp_path), void *user, bool *stopped,
                              diag_list_t *diags);

/* A file the user made read-only: no write bit at all. By mode bits, not access(2): root may write
 * anything, but such a file is meant to stay as it is, so cimport refuses to replace it. */
static inline bool file_mode_read_only(mode_t mode) {
    return (mode & 0222) == 0;
}
/* The same of the file at path; false when there is none. */
bool file_is_read_only(const char *path);
/* The error for such a file, with what else to do (diag_advice: a diff instead). */
void file_read_only_error(diag_list_t *diags, const char *path);

/* The account's home directory as Go's os/user.Current gives it (and so Pulumi, for ~/.pulumi and
 * `file://~`): the password database's entry for this user, else $HOME; NULL with neither. Not $HOME
 * first: where the two differ (a container job's HOME, `sudo` keeping HOME) `pulumi` uses the entry's.
 * Allocated in a. */
char *file_user_home(arena_t *a);

/* The directory of a file:// URL (a DIY backend's) as Pulumi's DIY backend takes it (pkg/backend/diy
 * massageBlobPath): its query (`?no_tmp_dir=true`, the blob store's options) left out, a leading `~`
 * the account's home (file_user_home); not resolved further (a relative one is the working
 * directory's). Allocated in a. */
const char *file_url_dir(arena_t *a, const char *url);

/* cimport's cache directory: $XDG_CACHE_HOME/cimport, or ~/.cache/cimport when XDG_CACHE_HOME is unset,
 * empty or relative (the XDG spec: a relative one is ignored — it would put the cache into whatever
 * directory cimport runs in); NULL without HOME either. Allocated in a. */
char *file_cache_root(arena_t *a);

/* Temporary files this process is writing beside the user's (`*.cimport-tmp-*`): a process killed by
 * a signal removes them first (file_temps_remove, from its handler) instead of leaving them behind.
 * A tracked path must stay valid until it is untracked; at most FILE_TEMPS_MAX are tracked at once
 * (more are not, and the next run under the file's lock removes them). */
#define FILE_TEMPS_MAX 64
void file_temp_track(const char *path);
void file_temp_untrack(const char *path);
/* Unlinks every tracked file. Async-signal-safe: for a fatal signal's handler. */
void file_temps_remove(void);

/* Read-only maps of input files (a schema, a stack export). A file cut short while mapped — `cp`, `>`,
 * `pulumi package get-schema X >` truncate before they write — makes a read of a page past its new
 * end fault with SIGBUS; the front end's handler asks file_map_owner which file that was, to name it
 * instead of dying without a word. file_map maps len (> 0) bytes of fd read-only and private, or
 * returns NULL; at most FILE_MAPS_MAX maps are named at once (more are mapped, not named). */
#define FILE_MAPS_MAX 64
/* An fd of path (st filled) when it is a regular file, else -1 — and then nothing was opened: a FIFO
 * is left for file_read_all, whose wait --input-timeout bounds (an open would wait for a writer). */
int file_open_regular(const char *path, struct stat *st);
void *file_map(int fd, size_t len, const char *path);
/* The first bytes (up to n) of path into buf, when it is a regular file: their count, else 0 (not a
 * regular file, unreadable, empty: the whole read that follows says so). Lets a reader judge a
 * file by its start before it reads the whole of it. */
size_t file_read_head(const char *path, char *buf, size_t n);
void file_unmap(void *map, size_t len);
/* The path of the tracked map holding addr, or NULL. Async-signal-safe: for SIGBUS's handler. */
const char *file_map_owner(const void *addr);

#endif

/* txn.c — commits a run's file outputs together (see txn.h). */
#include "specs/txn.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/spool.h"
#include "base/vec.h"
#include "specs/filelock.h"

typedef struct entry {
    char *path;
    mode_t mode;
    bool force_mode;
    txn_update_fn fn; /* NULL: a whole-file write of data */
    void *user;
    const char *data; /* the new text: owned, or borrowed from the caller (txn_write_borrowed) */
    char *owned;      /* what the transaction frees: data, unless borrowed */
    size_t len;
    spool_t *spool; /* the new text is this spool's (txn_write_spool), not data */
    /* commit state */
    file_lock_t *lock;
    bool existed;
    struct stat st; /* of the file as read (existed) */
    char *tmp;      /* temporary file with the new text */
    char *backup;   /* hard link to the old file while renaming */
    bool renamed;
    bool changed;
    bool in_place; /* a device or FIFO given as a whole-file target: written into, last */
} entry_t;

struct txn {
    txn_options_t opts;
    entry_t *e;
    size_t n, cap;
    bool committed;
    txn_participant_t part;
    bool has_part;
};

void txn_options_default(txn_options_t *o) {
    memset(o, 0, sizeof *o);
    o->lock_timeout_ms = 30000;
}

txn_t *txn_new(const txn_options_t *o) {
    txn_t *t = calloc(1, sizeof *t);
    if (!t) abort();
    if (o)
        t->opts = *o;
    else
        txn_options_default(&t->opts);
    return t;
}

static entry_t *add(txn_t *t, const char *path, mode_t mode, bool force_mode) {
    t->e = vec_grow(t->e, &t->cap, t->n + 1, sizeof *t->e);
    entry_t *e = &t->e[t->n++];
    memset(e, 0, sizeof *e);
    e->path = file_link_target(path); /* a link stays a link: the file it names is written */
    e->mode = mode;
    e->force_mode = force_mode;
    return e;
}

void txn_write(txn_t *t, const char *path, const char *data, size_t len, mode_t mode, bool force_mode) {
    entry_t *e = add(t, path, mode, force_mode);
    e->owned = malloc(len + 1);
    if (!e->owned) abort();
    memcpy(e->owned, data, len);
    e->owned[len] = '\0';
    e->data = e->owned;
    e->len = len;
}

void txn_write_borrowed(txn_t *t, const char *path, const char *data, size_t len, mode_t mode, bool force_mode) {
    entry_t *e = add(t, path, mode, force_mode);
    e->data = data;
    e->len = len;
}

void txn_write_spool(txn_t *t, const char *path, spool_t *spool, mode_t mode, bool force_mode) {
    entry_t *e = add(t, path, mode, force_mode);
    e->spool = spool;
    e->len = spool_size(spool);
}

void txn_update(txn_t *t, const char *path, mode_t mode, bool force_mode, txn_update_fn fn, void *user) {
    entry_t *e = add(t, path, mode, force_mode);
    e->fn = fn;
    e->user = user;
}

void txn_set_participant(txn_t *t, const txn_participant_t *p) {
    t->part = *p;
    t->has_part = true;
}

size_t txn_count(const txn_t *t) {
    return t->n;
}

bool txn_changed(const txn_t *t, size_t i) {
    return i < t->n && t->committed && t->e[i].changed;
}

static void entry_cleanup(entry_t *e) {
    if (e->tmp) unlink(e->tmp);
    if (e->backup) unlink(e->backup);
    file_temp_untrack(e->tmp);
    file_temp_untrack(e->backup);
    free(e->tmp);
    free(e->backup);
    e->tmp = e->backup = NULL;
    file_lock_release(e->lock);
    e->lock = NULL;
}

void txn_free(txn_t *t) {
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        entry_cleanup(&t->e[i]);
        free(t->e[i].path);
        free(t->e[i].owned);
    }
    free(t->e);
    free(t);
}

static bool same_file(const struct stat *a, const struct stat *b) {
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
           a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/* The identity of a file version: inode, size and modification time. */
static void identity(const struct stat *st, char *buf, size_t n) {
    snprintf(buf, n, "%llu:%lld:%lld.%09ld", (unsigned long long)st->st_ino, (long long)st->st_size,
             (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

#define WRITTEN_XATTR "user.cimport.written"

/* Marks a temporary file as written by a transaction: its own identity in an extended attribute,
 * which the rename keeps. An editor that rewrites the file changes the identity. Best effort: a
 * file system without user attributes simply has no mark. */
static void mark_written(const char *tmp) {
    struct stat st;
    char id[96];
    if (stat(tmp, &st) != 0) return;
    identity(&st, id, sizeof id);
    setxattr(tmp, WRITTEN_XATTR, id, strlen(id), 0);
}

bool txn_last_written_by_txn(const char *path) {
    struct stat st;
    char want[96], have[96];
    if (stat(path, &st) != 0) return false;
    identity(&st, want, sizeof want);
    ssize_t n = getxattr(path, WRITTEN_XATTR, have, sizeof have - 1);
    if (n < 0) return false;
    have[n] = '\0';
    return strcmp(have, want) == 0;
}

/* Writes e->data to a new temporary file beside e->path (synced, with the final mode). */
static bool write_tmp(entry_t *e, diag_list_t *diags) {
    size_t n = strlen(e->path) + 32;
    e->tmp = malloc(n);
    if (!e->tmp) abort();
    snprintf(e->tmp, n, "%s.cimport-tmp-XXXXXX", e->path);
    file_temp_track(e->tmp); /* before it exists, as file_write_atomic does */
    int fd = mkstemp(e->tmp);
    if (fd < 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL, "cannot create a temporary file beside it: %s",
                 strerror(errno));
        file_temp_untrack(e->tmp);
        free(e->tmp);
        e->tmp = NULL;
        return false;
    }
    mode_t m = e->existed && !e->force_mode ? (e->st.st_mode & 07777) : e->mode;
    /* a spool's own file takes the temporary name (its text not written twice); else it is copied */
    if (e->spool && !spool_error(e->spool)) {
        close(fd);
        unlink(e->tmp);
        if (spool_link(e->spool, e->tmp, m)) {
            if (e->fn) mark_written(e->tmp);
            return true;
        }
        fd = open(e->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL, "cannot create a temporary file beside it: %s",
                     strerror(errno));
            return false;
        }
    }
    fchmod(fd, m);
    /* a spooled text that could not be written whole is not placed: nothing of it is */
    int spooled = e->spool ? spool_error(e->spool) : 0;
    if (!spooled && e->spool && !spool_copy_to(e->spool, fd)) spooled = errno;
    if (spooled) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL, "cannot write: %s", strerror(spooled));
        close(fd);
        return false;
    }
    size_t off = 0;
    while (!e->spool && off < e->len) {
        ssize_t w = write(fd, e->data + off, e->len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL, "cannot write: %s", strerror(errno));
            close(fd);
            return false;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL, "cannot flush the file to disk: %s", strerror(errno));
        close(fd);
        return false;
    }
    if (close(fd) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL, "cannot close the file: %s", strerror(errno));
        return false;
    }
    if (e->fn) mark_written(e->tmp);
    return true;
}

/* A spooled text into a device or FIFO given as the target (`-o /dev/null`), as file_write_atomic
 * writes into one. */
static bool write_spool_in_place(entry_t *e, diag_list_t *diags) {
    int fd = open(e->path, O_WRONLY | O_CLOEXEC);
    int err = fd < 0 ? errno : spool_error(e->spool);
    if (!err && !spool_copy_to(e->spool, fd)) err = errno;
    if (fd >= 0 && close(fd) != 0 && !err) err = errno;
    if (err) diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL, "cannot write: %s", strerror(err));
    return !err;
}

static void sync_dir_of(const char *path) {
    char *dir = strdup(path);
    if (!dir) abort();
    int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
}

/* Temporary and old-file links of path that a writer killed while holding its lock left behind: only
 * a lock holder creates them, and we hold the lock now, so no live writer owns them. */
static void remove_stale(const char *path) {
    size_t n = strlen(path) + 32;
    char *pat = malloc(n);
    if (!pat) abort();
    snprintf(pat, n, "%s.cimport-tmp-??????*", path);
    glob_t g;
    if (glob(pat, GLOB_NOSORT | GLOB_NOESCAPE, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            unlink(g.gl_pathv[i]);
        globfree(&g);
    }
    free(pat);
}

static int cmp_path(const void *a, const void *b) {
    const entry_t *x = *(entry_t *const *)a, *y = *(entry_t *const *)b;
    return strcmp(x->path, y->path);
}

/* Takes the prepared participant back (a failure after step 5). */
static void undo_part(txn_t *t, bool *prepared, diag_list_t *diags) {
    if (!*prepared) return;
    *prepared = false;
    if (t->part.undo) t->part.undo(t->part.user, diags);
}

/* Puts the old files back after a failed rename (newest first). */
static void rollback(txn_t *t) {
    for (size_t k = t->n; k-- > 0;) {
        entry_t *e = &t->e[k];
        if (!e->renamed) continue;
        if (e->backup) {
            if (rename(e->backup, e->path) == 0) {
                file_temp_untrack(e->backup);
                free(e->backup);
                e->backup = NULL;
            }
        } else {
            unlink(e->path);
        }
        e->renamed = false;
    }
}

bool txn_dry_run(txn_t *t, const char ***changed, size_t *n_changed, diag_list_t *diags) {
    *changed = NULL;
    *n_changed = 0;
    const char **list = malloc((t->n ? t->n : 1) * sizeof *list);
    if (!list) abort();
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
        entry_t *e = &t->e[i];
        struct stat st;
        bool existed = stat(e->path, &st) == 0;
        if (existed && !S_ISREG(st.st_mode)) continue; /* `-o /dev/null`; a directory is refused by the commit */
        arena_t *a = arena_new();
        char *old = NULL;
        size_t old_len = 0;
        if (existed && !e->spool && !(old = file_read_all(a, e->path, &old_len, diags))) {
            arena_free(a);
            free(list);
            return false;
        }
        bool differs;
        if (e->spool) {
            int fd = existed ? open(e->path, O_RDONLY | O_CLOEXEC) : -1;
            differs = fd < 0 || !spool_equals_fd(e->spool, fd, (size_t)st.st_size);
            if (fd >= 0) close(fd);
        } else if (!e->fn) {
            differs = !existed || old_len != e->len || memcmp(old, e->data, old_len) != 0;
        } else {
            char *out = NULL;
            size_t out_len = 0;
            if (!e->fn(e->user, e->path, old, old_len, &out, &out_len, diags)) {
                free(out);
                arena_free(a);
                free(list);
                return false;
            }
            differs = out != NULL && (!existed || out_len != old_len || memcmp(out, old, old_len) != 0);
            free(out);
        }
        arena_free(a);
        if (differs) list[n++] = e->path;
    }
    if (n) {
        *changed = list;
        *n_changed = n;
    } else {
        free(list);
    }
    return true;
}

bool txn_commit(txn_t *t, diag_list_t *diags) {
    bool ok = false, prepared = false;
    entry_t **order = malloc((t->n ? t->n : 1) * sizeof *order);
    if (!order) abort();
    for (size_t i = 0; i < t->n; i++)
        order[i] = &t->e[i];
    qsort(order, t->n, sizeof *order, cmp_path);

    /* 1. Locks, in path order so that two runs never wait for each other in a cycle. */
    for (size_t i = 0; i < t->n; i++) {
        if (i > 0 && strcmp(order[i]->path, order[i - 1]->path) == 0) {
            diag_add(diags, DIAG_ERROR, DIAG_USAGE, order[i]->path, NULL,
                     "two outputs of this run name the same file: give each output its own file");
            goto done;
        }
        struct stat st;
        if (!order[i]->fn && stat(order[i]->path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
            order[i]->in_place = true; /* `-o /dev/null`: nothing to lock or replace */
            continue;
        }
        order[i]->lock = file_lock_acquire(order[i]->path, t->opts.lock_timeout_ms, diags);
        if (!order[i]->lock) goto done;
        remove_stale(order[i]->path);
    }
    /* 2. Read and change, under the locks. */
    for (size_t i = 0; i < t->n; i++) {
        entry_t *e = &t->e[i];
        if (e->in_place) continue;
        if (stat(e->path, &e->st) == 0) {
            if (!S_ISREG(e->st.st_mode)) {
                diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL,
                         S_ISDIR(e->st.st_mode) ? "is a directory: name a file to write"
                                                : "is not a regular file: name a file to write");
                goto done;
            }
            e->existed = true;
        } else if (errno != ENOENT) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL, "cannot look at the file: %s", strerror(errno));
            goto done;
        }
        if (!e->fn) {
            e->changed = true;
            continue;
        }
        arena_t *a = arena_new();
        char *old = NULL;
        size_t old_len = 0;
        if (e->existed) {
            old = file_read_all(a, e->path, &old_len, diags);
            if (!old) {
                arena_free(a);
                goto done;
            }
        }
        char *out = NULL;
        size_t out_len = 0;
        bool fine = e->fn(e->user, e->path, old, old_len, &out, &out_len, diags);
        arena_free(a);
        if (!fine) {
            free(out);
            goto done;
        }
        free(e->owned);
        e->data = e->owned = out;
        e->len = out_len;
        e->changed = out != NULL;
    }
    /* 3. Temporary files. */
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].changed && !t->e[i].in_place && !write_tmp(&t->e[i], diags)) goto done;
    /* 4. Nobody changed a file behind the lock. */
    for (size_t i = 0; i < t->n; i++) {
        entry_t *e = &t->e[i];
        if (!e->changed || !e->fn) continue;
        struct stat now;
        bool exists_now = stat(e->path, &now) == 0;
        if (exists_now != e->existed || (exists_now && !same_file(&now, &e->st))) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL,
                     "the file changed while cimport was writing it (another program edited it); nothing was "
                     "written: run again to work on the current file");
            goto done;
        }
    }
    /* 5. The participant, once every file is written and synced: what can fail after it is little. */
    if (t->has_part) {
        if (!t->part.prepare(t->part.user, diags)) goto done;
        prepared = true;
    }
    for (size_t i = 0; i < t->n; i++) {
        entry_t *e = &t->e[i];
        if (e->changed && !e->in_place && t->opts.before_rename &&
            !t->opts.before_rename(t->opts.user, e->path, e->tmp)) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL,
                     "stopped before replacing the file; nothing was written");
            goto done;
        }
    }
    /* 6. Renames, keeping the old files until every rename has worked. */
    for (size_t i = 0; i < t->n; i++) {
        entry_t *e = &t->e[i];
        if (!e->changed || e->in_place) continue;
        if (e->existed) {
            size_t n = strlen(e->tmp) + 8;
            e->backup = malloc(n);
            if (!e->backup) abort();
            snprintf(e->backup, n, "%s.old", e->tmp);
            if (link(e->path, e->backup) != 0) {
                diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL,
                         "cannot keep the old file while replacing it: %s; nothing was written", strerror(errno));
                free(e->backup);
                e->backup = NULL;
                rollback(t);
                goto done;
            }
            file_temp_track(e->backup);
        }
        if (rename(e->tmp, e->path) != 0) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, e->path, NULL, "cannot replace the file: %s; nothing was written",
                     strerror(errno));
            rollback(t);
            goto done;
        }
        file_temp_untrack(e->tmp);
        free(e->tmp);
        e->tmp = NULL;
        e->renamed = true;
    }
    /* Devices and FIFOs after the files: what goes into them cannot be taken back. */
    for (size_t i = 0; i < t->n; i++) {
        entry_t *e = &t->e[i];
        if (!e->in_place) continue;
        e->changed = true;
        if (e->spool ? !write_spool_in_place(e, diags)
                     : !file_write_atomic(e->path, e->data, e->len, e->mode, false, diags)) {
            rollback(t);
            goto done;
        }
    }
    /* The participant made final; if it cannot be, it has taken its change back: so do the files. */
    if (prepared && t->part.finish && !t->part.finish(t->part.user, diags)) {
        prepared = false;
        rollback(t);
        goto done;
    }
    prepared = false;
    /* 7. Durable, then tidy. */
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].changed && !t->e[i].in_place) sync_dir_of(t->e[i].path);
    ok = true;
    t->committed = true;
done:
    undo_part(t, &prepared, diags); /* a failure after step 5 (the files are back already) */
    for (size_t i = 0; i < t->n; i++)
        entry_cleanup(&t->e[i]);
    free(order);
    return ok;
}

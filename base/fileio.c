/* fileio.c — whole-file reads and atomic writes (see fileio.h). */
#include "base/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <poll.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Process-wide settings made once by the CLI before any reading starts. */
static size_t read_limit = FILE_READ_LIMIT_DEFAULT;
static int read_idle_ms = FILE_READ_IDLE_MS_DEFAULT;

void file_read_set_limit(size_t bytes) {
    read_limit = bytes ? bytes : FILE_READ_LIMIT_DEFAULT;
}
size_t file_read_limit(void) {
    return read_limit;
}
void file_read_set_idle_timeout(int ms) {
    read_idle_ms = ms > 0 ? ms : FILE_READ_IDLE_MS_DEFAULT;
}

static const char *volatile temps[FILE_TEMPS_MAX];

void file_temp_track(const char *path) {
    for (size_t i = 0; i < FILE_TEMPS_MAX; i++)
        if (!temps[i]) {
            temps[i] = path;
            return;
        }
}

void file_temp_untrack(const char *path) {
    for (size_t i = 0; i < FILE_TEMPS_MAX; i++)
        if (temps[i] == path) temps[i] = NULL;
}

void file_temps_remove(void) {
    for (size_t i = 0; i < FILE_TEMPS_MAX; i++) {
        const char *p = temps[i];
        if (p) unlink(p);
    }
}

/* The maps file_map made: a slot is claimed with a compare-and-swap on its address (maps are made on
 * the state's reader thread and the main one at once), its path copied before the address is
 * published, so the handler never reads a half-made slot. */
typedef struct {
    _Atomic(uintptr_t) addr;
    size_t len;
    char *path;
} file_map_slot_t;
static file_map_slot_t maps[FILE_MAPS_MAX];

int file_open_regular(const char *path, struct stat *st) {
    if (stat(path, st) != 0 || !S_ISREG(st->st_mode)) return -1;
    /* O_NONBLOCK: replaced by a FIFO since the stat, the open still does not wait */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return -1;
    }
    return fd;
}

size_t file_read_head(const char *path, char *buf, size_t n) {
    struct stat st;
    int fd = file_open_regular(path, &st);
    if (fd < 0) return 0;
    ssize_t got;
    do
        got = pread(fd, buf, n, 0);
    while (got < 0 && errno == EINTR);
    close(fd);
    return got > 0 ? (size_t)got : 0;
}

void *file_map(int fd, size_t len, const char *path) {
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) return NULL;
    for (size_t i = 0; i < FILE_MAPS_MAX; i++) {
        uintptr_t none = 0;
        /* 1 reserves the slot: file_map_owner skips it until the address replaces it */
        if (!atomic_compare_exchange_strong(&maps[i].addr, &none, (uintptr_t)1)) continue;
        maps[i].len = len;
        maps[i].path = strdup(path);
        if (!maps[i].path) abort();
        atomic_store(&maps[i].addr, (uintptr_t)map);
        break;
    }
    return map;
}

void file_unmap(void *map, size_t len) {
    if (!map) return;
    for (size_t i = 0; i < FILE_MAPS_MAX; i++)
        if (atomic_load(&maps[i].addr) == (uintptr_t)map) {
            char *path = maps[i].path;
            atomic_store(&maps[i].addr, (uintptr_t)1);
            maps[i].path = NULL;
            free(path);
            atomic_store(&maps[i].addr, (uintptr_t)0);
            break;
        }
    munmap(map, len);
}

const char *file_map_owner(const void *addr) {
    uintptr_t a = (uintptr_t)addr;
    for (size_t i = 0; i < FILE_MAPS_MAX; i++) {
        uintptr_t at = atomic_load(&maps[i].addr);
        if (at > 1 && a >= at && a - at < maps[i].len) return maps[i].path;
    }
    return NULL;
}

static void too_large(diag_list_t *diags, const char *path, const char *how) {
    char advice[DIAG_ADVICE_MAX];
    diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
             "%s larger than the input size cap of %zu bytes; if the file is meant to be this large, raise the cap%s",
             how, read_limit, diag_advice(advice, DIAG_ADVICE_INPUT_SIZE, NULL));
}

bool file_size_within_cap(const char *path, unsigned long long size, diag_list_t *diags) {
    if (size <= (unsigned long long)read_limit) return true;
    too_large(diags, path, "the file is");
    return false;
}

char *file_read_all(arena_t *a, const char *path, size_t *len, diag_list_t *diags) {
    /* O_NONBLOCK: opening a FIFO no writer has opened yet must not block; reads then poll. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot read the file: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot read the file: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "is a directory, not a file");
        return NULL;
    }
    bool regular = S_ISREG(st.st_mode);
    if (regular && (uintmax_t)st.st_size > (uintmax_t)read_limit) {
        close(fd);
        too_large(diags, path, "the file is");
        return NULL;
    }
    if (regular) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    buf_t b;
    buf_init(&b);
    char chunk[65536];
    const char *err = NULL;
    bool capped = false;
    if (regular) { /* read straight into a buffer of the file's size, the NUL and one byte to see the
                    * end in (grown if the file grows meanwhile) */
        b.cap = (size_t)st.st_size + 2;
        b.data = malloc(b.cap);
        if (!b.data) abort();
    }
    for (;;) {
        if (regular) {
            if (b.cap - 1 - b.len == 0) {
                b.cap *= 2;
                char *grown = realloc(b.data, b.cap);
                if (!grown) abort();
                b.data = grown;
            }
            ssize_t n = read(fd, b.data + b.len, b.cap - 1 - b.len);
            if (n > 0) {
                b.len += (size_t)n;
                if (b.len > read_limit) {
                    capped = true;
                    break;
                }
                continue;
            }
            if (n == 0) break;
            if (errno == EINTR) continue;
            err = strerror(errno);
            break;
        }
        /* Not a regular file (the branch above always continues or stops): poll first, since a FIFO
         * no writer has opened yet reads as end-of-file, but polls as "not ready" until a writer
         * arrives (and writes, or closes). */
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, read_idle_ms);
        if (r == 0) {
            err = "nothing arrived";
            break;
        }
        if (r < 0) {
            if (errno == EINTR) continue;
            err = strerror(errno);
            break;
        }
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n > 0) {
            if (b.len + (size_t)n > read_limit) {
                capped = true;
                break;
            }
            buf_append(&b, chunk, (size_t)n);
            continue;
        }
        if (n == 0) break;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            err = strerror(errno);
            break;
        }
    }
    close(fd);
    if (capped || err) {
        buf_free(&b);
        if (capped)
            too_large(diags, path, "the input is");
        else if (strcmp(err, "nothing arrived") == 0) {
            char advice[DIAG_ADVICE_MAX];
            diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL,
                     "nothing arrived for %d ms and the input was not closed; give up waiting (raise the wait%s)",
                     read_idle_ms, diag_advice(advice, DIAG_ADVICE_INPUT_WAIT, NULL));
        } else
            diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "error while reading the file: %s", err);
        return NULL;
    }
    if (b.data) b.data[b.len] = 0;
    if (len) *len = b.len;
    char *s = buf_take(&b); /* handed to the arena whole: no copy of a big input */
    arena_on_free(a, free, s);
    return s;
}

/* Writes all of data to fd; false (with a diagnostic naming path) on an error. */
static bool write_all(int fd, const char *path, const char *data, size_t len, diag_list_t *diags) {
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot write: %s", strerror(errno));
            return false;
        }
        off += (size_t)w;
    }
    return true;
}

/* A target that exists and is not a regular file (a terminal, /dev/null, a FIFO, /dev/stdout) is
 * written in place: renaming over it would replace the device with a regular file. */
static bool write_in_place(const char *path, const char *data, size_t len, diag_list_t *diags) {
    int fd = open(path, O_WRONLY);
    if (fd < 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot open for writing: %s", strerror(errno));
        return false;
    }
    bool ok = write_all(fd, path, data, len, diags);
    close(fd);
    return ok;
}

/* Makes a rename in path's directory durable (best effort). */
static void sync_parent_dir(const char *path) {
    char *dir = strdup(path);
    if (!dir) abort();
    int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
}

char *file_link_target(const char *path) {
    char *cur = strdup(path);
    if (!cur) abort();
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        char to[4096];
        ssize_t n;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode) || (n = readlink(cur, to, sizeof to - 1)) < 0) return cur;
        to[n] = '\0';
        char *next;
        if (to[0] == '/') {
            next = strdup(to);
        } else { /* relative to the link's directory */
            char *slash = strrchr(cur, '/');
            size_t dl = slash ? (size_t)(slash - cur) + 1 : 0;
            next = malloc(dl + (size_t)n + 1);
            if (next) {
                memcpy(next, cur, dl);
                memcpy(next + dl, to, (size_t)n + 1);
            }
        }
        if (!next) abort();
        free(cur);
        cur = next;
    }
    return cur;
}

static bool write_atomic_at(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
                            bool (*before_rename)(void *user, const char *tmp_path), void *user, bool *stopped,
                            diag_list_t *diags);

bool file_link_stays_inside(const char *path, diag_list_t *diags) {
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) return true;
    char *target = file_link_target(path);
    char *real = realpath(path, NULL); /* NULL: the chain ends at nothing (or loops) */
    char *dir_of = strdup(path);
    if (!dir_of) abort();
    char *dir = realpath(dirname(dir_of), NULL);
    free(dir_of);
    size_t dl = dir ? strlen(dir) : 0;
    bool inside = real && dir && strncmp(real, dir, dl) == 0 && (real[dl] == '/' || (dl == 1 && dir[0] == '/'));
    if (!inside) {
        char why[4200] = "which does not exist";
        if (real) snprintf(why, sizeof why, "which lies outside %s", dir ? dir : ".");
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL,
                 "is a symbolic link to %s, %s: cimport writes no secret values through a link to a file that does "
                 "not exist or lies outside the link's directory; nothing was written: remove the link (or point it "
                 "at an existing file beside it) and run again",
                 real ? real : target, why);
    }
    free(target);
    free(real);
    free(dir);
    return inside;
}

bool file_write_atomic(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
                       diag_list_t *diags) {
    return file_write_atomic_hooked(path, data, len, mode, force_mode, NULL, NULL, NULL, diags);
}

bool file_write_atomic_hooked(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
                              bool (*before_rename)(void *user, const char *tmp_path), void *user, bool *stopped,
                              diag_list_t *diags) {
    char *real = file_link_target(path);
    bool ok = write_atomic_at(real, data, len, mode, force_mode, before_rename, user, stopped, diags);
    free(real);
    return ok;
}

static bool write_atomic_at(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
                            bool (*before_rename)(void *user, const char *tmp_path), void *user, bool *stopped,
                            diag_list_t *diags) {
    if (stopped) *stopped = false;
    struct stat target;
    if (stat(path, &target) == 0) {
        if (S_ISDIR(target.st_mode)) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "is a directory: name a file to write");
            return false;
        }
        if (!S_ISREG(target.st_mode)) return write_in_place(path, data, len, diags);
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    if (!tmp) abort();
    snprintf(tmp, plen + 32, "%s.cimport-tmp-XXXXXX", path);
    /* tracked before it exists: mkstemp fills the name in place before it creates the file, so a
     * fatal signal at any point finds the file to remove */
    file_temp_track(tmp);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot create a temporary file beside it: %s",
                 strerror(errno));
        file_temp_untrack(tmp);
        free(tmp);
        return false;
    }
    struct stat st;
    mode_t m = mode;
    if (!force_mode && stat(path, &st) == 0) m = st.st_mode & 07777;
    fchmod(fd, m);
    bool ok = write_all(fd, path, data, len, diags);
    if (ok && fsync(fd) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot flush the file to disk: %s", strerror(errno));
        ok = false;
    }
    if (close(fd) != 0 && ok) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot close the file: %s", strerror(errno));
        ok = false;
    }
    if (ok && before_rename && !before_rename(user, tmp)) {
        if (stopped) *stopped = true;
        ok = false;
    }
    if (ok && rename(tmp, path) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot replace the file: %s; the old file is unchanged",
                 strerror(errno));
        ok = false;
    }
    if (!ok) unlink(tmp);
    file_temp_untrack(tmp);
    if (ok) sync_parent_dir(path);
    free(tmp);
    return ok;
}

bool file_is_read_only(const char *path) {
    struct stat st;
    return path && stat(path, &st) == 0 && file_mode_read_only(st.st_mode);
}

void file_read_only_error(diag_list_t *diags, const char *path) {
    char advice[DIAG_ADVICE_MAX];
    diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "the file is read-only: make it writable (chmod u+w)%s",
             diag_advice(advice, DIAG_ADVICE_DIFF_INSTEAD, NULL));
}

char *file_user_home(arena_t *a) {
    struct passwd pw, *found = NULL;
    char buf[4096];
    if (getpwuid_r(getuid(), &pw, buf, sizeof buf, &found) == 0 && found && found->pw_dir && *found->pw_dir)
        return arena_strdup(a, found->pw_dir);
    const char *home = getenv("HOME");
    return home && *home ? arena_strdup(a, home) : NULL;
}

const char *file_url_dir(arena_t *a, const char *url) {
    const char *path = url + strlen("file://");
    const char *query = strchr(path, '?');
    if (query) path = arena_strndup(a, path, (size_t)(query - path));
    if (path[0] != '~') return query ? path : arena_strdup(a, path);
    const char *home = file_user_home(a);
    return arena_sprintf(a, "%s%s", home ? home : "", path + 1);
}

char *file_cache_root(arena_t *a) {
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg == '/') return arena_sprintf(a, "%s/cimport", xdg);
    if (home && *home) return arena_sprintf(a, "%s/.cache/cimport", home);
    return NULL;
}

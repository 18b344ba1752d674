/* spool.c — a text held in an unnamed file while it is made (see spool.h). */
#define _GNU_SOURCE /* O_TMPFILE */
#include "base/spool.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"

struct spool {
    int fd;
    size_t size;
    int error;
    bool unnamed; /* made with O_TMPFILE: a name can be given to it (spool_link) */
    bool named;   /* spool_link gave it one: it is a user's file now */
};

/* A file in dir that no name leads to: O_TMPFILE, else a hidden one unlinked once open. */
static int unnamed_file(const char *dir, bool *tmpfile) {
    int fd = -1;
#ifdef O_TMPFILE
    fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    *tmpfile = fd >= 0;
    if (fd >= 0) return fd;
#endif
    size_t n = strlen(dir) + 32;
    char *tmp = malloc(n);
    if (!tmp) abort();
    snprintf(tmp, n, "%s/.cimport-spool-XXXXXX", dir);
    file_temp_track(tmp); /* a signal between the two calls still removes it */
    fd = mkstemp(tmp);
    if (fd >= 0) unlink(tmp);
    file_temp_untrack(tmp);
    free(tmp);
    return fd;
}

spool_t *spool_new(const char *path) {
    char *real = file_link_target(path); /* the file a write to path replaces, and so its directory */
    struct stat st;
    /* a device or FIFO (`-o /dev/null`) is written into, not replaced: no spool beside it */
    bool other = stat(real, &st) == 0 && !S_ISREG(st.st_mode);
    bool tmpfile = false;
    int fd = other ? -1 : unnamed_file(dirname(real), &tmpfile);
    free(real);
    if (fd < 0) return NULL;
    spool_t *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->fd = fd;
    s->unnamed = tmpfile;
    return s;
}

void spool_free(spool_t *s) {
    if (!s) return;
    close(s->fd);
    free(s);
}

void spool_write(spool_t *s, const char *data, size_t len) {
    if (s->named && len && !s->error) s->error = EBADF; /* the file is a user's now */
    while (len && !s->error) {
        ssize_t w = write(s->fd, data, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            s->error = w < 0 ? errno : EIO;
            return;
        }
        data += w;
        len -= (size_t)w;
        s->size += (size_t)w;
    }
}

void spool_take(spool_t *s, buf_t *b) {
    if (b->len) spool_write(s, b->data, b->len);
    b->len = 0;
    if (b->data) b->data[0] = '\0';
}

int spool_error(const spool_t *s) {
    return s->error;
}

size_t spool_size(const spool_t *s) {
    return s->size;
}

/* Reads up to n bytes at off (fewer only at the end); -1 with errno on failure. */
static ssize_t read_at(int fd, char *buf, size_t n, off_t off) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, buf + got, n - got, off + (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

ssize_t spool_read(const spool_t *s, size_t off, void *buf, size_t n) {
    if (off >= s->size) return 0;
    if (n > s->size - off) n = s->size - off;
    return read_at(s->fd, buf, n, (off_t)off);
}

bool spool_copy_to(const spool_t *s, int fd) {
    char *buf = malloc(SPOOL_CHUNK);
    if (!buf) abort();
    bool ok = true;
    for (size_t off = 0; ok && off < s->size;) {
        size_t want = s->size - off < SPOOL_CHUNK ? s->size - off : SPOOL_CHUNK;
        ssize_t r = read_at(s->fd, buf, want, (off_t)off);
        if (r != (ssize_t)want) {
            if (r >= 0) errno = EIO; /* shorter than written: the file changed under us */
            ok = false;
            break;
        }
        for (size_t done = 0; ok && done < want;) {
            ssize_t w = write(fd, buf + done, want - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                if (w == 0) errno = EIO;
                ok = false;
            } else {
                done += (size_t)w;
            }
        }
        off += want;
    }
    free(buf);
    return ok;
}

bool spool_link(spool_t *s, const char *path, mode_t mode) {
    if (!s->unnamed || s->named || s->error) {
        errno = s->error ? s->error : EOPNOTSUPP;
        return false;
    }
    char proc[48];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", s->fd);
    if (fchmod(s->fd, mode) != 0 || fsync(s->fd) != 0 || linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0)
        return false;
    s->named = true;
    return true;
}

unsigned long spool_inode(const spool_t *s) {
    struct stat st;
    return fstat(s->fd, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

bool spool_equals_fd(const spool_t *s, int fd, size_t len) {
    if (len != s->size) return false;
    char *x = malloc(2 * SPOOL_CHUNK);
    if (!x) abort();
    char *y = x + SPOOL_CHUNK;
    bool same = true;
    for (size_t off = 0; same && off < len; off += SPOOL_CHUNK) {
        size_t want = len - off < SPOOL_CHUNK ? len - off : SPOOL_CHUNK;
        same = read_at(s->fd, x, want, (off_t)off) == (ssize_t)want &&
               read_at(fd, y, want, (off_t)off) == (ssize_t)want && memcmp(x, y, want) == 0;
    }
    free(x);
    return same;
}

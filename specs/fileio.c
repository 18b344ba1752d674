/* fileio.c — whole-file reads and atomic writes (see fileio.h). */
#include "specs/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *file_read_all(arena_t *a, const char *path, size_t *len, diag_list_t *diags) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot read the file: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "is a directory, not a file");
        return NULL;
    }
    buf_t b;
    buf_init(&b);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) buf_append(&b, chunk, n);
    bool err = ferror(f);
    fclose(f);
    if (err) {
        buf_free(&b);
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "error while reading the file");
        return NULL;
    }
    char *s = buf_arena_str(&b, a);
    if (len) *len = b.len;
    buf_free(&b);
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

bool file_write_atomic(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
                       diag_list_t *diags) {
    return file_write_atomic_hooked(path, data, len, mode, force_mode, NULL, NULL, NULL, diags);
}

bool file_write_atomic_hooked(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
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
    int fd = mkstemp(tmp);
    if (fd < 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot create a temporary file beside it: %s",
                 strerror(errno));
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
    else sync_parent_dir(path);
    free(tmp);
    return ok;
}

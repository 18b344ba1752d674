/* fileio.c — whole-file reads and atomic writes (see fileio.h). */
#include "specs/fileio.h"

#include <errno.h>
#include <fcntl.h>
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

/* A target that exists and is not a regular file (a terminal, /dev/null, a FIFO, /dev/stdout) is
 * written in place: renaming over it would replace the device with a regular file. */
static bool write_in_place(const char *path, const char *data, size_t len, diag_list_t *diags) {
    int fd = open(path, O_WRONLY);
    if (fd < 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot open for writing: %s", strerror(errno));
        return false;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot write: %s", strerror(errno));
            close(fd);
            return false;
        }
        off += (size_t)w;
    }
    close(fd);
    return true;
}

bool file_write_atomic(const char *path, const char *data, size_t len, mode_t mode, bool force_mode,
                       diag_list_t *diags) {
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
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot write: %s", strerror(errno));
            close(fd);
            unlink(tmp);
            free(tmp);
            return false;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot flush the file to disk: %s", strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    if (rename(tmp, path) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot replace the file: %s", strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    free(tmp);
    return true;
}

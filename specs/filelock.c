/* filelock.c — advisory locks beside the files cimport updates (see filelock.h). */
#include "specs/filelock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct file_lock {
    int fd;
    char *path; /* the lock file */
};

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

file_lock_t *file_lock_acquire(const char *path, int timeout_ms, diag_list_t *diags) {
    size_t n = strlen(path) + 6;
    char *lp = malloc(n);
    if (!lp) abort();
    snprintf(lp, n, "%s.lock", path);
    long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    long wait_us = 2000;
    for (;;) {
        int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot create the lock file %s: %s", lp, strerror(errno));
            free(lp);
            return NULL;
        }
        int r;
        while ((r = flock(fd, LOCK_EX | LOCK_NB)) != 0 && (errno == EWOULDBLOCK || errno == EINTR)) {
            if (deadline >= 0 && now_ms() >= deadline) break;
            struct timespec ts = {0, wait_us * 1000};
            nanosleep(&ts, NULL);
            if (wait_us < 50000) wait_us *= 2;
        }
        if (r != 0) {
            int e = errno;
            close(fd);
            if (e == EWOULDBLOCK || e == EINTR)
                diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL,
                         "another writer holds the lock on this file (%s) and did not release it within %d.%d s; the "
                         "file was not changed",
                         lp, timeout_ms / 1000, (timeout_ms % 1000) / 100);
            else
                diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot lock %s: %s", lp, strerror(e));
            free(lp);
            return NULL;
        }
        /* The previous holder may have removed the lock file after we opened it: then our flock is
         * on an orphan and a third writer could lock a new file. Start over in that case. */
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(lp, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            file_lock_t *l = malloc(sizeof *l);
            if (!l) abort();
            l->fd = fd;
            l->path = lp;
            return l;
        }
        close(fd);
    }
}

void file_lock_release(file_lock_t *l) {
    if (!l) return;
    unlink(l->path); /* while still holding the flock: waiters re-check the path (above) */
    close(l->fd);
    free(l->path);
    free(l);
}

const char *file_lock_path(const file_lock_t *l) {
    return l->path;
}

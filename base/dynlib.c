/* dynlib.c — the loader behind base/dynlib_*.c (see dynlib.h). */
#include "base/dynlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t dynlib_lock = PTHREAD_MUTEX_INITIALIZER;

void *dynlib_sym(dynlib_t *lib, const char *name) {
    pthread_mutex_lock(&dynlib_lock);
    if (lib->state == 0) {
        lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
        lib->state = lib->handle ? 1 : -1;
        if (!lib->handle) {
            const char *why = dlerror();
            snprintf(lib->error, sizeof lib->error,
                     "cannot load %s (%s): install it (scripts/setup.sh installs every library cimport uses)",
                     lib->soname, why ? why : "not found");
        }
    }
    void *f = NULL;
    if (lib->state == 1) {
        f = dlsym(lib->handle, name);
        if (!f)
            snprintf(lib->error, sizeof lib->error, "%s has no function %s: install the version cimport was built with",
                     lib->soname, name);
    }
    pthread_mutex_unlock(&dynlib_lock);
    return f;
}

const char *dynlib_error(const dynlib_t *lib) {
    /* a copy taken under the lock: another thread's dynlib_sym may be writing lib->error */
    static _Thread_local char copy[sizeof lib->error];
    pthread_mutex_lock(&dynlib_lock);
    memcpy(copy, lib->error, sizeof copy);
    pthread_mutex_unlock(&dynlib_lock);
    return copy;
}

/* dynlib.h — libraries loaded when first used instead of when cimport starts.
 *
 * libcurl (plugin downloads, Pulumi Cloud), libpq (the PostgreSQL backend) and libgit2 (review
 * diffs) pull in some thirty further libraries (GnuTLS, Kerberos, LDAP, p11-kit, ...) whose loading
 * and constructors cost ~5 ms of every start, while most runs use none of them. Their functions are
 * defined under their own names in base/dynlib_*.c: each loads its library (dlopen of the soname
 * cimport was built against, once per process) and calls the real function through dlsym. Call sites
 * include the library's header and call it as usual. When the library or a function cannot be
 * loaded, the stand-in returns the library's own failure value (NULL, an error code, CONNECTION_BAD)
 * and dynlib_error says why, for the caller's message.
 *
 *     static dynlib_t curl = DYNLIB(CIMPORT_SONAME_CURL);
 *     CURL *(*f)(void) = dynlib_sym(&curl, "curl_easy_init");   // NULL: dynlib_error(&curl)
 */
#ifndef CIMPORT_BASE_DYNLIB_H
#define CIMPORT_BASE_DYNLIB_H

#include <stdbool.h>

typedef struct dynlib {
    const char *soname;
    int state; /* 0 not tried, 1 loaded, -1 failed (under the loader's lock) */
    void *handle;
    char error[512]; /* why it could not be loaded, or the last function it lacked */
} dynlib_t;

#define DYNLIB(soname)                                                                                                 \
    { (soname), 0, NULL, "" }

/* The library's function `name`, loading the library on first use (thread-safe); NULL when the
 * library or the function is missing (dynlib_error tells which). */
void *dynlib_sym(dynlib_t *lib, const char *name);

/* dynlib_sym remembered in *cache (a static of the caller's, one per function): the lookup runs once. */
static inline void *dynlib_fn(dynlib_t *lib, void **cache, const char *name) {
    void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (!f && (f = dynlib_sym(lib, name))) __atomic_store_n(cache, f, __ATOMIC_RELEASE);
    return f;
}

/* NOLINTBEGIN(bugprone-macro-parentheses): `var` is a declared name, which cannot be parenthesized */
/* Declares `var` of type T (a function pointer type) holding lib's function `name`, or NULL; the lookup
 * is remembered in a static of the calling function. Needs <string.h>. */
#define DYNLIB_FN(lib, T, var, name)                                                                                   \
    static void *var##_cache;                                                                                          \
    __typeof__(T) var;                                                                                                 \
    do {                                                                                                               \
        void *p_ = dynlib_fn((lib), &var##_cache, (name));                                                             \
        memcpy(&var, &p_, sizeof var);                                                                                 \
    } while (0)
/* NOLINTEND(bugprone-macro-parentheses) */

/* Why the last dynlib_sym on lib failed ("" when none did), worded for a user with the fix: a copy
 * of the calling thread's own, valid until its next call. */
const char *dynlib_error(const dynlib_t *lib);

/* Why libcurl, libpq or libgit2 could not be used, for messages at their call sites ("" when
 * nothing failed). */
const char *dynlib_curl_error(void);
const char *dynlib_pq_error(void);
const char *dynlib_git2_error(void);

#endif

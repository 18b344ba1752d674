/* dynlib_curl.c — libcurl's functions that cimport calls, loaded on first use (see dynlib.h). */
#define CURL_DISABLE_TYPECHECK /* curl_easy_setopt/getinfo are functions here, not checking macros */
#include <curl/curl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "base/dynlib.h"

static dynlib_t curl = DYNLIB(CIMPORT_SONAME_CURL);

const char *dynlib_curl_error(void) {
    return dynlib_error(&curl);
}

/* The function `name` of type T (a function pointer type) into `var`, or NULL. */
#define CURL_FN(T, var, name) DYNLIB_FN(&curl, T, var, name)

CURLcode curl_global_init(long flags) {
    CURL_FN(CURLcode(*)(long), f, "curl_global_init");
    return f ? f(flags) : CURLE_FAILED_INIT;
}

CURL *curl_easy_init(void) {
    CURL_FN(CURL * (*)(void), f, "curl_easy_init");
    return f ? f() : NULL;
}

/* An option's one argument, read as its type: curl numbers options by the type of their argument
 * (long below CURLOPTTYPE_OBJECTPOINT, then object pointers, function pointers, curl_off_t, blobs). */
CURLcode curl_easy_setopt(CURL *c, CURLoption opt, ...) {
    CURL_FN(CURLcode(*)(CURL *, CURLoption, ...), f, "curl_easy_setopt");
    if (!f) return CURLE_FAILED_INIT;
    va_list ap;
    va_start(ap, opt);
    CURLcode rc;
    bool is_fn = opt >= CURLOPTTYPE_FUNCTIONPOINT && opt < CURLOPTTYPE_OFF_T;
    bool is_off = opt >= CURLOPTTYPE_OFF_T && opt < CURLOPTTYPE_BLOB;
    /* va_arg of four different types, which bugprone-branch-clone takes for one */
    if (opt < CURLOPTTYPE_OBJECTPOINT)
        rc = f(c, opt, va_arg(ap, long)); // NOLINT(bugprone-branch-clone)
    else if (is_fn)
        rc = f(c, opt, va_arg(ap, void (*)(void)));
    else if (is_off)
        rc = f(c, opt, va_arg(ap, curl_off_t));
    else /* object pointers and blobs */
        rc = f(c, opt, va_arg(ap, void *));
    va_end(ap);
    return rc;
}

CURLcode curl_easy_perform(CURL *c) {
    CURL_FN(CURLcode(*)(CURL *), f, "curl_easy_perform");
    return f ? f(c) : CURLE_FAILED_INIT;
}

/* Every CURLINFO takes one pointer to where the answer goes. */
CURLcode curl_easy_getinfo(CURL *c, CURLINFO info, ...) {
    CURL_FN(CURLcode(*)(CURL *, CURLINFO, ...), f, "curl_easy_getinfo");
    if (!f) return CURLE_FAILED_INIT;
    va_list ap;
    va_start(ap, info);
    CURLcode rc = f(c, info, va_arg(ap, void *));
    va_end(ap);
    return rc;
}

void curl_easy_cleanup(CURL *c) {
    CURL_FN(void (*)(CURL *), f, "curl_easy_cleanup");
    if (f) f(c);
}

const char *curl_easy_strerror(CURLcode rc) {
    CURL_FN(const char *(*)(CURLcode), f, "curl_easy_strerror");
    return f ? f(rc) : dynlib_curl_error();
}

struct curl_slist *curl_slist_append(struct curl_slist *l, const char *s) {
    CURL_FN(struct curl_slist * (*)(struct curl_slist *, const char *), f, "curl_slist_append");
    return f ? f(l, s) : NULL;
}

void curl_slist_free_all(struct curl_slist *l) {
    CURL_FN(void (*)(struct curl_slist *), f, "curl_slist_free_all");
    if (f) f(l);
}

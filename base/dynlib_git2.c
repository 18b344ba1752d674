/* dynlib_git2.c — libgit2's functions that cimport calls, loaded on first use (see dynlib.h). */
#include <git2.h>
#include <string.h>

#include "base/dynlib.h"

static dynlib_t git2 = DYNLIB(CIMPORT_SONAME_GIT2);

const char *dynlib_git2_error(void) {
    return dynlib_error(&git2);
}

/* The function `name` of type T (a function pointer type) into `var`, or NULL. */
#define GIT2_FN(T, var, name) DYNLIB_FN(&git2, T, var, name)

int git_libgit2_init(void) {
    GIT2_FN(int (*)(void), f, "git_libgit2_init");
    return f ? f() : -1;
}

int git_libgit2_shutdown(void) {
    GIT2_FN(int (*)(void), f, "git_libgit2_shutdown");
    return f ? f() : -1;
}

int git_diff_options_init(git_diff_options *opts, unsigned int version) {
    GIT2_FN(int (*)(git_diff_options *, unsigned int), f, "git_diff_options_init");
    if (f) return f(opts, version);
    memset(opts, 0, sizeof *opts);
    return -1;
}

int git_patch_from_buffers(git_patch **out, const void *old_buffer, size_t old_len, const char *old_as_path,
                           const void *new_buffer, size_t new_len, const char *new_as_path,
                           const git_diff_options *opts) {
    GIT2_FN(int (*)(git_patch **, const void *, size_t, const char *, const void *, size_t, const char *,
                    const git_diff_options *),
            f, "git_patch_from_buffers");
    if (!f) *out = NULL;
    return f ? f(out, old_buffer, old_len, old_as_path, new_buffer, new_len, new_as_path, opts) : -1;
}

size_t git_patch_num_hunks(const git_patch *patch) {
    GIT2_FN(size_t(*)(const git_patch *), f, "git_patch_num_hunks");
    return f ? f(patch) : 0;
}

int git_patch_get_hunk(const git_diff_hunk **out, size_t *lines_in_hunk, git_patch *patch, size_t hunk_idx) {
    GIT2_FN(int (*)(const git_diff_hunk **, size_t *, git_patch *, size_t), f, "git_patch_get_hunk");
    return f ? f(out, lines_in_hunk, patch, hunk_idx) : -1;
}

void git_patch_free(git_patch *patch) {
    GIT2_FN(void (*)(git_patch *), f, "git_patch_free");
    if (f) f(patch);
}

int git_patch_to_buf(git_buf *out, git_patch *patch) {
    GIT2_FN(int (*)(git_buf *, git_patch *), f, "git_patch_to_buf");
    return f ? f(out, patch) : -1;
}

void git_buf_dispose(git_buf *buffer) {
    GIT2_FN(void (*)(git_buf *), f, "git_buf_dispose");
    if (f) f(buffer);
}

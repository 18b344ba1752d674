/* review.c — unified diffs with libgit2 (see review.h). */
#include "splice/review.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

char *review_unified_diff(const char *path, const char *old_text, size_t old_len, const char *new_text,
                          size_t new_len) {
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0) {
        char *e = malloc(1);
        if (!e) abort();
        e[0] = 0;
        return e;
    }
    /* libgit2 keeps global state that must be set up; init/shutdown are reference counted, so
     * pairing them here is safe whatever else in the process uses libgit2. */
    git_libgit2_init();
    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    opts.context_lines = 3;
    opts.flags |= GIT_DIFF_FORCE_TEXT;
    git_patch *patch = NULL;
    char *result = NULL;
    if (git_patch_from_buffers(&patch, old_text, old_len, path, new_text, new_len, path, &opts) == 0) {
        git_buf buf = {0};
        if (git_patch_to_buf(&buf, patch) == 0) {
            /* Drop the `diff --git` and `index` lines: there is no repository; keep ---/+++ and hunks. */
            const char *start = strstr(buf.ptr, "\n--- ");
            start = start ? start + 1 : buf.ptr;
            size_t n = buf.size - (size_t)(start - buf.ptr);
            result = malloc(n + 1);
            if (!result) abort();
            memcpy(result, start, n);
            result[n] = 0;
            git_buf_dispose(&buf);
        }
        git_patch_free(patch);
    }
    git_libgit2_shutdown();
    return result;
}

/* review.h — unified diffs of a program before and after splicing, for review (`--diff`).
 *
 * Built on libgit2's git_patch_from_buffers, so the output is what `git diff` would print for the
 * change: `--- a/<path>` / `+++ b/<path>` headers, hunks with 3 lines of context. */
#ifndef CIMPORT_REVIEW_H
#define CIMPORT_REVIEW_H

#include <stddef.h>

/* The unified diff from old_text to new_text, labelled with `path`, as a malloc'd NUL-terminated
 * string; "" when the texts are equal; NULL only if libgit2 fails (out of memory). Binary-looking
 * text (NUL bytes) is still diffed as text. */
char *review_unified_diff(const char *path, const char *old_text, size_t old_len, const char *new_text, size_t new_len);

#endif

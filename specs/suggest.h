/* suggest.h — "did you mean": the closest of some candidates to a mistyped word. */
#ifndef CIMPORT_SUGGEST_H
#define CIMPORT_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

/* Edit distance (Levenshtein) between two strings; ignore_case compares ASCII letters without case. */
size_t suggest_distance(const char *a, const char *b, bool ignore_case);

/* The candidate closest to word when it is close enough to be a typo (a few edits for its length),
 * else NULL. */
const char *suggest_closest(const char *word, const char *const *candidates, size_t n, bool ignore_case);

#endif

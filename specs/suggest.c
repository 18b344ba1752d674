/* suggest.c — "did you mean" (see suggest.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "specs/suggest.h"

size_t suggest_distance(const char *a, const char *b, bool ignore_case) {
    size_t la = strlen(a), lb = strlen(b);
    size_t *prev = malloc((lb + 1) * sizeof *prev), *cur = malloc((lb + 1) * sizeof *cur);
    if (!prev || !cur) abort();
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            char x = a[i - 1], y = b[j - 1];
            if (ignore_case) x = (char)tolower((unsigned char)x), y = (char)tolower((unsigned char)y);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1, sub = prev[j - 1] + (x != y);
            cur[j] = del < ins ? (del < sub ? del : sub) : (ins < sub ? ins : sub);
        }
        size_t *t = prev;
        prev = cur;
        cur = t;
    }
    size_t d = prev[lb];
    free(prev);
    free(cur);
    return d;
}

const char *suggest_closest(const char *word, const char *const *candidates, size_t n, bool ignore_case) {
    const char *best = NULL;
    size_t best_d = (size_t)-1, len = strlen(word);
    for (size_t i = 0; i < n; i++) {
        size_t d = suggest_distance(word, candidates[i], ignore_case);
        if (d < best_d) best_d = d, best = candidates[i];
    }
    size_t limit = len <= 5 ? 1 : len <= 10 ? 2 : len <= 24 ? 3 : len / 8;
    return best && best_d > 0 && best_d <= limit ? best : NULL;
}

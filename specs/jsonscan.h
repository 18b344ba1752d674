/* jsonscan.h — a validating structural scanner over JSON text: walks objects and arrays and gives
 * the byte range of each member or element without building a tree, so a big document (a 200 MB
 * schema, a 100,000-resource stack export) is indexed at memory speed and only the ranges that are
 * needed are parsed with cJSON.
 *
 * Every value the scanner steps over is checked against the JSON grammar (strings with their escapes
 * and no raw control characters, numbers, literals, nesting up to JSCAN_MAX_DEPTH), so a document the
 * scanner accepts is one cJSON would accept too. The first error stops the scan: `err` says what was
 * expected and `err_pos` where; jscan_line() turns that into a line number. */
#ifndef CIMPORT_JSONSCAN_H
#define CIMPORT_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

#define JSCAN_MAX_DEPTH 1000 /* cJSON's nesting limit */

typedef struct jscan {
    const char *text;
    size_t len;
    size_t pos;
    const char *err; /* NULL until an error */
    size_t err_pos;
} jscan_t;

typedef struct jscan_range {
    size_t start, end; /* [start, end) in the text */
} jscan_range_t;

void jscan_init(jscan_t *s, const char *text, size_t len);
/* Skips whitespace; false at the end of the text. */
bool jscan_ws(jscan_t *s);
/* Validates and steps over one value; its range in *r (may be NULL). */
bool jscan_value(jscan_t *s, jscan_range_t *r);
/* Object members: call jscan_object_begin at '{', then jscan_object_next until it sets *done.
 * `*first` starts true (the iterator's state). Each call leaves the scanner at the member's value (which the caller
 * must step over with jscan_value or a nested walk) and gives the key's range without the quotes; *key_escaped says the
 * key holds a backslash escape (compare it decoded). */
bool jscan_object_begin(jscan_t *s);
bool jscan_object_next(jscan_t *s, bool *first, jscan_range_t *key, bool *key_escaped, bool *done);
/* Array elements: the same shape; each call leaves the scanner at the next element. */
bool jscan_array_begin(jscan_t *s);
bool jscan_array_next(jscan_t *s, bool *first, bool *done);
/* After the top-level value: only whitespace may follow. */
bool jscan_end(jscan_t *s);
/* The next non-space character, or 0 at the end. */
char jscan_peek(jscan_t *s);
/* True if the key range equals the NUL-terminated name; an escaped key is compared decoded, as cJSON
 * finds a member ("\u0063ustom" is `custom`). */
bool jscan_key_is(const jscan_t *s, jscan_range_t key, bool escaped, const char *name);
/* A string value's decoded text (range including its quotes) in the arena; NULL if the range is
 * not a string. */
char *jscan_string(arena_t *a, const jscan_t *s, jscan_range_t r);
/* The 1-based line of a byte offset. */
size_t jscan_line(const jscan_t *s, size_t pos);

#endif

/* json_strict.h — what cJSON accepts silently and cimport must not: duplicate keys in an object
 * (which one wins?), NUL characters (`\u0000` or a raw NUL byte truncates a C string: a name, an ID
 * or a token would silently lose its tail), and text that is not UTF-8 (it would be copied into
 * generated code). Run on the raw text of every JSON document read from outside, before cJSON
 * parses it. Syntax errors are left to the JSON parser: this scanner only reports the three
 * problems above. */
#ifndef CIMPORT_JSON_STRICT_H
#define CIMPORT_JSON_STRICT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

/* False with one error diagnostic (code DIAG_INPUT, naming `file` — may be NULL — and the 1-based
 * line) for the first duplicate key, NUL character or invalid UTF-8 sequence in `text`. */
bool json_strict_check(const char *text, size_t len, const char *file, diag_list_t *diags);

/* The same over a private read-only file mapping (map at its start), giving back the pages it has
 * read as it goes: a 200 MB schema is checked without holding it in memory. */
bool json_strict_check_mapped(const char *map, size_t len, const char *file, diag_list_t *diags);

/* json_strict_check_mapped on a thread of its own, beside a structural scan of the same map (each
 * reads the file once; together they take the time of the longer, not the sum). */
typedef struct json_strict_job {
    const char *map;
    size_t len;
    const char *file;
    diag_list_t diags;
    bool ok;
    bool threaded;
    pthread_t thread;
} json_strict_job_t;
/* Starts the check (it runs in json_strict_finish instead for a document under 1 MB, or when no
 * thread can be started). */
void json_strict_start(json_strict_job_t *j, const char *map, size_t len, const char *file);
/* Waits for the check: its answer, its messages moved into diags, when `use`; when not (the scan
 * failed first), true and its messages dropped. The job is finished either way. */
bool json_strict_finish(json_strict_job_t *j, bool use, diag_list_t *diags);

/* Whether `text` is in the encoding JSON is read in: false with an error naming `file` (may be NULL)
 * and the fix when it starts with a UTF-8 byte-order mark (EF BB BF: JSON has none, and Pulumi's
 * JSON reader, `pulumi stack import` included, refuses it) or is UTF-16 or UTF-32 (a mark FF FE /
 * FE FF, or a NUL byte first or second: PowerShell 5's `>`), or starts with nothing but NUL bytes
 * (a zero-filled or sparse file, which no iconv mends). Every reader of a JSON document
 * from outside calls it before parsing, so each such file gets the same answer. */
bool json_encoding_check(const char *text, size_t len, const char *file, diag_list_t *diags);
/* How far json_encoding_check looks: a file whose first JSON_HEAD_BYTES bytes (or all, if fewer) are
 * NUL is refused as zero-filled, not taken for UTF-16. */
#define JSON_HEAD_BYTES 4096
/* json_encoding_check of the first JSON_HEAD_BYTES bytes of the regular file at path, before it is
 * read whole (a zero-filled file of a gigabyte is answered at once); true for anything else (a pipe:
 * the check of the whole text answers). */
bool json_file_head_check(const char *path, diag_list_t *diags);

/* Whether s[0..len) is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
 * On false, *bad_at (if given) is the offset of the first bad byte. */
bool utf8_valid(const char *s, size_t len, size_t *bad_at);

#endif

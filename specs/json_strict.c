/* json_strict.c — duplicate keys, NUL characters and invalid UTF-8 in JSON text (see json_strict.h).
 *
 * One pass over the text: strings are scanned byte by byte (escapes decoded only for keys, which
 * are compared decoded so "a" and "\u0061" are the same key); each open object's keys are kept on
 * one shared stack and checked for duplicates (sorted) when the object closes. Memory grows with
 * the number of keys of the objects open at once, never with nesting alone. */
#include "specs/json_strict.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/swar.h"
#include "base/vec.h"

bool utf8_valid(const char *text, size_t len, size_t *bad_at) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        /* ASCII runs (nearly all of a JSON document) eight bytes at a time */
#if SWAR_SSE2
        while (len - i >= 16 && !swar_high16(s + i))
            i += 16;
#endif
        while (len - i >= 8 && !swar_high(swar_load(s + i)))
            i += 8;
        if (i >= len) break;
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            cp = c & 0x07;
        } else {
            if (bad_at) *bad_at = i;
            return false;
        }
        if (len - i <= n) {
            if (bad_at) *bad_at = i;
            return false;
        }
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                if (bad_at) *bad_at = i;
                return false;
            }
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) {
            if (bad_at) *bad_at = i;
            return false;
        }
        i += n + 1;
    }
    return true;
}

bool json_encoding_check(const char *text, size_t len, const char *file, diag_list_t *diags) {
    const unsigned char *u = (const unsigned char *)text;
    if (len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
                 "the file starts with a UTF-8 byte-order mark (EF BB BF), which JSON does not allow (Pulumi's JSON "
                 "reader refuses it too): save it as UTF-8 without the mark, e.g. `sed -i '1s/^\\xEF\\xBB\\xBF//' "
                 "%s`",
                 file ? file : "FILE");
        return false;
    }
    /* zeros where the text should start: a file whose blocks were never written (a crash before its data
     * reached the disk, `truncate -s`), no UTF-16 — whose first character is ASCII, "{\0" or "\0{" */
    size_t zeros = 0;
    while (zeros < len && zeros < JSON_HEAD_BYTES && u[zeros] == 0)
        zeros++;
    if (len >= 2 && zeros == (len < JSON_HEAD_BYTES ? len : JSON_HEAD_BYTES)) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
                 "the file starts with %zu NUL (zero) bytes and no text: a zero-filled or sparse file, as a crash "
                 "before its data reached the disk or `truncate -s` leaves, not a JSON document: restore it from a "
                 "backup or make it again",
                 zeros);
        return false;
    }
    const char *which = NULL;
    if (len >= 2 && u[0] == 0xFF && u[1] == 0xFE)
        which = " (its byte-order mark is FF FE)";
    else if (len >= 2 && u[0] == 0xFE && u[1] == 0xFF)
        which = " (its byte-order mark is FE FF)";
    else if (len >= 2 && (u[0] == 0 || u[1] == 0)) /* a document's first character is ASCII: "{\0" or "\0{" */
        which = " (it has NUL bytes: UTF-16 without a byte-order mark)";
    if (!which) return true;
    diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
             "the file is UTF-16%s, not UTF-8: save it as UTF-8 (`iconv -f UTF-16 -t UTF-8 %s > NEW.json`; in "
             "PowerShell, `Out-File -Encoding utf8`)",
             which, file ? file : "FILE");
    return false;
}

bool json_file_head_check(const char *path, diag_list_t *diags) {
    char head[JSON_HEAD_BYTES];
    size_t n = file_read_head(path, head, sizeof head);
    return !n || json_encoding_check(head, n, path, diags);
}

typedef struct key {
    size_t off, len; /* decoded bytes in the key buffer */
    size_t line;
} jkey_t;

typedef struct scan {
    const char *text;
    size_t len;
    buf_t names;  /* decoded keys, back to back */
    jkey_t *keys; /* keys of every open object */
    size_t nkeys, cap;
    size_t *frames; /* per open container: index of its first key, or SIZE_MAX for an array */
    size_t nframes, fcap;
} scan_t;

/* A key's decoded text. With only empty keys nothing was ever appended and the buffer is still
 * unallocated: pointer arithmetic on it would be undefined (CI's fuzzer found it). */
static const char *key_at(const scan_t *s, const jkey_t *k) {
    return s->names.data ? s->names.data + k->off : "";
}

static _Thread_local const scan_t *sort_scan; /* qsort has no context argument; one per thread */
static int key_cmp(const void *a, const void *b) {
    const jkey_t *x = a, *y = b;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    int c = memcmp(key_at(sort_scan, x), key_at(sort_scan, y), x->len);
    if (c) return c;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Sorts an object's keys for the duplicate check: insertion sort for the small objects a document
 * is made of (qsort's set-up costs more than the sort there), qsort beyond. */
static void sort_keys(const scan_t *s, jkey_t *keys, size_t n) {
    sort_scan = s;
    if (n > 16) {
        qsort(keys, n, sizeof *keys, key_cmp);
        return;
    }
    for (size_t k = 1; k < n; k++) {
        jkey_t v = keys[k];
        size_t j = k;
        for (; j > 0 && key_cmp(&keys[j - 1], &v) > 0; j--)
            keys[j] = keys[j - 1];
        keys[j] = v;
    }
}

/* Bytes the scanner must look at: outside strings (the rest is skipped unread), inside strings. */
static const unsigned char TOKEN_BYTE[256] = {
    ['\n'] = 1, ['{'] = 1, ['['] = 1, [','] = 1, ['}'] = 1, [']'] = 1, ['"'] = 1};
static const unsigned char STRING_BYTE[256] = {['\n'] = 1, ['"'] = 1, ['\\'] = 1};

/* The offset of the first quote, backslash or line break in text[i, len), or len. */
static size_t string_stop(const char *text, size_t i, size_t len) {
#if SWAR_SSE2
    while (len - i >= 16) {
        unsigned m = swar_string_stops16(text + i, 0);
        if (m) return i + (size_t)__builtin_ctz(m);
        i += 16;
    }
#endif
#if SWAR_OK
    while (len - i >= 8) {
        uint64_t w = swar_load(text + i);
        uint64_t m = swar_eq(w, '"') | swar_eq(w, '\\') | swar_eq(w, '\n');
        if (m) return i + swar_first(m);
        i += 8;
    }
#endif
    while (i < len && !STRING_BYTE[(unsigned char)text[i]])
        i++;
    return i;
}

/* The offset of the next byte the scanner must look at outside strings, from i, or len. The
 * indentation of a formatted document is skipped eight spaces at a time. */
static size_t token_stop(const char *text, size_t i, size_t len) {
    for (;;) {
        while (len - i >= 8 && swar_load(text + i) == SWAR_ONES * ' ')
            i += 8;
        if (i >= len) return len;
        if (TOKEN_BYTE[(unsigned char)text[i]]) return i;
        i++;
    }
}

static int hex4(const char *p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

static void fail(diag_list_t *diags, const char *file, size_t line, const char *msg) {
    diag_t *d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL, "%s", msg);
    if (d) d->line = (long)line;
}

/* Shows a key in a message: printable ASCII as is, at most 60 bytes. */
static char *show_key(const char *k, size_t n) {
    size_t m = n > 60 ? 60 : n;
    char *o = malloc(m * 4 + 8);
    size_t j = 0;
    for (size_t i = 0; i < m; i++) {
        unsigned char c = (unsigned char)k[i];
        if (c >= 0x20 && c != 0x7F)
            o[j++] = (char)c;
        else
            j += (size_t)snprintf(o + j, 5, "\\x%02x", c);
    }
    if (m < n) {
        memcpy(o + j, "...", 3);
        j += 3;
    }
    o[j] = 0;
    return o;
}

/* With `release` (text is a private file mapping at a page boundary): the pages already read are
 * given back every few megabytes, so checking a 200 MB file does not hold 200 MB. */
typedef struct releaser {
    const char *text;
    bool on;
    size_t done, page;
} releaser_t;

static void release_upto(releaser_t *r, size_t upto) {
    if (!r->on) return;
    size_t end = upto & ~(r->page - 1);
    if (end < r->done + ((size_t)8 << 20)) return;
    madvise((void *)(r->text + r->done), end - r->done, MADV_DONTNEED);
    r->done = end;
}

/* utf8_valid over the text, and no NUL byte in it (*nul set when that is what was found): in pieces
 * that end on a sequence's first byte, released behind. */
static bool utf8_valid_released(const char *text, size_t len, size_t *bad_at, bool *nul, releaser_t *r) {
    const size_t piece = r->on ? (size_t)8 << 20 : len;
    for (size_t off = 0; off < len;) {
        size_t end = len - off > piece ? off + piece : len;
        for (int back = 0; back < 3 && end < len && end > off && ((unsigned char)text[end] & 0xC0) == 0x80; back++)
            end--;
        size_t bad;
        if (!utf8_valid(text + off, end - off, &bad)) {
            *bad_at = off + bad;
            return false;
        }
        const char *z = memchr(text + off, 0, end - off);
        if (z) {
            *bad_at = (size_t)(z - text);
            *nul = true;
            return false;
        }
        off = end;
        release_upto(r, off);
    }
    r->done = 0; /* the second pass reads the text again from its start */
    return true;
}

static bool strict_check(const char *text, size_t len, const char *file, diag_list_t *diags, bool release) {
    releaser_t rel = {.text = text, .on = release && len > ((size_t)16 << 20)};
    if (rel.on) rel.page = (size_t)sysconf(_SC_PAGESIZE);
    size_t bad;
    bool nul = false;
    if (!utf8_valid_released(text, len, &bad, &nul, &rel)) {
        size_t line = 1;
        size_t ls = 0;
        for (size_t i = 0; i < bad; i++)
            if (text[i] == '\n') line++, ls = i + 1;
        char msg[200];
        /* A raw NUL byte cuts a name, an ID or a token short as \u0000 does: cJSON reads on past it,
         * every C string ends there (a merged stack state was written cut off at it). */
        if (nul)
            snprintf(msg, sizeof msg,
                     "a NUL byte (0x00) at column %zu: JSON text cannot hold one, and names, IDs, tokens and values "
                     "cannot contain NUL; remove it",
                     bad - ls + 1);
        else
            snprintf(msg, sizeof msg,
                     "invalid UTF-8 (byte 0x%02X at column %zu): cimport reads UTF-8 only; save the file as UTF-8",
                     (unsigned char)text[bad], bad - ls + 1);
        fail(diags, file, line, msg);
        return false;
    }
    scan_t s = {.text = text, .len = len};
    buf_init(&s.names);
    bool ok = true, expect_key = false;
    size_t line = 1;
    for (size_t i = 0; ok && i < len; i++) {
        i = token_stop(text, i, len);
        if (i >= len) break;
        release_upto(&rel, i);
        char c = text[i];
        if (c == '\n') {
            line++;
        } else if (c == '{' || c == '[') {
            s.frames = vec_grow(s.frames, &s.fcap, s.nframes + 1, sizeof *s.frames);
            s.frames[s.nframes++] = c == '{' ? s.nkeys : SIZE_MAX;
            expect_key = c == '{';
        } else if (c == ',') {
            expect_key = s.nframes && s.frames[s.nframes - 1] != SIZE_MAX;
        } else if (c == '}' || c == ']') {
            if (!s.nframes) break; /* a syntax error: the parser reports it */
            size_t first = s.frames[--s.nframes];
            expect_key = false;
            if (first == SIZE_MAX) continue;
            size_t n = s.nkeys - first;
            /* where this object's names start (the first key's; sorting below reorders them): its names
             * go with it, so what is held is the open objects' names, not every name read so far */
            size_t names_from = s.names.len;
            for (size_t k = first; k < s.nkeys; k++)
                if (s.keys[k].off < names_from) names_from = s.keys[k].off;
            if (n > 1) {
                sort_keys(&s, s.keys + first, n);
                for (size_t k = first + 1; k < s.nkeys; k++) {
                    const jkey_t *a = &s.keys[k - 1], *b = &s.keys[k];
                    if (a->len != b->len || memcmp(key_at(&s, a), key_at(&s, b), a->len) != 0) continue;
                    char *shown = show_key(key_at(&s, b), b->len);
                    size_t need = strlen(shown) + 200;
                    char *msg = malloc(need);
                    snprintf(msg, need,
                             "duplicate key '%s' in a JSON object (first at line %zu): remove one of them, "
                             "cimport does not guess which one is meant",
                             shown, a->line);
                    fail(diags, file, b->line, msg);
                    free(msg);
                    free(shown);
                    ok = false;
                    break;
                }
            }
            s.nkeys = first;
            s.names.len = names_from;
        } else if (c == '"') {
            bool is_key = expect_key;
            expect_key = false;
            size_t koff = s.names.len;
            size_t kline = line;
            for (i++; i < len; i++) {
                size_t run = string_stop(text, i, len); /* plain bytes up to a quote, backslash, line break */
                if (is_key && run > i) buf_append(&s.names, text + i, run - i);
                i = run;
                if (i >= len || text[i] == '"') break;
                char sc = text[i];
                if (sc == '\n') {
                    line++;
                    if (is_key) buf_putc(&s.names, sc);
                    continue;
                }
                if (++i >= len) break; /* sc is a backslash */
                char e = text[i];
                if (e == 'u' && i + 4 < len) {
                    int v = hex4(text + i + 1);
                    if (v == 0) {
                        fail(diags, file, line,
                             "a string holds a NUL character (\\u0000): names, IDs, tokens and values cannot "
                             "contain NUL; remove it");
                        ok = false;
                        break;
                    }
                    if (is_key && v > 0) {
                        uint32_t cp = (uint32_t)v;
                        if (cp >= 0xD800 && cp <= 0xDBFF && i + 10 < len && text[i + 5] == '\\' && text[i + 6] == 'u') {
                            int lo = hex4(text + i + 7);
                            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                                cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                                i += 6;
                            }
                        }
                        buf_put_utf8(&s.names, cp);
                    }
                    i += 4;
                } else if (is_key) {
                    const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
                    const char *p = e ? strchr(from, e) : NULL;
                    buf_putc(&s.names, p ? to[p - from] : e);
                }
            }
            if (is_key && s.nframes && s.frames[s.nframes - 1] != SIZE_MAX) {
                s.keys = vec_grow(s.keys, &s.cap, s.nkeys + 1, sizeof *s.keys);
                s.keys[s.nkeys++] = (jkey_t){.off = koff, .len = s.names.len - koff, .line = kline};
            }
        }
    }
    buf_free(&s.names);
    free(s.keys);
    free(s.frames);
    return ok;
}

bool json_strict_check(const char *text, size_t len, const char *file, diag_list_t *diags) {
    return strict_check(text, len, file, diags, false);
}

bool json_strict_check_mapped(const char *map, size_t len, const char *file, diag_list_t *diags) {
    return strict_check(map, len, file, diags, true);
}

#define JSON_STRICT_THREAD_MIN ((size_t)1 << 20)

static void *strict_job_run(void *arg) {
    json_strict_job_t *j = arg;
    j->ok = json_strict_check_mapped(j->map, j->len, j->file, &j->diags);
    return NULL;
}

void json_strict_start(json_strict_job_t *j, const char *map, size_t len, const char *file) {
    *j = (json_strict_job_t){.map = map, .len = len, .file = file};
    diag_list_init(&j->diags);
    /* a small document is checked in json_strict_finish: a thread would cost more than the check */
    j->threaded = len >= JSON_STRICT_THREAD_MIN && pthread_create(&j->thread, NULL, strict_job_run, j) == 0;
}

bool json_strict_finish(json_strict_job_t *j, bool use, diag_list_t *diags) {
    if (j->threaded)
        pthread_join(j->thread, NULL);
    else if (use)
        strict_job_run(j);
    j->threaded = false;
    if (use) diag_list_move(diags, &j->diags);
    diag_list_free(&j->diags);
    return !use || j->ok;
}

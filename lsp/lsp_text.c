/* lsp_text.c — text documents for the language server: LSP positions (line + UTF-16 or UTF-8 code
 * units) to byte offsets and back, incremental changes, the smallest edits between two texts, and
 * file URIs.
 *
 * Documents are UTF-8 bytes. LSP counts `character` in UTF-16 code units unless the client and
 * server agreed on UTF-8, so a position on a line with "é" or "😀" is not a byte column: each
 * character is decoded from its UTF-8 lead byte (1 unit below U+10000, 2 units — a surrogate pair —
 * above). Lines end at LF, CRLF or a lone CR, as LSP defines them. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "base/vec.h"
#include "lsp/lsp_internal.h"

/* Bytes of the UTF-8 character starting with lead byte c (1 for a stray continuation byte, so
 * invalid text still advances). */
static size_t txt_char_len(unsigned char c) {
    if (c < 0xC0) return 1;
    if (c < 0xE0) return 2;
    if (c < 0xF0) return 3;
    return 4;
}

static bool txt_is_cont(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

/* Code units of the character starting at text[i] (whose byte length is n). */
static size_t txt_units(size_t n, lsp_encoding_t enc) {
    if (enc == LSP_ENC_UTF8) return n;
    return n == 4 ? 2 : 1;
}

/* Start of line `line` (0-based), or len when the text has fewer lines. */
static size_t txt_line_start(const char *text, size_t len, long line) {
    size_t i = 0;
    long l = 0;
    while (l < line && i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        const char *cr = memchr(text + i, '\r', nl ? (size_t)(nl - (text + i)) : len - i);
        if (cr && (cr + 1 == text + len || cr[1] != '\n')) {
            i = (size_t)(cr - text) + 1; /* a lone CR ends the line */
        } else if (nl) {
            i = (size_t)(nl - text) + 1;
        } else {
            return len;
        }
        l++;
    }
    return l == line ? i : len;
}

size_t lsp_text_offset(const char *text, size_t len, long line, long character, lsp_encoding_t enc) {
    if (line < 0) return 0;
    size_t i = txt_line_start(text, len, line);
    if (character <= 0) return i;
    size_t units = 0;
    while (i < len && text[i] != '\n' && text[i] != '\r') {
        size_t n = txt_char_len((unsigned char)text[i]);
        if (i + n > len) n = len - i;
        size_t u = txt_units(n, enc);
        if (units + u > (size_t)character) break; /* inside a character: its start */
        units += u;
        i += n;
        if (units == (size_t)character) break;
    }
    return i;
}

void lsp_text_position(const char *text, size_t len, size_t offset, lsp_encoding_t enc, long *line, long *character) {
    if (offset > len) offset = len;
    long l = 0;
    size_t start = 0;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
            l++;
            start = i + 1;
        }
    }
    size_t units = 0;
    for (size_t i = start; i < offset;) {
        size_t n = txt_char_len((unsigned char)text[i]);
        if (i + n > offset) n = offset - i;
        units += txt_units(n, enc);
        i += n;
    }
    *line = l;
    *character = (long)units;
}

void lsp_text_replace(char **text, size_t *len, size_t start, size_t end, const char *with, size_t n) {
    if (end > *len) end = *len;
    if (start > end) start = end;
    size_t new_len = *len - (end - start) + n;
    char *t = *text;
    if (n > end - start) {
        t = realloc(t, new_len + 1);
        if (!t) abort();
    }
    memmove(t + start + n, t + end, *len - end);
    memcpy(t + start, with, n);
    t[new_len] = '\0';
    *text = t;
    *len = new_len;
}

/* ---------- diff ---------- */

/* Byte offset of the start of each line (lines end after '\n', as libgit2's xdiff splits them);
 * offs[n] = len. Returns n, the number of lines. */
static size_t txt_line_starts(const char *t, size_t len, size_t **out) {
    size_t *offs = NULL, cap = 0, n = 0;
    for (size_t i = 0; i < len;) {
        offs = vec_grow(offs, &cap, n + 2, sizeof *offs);
        offs[n++] = i;
        const char *nl = memchr(t + i, '\n', len - i);
        i = nl ? (size_t)(nl - t) + 1 : len;
    }
    offs = vec_grow(offs, &cap, n + 1, sizeof *offs);
    offs[n] = len;
    *out = offs;
    return n;
}

/* Adds the change old[oa, ob) → new[na, nb), narrowed to the bytes that differ. */
static void txt_add_hunk(vec_t *edits, const char *a, size_t alen, size_t oa, size_t ob, const char *b, size_t na,
                         size_t nb) {
    size_t p = 0;
    while (oa + p < ob && na + p < nb && a[oa + p] == b[na + p])
        p++;
    /* never end the common part inside a UTF-8 character or between CR and LF */
    while (p > 0 && ((oa + p < alen && txt_is_cont((unsigned char)a[oa + p])) ||
                     (na + p < nb && txt_is_cont((unsigned char)b[na + p])) ||
                     (a[oa + p - 1] == '\r' && oa + p < alen && a[oa + p] == '\n')))
        p--;
    size_t s = 0;
    while (oa + p + s < ob && na + p + s < nb && a[ob - 1 - s] == b[nb - 1 - s])
        s++;
    while (s > 0 && (txt_is_cont((unsigned char)a[ob - s]) || txt_is_cont((unsigned char)b[nb - s]) ||
                     (a[ob - s] == '\n' && ob - s > 0 && a[ob - s - 1] == '\r')))
        s--;
    if (oa + p == ob - s && na + p == nb - s) return;
    VEC_PUSH(edits, lsp_edit_t,
             ((lsp_edit_t){.old_start = oa + p, .old_end = ob - s, .new_start = na + p, .new_end = nb - s}));
}

/* First line (0-based) of a hunk side: libgit2 numbers lines from 1, and a side with no lines
 * names the line it follows. */
static size_t txt_hunk_first(int start, int lines) {
    return (size_t)(lines ? start - 1 : start);
}

void lsp_text_diff_hold(void) {
    git_libgit2_init();
}

void lsp_text_diff_release(void) {
    git_libgit2_shutdown();
}

size_t lsp_text_diff(const char *old_text, size_t old_len, const char *new_text, size_t new_len, lsp_edit_t **out) {
    *out = NULL;
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0) return 0;
    /* The common first and last whole lines are no part of the diff: cut them off before libgit2,
     * which would otherwise hash every line of a large document for an edit at one place. */
    size_t pre = 0, max = old_len < new_len ? old_len : new_len;
    while (pre < max && old_text[pre] == new_text[pre])
        pre++;
    while (pre > 0 && old_text[pre - 1] != '\n')
        pre--;
    size_t suf = 0;
    while (suf < max - pre && old_text[old_len - 1 - suf] == new_text[new_len - 1 - suf])
        suf++;
    while (suf > 0 && !((old_len - suf == pre || old_text[old_len - suf - 1] == '\n') &&
                        (new_len - suf == pre || new_text[new_len - suf - 1] == '\n')))
        suf--;
    const char *a = old_text + pre, *b = new_text + pre;
    size_t alen = old_len - pre - suf, blen = new_len - pre - suf;
    /* libgit2's line diff (xdiff, minimal Myers), no context lines: each hunk is one changed run of
     * lines. init/shutdown are reference counted, so pairing them here is safe (and cheap while the
     * server holds libgit2: lsp_text_diff_hold). */
    git_libgit2_init();
    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    opts.context_lines = 0;
    opts.interhunk_lines = 0;
    opts.flags |= GIT_DIFF_FORCE_TEXT | GIT_DIFF_MINIMAL;
    git_patch *patch = NULL;
    vec_t edits = VEC_INIT(lsp_edit_t);
    if (git_patch_from_buffers(&patch, a, alen, NULL, b, blen, NULL, &opts) == 0) {
        size_t *ao, *bo;
        size_t na = txt_line_starts(a, alen, &ao);
        size_t nb = txt_line_starts(b, blen, &bo);
        size_t nh = git_patch_num_hunks(patch);
        for (size_t i = 0; i < nh; i++) {
            const git_diff_hunk *h = NULL;
            if (git_patch_get_hunk(&h, NULL, patch, i) != 0) continue;
            size_t o0 = txt_hunk_first(h->old_start, h->old_lines), o1 = o0 + (size_t)h->old_lines;
            size_t n0 = txt_hunk_first(h->new_start, h->new_lines), n1 = n0 + (size_t)h->new_lines;
            if (o1 > na) o1 = na;
            if (o0 > o1) o0 = o1;
            if (n1 > nb) n1 = nb;
            if (n0 > n1) n0 = n1;
            txt_add_hunk(&edits, old_text, old_len, pre + ao[o0], pre + ao[o1], new_text, pre + bo[n0], pre + bo[n1]);
        }
        git_patch_free(patch);
        free(ao);
        free(bo);
    } else {
        /* libgit2 could not diff (out of memory): one edit for the middle is still correct */
        txt_add_hunk(&edits, old_text, old_len, pre, old_len - suf, new_text, pre, new_len - suf);
    }
    git_libgit2_shutdown();
    size_t n = 0;
    *out = vec_steal(&edits, &n);
    return n;
}

cJSON *lsp_edits_json(const char *old_text, size_t old_len, const char *new_text, const lsp_edit_t *edits, size_t n,
                      lsp_encoding_t enc) {
    cJSON *arr = cJSON_CreateArray();
    /* Positions are computed in one pass: the edits are sorted, so the scan only moves forward. */
    size_t scanned = 0, line_start = 0;
    long line = 0;
    for (size_t i = 0; i < n; i++) {
        size_t offs[2] = {edits[i].old_start, edits[i].old_end};
        long pl[2], pc[2];
        for (int j = 0; j < 2; j++) {
            size_t o = offs[j] > old_len ? old_len : offs[j];
            for (; scanned < o; scanned++) {
                char c = old_text[scanned];
                if (c == '\n' || (c == '\r' && (scanned + 1 >= old_len || old_text[scanned + 1] != '\n'))) {
                    line++;
                    line_start = scanned + 1;
                }
            }
            size_t units = 0;
            for (size_t k = line_start; k < o;) {
                size_t cl = txt_char_len((unsigned char)old_text[k]);
                if (k + cl > o) cl = o - k;
                units += txt_units(cl, enc);
                k += cl;
            }
            pl[j] = line;
            pc[j] = (long)units;
        }
        cJSON *te = cJSON_CreateObject();
        cJSON *range = cJSON_AddObjectToObject(te, "range");
        cJSON *s = cJSON_AddObjectToObject(range, "start");
        cJSON_AddNumberToObject(s, "line", (double)pl[0]);
        cJSON_AddNumberToObject(s, "character", (double)pc[0]);
        cJSON *en = cJSON_AddObjectToObject(range, "end");
        cJSON_AddNumberToObject(en, "line", (double)pl[1]);
        cJSON_AddNumberToObject(en, "character", (double)pc[1]);
        size_t tl = edits[i].new_end - edits[i].new_start;
        char *t = malloc(tl + 1);
        if (!t) abort();
        if (tl) memcpy(t, new_text + edits[i].new_start, tl);
        t[tl] = '\0';
        cJSON_AddStringToObject(te, "newText", t);
        free(t);
        cJSON_AddItemToArray(arr, te);
    }
    return arr;
}

/* ---------- URIs ---------- */

static int txt_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

char *lsp_uri_to_path(const char *uri) {
    if (!uri || strncmp(uri, "file://", 7) != 0) return NULL;
    const char *p = uri + 7;
    /* file://host/path: only an empty host or localhost names this machine */
    if (*p != '/') {
        if (strncmp(p, "localhost/", 10) != 0) return NULL;
        p += 9;
    }
    size_t n = strlen(p);
    char *out = malloc(n + 1);
    if (!out) abort();
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '%' && i + 2 < n && txt_hex(p[i + 1]) >= 0 && txt_hex(p[i + 2]) >= 0) {
            out[o++] = (char)(txt_hex(p[i + 1]) * 16 + txt_hex(p[i + 2]));
            i += 2;
        } else if (p[i] == '?' || p[i] == '#') {
            break;
        } else {
            out[o++] = p[i];
        }
    }
    out[o] = '\0';
    return out;
}

char *lsp_path_to_uri(const char *path) {
    char cwd[PATH_MAX];
    const char *prefix = "";
    if (path[0] != '/') {
        if (!getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
        prefix = cwd;
    }
    size_t n = strlen(prefix) + 1 + strlen(path);
    char *out = malloc(7 + 3 * n + 1);
    if (!out) abort();
    size_t o = 0;
    memcpy(out, "file://", 7);
    o = 7;
    static const char hexd[] = "0123456789ABCDEF";
    for (int part = 0; part < 2; part++) {
        const char *s = part == 0 ? prefix : path;
        if (part == 1 && prefix[0] && (o == 7 || out[o - 1] != '/')) out[o++] = '/';
        for (; *s; s++) {
            unsigned char c = (unsigned char)*s;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~/", c)) {
                out[o++] = (char)c;
            } else {
                out[o++] = '%';
                out[o++] = hexd[c >> 4];
                out[o++] = hexd[c & 15];
            }
        }
    }
    out[o] = '\0';
    return out;
}

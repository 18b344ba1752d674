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

#include "cli/lsp_internal.h"

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

typedef struct txt_line {
    size_t off, len;
    uint64_t hash;
} txt_line_t;

static size_t txt_split(const char *t, size_t len, txt_line_t **out) {
    size_t n = 0, cap = 64;
    txt_line_t *v = malloc(cap * sizeof *v);
    if (!v) abort();
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(t + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - t) + 1 : len;
        if (n == cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            if (!v) abort();
        }
        uint64_t h = 1469598103934665603ull; /* FNV-1a */
        for (size_t k = i; k < e; k++)
            h = (h ^ (unsigned char)t[k]) * 1099511628211ull;
        v[n++] = (txt_line_t){.off = i, .len = e - i, .hash = h};
        i = e;
    }
    *out = v;
    return n;
}

static bool txt_line_eq(const char *a, const txt_line_t *x, const char *b, const txt_line_t *y) {
    return x->hash == y->hash && x->len == y->len && memcmp(a + x->off, b + y->off, x->len) == 0;
}

typedef struct txt_edits {
    lsp_edit_t *v;
    size_t n, cap;
} txt_edits_t;

/* Adds the change old[oa, ob) → new[na, nb), narrowed to the bytes that differ. */
static void txt_add_hunk(txt_edits_t *e, const char *a, size_t alen, size_t oa, size_t ob, const char *b, size_t na,
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
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 8;
        e->v = realloc(e->v, e->cap * sizeof *e->v);
        if (!e->v) abort();
    }
    e->v[e->n++] = (lsp_edit_t){.old_start = oa + p, .old_end = ob - s, .new_start = na + p, .new_end = nb - s};
}

/* Beyond this many differing lines the middle becomes one edit (Myers' trace grows as D²). */
#define TXT_MAX_D 2000

size_t lsp_text_diff(const char *old_text, size_t old_len, const char *new_text, size_t new_len, lsp_edit_t **out) {
    *out = NULL;
    txt_line_t *A, *B;
    size_t na = txt_split(old_text, old_len, &A);
    size_t nb = txt_split(new_text, new_len, &B);
    size_t pre = 0;
    while (pre < na && pre < nb && txt_line_eq(old_text, &A[pre], new_text, &B[pre]))
        pre++;
    size_t suf = 0;
    while (suf < na - pre && suf < nb - pre && txt_line_eq(old_text, &A[na - 1 - suf], new_text, &B[nb - 1 - suf]))
        suf++;
    txt_edits_t e = {0};
    const txt_line_t *a = A + pre, *b = B + pre;
    long N = (long)(na - pre - suf), M = (long)(nb - pre - suf);
    size_t ostart = pre < na ? A[pre].off : old_len, nstart = pre < nb ? B[pre].off : new_len;
    size_t oend = suf ? A[na - suf].off : old_len, nend = suf ? B[nb - suf].off : new_len;
    if (N == 0 || M == 0) {
        txt_add_hunk(&e, old_text, old_len, ostart, oend, new_text, nstart, nend);
        goto done;
    }
    {
        /* Myers' greedy forward search, keeping V of every round for the way back. */
        long max = N + M;
        long dmax = max < TXT_MAX_D ? max : TXT_MAX_D;
        long *V = malloc((size_t)(2 * max + 3) * sizeof *V);
        long **trace = calloc((size_t)dmax + 1, sizeof *trace);
        if (!V || !trace) abort();
        long off = max + 1;
        V[off + 1] = 0;
        long D = -1;
        for (long d = 0; d <= dmax && D < 0; d++) {
            for (long k = -d; k <= d; k += 2) {
                long x = (k == -d || (k != d && V[off + k - 1] < V[off + k + 1])) ? V[off + k + 1] : V[off + k - 1] + 1;
                long y = x - k;
                while (x < N && y < M && txt_line_eq(old_text, &a[x], new_text, &b[y]))
                    x++, y++;
                V[off + k] = x;
                if (x >= N && y >= M) D = d;
            }
            trace[d] = malloc((size_t)(2 * d + 1) * sizeof **trace);
            if (!trace[d]) abort();
            memcpy(trace[d], V + off - d, (size_t)(2 * d + 1) * sizeof *V);
        }
        if (D < 0) {
            txt_add_hunk(&e, old_text, old_len, ostart, oend, new_text, nstart, nend);
        } else {
            /* Walk back from (N, M), recording the snakes' starts; hunks lie between snakes. */
            long *sx = malloc((size_t)(D + 2) * 2 * sizeof *sx);
            if (!sx) abort();
            long x = N, y = M, ns = 0;
            for (long d = D; d > 0; d--) {
                long k = x - y;
                const long *Vp = trace[d - 1]; /* index k' → Vp[k' + d - 1] */
                long pk = (k == -d || (k != d && Vp[k - 1 + d - 1] < Vp[k + 1 + d - 1])) ? k + 1 : k - 1;
                long px = Vp[pk + d - 1], py = px - pk;
                long mx = pk == k + 1 ? px : px + 1; /* after the edit step */
                long my = mx - k;
                /* the snake from (mx, my) to (x, y) is equal; the step (px,py)→(mx,my) is an edit */
                sx[2 * ns] = mx;
                sx[2 * ns + 1] = my;
                ns++;
                x = px;
                y = py;
            }
            /* Edit steps in forward order: from (x, y) after the initial snake. Merge adjacent steps. */
            long cx = 0, cy = 0;
            while (cx < N && cy < M && txt_line_eq(old_text, &a[cx], new_text, &b[cy]))
                cx++, cy++;
            long hx = -1, hy = -1; /* open hunk start */
            for (long i = ns - 1; i >= 0; i--) {
                long mx = sx[2 * i], my = sx[2 * i + 1];
                if (hx < 0) hx = cx, hy = cy;
                cx = mx;
                cy = my;
                /* follow the snake after this step */
                long sx0 = cx, sy0 = cy;
                while (cx < N && cy < M && txt_line_eq(old_text, &a[cx], new_text, &b[cy]))
                    cx++, cy++;
                if (cx > sx0 || i == 0) {
                    size_t o0 = hx < N ? a[hx].off : oend, o1 = sx0 < N ? a[sx0].off : oend;
                    size_t n0 = hy < M ? b[hy].off : nend, n1 = sy0 < M ? b[sy0].off : nend;
                    txt_add_hunk(&e, old_text, old_len, o0, o1, new_text, n0, n1);
                    hx = hy = -1;
                }
            }
            free(sx);
        }
        for (long d = 0; d <= dmax; d++)
            free(trace[d]);
        free(trace);
        free(V);
    }
done:
    free(A);
    free(B);
    *out = e.v;
    return e.n;
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

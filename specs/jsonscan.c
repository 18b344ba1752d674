/* jsonscan.c — validating structural JSON scanner (see jsonscan.h). */
#include "specs/jsonscan.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "base/swar.h"

void jscan_init(jscan_t *s, const char *text, size_t len) {
    memset(s, 0, sizeof *s);
    s->text = text;
    s->len = len;
}

/* What a string cut off by the end of the text is missing (s->pos: the end, so that a reader can
 * tell the text is cut off, not malformed). */
#define JSCAN_STRING_CUT "the closing quote of a string, but the text ends"

/* Whether t[from..n) is the start of an escape `\uXXXX` cut off by the end (its backslash at least). */
static bool escape_cut(const unsigned char *t, size_t from, size_t n) {
    for (size_t k = from; k < n; k++) {
        size_t i = k - from;
        if (i >= 6 || (i == 0 && t[k] != '\\') || (i == 1 && t[k] != 'u') || (i > 1 && !isxdigit(t[k]))) return false;
    }
    return from < n;
}

static bool fail(jscan_t *s, const char *what) {
    if (!s->err) {
        s->err = what;
        s->err_pos = s->pos;
    }
    return false;
}

bool jscan_ws(jscan_t *s) {
    const char *t = s->text;
    size_t p = s->pos, n = s->len;
    while (p < n && (t[p] == ' ' || t[p] == '\n' || t[p] == '\r' || t[p] == '\t'))
        p++;
    s->pos = p;
    return p < n;
}

char jscan_peek(jscan_t *s) {
    return jscan_ws(s) ? s->text[s->pos] : 0;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The four hex digits after a \u as a code unit 0..0xFFFF, or -1 when one is not a hex digit. The
 * digits are checked before any is shifted (a -1 shifted left is undefined behaviour). */
static long hex4(const unsigned char *t) {
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hexval((char)t[i]);
        if (d < 0) return -1;
        v = v << 4 | d;
    }
    return v;
}

/* At '"': steps over the string; *escaped set when it holds a backslash. */
static bool scan_string(jscan_t *s, bool *escaped) {
    const unsigned char *t = (const unsigned char *)s->text;
    size_t p = s->pos + 1, n = s->len;
    bool esc = false;
    for (;;) {
        /* The hot loop: plain bytes, sixteen (SSE2) or eight at a time while they last. */
#if SWAR_SSE2
        while (n - p >= 16) {
            unsigned m16 = swar_string_stops16(t + p, 1);
            if (m16) {
                p += (size_t)__builtin_ctz(m16);
                goto stopped;
            }
            p += 16;
        }
#endif
#if SWAR_OK
        while (n - p >= 8) {
            uint64_t w = swar_load(t + p);
            uint64_t m = swar_eq(w, '"') | swar_eq(w, '\\') | swar_below(w, 0x20);
            if (m) {
                p += swar_first(m);
                break;
            }
            p += 8;
        }
#endif
        while (p < n && t[p] != '"' && t[p] != '\\' && t[p] >= 0x20)
            p++;
#if SWAR_SSE2
    stopped:
#endif
        if (p >= n) {
            s->pos = p;
            return fail(s, JSCAN_STRING_CUT);
        }
        if (t[p] == '"') break;
        if (t[p] < 0x20) {
            s->pos = p;
            return fail(s, "no control character inside a string (it must be escaped)");
        }
        esc = true;
        if (p + 1 >= n) { /* cut right after the backslash */
            s->pos = n;
            return fail(s, JSCAN_STRING_CUT);
        }
        switch (t[p + 1]) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't': p += 2; break;
        case 'u':
            if (p + 6 > n && escape_cut(t, p, n)) { /* cut inside its digits */
                s->pos = n;
                return fail(s, JSCAN_STRING_CUT);
            }
            if (p + 6 > n || hex4(t + p + 2) < 0) {
                s->pos = p;
                return fail(s, "four hex digits after \\u in a string");
            }
            {
                /* UTF-16 surrogates must pair up (cJSON refuses a lone one). */
                long cp = hex4(t + p + 2);
                if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    s->pos = p;
                    return fail(s, "a high surrogate \\u escape before this low one");
                }
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    long lo = -1;
                    if (p + 6 == n || (p + 12 > n && escape_cut(t, p + 6, n))) { /* cut before its low half */
                        s->pos = n;
                        return fail(s, JSCAN_STRING_CUT);
                    }
                    if (p + 12 <= n && t[p + 6] == '\\' && t[p + 7] == 'u') lo = hex4(t + p + 8);
                    if (lo < 0xDC00 || lo > 0xDFFF) {
                        s->pos = p;
                        return fail(s, "a low surrogate \\u escape after a high one");
                    }
                    p += 6;
                }
            }
            p += 6;
            break;
        default: s->pos = p; return fail(s, "an escape \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX in a string");
        }
    }
    s->pos = p + 1;
    if (escaped) *escaped = esc;
    return true;
}

static bool scan_number(jscan_t *s) {
    const char *t = s->text;
    size_t p = s->pos, n = s->len;
    if (p < n && t[p] == '-') p++;
    if (p < n && t[p] == '0')
        p++;
    else if (p < n && t[p] >= '1' && t[p] <= '9')
        while (p < n && t[p] >= '0' && t[p] <= '9')
            p++;
    else
        return fail(s, "a value (string, number, object, array, true, false or null)");
    if (p < n && t[p] == '.') {
        p++;
        if (!(p < n && t[p] >= '0' && t[p] <= '9')) {
            s->pos = p;
            return fail(s, "a digit after the decimal point");
        }
        while (p < n && t[p] >= '0' && t[p] <= '9')
            p++;
    }
    if (p < n && (t[p] == 'e' || t[p] == 'E')) {
        p++;
        if (p < n && (t[p] == '+' || t[p] == '-')) p++;
        if (!(p < n && t[p] >= '0' && t[p] <= '9')) {
            s->pos = p;
            return fail(s, "a digit in the exponent");
        }
        while (p < n && t[p] >= '0' && t[p] <= '9')
            p++;
    }
    s->pos = p;
    return true;
}

static bool scan_literal(jscan_t *s, const char *word, size_t n) {
    if (s->len - s->pos < n || memcmp(s->text + s->pos, word, n) != 0)
        return fail(s, "a value (string, number, object, array, true, false or null)");
    s->pos += n;
    return true;
}

/* Iterative skip of any value: a stack of container kinds (bit per level). */
static bool skip_value(jscan_t *s) {
    unsigned char stack[JSCAN_MAX_DEPTH];
    int depth = 0;
    const char *t = s->text;
    for (;;) {
        /* expect a value */
        if (!jscan_ws(s)) return fail(s, "a value, but the text ends");
        char c = t[s->pos];
        bool opened = false;
        switch (c) {
        case '"':
            if (!scan_string(s, NULL)) return false;
            break;
        case '{':
        case '[':
            if (depth == JSCAN_MAX_DEPTH) return fail(s, "less nesting (deeper than 1000 levels)");
            stack[depth++] = (unsigned char)c;
            s->pos++;
            opened = true;
            if (!jscan_ws(s)) return fail(s, "more of an object or array, but the text ends");
            if (t[s->pos] == (c == '{' ? '}' : ']')) {
                s->pos++;
                depth--;
                opened = false;
            } else if (c == '{') {
                if (t[s->pos] != '"') return fail(s, "a member name in double quotes");
                if (!scan_string(s, NULL)) return false;
                if (!jscan_ws(s) || t[s->pos] != ':') return fail(s, "':' after the member name");
                s->pos++;
            }
            break;
        case 't':
            if (!scan_literal(s, "true", 4)) return false;
            break;
        case 'f':
            if (!scan_literal(s, "false", 5)) return false;
            break;
        case 'n':
            if (!scan_literal(s, "null", 4)) return false;
            break;
        default:
            if (!scan_number(s)) return false;
        }
        if (opened) continue;
        /* after a value: close containers or move to the next member/element */
        for (;;) {
            if (depth == 0) return true;
            if (!jscan_ws(s)) return fail(s, "more of an object or array, but the text ends");
            char d = t[s->pos];
            char open = (char)stack[depth - 1];
            if (d == ',') {
                s->pos++;
                if (open == '{') {
                    if (!jscan_ws(s) || t[s->pos] != '"') return fail(s, "a member name in double quotes");
                    if (!scan_string(s, NULL)) return false;
                    if (!jscan_ws(s) || t[s->pos] != ':') return fail(s, "':' after the member name");
                    s->pos++;
                }
                break;
            }
            if (d == (open == '{' ? '}' : ']')) {
                s->pos++;
                depth--;
                continue;
            }
            return fail(s, open == '{' ? "',' or '}' in an object" : "',' or ']' in an array");
        }
    }
}

bool jscan_value(jscan_t *s, jscan_range_t *r) {
    if (!jscan_ws(s)) return fail(s, "a value, but the text ends");
    size_t start = s->pos;
    if (!skip_value(s)) return false;
    if (r) *r = (jscan_range_t){start, s->pos};
    return true;
}

bool jscan_object_begin(jscan_t *s) {
    if (!jscan_ws(s) || s->text[s->pos] != '{') return fail(s, "an object");
    s->pos++;
    return true;
}

bool jscan_object_next(jscan_t *s, bool *first, jscan_range_t *key, bool *key_escaped, bool *done) {
    *done = false;
    if (!jscan_ws(s)) return fail(s, "more of an object, but the text ends");
    char c = s->text[s->pos];
    if (c == '}') {
        s->pos++;
        *done = true;
        return true;
    }
    if (!*first) {
        if (c != ',') return fail(s, "',' or '}' in an object");
        s->pos++;
        if (!jscan_ws(s)) return fail(s, "more of an object, but the text ends");
    }
    *first = false;
    if (s->text[s->pos] != '"') return fail(s, "a member name in double quotes");
    size_t ks = s->pos;
    bool esc = false;
    if (!scan_string(s, &esc)) return false;
    if (key) *key = (jscan_range_t){ks + 1, s->pos - 1};
    if (key_escaped) *key_escaped = esc;
    if (!jscan_ws(s) || s->text[s->pos] != ':') return fail(s, "':' after the member name");
    s->pos++;
    return true;
}

bool jscan_array_begin(jscan_t *s) {
    if (!jscan_ws(s) || s->text[s->pos] != '[') return fail(s, "an array");
    s->pos++;
    return true;
}

bool jscan_array_next(jscan_t *s, bool *first, bool *done) {
    *done = false;
    if (!jscan_ws(s)) return fail(s, "more of an array, but the text ends");
    char c = s->text[s->pos];
    if (c == ']') {
        s->pos++;
        *done = true;
        return true;
    }
    if (!*first) {
        if (c != ',') return fail(s, "',' or ']' in an array");
        s->pos++;
    }
    *first = false;
    return true;
}

bool jscan_end(jscan_t *s) {
    if (jscan_ws(s)) return fail(s, "the end of the text after the top-level value");
    return true;
}

/* The escape at *pp (a backslash) of a string ending before `end`, decoded as cJSON decodes it (\u
 * escapes to UTF-8, a surrogate pair joined) into out; the bytes written, *pp moved past it, or -1
 * for an escape cJSON refuses (a bad or lone surrogate). */
static int decode_escape(const unsigned char **pp, const unsigned char *end, char out[4]) {
    const unsigned char *p = *pp;
    if (end - p < 2) return -1;
    unsigned char e = p[1];
    const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
    const char *hit = e != 'u' && e ? strchr(from, e) : NULL;
    if (hit) {
        out[0] = to[hit - from];
        *pp = p + 2;
        return 1;
    }
    if (e != 'u' || end - p < 6) return -1;
    long cp = hex4(p + 2);
    p += 6;
    if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF)) return -1;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        long lo = end - p >= 6 && p[0] == '\\' && p[1] == 'u' ? hex4(p + 2) : -1;
        if (lo < 0xDC00 || lo > 0xDFFF) return -1;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        p += 6;
    }
    *pp = p;
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18);
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

bool jscan_key_is(const jscan_t *s, jscan_range_t key, bool escaped, const char *name) {
    size_t n = strlen(name);
    if (!escaped) return key.end - key.start == n && memcmp(s->text + key.start, name, n) == 0;
    /* Compared decoded, as cJSON finds a member: "\u0063ustom" is `custom`. */
    const unsigned char *p = (const unsigned char *)s->text + key.start,
                        *end = (const unsigned char *)s->text + key.end;
    size_t o = 0;
    while (p < end) {
        char b[4];
        int k = 1;
        if (*p != '\\')
            b[0] = (char)*p++;
        else if ((k = decode_escape(&p, end, b)) < 0)
            return false;
        if (o + (size_t)k > n || memcmp(name + o, b, (size_t)k) != 0) return false;
        o += (size_t)k;
    }
    return o == n;
}

char *jscan_string(arena_t *a, const jscan_t *s, jscan_range_t r) {
    const char *t = s->text + r.start;
    size_t n = r.end - r.start;
    if (n < 2 || t[0] != '"' || t[n - 1] != '"') return NULL;
    if (!memchr(t, '\\', n)) return arena_strndup(a, t + 1, n - 2);
    /* The text never grows when decoded, so n bytes are room enough. */
    char *out = arena_alloc(a, n);
    const unsigned char *p = (const unsigned char *)t + 1, *end = (const unsigned char *)t + n - 1;
    size_t o = 0;
    while (p < end) {
        if (*p != '\\') {
            out[o++] = (char)*p++;
            continue;
        }
        int k = decode_escape(&p, end, out + o);
        if (k < 0) return NULL;
        o += (size_t)k;
    }
    out[o] = 0;
    return out;
}

size_t jscan_line(const jscan_t *s, size_t pos) {
    size_t line = 1;
    if (pos > s->len) pos = s->len;
    for (const char *p = s->text, *e = s->text + pos; (p = memchr(p, '\n', (size_t)(e - p))); p++)
        line++;
    return line;
}

/* parse.c — PCL text in: a recursive-descent parser for Pulumi's PCL.
 *
 * Accepts package, resource, component, config, output and hook blocks and top-level locals
 * (`name = expr`); attributes and one `options` block; literals, tuples, objects (`=` or `:`,
 * newline or comma separated, trailing commas), traversals, index and attribute access on any
 * expression, splats (`x[*].a`), function calls, parentheses, unary `!`/`-`, binary operators with
 * HCL's precedence, conditionals, `[for ...]`/`{for ...}` expressions; quoted strings and heredocs
 * (`<<EOT`, indented `<<-EOT`) with HCL escapes and `${...}` interpolation (PCL_TEMPLATE); comments
 * (line `//` and `#`, block slash-star). Template directives (`%{`), strip markers and for-grouping
 * (`...`) are reported. Every expression records its position, so emitters can refuse what they
 * cannot write by file:line:col. The first error stops the parse: "<file>:<line>:<col>: <what>". */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "pcl/pcl_internal.h"
#include "specs/json_strict.h"

typedef struct parser {
    const char *s;
    size_t len, pos;
    int line, col;
    const char *file;
    diag_list_t *diags;
    pcl_program_t *prog;
    arena_t *a;
    pcl_smap_t declared; /* resource, component and config names (a linear duplicate check) */
    bool failed;
    int depth; /* expression nesting, capped at PCL_MAX_DEPTH */
    int nest;  /* inside ( ), [ ] or ${ }: newlines do not end the expression */
} parser_t;

/* Deeper expressions are refused: every walk over an expression may then recurse. */
#define PCL_MAX_DEPTH 200

/* The parts of a template being read (string chunks and interpolated expressions). */
typedef struct parts {
    pcl_expr_t **items;
    size_t n, cap;
} parts_t;

static bool fail_at(parser_t *p, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool fail_at(parser_t *p, int line, int col, const char *fmt, ...) {
    if (p->failed) return false;
    p->failed = true;
    va_list ap;
    va_start(ap, fmt);
    const char *what = arena_vsprintf(p->a, fmt, ap);
    va_end(ap);
    /* the whole location goes into the message so diag_format does not repeat the line */
    diag_t *d = diag_add(p->diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL, "%s:%d:%d: %s", p->file, line, col, what);
    if (d) d->line = line;
    return false;
}

#define FAIL(p, ...) fail_at((p), (p)->line, (p)->col, __VA_ARGS__)

static int peek(const parser_t *p) {
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}
static int peek_at(const parser_t *p, size_t k) {
    return p->pos + k < p->len ? (unsigned char)p->s[p->pos + k] : -1;
}

static void advance(parser_t *p) {
    if (p->pos >= p->len) return;
    if (p->s[p->pos] == '\n') {
        p->line++;
        p->col = 1;
    } else {
        p->col++;
    }
    p->pos++;
}

/* Skips blanks and comments; newlines too when `newlines`. A block comment counts as a blank. */
static bool skip_ws(parser_t *p, bool newlines) {
    for (;;) {
        int c = peek(p);
        if (c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n')) {
            advance(p);
        } else if (c == '#' || (c == '/' && peek_at(p, 1) == '/')) {
            while (peek(p) != -1 && peek(p) != '\n')
                advance(p);
        } else if (c == '/' && peek_at(p, 1) == '*') {
            int l = p->line, col = p->col;
            advance(p);
            advance(p);
            while (peek(p) != -1 && !(peek(p) == '*' && peek_at(p, 1) == '/'))
                advance(p);
            if (peek(p) == -1) return fail_at(p, l, col, "unterminated /* comment");
            advance(p);
            advance(p);
        } else {
            return true;
        }
    }
}

static bool is_ident_start(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
static bool is_ident_char(int c) {
    return is_ident_start(c) || (c >= '0' && c <= '9') || c == '-';
}

static const char *parse_ident(parser_t *p) {
    if (!is_ident_start(peek(p))) return NULL;
    size_t start = p->pos;
    while (peek(p) != -1 && is_ident_char(peek(p)))
        advance(p);
    return arena_strndup(p->a, p->s + start, p->pos - start);
}

static const char *describe_char(parser_t *p) {
    int c = peek(p);
    if (c == -1) return "end of file";
    if (c == '\n') return "end of line";
    if (c < 0x20 || c >= 0x7f) return arena_sprintf(p->a, "byte 0x%02X", c);
    return arena_sprintf(p->a, "'%c'", c);
}

static pcl_expr_t *new_expr(parser_t *p, pcl_expr_kind_t k) {
    pcl_expr_t *e = arena_alloc(p->a, sizeof *e);
    e->kind = k;
    e->line = p->line;
    e->col = p->col;
    return e;
}

static pcl_expr_t *parse_expr(parser_t *p);

static void parts_push(parser_t *p, parts_t *t, pcl_expr_t *e) {
    t->items = arena_grow_array(p->a, t->items, &t->cap, t->n + 1, sizeof(pcl_expr_t *));
    t->items[t->n++] = e;
}

/* The text read so far (b) becomes a string part of the template. */
static void parts_flush(parser_t *p, parts_t *t, buf_t *b, int line, int col) {
    if (!b->len) return;
    pcl_expr_t *e = new_expr(p, PCL_STRING);
    e->s = buf_arena_str(b, p->a);
    e->line = line;
    e->col = col;
    parts_push(p, t, e);
    b->len = 0;
    if (b->data) b->data[0] = 0;
}

/* Template text shared by quoted strings and heredocs: `$${` → `${`, `%%{` → `%{`; `${ expr }`
 * is an interpolation when `parts` collects them (values), an error otherwise (keys, labels);
 * `%{` directives are reported. Returns false on error; consumed chars are appended. */
static bool parse_template_sigil(parser_t *p, buf_t *b, parts_t *parts, int *chunk_line, int *chunk_col) {
    int c = peek(p);
    if (peek_at(p, 1) == c && peek_at(p, 2) == '{') {
        buf_putc(b, (char)c);
        buf_putc(b, '{');
        advance(p);
        advance(p);
        advance(p);
        return true;
    }
    if (peek_at(p, 1) == '{' && c == '$' && parts) {
        int l = p->line, col = p->col;
        parts_flush(p, parts, b, *chunk_line, *chunk_col);
        advance(p);
        advance(p);
        if (peek(p) == '~') return FAIL(p, "the template strip marker '${~' is not supported; remove the '~'");
        p->nest++;
        if (!skip_ws(p, true)) return false;
        pcl_expr_t *e = parse_expr(p);
        if (!e || !skip_ws(p, true)) return false;
        p->nest--;
        if (peek(p) == '~') return FAIL(p, "the template strip marker '~}' is not supported; remove the '~'");
        if (peek(p) != '}')
            return FAIL(p, "expected '}' to close the interpolation opened at %d:%d but found %s", l, col,
                        describe_char(p));
        advance(p);
        parts_push(p, parts, e);
        *chunk_line = p->line;
        *chunk_col = p->col;
        return true;
    }
    if (peek_at(p, 1) == '{')
        return FAIL(
            p,
            c == '$'
                ? "template interpolation '${' is not allowed here (a key or a label); write '$${' for a literal '${'"
                : "template directive '%%{' is not supported; write '%%%%{' for a literal '%%{'");
    buf_putc(b, (char)c);
    advance(p);
    return true;
}

/* A string value: PCL_STRING when it interpolates nothing, else PCL_TEMPLATE of its parts. */
static pcl_expr_t *finish_template(parser_t *p, parts_t *parts, buf_t *b, int line, int col, int chunk_line,
                                   int chunk_col) {
    pcl_expr_t *e;
    if (parts->n == 0) {
        e = new_expr(p, PCL_STRING);
        e->s = buf_arena_str(b, p->a);
    } else {
        parts_flush(p, parts, b, chunk_line, chunk_col);
        e = new_expr(p, PCL_TEMPLATE);
        e->tuple.items = parts->items;
        e->tuple.n = parts->n;
    }
    e->line = line;
    e->col = col;
    return e;
}

/* A quoted string; with `parts`, interpolations are collected there (the returned text is then
 * the last chunk, see finish_template). */
static const char *parse_quoted_parts(parser_t *p, parts_t *parts, int *chunk_line, int *chunk_col) {
    int l = p->line, col = p->col;
    advance(p); /* opening quote */
    if (chunk_line) *chunk_line = p->line, *chunk_col = p->col;
    buf_t b;
    buf_init(&b);
    for (;;) {
        int c = peek(p);
        if (c == -1 || c == '\n') {
            buf_free(&b);
            fail_at(p, l, col, "unterminated string: add the closing '\"' on the same line");
            return NULL;
        }
        if (c == '"') {
            advance(p);
            break;
        }
        if (c == '$' || c == '%') {
            if (!parse_template_sigil(p, &b, parts, chunk_line, chunk_col)) {
                buf_free(&b);
                return NULL;
            }
            continue;
        }
        if (c != '\\') {
            buf_putc(&b, (char)c);
            advance(p);
            continue;
        }
        int el = p->line, ec = p->col;
        advance(p);
        c = peek(p);
        int digits = 0;
        switch (c) {
        case 'n': buf_putc(&b, '\n'); break;
        case 'r': buf_putc(&b, '\r'); break;
        case 't': buf_putc(&b, '\t'); break;
        case '"': buf_putc(&b, '"'); break;
        case '\\': buf_putc(&b, '\\'); break;
        case 'u': digits = 4; break;
        case 'U': digits = 8; break;
        default:
            buf_free(&b);
            fail_at(p, el, ec,
                    "invalid escape sequence '\\%c' in string; use \\n, \\r, \\t, \\\", \\\\, \\uXXXX or \\UXXXXXXXX",
                    c > 0x20 && c < 0x7f ? c : '?');
            return NULL;
        }
        advance(p);
        if (digits) {
            unsigned long cp = 0;
            for (int i = 0; i < digits; i++) {
                int h = peek(p);
                int v = h >= '0' && h <= '9'   ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
                if (v < 0) {
                    buf_free(&b);
                    fail_at(p, el, ec, "invalid unicode escape: \\%c needs %d hex digits", digits == 4 ? 'u' : 'U',
                            digits);
                    return NULL;
                }
                cp = cp * 16 + (unsigned long)v;
                advance(p);
            }
            if (cp > 0x10FFFF) {
                buf_free(&b);
                fail_at(p, el, ec, "invalid unicode escape: U+%lX is beyond U+10FFFF", cp);
                return NULL;
            }
            if (cp == 0)
                buf_puts(&b, PCL_NUL); /* kept a C string: see PCL_NUL */
            else
                buf_put_utf8(&b, (uint32_t)cp);
        }
    }
    const char *s = buf_arena_str(&b, p->a);
    buf_free(&b);
    return s;
}

static const char *parse_quoted(parser_t *p) {
    return parse_quoted_parts(p, NULL, NULL, NULL);
}

static pcl_expr_t *parse_string_expr(parser_t *p) {
    int l = p->line, col = p->col, cl = 0, cc = 0;
    parts_t parts = {0};
    const char *s = parse_quoted_parts(p, &parts, &cl, &cc);
    if (!s) return NULL;
    buf_t b;
    buf_init(&b);
    buf_puts(&b, s);
    pcl_expr_t *e = finish_template(p, &parts, &b, l, col, cl, cc);
    buf_free(&b);
    return e;
}

/* `<<EOT` / `<<-EOT` up to a line holding only the marker; the value keeps each line's newline.
 * The indented form strips the smallest indentation of the non-blank lines. */
static pcl_expr_t *parse_heredoc(parser_t *p) {
    int l = p->line, col = p->col;
    advance(p);
    advance(p);
    bool indented = peek(p) == '-';
    if (indented) advance(p);
    const char *marker = parse_ident(p);
    if (!marker) {
        fail_at(p, l, col, "a heredoc needs a marker word after '<<', e.g. <<EOT");
        return NULL;
    }
    skip_ws(p, false);
    if (peek(p) != '\n') {
        FAIL(p, "expected a new line after the heredoc marker '%s'", marker);
        return NULL;
    }
    advance(p);
    /* collect raw lines */
    size_t n_lines = 0, cap_starts = 0, cap_lens = 0;
    const char **starts = NULL;
    size_t *lens = NULL;
    bool closed = false;
    while (p->pos < p->len) {
        size_t s = p->pos, e = s;
        while (e < p->len && p->s[e] != '\n')
            e++;
        size_t t = s;
        while (t < e && (p->s[t] == ' ' || p->s[t] == '\t'))
            t++;
        size_t te = e;
        while (te > t && p->s[te - 1] == '\r')
            te--;
        if (te - t == strlen(marker) && memcmp(p->s + t, marker, te - t) == 0) {
            while (p->pos < e)
                advance(p);
            closed = true;
            break;
        }
        starts = vec_grow(starts, &cap_starts, n_lines + 1, sizeof *starts);
        lens = vec_grow(lens, &cap_lens, n_lines + 1, sizeof *lens);
        starts[n_lines] = p->s + s;
        lens[n_lines++] = e - s;
        while (p->pos < e)
            advance(p);
        advance(p); /* newline */
    }
    if (!closed) {
        free(starts);
        free(lens);
        fail_at(p, l, col, "unterminated heredoc: add a line holding only '%s'", marker);
        return NULL;
    }
    size_t strip = 0;
    if (indented) {
        strip = (size_t)-1;
        for (size_t i = 0; i < n_lines; i++) {
            size_t k = 0;
            while (k < lens[i] && (starts[i][k] == ' ' || starts[i][k] == '\t'))
                k++;
            if (k == lens[i]) continue; /* blank lines do not count */
            if (k < strip) strip = k;
        }
        if (strip == (size_t)-1) strip = 0;
    }
    /* the text is a template: the sigil rules of quoted strings apply; parse it with a sub-parser
     * over the assembled lines (each line's position kept) so errors still point into the file */
    buf_t raw;
    buf_init(&raw);
    for (size_t i = 0; i < n_lines; i++) {
        size_t off = strip < lens[i] ? strip : lens[i];
        buf_append(&raw, starts[i] + off, lens[i] - off);
        buf_putc(&raw, '\n');
    }
    free(starts);
    free(lens);
    parser_t q = *p;
    q.s = raw.data ? raw.data : "";
    q.len = raw.len;
    q.pos = 0;
    q.line = l + 1;
    q.col = 1 + (int)strip;
    q.nest = 0;
    parts_t parts = {0};
    buf_t b;
    buf_init(&b);
    int cl = q.line, cc = q.col;
    while (!q.failed && q.pos < q.len) {
        int c = peek(&q);
        if (c == '$' || c == '%') {
            if (!parse_template_sigil(&q, &b, &parts, &cl, &cc)) break;
            continue;
        }
        buf_putc(&b, (char)c);
        advance(&q);
        if (c == '\n') q.col = 1 + (int)strip;
    }
    pcl_expr_t *e = NULL;
    if (q.failed)
        p->failed = true;
    else
        e = finish_template(p, &parts, &b, l, col, cl, cc);
    buf_free(&b);
    buf_free(&raw);
    return e;
}

/* The significant digits of a number's text (leading zeros, the point and trailing zeros of the
 * mantissa not counted): a float64 holds any decimal of 15 or fewer exactly enough that two texts
 * of different values stay two values, in order (DBL_DIG). */
int pcl_number_digits(const char *text) {
    const char *end = text + strcspn(text, "eE");
    while (text < end && (*text == '0' || *text == '.'))
        text++;
    while (end > text && (end[-1] == '0' || end[-1] == '.'))
        end--;
    int n = 0;
    for (const char *c = text; c < end; c++)
        n += *c >= '0' && *c <= '9';
    return n;
}

static pcl_expr_t *parse_number(parser_t *p) {
    size_t start = p->pos;
    while (peek(p) >= '0' && peek(p) <= '9')
        advance(p);
    if (peek(p) == '.' && peek_at(p, 1) >= '0' && peek_at(p, 1) <= '9') {
        advance(p);
        while (peek(p) >= '0' && peek(p) <= '9')
            advance(p);
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        size_t save = p->pos;
        int sl = p->line, sc = p->col;
        advance(p);
        if (peek(p) == '+' || peek(p) == '-') advance(p);
        if (!(peek(p) >= '0' && peek(p) <= '9')) {
            p->pos = save;
            p->line = sl;
            p->col = sc;
        }
        while (peek(p) >= '0' && peek(p) <= '9')
            advance(p);
    }
    char *text = arena_strndup(p->a, p->s + start, p->pos - start);
    pcl_expr_t *e = new_expr(p, PCL_NUMBER);
    errno = 0;
    e->n = strtod(text, NULL);
    e->inexact = errno == ERANGE || pcl_number_digits(text) > 15;
    return e;
}

/* Items of `[...]` or `(...)`: expressions separated by commas, newlines free, trailing comma ok.
 * With `expand` (a call's arguments), the last may be followed by `...` (HCL's expansion of the final
 * argument, a list whose elements are the arguments), which sets *expand. */
static bool parse_list(parser_t *p, int close, pcl_expr_t ***items, size_t *n, bool *expand) {
    size_t cap = 0;
    advance(p);
    p->nest++;
    for (;;) {
        if (!skip_ws(p, true)) return false;
        if (peek(p) == close) {
            advance(p);
            p->nest--;
            return true;
        }
        pcl_expr_t *e = parse_expr(p);
        if (!e) return false;
        *items = arena_grow_array(p->a, *items, &cap, *n + 1, sizeof(pcl_expr_t *));
        (*items)[(*n)++] = e;
        if (!skip_ws(p, true)) return false;
        if (expand && peek(p) == '.' && peek_at(p, 1) == '.' && peek_at(p, 2) == '.') {
            advance(p), advance(p), advance(p);
            *expand = true;
            if (!skip_ws(p, true)) return false;
            if (peek(p) != close)
                return FAIL(p, "expected '%c' after the expanded final argument ('...') but found %s", close,
                            describe_char(p));
            continue;
        }
        if (peek(p) == ',') {
            advance(p);
        } else if (peek(p) != close) {
            return FAIL(p, "expected ',' or '%c' but found %s", close, describe_char(p));
        }
    }
}

/* Whether the word at the cursor is `w` (followed by a non-identifier character). */
static bool at_word(const parser_t *p, const char *w) {
    size_t n = strlen(w);
    return p->pos + n <= p->len && memcmp(p->s + p->pos, w, n) == 0 && !is_ident_char(peek_at(p, n));
}

static bool expect_word(parser_t *p, const char *w, const char *where) {
    if (!skip_ws(p, true)) return false;
    if (!at_word(p, w)) return FAIL(p, "expected '%s' %s but found %s", w, where, describe_char(p));
    for (size_t i = strlen(w); i > 0; i--)
        advance(p);
    return true;
}

/* `for k, v in coll : value if cond` after `[` or `{` (the cursor on `for`); `close` ends it. */
static pcl_expr_t *parse_for(parser_t *p, bool object, int close, int line, int col) {
    pcl_expr_t *e = new_expr(p, PCL_FOR);
    e->line = line;
    e->col = col;
    e->for_object = object;
    int saved_nest = p->nest;
    p->nest = 1;
    advance(p), advance(p), advance(p); /* for */
    if (!skip_ws(p, true)) return NULL;
    const char *v1 = parse_ident(p);
    if (!v1) {
        FAIL(p, "expected a variable name after 'for' but found %s", describe_char(p));
        return NULL;
    }
    if (!skip_ws(p, true)) return NULL;
    if (peek(p) == ',') {
        advance(p);
        if (!skip_ws(p, true)) return NULL;
        e->kvar = v1;
        e->vvar = parse_ident(p);
        if (!e->vvar) {
            FAIL(p, "expected a second variable name after ',' but found %s", describe_char(p));
            return NULL;
        }
    } else {
        e->vvar = v1;
    }
    if (!expect_word(p, "in", "after the for variables")) return NULL;
    if (!(e->x = parse_expr(p)) || !skip_ws(p, true)) return NULL;
    if (peek(p) != ':') {
        FAIL(p, "expected ':' after the collection of the for expression but found %s", describe_char(p));
        return NULL;
    }
    advance(p);
    if (!skip_ws(p, true)) return NULL;
    if (object) {
        if (!(e->y = parse_expr(p)) || !skip_ws(p, true)) return NULL;
        if (!(peek(p) == '=' && peek_at(p, 1) == '>')) {
            FAIL(p, "expected '=>' after the key of the object for expression but found %s", describe_char(p));
            return NULL;
        }
        advance(p), advance(p);
    }
    if (!(e->z = parse_expr(p)) || !skip_ws(p, true)) return NULL;
    if (peek(p) == '.' && peek_at(p, 1) == '.' && peek_at(p, 2) == '.') {
        FAIL(p, "grouping ('...') in a for expression is not supported");
        return NULL;
    }
    if (at_word(p, "if")) {
        advance(p), advance(p);
        if (!(e->w = parse_expr(p)) || !skip_ws(p, true)) return NULL;
    }
    if (peek(p) != close) {
        FAIL(p, "expected '%c' to end the for expression but found %s", close, describe_char(p));
        return NULL;
    }
    advance(p);
    p->nest = saved_nest;
    return e;
}

/* Whether the bracket at the cursor opens a for expression (`[for`, `{for`, blanks between). */
static bool opens_for(const parser_t *p) {
    size_t i = p->pos + 1;
    while (i < p->len && strchr(" \t\r\n", p->s[i]))
        i++;
    return i + 3 < p->len && memcmp(p->s + i, "for", 3) == 0 && !is_ident_char((unsigned char)p->s[i + 3]);
}

static pcl_expr_t *parse_object(parser_t *p) {
    int l = p->line, col = p->col;
    if (opens_for(p)) {
        advance(p);
        if (!skip_ws(p, true)) return NULL;
        return parse_for(p, true, '}', l, col);
    }
    pcl_expr_t *e = new_expr(p, PCL_OBJECT);
    e->line = l;
    e->col = col;
    advance(p);
    size_t cap = 0;
    int saved_nest = p->nest;
    p->nest = 0; /* a new line separates items */
    for (;;) {
        if (!skip_ws(p, true)) return NULL;
        if (peek(p) == '}') {
            advance(p);
            p->nest = saved_nest;
            return e;
        }
        pcl_object_item_t it = {0};
        if (peek(p) == '"') {
            it.key = parse_quoted(p);
            it.key_quoted = true;
        } else {
            it.key = parse_ident(p);
            if (!it.key) {
                FAIL(p, "expected an object key (a name or a quoted string) but found %s", describe_char(p));
                return NULL;
            }
        }
        if (!it.key || !skip_ws(p, false)) return NULL;
        if (peek(p) != '=' && peek(p) != ':') {
            FAIL(p, "expected '=' or ':' after the object key '%s'", it.key);
            return NULL;
        }
        advance(p);
        if (!skip_ws(p, false)) return NULL;
        it.value = parse_expr(p);
        if (!it.value || !skip_ws(p, false)) return NULL;
        if (peek(p) == ',')
            advance(p);
        else if (peek(p) != '\n' && peek(p) != '}') {
            FAIL(p, "expected a new line, ',' or '}' after the value of '%s' but found %s", it.key, describe_char(p));
            return NULL;
        }
        e->object.items = arena_grow_array(p->a, e->object.items, &cap, e->object.n + 1, sizeof *e->object.items);
        e->object.items[e->object.n++] = it;
    }
}

static void trav_push(parser_t *p, pcl_expr_t *e, pcl_trav_part_t part) {
    /* trav.parts keeps no capacity: a parsed traversal's parts are only ever appended here, one at a
     * time from none, so theirs is what base's rule gives n elements */
    size_t cap = e->trav.n ? vec_next_cap(0, e->trav.n, sizeof *e->trav.parts) : 0;
    e->trav.parts = arena_grow_array(p->a, e->trav.parts, &cap, e->trav.n + 1, sizeof *e->trav.parts);
    e->trav.parts[e->trav.n++] = part;
}

/* A literal index (`[0]`, `["k"]`) as a static traversal part. */
static bool static_index(const pcl_expr_t *idx, pcl_trav_part_t *part) {
    *part = (pcl_trav_part_t){0};
    if (idx->kind == PCL_STRING) {
        part->index_is_string = true;
        part->index_str = idx->s;
        return true;
    }
    if (idx->kind == PCL_NUMBER && idx->n >= 0 && idx->n < 1e15 && idx->n == (double)(size_t)idx->n) {
        part->index_num = (size_t)idx->n;
        return true;
    }
    return false;
}

/* The levels of e's tree, remembered in e (as each of its nodes'). The parser's recursion caps the
 * nesting it makes by recursing; its loops nest without recursing — an operator nests the chain
 * before it, a splat, an index or an attribute the expression before it — and check the tree they
 * build with this. Its own recursion is bounded: what it descends into the parser built by
 * recursing, and what a loop built already knows its depth. */
static int tree_depth(pcl_expr_t *e) {
    if (!e) return 0;
    if (e->depth) return e->depth;
    int d = 0;
#define DEEPER(x)                                                                                                      \
    do {                                                                                                               \
        int k = tree_depth(x);                                                                                         \
        if (k > d) d = k;                                                                                              \
    } while (0)
    switch (e->kind) {
    case PCL_TUPLE:
    case PCL_TEMPLATE:
        for (size_t i = 0; i < e->tuple.n; i++)
            DEEPER(e->tuple.items[i]);
        break;
    case PCL_OBJECT:
        for (size_t i = 0; i < e->object.n; i++)
            DEEPER(e->object.items[i].value);
        break;
    case PCL_CALL:
        for (size_t i = 0; i < e->call.n; i++)
            DEEPER(e->call.args[i]);
        break;
    default:
        DEEPER(e->x);
        DEEPER(e->y);
        DEEPER(e->z);
        DEEPER(e->w);
        break;
    }
#undef DEEPER
    e->depth = d + 1;
    return e->depth;
}

/* A node a loop of the parser made: false (with the parse's error) when its tree is too deep. */
static bool loop_depth_ok(parser_t *p, pcl_expr_t *e) {
    if (tree_depth(e) <= PCL_MAX_DEPTH) return true;
    FAIL(p,
         "the expression is nested more than %d levels deep (each operator of a chain, each index, "
         "attribute or splat after an expression nests the expression before it); split it with locals",
         PCL_MAX_DEPTH);
    return false;
}

/* `.attr`, `[index]`, `[*]` after any expression: a plain name with literal parts stays a
 * traversal, anything else nests. */
static pcl_expr_t *parse_postfix(parser_t *p, pcl_expr_t *e) {
    for (;;) {
        int l = p->line, col = p->col;
        if (peek(p) == '.' && is_ident_start(peek_at(p, 1))) {
            advance(p);
            const char *attr = parse_ident(p);
            if (e->kind == PCL_TRAVERSAL || e->kind == PCL_SPLAT) {
                trav_push(p, e, (pcl_trav_part_t){.attr = attr});
            } else {
                pcl_expr_t *g = new_expr(p, PCL_GETATTR);
                g->line = l, g->col = col;
                g->x = e;
                g->s = attr;
                e = g;
                if (!loop_depth_ok(p, e)) return NULL;
            }
        } else if (peek(p) == '.' && peek_at(p, 1) == '*') {
            FAIL(p, "the attribute splat '.*' is not supported; write '[*]'");
            return NULL;
        } else if (peek(p) == '[') {
            advance(p);
            p->nest++;
            if (!skip_ws(p, true)) return NULL;
            if (peek(p) == '*') {
                advance(p);
                if (!skip_ws(p, true)) return NULL;
                if (peek(p) != ']') {
                    FAIL(p, "expected ']' after '[*' but found %s", describe_char(p));
                    return NULL;
                }
                advance(p);
                p->nest--;
                pcl_expr_t *sp = new_expr(p, PCL_SPLAT);
                sp->line = l, sp->col = col;
                sp->x = e;
                e = sp;
                if (!loop_depth_ok(p, e)) return NULL;
                continue;
            }
            pcl_expr_t *idx = parse_expr(p);
            if (!idx || !skip_ws(p, true)) return NULL;
            if (peek(p) != ']') {
                FAIL(p, "expected ']' but found %s", describe_char(p));
                return NULL;
            }
            advance(p);
            p->nest--;
            pcl_trav_part_t part;
            if ((e->kind == PCL_TRAVERSAL || e->kind == PCL_SPLAT) && static_index(idx, &part)) {
                trav_push(p, e, part);
            } else {
                pcl_expr_t *ix = new_expr(p, PCL_INDEX);
                ix->line = l, ix->col = col;
                ix->x = e;
                ix->y = idx;
                e = ix;
                if (!loop_depth_ok(p, e)) return NULL;
            }
        } else {
            return e;
        }
    }
}

static pcl_expr_t *parse_primary(parser_t *p) {
    if (!skip_ws(p, false)) return NULL;
    int c = peek(p);
    int l = p->line, col = p->col;
    pcl_expr_t *e = NULL;
    if (c == '"') {
        e = parse_string_expr(p);
    } else if (c == '<' && peek_at(p, 1) == '<') {
        e = parse_heredoc(p);
    } else if (c == '[') {
        if (opens_for(p)) {
            advance(p);
            if (!skip_ws(p, true)) return NULL;
            e = parse_for(p, false, ']', l, col);
        } else {
            e = new_expr(p, PCL_TUPLE);
            e->line = l, e->col = col;
            if (!parse_list(p, ']', &e->tuple.items, &e->tuple.n, NULL)) return NULL;
        }
    } else if (c == '{') {
        e = parse_object(p);
    } else if (c == '(') {
        advance(p);
        p->nest++;
        if (!skip_ws(p, true)) return NULL;
        e = parse_expr(p);
        if (!e || !skip_ws(p, true)) return NULL;
        if (peek(p) != ')') {
            FAIL(p, "expected ')' but found %s", describe_char(p));
            return NULL;
        }
        advance(p);
        p->nest--;
    } else if (c >= '0' && c <= '9') {
        e = parse_number(p);
    } else if (is_ident_start(c)) {
        const char *id = parse_ident(p);
        if (strcmp(id, "true") == 0 || strcmp(id, "false") == 0) {
            e = new_expr(p, PCL_BOOL);
            e->b = id[0] == 't';
        } else if (strcmp(id, "null") == 0) {
            e = new_expr(p, PCL_NULL);
        } else if (peek(p) == '(') {
            e = new_expr(p, PCL_CALL);
            e->call.name = id;
            if (!parse_list(p, ')', &e->call.args, &e->call.n, &e->call.expand_final)) return NULL;
        } else {
            e = new_expr(p, PCL_TRAVERSAL);
            e->trav.root = id;
        }
        if (e) e->line = l, e->col = col;
    } else {
        FAIL(p, "expected an expression but found %s", describe_char(p));
        return NULL;
    }
    if (!e) return NULL;
    e->line = l;
    e->col = col;
    return parse_postfix(p, e);
}

static pcl_expr_t *parse_unary(parser_t *p) {
    if (!skip_ws(p, false)) return NULL;
    int c = peek(p), l = p->line, col = p->col;
    if (c != '-' && c != '!') return parse_primary(p);
    advance(p);
    if (++p->depth > PCL_MAX_DEPTH) {
        FAIL(p, "the expression is nested more than %d levels deep", PCL_MAX_DEPTH);
        return NULL;
    }
    pcl_expr_t *x = parse_unary(p);
    p->depth--;
    if (!x) return NULL;
    if (c == '-' && x->kind == PCL_NUMBER) { /* a negative literal */
        x->n = -x->n;
        x->line = l, x->col = col;
        return x;
    }
    pcl_expr_t *e = new_expr(p, PCL_UNARY);
    e->line = l, e->col = col;
    e->op = c == '-' ? "-" : "!";
    e->x = x;
    return e;
}

/* The binary operator at the cursor and its precedence (HCL's: || 1, && 2, == != 3,
 * < <= > >= 4, + - 5, * / % 6), or 0. A new line ends the expression outside brackets. */
static int peek_binop(parser_t *p, const char **op) {
    size_t pos = p->pos;
    int line = p->line, col = p->col;
    if (!skip_ws(p, p->nest > 0)) return 0;
    static const struct {
        const char *op;
        int prec;
    } ops[] = {{"||", 1}, {"&&", 2}, {"==", 3}, {"!=", 3}, {"<=", 4}, {">=", 4}, {"<", 4},
               {">", 4},  {"+", 5},  {"-", 5},  {"*", 6},  {"/", 6},  {"%", 6}};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        size_t n = strlen(ops[i].op);
        if (p->pos + n <= p->len && memcmp(p->s + p->pos, ops[i].op, n) == 0) {
            if (strcmp(ops[i].op, "<") == 0 && peek_at(p, 1) == '<') break; /* a heredoc */
            *op = ops[i].op;
            return ops[i].prec;
        }
    }
    p->pos = pos, p->line = line, p->col = col;
    return 0;
}

static pcl_expr_t *parse_binary(parser_t *p, int min_prec) {
    pcl_expr_t *lhs = parse_unary(p);
    for (;;) {
        if (!lhs) return NULL;
        size_t pos = p->pos;
        int line = p->line, col = p->col;
        const char *op = NULL;
        int prec = peek_binop(p, &op);
        if (!prec || prec < min_prec) {
            p->pos = pos, p->line = line, p->col = col;
            return lhs;
        }
        int ol = p->line, oc = p->col;
        for (size_t i = strlen(op); i > 0; i--)
            advance(p);
        if (!skip_ws(p, true)) return NULL;
        if (++p->depth > PCL_MAX_DEPTH) {
            FAIL(p, "the expression is nested more than %d levels deep", PCL_MAX_DEPTH);
            return NULL;
        }
        pcl_expr_t *rhs = parse_binary(p, prec + 1);
        p->depth--;
        if (!rhs) return NULL;
        pcl_expr_t *e = new_expr(p, PCL_BINARY);
        e->line = ol, e->col = oc;
        e->op = op;
        e->x = lhs;
        e->y = rhs;
        lhs = e;
        if (!loop_depth_ok(p, e)) return NULL;
    }
}

static pcl_expr_t *parse_expr(parser_t *p) {
    if (++p->depth > PCL_MAX_DEPTH) {
        FAIL(p, "the expression is nested more than %d levels deep", PCL_MAX_DEPTH);
        return NULL;
    }
    pcl_expr_t *e = parse_binary(p, 1);
    if (e) {
        size_t pos = p->pos;
        int line = p->line, col = p->col;
        if (!skip_ws(p, p->nest > 0))
            e = NULL;
        else if (peek(p) == '?') {
            pcl_expr_t *c = new_expr(p, PCL_COND);
            advance(p);
            int saved = p->nest;
            p->nest = 1;
            c->x = e;
            if (!skip_ws(p, true) || !(c->y = parse_expr(p)) || !skip_ws(p, true))
                e = NULL;
            else if (peek(p) != ':')
                e = NULL,
                FAIL(p, "expected ':' in the conditional '?' at %d:%d but found %s", c->line, c->col, describe_char(p));
            else {
                advance(p);
                p->nest = saved;
                if (!skip_ws(p, true) || !(c->z = parse_expr(p)))
                    e = NULL;
                else
                    e = c;
            }
        } else {
            p->pos = pos, p->line = line, p->col = col;
        }
    }
    p->depth--;
    return e;
}

/* --- blocks ----------------------------------------------------------------------------------------- */

typedef struct attr_list {
    pcl_attr_t *items;
    size_t n, cap;
} attr_list_t;

static void attr_push(parser_t *p, attr_list_t *l, const char *name, pcl_expr_t *v, int line, int col) {
    l->items = arena_grow_array(p->a, l->items, &l->cap, l->n + 1, sizeof *l->items);
    l->items[l->n++] = (pcl_attr_t){name, v, NULL, line, col};
}

static bool expect_line_end(parser_t *p, const char *what) {
    if (!skip_ws(p, false)) return false;
    int c = peek(p);
    if (c == '\n' || c == '}' || c == -1) return true;
    return FAIL(p, "expected a new line after %s but found %s", what, describe_char(p));
}

/* expect_line_end after the value of attribute `name`, its text made only for the error (every
 * attribute of a 10,000-resource program formatted it) */
static bool expect_value_end(parser_t *p, const char *name) {
    if (!skip_ws(p, false)) return false;
    int c = peek(p);
    if (c == '\n' || c == '}' || c == -1) return true;
    return expect_line_end(p, arena_sprintf(p->a, "the value of '%s'", name));
}

static const char *parse_label(parser_t *p, const char *what) {
    if (!skip_ws(p, false)) return NULL;
    const char *s = peek(p) == '"' ? parse_quoted(p) : parse_ident(p);
    if (!s && !p->failed) FAIL(p, "expected %s (a name or a quoted string) but found %s", what, describe_char(p));
    return s;
}

static int option_cmp(const void *x, const void *y) {
    return pcl_option_rank(((const pcl_attr_t *)x)->name) - pcl_option_rank(((const pcl_attr_t *)y)->name);
}

/* Sorts options into Pulumi's order; the order of unknown options among themselves is kept. */
static void sort_options(pcl_attr_t *o, size_t n) {
    for (size_t i = 1; i < n; i++) { /* insertion sort: stable, n is tiny */
        pcl_attr_t t = o[i];
        size_t j = i;
        while (j > 0 && option_cmp(&o[j - 1], &t) > 0) {
            o[j] = o[j - 1];
            j--;
        }
        o[j] = t;
    }
}

/* A block body `{ ... }` into node (index into the program, whose array may move while parsing). */
static bool parse_body(parser_t *p, size_t node_index, bool is_options, attr_list_t *attrs, attr_list_t *opts) {
    if (!skip_ws(p, false)) return false;
    if (peek(p) != '{') return FAIL(p, "expected '{' but found %s", describe_char(p));
    int bl = p->line, bc = p->col;
    advance(p);
    pcl_node_kind_t kind = p->prog->nodes[node_index].kind;
    bool seen_options = false;
    for (;;) {
        if (!skip_ws(p, true)) return false;
        if (peek(p) == -1) return fail_at(p, bl, bc, "unterminated block: add the closing '}'");
        if (peek(p) == '}') {
            advance(p);
            return true;
        }
        int al = p->line, ac = p->col;
        const char *name = parse_ident(p);
        if (!name) return FAIL(p, "expected an attribute name or '}' but found %s", describe_char(p));
        if (!skip_ws(p, false)) return false;
        if (peek(p) == '{') {
            /* a package's one nested block, `parameterization { name, version, value }`, is read
             * like an options block into `opts` (a package has no options) */
            bool param = !is_options && kind == PCL_NODE_PACKAGE && strcmp(name, "parameterization") == 0;
            if (!param && (is_options || strcmp(name, "options") != 0 ||
                           (kind != PCL_NODE_RESOURCE && kind != PCL_NODE_COMPONENT)))
                return fail_at(p, al, ac,
                               "unsupported block '%s' here; only resources and components have a nested block, "
                               "'options', and packages one, 'parameterization'",
                               name);
            if (seen_options)
                return fail_at(p, al, ac, "a %s has only one %s block", param ? "package" : "resource",
                               param ? "parameterization" : "options");
            seen_options = true;
            if (!parse_body(p, node_index, true, opts, NULL)) return false;
            if (!expect_line_end(p, param ? "the parameterization block" : "the options block")) return false;
            continue;
        }
        if (peek(p) != '=')
            return FAIL(p, "expected '=' after the attribute name '%s' but found %s", name, describe_char(p));
        advance(p);
        pcl_expr_t *v = parse_expr(p);
        if (!v || !expect_value_end(p, name)) return false;
        pcl_node_t *n = &p->prog->nodes[node_index];
        if (!is_options && strcmp(name, "__logicalName") == 0) {
            if (v->kind != PCL_STRING) return fail_at(p, al, ac, "__logicalName must be a string literal");
            if (kind == PCL_NODE_CONFIG)
                n->config_key = v->s;
            else
                n->logical_name = v->s;
        } else if (!is_options && kind == PCL_NODE_CONFIG &&
                   (strcmp(name, "__secret") == 0 || strcmp(name, "secret") == 0)) {
            if (v->kind != PCL_BOOL) return fail_at(p, al, ac, "%s must be true or false", name);
            n->config_secret = v->b;
        } else if (!is_options && kind == PCL_NODE_CONFIG && strcmp(name, "description") == 0) {
            if (v->kind != PCL_STRING) return fail_at(p, al, ac, "a config description must be a string literal");
        } else if (!is_options && kind == PCL_NODE_CONFIG && strcmp(name, "default") != 0) {
            return fail_at(p, al, ac,
                           "config attribute '%s' is not supported (cimport reads 'secret', 'description' and "
                           "'default'); remove it or set the value in the stack configuration",
                           name);
        } else if (is_options && kind == PCL_NODE_PACKAGE) {
            if (strcmp(name, "name") != 0 && strcmp(name, "version") != 0 && strcmp(name, "value") != 0)
                return fail_at(p, al, ac,
                               "parameterization attribute '%s' is not supported (they are name, version and value)",
                               name);
            if (v->kind != PCL_STRING) return fail_at(p, al, ac, "parameterization %s must be a string literal", name);
            for (size_t i = 0; i < attrs->n; i++)
                if (strcmp(attrs->items[i].name, name) == 0)
                    return fail_at(p, al, ac, "attribute '%s' is set twice", name);
            attr_push(p, attrs, name, v, al, ac);
        } else if (is_options && pcl_option_kind(name) == PCL_OPT_UNKNOWN) {
            return fail_at(p, al, ac,
                           "unknown resource option '%s'; PCL options are parent, provider, dependsOn, protect, "
                           "retainOnDelete, ignoreChanges, deletedWith, replaceWith, import, aliases, customTimeouts, "
                           "deleteBeforeReplace, replaceOnChanges, additionalSecretOutputs, hideDiffs, version, "
                           "pluginDownloadURL, range, providers, hooks, replacementTrigger, envVarMappings",
                           name);
        } else if (!is_options && kind == PCL_NODE_HOOK && strcmp(name, "command") != 0 &&
                   (strcmp(n->token, "error") == 0 ||
                    (strcmp(name, "onDryRun") != 0 && strcmp(name, "ignoreErrors") != 0))) {
            return fail_at(p, al, ac,
                           strcmp(n->token, "error") == 0
                               ? "error hook attribute '%s' is not supported (an error hook has a command only)"
                               : "hook attribute '%s' is not supported (a resource hook has command, onDryRun and "
                                 "ignoreErrors)",
                           name);
        } else if (!is_options && kind == PCL_NODE_COMPONENT && strcmp(name, "token") == 0 && v->kind == PCL_STRING) {
            n->token = v->s;
        } else {
            attr_list_t *l = attrs;
            for (size_t i = 0; i < l->n; i++)
                if (strcmp(l->items[i].name, name) == 0) return fail_at(p, al, ac, "attribute '%s' is set twice", name);
            attr_push(p, l, name, v, al, ac);
        }
    }
}

/* `pulumi { requiredVersionRange = "..." }`: the Pulumi CLI versions the program runs with. */
static bool parse_pulumi_block(parser_t *p, int l, int c) {
    for (size_t i = 0; i < p->prog->n_nodes; i++)
        if (p->prog->nodes[i].kind == PCL_NODE_PULUMI) return fail_at(p, l, c, "a program has one pulumi block");
    pcl_node_t *n = pcl_program_add(p->prog, PCL_NODE_PULUMI);
    n->line = l;
    n->col = c;
    size_t idx = p->prog->n_nodes - 1;
    attr_list_t attrs = {0};
    if (!parse_body(p, idx, false, &attrs, NULL)) return false;
    n = &p->prog->nodes[idx];
    n->attrs = attrs.items;
    n->n_attrs = attrs.n;
    if (n->n_attrs != 1 || strcmp(n->attrs[0].name, "requiredVersionRange") != 0)
        return fail_at(p, l, c, "the pulumi block needs exactly one attribute, requiredVersionRange = <range>");
    return expect_line_end(p, "the block");
}

static bool parse_block(parser_t *p) {
    int l = p->line, c = p->col;
    const char *kw = parse_ident(p);
    if (!kw)
        return FAIL(p, "expected a block (package, resource, component, config, output or hook) but found %s",
                    describe_char(p));
    if (!skip_ws(p, false)) return false;
    if (peek(p) == '=' && peek_at(p, 1) != '=') { /* a top-level local variable: name = expr */
        advance(p);
        int vl = p->line, vc = p->col;
        pcl_expr_t *v = parse_expr(p);
        if (!v || !expect_value_end(p, kw)) return false;
        if (!pcl_smap_add(&p->declared, kw, p->prog->n_nodes))
            return fail_at(
                p, l, c, "'%s' is declared twice; every resource, component, config and local needs its own name", kw);
        pcl_node_t *n = pcl_program_add(p->prog, PCL_NODE_LOCAL);
        n->name = kw;
        n->line = l;
        n->col = c;
        n->attrs = arena_alloc(p->a, sizeof *n->attrs);
        n->attrs[0] = (pcl_attr_t){"value", v, NULL, vl, vc};
        n->n_attrs = 1;
        return true;
    }
    pcl_node_kind_t kind;
    if (strcmp(kw, "package") == 0)
        kind = PCL_NODE_PACKAGE;
    else if (strcmp(kw, "resource") == 0 || strcmp(kw, "read") == 0)
        kind = PCL_NODE_RESOURCE;
    else if (strcmp(kw, "component") == 0)
        kind = PCL_NODE_COMPONENT;
    else if (strcmp(kw, "config") == 0)
        kind = PCL_NODE_CONFIG;
    else if (strcmp(kw, "output") == 0)
        kind = PCL_NODE_OUTPUT;
    else if (strcmp(kw, "hook") == 0)
        kind = PCL_NODE_HOOK;
    else if (strcmp(kw, "pulumi") == 0)
        return parse_pulumi_block(p, l, c);
    else
        return fail_at(p, l, c,
                       "unsupported block type '%s': cimport reads package, resource, component, config, output and "
                       "hook blocks",
                       kw);
    const char *token = NULL;
    if (kind == PCL_NODE_HOOK) { /* hook resource "name" / hook error "name" */
        int kl = p->line, kc = p->col;
        token = parse_label(p, "the hook kind (resource or error)");
        if (!token) return false;
        if (strcmp(token, "resource") != 0 && strcmp(token, "error") != 0)
            return fail_at(p, kl, kc,
                           "unknown hook kind '%s'; a hook is 'hook resource \"name\"' or 'hook error \"name\"'",
                           token);
    }
    const char *name = NULL;
    if (kind == PCL_NODE_PACKAGE && skip_ws(p, false) && peek(p) == '{') {
        /* `package { ... parameterization { name = "..." } }`: named by its parameterization */
    } else {
        name = parse_label(p, arena_sprintf(p->a, "the %s name", kw));
        if (!name) return false;
    }
    if (kind == PCL_NODE_CONFIG && skip_ws(p, false) && peek(p) == '{') {
        token = "any"; /* `config "name" {}`: a value of any type (Pulumi's dynamic) */
    } else if (kind == PCL_NODE_RESOURCE || kind == PCL_NODE_CONFIG) {
        token = parse_label(p, kind == PCL_NODE_RESOURCE ? "the resource type token" : "the config type");
        if (!token) return false;
    } else if (kind == PCL_NODE_OUTPUT) {
        skip_ws(p, false);
        if (peek(p) != '{') { /* `output "name" "type" {`: the type label is optional */
            token = parse_label(p, "the output type");
            if (!token) return false;
        }
    } else if (kind == PCL_NODE_COMPONENT) {
        skip_ws(p, false);
        if (peek(p) != '{')
            return FAIL(p, "component blocks with a source path are not supported; cimport reads local components "
                           "written as component <name> { token = \"...\" }");
    }
    if (kind != PCL_NODE_PACKAGE && kind != PCL_NODE_OUTPUT && !pcl_smap_add(&p->declared, name, p->prog->n_nodes))
        return fail_at(p, l, c, "'%s' is declared twice; every resource, component and config needs its own name",
                       name);
    pcl_node_t *n = pcl_program_add(p->prog, kind);
    n->name = name;
    n->token = token;
    n->line = l;
    n->col = c;
    n->read = strcmp(kw, "read") == 0;
    size_t idx = p->prog->n_nodes - 1;
    attr_list_t attrs = {0}, opts = {0};
    if (!parse_body(p, idx, false, &attrs, &opts)) return false;
    n = &p->prog->nodes[idx];
    n->attrs = attrs.items;
    n->n_attrs = attrs.n;
    if (kind == PCL_NODE_PACKAGE) {
        n->params = opts.items;
        n->n_params = opts.n;
        const char *pname = NULL, *pversion = NULL;
        for (size_t i = 0; i < opts.n; i++) {
            if (strcmp(opts.items[i].name, "name") == 0) pname = opts.items[i].value->s;
            if (strcmp(opts.items[i].name, "version") == 0) pversion = opts.items[i].value->s;
        }
        if (opts.n && (!pname || !pversion))
            return fail_at(p, l, c, "a package's parameterization needs a name and a version");
        if (!name && !pname)
            return fail_at(p, l, c, "a package block needs a name: package \"<name>\" { ... }, or a parameterization");
        if (name && pname && strcmp(name, pname) != 0)
            return fail_at(p, l, c, "package '%s' is parameterized as '%s'; the two names must be the same", name,
                           pname);
        if (!name) n->name = pname;
    } else {
        sort_options(opts.items, opts.n);
        n->options = opts.items;
        n->n_options = opts.n;
    }
    if (kind == PCL_NODE_CONFIG && !n->config_key) n->config_key = n->name;
    if (kind == PCL_NODE_OUTPUT && (n->n_attrs != 1 || strcmp(n->attrs[0].name, "value") != 0))
        return fail_at(p, l, c, "output '%s' needs exactly one attribute, value = <expression>", name);
    bool has_id = false;
    for (size_t i = 0; n->read && i < n->n_attrs; i++)
        has_id |= strcmp(n->attrs[i].name, "id") == 0;
    if (n->read && !has_id) return fail_at(p, l, c, "read '%s' has no id attribute naming the resource to read", name);
    if (kind == PCL_NODE_COMPONENT && !n->token)
        return fail_at(p, l, c, "component '%s' has no token attribute naming its type", name);
    bool has_command = false;
    for (size_t i = 0; kind == PCL_NODE_HOOK && i < n->n_attrs; i++)
        has_command |= strcmp(n->attrs[i].name, "command") == 0;
    if (kind == PCL_NODE_HOOK && !has_command)
        return fail_at(p, l, c, "hook '%s' has no command attribute, e.g. command = [\"touch\", \"file\"]", name);
    return expect_line_end(p, "the block");
}

pcl_program_t *pcl_parse(const char *text, size_t len, const char *filename, diag_list_t *diags) {
    /* Positions are int (line:col in every node and message): a longer text could overflow them. */
    if (len >= INT_MAX) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, filename ? filename : "<input>", NULL,
                 "the PCL program is %zu bytes; cimport reads PCL programs of less than 2 GiB", len);
        return NULL;
    }
    size_t bad = 0;
    if (!utf8_valid(text, len, &bad)) { /* else a stray byte would be copied into every language's code */
        int line = 1, col = 1;
        for (size_t i = 0; i < bad; i++)
            if (text[i] == '\n')
                line++, col = 1;
            else
                col++;
        diag_t *d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                             "%s:%d:%d: the program is not valid UTF-8 (byte 0x%02X); PCL programs are UTF-8 text",
                             filename ? filename : "<input>", line, col, (unsigned char)text[bad]);
        if (d) d->line = line;
        return NULL;
    }
    pcl_program_t *prog = pcl_program_new();
    parser_t p = {.s = text,
                  .len = len,
                  .line = 1,
                  .col = 1,
                  .file = filename ? filename : "<input>",
                  .diags = diags,
                  .prog = prog,
                  .a = prog->arena};
    prog->filename = arena_strdup(prog->arena, p.file);
    for (;;) {
        if (!skip_ws(&p, true)) break;
        if (peek(&p) == -1) break;
        if (!parse_block(&p)) break;
    }
    pcl_smap_free(&p.declared);
    if (p.failed) {
        pcl_program_free(prog);
        return NULL;
    }
    return prog;
}

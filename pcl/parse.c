/* parse.c — PCL text in: a recursive-descent parser for the PCL subset cimport prints.
 *
 * Accepts package, resource, component and config blocks; attributes and one `options` block;
 * literals, tuples, objects (`=` or `:`, newline or comma separated, trailing commas), traversals,
 * function calls, parentheses and unary minus on numbers; quoted strings with HCL escapes and
 * heredocs (`<<EOT`, indented `<<-EOT`) with `$${`/`%%{` escapes; comments (line `//` and `#`, block slash-star).
 * Template interpolation (`${x}`) and operators are not part of the subset and are reported. The
 * first error stops the parse: "<file>:<line>:<col>: <what>". */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pcl/pcl_internal.h"

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
} parser_t;

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

static int peek(const parser_t *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }
static int peek_at(const parser_t *p, size_t k) { return p->pos + k < p->len ? (unsigned char)p->s[p->pos + k] : -1; }

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
            while (peek(p) != -1 && peek(p) != '\n') advance(p);
        } else if (c == '/' && peek_at(p, 1) == '*') {
            int l = p->line, col = p->col;
            advance(p);
            advance(p);
            while (peek(p) != -1 && !(peek(p) == '*' && peek_at(p, 1) == '/')) advance(p);
            if (peek(p) == -1) return fail_at(p, l, col, "unterminated /* comment");
            advance(p);
            advance(p);
        } else {
            return true;
        }
    }
}

static bool is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80; }
static bool is_ident_char(int c) { return is_ident_start(c) || (c >= '0' && c <= '9') || c == '-'; }

static const char *parse_ident(parser_t *p) {
    if (!is_ident_start(peek(p))) return NULL;
    size_t start = p->pos;
    while (peek(p) != -1 && is_ident_char(peek(p))) advance(p);
    return arena_strndup(p->a, p->s + start, p->pos - start);
}

static const char *describe_char(parser_t *p) {
    int c = peek(p);
    if (c == -1) return "end of file";
    if (c == '\n') return "end of line";
    if (c < 0x20 || c >= 0x7f) return arena_sprintf(p->a, "byte 0x%02X", c);
    return arena_sprintf(p->a, "'%c'", c);
}

static void put_utf8(buf_t *b, unsigned long cp) {
    if (cp < 0x80) {
        buf_putc(b, (char)cp);
    } else if (cp < 0x800) {
        buf_putc(b, (char)(0xC0 | (cp >> 6)));
        buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        buf_putc(b, (char)(0xE0 | (cp >> 12)));
        buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    } else {
        buf_putc(b, (char)(0xF0 | (cp >> 18)));
        buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
        buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        buf_putc(b, (char)(0x80 | (cp & 0x3F)));
    }
}

/* Template text shared by quoted strings and heredocs: `$${` → `${`, `%%{` → `%{`; a bare `${` or
 * `%{` is a template we do not support. Returns false on error; consumed chars are appended. */
static bool parse_template_sigil(parser_t *p, buf_t *b) {
    int c = peek(p);
    if (peek_at(p, 1) == c && peek_at(p, 2) == '{') {
        buf_putc(b, (char)c);
        buf_putc(b, '{');
        advance(p);
        advance(p);
        advance(p);
        return true;
    }
    if (peek_at(p, 1) == '{')
        return FAIL(p, c == '$' ? "template interpolation '${' is not supported; write '$${' for a literal '${'"
                                : "template directive '%%{' is not supported; write '%%%%{' for a literal '%%{'");
    buf_putc(b, (char)c);
    advance(p);
    return true;
}

static const char *parse_quoted(parser_t *p) {
    int l = p->line, col = p->col;
    advance(p); /* opening quote */
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
            if (!parse_template_sigil(p, &b)) {
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
            fail_at(p, el, ec, "invalid escape sequence '\\%c' in string; use \\n, \\r, \\t, \\\", \\\\, \\uXXXX or \\UXXXXXXXX",
                    c > 0x20 && c < 0x7f ? c : '?');
            return NULL;
        }
        advance(p);
        if (digits) {
            unsigned long cp = 0;
            for (int i = 0; i < digits; i++) {
                int h = peek(p);
                int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (v < 0) {
                    buf_free(&b);
                    fail_at(p, el, ec, "invalid unicode escape: \\%c needs %d hex digits", digits == 4 ? 'u' : 'U', digits);
                    return NULL;
                }
                cp = cp * 16 + (unsigned long)v;
                advance(p);
            }
            if (cp == 0) {
                buf_free(&b);
                fail_at(p, el, ec, "a NUL character (\\u0000) in a string is not supported");
                return NULL;
            }
            if (cp > 0x10FFFF) {
                buf_free(&b);
                fail_at(p, el, ec, "invalid unicode escape: U+%lX is beyond U+10FFFF", cp);
                return NULL;
            }
            put_utf8(&b, cp);
        }
    }
    const char *s = buf_arena_str(&b, p->a);
    buf_free(&b);
    return s;
}

/* `<<EOT` / `<<-EOT` up to a line holding only the marker; the value keeps each line's newline.
 * The indented form strips the smallest indentation of the non-blank lines. */
static const char *parse_heredoc(parser_t *p) {
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
    size_t n_lines = 0, cap = 16;
    const char **starts = malloc(cap * sizeof *starts);
    size_t *lens = malloc(cap * sizeof *lens);
    if (!starts || !lens) abort();
    bool closed = false;
    while (p->pos < p->len) {
        size_t s = p->pos, e = s;
        while (e < p->len && p->s[e] != '\n') e++;
        size_t t = s;
        while (t < e && (p->s[t] == ' ' || p->s[t] == '\t')) t++;
        size_t te = e;
        while (te > t && p->s[te - 1] == '\r') te--;
        if (te - t == strlen(marker) && memcmp(p->s + t, marker, te - t) == 0) {
            while (p->pos < e) advance(p);
            closed = true;
            break;
        }
        if (n_lines == cap) {
            cap *= 2;
            starts = realloc(starts, cap * sizeof *starts);
            lens = realloc(lens, cap * sizeof *lens);
            if (!starts || !lens) abort();
        }
        starts[n_lines] = p->s + s;
        lens[n_lines++] = e - s;
        while (p->pos < e) advance(p);
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
            while (k < lens[i] && (starts[i][k] == ' ' || starts[i][k] == '\t')) k++;
            if (k == lens[i]) continue; /* blank lines do not count */
            if (k < strip) strip = k;
        }
        if (strip == (size_t)-1) strip = 0;
    }
    /* the text is a template: the sigil rules of quoted strings apply; parse it with a sub-parser
     * over the assembled lines so errors still point into the file */
    buf_t b;
    buf_init(&b);
    const char *result = NULL;
    for (size_t i = 0; i < n_lines; i++) {
        size_t off = strip < lens[i] ? strip : lens[i];
        const char *t = starts[i] + off;
        size_t tl = lens[i] - off;
        for (size_t k = 0; k < tl; k++) {
            char c = t[k];
            if ((c == '$' || c == '%') && k + 1 < tl && t[k + 1] == '{') {
                fail_at(p, l + 1 + (int)i, (int)(off + k + 1),
                        c == '$' ? "template interpolation '${' is not supported; write '$${' for a literal '${'"
                                 : "template directive '%%{' is not supported; write '%%%%{' for a literal '%%{'");
                goto done;
            }
            if ((c == '$' || c == '%') && k + 2 < tl && t[k + 1] == c && t[k + 2] == '{') k++;
            buf_putc(&b, c);
        }
        buf_putc(&b, '\n');
    }
    result = buf_arena_str(&b, p->a);
done:
    buf_free(&b);
    free(starts);
    free(lens);
    return result;
}

static pcl_expr_t *new_expr(parser_t *p, pcl_expr_kind_t k) {
    pcl_expr_t *e = arena_alloc(p->a, sizeof *e);
    e->kind = k;
    return e;
}

static pcl_expr_t *parse_expr(parser_t *p);

static pcl_expr_t *parse_number(parser_t *p) {
    size_t start = p->pos;
    while (peek(p) >= '0' && peek(p) <= '9') advance(p);
    if (peek(p) == '.' && peek_at(p, 1) >= '0' && peek_at(p, 1) <= '9') {
        advance(p);
        while (peek(p) >= '0' && peek(p) <= '9') advance(p);
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
        while (peek(p) >= '0' && peek(p) <= '9') advance(p);
    }
    char *text = arena_strndup(p->a, p->s + start, p->pos - start);
    pcl_expr_t *e = new_expr(p, PCL_NUMBER);
    e->n = strtod(text, NULL);
    return e;
}

/* Items of `[...]` or `(...)`: expressions separated by commas, newlines free, trailing comma ok. */
static bool parse_list(parser_t *p, int close, pcl_expr_t ***items, size_t *n) {
    size_t cap = 0;
    advance(p);
    for (;;) {
        if (!skip_ws(p, true)) return false;
        if (peek(p) == close) {
            advance(p);
            return true;
        }
        pcl_expr_t *e = parse_expr(p);
        if (!e) return false;
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 4;
            *items = arena_grow(p->a, *items, cap * sizeof **items, nc * sizeof **items);
            cap = nc;
        }
        (*items)[(*n)++] = e;
        if (!skip_ws(p, true)) return false;
        if (peek(p) == ',') {
            advance(p);
        } else if (peek(p) != close) {
            return FAIL(p, "expected ',' or '%c' but found %s", close, describe_char(p));
        }
    }
}

static pcl_expr_t *parse_object(parser_t *p) {
    pcl_expr_t *e = new_expr(p, PCL_OBJECT);
    size_t cap = 0;
    advance(p);
    for (;;) {
        if (!skip_ws(p, true)) return NULL;
        if (peek(p) == '}') {
            advance(p);
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
        if (peek(p) == ',') advance(p);
        else if (peek(p) != '\n' && peek(p) != '}') {
            FAIL(p, "expected a new line, ',' or '}' after the value of '%s' but found %s", it.key, describe_char(p));
            return NULL;
        }
        if (e->object.n == cap) {
            size_t nc = cap ? cap * 2 : 4;
            e->object.items = arena_grow(p->a, e->object.items, cap * sizeof *e->object.items, nc * sizeof *e->object.items);
            cap = nc;
        }
        e->object.items[e->object.n++] = it;
    }
}

/* root, then `.attr`, `[0]`, `["key"]` parts. */
static pcl_expr_t *parse_traversal(parser_t *p, const char *root) {
    pcl_expr_t *e = new_expr(p, PCL_TRAVERSAL);
    e->trav.root = root;
    size_t cap = 0;
    for (;;) {
        pcl_trav_part_t part = {0};
        if (peek(p) == '.' && is_ident_start(peek_at(p, 1))) {
            advance(p);
            part.attr = parse_ident(p);
        } else if (peek(p) == '[') {
            advance(p);
            if (!skip_ws(p, true)) return NULL;
            if (peek(p) == '"') {
                part.index_is_string = true;
                part.index_str = parse_quoted(p);
                if (!part.index_str) return NULL;
            } else if (peek(p) >= '0' && peek(p) <= '9') {
                size_t v = 0;
                while (peek(p) >= '0' && peek(p) <= '9') {
                    v = v * 10 + (size_t)(peek(p) - '0');
                    advance(p);
                }
                part.index_num = v;
            } else {
                FAIL(p, "expected a number or a quoted key inside '[ ]' but found %s", describe_char(p));
                return NULL;
            }
            if (!skip_ws(p, true)) return NULL;
            if (peek(p) != ']') {
                FAIL(p, "expected ']' but found %s", describe_char(p));
                return NULL;
            }
            advance(p);
        } else {
            return e;
        }
        if (e->trav.n == cap) {
            size_t nc = cap ? cap * 2 : 2;
            e->trav.parts = arena_grow(p->a, e->trav.parts, cap * sizeof *e->trav.parts, nc * sizeof *e->trav.parts);
            cap = nc;
        }
        e->trav.parts[e->trav.n++] = part;
    }
}

static pcl_expr_t *parse_expr(parser_t *p) {
    if (!skip_ws(p, false)) return NULL;
    int c = peek(p);
    int l = p->line, col = p->col;
    pcl_expr_t *e = NULL;
    if (c == '"') {
        const char *s = parse_quoted(p);
        if (!s) return NULL;
        e = new_expr(p, PCL_STRING);
        e->s = s;
    } else if (c == '<' && peek_at(p, 1) == '<') {
        const char *s = parse_heredoc(p);
        if (!s) return NULL;
        e = new_expr(p, PCL_STRING);
        e->s = s;
    } else if (c == '[') {
        e = new_expr(p, PCL_TUPLE);
        if (!parse_list(p, ']', &e->tuple.items, &e->tuple.n)) return NULL;
    } else if (c == '{') {
        e = parse_object(p);
    } else if (c == '(') {
        advance(p);
        if (!skip_ws(p, true)) return NULL;
        e = parse_expr(p);
        if (!e || !skip_ws(p, true)) return NULL;
        if (peek(p) != ')') {
            FAIL(p, "expected ')' but found %s", describe_char(p));
            return NULL;
        }
        advance(p);
    } else if (c == '-') {
        advance(p);
        e = parse_expr(p);
        if (!e) return NULL;
        if (e->kind != PCL_NUMBER) {
            fail_at(p, l, col, "unary minus is only supported on a number literal");
            return NULL;
        }
        e->n = -e->n;
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
            if (!parse_list(p, ')', &e->call.args, &e->call.n)) return NULL;
        } else {
            e = parse_traversal(p, id);
        }
    } else {
        FAIL(p, "expected an expression but found %s", describe_char(p));
        return NULL;
    }
    if (!e) return NULL;
    /* operators, conditionals and splats are outside the subset: name them instead of "unexpected" */
    if (!skip_ws(p, false)) return NULL;
    c = peek(p);
    if (c > 0 && strchr("+*/<>!?&|", c) && !(c == '/' && (peek_at(p, 1) == '/' || peek_at(p, 1) == '*'))) {
        FAIL(p, "operator '%c' is not supported in cimport's PCL subset", c);
        return NULL;
    }
    return e;
}

/* --- blocks ----------------------------------------------------------------------------------------- */

typedef struct attr_list {
    pcl_attr_t *items;
    size_t n, cap;
} attr_list_t;

static void attr_push(parser_t *p, attr_list_t *l, const char *name, pcl_expr_t *v, int line, int col) {
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 8;
        l->items = arena_grow(p->a, l->items, l->cap * sizeof *l->items, nc * sizeof *l->items);
        l->cap = nc;
    }
    l->items[l->n++] = (pcl_attr_t){name, v, NULL, line, col};
}

static bool expect_line_end(parser_t *p, const char *what) {
    if (!skip_ws(p, false)) return false;
    int c = peek(p);
    if (c == '\n' || c == '}' || c == -1) return true;
    return FAIL(p, "expected a new line after %s but found %s", what, describe_char(p));
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
            if (is_options || strcmp(name, "options") != 0 || (kind != PCL_NODE_RESOURCE && kind != PCL_NODE_COMPONENT))
                return fail_at(p, al, ac, "unsupported block '%s' here; only resources and components have a nested block, 'options'", name);
            if (seen_options) return fail_at(p, al, ac, "a resource has only one options block");
            seen_options = true;
            if (!parse_body(p, node_index, true, opts, NULL)) return false;
            if (!expect_line_end(p, "the options block")) return false;
            continue;
        }
        if (peek(p) != '=') return FAIL(p, "expected '=' after the attribute name '%s' but found %s", name, describe_char(p));
        advance(p);
        pcl_expr_t *v = parse_expr(p);
        if (!v || !expect_line_end(p, arena_sprintf(p->a, "the value of '%s'", name))) return false;
        pcl_node_t *n = &p->prog->nodes[node_index];
        if (!is_options && strcmp(name, "__logicalName") == 0) {
            if (v->kind != PCL_STRING) return fail_at(p, al, ac, "__logicalName must be a string literal");
            if (kind == PCL_NODE_CONFIG) n->config_key = v->s;
            else n->logical_name = v->s;
        } else if (!is_options && kind == PCL_NODE_CONFIG && (strcmp(name, "__secret") == 0 || strcmp(name, "secret") == 0)) {
            if (v->kind != PCL_BOOL) return fail_at(p, al, ac, "%s must be true or false", name);
            n->config_secret = v->b;
        } else if (!is_options && kind == PCL_NODE_CONFIG && strcmp(name, "description") == 0) {
            if (v->kind != PCL_STRING) return fail_at(p, al, ac, "a config description must be a string literal");
        } else if (!is_options && kind == PCL_NODE_CONFIG) {
            return fail_at(p, al, ac,
                           "config attribute '%s' is not supported (cimport reads 'secret' and 'description'); "
                           "remove it or set the value in the stack configuration",
                           name);
        } else if (is_options && pcl_option_kind(name) == PCL_OPT_UNKNOWN) {
            return fail_at(p, al, ac,
                           "unknown resource option '%s'; PCL options are parent, provider, dependsOn, protect, "
                           "retainOnDelete, ignoreChanges, deletedWith, replaceWith, import, aliases, customTimeouts, "
                           "deleteBeforeReplace, replaceOnChanges, additionalSecretOutputs, hideDiffs, version, "
                           "pluginDownloadURL, range, providers, hooks, replacementTrigger, envVarMappings",
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

static bool parse_block(parser_t *p) {
    int l = p->line, c = p->col;
    const char *kw = parse_ident(p);
    if (!kw) return FAIL(p, "expected a block (package, resource, component or config) but found %s", describe_char(p));
    pcl_node_kind_t kind;
    if (strcmp(kw, "package") == 0) kind = PCL_NODE_PACKAGE;
    else if (strcmp(kw, "resource") == 0) kind = PCL_NODE_RESOURCE;
    else if (strcmp(kw, "component") == 0) kind = PCL_NODE_COMPONENT;
    else if (strcmp(kw, "config") == 0) kind = PCL_NODE_CONFIG;
    else if (strcmp(kw, "output") == 0) kind = PCL_NODE_OUTPUT;
    else return fail_at(p, l, c, "unsupported block type '%s': cimport reads package, resource, component, config and output blocks", kw);
    const char *name = parse_label(p, arena_sprintf(p->a, "the %s name", kw));
    if (!name) return false;
    const char *token = NULL;
    if (kind == PCL_NODE_RESOURCE || kind == PCL_NODE_CONFIG) {
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
        return fail_at(p, l, c, "'%s' is declared twice; every resource, component and config needs its own name", name);
    pcl_node_t *n = pcl_program_add(p->prog, kind);
    n->name = name;
    n->token = token;
    n->line = l;
    n->col = c;
    size_t idx = p->prog->n_nodes - 1;
    attr_list_t attrs = {0}, opts = {0};
    if (!parse_body(p, idx, false, &attrs, &opts)) return false;
    n = &p->prog->nodes[idx];
    n->attrs = attrs.items;
    n->n_attrs = attrs.n;
    sort_options(opts.items, opts.n);
    n->options = opts.items;
    n->n_options = opts.n;
    if (kind == PCL_NODE_CONFIG && !n->config_key) n->config_key = n->name;
    if (kind == PCL_NODE_OUTPUT && (n->n_attrs != 1 || strcmp(n->attrs[0].name, "value") != 0))
        return fail_at(p, l, c, "output '%s' needs exactly one attribute, value = <expression>", name);
    if (kind == PCL_NODE_COMPONENT && !n->token)
        return fail_at(p, l, c, "component '%s' has no token attribute naming its type", name);
    return expect_line_end(p, "the block");
}

pcl_program_t *pcl_parse(const char *text, size_t len, const char *filename, diag_list_t *diags) {
    pcl_program_t *prog = pcl_program_new();
    parser_t p = {.s = text, .len = len, .line = 1, .col = 1, .file = filename ? filename : "<input>",
                  .diags = diags, .prog = prog, .a = prog->arena};
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

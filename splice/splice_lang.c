/* splice_lang.c — what the splicer reads from a parsed program, per language: its imports (with the
 * names they bind), the statements of the program body and what they declare, the resources it
 * defines (logical name + canonical type), every identifier (for clash-free names), the identifiers
 * that may be renamed, and where new statements go.
 *
 * Facts are tied to the pinned grammar versions (cmake/grammars.cmake); docs/reference/
 * tree-sitter.md §2-§3 lists the shapes. The C runtime (0.20.7) does not evaluate query
 * predicates, so the queries below have none; the checks they would make are done in C. */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <string.h>

#include "emitters/ts_check.h"
#include "splice/splice_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* text helpers                                                                                    */

const char *sp_node_text(sp_program_t *p, TSNode n) {
    uint32_t s = ts_node_start_byte(n), e = sp_end_byte(n);
    return arena_strndup(p->a, p->text + s, e - s);
}

/* ts_node_child_by_field_name finds the field's ID by comparing the name with each of the grammar's
 * field names, every call; a splice asks for a few names hundreds of thousands of times. The IDs are
 * remembered by grammar and name (the callers pass string literals), per thread. */
TSNode sp_field(TSNode n, const char *name, uint32_t len) {
    enum { SLOTS = 64 };
    static _Thread_local struct {
        const TSLanguage *lang;
        const char *name;
        TSFieldId id;
    } seen[SLOTS];
    if (ts_node_is_null(n)) return n;
    const TSLanguage *lang = ts_tree_language(n.tree);
    size_t h = (((uintptr_t)name >> 3) ^ ((uintptr_t)lang >> 4)) % SLOTS;
    if (seen[h].lang != lang || seen[h].name != name) {
        seen[h].lang = lang;
        seen[h].name = name;
        seen[h].id = ts_language_field_id_for_name(lang, name, len);
    }
    return ts_node_child_by_field_id(n, seen[h].id);
}

uint32_t sp_line_start(const char *text, uint32_t off) {
    while (off > 0 && text[off - 1] != '\n')
        off--;
    return off;
}

uint32_t sp_line_end(const char *text, uint32_t len, uint32_t off) {
    while (off < len && text[off] != '\n')
        off++;
    return off < len ? off + 1 : off;
}

const char *sp_line_indent(sp_program_t *p, uint32_t off) {
    uint32_t s = sp_line_start(p->text, off), e = s;
    if (s == 0 && p->bom) s = e = 3;
    while (e < p->len && (p->text[e] == ' ' || p->text[e] == '\t'))
        e++;
    return arena_strndup(p->a, p->text + s, e - s);
}

TSNode *sp_named_children(arena_t *a, TSNode n, uint32_t *count) {
    uint32_t cap = sp_nchild_count(n), k = 0;
    TSNode *v = arena_alloc(a, (cap + 1) * sizeof *v);
    TSTreeCursor cur = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cur)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cur);
            if (ts_node_is_named(c) && k < cap) v[k++] = c;
        } while (ts_tree_cursor_goto_next_sibling(&cur));
    }
    ts_tree_cursor_delete(&cur);
    *count = k;
    return v;
}

TSNode *sp_kids(sp_program_t *p, TSNode n, uint32_t *count) {
    if (!sp_is_hold(p, n)) return sp_named_children(p->a, n, count);
    uint32_t n1, n2 = 0;
    TSNode *v1 = sp_named_children(p->a, p->hold, &n1);
    TSNode *v2 = sp_named_children(p->a, p->hold2, &n2);
    TSNode *v = arena_alloc(p->a, (n1 + n2 + 1) * sizeof *v);
    memcpy(v, v1, n1 * sizeof *v);
    memcpy(v + n1, v2, n2 * sizeof *v);
    *count = n1 + n2;
    return v;
}

TSNode *sp_top_children(sp_program_t *p, uint32_t *count) {
    if (!p->top || p->top_of != p->tree) {
        p->top = sp_kids(p, p->root, &p->ntop);
        p->top_of = p->tree;
    }
    *count = p->ntop;
    return p->top;
}

static bool sp_is(TSNode n, const char *type) {
    return !ts_node_is_null(n) && strcmp(sp_type(n), type) == 0;
}

static bool sp_is_comment(TSNode n) {
    const char *t = sp_type(n);
    return strcmp(t, "comment") == 0 || strcmp(t, "line_comment") == 0 || strcmp(t, "block_comment") == 0;
}

/* Whether a Python comment must stay above the imports: a `#!` line opening the file, or an encoding
 * declaration (PEP 263: a comment alone on line 1 or 2 holding `coding:` or `coding=` and a name). */
static bool sp_python_header_comment(const sp_program_t *p, TSNode c) {
    uint32_t s = ts_node_start_byte(c), e = sp_end_byte(c), base = p->bom ? 3 : 0;
    if (s == base && e - s >= 2 && p->text[s + 1] == '!') return true;
    uint32_t ls = s;
    for (; ls > base && p->text[ls - 1] != '\n'; ls--)
        if (p->text[ls - 1] != ' ' && p->text[ls - 1] != '\t' && p->text[ls - 1] != '\f') return false;
    unsigned line = 0;
    for (uint32_t i = base; i < ls; i++)
        if (p->text[i] == '\n' && ++line > 1) return false;
    for (uint32_t i = s; i + 7 <= e; i++) {
        if (memcmp(p->text + i, "coding", 6) != 0 || (p->text[i + 6] != ':' && p->text[i + 6] != '=')) continue;
        uint32_t k = i + 7;
        while (k < e && (p->text[k] == ' ' || p->text[k] == '\t'))
            k++;
        return k < e &&
               (isalnum((unsigned char)p->text[k]) || p->text[k] == '-' || p->text[k] == '_' || p->text[k] == '.');
    }
    return false;
}

/* Appends code point cp to b in UTF-8; false for a surrogate or a value past U+10FFFF. */
static bool sp_put_utf8(buf_t *b, uint32_t cp) {
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    buf_put_utf8(b, cp);
    return true;
}

/* The value of exactly n hex digits at s (n > 0), or -1. */
static long sp_hex(const char *s, const char *end, int n) {
    long v = 0;
    for (int i = 0; i < n; i++) {
        if (s + i >= end || !isxdigit((unsigned char)s[i])) return -1;
        v = v * 16 + (isdigit((unsigned char)s[i]) ? s[i] - '0' : (tolower((unsigned char)s[i]) - 'a' + 10));
    }
    return v;
}

/* The text between a literal's quotes, s..end, with its escapes decoded the way `lang` reads them;
 * NULL for an escape that is not sure to mean one thing here (octal, a line continuation, C#'s
 * variable-length \x): the value is then unknown. */
static const char *sp_unescape(sp_program_t *p, const char *s, const char *end) {
    if (!memchr(s, '\\', (size_t)(end - s))) return arena_strndup(p->a, s, (size_t)(end - s));
    buf_t b;
    buf_init(&b);
    bool ok = true;
    while (ok && s < end) {
        if (*s != '\\') {
            buf_putc(&b, *s++);
            continue;
        }
        if (++s >= end) {
            ok = false;
            break;
        }
        char e = *s++;
        long v;
        switch (e) {
        case 'n': buf_putc(&b, '\n'); break;
        case 't': buf_putc(&b, '\t'); break;
        case 'r': buf_putc(&b, '\r'); break;
        case 'b': buf_putc(&b, '\b'); break;
        case 'f': buf_putc(&b, '\f'); break;
        case 'v': buf_putc(&b, '\v'); break;
        case '\\':
        case '\'':
        case '"': buf_putc(&b, e); break;
        case '`':
            ok = p->lang == LANG_TYPESCRIPT;
            buf_putc(&b, e);
            break;
        case '0':
            ok = s >= end || !isdigit((unsigned char)*s);
            buf_putc(&b, '\0');
            break;
        case 'x':
            v = p->lang == LANG_CSHARP || p->lang == LANG_JAVA ? -1 : sp_hex(s, end, 2);
            s += 2;
            if (v < 0)
                ok = false;
            else if (p->lang == LANG_GO)
                buf_putc(&b, (char)v); /* a byte */
            else
                ok = sp_put_utf8(&b, (uint32_t)v);
            break;
        case 'u':
            if (p->lang == LANG_TYPESCRIPT && s < end && *s == '{') {
                const char *c = memchr(s, '}', (size_t)(end - s));
                v = c && c - s - 1 >= 1 && c - s - 1 <= 6 ? sp_hex(s + 1, end, (int)(c - s - 1)) : -1;
                s = c ? c + 1 : end;
                ok = v >= 0 && sp_put_utf8(&b, (uint32_t)v);
                break;
            }
            v = sp_hex(s, end, 4);
            s += 4;
            if (v >= 0xD800 && v <= 0xDBFF && p->lang != LANG_PYTHON && p->lang != LANG_GO && end - s >= 6 &&
                s[0] == '\\' && s[1] == 'u') { /* a UTF-16 surrogate pair */
                long lo = sp_hex(s + 2, end, 4);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
                    s += 6;
                }
            }
            ok = v >= 0 && sp_put_utf8(&b, (uint32_t)v);
            break;
        case 'U':
            v = p->lang == LANG_TYPESCRIPT || p->lang == LANG_JAVA ? -1 : sp_hex(s, end, 8);
            s += 8;
            ok = v >= 0 && sp_put_utf8(&b, (uint32_t)v);
            break;
        case 'a':
            ok = p->lang != LANG_TYPESCRIPT && p->lang != LANG_JAVA;
            buf_putc(&b, '\a');
            break;
        default: ok = false; break;
        }
    }
    const char *r = ok ? buf_arena_str(&b, p->a) : NULL;
    buf_free(&b);
    return r;
}

/* The value of a string literal as the program reads it: quoted strings with their escapes decoded,
 * TypeScript template literals without substitutions, Python's prefixed and triple-quoted strings
 * (not f-strings or bytes), Go raw strings, C# verbatim and one-line raw strings. NULL for anything
 * else (an expression, an interpolation, a Java text block): the value is then unknown. */
static const char *sp_string_value(sp_program_t *p, TSNode n) {
    const char *type = sp_type(n);
    if (strcmp(type, "template_string") == 0) {
        for (uint32_t i = 0; i < sp_nchild_count(n); i++)
            if (sp_is(sp_nchild(n, i), "template_substitution")) return NULL;
    } else if (!strstr(type, "string") || strstr(type, "interpolat") || strcmp(type, "string_content") == 0) {
        return NULL;
    }
    const char *t = sp_node_text(p, n), *end = t + strlen(t);
    bool raw = false;
    if (p->lang == LANG_PYTHON) {
        for (; *t && strchr("rRuUbBfF", *t); t++) {
            if (strchr("bBfF", *t)) return NULL;
            raw |= *t == 'r' || *t == 'R';
        }
    } else if (p->lang == LANG_CSHARP && *t == '@') {
        /* verbatim: no escapes, "" is a quote */
        if (end - t < 3 || t[1] != '"' || end[-1] != '"') return NULL;
        buf_t b;
        buf_init(&b);
        for (const char *k = t + 2; k < end - 1; k++) {
            buf_putc(&b, *k);
            if (*k == '"') k++;
        }
        const char *r = buf_arena_str(&b, p->a);
        buf_free(&b);
        return r;
    } else if (p->lang == LANG_GO && *t == '`') {
        if (end - t < 2 || end[-1] != '`') return NULL;
        buf_t b;
        buf_init(&b);
        for (const char *k = t + 1; k < end - 1; k++)
            if (*k != '\r') buf_putc(&b, *k); /* Go drops carriage returns from raw strings */
        const char *r = buf_arena_str(&b, p->a);
        buf_free(&b);
        return r;
    }
    size_t l = (size_t)(end - t);
    if (l < 2 || (t[0] != '"' && t[0] != '\'' && t[0] != '`') || end[-1] != t[0]) return NULL;
    size_t q = 1;
    if (l >= 6 && t[1] == t[0] && t[2] == t[0]) { /* triple-quoted (Python), raw (C#), a text block (Java) */
        while (q < l / 2 && t[q] == t[0])
            q++;
        if (p->lang == LANG_JAVA || memchr(t, '\n', l)) return NULL;
        raw |= p->lang == LANG_CSHARP;
    }
    if (l < 2 * q) return NULL;
    return raw ? arena_strndup(p->a, t + q, l - 2 * q) : sp_unescape(p, t + q, end - q);
}

/* Whether Python code holds a comment: a `#` outside its string literals (text without backslashes). */
static bool sp_py_has_comment(const char *text) {
    for (const char *k = text; *k; k++) {
        if (*k == '#') return true;
        if (*k != '"' && *k != '\'') continue;
        size_t q = strncmp(k, k[0] == '"' ? "\"\"\"" : "'''", 3) == 0 ? 3 : 1;
        const char *e = k + q;
        while (*e && strncmp(e, k, q) != 0)
            e++;
        if (!*e) return false;
        k = e + q - 1;
    }
    return false;
}

const char *sp_interpolation_fault(sp_program_t *p, uint32_t start, uint32_t end, const char *text) {
    if (p->lang != LANG_PYTHON && p->lang != LANG_CSHARP) return NULL;
    bool nl = strchr(text, '\n') != NULL;
    const char *why = NULL;
    /* down from the root along the nodes holding the range (one pass: ts_node_parent in runtime
     * 0.20.7 walks down from the root at every call) */
    TSTreeCursor cur = ts_tree_cursor_new(sp_root_at(p, start));
    TSNode parent = {0};
    while (!why && ts_tree_cursor_goto_first_child_for_byte(&cur, start) >= 0) {
        TSNode n = ts_tree_cursor_current_node(&cur), up = parent;
        if (ts_node_start_byte(n) > start || sp_end_byte(n) < end) break;
        parent = n;
        if (!sp_is(n, "interpolation") || ts_node_is_null(up)) continue;
        TSNode head = sp_child(up, 0);
        if (ts_node_is_null(head) || ts_node_eq(head, n)) continue;
        const char *h = sp_node_text(p, head); /* Python `rf'''`, C# `$@"` */
        if (p->lang == LANG_CSHARP) {
            /* a verbatim string's hole held line breaks before C# 11; a raw string is C# 11's own */
            if (sp_is(up, "interpolated_string_expression") && nl && !strchr(h, '@') && !strstr(h, "\"\"\""))
                why = "line breaks, which C# allows in the hole of an interpolated string that is not verbatim "
                      "(`$@\"...\"`) only from C# 11 (.NET 7) on";
            continue;
        }
        if (!sp_is(up, "string")) continue;
        size_t hl = strlen(h);
        char q = hl ? h[hl - 1] : '"';
        bool triple = hl >= 3 && h[hl - 2] == q && h[hl - 3] == q;
        const char *what = strchr(text, '\\')                                    ? "a backslash"
                           : sp_py_has_comment(text)                             ? "a comment"
                           : !triple && nl                                       ? "line breaks"
                           : !triple && strchr(text, q)                          ? "the f-string's own quote"
                           : triple && strstr(text, q == '"' ? "\"\"\"" : "'''") ? "the f-string's own quotes"
                                                                                 : NULL;
        if (what)
            why = arena_sprintf(p->a, "%s, which Python allows in an f-string's replacement field only from 3.12 on",
                                what);
    }
    ts_tree_cursor_delete(&cur);
    return why;
}

const char *sp_first_string(sp_program_t *p, uint32_t start, uint32_t end) {
    TSNode top = ts_node_descendant_for_byte_range(sp_root_at(p, start), start, end);
    if (ts_node_is_null(top)) return NULL;
    TSTreeCursor cur = ts_tree_cursor_new(top);
    const char *v = NULL;
    for (bool more = true; more && !v;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (ts_node_start_byte(n) >= start && sp_end_byte(n) <= end && ts_node_is_named(n) &&
            (strstr(sp_type(n), "string") || strcmp(sp_type(n), "template_string") == 0)) {
            v = sp_string_value(p, n);
            if (!v) break; /* the first string is not a literal: unknown */
            continue;
        }
        if (ts_tree_cursor_goto_first_child(&cur)) continue;
        while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
            if (!ts_tree_cursor_goto_parent(&cur)) break;
    }
    ts_tree_cursor_delete(&cur);
    return v;
}

/* ---------------------------------------------------------------------------------------------- */
/* queries (compiled on first use per language, kept in the splicer)                               */

/* A query is one string literal split over lines, which bugprone-suspicious-missing-comma reads as a
 * missing comma. NOLINTBEGIN(bugprone-suspicious-missing-comma) */
static const char *const SP_IMPORT_QUERY[LANG_YAML + 1] = {
    [LANG_TYPESCRIPT] = "(import_statement) @import\n"
                        "((lexical_declaration (variable_declarator name: (identifier) value: (call_expression "
                        "function: (identifier) arguments: (arguments . (string) .)))) @require)",
    [LANG_PYTHON] = "[(import_statement) (import_from_statement) (future_import_statement)] @import",
    [LANG_GO] = "(import_spec) @import",
    [LANG_CSHARP] = "(using_directive) @import",
    [LANG_JAVA] = "(import_declaration) @import",
};

static const char *const SP_RESOURCE_QUERY[LANG_YAML + 1] = {
    [LANG_TYPESCRIPT] = "(new_expression constructor: [(member_expression) (identifier)] @type "
                        "arguments: (arguments . (_) @name)) @res\n"
                        /* `new (random.RandomPet)(...)`, `new ((RandomPet))(...)` */
                        "(new_expression constructor: (parenthesized_expression . [(member_expression) (identifier)] "
                        "@type .) arguments: (arguments . (_) @name)) @res\n"
                        "(new_expression constructor: (parenthesized_expression . (parenthesized_expression . "
                        "[(member_expression) (identifier)] @type .) .) arguments: (arguments . (_) @name)) @res",
    [LANG_PYTHON] = "(call function: [(attribute) (identifier)] @type arguments: (argument_list . (_) @name)) @res",
    [LANG_GO] =
        "(call_expression function: (selector_expression operand: (identifier) field: (field_identifier)) @type "
        "arguments: (argument_list . (identifier) . (_) @name)) @res\n"
        /* ctx.RegisterComponentResource("type", "name", state, ...): a component (the type checked later) */
        "(call_expression function: (selector_expression operand: (identifier) field: (field_identifier)) "
        "arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @type . (_) @name)) @res\n"
        /* mk(ctx, "name", ...): a function value (`mk := random.NewRandomString`), a dot import's
         * constructor, a method of a value (sp_go_value_callee): what it makes cannot be told */
        "(call_expression function: [(identifier) (func_literal) (index_expression) (parenthesized_expression) "
        "(call_expression) (type_assertion_expression) (type_instantiation_expression) (selector_expression "
        "operand: [(selector_expression) (call_expression) (index_expression) (parenthesized_expression) "
        "(type_assertion_expression)])] @type "
        "arguments: (argument_list . (identifier) . [(interpreted_string_literal) (raw_string_literal)] @name)) @res",
    [LANG_CSHARP] = "(object_creation_expression type: (_) @type arguments: (argument_list . (argument) @name)) @res",
    [LANG_JAVA] = "(object_creation_expression type: (_) @type arguments: (argument_list . (_) @name)) @res",
};
/* NOLINTEND(bugprone-suspicious-missing-comma) */

static TSQuery *sp_compile(lang_t lang, const char *src, diag_list_t *diags) {
    uint32_t err_off = 0;
    TSQueryError err = TSQueryErrorNone;
    TSQuery *q = ts_query_new(ts_check_language(lang), src, (uint32_t)strlen(src), &err_off, &err);
    if (!q)
        diag_error(diags, DIAG_CODEGEN,
                   "internal error: the %s splice query does not fit the built-in grammar (error %d at byte %u); "
                   "the grammar pin and splice/splice_lang.c disagree",
                   lang_name(lang), (int)err, err_off);
    return q;
}

/* The imports query, compiled on first use: only TypeScript's `const x = require("...")` needs it
 * (a C# compile alone costs as much as the analysis of a 5,000-line file). */
static TSQuery *sp_imports_query(splicer_t *s, lang_t lang, diag_list_t *diags) {
    sp_queries_t *q = &s->q[lang];
    if (!q->tried) {
        q->tried = true;
        q->imports = sp_compile(lang, SP_IMPORT_QUERY[lang], diags);
    }
    return q->imports;
}

/* The resources query, compiled on first use (half the compile time of a TypeScript splice, and
 * a call that finds every candidate's shape without it never needs it). */
static TSQuery *sp_resources_query(splicer_t *s, lang_t lang, diag_list_t *diags) {
    sp_queries_t *q = &s->q[lang];
    if (!q->resources_tried) {
        q->resources_tried = true;
        q->resources = sp_compile(lang, SP_RESOURCE_QUERY[lang], diags);
    }
    return q->resources;
}

/* ---------------------------------------------------------------------------------------------- */
/* imports                                                                                          */

static sp_import_t *sp_add_import(sp_program_t *p, TSNode stmt, const char *path, const char *local, bool alias) {
    SP_PUSH(p->a, p->imports, p->nimports, p->cimports);
    sp_import_t *im = &p->imports[p->nimports - 1];
    memset(im, 0, sizeof *im);
    im->path = path;
    im->local = local;
    im->alias = alias;
    im->start = ts_node_start_byte(stmt);
    im->end = sp_end_byte(stmt);
    if (im->end > p->imports_end) p->imports_end = im->end;
    return im;
}

/* Go's package name for an import path: the last element, skipping a `/vN` major-version suffix,
 * without a `go-` prefix or `.vN` suffix, dashes removed. */
static const char *sp_go_package_name(arena_t *a, const char *path) {
    const char *end = path + strlen(path), *s = end;
    while (s > path && s[-1] != '/')
        s--;
    if (s > path && s[0] == 'v' && isdigit((unsigned char)s[1]) && strspn(s + 1, "0123456789") == strlen(s + 1)) {
        end = s - 1;
        s = end;
        while (s > path && s[-1] != '/')
            s--;
    }
    if (end - s > 3 && memcmp(s, "go-", 3) == 0) s += 3;
    buf_t b;
    buf_init(&b);
    for (const char *c = s; c < end && *c != '.'; c++)
        if (*c != '-') buf_putc(&b, *c);
    char *r = buf_arena_str(&b, a);
    buf_free(&b);
    return r;
}

static void sp_import_ts(sp_program_t *p, TSNode stmt, bool require) {
    if (require) {
        TSNode decl = sp_nchild(stmt, 0);
        TSNode call = sp_field(decl, "value", 5);
        TSNode fn = sp_field(call, "function", 8);
        if (strcmp(sp_node_text(p, fn), "require") != 0) return;
        TSNode args = sp_field(call, "arguments", 9);
        const char *path = sp_string_value(p, sp_nchild(args, 0));
        TSNode name = sp_field(decl, "name", 4);
        if (path) sp_add_import(p, stmt, path, sp_node_text(p, name), true);
        return;
    }
    TSNode src = sp_field(stmt, "source", 6);
    const char *path = ts_node_is_null(src) ? NULL : sp_string_value(p, src);
    if (!path) return;
    bool bound = false;
    for (uint32_t i = 0; i < sp_nchild_count(stmt); i++) {
        TSNode clause = sp_nchild(stmt, i);
        if (!sp_is(clause, "import_clause")) continue;
        for (uint32_t j = 0; j < sp_nchild_count(clause); j++) {
            TSNode c = sp_nchild(clause, j);
            if (sp_is(c, "namespace_import")) {
                sp_add_import(p, stmt, path, sp_node_text(p, sp_nchild(c, 0)), true);
                bound = true;
            } else if (sp_is(c, "identifier")) {
                sp_add_import(p, stmt, arena_sprintf(p->a, "%s.default", path), sp_node_text(p, c), true);
                bound = true;
            } else if (sp_is(c, "named_imports")) {
                for (uint32_t k = 0; k < sp_nchild_count(c); k++) {
                    TSNode spec = sp_nchild(c, k);
                    if (!sp_is(spec, "import_specifier")) continue;
                    TSNode name = sp_field(spec, "name", 4);
                    TSNode alias = sp_field(spec, "alias", 5);
                    const char *nm = sp_node_text(p, name);
                    sp_add_import(p, stmt, arena_sprintf(p->a, "%s.%s", path, nm),
                                  ts_node_is_null(alias) ? nm : sp_node_text(p, alias), true);
                    bound = true;
                }
            }
        }
    }
    if (!bound) sp_add_import(p, stmt, path, NULL, false);
}

/* Whether c, a named child of a Python import statement whose module (`from M import`) is `module`,
 * is a name the statement imports (`a.b`, `B as C`). Not by its field: the runtime's field lookup
 * (ts_node_field_name_for_child) answers `name` for the first of a list only, so `from m import A, B`
 * read that way imported A alone. */
static bool sp_python_imported_name(TSNode c, TSNode module) {
    return !ts_node_eq(c, module) && (sp_is(c, "dotted_name") || sp_is(c, "aliased_import"));
}

static void sp_import_python(sp_program_t *p, TSNode stmt) {
    const char *t = sp_type(stmt);
    if (strcmp(t, "future_import_statement") == 0) {
        sp_add_import(p, stmt, "__future__", NULL, false);
        return;
    }
    const char *from = NULL;
    if (strcmp(t, "import_from_statement") == 0) {
        TSNode m = sp_field(stmt, "module_name", 11);
        from = sp_node_text(p, m);
    }
    bool bound = false;
    TSNode module = sp_field(stmt, "module_name", 11);
    for (uint32_t i = 0; i < sp_nchild_count(stmt); i++) {
        TSNode c = sp_nchild(stmt, i);
        if (!sp_python_imported_name(c, module)) continue;
        const char *name, *alias = NULL;
        if (sp_is(c, "aliased_import")) {
            name = sp_node_text(p, sp_field(c, "name", 4));
            alias = sp_node_text(p, sp_field(c, "alias", 5));
        } else {
            name = sp_node_text(p, c);
        }
        if (from) {
            sp_add_import(p, stmt, arena_sprintf(p->a, "%s.%s", from, name), alias ? alias : name, true);
        } else if (alias) {
            sp_add_import(p, stmt, name, alias, true);
        } else {
            /* `import a.b` binds `a`, which names package a. */
            const char *dot = strchr(name, '.');
            const char *first = dot ? arena_strndup(p->a, name, (size_t)(dot - name)) : name;
            sp_add_import(p, stmt, first, first, false);
        }
        bound = true;
    }
    if (!bound && from) sp_add_import(p, stmt, from, NULL, false); /* from x import * */
}

static void sp_import_go(sp_program_t *p, TSNode spec) {
    TSNode path = sp_field(spec, "path", 4);
    TSNode name = sp_field(spec, "name", 4);
    const char *ps = sp_string_value(p, path);
    if (!ps) return;
    if (!ts_node_is_null(name)) {
        const char *n = sp_node_text(p, name);
        sp_add_import(p, spec, ps, strcmp(n, "_") == 0 || strcmp(n, ".") == 0 ? NULL : n, true);
    } else {
        sp_add_import(p, spec, ps, sp_go_package_name(p->a, ps), false);
    }
    TSNode list = ts_node_parent(spec);
    if (sp_is(list, "import_spec_list")) {
        p->go_import_block = true;
        p->go_block_end = sp_end_byte(list) - 1;
        p->imports_end = sp_end_byte(ts_node_parent(list));
    } else {
        p->imports_end = sp_end_byte(list);
    }
}

static void sp_import_csharp(sp_program_t *p, TSNode stmt) {
    TSNode alias = sp_field(stmt, "name", 4);
    TSNode target = sp_nchild(stmt, sp_nchild_count(stmt) - 1);
    for (uint32_t i = 0; i < sp_child_count(stmt); i++)
        if (strcmp(sp_type(sp_child(stmt, i)), "static") == 0) return;
    if (ts_node_is_null(target)) return;
    if (!ts_node_is_null(alias) && !ts_node_eq(alias, target))
        sp_add_import(p, stmt, sp_node_text(p, target), sp_node_text(p, alias), true);
    else
        sp_add_import(p, stmt, sp_node_text(p, target), NULL, false);
}

static void sp_import_java(sp_program_t *p, TSNode stmt) {
    bool wildcard = false, is_static = false;
    TSNode name = {0};
    for (uint32_t i = 0; i < sp_child_count(stmt); i++) {
        TSNode c = sp_child(stmt, i);
        if (sp_is(c, "asterisk"))
            wildcard = true;
        else if (strcmp(sp_type(c), "static") == 0)
            is_static = true;
        else if (sp_is(c, "scoped_identifier") || sp_is(c, "identifier"))
            name = c;
    }
    if (ts_node_is_null(name)) return;
    const char *path = sp_node_text(p, name);
    const char *dot = strrchr(path, '.');
    sp_import_t *im = sp_add_import(p, stmt, path, wildcard || is_static ? NULL : (dot ? dot + 1 : path), false);
    im->wildcard = wildcard;
    im->is_static = is_static;
}

/* ---------------------------------------------------------------------------------------------- */
/* identifiers: every name of the file, and the renamable sites                                     */

/* Whether an identifier node (type t, field in its parent f, parent type pt, the parent's field pf,
 * grandparent type gt) is a reference to or declaration of a variable/alias/class name — the
 * positions a rename must rewrite — rather than a property, keyword argument or member name. */
static bool sp_renamable(lang_t lang, const char *t, const char *f, const char *pt, const char *pf, const char *gt) {
#define EQ(a, b) ((a) && strcmp((a), (b)) == 0)
    switch (lang) {
    case LANG_TYPESCRIPT: return EQ(t, "identifier");
    case LANG_PYTHON:
        return EQ(t, "identifier") && !(EQ(pt, "keyword_argument") && EQ(f, "name")) &&
               !(EQ(pt, "attribute") && EQ(f, "attribute"));
    case LANG_GO:
        return (EQ(t, "identifier") || EQ(t, "package_identifier")) && !(EQ(pt, "literal_element") && EQ(pf, "key")) &&
               !EQ(pt, "package_clause");
    case LANG_CSHARP:
        return EQ(t, "identifier") && !(EQ(pt, "member_access_expression") && EQ(f, "name")) &&
               !(EQ(pt, "qualified_name") && EQ(f, "name")) &&
               !(EQ(pt, "assignment_expression") && EQ(f, "left") && EQ(gt, "initializer_expression"));
    case LANG_JAVA:
        return (EQ(t, "identifier") || EQ(t, "type_identifier")) && !(EQ(pt, "method_invocation") && EQ(f, "name")) &&
               !(EQ(pt, "field_access") && EQ(f, "field")) && !EQ(pt, "scoped_identifier") &&
               !(EQ(pt, "scoped_type_identifier") && EQ(f, "name"));
    case LANG_YAML:
    case LANG_PCL: return false;
    }
    return false;
#undef EQ
}

static bool sp_is_multiline_string(const char *t) {
    return strstr(t, "string") != NULL || strcmp(t, "text_block") == 0 || strcmp(t, "block_scalar") == 0 ||
           strcmp(t, "template_string") == 0;
}

/* What the walk looks for in a node type, decided once per grammar symbol (not per node: a
 * 100,000-line file has millions of nodes). */
enum { SP_SYM_IDENT = 1, SP_SYM_MULTI = 2, SP_SYM_CAND = 4, SP_SYM_PY2 = 8, SP_SYM_BIND = 16 };

/* The Python node types that may be a form only Python 2 reads (sp_py2_form). */
static bool sp_py2_type(const char *t) {
    static const char *const types[] = {"print_statement",     "exec_statement",  "integer",    "string_start",
                                        "comparison_operator", "raise_statement", "parameters", "lambda_parameters"};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(t, types[i]) == 0) return true;
    return false;
}

/* Python's bindings of a name to a value: `x = v` (also annotated, chained, or `a, x = u, v`),
 * `(x := v)`, a parameter's default `def f(x=v)`. */
static bool sp_py_bind_type(const char *t) {
    return strcmp(t, "assignment") == 0 || strcmp(t, "named_expression") == 0 || strcmp(t, "default_parameter") == 0 ||
           strcmp(t, "typed_default_parameter") == 0;
}

/* The value a Python binding n (sp_py_bind_type) gives, through a chain (`a = b = v`: v). */
static TSNode sp_py_bind_value(TSNode n) {
    if (sp_is(n, "assignment")) {
        TSNode v = sp_field(n, "right", 5);
        while (sp_is(v, "assignment"))
            v = sp_field(v, "right", 5);
        return v;
    }
    return sp_field(n, "value", 5);
}

/* Whether a value node's kind may be a class (a name or attribute, alone or among others): the
 * bindings the walk keeps for sp_py_class_names. A call's result, a literal, an operation are not. */
static bool sp_py_may_be_class(TSNode v) {
    static const char *const types[] = {
        "identifier",      "attribute", "parenthesized_expression", "conditional_expression", "boolean_operator",
        "expression_list", "tuple"};
    const char *t = sp_type(v);
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(t, types[i]) == 0) return true;
    return false;
}

/* A form of Python 2 that tree-sitter-python reads without an error and no Python 3 reads (py_compile:
 * SyntaxError), so a file holding one does not run (read15 F13): what node n is, or NULL when it is
 * Python 3. Only static text: the walk may run on a thread of its own. (`except E, e:` is not one:
 * Python 3.14 reads it, as `except (E, e):`.) */
static const char *sp_py2_form(const sp_program_t *p, TSNode n) {
    const char *t = ts_node_type(n), *s = p->text + ts_node_start_byte(n);
    uint32_t len = sp_end_byte(n) - ts_node_start_byte(n);
    switch (t[0]) {
    case 'p': /* print_statement, parameters */
        /* `print >>f, x` is Python 3 too: a tuple of `print >> f` and x */
        if (strcmp(t, "print_statement") == 0) {
            if (!sp_is(sp_nchild(n, 0), "chevron")) return "a Python 2 `print` statement; Python 3 calls `print(...)`";
            break;
        }
        /* fall through */
    case 'l': /* parameters, lambda_parameters */
        for (uint32_t i = 0, nc = ts_node_named_child_count(n); i < nc; i++) {
            TSNode c = ts_node_named_child(n, i);
            if (sp_is(c, "default_parameter") || sp_is(c, "typed_default_parameter")) c = sp_field(c, "name", 4);
            if (sp_is(c, "tuple_pattern") || sp_is(c, "list_pattern"))
                return "a Python 2 tuple parameter (`def f((a, b))`); Python 3 takes one name and unpacks it in the "
                       "body";
        }
        break;
    case 'e':
        if (strcmp(t, "exec_statement") == 0) return "a Python 2 `exec` statement; Python 3 calls `exec(...)`";
        break;
    case 'i': /* integer */
        if (len == 0) break;
        if (s[len - 1] == 'l' || s[len - 1] == 'L')
            return "a Python 2 long integer (`...L`); Python 3 writes the number";
        if (len > 1 && s[0] == '0' && (isdigit((unsigned char)s[1]) || s[1] == '_') && s[len - 1] != 'j' &&
            s[len - 1] != 'J')
            for (uint32_t k = 1; k < len; k++)
                if (s[k] >= '1' && s[k] <= '9')
                    return "a Python 2 octal integer with a leading zero; Python 3 writes `0o` before the digits";
        break;
    case 's': { /* string_start: the prefix and the quote */
        if (len && s[0] == '`') return "a Python 2 backquote expression; Python 3 calls `repr(...)`";
        char pre[4] = {0};
        uint32_t k = 0;
        for (; k < len && s[k] != '"' && s[k] != '\''; k++)
            if (k < 3) pre[k] = (char)tolower((unsigned char)s[k]);
        static const char *const ok[] = {"", "r", "u", "f", "b", "fr", "rf", "br", "rb", "t", "tr", "rt"};
        bool known = false;
        for (size_t i = 0; i < sizeof ok / sizeof *ok && !known; i++)
            known = k <= 2 && strcmp(pre, ok[i]) == 0;
        if (!known) return "a string prefix Python 3 does not read (such as Python 2's `ur`)";
        break;
    }
    case 'c': { /* comparison_operator */
        for (uint32_t i = 0, nc = ts_node_child_count(n); i < nc; i++) {
            TSNode c = ts_node_child(n, i);
            if (!ts_node_is_named(c) && strcmp(ts_node_type(c), "<>") == 0)
                return "the Python 2 operator `<>`; Python 3 writes `!=`";
        }
        break;
    }
    case 'r': /* raise_statement */
        if (sp_is(sp_nchild(n, 0), "expression_list"))
            return "a Python 2 `raise E, value`; Python 3 writes `raise E(value)`";
        break;
    default: break;
    }
    return NULL;
}

/* A file at least this big has its walk on a thread of its own (a 100,000-line TypeScript file's walk
 * is a seventh of its splice; below this size the thread would cost more than it saves). */
enum { SP_WALK_THREAD_MIN = 256 * 1024 };

/* What the walk looks for in each grammar symbol (SP_SYM_*), decided once per walk. */
static unsigned char *sp_walk_flags(const sp_program_t *p, uint32_t *nsym) {
    const TSLanguage *lang = ts_tree_language(p->tree);
    *nsym = ts_language_symbol_count(lang);
    unsigned char *flags = calloc(*nsym + 1, 1);
    if (!flags) abort();
    for (uint32_t i = 0; i < *nsym; i++) {
        const char *t = ts_language_symbol_name(lang, (TSSymbol)i);
        if (!t) continue;
        size_t tl = strlen(t);
        flags[i] = (unsigned char)((tl >= 10 && strcmp(t + tl - 10, "identifier") == 0 ? SP_SYM_IDENT : 0) |
                                   (sp_is_multiline_string(t) ? SP_SYM_MULTI : 0) |
                                   (p->cand_type && strcmp(t, p->cand_type) == 0 ? SP_SYM_CAND : 0) |
                                   (p->lang == LANG_PYTHON && sp_py2_type(t) ? SP_SYM_PY2 : 0) |
                                   (p->lang == LANG_PYTHON && sp_py_bind_type(t) ? SP_SYM_BIND : 0));
    }
    return flags;
}

/* How much of each f holds (a mark at its end). */
static sp_walk_mark_t sp_walk_end(const sp_walk_found_t *f) {
    return (sp_walk_mark_t){f->names.used, f->verbatim.len, f->cands.len};
}

/* The names, multi-line strings and candidates of node n (the renamable sites are the caller's). */
static void sp_walk_node(const sp_walk_t *w, sp_walk_found_t *f, TSNode n, unsigned fl) {
    const sp_program_t *p = w->p;
    uint32_t s = ts_node_start_byte(n), e = sp_end_byte(n);
    if ((fl & SP_SYM_IDENT) && ts_node_child_count(n) == 0) hashmap_add(&f->names, p->text + s, e - s, NULL);
    if ((fl & SP_SYM_MULTI) && ts_node_start_point(n).row != ts_node_end_point(n).row)
        VEC_PUSH(&f->verbatim, sp_span_t, ((sp_span_t){s, e}));
    if (fl & SP_SYM_CAND) VEC_PUSH(&f->cands, TSNode, n);
    if ((fl & SP_SYM_BIND) && sp_py_may_be_class(sp_py_bind_value(n))) VEC_PUSH(&f->binds, TSNode, n);
    if ((fl & SP_SYM_PY2) && s < f->py2_at) {
        const char *what = sp_py2_form(p, n);
        if (what) {
            f->py2_at = s;
            f->py2_what = what;
        }
    }
}

/* One pre-order walk over the whole tree with a cursor (no recursion: deep nesting is fine). Reads
 * w->p's text and tree only; what it finds goes into w. With w->split set, the subtrees from
 * w->split on among its siblings are left to sp_walk_finish, and where they would have come in the
 * order of what is found is marked. */
static void sp_walk_collect(sp_walk_t *w) {
    enum { MAXD = 4096 };
    const sp_program_t *p = w->p;
    bool want_sites = w->want_sites;
    const char **types = want_sites ? malloc(MAXD * sizeof *types) : NULL;
    const char **fields = want_sites ? malloc(MAXD * sizeof *fields) : NULL;
    if (want_sites && (!types || !fields)) abort();
    uint32_t nsym = w->nsym;
    const unsigned char *flags = w->flags;
    bool split = !ts_node_is_null(w->split) && !w->halves, marked = false;
    int depth = 0;
    TSTreeCursor cur = ts_tree_cursor_new(p->root);
    for (bool done = false; !done;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        bool skip = split && ts_node_eq(n, w->split);
        if (w->halves && !marked && ts_node_start_byte(n) >= p->split_end) {
            /* the text after the split block (Go, C#, Java): the second tree's come before it */
            w->mark = sp_walk_end(&w->found);
            marked = true;
        }
        if (skip) {
            w->mark = sp_walk_end(&w->found);
            if (!ts_tree_cursor_goto_parent(&cur)) abort(); /* the split node is never the root */
            depth--;
        } else {
            TSSymbol sym = ts_node_symbol(n);
            unsigned fl = sym < nsym ? flags[sym] : 0;
            const char *t = NULL, *f = NULL;
            if (want_sites) {
                t = ts_node_type(n);
                f = ts_tree_cursor_current_field_name(&cur);
                if (depth < MAXD) {
                    types[depth] = t;
                    fields[depth] = f;
                }
            }
            if (fl && ts_node_is_named(n)) {
                sp_walk_node(w, &w->found, n, fl);
                if (want_sites && (fl & SP_SYM_IDENT) && ts_node_child_count(n) == 0 && depth >= 1 && depth < MAXD) {
                    const char *pt = types[depth - 1], *pf = depth >= 2 ? fields[depth - 1] : NULL;
                    const char *gt = depth >= 2 ? types[depth - 2] : NULL;
                    if (sp_renamable(p->lang, t, f, pt, pf, gt))
                        VEC_PUSH(&w->sites, sp_span_t, ((sp_span_t){ts_node_start_byte(n), sp_end_byte(n)}));
                }
            }
            if (ts_tree_cursor_goto_first_child(&cur)) {
                depth++;
                continue;
            }
        }
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (!ts_tree_cursor_goto_parent(&cur)) {
                done = true;
                break;
            }
            depth--;
        }
    }
    ts_tree_cursor_delete(&cur);
    free(types);
    free(fields);
    if (w->halves && !marked) w->mark = sp_walk_end(&w->found); /* the second tree's come after all of these */
}

/* The subtrees of w->split_parent's children from `from` (the null node: the first) up to `stop` (not
 * included; the null node: to the last), in order, into f (one cursor from their parent:
 * ts_node_next_sibling would search the parent's children every time). */
static void sp_walk_siblings(sp_walk_t *w, sp_walk_found_t *f, TSNode from, TSNode stop) {
    TSTreeCursor cur = ts_tree_cursor_new(w->split_parent);
    bool more = ts_tree_cursor_goto_first_child(&cur);
    if (more && !ts_node_is_null(from) && !ts_node_eq(ts_tree_cursor_current_node(&cur), from)) {
        /* straight to it (a parent of thousands of children), else one by one */
        ts_tree_cursor_reset(&cur, w->split_parent);
        more = ts_tree_cursor_goto_first_child_for_byte(&cur, ts_node_start_byte(from)) >= 0;
        if (!more || !ts_node_eq(ts_tree_cursor_current_node(&cur), from)) {
            ts_tree_cursor_reset(&cur, w->split_parent);
            more = ts_tree_cursor_goto_first_child(&cur);
        }
        while (more && !ts_node_eq(ts_tree_cursor_current_node(&cur), from))
            more = ts_tree_cursor_goto_next_sibling(&cur);
    }
    int depth = 1; /* 1: a child of split_parent */
    while (more) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (depth == 1 && !ts_node_is_null(stop) && ts_node_eq(n, stop)) break;
        TSSymbol sym = ts_node_symbol(n);
        unsigned fl = sym < w->nsym ? w->flags[sym] : 0;
        if (fl && ts_node_is_named(n)) sp_walk_node(w, f, n, fl);
        if (ts_tree_cursor_goto_first_child(&cur)) {
            depth++;
            continue;
        }
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (depth == 1 || !ts_tree_cursor_goto_parent(&cur)) {
                more = false;
                break;
            }
            depth--;
        }
    }
    ts_tree_cursor_delete(&cur);
}

/* Where a big file's walk is cut in two: a node with many children on the way from the root to the
 * cut (TypeScript, Python: the root; Go, C#, Java: the block of the program's body), and of its
 * children the first that starts after the cut; the null node when there is none. The thread takes
 * the first three fifths: the calling thread reads the file's body before it walks the rest (Go,
 * 20,000 lines: a walk of 312 M instructions, the body 62 M). */
static TSNode sp_walk_split_point(const sp_program_t *p, TSNode *parent) {
    enum { MIN_CHILDREN = 16 };
    uint32_t mid = (uint32_t)((uint64_t)p->len * 3 / 5);
    TSNode n = p->root;
    for (int guard = 0; guard < 64; guard++) {
        uint32_t nc = ts_node_child_count(n);
        if (nc == 0) break;
        TSNode c = ts_node_first_child_for_byte(n, mid);
        if (ts_node_is_null(c)) break;
        if (nc >= MIN_CHILDREN) {
            if (ts_node_start_byte(c) < mid) c = ts_node_next_sibling(c);
            *parent = n;
            return c;
        }
        if (ts_node_start_byte(c) > mid) break;
        n = c;
    }
    return (TSNode){0};
}

/* The walk's first part (the thread's): the tree, all but the subtrees from w->split on; a file
 * parsed in two halves: the first tree, then the second's `hold2` children before w->split. */
static void sp_walk_first(sp_walk_t *w) {
    sp_walk_collect(w);
    if (w->halves) sp_walk_siblings(w, &w->mid, (TSNode){0}, w->split);
}

static void *sp_walk_thread(void *w) {
    sp_walk_first(w);
    return NULL;
}

/* Where the caller's part of a file parsed in two halves begins: the first of the second tree's
 * `hold2` children that starts at 3/5 of the text or after (the thread walks the first tree and
 * those before it, the caller the rest after reading the file's body, sp_analyze_body, which costs
 * about a fifth of the walk; callgrind, 100,000 lines, caller / thread, millions of instructions:
 * Python 412 / 475 at 13/20, 447 / 440 at 3/5; Go 418 / 525 and 459 / 486), or its first child
 * when the second tree starts after that point; the null node when none starts after it. */
static TSNode sp_walk_halves_split(const sp_program_t *p) {
    uint32_t at = (uint32_t)((uint64_t)p->len * 3 / 5);
    if (at <= ts_node_start_byte(p->hold2)) return sp_child(p->hold2, 0);
    TSTreeCursor cur = ts_tree_cursor_new(p->hold2);
    TSNode n = {0};
    if (ts_tree_cursor_goto_first_child_for_byte(&cur, at) >= 0) {
        n = ts_tree_cursor_current_node(&cur);
        if (ts_node_start_byte(n) < at)
            n = ts_tree_cursor_goto_next_sibling(&cur) ? ts_tree_cursor_current_node(&cur) : (TSNode){0};
    }
    ts_tree_cursor_delete(&cur);
    return n;
}

void sp_walk_start(sp_walk_t *w, const sp_program_t *p, bool want_sites, bool thread) {
    *w = (sp_walk_t){.p = p,
                     .want_sites = want_sites,
                     .sites = VEC_INIT(sp_span_t),
                     .found = {.verbatim = VEC_INIT(sp_span_t),
                               .cands = VEC_INIT(TSNode),
                               .binds = VEC_INIT(TSNode),
                               .py2_at = UINT32_MAX},
                     .mid = {.verbatim = VEC_INIT(sp_span_t),
                             .cands = VEC_INIT(TSNode),
                             .binds = VEC_INIT(TSNode),
                             .py2_at = UINT32_MAX},
                     .rest = {.verbatim = VEC_INIT(sp_span_t),
                              .cands = VEC_INIT(TSNode),
                              .binds = VEC_INIT(TSNode),
                              .py2_at = UINT32_MAX}};
    w->flags = sp_walk_flags(p, &w->nsym);
    bool big = thread && p->len >= SP_WALK_THREAD_MIN;
    /* The calling thread walks the second half itself (in sp_walk_finish) once it has done its own
     * work; the renamable sites need every ancestor's type, so a walk that wants them is not split.
     * A file parsed in two halves is walked in them (one walk would meet the second tree's nodes
     * of the split level right after the first's): the first tree whole, then the children of the
     * second's `hold` (its root, or the block of a Go, C# or Java body, whose children come before
     * the first tree's text after that block). */
    if (p->tree2 && !want_sites) {
        w->halves = true;
        w->split_parent = p->hold2;
        w->split = big ? sp_walk_halves_split(p) : sp_child(p->hold2, 0);
    } else if (big && !want_sites) {
        w->split = sp_walk_split_point(p, &w->split_parent);
    }
    w->threaded = big && pthread_create(&w->thread, NULL, sp_walk_thread, w) == 0;
    if (!w->threaded) {
        w->split = w->halves ? sp_child(p->hold2, 0) : (TSNode){0};
        sp_walk_first(w);
    }
}

/* The items `from` found between marks lo and hi appended to `to`'s (names: those `to` has not). */
static void sp_walk_append(sp_walk_found_t *to, const sp_walk_found_t *from, sp_walk_mark_t lo, sp_walk_mark_t hi) {
    const hashmap_entry_t *e;
    for (size_t it = lo.names; it < hi.names && (e = hashmap_next(&from->names, &it));)
        hashmap_add(&to->names, e->key, e->len, NULL);
    const sp_span_t *v = from->verbatim.data;
    for (size_t i = lo.verbatim; i < hi.verbatim; i++)
        VEC_PUSH(&to->verbatim, sp_span_t, v[i]);
    const TSNode *c = from->cands.data;
    for (size_t i = lo.cands; i < hi.cands; i++)
        VEC_PUSH(&to->cands, TSNode, c[i]);
}

/* The first Python 2 form of `to`'s and `from`'s (the earlier; `to`'s when neither has one). */
static void sp_walk_py2(sp_walk_found_t *to, const sp_walk_found_t *from) {
    if (from->py2_at < to->py2_at) {
        to->py2_at = from->py2_at;
        to->py2_what = from->py2_what;
    }
}

static void sp_walk_found_free(sp_walk_found_t *f) {
    hashmap_free(&f->names);
    vec_free(&f->verbatim);
    vec_free(&f->cands);
    vec_free(&f->binds);
}

/* The arena copy of a vec's elements (NULL when empty). */
static void *sp_arena_copy(arena_t *a, const vec_t *v) {
    if (!v->len) return NULL;
    void *out = arena_alloc(a, v->len * v->elem_size);
    memcpy(out, v->data, v->len * v->elem_size);
    return out;
}

void sp_walk_finish(sp_walk_t *w, sp_program_t *p) {
    if (!w->p) return;
    bool split = !ts_node_is_null(w->split) || w->halves;
    if (!ts_node_is_null(w->split)) sp_walk_siblings(w, &w->rest, w->split, (TSNode){0});
    if (w->threaded) pthread_join(w->thread, NULL);
    /* the bindings of all parts (their order is not needed: sp_py_class_names reads them as a set) */
    vec_t binds = VEC_INIT(TSNode);
    vec_append(&binds, w->found.binds.data, w->found.binds.len);
    vec_append(&binds, w->mid.binds.data, w->mid.binds.len);
    vec_append(&binds, w->rest.binds.data, w->rest.binds.len);
    p->binds = sp_arena_copy(p->a, &binds);
    p->nbinds = binds.len;
    vec_free(&binds);
    sp_walk_mark_t none = {0, 0, 0}, end = sp_walk_end(&w->found);
    if (split && w->mark.names == end.names && w->mark.verbatim == end.verbatim && w->mark.cands == end.cands) {
        /* nothing of the first part after the split: the others' appended to it */
        sp_walk_py2(&w->found, &w->mid);
        sp_walk_py2(&w->found, &w->rest);
        sp_walk_append(&w->found, &w->mid, none, sp_walk_end(&w->mid));
        sp_walk_append(&w->found, &w->rest, none, sp_walk_end(&w->rest));
    } else if (split) {
        /* in the order of one walk: the first part up to the split, the rest, the first part after */
        sp_walk_found_t all = {.verbatim = VEC_INIT(sp_span_t),
                               .cands = VEC_INIT(TSNode),
                               .binds = VEC_INIT(TSNode),
                               .py2_at = UINT32_MAX};
        sp_walk_py2(&all, &w->found);
        sp_walk_py2(&all, &w->mid);
        sp_walk_py2(&all, &w->rest);
        sp_walk_append(&all, &w->found, none, w->mark);
        sp_walk_append(&all, &w->mid, none, sp_walk_end(&w->mid));
        sp_walk_append(&all, &w->rest, none, sp_walk_end(&w->rest));
        sp_walk_append(&all, &w->found, w->mark, end);
        sp_walk_found_free(&w->found);
        w->found = all;
    }
    sp_walk_found_free(&w->mid);
    sp_walk_found_free(&w->rest);
    /* each name once, as an arena string, in the order the walk first met it */
    const hashmap_entry_t *e;
    for (size_t it = 0; (e = hashmap_next(&w->found.names, &it));) {
        const char *text = arena_strndup(p->a, e->key, e->len);
        *hashmap_find(&w->found.names, e->key, e->len) = (void *)text;
        names_table_reserve(p->names, text);
        /* C#: `@group` and `group` are one identifier (the `@` only allows a keyword). */
        if (p->lang == LANG_CSHARP)
            names_table_reserve(p->names, text[0] == '@' ? text + 1 : arena_sprintf(p->a, "@%s", text));
    }
    const sp_span_t *sites = w->sites.data;
    for (size_t i = 0; i < w->sites.len; i++) {
        SP_PUSH(p->a, p->sites, p->nsites, p->csites);
        p->sites[p->nsites - 1] =
            (sp_site_t){sites[i].start, sites[i].end,
                        *hashmap_find(&w->found.names, p->text + sites[i].start, sites[i].end - sites[i].start)};
    }
    p->verbatim = sp_arena_copy(p->a, &w->found.verbatim);
    p->nverbatim = p->cverbatim = w->found.verbatim.len;
    p->cands = sp_arena_copy(p->a, &w->found.cands);
    p->ncands = p->ccands = w->found.cands.len;
    p->py2_at = w->found.py2_at;
    p->py2_what = w->found.py2_what;
    sp_walk_found_free(&w->found);
    vec_free(&w->sites);
    free(w->flags);
    w->flags = NULL;
    w->p = NULL;
}

void sp_walk_names(sp_program_t *p, bool want_sites) {
    sp_walk_t w;
    sp_walk_start(&w, p, want_sites, false);
    sp_walk_finish(&w, p);
}

/* ---------------------------------------------------------------------------------------------- */
/* body statements                                                                                  */

static void sp_add_decl(sp_program_t *p, sp_stmt_t *st, TSNode id) {
    if (ts_node_is_null(id) || st->ndecls == sizeof st->decls / sizeof st->decls[0]) return;
    st->decls[st->ndecls++] = (sp_decl_t){sp_node_text(p, id), ts_node_start_byte(id), sp_end_byte(id)};
}

static void sp_add_decl_list(sp_program_t *p, sp_stmt_t *st, TSNode list) {
    if (sp_is(list, "identifier")) {
        sp_add_decl(p, st, list);
        return;
    }
    for (uint32_t i = 0; i < sp_nchild_count(list); i++) {
        TSNode c = sp_nchild(list, i);
        if (sp_is(c, "identifier")) sp_add_decl(p, st, c);
    }
}

/* Fills the names a body statement declares (and Go's assignment operator). */
static void sp_stmt_decls(sp_program_t *p, sp_stmt_t *st, TSNode n) {
    const char *t = sp_type(n);
    switch (p->lang) {
    case LANG_TYPESCRIPT:
        if (strcmp(t, "export_statement") == 0 && sp_nchild_count(n) > 0) {
            n = sp_nchild(n, 0);
            t = sp_type(n);
        }
        if (strcmp(t, "lexical_declaration") == 0 || strcmp(t, "variable_declaration") == 0) {
            for (uint32_t i = 0; i < sp_nchild_count(n); i++) {
                TSNode d = sp_nchild(n, i);
                if (sp_is(d, "variable_declarator")) sp_add_decl_list(p, st, sp_field(d, "name", 4));
            }
        } else if (strstr(t, "declaration")) {
            TSNode nm = sp_field(n, "name", 4);
            if (sp_is(nm, "identifier") || sp_is(nm, "type_identifier")) sp_add_decl(p, st, nm);
        }
        break;
    case LANG_PYTHON:
        if (strcmp(t, "expression_statement") == 0) {
            TSNode as = sp_nchild(n, 0);
            if (sp_is(as, "assignment")) {
                TSNode left = sp_field(as, "left", 4);
                sp_add_decl_list(p, st, left);
            }
        } else if (strcmp(t, "function_definition") == 0 || strcmp(t, "class_definition") == 0) {
            sp_add_decl(p, st, sp_field(n, "name", 4));
        }
        break;
    case LANG_GO:
        if (strcmp(t, "short_var_declaration") == 0 || strcmp(t, "assignment_statement") == 0) {
            TSNode left = sp_field(n, "left", 4);
            if (strcmp(t, "short_var_declaration") == 0) sp_add_decl_list(p, st, left);
            for (uint32_t i = 0; i < sp_child_count(n); i++) {
                TSNode c = sp_child(n, i);
                const char *ct = sp_type(c);
                if (strcmp(ct, ":=") == 0 || strcmp(ct, "=") == 0) {
                    st->op_start = ts_node_start_byte(c);
                    st->op_end = sp_end_byte(c);
                    break;
                }
            }
            if (strcmp(t, "assignment_statement") == 0) {
                /* Names assigned with `=` are remembered as declarations too (they name existing
                 * variables a generated statement may be mapped to). */
                sp_add_decl_list(p, st, left);
            }
        } else if (strcmp(t, "var_declaration") == 0 || strcmp(t, "const_declaration") == 0) {
            /* `var a, err = ...`, `var (...)` (a var_spec_list): every name of each spec. Not by its
             * field: the runtime's field lookup (ts_node_field_name_for_child) answers `name` for the
             * first of a list only, so `var a, err = ...` declared `a` alone. A spec's names are its
             * `identifier` children (its type is a type node, its values an expression_list). */
            for (uint32_t i = 0; i < sp_nchild_count(n); i++) {
                TSNode spec = sp_nchild(n, i);
                bool list = sp_is(spec, "var_spec_list") || sp_is(spec, "const_spec_list");
                for (uint32_t k = 0, nk = list ? sp_nchild_count(spec) : 1; k < nk; k++) {
                    TSNode one = list ? sp_nchild(spec, k) : spec;
                    if (!sp_is(one, "var_spec") && !sp_is(one, "const_spec")) continue;
                    sp_add_decl_list(p, st, one);
                }
            }
        }
        break;
    case LANG_CSHARP:
    case LANG_JAVA: {
        if (strcmp(t, "global_statement") == 0) {
            n = sp_nchild(n, 0);
            t = sp_type(n);
        }
        if (strcmp(t, "local_declaration_statement") == 0) n = sp_nchild(n, 0);
        if (strcmp(t, "local_declaration_statement") == 0 || strcmp(t, "local_variable_declaration") == 0) {
            for (uint32_t i = 0; i < sp_nchild_count(n); i++) {
                TSNode d = sp_nchild(n, i);
                if (sp_is(d, "variable_declarator")) {
                    TSNode nm = sp_field(d, "name", 4);
                    if (ts_node_is_null(nm)) nm = sp_nchild(d, 0);
                    if (sp_is(nm, "identifier")) sp_add_decl(p, st, nm);
                }
            }
        }
        break;
    }
    case LANG_YAML:
    case LANG_PCL: break;
    }
}

static bool sp_is_import_stmt(const sp_program_t *p, TSNode n) {
    uint32_t s = ts_node_start_byte(n);
    for (size_t i = 0; i < p->nimports; i++)
        if (p->imports[i].start == s) return true;
    const char *t = sp_type(n);
    return strstr(t, "import") != NULL || strcmp(t, "package_clause") == 0 || strcmp(t, "using_directive") == 0 ||
           strcmp(t, "package_declaration") == 0;
}

static bool sp_is_go_err_check(sp_program_t *p, TSNode n) {
    /* `if err := f(); err != nil` checks its own err, not the statement before it */
    if (!sp_is(n, "if_statement") || !ts_node_is_null(sp_field(n, "initializer", 11))) return false;
    TSNode cond = sp_field(n, "condition", 9);
    const char *c = sp_node_text(p, cond);
    return strcmp(c, "err != nil") == 0;
}

/* Lists the statements of `body` (a block or the root) into p->stmts. */
static void sp_collect_stmts(sp_program_t *p, TSNode body, TSNode *root_kids, uint32_t nroot) {
    uint32_t n = nroot;
    /* the root's were listed for the imports already (TypeScript, Python: the body is the file) */
    TSNode *kids = ts_node_eq(body, p->root) ? root_kids : sp_kids(p, body, &n);
    p->body_kids = kids;
    p->nbody_kids = n;
    if (p->cstmts < p->nstmts + n) { /* room for them all at once (sp_stmt_t is big: each doubling copies) */
        p->stmts = arena_grow(p->a, p->stmts, p->cstmts * sizeof *p->stmts, (p->nstmts + n) * sizeof *p->stmts);
        p->cstmts = p->nstmts + n;
    }
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = kids[i];
        if (sp_is_comment(c) || sp_is_import_stmt(p, c)) continue;
        const char *t = sp_type(c);
        /* A Python module docstring and the Go `if err != nil` after a statement belong elsewhere. */
        if (p->lang == LANG_GO && p->nstmts > 0 && sp_is_go_err_check(p, c)) {
            p->stmts[p->nstmts - 1].end = sp_end_byte(c);
            continue;
        }
        SP_PUSH(p->a, p->stmts, p->nstmts, p->cstmts);
        sp_stmt_t *st = &p->stmts[p->nstmts - 1];
        memset(st, 0, sizeof *st);
        st->start = ts_node_start_byte(c);
        st->end = sp_end_byte(c);
        st->node = c;
        st->res_name = st->res_type = "";
        st->is_return = strcmp(t, "return_statement") == 0 ||
                        (strcmp(t, "global_statement") == 0 && sp_is(sp_nchild(c, 0), "return_statement"));
        sp_stmt_decls(p, st, c);
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* the program body and the insertion point                                                         */

static TSNode sp_find_ts_body(sp_program_t *p) {
    uint32_t n;
    TSNode *kids = sp_top_children(p, &n);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = kids[i];
        if (!sp_is(c, "export_statement")) continue;
        for (uint32_t j = 0; j < sp_nchild_count(c); j++) {
            TSNode v = sp_nchild(c, j);
            const char *t = sp_type(v);
            if (strcmp(t, "arrow_function") == 0 || strcmp(t, "function_expression") == 0 ||
                strcmp(t, "function") == 0 || strcmp(t, "function_declaration") == 0 ||
                strcmp(t, "generator_function_declaration") == 0) {
                TSNode b = sp_field(v, "body", 4);
                if (sp_is(b, "statement_block")) return b;
            }
        }
    }
    return p->root;
}

/* Depth-first search for the first node accepted by `match`. */
static TSNode sp_find_node(sp_program_t *p, TSNode from, bool (*match)(sp_program_t *, TSNode, TSNode *), TSNode *out) {
    TSTreeCursor cur = ts_tree_cursor_new(from);
    TSNode none = {0};
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (match(p, n, out)) {
            ts_tree_cursor_delete(&cur);
            return n;
        }
        if (ts_tree_cursor_goto_first_child(&cur)) continue;
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(&cur)) break;
            if (!ts_tree_cursor_goto_parent(&cur)) {
                ts_tree_cursor_delete(&cur);
                return none;
            }
        }
    }
}

/* Records the name the program gives its Context parameter: the first parameter of `params` (Go's
 * parameter_list, Java's formal_parameters, a Java lambda's parameters or lone identifier). The new
 * code's `ctx` is written under that name (splice.c); a parameter with no name or `_` is noted
 * (ctx_unnamed). */
static void sp_note_ctx(sp_program_t *p, TSNode params) {
    if (ts_node_is_null(params)) return;
    TSNode d = sp_is(params, "identifier") ? params : sp_nchild(params, 0);
    if (ts_node_is_null(d)) return;
    TSNode nm = sp_is(d, "identifier") ? d : sp_field(d, "name", 4);
    const char *name = sp_is(nm, "identifier") ? sp_node_text(p, nm) : NULL;
    if (name && strcmp(name, "_") != 0) {
        p->ctx_name = name;
    } else if (name || sp_is(d, "parameter_declaration") || sp_is(d, "formal_parameter")) {
        p->ctx_unnamed = 1 + ts_node_start_byte(d);
        p->ctx_unnamed_end = sp_end_byte(d);
    }
}

/* Go: notes the name of function fn's one named result (`(err error)`): a bare `return` returns it. */
static void sp_note_go_result(sp_program_t *p, TSNode fn) {
    TSNode res = sp_field(fn, "result", 6);
    if (!sp_is(res, "parameter_list") || sp_nchild_count(res) != 1) return;
    /* `(err error)`, not `(a, err error)`: the names are the declaration's identifiers (the field
     * lookup answers the first of a list only) */
    TSNode decl = sp_nchild(res, 0), nm = {0};
    for (uint32_t i = 0; i < sp_nchild_count(decl); i++) {
        TSNode c = sp_nchild(decl, i);
        if (!sp_is(c, "identifier")) continue;
        if (!ts_node_is_null(nm)) return;
        nm = c;
    }
    if (sp_is(nm, "identifier") && strcmp(sp_node_text(p, nm), "_") != 0) p->go_result = sp_node_text(p, nm);
}

/* The body of the top-level Go function `name`. */
static bool sp_go_func_body(sp_program_t *p, const char *name, TSNode *out) {
    for (uint32_t i = 0; i < sp_nchild_count(p->root); i++) {
        TSNode f = sp_nchild(p->root, i);
        if (!sp_is(f, "function_declaration")) continue;
        if (strcmp(sp_node_text(p, sp_field(f, "name", 4)), name) != 0) continue;
        TSNode b = sp_field(f, "body", 4);
        if (!sp_is(b, "block")) return false;
        sp_note_ctx(p, sp_field(f, "parameters", 10));
        sp_note_go_result(p, f);
        *out = b;
        return true;
    }
    return false;
}

/* `pulumi.Run(func(ctx *pulumi.Context) error {...})` or `pulumi.Run(run)`. */
static bool sp_go_run(sp_program_t *p, TSNode n, TSNode *out) {
    if (!sp_is(n, "call_expression")) return false;
    TSNode fn = sp_field(n, "function", 8);
    if (!sp_is(fn, "selector_expression")) return false;
    if (strcmp(sp_node_text(p, sp_field(fn, "field", 5)), "Run") != 0) return false;
    const char *pkg = sp_node_text(p, sp_field(fn, "operand", 7));
    bool is_pulumi = strcmp(pkg, "pulumi") == 0;
    for (size_t i = 0; i < p->nimports && !is_pulumi; i++)
        if (p->imports[i].local && strcmp(p->imports[i].local, pkg) == 0) {
            size_t l = strlen(p->imports[i].path);
            is_pulumi = l >= 10 && strcmp(p->imports[i].path + l - 10, "/go/pulumi") == 0;
        }
    if (!is_pulumi) return false;
    TSNode args = sp_field(n, "arguments", 9);
    TSNode a0 = sp_nchild(args, 0);
    if (sp_is(a0, "func_literal")) {
        sp_note_ctx(p, sp_field(a0, "parameters", 10));
        sp_note_go_result(p, a0);
        *out = sp_field(a0, "body", 4);
        return true;
    }
    if (sp_is(a0, "identifier")) return sp_go_func_body(p, sp_node_text(p, a0), out);
    return false;
}

/* `Deployment.RunAsync(() => {...})` */
static bool sp_cs_run(sp_program_t *p, TSNode n, TSNode *out) {
    if (!sp_is(n, "invocation_expression")) return false;
    TSNode fn = sp_field(n, "function", 8);
    const char *ft = sp_node_text(p, fn);
    if (strncmp(ft, "Deployment.RunAsync", 19) != 0) return false;
    TSNode args = sp_field(n, "arguments", 9);
    TSNode arg = sp_nchild(args, 0);
    TSNode lam = sp_nchild(arg, 0);
    if (!sp_is(lam, "lambda_expression")) return false;
    TSNode body = sp_field(lam, "body", 4);
    if (!sp_is(body, "block")) return false;
    *out = body;
    return true;
}

/* The constructor of `class MyStack : Stack`. */
static bool sp_cs_stack_class(sp_program_t *p, TSNode n, TSNode *out) {
    if (!sp_is(n, "class_declaration")) return false;
    bool is_stack = false;
    for (uint32_t i = 0; i < sp_nchild_count(n); i++) {
        TSNode c = sp_nchild(n, i);
        if (!sp_is(c, "base_list")) continue;
        for (uint32_t j = 0; j < sp_nchild_count(c); j++) {
            const char *b = sp_node_text(p, sp_nchild(c, j));
            if (strcmp(b, "Stack") == 0 || strcmp(b, "Pulumi.Stack") == 0) is_stack = true;
        }
    }
    if (!is_stack) return false;
    TSNode body = sp_field(n, "body", 4);
    for (uint32_t i = 0; i < sp_nchild_count(body); i++) {
        TSNode m = sp_nchild(body, i);
        if (!sp_is(m, "constructor_declaration")) continue;
        TSNode b = sp_field(m, "body", 4);
        if (sp_is(b, "block")) {
            *out = b;
            return true;
        }
    }
    return false;
}

/* A method `stack(Context ctx)` (any name, one Context parameter), or `Pulumi.run(ctx -> {...})`. */
static bool sp_java_stack(sp_program_t *p, TSNode n, TSNode *out) {
    if (sp_is(n, "method_declaration")) {
        TSNode params = sp_field(n, "parameters", 10);
        if (sp_nchild_count(params) != 1) return false;
        TSNode fp = sp_nchild(params, 0);
        const char *ty = sp_node_text(p, sp_field(fp, "type", 4));
        if (strcmp(ty, "Context") != 0 && strcmp(ty, "com.pulumi.Context") != 0) return false;
        TSNode b = sp_field(n, "body", 4);
        if (!sp_is(b, "block")) return false;
        sp_note_ctx(p, params);
        *out = b;
        return true;
    }
    if (sp_is(n, "method_invocation")) {
        if (strcmp(sp_node_text(p, sp_field(n, "name", 4)), "run") != 0) return false;
        if (strcmp(sp_node_text(p, sp_field(n, "object", 6)), "Pulumi") != 0) return false;
        TSNode lam = sp_nchild(sp_field(n, "arguments", 9), 0);
        if (!sp_is(lam, "lambda_expression")) return false;
        TSNode b = sp_field(lam, "body", 4);
        if (!sp_is(b, "block")) return false;
        sp_note_ctx(p, sp_field(lam, "parameters", 10));
        *out = b;
        return true;
    }
    return false;
}

static const char *sp_default_unit(lang_t lang) {
    switch (lang) {
    case LANG_TYPESCRIPT:
    case LANG_YAML: return "  ";
    case LANG_GO: return "\t";
    default: return "    ";
    }
}

/* Indentation unit: the most common positive indentation step between consecutive non-blank lines
 * (tabs if most indented lines start with a tab); the language's default without evidence. */
void sp_detect_style(sp_program_t *p) {
    size_t crlf = 0, lf = 0, tabs = 0, spaces = 0;
    size_t hist[17] = {0};
    uint32_t prev = 0;
    const char *t = p->text;
    p->bom = p->len >= 3 && (unsigned char)t[0] == 0xEF && (unsigned char)t[1] == 0xBB && (unsigned char)t[2] == 0xBF;
    uint32_t i = p->bom ? 3 : 0;
    size_t v = 0;
    while (i < p->len) {
        uint32_t s = i, w = 0;
        while (v < p->nverbatim && p->verbatim[v].end <= s)
            v++;
        bool in_string = v < p->nverbatim && p->verbatim[v].start < s;
        while (i < p->len && (t[i] == ' ' || t[i] == '\t'))
            i++;
        w = i - s;
        bool blank = i >= p->len || t[i] == '\n' || t[i] == '\r';
        if (!blank && !in_string) {
            if (w > 0 && t[s] == '\t')
                tabs++;
            else if (w > 0)
                spaces++;
            if (w > prev && w - prev <= 16 && t[s] != '\t') hist[w - prev]++;
            prev = w;
        }
        while (i < p->len && t[i] != '\n')
            i++;
        if (i < p->len) {
            if (i > 0 && t[i - 1] == '\r')
                crlf++;
            else
                lf++;
            i++;
        }
    }
    p->crlf = crlf > lf;
    p->final_newline = p->len > 0 && t[p->len - 1] == '\n';
    if (tabs > spaces && p->lang != LANG_YAML) {
        p->unit = "\t";
        return;
    }
    size_t best = 0;
    for (size_t k = 1; k <= 16; k++)
        if (hist[k] > hist[best]) best = k;
    if (best == 0) {
        p->unit = sp_default_unit(p->lang);
        if (p->lang == LANG_GO) p->unit = "\t";
        return;
    }
    char *u = arena_alloc(p->a, best + 1);
    memset(u, ' ', best);
    p->unit = u;
}

/* Whether statement n holds a statement that leaves the body (a return, throw, raise, goto, or a
 * labelled statement), outside the functions and classes it defines: code after n may not run. With
 * `gotos`, only a goto counts (C#'s: it may pass code put before a later statement). */
static bool sp_may_leave(TSNode n, bool gotos) {
    const char *t = sp_type(n);
    if (strstr(t, "function") || strstr(t, "lambda") || strstr(t, "class") || strstr(t, "method") ||
        strcmp(t, "arrow_function") == 0 || strcmp(t, "func_literal") == 0)
        return false;
    if (strcmp(t, "goto_statement") == 0 ||
        (!gotos && (strcmp(t, "return_statement") == 0 || strcmp(t, "throw_statement") == 0 ||
                    strcmp(t, "raise_statement") == 0 || strcmp(t, "labeled_statement") == 0)))
        return true;
    for (uint32_t i = 0; i < sp_nchild_count(n); i++)
        if (sp_may_leave(sp_nchild(n, i), gotos)) return true;
    return false;
}

/* Where new statements go in `body`: before its `return` (and the comments just above it) — the first
 * return among its statements: what follows one is unreachable or a (hoisted) declaration —, else at
 * the line of the closing `}`, else (a file's top level) at the end of the file. A last statement that
 * may leave the body (an if/else whose branches all return, an `if (x) return;` — code after it runs
 * only when x is false) has the new code before it, as a return does: it runs there whichever way the
 * statement goes. Noted instead (stuck_at: adding is refused): in C#, where the body holds a goto (it
 * may pass code put there); Go's body must end in a terminating statement, so any last statement but
 * a return never completes, and is often the check of the error of the statement before it (code
 * put before it would come between the two). */
static void sp_insertion_point(sp_program_t *p, TSNode body) {
    bool braces = !sp_is_root(p, body);
    TSNode last = {0}, first = {0};
    uint32_t n = p->nbody_kids;
    TSNode *kids = p->body_kids && ts_node_eq(body, p->body) ? p->body_kids : sp_kids(p, body, &n);
    TSNode early_ret = {0};
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = kids[i];
        if (sp_is_comment(c)) continue;
        if (ts_node_is_null(first) && !sp_is_import_stmt(p, c)) first = c;
        last = c;
        if (braces && ts_node_is_null(early_ret) && sp_is(c, "return_statement")) early_ret = c;
    }
    if (!ts_node_is_null(early_ret)) last = early_ret;
    p->stuck_at = UINT32_MAX;
    /* The body opens on the line of its first statement (`{ return nil })`): a line of its own
     * inside the braces, one level deeper than the line. */
    bool one_line = braces && !ts_node_is_null(first) &&
                    sp_line_start(p->text, ts_node_start_byte(first)) <= ts_node_start_byte(body);
    p->base_indent = ts_node_is_null(first) ? NULL
                     : one_line ? arena_sprintf(p->a, "%s%s", sp_line_indent(p, ts_node_start_byte(body)), p->unit)
                                : sp_line_indent(p, ts_node_start_byte(first));
    const char *lt = ts_node_is_null(last) ? "" : sp_type(last);
    bool ret = strcmp(lt, "return_statement") == 0 ||
               (strcmp(lt, "global_statement") == 0 && sp_is(sp_nchild(last, 0), "return_statement"));
    if (!ret && !ts_node_is_null(last) && braces && (p->lang == LANG_GO || sp_may_leave(last, false))) {
        bool stuck = p->lang == LANG_GO;
        for (uint32_t i = 0; i < n && !stuck && p->lang == LANG_CSHARP; i++)
            stuck = sp_may_leave(kids[i], true);
        if (stuck)
            p->stuck_at = ts_node_start_byte(last);
        else
            ret = true; /* the new code goes before it */
    }
    p->insert_del = 0;
    if (ret && sp_line_start(p->text, ts_node_start_byte(last)) <= ts_node_start_byte(body)) {
        /* The return is on the line of the body's `{`: the new lines go right before it, and the
         * blanks between it and what precedes it become the line break. */
        uint32_t at = ts_node_start_byte(last), k = at;
        while (k > 0 && (p->text[k - 1] == ' ' || p->text[k - 1] == '\t'))
            k--;
        p->insert_at = at;
        p->insert_del = at - k;
        p->insert_at_line = false;
        p->close_indent = p->base_indent;
    } else if (ret) {
        /* Comments directly above the return stay with it. */
        uint32_t at = ts_node_start_byte(last);
        uint32_t row = ts_node_start_point(last).row;
        for (int64_t i = (int64_t)n - 1; i >= 0; i--) {
            TSNode c = kids[i];
            if (ts_node_start_byte(c) >= at) continue;
            if (!sp_is_comment(c) || ts_node_end_point(c).row + 1 != row) break;
            at = ts_node_start_byte(c);
            row = ts_node_start_point(c).row;
        }
        p->insert_at = sp_line_start(p->text, at);
        if (p->insert_at == 0 && p->bom) p->insert_at = 3;
        p->insert_at_line = true;
        p->close_indent = sp_line_indent(p, at);
    } else if (braces) {
        uint32_t close = sp_end_byte(body) - 1; /* the `}` */
        uint32_t ls = sp_line_start(p->text, close), k = ls;
        while (k < close && (p->text[k] == ' ' || p->text[k] == '\t'))
            k++;
        p->close_indent = sp_line_indent(p, close);
        if (k == close) {
            p->insert_at = ls;
            p->insert_at_line = true;
        } else {
            p->insert_at = close;
            p->insert_at_line = false;
        }
        if (!p->base_indent) p->base_indent = arena_sprintf(p->a, "%s%s", p->close_indent, p->unit);
    } else {
        p->insert_at = p->len;
        p->insert_at_line = p->len == 0 || p->text[p->len - 1] == '\n' || (p->bom && p->len == 3);
        p->close_indent = "";
        p->base_indent = "";
    }
    if (!p->base_indent) p->base_indent = arena_sprintf(p->a, "%s%s", p->close_indent, p->unit);
}

/* ---------------------------------------------------------------------------------------------- */
/* resources                                                                                        */

/* Whether file names the class: spelled alike without `_` and case (`random_string`, `randomString`
 * for `RandomString`; Python's `lambda_` for `Lambda`). */
static bool sp_file_names_class(const char *file, size_t fl, const char *cls, size_t cl) {
    size_t i = 0, j = 0;
    for (;; i++, j++) {
        while (i < fl && file[i] == '_')
            i++;
        while (j < cl && cls[j] == '_')
            j++;
        if (i == fl || j == cl) return i == fl && j == cl && fl > 0;
        if (tolower((unsigned char)file[i]) != tolower((unsigned char)cls[j])) return false;
    }
}

/* A package's class reached through the module of its SDK that defines it, as the SDKs lay their
 * files out, in the form the package's own import gives it (read18 F8: taken for another type, the
 * resource was added a second time): TypeScript `@pulumi/random/randomString.RandomString` (the
 * file of `import { RandomString } from "@pulumi/random/randomString"`) → `@pulumi/random.RandomString`,
 * `@pulumi/aws/s3/bucket.Bucket` and `@pulumi/aws/s3.Bucket` → `@pulumi/aws.s3.Bucket`, a directory's
 * `index` left out; Python `pulumi_random.random_string.RandomString` → `pulumi_random.RandomString`,
 * `pulumi_aws.s3.bucket.Bucket` → `pulumi_aws.s3.Bucket`. Local modules (`./x`, `.x`) are left as
 * they are; so is any other type. */
static const char *sp_sdk_file_type(sp_program_t *p, const char *t) {
    if (t[0] == '.') return t;
    if (p->lang == LANG_PYTHON) {
        /* a module (not the package) named as the class that follows it */
        const char *seg = strchr(t, '.');
        while (seg) {
            const char *s = seg + 1, *e = strchr(s, '.');
            if (!e) break;
            const char *ne = strchr(e + 1, '.');
            size_t nl = ne ? (size_t)(ne - e - 1) : strlen(e + 1);
            if (isupper((unsigned char)e[1]) && sp_file_names_class(s, (size_t)(e - s), e + 1, nl))
                return arena_sprintf(p->a, "%.*s%s", (int)(seg - t), t, e);
            seg = e;
        }
        return t;
    }
    if (p->lang != LANG_TYPESCRIPT) return t;
    /* the package: `@scope/name` or `name`; what follows its `/` is a path in it */
    const char *slash = strchr(t, '/');
    if (!slash) return t;
    if (t[0] == '@' && !(slash = strchr(slash + 1, '/'))) return t;
    const char *last = strrchr(slash, '/'), *fe = strchr(last, '.');
    if (!fe || !fe[1]) return t; /* the module itself, no class of it */
    const char *rest = fe + 1, *re = strchr(rest, '.');
    size_t rl = re ? (size_t)(re - rest) : strlen(rest);
    buf_t b;
    buf_init(&b);
    buf_append(&b, t, (size_t)(slash - t));
    for (const char *s = slash + 1; s <= last;) { /* the directories */
        const char *e = strchr(s, '/');
        if (!e || e > last) e = last;
        if (e > s) {
            buf_putc(&b, '.');
            buf_append(&b, s, (size_t)(e - s));
        }
        s = e + 1;
    }
    size_t fl = (size_t)(fe - last - 1);
    if (!(fl == 5 && memcmp(last + 1, "index", 5) == 0) && !sp_file_names_class(last + 1, fl, rest, rl)) {
        buf_putc(&b, '.');
        buf_append(&b, last + 1, fl);
    }
    buf_putc(&b, '.');
    buf_append(&b, rest, strlen(rest));
    char *r = buf_arena_str(&b, p->a);
    buf_free(&b);
    return r;
}

const char *sp_canonical_type(sp_program_t *p, const char *type_text) {
    if (p->lang == LANG_CSHARP && strncmp(type_text, "global::", 8) == 0) type_text += 8;
    const char *dot = strchr(type_text, '.');
    size_t rl = dot ? (size_t)(dot - type_text) : strlen(type_text);
    for (size_t i = 0; i < p->nimports; i++) {
        const sp_import_t *im = &p->imports[i];
        if (im->local && strlen(im->local) == rl && strncmp(im->local, type_text, rl) == 0)
            return sp_sdk_file_type(p, arena_sprintf(p->a, "%s%s", im->path, dot ? dot : ""));
    }
    /* Java: a simple class name not imported by name may come from a wildcard import; C#: from a
     * namespace's `using` (`new ComponentResource(...)` of `using Pulumi;`). */
    if ((p->lang == LANG_JAVA || p->lang == LANG_CSHARP) && !dot) return arena_sprintf(p->a, "*.%s", type_text);
    /* a fully qualified name (`Pulumi.Random.RandomPet`, `com.pulumi.random.RandomPet`) */
    return dot && (p->lang == LANG_JAVA || p->lang == LANG_CSHARP) ? type_text : NULL;
}

bool sp_types_match(const sp_program_t *target, const char *t, const char *g) {
    if (strcmp(t, g) == 0) return true;
    if (strncmp(t, "*.", 2) != 0) return false;
    const char *gdot = strrchr(g, '.');
    if (!gdot || strcmp(gdot + 1, t + 2) != 0) return false;
    for (size_t i = 0; i < target->nimports; i++) {
        const sp_import_t *im = &target->imports[i];
        /* Java `import a.b.*;`, C# `using A.B;` (a namespace's classes by their simple names) */
        bool ns = im->wildcard || (target->lang == LANG_CSHARP && !im->alias && !im->local);
        if (ns && strlen(im->path) == (size_t)(gdot - g) && strncmp(im->path, g, (size_t)(gdot - g)) == 0) return true;
    }
    return false;
}

/* The body statement containing byte off (binary search; stmts are in source order). */
static const sp_stmt_t *sp_stmt_at(const sp_program_t *p, uint32_t off) {
    size_t lo = 0, hi = p->nstmts;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->stmts[mid].end <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < p->nstmts && p->stmts[lo].start <= off && off < p->stmts[lo].end) return &p->stmts[lo];
    return NULL;
}

static bool sp_is_container(const char *t) {
    static const char *const C[] = {"program",     "statement_block",  "module",           "block",
                                    "source_file", "compilation_unit", "declaration_list", "class_body",
                                    "switch_body", "expression_case",  "switch_section"};
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        if (strcmp(t, C[i]) == 0) return true;
    return false;
}

bool sp_block_range(sp_program_t *p, uint32_t start, uint32_t *bs, uint32_t *be) {
    TSNode n = ts_node_descendant_for_byte_range(sp_root_at(p, start), start, start), par = {0};
    for (; !ts_node_is_null(n); n = par) {
        par = ts_node_parent(n);
        if (ts_node_is_null(par)) return false;
        if (ts_node_start_byte(n) == start && sp_is_container(sp_type(par))) {
            bool both = sp_is_hold(p, par); /* the level split in two halves: both */
            *bs = ts_node_start_byte(both ? p->hold : par);
            *be = sp_end_byte(both ? p->hold2 : par);
            return true;
        }
    }
    return false;
}

bool sp_block_before(sp_program_t *p, uint32_t start, const char **container, sp_stmt_t **out, size_t *n_out) {
    *container = "";
    *out = NULL;
    *n_out = 0;
    TSNode n = ts_node_descendant_for_byte_range(sp_root_at(p, start), start, start), par = {0};
    for (; !ts_node_is_null(n); n = par) {
        par = ts_node_parent(n);
        if (ts_node_is_null(par)) return false;
        if (ts_node_start_byte(n) == start && sp_is_container(sp_type(par))) break;
    }
    if (ts_node_is_null(n)) return false;
    *container = sp_type(par);
    uint32_t nk;
    TSNode *kids = sp_kids(p, par, &nk);
    sp_stmt_t *v = arena_alloc(p->a, (nk + 1) * sizeof *v);
    size_t k = 0;
    for (uint32_t i = 0; i < nk && ts_node_start_byte(kids[i]) < start; i++) {
        if (sp_is_comment(kids[i])) continue;
        memset(&v[k], 0, sizeof v[k]);
        v[k].start = ts_node_start_byte(kids[i]);
        v[k].end = sp_end_byte(kids[i]);
        v[k].node = kids[i];
        sp_stmt_decls(p, &v[k], kids[i]);
        k++;
    }
    *out = v;
    *n_out = k;
    return true;
}

/* The node type every resource query pattern starts at. */
static const char *const SP_RESOURCE_ROOT[LANG_YAML + 1] = {
    [LANG_TYPESCRIPT] = "new_expression",
    [LANG_PYTHON] = "call",
    [LANG_GO] = "call_expression",
    [LANG_CSHARP] = "object_creation_expression",
    [LANG_JAVA] = "object_creation_expression",
};

/* One match of the resources query. */
typedef struct sp_res_match {
    TSNode res, type, name;
    size_t seq;
    size_t
        cand; /* the candidate (an index into sp_find_part_t.args) it was read from; SIZE_MAX: the whole tree's query */
} sp_res_match_t;

static int sp_cmp_res_match(const void *x, const void *y) {
    const sp_res_match_t *a = x, *b = y;
    uint32_t sa = ts_node_start_byte(a->name), sb = ts_node_start_byte(b->name);
    if (sa != sb) return sa < sb ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The captures of match m; false when it has no `res`. */
static bool sp_res_captures(TSQuery *q, const TSQueryMatch *m, sp_res_match_t *out) {
    memset(out, 0, sizeof *out);
    for (uint16_t i = 0; i < m->capture_count; i++) {
        uint32_t l;
        const char *cn = ts_query_capture_name_for_id(q, m->captures[i].index, &l);
        if (strcmp(cn, "res") == 0)
            out->res = m->captures[i].node;
        else if (strcmp(cn, "type") == 0)
            out->type = m->captures[i].node;
        else if (strcmp(cn, "name") == 0)
            out->name = m->captures[i].node;
    }
    return !ts_node_is_null(out->res);
}

/* A candidate's arguments, read once with one cursor pass (each step of a tree-sitter 0.20.7 cursor or
 * field lookup costs ~500 instructions): its `arguments` node, its first `want` named children that
 * are no extra (want: 2 in Go, whose first is ctx, else 1; the name is the last of them), and whether
 * an extra (a comment) comes before the last of them (or anywhere, when there are fewer), where a
 * query's anchors' treatment of extras decides and only the query itself can answer. Missing: null. */
typedef struct sp_cand_args {
    TSNode args, first, second;
    bool extra;
} sp_cand_args_t;

static void sp_cand_args(const sp_program_t *p, TSNode cand, sp_cand_args_t *out) {
    TSNode none = {0};
    *out = (sp_cand_args_t){.args = sp_field(cand, "arguments", 9), .first = none, .second = none};
    if (ts_node_is_null(out->args)) return;
    int want = p->lang == LANG_GO ? 2 : 1, got = 0;
    TSTreeCursor cur = ts_tree_cursor_new(out->args);
    for (bool ok = ts_tree_cursor_goto_first_child(&cur); ok && got < want;
         ok = ts_tree_cursor_goto_next_sibling(&cur)) {
        TSNode c = ts_tree_cursor_current_node(&cur);
        if (ts_node_is_extra(c)) {
            out->extra = true;
            continue;
        }
        if (!ts_node_is_named(c)) continue;
        *(got++ ? &out->second : &out->first) = c;
    }
    ts_tree_cursor_delete(&cur);
}

/* The end of the name a's candidate gives (the last of its first `want` arguments, above); 0 when it
 * has not that many. */
static uint32_t sp_cand_name_end(const sp_program_t *p, const sp_cand_args_t *a) {
    TSNode last = p->lang == LANG_GO ? a->second : a->first;
    return ts_node_is_null(last) ? 0 : sp_end_byte(last);
}

/* A TypeScript constructor without its parentheses: `new (random.RandomPet)(...)` constructs what
 * `new random.RandomPet(...)` does. */
static TSNode sp_unparen(TSNode n) {
    while (sp_is(n, "parenthesized_expression") && sp_nchild_count(n) == 1)
        n = sp_nchild(n, 0);
    return n;
}

/* The grammar symbols of the resources query's node names (what the query compares nodes with). */
typedef struct sp_res_syms {
    TSSymbol member, ident, args, string, raw_string, selector, field_ident, argument;
    /* Go (sp_go_value_callee): func_literal, type_instantiation_expression; then index_expression,
     * parenthesized_expression, call_expression, type_assertion_expression (a callee, or the operand of
     * a selector callee) */
    TSSymbol go_value[6];
} sp_res_syms_t;

static bool sp_sym_is(TSNode n, TSSymbol sym) {
    return !ts_node_is_null(n) && sym != 0 && ts_node_symbol(n) == sym;
}

/* Go: the callee of a call is a function value rather than `pkg.Func` (an identifier, a func literal,
 * an index, a call, a method of a value that is not a plain name): the resources query's third Go
 * pattern. */
static bool sp_go_value_callee(const sp_res_syms_t *y, TSNode fn) {
    bool sel = sp_sym_is(fn, y->selector);
    TSNode of = sel ? sp_field(fn, "operand", 7) : fn;
    if (sel ? sp_sym_is(of, y->selector) : sp_sym_is(fn, y->ident)) return true;
    for (size_t i = sel ? 2 : 0; i < sizeof y->go_value / sizeof y->go_value[0]; i++)
        if (sp_sym_is(of, y->go_value[i])) return true;
    return false;
}

/* Answers the resources query for one candidate node by looking at its children: 1 a match (type
 * and name set), 0 none, -1 not sure (an extra where an anchor is, an unnamed type node): the
 * query runs then. The per-language shapes are SP_RESOURCE_QUERY's. */
static int sp_resource_shape(const sp_program_t *p, const sp_res_syms_t *y, TSNode cand, const sp_cand_args_t *ca,
                             sp_res_match_t *out) {
    TSNode args = ca->args, first = ca->first, second = ca->second, type;
    switch (p->lang) {
    case LANG_TYPESCRIPT:
    case LANG_PYTHON:
        type =
            p->lang == LANG_TYPESCRIPT ? sp_unparen(sp_field(cand, "constructor", 11)) : sp_field(cand, "function", 8);
        if (!sp_sym_is(type, y->member) && !sp_sym_is(type, y->ident)) return 0;
        if (!sp_sym_is(args, y->args)) return 0;
        if (ca->extra) return -1;
        if (ts_node_is_null(first)) return 0;
        break;
    case LANG_GO: {
        type = sp_field(cand, "function", 8);
        if (!sp_sym_is(args, y->args)) return 0;
        if (sp_go_value_callee(y, type)) { /* mk(ctx, "name", ...) */
            if (ca->extra) return -1;
            if (!sp_sym_is(first, y->ident) || !(sp_sym_is(second, y->string) || sp_sym_is(second, y->raw_string)))
                return 0;
            first = second;
            break;
        }
        if (!sp_sym_is(type, y->selector)) return 0;
        if (!sp_sym_is(sp_field(type, "operand", 7), y->ident) ||
            !sp_sym_is(sp_field(type, "field", 5), y->field_ident))
            return 0;
        if (ca->extra) return -1;
        if (ts_node_is_null(second)) return 0;
        if (sp_sym_is(first, y->string) || sp_sym_is(first, y->raw_string)) { /* a component: type, then name */
            type = first;
        } else if (!sp_sym_is(first, y->ident)) {
            return 0;
        }
        first = second;
        break;
    }
    case LANG_CSHARP:
    case LANG_JAVA:
        type = sp_field(cand, "type", 4);
        if (ts_node_is_null(type)) return 0;
        if (!ts_node_is_named(type)) return -1;
        if (!sp_sym_is(args, y->args)) return 0;
        if (ca->extra) return -1;
        if (p->lang == LANG_CSHARP ? !sp_sym_is(first, y->argument) : ts_node_is_null(first)) return 0;
        break;
    default: return -1;
    }
    out->res = cand;
    out->type = type;
    out->name = first;
    return 1;
}

static TSSymbol sp_named_symbol(const TSLanguage *l, const char *name) {
    return ts_language_symbol_for_name(l, name, (uint32_t)strlen(name), true);
}

/* The reading of a range of a program's resource candidates (sp_find_resources): on the calling
 * thread (`s` set: it may compile the resources query, with its diagnostic) or on another (`s`
 * NULL: it runs the query only when it was compiled before, else gives up), with its own cursor. */
typedef struct sp_find_part {
    splicer_t *s;
    sp_program_t *p; /* another thread's: a copy of the program with an arena of its own */
    bool is_target;
    bool whole_ok;         /* the candidates' ranges may be too long: the whole tree's query runs then */
    size_t lo, hi;         /* candidates [lo, hi) of p->cands */
    sp_cand_args_t *args;  /* out: candidate k's arguments at k - lo (sp_cand_args) */
    TSQuery *q;            /* the resources query, once compiled (or when given) */
    TSQueryCursor *cursor; /* the splicer's (calling thread), else the part's own, made when needed */
    diag_list_t *diags;
    uint32_t last_stmt;      /* in: the statement of the resource read before (UINT32_MAX: none); out: the last */
    uint32_t first_stmt;     /* out: the statement of the first resource met (UINT32_MAX: none) */
    uint32_t key_lo, key_hi; /* out: the first and last match's name position (no matches: key_lo > key_hi) */
    uint64_t span;           /* out: the candidates' ranges, added up */
    bool whole;              /* out: the ranges add up to too much and !whole_ok: the whole tree's query is wanted */
    bool gave_up;            /* out: a candidate needs the query, which this thread may not compile */
    bool failed;             /* out: the query does not compile (a diagnostic) */
} sp_find_part_t;

/* The ranges of candidates' text that hold their names add up to more than this: the whole tree's
 * query runs once instead. */
static bool sp_span_too_long(const sp_program_t *p, uint64_t span) {
    return span > 4 * (uint64_t)p->len + 4096;
}

/* The resources query for part f; NULL when it is not there (f->gave_up, or f->failed with a
 * diagnostic). */
static TSQuery *sp_part_query(sp_find_part_t *f) {
    if (!f->q && f->s) f->q = sp_resources_query(f->s, f->p->lang, f->diags);
    if (!f->q) {
        f->gave_up = !f->s;
        f->failed = f->s != NULL;
        return NULL;
    }
    if (!f->cursor) f->cursor = ts_query_cursor_new();
    return f->q;
}

/* Every match of the resources query among candidates [f->lo, f->hi), in the order a whole-tree run
 * finishes them (by the position of the name: a match is complete when the query reaches it). The
 * query runs on each candidate node the walk found, over the bytes up to its name only — a
 * whole-tree run visits every node of a big file and cost a third of a 100,000-line splice. When
 * those ranges add up to more than a few times the file (long call chains, each a candidate holding
 * the next), the whole tree is run once instead, so the work stays linear. NULL when part f stops
 * (f->whole, f->gave_up, f->failed). */
static sp_res_match_t *sp_resource_matches(sp_find_part_t *f, size_t *count) {
    sp_program_t *p = f->p;
    TSQuery *q = NULL;
    *count = 0;
    size_t lo = f->lo, hi = f->hi, n = 0, cap = hi - lo + 16;
    sp_res_match_t *ms = arena_alloc(p->a, cap * sizeof *ms);
    uint32_t *ends = arena_alloc(p->a, (hi - lo + 1) * sizeof *ends); /* candidate k's at k - lo */
    sp_cand_args_t *ca = f->args = arena_alloc(p->a, (hi - lo + 1) * sizeof *ca);
    uint64_t span = 0;
    for (size_t k = lo; k < hi; k++) {
        /* The name is the arguments' first named child (Go: the second, after ctx); comments are
         * stepped over, so the range holds the name however the query treats them. */
        sp_cand_args(p, p->cands[k], &ca[k - lo]);
        ends[k - lo] = sp_cand_name_end(p, &ca[k - lo]);
        if (ends[k - lo]) span += ends[k - lo] - ts_node_start_byte(p->cands[k]);
    }
    f->span = span;
    TSQueryMatch m;
    if (sp_span_too_long(p, span)) {
        if (!f->whole_ok) {
            f->whole = true;
            return NULL;
        }
        if (!(q = sp_part_query(f))) return NULL;
        for (int half = 0; half < (p->tree2 ? 2 : 1); half++) {
            ts_query_cursor_exec(f->cursor, q, half ? p->hold2 : p->root);
            while (ts_query_cursor_next_match(f->cursor, &m)) {
                ms = arena_grow_array(p->a, ms, &cap, n + 1, sizeof *ms);
                if (sp_res_captures(q, &m, &ms[n])) {
                    ms[n].seq = n;
                    ms[n].cand = SIZE_MAX;
                    n++;
                }
            }
        }
    } else {
        const TSLanguage *l = ts_tree_language(p->tree);
        bool go = p->lang == LANG_GO, cs = p->lang == LANG_CSHARP, java = p->lang == LANG_JAVA;
        sp_res_syms_t y = {
            .member = sp_named_symbol(l, p->lang == LANG_PYTHON ? "attribute" : "member_expression"),
            .ident = sp_named_symbol(l, "identifier"),
            .args = sp_named_symbol(l, p->lang == LANG_TYPESCRIPT ? "arguments" : "argument_list"),
            .string = sp_named_symbol(l, go           ? "interpreted_string_literal"
                                         : cs || java ? "string_literal"
                                                      : "string"),
            .raw_string = go ? sp_named_symbol(l, "raw_string_literal") : 0,
            .selector = sp_named_symbol(l, "selector_expression"),
            .field_ident = sp_named_symbol(l, "field_identifier"),
            .argument = sp_named_symbol(l, "argument"),
        };
        if (go) {
            static const char *const V[] = {"func_literal",     "type_instantiation_expression",
                                            "index_expression", "parenthesized_expression",
                                            "call_expression",  "type_assertion_expression"};
            for (size_t i = 0; i < sizeof V / sizeof V[0]; i++)
                y.go_value[i] = sp_named_symbol(l, V[i]);
        }
        for (size_t k = lo; k < hi; k++) {
            if (!ends[k - lo]) continue; /* no arguments or no first one: the pattern cannot match */
            /* Most candidates are answered from their children (a few thousand instructions, where
             * the query took about 13,000); the rest run the query. */
            int shape = sp_resource_shape(p, &y, p->cands[k], &ca[k - lo], &ms[n]);
            if (shape >= 0) {
                if (shape) {
                    ms[n].seq = n;
                    ms[n].cand = k - lo;
                    n++;
                }
                continue;
            }
            if (!q && !(q = sp_part_query(f))) return NULL;
            ts_query_cursor_set_byte_range(f->cursor, ts_node_start_byte(p->cands[k]), ends[k - lo]);
            ts_query_cursor_exec(f->cursor, q, p->cands[k]);
            while (ts_query_cursor_next_match(f->cursor, &m)) {
                /* matches of candidates nested in this one's type come first: theirs, not this one's */
                if (sp_res_captures(q, &m, &ms[n]) && ts_node_eq(ms[n].res, p->cands[k])) {
                    ms[n].seq = n;
                    ms[n].cand = k - lo;
                    n++;
                    break;
                }
            }
        }
        if (f->cursor) ts_query_cursor_set_byte_range(f->cursor, 0, UINT32_MAX);
    }
    if (n > 1) qsort(ms, n, sizeof *ms, sp_cmp_res_match);
    f->key_lo = n ? ts_node_start_byte(ms[0].name) : 1;
    f->key_hi = n ? ts_node_start_byte(ms[n - 1].name) : 0;
    *count = n;
    return ms;
}

/* The argument of a call that gives its parameter `kw` (`resource_name=`, C# `name:`), else its
 * argument at position pos (comments stepped over; a keyword or named argument there gives no
 * positional one): its value node (C#: the expression of the `argument`), or a null node. */
static TSNode sp_arg_value(sp_program_t *p, TSNode args, uint32_t pos, const char *kw) {
    TSNode none = {0}, at = none;
    if (ts_node_is_null(args)) return none;
    /* An argument named kw has kw in the list's text: without it the positional one is the answer,
     * and the arguments after it are not read. */
    uint32_t s = ts_node_start_byte(args), kl = (uint32_t)strlen(kw);
    bool named =
        (p->lang == LANG_PYTHON || p->lang == LANG_CSHARP) && memmem(p->text + s, sp_end_byte(args) - s, kw, kl);
    uint32_t k = 0;
    TSTreeCursor cur = ts_tree_cursor_new(args);
    for (bool ok = ts_tree_cursor_goto_first_child(&cur); ok; ok = ts_tree_cursor_goto_next_sibling(&cur)) {
        TSNode a = ts_tree_cursor_current_node(&cur);
        if (!ts_node_is_named(a) || ts_node_is_extra(a)) continue;
        TSNode nm = p->lang == LANG_PYTHON   ? (sp_is(a, "keyword_argument") ? sp_field(a, "name", 4) : none)
                    : p->lang == LANG_CSHARP ? sp_field(a, "name", 4)
                                             : none;
        if (!ts_node_is_null(nm)) {
            /* its text, up to a NUL, is kw */
            uint32_t ns = ts_node_start_byte(nm), nl = sp_end_byte(nm) - ns;
            if (named && nl >= kl && memcmp(p->text + ns, kw, kl) == 0 && (nl == kl || p->text[ns + kl] == 0)) {
                at = p->lang == LANG_PYTHON ? sp_field(a, "value", 5) : sp_nchild(a, sp_nchild_count(a) - 1);
                ts_tree_cursor_delete(&cur);
                return at;
            }
        } else if (k++ == pos) {
            at = a;
            if (!named) break;
        }
    }
    ts_tree_cursor_delete(&cur);
    if (p->lang == LANG_CSHARP && sp_is(at, "argument")) return sp_nchild(at, sp_nchild_count(at) - 1);
    return at;
}

/* The arguments of match m's call. */
static TSNode sp_match_args(const sp_find_part_t *f, const sp_res_match_t *m) {
    return m->cand != SIZE_MAX ? f->args[m->cand].args : sp_field(m->res, "arguments", 9);
}

/* sp_arg_value of match m's call, from what the reading of its candidate found (sp_cand_args) where
 * that is the same: a language without named arguments, the name's position among those read. */
static TSNode sp_match_arg(sp_find_part_t *f, const sp_res_match_t *m, TSNode args, uint32_t pos, const char *kw) {
    sp_program_t *p = f->p;
    if (m->cand != SIZE_MAX && p->lang != LANG_PYTHON && p->lang != LANG_CSHARP && pos < (p->lang == LANG_GO ? 2 : 1))
        return pos ? f->args[m->cand].second : f->args[m->cand].first;
    return sp_arg_value(p, args, pos, kw);
}

/* The type token a component class passes to its base constructor (`super("pkg:index:Server",
 * name, ...)`, Python's `super().__init__(...)`, C#'s `: base(...)`): the first such call's first
 * argument when it is a string literal, else NULL. */
static const char *sp_class_token(sp_program_t *p, TSNode body) {
    TSTreeCursor cur = ts_tree_cursor_new(body);
    const char *token = NULL;
    for (bool more = true; more;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        const char *t = sp_type(n);
        TSNode args = {0};
        if (strcmp(t, "constructor_initializer") == 0) {
            args = sp_nchild(n, 0);
        } else if (strcmp(t, "explicit_constructor_invocation") == 0 ||
                   (strcmp(t, "call_expression") == 0 && sp_is(sp_field(n, "function", 8), "super"))) {
            args = sp_field(n, "arguments", 9);
        } else if (strcmp(t, "call") == 0) {
            const char *f = sp_node_text(p, sp_field(n, "function", 8));
            if (strncmp(f, "super(", 6) == 0 && strlen(f) > 9 && strcmp(f + strlen(f) - 9, ".__init__") == 0)
                args = sp_field(n, "arguments", 9);
        }
        if (!ts_node_is_null(args)) {
            TSNode a = sp_arg_value(p, args, 0, p->lang == LANG_PYTHON ? "t" : "type");
            token = ts_node_is_null(a) ? NULL : sp_string_value(p, a);
            break;
        }
        if (ts_tree_cursor_goto_first_child(&cur)) continue;
        while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
            if (!ts_tree_cursor_goto_parent(&cur) || ts_node_eq(ts_tree_cursor_current_node(&cur), body)) break;
    }
    ts_tree_cursor_delete(&cur);
    return token;
}

size_t sp_class_components(sp_program_t *p, sp_stmt_t **out) {
    *out = NULL;
    size_t n = 0, cap = 0;
    if (p->lang == LANG_GO || p->lang == LANG_YAML) return 0;
    const char *k = p->text, *end = p->text + p->len;
    while ((k = memmem(k, (size_t)(end - k), "ComponentResource", 17)) != NULL) {
        uint32_t off = (uint32_t)(k - p->text);
        k += 17;
        TSNode cls = ts_node_descendant_for_byte_range(sp_root_at(p, off), off, off + 17);
        for (int up = 0; up < 8 && !ts_node_is_null(cls); up++, cls = ts_node_parent(cls)) {
            const char *t = sp_type(cls);
            if (strcmp(t, "class_declaration") == 0 || strcmp(t, "class_definition") == 0 || strcmp(t, "class") == 0)
                break;
        }
        TSNode name = sp_field(cls, "name", 4), body = sp_field(cls, "body", 4);
        /* only where the class names its base (before its body) */
        if (ts_node_is_null(name) || ts_node_is_null(body) || off < sp_end_byte(name) ||
            off >= ts_node_start_byte(body))
            continue;
        const char *cname = sp_node_text(p, name), *token = sp_class_token(p, body);
        for (size_t i = 0; i < p->ncands; i++) {
            TSNode c = p->cands[i];
            TSNode ty = p->lang == LANG_TYPESCRIPT ? sp_unparen(sp_field(c, "constructor", 11))
                        : p->lang == LANG_PYTHON   ? sp_field(c, "function", 8)
                                                   : sp_field(c, "type", 4);
            if (ts_node_is_null(ty) || strcmp(sp_node_text(p, ty), cname) != 0) continue;
            TSNode nn = sp_arg_value(p, sp_field(c, "arguments", 9), 0, "name");
            const char *lname = ts_node_is_null(nn) ? NULL : sp_string_value(p, nn);
            SP_PUSH(p->a, *out, n, cap);
            sp_stmt_t *r = &(*out)[n - 1];
            memset(r, 0, sizeof *r);
            r->res_name = lname ? lname : "";
            r->res_type = cname;
            r->comp_token = token;
            r->start = r->res_start = ts_node_start_byte(c);
            r->end = r->res_end = sp_end_byte(c);
            r->name_start = ts_node_is_null(nn) ? r->res_start : ts_node_start_byte(nn);
            r->name_end = ts_node_is_null(nn) ? r->res_end : sp_end_byte(nn);
        }
    }
    return n;
}

static int sp_cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Python: whether the file binds name to a class (p->class_names, sp_py_class_names). */
static bool sp_py_class_named(const sp_program_t *p, const char *name) {
    return p->nclass_names && bsearch(&name, p->class_names, p->nclass_names, sizeof *p->class_names, sp_cmp_str);
}

void sp_classes(sp_program_t *p) {
    size_t cap = 0;
    p->classes = NULL;
    p->nclasses = 0;
    if (p->lang == LANG_GO || p->lang == LANG_YAML) return;
    const char *t = p->text, *end = t + p->len;
    for (const char *s = t; (s = memmem(s, (size_t)(end - s), "class", 5)) != NULL; s += 5) {
        const char *q = s + 5;
        if ((s > t && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '.')) || q >= end ||
            !isspace((unsigned char)*q))
            continue;
        while (q < end && isspace((unsigned char)*q))
            q++;
        const char *n = q;
        while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == '$'))
            q++;
        if (q == n) continue;
        /* its heading: to the body's `{` (Python: to the `:` after its bases, which may span lines) */
        const char *h = q, *he = q;
        int depth = 0;
        for (; he < end && he - h < 2048; he++) {
            char ch = *he;
            if (p->lang == LANG_PYTHON) {
                if (ch == '(' || ch == '[') depth++;
                if ((ch == ')' || ch == ']') && depth > 0) depth--;
                if (depth == 0 && (ch == ':' || ch == '\n')) break;
            } else if (ch == '{' || ch == ';') {
                break;
            }
        }
        SP_PUSH(p->a, p->classes, p->nclasses, cap);
        p->classes[p->nclasses - 1] =
            (sp_class_t){.name = n, .nl = (uint32_t)(q - n), .head = h, .hl = (uint32_t)(he - h)};
    }
}

static const sp_class_t *sp_class_find(const sp_class_t *cl, size_t n, const char *name, size_t nl) {
    for (size_t i = 0; i < n; i++)
        if (cl[i].nl == nl && memcmp(cl[i].name, name, nl) == 0) return &cl[i];
    return NULL;
}

static int sp_class_component_at(const sp_class_t *const *tabs, const size_t *ns, size_t ntabs, const char *name,
                                 size_t nl, int depth) {
    const sp_class_t *k = NULL;
    for (size_t i = 0; i < ntabs && !k; i++)
        k = sp_class_find(tabs[i], ns[i], name, nl);
    if (!k) return -1;
    if (memmem(k->head, k->hl, "ComponentResource", 17)) return 1;
    if (depth >= 4) return 0;
    /* a base of the program's own that is a component (`class Suffix extends Base`) */
    for (const char *w = k->head, *e = k->head + k->hl; w < e;) {
        if (!isalpha((unsigned char)*w) && *w != '_') {
            w++;
            continue;
        }
        const char *we = w;
        while (we < e && (isalnum((unsigned char)*we) || *we == '_'))
            we++;
        bool member = w > k->head && w[-1] == '.'; /* `random.RandomString`: the package's, not the program's */
        if (!member && !((size_t)(we - w) == nl && memcmp(w, name, nl) == 0) &&
            sp_class_component_at(tabs, ns, ntabs, w, (size_t)(we - w), depth + 1) == 1)
            return 1;
        w = we;
    }
    return 0;
}

int sp_class_component(const sp_class_t *const *tabs, const size_t *ns, size_t ntabs, const char *name, size_t nl) {
    return sp_class_component_at(tabs, ns, ntabs, name, nl, 0);
}

/* Whether the file declares a class `name` of its own that is a component (`class Name extends
 * pulumi.ComponentResource`, Python `class Name(pulumi.ComponentResource):` — its bases over several
 * lines too —, C# `class Name : ComponentResource`, or through a base class of its own that is one):
 * what it constructs has the program's own component type, never a resource of an imported class. A
 * class declared otherwise (one extending a package's resource class) is not. */
static bool sp_local_component(const sp_program_t *p, const char *name) {
    const sp_class_t *tab = p->classes;
    return sp_class_component(&tab, &p->nclasses, 1, name, strlen(name)) == 1;
}

/* The resources of candidates [f->lo, f->hi), each resource statement recorded: into p->res (the
 * user's file: anywhere) or onto the body statement holding it (the generated program). False when
 * the part stops (sp_resource_matches). */
static bool sp_find_part(sp_find_part_t *f) {
    sp_program_t *p = f->p;
    bool is_target = f->is_target;
    size_t nm;
    sp_res_match_t *ms = sp_resource_matches(f, &nm);
    if (!ms) return false;
    if (is_target && p->cres < p->nres + nm) { /* room for them all at once (sp_stmt_t is big) */
        p->res = arena_grow(p->a, p->res, p->cres * sizeof *p->res, (p->nres + nm) * sizeof *p->res);
        p->cres = p->nres + nm;
    }
    uint32_t last_stmt = f->last_stmt;
    f->first_stmt = UINT32_MAX;
    for (size_t mi = 0; mi < nm; mi++) {
        TSNode res = ms[mi].res, type = ms[mi].type;
        const char *tt = sp_node_text(p, type);
        const char *component = NULL; /* Go: the type of a component's registration */
        bool untraced = false;        /* a call through a value (Go), of a name bound to a class (Python) */
        if (p->lang == LANG_GO && (*tt == '"' || *tt == '`')) {
            const char *fn = sp_node_text(p, sp_field(res, "function", 8));
            const char *dot = strrchr(fn, '.');
            if (!dot || strcmp(dot + 1, "RegisterComponentResource") != 0 || !(component = sp_string_value(p, type)))
                continue;
        } else if (p->lang == LANG_GO) {
            const char *dot = strchr(tt, '.');
            /* `mk(ctx, "name")`, `NewRandomString(ctx, ...)` of a dot import, `b.mk(ctx, "name")` of a
             * value b; Go's builtins that take (a variable, a string) are no constructors */
            untraced = !sp_is(type, "selector_expression") || !sp_is(sp_field(type, "operand", 7), "identifier") ||
                       !sp_canonical_type(p, tt);
            if (untraced ? strcmp(tt, "append") == 0 || strcmp(tt, "copy") == 0 || strcmp(tt, "delete") == 0
                         : !dot || strncmp(dot + 1, "New", 3) != 0 || !isupper((unsigned char)dot[4]))
                continue;
        } else {
            const char *last = strrchr(tt, '.');
            last = last ? last + 1 : tt;
            if (strcmp(last, "Config") == 0) continue;
            /* `new` (TypeScript, C#, Java) constructs a class whatever its name's case (`const mk =
             * random.RandomString; new mk(...)`). A Python call is taken for a constructor by its
             * class's capital, and a lower-case name for a function, unless the file binds it to a
             * class (`mk = pulumi_random.RandomString`, `self.mk = RandomString`: what it makes
             * cannot be told) or imports one under it (`from pulumi_random import RandomString as
             * mk`: read as that class). */
            if (p->lang == LANG_PYTHON && !isupper((unsigned char)last[0])) {
                if (sp_py_class_named(p, tt)) {
                    untraced = true;
                } else {
                    const char *ct = last == tt ? sp_canonical_type(p, tt) : NULL, *cl = ct ? strrchr(ct, '.') : NULL;
                    if (!cl || !isupper((unsigned char)cl[1])) continue;
                }
            }
        }
        const char *ctype = component  ? arena_sprintf(p->a, "component %s", component)
                            : untraced ? NULL
                                       : sp_canonical_type(p, tt);
        /* a class of the file's own that is a component: the program's own type (a scan of the file,
         * so only for a plain name no import gives a type) */
        if (!ctype && !component && p->lang != LANG_GO && !strchr(tt, '.') && sp_local_component(p, tt)) continue;
        /* C#, Java: a plain name no import gives (`*.Str`: a class of a namespace the file uses) that
         * the file declares a class of: the program's own class — a component, or one cimport cannot
         * trace (a subclass of a package's resource class makes that resource: read18 F2) */
        if (ctype && strncmp(ctype, "*.", 2) == 0 && sp_class_find(p->classes, p->nclasses, tt, strlen(tt))) {
            if (sp_local_component(p, tt)) continue;
            ctype = NULL;
        }
        if (!ctype) {
            /* A class not reached through a package import (`const RS = random.RandomString`, a
             * destructured name, `import random = require(...)`; Go: a function value, a dot
             * import): what it is cannot be told, so one with a literal name is kept apart with no
             * type (sp_splice_code refuses to add a resource of that name beside it). Its `end` is
             * where its class or function ends (the arguments' start). */
            TSNode uargs = sp_match_args(f, &ms[mi]);
            TSNode un = is_target ? sp_match_arg(f, &ms[mi], uargs, p->lang == LANG_GO ? 1 : 0,
                                                 p->lang == LANG_PYTHON ? "resource_name" : "name")
                                  : (TSNode){0};
            const char *uname = ts_node_is_null(un) ? NULL : sp_string_value(p, un);
            if (uname && *uname) {
                SP_PUSH(p->a, p->unread, p->nunread, p->cunread);
                sp_stmt_t *r = &p->unread[p->nunread - 1];
                memset(r, 0, sizeof *r);
                r->res_name = uname;
                r->start = r->res_start = ts_node_start_byte(res);
                r->res_end = sp_end_byte(res);
                r->end = ts_node_is_null(uargs) ? r->res_end : ts_node_start_byte(uargs);
                r->name_start = ts_node_start_byte(un);
                r->name_end = sp_end_byte(un);
            }
            continue;
        }
        /* The name: the first argument (Go: after ctx; a component's: after its type), or the one
         * naming the parameter (`resource_name=`, C# `name:`); a ComponentResource's first argument
         * is its type, its name the second. */
        TSNode args = sp_match_args(f, &ms[mi]);
        const char *last = strrchr(tt, '.'), *token = NULL;
        bool comp_class = !component && p->lang != LANG_GO && strcmp(last ? last + 1 : tt, "ComponentResource") == 0;
        TSNode nn = sp_match_arg(f, &ms[mi], args, p->lang == LANG_GO || comp_class ? 1 : 0,
                                 p->lang == LANG_PYTHON && !comp_class ? "resource_name" : "name");
        const char *lname = ts_node_is_null(nn) ? NULL : sp_string_value(p, nn);
        if (comp_class) {
            TSNode tn = sp_arg_value(p, args, 0, p->lang == LANG_PYTHON ? "t" : "type");
            token = ts_node_is_null(tn) ? NULL : sp_string_value(p, tn);
        }
        if (!lname) {
            /* a resource of a known class whose name cannot be read: kept apart (sp_splice_code
             * refuses to add one of its type beside it) */
            if (is_target) {
                SP_PUSH(p->a, p->unread, p->nunread, p->cunread);
                sp_stmt_t *r = &p->unread[p->nunread - 1];
                memset(r, 0, sizeof *r);
                r->res_type = ctype;
                r->res_name = "";
                r->comp_token = token;
                r->start = r->res_start = ts_node_start_byte(res);
                r->end = r->res_end = sp_end_byte(res);
                r->name_start = ts_node_is_null(nn) ? r->res_start : ts_node_start_byte(nn);
                r->name_end = ts_node_is_null(nn) ? r->res_end : sp_end_byte(nn);
            }
            continue;
        }
        /* The statement: the ancestor whose parent is a block or the file. Found by descending
         * from the body statement holding the resource (ts_node_parent walks down from the root
         * through every sibling in runtime 0.20.7: climbing would be quadratic in big files). */
        const sp_stmt_t *top = sp_stmt_at(p, ts_node_start_byte(res));
        TSNode st = res;
        if (top) {
            st = top->node;
            TSNode n = top->node;
            uint32_t rs = ts_node_start_byte(res);
            while (!ts_node_eq(n, res)) {
                TSNode ch = ts_node_first_child_for_byte(n, rs);
                if (ts_node_is_null(ch) || ts_node_start_byte(ch) > rs) break;
                if (sp_is_container(sp_type(n))) st = ch;
                n = ch;
            }
        } else {
            for (;;) {
                TSNode par = ts_node_parent(st);
                if (ts_node_is_null(par) || sp_is_container(sp_type(par))) break;
                st = par;
            }
        }
        uint32_t sb = ts_node_start_byte(st);
        if (f->first_stmt == UINT32_MAX) f->first_stmt = sb;
        if (sb == last_stmt) continue; /* a resource nested in another's arguments */
        last_stmt = sb;
        const char *state = NULL; /* Go: the component's state variable */
        if (component) {
            TSNode arg = sp_nchild(args, 2);
            /* `web`, or `&web`: a pointer to the file's own state */
            bool addr = sp_is(arg, "unary_expression") && sp_is(sp_field(arg, "operand", 7), "identifier") &&
                        strcmp(sp_node_text(p, sp_field(arg, "operator", 8)), "&") == 0;
            if (sp_is(arg, "identifier") || addr) state = sp_node_text(p, arg);
        }
        if (is_target) {
            SP_PUSH(p->a, p->res, p->nres, p->cres);
            sp_stmt_t *r = &p->res[p->nres - 1];
            memset(r, 0, sizeof *r);
            r->start = sb;
            r->end = r->node_end = sp_end_byte(st);
            if (top && ts_node_eq(st, top->node)) {
                r->end = top->end; /* includes Go's `if err != nil` */
            } else if (p->lang == LANG_GO) {
                TSNode next = ts_node_next_named_sibling(st);
                if (sp_is_go_err_check(p, next)) r->end = sp_end_byte(next);
            }
            r->res_name = lname;
            r->res_type = ctype;
            r->comp_token = token;
            r->res_start = ts_node_start_byte(res);
            r->res_end = sp_end_byte(res);
            r->comp_state = state;
            if (top && ts_node_eq(st, top->node)) { /* the body statement's, found from the same node */
                memcpy(r->decls, top->decls, sizeof r->decls);
                r->ndecls = top->ndecls;
                r->op_start = top->op_start;
                r->op_end = top->op_end;
            } else {
                sp_stmt_decls(p, r, st);
            }
        } else {
            sp_stmt_t *g = (sp_stmt_t *)sp_stmt_at(p, sb);
            if (g && g->start == sb && !*g->res_name) {
                g->res_name = lname;
                g->res_type = ctype;
                g->comp_token = token;
                g->res_start = ts_node_start_byte(res);
                g->res_end = sp_end_byte(res);
                g->comp_state = state;
            }
        }
    }
    f->last_stmt = last_stmt;
    return true;
}

/* Whether Python value v may be a class: a name or attribute whose last part begins in upper case
 * (a class by Python's convention, as the constructor filter reads a call), a name imported as a
 * class (`from m import C as c`), a name `known` holds (bound to one already); either side of `a if t
 * else b` or `a or b`. */
static bool sp_py_class_value(sp_program_t *p, TSNode v, const hashmap_t *known, int depth) {
    if (depth > 16) return false;
    if (sp_is(v, "parenthesized_expression")) return sp_py_class_value(p, sp_nchild(v, 0), known, depth + 1);
    if (sp_is(v, "conditional_expression"))
        return sp_py_class_value(p, sp_nchild(v, 0), known, depth + 1) ||
               sp_py_class_value(p, sp_nchild(v, 2), known, depth + 1);
    if (sp_is(v, "boolean_operator"))
        return sp_py_class_value(p, sp_field(v, "left", 4), known, depth + 1) ||
               sp_py_class_value(p, sp_field(v, "right", 5), known, depth + 1);
    bool attr = sp_is(v, "attribute");
    if (!attr && !sp_is(v, "identifier")) return false;
    const char *last = sp_node_text(p, attr ? sp_field(v, "attribute", 9) : v), *text = sp_node_text(p, v);
    if (isupper((unsigned char)last[0]) || hashmap_find(known, text, strlen(text))) return true;
    const char *ct = attr ? NULL : sp_canonical_type(p, text), *cl = ct ? strrchr(ct, '.') : NULL;
    return cl && isupper((unsigned char)cl[1]);
}

/* Python: the names (`mk`, `self.mk`) the file binds to a class anywhere (p->binds), into
 * p->class_names, sorted. A name bound to another such name is one too (a few rounds: `a = R; b = a`).
 * Where each binding lies is not looked at: a name bound to a class in one function and to a
 * function in another is taken for a class everywhere (a same-named resource is refused, never
 * added twice). */
static void sp_py_class_names(sp_program_t *p) {
    hashmap_t known = {0};
    for (int round = 0, added = 1; round < 8 && added; round++) {
        added = 0;
        for (size_t i = 0; i < p->nbinds; i++) {
            TSNode b = p->binds[i], v = sp_py_bind_value(b);
            TSNode t = sp_field(b, sp_is(b, "assignment") ? "left" : "name", 4);
            /* `a, mk = x, R`: each name with its value */
            bool pairs = (sp_is(t, "pattern_list") || sp_is(t, "tuple_pattern")) &&
                         (sp_is(v, "expression_list") || sp_is(v, "tuple")) && sp_nchild_count(t) == sp_nchild_count(v);
            for (uint32_t k = 0, nk = pairs ? sp_nchild_count(t) : 1; k < nk; k++) {
                TSNode tk = pairs ? sp_nchild(t, k) : t, vk = pairs ? sp_nchild(v, k) : v;
                if (!sp_is(tk, "identifier") && !sp_is(tk, "attribute")) continue;
                const char *name = sp_node_text(p, tk);
                if (hashmap_find(&known, name, strlen(name)) || !sp_py_class_value(p, vk, &known, 0)) continue;
                hashmap_add(&known, name, strlen(name), NULL);
                added = 1;
            }
        }
    }
    size_t n = 0, count = hashmap_count(&known);
    if (count) {
        p->class_names = arena_alloc(p->a, count * sizeof *p->class_names);
        const hashmap_entry_t *e;
        for (size_t it = 0; n < count && (e = hashmap_next(&known, &it));)
            p->class_names[n++] = e->key;
        qsort(p->class_names, n, sizeof *p->class_names, sp_cmp_str);
    }
    p->nclass_names = n;
    hashmap_free(&known);
}

/* The second half of a big file's candidates, read on a thread of its own (sp_find_split). */
static void *sp_find_thread(void *arg) {
    sp_find_part_t *f = arg;
    sp_find_part(f);
    if (f->cursor) ts_query_cursor_delete(f->cursor);
    f->cursor = NULL;
    return NULL;
}

/* A file parsed in two halves has its resources read on two threads: the calling thread takes the
 * first half of the candidates, another the second, in a copy of the program with an arena of its
 * own (adopted by p's when it is done) and its own query cursor. What each finds is put together in
 * order when that is what one reading gives: every name of the first part comes before every name
 * of the second (they are sorted by it), and the first resource the second part met is not in the
 * statement of the first part's last (a statement counts once: one reading would have skipped it).
 * Else, or when either part stops (the query to compile on the other thread, the candidates' ranges
 * too long), the result is not shown: returns -1 and nothing is kept, and the caller reads them all
 * on one thread. 1 or 0: done (0: the query does not compile, a diagnostic). */
static int sp_find_split(splicer_t *s, sp_program_t *p, diag_list_t *diags) {
    size_t mid = p->ncands / 2;
    sp_queries_t *qs = &s->q[p->lang];
    arena_t *ta = arena_new();
    sp_program_t tp = *p;
    tp.a = ta;
    tp.res = tp.unread = NULL;
    tp.nres = tp.cres = tp.nunread = tp.cunread = 0;
    sp_find_part_t second = {.p = &tp,
                             .is_target = true,
                             .lo = mid,
                             .hi = p->ncands,
                             .q = qs->resources_tried ? qs->resources : NULL,
                             .last_stmt = UINT32_MAX};
    pthread_t th;
    if (pthread_create(&th, NULL, sp_find_thread, &second) != 0) {
        arena_free(ta);
        return -1;
    }
    size_t nres = p->nres, nunread = p->nunread;
    sp_find_part_t first = {.s = s,
                            .p = p,
                            .is_target = true,
                            .lo = 0,
                            .hi = mid,
                            .cursor = s->cursor,
                            .diags = diags,
                            .last_stmt = UINT32_MAX};
    bool ok = sp_find_part(&first);
    pthread_join(th, NULL);
    bool done = ok && !second.gave_up && !second.whole && !sp_span_too_long(p, first.span + second.span) &&
                (first.key_lo > first.key_hi || second.key_lo > second.key_hi || first.key_hi < second.key_lo) &&
                (first.last_stmt == UINT32_MAX || second.first_stmt != first.last_stmt);
    if (!done) {
        arena_free(ta);
        p->nres = nres; /* what the first part recorded is read again */
        p->nunread = nunread;
        return first.failed ? 0 : -1;
    }
    for (size_t i = 0; i < tp.nres; i++) {
        SP_PUSH(p->a, p->res, p->nres, p->cres);
        p->res[p->nres - 1] = tp.res[i];
    }
    for (size_t i = 0; i < tp.nunread; i++) {
        SP_PUSH(p->a, p->unread, p->nunread, p->cunread);
        p->unread[p->nunread - 1] = tp.unread[i];
    }
    arena_adopt(p->a, ta);
    return 1;
}

/* A big file parsed in two halves with at least this many candidates has them read on two threads. */
enum { SP_FIND_SPLIT_MIN = 2048 };

/* Finds the resources and records each resource statement (sp_find_part). False when the
 * resources query does not compile (a diagnostic). */
static bool sp_find_resources(splicer_t *s, sp_program_t *p, bool is_target, diag_list_t *diags) {
    if (p->lang == LANG_PYTHON) sp_py_class_names(p); /* before any part reads the candidates */
    sp_classes(p);
    if (is_target && p->tree2 && p->ncands >= SP_FIND_SPLIT_MIN) {
        int r = sp_find_split(s, p, diags);
        p->split_find = r == 1;
        if (r >= 0) return r == 1;
    }
    sp_find_part_t f = {.s = s,
                        .p = p,
                        .is_target = is_target,
                        .whole_ok = true,
                        .lo = 0,
                        .hi = p->ncands,
                        .cursor = s->cursor,
                        .diags = diags,
                        .last_stmt = UINT32_MAX};
    return sp_find_part(&f);
}

/* ---------------------------------------------------------------------------------------------- */

/* One match of the imports query: the statement (Go: the import_spec) n. */
static void sp_import_one(sp_program_t *p, TSNode n, bool require) {
    switch (p->lang) {
    case LANG_TYPESCRIPT: sp_import_ts(p, n, require); break;
    case LANG_PYTHON: sp_import_python(p, n); break;
    case LANG_GO: sp_import_go(p, n); break;
    case LANG_CSHARP: sp_import_csharp(p, n); break;
    case LANG_JAVA: sp_import_java(p, n); break;
    default: break;
    }
}

/* The symbols of the imports query's one-node patterns (SP_IMPORT_QUERY), and TypeScript's
 * lexical_declaration, where its require pattern starts. */
typedef struct sp_import_syms {
    TSSymbol sym[3];
    size_t n;
    TSSymbol lexical;
} sp_import_syms_t;

static sp_import_syms_t sp_import_syms(const sp_program_t *p) {
    const TSLanguage *l = ts_tree_language(p->tree);
    sp_import_syms_t y = {{0}, 0, 0};
    switch (p->lang) {
    case LANG_TYPESCRIPT:
        y.sym[y.n++] = sp_named_symbol(l, "import_statement");
        y.lexical = sp_named_symbol(l, "lexical_declaration");
        break;
    case LANG_PYTHON:
        y.sym[y.n++] = sp_named_symbol(l, "import_statement");
        y.sym[y.n++] = sp_named_symbol(l, "import_from_statement");
        y.sym[y.n++] = sp_named_symbol(l, "future_import_statement");
        break;
    case LANG_GO: y.sym[y.n++] = sp_named_symbol(l, "import_spec"); break;
    case LANG_CSHARP: y.sym[y.n++] = sp_named_symbol(l, "using_directive"); break;
    case LANG_JAVA: y.sym[y.n++] = sp_named_symbol(l, "import_declaration"); break;
    default: break;
    }
    return y;
}

/* The nodes the imports query would match in top (itself and below, in the pre-order it reports
 * one-node patterns in), into *out; false when only the query can tell (TypeScript: a
 * lexical_declaration, where the require pattern could match). */
static bool sp_import_nodes(sp_program_t *p, const sp_import_syms_t *y, TSNode top, TSNode **out, size_t *n,
                            size_t *cap) {
    *n = 0;
    if (y->n == 0) return false;
    bool sure = true;
    TSTreeCursor cur = ts_tree_cursor_new(top);
    for (;;) {
        TSNode c = ts_tree_cursor_current_node(&cur);
        TSSymbol sym = ts_node_symbol(c);
        if (y->lexical && sym == y->lexical) {
            sure = false;
            break;
        }
        for (size_t i = 0; i < y->n; i++)
            if (sym == y->sym[i] && ts_node_is_named(c)) {
                SP_PUSH(p->a, *out, *n, *cap);
                (*out)[*n - 1] = c;
                break;
            }
        if (ts_tree_cursor_goto_first_child(&cur)) continue;
        bool more = false;
        while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
            if (!ts_tree_cursor_goto_parent(&cur)) break;
        if (!more) break;
    }
    ts_tree_cursor_delete(&cur);
    return sure;
}

void sp_analyze_start(sp_program_t *p, bool is_target, sp_walk_t *w) {
    p->names = names_table_new(p->a);
    p->cand_type = SP_RESOURCE_ROOT[p->lang];
    sp_walk_start(w, p, !is_target, true);
}

bool sp_analyze(splicer_t *s, sp_program_t *p, bool is_target, const char *filename, diag_list_t *diags) {
    sp_walk_t w;
    sp_analyze_start(p, is_target, &w);
    bool ok = sp_analyze_body(s, p, filename, diags);
    sp_walk_finish(&w, p);
    return ok && sp_analyze_finish(s, p, is_target, &w, diags);
}

/* The imports of p (top: the root's named children). False when the query does not compile. */
static bool sp_read_imports(splicer_t *s, sp_program_t *p, TSNode *top, uint32_t ntop, diag_list_t *diags) {
    /* only top-level statements can import, so the query runs on those (not on the whole tree: in a
     * 10,000-line file that walk cost a tenth of the splice) */
    TSQueryMatch m;
    sp_import_syms_t isyms = sp_import_syms(p);
    size_t nfound = 0, cfound = 0;
    TSNode *found_imports = NULL;
    for (uint32_t ti = 0; ti < ntop; ti++) {
        const char *tt = sp_type(top[ti]);
        if (strstr(tt, "import") == NULL && strcmp(tt, "using_directive") != 0) {
            /* TypeScript/JavaScript `const x = require("...")` */
            if (p->lang != LANG_TYPESCRIPT || strcmp(tt, "lexical_declaration") != 0) continue;
            uint32_t a0 = ts_node_start_byte(top[ti]), a1 = sp_end_byte(top[ti]);
            if (!memmem(p->text + a0, a1 - a0, "require(", 8)) continue;
        } else if (sp_import_nodes(p, &isyms, top[ti], &found_imports, &nfound, &cfound)) {
            for (size_t i = 0; i < nfound; i++)
                sp_import_one(p, found_imports[i], false);
            continue;
        }
        TSQuery *iq = sp_imports_query(s, p->lang, diags);
        if (!iq) return false;
        ts_query_cursor_exec(s->cursor, iq, top[ti]);
        while (ts_query_cursor_next_match(s->cursor, &m)) {
            TSNode n = m.captures[0].node;
            uint32_t l;
            const char *cn = ts_query_capture_name_for_id(iq, m.captures[0].index, &l);
            sp_import_one(p, n, strcmp(cn, "require") == 0);
        }
    }
    return true;
}

/* The block of a Go, C# or Java program's body, and the node that names it (*at: the pulumi.Run
 * call, the method, the class); *by_stack: C#'s found as a Stack class's constructor (after no
 * Deployment.RunAsync was found). A null node when there is none. */
static TSNode sp_find_body(sp_program_t *p, TSNode *at, bool *by_stack) {
    TSNode found = {0};
    *by_stack = false;
    switch (p->lang) {
    case LANG_GO: *at = sp_find_node(p, p->root, sp_go_run, &found); break;
    case LANG_CSHARP:
        *at = sp_find_node(p, p->root, sp_cs_run, &found);
        if (ts_node_is_null(*at)) {
            *at = sp_find_node(p, p->root, sp_cs_stack_class, &found);
            *by_stack = true;
        }
        break;
    case LANG_JAVA: *at = sp_find_node(p, p->root, sp_java_stack, &found); break;
    default: *at = found; break;
    }
    return ts_node_is_null(*at) ? *at : found;
}

bool sp_split_body_ok(splicer_t *s, sp_program_t *p) {
    /* The first tree holds the text before the block, then the block's statements before the cut:
     * a body found before the block is found by one parse's search (which reads the same text up to
     * there in the same order); one found after it would not be (the second tree's statements come
     * first). A Stack class is looked for only where no RunAsync is, which the second tree could
     * hold; a component class around the block would have its constructor read in one tree. */
    if (p->lang != LANG_GO && p->lang != LANG_CSHARP && p->lang != LANG_JAVA) return false;
    if (memmem(p->text, p->head, "ComponentResource", 17)) return false;
    sp_program_t q = *p;
    q.imports = NULL;
    q.nimports = q.cimports = 0;
    diag_list_t d;
    diag_list_init(&d);
    uint32_t ntop;
    TSNode *top = sp_top_children(&q, &ntop);
    TSNode at;
    bool by_stack;
    bool ok = sp_read_imports(s, &q, top, ntop, &d);
    TSNode body = ok ? sp_find_body(&q, &at, &by_stack) : (TSNode){0};
    ok = ok && !ts_node_is_null(body) && !by_stack && ts_node_eq(body, p->hold) &&
         ts_node_start_byte(at) < ts_node_start_byte(p->hold);
    diag_list_free(&d);
    return ok;
}

/* C#: the stack class a `Deployment.RunAsync<MyStack>()` of the file runs (its text), or NULL when the
 * file has none (read in the tree: not in a comment or string). */
static const char *sp_cs_run_class(sp_program_t *p) {
    for (const char *k = p->text; (k = memmem(k, p->len - (size_t)(k - p->text), "RunAsync<", 9)) != NULL; k++) {
        uint32_t off = (uint32_t)(k - p->text);
        TSNode id = ts_node_descendant_for_byte_range(sp_root_at(p, off), off, off + 8);
        TSNode gen = sp_is(id, "identifier") ? ts_node_parent(id) : (TSNode){0};
        if (!sp_is(gen, "generic_name")) continue;
        TSNode args = sp_nchild(gen, 1);
        if (sp_is(args, "type_argument_list") && sp_nchild_count(args) == 1) return sp_node_text(p, sp_nchild(args, 0));
    }
    return NULL;
}

bool sp_analyze_body(splicer_t *s, sp_program_t *p, const char *filename, diag_list_t *diags) {
    p->bom = p->len >= 3 && (unsigned char)p->text[0] == 0xEF && (unsigned char)p->text[1] == 0xBB &&
             (unsigned char)p->text[2] == 0xBF;
    uint32_t ntop;
    TSNode *top = sp_top_children(p, &ntop);
    if (!sp_read_imports(s, p, top, ntop, diags)) return false;
    /* Where the first import goes when there is none: after Go/Java's package clause, after a
     * Python shebang line, encoding declaration and module docstring (where Python wants even a
     * `from __future__` import), after a TypeScript hashbang line (`#!`, which must stay first) and
     * directive prologue (`"use strict";`), else the top of the file. */
    p->import_at = p->bom ? 3 : 0;
    for (uint32_t i = 0; i < ntop; i++) {
        TSNode c = top[i];
        const char *t = sp_type(c);
        if (strcmp(t, "package_clause") == 0 || strcmp(t, "package_declaration") == 0) {
            p->import_at = sp_end_byte(c);
            break;
        }
        if ((p->lang == LANG_TYPESCRIPT && strcmp(t, "hash_bang_line") == 0) ||
            (p->lang == LANG_PYTHON && sp_is_comment(c) && sp_python_header_comment(p, c))) {
            p->import_at = sp_end_byte(c);
            continue;
        }
        if ((p->lang == LANG_PYTHON || p->lang == LANG_TYPESCRIPT) && strcmp(t, "expression_statement") == 0 &&
            sp_is(sp_nchild(c, 0), "string")) {
            p->import_at = sp_end_byte(c);
            if (p->lang == LANG_PYTHON) break;
            continue; /* a directive prologue can hold more than one */
        }
        if (!sp_is_comment(c)) break;
    }

    /* the body */
    TSNode body = p->root, at;
    bool by_stack;
    TSNode found = p->lang == LANG_GO || p->lang == LANG_CSHARP || p->lang == LANG_JAVA
                       ? sp_find_body(p, &at, &by_stack)
                       : (TSNode){0};
    switch (p->lang) {
    case LANG_TYPESCRIPT: body = sp_find_ts_body(p); break;
    case LANG_PYTHON: break;
    case LANG_GO:
        if (ts_node_is_null(found)) {
            diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                     "no pulumi.Run(func(ctx *pulumi.Context) error {...}) found: cannot tell where resources go; "
                     "add the definitions by hand or call pulumi.Run in main");
            return false;
        }
        body = found;
        break;
    case LANG_CSHARP:
        if (ts_node_is_null(found)) {
            const char *cls = sp_cs_run_class(p);
            if (cls) {
                diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                         "the program runs the stack class %s (`Deployment.RunAsync<%s>()`), whose constructor "
                         "declares the resources, and this file does not define it: nothing was changed; insert "
                         "into the file that defines `class %s : Stack`",
                         cls, cls, cls);
                return false;
            }
            diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                     "no Deployment.RunAsync(() => {...}) lambda and no class deriving from Stack found: cannot tell "
                     "where resources go; add the definitions by hand");
            return false;
        }
        body = found;
        break;
    case LANG_JAVA:
        if (ts_node_is_null(found)) {
            diag_add(
                diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                "no method taking a Context (like `static void stack(Context ctx)`) and no Pulumi.run(ctx -> {...}) "
                "found: cannot tell where resources go; add the definitions by hand");
            return false;
        }
        body = found;
        break;
    default: break;
    }
    p->has_body = true;
    sp_collect_stmts(p, body, top, ntop);
    p->body = body;
    return true;
}

bool sp_analyze_finish(splicer_t *s, sp_program_t *p, bool is_target, sp_walk_t *w, diag_list_t *diags) {
    sp_walk_finish(w, p);
    sp_detect_style(p);
    sp_insertion_point(p, p->body);
    return sp_find_resources(s, p, is_target, diags);
}

bool sp_analyze_other(splicer_t *s, sp_program_t *p, diag_list_t *diags) {
    sp_walk_t w;
    sp_analyze_start(p, true, &w);
    uint32_t ntop;
    TSNode *top = sp_top_children(p, &ntop);
    bool ok = sp_read_imports(s, p, top, ntop, diags);
    sp_walk_finish(&w, p);
    return ok && sp_find_resources(s, p, true, diags);
}

/* A TypeScript string node's value when it names a local module (starts with `.`), else NULL. */
static const char *sp_local_specifier(sp_program_t *p, TSNode str) {
    const char *v = sp_string_value(p, str);
    return v && v[0] == '.' ? v : NULL;
}

enum { SP_PATH_MAX = 64 };

/* The nodes from the top-level statement holding byte off down to the deepest one starting at or
 * before it that holds it, into path (at most SP_PATH_MAX); the count. Found by a binary search of
 * the top level and a descent by offset: ts_node_parent walks down from the root through every
 * sibling in runtime 0.20.7, so climbing from a node would cost a big file's top level a time. */
static int sp_path_to(sp_program_t *p, uint32_t off, TSNode *path) {
    uint32_t ntop;
    TSNode *top = sp_top_children(p, &ntop);
    uint32_t lo = 0, hi = ntop;
    while (lo < hi) { /* the first statement ending after off */
        uint32_t mid = lo + (hi - lo) / 2;
        if (sp_end_byte(top[mid]) <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == ntop || ts_node_start_byte(top[lo]) > off) return 0;
    int d = 0;
    TSNode n = top[lo];
    path[d++] = n;
    while (d < SP_PATH_MAX) {
        TSNode ch = ts_node_first_child_for_byte(n, off);
        if (ts_node_is_null(ch) || ts_node_start_byte(ch) > off) break;
        path[d++] = n = ch;
    }
    return d;
}

/* TypeScript: whether statement n (an import or export) names its module for types alone, which the
 * compiler erases: `import type ...`, `export type {...} from`, or a clause whose every name is a
 * type (`import { type A, type B } from`): the module is not run. */
static bool sp_ts_type_only(TSNode n) {
    if (strcmp(sp_type(sp_child(n, 1)), "type") == 0 || strcmp(sp_type(sp_child(n, 1)), "typeof") == 0) return true;
    TSNode clause = {0};
    for (uint32_t i = 0; i < sp_nchild_count(n); i++) {
        TSNode c = sp_nchild(n, i);
        if (sp_is(c, "import_clause") || sp_is(c, "export_clause")) clause = c;
    }
    if (sp_is(clause, "import_clause")) {
        if (sp_nchild_count(clause) != 1) return false;
        clause = sp_nchild(clause, 0);
        if (!sp_is(clause, "named_imports")) return false; /* a default or namespace import */
    }
    uint32_t specs = 0;
    for (uint32_t i = 0; i < sp_nchild_count(clause); i++) {
        TSNode sp = sp_nchild(clause, i);
        if (!sp_is(sp, "import_specifier") && !sp_is(sp, "export_specifier")) continue;
        const char *first = sp_type(sp_child(sp, 0));
        if (strcmp(first, "type") != 0 && strcmp(first, "typeof") != 0) return false;
        specs++;
    }
    return specs > 0;
}

/* TypeScript: the local module the string starting at q names, when it is the source of an import or
 * export, or the first argument of `require(...)` or `import(...)`; else NULL. *types: it is named for
 * types alone (sp_ts_type_only). */
static const char *sp_ts_module_at(sp_program_t *p, uint32_t q, bool *types) {
    *types = false;
    TSNode path[SP_PATH_MAX];
    int d = sp_path_to(p, q, path), k = d - 1;
    while (k > 0 && !sp_is(path[k], "string") && !sp_is(path[k], "template_string"))
        k--;
    if (k <= 0 || ts_node_start_byte(path[k]) != q) return NULL;
    const char *up = sp_type(path[k - 1]);
    if (strcmp(up, "import_statement") == 0 || strcmp(up, "export_statement") == 0 ||
        strcmp(up, "import_require_clause") == 0) {
        *types = strcmp(up, "import_require_clause") != 0 && sp_ts_type_only(path[k - 1]);
        return sp_local_specifier(p, path[k]);
    }
    if (k >= 2 && strcmp(up, "arguments") == 0 && sp_is(path[k - 2], "call_expression") &&
        ts_node_eq(sp_nchild(path[k - 1], 0), path[k])) {
        const char *f = sp_node_text(p, sp_field(path[k - 2], "function", 8));
        if (strcmp(f, "require") == 0 || strcmp(f, "import") == 0) return sp_local_specifier(p, path[k]);
    }
    return NULL;
}

/* Python: the modules the import statement n names, added to *out. */
static void sp_python_modules(sp_program_t *p, TSNode n, const char ***out, size_t *count, size_t *cap) {
    const char *from = NULL;
    TSNode module = sp_field(n, "module_name", 11);
    if (sp_is(n, "import_from_statement")) {
        from = sp_node_text(p, module);
        if (strspn(from, ".") != strlen(from)) { /* `from . import x` names no module of its own */
            SP_PUSH(p->a, *out, *count, *cap);
            (*out)[*count - 1] = from;
        }
    }
    /* the names imported: every dotted name (aliased or not) but the module's */
    for (uint32_t i = 0; i < sp_nchild_count(n); i++) {
        TSNode nm = sp_nchild(n, i);
        if (!sp_python_imported_name(nm, module)) continue;
        if (sp_is(nm, "aliased_import")) nm = sp_field(nm, "name", 4);
        const char *name = sp_node_text(p, nm);
        SP_PUSH(p->a, *out, *count, *cap);
        (*out)[*count - 1] = !from                               ? name
                             : strspn(from, ".") == strlen(from) ? arena_sprintf(p->a, "%s%s", from, name)
                                                                 : arena_sprintf(p->a, "%s.%s", from, name);
    }
}

/* Python: whether the statement path[j] of path[0, j) lies in the body of an `if TYPE_CHECKING:`
 * (`typing.TYPE_CHECKING`), which only type checkers read. */
static bool sp_py_type_checking(sp_program_t *p, const TSNode *path, int j) {
    for (int a = 0; a + 1 < j; a++) {
        if (!sp_is(path[a], "if_statement") || !ts_node_eq(path[a + 1], sp_field(path[a], "consequence", 11))) continue;
        const char *cond = sp_node_text(p, sp_field(path[a], "condition", 9));
        if (strcmp(cond, "TYPE_CHECKING") == 0 || strcmp(cond, "typing.TYPE_CHECKING") == 0) return true;
    }
    return false;
}

size_t sp_module_refs(sp_program_t *p, const char ***out, size_t *n_run) {
    *out = NULL;
    *n_run = 0;
    size_t n = 0, cap = 0, nt = 0, tcap = 0;
    const char **types = NULL; /* the modules named for types alone: after the others */
    if (p->lang == LANG_TYPESCRIPT) {
        /* every quote followed by `.`: the strings that can name a local module */
        static const char *const starts[] = {"\".", "'.", "`."};
        for (size_t i = 0; i < sizeof starts / sizeof *starts; i++)
            for (const char *k = p->text; (k = memmem(k, p->len - (size_t)(k - p->text), starts[i], 2)) != NULL; k++) {
                bool type_only;
                const char *m = sp_ts_module_at(p, (uint32_t)(k - p->text), &type_only);
                if (m && type_only) {
                    SP_PUSH(p->a, types, nt, tcap);
                    types[nt - 1] = m;
                } else if (m) {
                    SP_PUSH(p->a, *out, n, cap);
                    (*out)[n - 1] = m;
                }
            }
    } else if (p->lang == LANG_PYTHON) {
        /* every word `import`: the statements holding one (once each) */
        uint32_t last = UINT32_MAX;
        for (const char *k = p->text; (k = memmem(k, p->len - (size_t)(k - p->text), "import", 6)) != NULL; k++) {
            TSNode path[SP_PATH_MAX];
            int d = sp_path_to(p, (uint32_t)(k - p->text), path);
            for (int j = 0; j < d; j++) {
                if (!sp_is(path[j], "import_statement") && !sp_is(path[j], "import_from_statement")) continue;
                if (ts_node_start_byte(path[j]) != last) {
                    if (sp_py_type_checking(p, path, j))
                        sp_python_modules(p, path[j], &types, &nt, &tcap);
                    else
                        sp_python_modules(p, path[j], out, &n, &cap);
                }
                last = ts_node_start_byte(path[j]);
                break;
            }
        }
    }
    *n_run = n;
    for (size_t i = 0; i < nt; i++) {
        SP_PUSH(p->a, *out, n, cap);
        (*out)[n - 1] = types[i];
    }
    return n;
}

/* splice.c — splice a generated program's definitions into an existing program (see splice.h).
 *
 * Steps: refuse a file that is not clean UTF-8 or has syntax errors; read both programs
 * (splice_lang.c); map the generated imports onto the file's (same package → the file's alias,
 * a clash → a fresh alias); decide per generated statement whether it replaces an existing resource
 * (same logical name and type), is already present verbatim (a config read), or is new (fresh
 * names for what it declares); rewrite each statement's text (renamed identifiers, Go `:=`/`=`),
 * re-indent it in the file's unit and line ending, and apply all edits from the end of the file
 * backwards. The result is parsed again and refused if it does not parse, so a bug here can never
 * damage a file. */
#define _GNU_SOURCE /* memmem */
#include "splice/splice.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "emitters/ts_check.h"
#include "specs/readable_name.h"
#include "splice/splice_internal.h"

/* An edit of the target text: replace [start, end) with text. */
typedef struct sp_edit {
    uint32_t start, end;
    const char *text;
    size_t seq; /* request order, for stable sorting of edits at the same offset */
    bool lead;  /* an import: goes before other edits at the same offset (above the code) */
} sp_edit_t;

typedef enum { SP_SKIP = 0, SP_INSERT, SP_REPLACE, SP_REUSE } sp_mode_t;

typedef struct sp_unit {
    sp_mode_t mode;
    const sp_stmt_t *existing; /* SP_REPLACE: the user's statement */
    const char *decl0;         /* replaces the first declared name (Go `_` → the existing variable) */
    int go_define;             /* -1 unchanged, 0 `=`, 1 `:=` */
    bool call_only;            /* SP_REPLACE: only the call is replaced (a Go component's registration) */
    bool returned;             /* SP_REPLACE: the file's definition is `return <call>` (call_only) */
    bool wrapped;              /* SP_REPLACE: the file's statement does more with the call (call_only) */
    const char *file_var;      /* wrapped: the file's variable bound to exactly the call, or NULL */
    const char *core;          /* rewritten, re-indented text (first line unindented, no final newline) */
    /* Where the statements that use it are (sp_place): the first of them in the program body
     * (SP_AT_NONE: none; SP_AT_END: the insertion point), and the resources in blocks of their own
     * (slots, indexes into sp_ctx_t.slots) where a copy of it goes. */
    uint32_t body_at;
    size_t *nested, nnested, cnested;
    bool copied; /* a copy goes into a nested slot (its imports are needed) */
} sp_unit_t;

#define SP_AT_NONE UINT32_MAX
#define SP_AT_END (UINT32_MAX - 1)

/* A resource of the user's file in a block of its own (a function's, a loop's), not the program
 * body, that a generated statement replaces: the config reads it needs go right before it, in that
 * block, under names of their own there (`map`: a generated name → its name at this slot). */
typedef struct sp_slot {
    const sp_stmt_t *at;
    names_table_t *map;
    const char **map_to;
    size_t nmap, cmap;
} sp_slot_t;

typedef struct sp_ctx {
    splicer_t *s;
    arena_t *a;
    const char *file;
    diag_list_t *diags;
    sp_program_t T, G;
    names_table_t *rename; /* old name → index into rename_to */
    const char **rename_to;
    size_t nrename, crename;
    names_table_t *taken;
    sp_edit_t *edits;
    size_t nedits, cedits;
    splice_stats_t stats;
    const char *nl;
    bool keep_existing;
    bool into_stack;              /* splice_options_t.into_stack */
    const splice_options_t *opts; /* program_files */
    const splice_file_t *others;  /* what it gave */
    size_t n_others;
    /* Indexes of the user's file, built once (a 100,000-line file has ~25,000 statements: looking
     * names up by scanning them per generated statement was quadratic). */
    names_table_t *decl_first; /* declared name → index of the first body statement declaring it */
    names_table_t *cs_decls;   /* C#: names declared by body statements, without `@` */
    names_table_t *cs_vars;    /* C#: every X of a `var X ` in the text */
    sp_slot_t *slots;
    size_t nslots, cslots;
} sp_ctx_t;

/* ---------------------------------------------------------------------------------------------- */
/* splicer                                                                                          */

splicer_t *splicer_new(void) {
    splicer_t *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->parser = ts_parser_new();
    s->cursor = ts_query_cursor_new();
    return s;
}

void splicer_free(splicer_t *s) {
    if (!s) return;
    for (size_t i = 0; i <= LANG_YAML; i++) {
        if (s->q[i].imports) ts_query_delete(s->q[i].imports);
        if (s->q[i].resources) ts_query_delete(s->q[i].resources);
    }
    ts_query_cursor_delete(s->cursor);
    ts_parser_delete(s->parser);
    if (s->gparser) ts_parser_delete(s->gparser);
    free(s);
}

bool splice_lang_from_path(const char *path, lang_t *out) {
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot) return false;
    static const struct {
        const char *ext;
        lang_t lang;
    } E[] = {{".ts", LANG_TYPESCRIPT}, {".tsx", LANG_TYPESCRIPT}, {".mts", LANG_TYPESCRIPT}, {".cts", LANG_TYPESCRIPT},
             {".js", LANG_TYPESCRIPT}, {".mjs", LANG_TYPESCRIPT}, {".cjs", LANG_TYPESCRIPT}, {".py", LANG_PYTHON},
             {".go", LANG_GO},         {".cs", LANG_CSHARP},      {".java", LANG_JAVA},      {".yaml", LANG_YAML},
             {".yml", LANG_YAML}};
    for (size_t i = 0; i < sizeof E / sizeof E[0]; i++)
        if (strcmp(dot, E[i].ext) == 0) {
            *out = E[i].lang;
            return true;
        }
    return false;
}

/* ---------------------------------------------------------------------------------------------- */
/* input checks                                                                                     */

/* Line (1-based) of byte offset off. */
static unsigned sp_line_of(const char *text, size_t off) {
    unsigned line = 1;
    for (size_t i = 0; i < off; i++)
        if (text[i] == '\n') line++;
    return line;
}

/* Offset of the first byte that is not valid UTF-8, or len. */
static size_t sp_utf8_invalid_at(const unsigned char *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        size_t n;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            n = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + n >= len + 0 && i + n > len - 1 + 1) return i;
        for (size_t k = 1; k <= n; k++) {
            if (i + k >= len || (s[i + k] & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += n + 1;
    }
    return len;
}

static bool sp_check_encoding(const char *text, size_t len, const char *file, diag_list_t *diags) {
    const unsigned char *u = (const unsigned char *)text;
    bool utf16 = len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF));
    if (!utf16 && len > 0 && memchr(text, 0, len)) utf16 = true; /* UTF-16 without a BOM has NUL bytes */
    if (utf16) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
                 "the file is UTF-16 (or binary), not UTF-8: save it as UTF-8 before inserting into it");
        return false;
    }
    size_t bad = sp_utf8_invalid_at(u, len);
    if (bad < len) {
        diag_t *d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
                             "invalid UTF-8 (byte 0x%02X): save the file as UTF-8 before inserting into it", u[bad]);
        d->line = (int)sp_line_of(text, bad);
        return false;
    }
    return true;
}

/* Python's simple statements (an expression, an assignment, an import, return, raise...): Python has
 * no block inside one (a lambda's body is an expression), so no statement of a block is in there.
 * Most of a program's nodes are inside them. */
static bool sp_python_simple_statement(const char *type) {
    static const char *const simple[] = {
        "expression_statement",    "import_statement",   "import_from_statement",
        "future_import_statement", "return_statement",   "assert_statement",
        "print_statement",         "delete_statement",   "raise_statement",
        "global_statement",        "nonlocal_statement", "exec_statement",
        "type_alias_statement",    "pass_statement",     "break_statement",
        "continue_statement",      "decorator",          "comment",
    };
    for (size_t i = 0; i < sizeof simple / sizeof *simple; i++)
        if (strcmp(type, simple[i]) == 0) return true;
    return false;
}

/* Python accepts statements of one block only at one column; tree-sitter does not check this
 * (`x = 1\n    y = 2` parses as two module statements). Statements on the line of the previous one
 * (`a = 1; b = 2`) are exempt. Returns the 1-based line of the first offender, 0 when clean. */
static unsigned sp_python_indent_error(arena_t *a, const TSTree *tree, const char *text, bool bom) {
    TSNode root = ts_tree_root_node(tree);
    /* Which grammar symbols are a module or block, decided once (not a name compare per node). */
    const TSLanguage *lang = ts_tree_language(tree);
    uint32_t nsym = ts_language_symbol_count(lang);
    bool *container = arena_alloc(a, nsym + 1), *blockless = arena_alloc(a, nsym + 1);
    for (uint32_t i = 0; i < nsym; i++) {
        const char *t = ts_language_symbol_name(lang, (TSSymbol)i);
        container[i] = t && (strcmp(t, "module") == 0 || strcmp(t, "block") == 0);
        blockless[i] = t && sp_python_simple_statement(t);
    }
    TSTreeCursor cur = ts_tree_cursor_new(root);
    unsigned bad = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        TSSymbol sym = ts_node_symbol(n);
        if (sym < nsym && container[sym]) {
            int64_t col = -1;
            uint32_t prev_row = UINT32_MAX;
            uint32_t nk;
            TSNode *kids = sp_named_children(a, n, &nk);
            for (uint32_t i = 0; i < nk && !bad; i++) {
                TSNode c = kids[i];
                if (strcmp(sp_type(c), "comment") == 0) continue;
                TSPoint p = ts_node_start_point(c);
                uint32_t column = p.row == 0 && bom && p.column >= 3 ? p.column - 3 : p.column;
                /* a form feed in the indentation sets Python's column count back to 0 */
                for (uint32_t k = 0, sb = ts_node_start_byte(c); k < column; k++)
                    if (text[sb - 1 - k] == '\f') {
                        column = k;
                        break;
                    }
                if (p.row != prev_row) {
                    if (col < 0)
                        col = column;
                    else if (column != col)
                        bad = p.row + 1;
                }
                prev_row = ts_node_end_point(c).row;
            }
        }
        /* A node on one row holds no offender: every block in it has all its statements on that
         * row, the first sets the column and the rest share its row. Not descending into those
         * (arguments, names, strings) halves the steps of this walk over every node. Nor does a
         * simple statement hold one, on any number of rows: the walk steps over a program of
         * assignments and calls statement by statement. */
        if (!bad && !(sym < nsym && blockless[sym]) && ts_node_start_point(n).row != ts_node_end_point(n).row &&
            ts_tree_cursor_goto_first_child(&cur))
            continue;
        for (;;) {
            if (bad || !ts_tree_cursor_goto_next_sibling(&cur)) {
                if (bad || !ts_tree_cursor_goto_parent(&cur)) {
                    ts_tree_cursor_delete(&cur);
                    return bad;
                }
                continue;
            }
            break;
        }
    }
}

static const char *sp_problem_text(arena_t *a, const ts_check_problem_t *pr) {
    return pr->missing ? arena_sprintf(a, "missing `%s` at column %u", pr->what, pr->column)
                       : arena_sprintf(a, "unexpected text at column %u", pr->column);
}

/* C#: the line of the first `#if` directive of the text up to line `before` (a directive stands
 * first on its line), or 0 when there is none. */
static unsigned sp_cs_if_line(const char *text, uint32_t len, unsigned before) {
    unsigned line = 1;
    for (uint32_t i = 0; i < len && line <= before; line++) {
        while (i < len && (text[i] == ' ' || text[i] == '\t'))
            i++;
        if (len - i >= 3 && memcmp(text + i, "#if", 3) == 0 && (len - i == 3 || !isalnum((unsigned char)text[i + 3])))
            return line;
        const char *nl = memchr(text + i, '\n', len - i);
        if (!nl) break;
        i = (uint32_t)(nl - text) + 1;
    }
    return 0;
}

/* Parses p->text; false with a diagnostic naming the line when it has syntax errors. `generated`
 * words the message for the emitter's output (a bug, not the user's file). */
static bool sp_parse_with(TSParser *parser, sp_program_t *p, const TSTree *old, const char *file, bool generated,
                          diag_list_t *diags) {
    char why[400];
    ts_parser_set_language(parser, ts_check_language(p->lang));
    ts_parser_set_included_ranges(parser, NULL, 0); /* the whole text (after a parse of a half) */
    ts_check_parse_info_t info;
    p->tree = ts_check_parse_safe(parser, p->lang, p->text, p->len, old, why, sizeof why, &info);
    p->top = NULL; /* sp_top_children reads the new tree */
    p->blanked = info.blanked > 0;
    p->timed_out = info.timed_out;
    p->refused = !info.timed_out && why[0];
    if (!p->tree) {
        if (info.timed_out)
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, generated ? "generated program" : file, NULL,
                     "cannot parse the %s program within %.*f s (tree-sitter gave up on text this irregular, such "
                     "as thousands of line continuations; CIMPORT_PARSE_TIMEOUT=SECONDS allows longer); nothing "
                     "was changed",
                     lang_title(p->lang), info.budget_s == (double)(long long)info.budget_s ? 0 : 1, info.budget_s);
        else if (why[0])
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, generated ? "generated program" : file, NULL,
                     "%s: split the file, or insert the code by hand", why);
        else
            diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, file, NULL, "cannot parse the %s file", lang_name(p->lang));
        return false;
    }
    p->root = ts_tree_root_node(p->tree);
    ts_check_problem_t pr;
    unsigned line = 0;
    const char *detail = NULL;
    if (ts_check_collect(p->root, &pr, 1) > 0) {
        if (p->lang == LANG_YAML && !ts_check_yaml_rows_ok(p->text, p->len, why, sizeof why)) {
            p->refused = true;
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, generated ? "generated program" : file, NULL,
                     "%s: split the file, or insert the code by hand", why);
            return false;
        }
        line = pr.line;
        detail = sp_problem_text(p->a, &pr);
    } else if (p->lang == LANG_PYTHON) {
        bool bom = p->len >= 3 && (unsigned char)p->text[0] == 0xEF;
        line = sp_python_indent_error(p->a, p->tree, p->text, bom);
        detail = "a statement is indented differently from the ones before it";
    }
    if (!line) return true;
    const char *ext = strrchr(file, '.');
    bool jsx = ext && (!strcmp(ext, ".tsx") || !strcmp(ext, ".jsx"));
    diag_t *d;
    /* tree-sitter-c-sharp reads every branch of a `#if` as code, together: valid C# whose branches
     * each open a brace (`#if DEBUG` / `if (a) {` / `#else` / `if (b) {` / `#endif`) is no C# read
     * so, and is not the file's syntax error */
    unsigned if_line = p->lang == LANG_CSHARP && !generated ? sp_cs_if_line(p->text, p->len, UINT_MAX) : 0;
    if (if_line)
        detail = arena_sprintf(p->a,
                               "%s; the file has a `#if` at line %u, and cimport reads all of a `#if`'s branches "
                               "together, which may be what does not parse",
                               detail, if_line);
    if (generated)
        d = diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, "generated program", NULL,
                     "syntax error in the generated %s code (%s): this is a cimport bug; nothing was inserted",
                     lang_name(p->lang), detail);
    else if (p->other && jsx)
        /* JSX: the TypeScript grammar cimport builds has no JSX, so an error there may be none */
        d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
                     "this file of the program is JSX (%s), which cimport cannot read; it reads every file of the "
                     "program for the resources it defines, which the import must not add a second time: nothing "
                     "was changed; add the generated code by hand (`cimport ... -o FILE` writes it)",
                     ext);
    else if (p->other)
        d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
                     "this file of the program cannot be read: syntax error (%s); cimport reads it for the resources "
                     "it defines, which the import must not add a second time: nothing was changed; fix the file, "
                     "then run the import again",
                     detail);
    else
        d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
                     if_line ? "cannot be read (%s): nothing was changed; fix the file if it is wrong; if it is "
                               "right, close each brace in the `#if` branch that opens it, or add the code by hand"
                             : "syntax error (%s): fix the file before inserting into it",
                     detail);
    d->line = (int)line;
    return false;
}

/* A file holding a form only Python 2 reads (its walk found it: sp_walk_finish sets py2_what), which
 * tree-sitter-python parses without an error, does not run on Python 3: false with the syntax error. */
static bool sp_python3_ok(const sp_program_t *p, const char *file, diag_list_t *diags) {
    if (!p->py2_what) return true;
    diag_t *d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
                         "syntax error (%s): fix the file before inserting into it", p->py2_what);
    d->line = (int)sp_line_of(p->text, p->py2_at);
    return false;
}

static bool sp_parse(splicer_t *s, sp_program_t *p, const TSTree *old, const char *file, bool generated,
                     diag_list_t *diags) {
    return sp_parse_with(s->parser, p, old, file, generated, diags);
}

/* A file at least this big has the generated program parsed beside its own parse (as the file's walk,
 * splice_lang.c: below this the thread costs more than it saves), and is parsed in two halves. */
enum { SP_GEN_THREAD_MIN = 256 * 1024 };

/* ---------------------------------------------------------------------------------------------- */
/* a big file parsed in two halves                                                                  */

/* A big TypeScript or Python file is parsed as two trees on two threads (tree-sitter's parse is most
 * of a big splice, one core's work): cut at the start of a line near the middle that begins a
 * top-level statement, the first half on the calling thread and the second beside it, each parser
 * given only its bytes (ts_parser_set_included_ranges: offsets, rows and columns stay the text's).
 * The trees are kept only when they confirm one parse would read the text the same way
 * (sp_half_clean); else the whole text is parsed, as without the cut, and every result and
 * message is the whole parse's. Why the confirmation is enough: one parse reads the text before the
 * cut as the first half's parser does (left to right); the cut lies between two top-level
 * statements of one parse unless something open at the cut continues past it — a string, template,
 * comment or bracket (the first half then ends inside it: an error), a block (the same; Python:
 * every block ends at a line of column 0), or a statement the next line continues, which the line at
 * the cut rules out (a declaration keyword cannot continue a TypeScript expression, and the first
 * half must end on its own `;` or `}`, not an inserted one; a Python line at column 0 after a line
 * not ending in `\` starts a statement unless it is else, elif, except or finally). The second
 * half's parser starts as one parse is at a statement's start there. */

/* Whether the line starting at `at` can be the cut, by its text (above). */
static bool sp_cut_line_ok(lang_t lang, const char *t, uint32_t len, uint32_t at) {
    if (at == 0 || at >= len || t[at - 1] != '\n') return false;
    const char *s = t + at;
    size_t room = len - at;
    if (lang == LANG_TYPESCRIPT) {
        static const char *const K[] = {"const ", "let ", "var ", "export ", "function ", "class ", "import "};
        for (size_t i = 0; i < sizeof K / sizeof *K; i++) {
            size_t kl = strlen(K[i]);
            if (room > kl && memcmp(s, K[i], kl) == 0) return true;
        }
        return false;
    }
    if (!isalpha((unsigned char)s[0]) && s[0] != '_') return false;
    size_t w = 0;
    while (w < room && (isalnum((unsigned char)s[w]) || s[w] == '_'))
        w++;
    static const char *const C[] = {"else", "elif", "except", "finally"};
    for (size_t i = 0; i < sizeof C / sizeof *C; i++)
        if (w == strlen(C[i]) && memcmp(s, C[i], w) == 0) return false;
    uint32_t e = at - 1; /* the line break ending the line before */
    if (e > 0 && t[e - 1] == '\r') e--;
    return e == 0 || t[e - 1] != '\\';
}

/* The cut of a big file's text: the first line after `want` that can be one, before seven eighths of
 * the text; 0 when none. */
static uint32_t sp_cut_find(lang_t lang, const char *t, uint32_t len, uint32_t want) {
    uint32_t stop = (uint32_t)((uint64_t)len * 7 / 8);
    for (uint32_t at = want; at < stop;) {
        const char *nl = memchr(t + at, '\n', stop - at);
        if (!nl) break;
        at = (uint32_t)(nl - t) + 1;
        if (sp_cut_line_ok(lang, t, len, at)) return at;
    }
    return 0;
}

/* Go, C# and Java: the program's body is one block (`pulumi.Run(func(...) error {...})`, `RunAsync(()
 * => {...})`, `void stack(Context ctx) {...}`), so a cut inside it would leave the first half's block
 * unclosed. Each parser is given two ranges instead: the first [0, cut) and the block's `}` to the
 * end, the second the text up to the block's `{` and [cut, end), so each tree is the whole program
 * with half of the block's statements (offsets still the text's). The cut is a line inside a block
 * found by a scan that knows the language's comments, strings and characters (below); the trees are
 * kept when they confirm it: no errors in either, and in both the `{` before `head` and the `}` at
 * `tail` are the first and last tokens of one block (sp_half_hold). Why that is enough: one parse reads
 * the text up to the cut as the first parser does; that parser's block ends at `tail` with the
 * statements of [head, cut) in it, so no token, string or comment crosses the cut and no statement
 * before it is continued after it (an `else`, a `catch`, `while` of a `do` would have to start the
 * second half's block: an error there); one parse then reads the statements from the cut in the
 * same block as the second parser does after the block's `{`, and the text from `tail` on after
 * the same block as the first. Then the analysis must find the program's body in that block
 * (sp_split_body_ok), reading each part of the file in one tree (sp_root_at). */

/* Whether the line starting at `at` can be a cut inside a block: the code before it ends a statement
 * (`last`, its last character: `;` or `}`; Go, without semicolons: `}` or `)`), and the line starts
 * with a word that does not continue the statement before (`else`, `catch`, `finally`, a `do`'s
 * `while`) nor opens a switch's case, nor is Go's `if err` check of the statement before. */
static bool sp_block_cut_line_ok(lang_t lang, const char *t, uint32_t len, uint32_t at, char last) {
    if (lang == LANG_GO ? last != '}' && last != ')' : last != ';' && last != '}') return false;
    uint32_t k = at;
    while (k < len && (t[k] == ' ' || t[k] == '\t'))
        k++;
    if (k >= len || !(isalpha((unsigned char)t[k]) || t[k] == '_')) return false;
    uint32_t w = k;
    while (w < len && (isalnum((unsigned char)t[w]) || t[w] == '_'))
        w++;
    static const char *const C[] = {"else", "catch", "finally", "while", "case", "default"};
    for (size_t i = 0; i < sizeof C / sizeof *C; i++)
        if (w - k == strlen(C[i]) && memcmp(t + k, C[i], w - k) == 0) return false;
    return !(lang == LANG_GO && len - k > 6 && memcmp(t + k, "if err", 6) == 0);
}

/* The end of the string literal starting with the `"` at i (after its closing quote): regular ones
 * with escapes and on one line, C#'s verbatim (`@"..."`, `""` a quote) and raw strings and Java's
 * text blocks (three quotes or more, to as many). 0: not closed. */
static uint32_t sp_string_end(lang_t lang, const char *t, uint32_t len, uint32_t i) {
    uint32_t q = 0;
    while (i + q < len && t[i + q] == '"')
        q++;
    if (lang != LANG_GO && q >= 3) {
        for (uint32_t j = i + q; j + q <= len; j++) {
            uint32_t r = 0;
            while (r < q && t[j + r] == '"')
                r++;
            if (r == q) return j + q;
        }
        return 0;
    }
    if (q == 2) return i + 2;
    bool verbatim = lang == LANG_CSHARP && i > 0 && (t[i - 1] == '@' || (t[i - 1] == '$' && i > 1 && t[i - 2] == '@'));
    for (uint32_t j = i + 1; j < len; j++) {
        if (verbatim) {
            if (t[j] != '"') continue;
            if (j + 1 < len && t[j + 1] == '"') {
                j++;
                continue;
            }
            return j + 1;
        }
        if (t[j] == '\\')
            j++;
        else if (t[j] == '"')
            return j + 1;
        else if (t[j] == '\n')
            return 0;
    }
    return 0;
}

/* The cut of a big Go, C# or Java text: the first line after `want`, before seven eighths of the
 * text, that starts directly inside a `{` (no bracket open after it) and can be a cut
 * (sp_block_cut_line_ok); *head: the byte after that `{`, *tail: its `}`. False when there is none
 * or the scan finds unbalanced brackets (the file is then parsed whole; so is it when the scan was
 * misled: the trees do not confirm the block). */
static bool sp_block_cut_find(lang_t lang, const char *t, uint32_t len, uint32_t want, uint32_t *cut, uint32_t *head,
                              uint32_t *tail) {
    enum { DEPTH = 256 };
    uint32_t open[DEPTH];
    int d = 0, cut_d = 0;
    uint32_t stop = (uint32_t)((uint64_t)len * 7 / 8);
    char last = 0; /* the last character of code: not white space or a comment */
    *cut = 0;
    /* the characters the scan looks at; runs of the others are skipped (their last one that is not
     * white space is `last`) */
    static const char SPECIAL[] = "\n/\"'`{}()[]";
    bool special[256] = {false};
    for (const char *k = SPECIAL; *k; k++)
        special[(unsigned char)*k] = true;
    for (uint32_t i = 0; i < len; i++) {
        if (!special[(unsigned char)t[i]]) {
            uint32_t run = i;
            while (i < len && !special[(unsigned char)t[i]])
                i++;
            for (uint32_t k = i; k > run; k--)
                if (t[k - 1] != ' ' && t[k - 1] != '\t' && t[k - 1] != '\r') {
                    last = t[k - 1];
                    break;
                }
            if (i == len) break;
        }
        char c = t[i];
        switch (c) {
        case '\n':
            if (!*cut && i + 1 >= want && i + 1 < stop && d > 0 && t[open[d - 1]] == '{' &&
                sp_block_cut_line_ok(lang, t, len, i + 1, last)) {
                *cut = i + 1;
                *head = open[d - 1] + 1;
                cut_d = d;
            }
            continue;
        case '/':
            if (i + 1 < len && t[i + 1] == '/') {
                const char *nl = memchr(t + i, '\n', len - i);
                if (!nl) return false;
                i = (uint32_t)(nl - t) - 1;
                continue;
            }
            if (i + 1 < len && t[i + 1] == '*') {
                const char *e = memmem(t + i + 2, len - i - 2, "*/", 2);
                if (!e) return false;
                i = (uint32_t)(e - t) + 1;
                continue;
            }
            break;
        case '"': {
            uint32_t e = sp_string_end(lang, t, len, i);
            if (!e) return false;
            i = e - 1;
            break;
        }
        case '\'': {
            uint32_t j = i + 1;
            while (j < len && t[j] != '\'' && t[j] != '\n')
                j += t[j] == '\\' ? 2 : 1;
            if (j >= len || t[j] != '\'') return false;
            i = j;
            break;
        }
        case '`':
            if (lang == LANG_GO) {
                const char *e = memchr(t + i + 1, '`', len - i - 1);
                if (!e) return false;
                i = (uint32_t)(e - t);
            }
            break;
        case '{':
        case '(':
        case '[':
            if (d == DEPTH) return false;
            open[d++] = i;
            break;
        case '}':
        case ')':
        case ']': {
            if (d == 0) return false;
            char o = t[open[d - 1]];
            if (o != (c == '}' ? '{' : c == ')' ? '(' : '[')) return false;
            d--;
            if (*cut && d == cut_d - 1) {
                *tail = i;
                return true;
            }
            break;
        }
        default: break;
        }
        last = c;
    }
    return false;
}

/* The last token of a tree (comments aside); the null node when it has none. */
static TSNode sp_last_token(TSNode n) {
    for (;;) {
        uint32_t k = ts_node_child_count(n);
        TSNode c = {0};
        while (k > 0 && ts_node_is_extra(c = ts_node_child(n, k - 1)))
            k--;
        if (k == 0) return ts_node_child_count(n) == 0 ? n : (TSNode){0};
        n = c;
    }
}

/* The column of the first statement of a Python module (comments aside; a BOM not counted). */
static uint32_t sp_python_first_column(TSNode root, bool bom) {
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (strcmp(sp_type(c), "comment") == 0) continue;
        TSPoint p = ts_node_start_point(c);
        return p.row == 0 && bom && p.column >= 3 ? p.column - 3 : p.column;
    }
    return 0;
}

/* One half of a text parsed and judged (the calling thread's, or a job for another thread). */
typedef struct {
    TSParser *parser;
    lang_t lang;
    const char *text;
    uint32_t len, from, to; /* [from, to) of the text, each a line's start; to == len: to its end */
    uint32_t head, tail;    /* Go, C#, Java: the split block's `{` ends at head, its `}` is at tail; the
                             * first half also parses [tail, len), the second [0, head), a part between
                             * (the result's, sp_reparse_halves) both. 0: none */
    TSNode hold;            /* that block in the tree (clean) */
    TSTree *old;            /* the tree of the text before its edits (an incremental parse), or NULL */
    bool drop;              /* only `clean` is wanted: the tree and `old` are deleted once it is known */
    TSTree *tree;           /* NULL: not parsed (a run of comments the whole parse must hide, the budget) */
    bool clean;             /* parsed, and as one parse would read it on its side of the cut (above) */
    size_t comments;        /* comment introducers in the half (ts_check_comments_ok) */
} sp_half_t;

/* Whether h's tree is what one parse would read on its side of the cut (above): no errors;
 * TypeScript: the first half (or a part that ends before the text's end) ends on a `;` or `}` of its
 * own; Python: no statement indented unlike
 * its block's first, the module's first at column 0 in the first half (the second's is: one parse
 * would compare them). */
static bool sp_half_clean(sp_half_t *h) {
    TSNode root = ts_tree_root_node(h->tree);
    if (ts_node_has_error(root)) return false;
    if (h->head) { /* Go, C#, Java: the block's `{` and `}` are one block's first and last tokens */
        TSNode open = ts_node_descendant_for_byte_range(root, h->head - 1, h->head);
        TSNode close = ts_node_descendant_for_byte_range(root, h->tail, h->tail + 1);
        if (strcmp(sp_type(open), "{") != 0 || ts_node_start_byte(open) != h->head - 1 ||
            strcmp(sp_type(close), "}") != 0 || ts_node_start_byte(close) != h->tail)
            return false;
        h->hold = ts_node_parent(open);
        return !ts_node_is_null(h->hold) && ts_node_eq(h->hold, ts_node_parent(close)) &&
               ts_node_start_byte(h->hold) == h->head - 1 && ts_node_end_byte(h->hold) == h->tail + 1;
    }
    if (h->lang == LANG_TYPESCRIPT) {
        if (h->to >= h->len) return true;
        TSNode last = sp_last_token(root);
        const char *t = sp_type(last);
        return !ts_node_is_null(last) && (strcmp(t, ";") == 0 || strcmp(t, "}") == 0) &&
               ts_node_end_byte(last) > ts_node_start_byte(last);
    }
    bool bom = h->len >= 3 && (unsigned char)h->text[0] == 0xEF;
    if (h->from == 0 && sp_python_first_column(root, bom) != 0) return false;
    arena_t *a = arena_new(); /* this thread's */
    bool ok = !sp_python_indent_error(a, h->tree, h->text, bom);
    arena_free(a);
    return ok;
}

/* The row of byte `off` of text (tree-sitter counts rows by line feeds). */
static uint32_t sp_row_at(const char *text, uint32_t off) {
    uint32_t row = 0;
    for (const char *q = text, *e = text + off; (q = memchr(q, '\n', (size_t)(e - q))) != NULL; q++)
        row++;
    return row;
}

/* The range of the text [from, to) for ts_parser_set_included_ranges (to == len: to its end). */
static TSRange sp_range(const char *text, uint32_t len, uint32_t from, uint32_t to) {
    TSPoint end = {UINT32_MAX, UINT32_MAX};
    uint32_t fl = from, tl = to;
    while (fl > 0 && text[fl - 1] != '\n')
        fl--;
    while (to < len && tl > 0 && text[tl - 1] != '\n')
        tl--;
    return (TSRange){.start_point = {from ? sp_row_at(text, from) : 0, from - fl},
                     .end_point = to == len ? end : (TSPoint){sp_row_at(text, to), to - tl},
                     .start_byte = from,
                     .end_byte = to == len ? UINT32_MAX : to};
}

static void sp_half_parse(sp_half_t *h) {
    h->tree = NULL;
    h->clean = false;
    /* more comments than the runtime takes in a row may be there: the whole parse hides them */
    if (ts_check_comments_ok(h->lang, h->text + h->from, h->to - h->from, &h->comments)) {
        ts_parser_set_language(h->parser, ts_check_language(h->lang));
        TSRange r[3] = {sp_range(h->text, h->len, h->from, h->to)};
        uint32_t nr = 1;
        if (h->head && h->from == 0) { /* the first half of a split block, then the text from its `}` */
            r[nr++] = sp_range(h->text, h->len, h->tail, h->len);
        } else if (h->head) { /* the text up to the block's `{`, then the half (a part: then from its `}`) */
            r[0] = sp_range(h->text, h->len, 0, h->head);
            r[nr++] = sp_range(h->text, h->len, h->from, h->to);
            if (h->to < h->len) r[nr++] = sp_range(h->text, h->len, h->tail, h->len);
        }
        ts_check_parse_info_t info;
        if (ts_parser_set_included_ranges(h->parser, r, nr))
            h->tree = ts_check_parse_plain(h->parser, h->text, h->len, h->old, &info);
        ts_parser_set_included_ranges(h->parser, NULL, 0);
        h->clean = h->tree && sp_half_clean(h);
    }
    if (h->drop) {
        if (h->tree) ts_tree_delete(h->tree);
        if (h->old) ts_tree_delete(h->old);
        h->tree = h->old = NULL;
    }
}

static void *sp_half_run(void *arg) {
    sp_half_parse(arg);
    return NULL;
}

/* Whether two halves parsed clean are what one parse reads: the whole parse would not hide comments
 * either (ts_check_parse_safe; no comment introducer spans the cut, a line's start). */
static bool sp_halves_clean(const sp_half_t *a, const sp_half_t *b) {
    return a->clean && b->clean && a->comments + b->comments < TS_CHECK_MAX_COMMENTS;
}

/* The generated program parsed and analysed, on a thread of its own while a big file is parsed: it
 * has its own parser, arena and diagnostics, and uses the splicer's query cursor and queries, which
 * the file's parse does not touch (joined before the file's analysis begins). */
typedef struct {
    splicer_t *s;
    sp_program_t *G;
    const char *file;
    bool threaded, parsed, analysed;
    pthread_t thread;
    diag_list_t parse_diags, analyse_diags;
    sp_half_t *half; /* the file's second half, parsed first (a big file parsed in two halves), or NULL */
} sp_gen_job_t;

static void *sp_gen_run(void *arg) {
    sp_gen_job_t *j = arg;
    if (j->half) sp_half_parse(j->half);
    j->parsed = sp_parse_with(j->s->gparser, j->G, NULL, j->file, true, &j->parse_diags);
    j->analysed =
        j->parsed && j->G->lang != LANG_YAML && sp_analyze(j->s, j->G, false, "generated program", &j->analyse_diags);
    return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* names                                                                                            */

static void sp_rename(sp_ctx_t *c, const char *from, const char *to) {
    if (strcmp(from, to) == 0) return;
    SP_PUSH(c->a, c->rename_to, c->nrename, c->crename);
    c->rename_to[c->nrename - 1] = to;
    names_table_put(c->rename, from, (int)(c->nrename - 1));
}

static const char *sp_renamed(const sp_ctx_t *c, const char *name) {
    int i = names_table_get(c->rename, name);
    return i >= 0 ? c->rename_to[i] : name;
}

/* A name that clashes with nothing in either program nor with names already handed out. */
static bool sp_taken(const sp_ctx_t *c, const char *name) {
    return names_table_has(c->taken, name) || names_table_has(c->T.names, name) || names_table_has(c->G.names, name);
}

static bool sp_cs_declared(sp_ctx_t *c, const char *d);

/* A free name for `base`: base itself, else one that reads like the resource when the statement
 * defines one (its type: `myKeyPrivateKey`, Python `my_key_private_key`, YAML `my-key-private-key`;
 * issue 16), else base2, base3... `res_type` is the statement's canonical type or NULL. */
static const char *sp_fresh(sp_ctx_t *c, const char *base, const char *res_type) {
    if (!names_table_has(c->taken, base) && !names_table_has(c->T.names, base) && !sp_cs_declared(c, base)) {
        names_table_reserve(c->taken, base);
        return base;
    }
    const char *sep = c->T.lang == LANG_PYTHON ? "_" : "";
    /* C#: `@group` → `groupRandomPet`, `group2` (neither is a keyword, so it needs no `@`). */
    if (c->T.lang == LANG_CSHARP && base[0] == '@') base++;
    if (res_type && *res_type) {
        const char *dot = strrchr(res_type, '.'), *colon = strrchr(res_type, ':');
        const char *type = dot && (!colon || dot > colon) ? dot + 1 : colon ? colon + 1 : res_type;
        if (c->T.lang == LANG_GO && strncmp(type, "New", 3) == 0 && isupper((unsigned char)type[3])) type += 3;
        readable_style_t style = c->T.lang == LANG_PYTHON ? READABLE_SNAKE
                                 : c->T.lang == LANG_YAML ? READABLE_KEBAB
                                                          : READABLE_CAMEL;
        const char *cand[READABLE_MAX];
        size_t n = readable_name_candidates(c->a, style, base, type, NULL, NULL, cand);
        for (size_t i = 0; i < n; i++) {
            if (sp_taken(c, cand[i]) || sp_cs_declared(c, cand[i])) continue;
            names_table_reserve(c->taken, cand[i]);
            return cand[i];
        }
    }
    for (int n = 2;; n++) {
        const char *cand = arena_sprintf(c->a, "%s%s%d", base, sep, n);
        if (!sp_taken(c, cand) && !sp_cs_declared(c, cand)) {
            names_table_reserve(c->taken, cand);
            return cand;
        }
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* text of a generated statement, rewritten for the target                                          */

static const sp_stmt_t *sp_body_stmt_at(const sp_program_t *p, uint32_t off);
static bool sp_is_bound_value(const sp_program_t *p, const sp_stmt_t *r, uint32_t stmt_end);

static void sp_add_edit(sp_ctx_t *c, uint32_t start, uint32_t end, const char *text) {
    SP_PUSH(c->a, c->edits, c->nedits, c->cedits);
    c->edits[c->nedits - 1] = (sp_edit_t){start, end, text, c->nedits, false};
}

/* Width of the indentation at text[off..] in columns of `unit` (a tab counts as one unit). */
static size_t sp_indent_width(const char *text, uint32_t len, uint32_t off, uint32_t *ws_end, size_t unit_w) {
    size_t w = 0;
    uint32_t i = off;
    while (i < len && (text[i] == ' ' || text[i] == '\t')) {
        w += text[i] == '\t' ? unit_w : 1;
        i++;
    }
    *ws_end = i;
    return w;
}

static void sp_put_indent(buf_t *b, const char *base, const char *unit, size_t levels, size_t rem) {
    buf_puts(b, base);
    for (size_t i = 0; i < levels; i++)
        buf_puts(b, unit);
    for (size_t i = 0; i < rem; i++)
        buf_putc(b, ' ');
}

typedef struct sp_local_edit {
    uint32_t start, end;
    const char *text;
} sp_local_edit_t;

static int sp_cmp_local(const void *x, const void *y) {
    const sp_local_edit_t *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* The first renamable site of G starting at or after off (sites are in source order). */
static size_t sp_first_site(const sp_program_t *G, uint32_t off) {
    size_t lo = 0, hi = G->nsites;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (G->sites[mid].start < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Rewrites generated statement [start, end) for the target: renamed identifiers, the local edits
 * given, indentation converted from the generated program's unit to the file's with `base` in front
 * of every line after the first, and the file's line ending. Lines inside multi-line strings are
 * copied as they are (YAML block scalars are shifted as a whole instead). */
static const char *sp_rewrite(sp_ctx_t *c, uint32_t start, uint32_t end, sp_local_edit_t *extra, size_t nextra,
                              const char *base) {
    const sp_program_t *G = &c->G;
    /* Collect the edits inside the range. */
    size_t cap = nextra + 16, n = 0;
    sp_local_edit_t *ed = arena_alloc(c->a, cap * sizeof *ed);
    for (size_t i = 0; i < nextra; i++)
        ed[n++] = extra[i];
    for (size_t i = sp_first_site(G, start); i < G->nsites && G->sites[i].start <= end; i++) {
        const sp_site_t *st = &G->sites[i];
        if (st->end > end) continue;
        const char *to = sp_renamed(c, st->text);
        if (to == st->text) continue;
        bool dup = false;
        for (size_t k = 0; k < nextra; k++)
            if (extra[k].start == st->start) dup = true;
        if (dup) continue;
        ed = arena_grow_array(c->a, ed, &cap, n + 1, sizeof *ed);
        ed[n++] = (sp_local_edit_t){st->start, st->end, to};
    }
    if (n) qsort(ed, n, sizeof *ed, sp_cmp_local);

    size_t gu = G->unit[0] == '\t' ? 1 : strlen(G->unit);
    size_t gbase = 0;
    for (const char *k = G->base_indent; *k; k++)
        gbase += *k == '\t' ? gu : 1;
    buf_t b;
    buf_init(&b);
    size_t ei = 0;
    uint32_t i = start;
    bool first = true;
    /* YAML: indentation is structure, not levels — a line deeper than its parent goes one target
     * unit deeper, and the content after `- ` is a column of its own (`- a: 1` / `  b: 2`). */
    enum { YDEPTH = 256 };
    size_t ystack_g[YDEPTH], ystack_t[YDEPTH], ytop = 0;
    ystack_g[0] = gbase;
    ystack_t[0] = strlen(base);
    const sp_span_t *yspan = NULL;
    size_t yanchor_g = 0, yanchor_t = 0;
    bool yaml = c->T.lang == LANG_YAML;
    size_t tu = strlen(c->T.unit);
    while (i < end) {
        uint32_t ws_end;
        size_t w = sp_indent_width(G->text, G->len, i, &ws_end, gu);
        if (!first) {
            /* at a line start */
            bool verbatim = false;
            const sp_span_t *span = NULL;
            for (size_t v = 0; v < G->nverbatim; v++)
                if (G->verbatim[v].start < i && i < G->verbatim[v].end) {
                    verbatim = true;
                    span = &G->verbatim[v];
                }
            bool blank = ws_end >= G->len || G->text[ws_end] == '\n' || G->text[ws_end] == '\r';
            if (verbatim && !yaml) {
                /* copy as is */
            } else if (blank) {
                i = ws_end;
            } else if (yaml) {
                size_t tcol;
                if (verbatim && span == yspan) {
                    tcol = yanchor_t + (w > yanchor_g ? w - yanchor_g : 0);
                } else {
                    while (ytop > 0 && ystack_g[ytop] > w)
                        ytop--;
                    tcol = ystack_g[ytop] == w ? ystack_t[ytop] : ystack_t[ytop] + tu;
                    if (verbatim) {
                        yspan = span;
                        yanchor_g = w;
                        yanchor_t = tcol;
                    } else if (ystack_g[ytop] != w && ytop + 1 < YDEPTH) {
                        ytop++;
                        ystack_g[ytop] = w;
                        ystack_t[ytop] = tcol;
                    }
                }
                for (size_t k = 0; k < tcol; k++)
                    buf_putc(&b, ' ');
                i = ws_end;
            } else {
                size_t rel = w > gbase ? w - gbase : 0;
                sp_put_indent(&b, base, c->T.unit, rel / gu, rel % gu);
                i = ws_end;
            }
        }
        if (yaml) {
            /* each `- ` opens a column at the text after it */
            uint32_t k = ws_end;
            size_t gcol = w, tcol = ystack_g[ytop] == w ? ystack_t[ytop] : strlen(base);
            while (k + 1 < end && G->text[k] == '-' && G->text[k + 1] == ' ' && ytop + 1 < YDEPTH) {
                k += 2;
                gcol += 2;
                tcol += 2;
                while (k < end && G->text[k] == ' ') {
                    k++;
                    gcol++;
                    tcol++;
                }
                ytop++;
                ystack_g[ytop] = gcol;
                ystack_t[ytop] = tcol;
            }
        }
        first = false;
        /* copy to the end of the line, applying edits */
        while (i < end && G->text[i] != '\n') {
            if (ei < n && ed[ei].start == i) {
                buf_puts(&b, ed[ei].text);
                i = ed[ei].end;
                ei++;
                continue;
            }
            if (G->text[i] != '\r') buf_putc(&b, G->text[i]);
            i++;
        }
        /* an insertion at the line's end (after the last option of a line) */
        while (ei < n && ed[ei].start == i && ed[ei].end == i && (i < end || i == end))
            buf_puts(&b, ed[ei++].text);
        if (i < end) {
            buf_puts(&b, c->nl);
            i++;
        }
    }
    const char *r = buf_arena_str(&b, c->a);
    buf_free(&b);
    return r;
}

/* Text with every whitespace character removed (to compare statements regardless of layout). */
static const char *sp_squash(arena_t *a, const char *s, size_t n) {
    char *r = arena_alloc(a, n + 1), *o = r;
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i])) *o++ = s[i];
    *o = 0;
    return r;
}

/* Text on one line, for a message: each run of whitespace one space (none at the start), cut after
 * `max` bytes with "...". */
static const char *sp_one_line(arena_t *a, const char *s, size_t n, size_t max) {
    buf_t b;
    buf_init(&b);
    for (size_t q = 0; q < n; q++)
        if (!isspace((unsigned char)s[q]) || (b.len > 0 && !isspace((unsigned char)s[q - 1])))
            buf_putc(&b, isspace((unsigned char)s[q]) ? ' ' : s[q]);
    while (b.len > 0 && b.data[b.len - 1] == ' ')
        b.len--;
    const char *r =
        b.len > max ? arena_sprintf(a, "%.*s...", (int)max, b.data) : arena_strndup(a, b.data ? b.data : "", b.len);
    buf_free(&b);
    return r ? r : "";
}

/* A resource's call up to its arguments (`random.RandomString`), on one line, for a message. */
static const char *sp_call_head(arena_t *a, const sp_program_t *p, const sp_stmt_t *r) {
    const char *paren = memchr(p->text + r->res_start, '(', r->res_end - r->res_start);
    uint32_t ce = paren ? (uint32_t)(paren - p->text) : r->res_end;
    return sp_one_line(a, p->text + r->res_start, ce - r->res_start, 80);
}

/* ---------------------------------------------------------------------------------------------- */
/* imports                                                                                          */

static const sp_import_t *sp_find_import(const sp_program_t *T, const sp_import_t *g) {
    for (size_t i = 0; i < T->nimports; i++) {
        const sp_import_t *t = &T->imports[i];
        if (t->is_static || strcmp(t->path, g->path) != 0) continue;
        if (T->lang == LANG_CSHARP && (t->local != NULL) != (g->local != NULL)) continue;
        if (g->local && !t->local) continue;
        return t;
    }
    if (T->lang == LANG_JAVA && g->local) {
        /* `import a.b.*;` covers `a.b.C` */
        const char *dot = strrchr(g->path, '.');
        for (size_t i = 0; dot && i < T->nimports; i++) {
            const sp_import_t *t = &T->imports[i];
            if (t->wildcard && !t->is_static && strlen(t->path) == (size_t)(dot - g->path) &&
                strncmp(t->path, g->path, (size_t)(dot - g->path)) == 0)
                return t;
        }
    }
    return NULL;
}

static const char *sp_import_line(sp_ctx_t *c, const sp_import_t *g, const char *local) {
    const sp_program_t *T = &c->T;
    bool renamed = g->local && strcmp(local, g->local) != 0;
    switch (T->lang) {
    case LANG_TYPESCRIPT: {
        /* Follow the file: `require` when it uses require, its quote character and semicolons. */
        char q = '"';
        bool semi = true, require = false;
        if (T->nimports > 0) {
            const sp_import_t *l = &T->imports[T->nimports - 1];
            const char *s = T->text + l->start;
            const char *qp = memchr(s, '\'', l->end - l->start);
            const char *dq = memchr(s, '"', l->end - l->start);
            if (qp && (!dq || qp < dq)) q = '\'';
            semi = T->text[l->end - 1] == ';';
            require = strncmp(s, "const", 5) == 0 || strncmp(s, "var", 3) == 0 || strncmp(s, "let", 3) == 0;
        }
        if (require) return arena_sprintf(c->a, "const %s = require(%c%s%c)%s", local, q, g->path, q, semi ? ";" : "");
        if (!local) return arena_sprintf(c->a, "import %c%s%c%s", q, g->path, q, semi ? ";" : "");
        return arena_sprintf(c->a, "import * as %s from %c%s%c%s", local, q, g->path, q, semi ? ";" : "");
    }
    case LANG_PYTHON:
        if (!local || strcmp(local, g->path) == 0) return arena_sprintf(c->a, "import %s", g->path);
        return arena_sprintf(c->a, "import %s as %s", g->path, local);
    case LANG_GO:
        if (g->alias || renamed) return arena_sprintf(c->a, "%s \"%s\"", local, g->path);
        return arena_sprintf(c->a, "\"%s\"", g->path);
    case LANG_CSHARP:
        if (local) return arena_sprintf(c->a, "using %s = %s;", local, g->path);
        return arena_sprintf(c->a, "using %s;", g->path);
    case LANG_JAVA: return arena_sprintf(c->a, "import %s;", g->path);
    default: return "";
    }
}

/* Whether the file's imports (of one kind) are in ascending order of path; new ones then go to
 * their sorted place, else after the last one. */
static bool sp_imports_sorted(const sp_program_t *T) {
    for (size_t i = 1; i < T->nimports; i++)
        if (strcmp(T->imports[i - 1].path, T->imports[i].path) > 0) return false;
    return T->nimports > 0;
}

static void sp_put_imports(sp_ctx_t *c, const char **lines, const char **paths, size_t n);

/* Adds the import lines; where an import and inserted code meet at one offset (a program that holds
 * nothing but its imports), the import comes first. */
static void sp_add_imports(sp_ctx_t *c, const char **lines, const char **paths, size_t n) {
    size_t first = c->nedits;
    sp_put_imports(c, lines, paths, n);
    for (size_t i = first; i < c->nedits; i++)
        c->edits[i].lead = true;
}

static void sp_put_imports(sp_ctx_t *c, const char **lines, const char **paths, size_t n) {
    sp_program_t *T = &c->T;
    if (n == 0) return;
    c->stats.imports_added += n;
    if (T->lang == LANG_GO && T->go_import_block) {
        /* Into the group of its kind (standard library paths have no dot), in sorted place. */
        for (size_t k = 0; k < n; k++) {
            bool std = strchr(paths[k], '.') == NULL;
            uint32_t at = 0;
            bool placed = false;
            for (size_t i = 0; i < T->nimports; i++) {
                const sp_import_t *t = &T->imports[i];
                bool tstd = strchr(t->path, '.') == NULL;
                if (tstd != std) continue;
                if (strcmp(t->path, paths[k]) > 0) {
                    at = sp_line_start(T->text, t->start);
                    placed = true;
                    break;
                }
                at = sp_line_end(T->text, T->len, t->end);
                placed = true;
            }
            if (!placed) at = sp_line_start(T->text, T->go_block_end);
            const char *ind = T->nimports ? sp_line_indent(T, T->imports[0].start) : "\t";
            sp_add_edit(c, at, at, arena_sprintf(c->a, "%s%s%s", ind, lines[k], c->nl));
        }
        return;
    }
    if (T->nimports == 0 || (T->lang == LANG_GO && !T->go_import_block && T->nimports == 0)) {
        buf_t b;
        buf_init(&b);
        if (T->lang == LANG_GO && n > 1) {
            buf_printf(&b, "import (%s", c->nl);
            for (size_t k = 0; k < n; k++)
                buf_printf(&b, "\t%s%s", lines[k], c->nl);
            buf_puts(&b, ")");
        } else {
            for (size_t k = 0; k < n; k++) {
                if (k) buf_puts(&b, c->nl);
                buf_printf(&b, "%s%s", T->lang == LANG_GO ? "import " : "", lines[k]);
            }
        }
        const char *block = buf_arena_str(&b, c->a);
        buf_free(&b);
        uint32_t at = T->import_at;
        /* after a header line (a comment, a hashbang) of a CRLF file: its node ends after the `\r`;
         * the import goes before the line's `\r\n`, not between them */
        if (at > (T->bom ? 3u : 0u) && at < T->len && T->text[at - 1] == '\r' && T->text[at] == '\n') at--;
        if (at > (T->bom ? 3u : 0u))
            sp_add_edit(c, at, at, arena_sprintf(c->a, "%s%s%s", c->nl, c->nl, block));
        else
            sp_add_edit(c, at, at, arena_sprintf(c->a, "%s%s%s", block, c->nl, T->len > at ? c->nl : ""));
        return;
    }
    bool sorted = sp_imports_sorted(T) && T->lang != LANG_GO;
    if (sorted) /* keep the new ones in order among themselves too (few: insertion sort) */
        for (size_t k = 1; k < n; k++)
            for (size_t j = k; j > 0 && strcmp(paths[j - 1], paths[j]) > 0; j--) {
                const char *tp = paths[j], *tl = lines[j];
                paths[j] = paths[j - 1];
                lines[j] = lines[j - 1];
                paths[j - 1] = tp;
                lines[j - 1] = tl;
            }
    for (size_t k = 0; k < n; k++) {
        const char *pre = T->lang == LANG_GO ? "import " : "";
        uint32_t at = sp_line_end(T->text, T->len, T->imports_end - 1);
        if (sorted)
            for (size_t i = 0; i < T->nimports; i++)
                if (strcmp(T->imports[i].path, paths[k]) > 0) {
                    at = sp_line_start(T->text, T->imports[i].start);
                    break;
                }
        bool need_nl_before = at == T->len && T->len > 0 && T->text[T->len - 1] != '\n';
        sp_add_edit(
            c, at, at,
            arena_sprintf(c->a, "%s%s%s%s", need_nl_before ? c->nl : "", pre, lines[k], need_nl_before ? "" : c->nl));
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* applying edits                                                                                   */

static int sp_cmp_edit(const void *x, const void *y) {
    const sp_edit_t *a = x, *b = y;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    if (a->lead != b->lead) return a->lead ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Row/column of byte off in text (columns in bytes, as tree-sitter counts them). */
static TSPoint sp_point_at(const char *text, uint32_t off) {
    TSPoint p = {0, 0};
    uint32_t ls = 0;
    for (uint32_t i = 0; i < off; i++)
        if (text[i] == '\n') {
            p.row++;
            ls = i + 1;
        }
    p.column = off - ls;
    return p;
}

/* Tells the target's tree about the edits (applied from the last to the first, so each edit's
 * offsets are still those of the original text), so the result re-parses incrementally. */
static void sp_edit_tree(sp_ctx_t *c) {
    const char *t = c->T.text;
    /* Points for all edit offsets in one pass over the text (edits are sorted ascending). */
    TSPoint *ps = arena_alloc(c->a, (c->nedits + 1) * sizeof *ps);
    TSPoint *pe = arena_alloc(c->a, (c->nedits + 1) * sizeof *pe);
    TSPoint cur = {0, 0};
    uint32_t at = 0, ls = 0;
    for (size_t i = 0; i < c->nedits; i++) {
        for (int k = 0; k < 2; k++) {
            uint32_t target = k == 0 ? c->edits[i].start : c->edits[i].end;
            if (target < at) { /* overlapping (never happens): recompute from the start */
                cur = sp_point_at(t, target);
                ls = target - cur.column;
                at = target;
            }
            for (; at < target; at++)
                if (t[at] == '\n') {
                    cur.row++;
                    ls = at + 1;
                }
            cur.column = at - ls;
            (k == 0 ? ps : pe)[i] = cur;
        }
    }
    for (size_t i = c->nedits; i-- > 0;) {
        const sp_edit_t *e = &c->edits[i];
        TSPoint ne = ps[i];
        for (const char *q = e->text; *q; q++) {
            if (*q == '\n') {
                ne.row++;
                ne.column = 0;
            } else {
                ne.column++;
            }
        }
        TSInputEdit ed = {.start_byte = e->start,
                          .old_end_byte = e->end,
                          .new_end_byte = e->start + (uint32_t)strlen(e->text),
                          .start_point = ps[i],
                          .old_end_point = pe[i],
                          .new_end_point = ne};
        /* a file parsed in two halves: the first half's tree has the edits before the cut (an
         * insertion at the cut goes to it: sp_reparse_halves), the second's all of them; a split
         * block's trees both hold the text after it: both have all of them */
        if (!c->T.tree2 || c->T.head || e->end <= c->T.split) ts_tree_edit(c->T.tree, &ed);
        if (c->T.tree2) ts_tree_edit(c->T.tree2, &ed);
    }
}

/* Where the result's second half [cut, len) is cut again, so that its two parts, parsed again beside
 * each other, take about as long (when no edit touches the first half, the calling thread has nothing
 * else to parse): a line after the point that halves the work — a byte of new text costs about as
 * much as `per` bytes of text the edits leave alone, whose subtrees the incremental parse reuses —
 * that can be a cut as the file's was (sp_cut_line_ok; in a split block, a line after a statement's
 * end: sp_block_cut_line_ok); 0 when none is found near it. The edits are sorted, all from the file's
 * cut on. The parts' trees confirm it as the halves' do (sp_reparse_halves). */
static uint32_t sp_second_cut(const sp_ctx_t *c, const char *text, uint32_t len, uint32_t cut, uint32_t tail) {
    /* measured (thread CPU time of the two parts, 100,000 lines, 1,000 resources): Python reuses
     * little (its external tokens, bench/RESULTS.md), C# and Java some, TypeScript and Go most */
    const uint64_t per = c->T.lang == LANG_PYTHON ? 1 : c->T.lang == LANG_CSHARP || c->T.lang == LANG_JAVA ? 2 : 8;
    uint64_t work = 0;
    uint32_t o = c->T.split;
    for (size_t i = 0; i < c->nedits; i++) {
        work += (c->edits[i].start - o) + per * strlen(c->edits[i].text);
        o = c->edits[i].end;
    }
    work += c->T.len - o;
    /* the point in the result where half of the work is done */
    uint64_t done = 0, half = work / 2;
    uint32_t r = cut, x = 0;
    o = c->T.split;
    for (size_t i = 0; i < c->nedits && !x; i++) {
        uint32_t gap = c->edits[i].start - o, tl = (uint32_t)strlen(c->edits[i].text);
        if (done + gap >= half) {
            x = r + (uint32_t)(half - done);
        } else if (done + gap + per * tl >= half) {
            x = r + gap + (uint32_t)((half - done - gap) / per);
        } else {
            done += gap + per * tl;
            r += gap + tl;
            o = c->edits[i].end;
        }
    }
    if (!x) x = r + (uint32_t)(half - done);
    uint32_t stop = c->T.head ? tail : len, limit = x + 256 * 1024;
    if (limit > stop || limit < x) limit = stop;
    for (uint32_t at = x; at < limit;) {
        const char *nl = memchr(text + at, '\n', limit - at);
        if (!nl) break;
        at = (uint32_t)(nl - text) + 1;
        if (at <= cut || at >= limit) continue;
        if (!c->T.head) {
            if (sp_cut_line_ok(c->T.lang, text, len, at)) return at;
            continue;
        }
        uint32_t k = at - 1; /* the last character of the code before: after white space only */
        while (k > cut && (text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\r' || text[k - 1] == '\n'))
            k--;
        if (k > cut && sp_block_cut_line_ok(c->T.lang, text, len, at, text[k - 1])) return at;
    }
    return 0;
}

/* The result of a splice into a file parsed in two halves, parsed in two halves too, each from its
 * half's edited tree, cut where the file's cut moved to (after an insertion there) and confirmed as
 * the file's were: true when it parses without errors. When no edit touches the first half, the
 * second is parsed in two parts on two threads instead (sp_second_cut), each from a copy of its
 * edited tree — the first part, of a split block, given the text around the block too (so each
 * tree is the whole program holding that part's statements) — and confirmed as the halves are.
 * False: not shown (an edit across the cut, a cut the text or the trees do not confirm, errors); the
 * caller parses the whole result. */
static bool sp_reparse_halves(sp_ctx_t *c, const char *text, uint32_t len) {
    int64_t cut = c->T.split, head = c->T.head, tail = c->T.split_end;
    /* A first half whose text no edit touches (all from the cut on, an insertion at the cut being the
     * first half's; of a split block, all before the line of its `}`, so the columns after it are
     * unchanged too): the result's first half reads the same text in the same ranges as the file's,
     * which parsed clean; it is not parsed again. */
    bool first_same = true;
    uint32_t tail_line = c->T.head ? sp_line_start(c->T.text, c->T.split_end) : 0;
    for (size_t i = 0; i < c->nedits; i++) {
        const sp_edit_t *e = &c->edits[i];
        if (e->start < c->T.split || (e->start == c->T.split && e->end == c->T.split) ||
            (c->T.head && e->end > tail_line))
            first_same = false;
        int64_t grow = (int64_t)strlen(e->text) - (int64_t)(e->end - e->start);
        if (e->end <= c->T.split)
            cut += grow;
        else if (e->start < c->T.split)
            return false;
        if (!c->T.head) continue;
        /* a split block: text inserted at its `{` goes into it, at its `}` too */
        if (e->start < c->T.head && e->end > c->T.head - 1) return false;
        if (e->end < c->T.head) head += grow;
        if (e->start < c->T.split_end && e->end > c->T.split_end) return false;
        if (e->end <= c->T.split_end) tail += grow;
    }
    if (cut <= 0 || cut >= len) return false;
    if (c->T.head ? text[cut - 1] != '\n' || head > cut || tail < cut || tail >= len
                  : !sp_cut_line_ok(c->T.lang, text, len, (uint32_t)cut))
        return false;
    /* Each half's trees are deleted on its own thread once judged (a fresh parse if not confirmed). */
    sp_half_t first = {.parser = c->s->parser,
                       .lang = c->T.lang,
                       .text = text,
                       .len = len,
                       .to = (uint32_t)cut,
                       .head = (uint32_t)head,
                       .tail = (uint32_t)tail,
                       .old = c->T.tree,
                       .drop = true};
    sp_half_t second = {.parser = c->s->gparser,
                        .lang = c->T.lang,
                        .text = text,
                        .len = len,
                        .from = (uint32_t)cut,
                        .to = len,
                        .head = (uint32_t)head,
                        .tail = (uint32_t)tail,
                        .old = c->T.tree2,
                        .drop = true};
    /* the second half's first part, parsed on this thread when the first half is not */
    sp_half_t part = second;
    part.parser = c->s->parser;
    uint32_t cut2 = first_same ? sp_second_cut(c, text, len, (uint32_t)cut, (uint32_t)tail) : 0;
    if (cut2) {
        part.to = second.from = cut2;
        part.old = ts_tree_copy(c->T.tree2);
    }
    c->T.tree = c->T.tree2 = NULL;
    pthread_t th;
    bool threaded = pthread_create(&th, NULL, sp_half_run, &second) == 0;
    if (c->G.tree) { /* read no more */
        ts_tree_delete(c->G.tree);
        c->G.tree = NULL;
    }
    c->stats.reparsed += (first_same ? 0 : (size_t)cut) + (len - (size_t)cut);
    if (first_same) {
        ts_tree_delete(first.old);
        first.old = NULL;
        first.clean = true;
        first.comments = c->T.comments1;
    } else {
        sp_half_parse(&first);
    }
    if (cut2) sp_half_parse(&part);
    if (threaded)
        pthread_join(th, NULL);
    else
        sp_half_parse(&second);
    if (!cut2) return sp_halves_clean(&first, &second);
    c->stats.split_reparse = part.clean && second.clean;
    return first.clean && part.clean && second.clean &&
           first.comments + part.comments + second.comments < TS_CHECK_MAX_COMMENTS;
}

static char *sp_apply(sp_ctx_t *c, size_t *out_len) {
    if (c->nedits) qsort(c->edits, c->nedits, sizeof *c->edits, sp_cmp_edit);
    buf_t b;
    buf_init(&b);
    uint32_t at = 0;
    for (size_t i = 0; i < c->nedits; i++) {
        const sp_edit_t *e = &c->edits[i];
        if (e->start < at) continue; /* overlapping edits cannot happen; be safe */
        buf_append(&b, c->T.text + at, e->start - at);
        buf_puts(&b, e->text);
        at = e->end;
    }
    buf_append(&b, c->T.text + at, c->T.len - at);
    *out_len = b.len;
    if (!b.data) buf_append(&b, "", 0);
    return buf_take(&b);
}

/* ---------------------------------------------------------------------------------------------- */
/* programs in code languages                                                                       */

static bool sp_line_blank_before(const sp_program_t *T, uint32_t at) {
    /* The line before `at` (a line start): blank, or opening a block (ends with `{`)? */
    if (at == 0 || (T->bom && at <= 3)) return true;
    uint32_t e = at - 1; /* the '\n' */
    uint32_t s = sp_line_start(T->text, e);
    while (e > s && isspace((unsigned char)T->text[e - 1]))
        e--;
    return e == s || T->text[e - 1] == '{' || T->text[e - 1] == '(' || (T->bom && s == 0 && e == 3);
}

static bool sp_gen_uses_blank_lines(const sp_program_t *G) {
    for (size_t i = 1; i < G->nstmts; i++) {
        int nls = 0;
        for (uint32_t k = G->stmts[i - 1].end; k < G->stmts[i].start; k++)
            if (G->text[k] == '\n') nls++;
        if (nls >= 2) return true;
    }
    return false;
}

/* Fills c->decl_first (and for C# c->cs_decls, c->cs_vars) from the user's file. */
static void sp_index_target(sp_ctx_t *c) {
    const sp_program_t *T = &c->T;
    c->decl_first = names_table_new(c->a);
    for (size_t i = 0; i < T->nstmts; i++)
        for (size_t k = 0; k < T->stmts[i].ndecls; k++)
            if (names_table_get(c->decl_first, T->stmts[i].decls[k].name) < 0)
                names_table_put(c->decl_first, T->stmts[i].decls[k].name, (int)i);
    if (T->lang != LANG_CSHARP) return;
    c->cs_decls = names_table_new(c->a);
    for (size_t i = 0; i < T->nstmts; i++)
        for (size_t k = 0; k < T->stmts[i].ndecls; k++) {
            const char *t = T->stmts[i].decls[k].name;
            names_table_reserve(c->cs_decls, t[0] == '@' ? t + 1 : t);
        }
    /* `var X ` anywhere in the text (up to a NUL, as a string search would see it): X is what
     * follows `var ` up to the next space. */
    c->cs_vars = names_table_new(c->a);
    size_t len = strnlen(T->text, T->len);
    const char *e = T->text + len;
    for (const char *q = T->text; (q = memmem(q, (size_t)(e - q), "var ", 4)) != NULL; q++) {
        const char *x = q + 4, *sp = memchr(x, ' ', (size_t)(e - x));
        if (sp && sp > x) names_table_reserve(c->cs_vars, arena_strndup(c->a, x, (size_t)(sp - x)));
    }
}

static const sp_stmt_t *sp_target_decl(const sp_ctx_t *c, const char *name) {
    int i = names_table_get(c->decl_first, name);
    return i >= 0 ? &c->T.stmts[i] : NULL;
}

/* C#: whether the target declares d under its other spelling (`group` for `@group`: one identifier). */
static bool sp_cs_declared(sp_ctx_t *c, const char *d) {
    if (c->T.lang != LANG_CSHARP) return false;
    const char *bare = d[0] == '@' ? d + 1 : d;
    const char *at = arena_sprintf(c->a, "@%s", bare);
    if (names_table_has(c->T.names, bare) || names_table_has(c->T.names, at) || names_table_has(c->taken, bare) ||
        names_table_has(c->taken, at))
        return true;
    if (names_table_has(c->cs_decls, bare)) return true;
    /* Also a declaration anywhere in the text (`var group =`), whatever node the grammar made of it. */
    return names_table_has(c->cs_vars, bare) || names_table_has(c->cs_vars, at);
}

/* C#: whether the kept generated statements use a namespace imported without an alias (`using
 * System.Linq;`): the emitters import a fixed set, most of which a given resource does not need. */
static bool sp_cs_namespace_used(sp_ctx_t *c, const sp_program_t *G, const sp_unit_t *u, size_t nu, const char *ns) {
    static const struct {
        const char *ns;
        const char *uses[8];
    } known[] = {
        {"System.Linq",
         {".Select(", ".Where(", ".ToArray()", ".ToList()", ".ToDictionary(", ".First(", "Enumerable.", NULL}},
        {"System.Collections.Generic", {"Dictionary<", "List<", "KeyValuePair<", "IEnumerable<", NULL}},
        {"System", {"Convert.", "Math.", "Environment.", "DateTime", "Guid.", "String.", NULL}},
    };
    for (size_t k = 0; k < sizeof known / sizeof *known; k++) {
        if (strcmp(ns, known[k].ns) != 0) continue;
        for (size_t i = 0; i < nu; i++) {
            if (u[i].mode != SP_INSERT && u[i].mode != SP_REPLACE) continue;
            const char *t = arena_strndup(c->a, G->text + G->stmts[i].start, G->stmts[i].end - G->stmts[i].start);
            for (size_t j = 0; known[k].uses[j]; j++)
                if (strstr(t, known[k].uses[j])) return true;
        }
        return false;
    }
    return true; /* another namespace: keep it */
}

/* Go: a variable of the file (`x := ...`, a statement of the body) that only statements being
 * replaced used, and the new code does not: Go builds no program with a variable declared and not
 * used. The earlier config read of a secret whose key changed (another value under the old key) was
 * left so, and the run said "1 replaced", exit 0. Its statement stays, declaring nothing
 * (`_ = cfg.RequireSecret("k")`): the user's line is kept, and it still reads what it read. */
static void sp_go_unused_decls(sp_ctx_t *c, const sp_unit_t *u, size_t nu) {
    const sp_program_t *T = &c->T, *G = &c->G;
    if (T->lang != LANG_GO) return;
    uint32_t *rs = arena_alloc(c->a, (nu + 1) * sizeof *rs), *re = arena_alloc(c->a, (nu + 1) * sizeof *re);
    size_t nr = 0;
    for (size_t i = 0; i < nu; i++)
        if (u[i].mode == SP_REPLACE && !u[i].call_only) {
            rs[nr] = u[i].existing->start;
            re[nr++] = u[i].existing->end;
        }
    if (!nr) return;
    /* candidates: one name declared with `:=`, written in a replaced statement */
    names_table_t *cand = names_table_new(c->a);
    size_t ncand = 0;
    for (size_t k = 0; k < T->nstmts; k++) {
        const sp_stmt_t *st = &T->stmts[k];
        if (st->op_end != st->op_start + 2 || st->ndecls != 1) continue;
        const char *d = st->decls[0].name;
        if (strcmp(d, "_") == 0 || strcmp(d, "err") == 0) continue;
        size_t dl = strlen(d);
        bool in = false, inside = false;
        for (size_t r = 0; r < nr; r++)
            inside |= st->start >= rs[r] && st->start < re[r];
        if (inside) continue;
        for (size_t r = 0; r < nr && !in; r++)
            in = re[r] - rs[r] >= dl && memmem(T->text + rs[r], re[r] - rs[r], d, dl) != NULL;
        if (!in) continue;
        names_table_put(cand, d, (int)k);
        ncand++;
    }
    if (!ncand) return;
    /* the new code's uses */
    for (size_t i = 0; i < nu; i++) {
        if (u[i].mode != SP_INSERT && u[i].mode != SP_REPLACE) continue;
        for (size_t k = sp_first_site(G, G->stmts[i].start); k < G->nsites && G->sites[k].start <= G->stmts[i].end; k++)
            if (G->sites[k].end <= G->stmts[i].end) names_table_put(cand, sp_renamed(c, G->sites[k].text), -1);
    }
    /* the file's identifiers: a use outside the replaced statements and the declaration keeps it */
    bool *used = arena_alloc(c->a, (T->nstmts + 1) * sizeof *used);
    memset(used, 0, (T->nstmts + 1) * sizeof *used);
    char id[128];
    /* a file parsed in two halves: the first tree, then the second's `hold` (the rest of the block) */
    for (int half = 0; half < (T->tree2 ? 2 : 1); half++) {
        TSTreeCursor cur = ts_tree_cursor_new(half ? T->hold2 : T->root);
        for (bool done = false; !done;) {
            TSNode n = ts_tree_cursor_current_node(&cur);
            uint32_t s = ts_node_start_byte(n), e = sp_end_byte(n);
            if (ts_node_child_count(n) == 0 && e - s < sizeof id && strcmp(ts_node_type(n), "identifier") == 0) {
                memcpy(id, T->text + s, e - s);
                id[e - s] = 0;
                int k = names_table_get(cand, id);
                bool replaced = false;
                for (size_t r = 0; r < nr && !replaced; r++)
                    replaced = s >= rs[r] && e <= re[r];
                if (k >= 0 && !replaced && s != T->stmts[k].decls[0].start) used[k] = true;
            }
            if (ts_tree_cursor_goto_first_child(&cur)) continue;
            while (!ts_tree_cursor_goto_next_sibling(&cur)) {
                if (!ts_tree_cursor_goto_parent(&cur)) {
                    done = true;
                    break;
                }
            }
        }
        ts_tree_cursor_delete(&cur);
    }
    for (size_t k = 0; k < T->nstmts; k++) {
        const sp_stmt_t *st = &T->stmts[k];
        if (used[k] || st->ndecls != 1 || names_table_get(cand, st->decls[0].name) != (int)k) continue;
        sp_add_edit(c, st->decls[0].start, st->op_end, "_ =");
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* where the generated statements that are no resources (config reads) go                          */

static size_t sp_slot_of(sp_ctx_t *c, const sp_stmt_t *t) {
    for (size_t k = 0; k < c->nslots; k++)
        if (c->slots[k].at == t) return k;
    SP_PUSH(c->a, c->slots, c->nslots, c->cslots);
    c->slots[c->nslots - 1] = (sp_slot_t){.at = t, .map = names_table_new(c->a)};
    return c->nslots - 1;
}

static bool sp_unit_in_slot(const sp_unit_t *u, size_t k) {
    for (size_t i = 0; i < u->nnested; i++)
        if (u->nested[i] == k) return true;
    return false;
}

static void sp_unit_add_slot(sp_ctx_t *c, sp_unit_t *u, size_t k) {
    if (sp_unit_in_slot(u, k)) return;
    SP_PUSH(c->a, u->nested, u->nnested, u->cnested);
    u->nested[u->nnested - 1] = k;
}

static void sp_slot_put(sp_ctx_t *c, sp_slot_t *sl, const char *from, const char *to) {
    SP_PUSH(c->a, sl->map_to, sl->nmap, sl->cmap);
    sl->map_to[sl->nmap - 1] = to;
    names_table_put(sl->map, from, (int)(sl->nmap - 1));
}

/* Appends to ed (n of *cap) an edit for every site of the generated statement g whose name has a
 * name of its own in slot sl (NULL: none), and one naming g's first declaration `decl0` (NULL: as it
 * is). Returns the new count. */
static size_t sp_slot_edits(sp_ctx_t *c, const sp_slot_t *sl, const sp_stmt_t *g, const char *decl0,
                            sp_local_edit_t **ed, size_t n, size_t *cap) {
    const sp_program_t *G = &c->G;
    for (size_t k = sp_first_site(G, g->start); k < G->nsites && G->sites[k].start <= g->end; k++) {
        const sp_site_t *st = &G->sites[k];
        if (st->end > g->end) continue;
        const char *to = NULL;
        if (decl0 && g->ndecls && st->start == g->decls[0].start) {
            to = decl0;
        } else if (sl) {
            int m = names_table_get(sl->map, st->text);
            if (m >= 0) to = sl->map_to[m];
        }
        if (!to) continue;
        *ed = arena_grow_array(c->a, *ed, cap, n + 1, sizeof **ed);
        (*ed)[n++] = (sp_local_edit_t){st->start, st->end, to};
    }
    return n;
}

/* Whether the user's statement t says what generated statement g says with g's one declared name
 * written as t's (and the names slot sl gives, when not NULL), whatever the layout. */
static bool sp_same_but_name(sp_ctx_t *c, const sp_stmt_t *g, const sp_stmt_t *t, const sp_slot_t *sl) {
    if (g->ndecls != 1 || t->ndecls != 1) return false;
    sp_local_edit_t *ed = NULL;
    size_t cap = 0, n = sp_slot_edits(c, sl, g, t->decls[0].name, &ed, 0, &cap);
    const char *gt = sp_rewrite(c, g->start, g->end, ed, n, "");
    return strcmp(sp_squash(c->a, gt, strlen(gt)), sp_squash(c->a, c->T.text + t->start, t->end - t->start)) == 0;
}

/* Fills each unit's body_at and nested slots: a resource replaced in the program body is at its
 * statement, one replaced in a block of its own (a function's) is a slot, a new resource is at the
 * insertion point; a statement that is no resource (a config read, the config object) goes where the
 * first statement that uses it is — before the statement the generated code uses it in, so a read
 * never follows its use nor the config object it reads from, and into the block of a nested
 * resource that uses it, where the program body's names may not be in scope or not yet set. */
static void sp_place(sp_ctx_t *c, sp_unit_t *u, size_t nu) {
    const sp_program_t *T = &c->T, *G = &c->G;
    names_table_t *gdecl = names_table_new(c->a); /* a name a non-resource statement declares → it */
    size_t **deps = arena_alloc(c->a, (nu + 1) * sizeof *deps);
    size_t *ndeps = arena_alloc(c->a, (nu + 1) * sizeof *ndeps), *cdeps = arena_alloc(c->a, (nu + 1) * sizeof *cdeps);
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        deps[i] = NULL;
        ndeps[i] = cdeps[i] = 0;
        for (size_t k = sp_first_site(G, g->start); k < G->nsites && G->sites[k].start <= g->end; k++) {
            const sp_site_t *st = &G->sites[k];
            if (st->end > g->end) continue;
            bool own = false;
            for (size_t d = 0; d < g->ndecls; d++)
                own |= st->start == g->decls[d].start;
            int j = own ? -1 : names_table_get(gdecl, st->text);
            if (j < 0) continue;
            bool dup = false;
            for (size_t d = 0; d < ndeps[i]; d++)
                dup |= deps[i][d] == (size_t)j;
            if (dup) continue;
            SP_PUSH(c->a, deps[i], ndeps[i], cdeps[i]);
            deps[i][ndeps[i] - 1] = (size_t)j;
        }
        if (*g->res_name || g->is_return) continue;
        for (size_t d = 0; d < g->ndecls; d++) {
            const char *nm = g->decls[d].name;
            if (strcmp(nm, "_") != 0 && !(T->lang == LANG_GO && strcmp(nm, "err") == 0))
                names_table_put(gdecl, nm, (int)i);
        }
    }
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        u[i].body_at = SP_AT_NONE;
        if (g->is_return || u[i].mode == SP_REUSE) continue;
        if (u[i].mode == SP_REPLACE) {
            if (sp_body_stmt_at(T, u[i].existing->start))
                u[i].body_at = u[i].existing->start;
            else
                sp_unit_add_slot(c, &u[i], sp_slot_of(c, u[i].existing));
        } else if (*g->res_name) {
            u[i].body_at = SP_AT_END;
        }
    }
    for (size_t i = nu; i-- > 0;)
        for (size_t d = 0; d < ndeps[i]; d++) {
            sp_unit_t *j = &u[deps[i][d]];
            if (j->mode != SP_SKIP) continue;
            if (u[i].body_at < j->body_at) j->body_at = u[i].body_at;
            for (size_t k = 0; k < u[i].nnested; k++)
                sp_unit_add_slot(c, j, u[i].nested[k]);
        }
    for (size_t i = 0; i < nu; i++)
        if (u[i].mode == SP_SKIP && !*G->stmts[i].res_name && u[i].body_at == SP_AT_NONE && !u[i].nnested)
            u[i].body_at = SP_AT_END; /* used by nothing: at the end, as before */
}

/* The statements slot k needs go right before its resource's statement, in its block: a statement
 * already there that says the same (an earlier run's) is used under its name, else a copy under a
 * fresh name. Refused (false, a diagnostic) where no statement can go before it. */
static bool sp_fill_slot(sp_ctx_t *c, sp_unit_t *u, size_t nu, size_t k) {
    sp_program_t *T = &c->T;
    const sp_program_t *G = &c->G;
    sp_slot_t *sl = &c->slots[k];
    const sp_stmt_t *at = sl->at;
    size_t first = SIZE_MAX;
    for (size_t j = 0; j < nu && first == SIZE_MAX; j++)
        if (u[j].mode == SP_SKIP && !*G->stmts[j].res_name && sp_unit_in_slot(&u[j], k)) first = j;
    if (first == SIZE_MAX) return true;
    const char *ind = sp_line_indent(T, at->start), *container = "", *why = NULL;
    sp_stmt_t *before = NULL;
    size_t nbefore = 0;
    if (T->lang == LANG_JAVA)
        why = "cimport does not place config reads inside a Java method or lambda other than the program's";
    else if (sp_line_start(T->text, at->start) + strlen(ind) != at->start)
        why = "its statement does not start a line of its own";
    else if (!sp_block_before(T, at->start, &container, &before, &nbefore) ||
             (strcmp(container, "statement_block") != 0 && strcmp(container, "block") != 0 &&
              strcmp(container, "expression_case") != 0 && strcmp(container, "switch_section") != 0))
        why = arena_sprintf(c->a, "it is in a %s, where no statement can go", *container ? container : "?");
    for (size_t j = first; j < nu && !why; j++)
        if (u[j].mode == SP_SKIP && !*G->stmts[j].res_name && sp_unit_in_slot(&u[j], k) && G->stmts[j].ndecls != 1)
            why = "the statement it needs declares more than one name";
    if (why) {
        diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                             "the resource '%s' here is defined outside the program's body, and the config read its "
                             "new code needs cannot go before it (%s): nothing was changed; move the definition into "
                             "the program's body (or onto a line of its own in a function), or import it into "
                             "another file",
                             at->res_name, why);
        d->line = (long)sp_line_of(T->text, at->res_start);
        return false;
    }
    size_t lo = 0;
    for (size_t j = first; j < nu; j++) {
        const sp_stmt_t *g = &G->stmts[j];
        if (u[j].mode != SP_SKIP || *g->res_name || !sp_unit_in_slot(&u[j], k)) continue;
        const char *d = g->decls[0].name, *name = NULL;
        for (size_t m = lo; m < nbefore && !name; m++)
            if (sp_same_but_name(c, g, &before[m], sl)) {
                name = before[m].decls[0].name;
                lo = m + 1;
            }
        u[j].copied = true;
        if (name) {
            sp_slot_put(c, sl, d, name);
            continue;
        }
        name = sp_fresh(c, d, NULL);
        sp_slot_put(c, sl, d, name);
        sp_local_edit_t *ed = NULL;
        size_t cap = 0, n = sp_slot_edits(c, sl, g, name, &ed, 0, &cap);
        if (T->lang == LANG_GO && g->op_end) {
            ed = arena_grow_array(c->a, ed, &cap, n + 1, sizeof *ed);
            ed[n++] = (sp_local_edit_t){g->op_start, g->op_end, ":="};
        }
        const char *text = sp_rewrite(c, g->start, g->end, ed, n, ind);
        SP_PUSH(c->a, c->edits, c->nedits, c->cedits);
        c->edits[c->nedits - 1] =
            (sp_edit_t){at->start, at->start, arena_sprintf(c->a, "%s%s%s", text, c->nl, ind), c->nedits, true};
    }
    return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* the resource options a user wrote on a definition being replaced                                 */

/* One option: its name as written (`ignoreChanges`, `ignore_changes`, `IgnoreChanges`; a quoted
 * TypeScript key without its quotes) and its text (Java: `.ignoreChanges(...)`, from its dot); where
 * its value starts (a TypeScript pair's, so that `"protect": true` and `protect: true` compare alike;
 * else the option's start). */
typedef struct sp_opt {
    const char *key;
    uint32_t start, end, vstart;
} sp_opt_t;

typedef struct sp_opts {
    bool present;        /* the definition has an options argument */
    uint32_t start, end; /* that argument (Python: the `opts=` keyword argument) */
    const char *opaque;  /* the text of an option that is not `name: value` (a spread, a variable), or NULL */
    sp_opt_t *e;
    size_t n, cap;
    uint32_t last_arg_end; /* the end of the last argument before the options */
    bool positional;       /* Python: the options given as a positional argument (no `opts=`) */
    uint32_t tail_end;     /* the end of the arguments after the options (a component's `remote`), or 0 */
    bool java_build;       /* Java: the builder's `.build()` */
    const char *spread;    /* arguments spread into the call (`...rest`, Python `*a`/`**kw`): may hold options */
} sp_opts_t;

/* The named children of n that are no comments. */
static TSNode *sp_args(arena_t *a, TSNode n, uint32_t *count) {
    uint32_t k = 0, nk;
    TSNode *v = sp_named_children(a, n, &nk);
    for (uint32_t i = 0; i < nk; i++) {
        const char *t = sp_type(v[i]);
        if (strcmp(t, "comment") != 0 && strcmp(t, "line_comment") != 0 && strcmp(t, "block_comment") != 0)
            v[k++] = v[i];
    }
    *count = k;
    return v;
}

static void sp_opt_add(sp_program_t *p, sp_opts_t *o, const char *key, uint32_t start, uint32_t end) {
    size_t kl = strlen(key);
    if (kl >= 2 && (key[0] == '"' || key[0] == '\'') && key[kl - 1] == key[0])
        key = arena_strndup(p->a, key + 1, kl - 2);
    o->e = arena_grow_array(p->a, o->e, &o->cap, o->n + 1, sizeof *o->e);
    o->e[o->n++] = (sp_opt_t){key, start, end, start};
}

/* The resource options of the resource call at [res_start, res_end) in p, each by name. */
static void sp_res_options(sp_program_t *p, uint32_t res_start, uint32_t res_end, sp_opts_t *o) {
    memset(o, 0, sizeof *o);
    TSNode res = ts_node_descendant_for_byte_range(sp_root_at(p, res_start), res_start, res_end);
    while (!ts_node_is_null(res) && ts_node_start_byte(res) == res_start && sp_end_byte(res) < res_end)
        res = ts_node_parent(res);
    uint32_t na;
    TSNode *a = sp_args(p->a, sp_field(res, "arguments", 9), &na);
    for (uint32_t i = 0; i < na && !o->spread; i++) {
        const char *t = sp_type(a[i]);
        if (strcmp(t, "spread_element") == 0 || strcmp(t, "list_splat") == 0 || strcmp(t, "dictionary_splat") == 0)
            o->spread = sp_node_text(p, a[i]);
    }
    if (p->lang == LANG_PYTHON) {
        /* `opts=`, or the options given positionally: the third argument (`Bucket(name, args, opts)`),
         * the second in the keyword form (`Bucket(name, opts, acl=...)`: an options call, or anything
         * beside keyword inputs), a ComponentResource's fourth (type, name, props, opts). */
        const char *fnt = sp_node_text(p, sp_field(res, "function", 8)), *dot = strrchr(fnt, '.');
        uint32_t pos_at = strcmp(dot ? dot + 1 : fnt, "ComponentResource") == 0 ? 3 : 2, npos = 0;
        bool inputs_by_keyword = false;
        for (uint32_t i = 0; i < na; i++)
            if (strcmp(sp_type(a[i]), "keyword_argument") == 0 &&
                strcmp(sp_node_text(p, sp_field(a[i], "name", 4)), "opts") != 0)
                inputs_by_keyword = true;
        for (uint32_t i = 0; i < na; i++) {
            TSNode nm = sp_field(a[i], "name", 4);
            bool kw = strcmp(sp_type(a[i]), "keyword_argument") == 0;
            bool positional = false;
            if (!kw && strcmp(sp_type(a[i]), "list_splat") != 0 && strcmp(sp_type(a[i]), "dictionary_splat") != 0) {
                uint32_t k = npos++;
                const char *cf =
                    strcmp(sp_type(a[i]), "call") == 0 ? sp_node_text(p, sp_field(a[i], "function", 8)) : "";
                size_t cl = strlen(cf);
                bool options_call = cl >= 15 && strcmp(cf + cl - 15, "ResourceOptions") == 0;
                positional = k == pos_at || (k >= 1 && k < pos_at && (options_call || (k == 1 && inputs_by_keyword)));
            }
            if (!positional && (!kw || strcmp(sp_node_text(p, nm), "opts") != 0)) {
                if (!o->present) o->last_arg_end = sp_end_byte(a[i]);
                continue;
            }
            o->present = true;
            o->positional = positional;
            o->start = ts_node_start_byte(a[i]);
            o->end = sp_end_byte(a[i]);
            TSNode v = positional ? a[i] : sp_field(a[i], "value", 5);
            const char *fn = sp_node_text(p, sp_field(v, "function", 8));
            size_t fl = strlen(fn);
            if (strcmp(sp_type(v), "call") != 0 || fl < 15 || strcmp(fn + fl - 15, "ResourceOptions") != 0) {
                o->opaque = sp_node_text(p, v);
                return;
            }
            uint32_t nk;
            TSNode *k = sp_args(p->a, sp_field(v, "arguments", 9), &nk);
            for (uint32_t j = 0; j < nk; j++) {
                if (strcmp(sp_type(k[j]), "keyword_argument") != 0) {
                    o->opaque = sp_node_text(p, k[j]);
                    return;
                }
                sp_opt_add(p, o, sp_node_text(p, sp_field(k[j], "name", 4)), ts_node_start_byte(k[j]),
                           sp_end_byte(k[j]));
            }
        }
        return;
    }
    /* the others: options from the fourth argument (Go: each one an argument), else the third. A
     * ComponentResource takes its type, name, inputs, options and `remote`: TypeScript's options are
     * the fourth; C#'s the third when it has three (`(type, name, options)`, unless that is its
     * inputs) and else the fourth; Java's the fourth of five, else the third (`(type, name,
     * options[, remote])`). Arguments after the options (`remote`) are kept as written. */
    uint32_t at = p->lang == LANG_GO ? 3 : 2;
    const char *paren = memchr(p->text + res_start, '(', res_end - res_start);
    if (p->lang != LANG_GO && paren) {
        const char *e = paren;
        while (e > p->text + res_start && isspace((unsigned char)e[-1]))
            e--;
        if ((size_t)(e - (p->text + res_start)) >= 17 && memcmp(e - 17, "ComponentResource", 17) == 0) {
            const char *third = na == 3 ? sp_node_text(p, a[2]) : "";
            if (p->lang == LANG_TYPESCRIPT || (p->lang == LANG_CSHARP && na >= 4) ||
                (p->lang == LANG_JAVA && na >= 5) ||
                (p->lang == LANG_CSHARP && strstr(third, "Args") && !strstr(third, "ResourceOptions")))
                at = 3;
        }
    }
    if (na > 0) o->last_arg_end = sp_end_byte(a[na < at ? na - 1 : at - 1]);
    if (na <= at) return;
    o->present = true;
    o->start = ts_node_start_byte(a[at]);
    o->end = sp_end_byte(a[na - 1]);
    if (p->lang != LANG_GO && na > at + 1) {
        o->end = sp_end_byte(a[at]);
        o->tail_end = sp_end_byte(a[na - 1]);
    }
    if (p->lang == LANG_GO) {
        for (uint32_t i = at; i < na; i++) {
            TSNode f = sp_field(a[i], "function", 8);
            if (strcmp(sp_type(a[i]), "call_expression") != 0 || strcmp(sp_type(f), "selector_expression") != 0) {
                o->opaque = sp_node_text(p, a[i]);
                return;
            }
            sp_opt_add(p, o, sp_node_text(p, sp_field(f, "field", 5)), ts_node_start_byte(a[i]), sp_end_byte(a[i]));
        }
        return;
    }
    TSNode v = a[at];
    if (strcmp(sp_type(v), "argument") == 0) v = sp_nchild(v, 0); /* C# */
    if (p->lang == LANG_TYPESCRIPT && strcmp(sp_type(v), "object") == 0) {
        uint32_t nk;
        TSNode *k = sp_args(p->a, v, &nk);
        for (uint32_t j = 0; j < nk; j++) {
            const char *t = sp_type(k[j]);
            if (strcmp(t, "pair") == 0) {
                sp_opt_add(p, o, sp_node_text(p, sp_field(k[j], "key", 3)), ts_node_start_byte(k[j]),
                           sp_end_byte(k[j]));
                TSNode value = sp_field(k[j], "value", 5);
                if (!ts_node_is_null(value)) o->e[o->n - 1].vstart = ts_node_start_byte(value);
            } else if (strcmp(t, "shorthand_property_identifier") == 0)
                sp_opt_add(p, o, sp_node_text(p, k[j]), ts_node_start_byte(k[j]), sp_end_byte(k[j]));
            else {
                o->opaque = sp_node_text(p, k[j]);
                return;
            }
        }
        return;
    }
    if (p->lang == LANG_CSHARP && strcmp(sp_type(v), "object_creation_expression") == 0) {
        TSNode init = sp_field(v, "initializer", 11);
        uint32_t nk;
        TSNode *k = sp_args(p->a, init, &nk);
        if (ts_node_is_null(init) || sp_nchild_count(sp_field(v, "arguments", 9)) > 0) {
            o->opaque = sp_node_text(p, v);
            return;
        }
        for (uint32_t j = 0; j < nk; j++) {
            if (strcmp(sp_type(k[j]), "assignment_expression") != 0) {
                o->opaque = sp_node_text(p, k[j]);
                return;
            }
            sp_opt_add(p, o, sp_node_text(p, sp_field(k[j], "left", 4)), ts_node_start_byte(k[j]), sp_end_byte(k[j]));
        }
        return;
    }
    if (p->lang == LANG_JAVA && strcmp(sp_type(v), "method_invocation") == 0) {
        /* X.builder().a(..).b(..).build(): the calls between builder() and build(), last first */
        TSNode m = v;
        if (strcmp(sp_node_text(p, sp_field(m, "name", 4)), "build") == 0) {
            o->java_build = true;
            m = sp_field(m, "object", 6);
        }
        size_t first = o->n;
        while (strcmp(sp_type(m), "method_invocation") == 0) {
            TSNode obj = sp_field(m, "object", 6);
            const char *name = sp_node_text(p, sp_field(m, "name", 4));
            if (strcmp(name, "builder") == 0) break;
            sp_opt_add(p, o, name, sp_end_byte(obj), sp_end_byte(m));
            m = obj;
        }
        if (!o->java_build || strcmp(sp_node_text(p, sp_field(m, "name", 4)), "builder") != 0) {
            o->opaque = sp_node_text(p, v);
            return;
        }
        for (size_t x = first, y = o->n; x + 1 < y; x++, y--) { /* in source order */
            sp_opt_t t = o->e[x];
            o->e[x] = o->e[y - 1];
            o->e[y - 1] = t;
        }
        return;
    }
    o->opaque = sp_node_text(p, v);
}

/* The target's indentation for the generated line holding g_off, in a statement written at `base`. */
static const char *sp_target_indent(sp_ctx_t *c, uint32_t g_off, const char *base) {
    const sp_program_t *G = &c->G;
    size_t gu = G->unit[0] == '\t' ? 1 : strlen(G->unit), gbase = 0;
    if (gu == 0) gu = 1;
    for (const char *k = G->base_indent; *k; k++)
        gbase += *k == '\t' ? gu : 1;
    uint32_t ws_end;
    size_t w = sp_indent_width(G->text, G->len, sp_line_start(G->text, g_off), &ws_end, gu);
    size_t rel = w > gbase ? w - gbase : 0;
    buf_t b;
    buf_init(&b);
    sp_put_indent(&b, base, c->T.unit, rel / gu, rel % gu);
    const char *r = buf_arena_str(&b, c->a);
    buf_free(&b);
    return r;
}

/* A `parent` or `provider` option the user wrote that the import does not give: the code would declare
 * another parent (URN) or provider than the stack records. */
static void sp_refuse_option(sp_ctx_t *c, const char *what, const char *key, const char *text, uint32_t len,
                             bool provider, long line) {
    diag_t *d = diag_add(
        c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
        "the resource '%s' sets the resource option `%s` (`%.*s`), and the import %s: nothing was "
        "changed; %s, or remove the option and run again",
        what, key, (int)len, text,
        provider ? "read it with the default provider" : "gives it no parent (the stack's resource has another URN)",
        provider ? "give the resource that provider in the import file (its `provider`)" : "import it with its parent");
    d->line = line;
}

/* An option the user wrote (`ut`) that the generated definition sets otherwise (`gt`): refused. What
 * the generated value is depends on the run: what a stack would record, or only the code's. */
static void sp_refuse_clash(sp_ctx_t *c, const char *what, const char *key, const char *ut, int ulen, const char *gt,
                            int glen, long line) {
    char advice[DIAG_ADVICE_MAX] = "";
    bool protect = strcasecmp(key, "protect") == 0;
    if (protect) diag_advice(advice, DIAG_ADVICE_NO_PROTECT, NULL);
    bool parent = strcasecmp(key, "parent") == 0, provider = strcasecmp(key, "provider") == 0;
    const char *other = protect              ? arena_sprintf(c->a, "import it without protect%s, ", advice)
                        : parent || provider ? arena_sprintf(c->a,
                                                             "import it with the program's %s (its `%s` in the "
                                                             "import file), ",
                                                             key, parent ? "parent" : "provider")
                                             : "";
    diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                         "the resource '%s' sets the resource option `%s` (`%.*s`) where the %s `%.*s`%s: nothing was "
                         "changed; %smake the program say `%.*s`, or remove the option, and run again",
                         what, key, ulen, ut, c->into_stack ? "import has" : "import's code has", glen, gt,
                         c->into_stack ? ", as the stack would record it" : "", other, glen, gt);
    d->line = line;
}

/* The name of the `import` resource option in lang. */
static const char *sp_import_key(lang_t lang) {
    return lang == LANG_PYTHON   ? "import_"
           : lang == LANG_GO     ? "Import"
           : lang == LANG_CSHARP ? "ImportId"
           : lang == LANG_JAVA   ? "importId"
                                 : "import";
}

/* The ID the `import` option of resource r of p gives (a string literal), or NULL. */
static const char *sp_import_id(sp_program_t *p, const sp_stmt_t *r) {
    sp_opts_t o;
    sp_res_options(p, r->res_start, r->res_end, &o);
    const char *key = sp_import_key(p->lang);
    for (size_t i = 0; i < o.n; i++)
        if (strcmp(o.e[i].key, key) == 0) return sp_first_string(p, o.e[i].start, o.e[i].end);
    return NULL;
}

/* A resource the new code adds with an `import` option whose type and ID the file's resource t
 * imports already under another name: two Pulumi resources would own one object. */
static void sp_refuse_same_id(sp_ctx_t *c, const char *what, const char *id, const char *other, long line) {
    diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                         "the resource '%s' has the type and ID ('%s') of '%s', which the program imports already: "
                         "two resources would manage one object (a `pulumi destroy` of either deletes it): nothing "
                         "was changed; import it under that name, or remove that resource from the program first",
                         what, id, other);
    d->line = line;
}

/* The text of the option `key` (`parent`, `provider`; Go's and C#'s capitalised) of resource r of p,
 * without whitespace, or NULL. */
static const char *sp_option_text(sp_program_t *p, const sp_stmt_t *r, const char *key) {
    sp_opts_t o;
    sp_res_options(p, r->res_start, r->res_end, &o);
    bool upper = p->lang == LANG_GO || p->lang == LANG_CSHARP;
    for (size_t i = 0; i < o.n; i++)
        if (strcasecmp(o.e[i].key, key) == 0 && (o.e[i].key[0] == (upper ? toupper(key[0]) : key[0])))
            return sp_squash(p->a, p->text + o.e[i].start, o.e[i].end - o.e[i].start);
    return NULL;
}

/* The text of the `parent` option of resource r of p, without whitespace, or NULL. */
static const char *sp_parent_text(sp_program_t *p, const sp_stmt_t *r) {
    return sp_option_text(p, r, "parent");
}

/* With the file's resources kept, a new one of the same type and logical name (and parent) as the
 * file's resource at `line`: one URN twice. */
static void sp_refuse_kept_twin(sp_ctx_t *c, const char *what, long line) {
    diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                         "the resource '%s' has the type and logical name of this one, and is to be added beside it "
                         "(the program's resources are kept): one URN twice, which `pulumi up` refuses: nothing was "
                         "changed; import it under another name, or let it replace this one",
                         what);
    d->line = line;
}

/* The user's options on t cannot be read one by one (a variable, a spread): neither kept nor
 * dropped, refused (false). */
static bool sp_refuse_opaque(sp_ctx_t *c, const char *what, const char *text, const sp_stmt_t *t) {
    diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                         "the resource '%s' has resource options cimport cannot merge with the import's one by one "
                         "(`%s`): nothing was changed, so they are not dropped; write them as a list of options, or "
                         "import the resource into another file",
                         what, text);
    d->line = (long)sp_line_of(c->T.text, t->res_start);
    return false;
}

/* The user's options on t, and no place for them in the new definition: refused (false). */
static bool sp_refuse_no_place(sp_ctx_t *c, const char *what, const sp_stmt_t *t) {
    diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                         "the resource '%s' has resource options that its new definition has no place for: "
                         "nothing was changed; remove them, run again and add them back",
                         what);
    d->line = (long)sp_line_of(c->T.text, t->res_start);
    return false;
}

/* The options the user wrote on the definition t that generated statement g replaces are kept: one the
 * generated code does not set is added to its options (edits appended to *ed); one it sets to the same
 * value stays once. One it sets otherwise, or options that cannot be read one by one (a variable, a
 * spread) beside generated ones, are refused with a diagnostic naming them: false. */
static bool sp_keep_options(sp_ctx_t *c, const sp_stmt_t *g, const sp_stmt_t *t, const char *base, sp_local_edit_t **ed,
                            size_t *n, size_t *cap) {
    sp_opts_t uo, go;
    sp_res_options(&c->T, t->res_start, t->res_end, &uo);
    if (uo.spread) return sp_refuse_opaque(c, g->res_name, uo.spread, t); /* options may be in it */
    if (!uo.present || (uo.n == 0 && !uo.opaque && !uo.tail_end)) return true;
    sp_res_options(&c->G, g->res_start, g->res_end, &go);
    const char *what = g->res_name;
    /* A parent the import does not give it: another URN than the stack's resource has. An `import`
     * option the import does not write: the resource is in the stack now (the option is cimport's). */
    const char *parent_key = c->T.lang == LANG_GO || c->T.lang == LANG_CSHARP ? "Parent" : "parent";
    const char *provider_key = c->T.lang == LANG_GO || c->T.lang == LANG_CSHARP ? "Provider" : "provider";
    const char *import_key = sp_import_key(c->T.lang);
    size_t drop = SIZE_MAX;
    for (size_t i = 0; i < uo.n; i++) {
        bool in_gen = false;
        for (size_t k = 0; k < go.n; k++)
            in_gen |= strcmp(go.e[k].key, uo.e[i].key) == 0;
        if (in_gen) continue;
        if (strcmp(uo.e[i].key, import_key) == 0) drop = i;
        /* A provider the import did not give: it read the resource with the default provider, and
         * the code would declare another one than the stack records. */
        bool provider = strcmp(uo.e[i].key, provider_key) == 0;
        if (!provider && strcmp(uo.e[i].key, parent_key) != 0) continue;
        sp_refuse_option(c, what, uo.e[i].key, c->T.text + uo.e[i].start, uo.e[i].end - uo.e[i].start, provider,
                         (long)sp_line_of(c->T.text, uo.e[i].start));
        return false;
    }
    if (!go.present) { /* the user's options as written, after the generated arguments */
        const char *text = arena_strndup(c->a, c->T.text + uo.start, uo.end - uo.start);
        if (drop != SIZE_MAX && !uo.opaque) { /* without the import option (and its comma) */
            const sp_opt_t *e = &uo.e[drop];
            uint32_t cs = e->start, ce = e->end, k = ce;
            while (k < uo.end && isspace((unsigned char)c->T.text[k]))
                k++;
            if (k < uo.end && c->T.text[k] == ',') {
                ce = k + 1;
                while (ce < uo.end && (c->T.text[ce] == ' ' || c->T.text[ce] == '\t'))
                    ce++;
            } else if (drop > 0) {
                cs = uo.e[drop - 1].end;
            }
            if (uo.n == 1 && c->T.lang == LANG_GO) return true; /* no option left */
            text = arena_sprintf(c->a, "%.*s%.*s", (int)(cs - uo.start), c->T.text + uo.start, (int)(uo.end - ce),
                                 c->T.text + ce);
        }
        if (uo.tail_end) /* `remote`, with what separates it from the options */
            text = arena_sprintf(c->a, "%s%.*s", text, (int)(uo.tail_end - uo.end), c->T.text + uo.end);
        if (!go.last_arg_end) return sp_refuse_no_place(c, what, t);
        *ed = arena_grow_array(c->a, *ed, cap, *n + 1, sizeof **ed);
        /* after the generated keyword arguments, a positional one would be a syntax error */
        (*ed)[(*n)++] = (sp_local_edit_t){go.last_arg_end, go.last_arg_end,
                                          arena_sprintf(c->a, ", %s%s", uo.positional ? "opts=" : "", text)};
        return true;
    }
    if (uo.opaque || go.opaque) return sp_refuse_opaque(c, what, uo.opaque ? uo.opaque : "?", t);
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < uo.n; i++) {
        const sp_opt_t *u = &uo.e[i];
        const sp_opt_t *m = NULL;
        for (size_t k = 0; k < go.n && !m; k++)
            if (strcmp(go.e[k].key, u->key) == 0) m = &go.e[k];
        const char *ut = c->T.text + u->start;
        if (i == drop) continue;
        if (m) {
            /* by value: the key may be written otherwise (quoted) */
            const char *gv = sp_rewrite(c, m->vstart, m->end, NULL, 0, ""), *uv = c->T.text + u->vstart;
            if (strcmp(sp_squash(c->a, gv, strlen(gv)), sp_squash(c->a, uv, u->end - u->vstart)) == 0) continue;
            const char *gt = sp_rewrite(c, m->start, m->end, NULL, 0, "");
            sp_refuse_clash(c, what, u->key, ut, (int)(u->end - u->start), gt, (int)strlen(gt),
                            (long)sp_line_of(c->T.text, u->start));
            buf_free(&b);
            return false;
        }
        /* after the generated options: on a line of its own when the last one has one (Java: the
         * call with the line break and indentation before it, as the user wrote it) */
        const sp_opt_t *last = go.n ? &go.e[go.n - 1] : NULL;
        bool own_line = false;
        if (last && c->T.lang != LANG_JAVA) {
            uint32_t k = sp_line_start(c->G.text, last->start);
            while (k < last->start && (c->G.text[k] == ' ' || c->G.text[k] == '\t'))
                k++;
            own_line = k == last->start;
        }
        if (own_line)
            buf_printf(&b, ",%s%s", c->nl, sp_target_indent(c, last->start, base));
        else if (c->T.lang != LANG_JAVA && (last || b.len))
            buf_puts(&b, ", ");
        buf_append(&b, ut, u->end - u->start);
    }
    if (b.len) {
        uint32_t at = go.n ? go.e[go.n - 1].end : go.start;
        if (!go.n && c->T.lang == LANG_TYPESCRIPT) at = go.start + 1; /* inside `{` */
        if (!go.n && c->T.lang != LANG_TYPESCRIPT) {
            buf_free(&b);
            return sp_refuse_no_place(c, what, t);
        }
        *ed = arena_grow_array(c->a, *ed, cap, *n + 1, sizeof **ed);
        (*ed)[(*n)++] = (sp_local_edit_t){at, at, buf_arena_str(&b, c->a)};
    }
    buf_free(&b);
    if (uo.tail_end && !go.tail_end) { /* `remote` after the generated options */
        *ed = arena_grow_array(c->a, *ed, cap, *n + 1, sizeof **ed);
        (*ed)[(*n)++] =
            (sp_local_edit_t){go.end, go.end, arena_strndup(c->a, c->T.text + uo.end, uo.tail_end - uo.end)};
    }
    return true;
}

/* Whether the file's resource statement r is `return <the call>` (TypeScript/JavaScript, Python, Go,
 * C#, Java): replacing the statement with the generated declaration would drop the `return`. */
static bool sp_is_returned(const sp_program_t *T, const sp_stmt_t *r) {
    if (r->res_start < r->start + 7 || memcmp(T->text + r->start, "return", 6) != 0) return false;
    for (uint32_t k = r->start + 6; k < r->res_start; k++)
        if (!isspace((unsigned char)T->text[k])) return false;
    for (uint32_t k = r->res_end; k < r->end; k++)
        if (T->text[k] != ';' && !isspace((unsigned char)T->text[k])) return false;
    return isspace((unsigned char)T->text[r->start + 6]);
}

/* Whether the file's statement does more with resource r than declare it, bind it to a variable or
 * state it alone: `export const x = new X()` (file_var: x), `pulumi.export("x", X(...))`,
 * `[new X()]`, `module.exports.x = new X()`. Replacing such a statement whole with the generated
 * one would drop the export or the list: the call alone is replaced. */
static bool sp_wraps_call(const sp_program_t *T, const sp_stmt_t *r, const char **file_var) {
    *file_var = NULL;
    if (sp_is_bound_value(T, r, r->node_end)) {
        if (T->lang != LANG_TYPESCRIPT || strncmp(T->text + r->start, "export", 6) != 0 ||
            !isspace((unsigned char)T->text[r->start + 6]))
            return false;
        if (strcmp(r->decls[0].name, "_") != 0) *file_var = r->decls[0].name;
        return true;
    }
    for (uint32_t k = r->start; k < r->res_start; k++)
        if (!isspace((unsigned char)T->text[k])) return true;
    for (uint32_t k = r->res_end; k < r->node_end; k++)
        if (T->text[k] != ';' && !isspace((unsigned char)T->text[k])) return true;
    return false;
}

/* Go: the name a program body's final `return NAME` returns, when the new statements go right before
 * it; NULL otherwise (`return nil`, no return). */
static const char *sp_go_returned_name(const sp_program_t *T) {
    if (!T->nstmts) return NULL;
    const sp_stmt_t *r = &T->stmts[T->nstmts - 1];
    if (!r->is_return || r->start < T->insert_at) return NULL;
    const char *t = T->text + r->start, *e = T->text + r->end;
    while (e > t && (isspace((unsigned char)e[-1]) || e[-1] == ';'))
        e--;
    if (e - t == 6 && strncmp(t, "return", 6) == 0) return T->go_result; /* a bare return: the named result */
    if (e - t < 8 || strncmp(t, "return", 6) != 0 || !isspace((unsigned char)t[6])) return NULL;
    t += 6;
    while (t < e && isspace((unsigned char)*t))
        t++;
    const char *n = t;
    while (t < e && (isalnum((unsigned char)*t) || *t == '_'))
        t++;
    if (t == n || isdigit((unsigned char)*n)) return NULL;
    for (const char *q = t; q < e; q++)
        if (!isspace((unsigned char)*q) && *q != ';') return NULL;
    char *name = arena_strndup(T->a, n, (size_t)(t - n));
    return strcmp(name, "nil") == 0 ? NULL : name;
}

/* The index of the generated statement (of the first nu) that holds the byte at, or nu. */
static size_t sp_stmt_holding(const sp_program_t *G, size_t nu, uint32_t at) {
    size_t j = 0;
    while (j < nu && !(G->stmts[j].start <= at && at < G->stmts[j].end))
        j++;
    return j;
}

/* Step 2d of sp_splice_code: false (a diagnostic naming both definitions) when a replaced resource's
 * new code names the variable of an imported resource that is not declared before it. */
static bool sp_replaced_in_order(sp_ctx_t *c, const sp_unit_t *u, size_t nu) {
    const sp_program_t *T = &c->T, *G = &c->G;
    names_table_t *gres = names_table_new(c->a); /* a generated resource's variable → its unit */
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (!*g->res_name || (u[i].mode != SP_INSERT && u[i].mode != SP_REPLACE)) continue;
        for (size_t d = 0; d < g->ndecls; d++)
            if (strcmp(g->decls[d].name, "_") != 0 && !(T->lang == LANG_GO && strcmp(g->decls[d].name, "err") == 0))
                names_table_put(gres, g->decls[d].name, (int)i);
    }
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (u[i].mode != SP_REPLACE) continue;
        for (size_t k = sp_first_site(G, g->start); k < G->nsites && G->sites[k].start <= g->end; k++) {
            const sp_site_t *st = &G->sites[k];
            bool own = st->end > g->end;
            for (size_t d = 0; d < g->ndecls; d++)
                own |= st->start == g->decls[d].start;
            int j = own ? -1 : names_table_get(gres, st->text);
            if (j < 0 || (size_t)j == i) continue;
            if (u[j].mode == SP_REPLACE && u[j].existing->start < u[i].existing->start) continue;
            long line = (long)sp_line_of(T->text, u[i].existing->start);
            diag_t *d;
            if (u[j].mode == SP_REPLACE)
                d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                             "the resource '%s' is rewritten where the file defines it, and its new code names the "
                             "resource '%s', which the file defines after it (line %ld): it would be used before it "
                             "is declared: nothing was changed; move the definition of '%s' above the one of '%s' "
                             "(line %ld), then run the import again",
                             g->res_name, G->stmts[j].res_name, (long)sp_line_of(T->text, u[j].existing->start),
                             G->stmts[j].res_name, g->res_name, line);
            else
                d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                             "the resource '%s' is rewritten where the file defines it, and its new code names the "
                             "resource '%s', which the file does not define: its definition would be added after "
                             "its use, so it would be used before it is declared: nothing was changed; import "
                             "'%s' on its own first and move its definition above line %ld, or define it there "
                             "by hand, then run the import again",
                             g->res_name, G->stmts[j].res_name, G->stmts[j].res_name, line);
            d->line = line;
            return false;
        }
    }
    return true;
}

/* What another file of the program defines (splicer_read_file). */
typedef struct sp_other_res {
    const char *name;      /* "" when it cannot be read */
    const char *type;      /* canonical in its file; NULL for a class not traced to an import */
    const char *call;      /* the constructor up to its `(`, on one line */
    const char *name_text; /* the name's expression, when it cannot be read */
    bool has_parent;
    unsigned line;
} sp_other_res_t;

struct sp_file_defs {
    sp_program_t p; /* its language and imports (sp_types_match) */
    sp_other_res_t *res;
    size_t nres;
};

/* The classes the program declares: the target's and its other files' (sp_class_component's tables). */
static size_t sp_program_classes(sp_ctx_t *c, const sp_class_t ***tabs, size_t **ns) {
    *tabs = arena_alloc(c->a, (c->n_others + 1) * sizeof(const sp_class_t *));
    *ns = arena_alloc(c->a, (c->n_others + 1) * sizeof **ns);
    (*tabs)[0] = c->T.classes;
    (*ns)[0] = c->T.nclasses;
    size_t k = 1;
    for (size_t f = 0; f < c->n_others; f++) {
        const struct sp_file_defs *o = c->others[f].defs;
        if (!o) continue;
        (*tabs)[k] = o->p.classes;
        (*ns)[k++] = o->p.nclasses;
    }
    return k;
}

/* Python: whether module m (its first ml bytes) is a file of the program (m.py or m/__init__.py among
 * its other files, by the end of their names). */
static bool sp_py_program_module(const sp_ctx_t *c, const char *m, size_t ml) {
    char *path = arena_alloc(c->a, ml + 1);
    for (size_t i = 0; i < ml; i++)
        path[i] = m[i] == '.' ? '/' : m[i];
    path[ml] = 0;
    for (size_t f = 0; f < c->n_others; f++) {
        const char *nm = c->others[f].name;
        for (int k = 0; k < 2; k++) {
            const char *tail = k ? "/__init__.py" : ".py";
            size_t n = strlen(nm), tl = strlen(tail);
            if (n < ml + tl || strcmp(nm + n - tl, tail) != 0 || memcmp(nm + n - tl - ml, path, ml) != 0) continue;
            if (n == ml + tl || nm[n - tl - ml - 1] == '/') return true;
        }
    }
    return false;
}

/* Whether `type` (canonical in prog, a file of the program) is a class of the program's own that
 * cimport cannot trace to a package's class: reached through a local module (TypeScript `./str.Str`,
 * Python `strs.Str` of a module among the program's files, or a package's class that module
 * re-exports: `./lib.RS`), or C#/Java a plain name (`*.Str`) another file of the namespace declares —
 * and no component (sp_class_component): a subclass of a package's resource class has that
 * resource's type (read18 F2), so a resource of it may be one the import adds. */
static bool sp_untraced_local_class(sp_ctx_t *c, const sp_program_t *prog, const char *type) {
    if (!type) return false;
    bool local = false;
    const char *member = strrchr(type, '.');
    member = member ? member + 1 : type;
    const sp_class_t **tabs;
    size_t *ns, nt = 0;
    if (prog->lang == LANG_TYPESCRIPT) {
        local = type[0] == '.';
    } else if (prog->lang == LANG_PYTHON) {
        local = type[0] == '.';
        for (const char *d = strchr(type, '.'); d && !local; d = strchr(d + 1, '.'))
            local = sp_py_program_module(c, type, (size_t)(d - type));
    } else if ((prog->lang == LANG_CSHARP || prog->lang == LANG_JAVA) && strncmp(type, "*.", 2) == 0) {
        nt = sp_program_classes(c, &tabs, &ns);
        local = sp_class_component(tabs, ns, nt, member, strlen(member)) == 0;
        return local;
    }
    if (!local) return false;
    if (!nt) nt = sp_program_classes(c, &tabs, &ns);
    return sp_class_component(tabs, ns, nt, member, strlen(member)) != 1;
}

/* A resource the import adds that another file of the program defines, or may define (a name that
 * cannot be read, a class that cannot be traced): one URN twice, which `pulumi up` refuses. Refused,
 * each such resource named with that file and line; replacing it there would edit a file the user
 * did not name. False when refused. */
static bool sp_check_others(sp_ctx_t *c, const sp_unit_t *u, size_t nu) {
    const sp_program_t *G = &c->G;
    size_t errors = 0;
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (g->is_return || !*g->res_name || u[i].mode == SP_REPLACE) continue;
        bool g_parent = sp_parent_text(&c->G, g) != NULL;
        for (size_t f = 0; f < c->n_others; f++) {
            const struct sp_file_defs *o = c->others[f].defs;
            const char *oname = c->others[f].name;
            for (size_t r = 0; o && r < o->nres; r++) {
                const sp_other_res_t *t = &o->res[r];
                diag_t *d = NULL;
                bool local = t->type && *t->name && strcmp(t->name, g->res_name) == 0 &&
                             !sp_types_match(&o->p, t->type, g->res_type) && sp_untraced_local_class(c, &o->p, t->type);
                if (t->type && *t->name && !local) {
                    /* one with a parent and one without are two URNs */
                    if (strcmp(t->name, g->res_name) != 0 || !sp_types_match(&o->p, t->type, g->res_type) ||
                        t->has_parent != g_parent)
                        continue;
                    /* a TypeScript or Python module runs its own code, which a splice can replace; a Go, C# or
                     * Java file of helpers has no program body to splice into */
                    bool there = G->lang == LANG_TYPESCRIPT || G->lang == LANG_PYTHON;
                    d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, oname, NULL,
                                 "this file of the program defines the resource '%s' (`%s`), and the import would add "
                                 "it to %s a second time: one URN twice, which `pulumi up` refuses: nothing was "
                                 "changed; leave '%s' out of this import, or %s%s%s",
                                 g->res_name, t->call, c->file, g->res_name,
                                 there ? "import it into " : "change its definition in ", oname,
                                 there ? ", where its definition would be replaced in place" : " by hand");
                } else if (t->type && !local) {
                    if (!sp_types_match(&o->p, t->type, g->res_type)) continue;
                    d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, oname, NULL,
                                 "this file of the program creates a resource (`%s`) under a name cimport cannot read "
                                 "(`%s`), and the import adds '%s' of that type to %s, which may be the same "
                                 "resource: nothing was changed; write that name as a string literal, or add the new "
                                 "resource's code by hand",
                                 t->call, t->name_text, g->res_name, c->file);
                } else {
                    if (strcmp(t->name, g->res_name) != 0) continue;
                    d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, oname, NULL,
                                 "this file of the program constructs `%s` named '%s', a class cimport cannot trace to "
                                 "an import of its package (an alias, a class of the program's own that is no "
                                 "component, or an import form it does not read), and the "
                                 "import adds the resource '%s' to %s, which may be the same resource: nothing was "
                                 "changed; write the class through a plain import of its package, or add the new "
                                 "resource's code by hand",
                                 t->call, t->name, g->res_name, c->file);
                }
                d->line = (long)t->line;
                errors++;
                break; /* one reason a file gives for each resource */
            }
        }
    }
    return errors == 0;
}

static bool sp_splice_code(sp_ctx_t *c) {
    sp_program_t *T = &c->T, *G = &c->G;
    size_t nu = G->nstmts;
    sp_unit_t *u = arena_alloc(c->a, (nu + 1) * sizeof *u);
    bool *res_used = arena_alloc(c->a, (T->nres + 1) * sizeof *res_used);
    sp_index_target(c);
    /* The file's resources by logical name: the first of each name, and the next of the same name. */
    names_table_t *res_first = names_table_new(c->a);
    int *res_next = arena_alloc(c->a, (T->nres + 1) * sizeof *res_next);
    for (size_t r = T->nres; r-- > 0;) {
        int f = names_table_get(res_first, T->res[r].res_name);
        res_next[r] = f;
        names_table_put(res_first, T->res[r].res_name, (int)r);
    }

    /* 0. Go, Java: the new code passes the program's Context parameter under the name the file gives it. */
    if (T->ctx_name && G->ctx_name) sp_rename(c, G->ctx_name, T->ctx_name);

    /* 1. imports: the file's alias for a package it already imports; a fresh one on a clash. */
    const char **glocal = arena_alloc(c->a, (G->nimports + 1) * sizeof *glocal);
    bool *gpresent = arena_alloc(c->a, (G->nimports + 1) * sizeof *gpresent);
    for (size_t i = 0; i < G->nimports; i++) {
        const sp_import_t *g = &G->imports[i];
        const sp_import_t *t = sp_find_import(T, g);
        glocal[i] = g->local;
        if (t) {
            gpresent[i] = true;
            if (g->local && t->local && strcmp(g->local, t->local) != 0) sp_rename(c, g->local, t->local);
            continue;
        }
        if (!g->local || !names_table_has(T->names, g->local)) continue;
        if (T->lang == LANG_JAVA) {
            /* Another class of that simple name is imported: write this one fully qualified. */
            sp_rename(c, g->local, g->path);
            gpresent[i] = true;
            continue;
        }
        glocal[i] = sp_fresh(c, g->local, NULL);
        sp_rename(c, g->local, glocal[i]);
    }

    /* 2a. the file's resources the generated ones replace */
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        u[i].go_define = -1;
        if (g->is_return || !*g->res_name || c->keep_existing) continue;
        /* Of several of its type and name (under different parents), the one with the import's parent
         * (none for none); else the first. Two with that parent (`if prod: x = R("n", ...) else:
         * x = R("n", ...)`): which one the import is cannot be told — replacing one leaves the other
         * creating the resource where it runs. Refused. */
        int pick = -1, n_cand = 0;
        for (int r = names_table_get(res_first, g->res_name); r >= 0; r = res_next[r])
            if (!res_used[r] && sp_types_match(T, T->res[r].res_type, g->res_type) && n_cand++ == 0) pick = r;
        if (n_cand > 1) {
            const char *gp = sp_parent_text(G, g);
            int same = -1, second = -1, n_same = 0;
            for (int r = pick; r >= 0; r = res_next[r]) {
                if (res_used[r] || !sp_types_match(T, T->res[r].res_type, g->res_type)) continue;
                const char *tp = sp_parent_text(T, &T->res[r]);
                if (!(gp ? tp && strcmp(gp, tp) == 0 : !tp)) continue;
                if (n_same++ == 0)
                    same = pick = r;
                else if (second < 0)
                    second = r;
            }
            /* as many as the import has of that name, type and parent from here on: each its own */
            int twins = 0;
            for (size_t j = i; j < nu && n_same > 1; j++) {
                const sp_stmt_t *h = &G->stmts[j];
                if (h->is_return || !h->res_type || strcmp(h->res_name, g->res_name) != 0 ||
                    strcmp(h->res_type, g->res_type) != 0)
                    continue;
                const char *hp = sp_parent_text(G, h);
                twins += gp ? hp && strcmp(gp, hp) == 0 : !hp;
            }
            if (n_same > twins && second >= 0) {
                diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                                     "the program defines the resource '%s' of this type here and again at line %ld "
                                     "(in branches of which one runs, or twice), and cimport cannot tell which "
                                     "definition the import is: replacing one would leave the other creating the "
                                     "resource where it runs: nothing was changed; make them one definition, or add "
                                     "the import to each by hand",
                                     g->res_name, (long)sp_line_of(T->text, T->res[second].res_start));
                d->line = (long)sp_line_of(T->text, T->res[same].res_start);
                return false;
            }
        }
        if (pick >= 0) {
            int r = pick;
            res_used[r] = true;
            u[i].mode = SP_REPLACE;
            u[i].existing = &T->res[r];
            /* `return new X(...)`, `export const x = new X(...)`, `[new X(...)]`: the call alone, so
             * the statement still does what it did with it */
            u[i].call_only = u[i].returned = sp_is_returned(T, &T->res[r]);
            /* (a Go component's registration: the call alone, 2b) */
            if (!u[i].call_only && T->lang != LANG_YAML &&
                !(T->lang == LANG_GO && strncmp(g->res_type, "component ", 10) == 0))
                u[i].call_only = u[i].wrapped = sp_wraps_call(T, &T->res[r], &u[i].file_var);
        }
    }
    /* A resource the import adds where the file creates one of its class under a name that cannot be
     * read (`new X(name)`, a loop's, a function's parameter): that may be this very name, and two
     * resources of one type and name have one URN (`pulumi up` fails). Refused. */
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (g->is_return || !*g->res_name || u[i].mode == SP_REPLACE) continue;
        for (size_t r = 0; r < T->nunread; r++) {
            const sp_stmt_t *t = &T->unread[r];
            if (!t->res_type || !sp_types_match(T, t->res_type, g->res_type) ||
                (t->comp_token && g->comp_token && strcmp(t->comp_token, g->comp_token) != 0))
                continue;
            const char *paren = memchr(T->text + t->res_start, '(', t->res_end - t->res_start);
            uint32_t ce = paren ? (uint32_t)(paren - T->text) : t->res_end;
            diag_t *d =
                diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                         "the program creates a resource here (`%s`) under a name cimport cannot read "
                         "(`%s`), and the import adds '%s' of that type, which may be the same resource: "
                         "nothing was changed; write that name as a string literal, or add the new "
                         "resource's code by hand",
                         sp_one_line(c->a, T->text + t->res_start, ce - t->res_start, 80),
                         sp_one_line(c->a, T->text + t->name_start, t->name_end - t->name_start, 60), g->res_name);
            d->line = (long)sp_line_of(T->text, t->res_start);
            return false;
        }
    }
    if (c->opts && c->opts->program_files) {
        /* the program's other files, found from the modules this one imports */
        const char **mods;
        size_t nrun, nm = sp_module_refs(T, &mods, &nrun); /* all of them: what any defines counts */
        if (!c->opts->program_files(c->opts->program_files_user, c->s, mods, nm, &c->others, &c->n_others, c->diags))
            return false;
        if (c->n_others && !sp_check_others(c, u, nu)) return false;
    }
    /* The file's resources kept: one of the new code's type, name and parent would be a second
     * resource of one URN. */
    for (size_t i = 0; c->keep_existing && i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (g->is_return || !*g->res_name) continue;
        for (int r = names_table_get(res_first, g->res_name); r >= 0; r = res_next[r]) {
            const sp_stmt_t *t = &T->res[r];
            if (!sp_types_match(T, t->res_type, g->res_type)) continue;
            const char *tp = sp_parent_text(T, t), *gp = sp_parent_text(G, g);
            if ((tp || gp) && !(tp && gp && strcmp(gp, tp) == 0)) continue;
            sp_refuse_kept_twin(c, g->res_name, (long)sp_line_of(T->text, t->res_start));
            return false;
        }
    }
    /* A resource the import adds that the file imports already under another name (the same type and
     * `import` ID): refused. The file's resources by import ID (the first of each, and the next of the
     * same ID) are read once, when the first new resource with an ID is compared: comparing each new
     * resource with every resource of the file was quadratic (1,000 imported into a file of 25,000
     * resources of their type: 25 million comparisons, ~0.3 s of a language server's insert). */
    names_table_t *id_first = NULL;
    int *id_next = NULL;
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (g->is_return || !*g->res_name || u[i].mode == SP_REPLACE) continue;
        const char *id = sp_import_id(G, g);
        if (!id) continue;
        if (!id_first) {
            id_first = names_table_new(c->a);
            id_next = arena_alloc(c->a, (T->nres + 1) * sizeof *id_next);
            for (size_t r = T->nres; r-- > 0;) {
                const char *tid = sp_import_id(T, &T->res[r]);
                id_next[r] = tid ? names_table_get(id_first, tid) : -1;
                if (tid) names_table_put(id_first, tid, (int)r);
            }
        }
        for (int r = names_table_get(id_first, id); r >= 0; r = id_next[r]) {
            const sp_stmt_t *t = &T->res[r];
            if (strcmp(t->res_name, g->res_name) == 0 || !sp_types_match(T, t->res_type, g->res_type)) continue;
            /* Under another provider (an explicit one on either side, or two written differently): an
             * object of another account or region may have that ID, which the engine keeps apart too
             * (35f621d keys objects by provider configuration): not refused (read18 F16). */
            const char *tpv = sp_option_text(T, t, "provider"), *gpv = sp_option_text(G, g, "provider");
            if ((tpv || gpv) && !(tpv && gpv && strcmp(tpv, gpv) == 0)) continue;
            sp_refuse_same_id(c, g->res_name, id, t->res_name, (long)sp_line_of(T->text, t->res_start));
            return false;
        }
    }
    /* A component the import adds where the file creates one of that name with a component class of
     * its own (`class Server extends pulumi.ComponentResource`, `new Server("server")`): one URN
     * twice when the class gives its base the same type, or may give it (a type it computes).
     * Replacing the instance with a plain ComponentResource would drop what the class creates:
     * refused. */
    sp_stmt_t *inst = NULL;
    size_t ninst = 0;
    bool inst_read = false;
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (g->is_return || !g->comp_token || u[i].mode == SP_REPLACE) continue;
        if (!inst_read) ninst = sp_class_components(T, &inst);
        inst_read = true;
        for (size_t r = 0; r < ninst; r++) {
            const sp_stmt_t *t = &inst[r];
            if ((*t->res_name && strcmp(t->res_name, g->res_name) != 0) ||
                (t->comp_token && strcmp(t->comp_token, g->comp_token) != 0))
                continue;
            const char *what = t->comp_token
                                   ? arena_sprintf(c->a, "of type %s", t->comp_token)
                                   : arena_sprintf(c->a, "a component whose type cimport cannot read from its class");
            diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                                 "the program creates a component here with its class %s (`%s`), %s, and the import "
                                 "adds the component '%s' (%s), which may be the same one: nothing was changed; add "
                                 "the new resources' code by hand, with that component as their parent",
                                 t->res_type, sp_one_line(c->a, T->text + t->res_start, t->res_end - t->res_start, 60),
                                 what, g->res_name, g->comp_token);
            d->line = (long)sp_line_of(T->text, t->res_start);
            return false;
        }
    }
    /* A resource the import adds where the file constructs something of that literal name with a class
     * cimport cannot trace to an import of its package (`const RS = random.RandomString`, Python
     * `R2 = pulumi_random.RandomString`, TypeScript's `import random = require(...)`): it may be the
     * same resource, added a second time (one URN twice). Refused. */
    names_table_t *untyped = names_table_new(c->a); /* their names → the first of each */
    for (size_t r = T->nunread; r-- > 0;)
        if (!T->unread[r].res_type) names_table_put(untyped, T->unread[r].res_name, (int)r);
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (g->is_return || !*g->res_name || u[i].mode == SP_REPLACE) continue;
        int r = names_table_get(untyped, g->res_name);
        const sp_stmt_t *t = r >= 0 ? &T->unread[r] : NULL;
        /* or one of that name constructed with a class of the program's own reached through another
         * file (its module, or C#/Java its namespace) that is no component (read18 F2) */
        for (int k = names_table_get(res_first, g->res_name); !t && k >= 0; k = res_next[k])
            if (!sp_types_match(T, T->res[k].res_type, g->res_type) &&
                sp_untraced_local_class(c, T, T->res[k].res_type)) {
                t = &T->res[k];
                /* the call's class: up to its arguments */
                const char *paren = memchr(T->text + t->res_start, '(', t->res_end - t->res_start);
                sp_stmt_t *cp = arena_alloc(c->a, sizeof *cp);
                *cp = *t;
                cp->end = paren ? (uint32_t)(paren - T->text) : t->res_end;
                t = cp;
            }
        if (t) {
            const char *gparen = memchr(G->text + g->res_start, '(', g->res_end - g->res_start);
            uint32_t gce = gparen ? (uint32_t)(gparen - G->text) : g->res_end;
            const char *callee = sp_one_line(c->a, T->text + t->res_start, t->end - t->res_start, 80),
                       *made = sp_one_line(c->a, G->text + g->res_start, gce - g->res_start, 80);
            diag_t *d =
                T->lang == LANG_GO
                    ? diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                               "the program calls `%s` with the name '%s' here, a function cimport cannot trace to "
                               "a constructor of a package it imports (a function value, a method of a value, a dot "
                               "import), and the import adds the resource '%s', which may be the same resource: "
                               "nothing was changed; call the constructor through its package, as the new code "
                               "does (`%s`), or add the new resource's code by hand",
                               callee, t->res_name, g->res_name, made)
                    : diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                               "the program constructs `%s` named '%s' here, a class cimport cannot trace to an "
                               "import of its package (an alias, a class of the program's own that is no component, or "
                               "an import form it does not read), and the "
                               "import adds the resource '%s', which may be the same resource: nothing was "
                               "changed; write the class through a plain import of its package, as the new code "
                               "does (`%s`), or add the new resource's code by hand",
                               callee, t->res_name, g->res_name, made);
            d->line = (long)sp_line_of(T->text, t->res_start);
            return false;
        }
    }
    /* A returned or wrapped resource has no variable where the new code could name it: refused when
     * it does. */
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (!(u[i].returned || (u[i].wrapped && !u[i].file_var)) || !g->ndecls || strcmp(g->decls[0].name, "_") == 0)
            continue;
        for (size_t k = 0; k < G->nsites; k++) {
            const sp_site_t *st = &G->sites[k];
            if (strcmp(st->text, g->decls[0].name) != 0 || (st->start >= g->start && st->start < g->end)) continue;
            size_t j = sp_stmt_holding(G, nu, st->start);
            if (j == nu || G->stmts[j].is_return) continue;
            const sp_stmt_t *t = u[i].existing;
            const char *what = "the value of a `return` statement";
            if (!u[i].returned) {
                /* the statement up to the call's arguments, on one line */
                uint32_t e = t->res_start;
                while (e < t->res_end && T->text[e] != '(')
                    e++;
                what = arena_sprintf(
                    c->a,
                    "not the value of a variable of its own in the program (`%s...` does more "
                    "with it)",
                    sp_one_line(c->a, T->text + t->start, (e < t->res_end ? e + 1 : e) - t->start, SIZE_MAX));
            }
            diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                                 "the resource '%s' is %s, and the new code names it as a variable: nothing was "
                                 "changed; assign it to a variable in the program's body, or import the resources "
                                 "that name it into another file",
                                 g->res_name, what);
            d->line = (long)sp_line_of(T->text, u[i].existing->res_start);
            return false;
        }
    }
    /* 2b. Go: a component's registration is replaced in its call only, so the statement around it
     * stays as the file has it (`err := ...`, `if err := ...; err != nil {`). When the file registers
     * it with a state variable of its own (`web := &Server{}`), that variable stands for the
     * generated one (`pulumi.Parent(web)`, as C# and TypeScript keep the file's name) and the
     * generated state statement is not added: the file declares it before its use. */
    if (T->lang == LANG_GO) {
        for (size_t i = 0; i < nu; i++) {
            const sp_stmt_t *g = &G->stmts[i];
            if (u[i].mode != SP_REPLACE || strncmp(g->res_type, "component ", 10) != 0) continue;
            u[i].call_only = true;
            const char *tv = u[i].existing->comp_state;
            if (!g->comp_state || !tv) continue;
            /* Registered elsewhere than the program's body (a function of its own): its variable is
             * not in scope where the new code names it as a parent. */
            if (!sp_body_stmt_at(T, u[i].existing->start)) {
                bool named = false;
                for (size_t k = 0; k < G->nsites && !named; k++)
                    named = strcmp(G->sites[k].text, g->comp_state) == 0 &&
                            (G->sites[k].start < g->start || G->sites[k].start >= g->end) &&
                            (i == 0 || G->sites[k].start >= G->stmts[i - 1].end ||
                             G->sites[k].start < G->stmts[i - 1].start);
                if (named) {
                    diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                                         "the component '%s' (%s) is registered outside the program's body, where "
                                         "the resources it is the parent of go: its variable '%s' is not in scope "
                                         "there; register it in the body, or import them into another file",
                                         g->res_name, g->res_type + 10, tv);
                    d->line = (long)sp_line_of(T->text, u[i].existing->res_start);
                    return false;
                }
            }
            /* `&web` stands for the generated pointer wherever the new code names it as a value; a
             * selector on it (`server.URN()`) would read `&web.URN()`: refused */
            for (size_t k = 0; tv[0] == '&' && k < G->nsites; k++) {
                const sp_site_t *st = &G->sites[k];
                if (strcmp(st->text, g->comp_state) != 0 || st->end >= G->len || G->text[st->end] != '.') continue;
                diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                                     "the component '%s' is registered with `%s`, and the new code reads a field of "
                                     "its state: nothing was changed; register it with a pointer variable "
                                     "(`web := &Server{}`) and run again",
                                     g->res_name, tv);
                d->line = (long)sp_line_of(T->text, u[i].existing->res_start);
                return false;
            }
            for (size_t j = 0; j < i; j++) {
                const sp_stmt_t *s = &G->stmts[j];
                if (u[j].mode != SP_SKIP || *s->res_name || s->ndecls != 1 ||
                    strcmp(s->decls[0].name, g->comp_state) != 0)
                    continue;
                u[j].mode = SP_REUSE;
                c->stats.reused++;
            }
            sp_rename(c, g->comp_state, tv);
        }
    }

    sp_place(c, u, nu);

    /* 2. statements: replace, reuse or insert; names for what they declare. */
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (g->is_return || u[i].mode == SP_REUSE) continue;
        /* used only by resources in blocks of their own: copies go there (sp_fill_slot) */
        if (!*g->res_name && u[i].body_at == SP_AT_NONE) continue;
        if (u[i].mode == SP_REPLACE && u[i].call_only) {
            /* `export const x = new X(...)`: the file's x stands for the generated variable */
            if (u[i].file_var && g->ndecls && strcmp(g->decls[0].name, "_") != 0)
                sp_rename(c, g->decls[0].name, u[i].file_var);
            c->stats.replaced++;
            continue;
        }
        if (u[i].mode == SP_REPLACE) {
            const sp_stmt_t *t = u[i].existing;
            const char *gv = g->ndecls ? g->decls[0].name : NULL;
            const char *tv = t->ndecls ? t->decls[0].name : NULL;
            if (gv && strcmp(gv, "_") != 0) {
                if (tv && strcmp(tv, "_") != 0)
                    sp_rename(c, gv, tv);
                else
                    sp_rename(c, gv, sp_fresh(c, gv, g->res_type));
            } else if (gv && tv && strcmp(tv, "_") != 0) {
                u[i].decl0 = tv;
            }
            c->stats.replaced++;
            continue;
        }
        /* A statement that is not a resource and is already in the file as written (a config
         * read from an earlier run) is reused with its names — if it comes before the first statement
         * that uses it (the user's `const config = new pulumi.Config()` after the resource a new read
         * goes before is not). Before that one, a statement that says the same under another name (an
         * earlier run's `config2`) is reused under its name. */
        if (!*g->res_name && g->ndecls > 0) {
            const sp_stmt_t *t = sp_target_decl(c, sp_renamed(c, g->decls[0].name));
            if (t && t->start < u[i].body_at) {
                const char *gt = sp_rewrite(c, g->start, g->end, NULL, 0, "");
                if (strcmp(sp_squash(c->a, gt, strlen(gt)), sp_squash(c->a, T->text + t->start, t->end - t->start)) ==
                    0) {
                    u[i].mode = SP_REUSE;
                    c->stats.reused++;
                    continue;
                }
            }
            for (size_t k = 0;
                 T->stmts && u[i].body_at < SP_AT_END && k < T->nstmts && T->stmts[k].start < u[i].body_at; k++) {
                if (!sp_same_but_name(c, g, &T->stmts[k], NULL)) continue;
                sp_rename(c, g->decls[0].name, T->stmts[k].decls[0].name);
                u[i].mode = SP_REUSE;
                c->stats.reused++;
                break;
            }
            if (u[i].mode == SP_REUSE) continue;
        }
        u[i].mode = SP_INSERT;
        for (size_t k = 0; k < g->ndecls; k++) {
            const char *d = g->decls[k].name;
            if (strcmp(d, "_") == 0 || (T->lang == LANG_GO && strcmp(d, "err") == 0)) continue;
            if (names_table_has(T->names, d) || names_table_has(c->taken, d) || names_table_get(c->rename, d) >= 0 ||
                sp_cs_declared(c, d)) {
                const char *f = sp_fresh(c, d, k == 0 ? g->res_type : NULL);
                sp_rename(c, d, f);
                c->stats.renamed++;
            } else {
                names_table_reserve(c->taken, d);
            }
        }
        if (*g->res_name) c->stats.inserted++; /* resources: not the config reads or Go's component state */
    }

    /* 2c. A resource replaced in a block of its own (a function's) keeps the file's variable, which
     * is not in scope where the new code that names it goes (its children at the program's end): refused
     * unless that code replaces definitions later in the same block. (Go's components: 2b.) */
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (u[i].mode != SP_REPLACE || u[i].call_only || !g->ndecls || strcmp(g->decls[0].name, "_") == 0 ||
            sp_body_stmt_at(T, u[i].existing->start))
            continue;
        const sp_stmt_t *t = u[i].existing;
        uint32_t bs = 0, be = 0;
        bool have_block = sp_block_range(T, t->start, &bs, &be);
        for (size_t k = 0; k < G->nsites; k++) {
            const sp_site_t *st = &G->sites[k];
            if (strcmp(st->text, g->decls[0].name) != 0 || (st->start >= g->start && st->start < g->end)) continue;
            size_t j = sp_stmt_holding(G, nu, st->start);
            if (j == nu || (u[j].mode != SP_INSERT && u[j].mode != SP_REPLACE)) continue;
            if (u[j].mode == SP_REPLACE && have_block && u[j].existing->start >= t->end && u[j].existing->end <= be)
                continue;
            diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                                 "the resource '%s' is defined outside the program's body, and the new code names its "
                                 "variable '%s' where that is not in scope: nothing was changed; define it in the "
                                 "program's body, or import the resources that name it into another file",
                                 g->res_name, t->ndecls ? t->decls[0].name : g->decls[0].name);
            d->line = (long)sp_line_of(T->text, t->res_start);
            return false;
        }
    }

    /* 2d. A replaced resource is rewritten where the file defines it, and its new code may name another
     * imported resource's variable (`seed: serverName.id`, `dependsOn`): that one must be declared before
     * it, by a definition the file has earlier — not one it has later, nor one the splice adds (at the
     * end of the body, or in another scope). Moving the user's statements is theirs to decide: refused. */
    if (T->lang != LANG_YAML && !sp_replaced_in_order(c, u, nu)) return false;

    /* 3. Go: `:=` when the statement declares a name not yet declared before it, else `=`. */
    if (T->lang == LANG_GO) {
        names_table_t *declared = names_table_new(c->a);
        for (size_t k = 0; k < T->nstmts; k++)
            for (size_t d = 0; d < T->stmts[k].ndecls; d++)
                names_table_reserve(declared, T->stmts[k].decls[d].name);
        for (size_t i = 0; i < nu; i++) {
            const sp_stmt_t *g = &G->stmts[i];
            if ((u[i].mode != SP_INSERT && u[i].mode != SP_REPLACE) || g->op_end == 0 || u[i].call_only) continue;
            bool any_new = false;
            for (size_t k = 0; k < g->ndecls; k++) {
                const char *nm = k == 0 && u[i].decl0 ? u[i].decl0 : sp_renamed(c, g->decls[k].name);
                if (strcmp(nm, "_") == 0) continue;
                /* A replaced statement: declared by a statement of the file before it? */
                bool before;
                if (u[i].mode == SP_REPLACE) {
                    int f = names_table_get(c->decl_first, nm);
                    before = f >= 0 && T->stmts[f].start < u[i].existing->start;
                } else {
                    before = names_table_has(declared, nm);
                }
                if (!before) any_new = true;
                if (u[i].mode == SP_INSERT) names_table_reserve(declared, nm);
            }
            u[i].go_define = any_new;
        }
    }

    /* 3b. the statements resources in blocks of their own need, placed there */
    for (size_t k = 0; k < c->nslots; k++)
        if (!sp_fill_slot(c, u, nu, k)) return false;

    /* 4. the text of each statement */
    const char *B = T->base_indent;
    for (size_t i = 0; i < nu; i++) {
        const sp_stmt_t *g = &G->stmts[i];
        if (u[i].mode != SP_INSERT && u[i].mode != SP_REPLACE) continue;
        size_t cex = 4, nex = 0;
        sp_local_edit_t *ex = arena_alloc(c->a, cex * sizeof *ex);
        if (u[i].decl0) ex[nex++] = (sp_local_edit_t){g->decls[0].start, g->decls[0].end, u[i].decl0};
        if (u[i].go_define >= 0) ex[nex++] = (sp_local_edit_t){g->op_start, g->op_end, u[i].go_define ? ":=" : "="};
        /* a resource in a block of its own: the names of the statements placed before it there */
        if (u[i].mode == SP_REPLACE && u[i].nnested)
            nex = sp_slot_edits(c, &c->slots[u[i].nested[0]], g, NULL, &ex, nex, &cex);
        bool early = u[i].mode == SP_INSERT && !*g->res_name && u[i].body_at < SP_AT_END;
        const char *base = u[i].mode == SP_REPLACE ? sp_line_indent(T, u[i].existing->start)
                           : early                 ? sp_line_indent(T, u[i].body_at)
                                                   : B;
        if (u[i].call_only) base = sp_line_indent(T, u[i].existing->res_start);
        /* the user's resource options on the definition replaced are kept */
        if (u[i].mode == SP_REPLACE && !sp_keep_options(c, g, u[i].existing, base, &ex, &nex, &cex)) return false;
        if (u[i].call_only) {
            const sp_stmt_t *t = u[i].existing;
            /* only the edits inside the call (the slot's names) */
            size_t nin = 0;
            for (size_t k = 0; k < nex; k++)
                if (ex[k].start >= g->res_start && ex[k].end <= g->res_end) ex[nin++] = ex[k];
            u[i].core = sp_rewrite(c, g->res_start, g->res_end, ex, nin, base);
            /* inside a string's interpolation (an f-string's replacement field), the new code must be
             * what the language's earlier versions read there too (read15 F15) */
            const char *why = sp_interpolation_fault(T, t->res_start, t->res_end, u[i].core);
            if (why) {
                diag_t *d = diag_add(
                    c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                    "the resource '%s' is constructed inside %s (`%s(...)`), where its new code would hold %s: "
                    "nothing was changed; construct it in a statement of its own, assign it to a variable and use "
                    "the variable there, then run again",
                    g->res_name, T->lang == LANG_PYTHON ? "an f-string" : "an interpolated string",
                    sp_call_head(c->a, T, t), why);
                d->line = (long)sp_line_of(T->text, t->res_start);
                return false;
            }
            sp_add_edit(c, t->res_start, t->res_end, u[i].core);
            continue;
        }
        u[i].core = sp_rewrite(c, g->start, g->end, ex, nex, base);
        if (u[i].mode == SP_REPLACE) sp_add_edit(c, u[i].existing->start, u[i].existing->end, u[i].core);
    }

    sp_go_unused_decls(c, u, nu);

    /* 5a. A new statement that is no resource (a config read) goes right before the first statement of
     * the program body that uses it (sp_place), when that is a replaced resource: at the end it would
     * be declared after its use. */
    const bool *early = arena_alloc(c->a, (nu ? nu : 1) * sizeof(bool));
    for (size_t i = 0; i < nu; i++) {
        ((bool *)early)[i] = u[i].mode == SP_INSERT && !*G->stmts[i].res_name && u[i].body_at < SP_AT_END;
        if (!early[i]) continue;
        const char *ind = sp_line_indent(T, u[i].body_at);
        SP_PUSH(c->a, c->edits, c->nedits, c->cedits);
        c->edits[c->nedits - 1] = (sp_edit_t){u[i].body_at, u[i].body_at,
                                              arena_sprintf(c->a, "%s%s%s", u[i].core, c->nl, ind), c->nedits, true};
    }

    /* 5. the new statements, as one block at the insertion point */
    bool sep = sp_gen_uses_blank_lines(G);
    buf_t b;
    buf_init(&b);
    size_t ninsert = 0, prev = SIZE_MAX;
    for (size_t i = 0; i < nu; i++) {
        if (u[i].mode != SP_INSERT || early[i]) continue;
        /* Between statements that were neighbours in the generated program, its spacing. */
        bool blank = sep;
        if (prev == i - 1 && i > 0) {
            int nls = 0;
            for (uint32_t k = G->stmts[i - 1].end; k < G->stmts[i].start; k++)
                nls += G->text[k] == '\n';
            blank = nls >= 2;
        }
        if (ninsert++ && blank) buf_puts(&b, c->nl);
        prev = i;
        buf_printf(&b, "%s%s%s", B, u[i].core, c->nl);
    }
    if (ninsert && T->stuck_at != UINT32_MAX) {
        const char *why =
            T->lang == LANG_GO
                ? "the program's body ends with a statement that never completes (every way through it returns or "
                  "jumps): new statements after it would never run, and none can go before it with certainty (it "
                  "may check the error of the statement before it)"
                : "the program's body ends with a statement that may leave it (a return or a jump inside it), and "
                  "the body holds a `goto`: new statements after that statement may not run, and the goto may pass "
                  "them before it";
        diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                             "%s: nothing was changed; end the body with a `return` statement, or add the "
                             "definitions by hand",
                             why);
        d->line = (long)sp_line_of(T->text, T->stuck_at);
        buf_free(&b);
        return false;
    }
    if (ninsert) {
        /* Go: the body ends `return err` (after `_, err := NewX(...)`), and the new statements assign err
         * too: that error is returned before them, as the `return` did, not overwritten by theirs. */
        const char *kept = T->lang == LANG_GO ? sp_go_returned_name(T) : NULL;
        bool guard = false;
        for (size_t i = 0; kept && i < nu && !guard; i++)
            for (size_t k = 0; u[i].mode == SP_INSERT && !early[i] && k < G->stmts[i].ndecls && !guard; k++)
                guard = strcmp(sp_renamed(c, G->stmts[i].decls[k].name), kept) == 0;
        if (guard) {
            buf_t gb;
            buf_init(&gb);
            buf_printf(&gb, "%sif %s != nil {%s%s%sreturn %s%s%s}%s", B, kept, c->nl, B, T->unit, kept, c->nl, B,
                       c->nl);
            buf_append(&gb, b.data, b.len);
            buf_free(&b);
            b = gb;
        }
        const char *block = buf_arena_str(&b, c->a);
        const char *pre = "", *post = "";
        if (T->insert_at_line) {
            /* Code goes apart from the imports it follows, as generated programs have it. */
            bool after_imports = T->nimports > 0 && T->insert_at == sp_line_end(T->text, T->len, T->imports_end - 1);
            if ((sep || after_imports) && !sp_line_blank_before(T, T->insert_at)) pre = c->nl;
            if (sep && T->insert_at < T->len) {
                uint32_t k = T->insert_at;
                while (k < T->len && (T->text[k] == ' ' || T->text[k] == '\t'))
                    k++;
                if (k < T->len && T->text[k] != '}' && T->text[k] != '\n' && T->text[k] != '\r') post = c->nl;
            }
        } else if (T->insert_at == T->len) {
            /* The file has no final newline: keep it that way. */
            size_t bl = strlen(block) - strlen(c->nl);
            block = arena_sprintf(c->a, "%s%s%.*s", c->nl, sep ? c->nl : "", (int)bl, block);
        } else {
            pre = c->nl;
            post = T->close_indent;
        }
        sp_add_edit(c, T->insert_at - T->insert_del, T->insert_at, arena_sprintf(c->a, "%s%s%s", pre, block, post));
    }
    buf_free(&b);

    /* 6. imports the kept statements use */
    names_table_t *used = names_table_new(c->a);
    for (size_t i = 0; i < nu; i++) {
        if (u[i].mode != SP_INSERT && u[i].mode != SP_REPLACE && !u[i].copied) continue;
        for (size_t k = sp_first_site(G, G->stmts[i].start); k < G->nsites && G->sites[k].start <= G->stmts[i].end; k++)
            if (G->sites[k].end <= G->stmts[i].end) names_table_reserve(used, G->sites[k].text);
    }
    /* Go, Java: new code passes the Context, and the program's parameter has no name to pass it by. */
    if (T->ctx_unnamed && G->ctx_name && names_table_has(used, G->ctx_name)) {
        diag_t *d =
            diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                     "the program's Context parameter has no name (`%s`), and the new code passes the "
                     "Context to what it creates: nothing was changed; name the parameter (`%s`) and run "
                     "cimport again",
                     sp_one_line(c->a, T->text + T->ctx_unnamed - 1, T->ctx_unnamed_end - T->ctx_unnamed + 1, 60),
                     T->lang == LANG_GO ? "ctx *pulumi.Context" : "ctx");
        d->line = (long)sp_line_of(T->text, T->ctx_unnamed - 1);
        return false;
    }
    const char **lines = arena_alloc(c->a, (G->nimports + 1) * sizeof *lines);
    const char **paths = arena_alloc(c->a, (G->nimports + 1) * sizeof *paths);
    size_t nl = 0;
    for (size_t i = 0; i < G->nimports; i++) {
        const sp_import_t *g = &G->imports[i];
        if (gpresent[i] || g->wildcard || g->is_static) continue;
        if (g->local && !names_table_has(used, g->local)) continue;
        if (!g->local && T->lang != LANG_CSHARP) continue;
        if (!g->local && (ninsert == 0 && c->stats.replaced == 0)) continue;
        if (!g->local && T->lang == LANG_CSHARP && !sp_cs_namespace_used(c, G, u, nu, g->path)) continue;
        lines[nl] = sp_import_line(c, g, glocal[i]);
        paths[nl++] = g->path;
    }
    sp_add_imports(c, lines, paths, nl);
    return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Pulumi YAML                                                                                      */

/* A pair of a top-level section (`resources`, `variables`, `configuration`, `outputs`). */
typedef struct sp_ypair {
    TSNode pair, key;
    const char *name;    /* key, unquoted */
    const char *logical; /* resources: `name:` or the key */
    const char *type;    /* resources: collapsed `type:` */
    TSNode value_map;    /* the block mapping of the value (null node when it is not one) */
} sp_ypair_t;

/* Whether a block scalar's header (`|+`, `>2+ # c`) asks for keep chomping: its trailing blank lines
 * are then part of its value. */
static bool sp_yaml_keeps(const sp_program_t *p, TSNode scalar) {
    uint32_t i = ts_node_start_byte(scalar) + 1, end = sp_end_byte(scalar); /* after `|` or `>` */
    for (; i < end && (p->text[i] == '+' || p->text[i] == '-' || isdigit((unsigned char)p->text[i])); i++)
        if (p->text[i] == '+') return true;
    return false;
}

/* End of a YAML pair's text: the end of its last non-comment descendant (tree-sitter-yaml puts
 * comments that follow a mapping inside it, and pair nodes may end after the newline), before its
 * last line break. A block scalar with keep chomping ends after the blank lines that follow its
 * text (they are its value's), at the last of their line breaks: text inserted at the next line
 * (sp_line_end of this end) or a pair copied up to here and given a line break keeps them. */
static uint32_t sp_pair_end(const sp_program_t *p, TSNode n) {
    for (;;) {
        const char *t = sp_type(n);
        bool container = strcmp(t, "block_mapping_pair") == 0 || strcmp(t, "block_node") == 0 ||
                         strcmp(t, "block_mapping") == 0 || strcmp(t, "block_sequence") == 0 ||
                         strcmp(t, "block_sequence_item") == 0;
        TSNode last = {0};
        for (uint32_t i = sp_nchild_count(n); container && i > 0; i--) {
            TSNode c = sp_nchild(n, i - 1);
            if (strcmp(sp_type(c), "comment") != 0) {
                last = c;
                break;
            }
        }
        if (ts_node_is_null(last)) break;
        n = last;
    }
    uint32_t end = sp_end_byte(n);
    while (end > 0 && isspace((unsigned char)p->text[end - 1]))
        end--;
    if (strcmp(sp_type(n), "block_scalar") == 0 && sp_yaml_keeps(p, n)) {
        uint32_t nl = end, blank = 0; /* nl: the text's line break; blank: the last blank line's */
        while (nl < p->len && p->text[nl] != '\n')
            nl++;
        for (uint32_t k = nl + 1; nl < p->len; k++) {
            if (k < p->len && (p->text[k] == ' ' || p->text[k] == '\t' || p->text[k] == '\r')) continue;
            if (k >= p->len || p->text[k] != '\n') break;
            nl = blank = k;
        }
        if (blank) end = p->text[blank - 1] == '\r' ? blank - 1 : blank;
    }
    return end;
}

static const char *sp_yaml_scalar(sp_program_t *p, TSNode n) {
    const char *t = sp_node_text(p, n);
    size_t l = strlen(t);
    if (l >= 2 && (t[0] == '"' || t[0] == '\'') && t[l - 1] == t[0]) return arena_strndup(p->a, t + 1, l - 2);
    return t;
}

/* `aws:s3/bucket:Bucket` → `aws:s3:Bucket`, `pkg:index:T` and `pkg::T` → `pkg:T` (Pulumi YAML's
 * collapseToken), so both spellings of a type compare equal. */
static const char *sp_yaml_collapse(arena_t *a, const char *tok) {
    const char *c1 = strchr(tok, ':');
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || strncmp(tok, "pulumi:providers:", 17) == 0) return tok;
    size_t ml = (size_t)(c2 - c1 - 1);
    const char *slash = memchr(c1 + 1, '/', ml);
    if (slash) ml = (size_t)(slash - c1 - 1);
    if (ml == 0 || (ml == 5 && strncmp(c1 + 1, "index", 5) == 0))
        return arena_sprintf(a, "%.*s:%s", (int)(c1 - tok), tok, c2 + 1);
    return arena_sprintf(a, "%.*s:%.*s:%s", (int)(c1 - tok), tok, (int)ml, c1 + 1, c2 + 1);
}

static TSNode sp_yaml_block_mapping(TSNode value) {
    TSNode none = {0};
    if (ts_node_is_null(value) || strcmp(sp_type(value), "block_node") != 0) return none;
    TSNode m = sp_nchild(value, 0);
    return !ts_node_is_null(m) && strcmp(sp_type(m), "block_mapping") == 0 ? m : none;
}

/* The top-level block mapping (null node for an empty document); false if the document is
 * something else. */
static bool sp_yaml_top(sp_program_t *p, TSNode *top) {
    memset(top, 0, sizeof *top);
    TSNode doc = {0};
    for (uint32_t i = 0; i < sp_nchild_count(p->root); i++)
        if (strcmp(sp_type(sp_nchild(p->root, i)), "document") == 0) {
            if (!ts_node_is_null(doc)) return false; /* several documents */
            doc = sp_nchild(p->root, i);
        }
    if (ts_node_is_null(doc)) return true;
    for (uint32_t i = 0; i < sp_nchild_count(doc); i++) {
        TSNode c = sp_nchild(doc, i);
        if (strcmp(sp_type(c), "comment") == 0) continue;
        *top = sp_yaml_block_mapping(c);
        return !ts_node_is_null(*top);
    }
    return true;
}

static const char *sp_yaml_section_name(const char *key) {
    if (strcmp(key, "config") == 0 || strcmp(key, "configuration") == 0) return "configuration";
    return key;
}

/* The pairs of a block mapping, or of a flow mapping (sp_yaml_options_mapping). */
static size_t sp_yaml_pairs(sp_program_t *p, TSNode map, sp_ypair_t **out) {
    size_t n = 0, cap = 0;
    sp_ypair_t *v = NULL;
    uint32_t nk = 0;
    TSNode *kids = ts_node_is_null(map) ? NULL : sp_named_children(p->a, map, &nk);
    for (uint32_t i = 0; i < nk; i++) {
        TSNode pr = kids[i];
        if (strcmp(sp_type(pr), "block_mapping_pair") != 0 && strcmp(sp_type(pr), "flow_pair") != 0) continue;
        SP_PUSH(p->a, v, n, cap);
        sp_ypair_t *y = &v[n - 1];
        memset(y, 0, sizeof *y);
        y->pair = pr;
        y->key = sp_field(pr, "key", 3);
        y->name = ts_node_is_null(y->key) ? "" : sp_yaml_scalar(p, y->key);
        y->logical = y->name;
        y->type = "";
        y->value_map = sp_yaml_block_mapping(sp_field(pr, "value", 5));
        for (uint32_t k = 0; !ts_node_is_null(y->value_map) && k < sp_nchild_count(y->value_map); k++) {
            TSNode q = sp_nchild(y->value_map, k);
            TSNode qk = sp_field(q, "key", 3), qv = sp_field(q, "value", 5);
            if (ts_node_is_null(qk) || ts_node_is_null(qv)) continue;
            const char *kk = sp_yaml_scalar(p, qk);
            if (strcmp(kk, "type") == 0)
                y->type = sp_yaml_collapse(p->a, sp_yaml_scalar(p, qv));
            else if (strcmp(kk, "name") == 0)
                y->logical = sp_yaml_scalar(p, qv);
        }
    }
    *out = v;
    return n;
}

static TSNode sp_yaml_find_section(sp_program_t *p, TSNode top, const char *section) {
    TSNode none = {0};
    for (uint32_t i = 0; !ts_node_is_null(top) && i < sp_nchild_count(top); i++) {
        TSNode pr = sp_nchild(top, i);
        TSNode k = sp_field(pr, "key", 3);
        if (!ts_node_is_null(k) && strcmp(sp_yaml_section_name(sp_yaml_scalar(p, k)), section) == 0) return pr;
    }
    return none;
}

/* `${name` references in the generated YAML (renamed with their resource or variable). */
static void sp_yaml_sites(sp_program_t *G) {
    for (uint32_t i = 0; i + 2 < G->len; i++) {
        if (G->text[i] != '$' || G->text[i + 1] != '{' || (i > 0 && G->text[i - 1] == '$')) continue;
        uint32_t s = i + 2, e = s;
        while (e < G->len && (isalnum((unsigned char)G->text[e]) || G->text[e] == '_' || G->text[e] == '-'))
            e++;
        if (e == s) continue;
        SP_PUSH(G->a, G->sites, G->nsites, G->csites);
        G->sites[G->nsites - 1] = (sp_site_t){s, e, arena_strndup(G->a, G->text + s, e - s)};
    }
}

/* The `options` mapping of a YAML resource pair (a null node when it has none). */
static TSNode sp_yaml_options(sp_program_t *p, const sp_ypair_t *y) {
    TSNode none = {0};
    for (uint32_t k = 0; !ts_node_is_null(y->value_map) && k < sp_nchild_count(y->value_map); k++) {
        TSNode q = sp_nchild(y->value_map, k), qk = sp_field(q, "key", 3);
        if (!ts_node_is_null(qk) && strcmp(sp_yaml_scalar(p, qk), "options") == 0) return q;
    }
    return none;
}

/* The mapping an `options:` value is: a block mapping, or a flow mapping (`{protect: true}`) whose
 * entries are all `key: value` pairs, with no anchor or tag (one the file's aliases name would be
 * lost with it); a null node for anything else (an alias, `{protect}`), which is not read one by one. */
static TSNode sp_yaml_options_mapping(sp_program_t *p, TSNode value) {
    TSNode none = {0}, m = sp_yaml_block_mapping(value);
    if (!ts_node_is_null(m) || ts_node_is_null(value) || strcmp(sp_type(value), "flow_node") != 0) return m;
    uint32_t nk = 0;
    TSNode *kids = sp_named_children(p->a, value, &nk);
    if (nk != 1 || strcmp(sp_type(kids[0]), "flow_mapping") != 0) return none;
    m = kids[0];
    kids = sp_named_children(p->a, m, &nk);
    for (uint32_t i = 0; i < nk; i++) {
        if (strcmp(sp_type(kids[i]), "comment") == 0) continue;
        if (strcmp(sp_type(kids[i]), "flow_pair") != 0 || ts_node_is_null(sp_field(kids[i], "key", 3))) return none;
    }
    return m;
}

/* Where the user's options go in the generated pair g: the end of its last option (0: g has none). */
static uint32_t sp_yaml_options_end(sp_ctx_t *c, const sp_ypair_t *g) {
    TSNode go = sp_yaml_options(&c->G, g);
    if (ts_node_is_null(go)) return 0;
    return sp_pair_end(&c->G, go);
}

/* YAML's sp_keep_options: the options the user's resource pair t has and the generated g has not, as
 * lines to add at the end of g's options (or with an `options:` line when g has none) in *out. */
static bool sp_yaml_keep_options(sp_ctx_t *c, const sp_ypair_t *g, const sp_ypair_t *t, const char **out) {
    *out = NULL;
    TSNode to = sp_yaml_options(&c->T, t);
    sp_ypair_t *up = NULL, *gp = NULL;
    if (ts_node_is_null(to)) return true;
    TSNode uv = sp_field(to, "value", 5);
    TSNode um = sp_yaml_options_mapping(&c->T, uv);
    size_t un = sp_yaml_pairs(&c->T, um, &up);
    /* A flow mapping's pair goes to a line of its own: its further lines keep their place to the
     * right of `options:` (YAML has them there), now of the generated options' column. */
    bool flow = !ts_node_is_null(um) && strcmp(sp_type(um), "flow_mapping") == 0;
    size_t ocol = strlen(sp_line_indent(&c->T, ts_node_start_byte(to)));
    if (un == 0 && !ts_node_is_null(uv) && strcmp(sp_node_text(&c->T, uv), "{}") != 0) {
        diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                             "the resource '%s' has resource options cimport cannot merge with the import's one by "
                             "one (`%s`): nothing was changed, so they are not dropped; write them as a block mapping "
                             "(one option per line), or import the resource into another file",
                             t->logical, sp_node_text(&c->T, uv));
        d->line = (long)ts_node_start_point(to).row + 1;
        return false;
    }
    TSNode go = sp_yaml_options(&c->G, g);
    size_t gn = ts_node_is_null(go) ? 0 : sp_yaml_pairs(&c->G, sp_yaml_block_mapping(sp_field(go, "value", 5)), &gp);
    size_t tu = strlen(c->T.unit);
    size_t base = strlen(sp_line_indent(&c->T, ts_node_start_byte(t->pair)));
    size_t tcol = base + 2 * tu; /* resource key → `options:` → an option */
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < un; i++) {
        const sp_ypair_t *u = &up[i];
        uint32_t us = ts_node_start_byte(u->pair), ue = sp_pair_end(&c->T, u->pair);
        const sp_ypair_t *m = NULL;
        for (size_t k = 0; k < gn && !m; k++)
            if (strcmp(gp[k].name, u->name) == 0) m = &gp[k];
        if (!m && strcmp(u->name, "import") == 0) continue; /* cimport's own: the resource is in the stack now */
        if (!m && (strcmp(u->name, "parent") == 0 || strcmp(u->name, "provider") == 0)) {
            sp_refuse_option(c, t->logical, u->name, c->T.text + us, ue - us, strcmp(u->name, "provider") == 0,
                             (long)ts_node_start_point(u->pair).row + 1);
            buf_free(&b);
            return false;
        }
        if (m) {
            uint32_t ms = ts_node_start_byte(m->pair), me = sp_pair_end(&c->G, m->pair);
            const char *gt = sp_rewrite(c, ms, me, NULL, 0, ""); /* with the names as renamed */
            if (strcmp(sp_squash(c->a, gt, strlen(gt)), sp_squash(c->a, c->T.text + us, ue - us)) == 0) continue;
            sp_refuse_clash(c, t->logical, u->name, c->T.text + us, (int)(ue - us), gt, (int)strlen(gt),
                            (long)ts_node_start_point(u->pair).row + 1);
            buf_free(&b);
            return false;
        }
        /* the pair's lines, moved from its column to the generated options' */
        size_t ucol = flow ? ocol : strlen(sp_line_indent(&c->T, us));
        buf_puts(&b, c->nl);
        for (size_t k = 0; k < tcol; k++)
            buf_putc(&b, ' ');
        for (uint32_t k = us; k < ue; k++) {
            if (c->T.text[k] == '\r') continue;
            if (c->T.text[k] != '\n') {
                buf_putc(&b, c->T.text[k]);
                continue;
            }
            buf_puts(&b, c->nl);
            uint32_t w = k + 1;
            size_t sp = 0;
            while (w < ue && c->T.text[w] == ' ' && sp < ucol) {
                w++;
                sp++;
            }
            for (size_t x = 0; x < tcol; x++)
                buf_putc(&b, ' ');
            k = w - 1;
        }
    }
    if (b.len) {
        const char *lines = buf_arena_str(&b, c->a);
        if (ts_node_is_null(go)) {
            buf_t h;
            buf_init(&h);
            buf_puts(&h, c->nl);
            for (size_t k = 0; k < base + tu; k++)
                buf_putc(&h, ' ');
            buf_printf(&h, "options:%s", lines);
            lines = buf_arena_str(&h, c->a);
            buf_free(&h);
        }
        *out = lines;
    }
    buf_free(&b);
    return true;
}

/* The nodes of type `type` (anchor_name, alias_name) in n, in source order, into *out (an arena
 * array); their count. */
static size_t sp_yaml_marks(sp_program_t *p, TSNode n, const char *type, TSNode **out) {
    size_t k = 0, cap = 0;
    *out = NULL;
    if (ts_node_is_null(n) || !memchr(p->text + ts_node_start_byte(n), *type == 'a' && type[1] == 'n' ? '&' : '*',
                                      sp_end_byte(n) - ts_node_start_byte(n)))
        return 0;
    TSTreeCursor cur = ts_tree_cursor_new(n);
    for (bool more = true; more;) {
        TSNode c = ts_tree_cursor_current_node(&cur);
        if (strcmp(sp_type(c), type) == 0) {
            SP_PUSH(p->a, *out, k, cap);
            (*out)[k - 1] = c;
        }
        if (ts_tree_cursor_goto_first_child(&cur)) continue;
        while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
            if (!ts_tree_cursor_goto_parent(&cur)) break;
    }
    ts_tree_cursor_delete(&cur);
    return k;
}

/* An alias of p that names no anchor before it (YAML loaders refuse it), or a null node. */
static TSNode sp_yaml_undefined_alias(sp_program_t *p) {
    TSNode none = {0}, *an, *al;
    size_t nan = sp_yaml_marks(p, p->root, "anchor_name", &an), nal = sp_yaml_marks(p, p->root, "alias_name", &al);
    for (size_t i = 0; i < nal; i++) {
        const char *name = sp_node_text(p, al[i]);
        bool found = false;
        for (size_t k = 0; k < nan && !found && ts_node_start_byte(an[k]) < ts_node_start_byte(al[i]); k++)
            found = strcmp(sp_node_text(p, an[k]), name) == 0;
        if (!found) return al[i];
    }
    return none;
}

/* The scalar a resource's option `key` (`options: import:`, `provider:`) gives, or NULL. */
static const char *sp_yaml_option(sp_program_t *p, const sp_ypair_t *y, const char *key) {
    TSNode o = sp_yaml_options(p, y);
    TSNode m = ts_node_is_null(o) ? o : sp_yaml_options_mapping(p, sp_field(o, "value", 5));
    for (uint32_t k = 0; !ts_node_is_null(m) && k < sp_nchild_count(m); k++) {
        TSNode q = sp_nchild(m, k), qk = sp_field(q, "key", 3), qv = sp_field(q, "value", 5);
        if (!ts_node_is_null(qk) && !ts_node_is_null(qv) && strcmp(sp_yaml_scalar(p, qk), key) == 0)
            return sp_yaml_scalar(p, qv);
    }
    return NULL;
}

/* The ID a resource's `options: import:` gives, or NULL. */
static const char *sp_yaml_import_id(sp_program_t *p, const sp_ypair_t *y) {
    return sp_yaml_option(p, y, "import");
}

static bool sp_splice_yaml(sp_ctx_t *c) {
    sp_program_t *T = &c->T, *G = &c->G;
    T->names = names_table_new(c->a);
    G->names = names_table_new(c->a);
    sp_walk_names(T, false);
    sp_walk_names(G, false);
    sp_detect_style(T);
    sp_detect_style(G);
    c->nl = T->crlf ? "\r\n" : "\n";
    TSNode ttop, gtop;
    if (!sp_yaml_top(T, &ttop)) {
        diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                 "the file is not a single YAML mapping (a Pulumi YAML program has top-level keys such as name, "
                 "runtime and resources): cannot insert into it");
        return false;
    }
    if (!sp_yaml_top(G, &gtop) || ts_node_is_null(gtop)) return true;
    /* Only a Pulumi YAML program is run by `pulumi up`: not a stack's configuration file
     * (Pulumi.<stack>.yaml), nor a file with top-level keys a program does not have (a manifest). */
    const char *fname = strrchr(c->file, '/');
    fname = fname ? fname + 1 : c->file;
    size_t fl = strlen(fname);
    const char *where = "insert into the project's program (Pulumi.yaml, or Main.yaml in the directory its `main` "
                        "names)";
    if (strncmp(fname, "Pulumi.", 7) == 0 && strcmp(fname, "Pulumi.yaml") != 0 && strcmp(fname, "Pulumi.yml") != 0 &&
        fl > 11 && (strcmp(fname + fl - 5, ".yaml") == 0 || strcmp(fname + fl - 4, ".yml") == 0)) {
        diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                 "this is a stack's configuration file, which Pulumi reads for configuration only: resources written "
                 "here declare nothing; %s",
                 where);
        return false;
    }
    static const char *const KNOWN[] = {"name",      "runtime",   "description", "config",   "configuration",
                                        "variables", "resources", "outputs",     "main",     "stackConfigDir",
                                        "backend",   "options",   "plugins",     "template", "author",
                                        "license",   "website",   "packages",    "pulumi"};
    for (uint32_t i = 0; !ts_node_is_null(ttop) && i < sp_nchild_count(ttop); i++) {
        TSNode ki = sp_field(sp_nchild(ttop, i), "key", 3);
        if (ts_node_is_null(ki)) continue;
        const char *k = sp_yaml_scalar(T, ki);
        bool known = false;
        for (size_t j = 0; j < sizeof KNOWN / sizeof KNOWN[0] && !known; j++)
            known = strcmp(k, KNOWN[j]) == 0;
        if (known) continue;
        diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                             "the top-level key `%s` is not one of a Pulumi YAML program's (name, runtime, config, "
                             "variables, resources, outputs, ...): Pulumi does not run this file; %s",
                             k, where);
        d->line = (long)ts_node_start_point(ki).row + 1;
        return false;
    }
    TSNode ua = sp_yaml_undefined_alias(T);
    if (!ts_node_is_null(ua)) {
        diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                             "the alias `*%s` names no anchor before it: fix the file before inserting into it",
                             sp_node_text(T, ua));
        d->line = (long)ts_node_start_point(ua).row + 1;
        return false;
    }
    /* Top-level keys must be unique (tree-sitter accepts duplicates; Pulumi does not). */
    for (uint32_t i = 0; !ts_node_is_null(ttop) && i < sp_nchild_count(ttop); i++) {
        TSNode ki = sp_field(sp_nchild(ttop, i), "key", 3);
        for (uint32_t j = i + 1; !ts_node_is_null(ki) && j < sp_nchild_count(ttop); j++) {
            TSNode kj = sp_field(sp_nchild(ttop, j), "key", 3);
            if (ts_node_is_null(kj) || strcmp(sp_yaml_scalar(T, ki), sp_yaml_scalar(T, kj)) != 0) continue;
            diag_t *d =
                diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                         "duplicate top-level key `%s`: fix the file before inserting into it", sp_yaml_scalar(T, kj));
            d->line = (int)ts_node_start_point(kj).row + 1;
            return false;
        }
    }
    /* A project file of another runtime (runtime: nodejs, or {name: nodejs}): Pulumi runs that
     * runtime's program and ignores resources written here, so code inserted here declares nothing. */
    TSNode rt = sp_yaml_find_section(T, ttop, "runtime");
    TSNode rv = ts_node_is_null(rt) ? rt : sp_field(rt, "value", 5);
    if (!ts_node_is_null(rv)) {
        const char *runtime = NULL;
        TSNode rm = sp_yaml_block_mapping(rv);
        for (uint32_t k = 0; !ts_node_is_null(rm) && k < sp_nchild_count(rm); k++) {
            TSNode qk = sp_field(sp_nchild(rm, k), "key", 3), qv = sp_field(sp_nchild(rm, k), "value", 5);
            if (!ts_node_is_null(qk) && !ts_node_is_null(qv) && strcmp(sp_yaml_scalar(T, qk), "name") == 0)
                runtime = sp_yaml_scalar(T, qv);
        }
        if (ts_node_is_null(rm)) runtime = sp_yaml_scalar(T, rv);
        if (runtime && strcmp(runtime, "yaml") != 0) {
            diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                     "the project's runtime is %s, not yaml: Pulumi runs the %s program and ignores resources written "
                     "here; insert into that program instead",
                     runtime, runtime);
            return false;
        }
    }
    static const char *const SECTIONS[] = {"configuration", "variables", "resources", "outputs"};
    sp_ypair_t *tp[4] = {0}, *gp[4] = {0};
    size_t tn[4] = {0}, gn[4] = {0};
    TSNode tsec[4];
    for (int s = 0; s < 4; s++) {
        tsec[s] = sp_yaml_find_section(T, ttop, SECTIONS[s]);
        if (!ts_node_is_null(tsec[s])) {
            TSNode v = sp_field(tsec[s], "value", 5);
            tn[s] = sp_yaml_pairs(T, sp_yaml_block_mapping(v), &tp[s]);
            for (size_t k = 0; k < tn[s]; k++)
                names_table_reserve(T->names, tp[s][k].name);
        }
        TSNode gs = sp_yaml_find_section(G, gtop, SECTIONS[s]);
        if (!ts_node_is_null(gs)) gn[s] = sp_yaml_pairs(G, sp_yaml_block_mapping(sp_field(gs, "value", 5)), &gp[s]);
    }
    sp_yaml_sites(G);

    /* Decide per generated pair, then write. mode: 0 skip, 1 insert, 2 replace */
    int *mode[4];
    const sp_ypair_t **existing[4];
    const char **newkey[4];
    for (int s = 0; s < 4; s++) {
        mode[s] = arena_alloc(c->a, (gn[s] + 1) * sizeof(int));
        existing[s] = arena_alloc(c->a, (gn[s] + 1) * sizeof(sp_ypair_t *));
        newkey[s] = arena_alloc(c->a, (gn[s] + 1) * sizeof(char *));
        for (size_t i = 0; i < gn[s]; i++) {
            const sp_ypair_t *g = &gp[s][i];
            const sp_ypair_t *t = NULL;
            for (size_t k = 0; k < tn[s] && !t; k++) {
                if (s == 2 ? (strcmp(tp[s][k].logical, g->logical) == 0 && strcmp(tp[s][k].type, g->type) == 0)
                           : strcmp(tp[s][k].name, g->name) == 0)
                    t = &tp[s][k];
            }
            if (s == 2 && t && c->keep_existing) {
                sp_refuse_kept_twin(c, g->logical, (long)ts_node_start_point(t->pair).row + 1);
                return false;
            }
            newkey[s][i] = g->name;
            if (t && (s == 2 || s == 3)) {
                /* an anchor in the replaced pair that the file aliases elsewhere: the new text drops it */
                TSNode *an, *al;
                size_t nan = sp_yaml_marks(T, t->pair, "anchor_name", &an);
                size_t nal = nan ? sp_yaml_marks(T, T->root, "alias_name", &al) : 0;
                for (size_t a = 0; a < nan; a++)
                    for (size_t b = 0; b < nal; b++) {
                        if (ts_node_start_byte(al[b]) >= ts_node_start_byte(t->pair) &&
                            sp_end_byte(al[b]) <= sp_end_byte(t->pair))
                            continue;
                        const char *nm = sp_node_text(T, an[a]);
                        if (strcmp(sp_node_text(T, al[b]), nm) != 0) continue;
                        diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                                             "the %s '%s' defines the anchor `&%s`, which `*%s` at line %u uses, and "
                                             "its new definition has no place for it: nothing was changed; write the "
                                             "aliased value out where it is used, and run again",
                                             s == 2 ? "resource" : "output", s == 2 ? t->logical : t->name, nm, nm,
                                             ts_node_start_point(al[b]).row + 1);
                        d->line = (long)ts_node_start_point(an[a]).row + 1;
                        return false;
                    }
                mode[s][i] = 2;
                existing[s][i] = t;
                sp_rename(c, g->name, t->name);
                newkey[s][i] = t->name;
                if (s == 2) c->stats.replaced++; /* an output replaced is no resource */
            } else if (t) {
                mode[s][i] = 0; /* configuration/variables already declared under that name */
                c->stats.reused++;
            } else {
                mode[s][i] = 1;
                /* the object imported already under another name: refused (sp_splice_code) */
                const char *id = s == 2 ? sp_yaml_import_id(G, g) : NULL;
                for (size_t k = 0; id && k < tn[s]; k++) {
                    const char *tid = strcmp(tp[s][k].type, g->type) == 0 ? sp_yaml_import_id(T, &tp[s][k]) : NULL;
                    if (!tid || strcmp(tid, id) != 0) continue;
                    /* under another provider: maybe another account's object (read18 F16) */
                    const char *tpv = sp_yaml_option(T, &tp[s][k], "provider"), *gpv = sp_yaml_option(G, g, "provider");
                    if ((tpv || gpv) && !(tpv && gpv && strcmp(tpv, gpv) == 0)) continue;
                    sp_refuse_same_id(c, g->logical, id, tp[s][k].logical,
                                      (long)ts_node_start_point(tp[s][k].pair).row + 1);
                    return false;
                }
                if (names_table_has(T->names, g->name) || names_table_has(c->taken, g->name)) {
                    newkey[s][i] = sp_fresh(c, g->name, s == 2 ? g->type : NULL);
                    sp_rename(c, g->name, newkey[s][i]);
                    c->stats.renamed++;
                } else {
                    names_table_reserve(c->taken, g->name);
                }
                if (s == 2) c->stats.inserted++; /* resources, not configuration, variables or outputs */
            }
        }
    }
    for (int s = 0; s < 4; s++) {
        if (gn[s] == 0) continue;
        G->base_indent = sp_line_indent(G, ts_node_start_byte(gp[s][0].pair));
        /* Where this section's new pairs go, and at what indentation. */
        const char *base = T->unit;
        uint32_t at = T->len;
        const char *head = NULL; /* a new `section:` line */
        if (!ts_node_is_null(tsec[s])) {
            TSNode v = sp_field(tsec[s], "value", 5);
            if (tn[s] > 0) {
                base = sp_line_indent(T, ts_node_start_byte(tp[s][0].pair));
                at = sp_line_end(T->text, T->len, sp_pair_end(T, tp[s][tn[s] - 1].pair));
            } else if (ts_node_is_null(v) || strcmp(sp_type(v), "flow_node") == 0) {
                TSNode fm = ts_node_is_null(v) ? v : sp_nchild(v, 0);
                if (!ts_node_is_null(fm) && strcmp(sp_type(fm), "flow_mapping") == 0 && sp_nchild_count(fm) > 0) {
                    diag_t *d = diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                                         "`%s` is written as a flow mapping ({...}): write it as a block mapping "
                                         "(one `name:` per line) to insert into it",
                                         sp_yaml_scalar(T, sp_field(tsec[s], "key", 3)));
                    d->line = (int)ts_node_start_point(fm).row + 1;
                    return false;
                }
                if (!ts_node_is_null(v) && !(!ts_node_is_null(fm) && strcmp(sp_type(fm), "flow_mapping") == 0) &&
                    strcmp(sp_node_text(T, v), "null") != 0 && strcmp(sp_node_text(T, v), "~") != 0) {
                    diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                             "`%s` is not a mapping: fix the file before inserting into it", SECTIONS[s]);
                    return false;
                }
                /* `resources:` (null) or `resources: {}`: drop the value, add the pairs below. */
                TSNode key = sp_field(tsec[s], "key", 3);
                uint32_t colon = sp_end_byte(key);
                while (colon < T->len && T->text[colon] != ':')
                    colon++;
                if (!ts_node_is_null(v)) sp_add_edit(c, colon + 1, sp_end_byte(v), "");
                base = arena_sprintf(c->a, "%s%s", sp_line_indent(T, ts_node_start_byte(key)), T->unit);
                at = sp_line_end(T->text, T->len, colon);
            } else {
                diag_add(c->diags, DIAG_ERROR, DIAG_INPUT, c->file, NULL,
                         "`%s` is not a mapping: fix the file before inserting into it", SECTIONS[s]);
                return false;
            }
        } else {
            head = arena_sprintf(c->a, "%s:%s", SECTIONS[s], c->nl);
        }
        buf_t b;
        buf_init(&b);
        size_t added = 0;
        for (size_t i = 0; i < gn[s]; i++) {
            const sp_ypair_t *g = &gp[s][i];
            if (mode[s][i] == 0) continue;
            sp_local_edit_t ex[3];
            size_t nex = 0;
            if (strcmp(newkey[s][i], g->name) != 0) {
                ex[nex++] = (sp_local_edit_t){ts_node_start_byte(g->key), sp_end_byte(g->key), newkey[s][i]};
                /* A renamed resource keeps its logical name. */
                if (s == 2 && strcmp(g->logical, g->name) == 0 && !ts_node_is_null(g->value_map)) {
                    const char *ib =
                        mode[s][i] == 2 ? sp_line_indent(T, ts_node_start_byte(existing[s][i]->pair)) : base;
                    ex[nex++] = (sp_local_edit_t){ts_node_start_byte(g->value_map), ts_node_start_byte(g->value_map),
                                                  arena_sprintf(c->a, "name: %s%s%s%s", g->name, c->nl, ib, T->unit)};
                }
            }
            uint32_t ps = ts_node_start_byte(g->pair), pe = sp_pair_end(G, g->pair);
            if (mode[s][i] == 2) {
                const sp_ypair_t *t = existing[s][i];
                /* the user's resource options are kept (sp_keep_options) */
                if (s == 2) {
                    const char *opt = NULL;
                    if (!sp_yaml_keep_options(c, g, t, &opt)) {
                        buf_free(&b); /* the pairs added before this one */
                        return false;
                    }
                    if (opt) {
                        uint32_t oat = sp_yaml_options_end(c, g);
                        ex[nex++] = (sp_local_edit_t){oat ? oat : pe, oat ? oat : pe, opt};
                    }
                }
                const char *core = sp_rewrite(c, ps, pe, ex, nex, sp_line_indent(T, ts_node_start_byte(t->pair)));
                sp_add_edit(c, ts_node_start_byte(t->pair), sp_pair_end(T, t->pair), core);
                continue;
            }
            buf_printf(&b, "%s%s%s", base, sp_rewrite(c, ps, pe, ex, nex, base), c->nl);
            added++;
        }
        if (added == 0) {
            buf_free(&b);
            continue;
        }
        const char *block = buf_arena_str(&b, c->a);
        buf_free(&b);
        bool need_nl = at == T->len && T->len > 0 && T->text[T->len - 1] != '\n';
        sp_add_edit(c, at, at, arena_sprintf(c->a, "%s%s%s", need_nl ? c->nl : "", head ? head : "", block));
    }
    return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* entry points                                                                                     */

bool splicer_splice(splicer_t *s, const char *target, size_t target_len, lang_t lang, const char *generated,
                    size_t generated_len, const splice_options_t *opts, char **out_text, size_t *out_len, bool *changed,
                    splice_stats_t *stats, diag_list_t *diags) {
    *out_text = NULL;
    if (changed) *changed = false;
    const char *file = opts && opts->filename ? opts->filename : "program";
    if (lang == LANG_PCL || !ts_check_language(lang)) {
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, file, NULL,
                 "cannot insert into a %s file: only TypeScript/JavaScript, Python, Go, C#, Java and Pulumi YAML "
                 "programs are supported",
                 lang_name(lang));
        return false;
    }
    if (target_len > UINT32_MAX / 2 || generated_len > UINT32_MAX / 2) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL, "the file is too large to edit");
        return false;
    }
    if (!sp_check_encoding(target, target_len, file, diags)) return false;
    /* tree-sitter counts bytes in 32 bits; the result grows by the generated code. */
    if (target_len > UINT32_MAX / 4 || generated_len > UINT32_MAX / 4) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL, "the file is too large to splice into (1 GiB at most)");
        return false;
    }

    sp_ctx_t c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.a = arena_new();
    c.file = file;
    c.diags = diags;
    c.keep_existing = opts && opts->keep_existing;
    c.into_stack = opts && opts->into_stack;
    c.opts = opts;
    c.rename = names_table_new(c.a);
    c.taken = names_table_new(c.a);
    c.nl = "\n";
    c.T = (sp_program_t){.a = c.a, .lang = lang, .text = target, .len = (uint32_t)target_len, .stuck_at = UINT32_MAX};
    c.G = (sp_program_t){
        .a = c.a, .lang = lang, .text = generated, .len = (uint32_t)generated_len, .stuck_at = UINT32_MAX};
    /* A big file: the generated program is parsed and analysed on a thread of its own while the
     * file is parsed; then the file is walked (on a thread of its own) while its body is read. What
     * each step reports, and which failure wins, is as when they run one after the other: the
     * generated program's diagnostics are kept apart and given only where its step would have run. */
    sp_gen_job_t gj = {.s = s, .G = &c.G, .file = file};
    diag_list_init(&gj.parse_diags);
    diag_list_init(&gj.analyse_diags);
    arena_t *ga = NULL;
    /* A big file: that thread parses the file's second half first (above). The cut is past the
     * middle by two thirds of the generated program's size, which that thread also parses and
     * analyses: a byte of it costs that thread about 4/3 of a byte of the file (callgrind, 100,000
     * lines and 1,000 resources: TypeScript, Python and Go alike; the generated program's whole
     * size put the first half ~85-200 M instructions behind, bench/RESULTS.md). */
    sp_half_t second = {.parser = s->gparser, .lang = lang, .text = target, .len = c.T.len, .to = c.T.len};
    if (lang != LANG_YAML && target_len >= SP_GEN_THREAD_MIN && !(opts && opts->whole_parse)) {
        uint64_t want = (3 * (uint64_t)target_len + 4 * (uint64_t)generated_len) / 6;
        if (want > target_len * 3 / 4) want = target_len * 3 / 4;
        if (lang == LANG_TYPESCRIPT || lang == LANG_PYTHON)
            second.from = sp_cut_find(lang, target, c.T.len, (uint32_t)want);
        else if (!sp_block_cut_find(lang, target, c.T.len, (uint32_t)want, &second.from, &second.head, &second.tail))
            second.from = second.head = second.tail = 0;
        if (second.from) gj.half = &second;
    }
    if (lang != LANG_YAML && target_len >= SP_GEN_THREAD_MIN) {
        if (!s->gparser) s->gparser = ts_parser_new();
        second.parser = s->gparser;
        ga = arena_new();
        c.G.a = ga;
        gj.threaded = pthread_create(&gj.thread, NULL, sp_gen_run, &gj) == 0;
        if (!gj.threaded) {
            c.G.a = c.a;
            arena_free(ga);
            ga = NULL;
        }
    }
    sp_walk_t walk = {0};
    bool t_ok;
    if (gj.threaded && gj.half) {
        sp_half_t first = {.parser = s->parser,
                           .lang = lang,
                           .text = target,
                           .len = c.T.len,
                           .to = gj.half->from,
                           .head = gj.half->head,
                           .tail = gj.half->tail};
        sp_half_parse(&first);
        pthread_join(gj.thread, NULL);
        bool kept = sp_halves_clean(&first, gj.half);
        if (kept) {
            c.T.tree = first.tree;
            c.T.root = ts_tree_root_node(c.T.tree);
            c.T.tree2 = gj.half->tree;
            c.T.root2 = ts_tree_root_node(c.T.tree2);
            c.T.split = gj.half->from;
            c.T.head = gj.half->head;
            c.T.hold = first.head ? first.hold : c.T.root;
            c.T.hold2 = first.head ? gj.half->hold : c.T.root2;
            c.T.split_end = first.head ? first.tail : UINT32_MAX;
            c.T.comments1 = first.comments;
            /* Go, C#, Java: the block must be the program's body (the generated program's thread
             * has used the query cursor and is joined) */
            kept = !c.T.head || sp_split_body_ok(s, &c.T);
            if (!kept) {
                c.T.tree = c.T.tree2 = NULL;
                c.T.head = 0;
            }
        }
        if (kept) {
            c.stats.split_parse = true;
            t_ok = true;
        } else { /* one parse of the whole file: its result and messages */
            if (first.tree) ts_tree_delete(first.tree);
            if (gj.half->tree) ts_tree_delete(gj.half->tree);
            t_ok = sp_parse(s, &c.T, NULL, file, false, diags);
        }
    } else {
        t_ok = sp_parse(s, &c.T, NULL, file, false, diags);
        if (gj.threaded) pthread_join(gj.thread, NULL);
    }
    if (t_ok && lang != LANG_YAML) sp_analyze_start(&c.T, true, &walk);
    bool ok = t_ok && (gj.threaded ? gj.parsed : sp_parse(s, &c.G, NULL, file, true, diags));
    if (t_ok && gj.threaded && !gj.parsed) diag_list_move(diags, &gj.parse_diags);
    if (ok && lang == LANG_YAML) {
        ok = sp_splice_yaml(&c);
    } else if (!ok) {
        sp_walk_finish(&walk, &c.T); /* the walk ends before the trees are freed */
    } else {
        /* the generated program is analysed while the file's walk goes on */
        ok = sp_analyze_body(s, &c.T, file, diags);
        if (ok && gj.threaded) {
            ok = gj.analysed;
            if (!ok) diag_list_move(diags, &gj.analyse_diags);
        } else if (ok) {
            ok = sp_analyze(s, &c.G, false, "generated program", diags);
        }
        sp_walk_finish(&walk, &c.T);
        ok = ok && sp_python3_ok(&c.T, file, diags) && sp_analyze_finish(s, &c.T, true, &walk, diags);
        c.stats.split_find = c.T.split_find;
        if (ok) {
            c.nl = c.T.crlf ? "\r\n" : "\n";
            ok = sp_splice_code(&c);
        }
    }
    char *result = NULL;
    size_t rlen = 0;
    if (ok) {
        result = sp_apply(&c, &rlen);
        sp_edit_tree(&c);
        /* Never hand back text that does not parse. */
        diag_list_t check;
        diag_list_init(&check);
        sp_program_t R = {.a = c.a, .lang = lang, .text = result, .len = (uint32_t)rlen};
        bool clean = c.T.tree2 && sp_reparse_halves(&c, result, (uint32_t)rlen);
        if (!clean) c.stats.reparsed += rlen;
        if (!clean && !sp_parse(s, &R, c.T.blanked ? NULL : c.T.tree2 ? c.T.tree2 : c.T.tree, file, false, &check)) {
            diag_t *d;
            if (R.timed_out) /* the budget's own message: the result is no less parseable than the file */
                d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL, "%s", check.head->message);
            else if (R.refused) /* a limit of the runtime or grammar that the inserted code crosses */
                d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL, "with the new code inserted, %s",
                             check.head->message);
            else
                d = diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, file, NULL,
                             "internal error: the spliced program would not parse (%s); the file was left "
                             "unchanged — please report this with the file",
                             check.head ? check.head->message : "?");
            d->line = check.head ? check.head->line : 0;
            free(result);
            result = NULL;
            ok = false;
        }
        if (ok && lang == LANG_YAML) { /* parses, but an alias that names no anchor does not load */
            R.root = ts_tree_root_node(R.tree);
            TSNode ua = sp_yaml_undefined_alias(&R);
            if (!ts_node_is_null(ua)) {
                diag_t *d = diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, file, NULL,
                                     "internal error: in the spliced program the alias `*%s` would name no anchor "
                                     "before it; the file was left unchanged — please report this with the file",
                                     sp_node_text(&R, ua));
                d->line = (long)ts_node_start_point(ua).row + 1;
                free(result);
                result = NULL;
                ok = false;
            }
        }
        if (R.tree) ts_tree_delete(R.tree);
        diag_list_free(&check);
    }
    if (ok) {
        *out_text = result;
        if (out_len) *out_len = rlen;
        if (changed) *changed = rlen != target_len || memcmp(result, target, rlen) != 0;
        if (stats) *stats = c.stats;
    }
    if (c.T.tree) ts_tree_delete(c.T.tree);
    if (c.T.tree2) ts_tree_delete(c.T.tree2);
    if (c.G.tree) ts_tree_delete(c.G.tree);
    diag_list_free(&gj.parse_diags);
    diag_list_free(&gj.analyse_diags);
    arena_free(ga);
    arena_free(c.a);
    return ok;
}

bool splice_program(const char *target_text, size_t len, lang_t target_lang, const char *generated_text,
                    const splice_options_t *opts, char **out_text, bool *changed, diag_list_t *diags) {
    splicer_t *s = splicer_new();
    bool ok = splicer_splice(s, target_text, len, target_lang, generated_text, strlen(generated_text), opts, out_text,
                             NULL, changed, NULL, diags);
    splicer_free(s);
    return ok;
}

bool splice_write_file(const char *path, const char *expected_old_text, size_t old_len, const char *new_text,
                       size_t new_len, diag_list_t *diags) {
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot read the file: %s", strerror(errno));
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "not a regular file: give the path of a program file");
        return false;
    }
    if (file_mode_read_only(st.st_mode)) {
        file_read_only_error(diags, path);
        return false;
    }
    arena_t *a = arena_new();
    diag_list_t rd;
    diag_list_init(&rd);
    size_t cur_len = 0;
    char *cur = file_read_all(a, path, &cur_len, &rd);
    bool ok = cur != NULL;
    if (!ok) diag_list_move(diags, &rd);
    diag_list_free(&rd);
    if (ok && (cur_len != old_len || memcmp(cur, expected_old_text, old_len) != 0)) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL,
                 "the file changed since it was read (another editor or process wrote it); nothing was written: run "
                 "the command again");
        ok = false;
    }
    arena_free(a);
    if (!ok) return false;
    return file_write_atomic(path, new_text, new_len, st.st_mode & 07777, false, diags);
}

/* ---------------------------------------------------------------------------------------------- */
/* definitions a program already has (cli/existing_refs.c: references to them)                      */

/* Whether resource r is exactly the value bound to its statement's first name: between them only
 * `=`/`:=`, a type annotation or Go's `, err`; after it only `;` up to stmt_end. */
static bool sp_is_bound_value(const sp_program_t *p, const sp_stmt_t *r, uint32_t stmt_end) {
    if (!r->ndecls || r->decls[0].end > r->res_start || r->res_end > stmt_end) return false;
    bool eq = false;
    for (uint32_t k = r->decls[0].end; k < r->res_start; k++) {
        char ch = p->text[k];
        if (ch == '=')
            eq = true;
        else if (ch == '(' || ch == '[' || ch == '{' || ch == '"' || ch == '\'' || ch == '`' ||
                 (ch == ',' && p->lang != LANG_GO))
            return false;
    }
    if (!eq) return false;
    for (uint32_t k = r->res_end; k < stmt_end; k++)
        if (p->text[k] != ';' && !isspace((unsigned char)p->text[k])) return false;
    return true;
}

/* The body statement starting at off, or NULL (stmts are in source order). */
static const sp_stmt_t *sp_body_stmt_at(const sp_program_t *p, uint32_t off) {
    size_t lo = 0, hi = p->nstmts;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->stmts[mid].start < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nstmts && p->stmts[lo].start == off ? &p->stmts[lo] : NULL;
}

bool splicer_list_definitions(splicer_t *s, const char *text, size_t len, lang_t lang, const char *filename, arena_t *a,
                              splice_definition_t **out, size_t *n_out, diag_list_t *diags) {
    *out = NULL;
    *n_out = 0;
    const char *file = filename ? filename : "program";
    if (lang == LANG_PCL || !ts_check_language(lang)) {
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, file, NULL,
                 "cannot read the resources of a %s file: only TypeScript/JavaScript, Python, Go, C#, Java and Pulumi "
                 "YAML programs are supported",
                 lang_name(lang));
        return false;
    }
    if (len > UINT32_MAX / 2) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL, "the file is too large to read");
        return false;
    }
    if (!sp_check_encoding(text, len, file, diags)) return false;
    arena_t *tmp = arena_new();
    sp_program_t P = {.a = tmp, .lang = lang, .text = text, .len = (uint32_t)len};
    bool ok = sp_parse(s, &P, NULL, file, false, diags);
    splice_definition_t *defs = NULL;
    size_t n = 0, cap = 0;
    unsigned line = 1;
    uint32_t line_off = 0;
#define SP_LINE_AT(off)                                                                                                \
    do {                                                                                                               \
        for (; line_off < (off); line_off++)                                                                           \
            if (text[line_off] == '\n') line++;                                                                        \
    } while (0)
    if (ok && lang == LANG_YAML) {
        TSNode top;
        if (!sp_yaml_top(&P, &top)) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, file, NULL,
                     "the file is not a single YAML mapping (a Pulumi YAML program has top-level keys such as name, "
                     "runtime and resources)");
            ok = false;
        } else {
            TSNode sec = sp_yaml_find_section(&P, top, "resources");
            sp_ypair_t *v = NULL;
            size_t nv =
                ts_node_is_null(sec) ? 0 : sp_yaml_pairs(&P, sp_yaml_block_mapping(sp_field(sec, "value", 5)), &v);
            for (size_t i = 0; i < nv; i++) {
                if (!*v[i].type || !*v[i].name) continue;
                SP_PUSH(a, defs, n, cap);
                SP_LINE_AT(ts_node_start_byte(v[i].pair));
                defs[n - 1] = (splice_definition_t){arena_strdup(a, v[i].name), arena_strdup(a, v[i].logical),
                                                    arena_strdup(a, v[i].type), line};
            }
        }
    } else if (ok) {
        ok = sp_analyze(s, &P, true, file, diags);
        for (size_t i = 0; ok && i < P.nres; i++) {
            const sp_stmt_t *r = &P.res[i];
            const sp_stmt_t *top = sp_body_stmt_at(&P, r->start);
            const char *var = NULL;
            /* a body statement is in scope where splicing inserts; one nested in a block is not */
            if (top && sp_is_bound_value(&P, r, sp_end_byte(top->node)) && strcmp(r->decls[0].name, "_") != 0)
                var = arena_strdup(a, r->decls[0].name);
            SP_PUSH(a, defs, n, cap);
            SP_LINE_AT(r->start);
            defs[n - 1] = (splice_definition_t){var, arena_strdup(a, r->res_name), arena_strdup(a, r->res_type), line};
        }
    }
#undef SP_LINE_AT
    if (P.tree) ts_tree_delete(P.tree);
    arena_free(tmp);
    if (!ok) return false;
    *out = defs;
    *n_out = n;
    return true;
}

bool splice_list_definitions(const char *text, size_t len, lang_t lang, const char *filename, arena_t *a,
                             splice_definition_t **out, size_t *n_out, diag_list_t *diags) {
    splicer_t *s = splicer_new();
    bool ok = splicer_list_definitions(s, text, len, lang, filename, a, out, n_out, diags);
    splicer_free(s);
    return ok;
}

bool splicer_read_file(splicer_t *s, const char *text, size_t len, lang_t lang, const char *name, arena_t *a,
                       splice_file_t *out, diag_list_t *diags) {
    memset(out, 0, sizeof *out);
    out->name = name;
    if (lang == LANG_PCL || lang == LANG_YAML || !ts_check_language(lang)) return true; /* no modules of its own */
    if (len > UINT32_MAX / 4) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, name, NULL,
                 "this file of the program is too large to read (1 GiB at most): nothing was changed");
        return false;
    }
    if (!sp_check_encoding(text, len, name, diags)) return false;
    arena_t *tmp = arena_new();
    sp_program_t P = {
        .a = tmp, .lang = lang, .text = text, .len = (uint32_t)len, .stuck_at = UINT32_MAX, .other = true};
    bool ok = sp_parse(s, &P, NULL, name, false, diags) && sp_analyze_other(s, &P, diags);
    if (ok) {
        const char **mods;
        size_t nm = sp_module_refs(&P, &mods, &out->n_run_modules);
        out->modules = nm ? arena_alloc(a, nm * sizeof *out->modules) : NULL;
        for (size_t i = 0; i < nm; i++)
            out->modules[out->n_modules++] = arena_strdup(a, mods[i]);
        struct sp_file_defs *fd = arena_alloc(a, sizeof *fd);
        memset(fd, 0, sizeof *fd);
        fd->p.lang = lang;
        fd->p.imports = P.nimports ? arena_alloc(a, P.nimports * sizeof *fd->p.imports) : NULL;
        for (size_t i = 0; i < P.nimports; i++) {
            sp_import_t im = P.imports[i];
            im.path = im.path ? arena_strdup(a, im.path) : NULL;
            im.local = im.local ? arena_strdup(a, im.local) : NULL;
            fd->p.imports[fd->p.nimports++] = im;
        }
        fd->p.classes = P.nclasses ? arena_alloc(a, P.nclasses * sizeof *fd->p.classes) : NULL;
        for (size_t i = 0; i < P.nclasses; i++) {
            const sp_class_t *k = &P.classes[i];
            fd->p.classes[fd->p.nclasses++] = (sp_class_t){.name = arena_strndup(a, k->name, k->nl),
                                                           .nl = k->nl,
                                                           .head = arena_strndup(a, k->head, k->hl),
                                                           .hl = k->hl};
        }
        size_t n = P.nres + P.nunread;
        fd->res = arena_alloc(a, (n + 1) * sizeof *fd->res);
        /* lines counted in one pass over the text: resources and unread ones each in source order */
        for (int pass = 0; pass < 2; pass++) {
            const sp_stmt_t *list = pass ? P.unread : P.res;
            size_t count = pass ? P.nunread : P.nres;
            unsigned line = 1;
            uint32_t at = 0;
            for (size_t i = 0; i < count; i++) {
                const sp_stmt_t *r = &list[i];
                for (; at < r->res_start; at++)
                    if (text[at] == '\n') line++;
                fd->res[fd->nres++] = (sp_other_res_t){
                    .name = arena_strdup(a, r->res_name ? r->res_name : ""),
                    .type = r->res_type ? arena_strdup(a, r->res_type) : NULL,
                    .call = arena_strdup(a, sp_call_head(tmp, &P, r)),
                    .name_text =
                        pass ? arena_strdup(a, sp_one_line(tmp, text + r->name_start, r->name_end - r->name_start, 60))
                             : NULL,
                    .has_parent = !pass && sp_parent_text(&P, r) != NULL,
                    .line = line};
            }
        }
        out->defs = fd;
    }
    if (P.tree) ts_tree_delete(P.tree);
    arena_free(tmp);
    return ok;
}

/* Lowercase without `-`, `_`, `/` and `.`, so `pulumi-random`, `Pulumi_Random` and `apps/v1`
 * compare as spelled alike. */
static char *sp_type_norm(arena_t *a, const char *s, size_t n) {
    char *r = arena_alloc(a, n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '-' && s[i] != '_' && s[i] != '/' && s[i] != '.') r[k++] = (char)tolower((unsigned char)s[i]);
    r[k] = 0;
    return r;
}

/* `pkg:mod/file:Member` → package, normalized module ("" for index) and member. Also the collapsed
 * YAML forms `pkg:Member`, `pkg:mod:Member`; providers `pulumi:providers:pkg` → pkg, "", Provider. */
static bool sp_token_parts(arena_t *a, const char *tok, const char **pkg, const char **mod, const char **member) {
    const char *c1 = strchr(tok, ':');
    if (!c1 || c1 == tok) return false;
    const char *c2 = strchr(c1 + 1, ':');
    if (strncmp(tok, "pulumi:providers:", 17) == 0) {
        *pkg = sp_type_norm(a, tok + 17, strlen(tok + 17));
        *mod = "";
        *member = "Provider";
        return **pkg != 0;
    }
    *pkg = sp_type_norm(a, tok, (size_t)(c1 - tok));
    if (!c2) {
        *mod = "";
        *member = c1 + 1;
        return *c1 != 0 && c1[1] != 0;
    }
    *member = c2 + 1;
    const char *ms = c1 + 1;
    size_t ml = (size_t)(c2 - ms);
    /* AWS-style module formats: `s3/bucket:Bucket`, `index/randomPet:RandomPet` — drop the file part */
    const char *slash = NULL;
    for (const char *q = ms; q < c2; q++)
        if (*q == '/') slash = q;
    if (slash && (size_t)(c2 - slash - 1) == strlen(*member) && strncasecmp(slash + 1, *member, strlen(*member)) == 0)
        ml = (size_t)(slash - ms);
    *mod = sp_type_norm(a, ms, ml);
    if (strcmp(*mod, "index") == 0) *mod = "";
    return **member != 0;
}

bool splice_type_matches(lang_t lang, const char *type, const char *token) {
    if (!type || !token) return false;
    arena_t *a = arena_new();
    const char *pkg, *mod, *member;
    bool ok = sp_token_parts(a, token, &pkg, &mod, &member);
    if (ok && lang == LANG_YAML) {
        const char *tp, *tm, *tn;
        ok = sp_token_parts(a, type, &tp, &tm, &tn) && strcmp(tp, pkg) == 0 && strcmp(tm, mod) == 0 &&
             strcmp(tn, member) == 0;
    } else if (ok) {
        const char *dot = strrchr(type, '.');
        const char *cls = dot ? dot + 1 : type;
        if (lang == LANG_GO) cls = strncmp(cls, "New", 3) == 0 ? cls + 3 : "";
        ok = dot && strcmp(cls, member) == 0;
        if (ok && lang == LANG_JAVA && strncmp(type, "*.", 2) == 0) {
            /* a class from a wildcard import: the package is not written */
        } else if (ok) {
            /* segments of the path before the class, split at `.` and `/` */
            const char *segs[64];
            size_t segl[64], ns = 0;
            for (const char *p = type; p < dot && ns < 64;) {
                const char *e = p;
                while (e < dot && *e != '.' && *e != '/')
                    e++;
                segs[ns] = p;
                segl[ns++] = (size_t)(e - p);
                p = e + 1;
            }
            const char *ppkg = arena_sprintf(a, "pulumi%s", pkg);
            size_t at = SIZE_MAX;
            for (size_t i = ns; i-- > 0;) {
                const char *sn = sp_type_norm(a, segs[i], segl[i]);
                if (strcmp(sn, pkg) == 0 || strcmp(sn, ppkg) == 0) {
                    at = i;
                    break;
                }
            }
            ok = at != SIZE_MAX;
            if (ok) {
                buf_t m;
                buf_init(&m);
                for (size_t i = at + 1; i < ns; i++)
                    buf_puts(&m, sp_type_norm(a, segs[i], segl[i]));
                ok = strcmp(m.data ? m.data : "", mod) == 0;
                buf_free(&m);
            }
        }
    }
    arena_free(a);
    return ok;
}

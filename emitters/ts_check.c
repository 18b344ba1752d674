/* ts_check.c — parse a buffer with a pinned tree-sitter grammar and list its ERROR/MISSING nodes. */
#include "emitters/ts_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

/* Provided by cimport_grammars (cmake/grammars.cmake). */
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_go(void);
const TSLanguage *tree_sitter_c_sharp(void);
const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_yaml(void);

const TSLanguage *ts_check_language(lang_t lang) {
    switch (lang) {
    case LANG_TYPESCRIPT: return tree_sitter_typescript();
    case LANG_PYTHON: return tree_sitter_python();
    case LANG_GO: return tree_sitter_go();
    case LANG_CSHARP: return tree_sitter_c_sharp();
    case LANG_JAVA: return tree_sitter_java();
    case LANG_YAML: return tree_sitter_yaml();
    case LANG_PCL: return NULL;
    }
    return NULL;
}

bool ts_check_comments_ok(lang_t lang, const char *text, size_t len, size_t *count) {
    size_t n = 0;
    bool hash = lang == LANG_PYTHON || lang == LANG_YAML || lang == LANG_CSHARP;
    bool slash = lang != LANG_PYTHON && lang != LANG_YAML;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (hash && c == '#')
            n++;
        else if (slash && c == '/' && i + 1 < len && (text[i + 1] == '/' || text[i + 1] == '*'))
            n++, i++;
        else if (lang == LANG_TYPESCRIPT && ((c == '<' && i + 3 < len && memcmp(text + i, "<!--", 4) == 0) ||
                                             (c == '-' && i + 2 < len && memcmp(text + i, "-->", 3) == 0)))
            n++, i += 2;
    }
    if (count) *count = n;
    return n < TS_CHECK_MAX_COMMENTS;
}

/* ---------------------------------------------------------------------------------------------- */
/* Runs of extras (see ts_check.h)                                                                  */

typedef struct {
    uint32_t start, end; /* the extra's bytes (a line comment without its line break) */
    bool blankable;      /* a comment or directive that may become spaces */
    uint8_t cond;        /* C# #if 1, #elif/#else 2, #endif 3; 0: not a conditional directive */
    bool after_code;     /* code lies between it and the extra before: a new run */
} ts_extra_t;

typedef struct {
    lang_t lang;
    const char *t;
    uint32_t len, i;
    vec_t extras;       /* ts_extra_t */
    bool code;          /* code seen since the last extra */
    char prev;          /* TypeScript: the last significant code character (regex or division) */
    bool prev_word;     /* ... and whether it ended a word that allows a regex after it */
    int64_t yaml_block; /* YAML: in a block scalar whose lines are indented more than this; -1: none */
    uint32_t *braces;   /* TypeScript: brace depth of each open template substitution */
    size_t nbraces, cbraces;
} ts_scan_t;

static bool ts_ws(char c) {
    /* Bytes of other scripts may be Unicode white space to a grammar: never a run break. */
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || (unsigned char)c >= 0x80;
}

static void ts_scan_extra(ts_scan_t *sc, uint32_t start, uint32_t end, bool blankable) {
    ts_extra_t *e = vec_push(&sc->extras);
    *e = (ts_extra_t){start, end, blankable, 0, sc->code};
    sc->code = false;
}

static uint32_t ts_scan_eol(const ts_scan_t *sc, uint32_t i) {
    while (i < sc->len && sc->t[i] != '\n' && sc->t[i] != '\r')
        i++;
    return i;
}

/* A quoted literal from sc->i (at its first quote, `q` long): to the closing quote, or the end of
 * the line when `multiline` is false. `esc`: backslash escapes; `doubled`: a doubled quote is one. */
static void ts_scan_quoted(ts_scan_t *sc, uint32_t q, bool multiline, bool esc, bool doubled) {
    const char *t = sc->t;
    char ch = t[sc->i];
    uint32_t i = sc->i + q;
    while (i < sc->len) {
        if (esc && t[i] == '\\') {
            i += 2;
            continue;
        }
        if (!multiline && (t[i] == '\n' || t[i] == '\r')) break;
        if (t[i] == ch) {
            uint32_t k = 0;
            while (k < q && i + k < sc->len && t[i + k] == ch)
                k++;
            if (k == q) {
                if (doubled && q == 1 && i + 1 < sc->len && t[i + 1] == ch) {
                    i += 2;
                    continue;
                }
                i += q;
                break;
            }
            i += k;
            continue;
        }
        i++;
    }
    sc->i = i < sc->len ? i : sc->len;
    sc->code = true;
}

/* TypeScript: a template literal's text from sc->i to its closing backtick or a `${`. */
static void ts_scan_template(ts_scan_t *sc) {
    const char *t = sc->t;
    uint32_t i = sc->i;
    while (i < sc->len && t[i] != '`') {
        if (t[i] == '\\') {
            i += 2;
            continue;
        }
        if (t[i] == '$' && i + 1 < sc->len && t[i + 1] == '{') {
            sc->braces = vec_grow(sc->braces, &sc->cbraces, sc->nbraces + 1, sizeof *sc->braces);
            sc->braces[sc->nbraces++] = 0;
            sc->i = i + 2;
            sc->prev = '{';
            return;
        }
        i++;
    }
    sc->i = i < sc->len ? i + 1 : sc->len;
    sc->prev = '`';
}

static bool ts_regex_allowed(const ts_scan_t *sc) {
    return sc->prev_word || sc->prev == 0 || strchr("(,=:[!&|?{};+-*%<>~^", sc->prev) != NULL;
}

static bool ts_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

static bool ts_line_start(const ts_scan_t *sc, uint32_t i) {
    while (i > 0 && (sc->t[i - 1] == ' ' || sc->t[i - 1] == '\t'))
        i--;
    return i == 0 || sc->t[i - 1] == '\n' || sc->t[i - 1] == '\r';
}

/* C#: the directive at `i` (after `#` and spaces): 0 one that may become spaces on its own, 1 #if,
 * 2 #elif/#else, 3 #endif (blanked only as a whole group), 4 any other (kept). */
static uint8_t ts_cs_directive(const ts_scan_t *sc, uint32_t i) {
    static const struct {
        const char *word;
        uint8_t kind;
    } kinds[] = {{"region", 0}, {"endregion", 0}, {"pragma", 0}, {"nullable", 0}, {"warning", 0}, {"error", 0},
                 {"line", 0},   {"if", 1},        {"elif", 2},   {"else", 2},     {"endif", 3}};
    while (i < sc->len && (sc->t[i] == ' ' || sc->t[i] == '\t'))
        i++;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        size_t n = strlen(kinds[k].word);
        if (i + n <= sc->len && memcmp(sc->t + i, kinds[k].word, n) == 0 &&
            (i + n == sc->len || !ts_word_char(sc->t[i + n])))
            return kinds[k].kind;
    }
    return 4;
}

/* One step of the scanner from sc->i: white space, an extra, a literal or one code character. */
static void ts_scan_step(ts_scan_t *sc) {
    const char *t = sc->t;
    uint32_t i = sc->i, len = sc->len;
    char c = t[i], d = i + 1 < len ? t[i + 1] : 0;
    lang_t L = sc->lang;
    bool cstyle = L == LANG_TYPESCRIPT || L == LANG_GO || L == LANG_JAVA || L == LANG_CSHARP;
    if (ts_ws(c)) {
        sc->i++;
        if (c == '\n' && sc->yaml_block >= 0) {
            /* Lines of a block scalar: blank or indented more than its parent. */
            for (;;) {
                uint32_t k = sc->i;
                while (k < len && t[k] == ' ')
                    k++;
                uint32_t e = ts_scan_eol(sc, k);
                uint32_t m = k;
                while (m < e && (t[m] == ' ' || t[m] == '\t'))
                    m++;
                bool blank = m == e;
                if (!blank && (int64_t)(k - sc->i) <= sc->yaml_block) break;
                if (!blank) sc->code = true;
                sc->i = e < len ? e + 1 : len;
                if (sc->i >= len) break;
            }
            sc->yaml_block = -1;
        }
        return;
    }
    if (cstyle && c == '/' && d == '/') {
        uint32_t e = ts_scan_eol(sc, i);
        ts_scan_extra(sc, i, e, true);
        sc->i = e;
        return;
    }
    if (cstyle && c == '/' && d == '*') {
        const char *close = NULL;
        for (uint32_t k = i + 2; k + 1 < len; k++)
            if (t[k] == '*' && t[k + 1] == '/') {
                close = t + k;
                break;
            }
        uint32_t e = close ? (uint32_t)(close - t) + 2 : len;
        ts_scan_extra(sc, i, e, close != NULL);
        sc->i = e;
        return;
    }
    if ((L == LANG_PYTHON && c == '#') || (L == LANG_YAML && c == '#' && (i == 0 || ts_ws(t[i - 1])))) {
        uint32_t e = ts_scan_eol(sc, i);
        ts_scan_extra(sc, i, e, true);
        sc->i = e;
        return;
    }
    if (L == LANG_CSHARP && c == '#' && ts_line_start(sc, i)) {
        uint32_t e = ts_scan_eol(sc, i);
        uint8_t kind = ts_cs_directive(sc, i + 1);
        ts_scan_extra(sc, i, e, kind == 0);
        if (kind >= 1 && kind <= 3) ((ts_extra_t *)vec_last(&sc->extras))->cond = kind;
        sc->i = e;
        return;
    }
    if (L == LANG_TYPESCRIPT && ((c == '<' && i + 3 < len && memcmp(t + i, "<!--", 4) == 0) ||
                                 (c == '-' && i + 2 < len && memcmp(t + i, "-->", 3) == 0 && ts_line_start(sc, i)))) {
        uint32_t e = ts_scan_eol(sc, i);
        ts_scan_extra(sc, i, e, false);
        sc->i = e;
        return;
    }
    sc->code = true;
    bool word = ts_word_char(c);
    switch (L) {
    case LANG_TYPESCRIPT:
        if (c == '\'' || c == '"') {
            ts_scan_quoted(sc, 1, false, true, false);
        } else if (c == '`') {
            sc->i++;
            ts_scan_template(sc);
            return;
        } else if (c == '/' && ts_regex_allowed(sc)) {
            uint32_t k = i + 1;
            bool cls = false;
            while (k < len && t[k] != '\n' && t[k] != '\r') {
                if (t[k] == '\\')
                    k++;
                else if (t[k] == '[')
                    cls = true;
                else if (t[k] == ']')
                    cls = false;
                else if (t[k] == '/' && !cls)
                    break;
                k++;
            }
            sc->i = k < len ? k + 1 : len;
        } else if (c == '{' && sc->nbraces > 0) {
            sc->braces[sc->nbraces - 1]++;
            sc->i++;
        } else if (c == '}' && sc->nbraces > 0 && sc->braces[sc->nbraces - 1] == 0) {
            sc->nbraces--;
            sc->i++;
            ts_scan_template(sc);
            return;
        } else {
            if (c == '}' && sc->nbraces > 0) sc->braces[sc->nbraces - 1]--;
            if (word) {
                uint32_t k = i;
                while (k < len && ts_word_char(t[k]))
                    k++;
                static const char *const kw[] = {"return", "typeof", "case", "do",    "else",  "in",    "of",
                                                 "new",    "delete", "void", "throw", "yield", "await", "instanceof"};
                sc->prev_word = false;
                for (size_t w = 0; w < sizeof kw / sizeof *kw; w++)
                    if (strlen(kw[w]) == k - i && memcmp(t + i, kw[w], k - i) == 0) sc->prev_word = true;
                sc->prev = t[k - 1];
                sc->i = k;
                return;
            }
            sc->i++;
        }
        sc->prev = t[sc->i - 1];
        sc->prev_word = false;
        return;
    case LANG_PYTHON:
        if (c == '\'' || c == '"') {
            bool triple = i + 2 < len && t[i + 1] == c && t[i + 2] == c;
            ts_scan_quoted(sc, triple ? 3 : 1, triple, true, false);
            return;
        }
        break;
    case LANG_GO:
        if (c == '`') return ts_scan_quoted(sc, 1, true, false, false);
        if (c == '"' || c == '\'') return ts_scan_quoted(sc, 1, false, true, false);
        break;
    case LANG_JAVA:
        if (c == '"' && i + 2 < len && t[i + 1] == '"' && t[i + 2] == '"')
            return ts_scan_quoted(sc, 3, true, true, false);
        if (c == '"' || c == '\'') return ts_scan_quoted(sc, 1, false, true, false);
        break;
    case LANG_CSHARP: {
        /* $ and @ prefixes: verbatim strings span lines and double their quotes. */
        uint32_t k = i;
        bool verbatim = false;
        while (k < len && (t[k] == '$' || t[k] == '@'))
            verbatim |= t[k++] == '@';
        if (k < len && t[k] == '"') {
            uint32_t q = 0;
            while (k + q < len && t[k + q] == '"')
                q++;
            sc->i = k;
            if (q >= 3) return ts_scan_quoted(sc, q, true, false, false);
            if (q == 2) { /* "" */
                sc->i = k + 2;
                return;
            }
            return ts_scan_quoted(sc, 1, verbatim, !verbatim, verbatim);
        }
        if (c == '\'') return ts_scan_quoted(sc, 1, false, true, false);
        break;
    }
    case LANG_YAML:
        if (c == '\'' || c == '"') return ts_scan_quoted(sc, 1, false, c == '"', c == '\'');
        if (c == '|' || c == '>') {
            /* A block scalar header: the indicator, then [-+0-9], then nothing or a comment. */
            uint32_t k = i + 1;
            while (k < len && (t[k] == '-' || t[k] == '+' || (t[k] >= '0' && t[k] <= '9')))
                k++;
            while (k < len && (t[k] == ' ' || t[k] == '\t'))
                k++;
            uint32_t ls = i;
            while (ls > 0 && t[ls - 1] != '\n' && t[ls - 1] != '\r')
                ls--;
            uint32_t p = ls;
            while (p < i && t[p] == ' ')
                p++;
            while (p + 1 < i && t[p] == '-' && (t[p + 1] == ' ' || t[p + 1] == '\t')) {
                uint32_t q = p + 1;
                while (q < i && (t[q] == ' ' || t[q] == '\t'))
                    q++;
                if (q == i) break;
                p = q;
            }
            uint32_t b = i;
            while (b > ls && (t[b - 1] == ' ' || t[b - 1] == '\t'))
                b--;
            bool value = b == ls || t[b - 1] == ':' || t[b - 1] == '-';
            if (value && (k >= len || t[k] == '\n' || t[k] == '\r' || t[k] == '#')) sc->yaml_block = p - ls;
        }
        break;
    case LANG_PCL: break;
    }
    sc->i++;
}

/* Blanks the inner comments of long runs into `copy` and records the blanked ranges (start, end
 * pairs) in *ranges. False with `why` when a run cannot be cut. */
static bool ts_blank_runs(ts_scan_t *sc, char *copy, vec_t *ranges, char *why, size_t whylen) {
    size_t n = sc->extras.len;
    ts_extra_t *x = sc->extras.data;
    for (size_t a = 0; a < n;) {
        size_t b = a + 1;
        while (b < n && !x[b].after_code)
            b++;
        if (b - a >= TS_CHECK_RUN_KEEP) {
            /* C# conditional groups (#if ... #endif) wholly inside the run, away from its ends, wrap
             * only white space and comments: the whole group may go. */
            size_t *open = NULL, nopen = 0, copen = 0;
            for (size_t k = a; k < b; k++) {
                if (x[k].cond == 1) {
                    open = vec_grow(open, &copen, nopen + 1, sizeof *open);
                    open[nopen++] = k;
                } else if (x[k].cond == 3 && nopen > 0) {
                    size_t o = open[--nopen];
                    if (o > a && k < b - 1)
                        for (size_t g = o; g <= k; g++)
                            if (x[g].cond) x[g].blankable = true;
                }
            }
            free(open);
            size_t kept = 0;
            for (size_t k = a; k < b; k++) {
                if (k == a || k == b - 1 || !x[k].blankable) {
                    if (++kept >= TS_CHECK_RUN_KEEP) {
                        if (why)
                            snprintf(why, whylen,
                                     "the file has %d or more %s in a row from byte %u; cimport's tree-sitter "
                                     "runtime (libtree-sitter 0.20.7) corrupts memory on 65,535 extras in a row, "
                                     "and these cannot be hidden from it",
                                     TS_CHECK_RUN_KEEP,
                                     sc->lang == LANG_CSHARP ? "unmatched or unknown C# directives"
                                                             : "`<!--`/`-->` comments",
                                     x[a].start);
                        return false;
                    }
                    continue;
                }
                kept = 0;
                for (uint32_t j = x[k].start; j < x[k].end; j++)
                    if (copy[j] != '\n' && copy[j] != '\r') copy[j] = ' ';
                VEC_PUSH(ranges, uint32_t, x[k].start);
                VEC_PUSH(ranges, uint32_t, x[k].end);
            }
        }
        a = b;
    }
    return true;
}

static bool ts_stringish(const char *type) {
    return strstr(type, "string") || strstr(type, "template") || strstr(type, "comment") || strstr(type, "scalar") ||
           strstr(type, "text_block") || strstr(type, "heredoc") || strstr(type, "regex");
}

/* Whether every blanked range lies between tokens of `root` (sorted, disjoint start/end pairs). */
static bool ts_blanks_between_tokens(TSNode root, const uint32_t *r, size_t nr) {
    size_t idx = 0;
    TSTreeCursor cur = ts_tree_cursor_new(root);
    bool ok = true;
    for (;;) {
        TSNode node = ts_tree_cursor_current_node(&cur);
        uint32_t s = ts_node_start_byte(node), e = ts_node_end_byte(node);
        while (idx < nr && r[2 * idx + 1] <= s)
            idx++;
        bool overlaps = idx < nr && r[2 * idx] < e;
        if (overlaps && (ts_node_child_count(node) == 0 || ts_stringish(ts_node_type(node)))) {
            ok = false;
            break;
        }
        if (overlaps && ts_tree_cursor_goto_first_child(&cur)) continue;
        bool done = false;
        while (!ts_tree_cursor_goto_next_sibling(&cur))
            if (!ts_tree_cursor_goto_parent(&cur)) {
                done = true;
                break;
            }
        if (done) break;
    }
    ts_tree_cursor_delete(&cur);
    return ok;
}

double ts_check_parse_budget_s(size_t len) {
    const char *env = getenv("CIMPORT_PARSE_TIMEOUT");
    if (env && *env) {
        char *end = NULL;
        double s = strtod(env, &end);
        if (end && *end == 0 && s > 0 && s <= 86400) return s;
    }
    return TS_CHECK_PARSE_BUDGET_S + TS_CHECK_PARSE_BUDGET_S_PER_MB * ((double)len / 1e6);
}

/* One parse under the budget; a parser that timed out would resume that parse on its next call,
 * so it is reset. */
static TSTree *ts_parse_budgeted(TSParser *parser, const TSTree *old, const char *text, uint32_t len,
                                 ts_check_parse_info_t *info) {
    ts_parser_set_timeout_micros(parser, (uint64_t)(info->budget_s * 1e6));
    TSTree *tree = ts_parser_parse_string(parser, old, text, len);
    if (!tree) {
        /* With a language set, tree-sitter returns NULL only for a timeout (no cancellation
         * flag is used). */
        info->timed_out = true;
        ts_parser_reset(parser);
    }
    ts_parser_set_timeout_micros(parser, 0);
    return tree;
}

bool ts_check_yaml_rows_ok(const char *text, size_t len, char *why, size_t whylen) {
    size_t breaks = 0, lines = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' || text[i] == '\r') {
            breaks++;
            if (text[i] == '\n' || i + 1 == len || text[i + 1] != '\n') lines++; /* CR LF is one line end */
        }
    if (breaks <= TS_CHECK_YAML_MAX_BREAKS) return true;
    if (len > 0 && text[len - 1] != '\n' && text[len - 1] != '\r') lines++;
    if (why)
        snprintf(why, whylen,
                 "the file has %zu lines; cimport's YAML grammar (tree-sitter-yaml 0.7.1) keeps line numbers in 16 "
                 "bits and misreads a file of more than 32,767 line breaks (a CR LF line end counts as two)",
                 lines);
    return false;
}

TSTree *ts_check_parse_safe(TSParser *parser, lang_t lang, const char *text, uint32_t len, const TSTree *old, char *why,
                            size_t whylen, ts_check_parse_info_t *info) {
    ts_check_parse_info_t local;
    if (!info) info = &local;
    *info = (ts_check_parse_info_t){.budget_s = ts_check_parse_budget_s(len)};
    if (why && whylen) why[0] = 0;
    if (ts_check_comments_ok(lang, text, len, NULL)) return ts_parse_budgeted(parser, old, text, len, info);
    ts_scan_t sc = {.lang = lang, .t = text, .len = len, .extras = VEC_INIT(ts_extra_t), .yaml_block = -1};
    while (sc.i < len)
        ts_scan_step(&sc);
    free(sc.braces);
    char *copy = malloc(len ? len : 1);
    if (!copy) abort();
    memcpy(copy, text, len);
    vec_t ranges = VEC_INIT(uint32_t);
    TSTree *tree = NULL;
    if (ts_blank_runs(&sc, copy, &ranges, why, whylen)) {
        tree = ts_parse_budgeted(parser, NULL, copy, len, info);
        size_t nr = ranges.len / 2;
        if (tree && nr > 0 && !ts_blanks_between_tokens(ts_tree_root_node(tree), ranges.data, nr)) {
            ts_tree_delete(tree);
            tree = NULL;
            if (why)
                snprintf(why, whylen,
                         "the file has runs of 1,000 or more comments that cimport cannot tell apart from string "
                         "text; cimport's tree-sitter runtime (libtree-sitter 0.20.7) corrupts memory on 65,535 "
                         "extras in a row, so it does not parse the file");
        }
        if (tree) info->blanked = nr;
    }
    vec_free(&ranges);
    vec_free(&sc.extras);
    free(copy);
    return tree;
}

TSTree *ts_check_parse_plain(TSParser *parser, const char *text, uint32_t len, const TSTree *old,
                             ts_check_parse_info_t *info) {
    *info = (ts_check_parse_info_t){.budget_s = ts_check_parse_budget_s(len)};
    return ts_parse_budgeted(parser, old, text, len, info);
}

TSTree *ts_check_parse(lang_t lang, const char *text, size_t len) {
    const TSLanguage *language = ts_check_language(lang);
    if (!language || len > UINT32_MAX) return NULL;
    TSParser *parser = ts_parser_new();
    TSTree *tree = NULL;
    /* set_language fails only for a grammar of an ABI the runtime does not accept. */
    if (ts_parser_set_language(parser, language))
        tree = ts_check_parse_safe(parser, lang, text, (uint32_t)len, NULL, NULL, 0, NULL);
    ts_parser_delete(parser);
    return tree;
}

/* Iterative pre-order walk with a tree cursor (no recursion: generated files can nest deeply).
 * Subtrees without errors are skipped whole, so a clean file costs one check at the root. */
size_t ts_check_collect(TSNode root, ts_check_problem_t *out, size_t max) {
    size_t found = 0;
    if (!ts_node_has_error(root)) return 0;
    TSTreeCursor cur = ts_tree_cursor_new(root);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        bool descend = false;
        if (ts_node_is_missing(n) || strcmp(ts_node_type(n), "ERROR") == 0) {
            if (found < max) {
                TSPoint p = ts_node_start_point(n);
                out[found].line = p.row + 1;
                out[found].column = p.column + 1;
                out[found].missing = ts_node_is_missing(n);
                out[found].what = out[found].missing ? ts_node_type(n) : NULL;
            }
            found++;
            /* An ERROR node's children are the tokens it swallowed; further problems inside it
             * would only repeat the same one. */
        } else if (ts_node_has_error(n)) {
            descend = true;
        }
        if (descend && ts_tree_cursor_goto_first_child(&cur)) continue;
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (!ts_tree_cursor_goto_parent(&cur)) {
                ts_tree_cursor_delete(&cur);
                return found;
            }
        }
    }
}

size_t ts_check_buffer(lang_t lang, const char *text, size_t len, const char *filename, diag_list_t *diags) {
    enum { MAX_REPORTED = 20 };
    TSTree *tree = ts_check_parse(lang, text, len);
    if (!tree) {
        if (!ts_check_language(lang))
            diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                     "cannot check %s code: no tree-sitter grammar for it is built in", lang_title(lang));
        else
            diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                     "cannot check generated %s code: tree-sitter did not parse it (time budget of %g s, or long "
                     "runs of comments)",
                     lang_title(lang), ts_check_parse_budget_s(len));
        return 1;
    }
    ts_check_problem_t problems[MAX_REPORTED];
    size_t n = ts_check_collect(ts_tree_root_node(tree), problems, MAX_REPORTED);
    for (size_t i = 0; i < n && i < MAX_REPORTED; i++) {
        diag_t *d;
        if (problems[i].missing)
            d = diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                         "syntax error in generated %s code: missing `%s` at column %u", lang_title(lang),
                         problems[i].what, problems[i].column);
        else
            d = diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                         "syntax error in generated %s code: unexpected text at column %u", lang_title(lang),
                         problems[i].column);
        d->line = (int)problems[i].line;
    }
    if (n > MAX_REPORTED)
        diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL, "%zu more syntax errors not shown", n - MAX_REPORTED);
    ts_tree_delete(tree);
    return n;
}

/* ts_check.c — parse a buffer with a pinned tree-sitter grammar and list its ERROR/MISSING nodes. */
#include "emitters/ts_check.h"

#include <string.h>

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
    bool hash = lang == LANG_PYTHON || lang == LANG_YAML;
    for (size_t i = 0; i < len; i++) {
        if (hash ? text[i] == '#' : (text[i] == '/' && i + 1 < len && (text[i + 1] == '/' || text[i + 1] == '*'))) {
            n++;
            if (!hash) i++;
        }
    }
    if (count) *count = n;
    return n < TS_CHECK_MAX_COMMENTS;
}

TSTree *ts_check_parse(lang_t lang, const char *text, size_t len) {
    const TSLanguage *language = ts_check_language(lang);
    if (!language || !ts_check_comments_ok(lang, text, len, NULL)) return NULL;
    TSParser *parser = ts_parser_new();
    TSTree *tree = NULL;
    /* set_language fails only for a grammar of an ABI the runtime does not accept. */
    if (ts_parser_set_language(parser, language)) tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
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

static const char *ts_check_lang_title(lang_t lang) {
    switch (lang) {
    case LANG_TYPESCRIPT: return "TypeScript";
    case LANG_PYTHON: return "Python";
    case LANG_GO: return "Go";
    case LANG_CSHARP: return "C#";
    case LANG_JAVA: return "Java";
    case LANG_YAML: return "YAML";
    case LANG_PCL: return "PCL";
    }
    return "?";
}

size_t ts_check_buffer(lang_t lang, const char *text, size_t len, const char *filename, diag_list_t *diags) {
    enum { MAX_REPORTED = 20 };
    TSTree *tree = ts_check_parse(lang, text, len);
    if (!tree) {
        diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                 "cannot check %s code: no tree-sitter grammar for it is built in", ts_check_lang_title(lang));
        return 1;
    }
    ts_check_problem_t problems[MAX_REPORTED];
    size_t n = ts_check_collect(ts_tree_root_node(tree), problems, MAX_REPORTED);
    for (size_t i = 0; i < n && i < MAX_REPORTED; i++) {
        diag_t *d;
        if (problems[i].missing)
            d = diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                         "syntax error in generated %s code: missing `%s` at column %u", ts_check_lang_title(lang),
                         problems[i].what, problems[i].column);
        else
            d = diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL,
                         "syntax error in generated %s code: unexpected text at column %u",
                         ts_check_lang_title(lang), problems[i].column);
        d->line = (int)problems[i].line;
    }
    if (n > MAX_REPORTED)
        diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, filename, NULL, "%zu more syntax errors not shown",
                 n - MAX_REPORTED);
    ts_tree_delete(tree);
    return n;
}

/* ts_check.h — tree-sitter helper: parse source text of a language and find its syntax errors.
 *
 * Used to check generated code (C#, Java, ... where no compiler is at hand) and, later, to gate
 * splicing into existing programs: a file is edited only if it parses without ERROR or MISSING
 * nodes. The grammars are the pinned ones built into cimport_grammars (cmake/grammars.cmake). */
#ifndef CIMPORT_TS_CHECK_H
#define CIMPORT_TS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <tree_sitter/api.h>

#include "emitters/emit.h"
#include "base/diag.h"

/* The grammar for `lang` (TypeScript, Python, Go, C#, Java, YAML); NULL for PCL. */
const TSLanguage *ts_check_language(lang_t lang);

/* The Debian tree-sitter runtime (libtree-sitter 0.20.7) corrupts its heap on a program with 65,535
 * or more extras (comments) in a row: a 16-bit count inside the runtime wraps. No parse may see such
 * a text. This bounds the comments from above (every comment introducer counts, in strings too) and
 * says whether the text stays under TS_CHECK_MAX_COMMENTS; *count (if given) is the count. */
#define TS_CHECK_MAX_COMMENTS 60000
bool ts_check_comments_ok(lang_t lang, const char *text, size_t len, size_t *count);

/* Parses `len` bytes of UTF-8 text. The caller frees the tree with ts_tree_delete. NULL when the
 * language has no grammar, the runtime refuses it or the text fails ts_check_comments_ok. */
TSTree *ts_check_parse(lang_t lang, const char *text, size_t len);

/* One syntax problem: an ERROR node (text that does not fit the grammar) or a MISSING node (a
 * token the parser had to invent, e.g. a `;` or `)`). Lines and columns are 1-based; columns count
 * bytes. */
typedef struct ts_check_problem {
    unsigned line;
    unsigned column;
    bool missing;     /* MISSING node, else ERROR */
    const char *what; /* MISSING: the node type expected (`;`, `)`, identifier); ERROR: NULL */
} ts_check_problem_t;

/* Walks the tree depth-first and stores up to `max` problems in `out` (in source order). Returns
 * the total number found (which may exceed max). */
size_t ts_check_collect(TSNode root, ts_check_problem_t *out, size_t max);

/* Parses and reports every problem (up to 20) as an error diagnostic
 * "<file>:<line>: syntax error in generated <Lang> code: unexpected text at column C" / "missing
 * `;` at column C". `filename` names the file in messages (may be NULL). Returns the number of
 * problems; 0 means the text parsed cleanly. A language without a grammar is reported as one
 * problem. */
size_t ts_check_buffer(lang_t lang, const char *text, size_t len, const char *filename, diag_list_t *diags);

#endif

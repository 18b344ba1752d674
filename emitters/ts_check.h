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

#include "base/diag.h"
#include "emitters/emit.h"

/* The grammar for `lang` (TypeScript, Python, Go, C#, Java, YAML); NULL for PCL. */
const TSLanguage *ts_check_language(lang_t lang);

/* Runs of extras. The Debian tree-sitter runtime (libtree-sitter 0.20.7) keeps a subtree's child
 * count in 16 bits (`uint16_t child_count` in SubtreeHeapData; fixed upstream in 0.20.8, tree-sitter
 * issue #2134). Extras (comments, C# directives) in a row all become children of one node, so
 * 65,535 or more of them wrap that count: ts_subtree_children() then points into the middle of the
 * child array, the parse goes wrong and freeing the tree frees a pointer malloc never returned
 * (munmap_chunk(): invalid pointer). Statements are not affected: repetitions are binary trees.
 *
 * ts_check_parse_safe never lets the runtime see such a run. A text with fewer than
 * TS_CHECK_MAX_COMMENTS comment introducers (`//`, `/ *`, `#`, `<!--`, `-->`, counted anywhere,
 * strings too) cannot hold one and is parsed as it is. Otherwise a scanner that knows the
 * language's comments and string literals finds each run of extras separated only by white space,
 * and the parser gets a copy of the text in which every run of TS_CHECK_RUN_KEEP or more has its
 * inner comments replaced by spaces (line breaks kept), so every byte offset, line and column is
 * the same and the first and last comment of the run are still in the tree. After the parse every
 * blanked range must lie between tokens (not inside a string, template, scalar or comment, which
 * would mean the scanner misread the text); else the text is refused. Runs of extras that may not
 * be blanked (C# `#if`/`#else`/`#endif`, JavaScript's `<!--` comments) are refused when they reach
 * TS_CHECK_RUN_KEEP. */
#define TS_CHECK_MAX_COMMENTS 60000
#define TS_CHECK_RUN_KEEP 1000
/* Counts comment introducers (an upper bound on the extras of the text) into *count (if given);
 * true when under TS_CHECK_MAX_COMMENTS. */
bool ts_check_comments_ok(lang_t lang, const char *text, size_t len, size_t *count);

/* Lines in YAML. tree-sitter-yaml 0.7.1's scanner keeps row numbers in int16_t and counts a CR and
 * an LF as one line break each: past 32,767 breaks the row turns negative and a document with
 * content there parses as an ERROR (a 40,000-line program, or a CRLF one of 16,384 lines, looked
 * like a syntax error on line 1), while one whose rows there hold only comments still parses (rows
 * past 65,535 are positive again). So a YAML text is judged by its parse; when it has errors and
 * more than TS_CHECK_YAML_MAX_BREAKS breaks, ts_check_yaml_rows_ok gives the reason to report
 * instead of the syntax error. */
#define TS_CHECK_YAML_MAX_BREAKS 32767
/* True when the text has at most TS_CHECK_YAML_MAX_BREAKS line breaks; else false and `why` (if
 * given) says so: a sentence starting with "the file", ending without a full stop. */
bool ts_check_yaml_rows_ok(const char *text, size_t len, char *why, size_t whylen);

/* Parse time budget. tree-sitter's error recovery can take superlinear time on irregular text (a
 * Python file of 32,000 lone `\` line continuations took 12.7 s, 70,000 were unfinished after 12
 * minutes), so every parse runs with a deadline (ts_parser_set_timeout_micros; tree-sitter measures
 * wall time): TS_CHECK_PARSE_BUDGET_S plus TS_CHECK_PARSE_BUDGET_S_PER_MB per MB of text. A clean
 * 1.7 MB, 100,000-line Python program parsed in 1.6 s on a busy 2-core machine, against a budget
 * of 27 s. The environment variable CIMPORT_PARSE_TIMEOUT (seconds, a decimal number above 0, at
 * most a day) replaces it. */
#define TS_CHECK_PARSE_BUDGET_S 10.0
#define TS_CHECK_PARSE_BUDGET_S_PER_MB 10.0
/* The budget, in seconds, for parsing `len` bytes. */
double ts_check_parse_budget_s(size_t len);

/* What ts_check_parse_safe did besides returning the tree. */
typedef struct ts_check_parse_info {
    size_t blanked;  /* comments hidden from the parser */
    bool timed_out;  /* the parse ran out of its budget (the tree is NULL) */
    double budget_s; /* the budget the parse had, in seconds */
} ts_check_parse_info_t;

/* Parses `len` bytes with `parser` (its language set to `lang`'s grammar) as described above,
 * within the parse time budget; after a timeout the parser is reset, ready for another text.
 * `old` (may be NULL) is used for an incremental parse only when no copy is needed. Returns NULL
 * when the runtime fails, the budget runs out or the text is refused; then `why` (if given,
 * `whylen` bytes) says why: a sentence starting with "the file", ending without a full stop
 * (empty after a timeout: info->timed_out says so). `info` may be NULL. */
TSTree *ts_check_parse_safe(TSParser *parser, lang_t lang, const char *text, uint32_t len, const TSTree *old, char *why,
                            size_t whylen, ts_check_parse_info_t *info);

/* Parses `len` bytes as ts_check_parse_safe does a text with fewer than TS_CHECK_MAX_COMMENTS
 * comment introducers (the caller knows: ts_check_comments_ok), within the budget for `len` bytes,
 * honouring the parser's included ranges. NULL after a timeout (info->timed_out set; the parser is
 * reset). */
TSTree *ts_check_parse_plain(TSParser *parser, const char *text, uint32_t len, const TSTree *old,
                             ts_check_parse_info_t *info);

/* Parses `len` bytes of UTF-8 text. The caller frees the tree with ts_tree_delete. NULL when the
 * language has no grammar, the runtime refuses it, the parse runs out of its budget or
 * ts_check_parse_safe refuses the text. */
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

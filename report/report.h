/* report.h — the import report: a results document (`cimport --json`, README "--json results") in,
 * one self-contained HTML file out.
 *
 * The page carries everything inline — its own stylesheet and script (report/page.css,
 * report/page.js, embedded at build time) and the document as data — and a Content-Security-Policy
 * that forbids every fetch, so it opens from disk and works offline. The script draws the summary,
 * the graph of resources (grouped, expanded on demand, searchable), each resource's inputs with
 * their provenance, residual paths, code and diagnostics, and the program diff.
 *
 * Secrets: every input path the document lists in a resource's "secretPaths" is shown as secret;
 * unless show_secrets is set its value is replaced, and the code, PCL and diff texts are the twins
 * printed without secret values that the document carries ("redacted", see report_redact). */
#ifndef CIMPORT_REPORT_H
#define CIMPORT_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/hashmap.h"

/* The newest results document version this build reads (the "version" field), and the one it
 * writes. 2: into a stack, each resource says whether the stack held it already ("stack"), which a
 * reader of version 1 would count as imported. */
#define REPORT_RESULTS_VERSION 2

typedef struct report_options {
    bool show_secrets; /* keep secret values the document holds (default: replace them) */
} report_options_t;

/* Parses and checks a results document. NULL with an error diagnostic naming `path` when the text
 * is not JSON, ends early (truncated), is not a results document, or comes from a newer cimport. */
cJSON *report_parse(const char *text, size_t len, const char *path, diag_list_t *diags);

/* Checks an already parsed document (as report_parse does after parsing). */
bool report_check(const cJSON *doc, const char *path, diag_list_t *diags);

/* Replaces the value at every path a resource lists in "secretPaths" with "[secret]"; puts in
 * place each code field's twin without secrets that its holder (a resource, the document) has in its
 * "redacted" object — a null twin removes the field — and drops "redacted"; and cuts each secret
 * value found in plaintext out of the "code", "pcl" and "programDiff" texts where it stands as a
 * JSON-quoted literal. A document that holds secret values in plaintext (--show-secrets), was run
 * with --secrets literal and has no "redacted" of its own (an older cimport's) loses its code
 * fields: they may hold a secret in a form no search finds. */
void report_redact(cJSON *doc);

/* Adds every string secret value the document holds in plaintext (the values at each resource's
 * "secretPaths", the strings inside an object or list one) to out as keys borrowed from doc. */
void report_secret_strings(const cJSON *doc, hashmap_t *out);

/* Renders the page. Returns malloc'd HTML (its length in *len), NULL with a diagnostic when the
 * document is not a results document. The document is not changed. */
char *report_render(const cJSON *doc, const report_options_t *o, size_t *len, diag_list_t *diags);
/* The same from a document the caller is done with: it is redacted in place (no copy of it is made,
 * which at 100,000 resources is hundreds of megabytes), and still the caller's to delete. */
char *report_render_doc(cJSON *doc, const report_options_t *o, size_t *len, diag_list_t *diags);

/* Renders and writes the page to `path` atomically (0644); nothing is written on error. */
bool report_write(const char *path, const cJSON *doc, const report_options_t *o, diag_list_t *diags);

#endif

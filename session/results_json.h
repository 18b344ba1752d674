/* results_json.h — the parts of the `--json` results document that the import report
 * (report/report.h) needs beyond outcomes and inputs: the run's inputs, each resource's parent,
 * provider, inferred references, secret input paths, code in the chosen language and its
 * diagnostics as the CLI prints them, and the resources a Terraform state left unmapped. All
 * additive (README "--json results"). Internal to session/: session_results_json calls it. */
#ifndef CIMPORT_SESSION_RESULTS_JSON_H
#define CIMPORT_SESSION_RESULTS_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "session/session.h"

/* Adds those fields to `doc` (session_results_json's document; resources in plan order); secret
 * values are cut out unless show_secrets. */
void results_json_add_report_fields(cJSON *doc, const import_session_t *p, bool show_secrets);
/* Sets the document's "programDiff" to diff, with its twin without secrets for report_redact (the
 * document's "redacted"). */
void results_json_add_program_diff(cJSON *doc, const import_session_t *p, const char *diff);
/* Into a stack, once its merge (rep: the stack's, or --stack-state's) ran: each resource read, whether the stack held
 * it already (with its ID: "stack": "already") or the run's write adds it ("added"), and summary.addedToStack and
 * .alreadyInStack. After session_commit: "added" only when the stack holds the write
 * (summary.stackWritten: written, or not taken back after a file failed); "notKnown" and
 * summary.notKnownInStack, not addedToStack, when whether it landed is not known. */
void results_json_add_stack_outcomes(cJSON *doc, const import_session_t *p, const stackstate_report_t *rep);
/* Sets (or replaces) summary.written: whether the run's outputs were written — false after a refused
 * write, with --diff or --preview-only, for code the editor did not take, or into a stack that held
 * every resource already with no file to write. False also makes each resource the stack write would
 * have added "notAdded", and summary.addedToStack 0, unless summary.stackWritten. */
void results_json_set_written(cJSON *doc, bool written);
/* Sets summary.declined: the import was declined at the confirmation, so nothing was written. */
void results_json_set_declined(cJSON *doc);
/* diff (taken) with each removed line that set an input the code now reads as a secret shown as
 * `KEY: [secret]`: the program's old value for a secret input is that secret's (read18 F5). */
char *session_redact_old_secrets(const import_session_t *p, char *diff);

#endif

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
/* Sets (or replaces) summary.written: whether the run's outputs were written — false after a refused
 * write, with --diff or --preview-only, or for code the editor did not take. */
void results_json_set_written(cJSON *doc, bool written);
/* Sets summary.declined: the import was declined at the confirmation, so nothing was written. */
void results_json_set_declined(cJSON *doc);

#endif

/* results_report.h — the parts of the `--json` results document that the import report
 * (report/report.h) needs beyond outcomes and inputs: the run's inputs, each resource's parent,
 * provider, inferred references, secret input paths, code in the chosen language and its
 * diagnostics as the CLI prints them, and the resources a Terraform state left unmapped. All
 * additive (README "--json results"). */
#ifndef CIMPORT_RESULTS_REPORT_H
#define CIMPORT_RESULTS_REPORT_H

#include <cjson/cJSON.h>

#include "cli/pipeline.h"

/* Adds those fields to `doc` (pipeline_results_json's document; resources in plan order). */
void results_json_add_report_fields(cJSON *doc, const pipeline_t *p, const cli_options_t *o);

#endif

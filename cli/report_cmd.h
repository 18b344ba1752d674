/* report_cmd.h — the import report on the command line (report_cmd.c). */
#ifndef CIMPORT_REPORT_CMD_H
#define CIMPORT_REPORT_CMD_H

#include <stdbool.h>

#include "cli/cli.h"

/* `cimport report RESULTS.json [-o report.html] [--show-secrets]`; returns the exit code. */
int cli_report_main(int argc, char **argv);

/* --report FILE after an import run: the run's results document (with program_diff, may be NULL,
 * and summary.written: whether the run writes its outputs once they commit) rendered and staged for
 * o->report_path (session_stage_report), so it is written with the run's other outputs or not at
 * all. False with diagnostics in `diags` when it cannot be rendered. */
bool cli_stage_import_report(const cli_options_t *o, import_session_t *p, const char *program_diff, bool written,
                             diag_list_t *diags);

#endif

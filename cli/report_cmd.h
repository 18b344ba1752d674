/* report_cmd.h — the import report on the command line (report_cmd.c). */
#ifndef CIMPORT_REPORT_CMD_H
#define CIMPORT_REPORT_CMD_H

#include <stdbool.h>

#include "cli/cli.h"

/* `cimport report RESULTS.json [-o report.html] [--show-secrets]`; returns the exit code. */
int cli_report_main(int argc, char **argv);

/* --report FILE after an import run: the run's results document (with program_diff, may be NULL,
 * and summary.written: whether the run wrote its outputs) rendered to o->report_path. Errors are
 * printed; false when the page was not written. */
bool cli_write_import_report(const cli_options_t *o, import_session_t *p, const char *program_diff, bool written,
                             bool quiet);

#endif

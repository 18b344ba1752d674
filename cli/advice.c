/* advice.c — the command line's words for what a user can do about a library diagnostic: the flag
 * to pass (diag_advice in base/diag.h; registered by main). */
#include <stdio.h>

#include "cli/cli.h"

void cli_advice(char *out, size_t n, diag_advice_t kind, const char *subject) {
    switch (kind) {
    case DIAG_ADVICE_SCHEMA: snprintf(out, n, "; pass --schema FILE|DIR with the %s package schema", subject); break;
    case DIAG_ADVICE_SCHEMA_WITH_TYPE:
        snprintf(out, n, "; check the type token, or pass --schema FILE|DIR with a %s schema that has it", subject);
        break;
    case DIAG_ADVICE_SCHEMA_LOADED: snprintf(out, n, "; pass it with --schema"); break;
    case DIAG_ADVICE_SCHEMA_INPUTS:
        snprintf(out, n, "; pass --schema with the package's schema to keep only input properties");
        break;
    case DIAG_ADVICE_INPUT_SIZE: snprintf(out, n, " with --max-input-size"); break;
    case DIAG_ADVICE_INPUT_WAIT: snprintf(out, n, " with --input-timeout"); break;
    case DIAG_ADVICE_DEADLINE: snprintf(out, n, " (--timeout)"); break;
    case DIAG_ADVICE_IMPORT_OPTION:
        snprintf(out, n, "; use --import-option to let your `pulumi up` import them");
        break;
    }
}

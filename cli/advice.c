/* advice.c — the command line's words for what a user can do about a library diagnostic: the flag
 * to pass (diag_advice in base/diag.h; registered by main). */
#include <stdio.h>
#include <string.h>

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
    case DIAG_ADVICE_START_DEADLINE: snprintf(out, n, " (--start-timeout)"); break;
    case DIAG_ADVICE_LOCK_WAIT: snprintf(out, n, " (or raise --lock-timeout)"); break;
    case DIAG_ADVICE_OTHER_STACK: snprintf(out, n, ", or select another with --stack"); break;
    case DIAG_ADVICE_SELECT_STACK: snprintf(out, n, ": pass --stack NAME or run `pulumi stack select`"); break;
    case DIAG_ADVICE_STACK_ORG: snprintf(out, n, ": pass --stack ORG/%s", subject); break;
    case DIAG_ADVICE_STACK_NAMES:
        snprintf(out, n, "; import with the same --stack and --project as the stack state");
        break;
    case DIAG_ADVICE_STACK_NAMES_NEEDED: snprintf(out, n, ": pass --stack and --project"); break;
    case DIAG_ADVICE_STACK_OF_STATE:
    case DIAG_ADVICE_RESUME_STACK: {
        const char *sep = strstr(subject, "::");
        int ls = sep ? (int)(sep - subject) : (int)strlen(subject);
        snprintf(out, n, ": pass --stack %.*s --project %s, %s", ls, subject, sep ? sep + 2 : "",
                 kind == DIAG_ADVICE_STACK_OF_STATE ? "or merge into the export of the right stack"
                                                    : "or run without --resume");
        break;
    }
    case DIAG_ADVICE_RESULTS_DOC: snprintf(out, n, "; pass a file written by a previous `cimport --json` run"); break;
    case DIAG_ADVICE_CONFIG_VALUE: snprintf(out, n, "; pass it with --config %s=VALUE", subject); break;
    case DIAG_ADVICE_ATTACH: snprintf(out, n, ", or attach to a running one with --attach %s=PORT", subject); break;
    case DIAG_ADVICE_NO_PROTECT: snprintf(out, n, " (--protect=false)"); break;
    case DIAG_ADVICE_OTHER_PROJECT:
        snprintf(out, n, ": run in project %s's directory (--cwd), or drop --project", subject);
        break;
    case DIAG_ADVICE_PROGRAM_PROJECT: snprintf(out, n, ": run in that project's directory (--cwd %s)", subject); break;
    case DIAG_ADVICE_TYPESCRIPT_CODE: snprintf(out, n, ", or write the code with -o FILE.ts and port it"); break;
    case DIAG_ADVICE_DIFF_INSTEAD: snprintf(out, n, " or print a diff with --diff instead"); break;
    case DIAG_ADVICE_JSON_PROJECT: snprintf(out, n, ", or run outside this project"); break;
    case DIAG_ADVICE_INTO_STACK: snprintf(out, n, " (--stack of a stack cimport can write, or --stack-state)"); break;
    case DIAG_ADVICE_CONFIG_FILE: snprintf(out, n, " (or --config-file)"); break;
    case DIAG_ADVICE_SECRETS_DIR: snprintf(out, n, "give --secrets-dir a directory that can be made, or "); break;
    case DIAG_ADVICE_STACK_GIVEN: snprintf(out, n, "--stack %s", subject); break;
    case DIAG_ADVICE_STACK_OF_PROJECT:
        snprintf(out, n, ": run in that project's directory (--cwd), or name a stack of project '%s'", subject);
        break;
    case DIAG_ADVICE_IMPORT_OPTION:
        snprintf(out, n, "; use --import-option to let your `pulumi up` import them");
        break;
    }
}

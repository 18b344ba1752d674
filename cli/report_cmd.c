/* report_cmd.c — the import report from the command line: `--report FILE` on an import run, and
 * `cimport report RESULTS.json [-o report.html] [--show-secrets]` from a saved `--json` document.
 * The page itself is report/report.h's; this file finds the inputs and words the errors. */
#include "cli/report_cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "report/report.h"
#include "session/results_json.h"
#include "session/session.h"

bool cli_stage_import_report(const cli_options_t *o, import_session_t *p, const char *program_diff, bool written,
                             diag_list_t *diags) {
    /* The document is built with secret values so the page can cut any that reached the code out of
     * it; report_render drops them again unless --show-secrets. */
    cJSON *doc = session_results_json(p, true);
    if (!o->show_secrets) session_redact_secret_ids(p, doc); /* an ID that is a secret value */
    cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run");
    cJSON *flags = cJSON_GetObjectItemCaseSensitive(run, "flags");
    for (int i = cJSON_GetArraySize(flags) - 1; !o->show_secrets && i >= 0; i--)
        if (strcmp(cJSON_GetArrayItem(flags, i)->valuestring, "--show-secrets") == 0)
            cJSON_DeleteItemFromArray(flags, i);
    if (program_diff) results_json_add_program_diff(doc, p, program_diff); /* with its twin without secrets */
    /* as --json says it: the page of a run that wrote nothing must not read as an import done */
    results_json_set_written(doc, written);
    report_options_t ro = {.show_secrets = o->show_secrets};
    size_t len = 0;
    char *html = report_render_doc(doc, &ro, &len, diags);
    cJSON_Delete(doc);
    if (!html) return false;
    session_stage_report(p, html, len);
    return true;
}

static void report_help(FILE *f) {
    fputs("Usage: cimport report RESULTS.json [-o report.html] [--show-secrets]\n"
          "\n"
          "Renders the import report — one self-contained HTML page that opens from disk with no network —\n"
          "from a results document saved with `cimport --json ... > RESULTS.json`: the summary by outcome,\n"
          "package and type; a graph of the resources (grouped by type, module or parent; expand a group by\n"
          "clicking it; search); each resource's inputs with where they came from, residual differences,\n"
          "secrets shown as secret, its code and diagnostics; the program diff of an --insert-into run.\n"
          "\n"
          "  -o, --out FILE     where to write the page (default: report.html)\n"
          "      --show-secrets keep secret values the document holds (a --json --show-secrets run) in the page\n"
          "      --max-input-size SIZE\n"
          "                         " CLI_MAX_INPUT_SIZE_HELP "\n"
          "\n"
          "Exit codes: 0 written; 2 bad usage or the input is not a results document (nothing written).\n",
          f);
}

int cli_report_main(int argc, char **argv) {
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},
        {"show-secrets", no_argument, NULL, 's'},
        {"max-input-size", required_argument, NULL, 'M'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = "report.html";
    report_options_t ro = {0};
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 's': ro.show_secrets = true; break;
        case 'M':
            if (!cli_set_max_input_size(optarg)) {
                fprintf(stderr, "error: %s '%s'\n\n", CLI_MAX_INPUT_SIZE_USAGE, optarg);
                report_help(stderr);
                return EXIT_USAGE;
            }
            break;
        case 'h': report_help(stdout); return EXIT_ALL_OK;
        case ':':
            fprintf(stderr, "error: %s needs a value\n\n", argv[optind - 1]);
            report_help(stderr);
            return EXIT_USAGE;
        default:
            fprintf(stderr, "error: unknown option %s\n\n", argv[optind - 1]);
            report_help(stderr);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "error: cimport report takes one results document (a `cimport --json` output)\n\n");
        report_help(stderr);
        return EXIT_USAGE;
    }
    const char *in = argv[optind];
    if (cli_same_file(out, in)) {
        fprintf(stderr,
                "error: -o names the results document %s: writing the page there would destroy it; choose another "
                "file\ncimport: no report written\n",
                in);
        return EXIT_USAGE;
    }
    arena_t *a = arena_new();
    diag_list_t diags;
    diag_list_init(&diags);
    const char *why = session_whole_file_refusal(a, out, "-o", false, &diags);
    if (why || diags.errors) {
        if (why) diag_add(&diags, DIAG_ERROR, DIAG_USAGE, out, NULL, "%s", why);
        diag_list_print(&diags, stderr);
        fputs("cimport: no report written\n", stderr);
        diag_list_free(&diags);
        arena_free(a);
        return EXIT_USAGE;
    }
    size_t len = 0;
    char *text = file_read_all(a, in, &len, &diags);
    cJSON *doc = text ? report_parse(text, len, in, &diags) : NULL;
    bool ok = doc && report_write(out, doc, &ro, &diags);
    diag_list_print(&diags, stderr);
    if (ok)
        fprintf(stderr, "cimport: wrote the import report %s\n", out);
    else
        fprintf(stderr, "cimport: no report written\n");
    cJSON_Delete(doc);
    diag_list_free(&diags);
    arena_free(a);
    return ok ? EXIT_ALL_OK : EXIT_USAGE;
}

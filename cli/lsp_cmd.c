/* lsp_cmd.c — `cimport lsp`: the command line of the language server (lsp.h). The import options
 * parse as the CLI's and become the server's default session options. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "importer/plugin_host.h"
#include "lsp/lsp.h"

static bool lsp_write_fd(void *user, const char *data, size_t len) {
    int fd = *(int *)user;
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

static void lsp_print_help(FILE *f) {
    fputs("Usage: cimport lsp [import options]\n"
          "\n"
          "Serves the Language Server Protocol on stdin/stdout, for editors: the commands\n"
          "cimport.importResource {type, name, id, uri} and cimport.importFile {path, uri} import\n"
          "resources and insert their code into the open program (as a workspace edit of the editor's\n"
          "unsaved text). A code action on an open import file offers the same.\n"
          "\n"
          "Import options are those of `cimport` (--offline-state, --schema, --stack, --project,\n"
          "--protect, --inputs, --secrets, --secrets-file, --max-rounds, --ignore-residual, --language);\n"
          "the client's initializationOptions (offlineState, schemas, language, stack, project, protect,\n"
          "inputs, secrets, secretsFile, maxRounds, ignoreResidual) override them.\n"
          "\n"
          "Exit codes: 0 after shutdown and exit; 1 on exit without shutdown or end of input; 2 bad usage.\n",
          f);
}

int cli_lsp_main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            lsp_print_help(stdout);
            return EXIT_ALL_OK;
        }
    }
    /* The import options parse as the CLI's; a placeholder import file stands in for the resource
     * the CLI would require (it comes from the editor here). */
    static char placeholder[] = "\x01lsp";
    char **av = calloc((size_t)argc + 3, sizeof *av);
    if (!av) abort();
    av[0] = "cimport";
    for (int i = 1; i < argc; i++)
        av[i] = argv[i];
    av[argc] = "--spec";
    av[argc + 1] = placeholder;
    cli_options_t o;
    int rc;
    if (!cli_parse_import_args(argc + 2, av, &o, &rc)) {
        free(o.schemas);
        free(o.attach);
        free(o.config);
        free(av);
        return rc;
    }
    const char *bad = o.spec_path != placeholder ? "--spec/--file"
                      : o.out_path               ? "--out"
                      : o.insert_into            ? "--insert-into"
                      : o.diff                   ? "--diff"
                      : o.json                   ? "--json"
                      : o.stack_state            ? "--stack-state"
                      : o.preview_only           ? "--preview-only"
                                                 : NULL;
    if (bad) {
        fprintf(stderr,
                "cimport lsp: %s does not apply: the editor chooses what to import and the edit goes to its open "
                "program\nRun 'cimport lsp --help' for usage.\n",
                bad);
        free(o.schemas);
        free(o.attach);
        free(o.config);
        free(av);
        return EXIT_USAGE;
    }
    o.spec_path = NULL;
    session_options_t so;
    cli_session_options(&o, &so);
    signal(SIGPIPE, SIG_IGN);              /* a client that goes away ends the loop through write errors */
    plugin_host_install_signal_handlers(); /* provider plugins die with the server */
    int out_fd = 1;
    lsp_server_t *s = lsp_server_new(&so, lsp_write_fd, &out_fd);
    rc = lsp_server_run(s, 0);
    lsp_server_free(s);
    free(o.schemas);
    free(o.attach);
    free(o.config);
    free(av);
    return rc;
}

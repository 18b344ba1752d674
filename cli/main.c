/* main.c — cimport's entry point: dispatches to the import command or a subcommand. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/convert.h"
#include "cli/convert_pcl.h"
#include "cli/report_cmd.h"
#include "importer/plugin_host.h"
#include "lsp/lsp.h"

int main(int argc, char **argv) {
    /* Big buffers (a 100,000-resource program's code, a state's index) always get their own mapping,
     * so growing one moves no bytes and freeing one returns its pages: glibc's default threshold
     * rises after the first big free, and a buffer doubling on the heap then holds both copies. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    diag_set_advice(cli_advice); /* `cimport lsp` replaces it with the editor's words */
    if (argc >= 2 && strcmp(argv[1], "convert") == 0) {
        if (cli_convert_is_pcl(argc - 1, argv + 1)) return cli_convert_pcl_main(argc - 1, argv + 1);
        return cli_convert_main(argc - 1, argv + 1);
    }
    if (argc >= 2 && strcmp(argv[1], "report") == 0) return cli_report_main(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "lsp") == 0) return cli_lsp_main(argc - 1, argv + 1);
    cli_options_t o;
    int rc;
    if (!cli_parse_import_args(argc, argv, &o, &rc)) {
        free(o.schemas);
        free(o.attach);
        free(o.config);
        return rc;
    }
    /* Provider plugins run in their own process groups: a first SIGINT/SIGTERM stops the import
     * gracefully (cli.h), a second kills them and cimport at once. */
    cli_install_stop_handlers();
    return cli_run_import(&o); /* frees o.schemas */
}

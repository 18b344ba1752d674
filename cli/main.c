/* main.c — cimport's entry point: dispatches to the import command or a subcommand. */
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "cli/convert.h"
#include "cli/convert_pcl.h"
#include "cli/report_cmd.h"
#include "importer/plugin_host.h"
#include "lsp/lsp.h"

/* A schema or stack export is read through a map of the file; one cut short meanwhile (`cp`, `>`,
 * `pulumi package get-schema X >` truncate first) faults on the pages past its new end. The run
 * cannot go on with half a file: it ends like any input error — the file named, exit 2, no
 * temporary file left, nothing written (outputs are committed only at the end) — instead of dying
 * of SIGBUS without a word. A fault on anything else is a bug: it is left to kill the process. */
static void on_bus_error(int sig, siginfo_t *info, void *ctx) {
    (void)ctx;
    const char *path = info ? file_map_owner(info->si_addr) : NULL;
    if (!path) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    plugin_host_kill_all();
    file_temps_remove();
    static const char head[] = "error: ";
    static const char tail[] = ": the file changed while cimport was reading it (it is shorter now); run again\n";
    if (write(STDERR_FILENO, head, sizeof head - 1) < 0 || write(STDERR_FILENO, path, strlen(path)) < 0 ||
        write(STDERR_FILENO, tail, sizeof tail - 1) < 0) {
        /* nothing more can be said */
    }
    _exit(2);
}

int main(int argc, char **argv) {
    struct sigaction bus;
    memset(&bus, 0, sizeof bus);
    bus.sa_sigaction = on_bus_error;
    bus.sa_flags = SA_SIGINFO;
    sigemptyset(&bus.sa_mask);
    sigaction(SIGBUS, &bus, NULL);
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

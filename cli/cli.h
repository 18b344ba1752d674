/* cli.h — the command line front end: option parsing, the import command, output and exit codes.
 *
 * Exit codes (documented in --help and the README):
 *   0  every resource imported (and code generated)
 *   1  some resources failed (the others were imported and their code generated)
 *   2  bad usage or bad input (nothing imported, nothing written)
 *   3  no resource could be imported
 *   4  with --diff: changes pending (the diff printed is not empty); 0 means no change
 */
#ifndef CIMPORT_CLI_H
#define CIMPORT_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "emitters/emit.h"
#include "importer/engine.h"
#include "pcl/pcl.h"
#include "session/session.h"

enum {
    EXIT_ALL_OK = 0,
    EXIT_SOME_FAILED = 1,
    EXIT_USAGE = 2,
    EXIT_ALL_FAILED = 3,
    EXIT_CHANGES_PENDING = 4, /* --diff: the review diff is not empty (0: no change) */
};

typedef struct cli_options {
    const char *spec_path;   /* --spec/--file/-f */
    const char *inline_type; /* positional TYPE NAME ID */
    const char *inline_name;
    const char *inline_id;
    const char *parent;        /* --parent (inline only) */
    const char *provider;      /* --provider (inline only) */
    const char *properties;    /* --properties (inline only) */
    const char *offline_state; /* --offline-state */
    const char **schemas;      /* --schema (repeatable) */
    size_t n_schemas;
    const char *language_name; /* --language */
    lang_t language;
    bool language_set;
    const char *out_path;       /* --out/-o */
    bool json;                  /* --json */
    bool show_secrets;          /* --show-secrets */
    bool protect;               /* --protect (default true) */
    bool generate_code;         /* --generate-code (default true) */
    inputs_mode_t inputs;       /* --inputs */
    int max_rounds;             /* --max-rounds */
    bool ignore_residual;       /* --ignore-residual */
    pcl_secrets_mode_t secrets; /* --secrets config|literal */
    const char *secrets_dir;    /* --secrets-dir DIR: the secrets file is DIR/cimport-secrets.json (older flag) */
    const char *secrets_file;   /* --secrets-file: all secret values of a run without a passphrase (0600) */
    bool secrets_b64;           /* --secrets-provider b64: a new stack state's secrets in base64 (not encrypted) */
    bool secrets_plaintext;     /* --secrets-provider plaintext: a --stack-state document whose secrets provider
                                   cimport cannot encrypt for gets them in plaintext (asked by name) */
    const char *stack;          /* --stack */
    const char *stack_ref;      /* the stack as named, before target_prepare shortens `stack` (not a flag) */
    const char *project;        /* --project */
    bool quiet;                 /* --quiet/-q */
    bool import_option;         /* --import-option: code carries `import: <id>`, no state written */
    bool preview_only;          /* --preview-only: read and show; write nothing */
    const char *stack_state;    /* --stack-state FILE: merge the imported resources into a stack export */
    const char *insert_into;    /* --insert-into FILE: splice the code into an existing program */
    bool diff;                  /* --diff: print a unified diff of what would change; write nothing */
    bool keep_existing;         /* --keep-existing: add even when the program defines the resource */
    const char *report_path;    /* --report FILE: the import report (report/report.h) */
    int parallel;               /* --parallel/-p N: resources in flight at once (default 16) */
    const char *resume;         /* --resume RESULTS.json: skip resources a previous --json run imported */
    const char **attach;        /* --attach pkg=PORT (repeatable) */
    size_t n_attach;
    int timeout_ms;       /* --timeout: Read/Check/Diff deadline; 0: the plugin host's default */
    int start_timeout_ms; /* --start-timeout: plugin start + handshake deadline; 0: default */
    const char **config;  /* --config pkg:key=value (repeatable) */
    size_t n_config;
    /* Working inside a Pulumi project the way `pulumi import` does (cli/target.c). */
    const char *cwd;         /* --cwd/-C DIR: run there (relative paths are then relative to DIR) */
    bool yes;                /* --yes/-y: write the stack without asking */
    bool skip_preview;       /* --skip-preview: no preview, implies --yes */
    bool non_interactive;    /* --non-interactive: never prompt */
    const char *from;        /* --from terraform|pulumi: convert the positional STATE file first */
    const char *from_file;   /* its positional argument */
    const char *config_file; /* --config-file: the stack config file instead of Pulumi.<stack>.yaml */
    bool code_only;          /* --code-only: code without the `import` option and no stack written */
    bool new_stack_state;    /* --new-stack-state: --stack-state may create a new document */
    int lock_wait_ms;        /* --lock-timeout: wait for another holder of the stack's lock, or another
                                run writing the same files (default 10 s) */
} cli_options_t;

/* Parses argv (after the program name). Returns true to proceed; false with *exit_code set when the
 * command is complete (help printed → 0, or an error printed → 2). */
bool cli_parse_import_args(int argc, char **argv, cli_options_t *o, int *exit_code);
/* --max-input-size SIZE, which every command that reads files takes (the cap's message names it):
 * parses "512M", "2G", "64K" or bytes and sets the cap; false, changing nothing, for a bad size. */
bool cli_set_max_input_size(const char *size);
/* True when both paths name one existing file (same device and inode): an output there would
 * replace the input it names. */
bool cli_same_file(const char *a, const char *b);
/* NULL when an output file can be made at `path` (its directory exists, and it is not one); else why not, with the fix,
 * written into `why` (n bytes) and returned. */
const char *cli_output_dir_problem(const char *path, char *why, size_t n);
#define CLI_MAX_INPUT_SIZE_USAGE "--max-input-size takes a size such as 512M or 2G, not"
#define CLI_MAX_INPUT_SIZE_HELP "largest file cimport reads (default 512M; K, M, G suffixes)"

void cli_print_help(FILE *f);
/* The candidate closest to word when it is close enough to be a typo, else NULL. */
const char *cli_did_you_mean(const char *word, const char *const *candidates, size_t n);
/* The import session's options (session/session.h) from the command line's: the front end's part
 * of a run. Arrays are borrowed from o. */
void cli_session_options(const cli_options_t *o, session_options_t *so);
/* Runs the import command; returns the exit code. */
int cli_run_import(cli_options_t *o);
/* SIGINT/SIGTERM stop an import gracefully: no new resource starts, the calls in flight are
 * cancelled, the plugins shut down, what finished is written, and the exit code is 130 (SIGINT) or
 * 143 (SIGTERM). A second signal aborts at once (files are only ever replaced whole). */
void cli_install_stop_handlers(void);

/* The command line's words for a library diagnostic's advice (diag_set_advice; main registers it). */
void cli_advice(char *out, size_t n, diag_advice_t kind, const char *subject);
/* `cimport lsp [import options]` (lsp_cmd.c): argv[0] is "lsp". Serves the language server
 * (lsp.h) on stdin/stdout. */
int cli_lsp_main(int argc, char **argv);

#endif

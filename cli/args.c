/* args.c — option parsing and help text for the import command. Flags follow `pulumi import` where
 * it has one, so a Pulumi user needs no new habits. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "emitters/emit.h"
#include "specs/suggest.h"
#include "splice/splice.h"

void cli_print_help(FILE *f) {
    fputs(
        "cimport — import existing cloud resources into Pulumi and write the program code for them.\n"
        "\n"
        "Usage:\n"
        "  cimport --spec FILE [options]          import every resource of an import file (JSON or YAML)\n"
        "  cimport TYPE NAME ID [options]         import one resource\n"
        "  cimport convert --from terraform|pulumi|pcl ...   turn other tools' state into import files\n"
        "  cimport report RESULTS.json [-o report.html]   the import report from a saved --json document\n"
        "  cimport lsp [options]                  language server (stdio) for editors: commands that insert\n"
        "                                         imported resources into the open program\n"
        "  cimport --version | --help\n"
        "\n"
        "Input:\n"
        "  -f, --spec, --file FILE      Pulumi import file ({\"resources\": [{\"type\", \"name\", \"id\"}, ...]})\n"
        "      --parent [NAME=]URN      inline mode: the parent resource\n"
        "      --provider [NAME=]URN    inline mode: an explicit provider\n"
        "      --properties a,b,c       inline mode: input properties to keep\n"
        "      --offline-state FILE     read resources from a recorded state (a `pulumi stack export`, a\n"
        "                               checkpoint, or a Terraform state) instead of the cloud\n"
        "      --schema FILE|DIR        package schema(s); a directory is searched for schema.json files\n"
        "                               (repeatable)\n"
        "      --attach PKG=PORT        use the provider plugin already listening on PORT for package PKG\n"
        "                               (repeatable; PULUMI_DEBUG_PROVIDERS=pkg:port,... works too). Without\n"
        "                               --offline-state, plugins are otherwise found in the project's plugins,\n"
        "                               $PATH (pulumi-resource-PKG) and $PULUMI_HOME/plugins, or downloaded\n"
        "                               from the spec's pluginDownloadUrl\n"
        "      --config PKG:KEY=VALUE   provider configuration (repeatable); Pulumi.<stack>.yaml is read too\n"
        "  -s, --stack NAME             the stack to import into (default: PULUMI_STACK, else the one `pulumi\n"
        "                               stack select` chose for the backend in use)\n"
        "      --timeout DURATION       deadline of each provider Read/Check/Diff call (default 5m; 30s, 1500ms,\n"
        "                               2m, 1h): a call past it is cancelled, its resource fails, the rest go on\n"
        "      --start-timeout DURATION deadline for a plugin to start, finish its handshake and give its\n"
        "                               schema (default 60s, its schema 5m)\n"
        "      --max-input-size SIZE    " CLI_MAX_INPUT_SIZE_HELP "\n"
        "      --input-timeout DURATION how long a pipe or FIFO may send nothing before cimport gives up\n"
        "                               (default 60s)\n"
        "      --project NAME           project name for URNs (default: Pulumi.yaml's name, else \"project\")\n"
        "      --from terraform|pulumi STATE   convert a Terraform state or a `pulumi stack export` and import that\n"
        "      --config-file FILE       the stack's config file (default: Pulumi.<stack>.yaml in Pulumi.yaml's\n"
        "                               stackConfigDir, else beside Pulumi.yaml)\n"
        "  -C, --cwd DIR                run in DIR (Pulumi.yaml is looked for there and in the directories above)\n"
        "\n"
        "Import:\n"
        "      --inputs minimal|read    minimal (default): the smallest inputs that produce no diff;\n"
        "                               read: every input the provider's Read returned (as `pulumi import`)\n"
        "      --max-rounds N           further copy rounds when a diff remains after the first (default 3)\n"
        "  -p, --parallel N             resources in flight at once across all providers (default 16)\n"
        "      --resume RESULTS.json    skip the resources a previous --json run imported\n"
        "      --ignore-residual        put properties that still differ into ignoreChanges\n"
        "      --protect[=true|false]   mark imported resources protected (default true)\n"
        "      --import-option          code with the `import` option and no stack written, even when one could be\n"
        "                               (refused for a type whose provider has no importer, e.g. RandomPet, and for\n"
        "                               inputs its importer does not rebuild, e.g. a RandomString's keepers or\n"
        "                               special: false: import those into a stack)\n"
        "      --code-only              code only: no `import` option, no stack written (`pulumi up` with this\n"
        "                               code would try to CREATE the resources)\n"
        "      --preview-only           read the resources and show the code; write no file at all\n"
        "      --stack-state FILE       merge the imported resources into a `pulumi stack export` document (atomic;\n"
        "                               existing resources kept; re-running adds nothing twice; its stack and project\n"
        "                               must match), ready for `pulumi stack import --file FILE`. Export your stack\n"
        "                               first (`pulumi stack export --file FILE`): a new document imported over a\n"
        "                               stack replaces it. Secrets are encrypted with the stack's passphrase\n"
        "                               (PULUMI_CONFIG_PASSPHRASE[_FILE])\n"
        "      --secrets-provider b64   with --stack-state and no passphrase: base64 secrets (not encryption)\n"
        "      --secrets-provider plaintext  with --stack-state of a stack on a secrets provider cimport cannot\n"
        "                               encrypt for (service, KMS): its secrets in plaintext (file made 0600)\n"
        "      --new-stack-state        let --stack-state create FILE when it does not exist\n"
        "\n"
        "Where the import goes (as `pulumi import`: into the selected stack when cimport can write it):\n"
        "  a stack on a DIY backend (file://, postgres://) or Pulumi Cloud is updated in place under its lock,\n"
        "  after a preview and your confirmation; otherwise the code carries each resource's `import` option,\n"
        "  so your `pulumi up` adopts the resources instead of creating them.\n"
        "  -y, --yes                    write the stack without asking (after the preview)\n"
        "      --skip-preview           no preview and no question (implies --yes)\n"
        "      --non-interactive        never ask; without --yes nothing is written to a stack\n"
        "      --lock-timeout DURATION  wait this long for another process holding the stack's lock, or another\n"
        "                               run writing the same files (10s default; 500ms, 2m, a plain number: s)\n"
        "\n"
        "Output:\n"
        "  -l, --language LANG          typescript, python, go, csharp, java, yaml or pcl (default: the runtime\n"
        "                               of Pulumi.yaml in the current directory, else pcl)\n"
        "  -o, --out FILE               write the code to FILE (atomically) instead of stdout; the language\n"
        "                               follows its extension (.ts .py .go .cs .java .yaml .pp) unless -l is given\n"
        "      --insert-into FILE       splice the code into an existing program (TypeScript, Python, Go, C#,\n"
        "                               Java, Pulumi YAML; language from the file name; not JavaScript): imports "
        "added,\n"
        "                               names that clash renamed, an earlier import of the same resource\n"
        "                               replaced; refused if the file has syntax errors or changes meanwhile\n"
        "      --keep-existing          with --insert-into: keep the program's resource of that name and add the\n"
        "                               import's beside it (refused where both would have one URN)\n"
        "      --diff                   with --insert-into or --out: print a unified diff of what would change\n"
        "                               and write nothing (exit 0: no change, 4: changes pending)\n"
        "      --generate-code[=false]  generate code (default true)\n"
        "      --secrets config|literal   config (default): secret values become secret stack config: with\n"
        "                               PULUMI_CONFIG_PASSPHRASE[_FILE] encrypted into Pulumi.<stack>.yaml,\n"
        "                               else all in one --secrets-file (mode 0600) and the way to store them\n"
        "                               is printed; literal: secret(\"...\") in the code\n"
        "      --secrets-file FILE      where secret values go without a passphrase (default: one file per\n"
        "                               stack, ./cimport-secrets.<stack>.json, or ./cimport-secrets.json with\n"
        "                               no stack; --secrets-dir DIR: that name in DIR)\n"
        "      --json                   print one JSON document with every resource's outcome, inputs and\n"
        "                               their provenance, and the generated code\n"
        "      --show-secrets           show secret values in --json output and --report (hidden by default)\n"
        "      --report FILE            also write the import report: one self-contained HTML page (summary,\n"
        "                               graph, every resource's inputs and provenance, code, program diff);\n"
        "                               written with --diff and --preview-only too, it is the review\n"
        "  -q, --quiet                  no progress or summary on stderr\n"
        "\n"
        "Exit codes: 0 all imported; 1 some failed; 2 bad usage or input, or an output could not be\n"
        "            written (nothing written);\n"
        "            3 none could be imported; 4 with --diff: changes pending (0: no change).\n",
        f);
}

/* "90s", "1500ms", "5m", "1h", or a plain number of seconds; > 0 and at most 24 hours. */
static bool cli_parse_duration_ms(const char *s, int *out_ms) {
    if (!s || !*s) return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || end == s || v <= 0) return false;
    double mult = 1000;
    if (!strcmp(end, "ms"))
        mult = 1;
    else if (!strcmp(end, "s") || !*end)
        mult = 1000;
    else if (!strcmp(end, "m"))
        mult = 60000;
    else if (!strcmp(end, "h"))
        mult = 3600000;
    else
        return false;
    double ms = v * mult;
    if (ms < 1 || ms > 24.0 * 3600000) return false;
    *out_ms = (int)ms;
    return true;
}

/* "512M", "2G", "64K", "1000" (bytes); suffixes are powers of 1024; > 0. */
static bool cli_parse_size(const char *s, size_t *out) {
    if (!s || !*s || *s == '-') return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || v == 0) return false;
    unsigned shift = 0;
    if (!strcmp(end, "K") || !strcmp(end, "k") || !strcmp(end, "KiB"))
        shift = 10;
    else if (!strcmp(end, "M") || !strcmp(end, "MiB"))
        shift = 20;
    else if (!strcmp(end, "G") || !strcmp(end, "GiB"))
        shift = 30;
    else if (*end)
        return false;
    if (v > (SIZE_MAX >> shift)) return false;
    *out = (size_t)v << shift;
    return true;
}

bool cli_set_max_input_size(const char *size) {
    size_t n;
    if (!cli_parse_size(size, &n)) return false;
    file_read_set_limit(n);
    return true;
}

enum {
    OPT_PARENT = 1000,
    OPT_PROVIDER,
    OPT_PROPERTIES,
    OPT_OFFLINE_STATE,
    OPT_SCHEMA,
    OPT_STACK,
    OPT_PROJECT,
    OPT_INPUTS,
    OPT_MAX_ROUNDS,
    OPT_IGNORE_RESIDUAL,
    OPT_PROTECT,
    OPT_GENERATE_CODE,
    OPT_SECRETS,
    OPT_SECRETS_DIR,
    OPT_SECRETS_FILE,
    OPT_SECRETS_PROVIDER,
    OPT_JSON,
    OPT_SHOW_SECRETS,
    OPT_VERSION,
    OPT_IMPORT_OPTION,
    OPT_PREVIEW_ONLY,
    OPT_STACK_STATE,
    OPT_INSERT_INTO,
    OPT_DIFF,
    OPT_KEEP_EXISTING,
    OPT_RESUME,
    OPT_ATTACH,
    OPT_CONFIG,
    OPT_SKIP_PREVIEW,
    OPT_NON_INTERACTIVE,
    OPT_FROM,
    OPT_CONFIG_FILE,
    OPT_CODE_ONLY,
    OPT_NEW_STACK_STATE,
    OPT_LOCK_TIMEOUT,
    OPT_REPORT,
    OPT_TIMEOUT,
    OPT_START_TIMEOUT,
    OPT_MAX_INPUT_SIZE,
    OPT_INPUT_TIMEOUT,
};

static bool parse_bool(const char *s, bool *out) {
    if (!s || strcasecmp(s, "true") == 0 || strcmp(s, "1") == 0) return *out = true, true;
    if (strcasecmp(s, "false") == 0 || strcmp(s, "0") == 0) return *out = false, true;
    return false;
}

const char *cli_did_you_mean(const char *word, const char *const *candidates, size_t n) {
    return suggest_closest(word, candidates, n, false);
}

static bool suggest_error(int *exit_code, const char *what, const char *word, const char *suggestion) {
    fprintf(stderr, "cimport: unknown %s '%s'; did you mean '%s'?\nnext: see `cimport --help` for usage\n", what, word,
            suggestion);
    *exit_code = EXIT_USAGE;
    return false;
}

/* A duration: a number with ms, s (the default) or m, from 0 to 24 hours (--lock-timeout). */
static bool parse_duration_ms(const char *s, int *out) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0) return false;
    double scale = 1000;
    if (strcmp(end, "ms") == 0)
        scale = 1;
    else if (strcmp(end, "m") == 0)
        scale = 60000;
    else if (*end && strcmp(end, "s") != 0)
        return false;
    double ms = v * scale;
    if (ms > 86400000.0) return false;
    *out = (int)ms;
    return true;
}

bool cli_same_file(const char *a, const char *b) {
    struct stat sa, sb;
    if (!a || !b || stat(a, &sa) != 0 || stat(b, &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* An output file that is also an input would be replaced by the output before (or while) it is
 * read: refused before anything runs. */
static bool output_overwrites_input(const cli_options_t *o, int *exit_code) {
    const struct {
        const char *flag, *path;
    } outs[] = {{"--out", o->out_path}, {"--report", o->report_path}},
      ins[] = {{"--spec", o->spec_path},         {"--offline-state", o->offline_state},
               {"--resume", o->resume},          {"--stack-state", o->stack_state},
               {"--from", o->from_file},         {"--config-file", o->config_file},
               {"--insert-into", o->insert_into}};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++)
        for (size_t k = 0; k < sizeof ins / sizeof ins[0]; k++)
            if (cli_same_file(outs[i].path, ins[k].path)) {
                fprintf(stderr,
                        "cimport: %s names the same file as %s (%s): writing there would destroy the input; choose "
                        "another output file\nnext: see `cimport --help` for usage\n",
                        outs[i].flag, ins[k].flag, outs[i].path);
                *exit_code = EXIT_USAGE;
                return true;
            }
    return false;
}

const char *cli_output_dir_problem(const char *path, char *why, size_t n) {
    struct stat st;
    if (path && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(why, n, "is a directory: name a file to write");
        return why;
    }
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (!slash || slash == path) return NULL; /* the working directory, or / */
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return NULL;
    if (errno == ENOENT)
        snprintf(why, n, "the directory %s does not exist: create it (mkdir -p %s) or choose another path", dir, dir);
    else if (errno == ENOTDIR || errno == 0 || !S_ISDIR(st.st_mode))
        snprintf(why, n, "%s is not a directory: choose another path", dir);
    else
        snprintf(why, n, "cannot reach the directory %s: %s", dir, strerror(errno));
    return why;
}

/* An output whose directory is missing (or that is a directory) would fail only when written, after every resource was
 * read: refused before anything runs. */
static bool output_dir_missing(const cli_options_t *o, int *exit_code) {
    /* --diff and --preview-only write nothing; a --secrets-file is written only when the run has
     * secrets and no passphrase, known only at the end: left to the write itself */
    if (o->diff || o->preview_only) return false;
    const struct {
        const char *flag, *path;
    } outs[] = {{"--out", o->insert_into ? NULL : o->out_path},
                {"--report", o->report_path},
                {"--stack-state", o->new_stack_state ? o->stack_state : NULL}};
    char why[8300];
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++)
        if (cli_output_dir_problem(outs[i].path, why, sizeof why)) {
            fprintf(stderr, "cimport: %s %s: %s\nnext: see `cimport --help` for usage\n", outs[i].flag, outs[i].path,
                    why);
            *exit_code = EXIT_USAGE;
            return true;
        }
    return false;
}

static bool usage_error(int *exit_code, const char *msg, const char *arg) {
    fprintf(stderr, "cimport: %s", msg);
    if (arg) fprintf(stderr, " '%s'", arg);
    fputs("\nnext: see `cimport --help` for usage\n", stderr);
    *exit_code = EXIT_USAGE;
    return false;
}

bool cli_parse_import_args(int argc, char **argv, cli_options_t *o, int *exit_code) {
    static const struct option longopts[] = {
        {"spec", required_argument, NULL, 'f'},
        {"file", required_argument, NULL, 'f'},
        {"parent", required_argument, NULL, OPT_PARENT},
        {"provider", required_argument, NULL, OPT_PROVIDER},
        {"properties", required_argument, NULL, OPT_PROPERTIES},
        {"offline-state", required_argument, NULL, OPT_OFFLINE_STATE},
        {"schema", required_argument, NULL, OPT_SCHEMA},
        {"stack", required_argument, NULL, OPT_STACK},
        {"project", required_argument, NULL, OPT_PROJECT},
        {"inputs", required_argument, NULL, OPT_INPUTS},
        {"max-rounds", required_argument, NULL, OPT_MAX_ROUNDS},
        {"ignore-residual", no_argument, NULL, OPT_IGNORE_RESIDUAL},
        {"protect", optional_argument, NULL, OPT_PROTECT},
        {"generate-code", optional_argument, NULL, OPT_GENERATE_CODE},
        {"language", required_argument, NULL, 'l'},
        {"out", required_argument, NULL, 'o'},
        {"secrets", required_argument, NULL, OPT_SECRETS},
        {"secrets-dir", required_argument, NULL, OPT_SECRETS_DIR},
        {"secrets-file", required_argument, NULL, OPT_SECRETS_FILE},
        {"secrets-provider", required_argument, NULL, OPT_SECRETS_PROVIDER},
        {"json", no_argument, NULL, OPT_JSON},
        {"show-secrets", no_argument, NULL, OPT_SHOW_SECRETS},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {"import-option", no_argument, NULL, OPT_IMPORT_OPTION},
        {"preview-only", no_argument, NULL, OPT_PREVIEW_ONLY},
        {"stack-state", required_argument, NULL, OPT_STACK_STATE},
        {"insert-into", required_argument, NULL, OPT_INSERT_INTO},
        {"diff", no_argument, NULL, OPT_DIFF},
        {"keep-existing", no_argument, NULL, OPT_KEEP_EXISTING},
        {"parallel", required_argument, NULL, 'p'},
        {"resume", required_argument, NULL, OPT_RESUME},
        {"attach", required_argument, NULL, OPT_ATTACH},
        {"config", required_argument, NULL, OPT_CONFIG},
        {"yes", no_argument, NULL, 'y'},
        {"skip-preview", no_argument, NULL, OPT_SKIP_PREVIEW},
        {"non-interactive", no_argument, NULL, OPT_NON_INTERACTIVE},
        {"from", required_argument, NULL, OPT_FROM},
        {"config-file", required_argument, NULL, OPT_CONFIG_FILE},
        {"cwd", required_argument, NULL, 'C'},
        {"code-only", no_argument, NULL, OPT_CODE_ONLY},
        {"new-stack-state", no_argument, NULL, OPT_NEW_STACK_STATE},
        {"lock-timeout", required_argument, NULL, OPT_LOCK_TIMEOUT},
        {"report", required_argument, NULL, OPT_REPORT},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"start-timeout", required_argument, NULL, OPT_START_TIMEOUT},
        {"max-input-size", required_argument, NULL, OPT_MAX_INPUT_SIZE},
        {"input-timeout", required_argument, NULL, OPT_INPUT_TIMEOUT},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->protect = true;
    o->generate_code = true;
    o->inputs = INPUTS_MINIMAL;
    o->max_rounds = 3;
    o->secrets = PCL_SECRETS_CONFIG;
    o->parallel = 16;
    o->lock_wait_ms = 10000;
    o->schemas = calloc((size_t)argc + 1, sizeof(char *));
    o->attach = calloc((size_t)argc + 1, sizeof(char *));
    o->config = calloc((size_t)argc + 1, sizeof(char *));
    if (!o->schemas || !o->attach || !o->config) abort();

    optind = 1;
    opterr = 0;
    int c;
    /* "+" would stop at the first positional; we allow options after TYPE NAME ID like pulumi. */
    while ((c = getopt_long(argc, argv, ":f:l:o:p:qhys:C:", longopts, NULL)) != -1) {
        switch (c) {
        case 'f': o->spec_path = optarg; break;
        case OPT_PARENT: o->parent = optarg; break;
        case OPT_PROVIDER: o->provider = optarg; break;
        case OPT_PROPERTIES: o->properties = optarg; break;
        case OPT_OFFLINE_STATE: o->offline_state = optarg; break;
        case OPT_SCHEMA: o->schemas[o->n_schemas++] = optarg; break;
        case OPT_STACK:
        case 's': o->stack = optarg; break;
        case 'y': o->yes = true; break;
        case OPT_SKIP_PREVIEW: o->skip_preview = o->yes = true; break;
        case OPT_NON_INTERACTIVE: o->non_interactive = true; break;
        case OPT_FROM:
            if (strcmp(optarg, "terraform") != 0 && strcmp(optarg, "pulumi") != 0)
                return usage_error(
                    exit_code, "--from takes terraform (a Terraform state) or pulumi (a `pulumi stack export`), not",
                    optarg);
            o->from = optarg;
            break;
        case OPT_CONFIG_FILE: o->config_file = optarg; break;
        case 'C': o->cwd = optarg; break;
        case OPT_CODE_ONLY: o->code_only = true; break;
        case OPT_NEW_STACK_STATE: o->new_stack_state = true; break;
        case OPT_LOCK_TIMEOUT:
            if (!parse_duration_ms(optarg, &o->lock_wait_ms))
                return usage_error(exit_code,
                                   "--lock-timeout takes a duration up to 24h such as 10 (seconds), 30s, 500ms or 2m, "
                                   "not",
                                   optarg);
            break;
        case OPT_PROJECT: o->project = optarg; break;
        case OPT_INPUTS:
            if (strcmp(optarg, "minimal") == 0)
                o->inputs = INPUTS_MINIMAL;
            else if (strcmp(optarg, "read") == 0)
                o->inputs = INPUTS_READ;
            else
                return usage_error(exit_code, "--inputs must be 'minimal' or 'read', not", optarg);
            break;
        case OPT_MAX_ROUNDS: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 0 || n > 100)
                return usage_error(exit_code, "--max-rounds takes a number from 0 to 100, not", optarg);
            o->max_rounds = (int)n;
            break;
        }
        case OPT_IGNORE_RESIDUAL: o->ignore_residual = true; break;
        case OPT_PROTECT:
            if (!parse_bool(optarg, &o->protect))
                return usage_error(exit_code, "--protect takes true or false, not", optarg);
            break;
        case OPT_GENERATE_CODE:
            if (!parse_bool(optarg, &o->generate_code))
                return usage_error(exit_code, "--generate-code takes true or false, not", optarg);
            break;
        case 'l':
            if (!lang_from_name(optarg, &o->language)) {
                static const char *const langs[] = {"typescript", "python", "go", "csharp", "java", "yaml", "pcl"};
                const char *m = cli_did_you_mean(optarg, langs, sizeof langs / sizeof *langs);
                if (m) return suggest_error(exit_code, "--language", optarg, m);
                return usage_error(
                    exit_code, "unknown --language (use typescript, python, go, csharp, java, yaml or pcl):", optarg);
            }
            o->language_name = optarg;
            o->language_set = true;
            break;
        case 'o': o->out_path = optarg; break;
        case OPT_SECRETS:
            if (strcmp(optarg, "config") == 0)
                o->secrets = PCL_SECRETS_CONFIG;
            else if (strcmp(optarg, "literal") == 0)
                o->secrets = PCL_SECRETS_LITERAL;
            else
                return usage_error(exit_code, "--secrets must be 'config' or 'literal', not", optarg);
            break;
        case OPT_SECRETS_DIR: o->secrets_dir = optarg; break;
        case OPT_SECRETS_FILE: o->secrets_file = optarg; break;
        case OPT_SECRETS_PROVIDER:
            if (strcmp(optarg, "b64") == 0)
                o->secrets_b64 = true;
            else if (strcmp(optarg, "plaintext") == 0)
                o->secrets_plaintext = true;
            else if (strcmp(optarg, "passphrase") != 0)
                return usage_error(
                    exit_code,
                    "--secrets-provider must be 'passphrase' (the default; set PULUMI_CONFIG_PASSPHRASE), "
                    "'b64' (base64, not encryption) or 'plaintext', not",
                    optarg);
            break;

        case OPT_JSON: o->json = true; break;
        case OPT_IMPORT_OPTION: o->import_option = true; break;
        case OPT_PREVIEW_ONLY: o->preview_only = true; break;
        case OPT_STACK_STATE: o->stack_state = optarg; break;
        case OPT_INSERT_INTO: o->insert_into = optarg; break;
        case OPT_DIFF: o->diff = true; break;
        case OPT_KEEP_EXISTING: o->keep_existing = true; break;
        case OPT_REPORT: o->report_path = optarg; break;
        case 'p': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 1 || n > 4096)
                return usage_error(exit_code, "--parallel takes a number from 1 to 4096, not", optarg);
            o->parallel = (int)n;
            break;
        }
        case OPT_RESUME: o->resume = optarg; break;
        case OPT_ATTACH:
            if (!strchr(optarg, '=')) return usage_error(exit_code, "--attach takes PACKAGE=PORT, not", optarg);
            o->attach[o->n_attach++] = optarg;
            break;
        case OPT_CONFIG: o->config[o->n_config++] = optarg; break;
        case OPT_TIMEOUT:
            if (!cli_parse_duration_ms(optarg, &o->timeout_ms))
                return usage_error(exit_code, "--timeout takes a duration such as 30s, 1500ms or 5m, not", optarg);
            break;
        case OPT_START_TIMEOUT:
            if (!cli_parse_duration_ms(optarg, &o->start_timeout_ms))
                return usage_error(exit_code, "--start-timeout takes a duration such as 30s, 1500ms or 5m, not",
                                   optarg);
            break;
        case OPT_MAX_INPUT_SIZE:
            if (!cli_set_max_input_size(optarg)) return usage_error(exit_code, CLI_MAX_INPUT_SIZE_USAGE, optarg);
            break;
        case OPT_INPUT_TIMEOUT: {
            int ms;
            if (!cli_parse_duration_ms(optarg, &ms))
                return usage_error(exit_code, "--input-timeout takes a duration such as 30s or 5m, not", optarg);
            file_read_set_idle_timeout(ms);
            break;
        }
        case OPT_SHOW_SECRETS: o->show_secrets = true; break;
        case 'q': o->quiet = true; break;
        case 'h':
            cli_print_help(stdout);
            *exit_code = EXIT_ALL_OK;
            return false;
        case OPT_VERSION:
            printf("cimport %s\n", CIMPORT_VERSION);
            *exit_code = EXIT_ALL_OK;
            return false;
        case ':': return usage_error(exit_code, "missing value for option", argv[optind - 1]);
        default: {
            const char *bad = argv[optind - 1];
            if (strncmp(bad, "--", 2) == 0) {
                char word[128];
                snprintf(word, sizeof word, "%s", bad + 2);
                char *eq = strchr(word, '=');
                if (eq) *eq = 0;
                const char *names[sizeof longopts / sizeof *longopts];
                size_t n = 0;
                for (const struct option *lo = longopts; lo->name; lo++)
                    names[n++] = lo->name;
                const char *m = cli_did_you_mean(word, names, n);
                if (m) {
                    char w2[140], sug[140];
                    snprintf(w2, sizeof w2, "--%s", word);
                    snprintf(sug, sizeof sug, "--%s", m);
                    return suggest_error(exit_code, "option", w2, sug);
                }
            }
            return usage_error(exit_code, "unknown option", bad);
        }
        }
    }
    int npos = argc - optind;
    /* Pulumi's rules for mixing the modes (import-semantics §1.1). */
    if (o->from) {
        if (o->spec_path)
            return usage_error(exit_code, "a converter may not be specified in conjunction with an import file", NULL);
        if (o->parent || o->provider || o->properties)
            return usage_error(exit_code,
                               "--parent, --provider and --properties are for one inline resource, not --from", NULL);
        if (npos != 1)
            return usage_error(exit_code,
                               npos == 0
                                   ? "--from needs the file to convert: cimport --from terraform terraform.tfstate"
                                   : "--from converts one file; too many arguments",
                               NULL);
        o->from_file = argv[optind];
    } else if (o->spec_path) {
        if (npos > 0 || o->parent || o->provider || o->properties)
            return usage_error(exit_code, "an inline resource may not be specified in conjunction with an import file",
                               NULL);
    } else {
        if (npos == 0)
            return usage_error(exit_code,
                               "an inline resource must be specified if no converter or import file is used, missing "
                               "type, name, and id",
                               NULL);
        if (npos == 1)
            return usage_error(exit_code,
                               "an inline resource must be specified if no converter or import file is used, missing "
                               "name and id",
                               NULL);
        if (npos == 2)
            return usage_error(
                exit_code, "an inline resource must be specified if no converter or import file is used, missing id",
                NULL);
        if (npos > 3) return usage_error(exit_code, "only expected at most three arguments", NULL);
        o->inline_type = argv[optind];
        o->inline_name = argv[optind + 1];
        o->inline_id = argv[optind + 2];
    }
    if (o->preview_only && o->out_path)
        return usage_error(exit_code, "--preview-only writes nothing, so it cannot be used with --out", NULL);
    if (!o->generate_code && (o->diff || o->insert_into || o->out_path))
        return usage_error(exit_code,
                           o->diff ? "--generate-code=false writes no code, so it cannot be used with --diff"
                           : o->insert_into
                               ? "--generate-code=false writes no code, so it cannot be used with --insert-into"
                               : "--generate-code=false writes no code, so it cannot be used with --out",
                           NULL);
    if (o->insert_into && o->out_path)
        return usage_error(exit_code, "--insert-into edits a program in place; it cannot be used with --out", NULL);
    if (o->diff && !o->insert_into && !o->out_path)
        return usage_error(exit_code, "--diff shows what would change in a file: use it with --insert-into or --out",
                           NULL);
    /* -o main.py means Python, as the name says. */
    if (o->out_path && !o->language_set && !o->insert_into) {
        size_t n = strlen(o->out_path);
        if (n >= 3 && strcmp(o->out_path + n - 3, ".pp") == 0) {
            o->language = LANG_PCL;
            o->language_set = true;
        } else if (splice_lang_from_path(o->out_path, &o->language)) {
            o->language_set = true;
        }
    }
    /* -o of a JavaScript file: the code is TypeScript (type arguments, casts, annotations), which does
     * not parse as JavaScript, and no JavaScript form is written (a JavaScript program for
     * --insert-into: session_program_fits). */
    if (o->out_path && !o->insert_into && session_path_is_javascript(o->out_path)) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "-o names a JavaScript file (%s), but cimport writes TypeScript, which does not parse as "
                 "JavaScript: name a TypeScript file (.ts)",
                 o->out_path);
        return usage_error(exit_code, msg, NULL);
    }
    /* --language against the name of the file the code goes into: code of another language would be
     * spliced into a program and can parse there (a YAML `name: p` line is a Python annotation), or
     * written under another language's name with a next step that adds it to such a program. */
    const char *target = o->insert_into ? o->insert_into : o->out_path;
    lang_t named;
    if (target && o->language_set && splice_lang_from_path(target, &named) && named != o->language) {
        bool into = o->insert_into != NULL;
        const char *kind = into ? "program" : "file";
        char msg[512];
        snprintf(msg, sizeof msg,
                 "--language %s writes %s, but %s names a %s %s (%s): drop --language (the %s's name gives it), or "
                 "%s a %s %s",
                 lang_name(o->language), lang_title(o->language), into ? "--insert-into" : "-o", lang_title(named),
                 kind, target, kind, into ? "insert into" : "name", lang_title(o->language), kind);
        return usage_error(exit_code, msg, NULL);
    }
    if (o->insert_into && !o->language_set) {
        if (!splice_lang_from_path(o->insert_into, &o->language))
            return usage_error(exit_code,
                               "cannot tell the language of --insert-into from its name (use .ts, .py, .go, "
                               ".cs, .java or .yaml), so pass --language:",
                               o->insert_into);
        o->language_set = true;
    }
    if (o->stack_state && o->import_option)
        return usage_error(exit_code,
                           "--import-option leaves the import to your own `pulumi up`, so it writes no --stack-state",
                           NULL);
    if (o->stack_state && o->preview_only)
        return usage_error(exit_code, "--preview-only writes nothing, so it cannot be used with --stack-state", NULL);
    if (o->code_only && (o->import_option || o->stack_state))
        return usage_error(
            exit_code, "--code-only writes no stack and no `import` option; drop --import-option/--stack-state", NULL);
    if (o->new_stack_state && !o->stack_state)
        return usage_error(exit_code, "--new-stack-state only applies to --stack-state FILE", NULL);
    if ((o->secrets_b64 || o->secrets_plaintext) && !o->stack_state)
        return usage_error(exit_code,
                           o->secrets_b64 ? "--secrets-provider b64 only applies to --stack-state FILE"
                                          : "--secrets-provider plaintext only applies to --stack-state FILE",
                           NULL);
    if (o->n_config && o->offline_state)
        return usage_error(exit_code,
                           "--config configures the provider plugins, which an --offline-state run does not start; "
                           "drop --config (a stack's configuration is read from Pulumi.<stack>.yaml)",
                           NULL);
    if (o->keep_existing && !o->insert_into)
        return usage_error(exit_code, "--keep-existing only applies to --insert-into FILE", NULL);
    if ((o->secrets_file || o->secrets_dir) && o->secrets == PCL_SECRETS_LITERAL)
        return usage_error(exit_code,
                           "--secrets-file and --secrets-dir only apply to --secrets config (with --secrets literal "
                           "the values are in the code)",
                           NULL);
    if (o->preview_only && o->skip_preview)
        return usage_error(exit_code, "--skip-preview and --preview-only cannot be used together", NULL);
    if (o->preview_only && o->yes)
        return usage_error(exit_code, "--yes and --preview-only cannot be used together", NULL);
    if (o->show_secrets && !o->json && !o->report_path)
        return usage_error(exit_code, "--show-secrets only applies to --json output and --report", NULL);
    if (output_overwrites_input(o, exit_code) || output_dir_missing(o, exit_code)) return false;
    return true;
}

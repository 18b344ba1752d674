/* convert.c — the `cimport convert` command: argument parsing, loading the inputs, writing the
 * import file (stdout or atomically to -o), progress and the summary table on stderr. The
 * conversion itself is migrate/convert.c. */
#include "cli/convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "importer/tfmapper.h"

#define CONVERT_EXIT_OK 0
#define CONVERT_EXIT_SOME 1
#define CONVERT_EXIT_USAGE 2
#define CONVERT_EXIT_NONE 3 /* resources to convert, none converted: nothing written */
/* Above this many instances the command reports its stages on stderr. */
#define CONVERT_PROGRESS_THRESHOLD 500

static void convert_print_help(FILE *f) {
    fputs("Usage:\n"
          "  cimport convert --from terraform STATE [-o FILE] [--mapping FILE|DIR]... [--schema FILE|DIR]...\n"
          "  cimport convert --from pulumi EXPORT [-o FILE]\n"
          "\n"
          "Writes an import file (for `cimport --spec FILE`) for the resources of another tool's state.\n"
          "(`cimport convert --from pcl --help` describes converting PCL programs.)\n"
          "\n"
          "  --from terraform  STATE is a Terraform state file (version 4, Terraform 0.12+) or the output of\n"
          "                    `terraform show -json`. One spec per managed resource instance: the name is the\n"
          "                    module path, the resource name and `-<index>`/`-<key>` for count/for_each, with\n"
          "                    -./\\$@#%^&*()\"'<>|` and space turned into _ (duplicates get _2, _3...). The ID is\n"
          "                    the `id` attribute, or the composite ID some types import by. Data sources are\n"
          "                    skipped; aliased providers become `pulumi:providers:<pkg>` specs. A type whose\n"
          "                    provider implements no importer (random_pet, random_shuffle, random_ip, the tls_\n"
          "                    types) is written and listed as into a stack only: recorded from the state, not\n"
          "                    imported.\n"
          "  --from pulumi     EXPORT is a `pulumi stack export` file (or a checkpoint). Custom resources,\n"
          "                    components and explicit providers become specs with their parents and providers\n"
          "                    referenced by name; default providers and the stack are not specs; a resource\n"
          "                    whose parent is not converted goes to the stack's root (with a warning), one\n"
          "                    whose explicit provider is not converted is skipped, and a RandomPassword or\n"
          "                    RandomBytes (imported by its secret value) is not converted, with the reason.\n"
          "                    An explicit provider whose configuration holds a secret is not converted (nor\n"
          "                    the resources under it): the source stack's ciphertext does not decrypt in\n"
          "                    another and no secret is written in plaintext; the reason says how to carry it.\n"
          "                    Both: a RandomInteger's ID is the importer's `result,min,max[,seed]`, a RandomId\n"
          "                    with a prefix `prefix,b64url` (the state records the result, the bytes); the\n"
          "                    AWS types imported by other properties get that ID (a Route\n"
          "                    `<routeTableId>_<destination>`, a RolePolicyAttachment `<role>/<policyArn>`...).\n"
          "  -o, --out FILE    write the import file to FILE (atomically) instead of stdout\n"
          "  --mapping PATH    a mapping document (what a provider plugin returns from GetMapping, in a file\n"
          "                    named <tf provider>.json), Terraform-bridge metadata (bridge-metadata*.json), or a\n"
          "                    directory of them (also searched for Terraform provider schemas, for Sensitive\n"
          "                    flags). Repeatable. Explicit mappings win over plugins.\n"
          "  --schema PATH     Pulumi package schema file or directory (repeatable): for a provider without a\n"
          "                    mapping, a type is written only when the schema holds the token the bridge's\n"
          "                    default naming rule derives.\n"
          "  --attach PKG=PORT ask the provider plugin already running on PORT for its mapping (repeatable;\n"
          "                    PULUMI_DEBUG_PROVIDERS=pkg:port,... works too)\n"
          "  --no-plugins      do not ask installed provider plugins for mappings\n"
          "  --max-input-size SIZE\n"
          "                    " CLI_MAX_INPUT_SIZE_HELP "\n"
          "  -q, --quiet       no progress and no summary on stderr\n"
          "  -h, --help        this help\n"
          "\n"
          "For each Terraform provider without an explicit mapping, the installed Pulumi plugin named like it\n"
          "(google → gcp, azurerm → azure) is asked for its mapping (GetMapping), then the other installed\n"
          "plugins (GetMappings); plugins are found as the import command finds them: the project's plugins,\n"
          "$PATH (pulumi-resource-<pkg>) and $PULUMI_HOME/plugins. Answers are cached per plugin version under\n"
          "$XDG_CACHE_HOME/cimport/mappings (~/.cache/cimport/mappings).\n"
          "\n"
          "A resource whose type no mapping names and no schema confirms is unmapped: it is not written and\n"
          "is listed first in the summary with what to do. Types are never guessed.\n"
          "\n"
          "The summary on stderr counts converted, skipped and unmapped resources by type and lists every\n"
          "resource that was not converted with the reason.\n"
          "\n"
          "Exit codes: 0 all resources converted, 1 some resources unmapped or without an ID, or an explicit\n"
          "provider's secret configuration not carried (the others are written), 2 bad usage or bad input\n"
          "(nothing written), 3 every resource unmapped or without an ID\n"
          "(nothing written: an import file of -o is left as it was).\n",
          f);
}

typedef struct convert_args {
    const char *from;
    const char *input;
    const char *out;
    const char **mappings;
    size_t n_mappings, cap_mappings;
    const char **schemas;
    size_t n_schemas, cap_schemas;
    const char **attach;
    size_t n_attach, cap_attach;
    bool no_plugins;
    bool quiet;
} convert_args_t;

static int usage_error(const char *fmt, const char *arg) {
    fputs("error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nRun `cimport convert --help` for usage.\n", stderr);
    return CONVERT_EXIT_USAGE;
}

/* Returns -1 to proceed, else the exit code. */
static int parse_args(int argc, char **argv, convert_args_t *o, arena_t *a) {
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = NULL;
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        char *flag = eq ? arena_strndup(a, arg, (size_t)(eq - arg)) : (char *)arg;
        if (eq) val = eq + 1;
        bool takes = !strcmp(flag, "--from") || !strcmp(flag, "-o") || !strcmp(flag, "--out") ||
                     !strcmp(flag, "--mapping") || !strcmp(flag, "--schema") || !strcmp(flag, "--attach") ||
                     !strcmp(flag, "--max-input-size");
        if (takes && !val) {
            if (i + 1 >= argc) return usage_error("%s needs a value", flag);
            val = argv[++i];
        }
        if (!strcmp(flag, "-h") || !strcmp(flag, "--help")) {
            convert_print_help(stdout);
            return CONVERT_EXIT_OK;
        } else if (!strcmp(flag, "--from")) {
            o->from = val;
        } else if (!strcmp(flag, "-o") || !strcmp(flag, "--out")) {
            o->out = val;
        } else if (!strcmp(flag, "--mapping")) {
            o->mappings = arena_grow_array(a, o->mappings, &o->cap_mappings, o->n_mappings + 1, sizeof *o->mappings);
            o->mappings[o->n_mappings++] = val;
        } else if (!strcmp(flag, "--schema")) {
            o->schemas = arena_grow_array(a, o->schemas, &o->cap_schemas, o->n_schemas + 1, sizeof *o->schemas);
            o->schemas[o->n_schemas++] = val;
        } else if (!strcmp(flag, "--attach")) {
            o->attach = arena_grow_array(a, o->attach, &o->cap_attach, o->n_attach + 1, sizeof *o->attach);
            o->attach[o->n_attach++] = val;
        } else if (!strcmp(flag, "--no-plugins")) {
            o->no_plugins = true;
        } else if (!strcmp(flag, "-q") || !strcmp(flag, "--quiet")) {
            o->quiet = true;
        } else if (!strcmp(flag, "--max-input-size")) {
            if (!cli_set_max_input_size(val)) return usage_error(CLI_MAX_INPUT_SIZE_USAGE " '%s'", val);
        } else if (arg[0] == '-' && arg[1]) {
            return usage_error("unknown flag %s", arg);
        } else if (o->input) {
            return usage_error("unexpected argument '%s': convert takes exactly one input file", arg);
        } else {
            o->input = arg;
        }
    }
    if (!o->from) return usage_error("%s", "--from is required: --from terraform or --from pulumi");
    if (strcmp(o->from, "terraform") != 0 && strcmp(o->from, "pulumi") != 0)
        return usage_error("--from must be terraform, pulumi or pcl, not '%s'", o->from);
    if (!o->input)
        return usage_error("missing the %s file to convert",
                           !strcmp(o->from, "terraform") ? "Terraform state" : "stack export");
    if (o->out && cli_same_file(o->out, o->input))
        return usage_error("-o names the input file %s: writing there would destroy it; choose another output file",
                           o->input);
    char why[8300];
    if (cli_output_dir_problem(o->out, why, sizeof why)) {
        fprintf(stderr, "error: -o %s: %s\nRun `cimport convert --help` for usage.\n", o->out, why);
        return CONVERT_EXIT_USAGE;
    }
    if (!strcmp(o->from, "pulumi") && o->n_mappings)
        return usage_error("%s applies only to --from terraform", "--mapping");
    if (!strcmp(o->from, "pulumi") && (o->n_attach || o->no_plugins))
        return usage_error("%s applies only to --from terraform", o->n_attach ? "--attach" : "--no-plugins");
    return -1;
}

/* Per source type: counts of each outcome, in first-seen order. */
typedef struct type_row {
    const char *type;
    size_t counts[4];
} type_row_t;

/* Unmapped resources first, grouped by provider, each provider with what to do about it. */
static void print_unmapped(const convert_report_t *r) {
    if (!r->unmapped) return;
    fprintf(stderr, "\nunmapped: %zu resource(s) have no confirmed Pulumi type and were NOT written:\n", r->unmapped);
    for (size_t i = 0; i < r->n_entries; i++) {
        const convert_entry_t *e = &r->entries[i];
        if (e->outcome != CONVERT_UNMAPPED) continue;
        const char *prov = e->tf_provider ? e->tf_provider : "";
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = r->entries[k].outcome == CONVERT_UNMAPPED && r->entries[k].tf_provider &&
                   strcmp(r->entries[k].tf_provider, prov) == 0;
        if (seen) continue;
        if (e->tf_provider)
            fprintf(stderr,
                    "  provider '%s': install the Pulumi plugin that maps it (`pulumi plugin install resource %s`, or "
                    "pulumi-resource-%s on $PATH) so cimport can ask it with GetMapping, or pass --mapping with its "
                    "mapping document (%s.json) or bridge metadata, or --schema with package '%s''s schema\n",
                    prov, e->package, e->package, prov, e->package);
        for (size_t k = i; k < r->n_entries; k++) {
            const convert_entry_t *x = &r->entries[k];
            if (x->outcome != CONVERT_UNMAPPED || strcmp(x->tf_provider ? x->tf_provider : "", prov) != 0) continue;
            fprintf(stderr, "    %s (%s): %s\n", x->address, x->source_type, x->reason ? x->reason : "");
        }
    }
}

static void print_summary(const convert_report_t *r, const char *what) {
    print_unmapped(r);
    type_row_t *rows = calloc(r->n_entries ? r->n_entries : 1, sizeof *rows);
    if (!rows) abort();
    size_t n = 0, width = 4;
    for (size_t i = 0; i < r->n_entries; i++) {
        const convert_entry_t *e = &r->entries[i];
        size_t k = 0;
        while (k < n && strcmp(rows[k].type, e->source_type) != 0)
            k++;
        if (k == n) rows[n++].type = e->source_type;
        rows[k].counts[e->outcome]++;
        if (strlen(e->source_type) > width) width = strlen(e->source_type);
    }
    fprintf(stderr, "\n%-*s  %9s  %7s  %8s  %5s\n", (int)width, what, "converted", "skipped", "unmapped", "no ID");
    for (size_t k = 0; k < n; k++)
        fprintf(stderr, "%-*s  %9zu  %7zu  %8zu  %5zu\n", (int)width, rows[k].type, rows[k].counts[CONVERT_CONVERTED],
                rows[k].counts[CONVERT_SKIPPED], rows[k].counts[CONVERT_UNMAPPED], rows[k].counts[CONVERT_NO_ID]);
    fprintf(stderr, "%-*s  %9zu  %7zu  %8zu  %5zu\n", (int)width, "total", r->converted, r->skipped, r->unmapped,
            r->no_id);
    free(rows);
    bool header = false;
    for (size_t i = 0; i < r->n_entries; i++) {
        const convert_entry_t *e = &r->entries[i];
        if (e->outcome == CONVERT_CONVERTED || e->outcome == CONVERT_UNMAPPED) continue;
        if (!header) fputs("\nnot converted:\n", stderr);
        header = true;
        const char *label = e->outcome == CONVERT_SKIPPED    ? "skipped"
                            : e->outcome == CONVERT_UNMAPPED ? "unmapped"
                                                             : "no ID";
        fprintf(stderr, "  %s (%s): %s: %s\n", e->address, e->source_type, label, e->reason ? e->reason : "");
    }
    bool noted = false;
    for (size_t i = 0; i < r->n_entries; i++) {
        const convert_entry_t *e = &r->entries[i];
        if (e->outcome != CONVERT_CONVERTED || !e->reason) continue;
        /* Notes are about types, so one line per type is enough. */
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = r->entries[k].outcome == CONVERT_CONVERTED && r->entries[k].reason &&
                   strcmp(r->entries[k].source_type, e->source_type) == 0;
        if (seen) continue;
        if (!noted) fputs("\nnotes:\n", stderr);
        noted = true;
        fprintf(stderr, "  %s → %s: %s\n", e->source_type, e->token, e->reason);
    }
    for (size_t i = 0; i < r->n_entries; i++) {
        const convert_entry_t *e = &r->entries[i];
        if (e->outcome != CONVERT_CONVERTED || !e->tainted) continue;
        if (!noted) fputs("\nnotes:\n", stderr);
        noted = true;
        fprintf(stderr,
                "  %s: tainted in Terraform (its last apply failed part way, and Terraform would replace it): "
                "imported as it is; check the resource before you rely on it\n",
                e->address);
    }
    /* Written, but not for `pulumi import` or the code's `import` option: said apart from the others. */
    if (r->stack_only) {
        fprintf(stderr,
                "\ninto a stack only: %zu of the %zu converted resource(s) have a type whose provider implements no "
                "importer (notes above), so `pulumi import` and the code's `import` option cannot import them; "
                "record them from this state into a stack (`cimport --spec FILE --offline-state STATE`):\n",
                r->stack_only, r->converted);
        for (size_t i = 0; i < r->n_entries; i++)
            if (r->entries[i].outcome == CONVERT_CONVERTED && r->entries[i].stack_only)
                fprintf(stderr, "  %s (%s)\n", r->entries[i].address, r->entries[i].source_type);
    }
    if (r->providers)
        fprintf(stderr, "\n%zu explicit provider spec(s) written%s\n", r->providers,
                r->providers_unconfigured
                    ? " without configuration (a Terraform state records none): set each one's (region, project, "
                      "credentials...) in its `inputs` and in the program before importing"
                    : "");
    if (r->providers_unrecorded) fprintf(stderr, "\nnote: %s\n", CONVERT_SHOW_JSON_PROVIDERS);
    if (r->note) fprintf(stderr, "\nnote: %s: the import file has no resources\n", r->note);
    bool none = !r->converted && !r->providers;
    if (r->withheld && !none)
        fprintf(stderr,
                "\n%zu explicit provider(s) with secret configuration not converted, nor the resources under them "
                "(listed above with how to carry it); exit code %d\n",
                r->withheld, CONVERT_EXIT_SOME);
    if (r->unmapped)
        fprintf(stderr, "\n%zu resource(s) unmapped (listed first above)%s; exit code %d\n", r->unmapped,
                none ? " and none converted: no import file written" : ": not written",
                none ? CONVERT_EXIT_NONE : CONVERT_EXIT_SOME);
    else if (r->no_id && none)
        fprintf(stderr,
                "\nno resource converted (%zu without an ID, listed above): no import file written; exit code %d\n",
                r->no_id, CONVERT_EXIT_NONE);
    else if (r->withheld && none)
        fprintf(stderr,
                "\nno resource converted (the others under explicit providers whose secret configuration an import "
                "file cannot carry, listed above): no import file written; exit code %d\n",
                CONVERT_EXIT_NONE);
}

/* Asks the installed plugins for the mappings of the providers no explicit mapping covers (they win),
 * adds what they answer to the bridge set and keeps what they said as hints for unmapped reasons. */
static bool ask_plugins(arena_t *a, const convert_args_t *o, const tf_state_t *s, bridge_set_t *bridge,
                        schema_set_t **schemas, convert_options_t *opts, diag_list_t *diags) {
    tfmapper_options_t mo = {0};
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd) && access("Pulumi.yaml", F_OK) == 0) mo.project_dir = arena_strdup(a, cwd);
    mo.attach = o->attach;
    mo.n_attach = o->n_attach;
    convert_provider_hint_t *hints;
    tfmapper_answer_t *ans;
    size_t nh, na;
    if (!tfmapper_fill_bridge(a, &mo, o->no_plugins, s, bridge, schemas, &hints, &nh, &ans, &na, NULL, diags))
        return false;
    opts->schemas = *schemas;
    if (o->no_plugins)
        for (size_t i = 0; i < nh; i++)
            hints[i].text = "provider plugins were not asked (--no-plugins)";
    for (size_t i = 0; i < na && !o->quiet; i++)
        if (ans[i].data) fprintf(stderr, "%s: mapping from %s\n", ans[i].tf_provider, ans[i].origin);
    opts->hints = hints;
    opts->n_hints = nh;
    return true;
}

static import_file_t *convert_from_terraform(arena_t *a, const convert_args_t *o, convert_report_t *report,
                                             bridge_set_t **bridge, schema_set_t **schemas, diag_list_t *diags) {
    *bridge = bridge_set_new();
    for (size_t i = 0; i < o->n_mappings; i++)
        if (!bridge_set_add_path(*bridge, o->mappings[i], diags)) return NULL;
    if (o->n_schemas) {
        *schemas = schema_set_new();
        for (size_t i = 0; i < o->n_schemas; i++)
            if (!schema_set_add_path(*schemas, o->schemas[i], diags)) return NULL;
    }
    tf_state_t *s = tfstate_load(a, o->input, diags);
    if (!s) return NULL;
    size_t instances = 0;
    for (size_t i = 0; i < s->n_resources; i++)
        instances += s->resources[i].n_instances;
    if (!o->quiet && instances > CONVERT_PROGRESS_THRESHOLD)
        fprintf(stderr, "read %s: %zu resources, %zu instances; converting...\n", o->input, s->n_resources, instances);
    convert_options_t opts = {.bridge = *bridge, .schemas = *schemas};
    if (!ask_plugins(a, o, s, *bridge, schemas, &opts, diags)) {
        tfstate_free(s);
        return NULL;
    }
    import_file_t *f = convert_tfstate_to_import_file(a, s, &opts, report, diags);
    tfstate_free(s);
    return f;
}

static import_file_t *convert_from_pulumi(arena_t *a, const convert_args_t *o, convert_report_t *report,
                                          diag_list_t *diags) {
    deployment_t *d = deployment_load_for_convert(a, o->input, diags);
    if (!d) return NULL;
    if (!o->quiet && d->n_resources > CONVERT_PROGRESS_THRESHOLD)
        fprintf(stderr, "read %s: %zu resources; converting...\n", o->input, d->n_resources);
    import_file_t *f = convert_deployment_to_import_file(a, d, report, diags);
    deployment_free(d);
    return f;
}

int cli_convert_main(int argc, char **argv) {
    arena_t *a = arena_new();
    convert_args_t o = {0};
    int rc = parse_args(argc, argv, &o, a);
    if (rc >= 0) {
        arena_free(a);
        return rc;
    }
    diag_list_t diags;
    diag_list_init(&diags);
    convert_report_t report = {0};
    bridge_set_t *bridge = NULL;
    schema_set_t *schemas = NULL;
    bool tf = strcmp(o.from, "terraform") == 0;
    import_file_t *f = tf ? convert_from_terraform(a, &o, &report, &bridge, &schemas, &diags)
                          : convert_from_pulumi(a, &o, &report, &diags);
    rc = CONVERT_EXIT_USAGE;
    /* Resources to convert and none converted: an import file of nothing would be refused by the
     * import, and -o would replace an earlier conversion with it. Nothing is written. */
    if (f && !diag_has_errors(&diags) && !report.converted && !report.providers &&
        (report.unmapped || report.no_id || report.withheld)) {
        rc = CONVERT_EXIT_NONE;
        if (o.quiet && report.note) fprintf(stderr, "note: %s: the import file has no resources\n", report.note);
        if (!o.quiet) print_summary(&report, tf ? "Terraform type" : "Pulumi type");
    } else if (f && !diag_has_errors(&diags)) {
        char *json = import_file_to_json(f);
        bool written = true;
        if (o.out)
            written = file_write_atomic(o.out, json, strlen(json), 0644, false, &diags);
        else
            fputs(json, stdout);
        free(json);
        if (written) rc = report.unmapped || report.no_id || report.withheld ? CONVERT_EXIT_SOME : CONVERT_EXIT_OK;
        if (written && o.quiet && report.providers_unrecorded)
            fprintf(stderr, "note: %s\n", CONVERT_SHOW_JSON_PROVIDERS);
        if (written && o.quiet && report.note)
            fprintf(stderr, "note: %s: the import file has no resources\n", report.note);
        if (written && !o.quiet) {
            print_summary(&report, tf ? "Terraform type" : "Pulumi type");
            if (o.out) fprintf(stderr, "wrote %zu resource spec(s) to %s\n", f->n_specs, o.out);
        }
    }
    diag_list_print(&diags, stderr);
    diag_list_free(&diags);
    bridge_set_free(bridge);
    schema_set_free(schemas);
    arena_free(a);
    return rc;
}

/* target.c — where the import goes (the selected stack, a stack export, or code with the `import`
 * option), the preview and confirmation, and the summary with the next step (see target.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/fileio.h"
#include "cli/target.h"
#include "importer/tfmapper.h"
#include "migrate/convert.h"
#include "session/failures.h"
#include "specs/importfile.h"
#include "specs/json_strict.h"

static bool truthy(const char *v) {
    return v && (!strcmp(v, "1") || !strcasecmp(v, "true"));
}

/* What the conversion left out is not imported, and never silently: one warning each, counted. */
static void warn_not_converted(import_target_t *t, const cli_options_t *o, const convert_report_t *rep) {
    for (size_t i = 0; rep && i < rep->n_entries; i++) {
        const convert_entry_t *e = &rep->entries[i];
        if (e->outcome != CONVERT_UNMAPPED && e->outcome != CONVERT_NO_ID) continue;
        /* kept for the results document (a stack export's strings go with its arena) */
        t->not_converted = arena_grow_array(t->a, t->not_converted, &t->cap_not_converted, t->n_not_converted + 1,
                                            sizeof *t->not_converted);
        convert_entry_t *k = &t->not_converted[t->n_not_converted];
        memset(k, 0, sizeof *k);
        k->address = arena_strdup(t->a, e->address);
        k->source_type = arena_strdup(t->a, e->source_type);
        k->outcome = e->outcome;
        k->reason = e->reason ? arena_strdup(t->a, e->reason) : NULL;
        k->id = e->id ? arena_strdup(t->a, e->id) : NULL;
        t->n_not_converted++;
        diag_add(&t->diags, DIAG_WARNING, DIAG_INPUT, o->from_file, NULL, "%s (%s): %s, not imported: %s", e->address,
                 e->source_type, e->outcome == CONVERT_UNMAPPED ? "unmapped" : "no import ID",
                 e->reason ? e->reason : "");
    }
}

/* What `cimport convert` notes of a Terraform state, said on the --from path too: an instance
 * Terraform marked tainted is imported as it is, a deposed object is left out, and provider specs
 * carry no configuration. */
static void note_terraform_conversion(import_target_t *t, const cli_options_t *o, const convert_report_t *rep) {
    for (size_t i = 0; rep && i < rep->n_entries; i++) {
        const convert_entry_t *e = &rep->entries[i];
        if (e->outcome == CONVERT_CONVERTED && e->tainted)
            diag_add(&t->diags, DIAG_WARNING, DIAG_INPUT, o->from_file, NULL,
                     "%s: tainted in Terraform (its last apply failed part way, and Terraform would replace it): "
                     "imported as it is; check the resource before you rely on it",
                     e->address);
        else if (e->outcome == CONVERT_SKIPPED && e->deposed)
            diag_add(&t->diags, DIAG_WARNING, DIAG_INPUT, o->from_file, NULL, "%s (%s): not imported: %s", e->address,
                     e->source_type, e->reason);
    }
    if (rep && rep->providers_unrecorded)
        diag_add(&t->diags, DIAG_WARNING, DIAG_INPUT, o->from_file, NULL, "%s", CONVERT_SHOW_JSON_PROVIDERS);
    if (rep && rep->providers && rep->providers_unconfigured)
        diag_add(&t->diags, DIAG_WARNING, DIAG_INPUT, o->from_file, NULL,
                 "%zu explicit provider(s) written without configuration (a Terraform state records none): set each "
                 "one's (region, project, credentials...) in the program before `pulumi up`",
                 rep->providers);
}

/* Every resource left out and none converted: there is nothing to import, and the import file the
 * user never wrote must not be blamed ("has no resources"). */
static import_file_t *none_converted(import_target_t *t, const cli_options_t *o, import_file_t *f,
                                     const convert_report_t *rep) {
    if (!f || f->n_specs) return f;
    if (t->n_not_converted)
        diag_add(&t->diags, DIAG_ERROR, DIAG_INPUT, o->from_file, NULL,
                 "none of its %zu resource(s) could be converted (listed above), so there is nothing to import",
                 t->n_not_converted);
    else
        diag_add(&t->diags, DIAG_ERROR, DIAG_INPUT, o->from_file, NULL, "%s, so there is nothing to import",
                 rep->note ? rep->note : "it holds no resource to import");
    t->nothing_converted = true;
    return NULL;
}

/* --from terraform|pulumi FILE → an import file (the converters of `cimport convert`). */
static const import_file_t *convert_from(import_target_t *t, const cli_options_t *o) {
    convert_report_t rep;
    memset(&rep, 0, sizeof rep);
    if (!strcmp(o->from, "terraform")) {
        size_t len;
        if (!json_file_head_check(o->from_file, &t->diags)) return NULL;
        char *text = file_read_all(t->a, o->from_file, &len, &t->diags);
        if (!text) return NULL;
        if (!convert_is_terraform_state(text)) {
            cJSON *j = cJSON_ParseWithLength(text, len); /* not JSON at all: cut off? tfstate_parse says where */
            if (!j) return tfstate_parse(t->a, text, len, o->from_file, &t->diags), NULL;
            cJSON_Delete(j);
            diag_add(&t->diags, DIAG_ERROR, DIAG_INPUT, o->from_file, NULL,
                     "not a Terraform state (expected `terraform.tfstate` or `terraform show -json` output)");
            return NULL;
        }
        tf_state_t *s = tfstate_parse(t->a, text, len, o->from_file, &t->diags);
        if (!s) return NULL;
        bridge_set_t *bridge = bridge_set_new();
        /* Bridge metadata beside the schemas maps Terraform types to Pulumi tokens. */
        diag_list_t quiet;
        diag_list_init(&quiet);
        for (size_t i = 0; i < o->n_schemas; i++)
            bridge_set_add_path(bridge, o->schemas[i], &quiet);
        diag_list_free(&quiet);
        /* Providers the metadata does not cover: their plugins' mappings, as `cimport convert` asks. */
        /* --schema also confirms the type the bridge's default naming derives, as `cimport convert` does */
        schema_set_t *ss = NULL;
        if (o->n_schemas) {
            ss = schema_set_new();
            for (size_t i = 0; i < o->n_schemas; i++)
                if (!schema_set_add_path(ss, o->schemas[i], &t->diags)) {
                    schema_set_free(ss);
                    bridge_set_free(bridge);
                    tfstate_free(s);
                    return NULL;
                }
        }
        convert_provider_hint_t *hints;
        tfmapper_answer_t *ans;
        size_t nh, na;
        tfmapper_options_t mo = {0};
        mo.attach = o->attach;
        mo.n_attach = o->n_attach;
        import_file_t *f = NULL;
        if (tfmapper_fill_bridge(t->a, &mo, false, s, bridge, &ss, &hints, &nh, &ans, &na, NULL, &t->diags)) {
            convert_options_t co = {.bridge = bridge, .schemas = ss, .hints = hints, .n_hints = nh};
            f = convert_tfstate_to_import_file(t->a, s, &co, &rep, &t->diags);
        }
        /* Unmapped resources are not imported, and never silently. */
        warn_not_converted(t, o, f ? &rep : NULL);
        note_terraform_conversion(t, o, f ? &rep : NULL);
        schema_set_free(ss);
        bridge_set_free(bridge);
        t->from_state = s;
        return none_converted(t, o, f, &rep);
    }
    /* The export's index is needed only while converting: its own arena, freed before the import
     * (the import file keeps copies of what it needs; the report is read here). */
    arena_t *tmp = arena_new();
    deployment_t *d = deployment_load_for_convert(tmp, o->from_file, &t->diags);
    import_file_t *f = d ? convert_deployment_to_import_file(t->a, d, &rep, &t->diags) : NULL;
    warn_not_converted(t, o, f ? &rep : NULL);
    deployment_free(d);
    arena_free(tmp);
    return none_converted(t, o, f, &rep);
}

/* The stack and project a stack export belongs to (its pulumi:pulumi:Stack resource); false when it
 * has none. */
static bool export_stack_of(arena_t *a, const char *text, const char **stack, const char **project) {
    const char *p = text;
    while ((p = strstr(p, "\"urn:pulumi:"))) {
        const char *end = strchr(p + 1, '"');
        if (!end) return false;
        char *urn = arena_strndup(a, p + 1, (size_t)(end - p - 1));
        p = end;
        if (!strstr(urn, "::pulumi:pulumi:Stack::")) continue;
        char *s = urn + strlen("urn:pulumi:");
        char *sep = strstr(s, "::");
        if (!sep) return false;
        *sep = 0;
        char *proj = sep + 2;
        char *sep2 = strstr(proj, "::");
        if (!sep2) return false;
        *sep2 = 0;
        *stack = s;
        *project = proj;
        return true;
    }
    return false;
}

static bool prepare_stack_state(cli_options_t *o, import_target_t *t) {
    if (access(o->stack_state, F_OK) != 0) {
        if (!o->new_stack_state) {
            diag_add(&t->diags, DIAG_ERROR, DIAG_USAGE, o->stack_state, NULL,
                     "no such stack export. To add resources to an existing stack, export it first (`pulumi stack "
                     "export --file %s`) and pass that file; to start a new document on purpose, add "
                     "--new-stack-state (never `pulumi stack import` a new document over a stack that has resources: "
                     "it replaces them)",
                     o->stack_state);
            return false;
        }
        return true;
    }
    size_t len;
    diag_list_t quiet;
    diag_list_init(&quiet);
    char *text = file_read_all(t->a, o->stack_state, &len, &quiet);
    diag_list_free(&quiet);
    /* A DIY backend's checkpoint ({"checkpoint": ...}, no "deployment"): written here it would be
     * without the stack's lock, backup and history, and `pulumi stack import` does not read it. */
    cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL;
    bool checkpoint = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "checkpoint")) &&
                      !cJSON_GetObjectItemCaseSensitive(doc, "deployment");
    cJSON_Delete(doc);
    if (checkpoint) {
        diag_add(&t->diags, DIAG_ERROR, DIAG_USAGE, o->stack_state, NULL,
                 "this is a DIY backend's checkpoint, not a stack export (`pulumi stack export`): cimport would "
                 "write it without the stack's lock, backup and history, and `pulumi stack import` does not read "
                 "it. To import into that stack, run cimport in the project without --stack-state (it writes the "
                 "stack under its lock); or export the stack (`pulumi stack export --file FILE`) and pass that file");
        return false;
    }
    const char *stack, *project;
    if (!text || !export_stack_of(t->a, text, &stack, &project)) return true; /* the merge reports it */
    if (!o->stack) o->stack = stack;
    if (!o->project) o->project = project;
    if (strcmp(o->stack, stack) != 0 || strcmp(o->project, project) != 0) {
        diag_add(&t->diags, DIAG_ERROR, DIAG_USAGE, o->stack_state, NULL,
                 "this export is of stack '%s' in project '%s', but this run imports into stack '%s' of project '%s'"
                 "%s; pass the matching --stack/--project, or the export of the stack you mean",
                 stack, project, o->stack, o->project, t->ws.have_project ? " (the selected stack)" : "");
        return false;
    }
    return true;
}

/* PULUMI_HOME unset and $HOME another directory than the account's home: ~/.pulumi is the account's,
 * as Pulumi takes it (read16 F4), which a user who set HOME may not expect: said once. */
static void note_home(const cli_options_t *o, import_target_t *t) {
    const char *env = getenv("PULUMI_HOME"), *home = getenv("HOME");
    const char *user = file_user_home(t->a);
    if (o->quiet || (env && *env) || !home || !*home || !user) return;
    char a[PATH_MAX], b[PATH_MAX];
    if (!strcmp(realpath(home, a) ? a : home, realpath(user, b) ? b : user)) return;
    fprintf(stderr,
            "cimport: note: $HOME (%s) is not the account's home directory (%s): Pulumi's files are taken from %s, "
            "as `pulumi` takes them (set PULUMI_HOME to use others)\n",
            home, user, t->ws.pulumi_home);
}

bool target_prepare(cli_options_t *o, import_target_t *t, int *exit_code) {
    memset(t, 0, sizeof *t);
    t->a = arena_new();
    diag_list_init(&t->diags);
    *exit_code = EXIT_USAGE;
    if (o->cwd && chdir(o->cwd) != 0) {
        fprintf(stderr, "cimport: cannot change to --cwd '%s': %s\n", o->cwd, strerror(errno));
        return false;
    }
    if (!workspace_discover(t->a, o->stack, &t->ws, &t->diags)) goto fail;
    note_home(o, t);
    /* Outside any project, the program inserted into has one all the same: that project is the run's,
     * as when run from inside it (its stack, its config, its runtime). */
    if (!t->ws.have_project && o->insert_into &&
        !session_program_workspace(t->a, o->insert_into, o->stack, &t->ws, &t->diags))
        goto fail;
    workspace_t *w = &t->ws;
    if (!o->stack_state) {
        if (!workspace_stack_ref_fits(t->a, w, &t->diags)) goto fail;
    } else {
        /* The export carries its own stack and project (prepare_stack_state checks them against the
         * run's): --stack ORG/PROJECT/STACK names that stack, not one of Pulumi.yaml's project. */
        const char *ref_project = workspace_stack_ref_project(t->a, w);
        if (ref_project && o->project && strcmp(ref_project, o->project) != 0) {
            diag_error(&t->diags, DIAG_USAGE, "--stack %s names project '%s', but --project is '%s': pass one of them",
                       o->stack, ref_project, o->project);
            goto fail;
        }
        if (ref_project && !o->project) o->project = ref_project;
    }
    /* -o and --report write a whole file: over a project's program, its Pulumi.yaml or a stack's config
     * it would replace them; beside a compiled program, break its build */
    size_t errors_before = t->diags.errors; /* a file whose project cannot be told (a Pulumi.json) */
    const struct {
        const char *path, *flag;
        bool code;
    } whole[] = {{o->out_path, "-o", true}, {o->report_path, "--report", false}};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        const char *why = whole[i].path
                              ? session_whole_file_refusal(t->a, whole[i].path, whole[i].flag, whole[i].code, &t->diags)
                              : NULL;
        if (why) diag_add(&t->diags, DIAG_ERROR, DIAG_USAGE, whole[i].path, NULL, "%s", why);
    }
    if (t->diags.errors > errors_before) goto fail;
    /* the program written into: one of this project's, which `pulumi up` runs */
    if (o->insert_into && !session_program_fits(t->a, w, o->insert_into, o->language, &t->diags)) goto fail;
    /* The stack, project, language and stack config the workspace gives (the session's rule). */
    session_options_t wo = {.stack = o->stack,
                            .project = o->project,
                            .language = o->language,
                            .language_set = o->language_set,
                            .config_file = o->config_file};
    session_options_from_workspace(&wo, w, t->a);
    o->stack = wo.stack;
    o->stack_ref = wo.stack_ref;
    o->project = wo.project;
    o->language = wo.language;
    o->language_set = wo.language_set;
    const char *given_config = o->config_file; /* the workspace's need not exist yet */
    o->config_file = wo.config_file;
    if (given_config && access(given_config, R_OK) != 0) {
        diag_add(&t->diags, DIAG_ERROR, DIAG_USAGE, o->config_file, NULL, "cannot read the --config-file: %s",
                 strerror(errno));
        goto fail;
    }
    if (o->from && !(t->file = convert_from(t, o))) {
        if (t->nothing_converted) *exit_code = EXIT_ALL_FAILED; /* none could be imported */
        goto fail;
    }
    t->interactive = !o->non_interactive && !truthy(getenv("PULUMI_NON_INTERACTIVE")) && isatty(0) && isatty(2);

    if (o->preview_only) {
        t->mode = TARGET_PREVIEW;
        /* The code shown is the code the run without --preview-only writes: with the `import` options
         * unless that run imports into the selected stack (or --code-only asks for none). */
        if (!o->code_only && (o->import_option || workspace_stack_status(w, o->stack) != WORKSPACE_STACK_WRITABLE))
            o->import_option = true;
        else if (!o->code_only) /* that run's checks of the stack, made without writing (read16 F19) */
            t->preview_stack = true;
    } else if (o->stack_state) {
        t->mode = TARGET_STACK_STATE;
        if (!prepare_stack_state(o, t)) goto fail;
    } else if (o->code_only) {
        t->mode = TARGET_CODE_ONLY;
    } else if (o->import_option) {
        t->mode = TARGET_IMPORT_OPTION;
        t->why_not_stack = "--import-option";
    } else if (o->diff) {
        t->mode = TARGET_IMPORT_OPTION;
        t->why_not_stack = "--diff writes nothing";
        /* A run without --diff would import into the selected stack and write the code without the
         * `import` options: the diff is of that code. */
        if (workspace_stack_status(w, o->stack) == WORKSPACE_STACK_WRITABLE)
            t->diff_of_stack = arena_sprintf(t->a, "stack %s at %s", o->stack, w->backend_shown);
    } else {
        switch (workspace_stack_status(w, o->stack)) {
        case WORKSPACE_NO_PROJECT: t->why_not_stack = "there is no Pulumi.yaml here or in a directory above"; break;
        case WORKSPACE_NO_STACK:
            t->why_not_stack =
                w->stack_elsewhere
                    ? arena_sprintf(t->a,
                                    "no stack is selected for the backend %s (`pulumi stack select NAME` or --stack "
                                    "NAME; the workspace selects only for other backends: %s)",
                                    w->backend_shown, w->stack_elsewhere)
                    : "no stack is selected (`pulumi stack select NAME` or --stack NAME)";
            break;
        case WORKSPACE_NO_BACKEND:
            t->why_not_stack = "no backend is configured (`pulumi login`, PULUMI_BACKEND_URL or backend.url)";
            break;
        case WORKSPACE_BACKEND_OTHER:
            t->why_not_stack = arena_sprintf(t->a, "cimport cannot write stacks of the %s %s",
                                             backend_kind_name(w->backend), w->backend_shown);
            break;
        case WORKSPACE_STACK_WRITABLE: t->mode = TARGET_STACK; break;
        }
    }
    if (t->mode == TARGET_IMPORT_OPTION && !t->diff_of_stack) o->import_option = true;

    if ((t->mode == TARGET_STACK || t->preview_stack) && !workspace_project_fits(w, o->project, &t->diags)) goto fail;
    if (t->mode == TARGET_STACK) {
        /* As `pulumi import`: a run that cannot ask must be told to proceed, before anything runs. */
        if (!t->interactive && !o->yes) {
            diag_error(&t->diags, DIAG_USAGE,
                       "--yes or --skip-preview must be passed in to proceed when running in non-interactive mode "
                       "(this run would import into stack '%s' at %s; --preview-only shows what it would do, "
                       "--import-option writes code that imports on your next `pulumi up` instead)",
                       o->stack, w->backend_shown);
            goto fail;
        }
    }
    return true;
fail:
    diag_list_print(&t->diags, stderr);
    return false;
}

static bool ask_yes(void) {
    fputs("Do you want to perform this import? [yes/no]: ", stderr);
    fflush(stderr);
    char line[64];
    if (!fgets(line, sizeof line, stdin)) return false;
    line[strcspn(line, "\r\n")] = 0;
    return !strcasecmp(line, "yes") || !strcasecmp(line, "y");
}

/* Whether the stack is the one PULUMI_STACK names (said, as the variable is easily left set). */
static bool from_env(const workspace_t *w) {
    return w->stack_source && !strcmp(w->stack_source, "PULUMI_STACK");
}

bool target_open_stack(const cli_options_t *o, import_target_t *t, import_session_t *p) {
    if (t->mode != TARGET_STACK && !t->preview_stack) return true;
    diag_list_t d;
    diag_list_init(&d);
    bool ok = session_stack_open(p, &d);
    diag_list_print(&d, stderr);
    diag_list_free(&d);
    if (ok && !o->quiet && !o->json)
        fprintf(stderr, "cimport: project %s (%s), stack %s%s, backend %s (from %s)\n", o->project, t->ws.project_file,
                o->stack, from_env(&t->ws) ? " (from PULUMI_STACK)" : "", t->ws.backend_shown, t->ws.backend_source);
    const char *held = ok && p->stack_store ? stack_store_held_by(p->stack_store) : NULL;
    if (held && !o->quiet)
        fprintf(stderr,
                "cimport: note: the stack is locked by another process now:%s\n  a run without --preview-only waits "
                "for it (up to --lock-timeout) and refuses if it is still held\n",
                held);
    return ok;
}

bool target_plan(const cli_options_t *o, import_target_t *t, import_session_t *p) {
    if ((t->mode != TARGET_STACK && !t->preview_stack) || !session_stack_merge(p)) return false;
    const stackstate_report_t *rep = &p->stack_report;
    if (!o->skip_preview && !o->json) {
        fprintf(stderr, "Previewing import (%s):\n", stack_store_describe(p->stack_store));
        size_t n_create = 0;
        for (size_t i = 0; i < rep->n_entries; i++) {
            const stackstate_report_entry_t *e = &rep->entries[i];
            char *name = urn_name(p->arena, e->urn);
            bool imp = e->id && strncmp(e->type, "pulumi:providers:", 17) != 0;
            const char *verb = e->outcome == STACKSTATE_SAME ? "  already there" : imp ? "= import" : "+ create";
            if (e->outcome != STACKSTATE_SAME && !imp) n_create++;
            const char *shown = imp ? session_shown_id(p, e->id) : "";
            bool hidden = imp && shown != e->id; /* a secret value: asked before the stack holds it so */
            fprintf(stderr, "    %-16s %s %s%s%s%s\n", verb, e->type, name ? name : e->urn, imp ? " (id " : "", shown,
                    !imp                                      ? ""
                    : hidden && e->outcome != STACKSTATE_SAME ? ", a secret the stack records in plaintext)"
                                                              : ")");
        }
        char create[64] = "";
        if (n_create) snprintf(create, sizeof create, ", %zu to create", n_create);
        fprintf(stderr, "Resources: %zu to import%s, %zu already in the stack, %zu existing kept as they are\n",
                p->stack_n_import, create, rep->n_same, rep->n_existing);
    }
    if (!p->stack_merged || o->preview_only) return true; /* nothing to write */
    if (!o->yes && !ask_yes()) {
        t->declined = true;
        fprintf(stderr, "cimport: import declined: nothing was written to the stack\n");
        return false;
    }
    return true;
}

void target_print_failures(const import_session_t *p) {
    buf_t b;
    buf_init(&b);
    session_failures_text(p, &b, SESSION_FAILURES_ALL_DIAGS);
    if (b.len) fwrite(b.data, 1, b.len, stderr);
    buf_free(&b);
}

static const char *read_only_note(const import_session_t *p, const char *path) {
    return arena_sprintf(p->arena,
                         "%s is read-only, so a run without --diff would refuse to write it: make it writable (chmod "
                         "u+w), then run again without --diff",
                         path);
}

/* The resources read whose inputs still differ from what the provider read (a residual diff the run
 * warned about), or where the provider did not say: their next update can change them. A residual in
 * ignoreChanges (--ignore-residual) counts too: no Check and Diff ran with ignoreChanges applied
 * (Pulumi's ImportStep and step generator apply it, then Diff, and the provider may still report the
 * property: one on the Node.js host never sees ignoreChanges), so nothing says it is settled. */
static size_t residual_left(const import_session_t *p) {
    size_t n = 0;
    for (size_t i = 0; p->results && i < p->plan->n_items; i++) {
        const import_result_t *r = &p->results[i];
        n += r->status == IMPORT_OK && (r->residual_unnamed || r->n_residual);
    }
    return n;
}

/* Resources imported whose inputs the provider's last Check failed: `pulumi up` with them fails. */
static size_t check_rejected(const import_session_t *p) {
    size_t n = 0;
    for (size_t i = 0; p->results && i < p->plan->n_items; i++)
        n += p->results[i].status == IMPORT_OK && p->results[i].check_rejected;
    return n;
}

/* Whether some residual left names a property (ignoreChanges can hold it); an unnamed one (the
 * provider's Diff said "changes" but not where) no flag can settle. */
static bool residual_named(const import_session_t *p) {
    for (size_t i = 0; p->results && i < p->plan->n_items; i++)
        if (p->results[i].status == IMPORT_OK && p->results[i].n_residual) return true;
    return false;
}

/* What the residual next step adds: the flag that may settle it, or why the one given did not. */
static const char *residual_advice(const cli_options_t *o, const import_session_t *p) {
    if (!residual_named(p))
        return "(the provider's Diff does not say which properties differ, so no ignoreChanges can hold them: "
               "compare the inputs with the resource)";
    return o->ignore_residual ? "(they are in ignoreChanges, but ignoreChanges was not checked with the provider: "
                                "it may still report them)"
                              : "(or run again with --ignore-residual)";
}

void target_print_summary(const cli_options_t *o, const import_target_t *t, const import_session_t *p, bool wrote_ok) {
    if (o->quiet || o->json || !p->plan) return;
    size_t total = p->plan->n_items, failed = total - p->n_ok;
    size_t n_residual = residual_left(p), n_rejected = check_rejected(p);
    const char *residual_them = n_residual == 1 ? "it" : "them";
    /* A run stopped (SIGINT/SIGTERM) left some resources unread: they did not fail, and the next step is
     * to run again, which the caller says (import_cmd.c) — none of the steps below. */
    size_t stopped = p->stats.stopped < failed ? p->stats.stopped : failed;
    char fail[192] = "";
    if (failed > stopped) snprintf(fail, sizeof fail, ", %zu failed", failed - stopped);
    if (stopped)
        snprintf(fail + strlen(fail), sizeof fail - strlen(fail), ", %zu not imported (the run was stopped)", stopped);
    /* --from: what the conversion left out was never in the plan, yet it is not imported either */
    if (t->n_not_converted)
        snprintf(fail + strlen(fail), sizeof fail - strlen(fail), ", %zu more not converted (listed above)",
                 t->n_not_converted);
    char resumed[256] = "";
    if (p->stats.resumed) snprintf(resumed, sizeof resumed, "; %zu carried over from %s", p->stats.resumed, o->resume);
    const char *code_where = o->insert_into ? o->insert_into : o->out_path ? o->out_path : "the code above";
    /* the next step for inputs the provider's Check fails: nothing else promised is true of them */
    const char *rejected_next =
        !n_rejected
            ? NULL
            : arena_sprintf(p->arena,
                            "next: %s rejects the inputs of %zu resource%s (listed above): "
                            "`pulumi preview` and `pulumi up` with %s fail on %s until they are fixed; edit "
                            "them first\n",
                            p->offline ? "the schema (checked offline: no provider ran)" : "the provider's Check",
                            n_rejected, n_rejected == 1 ? "" : "s", session_has_code(p) ? code_where : "their code",
                            n_rejected == 1 ? "it" : "them");
    const char *checked = session_checked_text(p); /* offline: consistent with the schema, never "verified" */
    /* a re-run: every resource read is in the stack already, so nothing was (or needed to be) written */
    bool up_to_date = t->mode == TARGET_STACK && !p->stack_written && !t->declined && p->stack_store && p->n_ok > 0 &&
                      p->stack_n_same >= p->n_ok && !p->n_recorded_differ;
    switch (t->mode) {
    case TARGET_STACK:
        if (p->stack_written) /* the others of the total: in the stack already, or failed */
            fprintf(stderr, "cimport: imported %zu of %zu resources into stack %s (%s)%s%s%s\n", p->stack_n_import,
                    total, stack_store_describe(p->stack_store), checked,
                    p->stack_n_same ? arena_sprintf(p->arena, ", %zu already in it", p->stack_n_same) : "", fail,
                    resumed);
        else if (up_to_date) /* with failures, "all are" would take in the ones never read */
            fprintf(stderr, "cimport: read %zu of %zu resources (%s)%s%s; %s already in stack %s: nothing to import\n",
                    p->n_ok, total, checked, fail, resumed,
                    failed ? (p->n_ok == 1 ? "the one read is" : arena_sprintf(p->arena, "the %zu read are", p->n_ok))
                    : p->n_ok == 1 ? "it is"
                                   : "all are",
                    stack_store_describe(p->stack_store));
        else
            fprintf(stderr, "cimport: read %zu of %zu resources (%s)%s%s; nothing was imported into stack %s\n",
                    p->n_ok, total, checked, fail, resumed, p->stack_store ? stack_store_describe(p->stack_store) : "");
        if (p->stack_written && stack_store_backup(p->stack_store))
            fprintf(stderr, "cimport: the previous checkpoint is kept in %s\n", stack_store_backup(p->stack_store));
        if (stopped) break;
        /* Check's rejection comes first; a residual, if any, is said after it, and nothing is promised */
        if (n_rejected && (p->stack_written || up_to_date)) fputs(rejected_next, stderr);
        if (p->n_recorded_differ && (p->stack_written || p->stack_n_same))
            fprintf(stderr,
                    "next: the stack records %zu resource%s otherwise than the code written declares %s (listed "
                    "above): `pulumi preview` with %s can show changes for %s; review them before `pulumi up`\n",
                    p->n_recorded_differ, p->n_recorded_differ == 1 ? "" : "s",
                    p->n_recorded_differ == 1 ? "it" : "them", session_has_code(p) ? code_where : "their code",
                    p->n_recorded_differ == 1 ? "it" : "them");
        else if (n_residual && (p->stack_written || up_to_date))
            fprintf(stderr,
                    "next: the inputs of %zu resource%s still differ from what the provider read (listed above): "
                    "`pulumi preview` with %s %s show changes for %s; review them before `pulumi up` %s\n",
                    n_residual, n_residual == 1 ? "" : "s", session_has_code(p) ? code_where : "their code",
                    o->ignore_residual ? "can" : "will", residual_them, residual_advice(o, p));
        else if (n_rejected && (p->stack_written || up_to_date))
            ; /* said above */
        else if (p->stack_written && !session_has_code(p))
            fprintf(stderr, "next: add code for them to your program (run again with --preview-only to see it); "
                            "`pulumi preview` should then show no changes for them\n");
        else if ((p->stack_written || (up_to_date && session_has_code(p))) && o->insert_into)
            fprintf(stderr, "next: `pulumi preview` should show no changes for them (%s declares them now)\n",
                    o->insert_into);
        else if (p->stack_written || (up_to_date && session_has_code(p)))
            fprintf(stderr, "next: add %s to your program; `pulumi preview` should then show no changes for them\n",
                    code_where);
        else if (up_to_date)
            fprintf(stderr, "next: `pulumi preview` should show no changes for them once your program declares them\n");
        else if (t->declined)
            fprintf(stderr, "next: run again and answer yes, or pass --yes\n");
        else
            fprintf(stderr, "next: fix what is reported above and run cimport again\n");
        break;
    case TARGET_STACK_STATE: {
        /* what is left to do with the code: add it, or nothing when --insert-into put it in the program */
        const char *then_code =
            !session_has_code(p) ? ", then add code for them to your program (run again with --preview-only to see it)"
            : o->insert_into     ? arena_sprintf(p->arena, "; %s declares them now", o->insert_into)
                                 : arena_sprintf(p->arena, ", then add %s to your program", code_where);
        fprintf(stderr, "cimport: read %zu of %zu resources (%s)%s%s; %s\n", p->n_ok, total, checked, fail, resumed,
                o->diff ? "the stack export was not changed (--diff writes nothing)"
                : wrote_ok && p->n_ok && p->stack_state_unchanged
                    ? (p->n_ok == 1 ? "it is in the stack export already: nothing to merge"
                                    : "all are in the stack export already: nothing to merge")
                : wrote_ok && p->n_ok ? "merged into the stack export"
                                      : "the stack export was not changed");
        if (stopped) break;
        if (o->diff && p->n_ok && p->changed && file_is_read_only(o->insert_into))
            fprintf(stderr, "next: review the diff above; %s\n", read_only_note(p, o->insert_into));
        else if (o->diff && p->n_ok)
            fprintf(stderr, "next: review the diff above, then run again without --diff to write %s and %s\n",
                    code_where, o->stack_state);
        else if (wrote_ok && p->n_ok && p->stack_state_created)
            /* a new document: it holds this run's resources only, so it suits no stack that has others */
            /* its URNs name the run's stack and project (outside a project: dev of "project"), and
             * `pulumi stack import` refuses a deployment of another stack */
            fprintf(stderr,
                    "next: `pulumi stack import --file %s` only into a new, empty stack %s of project %s (%s holds "
                    "nothing but these resources, under URNs of that stack and project, which `pulumi stack import` "
                    "takes into no other: pass --stack and --project for another; importing it replaces the stack's "
                    "state with it)%s\n",
                    o->stack_state, p->stack, p->project, o->stack_state, then_code);
        else if (wrote_ok && p->n_ok)
            fprintf(stderr,
                    "next: `pulumi stack import --file %s` (it replaces the stack's state with this file, so it must "
                    "come from `pulumi stack export` of that stack)%s\n",
                    o->stack_state, then_code);
        else
            fprintf(stderr, "next: fix what is reported above and run cimport again\n");
        break;
    }
    case TARGET_CODE_ONLY:
        fprintf(stderr, "cimport: read %zu of %zu resources (%s)%s%s; code only: nothing was imported\n", p->n_ok,
                total, checked, fail, resumed);
        if (stopped) break;
        if (p->n_ok)
            fprintf(stderr,
                    "next: these resources are in no stack and the code has no `import` option, so `pulumi up` with "
                    "it would try to CREATE them; import them first (run cimport without --code-only)\n");
        else
            fprintf(stderr, "next: fix what is reported above and run cimport again\n");
        break;
    case TARGET_PREVIEW: {
        /* the stack was read and merged: it may hold every resource already, and then stays as it is */
        bool in_stack = t->preview_stack && p->stack_store && p->n_ok && !p->stack_merged;
        fprintf(stderr, "cimport: read %zu of %zu resources (%s)%s%s%s\n", p->n_ok, total, checked, fail, resumed,
                !session_has_code(p) ? ""
                : o->import_option   ? "; the code shown imports them with the `import` resource option"
                : o->code_only       ? "; the code shown has no `import` option (--code-only)"
                : in_stack           ? arena_sprintf(p->arena,
                                                     "; stack %s at %s holds every one already, so a run without "
                                                               "--preview-only leaves it as it is and writes only the code shown",
                                                     o->stack, t->ws.backend_shown)
                                     : arena_sprintf(p->arena,
                                                     "; the code shown is the code written when they are imported "
                                                               "into stack %s at %s",
                                                     o->stack, t->ws.backend_shown));
        if (stopped) break;
        /* with nothing read, that run would fail the same way: nothing to write */
        fputs(p->n_ok ? "next: run again without --preview-only to write it\n"
                      : "next: fix what is reported above and run cimport again\n",
              stderr);
        break;
    }
    case TARGET_IMPORT_OPTION:
    default:
        if (p->n_ok == 0) {
            fprintf(stderr, "cimport: read 0 of %zu resources%s%s; nothing was imported\n", total, fail, resumed);
            if (!stopped) fprintf(stderr, "next: fix what is reported above and run cimport again\n");
            break;
        }
        if (!session_has_code(p)) {
            /* --generate-code=false (or no code could be generated), and no stack to write */
            fprintf(stderr, "cimport: read %zu of %zu resources (%s)%s%s; nothing was imported and no code written\n",
                    p->n_ok, total, checked, fail, resumed);
            if (t->why_not_stack && strcmp(t->why_not_stack, "--import-option") != 0)
                fprintf(stderr, "cimport: no stack written because %s\n", t->why_not_stack);
            if (stopped) break;
            fprintf(stderr, "next: %s\n",
                    o->generate_code ? "fix what is reported above and run cimport again"
                                     : "import into a stack cimport can write (see above), or run without "
                                       "--generate-code=false for code that imports them with the `import` option");
            break;
        }
        if (t->diff_of_stack) { /* the diff is of the code a run without --diff writes with the stack */
            fprintf(stderr, "cimport: read %zu of %zu resources (%s)%s%s; --diff: nothing was written\n", p->n_ok,
                    total, checked, fail, resumed);
            if (stopped) break;
            if (p->changed && file_is_read_only(o->insert_into))
                fprintf(stderr, "next: review the diff above; %s\n", read_only_note(p, o->insert_into));
            else if (p->changed)
                fprintf(
                    stderr,
                    "next: review the diff above, then run again without --diff to import them into %s and write %s\n",
                    t->diff_of_stack, code_where);
            else
                fprintf(stderr,
                        "next: %s already holds this code; --diff does not read the stack, so whether %s holds them "
                        "already is not checked: run again without --diff to import those it does not\n",
                        code_where, t->diff_of_stack);
            break;
        }
        fprintf(stderr,
                "cimport: read %zu of %zu resources (%s)%s%s; nothing was imported into a stack yet: the "
                "code imports them with the `import` resource option\n",
                p->n_ok, total, checked, fail, resumed);
        if (t->why_not_stack && strcmp(t->why_not_stack, "--import-option") != 0)
            fprintf(stderr, "cimport: no stack written because %s\n", t->why_not_stack);
        if (stopped) break;
        if (o->diff) { /* nothing was written: the file named is not (yet) what the diff shows */
            if (p->changed && file_is_read_only(o->insert_into))
                fprintf(stderr, "next: review the diff above; %s\n", read_only_note(p, o->insert_into));
            else if (p->changed)
                fprintf(stderr, "next: review the diff above, then run again without --diff to write %s\n", code_where);
            else if (p->n_diff_files)
                fprintf(stderr, "next: %s already holds this code; run again without --diff to write the files above\n",
                        code_where);
            else
                fprintf(stderr, "next: nothing to write: %s already holds this code\n", code_where);
            break;
        }
        if (p->n_ok == p->n_unchecked) { /* nothing to import: the spec named only components and providers */
            fprintf(stderr,
                    "next: %s declares only components and providers, which `pulumi up` creates: the import file names "
                    "no resource to import\n",
                    code_where);
            break;
        }
        if (n_rejected) fputs(rejected_next, stderr);
        if (n_residual) /* `pulumi up` refuses an import whose inputs do not match what it reads */
            fprintf(stderr,
                    "next: the inputs of %zu resource%s still differ from what the provider read (listed above): "
                    "`pulumi up` refuses to import a resource whose inputs do not match; review %s in %s %s, then "
                    "run `pulumi up`\n",
                    n_residual, n_residual == 1 ? "" : "s", residual_them, code_where, residual_advice(o, p));
        else if (n_rejected)
            ;                    /* said above */
        else if (o->insert_into) /* the code is in the program already */
            fprintf(stderr,
                    "next: run `pulumi up`: %s now declares %s with the `import` option, so it imports %s instead of "
                    "creating %s; then remove the `import` options\n",
                    o->insert_into, p->n_ok == 1 ? "the resource" : "the resources", p->n_ok == 1 ? "it" : "them",
                    p->n_ok == 1 ? "it" : "them");
        else
            fprintf(stderr,
                    "next: add %s to your program and run `pulumi up`: it imports %s instead of creating %s; then "
                    "remove the `import` options\n",
                    code_where, p->n_ok == 1 ? "the resource" : "the resources", p->n_ok == 1 ? "it" : "them");
        break;
    }
}

void target_finish(import_target_t *t) {
    if (t->from_state) tfstate_free(t->from_state);
    diag_list_free(&t->diags);
    arena_free(t->a);
    t->a = NULL;
}

/* import_cmd.c — the import command: import file → plan → engine → PCL → language code, with
 * progress and diagnostics on stderr, code on stdout or --out, and a results document for --json.
 *
 * Nothing is written when the input is bad; files are written atomically; secret values never reach
 * stdout or stderr unless the user asks with --json --show-secrets. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/convert.h"
#include "cli/project.h"
#include "importer/offline.h"
#include "specs/deployment.h"
#include "specs/fileio.h"
#include "specs/importfile.h"
#include "specs/schema.h"

static void print_diag(diag_list_t *owner, const diag_t *d) {
    fprintf(stderr, "%s: %s\n", diag_severity_name(d->severity), diag_format(owner, d));
}

static void print_diags(diag_list_t *l) {
    for (diag_t *d = l->head; d; d = d->next) print_diag(l, d);
}

typedef struct progress {
    bool tty;
    bool quiet;
    size_t failed;
} progress_t;

static void on_result(void *user, const import_result_t *r, size_t done, size_t total) {
    progress_t *p = user;
    if (r->status != IMPORT_OK) p->failed++;
    if (p->quiet) return;
    if (p->tty) {
        fprintf(stderr, "\r\033[K[%zu/%zu] %s %s%s", done, total, import_status_name(r->status), r->item->logical_name,
                done == total ? "\n" : "");
        fflush(stderr);
    }
}

/* Language: --language, else the runtime of Pulumi.yaml in the working directory, else PCL. */
static lang_t choose_language(const cli_options_t *o, const project_info_t *proj, bool have_proj) {
    if (o->language_set) return o->language;
    lang_t l;
    if (have_proj && proj->runtime && lang_from_runtime(proj->runtime, &l)) return l;
    return LANG_PCL;
}

static const char *plan_name_for_urn(const import_plan_t *plan, const char *urn) {
    for (size_t i = 0; i < plan->n_names; i++)
        if (strcmp(plan->names[i].urn, urn) == 0) return plan->names[i].name;
    return NULL;
}

static const char *ref_name(const import_plan_t *plan, int index, const char *urn) {
    if (index >= 0) return plan->items[index].variable;
    if (urn) {
        const char *n = plan_name_for_urn(plan, urn);
        if (n) return n;
    }
    return NULL;
}

static bool write_secrets(const cli_options_t *o, const pcl_gen_result_t *g, diag_list_t *diags) {
    if (g->n_secrets == 0) return true;
    if (mkdir(o->secrets_dir, 0700) != 0 && errno != EEXIST) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, o->secrets_dir, NULL, "cannot create the secrets directory: %s",
                 strerror(errno));
        return false;
    }
    chmod(o->secrets_dir, 0700);
    for (size_t i = 0; i < g->n_secrets; i++) {
        const pv_t *v = g->secrets[i].value;
        char *text;
        if (v->kind == PV_STRING) {
            text = strdup(v->u.str.s);
        } else {
            cJSON *j = pv_to_display_json(v, true);
            text = cJSON_PrintUnformatted(j);
            cJSON_Delete(j);
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", o->secrets_dir, g->secrets[i].config_key);
        bool ok = file_write_atomic(path, text, strlen(text), 0600, true, diags);
        free(text);
        if (!ok) return false;
    }
    return true;
}

static cJSON *results_json(const cli_options_t *o, const import_plan_t *plan, const import_result_t *results,
                           diag_list_t *global, const char *code, lang_t lang, const pcl_gen_result_t *g) {
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "version", 1);
    size_t ok = 0, failed = 0, skipped = 0, verified = 0;
    cJSON *arr = cJSON_AddArrayToObject(doc, "resources");
    for (size_t i = 0; i < plan->n_items; i++) {
        const import_result_t *r = &results[i];
        const import_plan_item_t *it = r->item;
        if (r->status == IMPORT_OK) ok++;
        if (r->status == IMPORT_FAILED) failed++;
        if (r->status == IMPORT_SKIPPED) skipped++;
        if (r->status == IMPORT_OK && r->verified) verified++;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", it->variable);
        cJSON_AddStringToObject(e, "logicalName", it->logical_name);
        cJSON_AddStringToObject(e, "type", it->type);
        if (r->id) cJSON_AddStringToObject(e, "id", r->id);
        cJSON_AddStringToObject(e, "urn", it->urn);
        cJSON_AddStringToObject(e, "status", r->status == IMPORT_OK ? "imported" : import_status_name(r->status));
        cJSON_AddBoolToObject(e, "verified", r->status == IMPORT_OK && r->verified);
        cJSON_AddNumberToObject(e, "rounds", r->rounds);
        cJSON *res = cJSON_AddArrayToObject(e, "residual");
        for (size_t k = 0; k < r->n_residual; k++) cJSON_AddItemToArray(res, cJSON_CreateString(r->residual[k]));
        cJSON *ign = cJSON_AddArrayToObject(e, "ignoreChanges");
        for (size_t k = 0; k < r->n_ignore_changes; k++)
            cJSON_AddItemToArray(ign, cJSON_CreateString(r->ignore_changes[k]));
        cJSON_AddItemToObject(e, "inputs", r->inputs ? pv_to_display_json(r->inputs, o->show_secrets)
                                                     : cJSON_CreateObject());
        cJSON *prov = cJSON_AddObjectToObject(e, "provenance");
        for (size_t k = 0; k < r->n_provenance; k++)
            cJSON_AddStringToObject(prov, r->provenance[k].path, provenance_name(r->provenance[k].provenance));
        cJSON *ds = cJSON_AddArrayToObject(e, "diagnostics");
        for (diag_t *d = r->diags.head; d; d = d->next) {
            cJSON *dj = cJSON_CreateObject();
            cJSON_AddStringToObject(dj, "severity", diag_severity_name(d->severity));
            cJSON_AddStringToObject(dj, "message", d->message);
            cJSON_AddItemToArray(ds, dj);
        }
        cJSON_AddItemToArray(arr, e);
    }
    cJSON *sum = cJSON_CreateObject();
    cJSON_AddNumberToObject(sum, "total", (double)plan->n_items);
    cJSON_AddNumberToObject(sum, "imported", (double)ok);
    cJSON_AddNumberToObject(sum, "failed", (double)failed);
    cJSON_AddNumberToObject(sum, "skipped", (double)skipped);
    cJSON_AddNumberToObject(sum, "verified", (double)verified);
    cJSON_AddItemToObject(doc, "summary", sum);
    cJSON *gd = cJSON_AddArrayToObject(doc, "diagnostics");
    for (diag_t *d = global->head; d; d = d->next) {
        cJSON *dj = cJSON_CreateObject();
        cJSON_AddStringToObject(dj, "severity", diag_severity_name(d->severity));
        cJSON_AddStringToObject(dj, "message", diag_format(global, d));
        cJSON_AddItemToArray(gd, dj);
    }
    cJSON_AddStringToObject(doc, "language", lang_name(lang));
    if (code) cJSON_AddStringToObject(doc, "code", code);
    if (g && g->n_secrets) {
        cJSON *s = cJSON_AddObjectToObject(doc, "secrets");
        cJSON_AddStringToObject(s, "dir", o->secrets_dir);
        cJSON *keys = cJSON_AddArrayToObject(s, "keys");
        for (size_t i = 0; i < g->n_secrets; i++) cJSON_AddItemToArray(keys, cJSON_CreateString(g->secrets[i].config_key));
    }
    return doc;
}

static bool load_offline_state(arena_t *a, const char *path, schema_set_t *schemas, deployment_t **out,
                               diag_list_t *diags) {
    size_t len;
    char *text = file_read_all(a, path, &len, diags);
    if (!text) return false;
    if (convert_is_terraform_state(text))
        *out = convert_tfstate_to_deployment(a, path, schemas, NULL, diags);
    else
        *out = deployment_parse(a, text, len, path, diags);
    return *out != NULL;
}

int cli_run_import(cli_options_t *o) {
    arena_t *a = arena_new();
    diag_list_t diags;
    diag_list_init(&diags);
    int rc = EXIT_USAGE;
    schema_set_t *schemas = schema_set_new();
    deployment_t *state = NULL;
    offline_source_t *src = NULL;
    provider_registry_t *reg = NULL;
    import_result_t *results = NULL;
    const import_plan_t *plan = NULL;
    pcl_gen_result_t gen = {0};
    char *code = NULL;
    progress_t prog = {.tty = isatty(2), .quiet = o->quiet || o->json};

    project_info_t proj;
    bool have_proj = project_read(a, ".", &proj);
    const char *stack = o->stack ? o->stack : "dev";
    const char *project = o->project ? o->project : (have_proj && proj.name ? proj.name : "project");
    lang_t lang = choose_language(o, &proj, have_proj);

    /* 1. Inputs: schemas, the import file, the plan — all validated before anything runs. */
    for (size_t i = 0; i < o->n_schemas; i++) schema_set_add_path(schemas, o->schemas[i], &diags);
    if (diag_has_errors(&diags)) goto done;

    import_file_t *file = o->spec_path ? import_file_load(a, o->spec_path, &diags)
                                       : import_file_inline(a, o->inline_type, o->inline_name, o->inline_id, o->parent,
                                                            o->provider, o->properties, &diags);
    if (!file) goto done;
    plan = import_plan_build(a, file, stack, project, o->protect, &diags);
    if (!plan) goto done;
    if (plan->n_items == 0) {
        diag_add(&diags, DIAG_ERROR, DIAG_INPUT, o->spec_path, NULL,
                 "the import file has no resources: add entries to its \"resources\" list");
        goto done;
    }

    /* 2. Providers: the offline snapshot when asked; real plugins otherwise. */
    if (o->offline_state) {
        if (!load_offline_state(a, o->offline_state, schemas, &state, &diags)) goto done;
        src = offline_source_new(state, schemas);
        reg = provider_registry_new(offline_provider_factory, src);
    } else {
        diag_add(&diags, DIAG_ERROR, DIAG_USAGE, NULL, NULL,
                 "reading resources from provider plugins is not available in this build: pass --offline-state "
                 "FILE with a `pulumi stack export`, checkpoint or Terraform state that holds the resources");
        goto done;
    }

    /* 3. Import. */
    engine_options_t eo;
    engine_options_default(&eo);
    eo.inputs = o->inputs;
    eo.max_rounds = o->max_rounds;
    eo.ignore_residual = o->ignore_residual;
    eo.on_result = on_result;
    eo.user = &prog;
    results = engine_run(a, plan, reg, schemas, &eo, &diags);
    if (!results) goto done;
    rc = EXIT_ALL_FAILED; /* from here on a failure is not the user's input */

    size_t n_ok = 0, n_verified = 0;
    for (size_t i = 0; i < plan->n_items; i++) {
        if (!o->json) print_diags(&results[i].diags);
        if (results[i].status == IMPORT_OK) {
            n_ok++;
            if (results[i].verified) n_verified++;
        }
    }

    /* 4. Code for every resource that imported. */
    if (o->generate_code && n_ok > 0) {
        pcl_gen_resource_t *gr = arena_alloc(a, plan->n_items * sizeof *gr);
        size_t n = 0;
        for (size_t i = 0; i < plan->n_items; i++) {
            const import_result_t *r = &results[i];
            const import_plan_item_t *it = r->item;
            if (r->status != IMPORT_OK) continue;
            pcl_gen_resource_t *g = &gr[n++];
            g->type = it->type;
            g->name = it->variable;
            g->logical_name = it->logical_name;
            g->urn = it->urn;
            g->id = r->id;
            g->inputs = r->inputs;
            g->outputs = r->state;
            g->parent = ref_name(plan, it->parent_index, it->parent_urn);
            g->provider = ref_name(plan, it->provider_index, it->provider_urn);
            g->version = it->spec ? it->spec->version : NULL;
            g->plugin_download_url = it->spec ? it->spec->plugin_download_url : NULL;
            g->protect = it->protect;
            g->component = it->is_component && !(it->spec && it->spec->remote);
            g->ignore_changes = r->ignore_changes;
            if (o->import_option && !it->is_component && !it->is_provider) g->import_id = r->id;
            g->n_ignore_changes = r->n_ignore_changes;
        }
        pcl_gen_options_t po;
        pcl_gen_options_default(&po);
        po.secrets = o->secrets;
        if (!pcl_generate(gr, n, schemas, &po, &gen, &diags) || !gen.program) goto done;
        code = lang == LANG_PCL ? pcl_print(gen.program) : emit_program(gen.program, lang, &diags);
        if (!code) goto done;
        if (!o->preview_only && !write_secrets(o, &gen, &diags)) goto done;
        if (o->out_path && !file_write_atomic(o->out_path, code, strlen(code), 0644, false, &diags)) goto done;
    }

    /* 5. Report. */
    if (o->json) {
        cJSON *doc = results_json(o, plan, results, &diags, code, lang, &gen);
        char *text = cJSON_Print(doc);
        fputs(text, stdout);
        fputc('\n', stdout);
        free(text);
        cJSON_Delete(doc);
    } else if (code && !o->out_path) {
        fputs(code, stdout);
    }
    if (o->preview_only && !o->quiet)
        fprintf(stderr, "cimport: preview only: nothing was written%s\n",
                gen.n_secrets ? " (secret values were not saved; run again without --preview-only)" : "");
    if (!o->json && gen.n_secrets > 0 && !o->preview_only) {
        fprintf(stderr,
                "note: %zu secret value%s moved out of the code into stack config; the values are in %s/ (readable "
                "only by you). Store them with:\n",
                gen.n_secrets, gen.n_secrets == 1 ? " was" : "s were", o->secrets_dir);
        for (size_t i = 0; i < gen.n_secrets; i++)
            fprintf(stderr, "  pulumi config set --secret %s < %s/%s\n", gen.secrets[i].config_key, o->secrets_dir,
                    gen.secrets[i].config_key);
    }
    size_t n_failed = plan->n_items - n_ok;
    if (!prog.quiet)
        fprintf(stderr, "cimport: imported %zu of %zu resources (%zu verified)%s%s\n", n_ok, plan->n_items, n_verified,
                n_failed ? ", failed: " : "", n_failed ? (n_ok ? "some" : "all") : "");
    rc = n_failed == 0 ? EXIT_ALL_OK : (n_ok == 0 ? EXIT_ALL_FAILED : EXIT_SOME_FAILED);

done:
    if (rc == EXIT_USAGE || diag_has_errors(&diags)) {
        if (!o->json) {
            print_diags(&diags);
        } else if (!results) {
            cJSON *doc = cJSON_CreateObject();
            cJSON *ds = cJSON_AddArrayToObject(doc, "diagnostics");
            for (diag_t *d = diags.head; d; d = d->next) {
                cJSON *dj = cJSON_CreateObject();
                cJSON_AddStringToObject(dj, "severity", diag_severity_name(d->severity));
                cJSON_AddStringToObject(dj, "message", diag_format(&diags, d));
                cJSON_AddItemToArray(ds, dj);
            }
            char *text = cJSON_Print(doc);
            puts(text);
            free(text);
            cJSON_Delete(doc);
        }
        if (rc == EXIT_ALL_OK) rc = EXIT_SOME_FAILED;
    } else if (!o->json) {
        print_diags(&diags); /* warnings */
    }
    free(code);
    if (gen.program) pcl_program_free(gen.program);
    if (results) engine_results_free(results, plan->n_items);
    provider_registry_free(reg);
    offline_source_free(src);
    deployment_free(state);
    schema_set_free(schemas);
    diag_list_free(&diags);
    arena_free(a);
    free(o->schemas);
    return rc;
}

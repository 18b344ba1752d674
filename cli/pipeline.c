/* pipeline.c — the import pipeline as one call (see pipeline.h). */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/convert.h"
#include "cli/pipeline.h"
#include "cli/project.h"
#include "cli/results_report.h"
#include "importer/offline.h"
#include "importer/tfmapper.h"
#include "importer/plugin_host.h"
#include "base/fileio.h"

static const char *plan_name_for_urn(const import_plan_t *plan, const char *urn) {
    for (size_t i = 0; i < plan->n_names; i++)
        if (strcmp(plan->names[i].urn, urn) == 0) return plan->names[i].name;
    return NULL;
}

/* The variable that declares a parent/provider: an item of this plan, else its nameTable name. */
static const char *ref_name(const import_plan_t *plan, int index, const char *urn) {
    if (index >= 0) return plan->items[index].variable;
    return urn ? plan_name_for_urn(plan, urn) : NULL;
}

/* A Terraform state as an offline snapshot: types and field names from the bridge metadata beside
 * the schemas, else from the installed plugins' mappings (asked as `cimport convert` asks them);
 * what is not converted goes to `report` (the import report lists it). */
static deployment_t *offline_tfstate(arena_t *a, const char *path, schema_set_t *schemas, convert_report_t *report,
                                     diag_list_t *diags) {
    tf_state_t *s = tfstate_load(a, path, diags);
    if (!s) return NULL;
    bridge_set_t *bridge = convert_bridge_beside_schemas(schemas, diags);
    tfmapper_options_t mo = {0};
    convert_provider_hint_t *hints;
    tfmapper_answer_t *ans;
    size_t nh, na;
    deployment_t *d = NULL;
    if (tfmapper_fill_bridge(a, &mo, false, s, bridge, &schemas, &hints, &nh, &ans, &na, NULL, diags)) {
        convert_options_t opts = {.bridge = bridge, .schemas = schemas, .hints = hints, .n_hints = nh};
        d = convert_tfstate_to_deployment_report(a, s, &opts, report, diags);
    }
    tfstate_free(s);
    bridge_set_free(bridge);
    return d;
}

static bool load_offline_state(pipeline_t *p, const char *path, deployment_t **out, diag_list_t *diags) {
    arena_t *a = p->arena;
    /* A stack export is indexed (resources parsed when read); anything else is read whole. */
    bool not_pulumi = false;
    *out = deployment_load_indexed(a, path, &not_pulumi, diags);
    if (*out || !not_pulumi) return *out != NULL;
    size_t len;
    char *text = file_read_all(a, path, &len, diags);
    if (!text) return false;
    p->offline_is_terraform = convert_is_terraform_state(text);
    if (p->offline_is_terraform)
        *out = offline_tfstate(a, path, p->schemas, &p->offline_report, diags);
    else
        *out = deployment_parse(a, text, len, path, diags);
    return *out != NULL;
}

/* Lean results (plain code output at scale): the engine frees each result once it is delivered, and
 * the pipeline keeps only what code generation and the CLI's messages use — the ID, the final inputs,
 * the state (references to other resources' outputs), ignoreChanges and the diagnostics. Read's
 * inputs and the provenance are not held for 100,000 resources. */
typedef struct keep_ctx {
    pipeline_t *p;
    const pipeline_hooks_t *hooks;
    import_result_t *kept;
} keep_ctx_t;

static void keep_result(void *user, const import_result_t *r, size_t done, size_t total) {
    keep_ctx_t *k = user;
    arena_t *a = k->p->arena;
    import_result_t *c = &k->kept[r->item - k->p->plan->items];
    c->id = r->id ? arena_strdup(a, r->id) : NULL;
    c->inputs = r->inputs ? pv_clone(a, r->inputs) : NULL;
    /* the whole state: generation refers to other resources' outputs (secrets, references) */
    c->state = r->state ? pv_clone(a, r->state) : NULL;
    if (r->n_ignore_changes) {
        c->ignore_changes = arena_alloc(a, r->n_ignore_changes * sizeof *c->ignore_changes);
        for (size_t i = 0; i < r->n_ignore_changes; i++) c->ignore_changes[i] = arena_strdup(a, r->ignore_changes[i]);
        c->n_ignore_changes = r->n_ignore_changes;
    }
    diag_list_init(&c->diags);
    for (diag_t *d = r->diags.head; d; d = d->next) {
        diag_t *n = diag_add(&c->diags, d->severity, d->code, d->file, d->resource, "%s", d->message);
        if (n) n->line = d->line;
    }
    if (k->hooks && k->hooks->on_result) k->hooks->on_result(k->hooks->user, r, done, total);
}

static void keep_tick(void *user, size_t done, size_t failed, size_t in_flight, size_t total) {
    keep_ctx_t *k = user;
    if (k->hooks && k->hooks->on_tick) k->hooks->on_tick(k->hooks->user, done, failed, in_flight, total);
}

/* Provider Log messages that the engine could not attribute to a resource in flight. */
static void on_provider_log(void *user, const char *pkg, const char *urn, const diag_t *d, bool status) {
    pipeline_t *p = user;
    if (status) return; /* ephemeral status lines are progress, not diagnostics */
    diag_add(&p->diags, d->severity, DIAG_PROVIDER_LOG, NULL, urn, "%s provider: %s", pkg, d->message);
}

/* Provider configuration: Pulumi.<stack>.yaml when the project has one, then --config. */
static bool load_provider_config(pipeline_t *p, const cli_options_t *o, pv_t *config) {
    const char *stack_file = o->config_file ? o->config_file : arena_sprintf(p->arena, "Pulumi.%s.yaml", p->stack);
    if (access(stack_file, R_OK) == 0 && !plugin_host_config_load_stack(p->arena, config, stack_file, &p->diags))
        return false;
    for (size_t i = 0; i < o->n_config; i++)
        if (!plugin_host_config_parse_arg(p->arena, config, o->config[i], &p->diags)) return false;
    return true;
}

void pipeline_names(arena_t *a, const cli_options_t *o, const char **stack, const char **project) {
    project_info_t proj;
    bool have_proj = !o->project && project_read(a, ".", &proj);
    *stack = o->stack ? o->stack : "dev";
    *project = o->project ? o->project : (have_proj && proj.name ? proj.name : "project");
}

/* Items sorted by (type, ID, provider), then by plan index: duplicates are neighbours. */
typedef struct dup_key {
    const import_plan_item_t *it;
    size_t index;
} dup_key_t;

static int cmp_same(const import_plan_item_t *x, const import_plan_item_t *y) {
    int c = strcmp(x->type, y->type);
    if (!c) c = strcmp(x->id, y->id);
    if (!c) c = (x->provider_urn != NULL) - (y->provider_urn != NULL);
    if (!c && x->provider_urn) c = strcmp(x->provider_urn, y->provider_urn);
    return c;
}

static int cmp_dup(const void *a, const void *b) {
    const dup_key_t *x = a, *y = b;
    int c = cmp_same(x->it, y->it);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int cmp_pair(const void *a, const void *b) {
    const size_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* An error for every pair of items with the same type, ID and provider (in plan order, the later
 * one first), by sorting instead of comparing every pair (100,000 items). */
static void report_duplicate_ids(const import_plan_t *plan, const char *path, diag_list_t *diags) {
    size_t n = 0;
    dup_key_t *idx = malloc((plan->n_items ? plan->n_items : 1) * sizeof *idx);
    if (!idx) abort();
    for (size_t i = 0; i < plan->n_items; i++) {
        const import_plan_item_t *x = &plan->items[i];
        if (!x->is_component && !x->is_provider && x->id) idx[n++] = (dup_key_t){x, i};
    }
    qsort(idx, n, sizeof *idx, cmp_dup);
    size_t *pairs = NULL, np = 0, cap = 0;
    for (size_t g = 0; g < n;) {
        size_t e = g + 1;
        while (e < n && cmp_same(idx[g].it, idx[e].it) == 0) e++;
        for (size_t a = g; a < e; a++)
            for (size_t b = g; b < a; b++) {
                if (np == cap) {
                    cap = cap ? cap * 2 : 16;
                    pairs = realloc(pairs, cap * 2 * sizeof *pairs);
                    if (!pairs) abort();
                }
                pairs[2 * np] = idx[a].index; /* the later item */
                pairs[2 * np + 1] = idx[b].index;
                np++;
            }
        g = e;
    }
    if (np) qsort(pairs, np, 2 * sizeof *pairs, cmp_pair);
    for (size_t k = 0; k < np; k++) {
        const import_plan_item_t *x = &plan->items[pairs[2 * k]], *y = &plan->items[pairs[2 * k + 1]];
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "the resource '%s' of type '%s' is imported twice, as '%s' and as '%s'; keep one of them", x->id,
                 x->type, y->logical_name, x->logical_name);
    }
    free(pairs);
    free(idx);
}

bool pipeline_run(pipeline_t *p, const cli_options_t *o, const import_file_t *file, const pipeline_hooks_t *hooks) {
    memset(p, 0, sizeof *p);
    p->arena = arena_new();
    diag_list_init(&p->diags);
    arena_t *a = p->arena;
    diag_list_t *diags = &p->diags;
    p->schemas = schema_set_new();

    /* Stack, project and language: flags, else Pulumi.yaml in the working directory. */
    project_info_t proj;
    bool have_proj = project_read(a, ".", &proj);
    pipeline_names(a, o, &p->stack, &p->project);
    p->lang = LANG_PCL;
    lang_t l;
    if (o->language_set)
        p->lang = o->language;
    else if (have_proj && proj.runtime && lang_from_runtime(proj.runtime, &l))
        p->lang = l;

    /* 1. Inputs: schemas, the import file, the plan — all validated before anything runs. */
    for (size_t i = 0; i < o->n_schemas; i++) schema_set_add_path(p->schemas, o->schemas[i], diags);
    if (diag_has_errors(diags)) return false;
    if (!file)
        file = o->spec_path ? import_file_load(a, o->spec_path, diags)
                            : import_file_inline(a, o->inline_type, o->inline_name, o->inline_id, o->parent,
                                                 o->provider, o->properties, diags);
    if (!file) return false;
    p->plan = import_plan_build(a, file, p->stack, p->project, o->protect, diags);
    if (!p->plan) return false;
    /* The same cloud resource under two names would be two Pulumi resources managing one object. */
    report_duplicate_ids(p->plan, file->path, diags);
    if (diag_has_errors(diags)) return false;
    if (p->plan->n_items == 0) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, file->path, NULL,
                 "the import file has no resources: add entries to its \"resources\" list");
        return false;
    }

    /* 2. Providers: the offline snapshot when asked; real plugins otherwise. */
    if (o->offline_state) {
        if (!load_offline_state(p, o->offline_state, &p->state, diags)) return false;
        p->offline = true;
        p->offline_source = offline_source_new(p->state, p->schemas);
        offline_source_set_plan(p->offline_source, p->plan);
        p->registry = provider_registry_new(offline_provider_factory, p->offline_source);
    } else {
        pv_t *config = pv_object(a);
        if (!load_provider_config(p, o, config)) return false;
        plugin_host_options_t ho;
        plugin_host_options_default(&ho);
        ho.project_dir = ".";
        ho.attach = o->attach;
        ho.n_attach = o->n_attach;
        ho.config = config;
        ho.stack = p->stack;
        ho.project = p->project;
        ho.log = on_provider_log;
        ho.log_user = p;
        if (o->timeout_ms > 0) ho.call_timeout_ms = o->timeout_ms;
        if (o->start_timeout_ms > 0) ho.port_timeout_ms = ho.start_timeout_ms = o->start_timeout_ms;
        p->plugin_host = plugin_host_new(&ho, diags);
        if (!p->plugin_host) return false;
        p->registry = provider_registry_new(plugin_host_factory, p->plugin_host);
    }
    if (o->resume) {
        p->resume = engine_resume_load(o->resume, diags);
        if (!p->resume) return false;
    }

    /* 3. Import. */
    engine_options_t eo;
    engine_options_default(&eo);
    eo.inputs = o->inputs;
    eo.max_rounds = o->max_rounds;
    eo.ignore_residual = o->ignore_residual;
    eo.parallel = o->parallel > 0 ? o->parallel : 16;
    eo.resume = p->resume;
    eo.stats = &p->stats;
    if (hooks) {
        eo.on_result = hooks->on_result;
        eo.on_tick = hooks->on_tick;
        eo.user = hooks->user;
        eo.stop = hooks->stop;
    }
    /* --json, --stack-state, --resume and --report use the whole results (Read's inputs, state,
     * provenance). */
    bool lean = hooks && hooks->lean_results && !o->json && !o->stack_state && !o->resume && !o->report_path;
    keep_ctx_t keep = {.p = p, .hooks = hooks};
    if (lean) {
        keep.kept = calloc(p->plan->n_items ? p->plan->n_items : 1, sizeof *keep.kept);
        if (!keep.kept) abort();
        eo.release_results = true;
        eo.on_result = keep_result;
        eo.on_tick = keep_tick;
        eo.user = &keep; /* both hooks pass the caller's user on */
    }
    p->results = engine_run(a, p->plan, p->registry, p->schemas, &eo, diags);
    if (lean) {
        for (size_t i = 0; p->results && i < p->plan->n_items; i++) {
            import_result_t *r = &p->results[i], *c = &keep.kept[i];
            r->id = c->id;
            r->inputs = c->inputs;
            r->state = c->state;
            r->ignore_changes = c->ignore_changes;
            r->n_ignore_changes = c->n_ignore_changes;
            diag_list_free(&r->diags);
            r->diags = c->diags;
        }
        if (!p->results)
            for (size_t i = 0; i < p->plan->n_items; i++) diag_list_free(&keep.kept[i].diags);
        free(keep.kept);
    }
    if (!p->results) return false;
    for (size_t i = 0; i < p->plan->n_items; i++) {
        if (p->results[i].status != IMPORT_OK) continue;
        p->n_ok++;
        /* Offline, Check and Diff are cimport's reading of the schema: consistent, not verified. */
        if (p->results[i].verified) {
            if (p->offline) p->n_consistent++;
            else p->n_verified++;
        }
    }

    /* 4. Code for every resource that imported. Packages whose schema came from their provider
     * (GetSchema) rather than --schema join the set the generator uses. */
    if (!o->generate_code || p->n_ok == 0) return true;
    const import_plan_t *plan = p->plan;
    for (size_t i = 0; i < plan->n_items; i++) {
        const import_plan_item_t *it = &plan->items[i];
        if (p->results[i].status != IMPORT_OK || it->is_component) continue;
        char *pkg = schema_token_package(a, it->type);
        if (schema_set_get(p->schemas, pkg)) continue;
        diag_list_t quiet;
        diag_list_init(&quiet);
        provider_t *prov = provider_registry_get(p->registry, pkg, it->spec ? it->spec->version : NULL,
                                                 it->spec ? it->spec->plugin_download_url : NULL, &quiet);
        schema_package_t *sp = prov && prov->ops->get_schema ? prov->ops->get_schema(prov, &quiet) : NULL;
        if (sp) schema_set_add_borrowed(p->schemas, sp);
        diag_list_free(&quiet);
    }
    pcl_gen_resource_t *gr = arena_alloc(a, plan->n_items * sizeof *gr);
    size_t n = 0;
    for (size_t i = 0; i < plan->n_items; i++) {
        const import_result_t *r = &p->results[i];
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
        g->n_ignore_changes = r->n_ignore_changes;
        if (o->import_option && !it->is_component && !it->is_provider) g->import_id = r->id;
    }
    pcl_gen_options_t po;
    pcl_gen_options_default(&po);
    po.secrets = o->secrets;
    po.external = o->external_refs;
    po.n_external = o->n_external_refs;
    po.reserved_names = o->reserved_names;
    po.n_reserved_names = o->n_reserved_names;
    if (!pcl_generate(gr, n, p->schemas, &po, &p->gen, diags) || !p->gen.program) return true;
    p->code = p->lang == LANG_PCL ? pcl_print(p->gen.program) : emit_program(p->gen.program, p->lang, diags);
    return true;
}

void pipeline_free(pipeline_t *p) {
    free(p->code);
    if (p->gen.program) pcl_program_free(p->gen.program);
    if (p->results) engine_results_free(p->results, p->plan->n_items);
    schema_set_free(p->schemas); /* before the providers: it may borrow their schemas */
    p->schemas = NULL;
    provider_registry_free(p->registry);
    plugin_host_free(p->plugin_host);
    engine_resume_free(p->resume);
    offline_source_free(p->offline_source);
    deployment_free(p->state);
    schema_set_free(p->schemas);
    diag_list_free(&p->diags);
    arena_free(p->arena);
    memset(p, 0, sizeof *p);
}

const char *pipeline_checked_text(const pipeline_t *p) {
    if (p->offline)
        return arena_sprintf(p->arena, "%zu consistent with the schema (offline), none verified by a provider",
                             p->n_consistent);
    return arena_sprintf(p->arena, "%zu verified", p->n_verified);
}

cJSON *pipeline_results_json(const pipeline_t *p, const cli_options_t *o) {
    const import_plan_t *plan = p->plan;
    const import_result_t *results = p->results;
    diag_list_t *global = (diag_list_t *)&p->diags;
    const char *code = p->code;
    lang_t lang = p->lang;
    const pcl_gen_result_t *g = &p->gen;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "version", 1);
    size_t ok = 0, failed = 0, skipped = 0, verified = 0, consistent = 0;
    cJSON *arr = cJSON_AddArrayToObject(doc, "resources");
    for (size_t i = 0; plan && results && i < plan->n_items; i++) {
        const import_result_t *r = &results[i];
        const import_plan_item_t *it = r->item;
        if (r->status == IMPORT_OK) ok++;
        if (r->status == IMPORT_FAILED) failed++;
        if (r->status == IMPORT_SKIPPED) skipped++;
        bool checked = r->status == IMPORT_OK && r->verified;
        if (checked && p->offline) consistent++;
        else if (checked) verified++;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", it->variable);
        cJSON_AddStringToObject(e, "logicalName", it->logical_name);
        cJSON_AddStringToObject(e, "type", it->type);
        if (r->id) cJSON_AddStringToObject(e, "id", r->id);
        cJSON_AddStringToObject(e, "urn", it->urn);
        cJSON_AddStringToObject(e, "status", r->status == IMPORT_OK ? "imported" : import_status_name(r->status));
        /* "verified" only when the provider's own Check and Diff said so; "verification" says who checked. */
        cJSON_AddBoolToObject(e, "verified", checked && !p->offline);
        cJSON_AddStringToObject(e, "verification", !checked ? "none" : p->offline ? "offline-schema" : "provider");
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
        /* "pcl", the resource's own PCL block: results_json_add_report_fields (one sorted lookup). */
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
    cJSON_AddNumberToObject(sum, "total", plan ? (double)plan->n_items : 0);
    cJSON_AddNumberToObject(sum, "imported", (double)ok);
    cJSON_AddNumberToObject(sum, "failed", (double)failed);
    cJSON_AddNumberToObject(sum, "skipped", (double)skipped);
    cJSON_AddNumberToObject(sum, "verified", (double)verified);
    cJSON_AddNumberToObject(sum, "consistentOffline", (double)consistent);
    cJSON_AddStringToObject(sum, "verification", p->offline ? "offline-schema" : "provider");
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
        if (o->secrets_stored_in) cJSON_AddStringToObject(s, "storedIn", o->secrets_stored_in);
        cJSON *keys = cJSON_AddArrayToObject(s, "keys");
        for (size_t i = 0; i < g->n_secrets; i++) cJSON_AddItemToArray(keys, cJSON_CreateString(g->secrets[i].config_key));
    }
    results_json_add_report_fields(doc, p, o); /* results_report.c */
    return doc;
}


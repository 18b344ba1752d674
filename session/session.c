/* session.c — one import session (see session.h). */
#include <ctype.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "session/session.h"

#include "base/fileio.h"
#include "base/vec.h"
#include "importer/offline.h"
#include "importer/plugin_host.h"
#include "importer/tfmapper.h"
#include "report/report.h"
#include "session/existing_refs.h"
#include "session/result_spill.h"
#include "session/results_json.h"
#include "specs/importid.h"
#include "specs/project.h"
#include "splice/review.h"

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
static deployment_t *offline_tfstate(arena_t *a, const char *text, size_t len, const char *path, schema_set_t *schemas,
                                     convert_report_t *report, diag_list_t *diags) {
    tf_state_t *s = tfstate_parse(a, text, len, path, diags);
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

/* A stack export is indexed (resources parsed when read) on a thread of its own while the session
 * reads the schemas, the import file and the plan (a 173 MB export: 0.3 s of CPU beside 0.4 s). */
typedef struct state_job {
    const char *path;
    arena_t *arena; /* the deployment's: the session's state_arena once taken */
    deployment_t *d;
    bool not_pulumi;
    diag_list_t diags;
    bool threaded, joined;
    pthread_t thread;
} state_job_t;

static void *state_job_run(void *arg) {
    state_job_t *j = arg;
    j->d = deployment_load_indexed(j->arena, j->path, &j->not_pulumi, &j->diags);
    return NULL;
}

static void state_job_start(state_job_t *j, const char *path) {
    *j = (state_job_t){.path = path, .arena = arena_new()};
    diag_list_init(&j->diags);
    /* Only a regular file is read ahead: opening a FIFO waits for its writer, which must not happen
     * for inputs refused before the state is wanted. Anything else is read when joined. */
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        j->threaded = pthread_create(&j->thread, NULL, state_job_run, j) == 0;
}

static void state_job_join(state_job_t *j) {
    if (j->joined) return;
    j->joined = true;
    if (j->threaded)
        pthread_join(j->thread, NULL);
    else
        state_job_run(j);
}

/* The job's result not wanted (the inputs were refused first): dropped with its messages. */
static void state_job_drop(state_job_t *j) {
    if (!j->arena) return;
    if (!j->threaded) j->joined = true; /* never started: nothing to wait for, nothing to read */
    state_job_join(j);
    deployment_free(j->d);
    diag_list_free(&j->diags);
    arena_free(j->arena);
    j->arena = NULL;
}

static bool load_offline_state(import_session_t *p, state_job_t *job, deployment_t **out, diag_list_t *diags) {
    arena_t *a = p->arena;
    const char *path = job->path;
    /* A pipe or FIFO can be read only once: read whole here, where a Terraform state is told from a
     * stack export, instead of by the stack-export reader (which would refuse a Terraform state). */
    struct stat st;
    bool once = !job->threaded && (stat(path, &st) != 0 || !S_ISREG(st.st_mode));
    if (once)
        job->joined = true;
    else
        state_job_join(job);
    diag_list_move(diags, &job->diags);
    p->state_arena = job->arena; /* freed with the session, after the deployment */
    job->arena = NULL;
    *out = job->d;
    if (!once && (*out || !job->not_pulumi)) return *out != NULL;
    /* Not a stack export, or not a regular file: read whole, once (the text only while parsing). */
    arena_t *text_arena = arena_new();
    size_t len;
    char *text = file_read_all(text_arena, path, &len, diags);
    if (text) {
        p->offline_is_terraform = convert_is_terraform_state(text);
        if (p->offline_is_terraform)
            *out = offline_tfstate(a, text, len, path, p->schemas, &p->offline_report, diags);
        else
            *out = deployment_parse(a, text, len, path, diags);
    }
    arena_free(text_arena);
    return *out != NULL;
}

/* Lean results (plain code output at scale): the engine frees each result once it is delivered, and
 * the session keeps only what code generation and the CLI's messages use — the ID, the final inputs,
 * the state (references to other resources' outputs), ignoreChanges, the residual paths and the
 * diagnostics. Read's
 * inputs and the provenance are not held for 100,000 resources, and what is held goes while the
 * program is generated: each resource's inputs once its code's inputs are (they are in an arena of
 * their own), every state once no resource's inputs are left to generate (pcl_gen_options_t's
 * release_inputs and release_outputs) — not all of it beside the whole program. */
typedef struct run_ctx {
    import_session_t *p;
    bool lean;
    /* lean results: what is kept of the result just delivered, put back into the engine's array once
     * the engine has freed the rest (on_released) */
    import_result_t kept;
    arena_t *values;  /* lean results: their states, freed once generation reads none */
    arena_t **inputs; /* lean results: each plan item's inputs in an arena of its size, or NULL */
    /* lean results of a run whose code is only written (session_streams): the inputs set aside in a
     * file instead (result_spill.h), read back one at a time by generation (load_inputs) */
    result_spill_t *spill;
    bool spill_failed; /* a record could not be read back: the run is refused */
    /* lean results: whether each item's state holds its import ID as a secret, asked of the whole state
     * (the kept one holds a long secret by its digest; fail_import_option_unimportable) */
    bool *secret_import_id;
    /* lean results: the inputs of each item its importer does not rebuild (importid_not_rebuilt), asked
     * when it is delivered: spilled, its inputs are not at hand when fail_import_option_unimportable asks */
    const char **not_rebuilt;
    /* during generation (lean): the resources generated and the plan item of each */
    pcl_gen_resource_t *gen;
    size_t *gen_item, n_gen;
    bool print_refused; /* a node of the streamed program was refused (check_printed_node) */
} run_ctx_t;

/* A copy of v in an arena of its own that holds just it (the copy made twice: once to size it). */
static pv_t *clone_alone(const pv_t *v, arena_t **own) {
    arena_t *sizing = arena_new();
    pv_clone(sizing, v);
    size_t size = arena_used(sizing);
    arena_free(sizing);
    *own = arena_new_sized(size);
    return pv_clone(*own, v);
}

static bool secret_holds(const pv_t *v, const char *s, bool secret, bool whole);
static const char *import_id_of(const import_result_t *r);

static void keep_result(run_ctx_t *k, const import_result_t *r) {
    arena_t *a = k->p->arena;
    size_t item = (size_t)(r->item - k->p->plan->items);
    import_result_t *c = &k->kept;
    *c = (import_result_t){0};
    /* the ID Read returned is mostly the import ID, which the plan holds already */
    const char *plan_id = r->item->id;
    c->id = !r->id ? NULL : plan_id && strcmp(r->id, plan_id) == 0 ? plan_id : arena_strdup(a, r->id);
    /* of the state, what generation reads: other resources' outputs it refers to (secrets, names) */
    if (k->spill) {
        result_spill_put(k->spill, RESULT_SPILL_INPUTS, item, r->inputs);
        arena_t *scratch = arena_new();
        result_spill_put(k->spill, RESULT_SPILL_OUTPUTS, item, pcl_gen_outputs_needed(scratch, r->state));
        arena_free(scratch);
    } else {
        c->inputs = r->inputs ? clone_alone(r->inputs, &k->inputs[item]) : NULL;
        c->state = pcl_gen_outputs_needed(k->values, r->state);
    }
    const char *import_id = import_id_of(r);
    /* asked of the inputs now too: spilled, they are not at hand when fail_import_option_unimportable asks */
    k->secret_import_id[item] = import_id && (secret_holds(r->state, import_id, false, false) ||
                                              secret_holds(r->inputs, import_id, false, false));
    k->not_rebuilt[item] = importid_not_rebuilt(a, r->item->type, r->inputs);
    if (r->n_ignore_changes) {
        c->ignore_changes = arena_alloc(a, r->n_ignore_changes * sizeof *c->ignore_changes);
        for (size_t i = 0; i < r->n_ignore_changes; i++)
            c->ignore_changes[i] = arena_strdup(a, r->ignore_changes[i]);
        c->n_ignore_changes = r->n_ignore_changes;
    }
    if (r->n_residual) { /* the CLI's next step does not promise what a residual diff contradicts */
        c->residual = arena_alloc(a, r->n_residual * sizeof *c->residual);
        for (size_t i = 0; i < r->n_residual; i++)
            c->residual[i] = arena_strdup(a, r->residual[i]);
    }
    c->n_residual = r->n_residual;
    c->residual_unnamed = r->residual_unnamed;
    c->check_rejected = r->check_rejected;
    diag_list_init(&c->diags);
    for (diag_t *d = r->diags.head; d; d = d->next) {
        diag_t *n = diag_add(&c->diags, d->severity, d->code, d->file, d->resource, "%s", d->message);
        if (n) n->line = d->line;
    }
}

static void emit(const import_session_t *p, const session_event_t *ev) {
    if (p->opts->on_event) p->opts->on_event(p->opts->user, ev);
}

/* Whether an ID of a result is a secret value: the import ID of a type the provider imports by its
 * secret value (known even when the Read failed), or a value the state or inputs hold as a secret. */
static bool id_is_secret(const import_result_t *r, const char *id) {
    if (!id || !*id) return false;
    const import_plan_item_t *it = r->item;
    if (it->id && strcmp(id, it->id) == 0 && convert_secret_id_attr(it->type)) return true;
    return secret_holds(r->state, id, false, true) || secret_holds(r->inputs, id, false, true);
}

/* Notes a result's secret IDs and takes them out of its messages, before anything shows them. */
static void note_secret_ids(import_session_t *p, const import_result_t *r) {
    const char *ids[2] = {r->item->id, r->id};
    for (int i = 0; i < 2; i++)
        if (id_is_secret(r, ids[i]) && !hashmap_find_str(&p->secret_ids, ids[i]))
            hashmap_add_str(&p->secret_ids, arena_strdup(p->arena, ids[i]), NULL);
    /* any result's messages may name a secret ID (another resource's import ID holding it) */
    if (hashmap_count(&p->secret_ids)) session_scrub_diags(p, (diag_list_t *)&r->diags);
}

/* The engine's hooks: keep what lean results keep, then tell the front end. */
static void on_result(void *user, const import_result_t *r, size_t done, size_t total) {
    run_ctx_t *k = user;
    note_secret_ids(k->p, r);
    if (k->lean) keep_result(k, r);
    emit(k->p, &(session_event_t){.kind = SESSION_EVENT_RESULT, .result = r, .done = done, .total = total});
}

/* The engine freed the result's values: what lean results keep of it goes back in. */
static void on_released(void *user, import_result_t *r) {
    run_ctx_t *k = user;
    import_result_t *c = &k->kept;
    r->id = c->id;
    r->inputs = c->inputs;
    r->state = c->state;
    r->ignore_changes = c->ignore_changes;
    r->n_ignore_changes = c->n_ignore_changes;
    r->residual = c->residual;
    r->n_residual = c->n_residual;
    r->residual_unnamed = c->residual_unnamed;
    r->check_rejected = c->check_rejected;
    diag_list_free(&r->diags);
    r->diags = c->diags;
    *c = (import_result_t){0};
}

static void on_tick(void *user, size_t done, size_t failed, size_t in_flight, size_t total) {
    run_ctx_t *k = user;
    emit(k->p, &(session_event_t){
                   .kind = SESSION_EVENT_TICK, .done = done, .failed = failed, .in_flight = in_flight, .total = total});
}

/* Provider Log messages that the engine could not attribute to a resource in flight. */
static void on_provider_log(void *user, const char *pkg, const char *urn, const diag_t *d, bool status) {
    import_session_t *p = user;
    if (status) return; /* ephemeral status lines are progress, not diagnostics */
    diag_add(&p->diags, d->severity, DIAG_PROVIDER_LOG, NULL, urn, "%s provider: %s", pkg, d->message);
}

/* The stack's provider configuration (p->stack_config, and into config for the plugins): Pulumi.yaml's
 * `config:` block, then Pulumi.<stack>.yaml's over it, as Pulumi merges them. With no stack named or
 * selected (p->stack is then "dev" for the URNs) there is no stack configuration: Pulumi.dev.yaml is
 * some stack's that this run is not of (read18 F11). */
static bool load_stack_config(import_session_t *p, const session_options_t *o, pv_t *config) {
    p->stack_config = pv_object(p->arena);
    const char *project_file = o->project_file ? o->project_file : "Pulumi.yaml";
    if (!plugin_host_config_load_project(p->arena, config, p->stack_config, project_file, p->project, &p->diags))
        return false;
    if (!o->config_file && !o->stack && !o->stack_state) return true;
    const char *stack_file = o->config_file ? o->config_file : arena_sprintf(p->arena, "Pulumi.%s.yaml", p->stack);
    return access(stack_file, R_OK) != 0 || plugin_host_config_load_stack(p->arena, config, p->stack_config, stack_file,
                                                                          p->project, p->secrets.keyring, &p->diags);
}

/* Of the stack's configuration, `pulumi:disable-default-providers` alone (into p->stack_config), for an
 * offline run that writes code and starts no plugin: Pulumi.yaml's, then the named stack's file's over it.
 * The rest is not read: its `secure:` values would want a passphrase the run has no use for. */
static bool load_disabled_defaults(import_session_t *p, const session_options_t *o) {
    p->stack_config = pv_object(p->arena);
    pv_t *scratch = pv_object(p->arena), *project_values = pv_object(p->arena);
    const char *project_file = o->project_file ? o->project_file : "Pulumi.yaml";
    if (!plugin_host_config_load_project(p->arena, scratch, project_values, project_file, p->project, &p->diags))
        return false;
    const pv_t *pc = pv_object_get(project_values, "pulumi");
    const pv_t *v = pc && pc->kind == PV_OBJECT ? pv_object_get(pc, "disable-default-providers") : NULL;
    const char *stack_file = o->config_file ? o->config_file
                             : o->stack     ? arena_sprintf(p->arena, "Pulumi.%s.yaml", p->stack)
                                            : NULL;
    if (stack_file && access(stack_file, R_OK) == 0) {
        pv_t *doc = plugin_yaml_load(p->arena, stack_file, true, NULL, &p->diags);
        if (!doc) return false;
        const pv_t *cfg = doc->kind == PV_OBJECT ? pv_object_get(doc, "config") : NULL;
        const pv_t *sv = cfg && cfg->kind == PV_OBJECT ? pv_object_get(cfg, "pulumi:disable-default-providers") : NULL;
        if (sv) v = sv;
    }
    if (!v) return true;
    pv_t *pulumi = pv_object(p->arena);
    pv_object_set(p->arena, pulumi, "disable-default-providers", pv_clone(p->arena, v));
    pv_object_set(p->arena, p->stack_config, "pulumi", pulumi);
    return true;
}

/* The package of a plan item that takes its package's default provider (a custom resource or a remote
 * component without an explicit provider), else NULL. */
static const char *default_provider_package(arena_t *a, const import_plan_item_t *it) {
    if (it->provider_urn || it->is_provider || (it->is_component && !(it->spec && it->spec->remote))) return NULL;
    const char *colon = strchr(it->type, ':');
    return colon ? arena_strndup(a, it->type, (size_t)(colon - it->type)) : NULL;
}

static bool plan_uses_default_provider(import_session_t *p, const char *pkg) {
    for (size_t i = 0; i < p->plan->n_items; i++) {
        const char *ip = default_provider_package(p->arena, &p->plan->items[i]);
        if (ip && strcmp(ip, pkg) == 0) return true;
    }
    return false;
}

/* The explicit providers ('a', 'b') the plan reads package pkg's resources through, when it has
 * resources of pkg and none takes the default provider; else NULL. */
static const char *explicit_providers_only(import_session_t *p, const char *pkg) {
    if (plan_uses_default_provider(p, pkg)) return NULL;
    buf_t names;
    buf_init(&names);
    size_t n = 0;
    for (size_t i = 0; i < p->plan->n_items; i++) {
        const import_plan_item_t *it = &p->plan->items[i];
        const char *colon = strchr(it->type, ':');
        if (!it->provider_urn || it->is_provider || !colon || strlen(pkg) != (size_t)(colon - it->type) ||
            strncmp(it->type, pkg, strlen(pkg)) != 0)
            continue;
        const char *name = strrchr(it->provider_urn, ':');
        name = name ? name + 1 : it->provider_urn;
        char *quoted = arena_sprintf(p->arena, "'%s'", name);
        if (names.data && strstr(names.data, quoted)) continue;
        buf_printf(&names, "%s%s", n++ ? ", " : "", quoted);
    }
    const char *r = n ? arena_strdup(p->arena, names.data) : NULL;
    buf_free(&names);
    return r;
}

/* --config values with no effect, or another effect than the user's program would have, refused:
 * - for a package whose every resource is read through an explicit provider, configured with its inputs
 *   from the import file (or the stack), not the package's configuration;
 * - for a package whose resources take the default provider, other than the stack's configuration, where
 *   the resources go into a stack (or its export, or code with the `import` option): they would be read
 *   with it, while the program's default provider is configured from the stack's configuration (Pulumi's
 *   GetPackageConfig), which reads and manages them elsewhere. */
static bool check_config_args(import_session_t *p, const session_options_t *o) {
    bool ok = true;
    for (size_t i = 0; i < o->n_config; i++) {
        const char *text = o->config[i], *colon = strchr(text, ':'), *eq = strchr(text, '=');
        if (!colon || !eq || eq < colon) continue; /* refused by plugin_host_config_parse_arg */
        char *pkg = arena_strndup(p->arena, text, (size_t)(colon - text));
        char *key = arena_strndup(p->arena, colon + 1, (size_t)(eq - colon - 1));
        if (strcmp(pkg, "pulumi") == 0) { /* pulumi:disable-default-providers and the like */
            diag_add(&p->diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                     "pulumi:%s is a setting of Pulumi's, not a provider's configuration, which is all --config "
                     "gives: set it in the stack (`pulumi config set --path 'pulumi:%s[0]' VALUE` for a list) and "
                     "run again without it",
                     key, key);
            ok = false;
            continue;
        }
        const char *explicit = explicit_providers_only(p, pkg);
        if (!explicit && !plan_uses_default_provider(p, pkg)) {
            diag_add(&p->diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                     "the provider configuration %s:%s given for this run has no effect: the import reads no %s "
                     "resource; check the package's name (the part of a resource type before its first ':'), or "
                     "run again without it",
                     pkg, key, pkg);
            ok = false;
            continue;
        }
        if (explicit) {
            diag_add(&p->diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                     "the provider configuration %s:%s given for this run has no effect: every %s resource of the "
                     "import is read through an explicit provider (%s), which is configured with its own inputs, not "
                     "the package's configuration; give %s in that provider's `inputs` in the import file, and run "
                     "again without it",
                     pkg, key, pkg, explicit, key);
            ok = false;
            continue;
        }
        if (!o->into_stack && !o->stack_state && !o->import_option) continue;
        if (!plan_uses_default_provider(p, pkg)) continue;
        const pv_t *pc = pv_object_get(p->stack_config, pkg);
        const pv_t *given = pc && pc->kind == PV_OBJECT ? pv_object_get(pc, key) : NULL;
        const pv_t *sv = pv_unwrap(given);
        if (sv && sv->kind == PV_STRING && strcmp(sv->u.str.s, eq + 1) == 0) continue;
        /* the value given is not repeated (it may be a secret); the stack's only when it is not one */
        bool secret = given && given->kind == PV_SECRET;
        const char *stack_has =
            !sv      ? arena_sprintf(p->arena, "which does not set %s:%s", pkg, key)
            : secret ? arena_sprintf(p->arena, "which sets %s:%s as a secret", pkg, key)
                     : arena_sprintf(p->arena, "%s:%s is '%s'", pkg, key, sv->kind == PV_STRING ? sv->u.str.s : "");
        diag_add(&p->diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                 "the provider configuration %s:%s given for this run differs from the stack's configuration (%s): "
                 "the %s resources would be read with it, but the program's default %s provider is configured from "
                 "the stack's configuration, which reads and manages them with another; set it in the stack "
                 "(`pulumi config set %s%s:%s VALUE`) and run again without it, or give the resources an explicit "
                 "provider with those inputs in the import file",
                 pkg, key, stack_has, pkg, pkg, secret ? "--secret " : "", pkg, key);
        ok = false;
    }
    return ok;
}

/* `pulumi:disable-default-providers` (a list of packages, "*" for all, kept by Pulumi as its JSON text):
 * Pulumi refuses a resource that would take a disabled package's default provider, so cimport does not
 * import one. */
static bool check_default_providers(import_session_t *p) {
    const pv_t *pc = pv_object_get(p->stack_config, "pulumi");
    const pv_t *v = pc && pc->kind == PV_OBJECT ? pv_unwrap(pv_object_get(pc, "disable-default-providers")) : NULL;
    if (!v || v->kind == PV_NULL || (v->kind == PV_STRING && !*v->u.str.s)) return true;
    /* the text Pulumi keeps, or the list as a stack file holds it (load_disabled_defaults) */
    cJSON *list = v->kind == PV_STRING ? cJSON_Parse(v->u.str.s) : pv_to_state_json(v);
    bool ok = cJSON_IsArray(list);
    const cJSON *e;
    cJSON_ArrayForEach(e, list) ok = ok && cJSON_IsString(e);
    if (!ok) {
        diag_add(&p->diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                 "the stack's pulumi:disable-default-providers is not a list of package names (or \"*\"), which "
                 "Pulumi refuses: write it as a list, e.g. [\"aws\"]");
        cJSON_Delete(list);
        return false;
    }
    for (size_t i = 0; i < p->plan->n_items; i++) {
        const import_plan_item_t *it = &p->plan->items[i];
        const char *pkg = default_provider_package(p->arena, it);
        if (!pkg || strcmp(pkg, "pulumi") == 0) continue; /* Pulumi's own provider is never disabled */
        const char *barred = NULL;
        cJSON_ArrayForEach(e, list) {
            char *name = arena_strdup(p->arena, e->valuestring);
            while (*name == ' ' || *name == '\t' || *name == '\n')
                name++;
            size_t len = strlen(name);
            while (len && (name[len - 1] == ' ' || name[len - 1] == '\t' || name[len - 1] == '\n'))
                name[--len] = 0;
            if (strcmp(name, "*") == 0 || strcmp(name, pkg) == 0) barred = strcmp(name, "*") == 0 ? "\"*\"" : pkg;
        }
        if (!barred) continue;
        diag_add(&p->diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                 "resource '%s' of type '%s' would use the default %s provider, which the stack disables "
                 "(pulumi:disable-default-providers lists %s), so Pulumi refuses it: give it an explicit provider in "
                 "the import file (a resource of type pulumi:providers:%s with its inputs, named by the resource's "
                 "`provider`)",
                 it->spec && it->spec->name ? it->spec->name : it->logical_name, it->type, pkg, barred, pkg);
        ok = false;
    }
    cJSON_Delete(list);
    return ok;
}

/* Provider configuration: the stack's (load_stack_config), then --config for the plugins. */
static bool load_provider_config(import_session_t *p, const session_options_t *o, pv_t *config) {
    if (!load_stack_config(p, o, config)) return false;
    for (size_t i = 0; i < o->n_config; i++)
        if (!plugin_host_config_parse_arg(p->arena, config, o->config[i], &p->diags)) return false;
    bool args_ok = check_config_args(p, o);
    return check_default_providers(p) && args_ok;
}

void session_options_default(session_options_t *o) {
    memset(o, 0, sizeof *o);
    o->protect = true;
    o->generate_code = true;
    o->inputs = INPUTS_MINIMAL;
    o->max_rounds = 3;
    o->secrets = PCL_SECRETS_CONFIG;
    o->lock_wait_ms = 10000;
}

/* Stack, project and language: the options, else Pulumi.yaml in the working directory. */
void session_init(import_session_t *p, const session_options_t *o) {
    memset(p, 0, sizeof *p);
    p->opts = o;
    p->arena = arena_new();
    diag_list_init(&p->diags);
    diag_list_init(&p->refs_diags);
    p->schemas = schema_set_new();
    project_info_t proj;
    /* A Pulumi.yaml that cannot be read within the input caps is an error, reported by session_prepare. */
    bool have_proj = project_read(p->arena, ".", &proj, &p->diags);
    p->stack = o->stack ? o->stack : "dev";
    p->project = o->project ? o->project : (have_proj && proj.name ? proj.name : "project");
    p->lang = LANG_PCL;
    lang_t l;
    if (o->language_set)
        p->lang = o->language;
    else if (have_proj && proj.runtime && lang_from_runtime(proj.runtime, &l))
        p->lang = l;
}

bool session_has_code(const import_session_t *p) {
    return p->code || p->code_spool;
}

bool session_prepare(import_session_t *p, diag_list_t *diags) {
    if (diag_has_errors(&p->diags)) {
        diag_list_move(diags, &p->diags);
        return false;
    }
    if (!session_stack_open(p, diags)) return false;
    /* p->stack is "dev" when none is named (the URNs need one); a stack config needs a named stack */
    const char *named = p->opts->stack || p->opts->stack_state ? p->stack : NULL;
    p->secrets_ready = outputs_secrets_setup(&p->secrets, p->opts, named, p->project, diags);
    return p->secrets_ready;
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
 * one first), by sorting instead of comparing every pair (100,000 items). Types whose ID is no
 * identity (two RandomIntegers of one result) are two resources whatever their IDs. */
static void report_duplicate_ids(const import_plan_t *plan, const char *path, diag_list_t *diags) {
    size_t n = 0;
    dup_key_t *idx = malloc((plan->n_items ? plan->n_items : 1) * sizeof *idx);
    if (!idx) abort();
    for (size_t i = 0; i < plan->n_items; i++) {
        const import_plan_item_t *x = &plan->items[i];
        if (!x->is_component && !x->is_provider && x->id && !importid_id_is_no_identity(x->type))
            idx[n++] = (dup_key_t){x, i};
    }
    qsort(idx, n, sizeof *idx, cmp_dup);
    size_t *pairs = NULL, np = 0, cap = 0;
    for (size_t g = 0; g < n;) {
        size_t e = g + 1;
        while (e < n && cmp_same(idx[g].it, idx[e].it) == 0)
            e++;
        for (size_t a = g; a < e; a++)
            for (size_t b = g; b < a; b++) {
                pairs = vec_grow(pairs, &cap, np + 1, 2 * sizeof *pairs); /* a pair of plan indexes each */
                pairs[2 * np] = idx[a].index;                             /* the later item */
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

/* With insert_into and stack_state: the resources both already have become references. */
static void collect_existing_refs(import_session_t *p, pcl_gen_options_t *po) {
    const session_options_t *o = p->opts;
    if (!o->insert_into || !o->stack_state || access(o->insert_into, R_OK) != 0) return;
    size_t len;
    char *t = file_read_all(p->arena, o->insert_into, &len, &p->refs_diags);
    if (!t) return;
    pcl_external_ref_t *refs = NULL;
    po->n_external = existing_refs_collect(p->arena, o->stack_state, t, len, o->language, &refs, &p->refs_diags);
    po->external = refs;
}

static bool generate(import_session_t *p, pcl_gen_options_t *po, run_ctx_t *run);
static void run_free(run_ctx_t *run);

/* The import IDs of the file's types that the provider imports by a secret value: noted before the
 * plan's checks, whose messages name a resource by its ID, run (results note the rest as they arrive). */
static void note_file_secret_ids(import_session_t *p, const import_file_t *file) {
    for (size_t i = 0; i < file->n_specs; i++) {
        const import_spec_t *s = &file->specs[i];
        if (s->id && *s->id && s->type && convert_secret_id_attr(s->type) && !hashmap_find_str(&p->secret_ids, s->id))
            hashmap_add_str(&p->secret_ids, arena_strdup(p->arena, s->id), NULL);
    }
}

static bool plan_inputs(import_session_t *p, const import_file_t *file);

/* 1. Inputs: schemas, the import file, the plan — all validated before anything runs. */
static bool read_inputs(import_session_t *p, const import_file_t *file) {
    const session_options_t *o = p->opts;
    arena_t *a = p->arena;
    diag_list_t *diags = &p->diags;
    for (size_t i = 0; i < o->n_schemas; i++)
        schema_set_add_path(p->schemas, o->schemas[i], diags);
    if (diag_has_errors(diags)) return false;
    if (!file)
        file = o->spec_path ? import_file_load(a, o->spec_path, diags)
                            : import_file_inline(a, o->inline_type, o->inline_name, o->inline_id, o->parent,
                                                 o->provider, o->properties, diags);
    if (!file) return false;
    note_file_secret_ids(p, file);
    bool ok = plan_inputs(p, file);
    session_scrub_diags(p, diags); /* the plan's messages name IDs */
    return ok;
}

/* The plan and its checks. */
static bool plan_inputs(import_session_t *p, const import_file_t *file) {
    const session_options_t *o = p->opts;
    arena_t *a = p->arena;
    diag_list_t *diags = &p->diags;
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
    return true;
}

/* The offline snapshot once every Read is done: the providers over it, the source and the stack export
 * or Terraform state it serves (their strings are in its arena; the report of what a Terraform state's
 * conversion left out is in the session's). */
static void release_offline_state(import_session_t *p) {
    provider_registry_free(p->registry);
    p->registry = NULL;
    offline_source_free(p->offline_source);
    p->offline_source = NULL;
    deployment_free(p->state);
    p->state = NULL;
    arena_free(p->state_arena);
    p->state_arena = NULL;
    malloc_trim(0);
}

/* Whether the run's code is only written, as a whole file (out_path; no splice, diff or preview): then
 * PCL is printed as it is generated, and lean results' inputs are set aside in a file meanwhile. */
static bool session_streams(const import_session_t *p) {
    const session_options_t *o = p->opts;
    return o->stream_code && o->generate_code && o->out_path && !o->insert_into && !o->program_text && !o->diff &&
           !o->preview_only && p->lang == LANG_PCL;
}

/* The text of the stack the run goes into (its backend's, or the --stack-state export's), or NULL when
 * there is none (yet); *where names it. One that cannot be read is the merge's to report. */
static const char *stack_text(import_session_t *p, size_t *len, const char **where) {
    const session_options_t *o = p->opts;
    *len = 0;
    *where = NULL;
    if (p->stack_store) {
        *where = stack_store_location(p->stack_store);
        return stack_store_text(p->stack_store, len);
    }
    if (!o->stack_state || access(o->stack_state, F_OK) != 0) return NULL;
    diag_list_t quiet;
    diag_list_init(&quiet);
    const char *text = file_read_all(p->arena, o->stack_state, len, &quiet);
    diag_list_free(&quiet);
    *where = o->stack_state;
    return text;
}

/* The configuration the plugins are given: config with a value the stack's configuration holds as a
 * secret (`secure:`) marked one, as Pulumi's GetPackageConfig gives it to a default provider (which then
 * reaches Configure's args in the secret signature). */
static pv_t *plugin_config(import_session_t *p, const pv_t *config) {
    pv_t *out = pv_clone(p->arena, config);
    for (size_t i = 0; out->kind == PV_OBJECT && i < out->u.obj.len; i++) {
        pv_t *pc = out->u.obj.members[i].value;
        const pv_t *sc = p->stack_config ? pv_object_get(p->stack_config, out->u.obj.members[i].key) : NULL;
        for (size_t k = 0; sc && pc->kind == PV_OBJECT && k < pc->u.obj.len; k++) {
            const pv_t *given = pv_object_get(sc, pc->u.obj.members[k].key);
            pv_t *v = pc->u.obj.members[k].value;
            if (given && given->kind == PV_SECRET && pv_equal(pv_unwrap(given), v))
                pc->u.obj.members[k].value = pv_secret(p->arena, v);
        }
    }
    return out;
}

/* The inputs the stack (or --stack-state's export) records for the providers the run configures, as
 * {urn: inputs} with secrets read, from one parse of it: the explicit providers the import file names by
 * URN only (nameTable) in *known — a resource under one is read through it configured so, as Pulumi reads
 * it through the stack's provider (one whose secrets cannot be read is said) — and, in *recorded, those and
 * each package's default provider of the plan's versions and each explicit provider: CheckConfig's olds,
 * as the engine sends a provider's old inputs. NULL: none of them, or no stack to look in. */
static void stack_providers(import_session_t *p, const pv_t **known, const pv_t **recorded) {
    *known = *recorded = NULL;
    const char *where;
    size_t len;
    const char *text = stack_text(p, &len, &where);
    if (!text) return;
    const char **urns = arena_alloc(p->arena, (2 * p->plan->n_items + 1) * sizeof *urns);
    size_t n = 0, n_known = 0;
    for (size_t i = 0; i < p->plan->n_items; i++)
        if (p->plan->items[i].provider_urn && p->plan->items[i].provider_index < 0)
            urns[n++] = p->plan->items[i].provider_urn;
    n_known = n;
    for (size_t i = 0; i < p->plan->n_items; i++) {
        const import_plan_item_t *it = &p->plan->items[i];
        const char *pkg = default_provider_package(p->arena, it);
        if (it->provider_urn && it->provider_index >= 0)
            urns[n++] = it->provider_urn;
        else if (!it->provider_urn && pkg)
            urns[n++] =
                arena_sprintf(p->arena, "urn:pulumi:%s::%s::pulumi:providers:%s::%s", p->stack, p->project, pkg,
                              stackstate_default_provider_name(p->arena, it->spec ? it->spec->version : NULL,
                                                               it->spec ? it->spec->plugin_download_url : NULL));
    }
    if (!n) return;
    const pv_t *all =
        stackstate_recorded_inputs(p->arena, text, len, where, urns, n, n_known, p->secrets.keyring, &p->diags);
    *recorded = all;
    if (!n_known) return;
    pv_t *k = pv_object(p->arena);
    for (size_t i = 0; i < n_known; i++) {
        const pv_t *v = pv_object_get(all, urns[i]);
        if (v) pv_object_set(p->arena, k, urns[i], (pv_t *)v);
    }
    *known = k;
}

bool session_run(import_session_t *p, const import_file_t *file) {
    const session_options_t *o = p->opts;
    arena_t *a = p->arena;
    diag_list_t *diags = &p->diags;
    pcl_gen_options_t po;
    pcl_gen_options_default(&po);
    collect_existing_refs(p, &po);
    state_job_t job = {0};
    if (o->offline_state) state_job_start(&job, o->offline_state);
    bool inputs_ok = read_inputs(p, file);
    if (!inputs_ok) {
        state_job_drop(&job);
        return false;
    }

    /* 2. Providers: the offline snapshot when asked; real plugins otherwise. */
    const pv_t *known = NULL; /* the explicit providers named by URN only, as the stack records them */
    if (o->offline_state) {
        if (!load_offline_state(p, &job, &p->state, diags)) return false;
        p->offline = true;
        p->offline_source = offline_source_new(p->state, p->schemas);
        offline_source_set_plan(p->offline_source, p->plan);
        offline_source_set_keyring(p->offline_source, p->secrets.keyring);
        /* Each resource's properties are parsed on the second core, ahead of the engine's Reads. */
        size_t n_order;
        size_t *order = offline_source_read_order(p->offline_source, &n_order);
        deployment_read_ahead(p->state, order, n_order);
        free(order);
        p->registry = provider_registry_new(offline_provider_factory, p->offline_source);
        /* what a default provider recorded in the stack is given, and the packages it disables */
        p->provider_config = pv_object(a);
        if ((o->into_stack || o->stack_state) &&
            (!load_stack_config(p, o, p->provider_config) || !check_default_providers(p)))
            return false;
        /* code for `pulumi up` (the `import` option, or none): the packages the stack disables too */
        if (!o->into_stack && !o->stack_state && (!load_disabled_defaults(p, o) || !check_default_providers(p)))
            return false;
    } else {
        pv_t *config = p->provider_config = pv_object(a);
        if (!load_provider_config(p, o, config)) return false;
        plugin_host_options_t ho;
        plugin_host_options_default(&ho);
        ho.project_dir = ".";
        ho.attach = o->attach;
        ho.n_attach = o->n_attach;
        ho.config = plugin_config(p, config);
        stack_providers(p, &known, &ho.recorded);
        ho.stack = p->stack;
        ho.project = p->project;
        ho.log = on_provider_log;
        ho.log_user = p;
        if (o->timeout_ms > 0) ho.call_timeout_ms = o->timeout_ms;
        /* a plugin's start, handshake and schema are under the user's --start-timeout */
        if (o->start_timeout_ms > 0)
            ho.port_timeout_ms = ho.start_timeout_ms = ho.schema_timeout_ms = o->start_timeout_ms;
        ho.stop = o->stop;
        p->plugin_host = plugin_host_new(&ho, diags);
        if (!p->plugin_host) return false;
        p->registry = provider_registry_new(plugin_host_factory, p->plugin_host);
        provider_registry_set_configured(p->registry, plugin_host_configured_factory);
    }
    if (o->resume) {
        p->resume = engine_resume_load(o->resume, diags);
        if (!p->resume) return false;
        const char *doc_stack, *doc_project;
        if (engine_resume_other_stack(p->resume, p->stack, p->project, p->arena, &doc_stack, &doc_project)) {
            size_t n = engine_resume_count(p->resume);
            char advice[DIAG_ADVICE_MAX];
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, o->resume, NULL,
                     "none of its %zu imported record%s is of this run: %s of stack '%s' of project '%s', and this "
                     "run imports into stack '%s' of project '%s'%s",
                     n, n == 1 ? "" : "s", n == 1 ? "it is" : "they are", doc_stack ? doc_stack : "?",
                     doc_project ? doc_project : "?", p->stack, p->project,
                     doc_stack && doc_project ? diag_advice(advice, DIAG_ADVICE_RESUME_STACK,
                                                            arena_sprintf(p->arena, "%s::%s", doc_stack, doc_project))
                                              : "");
            return false;
        }
        /* A results document records each resource's inputs, not the state Read returned, which a
         * stack records: a run that writes a stack reads them again (one already in it stays as is). */
        size_t n_resume = engine_resume_count(p->resume);
        if ((o->stack_state || o->into_stack) && n_resume > 0) {
            diag_add(diags, DIAG_INFO, DIAG_INPUT, o->resume, NULL,
                     "its %zu resource(s) are read again: a stack records each resource's state, which a results "
                     "document does not hold",
                     n_resume);
            engine_resume_free(p->resume);
            p->resume = NULL;
        }
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
    eo.stop = o->stop;
    eo.known_providers = known;
    eo.default_config = p->provider_config;
    /* The stack state, resume and the report use the whole results (Read's inputs, state,
     * provenance). */
    bool lean = o->lean_results && !o->stack_state && !o->into_stack && !o->resume && !o->report_path;
    run_ctx_t run = {.p = p, .lean = lean};
    if (lean) {
        run.inputs = calloc(p->plan->n_items ? p->plan->n_items : 1, sizeof(arena_t *));
        run.secret_import_id = calloc(p->plan->n_items ? p->plan->n_items : 1, sizeof(bool));
        run.not_rebuilt = calloc(p->plan->n_items ? p->plan->n_items : 1, sizeof(char *));
        if (!run.inputs || !run.secret_import_id || !run.not_rebuilt) abort();
        run.values = arena_new();
        /* code that is only written: the inputs go into a file while the engine runs (none can be
         * made beside the code: held as before) */
        if (session_streams(p)) run.spill = result_spill_new(o->out_path, p->plan->n_items);
        eo.release_results = true;
        eo.on_released = on_released;
    }
    if (lean || o->on_event) {
        eo.on_result = on_result;
        eo.on_tick = on_tick;
        eo.user = &run;
    }
    p->results = engine_run(a, p->plan, p->registry, p->schemas, &eo, diags);
    /* Every Read is done: the read-ahead's thread ends, and the memory its allocations left free goes
     * back before the program is generated (the run's peak). */
    if (p->state && deployment_read_ahead_end(p->state)) malloc_trim(0);
    if (lean) {
        /* Lean results hold copies of what is read after the engine; nothing reads the stack export or
         * the Terraform state again (every package's schema is in the set offline), so its index, the
         * offline source over it and the providers go before the program is generated, not beside it
         * (at 20,000 resources 15 % of the run's peak). */
        if (p->offline) release_offline_state(p);
    }
    if (!p->results) {
        run_free(&run);
        return false;
    }
    int spill_error = run.spill ? result_spill_finish(run.spill) : 0;
    if (spill_error) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, o->out_path, NULL,
                 "cannot write a temporary file in this file's directory, where the resources' inputs are set "
                 "aside while the resources are read (%s): nothing was written; make room there, or write the code "
                 "into another directory",
                 strerror(spill_error));
        run_free(&run);
        return false;
    }
    for (size_t i = 0; i < p->plan->n_items; i++) {
        if (p->results[i].status != IMPORT_OK) continue;
        p->n_ok++;
        /* A component or an explicit provider is declared, not read: no Check or Diff ran for it (a
         * result carried over by --resume from an older cimport may still say it was checked). */
        if (p->results[i].item->is_component || p->results[i].item->is_provider) {
            p->n_unchecked++;
            continue;
        }
        /* Offline, Check and Diff are cimport's reading of the schema: consistent, not verified. */
        if (p->results[i].verified) {
            if (p->offline || p->results[i].verified_offline)
                p->n_consistent++;
            else
                p->n_verified++;
        }
    }
    /* Components and explicit providers are declared, not read: when every resource of the run
     * failed, nothing was imported, and they are not declared on their own (no code, no stack). */
    if (p->n_ok && p->n_ok == p->n_unchecked && p->n_ok < p->plan->n_items) {
        for (size_t i = 0; i < p->plan->n_items; i++) {
            import_result_t *r = &p->results[i];
            if (r->status != IMPORT_OK) continue;
            const import_plan_item_t *it = r->item;
            diag_add(&r->diags, DIAG_ERROR, DIAG_GENERIC, NULL,
                     arena_sprintf(p->arena, "%s '%s' of type '%s'", it->is_component ? "component" : "provider",
                                   it->spec && it->spec->name ? it->spec->name : it->logical_name, it->type),
                     "not declared: no resource was imported, so there is nothing for it to hold");
            r->status = IMPORT_SKIPPED;
        }
        p->n_ok = p->n_unchecked = 0;
    }
    /* Offline no plugin runs: an explicit provider the stack records has the import file's inputs, not
     * its plugin's CheckConfig answer, which Pulumi records (read17 F10). Said, as it may differ. */
    if (p->offline && (o->into_stack || o->stack_state))
        for (size_t i = 0; i < p->plan->n_items; i++) {
            const import_result_t *r = &p->results[i];
            const import_plan_item_t *it = r->item;
            if (r->status != IMPORT_OK || !it->is_provider) continue;
            diag_add(diags, DIAG_INFO, DIAG_INPUT, NULL,
                     arena_sprintf(a, "provider '%s' of type '%s'",
                                   it->spec && it->spec->name ? it->spec->name : it->logical_name, it->type),
                     "recorded with the inputs the import file gives it: offline no %s plugin runs, and Pulumi "
                     "records a provider's inputs as its plugin's CheckConfig answers them (with the defaults it "
                     "fills in), so `pulumi preview` can show its inputs changing where the plugin fills some in; "
                     "import without --offline-state to record its plugin's answer",
                     it->type + 17);
        }
    /* 4. Code for every resource that imported. Packages whose schema came from their provider
     * (GetSchema) rather than --schema join the set the generator uses. */
    bool ok = generate(p, &po, &run);
    run_free(&run);
    return ok;
}

/* Pulumi YAML has no local components: its program leaves a component out, and its children's
 * `parent` with it (a warning each), so they are declared at the stack's root. With no stack written
 * that is what `pulumi up` then imports; but a stack written now records them under the component,
 * and the program would move them to other URNs — replace them — on the next `pulumi up`. */
static bool yaml_keeps_stack_urns(import_session_t *p, diag_list_t *diags) {
    const session_options_t *o = p->opts;
    if (p->lang != LANG_YAML || (!o->stack_state && !o->into_stack)) return true;
    for (size_t i = 0; i < p->gen.program->n_nodes; i++) {
        const pcl_node_t *n = &p->gen.program->nodes[i];
        if (n->kind != PCL_NODE_COMPONENT) continue;
        diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, NULL,
                 arena_sprintf(p->arena, "component '%s' of type '%s'", n->logical_name ? n->logical_name : n->name,
                               n->token ? n->token : "?"),
                 "Pulumi YAML cannot declare local components: the YAML program would declare its children at "
                 "the stack's root while the stack records them under the component, so the next `pulumi up` "
                 "would replace them; generate TypeScript, Python, Go, C# or Java, or import without a stack "
                 "(the code's `import` option)");
        return false;
    }
    return true;
}

static bool secret_holds(const pv_t *v, const char *s, bool secret, bool whole);

/* The `import` option holds the import file's ID, as `pulumi import` writes it: `pulumi up` runs the
 * provider's importer on it, and the ID Read returned is often not one it takes (a RandomInteger
 * "5,1,10" reads as "5"). */
static const char *import_id_of(const import_result_t *r) {
    return r->item->id && *r->item->id ? r->item->id : r->id;
}

/* A resource the code's `import` option cannot import leaves the imported ones: failed, with its reason
 * in r->diags, and the run's counts without it. `why` is held by p->arena and shared by every resource
 * failing for it, as is the resource's context: neither is copied into r->diags. */
static void fail_import_option(import_session_t *p, import_result_t *r, const char *why) {
    const import_plan_item_t *it = r->item;
    diag_add_shared(&r->diags, DIAG_ERROR, DIAG_CODEGEN, NULL,
                    arena_sprintf(p->arena, "resource '%s' of type '%s'", it->logical_name, it->type), why);
    r->status = IMPORT_FAILED;
    p->n_ok--;
    if (r->verified && (p->offline || r->verified_offline))
        p->n_consistent--;
    else if (r->verified)
        p->n_verified--;
}

/* Resources the code's `import` option cannot import fail, with the reason, and the others go on (exit
 * 1): one whose import ID the provider holds as a secret (a password imported by its value), which the
 * option would hold in plaintext, a type whose provider implements no importer
 * (importid_no_importer: `pulumi up` would fail on it; offline nothing else says so), and one whose
 * inputs its importer does not rebuild from the import ID (importid_not_rebuilt: a random resource's
 * keepers, a RandomString's flags — read from a recorded state, which no importer made; `pulumi up`
 * would find them a diff and refuse the import). A secret import ID is said first: the fix, into a
 * stack, is the same, and the code must not hold it either way. `in_state` and `not_rebuilt`: lean
 * results' answers for each item (asked when the resource finished), or NULL to ask each result. */
static void fail_import_option_unimportable(import_session_t *p, const bool *in_state, const char *const *not_rebuilt) {
    /* each reason once, however many resources fail for it: the two of a secret import ID, one per
     * type without an importer (by importid_no_importer's text) and one per list of inputs not rebuilt */
    const char *secret_is_id = NULL, *secret_id = NULL;
    hashmap_t no_importer_why = {0}, not_rebuilt_why = {0};
    for (size_t i = 0; i < p->plan->n_items; i++) {
        import_result_t *r = &p->results[i];
        const import_plan_item_t *it = r->item;
        if (r->status != IMPORT_OK || it->is_component || it->is_provider) continue;
        const char *id = import_id_of(r);
        bool held = id && (in_state ? in_state[i] : secret_holds(r->state, id, false, false));
        bool secret = id && (held || secret_holds(r->inputs, id, false, false));
        const char *no_importer = secret ? NULL : importid_no_importer(it->type);
        const char *differs = secret || no_importer ? NULL
                              : not_rebuilt         ? not_rebuilt[i]
                                                    : importid_not_rebuilt(p->arena, it->type, r->inputs);
        if (!secret && !no_importer && !differs) continue;
        char into[DIAG_ADVICE_MAX];
        diag_advice(into, DIAG_ADVICE_INTO_STACK, NULL);
        /* for a secret: Pulumi records an ID in plaintext (it cannot be made secret, pulumi/pulumi#8946),
         * so a stack holds the value encrypted only where the resource's ID is another (a password's "none") */
        if (no_importer || differs) {
            /* one reason a type (or a set of inputs not rebuilt), shared by every resource refused for it */
            hashmap_t *said = no_importer ? &no_importer_why : &not_rebuilt_why;
            const char *key = no_importer ? no_importer : differs;
            void **kept = hashmap_find_str(said, key);
            const char *why = kept ? *kept : NULL;
            if (!why) {
                why = no_importer
                          ? arena_sprintf(p->arena,
                                          "its provider implements no importer for %s (an import fails with "
                                          "\"Resource Import Not Implemented\"), so the code's `import` "
                                          "resource option would fail at `pulumi up`; import it into a stack "
                                          "instead%s, which records the state read here without an importer",
                                          key, into)
                          : arena_sprintf(p->arena,
                                          "its provider's importer rebuilds the resource from its import ID alone "
                                          "and does not restore its %s, so `pulumi up` would find the code's inputs "
                                          "differ from the resource it imports and refuse the import (\"inputs to "
                                          "import do not match the existing resource\"); import it into a stack "
                                          "instead%s, which records the state read here",
                                          key, into);
                hashmap_add_str(said, key, (void *)why);
            }
            fail_import_option(p, r, why);
        } else if (r->id && strcmp(r->id, id) == 0) {
            if (!secret_is_id)
                secret_is_id = arena_sprintf(p->arena,
                                             "its import ID is a secret value, which the code's `import` resource "
                                             "option would hold in plaintext; it is also its ID, which a stack "
                                             "records in plaintext too (Pulumi cannot make an ID secret): import it "
                                             "into a stack%s only if the value in plaintext in the stack's state is "
                                             "acceptable",
                                             into);
            fail_import_option(p, r, secret_is_id);
        } else {
            if (!secret_id)
                secret_id = arena_sprintf(p->arena,
                                          "its import ID is a secret value, which the code's `import` resource "
                                          "option would hold in plaintext; import it into a stack instead%s, "
                                          "which records the secret encrypted",
                                          into);
            fail_import_option(p, r, secret_id);
        }
    }
    hashmap_free(&no_importer_why);
    hashmap_free(&not_rebuilt_why);
}

/* Lean results' values: what generation has not released yet (and the results of resources it did not
 * generate), once the program is generated or the run ended before. */
static void run_drop_values(run_ctx_t *run) {
    if (!run->inputs) return;
    import_session_t *p = run->p;
    for (size_t i = 0; i < p->plan->n_items; i++) {
        if (p->results) p->results[i].inputs = p->results[i].state = NULL;
        arena_free(run->inputs[i]);
        run->inputs[i] = NULL;
    }
    arena_free(run->values);
    run->values = NULL;
}

static void run_free(run_ctx_t *run) {
    run_drop_values(run);
    result_spill_free(run->spill);
    run->spill = NULL;
    free(run->inputs);
    free(run->secret_import_id);
    run->secret_import_id = NULL;
    free(run->not_rebuilt);
    run->not_rebuilt = NULL;
    run->inputs = NULL;
}

/* pcl_generate's hooks for lean results: resource i's inputs read back from the spill; resource i's
 * inputs released, then every state. */
static const pv_t *load_inputs(void *user, size_t i) {
    run_ctx_t *run = user;
    return result_spill_get(run->spill, RESULT_SPILL_INPUTS, run->gen_item[i], &run->spill_failed);
}

static const pv_t *load_outputs(void *user, size_t i) {
    run_ctx_t *run = user;
    return result_spill_get(run->spill, RESULT_SPILL_OUTPUTS, run->gen_item[i], &run->spill_failed);
}

static void release_inputs(void *user, size_t i) {
    run_ctx_t *run = user;
    size_t item = run->gen_item[i];
    if (run->spill) result_spill_drop(run->spill, RESULT_SPILL_INPUTS);
    run->gen[i].inputs = NULL;
    run->p->results[item].inputs = NULL;
    arena_free(run->inputs[item]);
    run->inputs[item] = NULL;
}

static void release_outputs(void *user) {
    run_ctx_t *run = user;
    import_session_t *p = run->p;
    for (size_t i = 0; i < p->plan->n_items; i++)
        p->results[i].state = NULL;
    for (size_t i = 0; i < run->n_gen; i++)
        run->gen[i].outputs = NULL;
    if (run->spill) result_spill_drop(run->spill, RESULT_SPILL_OUTPUTS);
    arena_free(run->values);
    run->values = NULL;
}

/* Step 4 of session_run: code for every resource that imported. Lean results' values are only read
 * here: released while the program is generated (see run_ctx_t), and what is left of them dropped
 * once it is, before the code is written out of it, so the two are never held together. */
/* The config keys the program written into reads already (the --insert-into file, or the editor's
 * text) are taken too, unless the stack config or the secrets file holds them (their value decides
 * there, so a re-run takes its own key again): a secret given such a key would change what the
 * program reads for something else. */
static void reserve_program_config_keys(import_session_t *p, pcl_gen_options_t *po) {
    const session_options_t *o = p->opts;
    if (o->secrets != PCL_SECRETS_CONFIG || (!o->program_text && !o->insert_into)) return;
    size_t len = o->program_len;
    const char *text = o->program_text;
    if (!text) {
        diag_list_t quiet; /* unreadable: placing the code says so */
        diag_list_init(&quiet);
        text = file_read_all(p->arena, o->insert_into, &len, &quiet);
        diag_list_free(&quiet);
        if (!text) return;
    }
    const char **keys;
    size_t n = session_program_config_keys(p->arena, text, len, p->lang, p->project, &keys);
    if (!n) return;
    size_t have = po->n_reserved_names, cap = have + n;
    const char **names = arena_alloc(p->arena, cap * sizeof *names);
    const char **values = arena_alloc(p->arena, cap * sizeof *values);
    bool *elsewhere = arena_alloc(p->arena, cap * sizeof *elsewhere);
    for (size_t i = 0; i < have; i++) {
        names[i] = po->reserved_names[i];
        values[i] = po->reserved_values ? po->reserved_values[i] : NULL;
        elsewhere[i] = po->reserved_elsewhere && po->reserved_elsewhere[i];
    }
    size_t m = have;
    for (size_t k = 0; k < n; k++) {
        bool dup = false;
        for (size_t i = 0; i < m && !dup; i++)
            dup = strcmp(names[i], keys[k]) == 0;
        if (dup) continue;
        names[m] = keys[k];
        values[m] = NULL; /* what the program reads there is not this run's secret */
        elsewhere[m++] = false;
    }
    po->reserved_names = names;
    po->n_reserved_names = m;
    po->reserved_values = values;
    po->reserved_elsewhere = elsewhere;
}

/* A node of a program printed as it is generated, checked as emit_check_pcl checks a whole one. */
static bool check_printed_node(void *user, const pcl_node_t *n, diag_list_t *diags) {
    run_ctx_t *run = user;
    const pcl_program_t one = {.nodes = (pcl_node_t *)n, .n_nodes = 1};
    if (emit_check_pcl(&one, diags)) return true;
    run->print_refused = true;
    return false;
}

static bool generate(import_session_t *p, pcl_gen_options_t *po, run_ctx_t *run) {
    const session_options_t *o = p->opts;
    arena_t *a = p->arena;
    diag_list_t *diags = &p->diags;
    if (o->generate_code && o->import_option)
        fail_import_option_unimportable(p, run->secret_import_id, run->not_rebuilt);
    if (!o->generate_code || p->n_ok == 0) return true;
    const import_plan_t *plan = p->plan;
    for (size_t i = 0; i < plan->n_items; i++) {
        const import_plan_item_t *it = &plan->items[i];
        if (p->results[i].status != IMPORT_OK || it->is_component) continue;
        char *pkg = schema_token_package(a, it->type);
        if (schema_set_get(p->schemas, pkg) || !p->registry) continue;
        diag_list_t quiet;
        diag_list_init(&quiet);
        provider_t *prov = provider_registry_get(p->registry, pkg, it->spec ? it->spec->version : NULL,
                                                 it->spec ? it->spec->plugin_download_url : NULL, &quiet);
        schema_package_t *sp = prov && prov->ops->get_schema ? prov->ops->get_schema(prov, &quiet) : NULL;
        if (sp) schema_set_add_borrowed(p->schemas, sp);
        diag_list_free(&quiet);
    }
    /* what generation reads of each resource, only while it does (the program holds copies) */
    pcl_gen_resource_t *gr = calloc(plan->n_items ? plan->n_items : 1, sizeof *gr);
    size_t *gr_item = run->inputs ? calloc(plan->n_items ? plan->n_items : 1, sizeof *gr_item) : NULL;
    if (!gr || (run->inputs && !gr_item)) abort();
    size_t n = 0;
    for (size_t i = 0; i < plan->n_items; i++) {
        const import_result_t *r = &p->results[i];
        const import_plan_item_t *it = r->item;
        if (r->status != IMPORT_OK) continue;
        if (gr_item) gr_item[n] = i;
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
        /* The `import` option holds the import file's ID, as `pulumi import` writes it: `pulumi up` runs
         * the provider's importer on it, and the ID Read returned is often not one it takes (a
         * RandomInteger "5,1,10" reads as "5"). An ID the provider holds as a secret (a password imported
         * by its value) would be plaintext in the code: refused, nothing written. */
        if (o->import_option && !it->is_component && !it->is_provider) g->import_id = import_id_of(r);
    }
    po->secrets = o->secrets;
    /* Config keys the stack config and the secrets file already hold: no generated name takes one. */
    po->reserved_names = p->secrets.reserved;
    po->n_reserved_names = p->secrets.n_reserved;
    po->reserved_values = p->secrets.reserved_values;
    po->reserved_elsewhere = p->secrets.reserved_elsewhere;
    reserve_program_config_keys(p, po);
    if (gr_item) {
        run->gen = gr;
        run->gen_item = gr_item;
        run->n_gen = n;
        po->release_inputs = release_inputs;
        po->release_outputs = release_outputs;
        po->load_inputs = run->spill ? load_inputs : NULL;
        po->load_outputs = run->spill ? load_outputs : NULL;
        po->release_user = run;
    }
    /* code that is only written goes into its file as it is printed, and each batch of the program is
     * freed once printed (a 1,000,000-resource program is 300 MB of text, and more as a tree); a spool
     * that cannot be made beside the file leaves both held as before */
    bool stream = gr_item && session_streams(p);
    p->code_spool = stream ? spool_new(o->out_path) : NULL;
    po->print_to = p->code_spool;
    po->print_check = check_printed_node;
    po->print_check_user = run;
    bool generated = pcl_generate(gr, n, p->schemas, po, &p->gen, diags) && p->gen.program;
    free(gr);
    free(gr_item);
    po->release_inputs = NULL;
    po->release_outputs = NULL;
    po->load_inputs = NULL;
    po->load_outputs = NULL;
    if (run->inputs) {
        run_drop_values(run);
        run->gen = NULL;
        run->gen_item = NULL;
        run->n_gen = 0;
        /* give their pages back now: the code is about to be written, and the peak is the sum */
        malloc_trim(0);
    }
    if (run->spill_failed) { /* some resource's code was generated without its inputs: none is written */
        diag_add(diags, DIAG_ERROR, DIAG_IO, o->out_path, NULL,
                 "the resources' inputs, set aside in a temporary file in this file's directory while the "
                 "resources were read, could not be read back: no code was written");
        spool_free(p->code_spool);
        p->code_spool = NULL;
        return false;
    }
    if (!generated || (p->code_spool && run->print_refused)) { /* refused: nothing of the code is written */
        spool_free(p->code_spool);
        p->code_spool = NULL;
        return !generated; /* no program: no code, as before; a node refused: as emit_check_pcl's refusal */
    }
    if (p->code_spool) return true; /* printed as it was generated, each node checked as emit_check_pcl checks */
    if (p->lang == LANG_PCL && !emit_check_pcl(p->gen.program, diags)) return false; /* printed as null */
    p->code = p->lang == LANG_PCL ? pcl_print(p->gen.program) : emit_program(p->gen.program, p->lang, diags);
    /* code the language cannot express (its error says why): nothing of the run is written — not the
     * stack without its code, not secrets for code that does not exist */
    if (!p->code) return false;
    return yaml_keeps_stack_urns(p, diags);
}

/* ---------------------------------------------------------------------------------------------
 * After the run: the code into its place, and the outputs. */

bool session_place_code(import_session_t *p, splicer_t *sp, diag_list_t *diags) {
    const session_options_t *o = p->opts;
    bool in_memory = o->program_text != NULL;
    p->code_target = in_memory ? o->program_name : o->insert_into ? o->insert_into : o->out_path;
    if (!session_has_code(p) || !p->code_target) return true;
    if (p->code_spool) { /* the whole file, written as it was made (no --diff: nothing to compare) */
        p->changed = true;
        return true;
    }
    if (in_memory) {
        p->old_text = o->program_text;
        p->old_len = o->program_len;
    } else if (o->insert_into || (o->diff && access(p->code_target, F_OK) == 0)) {
        p->old_text = file_read_all(p->arena, p->code_target, &p->old_len, diags);
        if (!p->old_text) return false;
    }
    if (!in_memory && !o->insert_into) {
        p->new_text = p->code; /* the whole file is the code: no copy of a text that can be 100 MB */
        p->new_is_code = true;
        p->new_len = strlen(p->code);
        p->changed = !p->old_text || p->old_len != p->new_len || memcmp(p->old_text, p->new_text, p->new_len) != 0;
        return true;
    }
    splice_options_t so = session_splice_options(p, p->code_target);
    splicer_t *own = sp ? NULL : splicer_new();
    bool ok = splicer_splice(sp ? sp : own, p->old_text, p->old_len, p->lang, p->code, strlen(p->code), &so,
                             &p->new_text, &p->new_len, &p->changed, &p->splice, diags);
    splicer_free(own);
    return ok; /* SESSION_EVENT_SPLICED once it is committed: until then nothing was added to the program */
}

void session_stage_report(import_session_t *p, char *html, size_t len) {
    free(p->report_html);
    p->report_html = html;
    p->report_len = len;
}

/* Written as one transaction (never with diff or preview_only, but for the report page): the
 * secrets, the code or the spliced program, the stack state, the report and the selected stack —
 * all of them or none. */
/* The run's files (not the report, not the stack) staged into out; the code's own only with_code. */
static void stage_run_files(import_session_t *p, outputs_t *out, bool with_code) {
    const session_options_t *o = p->opts;
    if (session_has_code(p)) {
        outputs_stage_secrets(out, &p->secrets, &p->gen);
        /* an in-memory program (an editor's buffer) gets its edit from the front end */
        if (!with_code || o->program_text)
            ;
        else if (o->insert_into)
            outputs_stage_program(out, o->insert_into, p->lang, session_splice_options(p, o->insert_into), p->old_text,
                                  p->old_len, p->new_text, p->new_len, p->code);
        else if (o->out_path && p->code_spool)
            outputs_stage_code_spool(out, o->out_path, p->code_spool);
        else if (o->out_path)
            outputs_stage_code(out, o->out_path, p->code);
    }
    if (o->stack_state && p->n_ok > 0) {
        size_t n_res;
        stackstate_resource_t *res = session_stack_resources(p, &n_res);
        size_t n_cfg;
        const stackstate_package_config_t *cfg = session_stack_config(p, &n_cfg);
        outputs_stage_stack_state(out, o->stack_state, p->stack, p->project, res, n_res, cfg, n_cfg, &p->secrets,
                                  o->secrets_b64, o->secrets_plaintext);
    }
}

/* --diff: what a run without it would write besides the code (the stack config, the secrets file,
 * the stack export), found by running its updates on the files as they are now; false when that run
 * would refuse (the reason in diags). */
static bool diff_other_files(import_session_t *p, diag_list_t *diags) {
    const session_options_t *o = p->opts;
    p->n_diff_files = 0;
    if (p->n_ok == 0) return true;
    outputs_t *dry = outputs_new(o->lock_wait_ms);
    stage_run_files(p, dry, false); /* the code's own diff is the one printed */
    const char **changed;
    size_t n;
    bool ok = outputs_dry_run(dry, &changed, &n, diags);
    if (ok && n) {
        p->diff_files = arena_alloc(p->arena, n * sizeof *p->diff_files);
        for (size_t i = 0; i < n; i++)
            p->diff_files[p->n_diff_files++] = arena_strdup(p->arena, changed[i]);
    }
    free(changed);
    outputs_free(dry);
    return ok;
}

bool session_commit(import_session_t *p, diag_list_t *diags) {
    const session_options_t *o = p->opts;
    const txn_participant_t *part = session_stack_participant(p);
    bool writes = !o->preview_only && !o->diff;
    if (o->diff && !o->preview_only && !diff_other_files(p, diags)) return p->committed = false;
    outputs_free(p->outputs);
    p->outputs = outputs_new(o->lock_wait_ms);
    if (writes) stage_run_files(p, p->outputs, true);
    size_t n_run_files = outputs_count(p->outputs);
    if (p->report_html && o->report_path) outputs_stage_file(p->outputs, o->report_path, p->report_html, p->report_len);
    if (writes && part) outputs_stage_participant(p->outputs, part);
    p->committed = outputs_commit(p->outputs, diags);
    p->files_written = p->committed && outputs_any_changed(p->outputs, n_run_files);
    session_scrub_diags(p, diags); /* --stack-state's merge names IDs */
    if (p->committed && p->new_text && !p->new_is_code)
        emit(p,
             &(session_event_t){
                 .kind = SESSION_EVENT_SPLICED, .path = p->code_target, .splice = &p->splice, .changed = p->changed});
    p->secrets_saved = p->committed && writes && session_has_code(p) && p->gen.n_secrets > 0;
    const stackstate_report_t *rep = p->committed ? outputs_state_report(p->outputs) : NULL;
    p->stack_state_created = rep && rep->created_file;
    p->stack_state_unchanged = rep && !rep->created_file && rep->n_added == 0;
    p->n_recorded_differ = p->stack_report.n_differ + p->stack_report.n_provider_differ +
                           (rep ? rep->n_differ + rep->n_provider_differ : 0);
    session_warn_plaintext_ids(p, rep, o->stack_state, diags);
    if (rep) emit(p, &(session_event_t){.kind = SESSION_EVENT_STATE_MERGED, .path = o->stack_state, .state = rep});
    return p->committed;
}

bool session_writes_something(const import_session_t *p, bool committed) {
    const session_options_t *o = p->opts;
    if (!o->into_stack && !o->stack_state) return true;
    if (committed) return p->stack_written || p->files_written;
    if (p->stack_merged || p->state_preview_changes || (o->stack_state && !p->state_preview)) return true;
    if (!session_has_code(p)) return false;
    if (p->gen.n_secrets > 0) return true; /* the secrets file or the stack config */
    if (o->program_text) return false;     /* an editor's buffer: its front end sends the edit */
    return o->insert_into ? p->changed : o->out_path != NULL;
}

void session_preview_stack_state(import_session_t *p) {
    const session_options_t *o = p->opts;
    if (!o->stack_state || p->n_ok == 0) return;
    outputs_free(p->state_preview);
    p->state_preview = outputs_new(o->lock_wait_ms);
    size_t n_res;
    stackstate_resource_t *res = session_stack_resources(p, &n_res);
    size_t n_cfg;
    const stackstate_package_config_t *cfg = session_stack_config(p, &n_cfg);
    outputs_stage_stack_state(p->state_preview, o->stack_state, p->stack, p->project, res, n_res, cfg, n_cfg,
                              &p->secrets, o->secrets_b64, o->secrets_plaintext);
    const char **changed;
    size_t n;
    diag_list_t quiet; /* a merge refused here is refused by the commit, which says why */
    diag_list_init(&quiet);
    p->state_preview_changes = !outputs_dry_run(p->state_preview, &changed, &n, &quiet) || n > 0;
    diag_list_free(&quiet);
    free(changed);
}

const stackstate_report_t *session_stack_state_report(const import_session_t *p) {
    const stackstate_report_t *rep = p->outputs ? outputs_state_report(p->outputs) : NULL;
    return rep ? rep : p->state_preview ? outputs_state_report(p->state_preview) : NULL;
}

char *session_program_diff(const import_session_t *p) {
    if (!p->new_text) return NULL;
    char *diff =
        review_unified_diff(p->code_target, p->old_text ? p->old_text : "", p->old_len, p->new_text, p->new_len);
    return p->opts->show_secrets ? diff : session_redact_old_secrets(p, diff);
}

/* Whether a git ignore file (text) has a line naming base, as `base` or `/base`. */
static bool ignore_lists(const char *text, const char *base) {
    size_t bl = strlen(base);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        if (n && l[n - 1] == '\r') n--;
        if (*l == '/') l++, n--;
        if (n == bl && strncmp(l, base, bl) == 0) return true;
    }
    return false;
}

/* The git work tree holding the file at path (the directory with its `.git`), when no .gitignore on
 * the way up nor .git/info/exclude names the file; else NULL. In arena. */
static const char *git_tree_not_ignoring(arena_t *a, const char *path) {
    const char *slash = strrchr(path, '/');
    char *dir = realpath(slash ? arena_strndup(a, path, slash == path ? 1 : (size_t)(slash - path)) : ".", NULL);
    if (!dir) return NULL;
    const char *base = slash ? slash + 1 : path;
    const char *tree = NULL;
    bool ignored = false;
    char *d = arena_strdup(a, dir);
    free(dir);
    for (;;) {
        const char *names[2] = {arena_sprintf(a, "%s/.gitignore", d), arena_sprintf(a, "%s/.git/info/exclude", d)};
        for (int i = 0; i < 2 && !ignored; i++) {
            size_t len;
            diag_list_t quiet;
            diag_list_init(&quiet);
            char *text = access(names[i], R_OK) == 0 ? file_read_all(a, names[i], &len, &quiet) : NULL;
            diag_list_free(&quiet);
            ignored = text && ignore_lists(text, base);
        }
        if (access(arena_sprintf(a, "%s/.git", d), F_OK) == 0) {
            tree = d;
            break;
        }
        char *up = strrchr(d, '/');
        if (!up || up == d) break;
        *up = 0;
    }
    return tree && !ignored ? tree : NULL;
}

char *session_secrets_note(const import_session_t *p) {
    if (!p->secrets_saved) return NULL;
    size_t n = p->gen.n_secrets;
    buf_t b;
    buf_init(&b);
    if (p->secrets.to_config) {
        buf_printf(&b,
                   "%zu secret value%s encrypted into %s as `secure:` stack config (passphrase secrets provider); the "
                   "code reads %s from there",
                   n, n == 1 ? " was" : "s were", p->secrets.config_path, n == 1 ? "it" : "them");
    } else {
        char *step = outputs_secrets_next_step(&p->secrets);
        buf_printf(&b,
                   "%zu secret value%s moved out of the code into stack config; the values are in %s (readable only by "
                   "you). Store them in the stack's config (needs jq; no value goes on a command line):\n%s",
                   n, n == 1 ? " was" : "s were", p->secrets.file, step);
        free(step);
        /* readable only by the user, but not kept out of the project's repository (read13 F14) */
        const char *tree = git_tree_not_ignoring(p->arena, p->secrets.file);
        if (tree)
            buf_printf(&b,
                       "\n  %s is inside the git work tree %s, and no .gitignore names it: a `git add -A` would "
                       "commit the values in plaintext. Delete it once they are stored, or let git ignore it "
                       "(`echo '%s' >> %s/.gitignore`)",
                       p->secrets.file, tree,
                       strrchr(p->secrets.file, '/') ? strrchr(p->secrets.file, '/') + 1 : p->secrets.file, tree);
    }
    return buf_take(&b);
}
void session_free(import_session_t *p) {
    outputs_free(p->state_preview);
    diag_list_t quiet;
    diag_list_init(&quiet);
    session_stack_close(p, &quiet);
    diag_list_free(&quiet);
    hashmap_free(&p->secret_ids);
    outputs_free(p->outputs);
    free(p->report_html);
    if (p->secrets.arena) outputs_secrets_free(&p->secrets);
    if (!p->new_is_code) free(p->new_text);
    free(p->code);
    spool_free(p->code_spool);
    if (p->gen.program) pcl_program_free(p->gen.program);
    if (p->results) engine_results_free(p->results, p->plan->n_items);
    schema_set_free(p->schemas); /* before the providers: it may borrow their schemas */
    p->schemas = NULL;
    provider_registry_free(p->registry);
    plugin_host_free(p->plugin_host);
    engine_resume_free(p->resume);
    offline_source_free(p->offline_source);
    deployment_free(p->state);
    arena_free(p->state_arena);
    schema_set_free(p->schemas);
    diag_list_free(&p->diags);
    diag_list_free(&p->refs_diags);
    arena_free(p->arena);
    memset(p, 0, sizeof *p);
}

const char *session_checked_text(const import_session_t *p) {
    const char *unchecked = p->n_unchecked ? arena_sprintf(p->arena,
                                                           "; %zu not checked: components and providers have "
                                                           "nothing to read",
                                                           p->n_unchecked)
                                           : "";
    if (p->offline)
        return arena_sprintf(p->arena, "%zu consistent with the schema (offline), none verified by a provider%s",
                             p->n_consistent, unchecked);
    /* results carried over by --resume from an --offline-state run: checked, but not by a provider */
    const char *consistent = p->n_consistent ? arena_sprintf(p->arena,
                                                             "; %zu consistent with the schema (offline), not "
                                                             "verified by a provider",
                                                             p->n_consistent)
                                             : "";
    return arena_sprintf(p->arena, "%zu verified%s%s", p->n_verified, consistent, unchecked);
}

/* Whether `s` is part of (whole: is) a secret string in v (a secret or a secret output, at any depth). */
static bool secret_holds(const pv_t *v, const char *s, bool secret, bool whole) {
    if (!v) return false;
    switch (v->kind) {
    case PV_STRING: return secret && (whole ? strcmp(v->u.str.s, s) == 0 : strstr(v->u.str.s, s) != NULL);
    case PV_SECRET: return secret_holds(v->u.secret.inner, s, true, whole);
    case PV_OUTPUT: return secret_holds(v->u.output.value, s, secret || v->u.output.secret, whole);
    case PV_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++)
            if (secret_holds(v->u.arr.items[i], s, secret, whole)) return true;
        return false;
    case PV_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++)
            if (secret_holds(v->u.obj.members[i].value, s, secret, whole)) return true;
        return false;
    default: return false;
    }
}

/* The import file's ID of a resource Read gave another ID, for --resume to match the record on —
 * unless the state or inputs hold it as a secret (a random_password is imported by its value): then
 * none, and a resumed run reads the resource again rather than the document holding a secret. */
static const char *recorded_import_id(const import_session_t *p, const import_result_t *r) {
    const char *id = r->item->id;
    if (!r->id || !id || strcmp(r->id, id) == 0 || !*id || hashmap_find_str(&p->secret_ids, id)) return NULL;
    if (!r->state || secret_holds(r->state, id, false, false) || secret_holds(r->inputs, id, false, false)) return NULL;
    return id;
}

cJSON *session_results_json(const import_session_t *p, bool show_secrets) {
    return session_results_json_diff(p, show_secrets, NULL);
}

cJSON *session_results_json_diff(const import_session_t *p, bool show_secrets, const char *program_diff) {
    const import_plan_t *plan = p->plan;
    const import_result_t *results = p->results;
    diag_list_t *global = (diag_list_t *)&p->diags;
    const char *code = p->code;
    lang_t lang = p->lang;
    const pcl_gen_result_t *g = &p->gen;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "version", REPORT_RESULTS_VERSION);
    size_t ok = 0, failed = 0, skipped = 0, verified = 0, consistent = 0;
    cJSON *arr = cJSON_AddArrayToObject(doc, "resources");
    for (size_t i = 0; plan && results && i < plan->n_items; i++) {
        const import_result_t *r = &results[i];
        const import_plan_item_t *it = r->item;
        if (r->status == IMPORT_OK) ok++;
        if (r->status == IMPORT_FAILED) failed++;
        if (r->status == IMPORT_SKIPPED) skipped++;
        /* a component or an explicit provider is declared, not read: nothing checked it */
        bool checked = r->status == IMPORT_OK && r->verified && !it->is_component && !it->is_provider;
        bool offline = p->offline || r->verified_offline; /* offline, or resumed from an offline run */
        if (checked && offline)
            consistent++;
        else if (checked)
            verified++;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", it->variable);
        cJSON_AddStringToObject(e, "logicalName", it->logical_name);
        cJSON_AddStringToObject(e, "type", it->type);
        /* an ID that is a secret value as "[secret]": --resume then reads the resource again */
        if (r->id) cJSON_AddStringToObject(e, "id", show_secrets ? r->id : session_shown_id(p, r->id));
        const char *import_id = recorded_import_id(p, r);
        if (import_id) cJSON_AddStringToObject(e, "importId", import_id);
        cJSON_AddStringToObject(e, "urn", it->urn);
        cJSON_AddStringToObject(e, "status", r->status == IMPORT_OK ? "imported" : import_status_name(r->status));
        /* "verified" only when the provider's own Check and Diff said so; "verification" says who checked. */
        cJSON_AddBoolToObject(e, "verified", checked && !offline);
        cJSON_AddStringToObject(e, "verification", !checked ? "none" : offline ? "offline-schema" : "provider");
        cJSON_AddNumberToObject(e, "rounds", r->rounds);
        cJSON *res = cJSON_AddArrayToObject(e, "residual");
        for (size_t k = 0; k < r->n_residual; k++)
            cJSON_AddItemToArray(res, cJSON_CreateString(r->residual[k]));
        /* a difference the provider's Diff did not place: no path to list */
        if (r->residual_unnamed) cJSON_AddBoolToObject(e, "residualUnnamed", true);
        /* the provider's last Check failed the inputs the code declares */
        if (r->check_rejected) cJSON_AddBoolToObject(e, "checkRejected", true);
        cJSON *ign = cJSON_AddArrayToObject(e, "ignoreChanges");
        for (size_t k = 0; k < r->n_ignore_changes; k++)
            cJSON_AddItemToArray(ign, cJSON_CreateString(r->ignore_changes[k]));
        /* With their values first: the redaction below cuts them out of the code too (--secrets
         * literal writes them there). */
        cJSON_AddItemToObject(e, "inputs", r->inputs ? pv_to_display_json(r->inputs, true) : cJSON_CreateObject());
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
    /* into a stack: added, or there already (the stack's merge, or --stack-state's: the commit's, or
     * the preview's before it) */
    results_json_add_stack_outcomes(doc, p, p->opts->into_stack ? &p->stack_report : session_stack_state_report(p));
    cJSON *gd = cJSON_AddArrayToObject(doc, "diagnostics");
    for (diag_t *d = global->head; d; d = d->next) {
        cJSON *dj = cJSON_CreateObject();
        cJSON_AddStringToObject(dj, "severity", diag_severity_name(d->severity));
        cJSON_AddStringToObject(dj, "message", session_scrub_text(p, p->arena, diag_format(global, d)));
        cJSON_AddItemToArray(gd, dj);
    }
    cJSON_AddStringToObject(doc, "language", lang_name(lang));
    if (code) cJSON_AddStringToObject(doc, "code", code);
    if (g && g->n_secrets) {
        cJSON *s = cJSON_AddObjectToObject(doc, "secrets");
        if (p->secrets_ready)
            cJSON_AddStringToObject(s, "storedIn", p->secrets.to_config ? p->secrets.config_path : p->secrets.file);
        cJSON *keys = cJSON_AddArrayToObject(s, "keys");
        for (size_t i = 0; i < g->n_secrets; i++)
            cJSON_AddItemToArray(keys, cJSON_CreateString(g->secrets[i].config_key));
    }
    /* before the redaction, which cuts secret values out of it too */
    if (program_diff) cJSON_AddStringToObject(doc, "programDiff", program_diff);
    results_json_add_report_fields(doc, p, show_secrets); /* results_json.c; redacts unless show_secrets */
    if (!show_secrets) session_redact_secret_ids(p, doc);
    if (!show_secrets) {
        /* Each secret value as "[secret]" whether or not its path was listed, and the listed ones again. */
        size_t k = 0;
        for (cJSON *e = arr->child; e && plan && results; e = e->next, k++) {
            const pv_t *in = results[k].inputs;
            cJSON_ReplaceItemInObjectCaseSensitive(e, "inputs",
                                                   in ? pv_to_display_json(in, false) : cJSON_CreateObject());
        }
        report_redact(doc);
    }
    return doc;
}

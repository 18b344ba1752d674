/* stack.c — the session's selected stack on its backend (session_options_t.into_stack): opened under
 * its lock before the run, the imported resources merged into its document after it, and the write
 * made a participant of the run's one transaction, so the stack and the run's files change together
 * or not at all (see session.h; the stores are stacks/backend.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session/session.h"

void session_options_from_workspace(session_options_t *o, const workspace_t *w, arena_t *a) {
    if (!o->stack && w->stack) {
        o->stack = w->stack;
        if (!o->stack_ref) o->stack_ref = w->stack_ref;
    }
    if (o->stack && !o->stack_ref) o->stack_ref = o->stack;
    if (o->stack && strchr(o->stack, '/')) o->stack = strrchr(o->stack, '/') + 1;
    if (!o->project && w->have_project && w->project.name) o->project = w->project.name;
    if (!o->project_file && w->have_project) o->project_file = w->project_file;
    if (w->backend == BACKEND_CLOUD) o->service_secrets = true;
    lang_t l;
    if (!o->language_set && w->have_project && w->project.runtime && lang_from_runtime(w->project.runtime, &l)) {
        o->language = l;
        o->language_set = true;
    }
    /* Where `pulumi` reads it, also when it does not exist yet (a passphrase run creates it): beside
     * Pulumi.yaml, or in the project's stackConfigDir; one in the working directory below the project
     * would never be read. Its extension is the project file's (workspace.ProjectStackPath): a
     * Pulumi.yml project's stack config is Pulumi.<stack>.yml. */
    if (!o->config_file && w->have_project && w->project_dir && o->stack) {
        const char *d = w->project.stack_config_dir ? w->project.stack_config_dir : "";
        for (;;) { /* joined to the project's directory, as `pulumi` does: a leading / or ./ adds nothing */
            if (d[0] == '/')
                d++;
            else if (d[0] == '.' && (d[1] == '/' || d[1] == '\0'))
                d += 1;
            else
                break;
        }
        size_t dl = strlen(d);
        while (dl > 0 && d[dl - 1] == '/')
            dl--;
        size_t pl = w->project_file ? strlen(w->project_file) : 0;
        const char *ext = pl > 4 && strcmp(w->project_file + pl - 4, ".yml") == 0 ? "yml" : "yaml";
        o->config_file = dl ? arena_sprintf(a, "%s/%.*s/Pulumi.%s.%s", w->project_dir, (int)dl, d, o->stack, ext)
                            : arena_sprintf(a, "%s/Pulumi.%s.%s", w->project_dir, o->stack, ext);
    }
}

/* A package's configuration as its default provider's inputs are recorded: what the provider's
 * schema marks secret is a secret, also where Pulumi.<stack>.yaml holds it in plaintext (not
 * `secure:`). Pulumi records the provider's CheckConfig answer, and a bridged provider's marks its
 * schema's secrets there (pulumi-terraform-bridge MarkSchemaSecrets); where the plugin gave no answer
 * (no CheckConfig) or one that does not mark them, the schema does. The stack's own config
 * (p->stack_config) stays as it was read. */
static const pv_t *config_with_schema_secrets(import_session_t *p, const char *pkg, const pv_t *cfg) {
    schema_package_t *sp = p->schemas && cfg && cfg->kind == PV_OBJECT ? schema_set_get(p->schemas, pkg) : NULL;
    const schema_resource_t *prov =
        sp ? schema_find_resource(sp, arena_sprintf(p->arena, "pulumi:providers:%s", pkg)) : NULL;
    if (!prov || !prov->n_inputs) return cfg;
    pv_t *copy = pv_clone(p->arena, cfg);
    schema_wrap_secrets(p->arena, prov->inputs, prov->n_inputs, copy);
    return copy;
}

/* CheckConfig's answer with the secrets of the configuration given (Pulumi's annotateSecrets: the provider
 * saw plain values): a value is a secret where the one given under its key held one; objects key by key. */
static pv_t *checked_with_secrets(arena_t *a, const pv_t *answer, const pv_t *given) {
    pv_t *out = pv_clone(a, answer);
    if (!given || given->kind != PV_OBJECT || out->kind != PV_OBJECT) return out;
    for (size_t i = 0; i < out->u.obj.len; i++) {
        pv_t *now = out->u.obj.members[i].value;
        const pv_t *was = pv_object_get(given, out->u.obj.members[i].key);
        if (!was) continue;
        if (now->kind == PV_OBJECT && was->kind == PV_OBJECT)
            out->u.obj.members[i].value = checked_with_secrets(a, now, was);
        else if (now->kind != PV_SECRET && pv_contains_secret(was))
            out->u.obj.members[i].value = pv_secret(a, now);
    }
    return out;
}

/* An explicit provider's inputs as Pulumi records them (read17 F10): what its plugin's CheckConfig answered
 * this run (a default filled in), the secrets of the inputs given and of its schema kept secret; the inputs
 * given where no plugin was started for it (offline: session_run says so) or its CheckConfig is not
 * implemented (the configuration is then used as given). */
static const pv_t *explicit_provider_inputs(import_session_t *p, const import_plan_item_t *it, const pv_t *given) {
    const pv_t *checked = p->registry ? provider_registry_checked_config_of(p->registry, it->urn) : NULL;
    if (!checked || checked->kind != PV_OBJECT) return given;
    return config_with_schema_secrets(p, it->type + 17, checked_with_secrets(p->arena, checked, given));
}

/* The plan's imported resources as stack-state records (here, beside the stack they go into: the
 * session calls this file, never the other way round). */
stackstate_resource_t *session_stack_resources(import_session_t *p, size_t *n_out) {
    const import_plan_t *plan = p->plan;
    stackstate_resource_t *res = arena_alloc(p->arena, (plan->n_items ? plan->n_items : 1) * sizeof *res);
    size_t n = 0;
    for (size_t i = 0; i < plan->n_items; i++) {
        const import_result_t *r = &p->results[i];
        const import_plan_item_t *it = r->item;
        if (r->status != IMPORT_OK) continue;
        stackstate_resource_t *s = &res[n++];
        memset(s, 0, sizeof *s);
        s->urn = it->urn;
        s->type = it->type;
        s->parent_urn = it->parent_urn;
        s->provider_urn = it->provider_urn;
        s->protect = it->protect;
        s->is_provider = it->is_provider;
        s->custom = !it->is_component;
        s->remote = it->spec && it->spec->remote;
        s->version = it->spec ? it->spec->version : NULL;
        s->plugin_download_url = it->spec ? it->spec->plugin_download_url : NULL;
        if (!it->is_provider && !it->is_component) { /* a read resource: what the provider returned */
            s->id = r->id;
            s->inputs = r->read_inputs;
            s->outputs = r->state;
        } else { /* a provider or a component: the inputs the spec gave, their secrets wrapped */
            s->inputs = r->inputs ? r->inputs : it->spec ? it->spec->inputs : NULL;
            if (it->is_provider) s->inputs = explicit_provider_inputs(p, it, s->inputs);
        }
    }
    *n_out = n;
    return res;
}

/* A package's default provider inputs: what its CheckConfig answered this run (Pulumi records a
 * provider's checked inputs: its registry's Check), else the stack's configuration as given to it. */
static void add_package_config(import_session_t *p, stackstate_package_config_t *out, size_t *n, const char *pkg) {
    for (size_t i = 0; i < *n; i++)
        if (strcmp(out[i].package, pkg) == 0) return;
    const pv_t *given = p->stack_config ? pv_object_get(p->stack_config, pkg) : NULL;
    const pv_t *checked = p->registry ? provider_registry_checked_config(p->registry, pkg) : NULL;
    if (!given && !checked) return;
    const pv_t *cfg = checked ? checked_with_secrets(p->arena, checked, given) : given;
    out[(*n)++] = (stackstate_package_config_t){pkg, config_with_schema_secrets(p, pkg, cfg)};
}

const stackstate_package_config_t *session_stack_config(import_session_t *p, size_t *n) {
    *n = 0;
    const pv_t *c = p->stack_config;
    size_t nc = c && c->kind == PV_OBJECT ? c->u.obj.len : 0, ni = p->plan ? p->plan->n_items : 0;
    if (!nc && !ni) return NULL;
    stackstate_package_config_t *out = arena_alloc(p->arena, (nc + ni) * sizeof *out);
    for (size_t i = 0; i < nc; i++)
        add_package_config(p, out, n, c->u.obj.members[i].key);
    /* a package without stack configuration whose CheckConfig answered with some (a default filled in) */
    for (size_t i = 0; i < ni; i++) {
        const import_plan_item_t *it = &p->plan->items[i];
        const char *colon = strchr(it->type, ':');
        if (it->provider_urn || it->is_provider || !colon) continue;
        add_package_config(p, out, n, arena_strndup(p->arena, it->type, (size_t)(colon - it->type)));
    }
    return *n ? out : NULL;
}

static void on_lock_wait(void *user, const char *holder) {
    import_session_t *p = user;
    if (p->opts->on_event)
        p->opts->on_event(p->opts->user, &(session_event_t){.kind = SESSION_EVENT_STACK_LOCK_WAIT, .holder = holder});
}

bool session_stack_open(import_session_t *p, diag_list_t *diags) {
    const session_options_t *o = p->opts;
    if (!o->into_stack || p->stack_store) return true;
    stack_store_options_t so;
    stack_store_options_default(&so);
    so.lock_timeout_ms = o->lock_wait_ms;
    so.peek = o->preview_only; /* read as the run would find it; no lock taken, nothing written */
    so.on_wait = on_lock_wait;
    so.user = p;
    workspace_t w = *o->into_stack;
    w.stack = p->stack;
    p->stack_store = stack_store_open(&w, p->project, &so, diags);
    return p->stack_store != NULL;
}

bool session_stack_merge(import_session_t *p) {
    stackstate_report_free(&p->stack_report);
    memset(&p->stack_report, 0, sizeof p->stack_report);
    free(p->stack_merged);
    p->stack_merged = NULL;
    if (!p->stack_store || p->n_ok == 0) return false;
    size_t n;
    stackstate_resource_t *res = session_stack_resources(p, &n);
    size_t len;
    const char *text = stack_store_text(p->stack_store, &len);
    stackstate_options_t so;
    stackstate_options_default(&so);
    so.keyring = p->secrets.keyring;                   /* a passphrase stack's secrets are encrypted for it */
    so.config = session_stack_config(p, &so.n_config); /* the default providers' inputs */
    stackstate_report_t *rep = &p->stack_report;
    const char *where = stack_store_location(p->stack_store);
    char *merged = stackstate_merge_text(text, len, where, p->stack, p->project, res, n, &so, rep, &p->diags);
    session_scrub_diags(p, &p->diags); /* the merge's messages name IDs */
    if (merged) session_warn_plaintext_ids(p, rep, where, &p->diags);
    if (!merged) {
        diag_error(&p->diags, DIAG_INPUT, "nothing was written to the stack %s", stack_store_describe(p->stack_store));
        return false;
    }
    if (rep->n_plaintext_secrets > 0) {
        char advice[DIAG_ADVICE_MAX];
        diag_error(&p->diags, DIAG_INPUT,
                   "%zu imported resource%s secret values, and cimport cannot yet encrypt them for this stack's "
                   "secrets provider, so nothing was written to %s (a checkpoint never holds plaintext secrets)%s",
                   rep->n_plaintext_secrets, rep->n_plaintext_secrets == 1 ? " has" : "s have",
                   stack_store_describe(p->stack_store), diag_advice(advice, DIAG_ADVICE_IMPORT_OPTION, NULL));
        free(merged);
        return false;
    }
    /* The result must load as a checkpoint before it replaces the old one. */
    diag_list_t check;
    diag_list_init(&check);
    deployment_t *d = deployment_parse(p->arena, merged, strlen(merged), where, &check);
    if (!d) {
        diag_list_move(&p->diags, &check);
        diag_error(&p->diags, DIAG_INPUT, "the merged checkpoint does not load; nothing was written");
        free(merged);
        return false;
    }
    deployment_free(d);
    diag_list_free(&check);
    /* Imported: the resources added with an ID, as the preview's "= import" lines; a component, the
     * stack and providers are created, not imported. */
    p->stack_n_import = 0;
    for (size_t i = 0; i < rep->n_entries; i++) {
        const stackstate_report_entry_t *e = &rep->entries[i];
        if (e->outcome == STACKSTATE_ADDED && e->id && strncmp(e->type, "pulumi:providers:", 17) != 0)
            p->stack_n_import++;
    }
    p->stack_n_same = rep->n_same;
    if (p->stack_n_import == 0 && rep->n_added == 0)
        free(merged); /* nothing to write */
    else
        p->stack_merged = merged;
    return true;
}

/* The stack write as a participant of the run's transaction (txn_set_participant). */
static bool part_prepare(void *user, diag_list_t *diags) {
    import_session_t *p = user;
    return stack_store_write(p->stack_store, p->stack_merged, strlen(p->stack_merged), p->stack_n_import, diags);
}

static bool part_finish(void *user, diag_list_t *diags) {
    import_session_t *p = user;
    p->stack_written = stack_store_commit(p->stack_store, diags);
    return p->stack_written;
}

static bool part_undo(void *user, diag_list_t *diags) {
    import_session_t *p = user;
    p->stack_undo_failed = !stack_store_undo(p->stack_store, diags);
    return !p->stack_undo_failed;
}

/* session_commit: the stack's participant, when there is something to write (session.c). */
const txn_participant_t *session_stack_participant(import_session_t *p) {
    if (!p->stack_store || !p->stack_merged) return NULL;
    p->stack_part = (txn_participant_t){part_prepare, part_finish, part_undo, p};
    return &p->stack_part;
}

void session_stack_close(import_session_t *p, diag_list_t *diags) {
    if (p->stack_store) stack_store_close(p->stack_store, diags);
    p->stack_store = NULL;
    free(p->stack_merged);
    p->stack_merged = NULL;
    stackstate_report_free(&p->stack_report);
    memset(&p->stack_report, 0, sizeof p->stack_report);
}

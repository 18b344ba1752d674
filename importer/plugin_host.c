/* plugin_host.c — the provider factory that finds, downloads, launches and attaches to provider
 * plugins, and the provider_t wrapper that reports crashes and restarts them (see plugin_host.h). */
#define _GNU_SOURCE
#include "importer/plugin_host.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/vec.h"
#include "importer/engine_endpoint.h"
#include "importer/grpc_provider.h"
#include "specs/importfile.h"
#include "specs/passphrase.h"
#include "specs/stackstate.h"

typedef struct attach_entry {
    const char *pkg;
    int port;
} attach_entry_t;

typedef struct hprov hprov_t;
typedef struct hcall hcall_t;

struct plugin_host {
    arena_t *arena; /* copies of the options */
    plugin_host_options_t o;
    grpc_loop_t *loop;
    engine_endpoint_t *endpoint;
    attach_entry_t *attach;
    size_t n_attach, cap_attach;
    /* Where Log messages of the call running go, and whose call it is. */
    diag_list_t *current_diags;
    const char *current_pkg;
    hcall_t *in_flight; /* asynchronous calls running, for routing Log messages by URN */
    hprov_t *live;      /* providers not yet closed (for plugin_host_free) */
};

/* A provider handed out by the factory: the gRPC provider plus the process behind it. */
struct hprov {
    provider_t base;
    plugin_host_t *host;
    arena_t *arena;
    const char *name;    /* "the random provider" */
    const char *path;    /* executable; NULL when attached */
    const char *version; /* version asked for (may be NULL) */
    const char *urn;     /* the provider resource's URN (CheckConfig's and Configure's) */
    const pv_t *config;
    int attach_port;      /* > 0: attached, never launched */
    provider_t *inner;    /* NULL after a crash until restarted */
    plugin_proc_t *proc;  /* NULL when attached */
    unsigned generation;  /* counts processes started; a call knows which one it ran on */
    provider_t **retired; /* gRPC providers of crashed processes, closed with the wrapper */
    size_t n_retired, cap_retired;
    schema_package_t *schema;   /* the first schema fetched, kept across restarts */
    bool schema_refused;        /* GetSchema failed on a live process (a deadline, a stop, an error): not
                                 * asked again, each later resource fails at once */
    const char *schema_refusal; /* why, as the failed call said it (its errors), for each later asker:
                                 * the first may be one whose diagnostics nobody reports (the schema
                                 * of a declared provider's own inputs) */
    int restarts;
    const char *last_crash;        /* why the last process ended, short */
    const char *last_crash_report; /* the full report with its stderr */
    hcall_t *ready, *ready_tail;   /* completed asynchronous calls waiting for the poll op */
    hprov_t *next;
};

static const provider_ops_t HOST_OPS;

void plugin_host_options_default(plugin_host_options_t *o) {
    memset(o, 0, sizeof *o);
    o->download = true;
    o->port_timeout_ms = 30000;
    o->call_timeout_ms = 300000;
    o->start_timeout_ms = 60000;
    o->schema_timeout_ms = 300000;
    o->grace_ms = 5000;
    o->max_restarts = 2;
    o->stack = "cimport";
    o->project = "cimport";
}

grpc_loop_t *plugin_host_loop(const plugin_host_t *h) {
    return h->loop;
}
const char *plugin_host_engine_address(const plugin_host_t *h) {
    return engine_endpoint_address(h->endpoint);
}
void plugin_host_install_stop_handlers(volatile sig_atomic_t *flag) {
    plugin_install_stop_handlers(flag);
}

void plugin_host_kill_all(void) {
    plugin_kill_all();
}

void plugin_host_install_signal_handlers(void) {
    plugin_install_signal_handlers();
}

pid_t plugin_host_provider_pid(const provider_t *p) {
    if (!p || p->ops != &HOST_OPS) return 0;
    const hprov_t *h = (const hprov_t *)p;
    return h->proc ? plugin_proc_pid(h->proc) : 0;
}

int plugin_host_provider_port(const provider_t *p) {
    if (!p || p->ops != &HOST_OPS) return 0;
    const hprov_t *h = (const hprov_t *)p;
    if (h->attach_port > 0) return h->attach_port;
    return h->proc ? plugin_proc_port(h->proc) : 0;
}

static diag_list_t *in_flight_diags(const plugin_host_t *h, const char *urn, const char **pkg);

static void on_log(void *user, const char *urn, const diag_t *d, bool status) {
    plugin_host_t *h = user;
    const char *pkg = h->current_pkg;
    diag_list_t *to = h->current_diags ? h->current_diags : in_flight_diags(h, urn, &pkg);
    if (to) engine_log_to_list(to, urn, d, status);
    if (h->o.log) h->o.log(h->o.log_user, pkg, urn, d, status);
}

/* --- attach entries ------------------------------------------------------------------------------ */

static bool parse_port_text(const char *s, int *port) {
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 5) return false;
    long v = strtol(s, NULL, 10); /* at most 5 digits: no overflow */
    *port = (int)v;
    return v >= 1 && v <= 65535;
}

static bool add_attach(plugin_host_t *h, const char *text, char sep, const char *where, diag_list_t *diags) {
    const char *cut = strchr(text, sep);
    int port = 0;
    if (!cut || cut == text || !parse_port_text(cut + 1, &port)) {
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, NULL, NULL,
                 "%s entry '%s' is not PACKAGE%cPORT (a port 1-65535), e.g. random%c50051", where, text, sep, sep);
        return false;
    }
    h->attach = arena_grow_array(h->arena, h->attach, &h->cap_attach, h->n_attach + 1, sizeof *h->attach);
    h->attach[h->n_attach].pkg = arena_strndup(h->arena, text, (size_t)(cut - text));
    h->attach[h->n_attach].port = port;
    h->n_attach++;
    return true;
}

static const char *const *copy_strv(arena_t *a, const char *const *v, size_t n) {
    if (!n) return NULL;
    const char **out = arena_alloc(a, n * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = arena_strdup(a, v[i]);
    return out;
}

plugin_host_t *plugin_host_new(const plugin_host_options_t *o, diag_list_t *diags) {
    plugin_host_t *h = calloc(1, sizeof *h);
    if (!h) abort();
    h->arena = arena_new();
    plugin_host_options_default(&h->o);
    if (o) h->o = *o;
    plugin_host_options_t d;
    plugin_host_options_default(&d);
    if (h->o.port_timeout_ms <= 0) h->o.port_timeout_ms = d.port_timeout_ms;
    if (h->o.call_timeout_ms <= 0) h->o.call_timeout_ms = d.call_timeout_ms;
    if (h->o.start_timeout_ms <= 0) h->o.start_timeout_ms = d.start_timeout_ms;
    if (h->o.schema_timeout_ms <= 0) h->o.schema_timeout_ms = d.schema_timeout_ms;
    if (h->o.grace_ms < 0) h->o.grace_ms = d.grace_ms;
    if (h->o.max_restarts < 0) h->o.max_restarts = 0;
    if (!h->o.stack) h->o.stack = d.stack;
    if (!h->o.project) h->o.project = d.project;
    arena_t *a = h->arena;
    h->o.project_dir = h->o.project_dir ? arena_strdup(a, h->o.project_dir) : NULL;
    h->o.pulumi_home = h->o.pulumi_home ? arena_strdup(a, h->o.pulumi_home) : NULL;
    h->o.stack = arena_strdup(a, h->o.stack);
    h->o.project = arena_strdup(a, h->o.project);
    h->o.schema_cache_dir = h->o.schema_cache_dir ? arena_strdup(a, h->o.schema_cache_dir) : NULL;
    h->o.plugin_dirs = copy_strv(a, h->o.plugin_dirs, h->o.n_plugin_dirs);
    h->o.config = h->o.config ? pv_clone(a, h->o.config) : NULL;
    h->o.recorded = h->o.recorded ? pv_clone(a, h->o.recorded) : NULL;
    h->o.attach = NULL;

    bool ok = true;
    for (size_t i = 0; o && i < o->n_attach; i++)
        ok = add_attach(h, o->attach[i], '=', "--attach", diags) && ok;
    const char *env = h->o.ignore_debug_env ? NULL : getenv("PULUMI_DEBUG_PROVIDERS");
    if (env && *env) {
        char *copy = arena_strdup(a, env);
        for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            while (isspace((unsigned char)*tok))
                tok++;
            if (*tok) ok = add_attach(h, tok, ':', "PULUMI_DEBUG_PROVIDERS", diags) && ok;
        }
    }
    if (!ok) {
        plugin_host_free(h);
        return NULL;
    }
    h->loop = grpc_loop_new();
    h->endpoint = engine_endpoint_start(h->loop, 0, on_log, h, diags);
    if (!h->endpoint) {
        plugin_host_free(h);
        return NULL;
    }
    return h;
}

/* --- process lifecycle --------------------------------------------------------------------------- */

static void grpc_opts(const hprov_t *p, grpc_provider_options_t *g) {
    grpc_provider_options_default(g);
    g->loop = p->host->loop;
    g->endpoint = p->host->endpoint;
    g->call_timeout_ms = p->host->o.call_timeout_ms;
    g->start_timeout_ms = p->host->o.start_timeout_ms;
    g->schema_timeout_ms = p->host->o.schema_timeout_ms;
    g->stop = p->host->o.stop;
    g->cache_dir = p->host->o.schema_cache_dir;
    g->no_schema_cache = p->host->o.no_schema_cache;
    g->stack = p->host->o.stack;
    g->project = p->host->o.project;
    g->provider_urn = p->urn;
    const pv_t *rec = p->host->o.recorded;
    g->olds = rec && rec->kind == PV_OBJECT ? pv_object_get(rec, p->urn) : NULL;
}

/* Launches the plugin and attaches to it (runs the loop: never from a completion callback). */
static bool start_process(hprov_t *p, diag_list_t *diags) {
    plugin_host_t *h = p->host;
    const char *args[1] = {engine_endpoint_address(h->endpoint)};
    plugin_launch_options_t lo = {0};
    lo.cwd = h->o.project_dir;
    lo.args = args;
    lo.n_args = 1;
    lo.port_timeout_ms = h->o.port_timeout_ms;
    lo.stop = h->o.stop;
    diag_list_t *saved = h->current_diags;
    const char *saved_pkg = h->current_pkg;
    h->current_diags = diags;
    h->current_pkg = p->base.package;
    p->proc = plugin_launch(h->loop, p->path, p->name, &lo, diags);
    if (p->proc) {
        grpc_provider_options_t g;
        grpc_opts(p, &g);
        g.plugin_path = p->path; /* the schema cache keys its entry by the executable */
        size_t errs = diags ? diags->errors : 0;
        p->inner =
            grpc_provider_attach_with(p->base.package, p->version, plugin_proc_port(p->proc), p->config, &g, diags);
        if (!p->inner) {
            const char *how = NULL;
            arena_t *a = arena_new();
            if (plugin_proc_exited(p->proc, &how))
                diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL,
                         "%s (%s) %s while starting up; its last output on stderr:\n%s", p->name, p->path, how,
                         plugin_proc_stderr_tail(p->proc, a));
            else if (diags && diags->errors == errs)
                diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "%s (%s) could not be configured", p->name,
                         p->path);
            arena_free(a);
            plugin_stop(p->proc, h->o.grace_ms);
            p->proc = NULL;
        }
    }
    h->current_diags = saved;
    h->current_pkg = saved_pkg;
    if (p->inner) p->generation++;
    return p->inner != NULL;
}

/* The provider is usable, restarting a crashed plugin when restarts are left. Runs the loop when it
 * restarts: callers are the operations, which the engine starts outside of completion callbacks. */
static bool ensure_running(hprov_t *p, const char *resource, diag_list_t *diags) {
    if (p->inner) return true;
    if (p->attach_port > 0 || p->restarts >= p->host->o.max_restarts) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, resource, "%s is not running (%s)%s", p->name,
                 p->last_crash ? p->last_crash : "it stopped",
                 p->attach_port > 0 ? "; restart it and attach again" : "; it was restarted as often as allowed");
        return false;
    }
    p->restarts++;
    diag_list_t local;
    diag_list_init(&local);
    bool ok = start_process(p, &local);
    if (!ok)
        for (diag_t *d = local.head; d; d = d->next)
            diag_add(diags, d->severity, d->code, d->file, resource, "restarting %s failed: %s", p->name, d->message);
    diag_list_free(&local);
    return ok;
}

/* Retires the current provider and stops its process. The gRPC provider is kept (closed only when the
 * wrapper is) because the engine may still hold its schema and calls may still complete on it. */
static void retire_inner(hprov_t *p) {
    if (p->inner) {
        p->retired = vec_grow(p->retired, &p->cap_retired, p->n_retired + 1, sizeof(provider_t *));
        p->retired[p->n_retired++] = p->inner;
    }
    p->inner = NULL;
    if (p->proc) plugin_stop(p->proc, p->host->o.grace_ms);
    p->proc = NULL;
}

/* Whether something accepts connections on 127.0.0.1:port (a plugin that is exiting has closed its
 * listener even when the connection in use looked fine a moment ago). */
static bool port_accepts(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return true;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0 || errno != ECONNREFUSED;
    close(fd);
    return ok;
}

/* Whether the call failed because the connection broke (grpc_provider.c reports those as UNAVAILABLE):
 * Node closes its connections some tens of milliseconds before its process can be seen to exit, so
 * such a failure is worth waiting for the exit; ordinary errors are not. */
static bool transport_failure(const diag_list_t *diags) {
    for (const diag_t *d = diags ? diags->head : NULL; d; d = d->next)
        if (d->code == DIAG_PROVIDER && strstr(d->message, " failed (UNAVAILABLE): ")) return true;
    return false;
}

static int plugin_host_timeout_for(const plugin_host_options_t *o, const char *method) {
    grpc_provider_options_t g = {.call_timeout_ms = o->call_timeout_ms,
                                 .start_timeout_ms = o->start_timeout_ms,
                                 .schema_timeout_ms = o->schema_timeout_ms};
    return grpc_provider_timeout_for(&g, method);
}

/* After a failed call (never from a completion callback: it may run the loop and stop the process).
 * A dead plugin is reported with its stderr and retired (the next call restarts it); a call that ran
 * into the deadline is said to have. `generation` is the process the call ran on. */
static void after_failure(hprov_t *p, const char *method, const char *resource, int64_t started, unsigned generation,
                          diag_list_t *diags) {
    if (generation != p->generation || !p->inner) {
        /* The process the call ran on is already gone and was reported; say why here too. */
        if (p->last_crash_report)
            diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, resource, "%s", p->last_crash_report);
        return;
    }
    arena_t *a = arena_new();
    const char *how = NULL;
    bool dead = false;
    if (p->proc) {
        /* A crashing process closes its connection and pipes a moment before it can be reaped: wait
         * for that moment only when one of them is closed, so ordinary errors cost nothing. */
        int64_t until = grpc_now_ms() + 1000;
        bool lost = transport_failure(diags);
        while (!(dead = plugin_proc_exited(p->proc, &how)) && grpc_now_ms() < until &&
               (lost || plugin_proc_output_closed(p->proc) || !grpc_conn_usable(grpc_provider_conn(p->inner)) ||
                !port_accepts(plugin_proc_port(p->proc)))) {
            struct timespec ts = {0, 10L * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    if (dead) {
        const char *tail = plugin_proc_stderr_tail(p->proc, a);
        p->last_crash = arena_sprintf(p->arena, "it %s during %s", how, method);
        p->last_crash_report =
            arena_sprintf(p->arena, "%s (%s, pid %d) %s during %s; its last output on stderr:\n%s", p->name, p->path,
                          (int)plugin_proc_pid(p->proc), how, method, *tail ? tail : "    (nothing)");
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, resource, "%s", p->last_crash_report);
        retire_inner(p);
    } else if (grpc_now_ms() - started >= plugin_host_timeout_for(&p->host->o, method) - 50) {
        /* One message per failure: the transport's "failed (DEADLINE_EXCEEDED)" is replaced by this. */
        diag_t *last = diags ? diags->tail : NULL;
        char advice[DIAG_ADVICE_MAX];
        /* Read, Check and Diff have the call deadline; the plugin's start, handshake and schema theirs */
        bool call = strcmp(method, "Read") == 0 || strcmp(method, "Check") == 0 || strcmp(method, "Diff") == 0;
        diag_advice(advice, call ? DIAG_ADVICE_DEADLINE : DIAG_ADVICE_START_DEADLINE, method);
        if (last && last->code == DIAG_PROVIDER && strstr(last->message, "(DEADLINE_EXCEEDED)"))
            last->message = arena_sprintf(diags->arena,
                                          "%s did not answer %s within its %d ms deadline (%lld ms elapsed); the call "
                                          "was cancelled and the other resources went on. The provider may be "
                                          "stuck; a slow cloud API can need a longer deadline%s",
                                          p->name, method, plugin_host_timeout_for(&p->host->o, method),
                                          (long long)(grpc_now_ms() - started), advice);
        else
            diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, resource,
                     "%s did not answer %s within its %d ms deadline (%lld ms elapsed); the call was cancelled and the "
                     "other resources went on. The provider may be stuck; a slow cloud API can need a longer "
                     "deadline%s",
                     p->name, method, plugin_host_timeout_for(&p->host->o, method),
                     (long long)(grpc_now_ms() - started), advice);
    } else if (p->attach_port > 0 && !grpc_conn_usable(grpc_provider_conn(p->inner))) {
        p->last_crash = arena_sprintf(p->arena, "the connection to port %d was lost", p->attach_port);
    }
    arena_free(a);
}

/* --- schema and configuration (blocking) ------------------------------------------------------- */

static void begin_call(hprov_t *p, diag_list_t *diags) {
    p->host->current_diags = diags;
    p->host->current_pkg = p->base.package;
}

static void end_call(hprov_t *p) {
    p->host->current_diags = NULL;
    p->host->current_pkg = NULL;
}

static schema_package_t *op_get_schema(provider_t *base, diag_list_t *diags) {
    hprov_t *p = (hprov_t *)base;
    /* One schema per provider for the whole run, whatever restarts happen. */
    if (p->schema) return p->schema;
    if (p->schema_refused) {
        /* asked once on this process already: a hung GetSchema would hold every resource its deadline */
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "%s gave no schema when asked for it: %s", p->name,
                 p->schema_refusal);
        return NULL;
    }
    if (!ensure_running(p, NULL, diags)) return NULL;
    int64_t t0 = grpc_now_ms();
    unsigned gen = p->generation;
    diag_t *before = diags ? diags->tail : NULL;
    begin_call(p, diags);
    p->schema = p->inner->ops->get_schema(p->inner, diags);
    end_call(p);
    if (!p->schema) after_failure(p, "GetSchema", NULL, t0, gen, diags);
    /* a crash retired the process (a restart asks again); a live one that gave none is not asked again */
    if (!p->schema && p->inner && gen == p->generation) {
        p->schema_refused = true;
        buf_t why;
        buf_init(&why);
        size_t nl = strlen(p->name);
        for (const diag_t *d = before ? before->next : diags ? diags->head : NULL; d; d = d->next) {
            if (d->severity != DIAG_ERROR) continue;
            /* "NAME did not answer ..." reads "it did not answer ..." after "NAME gave no schema: " */
            bool named = strncmp(d->message, p->name, nl) == 0 && d->message[nl] == ' ';
            buf_printf(&why, "%s%s%s", why.len ? "; " : "", named ? "it" : "", named ? d->message + nl : d->message);
        }
        p->schema_refusal = arena_strdup(p->arena, why.len ? why.data : "it answered with an error");
        buf_free(&why);
    }
    return p->schema;
}

static bool op_configure(provider_t *base, const pv_t *config, diag_list_t *diags) {
    hprov_t *p = (hprov_t *)base;
    if (!ensure_running(p, NULL, diags)) return false;
    int64_t t0 = grpc_now_ms();
    unsigned gen = p->generation;
    begin_call(p, diags);
    bool ok = p->inner->ops->configure(p->inner, config, diags);
    end_call(p);
    if (ok) p->config = config ? pv_clone(p->arena, config) : NULL; /* a restart configures the same way */
    if (!ok) after_failure(p, "Configure", NULL, t0, gen, diags);
    return ok;
}

/* --- Read, Check and Diff ---------------------------------------------------------------------- *
 * Forwarded to the gRPC provider's, so calls of many resources run at once on the one connection.
 * The wrapper's completion only queues the outcome (a completion callback must not run the loop or
 * stop processes); the poll op then does the crash/deadline reporting and calls the engine's `done`.
 * Calls in flight are listed on the host, so Log messages find their resource by URN. */

struct hcall {
    hprov_t *p;
    const char *method, *urn;
    arena_t *a; /* the caller's, for the failure's description */
    int64_t started;
    unsigned generation;
    bool ok;
    diag_list_t *diags;
    provider_done_fn done;
    void *user;
    struct hcall *next; /* in the host's in-flight list, then in the provider's ready queue */
};

/* The diagnostics of the call in flight about `urn`; NULL when there is none (the message then only
 * reaches the log callback). */
static diag_list_t *in_flight_diags(const plugin_host_t *h, const char *urn, const char **pkg) {
    for (const hcall_t *c = h->in_flight; c && urn && *urn; c = c->next)
        if (strcmp(c->urn, urn) == 0) {
            *pkg = c->p->base.package;
            return c->diags;
        }
    return NULL;
}

static void hcall_unlink_flight(plugin_host_t *h, hcall_t *c) {
    for (hcall_t **pp = &h->in_flight; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    c->next = NULL;
}

static void hcall_queue_ready(hprov_t *p, hcall_t *c) {
    c->next = NULL;
    if (p->ready_tail)
        p->ready_tail->next = c;
    else
        p->ready = c;
    p->ready_tail = c;
}

static void hcall_inner_done(void *user, bool ok) {
    hcall_t *c = user;
    hcall_unlink_flight(c->p->host, c);
    c->ok = ok;
    hcall_queue_ready(c->p, c);
}

/* A new call: registered in flight, or queued as failed at once when the plugin cannot run. */
static hcall_t *hcall_begin(hprov_t *p, const char *method, arena_t *a, const char *urn, diag_list_t *diags,
                            provider_done_fn done, void *user) {
    hcall_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->p = p;
    c->method = method;
    c->a = a;
    c->urn = urn; /* valid until done (provider.h); the description is only made for a failure */
    c->diags = diags;
    c->done = done;
    c->user = user;
    if (!p->inner && !ensure_running(p, engine_urn_describe(a, urn), diags)) { /* describe only on the slow path */
        c->ok = false;
        c->generation = 0; /* nothing ran: nothing to diagnose */
        c->method = NULL;
        hcall_queue_ready(p, c);
        return NULL;
    }
    c->started = grpc_now_ms();
    c->generation = p->generation;
    c->next = p->host->in_flight;
    p->host->in_flight = c;
    return c;
}

static void op_read_async(provider_t *base, const char *urn, const char *id, const pv_t *inputs, const pv_t *state,
                          arena_t *a, provider_read_result_t *out, diag_list_t *diags, provider_done_fn done,
                          void *user) {
    hprov_t *p = (hprov_t *)base;
    memset(out, 0, sizeof *out);
    hcall_t *c = hcall_begin(p, "Read", a, urn, diags, done, user);
    if (c) p->inner->ops->read_async(p->inner, urn, id, inputs, state, a, out, diags, hcall_inner_done, c);
}

static void op_check_async(provider_t *base, const char *urn, const pv_t *olds, const pv_t *news,
                           const unsigned char *seed, size_t seed_len, arena_t *a, provider_check_result_t *out,
                           diag_list_t *diags, provider_done_fn done, void *user) {
    hprov_t *p = (hprov_t *)base;
    memset(out, 0, sizeof *out);
    hcall_t *c = hcall_begin(p, "Check", a, urn, diags, done, user);
    if (c) p->inner->ops->check_async(p->inner, urn, olds, news, seed, seed_len, a, out, diags, hcall_inner_done, c);
}

static void op_diff_async(provider_t *base, const char *urn, const char *id, const pv_t *old_state,
                          const pv_t *old_inputs, const pv_t *news, arena_t *a, provider_diff_result_t *out,
                          diag_list_t *diags, provider_done_fn done, void *user) {
    hprov_t *p = (hprov_t *)base;
    memset(out, 0, sizeof *out);
    hcall_t *c = hcall_begin(p, "Diff", a, urn, diags, done, user);
    if (c)
        p->inner->ops->diff_async(p->inner, urn, id, old_state, old_inputs, news, a, out, diags, hcall_inner_done, c);
}

static size_t op_poll(provider_t *base) {
    hprov_t *p = (hprov_t *)base;
    size_t ran = 0;
    /* The gRPC providers' own deferred completions land in our ready queue. */
    if (p->inner && p->inner->ops->poll) p->inner->ops->poll(p->inner);
    for (size_t i = 0; i < p->n_retired; i++)
        if (p->retired[i]->ops->poll) p->retired[i]->ops->poll(p->retired[i]);
    while (p->ready) {
        hcall_t *c = p->ready;
        p->ready = c->next;
        if (!p->ready) p->ready_tail = NULL;
        if (!c->ok && c->method)
            after_failure(p, c->method, engine_urn_describe(c->a, c->urn), c->started, c->generation, c->diags);
        provider_done_fn done = c->done;
        void *user = c->user;
        bool ok = c->ok;
        free(c);
        done(user, ok);
        ran++;
    }
    return ran;
}

static struct grpc_loop *op_event_loop(provider_t *base) {
    return ((hprov_t *)base)->host->loop;
}

static void op_close(provider_t *base) {
    hprov_t *p = (hprov_t *)base;
    /* Closing the gRPC providers completes their calls still running (with CANCELLED) and sends
     * Cancel; the process is stopped after that. */
    if (p->inner) {
        p->inner->ops->close(p->inner);
        p->inner = NULL;
    }
    for (size_t i = 0; i < p->n_retired; i++)
        p->retired[i]->ops->close(p->retired[i]);
    free(p->retired);
    if (p->proc) plugin_stop(p->proc, p->host->o.grace_ms);
    p->proc = NULL;
    while (p->ready) { /* every call completes, as promised, before the provider goes */
        hcall_t *c = p->ready;
        p->ready = c->next;
        provider_done_fn done = c->done;
        void *user = c->user;
        free(c);
        done(user, false);
    }
    for (hprov_t **pp = &p->host->live; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    arena_free(p->arena);
    free(p);
}

/* The gRPC providers' calls complete as cancelled into our ready queue; op_poll hands them on. */
/* The plugin's process now, else the last one that ended (a crash, its restart failed): it was configured
 * with the same configuration. */
static const pv_t *op_checked_config(provider_t *base) {
    hprov_t *p = (hprov_t *)base;
    provider_t *in = p->inner ? p->inner : p->n_retired ? p->retired[p->n_retired - 1] : NULL;
    return in && in->ops->checked_config ? in->ops->checked_config(in) : NULL;
}

static void op_cancel_all(provider_t *base) {
    hprov_t *p = (hprov_t *)base;
    if (p->inner && p->inner->ops->cancel_all) p->inner->ops->cancel_all(p->inner);
    for (size_t i = 0; i < p->n_retired; i++)
        if (p->retired[i]->ops->cancel_all) p->retired[i]->ops->cancel_all(p->retired[i]);
}

static const provider_ops_t HOST_OPS = {
    .get_schema = op_get_schema,
    .configure = op_configure,
    .read_async = op_read_async,
    .check_async = op_check_async,
    .diff_async = op_diff_async,
    .poll = op_poll,
    .event_loop = op_event_loop,
    .cancel_all = op_cancel_all,
    .close = op_close,
    .checked_config = op_checked_config,
};

/* --- the factory --------------------------------------------------------------------------------- */

/* download_url: for a default provider's name; urn: an explicit provider's (NULL: the default's). */
static hprov_t *hprov_new(plugin_host_t *h, const char *pkg, const char *version, const char *download_url,
                          const char *urn) {
    hprov_t *p = calloc(1, sizeof *p);
    if (!p) abort();
    p->host = h;
    p->arena = arena_new();
    p->base.ops = &HOST_OPS;
    p->base.package = arena_strdup(p->arena, pkg);
    p->base.version = version && *version ? arena_strdup(p->arena, version) : NULL;
    p->base.impl = p;
    p->version = p->base.version;
    p->name = arena_sprintf(p->arena, "the %s provider", pkg);
    const pv_t *cfg = h->o.config && h->o.config->kind == PV_OBJECT ? pv_object_get(h->o.config, pkg) : NULL;
    p->config = cfg ? pv_clone(p->arena, cfg) : NULL;
    p->urn = urn ? arena_strdup(p->arena, urn)
                 : arena_sprintf(p->arena, "urn:pulumi:%s::%s::pulumi:providers:%s::%s", h->o.stack, h->o.project, pkg,
                                 stackstate_default_provider_name(p->arena, version, download_url));
    return p;
}

static provider_t *hprov_publish(hprov_t *p) {
    p->next = p->host->live;
    p->host->live = p;
    return &p->base;
}

static provider_t *factory_attach(plugin_host_t *h, hprov_t *p, int port, diag_list_t *diags) {
    grpc_provider_options_t g;
    grpc_opts(p, &g);
    g.send_attach = true;
    p->attach_port = port;
    h->current_diags = diags;
    h->current_pkg = p->base.package;
    size_t errs = diags ? diags->errors : 0;
    p->inner = grpc_provider_attach_with(p->base.package, p->version, port, p->config, &g, diags);
    h->current_diags = NULL;
    h->current_pkg = NULL;
    if (!p->inner) {
        if (diags && diags->errors == errs)
            diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "cannot attach to %s on port %d", p->name, port);
        arena_free(p->arena);
        free(p);
        return NULL;
    }
    return hprov_publish(p);
}

static void warn_version(hprov_t *p, const plugin_location_t *loc, diag_list_t *diags) {
    if (!p->version) return;
    const char *have = loc->version ? loc->version : grpc_provider_plugin_version(p->inner);
    plugin_semver_t hv, wv;
    if (!have || !*have || !plugin_semver_parse(have, &hv) || !plugin_semver_parse(p->version, &wv)) return;
    if (!plugin_semver_compatible(&hv, &wv))
        diag_add(diags, DIAG_WARNING, DIAG_PROVIDER, NULL, NULL,
                 "using %s from %s (%s), which reports version %s although %s was asked for", p->name, loc->origin,
                 loc->path, have, p->version);
}

static provider_t *factory_start(plugin_host_t *h, hprov_t *p, const char *pkg, const char *version,
                                 const char *download_url, diag_list_t *diags);

/* The port of the running plugin `--attach pkg=PORT` names for pkg, or -1. */
static int attached_port(const plugin_host_t *h, const char *pkg) {
    for (size_t i = 0; i < h->n_attach; i++)
        if (strcmp(h->attach[i].pkg, pkg) == 0) return h->attach[i].port;
    return -1;
}

provider_t *plugin_host_factory(void *host, const char *pkg, const char *version, const char *download_url,
                                diag_list_t *diags) {
    plugin_host_t *h = host;
    return factory_start(h, hprov_new(h, pkg, version, download_url, NULL), pkg, version, download_url, diags);
}

provider_t *plugin_host_configured_factory(void *host, const char *pkg, const char *version, const char *download_url,
                                           const char *name, const pv_t *config, diag_list_t *diags) {
    plugin_host_t *h = host;
    arena_t *a = arena_new();
    const char *short_name = urn_is_valid(name) ? urn_name(a, name) : name;
    if (!config) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL,
                 "its provider '%s' is not in the import file, so cimport does not know that provider's "
                 "configuration and would read the resource with the %s package's default configuration instead: add "
                 "the provider to the import file (type pulumi:providers:%s, its name and its inputs) and refer to it "
                 "by that name",
                 short_name, pkg, pkg);
        arena_free(a);
        return NULL;
    }
    int port = attached_port(h, pkg);
    if (port >= 0) {
        /* one running plugin takes one configuration: configuring it again for this provider would
         * change what the default provider's resources are read with */
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL,
                 "its provider '%s' has its own configuration, but the %s plugin is one that is attached to "
                 "(port %d), which runs the default provider's: import the resources under '%s' in a run "
                 "that starts the plugin itself",
                 short_name, pkg, port, short_name);
        arena_free(a);
        return NULL;
    }
    /* its URN: the one the import file or stack gives, else its name's in this stack and project */
    const char *urn = urn_is_valid(name) ? name
                                         : arena_sprintf(a, "urn:pulumi:%s::%s::pulumi:providers:%s::%s", h->o.stack,
                                                         h->o.project, pkg, name);
    hprov_t *p = hprov_new(h, pkg, version, download_url, urn);
    p->name = arena_sprintf(p->arena, "the %s provider '%s'", pkg, short_name);
    /* the engine's own key of a provider's state is no configuration (Pulumi's filterProviderConfig) */
    pv_t *own = pv_object(p->arena);
    for (size_t i = 0; config->kind == PV_OBJECT && i < config->u.obj.len; i++)
        if (strcmp(config->u.obj.members[i].key, "__internal") != 0)
            pv_object_set(p->arena, own, config->u.obj.members[i].key,
                          pv_clone(p->arena, config->u.obj.members[i].value));
    p->config = own;
    arena_free(a);
    return factory_start(h, p, pkg, version, download_url, diags);
}

/* Finds, launches and configures p's plugin (or attaches to it), publishing p; NULL (p freed) on failure. */
static provider_t *factory_start(plugin_host_t *h, hprov_t *p, const char *pkg, const char *version,
                                 const char *download_url, diag_list_t *diags) {
    int port = attached_port(h, pkg);
    if (port >= 0) return factory_attach(h, p, port, diags);

    arena_t *a = arena_new();
    plugin_search_t s = {0};
    s.project_dir = h->o.project_dir;
    s.dirs = h->o.plugin_dirs;
    s.n_dirs = h->o.n_plugin_dirs;
    s.pulumi_home = h->o.pulumi_home;
    const char *ign = getenv("PULUMI_IGNORE_AMBIENT_PLUGINS");
    s.ignore_ambient = ign && *ign && strcmp(ign, "0") != 0 && strcmp(ign, "false") != 0;
    buf_t looked;
    buf_init(&looked);
    plugin_location_t loc;
    bool found = plugin_find(a, &s, pkg, version, &loc, &looked, diags);
    if (!found) {
        const char *why;
        diag_list_t dl;
        diag_list_init(&dl);
        if (!h->o.download)
            why = "downloading plugins is turned off";
        else if (!version)
            why = "it cannot be downloaded without a version (give the resource's `version` in the import file)";
        else if (plugin_download(a, h->o.pulumi_home, pkg, version, download_url, h->o.progress, h->o.progress_user,
                                 &loc, &dl))
            found = true, why = NULL;
        else
            why = arena_strdup(a, dl.head ? dl.head->message : "the download failed");
        diag_list_free(&dl);
        if (!found) {
            const char *v = version ? (version[0] == 'v' ? version + 1 : version) : NULL;
            char advice[DIAG_ADVICE_MAX]; /* the front end's way to attach to a running provider */
            diag_advice(advice, DIAG_ADVICE_ATTACH, pkg);
            diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL,
                     "no plugin for package '%s'%s%s was found. Looked in:\n%s%s. Install it with `pulumi plugin "
                     "install resource %s%s%s`%s pulumi-resource-%s on $PATH%s",
                     pkg, v ? " version " : "", v ? v : "", looked.data ? looked.data : "", why, pkg, v ? " " : "",
                     v ? v : "", advice[0] ? ", put" : " or put", pkg, advice);
            buf_free(&looked);
            arena_free(a);
            arena_free(p->arena);
            free(p);
            return NULL;
        }
    }
    buf_free(&looked);
    p->path = arena_strdup(p->arena, loc.path);
    if (!start_process(p, diags)) {
        arena_free(a);
        arena_free(p->arena);
        free(p);
        return NULL;
    }
    warn_version(p, &loc, diags);
    arena_free(a);
    return hprov_publish(p);
}

void plugin_host_free(plugin_host_t *h) {
    if (!h) return;
    /* op_close unlinks each provider from h->live; the next one is read before it goes. */
    for (hprov_t *p = h->live, *next; p; p = next) {
        next = p->next;
        op_close(&p->base);
    }
    engine_endpoint_free(h->endpoint);
    if (h->loop) grpc_loop_free(h->loop);
    arena_free(h->arena);
    free(h);
}

/* --- provider configuration ---------------------------------------------------------------------- */

static pv_t *config_for(arena_t *a, pv_t *config, const char *pkg) {
    pv_t *obj = pv_object_get(config, pkg);
    if (!obj || obj->kind != PV_OBJECT) {
        obj = pv_object(a);
        pv_object_set(a, config, pkg, obj);
    }
    return obj;
}

/* A JSON string as Go's encoding/json writes it (Pulumi keeps an object or list config value so):
 * `<`, `>`, `&`, U+2028 and U+2029 escaped too. */
static void config_json_string(buf_t *b, const char *s, size_t len) {
    buf_putc(b, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            buf_printf(b, "\\%c", c);
        else if (c == '\n')
            buf_puts(b, "\\n");
        else if (c == '\r')
            buf_puts(b, "\\r");
        else if (c == '\t')
            buf_puts(b, "\\t");
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            buf_printf(b, "\\u%04x", c);
        else if (c == 0xe2 && i + 2 < len && (unsigned char)s[i + 1] == 0x80 &&
                 ((unsigned char)s[i + 2] == 0xa8 || (unsigned char)s[i + 2] == 0xa9)) {
            buf_printf(b, "\\u%04x", (unsigned)((unsigned char)s[i + 2] == 0xa8 ? 0x2028 : 0x2029));
            i += 2;
        } else
            buf_putc(b, (char)c);
    }
    buf_putc(b, '"');
}

static int member_key_cmp(const void *x, const void *y) {
    return strcmp(((const pv_member_t *)x)->key, ((const pv_member_t *)y)->key);
}

/* Compact JSON with an object's keys sorted, as Go marshals a map. */
static void config_json(arena_t *a, buf_t *b, const pv_t *v) {
    v = pv_unwrap(v);
    switch (v ? v->kind : PV_NULL) {
    case PV_BOOL: buf_puts(b, v->u.b ? "true" : "false"); break;
    case PV_NUMBER: pv_format_number_js(b, v->u.n); break;
    case PV_STRING: config_json_string(b, v->u.str.s, v->u.str.len); break;
    case PV_ARRAY:
        buf_putc(b, '[');
        for (size_t i = 0; i < v->u.arr.len; i++) {
            if (i) buf_putc(b, ',');
            config_json(a, b, v->u.arr.items[i]);
        }
        buf_putc(b, ']');
        break;
    case PV_OBJECT: {
        pv_member_t *m = arena_alloc(a, (v->u.obj.len ? v->u.obj.len : 1) * sizeof *m);
        memcpy(m, v->u.obj.members, v->u.obj.len * sizeof *m);
        qsort(m, v->u.obj.len, sizeof *m, member_key_cmp);
        buf_putc(b, '{');
        for (size_t i = 0; i < v->u.obj.len; i++) {
            if (i) buf_putc(b, ',');
            config_json_string(b, m[i].key, strlen(m[i].key));
            buf_putc(b, ':');
            config_json(a, b, m[i].value);
        }
        buf_putc(b, '}');
        break;
    }
    default: buf_puts(b, "null"); break;
    }
}

/* A config value as Pulumi keeps it and gives it to a default provider (config.Value: a string; a
 * number's or boolean's text, an object's or list's JSON). */
static pv_t *config_text(arena_t *a, const pv_t *v) {
    switch (v ? v->kind : PV_NULL) {
    case PV_STRING: return pv_string(a, v->u.str.s);
    case PV_NULL: return pv_string(a, "");
    default: {
        buf_t b;
        buf_init(&b);
        if (v->kind == PV_NUMBER)
            pv_format_number(&b, v->u.n);
        else
            config_json(a, &b, v);
        pv_t *t = pv_stringn(a, b.data ? b.data : "", b.len);
        buf_free(&b);
        return t;
    }
    }
}

/* The package and key of a provider config key (`pkg:key`, or the older `pkg:config:key`); false for
 * the project's own (no namespace, or the project's name). */
static bool config_key(arena_t *a, const char *full, const char *project, char **pkg, const char **key) {
    const char *colon = strchr(full, ':');
    if (!colon || colon == full || !colon[1]) return false;
    *pkg = arena_strndup(a, full, (size_t)(colon - full));
    if (project && strcmp(*pkg, project) == 0) return false;
    *key = strncmp(colon + 1, "config:", 7) == 0 && colon[8] ? colon + 8 : colon + 1;
    return true;
}

/* A value into both forms: the text Pulumi keeps (config_text) for the plugins too, as Pulumi gives a
 * default provider its config as strings (GetPackageConfig), to CheckConfig and, through it, Configure. */
static void config_put(arena_t *a, pv_t *config, pv_t *stack_values, const char *pkg, const char *key, const pv_t *v,
                       bool secret) {
    pv_t *text = config_text(a, v);
    pv_object_set(a, config_for(a, config, pkg), key, text);
    if (stack_values) pv_object_set(a, config_for(a, stack_values, pkg), key, secret ? pv_secret(a, text) : text);
}

bool plugin_host_config_parse_arg(arena_t *a, pv_t *config, const char *text, diag_list_t *diags) {
    const char *eq = strchr(text, '=');
    const char *colon = strchr(text, ':');
    if (!eq || !colon || colon > eq || colon == text || colon + 1 == eq) {
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, NULL, NULL,
                 "--config '%s' is not PACKAGE:KEY=VALUE, e.g. --config random:someKey=value", text);
        return false;
    }
    char *pkg = arena_strndup(a, text, (size_t)(colon - text));
    char *key = arena_strndup(a, colon + 1, (size_t)(eq - colon - 1));
    pv_object_set(a, config_for(a, config, pkg), key, pv_string(a, eq + 1));
    return true;
}

bool plugin_host_config_load_project(arena_t *a, pv_t *config, pv_t *stack_values, const char *path,
                                     const char *project, diag_list_t *diags) {
    bool missing;
    pv_t *doc = plugin_yaml_load(a, path, false, &missing, diags);
    if (!doc) return missing;
    const pv_t *cfg = doc->kind == PV_OBJECT ? pv_object_get(doc, "config") : NULL;
    /* `config: DIR` is the older spelling of stackConfigDir */
    if (!cfg || cfg->kind != PV_OBJECT) return true;
    const pv_t *name = pv_object_get(doc, "name");
    if (name && name->kind == PV_STRING) project = name->u.str.s;
    for (size_t i = 0; i < cfg->u.obj.len; i++) {
        const char *full = cfg->u.obj.members[i].key;
        const pv_t *v = cfg->u.obj.members[i].value;
        char *pkg;
        const char *key;
        if (!config_key(a, full, project, &pkg, &key)) continue; /* the project's own config */
        /* another namespace's key sets a value: `pkg:key: VALUE` (a scalar or a list), or `{value: VALUE}` */
        if (v->kind == PV_OBJECT) {
            const pv_t *val = pv_object_get(v, "value");
            if (!val) {
                diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                         "config '%s' is a mapping without `value:`, which Pulumi refuses for a key of another "
                         "namespace than the project's: write `%s: VALUE` or `%s: {value: VALUE}`",
                         full, full, full);
                return false;
            }
            v = val;
        }
        config_put(a, config, stack_values, pkg, key, v, false);
    }
    return true;
}

/* The names of the Pulumi ESC environments a stack file imports (`environment: [a, b]`, or
 * `environment: {imports: [...]}`), joined; "" for an inline definition; NULL when there is none. */
static const char *esc_environments(arena_t *a, const pv_t *env) {
    if (!env || env->kind == PV_NULL) return NULL;
    if (env->kind == PV_STRING) return *env->u.str.s ? arena_sprintf(a, "'%s'", env->u.str.s) : NULL;
    const pv_t *imports = env->kind == PV_OBJECT ? pv_object_get(env, "imports") : env;
    if (env->kind == PV_OBJECT && env->u.obj.len == 0) return NULL;
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; imports && imports->kind == PV_ARRAY && i < imports->u.arr.len; i++) {
        const pv_t *e = imports->u.arr.items[i];
        /* an import is a name, or a mapping of one name to its options */
        const char *n = e->kind == PV_STRING                   ? e->u.str.s
                        : e->kind == PV_OBJECT && e->u.obj.len ? e->u.obj.members[0].key
                                                               : NULL;
        if (n) buf_printf(&b, "%s'%s'", b.len ? ", " : "", n);
    }
    if (env->kind == PV_ARRAY && env->u.arr.len == 0) {
        buf_free(&b);
        return NULL;
    }
    const char *r = arena_strdup(a, b.data ? b.data : "");
    buf_free(&b);
    return r;
}

/* A `secure:` value: `{secure: CIPHERTEXT}`, a mapping of that one key to a string (Pulumi's isSecureValue). */
static const pv_t *secure_cipher(const pv_t *v) {
    if (!v || v->kind != PV_OBJECT || v->u.obj.len != 1 || strcmp(v->u.obj.members[0].key, "secure") != 0) return NULL;
    const pv_t *c = v->u.obj.members[0].value;
    return c && c->kind == PV_STRING ? c : NULL;
}

/* The stack's secrets provider when it is not a passphrase, as its settings file names it: its
 * `secretsprovider:` (awskms://…, azurekeyvault://…, gcpkms://…, hashivault://…, `default` for Pulumi
 * Cloud's service key), else a cloud KMS's `encryptedkey:` alone; NULL for a passphrase stack. */
static const char *config_secrets_provider(arena_t *a, const pv_t *doc) {
    const pv_t *sp = pv_object_get(doc, "secretsprovider");
    const char *url = sp && sp->kind == PV_STRING && *sp->u.str.s ? sp->u.str.s : NULL;
    if (url && strcmp(url, "passphrase") == 0) return NULL;
    if (url && strcmp(url, "default") == 0) return "Pulumi Cloud's service key (secretsprovider: default)";
    if (url) return arena_strdup(a, url);
    return pv_object_get(doc, "encryptedkey") ? "a cloud KMS key (its encryptedkey, with no secretsprovider named)"
                                              : NULL;
}

/* A stack config value with its `secure:` values decrypted, in place of *v (a copy when one is inside):
 * the value itself, or any inside an object or list (`aws:assumeRole: {roleArn: {secure: ...}}`), as
 * Pulumi's config.Value decrypts an object's; *secret is set when there was one. `provider`: the
 * stack's secrets provider when it is not a passphrase (config_secrets_provider), which cimport
 * cannot open. */
static bool config_decrypt(arena_t *a, const pv_t *doc, const char *provider, pv_t **v, bool *secret, const char *path,
                           const char *full, const char *pkg, passphrase_keyring_t *keyring, diag_list_t *diags) {
    const pv_t *cipher = secure_cipher(*v);
    if (cipher) {
        const pv_t *salt = pv_object_get(doc, "encryptionsalt");
        if (provider) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                     "config value '%s' is encrypted (secure:) by the stack's secrets provider %s, which cimport "
                     "cannot open (it decrypts passphrase-encrypted config only), so the %s provider would be "
                     "configured without it: switch the stack to a passphrase (`pulumi stack change-secrets-provider "
                     "passphrase`, which encrypts its config and state again with one) and run again with its "
                     "passphrase in PULUMI_CONFIG_PASSPHRASE",
                     full, provider, pkg);
            return false;
        }
        if (!keyring || !salt || salt->kind != PV_STRING) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                     !keyring ? "config value '%s' is encrypted (secure:) and no passphrase is set to decrypt it, "
                                "so the %s provider would be configured without it: set PULUMI_CONFIG_PASSPHRASE "
                                "or PULUMI_CONFIG_PASSPHRASE_FILE to the stack's passphrase"
                              : "config value '%s' is encrypted (secure:) by a secrets provider other than a "
                                "passphrase (the file has no encryptionsalt and names none: Pulumi Cloud's service "
                                "key, for a stack there), which cimport cannot decrypt, so the %s provider would be "
                                "configured without it: switch the stack to a passphrase (`pulumi stack "
                                "change-secrets-provider passphrase`) and run again with its passphrase in "
                                "PULUMI_CONFIG_PASSPHRASE",
                     full, pkg);
            return false;
        }
        const passphrase_crypter_t *c = passphrase_keyring_open(keyring, salt->u.str.s, path, diags);
        char *plain = NULL;
        size_t len = 0;
        if (!c || !passphrase_decrypt(c, cipher->u.str.s, &plain, &len, diags)) return false;
        *v = pv_string(a, arena_strndup(a, plain, len));
        explicit_bzero(plain, len);
        free(plain);
        *secret = true;
        return true;
    }
    size_t n = !*v ? 0 : (*v)->kind == PV_OBJECT ? (*v)->u.obj.len : (*v)->kind == PV_ARRAY ? (*v)->u.arr.len : 0;
    pv_t *copy = NULL;
    for (size_t i = 0; i < n; i++) {
        pv_t *item = (*v)->kind == PV_OBJECT ? (*v)->u.obj.members[i].value : (*v)->u.arr.items[i];
        bool inner = false;
        if (!config_decrypt(a, doc, provider, &item, &inner, path, full, pkg, keyring, diags)) return false;
        if (!inner) continue;
        if (!copy) copy = pv_clone(a, *v);
        if (copy->kind == PV_OBJECT)
            copy->u.obj.members[i].value = item;
        else
            copy->u.arr.items[i] = item;
        *secret = true;
    }
    if (copy) *v = copy;
    return true;
}

bool plugin_host_config_load_stack(arena_t *a, pv_t *config, pv_t *stack_values, const char *path, const char *project,
                                   passphrase_keyring_t *keyring, diag_list_t *diags) {
    pv_t *doc = plugin_yaml_load(a, path, true, NULL, diags);
    if (!doc) return false;
    if (doc->kind == PV_NULL) return true;
    if (doc->kind != PV_OBJECT) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "is not a stack settings file: expected a mapping with a `config:` section");
        return false;
    }
    const char *envs = esc_environments(a, pv_object_get(doc, "environment"));
    if (envs) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "the stack imports %s (`environment:`), whose configuration and environment variables Pulumi gives "
                 "the stack's providers; cimport cannot open Pulumi ESC environments, so the providers would be "
                 "configured without them: import with a stack config file that has no `environment:` and sets the "
                 "environment's provider configuration itself, with its environment variables set in cimport's "
                 "environment (`esc run` sets them)",
                 *envs ? arena_sprintf(a, "the Pulumi ESC environment%s %s", strchr(envs, ',') ? "s" : "", envs)
                       : "an inline Pulumi ESC environment");
        return false;
    }
    const pv_t *cfg = pv_object_get(doc, "config");
    if (!cfg || cfg->kind == PV_NULL) return true;
    if (cfg->kind != PV_OBJECT) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "`config:` must be a mapping of `package:key: value` entries");
        return false;
    }
    const char *provider = config_secrets_provider(a, doc);
    for (size_t i = 0; i < cfg->u.obj.len; i++) {
        const char *full = cfg->u.obj.members[i].key;
        pv_t *v = cfg->u.obj.members[i].value;
        char *pkg;
        const char *key;
        if (!config_key(a, full, project, &pkg, &key)) continue; /* the project's own config */
        pv_t *plain = v;
        bool secret = false;
        if (!config_decrypt(a, doc, provider, &plain, &secret, path, full, pkg, keyring, diags)) return false;
        /* Pulumi gives a default provider a secure value (or an object holding one) as a secret */
        config_put(a, config, stack_values, pkg, key, plain, secret);
    }
    return true;
}

/* grpc_provider.c — provider_t over gRPC to a running provider plugin (see grpc_provider.h). */
#define _GNU_SOURCE
#include "importer/grpc_provider.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "google/protobuf/empty.pb-c.h"
#include "importer/pbvalue.h"
#include "provider.pb-c.h"
#include "specs/importfile.h"
#include "specs/stackstate.h"

#define RP "/pulumirpc.ResourceProvider/"

typedef struct gprov {
    provider_t base;
    arena_t *arena; /* package/version strings and other long-lived bits */
    grpc_provider_options_t opts;
    grpc_loop_t *loop;
    bool own_loop;
    engine_endpoint_t *endpoint;
    bool own_endpoint;
    grpc_conn_t *conn;
    int port;
    char *plugin_version;
    char *provider_urn;
    bool accept_secrets, accept_resources;
    bool handshake;   /* the plugin answered Handshake: its flags are the protocol */
    const pv_t *olds; /* the inputs the stack records for the provider (in arena); NULL: none */
    pv_t *checked;    /* CheckConfig's answer (in arena); NULL when it is not implemented */
    schema_package_t *schema;
    diag_list_t *current_diags; /* where Log messages go while a blocking call runs (own endpoint only) */
    struct acall *async_calls;  /* asynchronous calls in flight (their Log messages go by URN) */
    struct acall *deferred;     /* asynchronous calls that failed before reaching the wire */
    grpc_conn_t **retired;      /* connections replaced while calls ran on them; closed when idle */
    size_t n_retired, cap_retired;
} gprov_t;

static const provider_ops_t GRPC_PROVIDER_OPS;

void grpc_provider_options_default(grpc_provider_options_t *o) {
    memset(o, 0, sizeof *o);
    o->host = "127.0.0.1";
    o->call_timeout_ms = 300000;
    o->start_timeout_ms = 60000;
    o->schema_timeout_ms = 300000;
    o->stack = "cimport";
    o->project = "cimport";
}

bool grpc_provider_is(const provider_t *p) {
    return p && p->ops == &GRPC_PROVIDER_OPS;
}
const char *grpc_provider_plugin_version(const provider_t *p) {
    return ((const gprov_t *)p)->plugin_version;
}
grpc_loop_t *grpc_provider_loop(const provider_t *p) {
    return ((const gprov_t *)p)->loop;
}
grpc_conn_t *grpc_provider_conn(const provider_t *p) {
    return ((const gprov_t *)p)->conn;
}

static diag_list_t *async_diags_for(gprov_t *g, const char *urn);

static void log_to_current(void *user, const char *urn, const diag_t *d, bool status) {
    gprov_t *g = user;
    diag_list_t *to = g->current_diags ? g->current_diags : async_diags_for(g, urn);
    if (to) engine_log_to_list(to, urn, d, status);
}

/* --- calls --------------------------------------------------------------------------------------- */

/* A completed call's response message unpacked into `a`, or NULL with the status in *status and a
 * diagnostic (unless the status is `quiet_status`). */
static ProtobufCMessage *response_message(gprov_t *g, const char *method, int grpc_status, const char *message,
                                          const unsigned char *data, size_t len,
                                          const ProtobufCMessageDescriptor *resp_desc, arena_t *a, const char *resource,
                                          int quiet_status, int *status, diag_list_t *diags) {
    *status = grpc_status;
    ProtobufCMessage *m = NULL;
    const char *name = method + strlen(RP);
    if (grpc_status == GRPC_OK) {
        ProtobufCAllocator al = pbvalue_arena_allocator(a);
        m = protobuf_c_message_unpack(resp_desc, &al, len, data);
        if (!m) {
            *status = GRPC_INTERNAL;
            diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, resource,
                     "the %s provider answered %s with a malformed %s message", g->base.package, name, resp_desc->name);
        }
    } else if (grpc_status != quiet_status) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, resource, "the %s provider's %s failed (%s): %s",
                 g->base.package, name, grpc_status_name(grpc_status), message && *message ? message : "no message");
    }
    return m;
}

/* Runs one unary call, reconnecting once if the connection is gone (every method used here is
 * idempotent). On OK unpacks the response into `a` and returns it; otherwise returns NULL and leaves
 * the status in *status (and a diagnostic unless the status is in `quiet`, e.g. UNIMPLEMENTED). */
static ProtobufCMessage *call(gprov_t *g, const char *method, const ProtobufCMessage *req,
                              const ProtobufCMessageDescriptor *resp_desc, arena_t *a, const char *resource,
                              int quiet_status, int *status, diag_list_t *diags) {
    size_t len;
    unsigned char *bytes = pbvalue_pack(req, &len);
    grpc_response_t r = {0};
    g->current_diags = diags;
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!grpc_conn_usable(g->conn) && grpc_conn_in_flight(g->conn) == 0) {
            diag_list_t tmp;
            diag_list_init(&tmp);
            grpc_conn_t *c = grpc_conn_open(g->loop, g->opts.host, g->port, &tmp);
            if (c) {
                grpc_conn_close(g->conn);
                g->conn = c;
            }
            diag_list_free(&tmp);
        }
        grpc_response_free(&r);
        grpc_call_unary_until(g->conn, method, bytes, len, grpc_provider_timeout_for(&g->opts, method), g->opts.stop,
                              &r);
        if (r.status != GRPC_UNAVAILABLE || grpc_conn_usable(g->conn)) break;
    }
    if (r.status == GRPC_CANCELLED && g->opts.stop && *g->opts.stop) {
        free(r.message);
        r.message = strdup("the run was stopped before it answered");
        if (!r.message) abort();
    }
    g->current_diags = NULL;
    free(bytes);
    ProtobufCMessage *m = response_message(g, method, r.status, r.message, r.data, r.len, resp_desc, a, resource,
                                           quiet_status, status, diags);
    grpc_response_free(&r);
    return m;
}

static void options_for_requests(const gprov_t *g, pbvalue_options_t *o, bool elide_assets) {
    pbvalue_options_default(o);
    o->keep_secrets = g->accept_secrets;
    o->keep_resources = g->accept_resources;
    o->keep_unknowns = false;      /* no previews in an import */
    o->keep_output_values = false; /* only for Construct/Call */
    o->keep_byte_strings = false;  /* not negotiated */
    o->elide_asset_contents = elide_assets;
}

/* A provider that does not accept secrets gets plain values; mark outputs secret again where the
 * request had a secret under the same top-level key, as the engine does. */
static void annotate_secrets(arena_t *a, const gprov_t *g, pv_t *outs, const pv_t *sent) {
    if (g->accept_secrets || !outs || !sent || outs->kind != PV_OBJECT || sent->kind != PV_OBJECT) return;
    for (size_t i = 0; i < outs->u.obj.len; i++) {
        pv_t *was = pv_object_get(sent, outs->u.obj.members[i].key);
        pv_t *now = outs->u.obj.members[i].value;
        if (was && pv_contains_secret(was) && !pv_contains_secret(now))
            outs->u.obj.members[i].value = pv_secret(a, now);
    }
}

static const char *describe(arena_t *a, const char *urn) {
    return engine_urn_describe(a, urn);
}

/* --- configuration ------------------------------------------------------------------------------- */

/* Pulumi's annotateSecrets (provider_plugin.go): a value of `outs` is made a secret where the value
 * under its key in `ins` contains one, both objects compared key by key. */
static pv_t *annotate_config_secrets(arena_t *a, const pv_t *outs, const pv_t *ins) {
    if (!outs || outs->kind != PV_OBJECT || !ins || ins->kind != PV_OBJECT) return (pv_t *)outs;
    pv_t *copy = pv_clone(a, outs);
    for (size_t i = 0; i < copy->u.obj.len; i++) {
        pv_t *now = copy->u.obj.members[i].value;
        const pv_t *was = pv_object_get(ins, copy->u.obj.members[i].key);
        if (!was) continue;
        if (now && now->kind == PV_OBJECT && was->kind == PV_OBJECT)
            copy->u.obj.members[i].value = annotate_config_secrets(a, now, was);
        else if ((!now || now->kind != PV_SECRET) && pv_contains_secret(was))
            copy->u.obj.members[i].value = pv_secret(a, now);
    }
    return copy;
}

/* Provider inputs as the engine gives them to CheckConfig: without its own key `__internal`
 * (registry.go filterProviderConfig). */
static pv_t *config_filtered(arena_t *a, const pv_t *config) {
    pv_t *out = pv_object(a);
    for (size_t i = 0; config && config->kind == PV_OBJECT && i < config->u.obj.len; i++)
        if (strcmp(config->u.obj.members[i].key, "__internal") != 0)
            pv_object_set(a, out, config->u.obj.members[i].key, config->u.obj.members[i].value);
    return out;
}

/* CheckConfig's news: the config with the `version` input when a version is known (the engine's
 * SetProviderVersion: the semver text, no leading `v`). */
static pv_t *config_news(arena_t *a, const gprov_t *g, const pv_t *config) {
    pv_t *news = config_filtered(a, config);
    const char *v = g->base.version;
    if (v && *v) pv_object_set(a, news, "version", pv_string(a, v[0] == 'v' ? v + 1 : v));
    return news;
}

static bool do_configure(gprov_t *g, const pv_t *config, diag_list_t *diags) {
    arena_t *a = arena_new();
    bool ok = false;
    const char *where = arena_sprintf(a, "the %s provider's configuration", g->base.package);
    const char *name = urn_name(a, g->provider_urn), *type = urn_type(a, g->provider_urn);

    /* CheckConfig: the engine marshals olds and news with neither secrets nor resources kept
     * (provider_plugin.go CheckConfig), whatever the plugin accepts. UNIMPLEMENTED (the Node.js host) ⇒
     * the news are used as given. */
    pbvalue_options_t plain;
    pbvalue_options_default(&plain);
    plain.keep_secrets = plain.keep_resources = plain.keep_unknowns = plain.keep_output_values = false;
    plain.keep_byte_strings = false;
    pv_t *news = config_news(a, g, config);
    Pulumirpc__CheckRequest creq = PULUMIRPC__CHECK_REQUEST__INIT;
    creq.urn = g->provider_urn;
    creq.name = (char *)name;
    creq.type = (char *)type;
    creq.olds = pbvalue_struct_from_pv(a, config_filtered(a, g->olds), &plain, where, diags);
    creq.news = pbvalue_struct_from_pv(a, news, &plain, where, diags);
    if (!creq.olds || !creq.news) goto out;
    int status;
    Pulumirpc__CheckResponse *cresp =
        (Pulumirpc__CheckResponse *)call(g, RP "CheckConfig", &creq.base, &pulumirpc__check_response__descriptor, a,
                                         NULL, GRPC_UNIMPLEMENTED, &status, diags);
    const pv_t *checked = news;
    if (cresp) {
        for (size_t i = 0; i < cresp->n_failures; i++)
            diag_add(diags, DIAG_ERROR, DIAG_CHECK, NULL, NULL, "the %s provider's configuration is invalid: %s%s%s",
                     g->base.package, cresp->failures[i]->property ? cresp->failures[i]->property : "",
                     cresp->failures[i]->property && *cresp->failures[i]->property ? ": " : "",
                     cresp->failures[i]->reason ? cresp->failures[i]->reason : "");
        if (cresp->n_failures) goto out;
        if (cresp->inputs) {
            const pv_t *answer = pbvalue_pv_from_struct(a, cresp->inputs, where, diags);
            if (!answer) goto out;
            /* the provider saw plain values: its answer's are secrets again where the news held one */
            checked = annotate_config_secrets(a, answer, news);
        }
    } else if (status != GRPC_UNIMPLEMENTED) {
        goto out;
    }

    /* Configure: both the deprecated `variables` (older bridged providers read them; plain strings, an
     * object's or list's JSON) and `args`, which the engine marshals with secrets and resources kept
     * (provider_plugin.go Configure), whatever the plugin accepts. */
    pbvalue_options_t kept;
    options_for_requests(g, &kept, false);
    kept.keep_secrets = kept.keep_resources = true;
    Pulumirpc__ConfigureRequest req = PULUMIRPC__CONFIGURE_REQUEST__INIT;
    req.args = pbvalue_struct_from_pv(a, checked, &kept, where, diags);
    if (!req.args) goto out;
    req.acceptsecrets = true;
    req.acceptresources = true;
    req.sends_old_inputs = true;
    req.sends_old_inputs_to_delete = true;
    req.urn = g->provider_urn;
    req.name = creq.name;
    req.type = creq.type;
    req.id = "";
    size_t nvars = checked && checked->kind == PV_OBJECT ? checked->u.obj.len : 0;
    req.variables = arena_alloc(a, (nvars ? nvars : 1) * sizeof *req.variables);
    for (size_t i = 0; i < nvars; i++) {
        const char *key = checked->u.obj.members[i].key;
        const pv_t *v = pv_unwrap(checked->u.obj.members[i].value);
        if (strcmp(key, "version") == 0 || !v) continue;
        Pulumirpc__ConfigureRequest__VariablesEntry *e = arena_alloc(a, sizeof *e);
        pulumirpc__configure_request__variables_entry__init(e);
        e->key = arena_sprintf(a, "%s:config:%s", g->base.package, key);
        if (v->kind == PV_STRING) {
            e->value = (char *)v->u.str.s;
        } else {
            cJSON *j = pv_to_display_json(v, true); /* removeSecrets: the plain values */
            char *s = cJSON_PrintUnformatted(j);
            e->value = arena_strdup(a, s);
            free(s);
            cJSON_Delete(j);
        }
        req.variables[req.n_variables++] = e;
    }
    Pulumirpc__ConfigureResponse *resp = (Pulumirpc__ConfigureResponse *)call(
        g, RP "Configure", &req.base, &pulumirpc__configure_response__descriptor, a, NULL, -1, &status, diags);
    if (!resp) goto out;
    /* the Handshake's answer, when the plugin gave one, is the protocol (provider_plugin.go) */
    if (!g->handshake) {
        g->accept_secrets = resp->acceptsecrets;
        g->accept_resources = resp->acceptresources;
    }
    g->checked = cresp && cresp->inputs ? pv_clone(g->arena, checked) : NULL;
    ok = true;
out:
    arena_free(a);
    return ok;
}

/* --- provider ops -------------------------------------------------------------------------------- */

/* The schema cache's entry for this plugin: <root>/schemas/<package>-<version>-<key>.json, where the
 * version is the one the plugin reports (not the one asked for) and the key a hash of the plugin's
 * executable's real path, so that two plugins of one version (an installed one, a build on $PATH) never
 * share an entry. NULL: nothing to key by (a plugin attached to, one that reports no version). */
static char *cache_path(arena_t *a, const gprov_t *g) {
    const char *version = g->plugin_version;
    if (g->opts.no_schema_cache || !g->opts.plugin_path || !version || !*version) return NULL;
    char *real = realpath(g->opts.plugin_path, NULL);
    if (!real) return NULL;
    uint64_t key = hashmap_hash(real, strlen(real));
    free(real);
    const char *root = g->opts.cache_dir;
    if (!root && !(root = file_cache_root(a))) return NULL;
    char *v = arena_strdup(a, version);
    for (char *p = v; *p; p++)
        if (*p == '/') *p = '_';
    return arena_sprintf(a, "%s/schemas/%s-%s-%016llx.json", root, g->base.package, v, (unsigned long long)key);
}

static bool time_before(struct timespec x, struct timespec y) {
    return x.tv_sec < y.tv_sec || (x.tv_sec == y.tv_sec && x.tv_nsec < y.tv_nsec);
}

/* Whether the entry at path was written after the plugin's executable last changed (as Pulumi's own
 * loader takes a cached schema only when it is newer than the plugin's installation): a plugin rebuilt
 * or reinstalled under the same version is asked again. */
static bool cache_entry_fresh(const gprov_t *g, const char *path) {
    struct stat entry, plugin;
    if (stat(path, &entry) != 0 || stat(g->opts.plugin_path, &plugin) != 0) return false;
    return !time_before(entry.st_mtim, plugin.st_mtim) && !time_before(entry.st_mtim, plugin.st_ctim);
}

static void mkdir_parents(char *path) {
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(path, 0755);
        *p = '/';
    }
}

static schema_package_t *op_get_schema(provider_t *p, diag_list_t *diags) {
    gprov_t *g = (gprov_t *)p;
    if (g->schema) return g->schema;
    arena_t *a = arena_new();
    char *path = cache_path(a, g);
    if (path) {
        if (cache_entry_fresh(g, path)) {
            diag_list_t tmp;
            diag_list_init(&tmp);
            g->schema = schema_load_file(path, &tmp);
            diag_list_free(&tmp); /* a broken cache entry is simply fetched again */
            if (g->schema) {
                arena_free(a);
                return g->schema;
            }
        }
    }
    Pulumirpc__GetSchemaRequest req = PULUMIRPC__GET_SCHEMA_REQUEST__INIT;
    int status;
    Pulumirpc__GetSchemaResponse *resp = (Pulumirpc__GetSchemaResponse *)call(
        g, RP "GetSchema", &req.base, &pulumirpc__get_schema_response__descriptor, a, NULL, -1, &status, diags);
    if (resp) {
        const char *text = resp->schema ? resp->schema : "";
        const char *origin = arena_sprintf(a, "the %s provider's GetSchema", p->package);
        g->schema = schema_load_buffer(text, strlen(text), origin, diags);
        if (g->schema && path) {
            mkdir_parents(path);
            diag_list_t tmp;
            diag_list_init(&tmp);
            if (!file_write_atomic(path, text, strlen(text), 0644, false, &tmp))
                diag_add(diags, DIAG_WARNING, DIAG_IO, path, NULL,
                         "could not cache the %s schema (it will be fetched again next time): %s", p->package,
                         tmp.head ? tmp.head->message : "unknown error");
            diag_list_free(&tmp);
        }
    }
    arena_free(a);
    return g->schema;
}

static bool op_configure(provider_t *p, const pv_t *config, diag_list_t *diags) {
    return do_configure((gprov_t *)p, config, diags);
}

/* Requests and responses of Read/Check/Diff. A request is built in `a`; false (with a diagnostic)
 * when a value cannot be sent. */

static bool read_request(gprov_t *g, arena_t *a, const char *res, const char *urn, const char *id, const pv_t *inputs,
                         const pv_t *state, Pulumirpc__ReadRequest *req, diag_list_t *diags) {
    pbvalue_options_t o;
    options_for_requests(g, &o, true);
    pulumirpc__read_request__init(req);
    req->id = (char *)(id ? id : "");
    req->urn = (char *)urn;
    req->name = urn_name(a, urn);
    req->type = urn_type(a, urn);
    if (!req->name) req->name = "";
    if (!req->type) req->type = "";
    req->properties = pbvalue_struct_from_pv(a, state, &o, res ? res : "Read", diags);
    req->inputs = pbvalue_struct_from_pv(a, inputs, &o, res ? res : "Read", diags);
    return req->properties && req->inputs;
}

/* The path of the first unknown (computed) value in v, into segs (depth at most `cap`); false when v
 * holds none. */
static bool unknown_path(const pv_t *v, pv_path_seg_t *segs, size_t depth, size_t cap, size_t *len) {
    if (!v) return false;
    switch (v->kind) {
    case PV_UNKNOWN: *len = depth; return true;
    case PV_OUTPUT:
        if (!v->u.output.known || !v->u.output.value) {
            *len = depth;
            return true;
        }
        return unknown_path(v->u.output.value, segs, depth, cap, len);
    case PV_SECRET: return unknown_path(v->u.secret.inner, segs, depth, cap, len);
    case PV_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++) {
            if (depth < cap) segs[depth] = (pv_path_seg_t){NULL, i};
            if (unknown_path(v->u.arr.items[i], segs, depth + 1, cap, len)) return true;
        }
        return false;
    case PV_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++) {
            if (depth < cap) segs[depth] = (pv_path_seg_t){v->u.obj.members[i].key, 0};
            if (unknown_path(v->u.obj.members[i].value, segs, depth + 1, cap, len)) return true;
        }
        return false;
    default: return false;
    }
}

/* A resource read holds no unknown value: Pulumi's plugin client unmarshals Read's answer with
 * RejectUnknowns (provider_plugin.go Read) and fails ("unexpected unknown property value"). */
static bool read_has_unknown(arena_t *a, const char *res, const pv_t *v, const char *what, diag_list_t *diags) {
    enum { DEPTH = 32 };
    pv_path_seg_t segs[DEPTH];
    size_t len = 0;
    if (!unknown_path(v, segs, 0, DEPTH, &len)) return false;
    pv_path_t p = {segs, len < DEPTH ? len : DEPTH};
    diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, res,
             "the provider's Read returned an unknown value at %s (in %s), which a resource that exists cannot have: "
             "Pulumi refuses it (\"unexpected unknown property value\"), so it is not imported; update the provider "
             "plugin, or report it to its maintainers",
             len ? pv_path_format(a, &p) : "the top level", what);
    return true;
}

static bool read_decode(gprov_t *g, arena_t *a, const char *res, const Pulumirpc__ReadResponse *resp,
                        const pv_t *inputs, const pv_t *state, provider_read_result_t *out, diag_list_t *diags) {
    const char *where = res ? arena_sprintf(a, "%s: Read response", res) : "Read response";
    size_t errs = diags ? diags->errors : 0;
    out->id = resp->id && *resp->id ? arena_strdup(a, resp->id) : NULL;
    if (!out->id) {
        /* An empty ID means the resource does not exist, whatever properties came with it: Pulumi's
         * plugin client returns no properties then ("If the resource was missing, simply return a nil
         * property map", provider_plugin.go Read), and ImportStep fails with "does not exist". The
         * Node.js provider host cannot send nil properties, so an empty ID is its only way to say so. */
        out->state = out->inputs = NULL;
        return true;
    }
    out->state = pbvalue_pv_from_struct(a, resp->properties, where, diags);
    out->inputs = pbvalue_pv_from_struct(a, resp->inputs, where, diags);
    if (diags && diags->errors > errs) return false;
    if (diags && (read_has_unknown(a, res, out->state, "its state", diags) ||
                  read_has_unknown(a, res, out->inputs, "its inputs", diags)))
        return false;
    annotate_secrets(a, g, out->state, state);
    annotate_secrets(a, g, out->inputs, inputs);
    return true;
}

static bool check_request(gprov_t *g, arena_t *a, const char *res, const char *urn, const pv_t *olds, const pv_t *news,
                          const unsigned char *seed, size_t seed_len, Pulumirpc__CheckRequest *req,
                          diag_list_t *diags) {
    pbvalue_options_t o;
    options_for_requests(g, &o, false);
    pulumirpc__check_request__init(req);
    req->urn = (char *)urn;
    req->name = urn_name(a, urn);
    req->type = urn_type(a, urn);
    if (!req->name) req->name = "";
    if (!req->type) req->type = "";
    req->olds = pbvalue_struct_from_pv(a, olds, &o, res ? res : "Check", diags);
    req->news = pbvalue_struct_from_pv(a, news, &o, res ? res : "Check", diags);
    if (!req->olds || !req->news) return false;
    /* The engine sends 32 random bytes (used for autonaming) when the caller has no seed. */
    if (!seed || !seed_len) {
        unsigned char *rnd = arena_alloc(a, 32);
        if (getrandom(rnd, 32, 0) != 32) memset(rnd, 0, 32);
        seed = rnd;
        seed_len = 32;
    }
    req->randomseed.data = (uint8_t *)seed;
    req->randomseed.len = seed_len;
    return true;
}

static bool check_decode(gprov_t *g, arena_t *a, const char *res, const Pulumirpc__CheckResponse *resp,
                         const pv_t *news, provider_check_result_t *out, diag_list_t *diags) {
    const char *where = res ? arena_sprintf(a, "%s: Check response", res) : "Check response";
    size_t errs = diags ? diags->errors : 0;
    out->inputs = pbvalue_pv_from_struct(a, resp->inputs, where, diags);
    if (diags && diags->errors > errs) return false;
    annotate_secrets(a, g, out->inputs, news);
    if (resp->n_failures) {
        out->failures = arena_alloc(a, resp->n_failures * sizeof *out->failures);
        for (size_t i = 0; i < resp->n_failures; i++) {
            const char *prop = resp->failures[i]->property;
            out->failures[i].property = prop && *prop ? arena_strdup(a, prop) : NULL;
            out->failures[i].reason = arena_strdup(a, resp->failures[i]->reason ? resp->failures[i]->reason : "");
        }
        out->n_failures = resp->n_failures;
    }
    return true;
}

static int cmp_detailed(const void *x, const void *y) {
    return strcmp(((const provider_property_diff_t *)x)->path, ((const provider_property_diff_t *)y)->path);
}

static const char **copy_strings(arena_t *a, char **src, size_t n) {
    if (!n) return NULL;
    const char **dst = arena_alloc(a, n * sizeof *dst);
    for (size_t i = 0; i < n; i++)
        dst[i] = arena_strdup(a, src[i] ? src[i] : "");
    return dst;
}

static bool diff_request(gprov_t *g, arena_t *a, const char *res, const char *urn, const char *id,
                         const pv_t *old_state, const pv_t *old_inputs, const pv_t *news, Pulumirpc__DiffRequest *req,
                         diag_list_t *diags) {
    pbvalue_options_t o;
    options_for_requests(g, &o, true);
    pulumirpc__diff_request__init(req);
    req->id = (char *)(id ? id : "");
    req->urn = (char *)urn;
    req->name = urn_name(a, urn);
    req->type = urn_type(a, urn);
    if (!req->name) req->name = "";
    if (!req->type) req->type = "";
    req->olds = pbvalue_struct_from_pv(a, old_state, &o, res ? res : "Diff", diags);
    req->news = pbvalue_struct_from_pv(a, news, &o, res ? res : "Diff", diags);
    req->old_inputs = pbvalue_struct_from_pv(a, old_inputs, &o, res ? res : "Diff", diags);
    return req->olds && req->news && req->old_inputs;
}

static bool diff_decode(arena_t *a, const Pulumirpc__DiffResponse *resp, provider_diff_result_t *out) {
    switch (resp->changes) {
    case PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_NONE: out->changes = DIFF_NONE; break;
    case PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_SOME: out->changes = DIFF_SOME; break;
    default: out->changes = DIFF_UNKNOWN; break;
    }
    out->diffs = copy_strings(a, resp->diffs, resp->n_diffs);
    out->n_diffs = resp->n_diffs;
    out->replaces = copy_strings(a, resp->replaces, resp->n_replaces);
    out->n_replaces = resp->n_replaces;
    out->has_detailed_diff = resp->hasdetaileddiff;
    if (resp->n_detaileddiff) {
        out->detailed = arena_alloc(a, resp->n_detaileddiff * sizeof *out->detailed);
        for (size_t i = 0; i < resp->n_detaileddiff; i++) {
            const Pulumirpc__DiffResponse__DetailedDiffEntry *e = resp->detaileddiff[i];
            provider_property_diff_t *d = &out->detailed[out->n_detailed++];
            d->path = arena_strdup(a, e->key ? e->key : "");
            d->kind = e->value ? (property_diff_kind_t)e->value->kind : PDIFF_ADD;
            d->input_diff = e->value && e->value->inputdiff;
        }
        /* Map order on the wire is arbitrary; sort so results are reproducible. */
        qsort(out->detailed, out->n_detailed, sizeof *out->detailed, cmp_detailed);
    }
    return true;
}

/* --- Read, Check and Diff ---------------------------------------------------------------------- *
 * Each call is a grpc_call_start on the provider's one connection, so any number run at once as
 * HTTP/2 streams. The completion decodes the response into the caller's arena and runs the caller's
 * `done` — from the event loop, never from the *_async call: a request that cannot even be encoded
 * is queued and completed from the poll op. A call that fails because the connection went away is
 * started once more on a new connection (every method used is idempotent); the old connection is
 * closed from the poll op once idle (a completion callback must not close a connection). */

typedef enum { ACALL_READ, ACALL_CHECK, ACALL_DIFF } acall_kind_t;

typedef struct acall {
    gprov_t *g;
    acall_kind_t kind;
    const char *method;
    unsigned char *bytes; /* the packed request (malloc'd) */
    size_t len;
    bool retried;
    arena_t *a;
    const char *res; /* "resource 'x' of type 'T'" for messages */
    const char *urn;
    const pv_t *sent1, *sent2; /* request values the answer's secrets are matched against */
    void *out;
    diag_list_t *diags;
    provider_done_fn done;
    void *user;
    bool ok;           /* deferred calls: the outcome */
    grpc_call_t *call; /* while on the wire */
    bool cancelled;    /* by cancel_all: never retried */
    struct acall *prev, *next;
} acall_t;

static void acall_link(acall_t **head, acall_t *c) {
    c->prev = NULL;
    c->next = *head;
    if (*head) (*head)->prev = c;
    *head = c;
}

static void acall_unlink(acall_t **head, acall_t *c) {
    if (c->prev)
        c->prev->next = c->next;
    else if (*head == c)
        *head = c->next;
    if (c->next) c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

static diag_list_t *async_diags_for(gprov_t *g, const char *urn) {
    for (acall_t *c = g->async_calls; c && urn; c = c->next)
        if (strcmp(c->urn, urn) == 0) return c->diags;
    return NULL;
}

static void acall_free(acall_t *c) {
    free(c->bytes);
    free(c);
}

static void acall_grpc_done(void *user, const grpc_result_t *r);

/* The connection for a new call: a fresh one when the current one is gone (the old one is retired). */
static void ensure_conn(gprov_t *g) {
    if (grpc_conn_usable(g->conn)) return;
    diag_list_t tmp;
    diag_list_init(&tmp);
    grpc_conn_t *c = grpc_conn_open(g->loop, g->opts.host, g->port, &tmp);
    diag_list_free(&tmp);
    if (!c) return; /* the call then fails with the old connection's UNAVAILABLE */
    g->retired = vec_grow(g->retired, &g->cap_retired, g->n_retired + 1, sizeof(grpc_conn_t *));
    g->retired[g->n_retired++] = g->conn;
    g->conn = c;
}

static void acall_send(acall_t *c) {
    ensure_conn(c->g);
    c->call = grpc_call_start(c->g->conn, c->method, c->bytes, c->len, c->g->opts.call_timeout_ms, acall_grpc_done, c);
}

static void acall_grpc_done(void *user, const grpc_result_t *r) {
    acall_t *c = user;
    gprov_t *g = c->g;
    c->call = NULL;
    if (r->status == GRPC_UNAVAILABLE && !c->retried && !c->cancelled && !grpc_conn_usable(g->conn)) {
        c->retried = true;
        acall_send(c);
        return;
    }
    acall_unlink(&g->async_calls, c);
    int status;
    bool ok = false;
    /* a call the stop cancelled (or whose provider the stop ended) is cimport's doing, not the provider's */
    const char *message = r->status == GRPC_CANCELLED && (c->cancelled || (g->opts.stop && *g->opts.stop))
                              ? "the run was stopped before it answered"
                              : r->message;
    switch (c->kind) {
    case ACALL_READ: {
        Pulumirpc__ReadResponse *resp = (Pulumirpc__ReadResponse *)response_message(
            g, c->method, r->status, message, r->data, r->len, &pulumirpc__read_response__descriptor, c->a, c->res, -1,
            &status, c->diags);
        ok = resp && read_decode(g, c->a, c->res, resp, c->sent1, c->sent2, c->out, c->diags);
        break;
    }
    case ACALL_CHECK: {
        Pulumirpc__CheckResponse *resp = (Pulumirpc__CheckResponse *)response_message(
            g, c->method, r->status, message, r->data, r->len, &pulumirpc__check_response__descriptor, c->a, c->res, -1,
            &status, c->diags);
        ok = resp && check_decode(g, c->a, c->res, resp, c->sent1, c->out, c->diags);
        break;
    }
    case ACALL_DIFF: {
        Pulumirpc__DiffResponse *resp = (Pulumirpc__DiffResponse *)response_message(
            g, c->method, r->status, message, r->data, r->len, &pulumirpc__diff_response__descriptor, c->a, c->res, -1,
            &status, c->diags);
        ok = resp && diff_decode(c->a, resp, c->out);
        break;
    }
    }
    provider_done_fn done = c->done;
    void *done_user = c->user;
    acall_free(c);
    done(done_user, ok);
}

/* Packs and starts the request, or queues the failure when it could not be built. */
static void acall_start(gprov_t *g, acall_kind_t kind, const char *method, const ProtobufCMessage *req, bool built,
                        const char *urn, const char *res, const pv_t *sent1, const pv_t *sent2, arena_t *a, void *out,
                        diag_list_t *diags, provider_done_fn done, void *user) {
    acall_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    *c = (acall_t){.g = g,
                   .kind = kind,
                   .method = method,
                   .a = a,
                   .res = res,
                   .urn = arena_strdup(a, urn),
                   .sent1 = sent1,
                   .sent2 = sent2,
                   .out = out,
                   .diags = diags,
                   .done = done,
                   .user = user};
    if (!built) {
        c->ok = false;
        acall_link(&g->deferred, c);
        return;
    }
    c->bytes = pbvalue_pack(req, &c->len);
    acall_link(&g->async_calls, c);
    acall_send(c);
}

static void op_read_async(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state,
                          arena_t *a, provider_read_result_t *out, diag_list_t *diags, provider_done_fn done,
                          void *user) {
    gprov_t *g = (gprov_t *)p;
    memset(out, 0, sizeof *out);
    const char *res = describe(a, urn);
    Pulumirpc__ReadRequest req;
    bool built = read_request(g, a, res, urn, id, inputs, state, &req, diags);
    acall_start(g, ACALL_READ, RP "Read", &req.base, built, urn, res, inputs, state, a, out, diags, done, user);
}

static void op_check_async(provider_t *p, const char *urn, const pv_t *olds, const pv_t *news,
                           const unsigned char *seed, size_t seed_len, arena_t *a, provider_check_result_t *out,
                           diag_list_t *diags, provider_done_fn done, void *user) {
    gprov_t *g = (gprov_t *)p;
    memset(out, 0, sizeof *out);
    const char *res = describe(a, urn);
    Pulumirpc__CheckRequest req;
    bool built = check_request(g, a, res, urn, olds, news, seed, seed_len, &req, diags);
    acall_start(g, ACALL_CHECK, RP "Check", &req.base, built, urn, res, news, NULL, a, out, diags, done, user);
}

static void op_diff_async(provider_t *p, const char *urn, const char *id, const pv_t *old_state, const pv_t *old_inputs,
                          const pv_t *news, arena_t *a, provider_diff_result_t *out, diag_list_t *diags,
                          provider_done_fn done, void *user) {
    gprov_t *g = (gprov_t *)p;
    memset(out, 0, sizeof *out);
    const char *res = describe(a, urn);
    Pulumirpc__DiffRequest req;
    bool built = diff_request(g, a, res, urn, id, old_state, old_inputs, news, &req, diags);
    acall_start(g, ACALL_DIFF, RP "Diff", &req.base, built, urn, res, NULL, NULL, a, out, diags, done, user);
}

/* Completes the calls that failed before reaching the wire; closes retired connections once idle. */
static size_t op_poll(provider_t *p) {
    gprov_t *g = (gprov_t *)p;
    size_t ran = 0;
    acall_t *list = g->deferred;
    g->deferred = NULL;
    while (list) {
        acall_t *c = list;
        list = c->next;
        provider_done_fn done = c->done;
        void *user = c->user;
        bool ok = c->ok;
        acall_free(c);
        done(user, ok);
        ran++;
    }
    size_t kept = 0;
    for (size_t i = 0; i < g->n_retired; i++) {
        if (grpc_conn_in_flight(g->retired[i]) == 0)
            grpc_conn_close(g->retired[i]);
        else
            g->retired[kept++] = g->retired[i];
    }
    g->n_retired = kept;
    return ran;
}

static struct grpc_loop *op_event_loop(provider_t *p) {
    return ((gprov_t *)p)->loop;
}

static void op_close(provider_t *p) {
    gprov_t *g = (gprov_t *)p;
    if (!g) return;
    for (size_t i = 0; i < g->n_retired; i++)
        grpc_conn_close(g->retired[i]);
    free(g->retired);
    while (g->deferred) { /* completed, as promised, before the provider goes */
        acall_t *c = g->deferred;
        g->deferred = c->next;
        provider_done_fn done = c->done;
        void *user = c->user;
        acall_free(c);
        done(user, false);
    }
    if (g->conn) {
        if (grpc_conn_usable(g->conn)) {
            /* Advisory: lets the plugin stop outstanding work before the connection goes. */
            Google__Protobuf__Empty e = GOOGLE__PROTOBUF__EMPTY__INIT;
            size_t len;
            unsigned char *bytes = pbvalue_pack(&e.base, &len);
            grpc_response_t r;
            grpc_call_unary(g->conn, RP "Cancel", bytes, len, 2000, &r);
            grpc_response_free(&r);
            free(bytes);
        }
        grpc_conn_close(g->conn);
    }
    schema_free(g->schema);
    if (g->own_endpoint) engine_endpoint_free(g->endpoint);
    if (g->own_loop) grpc_loop_free(g->loop);
    free(g->plugin_version);
    arena_free(g->arena);
    free(g);
}

/* Resets the stream of every call on the wire; grpc_call_cancel completes each at once (the
 * completion only queues the outcome for the caller's poll). */
static const pv_t *op_checked_config(provider_t *base) {
    return ((gprov_t *)base)->checked;
}

static void op_cancel_all(provider_t *base) {
    gprov_t *g = base->impl;
    acall_t *c = g->async_calls;
    while (c) {
        acall_t *next = c->next; /* cancelling unlinks c */
        c->cancelled = true;
        if (c->call) grpc_call_cancel(c->call);
        c = next;
    }
}

static const provider_ops_t GRPC_PROVIDER_OPS = {
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

int grpc_provider_timeout_for(const grpc_provider_options_t *o, const char *method) {
    const char *m = strrchr(method, '/');
    m = m ? m + 1 : method;
    if (!strcmp(m, "Read") || !strcmp(m, "Check") || !strcmp(m, "Diff")) return o->call_timeout_ms;
    if (!strcmp(m, "GetSchema")) return o->schema_timeout_ms;
    return o->start_timeout_ms;
}

/* --- attach -------------------------------------------------------------------------------------- */

provider_t *grpc_provider_attach_with(const char *package, const char *version, int port, const pv_t *config,
                                      const grpc_provider_options_t *opts, diag_list_t *diags) {
    gprov_t *g = calloc(1, sizeof *g);
    if (!g) abort();
    g->arena = arena_new();
    grpc_provider_options_default(&g->opts);
    if (opts) {
        g->opts = *opts;
        if (!g->opts.host) g->opts.host = "127.0.0.1";
        if (g->opts.call_timeout_ms <= 0) g->opts.call_timeout_ms = 300000;
        if (g->opts.start_timeout_ms <= 0) g->opts.start_timeout_ms = 60000;
        if (g->opts.schema_timeout_ms <= 0) g->opts.schema_timeout_ms = 300000;
        if (!g->opts.stack) g->opts.stack = "cimport";
        if (!g->opts.project) g->opts.project = "cimport";
    }
    g->opts.host = arena_strdup(g->arena, g->opts.host);
    g->opts.cache_dir = arena_strdup(g->arena, g->opts.cache_dir);
    g->base.ops = &GRPC_PROVIDER_OPS;
    g->base.package = arena_strdup(g->arena, package);
    g->base.version = version && *version ? arena_strdup(g->arena, version) : NULL;
    g->base.impl = g;
    g->port = port;
    g->accept_secrets = g->accept_resources = true;
    /* The provider resource's URN: the explicit provider's, else the package's default provider's. */
    g->provider_urn = g->opts.provider_urn ? arena_strdup(g->arena, g->opts.provider_urn)
                                           : arena_sprintf(g->arena, "urn:pulumi:%s::%s::pulumi:providers:%s::%s",
                                                           g->opts.stack, g->opts.project, package,
                                                           stackstate_default_provider_name(g->arena, version, NULL));
    g->opts.provider_urn = NULL; /* the caller's strings: not kept */
    g->olds = g->opts.olds ? pv_clone(g->arena, g->opts.olds) : NULL;
    g->opts.olds = NULL;

    g->loop = g->opts.loop;
    if (!g->loop) {
        g->loop = grpc_loop_new();
        g->own_loop = true;
    }
    g->endpoint = g->opts.endpoint;
    if (!g->endpoint) {
        g->endpoint = engine_endpoint_start(g->loop, 0, log_to_current, g, diags);
        g->own_endpoint = true;
        if (!g->endpoint) goto fail;
    }
    g->conn = grpc_conn_open(g->loop, g->opts.host, port, diags);
    if (!g->conn) goto fail;

    arena_t *a = arena_new();
    int status;
    const char *engine_addr = engine_endpoint_address(g->endpoint);
    /* Handshake: UNIMPLEMENTED is normal (the Node.js host has none); its flags win when present. */
    Pulumirpc__ProviderHandshakeRequest hreq = PULUMIRPC__PROVIDER_HANDSHAKE_REQUEST__INIT;
    hreq.engine_address = (char *)engine_addr;
    hreq.configure_with_urn = true;
    Pulumirpc__ProviderHandshakeResponse *hresp = (Pulumirpc__ProviderHandshakeResponse *)call(
        g, RP "Handshake", &hreq.base, &pulumirpc__provider_handshake_response__descriptor, a, NULL, GRPC_UNIMPLEMENTED,
        &status, diags);
    if (hresp) {
        g->handshake = true;
        g->accept_secrets = hresp->accept_secrets;
        g->accept_resources = hresp->accept_resources;
    } else if (status != GRPC_UNIMPLEMENTED) {
        arena_free(a);
        goto fail;
    }
    if (g->opts.send_attach) {
        Pulumirpc__PluginAttach att = PULUMIRPC__PLUGIN_ATTACH__INIT;
        att.address = (char *)engine_addr;
        call(g, RP "Attach", &att.base, &google__protobuf__empty__descriptor, a, NULL, GRPC_UNIMPLEMENTED, &status,
             diags);
        if (status != GRPC_OK && status != GRPC_UNIMPLEMENTED) {
            arena_free(a);
            goto fail;
        }
    }
    Google__Protobuf__Empty empty = GOOGLE__PROTOBUF__EMPTY__INIT;
    Pulumirpc__PluginInfo *info = (Pulumirpc__PluginInfo *)call(
        g, RP "GetPluginInfo", &empty.base, &pulumirpc__plugin_info__descriptor, a, NULL, -1, &status, diags);
    if (!info) {
        arena_free(a);
        goto fail;
    }
    g->plugin_version = strdup(info->version ? info->version : "");
    arena_free(a);
    if (!do_configure(g, config, diags)) goto fail;
    return &g->base;
fail:
    op_close(&g->base);
    return NULL;
}

provider_t *grpc_provider_attach(const char *package, const char *version, int port, const pv_t *config,
                                 diag_list_t *diags) {
    grpc_provider_options_t o;
    grpc_provider_options_default(&o);
    o.send_attach = true;
    return grpc_provider_attach_with(package, version, port, config, &o, diags);
}

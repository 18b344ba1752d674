/* engine_endpoint.c — the engine service providers call back into (see engine_endpoint.h). */
#include "importer/engine_endpoint.h"

#include <stdlib.h>
#include <string.h>

#include "engine.pb-c.h"
#include "importer/h2server.h"
#include "importer/pbvalue.h"
#include "specs/importfile.h"

struct engine_endpoint {
    h2server_t *srv;
    engine_log_fn log;
    void *user;
};

char *engine_urn_describe(arena_t *a, const char *urn) {
    if (!urn || !*urn) return NULL;
    char *name = urn_name(a, urn), *type = urn_type(a, urn);
    if (!name || !type) return NULL;
    /* Built by hand: this runs for every provider call, and printf was 7% of cimport's CPU per call
     * (callgrind, bench_grpc). */
    static const char p1[] = "resource '", p2[] = "' of type '";
    size_t ln = strlen(name), lt = strlen(type);
    char *out = arena_alloc(a, sizeof p1 - 1 + ln + sizeof p2 - 1 + lt + 2);
    char *w = out;
    memcpy(w, p1, sizeof p1 - 1), w += sizeof p1 - 1;
    memcpy(w, name, ln), w += ln;
    memcpy(w, p2, sizeof p2 - 1), w += sizeof p2 - 1;
    memcpy(w, type, lt), w += lt;
    *w++ = '\'';
    *w = 0;
    return out;
}

static diag_severity_t severity_of(Pulumirpc__LogSeverity s) {
    switch (s) {
    case PULUMIRPC__LOG_SEVERITY__ERROR: return DIAG_ERROR;
    case PULUMIRPC__LOG_SEVERITY__WARNING: return DIAG_WARNING;
    case PULUMIRPC__LOG_SEVERITY__INFO: return DIAG_INFO;
    default: return DIAG_DEBUG;
    }
}

static void handle(void *user, h2server_call_t *call, const char *path, const unsigned char *msg, size_t len) {
    engine_endpoint_t *e = user;
    bool is_log = strcmp(path, "/pulumirpc.Engine/Log") == 0;
    bool is_status = strcmp(path, "/pulumirpc.Engine/LogStatus") == 0;
    if (!is_log && !is_status) {
        /* Health/Check included: UNIMPLEMENTED keeps Go providers' health checks passing. */
        h2server_reply(call, GRPC_UNIMPLEMENTED, "cimport's engine endpoint does not implement this method", NULL, 0);
        return;
    }
    arena_t *a = arena_new();
    ProtobufCAllocator al = pbvalue_arena_allocator(a);
    Pulumirpc__LogRequest *req = pulumirpc__log_request__unpack(&al, len, msg);
    if (!req) {
        h2server_reply(call, GRPC_INVALID_ARGUMENT, "malformed LogRequest", NULL, 0);
        arena_free(a);
        return;
    }
    if (e->log) {
        /* The diagnostic is built in a throwaway list so the callback decides where it goes. */
        diag_list_t tmp;
        diag_list_init(&tmp);
        const char *urn = req->urn ? req->urn : "";
        diag_t *d = diag_add(&tmp, severity_of(req->severity), DIAG_PROVIDER_LOG, NULL, engine_urn_describe(a, urn),
                             "%s", req->message ? req->message : "");
        e->log(e->user, urn, d, is_status);
        diag_list_free(&tmp);
    }
    arena_free(a);
    h2server_reply(call, GRPC_OK, NULL, NULL, 0); /* google.protobuf.Empty */
}

engine_endpoint_t *engine_endpoint_start(grpc_loop_t *loop, int port, engine_log_fn log, void *user,
                                         diag_list_t *diags) {
    engine_endpoint_t *e = calloc(1, sizeof *e);
    if (!e) abort();
    e->log = log;
    e->user = user;
    e->srv = h2server_start(loop, port, handle, e, diags);
    if (!e->srv) {
        free(e);
        return NULL;
    }
    return e;
}

void engine_endpoint_free(engine_endpoint_t *e) {
    if (!e) return;
    h2server_free(e->srv);
    free(e);
}

const char *engine_endpoint_address(const engine_endpoint_t *e) {
    return h2server_address(e->srv);
}

void engine_endpoint_set_log(engine_endpoint_t *e, engine_log_fn log, void *user) {
    e->log = log;
    e->user = user;
}

void engine_log_to_list(void *user, const char *urn, const diag_t *d, bool status) {
    (void)urn;
    if (status) return;
    diag_list_t *l = user;
    diag_t *copy = diag_add(l, d->severity, d->code, d->file, d->resource, "%s", d->message);
    copy->line = d->line;
}

/* engine_endpoint.h — the small engine service cimport runs for provider plugins to call back into.
 *
 * Providers get this endpoint's address (argv[1] at launch, Handshake's engine_address, Attach). It
 * answers pulumirpc.Engine/Log and /LogStatus — each delivered to a callback as a diagnostic at the
 * message's severity, attached to the resource its URN names — and every other method, including
 * grpc.health.v1.Health/Check, with UNIMPLEMENTED: Go providers health-check the engine and keep
 * running only when the answer is OK or UNIMPLEMENTED (provider-protocol.md §6.4). */
#ifndef CIMPORT_ENGINE_ENDPOINT_H
#define CIMPORT_ENGINE_ENDPOINT_H

#include "base/diag.h"
#include "importer/grpc.h"

typedef struct engine_endpoint engine_endpoint_t;

/* One Log/LogStatus message as a diagnostic: severity from the message (DEBUG/INFO/WARNING/ERROR),
 * code DIAG_PROVIDER_LOG, `resource` = "resource 'NAME' of type 'TYPE'" when the URN parses, else
 * NULL. `urn` is the raw URN ("" for a global message); `status` says it came from LogStatus
 * (transient progress text). The diagnostic lives only during the call: copy what you keep. */
typedef void (*engine_log_fn)(void *user, const char *urn, const diag_t *d, bool status);

/* Serves on 127.0.0.1:port (0 = any free port) on the given loop. log may be NULL (messages are
 * then acknowledged and dropped). NULL with a diagnostic when it cannot listen. */
engine_endpoint_t *engine_endpoint_start(grpc_loop_t *loop, int port, engine_log_fn log, void *user,
                                         diag_list_t *diags);
void engine_endpoint_free(engine_endpoint_t *e);
/* "127.0.0.1:PORT" */
const char *engine_endpoint_address(const engine_endpoint_t *e);
/* Replaces the log callback (e.g. to route messages to the resource being imported). */
void engine_endpoint_set_log(engine_endpoint_t *e, engine_log_fn log, void *user);

/* A ready-made engine_log_fn: user is a diag_list_t*; appends a copy of every Log message
 * (LogStatus messages are not kept). */
void engine_log_to_list(void *user, const char *urn, const diag_t *d, bool status);

/* "resource 'NAME' of type 'TYPE'" for a URN `urn:pulumi:STACK::PROJECT::[PARENT$]TYPE::NAME`, or NULL
 * when it is not one. */
char *engine_urn_describe(arena_t *a, const char *urn);

#endif

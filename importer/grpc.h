/* grpc.h — a unary gRPC client over cleartext HTTP/2 (libnghttp2), and the poll-based event loop that
 * drives it together with importer/h2server.h.
 *
 * One grpc_conn_t is one TCP connection to a provider plugin; any number of calls run on it at once
 * as HTTP/2 streams. Nothing blocks except grpc_call_unary (which runs the loop until its own call is
 * done): start calls with grpc_call_start, then run grpc_loop_run_once until they complete. Every
 * call's completion callback runs exactly once — from grpc_loop_run_once, grpc_call_cancel or
 * grpc_conn_close — never from inside grpc_call_start. Callbacks may start new calls (chaining) but
 * must not close the connection, free the loop, or run the loop themselves.
 *
 * Wire format: each message is a 5-byte prefix (compressed flag 0, big-endian length) and the
 * protobuf bytes; the status comes from the `grpc-status`/`grpc-message` trailers (or the headers of a
 * trailers-only response). Messages are capped at GRPC_MAX_MESSAGE both ways, as Pulumi's engine
 * does. Transport failures become statuses too (UNAVAILABLE, INTERNAL, ...), with a message that
 * says what happened. Single-threaded; no global state. */
#ifndef CIMPORT_GRPC_H
#define CIMPORT_GRPC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

/* 400 MiB: the message limit of Pulumi's gRPC channels (provider-protocol.md §4). */
#define GRPC_MAX_MESSAGE ((size_t)400 * 1024 * 1024)

/* gRPC status codes. */
typedef enum {
    GRPC_OK = 0,
    GRPC_CANCELLED = 1,
    GRPC_UNKNOWN = 2,
    GRPC_INVALID_ARGUMENT = 3,
    GRPC_DEADLINE_EXCEEDED = 4,
    GRPC_NOT_FOUND = 5,
    GRPC_ALREADY_EXISTS = 6,
    GRPC_PERMISSION_DENIED = 7,
    GRPC_RESOURCE_EXHAUSTED = 8,
    GRPC_FAILED_PRECONDITION = 9,
    GRPC_ABORTED = 10,
    GRPC_OUT_OF_RANGE = 11,
    GRPC_UNIMPLEMENTED = 12,
    GRPC_INTERNAL = 13,
    GRPC_UNAVAILABLE = 14,
    GRPC_DATA_LOSS = 15,
    GRPC_UNAUTHENTICATED = 16,
} grpc_status_t;

/* "OK", "UNIMPLEMENTED", ...; "status N" text for codes outside the table is not returned: unknown
 * codes give "UNKNOWN_STATUS". */
const char *grpc_status_name(int status);

/* --- event loop ---------------------------------------------------------------------------------- */

typedef struct grpc_loop grpc_loop_t;

/* A pollable source: a client connection, a listening socket, a server session. */
typedef struct grpc_loop_source {
    /* Says which fd to poll for which events (fd < 0: none this round) and may lower *timeout_ms
     * (milliseconds from now, -1 = no limit) for its own deadlines. */
    void (*prepare)(void *user, int *fd, short *events, int *timeout_ms);
    /* Runs after each poll, with the fd's revents (0 when it was not ready). */
    void (*dispatch)(void *user, short revents);
    void *user;
} grpc_loop_source_t;

grpc_loop_t *grpc_loop_new(void);
/* The loop must be empty: close connections and servers first. */
void grpc_loop_free(grpc_loop_t *loop);
/* Returns a handle for grpc_loop_remove. Safe to call from a dispatch (the new source is polled from
 * the next round on). */
int grpc_loop_add(grpc_loop_t *loop, const grpc_loop_source_t *src);
/* Safe to call from a dispatch, including the source's own. */
void grpc_loop_remove(grpc_loop_t *loop, int handle);
/* One poll round over every source, waiting at most timeout_ms (-1: until something happens).
 * Returns false when poll itself failed or there is nothing to wait for. */
bool grpc_loop_run_once(grpc_loop_t *loop, int timeout_ms);
/* Monotonic clock in milliseconds. */
int64_t grpc_now_ms(void);

/* --- client -------------------------------------------------------------------------------------- */

typedef struct grpc_conn grpc_conn_t;
typedef struct grpc_call grpc_call_t;

typedef struct grpc_result {
    int status;                /* grpc_status_t */
    const char *message;       /* grpc-message (percent-decoded) or what went wrong; "" when none */
    const unsigned char *data; /* the response message (protobuf bytes) when status is OK */
    size_t len;
} grpc_result_t;

/* Completion callback: the result and its memory are valid only during the call. */
typedef void (*grpc_done_fn)(void *user, const grpc_result_t *result);

/* Connects to host:port (IPv4/IPv6 literal or name; in practice 127.0.0.1) and sends the HTTP/2
 * preface. Returns NULL with a diagnostic naming the address when the connection is refused. */
grpc_conn_t *grpc_conn_open(grpc_loop_t *loop, const char *host, int port, diag_list_t *diags);
/* Completes every call still running with CANCELLED (RST_STREAM sent where possible), closes the
 * socket and frees the connection. */
void grpc_conn_close(grpc_conn_t *c);
/* Calls started and not yet completed. */
size_t grpc_conn_in_flight(const grpc_conn_t *c);
/* False once the connection failed or the server sent GOAWAY: new calls would fail with
 * UNAVAILABLE; open a new connection. */
bool grpc_conn_usable(const grpc_conn_t *c);
/* "127.0.0.1:PORT" */
const char *grpc_conn_address(const grpc_conn_t *c);

/* Starts a unary call of `method` ("/pkg.Service/Method") with the packed request message (copied).
 * timeout_ms > 0 sets a deadline (sent as grpc-timeout and enforced here: the stream is reset and the
 * call completes with DEADLINE_EXCEEDED); 0 means none. The handle stays valid until done runs. */
grpc_call_t *grpc_call_start(grpc_conn_t *c, const char *method, const void *msg, size_t len, int timeout_ms,
                             grpc_done_fn done, void *user);
/* Resets the stream (RST_STREAM CANCEL) and completes the call with CANCELLED before returning. */
void grpc_call_cancel(grpc_call_t *call);

/* A completed call's outcome with owned memory. */
typedef struct grpc_response {
    int status;
    char *message;       /* malloc'd, never NULL */
    unsigned char *data; /* malloc'd, NULL when status is not OK */
    size_t len;
} grpc_response_t;

/* Runs one call to completion, driving the whole loop meanwhile (other connections and servers on the
 * loop keep being served). Returns whether the status is OK; `out` is filled either way and must be
 * released with grpc_response_free. Must not be called from a completion callback. */
bool grpc_call_unary(grpc_conn_t *c, const char *method, const void *msg, size_t len, int timeout_ms,
                     grpc_response_t *out);
/* The same, cancelled (CANCELLED, its stream reset) as soon as *stop is set, checked at least every
 * 200 ms: a blocking call a SIGINT or SIGTERM stops at once. stop NULL: grpc_call_unary. */
bool grpc_call_unary_until(grpc_conn_t *c, const char *method, const void *msg, size_t len, int timeout_ms,
                           const volatile sig_atomic_t *stop, grpc_response_t *out);
void grpc_response_free(grpc_response_t *r);

/* --- helpers shared with the server -------------------------------------------------------------- */

/* Percent-encodes a grpc-message value (malloc'd). */
char *grpc_message_encode(const char *msg);
/* Decodes a percent-encoded grpc-message (malloc'd); malformed escapes are kept verbatim. */
char *grpc_message_decode(const char *text, size_t len);

#endif

/* h2server.h — a small gRPC server over cleartext HTTP/2 (libnghttp2) on 127.0.0.1, driven by the
 * same event loop as the client (importer/grpc.h).
 *
 * It serves cimport's engine endpoint (importer/engine_endpoint.h) that providers call back into,
 * and is meant to be reused by test peers and a benchmark provider. The handler gets each unary
 * request once its last byte has arrived and answers with h2server_reply — at once, or later from
 * any point of the loop (a deferred reply is how a benchmark simulates latency). Requests that are
 * not well-formed gRPC are answered by the server itself with a trailers-only INTERNAL status. */
#ifndef CIMPORT_H2SERVER_H
#define CIMPORT_H2SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "importer/grpc.h"

typedef struct h2server h2server_t;
typedef struct h2server_call h2server_call_t;

/* path is "/pkg.Service/Method"; msg is the request message without its 5-byte prefix. Both are
 * valid until the call is replied to. Every call handed to the handler must get exactly one
 * h2server_reply (or h2server_reply_raw). */
typedef void (*h2server_handler_fn)(void *user, h2server_call_t *call, const char *path, const unsigned char *msg,
                                    size_t len);

/* Listens on 127.0.0.1:port (0 = any free port). NULL with a diagnostic when it cannot listen. */
h2server_t *h2server_start(grpc_loop_t *loop, int port, h2server_handler_fn handler, void *user, diag_list_t *diags);
/* Closes the listener and every session; unreplied calls are freed (later replies are not allowed). */
void h2server_free(h2server_t *s);
int h2server_port(const h2server_t *s);
/* "127.0.0.1:PORT", the address to hand a provider. */
const char *h2server_address(const h2server_t *s);

/* Answers a call: with status OK the message (protobuf bytes, copied) is sent followed by the
 * trailers; any other status is sent as a trailers-only response with `message` as grpc-message.
 * When the client has already gone (reset the stream or disconnected) the reply is dropped. */
void h2server_reply(h2server_call_t *call, int status, const char *message, const void *msg, size_t len);
/* Sends `body` verbatim as the DATA of an OK response (no prefix added) — for testing how clients
 * handle malformed framing. */
void h2server_reply_raw(h2server_call_t *call, const void *body, size_t len);
/* Sends every reply made so far now, instead of at the session's next turn of the loop: a server
 * that answers from a timer (after a delay it promised) calls it once its due replies are made, so
 * they do not wait behind the new requests the loop reads first. A session inside its own read (the
 * handler calling this) keeps its replies for the end of that read, as without this call. */
void h2server_flush(h2server_t *s);
/* Runs `fn(user)` after each request a read from a connection completes has been handed to the
 * handler, before the rest of that read is parsed, and outside nghttp2 (h2server_flush works there):
 * a server answering on a timer sends what fell due meanwhile instead of after the whole read, which
 * can hold dozens of requests. NULL (the default) parses each read in one go. */
typedef void (*h2server_after_request_fn)(void *user);
void h2server_set_after_request(h2server_t *s, h2server_after_request_fn fn, void *user);
/* Whether the client reset the stream or disconnected before the reply. */
bool h2server_call_cancelled(const h2server_call_t *call);

/* Graceful shutdown notice: sends GOAWAY on every connection. Calls already received still get their
 * replies; clients must open a new connection for new calls. */
void h2server_goaway(h2server_t *s);

/* Calls handed to the handler and not yet replied to (for tests and shutdown decisions). */
size_t h2server_pending(const h2server_t *s);

#endif

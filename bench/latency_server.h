/* latency_server.h — a fake Pulumi resource provider served on the project's HTTP/2 server
 * (importer/h2server.h) that answers every call after an injected latency, for measuring how the
 * engine overlaps provider calls (bench/bench_parallel.c, tests/unit/test_engine_parallel.c).
 *
 * It serves pulumirpc.ResourceProvider: GetPluginInfo, Configure, GetSchema (package `bench`, one
 * resource type `bench:index:Thing` with inputs `name` (required), `size`, `tags`), Read, Check and
 * Diff; Handshake, Attach and CheckConfig answer UNIMPLEMENTED as the Node.js host does. Every reply
 * is held for `latency_ms` (to the microsecond, on a timerfd) on the loop — calls overlap exactly as far as the client
 * lets them. Read of ID X returns inputs {name: X, size: 7, tags: {team: "core"}} and state = inputs + {arn}; IDs
 * starting with `missing-` do not exist (no state), IDs starting with `fail-` make Read fail with INTERNAL. Check
 * echoes its news; Diff compares news with the old inputs by top-level key. So each resource takes exactly 5 calls:
 * Read, Check, Diff, (copy size and tags) Check, Diff.
 *
 * Not part of the cimport libraries: the benchmark and the test include latency_server.c. */
#ifndef CIMPORT_LATENCY_SERVER_H
#define CIMPORT_LATENCY_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "base/diag.h"
#include "importer/grpc.h"

#define LATENCY_SERVER_CALLS_PER_RESOURCE 5

typedef struct latency_server latency_server_t;

/* Serves on 127.0.0.1 (any free port) on `loop`. NULL with a diagnostic when it cannot listen. */
latency_server_t *latency_server_start(grpc_loop_t *loop, int latency_ms, diag_list_t *diags);
/* Replies still waiting for their latency are dropped. */
void latency_server_free(latency_server_t *s);
int latency_server_port(const latency_server_t *s);
/* Changes the latency of calls received from now on (0: answer at the next loop round). */
void latency_server_set_latency(latency_server_t *s, int latency_ms);
/* Read/Check/Diff calls answered so far. */
size_t latency_server_calls(const latency_server_t *s);
/* The most calls held at once (how far the client overlapped them). */
size_t latency_server_peak_pending(const latency_server_t *s);

/* How long replies were really held, on average, in microseconds (0 before the first): the
 * latency the client saw from this server, to hold against the promised latency_ms. */
double latency_server_mean_hold_us(const latency_server_t *s);
/* The shortest hold of any reply so far (-1 before the first): never below latency_ms × 1000, the
 * early wake-up included. */
int64_t latency_server_min_hold_us(const latency_server_t *s);
/* How long after their due time replies left (the send carrying them returned), on average, in
 * microseconds: what the provider adds to its promise beyond the hold. */
double latency_server_mean_late_us(const latency_server_t *s);

/* Runs a server in a child process of its own (its own CPU, as a real plugin has) until
 * latency_server_stop. Returns the child's pid and sets *port and *stats_fd (the pipe the child
 * reports on), or -1 with a diagnostic. */
pid_t latency_server_spawn(int latency_ms, int *port, int *stats_fd, diag_list_t *diags);
/* Stops a spawned server and reaps it: returns its mean hold in microseconds (-1 when it did not
 * say), sets *late_us (when not NULL) to its mean lateness past due and fills *ru with its resource
 * usage. */
double latency_server_stop(pid_t pid, int stats_fd, struct rusage *ru, double *late_us);

#endif

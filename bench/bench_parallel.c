/* bench_parallel.c — the engine against a provider that takes 20 ms per call: how close the wall time
 * comes to the bound (calls × latency ÷ parallel) when calls overlap as HTTP/2 streams on one
 * connection, and what it costs in memory, at 100, 1,000 and 10,000 resources.
 *
 * The provider is bench/latency_server.c in a process of its own (as a real plugin is), spoken to
 * through the gRPC provider's asynchronous operations. Each size runs in a forked child so its peak
 * RSS is its own. Results are streamed (release_results, as `--json` streaming would use them); the
 * 10,000 run is repeated with every result kept. Then the provider's ceiling: the same 10,000 with no
 * latency (calls/s end to end) and the server's CPU time per call (its own ceiling).
 *
 * "transport only" is the floor under the engine: as many calls as the largest run makes, 64 at a
 * time on the same kind of connection to the same provider, each a Check whose request was packed
 * once, started again from the previous call's completion — no engine, no request building, no
 * response decoding. The engine's rows are measured against it: what the engine adds is the
 * difference, the rest is the connection (kernel loopback TCP, nghttp2) and the provider.
 *
 *   bench_parallel [N...]     (default 100 1000 10000; parallel 64, 20 ms per call;
 *                              BENCH_LATENCY_MS=1 for the 1 ms provider of the scale bench)
 *   target: wall ≤ 1.1 × bound and peak RSS ≤ 300 MB at 10,000; provider ceiling well above
 *   3,200 calls/s (50,000 calls in the 15.6 s bound) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/latency_server.h"
#include "importer/engine.h"
#include "importer/grpc_provider.h"
#include "importer/pbvalue.h"
#include "provider.pb-c.h"

#define BENCH_PARALLEL 64
#define BENCH_LATENCY_MS 20

typedef struct figures {
    size_t n, ok, calls;
    double wall_ms, bound_ms;
    long rss_kb;          /* the engine process */
    double server_cpu_ms; /* the provider process */
    double hold_us;       /* how long the provider really held a reply, on average */
    double late_us;       /* how long after its due time a reply left the provider, on average */
    double own_cpu_ms;    /* the engine process (user + system) */
    double own_sys_ms;    /* of which system (the kernel: sockets, poll) */
    size_t peak_in_flight, peak_held;
} figures_t;

typedef struct bench_ctx {
    grpc_loop_t *loop;
    int port;
    size_t delivered, ok;
} bench_ctx_t;

static provider_t *bench_factory(void *user, const char *package, const char *version, const char *url,
                                 diag_list_t *d) {
    bench_ctx_t *c = user;
    grpc_provider_options_t o;
    grpc_provider_options_default(&o);
    o.loop = c->loop;
    o.no_schema_cache = true;
    return grpc_provider_attach_with(package, version, c->port, NULL, &o, d);
}

static void on_result(void *user, const import_result_t *r, size_t done, size_t total) {
    bench_ctx_t *c = user;
    c->delivered++;
    c->ok += r->status == IMPORT_OK && r->verified;
}

/* One run in this process: spawns the provider, imports n resources, stops the provider. */
static figures_t run(size_t n, int latency_ms, bool stream) {
    figures_t f = {.n = n};
    diag_list_t d;
    diag_list_init(&d);
    bench_ctx_t c = {.loop = grpc_loop_new()};
    int stats_fd = -1;
    pid_t srv = latency_server_spawn(latency_ms, &c.port, &stats_fd, &d);
    if (srv < 0) {
        fprintf(stderr, "bench_parallel: %s\n", d.head ? d.head->message : "cannot start the provider");
        exit(1);
    }
    arena_t *a = arena_new();
    import_plan_t plan = {.n_items = n};
    plan.items = arena_alloc(a, n * sizeof *plan.items);
    for (size_t k = 0; k < n; k++) {
        import_plan_item_t *it = &plan.items[k];
        it->type = "bench:index:Thing";
        it->logical_name = arena_sprintf(a, "r%zu", k);
        it->variable = it->logical_name;
        it->id = arena_sprintf(a, "r-%zu", k);
        it->urn = arena_sprintf(a, "urn:pulumi:dev::bench::bench:index:Thing::r%zu", k);
        it->parent_index = -1;
        it->provider_index = -1;
    }
    provider_registry_t *reg = provider_registry_new(bench_factory, &c);
    engine_stats_t st;
    engine_options_t o;
    engine_options_default(&o);
    o.parallel = BENCH_PARALLEL;
    o.release_results = stream;
    o.on_result = on_result;
    o.user = &c;
    o.stats = &st;
    int64_t t0 = grpc_now_ms();
    import_result_t *r = engine_run(a, &plan, reg, NULL, &o, &d);
    f.wall_ms = (double)(grpc_now_ms() - t0);
    f.ok = c.ok;
    f.calls = st.reads + st.checks + st.diffs;
    f.bound_ms = (double)f.calls * latency_ms / BENCH_PARALLEL;
    f.peak_in_flight = st.peak_in_flight;
    f.peak_held = st.peak_held;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    f.rss_kb = ru.ru_maxrss;
    f.own_cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    f.own_sys_ms = ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
    engine_results_free(r, n);
    provider_registry_free(reg);
    grpc_loop_free(c.loop);
    struct rusage sru;
    f.hold_us = latency_server_stop(srv, stats_fd, &sru, &f.late_us);
    f.server_cpu_ms =
        (sru.ru_utime.tv_sec + sru.ru_stime.tv_sec) * 1e3 + (sru.ru_utime.tv_usec + sru.ru_stime.tv_usec) / 1e3;
    arena_free(a);
    diag_list_free(&d);
    return f;
}

typedef struct transport_ctx {
    grpc_conn_t *conn;
    unsigned char *req;
    size_t req_len;
    size_t to_start, done;
} transport_ctx_t;

static void transport_done(void *user, const grpc_result_t *r);

static void transport_start(transport_ctx_t *t) {
    t->to_start--;
    grpc_call_start(t->conn, "/pulumirpc.ResourceProvider/Check", t->req, t->req_len, 0, transport_done, t);
}

static void transport_done(void *user, const grpc_result_t *r) {
    transport_ctx_t *t = user;
    if (r->status != GRPC_OK) {
        fprintf(stderr, "bench_parallel: a transport-only call failed: %s\n", r->message);
        exit(1);
    }
    t->done++;
    if (t->to_start) transport_start(t);
}

/* The transport alone (see the head of the file): the calls n resources make, no engine. */
static figures_t run_transport(size_t n, int latency_ms) {
    figures_t f = {.n = n, .calls = 5 * n, .peak_in_flight = BENCH_PARALLEL};
    diag_list_t d;
    diag_list_init(&d);
    int port = 0, stats_fd = -1;
    pid_t srv = latency_server_spawn(latency_ms, &port, &stats_fd, &d);
    grpc_loop_t *loop = grpc_loop_new();
    grpc_conn_t *conn = srv < 0 ? NULL : grpc_conn_open(loop, "127.0.0.1", port, &d);
    if (!conn) {
        fprintf(stderr, "bench_parallel: %s\n", d.head ? d.head->message : "cannot start the provider");
        exit(1);
    }
    /* What the engine's Check of a resource carries: the inputs Read reported, old and new. */
    arena_t *a = arena_new();
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "name", pv_string(a, "r-12345"));
    pv_object_set(a, in, "size", pv_number(a, 7));
    pv_t *tags = pv_object(a);
    pv_object_set(a, tags, "team", pv_string(a, "core"));
    pv_object_set(a, in, "tags", tags);
    pbvalue_options_t o;
    pbvalue_options_default(&o);
    Pulumirpc__CheckRequest req = PULUMIRPC__CHECK_REQUEST__INIT;
    req.urn = "urn:pulumi:dev::bench::bench:index:Thing::r12345";
    req.olds = pbvalue_struct_from_pv(a, in, &o, "Check", NULL);
    req.news = pbvalue_struct_from_pv(a, in, &o, "Check", NULL);
    transport_ctx_t t = {.conn = conn, .to_start = f.calls};
    t.req = pbvalue_pack(&req.base, &t.req_len);
    int64_t t0 = grpc_now_ms();
    for (int i = 0; i < BENCH_PARALLEL && t.to_start; i++)
        transport_start(&t);
    while (t.done < f.calls)
        if (!grpc_loop_run_once(loop, -1)) break;
    f.wall_ms = (double)(grpc_now_ms() - t0);
    f.ok = t.done == f.calls ? n : 0;
    f.bound_ms = (double)f.calls * latency_ms / BENCH_PARALLEL;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    f.rss_kb = ru.ru_maxrss;
    f.own_cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    f.own_sys_ms = ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
    grpc_conn_close(conn);
    grpc_loop_free(loop);
    struct rusage sru;
    f.hold_us = latency_server_stop(srv, stats_fd, &sru, &f.late_us);
    f.server_cpu_ms =
        (sru.ru_utime.tv_sec + sru.ru_stime.tv_sec) * 1e3 + (sru.ru_utime.tv_usec + sru.ru_stime.tv_usec) / 1e3;
    free(t.req);
    arena_free(a);
    diag_list_free(&d);
    return f;
}

typedef enum { RUN_STREAMED, RUN_KEPT, RUN_TRANSPORT } run_mode_t;

/* The run in a forked child, so peak RSS is this run's alone. */
static figures_t run_child(size_t n, int latency_ms, run_mode_t mode) {
    int fds[2];
    if (pipe(fds) != 0) exit(1);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        figures_t f = mode == RUN_TRANSPORT ? run_transport(n, latency_ms) : run(n, latency_ms, mode == RUN_STREAMED);
        _exit(write(fds[1], &f, sizeof f) == (ssize_t)sizeof f ? 0 : 1);
    }
    close(fds[1]);
    figures_t f = {0};
    if (read(fds[0], &f, sizeof f) != (ssize_t)sizeof f) {
        fprintf(stderr, "bench_parallel: the run of %zu resources failed\n", n);
        exit(1);
    }
    close(fds[0]);
    waitpid(pid, NULL, 0);
    return f;
}

/* "held" divides by the bound computed with the provider's real mean hold instead of the promised
 * latency: what is left above 1 is the engine's and the connection's share, not the fake provider's
 * timer overshoot. */
static void print_row(const char *what, const figures_t *f) {
    double per_call = f->calls ? 1e3 / (double)f->calls : 0;
    double held_bound = (double)f->calls * f->hold_us / 1e3 / BENCH_PARALLEL;
    printf(
        "| %s | %zu | %zu | %.0f ms | %.0f ms | %.3f | %.3f | %.1f MB | %zu/%zu | %zu | %.1f µs (%.1f + %.1f) | %.0f "
        "µs | %.1f µs | %.1f µs |\n",
        what, f->n, f->calls, f->wall_ms, f->bound_ms, f->wall_ms / f->bound_ms,
        held_bound > 0 ? f->wall_ms / held_bound : 0, f->rss_kb / 1024.0, f->ok, f->n, f->peak_in_flight,
        f->own_cpu_ms * per_call, (f->own_cpu_ms - f->own_sys_ms) * per_call, f->own_sys_ms * per_call, f->hold_us,
        f->late_us, f->calls ? f->server_cpu_ms * 1e3 / (double)f->calls : 0);
}

int main(int argc, char **argv) {
    size_t sizes[8] = {100, 1000, 10000};
    size_t n_sizes = 3;
    if (argc > 1) {
        n_sizes = 0;
        for (int i = 1; i < argc && n_sizes < 8; i++)
            sizes[n_sizes++] = strtoul(argv[i], NULL, 10);
    }
    size_t largest = 0;
    for (size_t i = 0; i < n_sizes; i++)
        largest = sizes[i] > largest ? sizes[i] : largest;
    const char *lat_env = getenv("BENCH_LATENCY_MS");
    int latency = lat_env && atoi(lat_env) > 0 ? atoi(lat_env) : BENCH_LATENCY_MS;
    printf("parallel %d, %d ms per call, provider in its own process, one HTTP/2 connection\n\n", BENCH_PARALLEL,
           latency);
    printf("| run | resources | calls | wall | bound | wall/bound | wall/held | peak RSS | verified | in flight | "
           "own CPU/call (user + sys) | provider's mean hold | reply sent past due | provider CPU/call |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < n_sizes; i++) {
        figures_t f = run_child(sizes[i], latency, RUN_STREAMED);
        print_row("streamed", &f);
        fflush(stdout);
    }
    figures_t kept = run_child(largest, latency, RUN_KEPT);
    print_row("all results kept", &kept);
    figures_t floor = run_child(largest, latency, RUN_TRANSPORT);
    print_row("transport only (no engine)", &floor);
    figures_t zero = run_child(largest, 0, RUN_STREAMED);
    printf("\nprovider ceiling, same run, no latency: %zu calls in %.0f ms = %.0f calls/s end to end (engine and "
           "provider on 2 cores); provider CPU %.0f ms = %.1f µs per call, i.e. %.0f calls/s on one core; "
           "asked of it: %.0f calls/s\n",
           zero.calls, zero.wall_ms, zero.calls / (zero.wall_ms / 1e3), zero.server_cpu_ms,
           zero.server_cpu_ms * 1e3 / (double)zero.calls, zero.calls / (zero.server_cpu_ms / 1e3),
           (double)BENCH_PARALLEL * 1000 / latency);
    return 0;
}

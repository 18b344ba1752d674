/* bench_grpc.c — Read+Check+Diff triples per second against the Node.js random provider
 * (examples/providers/random on Pulumi's own provider host) through the plugin host, and cimport's
 * own CPU per call.
 *
 * The plugin is found on a search directory, launched and attached by plugin_host_factory, then
 * driven through the provider's asynchronous operations, each triple chained Read(id) → Check(read
 * inputs) → Diff(state, inputs, checked inputs), all on the one HTTP/2 connection:
 *   - sequential: one chain;
 *   - 32 streams: 32 chains at once on the one connection;
 *   - the host's ceiling, measured in the same run: 32 chains spread over 4 separate connections
 *     (the Node host is single-threaded, so it is the bottleneck either way).
 * cimport's CPU per call is this process's user+system time (getrusage) divided by the calls; under
 * `valgrind --tool=callgrind --instr-atstart=no` the sequential phase alone is instrumented, so
 * callgrind's total Ir divided by the printed call count gives the instructions per call.
 *
 *   bench_grpc [triples]      (default 3000; target: ≤ 20 µs of cimport CPU per call)
 */
#define _GNU_SOURCE
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <valgrind/callgrind.h>

#include "importer/grpc_provider.h"
#include "importer/plugin_host.h"

#define URN "urn:pulumi:bench::bench::random:index/randomString:RandomString::s"
#define ID "hello-world-bench"

typedef struct chain chain_t;

typedef struct run {
    provider_t **providers;
    size_t n_providers;
    size_t target, started, done, errors;
    chain_t *chains;
} run_t;

struct chain {
    run_t *run;
    provider_t *p;
    int step; /* 0 read, 1 check, 2 diff */
    arena_t *a;
    diag_list_t diags;
    provider_read_result_t rr;
    provider_check_result_t cr;
    provider_diff_result_t dr;
};

static void chain_next(void *user, bool ok);

static void chain_start(chain_t *c) {
    run_t *r = c->run;
    if (r->started >= r->target) return;
    r->started++;
    if (c->a) arena_free(c->a);
    diag_list_free(&c->diags);
    c->a = arena_new();
    diag_list_init(&c->diags);
    c->step = 0;
    c->p->ops->read_async(c->p, URN, ID, NULL, NULL, c->a, &c->rr, &c->diags, chain_next, c);
}

static void chain_next(void *user, bool ok) {
    chain_t *c = user;
    run_t *r = c->run;
    if (!ok) {
        r->errors++;
        if (r->errors == 1 && c->diags.head) fprintf(stderr, "bench_grpc: %s\n", c->diags.head->message);
        r->done++;
        chain_start(c);
        return;
    }
    if (c->step == 0) {
        c->step = 1;
        c->p->ops->check_async(c->p, URN, c->rr.inputs, c->rr.inputs, NULL, 0, c->a, &c->cr, &c->diags, chain_next, c);
    } else if (c->step == 1) {
        c->step = 2;
        c->p->ops->diff_async(c->p, URN, ID, c->rr.state, c->rr.inputs, c->cr.inputs, c->a, &c->dr, &c->diags,
                              chain_next, c);
    } else {
        if (c->dr.changes != DIFF_NONE) r->errors++;
        r->done++;
        chain_start(c);
    }
}

static void cpu_s(double *user, double *sys) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    *user = u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6;
    *sys = u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

typedef struct figures {
    double triples_per_s, cpu_us_per_call, user_us_per_call, wall_s;
    size_t errors;
} figures_t;

static figures_t drive(grpc_loop_t *loop, provider_t **ps, size_t n_ps, size_t n_chains, size_t triples) {
    run_t r = {ps, n_ps, triples, 0, 0, 0, NULL};
    r.chains = calloc(n_chains, sizeof *r.chains);
    double u0, s0, u1, s1;
    cpu_s(&u0, &s0);
    int64_t t0 = grpc_now_ms();
    for (size_t i = 0; i < n_chains; i++) {
        r.chains[i].run = &r;
        r.chains[i].p = ps[i % n_ps];
        diag_list_init(&r.chains[i].diags);
        chain_start(&r.chains[i]);
    }
    while (r.done < triples) {
        size_t ran = 0;
        for (size_t i = 0; i < n_ps; i++)
            ran += ps[i]->ops->poll ? ps[i]->ops->poll(ps[i]) : 0;
        if (!ran) grpc_loop_run_once(loop, 1000);
    }
    double wall = (grpc_now_ms() - t0) / 1e3;
    cpu_s(&u1, &s1);
    for (size_t i = 0; i < n_chains; i++) {
        arena_free(r.chains[i].a);
        diag_list_free(&r.chains[i].diags);
    }
    free(r.chains);
    double calls = triples * 3.0;
    figures_t f = {triples / wall, (u1 - u0 + s1 - s0) / calls * 1e6, (u1 - u0) / calls * 1e6, wall, r.errors};
    return f;
}

static void print(const char *what, const figures_t *f) {
    printf("%-34s %6.0f triples/s %6.0f calls/s  cimport CPU %5.1f us/call (user %5.1f)  %.2f s, %zu errors\n", what,
           f->triples_per_s, f->triples_per_s * 3, f->cpu_us_per_call, f->user_us_per_call, f->wall_s, f->errors);
}

int main(int argc, char **argv) {
    size_t triples = argc > 1 ? strtoul(argv[1], NULL, 10) : 3000;
    char src[4096];
    snprintf(src, sizeof src, "%s", __FILE__);
    char *root = dirname(dirname(src)); /* bench/bench_grpc.c → the source tree */
    char *plugin_dir = NULL;
    if (asprintf(&plugin_dir, "%s/examples/providers/random", root) < 0) return 1;

    diag_list_t d;
    diag_list_init(&d);
    plugin_host_options_t o;
    plugin_host_options_default(&o);
    const char *dirs[] = {plugin_dir};
    o.plugin_dirs = dirs;
    o.n_plugin_dirs = 1;
    o.download = false;
    o.ignore_debug_env = true;
    o.no_schema_cache = true;
    plugin_host_t *h = plugin_host_new(&o, &d);
    int64_t t0 = grpc_now_ms();
    provider_t *p = h ? plugin_host_factory(h, "random", "4.21.1", NULL, &d) : NULL;
    if (!p) {
        for (diag_t *x = d.head; x; x = x->next)
            fprintf(stderr, "bench_grpc: %s\n", x->message);
        return 1;
    }
    printf("plugin start → configured: %lld ms (node host, %s)\n", (long long)(grpc_now_ms() - t0), plugin_dir);
    grpc_loop_t *loop = plugin_host_loop(h);

    /* Warm-up (JIT) outside the figures. */
    drive(loop, &p, 1, 8, triples / 3 > 500 ? 500 : triples / 3);

    CALLGRIND_START_INSTRUMENTATION;
    figures_t seq = drive(loop, &p, 1, 1, triples);
    CALLGRIND_STOP_INSTRUMENTATION;
    print("sequential, 1 connection", &seq);
    printf("(callgrind: instrumented calls = %zu)\n", triples * 3);
    figures_t par = drive(loop, &p, 1, 32, triples);
    print("32 streams, 1 connection", &par);

    /* The host's ceiling: 4 connections to the same plugin process. */
    grpc_provider_options_t go;
    grpc_provider_options_default(&go);
    go.loop = loop;
    go.no_schema_cache = true;
    provider_t *conns[4] = {0};
    size_t n_conns = 0;
    int port = plugin_host_provider_port(p);
    for (int i = 0; i < 4 && port > 0; i++) {
        conns[i] = grpc_provider_attach_with("random", "4.21.1", port, NULL, &go, &d);
        if (conns[i]) n_conns++;
    }
    if (n_conns == 4) {
        figures_t ceil = drive(loop, conns, 4, 32, triples);
        print("host ceiling: 32 chains, 4 conns", &ceil);
        printf("ratio cimport(32 streams, 1 conn) / host ceiling: %.2f\n", par.triples_per_s / ceil.triples_per_s);
    } else {
        fprintf(stderr, "bench_grpc: could not open the extra connections\n");
    }
    for (size_t i = 0; i < n_conns; i++)
        conns[i]->ops->close(conns[i]);
    p->ops->close(p);
    plugin_host_free(h);
    diag_list_free(&d);
    free(plugin_dir);
    return seq.errors || par.errors ? 1 : 0;
}

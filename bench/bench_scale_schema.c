/* bench_scale_schema.c — a big schema (bench/gen_scale.py schema 200 OUT): one full cJSON parse of the
 * file (what loading cost before indexing), the indexed load, and the indexed load plus resolving
 * every resource (and, through them, the types they use), each in a forked child so peak RSS is its
 * own. The goal is resolve-all ≤ 2 × one full parse. The index cache is off for those (they measure
 * the scan). Then the index cache (issue 17's warm goal, ≤ 30 ms): a load that writes the entry and
 * resolves one resource (the file's last), and warm loads of the same from the entry — wall and
 * this process's CPU, in-process (bench/scale.sh measures the whole CLI command too). The cache
 * goes under $XDG_CACHE_HOME (scale.sh points it at its temporary directory).
 *
 *   bench_scale_schema SCHEMA.json [runs]   (default 3 runs, median) */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/fileio.h"
#include "specs/schema.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct fig {
    double ms, cpu_ms;
    long rss_kb;
    size_t resources, props;
} fig_t;

static double cpu_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* mode 0: full cJSON parse; 1: indexed load; 2: indexed load + every resource; 3 and 4: load with
 * the index cache on + the last resource (3 writes the entry, 4 reads it). */
static fig_t run(const char *path, int mode) {
    fig_t f = {0};
    if (mode >= 3) unsetenv("CIMPORT_NO_SCHEMA_CACHE");
    double t0 = now_ms(), c0 = cpu_now_ms();
    if (mode == 0) {
        arena_t *a = arena_new();
        size_t len;
        char *text = file_read_all(a, path, &len, NULL);
        cJSON *j = text ? cJSON_ParseWithLength(text, len) : NULL;
        f.resources = (size_t)cJSON_GetArraySize(cJSON_GetObjectItem(j, "resources"));
        f.ms = now_ms() - t0;
        cJSON_Delete(j);
        arena_free(a);
    } else {
        diag_list_t d;
        diag_list_init(&d);
        schema_package_t *pkg = schema_load_file(path, &d);
        if (!pkg) {
            fprintf(stderr, "bench_scale_schema: %s\n", d.head ? d.head->message : "load failed");
            exit(1);
        }
        size_t n = schema_resource_count(pkg);
        f.resources = n;
        if (mode >= 3 && n > 0) {
            const schema_resource_t *r = schema_find_resource(pkg, schema_resource_token_at(pkg, n - 1));
            f.props = r ? r->n_inputs + r->n_outputs : 0;
            f.resources = r ? 1 : 0;
        }
        if (mode == 2)
            for (size_t i = 0; i < n; i++) {
                const schema_resource_t *r = schema_find_resource(pkg, schema_resource_token_at(pkg, i));
                f.props += r ? r->n_inputs + r->n_outputs : 0;
            }
        f.ms = now_ms() - t0;
        f.cpu_ms = cpu_now_ms() - c0;
        schema_free(pkg);
        diag_list_free(&d);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    f.rss_kb = ru.ru_maxrss;
    return f;
}

static fig_t child(const char *path, int mode) {
    int fds[2];
    if (pipe(fds) != 0) exit(1);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        fig_t f = run(path, mode);
        _exit(write(fds[1], &f, sizeof f) == (ssize_t)sizeof f ? 0 : 1);
    }
    close(fds[1]);
    fig_t f = {0};
    if (read(fds[0], &f, sizeof f) != (ssize_t)sizeof f) exit(1);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    return f;
}

static int cmp(const void *a, const void *b) {
    double x = ((const fig_t *)a)->ms, y = ((const fig_t *)b)->ms;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        printf("bench_scale_schema needs a schema: run it through `bench/run.sh scale` (bench/scale.sh)\n");
        return 0;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    if (runs < 1) runs = 1;
    setenv("CIMPORT_NO_SCHEMA_CACHE", "1", 1);
    static const char *names[] = {"full cJSON parse (before)", "indexed load", "indexed load + resolve every resource"};
    fig_t med[3];
    for (int m = 0; m < 3; m++) {
        fig_t *f = calloc((size_t)runs, sizeof *f);
        /* interleaved would be fairer on a shared machine; runs are short, so in turn */
        for (int r = 0; r < runs; r++)
            f[r] = child(argv[1], m);
        qsort(f, (size_t)runs, sizeof *f, cmp);
        med[m] = f[runs / 2];
        free(f);
        printf("| %s | %.1f ms | %.1f MB | %zu resources%s |\n", names[m], med[m].ms, med[m].rss_kb / 1024.0,
               med[m].resources, m == 2 ? "" : "");
    }
    printf("\nresolve-all / full parse = %.2f (goal ≤ 2); %zu properties resolved\n", med[2].ms / med[0].ms,
           med[2].props);
    /* The index cache: one load writing the entry (unless it is there already), then warm loads. */
    fig_t w = child(argv[1], 3);
    printf("\nindex cache, one resource (the last: %zu properties), in-process:\n\n", w.props);
    printf("| run | wall | CPU | peak RSS |\n|---|---|---|---|\n");
    printf("| first load with the cache on (writes the entry) | %.1f ms | %.1f ms | %.1f MB |\n", w.ms, w.cpu_ms,
           w.rss_kb / 1024.0);
    int wr = runs < 3 ? 3 : runs;
    fig_t *f = calloc((size_t)wr, sizeof *f);
    for (int r = 0; r < wr; r++)
        f[r] = child(argv[1], 4);
    qsort(f, (size_t)wr, sizeof *f, cmp);
    const fig_t *mid = &f[wr / 2];
    printf("| warm, from the entry (median of %d; min %.1f ms) | %.1f ms | %.1f ms | %.1f MB |\n", wr, f[0].ms, mid->ms,
           mid->cpu_ms, mid->rss_kb / 1024.0);
    free(f);
    return 0;
}

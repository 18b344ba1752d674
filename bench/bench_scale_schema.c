/* bench_scale_schema.c — a big schema (bench/gen_scale.py schema 200 OUT): one full cJSON parse of the
 * file (what loading cost before indexing), the indexed load, and the indexed load plus resolving
 * every resource (and, through them, the types they use), each in a forked child so peak RSS is its
 * own. The goal is resolve-all ≤ 2 × one full parse. The index cache is off here (this measures the
 * scan); bench/scale.sh measures cold and warm loads through the CLI.
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
    double ms;
    long rss_kb;
    size_t resources, props;
} fig_t;

static fig_t run(const char *path, int mode) {
    fig_t f = {0};
    double t0 = now_ms();
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
        if (mode == 2)
            for (size_t i = 0; i < n; i++) {
                const schema_resource_t *r = schema_find_resource(pkg, schema_resource_token_at(pkg, i));
                f.props += r ? r->n_inputs + r->n_outputs : 0;
            }
        f.ms = now_ms() - t0;
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
        for (int r = 0; r < runs; r++) f[r] = child(argv[1], m);
        qsort(f, (size_t)runs, sizeof *f, cmp);
        med[m] = f[runs / 2];
        free(f);
        printf("| %s | %.1f ms | %.1f MB | %zu resources%s |\n", names[m], med[m].ms, med[m].rss_kb / 1024.0,
               med[m].resources, m == 2 ? "" : "");
    }
    printf("\nresolve-all / full parse = %.2f (goal ≤ 2); %zu properties resolved\n", med[2].ms / med[0].ms,
           med[2].props);
    return 0;
}

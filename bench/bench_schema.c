/* bench_schema.c — how long loading a large package schema takes (the target: digitalocean,
 * 3.6 MB, at most 20 ms), and how long resolving every resource of it takes once loaded.
 *
 * Usage: bench_schema [N]   (N loads per schema, default 20; prints the median) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "specs/schema.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int bench_one(const char *label, const char *path, int n) {
    double *t = calloc((size_t)n, sizeof *t);
    if (!t) return 1;
    for (int i = 0; i < n; i++) {
        diag_list_t d;
        diag_list_init(&d);
        double t0 = now_ms();
        schema_package_t *pkg = schema_load_file(path, &d);
        t[i] = now_ms() - t0;
        if (!pkg) {
            fprintf(stderr, "%s\n", d.head ? diag_format(&d, d.head) : path);
            diag_list_free(&d);
            free(t);
            return 1;
        }
        schema_free(pkg);
        diag_list_free(&d);
    }
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    printf("schema_load %s: %.1f ms (median of %d, min %.1f, max %.1f)\n", label, t[n / 2], n, t[0], t[n - 1]);
    free(t);

    /* resolve every resource once (which resolves every type they reach), then again from the cache */
    schema_package_t *pkg = schema_load_file(path, NULL);
    size_t nres = schema_resource_count(pkg), props = 0;
    double t0 = now_ms();
    for (size_t i = 0; i < nres; i++) {
        const schema_resource_t *r = schema_find_resource(pkg, schema_resource_token_at(pkg, i));
        props += r->n_inputs + r->n_outputs;
    }
    double first = now_ms() - t0;
    t0 = now_ms();
    for (size_t i = 0; i < nres; i++)
        schema_find_resource(pkg, schema_resource_token_at(pkg, i));
    double cached = now_ms() - t0;
    printf("schema_resolve %s: %zu resources (%zu properties) in %.1f ms; cached lookups %.3f ms\n", label, nres, props,
           first, cached);
    schema_free(pkg);
    return 0;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 20;
    if (n < 1) n = 20;
    int rc = bench_one("digitalocean", SHARED_DATA "/schemas/digitalocean/schema.json", n);
    rc |= bench_one("kubernetes", SHARED_DATA "/schemas/kubernetes/schema.json", n);
    return rc;
}

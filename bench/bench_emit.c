/* bench_emit.c — PCL → language text for N resources synthesized from the real stack exports.
 *
 * Takes every custom resource of the random, tls, command, digitalocean and azuread stack exports
 * in ../shared/data/pulumi-state, repeats them under unique names and IDs until there are N,
 * generates the PCL program once (timed, reported separately), then emits it in each language in a
 * forked child so every language gets its own peak-RSS figure. Prints, per language: wall ms of the
 * emitter alone, output size, peak RSS of the process (schemas + program + emitter) and the growth
 * over the parent at fork (what the emitter itself added).
 *
 *   bench_emit [N] [language...]   (default 10000, all languages in LANGS; target per language:
 *                                   ≤ 500 ms, ≤ 300 MB peak RSS)
 *
 * To add a language, add its emitter to LANGS. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/vec.h"
#include "emitters/emit_internal.h"
#include "pcl/pcl.h"
#include "specs/deployment.h"
#include "specs/schema.h"

static const struct {
    const char *name;
    char *(*emit)(const pcl_program_t *, diag_list_t *);
} LANGS[] = {
    {"typescript", emit_typescript}, {"python", emit_python}, {"yaml", emit_yaml}, {"go", emit_go},
    {"csharp", emit_csharp},         {"java", emit_java},
};

static const char *const PACKAGES[] = {"random", "tls", "command", "digitalocean", "azuread"};

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static long rss_now_kb(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static const char *urn_name(const char *urn) {
    const char *s = strrchr(urn, ':');
    return s ? s + 1 : urn;
}

int main(int argc, char **argv) {
    size_t n_target = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
    arena_t *a = arena_new();
    diag_list_t diags;
    diag_list_init(&diags);

    schema_set_t *schemas = schema_set_new();
    for (size_t i = 0; i < sizeof PACKAGES / sizeof *PACKAGES; i++) {
        char *path = arena_sprintf(a, "%s/schemas/%s/schema.json", SHARED_DATA, PACKAGES[i]);
        if (!schema_set_add_path(schemas, path, &diags)) {
            fprintf(stderr, "bench_emit: cannot load %s\n", path);
            return 1;
        }
    }

    /* the real resources (custom, not providers or the stack) */
    const state_resource_t **proto = NULL;
    size_t n_proto = 0, cap = 0;
    deployment_t **deps = NULL;
    size_t n_deps = 0, cap_deps = 0;
    for (size_t i = 0; i < sizeof PACKAGES / sizeof *PACKAGES; i++) {
        char *pat = arena_sprintf(a, "%s/pulumi-state/pulumi-%s/*/testdata/recorded/*/*/*/stack.json", SHARED_DATA,
                                  PACKAGES[i]);
        glob_t gl;
        if (glob(pat, 0, NULL, &gl) != 0) continue;
        for (size_t k = 0; k < gl.gl_pathc; k++) {
            deployment_t *d = deployment_load(a, gl.gl_pathv[k], &diags);
            if (!d) continue;
            deps = vec_grow(deps, &cap_deps, n_deps + 1, sizeof(deployment_t *));
            deps[n_deps++] = d;
            for (size_t r = 0; r < d->n_resources; r++) {
                const state_resource_t *s = &d->resources[r];
                if (!s->custom || s->del || strncmp(s->type, "pulumi:", 7) == 0) continue;
                proto = vec_grow(proto, &cap, n_proto + 1, sizeof(const state_resource_t *));
                proto[n_proto++] = s;
            }
        }
        globfree(&gl);
    }
    if (n_proto == 0) {
        fprintf(stderr, "bench_emit: no resources found under %s/pulumi-state\n", SHARED_DATA);
        return 1;
    }

    /* N resources: the real ones repeated with unique names and IDs */
    pcl_gen_resource_t *in = arena_alloc(a, n_target * sizeof *in);
    for (size_t i = 0; i < n_target; i++) {
        const state_resource_t *s = proto[i % n_proto];
        pcl_gen_resource_t *g = &in[i];
        g->type = s->type;
        g->name = arena_sprintf(a, "%s%zu", urn_name(s->urn), i);
        g->logical_name = g->name;
        g->urn = arena_sprintf(a, "%s%zu", s->urn, i);
        g->id = s->id ? arena_sprintf(a, "%s-%zu", s->id, i) : NULL;
        g->inputs = s->inputs;
        g->outputs = s->outputs;
        g->protect = true;
    }

    pcl_gen_options_t opts;
    pcl_gen_options_default(&opts);
    pcl_gen_result_t res;
    double t0 = now_ms();
    if (!pcl_generate(in, n_target, schemas, &opts, &res, &diags)) {
        fprintf(stderr, "bench_emit: PCL generation failed\n");
        return 1;
    }
    double t_gen = now_ms() - t0;
    long rss_parent = rss_now_kb();
    printf("bench_emit: %zu resources (%zu real ones repeated), PCL generation %.1f ms, %zu nodes, RSS %.1f MB\n",
           n_target, n_proto, t_gen, res.program->n_nodes, rss_parent / 1024.0);
    printf("%-12s %10s %12s %14s %14s\n", "language", "emit ms", "output MB", "peak RSS MB", "emit +RSS MB");

    int failures = 0;
    for (size_t l = 0; l < sizeof LANGS / sizeof *LANGS; l++) {
        bool wanted = argc <= 2;
        for (int k = 2; k < argc; k++)
            wanted |= strcmp(argv[k], LANGS[l].name) == 0;
        if (!wanted) continue;
        int fds[2];
        if (pipe(fds) != 0) return 1;
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            diag_list_t d;
            diag_list_init(&d);
            double s = now_ms();
            char *text = LANGS[l].emit(res.program, &d);
            double ms = now_ms() - s;
            double out[2] = {ms, text ? (double)strlen(text) : -1};
            ssize_t w = write(fds[1], out, sizeof out);
            free(text);
            diag_list_free(&d);
            _exit(w == (ssize_t)sizeof out && out[1] >= 0 ? 0 : 1);
        }
        close(fds[1]);
        double out[2] = {0, 0};
        ssize_t r = read(fds[0], out, sizeof out);
        close(fds[0]);
        int status = 0;
        struct rusage ru;
        wait4(pid, &status, 0, &ru);
        if (r != (ssize_t)sizeof out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            printf("%-12s failed\n", LANGS[l].name);
            failures++;
            continue;
        }
        printf("%-12s %10.1f %12.2f %14.1f %14.1f\n", LANGS[l].name, out[0], out[1] / (1024.0 * 1024.0),
               ru.ru_maxrss / 1024.0, (ru.ru_maxrss - rss_parent) / 1024.0);
    }

    pcl_program_free(res.program);
    for (size_t i = 0; i < n_deps; i++)
        deployment_free(deps[i]);
    free(deps);
    free(proto);
    schema_set_free(schemas);
    diag_list_free(&diags);
    arena_free(a);
    return failures ? 1 : 0;
}

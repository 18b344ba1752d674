/* bench_import.c — offline import + PCL of N resources synthesized from the real stack exports.
 *
 * Takes every custom resource of the random, tls, command, digitalocean and azuread stack exports in
 * ../shared/data/pulumi-state (the packages with a schema in ../shared/data/schemas), clones them
 * with unique IDs until there are N, then times: import-file planning, the engine over the offline
 * provider, PCL generation and printing. Prints wall time per phase and peak RSS.
 *
 *   bench_import [N]        (default 10000; target: ≤ 1 s wall, ≤ 300 MB peak RSS)
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "base/vec.h"
#include "importer/engine.h"
#include "importer/offline.h"
#include "pcl/pcl.h"
#include "specs/deployment.h"
#include "specs/importfile.h"
#include "specs/schema.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *PACKAGES[] = {"random", "tls", "command", "digitalocean", "azuread"};

int main(int argc, char **argv) {
    size_t n_target = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
    arena_t *a = arena_new();
    diag_list_t diags;
    diag_list_init(&diags);

    schema_set_t *schemas = schema_set_new();
    for (size_t i = 0; i < sizeof PACKAGES / sizeof *PACKAGES; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/schemas/%s/schema.json", SHARED_DATA, PACKAGES[i]);
        schema_set_add_path(schemas, path, &diags);
    }

    /* Collect the real resources. */
    state_resource_t *proto = NULL;
    size_t n_proto = 0, cap_proto = 0;
    for (size_t i = 0; i < sizeof PACKAGES / sizeof *PACKAGES; i++) {
        char pat[512];
        snprintf(pat, sizeof pat, "%s/pulumi-state/pulumi-%s/*/testdata/recorded/*/*/*/stack.json", SHARED_DATA,
                 PACKAGES[i]);
        glob_t g;
        if (glob(pat, 0, NULL, &g) != 0) continue;
        for (size_t f = 0; f < g.gl_pathc; f++) {
            deployment_t *d = deployment_load(a, g.gl_pathv[f], &diags);
            if (!d) continue;
            for (size_t r = 0; r < d->n_resources; r++) {
                const state_resource_t *sr = &d->resources[r];
                if (!sr->custom || !sr->id || strncmp(sr->type, "pulumi:", 7) == 0) continue;
                char *pkg = schema_token_package(a, sr->type);
                schema_package_t *sp = schema_set_get(schemas, pkg);
                if (!sp || !schema_find_resource(sp, sr->type)) continue;
                proto = vec_grow(proto, &cap_proto, n_proto + 1, sizeof *proto);
                proto[n_proto] = *sr;
                proto[n_proto].raw = NULL;
                n_proto++;
            }
            /* keep d->doc alive: resources point into the arena, not the doc */
        }
        globfree(&g);
    }
    if (n_proto == 0) {
        fprintf(stderr, "bench_import: no resources found under %s\n", SHARED_DATA);
        return 1;
    }

    /* Synthesize N resources with unique IDs, and the import file asking for them. */
    deployment_t snap = {0};
    snap.resources = arena_alloc(a, n_target * sizeof(state_resource_t));
    snap.n_resources = n_target;
    import_file_t file = {0};
    file.specs = arena_alloc(a, n_target * sizeof(import_spec_t));
    file.n_specs = n_target;
    for (size_t i = 0; i < n_target; i++) {
        const state_resource_t *p = &proto[i % n_proto];
        state_resource_t *s = &snap.resources[i];
        *s = *p;
        s->id = arena_sprintf(a, "%s-%zu", p->id, i);
        s->urn = arena_sprintf(a, "urn:pulumi:bench::bench::%s::r%zu", p->type, i);
        s->parent = NULL;
        s->provider = NULL;
        import_spec_t *sp = &file.specs[i];
        sp->type = p->type;
        sp->name = arena_sprintf(a, "r%zu", i);
        sp->id = s->id;
        sp->index = (int)i;
    }

    struct rusage ru;
    double t0 = now_ms();
    import_plan_t *plan = import_plan_build(a, &file, "bench", "bench", true, &diags);
    double t1 = now_ms();
    if (!plan) {
        fprintf(stderr, "bench_import: planning failed: %s\n", diags.head ? diags.head->message : "?");
        return 1;
    }
    offline_source_t *src = offline_source_new(&snap, schemas);
    provider_registry_t *reg = provider_registry_new(offline_provider_factory, src);
    engine_options_t eo;
    engine_options_default(&eo);
    import_result_t *results = engine_run(a, plan, reg, schemas, &eo, &diags);
    double t2 = now_ms();

    size_t ok = 0, verified = 0;
    pcl_gen_resource_t *gr = arena_alloc(a, plan->n_items * sizeof *gr);
    size_t n = 0;
    for (size_t i = 0; i < plan->n_items; i++) {
        const import_result_t *r = &results[i];
        if (r->status != IMPORT_OK) continue;
        ok++;
        if (r->verified) verified++;
        pcl_gen_resource_t *g = &gr[n++];
        g->type = r->item->type;
        g->name = r->item->variable;
        g->logical_name = r->item->logical_name;
        g->urn = r->item->urn;
        g->id = r->id;
        g->inputs = r->inputs;
        g->outputs = r->state;
        g->protect = true;
    }
    pcl_gen_options_t po;
    pcl_gen_options_default(&po);
    pcl_gen_result_t gen = {0};
    pcl_generate(gr, n, schemas, &po, &gen, &diags);
    double t3 = now_ms();
    char *text = gen.program ? pcl_print(gen.program) : NULL;
    double t4 = now_ms();
    getrusage(RUSAGE_SELF, &ru);

    printf("bench_import: %zu resources (%zu distinct real ones), %zu imported, %zu verified\n", n_target, n_proto, ok,
           verified);
    printf("  plan      %8.1f ms\n", t1 - t0);
    printf("  engine    %8.1f ms\n", t2 - t1);
    printf("  pcl gen   %8.1f ms\n", t3 - t2);
    printf("  pcl print %8.1f ms  (%zu bytes)\n", t4 - t3, text ? strlen(text) : 0);
    printf("  total     %8.1f ms wall (plan+engine+pcl), peak RSS %.1f MB (includes loading schemas and states)\n",
           t4 - t0, ru.ru_maxrss / 1024.0);
    free(text);
    if (gen.program) pcl_program_free(gen.program);
    engine_results_free(results, plan->n_items);
    provider_registry_free(reg);
    offline_source_free(src);
    schema_set_free(schemas);
    diag_list_free(&diags);
    free(proto);
    arena_free(a);
    return ok == n_target ? 0 : 1;
}

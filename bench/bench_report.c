/* bench_report.c — the import report at 10,000 resources: how long rendering takes, how big the
 * page is, and how soon headless Chromium has drawn it, against an empty report.
 *
 * The results document is synthesized with the shape of a real run (bench/RESULTS.md says how it
 * compares with a real 10,000-resource import): 40 types in 4 packages, one component parent per
 * 50 resources, explicit providers, an inferred reference from every fifth resource, 8 inputs each
 * with provenance, ~300 bytes of code, 2% failed with a diagnostic, 3% with a residual diff, 1%
 * with a secret input.
 *
 *   bench_report [N]    (default 10000; targets: render ≤ 1 s, first frame in Chromium ≤ 2 s)
 *
 * Headless Chromium (Debian `chromium`, a test peer) opens each page with the #paint hash through
 * bench/report_paint.py: the page records when its script finished and when the first frame after
 * it was produced; the bench prints the medians of 3 cold starts for the big and the empty page and
 * their ratio. Without chromium it prints the render figures only. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "report/report.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static cJSON *synth(size_t n) {
    static const char *pkgs[] = {"aws", "gcp", "azure", "random"};
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "version", 1);
    cJSON *run = cJSON_AddObjectToObject(doc, "run");
    cJSON_AddStringToObject(run, "spec", "imports.json");
    cJSON_AddStringToObject(run, "project", "bench");
    cJSON_AddStringToObject(run, "stack", "dev");
    cJSON *arr = cJSON_AddArrayToObject(doc, "resources");
    size_t ok = 0, failed = 0, verified = 0;
    char name[64], type[96], buf[512];
    for (size_t i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        bool component = i % 50 == 0;
        const char *pkg = pkgs[i % 4];
        if (component)
            snprintf(type, sizeof type, "bench:index:Component");
        else
            snprintf(type, sizeof type, "%s:mod%zu/thing%zu:Thing%zu", pkg, i % 7, i % 40, i % 40);
        snprintf(name, sizeof name, "res%zu", i);
        cJSON_AddStringToObject(e, "name", name);
        cJSON_AddStringToObject(e, "logicalName", name);
        cJSON_AddStringToObject(e, "type", type);
        snprintf(buf, sizeof buf, "id-%zu-0123456789abcdef", i);
        if (!component) cJSON_AddStringToObject(e, "id", buf);
        snprintf(buf, sizeof buf, "urn:pulumi:dev::bench::%s::%s", type, name);
        cJSON_AddStringToObject(e, "urn", buf);
        bool fail = !component && i % 50 == 7, residual = !component && i % 33 == 5;
        cJSON_AddStringToObject(e, "status", fail ? "failed" : "imported");
        cJSON_AddBoolToObject(e, "verified", !fail && !residual);
        cJSON_AddStringToObject(e, "kind", component ? "component" : "resource");
        cJSON_AddNumberToObject(e, "rounds", residual ? 4 : 1);
        cJSON *res = cJSON_AddArrayToObject(e, "residual");
        if (residual) cJSON_AddItemToArray(res, cJSON_CreateString("tags.owner"));
        cJSON_AddArrayToObject(e, "ignoreChanges");
        cJSON *in = cJSON_AddObjectToObject(e, "inputs");
        cJSON *prov = cJSON_AddObjectToObject(e, "provenance");
        cJSON *sp = cJSON_AddArrayToObject(e, "secretPaths");
        for (int k = 0; !component && !fail && k < 8; k++) {
            char key[32];
            snprintf(key, sizeof key, "property%d", k);
            snprintf(buf, sizeof buf, "value-%zu-%d", i, k);
            cJSON_AddStringToObject(in, key, buf);
            cJSON_AddStringToObject(prov, key, k < 3 ? "required" : "diff");
        }
        if (!component && !fail && i % 100 == 3) {
            cJSON_ReplaceItemInObject(in, "property7", cJSON_CreateString("s3cr3t-value-bench"));
            cJSON_AddItemToArray(sp, cJSON_CreateString("property7"));
        }
        if (!component) {
            snprintf(buf, sizeof buf, "res%zu", i - i % 50);
            cJSON_AddStringToObject(e, "parent", buf);
            snprintf(buf, sizeof buf, "%sProvider", pkg);
            cJSON_AddStringToObject(e, "provider", buf);
        }
        cJSON *refs = cJSON_AddArrayToObject(e, "references");
        if (!component && i % 5 == 0 && i > 1) {
            cJSON *r = cJSON_CreateObject();
            snprintf(buf, sizeof buf, "res%zu", i - 1);
            cJSON_AddStringToObject(r, "to", buf);
            cJSON_AddStringToObject(r, "path", "property1");
            cJSON_AddItemToArray(refs, r);
        }
        if (!fail && !component) {
            snprintf(
                buf, sizeof buf,
                "const %s = new %s.Thing%zu(\"%s\", {\n    property0: \"value-%zu-0\",\n    property1: res%zu.id,\n"
                "    property2: \"value-%zu-2\",\n    property3: \"value-%zu-3\",\n}, {\n    protect: true,\n});\n",
                name, pkg, i % 40, name, i, i ? i - 1 : 0, i, i);
            cJSON_AddStringToObject(e, "code", buf);
        }
        cJSON *ds = cJSON_AddArrayToObject(e, "diagnostics");
        if (fail) {
            cJSON *d = cJSON_CreateObject();
            cJSON_AddStringToObject(d, "severity", "error");
            snprintf(buf, sizeof buf, "resource '%s' of type '%s': resource '%zu' does not exist", name, type, i);
            cJSON_AddStringToObject(d, "message", buf);
            cJSON_AddStringToObject(d, "text", buf);
            cJSON_AddItemToArray(ds, d);
        }
        cJSON_AddItemToArray(arr, e);
        if (fail)
            failed++;
        else
            ok++;
        if (!fail && !residual) verified++;
    }
    cJSON *sum = cJSON_AddObjectToObject(doc, "summary");
    cJSON_AddNumberToObject(sum, "total", (double)n);
    cJSON_AddNumberToObject(sum, "imported", (double)ok);
    cJSON_AddNumberToObject(sum, "failed", (double)failed);
    cJSON_AddNumberToObject(sum, "verified", (double)verified);
    cJSON_AddArrayToObject(doc, "diagnostics");
    cJSON_AddStringToObject(doc, "language", "typescript");
    return doc;
}

/* Renders and writes; returns the median wall time of `runs` and fills cpu and size. */
static double time_render(const cJSON *doc, const char *path, int runs, double *cpu, size_t *size) {
    double wall[16], c[16];
    report_options_t o = {0};
    for (int r = 0; r < runs; r++) {
        diag_list_t dl;
        diag_list_init(&dl);
        double t0 = now_ms(), c0 = cpu_ms();
        if (!report_write(path, doc, &o, &dl)) {
            fprintf(stderr, "bench_report: %s\n", dl.head ? dl.head->message : "render failed");
            exit(1);
        }
        wall[r] = now_ms() - t0;
        c[r] = cpu_ms() - c0;
        diag_list_free(&dl);
    }
    qsort(wall, (size_t)runs, sizeof wall[0], cmp_double);
    qsort(c, (size_t)runs, sizeof c[0], cmp_double);
    struct stat st;
    *size = stat(path, &st) == 0 ? (size_t)st.st_size : 0;
    *cpu = c[runs / 2];
    return wall[runs / 2];
}

/* Opens the page in headless Chromium RUNS times (bench/report_paint.py, beside this file: the
 * DevTools protocol over a pipe) and reads the medians of the page's own timings, in ms from
 * navigation start: its script done, the first frame after it, the load event. */
static bool paint_figures(const char *path, double *script, double *frame, double *load) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "python3 '%s/report_paint.py' '%s' 3", slash ? dir : ".", path);
    FILE *f = popen(cmd, "r");
    if (!f) return false;
    char line[512];
    bool found = false;
    while (fgets(line, sizeof line, f))
        if (!found) found = sscanf(line, "script=%lf frame=%lf fcp=%*f load=%lf", script, frame, load) == 3;
    return pclose(f) == 0 && found;
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
    char dir[] = "/tmp/bench_report_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char big[256], empty[256];
    snprintf(big, sizeof big, "%s/report-%zu.html", dir, n);
    snprintf(empty, sizeof empty, "%s/report-empty.html", dir);
    cJSON *doc = synth(n), *none = synth(0);
    char *json = cJSON_PrintUnformatted(doc);
    size_t json_len = strlen(json);
    free(json);
    double cpu_big, cpu_empty;
    size_t size_big, size_empty;
    double wall_big = time_render(doc, big, 5, &cpu_big, &size_big);
    double wall_empty = time_render(none, empty, 5, &cpu_empty, &size_empty);
    printf("report of %zu resources: render+write %.1f ms wall (%.1f ms CPU), page %.2f MB (results document "
           "%.2f MB)\n",
           n, wall_big, cpu_big, size_big / 1048576.0, json_len / 1048576.0);
    printf("empty report:            render+write %.1f ms wall (%.1f ms CPU), page %.1f KB\n", wall_empty, cpu_empty,
           size_empty / 1024.0);
    if (system("command -v chromium >/dev/null 2>&1") != 0) {
        printf("chromium: not installed; first-paint figures skipped\n");
    } else {
        double sb, fb, lb, se, fe, le;
        if (!paint_figures(big, &sb, &fb, &lb) || !paint_figures(empty, &se, &fe, &le)) {
            printf("chromium: the page did not report its timings\n");
        } else {
            printf(
                "chromium, %zu resources: script done %.0f ms, first frame %.0f ms, load event %.0f ms (median of 3)\n",
                n, sb, fb, lb);
            printf("chromium, empty report:  script done %.0f ms, first frame %.0f ms, load event %.0f ms\n", se, fe,
                   le);
            printf("ratio %zu/empty: first frame %.2fx\n", n, fb / fe);
        }
    }
    unlink(big);
    unlink(empty);
    rmdir(dir);
    cJSON_Delete(doc);
    cJSON_Delete(none);
    return 0;
}

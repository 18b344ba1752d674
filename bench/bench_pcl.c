/* bench_pcl.c — `convert --from pcl` end to end for a large program: parse, bind, then
 * emit_program (the shared check and dependency sort included) in every language.
 *
 * The program has N resources of a conformance-style `primitive` package (every output required, as
 * in the conformance provider's schema: an optional one is a pointer in Go), declared in reverse
 * dependency order (each refers to the next one declared, so the emitters' dependency sort has to
 * reverse the whole chain), with scalar, list and map inputs, options on every tenth resource and
 * a stack output for every hundredth. Prints parse+bind ms once and emit ms (wall and CPU: the
 * machine may be shared) per language.
 * With `templates`, every resource's string is a `${...}` template over config and another
 * resource's output, and every tenth resource reads a local computed with operators and a
 * conditional (YAML has no conditionals: reported, not counted), and loops: every tenth resource a
 * stack output of a for expression over a local list with interpolation, every hundredth one of a
 * filtered for expression over a local map (the shapes of l1-for-expression, which all five
 * languages but YAML write). The resource option `range` is refused by every emitter (not written
 * yet), so the loops are PCL's for expressions.
 *
 *   bench_pcl [N] [templates]   (default 10000; target ≤ 500 ms per language)
 * BENCH_PCL_WRITE=FILE also writes the program to FILE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/schema.h"

static const char *SCHEMA =
    "{\"name\":\"primitive\",\"version\":\"7.0.0\",\"resources\":{\"primitive:index:Resource\":{"
    "\"properties\":{\"boolean\":{\"type\":\"boolean\"},\"float\":{\"type\":\"number\"},"
    "\"integer\":{\"type\":\"integer\"},\"string\":{\"type\":\"string\"},"
    "\"numberArray\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}},"
    "\"booleanMap\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"boolean\"}}},"
    "\"required\":[\"boolean\",\"float\",\"integer\",\"string\",\"numberArray\",\"booleanMap\"],"
    "\"inputProperties\":{\"boolean\":{\"type\":\"boolean\"},\"float\":{\"type\":\"number\"},"
    "\"integer\":{\"type\":\"integer\"},\"string\":{\"type\":\"string\"},"
    "\"numberArray\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}},"
    "\"booleanMap\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"boolean\"}}}}}}";

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    if (n < 2) n = 2;
    /* `bench_pcl N templates`: every resource's string is a template over an output and config, and
     * every 10th resource reads a local computed with operators and a conditional */
    bool templates = argc > 2 && strcmp(argv[2], "templates") == 0;
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "config \"prefix\" \"string\" {}\n\nconfig \"size\" \"number\" {}\n\n");
    if (templates)
        buf_puts(&b, "names = [\"alpha\", \"beta\", \"gamma\"]\n\ntags = {\n    \"Environment\" = \"production\"\n"
                     "    \"Team\" = \"infra\"\n}\n\n");
    for (int i = 0; i < n; i++) {
        buf_printf(&b, "resource \"r%d\" \"primitive:index:Resource\" {\n", i);
        if (i + 1 < n && templates)
            buf_printf(&b, "    boolean = r%d.boolean\n    string = \"${prefix}-%d-${r%d.string}\"\n", i + 1, i, i + 1);
        else if (i + 1 < n)
            buf_printf(&b, "    boolean = r%d.boolean\n    string = r%d.string\n", i + 1, i + 1);
        else
            buf_puts(&b, "    boolean = true\n    string = prefix\n");
        if (templates && i % 10 == 0)
            buf_printf(&b, "    float = l%d\n    integer = %d\n    numberArray = [1, 2.5, %d]\n", i, i, i);
        else
            buf_printf(&b, "    float = %d.5\n    integer = %d\n    numberArray = [1, 2.5, %d]\n", i, i, i);
        buf_printf(&b, "    booleanMap = {\n        \"k%d\" = true\n        \"other key\" = false\n    }\n", i);
        if (i % 10 == 0 && i + 2 < n)
            buf_printf(&b,
                       "    options {\n        dependsOn = [r%d]\n        protect = true\n"
                       "        ignoreChanges = [float]\n    }\n",
                       i + 2);
        buf_puts(&b, "}\n\n");
        if (i % 100 == 0) buf_printf(&b, "output \"out%d\" {\n    value = r%d.string\n}\n\n", i, i);
        if (templates && i % 10 == 0) buf_printf(&b, "l%d = size > %d ? (size - %d) * 1.5 : -size\n\n", i, i, i);
        if (templates && i % 10 == 0)
            buf_printf(&b, "output \"loop%d\" {\n    value = [for n in names : \"r%d-${n}\"]\n}\n\n", i, i);
        if (templates && i % 100 == 0)
            buf_printf(&b,
                       "output \"tags%d\" {\n    value = {for k, v in tags : k => \"${v}-%d\" if k != \"Team\"}\n}\n\n",
                       i, i);
    }
    diag_list_t d;
    diag_list_init(&d);
    schema_set_t *set = schema_set_new();
    schema_set_add(set, schema_load_buffer(SCHEMA, strlen(SCHEMA), "primitive.json", &d));
    const char *out = getenv("BENCH_PCL_WRITE"); /* the program, for timing `cimport convert --from pcl` */
    if (out && *out) {
        FILE *f = fopen(out, "w");
        if (!f || fwrite(b.data, 1, b.len, f) != b.len || fclose(f) != 0) {
            fprintf(stderr, "bench_pcl: cannot write %s\n", out);
            return 1;
        }
    }
    double t0 = now_ms();
    clock_t c00 = clock();
    pcl_program_t *p = pcl_parse(b.data, b.len, "bench.pp", &d);
    if (!p || !pcl_bind(p, set, &d)) {
        for (diag_t *x = d.head; x; x = x->next)
            fprintf(stderr, "%s\n", diag_format(&d, x));
        return 1;
    }
    printf("bench_pcl: %d resources, %zu bytes of PCL; parse+bind %.1f ms wall, %.1f ms CPU\n", n, b.len, now_ms() - t0,
           (double)(clock() - c00) * 1e3 / CLOCKS_PER_SEC);
    static const lang_t langs[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA, LANG_YAML};
    int rc = 0;
    for (size_t i = 0; i < sizeof langs / sizeof *langs; i++) {
        double t = now_ms();
        clock_t c0 = clock();
        char *code = emit_program(p, langs[i], &d);
        double ms = now_ms() - t;
        double cpu = (double)(clock() - c0) * 1e3 / CLOCKS_PER_SEC;
        /* the YAML emitter writes no conditionals (Pulumi YAML has none) */
        if (!code && templates && langs[i] == LANG_YAML) {
            printf("  %-10s refused (%s)\n", lang_name(langs[i]), d.tail ? diag_format(&d, d.tail) : "?");
            diag_list_free(&d);
            diag_list_init(&d);
            continue;
        }
        if (!code) {
            for (diag_t *x = d.head; x; x = x->next)
                fprintf(stderr, "%s\n", diag_format(&d, x));
            rc = 1;
            continue;
        }
        printf("  %-10s emit %7.1f ms wall, %7.1f ms CPU  %8zu bytes%s\n", lang_name(langs[i]), ms, cpu, strlen(code),
               ms > 500 ? "  OVER 500 ms" : "");
        free(code);
    }
    pcl_program_free(p);
    schema_set_free(set);
    diag_list_free(&d);
    buf_free(&b);
    return rc;
}

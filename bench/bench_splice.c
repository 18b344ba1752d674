/* bench_splice.c — splicing 100 generated resources into a 10,000-line program, per language.
 *
 * The target holds about 10,000 lines of RandomString resources (2,500 four-line TypeScript
 * statements, 1,430 seven-line Go statements with their `if err != nil`, ...); the generated program
 * holds 100 resources: 50 with the logical names of existing ones (replaced in place) and 50 new
 * ones (inserted, with imports). Reported: the first call (includes compiling the queries) and the
 * median of N further calls on the same splicer, plus the result size. Goal: ≤ 200 ms per language.
 *
 * Usage: bench_splice [N]   (default 5)
 * BENCH_SPLICE_LINES and BENCH_SPLICE_RESOURCES change the sizes (the scale bench: 100,000 lines,
 * 1,000 resources, goal ≤ 0.5 s); BENCH_SPLICE_LANG=typescript runs one language (for profiling);
 * BENCH_SPLICE_OUT=dir writes each language's result to dir/<language> (to compare two builds).
 * CPU columns: this process's CPU time for the same calls (the machine is shared; wall varies); split:
 * whether the file was parsed in two halves (splice_stats_t.split_parse). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "splice/splice.h"

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

/* One resource statement of language `l` named `name` with variable `var`. */
static void put_resource(buf_t *b, lang_t l, const char *indent, const char *var, const char *name, int len) {
    switch (l) {
    case LANG_TYPESCRIPT:
        buf_printf(b,
                   "%sconst %s = new random.RandomString(\"%s\", {\n%s    length: %d,\n%s    special: false,\n%s});\n",
                   indent, var, name, indent, len, indent, indent);
        break;
    case LANG_PYTHON:
        buf_printf(b, "%s = random.RandomString(\"%s\",\n    length=%d,\n    special=False)\n", var, name, len);
        break;
    case LANG_GO:
        buf_printf(b,
                   "\t\t_, err = random.NewRandomString(ctx, \"%s\", &random.RandomStringArgs{\n\t\t\tLength:  "
                   "pulumi.Int(%d),\n\t\t\tSpecial: pulumi.Bool(false),\n\t\t})\n\t\tif err != nil {\n\t\t\treturn "
                   "err\n\t\t}\n",
                   name, len);
        break;
    case LANG_CSHARP:
        buf_printf(b, "    var %s = new Random.RandomString(\"%s\", new()\n    {\n        Length = %d,\n    });\n\n",
                   var, name, len);
        break;
    case LANG_JAVA:
        buf_printf(b,
                   "        var %s = new RandomString(\"%s\", RandomStringArgs.builder()\n            .length(%d)\n"
                   "            .build());\n\n",
                   var, name, len);
        break;
    case LANG_YAML:
        buf_printf(b, "  %s:\n    type: random:RandomString\n    properties:\n      length: %d\n", name, len);
        break;
    default: break;
    }
}

static const char *const HEAD[] = {
    [LANG_TYPESCRIPT] = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n",
    [LANG_PYTHON] = "import pulumi\nimport pulumi_random as random\n\n",
    [LANG_GO] = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                "\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tvar err error\n",
    [LANG_CSHARP] = "using System.Collections.Generic;\nusing Pulumi;\nusing Random = Pulumi.Random;\n\n"
                    "return await Deployment.RunAsync(() => \n{\n",
    [LANG_JAVA] = "package generated_program;\n\nimport com.pulumi.Context;\nimport com.pulumi.Pulumi;\n"
                  "import com.pulumi.random.RandomString;\nimport com.pulumi.random.RandomStringArgs;\n\n"
                  "public class App {\n    public static void main(String[] args) {\n        Pulumi.run(App::stack);\n"
                  "    }\n\n    public static void stack(Context ctx) {\n",
    [LANG_YAML] = "name: big\nruntime: yaml\nresources:\n",
};
static const char *const TAIL[] = {
    [LANG_TYPESCRIPT] = "",  [LANG_PYTHON] = "",         [LANG_GO] = "\t\treturn nil\n\t})\n}\n",
    [LANG_CSHARP] = "});\n", [LANG_JAVA] = "    }\n}\n", [LANG_YAML] = "",
};

static char *make_program(lang_t l, int n, int first, const char *prefix) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, HEAD[l]);
    if (l == LANG_GO) {
        /* a program whose first statement declares err; the generated one declares it itself */
        if (strcmp(prefix, "gen") == 0) b.len -= strlen("\t\tvar err error\n");
    }
    for (int i = first; i < first + n; i++) {
        char var[32], name[32];
        snprintf(var, sizeof var, "r%d", i);
        snprintf(name, sizeof name, "s%d", i);
        put_resource(&b, l, "", var, name, strcmp(prefix, "gen") == 0 ? 99 : 8);
    }
    buf_puts(&b, TAIL[l]);
    return buf_take(&b);
}

static size_t lines(const char *s) {
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    if (runs < 1) runs = 1;
    static const lang_t LANGS[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA, LANG_YAML};
    const char *el = getenv("BENCH_SPLICE_LINES"), *er = getenv("BENCH_SPLICE_RESOURCES");
    int total_lines = el && atoi(el) > 0 ? atoi(el) : 10000;
    int ngen = er && atoi(er) > 1 ? atoi(er) : 100;
    printf("bench_splice: %d generated resources (%d replace, %d new) into a %d-line program\n", ngen, ngen / 2,
           ngen - ngen / 2, total_lines);
    printf("%-11s %8s %10s %10s %10s %10s %10s %8s %9s %6s\n", "language", "lines", "bytes", "first_ms", "median_ms",
           "first_cpu", "median_cpu", "replaced", "inserted", "split");
    const char *outdir = getenv("BENCH_SPLICE_OUT");
    int status = 0;
    for (size_t k = 0; k < sizeof LANGS / sizeof LANGS[0]; k++) {
        lang_t l = LANGS[k];
        const char *only = getenv("BENCH_SPLICE_LANG");
        if (only && *only && strcmp(only, lang_name(l)) != 0) continue;
        static const int PER[] = {[LANG_TYPESCRIPT] = 4, [LANG_PYTHON] = 3, [LANG_GO] = 7,
                                  [LANG_CSHARP] = 5,     [LANG_JAVA] = 4,   [LANG_YAML] = 4};
        int nres = total_lines / PER[l];
        char *target = make_program(l, nres, 0, "t");
        /* Generated: the last 50 existing names and 50 new ones. */
        char *gen = make_program(l, ngen, nres - ngen / 2, "gen");
        splicer_t *s = splicer_new();
        double *t = calloc((size_t)runs + 1, sizeof *t), *cpu = calloc((size_t)runs + 1, sizeof *cpu);
        splice_stats_t st = {0};
        size_t out_len = 0;
        for (int r = 0; r <= runs; r++) {
            diag_list_t d;
            diag_list_init(&d);
            char *out = NULL;
            bool changed;
            double t0 = now_ms(), c0 = cpu_ms();
            bool ok =
                splicer_splice(s, target, strlen(target), l, gen, strlen(gen), NULL, &out, &out_len, &changed, &st, &d);
            t[r] = now_ms() - t0;
            cpu[r] = cpu_ms() - c0;
            if (ok && r == 0 && outdir) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", outdir, lang_name(l));
                FILE *f = fopen(path, "wb");
                if (!f || fwrite(out, 1, out_len, f) != out_len || fclose(f) != 0) {
                    fprintf(stderr, "cannot write %s\n", path);
                    status = 1;
                }
            }
            if (!ok) {
                fprintf(stderr, "%s: %s\n", lang_name(l), d.head ? diag_format(&d, d.head) : "failed");
                status = 1;
            }
            free(out);
            diag_list_free(&d);
        }
        qsort(t + 1, (size_t)runs, sizeof *t, cmp_double);
        qsort(cpu + 1, (size_t)runs, sizeof *cpu, cmp_double);
        printf("%-11s %8zu %10zu %10.1f %10.1f %10.1f %10.1f %8zu %9zu %6s\n", lang_name(l), lines(target),
               strlen(target), t[0], t[1 + runs / 2], cpu[0], cpu[1 + runs / 2], st.replaced, st.inserted,
               st.split_parse ? "yes" : "no");
        fflush(stdout);
        free(t);
        free(cpu);
        splicer_free(s);
        free(target);
        free(gen);
    }
    return status;
}

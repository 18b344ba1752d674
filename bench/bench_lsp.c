/* bench_lsp.c — the language server's command latency: from workspace/executeCommand
 * (cimport.importResource, one resource, offline provider: the quickstart stack and the random
 * schema) to the workspace/applyEdit it sends, for a 10,000-line program open in the editor, per
 * language. That span is everything the user waits for: the pipeline (schema load, Read/Check/Diff,
 * PCL, code), the splice into the document's text, the line diff and the UTF-16 positions.
 *
 * Also: an incremental didChange (one character typed) on the 10,000-line document.
 * Reported: the first command (includes compiling the splicer's queries) and the median / max of N
 * further ones. Goal: ≤ 300 ms per command.
 *
 * The server runs in-process (linked from the cimport_cli library) with a
 * write callback that records when each message leaves.
 *
 * Usage: bench_lsp [N]   (default 10) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "lsp/lsp.h"
#include "lsp/lsp_internal.h"
#include "session/session.h"
#include "splice/splice.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct sink {
    double apply_at; /* when workspace/applyEdit was written; 0 before */
    size_t n_edits;
    size_t bytes;
} sink_t;

static bool sink_write(void *user, const char *data, size_t len) {
    sink_t *k = user;
    k->bytes += len;
    const char *body = strstr(data, "\r\n\r\n");
    if (body && strstr(body, "\"workspace/applyEdit\"")) {
        k->apply_at = now_ms();
        size_t n = 0;
        for (const char *p = strstr(body, "\"newText\""); p; p = strstr(p + 1, "\"newText\""))
            n++;
        k->n_edits = n;
    }
    return true;
}

static void handle(lsp_server_t *s, cJSON *m) {
    char *t = cJSON_PrintUnformatted(m);
    lsp_server_handle(s, t, strlen(t));
    free(t);
    cJSON_Delete(m);
}

/* About 10,000 lines of the language's resources, non-ASCII strings included. */
static char *program(lang_t l) {
    buf_t b;
    buf_init(&b);
    int i = 0;
    switch (l) {
    case LANG_TYPESCRIPT:
        buf_puts(&b, "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n");
        for (; i < 2000; i++)
            buf_printf(&b,
                       "const s%d = new random.RandomString(\"s-%d\", {\n    length: %d,\n    special: false,\n});\n"
                       "// Müller 😀 %d\n",
                       i, i, 8 + i % 20, i);
        break;
    case LANG_PYTHON:
        buf_puts(&b, "import pulumi\nimport pulumi_random as random\n\n");
        for (; i < 2500; i++)
            buf_printf(&b, "s%d = random.RandomString(\"s-%d\",\n    length=%d,\n    special=False)\n# Müller 😀 %d\n",
                       i, i, 8 + i % 20, i);
        break;
    case LANG_GO:
        buf_puts(&b, "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                     "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                     "\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tvar err error\n");
        for (; i < 1250; i++)
            buf_printf(
                &b,
                "\t\t// Müller 😀 %d\n\t\t_, err = random.NewRandomString(ctx, \"s-%d\", &random.RandomStringArgs{\n"
                "\t\t\tLength: pulumi.Int(%d),\n\t\t})\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\n",
                i, i, 8 + i % 20);
        buf_puts(&b, "\t\treturn nil\n\t})\n}\n");
        break;
    default: break;
    }
    return buf_take(&b);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10;
    if (n < 1) n = 1;
    /* The source tree from this file's path (the benchmark runs from any directory). */
    char src[4096];
    snprintf(src, sizeof src, "%s", __FILE__);
    char *cut = strstr(src, "/bench/bench_lsp.c");
    if (cut) *cut = '\0';
    static const struct {
        lang_t lang;
        const char *id, *uri;
    } langs[] = {
        {LANG_TYPESCRIPT, "typescript", "file:///bench/index.ts"},
        {LANG_PYTHON, "python", "file:///bench/__main__.py"},
        {LANG_GO, "go", "file:///bench/main.go"},
    };
    printf("command → applyEdit, one RandomString into a 10,000-line program (offline provider), N=%d\n", n);
    printf("%-11s %7s %9s %10s %8s %7s %6s %14s\n", "language", "lines", "first ms", "median ms", "max ms", "edits",
           "goal", "didChange ms");
    int rc = 0;
    for (size_t li = 0; li < sizeof langs / sizeof langs[0]; li++) {
        sink_t k = {0};
        lsp_server_t *s = lsp_server_new(NULL, sink_write, &k);
        char init[8192];
        snprintf(
            init, sizeof init,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{\"workspace\":"
            "{\"applyEdit\":true}},\"initializationOptions\":{\"offlineState\":\"%s/examples/quickstart/stack.json\","
            "\"schemas\":[\"%s/schemas/random/schema.json\"]}}}",
            src, SHARED_DATA);
        lsp_server_handle(s, init, strlen(init));
        char *text = program(langs[li].lang);
        size_t lines = 0;
        for (const char *p = text; *p; p++)
            lines += *p == '\n';
        cJSON *open = cJSON_CreateObject();
        cJSON_AddStringToObject(open, "jsonrpc", "2.0");
        cJSON_AddStringToObject(open, "method", "textDocument/didOpen");
        cJSON *td = cJSON_AddObjectToObject(cJSON_AddObjectToObject(open, "params"), "textDocument");
        cJSON_AddStringToObject(td, "uri", langs[li].uri);
        cJSON_AddStringToObject(td, "languageId", langs[li].id);
        cJSON_AddNumberToObject(td, "version", 1);
        cJSON_AddStringToObject(td, "text", text);
        handle(s, open);

        double *t = malloc((size_t)n * sizeof *t), first = 0;
        for (int r = 0; r <= n; r++) {
            char cmd[1024];
            snprintf(cmd, sizeof cmd,
                     "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"workspace/executeCommand\",\"params\":{\"command\":"
                     "\"cimport.importResource\",\"arguments\":[{\"type\":\"random:index/randomString:RandomString\","
                     "\"name\":\"server-name\",\"id\":\"mq7xk2vt9fzr\",\"uri\":\"%s\"}]}}",
                     100 + r, langs[li].uri);
            k.apply_at = 0;
            double t0 = now_ms();
            lsp_server_handle(s, cmd, strlen(cmd));
            if (k.apply_at == 0) {
                fprintf(stderr, "bench_lsp: %s: no workspace/applyEdit was sent\n", langs[li].id);
                return 1;
            }
            double dt = k.apply_at - t0;
            if (r == 0)
                first = dt;
            else
                t[r - 1] = dt;
            /* the editor's answer, so the job ends (the document is left as it was: same work each time) */
            char ans[128];
            snprintf(ans, sizeof ans, "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"result\":{\"applied\":true}}",
                     lsp_server_last_request_id(s));
            lsp_server_handle(s, ans, strlen(ans));
        }
        qsort(t, (size_t)n, sizeof *t, cmp_double);
        /* where the time goes: the session's run, the splice, and the server's own share (the line diff and
         * the UTF-16 positions of the edit), each measured alone on the same document */
        size_t doc_len = 0;
        const char *doc = lsp_server_document(s, langs[li].uri, &doc_len, NULL);
        import_session_t p;
        session_options_t o = *lsp_server_options(s);
        o.language = langs[li].lang;
        o.language_set = true;
        o.inline_type = "random:index/randomString:RandomString";
        o.inline_name = "server-name";
        o.inline_id = "mq7xk2vt9fzr";
        double p0 = now_ms();
        session_init(&p, &o);
        session_run(&p, NULL);
        double pipeline_ms = now_ms() - p0;
        char *spliced = NULL;
        size_t spliced_len = 0;
        bool changed;
        diag_list_t dl;
        diag_list_init(&dl);
        splice_options_t so = {.filename = "bench"};
        double s0 = now_ms();
        if (!p.code || !splicer_splice(lsp_server_splicer(s), doc, doc_len, langs[li].lang, p.code, strlen(p.code), &so,
                                       &spliced, &spliced_len, &changed, NULL, &dl)) {
            fprintf(stderr, "bench_lsp: %s: the splice failed: %s\n", langs[li].id,
                    dl.head        ? diag_format(&dl, dl.head)
                    : p.diags.head ? diag_format(&p.diags, p.diags.head)
                                   : "?");
            return 1;
        }
        double splice_ms = now_ms() - s0;
        double d0 = now_ms();
        lsp_edit_t *edits;
        size_t ne = lsp_text_diff(doc, doc_len, spliced, spliced_len, &edits);
        cJSON_Delete(lsp_edits_json(doc, doc_len, spliced, edits, ne, LSP_ENC_UTF16));
        double diff_ms = now_ms() - d0;
        free(edits);
        free(spliced);
        diag_list_free(&dl);
        session_free(&p);
        /* one character typed near the end of the document (incremental sync, UTF-16 position) */
        char change[512];
        snprintf(change, sizeof change,
                 "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":"
                 "\"%s\",\"version\":2},\"contentChanges\":[{\"range\":{\"start\":{\"line\":%zu,\"character\":3},"
                 "\"end\":{\"line\":%zu,\"character\":3}},\"text\":\"x\"}]}}",
                 langs[li].uri, lines - 3, lines - 3);
        double c0 = now_ms();
        lsp_server_handle(s, change, strlen(change));
        double change_ms = now_ms() - c0;
        double median = t[n / 2], max = t[n - 1];
        bool ok = first <= 300 && max <= 300;
        if (!ok) rc = 1;
        printf("%-11s %7zu %9.1f %10.1f %8.1f %7zu %6s %14.2f   (measured alone: pipeline %.1f, splice %.1f, "
               "diff+positions "
               "%.2f ms)\n",
               langs[li].id, lines, first, median, max, k.n_edits, ok ? "ok" : "MISSED", change_ms, pipeline_ms,
               splice_ms, diff_ms);
        free(t);
        free(text);
        lsp_server_free(s);
    }
    return rc;
}

/* fuzz_lsp.c — libFuzzer target: the language server's input. The bytes are read by the framing
 * reader (Content-Length headers, resync after bad headers) from a memory file, and every message
 * body is handled by a fresh server (JSON-RPC, lifecycle, document sync, positions, code actions).
 * workspace/executeCommand is skipped: it runs an import, which starts provider plugins. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lsp/lsp.h"
#include "lsp/lsp_internal.h"

static bool sink(void *user, const char *data, size_t len) {
    (void)user;
    (void)data;
    (void)len;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* libgit2 (the text diff) held for the whole run, as the editor's one server holds it: every
     * server's first hold would otherwise initialise it again, loading the system's CA bundle into
     * mbedTLS — 15 inputs a second, ~200 in CI's 15 s, all of it in certificate parsing. */
    static bool held;
    if (!held) {
        lsp_text_diff_hold();
        held = true;
    }
    int fd = memfd_create("fuzz-lsp", MFD_CLOEXEC);
    if (fd < 0) abort();
    if (size && write(fd, data, size) != (ssize_t)size) abort();
    lseek(fd, 0, SEEK_SET);
    lsp_reader_t r;
    lsp_reader_init(&r, fd);
    lsp_server_t *s = lsp_server_new(NULL, sink, NULL);
    for (int n = 0; n < 64; n++) {
        char *body = NULL;
        size_t len = 0;
        lsp_read_status_t st = lsp_reader_next(&r, true, &body, &len);
        if (st == LSP_READ_EOF) break;
        if (st != LSP_READ_MESSAGE) continue;
        cJSON *m = cJSON_ParseWithLength(body, len);
        const cJSON *method = m ? cJSON_GetObjectItemCaseSensitive(m, "method") : NULL;
        const char *name = cJSON_GetStringValue(method); /* NULL unless a string */
        bool skip = name && strcmp(name, "workspace/executeCommand") == 0;
        cJSON_Delete(m);
        bool go_on = skip || lsp_server_handle(s, body, len);
        free(body);
        if (!go_on) break;
    }
    lsp_server_free(s);
    lsp_reader_free(&r);
    close(fd);
    return 0;
}

/* fuzz_splice.c — libFuzzer target: the splicer for one language (FUZZ_LANG, one binary per
 * language). The input is a user's program; when it holds the separator "\n\0\0\n", the part after
 * it is the generated program, else the language's generated fixture (tests/fixtures/splice/gen.*)
 * is spliced in. Also lists the program's resource definitions (what the LSP and existing_refs
 * read). A successful splice must re-parse: splicer_splice checks that itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splice/splice.h"

static char *gen_fixture;
static size_t gen_len;

static void load_fixture(void) {
    static const char *const ext[] = {[LANG_TYPESCRIPT] = "ts", [LANG_PYTHON] = "py", [LANG_GO] = "go",
                                      [LANG_CSHARP] = "cs",     [LANG_JAVA] = "java", [LANG_YAML] = "yaml"};
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fixtures/splice/gen.%s", SOURCE_DIR, ext[FUZZ_LANG]);
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    static char buf[1 << 20];
    gen_len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[gen_len] = 0;
    gen_fixture = buf;
}

static splicer_t *splicer;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!gen_fixture) load_fixture();
    if (!splicer) splicer = splicer_new();
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    size_t tlen = size;
    const char *gen = gen_fixture;
    size_t glen = gen_len;
    for (size_t i = 0; i + 4 <= size; i++)
        if (memcmp(text + i, "\n\0\0\n", 4) == 0) {
            tlen = i;
            gen = text + i + 4;
            glen = size - i - 4;
            break;
        }
    diag_list_t d;
    diag_list_init(&d);
    splice_options_t o = {.filename = "fuzz"};
    char *out = NULL;
    size_t out_len = 0;
    bool changed = false;
    splice_stats_t st;
    if (splicer_splice(splicer, text, tlen, FUZZ_LANG, gen, glen, &o, &out, &out_len, &changed, &st, &d)) free(out);
    arena_t *a = arena_new();
    splice_definition_t *defs;
    size_t n;
    (void)splicer_list_definitions(splicer, text, tlen, FUZZ_LANG, "fuzz", a, &defs, &n, &d);
    arena_free(a);
    diag_list_free(&d);
    free(text);
    return 0;
}

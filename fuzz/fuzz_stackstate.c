/* fuzz_stackstate.c — libFuzzer target: a stack export or checkpoint (deployment_parse, as
 * --offline-state and --resume read it), the stack-state merge (stackstate_merge_text, as
 * --stack-state rewrites it: its own byte-offset scanner runs over the document), and — differential
 * — the text reader an indexed export's resources are read with (pv_from_state_text) against the
 * cJSON one (pv_from_state_json): wherever both read the input, they must read the same value; and
 * the export loaded indexed (deployment_load_indexed, as `convert --from pulumi` and --offline-state
 * load a file) converts to the same import file as the whole-document one; and a merged document
 * reads back as a stack state with the old resources and the added ones. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "migrate/convert.h"
#include "specs/deployment.h"
#include "specs/jsonscan.h"
#include "specs/stackstate.h"
#include "specs/value.h"

static void text_reader_agrees(arena_t *a, const char *data, size_t size) {
    cJSON *j = cJSON_ParseWithLength(data, size);
    if (!j) return;
    diag_list_t d1, d2;
    diag_list_init(&d1);
    diag_list_init(&d2);
    pv_t *tree = pv_from_state_json(a, j, "v", &d1);
    cJSON_Delete(j);
    jscan_t s;
    jscan_init(&s, data, size);
    pv_t *text = pv_from_state_text(a, &s, "v", &d2);
    /* the reader reads one value (inside a resource the scanner checks what follows it); here the
     * whole input is the value: "02" is 0 followed by junk to it, 2 to cJSON */
    if (text && !jscan_end(&s)) text = NULL;
    /* the scanner is stricter than cJSON (numbers like 1.e5, raw control characters): it may refuse
     * what cJSON reads, never read it differently */
    if (text && (!tree || !pv_equal(tree, text))) abort();
    if (!text && !s.err && tree) abort(); /* refused without a syntax error: a signature both see */
    diag_list_free(&d1);
    diag_list_free(&d2);
}

static char *import_file_of(arena_t *a, const deployment_t *dep) {
    diag_list_t d;
    diag_list_init(&d);
    convert_report_t rep = {0};
    import_file_t *f = convert_deployment_to_import_file(a, dep, &rep, &d);
    diag_list_free(&d);
    return f ? import_file_to_json(f) : NULL;
}

/* Both loaders accepted the document: the same import file, byte for byte (the indexed one reads
 * providers' configuration from the file's ranges). */
static void indexed_converts_alike(arena_t *a, const deployment_t *full, const uint8_t *data, size_t size) {
    int fd = memfd_create("fuzz-state", MFD_CLOEXEC);
    if (fd < 0) abort();
    if (size && write(fd, data, size) != (ssize_t)size) abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    diag_list_t d;
    diag_list_init(&d);
    bool not_pulumi = false;
    deployment_t *idx = deployment_load_indexed(a, path, &not_pulumi, &d);
    diag_list_free(&d);
    if (idx) {
        char *j1 = import_file_of(a, full), *j2 = import_file_of(a, idx);
        if ((j1 == NULL) != (j2 == NULL) || (j1 && strcmp(j1, j2) != 0)) abort();
        free(j1);
        free(j2);
        deployment_free(idx);
    }
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    text_reader_agrees(a, (const char *)data, size);
    deployment_t *dep = deployment_parse(a, (const char *)data, size, "fuzz-state.json", &d);
    if (dep) {
        convert_report_t rep = {0};
        (void)convert_deployment_to_import_file(a, dep, &rep, &d);
        indexed_converts_alike(a, dep, data, size);
        deployment_free(dep);
    }
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "length", pv_number(a, 2));
    stackstate_resource_t r = {.urn = "urn:pulumi:dev::project::random:index/randomPet:RandomPet::pet",
                               .type = "random:index/randomPet:RandomPet",
                               .id = "clever-wombat",
                               .inputs = in,
                               .outputs = in,
                               .version = "4.16.0",
                               .custom = true};
    stackstate_options_t o;
    stackstate_options_default(&o);
    o.now = "2026-01-01T00:00:00Z";
    stackstate_report_t out = {0};
    char *merged =
        stackstate_merge_text((const char *)data, size, "fuzz-state.json", "dev", "project", &r, 1, &o, &out, &d);
    if (merged) {
        /* What the merge writes is a stack state holding what was there and what it added. */
        diag_list_t m;
        diag_list_init(&m);
        deployment_t *after = deployment_parse(a, merged, strlen(merged), "merged.json", &m);
        if (!after || after->n_resources != out.n_existing + out.n_added) abort();
        deployment_free(after);
        diag_list_free(&m);
        free(merged);
    }
    stackstate_report_free(&out);
    diag_list_free(&d);
    arena_free(a);
    return 0;
}

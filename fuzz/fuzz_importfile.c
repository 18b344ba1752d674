/* fuzz_importfile.c — libFuzzer target: an import file (JSON or YAML, chosen by the first byte as
 * cimport does) through import_file_parse and the plan built from it. */
#include <stdint.h>
#include <stdlib.h>

#include "specs/importfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    import_file_t *f = import_file_parse(a, (const char *)data, size, "fuzz.json", &d);
    if (f) {
        import_plan_t *p = import_plan_build(a, f, "dev", "project", true, &d);
        (void)p;
        free(import_file_to_json(f));
    }
    for (diag_t *x = d.head; x; x = x->next)
        (void)diag_format(&d, x);
    diag_list_free(&d);
    arena_free(a);
    return 0;
}

/* fuzz_importfile.c — libFuzzer target: an import file (JSON or YAML, chosen by the first byte as
 * cimport does) through import_file_parse and the plan built from it; the JSON cimport writes of it
 * (import_file_to_json, as `convert` writes import files) reads back as the same file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "specs/importfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    import_file_t *f = import_file_parse(a, (const char *)data, size, "fuzz.json", &d);
    if (f) {
        import_plan_t *p = import_plan_build(a, f, "dev", "project", true, &d);
        (void)p;
        /* what cimport writes (convert's import files) reads back as the same file */
        char *j = import_file_to_json(f);
        if (j) {
            diag_list_t e;
            diag_list_init(&e);
            import_file_t *g = import_file_parse(a, j, strlen(j), "again.json", &e);
            char *j2 = g ? import_file_to_json(g) : NULL;
            if (!j2 || strcmp(j, j2) != 0) {
                fprintf(stderr, "import file round trip:\n%s\n%s\n%s\n", j, j2 ? j2 : "(refused)",
                        e.head ? e.head->message : "");
                abort();
            }
            free(j2);
            diag_list_free(&e);
        }
        free(j);
    }
    for (diag_t *x = d.head; x; x = x->next)
        (void)diag_format(&d, x);
    diag_list_free(&d);
    arena_free(a);
    return 0;
}

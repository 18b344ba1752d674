/* fuzz_pcl.c — libFuzzer target: PCL text (`cimport convert --from pcl`): parsed, bound without
 * schemas, printed back, and emitted in every language whose emitter accepts the bound program. */
#include <stdint.h>
#include <stdlib.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse((const char *)data, size, "fuzz.pp", &d);
    if (p) {
        free(pcl_print(p));
        schema_set_t *set = schema_set_new();
        if (pcl_bind(p, set, &d)) {
            static const lang_t langs[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA, LANG_YAML};
            for (size_t i = 0; i < sizeof langs / sizeof *langs; i++) {
                diag_list_t e;
                diag_list_init(&e);
                free(emit_program(p, langs[i], &e));
                diag_list_free(&e);
            }
        }
        schema_set_free(set);
        pcl_program_free(p);
    }
    diag_list_free(&d);
    return 0;
}

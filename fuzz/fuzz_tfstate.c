/* fuzz_tfstate.c — libFuzzer target: a Terraform state (tfstate_parse; v4 state and `terraform show
 * -json`) converted to an import file and to a stack snapshot (no schemas: the default naming rule). */
#include <stdint.h>
#include <stdlib.h>

#include "migrate/convert.h"
#include "specs/tfstate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    (void)tfstate_detect((const char *)data, size);
    tf_state_t *s = tfstate_parse(a, (const char *)data, size, "fuzz.tfstate", &d);
    if (s) {
        convert_options_t o = {0};
        convert_report_t rep = {0};
        (void)convert_tfstate_to_import_file(a, s, &o, &rep, &d);
        deployment_t *dep = convert_tfstate_to_deployment_with(a, s, &o, &d);
        if (dep) deployment_free(dep);
        tfstate_free(s);
    }
    diag_list_free(&d);
    arena_free(a);
    return 0;
}

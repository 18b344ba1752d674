/* fuzz_stackstate.c — libFuzzer target: a stack export or checkpoint (deployment_parse, as
 * --offline-state and --resume read it) and the stack-state merge (stackstate_merge_text, as
 * --stack-state rewrites it: its own byte-offset scanner runs over the document). */
#include <stdint.h>
#include <stdlib.h>

#include "migrate/convert.h"
#include "specs/deployment.h"
#include "specs/stackstate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    deployment_t *dep = deployment_parse(a, (const char *)data, size, "fuzz-state.json", &d);
    if (dep) {
        convert_report_t rep = {0};
        (void)convert_deployment_to_import_file(a, dep, &rep, &d);
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
    free(stackstate_merge_text((const char *)data, size, "fuzz-state.json", "dev", "project", &r, 1, &o, &out, &d));
    stackstate_report_free(&out);
    diag_list_free(&d);
    arena_free(a);
    return 0;
}

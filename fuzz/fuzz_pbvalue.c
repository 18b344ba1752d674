/* fuzz_pbvalue.c — libFuzzer target: protobuf bytes as a provider sends them. The input is unpacked
 * as a ReadResponse (what Read answers), its `properties` and `inputs` Structs decoded into property
 * values (pbvalue_pv_from_struct: signatures, secrets, assets, references, unknowns), then encoded
 * back and packed as a request would be. */
#include <stdint.h>
#include <stdlib.h>

#include "importer/pbvalue.h"
#include "provider.pb-c.h"

static void roundtrip(arena_t *a, const Google__Protobuf__Struct *s, diag_list_t *d) {
    pv_t *v = pbvalue_pv_from_struct(a, s, "fuzz", d);
    if (!v) return;
    pbvalue_options_t o;
    pbvalue_options_default(&o);
    Google__Protobuf__Struct *back = pbvalue_struct_from_pv(a, v, &o, "fuzz", d);
    if (back) {
        size_t len;
        free(pbvalue_pack(&back->base, &len));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Pulumirpc__ReadResponse *r = pulumirpc__read_response__unpack(NULL, size, data);
    if (!r) return 0;
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    roundtrip(a, r->properties, &d);
    roundtrip(a, r->inputs, &d);
    diag_list_free(&d);
    arena_free(a);
    pulumirpc__read_response__free_unpacked(r, NULL);
    return 0;
}

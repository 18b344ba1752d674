/* fuzz_schema.c — libFuzzer target: a package schema (schema_load_buffer), then every resource and
 * type token looked up (the lazy index builds the entries on lookup). */
#include <stdint.h>
#include <stdlib.h>

#include "specs/schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *pkg = schema_load_buffer((const char *)data, size, "fuzz-schema.json", &d);
    if (pkg) {
        size_t n = schema_resource_count(pkg);
        for (size_t i = 0; i < n && i < 256; i++)
            (void)schema_find_resource(pkg, schema_resource_token_at(pkg, i));
        n = schema_type_count(pkg);
        for (size_t i = 0; i < n && i < 256; i++)
            (void)schema_find_type(pkg, schema_type_token_at(pkg, i));
        schema_free(pkg);
    }
    diag_list_free(&d);
    return 0;
}

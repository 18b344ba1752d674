/* fuzz_mapping.c — libFuzzer target: a mapping document (bridge metadata as GetMapping and
 * bridge-metadata.json carry it) and the lookups `cimport convert` makes through it. */
#include <stdint.h>
#include <stdlib.h>

#include "specs/bridge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    bridge_set_t *set = bridge_set_new();
    diag_list_t d;
    diag_list_init(&d);
    if (bridge_set_add_buffer(set, (const char *)data, size, "fuzz-mapping.json", &d)) {
        static const char *const tf_types[] = {"aws_s3_bucket", "random_pet", "a", ""};
        for (size_t i = 0; i < sizeof tf_types / sizeof *tf_types; i++) {
            (void)bridge_find_resource(set, tf_types[i]);
            (void)bridge_max_items_one_override(set, tf_types[i], "a.b");
            const char *path[] = {"a", "b"};
            (void)bridge_tf_sensitive(set, tf_types[i], path, 2);
        }
        (void)bridge_package_for_provider(set, "aws");
        (void)bridge_renamed_property(set, "aws:s3/bucket:Bucket", "bucket_prefix");
    }
    diag_list_free(&d);
    bridge_set_free(set);
    return 0;
}

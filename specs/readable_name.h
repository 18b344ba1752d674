/* readable_name.h — names for a resource whose own name is taken already, built from what the
 * resource is (its type, its module, its logical name, its ID), so that generated code reads
 * `vpc_vpc` or `bucketBucket` rather than `vpc_2` or `bucketBucket2`. Each caller checks the
 * candidates against the names it has given out and numbers only when all are taken. */
#ifndef CIMPORT_READABLE_NAME_H
#define CIMPORT_READABLE_NAME_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

typedef enum {
    READABLE_CAMEL, /* Pulumi's import convention: name + TitleCase(type name): `bucketBucket` */
    READABLE_SNAKE, /* the converters' and Python's: name + `_` + snake_case(type name): `vpc_internet_gateway` */
    READABLE_KEBAB, /* Pulumi YAML resource keys: `my-key-private-key` */
} readable_style_t;

#define READABLE_MAX 4

/* Fills out[] with up to READABLE_MAX candidates for `base`, most readable first, and returns how
 * many: base + type name; the logical name (when it differs from base); base + module + type name;
 * base + type name + ID (when the ID is short enough to read). `token` is a Pulumi type token
 * (`pkg:module/sub:Type`); `logical` and `id` may be NULL. */
size_t readable_name_candidates(arena_t *a, readable_style_t style, const char *base, const char *token,
                                const char *logical, const char *id, const char *out[READABLE_MAX]);

#endif

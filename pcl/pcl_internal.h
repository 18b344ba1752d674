/* pcl_internal.h — helpers shared by the PCL generator, printer, parser and binder (private to pcl/).
 *
 * Holds the lexical rules (identifiers, reserved words, string and number literal forms) and the
 * structural typing rules (does a value fit a schema type, which union member does it select), so
 * generation and binding make the same decisions. */
#ifndef CIMPORT_PCL_INTERNAL_H
#define CIMPORT_PCL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "pcl/pcl.h"

/* HCL identifier: ASCII letter or `_` first, then letters, digits, `_` or `-`. (HCL also accepts
 * Unicode letters; we never produce them, and the parser accepts them as identifier bytes.) */
bool pcl_is_identifier(const char *s);
/* Words a PCL identifier must not be: block types, literals, and HCL expression keywords whose use
 * as a variable would be read as something else (`[for ...]`). */
bool pcl_is_reserved(const char *s);

/* Appends `s` as an HCL quoted string: `\"` `\\` `\n` `\r` `\t`, `\uXXXX` for other control
 * characters and DEL, `$${` for `${` and `%%{` for `%{`; other UTF-8 is copied raw. */
void pcl_append_string(buf_t *b, const char *s);
/* Appends a number: `%d` form when integral and exactly an int64, else Go's shortest `%g`
 * (exponent form when the decimal exponent is < -4 or >= 6). NaN/Inf print as `null`: HCL has no
 * literal for them. */
void pcl_append_number(buf_t *b, double n);
/* The significant digits of a decimal number's text (leading and trailing zeros not counted): more
 * than 15 and a float64 may not hold the value exactly. */
int pcl_number_digits(const char *text);

/* Appends one block as pcl_print writes it (generation prints a program it does not keep). */
void pcl_print_node_append(buf_t *b, const pcl_node_t *n);

/* Structural typing (Pulumi's valueStructurallyTypedAs): whether v fits t. A NULL type, `any` and
 * JSON accept everything; secrets and outputs are looked through. */
bool pcl_value_conforms(const pv_t *v, const schema_type_t *t);
/* The union member v selects: by discriminator mapping for objects, else the first member it fits.
 * NULL when none fits. */
const schema_type_t *pcl_reduce_union(const schema_type_t *u, const pv_t *v);
/* Strips unions (reduced against v) and returns the type a value at this position is read as. */
const schema_type_t *pcl_resolve_type(const schema_type_t *t, const pv_t *v);

/* Canonical position of an option name in Pulumi's order (unknown names sort last). */
int pcl_option_rank(const char *name);

/* A string → index map over base/hashmap.h; keys are kept by pointer and must outlive the map.
 * Zero-initialized is empty. */
typedef hashmap_t pcl_smap_t;

static inline bool pcl_smap_get(const pcl_smap_t *m, const char *key, size_t *val) {
    void **v = hashmap_find_str(m, key);
    if (v && val) *val = (size_t)(uintptr_t)*v;
    return v != NULL;
}
/* Inserts key unless present; returns whether it was new. */
static inline bool pcl_smap_add(pcl_smap_t *m, const char *key, size_t val) {
    return hashmap_add_str(m, key, (void *)(uintptr_t)val);
}
static inline void pcl_smap_free(pcl_smap_t *m) {
    hashmap_free(m);
}

#endif

/* base64.h — standard base64 (RFC 4648 alphabet, `=` padding), as Pulumi uses it for byte strings
 * and the `b64` secrets provider. */
#ifndef CIMPORT_BASE64_H
#define CIMPORT_BASE64_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

/* Padded encoding, malloc'd and NUL-terminated. */
char *base64_encode(const void *data, size_t n);
/* Decodes into the arena (NUL-terminated, *len bytes). Padding is optional; a character outside the
 * alphabet, text after padding, or more than two `=` make it false. */
bool base64_decode(arena_t *a, const char *s, char **out, size_t *len);

#endif

/* base64.c — standard base64 (see base64.h). */
#include "base/base64.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *base64_encode(const void *data, size_t n) {
    const unsigned char *s = data;
    char *o = malloc((n + 2) / 3 * 4 + 1), *p = o;
    if (!o) abort();
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) | (i + 2 < n ? s[i + 2] : 0);
        *p++ = ALPHABET[v >> 18 & 63];
        *p++ = ALPHABET[v >> 12 & 63];
        *p++ = i + 1 < n ? ALPHABET[v >> 6 & 63] : '=';
        *p++ = i + 2 < n ? ALPHABET[v & 63] : '=';
    }
    *p = 0;
    return o;
}

bool base64_decode(arena_t *a, const char *s, char **out, size_t *len) {
    size_t n = strlen(s);
    char *o = arena_alloc(a, n / 4 * 3 + 3);
    size_t l = 0;
    uint32_t acc = 0;
    int bits = 0, pad = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '=') {
            pad++;
            continue;
        }
        const char *q = strchr(ALPHABET, c);
        if (!q || pad) return false;
        acc = acc << 6 | (uint32_t)(q - ALPHABET);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            o[l++] = (char)(acc >> bits & 0xff);
        }
    }
    if (pad > 2) return false;
    o[l] = 0;
    *out = o;
    *len = l;
    return true;
}

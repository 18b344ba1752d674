/* swar.h — finding bytes eight at a time in a 64-bit word ("SIMD within a register"), for the
 * scanners that walk big JSON documents (json_strict, jsonscan). Little-endian machines only: the
 * callers fall back to their byte loop elsewhere (SWAR_OK is 0).
 *
 *     uint64_t w = swar_load(p);
 *     uint64_t m = swar_eq(w, '"') | swar_below(w, 0x20);
 *     if (m) first = p + swar_first(m);
 *
 * A mask has the high bit set in each matching byte — and possibly in bytes above the first match
 * (a borrow runs upwards), never below it, so swar_first (the lowest set bit) is exact. */
#ifndef CIMPORT_BASE_SWAR_H
#define CIMPORT_BASE_SWAR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_OK 1
#else
#define SWAR_OK 0
#endif

#define SWAR_ONES 0x0101010101010101ULL
#define SWAR_HIGHS 0x8080808080808080ULL

static inline uint64_t swar_load(const void *p) {
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* Bytes equal to b. */
static inline uint64_t swar_eq(uint64_t w, unsigned char b) {
    uint64_t x = w ^ (SWAR_ONES * b);
    return (x - SWAR_ONES) & ~x & SWAR_HIGHS;
}

/* Bytes below n (n ≤ 128). */
static inline uint64_t swar_below(uint64_t w, unsigned char n) {
    return (w - SWAR_ONES * n) & ~w & SWAR_HIGHS;
}

/* Bytes with the high bit set (not ASCII). */
static inline uint64_t swar_high(uint64_t w) {
    return w & SWAR_HIGHS;
}

/* The offset of the first matching byte of a non-zero mask. */
static inline size_t swar_first(uint64_t mask) {
    return (size_t)__builtin_ctzll(mask) / 8;
}

/* Sixteen bytes at a time where SSE2 is there (every x86-64): a bit per byte of p[0, 16), lowest
 * bit first, for the bytes a JSON string's plain run stops at — '"', '\\', and either every control
 * byte (below 0x20: `controls`) or only '\n'. The SWAR loops above finish what is left. */
#if defined(__SSE2__) && SWAR_OK
#include <emmintrin.h>
#define SWAR_SSE2 1
static inline unsigned swar_string_stops16(const void *p, int controls) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    if (controls) /* v <= 0x1f, unsigned: min(v, 0x1f) == v */
        m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v));
    else
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    return (unsigned)_mm_movemask_epi8(m);
}

/* A bit per byte of p[0, 16) with the high bit set (not ASCII). */
static inline unsigned swar_high16(const void *p) {
    return (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)p));
}
#else
#define SWAR_SSE2 0
#endif

#endif

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

#endif

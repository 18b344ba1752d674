/* vec.c — cimport's one growable array (see vec.h). */
#include "base/vec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VEC_MIN_CAP 8

static void vec_die(const char *what, size_t a, size_t b) {
    fprintf(stderr, "cimport: %s (%zu, %zu)\n", what, a, b);
    abort();
}

size_t vec_next_cap(size_t cap, size_t need, size_t elem_size) {
    if (need <= cap) return cap;
    size_t n = cap ? cap : VEC_MIN_CAP;
    while (n < need) {
        if (n > SIZE_MAX / 2) {
            n = need;
            break;
        }
        n *= 2;
    }
    if (elem_size == 0 || n > SIZE_MAX / elem_size) vec_die("array size overflows size_t", n, elem_size);
    return n;
}

void *vec_grow_to(void *data, size_t *cap, size_t need, size_t elem_size) {
    if (need <= *cap) return data;
    size_t n = vec_next_cap(*cap, need, elem_size);
    void *p = realloc(data, n * elem_size);
    if (!p) vec_die("out of memory growing an array", n, elem_size);
    *cap = n;
    return p;
}

void vec_init(vec_t *v, size_t elem_size) {
    *v = (vec_t){NULL, 0, 0, elem_size};
}

void vec_reserve(vec_t *v, size_t need) {
    v->data = vec_grow(v->data, &v->cap, need, v->elem_size);
}

static char *vec_byte(const vec_t *v, size_t i) {
    return (char *)v->data + i * v->elem_size;
}

void *vec_push(vec_t *v) {
    return vec_insert(v, v->len);
}

void vec_append(vec_t *v, const void *src, size_t n) {
    if (!n) return;
    if (v->len > SIZE_MAX - n) vec_die("array length overflows size_t", v->len, n);
    vec_reserve(v, v->len + n);
    memcpy(vec_byte(v, v->len), src, n * v->elem_size);
    v->len += n;
}

void *vec_at(const vec_t *v, size_t i) {
    if (i >= v->len) vec_die("array index out of bounds", i, v->len);
    return vec_byte(v, i);
}

void *vec_last(const vec_t *v) {
    return v->len ? vec_byte(v, v->len - 1) : NULL;
}

bool vec_pop(vec_t *v, void *out) {
    if (!v->len) return false;
    v->len--;
    if (out) memcpy(out, vec_byte(v, v->len), v->elem_size);
    return true;
}

void *vec_insert(vec_t *v, size_t i) {
    if (i > v->len) vec_die("array insert position out of bounds", i, v->len);
    if (v->len == SIZE_MAX) vec_die("array length overflows size_t", v->len, 1);
    vec_reserve(v, v->len + 1);
    char *at = vec_byte(v, i);
    memmove(at + v->elem_size, at, (v->len - i) * v->elem_size);
    memset(at, 0, v->elem_size);
    v->len++;
    return at;
}

void vec_remove(vec_t *v, size_t i) {
    if (i >= v->len) vec_die("array index out of bounds", i, v->len);
    char *at = vec_byte(v, i);
    memmove(at, at + v->elem_size, (v->len - i - 1) * v->elem_size);
    v->len--;
}

void vec_truncate(vec_t *v, size_t len) {
    if (len > v->len) vec_die("array truncated past its length", len, v->len);
    v->len = len;
}

void *vec_steal(vec_t *v, size_t *len) {
    void *data = v->len ? v->data : NULL;
    if (!data) free(v->data);
    if (len) *len = v->len;
    *v = (vec_t){NULL, 0, 0, v->elem_size};
    return data;
}

void vec_free(vec_t *v) {
    free(v->data);
    *v = (vec_t){NULL, 0, 0, v->elem_size};
}

/* vec.h — cimport's one growable array: a contiguous run of equal-sized elements that doubles as it
 * grows (amortized O(1) appends), with bounds and size overflow checked.
 *
 * Two ways in, one growth rule:
 *   - vec_t, a self-describing array (elements, length, capacity, element size):
 *         vec_t v = VEC_INIT(long);
 *         *(long *)vec_push(&v) = 42;            // or VEC_PUSH(&v, long, 42)
 *         long *xs = v.data; for (size_t i = 0; i < v.len; i++) use(xs[i]);
 *         vec_free(&v);
 *   - vec_grow, for a typed pointer + capacity already kept in a struct (the shape of most arrays
 *     in the tree, so they can use the shared rule without changing their fields):
 *         p->items = vec_grow(p->items, &p->cap, p->n + 1, sizeof *p->items);
 *         p->items[p->n++] = item;
 *
 * Memory comes from malloc/realloc; running out of memory, or a size that does not fit in size_t,
 * aborts (as the arena does). An empty vec_t owns no memory. Pointers into the array are valid until
 * it next grows. Not thread-safe. */
#ifndef CIMPORT_BASE_VEC_H
#define CIMPORT_BASE_VEC_H

#include <stdbool.h>
#include <stddef.h>

typedef struct vec {
    void *data; /* cap elements, the first len in use; NULL while cap == 0 */
    size_t len, cap;
    size_t elem_size; /* bytes per element, > 0 */
} vec_t;

#define VEC_INIT(type) ((vec_t){NULL, 0, 0, sizeof(type)})

/* Returns data (reallocated when needed) with room for at least `need` elements of elem_size
 * bytes, updating *cap; capacity doubles from 8 so appending is amortized O(1). New room is not
 * initialized. need ≤ *cap returns data unchanged. */
void *vec_grow_to(void *data, size_t *cap, size_t need, size_t elem_size);
static inline void *vec_grow(void *data, size_t *cap, size_t need, size_t elem_size) {
    return need <= *cap ? data : vec_grow_to(data, cap, need, elem_size); /* room: no call */
}
/* The growth rule itself: the capacity an array of `cap` elements gets when it must hold `need`
 * (cap when it already does, else cap — 8 at least — doubled until it does). Aborts when `need`
 * elements of elem_size bytes overflow size_t. For arrays that live elsewhere (arena_grow_array). */
size_t vec_next_cap(size_t cap, size_t need, size_t elem_size);

/* An empty array of elem_size-byte elements (the same as VEC_INIT). */
void vec_init(vec_t *v, size_t elem_size);
/* Makes room for at least `need` elements in total. */
void vec_reserve(vec_t *v, size_t need);
/* Appends one zero-filled element and returns it. */
void *vec_push(vec_t *v);
/* Appends n elements copied from src (n may be 0; src may then be NULL). */
void vec_append(vec_t *v, const void *src, size_t n);
/* Element i (i < len; aborts otherwise — an out-of-bounds index is a bug, never input). */
void *vec_at(const vec_t *v, size_t i);
/* The last element, or NULL when empty. */
void *vec_last(const vec_t *v);
/* Removes the last element, copying it to out when out is not NULL. False when empty. */
bool vec_pop(vec_t *v, void *out);
/* Inserts one zero-filled element at i (i ≤ len), shifting the rest up; returns it. */
void *vec_insert(vec_t *v, size_t i);
/* Removes element i (i < len), shifting the rest down (order kept). */
void vec_remove(vec_t *v, size_t i);
/* Sets the length to len (≤ the current length): drops the elements past it. */
void vec_truncate(vec_t *v, size_t len);
/* Hands the elements to the caller (free() them; NULL when empty) and leaves the array empty. */
void *vec_steal(vec_t *v, size_t *len);
/* Releases the memory; the array is empty again (same element size). */
void vec_free(vec_t *v);

/* Appends a value of `type` (which must be the array's element type). */
#define VEC_PUSH(v, type, value) (*(type *)vec_push(v) = (value))
/* Element i as `type`. */
#define VEC_AT(v, type, i) (*(type *)vec_at((v), (i)))

#endif

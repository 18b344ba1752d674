/* hashmap.h — cimport's one hash map: byte-string keys → pointer values, iterated in insertion order.
 *
 * Shape (as CPython's compact dict): the entries sit in an array in the order they were added; a
 * power-of-two index table of entry numbers, probed linearly, finds them by hash. So lookups
 * are O(1) and iteration is deterministic — generated code and reports never depend on hash order.
 * Deleting an entry leaves a hole in the array (skipped by iteration, reclaimed when the map grows)
 * and closes its gap in the index by backward shifting, so no tombstones slow later lookups.
 *
 * Keys are borrowed: the map keeps the caller's pointer, which must stay valid (and unchanged) while
 * the entry is in the map — an arena string, or a field of the value itself. A key is `len` bytes
 * and may hold NULs; the `_str` helpers take NUL-terminated strings. Values are opaque pointers
 * (NULL allowed; hashmap_find tells "absent" from "NULL").
 *
 * A zero-initialized hashmap_t is an empty map; hashmap_free releases its memory (not keys or
 * values). Running out of memory aborts, as the arena does. Not thread-safe. The hash is not keyed:
 * a hostile input can make keys collide, which costs time (linear probing), never correctness.
 *
 *     hashmap_t m = {0};
 *     hashmap_add_str(&m, "a", ptr);
 *     void **v = hashmap_find_str(&m, "a");          // NULL when absent
 *     const hashmap_entry_t *e;
 *     for (size_t it = 0; (e = hashmap_next(&m, &it));) use(e->key, e->len, e->value);
 *     hashmap_free(&m); */
#ifndef CIMPORT_BASE_HASHMAP_H
#define CIMPORT_BASE_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct hashmap_entry {
    const char *key; /* borrowed; NULL marks a deleted entry (never seen through the API) */
    size_t len;
    uint64_t hash;
    void *value;
} hashmap_entry_t;

typedef struct hashmap {
    hashmap_entry_t *entries; /* insertion order, holes included */
    size_t used;              /* entries[0, used) are taken (live or deleted) */
    size_t entries_cap;
    size_t count;     /* live entries */
    uint32_t *index;  /* index_cap slots: 0 = empty, else entry number + 1 */
    size_t index_cap; /* 0 or a power of two */
} hashmap_t;

/* A 64-bit hash of len bytes (not keyed, not cryptographic; eight bytes per step). */
uint64_t hashmap_hash(const void *key, size_t len);

/* Adds key → value. False (and nothing changed) when the key is already there. */
bool hashmap_add(hashmap_t *m, const char *key, size_t len, void *value);
/* Sets key → value, adding the key or replacing its value; *old gets the replaced value (NULL when
 * the key was new). Returns true when the key was new. */
bool hashmap_set(hashmap_t *m, const char *key, size_t len, void *value, void **old);
/* The value slot of key (its value can be read or changed through it), or NULL when absent. The
 * pointer is valid until the map next changes. */
void **hashmap_find(const hashmap_t *m, const char *key, size_t len);
/* Removes key; *old gets its value. False when the key was not there. */
bool hashmap_delete(hashmap_t *m, const char *key, size_t len, void **old);
/* Iteration in insertion order: start with *it = 0; returns NULL after the last entry. The map must
 * not gain entries during iteration; deleting the entry just returned is allowed. */
const hashmap_entry_t *hashmap_next(const hashmap_t *m, size_t *it);
/* Room for n more entries without growing (one rebuild now instead of one per doubling): for a
 * caller that knows how many keys it is about to add. */
void hashmap_reserve(hashmap_t *m, size_t n);
/* Empties the map and keeps its memory for reuse. */
void hashmap_clear(hashmap_t *m);
/* Releases the map's memory; it is an empty map again. */
void hashmap_free(hashmap_t *m);

static inline size_t hashmap_count(const hashmap_t *m) {
    return m->count;
}

static inline bool hashmap_add_str(hashmap_t *m, const char *key, void *value) {
    return hashmap_add(m, key, strlen(key), value);
}
static inline bool hashmap_set_str(hashmap_t *m, const char *key, void *value, void **old) {
    return hashmap_set(m, key, strlen(key), value, old);
}
static inline void **hashmap_find_str(const hashmap_t *m, const char *key) {
    return hashmap_find(m, key, strlen(key));
}
static inline bool hashmap_delete_str(hashmap_t *m, const char *key, void **old) {
    return hashmap_delete(m, key, strlen(key), old);
}

#endif

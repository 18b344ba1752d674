/* hashmap.c — cimport's one hash map (see hashmap.h for the shape and the rules).
 *
 * Invariants: entries_cap is 0 or a power of two ≥ 8 and index_cap == 2 * entries_cap, so the index
 * is at most half full (it holds only live entries, count ≤ used ≤ entries_cap) and a probe always
 * reaches an empty slot. Every live entry is in the index exactly once, at or after (cyclically) its
 * home slot hash & (index_cap - 1) with no empty slot in between — the property lookups rely on and
 * the backward shift of hashmap_delete keeps. */
#include "base/hashmap.h"

#include <stdio.h>
#include <stdlib.h>

#define HASHMAP_MIN_ENTRIES 8

/* zeroed: for the index, whose empty slots are 0. The entries array is not zeroed (entries at and past
 * `used` are never read): zeroing it was most of the page touching of a warm schema load. */
static void *hashmap_alloc(size_t n, size_t size, bool zeroed) {
    void *p = n && size <= SIZE_MAX / n ? (zeroed ? calloc(n, size) : malloc(n * size)) : NULL;
    if (!p) {
        fprintf(stderr, "cimport: out of memory allocating %zu × %zu bytes\n", n, size);
        abort();
    }
    return p;
}

uint64_t hashmap_hash(const void *key, size_t len) {
    /* Eight bytes per step, each folded in by a multiply and a shift (FNV-1a took one multiply per
     * byte: 4 % of a 100,000-resource import hashing URNs), the length mixed in, and a final
     * avalanche so the low bits the index uses depend on every byte. */
    const unsigned char *p = key;
    const uint64_t m1 = 0xFF51AFD7ED558CCDULL, m2 = 0xC4CEB9FE1A85EC53ULL;
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)len * m2);
    for (; len >= 8; p += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, p, sizeof w);
        h = (h ^ w) * m1;
        h ^= h >> 29;
    }
    uint64_t tail = 0;
    for (size_t i = 0; i < len; i++)
        tail |= (uint64_t)p[i] << (8 * i);
    h = (h ^ tail) * m2;
    h ^= h >> 32;
    h *= m1;
    h ^= h >> 29;
    return h;
}

/* The index slot holding key, or the empty slot where it would go. index_cap must be non-zero. */
static size_t hashmap_probe(const hashmap_t *m, const char *key, size_t len, uint64_t h) {
    size_t mask = m->index_cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        uint32_t s = m->index[i];
        if (!s) return i;
        const hashmap_entry_t *e = &m->entries[s - 1];
        if (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0) return i;
    }
}

/* Moves the live entries, in order, into a fresh array of cap entries and indexes them again. */
static void hashmap_rebuild(hashmap_t *m, size_t cap) {
    if (cap > UINT32_MAX / 2) {
        fprintf(stderr, "cimport: a hash map cannot hold more than %u entries\n", (unsigned)(UINT32_MAX / 2));
        abort();
    }
    hashmap_entry_t *entries = hashmap_alloc(cap, sizeof *entries, false);
    size_t n = 0;
    for (size_t i = 0; i < m->used; i++)
        if (m->entries[i].key) entries[n++] = m->entries[i];
    free(m->entries);
    free(m->index);
    m->entries = entries;
    m->entries_cap = cap;
    m->used = n;
    m->index_cap = 2 * cap;
    m->index = hashmap_alloc(m->index_cap, sizeof *m->index, true);
    for (size_t i = 0; i < n; i++)
        m->index[hashmap_probe(m, entries[i].key, entries[i].len, entries[i].hash)] = (uint32_t)(i + 1);
}

/* Room for one more entry at the end of the array: compacts when at least half the entries are
 * holes (so each rebuild is paid for by as many adds as it moves), else doubles. */
static void hashmap_reserve_one(hashmap_t *m) {
    if (m->used < m->entries_cap) return;
    size_t cap = m->entries_cap ? m->entries_cap : HASHMAP_MIN_ENTRIES;
    if (m->count >= cap / 2) cap *= 2;
    hashmap_rebuild(m, cap);
}

void hashmap_reserve(hashmap_t *m, size_t n) {
    size_t want = m->count + n;
    if (want <= m->entries_cap) return;
    size_t cap = m->entries_cap ? m->entries_cap : HASHMAP_MIN_ENTRIES;
    while (cap < want)
        cap *= 2;
    hashmap_rebuild(m, cap);
}

static void hashmap_insert(hashmap_t *m, const char *key, size_t len, uint64_t h, void *value) {
    hashmap_reserve_one(m);
    size_t slot = hashmap_probe(m, key, len, h);
    m->entries[m->used] = (hashmap_entry_t){key, len, h, value};
    m->index[slot] = (uint32_t)(++m->used);
    m->count++;
}

/* Puts a new entry in the empty index slot a probe found, when the entries have room (else the
 * rebuild moves the slots, and hashmap_insert probes again). */
static void hashmap_insert_at(hashmap_t *m, size_t slot, const char *key, size_t len, uint64_t h, void *value) {
    if (m->used >= m->entries_cap) {
        hashmap_insert(m, key, len, h, value);
        return;
    }
    m->entries[m->used] = (hashmap_entry_t){key, len, h, value};
    m->index[slot] = (uint32_t)(++m->used);
    m->count++;
}

bool hashmap_add(hashmap_t *m, const char *key, size_t len, void *value) {
    if (!key) key = "";
    uint64_t h = hashmap_hash(key, len);
    if (!m->index_cap) {
        hashmap_insert(m, key, len, h, value);
        return true;
    }
    size_t slot = hashmap_probe(m, key, len, h);
    if (m->index[slot]) return false;
    hashmap_insert_at(m, slot, key, len, h, value);
    return true;
}

bool hashmap_set(hashmap_t *m, const char *key, size_t len, void *value, void **old) {
    if (!key) key = "";
    uint64_t h = hashmap_hash(key, len);
    if (old) *old = NULL;
    if (!m->index_cap) {
        hashmap_insert(m, key, len, h, value);
        return true;
    }
    size_t slot = hashmap_probe(m, key, len, h);
    uint32_t s = m->index[slot];
    if (s) {
        if (old) *old = m->entries[s - 1].value;
        m->entries[s - 1].value = value;
        return false;
    }
    hashmap_insert_at(m, slot, key, len, h, value);
    return true;
}

void **hashmap_find(const hashmap_t *m, const char *key, size_t len) {
    if (!m->count) return NULL;
    if (!key) key = "";
    uint32_t s = m->index[hashmap_probe(m, key, len, hashmap_hash(key, len))];
    return s ? &m->entries[s - 1].value : NULL;
}

bool hashmap_delete(hashmap_t *m, const char *key, size_t len, void **old) {
    if (!m->count) return false;
    if (!key) key = "";
    size_t hole = hashmap_probe(m, key, len, hashmap_hash(key, len));
    uint32_t s = m->index[hole];
    if (!s) return false;
    hashmap_entry_t *e = &m->entries[s - 1];
    if (old) *old = e->value;
    *e = (hashmap_entry_t){0};
    m->count--;
    while (m->used && !m->entries[m->used - 1].key)
        m->used--; /* trailing holes are free space */
    /* Backward shift: pull later entries of the probe run into the hole when their home slot does
     * not lie cyclically in (hole, j] — otherwise a lookup starting at their home would stop early. */
    size_t mask = m->index_cap - 1;
    for (size_t j = (hole + 1) & mask; m->index[j]; j = (j + 1) & mask) {
        size_t home = (size_t)m->entries[m->index[j] - 1].hash & mask;
        bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
        if (stays) continue;
        m->index[hole] = m->index[j];
        hole = j;
    }
    m->index[hole] = 0;
    return true;
}

const hashmap_entry_t *hashmap_next(const hashmap_t *m, size_t *it) {
    while (*it < m->used) {
        const hashmap_entry_t *e = &m->entries[(*it)++];
        if (e->key) return e;
    }
    return NULL;
}

void hashmap_clear(hashmap_t *m) {
    if (m->index) memset(m->index, 0, m->index_cap * sizeof *m->index);
    m->used = 0;
    m->count = 0;
}

void hashmap_free(hashmap_t *m) {
    free(m->entries);
    free(m->index);
    memset(m, 0, sizeof *m);
}

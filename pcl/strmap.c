/* strmap.c — a small string → index hash map (open addressing, FNV-1a), used by generation for
 * names and reference candidates and by the parser for declared names, so both stay linear. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pcl/pcl_internal.h"

static uint64_t str_hash(const char *s) {
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static pcl_smap_entry_t *smap_slot(pcl_smap_t *m, const char *key, uint64_t h) {
    size_t i = (size_t)h & (m->cap - 1);
    while (m->e[i].key && (m->e[i].hash != h || strcmp(m->e[i].key, key) != 0)) i = (i + 1) & (m->cap - 1);
    return &m->e[i];
}

bool pcl_smap_get(const pcl_smap_t *m, const char *key, size_t *val) {
    if (!m->cap) return false;
    pcl_smap_entry_t *e = smap_slot((pcl_smap_t *)m, key, str_hash(key));
    if (!e->key) return false;
    if (val) *val = e->val;
    return true;
}

bool pcl_smap_add(pcl_smap_t *m, const char *key, size_t val) {
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        pcl_smap_t g = {calloc(cap, sizeof(pcl_smap_entry_t)), cap, m->n};
        if (!g.e) abort();
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].key) *smap_slot(&g, m->e[i].key, m->e[i].hash) = m->e[i];
        free(m->e);
        *m = g;
    }
    uint64_t h = str_hash(key);
    pcl_smap_entry_t *e = smap_slot(m, key, h);
    if (e->key) return false;
    e->key = key;
    e->hash = h;
    e->val = val;
    m->n++;
    return true;
}

void pcl_smap_free(pcl_smap_t *m) {
    free(m->e);
    memset(m, 0, sizeof *m);
}

/* test_base.c — base/: the one hash map (hashmap.h) and the one growable array (vec.h).
 *
 * The map is checked against a plain model (a flag, value and insertion sequence per key) through
 * random add/set/find/delete runs — small key spaces, so the index wraps around and deletions shift
 * long probe runs, and a 1,000,000-key run — after which every key's presence and value, the count
 * and the iteration order (insertion order, holes skipped) must match the model exactly. Also: the
 * zero map, duplicates, NULL values, keys with NUL bytes and the empty key, deleting during
 * iteration, clear and reuse, compaction keeping order.
 *
 * The array: push/at/pop/insert/remove/truncate/append/steal on 1,000,000 elements, the capacity
 * rule shared with vec_grow, and the aborts on an out-of-bounds index and an overflowing size (in a
 * child process). */
#include <check.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <git2.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/dynlib.h"
#include "base/hashmap.h"
#include "base/swar.h"
#include "base/vec.h"
#include "testutil.h"

/* Check's ck_assert_* writes a mark point on every call (a system call each without fork mode), which
 * millions of checks cannot afford; EXPECT costs nothing until it fails. */
#define EXPECT(cond)                                                                                                   \
    do {                                                                                                               \
        if (!(cond)) ck_abort_msg("%s:%d: expected %s", __FILE__, __LINE__, #cond);                                    \
    } while (0)

/* ---------- a deterministic generator (xorshift64*) ---------- */

static uint64_t rng_state;
static void rng_seed(uint64_t s) {
    rng_state = s ? s : 1;
}
static uint64_t rng_next(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}
static size_t rng_below(size_t n) {
    return (size_t)(rng_next() % n);
}

/* ---------- the model ---------- */

typedef struct model {
    size_t n;    /* key space: keys "k0" … "k<n-1>" */
    char **keys; /* the key strings (the map borrows them) */
    bool *present;
    void **value;
    uint64_t *seq; /* insertion sequence of a present key */
    uint64_t next_seq;
    size_t count;
} model_t;

static void model_init(model_t *md, size_t n) {
    md->n = n;
    md->keys = malloc(n * sizeof *md->keys);
    md->present = calloc(n, sizeof *md->present);
    md->value = calloc(n, sizeof *md->value);
    md->seq = calloc(n, sizeof *md->seq);
    md->next_seq = 1;
    md->count = 0;
    for (size_t i = 0; i < n; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "k%zu", i);
        md->keys[i] = strdup(buf);
    }
}

static void model_free(model_t *md) {
    for (size_t i = 0; i < md->n; i++)
        free(md->keys[i]);
    free(md->keys);
    free(md->present);
    free(md->value);
    free(md->seq);
}

static size_t key_index(const model_t *md, const hashmap_entry_t *e) {
    EXPECT((e->len) > (1));
    EXPECT((e->key[0]) == ('k'));
    size_t i = (size_t)strtoull(e->key + 1, NULL, 10);
    EXPECT((i) < (md->n));
    EXPECT((e->key) == (md->keys[i])); /* the map keeps the caller's pointer */
    return i;
}

/* Every key's presence and value, the count, and iteration in insertion order. */
static void model_check(const model_t *md, const hashmap_t *m) {
    EXPECT((hashmap_count(m)) == (md->count));
    for (size_t i = 0; i < md->n; i++) {
        void **v = hashmap_find_str(m, md->keys[i]);
        if (md->present[i]) {
            EXPECT((v) != NULL);
            EXPECT((*v) == (md->value[i]));
        } else {
            EXPECT((v) == NULL);
        }
    }
    size_t it = 0, seen = 0;
    uint64_t last = 0;
    const hashmap_entry_t *e;
    while ((e = hashmap_next(m, &it))) {
        size_t i = key_index(md, e);
        EXPECT(md->present[i]);
        EXPECT((e->value) == (md->value[i]));
        EXPECT((md->seq[i]) > (last));
        last = md->seq[i];
        seen++;
    }
    EXPECT((seen) == (md->count));
}

static void *val(uint64_t x) {
    return (void *)(uintptr_t)(x * 16 + 8);
}

/* One random operation on map and model alike, each result compared. */
static void random_op(model_t *md, hashmap_t *m) {
    size_t i = rng_below(md->n);
    void *v = val(rng_next() & 0xffffff);
    switch (rng_below(5)) {
    case 0: { /* add */
        bool added = hashmap_add_str(m, md->keys[i], v);
        EXPECT(added == !md->present[i]);
        if (added) {
            md->present[i] = true;
            md->value[i] = v;
            md->seq[i] = md->next_seq++;
            md->count++;
        }
        break;
    }
    case 1: { /* set */
        void *old = (void *)1;
        bool is_new = hashmap_set_str(m, md->keys[i], v, &old);
        EXPECT(is_new == !md->present[i]);
        EXPECT((old) == (md->present[i] ? md->value[i] : NULL));
        if (is_new) {
            md->present[i] = true;
            md->seq[i] = md->next_seq++;
            md->count++;
        }
        md->value[i] = v;
        break;
    }
    case 2: { /* find */
        void **got = hashmap_find_str(m, md->keys[i]);
        if (md->present[i]) {
            EXPECT((got) != NULL);
            EXPECT((*got) == (md->value[i]));
        } else {
            EXPECT((got) == NULL);
        }
        break;
    }
    default: { /* delete (twice as likely, so maps shrink and refill) */
        void *old = NULL;
        bool deleted = hashmap_delete_str(m, md->keys[i], &old);
        EXPECT(deleted == md->present[i]);
        if (deleted) {
            EXPECT((old) == (md->value[i]));
            md->present[i] = false;
            md->count--;
        }
        break;
    }
    }
}

/* ---------- hash map ---------- */

START_TEST(map_zero_is_empty) {
    hashmap_t m = {0};
    EXPECT((hashmap_count(&m)) == (0));
    EXPECT((hashmap_find_str(&m, "x")) == NULL);
    EXPECT(!hashmap_delete_str(&m, "x", NULL));
    size_t it = 0;
    EXPECT((hashmap_next(&m, &it)) == NULL);
    hashmap_clear(&m);
    hashmap_free(&m);
    hashmap_free(&m); /* freeing an empty map again is harmless */
}
END_TEST

START_TEST(map_duplicates_null_values_and_binary_keys) {
    hashmap_t m = {0};
    int a, b;
    EXPECT(hashmap_add_str(&m, "name", &a));
    EXPECT(!hashmap_add_str(&m, "name", &b)); /* kept: the first value */
    EXPECT((*hashmap_find_str(&m, "name")) == (&a));
    /* NULL is a value like any other */
    EXPECT(hashmap_add_str(&m, "nothing", NULL));
    void **v = hashmap_find_str(&m, "nothing");
    EXPECT((v) != NULL);
    EXPECT((*v) == NULL);
    /* keys are bytes: a NUL inside, a prefix, the empty key — all different */
    static const char k1[] = {'a', '\0', 'b'};
    EXPECT(hashmap_add(&m, k1, 3, &a));
    EXPECT(hashmap_add(&m, "a", 1, &b));
    EXPECT(hashmap_add(&m, "", 0, &b));
    EXPECT(!hashmap_add(&m, "", 0, &a));
    EXPECT((*hashmap_find(&m, k1, 3)) == (&a));
    EXPECT((*hashmap_find(&m, "a", 1)) == (&b));
    EXPECT((*hashmap_find(&m, "axx", 0)) == (&b)); /* length 0: the empty key */
    EXPECT((hashmap_find(&m, "a\0c", 3)) == NULL);
    /* set replaces and reports the old value; a value can be changed through find */
    void *old = NULL;
    EXPECT(!hashmap_set_str(&m, "name", &b, &old));
    EXPECT((old) == (&a));
    *hashmap_find_str(&m, "name") = &a;
    EXPECT((*hashmap_find_str(&m, "name")) == (&a));
    EXPECT(hashmap_set_str(&m, "new", &b, &old));
    EXPECT((old) == NULL);
    EXPECT((hashmap_count(&m)) == (6));
    hashmap_free(&m);
    EXPECT((hashmap_count(&m)) == (0));
}
END_TEST

START_TEST(map_iterates_in_insertion_order_across_growth_and_compaction) {
    model_t md;
    model_init(&md, 200);
    hashmap_t m = {0};
    for (size_t i = 0; i < 100; i++)
        EXPECT(hashmap_add_str(&m, md.keys[i], val(i)));
    for (size_t i = 0; i < 90; i++)
        EXPECT(hashmap_delete_str(&m, md.keys[i], NULL));
    for (size_t i = 100; i < 200; i++)
        EXPECT(hashmap_add_str(&m, md.keys[i], val(i))); /* compacts */
    EXPECT(hashmap_add_str(&m, md.keys[5], val(5)));     /* re-added: now last */
    size_t it = 0, n = 0;
    const hashmap_entry_t *e;
    size_t expect = 90;
    while ((e = hashmap_next(&m, &it))) {
        size_t i = key_index(&md, e);
        EXPECT((i) == (n == 110 ? 5 : expect++));
        EXPECT((e->value) == (val(i)));
        n++;
    }
    EXPECT((n) == (111));
    /* replacing a value keeps the key's place */
    EXPECT(!hashmap_set_str(&m, md.keys[90], val(7), NULL));
    it = 0;
    e = hashmap_next(&m, &it);
    EXPECT((e->key) == (md.keys[90]));
    EXPECT((e->value) == (val(7)));
    hashmap_free(&m);
    model_free(&md);
}
END_TEST

START_TEST(map_delete_while_iterating) {
    model_t md;
    model_init(&md, 1000);
    hashmap_t m = {0};
    for (size_t i = 0; i < md.n; i++) {
        hashmap_add_str(&m, md.keys[i], val(i));
        md.present[i] = true;
        md.value[i] = val(i);
        md.seq[i] = md.next_seq++;
        md.count++;
    }
    size_t it = 0;
    const hashmap_entry_t *e;
    while ((e = hashmap_next(&m, &it))) {
        size_t i = key_index(&md, e);
        if (i % 3 == 0) {
            EXPECT(hashmap_delete(&m, e->key, e->len, NULL));
            md.present[i] = false;
            md.count--;
        }
    }
    model_check(&md, &m);
    /* deleting everything from the back leaves an empty map that works again */
    for (size_t i = md.n; i-- > 0;)
        if (md.present[i]) EXPECT(hashmap_delete_str(&m, md.keys[i], NULL));
    EXPECT((hashmap_count(&m)) == (0));
    it = 0;
    EXPECT((hashmap_next(&m, &it)) == NULL);
    EXPECT(hashmap_add_str(&m, md.keys[1], val(1)));
    EXPECT((*hashmap_find_str(&m, md.keys[1])) == (val(1)));
    hashmap_free(&m);
    model_free(&md);
}
END_TEST

START_TEST(map_clear_keeps_working) {
    model_t md;
    model_init(&md, 300);
    hashmap_t m = {0};
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < md.n; i += (size_t)round + 1)
            EXPECT(hashmap_add_str(&m, md.keys[i], val(i)));
        EXPECT((hashmap_count(&m)) == ((md.n + (size_t)round) / ((size_t)round + 1)));
        hashmap_clear(&m);
        EXPECT((hashmap_count(&m)) == (0));
        for (size_t i = 0; i < md.n; i++)
            EXPECT((hashmap_find_str(&m, md.keys[i])) == NULL);
    }
    hashmap_free(&m);
    model_free(&md);
}
END_TEST

/* Small key spaces: the index is small, probe runs wrap around its end, deletions shift them. */
START_TEST(map_random_against_model_small) {
    static const size_t spaces[] = {1, 2, 3, 7, 16, 33, 100, 1000};
    for (size_t s = 0; s < sizeof spaces / sizeof spaces[0]; s++) {
        rng_seed(0x5eed + s);
        model_t md;
        model_init(&md, spaces[s]);
        hashmap_t m = {0};
        for (int op = 0; op < 60000; op++) {
            random_op(&md, &m);
            if (op % 5000 == 4999) model_check(&md, &m);
        }
        model_check(&md, &m);
        hashmap_free(&m);
        model_free(&md);
    }
}
END_TEST

START_TEST(map_large) {
    const size_t n = 1000000;
    model_t md;
    model_init(&md, n);
    hashmap_t m = {0};
    for (size_t i = 0; i < n; i++) {
        EXPECT(hashmap_add_str(&m, md.keys[i], val(i)));
        md.present[i] = true;
        md.value[i] = val(i);
        md.seq[i] = md.next_seq++;
    }
    md.count = n;
    model_check(&md, &m);
    /* delete every odd key, then random churn over the whole space */
    for (size_t i = 1; i < n; i += 2) {
        EXPECT(hashmap_delete_str(&m, md.keys[i], NULL));
        md.present[i] = false;
        md.count--;
    }
    model_check(&md, &m);
    rng_seed(42);
    for (size_t op = 0; op < 2 * n; op++)
        random_op(&md, &m);
    model_check(&md, &m);
    hashmap_free(&m);
    model_free(&md);
}
END_TEST

/* The sixteen-byte stops (SSE2) agree with a byte-by-byte reference for every byte value at every
 * position, as the string loops of jsonscan and json_strict rely on. */
START_TEST(swar16_stops_agree_with_bytes) {
#if SWAR_SSE2
    unsigned char buf[16];
    for (int controls = 0; controls < 2; controls++)
        for (int k = 0; k < 16; k++)
            for (int b = 0; b < 256; b++) {
                memset(buf, 'a', sizeof buf);
                buf[k] = (unsigned char)b;
                buf[15 - k] = k == 15 - k ? (unsigned char)b : (unsigned char)0xC3; /* a high byte elsewhere */
                unsigned want = 0, high = 0;
                for (int i = 0; i < 16; i++) {
                    unsigned char c = buf[i];
                    bool stop = c == '"' || c == '\\' || (controls ? c < 0x20 : c == '\n');
                    want |= (unsigned)stop << i;
                    high |= (unsigned)(c >= 0x80) << i;
                }
                EXPECT(swar_string_stops16(buf, controls) == want);
                EXPECT(swar_high16(buf) == high);
            }
#endif
}
END_TEST

/* hashmap_reserve: the map keeps its entries and their order (also after deletions left holes),
 * and then takes the reserved number of adds without growing again. */
START_TEST(map_reserve_keeps_order_and_room) {
    const size_t n = 5000;
    model_t md;
    model_init(&md, n);
    hashmap_t m = {0};
    for (size_t i = 0; i < 100; i++) {
        EXPECT(hashmap_add_str(&m, md.keys[i], val(i)));
        md.present[i] = true, md.value[i] = val(i), md.seq[i] = md.next_seq++, md.count++;
    }
    for (size_t i = 0; i < 100; i += 3) {
        EXPECT(hashmap_delete_str(&m, md.keys[i], NULL));
        md.present[i] = false, md.count--;
    }
    hashmap_reserve(&m, n - 100);
    model_check(&md, &m);
    size_t cap = m.entries_cap;
    const hashmap_entry_t *entries = m.entries;
    EXPECT(cap >= md.count + (n - 100));
    for (size_t i = 100; i < n; i++) {
        EXPECT(hashmap_add_str(&m, md.keys[i], val(i)));
        md.present[i] = true, md.value[i] = val(i), md.seq[i] = md.next_seq++, md.count++;
    }
    EXPECT(m.entries_cap == cap && m.entries == entries); /* no rebuild while filling what was reserved */
    model_check(&md, &m);
    hashmap_reserve(&m, 0); /* nothing to do */
    EXPECT(m.entries == entries);
    hashmap_free(&m);
    model_free(&md);
}
END_TEST

/* The hash reads every byte (keys differing in one bit at any position of any length up to 40 all
 * hash apart), and its low bits — what the index uses — spread keys that differ only in a counter
 * (the shape of URNs and names) evenly: 100,000 of them over 1,024 slots, none with more than twice
 * the mean. */
START_TEST(map_hash_reads_every_byte_and_spreads) {
    unsigned char key[40];
    for (size_t len = 0; len <= sizeof key; len++) {
        memset(key, 'k', sizeof key);
        uint64_t base = hashmap_hash(key, len);
        EXPECT(base == hashmap_hash(key, len));
        for (size_t i = 0; i < len; i++)
            for (int bit = 0; bit < 8; bit++) {
                key[i] ^= (unsigned char)(1u << bit);
                EXPECT(hashmap_hash(key, len) != base);
                key[i] ^= (unsigned char)(1u << bit);
            }
        if (len) EXPECT(hashmap_hash(key, len - 1) != base); /* the length counts: "k" vs "kk" */
    }
    enum { KEYS = 100000, SLOTS = 1024 };
    static unsigned counts[SLOTS];
    memset(counts, 0, sizeof counts);
    char name[80];
    for (int i = 0; i < KEYS; i++) {
        int n = snprintf(name, sizeof name, "urn:pulumi:dev::project::random:index/randomPet:RandomPet::pet-%d", i);
        counts[hashmap_hash(name, (size_t)n) & (SLOTS - 1)]++;
    }
    unsigned most = 0;
    for (int i = 0; i < SLOTS; i++)
        if (counts[i] > most) most = counts[i];
    EXPECT(most <= 2 * KEYS / SLOTS);
}
END_TEST

/* ---------- growable array ---------- */

START_TEST(vec_push_at_pop_large) {
    vec_t v = VEC_INIT(long);
    EXPECT((v.len) == (0));
    EXPECT((vec_last(&v)) == NULL);
    EXPECT(!vec_pop(&v, NULL));
    const size_t n = 1000000;
    for (size_t i = 0; i < n; i++)
        VEC_PUSH(&v, long, (long)i * 3);
    EXPECT((v.len) == (n));
    EXPECT((v.cap) == (1u << 20)); /* doubled from 8 */
    const long *xs = v.data;
    for (size_t i = 0; i < n; i++)
        EXPECT((xs[i]) == ((long)i * 3));
    EXPECT((VEC_AT(&v, long, 12345)) == (12345L * 3));
    long last = 0;
    EXPECT(vec_pop(&v, &last));
    EXPECT((last) == ((long)(n - 1) * 3));
    EXPECT((*(long *)vec_last(&v)) == ((long)(n - 2) * 3));
    vec_free(&v);
    EXPECT((v.data) == NULL);
    EXPECT((v.elem_size) == (sizeof(long)));
    /* after vec_free the array is usable again */
    VEC_PUSH(&v, long, 7);
    EXPECT((VEC_AT(&v, long, 0)) == (7));
    vec_free(&v);
}
END_TEST

START_TEST(vec_insert_remove_truncate_append_steal) {
    typedef struct {
        int a;
        char name[13];
    } item_t;
    vec_t v;
    vec_init(&v, sizeof(item_t));
    for (int i = 0; i < 10; i++) {
        item_t *it = vec_push(&v);
        EXPECT((it->a) == (0)); /* zero-filled */
        EXPECT((it->name[0]) == (0));
        it->a = i;
        snprintf(it->name, sizeof it->name, "item-%d", i);
    }
    item_t *front = vec_insert(&v, 0);
    front->a = -1;
    item_t *mid = vec_insert(&v, 5);
    mid->a = 100;
    ((item_t *)vec_insert(&v, v.len))->a = 200; /* at the end */
    /* -1 0 1 2 3 100 4 5 6 7 8 9 200 */
    static const int expect1[] = {-1, 0, 1, 2, 3, 100, 4, 5, 6, 7, 8, 9, 200};
    EXPECT((v.len) == (13));
    for (size_t i = 0; i < v.len; i++)
        EXPECT((VEC_AT(&v, item_t, i).a) == (expect1[i]));
    ck_assert_str_eq(VEC_AT(&v, item_t, 6).name, "item-4");
    vec_remove(&v, 0);
    vec_remove(&v, 4);
    vec_remove(&v, v.len - 1);
    for (size_t i = 0; i < v.len; i++)
        EXPECT((VEC_AT(&v, item_t, i).a) == ((int)i));
    vec_truncate(&v, 3);
    EXPECT((v.len) == (3));
    item_t more[2] = {{7, "seven"}, {8, "eight"}};
    vec_append(&v, more, 2);
    vec_append(&v, NULL, 0);
    EXPECT((v.len) == (5));
    ck_assert_str_eq(VEC_AT(&v, item_t, 4).name, "eight");
    size_t len = 0;
    item_t *owned = vec_steal(&v, &len);
    EXPECT((len) == (5));
    EXPECT((owned[3].a) == (7));
    EXPECT((v.data) == NULL);
    EXPECT((v.len) == (0));
    free(owned);
    EXPECT((vec_steal(&v, &len)) == NULL); /* empty: nothing to hand over */
    EXPECT((len) == (0));
    vec_free(&v);
}
END_TEST

START_TEST(vec_grow_for_existing_fields) {
    struct {
        char **items;
        size_t n, cap;
    } list = {0};
    for (size_t i = 0; i < 100000; i++) {
        list.items = vec_grow(list.items, &list.cap, list.n + 1, sizeof *list.items);
        list.items[list.n++] = (char *)(uintptr_t)(i + 1);
    }
    EXPECT((list.cap) == (131072));
    for (size_t i = 0; i < list.n; i++)
        EXPECT((list.items[i]) == ((char *)(uintptr_t)(i + 1)));
    char **same = list.items;
    EXPECT((vec_grow(list.items, &list.cap, 10, sizeof *list.items)) == (same)); /* enough room */
    free(list.items);
    size_t cap = 0;
    void *p = vec_grow(NULL, &cap, 1000, 1);
    EXPECT((cap) == (1024));
    free(p);
}
END_TEST

START_TEST(arena_array_grows_by_vec_rule_zeroed) {
    arena_t *a = arena_new();
    long *xs = NULL;
    size_t n = 0, cap = 0, vcap = 0;
    for (long i = 0; i < 5000; i++) {
        xs = arena_grow_array(a, xs, &cap, n + 1, sizeof *xs);
        EXPECT((cap) == (vec_next_cap(vcap, n + 1, sizeof *xs))); /* the same rule as vec_grow */
        vcap = cap;
        EXPECT((xs[n]) == (0)); /* new room is zeroed, as arena_alloc's */
        xs[n++] = i * 3;
    }
    EXPECT((cap) == (8192));
    for (size_t i = 0; i < n; i++)
        EXPECT((xs[i]) == ((long)i * 3));
    EXPECT((arena_grow_array(a, xs, &cap, 10, sizeof *xs)) == (xs)); /* enough room: unchanged */
    EXPECT((vec_next_cap(0, 1, 4)) == (8));
    EXPECT((vec_next_cap(8, 9, 4)) == (16));
    EXPECT((vec_next_cap(16, 3, 4)) == (16));
    arena_free(a);
}
END_TEST

/* The sites that reserve many at once (a count known ahead) or start from a capacity the rule did
 * not give (an exact-size copy): the capacity covers `need` at once, the contents are kept and,
 * in an arena, the room past them is zeroed. */
START_TEST(grow_by_more_than_double_keeps_contents) {
    arena_t *a = arena_new();
    int *xs = arena_alloc(a, 3 * sizeof *xs);
    size_t cap = 3; /* an exact-size array, as a clone leaves it */
    for (int i = 0; i < 3; i++)
        xs[i] = i + 1;
    xs = arena_grow_array(a, xs, &cap, 4, sizeof *xs);
    EXPECT((cap) == (6));
    xs = arena_grow_array(a, xs, &cap, 100, sizeof *xs);
    EXPECT((cap) == (192));
    for (int i = 0; i < 3; i++)
        EXPECT((xs[i]) == (i + 1));
    for (size_t i = 3; i < cap; i++)
        EXPECT((xs[i]) == (0));
    arena_free(a);

    size_t vcap = 0;
    int *ys = vec_grow(NULL, &vcap, 3, sizeof *ys);
    EXPECT((vcap) == (8));
    for (int i = 0; i < 3; i++)
        ys[i] = i + 7;
    ys = vec_grow(ys, &vcap, 1000, sizeof *ys);
    EXPECT((vcap) == (1024));
    for (int i = 0; i < 3; i++)
        EXPECT((ys[i]) == (i + 7));
    free(ys);
}
END_TEST

typedef struct cleanup_log {
    int order[4];
    int n;
} cleanup_log_t;
typedef struct cleanup_arg {
    cleanup_log_t *log;
    int id;
} cleanup_arg_t;
static void free_map(void *m) {
    hashmap_free(m);
}
static void log_cleanup(void *ctx) {
    cleanup_arg_t *c = ctx;
    c->log->order[c->log->n++] = c->id;
}

START_TEST(arena_on_free_runs_last_first_and_frees_maps) {
    cleanup_log_t log = {{0}, 0};
    cleanup_arg_t args[3] = {{&log, 1}, {&log, 2}, {&log, 3}};
    arena_t *a = arena_new();
    for (int i = 0; i < 3; i++)
        arena_on_free(a, log_cleanup, &args[i]);
    /* A map owned by the arena: its table is freed with the arena (LSan checks nothing leaks). */
    hashmap_t *m = arena_alloc(a, sizeof *m);
    arena_on_free(a, free_map, m);
    for (int i = 0; i < 1000; i++)
        hashmap_add_str(m, arena_sprintf(a, "k%d", i), NULL);
    EXPECT((hashmap_count(m)) == (1000));
    EXPECT((log.n) == (0)); /* nothing runs before the arena is freed */
    arena_free(a);
    EXPECT((log.n) == (3));
    EXPECT((log.order[0]) == (3));
    EXPECT((log.order[1]) == (2));
    EXPECT((log.order[2]) == (1));
}
END_TEST

/* arena_adopt: values built in one arena live on in another, whole, and are freed with it (ASan and
 * LSan check nothing is freed early or leaked); the adopter keeps allocating, and the cleanups of
 * both run when it is freed, the adopted ones first. */
START_TEST(arena_adopt_moves_values_and_cleanups) {
    cleanup_log_t log = {{0}, 0};
    cleanup_arg_t args[3] = {{&log, 1}, {&log, 2}, {&log, 3}};
    arena_t *dst = arena_new();
    char *before = arena_strdup(dst, "kept from before");
    arena_on_free(dst, log_cleanup, &args[0]);
    arena_t *src = arena_new();
    char *strs[200];
    for (int i = 0; i < 200; i++) /* several blocks, one large one of its own */
        strs[i] = arena_sprintf(src, "value %d ", i);
    char *big = arena_alloc(src, 100000);
    memset(big, 'x', 99999);
    arena_on_free(src, log_cleanup, &args[1]);
    arena_on_free(src, log_cleanup, &args[2]);
    size_t used = arena_used(dst) + arena_used(src);
    arena_adopt(dst, src);
    EXPECT((arena_used(dst)) == (used));
    char *after = arena_strdup(dst, "allocated after");
    arena_adopt(dst, arena_new()); /* an empty arena adds nothing */
    arena_adopt(dst, NULL);
    EXPECT((arena_used(dst)) == (used + 16));
    EXPECT(strcmp(before, "kept from before") == 0);
    EXPECT(strcmp(after, "allocated after") == 0);
    for (int i = 0; i < 200; i++) {
        char want[32];
        snprintf(want, sizeof want, "value %d ", i);
        EXPECT(strcmp(strs[i], want) == 0);
    }
    EXPECT((strlen(big)) == (99999));
    arena_t *fresh = arena_new(); /* adopting into an arena that has nothing yet */
    arena_t *src2 = arena_new();
    char *moved = arena_strdup(src2, "moved whole");
    arena_adopt(fresh, src2);
    EXPECT(strcmp(moved, "moved whole") == 0);
    arena_free(fresh);
    EXPECT((log.n) == (0));
    arena_free(dst);
    EXPECT((log.n) == (3));
    EXPECT((log.order[0]) == (3));
    EXPECT((log.order[1]) == (2));
    EXPECT((log.order[2]) == (1));
}
END_TEST

/* Runs fn in a child and expects it to abort (SIGABRT). */
static void expect_abort(void (*fn)(void)) {
    fflush(NULL);
    pid_t pid = fork();
    EXPECT((pid) >= (0));
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) dup2(devnull, 2); /* the message is expected; keep the log clean */
        fn();
        _exit(0);
    }
    int status = 0;
    EXPECT((waitpid(pid, &status, 0)) == (pid));
    EXPECT(WIFSIGNALED(status));
    EXPECT((WTERMSIG(status)) == (SIGABRT));
}

static void index_past_end(void) {
    vec_t v = VEC_INIT(int);
    VEC_PUSH(&v, int, 1);
    (void)vec_at(&v, 1);
}
static void size_overflow(void) {
    size_t cap = 0;
    (void)vec_grow(NULL, &cap, SIZE_MAX / 2, 16);
}
static void insert_past_end(void) {
    vec_t v = VEC_INIT(int);
    (void)vec_insert(&v, 1);
}
static void arena_array_size_overflow(void) {
    arena_t *a = arena_new();
    size_t cap = 0;
    (void)arena_grow_array(a, NULL, &cap, SIZE_MAX / 8, 16);
}

/* arena_sprintf formats short strings once through a stack buffer and longer ones in a second pass:
 * every length around the buffer's size comes out whole; arena_alloc still zeroes what it hands
 * out after strings (which it does not zero) have used the same block. */
START_TEST(arena_sprintf_every_length_and_zeroed_allocs) {
    arena_t *a = arena_new();
    char want[2048];
    for (size_t n = 0; n < 1200; n += n < 300 ? 1 : 97) {
        memset(want, 'a' + (int)(n % 26), n);
        want[n] = 0;
        char *got = arena_sprintf(a, "%s|%zu", want, n);
        char tail[32];
        snprintf(tail, sizeof tail, "|%zu", n);
        EXPECT(strncmp(got, want, n) == 0);
        EXPECT(strcmp(got + n, tail) == 0);
        char *dup = arena_strndup(a, got, n / 2);
        EXPECT(strlen(dup) == n / 2);
        unsigned char *z = arena_alloc(a, 40 + n % 7);
        for (size_t i = 0; i < 40 + n % 7; i++)
            EXPECT(z[i] == 0);
        memset(z, 0xAB, 40 + n % 7);
    }
    arena_free(a);
}
END_TEST

/* buf_printf formats into the room a buffer has, and again when the text is longer: every length
 * around the room, appended to texts of every length, comes out whole and terminated. */
START_TEST(buf_printf_every_length) {
    char want[2048];
    for (size_t pre = 0; pre < 600; pre += pre < 300 ? 7 : 101) {
        buf_t b;
        buf_init(&b);
        memset(want, 'p', pre);
        buf_append(&b, want, pre);
        size_t len = pre;
        for (size_t n = 0; n < 1200; n += n < 300 ? 1 : 97) {
            memset(want, 'a' + (int)(n % 26), n);
            want[n] = 0;
            buf_printf(&b, "%s|%zu", want, n);
            char tail[32];
            int tl = snprintf(tail, sizeof tail, "|%zu", n);
            EXPECT(strncmp(b.data + len, want, n) == 0);
            EXPECT(strcmp(b.data + len + n, tail) == 0);
            len += n + (size_t)tl;
            EXPECT(b.len == len);
            EXPECT(strlen(b.data) == len);
        }
        buf_printf(&b, "%s", ""); /* nothing appended, still terminated */
        EXPECT(b.len == len && b.data[len] == 0);
        buf_free(&b);
    }
}
END_TEST

START_TEST(vec_aborts_on_bugs_not_input) {
    expect_abort(index_past_end);
    expect_abort(size_overflow);
    expect_abort(insert_past_end);
    expect_abort(arena_array_size_overflow); /* the arena's arrays check sizes by the same rule */
}
END_TEST

/* base/dynlib: a library is loaded on first use, a missing one or function says which, and the
 * three that cimport loads this way are not loaded by a run that does not use them (e2e_test_cli). */
START_TEST(dynlib_loads_on_use_and_names_what_is_missing) {
    dynlib_t libc_ = DYNLIB("libc.so.6");
    ck_assert_int_eq(libc_.state, 0);
    size_t (*len)(const char *) = NULL;
    void *p = dynlib_sym(&libc_, "strlen");
    ck_assert_ptr_nonnull(p);
    memcpy(&len, &p, sizeof len);
    ck_assert_uint_eq(len("abc"), 3);
    ck_assert_str_eq(dynlib_error(&libc_), "");
    ck_assert_ptr_null(dynlib_sym(&libc_, "cimport_no_such_function"));
    ck_assert_ptr_nonnull(strstr(dynlib_error(&libc_), "libc.so.6 has no function cimport_no_such_function"));

    dynlib_t gone = DYNLIB("libcimport-not-installed.so.7");
    void *cache = NULL;
    ck_assert_ptr_null(dynlib_fn(&gone, &cache, "anything"));
    ck_assert_ptr_null(cache);
    ck_assert_int_eq(gone.state, -1);
    ck_assert_ptr_nonnull(strstr(dynlib_error(&gone), "cannot load libcimport-not-installed.so.7"));
    ck_assert_ptr_nonnull(strstr(dynlib_error(&gone), "install"));
    /* the real ones, through their stand-ins: libgit2 diffs, libcurl answers */
    ck_assert_int_ge(git_libgit2_init(), 1);
    git_libgit2_shutdown();
    ck_assert_str_eq(dynlib_git2_error(), "");
    ck_assert_str_eq(curl_easy_strerror(CURLE_OK), "No error");
    ck_assert_str_eq(dynlib_curl_error(), "");
}
END_TEST

/* A warning said of many resources (a 100,000-resource conversion gives 30,000 of them) is printed
 * once with the count and the first resources named; one said of a few resources is printed for
 * each; the lines keep the order of their first occurrence. */
START_TEST(diag_print_groups_a_message_many_resources_share) {
    diag_list_t l;
    diag_list_init(&l);
    diag_add(&l, DIAG_WARNING, DIAG_INPUT, "export.json", "resource 'r0' of type 'tls:index:Key'", "marked secret");
    for (int i = 1; i <= 25; i++)
        diag_add(&l, DIAG_WARNING, DIAG_INPUT, "export.json", NULL, "resource 'r%d' of type 'tls:index:Key'", i);
    for (int i = 1; i <= 25; i++) {
        char name[64];
        snprintf(name, sizeof name, "resource 'r%d' of type 'tls:index:Key'", i);
        diag_add(&l, DIAG_WARNING, DIAG_INPUT, "export.json", name, "marked secret");
    }
    diag_add(&l, DIAG_ERROR, DIAG_INPUT, "export.json", "resource 'a' of type 'x:y:Z'", "two of them");
    diag_add(&l, DIAG_ERROR, DIAG_INPUT, "export.json", "resource 'b' of type 'x:y:Z'", "two of them");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    diag_list_print(&l, out);
    fclose(out);
    /* the grouped warning: once, at its first occurrence, with the count and the first 20 named */
    const char *g = strstr(text, "warning: export.json: marked secret (26 resources: resource 'r0' of type "
                                 "'tls:index:Key', resource 'r1' of type 'tls:index:Key'");
    ck_assert_msg(g == text, "%s", text);
    ck_assert_ptr_null(strstr(strchr(g, '\n'), "marked secret"));
    ck_assert_ptr_nonnull(strstr(text, "resource 'r19' of type 'tls:index:Key' and 6 more)\n"));
    ck_assert_ptr_null(strstr(text, "resource 'r20' of type 'tls:index:Key' and"));
    /* messages that name their resource differ: each printed, in order, after the group */
    const char *m1 = strstr(text, "\nwarning: export.json: resource 'r1' of type 'tls:index:Key'\n");
    const char *m25 = strstr(text, "\nwarning: export.json: resource 'r25' of type 'tls:index:Key'\n");
    ck_assert_ptr_nonnull(m1);
    ck_assert_ptr_nonnull(m25);
    ck_assert(m1 < m25);
    /* a message of only two resources: both lines, whole */
    const char *e1 = strstr(text, "error: export.json: resource 'a' of type 'x:y:Z': two of them\n");
    const char *e2 = strstr(text, "error: export.json: resource 'b' of type 'x:y:Z': two of them\n");
    ck_assert_ptr_nonnull(e1);
    ck_assert_ptr_nonnull(e2);
    ck_assert(m25 < e1 && e1 < e2);
    free(text);
    diag_list_free(&l);
}
END_TEST

/* A list holds its first diagnostic in about what that takes: every failed resource has a list of its
 * own, and 100,000 failing at once each held a 1 KB block for a 0.5 KB message. */
START_TEST(diag_list_first_block_fits_its_first_message) {
    diag_list_t l;
    diag_list_init(&l);
    struct mallinfo2 before = mallinfo2();
    diag_add(&l, DIAG_ERROR, DIAG_CODEGEN, NULL, "resource 'r4' of type 'random:index/randomPet:RandomPet'",
             "its provider implements no importer for %s", "random_pet");
    struct mallinfo2 after = mallinfo2();
    ck_assert_uint_lt(after.uordblks - before.uordblks, 400);
    ck_assert_str_eq(l.head->message, "its provider implements no importer for random_pet");
    /* the next ones still fit, in blocks of their own */
    for (int i = 0; i < 200; i++)
        diag_add(&l, DIAG_WARNING, DIAG_INPUT, "f.json", NULL, "message %d %0*d", i, i, 7);
    ck_assert_uint_eq(l.count, 201);
    ck_assert_uint_eq(l.errors, 1);
    int i = -1;
    for (const diag_t *d = l.head; d; d = d->next, i++) {
        if (i < 0) continue;
        char want[512];
        snprintf(want, sizeof want, "message %d %0*d", i, i, 7);
        ck_assert_str_eq(d->message, want);
        ck_assert_str_eq(d->file, "f.json");
    }
    diag_list_free(&l);
}
END_TEST

/* A reason many resources share is kept once: the list points at the caller's text; a move copies it. */
START_TEST(diag_add_shared_keeps_the_callers_text) {
    static const char reason[] = "its provider implements no importer for random_pet";
    char resource[] = "resource 'a' of type 'random:index/randomPet:RandomPet'";
    diag_list_t l, m;
    diag_list_init(&l);
    diag_list_init(&m);
    diag_t *d = diag_add_shared(&l, DIAG_ERROR, DIAG_CODEGEN, "x.json", resource, reason);
    ck_assert_ptr_eq(d->message, reason);
    ck_assert_ptr_eq(d->resource, resource);
    ck_assert_str_eq(d->file, "x.json");
    ck_assert_uint_eq(l.count, 1);
    ck_assert_uint_eq(l.errors, 1);
    diag_add_shared(&l, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL, reason);
    ck_assert_uint_eq(l.count, 2);
    ck_assert_uint_eq(l.errors, 1);
    diag_list_move(&m, &l);
    ck_assert_ptr_ne(m.head->message, reason);
    ck_assert_str_eq(m.head->message, reason);
    ck_assert_str_eq(m.head->resource, resource);
    ck_assert_ptr_null(m.tail->resource);
    diag_list_free(&l);
    diag_list_free(&m);
}
END_TEST

/* buf_shell_word: one POSIX shell word, checked by the shell itself (printf '%s\n' WORD). */
START_TEST(buf_shell_word_is_one_word) {
    static const char *const words[] = {"plain/path-1.json", "with space", "it's",   "$HOME", "`id`", "-x",  "", "a\nb",
                                        "tab\there",         "\\back",     "\"dq\"", "*",     "~",    "x;rm"};
    static const char *const want[] = {
        "plain/path-1.json", "'with space'", "'it'\\''s'", "'$HOME'", "'`id`'", "'-x'",  "''", "'a\nb'",
        "'tab\there'",       "'\\back'",     "'\"dq\"'",   "'*'",     "'~'",    "'x;rm'"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        buf_t b;
        buf_init(&b);
        buf_shell_word(&b, words[i]);
        char *w = buf_take(&b);
        ck_assert_str_eq(w, want[i]);
        if (!strchr(words[i], '\n')) { /* the shell reads it back as the one word it was */
            buf_t cmd;
            buf_init(&cmd);
            buf_printf(&cmd, "printf '%%s|' %s", w);
            int st = -1;
            char *out = tu_run(cmd.data, &st);
            ck_assert_ptr_nonnull(out);
            ck_assert_int_eq(st, 0);
            char expect[256];
            snprintf(expect, sizeof expect, "%s|", words[i]);
            ck_assert_str_eq(out, expect);
            free(out);
            buf_free(&cmd);
        }
        free(w);
    }
}
END_TEST

int main(void) {
    Suite *s = suite_create("base");
    TCase *map = tcase_create("hashmap");
    tcase_set_timeout(map, 300);
    tcase_add_test(map, map_zero_is_empty);
    tcase_add_test(map, diag_print_groups_a_message_many_resources_share);
    tcase_add_test(map, diag_list_first_block_fits_its_first_message);
    tcase_add_test(map, diag_add_shared_keeps_the_callers_text);
    tcase_add_test(map, buf_shell_word_is_one_word);
    tcase_add_test(map, map_duplicates_null_values_and_binary_keys);
    tcase_add_test(map, map_iterates_in_insertion_order_across_growth_and_compaction);
    tcase_add_test(map, map_delete_while_iterating);
    tcase_add_test(map, map_clear_keeps_working);
    tcase_add_test(map, map_random_against_model_small);
    tcase_add_test(map, map_large);
    tcase_add_test(map, map_reserve_keeps_order_and_room);
    tcase_add_test(map, swar16_stops_agree_with_bytes);
    tcase_add_test(map, map_hash_reads_every_byte_and_spreads);
    suite_add_tcase(s, map);
    TCase *vec = tcase_create("vec");
    tcase_add_test(vec, vec_push_at_pop_large);
    tcase_add_test(vec, vec_insert_remove_truncate_append_steal);
    tcase_add_test(vec, vec_grow_for_existing_fields);
    tcase_add_test(vec, vec_aborts_on_bugs_not_input);
    tcase_add_test(vec, arena_array_grows_by_vec_rule_zeroed);
    tcase_add_test(vec, grow_by_more_than_double_keeps_contents);
    tcase_add_test(vec, arena_on_free_runs_last_first_and_frees_maps);
    tcase_add_test(vec, arena_adopt_moves_values_and_cleanups);
    tcase_add_test(vec, arena_sprintf_every_length_and_zeroed_allocs);
    tcase_add_test(vec, buf_printf_every_length);
    tcase_add_test(vec, dynlib_loads_on_use_and_names_what_is_missing);
    suite_add_tcase(s, vec);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* arena.c — region allocator and growable text buffer (see arena.h). */
#include "base/arena.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

/* Blocks start small (many arenas hold a few diagnostics) and double up to ARENA_BLOCK_MAX. */
#define ARENA_BLOCK_FIRST 1024
#define ARENA_BLOCK_MAX ((size_t)64 * 1024)
#define ARENA_ALIGN 16

typedef struct arena_block {
    struct arena_block *next;
    size_t size;
    size_t used;
    _Alignas(ARENA_ALIGN) unsigned char data[];
} arena_block_t;

typedef struct arena_cleanup {
    struct arena_cleanup *next;
    void (*fn)(void *ctx);
    void *ctx;
} arena_cleanup_t;

struct arena {
    arena_block_t *head;
    arena_cleanup_t *cleanups; /* arena_on_free's, the last registered first (held in the arena) */
    size_t total;
    size_t next_block; /* size of the next ordinary block */
};

static size_t arena_need(size_t size);

static void *xmalloc(size_t n) {
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "cimport: out of memory allocating %zu bytes\n", n);
        abort();
    }
    return p;
}

arena_t *arena_new(void) {
    arena_t *a = xmalloc(sizeof *a);
    a->head = NULL;
    a->cleanups = NULL;
    a->total = 0;
    a->next_block = ARENA_BLOCK_FIRST;
    return a;
}

arena_t *arena_new_sized(size_t size) {
    arena_t *a = arena_new();
    a->next_block = arena_need(size);
    return a;
}

void arena_free(arena_t *a) {
    if (!a) return;
    for (arena_cleanup_t *c = a->cleanups; c; c = c->next)
        c->fn(c->ctx);
    arena_block_t *b = a->head;
    while (b) {
        arena_block_t *next = b->next;
        free(b);
        b = next;
    }
    free(a);
}

/* Uninitialized room for size bytes (callers that fill it all themselves). */
/* size rounded up to the alignment, at least one unit: what an allocation of size takes */
static size_t arena_need(size_t size) {
    size_t need = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    return need ? need : ARENA_ALIGN;
}

static void *arena_take(arena_t *a, size_t size) {
    size_t need = arena_need(size);
    arena_block_t *b = a->head;
    if (!b || b->size - b->used < need) {
        /* Large requests get a block of their own, placed behind the current block so that block
         * keeps serving small requests. */
        bool dedicated = need > ARENA_BLOCK_MAX / 4;
        size_t bsize = dedicated ? need : a->next_block;
        if (bsize < need) bsize = need;
        arena_block_t *nb = xmalloc(sizeof *nb + bsize);
        nb->size = bsize;
        nb->used = 0;
        if (b && dedicated) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
            if (a->next_block < ARENA_BLOCK_MAX) a->next_block *= 2;
        }
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += need;
    a->total += need;
    return p;
}

void *arena_alloc(arena_t *a, size_t size) {
    void *p = arena_take(a, size);
    memset(p, 0, arena_need(size));
    return p;
}

void *arena_grow(arena_t *a, void *old, size_t old_size, size_t new_size) {
    void *p = arena_alloc(a, new_size);
    if (old && old_size) memcpy(p, old, old_size < new_size ? old_size : new_size);
    return p;
}

void arena_on_free(arena_t *a, void (*fn)(void *ctx), void *ctx) {
    arena_cleanup_t *c = arena_alloc(a, sizeof *c);
    *c = (arena_cleanup_t){a->cleanups, fn, ctx};
    a->cleanups = c;
}

void *arena_grow_array_to(arena_t *a, void *data, size_t *cap, size_t need, size_t elem_size) {
    if (need <= *cap) return data;
    size_t n = vec_next_cap(*cap, need, elem_size);
    void *p = arena_grow(a, data, *cap * elem_size, n * elem_size);
    *cap = n;
    return p;
}

char *arena_strndup(arena_t *a, const char *s, size_t n) {
    char *p = arena_take(a, n + 1);
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(arena_t *a, const char *s) {
    if (!s) return NULL;
    return arena_strndup(a, s, strlen(s));
}

char *arena_vsprintf(arena_t *a, const char *fmt, va_list ap) {
    /* One formatting pass for the short strings nearly every call makes (names, descriptions);
     * a second, into room of the measured size, only for longer ones. */
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0) return arena_strdup(a, "");
    if ((size_t)n < sizeof small) return arena_strndup(a, small, (size_t)n);
    char *p = arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *arena_sprintf(arena_t *a, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *p = arena_vsprintf(a, fmt, ap);
    va_end(ap);
    return p;
}

void arena_adopt(arena_t *dst, arena_t *src) {
    if (!src) return;
    if (src->head) {
        arena_block_t *last = src->head;
        while (last->next)
            last = last->next;
        /* behind dst's head, which keeps serving dst's small requests */
        if (dst->head) {
            last->next = dst->head->next;
            dst->head->next = src->head;
        } else {
            dst->head = src->head;
        }
    }
    if (src->cleanups) { /* src's run first: they were registered on values dst now holds */
        arena_cleanup_t *last = src->cleanups;
        while (last->next)
            last = last->next;
        last->next = dst->cleanups;
        dst->cleanups = src->cleanups;
    }
    dst->total += src->total;
    free(src);
}

size_t arena_used(const arena_t *a) {
    return a->total;
}

void buf_init(buf_t *b) {
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void buf_free(buf_t *b) {
    free(b->data);
    buf_init(b);
}

static void buf_reserve(buf_t *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        fprintf(stderr, "cimport: out of memory growing a buffer to %zu bytes\n", cap);
        abort();
    }
    b->data = p;
    b->cap = cap;
}

void buf_append(buf_t *b, const char *s, size_t n) {
    buf_reserve(b, n);
    if (n) memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void buf_puts(buf_t *b, const char *s) {
    buf_append(b, s, strlen(s));
}

void buf_putc(buf_t *b, char c) {
    buf_append(b, &c, 1);
}

void buf_put_utf8(buf_t *b, uint32_t cp) {
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    buf_append(b, u, n);
}

void buf_printf(buf_t *b, const char *fmt, ...) {
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    /* One formatting pass into the room the buffer has (most texts fit); a second only when not. */
    buf_reserve(b, 64);
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->data + b->len, room, fmt, ap);
    if (n > 0 && (size_t)n >= room) {
        buf_reserve(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
    }
    if (n > 0) b->len += (size_t)n;
    b->data[b->len] = 0; /* (a failed format may have written past the end of the text) */
    va_end(again);
    va_end(ap);
}

void buf_indent(buf_t *b, int spaces) {
    buf_reserve(b, (size_t)(spaces > 0 ? spaces : 0));
    for (int i = 0; i < spaces; i++)
        b->data[b->len++] = ' ';
    b->data[b->len] = 0;
}

char *buf_take(buf_t *b) {
    if (!b->data) {
        char *p = xmalloc(1);
        p[0] = 0;
        return p;
    }
    char *p = b->data;
    buf_init(b);
    return p;
}

char *buf_arena_str(const buf_t *b, arena_t *a) {
    return arena_strndup(a, b->data ? b->data : "", b->len);
}

void buf_shell_word(buf_t *b, const char *s) {
    bool plain = *s && *s != '-';
    for (const char *c = s; *c && plain; c++)
        plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                strchr("._/:@+=,-_", *c);
    if (plain) {
        buf_puts(b, s);
        return;
    }
    buf_putc(b, '\'');
    for (const char *c = s; *c; c++)
        if (*c == '\'')
            buf_puts(b, "'\\''");
        else
            buf_putc(b, *c);
    buf_putc(b, '\'');
}

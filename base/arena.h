/* arena.h — region allocator: each pipeline stage allocates from an arena it owns and frees it whole.
 *
 * Allocation never fails from the caller's point of view: on out-of-memory the process aborts with
 * a message (there is no sensible recovery for a CLI tool half-way through a stage). */
#ifndef CIMPORT_ARENA_H
#define CIMPORT_ARENA_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct arena arena_t;

arena_t *arena_new(void);
/* An arena whose first block holds `size` bytes (then grown as arena_new's): for one value of a
 * known size kept on its own — the arena_used of the same allocations made elsewhere. */
arena_t *arena_new_sized(size_t size);
void arena_free(arena_t *a);

/* Zeroed memory aligned for any type. */
void *arena_alloc(arena_t *a, size_t size);
/* Grows an array allocated from the arena (old contents copied; the old block is not reused). */
void *arena_grow(arena_t *a, void *old, size_t old_size, size_t new_size);
/* An arena array with a capacity, grown by base/vec's rule (vec_next_cap): returns data, or a larger
 * zeroed copy when `need` elements of elem_size bytes do not fit in *cap (which is updated).
 *     p->items = arena_grow_array(a, p->items, &p->cap, p->n + 1, sizeof *p->items); */
void *arena_grow_array_to(arena_t *a, void *data, size_t *cap, size_t need, size_t elem_size);
static inline void *arena_grow_array(arena_t *a, void *data, size_t *cap, size_t need, size_t elem_size) {
    return need <= *cap ? data : arena_grow_array_to(a, data, cap, need, elem_size); /* room: no call */
}
char *arena_strdup(arena_t *a, const char *s);
char *arena_strndup(arena_t *a, const char *s, size_t n);
char *arena_sprintf(arena_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *arena_vsprintf(arena_t *a, const char *fmt, va_list ap);
/* Runs fn(ctx) when the arena is freed, the last registered first: ties memory the arena does not
 * hold (a base/hashmap's table, say) to the arena's lifetime. */
void arena_on_free(arena_t *a, void (*fn)(void *ctx), void *ctx);
/* Moves everything `src` holds into `dst` and frees `src`'s handle: what was allocated from src is
 * now freed with dst (its arena_on_free functions run then, before dst's own), and dst keeps
 * allocating from its own current block. For values built on another thread in an arena of their
 * own and handed over whole, without a copy. src must no longer be used by anyone else. */
void arena_adopt(arena_t *dst, arena_t *src);
/* Total bytes handed out (for benchmarks and memory tests). */
size_t arena_used(const arena_t *a);

/* A growable byte buffer backed by malloc (for building text; take the result with buf_take or
 * copy it into an arena with buf_arena_str). */
typedef struct buf {
    char *data;
    size_t len;
    size_t cap;
} buf_t;

void buf_init(buf_t *b);
void buf_free(buf_t *b);
void buf_append(buf_t *b, const char *s, size_t n);
void buf_puts(buf_t *b, const char *s);
void buf_putc(buf_t *b, char c);
/* Appends code point cp (at most U+10FFFF) in UTF-8. */
void buf_put_utf8(buf_t *b, uint32_t cp);
void buf_printf(buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_indent(buf_t *b, int spaces);
/* Appends s as one word of a POSIX shell command: as it is when every byte is plain (letters, digits,
 * ._/:@+=,-_ and not a leading -), else in single quotes (a ' written '\''). An empty s is ''. A
 * word that a command could take for an option stays one: callers naming a file put ./ first. */
void buf_shell_word(buf_t *b, const char *s);
/* Returns the NUL-terminated contents, owned by the caller; the buffer is left empty. */
char *buf_take(buf_t *b);
char *buf_arena_str(const buf_t *b, arena_t *a);

#endif

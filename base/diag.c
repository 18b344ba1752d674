/* diag.c — diagnostics list (see diag.h). */
#include "base/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"

void diag_list_init(diag_list_t *l) {
    memset(l, 0, sizeof *l);
}

void diag_list_free(diag_list_t *l) {
    arena_free(l->arena);
    memset(l, 0, sizeof *l);
}

/* A new diagnostic at the end of l, its strings still to be set. A list's first block is sized to
 * its first diagnostic (`first`: the bytes its strings take): every result has a list of its own,
 * and one diagnostic in a block of arena_new's size each was 1 KB a failed resource. */
static diag_t *diag_append(diag_list_t *l, diag_severity_t sev, diag_code_t code, size_t first) {
    /* each allocation is rounded up to 16 bytes: 15 more for each of the diagnostic and its three strings */
    if (!l->arena) l->arena = arena_new_sized(sizeof(diag_t) + first + (size_t)4 * 15);
    diag_t *d = arena_alloc(l->arena, sizeof *d);
    d->severity = sev;
    d->code = code;
    if (l->tail)
        l->tail->next = d;
    else
        l->head = d;
    l->tail = d;
    l->count++;
    if (sev == DIAG_ERROR) l->errors++;
    return d;
}

static diag_t *diag_vadd(diag_list_t *l, diag_severity_t sev, diag_code_t code, const char *file, const char *resource,
                         const char *fmt, va_list ap) {
    if (!l) return NULL; /* callers that do not want diagnostics pass NULL */
    size_t fl = file ? strlen(file) + 1 : 0, rl = resource ? strlen(resource) + 1 : 0;
    if (l->arena) {
        diag_t *d = diag_append(l, sev, code, 0);
        d->message = arena_vsprintf(l->arena, fmt, ap);
        d->file = file ? arena_strndup(l->arena, file, fl - 1) : NULL;
        d->resource = resource ? arena_strndup(l->arena, resource, rl - 1) : NULL;
        return d;
    }
    /* the first: its message's length is known once it is formatted */
    char small[256], *text = small;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        n = 0;
        small[0] = 0;
    } else if ((size_t)n >= sizeof small) {
        text = malloc((size_t)n + 1);
        if (!text) abort();
        vsnprintf(text, (size_t)n + 1, fmt, ap);
    }
    diag_t *d = diag_append(l, sev, code, (size_t)n + 1 + fl + rl);
    d->message = arena_strndup(l->arena, text, (size_t)n);
    d->file = file ? arena_strndup(l->arena, file, fl - 1) : NULL;
    d->resource = resource ? arena_strndup(l->arena, resource, rl - 1) : NULL;
    if (text != small) free(text);
    return d;
}

diag_t *diag_add(diag_list_t *l, diag_severity_t sev, diag_code_t code, const char *file, const char *resource,
                 const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_t *d = diag_vadd(l, sev, code, file, resource, fmt, ap);
    va_end(ap);
    return d;
}

diag_t *diag_add_shared(diag_list_t *l, diag_severity_t sev, diag_code_t code, const char *file, const char *resource,
                        const char *message) {
    if (!l) return NULL;
    size_t fl = file ? strlen(file) + 1 : 0;
    diag_t *d = diag_append(l, sev, code, fl);
    d->message = message;
    d->file = file ? arena_strndup(l->arena, file, fl - 1) : NULL;
    d->resource = resource;
    return d;
}

diag_t *diag_error(diag_list_t *l, diag_code_t code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_t *d = diag_vadd(l, DIAG_ERROR, code, NULL, NULL, fmt, ap);
    va_end(ap);
    return d;
}

void diag_list_move(diag_list_t *dst, diag_list_t *src) {
    for (diag_t *d = src->head; d; d = d->next) {
        diag_t *n = diag_add(dst, d->severity, d->code, d->file, d->resource, "%s", d->message);
        n->line = d->line;
    }
    diag_list_free(src);
}

bool diag_has_errors(const diag_list_t *l) {
    return l->errors > 0;
}

const char *diag_severity_name(diag_severity_t sev) {
    switch (sev) {
    case DIAG_ERROR: return "error";
    case DIAG_WARNING: return "warning";
    case DIAG_INFO: return "info";
    case DIAG_DEBUG: return "debug";
    }
    return "error";
}

const char *diag_format(diag_list_t *l, const diag_t *d) {
    if (!l->arena) l->arena = arena_new();
    buf_t b;
    buf_init(&b);
    if (d->file) {
        buf_puts(&b, d->file);
        if (d->line > 0) buf_printf(&b, ":%ld", d->line);
        buf_puts(&b, ": ");
    }
    /* Messages in Pulumi's wording already name the resource ("resource 'x' of type 'T' has no
     * ID"); name it only when the message does not. */
    if (d->resource && !strstr(d->message, d->resource)) {
        buf_puts(&b, d->resource);
        buf_puts(&b, ": ");
    }
    buf_puts(&b, d->message);
    const char *s = buf_arena_str(&b, l->arena);
    buf_free(&b);
    return s;
}

static diag_advice_fn advice_fn;

void diag_set_advice(diag_advice_fn fn) {
    advice_fn = fn;
}

const char *diag_advice(char out[DIAG_ADVICE_MAX], diag_advice_t kind, const char *subject) {
    out[0] = '\0';
    if (advice_fn) advice_fn(out, DIAG_ADVICE_MAX, kind, subject ? subject : "");
    return out;
}

/* One message said of several resources: how many, and the first DIAG_NAMED of them. */
typedef struct diag_group {
    size_t count;
    const char *names[DIAG_NAMED];
    bool printed;
} diag_group_t;

/* The text that stays the same when the same thing is said of another resource; NULL when the
 * diagnostic has no resource or its message names it. */
static const char *diag_group_key(arena_t *a, const diag_t *d) {
    if (!d->resource || strstr(d->message, d->resource)) return NULL;
    return arena_sprintf(a, "%d\x1f%s\x1f%ld\x1f%s", (int)d->severity, d->file ? d->file : "", d->line, d->message);
}

void diag_list_print(diag_list_t *l, FILE *out) {
    arena_t *a = arena_new();
    hashmap_t groups = {0};
    /* each diagnostic's group (NULL: said alone), found once */
    size_t n = 0;
    for (const diag_t *d = l->head; d; d = d->next)
        n++;
    diag_group_t **of = arena_alloc(a, (n ? n : 1) * sizeof(diag_group_t *));
    size_t k = 0;
    for (const diag_t *d = l->head; d; d = d->next, k++) {
        const char *key = diag_group_key(a, d);
        of[k] = NULL;
        if (!key) continue;
        void **slot = hashmap_find_str(&groups, key);
        diag_group_t *g = slot ? *slot : NULL;
        if (!g) {
            g = arena_alloc(a, sizeof *g);
            memset(g, 0, sizeof *g);
            hashmap_add_str(&groups, key, g);
        }
        if (g->count < DIAG_NAMED) g->names[g->count] = d->resource;
        g->count++;
        of[k] = g;
    }
    k = 0;
    for (const diag_t *d = l->head; d; d = d->next, k++) {
        diag_group_t *g = of[k];
        if (!g || g->count <= DIAG_SHOWN_WHOLE) {
            fprintf(out, "%s: %s\n", diag_severity_name(d->severity), diag_format(l, d));
            continue;
        }
        if (g->printed) continue;
        g->printed = true;
        fprintf(out, "%s: ", diag_severity_name(d->severity));
        if (d->file && d->line > 0)
            fprintf(out, "%s:%ld: ", d->file, d->line);
        else if (d->file)
            fprintf(out, "%s: ", d->file);
        fprintf(out, "%s (%zu resources: ", d->message, g->count);
        size_t named = g->count < DIAG_NAMED ? g->count : DIAG_NAMED;
        for (size_t i = 0; i < named; i++)
            fprintf(out, "%s%s", i ? ", " : "", g->names[i]);
        if (g->count > named) fprintf(out, " and %zu more", g->count - named);
        fputs(")\n", out);
    }
    hashmap_free(&groups);
    arena_free(a);
}

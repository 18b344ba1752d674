/* failures.c — a session's failures grouped by cause (failures.h). */
#include "session/failures.h"

#include <stdint.h>
#include <string.h>

#include "base/hashmap.h"

/* At most this many failures of one cause are each shown whole; more read as one line. */
#define FAILURES_SHOWN_WHOLE 3
/* The resources named in a group's line; the rest are counted. */
#define FAILURES_NAMED 20

/* The cause of a failure without what names the resource, so that equal causes group. */
static char *cause_of(arena_t *a, const import_result_t *r, const char *msg) {
    buf_t b;
    buf_init(&b);
    const char *subs[3] = {r->item->type, r->item->id, r->item->logical_name};
    const char *rep[3] = {"<type>", "<id>", "<name>"};
    for (const char *p = msg; *p;) {
        int hit = -1;
        size_t hl = 0;
        for (int k = 0; k < 3; k++) {
            size_t l = subs[k] ? strlen(subs[k]) : 0;
            if (l >= 2 && strncmp(p, subs[k], l) == 0 && l > hl) hit = k, hl = l;
        }
        if (hit >= 0) {
            buf_puts(&b, rep[hit]);
            p += hl;
        } else {
            buf_putc(&b, *p++);
        }
    }
    char *s = buf_arena_str(&b, a);
    buf_free(&b);
    return s;
}

/* A diagnostic other than a resource's grouped error as "severity: file:line: cause" (the resource's
 * own names cut out, and which resource it is said of left off), so that the same one said of many
 * resources can be counted and said once. */
static char *other_key(arena_t *a, const import_result_t *r, const diag_t *d) {
    buf_t b;
    buf_init(&b);
    buf_printf(&b, "%s: ", diag_severity_name(d->severity));
    if (d->file && d->line > 0)
        buf_printf(&b, "%s:%ld: ", d->file, d->line);
    else if (d->file)
        buf_printf(&b, "%s: ", d->file);
    buf_puts(&b, cause_of(a, r, d->message));
    char *key = buf_arena_str(&b, a);
    buf_free(&b);
    return key;
}

/* A resource's failure: its first error, that error's cause, and whether it was shown. */
typedef struct failure {
    const char *cause; /* NULL: the resource did not fail with an error */
    const diag_t *first;
    bool done;
} failure_t;

static bool diag_shown(const diag_t *d, bool failed, session_failures_diags_t which) {
    if (which == SESSION_FAILURES_ALL_DIAGS) return true;
    return d->severity != DIAG_DEBUG && (d->severity != DIAG_INFO || failed);
}

size_t session_failures_text(const import_session_t *p, buf_t *out, session_failures_diags_t which) {
    if (!p->plan || !p->results) return 0;
    const import_plan_t *plan = p->plan;
    arena_t *a = arena_new();
    size_t n = plan->n_items, n_failed = 0;
    failure_t *f = arena_alloc(a, (n ? n : 1) * sizeof *f);
    memset(f, 0, (n ? n : 1) * sizeof *f);
    for (size_t i = 0; i < n; i++) {
        const import_result_t *r = &p->results[i];
        if (r->status != IMPORT_OK) n_failed++;
        for (diag_t *d = r->diags.head; d; d = d->next)
            if (d->severity == DIAG_ERROR && r->status != IMPORT_OK) {
                f[i].first = d;
                f[i].cause = cause_of(a, r, d->message);
                break;
            }
    }
    /* The other diagnostics (warnings, notes, further errors) by cause too: how many resources
     * carry each, so that one said of many resources reads once. */
    hashmap_t others = {0}, said = {0};
    for (size_t i = 0; i < n; i++) {
        const import_result_t *r = &p->results[i];
        for (diag_t *d = r->diags.head; d; d = d->next) {
            if (d == f[i].first || !diag_shown(d, r->status != IMPORT_OK, which)) continue;
            char *key = other_key(a, r, d);
            void **slot = hashmap_find_str(&others, key);
            if (slot)
                *slot = (void *)((uintptr_t)*slot + 1);
            else
                hashmap_add_str(&others, key, (void *)(uintptr_t)1);
        }
    }
    for (size_t i = 0; i < n; i++) {
        const import_result_t *r = &p->results[i];
        /* Warnings and notes of each resource, and errors other than the grouped cause; one that
         * more than FAILURES_SHOWN_WHOLE resources carry once, with their count. */
        for (diag_t *d = r->diags.head; d; d = d->next) {
            if (d == f[i].first || !diag_shown(d, r->status != IMPORT_OK, which)) continue;
            char *key = other_key(a, r, d);
            size_t carried = (size_t)(uintptr_t)*hashmap_find_str(&others, key);
            if (carried <= FAILURES_SHOWN_WHOLE)
                buf_printf(out, "%s: %s\n", diag_severity_name(d->severity), diag_format((diag_list_t *)&r->diags, d));
            else if (hashmap_add_str(&said, key, NULL))
                buf_printf(out, "%s (%zu resources)\n", key, carried);
        }
        if (!f[i].cause || f[i].done) continue;
        size_t count = 0;
        for (size_t j = i; j < n; j++)
            if (f[j].cause && !f[j].done && !strcmp(f[j].cause, f[i].cause)) count++;
        if (count <= FAILURES_SHOWN_WHOLE) {
            for (size_t j = i; j < n; j++)
                if (f[j].cause && !f[j].done && !strcmp(f[j].cause, f[i].cause)) {
                    buf_printf(out, "error: %s\n", diag_format((diag_list_t *)&p->results[j].diags, f[j].first));
                    f[j].done = true;
                }
            continue;
        }
        /* those a stop left unread, or a failed parent skipped, did not fail themselves */
        static const char *const not_run[] = {"not imported: ", "skipped: "};
        const char *how = "failed: ", *cause = f[i].cause;
        for (size_t k = 0; k < 2; k++)
            if (p->results[i].status == IMPORT_SKIPPED && !strncmp(cause, not_run[k], strlen(not_run[k])))
                how = k ? "were skipped: " : "were not imported: ", cause += strlen(not_run[k]);
        buf_printf(out, "error: %zu resources %s%s\n  resources:", count, how, cause);
        size_t shown = 0;
        for (size_t j = i; j < n; j++)
            if (f[j].cause && !f[j].done && !strcmp(f[j].cause, f[i].cause)) {
                const import_plan_item_t *it = p->results[j].item;
                if (shown < FAILURES_NAMED)
                    buf_printf(out, "%s '%s' (%s%s%s)", shown ? "," : "", it->logical_name, it->type,
                               it->id ? ", id " : "", it->id ? it->id : "");
                shown++;
                f[j].done = true;
            }
        if (shown > FAILURES_NAMED) buf_printf(out, " and %zu more", shown - FAILURES_NAMED);
        buf_putc(out, '\n');
        if (strstr(f[i].cause, "<type>")) {
            /* The types concerned, once each ("the schema lacks these N types"). */
            size_t nt = 0;
            buf_puts(out, "  types:");
            for (size_t j = i; j < n; j++) {
                if (!f[j].cause || strcmp(f[j].cause, f[i].cause) != 0) continue;
                bool seen = false;
                for (size_t k = i; k < j && !seen; k++)
                    seen = f[k].cause && !strcmp(f[k].cause, f[i].cause) &&
                           !strcmp(p->results[k].item->type, p->results[j].item->type);
                if (!seen) buf_printf(out, "%s %s", nt++ ? "," : "", p->results[j].item->type);
            }
            buf_printf(out, " (%zu type%s)\n", nt, nt == 1 ? "" : "s");
        }
    }
    hashmap_free(&others);
    hashmap_free(&said);
    arena_free(a);
    return n_failed;
}

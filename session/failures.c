/* failures.c — a session's failures grouped by cause (failures.h). */
#include "session/failures.h"

#include <string.h>

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
    for (size_t i = 0; i < n; i++) {
        const import_result_t *r = &p->results[i];
        /* Warnings and notes of each resource, and errors other than the grouped cause. */
        for (diag_t *d = r->diags.head; d; d = d->next)
            if (d != f[i].first && diag_shown(d, r->status != IMPORT_OK, which))
                buf_printf(out, "%s: %s\n", diag_severity_name(d->severity), diag_format((diag_list_t *)&r->diags, d));
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
        buf_printf(out, "error: %zu resources failed: %s\n  resources:", count, f[i].cause);
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
    arena_free(a);
    return n_failed;
}

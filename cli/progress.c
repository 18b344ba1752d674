/* progress.c — import progress on stderr (see progress.h).
 *
 * The rate is finished resources per second since the first hook call; the time left is what
 * remains at that rate, shown once a second of work gives a rate worth trusting. */
#define _GNU_SOURCE
#include "cli/progress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PROGRESS_PLAIN_MS 5000
#define PROGRESS_FAILURE_LINES 10

struct progress {
    progress_options_t o;
    int64_t started, last_plain;
    bool started_set, drawn;
    size_t done, failed, in_flight, total;
    size_t failure_lines;
};

static int64_t system_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void progress_options_default(progress_options_t *o) {
    memset(o, 0, sizeof *o);
    o->out = stderr;
}

progress_t *progress_new(const progress_options_t *o) {
    progress_t *p = calloc(1, sizeof *p);
    if (!p) abort();
    if (o) p->o = *o;
    if (!p->o.out) p->o.out = stderr;
    if (p->o.plain_interval_ms <= 0) p->o.plain_interval_ms = PROGRESS_PLAIN_MS;
    if (!p->o.max_failure_lines) p->o.max_failure_lines = PROGRESS_FAILURE_LINES;
    if (!p->o.clock_ms) p->o.clock_ms = system_ms;
    return p;
}

void progress_free(progress_t *p) {
    free(p);
}

static int64_t elapsed(progress_t *p) {
    int64_t now = p->o.clock_ms();
    if (!p->started_set) {
        p->started = now;
        p->last_plain = now;
        p->started_set = true;
    }
    return now - p->started;
}

/* "0:27", "1:02:03" */
static void format_duration(char *buf, size_t len, double seconds) {
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

/* "1234/10000 done, 5 failed, 64 in flight, 312/s, 0:27 left" */
static void status_text(progress_t *p, char *buf, size_t len) {
    int64_t ms = elapsed(p);
    double rate = ms > 0 ? p->done * 1000.0 / (double)ms : 0;
    int n = snprintf(buf, len, "%zu/%zu done, %zu failed, %zu in flight", p->done, p->total, p->failed, p->in_flight);
    if (n < 0 || (size_t)n >= len) return;
    if (ms >= 1000 && p->done > 0) {
        char left[32];
        format_duration(left, sizeof left, (double)(p->total - p->done) / rate);
        snprintf(buf + n, len - (size_t)n, ", %.0f/s, %s left", rate, left);
    }
}

static void draw(progress_t *p) {
    char line[256];
    status_text(p, line, sizeof line);
    fprintf(p->o.out, "\r\033[K%s", line);
    fflush(p->o.out);
    p->drawn = true;
}

void progress_on_result(void *user, const import_result_t *r, size_t done, size_t total) {
    progress_t *p = user;
    (void)elapsed(p);
    p->total = total;
    if (r->status == IMPORT_OK || p->o.quiet || !p->o.tty) return;
    if (p->failure_lines == p->o.max_failure_lines) return;
    p->failure_lines++;
    const diag_t *why = r->diags.head;
    while (why && why->severity != DIAG_ERROR)
        why = why->next;
    const char *name = r->item->spec && r->item->spec->name ? r->item->spec->name : r->item->logical_name;
    /* Above the status line, which is redrawn after it. */
    fprintf(p->o.out, "\r\033[K%s: %s (%s): %s\n", import_status_name(r->status), name, r->item->type,
            why ? why->message : "no reason given");
    if (p->failure_lines == p->o.max_failure_lines)
        fprintf(p->o.out, "(further failures are listed when the import ends)\n");
    if (p->drawn) draw(p);
}

void progress_on_tick(void *user, size_t done, size_t failed, size_t in_flight, size_t total) {
    progress_t *p = user;
    int64_t ms = elapsed(p);
    p->done = done;
    p->failed = failed;
    p->in_flight = in_flight;
    p->total = total;
    if (p->o.quiet) return;
    if (p->o.tty) {
        draw(p);
        return;
    }
    if (ms - (p->last_plain - p->started) < p->o.plain_interval_ms || done == total) return;
    p->last_plain = p->started + ms;
    char line[256];
    status_text(p, line, sizeof line);
    fprintf(p->o.out, "cimport: %s\n", line);
    fflush(p->o.out);
}

void progress_finish(progress_t *p) {
    if (p->o.quiet || !p->o.tty || !p->drawn) return;
    fprintf(p->o.out, "\r\033[K"); /* the CLI's summary line takes its place */
    fflush(p->o.out);
    p->drawn = false;
}

/* progress.h — import progress for people: on a terminal one status line redrawn in place (done,
 * failed, in flight, rate, time left) with each failure printed above it as it happens; elsewhere
 * (CI logs, pipes) a plain line every few seconds; nothing with --quiet.
 *
 * It is driven by the engine's two hooks — pass progress_on_result and progress_on_tick as
 * engine_options_t.on_result / on_tick with the progress_t as `user` (or call them from your own
 * hooks) — and never shows a value: only names, types, counts and diagnostic messages (which the
 * engine keeps free of secrets). */
#ifndef CIMPORT_PROGRESS_H
#define CIMPORT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "importer/engine.h"

typedef struct progress_options {
    FILE *out;                 /* default stderr */
    bool tty;                  /* redraw a status line (isatty(2) in the CLI) */
    bool quiet;                /* show nothing */
    int plain_interval_ms;     /* plain lines at most this often; <= 0: 5000 */
    size_t max_failure_lines;  /* failures printed as they happen on a terminal; 0: 10 */
    int64_t (*clock_ms)(void); /* monotonic milliseconds; NULL: the system's (tests inject one) */
} progress_options_t;

typedef struct progress progress_t;

void progress_options_default(progress_options_t *o);
progress_t *progress_new(const progress_options_t *o);
void progress_free(progress_t *p);

/* engine_options_t.on_result: counts results and prints failures (terminal only). */
void progress_on_result(void *user, const import_result_t *r, size_t done, size_t total);
/* engine_options_t.on_tick: redraws the status line / prints a plain line when it is time. */
void progress_on_tick(void *user, size_t done, size_t failed, size_t in_flight, size_t total);
/* Ends the display: clears the status line (the caller prints its summary there). */
void progress_finish(progress_t *p);

#endif

/* failures.h — a session's per-resource diagnostics as text both front ends show: failures grouped
 * by cause (several resources failing the same way read as one error with the resources, and the
 * types when the cause is about a type, listed once), other diagnostics of each resource as they
 * are. The command line prints it to stderr; the language server puts it in its message. */
#ifndef CIMPORT_SESSION_FAILURES_H
#define CIMPORT_SESSION_FAILURES_H

#include "base/arena.h"
#include "session/session.h"

/* Which diagnostics besides each failed resource's first error (which is grouped). */
typedef enum {
    SESSION_FAILURES_ALL_DIAGS = 0,    /* every one, of every resource (the command line) */
    SESSION_FAILURES_EDITOR_DIAGS = 1, /* no debug; notes only of resources that failed */
} session_failures_diags_t;

/* Appends the text to `out`, one "severity: message" line each, every line ending in '\n';
 * nothing without results. Returns the number of resources that failed. */
size_t session_failures_text(const import_session_t *s, buf_t *out, session_failures_diags_t which);

#endif

/* provider.c — what every provider shares (see provider.h): the blocking Read/Check/Diff over the
 * asynchronous operations, and the completion queue of providers that answer at once.
 *
 * A blocking call starts the asynchronous operation with its own `done`, then alternates the
 * provider's poll op (completions it queued) with one round of its event loop (calls on the wire)
 * until that `done` has run. So a provider implements Read, Check and Diff once, and a caller that
 * wants the answer now gets exactly what the engine gets: the same requests, deadlines, retries,
 * crash reports and messages. */
#include "importer/provider.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "importer/engine_endpoint.h"
#include "importer/grpc.h"

/* Whether the call finished and how. Lives in the caller's arena (valid until `done` runs, as the
 * interface asks), so a provider that completes the call after we gave up writes into live memory. */
typedef struct provider_wait {
    bool done, ok;
} provider_wait_t;

static void wait_done(void *user, bool ok) {
    provider_wait_t *w = user;
    w->ok = ok;
    w->done = true;
}

/* One turn: the provider's ready completions, else one round of its loop (waiting as long as it
 * takes: gRPC calls carry their deadlines, and the loop wakes for them). False when nothing can
 * make progress. */
static bool wait_turn(provider_t *p) {
    if (p->ops->poll && p->ops->poll(p) > 0) return true;
    grpc_loop_t *loop = p->ops->event_loop ? p->ops->event_loop(p) : NULL;
    return loop && grpc_loop_run_once(loop, -1);
}

static bool wait_for(provider_t *p, provider_wait_t *w, const char *method, const char *urn, arena_t *a,
                     diag_list_t *diags) {
    while (!w->done && wait_turn(p)) {
    }
    if (!w->done && p->ops->cancel_all) { /* nothing can complete it: cancelling completes it now */
        p->ops->cancel_all(p);
        if (p->ops->poll) p->ops->poll(p);
    }
    if (!w->done) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, engine_urn_describe(a, urn),
                 "the %s provider never answered its %s call: nothing can complete it", p->package, method);
        return false;
    }
    return w->ok;
}

bool provider_read(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state, arena_t *a,
                   provider_read_result_t *out, diag_list_t *diags) {
    provider_wait_t *w = arena_alloc(a, sizeof *w);
    p->ops->read_async(p, urn, id, inputs, state, a, out, diags, wait_done, w);
    return wait_for(p, w, "Read", urn, a, diags);
}

bool provider_check(provider_t *p, const char *urn, const pv_t *olds, const pv_t *news, const unsigned char *seed,
                    size_t seed_len, arena_t *a, provider_check_result_t *out, diag_list_t *diags) {
    provider_wait_t *w = arena_alloc(a, sizeof *w);
    p->ops->check_async(p, urn, olds, news, seed, seed_len, a, out, diags, wait_done, w);
    return wait_for(p, w, "Check", urn, a, diags);
}

bool provider_diff(provider_t *p, const char *urn, const char *id, const pv_t *old_state, const pv_t *old_inputs,
                   const pv_t *news, arena_t *a, provider_diff_result_t *out, diag_list_t *diags) {
    provider_wait_t *w = arena_alloc(a, sizeof *w);
    p->ops->diff_async(p, urn, id, old_state, old_inputs, news, a, out, diags, wait_done, w);
    return wait_for(p, w, "Diff", urn, a, diags);
}

/* --- the completion queue ------------------------------------------------------------------------- */

struct provider_queued {
    provider_done_fn done;
    void *user;
    bool ok;
};

void provider_queue_push(provider_queue_t *q, provider_done_fn done, void *user, bool ok) {
    q->items = vec_grow(q->items, &q->cap, q->n + 1, sizeof *q->items);
    q->items[q->n++] = (provider_queued_t){done, user, ok};
}

size_t provider_queue_run(provider_queue_t *q) {
    size_t n = q->n;
    for (size_t i = 0; i < n; i++) {
        provider_queued_t c = q->items[i]; /* by value: a callback may grow (move) the queue */
        c.done(c.user, c.ok);
    }
    if (n) memmove(q->items, q->items + n, (q->n - n) * sizeof *q->items);
    q->n -= n;
    return n;
}

void provider_queue_free(provider_queue_t *q) {
    free(q->items);
    *q = (provider_queue_t){0};
}

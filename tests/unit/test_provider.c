/* test_provider.c — the one provider interface (importer/provider.h): a provider written with only the
 * asynchronous Read/Check/Diff is usable through the blocking calls (provider_read, provider_check,
 * provider_diff) whether its calls complete from its poll op or from its event loop, a provider whose
 * call can never complete gives an error instead of a hang, the engine imports through the same
 * operations, and provider_queue_t (completions of answers known at once) runs each completion from
 * the poll after the call, never inside it. */
#include <check.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "importer/engine.h"
#include "importer/grpc.h"
#include "importer/provider.h"
#include "specs/importfile.h"
#include "testutil.h"

#define FIXTURE(f) SOURCE_DIR "/tests/fixtures/engine/" f
#define THING_URN(name) "urn:pulumi:dev::proj::demo:index:Thing::" name

/* --- a provider that answers from its poll op, one call per poll ----------------------------------- */

typedef enum { CALL_READ, CALL_CHECK, CALL_DIFF } call_kind_t;

typedef struct pending {
    call_kind_t kind;
    const char *urn;
    const pv_t *news; /* Check: the inputs to check */
    arena_t *a;
    void *out;
    diag_list_t *diags;
    provider_done_fn done;
    void *user;
} pending_t;

typedef struct later {
    provider_t base;
    schema_package_t *pkg;
    pending_t q[64];
    size_t n;
    size_t polls, started, completed;
} later_t;

/* The answer: a resource named after the URN's last part; "broken" fails with a diagnostic. */
static bool later_answer(const pending_t *c) {
    const char *name = strrchr(c->urn, ':') + 1;
    if (strcmp(name, "broken") == 0) {
        diag_error(c->diags, DIAG_PROVIDER, "the later provider cannot answer for '%s'", name);
        return false;
    }
    switch (c->kind) {
    case CALL_READ: {
        provider_read_result_t *rr = c->out;
        rr->id = arena_sprintf(c->a, "%s-id", name);
        rr->inputs = pv_object(c->a);
        pv_object_set(c->a, rr->inputs, "name", pv_string(c->a, name));
        rr->state = pv_clone(c->a, rr->inputs);
        pv_object_set(c->a, rr->state, "size", pv_number(c->a, 3));
        return true;
    }
    case CALL_CHECK: {
        provider_check_result_t *cr = c->out;
        cr->inputs = pv_clone(c->a, c->news);
        if (!pv_object_get(cr->inputs, "name")) {
            cr->failures = arena_alloc(c->a, sizeof *cr->failures);
            cr->failures[0] = (provider_check_failure_t){"name", "Missing required property 'name'"};
            cr->n_failures = 1;
        }
        return true;
    }
    case CALL_DIFF: {
        provider_diff_result_t *dr = c->out;
        dr->changes = DIFF_NONE;
        dr->has_detailed_diff = true;
        return true;
    }
    }
    return false;
}

static void later_start(provider_t *p, call_kind_t kind, const char *urn, const pv_t *news, arena_t *a, void *out,
                        diag_list_t *diags, provider_done_fn done, void *user) {
    later_t *l = (later_t *)p;
    ck_assert_uint_lt(l->n, 64);
    l->q[l->n++] = (pending_t){kind, urn, news, a, out, diags, done, user};
    l->started++;
}

static void later_read(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state,
                       arena_t *a, provider_read_result_t *out, diag_list_t *diags, provider_done_fn done, void *user) {
    memset(out, 0, sizeof *out);
    later_start(p, CALL_READ, urn, NULL, a, out, diags, done, user);
}

static void later_check(provider_t *p, const char *urn, const pv_t *olds, const pv_t *news, const unsigned char *seed,
                        size_t seed_len, arena_t *a, provider_check_result_t *out, diag_list_t *diags,
                        provider_done_fn done, void *user) {
    memset(out, 0, sizeof *out);
    later_start(p, CALL_CHECK, urn, news, a, out, diags, done, user);
}

static void later_diff(provider_t *p, const char *urn, const char *id, const pv_t *old_state, const pv_t *old_inputs,
                       const pv_t *news, arena_t *a, provider_diff_result_t *out, diag_list_t *diags,
                       provider_done_fn done, void *user) {
    memset(out, 0, sizeof *out);
    later_start(p, CALL_DIFF, urn, NULL, a, out, diags, done, user);
}

/* Completes the oldest call in flight, one per poll (so a caller must keep polling). */
static size_t later_poll(provider_t *p) {
    later_t *l = (later_t *)p;
    l->polls++;
    if (l->n == 0) return 0;
    pending_t c = l->q[0];
    memmove(l->q, l->q + 1, (l->n - 1) * sizeof *l->q);
    l->n--;
    bool ok = later_answer(&c);
    l->completed++;
    c.done(c.user, ok);
    return 1;
}

static schema_package_t *later_schema(provider_t *p, diag_list_t *diags) {
    return ((later_t *)p)->pkg;
}

static void later_close(provider_t *p) {}

static const provider_ops_t LATER_OPS = {
    .get_schema = later_schema,
    .read_async = later_read,
    .check_async = later_check,
    .diff_async = later_diff,
    .poll = later_poll,
    .close = later_close,
};

START_TEST(test_blocking_calls_over_poll) {
    later_t l = {.base = {.ops = &LATER_OPS, .package = "demo"}};
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);

    provider_read_result_t rr;
    ck_assert(provider_read(&l.base, THING_URN("web"), "web", NULL, NULL, a, &rr, &d));
    ck_assert_uint_eq(l.completed, 1); /* completed from the poll the helper ran */
    ck_assert_uint_eq(l.polls, 1);
    ck_assert_str_eq(rr.id, "web-id");
    ck_assert_str_eq(pv_object_get(rr.inputs, "name")->u.str.s, "web");
    ck_assert_double_eq(pv_object_get(rr.state, "size")->u.n, 3);

    provider_check_result_t cr;
    ck_assert(provider_check(&l.base, THING_URN("web"), rr.inputs, pv_object(a), NULL, 0, a, &cr, &d));
    ck_assert_uint_eq(cr.n_failures, 1);
    ck_assert_str_eq(cr.failures[0].reason, "Missing required property 'name'");
    ck_assert(provider_check(&l.base, THING_URN("web"), rr.inputs, rr.inputs, NULL, 0, a, &cr, &d));
    ck_assert_uint_eq(cr.n_failures, 0);

    provider_diff_result_t dr;
    ck_assert(provider_diff(&l.base, THING_URN("web"), rr.id, rr.state, rr.inputs, cr.inputs, a, &dr, &d));
    ck_assert_int_eq(dr.changes, DIFF_NONE);
    ck_assert_uint_eq(d.count, 0);

    /* A failure: false, with the provider's diagnostic. */
    ck_assert(!provider_read(&l.base, THING_URN("broken"), "broken", NULL, NULL, a, &rr, &d));
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_str_eq(d.tail->message, "the later provider cannot answer for 'broken'");
    ck_assert_uint_eq(l.started, 5);
    ck_assert_uint_eq(l.completed, 5);
    ck_assert_uint_eq(l.n, 0);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* The engine imports through the same asynchronous operations, many calls in flight. */
static provider_t *later_factory(void *user, const char *package, const char *version, const char *url,
                                 diag_list_t *d) {
    return &((later_t *)user)->base;
}

START_TEST(test_engine_over_async_only_provider) {
    later_t l = {.base = {.ops = &LATER_OPS, .package = "demo"}};
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    l.pkg = schema_load_file(FIXTURE("schema.json"), &d);
    ck_assert_ptr_nonnull(l.pkg);
    const char *spec = "{\"resources\":[{\"type\":\"demo:index:Thing\",\"name\":\"a\",\"id\":\"a\"},"
                       "{\"type\":\"demo:index:Thing\",\"name\":\"broken\",\"id\":\"broken\"},"
                       "{\"type\":\"demo:index:Thing\",\"name\":\"c\",\"id\":\"c\"}]}";
    import_file_t *f = import_file_parse(a, spec, strlen(spec), "imports.json", &d);
    ck_assert_ptr_nonnull(f);
    import_plan_t *plan = import_plan_build(a, f, "dev", "proj", false, &d);
    ck_assert_ptr_nonnull(plan);
    provider_registry_t *reg = provider_registry_new(later_factory, &l);
    engine_options_t o;
    engine_options_default(&o);
    o.parallel = 8;
    import_result_t *r = engine_run(a, plan, reg, NULL, &o, &d);
    ck_assert_int_eq(r[0].status, IMPORT_OK);
    ck_assert(r[0].verified);
    ck_assert_str_eq(r[0].id, "a-id");
    ck_assert_int_eq(r[1].status, IMPORT_FAILED);
    ck_assert_int_eq(r[2].status, IMPORT_OK);
    ck_assert(r[2].verified);
    ck_assert_uint_eq(l.started, l.completed);
    ck_assert_uint_eq(l.started, 7); /* Read, Check and Diff of a and c (no diff: verified), Read of broken */
    engine_results_free(r, plan->n_items);
    provider_registry_free(reg);
    schema_free(l.pkg);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* --- a provider whose calls complete from its event loop (no poll op) ----------------------------- */

typedef struct looped {
    provider_t base;
    grpc_loop_t *loop;
    int fds[2]; /* a byte written per call; the loop's source completes one call per byte read */
    int handle;
    provider_read_result_t *out;
    arena_t *a;
    provider_done_fn done;
    void *user;
} looped_t;

static void looped_prepare(void *user, int *fd, short *events, int *timeout_ms) {
    looped_t *l = user;
    *fd = l->fds[0];
    *events = POLLIN;
}

static void looped_dispatch(void *user, short revents) {
    looped_t *l = user;
    char c;
    if (!(revents & POLLIN) || read(l->fds[0], &c, 1) != 1 || !l->done) return;
    l->out->id = arena_strdup(l->a, "from-the-loop");
    provider_done_fn done = l->done;
    l->done = NULL;
    done(l->user, true);
}

static void looped_read(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state,
                        arena_t *a, provider_read_result_t *out, diag_list_t *diags, provider_done_fn done,
                        void *user) {
    looped_t *l = (looped_t *)p;
    memset(out, 0, sizeof *out);
    ck_assert_ptr_null(l->done); /* one call at a time */
    l->out = out;
    l->a = a;
    l->done = done;
    l->user = user;
    ck_assert_int_eq(write(l->fds[1], "x", 1), 1);
}

static grpc_loop_t *looped_event_loop(provider_t *p) {
    return ((looped_t *)p)->loop;
}

static const provider_ops_t LOOPED_OPS = {.read_async = looped_read, .event_loop = looped_event_loop};

START_TEST(test_blocking_call_over_event_loop) {
    looped_t l = {.base = {.ops = &LOOPED_OPS, .package = "demo"}, .loop = grpc_loop_new()};
    ck_assert_int_eq(pipe(l.fds), 0);
    grpc_loop_source_t src = {looped_prepare, looped_dispatch, &l};
    l.handle = grpc_loop_add(l.loop, &src);
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    provider_read_result_t rr;
    ck_assert(provider_read(&l.base, THING_URN("x"), "x", NULL, NULL, a, &rr, &d));
    ck_assert_str_eq(rr.id, "from-the-loop");
    ck_assert_uint_eq(d.count, 0);
    grpc_loop_remove(l.loop, l.handle);
    grpc_loop_free(l.loop);
    close(l.fds[0]);
    close(l.fds[1]);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* --- a provider that never completes: an error, not a hang ---------------------------------------- */

static void never_read(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state,
                       arena_t *a, provider_read_result_t *out, diag_list_t *diags, provider_done_fn done, void *user) {
    memset(out, 0, sizeof *out);
}

static const provider_ops_t NEVER_OPS = {.read_async = never_read};

START_TEST(test_blocking_call_that_cannot_complete) {
    provider_t p = {.ops = &NEVER_OPS, .package = "stalled"};
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    provider_read_result_t rr;
    ck_assert(!provider_read(&p, THING_URN("x"), "x", NULL, NULL, a, &rr, &d));
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_str_eq(d.head->message, "the stalled provider never answered its Read call: nothing can complete it");
    ck_assert_str_eq(d.head->resource, "resource 'x' of type 'demo:index:Thing'");
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* --- provider_queue_t ------------------------------------------------------------------------------ */

typedef struct counted {
    provider_queue_t *q;
    int runs;
    bool last_ok;
    bool requeue; /* queue another completion from the callback */
} counted_t;

static void counted_done(void *user, bool ok) {
    counted_t *c = user;
    c->runs++;
    c->last_ok = ok;
    if (c->requeue) {
        c->requeue = false;
        provider_queue_push(c->q, counted_done, c, true);
    }
}

START_TEST(test_queue_runs_from_the_next_poll) {
    provider_queue_t q = {0};
    counted_t c = {.q = &q, .requeue = true}, more[40] = {{0}};
    provider_queue_push(&q, counted_done, &c, false);
    ck_assert_int_eq(c.runs, 0); /* never inside the push */
    for (int i = 0; i < 40; i++) /* grows past any first capacity */
        provider_queue_push(&q, counted_done, &more[i], true);
    ck_assert_uint_eq(provider_queue_run(&q), 41);
    ck_assert_int_eq(c.runs, 1);
    ck_assert(!c.last_ok);
    for (int i = 0; i < 40; i++)
        ck_assert(more[i].runs == 1 && more[i].last_ok);
    /* the completion queued by the callback waits for the next run */
    ck_assert_uint_eq(provider_queue_run(&q), 1);
    ck_assert_int_eq(c.runs, 2);
    ck_assert(c.last_ok);
    ck_assert_uint_eq(provider_queue_run(&q), 0);
    provider_queue_free(&q);
}
END_TEST

int main(void) {
    Suite *s = suite_create("provider");
    TCase *tc = tcase_create("provider");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_blocking_calls_over_poll);
    tcase_add_test(tc, test_engine_over_async_only_provider);
    tcase_add_test(tc, test_blocking_call_over_event_loop);
    tcase_add_test(tc, test_blocking_call_that_cannot_complete);
    tcase_add_test(tc, test_queue_runs_from_the_next_poll);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

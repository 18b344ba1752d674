/* test_engine_parallel.c — the engine at scale: many resources in flight at once over asynchronous
 * providers. Parents before children (even when listed after them), one failure never stopping the
 * others, the same results at parallel 1 and 64, results in plan order, resuming from a previous
 * run's --json results, flat memory with streamed results, the offline provider's deferred
 * completions, cycles of parents, progress ticks — and provider calls really overlapping over one
 * HTTP/2 connection to an in-process provider that answers after 20 ms (bench/latency_server.c). */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/latency_server.h"
#include "cli/cli.h"
#include "importer/engine.h"
#include "importer/grpc_provider.h"
#include "importer/offline.h"
#include "specs/deployment.h"
#include "testutil.h"

#define FIXTURE(f) SOURCE_DIR "/tests/fixtures/engine/" f
#define THING "demo:index:Thing"

/* --- worlds ------------------------------------------------------------------------------------ */

/* The offline provider over a state: the engine fixture's, or a synthetic one of n resources. */
typedef struct world {
    arena_t *a;
    schema_set_t *schemas;
    deployment_t *state;
    bool own_state; /* loaded (freed with deployment_free) rather than built here */
    offline_source_t *src;
    provider_registry_t *reg;
} world_t;

static void world_finish(world_t *w) {
    w->src = offline_source_new(w->state, w->schemas);
    w->reg = provider_registry_new(offline_provider_factory, w->src);
}

static void world_fixture(world_t *w) {
    memset(w, 0, sizeof *w);
    w->a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    w->schemas = schema_set_new();
    ck_assert(schema_set_add_path(w->schemas, FIXTURE("schema.json"), &d));
    w->state = deployment_load(w->a, FIXTURE("state.json"), &d);
    ck_assert_ptr_nonnull(w->state);
    w->own_state = true;
    diag_list_free(&d);
    world_finish(w);
}

/* n demo:index:Thing resources "s-K": every resource has a name (required), a size that differs from
 * the default, tags, and every 7th a secret password — so each takes a copy round. */
static void world_synthetic(world_t *w, size_t n) {
    memset(w, 0, sizeof *w);
    w->a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    w->schemas = schema_set_new();
    ck_assert(schema_set_add_path(w->schemas, FIXTURE("schema.json"), &d));
    diag_list_free(&d);
    arena_t *a = w->a;
    w->state = arena_alloc(a, sizeof *w->state);
    w->state->resources = arena_alloc(a, (n ? n : 1) * sizeof *w->state->resources);
    w->state->n_resources = n;
    for (size_t k = 0; k < n; k++) {
        state_resource_t *r = &w->state->resources[k];
        r->type = THING;
        r->id = arena_sprintf(a, "s-%zu", k);
        r->urn = arena_sprintf(a, "urn:pulumi:dev::proj::" THING "::s%zu", k);
        r->custom = true;
        r->inputs = pv_object(a);
        pv_object_set(a, r->inputs, "name", pv_string(a, r->id));
        pv_object_set(a, r->inputs, "size", pv_number(a, (double)(11 + k % 50)));
        pv_t *tags = pv_object(a);
        pv_object_set(a, tags, "k", pv_string(a, arena_sprintf(a, "v%zu", k)));
        pv_object_set(a, r->inputs, "tags", tags);
        if (k % 7 == 0)
            pv_object_set(a, r->inputs, "password", pv_secret(a, pv_string(a, arena_sprintf(a, "pw-%zu", k))));
        r->outputs = pv_clone(a, r->inputs);
        pv_object_set(a, r->outputs, "arn", pv_string(a, arena_sprintf(a, "arn:demo:s%zu", k)));
    }
    world_finish(w);
}

static void world_close(world_t *w) {
    provider_registry_free(w->reg);
    offline_source_free(w->src);
    if (w->own_state) deployment_free(w->state);
    schema_set_free(w->schemas);
    arena_free(w->a);
}

/* --- plans ------------------------------------------------------------------------------------- */

typedef struct plan_builder {
    import_plan_t plan;
    size_t cap;
} plan_builder_t;

static void plan_init(arena_t *a, plan_builder_t *b, size_t cap) {
    memset(b, 0, sizeof *b);
    b->cap = cap;
    b->plan.items = arena_alloc(a, cap * sizeof *b->plan.items);
}

static import_plan_item_t *plan_add(arena_t *a, plan_builder_t *b, const char *type, const char *name, const char *id,
                                    int parent_index) {
    ck_assert_uint_lt(b->plan.n_items, b->cap);
    import_plan_item_t *it = &b->plan.items[b->plan.n_items++];
    import_spec_t *s = arena_alloc(a, sizeof *s);
    s->type = type;
    s->name = name;
    s->id = id;
    it->spec = s;
    it->type = type;
    it->logical_name = name;
    it->variable = name;
    it->id = id;
    it->urn = arena_sprintf(a, "urn:pulumi:dev::proj::%s::%s", type, name);
    it->parent_index = parent_index;
    it->provider_index = -1;
    return it;
}

/* A synthetic plan over world_synthetic's resources: chains of 5 (each the parent of the next), and
 * in every other chain the parent listed after its child; every 13th resource does not exist. */
static void plan_synthetic(arena_t *a, plan_builder_t *b, size_t n) {
    plan_init(a, b, n);
    for (size_t k = 0; k < n; k++) {
        size_t chain = k / 5, pos = k % 5;
        int parent;
        if (chain % 2 == 0)
            parent = pos == 0 ? -1 : (int)k - 1; /* the parent listed just before */
        else
            parent = pos == 4 || k + 1 >= n ? -1 : (int)k + 1; /* reversed: the parent listed just after */
        const char *id = k % 13 == 12 ? arena_sprintf(a, "nope-%zu", k) : arena_sprintf(a, "s-%zu", k);
        plan_add(a, b, THING, arena_sprintf(a, "r%zu", k), id, parent);
    }
}

/* --- result text: everything a result says, for comparing runs ---------------------------------- */

static const char *json_text(arena_t *a, const pv_t *v) {
    if (!v) return "(none)";
    cJSON *j = pv_to_state_json(v);
    char *s = cJSON_PrintUnformatted(j);
    const char *r = arena_strdup(a, s);
    free(s);
    cJSON_Delete(j);
    return r;
}

static const char *result_text(arena_t *a, const import_result_t *r) {
    buf_t b;
    buf_init(&b);
    buf_printf(&b, "%s %s id=%s verified=%d rounds=%d resumed=%d\n  inputs=%s\n  read=%s\n  state=%s\n",
               r->item->logical_name, import_status_name(r->status), r->id ? r->id : "-", r->verified, r->rounds,
               r->resumed, json_text(a, r->inputs), json_text(a, r->read_inputs), json_text(a, r->state));
    for (size_t i = 0; i < r->n_provenance; i++)
        buf_printf(&b, "  prov %s=%s\n", r->provenance[i].path, provenance_name(r->provenance[i].provenance));
    for (size_t i = 0; i < r->n_residual; i++)
        buf_printf(&b, "  residual %s\n", r->residual[i]);
    for (const diag_t *d = r->diags.head; d; d = d->next)
        buf_printf(&b, "  %s %d %s: %s\n", diag_severity_name(d->severity), d->code, d->resource ? d->resource : "-",
                   d->message);
    const char *s = buf_arena_str(&b, a);
    buf_free(&b);
    return s;
}

static const char *results_text(arena_t *a, const import_result_t *r, size_t n) {
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++)
        buf_puts(&b, result_text(a, &r[i]));
    const char *s = buf_arena_str(&b, a);
    buf_free(&b);
    return s;
}

/* --- a provider wrapper that records the order of calls ----------------------------------------- */

typedef struct recorder {
    provider_t base;
    provider_t *inner;
    provider_registry_t *inner_reg;
    char log[64][96];
    size_t n_log;
    size_t reads;
} recorder_t;

static void rec_note(recorder_t *r, const char *what, const char *urn) {
    const char *name = strrchr(urn, ':');
    if (r->n_log < 64) snprintf(r->log[r->n_log++], sizeof r->log[0], "%s %s", what, name ? name + 1 : urn);
}

static schema_package_t *rec_schema(provider_t *p, diag_list_t *d) {
    recorder_t *r = (recorder_t *)p;
    return r->inner->ops->get_schema(r->inner, d);
}
static void rec_read(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state, arena_t *a,
                     provider_read_result_t *out, diag_list_t *d, provider_done_fn done, void *user) {
    recorder_t *r = (recorder_t *)p;
    rec_note(r, "read", urn);
    r->reads++;
    r->inner->ops->read_async(r->inner, urn, id, inputs, state, a, out, d, done, user);
}
static void rec_check(provider_t *p, const char *urn, const pv_t *olds, const pv_t *news, const unsigned char *seed,
                      size_t seed_len, arena_t *a, provider_check_result_t *out, diag_list_t *d, provider_done_fn done,
                      void *user) {
    recorder_t *r = (recorder_t *)p;
    r->inner->ops->check_async(r->inner, urn, olds, news, seed, seed_len, a, out, d, done, user);
}
static void rec_diff(provider_t *p, const char *urn, const char *id, const pv_t *old_state, const pv_t *old_inputs,
                     const pv_t *news, arena_t *a, provider_diff_result_t *out, diag_list_t *d, provider_done_fn done,
                     void *user) {
    recorder_t *r = (recorder_t *)p;
    r->inner->ops->diff_async(r->inner, urn, id, old_state, old_inputs, news, a, out, d, done, user);
}
/* The inner provider's completions (it lives in a registry the engine does not poll). */
static size_t rec_poll(provider_t *p) {
    recorder_t *r = (recorder_t *)p;
    return r->inner->ops->poll ? r->inner->ops->poll(r->inner) : 0;
}
static void rec_close(provider_t *p) {}
static const provider_ops_t rec_ops = {.get_schema = rec_schema,
                                       .read_async = rec_read,
                                       .check_async = rec_check,
                                       .diff_async = rec_diff,
                                       .poll = rec_poll,
                                       .close = rec_close};
static provider_t *rec_factory(void *user, const char *package, const char *version, const char *url, diag_list_t *d) {
    recorder_t *r = user;
    r->inner = provider_registry_get(r->inner_reg, package, version, url, d);
    return r->inner ? &r->base : NULL;
}

/* --- ordering ------------------------------------------------------------------------------------ */

typedef struct delivered {
    size_t calls;
    size_t order[64];
    size_t done[64];
} delivered_t;

START_TEST(test_children_wait_for_parents_listed_after_them) {
    world_t w;
    world_fixture(&w);
    recorder_t rec = {.base = {.ops = &rec_ops, .package = "demo"}, .inner_reg = w.reg};
    provider_registry_t *reg = provider_registry_new(rec_factory, &rec);
    plan_builder_t b;
    plan_init(w.a, &b, 8);
    plan_add(w.a, &b, THING, "child", "thing-2", 2);      /* 0: its parent is listed last */
    plan_add(w.a, &b, THING, "grandchild", "thing-1", 0); /* 1: child of 0 */
    plan_add(w.a, &b, THING, "parent", "thing-5", -1);    /* 2 */
    plan_add(w.a, &b, THING, "orphan", "thing-2", 4);     /* 3: parent 4 does not exist */
    plan_add(w.a, &b, THING, "gone", "nope", -1);         /* 4 */
    engine_options_t o;
    engine_options_default(&o);
    o.parallel = 64;
    diag_list_t d;
    diag_list_init(&d);
    import_result_t *r = engine_run(w.a, &b.plan, reg, w.schemas, &o, &d);
    ck_assert_int_eq(d.count, 0);
    ck_assert_int_eq(r[0].status, IMPORT_OK);
    ck_assert_int_eq(r[1].status, IMPORT_OK);
    ck_assert_int_eq(r[2].status, IMPORT_OK);
    ck_assert_int_eq(r[3].status, IMPORT_SKIPPED);
    ck_assert_str_eq(r[3].diags.head->message, "skipped: its parent 'gone' failed to import");
    ck_assert_str_eq(r[3].diags.head->resource, "resource 'orphan' of type 'demo:index:Thing'");
    ck_assert_int_eq(r[4].status, IMPORT_FAILED);
    /* Reads: the roots first, then each child once its parent is done; the orphan never */
    ck_assert_int_eq(rec.reads, 4);
    size_t at_parent = 99, at_child = 99, at_grandchild = 99;
    for (size_t i = 0; i < rec.n_log; i++) {
        if (strcmp(rec.log[i], "read parent") == 0) at_parent = i;
        if (strcmp(rec.log[i], "read child") == 0) at_child = i;
        if (strcmp(rec.log[i], "read grandchild") == 0) at_grandchild = i;
        ck_assert_str_ne(rec.log[i], "read orphan");
    }
    ck_assert_uint_lt(at_parent, at_child);
    ck_assert_uint_lt(at_child, at_grandchild);
    engine_results_free(r, b.plan.n_items);
    provider_registry_free(reg);
    diag_list_free(&d);
    world_close(&w);
}
END_TEST

static const import_result_t *g_results_base; /* for on_result_index */

static void on_result_index(void *user, const import_result_t *r, size_t done, size_t total) {
    delivered_t *d = user;
    if (!g_results_base) g_results_base = r - (done - 1); /* done counts from 1 in plan order */
    d->order[d->calls] = (size_t)(r - g_results_base);
    d->done[d->calls++] = done;
}

START_TEST(test_results_reach_on_result_in_plan_order) {
    world_t w;
    world_synthetic(&w, 40);
    plan_builder_t b;
    plan_synthetic(w.a, &b, 40);
    delivered_t dl = {0};
    g_results_base = NULL;
    engine_options_t o;
    engine_options_default(&o);
    o.parallel = 8;
    o.on_result = on_result_index;
    o.user = &dl;
    diag_list_t d;
    diag_list_init(&d);
    import_result_t *r = engine_run(w.a, &b.plan, w.reg, w.schemas, &o, &d);
    ck_assert_ptr_eq(g_results_base, r);
    ck_assert_uint_eq(dl.calls, 40);
    for (size_t i = 0; i < 40; i++) {
        ck_assert_uint_eq(dl.order[i], i);
        ck_assert_uint_eq(dl.done[i], i + 1);
    }
    engine_results_free(r, 40);
    diag_list_free(&d);
    world_close(&w);
}
END_TEST

/* --- continue on error; parallel 1 = parallel 64 --------------------------------------------------- */

static const char *run_text(world_t *w, plan_builder_t *b, int parallel, engine_stats_t *st) {
    engine_options_t o;
    engine_options_default(&o);
    o.parallel = parallel;
    o.stats = st;
    diag_list_t d;
    diag_list_init(&d);
    import_result_t *r = engine_run(w->a, &b->plan, w->reg, w->schemas, &o, &d);
    ck_assert_int_eq(d.count, 0);
    const char *t = results_text(w->a, r, b->plan.n_items);
    engine_results_free(r, b->plan.n_items);
    diag_list_free(&d);
    return t;
}

START_TEST(test_continue_on_error_and_same_results_at_any_parallelism) {
    world_t w;
    world_synthetic(&w, 500);
    plan_builder_t b;
    plan_synthetic(w.a, &b, 500);
    engine_stats_t s1, s64;
    const char *seq = run_text(&w, &b, 1, &s1);
    const char *par = run_text(&w, &b, 64, &s64);
    ck_assert_str_eq(seq, par);
    ck_assert_uint_eq(s1.peak_in_flight, 1);
    ck_assert_uint_ge(s64.peak_in_flight, 32);
    ck_assert_uint_eq(s1.reads, s64.reads);
    ck_assert_uint_eq(s1.diffs, s64.diffs);

    /* What the plan holds: the missing resources fail, their descendants are skipped, all else imports */
    engine_options_t o;
    engine_options_default(&o);
    o.parallel = 16;
    diag_list_t d;
    diag_list_init(&d);
    import_result_t *r = engine_run(w.a, &b.plan, w.reg, w.schemas, &o, &d);
    size_t ok = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < 500; i++) {
        const import_plan_item_t *it = &b.plan.items[i];
        bool missing = strncmp(it->id, "nope-", 5) == 0;
        if (missing) {
            ck_assert_int_eq(r[i].status, IMPORT_FAILED);
            ck_assert_str_eq(r[i].diags.tail->message, arena_sprintf(w.a, "resource '%s' does not exist", it->id));
        }
        int p = it->parent_index;
        if (!missing && p >= 0 && r[p].status != IMPORT_OK) {
            ck_assert_int_eq(r[i].status, IMPORT_SKIPPED);
            ck_assert_str_eq(r[i].diags.head->message,
                             arena_sprintf(w.a, "skipped: its parent '%s' failed to import", r[p].item->logical_name));
        }
        if (!missing && (p < 0 || r[p].status == IMPORT_OK)) {
            ck_assert_msg(r[i].status == IMPORT_OK && r[i].verified, "%s", result_text(w.a, &r[i]));
            ck_assert_int_eq(r[i].rounds, 1);
        }
        ok += r[i].status == IMPORT_OK;
        failed += r[i].status == IMPORT_FAILED;
        skipped += r[i].status == IMPORT_SKIPPED;
    }
    ck_assert_uint_eq(failed, 500 / 13);
    ck_assert_uint_gt(skipped, 0);
    ck_assert_uint_eq(ok + failed + skipped, 500);
    engine_results_free(r, 500);
    diag_list_free(&d);
    world_close(&w);
}
END_TEST

START_TEST(test_fixture_plan_same_at_parallel_1_and_64) {
    world_t w;
    world_fixture(&w);
    plan_builder_t b;
    plan_init(w.a, &b, 16);
    plan_add(w.a, &b, THING, "t1", "thing-1", -1);
    plan_add(w.a, &b, THING, "gone", "nope", -1);
    plan_add(w.a, &b, THING, "child", "thing-2", 1);
    plan_add(w.a, &b, THING, "t3", "thing-3", -1);
    plan_add(w.a, &b, "demo:index:Other", "other1", "other-1", -1);
    plan_add(w.a, &b, "aws:s3/bucket:Bucket", "bucket", "b-1", -1);
    plan_add(w.a, &b, "demo:index:Gone", "missing", "gone-1", -1);
    plan_add(w.a, &b, THING, "t5", "thing-5", 0);
    plan_add(w.a, &b, THING, "noid", NULL, -1);
    import_plan_item_t *c = plan_add(w.a, &b, "my:component:Thing", "comp", NULL, -1);
    c->is_component = true;
    plan_add(w.a, &b, THING, "t2", "thing-2", 9);
    const char *seq = run_text(&w, &b, 1, NULL);
    ck_assert_str_eq(seq, run_text(&w, &b, 64, NULL));
    ck_assert_str_eq(seq, run_text(&w, &b, 3, NULL));
    world_close(&w);
}
END_TEST

/* --- cycles and ticks ----------------------------------------------------------------------------- */

typedef struct ticks {
    size_t calls, done, failed, in_flight, total;
} ticks_t;

static void on_tick(void *user, size_t done, size_t failed, size_t in_flight, size_t total) {
    ticks_t *t = user;
    t->calls++;
    t->done = done;
    t->failed = failed;
    t->in_flight = in_flight;
    t->total = total;
}

START_TEST(test_parent_cycle_fails_one_and_skips_the_rest) {
    world_t w;
    world_fixture(&w);
    plan_builder_t b;
    plan_init(w.a, &b, 8);
    plan_add(w.a, &b, THING, "a", "thing-1", 2);
    plan_add(w.a, &b, THING, "b", "thing-2", 0);
    plan_add(w.a, &b, THING, "c", "thing-5", 1);
    plan_add(w.a, &b, THING, "below", "thing-2", 2);
    plan_add(w.a, &b, THING, "free", "thing-2", -1);
    ticks_t t = {0};
    engine_options_t o;
    engine_options_default(&o);
    o.on_tick = on_tick;
    o.user = &t;
    diag_list_t d;
    diag_list_init(&d);
    import_result_t *r = engine_run(w.a, &b.plan, w.reg, w.schemas, &o, &d);
    ck_assert_int_eq(r[4].status, IMPORT_OK);
    /* the walk from 'a' (the first waiting item) goes c → b → a → c ...: after 5 steps it is at b */
    size_t n_failed = 0;
    for (int i = 0; i < 3; i++)
        if (r[i].status == IMPORT_FAILED) {
            n_failed++;
            ck_assert_ptr_nonnull(strstr(r[i].diags.head->message, "its parents form a cycle (its parent '"));
            ck_assert_ptr_nonnull(
                strstr(r[i].diags.head->message, "' is also its descendant); fix the parent of one of them"));
        } else {
            ck_assert_int_eq(r[i].status, IMPORT_SKIPPED);
        }
    ck_assert_uint_eq(n_failed, 1);
    ck_assert_int_eq(r[3].status, IMPORT_SKIPPED);
    /* the last tick says where the run ended */
    ck_assert_uint_ge(t.calls, 1);
    ck_assert_uint_eq(t.done, 5);
    ck_assert_uint_eq(t.failed, 4);
    ck_assert_uint_eq(t.in_flight, 0);
    ck_assert_uint_eq(t.total, 5);
    engine_results_free(r, 5);
    diag_list_free(&d);
    world_close(&w);
}
END_TEST

/* --- memory stays flat ---------------------------------------------------------------------------- */

typedef struct streamed {
    size_t n, ok, with_values;
    size_t inputs_bytes;
} streamed_t;

static void on_streamed(void *user, const import_result_t *r, size_t done, size_t total) {
    streamed_t *s = user;
    s->n++;
    s->ok += r->status == IMPORT_OK;
    s->with_values += r->inputs != NULL && r->arena != NULL;
}

static void run_streamed(size_t n, engine_stats_t *st, size_t *caller_bytes, streamed_t *seen) {
    world_t w;
    world_synthetic(&w, n);
    plan_builder_t b;
    plan_synthetic(w.a, &b, n);
    arena_t *ra = arena_new();
    engine_options_t o;
    engine_options_default(&o);
    o.parallel = 16;
    o.release_results = true;
    o.on_result = on_streamed;
    o.user = seen;
    o.stats = st;
    diag_list_t d;
    diag_list_init(&d);
    import_result_t *r = engine_run(ra, &b.plan, w.reg, w.schemas, &o, &d);
    *caller_bytes = arena_used(ra);
    /* after the callback nothing of a result's values is left */
    for (size_t i = 0; i < n; i++) {
        ck_assert_ptr_null(r[i].inputs);
        ck_assert_ptr_null(r[i].arena);
        ck_assert_uint_eq(r[i].diags.count, 0);
    }
    engine_results_free(r, n);
    diag_list_free(&d);
    arena_free(ra);
    world_close(&w);
}

/* on_released: what the caller kept of a streamed result goes back into the array engine_run returns
 * (the session kept a second array of results beside it: 0.16 GB at a million resources). It runs once
 * per result, right after on_result and once the result's values are freed. */
typedef struct kept_back {
    arena_t *a;
    const import_result_t *last; /* the result on_result was given, until on_released takes it */
    const char *id;
    size_t n, out_of_order, still_held;
} kept_back_t;

static void on_keep(void *user, const import_result_t *r, size_t done, size_t total) {
    kept_back_t *k = user;
    k->out_of_order += k->last != NULL;
    k->last = r;
    k->id = r->id ? arena_strdup(k->a, r->id) : NULL;
}

static void on_put_back(void *user, import_result_t *r) {
    kept_back_t *k = user;
    k->n++;
    k->out_of_order += k->last != r;
    k->still_held += r->arena != NULL || r->inputs != NULL || r->state != NULL || r->diags.count != 0;
    k->last = NULL;
    r->id = k->id;
    diag_add(&r->diags, DIAG_INFO, DIAG_GENERIC, NULL, NULL, "kept %s", k->id ? k->id : "-");
}

START_TEST(test_released_results_take_what_was_kept) {
    enum { N = 500 };
    world_t w;
    world_synthetic(&w, N);
    plan_builder_t b;
    plan_synthetic(w.a, &b, N);
    arena_t *ra = arena_new();
    kept_back_t k = {.a = arena_new()};
    engine_options_t o;
    engine_options_default(&o);
    o.parallel = 16;
    o.release_results = true;
    o.on_result = on_keep;
    o.on_released = on_put_back;
    o.user = &k;
    diag_list_t d;
    diag_list_init(&d);
    import_result_t *r = engine_run(ra, &b.plan, w.reg, w.schemas, &o, &d);
    ck_assert_uint_eq(k.n, N);
    ck_assert_uint_eq(k.out_of_order, 0);
    ck_assert_uint_eq(k.still_held, 0);
    size_t with_id = 0;
    for (size_t i = 0; i < N; i++) {
        ck_assert_ptr_null(r[i].arena);
        ck_assert_uint_eq(r[i].diags.count, 1);
        ck_assert_str_eq(r[i].diags.head->message, arena_sprintf(k.a, "kept %s", r[i].id ? r[i].id : "-"));
        with_id += r[i].id != NULL;
    }
    ck_assert_uint_gt(with_id, N / 2);
    engine_results_free(r, N);
    diag_list_free(&d);
    arena_free(k.a);
    arena_free(ra);
    world_close(&w);
}
END_TEST

START_TEST(test_streamed_results_keep_memory_flat) {
    engine_stats_t small, big;
    size_t small_bytes, big_bytes;
    streamed_t s1 = {0}, s2 = {0};
    run_streamed(300, &small, &small_bytes, &s1);
    run_streamed(3000, &big, &big_bytes, &s2);
    ck_assert_uint_eq(s1.n, 300);
    ck_assert_uint_eq(s2.n, 3000);
    ck_assert_uint_eq(s2.with_values, 3000); /* every result had its values during the callback */
    ck_assert_uint_gt(s2.ok, 2000);
    /* the caller's arena holds only the result records: no values, no scratch */
    ck_assert_uint_le(small_bytes, 300 * sizeof(import_result_t) + 64);
    ck_assert_uint_le(big_bytes, 3000 * sizeof(import_result_t) + 64);
    /* scratch in flight and results held back do not grow with the plan */
    ck_assert_uint_gt(small.peak_scratch_bytes, 0);
    ck_assert_uint_le(big.peak_scratch_bytes, small.peak_scratch_bytes * 3 / 2);
    ck_assert_uint_le(big.peak_held, 16 * 64 + 16);
    ck_assert_uint_le(big.peak_in_flight, 16);
    fprintf(stderr, "flat memory: peak scratch %zu B (300) vs %zu B (3000); held %zu vs %zu\n",
            small.peak_scratch_bytes, big.peak_scratch_bytes, small.peak_held, big.peak_held);
}
END_TEST

START_TEST(test_kept_results_cost_bounded_bytes_each) {
    size_t per[2];
    size_t sizes[2] = {200, 2000};
    for (int k = 0; k < 2; k++) {
        world_t w;
        world_synthetic(&w, sizes[k]);
        plan_builder_t b;
        plan_synthetic(w.a, &b, sizes[k]);
        arena_t *ra = arena_new();
        diag_list_t d;
        diag_list_init(&d);
        import_result_t *r = engine_run(ra, &b.plan, w.reg, w.schemas, NULL, &d);
        per[k] = arena_used(ra) / sizes[k];
        engine_results_free(r, sizes[k]);
        diag_list_free(&d);
        arena_free(ra);
        world_close(&w);
    }
    /* the same per resource whatever the plan size: no per-run growth */
    ck_assert_uint_le(per[1], per[0] + per[0] / 10);
    ck_assert_uint_lt(per[1], 8192);
}
END_TEST

/* --- the offline provider's asynchronous operations --------------------------------------------- */

typedef struct chain {
    provider_t *p;
    arena_t *a;
    provider_read_result_t rr;
    diag_list_t d;
    int completions;
    bool last_ok;
    bool restart; /* start another read from the callback */
} chain_t;

static void chain_done(void *user, bool ok) {
    chain_t *c = user;
    c->completions++;
    c->last_ok = ok;
    if (c->restart) {
        c->restart = false;
        pv_t *none = pv_object(c->a);
        c->p->ops->read_async(c->p, "urn:pulumi:dev::proj::demo:index:Thing::x", "thing-2", none, none, c->a, &c->rr,
                              &c->d, chain_done, c);
        ck_assert_int_eq(c->completions, 1); /* not completed inside the call */
    }
}

START_TEST(test_offline_async_completes_from_poll_only) {
    world_t w;
    world_fixture(&w);
    diag_list_t d;
    diag_list_init(&d);
    provider_t *p = provider_registry_get(w.reg, "demo", NULL, NULL, &d);
    ck_assert_ptr_nonnull(p);
    chain_t c = {.p = p, .a = w.a, .restart = true};
    diag_list_init(&c.d);
    pv_t *none = pv_object(w.a);
    p->ops->read_async(p, "urn:pulumi:dev::proj::demo:index:Thing::t1", "thing-1", none, none, w.a, &c.rr, &c.d,
                       chain_done, &c);
    ck_assert_int_eq(c.completions, 0);   /* never from inside the call */
    ck_assert_str_eq(c.rr.id, "thing-1"); /* the answer is there; its completion waits */
    ck_assert_uint_eq(provider_registry_poll(w.reg, 0), 1);
    ck_assert_int_eq(c.completions, 1);
    ck_assert(c.last_ok);
    /* the read started by the callback completes in the next poll, not the same one */
    ck_assert_uint_eq(provider_registry_poll(w.reg, 0), 1);
    ck_assert_int_eq(c.completions, 2);
    ck_assert_str_eq(c.rr.id, "thing-2");
    ck_assert_uint_eq(provider_registry_poll(w.reg, 0), 0); /* nothing left: nothing could complete */
    /* a failure completes the same way */
    provider_check_result_t cr;
    p->ops->check_async(p, "not-a-urn", none, none, NULL, 0, w.a, &cr, &c.d, chain_done, &c);
    ck_assert_int_eq(c.completions, 2);
    ck_assert_uint_eq(provider_registry_poll(w.reg, 0), 1);
    ck_assert_int_eq(c.completions, 3);
    ck_assert(!c.last_ok);
    ck_assert_str_eq(c.d.tail->message, "'not-a-urn' is not a valid resource URN");
    diag_list_free(&c.d);
    diag_list_free(&d);
    world_close(&w);
}
END_TEST

/* --- resume --------------------------------------------------------------------------------------- */

/* The `--json` results document as the CLI writes it (README "--json results"). */
static char *results_document(const import_result_t *r, size_t n, bool show_secrets) {
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "version", 1);
    cJSON *arr = cJSON_AddArrayToObject(doc, "resources");
    for (size_t i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        const import_plan_item_t *it = r[i].item;
        cJSON_AddStringToObject(e, "name", it->variable);
        cJSON_AddStringToObject(e, "logicalName", it->logical_name);
        cJSON_AddStringToObject(e, "type", it->type);
        if (r[i].id) cJSON_AddStringToObject(e, "id", r[i].id);
        cJSON_AddStringToObject(e, "urn", it->urn);
        cJSON_AddStringToObject(e, "status", r[i].status == IMPORT_OK ? "imported" : import_status_name(r[i].status));
        cJSON_AddBoolToObject(e, "verified", r[i].status == IMPORT_OK && r[i].verified);
        cJSON_AddNumberToObject(e, "rounds", r[i].rounds);
        cJSON *res = cJSON_AddArrayToObject(e, "residual");
        for (size_t k = 0; k < r[i].n_residual; k++)
            cJSON_AddItemToArray(res, cJSON_CreateString(r[i].residual[k]));
        cJSON_AddArrayToObject(e, "ignoreChanges");
        cJSON_AddItemToObject(e, "inputs", pv_to_display_json(r[i].inputs, show_secrets));
        cJSON *prov = cJSON_AddObjectToObject(e, "provenance");
        for (size_t k = 0; k < r[i].n_provenance; k++)
            cJSON_AddStringToObject(prov, r[i].provenance[k].path, provenance_name(r[i].provenance[k].provenance));
        cJSON *ds = cJSON_AddArrayToObject(e, "diagnostics");
        for (const diag_t *d = r[i].diags.head; d; d = d->next) {
            cJSON *dj = cJSON_CreateObject();
            cJSON_AddStringToObject(dj, "severity", diag_severity_name(d->severity));
            cJSON_AddStringToObject(dj, "message", d->message);
            cJSON_AddItemToArray(ds, dj);
        }
        cJSON_AddItemToArray(arr, e);
    }
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    return text;
}

START_TEST(test_resume_skips_what_was_imported) {
    world_t w;
    world_fixture(&w);
    recorder_t rec = {.base = {.ops = &rec_ops, .package = "demo"}, .inner_reg = w.reg};
    provider_registry_t *reg = provider_registry_new(rec_factory, &rec);
    plan_builder_t b;
    plan_init(w.a, &b, 8);
    plan_add(w.a, &b, THING, "t2", "thing-2", -1);
    plan_add(w.a, &b, THING, "gone", "nope", -1);
    plan_add(w.a, &b, THING, "t1", "thing-1", -1); /* has a secret password */
    plan_add(w.a, &b, THING, "t5", "thing-5", 0);  /* a secret Read returned in plaintext */
    plan_add(w.a, &b, "demo:index:Other", "other1", "other-1", -1);
    diag_list_t d;
    diag_list_init(&d);
    import_result_t *first = engine_run(w.a, &b.plan, reg, w.schemas, NULL, &d);
    ck_assert_uint_eq(rec.reads, 5);
    char *redacted = results_document(first, 5, false);
    char *plain = results_document(first, 5, true);

    /* Written without --show-secrets: t1 and t5 hold "[secret]" and are imported again. */
    engine_resume_t *res = engine_resume_parse(redacted, strlen(redacted), "results.json", &d);
    ck_assert_ptr_nonnull(res);
    ck_assert_uint_eq(engine_resume_count(res), 2); /* t2, other1 */
    ck_assert_uint_eq(d.count, 1);
    ck_assert_int_eq(d.head->severity, DIAG_INFO);
    ck_assert_str_eq(d.head->file, "results.json");
    ck_assert_str_eq(d.head->message, "2 resources recorded as imported in results.json are imported again: their "
                                      "recorded inputs are incomplete or hold redacted secrets (\"[secret]\")");
    diag_list_free(&d);
    diag_list_init(&d);
    rec.reads = 0;
    engine_stats_t st;
    engine_options_t o;
    engine_options_default(&o);
    o.resume = res;
    o.stats = &st;
    o.parallel = 4;
    import_result_t *second = engine_run(w.a, &b.plan, reg, w.schemas, &o, &d);
    ck_assert_uint_eq(rec.reads, 3); /* gone, t1, t5 */
    ck_assert_uint_eq(st.resumed, 2);
    ck_assert(second[0].resumed);
    ck_assert(!second[1].resumed);
    ck_assert(!second[2].resumed);
    ck_assert(second[4].resumed);
    ck_assert_int_eq(second[3].status, IMPORT_OK); /* its resumed parent counts as imported */
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(second[i].status, first[i].status);
        ck_assert_str_eq(json_text(w.a, second[i].inputs), json_text(w.a, first[i].inputs));
        ck_assert_int_eq(second[i].verified, first[i].verified);
        ck_assert_int_eq(second[i].rounds, first[i].rounds);
        ck_assert_uint_eq(second[i].n_provenance, first[i].n_provenance);
        for (size_t k = 0; k < first[i].n_provenance; k++) {
            ck_assert_str_eq(second[i].provenance[k].path, first[i].provenance[k].path);
            ck_assert_int_eq(second[i].provenance[k].provenance, first[i].provenance[k].provenance);
        }
        ck_assert_uint_eq(second[i].diags.count, first[i].diags.count);
    }
    /* the carried-over warning keeps its words and its resource */
    ck_assert_str_eq(second[4].diags.head->message, first[4].diags.head->message);
    ck_assert_str_eq(second[4].diags.head->resource, "resource 'other1' of type 'demo:index:Other'");
    engine_results_free(second, 5);
    engine_resume_free(res);

    /* Written with --show-secrets: everything imported is carried over, secrets wrapped again. */
    res = engine_resume_parse(plain, strlen(plain), "results.json", &d);
    ck_assert_uint_eq(engine_resume_count(res), 4);
    o.resume = res;
    rec.reads = 0;
    second = engine_run(w.a, &b.plan, reg, w.schemas, &o, &d);
    ck_assert_uint_eq(rec.reads, 1); /* only the one that failed */
    ck_assert(second[2].resumed);
    ck_assert_int_eq(pv_object_get(second[2].inputs, "password")->kind, PV_SECRET);
    ck_assert_str_eq(json_text(w.a, second[2].inputs), json_text(w.a, first[2].inputs));
    ck_assert_str_eq(json_text(w.a, second[3].inputs), json_text(w.a, first[3].inputs));
    engine_results_free(second, 5);
    engine_resume_free(res);
    ck_assert_uint_eq(d.count, 0);

    /* Not a results document: a clear error, nothing to resume. */
    ck_assert_ptr_null(engine_resume_parse("{\"version\":1}", 13, "old.json", &d));
    ck_assert_str_eq(d.tail->message, "old.json is not a cimport results document (it has no \"resources\" array)");
    diag_set_advice(cli_advice); /* the command line's words for the advice */
    ck_assert_ptr_null(engine_resume_parse("{\"version\":1}", 13, "old.json", &d));
    ck_assert_str_eq(d.tail->message, "old.json is not a cimport results document (it has no \"resources\" array); "
                                      "pass a file written by a previous `cimport --json` run");
    ck_assert_ptr_null(engine_resume_parse("{oops", 5, "old.json", &d));
    ck_assert_str_eq(d.tail->message, "old.json is not a cimport results document (it is not valid JSON); pass a "
                                      "file written by a previous `cimport --json` run");
    diag_set_advice(NULL);
    ck_assert_ptr_null(engine_resume_load("/nonexistent/results.json", &d));
    ck_assert_str_eq(d.tail->file, "/nonexistent/results.json");

    free(redacted);
    free(plain);
    engine_results_free(first, 5);
    provider_registry_free(reg);
    diag_list_free(&d);
    world_close(&w);
}
END_TEST

/* --- asynchronous gRPC: calls overlap on one connection ------------------------------------------- */

typedef struct grpc_world {
    arena_t *a;
    grpc_loop_t *loop;
    latency_server_t *srv;
    provider_t *prov;
    provider_registry_t *reg;
} grpc_world_t;

static provider_t *grpc_world_factory(void *user, const char *package, const char *version, const char *url,
                                      diag_list_t *d) {
    grpc_world_t *g = user;
    grpc_provider_options_t o;
    grpc_provider_options_default(&o);
    o.loop = g->loop;
    o.no_schema_cache = true;
    return grpc_provider_attach_with(package, version, latency_server_port(g->srv), NULL, &o, d);
}

static void grpc_world_open(grpc_world_t *g, int latency_ms) {
    memset(g, 0, sizeof *g);
    g->a = arena_new();
    g->loop = grpc_loop_new();
    diag_list_t d;
    diag_list_init(&d);
    g->srv = latency_server_start(g->loop, latency_ms, &d);
    ck_assert_ptr_nonnull(g->srv);
    g->reg = provider_registry_new(grpc_world_factory, g);
    diag_list_free(&d);
}

static void grpc_world_close(grpc_world_t *g) {
    provider_registry_free(g->reg);
    latency_server_free(g->srv);
    grpc_loop_free(g->loop);
    arena_free(g->a);
}

static void plan_bench(arena_t *a, plan_builder_t *b, size_t n) {
    plan_init(a, b, n);
    for (size_t k = 0; k < n; k++) {
        const char *id = k % 17 == 5   ? arena_sprintf(a, "fail-%zu", k)
                         : k % 17 == 9 ? arena_sprintf(a, "missing-%zu", k)
                                       : arena_sprintf(a, "r-%zu", k);
        plan_add(a, b, "bench:index:Thing", arena_sprintf(a, "r%zu", k), id, k % 10 == 3 ? (int)k - 1 : -1);
    }
}

START_TEST(test_grpc_async_calls_overlap) {
    const int latency = 20;
    const size_t n = 128;
    grpc_world_t g;
    grpc_world_open(&g, latency);
    plan_builder_t b;
    plan_bench(g.a, &b, n);
    const char *texts[2];
    int parallels[2] = {64, 1};
    int64_t walls[2];
    size_t peaks[2];
    engine_stats_t st[2];
    for (int run = 0; run < 2; run++) {
        /* the one-at-a-time run only checks results: 1 ms keeps it short */
        latency_server_set_latency(g.srv, run == 0 ? latency : 1);
        size_t calls0 = latency_server_calls(g.srv);
        engine_options_t o;
        engine_options_default(&o);
        o.parallel = parallels[run];
        o.stats = &st[run];
        diag_list_t d;
        diag_list_init(&d);
        int64_t t0 = grpc_now_ms();
        import_result_t *r = engine_run(g.a, &b.plan, g.reg, NULL, &o, &d);
        walls[run] = grpc_now_ms() - t0;
        peaks[run] = latency_server_peak_pending(g.srv);
        /* the fake provider keeps its latency to the microsecond: no reply leaves early, so the bound
         * below is one the provider really imposes */
        if (run == 0) ck_assert_double_ge(latency_server_mean_hold_us(g.srv), latency * 1000.0);
        /* not one reply early, though the server wakes before replies are due (latency_server.c) */
        ck_assert_int_ge(latency_server_min_hold_us(g.srv), (int64_t)(run == 0 ? latency : 1) * 1000);
        ck_assert_int_eq(d.count, 0);
        texts[run] = results_text(g.a, r, n);
        size_t calls = latency_server_calls(g.srv) - calls0;
        ck_assert_uint_eq(calls, st[run].reads + st[run].checks + st[run].diffs);
        for (size_t i = 0; i < n; i++) {
            const char *id = b.plan.items[i].id;
            if (strncmp(id, "fail-", 5) == 0) {
                ck_assert_int_eq(r[i].status, IMPORT_FAILED);
                ck_assert_str_eq(r[i].diags.tail->message,
                                 "the bench provider's Read failed (INTERNAL): injected failure");
            } else if (strncmp(id, "missing-", 8) == 0) {
                ck_assert_int_eq(r[i].status, IMPORT_FAILED);
                ck_assert_str_eq(r[i].diags.tail->message, arena_sprintf(g.a, "resource '%s' does not exist", id));
            } else if (r[i].status != IMPORT_SKIPPED) {
                ck_assert_msg(r[i].status == IMPORT_OK && r[i].verified && r[i].rounds == 1, "%s",
                              result_text(g.a, &r[i]));
                ck_assert_str_eq(json_text(g.a, r[i].inputs),
                                 arena_sprintf(g.a, "{\"name\":\"%s\",\"size\":7,\"tags\":{\"team\":\"core\"}}", id));
            }
        }
        engine_results_free(r, n);
        diag_list_free(&d);
        if (run == 0) {
            /* The bound: every call's latency, parallel at a time. Sequential would take
             * calls × latency. */
            double bound = (double)calls * latency / parallels[run];
            double sequential = (double)calls * latency;
            fprintf(stderr,
                    "grpc overlap: %zu resources, %zu calls, %d ms each, parallel %d: wall %lld ms (bound %.0f ms, "
                    "sequential %.0f ms), %zu calls held at once\n",
                    n, calls, latency, parallels[run], (long long)walls[run], bound, sequential, peaks[run]);
            ck_assert_uint_ge(peaks[run], 32); /* calls really were in flight together */
            ck_assert_uint_ge(st[run].peak_in_flight, 32);
            ck_assert_int_lt(walls[run], (int64_t)(sequential / 4));
        }
    }
    /* the same results one at a time */
    ck_assert_str_eq(texts[0], texts[1]);
    ck_assert_uint_eq(st[1].peak_in_flight, 1);
    grpc_world_close(&g);
}
END_TEST

int main(void) {
    Suite *s = suite_create("engine_parallel");
    TCase *tc = tcase_create("engine_parallel");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_children_wait_for_parents_listed_after_them);
    tcase_add_test(tc, test_results_reach_on_result_in_plan_order);
    tcase_add_test(tc, test_continue_on_error_and_same_results_at_any_parallelism);
    tcase_add_test(tc, test_fixture_plan_same_at_parallel_1_and_64);
    tcase_add_test(tc, test_parent_cycle_fails_one_and_skips_the_rest);
    tcase_add_test(tc, test_streamed_results_keep_memory_flat);
    tcase_add_test(tc, test_released_results_take_what_was_kept);
    tcase_add_test(tc, test_kept_results_cost_bounded_bytes_each);
    tcase_add_test(tc, test_offline_async_completes_from_poll_only);
    tcase_add_test(tc, test_resume_skips_what_was_imported);
    tcase_add_test(tc, test_grpc_async_calls_overlap);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

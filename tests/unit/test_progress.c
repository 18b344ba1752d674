/* test_progress.c — the CLI's progress display (cli/progress.c, linked from the cimport_cli
 * library): the terminal status line with rate and time left, failures printed above it and capped,
 * plain lines at most every few seconds off a terminal, nothing with --quiet, and the line cleared
 * at the end. A fake clock makes the figures exact. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cli/progress.h"

static int64_t fake_now;
static int64_t fake_clock(void) {
    return fake_now;
}

typedef struct sink {
    char *text;
    size_t len;
    FILE *f;
} sink_t;

static progress_t *open_progress(sink_t *s, bool tty, bool quiet) {
    s->text = NULL;
    s->len = 0;
    s->f = open_memstream(&s->text, &s->len);
    progress_options_t o;
    progress_options_default(&o);
    o.out = s->f;
    o.tty = tty;
    o.quiet = quiet;
    o.max_failure_lines = 2;
    o.clock_ms = fake_clock;
    fake_now = 1000000;
    return progress_new(&o);
}

static const char *sink_text(sink_t *s) {
    fflush(s->f);
    return s->text;
}

static void sink_close(sink_t *s) {
    fclose(s->f);
    free(s->text);
}

/* A failed result named `name` whose error is `msg`. */
static import_result_t failed_result(import_plan_item_t *it, import_spec_t *spec, const char *name, const char *msg) {
    memset(it, 0, sizeof *it);
    memset(spec, 0, sizeof *spec);
    spec->name = name;
    it->spec = spec;
    it->logical_name = name;
    it->type = "demo:index:Thing";
    import_result_t r = {.item = it, .status = IMPORT_FAILED};
    diag_list_init(&r.diags);
    diag_add(&r.diags, DIAG_INFO, DIAG_PROVIDER, NULL, NULL, "a hint first");
    diag_add(&r.diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "%s", msg);
    return r;
}

START_TEST(test_terminal_status_line_and_failures) {
    sink_t s;
    progress_t *p = open_progress(&s, true, false);
    progress_on_tick(p, 0, 0, 16, 1000);
    ck_assert_str_eq(sink_text(&s), "\r\033[K0/1000 done, 0 failed, 16 in flight");
    fake_now += 2000;
    progress_on_tick(p, 100, 1, 64, 1000); /* 50/s: 900 left take 18 s */
    ck_assert_str_eq(strrchr(sink_text(&s), '\r'), "\r\033[K100/1000 done, 1 failed, 64 in flight, 50/s, 0:18 left");

    import_plan_item_t it;
    import_spec_t spec;
    for (int i = 0; i < 3; i++) {
        import_result_t r = failed_result(&it, &spec, i == 0 ? "web" : "db", "resource 'x' does not exist");
        progress_on_result(p, &r, 5, 1000);
        diag_list_free(&r.diags);
    }
    const char *t = sink_text(&s);
    ck_assert_ptr_nonnull(strstr(t, "\r\033[Kfailed: web (demo:index:Thing): resource 'x' does not exist\n"
                                    "\r\033[K100/1000 done, 1 failed, 64 in flight, 50/s, 0:18 left"));
    ck_assert_ptr_nonnull(strstr(t, "failed: db (demo:index:Thing): resource 'x' does not exist\n"
                                    "(further failures are listed when the import ends)\n"));
    /* the third failure is not printed */
    ck_assert_ptr_null(strstr(strstr(t, "(further failures"), "failed: db"));
    /* an hour and more */
    fake_now += 60000;
    progress_on_tick(p, 101, 1, 64, 100000);
    ck_assert_str_eq(strrchr(sink_text(&s), '\r'),
                     "\r\033[K101/100000 done, 1 failed, 64 in flight, 2/s, 17:02:04 left");
    progress_finish(p);
    ck_assert_str_eq(strrchr(sink_text(&s), '\r'), "\r\033[K");
    progress_free(p);
    sink_close(&s);
}
END_TEST

START_TEST(test_plain_lines_every_few_seconds) {
    sink_t s;
    progress_t *p = open_progress(&s, false, false);
    import_plan_item_t it;
    import_spec_t spec;
    import_result_t r = failed_result(&it, &spec, "web", "boom");
    progress_on_result(p, &r, 1, 100); /* off a terminal failures wait for the end */
    diag_list_free(&r.diags);
    progress_on_tick(p, 1, 1, 16, 100);
    fake_now += 4000;
    progress_on_tick(p, 20, 1, 16, 100);
    ck_assert_str_eq(sink_text(&s), "");
    fake_now += 1000;
    progress_on_tick(p, 25, 1, 16, 100);
    ck_assert_str_eq(sink_text(&s), "cimport: 25/100 done, 1 failed, 16 in flight, 5/s, 0:15 left\n");
    fake_now += 1000;
    progress_on_tick(p, 30, 1, 16, 100);
    fake_now += 4000;
    progress_on_tick(p, 100, 1, 0, 100); /* the end: the CLI's summary says it */
    progress_finish(p);
    ck_assert_str_eq(sink_text(&s), "cimport: 25/100 done, 1 failed, 16 in flight, 5/s, 0:15 left\n");
    progress_free(p);
    sink_close(&s);
}
END_TEST

START_TEST(test_quiet_shows_nothing) {
    sink_t s;
    progress_t *p = open_progress(&s, true, true);
    import_plan_item_t it;
    import_spec_t spec;
    import_result_t r = failed_result(&it, &spec, "web", "boom");
    progress_on_result(p, &r, 1, 2);
    diag_list_free(&r.diags);
    progress_on_tick(p, 1, 1, 1, 2);
    progress_finish(p);
    ck_assert_str_eq(sink_text(&s), "");
    progress_free(p);
    sink_close(&s);
}
END_TEST

int main(void) {
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("progress");
    tcase_add_test(tc, test_terminal_status_line_and_failures);
    tcase_add_test(tc, test_plain_lines_every_few_seconds);
    tcase_add_test(tc, test_quiet_shows_nothing);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

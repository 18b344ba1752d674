/* test_session_stack.c — the import session writing the selected stack itself (session_options_t
 * .into_stack), as both front ends can: a DIY file backend's stack opened under its lock, the
 * imported resources merged into its checkpoint and written with the run's files in one
 * transaction, the lock released; a stack locked by another process (the wait told as an event,
 * then refused), a stack that does not exist, and a run whose file cannot be written (the stack
 * left byte for byte as it was); the options a run takes from its workspace. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "session/session.h"
#include "stacks/workspace.h"
#include "testutil.h"

#define PROJECT "shop"
#define STACK "dev"
#define CHECKPOINT                                                                                                     \
    "{\"version\":3,\"checkpoint\":{\"stack\":\"organization/shop/dev\",\"latest\":{\"manifest\":{\"time\":"           \
    "\"2026-01-01T00:00:00Z\",\"magic\":\"\",\"version\":\"v3.100.0\"},\"resources\":[]}}}"

typedef struct fixture {
    arena_t *a;
    char *dir;
    char *checkpoint; /* the stack's checkpoint file */
    char *locks;      /* the stack's lock directory */
    workspace_t ws;
    const char *schemas[1];
    session_options_t so;
    int lock_waits; /* SESSION_EVENT_STACK_LOCK_WAIT events */
} fixture_t;

static void on_event(void *user, const session_event_t *ev) {
    fixture_t *f = user;
    if (ev->kind == SESSION_EVENT_STACK_LOCK_WAIT) {
        ck_assert_ptr_nonnull(ev->holder);
        f->lock_waits++;
    }
}

/* A DIY file backend holding stack `dev` of project `shop` with no resources, and a session that
 * imports the quickstart's resources offline into it. */
static void fixture_init(fixture_t *f, bool with_stack) {
    memset(f, 0, sizeof *f);
    unsetenv("PULUMI_CONFIG_PASSPHRASE");
    unsetenv("PULUMI_CONFIG_PASSPHRASE_FILE");
    f->a = arena_new();
    f->dir = tu_mkdtemp();
    char *stacks = arena_sprintf(f->a, "%s/.pulumi/stacks/" PROJECT, f->dir);
    ck_assert_int_eq(mkdir(arena_sprintf(f->a, "%s/.pulumi", f->dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(f->a, "%s/.pulumi/stacks", f->dir), 0755), 0);
    ck_assert_int_eq(mkdir(stacks, 0755), 0);
    ck_assert(tu_write(arena_sprintf(f->a, "%s/.pulumi/meta.yaml", f->dir), "version: 1\n"));
    f->checkpoint = arena_sprintf(f->a, "%s/" STACK ".json", stacks);
    if (with_stack) ck_assert(tu_write(f->checkpoint, CHECKPOINT));
    f->locks = arena_sprintf(f->a, "%s/.pulumi/locks/organization/" PROJECT "/" STACK, f->dir);
    f->ws.backend_url = arena_sprintf(f->a, "file://%s", f->dir);
    f->ws.backend = BACKEND_FILE;
    f->ws.stack = STACK;
    f->schemas[0] = tu_data(f->a, "schemas/random/schema.json");
    session_options_default(&f->so);
    f->so.spec_path = SOURCE_DIR "/examples/quickstart/imports.json";
    f->so.offline_state = SOURCE_DIR "/examples/quickstart/stack.json";
    f->so.schemas = f->schemas;
    f->so.n_schemas = 1;
    f->so.generate_code = false;
    f->so.stack = STACK;
    f->so.project = PROJECT;
    f->so.into_stack = &f->ws;
    f->so.on_event = on_event;
    f->so.user = f;
}

static void fixture_free(fixture_t *f) {
    tu_rmtree(f->dir);
    free(f->dir);
    arena_free(f->a);
}

/* Files in dir (0 when it does not exist). */
static int count_files(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
    closedir(d);
    return n;
}

START_TEST(test_session_imports_into_stack) {
    fixture_t f;
    fixture_init(&f, true);
    import_session_t s;
    session_init(&s, &f.so);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_msg(session_prepare(&s, &d), "prepare: %s", d.head ? d.head->message : "");
    ck_assert_ptr_nonnull(s.stack_store);
    ck_assert_int_eq(count_files(f.locks), 1); /* held from open to close */
    ck_assert(session_run(&s, NULL));
    ck_assert_uint_eq(s.n_ok, 5);
    ck_assert_msg(session_stack_merge(&s), "merge: %s", s.diags.head ? s.diags.head->message : "");
    ck_assert_ptr_nonnull(s.stack_merged);
    ck_assert_uint_eq(s.stack_n_import, 4); /* the component "server" is created, not imported */
    ck_assert_uint_eq(s.stack_n_same, 0);
    /* Nothing is written before the commit. */
    size_t len;
    char *text = tu_read(f.checkpoint, &len);
    ck_assert_str_eq(text, CHECKPOINT);
    free(text);
    ck_assert(session_commit(&s, &d));
    ck_assert(s.stack_written);
    text = tu_read(f.checkpoint, &len);
    ck_assert_ptr_nonnull(
        strstr(text, "urn:pulumi:dev::shop::webshop:index:Server$random:index/randomString:RandomString::server-name"));
    ck_assert_ptr_nonnull(strstr(text, "\"mq7xk2vt9fzr\""));
    free(text);
    ck_assert_int_eq(count_files(arena_sprintf(f.a, "%s/.pulumi/history/" PROJECT "/" STACK, f.dir)), 2);
    session_stack_close(&s, &d);
    ck_assert_ptr_null(s.stack_store);
    ck_assert_int_eq(count_files(f.locks), 0);
    ck_assert(!diag_has_errors(&d));
    /* Again: every resource is in the stack already, so there is nothing to write. */
    session_free(&s);
    session_init(&s, &f.so);
    ck_assert(session_prepare(&s, &d));
    ck_assert(session_run(&s, NULL));
    ck_assert(session_stack_merge(&s));
    ck_assert_ptr_null(s.stack_merged);
    ck_assert_uint_eq(s.stack_n_same, 5);
    session_free(&s); /* releases the lock */
    ck_assert_int_eq(count_files(f.locks), 0);
    ck_assert_int_eq(f.lock_waits, 0);
    diag_list_free(&d);
    fixture_free(&f);
}
END_TEST

START_TEST(test_session_stack_locked_by_another) {
    fixture_t f;
    fixture_init(&f, true);
    ck_assert_int_eq(mkdir(arena_sprintf(f.a, "%s/.pulumi/locks", f.dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(f.a, "%s/.pulumi/locks/organization", f.dir), 0755), 0);
    ck_assert_int_eq(mkdir(arena_sprintf(f.a, "%s/.pulumi/locks/organization/" PROJECT, f.dir), 0755), 0);
    ck_assert_int_eq(mkdir(f.locks, 0755), 0);
    ck_assert(tu_write(arena_sprintf(f.a, "%s/0b8f5c2e-1111-4222-8333-944445555666.json", f.locks),
                       "{\"pid\":1,\"username\":\"someone\",\"hostname\":\"elsewhere\",\"timestamp\":"
                       "\"2026-01-01T00:00:00Z\"}"));
    f.so.lock_wait_ms = 300;
    import_session_t s;
    session_init(&s, &f.so);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(!session_stack_open(&s, &d));
    ck_assert_ptr_null(s.stack_store);
    ck_assert_int_eq(f.lock_waits, 1);
    ck_assert(diag_has_errors(&d));
    ck_assert_ptr_nonnull(strstr(d.head->message, "is locked by 1 other process"));
    ck_assert_int_eq(count_files(f.locks), 1); /* theirs, untouched */
    session_free(&s);
    diag_list_free(&d);
    fixture_free(&f);
}
END_TEST

START_TEST(test_session_stack_missing) {
    fixture_t f;
    fixture_init(&f, false);
    import_session_t s;
    session_init(&s, &f.so);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(!session_prepare(&s, &d));
    ck_assert_ptr_nonnull(strstr(d.head->message, "the stack 'dev' of project 'shop' does not exist"));
    ck_assert_int_eq(count_files(f.locks), 0);
    session_free(&s);
    diag_list_free(&d);
    fixture_free(&f);
}
END_TEST

START_TEST(test_session_stack_with_failed_file) {
    fixture_t f;
    fixture_init(&f, true);
    f.so.generate_code = true;
    f.so.language = LANG_TYPESCRIPT;
    f.so.language_set = true;
    f.so.out_path = arena_sprintf(f.a, "%s/no-such-dir/index.ts", f.dir);
    f.so.secrets_file = arena_sprintf(f.a, "%s/secrets.json", f.dir);
    import_session_t s;
    session_init(&s, &f.so);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(session_prepare(&s, &d));
    ck_assert(session_run(&s, NULL));
    ck_assert_ptr_nonnull(s.code);
    ck_assert(session_stack_merge(&s));
    ck_assert(session_place_code(&s, NULL, &d));
    ck_assert(!session_commit(&s, &d));
    ck_assert(!s.stack_written);
    size_t len;
    char *text = tu_read(f.checkpoint, &len);
    ck_assert_str_eq(text, CHECKPOINT);
    free(text);
    ck_assert_int_eq(count_files(arena_sprintf(f.a, "%s/.pulumi/history/" PROJECT "/" STACK, f.dir)), 0);
    session_free(&s);
    ck_assert_int_eq(count_files(f.locks), 0);
    diag_list_free(&d);
    fixture_free(&f);
}
END_TEST

/* What a run takes from the workspace: the stack's short name, the project, the language of its
 * runtime, the stack config beside Pulumi.yaml — and nothing the options set already. */
START_TEST(test_options_from_workspace) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    workspace_t w;
    memset(&w, 0, sizeof w);
    w.have_project = true;
    w.project.name = "shop";
    w.project.runtime = "python";
    w.project_dir = dir;
    w.stack = "dev";
    session_options_t o;
    session_options_default(&o);
    session_options_from_workspace(&o, &w, a);
    ck_assert_str_eq(o.stack, "dev");
    ck_assert_str_eq(o.project, "shop");
    ck_assert(o.language_set);
    ck_assert_int_eq(o.language, LANG_PYTHON);
    /* no Pulumi.dev.yaml yet: still the file beside Pulumi.yaml, which a passphrase run creates (it
     * was none, and the run created Pulumi.dev.yaml in its working directory) */
    ck_assert_str_eq(o.config_file, arena_sprintf(a, "%s/Pulumi.dev.yaml", dir));
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.prod.yaml", dir), "config: {}\n"));
    session_options_default(&o);
    o.stack = "acme/shop/prod";
    o.project = "given";
    o.language = LANG_GO;
    o.language_set = true;
    session_options_from_workspace(&o, &w, a);
    ck_assert_str_eq(o.stack, "prod");
    ck_assert_str_eq(o.project, "given");
    ck_assert_int_eq(o.language, LANG_GO);
    ck_assert_str_eq(o.config_file, arena_sprintf(a, "%s/Pulumi.prod.yaml", dir));
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* The config keys a program reads (session_program_config_keys): a getter's string argument, with
 * type arguments before it. The scan walked back from every `>` before a `(` to find a type
 * argument's `<`, without bound: an arrow function's `=> (` walked to the file's start (quadratic
 * on a file of many of them), and past statements to any earlier `<`, taking `retries.get<3`'s
 * `get` for a getter called with the arrow's "gamma". A type argument ends at a parenthesis now. */
START_TEST(test_program_config_keys) {
    arena_t *a = arena_new();
    const char *t = "const config = new pulumi.Config();\n"
                    "const a = config.require(\"alpha\");\n"
                    "const b = config.requireObject<Record<string, Array<string>>>(\"beta\");\n"
                    "const c = config.getSecret <string> ('delta');\n"
                    "const small = retries.get<3;\n"
                    "const f = () => (\"gamma\");\n"
                    "const g = (x: number) => (x > (1) ? \"epsilon\" : \"zeta\");\n"
                    /* type arguments holding parentheses and type literals (read12c F7: missed) */
                    "const h = config.requireObject<(string | number)[]>(\"eta\");\n"
                    "const i = config.requireObject<{ a: (x: number) => string; b: number }>(\"theta\");\n";
    const char **keys;
    size_t n = session_program_config_keys(a, t, strlen(t), LANG_TYPESCRIPT, "shop", &keys);
    ck_assert_uint_eq(n, 5);
    ck_assert_str_eq(keys[0], "alpha");
    ck_assert_str_eq(keys[1], "beta");
    ck_assert_str_eq(keys[2], "delta");
    ck_assert_str_eq(keys[3], "eta");
    ck_assert_str_eq(keys[4], "theta");
    /* 100,000 lines of arrow functions, then a getter: every line's `=> (` once */
    buf_t b;
    buf_init(&b);
    for (int i = 0; i < 100000; i++)
        buf_printf(&b, "const f%d = (x: number) => (x + %d);\n", i, i);
    buf_puts(&b, "export const last = config.require(\"omega\");\n");
    n = session_program_config_keys(a, b.data, b.len, LANG_TYPESCRIPT, "shop", &keys);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(keys[0], "omega");
    buf_free(&b);
    arena_free(a);
}
END_TEST

/* A backend URL's passwords are never printed (stderr, the language server's messages): they are
 * shown as Go's url.Redacted shows a password. */
START_TEST(test_backend_url_shown) {
    arena_t *a = arena_new();
    static const char *const cases[][2] = {
        {"postgres://postgres:Hunter2@127.0.0.1:5432/db?sslmode=disable",
         "postgres://postgres:xxxxx@127.0.0.1:5432/db?sslmode=disable"},
        {"postgres://u:p@ss@host/db", "postgres://u:xxxxx@host/db"},
        {"postgres://u@host/db?sslmode=disable&password=Q77&sslpassword=K&table=t",
         "postgres://u@host/db?sslmode=disable&password=xxxxx&sslpassword=xxxxx&table=t"},
        {"postgres://[::1]:5432/db?mypassword=keep", "postgres://[::1]:5432/db?mypassword=keep"},
        {"https://api.pulumi.com", "https://api.pulumi.com"},
        {"file:///home/me/state", "file:///home/me/state"},
        {"https://me:tok@example.com/p?password=z#frag", "https://me:xxxxx@example.com/p?password=xxxxx#frag"},
        {"https://pul-Tok3n@api.example.com/api/user", "https://xxxxx@api.example.com/api/user"},
        {"HTTP://tok@h:8080", "HTTP://xxxxx@h:8080"},
        {"http://h/p?token=T1&access_token=T2&tokens=k", "http://h/p?token=xxxxx&access_token=xxxxx&tokens=k"},
        {"https://h/a@b", "https://h/a@b"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_str_eq(backend_url_shown(a, cases[i][0]), cases[i][1]);
    ck_assert_ptr_null(backend_url_shown(a, NULL));
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("session_stack");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_session_imports_into_stack);
    tcase_add_test(tc, test_session_stack_locked_by_another);
    tcase_add_test(tc, test_session_stack_missing);
    tcase_add_test(tc, test_session_stack_with_failed_file);
    tcase_add_test(tc, test_options_from_workspace);
    tcase_add_test(tc, test_backend_url_shown);
    tcase_add_test(tc, test_program_config_keys);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}

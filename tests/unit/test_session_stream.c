/* test_session_stream.c — code written as it is printed (session_options_t.stream_code, base/spool.h)
 * instead of held whole: on every shared stack export and checkpoint, and on a small export with
 * providers, a reference cycle, a secret reference, name collisions and secrets, the file a streamed
 * run commits is the held run's byte for byte (and so is the secrets file). A spool has no name in
 * the directory at any moment, also when its process is killed; a run whose spool could not take the
 * whole code (a file size limit) commits nothing: the old file stays, and no temporary file is left. */
#define _GNU_SOURCE /* memmem */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/spool.h"
#include "session/result_spill.h"
#include "session/session.h"
#include "specs/txn.h"
#include "testutil.h"

/* The names in dir, sorted, one a line. */
static char *listing(const char *dir) {
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    ck_assert_int_ge(n, 0);
    buf_t b = {0};
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0)
            buf_printf(&b, "%s\n", names[i]->d_name);
        free(names[i]);
    }
    free(names);
    return buf_take(&b);
}

typedef struct run {
    bool ran, streamed, committed;
    size_t n_ok;
    char *messages; /* the session's diagnostics, one a line (malloc'd) */
} run_t;

/* One CLI-like run (lean results, --out) of the export at path into out, secrets (as config) into
 * secrets_dir; `fsize`: a file size limit while the code is made (0: none). */
static run_t run_into(const char *path, const import_file_t *file, const char **schemas, size_t n_schemas, lang_t lang,
                      pcl_secrets_mode_t secrets, bool stream, const char *out, const char *secrets_dir, rlim_t fsize) {
    session_options_t so;
    session_options_default(&so);
    so.offline_state = path;
    so.schemas = schemas;
    so.n_schemas = n_schemas;
    so.language = lang;
    so.language_set = true;
    so.secrets = secrets;
    so.lean_results = true;
    so.out_path = out;
    so.secrets_dir = secrets_dir;
    so.stream_code = stream;
    import_session_t s;
    session_init(&s, &so);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_msg(session_prepare(&s, &d), "%s: prepare: %s", path, d.head ? d.head->message : "");
    struct rlimit was, low;
    if (fsize) { /* nothing but the run between the two calls: a check's own message file stays small */
        getrlimit(RLIMIT_FSIZE, &was);
        low = was;
        low.rlim_cur = fsize;
        setrlimit(RLIMIT_FSIZE, &low);
    }
    run_t r = {.ran = session_run(&s, file)};
    if (fsize) setrlimit(RLIMIT_FSIZE, &was);
    r.streamed = s.code_spool != NULL;
    r.n_ok = s.n_ok;
    if (r.streamed) {
        ck_assert_ptr_null(s.code);
        ck_assert_int_eq(spool_error(s.code_spool), fsize ? EFBIG : 0);
    }
    if (r.ran && session_has_code(&s) && session_place_code(&s, NULL, &s.diags))
        r.committed = session_commit(&s, &s.diags);
    buf_t m = {0};
    for (diag_t *x = s.diags.head; x; x = x->next)
        buf_printf(&m, "%s: %s\n", x->resource ? x->resource : "", x->message);
    r.messages = m.data ? buf_take(&m) : strdup("");
    if (fsize && r.streamed) {
        bool said = false;
        for (diag_t *x = s.diags.head; x; x = x->next)
            said |= x->message && strstr(x->message, "cannot write: File too large") != NULL;
        ck_assert_msg(said, "%s: the refused write is not named", path);
    }
    diag_list_free(&d);
    session_free(&s);
    return r;
}

static void assert_same_file(const char *x, const char *y, const char *what) {
    size_t nx = 0, ny = 0;
    char *tx = tu_read(x, &nx), *ty = tu_read(y, &ny);
    ck_assert_msg((tx == NULL) == (ty == NULL), "%s: one run wrote %s, the other not", what, tx ? x : y);
    if (tx) {
        size_t k = 0;
        while (k < nx && k < ny && tx[k] == ty[k])
            k++;
        ck_assert_msg(nx == ny && k == nx,
                      "%s: differs from byte %zu (%zu / %zu bytes):\n--- held\n%.200s\n--- streamed\n%.200s", what, k,
                      nx, ny, tx + (k > 80 ? k - 80 : 0), ty + (k > 80 ? k - 80 : 0));
    }
    free(tx);
    free(ty);
}

/* Held and streamed runs of the export at path, in one directory each: the same files. */
static size_t compare_runs(arena_t *a, const char *path, const char **schemas, size_t n_schemas) {
    import_file_t *file = tu_converted(a, path);
    if (!file) return 0;
    size_t streamed = 0;
    for (int m = 0; m < 2; m++) {
        pcl_secrets_mode_t mode = m ? PCL_SECRETS_LITERAL : PCL_SECRETS_CONFIG;
        char *held_dir = tu_mkdtemp(), *stream_dir = tu_mkdtemp();
        const char *held = arena_sprintf(a, "%s/main.pp", held_dir), *strm = arena_sprintf(a, "%s/main.pp", stream_dir);
        run_t h = run_into(path, file, schemas, n_schemas, LANG_PCL, mode, false, held, held_dir, 0);
        run_t s = run_into(path, file, schemas, n_schemas, LANG_PCL, mode, true, strm, stream_dir, 0);
        ck_assert(!h.streamed);
        ck_assert_int_eq(h.n_ok, s.n_ok);
        ck_assert_int_eq(h.committed, s.committed);
        ck_assert_msg(s.streamed || !h.committed, "%s: code written but not streamed", path);
        const char *what = arena_sprintf(a, "%s (secrets %s)", path, m ? "literal" : "config");
        assert_same_file(held, strm, what);
        ck_assert_str_eq(h.messages, s.messages);
        free(h.messages);
        free(s.messages);
        assert_same_file(arena_sprintf(a, "%s/cimport-secrets.json", held_dir),
                         arena_sprintf(a, "%s/cimport-secrets.json", stream_dir), what);
        char *lh = listing(held_dir), *ls = listing(stream_dir);
        ck_assert_str_eq(lh, ls); /* nothing else left beside them */
        free(lh);
        free(ls);
        streamed += s.streamed;
        tu_rmtree(held_dir);
        tu_rmtree(stream_dir);
        free(held_dir);
        free(stream_dir);
    }
    return streamed;
}

/* An explicit provider and a parent, a reference cycle (one edge turned back into its literal), a
 * secret reference under the producer's output name, two resources of one name (`pw`), and a secret
 * whose config key would be another resource's name. */
static const char *SMALL_EXPORT =
    "{\"version\": 3, \"deployment\": {\"manifest\": {\"time\": \"2024-01-01T00:00:00Z\", \"magic\": \"\", "
    "\"version\": \"v3.100.0\"}, \"resources\": ["
    "{\"urn\": \"urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev\", \"custom\": false, \"type\": "
    "\"pulumi:pulumi:Stack\"},"
    "{\"urn\": \"urn:pulumi:dev::p::pulumi:providers:random::default\", \"custom\": true, \"id\": \"rp\", "
    "\"type\": \"pulumi:providers:random\"},"
    "{\"urn\": \"urn:pulumi:dev::p::pulumi:providers:tls::default\", \"custom\": true, \"id\": \"tp\", "
    "\"type\": \"pulumi:providers:tls\"},"
    "{\"urn\": \"urn:pulumi:dev::p::random:index/randomString:RandomString::a\", \"custom\": true, "
    "\"id\": \"ida-0001\", \"type\": \"random:index/randomString:RandomString\", "
    "\"inputs\": {\"length\": 8, \"keepers\": {\"peer\": \"idb-0002\"}}, "
    "\"outputs\": {\"id\": \"ida-0001\", \"length\": 8, \"result\": \"ida-0001\", \"keepers\": {\"peer\": "
    "\"idb-0002\"}}, "
    "\"provider\": \"urn:pulumi:dev::p::pulumi:providers:random::default::rp\"},"
    "{\"urn\": \"urn:pulumi:dev::p::random:index/randomString:RandomString::b\", \"custom\": true, "
    "\"id\": \"idb-0002\", \"type\": \"random:index/randomString:RandomString\", "
    "\"inputs\": {\"length\": 8, \"keepers\": {\"peer\": \"ida-0001\"}}, "
    "\"outputs\": {\"id\": \"idb-0002\", \"length\": 8, \"result\": \"idb-0002\", \"keepers\": {\"peer\": "
    "\"ida-0001\"}}, "
    "\"provider\": \"urn:pulumi:dev::p::pulumi:providers:random::default::rp\"},"
    "{\"urn\": \"urn:pulumi:dev::p::pulumi:providers:random::pwOverrideSpecial\", \"custom\": true, \"id\": \"cp\", "
    "\"type\": \"pulumi:providers:random\"},"
    "{\"urn\": \"urn:pulumi:dev::p::my:index:Group::grp\", \"custom\": false, \"type\": \"my:index:Group\"},"
    "{\"urn\": \"urn:pulumi:dev::p::random:index/randomString:RandomString::pw\", \"custom\": true, "
    "\"id\": \"pw-0005\", \"type\": \"random:index/randomString:RandomString\", "
    "\"inputs\": {\"length\": 12, \"overrideSpecial\": {\"4dabf18193072939515e22adb298388d\": "
    "\"1b47061264138c4ac30d75fd1eb44270\", \"plaintext\": \"\\\"#%\\\"\"}}, "
    "\"outputs\": {\"id\": \"pw-0005\", \"length\": 12, \"result\": \"pw-0005\", \"overrideSpecial\": "
    "{\"4dabf18193072939515e22adb298388d\": \"1b47061264138c4ac30d75fd1eb44270\", \"plaintext\": \"\\\"#%\\\"\"}}, "
    "\"provider\": \"urn:pulumi:dev::p::pulumi:providers:random::pwOverrideSpecial::cp\"},"
    "{\"urn\": \"urn:pulumi:dev::p::my:index:Group$random:index/randomString:RandomString::pw$x\", "
    "\"custom\": true, \"parent\": \"urn:pulumi:dev::p::my:index:Group::grp\", "
    "\"id\": \"pw-0006\", \"type\": \"random:index/randomString:RandomString\", "
    "\"inputs\": {\"length\": 12, \"overrideSpecial\": {\"4dabf18193072939515e22adb298388d\": "
    "\"1b47061264138c4ac30d75fd1eb44270\", \"plaintext\": \"\\\"!?\\\"\"}}, "
    "\"outputs\": {\"id\": \"pw-0006\", \"length\": 12, \"result\": \"pw-0006\", \"overrideSpecial\": "
    "{\"4dabf18193072939515e22adb298388d\": \"1b47061264138c4ac30d75fd1eb44270\", \"plaintext\": \"\\\"!?\\\"\"}}, "
    "\"provider\": \"urn:pulumi:dev::p::pulumi:providers:random::default::rp\"},"
    "{\"urn\": \"urn:pulumi:dev::p::tls:index/privateKey:PrivateKey::pw\", \"custom\": true, \"id\": \"key-0003\", "
    "\"type\": \"tls:index/privateKey:PrivateKey\", \"inputs\": {\"algorithm\": \"RSA\"}, "
    "\"outputs\": {\"id\": \"key-0003\", \"algorithm\": \"RSA\", "
    "\"privateKeyPem\": {\"4dabf18193072939515e22adb298388d\": \"1b47061264138c4ac30d75fd1eb44270\", "
    "\"plaintext\": \"\\\"PEM-one\\\"\"}, "
    "\"privateKeyPemPkcs8\": {\"4dabf18193072939515e22adb298388d\": \"1b47061264138c4ac30d75fd1eb44270\", "
    "\"plaintext\": \"\\\"PEM-pkcs8\\\"\"}}, "
    "\"provider\": \"urn:pulumi:dev::p::pulumi:providers:tls::default::tp\"},"
    "{\"urn\": \"urn:pulumi:dev::p::tls:index/selfSignedCert:SelfSignedCert::cert\", \"custom\": true, "
    "\"id\": \"cert-0004\", \"type\": \"tls:index/selfSignedCert:SelfSignedCert\", "
    "\"inputs\": {\"privateKeyPem\": {\"4dabf18193072939515e22adb298388d\": \"1b47061264138c4ac30d75fd1eb44270\", "
    "\"plaintext\": \"\\\"PEM-pkcs8\\\"\"}, \"validityPeriodHours\": 1, \"allowedUses\": [\"any\"], "
    "\"subject\": {\"commonName\": \"x\"}}, "
    "\"outputs\": {\"id\": \"cert-0004\", \"validityPeriodHours\": 1, \"allowedUses\": [\"any\"], \"certPem\": \"C\"}, "
    "\"provider\": \"urn:pulumi:dev::p::pulumi:providers:tls::default::tp\"}]}}";

START_TEST(test_stream_equals_held_on_a_small_export) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/export.json", dir);
    ck_assert(tu_write(path, SMALL_EXPORT));
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    ck_assert_int_eq(compare_runs(a, path, schemas, 2), 2);
    /* what the small export is for: each of these is in the code both runs wrote */
    char *out_dir = tu_mkdtemp();
    const char *out = arena_sprintf(a, "%s/main.pp", out_dir);
    run_t r = run_into(path, tu_converted(a, path), schemas, 2, LANG_PCL, PCL_SECRETS_CONFIG, true, out, out_dir, 0);
    ck_assert(r.streamed && r.committed);
    free(r.messages);
    char *code = tu_read(out, NULL);
    ck_assert_ptr_nonnull(code);
    tu_has(code, "privateKeyPem = pw_private_key.privateKeyPemPkcs8");
    tu_has(code, "provider = pwOverrideSpecial"); /* hard edges: an explicit provider and a parent */
    tu_has(code, "parent = grp");
    ck_assert_msg(strstr(code, "\"peer\" = b.id") || strstr(code, "\"peer\" = a.id"), "%s", code);
    tu_has(code, "resource pw_private_key ");   /* the key's name `pw` is a string's */
    tu_has(code, "config pwOverrideSpecial2 "); /* the secret's key is the provider's name */
    free(code);
    tu_rmtree(out_dir);
    free(out_dir);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

START_TEST(test_stream_equals_held_on_shared_exports) {
    arena_t *a = arena_new();
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    size_t n1, n2, n3;
    char **stacks = tu_find_files(a, tu_data(a, "pulumi-state"), "/stack.json", &n1);
    char **states = tu_find_files(a, tu_data(a, "pulumi-state"), "/state.json", &n2);
    char **cps = tu_find_files(a, tu_data(a, "checkpoints"), ".json", &n3);
    ck_assert_int_ge(n1 + n2, 70);
    char **lists[] = {stacks, states, cps};
    size_t streamed = 0;
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; lists[l][i]; i++)
            streamed += compare_runs(a, lists[l][i], schemas, TU_SHARED_SCHEMAS);
    ck_assert_int_ge(streamed, 40);
    arena_free(a);
}
END_TEST

/* A run whose code does not fit (a file size limit stops the spool's writes): the commit refuses,
 * naming the error; the old file is as it was, and nothing else is in its directory. */
START_TEST(test_stream_failed_write_changes_nothing) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/export.json", dir);
    ck_assert(tu_write(path, SMALL_EXPORT));
    const char *out = arena_sprintf(a, "%s/main.pp", dir);
    ck_assert(tu_write(out, "old code\n"));
    char *before = listing(dir);
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails with EFBIG instead of killing */
    /* the inputs set aside while the engine runs (328 bytes) fit, the code (1,540) does not */
    run_t r = run_into(path, tu_converted(a, path), schemas, 2, LANG_PCL, PCL_SECRETS_LITERAL, true, out, dir, 1024);
    ck_assert(r.ran && r.streamed);
    ck_assert(!r.committed);
    free(r.messages);
    char *now = tu_read(out, NULL);
    ck_assert_str_eq(now, "old code\n");
    char *after = listing(dir);
    ck_assert_str_eq(before, after);
    free(now);
    free(before);
    free(after);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* A number beyond a float64 in a state (1e400) is refused for PCL as the held path refuses it
 * (emit_check_pcl, asked of each node as it is printed): the same messages, nothing written. */
START_TEST(test_stream_refuses_as_held) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/export.json", dir);
    const char *at = strstr(SMALL_EXPORT, "\"length\": 12,");
    ck_assert_ptr_nonnull(at);
    ck_assert(tu_write(path, arena_sprintf(a, "%.*s\"length\": 1e400,%s", (int)(at - SMALL_EXPORT), SMALL_EXPORT,
                                           at + strlen("\"length\": 12,"))));
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    import_file_t *file = tu_converted(a, path);
    char *msgs[2];
    for (int stream = 0; stream < 2; stream++) {
        const char *out = arena_sprintf(a, "%s/main%d.pp", dir, stream);
        ck_assert(tu_write(out, "old code\n"));
        run_t r = run_into(path, file, schemas, 2, LANG_PCL, PCL_SECRETS_LITERAL, stream, out, dir, 0);
        ck_assert(!r.ran && !r.streamed && !r.committed);
        char *now = tu_read(out, NULL);
        ck_assert_str_eq(now, "old code\n");
        free(now);
        tu_has(r.messages, "has a number beyond a float64 (Infinity)");
        msgs[stream] = r.messages;
    }
    ck_assert_str_eq(msgs[0], msgs[1]);
    free(msgs[0]);
    free(msgs[1]);
    char *l = listing(dir);
    ck_assert_str_eq(l, "export.json\nmain0.pp\nmain1.pp\n");
    free(l);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* The open files of this process that have no name in dir (a spool's: "dir/#123 (deleted)"). */
static size_t unnamed_in(const char *dir, int *fd_out) {
    size_t n = 0, len = strlen(dir);
    DIR *d = opendir("/proc/self/fd");
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d));) {
        char link[300], target[4096];
        snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
        ssize_t k = readlink(link, target, sizeof target - 1);
        if (k <= 0) continue;
        target[k] = 0;
        const char *gone = " (deleted)";
        if (strncmp(target, dir, len) == 0 && target[len] == '/' && (size_t)k > strlen(gone) &&
            strcmp(target + k - strlen(gone), gone) == 0) {
            n++;
            if (fd_out) *fd_out = (int)strtol(e->d_name, NULL, 10);
        }
    }
    closedir(d);
    return n;
}

typedef struct watch {
    const char *dir;
    size_t unnamed_at_last; /* unnamed files in dir when the last resource was delivered */
    bool seen_last;
} watch_t;

static void on_event_watch(void *user, const session_event_t *ev) {
    watch_t *w = user;
    if (ev->kind != SESSION_EVENT_RESULT || ev->done != ev->total) return;
    w->seen_last = true;
    w->unnamed_at_last = unnamed_in(w->dir, NULL);
}

/* While the engine reads the resources, a streamed run holds their inputs in a file that has no name
 * in the code's directory (not in memory: 1,000,000 resources' inputs are 400 MB), and the code it
 * writes is the held run's (test_stream_equals_held_*). Nothing is left once the run ends. */
START_TEST(test_stream_sets_inputs_aside) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/export.json", dir);
    ck_assert(tu_write(path, SMALL_EXPORT));
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    char *out_dir = tu_mkdtemp();
    for (int stream = 0; stream < 2; stream++) {
        session_options_t so;
        session_options_default(&so);
        so.offline_state = path;
        so.schemas = schemas;
        so.n_schemas = 2;
        so.language = LANG_PCL;
        so.language_set = true;
        so.lean_results = true;
        so.out_path = arena_sprintf(a, "%s/main.pp", out_dir);
        so.secrets_dir = out_dir;
        so.stream_code = stream;
        watch_t w = {.dir = out_dir};
        so.on_event = on_event_watch;
        so.user = &w;
        import_session_t s;
        session_init(&s, &so);
        diag_list_t d;
        diag_list_init(&d);
        ck_assert(session_prepare(&s, &d));
        ck_assert(session_run(&s, tu_converted(a, path)));
        ck_assert(w.seen_last);
        ck_assert_uint_eq(w.unnamed_at_last, stream ? 1 : 0);
        diag_list_free(&d);
        session_free(&s);
        ck_assert_uint_eq(unnamed_in(out_dir, NULL), 0);
    }
    char *l = listing(out_dir);
    ck_assert_str_eq(l, "");
    free(l);
    tu_rmtree(out_dir);
    free(out_dir);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* The spill itself: what is read back is what was put, of each kind, in order and out of order, one kind
 * in order while the other is read anywhere, for thousands of records (more than one chunk), and the
 * file's bytes hold no secret's plaintext; a spill never has a name in its directory. */
START_TEST(test_result_spill_reads_back_and_hides_secrets) {
    char *dir = tu_mkdtemp();
    arena_t *a = arena_new();
    const char *beside = arena_sprintf(a, "%s/main.pp", dir);
    enum { N = 3000 };
    result_spill_t *sp = result_spill_new(beside, N + 1);
    ck_assert_ptr_nonnull(sp);
    pv_t *vals[N], *outs[N];
    for (size_t i = 0; i < N; i++) {
        pv_t *o = pv_object(a);
        pv_object_set(a, o, "length", pv_number(a, (double)i));
        pv_object_set(a, o, "password", pv_secret(a, pv_string(a, arena_sprintf(a, "hunter2-%05zu-secret", i))));
        vals[i] = i % 7 == 3 ? NULL : o; /* some have none */
        result_spill_put(sp, RESULT_SPILL_INPUTS, i, vals[i]);
        outs[i] = i % 5 == 1 ? NULL : pv_object(a);
        if (outs[i]) pv_object_set(a, outs[i], "name", pv_string(a, arena_sprintf(a, "name-%zu", i)));
        result_spill_put(sp, RESULT_SPILL_OUTPUTS, i, outs[i]);
    }
    ck_assert_int_eq(result_spill_finish(sp), 0);
    int fd = -1;
    ck_assert_uint_eq(unnamed_in(dir, &fd), 1);
    char *l = listing(dir);
    ck_assert_str_eq(l, "");
    free(l);
    /* what is on disk: no plaintext of any secret, nor of a key */
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    size_t len = 0;
    char *bytes = tu_read(proc, &len);
    ck_assert_ptr_nonnull(bytes);
    ck_assert_uint_gt(len, 100000);
    ck_assert_ptr_null(memmem(bytes, len, "hunter2", 7));
    ck_assert_ptr_null(memmem(bytes, len, "password", 8));
    free(bytes);
    bool failed = false;
    for (size_t i = 0; i < N; i++) { /* in order, another resource's outputs read beside each */
        const pv_t *v = result_spill_get(sp, RESULT_SPILL_INPUTS, i, &failed);
        size_t j = (i * 7919) % N;
        const pv_t *o = result_spill_get(sp, RESULT_SPILL_OUTPUTS, j, &failed);
        ck_assert_msg(vals[i] ? v && pv_equal(v, vals[i]) : v == NULL, "record %zu", i);
        ck_assert_msg(outs[j] ? o && pv_equal(o, outs[j]) : o == NULL, "outputs %zu", j);
    }
    for (size_t i = N; i-- > 0;) { /* backwards: each from its own window */
        const pv_t *v = result_spill_get(sp, RESULT_SPILL_INPUTS, i, &failed);
        ck_assert_msg(vals[i] ? v && pv_equal(v, vals[i]) : v == NULL, "record %zu", i);
    }
    ck_assert_ptr_null(result_spill_get(sp, RESULT_SPILL_INPUTS, N, &failed)); /* never put */
    ck_assert(!failed);
    result_spill_drop(sp, RESULT_SPILL_INPUTS);
    result_spill_free(sp);
    ck_assert_uint_eq(unnamed_in(dir, NULL), 0);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* A run whose inputs cannot be set aside (a file size limit stops the spill's writes before any code is
 * made) refuses before generating, naming the error: the old file is as it was, nothing else is left. */
START_TEST(test_stream_failed_spill_changes_nothing) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/export.json", dir);
    ck_assert(tu_write(path, SMALL_EXPORT));
    const char *out = arena_sprintf(a, "%s/main.pp", dir);
    ck_assert(tu_write(out, "old code\n"));
    char *before = listing(dir);
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    signal(SIGXFSZ, SIG_IGN);
    run_t r = run_into(path, tu_converted(a, path), schemas, 2, LANG_PCL, PCL_SECRETS_CONFIG, true, out, dir, 256);
    ck_assert(!r.ran && !r.streamed && !r.committed);
    tu_has(r.messages, "cannot write a temporary file in this file's directory, where the resources' inputs are set "
                       "aside while the resources are read (File too large): nothing was written");
    free(r.messages);
    char *now = tu_read(out, NULL);
    ck_assert_str_eq(now, "old code\n");
    char *after = listing(dir);
    ck_assert_str_eq(before, after);
    free(now);
    free(before);
    free(after);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* A spool is never a name in its directory: not while it is written, not once its process is killed;
 * committed, its text is the file's. */
START_TEST(test_spool_has_no_name) {
    char *dir = tu_mkdtemp();
    size_t n = strlen(dir) + 16;
    char *path = malloc(n);
    snprintf(path, n, "%s/out.txt", dir);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        spool_t *s = spool_new(path);
        if (!s) _exit(3);
        spool_write(s, "half", 4);
        raise(SIGKILL);
        _exit(4);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    char *l = listing(dir);
    ck_assert_str_eq(l, "");
    free(l);

    spool_t *s = spool_new(path);
    ck_assert_ptr_nonnull(s);
    buf_t b = {0};
    for (int i = 0; i < 20000; i++)
        buf_printf(&b, "line %d\n", i);
    size_t len = b.len;
    char *want = strdup(b.data);
    spool_take(s, &b);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_uint_eq(spool_size(s), len);
    l = listing(dir);
    ck_assert_str_eq(l, "");
    free(l);
    txn_t *t = txn_new(NULL);
    txn_write_spool(t, path, s, 0644, false);
    const char **changed;
    size_t n_changed;
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(txn_dry_run(t, &changed, &n_changed, &d));
    ck_assert_uint_eq(n_changed, 1);
    free(changed);
    ck_assert(txn_commit(t, &d));
    txn_free(t);
    size_t got_len = 0;
    char *got = tu_read(path, &got_len);
    ck_assert_uint_eq(got_len, len);
    ck_assert(memcmp(got, want, len) == 0);
    /* the spool's own file took the name (the text is not written a second time), with the mode asked */
    struct stat placed;
    ck_assert_int_eq(stat(path, &placed), 0);
    ck_assert_int_eq(placed.st_mode & 07777, 0644);
    ck_assert_uint_eq(placed.st_ino, spool_inode(s));
    /* the same text again: a dry run finds no change */
    t = txn_new(NULL);
    txn_write_spool(t, path, s, 0644, false);
    ck_assert(txn_dry_run(t, &changed, &n_changed, &d));
    ck_assert_uint_eq(n_changed, 0);
    txn_free(t);
    /* placed a second time (another file), the text is copied: two names never share one file */
    size_t n2 = strlen(dir) + 16;
    char *path2 = malloc(n2);
    snprintf(path2, n2, "%s/two.txt", dir);
    t = txn_new(NULL);
    txn_write_spool(t, path2, s, 0600, false);
    ck_assert(txn_commit(t, &d));
    txn_free(t);
    struct stat second;
    ck_assert_int_eq(stat(path2, &second), 0);
    ck_assert_uint_ne(second.st_ino, placed.st_ino);
    ck_assert_int_eq(second.st_mode & 07777, 0600);
    ck_assert_int_eq(stat(path, &placed), 0);
    ck_assert_int_eq(placed.st_mode & 07777, 0644);
    char *got2 = tu_read(path2, &got_len);
    ck_assert_uint_eq(got_len, len);
    ck_assert(memcmp(got2, want, len) == 0);
    free(got2);
    unlink(path2);
    free(path2);
    l = listing(dir);
    ck_assert_str_eq(l, "out.txt\n");
    free(l);
    spool_free(s);
    buf_free(&b);
    free(got);
    free(want);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
    free(path);
}
END_TEST

/* Resources the code's `import` option cannot import (a RandomPet: its provider implements no importer)
 * fail, each with the reason, and the others are written; the reason is held once for all of them (a
 * copy each, in a list block of its own each, was a third of a 100,000-resource run's peak). */
START_TEST(test_stream_failures_share_their_reason) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/export.json", dir);
    buf_t b = {0};
    buf_puts(&b,
             "{\"version\": 3, \"deployment\": {\"manifest\": {\"time\": \"2024-01-01T00:00:00Z\", \"magic\": \"\", "
             "\"version\": \"v3.100.0\"}, \"resources\": ["
             "{\"urn\": \"urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev\", \"custom\": false, \"type\": "
             "\"pulumi:pulumi:Stack\"},"
             "{\"urn\": \"urn:pulumi:dev::p::pulumi:providers:random::default\", \"custom\": true, \"id\": "
             "\"rp\", \"type\": \"pulumi:providers:random\"}");
    for (int i = 0; i < 5; i++)
        buf_printf(&b,
                   ",{\"urn\": \"urn:pulumi:dev::p::random:index/randomPet:RandomPet::pet%d\", \"custom\": true, "
                   "\"id\": \"good-pet-%d\", \"type\": \"random:index/randomPet:RandomPet\", \"inputs\": {\"length\": "
                   "2, \"separator\": \"-\"}, \"outputs\": {\"id\": \"good-pet-%d\", \"length\": 2, \"separator\": "
                   "\"-\"}, \"provider\": \"urn:pulumi:dev::p::pulumi:providers:random::default::rp\"}",
                   i, i, i);
    buf_puts(&b, ",{\"urn\": \"urn:pulumi:dev::p::random:index/randomString:RandomString::s\", \"custom\": true, "
                 "\"id\": \"abc\", \"type\": \"random:index/randomString:RandomString\", \"inputs\": {\"length\": 3}, "
                 "\"outputs\": {\"id\": \"abc\", \"length\": 3, \"result\": \"abc\"}, \"provider\": "
                 "\"urn:pulumi:dev::p::pulumi:providers:random::default::rp\"}]}}");
    ck_assert(tu_write(path, b.data));
    free(b.data);
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    session_options_t so;
    session_options_default(&so);
    so.offline_state = path;
    so.schemas = schemas;
    so.n_schemas = 2;
    so.language = LANG_PCL;
    so.language_set = true;
    so.secrets = PCL_SECRETS_LITERAL;
    so.lean_results = true;
    so.out_path = arena_sprintf(a, "%s/main.pp", dir);
    so.stream_code = true;
    so.import_option = true; /* as the CLI without a stack */
    import_session_t s;
    session_init(&s, &so);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(session_prepare(&s, &d));
    ck_assert(session_run(&s, tu_converted(a, path)));
    ck_assert_ptr_nonnull(s.code_spool);
    const char *reason = NULL;
    size_t failed = 0;
    for (size_t i = 0; i < s.plan->n_items; i++) {
        const import_result_t *r = &s.results[i];
        if (strcmp(s.plan->items[i].type, "random:index/randomPet:RandomPet") != 0) {
            ck_assert_int_eq(r->status, IMPORT_OK);
            continue;
        }
        ck_assert_int_eq(r->status, IMPORT_FAILED);
        const diag_t *x = r->diags.tail;
        ck_assert_ptr_nonnull(x);
        ck_assert_ptr_nonnull(strstr(x->message, "its provider implements no importer for random_pet"));
        ck_assert_ptr_nonnull(strstr(x->resource, s.plan->items[i].logical_name));
        if (reason) ck_assert_ptr_eq(x->message, reason); /* one text, not a copy each */
        reason = x->message;
        failed++;
    }
    ck_assert_uint_eq(failed, 5);
    ck_assert_uint_eq(s.n_ok, 1);
    diag_list_free(&d);
    session_free(&s);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

int main(void) {
    unsetenv("PULUMI_CONFIG_PASSPHRASE");
    unsetenv("PULUMI_CONFIG_PASSPHRASE_FILE");
    Suite *s = suite_create("session_stream");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_spool_has_no_name);
    tcase_add_test(tc, test_stream_equals_held_on_a_small_export);
    tcase_add_test(tc, test_stream_failed_write_changes_nothing);
    tcase_add_test(tc, test_stream_refuses_as_held);
    tcase_add_test(tc, test_stream_failures_share_their_reason);
    tcase_add_test(tc, test_stream_sets_inputs_aside);
    tcase_add_test(tc, test_result_spill_reads_back_and_hides_secrets);
    tcase_add_test(tc, test_stream_failed_spill_changes_nothing);
    tcase_add_test(tc, test_stream_equals_held_on_shared_exports);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

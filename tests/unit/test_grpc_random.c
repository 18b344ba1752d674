/* test_grpc_random.c — end to end against a REAL Node.js provider: examples/providers/random
 * (pulumi-random's schema and import behaviour on Pulumi's own provider host, grpc-js). The test
 * starts `pulumi-resource-random`, reads its port, attaches with grpc_provider_attach, then:
 * Read/Check/Diff directly for RandomPassword/RandomString/RandomInteger/RandomId (values, secrets,
 * defaults, detailed diffs, errors), GetSchema with the on-disk cache, and a whole import of the four
 * types through the engine (importer/engine.h). The password must never appear in plaintext in any
 * output. Needs node and `npm ci` in examples/providers (run here when node_modules is missing). */
#define _GNU_SOURCE
#include <check.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "importer/engine.h"
#include "importer/grpc_provider.h"
#include "testutil.h"

#define PASSWORD "correct-Horse-battery-staple-42"
#define PKG_DIR SOURCE_DIR "/examples/providers"
#define PLUGIN PKG_DIR "/random/pulumi-resource-random"
#define STACK "dev"
#define PROJECT "proj"
#define URN(type, name) "urn:pulumi:" STACK "::" PROJECT "::random:index/" type "::" name

typedef struct plugin {
    pid_t pid;
    int out; /* the plugin's stdout, kept open so it never gets EPIPE */
    int port;
} plugin_t;

static void ensure_node_modules(void) {
    struct stat st;
    if (stat(PKG_DIR "/node_modules/@pulumi/pulumi/package.json", &st) == 0) return;
    int status;
    char *out = tu_run("cd '" PKG_DIR "' && npm ci --ignore-scripts --no-audit --no-fund 2>&1", &status);
    ck_assert_msg(status == 0, "npm ci in examples/providers failed:\n%s", out);
    free(out);
}

/* Starts the plugin in its own process group and reads the port line one byte at a time, as the
 * engine does. */
static char *cache_dir;

static void plugin_start(plugin_t *p) {
    ensure_node_modules();
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    p->pid = fork();
    ck_assert_int_ge(p->pid, 0);
    if (p->pid == 0) {
        setpgid(0, 0);
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        /* stderr goes to a file the tests search for the password */
        char errpath[4096];
        snprintf(errpath, sizeof errpath, "%s/plugin.stderr", cache_dir);
        int err = open(errpath, O_WRONLY | O_CREAT | O_APPEND, 0600);
        dup2(err, 2);
        execl(PLUGIN, PLUGIN, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    p->out = fds[0];
    char line[32];
    size_t n = 0;
    for (;;) {
        struct pollfd pfd = {.fd = p->out, .events = POLLIN};
        ck_assert_msg(poll(&pfd, 1, 30000) == 1, "the random plugin printed no port within 30 s");
        char c;
        ck_assert_msg(read(p->out, &c, 1) == 1, "the random plugin exited before printing its port");
        if (c == '\n') break;
        ck_assert_uint_lt(n, sizeof line - 1);
        line[n++] = c;
    }
    line[n] = 0;
    p->port = atoi(line);
    ck_assert_int_gt(p->port, 0);
}

static void plugin_stop(plugin_t *p) {
    kill(-p->pid, SIGINT);
    int status;
    for (int i = 0; i < 50 && waitpid(p->pid, &status, WNOHANG) == 0; i++)
        usleep(100 * 1000);
    if (waitpid(p->pid, &status, WNOHANG) == 0) {
        kill(-p->pid, SIGKILL);
        waitpid(p->pid, &status, 0);
    }
    close(p->out);
}

static void setup(void) {
    cache_dir = tu_mkdtemp();
    setenv("XDG_CACHE_HOME", cache_dir, 1);
}

static void teardown(void) {
    tu_rmtree(cache_dir);
    free(cache_dir);
}

static provider_t *attach(plugin_t *pl, diag_list_t *d) {
    plugin_start(pl);
    provider_t *p = grpc_provider_attach("random", NULL, pl->port, NULL, d);
    ck_assert_msg(p != NULL, "attach failed: %s", d->head ? d->head->message : "?");
    ck_assert_int_eq(d->errors, 0);
    return p;
}

static char *display(arena_t *a, const pv_t *v) {
    cJSON *j = pv_to_display_json(v, false);
    char *s = cJSON_PrintUnformatted(j);
    char *r = arena_strdup(a, s);
    free(s);
    cJSON_Delete(j);
    return r;
}

static double num(const pv_t *obj, const char *key) {
    const pv_t *v = pv_unwrap(pv_object_get(obj, key));
    ck_assert_msg(v && v->kind == PV_NUMBER, "%s is not a number", key);
    return v->u.n;
}

static const char *str(const pv_t *obj, const char *key) {
    const pv_t *v = pv_object_get(obj, key);
    ck_assert_msg(v && v->kind == PV_STRING, "%s is not a plain string", key);
    return v->u.str.s;
}

START_TEST(test_password_read_check_diff) {
    plugin_t pl;
    diag_list_t d;
    diag_list_init(&d);
    provider_t *p = attach(&pl, &d);
    ck_assert_str_eq(grpc_provider_plugin_version(p), "4.21.1");
    arena_t *a = arena_new();
    const char *urn = URN("randomPassword:RandomPassword", "pw");

    provider_read_result_t rr;
    ck_assert(provider_read(p, urn, PASSWORD, NULL, NULL, a, &rr, &d));
    ck_assert_str_eq(rr.id, "none");
    pv_t *result = pv_object_get(rr.state, "result");
    ck_assert_int_eq(result->kind, PV_SECRET);
    ck_assert_str_eq(result->u.secret.inner->u.str.s, PASSWORD);
    ck_assert_int_eq(pv_object_get(rr.state, "bcryptHash")->kind, PV_SECRET);
    ck_assert_double_eq(num(rr.inputs, "length"), strlen(PASSWORD));
    ck_assert(pv_object_get(rr.inputs, "special")->u.b);
    ck_assert_ptr_null(pv_object_get(rr.inputs, "result"));
    /* The secret is only ever shown masked. */
    ck_assert_ptr_null(strstr(display(a, rr.state), PASSWORD));
    ck_assert_ptr_nonnull(strstr(display(a, rr.state), "\"result\":\"[secret]\""));

    /* Check with only the required input fills the documented defaults. */
    pv_t *news = pv_object(a);
    pv_object_set(a, news, "length", pv_number(a, strlen(PASSWORD)));
    provider_check_result_t cr;
    ck_assert(provider_check(p, urn, rr.inputs, news, NULL, 0, a, &cr, &d));
    ck_assert_uint_eq(cr.n_failures, 0);
    ck_assert(pv_object_get(cr.inputs, "lower")->u.b && pv_object_get(cr.inputs, "upper")->u.b &&
              pv_object_get(cr.inputs, "numeric")->u.b && pv_object_get(cr.inputs, "number")->u.b);
    ck_assert_double_eq(num(cr.inputs, "minSpecial"), 0);

    /* Same inputs: no diff. */
    provider_diff_result_t dr;
    ck_assert(provider_diff(p, urn, rr.id, rr.state, rr.inputs, cr.inputs, a, &dr, &d));
    ck_assert_int_eq(dr.changes, DIFF_NONE);
    ck_assert_uint_eq(dr.n_detailed, 0);

    /* Different length and special: detailed paths, replacement. */
    pv_object_set(a, cr.inputs, "length", pv_number(a, 12));
    pv_object_set(a, cr.inputs, "special", pv_bool(a, false));
    ck_assert(provider_diff(p, urn, rr.id, rr.state, rr.inputs, cr.inputs, a, &dr, &d));
    ck_assert_int_eq(dr.changes, DIFF_SOME);
    ck_assert(dr.has_detailed_diff);
    ck_assert_uint_eq(dr.n_detailed, 2);
    ck_assert_str_eq(dr.detailed[0].path, "length");
    ck_assert_int_eq(dr.detailed[0].kind, PDIFF_UPDATE_REPLACE);
    ck_assert_str_eq(dr.detailed[1].path, "special");
    ck_assert_uint_eq(dr.n_diffs, 2);
    ck_assert_uint_eq(dr.n_replaces, 2);

    /* Missing required input: a Check failure, not an error. */
    ck_assert(provider_check(p, urn, NULL, NULL, NULL, 0, a, &cr, &d));
    ck_assert_uint_eq(cr.n_failures, 1);
    ck_assert_str_eq(cr.failures[0].property, "length");
    ck_assert_str_eq(cr.failures[0].reason, "Missing required property 'length'");
    ck_assert_int_eq(d.errors, 0);

    p->ops->close(p);
    plugin_stop(&pl);
    arena_free(a);
    diag_list_free(&d);
}
END_TEST

START_TEST(test_string_integer_id) {
    plugin_t pl;
    diag_list_t d;
    diag_list_init(&d);
    provider_t *p = attach(&pl, &d);
    arena_t *a = arena_new();
    provider_read_result_t rr;

    ck_assert(provider_read(p, URN("randomString:RandomString", "s"), "hello-World_42", NULL, NULL, a, &rr, &d));
    ck_assert_str_eq(rr.id, "hello-World_42");
    ck_assert_str_eq(str(rr.state, "result"), "hello-World_42");
    ck_assert_double_eq(num(rr.inputs, "length"), 14);

    ck_assert(provider_read(p, URN("randomInteger:RandomInteger", "i"), "15390,1,50000", NULL, NULL, a, &rr, &d));
    ck_assert_str_eq(rr.id, "15390");
    ck_assert_double_eq(num(rr.state, "result"), 15390);
    ck_assert_double_eq(num(rr.inputs, "min"), 1);
    ck_assert_double_eq(num(rr.inputs, "max"), 50000);
    ck_assert_ptr_null(pv_object_get(rr.inputs, "seed"));

    ck_assert(provider_read(p, URN("randomId:RandomId", "id"), "my-prefix-,p-9hUg", NULL, NULL, a, &rr, &d));
    ck_assert_str_eq(rr.id, "p-9hUg");
    ck_assert_str_eq(str(rr.state, "b64Url"), "my-prefix-p-9hUg");
    ck_assert_str_eq(str(rr.state, "b64Std"), "my-prefix-p+9hUg==");
    ck_assert_str_eq(str(rr.state, "hex"), "my-prefix-a7ef6152");
    ck_assert_str_eq(str(rr.state, "dec"), "my-prefix-2817483090");
    ck_assert_double_eq(num(rr.inputs, "byteLength"), 4);
    ck_assert_str_eq(str(rr.inputs, "prefix"), "my-prefix-");
    ck_assert_int_eq(d.errors, 0);

    /* A bad import ID: the provider's error comes back as a diagnostic naming the resource. */
    ck_assert(!provider_read(p, URN("randomInteger:RandomInteger", "bad"), "abc", NULL, NULL, a, &rr, &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(d.head->resource, "resource 'bad' of type 'random:index/randomInteger:RandomInteger'");
    ck_assert_str_eq(d.head->message, "the random provider's Read failed (UNKNOWN): invalid import ID 'abc': "
                                      "expected result,min,max[,seed]");
    p->ops->close(p);
    plugin_stop(&pl);
    arena_free(a);
    diag_list_free(&d);
}
END_TEST

/* Attaches as the plugin host does for a plugin it launched from `binary` (the file the schema cache
 * keys an entry by), asking for `version` (NULL: none). */
static provider_t *attach_as(plugin_t *pl, const char *binary, const char *version, diag_list_t *d) {
    plugin_start(pl);
    grpc_provider_options_t o;
    grpc_provider_options_default(&o);
    o.plugin_path = binary;
    provider_t *p = grpc_provider_attach_with("random", version, pl->port, NULL, &o, d);
    ck_assert_msg(p != NULL, "attach failed: %s", d->head ? d->head->message : "?");
    return p;
}

/* The cache's entries for the random provider's version 4.21.1 (any plugin), in a fresh arena string:
 * their count, and the last one's path in *path. */
static size_t cache_entries(arena_t *a, char **path) {
    char *pat = arena_sprintf(a, "%s/cimport/schemas/random-*.json", cache_dir);
    glob_t g;
    size_t n = 0;
    *path = NULL;
    if (glob(pat, 0, NULL, &g) == 0) {
        n = g.gl_pathc;
        *path = arena_strdup(a, g.gl_pathv[n - 1]);
        globfree(&g);
    }
    return n;
}

START_TEST(test_schema_and_cache) {
    plugin_t pl;
    diag_list_t d;
    diag_list_init(&d);
    arena_t *a = arena_new();
    /* the plugin's binary, as far as the cache knows it: a file of the test's own it can touch */
    char *binary = arena_sprintf(a, "%s/pulumi-resource-random", cache_dir);
    tu_write(binary, "#!/bin/sh\n");
    struct timespec old[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
    ck_assert_int_eq(utimensat(AT_FDCWD, binary, old, 0), 0);
    /* asked for 9.9.9, the plugin reports 4.21.1: the entry is 4.21.1's, never 9.9.9's */
    provider_t *p = attach_as(&pl, binary, "9.9.9", &d);
    schema_package_t *s = p->ops->get_schema(p, &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s->name, "random");
    ck_assert_ptr_nonnull(schema_find_resource(s, "random:index/randomPassword:RandomPassword"));
    ck_assert_ptr_eq(p->ops->get_schema(p, &d), s); /* cached in memory */
    /* Cached on disk per package, reported version and plugin binary, byte for byte what it served. */
    char *cached;
    ck_assert_uint_eq(cache_entries(a, &cached), 1);
    ck_assert_msg(strstr(cached, "/random-4.21.1-") != NULL, "entry %s", cached);
    size_t n1, n2;
    char *c1 = tu_read(cached, &n1);
    char *c2 = tu_read(SHARED_DATA "/schemas/random/schema.json", &n2);
    ck_assert_ptr_nonnull(c1);
    ck_assert_uint_eq(n1, n2);
    ck_assert(memcmp(c1, c2, n1) == 0);
    free(c1);
    free(c2);
    p->ops->close(p);
    plugin_stop(&pl);

    /* A new provider from the same binary loads the cache without GetSchema: prove it by serving a
     * cache entry the plugin could never have sent. */
    const char *fake = "{\"name\":\"random\",\"version\":\"4.21.1\",\"resources\":{\"random:index/onlyInCache:X\":{}}}";
    tu_write(cached, fake);
    p = attach_as(&pl, binary, NULL, &d);
    s = p->ops->get_schema(p, &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(schema_find_resource(s, "random:index/onlyInCache:X"));
    ck_assert_int_eq(d.errors, 0);
    p->ops->close(p);
    plugin_stop(&pl);

    /* The binary replaced since the entry was written (a rebuilt plugin of the same version): the entry
     * is stale, the plugin is asked again and the entry rewritten. */
    ck_assert_int_eq(utimensat(AT_FDCWD, binary, NULL, 0), 0);
    struct timespec past[2] = {{.tv_sec = 1000000001}, {.tv_sec = 1000000001}};
    ck_assert_int_eq(utimensat(AT_FDCWD, cached, past, 0), 0);
    p = attach_as(&pl, binary, NULL, &d);
    s = p->ops->get_schema(p, &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_null(schema_find_resource(s, "random:index/onlyInCache:X"));
    ck_assert_ptr_nonnull(schema_find_resource(s, "random:index/randomPassword:RandomPassword"));
    p->ops->close(p);
    plugin_stop(&pl);
    c1 = tu_read(cached, &n1);
    ck_assert_uint_eq(n1, n2);
    free(c1);

    /* Another binary of the same version has its own entry. */
    char *other = arena_sprintf(a, "%s/other-random", cache_dir);
    tu_write(other, "#!/bin/sh\n");
    p = attach_as(&pl, other, NULL, &d);
    ck_assert_ptr_nonnull(p->ops->get_schema(p, &d));
    p->ops->close(p);
    plugin_stop(&pl);
    ck_assert_uint_eq(cache_entries(a, &cached), 2);

    /* A plugin attached to (started by someone else, `--attach`): no binary to key by, so no entry
     * is read or written. */
    tu_rmtree(arena_sprintf(a, "%s/cimport", cache_dir));
    p = attach(&pl, &d);
    ck_assert_ptr_nonnull(p->ops->get_schema(p, &d));
    p->ops->close(p);
    plugin_stop(&pl);
    ck_assert_uint_eq(cache_entries(a, &cached), 0);
    arena_free(a);
    diag_list_free(&d);
}
END_TEST

static provider_t *factory(void *user, const char *package, const char *version, const char *url, diag_list_t *diags) {
    (void)version;
    (void)url;
    (void)diags;
    ck_assert_str_eq(package, "random");
    return user;
}

START_TEST(test_engine_import) {
    plugin_t pl;
    diag_list_t d;
    diag_list_init(&d);
    provider_t *p = attach(&pl, &d);
    arena_t *a = arena_new();
    const char *spec =
        "{\"resources\":["
        "{\"type\":\"random:index/randomPassword:RandomPassword\",\"name\":\"pw\",\"id\":\"" PASSWORD "\"},"
        "{\"type\":\"random:index/randomString:RandomString\",\"name\":\"str\",\"id\":\"abcDEF123\"},"
        "{\"type\":\"random:index/randomInteger:RandomInteger\",\"name\":\"int\",\"id\":\"7,1,10\"},"
        "{\"type\":\"random:index/randomId:RandomId\",\"name\":\"rid\",\"id\":\"p-9hUg\"}]}";
    import_file_t *f = import_file_parse(a, spec, strlen(spec), "imports.json", &d);
    ck_assert_ptr_nonnull(f);
    import_plan_t *plan = import_plan_build(a, f, STACK, PROJECT, false, &d);
    ck_assert_ptr_nonnull(plan);
    provider_registry_t *reg = provider_registry_new(factory, p);
    schema_set_t *schemas = schema_set_new();
    import_result_t *res = engine_run(a, plan, reg, schemas, NULL, &d);
    ck_assert_uint_eq(plan->n_items, 4);
    for (size_t i = 0; i < 4; i++) {
        const diag_t *first = res[i].diags.head;
        ck_assert_msg(res[i].status == IMPORT_OK, "%s: %s", plan->items[i].logical_name,
                      first ? first->message : "no diagnostic");
        ck_assert_msg(res[i].verified, "%s not verified", plan->items[i].logical_name);
    }
    /* Minimal inputs: the required ones (the rest equal the defaults Check fills). */
    ck_assert_str_eq(display(a, res[0].inputs), "{\"length\":31}");
    ck_assert_str_eq(display(a, res[1].inputs), "{\"length\":9}");
    ck_assert_str_eq(display(a, res[2].inputs), "{\"max\":10,\"min\":1}");
    ck_assert_str_eq(display(a, res[3].inputs), "{\"byteLength\":4}");
    ck_assert_str_eq(res[0].id, "none");
    ck_assert_int_eq(pv_object_get(res[0].state, "result")->kind, PV_SECRET);
    /* The password appears nowhere in plaintext: states, inputs, diagnostics. */
    for (size_t i = 0; i < 4; i++) {
        ck_assert_ptr_null(strstr(display(a, res[i].state), PASSWORD));
        ck_assert_ptr_null(strstr(display(a, res[i].inputs), PASSWORD));
        for (const diag_t *x = res[i].diags.head; x; x = x->next)
            ck_assert_ptr_null(strstr(x->message, PASSWORD));
    }
    for (const diag_t *x = d.head; x; x = x->next)
        ck_assert_ptr_null(strstr(x->message, PASSWORD));
    char *errpath = arena_sprintf(a, "%s/plugin.stderr", cache_dir);
    char *errtext = tu_read(errpath, NULL);
    if (errtext) ck_assert_ptr_null(strstr(errtext, PASSWORD));
    free(errtext);
    engine_results_free(res, plan->n_items);
    provider_registry_free(reg); /* closes the provider */
    schema_set_free(schemas);
    plugin_stop(&pl);
    arena_free(a);
    diag_list_free(&d);
}
END_TEST

START_TEST(test_attach_refused_and_plugin_gone) {
    plugin_t pl;
    diag_list_t d;
    diag_list_init(&d);
    provider_t *p = attach(&pl, &d);
    plugin_stop(&pl);
    arena_t *a = arena_new();
    provider_read_result_t rr;
    ck_assert(!provider_read(p, URN("randomString:RandomString", "s"), "x", NULL, NULL, a, &rr, &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_ptr_nonnull(strstr(d.head->message, "the random provider's Read failed (UNAVAILABLE): "));
    p->ops->close(p);
    /* Nothing listens there any more. */
    ck_assert_ptr_null(grpc_provider_attach("random", NULL, pl.port, NULL, &d));
    ck_assert_int_eq(d.errors, 2);
    char want[200];
    snprintf(want, sizeof want,
             "cannot connect to the provider at 127.0.0.1:%d: Connection refused; check that the plugin is running "
             "and listening on that port",
             pl.port);
    ck_assert_str_eq(d.tail->message, want);
    arena_free(a);
    diag_list_free(&d);
}
END_TEST

int main(void) {
    Suite *s = suite_create("grpc_random");
    TCase *tc = tcase_create("grpc_random");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_password_read_check_diff);
    tcase_add_test(tc, test_string_integer_id);
    tcase_add_test(tc, test_schema_and_cache);
    tcase_add_test(tc, test_engine_import);
    tcase_add_test(tc, test_attach_refused_and_plugin_gone);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

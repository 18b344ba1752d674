/* test_plugin.c — the plugin host (importer/plugin.h, importer/plugin_host.h): version rules and
 * discovery over temporary plugin caches, launching (port line, crashes, silence, garbage), process
 * groups and signal cleanup, downloads from a local HTTP server, provider config parsing, and whole
 * imports through engine_run against the Node.js random and fault providers in examples/providers. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "importer/engine.h"
#include "importer/plugin.h"
#include "importer/plugin_host.h"
#include "specs/importfile.h"
#include "specs/passphrase.h"
#include "testutil.h"

#define RANDOM_PLUGIN SOURCE_DIR "/examples/providers/random/pulumi-resource-random"
#define FAULT_PLUGIN SOURCE_DIR "/examples/providers/fault/pulumi-resource-fault"

/* --- helpers ------------------------------------------------------------------------------------- */

static void write_exec(const char *path, const char *text) {
    ck_assert(tu_write(path, text));
    ck_assert_int_eq(chmod(path, 0755), 0);
}

static void mkdirs(const char *path) {
    char *p = strdup(path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
    free(p);
}

/* A plugin executable at dir/name that execs `target` (so the pid stays the same). */
static void write_wrapper(arena_t *a, const char *dir, const char *name, const char *target) {
    mkdirs(dir);
    write_exec(arena_sprintf(a, "%s/%s", dir, name), arena_sprintf(a, "#!/bin/sh\nexec %s \"$@\"\n", target));
}

static bool pid_gone(pid_t pid, int ms) {
    for (int i = 0; i < ms / 10; i++) {
        if (kill(pid, 0) != 0 && errno == ESRCH) return true;
        /* A zombie reparented to init still answers kill(0); /proc says whether it is one. */
        char path[64], state = 0;
        snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fscanf(f, "%*d %*s %c", &state) != 1) state = 0;
            fclose(f);
            if (state == 'Z') return true;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return false;
}

static bool has_diag(const diag_list_t *l, diag_severity_t sev, const char *needle) {
    for (const diag_t *d = l->head; d; d = d->next)
        if (d->severity == sev && strstr(d->message, needle)) return true;
    return false;
}

static const char *all_messages(arena_t *a, const diag_list_t *l) {
    buf_t b;
    buf_init(&b);
    for (const diag_t *d = l->head; d; d = d->next)
        buf_printf(&b, "%s: %s%s%s\n", diag_severity_name(d->severity), d->resource ? d->resource : "",
                   d->resource ? ": " : "", d->message);
    char *s = b.len ? buf_arena_str(&b, a) : arena_strdup(a, "");
    buf_free(&b);
    return s;
}

/* A test environment: temporary PULUMI_HOME, a bin dir that is the whole $PATH besides the system's,
 * and a schema cache. Restores $PATH on teardown. */
typedef struct env {
    arena_t *a;
    char *root, *home, *bin, *cache;
    char *old_path;
} env_t;

static void env_init(env_t *e) {
    memset(e, 0, sizeof *e);
    e->a = arena_new();
    e->root = tu_mkdtemp();
    e->home = arena_sprintf(e->a, "%s/pulumi-home", e->root);
    e->bin = arena_sprintf(e->a, "%s/bin", e->root);
    e->cache = arena_sprintf(e->a, "%s/schema-cache", e->root);
    mkdirs(e->home);
    mkdirs(e->bin);
    e->old_path = strdup(getenv("PATH") ? getenv("PATH") : "");
    setenv("PATH", arena_sprintf(e->a, "%s:/usr/local/bin:/usr/bin:/bin", e->bin), 1);
    unsetenv("PULUMI_DEBUG_PROVIDERS");
    unsetenv("FAULT_PROVIDER_STARTUP");
}

static void env_free(env_t *e) {
    setenv("PATH", e->old_path, 1);
    free(e->old_path);
    tu_rmtree(e->root);
    free(e->root);
    arena_free(e->a);
}

static void host_options(const env_t *e, plugin_host_options_t *o) {
    plugin_host_options_default(o);
    o->pulumi_home = e->home;
    o->schema_cache_dir = e->cache;
    o->download = false;
    o->ignore_debug_env = true;
}

static import_plan_t *plan_from_json(arena_t *a, const char *json) {
    diag_list_t d;
    diag_list_init(&d);
    import_file_t *f = import_file_parse(a, json, strlen(json), "imports.json", &d);
    ck_assert_msg(f, "%s", all_messages(a, &d));
    import_plan_t *p = import_plan_build(a, f, "dev", "proj", false, &d);
    ck_assert_msg(p, "%s", all_messages(a, &d));
    diag_list_free(&d);
    return p;
}

/* --- versions ------------------------------------------------------------------------------------ */

START_TEST(semver_rules) {
    plugin_semver_t a, b;
    ck_assert(plugin_semver_parse("v4.21.1", &a));
    ck_assert_int_eq(a.major, 4);
    ck_assert_int_eq(a.minor, 21);
    ck_assert_int_eq(a.patch, 1);
    ck_assert_str_eq(a.pre, "");
    ck_assert(plugin_semver_parse("1.2.3-alpha.10+build.5", &b));
    ck_assert_str_eq(b.pre, "alpha.10");
    ck_assert(!plugin_semver_parse("1.2", &a));
    ck_assert(!plugin_semver_parse("01.2.3", &a));
    ck_assert(!plugin_semver_parse("1.2.3.tmp123", &a));
    ck_assert(!plugin_semver_parse("1.2.3-", &a));

    const char *order[] = {
        "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1",
        "1.0.0",       "1.0.1",         "1.10.0",           "2.0.0"};
    for (size_t i = 0; i + 1 < sizeof order / sizeof order[0]; i++) {
        ck_assert(plugin_semver_parse(order[i], &a));
        ck_assert(plugin_semver_parse(order[i + 1], &b));
        ck_assert_msg(plugin_semver_compare(&a, &b) < 0, "%s < %s", order[i], order[i + 1]);
        ck_assert_msg(plugin_semver_compare(&b, &a) > 0, "%s > %s", order[i + 1], order[i]);
    }
    plugin_semver_t want, have;
    plugin_semver_parse("4.21.0", &want);
    plugin_semver_parse("4.22.3", &have);
    ck_assert(plugin_semver_compatible(&have, &want));
    plugin_semver_parse("4.20.9", &have);
    ck_assert(!plugin_semver_compatible(&have, &want));
    plugin_semver_parse("5.0.0", &have);
    ck_assert(!plugin_semver_compatible(&have, &want));
    plugin_semver_parse("4.22.0-beta.1", &have);
    ck_assert(!plugin_semver_compatible(&have, &want)); /* prereleases only exactly */
    plugin_semver_parse("4.22.0-beta.1", &want);
    ck_assert(plugin_semver_compatible(&have, &want));
}
END_TEST

/* --- discovery ----------------------------------------------------------------------------------- */

static void cache_plugin(arena_t *a, const char *home, const char *pkg, const char *ver) {
    write_wrapper(a, arena_sprintf(a, "%s/plugins/resource-%s-v%s", home, pkg, ver),
                  arena_sprintf(a, "pulumi-resource-%s", pkg), "/bin/true");
}

START_TEST(find_in_cache_by_version) {
    env_t e;
    env_init(&e);
    arena_t *a = e.a;
    cache_plugin(a, e.home, "random", "4.20.0");
    cache_plugin(a, e.home, "random", "4.21.1");
    cache_plugin(a, e.home, "random", "4.22.0");
    cache_plugin(a, e.home, "random", "4.23.0"); /* being downloaded: a .partial marker beside it */
    ck_assert(tu_write(arena_sprintf(a, "%s/plugins/resource-random-v4.23.0.partial", e.home), ""));
    cache_plugin(a, e.home, "random", "4.24.0"); /* a marker inside */
    ck_assert(tu_write(arena_sprintf(a, "%s/plugins/resource-random-v4.24.0/.partial", e.home), ""));
    cache_plugin(a, e.home, "random", "5.0.0");
    cache_plugin(a, e.home, "random", "6.0.0-alpha.1");
    mkdirs(arena_sprintf(a, "%s/plugins/resource-random-v7.0.0", e.home)); /* no binary */
    cache_plugin(a, e.home, "random-extra", "9.0.0");                      /* another package */

    plugin_search_t s = {0};
    s.pulumi_home = e.home;
    plugin_location_t loc;
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(plugin_find(a, &s, "random", "4.21.1", &loc, NULL, &d));
    ck_assert_str_eq(loc.version, "4.21.1");
    ck_assert_str_eq(loc.origin, "plugin cache");
    ck_assert_str_eq(loc.path, arena_sprintf(a, "%s/plugins/resource-random-v4.21.1/pulumi-resource-random", e.home));
    ck_assert(plugin_find(a, &s, "random", "4.21.0", &loc, NULL, &d));
    ck_assert_str_eq(loc.version, "4.22.0"); /* newest compatible; 4.23/4.24 are partial */
    ck_assert(plugin_find(a, &s, "random", NULL, &loc, NULL, &d));
    ck_assert_str_eq(loc.version, "5.0.0"); /* newest release, not the prerelease */
    ck_assert(plugin_find(a, &s, "random", "6.0.0-alpha.1", &loc, NULL, &d));
    ck_assert_str_eq(loc.version, "6.0.0-alpha.1");

    buf_t looked;
    buf_init(&looked);
    ck_assert(!plugin_find(a, &s, "random", "3.0.0", &loc, &looked, &d));
    ck_assert_msg(strstr(looked.data, "plugin cache ") && strstr(looked.data, "4.23.0 (partial download, ignored)") &&
                      strstr(looked.data, "7.0.0 (no executable pulumi-resource-random)") &&
                      strstr(looked.data, "none compatible with 3.0.0 (same major version, not older)") &&
                      strstr(looked.data, "$PATH: no pulumi-resource-random in any of its directories"),
                  "%s", looked.data);
    buf_free(&looked);
    ck_assert_uint_eq(d.count, 0);
    diag_list_free(&d);
    env_free(&e);
}
END_TEST

START_TEST(find_order_project_path_cache) {
    env_t e;
    env_init(&e);
    arena_t *a = e.a;
    cache_plugin(a, e.home, "random", "4.21.1");
    plugin_search_t s = {0};
    s.pulumi_home = e.home;
    plugin_location_t loc;
    diag_list_t d;
    diag_list_init(&d);

    /* $PATH comes before the cache (as in the engine) unless ambient plugins are ignored. */
    write_wrapper(a, e.bin, "pulumi-resource-random", "/bin/true");
    ck_assert(plugin_find(a, &s, "random", "4.21.1", &loc, NULL, &d));
    ck_assert_str_eq(loc.origin, "$PATH");
    ck_assert_ptr_null(loc.version);
    s.ignore_ambient = true;
    ck_assert(plugin_find(a, &s, "random", "4.21.1", &loc, NULL, &d));
    ck_assert_str_eq(loc.origin, "plugin cache");
    s.ignore_ambient = false;

    /* A search directory comes before $PATH. */
    char *extra = arena_sprintf(a, "%s/extra", e.root);
    write_wrapper(a, extra, "pulumi-resource-random", "/bin/true");
    const char *dirs[] = {extra};
    s.dirs = dirs;
    s.n_dirs = 1;
    ck_assert(plugin_find(a, &s, "random", NULL, &loc, NULL, &d));
    ck_assert_str_eq(loc.origin, "search directory");

    /* Project plugins come first: Pulumi.yaml entries (path relative to the project), then plugins/. */
    char *proj = arena_sprintf(a, "%s/proj", e.root);
    write_wrapper(a, arena_sprintf(a, "%s/plugins", proj), "pulumi-resource-random", "/bin/true");
    s.project_dir = proj;
    ck_assert(plugin_find(a, &s, "random", NULL, &loc, NULL, &d));
    ck_assert_str_eq(loc.origin, "project plugins");
    write_wrapper(a, arena_sprintf(a, "%s/bin/rnd", proj), "pulumi-resource-random", "/bin/true");
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", proj),
                       "name: proj\nruntime: nodejs\nplugins:\n  providers:\n    - name: other\n      path: nowhere\n"
                       "    - name: random\n      path: ./bin/rnd\n      version: 4.21.1\n"));
    ck_assert(plugin_find(a, &s, "random", NULL, &loc, NULL, &d));
    ck_assert_str_eq(loc.origin, "Pulumi.yaml");
    ck_assert_str_eq(loc.path, arena_sprintf(a, "%s/./bin/rnd/pulumi-resource-random", proj));
    ck_assert_str_eq(loc.version, "4.21.1");

    /* A broken Pulumi.yaml is reported with its file and line. */
    ck_assert(tu_write(arena_sprintf(a, "%s/Pulumi.yaml", proj), "name: proj\nplugins: [\n"));
    diag_list_t bad;
    diag_list_init(&bad);
    plugin_find(a, &s, "random", NULL, &loc, NULL, &bad);
    ck_assert_uint_eq(bad.errors, 1);
    ck_assert_str_eq(bad.head->file, arena_sprintf(a, "%s/Pulumi.yaml", proj));
    ck_assert_int_eq(bad.head->line, 3);
    ck_assert_msg(strstr(bad.head->message, "is not valid YAML"), "%s", bad.head->message);
    diag_list_free(&bad);
    diag_list_free(&d);
    env_free(&e);
}
END_TEST

/* --- config and attach entries ------------------------------------------------------------------- */

START_TEST(config_args_and_stack_file) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    pv_t *cfg = pv_object(a);
    diag_list_t d;
    diag_list_init(&d);
    char *path = arena_sprintf(a, "%s/Pulumi.dev.yaml", dir);
    ck_assert(tu_write(path, "config:\n  proj:own: ignored\n  fault:region: us-east-1\n  fault:retries: 3\n"
                             "  fault:tags:\n    team: a\n  fault:token:\n    secure: v1:abc\n"
                             "  random:flag: true\n"));
    /* a provider's encrypted value and no passphrase: refused (the provider would run without it, on
     * whatever ambient credentials there are), naming the passphrase, never a secret on the command line */
    ck_assert(!plugin_host_config_load_stack(a, cfg, NULL, path, "proj", NULL, &d));
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_str_eq(d.head->message,
                     "config value 'fault:token' is encrypted (secure:) and no passphrase is set to decrypt it, so the "
                     "fault provider would be configured without it: set PULUMI_CONFIG_PASSPHRASE or "
                     "PULUMI_CONFIG_PASSPHRASE_FILE to the stack's passphrase");
    diag_list_free(&d);
    diag_list_init(&d);
    /* with the passphrase it is decrypted; the project's own keys (proj:own) are not provider config */
    passphrase_crypter_t *c = passphrase_create("pw-of-the-stack", &d);
    ck_assert_ptr_nonnull(c);
    char *cipher = passphrase_encrypt(c, "s3cret-token", 12);
    ck_assert(
        tu_write(path, arena_sprintf(a,
                                     "encryptionsalt: %s\nconfig:\n  proj:own: ignored\n  proj:pw:\n    secure: %s\n"
                                     "  fault:region: us-east-1\n  fault:retries: 3\n"
                                     "  fault:tags:\n    team: a\n  fault:token:\n    secure: %s\n"
                                     "  random:flag: true\n",
                                     passphrase_state(c), cipher, cipher)));
    free(cipher);
    passphrase_free(c);
    passphrase_keyring_t *k = passphrase_keyring_new("pw-of-the-stack");
    /* the project's config (Pulumi.yaml) first, the stack file's over it */
    char *proj_path = arena_sprintf(a, "%s/Pulumi.yaml", dir);
    ck_assert(tu_write(proj_path, "name: proj\nruntime: nodejs\nconfig:\n  proj:mine: 1\n  fault:region: from-project\n"
                                  "  fault:zone:\n    value: z1\n  fault:ports: [80, 443]\n"
                                  "  fault:obj:\n    value: {b: \"<x>\", a: 1.5}\n"));
    pv_t *sv = pv_object(a);
    ck_assert(plugin_host_config_load_project(a, cfg, sv, proj_path, "proj", &d));
    ck_assert(plugin_host_config_load_stack(a, cfg, sv, path, "proj", k, &d));
    ck_assert(plugin_host_config_parse_arg(a, cfg, "fault:region=eu-west-1=x", &d)); /* args override the file */
    ck_assert_uint_eq(d.count, 0);
    cJSON *j = pv_to_state_json(cfg);
    char *text = cJSON_PrintUnformatted(j);
    /* the plugins get the strings Pulumi gives a default provider, the --config value over the stack's */
    ck_assert_str_eq(text, "{\"fault\":{\"obj\":\"{\\\"a\\\":1.5,\\\"b\\\":\\\"\\\\u003cx\\\\u003e\\\"}\","
                           "\"ports\":\"[80,443]\",\"region\":\"eu-west-1=x\",\"retries\":\"3\","
                           "\"tags\":\"{\\\"team\\\":\\\"a\\\"}\",\"token\":\"s3cret-token\",\"zone\":\"z1\"},"
                           "\"random\":{\"flag\":\"true\"}}");
    free(text);
    cJSON_Delete(j);
    /* the stack's configuration as Pulumi gives a default provider its inputs: strings (an object's or
     * list's JSON, keys sorted, Go's escapes), the encrypted value a secret; no --config in it */
    j = pv_to_state_json(sv);
    text = cJSON_PrintUnformatted(j);
    ck_assert_str_eq(text,
                     "{\"fault\":{\"obj\":\"{\\\"a\\\":1.5,\\\"b\\\":\\\"\\\\u003cx\\\\u003e\\\"}\","
                     "\"ports\":\"[80,443]\",\"region\":\"us-east-1\",\"retries\":\"3\","
                     "\"tags\":\"{\\\"team\\\":\\\"a\\\"}\",\"token\":{\"" PV_SIG_KEY "\":\"" PV_SIG_SECRET
                     "\",\"plaintext\":\"\\\"s3cret-token\\\"\"},\"zone\":\"z1\"},\"random\":{\"flag\":\"true\"}}");
    free(text);
    cJSON_Delete(j);
    passphrase_keyring_free(k);
    /* a wrong passphrase is refused */
    k = passphrase_keyring_new("another");
    ck_assert(!plugin_host_config_load_stack(a, pv_object(a), NULL, path, "proj", k, &d));
    ck_assert_uint_eq(d.errors, 1);
    passphrase_keyring_free(k);
    diag_list_free(&d);
    diag_list_init(&d);

    diag_list_t bad;
    diag_list_init(&bad);
    ck_assert(!plugin_host_config_parse_arg(a, cfg, "region=us", &bad));
    ck_assert(!plugin_host_config_parse_arg(a, cfg, ":key=v", &bad));
    ck_assert(!plugin_host_config_parse_arg(a, cfg, "fault:=v", &bad));
    ck_assert_uint_eq(bad.errors, 3);
    ck_assert_str_eq(bad.head->message,
                     "--config 'region=us' is not PACKAGE:KEY=VALUE, e.g. --config random:someKey=value");
    ck_assert(tu_write(path, "config: [1, 2]\n"));
    ck_assert(!plugin_host_config_load_stack(a, cfg, NULL, path, "proj", NULL, &bad));
    ck_assert_str_eq(bad.tail->message, "`config:` must be a mapping of `package:key: value` entries");
    ck_assert(!plugin_host_config_load_stack(a, cfg, NULL, arena_sprintf(a, "%s/none.yaml", dir), "proj", NULL, &bad));
    ck_assert_str_eq(bad.tail->message, "cannot read the file: No such file or directory");
    /* a stack importing Pulumi ESC environments: refused, naming them (cimport cannot open them) */
    ck_assert(tu_write(path, "environment:\n  - aws-prod-creds\n  - shared/net\nconfig:\n  fault:region: x\n"));
    ck_assert(!plugin_host_config_load_stack(a, cfg, NULL, path, "proj", NULL, &bad));
    ck_assert_ptr_nonnull(strstr(bad.tail->message, "the stack imports the Pulumi ESC environments 'aws-prod-creds', "
                                                    "'shared/net' (`environment:`)"));
    ck_assert(tu_write(path, "environment:\n  imports:\n    - creds\n"));
    ck_assert(!plugin_host_config_load_stack(a, cfg, NULL, path, "proj", NULL, &bad));
    ck_assert_ptr_nonnull(strstr(bad.tail->message, "the Pulumi ESC environment 'creds' (`environment:`)"));
    ck_assert(tu_write(path, "environment: []\nconfig:\n  fault:region: x\n")); /* none */
    ck_assert(plugin_host_config_load_stack(a, cfg, NULL, path, "proj", NULL, &bad));
    /* a project key of another namespace that is a mapping without `value:` is refused, as Pulumi does */
    ck_assert(tu_write(proj_path, "name: proj\nconfig:\n  fault:zone:\n    default: z\n"));
    ck_assert(!plugin_host_config_load_project(a, cfg, NULL, proj_path, "proj", &bad));
    ck_assert_ptr_nonnull(strstr(bad.tail->message, "config 'fault:zone' is a mapping without `value:`"));
    diag_list_free(&bad);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

START_TEST(attach_entries_malformed) {
    plugin_host_options_t o;
    plugin_host_options_default(&o);
    const char *attach[] = {"random=50051", "fault", "x=99999"};
    o.attach = attach;
    o.n_attach = 3;
    o.ignore_debug_env = true;
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(plugin_host_new(&o, &d));
    ck_assert_uint_eq(d.errors, 2);
    ck_assert_str_eq(d.head->message, "--attach entry 'fault' is not PACKAGE=PORT (a port 1-65535), e.g. random=50051");
    ck_assert_str_eq(d.tail->message,
                     "--attach entry 'x=99999' is not PACKAGE=PORT (a port 1-65535), e.g. random=50051");
    diag_list_free(&d);

    diag_list_init(&d);
    o.n_attach = 1;
    o.ignore_debug_env = false;
    setenv("PULUMI_DEBUG_PROVIDERS", "aws:123, gcp=4", 1);
    ck_assert_ptr_null(plugin_host_new(&o, &d));
    unsetenv("PULUMI_DEBUG_PROVIDERS");
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_str_eq(d.head->message,
                     "PULUMI_DEBUG_PROVIDERS entry 'gcp=4' is not PACKAGE:PORT (a port 1-65535), e.g. random:50051");
    diag_list_free(&d);
}
END_TEST

/* --- launching ----------------------------------------------------------------------------------- */

static plugin_proc_t *launch_script(env_t *e, grpc_loop_t *loop, const char *body, int timeout_ms, diag_list_t *d) {
    char *path = arena_sprintf(e->a, "%s/plugin-%d.sh", e->root, rand());
    write_exec(path, arena_sprintf(e->a, "#!/bin/sh\n%s", body));
    plugin_launch_options_t o = {0};
    o.port_timeout_ms = timeout_ms;
    o.cwd = e->root;
    const char *args[] = {"127.0.0.1:1"};
    o.args = args;
    o.n_args = 1;
    return plugin_launch(loop, path, "the test provider", &o, d);
}

START_TEST(launch_port_and_failures) {
    env_t e;
    env_init(&e);
    grpc_loop_t *loop = grpc_loop_new();
    diag_list_t d;
    diag_list_init(&d);

    /* The port line may carry .NET's progress sequences and whitespace; argv[1] is the engine. */
    plugin_proc_t *p = launch_script(
        &e, loop, "echo \"$1\" > args.txt; printf '\\033]9;4;3;\\033\\\\ 4242 \\r\\n'; echo chatter; exec sleep 30\n",
        5000, &d);
    ck_assert_msg(p, "%s", all_messages(e.a, &d));
    ck_assert_int_eq(plugin_proc_port(p), 4242);
    char *args = tu_read(arena_sprintf(e.a, "%s/args.txt", e.root), NULL);
    ck_assert_str_eq(args, "127.0.0.1:1\n");
    free(args);
    ck_assert_int_eq(getpgid(plugin_proc_pid(p)), plugin_proc_pid(p)); /* its own process group */
    pid_t pid = plugin_proc_pid(p);
    plugin_stop(p, 2000);
    ck_assert(pid_gone(pid, 2000));

    /* Exits before the port: the status and its stderr are in the message. */
    ck_assert_ptr_null(launch_script(&e, loop, "echo 'boom: missing credentials' >&2; exit 3\n", 5000, &d));
    ck_assert_msg(strstr(d.tail->message, "exited with status 3 before printing the port it listens on; its last "
                                          "output on stderr:\n    boom: missing credentials"),
                  "%s", d.tail->message);

    /* Garbage instead of a port. */
    ck_assert_ptr_null(launch_script(&e, loop, "echo 'listening on 8080'; exec sleep 30\n", 5000, &d));
    ck_assert_msg(strstr(d.tail->message, "printed 'listening on 8080' where its port number was expected"), "%s",
                  d.tail->message);
    ck_assert_ptr_null(launch_script(&e, loop, "echo 70000; exec sleep 30\n", 5000, &d));
    ck_assert_msg(strstr(d.tail->message, "printed '70000' where its port"), "%s", d.tail->message);

    /* Nothing within the timeout: stopped, with its stderr. */
    int64_t t0 = grpc_now_ms();
    ck_assert_ptr_null(launch_script(&e, loop, "echo 'waiting for godot' >&2; exec sleep 30\n", 700, &d));
    ck_assert_int_lt(grpc_now_ms() - t0, 5000);
    ck_assert_msg(strstr(d.tail->message, "printed no port within 700 ms and was stopped; its last output on "
                                          "stderr:\n    waiting for godot"),
                  "%s", d.tail->message);

    /* Not executable. */
    char *noexec = arena_sprintf(e.a, "%s/noexec", e.root);
    ck_assert(tu_write(noexec, "#!/bin/sh\n"));
    ck_assert_ptr_null(plugin_launch(loop, noexec, "the test provider", NULL, &d));
    ck_assert_str_eq(d.tail->message,
                     arena_sprintf(e.a, "could not start the test provider (%s): Permission denied", noexec));
    ck_assert_uint_eq(d.errors, 5);
    diag_list_free(&d);
    grpc_loop_free(loop);
    env_free(&e);
}
END_TEST

START_TEST(stop_kills_the_whole_group) {
    env_t e;
    env_init(&e);
    grpc_loop_t *loop = grpc_loop_new();
    diag_list_t d;
    diag_list_init(&d);
    /* A wrapper that ignores SIGINT and leaves a helper behind: SIGKILL to the group gets both. */
    plugin_proc_t *p = launch_script(&e, loop,
                                     "trap '' INT; sleep 300 & echo $! > helper.pid; echo 1234; "
                                     "i=0; while [ $i -lt 3000 ]; do echo \"line $i\" >&2; i=$((i+1)); done; wait\n",
                                     5000, &d);
    ck_assert_msg(p, "%s", all_messages(e.a, &d));
    /* 3000 stderr lines (> a pipe buffer) are drained while the loop runs; only the last are kept. */
    char *tail = "";
    for (int64_t until = grpc_now_ms() + 5000; grpc_now_ms() < until && !strstr(tail, "line 2999");) {
        grpc_loop_run_once(loop, 10);
        tail = plugin_proc_stderr_tail(p, e.a);
    }
    ck_assert_msg(strstr(tail, "    line 2999") && !strstr(tail, "line 2979\n"), "%s", tail);
    char *hp = tu_read(arena_sprintf(e.a, "%s/helper.pid", e.root), NULL);
    ck_assert_ptr_nonnull(hp);
    pid_t helper = (pid_t)atoi(hp);
    free(hp);
    pid_t pid = plugin_proc_pid(p);
    int64_t t0 = grpc_now_ms();
    plugin_stop(p, 300);
    ck_assert_int_ge(grpc_now_ms() - t0, 290); /* it waited the grace period for SIGINT */
    ck_assert(pid_gone(pid, 2000));
    ck_assert(pid_gone(helper, 2000));
    diag_list_free(&d);
    grpc_loop_free(loop);
    env_free(&e);
}
END_TEST

/* cimport gets SIGTERM/SIGINT: the handler kills every plugin group, then the process dies of it. */
static void signal_case(int sig) {
    env_t e;
    env_init(&e);
    int ready[2];
    ck_assert_int_eq(pipe(ready), 0);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        close(ready[0]);
        grpc_loop_t *loop = grpc_loop_new();
        diag_list_t d;
        diag_list_init(&d);
        plugin_proc_t *p =
            launch_script(&e, loop, "sleep 300 & echo $! > helper.pid; echo $$ > main.pid; echo 99; wait\n", 5000, &d);
        if (!p) _exit(2);
        plugin_host_install_signal_handlers();
        if (write(ready[1], "x", 1) != 1) _exit(3);
        for (;;)
            pause();
    }
    close(ready[1]);
    char c;
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    close(ready[0]);
    char *hp = tu_read(arena_sprintf(e.a, "%s/helper.pid", e.root), NULL);
    char *mp = tu_read(arena_sprintf(e.a, "%s/main.pid", e.root), NULL);
    ck_assert(hp && mp);
    pid_t helper = atoi(hp), main_pid = atoi(mp);
    free(hp);
    free(mp);
    ck_assert_int_eq(kill(helper, 0), 0);
    kill(child, sig);
    int st;
    ck_assert_int_eq(waitpid(child, &st, 0), child);
    ck_assert(WIFSIGNALED(st));
    ck_assert_int_eq(WTERMSIG(st), sig);
    ck_assert(pid_gone(main_pid, 3000));
    ck_assert(pid_gone(helper, 3000));
    env_free(&e);
}

START_TEST(signal_handlers_leave_no_plugin) {
    signal_case(SIGTERM);
    signal_case(SIGINT);
}
END_TEST

/* --- imports through the factory ----------------------------------------------------------------- */

#define RANDOM_IMPORTS                                                                                                 \
    "{\"resources\":["                                                                                                 \
    "{\"type\":\"random:index/randomPassword:RandomPassword\",\"name\":\"pw\",\"id\":\"Xq7-sEcReT-pw!42\","            \
    "\"version\":\"4.21.1\"},"                                                                                         \
    "{\"type\":\"random:index/randomString:RandomString\",\"name\":\"str\",\"id\":\"hello-world\",\"version\":"        \
    "\"4.21.1\"},"                                                                                                     \
    "{\"type\":\"random:index/randomInteger:RandomInteger\",\"name\":\"int\",\"id\":\"5,1,10\",\"version\":"           \
    "\"4.21.1\"},"                                                                                                     \
    "{\"type\":\"random:index/randomId:RandomId\",\"name\":\"rid\",\"id\":\"AAECAw\",\"version\":\"4.21.1\"}]}"

static void check_random_results(arena_t *a, import_result_t *r, size_t n) {
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(r[i].status == IMPORT_OK && r[i].verified, "%s: %s", r[i].item->logical_name,
                      all_messages(a, &r[i].diags));
        /* The password is in the state (as a secret) but never in any output. */
        char *views[3];
        cJSON *j;
        j = pv_to_display_json(r[i].inputs, false), views[0] = cJSON_PrintUnformatted(j), cJSON_Delete(j);
        j = pv_to_display_json(r[i].state, false), views[1] = cJSON_PrintUnformatted(j), cJSON_Delete(j);
        views[2] = strdup(all_messages(a, &r[i].diags));
        for (int k = 0; k < 3; k++) {
            ck_assert_msg(!strstr(views[k], "Xq7-sEcReT-pw!42"), "plaintext password in %s", views[k]);
            free(views[k]);
        }
    }
    ck_assert_str_eq(r[0].id, "none");
    const pv_t *res = pv_object_get(r[0].state, "result");
    ck_assert(res && res->kind == PV_SECRET);
    ck_assert_str_eq(pv_unwrap(res)->u.str.s, "Xq7-sEcReT-pw!42");
    ck_assert_double_eq(pv_object_get(r[0].inputs, "length")->u.n, 16);
    ck_assert_double_eq(pv_object_get(r[2].inputs, "max")->u.n, 10);
    ck_assert_double_eq(pv_object_get(r[3].inputs, "byteLength")->u.n, 4);
    ck_assert_str_eq(pv_object_get(r[3].state, "hex")->u.str.s, "00010203");
}

START_TEST(random_imports_through_path_discovery) {
    env_t e;
    env_init(&e);
    arena_t *a = e.a;
    write_wrapper(a, e.bin, "pulumi-resource-random", RANDOM_PLUGIN);
    plugin_host_options_t o;
    host_options(&e, &o);
    diag_list_t d;
    diag_list_init(&d);
    plugin_host_t *h = plugin_host_new(&o, &d);
    ck_assert_ptr_nonnull(h);
    provider_registry_t *reg = provider_registry_new(plugin_host_factory, h);
    import_plan_t *plan = plan_from_json(a, RANDOM_IMPORTS);
    import_result_t *r = engine_run(a, plan, reg, NULL, NULL, &d);
    check_random_results(a, r, plan->n_items);

    /* One process for the package, found on $PATH; gone once the registry and host are freed. */
    provider_t *p = provider_registry_get(reg, "random", "4.21.1", NULL, &d);
    ck_assert_ptr_nonnull(p);
    pid_t pid = plugin_host_provider_pid(p);
    ck_assert_int_gt(pid, 0);
    /* this test's processes only: other tests may run providers at the same time */
    ck_assert_int_eq(tu_count_tagged("examples/providers/random/index.js"), 1);
    ck_assert_uint_eq(d.errors, 0);
    engine_results_free(r, plan->n_items);
    provider_registry_free(reg);
    plugin_host_free(h);
    ck_assert(pid_gone(pid, 100));
    ck_assert_int_eq(tu_count_tagged("examples/providers/random/index.js"), 0);
    diag_list_free(&d);
    env_free(&e);
}
END_TEST

START_TEST(random_imports_through_cache_and_attach) {
    env_t e;
    env_init(&e);
    arena_t *a = e.a;
    /* In the plugin cache under its version; an older major is ignored. */
    write_wrapper(a, arena_sprintf(a, "%s/plugins/resource-random-v4.21.1", e.home), "pulumi-resource-random",
                  RANDOM_PLUGIN);
    write_wrapper(a, arena_sprintf(a, "%s/plugins/resource-random-v3.0.0", e.home), "pulumi-resource-random",
                  "/bin/false");
    plugin_host_options_t o;
    host_options(&e, &o);
    diag_list_t d;
    diag_list_init(&d);
    plugin_host_t *h = plugin_host_new(&o, &d);
    provider_registry_t *reg = provider_registry_new(plugin_host_factory, h);
    import_plan_t *plan = plan_from_json(a, RANDOM_IMPORTS);
    import_result_t *r = engine_run(a, plan, reg, NULL, NULL, &d);
    check_random_results(a, r, plan->n_items);
    engine_results_free(r, plan->n_items);
    provider_registry_free(reg);
    plugin_host_free(h);

    /* Attach: a plugin started by someone else (here: launched by hand) on a known port. */
    grpc_loop_t *loop = grpc_loop_new();
    plugin_proc_t *proc = plugin_launch(loop, RANDOM_PLUGIN, "the random provider", NULL, &d);
    ck_assert_msg(proc, "%s", all_messages(a, &d));
    char *entry = arena_sprintf(a, "random=%d", plugin_proc_port(proc));
    const char *attach[] = {entry};
    o.attach = attach;
    o.n_attach = 1;
    h = plugin_host_new(&o, &d);
    reg = provider_registry_new(plugin_host_factory, h);
    r = engine_run(a, plan, reg, NULL, NULL, &d);
    check_random_results(a, r, plan->n_items);
    ck_assert_int_eq(plugin_host_provider_pid(provider_registry_get(reg, "random", "4.21.1", NULL, &d)), 0);
    engine_results_free(r, plan->n_items);
    provider_registry_free(reg);
    plugin_host_free(h);
    ck_assert(!plugin_proc_exited(proc, NULL)); /* attached plugins are not ours to stop */
    plugin_stop(proc, 2000);
    grpc_loop_free(loop);
    ck_assert_uint_eq(d.errors, 0);
    diag_list_free(&d);
    env_free(&e);
}
END_TEST

static const char *result_messages(arena_t *a, import_result_t *r) {
    return all_messages(a, &r->diags);
}

START_TEST(fault_provider_failures_stay_per_resource) {
    env_t e;
    env_init(&e);
    arena_t *a = e.a;
    write_wrapper(a, e.bin, "pulumi-resource-fault", FAULT_PLUGIN);
    plugin_host_options_t o;
    host_options(&e, &o);
    o.call_timeout_ms = 2000;
    o.grace_ms = 1000;
    pv_t *cfg = pv_object(a);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(plugin_host_config_parse_arg(a, cfg, "fault:region=moon-1", &d));
    o.config = cfg;
    plugin_host_t *h = plugin_host_new(&o, &d);
    provider_registry_t *reg = provider_registry_new(plugin_host_factory, h);
    const char *names[] = {"ok1",      "crash",     "ok2", "hang",        "ok3", "malformed",
                           "badvalue", "checkfail", "log", "crash-check", "ok4", "config"};
    const char *ids[] = {"a",        "crash",     "b",   "hang",        "c", "malformed",
                         "badvalue", "checkfail", "log", "crash-check", "d", "config"};
    size_t n = sizeof names / sizeof names[0];
    buf_t json;
    buf_init(&json);
    buf_puts(&json, "{\"resources\":[");
    for (size_t i = 0; i < n; i++)
        buf_printf(&json, "%s{\"type\":\"fault:index:Thing\",\"name\":\"%s\",\"id\":\"%s\"}", i ? "," : "", names[i],
                   ids[i]);
    buf_puts(&json, "]}");
    import_plan_t *plan = plan_from_json(a, json.data);
    buf_free(&json);
    /* One resource at a time: exactly the faulty ones fail. (In parallel, see below, calls that were in
     * flight on a crashing process fail with it.) */
    engine_options_t eo;
    engine_options_default(&eo);
    eo.parallel = 1;
    import_result_t *r = engine_run(a, plan, reg, NULL, &eo, &d);

    for (size_t i = 0; i < n; i++) {
        const char *msgs = result_messages(a, &r[i]);
        if (names[i][0] == 'o') {
            ck_assert_msg(r[i].status == IMPORT_OK && r[i].verified, "%s: %s", names[i], msgs);
            ck_assert_str_eq(pv_object_get(r[i].inputs, "value")->u.str.s, ids[i]);
        }
    }
    /* crash: only this resource fails, with the exit and the provider's last words. */
    ck_assert_int_eq(r[1].status, IMPORT_FAILED);
    ck_assert_msg(strstr(result_messages(a, &r[1]), "exited with status 70 during Read; its last output on stderr:\n"
                                                    "    fault provider: crashing on purpose in Read of 'crash'\n"
                                                    "    fault provider: goodbye"),
                  "%s", result_messages(a, &r[1]));
    ck_assert_msg(r[1].diags.head->resource &&
                      strcmp(r[1].diags.head->resource, "resource 'crash' of type 'fault:index:Thing'") == 0,
                  "%s", result_messages(a, &r[1]));
    /* hang: ends at the deadline with a clear error. */
    ck_assert_int_eq(r[3].status, IMPORT_FAILED);
    ck_assert_msg(
        strstr(result_messages(a, &r[3]), "the fault provider did not answer Read within its 2000 ms deadline"), "%s",
        result_messages(a, &r[3]));
    /* malformed answers are errors, not crashes. */
    ck_assert_int_eq(r[5].status, IMPORT_FAILED);
    ck_assert_msg(strstr(result_messages(a, &r[5]), "answered Read with a malformed"), "%s", result_messages(a, &r[5]));
    ck_assert_int_eq(r[6].status, IMPORT_FAILED);
    ck_assert_msg(strstr(result_messages(a, &r[6]), "not-a-known-signature"), "%s", result_messages(a, &r[6]));
    /* Check failures are reported for the resource and property. */
    ck_assert_msg(has_diag(&r[7].diags, DIAG_WARNING, "value is not allowed by the fault provider") &&
                      has_diag(&r[7].diags, DIAG_WARNING, "the whole resource is rejected"),
                  "%s", result_messages(a, &r[7]));
    /* ... and such a resource is imported as Pulumi imports it, but not verified: the provider
     * rejected its inputs, so the code fails `pulumi up` until they are fixed (it said verified). */
    ck_assert_int_eq(r[7].status, IMPORT_OK);
    ck_assert_msg(!r[7].verified, "checkfail verified: %s", result_messages(a, &r[7]));
    ck_assert_msg(has_diag(&r[7].diags, DIAG_WARNING, "the provider's Check rejected these inputs"), "%s",
                  result_messages(a, &r[7]));
    ck_assert_uint_eq(r[7].n_residual, 0);
    /* Log messages: one per severity, on this resource; as in Pulumi, an error-severity message fails
     * the resource it is about. */
    ck_assert_int_eq(r[8].status, IMPORT_FAILED);
    const char *sev[] = {"debug", "info", "warning", "error"};
    diag_severity_t sevs[] = {DIAG_DEBUG, DIAG_INFO, DIAG_WARNING, DIAG_ERROR};
    for (int k = 0; k < 4; k++) {
        char *msg = arena_sprintf(a, "fault provider: %s message from Read", sev[k]);
        bool found = false;
        for (const diag_t *dg = r[8].diags.head; dg; dg = dg->next)
            if (dg->code == DIAG_PROVIDER_LOG && dg->severity == sevs[k] && strcmp(dg->message, msg) == 0 &&
                dg->resource && strcmp(dg->resource, "resource 'log' of type 'fault:index:Thing'") == 0)
                found = true;
        ck_assert_msg(found, "%s missing: %s", msg, result_messages(a, &r[8]));
        for (size_t i = 0; i < n; i++)
            if (i != 8) ck_assert(!has_diag(&r[i].diags, sevs[k], msg));
    }
    /* A crash in Check after a good Read. */
    ck_assert_int_eq(r[9].status, IMPORT_FAILED);
    ck_assert_msg(strstr(result_messages(a, &r[9]), "exited with status 70 during Check"), "%s",
                  result_messages(a, &r[9]));
    /* The restarted process got the same configuration. */
    ck_assert_int_eq(r[11].status, IMPORT_OK);
    ck_assert_str_eq(pv_object_get(r[11].state, "value")->u.str.s, "{\"region\":\"moon-1\"}");

    for (size_t i = 0; i < n; i++)
        if (i != 1 && i != 3 && i != 5 && i != 6 && i != 8 && i != 9)
            ck_assert_msg(r[i].status == IMPORT_OK, "%s: %s", names[i], result_messages(a, &r[i]));
    engine_results_free(r, n);
    provider_registry_free(reg);
    plugin_host_free(h);

    /* In parallel: the crashing resources fail with the report; any other failure is a resource whose
     * call was in flight on the same process, and says so. */
    o.max_restarts = 10;
    h = plugin_host_new(&o, &d);
    reg = provider_registry_new(plugin_host_factory, h);
    eo.parallel = 8;
    r = engine_run(a, plan, reg, NULL, &eo, &d);
    ck_assert_int_eq(r[1].status, IMPORT_FAILED);
    ck_assert_msg(strstr(result_messages(a, &r[1]), "crashing on purpose in Read of 'crash'"), "%s",
                  result_messages(a, &r[1]));
    ck_assert_int_eq(r[9].status, IMPORT_FAILED);
    for (size_t i = 0; i < n; i++) {
        if (names[i][0] != 'o' || r[i].status == IMPORT_OK) continue;
        ck_assert_msg(strstr(result_messages(a, &r[i]), "fault provider: crashing on purpose in "), "%s: %s", names[i],
                      result_messages(a, &r[i]));
    }
    engine_results_free(r, n);
    provider_registry_free(reg);
    plugin_host_free(h);
    ck_assert_int_eq(tu_count_tagged("examples/providers/fault/index.js"), 0);
    diag_list_free(&d);
    env_free(&e);
}
END_TEST

START_TEST(fault_provider_startup_failures) {
    env_t e;
    env_init(&e);
    arena_t *a = e.a;
    write_wrapper(a, e.bin, "pulumi-resource-fault", FAULT_PLUGIN);
    plugin_host_options_t o;
    host_options(&e, &o);
    /* The crash and noport cases must not race the port deadline on a loaded machine (Node.js can take
     * seconds to start there); only the silent case waits for it, on a host of its own. */
    o.port_timeout_ms = 60000;
    diag_list_t d;
    diag_list_init(&d);
    plugin_host_t *h = plugin_host_new(&o, &d);
    o.port_timeout_ms = 1500;
    plugin_host_t *h_short = plugin_host_new(&o, &d);
    char *path = arena_sprintf(a, "%s/pulumi-resource-fault", e.bin);

    setenv("FAULT_PROVIDER_STARTUP", "crash", 1);
    ck_assert_ptr_null(plugin_host_factory(h, "fault", NULL, NULL, &d));
    ck_assert_str_eq(d.tail->message,
                     arena_sprintf(a,
                                   "the fault provider (%s) exited with status 3 before printing the port it "
                                   "listens on; its last output on stderr:\n    fault provider: cannot start: "
                                   "FAULT_PROVIDER_STARTUP=crash",
                                   path));
    setenv("FAULT_PROVIDER_STARTUP", "noport", 1);
    ck_assert_ptr_null(plugin_host_factory(h, "fault", NULL, NULL, &d));
    ck_assert_msg(strstr(d.tail->message, "printed 'hello from the fault provider' where its port number was expected"),
                  "%s", d.tail->message);
    setenv("FAULT_PROVIDER_STARTUP", "silent", 1);
    ck_assert_ptr_null(plugin_host_factory(h_short, "fault", NULL, NULL, &d));
    /* On a loaded machine Node.js may not even reach its stderr line within the deadline; either way the
     * report names the deadline, and any stderr it quotes is the provider's own. */
    const char *silent =
        arena_sprintf(a, "the fault provider (%s) printed no port within 1500 ms and was stopped; ", path);
    ck_assert_msg(strncmp(d.tail->message, silent, strlen(silent)) == 0, "%s", d.tail->message);
    const char *rest = d.tail->message + strlen(silent);
    ck_assert_msg(strcmp(rest, "its last output on stderr:\n    fault provider: staying silent") == 0 ||
                      strcmp(rest, "it wrote nothing on stderr") == 0,
                  "%s", d.tail->message);
    unsetenv("FAULT_PROVIDER_STARTUP");
    ck_assert_uint_eq(d.errors, 3);
    plugin_host_free(h);
    plugin_host_free(h_short);
    ck_assert_int_eq(tu_count_tagged("examples/providers/fault/index.js"), 0);
    diag_list_free(&d);
    env_free(&e);
}
END_TEST

START_TEST(missing_and_wrong_version) {
    env_t e;
    env_init(&e);
    arena_t *a = e.a;
    plugin_host_options_t o;
    host_options(&e, &o);
    diag_list_t d;
    diag_list_init(&d);
    plugin_host_t *h = plugin_host_new(&o, &d);
    ck_assert_ptr_null(plugin_host_factory(h, "fault", "1.0.0", NULL, &d));
    /* the library's facts alone, then with the command line's advice (the flag that attaches) */
    ck_assert_str_eq(d.tail->message,
                     arena_sprintf(a,
                                   "no plugin for package 'fault' version 1.0.0 was found. Looked in:\n"
                                   "  - $PATH: no pulumi-resource-fault in any of its directories\n"
                                   "  - plugin cache %s/plugins/resource-fault-v*: no such directory\n"
                                   "downloading plugins is turned off. Install it with `pulumi plugin install "
                                   "resource fault 1.0.0` or put pulumi-resource-fault on $PATH",
                                   e.home));
    diag_set_advice(cli_advice);
    ck_assert_ptr_null(plugin_host_factory(h, "fault", "1.0.0", NULL, &d));
    diag_set_advice(NULL);
    ck_assert_str_eq(d.tail->message,
                     arena_sprintf(a,
                                   "no plugin for package 'fault' version 1.0.0 was found. Looked in:\n"
                                   "  - $PATH: no pulumi-resource-fault in any of its directories\n"
                                   "  - plugin cache %s/plugins/resource-fault-v*: no such directory\n"
                                   "downloading plugins is turned off. Install it with `pulumi plugin install "
                                   "resource fault 1.0.0`, put pulumi-resource-fault on $PATH, or attach to a running "
                                   "one with --attach fault=PORT",
                                   e.home));
    write_wrapper(a, arena_sprintf(a, "%s/plugins/resource-fault-v1.0.0", e.home), "pulumi-resource-fault",
                  FAULT_PLUGIN);
    ck_assert_ptr_null(plugin_host_factory(h, "fault", "2.0.0", NULL, &d));
    ck_assert_msg(strstr(d.tail->message, arena_sprintf(a,
                                                        "  - plugin cache %s/plugins: found version 1.0.0, none "
                                                        "compatible with 2.0.0 (same major version, not older)\n",
                                                        e.home)),
                  "%s", d.tail->message);
    ck_assert_msg(strstr(d.tail->message, "`pulumi plugin install resource fault 2.0.0`"), "%s", d.tail->message);
    /* The right version is found and works. */
    provider_t *p = plugin_host_factory(h, "fault", "1.0.0", NULL, &d);
    ck_assert_msg(p, "%s", all_messages(a, &d));
    provider_read_result_t rr;
    arena_t *ra = arena_new();
    ck_assert(provider_read(p, "urn:pulumi:dev::proj::fault:index:Thing::x", "x", NULL, NULL, ra, &rr, &d));
    ck_assert_str_eq(pv_object_get(rr.state, "value")->u.str.s, "x");
    arena_free(ra);
    p->ops->close(p);
    ck_assert_uint_eq(d.errors, 3); /* 1.0.0 missing (twice), 2.0.0 not compatible */
    plugin_host_free(h);
    diag_list_free(&d);
    env_free(&e);
}
END_TEST

/* --- download ------------------------------------------------------------------------------------ */

static int free_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    socklen_t len = sizeof sa;
    getsockname(fd, (struct sockaddr *)&sa, &len);
    close(fd);
    return ntohs(sa.sin_port);
}

static bool port_open(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    close(fd);
    return ok;
}

typedef struct progress_seen {
    size_t calls, last_done, last_total;
    char version[16];
} progress_seen_t;

static void on_progress(void *user, const char *pkg, const char *version, size_t done, size_t total) {
    progress_seen_t *s = user;
    ck_assert_str_eq(pkg, "fault");
    snprintf(s->version, sizeof s->version, "%s", version);
    s->calls++;
    s->last_done = done;
    s->last_total = total;
}

START_TEST(download_from_local_server) {
    env_t e;
    env_init(&e);
    arena_t *a = e.a;
    char *python = tu_run("command -v python3", NULL);
    python[strcspn(python, "\n")] = 0;
    ck_assert_msg(*python, "python3 is needed for this test");

    /* The release archive, named as Pulumi names assets, served over HTTP from 127.0.0.1. */
    char *serve = arena_sprintf(a, "%s/serve", e.root);
    char *stage = arena_sprintf(a, "%s/stage", e.root);
    write_wrapper(a, stage, "pulumi-resource-fault", FAULT_PLUGIN);
    mkdirs(arena_sprintf(a, "%s/releases", serve));
    char *asset = plugin_asset_url(a, "", "fault", "1.0.0");
    const char *base = strrchr(asset, '/') + 1;
    ck_assert_msg(strncmp(base, "pulumi-resource-fault-v1.0.0-linux-", 35) == 0 && strstr(base, ".tar.gz"), "%s", base);
    int st;
    free(tu_run(arena_sprintf(a, "tar -czf %s/releases/%s -C %s pulumi-resource-fault", serve, base, stage), &st));
    ck_assert_int_eq(st, 0);
    ck_assert(tu_write(arena_sprintf(a, "%s/releases/pulumi-resource-fault-v3.0.0-%s", serve, base + 29),
                       "this is not a gzip archive"));

    int port = free_port();
    pid_t srv = fork();
    if (srv == 0) {
        int devnull = open("/dev/null", O_RDWR);
        dup2(devnull, 1), dup2(devnull, 2);
        execl(python, python, "-m", "http.server", "--bind", "127.0.0.1", "--directory", serve,
              arena_sprintf(a, "%d", port), (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 500 && !port_open(port); i++)
        usleep(10000);
    ck_assert(port_open(port));
    char *url = arena_sprintf(a, "http://127.0.0.1:%d/releases", port);

    plugin_host_options_t o;
    host_options(&e, &o);
    o.download = true;
    progress_seen_t seen = {0};
    o.progress = on_progress;
    o.progress_user = &seen;
    diag_list_t d;
    diag_list_init(&d);
    plugin_host_t *h = plugin_host_new(&o, &d);
    provider_t *p = plugin_host_factory(h, "fault", "1.0.0", url, &d);
    ck_assert_msg(p, "%s", all_messages(a, &d));
    ck_assert_uint_eq(d.count, 0);
    ck_assert_uint_gt(seen.calls, 0);
    ck_assert_str_eq(seen.version, "1.0.0");
    ck_assert_uint_gt(seen.last_done, 0);
    ck_assert_uint_eq(seen.last_done, seen.last_total);
    char *dir = arena_sprintf(a, "%s/plugins/resource-fault-v1.0.0", e.home);
    struct stat sb;
    ck_assert_int_eq(stat(arena_sprintf(a, "%s/pulumi-resource-fault", dir), &sb), 0);
    ck_assert_int_ne(stat(arena_sprintf(a, "%s.partial", dir), &sb), 0);
    provider_read_result_t rr;
    arena_t *ra = arena_new();
    ck_assert(provider_read(p, "urn:pulumi:dev::proj::fault:index:Thing::x", "downloaded", NULL, NULL, ra, &rr, &d));
    ck_assert_str_eq(pv_object_get(rr.state, "value")->u.str.s, "downloaded");
    arena_free(ra);
    p->ops->close(p);

    /* A version the server does not have: the message names every place and the HTTP status; nothing
     * is left in the cache. */
    ck_assert_ptr_null(plugin_host_factory(h, "fault", "2.0.0", url, &d));
    ck_assert_msg(strstr(d.tail->message, "no plugin for package 'fault' version 2.0.0 was found. Looked in:\n") &&
                      strstr(d.tail->message, "  - $PATH: no pulumi-resource-fault") &&
                      strstr(d.tail->message, "found version 1.0.0, none compatible with 2.0.0") &&
                      strstr(d.tail->message, "pulumi-resource-fault-v2.0.0-linux-") &&
                      strstr(d.tail->message, "failed: the server answered HTTP 404. Install it with `pulumi plugin "
                                              "install resource fault 2.0.0`"),
                  "%s", d.tail->message);
    /* A broken archive. */
    ck_assert_ptr_null(plugin_host_factory(h, "fault", "3.0.0", url, &d));
    ck_assert_msg(strstr(d.tail->message, "failed: tar -xzf failed"), "%s", d.tail->message);
    /* Nobody listening (offline). */
    ck_assert_ptr_null(
        plugin_host_factory(h, "fault", "4.0.0", arena_sprintf(a, "http://127.0.0.1:%d", free_port()), &d));
    ck_assert_msg(strstr(d.tail->message, "Couldn't connect to server"), "%s", d.tail->message);
    char *ls = tu_run(arena_sprintf(a, "ls -a %s/plugins", e.home), NULL);
    ck_assert_str_eq(ls, ".\n..\nresource-fault-v1.0.0\n");
    free(ls);
    ck_assert_uint_eq(d.errors, 3);

    kill(srv, SIGTERM);
    waitpid(srv, &st, 0);
    plugin_host_free(h);
    free(python);
    diag_list_free(&d);
    env_free(&e);
}
END_TEST

/* --- the grpc-go peer ---------------------------------------------------------------------------- */

#define SECRET(v) "{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\",\"value\":" v "}"
#define PW_INPUTS                                                                                                      \
    "\"length\":16,\"lower\":true,\"minLower\":0,\"minNumeric\":0,\"minSpecial\":0,\"minUpper\":0,\"number\":true,"    \
    "\"numeric\":true,\"special\":true,\"upper\":true"

/* What the Node random provider answers for RANDOM_IMPORTS, as the peer's data file. */
static const char *peer_data(arena_t *a) {
    return arena_sprintf(
        a,
        "{\"version\":\"4.21.1\",\"schemaFile\":\"%s\",\"resources\":{"
        "\"random:index/randomPassword:RandomPassword\":{\"Xq7-sEcReT-pw!42\":{\"id\":\"none\",\"inputs\":{" PW_INPUTS
        "},\"state\":{" PW_INPUTS
        ",\"id\":\"none\",\"result\":" SECRET("\"Xq7-sEcReT-pw!42\"") ",\"bcryptHash\":" SECRET(
            "\"$2a$10$abcdefghijklmnopqrstuv\"") "},\"log\":\"grpcgo peer: reading the password\"}},"
                                                 "\"random:index/"
                                                 "randomString:RandomString\":{\"hello-world\":{\"inputs\":{" PW_INPUTS
                                                 "},\"state\":{" PW_INPUTS
                                                 ",\"id\":\"hello-world\",\"result\":\"hello-world\"}}},"
                                                 "\"random:index/"
                                                 "randomInteger:RandomInteger\":{\"5,1,10\":{\"id\":\"5\",\"inputs\":{"
                                                 "\"min\":1,\"max\":10},"
                                                 "\"state\":{\"min\":1,\"max\":10,\"id\":\"5\",\"result\":5}}},"
                                                 "\"random:index/"
                                                 "randomId:RandomId\":{\"AAECAw\":{\"inputs\":{\"byteLength\":4},"
                                                 "\"state\":{\"byteLength\":4,"
                                                 "\"id\":\"AAECAw\",\"b64Url\":\"AAECAw\",\"b64Std\":\"AAECAw==\","
                                                 "\"hex\":\"00010203\",\"dec\":\"66051\"}}}}}",
        SHARED_DATA "/schemas/random/schema.json");
}

typedef struct peer_logs {
    int health; /* "health check N passed" messages seen */
    int reads;  /* the Read log of the password, attributed to it */
} peer_logs_t;

static void on_peer_log(void *user, const char *pkg, const char *urn, const diag_t *d, bool status) {
    peer_logs_t *l = user;
    (void)pkg, (void)status;
    if (strncmp(d->message, "health check ", 13) == 0 && !*urn) l->health++;
    if (strcmp(d->message, "grpcgo peer: reading the password") == 0 && d->resource &&
        strcmp(d->resource, "resource 'pw' of type 'random:index/randomPassword:RandomPassword'") == 0)
        l->reads++;
}

typedef struct stream_slot {
    arena_t *a;
    provider_read_result_t out;
    diag_list_t diags;
    bool busy;
    size_t *done, *errors;
} stream_slot_t;

static void on_stream_done(void *user, bool ok) {
    stream_slot_t *s = user;
    if (!ok || !s->out.state || !pv_object_get(s->out.state, "result")) (*s->errors)++;
    (*s->done)++;
    s->busy = false;
}

START_TEST(grpcgo_peer_imports_streams_and_health) {
    env_t e;
    env_init(&e);
    arena_t *a = e.a;
    /* Built once per build directory (the Go build cache stays there too). */
    int st;
    char *out = tu_run("sh " SOURCE_DIR "/tests/peers/grpcgo/build.sh " BUILD_DIR "/grpcgo 2>&1", &st);
    ck_assert_msg(st == 0, "building the grpc-go peer failed: %s", out);
    free(out);
    char *data = arena_sprintf(a, "%s/peer.json", e.root);
    ck_assert(tu_write(data, peer_data(a)));
    write_exec(arena_sprintf(a, "%s/pulumi-resource-random", e.bin),
               arena_sprintf(a,
                             "#!/bin/sh\nCIMPORT_PEER_DATA=%s CIMPORT_PEER_HEALTH_MS=100 exec %s/grpcgo/"
                             "pulumi-resource-peer \"$@\"\n",
                             data, BUILD_DIR));
    plugin_host_options_t o;
    host_options(&e, &o);
    peer_logs_t logs = {0};
    o.log = on_peer_log;
    o.log_user = &logs;
    diag_list_t d;
    diag_list_init(&d);
    plugin_host_t *h = plugin_host_new(&o, &d);
    provider_registry_t *reg = provider_registry_new(plugin_host_factory, h);
    import_plan_t *plan = plan_from_json(a, RANDOM_IMPORTS);
    import_result_t *r = engine_run(a, plan, reg, NULL, NULL, &d);
    check_random_results(a, r, plan->n_items);
    ck_assert_int_eq(logs.reads, 1);
    ck_assert(has_diag(&r[0].diags, DIAG_INFO, "grpcgo peer: reading the password"));
    engine_results_free(r, plan->n_items);

    /* 1,000 Reads over 64 concurrent streams on the one connection. */
    provider_t *p = provider_registry_get(reg, "random", "4.21.1", NULL, &d);
    ck_assert_ptr_nonnull(p);
    pid_t pid = plugin_host_provider_pid(p);
    enum { SLOTS = 64, CALLS = 1000 };
    stream_slot_t slots[SLOTS];
    size_t started = 0, done = 0, errors = 0;
    memset(slots, 0, sizeof slots);
    int64_t t0 = grpc_now_ms();
    while (done < CALLS) {
        for (int k = 0; k < SLOTS && started < CALLS; k++) {
            stream_slot_t *sl = &slots[k];
            if (sl->busy) continue;
            if (sl->a) arena_free(sl->a);
            diag_list_free(&sl->diags);
            sl->a = arena_new();
            diag_list_init(&sl->diags);
            sl->busy = true;
            sl->done = &done;
            sl->errors = &errors;
            p->ops->read_async(p, "urn:pulumi:dev::proj::random:index/randomString:RandomString::s", "hello-world",
                               NULL, NULL, sl->a, &sl->out, &sl->diags, on_stream_done, sl);
            started++;
        }
        if (!p->ops->poll(p)) grpc_loop_run_once(plugin_host_loop(h), 1000);
        ck_assert_int_lt(grpc_now_ms() - t0, 60000);
    }
    for (int k = 0; k < SLOTS; k++) {
        arena_free(slots[k].a);
        diag_list_free(&slots[k].diags);
    }
    ck_assert_uint_eq(errors, 0);

    /* Still up past several health checks (the engine endpoint answers UNIMPLEMENTED), still serving. */
    int64_t until = grpc_now_ms() + 3000;
    while (logs.health < 5 && grpc_now_ms() < until)
        grpc_loop_run_once(plugin_host_loop(h), 100);
    ck_assert_int_ge(logs.health, 5);
    ck_assert_int_eq(kill(pid, 0), 0);
    provider_read_result_t rr;
    arena_t *ra = arena_new();
    ck_assert(provider_read(p, "urn:pulumi:dev::proj::random:index/randomInteger:RandomInteger::i", "5,1,10", NULL,
                            NULL, ra, &rr, &d));
    ck_assert_double_eq(pv_object_get(rr.state, "result")->u.n, 5);
    arena_free(ra);
    ck_assert_uint_eq(d.errors, 0);
    provider_registry_free(reg);
    plugin_host_free(h);
    ck_assert(pid_gone(pid, 100));
    diag_list_free(&d);
    env_free(&e);
}
END_TEST

Suite *plugin_suite(void) {
    Suite *s = suite_create("plugin");
    TCase *tc = tcase_create("plugin");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, semver_rules);
    tcase_add_test(tc, find_in_cache_by_version);
    tcase_add_test(tc, find_order_project_path_cache);
    tcase_add_test(tc, config_args_and_stack_file);
    tcase_add_test(tc, attach_entries_malformed);
    tcase_add_test(tc, launch_port_and_failures);
    tcase_add_test(tc, stop_kills_the_whole_group);
    tcase_add_test(tc, signal_handlers_leave_no_plugin);
    tcase_add_test(tc, random_imports_through_path_discovery);
    tcase_add_test(tc, random_imports_through_cache_and_attach);
    tcase_add_test(tc, fault_provider_failures_stay_per_resource);
    tcase_add_test(tc, fault_provider_startup_failures);
    tcase_add_test(tc, missing_and_wrong_version);
    tcase_add_test(tc, download_from_local_server);
    tcase_add_test(tc, grpcgo_peer_imports_streams_and_health);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    tu_tag_processes();
    SRunner *sr = srunner_create(plugin_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

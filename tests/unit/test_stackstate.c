/* test_stackstate.c — the stack state writer: new documents, merging into real `pulumi stack export`
 * files without touching a byte of what was there, default and explicit providers, re-runs, conflicts,
 * secrets per secrets provider, ordering, and the atomic replace (a crash before the rename). */
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "specs/deployment.h"
#include "specs/stackstate.h"
#include "testutil.h"

#define NOW "2026-03-04T05:06:07.123Z"
#define FIXTURES SOURCE_DIR "/tests/fixtures/stackstate"

static pv_t *json_value(arena_t *a, const char *json) {
    cJSON *j = cJSON_Parse(json);
    ck_assert_ptr_nonnull(j);
    pv_t *v = pv_from_state_json(a, j, "test", NULL);
    cJSON_Delete(j);
    ck_assert_ptr_nonnull(v);
    return v;
}

static void opts_init(stackstate_options_t *o) {
    stackstate_options_default(o);
    o->now = NOW;
}

/* A random resource as the CLI would hand it over (default provider random 4.16.0). */
static stackstate_resource_t pet(arena_t *a, const char *name, const char *id) {
    stackstate_resource_t r = {0};
    r.urn = arena_sprintf(a, "urn:pulumi:dev::proj::random:index/randomPet:RandomPet::%s", name);
    r.type = "random:index/randomPet:RandomPet";
    r.id = id;
    r.inputs = json_value(a, "{\"length\":2,\"separator\":\"-\"}");
    r.outputs = json_value(a, arena_sprintf(a, "{\"id\":\"%s\",\"length\":2,\"separator\":\"-\"}", id));
    r.version = "4.16.0";
    r.custom = true;
    r.protect = true;
    return r;
}

static const cJSON *resources_of(const cJSON *doc) {
    const cJSON *dep = cJSON_GetObjectItemCaseSensitive(doc, "deployment");
    if (!dep) dep = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "checkpoint"), "latest");
    return cJSON_GetObjectItemCaseSensitive(dep, "resources");
}

static const char *jstr(const cJSON *o, const char *k) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(j) ? j->valuestring : NULL;
}

static int index_of_urn(const cJSON *resources, const char *urn) {
    int i = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, resources) {
        if (jstr(r, "urn") && strcmp(jstr(r, "urn"), urn) == 0) return i;
        i++;
    }
    return -1;
}

static bool is_uuid(const char *s) {
    regex_t re;
    ck_assert_int_eq(
        regcomp(&re, "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", REG_EXTENDED), 0);
    bool ok = s && regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

/* Every byte of old is in merged, in order, with one inserted run (or, for a document without
 * resources, the replaced `[]`/absent member): prefix + suffix cover the old text. */
static void assert_old_bytes_kept(const char *old, const char *merged) {
    size_t lo = strlen(old), lm = strlen(merged), pre = 0, suf = 0;
    while (pre < lo && pre < lm && old[pre] == merged[pre])
        pre++;
    while (suf < lo - pre && suf < lm - pre && old[lo - 1 - suf] == merged[lm - 1 - suf])
        suf++;
    ck_assert_msg(pre + suf == lo, "old text not kept: prefix %zu + suffix %zu != %zu", pre, suf, lo);
    ck_assert_uint_gt(lm, lo);
}

START_TEST(test_default_provider_name) {
    arena_t *a = arena_new();
    ck_assert_str_eq(stackstate_default_provider_name(a, NULL, NULL), "default");
    ck_assert_str_eq(stackstate_default_provider_name(a, "4.16.0", NULL), "default_4_16_0");
    ck_assert_str_eq(stackstate_default_provider_name(a, "v6.0.1", NULL), "default_6_0_1");
    ck_assert_str_eq(stackstate_default_provider_name(a, "1.0.0-beta.1+build.5", NULL), "default_1_0_0_beta_1_build_5");
    ck_assert_str_eq(stackstate_default_provider_name(a, "1.0.0-alpha-2", NULL), "default_1_0_0_alpha-2");
    ck_assert_str_eq(stackstate_default_provider_name(a, "1.2.3", "https://get.example.com/x/"),
                     "default_1_2_3_https_/get.example.com/x");
    ck_assert_str_eq(stackstate_default_provider_name(a, NULL, "github://api.github.com/org"),
                     "default_github_/api.github.com/org");
    /* and only those are default providers: a user's provider named default_west is not (read9c) */
    const char *is[] = {"default", "default_4_16_0", "default_1_0_0_beta_1_build_5",
                        "default_github_/api.github.com/org"};
    for (size_t i = 0; i < sizeof is / sizeof *is; i++)
        ck_assert_msg(stackstate_is_default_provider_name(is[i]), "%s", is[i]);
    const char *not_[] = {"default_west", "defaultWest", "default-east", "default_", "default_us_west_2", NULL};
    for (size_t i = 0; not_[i]; i++)
        ck_assert_msg(!stackstate_is_default_provider_name(not_[i]), "%s", not_[i]);
    arena_free(a);
}
END_TEST

START_TEST(test_new_document) {
    arena_t *a = arena_new();
    stackstate_resource_t r[2] = {pet(a, "p1", "one-two"), pet(a, "p2", "three-four")};
    stackstate_package_config_t cfg = {"random", json_value(a, "{\"someSetting\":\"x\"}")};
    stackstate_options_t o;
    opts_init(&o);
    o.config = &cfg;
    o.n_config = 1;
    stackstate_report_t rep;
    diag_list_t d;
    diag_list_init(&d);
    char *text = stackstate_merge_text(NULL, 0, "new.json", "dev", "proj", r, 2, &o, &rep, &d);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(d.count, 0);
    ck_assert(rep.created_file && rep.created_stack);
    ck_assert_uint_eq(rep.n_added, 4);
    ck_assert_uint_eq(rep.n_same, 0);

    cJSON *doc = cJSON_Parse(text);
    ck_assert_int_eq(cJSON_GetObjectItem(doc, "version")->valueint, 3);
    const cJSON *res = resources_of(doc);
    ck_assert_int_eq(cJSON_GetArraySize(res), 4);
    const cJSON *stack = cJSON_GetArrayItem(res, 0);
    ck_assert_str_eq(jstr(stack, "urn"), "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(stack, "custom")));
    ck_assert_ptr_null(cJSON_GetObjectItem(stack, "id"));
    ck_assert_ptr_null(cJSON_GetObjectItem(stack, "inputs"));

    const cJSON *prov = cJSON_GetArrayItem(res, 1);
    ck_assert_str_eq(jstr(prov, "urn"), "urn:pulumi:dev::proj::pulumi:providers:random::default_4_16_0");
    ck_assert_str_eq(jstr(prov, "type"), "pulumi:providers:random");
    ck_assert(is_uuid(jstr(prov, "id")));
    char *in = cJSON_PrintUnformatted(cJSON_GetObjectItem(prov, "inputs"));
    char *out = cJSON_PrintUnformatted(cJSON_GetObjectItem(prov, "outputs"));
    ck_assert_str_eq(in, "{\"__internal\":{},\"someSetting\":\"x\",\"version\":\"4.16.0\"}");
    ck_assert_str_eq(out, "{\"someSetting\":\"x\",\"version\":\"4.16.0\"}");
    free(in);
    free(out);
    ck_assert_ptr_null(cJSON_GetObjectItem(prov, "parent"));
    ck_assert_ptr_null(cJSON_GetObjectItem(prov, "protect"));

    const cJSON *p1 = cJSON_GetArrayItem(res, 2);
    ck_assert_str_eq(jstr(p1, "urn"), r[0].urn);
    ck_assert_str_eq(jstr(p1, "id"), "one-two");
    ck_assert_str_eq(jstr(p1, "parent"), jstr(stack, "urn"));
    char *ref = arena_sprintf(a, "%s::%s", jstr(prov, "urn"), jstr(prov, "id"));
    ck_assert_str_eq(jstr(p1, "provider"), ref);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(p1, "protect")));
    ck_assert_str_eq(jstr(p1, "created"), NOW);
    ck_assert_str_eq(jstr(p1, "modified"), NOW);
    ck_assert_ptr_null(cJSON_GetObjectItem(p1, "importID"));
    /* ResourceV3 key order */
    const char *keys[] = {"urn",    "custom",  "id",       "type",    "inputs",  "outputs",
                          "parent", "protect", "provider", "created", "modified"};
    const cJSON *k = p1->child;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++, k = k->next)
        ck_assert_str_eq(k->string, keys[i]);
    ck_assert_ptr_null(k);
    /* the second resource shares the one default provider */
    ck_assert_str_eq(jstr(cJSON_GetArrayItem(res, 3), "provider"), ref);

    /* it reads back as a stack state */
    deployment_t *dep = deployment_parse(a, text, strlen(text), "new.json", &d);
    ck_assert_ptr_nonnull(dep);
    ck_assert_uint_eq(dep->n_resources, 4);
    ck_assert(pv_equal(dep->resources[2].inputs, r[0].inputs));
    ck_assert(pv_equal(dep->resources[2].outputs, r[0].outputs));
    deployment_free(dep);
    cJSON_Delete(doc);
    free(text);
    stackstate_report_free(&rep);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_merge_twice_one_copy) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/state.json", dir);
    stackstate_resource_t r[2] = {pet(a, "p1", "one-two"), pet(a, "p2", "three-four")};
    stackstate_options_t o;
    opts_init(&o);
    diag_list_t d;
    diag_list_init(&d);
    stackstate_report_t rep;
    ck_assert(stackstate_merge(path, "dev", "proj", r, 2, &o, &rep, &d));
    ck_assert_uint_eq(rep.n_added, 4);
    stackstate_report_free(&rep);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600); /* a new state file is private */
    char *first = tu_read(path, NULL);

    o.now = "2030-01-01T00:00:00Z"; /* a later run must not even touch the timestamps */
    ck_assert(stackstate_merge(path, "dev", "proj", r, 2, &o, &rep, &d));
    ck_assert_uint_eq(rep.n_added, 0);
    ck_assert_uint_eq(rep.n_same, 2);
    ck_assert_uint_eq(rep.n_existing, 4);
    ck_assert_int_eq(rep.entries[0].outcome, STACKSTATE_SAME);
    ck_assert_str_eq(rep.entries[0].id, "one-two");
    stackstate_report_free(&rep);
    char *second = tu_read(path, NULL);
    ck_assert_str_eq(first, second);
    ck_assert_uint_eq(d.count, 0);

    /* adding one more resource later: appended once, reusing the provider */
    stackstate_resource_t more[3] = {r[0], r[1], pet(a, "p3", "five-six")};
    ck_assert(stackstate_merge(path, "dev", "proj", more, 3, &o, &rep, &d));
    ck_assert_uint_eq(rep.n_added, 1);
    ck_assert_uint_eq(rep.n_same, 2);
    stackstate_report_free(&rep);
    char *third = tu_read(path, NULL);
    assert_old_bytes_kept(second, third);
    cJSON *doc = cJSON_Parse(third);
    const cJSON *res = resources_of(doc);
    ck_assert_int_eq(cJSON_GetArraySize(res), 5);
    ck_assert_str_eq(jstr(cJSON_GetArrayItem(res, 4), "provider"), jstr(cJSON_GetArrayItem(res, 2), "provider"));
    cJSON_Delete(doc);
    free(first);
    free(second);
    free(third);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* A default provider the stack holds already is reused; recorded with another configuration than the
 * stack's config gives its package now, it is still reused (one default provider of a version), but the
 * merge says Pulumi will update it and counts it (n_provider_differ), so no run promises "no changes". */
START_TEST(test_default_provider_config_changed) {
    arena_t *a = arena_new();
    stackstate_resource_t r[2] = {pet(a, "p1", "one-two"), pet(a, "p2", "three-four")};
    stackstate_package_config_t cfg = {"random", json_value(a, "{\"someSetting\":\"x\"}")};
    stackstate_options_t o;
    opts_init(&o);
    o.config = &cfg;
    o.n_config = 1;
    stackstate_report_t rep;
    diag_list_t d;
    diag_list_init(&d);
    char *first = stackstate_merge_text(NULL, 0, "s.json", "dev", "proj", r, 1, &o, &rep, &d);
    ck_assert_ptr_nonnull(first);
    stackstate_report_free(&rep);
    /* the same configuration: reused, nothing said */
    char *same = stackstate_merge_text(first, strlen(first), "s.json", "dev", "proj", r, 2, &o, &rep, &d);
    ck_assert_ptr_nonnull(same);
    ck_assert_uint_eq(rep.n_provider_differ, 0);
    ck_assert_uint_eq(d.count, 0);
    stackstate_report_free(&rep);
    /* another one (and a key the stack's config no longer has): reused, said, counted */
    cfg.config = json_value(a, "{\"someSetting\":\"y\",\"other\":\"z\"}");
    char *other = stackstate_merge_text(first, strlen(first), "s.json", "dev", "proj", r, 2, &o, &rep, &d);
    ck_assert_ptr_nonnull(other);
    ck_assert_uint_eq(rep.n_provider_differ, 1);
    ck_assert_uint_eq(rep.n_added, 1); /* only p2: no second default provider */
    ck_assert_uint_eq(d.count, 1);
    ck_assert_str_eq(d.head->message,
                     "the stack's default provider 'urn:pulumi:dev::proj::pulumi:providers:random::default_4_16_0' "
                     "records another configuration (someSetting, other) than the stack's configuration gives the "
                     "random package now, which the resources were read with: `pulumi preview` shows that provider "
                     "updated (or replaced, with every resource under it, if the provider says the change needs it; a "
                     "protected resource fails the preview), and `pulumi up` records the configuration now");
    stackstate_report_free(&rep);
    free(first);
    free(same);
    free(other);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Merges one new resource into every real stack export: the old resources, manifest and secrets
 * providers are untouched, byte for byte, and the result is still a valid, ordered state. */
START_TEST(test_real_exports_untouched) {
    arena_t *a = arena_new();
    size_t n1, n2, merged = 0;
    char **stacks = tu_find_files(a, tu_data(a, "pulumi-state"), "stack.json", &n1);
    char **states = tu_find_files(a, tu_data(a, "pulumi-state"), "state.json", &n2);
    for (size_t f = 0; f < n1 + n2; f++) {
        const char *file = f < n1 ? stacks[f] : states[f - n1];
        size_t len;
        char *old = tu_read(file, &len);
        diag_list_t d;
        diag_list_init(&d);
        deployment_t *dep = deployment_parse(a, old, len, file, &d);
        ck_assert_msg(dep != NULL, "%s", file);
        if (dep->version < 3 || !dep->stack || !dep->project) {
            deployment_free(dep);
            diag_list_free(&d);
            free(old);
            continue;
        }
        stackstate_resource_t r = {0};
        r.urn = arena_sprintf(a, "urn:pulumi:%s::%s::random:index/randomPet:RandomPet::cimport-added", dep->stack,
                              dep->project);
        r.type = "random:index/randomPet:RandomPet";
        r.id = "added-pet";
        r.inputs = json_value(a, "{\"length\":2}");
        r.outputs = json_value(a, "{\"id\":\"added-pet\",\"length\":2}");
        r.version = "4.16.0";
        r.custom = true;
        stackstate_options_t o;
        opts_init(&o);
        stackstate_report_t rep;
        char *text = stackstate_merge_text(old, len, file, dep->stack, dep->project, &r, 1, &o, &rep, &d);
        ck_assert_msg(text != NULL, "%s: %s", file, d.head ? d.head->message : "");
        ck_assert_uint_eq(rep.n_existing, dep->n_resources);
        assert_old_bytes_kept(old, text);

        cJSON *before = cJSON_Parse(old), *after = cJSON_Parse(text);
        ck_assert_ptr_nonnull(after);
        const cJSON *rb = resources_of(before), *ra = resources_of(after);
        int nb = cJSON_GetArraySize(rb);
        ck_assert_int_eq(cJSON_GetArraySize(ra), nb + (int)rep.n_added);
        for (int i = 0; i < nb; i++)
            ck_assert(cJSON_Compare(cJSON_GetArrayItem(rb, i), cJSON_GetArrayItem(ra, i), true));
        /* topological validity: every parent and provider of every resource comes earlier */
        int i = 0;
        const cJSON *res;
        cJSON_ArrayForEach(res, ra) {
            const char *parent = jstr(res, "parent");
            if (parent && *parent) ck_assert_int_lt(index_of_urn(ra, parent), i);
            const char *prov = jstr(res, "provider");
            if (prov && *prov && i >= nb) {
                char *purn = arena_strdup(a, prov);
                *strrchr(purn, ':') = 0;
                purn[strlen(purn) - 1] = 0;
                int pi = index_of_urn(ra, purn);
                ck_assert_int_ge(pi, 0);
                ck_assert_int_lt(pi, i);
            }
            i++;
        }
        deployment_t *dep2 = deployment_parse(a, text, strlen(text), file, &d);
        ck_assert_ptr_nonnull(dep2);
        ck_assert_ptr_nonnull(deployment_find_id(dep2, r.type, "added-pet"));
        deployment_free(dep2);
        cJSON_Delete(before);
        cJSON_Delete(after);
        stackstate_report_free(&rep);
        deployment_free(dep);
        diag_list_free(&d);
        free(text);
        free(old);
        merged++;
    }
    ck_assert_uint_gt(merged, 50);
    arena_free(a);
}
END_TEST

START_TEST(test_existing_fixture_bytes_and_conflicts) {
    arena_t *a = arena_new();
    size_t len;
    char *old = tu_read(FIXTURES "/existing.json", &len);
    stackstate_options_t o;
    opts_init(&o);
    diag_list_t d;
    diag_list_init(&d);
    stackstate_report_t rep;

    /* same URN, same ID (the old one is written with a \u escape): nothing to add, text unchanged */
    stackstate_resource_t same = pet(a, "pet", "happy-cat");
    char *text = stackstate_merge_text(old, len, "existing.json", "dev", "proj", &same, 1, &o, &rep, &d);
    ck_assert_str_eq(text, old);
    ck_assert_uint_eq(rep.n_same, 1);
    ck_assert_uint_eq(rep.n_added, 0);
    stackstate_report_free(&rep);
    free(text);

    /* same URN and ID, but the run gives another provider or parent than the stack records: not the
     * same resource as the code declares it (Pulumi diffs an explicit provider's change and may replace),
     * so each is named with a warning and counted; nothing is written either way */
    stackstate_resource_t west = pet(a, "pet", "happy-cat");
    west.provider_urn = "urn:pulumi:dev::proj::pulumi:providers:random::west";
    text = stackstate_merge_text(old, len, "existing.json", "dev", "proj", &west, 1, &o, &rep, &d);
    ck_assert_str_eq(text, old);
    ck_assert_uint_eq(rep.n_same, 1);
    ck_assert_uint_eq(rep.n_differ, 1);
    ck_assert_str_eq(rep.entries[0].differs, "provider");
    ck_assert_uint_eq(d.count, 1);
    ck_assert_str_eq(d.head->message,
                     "resource 'urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet' is in the stack already "
                     "with provider 'urn:pulumi:dev::proj::pulumi:providers:random::default_4_16_0', but the code "
                     "written declares it with another provider ('urn:pulumi:dev::proj::pulumi:providers:random::west'"
                     "): Pulumi compares the two providers' configuration and can replace the resource (a protected "
                     "one fails the preview); remove the resource's `provider` from the import file");
    stackstate_report_free(&rep);
    free(text);
    diag_list_free(&d);
    diag_list_init(&d);
    stackstate_resource_t moved = pet(a, "pet", "happy-cat");
    moved.parent_urn = "urn:pulumi:dev::proj::my:index:Group::g";
    text = stackstate_merge_text(old, len, "existing.json", "dev", "proj", &moved, 1, &o, &rep, &d);
    ck_assert_str_eq(text, old);
    ck_assert_uint_eq(rep.n_differ, 1);
    ck_assert_str_eq(rep.entries[0].differs, "parent");
    ck_assert_str_eq(d.head->message,
                     "resource 'urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet' is in the stack already "
                     "with parent 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev', but the code written declares "
                     "it with parent 'urn:pulumi:dev::proj::my:index:Group::g': `pulumi up` with it records the new "
                     "parent; give the resource the stack's parent in the import file (its `parent`)");
    stackstate_report_free(&rep);
    free(text);
    diag_list_free(&d);
    diag_list_init(&d);
    /* two default providers (another version) are the engine's to diff, as on any provider upgrade */
    stackstate_resource_t newer = pet(a, "pet", "happy-cat");
    newer.version = "4.17.0";
    text = stackstate_merge_text(old, len, "existing.json", "dev", "proj", &newer, 1, &o, &rep, &d);
    ck_assert_str_eq(text, old);
    ck_assert_uint_eq(rep.n_differ, 0);
    ck_assert_uint_eq(d.count, 0);
    stackstate_report_free(&rep);
    free(text);

    /* same URN, another ID: error, nothing produced */
    stackstate_resource_t other = pet(a, "pet", "sad-dog");
    ck_assert_ptr_null(stackstate_merge_text(old, len, "existing.json", "dev", "proj", &other, 1, &o, &rep, &d));
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_str_eq(d.head->message,
                     "resource 'urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet' already exists with ID "
                     "'happy-cat'; remove it from the state or pick another name");
    ck_assert_str_eq(d.head->file, "existing.json");
    stackstate_report_free(&rep);
    diag_list_free(&d);
    diag_list_init(&d);

    /* another URN, the same type and ID as a resource the stack manages: two Pulumi resources would
     * manage one cloud object (a destroy of either deletes it), as two specs of one import file would */
    stackstate_resource_t twin = pet(a, "pet2", "happy-cat");
    ck_assert_ptr_null(stackstate_merge_text(old, len, "existing.json", "dev", "proj", &twin, 1, &o, &rep, &d));
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_str_eq(d.head->message,
                     "resource 'urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet2' has the type and ID "
                     "('happy-cat') of 'urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet', which the stack "
                     "manages already, under the same provider (the package's default provider): two resources would "
                     "manage one object (a `pulumi destroy` of either deletes it); import it under that name, or "
                     "remove that resource from the stack first");
    stackstate_report_free(&rep);
    diag_list_free(&d);
    diag_list_init(&d);

    /* ... the same type and ID under another provider configuration is another object (a role "admin" in
     * the staging account, the stack holding the prod one on the default provider): merged, as convert
     * keeps both (6997017); was refused as a twin. A default provider of another version is the same
     * configuration (the stack's config of the package): still a twin. */
    stackstate_resource_t staged[2] = {pet(a, "pet2", "happy-cat"), {0}};
    staged[0].provider_urn = "urn:pulumi:dev::proj::pulumi:providers:random::staging";
    staged[1].urn = staged[0].provider_urn;
    staged[1].type = "pulumi:providers:random";
    staged[1].is_provider = true;
    staged[1].custom = true;
    staged[1].version = "4.16.0";
    staged[1].inputs = json_value(a, "{\"account\": \"staging\"}"); /* configured apart from the default one */
    text = stackstate_merge_text(old, len, "existing.json", "dev", "proj", staged, 2, &o, &rep, &d);
    ck_assert_msg(text != NULL, "%s", d.head ? d.head->message : "");
    ck_assert_uint_eq(d.errors, 0);
    ck_assert_uint_eq(rep.n_added, 2);
    stackstate_report_free(&rep);
    /* into that stack, a third under the staging provider again: a twin of the staged one */
    char *with_staged = text;
    stackstate_resource_t again = staged[0];
    again.urn = "urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet3";
    ck_assert_ptr_null(stackstate_merge_text(with_staged, strlen(with_staged), "existing.json", "dev", "proj", &again,
                                             1, &o, &rep, &d));
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_ptr_nonnull(strstr(d.head->message, "of 'urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet2', "
                                                  "which the stack manages already, under the same provider "
                                                  "('urn:pulumi:dev::proj::pulumi:providers:random::staging')"));
    stackstate_report_free(&rep);
    free(with_staged);
    diag_list_free(&d);
    diag_list_init(&d);
    stackstate_resource_t newer_twin = pet(a, "pet2", "happy-cat");
    newer_twin.version = "4.17.0";
    ck_assert_ptr_null(stackstate_merge_text(old, len, "existing.json", "dev", "proj", &newer_twin, 1, &o, &rep, &d));
    ck_assert_uint_eq(d.errors, 1);
    stackstate_report_free(&rep);
    diag_list_free(&d);
    diag_list_init(&d);
    /* an explicit provider configured as the default one (neither has configuration) reaches the same
     * account: still a twin (read17 F8) */
    stackstate_resource_t plain[2] = {staged[0], staged[1]};
    plain[0].provider_urn = plain[1].urn = "urn:pulumi:dev::proj::pulumi:providers:random::plain";
    plain[1].inputs = json_value(a, "{}");
    ck_assert_ptr_null(stackstate_merge_text(old, len, "existing.json", "dev", "proj", plain, 2, &o, &rep, &d));
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_ptr_nonnull(strstr(d.head->message, "under provider 'plain' and the package's default provider, which "
                                                  "are configured alike"));
    stackstate_report_free(&rep);
    diag_list_free(&d);
    diag_list_init(&d);

    /* ... but an ID that is no identity: the random provider records every RandomPassword with the
     * placeholder ID "none" and a RandomInteger with its result, which small ranges share; a second one
     * with that ID is another resource (read13 F2: refused as a twin, though a password can only be
     * imported into a stack) */
    const char *types[][2] = {{"random:index/randomPassword:RandomPassword", "none"},
                              {"random:index/randomInteger:RandomInteger", "2"}};
    for (size_t k = 0; k < 2; k++) {
        stackstate_resource_t first = pet(a, "first", types[k][1]);
        first.type = types[k][0];
        first.urn = arena_sprintf(a, "urn:pulumi:dev::proj::%s::first", types[k][0]);
        char *with_first = stackstate_merge_text(old, len, "existing.json", "dev", "proj", &first, 1, &o, &rep, &d);
        ck_assert_ptr_nonnull(with_first);
        stackstate_report_free(&rep);
        stackstate_resource_t second = first;
        second.urn = arena_sprintf(a, "urn:pulumi:dev::proj::%s::second", types[k][0]);
        text = stackstate_merge_text(with_first, strlen(with_first), "existing.json", "dev", "proj", &second, 1, &o,
                                     &rep, &d);
        ck_assert_msg(text != NULL, "%s: %s", types[k][0], d.head ? d.head->message : "");
        ck_assert_uint_eq(d.errors, 0);
        ck_assert_uint_eq(rep.n_same, 0);
        stackstate_report_free(&rep);
        free(text);
        free(with_first);
        diag_list_free(&d);
        diag_list_init(&d);
    }

    /* wrong stack */
    stackstate_resource_t wrong = pet(a, "x", "y");
    wrong.urn = "urn:pulumi:prod::proj::random:index/randomPet:RandomPet::x";
    ck_assert_ptr_null(stackstate_merge_text(old, len, "existing.json", "prod", "proj", &wrong, 1, &o, &rep, &d));
    /* the library states the facts; the front end words the advice (here the command line's) */
    ck_assert_str_eq(d.head->message,
                     "the stack state belongs to stack 'dev' of project 'proj', not stack 'prod' of project 'proj'");
    stackstate_report_free(&rep);
    diag_set_advice(cli_advice);
    ck_assert_ptr_null(stackstate_merge_text(old, len, "existing.json", "prod", "proj", &wrong, 1, &o, &rep, &d));
    diag_set_advice(NULL);
    ck_assert_str_eq(d.tail->message,
                     "the stack state belongs to stack 'dev' of project 'proj', not stack 'prod' of project 'proj': "
                     "pass --stack dev --project proj, or merge into the export of the right stack");
    stackstate_report_free(&rep);
    diag_list_free(&d);
    diag_list_init(&d);

    /* unknown parent */
    stackstate_resource_t orphan = pet(a, "orphan", "o");
    orphan.parent_urn = "urn:pulumi:dev::proj::my:component:Thing::missing";
    ck_assert_ptr_null(stackstate_merge_text(old, len, "existing.json", "dev", "proj", &orphan, 1, &o, &rep, &d));
    ck_assert_str_eq(d.head->message, "unknown parent 'urn:pulumi:dev::proj::my:component:Thing::missing' for resource "
                                      "'urn:pulumi:dev::proj::random:index/randomPet:RandomPet::orphan'");
    stackstate_report_free(&rep);
    diag_list_free(&d);
    diag_list_init(&d);

    /* a new resource reuses the existing stack and default provider; old bytes (escapes, 2.0, 2e0) kept */
    stackstate_resource_t fresh = pet(a, "fresh", "brave-owl");
    text = stackstate_merge_text(old, len, "existing.json", "dev", "proj", &fresh, 1, &o, &rep, &d);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(rep.n_added, 1);
    ck_assert(!rep.created_stack);
    assert_old_bytes_kept(old, text);
    ck_assert_ptr_nonnull(strstr(text, "\"happy-\\u0063at\""));
    ck_assert_ptr_nonnull(strstr(text, "\"length\": 2e0"));
    /* new text is in the document's 4-space style, right after the last resource */
    ck_assert_ptr_nonnull(strstr(text, "            },\n            {\n                \"urn\": "
                                       "\"urn:pulumi:dev::proj::random:index/randomPet:RandomPet::fresh\",\n"));
    cJSON *doc = cJSON_Parse(text);
    const cJSON *last = cJSON_GetArrayItem(resources_of(doc), 3);
    ck_assert_str_eq(jstr(last, "provider"),
                     "urn:pulumi:dev::proj::pulumi:providers:random::default_4_16_0::0b5c8a9e-1111-4222-8333-"
                     "944455566677");
    ck_assert_str_eq(jstr(last, "parent"), "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev");
    cJSON_Delete(doc);
    free(text);
    stackstate_report_free(&rep);
    diag_list_free(&d);
    free(old);
    arena_free(a);
}
END_TEST

START_TEST(test_explicit_providers_and_order) {
    arena_t *a = arena_new();
    stackstate_options_t o;
    opts_init(&o);
    diag_list_t d;
    diag_list_init(&d);
    stackstate_report_t rep;
    /* child first, then its component parent, then the explicit provider: the writer orders them */
    stackstate_resource_t r[3] = {0};
    r[0] = pet(a, "child", "kid-1");
    r[0].urn = "urn:pulumi:dev::proj::my:index:Group$random:index/randomPet:RandomPet::child";
    r[0].parent_urn = "urn:pulumi:dev::proj::my:index:Group::group";
    r[0].provider_urn = "urn:pulumi:dev::proj::pulumi:providers:random::mine";
    r[1].urn = "urn:pulumi:dev::proj::my:index:Group::group";
    r[1].type = "my:index:Group";
    r[1].protect = true;
    r[2].urn = "urn:pulumi:dev::proj::pulumi:providers:random::mine";
    r[2].type = "pulumi:providers:random";
    r[2].is_provider = true;
    r[2].custom = true;
    r[2].version = "4.16.0";
    r[2].inputs = json_value(a, "{\"region\":\"x\"}");
    char *text = stackstate_merge_text(NULL, 0, "s.json", "dev", "proj", r, 3, &o, &rep, &d);
    ck_assert_ptr_nonnull(text);
    cJSON *doc = cJSON_Parse(text);
    const cJSON *res = resources_of(doc);
    ck_assert_int_eq(cJSON_GetArraySize(res), 4); /* stack, provider, group, child — no default provider */
    int ip = index_of_urn(res, r[2].urn), ig = index_of_urn(res, r[1].urn), ic = index_of_urn(res, r[0].urn);
    ck_assert_int_eq(index_of_urn(res, "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"), 0);
    ck_assert_int_ge(ip, 1);
    ck_assert_int_lt(ig, ic);
    ck_assert_int_lt(ip, ic);
    const cJSON *prov = cJSON_GetArrayItem(res, ip);
    char *in = cJSON_PrintUnformatted(cJSON_GetObjectItem(prov, "inputs"));
    ck_assert_str_eq(in, "{\"__internal\":{},\"region\":\"x\",\"version\":\"4.16.0\"}");
    free(in);
    ck_assert_ptr_null(cJSON_GetObjectItem(prov, "parent")); /* explicit providers without a parent have none */
    const cJSON *group = cJSON_GetArrayItem(res, ig);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(group, "custom")));
    ck_assert_ptr_null(cJSON_GetObjectItem(group, "id"));
    ck_assert_ptr_null(cJSON_GetObjectItem(group, "provider"));
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(group, "protect")));
    const cJSON *child = cJSON_GetArrayItem(res, ic);
    const char *prov_id = jstr(prov, "id");
    ck_assert_ptr_nonnull(prov_id);
    ck_assert_str_eq(jstr(child, "provider"), arena_sprintf(a, "%s::%s", r[2].urn, prov_id));
    ck_assert_str_eq(jstr(child, "parent"), r[1].urn);
    cJSON_Delete(doc);
    stackstate_report_free(&rep);

    /* a provider named by a resource but declared nowhere is created with empty config (Pulumi #15453) */
    stackstate_resource_t lone = pet(a, "lone", "l-1");
    lone.provider_urn = "urn:pulumi:dev::proj::pulumi:providers:random::undeclared";
    lone.version = NULL;
    char *t2 = stackstate_merge_text(text, strlen(text), "s.json", "dev", "proj", &lone, 1, &o, &rep, &d);
    ck_assert_ptr_nonnull(t2);
    ck_assert_uint_eq(rep.n_added, 2);
    doc = cJSON_Parse(t2);
    res = resources_of(doc);
    int iu = index_of_urn(res, lone.provider_urn);
    ck_assert_int_eq(iu, 4);
    in = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(res, iu), "inputs"));
    ck_assert_str_eq(in, "{\"__internal\":{}}");
    free(in);
    ck_assert_ptr_null(cJSON_GetObjectItem(cJSON_GetArrayItem(res, iu), "outputs"));
    cJSON_Delete(doc);
    free(t2);
    free(text);
    stackstate_report_free(&rep);
    ck_assert_uint_eq(d.errors, 0);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_secrets) {
    arena_t *a = arena_new();
    stackstate_options_t o;
    opts_init(&o);
    diag_list_t d;
    diag_list_init(&d);
    stackstate_report_t rep;
    stackstate_resource_t r = pet(a, "secretive", "s-1");
    r.inputs = json_value(a, "{\"keepers\":{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\","
                             "\"plaintext\":\"{\\\"k\\\":\\\"v\\\"}\"},\"length\":2}");

    /* passphrase document without the passphrase: refused, nothing returned */
    size_t len;
    char *old = tu_read(FIXTURES "/existing.json", &len);
    char *text = stackstate_merge_text(old, len, "existing.json", "dev", "proj", &r, 1, &o, &rep, &d);
    ck_assert_ptr_null(text);
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_str_eq(d.head->message,
                     "the stack state uses the passphrase secrets provider and 1 new resource has secrets: set "
                     "PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to the stack's passphrase so cimport "
                     "can encrypt them; nothing was written");
    stackstate_report_free(&rep);
    diag_list_free(&d);
    diag_list_init(&d);
    /* ... with a wrong passphrase (the fixture's salt state opens with none): refused */
    passphrase_keyring_t *kr = passphrase_keyring_new("password");
    o.keyring = kr;
    ck_assert_ptr_null(stackstate_merge_text(old, len, "existing.json", "dev", "proj", &r, 1, &o, &rep, &d));
    ck_assert(strncmp(d.head->message, "incorrect passphrase:", 21) == 0);
    stackstate_report_free(&rep);
    diag_list_free(&d);
    diag_list_init(&d);
    /* ... with the right one: encrypted for the document's salt, nothing in plaintext */
    const char *kat = "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";
    char *salted = strdup(old);
    memcpy(strstr(salted, "v1:AAAAAAAAAAA="), kat, strlen(kat)); /* same length as the fixture's state */
    text = stackstate_merge_text(salted, len, "existing.json", "dev", "proj", &r, 1, &o, &rep, &d);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(d.count, 0);
    ck_assert_uint_eq(rep.n_plaintext_secrets, 0);
    assert_old_bytes_kept(salted, text);
    ck_assert_ptr_null(strstr(text, "\"k\":\"v\"")); /* no plaintext */
    cJSON *doc = cJSON_Parse(text);
    cJSON *res = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "deployment"), "resources");
    cJSON *keepers = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(res, cJSON_GetArraySize(res) - 1), "inputs"), "keepers");
    const char *ct = cJSON_GetStringValue(cJSON_GetObjectItem(keepers, "ciphertext"));
    ck_assert_ptr_nonnull(ct);
    const passphrase_crypter_t *c = passphrase_keyring_open(kr, kat, "x", &d);
    char *pt;
    size_t pt_len;
    ck_assert(passphrase_decrypt(c, ct, &pt, &pt_len, &d));
    ck_assert_str_eq(pt, "{\"k\":\"v\"}");
    free(pt);
    ck_assert_uint_eq(passphrase_keyring_derivations(kr), 2); /* the fixture's salt once, the KAT's once */
    cJSON_Delete(doc);
    stackstate_report_free(&rep);
    free(text);
    free(salted);
    free(old);
    diag_list_free(&d);
    diag_list_init(&d);

    /* no secrets provider and a passphrase: the passphrase provider is added with the keyring's salt */
    old = tu_read(FIXTURES "/minified-empty.json", &len);
    text = stackstate_merge_text(old, len, "m.json", "dev", "proj", &r, 1, &o, &rep, &d);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(d.count, 0);
    char *want = malloc(200);
    snprintf(want, 200, "\"secrets_providers\":{\"type\":\"passphrase\",\"state\":{\"salt\":\"%s\"}}", kat);
    ck_assert_ptr_nonnull(strstr(text, want));
    free(want);
    ck_assert_ptr_null(strstr(text, "eyJrIjoidiJ9"));
    deployment_t *dep = deployment_parse(a, text, strlen(text), "m.json", &d);
    ck_assert_ptr_nonnull(dep);
    deployment_free(dep);
    stackstate_report_free(&rep);
    free(text);
    o.keyring = NULL;
    passphrase_keyring_free(kr);

    /* ... and no passphrase: refused unless b64 is asked for by name */
    ck_assert_ptr_null(stackstate_merge_text(old, len, "m.json", "dev", "proj", &r, 1, &o, &rep, &d));
    ck_assert_str_eq(d.head->message,
                     "1 resource has secrets and the stack state has no secrets provider to encrypt them for: set "
                     "PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to encrypt them with the passphrase "
                     "provider (base64, which is not encryption, only when asked for by name); nothing was written");
    stackstate_report_free(&rep);
    diag_list_free(&d);
    diag_list_init(&d);
    o.b64_secrets = true;
    text = stackstate_merge_text(old, len, "m.json", "dev", "proj", &r, 1, &o, &rep, &d);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(d.count, 0);
    ck_assert_uint_eq(rep.n_plaintext_secrets, 0);
    ck_assert_ptr_null(strchr(text, '\n')); /* a minified document stays minified */
    ck_assert_ptr_nonnull(strstr(text, "\"secrets_providers\":{\"type\":\"b64\"}"));
    ck_assert_ptr_nonnull(strstr(text, "\"ciphertext\":\"eyJrIjoidiJ9\"")); /* base64 of {"k":"v"} */
    dep = deployment_parse(a, text, strlen(text), "m.json", &d);
    ck_assert_ptr_nonnull(dep);
    const state_resource_t *sr = deployment_find_id(dep, r.type, "s-1");
    ck_assert_ptr_nonnull(sr);
    ck_assert(pv_equal(sr->inputs, r.inputs)); /* b64 decodes back to the same secret */
    deployment_free(dep);
    stackstate_report_free(&rep);
    free(text);
    free(old);
    o.b64_secrets = false;

    /* a document with b64 already: ciphertext, no second secrets_providers */
    old = tu_read(SHARED_DATA "/checkpoints/checkpoint-secrets.json", &len);
    r.urn = "urn:pulumi:foo::countdown::random:index/randomPet:RandomPet::secretive";
    text = stackstate_merge_text(old, len, "cp.json", "foo", "countdown", &r, 1, &o, &rep, &d);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(d.count, 0);
    assert_old_bytes_kept(old, text);
    ck_assert_ptr_null(strstr(strstr(text, "\"secrets_providers\"") + 1, "\"secrets_providers\""));
    ck_assert_ptr_nonnull(strstr(text, "\"ciphertext\": \"eyJrIjoidiJ9\""));
    stackstate_report_free(&rep);
    free(text);
    free(old);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_documents_without_resources) {
    arena_t *a = arena_new();
    stackstate_options_t o;
    opts_init(&o);
    diag_list_t d;
    diag_list_init(&d);
    stackstate_report_t rep;
    stackstate_resource_t r = pet(a, "p", "p-1");
    size_t len;
    char *old = tu_read(FIXTURES "/no-resources.json", &len);
    char *text = stackstate_merge_text(old, len, "n.json", "dev", "proj", &r, 1, &o, &rep, &d);
    ck_assert_ptr_nonnull(text);
    assert_old_bytes_kept(old, text);
    ck_assert_ptr_nonnull(strstr(text,
                                 "      \"version\": \"\"\n    },\n    \"resources\": [\n      {\n        \"urn\": "
                                 "\"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev\",\n"));
    deployment_t *dep = deployment_parse(a, text, strlen(text), "n.json", &d);
    ck_assert_ptr_nonnull(dep);
    ck_assert_uint_eq(dep->n_resources, 3);
    deployment_free(dep);
    stackstate_report_free(&rep);
    free(text);
    free(old);

    /* old deployment versions are refused with the way out */
    old = tu_read(SHARED_DATA "/checkpoints/checkpoint-v1.json", &len);
    ck_assert_ptr_null(stackstate_merge_text(old, len, "v1.json", "foo", "countdown", &r, 1, &o, &rep, &d));
    ck_assert_str_eq(d.head->message,
                     "the stack state has deployment version 1; cimport merges only into versions 3 and 4: run "
                     "`pulumi stack export` with a current Pulumi CLI and merge into that file");
    stackstate_report_free(&rep);
    free(old);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Member names written with escapes ("\u0072esources" is `resources` to cJSON and to Go's decoder):
 * the merge finds them as the document's reader does. It matched names byte for byte, so it added a
 * second `resources` member beside the escaped one (a duplicate key: Pulumi would keep one list and
 * lose the other) or did not find an escaped `deployment` at all. */
START_TEST(test_escaped_member_names) {
    arena_t *a = arena_new();
    stackstate_options_t o;
    opts_init(&o);
    stackstate_resource_t r = pet(a, "p", "p-1");
    const char *docs[] = {
        "{\"version\": 3, \"deployment\": {\"manifest\": {}, \"\\u0072esources\": [%s]}}",
        "{\"version\": 3, \"\\u0064eployment\": {\"manifest\": {}, \"resources\": [%s]}}",
        "{\"version\": 3, \"checkpoint\": {\"\\u006catest\": {\"resources\": [%s]}}}",
    };
    const char *stack = "{\"urn\": \"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev\", \"type\": "
                        "\"pulumi:pulumi:Stack\", \"custom\": false}";
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        char *old = arena_sprintf(a, docs[i], stack);
        diag_list_t d;
        diag_list_init(&d);
        stackstate_report_t rep;
        char *text = stackstate_merge_text(old, strlen(old), "e.json", "dev", "proj", &r, 1, &o, &rep, &d);
        ck_assert_msg(text != NULL, "document %zu: %s", i, d.head ? d.head->message : "?");
        assert_old_bytes_kept(old, text);
        deployment_t *dep = deployment_parse(a, text, strlen(text), "e.json", &d);
        ck_assert_msg(dep != NULL, "document %zu: the merged text: %s", i, d.head ? d.head->message : "?");
        ck_assert_uint_eq(dep->n_resources, 3); /* the stack, the default provider, the pet */
        ck_assert_str_eq(dep->resources[0].type, "pulumi:pulumi:Stack");
        deployment_free(dep);
        stackstate_report_free(&rep);
        free(text);
        diag_list_free(&d);
    }
    arena_free(a);
}
END_TEST

static bool stop_before_rename(void *user, const char *tmp) {
    struct stat st;
    *(bool *)user = stat(tmp, &st) == 0 && st.st_size > 0; /* the complete temporary file exists */
    return false;
}

static bool crash_before_rename(void *user, const char *tmp) {
    (void)user;
    (void)tmp;
    _exit(7);
}

static size_t count_entries(const char *dir) {
    DIR *dd = opendir(dir);
    ck_assert_ptr_nonnull(dd);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dd)))
        if (e->d_name[0] != '.') n++;
    closedir(dd);
    return n;
}

START_TEST(test_crash_before_rename_keeps_old_file) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/state.json", dir);
    char *old = tu_read(FIXTURES "/existing.json", NULL);
    ck_assert(tu_write(path, old));
    stackstate_resource_t r = pet(a, "fresh", "brave-owl");
    diag_list_t d;
    diag_list_init(&d);

    /* a real crash (the process dies) between the complete temporary file and the rename */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        stackstate_options_t o;
        opts_init(&o);
        o.before_rename = crash_before_rename;
        stackstate_merge(path, "dev", "proj", &r, 1, &o, NULL, &d);
        _exit(0);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    char *after = tu_read(path, NULL);
    ck_assert_str_eq(after, old);
    free(after);

    /* a stop reported as a failure: old file intact, the temporary file removed, a clear error */
    stackstate_options_t o;
    opts_init(&o);
    bool saw_tmp = false;
    o.before_rename = stop_before_rename;
    o.user = &saw_tmp;
    size_t before = count_entries(dir);
    ck_assert(!stackstate_merge(path, "dev", "proj", &r, 1, &o, NULL, &d));
    ck_assert(saw_tmp);
    ck_assert_str_eq(d.head->message,
                     "the stack state was not replaced (stopped before the rename); the old file is unchanged");
    ck_assert_uint_eq(count_entries(dir), before);
    after = tu_read(path, NULL);
    ck_assert_str_eq(after, old);
    free(after);

    /* and without the fault the same merge goes through */
    o.before_rename = NULL;
    ck_assert(stackstate_merge(path, "dev", "proj", &r, 1, &o, NULL, &d));
    after = tu_read(path, NULL);
    assert_old_bytes_kept(old, after);
    free(after);

    /* bad input writes nothing: a conflicting ID */
    char *good = tu_read(path, NULL);
    stackstate_resource_t bad = pet(a, "fresh", "other-id");
    ck_assert(!stackstate_merge(path, "dev", "proj", &bad, 1, &o, NULL, &d));
    after = tu_read(path, NULL);
    ck_assert_str_eq(after, good);
    free(after);
    free(good);
    free(old);
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* The child's verdict on one merge of bad bytes: 0 when it returned NULL with an error naming the
 * line and column, 1 when it wrote something, 2 when the diagnostic was not the expected one. */
static int merge_bad_bytes_child(const char *text, size_t len, const char *want) {
    arena_t *a = arena_new();
    stackstate_options_t o;
    opts_init(&o);
    diag_list_t d;
    diag_list_init(&d);
    stackstate_report_t rep;
    stackstate_resource_t r = pet(a, "p", "p-1");
    char *out = stackstate_merge_text(text, len, "bad.json", "dev", "proj", &r, 1, &o, &rep, &d);
    int verdict = 0;
    if (out)
        verdict = 1;
    else if (!d.head || !d.head->file || strcmp(d.head->file, "bad.json") != 0 || !strstr(d.head->message, want))
        verdict = 2;
    free(out);
    stackstate_report_free(&rep);
    diag_list_free(&d);
    arena_free(a);
    return verdict;
}

/* Runs the merge in a child stopped after 3 s (before Check's default 4 s timeout), so a hang fails
 * with its own message and leaves no process behind. */
static void assert_bad_bytes_refused(const char *text, size_t len, const char *want) {
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        signal(SIGALRM, SIG_DFL); /* not Check's timeout handler, which kills the process group */
        alarm(3);
        _exit(merge_bad_bytes_child(text, len, want));
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(!WIFSIGNALED(status), "the merge did not return (signal %d): it hangs on bad bytes",
                  WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "the merge of bad bytes gave %s (expected no text and an error naming bad.json and '%s')",
                  WEXITSTATUS(status) == 1 ? "text" : "another diagnostic", want);
}

/* Found by a 10-minute fuzz_stackstate run: cJSON skips every byte below 0x21 as whitespace, the
 * merge's byte-offset scanner only the four JSON ones, and its scan of a scalar never moved past a
 * NUL, so a TAB and ~60 NULs in the resources array looped forever. Such a document is not JSON:
 * a clear error with the position, nothing written. */
START_TEST(test_control_bytes_refused) {
    static const char head[] = "{\"version\":3,\"deployment\":{\"manifest\":{\"time\":\"2025-002T03:04:05Z\","
                               "\"macic\":\"\",\"vers\":\"\"},\"resources\":[\t";
    static const char tail[] = "],\"metadata\":{}}}";
    char text[256];
    size_t len = 0;
    memcpy(text, head, sizeof head - 1);
    len += sizeof head - 1;
    memset(text + len, 0, 61);
    len += 61;
    memcpy(text + len, tail, sizeof tail - 1);
    len += sizeof tail - 1;
    ck_assert_uint_eq(len, 181); /* the fuzzer's input, byte for byte */
    assert_bad_bytes_refused(text, len, "byte 0x00 at line 1, column 104");

    /* a NUL after a scalar element, and another control byte where whitespace goes */
    static const char after_scalar[] = "{\"version\":3,\"deployment\":{\"resources\":[1\0]}}";
    assert_bad_bytes_refused(after_scalar, sizeof after_scalar - 1, "byte 0x00 at line 1, column 42");
    static const char ctl[] = "{\"version\":3,\n\"deployment\":{\"resources\":[\x01]}}";
    assert_bad_bytes_refused(ctl, sizeof ctl - 1, "byte 0x01 at line 2, column 28");
    /* A NUL byte inside a string (fuzz_stackstate, reading the merged text back): cJSON read past
     * it, and the merged document was written up to it — the stack state cut off after "T0". */
    static const char in_string[] = "{\"version\":3,\"deployment\":{\"manifest\":{\"time\":\"2025-01-02T0\0   |\","
                                    "\"magic\":\"\",\"version\":\"\"},\n\"resources\":[],\"metadata\":{}}}";
    assert_bad_bytes_refused(in_string, sizeof in_string - 1, "a NUL byte (0x00) at column 60");
}
END_TEST

int main(void) {
    Suite *s = suite_create("stackstate");
    TCase *tc = tcase_create("stackstate");
    tcase_add_test(tc, test_default_provider_name);
    tcase_add_test(tc, test_new_document);
    tcase_add_test(tc, test_merge_twice_one_copy);
    tcase_add_test(tc, test_default_provider_config_changed);
    tcase_add_test(tc, test_real_exports_untouched);
    tcase_add_test(tc, test_existing_fixture_bytes_and_conflicts);
    tcase_add_test(tc, test_explicit_providers_and_order);
    tcase_add_test(tc, test_secrets);
    tcase_add_test(tc, test_documents_without_resources);
    tcase_add_test(tc, test_escaped_member_names);
    tcase_add_test(tc, test_crash_before_rename_keeps_old_file);
    tcase_add_test(tc, test_control_bytes_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

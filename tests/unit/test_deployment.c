/* test_deployment.c — reading stack state: every real stack export under ../shared/data, the
 * checkpoint versions 0/1/3/4 (with secrets and an unknown feature), and malformed documents with
 * their exact messages. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "specs/deployment.h"
#include "testutil.h"

static deployment_t *load_ok(arena_t *a, const char *rel) {
    diag_list_t d;
    diag_list_init(&d);
    deployment_t *dep = deployment_load(a, tu_data(a, rel), &d);
    if (!dep) ck_abort_msg("%s: %s", rel, d.head ? d.head->message : "(no diagnostic)");
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    return dep;
}

/* Parses text expecting failure; returns the first message (arena copy). */
static const char *parse_fail(arena_t *a, const char *text, int *line) {
    diag_list_t d;
    diag_list_init(&d);
    deployment_t *dep = deployment_parse(a, text, strlen(text), "bad.json", &d);
    ck_assert_ptr_null(dep);
    ck_assert_int_ge(d.errors, 1);
    ck_assert_str_eq(d.head->file, "bad.json");
    const char *msg = arena_strdup(a, d.head->message);
    if (line) *line = d.head->line;
    diag_list_free(&d);
    return msg;
}

START_TEST(test_all_shared_stack_exports) {
    arena_t *a = arena_new();
    size_t n1 = 0, n2 = 0;
    char **stacks = tu_find_files(a, tu_data(a, "pulumi-state"), "/stack.json", &n1);
    char **states = tu_find_files(a, tu_data(a, "pulumi-state"), "/state.json", &n2);
    ck_assert_int_ge(n1 + n2, 70);
    size_t files = 0, resources = 0;
    for (int pass = 0; pass < 2; pass++) {
        char **list = pass ? states : stacks;
        for (size_t i = 0; list[i]; i++) {
            diag_list_t d;
            diag_list_init(&d);
            deployment_t *dep = deployment_load(a, list[i], &d);
            if (!dep) ck_abort_msg("%s: %s", list[i], d.head ? d.head->message : "?");
            diag_list_free(&d);
            ck_assert_int_eq(dep->version, 3);
            ck_assert(!dep->is_checkpoint);
            ck_assert_ptr_nonnull(dep->stack);
            ck_assert_ptr_nonnull(dep->project);
            /* Every resource of the document is read, in order, with its raw JSON kept. */
            const cJSON *res = cJSON_GetObjectItem(cJSON_GetObjectItem(dep->doc, "deployment"), "resources");
            ck_assert_int_eq(dep->n_resources, (size_t)cJSON_GetArraySize(res));
            size_t k = 0;
            const cJSON *r;
            cJSON_ArrayForEach(r, res) {
                const state_resource_t *sr = &dep->resources[k++];
                ck_assert_ptr_eq(sr->raw, r);
                ck_assert_str_eq(sr->urn, cJSON_GetObjectItem(r, "urn")->valuestring);
                ck_assert_int_eq(sr->inputs->kind, PV_OBJECT);
                ck_assert_int_eq(sr->outputs->kind, PV_OBJECT);
                const cJSON *ins = cJSON_GetObjectItem(r, "inputs");
                ck_assert_int_eq(sr->inputs->u.obj.len, ins ? (size_t)cJSON_GetArraySize(ins) : 0);
                ck_assert_ptr_eq(deployment_find_urn(dep, sr->urn), sr);
                if (sr->custom && sr->id && !sr->del) {
                    const state_resource_t *byid = deployment_find_id(dep, sr->type, sr->id);
                    ck_assert_ptr_nonnull(byid);
                    ck_assert_str_eq(byid->id, sr->id);
                }
            }
            resources += dep->n_resources;
            files++;
            deployment_free(dep);
        }
    }
    ck_assert_int_eq(files, n1 + n2);
    ck_assert_int_ge(resources, 600);
    arena_free(a);
}
END_TEST

START_TEST(test_checkpoint_versions) {
    arena_t *a = arena_new();
    deployment_t *v1 = load_ok(a, "checkpoints/checkpoint-v1.json");
    ck_assert_int_eq(v1->version, 1);
    ck_assert(v1->is_checkpoint);
    ck_assert_str_eq(v1->stack, "foo");
    ck_assert_str_eq(v1->project, "countdown");
    /* v1 `defaults` fill absent inputs (Pulumi's v1→v2 migration) but never override inputs. */
    const state_resource_t *role =
        deployment_find_id(v1, "aws:iam/role:Role", "countDown_watcher-iamrole-bf695eb09a5c3e28");
    ck_assert_ptr_nonnull(role);
    ck_assert_str_eq(pv_object_get(role->inputs, "name")->u.str.s, "countDown_watcher-iamrole-bf695eb09a5c3e28");
    ck_assert_str_eq(pv_object_get(role->inputs, "path")->u.str.s, "/");
    ck_assert_int_eq(pv_object_get(role->inputs, "assumeRolePolicy")->kind, PV_STRING);
    const state_resource_t *lg =
        deployment_find_id(v1, "aws:cloudwatch/logGroup:LogGroup", "/aws/lambda/heartbeat-5614fce52cdefed1");
    ck_assert_ptr_nonnull(lg);
    ck_assert_int_eq(pv_object_get(lg->inputs, "retentionInDays")->kind, PV_NUMBER); /* input 1, not default "1" */
    /* components are not found by ID */
    ck_assert_ptr_nonnull(deployment_find_urn(v1, "urn:pulumi:foo::countdown::cloud:topic:Topic::countDown"));

    deployment_t *v0 = load_ok(a, "checkpoints/checkpoint-v0.json");
    ck_assert_int_eq(v0->version, 0);
    ck_assert(v0->is_checkpoint);
    ck_assert_str_eq(v0->stack, "foo");
    ck_assert_int_eq(v0->n_resources, v1->n_resources);

    deployment_t *v3 = load_ok(a, "checkpoints/checkpoint-v3.json");
    ck_assert_int_eq(v3->version, 3);
    ck_assert(v3->is_checkpoint);
    ck_assert_str_eq(v3->stack, "foo"); /* the checkpoint says "": taken from the URNs instead */

    deployment_t *v4 = load_ok(a, "checkpoints/checkpoint-v4.json");
    ck_assert_int_eq(v4->version, 4);
    ck_assert_int_eq(v4->n_resources, v3->n_resources);
    deployment_free(v1);
    deployment_free(v0);
    deployment_free(v3);
    deployment_free(v4);
    arena_free(a);
}
END_TEST

START_TEST(test_unknown_feature_refused) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    char *path = tu_data(a, "checkpoints/checkpoint-v4-unsupported-feature.json");
    ck_assert_ptr_null(deployment_load(a, path, &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(d.head->file, path);
    ck_assert_str_eq(d.head->message,
                     "the stack state uses the feature 'unsupported-feature', which this cimport does not support; "
                     "upgrade cimport, or export the stack with a Pulumi CLI that writes it without that feature");
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_b64_secrets_decoded) {
    arena_t *a = arena_new();
    deployment_t *dep = load_ok(a, "checkpoints/checkpoint-secrets.json");
    const state_resource_t *role =
        deployment_find_urn(dep, "urn:pulumi:foo::countdown::aws:iam/role:Role::countDown_watcher-iamrole");
    ck_assert_ptr_nonnull(role);
    pv_t *s = pv_object_get(role->inputs, "assumeRolePolicy");
    ck_assert_int_eq(s->kind, PV_SECRET);
    ck_assert_ptr_nonnull(s->u.secret.ciphertext); /* kept, so writing the state back is lossless */
    ck_assert_ptr_nonnull(s->u.secret.inner);
    ck_assert_int_eq(s->u.secret.inner->kind, PV_STRING);
    ck_assert_ptr_nonnull(strstr(s->u.secret.inner->u.str.s, "sts:AssumeRole"));
    pv_t *u = pv_object_get(role->outputs, "uniqueId");
    ck_assert_str_eq(u->u.secret.inner->u.str.s, "AROAJBQANPFEXFW2SEVJM");
    /* the encoded form still carries the ciphertext, never the plaintext */
    cJSON *j = pv_to_state_json(role->inputs);
    char *text = cJSON_PrintUnformatted(j);
    ck_assert_ptr_null(strstr(text, "sts:AssumeRole"));
    ck_assert_ptr_nonnull(strstr(text, "ciphertext"));
    free(text);
    cJSON_Delete(j);
    deployment_free(dep);
    arena_free(a);
}
END_TEST

START_TEST(test_bad_documents) {
    arena_t *a = arena_new();
    int line = 0;
    ck_assert_str_eq(parse_fail(a, "{\n\"version\": 3,\n\"deployment\": {,}}", &line),
                     "not valid JSON (a stack state must be the JSON of `pulumi stack export` or a checkpoint)");
    ck_assert_int_eq(line, 3);
    ck_assert_str_eq(parse_fail(a, "[1,2]", NULL), "not a Pulumi stack state: the document is not a JSON object");
    ck_assert_str_eq(parse_fail(a, "{\"resources\": []}", NULL),
                     "not a Pulumi stack state: expected the output of `pulumi stack export` ({\"version\", "
                     "\"deployment\"}) or a stack checkpoint ({\"version\", \"checkpoint\"})");
    ck_assert_str_eq(parse_fail(a, "{\"version\": 3}", NULL),
                     "the stack state has no `deployment` (a `pulumi stack export`) or `checkpoint` (a backend "
                     "checkpoint) object");
    ck_assert_str_eq(parse_fail(a, "{\"version\": 5, \"deployment\": {}}", NULL),
                     "the stack state has version 5, newer than this cimport understands (1–4); upgrade cimport");
    ck_assert_str_eq(parse_fail(a, "{\"version\": \"3\", \"deployment\": {}}", NULL),
                     "the stack state's `version` is not an integer");
    ck_assert_str_eq(parse_fail(a, "{\"version\": 3, \"deployment\": {\"resources\": [{\"type\": \"a:b:C\"}]}}", NULL),
                     "resource #0 of the stack state has no `urn`");
    ck_assert_str_eq(parse_fail(a, "{\"version\": 3, \"deployment\": {\"resources\": {}}}", NULL),
                     "the stack state's `resources` is not an array");
    ck_assert_str_eq(
        parse_fail(a,
                   "{\"version\": 3, \"deployment\": {\"resources\": [{\"urn\": \"urn:pulumi:s::p::a:b:C::x\", "
                   "\"type\": \"a:b:C\", \"inputs\": {\"k\": {\"4dabf18193072939515e22adb298388d\": "
                   "\"1b47061264138c4ac30d75fd1eb44270\"}}}]}}",
                   NULL),
        "the inputs of resource 'urn:pulumi:s::p::a:b:C::x': malformed secret value: exactly one of `ciphertext` or "
        "`plaintext` must be supplied");
    arena_free(a);
}
END_TEST

START_TEST(test_minimal_export_and_lookups) {
    arena_t *a = arena_new();
    const char *text =
        "{\"version\": 3, \"deployment\": {\"resources\": ["
        "{\"urn\": \"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev\", \"custom\": false, \"type\": "
        "\"pulumi:pulumi:Stack\"},"
        "{\"urn\": \"urn:pulumi:dev::proj::random:index/randomPet:RandomPet::old\", \"custom\": true, \"delete\": "
        "true, \"id\": \"pet-1\", \"type\": \"random:index/randomPet:RandomPet\"},"
        "{\"urn\": \"urn:pulumi:dev::proj::random:index/randomPet:RandomPet::new\", \"custom\": true, \"id\": "
        "\"pet-1\", \"type\": \"random:index/randomPet:RandomPet\", \"protect\": true, \"dependencies\": [\"x\", "
        "\"y\"], \"provider\": \"urn:pulumi:dev::proj::pulumi:providers:random::default::abc\"}]}}";
    diag_list_t d;
    diag_list_init(&d);
    deployment_t *dep = deployment_parse(a, text, strlen(text), NULL, &d);
    ck_assert_ptr_nonnull(dep);
    ck_assert_str_eq(dep->stack, "dev");
    ck_assert_str_eq(dep->project, "proj");
    ck_assert_int_eq(dep->n_resources, 3);
    const state_resource_t *r = deployment_find_id(dep, "random:index/randomPet:RandomPet", "pet-1");
    ck_assert_str_eq(r->urn, "urn:pulumi:dev::proj::random:index/randomPet:RandomPet::new"); /* not the deleted one */
    ck_assert(r->protect);
    ck_assert_int_eq(r->n_dependencies, 2);
    ck_assert_str_eq(r->dependencies[1], "y");
    ck_assert_str_eq(r->provider, "urn:pulumi:dev::proj::pulumi:providers:random::default::abc");
    ck_assert_int_eq(r->inputs->u.obj.len, 0);
    ck_assert(dep->resources[1].del);
    ck_assert_ptr_null(deployment_find_id(dep, "random:index/randomPet:RandomPet", "pet-2"));
    ck_assert_ptr_null(deployment_find_urn(dep, "urn:pulumi:dev::proj::x:y:Z::nope"));
    deployment_free(dep);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("deployment");
    TCase *tc = tcase_create("deployment");
    tcase_add_test(tc, test_all_shared_stack_exports);
    tcase_add_test(tc, test_checkpoint_versions);
    tcase_add_test(tc, test_unknown_feature_refused);
    tcase_add_test(tc, test_b64_secrets_decoded);
    tcase_add_test(tc, test_bad_documents);
    tcase_add_test(tc, test_minimal_export_and_lookups);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

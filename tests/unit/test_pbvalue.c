/* test_pbvalue.c — pv_t ⇄ google.protobuf.Struct: every value kind survives encode → pack → unpack →
 * decode, the encoding options do what the engine does for providers that accept less, and bad
 * signature objects are rejected with clear messages. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "importer/pbvalue.h"
#include "testutil.h"

static pv_t *parse_state(arena_t *a, const char *json) {
    cJSON *j = cJSON_Parse(json);
    ck_assert_ptr_nonnull(j);
    pv_t *v = pv_from_state_json(a, j, "test", NULL);
    cJSON_Delete(j);
    ck_assert_ptr_nonnull(v);
    return v;
}

static char *state_text(arena_t *a, const pv_t *v) {
    cJSON *j = pv_to_state_json(v);
    char *s = cJSON_PrintUnformatted(j);
    char *r = arena_strdup(a, s);
    free(s);
    cJSON_Delete(j);
    return r;
}

/* Encodes, packs to bytes, unpacks into the arena and decodes. */
static pv_t *wire_roundtrip(arena_t *a, const pv_t *obj, const pbvalue_options_t *o) {
    diag_list_t d;
    diag_list_init(&d);
    Google__Protobuf__Struct *s = pbvalue_struct_from_pv(a, obj, o, "test", &d);
    ck_assert_ptr_nonnull(s);
    size_t len;
    unsigned char *bytes = pbvalue_pack(&s->base, &len);
    ProtobufCAllocator al = pbvalue_arena_allocator(a);
    Google__Protobuf__Struct *back = google__protobuf__struct__unpack(&al, len, bytes);
    free(bytes);
    ck_assert_ptr_nonnull(back);
    pv_t *v = pbvalue_pv_from_struct(a, back, "test", &d);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    return v;
}

START_TEST(test_plain_values) {
    arena_t *a = arena_new();
    pv_t *v = parse_state(a, "{\"s\":\"héllo\",\"n\":1.5,\"i\":-42,\"t\":true,\"f\":false,\"z\":null,"
                             "\"l\":[1,\"two\",null,[],{}],\"o\":{\"a.b\":{\"c\":[{\"d\":0}]}},\"e\":\"\"}");
    pv_t *back = wire_roundtrip(a, v, NULL);
    ck_assert(pv_equal(v, back));
    ck_assert_str_eq(state_text(a, back), state_text(a, v));
    /* NULL encodes as an empty Struct, never an absent one. */
    Google__Protobuf__Struct *empty = pbvalue_struct_from_pv(a, NULL, NULL, "test", NULL);
    ck_assert_ptr_nonnull(empty);
    ck_assert_uint_eq(empty->n_fields, 0);
    /* An absent Struct decodes to NULL (ReadResponse: resource does not exist). */
    ck_assert_ptr_null(pbvalue_pv_from_struct(a, NULL, "test", NULL));
    arena_free(a);
}
END_TEST

START_TEST(test_special_values_roundtrip) {
    arena_t *a = arena_new();
    pv_t *v = parse_state(
        a, "{\"pw\":{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\","
           "\"plaintext\":\"\\\"hunter2\\\"\"},"
           "\"nested\":{\"k\":{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\","
           "\"plaintext\":\"{\\\"a\\\":[1,2]}\"}},"
           "\"asset\":{\"4dabf18193072939515e22adb298388d\":\"c44067f5952c0a294b673a41bacd8c17\",\"hash\":\"abc\","
           "\"text\":\"hello\"},"
           "\"archive\":{\"4dabf18193072939515e22adb298388d\":\"0def7320c3a5731c473e5ecbe6d01bc7\",\"assets\":{"
           "\"f.txt\":{\"4dabf18193072939515e22adb298388d\":\"c44067f5952c0a294b673a41bacd8c17\",\"path\":\"f.txt\"}}},"
           "\"uriArchive\":{\"4dabf18193072939515e22adb298388d\":\"0def7320c3a5731c473e5ecbe6d01bc7\","
           "\"uri\":\"https://example.com/a.zip\"},"
           "\"ref\":{\"4dabf18193072939515e22adb298388d\":\"5cf8f73096256a8f31e491e813e4eb8e\","
           "\"urn\":\"urn:pulumi:s::p::aws:s3/bucket:Bucket::b\",\"id\":\"b-123\",\"packageVersion\":\"6.0.0\"},"
           "\"out\":{\"4dabf18193072939515e22adb298388d\":\"d0e6a833031e9bbcd3f4e8bde6ca49a4\",\"value\":\"x\","
           "\"secret\":true,\"dependencies\":[\"urn:a\",\"urn:b\"]},"
           "\"unknownOut\":{\"4dabf18193072939515e22adb298388d\":\"d0e6a833031e9bbcd3f4e8bde6ca49a4\"},"
           "\"bytes\":{\"4dabf18193072939515e22adb298388d\":\"803fd3297a5875dc03ca845dda5d2a98\",\"value\":\"/wBh\"},"
           "\"unk\":\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\"}");
    pv_t *back = wire_roundtrip(a, v, NULL);
    ck_assert(pv_equal(v, back));
    /* Secrets stay secret, references keep every field, outputs keep flags and dependencies. */
    ck_assert_int_eq(pv_object_get(back, "pw")->kind, PV_SECRET);
    ck_assert_str_eq(pv_object_get(back, "pw")->u.secret.inner->u.str.s, "hunter2");
    ck_assert(pv_contains_secret(pv_object_get(back, "nested")));
    pv_t *ref = pv_object_get(back, "ref");
    ck_assert_int_eq(ref->kind, PV_RESOURCE_REF);
    ck_assert_str_eq(ref->u.ref.id, "b-123");
    ck_assert_str_eq(ref->u.ref.package_version, "6.0.0");
    pv_t *out = pv_object_get(back, "out");
    ck_assert(out->u.output.known && out->u.output.secret);
    ck_assert_uint_eq(out->u.output.ndeps, 2);
    ck_assert_str_eq(out->u.output.deps[1], "urn:b");
    ck_assert(!pv_object_get(back, "unknownOut")->u.output.known);
    pv_t *bytes = pv_object_get(back, "bytes");
    ck_assert(bytes->u.str.bytes);
    ck_assert_uint_eq(bytes->u.str.len, 3);
    ck_assert(memcmp(bytes->u.str.s, "\xff\x00\x61", 3) == 0);
    ck_assert_int_eq(pv_object_get(back, "unk")->kind, PV_UNKNOWN);
    pv_t *arch = pv_object_get(back, "archive");
    ck_assert(arch->u.archive.has_assets);
    ck_assert_str_eq(arch->u.archive.assets[0].key, "f.txt");
    ck_assert_str_eq(arch->u.archive.assets[0].value->u.asset.path, "f.txt");
    arena_free(a);
}
END_TEST

START_TEST(test_every_unknown_sentinel_decodes) {
    static const char *const sentinels[] = {
        "04da6b54-80e4-46f7-96ec-b56ff0331ba9", "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
        "3eeb2bf0-c639-47a8-9e75-3b44932eb421", "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
        "030794c1-ac77-496b-92df-f27374a8bd58", "e48ece36-62e2-4504-bad9-02848725956a",
        "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
    };
    arena_t *a = arena_new();
    for (size_t i = 0; i < 7; i++) {
        Google__Protobuf__Value v = GOOGLE__PROTOBUF__VALUE__INIT;
        v.kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE;
        v.string_value = (char *)sentinels[i];
        pv_t *p = pbvalue_pv_from_value(a, &v, "test", NULL);
        ck_assert_int_eq(p->kind, PV_UNKNOWN);
    }
    arena_free(a);
}
END_TEST

START_TEST(test_options_for_limited_providers) {
    arena_t *a = arena_new();
    pv_t *v = parse_state(
        a, "{\"pw\":{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\","
           "\"plaintext\":\"\\\"hunter2\\\"\"},"
           "\"ref\":{\"4dabf18193072939515e22adb298388d\":\"5cf8f73096256a8f31e491e813e4eb8e\","
           "\"urn\":\"urn:pulumi:s::p::t::r\",\"id\":\"r-1\"},"
           "\"refNoId\":{\"4dabf18193072939515e22adb298388d\":\"5cf8f73096256a8f31e491e813e4eb8e\","
           "\"urn\":\"urn:pulumi:s::p::t::q\"},"
           "\"unk\":\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\",\"list\":[\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\",1],"
           "\"out\":{\"4dabf18193072939515e22adb298388d\":\"d0e6a833031e9bbcd3f4e8bde6ca49a4\",\"value\":\"x\","
           "\"secret\":true},"
           "\"asset\":{\"4dabf18193072939515e22adb298388d\":\"c44067f5952c0a294b673a41bacd8c17\",\"hash\":\"h\","
           "\"text\":\"big contents\"}}");
    pbvalue_options_t o;
    pbvalue_options_default(&o);
    o.keep_secrets = false;
    o.keep_resources = false;
    o.keep_unknowns = false;
    o.keep_output_values = false;
    o.elide_asset_contents = true;
    pv_t *back = wire_roundtrip(a, v, &o);
    ck_assert_str_eq(state_text(a, back),
                     "{\"asset\":{\"4dabf18193072939515e22adb298388d\":\"c44067f5952c0a294b673a41bacd8c17\","
                     "\"hash\":\"h\"},\"list\":[null,1],\"out\":\"x\",\"pw\":\"hunter2\",\"ref\":\"r-1\","
                     "\"refNoId\":\"urn:pulumi:s::p::t::q\"}");
    /* With secrets kept, an output's secrecy survives flattening. */
    o.keep_secrets = true;
    back = wire_roundtrip(a, v, &o);
    ck_assert_int_eq(pv_object_get(back, "out")->kind, PV_SECRET);
    arena_free(a);
}
END_TEST

START_TEST(test_bad_values) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    /* A secret known only by ciphertext cannot be sent. */
    pv_t *v = parse_state(a, "{\"pw\":{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\","
                             "\"ciphertext\":\"v1:abc\"}}");
    ck_assert_ptr_null(pbvalue_struct_from_pv(a, v, NULL, "resource 'x'", &d));
    ck_assert_str_eq(d.tail->message,
                     "resource 'x': a secret value is known only by its ciphertext and cannot be sent to the provider; "
                     "decrypt the state first (e.g. `pulumi stack export --show-secrets`)");
    ck_assert_ptr_null(pbvalue_struct_from_pv(a, pv_string(a, "x"), NULL, "inputs", &d));
    ck_assert_str_eq(d.tail->message, "inputs: expected an object of properties, got string");

    /* Decoding: unknown signature, reference without urn, bad base64. */
    static const struct {
        const char *sig, *key, *val, *msg;
    } cases[] = {
        {"deadbeef", "x", "y",
         "Read response: unrecognized signature 'deadbeef' in a property value from the provider"},
        {PV_SIG_RESOURCE_REF, "id", "i",
         "Read response: malformed resource reference from the provider: it has no `urn`"},
        {PV_SIG_BYTESTRING, "value", "!!",
         "Read response: malformed byte string from the provider: `value` must be base64"},
    };
    for (size_t i = 0; i < 3; i++) {
        Google__Protobuf__Value sigv = GOOGLE__PROTOBUF__VALUE__INIT, valv = GOOGLE__PROTOBUF__VALUE__INIT;
        sigv.kind_case = valv.kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE;
        sigv.string_value = (char *)cases[i].sig;
        valv.string_value = (char *)cases[i].val;
        Google__Protobuf__Struct__FieldsEntry e1 = GOOGLE__PROTOBUF__STRUCT__FIELDS_ENTRY__INIT,
                                              e2 = GOOGLE__PROTOBUF__STRUCT__FIELDS_ENTRY__INIT;
        e1.key = PV_SIG_KEY;
        e1.value = &sigv;
        e2.key = (char *)cases[i].key;
        e2.value = &valv;
        Google__Protobuf__Struct__FieldsEntry *fields[] = {&e1, &e2};
        Google__Protobuf__Struct s = GOOGLE__PROTOBUF__STRUCT__INIT;
        s.n_fields = 2;
        s.fields = fields;
        size_t before = d.errors;
        ck_assert_ptr_null(pbvalue_pv_from_struct(a, &s, "Read response", &d));
        ck_assert_uint_eq(d.errors, before + 1);
        ck_assert_str_eq(d.tail->message, cases[i].msg);
    }
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Every resource's outputs in the recorded random/tls stacks survive the wire. */
START_TEST(test_shared_data_states_roundtrip) {
    arena_t *a = arena_new();
    size_t n = 0, checked = 0;
    char **files = tu_find_files(a, tu_data(a, "pulumi-state/pulumi-random"), "stack.json", &n);
    ck_assert_uint_gt(n, 0);
    for (size_t i = 0; files[i]; i++) {
        char *text = tu_read(files[i], NULL);
        cJSON *j = cJSON_Parse(text);
        free(text);
        const cJSON *res = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "deployment"), "resources"), *r;
        cJSON_ArrayForEach(r, res) {
            const cJSON *outs = cJSON_GetObjectItem(r, "outputs");
            if (!outs) continue;
            pv_t *v = pv_from_state_json(a, outs, files[i], NULL);
            if (!v || pv_contains_secret(v)) continue; /* ciphertext secrets cannot be sent; tested above */
            ck_assert_msg(pv_equal(v, wire_roundtrip(a, v, NULL)), "%s", files[i]);
            checked++;
        }
        cJSON_Delete(j);
    }
    ck_assert_uint_gt(checked, 5);
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pbvalue");
    TCase *tc = tcase_create("pbvalue");
    tcase_add_test(tc, test_plain_values);
    tcase_add_test(tc, test_special_values_roundtrip);
    tcase_add_test(tc, test_every_unknown_sentinel_decodes);
    tcase_add_test(tc, test_options_for_limited_providers);
    tcase_add_test(tc, test_bad_values);
    tcase_add_test(tc, test_shared_data_states_roundtrip);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

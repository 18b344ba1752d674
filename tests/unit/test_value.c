/* test_value.c — property values: equality, paths, and the JSON state encoding round trip over
 * every resource of every stack export and checkpoint in ../shared/data. */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "specs/jsonscan.h"
#include "specs/value.h"
#include "testutil.h"

/* A value of a kind no constructor makes (asset, archive, resource reference, output), zeroed. */
static pv_t *pv_new_kind_for_test(arena_t *a, pv_kind_t kind) {
    pv_t *v = arena_alloc(a, sizeof *v);
    v->kind = kind;
    return v;
}

static pv_t *parse_state(arena_t *a, const char *json) {
    cJSON *j = cJSON_Parse(json);
    ck_assert_ptr_nonnull(j);
    diag_list_t d;
    diag_list_init(&d);
    pv_t *v = pv_from_state_json(a, j, "test", &d);
    cJSON_Delete(j);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    return v;
}

START_TEST(test_path_parse_and_format) {
    arena_t *a = arena_new();
    pv_path_t p;
    ck_assert(pv_path_parse(a, "a.b[0][\"c.d\"]", &p, NULL));
    ck_assert_int_eq(p.len, 4);
    ck_assert_str_eq(p.segs[0].key, "a");
    ck_assert_str_eq(p.segs[1].key, "b");
    ck_assert_ptr_null(p.segs[2].key);
    ck_assert_int_eq(p.segs[2].index, 0);
    ck_assert_str_eq(p.segs[3].key, "c.d");
    ck_assert_str_eq(pv_path_format(a, &p), "a.b[0][\"c.d\"]");
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(!pv_path_parse(a, "a..b", &p, &d));
    ck_assert(!pv_path_parse(a, "a[", &p, &d));
    ck_assert(!pv_path_parse(a, "", &p, &d));
    ck_assert_int_eq(d.errors, 3);
    ck_assert_str_eq(d.head->message, "invalid property path 'a..b': use the form a.b[0][\"c.d\"]");
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_path_get_set) {
    arena_t *a = arena_new();
    pv_t *root = parse_state(a, "{\"tags\":{\"Name\":\"x\"},\"list\":[{\"k\":1}]}");
    pv_path_t p;
    ck_assert(pv_path_parse(a, "list[0].k", &p, NULL));
    pv_t *v = pv_path_get(root, &p);
    ck_assert_ptr_nonnull(v);
    ck_assert(v->kind == PV_NUMBER && v->u.n == 1);
    pv_t *dst = pv_object(a);
    ck_assert(pv_path_set(a, dst, &p, pv_number(a, 7)));
    ck_assert(pv_path_parse(a, "tags[\"a.b\"]", &p, NULL));
    ck_assert(pv_path_set(a, dst, &p, pv_string(a, "y")));
    cJSON *j = pv_to_state_json(dst);
    char *s = cJSON_PrintUnformatted(j);
    ck_assert_str_eq(s, "{\"list\":[{\"k\":7}],\"tags\":{\"a.b\":\"y\"}}");
    free(s);
    cJSON_Delete(j);
    /* crossing a scalar fails */
    ck_assert(pv_path_parse(a, "tags.a.b.c", &p, NULL));
    pv_t *scalar = parse_state(a, "{\"tags\":{\"a\":3}}");
    ck_assert(!pv_path_set(a, scalar, &p, pv_null(a)));
    arena_free(a);
}
END_TEST

START_TEST(test_equality) {
    arena_t *a = arena_new();
    pv_t *x = parse_state(a, "{\"a\":1,\"b\":[true,null,\"s\"]}");
    pv_t *y = parse_state(a, "{\"b\":[true,null,\"s\"],\"a\":1.0}");
    pv_t *z = parse_state(a, "{\"b\":[true,null,\"t\"],\"a\":1}");
    ck_assert(pv_equal(x, y));
    ck_assert(!pv_equal(x, z));
    ck_assert(pv_equal(x, pv_clone(a, x)));
    /* an archive's asset names may repeat (found by fuzz_stackstate): two reads of the same text are
     * equal, and a different second asset is not */
    const char *arch = "{\"4dabf18193072939515e22adb298388d\":\"0def7320c3a5731c473e5ecbe6d01bc7\",\"assets\":{"
                       "\"i.js\":{\"k\":\"v\"},\"i.js\":{}}}";
    ck_assert(pv_equal(parse_state(a, arch), parse_state(a, arch)));
    ck_assert(!pv_equal(parse_state(a, arch),
                        parse_state(a, "{\"4dabf18193072939515e22adb298388d\":\"0def7320c3a5731c473e5ecbe6d01bc7\","
                                       "\"assets\":{\"i.js\":{\"k\":\"v\"},\"i.js\":{\"k\":\"w\"}}}")));
    arena_free(a);
}
END_TEST

START_TEST(test_special_values) {
    arena_t *a = arena_new();
    pv_t *v = parse_state(a, "{\"s\":{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\","
                             "\"plaintext\":\"\\\"hunter2\\\"\"},"
                             "\"u\":\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\","
                             "\"f\":{\"4dabf18193072939515e22adb298388d\":\"8ad145fe-0d11-4827-bfd7-1abcbf086f5c\","
                             "\"value\":\"7ff0000000000000\"},"
                             "\"b\":{\"4dabf18193072939515e22adb298388d\":\"803fd3297a5875dc03ca845dda5d2a98\","
                             "\"value\":\"/w==\"}}");
    pv_t *s = pv_object_get(v, "s");
    ck_assert_int_eq(s->kind, PV_SECRET);
    ck_assert_str_eq(s->u.secret.inner->u.str.s, "hunter2");
    ck_assert_int_eq(pv_object_get(v, "u")->kind, PV_UNKNOWN);
    ck_assert(isinf(pv_object_get(v, "f")->u.n));
    pv_t *b = pv_object_get(v, "b");
    ck_assert(b->u.str.bytes && b->u.str.len == 1 && (unsigned char)b->u.str.s[0] == 0xff);
    ck_assert(pv_contains_secret(v));
    ck_assert(pv_contains_unknown(v));
    /* display JSON redacts secrets */
    cJSON *dj = pv_to_display_json(v, false);
    char *ds = cJSON_PrintUnformatted(dj);
    ck_assert_ptr_null(strstr(ds, "hunter2"));
    ck_assert_ptr_nonnull(strstr(ds, "[secret]"));
    free(ds);
    cJSON_Delete(dj);
    /* state JSON round-trips */
    cJSON *j = pv_to_state_json(v);
    diag_list_t d;
    diag_list_init(&d);
    pv_t *back = pv_from_state_json(a, j, "rt", &d);
    cJSON_Delete(j);
    ck_assert(pv_equal(v, back));
    /* malformed secrets are errors in Pulumi's words */
    cJSON *bad = cJSON_Parse("{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\"}");
    ck_assert_ptr_null(pv_from_state_json(a, bad, "inputs", &d));
    ck_assert_str_eq(d.head->message,
                     "inputs: malformed secret value: exactly one of `ciphertext` or `plaintext` must be supplied");
    cJSON_Delete(bad);
    diag_list_free(&d);
    /* a plaintext is one JSON value, as Go's json.Unmarshal reads it: a leading zero, text after the
     * value or cJSON's 1.e5 is not (cJSON alone read 02 as 2 and "x" trailing as "x") */
    const char *not_json[] = {"02", "-01", "1 2", "\\\"x\\\" trailing", "1.e5", "[1,]"};
    for (size_t i = 0; i < sizeof not_json / sizeof *not_json; i++) {
        char *doc = arena_sprintf(a,
                                  "{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\","
                                  "\"plaintext\":\"%s\"}",
                                  not_json[i]);
        cJSON *j2 = cJSON_Parse(doc);
        ck_assert_ptr_nonnull(j2);
        diag_list_init(&d);
        ck_assert_msg(pv_from_state_json(a, j2, "inputs", &d) == NULL, "%s read", doc);
        ck_assert_str_eq(d.head->message, "inputs: malformed secret value: its plaintext is not JSON");
        cJSON_Delete(j2);
        diag_list_free(&d);
    }
    arena_free(a);
}
END_TEST

/* v's binary form (pv_encode) decodes to a value whose own form is the same bytes (and, `equal`, that
 * pv_equal finds equal to v: not with a NaN); every shorter prefix and a byte more are refused. */
static void assert_bin_roundtrip(const pv_t *v, bool prefixes, bool equal) {
    arena_t *a = arena_new();
    buf_t b = {0}, again = {0};
    pv_encode(&b, v);
    pv_t *back = (pv_t *)(uintptr_t)1;
    ck_assert(pv_decode(a, b.data, b.len, &back));
    ck_assert(v ? back && (!equal || pv_equal(v, back)) : back == NULL);
    pv_encode(&again, back);
    ck_assert_uint_eq(again.len, b.len);
    ck_assert(memcmp(again.data, b.data, b.len) == 0);
    for (size_t n = 0; prefixes && n < b.len; n++) {
        pv_t *cut = NULL;
        ck_assert_msg(!pv_decode(a, b.data, n, &cut), "a prefix of %zu of %zu bytes decoded", n, b.len);
    }
    buf_putc(&b, 0);
    pv_t *more = NULL;
    ck_assert(!pv_decode(a, b.data, b.len, &more));
    buf_free(&b);
    buf_free(&again);
    arena_free(a);
}

/* The binary form (pv_encode/pv_decode, a run's spilled inputs) keeps what a value is exactly: every
 * kind, a byte string's NUL, a secret known only by its ciphertext, archives' assets, outputs' flags
 * and dependencies, a NULL member, NaN and -0; a damaged tag or a count beyond the bytes is refused. */
START_TEST(test_binary_form) {
    arena_t *a = arena_new();
    pv_t *o = pv_object(a);
    pv_object_set(a, o, "s", pv_string(a, "plain"));
    pv_object_set(a, o, "bytes", pv_stringn(a, "a\0b", 3));
    pv_object_get(o, "bytes")->u.str.bytes = true;
    pv_object_set(a, o, "nan", pv_number(a, NAN));
    pv_object_set(a, o, "negzero", pv_number(a, -0.0));
    pv_object_set(a, o, "t", pv_bool(a, true));
    pv_object_set(a, o, "n", pv_null(a));
    pv_object_set(a, o, "u", pv_unknown(a));
    pv_object_set(a, o, "none", NULL);
    pv_t *arr = pv_array(a);
    pv_array_push(a, arr, pv_number(a, 1e300));
    pv_array_push(a, arr, pv_secret(a, pv_string(a, "hunter2")));
    pv_t *cipher = pv_secret(a, NULL);
    cipher->u.secret.ciphertext = "v1:abc";
    pv_array_push(a, arr, cipher);
    pv_object_set(a, o, "list", arr);
    pv_t *asset = pv_new_kind_for_test(a, PV_ASSET);
    asset->u.asset.hash = "h";
    asset->u.asset.text = "hello";
    pv_t *archive = pv_new_kind_for_test(a, PV_ARCHIVE);
    archive->u.archive.path = "dir";
    archive->u.archive.has_assets = true;
    archive->u.archive.nassets = 1;
    archive->u.archive.assets = arena_alloc(a, sizeof *archive->u.archive.assets);
    archive->u.archive.assets[0] = (pv_member_t){"a.txt", asset};
    pv_object_set(a, o, "archive", archive);
    pv_t *ref = pv_new_kind_for_test(a, PV_RESOURCE_REF);
    ref->u.ref.urn = "urn:pulumi:dev::p::t::r";
    ref->u.ref.package_version = "1.2.3";
    pv_object_set(a, o, "ref", ref);
    pv_t *out = pv_new_kind_for_test(a, PV_OUTPUT);
    out->u.output.value = pv_string(a, "v");
    out->u.output.secret = true;
    out->u.output.ndeps = 2;
    out->u.output.deps = arena_alloc(a, 2 * sizeof *out->u.output.deps);
    out->u.output.deps[0] = "urn:a";
    out->u.output.deps[1] = "urn:b";
    pv_object_set(a, o, "out", out);
    assert_bin_roundtrip(o, true, false);
    assert_bin_roundtrip(NULL, true, true);
    buf_t b = {0};
    pv_encode(&b, o);
    pv_t *back = NULL;
    ck_assert(pv_decode(a, b.data, b.len, &back));
    const pv_t *bs = pv_object_get(back, "bytes");
    ck_assert(bs->u.str.bytes && bs->u.str.len == 3 && memcmp(bs->u.str.s, "a\0b", 3) == 0);
    ck_assert(isnan(pv_object_get(back, "nan")->u.n));
    ck_assert(signbit(pv_object_get(back, "negzero")->u.n));
    ck_assert_ptr_null(pv_object_get(back, "none"));
    ck_assert_int_eq(back->u.obj.len, o->u.obj.len);
    for (size_t i = 0; i < o->u.obj.len; i++) /* in their order */
        ck_assert_str_eq(back->u.obj.members[i].key, o->u.obj.members[i].key);
    const pv_t *c = pv_object_get(back, "list")->u.arr.items[2];
    ck_assert(c->kind == PV_SECRET && !c->u.secret.inner && strcmp(c->u.secret.ciphertext, "v1:abc") == 0);
    const pv_t *ob = pv_object_get(back, "out");
    ck_assert(ob->u.output.secret && !ob->u.output.known && ob->u.output.ndeps == 2);
    ck_assert_str_eq(ob->u.output.deps[1], "urn:b");
    ck_assert_ptr_null(pv_object_get(back, "ref")->u.ref.id);
    /* a tag that is no kind, an object claiming more members than bytes */
    b.data[0] = (char)0x40;
    ck_assert(!pv_decode(a, b.data, b.len, &back));
    const char huge[] = {(char)PV_OBJECT, (char)0xff, (char)0xff, 0x03};
    ck_assert(!pv_decode(a, huge, sizeof huge, &back));
    buf_free(&b);
    arena_free(a);
}
END_TEST

/* Every inputs/outputs value of every resource in the shared states decodes and re-encodes to the
 * same JSON value. */
static size_t roundtrip_file(const char *path) {
    size_t len;
    char *text = tu_read(path, &len);
    ck_assert_ptr_nonnull(text);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    if (!doc) return 0; /* not JSON (some fixtures are intentionally broken) */
    const cJSON *dep = cJSON_GetObjectItem(doc, "deployment");
    if (!dep) {
        const cJSON *cp = cJSON_GetObjectItem(doc, "checkpoint");
        dep = cp ? cJSON_GetObjectItem(cp, "latest") : NULL;
    }
    size_t count = 0;
    const cJSON *resources = dep ? cJSON_GetObjectItem(dep, "resources") : NULL;
    const cJSON *r;
    arena_t *a = arena_new();
    cJSON_ArrayForEach(r, resources) {
        const char *keys[] = {"inputs", "outputs"};
        for (int k = 0; k < 2; k++) {
            const cJSON *j = cJSON_GetObjectItem(r, keys[k]);
            if (!j) continue;
            diag_list_t d;
            diag_list_init(&d);
            pv_t *v = pv_from_state_json(a, j, path, &d);
            ck_assert_msg(v != NULL, "%s: %s", path, d.head ? d.head->message : "?");
            diag_list_free(&d);
            cJSON *enc = pv_to_state_json(v);
            /* Byte-for-value: plaintext secrets hold JSON text whose formatting may change, so
             * those compare by decoded value; everything else must be the identical JSON. */
            pv_t *back = pv_from_state_json(a, enc, path, NULL);
            ck_assert_msg(back && pv_equal(v, back), "%s: %s of %s does not round-trip", path, keys[k],
                          cJSON_GetObjectItem(r, "urn")->valuestring);
            assert_bin_roundtrip(v, count % 50 == 0, true);
            ck_assert_msg(pv_contains_secret(v) || cJSON_Compare(j, enc, true), "%s: %s of %s changed", path, keys[k],
                          cJSON_GetObjectItem(r, "urn")->valuestring);
            cJSON_Delete(enc);
            count++;
        }
    }
    arena_free(a);
    cJSON_Delete(doc);
    return count;
}

/* Decodes json both ways — the cJSON tree (pv_from_state_json) and straight from the text
 * (pv_from_state_text) — and asserts the same value, or the same failure with the same messages. */
static void text_agrees(const char *json) {
    arena_t *a = arena_new();
    diag_list_t d1, d2;
    diag_list_init(&d1);
    diag_list_init(&d2);
    cJSON *j = cJSON_Parse(json);
    ck_assert_msg(j != NULL, "cJSON rejects %s", json);
    pv_t *tree = pv_from_state_json(a, j, "v", &d1);
    cJSON_Delete(j);
    jscan_t s;
    jscan_init(&s, json, strlen(json));
    pv_t *text = pv_from_state_text(a, &s, "v", &d2);
    ck_assert_msg((tree == NULL) == (text == NULL), "%s: tree %p, text %p (%s)", json, (void *)tree, (void *)text,
                  s.err ? s.err : "");
    if (tree) {
        ck_assert_msg(pv_equal(tree, text), "%s: the values differ", json);
        cJSON *e1 = pv_to_state_json(tree), *e2 = pv_to_state_json(text);
        char *p1 = cJSON_PrintUnformatted(e1), *p2 = cJSON_PrintUnformatted(e2);
        ck_assert_str_eq(p1, p2);
        free(p1);
        free(p2);
        cJSON_Delete(e1);
        cJSON_Delete(e2);
    }
    ck_assert_uint_eq(d1.errors, d2.errors);
    for (diag_t *x = d1.head, *y = d2.head; x || y; x = x->next, y = y->next) {
        ck_assert_msg(x && y, "%s: a different number of messages", json);
        ck_assert_str_eq(x->message, y->message);
    }
    diag_list_free(&d1);
    diag_list_free(&d2);
    arena_free(a);
}

#define SIG "\"4dabf18193072939515e22adb298388d\""
#define SECRET SIG ":\"1b47061264138c4ac30d75fd1eb44270\""

START_TEST(test_state_text_agrees_with_tree) {
    const char *cases[] = {
        "{}",
        "[]",
        "{\"a\":1,\"b\":[true,false,null,-0.5e-3,1E+2,123456789012345678901234567890],\"c\":\"x\"}",
        /* more than the 63 characters of a number cJSON reads */
        "[1.00000000000000000000000000000000000000000000000000000000000000000000000000001]",
        /* ... where the cut changes the value: cJSON reads all 95 digits (the reader read 3.2e62) */
        "[32222222222222222222222222222222222222223333333333333333333333333333333333333333333333333333322]",
        "{\"esc\":\"q\\\"b\\\\s\\/f\\b\\f\\n\\r\\t\\u00e9\\u20ac\\ud834\\udd1e\",\"k\\u0041\":1}",
        "{\"nul\":\"ab\\u0000cd\"}",
        "{\"u\":\"04da6b54-80e4-46f7-96ec-b56ff0331ba9\",\"e\":\"04da6b54-80e4-46f7-96ec-b56ff0331ba\\u0039\"}",
        "{\"dup\":1,\"dup\":2}",
        "{\"s\":{" SECRET ",\"plaintext\":\"\\\"hunter2\\\"\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"{\\\"k\\\":[1,{\\\"n\\\":null}]}\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"\\\"x\\\" trailing\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"not json\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"1.e5\"}}",
        /* numbers the scanner ends early (0 of 02) where cJSON reads on (2): CI's fuzzer, stop 28 */
        "{\"s\":{" SECRET ",\"plaintext\":\"02\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"-01\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"00.5\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"1 2\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\" [1] \"}}",
        "{\"s\":{" SECRET ",\"ciphertext\":\"v1:abc\"}}",
        "{\"s\":{" SECRET ",\"ciphertext\":\"v1:abc\",\"plaintext\":\"1\"}}",
        "{\"s\":{" SECRET "}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"1\",\"plaintext\":\"2\"}}",
        "{\"s\":{" SECRET ",\"value\":{\"a\":1}}}",
        /* a secret inside a secret's plaintext, and a bad signature inside one */
        "{\"s\":{" SECRET ",\"plaintext\":\"{"
        "\\\"4dabf18193072939515e22adb298388d\\\":\\\"1b47061264138c4ac30d75fd1eb44270\\\","
        "\\\"plaintext\\\":\\\"2\\\"}\"}}",
        "{\"s\":{" SECRET ",\"plaintext\":\"{\\\"4dabf18193072939515e22adb298388d\\\":\\\"nope\\\"}\"}}",
        "{\"a\":{" SIG ":\"c44067f5952c0a294b673a41bacd8c17\",\"hash\":\"h\",\"text\":\"t\"}}",
        "{\"r\":{" SIG ":\"5cf8f73096256a8f31e491e813e4eb8e\",\"urn\":\"urn:pulumi:s::p::t::n\",\"id\":\"i\"}}",
        "{\"r\":{" SIG ":\"5cf8f73096256a8f31e491e813e4eb8e\"}}",
        "{\"x\":{" SIG ":\"unknown-signature\"}}",
        "{\"x\":{" SIG ":7,\"y\":1}}",
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        text_agrees(cases[i]);
    /* nesting at cJSON's limit (1,000 containers) is read, one more is refused by both */
    for (size_t deep = 999; deep <= 1001; deep++) {
        char *t = malloc(2 * deep + 1);
        memset(t, '[', deep);
        memset(t + deep, ']', deep);
        t[2 * deep] = 0;
        cJSON *j = cJSON_Parse(t);
        jscan_t s;
        jscan_init(&s, t, 2 * deep);
        arena_t *a = arena_new();
        pv_t *v = pv_from_state_text(a, &s, "v", NULL);
        ck_assert_msg((j != NULL) == (v != NULL), "%zu deep: cJSON %d, text %d", deep, j != NULL, v != NULL);
        if (deep == 999) ck_assert_ptr_nonnull(v);
        cJSON_Delete(j);
        arena_free(a);
        free(t);
    }
}
END_TEST

START_TEST(test_state_roundtrip_shared_data) {
    arena_t *a = arena_new();
    size_t n1, n2, total = 0, files = 0;
    char **stacks = tu_find_files(a, tu_data(a, "pulumi-state"), "stack.json", &n1);
    char **states = tu_find_files(a, tu_data(a, "pulumi-state"), "state.json", &n2);
    for (size_t i = 0; i < n1; i++, files++)
        total += roundtrip_file(stacks[i]);
    for (size_t i = 0; i < n2; i++, files++)
        total += roundtrip_file(states[i]);
    size_t n3;
    char **cps = tu_find_files(a, tu_data(a, "checkpoints"), ".json", &n3);
    for (size_t i = 0; i < n3; i++, files++)
        total += roundtrip_file(cps[i]);
    ck_assert_uint_gt(files, 20);
    ck_assert_uint_gt(total, 500);
    arena_free(a);
}
END_TEST

/* pv_format_number_js prints as JavaScript's String(x) (node): the forms, and the shortest digits
 * of a power of two that are not printf's nearest 17 (pv_format_number, as Go's 'g', has them too:
 * 7.1202363472230444e-307 before). */
/* Every value of a run (a million resources' inputs and states are tens of millions of them) is one
 * pv_t, so its size is the size of its largest kind: an archive held its asset count in 64 bits and
 * made every value 56 bytes (64 in an arena). 48 now; an archive of assets still reads, copies and
 * compares whole. */
START_TEST(test_value_size) {
    ck_assert_uint_le(sizeof(pv_t), 48);
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    cJSON *j = cJSON_Parse("{\"" PV_SIG_KEY "\": \"" PV_SIG_ARCHIVE "\", \"assets\": {\"a.txt\": {\"" PV_SIG_KEY
                           "\": \"" PV_SIG_ASSET "\", \"text\": \"hi\"}, \"b.txt\": {\"" PV_SIG_KEY
                           "\": \"" PV_SIG_ASSET "\", \"path\": \"b.txt\"}}}");
    pv_t *v = pv_from_state_json(a, j, "test", &d);
    ck_assert_ptr_nonnull(v);
    ck_assert_int_eq(v->kind, PV_ARCHIVE);
    ck_assert(v->u.archive.has_assets);
    ck_assert_uint_eq(v->u.archive.nassets, 2);
    ck_assert_str_eq(v->u.archive.assets[1].key, "b.txt");
    pv_t *c = pv_clone(a, v);
    ck_assert_uint_eq(c->u.archive.nassets, 2);
    ck_assert(pv_equal(v, c));
    cJSON_Delete(j);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_format_number_js) {
    static const struct {
        double n;
        const char *js, *go;
    } cases[] = {
        {1e-7, "1e-7", "1e-07"},
        {2.5e21, "2.5e+21", "2.5e+21"},
        {123400000000000000000000.0, "1.234e+23", "1.234e+23"},
        {1.5e-7, "1.5e-7", "1.5e-07"},
        {0.000001, "0.000001", "1e-06"},
        {1e20, "100000000000000000000", "1e+20"},
        {1e21, "1e+21", "1e+21"},
        {-1234.5, "-1234.5", "-1234.5"},
        {-0.0, "0", "0"},
        {5e-324, "5e-324", "5e-324"},
        {0x1p-1017, "7.120236347223045e-307", "7.120236347223045e-307"},
        {782466829263114.25, "782466829263114.2", "7.824668292631142e+14"},
        {1.0 / 0.0, "Infinity", NULL},
        {-1.0 / 0.0, "-Infinity", NULL},
        /* whole numbers (the common case: shortest_digits' fast path below 10^15) */
        {1, "1", "1"},
        {-42, "-42", "-42"},
        {1500, "1500", "1500"},
        {100000, "100000", "100000"},
        {1000000, "1000000", "1000000"},
        {1234567, "1234567", "1234567"},
        {123456789012345, "123456789012345", "123456789012345"},
        {999999999999999, "999999999999999", "999999999999999"},
        {1e15, "1000000000000000", "1000000000000000"},
        {9007199254740993.0, "9007199254740992", "9007199254740992"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf_t b;
        buf_init(&b);
        pv_format_number_js(&b, cases[i].n);
        ck_assert_str_eq(b.data, cases[i].js);
        buf_free(&b);
        if (!cases[i].go) continue;
        buf_init(&b);
        pv_format_number(&b, cases[i].n);
        ck_assert_str_eq(b.data, cases[i].go);
        buf_free(&b);
    }
}
END_TEST

int main(void) {
    Suite *s = suite_create("value");
    TCase *tc = tcase_create("value");
    tcase_add_test(tc, test_path_parse_and_format);
    tcase_add_test(tc, test_path_get_set);
    tcase_add_test(tc, test_equality);
    tcase_add_test(tc, test_special_values);
    tcase_add_test(tc, test_format_number_js);
    tcase_add_test(tc, test_value_size);
    tcase_add_test(tc, test_state_roundtrip_shared_data);
    tcase_add_test(tc, test_binary_form);
    tcase_add_test(tc, test_state_text_agrees_with_tree);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* test_report.c — the import report library (report/report.h): which documents it refuses and
 * with what words, that nothing is written then, that the inline data cannot end its <script>
 * element, and that secret values leave the page (inputs and code) unless asked to stay. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"
#include "testutil.h"

static const char *DOC =
    "{\"version\":1,\"resources\":[{\"name\":\"db\",\"type\":\"p:index:Db\",\"status\":\"imported\",\"verified\":true,"
    "\"inputs\":{\"password\":\"hunter2-secret\",\"nested\":{\"key\":\"k-0123456\",\"plain\":1},\"list\":[\"a\",\"zz\"]"
    "},"
    "\"secretPaths\":[\"password\",\"nested.key\",\"list[1]\"],"
    "\"code\":\"const db = new p.Db(\\\"db\\\", {password: \\\"hunter2-secret\\\", list: [\\\"a\\\", \\\"zz\\\"]});\","
    "\"pcl\":\"resource db \\\"p:index:Db\\\" { password = \\\"hunter2-secret\\\" }\"},"
    "{\"name\":\"</script><script>alert(1)</"
    "script>\",\"type\":\"p:index:X\",\"status\":\"failed\",\"verified\":false}],"
    "\"summary\":{\"total\":2}}";

static char *parse_error(const char *text) {
    diag_list_t dl;
    diag_list_init(&dl);
    cJSON *doc = report_parse(text, strlen(text), "r.json", &dl);
    ck_assert_ptr_null(doc);
    ck_assert_uint_eq(dl.errors, 1);
    char *msg = strdup(diag_format(&dl, dl.head));
    diag_list_free(&dl);
    return msg;
}

START_TEST(test_refusals) {
    char *m = parse_error("{\"resources\": [], \"summary\": {}}");
    ck_assert_str_eq(m, "r.json: this is not a cimport results document (it has no \"version\", \"resources\" and "
                        "\"summary\"): write one with `cimport --json ... > results.json`");
    free(m);
    m = parse_error("{\"version\": 1, \"resources\": [{\"name\": \"a\", \"ty");
    ck_assert_str_eq(m, "r.json: the results document ends early (truncated after 46 bytes): write it again with "
                        "`cimport --json ... > results.json` and let the run finish");
    free(m);
    m = parse_error("{\"version\": 3, \"resources\": [], \"summary\": {}}");
    ck_assert_str_eq(m, "r.json: the results document is version 3, written by a newer cimport; this cimport reads "
                        "results versions up to 2: render it with the cimport that wrote it, or upgrade this one");
    free(m);
    m = parse_error("[1, 2]");
    ck_assert_str_eq(m, "r.json: this is not a cimport results document (it is not a JSON object): write one with "
                        "`cimport --json ... > results.json`");
    free(m);
    m = parse_error("{\"version\": 1, \"resources\": [7], \"summary\": {}}");
    ck_assert_str_eq(m, "r.json: resources[0] of the results document has no \"name\", \"type\" and \"status\": the "
                        "file was changed or is not a cimport results document");
    free(m);
    m = parse_error("{\"version\": 1,, }");
    ck_assert_ptr_nonnull(strstr(m, "(not JSON: error at byte"));
    free(m);
}
END_TEST

START_TEST(test_nothing_written_on_bad_input) {
    char *dir = tu_mkdtemp();
    char path[512];
    snprintf(path, sizeof path, "%s/r.html", dir);
    cJSON *bad = cJSON_Parse("{\"version\": 9, \"resources\": [], \"summary\": {}}");
    diag_list_t dl;
    diag_list_init(&dl);
    report_options_t o = {0};
    ck_assert(!report_write(path, bad, &o, &dl));
    ck_assert_int_ne(access(path, F_OK), 0);
    char **left = NULL;
    arena_t *a = arena_new();
    size_t n = 0;
    left = tu_find_files(a, dir, "", &n);
    (void)left;
    ck_assert_uint_eq(n, 0);
    arena_free(a);
    diag_list_free(&dl);
    cJSON_Delete(bad);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

static char *render(bool show) {
    cJSON *doc = cJSON_Parse(DOC);
    ck_assert_ptr_nonnull(doc);
    char *before = cJSON_PrintUnformatted(doc);
    diag_list_t dl;
    diag_list_init(&dl);
    report_options_t o = {.show_secrets = show};
    size_t len = 0;
    char *html = report_render(doc, &o, &len, &dl);
    ck_assert_ptr_nonnull(html);
    ck_assert_uint_eq(len, strlen(html));
    /* the caller's document is not changed */
    char *after = cJSON_PrintUnformatted(doc);
    ck_assert_str_eq(before, after);
    free(before);
    free(after);
    diag_list_free(&dl);
    cJSON_Delete(doc);
    return html;
}

START_TEST(test_page_and_escaping) {
    char *html = render(false);
    ck_assert_int_eq(strncmp(html, "<!DOCTYPE html>", 15), 0);
    ck_assert_ptr_nonnull(strstr(html, "content=\"default-src 'none';"));
    /* exactly the page's own two closing script tags: the data cannot close its element early */
    int closes = 0;
    for (const char *p = html; (p = strstr(p, "</script>")); p++)
        closes++;
    ck_assert_int_eq(closes, 2);
    ck_assert_ptr_nonnull(strstr(html, "\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"));
    ck_assert_ptr_null(strstr(html, "<script>alert"));
    ck_assert_ptr_nonnull(strstr(html, "\"reportShowSecrets\":false"));
    free(html);
}
END_TEST

START_TEST(test_secrets_redacted) {
    char *html = render(false);
    ck_assert_ptr_null(strstr(html, "hunter2-secret"));
    ck_assert_ptr_null(strstr(html, "k-0123456"));
    ck_assert_ptr_nonnull(strstr(html, "\"password\":\"[secret]\""));
    ck_assert_ptr_nonnull(strstr(html, "\"nested\":{\"key\":\"[secret]\",\"plain\":1}"));
    ck_assert_ptr_nonnull(strstr(html, "\"list\":[\"a\",\"[secret]\"]"));
    /* in the code too; a short secret only where it stands quoted */
    ck_assert_ptr_nonnull(strstr(html, "password: \\\"[secret]\\\", list: [\\\"a\\\", \\\"[secret]\\\"]"));
    ck_assert_ptr_nonnull(strstr(html, "password = \\\"[secret]\\\" }"));
    free(html);
    html = render(true);
    ck_assert_ptr_nonnull(strstr(html, "\"password\":\"hunter2-secret\""));
    ck_assert_ptr_nonnull(strstr(html, "\"reportShowSecrets\":true"));
    free(html);
}
END_TEST

/* A resource imported by a value the schema marks secret (its import ID is that value, as a
 * random_password's): the results document's importId holds it, and redaction cuts it out there too. */
START_TEST(test_import_id_redacted) {
    cJSON *doc = cJSON_Parse("{\"resources\": [{\"name\": \"pw\", \"id\": \"none\", \"importId\": "
                             "\"hunter2-secret\", \"secretPaths\": [\"password\"], \"inputs\": {\"password\": "
                             "\"hunter2-secret\"}}]}");
    ck_assert_ptr_nonnull(doc);
    report_redact(doc);
    char *json = cJSON_PrintUnformatted(doc);
    ck_assert_msg(strstr(json, "hunter2-secret") == NULL, "%s", json);
    free(json);
    cJSON_Delete(doc);
}
END_TEST

/* One resource's code holding several secrets: each is cut wherever it stands as a string literal —
 * one that begins another (the longer is cut whole, none of it left), side by side, at the very end,
 * repeated, single-quoted, a short one — the secrets of other resources too; the text around them kept. */
START_TEST(test_secrets_cut_from_code_all_at_once) {
    cJSON *doc = cJSON_Parse(
        "{\"resources\": ["
        "{\"name\": \"a\", \"secretPaths\": [\"k\", \"l\", \"s\"], \"inputs\": {\"k\": \"abcd1234\", \"l\": "
        "\"abcd12345678\", \"s\": \"x\"},"
        " \"code\": \"k=\\\"abcd12345678\\\";k2=\\\"abcd1234\\\";kk=\\\"abcd1234\\\"\\\"abcd1234\\\";s=\\\"x\\\";x=x;"
        "o='zz-other-secret-zz'\"},"
        "{\"name\": \"b\", \"secretPaths\": [\"p\"], \"inputs\": {\"p\": \"zz-other-secret-zz\"}, \"code\": "
        "\"p=\\\"zz-other-secret-zz\\\"\"}],"
        " \"code\": \"all: \\\"abcd1234\\\" \\\"zz-other-secret-zz\\\" end \\\"abcd12345678\\\"\"}");
    ck_assert_ptr_nonnull(doc);
    report_redact(doc);
    const cJSON *rs = cJSON_GetObjectItem(doc, "resources");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 0), "code")->valuestring,
                     "k=\"[secret]\";k2=\"[secret]\";kk=\"[secret]\"\"[secret]\";s=\"[secret]\";x=x;o='[secret]'");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 1), "code")->valuestring, "p=\"[secret]\"");
    ck_assert_str_eq(cJSON_GetObjectItem(doc, "code")->valuestring, "all: \"[secret]\" \"[secret]\" end \"[secret]\"");
    cJSON_Delete(doc);
}
END_TEST

/* A secret is cut where it stands as the value — a whole string literal (a YAML plain scalar too), a
 * number or bool as the argument of a language's secret wrapper — not wherever its text occurs: a
 * secret `true`, 1234 or "name" cut every `true`, 1234 and name of the code (`protect: [secret]`,
 * `minLower: [secret]`, `[secret]: "t1-[secret]"`). In an import ID, where it stands as a token. */
START_TEST(test_secrets_cut_only_as_values) {
    cJSON *doc = cJSON_Parse(
        "{\"resources\": [{\"name\": \"rs\", \"importId\": \"rename-me\","
        " \"secretPaths\": [\"length\", \"special\", \"overrideSpecial\"],"
        " \"inputs\": {\"length\": 1234, \"special\": true, \"overrideSpecial\": \"name\", \"minLower\": 1234},"
        " \"code\": \"const rs = new random.RandomString(\\\"rs\\\", {\\n"
        "    length: pulumi.secret(1234),\\n    lower: true,\\n    minLower: 1234,\\n    name: \\\"t1-name\\\",\\n"
        "    overrideSpecial: pulumi.secret(\\\"name\\\"),\\n    special: pulumi.secret(true),\\n"
        "}, {protect: true, import: \\\"rs-id\\\"});\\n\"},"
        " {\"name\": \"pw\", \"importId\": \"Zq9x7,1,10\", \"secretPaths\": [\"result\"],"
        " \"inputs\": {\"result\": \"Zq9x7\"}, \"code\": \"\"}],"
        " \"code\": \"Length: pulumi.ToSecret(pulumi.Int(1234)).(pulumi.IntOutput),\\nMinLower: pulumi.Int(1234),\\n"
        "special=pulumi.Output.secret(True), upper=True,\\n"
        "      overrideSpecial:\\n        fn::secret: name\\n      name: t1\\n      length:\\n        fn::secret: "
        "1234\\n"
        "      list:\\n        - name\\n        - names\\n      minLower: 1234\\n      protect: true\\n\"}");
    ck_assert_ptr_nonnull(doc);
    report_redact(doc);
    const cJSON *rs = cJSON_GetObjectItem(doc, "resources");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 0), "code")->valuestring,
                     "const rs = new random.RandomString(\"rs\", {\n"
                     "    length: pulumi.secret([secret]),\n    lower: true,\n    minLower: 1234,\n"
                     "    name: \"t1-name\",\n    overrideSpecial: pulumi.secret(\"[secret]\"),\n"
                     "    special: pulumi.secret([secret]),\n}, {protect: true, import: \"rs-id\"});\n");
    ck_assert_str_eq(cJSON_GetObjectItem(doc, "code")->valuestring,
                     "Length: pulumi.ToSecret(pulumi.Int([secret])).(pulumi.IntOutput),\nMinLower: pulumi.Int(1234),\n"
                     "special=pulumi.Output.secret([secret]), upper=True,\n"
                     "      overrideSpecial:\n        fn::secret: [secret]\n      name: t1\n      length:\n"
                     "        fn::secret: [secret]\n      list:\n        - [secret]\n        - names\n"
                     "      minLower: 1234\n      protect: true\n");
    /* an import ID: the secret where it stands as a token of the ID, not inside another word */
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 0), "importId")->valuestring, "rename-me");
    ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 1), "importId")->valuestring, "[secret],1,10");
    cJSON_Delete(doc);
}
END_TEST

/* Many resources with random secrets (some the start of others) in random code: no secret is left as
 * a string literal ("v", 'v') or a YAML plain scalar in any text, and every other word is kept. */
static size_t count_of(const char *text, const char *what) {
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, what)); p++)
        n++;
    return n;
}

/* A fixed sequence (a linear congruential step; the test needs repeatable, not good, randomness). */
static int pick(unsigned *seed, int n) {
    *seed = *seed * 1103515245u + 12345u;
    return (int)((*seed >> 16) % (unsigned)n);
}

/* The code fields' twins without secrets (the document's "redacted") are put in place, whatever form
 * the secret took in the code; a document with plaintext secrets from a --secrets literal run and no
 * twins (an older cimport's) loses its code fields rather than keep one the search may miss. */
START_TEST(test_secrets_twins_and_withheld) {
    const char *twinned =
        "{\"run\": {\"secrets\": \"literal\"}, \"redacted\": {\"code\": \"k = secret(\\\"[secret]\\\")\"},"
        " \"code\": \"k = secret(`PEM\\nBODY`)\", \"programDiff\": \"+k = secret(`PEM\\nBODY`)\","
        " \"resources\": [{\"name\": \"k\", \"secretPaths\": [\"pem\"], \"inputs\": {\"pem\": \"PEM\\nBODY\"},"
        " \"redacted\": {\"code\": \"pem: [secret]\", \"pcl\": null},"
        " \"code\": \"pem: |\\n  PEM\\n  BODY\", \"pcl\": \"pem = secret(\\\"PEM\\\\nBODY\\\")\"}]}";
    cJSON *doc = cJSON_Parse(twinned);
    ck_assert_ptr_nonnull(doc);
    report_redact(doc);
    const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "resources"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(doc, "code")->valuestring, "k = secret(\"[secret]\")");
    ck_assert_str_eq(cJSON_GetObjectItem(r, "code")->valuestring, "pem: [secret]");
    ck_assert_ptr_null(cJSON_GetObjectItem(r, "pcl"));              /* a null twin: withheld */
    ck_assert_ptr_nonnull(cJSON_GetObjectItem(doc, "programDiff")); /* no twin, none needed: the document has them */
    ck_assert_ptr_null(cJSON_GetObjectItem(doc, "redacted"));
    ck_assert_ptr_null(cJSON_GetObjectItem(r, "redacted"));
    cJSON_Delete(doc);

    doc = cJSON_Parse(twinned);
    cJSON_DeleteItemFromObject(doc, "redacted");
    report_redact(doc);
    r = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "resources"), 0);
    ck_assert_ptr_null(cJSON_GetObjectItem(doc, "code"));
    ck_assert_ptr_null(cJSON_GetObjectItem(doc, "programDiff"));
    ck_assert_str_eq(cJSON_GetObjectItem(r, "code")->valuestring, "pem: [secret]"); /* its own twin */
    ck_assert_ptr_null(cJSON_GetObjectItem(r, "pcl"));
    cJSON_Delete(doc);
}
END_TEST

START_TEST(test_secrets_cut_random) {
    unsigned seed = 7;
    enum { R = 200, PER = 3 };
    char *secrets[R * PER];
    size_t ns = 0;
    cJSON *doc = cJSON_CreateObject(), *rs = cJSON_AddArrayToObject(doc, "resources");
    for (int r = 0; r < R; r++) {
        cJSON *res = cJSON_CreateObject(), *in = cJSON_AddObjectToObject(res, "inputs");
        cJSON *paths = cJSON_AddArrayToObject(res, "secretPaths");
        char key[16], code[4096] = "";
        for (int k = 0; k < PER; k++) {
            size_t len = 1 + (size_t)pick(&seed, 20);
            char *v = malloc(len + 1);
            /* upper case letters and digits: the same pair repeats every 130 secrets, so some secrets
             * begin others */
            char base = (char)('A' + (r * PER + k) % 26);
            for (size_t i = 0; i < len; i++)
                v[i] = i % 2 ? (char)('0' + (r * PER + k) % 10) : base;
            v[len] = '\0';
            secrets[ns++] = v;
            snprintf(key, sizeof key, "s%d", k);
            cJSON_AddStringToObject(in, key, v);
            cJSON_AddItemToArray(paths, cJSON_CreateString(key));
        }
        for (int w = 0; w < 12; w++) {
            size_t at = strlen(code);
            int what = pick(&seed, 5);
            if (what == 0)
                snprintf(code + at, sizeof code - at, "\"%s\" ", secrets[pick(&seed, (int)ns)]);
            else if (what == 1)
                snprintf(code + at, sizeof code - at, "'%s'; ", secrets[pick(&seed, (int)ns)]);
            else if (what == 2)
                snprintf(code + at, sizeof code - at, "\n  key: %s\n", secrets[pick(&seed, (int)ns)]);
            else
                snprintf(code + at, sizeof code - at, "word%d = x; ", pick(&seed, 100));
        }
        cJSON_AddStringToObject(res, "code", code);
        cJSON_AddItemToArray(rs, res);
    }
    cJSON *orig = cJSON_Duplicate(doc, true);
    report_redact(doc);
    const cJSON *r, *o = cJSON_GetObjectItem(orig, "resources")->child;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(doc, "resources")) {
        const char *got = cJSON_GetObjectItem(r, "code")->valuestring;
        for (size_t k = 0; k < ns; k++) {
            char q[64], q1[64], y[64];
            snprintf(q, sizeof q, "\"%s\"", secrets[k]);
            snprintf(q1, sizeof q1, "'%s'", secrets[k]);
            snprintf(y, sizeof y, "key: %s\n", secrets[k]);
            ck_assert_msg(!strstr(got, q) && !strstr(got, q1) && !strstr(got, y), "%s left in %s", secrets[k], got);
        }
        ck_assert_uint_eq(count_of(got, "word"), count_of(cJSON_GetObjectItem(o, "code")->valuestring, "word"));
        o = o->next;
    }
    cJSON_Delete(orig);
    cJSON_Delete(doc);
    for (size_t k = 0; k < ns; k++)
        free(secrets[k]);
}
END_TEST

int main(void) {
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("report");
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_nothing_written_on_bad_input);
    tcase_add_test(tc, test_page_and_escaping);
    tcase_add_test(tc, test_secrets_redacted);
    tcase_add_test(tc, test_import_id_redacted);
    tcase_add_test(tc, test_secrets_cut_from_code_all_at_once);
    tcase_add_test(tc, test_secrets_cut_only_as_values);
    tcase_add_test(tc, test_secrets_cut_random);
    tcase_add_test(tc, test_secrets_twins_and_withheld);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* test_stackconfig.c — Pulumi.<stack>.yaml: the secrets provider and keys are read, and secure values
 * are added as text edits that keep every other byte (comments, order, quoting), for files with and
 * without `config:`, empty and new files; clashes and flow-style config are refused. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "specs/stackconfig.h"
#include "testutil.h"

static const char *CFG = "# dev stack\n"
                         "encryptionsalt: v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==\n"
                         "config:\n"
                         "  aws:region: us-west-2 # where it runs\n"
                         "  proj:db:\n"
                         "    secure: v1:abc:def\n"
                         "  proj:tags:\n"
                         "    - a\n"
                         "    - b\n"
                         "\n"
                         "# trailing comment\n";

START_TEST(test_parse) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    stackconfig_t c;
    ck_assert(stackconfig_parse(a, CFG, strlen(CFG), "Pulumi.dev.yaml", &c, &d));
    ck_assert_str_eq(c.encryption_salt, "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==");
    ck_assert(stackconfig_is_passphrase(&c));
    ck_assert_uint_eq(c.n_entries, 3);
    ck_assert_str_eq(c.entries[0].key, "aws:region");
    ck_assert_ptr_null(c.entries[0].secure);
    ck_assert_str_eq(stackconfig_find(&c, "proj:db")->secure, "v1:abc:def");
    ck_assert_ptr_null(stackconfig_find(&c, "proj:tags")->secure);
    const char *kms = "secretsprovider: awskms://alias/x\nencryptedkey: AbC=\nconfig: {}\n";
    ck_assert(stackconfig_parse(a, kms, strlen(kms), "k.yaml", &c, &d));
    ck_assert(!stackconfig_is_passphrase(&c));
    ck_assert(stackconfig_parse(a, "", 0, "e.yaml", &c, &d));
    ck_assert(stackconfig_is_passphrase(&c) && c.n_entries == 0 && !c.encryption_salt);
    ck_assert_int_eq(d.errors, 0);
    ck_assert(!stackconfig_parse(a, "- a\n- b\n", 8, "l.yaml", &c, &d));
    ck_assert_str_eq(d.tail->message, "is not a stack config file: its top level is not a block mapping of keys");
    ck_assert(!stackconfig_parse(a, "config: [1]\n", 12, "l.yaml", &c, &d));
    ck_assert_str_eq(d.tail->message, "`config:` is not a mapping (line 1)");
    ck_assert(!stackconfig_parse(a, "config:\n  a: [\n", 15, "l.yaml", &c, &d));
    ck_assert(strncmp(d.tail->message, "is not valid YAML:", 18) == 0);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_add_keeps_everything_else) {
    diag_list_t d;
    diag_list_init(&d);
    stackconfig_secure_t v[] = {{"proj:key1", "v1:n1:c1"}, {"proj:weird key\"", "v1:n2:c2"}};
    char *out = stackconfig_add_secure(CFG, strlen(CFG), "Pulumi.dev.yaml", "v1:other:salt", v, 2, &d);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "# dev stack\n"
                          "encryptionsalt: v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==\n"
                          "config:\n"
                          "  aws:region: us-west-2 # where it runs\n"
                          "  proj:db:\n"
                          "    secure: v1:abc:def\n"
                          "  proj:tags:\n"
                          "    - a\n"
                          "    - b\n"
                          "  proj:key1:\n"
                          "    secure: v1:n1:c1\n"
                          "  \"proj:weird key\\\"\":\n"
                          "    secure: v1:n2:c2\n"
                          "\n"
                          "# trailing comment\n");
    free(out);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
}
END_TEST

START_TEST(test_add_new_and_odd_files) {
    diag_list_t d;
    diag_list_init(&d);
    stackconfig_secure_t v[] = {{"proj:pw", "v1:n:c"}};
    /* No file yet: the salt and a config mapping. */
    char *out = stackconfig_add_secure(NULL, 0, "Pulumi.dev.yaml", "v1:s:k", v, 1, &d);
    ck_assert_str_eq(out, "encryptionsalt: v1:s:k\nconfig:\n  proj:pw:\n    secure: v1:n:c\n");
    free(out);
    /* A file without config (and without a final newline); the salt goes first. */
    const char *t1 = "# c\nsecretsprovider: passphrase\nother: 1";
    out = stackconfig_add_secure(t1, strlen(t1), "p", "v1:s:k", v, 1, &d);
    ck_assert_str_eq(out, "# c\nencryptionsalt: v1:s:k\nsecretsprovider: passphrase\nother: 1\nconfig:\n  proj:pw:\n"
                          "    secure: v1:n:c\n");
    free(out);
    /* `config:` with no value, followed by another key; indentation of 4 kept elsewhere. */
    const char *t2 = "config:\nfoo: bar\n";
    out = stackconfig_add_secure(t2, strlen(t2), "p", NULL, v, 1, &d);
    ck_assert_str_eq(out, "config:\n  proj:pw:\n    secure: v1:n:c\nfoo: bar\n");
    free(out);
    const char *t3 = "config:\n    a:b: |\n      line1\n      line2\nx: 1\n";
    out = stackconfig_add_secure(t3, strlen(t3), "p", NULL, v, 1, &d);
    ck_assert_str_eq(out, "config:\n    a:b: |\n      line1\n      line2\n    proj:pw:\n      secure: v1:n:c\nx: 1\n");
    free(out);
    ck_assert_int_eq(d.errors, 0);
    /* Refused: a key that is already set, and flow-style config. Nothing returned. */
    const char *t4 = "config:\n  proj:pw: plain\n";
    ck_assert_ptr_null(stackconfig_add_secure(t4, strlen(t4), "Pulumi.dev.yaml", NULL, v, 1, &d));
    ck_assert_str_eq(d.tail->message, "already sets the config key 'proj:pw'; nothing was added");
    const char *t5 = "config: {a: 1}\n";
    ck_assert_ptr_null(stackconfig_add_secure(t5, strlen(t5), "p", NULL, v, 1, &d));
    ck_assert(strncmp(d.tail->message, "`config:` is written in flow style", 34) == 0);
    ck_assert_int_eq(d.errors, 2);
    diag_list_free(&d);
}
END_TEST

int main(void) {
    Suite *s = suite_create("stackconfig");
    TCase *tc = tcase_create("stackconfig");
    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_add_keeps_everything_else);
    tcase_add_test(tc, test_add_new_and_odd_files);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

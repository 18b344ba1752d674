/* test_passphrase.c — Pulumi's passphrase secrets provider: the known-answer vector from Pulumi's own
 * tests, wrong passphrases and malformed states refused, round trips of new salts and values,
 * tampering detected, and the passphrase taken from the environment. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "specs/passphrase.h"
#include "testutil.h"

/* From Pulumi's passphrase secrets manager tests: passphrase "password". */
static const char *KAT_STATE = "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==";

START_TEST(test_known_answer) {
    diag_list_t d;
    diag_list_init(&d);
    passphrase_crypter_t *c = passphrase_open("password", KAT_STATE, "Pulumi.dev.yaml", &d);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(d.errors, 0);
    ck_assert_str_eq(passphrase_state(c), KAT_STATE);
    ck_assert(passphrase_same_salt(c, KAT_STATE));
    /* The check value itself decrypts to "pulumi". */
    char *pt = NULL;
    size_t len = 0;
    ck_assert(passphrase_decrypt(c, "v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==", &pt, &len, &d));
    ck_assert_uint_eq(len, 6);
    ck_assert_str_eq(pt, "pulumi");
    free(pt);
    /* Our own encryption under the vector's key reads back. */
    char *ct = passphrase_encrypt(c, "s3cr3t value", 12);
    ck_assert_ptr_nonnull(ct);
    ck_assert(strncmp(ct, "v1:", 3) == 0);
    ck_assert(passphrase_decrypt(c, ct, &pt, &len, &d));
    ck_assert_str_eq(pt, "s3cr3t value");
    free(pt);
    free(ct);
    passphrase_free(c);
    diag_list_free(&d);
}
END_TEST

START_TEST(test_wrong_passphrase_and_bad_states) {
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(passphrase_open("Password", KAT_STATE, "Pulumi.dev.yaml", &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(d.head->file, "Pulumi.dev.yaml");
    ck_assert(strncmp(d.head->message, "incorrect passphrase:", 21) == 0);
    const char *bad[] = {"", "v2:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==", "v1:fozI5u6B030=",
                         "v1:!!!:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==",
                         "v1:Zm96:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=="};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        diag_list_t e;
        diag_list_init(&e);
        ck_assert_ptr_null(passphrase_open("password", bad[i], "x.yaml", &e));
        ck_assert_int_eq(e.errors, 1);
        ck_assert_msg(strstr(e.head->message, "malformed") != NULL, "state %zu: %s", i, e.head->message);
        diag_list_free(&e);
    }
    /* A state whose check value was tampered with reads as a wrong passphrase. */
    diag_list_t e;
    diag_list_init(&e);
    ck_assert_ptr_null(
        passphrase_open("password", "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIA==", "x", &e));
    ck_assert(strncmp(e.head->message, "incorrect passphrase:", 21) == 0);
    diag_list_free(&e);
    diag_list_free(&d);
}
END_TEST

START_TEST(test_round_trips) {
    diag_list_t d;
    diag_list_init(&d);
    passphrase_crypter_t *c = passphrase_create("correct horse", &d);
    ck_assert_ptr_nonnull(c);
    const char *state = passphrase_state(c);
    ck_assert(strncmp(state, "v1:", 3) == 0);
    ck_assert(!passphrase_same_salt(c, KAT_STATE));
    /* A new salt state opens with the same passphrase and not with another. */
    passphrase_crypter_t *again = passphrase_open("correct horse", state, "s", &d);
    ck_assert_ptr_nonnull(again);
    ck_assert(passphrase_same_salt(again, state));
    ck_assert_ptr_null(passphrase_open("correct horsE", state, "s", &d));
    ck_assert_int_eq(d.errors, 1);
    /* Values of several sizes (empty, binary, large), each with a fresh nonce. */
    size_t sizes[] = {0, 1, 15, 16, 17, 1000, 100000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        unsigned char *buf = malloc(n + 1);
        for (size_t i = 0; i < n; i++)
            buf[i] = (unsigned char)(i * 31 + k);
        char *a = passphrase_encrypt(c, buf, n);
        char *b = passphrase_encrypt(c, buf, n);
        ck_assert_str_ne(a, b); /* random nonces */
        char *pt;
        size_t len;
        ck_assert(passphrase_decrypt(again, a, &pt, &len, &d));
        ck_assert_uint_eq(len, n);
        ck_assert(n == 0 || memcmp(pt, buf, n) == 0);
        free(pt);
        /* One flipped character of the ciphertext: refused (the GCM tag). The first character after
         * the last ':' always carries six bits of data (the last ones may hold only padding bits). */
        size_t at = (size_t)(strrchr(a, ':') - a) + 1;
        a[at] = a[at] == 'A' ? 'B' : 'A';
        diag_list_t e;
        diag_list_init(&e);
        ck_assert(!passphrase_decrypt(again, a, &pt, &len, &e));
        ck_assert_ptr_null(pt);
        ck_assert_int_eq(e.errors, 1);
        diag_list_free(&e);
        free(a);
        free(b);
        free(buf);
    }
    /* A value encrypted under another salt does not decrypt. */
    passphrase_crypter_t *kat = passphrase_open("password", KAT_STATE, "k", &d);
    char *v = passphrase_encrypt(kat, "x", 1);
    char *pt;
    size_t len;
    diag_list_t e;
    diag_list_init(&e);
    ck_assert(!passphrase_decrypt(c, v, &pt, &len, &e));
    ck_assert(!passphrase_decrypt(c, "plaintext", &pt, &len, &e));
    ck_assert_int_eq(e.errors, 2);
    diag_list_free(&e);
    free(v);
    passphrase_free(kat);
    passphrase_free(again);
    passphrase_free(c);
    diag_list_free(&d);
}
END_TEST

START_TEST(test_from_env) {
    diag_list_t d;
    diag_list_init(&d);
    char *p;
    unsetenv("PULUMI_CONFIG_PASSPHRASE");
    unsetenv("PULUMI_CONFIG_PASSPHRASE_FILE");
    ck_assert(passphrase_from_env(&p, &d));
    ck_assert_ptr_null(p);
    setenv("PULUMI_CONFIG_PASSPHRASE", "", 1); /* set but empty is a passphrase, as in Pulumi */
    ck_assert(passphrase_from_env(&p, &d));
    ck_assert_str_eq(p, "");
    free(p);
    unsetenv("PULUMI_CONFIG_PASSPHRASE");
    char *dir = tu_mkdtemp();
    char path[512];
    snprintf(path, sizeof path, "%s/pass", dir);
    tu_write(path, "from a file\n");
    setenv("PULUMI_CONFIG_PASSPHRASE_FILE", path, 1);
    ck_assert(passphrase_from_env(&p, &d));
    ck_assert_str_eq(p, "from a file");
    free(p);
    snprintf(path, sizeof path, "%s/missing", dir);
    setenv("PULUMI_CONFIG_PASSPHRASE_FILE", path, 1);
    ck_assert(!passphrase_from_env(&p, &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(d.head->file, path);
    unsetenv("PULUMI_CONFIG_PASSPHRASE_FILE");
    tu_rmtree(dir);
    free(dir);
    diag_list_free(&d);
}
END_TEST

int main(void) {
    Suite *s = suite_create("passphrase");
    TCase *tc = tcase_create("passphrase");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_known_answer);
    tcase_add_test(tc, test_wrong_passphrase_and_bad_states);
    tcase_add_test(tc, test_round_trips);
    tcase_add_test(tc, test_from_env);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

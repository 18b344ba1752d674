/* test_session_lean.c — the session's lean results (what the CLI uses for plain code output: each
 * resource's inputs and every state released while the program is generated, pcl_gen_options_t's
 * release hooks) against whole results (--json's path, nothing released): on every shared stack
 * export and checkpoint, the same program and the same code in every language, byte for byte, with
 * secrets as config and as literals. And a small export where what generation reads last comes from
 * released values — a reference edge broken in a cycle turns back into the literal the input held,
 * and a secret reference takes its producer's output name — so a value freed too early shows (under
 * the ASan build as a use after free). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "session/session.h"
#include "testutil.h"

static const lang_t LANGS[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA, LANG_YAML};

/* The session's PCL and the program in every other language (each after a line naming it), from the
 * export at path with the shared schemas; NULL when the session generated no program. */
static char *session_code(arena_t *a, const char *path, const import_file_t *file, const char **schemas,
                          size_t n_schemas, pcl_secrets_mode_t secrets, bool lean) {
    session_options_t so;
    session_options_default(&so);
    so.offline_state = path;
    so.schemas = schemas;
    so.n_schemas = n_schemas;
    so.language = LANG_PCL;
    so.language_set = true;
    so.secrets = secrets;
    so.lean_results = lean;
    import_session_t s;
    session_init(&s, &so);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_msg(session_prepare(&s, &d), "%s: prepare: %s", path, d.head ? d.head->message : "");
    session_run(&s, file);
    buf_t out = {0};
    buf_printf(&out, "ok %zu\n", s.n_ok);
    for (size_t i = 0; s.plan && s.results && i < s.plan->n_items; i++)
        buf_printf(&out, "%s:%d ", s.plan->items[i].variable, s.results[i].status);
    if (s.code) buf_printf(&out, "\n--- pcl\n%s", s.code);
    for (size_t i = 0; s.gen.program && i < sizeof LANGS / sizeof *LANGS; i++) {
        diag_list_t e;
        diag_list_init(&e);
        char *code = emit_program(s.gen.program, LANGS[i], &e);
        buf_printf(&out, "\n--- %s\n%s", lang_name(LANGS[i]), code ? code : "(refused)");
        free(code);
        diag_list_free(&e);
    }
    char *text = s.gen.program ? arena_strdup(a, out.data) : NULL;
    free(out.data);
    diag_list_free(&d);
    session_free(&s);
    return text;
}

static void assert_same(const char *full, const char *lean, const char *what) {
    if (!full || !lean) {
        ck_assert_msg(full == lean, "%s: one path generated a program, the other not", what);
        return;
    }
    if (strcmp(full, lean) == 0) return;
    size_t k = 0;
    while (full[k] == lean[k])
        k++;
    size_t from = k > 80 ? k - 80 : 0;
    ck_abort_msg("%s: lean results give other code, from byte %zu:\n--- whole results\n%.200s\n--- lean\n%.200s", what,
                 k, full + from, lean + from);
}

START_TEST(test_lean_equals_whole_on_shared_exports) {
    arena_t *a = arena_new();
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    size_t n1, n2, n3;
    char **stacks = tu_find_files(a, tu_data(a, "pulumi-state"), "/stack.json", &n1);
    char **states = tu_find_files(a, tu_data(a, "pulumi-state"), "/state.json", &n2);
    char **cps = tu_find_files(a, tu_data(a, "checkpoints"), ".json", &n3);
    ck_assert_int_ge(n1 + n2, 70);
    char **lists[] = {stacks, states, cps};
    size_t programs = 0, with_refs = 0;
    for (int l = 0; l < 3; l++) {
        for (size_t i = 0; lists[l][i]; i++) {
            const char *path = lists[l][i];
            import_file_t *file = tu_converted(a, path);
            if (!file) continue;
            for (int m = 0; m < 2; m++) {
                pcl_secrets_mode_t mode = m ? PCL_SECRETS_LITERAL : PCL_SECRETS_CONFIG;
                char *full = session_code(a, path, file, schemas, TU_SHARED_SCHEMAS, mode, false);
                char *lean = session_code(a, path, file, schemas, TU_SHARED_SCHEMAS, mode, true);
                assert_same(full, lean, arena_sprintf(a, "%s (secrets %s)", path, m ? "literal" : "config"));
                if (!full) continue;
                programs++;
                /* a reference to another imported resource: `= name.attr` in the PCL */
                const char *pcl = strstr(full, "--- pcl\n");
                const char *end = pcl ? strstr(pcl, "\n--- ") : NULL;
                for (const char *p = pcl; p && p < end && (p = strstr(p, " = ")) && p < end; p += 3) {
                    const char *q = p + 3;
                    while (*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                           (*q >= '0' && *q <= '9'))
                        q++;
                    if (q > p + 3 && *q == '.' && strncmp(p + 3, "config", 6) != 0) {
                        with_refs++;
                        break;
                    }
                }
            }
        }
    }
    ck_assert_int_ge(programs, 40);
    ck_assert_int_ge(with_refs, 4);
    arena_free(a);
}
END_TEST

/* Stack, providers, and four resources: a and b name each other's ID (a cycle of references, one
 * turned back into the ID the inputs held), and cert's private key is key's PKCS#8 output, under
 * another name than the property it sets (the reference names the producer's output). */
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
    "{\"urn\": \"urn:pulumi:dev::p::tls:index/privateKey:PrivateKey::key\", \"custom\": true, \"id\": \"key-0003\", "
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

START_TEST(test_lean_reads_nothing_released) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/export.json", dir);
    ck_assert(tu_write(path, SMALL_EXPORT));
    import_file_t *file = tu_converted(a, path);
    ck_assert_ptr_nonnull(file);
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    char *full = session_code(a, path, file, schemas, 2, PCL_SECRETS_LITERAL, false);
    char *lean = session_code(a, path, file, schemas, 2, PCL_SECRETS_LITERAL, true);
    assert_same(full, lean, "small export");
    ck_assert_ptr_nonnull(lean);
    /* the cycle: one of the two is a reference, the other the ID its inputs held */
    ck_assert_msg(strstr(lean, "\"peer\" = b.id") || strstr(lean, "\"peer\" = a.id"), "%s", lean);
    ck_assert_msg(strstr(lean, "\"peer\" = \"ida-0001\"") || strstr(lean, "\"peer\" = \"idb-0002\""), "%s", lean);
    ck_assert_msg(strstr(lean, "privateKeyPem = key.privateKeyPemPkcs8"), "%s", lean);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* Once every Read is done, lean results hold nothing of the stack export: its index, the offline
 * source over it and the providers are freed before the program is generated (at 20,000 resources
 * they were 15 % of the run's peak, kept beside the whole program); whole results keep them. */
START_TEST(test_lean_frees_the_export_before_generation) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/export.json", dir);
    ck_assert(tu_write(path, SMALL_EXPORT));
    import_file_t *file = tu_converted(a, path);
    ck_assert_ptr_nonnull(file);
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    for (int lean = 0; lean < 2; lean++) {
        session_options_t so;
        session_options_default(&so);
        so.offline_state = path;
        so.schemas = schemas;
        so.n_schemas = 2;
        so.language = LANG_TYPESCRIPT;
        so.language_set = true;
        so.secrets = PCL_SECRETS_LITERAL;
        so.lean_results = lean;
        import_session_t s;
        session_init(&s, &so);
        diag_list_t d;
        diag_list_init(&d);
        ck_assert(session_prepare(&s, &d));
        ck_assert(session_run(&s, file));
        ck_assert_int_eq(s.n_ok, 4);
        ck_assert_ptr_nonnull(s.code);
        ck_assert_msg(strstr(s.code, "privateKeyPem: key.privateKeyPemPkcs8"), "%s", s.code);
        if (lean) {
            ck_assert_ptr_null(s.state);
            ck_assert_ptr_null(s.state_arena);
            ck_assert_ptr_null(s.offline_source);
            ck_assert_ptr_null(s.registry);
        } else {
            ck_assert_ptr_nonnull(s.state);
            ck_assert_ptr_nonnull(s.offline_source);
        }
        diag_list_free(&d);
        session_free(&s);
    }
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* A private key imported by an ID its secret PEM holds: the code's `import` option would hold that
 * secret text in plaintext, so the resource fails with the reason — with lean results too, whose kept
 * state holds so long a secret by its digest only (the question is asked of the whole state, when the
 * resource finishes). */
static const char *SECRET_ID_EXPORT =
    "{\"version\": 3, \"deployment\": {\"manifest\": {\"time\": \"2024-01-01T00:00:00Z\", \"magic\": \"\", "
    "\"version\": \"v3.100.0\"}, \"resources\": ["
    "{\"urn\": \"urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev\", \"custom\": false, \"type\": "
    "\"pulumi:pulumi:Stack\"},"
    "{\"urn\": \"urn:pulumi:dev::p::pulumi:providers:tls::default\", \"custom\": true, \"id\": \"tp\", "
    "\"type\": \"pulumi:providers:tls\"},"
    "{\"urn\": \"urn:pulumi:dev::p::tls:index/privateKey:PrivateKey::key\", \"custom\": true, "
    "\"id\": \"key-0003-imported-by-this-id\", \"type\": \"tls:index/privateKey:PrivateKey\", "
    "\"inputs\": {\"algorithm\": \"RSA\"}, \"outputs\": {\"id\": \"key-0003-imported-by-this-id\", "
    "\"algorithm\": \"RSA\", \"privateKeyPem\": {\"4dabf18193072939515e22adb298388d\": "
    "\"1b47061264138c4ac30d75fd1eb44270\", \"plaintext\": \"\\\"-----BEGIN RSA PRIVATE KEY-----\\\\n"
    "key-0003-imported-by-this-id\\\\nMIIEowIBAAKCAQEA1UqaGD/P7w6HbvRzdLdjnGGhzNtyLtTrLhKivraREMRi3IwC\\\\n"
    "-----END RSA PRIVATE KEY-----\\\\n\\\"\"}}, "
    "\"provider\": \"urn:pulumi:dev::p::pulumi:providers:tls::default::tp\"}]}}";

START_TEST(test_lean_refuses_an_import_id_a_long_secret_holds) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/export.json", dir);
    ck_assert(tu_write(path, SECRET_ID_EXPORT));
    import_file_t *file = tu_converted(a, path);
    ck_assert_ptr_nonnull(file);
    const char *schemas[TU_SHARED_SCHEMAS];
    tu_shared_schemas(a, schemas);
    for (int lean = 0; lean < 2; lean++) {
        session_options_t so;
        session_options_default(&so);
        so.offline_state = path;
        so.schemas = schemas + 1; /* tls */
        so.n_schemas = 1;
        so.language = LANG_TYPESCRIPT;
        so.language_set = true;
        so.secrets = PCL_SECRETS_LITERAL;
        so.import_option = true;
        so.lean_results = lean;
        import_session_t s;
        session_init(&s, &so);
        diag_list_t d;
        diag_list_init(&d);
        ck_assert(session_prepare(&s, &d));
        session_run(&s, file);
        ck_assert_ptr_nonnull(s.results);
        const import_result_t *r = &s.results[0];
        ck_assert_msg(s.n_ok == 0 && r->status == IMPORT_FAILED, "lean %d: imported (%zu)", lean, s.n_ok);
        bool said = false;
        for (const diag_t *x = r->diags.head; x; x = x->next)
            said = said || strstr(x->message, "its import ID is a secret value") != NULL;
        ck_assert_msg(said, "lean %d: no refusal", lean);
        ck_assert_msg(!s.code || !strstr(s.code, "key-0003-imported-by-this-id"), "%s", s.code);
        diag_list_free(&d);
        session_free(&s);
    }
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("session_lean");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_lean_reads_nothing_released);
    tcase_add_test(tc, test_lean_frees_the_export_before_generation);
    tcase_add_test(tc, test_lean_refuses_an_import_id_a_long_secret_holds);
    tcase_add_test(tc, test_lean_equals_whole_on_shared_exports);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* test_hardening.c — hostile input at the library level (issue 15): the strict JSON checks
 * (duplicate keys, NUL, invalid UTF-8) on every JSON reader, the input size cap and pipe idle
 * timeout of file_read_all, the splice guard against the libtree-sitter 65,535-extras corruption,
 * and the C# emitter on a program that needs no `using` alias (it called qsort(NULL, 0, ...)). */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fileio.h"
#include "emitters/emit.h"
#include "emitters/ts_check.h"
#include "importer/engine.h"
#include "importer/plugin.h"
#include "pcl/pcl.h"
#include "specs/deployment.h"
#include "specs/importfile.h"
#include "specs/json_strict.h"
#include "specs/passphrase.h"
#include "specs/project.h"
#include "specs/schema.h"
#include "specs/tfstate.h"
#include "splice/splice.h"
#include "testutil.h"

/* The first error's formatted text ("file:line: message"), or "" when there is none. */
static const char *first_error(diag_list_t *d) {
    for (diag_t *x = d->head; x; x = x->next)
        if (x->severity == DIAG_ERROR) return diag_format(d, x);
    return "";
}

static void strict_rejects(const char *json, const char *want) {
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_msg(!json_strict_check(json, strlen(json), "t.json", &d), "accepted: %s", json);
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_msg(strstr(first_error(&d), want), "for %s: got '%s', want '%s'", json, first_error(&d), want);
    diag_list_free(&d);
}

static void strict_accepts(const char *json) {
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_msg(json_strict_check(json, strlen(json), "t.json", &d), "rejected %s: %s", json, first_error(&d));
    diag_list_free(&d);
}

START_TEST(test_json_strict) {
    strict_accepts("{\"a\": 1, \"b\": {\"a\": 2}, \"c\": [{\"a\": 1}, {\"a\": 2}]}");
    strict_accepts("{\"a\\\"\": 1, \"a\": 2, \"\\u00e9\": 1, \"\\u00c9\": 2}");
    strict_accepts("[\"\\u0001\", \"é𝄞\"]");
    strict_rejects("{\"a\": 1,\n \"a\": 2}", "t.json:2: duplicate key 'a' in a JSON object (first at line 1)");
    /* the same key spelled with an escape */
    strict_rejects("{\"a\": 1,\n\n \"\\u0061\": 2}", "t.json:3: duplicate key 'a'");
    /* nested: the inner object's duplicate, keys of the outer object interleaved */
    strict_rejects("{\"x\": 1, \"o\": {\"k\": 1,\n \"k\": 2}, \"y\": 2}", "t.json:2: duplicate key 'k'");
    strict_rejects("{\"x\": {\"k\": 1}, \"y\": 1,\n\"x\": 2}", "t.json:2: duplicate key 'x'");
    /* only empty keys: no key text was ever decoded (CI's fuzz found the sort reading a null buffer) */
    strict_rejects("{\"\": 1,\n \"\": 2}", "t.json:2: duplicate key '' in a JSON object (first at line 1)");
    strict_accepts("{\"\": 1, \"o\": {\"\": 2}}");
    strict_rejects("{\"name\": \"a\\u0000b\"}", "t.json:1: a string holds a NUL character");
    strict_rejects("{\"a\\u0000\": 1}", "NUL character");
    /* a raw NUL byte, in a string or between tokens (cJSON reads on past it; a C string ends there) */
    static const char raw[] = "{\"id\": \"ab\0cd\",\n \"x\": 1}", between[] = "{\"a\": 1,\n\n\0 \"b\": 2}";
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(!json_strict_check(raw, sizeof raw - 1, "t.json", &d));
    ck_assert_str_eq(first_error(&d), "t.json:1: a NUL byte (0x00) at column 11: JSON text cannot hold one, and names, "
                                      "IDs, tokens and values cannot contain NUL; remove it");
    diag_list_free(&d);
    diag_list_init(&d);
    ck_assert(!json_strict_check(between, sizeof between - 1, "t.json", &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "t.json:3: a NUL byte (0x00) at column 1"));
    diag_list_free(&d);
    strict_rejects("{\"a\": \"\xff\"}", "t.json:1: invalid UTF-8 (byte 0xFF at column 8)");
    strict_rejects("\n{\"a\": \"\xc0\xaf\"}", "t.json:2: invalid UTF-8 (byte 0xC0"); /* overlong '/' */
    strict_rejects("{\"a\": \"\xed\xa0\x80\"}", "invalid UTF-8");                    /* a surrogate */
    strict_rejects("{\"a\": \"\xf4\x90\x80\x80\"}", "invalid UTF-8");                /* past U+10FFFF */
    strict_rejects("{\"a\": \"\xe2\x82\"}", "invalid UTF-8");                        /* truncated */
    /* a big object: sorted, not quadratic */
    size_t n = 200000;
    char *big = malloc(n * 16 + 16);
    size_t len = 0;
    big[len++] = '{';
    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(big + len, "%s\"k%zu\":1", i ? "," : "", i);
    big[len++] = '}';
    big[len] = 0;
    strict_accepts(big);
    len = strlen(big) - 1;
    len += (size_t)sprintf(big + len, ",\"k7\":2}");
    strict_rejects(big, "duplicate key 'k7'");
    free(big);
}
END_TEST

/* The scanner reads plain text eight bytes at a time: what it must see — a quote, a backslash, a
 * line break, a byte of a multi-byte sequence — is found at every offset within a word, after
 * padding of every length, inside and outside strings. */
START_TEST(test_json_strict_word_offsets) {
    char json[256], want[128];
    for (int pad = 0; pad < 24; pad++) {
        char sp[32], tx[32];
        memset(sp, ' ', (size_t)pad);
        sp[pad] = 0;
        memset(tx, 'x', (size_t)pad);
        tx[pad] = 0;
        /* a duplicate key after a long key, long values and indentation, on line 3 */
        snprintf(json, sizeof json, "{\"%sk\": \"%s\",\n%s\"b\\\"%s\": 1,\n%s\"%sk\": 2}", tx, tx, sp, tx, sp, tx);
        snprintf(want, sizeof want, "t.json:3: duplicate key '%sk' in a JSON object (first at line 1)", tx);
        strict_rejects(json, want);
        /* keys that differ only after the padding are no duplicates; escapes end the plain runs */
        snprintf(json, sizeof json, "{\"%sk\": 1,%s\"%sk\\n\": 2, \"%s\\u0041\": 3, \"%sA\": 4}", tx, sp, tx, tx, tx);
        strict_rejects(json, "duplicate key");
        snprintf(json, sizeof json, "{\"%sk\": 1,%s\"%sk\\n\": 2, \"%s\\u0041\": 3}", tx, sp, tx, tx);
        strict_accepts(json);
        /* a NUL escape after a plain run; a line break inside a string still counts */
        snprintf(json, sizeof json, "{\"a\": \"%s\n%s\\u0000\"}", tx, tx);
        strict_rejects(json, "t.json:2: a string holds a NUL character");
        /* invalid UTF-8 at every column after an ASCII run */
        snprintf(json, sizeof json, "{\"a\": \"%s\xff\"}", tx);
        snprintf(want, sizeof want, "t.json:1: invalid UTF-8 (byte 0xFF at column %d)", 8 + pad);
        strict_rejects(json, want);
        snprintf(json, sizeof json, "{\"a\": \"%s\xc3\xa9%s\"}", tx, tx);
        strict_accepts(json);
        snprintf(json, sizeof json, "{\"a\": \"%s\xe2\x82\"}", tx);
        strict_rejects(json, "invalid UTF-8");
    }
}
END_TEST

/* json_strict_check_mapped gives the answers json_strict_check gives — on a 41 MB file, with the
 * problem at its end and multi-byte characters across the 8 MB piece boundaries — and leaves little
 * of the file mapped in the process (RssFile grows by under half the file; a whole read maps it all). */
/* The resident pages mapped from files: RssFile, and RssShmem for a file on tmpfs (a /tmp that is one). */
static size_t rss_file_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "RssFile:", 8) == 0 || strncmp(line, "RssShmem:", 9) == 0)
            kb += (size_t)strtoul(strchr(line, ':') + 1, NULL, 10);
    if (f) fclose(f);
    return kb;
}

static void mapped_agrees(const char *path, const char *text, size_t len, bool want) {
    FILE *f = fopen(path, "wb");
    ck_assert_uint_eq(fwrite(text, 1, len, f), len);
    fclose(f);
    int fd = open(path, O_RDONLY);
    const char *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    ck_assert(map != MAP_FAILED);
    diag_list_t d1, d2;
    diag_list_init(&d1);
    diag_list_init(&d2);
    ck_assert_int_eq(json_strict_check(text, len, "big.json", &d1), want);
    size_t before = rss_file_kb();
    ck_assert_int_eq(json_strict_check_mapped(map, len, "big.json", &d2), want);
    size_t grew = rss_file_kb() - before;
    if (!want) ck_assert_str_eq(first_error(&d1), first_error(&d2));
    if (want) ck_assert_msg(grew < len / 1024 / 2, "RssFile grew by %zu kB for a %zu kB file", grew, len / 1024);
    /* reading the map whole (what the check did before) maps it all: the measure can fail */
    unsigned sum = 0;
    for (size_t i = 0; want && i < len; i += 4096)
        sum += (unsigned char)map[i];
    if (want) ck_assert_msg(rss_file_kb() - before > len / 1024 / 2, "a whole read did not show (%u)", sum);
    diag_list_free(&d1);
    diag_list_free(&d2);
    munmap((void *)map, len);
    close(fd);
}

START_TEST(test_json_strict_mapped) {
    char *dir = tu_mkdtemp();
    char path[512];
    snprintf(path, sizeof path, "%s/big.json", dir);
    size_t cap = (size_t)41 << 20, len = 0;
    char *t = malloc(cap + 256);
    len += (size_t)sprintf(t, "{\"items\": [\n");
    for (size_t i = 0; len < cap; i++)
        len += (size_t)sprintf(t + len, "  {\"name\": \"item-%zu-\u00e9\xc3\xa9\xe2\x82\xac\", \"n\": %zu},\n", i, i);
    size_t body = len;
    len += (size_t)sprintf(t + len, "  {\"last\": 1}\n]}\n");
    mapped_agrees(path, t, len, true);
    /* a duplicate key at the very end */
    len = body + (size_t)sprintf(t + body, "  {\"last\": 1,\n \"last\": 2}\n]}\n");
    mapped_agrees(path, t, len, false);
    /* invalid UTF-8 at the end */
    len = body + (size_t)sprintf(t + body, "  {\"last\": \"\xff\"}\n]}\n");
    mapped_agrees(path, t, len, false);
    /* a NUL byte in a string at the end (past the first 8 MB piece) */
    len = body + (size_t)sprintf(t + body, "  {\"last\": \"a");
    t[len++] = 0;
    len += (size_t)sprintf(t + len, "b\"}\n]}\n");
    mapped_agrees(path, t, len, false);
    free(t);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* The strict check's memory does not grow with the document: the names of the keys of an object are
 * held only while it is open (they held every key of every object inside a top-level object until its
 * end — a stack export's every resource, 33 MB of a 100,000-resource export's check). A duplicate key
 * in the outer object after a long array is still found. */
START_TEST(test_json_strict_memory_bounded) {
    size_t cap = (size_t)24 << 20, len = 0;
    char *t = malloc(cap + 256);
    ck_assert_ptr_nonnull(t);
    len += (size_t)sprintf(t, "{\"version\": 3, \"items\": [\n");
    for (size_t i = 0; len < cap; i++)
        len += (size_t)sprintf(t + len,
                               "{\"a_long_key_name_number_one\": %zu, \"a_long_key_name_number_two\": 2, "
                               "\"a_long_key_name_number_three\": {\"a_nested_key_name\": 3}},\n",
                               i);
    size_t body = len;
    len += (size_t)sprintf(t + len, "{}]}\n");
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        diag_list_t d;
        diag_list_init(&d);
        bool ok = json_strict_check(t, len, "big.json", &d);
        getrusage(RUSAGE_SELF, &after);
        long grew_kb = after.ru_maxrss - before.ru_maxrss;
        fprintf(stderr, "strict check of %zu MB: peak RSS grew %ld KB\n", len >> 20, grew_kb);
        _exit(ok && grew_kb < 4096 ? 0 : 1);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the check's memory grew with the document");
    len = body + (size_t)sprintf(t + body, "{}], \"version\": 4}\n");
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(!json_strict_check(t, len, "big.json", &d));
    ck_assert_ptr_nonnull(strstr(d.head->message, "duplicate key 'version'"));
    diag_list_free(&d);
    free(t);
}
END_TEST

/* Every reader of JSON from outside applies the check. */
START_TEST(test_readers_are_strict) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *dup_if = "{\"resources\": [{\"type\": \"random:index/randomPet:RandomPet\", \"name\": \"a\", "
                         "\"id\": \"x\", \"id\": \"y\"}]}";
    ck_assert_ptr_null(import_file_parse(a, dup_if, strlen(dup_if), "i.json", &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "duplicate key 'id'"));
    diag_list_free(&d);

    diag_list_init(&d);
    const char *dup_yaml = "resources:\n  - type: t:index:T\n    name: a\n    id: x\n    id: y\n";
    ck_assert_ptr_null(import_file_parse(a, dup_yaml, strlen(dup_yaml), "i.yaml", &d));
    ck_assert_str_eq(first_error(&d),
                     "i.yaml:5: duplicate key 'id' in a YAML mapping (first at line 4): remove one of them, cimport "
                     "does not guess which one is meant");
    diag_list_free(&d);

    diag_list_init(&d);
    const char *dup_state = "{\"version\": 3, \"deployment\": {\"resources\": [], \"resources\": []}}";
    ck_assert_ptr_null(deployment_parse(a, dup_state, strlen(dup_state), "s.json", &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "s.json:1: duplicate key 'resources'"));
    diag_list_free(&d);

    diag_list_init(&d);
    const char *nul_schema = "{\"name\": \"p\\u0000q\", \"resources\": {}}";
    ck_assert_ptr_null(schema_load_buffer(nul_schema, strlen(nul_schema), "schema.json", &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "schema.json:1: a string holds a NUL character"));
    diag_list_free(&d);

    diag_list_init(&d);
    const char *utf_tf = "{\"version\": 4, \"resources\": [{\"type\": \"a\xff\"}]}";
    ck_assert_ptr_null(tfstate_parse(a, utf_tf, strlen(utf_tf), "t.tfstate", &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "t.tfstate:1: invalid UTF-8"));
    diag_list_free(&d);

    /* Fuzzer finding (fuzz_tfstate): a version beyond int was cast from double (UBSan). */
    diag_list_init(&d);
    const char *huge = "{\"version\": 4333333333333333333333333333333333333, \"resources\": []}";
    ck_assert_ptr_null(tfstate_parse(a, huge, strlen(huge), "h.tfstate", &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "is newer than this cimport reads"));
    diag_list_free(&d);
    diag_list_init(&d);
    const char *huge_dep = "{\"version\": 1e300, \"deployment\": {\"resources\": []}}";
    ck_assert_ptr_null(deployment_parse(a, huge_dep, strlen(huge_dep), "h.json", &d));
    diag_list_free(&d);

    diag_list_init(&d);
    const char *dup_results = "{\"resources\": [], \"resources\": []}";
    ck_assert_ptr_null(engine_resume_parse(dup_results, strlen(dup_results), "r.json", &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "duplicate key 'resources'"));
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_file_read_caps) {
    char *dir = tu_mkdtemp();
    char path[4096];
    snprintf(path, sizeof path, "%s/f.json", dir);
    ck_assert(tu_write(path, "0123456789"));
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    size_t len = 0;
    file_read_set_limit(10);
    ck_assert_ptr_nonnull(file_read_all(a, path, &len, &d));
    ck_assert_uint_eq(len, 10);
    file_read_set_limit(9);
    ck_assert_ptr_null(file_read_all(a, path, &len, &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "the file is larger than the input size cap of 9 bytes"));
    diag_list_free(&d);

    /* a device without an end: counted while reading */
    diag_list_init(&d);
    file_read_set_limit(1 << 20);
    ck_assert_ptr_null(file_read_all(a, "/dev/zero", &len, &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "/dev/zero: the input is larger than the input size cap"));
    diag_list_free(&d);

    /* a FIFO whose writer keeps it open and sends nothing */
    snprintf(path, sizeof path, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    int wfd = open(path, O_RDWR); /* a writer that never writes */
    ck_assert_int_ge(wfd, 0);
    diag_list_init(&d);
    file_read_set_idle_timeout(300);
    ck_assert_ptr_null(file_read_all(a, path, &len, &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "nothing arrived for 300 ms"));
    diag_list_free(&d);
    close(wfd);
    file_read_set_limit(0);
    file_read_set_idle_timeout(0);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* Every file cimport reads is capped, not only the main inputs: the project file, plugin.yaml, the
 * passphrase file, and schemas and stack exports read through a memory map. Each is measured when it
 * is a regular file and counted while read otherwise (/dev/zero, a FIFO that never delivers). */
START_TEST(test_small_files_capped) {
    char *dir = tu_mkdtemp();
    char path[4096], fifo[4096];
    arena_t *a = arena_new();
    diag_list_t d;
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    int wfd = open(fifo, O_RDWR); /* a writer that never writes */
    ck_assert_int_ge(wfd, 0);
    file_read_set_idle_timeout(300);

    /* Pulumi.yaml: over the cap, and a FIFO */
    snprintf(path, sizeof path, "%s/Pulumi.yaml", dir);
    ck_assert(tu_write(path, "name: capped\nruntime: nodejs\ndescription: a project file longer than the cap\n"));
    project_info_t pi;
    diag_list_init(&d);
    ck_assert(project_read(a, dir, &pi, &d));
    ck_assert_str_eq(pi.name, "capped");
    file_read_set_limit(32);
    ck_assert(!project_read(a, dir, &pi, &d));
    ck_assert_ptr_nonnull(
        strstr(first_error(&d), "Pulumi.yaml: the file is larger than the input size cap of 32 bytes"));
    diag_list_free(&d);
    file_read_set_limit(0);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(symlink(fifo, path), 0);
    diag_list_init(&d);
    ck_assert(!project_read(a, dir, &pi, &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "Pulumi.yaml: nothing arrived for 300 ms"));
    diag_list_free(&d);
    ck_assert_int_eq(unlink(path), 0);
    diag_list_init(&d);
    ck_assert(!project_read(a, dir, &pi, &d)); /* none: no error */
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);

    /* plugin.yaml: /dev/zero, a FIFO */
    diag_list_init(&d);
    file_read_set_limit(1 << 20);
    ck_assert_ptr_null(plugin_yaml_load(a, "/dev/zero", true, NULL, &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "/dev/zero: the input is larger than the input size cap of 1048576"));
    diag_list_free(&d);
    diag_list_init(&d);
    ck_assert_ptr_null(plugin_yaml_load(a, fifo, true, NULL, &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "nothing arrived for 300 ms"));
    diag_list_free(&d);
    bool missing = false;
    diag_list_init(&d);
    snprintf(path, sizeof path, "%s/none.yaml", dir);
    ck_assert_ptr_null(plugin_yaml_load(a, path, false, &missing, &d));
    ck_assert(missing);
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);

    /* PULUMI_CONFIG_PASSPHRASE_FILE: /dev/zero, a FIFO */
    const char *saved = getenv("PULUMI_CONFIG_PASSPHRASE");
    char *saved_copy = saved ? strdup(saved) : NULL;
    unsetenv("PULUMI_CONFIG_PASSPHRASE");
    setenv("PULUMI_CONFIG_PASSPHRASE_FILE", "/dev/zero", 1);
    char *pass = NULL;
    diag_list_init(&d);
    ck_assert(!passphrase_from_env(&pass, &d));
    ck_assert_ptr_null(pass);
    ck_assert_ptr_nonnull(strstr(first_error(&d), "/dev/zero: the input is larger than the input size cap"));
    diag_list_free(&d);
    setenv("PULUMI_CONFIG_PASSPHRASE_FILE", fifo, 1);
    diag_list_init(&d);
    ck_assert(!passphrase_from_env(&pass, &d));
    ck_assert_ptr_nonnull(strstr(first_error(&d), "nothing arrived for 300 ms"));
    diag_list_free(&d);
    snprintf(path, sizeof path, "%s/pass", dir);
    ck_assert(tu_write(path, "s3cret\n"));
    setenv("PULUMI_CONFIG_PASSPHRASE_FILE", path, 1);
    diag_list_init(&d);
    ck_assert(passphrase_from_env(&pass, &d));
    ck_assert_str_eq(pass, "s3cret");
    free(pass);
    diag_list_free(&d);
    unsetenv("PULUMI_CONFIG_PASSPHRASE_FILE");
    if (saved_copy) setenv("PULUMI_CONFIG_PASSPHRASE", saved_copy, 1);
    free(saved_copy);

    /* A schema and a stack export read through a memory map (regular files): measured first. */
    file_read_set_limit(100);
    char schema[4096], stack[4096];
    snprintf(schema, sizeof schema, "%s/schemas/random/schema.json", SHARED_DATA);
    snprintf(stack, sizeof stack, "%s/examples/quickstart/stack.json", SOURCE_DIR);
    diag_list_init(&d);
    ck_assert_ptr_null(schema_load_file(schema, &d));
    ck_assert_msg(strstr(first_error(&d), "schema.json: the file is larger than the input size cap of 100 bytes"), "%s",
                  first_error(&d));
    diag_list_free(&d);
    diag_list_init(&d);
    bool not_pulumi = false;
    ck_assert_ptr_null(deployment_load_indexed(a, stack, &not_pulumi, &d));
    ck_assert_msg(strstr(first_error(&d), "stack.json: the file is larger than the input size cap of 100 bytes"), "%s",
                  first_error(&d));
    diag_list_free(&d);
    file_read_set_limit(0);
    diag_list_init(&d);
    schema_package_t *pkg = schema_load_file(schema, &d);
    ck_assert_msg(pkg != NULL, "%s", first_error(&d));
    schema_free(pkg);
    diag_list_free(&d);

    close(wfd);
    file_read_set_idle_timeout(0);
    arena_free(a);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* Appends `n` lines made by `fmt` (with the line number) to a copy of `head`. */
static char *flood(const char *head, const char *fmt, int n, size_t *len) {
    size_t cap = strlen(head) + (size_t)n * (strlen(fmt) + 12) + 1;
    char *t = malloc(cap);
    *len = (size_t)snprintf(t, cap, "%s", head);
    for (int i = 0; i < n; i++)
        *len += (size_t)snprintf(t + *len, cap - *len, fmt, i);
    return t;
}

static size_t occurrences(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

enum { FLOOD = 65536 };

START_TEST(test_splice_comment_floods) {
    /* libtree-sitter 0.20.7 keeps a node's child count in 16 bits: 65,535 or more extras (comments,
     * C# directives) in a row wrap it and corrupt the heap (munmap_chunk(): invalid pointer). Such
     * programs are spliced like any other, every comment kept. The run sits at the top level, after
     * the resources (trailing extras) and inside a block (before the closing brace). */
    static const struct {
        lang_t lang;
        const char *fixture, *gen, *fmt, *marker, *defname;
        bool append; /* the run goes at the end, else before the last `}` */
    } cases[] = {
        {LANG_TYPESCRIPT, "toplevel.ts", "gen.ts", "// c%d\n", "// c", "password", true},
        {LANG_PYTHON, "__main__.py", "gen.py", "# c%d\n", "# c", "password", true},
        {LANG_GO, "main.go", "gen.go", "\t// c%d\n", "// c", "password", false},
        {LANG_CSHARP, "Program.cs", "gen.cs", "#pragma warning disable CS%d\n", "#pragma", "password", true},
        {LANG_JAVA, "App.java", "gen.java", "/* c%d */ ", "/* c", "password", true},
        {LANG_YAML, "Main.yaml", "gen.yaml", "# c%d\n", "# c", "password", true},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/fixtures/splice/%s", SOURCE_DIR, cases[k].fixture);
        char *base = tu_read(path, NULL);
        snprintf(path, sizeof path, "%s/tests/fixtures/splice/%s", SOURCE_DIR, cases[k].gen);
        char *gen = tu_read(path, NULL);
        ck_assert(base && gen);
        size_t before = occurrences(base, cases[k].marker);
        size_t len;
        char *t;
        if (cases[k].append) {
            t = flood(base, cases[k].fmt, FLOOD, &len);
        } else {
            char *brace = strrchr(base, '}');
            *brace = 0;
            char *head = flood(base, cases[k].fmt, FLOOD, &len);
            const char *rest = brace + 1;
            size_t rest_len = strlen(rest);
            t = malloc(len + rest_len + 2);
            len = (size_t)sprintf(t, "%s}%s", head, rest);
            free(head);
        }
        diag_list_t d;
        diag_list_init(&d);
        char *out = NULL;
        size_t out_len = 0;
        bool changed = false;
        splicer_t *s = splicer_new();
        splice_options_t o = {.filename = cases[k].fixture};
        ck_assert_msg(
            splicer_splice(s, t, len, cases[k].lang, gen, strlen(gen), &o, &out, &out_len, &changed, NULL, &d),
            "case %zu (%s): %s", k, cases[k].fixture, first_error(&d));
        ck_assert(changed);
        ck_assert_uint_eq(occurrences(out, cases[k].marker), before + FLOOD); /* every comment kept */
        /* (the splicer re-parses its result itself) The definitions of the result are listed, the
         * inserted ones among them. */
        arena_t *a = arena_new();
        splice_definition_t *defs;
        size_t n = 0;
        ck_assert_msg(splice_list_definitions(out, out_len, cases[k].lang, "f", a, &defs, &n, &d), "%s",
                      first_error(&d));
        bool found = false;
        for (size_t i = 0; i < n; i++)
            found |= defs[i].logical_name && strcmp(defs[i].logical_name, cases[k].defname) == 0;
        ck_assert_msg(found, "case %zu: no definition '%s' among %zu", k, cases[k].defname, n);
        arena_free(a);
        diag_list_free(&d);
        splicer_free(s);
        free(out);
        free(t);
        free(gen);
        free(base);
    }
}
END_TEST

START_TEST(test_splice_comment_lookalikes) {
    /* 61,000 comment-like lines inside strings (over TS_CHECK_MAX_COMMENTS) are text, not extras: parsed as they are
     * (TypeScript template, Python docstring, YAML block scalar). A run cimport's scanner misreads (a multi-line YAML
     * quoted scalar, which it takes for comments) is caught after the parse and refused with a clear message instead of
     * being parsed wrongly; 61,000 unmatched C# #if directives, which may not be hidden from the parser (blanking one
     * would change what the others enclose), are refused before it. */
    static const struct {
        lang_t lang;
        int n; /* lines of fmt inside the literal */
        const char *fixture, *gen, *head, *fmt;
        const char *tail, *tail_fmt; /* after the literal: tail, then 31,000 lines of tail_fmt (if any) */
        const char *refusal;
    } cases[] = {
        {LANG_TYPESCRIPT, 61000, "toplevel.ts", "gen.ts", "const doc = `\n", "// c%d\n", "`;\n", NULL, NULL},
        {LANG_PYTHON, 61000, "__main__.py", "gen.py", "DOC = \"\"\"\n", "# c%d\n", "\"\"\"\n", NULL, NULL},
        /* tree-sitter-yaml reads block scalars of up to ~32,000 lines: 30,000, then real comments. */
        {LANG_YAML, 30000, "Main.yaml", "gen.yaml", "description: |\n", "  # c%d\n", "", "# r%d\n", NULL},
        {LANG_YAML, 30000, "Main.yaml", "gen.yaml", "description: \"start\n", "  # c%d\n", "  end\"\n", "# r%d\n",
         "runs of 1,000 or more comments that cimport cannot tell apart from string text"},
        /* #if/#endif groups wrapping nothing are hidden whole; 61,000 unmatched #if cannot be. */
        {LANG_CSHARP, 30500, "Program.cs", "gen.cs", "", "#if A%d\n#endif\n", "", NULL, NULL},
        {LANG_CSHARP, 61000, "Program.cs", "gen.cs", "", "#if A%d\n", "", NULL,
         "1000 or more unmatched or unknown C# directives in a row"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/fixtures/splice/%s", SOURCE_DIR, cases[k].fixture);
        char *base = tu_read(path, NULL);
        snprintf(path, sizeof path, "%s/tests/fixtures/splice/%s", SOURCE_DIR, cases[k].gen);
        char *gen = tu_read(path, NULL);
        ck_assert(base && gen);
        char *head = malloc(strlen(base) + strlen(cases[k].head) + 1);
        sprintf(head, "%s%s", base, cases[k].head);
        size_t len;
        char *body = flood(head, cases[k].fmt, cases[k].n, &len);
        char *lit = malloc(len + strlen(cases[k].tail) + 1);
        sprintf(lit, "%s%s", body, cases[k].tail);
        char *t = cases[k].tail_fmt ? flood(lit, cases[k].tail_fmt, 31000, &len) : strdup(lit);
        len = strlen(t);
        free(lit);
        diag_list_t d;
        diag_list_init(&d);
        char *out = NULL;
        size_t out_len = 0;
        bool changed = false;
        splicer_t *s = splicer_new();
        splice_options_t o = {.filename = cases[k].fixture};
        bool ok = splicer_splice(s, t, len, cases[k].lang, gen, strlen(gen), &o, &out, &out_len, &changed, NULL, &d);
        if (cases[k].refusal) {
            ck_assert_msg(!ok, "case %zu should be refused", k);
            ck_assert_ptr_null(out);
            ck_assert_msg(strstr(first_error(&d), cases[k].refusal), "case %zu: %s", k, first_error(&d));
            ck_assert_ptr_nonnull(strstr(first_error(&d), "libtree-sitter 0.20.7"));
        } else {
            ck_assert_msg(ok, "case %zu (%s): %s", k, cases[k].fixture, first_error(&d));
            ck_assert(changed);
            ck_assert_ptr_nonnull(strstr(out, "password"));
            ck_assert_uint_eq(ts_check_buffer(cases[k].lang, out, out_len, cases[k].fixture, &d), 0);
            free(out);
        }
        diag_list_free(&d);
        splicer_free(s);
        free(t);
        free(body);
        free(head);
        free(gen);
        free(base);
    }
}
END_TEST

START_TEST(test_csharp_without_aliases) {
    /* A program whose only resource needs no `using X = ...;` alias: no usings to sort. */
    const char *pp = "config name string {\n}\n";
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(pp, strlen(pp), "p.pp", &d);
    ck_assert_msg(p != NULL, "%s", first_error(&d));
    schema_set_t *set = schema_set_new();
    ck_assert(pcl_bind(p, set, &d));
    char *cs = emit_program(p, LANG_CSHARP, &d);
    ck_assert_msg(cs != NULL, "%s", first_error(&d));
    ck_assert_ptr_nonnull(strstr(cs, "Deployment.RunAsync"));
    free(cs);
    schema_set_free(set);
    pcl_program_free(p);
    diag_list_free(&d);
}
END_TEST

/* A read-only text of `reps` MiB of byte `fill` followed by `tail`, built from one 1 MiB file mapped
 * again and again (the page cache holds 1 MiB whatever the length), so inputs past 2 GiB cost no
 * memory. *len is its length; unmap with munmap(text, *map_len). */
static char *big_text(size_t reps, char fill, const char *tail, size_t *len, size_t *map_len) {
    const size_t MIB = 1 << 20;
    char path[] = "/tmp/test_hardening_big_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    char *chunk = malloc(MIB);
    memset(chunk, fill, MIB);
    ck_assert(write(fd, chunk, MIB) == (ssize_t)MIB);
    free(chunk);
    char tpath[] = "/tmp/test_hardening_tail_XXXXXX";
    int tfd = mkstemp(tpath);
    ck_assert_int_ge(tfd, 0);
    unlink(tpath);
    size_t tlen = strlen(tail);
    ck_assert(write(tfd, tail, tlen) == (ssize_t)tlen);
    *map_len = reps * MIB + MIB;
    char *base = mmap(NULL, *map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ck_assert(base != MAP_FAILED);
    for (size_t i = 0; i < reps; i++)
        ck_assert(mmap(base + i * MIB, MIB, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) != MAP_FAILED);
    ck_assert(mmap(base + reps * MIB, MIB, PROT_READ, MAP_PRIVATE | MAP_FIXED, tfd, 0) != MAP_FAILED);
    close(fd);
    close(tfd);
    *len = reps * MIB + tlen;
    return base;
}

/* Line and column counters over input are not int (issue 15's audit): a JSON text with more than
 * 2^31 lines or a line longer than 2^31 bytes (a minified `terraform show -json` of a few GB; caps
 * can be raised with --max-input-size) overflowed them, and the message named line -2092957695 or
 * none at all. 2,049 MiB of line breaks, then a duplicate key; 2,049 MiB of spaces on one line, then
 * a cut-off Terraform state. */
START_TEST(test_counts_past_int_max) {
    size_t len, map_len;
    char *t = big_text(2049, '\n', "{\"a\": 1, \"a\": 2}\n", &len, &map_len);
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(!json_strict_check(t, len, "big.json", &d));
    ck_assert_str_eq(first_error(&d), "big.json:2148532225: duplicate key 'a' in a JSON object (first at line "
                                      "2148532225): remove one of them, cimport does not guess which one is meant");
    diag_list_free(&d);
    munmap(t, map_len);
    t = big_text(2049, ' ', "{\"version\": 4, \"resources\": [", &len, &map_len);
    diag_list_init(&d);
    arena_t *a = arena_new();
    ck_assert_ptr_null(tfstate_parse(a, t, len, "big.tfstate", &d));
    ck_assert_str_eq(first_error(&d), "big.tfstate: not a Terraform state: invalid JSON at line 1, column 2148532253 "
                                      "(is the file truncated?)");
    arena_free(a);
    diag_list_free(&d);
    munmap(t, map_len);
}
END_TEST

int main(void) {
    Suite *s = suite_create("hardening");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_json_strict);
    tcase_add_test(tc, test_json_strict_word_offsets);
    tcase_add_test(tc, test_json_strict_memory_bounded);
    tcase_add_test(tc, test_json_strict_mapped);
    tcase_add_test(tc, test_readers_are_strict);
    tcase_add_test(tc, test_file_read_caps);
    tcase_add_test(tc, test_small_files_capped);
    tcase_add_test(tc, test_splice_comment_floods);
    tcase_add_test(tc, test_splice_comment_lookalikes);
    tcase_add_test(tc, test_csharp_without_aliases);
    tcase_add_test(tc, test_counts_past_int_max);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* testutil.c — see testutil.h. */
#define _GNU_SOURCE
#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

char *tu_data(arena_t *a, const char *rel) {
    return arena_sprintf(a, "%s/%s", SHARED_DATA, rel);
}

char *tu_read(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    buf_t b;
    buf_init(&b);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&b, chunk, n);
    fclose(f);
    if (len) *len = b.len;
    return buf_take(&b);
}

bool tu_write(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    fputs(text, f);
    return fclose(f) == 0;
}

char *tu_mkdtemp(void) {
    char tmpl[] = "/tmp/cimport-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

void tu_rmtree(const char *path) {
    if (!path || strncmp(path, "/tmp/", 5) != 0) return;
    char *cmd;
    if (asprintf(&cmd, "rm -rf '%s'", path) < 0) return;
    int rc = system(cmd);
    (void)rc;
    free(cmd);
}

static int cmpstr(const void *x, const void *y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void walk(arena_t *a, const char *dir, const char *suffix, char ***out, size_t *n, size_t *cap) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *p = arena_sprintf(a, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            walk(a, p, suffix, out, n, cap);
        } else if (S_ISREG(st.st_mode)) {
            size_t l = strlen(p), sl = strlen(suffix);
            if (l >= sl && strcmp(p + l - sl, suffix) == 0) {
                *out = arena_grow_array(a, *out, cap, *n + 2, sizeof **out); /* and the NULL after them */
                (*out)[(*n)++] = p;
            }
        }
    }
    closedir(d);
}

char **tu_find_files(arena_t *a, const char *dir, const char *suffix, size_t *n) {
    size_t cap = 0;
    char **out = arena_grow_array(a, NULL, &cap, 1, sizeof *out);
    *n = 0;
    walk(a, dir, suffix, &out, n, &cap);
    qsort(out, *n, sizeof(char *), cmpstr);
    out[*n] = NULL;
    return out;
}

char *tu_run(const char *cmd, int *status) {
    FILE *p = popen(cmd, "r");
    if (!p) return NULL;
    buf_t b;
    buf_init(&b);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
        buf_append(&b, chunk, n);
    int st = pclose(p);
    if (status) *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf_take(&b);
}

char *tu_run_source(const char *name, const char *source, const char *cmd, int *status) {
    char *dir = tu_mkdtemp();
    char path[4096], line[8192];
    char *out = NULL;
    *status = -1;
    if (!dir) return NULL;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (tu_write(path, source)) {
        snprintf(line, sizeof line, "cd '%s' && %s 2>&1", dir, cmd);
        out = tu_run(line, status);
    }
    tu_rmtree(dir);
    free(dir);
    return out;
}

void tu_tag_processes(void) {
    char tag[64];
    snprintf(tag, sizeof tag, "%d-%ld", (int)getpid(), (long)time(NULL));
    setenv("CIMPORT_TEST_TAG", tag, 1);
}

/* Reads a /proc file whose entries are NUL-separated; returns its bytes (malloc'd) and length. */
static char *proc_read(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    buf_t b;
    buf_init(&b);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&b, chunk, n);
    fclose(f);
    *len = b.len;
    return buf_take(&b);
}

static bool nul_list_has(const char *data, size_t len, const char *needle, bool exact) {
    for (size_t i = 0; i < len;) {
        const char *e = data + i;
        size_t l = strnlen(e, len - i);
        if (exact ? strcmp(e, needle) == 0 : strstr(e, needle) != NULL) return true;
        i += l + 1;
    }
    return false;
}

int tu_count_tagged(const char *needle) {
    const char *tag = getenv("CIMPORT_TEST_TAG");
    if (!tag) return -1;
    char want[128];
    snprintf(want, sizeof want, "CIMPORT_TEST_TAG=%s", tag);
    DIR *d = opendir("/proc");
    if (!d) return -1;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        char path[300];
        size_t len;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        char *stat = proc_read(path, &len);
        const char *rp = stat ? strrchr(stat, ')') : NULL;
        bool zombie = rp && rp[1] == ' ' && rp[2] == 'Z';
        free(stat);
        if (zombie || atoi(e->d_name) == getpid()) continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        char *cmd = proc_read(path, &len);
        bool match = cmd && nul_list_has(cmd, len, needle, false);
        free(cmd);
        if (!match) continue;
        snprintf(path, sizeof path, "/proc/%s/environ", e->d_name);
        char *env = proc_read(path, &len);
        if (env && nul_list_has(env, len, want, true)) count++;
        free(env);
    }
    closedir(d);
    return count;
}

tu_pcl_t tu_pcl_load(const char *schema_text, const char *schema_file, const char *pcl) {
    diag_list_t d;
    diag_list_init(&d);
    tu_pcl_t f = {schema_set_new(), NULL};
    schema_package_t *pkg = schema_load_buffer(schema_text, strlen(schema_text), schema_file, &d);
    ck_assert_ptr_nonnull(pkg);
    schema_set_add(f.set, pkg);
    f.p = pcl_parse(pcl, strlen(pcl), "main.pp", &d);
    for (diag_t *x = d.head; x; x = x->next)
        fprintf(stderr, "%s\n", diag_format(&d, x));
    ck_assert_ptr_nonnull(f.p);
    ck_assert(pcl_bind(f.p, f.set, &d));
    diag_list_free(&d);
    return f;
}

void tu_pcl_unload(tu_pcl_t *f) {
    pcl_program_free(f->p);
    schema_set_free(f->set);
}

void tu_pcl_bind_refused(const char *schema_text, const char *schema_file, const char *pcl, const char *needle) {
    diag_list_t d;
    diag_list_init(&d);
    schema_set_t *set = schema_set_new();
    schema_set_add(set, schema_load_buffer(schema_text, strlen(schema_text), schema_file, &d));
    pcl_program_t *p = pcl_parse(pcl, strlen(pcl), "main.pp", &d);
    ck_assert_ptr_nonnull(p);
    ck_assert_msg(!pcl_bind(p, set, &d), "bound: %s", pcl);
    bool found = false;
    for (diag_t *x = d.head; x; x = x->next)
        found |= x->severity == DIAG_ERROR && strstr(diag_format(&d, x), needle) != NULL;
    ck_assert_msg(found, "no error with [%s]: %s", needle, d.head ? diag_format(&d, d.head) : "(none)");
    pcl_program_free(p);
    schema_set_free(set);
    diag_list_free(&d);
}

char *tu_pcl_emit_ok(const tu_pcl_t *f, lang_t lang) {
    diag_list_t d;
    diag_list_init(&d);
    char *s = emit_program(f->p, lang, &d);
    for (diag_t *x = d.head; x; x = x->next)
        if (x->severity == DIAG_ERROR) fprintf(stderr, "%s: %s\n", lang_name(lang), diag_format(&d, x));
    ck_assert_msg(s != NULL, "%s emitter failed", lang_name(lang));
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    return s;
}

void tu_pcl_emit_refused(const tu_pcl_t *f, lang_t lang, const char *needle1, const char *needle2) {
    diag_list_t d;
    diag_list_init(&d);
    char *s = emit_program(f->p, lang, &d);
    ck_assert_msg(s == NULL, "%s accepted:\n%s", lang_name(lang), s ? s : "");
    bool found = false;
    for (diag_t *x = d.head; x; x = x->next) {
        const char *m = diag_format(&d, x);
        if (x->severity == DIAG_ERROR && strstr(m, needle1) && (!needle2 || strstr(m, needle2))) found = true;
    }
    ck_assert_msg(found, "%s: no error naming '%s' / '%s'", lang_name(lang), needle1, needle2 ? needle2 : "");
    diag_list_free(&d);
}

void tu_pcl_parse_fails(const char *pcl, const char *needle) {
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(pcl, strlen(pcl), "main.pp", &d);
    ck_assert_ptr_null(p);
    ck_assert_msg(d.head && strstr(diag_format(&d, d.head), needle), "want [%s], got [%s]", needle,
                  d.head ? diag_format(&d, d.head) : "");
    diag_list_free(&d);
}

void tu_has(const char *text, const char *needle) {
    ck_assert_msg(strstr(text, needle), "missing [%s] in:\n%s", needle, text);
}

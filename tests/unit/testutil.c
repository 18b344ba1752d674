/* testutil.c — see testutil.h. */
#define _GNU_SOURCE
#include "testutil.h"

#include "importer/engine.h"
#include "importer/offline.h"
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "migrate/convert.h"
#include "specs/deployment.h"

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

struct tu_import {
    import_plan_t *plan;
    import_result_t *results;
    provider_registry_t *reg;
    offline_source_t *src;
};

tu_import_t *tu_offline_import(arena_t *a, const deployment_t *dep, schema_set_t *schemas) {
    import_file_t file = {0};
    file.specs = arena_alloc(a, (dep->n_resources + 1) * sizeof(import_spec_t));
    for (size_t i = 0; i < dep->n_resources; i++) {
        const state_resource_t *r = &dep->resources[i];
        if (!r->custom || !r->id || r->del || strncmp(r->type, "pulumi:", 7) == 0) continue;
        if (!schema_set_get(schemas, schema_token_package(a, r->type))) continue;
        import_spec_t *sp = &file.specs[file.n_specs];
        sp->type = r->type;
        sp->name = arena_sprintf(a, "r%zu", i);
        sp->id = r->id;
        sp->index = (int)file.n_specs++;
    }
    if (file.n_specs == 0) return NULL;
    diag_list_t d;
    diag_list_init(&d);
    tu_import_t *imp = arena_alloc(a, sizeof *imp);
    imp->plan = import_plan_build(a, &file, "dev", "p", true, &d);
    ck_assert_msg(imp->plan != NULL, "%s", d.head ? d.head->message : "no plan");
    imp->src = offline_source_new(dep, schemas);
    imp->reg = provider_registry_new(offline_provider_factory, imp->src);
    engine_options_t eo;
    engine_options_default(&eo);
    imp->results = engine_run(a, imp->plan, imp->reg, schemas, &eo, &d);
    ck_assert_ptr_nonnull(imp->results);
    diag_list_free(&d);
    return imp;
}

size_t tu_import_count(const tu_import_t *imp) {
    return imp->plan->n_items;
}

char *tu_import_statuses(arena_t *a, const tu_import_t *imp) {
    buf_t b = {0};
    for (size_t i = 0; i < imp->plan->n_items; i++) {
        const import_result_t *r = &imp->results[i];
        buf_printf(&b, "%s:%d:%d;", r->item->variable, r->status, r->verified);
    }
    char *out = arena_strdup(a, b.data ? b.data : "");
    buf_free(&b);
    return out;
}

char *tu_import_code(arena_t *a, const tu_import_t *imp, size_t first, size_t n, schema_set_t *schemas,
                     const lang_t *langs, size_t n_langs, bool trim) {
    pcl_gen_resource_t *gr = arena_alloc(a, (n ? n : 1) * sizeof *gr);
    size_t k = 0;
    for (size_t i = first; i < first + n && i < imp->plan->n_items; i++) {
        const import_result_t *r = &imp->results[i];
        if (r->status != IMPORT_OK) continue;
        pcl_gen_resource_t *g = &gr[k++];
        g->type = r->item->type;
        g->name = r->item->variable;
        g->logical_name = r->item->logical_name;
        g->urn = r->item->urn;
        g->id = r->id;
        g->inputs = r->inputs;
        g->outputs = trim ? pcl_gen_outputs_needed(a, r->state) : r->state;
        g->protect = true;
    }
    if (!k) return NULL;
    diag_list_t d;
    diag_list_init(&d);
    pcl_gen_options_t po;
    pcl_gen_options_default(&po);
    po.secrets = PCL_SECRETS_LITERAL;
    pcl_gen_result_t gen = {0};
    buf_t b = {0};
    if (pcl_generate(gr, k, schemas, &po, &gen, &d) && gen.program) {
        for (size_t l = 0; l < n_langs; l++) {
            diag_list_t e;
            diag_list_init(&e);
            char *text = langs[l] == LANG_PCL ? pcl_print(gen.program) : emit_program(gen.program, langs[l], &e);
            buf_printf(&b, "--- %s\n%s", lang_name(langs[l]), text ? text : "");
            for (const diag_t *x = e.head; !text && x; x = x->next)
                buf_printf(&b, "%s\n", diag_format(&e, x));
            free(text);
            diag_list_free(&e);
        }
    }
    for (const diag_t *x = d.head; x; x = x->next)
        buf_printf(&b, "%s\n", diag_format(&d, x));
    if (gen.program) pcl_program_free(gen.program);
    diag_list_free(&d);
    char *out = arena_strdup(a, b.data ? b.data : "");
    buf_free(&b);
    return out;
}

void tu_import_free(tu_import_t *imp) {
    if (!imp) return;
    engine_results_free(imp->results, imp->plan->n_items);
    provider_registry_free(imp->reg);
    offline_source_free(imp->src);
}

char *tu_big_schema_text(arena_t *a, int copies, bool formatted) {
    size_t len;
    char *one = tu_read(tu_data(a, "schemas/digitalocean/schema.json"), &len);
    ck_assert_ptr_nonnull(one);
    cJSON *doc = cJSON_Parse(one);
    free(one);
    cJSON *res = cJSON_GetObjectItem(doc, "resources"), *types = cJSON_GetObjectItem(doc, "types");
    cJSON *bigres = cJSON_CreateObject(), *bigtypes = cJSON_CreateObject();
    for (int c = 0; c < copies; c++) {
        const cJSON *e;
        cJSON_ArrayForEach(e, res)
            cJSON_AddItemToObject(bigres, arena_sprintf(a, "%s%d", e->string, c), cJSON_Duplicate(e, true));
        cJSON_ArrayForEach(e, types)
            cJSON_AddItemToObject(bigtypes, arena_sprintf(a, "%s%d", e->string, c), cJSON_Duplicate(e, true));
    }
    cJSON_ReplaceItemInObject(doc, "resources", bigres);
    cJSON_ReplaceItemInObject(doc, "types", bigtypes);
    char *text = formatted ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    return text;
}

import_file_t *tu_converted(arena_t *a, const char *path) {
    diag_list_t d;
    diag_list_init(&d);
    deployment_t *dep = deployment_load_for_convert(a, path, &d);
    import_file_t *f = NULL;
    if (dep) {
        convert_report_t report = {0};
        f = convert_deployment_to_import_file(a, dep, &report, &d);
        deployment_free(dep);
    }
    diag_list_free(&d);
    return f;
}

void tu_shared_schemas(arena_t *a, const char **paths) {
    static const char *const packages[TU_SHARED_SCHEMAS] = {"random", "tls", "command", "digitalocean", "azuread"};
    for (size_t i = 0; i < TU_SHARED_SCHEMAS; i++)
        paths[i] = tu_data(a, arena_sprintf(a, "schemas/%s/schema.json", packages[i]));
}

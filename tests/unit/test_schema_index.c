/* test_schema_index.c — the indexed schema loader (byte ranges parsed on lookup) against the whole-tree
 * loader (schema_load_buffer_whole): on every shared schema both resolve every resource, function and
 * type to the same description (describe(): a chosen subset — each property's name, type, flags,
 * default and per-language names; not descriptions, methods or language blocks). It generates no code, and the
 * whole-tree loader takes the package header, token list and aliases from the same scan, so it checks how a token's
 * JSON is parsed, not how tokens are found (test_schema_paths checks those against a cJSON parse of each whole file,
 * and compares the generated code). Bad big schemas (cut off, damaged deep inside a resource) get a clear
 * error. */
#include <check.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/hashmap.h"
#include "specs/schema.h"
#include "testutil.h"

static void describe_type(buf_t *b, const schema_type_t *t, int depth);

static void describe_props(buf_t *b, const schema_property_t *ps, size_t n, int depth) {
    for (size_t i = 0; i < n; i++) {
        const schema_property_t *p = &ps[i];
        buf_printf(b, "  %s req=%d sec=%d plain=%d repl=%d dep=%s cs=%s py=%s const=%s env=%zu lang=%d def=", p->name,
                   p->required, p->secret, p->plain, p->replace_on_changes, p->deprecation ? p->deprecation : "-",
                   p->csharp_name ? p->csharp_name : "-", p->python_name ? p->python_name : "-",
                   p->const_value_json ? p->const_value_json : "-", p->n_default_env, p->language != NULL);
        if (p->default_value) {
            cJSON *j = pv_to_display_json(p->default_value, true);
            char *t = cJSON_PrintUnformatted(j);
            buf_printf(b, "%s", t);
            free(t);
            cJSON_Delete(j);
        }
        buf_printf(b, " type=");
        describe_type(b, p->type, depth);
        buf_printf(b, "\n");
    }
}

static void describe_type(buf_t *b, const schema_type_t *t, int depth) {
    if (!t) {
        buf_printf(b, "NULL");
        return;
    }
    buf_printf(b, "(%d %s ext=%s", t->kind, t->token ? t->token : "-", t->external_ref ? t->external_ref : "-");
    if (t->element) {
        buf_printf(b, " el=");
        describe_type(b, t->element, depth);
    }
    for (size_t i = 0; i < t->n_enum_values; i++) {
        cJSON *j = pv_to_display_json(t->enum_values[i].value, true);
        char *v = cJSON_PrintUnformatted(j);
        buf_printf(b, " enum %s=%s", t->enum_values[i].name ? t->enum_values[i].name : "-", v);
        free(v);
        cJSON_Delete(j);
    }
    for (size_t i = 0; i < t->n_members; i++) {
        buf_printf(b, " |");
        describe_type(b, t->members[i], depth);
    }
    if (t->discriminator) buf_printf(b, " disc=%s", t->discriminator);
    for (size_t i = 0; i < t->n_mapping; i++)
        buf_printf(b, " map %s->%s", t->mapping[i].value, t->mapping[i].ref);
    /* named objects are described once on their own; anonymous depth is bounded */
    if (t->object && !t->token && depth < 4) describe_props(b, t->object->props, t->object->n_props, depth + 1);
    buf_printf(b, ")");
}

static char *describe(schema_package_t *pkg) {
    buf_t b = {0};
    buf_printf(&b, "%s %s %s %s %s %s\n", pkg->name, pkg->version ? pkg->version : "-", pkg->module_format,
               pkg->nodejs_package_name ? pkg->nodejs_package_name : "-",
               pkg->go_import_base_path ? pkg->go_import_base_path : "-",
               pkg->csharp_root_namespace ? pkg->csharp_root_namespace : "-");
    size_t nr = schema_resource_count(pkg), nt = schema_type_count(pkg);
    for (size_t i = 0; i < nr + 1; i++) {
        char prov[256];
        snprintf(prov, sizeof prov, "pulumi:providers:%s", pkg->name);
        const char *tok = i < nr ? schema_resource_token_at(pkg, i) : prov;
        const schema_resource_t *r = schema_find_resource(pkg, tok);
        ck_assert_ptr_nonnull(r);
        buf_printf(&b, "R %s comp=%d prov=%d cs=%s dep=%s aliases=%zu\n", r->token, r->is_component, r->is_provider,
                   r->csharp_name ? r->csharp_name : "-", r->deprecation ? r->deprecation : "-", r->n_aliases);
        for (size_t k = 0; k < r->n_aliases; k++) {
            buf_printf(&b, " alias %s", r->aliases[k]);
            ck_assert_ptr_nonnull(schema_find_resource(pkg, r->aliases[k]));
        }
        buf_printf(&b, " in:\n");
        describe_props(&b, r->inputs, r->n_inputs, 0);
        buf_printf(&b, " out:\n");
        describe_props(&b, r->outputs, r->n_outputs, 0);
    }
    for (size_t i = 0; i < schema_function_count(pkg); i++) {
        const schema_function_t *f = schema_find_function(pkg, schema_function_token_at(pkg, i));
        ck_assert_ptr_nonnull(f);
        buf_printf(&b, "F %s scalar=%d multi=%zu in:\n", f->token, f->scalar_return, f->n_multi_args);
        describe_props(&b, f->inputs, f->n_inputs, 0);
        buf_printf(&b, " out:\n");
        describe_props(&b, f->outputs, f->n_outputs, 0);
    }
    for (size_t i = 0; i < nt; i++) {
        const char *tok = schema_type_token_at(pkg, i);
        buf_printf(&b, "T %s ", tok);
        describe_type(&b, schema_find_type(pkg, tok), 0);
        const schema_object_t *o = schema_find_object(pkg, tok);
        if (o) {
            buf_printf(&b, " overlay=%d\n", o->is_overlay);
            describe_props(&b, o->props, o->n_props, 0);
        }
        buf_printf(&b, "\n");
    }
    return b.data;
}

/* Both loaders on one schema text: both refuse it, or both resolve it alike. True if compared. */
static bool loaders_agree(const char *text, size_t len, const char *name, size_t *tokens) {
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *x = schema_load_buffer(text, len, name, &d);
    schema_package_t *w = schema_load_buffer_whole(text, len, name, &d);
    if (!x || !w) {
        ck_assert_msg(!x && !w, "%s: only the %s loader accepted it", name, x ? "indexed" : "whole-tree");
        schema_free(x);
        schema_free(w);
        diag_list_free(&d);
        return false;
    }
    ck_assert_int_eq(schema_resource_count(x), schema_resource_count(w));
    ck_assert_int_eq(schema_type_count(x), schema_type_count(w));
    *tokens += schema_resource_count(x) + schema_type_count(x);
    char *dx = describe(x), *dw = describe(w);
    if (strcmp(dx, dw) != 0) {
        size_t k = 0;
        while (dx[k] == dw[k])
            k++;
        ck_abort_msg("%s: indexed and whole-tree resolutions differ near: %.200s", name, dx + (k > 80 ? k - 80 : 0));
    }
    free(dx);
    free(dw);
    schema_free(x);
    schema_free(w);
    diag_list_free(&d);
    return true;
}

START_TEST(test_indexed_equals_whole_on_shared_schemas) {
    arena_t *a = arena_new();
    size_t n1, n2;
    char **schemas = tu_find_files(a, tu_data(a, "schemas"), ".json", &n1);
    char **importer = tu_find_files(a, tu_data(a, "pulumi-importer/schemas"), ".json", &n2);
    size_t compared = 0, tokens = 0;
    char **lists[] = {schemas, importer};
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; lists[l][i]; i++) {
            if (strstr(lists[l][i], "bridge-metadata")) continue;
            size_t len;
            char *text = tu_read(lists[l][i], &len);
            ck_assert_ptr_nonnull(text);
            if (loaders_agree(text, len, lists[l][i], &tokens)) compared++;
            free(text);
        }
    ck_assert_int_ge(compared, 14);
    ck_assert_int_ge(tokens, 2000);
    arena_free(a);
}
END_TEST

/* Section names written with escapes ("\u0072esources" is `resources`, as cJSON and Go's decoder
 * read it): the indexed loader found no such section (it compared names byte for byte), so the
 * package had none of its resources, types or aliases, where the whole-tree loader had them. */
START_TEST(test_escaped_section_names) {
    const char *text = "{\"name\": \"p\", \"\\u0072esources\": {\"p:index:R\": {\"\\u0061liases\": "
                       "[{\"type\": \"p:index:Old\"}], \"inputProperties\": {\"o\": {\"$ref\": "
                       "\"#/types/p:index:O\"}}}}, \"typ\\u0065s\": {\"p:index:O\": {\"type\": \"object\", "
                       "\"properties\": {\"a\": {\"type\": \"string\"}}}}}";
    size_t tokens = 0;
    ck_assert(loaders_agree(text, strlen(text), "escaped.json", &tokens));
    ck_assert_uint_eq(tokens, 2);
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *x = schema_load_buffer(text, strlen(text), "escaped.json", &d);
    ck_assert_ptr_nonnull(x);
    const schema_resource_t *r = schema_find_resource(x, "p:index:Old");
    ck_assert(r && strcmp(r->token, "p:index:R") == 0);
    schema_free(x);
    diag_list_free(&d);
}
END_TEST

/* A real schema repeated to ~15 MB (kept small for CI; the bench cuts a 200 MB one), then cut off at
 * several places and damaged deep inside one resource. */
START_TEST(test_truncated_and_damaged_big_schema) {
    arena_t *a = arena_new();
    char *text = tu_big_schema_text(a, 6, true); /* formatted: lines for the errors to name */
    size_t n = strlen(text);
    ck_assert_int_gt(n, 10u << 20);
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *ok = schema_load_buffer(text, n, "big.json", &d);
    ck_assert_ptr_nonnull(ok);
    ck_assert_int_ge(schema_resource_count(ok), 6 * 80);
    schema_free(ok);
    /* cut at a quarter, half, three quarters and one byte short */
    size_t cuts[] = {n / 4, n / 2, 3 * n / 4, n - 2};
    for (size_t i = 0; i < 4; i++) {
        diag_list_t e;
        diag_list_init(&e);
        ck_assert_ptr_null(schema_load_buffer(text, cuts[i], "big.json", &e));
        ck_assert_int_eq(e.errors, 1);
        ck_assert_msg(strstr(e.head->message, "not valid JSON") && strstr(e.head->message, "cut off"), "%s",
                      e.head->message);
        ck_assert_int_gt(e.head->line, 1);
        diag_list_free(&e);
    }
    /* a damaged value deep in a resource near the end: refused at load, not at lookup */
    char *p = strstr(text + 3 * n / 4, "\"string\"");
    ck_assert_ptr_nonnull(p);
    memcpy(p, "\"stri\\q\"", 8);
    diag_list_t e;
    diag_list_init(&e);
    ck_assert_ptr_null(schema_load_buffer(text, n, "big.json", &e));
    ck_assert_ptr_nonnull(strstr(e.head->message, "not valid JSON"));
    diag_list_free(&e);
    diag_list_free(&d);
    free(text);
    arena_free(a);
}
END_TEST

static char *describe_file(const char *path) {
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *pkg = schema_load_file(path, &d);
    if (!pkg) ck_abort_msg("%s: %s", path, d.head ? d.head->message : "?");
    char *text = describe(pkg);
    schema_free(pkg);
    diag_list_free(&d);
    return text;
}

/* A big schema file (read through a memory map, its strict check on a thread beside the scan):
 * a duplicate key deep inside is refused with its line; a file cut off gets the scan's one error
 * (the check's messages about the same text are dropped, not added); the whole file loads. */
START_TEST(test_big_mapped_schema_checked_beside_the_scan) {
    arena_t *a = arena_new();
    setenv("CIMPORT_NO_SCHEMA_CACHE", "1", 1);
    char *dir = tu_mkdtemp();
    char *path = arena_sprintf(a, "%s/big.json", dir);
    char *text = tu_big_schema_text(a, 3, false);
    size_t n = strlen(text);
    ck_assert_int_gt(n, 2u << 20);
    ck_assert(tu_write(path, text));
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *pkg = schema_load_file(path, &d);
    ck_assert_ptr_nonnull(pkg);
    ck_assert_int_eq(d.count, 0);
    schema_free(pkg);
    /* a key given twice near the end: "description" of some property, written again beside it */
    char *at = strstr(text + 3 * n / 4, "{\"description\":");
    ck_assert_ptr_nonnull(at);
    size_t off = (size_t)(at - text) + 1;
    char *dup = arena_sprintf(a, "%.*s\"description\":\"x\",%s", (int)off, text, text + off);
    ck_assert(tu_write(path, dup));
    ck_assert_ptr_null(schema_load_file(path, &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_msg(strstr(d.head->message, "duplicate") && strstr(d.head->message, "description"), "%s",
                  d.head->message);
    ck_assert_int_eq(d.head->line, 1); /* one line: PrintUnformatted */
    diag_list_free(&d);
    /* the duplicate in a file cut off after it: the cut is the one error */
    ck_assert(tu_write(path, arena_strndup(a, dup, off + 40 + (n - off) / 2)));
    diag_list_init(&d);
    ck_assert_ptr_null(schema_load_file(path, &d));
    ck_assert_int_eq(d.count, 1);
    ck_assert_msg(strstr(d.head->message, "not valid JSON") && strstr(d.head->message, "cut off"), "%s",
                  d.head->message);
    diag_list_free(&d);
    unsetenv("CIMPORT_NO_SCHEMA_CACHE");
    free(text);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* The one entry file in the cache directory (malloc'd path) or NULL. */
static char *cache_entry(arena_t *a, const char *cache) {
    size_t n;
    char **f = tu_find_files(a, arena_sprintf(a, "%s/cimport/schema-index", cache), ".idx", &n);
    ck_assert_int_le(n, 1);
    return n ? f[0] : NULL;
}

/* Warm loads from the index cache give what a fresh scan gives; a corrupted entry, one from another
 * format version, a truncated one and a changed schema file are each rebuilt transparently; parallel
 * processes loading at once all succeed and leave one whole entry. */
START_TEST(test_index_cache) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *cache = arena_sprintf(a, "%s/cache", dir);
    setenv("XDG_CACHE_HOME", cache, 1);
    unsetenv("CIMPORT_NO_SCHEMA_CACHE");
    char *path = arena_sprintf(a, "%s/schema.json", dir);
    char *text = tu_big_schema_text(a, 4, false);
    ck_assert_int_gt(strlen(text), 8u << 20);
    ck_assert(tu_write(path, text));
    /* reference: the buffer loader (never cached) */
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *ref = schema_load_buffer(text, strlen(text), path, &d);
    char *want = describe(ref);
    schema_free(ref);
    ck_assert_ptr_null(cache_entry(a, cache));
    char *cold = describe_file(path);
    ck_assert_str_eq(cold, want);
    char *entry = cache_entry(a, cache);
    ck_assert_ptr_nonnull(entry);
    size_t elen;
    char *good = tu_read(entry, &elen);
    char *warm = describe_file(path);
    ck_assert_str_eq(warm, want);
    free(cold);
    free(warm);
    /* damaged entries: one byte flipped in the body, another format version, cut short, garbage; and
     * a whole entry (its checksum right) written by another build of the scanner */
    for (int k = 0; k < 5; k++) {
        char *bad = malloc(elen);
        memcpy(bad, good, elen);
        size_t blen = elen;
        if (k == 0) bad[elen / 2] ^= 0x40;
        if (k == 1) bad[14] = '9'; /* "cimport-sidx-v9" */
        if (k == 2) blen = elen / 3;
        if (k == 3) memset(bad, 'x', blen);
        if (k == 4) { /* the scanner's id: after the header (32 bytes), the identity and hash (64), its length (8) */
            bad[104] = bad[104] == '0' ? '1' : '0';
            uint64_t sum = hashmap_hash(bad + 32, elen - 32);
            memcpy(bad + 24, &sum, 8);
        }
        FILE *f = fopen(entry, "wb");
        fwrite(bad, 1, blen, f);
        fclose(f);
        free(bad);
        char *got = describe_file(path);
        ck_assert_msg(strcmp(got, want) == 0, "damaged entry %d gave a different schema", k);
        free(got);
        size_t nlen;
        char *now = tu_read(entry, &nlen);
        ck_assert_msg(nlen == elen && memcmp(now, good, elen) == 0, "damaged entry %d was not rebuilt", k);
        free(now);
    }
    /* the schema changes (one more copy): the entry no longer matches and is rebuilt */
    char *text2 = tu_big_schema_text(a, 5, false);
    ck_assert(tu_write(path, text2));
    schema_package_t *ref2 = schema_load_buffer(text2, strlen(text2), path, &d);
    char *want2 = describe(ref2);
    schema_free(ref2);
    char *got2 = describe_file(path);
    ck_assert_str_eq(got2, want2);
    free(got2);
    /* four processes at once, twice each, with no entry to start from */
    unlink(entry);
    pid_t kids[4];
    for (int k = 0; k < 4; k++) {
        kids[k] = fork();
        if (kids[k] == 0) {
            for (int r = 0; r < 2; r++) {
                diag_list_t e;
                diag_list_init(&e);
                schema_package_t *p = schema_load_file(path, &e);
                if (!p) _exit(1);
                char *t = describe(p);
                int same = strcmp(t, want2) == 0;
                free(t);
                schema_free(p);
                if (!same) _exit(2);
            }
            _exit(0);
        }
    }
    for (int k = 0; k < 4; k++) {
        int st;
        ck_assert_int_eq(waitpid(kids[k], &st, 0), kids[k]);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "process %d: status %d", k, st);
    }
    char *after = describe_file(path);
    ck_assert_str_eq(after, want2);
    free(after);
    /* another version written over the file in place, as `cp -p` or an unpacked package does it: the
     * same size, inode and (restored) mtime; only the contents differ. The entry must not answer. */
    struct stat before;
    ck_assert_int_eq(stat(path, &before), 0);
    char *major = strstr(text2, "/sdk/v4/go/digitalocean\"");
    ck_assert_ptr_nonnull(major);
    major[6] = '5'; /* the Go SDK's major version, in the document's head: the same length */
    int fd = open(path, O_WRONLY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(pwrite(fd, text2, strlen(text2), 0), (ssize_t)strlen(text2));
    close(fd);
    struct timespec times[2] = {before.st_atim, before.st_mtim};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
    struct stat same;
    ck_assert_int_eq(stat(path, &same), 0);
    ck_assert(same.st_size == before.st_size && same.st_ino == before.st_ino &&
              same.st_mtim.tv_sec == before.st_mtim.tv_sec && same.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
    schema_package_t *ref3 = schema_load_buffer(text2, strlen(text2), path, &d);
    char *want3 = describe(ref3);
    schema_free(ref3);
    ck_assert_str_ne(want3, want2);
    char *got3 = describe_file(path);
    ck_assert_msg(strcmp(got3, want3) == 0, "the entry of the old contents answered for the new ones");
    free(got3);
    free(want3);
    /* no temporary files left behind */
    size_t n;
    tu_find_files(a, arena_sprintf(a, "%s/cimport/schema-index", cache), "", &n);
    ck_assert_int_eq(n, 1);
    free(want);
    free(want2);
    free(good);
    free(text);
    free(text2);
    diag_list_free(&d);
    unsetenv("XDG_CACHE_HOME");
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* The cache entry's path holding something that is not an entry cimport wrote: a symbolic link (to a
 * user's file, to the schema itself, to nowhere) is neither read nor written through — the link is
 * replaced by a real entry and what it named is untouched; a FIFO neither hangs the load nor is
 * written into. Every load gives what a fresh scan gives. */
START_TEST(test_index_cache_entry_not_a_file) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *cache = arena_sprintf(a, "%s/cache", dir);
    setenv("XDG_CACHE_HOME", cache, 1);
    unsetenv("CIMPORT_NO_SCHEMA_CACHE");
    char *path = arena_sprintf(a, "%s/schema.json", dir);
    char *text = tu_big_schema_text(a, 4, false);
    ck_assert(tu_write(path, text));
    char *want = describe_file(path); /* writes the entry */
    char *entry = cache_entry(a, cache);
    ck_assert_ptr_nonnull(entry);
    char *precious = arena_sprintf(a, "%s/precious.txt", dir);
    const char *targets[3] = {precious, path, arena_sprintf(a, "%s/nowhere.idx", dir)};
    for (int k = 0; k < 3; k++) {
        ck_assert(tu_write(precious, "precious\n"));
        ck_assert_int_eq(unlink(entry), 0);
        ck_assert_int_eq(symlink(targets[k], entry), 0);
        char *got = describe_file(path);
        ck_assert_msg(strcmp(got, want) == 0, "link %d: another schema", k);
        free(got);
        size_t n;
        char *kept = tu_read(precious, &n);
        ck_assert_str_eq(kept, "precious\n");
        free(kept);
        char *schema = tu_read(path, &n);
        ck_assert_msg(n == strlen(text) && memcmp(schema, text, n) == 0, "link %d: the schema was written", k);
        free(schema);
        struct stat st;
        ck_assert_msg(access(targets[2], F_OK) != 0, "link %d: a file was made where the link pointed", k);
        ck_assert_int_eq(lstat(entry, &st), 0);
        ck_assert_msg(S_ISREG(st.st_mode), "link %d: the entry is not a file of its own", k);
    }
    /* a FIFO in the entry's place: no hang (the test's timeout), no write into it */
    ck_assert_int_eq(unlink(entry), 0);
    ck_assert_int_eq(mkfifo(entry, 0600), 0);
    char *got = describe_file(path);
    ck_assert_str_eq(got, want);
    free(got);
    /* a relative XDG_CACHE_HOME is not a cache directory (the XDG spec: ignored): the cache goes
     * under $HOME/.cache, not into the directory cimport runs in (the user's project) */
    char *home = arena_sprintf(a, "%s/home", dir), *project = arena_sprintf(a, "%s/project", dir);
    ck_assert_int_eq(mkdir(project, 0700), 0);
    ck_assert_int_eq(chdir(project), 0);
    setenv("XDG_CACHE_HOME", "rel-cache", 1);
    setenv("HOME", home, 1);
    got = describe_file(path);
    ck_assert_str_eq(got, want);
    free(got);
    ck_assert_msg(access(arena_sprintf(a, "%s/rel-cache", project), F_OK) != 0, "the cache went into the project");
    ck_assert_ptr_nonnull(cache_entry(a, arena_sprintf(a, "%s/.cache", home)));
    free(want);
    free(text);
    unsetenv("XDG_CACHE_HOME");
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* The cache does not grow for ever: a write of an entry removes what killed writers left (temporary
 * files over an hour old) and entries no run has used for 30 days; a recent temporary file (another
 * run writing now) and a used entry stay. A hit on an entry last marked over a day ago marks it again. */
START_TEST(test_index_cache_swept) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *cache = arena_sprintf(a, "%s/cache", dir);
    setenv("XDG_CACHE_HOME", cache, 1);
    unsetenv("CIMPORT_NO_SCHEMA_CACHE");
    char *path = arena_sprintf(a, "%s/schema.json", dir);
    char *text = tu_big_schema_text(a, 4, false);
    ck_assert(tu_write(path, text));
    free(describe_file(path)); /* makes the directory and an entry */
    char *entry = cache_entry(a, cache);
    ck_assert_ptr_nonnull(entry);
    char *idx = arena_sprintf(a, "%s/cimport/schema-index", cache);
    const char *names[4] = {"0000000000000001.idx.cimport-tmp-AbCdEf", "0000000000000002.idx.cimport-tmp-GhIjKl",
                            "0000000000000003.idx", "0000000000000004.idx"};
    time_t now = time(NULL);
    time_t ages[4] = {2L * 3600, 60, 31L * 86400, 86400};
    for (int k = 0; k < 4; k++) {
        char *f = arena_sprintf(a, "%s/%s", idx, names[k]);
        ck_assert(tu_write(f, "x"));
        struct timespec t[2] = {{now - ages[k], 0}, {now - ages[k], 0}};
        ck_assert_int_eq(utimensat(AT_FDCWD, f, t, 0), 0);
    }
    /* the entry last marked 40 days ago: a hit marks it used */
    struct timespec old[2] = {{now - 40L * 86400, 0}, {now - 40L * 86400, 0}};
    ck_assert_int_eq(utimensat(AT_FDCWD, entry, old, 0), 0);
    free(describe_file(path));
    struct stat st;
    ck_assert_int_eq(stat(entry, &st), 0);
    ck_assert_msg(st.st_mtime > now - 86400, "a used entry was not marked");
    /* another schema's entry is written: the sweep runs */
    char *path2 = arena_sprintf(a, "%s/schema2.json", dir);
    ck_assert(tu_write(path2, text));
    free(describe_file(path2));
    bool gone[4];
    for (int k = 0; k < 4; k++)
        gone[k] = access(arena_sprintf(a, "%s/%s", idx, names[k]), F_OK) != 0;
    ck_assert_msg(gone[0] && !gone[1] && gone[2] && !gone[3], "swept: %d %d %d %d", gone[0], gone[1], gone[2], gone[3]);
    ck_assert_int_eq(access(entry, F_OK), 0);
    free(text);
    unsetenv("XDG_CACHE_HOME");
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("schema_index");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_indexed_equals_whole_on_shared_schemas);
    tcase_add_test(tc, test_escaped_section_names);
    tcase_add_test(tc, test_truncated_and_damaged_big_schema);
    tcase_add_test(tc, test_index_cache);
    tcase_add_test(tc, test_index_cache_entry_not_a_file);
    tcase_add_test(tc, test_index_cache_swept);
    tcase_add_test(tc, test_big_mapped_schema_checked_beside_the_scan);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

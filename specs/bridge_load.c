/* bridge_load.c — reading the bridge set's inputs: files and directories of Terraform-bridge
 * metadata, Terraform provider schemas and mapping documents (those through tfmapping.c), each
 * recognised by its content, into the set (bridge.c). Above both: the set never calls back here. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "specs/bridge.h"
#include "specs/bridge_internal.h"
#include "specs/json_strict.h"

static void add_renamed_properties(bridge_set_t *set, const cJSON *rp) {
    const cJSON *tok;
    cJSON_ArrayForEach(tok, rp) {
        if (!cJSON_IsObject(tok) || !tok->string) continue;
        const cJSON *pr;
        cJSON_ArrayForEach(pr, tok) {
            if (!cJSON_IsString(pr) || !pr->string) continue;
            char *key = arena_sprintf(set->arena, "%s\n%s", tok->string, pr->valuestring);
            smap_put(&set->renames, key, arena_strdup(set->arena, pr->string));
        }
    }
}

/* token → tf_type tables (older metadata keeps the mapping only there). */
static void add_token_table(bridge_set_t *set, const cJSON *table, const char *origin) {
    const cJSON *e;
    cJSON_ArrayForEach(e, table) {
        if (cJSON_IsString(e) && e->string) bridge_add_resource(set, e->valuestring, e->string, NULL, origin);
    }
}

static void add_overrides(bridge_set_t *set, const cJSON *settings) {
    const cJSON *res;
    cJSON_ArrayForEach(res, cJSON_GetObjectItemCaseSensitive(settings, "resources")) {
        const cJSON *ov;
        cJSON_ArrayForEach(ov, cJSON_GetObjectItemCaseSensitive(res, "maxItemsOneOverrides")) {
            if (!cJSON_IsBool(ov) || !ov->string) continue;
            char *key = arena_sprintf(set->arena, "%s\n%s", res->string, ov->string);
            smap_put(&set->overrides, key, cJSON_IsTrue(ov) ? (void *)1 : (void *)2);
        }
    }
}

static bool add_metadata(bridge_set_t *set, cJSON *doc, const char *origin) {
    const cJSON *aa = cJSON_GetObjectItemCaseSensitive(doc, "auto-aliasing");
    const cJSON *renames = cJSON_GetObjectItemCaseSensitive(doc, "renames");
    const cJSON *top_res = cJSON_GetObjectItemCaseSensitive(doc, "resources");
    /* A Pulumi schema also has a top-level `resources`, but of objects; metadata maps tokens to strings. */
    if (top_res && (!cJSON_IsObject(top_res) || (top_res->child && !cJSON_IsString(top_res->child)))) top_res = NULL;
    if (!cJSON_IsObject(aa) && !cJSON_IsObject(renames) && !top_res) return false;
    bridge_keep_doc(set, doc);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(aa, "resources")) {
        const cJSON *cur = cJSON_GetObjectItemCaseSensitive(e, "current");
        if (cJSON_IsString(cur) && e->string)
            bridge_add_resource(set, e->string, cur->valuestring, cJSON_GetObjectItemCaseSensitive(e, "fields"),
                                origin);
    }
    add_token_table(set, cJSON_GetObjectItemCaseSensitive(renames, "resources"), origin);
    add_token_table(set, top_res, origin);
    add_renamed_properties(set, cJSON_GetObjectItemCaseSensitive(renames, "renamedProperties"));
    add_renamed_properties(set, cJSON_GetObjectItemCaseSensitive(doc, "renamedProperties"));
    add_overrides(set, cJSON_GetObjectItemCaseSensitive(doc, "auto-settings"));
    return true;
}

/* Terraform provider schemas come in two shapes: `terraform providers schema -json`
 * (provider_schemas.<addr>.resource_schemas.<type>.block, lower-case keys) and the Go struct dump
 * driftctl records (<type>.Block with Attributes/BlockTypes). Both are indexed by type → block. */
static bool add_tf_schema(bridge_set_t *set, cJSON *doc) {
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(doc, "provider_schemas");
    size_t before = hashmap_count(&set->tf_blocks);
    if (cJSON_IsObject(ps)) {
        const cJSON *prov;
        cJSON_ArrayForEach(prov, ps) {
            const cJSON *rs;
            cJSON_ArrayForEach(rs, cJSON_GetObjectItemCaseSensitive(prov, "resource_schemas")) {
                const cJSON *block = cJSON_GetObjectItemCaseSensitive(rs, "block");
                if (cJSON_IsObject(block) && rs->string)
                    smap_put(&set->tf_blocks, arena_strdup(set->arena, rs->string), (void *)block);
            }
        }
    } else {
        const cJSON *rs;
        cJSON_ArrayForEach(rs, doc) {
            const cJSON *block = cJSON_GetObjectItemCaseSensitive(rs, "Block");
            if (cJSON_IsObject(block) && rs->string)
                smap_put(&set->tf_blocks, arena_strdup(set->arena, rs->string), (void *)block);
        }
    }
    if (hashmap_count(&set->tf_blocks) == before && !cJSON_IsObject(ps)) return false;
    bridge_keep_doc(set, doc);
    set->n_tf_schemas++;
    return true;
}

/* The provider key of a mapping file: its base name without the extension (`helm.json` → "helm"). */
static char *file_provider_key(arena_t *a, const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? arena_strndup(a, base, (size_t)(dot - base)) : arena_strdup(a, base);
}

static bool add_text(bridge_set_t *set, const char *text, size_t len, const char *origin, bool named,
                     diag_list_t *diags) {
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (doc && !json_strict_check(text, len, origin, named ? diags : NULL)) {
        cJSON_Delete(doc);
        return false;
    }
    if (!doc) {
        if (named)
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, origin, NULL,
                     "the mapping is not valid JSON (near byte %zu); nothing was converted",
                     end ? (size_t)(end - text) : (size_t)0);
        return false;
    }
    const char *org = arena_strdup(set->arena, origin);
    int m = tfmapping_add(set, doc, org, file_provider_key(set->arena, origin), diags);
    if (m != 0) {
        if (m < 0) cJSON_Delete(doc);
        return m > 0;
    }
    if (add_metadata(set, doc, org)) return true;
    if (add_tf_schema(set, doc)) return true;
    cJSON_Delete(doc);
    if (named)
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, origin, NULL,
                 "not a mapping document (GetMapping's format: `resources` of `{\"tok\": ...}` objects), nor "
                 "Terraform-bridge metadata (no `auto-aliasing`, `renames` or `resources`), nor a Terraform provider "
                 "schema");
    return false;
}

bool bridge_set_add_buffer(bridge_set_t *set, const char *text, size_t len, const char *origin, diag_list_t *diags) {
    return add_text(set, text, len, origin, true, diags);
}

static bool add_file(bridge_set_t *set, const char *path, bool named, diag_list_t *diags) {
    arena_t *tmp = arena_new();
    size_t len = 0;
    char *text = file_read_all(tmp, path, &len, named ? diags : NULL);
    bool ok = text && add_text(set, text, len, path, named, diags);
    arena_free(tmp);
    return ok;
}

/* A directory scan reads bridge-metadata*.json and those schema.json files that start like a
 * Terraform provider schema; Pulumi schemas (also schema.json) are not opened whole. */
static bool looks_like_tf_schema(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char head[512];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = 0;
    return strstr(head, "\"provider_schemas\"") || strstr(head, "\"Block\"");
}

/* A mapping document names type tokens as `"tok"` early on (after the provider's shim schema, which
 * may be long, so the whole head is not enough: look for the key within the first 1 MiB). */
static bool looks_like_mapping(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t cap = 1 << 20;
    char *head = malloc(cap + 1);
    if (!head) abort();
    size_t n = fread(head, 1, cap, f);
    fclose(f);
    head[n] = 0;
    bool yes = n && strstr(head, "\"tok\"") != NULL;
    free(head);
    return yes;
}

static int cmp_str(const void *x, const void *y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void scan_dir(bridge_set_t *set, arena_t *a, const char *dir, size_t *found, diag_list_t *diags) {
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        names = arena_grow_array(a, names, &cap, n + 1, sizeof *names);
        names[n++] = arena_strdup(a, e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str); /* a stable order: the first source of a fact wins */
    for (size_t i = 0; i < n; i++) {
        char *p = arena_sprintf(a, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(p, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            scan_dir(set, a, p, found, diags);
        } else if (S_ISREG(st.st_mode)) {
            size_t l = strlen(names[i]);
            bool meta =
                strncmp(names[i], "bridge-metadata", 15) == 0 && l > 5 && strcmp(names[i] + l - 5, ".json") == 0;
            bool tfs = strcmp(names[i], "schema.json") == 0 && looks_like_tf_schema(p);
            /* `<tf provider>.json` mapping documents; Pulumi schemas (schema*.json) are not opened. */
            bool doc = !meta && l > 5 && strcmp(names[i] + l - 5, ".json") == 0 &&
                       strncmp(names[i], "schema", 6) != 0 && looks_like_mapping(p);
            if ((meta || tfs || doc) && add_file(set, p, meta, diags)) (*found)++;
        }
    }
}

bool bridge_set_add_path(bridge_set_t *set, const char *path, diag_list_t *diags) {
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "cannot read the mapping: no such file or directory");
        return false;
    }
    if (!S_ISDIR(st.st_mode)) return add_file(set, path, true, diags);
    arena_t *a = arena_new();
    size_t found = 0;
    size_t errors = diags ? diags->errors : 0;
    scan_dir(set, a, path, &found, diags);
    arena_free(a);
    if (!found) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "the directory holds no mapping document (`<tf provider>.json`) and no bridge-metadata*.json file; "
                 "pass a directory of GetMapping documents or of a bridged provider's metadata "
                 "(e.g. provider/cmd/pulumi-resource-<pkg>/bridge-metadata.json)");
        return false;
    }
    return !diags || diags->errors == errors;
}

/* --- lookups ----------------------------------------------------------------------------------- */

bool bridge_set_add_mapping(bridge_set_t *set, const char *text, size_t len, const char *tf_provider,
                            const char *origin, diag_list_t *diags) {
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!doc) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, origin, NULL, "the mapping is not valid JSON (near byte %zu)",
                 end ? (size_t)(end - text) : (size_t)0);
        return false;
    }
    int m = tfmapping_add(set, doc, arena_strdup(set->arena, origin), tf_provider, diags);
    if (m <= 0) cJSON_Delete(doc);
    if (m == 0)
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, origin, NULL,
                 "not a mapping document: it has no `resources` object of `{\"tok\": ...}` entries");
    return m > 0;
}

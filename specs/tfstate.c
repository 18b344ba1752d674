/* tfstate.c — reads Terraform state v4 files and `terraform show -json` output into one model.
 *
 * The parsed JSON document is kept (attributes point into it); expanded flatmaps are attached to
 * their instance object so they are freed with the document. */
#include "specs/tfstate.h"
#include "specs/json_strict.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"

static const char *json_str(const cJSON *o, const char *key) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(j) ? j->valuestring : NULL;
}

/* Line and column (1-based) of a byte offset, for JSON syntax errors. */
static void text_position(const char *text, size_t off, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* --- provider addresses ------------------------------------------------------------------------ */

/* Accepts every form states carry: `provider["registry.terraform.io/hashicorp/aws"]`,
 * `provider["…"].west`, `module.x.provider["…"]`, legacy `provider.aws`, `provider.aws.west`,
 * `module.x.provider.aws`, and an empty address (then the type's prefix names the provider). */
static void parse_provider(arena_t *a, const char *addr, const char *type, tf_resource_t *r) {
    const char *p = addr ? strstr(addr, "provider[\"") : NULL;
    const char *at = p ? p : addr ? strstr(addr, "provider.") : NULL;
    if (at && at > addr + 1 && at[-1] == '.') r->provider_module = arena_strndup(a, addr, (size_t)(at - 1 - addr));
    if (p) {
        p += 10;
        const char *q = strchr(p, '"');
        if (q) {
            r->provider_source = arena_strndup(a, p, (size_t)(q - p));
            if (q[1] == ']' && q[2] == '.' && q[3]) r->provider_alias = arena_strdup(a, q + 3);
        }
    } else if (addr && (p = strstr(addr, "provider."))) {
        p += 9;
        while (*p == ' ')
            p++;
        const char *dot = strchr(p, '.');
        r->provider_source = dot ? arena_strndup(a, p, (size_t)(dot - p)) : arena_strdup(a, p);
        if (dot && dot[1]) r->provider_alias = arena_strdup(a, dot + 1);
    }
    if (!r->provider_source || !*r->provider_source) {
        const char *u = strchr(type, '_');
        r->provider_source = u ? arena_strndup(a, type, (size_t)(u - type)) : arena_strdup(a, type);
    }
    const char *slash = strrchr(r->provider_source, '/');
    r->provider_type = slash ? slash + 1 : r->provider_source;
}

/* --- flatmap (attributes_flat) expansion --------------------------------------------------------- */

static const cJSON *flat_get(const cJSON *flat, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(flat, key);
}

static bool flat_has_prefix(const cJSON *flat, const char *prefix) {
    size_t n = strlen(prefix);
    const cJSON *e;
    cJSON_ArrayForEach(e, flat) if (strncmp(e->string, prefix, n) == 0) return true;
    return false;
}

static cJSON *flat_expand_value(arena_t *a, const cJSON *flat, const char *full);

/* The object whose attributes are the keys under prefix (which ends with '.' or is empty). */
static cJSON *flat_expand_object(arena_t *a, const cJSON *flat, const char *prefix) {
    cJSON *obj = cJSON_CreateObject();
    size_t n = strlen(prefix);
    const cJSON *e;
    cJSON_ArrayForEach(e, flat) {
        if (strncmp(e->string, prefix, n) != 0) continue;
        const char *rest = e->string + n;
        const char *dot = strchr(rest, '.');
        char *seg = dot ? arena_strndup(a, rest, (size_t)(dot - rest)) : arena_strdup(a, rest);
        if (cJSON_GetObjectItemCaseSensitive(obj, seg)) continue;
        cJSON *v = flat_expand_value(a, flat, arena_sprintf(a, "%s%s", prefix, seg));
        if (v) cJSON_AddItemToObject(obj, seg, v);
    }
    return obj;
}

static int cmp_index(const void *x, const void *y) {
    double a = strtod(*(char *const *)x, NULL), b = strtod(*(char *const *)y, NULL);
    return a < b ? -1 : a > b;
}

static cJSON *flat_expand_value(arena_t *a, const cJSON *flat, const char *full) {
    if (flat_get(flat, arena_sprintf(a, "%s.#", full))) {
        /* A list or set: elements are keyed by index (lists) or hash (sets). */
        char *pre = arena_sprintf(a, "%s.", full);
        size_t n = strlen(pre), cnt = 0, cap = 0;
        const char **keys = NULL;
        const cJSON *e;
        cJSON_ArrayForEach(e, flat) {
            if (strncmp(e->string, pre, n) != 0) continue;
            const char *rest = e->string + n;
            const char *dot = strchr(rest, '.');
            char *seg = dot ? arena_strndup(a, rest, (size_t)(dot - rest)) : arena_strdup(a, rest);
            if (strcmp(seg, "#") == 0) continue;
            bool seen = false;
            for (size_t i = 0; i < cnt && !seen; i++)
                seen = strcmp(keys[i], seg) == 0;
            if (seen) continue;
            keys = arena_grow_array(a, keys, &cap, cnt + 1, sizeof *keys);
            keys[cnt++] = seg;
        }
        if (cnt) qsort(keys, cnt, sizeof *keys, cmp_index);
        cJSON *arr = cJSON_CreateArray();
        for (size_t i = 0; i < cnt; i++) {
            cJSON *v = flat_expand_value(a, flat, arena_sprintf(a, "%s%s", pre, keys[i]));
            if (v) cJSON_AddItemToArray(arr, v);
        }
        return arr;
    }
    if (flat_get(flat, arena_sprintf(a, "%s.%%", full))) {
        /* A map of strings; keys may contain dots, so everything after the prefix is the key. */
        char *pre = arena_sprintf(a, "%s.", full);
        size_t n = strlen(pre);
        cJSON *obj = cJSON_CreateObject();
        const cJSON *e;
        cJSON_ArrayForEach(e, flat) {
            if (strncmp(e->string, pre, n) != 0 || strcmp(e->string + n, "%") == 0 || !cJSON_IsString(e)) continue;
            cJSON_AddItemToObject(obj, e->string + n, cJSON_CreateString(e->valuestring));
        }
        return obj;
    }
    const cJSON *exact = flat_get(flat, full);
    if (exact) return cJSON_Duplicate(exact, true);
    char *pre = arena_sprintf(a, "%s.", full);
    return flat_has_prefix(flat, pre) ? flat_expand_object(a, flat, pre) : NULL;
}

/* --- instances ------------------------------------------------------------------------------------ */

/* `sensitive_attributes` (v4): a list of paths, each a list of steps; the first `get_attr` step
 * names the top-level attribute, which is then treated as sensitive as a whole. */
static void read_sensitive_paths(arena_t *a, const cJSON *sa, tf_instance_t *inst) {
    const cJSON *path;
    cJSON_ArrayForEach(path, sa) {
        const cJSON *step = cJSON_IsArray(path) ? cJSON_GetArrayItem(path, 0) : NULL;
        const char *name = json_str(step, "value");
        const char *kind = json_str(step, "type");
        if (!name || !kind || strcmp(kind, "get_attr") != 0) continue;
        inst->sensitive =
            arena_grow_array(a, inst->sensitive, &inst->cap_sensitive, inst->n_sensitive + 1, sizeof *inst->sensitive);
        inst->sensitive[inst->n_sensitive++] = arena_strdup(a, name);
    }
}

/* `sensitive_values` (show -json): mirrors the value; `true` at a top-level key, or anything
 * non-empty below it, marks that attribute. */
static bool sensitive_nonempty(const cJSON *v) {
    if (cJSON_IsTrue(v)) return true;
    const cJSON *c;
    cJSON_ArrayForEach(c, v) if (sensitive_nonempty(c)) return true;
    return false;
}

static void read_sensitive_values(arena_t *a, const cJSON *sv, tf_instance_t *inst) {
    const cJSON *c;
    cJSON_ArrayForEach(c, sv) {
        if (!sensitive_nonempty(c)) continue;
        inst->sensitive =
            arena_grow_array(a, inst->sensitive, &inst->cap_sensitive, inst->n_sensitive + 1, sizeof *inst->sensitive);
        inst->sensitive[inst->n_sensitive++] = arena_strdup(a, c->string);
    }
}

static const char *index_text(arena_t *a, const cJSON *key, bool *is_number) {
    *is_number = false;
    if (cJSON_IsString(key)) return arena_strdup(a, key->valuestring);
    if (cJSON_IsNumber(key)) {
        *is_number = true;
        double d = key->valuedouble;
        /* a count index is an integer; another number is written as it is (never cast out of range) */
        if (d >= -9.2e18 && d <= 9.2e18 && d == (double)(long long)d) return arena_sprintf(a, "%lld", (long long)d);
        return arena_sprintf(a, "%.17g", d);
    }
    return NULL;
}

static const cJSON *instance_attributes(arena_t *a, cJSON *inst_json) {
    cJSON *attrs = cJSON_GetObjectItemCaseSensitive(inst_json, "attributes");
    if (cJSON_IsObject(attrs)) return attrs;
    const cJSON *flat = cJSON_GetObjectItemCaseSensitive(inst_json, "attributes_flat");
    cJSON *expanded = cJSON_IsObject(flat) ? flat_expand_object(a, flat, "") : cJSON_CreateObject();
    /* Attached to the instance so the document owns it. */
    if (attrs)
        cJSON_ReplaceItemInObjectCaseSensitive(inst_json, "attributes", expanded);
    else
        cJSON_AddItemToObject(inst_json, "attributes", expanded);
    return expanded;
}

/* --- state v4 ------------------------------------------------------------------------------------- */

static bool read_v4(arena_t *a, tf_state_t *s, diag_list_t *diags) {
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(s->doc, "resources");
    if (res && !cJSON_IsArray(res)) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, s->path, NULL,
                 "not a valid Terraform state: `resources` is not a list");
        return false;
    }
    size_t n = (size_t)cJSON_GetArraySize(res);
    s->resources = arena_alloc(a, (n ? n : 1) * sizeof *s->resources);
    cJSON *r;
    size_t i = 0;
    cJSON_ArrayForEach(r, res) {
        tf_resource_t *out = &s->resources[s->n_resources];
        const char *mode = json_str(r, "mode"), *type = json_str(r, "type"), *name = json_str(r, "name");
        if (!type || !name) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, s->path, NULL,
                     "not a valid Terraform state: resource %zu has no `type` or `name`", i);
            return false;
        }
        i++;
        out->module = json_str(r, "module") ? arena_strdup(a, json_str(r, "module")) : NULL;
        out->is_data = mode && strcmp(mode, "data") == 0;
        out->type = arena_strdup(a, type);
        out->name = arena_strdup(a, name);
        out->address = arena_sprintf(a, "%s%s%s%s.%s", out->module ? out->module : "", out->module ? "." : "",
                                     out->is_data ? "data." : "", type, name);
        parse_provider(a, json_str(r, "provider"), type, out);
        const cJSON *insts = cJSON_GetObjectItemCaseSensitive(r, "instances");
        size_t ni = (size_t)cJSON_GetArraySize(insts);
        out->instances = arena_alloc(a, (ni ? ni : 1) * sizeof *out->instances);
        cJSON *ij;
        cJSON_ArrayForEach(ij, insts) {
            tf_instance_t *inst = &out->instances[out->n_instances++];
            inst->index_key = index_text(a, cJSON_GetObjectItemCaseSensitive(ij, "index_key"), &inst->index_is_number);
            inst->attributes = instance_attributes(a, ij);
            read_sensitive_paths(a, cJSON_GetObjectItemCaseSensitive(ij, "sensitive_attributes"), inst);
            const char *dep = json_str(ij, "deposed");
            inst->deposed = dep ? arena_strdup(a, dep) : NULL;
            const char *status = json_str(ij, "status");
            inst->tainted = status && strcmp(status, "tainted") == 0;
            const cJSON *sv = cJSON_GetObjectItemCaseSensitive(ij, "schema_version");
            inst->schema_version =
                cJSON_IsNumber(sv) && sv->valuedouble > 0 && sv->valuedouble < 1e6 ? sv->valueint : 0;
            const char *priv = json_str(ij, "private");
            inst->private_meta = priv && *priv ? arena_strdup(a, priv) : NULL;
        }
        s->n_resources++;
    }
    return true;
}

/* --- terraform show -json --------------------------------------------------------------------- */

static void read_show_module(arena_t *a, tf_state_t *s, cJSON *mod, size_t *cap) {
    const char *maddr = json_str(mod, "address");
    cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(mod, "resources")) {
        const char *type = json_str(r, "type"), *name = json_str(r, "name");
        if (!type || !name) continue;
        s->resources = arena_grow_array(a, s->resources, cap, s->n_resources + 1, sizeof *s->resources);
        tf_resource_t *out = &s->resources[s->n_resources++];
        const char *mode = json_str(r, "mode");
        out->module = maddr ? arena_strdup(a, maddr) : NULL;
        out->is_data = mode && strcmp(mode, "data") == 0;
        out->type = arena_strdup(a, type);
        out->name = arena_strdup(a, name);
        out->address = arena_sprintf(a, "%s%s%s%s.%s", out->module ? out->module : "", out->module ? "." : "",
                                     out->is_data ? "data." : "", type, name);
        /* show -json names the provider by source only (older versions by its local name). */
        const char *pn = json_str(r, "provider_name");
        char *addr = pn ? arena_sprintf(a, strchr(pn, '/') ? "provider[\"%s\"]" : "provider.%s", pn) : NULL;
        parse_provider(a, addr, type, out);
        out->instances = arena_alloc(a, sizeof *out->instances);
        out->n_instances = 1;
        tf_instance_t *inst = &out->instances[0];
        inst->index_key = index_text(a, cJSON_GetObjectItemCaseSensitive(r, "index"), &inst->index_is_number);
        cJSON *values = cJSON_GetObjectItemCaseSensitive(r, "values");
        if (!cJSON_IsObject(values)) {
            values = cJSON_CreateObject();
            cJSON_DeleteItemFromObjectCaseSensitive(r, "values");
            cJSON_AddItemToObject(r, "values", values);
        }
        inst->attributes = values;
        read_sensitive_values(a, cJSON_GetObjectItemCaseSensitive(r, "sensitive_values"), inst);
        const char *dep = json_str(r, "deposed_key");
        inst->deposed = dep ? arena_strdup(a, dep) : NULL;
        inst->tainted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "tainted"));
        const cJSON *sv = cJSON_GetObjectItemCaseSensitive(r, "schema_version");
        inst->schema_version = cJSON_IsNumber(sv) && sv->valuedouble > 0 && sv->valuedouble < 1e6 ? sv->valueint : 0;
    }
    cJSON *child;
    cJSON_ArrayForEach(child, cJSON_GetObjectItemCaseSensitive(mod, "child_modules"))
        read_show_module(a, s, child, cap);
}

/* --- entry points ------------------------------------------------------------------------------- */

tf_state_t *tfstate_parse(arena_t *a, const char *text, size_t len, const char *path, diag_list_t *diags) {
    const char *p = path ? path : "<input>";
    const char *end = NULL;
    if (!json_encoding_check(text, len, path, diags)) return NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (doc && !json_strict_check(text, len, p, diags)) {
        cJSON_Delete(doc);
        return NULL;
    }
    if (!doc) {
        size_t line, col;
        size_t off = end && end >= text ? (size_t)(end - text) : 0;
        text_position(text, off, &line, &col);
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, p, NULL,
                 "not a Terraform state: invalid JSON at line %zu, column %zu (is the file truncated?)", line, col);
        return NULL;
    }
    tf_state_t *s = arena_alloc(a, sizeof *s);
    s->path = arena_strdup(a, p);
    s->doc = doc;
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "version");
    const char *fv = json_str(doc, "format_version");
    const char *tfv = json_str(doc, "terraform_version");
    s->terraform_version = tfv ? arena_strdup(a, tfv) : NULL;
    if (!cJSON_IsObject(doc) || (!cJSON_IsNumber(ver) && !fv)) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, p, NULL,
                 "not a Terraform state: it has neither `version` nor `format_version`; pass a "
                 "terraform.tfstate file or the output of `terraform show -json`");
        goto fail;
    }
    if (fv) {
        if (cJSON_GetObjectItemCaseSensitive(doc, "planned_values") ||
            cJSON_GetObjectItemCaseSensitive(doc, "resource_changes")) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, p, NULL,
                     "a Terraform plan, not a state; convert the state instead: `terraform show -json > "
                     "state.json` (without a plan file) or the terraform.tfstate file");
            goto fail;
        }
        if (fv[0] != '0' && fv[0] != '1') {
            diag_add(
                diags, DIAG_ERROR, DIAG_INPUT, p, NULL,
                "`terraform show -json` format version %s is not supported; cimport reads format versions 0.x and 1.x",
                fv);
            goto fail;
        }
        s->is_show_json = true;
        s->format_version = arena_strdup(a, fv);
        size_t cap = 0;
        cJSON *values = cJSON_GetObjectItemCaseSensitive(doc, "values");
        cJSON *root = cJSON_GetObjectItemCaseSensitive(values, "root_module");
        if (root) read_show_module(a, s, root, &cap);
        return s;
    }
    s->version = ver->valueint; /* cJSON clamps it to int: a huge number must not overflow a cast */
    if (s->version < 4) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, p, NULL,
                 "Terraform state version %d (written by Terraform %s) is not supported; cimport reads version 4. "
                 "Upgrade it by running `terraform refresh` (or `terraform apply`) with Terraform 0.12 or later, "
                 "then convert the upgraded state",
                 s->version, tfv ? tfv : "0.11 or earlier");
        goto fail;
    }
    if (s->version > 4) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, p, NULL,
                 "Terraform state version %d is newer than this cimport reads (version 4); pass the "
                 "output of `terraform show -json` instead",
                 s->version);
        goto fail;
    }
    if (!read_v4(a, s, diags)) goto fail;
    return s;
fail:
    cJSON_Delete(doc);
    return NULL;
}

tf_state_t *tfstate_load(arena_t *a, const char *path, diag_list_t *diags) {
    size_t len = 0;
    if (!json_file_head_check(path, diags)) return NULL;
    char *text = file_read_all(a, path, &len, diags);
    return text ? tfstate_parse(a, text, len, path, diags) : NULL;
}

void tfstate_free(tf_state_t *s) {
    if (s) cJSON_Delete(s->doc);
}

bool tfstate_detect(const char *text, size_t len) {
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (!doc) return false;
    bool yes = false;
    if (cJSON_IsObject(doc)) {
        const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "version");
        /* Terraform states have `lineage`/`serial` or `modules` (old), or — hand-written or trimmed v4
         * states — just `terraform_version` or a `resources` list, or `format_version` + `values`;
         * Pulumi's exports have `deployment`/`checkpoint`, so the two never overlap. */
        bool pulumi =
            cJSON_GetObjectItemCaseSensitive(doc, "deployment") || cJSON_GetObjectItemCaseSensitive(doc, "checkpoint");
        if (cJSON_IsNumber(ver) && !pulumi &&
            (cJSON_GetObjectItemCaseSensitive(doc, "lineage") || cJSON_GetObjectItemCaseSensitive(doc, "serial") ||
             cJSON_GetObjectItemCaseSensitive(doc, "modules") ||
             cJSON_GetObjectItemCaseSensitive(doc, "terraform_version") ||
             cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "resources"))))
            yes = true;
        if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, "format_version")) &&
            (cJSON_GetObjectItemCaseSensitive(doc, "values") ||
             cJSON_GetObjectItemCaseSensitive(doc, "terraform_version")))
            yes = true;
    }
    cJSON_Delete(doc);
    return yes;
}

bool tfstate_instance_sensitive(const tf_instance_t *inst, const char *attr) {
    for (size_t i = 0; i < inst->n_sensitive; i++)
        if (strcmp(inst->sensitive[i], attr) == 0) return true;
    return false;
}

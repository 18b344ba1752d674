/* engine_resume.c — `--resume RESULTS.json`: reads a previous run's `--json` results document and
 * carries the resources it records as imported over into a new run, so a 10,000-resource migration
 * interrupted at 9,000 only imports the last 1,000 again.
 *
 * The document is the one cli/pipeline.c writes (README "--json results"). Its inputs are display
 * JSON: special values are signature objects (decoded as state JSON), and secrets are "[secret]"
 * unless it was written with --show-secrets. A resource with a redacted secret is imported again
 * rather than carried over with a placeholder in place of its value. Records are indexed by URN in
 * base/hashmap, so matching a plan of any size is linear. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/hashmap.h"
#include "importer/engine_internal.h"
#include "specs/json_strict.h"

#define RESUME_REDACTED "[secret]"

typedef struct resume_diag {
    diag_severity_t severity;
    const char *message;
} resume_diag_t;

typedef struct resume_entry {
    const char *urn, *type, *id; /* id NULL when the record has none */
    const char *import_id;       /* the import file's ID, when Read gave another (else NULL: id) */
    pv_t *inputs;
    input_provenance_entry_t *provenance;
    size_t n_provenance;
    bool verified;
    bool verified_offline; /* verified, but not by a provider (verification other than "provider") */
    int rounds;
    const char **residual, **ignore_changes;
    size_t n_residual, n_ignore_changes;
    bool residual_unnamed, check_rejected;
    resume_diag_t *diags;
    size_t n_diags;
} resume_entry_t;

struct engine_resume {
    arena_t *arena;
    resume_entry_t *entries;
    size_t n;
    hashmap_t by_urn; /* URN (the entry's own arena string) → its resume_entry_t */
};

static const resume_entry_t *resume_find(const engine_resume_t *r, const char *urn) {
    void **slot = urn ? hashmap_find_str(&r->by_urn, urn) : NULL;
    return slot ? *slot : NULL;
}

static bool has_redacted(const cJSON *j) {
    if (cJSON_IsString(j)) return strcmp(j->valuestring, RESUME_REDACTED) == 0;
    for (const cJSON *c = j ? j->child : NULL; c; c = c->next)
        if (has_redacted(c)) return true;
    return false;
}

static const char *json_str(arena_t *a, const cJSON *obj, const char *key) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(j) ? arena_strdup(a, j->valuestring) : NULL;
}

static const char **json_strings(arena_t *a, const cJSON *obj, const char *key, size_t *n) {
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
    *n = 0;
    int len = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
    if (len <= 0) return NULL;
    const char **out = arena_alloc(a, (size_t)len * sizeof *out);
    for (const cJSON *c = arr->child; c; c = c->next)
        if (cJSON_IsString(c)) out[(*n)++] = arena_strdup(a, c->valuestring);
    return out;
}

static bool provenance_parse(const char *name, input_provenance_t *out) {
    for (int k = PROVENANCE_REQUIRED; k <= PROVENANCE_SPEC; k++)
        if (strcmp(name, provenance_name((input_provenance_t)k)) == 0) {
            *out = (input_provenance_t)k;
            return true;
        }
    return false;
}

static diag_severity_t severity_parse(const char *name) {
    for (int k = DIAG_ERROR; k <= DIAG_DEBUG; k++)
        if (strcmp(name, diag_severity_name((diag_severity_t)k)) == 0) return (diag_severity_t)k;
    return DIAG_WARNING;
}

static bool path_listed(const cJSON *paths, const char *path) {
    const cJSON *p;
    cJSON_ArrayForEach(p, paths) if (cJSON_IsString(p) && strcmp(p->valuestring, path) == 0) return true;
    return false;
}

/* Wraps the value at each path the record lists in "secretPaths" (`a.b[0].c`, as the results
 * document writes them) in a secret again; the count of listed paths found. */
static size_t secret_paths_wrap(arena_t *a, pv_t **slot, char *path, size_t len, size_t cap, const cJSON *paths) {
    pv_t *v = *slot;
    if (len && path_listed(paths, path)) {
        if (v->kind != PV_SECRET && v->kind != PV_NULL) *slot = pv_secret(a, v);
        return 1;
    }
    size_t found = 0;
    size_t n = v->kind == PV_OBJECT ? v->u.obj.len : v->kind == PV_ARRAY ? v->u.arr.len : 0;
    for (size_t i = 0; i < n; i++) {
        int w = v->kind == PV_OBJECT ? snprintf(path + len, cap - len, "%s%s", len ? "." : "", v->u.obj.members[i].key)
                                     : snprintf(path + len, cap - len, "[%zu]", i);
        if (w > 0 && (size_t)w < cap - len)
            found += secret_paths_wrap(a, v->kind == PV_OBJECT ? &v->u.obj.members[i].value : &v->u.arr.items[i], path,
                                       len + (size_t)w, cap, paths);
        path[len] = '\0';
    }
    return found;
}

/* The record's secret input paths made secret again (a --show-secrets document holds them in
 * plaintext); false when one of them is not in its inputs (carried over, it would be plaintext). */
static bool secret_paths_apply(arena_t *a, pv_t *inputs, const cJSON *paths) {
    size_t listed = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, paths) {
        if (!cJSON_IsString(p)) return false;
        bool dup = false;
        for (const cJSON *q = paths->child; q != p && !dup; q = q->next)
            dup = strcmp(q->valuestring, p->valuestring) == 0;
        listed += !dup;
    }
    if (!listed) return true;
    char path[2048] = "";
    return secret_paths_wrap(a, &inputs, path, 0, sizeof path, paths) == listed;
}

/* One "imported" record; false when it cannot be carried over faithfully. */
static bool entry_parse(arena_t *a, const cJSON *j, resume_entry_t *e) {
    memset(e, 0, sizeof *e);
    e->urn = json_str(a, j, "urn");
    e->type = json_str(a, j, "type");
    e->id = json_str(a, j, "id");
    e->import_id = json_str(a, j, "importId");
    const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(j, "inputs");
    if (!e->urn || !e->type || !cJSON_IsObject(inputs) || has_redacted(inputs)) return false;
    if (e->id && strcmp(e->id, RESUME_REDACTED) == 0) return false; /* an ID that is a secret value */
    diag_list_t tmp;
    diag_list_init(&tmp);
    e->inputs = pv_from_state_json(a, inputs, "resume", &tmp);
    diag_list_free(&tmp);
    if (!e->inputs || e->inputs->kind != PV_OBJECT) return false;
    const cJSON *secret_paths = cJSON_GetObjectItemCaseSensitive(j, "secretPaths");
    if (secret_paths && (!cJSON_IsArray(secret_paths) || !secret_paths_apply(a, e->inputs, secret_paths))) return false;
    const cJSON *prov = cJSON_GetObjectItemCaseSensitive(j, "provenance");
    int np = cJSON_IsObject(prov) ? cJSON_GetArraySize(prov) : 0;
    if (np > 0) e->provenance = arena_alloc(a, (size_t)np * sizeof *e->provenance);
    for (const cJSON *c = np > 0 ? prov->child : NULL; c; c = c->next) {
        input_provenance_t kind;
        if (cJSON_IsString(c) && provenance_parse(c->valuestring, &kind))
            e->provenance[e->n_provenance++] = (input_provenance_entry_t){arena_strdup(a, c->string), kind};
    }
    /* "verified" (a provider checked) or "verification" other than "none" (also offline runs). */
    const cJSON *how = cJSON_GetObjectItemCaseSensitive(j, "verification");
    e->verified = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "verified")) ||
                  (cJSON_IsString(how) && strcmp(how->valuestring, "none") != 0);
    /* Only "provider" says a provider checked it; anything else is never carried over as verified by one. */
    e->verified_offline = e->verified && !(cJSON_IsString(how) && strcmp(how->valuestring, "provider") == 0);
    const cJSON *rounds = cJSON_GetObjectItemCaseSensitive(j, "rounds");
    e->rounds = cJSON_IsNumber(rounds) ? rounds->valueint : 0;
    e->residual = json_strings(a, j, "residual", &e->n_residual);
    e->residual_unnamed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "residualUnnamed"));
    e->check_rejected = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "checkRejected"));
    e->ignore_changes = json_strings(a, j, "ignoreChanges", &e->n_ignore_changes);
    const cJSON *ds = cJSON_GetObjectItemCaseSensitive(j, "diagnostics");
    int nd = cJSON_IsArray(ds) ? cJSON_GetArraySize(ds) : 0;
    if (nd > 0) e->diags = arena_alloc(a, (size_t)nd * sizeof *e->diags);
    for (const cJSON *c = nd > 0 ? ds->child : NULL; c; c = c->next) {
        const char *sev = json_str(a, c, "severity"), *msg = json_str(a, c, "message");
        if (msg) e->diags[e->n_diags++] = (resume_diag_t){sev ? severity_parse(sev) : DIAG_WARNING, msg};
    }
    return true;
}

engine_resume_t *engine_resume_parse(const char *text, size_t len, const char *path, diag_list_t *diags) {
    const char *name = path ? path : "the results document";
    if (!json_encoding_check(text, len, path, diags)) return NULL;
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (doc && !json_strict_check(text, len, name, diags)) {
        cJSON_Delete(doc);
        return NULL;
    }
    const cJSON *resources = doc ? cJSON_GetObjectItemCaseSensitive(doc, "resources") : NULL;
    if (!doc || !resources || !cJSON_IsObject(doc) || !cJSON_IsArray(resources)) {
        char advice[DIAG_ADVICE_MAX];
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "%s is not a cimport results document (%s)%s", name,
                 !doc ? "it is not valid JSON" : "it has no \"resources\" array",
                 diag_advice(advice, DIAG_ADVICE_RESULTS_DOC, NULL));
        cJSON_Delete(doc);
        return NULL;
    }
    engine_resume_t *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->arena = arena_new();
    int total = cJSON_GetArraySize(resources);
    r->entries = arena_alloc(r->arena, (size_t)(total > 0 ? total : 1) * sizeof *r->entries);
    size_t redone = 0;
    for (const cJSON *j = resources->child; j; j = j->next) {
        const cJSON *status = cJSON_GetObjectItemCaseSensitive(j, "status");
        if (!cJSON_IsString(status) || strcmp(status->valuestring, "imported") != 0) continue;
        resume_entry_t *e = &r->entries[r->n];
        if (!entry_parse(r->arena, j, e)) {
            redone++;
            continue;
        }
        if (!hashmap_add_str(&r->by_urn, e->urn, e)) continue; /* the first record of a URN wins */
        r->n++;
    }
    if (redone)
        diag_add(diags, DIAG_INFO, DIAG_INPUT, path, NULL,
                 "%zu resource%s recorded as imported in %s %s imported again: %s recorded inputs are incomplete or "
                 "hold redacted secrets (\"[secret]\")",
                 redone, redone == 1 ? "" : "s", name, redone == 1 ? "is" : "are", redone == 1 ? "its" : "their");
    cJSON_Delete(doc);
    return r;
}

engine_resume_t *engine_resume_load(const char *path, diag_list_t *diags) {
    arena_t *a = arena_new();
    size_t len;
    char *text = file_read_all(a, path, &len, diags);
    engine_resume_t *r = text ? engine_resume_parse(text, len, path, diags) : NULL;
    arena_free(a);
    return r;
}

size_t engine_resume_count(const engine_resume_t *r) {
    return r ? r->n : 0;
}

bool engine_resume_other_stack(const engine_resume_t *r, const char *stack, const char *project, arena_t *a,
                               const char **doc_stack, const char **doc_project) {
    *doc_stack = *doc_project = NULL;
    if (!r || r->n == 0) return false;
    const char *prefix = arena_sprintf(a, "urn:pulumi:%s::%s::", stack, project);
    for (size_t i = 0; i < r->n; i++)
        if (strncmp(r->entries[i].urn, prefix, strlen(prefix)) == 0) return false;
    /* "urn:pulumi:STACK::PROJECT::...": the first record's */
    const char *u = r->entries[0].urn + strlen("urn:pulumi:");
    const char *sep = strncmp(r->entries[0].urn, "urn:pulumi:", 11) == 0 ? strstr(u, "::") : NULL;
    const char *end = sep ? strstr(sep + 2, "::") : NULL;
    if (end) {
        *doc_stack = arena_strndup(a, u, (size_t)(sep - u));
        *doc_project = arena_strndup(a, sep + 2, (size_t)(end - sep - 2));
    }
    return true;
}

void engine_resume_free(engine_resume_t *r) {
    if (!r) return;
    hashmap_free(&r->by_urn);
    arena_free(r->arena);
    free(r);
}

bool engine_resume_apply(const engine_resume_t *res, import_result_t *r, arena_t *a, schema_set_t *schemas) {
    const import_plan_item_t *it = r->item;
    const resume_entry_t *e = resume_find(res, it->urn);
    if (!e || !it->type || strcmp(e->type, it->type) != 0) return false;
    /* The import file may name another resource under the same name now: its ID is read, not the
     * record's. The record's ID is the one Read gave, which may differ from the ID it was imported by
     * (a random_integer imported as "5,1,10" is "5"): that one is recorded as importId. */
    const char *imported_by = e->import_id ? e->import_id : e->id;
    if (it->id && (!imported_by || strcmp(imported_by, it->id) != 0)) return false;
    r->resumed = true;
    r->status = IMPORT_OK;
    r->id = e->id ? arena_strdup(a, e->id) : it->id;
    r->inputs = pv_clone(a, e->inputs);
    r->read_inputs = pv_object(a);
    r->state = pv_object(a);
    /* Written with --show-secrets, secrets came back as plain values: wrap the schema's secret
     * properties again, as the import did. */
    schema_package_t *sp = schemas ? schema_set_get(schemas, schema_token_package(a, it->type)) : NULL;
    const schema_resource_t *res_t = sp ? schema_find_resource(sp, it->type) : NULL;
    if (res_t) schema_wrap_secrets(a, res_t->inputs, res_t->n_inputs, r->inputs);
    if (e->n_provenance) {
        r->provenance = arena_alloc(a, e->n_provenance * sizeof *r->provenance);
        for (size_t i = 0; i < e->n_provenance; i++)
            r->provenance[i] =
                (input_provenance_entry_t){arena_strdup(a, e->provenance[i].path), e->provenance[i].provenance};
    }
    r->n_provenance = e->n_provenance;
    r->verified = e->verified;
    r->verified_offline = e->verified_offline;
    r->rounds = e->rounds;
    if (e->n_residual) {
        r->residual = arena_alloc(a, e->n_residual * sizeof *r->residual);
        for (size_t i = 0; i < e->n_residual; i++)
            r->residual[i] = arena_strdup(a, e->residual[i]);
    }
    r->n_residual = e->n_residual;
    r->residual_unnamed = e->residual_unnamed;
    r->check_rejected = e->check_rejected;
    if (e->n_ignore_changes) {
        r->ignore_changes = arena_alloc(a, e->n_ignore_changes * sizeof *r->ignore_changes);
        for (size_t i = 0; i < e->n_ignore_changes; i++)
            r->ignore_changes[i] = arena_strdup(a, e->ignore_changes[i]);
    }
    r->n_ignore_changes = e->n_ignore_changes;
    const char *desc = arena_sprintf(a, "resource '%s' of type '%s'",
                                     it->spec && it->spec->name ? it->spec->name : it->logical_name, it->type);
    for (size_t i = 0; i < e->n_diags; i++)
        diag_add(&r->diags, e->diags[i].severity, DIAG_GENERIC, NULL, desc, "%s", e->diags[i].message);
    return true;
}

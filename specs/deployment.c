/* deployment.c — reads Pulumi stack state: `pulumi stack export` documents (UntypedDeployment) and
 * backend checkpoints (VersionedCheckpoint), deployment versions 0–4.
 *
 * Version 0 (no `version` field) is a CheckpointV1 at the top level, so it is read like version 1
 * (Pulumi itself does the same). Versions 1 and 2 keep `defaults` next to `inputs`; as Pulumi's
 * migration does, defaults fill in inputs that are absent. Version 4 lists the optional features
 * the state uses; one this reader does not know is refused by name. Secrets written by the `b64`
 * secrets provider are decoded (their ciphertext is kept so they round-trip); other ciphertexts
 * stay opaque. */
#include "specs/json_strict.h"
#include "specs/deployment.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "specs/base64.h"
#include "specs/fileio.h"

#define DEPLOYMENT_VERSION_MIN 1
#define DEPLOYMENT_VERSION_MAX 4

/* Features a version-4 state may list (import-semantics §4.1). They change what the state may
 * contain, not how the fields this reader models are laid out, so knowing them is enough. */
static const char *const known_features[] = {
    "refreshBeforeUpdate", "views", "hooks", "taint", "replaceWith", "snippets-prototype",
    "extensionParameterization", "byteString",
};

static const char *json_str(const cJSON *obj, const char *key) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(j) ? j->valuestring : NULL;
}

static bool feature_known(const char *name) {
    for (size_t i = 0; i < sizeof known_features / sizeof known_features[0]; i++)
        if (strcmp(known_features[i], name) == 0) return true;
    return false;
}


/* Gives ciphertext-only secrets their plaintext when the state's secrets provider is `b64`. A
 * ciphertext that does not decode is left opaque: it is still a valid secret, just unreadable. */
static void secrets_decode_b64(arena_t *a, pv_t *v) {
    if (!v) return;
    switch (v->kind) {
    case PV_SECRET:
        if (!v->u.secret.inner && v->u.secret.ciphertext) {
            /* the `b64` secrets provider: ciphertext = base64 of the value's JSON text */
            char *text = NULL;
            size_t len;
            if (!base64_decode(a, v->u.secret.ciphertext, &text, &len)) text = NULL;
            cJSON *j = text ? cJSON_Parse(text) : NULL;
            if (j) {
                v->u.secret.inner = pv_from_state_json(a, j, "secret", NULL);
                cJSON_Delete(j);
            }
        } else {
            secrets_decode_b64(a, v->u.secret.inner);
        }
        break;
    case PV_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++) secrets_decode_b64(a, v->u.arr.items[i]);
        break;
    case PV_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++) secrets_decode_b64(a, v->u.obj.members[i].value);
        break;
    default: break;
    }
}

/* Stack and project from `urn:pulumi:<stack>::<project>::...`. */
static void urn_stack_project(arena_t *a, const char *urn, const char **stack, const char **project) {
    const char *prefix = "urn:pulumi:";
    if (!urn || strncmp(urn, prefix, strlen(prefix)) != 0) return;
    const char *s = urn + strlen(prefix);
    const char *e1 = strstr(s, "::");
    if (!e1) return;
    const char *p = e1 + 2;
    const char *e2 = strstr(p, "::");
    if (!e2) return;
    if (!*stack) *stack = arena_strndup(a, s, (size_t)(e1 - s));
    if (!*project) *project = arena_strndup(a, p, (size_t)(e2 - p));
}

static bool read_properties(arena_t *a, const cJSON *r, const char *key, const char *urn, pv_t **out,
                            const char *path, diag_list_t *diags) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(r, key);
    if (!j || cJSON_IsNull(j)) {
        *out = pv_object(a);
        return true;
    }
    if (!cJSON_IsObject(j)) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "the %s of resource '%s' are not a JSON object", key,
                 urn);
        return false;
    }
    char *where = arena_sprintf(a, "the %s of resource '%s'", key, urn);
    diag_list_t local;
    diag_list_init(&local);
    *out = pv_from_state_json(a, j, where, &local);
    for (diag_t *d = local.head; d; d = d->next) diag_add(diags, d->severity, d->code, path, NULL, "%s", d->message);
    diag_list_free(&local);
    return *out != NULL;
}

static bool read_resource(arena_t *a, const cJSON *r, size_t index, int version, bool b64_secrets, const char *path,
                          state_resource_t *out, diag_list_t *diags) {
    if (!cJSON_IsObject(r)) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "resource #%zu of the stack state is not a JSON object",
                 index);
        return false;
    }
    const char *urn = json_str(r, "urn");
    const char *type = json_str(r, "type");
    if (!urn || !type) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "resource #%zu of the stack state has no `%s`", index,
                 urn ? "type" : "urn");
        return false;
    }
    memset(out, 0, sizeof *out);
    out->raw = r;
    out->urn = arena_strdup(a, urn);
    out->type = arena_strdup(a, type);
    const char *id = json_str(r, "id");
    out->id = id && *id ? arena_strdup(a, id) : NULL;
    const char *parent = json_str(r, "parent");
    out->parent = parent && *parent ? arena_strdup(a, parent) : NULL;
    const char *provider = json_str(r, "provider");
    out->provider = provider && *provider ? arena_strdup(a, provider) : NULL;
    out->custom = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "custom"));
    out->protect = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "protect"));
    out->del = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "delete"));
    out->external = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "external"));
    if (!read_properties(a, r, "inputs", out->urn, &out->inputs, path, diags)) return false;
    if (!read_properties(a, r, "outputs", out->urn, &out->outputs, path, diags)) return false;
    if (version < 3) {
        /* Versions 0–2 kept provider defaults apart; they are inputs the resource was created with. */
        pv_t *defaults;
        if (!read_properties(a, r, "defaults", out->urn, &defaults, path, diags)) return false;
        for (size_t i = 0; i < defaults->u.obj.len; i++)
            if (!pv_object_get(out->inputs, defaults->u.obj.members[i].key))
                pv_object_set(a, out->inputs, defaults->u.obj.members[i].key, defaults->u.obj.members[i].value);
    }
    if (b64_secrets) {
        secrets_decode_b64(a, out->inputs);
        secrets_decode_b64(a, out->outputs);
    }
    const cJSON *deps = cJSON_GetObjectItemCaseSensitive(r, "dependencies");
    if (cJSON_IsArray(deps)) {
        size_t n = (size_t)cJSON_GetArraySize(deps), k = 0;
        out->dependencies = n ? arena_alloc(a, n * sizeof(char *)) : NULL;
        const cJSON *e;
        cJSON_ArrayForEach(e, deps) if (cJSON_IsString(e)) out->dependencies[k++] = arena_strdup(a, e->valuestring);
        out->n_dependencies = k;
    }
    return true;
}

/* Checks the container's version and v4 features; returns the deployment object (may be a JSON
 * null for an empty checkpoint) or NULL with a diagnostic. */
static const cJSON *container_open(const cJSON *doc, const char *path, deployment_t *d, diag_list_t *diags) {
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "version");
    if (!version) {
        /* Version 0 predates versioning: a bare CheckpointV1 {target|stack, latest}. */
        if (cJSON_HasObjectItem(doc, "latest")) {
            d->version = 0;
            d->is_checkpoint = true;
            const char *stack = json_str(doc, "stack");
            d->stack = stack ? stack : json_str(doc, "target");
            return cJSON_GetObjectItemCaseSensitive(doc, "latest");
        }
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "not a Pulumi stack state: expected the output of `pulumi stack export` ({\"version\", "
                 "\"deployment\"}) or a stack checkpoint ({\"version\", \"checkpoint\"})");
        return NULL;
    }
    if (!cJSON_IsNumber(version) || version->valuedouble != (double)version->valueint) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "the stack state's `version` is not an integer");
        return NULL;
    }
    d->version = version->valueint;
    if (d->version > DEPLOYMENT_VERSION_MAX) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "the stack state has version %d, newer than this cimport understands (%d–%d); upgrade cimport",
                 d->version, DEPLOYMENT_VERSION_MIN, DEPLOYMENT_VERSION_MAX);
        return NULL;
    }
    if (d->version < DEPLOYMENT_VERSION_MIN) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "the stack state has version %d, which is not a valid deployment version (%d–%d)", d->version,
                 DEPLOYMENT_VERSION_MIN, DEPLOYMENT_VERSION_MAX);
        return NULL;
    }
    const cJSON *features = cJSON_GetObjectItemCaseSensitive(doc, "features");
    if (features && d->version >= 4) {
        const cJSON *f;
        cJSON_ArrayForEach(f, features) {
            if (!cJSON_IsString(f)) continue;
            if (!feature_known(f->valuestring)) {
                diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                         "the stack state uses the feature '%s', which this cimport does not support; upgrade "
                         "cimport, or export the stack with a Pulumi CLI that writes it without that feature",
                         f->valuestring);
                return NULL;
            }
        }
    }
    const cJSON *deployment = cJSON_GetObjectItemCaseSensitive(doc, "deployment");
    if (deployment) {
        if (!cJSON_IsObject(deployment)) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "the stack export's `deployment` is not an object");
            return NULL;
        }
        return deployment;
    }
    const cJSON *checkpoint = cJSON_GetObjectItemCaseSensitive(doc, "checkpoint");
    if (cJSON_IsObject(checkpoint)) {
        d->is_checkpoint = true;
        const char *stack = json_str(checkpoint, "stack");
        if (!stack || !*stack) stack = json_str(checkpoint, "target");
        d->stack = stack && *stack ? stack : NULL;
        const cJSON *latest = cJSON_GetObjectItemCaseSensitive(checkpoint, "latest");
        return latest ? latest : cJSON_GetObjectItemCaseSensitive(doc, "checkpoint"); /* no latest: empty stack */
    }
    diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
             "the stack state has no `deployment` (a `pulumi stack export`) or `checkpoint` (a backend checkpoint) "
             "object");
    return NULL;
}

deployment_t *deployment_parse(arena_t *a, const char *text, size_t len, const char *path, diag_list_t *diags) {
    const char *where = path ? path : "<stack state>";
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (doc && !json_strict_check(text, len, where, diags)) {
        cJSON_Delete(doc);
        return NULL;
    }
    if (!doc) {
        const char *at = cJSON_GetErrorPtr();
        size_t offset = at && at >= text && at <= text + len ? (size_t)(at - text) : 0;
        int line = 1;
        for (size_t i = 0; i < offset; i++)
            if (text[i] == '\n') line++;
        diag_t *dg = diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL,
                              "not valid JSON (a stack state must be the JSON of `pulumi stack export` or a "
                              "checkpoint)");
        if (dg) dg->line = line;
        return NULL;
    }
    if (!cJSON_IsObject(doc)) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL,
                 "not a Pulumi stack state: the document is not a JSON object");
        cJSON_Delete(doc);
        return NULL;
    }
    deployment_t *d = arena_alloc(a, sizeof *d);
    d->path = path ? arena_strdup(a, path) : NULL;
    const cJSON *dep = container_open(doc, where, d, diags);
    if (!dep) {
        cJSON_Delete(doc);
        return NULL;
    }
    d->stack = arena_strdup(a, d->stack);
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(dep, "secrets_providers");
    const char *sp_type = json_str(sp, "type");
    bool b64_secrets = sp_type && strcmp(sp_type, "b64") == 0;

    const cJSON *resources = cJSON_GetObjectItemCaseSensitive(dep, "resources");
    if (resources && !cJSON_IsNull(resources) && !cJSON_IsArray(resources)) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL, "the stack state's `resources` is not an array");
        cJSON_Delete(doc);
        return NULL;
    }
    size_t n = cJSON_IsArray(resources) ? (size_t)cJSON_GetArraySize(resources) : 0;
    d->resources = n ? arena_alloc(a, n * sizeof *d->resources) : NULL;
    size_t i = 0;
    bool ok = true;
    const cJSON *r;
    if (n) {
        cJSON_ArrayForEach(r, resources) {
            if (!read_resource(a, r, i, d->version, b64_secrets, where, &d->resources[i], diags)) {
                ok = false;
                continue;
            }
            i++;
        }
    }
    if (!ok) {
        cJSON_Delete(doc);
        return NULL;
    }
    d->n_resources = i;
    const char *stack = d->stack, *project = NULL;
    for (size_t k = 0; k < d->n_resources; k++)
        if (strcmp(d->resources[k].type, "pulumi:pulumi:Stack") == 0) {
            urn_stack_project(a, d->resources[k].urn, &stack, &project);
            break;
        }
    if ((!stack || !project) && d->n_resources) urn_stack_project(a, d->resources[0].urn, &stack, &project);
    d->stack = stack;
    d->project = project;
    d->doc = doc;
    return d;
}

deployment_t *deployment_load(arena_t *a, const char *path, diag_list_t *diags) {
    /* The text is only needed while parsing: keep it out of the caller's arena (a state file can
     * be tens of megabytes). */
    arena_t *text_arena = arena_new();
    size_t len;
    char *text = file_read_all(text_arena, path, &len, diags);
    deployment_t *d = text ? deployment_parse(a, text, len, path, diags) : NULL;
    arena_free(text_arena);
    return d;
}

void deployment_free(deployment_t *d) {
    if (!d) return;
    cJSON_Delete(d->doc);
    d->doc = NULL;
}

const state_resource_t *deployment_find_urn(const deployment_t *d, const char *urn) {
    for (size_t i = 0; i < d->n_resources; i++)
        if (strcmp(d->resources[i].urn, urn) == 0) return &d->resources[i];
    return NULL;
}

const state_resource_t *deployment_find_id(const deployment_t *d, const char *type, const char *id) {
    for (size_t i = 0; i < d->n_resources; i++) {
        const state_resource_t *r = &d->resources[i];
        if (r->custom && !r->del && r->id && strcmp(r->type, type) == 0 && strcmp(r->id, id) == 0) return r;
    }
    return NULL;
}

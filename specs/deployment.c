/* deployment.c — reads Pulumi stack state: `pulumi stack export` documents (UntypedDeployment) and
 * backend checkpoints (VersionedCheckpoint), deployment versions 0–4.
 *
 * Version 0 (no `version` field) is a CheckpointV1 at the top level, so it is read like version 1
 * (Pulumi itself does the same). Versions 1 and 2 keep `defaults` next to `inputs`; as Pulumi's
 * migration does, defaults fill in inputs that are absent. Version 4 lists the optional features
 * the state uses; one this reader does not know is refused by name. Secrets written by the `b64`
 * secrets provider are decoded (their ciphertext is kept so they round-trip); other ciphertexts
 * stay opaque. */
#include "specs/deployment.h"
#include "specs/json_strict.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base64.h"
#include "base/fileio.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "specs/jsonscan.h"

#define DEPLOYMENT_VERSION_MIN 1
#define DEPLOYMENT_VERSION_MAX 4

/* Features a version-4 state may list (import-semantics §4.1). They change what the state may
 * contain, not how the fields this reader models are laid out, so knowing them is enough. */
static const char *const known_features[] = {
    "refreshBeforeUpdate",       "views",      "hooks", "taint", "replaceWith", "snippets-prototype",
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

pv_t *deployment_secret_decrypt(arena_t *a, const char *ciphertext, const passphrase_crypter_t *c) {
    char *text = NULL;
    size_t len = 0;
    cJSON *j = NULL;
    if (!c) {
        /* the `b64` secrets provider: ciphertext = base64 of the value's JSON text */
        if (base64_decode(a, ciphertext, &text, &len)) j = cJSON_ParseWithLength(text, len);
    } else {
        diag_list_t quiet;
        diag_list_init(&quiet);
        if (passphrase_decrypt(c, ciphertext, &text, &len, &quiet)) j = cJSON_ParseWithLength(text, len);
        diag_list_free(&quiet);
        if (text) memset(text, 0, len);
        free(text);
    }
    pv_t *v = j ? pv_from_state_json(a, j, "secret", NULL) : NULL;
    cJSON_Delete(j);
    return v;
}

/* Gives ciphertext-only secrets their plaintext: decoded when the state's secrets provider is `b64`
 * (b64: the ciphertext is kept, so they round-trip), decrypted with c (the ciphertext is dropped:
 * the value is re-encoded for wherever it goes), or neither (only counted). Returns how many stay
 * opaque: a ciphertext that does not decode is still a valid secret, just unreadable. */
static size_t secrets_open(arena_t *a, pv_t *v, bool b64, const passphrase_crypter_t *c) {
    if (!v) return 0;
    size_t n = 0;
    switch (v->kind) {
    case PV_SECRET:
        if (!v->u.secret.inner && v->u.secret.ciphertext) {
            if (b64 || c) v->u.secret.inner = deployment_secret_decrypt(a, v->u.secret.ciphertext, c);
            if (!v->u.secret.inner) return 1;
            if (c) v->u.secret.ciphertext = NULL;
        } else {
            n += secrets_open(a, v->u.secret.inner, b64, c);
        }
        break;
    case PV_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++)
            n += secrets_open(a, v->u.arr.items[i], b64, c);
        break;
    case PV_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++)
            n += secrets_open(a, v->u.obj.members[i].value, b64, c);
        break;
    default: break;
    }
    return n;
}

size_t deployment_secrets_decrypt(arena_t *a, pv_t *v, const passphrase_crypter_t *c) {
    return secrets_open(a, v, false, c);
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

/* The provider defaults of a version 0–2 state (NULL otherwise) join the inputs they are missing
 * from; base64 secrets (b64_secrets) are decoded. */
static void properties_finish(arena_t *a, pv_t *inputs, pv_t *outputs, const pv_t *defaults, bool b64_secrets) {
    for (size_t i = 0; defaults && i < defaults->u.obj.len; i++)
        if (!pv_object_get(inputs, defaults->u.obj.members[i].key))
            pv_object_set(a, inputs, defaults->u.obj.members[i].key, defaults->u.obj.members[i].value);
    if (b64_secrets) {
        secrets_open(a, inputs, true, NULL);
        secrets_open(a, outputs, true, NULL);
    }
}

/* read_properties' ending, shared with the text reader: the decoder's messages ("<key>: …") with
 * their full context. */
static bool properties_done(const char *key, const char *urn, const pv_t *out, diag_list_t *local, const char *path,
                            diag_list_t *diags) {
    size_t kl = strlen(key);
    for (diag_t *d = local->head; d; d = d->next) {
        const char *m = d->message;
        if (strncmp(m, key, kl) == 0 && m[kl] == ':')
            diag_add(diags, d->severity, d->code, path, NULL, "the %s of resource '%s'%s", key, urn, m + kl);
        else
            diag_add(diags, d->severity, d->code, path, NULL, "%s", m);
    }
    diag_list_free(local);
    return out != NULL;
}

static bool read_properties(arena_t *a, const cJSON *r, const char *key, const char *urn, pv_t **out, const char *path,
                            diag_list_t *diags) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(r, key);
    if (!j || cJSON_IsNull(j)) {
        *out = pv_object(a);
        return true;
    }
    if (!cJSON_IsObject(j)) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "the %s of resource '%s' are not a JSON object", key, urn);
        return false;
    }
    /* Messages start with "<where>: "; the key stands in for it, and the full text ("the inputs of
     * resource '<urn>'") is only formatted when there is a message (100,000 resources, no errors). */
    diag_list_t local;
    diag_list_init(&local);
    *out = pv_from_state_json(a, j, key, &local);
    return properties_done(key, urn, *out, &local, path, diags);
}

/* The strings of a JSON array, ", "-joined (an arena string), or NULL when there are none. */
static const char *joined_names(arena_t *a, const cJSON *arr) {
    if (!cJSON_IsArray(arr)) return NULL;
    buf_t b;
    buf_init(&b);
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        if (cJSON_IsString(e) && e->valuestring[0]) buf_printf(&b, "%s%s", b.len ? ", " : "", e->valuestring);
    }
    const char *out = b.len ? buf_arena_str(&b, a) : NULL;
    buf_free(&b);
    return out;
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
    out->retain_on_delete = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "retainOnDelete"));
    out->additional_secret_outputs = joined_names(a, cJSON_GetObjectItemCaseSensitive(r, "additionalSecretOutputs"));
    if (!read_properties(a, r, "inputs", out->urn, &out->inputs, path, diags)) return false;
    if (!read_properties(a, r, "outputs", out->urn, &out->outputs, path, diags)) return false;
    pv_t *defaults = NULL;
    /* Versions 0–2 kept provider defaults apart; they are inputs the resource was created with. */
    if (version < 3 && !read_properties(a, r, "defaults", out->urn, &defaults, path, diags)) return false;
    properties_finish(a, out->inputs, out->outputs, defaults, b64_secrets);
    const cJSON *deps = cJSON_GetObjectItemCaseSensitive(r, "dependencies");
    if (cJSON_IsArray(deps)) {
        size_t n = (size_t)cJSON_GetArraySize(deps), k = 0;
        out->dependencies = n ? arena_alloc(a, n * sizeof(char *)) : NULL;
        const cJSON *e;
        for (e = deps->child; e && k < n; e = e->next) /* k < n: as many as were counted */
            if (cJSON_IsString(e)) out->dependencies[k++] = arena_strdup(a, e->valuestring);
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
    if (!json_encoding_check(text, len, path, diags)) return NULL;
    cJSON *doc = cJSON_ParseWithLength(text, len);
    if (doc && !json_strict_check(text, len, where, diags)) {
        cJSON_Delete(doc);
        return NULL;
    }
    if (!doc) {
        const char *at = cJSON_GetErrorPtr();
        size_t offset = at && at >= text && at <= text + len ? (size_t)(at - text) : 0;
        size_t line = 1;
        for (size_t i = 0; i < offset; i++)
            if (text[i] == '\n') line++;
        diag_t *dg = diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL,
                              "not valid JSON (a stack state must be the JSON of `pulumi stack export` or a "
                              "checkpoint)");
        if (dg) dg->line = (long)line;
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
    d->b64_secrets = b64_secrets;
    return d;
}

const char *deployment_secrets_provider(const deployment_t *d, const char **salt) {
    *salt = NULL;
    if (!d || !d->doc) return NULL;
    const cJSON *dep = cJSON_GetObjectItemCaseSensitive(d->doc, "deployment");
    if (!dep) {
        const cJSON *cp = cJSON_GetObjectItemCaseSensitive(d->doc, "checkpoint");
        dep = cp ? cJSON_GetObjectItemCaseSensitive(cp, "latest") : NULL;
    }
    const cJSON *sp = dep ? cJSON_GetObjectItemCaseSensitive(dep, "secrets_providers") : NULL;
    const cJSON *t = sp ? cJSON_GetObjectItemCaseSensitive(sp, "type") : NULL;
    const cJSON *state = sp ? cJSON_GetObjectItemCaseSensitive(sp, "state") : NULL;
    const cJSON *s = state ? cJSON_GetObjectItemCaseSensitive(state, "salt") : NULL;
    *salt = cJSON_GetStringValue(s);
    const char *type = cJSON_GetStringValue(t);
    return type && *type ? type : NULL;
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

static void read_ahead_stop(deployment_t *d);

void deployment_free(deployment_t *d) {
    if (!d) return;
    read_ahead_stop(d);
    cJSON_Delete(d->doc);
    d->doc = NULL;
    if (d->indexed && d->fd >= 0) close(d->fd);
    d->fd = -1;
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

/* --- indexed loading ---------------------------------------------------------------------------- */

/* A string member's text held once however many resources repeat it (`texts`: text → its copy): every
 * resource names its type, its parent (mostly the stack) and its provider, and a copy each was about
 * 0.2 KB a resource of a million-resource import's peak. NULL if the range is not a string. */
static const char *index_shared_text(arena_t *a, hashmap_t *texts, const jscan_t *s, jscan_range_t r) {
    const char *t = s->text + r.start;
    size_t n = r.end - r.start;
    if (n < 2 || t[0] != '"' || t[n - 1] != '"') return NULL;
    bool escaped = memchr(t, '\\', n) != NULL;
    void **hit = escaped ? NULL : hashmap_find(texts, t + 1, n - 2);
    if (hit) return *hit;
    char *copy = jscan_string(a, s, r);
    if (!copy) return NULL;
    size_t len = strlen(copy);
    if (escaped && (hit = hashmap_find(texts, copy, len))) return *hit; /* the copy stays, unused: rare */
    hashmap_add(texts, copy, len, copy);
    return copy;
}

/* The small fields of one resource, read by the scanner from its member ranges. */
static bool index_resource(arena_t *a, hashmap_t *texts, jscan_t *s, size_t index, const char *where,
                           state_resource_t *out, diag_list_t *diags) {
    memset(out, 0, sizeof *out);
    jscan_range_t whole;
    size_t start = s->pos;
    if (jscan_peek(s) != '{') {
        if (!jscan_value(s, &whole)) return false;
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL, "resource #%zu of the stack state is not a JSON object",
                 index);
        return false;
    }
    jscan_object_begin(s);
    /* First occurrence wins, as cJSON_GetObjectItemCaseSensitive does in the full parse. */
    enum {
        K_URN,
        K_TYPE,
        K_ID,
        K_PARENT,
        K_PROVIDER,
        K_CUSTOM,
        K_PROTECT,
        K_DELETE,
        K_EXTERNAL,
        K_RETAIN,
        K_DEPS,
        K_ASO,
        K_N
    };
    static const char *const names[K_N] = {"urn",      "type",           "id",           "parent",
                                           "provider", "custom",         "protect",      "delete",
                                           "external", "retainOnDelete", "dependencies", "additionalSecretOutputs"};
    jscan_range_t val[K_N];
    bool seen[K_N] = {0};
    bool first = true, done = false;
    while (true) {
        jscan_range_t key, v;
        bool esc;
        if (!jscan_object_next(s, &first, &key, &esc, &done)) return false;
        if (done) break;
        if (!jscan_value(s, &v)) return false;
        for (int k = 0; k < K_N; k++)
            if (!seen[k] && jscan_key_is(s, key, esc, names[k])) {
                seen[k] = true;
                val[k] = v;
                break;
            }
    }
    const char *str[K_PROVIDER + 1] = {0};
    for (int k = 0; k <= K_PROVIDER; k++)
        if (seen[k] && s->text[val[k].start] == '"')
            str[k] = k == K_URN || k == K_ID ? jscan_string(a, s, val[k]) : index_shared_text(a, texts, s, val[k]);
    if (!str[K_URN] || !str[K_TYPE]) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL, "resource #%zu of the stack state has no `%s`", index,
                 str[K_URN] ? "type" : "urn");
        return false;
    }
    out->urn = str[K_URN];
    out->type = str[K_TYPE];
    out->id = str[K_ID] && *str[K_ID] ? str[K_ID] : NULL;
    out->parent = str[K_PARENT] && *str[K_PARENT] ? str[K_PARENT] : NULL;
    out->provider = str[K_PROVIDER] && *str[K_PROVIDER] ? str[K_PROVIDER] : NULL;
    bool *flags[] = {&out->custom, &out->protect, &out->del, &out->external, &out->retain_on_delete};
    for (int k = K_CUSTOM; k <= K_RETAIN; k++)
        *flags[k - K_CUSTOM] =
            seen[k] && val[k].end - val[k].start == 4 && memcmp(s->text + val[k].start, "true", 4) == 0;
    if (seen[K_DEPS] && s->text[val[K_DEPS].start] == '[') {
        cJSON *deps = cJSON_ParseWithLength(s->text + val[K_DEPS].start, val[K_DEPS].end - val[K_DEPS].start);
        size_t n = (size_t)cJSON_GetArraySize(deps), k = 0;
        out->dependencies = n ? arena_alloc(a, n * sizeof(char *)) : NULL;
        const cJSON *e;
        for (e = deps->child; e && k < n; e = e->next) /* k < n: as many as were counted */
            if (cJSON_IsString(e)) out->dependencies[k++] = arena_strdup(a, e->valuestring);
        out->n_dependencies = k;
        cJSON_Delete(deps);
    }
    if (seen[K_ASO] && s->text[val[K_ASO].start] == '[') {
        cJSON *aso = cJSON_ParseWithLength(s->text + val[K_ASO].start, val[K_ASO].end - val[K_ASO].start);
        out->additional_secret_outputs = joined_names(a, aso);
        cJSON_Delete(aso);
    }
    out->lazy = true;
    out->range_start = start;
    out->range_len = s->pos - start;
    return true;
}

/* The index of one `resources` array being built while the document is scanned. A document may hold
 * up to three containers (`deployment`, `latest`, `checkpoint.latest`); each gets its own, and the
 * one deployment_parse reads (container_open) is chosen once the whole document is known. */
typedef struct index_ctx {
    arena_t *a;
    const char *path;
    diag_list_t diags; /* a refused resource's message: reported only if this container is the one read */
    const char *map;
    state_resource_t *rs;
    size_t n, cap;
    hashmap_t texts;     /* the texts resources repeat, held once (index_shared_text) */
    bool found;          /* a `resources` member was seen */
    jscan_range_t range; /* its value */
    bool bad;            /* a resource was refused (diagnostic in diags) */
    bool in_resource;    /* a scan error inside resource #n */
    size_t cur_start;
    size_t dropped; /* pages of the map before this are released */
} index_ctx_t;

/* Releases the scanned part of the map every few megabytes, so a big file's pages are not all
 * resident at once (they stay in the page cache). */
static void drop_pages(index_ctx_t *c, size_t upto) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t end = upto & ~(page - 1);
    if (end > c->dropped + (8u << 20)) {
        madvise((void *)(c->map + c->dropped), end - c->dropped, MADV_DONTNEED);
        c->dropped = end;
    }
}

static bool index_resources(jscan_t *s, index_ctx_t *c) {
    size_t start = s->pos;
    jscan_array_begin(s);
    bool first = true, done = false;
    while (jscan_array_next(s, &first, &done) && !done) {
        /* malloc'd while it grows (an arena would keep every outgrown copy: 35 MB at 100,000
         * resources); the caller keeps an exact copy */
        c->rs = vec_grow(c->rs, &c->cap, c->n + 1, sizeof *c->rs);
        jscan_ws(s);
        c->cur_start = s->pos;
        if (!index_resource(c->a, &c->texts, s, c->n, c->path, &c->rs[c->n], &c->diags)) {
            if (s->err) {
                c->in_resource = true;
                return false;
            }
            /* refused, and stepped over: the rest of the document is still scanned (this may not be
             * the container that is read) */
            c->bad = true;
            continue;
        }
        c->n++; /* numbered as deployment_parse numbers them: refused ones not counted */
        drop_pages(c, s->pos);
    }
    c->range = (jscan_range_t){start, s->pos};
    return !s->err;
}

/* Walks an object's members looking for `resources`: an array is indexed, anything else recorded. */
static bool find_resources(jscan_t *s, index_ctx_t *c) {
    if (jscan_peek(s) != '{') return jscan_value(s, NULL);
    jscan_object_begin(s);
    bool first = true, done = false;
    while (true) {
        jscan_range_t key;
        bool esc;
        if (!jscan_object_next(s, &first, &key, &esc, &done)) return false;
        if (done) return true;
        if (!c->found && jscan_key_is(s, key, esc, "resources")) {
            c->found = true;
            if (jscan_peek(s) == '[') {
                if (!index_resources(s, c)) return false;
            } else if (!jscan_value(s, &c->range)) {
                return false;
            }
        } else if (!jscan_value(s, NULL)) {
            return false;
        }
    }
}

/* Whether the first 4 KB of text name "terraform_version", as a Terraform state (a v4 file, `terraform
 * show -json`) does at its top: a state cut off is then not told to be a stack export. */
static bool names_terraform_version(const char *text, size_t len) {
    static const char key[] = "\"terraform_version\"";
    size_t n = len < 4096 ? len : 4096, k = sizeof key - 1;
    for (size_t i = 0; i + k <= n; i++)
        if (text[i] == '"' && memcmp(text + i, key, k) == 0) return true;
    return false;
}

deployment_t *deployment_load_indexed(arena_t *a, const char *path, bool *not_pulumi, diag_list_t *diags) {
    *not_pulumi = false;
    struct stat st;
    int fd = file_open_regular(path, &st);
    const char *map = NULL;
    size_t len = 0;
    if (fd >= 0) {
        if (!file_size_within_cap(path, (unsigned long long)st.st_size, diags)) {
            close(fd);
            return NULL;
        }
        len = (size_t)st.st_size;
        map = len ? file_map(fd, len, path) : NULL;
    }
    if (!map) {
        /* Not a mappable regular file (or empty): the whole-document reader gives the usual errors. */
        if (fd >= 0) close(fd);
        deployment_t *d = deployment_load(a, path, diags);
        if (d) d->fd = -1;
        return d;
    }
    if (!json_encoding_check(map, len, path, diags)) {
        file_unmap((void *)map, len);
        close(fd);
        return NULL;
    }
    madvise((void *)map, len, MADV_SEQUENTIAL);
    /* Duplicate keys, NUL and invalid UTF-8 are refused here as on the whole-document path (issue
     * 15) — checked beside the index pass, its answer used once the document is known to be JSON. */
    /* (on a second thread: 0.2 s of a 173 MB export's 0.4 s load) */
    json_strict_job_t strict;
    json_strict_start(&strict, map, len, path);
    bool strict_used = false;
    jscan_t s;
    jscan_init(&s, map, len);
    deployment_t *d = NULL;
    /* the containers deployment_parse may read (container_open): `deployment`, then `checkpoint`'s
     * `latest` when the document has a version; `latest` (version 0) when it has none */
    enum { C_DEPLOYMENT, C_LATEST, C_CHECKPOINT, C_N };
    index_ctx_t cs[C_N];
    for (int k = 0; k < C_N; k++) {
        cs[k] = (index_ctx_t){.a = a, .path = path, .map = map};
        diag_list_init(&cs[k].diags);
    }
    index_ctx_t *failed = NULL; /* the container a scan error is in */
    bool pulumi = false, has_version = false, has_deployment = false;
    /* 1. One pass over the document: each container's resources array is indexed; everything else
     * is validated and stepped over. */
    if (jscan_peek(&s) != '{') {
        if (!jscan_value(&s, NULL) || !jscan_end(&s)) goto bad_json;
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "not a Pulumi stack state: the document is not a JSON object");
        goto out;
    }
    jscan_object_begin(&s);
    bool first = true, done = false;
    while (true) {
        jscan_range_t key;
        bool esc;
        if (!jscan_object_next(&s, &first, &key, &esc, &done) || done) break;
        bool ok;
        index_ctx_t *c = NULL;
        if (jscan_key_is(&s, key, esc, "version")) has_version = true;
        if (jscan_key_is(&s, key, esc, "deployment")) {
            has_deployment = pulumi = true;
            ok = find_resources(&s, c = &cs[C_DEPLOYMENT]);
        } else if (jscan_key_is(&s, key, esc, "latest")) {
            pulumi = true;
            ok = find_resources(&s, c = &cs[C_LATEST]);
        } else if (jscan_key_is(&s, key, esc, "checkpoint") && jscan_peek(&s) == '{') {
            pulumi = true;
            jscan_object_begin(&s);
            bool f2 = true, d2 = false;
            ok = true;
            c = &cs[C_CHECKPOINT];
            while (ok) {
                jscan_range_t k2;
                bool e2;
                if (!jscan_object_next(&s, &f2, &k2, &e2, &d2) || d2) break;
                ok = jscan_key_is(&s, k2, e2, "latest") ? find_resources(&s, c) : jscan_value(&s, NULL);
            }
            ok = ok && !s.err;
        } else {
            if (jscan_key_is(&s, key, esc, "checkpoint")) pulumi = true;
            ok = jscan_value(&s, NULL);
        }
        if (c && c->in_resource) failed = c;
        if (!ok) break;
    }
    if (!s.err) jscan_end(&s);
    if (s.err) goto bad_json;
    if (!pulumi) {
        *not_pulumi = true;
        goto out;
    }
    strict_used = true;
    if (!json_strict_finish(&strict, true, diags)) goto out;
    /* 2. The document without its resources, through the same container checks as deployment_parse. */
    {
        size_t skel_len = len;
        for (int k = 0; k < C_N; k++)
            if (cs[k].found && map[cs[k].range.start] == '[') skel_len -= cs[k].range.end - cs[k].range.start - 2;
        char *skel = malloc(skel_len + 1);
        if (!skel) abort();
        /* the arrays cut to [] in the order they stand in the document (they do not overlap) */
        size_t from = 0, at = 0;
        for (;;) {
            index_ctx_t *next = NULL;
            for (int k = 0; k < C_N; k++)
                if (cs[k].found && map[cs[k].range.start] == '[' && cs[k].range.start >= from &&
                    (!next || cs[k].range.start < next->range.start))
                    next = &cs[k];
            if (!next) break;
            memcpy(skel + at, map + from, next->range.start - from);
            at += next->range.start - from;
            memcpy(skel + at, "[]", 2);
            at += 2;
            from = next->range.end;
        }
        memcpy(skel + at, map + from, len - from);
        skel[skel_len] = 0;
        d = deployment_parse(a, skel, skel_len, path, diags);
        free(skel);
        if (!d) goto out;
        index_ctx_t *c = !has_version ? &cs[C_LATEST] : has_deployment ? &cs[C_DEPLOYMENT] : &cs[C_CHECKPOINT];
        if (c->bad) {
            /* a resource of the container read was refused, as deployment_parse refuses it */
            diag_list_move(diags, &c->diags);
            deployment_free(d);
            d = NULL;
            goto out;
        }
        if (c->found && map[c->range.start] == '[') {
            /* the grown array itself, cut to size and freed with the arena: a copy in the arena would be, for a
             * moment, a second index beside the first (11 MB at 100,000 resources, at the load phase's peak) */
            if (c->n) {
                state_resource_t *kept = realloc(c->rs, c->n * sizeof *c->rs);
                d->resources = kept ? kept : c->rs;
                c->rs = NULL;
                arena_on_free(a, free, d->resources);
            }
            d->n_resources = c->n;
            const char *stack = d->stack, *project = NULL;
            for (size_t k = 0; k < c->n; k++)
                if (strcmp(d->resources[k].type, "pulumi:pulumi:Stack") == 0) {
                    urn_stack_project(a, d->resources[k].urn, &stack, &project);
                    break;
                }
            if ((!stack || !project) && c->n) urn_stack_project(a, d->resources[0].urn, &stack, &project);
            if (stack) d->stack = stack;
            if (project) d->project = project;
        }
    }
    d->indexed = true;
    d->fd = fd;
    fd = -1;
    goto out;
bad_json : {
    diag_t *dg;
    if (failed)
        dg = diag_add(
            diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
            "not valid JSON: resource #%zu (from line %zu) is cut off or malformed: expected %s (a stack state "
            "must be the complete JSON of `pulumi stack export` or a checkpoint)",
            failed->n, jscan_line(&s, failed->cur_start), s.err);
    else if (names_terraform_version(map, len))
        /* a Terraform state (a v4 file, `terraform show -json`) names it at its top */
        dg = diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                      "not valid JSON: expected %s; the file is a Terraform state (it has \"terraform_version\"), cut "
                      "off or malformed: pass the whole terraform.tfstate or `terraform show -json` output",
                      s.err);
    else
        dg = diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                      "not valid JSON: expected %s (a stack state must be the JSON of `pulumi stack export` or a "
                      "checkpoint)",
                      s.err);
    if (dg) dg->line = (long)jscan_line(&s, s.err_pos);
}
out:
    if (!strict_used) json_strict_finish(&strict, false, diags);
    for (int k = 0; k < C_N; k++) {
        free(cs[k].rs);
        hashmap_free(&cs[k].texts);
        diag_list_free(&cs[k].diags);
    }
    file_unmap((void *)map, len);
    if (fd >= 0) close(fd);
    return d;
}

/* The properties object under `key` of a resource read as text (range: its value; have: the key was
 * there), as read_properties reads it from the tree. */
static bool text_properties(arena_t *a, const char *text, size_t len, bool have, jscan_range_t range, const char *key,
                            const char *urn, pv_t **out, const char *path, diag_list_t *diags, bool *syntax) {
    char c = have ? text[range.start] : 'n';
    if (c == 'n') {
        *out = pv_object(a);
        return true;
    }
    if (c != '{') {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "the %s of resource '%s' are not a JSON object", key, urn);
        return false;
    }
    jscan_t s;
    jscan_init(&s, text, len);
    s.pos = range.start;
    diag_list_t local;
    diag_list_init(&local);
    *out = pv_from_state_text(a, &s, key, &local);
    if (!*out && s.err) *syntax = true;
    return properties_done(key, urn, *out, &local, path, diags);
}

/* One resource's inputs and outputs from its JSON text, read straight into values (no cJSON tree:
 * this is the hot path of a 100,000-resource import). *syntax on text that is not the resource
 * the index saw. */
static bool read_resource_text(const deployment_t *d, const state_resource_t *r, const char *text, size_t len,
                               arena_t *a, pv_t **inputs, pv_t **outputs, diag_list_t *diags, bool *syntax) {
    static const char *const keys[] = {"inputs", "outputs", "defaults"};
    jscan_range_t range[3] = {{0, 0}};
    bool have[3] = {false}, urn_seen = false;
    jscan_t s;
    jscan_init(&s, text, len);
    *syntax = true;
    if (jscan_peek(&s) != '{' || !jscan_object_begin(&s)) return false;
    bool first = true, done = false;
    while (true) {
        jscan_range_t key;
        bool esc;
        if (!jscan_object_next(&s, &first, &key, &esc, &done)) return false;
        if (done) break;
        char *name = esc ? jscan_string(a, &s, (jscan_range_t){key.start - 1, key.end + 1}) : NULL;
        const char *k = name ? name : text + key.start;
        size_t kl = name ? strlen(name) : key.end - key.start;
        jscan_range_t v;
        if (!jscan_value(&s, &v)) return false;
        /* the first of a repeated member counts, as cJSON finds it */
        if (!urn_seen && kl == 3 && memcmp(k, "urn", 3) == 0) {
            urn_seen = true;
            const char *u = text[v.start] == '"' ? jscan_string(a, &s, v) : NULL;
            if (!u || strcmp(u, r->urn) != 0) return false;
            continue;
        }
        for (size_t i = 0; i < 3; i++)
            if (!have[i] && kl == strlen(keys[i]) && memcmp(k, keys[i], kl) == 0) {
                have[i] = true;
                range[i] = v;
            }
    }
    if (!urn_seen) return false;
    *syntax = false;
    const char *where = d->path ? d->path : "<stack state>";
    pv_t *defaults = NULL;
    if (!text_properties(a, text, len, have[0], range[0], keys[0], r->urn, inputs, where, diags, syntax) ||
        !text_properties(a, text, len, have[1], range[1], keys[1], r->urn, outputs, where, diags, syntax) ||
        (d->version < 3 &&
         !text_properties(a, text, len, have[2], range[2], keys[2], r->urn, &defaults, where, diags, syntax)))
        return false;
    properties_finish(a, *inputs, *outputs, defaults, d->b64_secrets);
    return true;
}

/* Parses an indexed resource's byte range of the file into values in `a`. */
static bool read_lazy(const deployment_t *d, const state_resource_t *r, arena_t *a, pv_t **inputs, pv_t **outputs,
                      diag_list_t *diags) {
    const char *where = d->path ? d->path : "<stack state>";
    char *buf = malloc(r->range_len + 1);
    if (!buf) abort();
    size_t got = 0;
    while (got < r->range_len) {
        ssize_t k = pread(d->fd, buf + got, r->range_len - got, (off_t)(r->range_start + got));
        if (k <= 0) break;
        got += (size_t)k;
    }
    bool syntax = true;
    bool ok = got == r->range_len && read_resource_text(d, r, buf, r->range_len, a, inputs, outputs, diags, &syntax);
    free(buf);
    if (!ok && syntax)
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL,
                 "the stack state changed while it was being read (resource '%s' is no longer where it was); run "
                 "again",
                 r->urn);
    return ok;
}

/* --- read-ahead ---------------------------------------------------------------------------------- */

/* A resource's slot: who has it. Only IDLE → BUSY (the worker) and IDLE → TAKEN (a reader) race; the
 * compare-and-swap decides. BUSY → READY is the worker's, READY → TAKEN the reader's. */
enum { AHEAD_IDLE, AHEAD_BUSY, AHEAD_READY, AHEAD_TAKEN };

/* A resource the worker parsed, until a reader takes it (malloc'd: at most the window's are held). */
typedef struct ahead_parsed {
    bool ok;
    arena_t *arena; /* holds the values (and nothing else) */
    pv_t *inputs, *outputs;
    diag_list_t diags;
} ahead_parsed_t;

/* One per resource of the state, so kept small: 16 bytes (what was parsed lives apart, ahead_parsed_t,
 * and only while it waits: a slot holding it was 72 MB of a million-resource import). */
typedef struct ahead_slot {
    _Atomic int state;
    bool in_order;          /* the worker will come to it: taking it frees room in the window */
    ahead_parsed_t *parsed; /* READY: the worker's; set before the state says READY */
} ahead_slot_t;

struct deployment_ahead {
    const deployment_t *d;
    size_t *order;
    size_t n;
    ahead_slot_t *slots; /* one per resource of d */
    pthread_t thread;
    pthread_mutex_t mu;
    /* Either side sleeps only when it must, and is woken only then: the worker when the window is
     * full, until readers have taken half of it (resume_at); a reader when the worker is parsing the
     * very resource it wants. Each sets its flag before it checks, the other side checks the flag
     * after its own change (sequentially consistent atomics), so no wake-up is lost. */
    pthread_cond_t worker_cv, reader_cv;
    _Atomic size_t taken;     /* slots in the order taken by readers */
    _Atomic size_t resume_at; /* the worker sleeps until taken reaches it (SIZE_MAX: it is not asleep) */
    _Atomic int readers_waiting;
    _Atomic size_t ready_now, ready_peak; /* parsed and not yet read */
    _Atomic bool stop;                    /* set under mu (the worker's wait checks it) */
};

static void *read_ahead_run(void *arg) {
    struct deployment_ahead *h = arg;
    for (size_t k = 0; k < h->n; k++) {
        if (k >= atomic_load(&h->taken) + DEPLOYMENT_READ_AHEAD) {
            size_t resume = k + 1 - DEPLOYMENT_READ_AHEAD / 2;
            pthread_mutex_lock(&h->mu);
            atomic_store(&h->resume_at, resume);
            while (!atomic_load(&h->stop) && atomic_load(&h->taken) < resume)
                pthread_cond_wait(&h->worker_cv, &h->mu);
            atomic_store(&h->resume_at, SIZE_MAX);
            pthread_mutex_unlock(&h->mu);
        }
        if (atomic_load(&h->stop)) break;
        size_t i = h->order[k];
        ahead_slot_t *sl = &h->slots[i];
        int idle = AHEAD_IDLE;
        if (!atomic_compare_exchange_strong(&sl->state, &idle, AHEAD_BUSY)) continue; /* a reader has it */
        ahead_parsed_t *pr = malloc(sizeof *pr);
        if (!pr) abort();
        pr->arena = arena_new();
        diag_list_init(&pr->diags);
        pr->ok = read_lazy(h->d, &h->d->resources[i], pr->arena, &pr->inputs, &pr->outputs, &pr->diags);
        sl->parsed = pr;
        size_t now = atomic_fetch_add(&h->ready_now, 1) + 1;
        if (now > atomic_load(&h->ready_peak)) atomic_store(&h->ready_peak, now);
        atomic_store(&sl->state, AHEAD_READY);
        if (atomic_load(&h->readers_waiting)) {
            pthread_mutex_lock(&h->mu);
            pthread_cond_broadcast(&h->reader_cv);
            pthread_mutex_unlock(&h->mu);
        }
    }
    return NULL;
}

/* What deployment_read_ahead made, once its thread is gone (or never started). */
static void read_ahead_free(struct deployment_ahead *h) {
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->worker_cv);
    pthread_cond_destroy(&h->reader_cv);
    free(h->order);
    free(h->slots);
    free(h);
}

bool deployment_read_ahead(deployment_t *d, const size_t *order, size_t n) {
    if (!d || !d->indexed || d->fd < 0 || d->ahead || n == 0) return false;
    struct deployment_ahead *h = calloc(1, sizeof *h);
    if (!h) abort();
    h->d = d;
    h->order = malloc(n * sizeof *h->order);
    h->slots = calloc(d->n_resources ? d->n_resources : 1, sizeof *h->slots);
    if (!h->order || !h->slots) abort();
    for (size_t k = 0; k < n; k++)
        if (order[k] < d->n_resources) { /* (an index past the resources names none: left out) */
            h->order[h->n++] = order[k];
            h->slots[order[k]].in_order = true;
        }
    atomic_init(&h->taken, 0);
    atomic_init(&h->resume_at, SIZE_MAX);
    atomic_init(&h->readers_waiting, 0);
    atomic_init(&h->stop, false);
    atomic_init(&h->ready_now, 0);
    atomic_init(&h->ready_peak, 0);
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->worker_cv, NULL);
    pthread_cond_init(&h->reader_cv, NULL);
    if (pthread_create(&h->thread, NULL, read_ahead_run, h) != 0) {
        read_ahead_free(h);
        return false;
    }
    d->ahead = h;
    return true;
}

bool deployment_read_ahead_end(deployment_t *d) {
    bool running = d && d->ahead;
    if (running) read_ahead_stop(d);
    return running;
}

size_t deployment_read_ahead_peak(const deployment_t *d) {
    return d->ahead ? atomic_load(&d->ahead->ready_peak) : 0;
}

static void read_ahead_stop(deployment_t *d) {
    struct deployment_ahead *h = d->ahead;
    if (!h) return;
    pthread_mutex_lock(&h->mu);
    atomic_store(&h->stop, true);
    pthread_cond_broadcast(&h->worker_cv);
    pthread_mutex_unlock(&h->mu);
    pthread_join(h->thread, NULL);
    for (size_t i = 0; i < d->n_resources; i++)
        if (atomic_load(&h->slots[i].state) == AHEAD_READY) { /* parsed, never read */
            ahead_parsed_t *pr = h->slots[i].parsed;
            arena_free(pr->arena);
            diag_list_free(&pr->diags);
            free(pr);
        }
    read_ahead_free(h);
    d->ahead = NULL;
}

/* The reader's side: true with the worker's values (and *ok, and its diagnostics) when it has them,
 * waiting while it parses this one; false when the reader must parse the resource itself (the
 * worker has not come to it, or it was read before). */
static bool read_ahead_take(struct deployment_ahead *h, size_t i, arena_t *a, pv_t **inputs, pv_t **outputs,
                            diag_list_t *diags, bool *ok) {
    ahead_slot_t *sl = &h->slots[i];
    int st = AHEAD_IDLE;
    bool claimed = atomic_compare_exchange_strong(&sl->state, &st, AHEAD_TAKEN);
    if (!claimed && st == AHEAD_BUSY) {
        pthread_mutex_lock(&h->mu);
        atomic_fetch_add(&h->readers_waiting, 1);
        while ((st = atomic_load(&sl->state)) == AHEAD_BUSY)
            pthread_cond_wait(&h->reader_cv, &h->mu);
        atomic_fetch_sub(&h->readers_waiting, 1);
        pthread_mutex_unlock(&h->mu);
    }
    bool ready = !claimed && st == AHEAD_READY;
    if (ready) {
        atomic_store(&sl->state, AHEAD_TAKEN);
        atomic_fetch_sub(&h->ready_now, 1);
        ahead_parsed_t *pr = sl->parsed;
        sl->parsed = NULL;
        arena_adopt(a, pr->arena);
        *inputs = pr->inputs;
        *outputs = pr->outputs;
        *ok = pr->ok;
        diag_list_move(diags, &pr->diags);
        free(pr);
    }
    if ((claimed || ready) && sl->in_order && atomic_fetch_add(&h->taken, 1) + 1 >= atomic_load(&h->resume_at)) {
        pthread_mutex_lock(&h->mu);
        pthread_cond_signal(&h->worker_cv);
        pthread_mutex_unlock(&h->mu);
    }
    return ready;
}

bool deployment_resource_read(const deployment_t *d, const state_resource_t *r, arena_t *a, pv_t **inputs,
                              pv_t **outputs, diag_list_t *diags) {
    if (!r->lazy) {
        *inputs = pv_clone(a, r->inputs);
        *outputs = pv_clone(a, r->outputs);
        return true;
    }
    bool ok;
    size_t i = (size_t)(r - d->resources);
    if (d->ahead && i < d->n_resources && read_ahead_take(d->ahead, i, a, inputs, outputs, diags, &ok)) return ok;
    return read_lazy(d, r, a, inputs, outputs, diags);
}

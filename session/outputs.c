/* outputs.c — a run's outputs as one transaction (see outputs.h). */
#include "session/outputs.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "session/session.h"
#include "specs/project.h"
#include "specs/stackconfig.h"
#include "specs/txn.h"
#include "splice/splice.h"

/* ---------------------------------------------------------------------------------------------
 * Where secrets go. */

/* Whether the stack's secrets are the passphrase's: its config names no other provider and, naming
 * none and holding no salt, its backend's default is the passphrase (a DIY backend), not Pulumi
 * Cloud's service key — an `encryptionsalt` added there would make `pulumi` take it for a passphrase
 * stack. */
static bool secrets_passphrase(const stackconfig_t *cfg, bool service_secrets) {
    if (!stackconfig_is_passphrase(cfg)) return false;
    return !service_secrets || cfg->secrets_provider || cfg->encryption_salt;
}

#define SERVICE_SECRETS "Pulumi Cloud's service key: the stack config names no other provider"

bool outputs_secrets_setup(outputs_secrets_t *s, const session_options_t *o, const char *stack, const char *project,
                           diag_list_t *diags) {
    memset(s, 0, sizeof *s);
    s->arena = arena_new();
    arena_t *a = s->arena;
    s->project = arena_strdup(a, project);
    /* No stack named, no stack config: `pulumi` has none then either (it says "no stack selected"). */
    s->config_path = o->config_file ? arena_strdup(a, o->config_file)
                     : stack        ? arena_sprintf(a, "Pulumi.%s.yaml", stack)
                                    : NULL;
    /* One secrets file per stack: each stack's config holds its own value under the same key (the
     * program is every stack's), and its store command names its stack. */
    s->stack_ref = stack ? arena_strdup(a, o->stack_ref && o->stack ? o->stack_ref : stack) : NULL;
    const char *name = stack && project_name_valid(stack) ? arena_sprintf(a, "cimport-secrets.%s.json", stack)
                                                          : "cimport-secrets.json";
    if (o->secrets_file) {
        s->file = o->secrets_file;
    } else if (o->secrets_dir) {
        s->file_dir = o->secrets_dir;
        s->file = arena_sprintf(a, "%s/%s", o->secrets_dir, name);
    } else {
        s->file = name;
    }
    char *pass = NULL;
    if (!passphrase_from_env(&pass, diags)) return false;
    if (pass) {
        s->keyring = passphrase_keyring_new(pass);
        free(pass);
    }
    stackconfig_t cfg;
    bool have_cfg = false;
    const char **secure = NULL; /* the ciphertext of each reserved config key, or NULL */
    size_t n_config_keys = 0;
    if (s->config_path && access(s->config_path, F_OK) == 0) {
        size_t len;
        char *text = file_read_all(a, s->config_path, &len, diags);
        if (!text || !stackconfig_parse(a, text, len, s->config_path, &cfg, diags)) return false;
        have_cfg = true;
        if (!stackconfig_is_passphrase(&cfg))
            s->config_provider = cfg.secrets_provider ? cfg.secrets_provider : "a cloud provider's encryptedkey";
        else if (!secrets_passphrase(&cfg, o->service_secrets))
            s->config_provider = SERVICE_SECRETS;
        /* The project's keys: a new secret's key must not be one of them (unless it holds that very
         * value: the ciphertexts are decrypted below, when the passphrase opens them). */
        s->reserved = arena_alloc(a, (cfg.n_entries + 1) * sizeof *s->reserved);
        s->reserved_values = arena_alloc(a, (cfg.n_entries + 1) * sizeof *s->reserved_values);
        secure = arena_alloc(a, (cfg.n_entries + 1) * sizeof *secure);
        size_t plen = strlen(project);
        for (size_t i = 0; i < cfg.n_entries; i++)
            if (strncmp(cfg.entries[i].key, project, plen) == 0 && cfg.entries[i].key[plen] == ':') {
                secure[s->n_reserved] = cfg.entries[i].secure;
                s->reserved_values[s->n_reserved] = NULL;
                s->reserved[s->n_reserved++] = cfg.entries[i].key + plen + 1;
            }
        n_config_keys = s->n_reserved;
    } else if (o->service_secrets) {
        s->config_provider = SERVICE_SECRETS; /* the stack config `pulumi` makes for it has no salt either */
    }
    /* Keys the secrets file already holds are taken too. */
    if (access(s->file, F_OK) == 0) {
        diag_list_t quiet;
        diag_list_init(&quiet);
        size_t len;
        char *text = file_read_all(a, s->file, &len, &quiet);
        diag_list_free(&quiet);
        cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL;
        size_t n = (size_t)cJSON_GetArraySize(doc);
        if (doc && cJSON_IsObject(doc) && n) {
            const char **r = arena_alloc(a, (s->n_reserved + n) * sizeof *r);
            const char **rv = arena_alloc(a, (s->n_reserved + n) * sizeof *rv);
            if (s->n_reserved) memcpy(r, s->reserved, s->n_reserved * sizeof *r);
            if (s->n_reserved) memcpy(rv, s->reserved_values, s->n_reserved * sizeof *rv);
            for (cJSON *k = doc->child; k; k = k->next) {
                /* its value as the file stores a secret: a string as is, anything else as JSON */
                char *json = cJSON_IsString(k) ? NULL : cJSON_PrintUnformatted(k);
                rv[s->n_reserved] = arena_strdup(a, cJSON_IsString(k) ? k->valuestring : json ? json : "");
                free(json);
                r[s->n_reserved++] = arena_strdup(a, k->string);
            }
            s->reserved = r;
            s->reserved_values = rv;
        }
        cJSON_Delete(doc);
    }
    if (!s->keyring || o->secrets != PCL_SECRETS_CONFIG) return true;
    if (s->config_provider) return true; /* a cloud provider or the service's key: the secrets file */
    if (!s->config_path) {
        /* The passphrase would encrypt them into a stack's config, and there is no stack to take it
         * from: refused once there are values to store (outputs_stage_secrets), not in plaintext —
         * unless the run names the secrets file itself (the passphrase may be only the one the
         * offline export's secrets are read with). */
        if (o->secrets_file || o->secrets_dir) return true;
        s->no_stack = true;
        return true;
    }
    const passphrase_crypter_t *cr = NULL;
    if (have_cfg && cfg.encryption_salt &&
        !(cr = passphrase_keyring_open(s->keyring, cfg.encryption_salt, s->config_path, diags)))
        return false;
    for (size_t i = 0; cr && i < n_config_keys; i++) { /* the values the config holds already */
        char *plain = NULL;
        size_t len = 0;
        diag_list_t quiet;
        diag_list_init(&quiet);
        if (secure[i] && passphrase_decrypt(cr, secure[i], &plain, &len, &quiet) && strlen(plain) == len)
            s->reserved_values[i] = arena_strdup(a, plain);
        if (plain) memset(plain, 0, len);
        free(plain);
        diag_list_free(&quiet);
    }
    /* The secrets file's values are not where this run writes (the stack config): a key taken again
     * for one of them still gets the value stored, encrypted, in the stack config. */
    if (s->n_reserved > n_config_keys) {
        s->reserved_elsewhere = arena_alloc(a, s->n_reserved * sizeof *s->reserved_elsewhere);
        for (size_t i = n_config_keys; i < s->n_reserved; i++)
            s->reserved_elsewhere[i] = true;
    }
    s->to_config = true;
    return true;
}

void outputs_secrets_free(outputs_secrets_t *s) {
    passphrase_keyring_free(s->keyring);
    arena_free(s->arena);
    memset(s, 0, sizeof *s);
}

/* The secrets file as one shell word: quoted as needed, and ./ before a name jq and rm would take
 * for an option. */
static void buf_file_word(buf_t *b, const char *file) {
    buf_t f;
    buf_init(&f);
    if (*file == '-') buf_puts(&f, "./");
    buf_puts(&f, file);
    buf_shell_word(b, f.data);
    buf_free(&f);
}

/* The file is removed only once every value is stored: jq missing or the file unreadable stops it
 * first (the loop would read nothing and end well), and a failed `pulumi config set` ends the loop
 * with a failure (read18 F4). */
char *outputs_secrets_next_step(const outputs_secrets_t *s) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "  jq -e . ");
    buf_file_word(&b, s->file);
    buf_puts(&b, " >/dev/null && jq -r 'keys[]' ");
    buf_file_word(&b, s->file);
    buf_puts(&b, " | while IFS= read -r k; do jq -cj --arg k \"$k\" '.[$k]' ");
    buf_file_word(&b, s->file);
    buf_puts(&b, " | pulumi config set --secret ");
    if (s->stack_ref) { /* quoted unless it is a name Pulumi takes (an export's stack name can be anything) */
        buf_puts(&b, "--stack ");
        buf_shell_word(&b, s->stack_ref);
        buf_putc(&b, ' ');
    }
    buf_puts(&b, "\"$k\" || exit 1; done && rm ");
    buf_file_word(&b, s->file);
    return buf_take(&b);
}

/* ---------------------------------------------------------------------------------------------
 * The transaction. */

typedef struct secret_value {
    const char *key; /* without the project prefix */
    char *plaintext; /* the config value's text: a string as is, anything else as JSON */
    cJSON *json;     /* the value for the secrets file */
} secret_value_t;

typedef struct program_ctx {
    lang_t lang;
    splice_options_t so; /* its filename: the path it is staged for */
    char *old_text, *new_text, *code;
    size_t old_len, new_len;
    bool changed;
} program_ctx_t;

typedef struct state_ctx {
    const char *stack, *project;
    const stackstate_resource_t *res;
    size_t n;
    stackstate_options_t opts;
    stackstate_report_t rep;
    bool have_rep;
} state_ctx_t;

typedef struct secrets_ctx {
    const outputs_secrets_t *s;
    secret_value_t *v;
    size_t n;
} secrets_ctx_t;

struct outputs {
    txn_t *txn;
    program_ctx_t *program;
    state_ctx_t *state;
    secrets_ctx_t *secrets;
    size_t program_index;
    bool made_dir;
    char **dirs; /* the directories this run made, outermost first (removed again if the commit fails) */
    size_t ndirs;
    char *read_only;     /* a whole file staged over one the user made read-only (malloc'd path), or NULL */
    diag_list_t refused; /* why the secrets cannot be written where they would go (a link out of the project) */
};

outputs_t *outputs_new(int lock_timeout_ms) {
    outputs_t *out = calloc(1, sizeof *out);
    if (!out) abort();
    txn_options_t o;
    txn_options_default(&o);
    if (lock_timeout_ms >= 0) o.lock_timeout_ms = lock_timeout_ms;
    out->txn = txn_new(&o);
    diag_list_init(&out->refused);
    return out;
}

void outputs_free(outputs_t *out) {
    if (!out) return;
    free(out->read_only);
    diag_list_free(&out->refused);
    txn_free(out->txn);
    for (size_t i = out->ndirs; i-- > 0;) {
        if (out->made_dir) rmdir(out->dirs[i]); /* only if the commit left it empty */
        free(out->dirs[i]);
    }
    free(out->dirs);
    if (out->program) {
        free(out->program->old_text);
        free(out->program->new_text);
        free(out->program->code);
        free(out->program);
    }
    if (out->state) {
        if (out->state->have_rep) stackstate_report_free(&out->state->rep);
        free(out->state);
    }
    if (out->secrets) {
        for (size_t i = 0; i < out->secrets->n; i++) {
            secret_value_t *v = &out->secrets->v[i];
            if (v->plaintext) {
                memset(v->plaintext, 0, strlen(v->plaintext));
                free(v->plaintext);
            }
            cJSON_Delete(v->json);
        }
        free(out->secrets->v);
        free(out->secrets);
    }
    free(out);
}

void outputs_stage_code(outputs_t *out, const char *path, const char *code) {
    outputs_stage_file(out, path, code, strlen(code));
}

/* A whole file over one the user made read-only is refused at commit, as a program's (the atomic
 * rename would replace it, mode and all). */
static void note_read_only(outputs_t *out, const char *path) {
    struct stat st;
    if (!out->read_only && stat(path, &st) == 0 && S_ISREG(st.st_mode) && file_mode_read_only(st.st_mode)) {
        out->read_only = strdup(path);
        if (!out->read_only) abort();
    }
}

void outputs_stage_file(outputs_t *out, const char *path, const char *data, size_t len) {
    note_read_only(out, path);
    txn_write_borrowed(out->txn, path, data, len, 0644, false);
}

void outputs_stage_code_spool(outputs_t *out, const char *path, spool_t *code) {
    note_read_only(out, path);
    txn_write_spool(out->txn, path, code, 0644, false);
}

static char *dup_n(const char *s, size_t n) {
    char *r = malloc(n + 1);
    if (!r) abort();
    memcpy(r, s, n);
    r[n] = '\0';
    return r;
}

static bool program_update(void *user, const char *path, const char *old, size_t old_len, char **out, size_t *out_len,
                           diag_list_t *diags) {
    program_ctx_t *c = user;
    if (!old) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "the program file is gone (it was removed during the run)");
        return false;
    }
    if (file_is_read_only(path)) {
        file_read_only_error(diags, path);
        return false;
    }
    if (old_len == c->old_len && memcmp(old, c->old_text, old_len) == 0) {
        if (c->changed) {
            *out = dup_n(c->new_text, c->new_len);
            *out_len = c->new_len;
        }
        return true;
    }
    /* The program changed since it was read. Another cimport run's commit (it marks what it writes):
     * splice into what is there now. Anything else (an editor): refuse, as a splice always has. */
    if (!txn_last_written_by_txn(path)) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL,
                 "the file changed since it was read (another editor or process wrote it); nothing was written: run "
                 "the command again");
        return false;
    }
    splice_options_t so = c->so;
    so.filename = path;
    splicer_t *sp = splicer_new();
    char *text = NULL;
    size_t len = 0;
    bool changed = false;
    bool ok =
        splicer_splice(sp, old, old_len, c->lang, c->code, strlen(c->code), &so, &text, &len, &changed, NULL, diags);
    splicer_free(sp);
    if (!ok) return false;
    if (changed) {
        *out = text;
        *out_len = len;
    } else {
        free(text);
    }
    return true;
}

void outputs_stage_program(outputs_t *out, const char *path, lang_t lang, splice_options_t so, const char *old_text,
                           size_t old_len, const char *new_text, size_t new_len, const char *code) {
    program_ctx_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->lang = lang;
    c->so = so;
    c->old_text = dup_n(old_text, old_len);
    c->old_len = old_len;
    c->new_text = dup_n(new_text, new_len);
    c->new_len = new_len;
    c->changed = old_len != new_len || memcmp(old_text, new_text, new_len) != 0;
    c->code = strdup(code);
    if (!c->code) abort();
    out->program = c;
    out->program_index = txn_count(out->txn);
    txn_update(out->txn, path, 0644, false, program_update, c);
}

static bool state_update(void *user, const char *path, const char *old, size_t old_len, char **out, size_t *out_len,
                         diag_list_t *diags) {
    state_ctx_t *c = user;
    if (c->have_rep) stackstate_report_free(&c->rep);
    char *merged =
        stackstate_merge_text(old, old_len, path, c->stack, c->project, c->res, c->n, &c->opts, &c->rep, diags);
    c->have_rep = true;
    if (!merged) return false;
    if (c->rep.n_plaintext_secrets && !c->opts.plaintext_secrets) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "%zu imported resource%s secret values, and cimport cannot encrypt them for this stack's secrets "
                 "provider (Pulumi Cloud's `service`, or a cloud KMS), so they would be written in plaintext; "
                 "nothing was written: pass --secrets-provider plaintext to write them so (the file is then made "
                 "0600; `pulumi stack import --file` encrypts them; delete the file after), or import without "
                 "--stack-state (the code's `import` option)",
                 c->rep.n_plaintext_secrets, c->rep.n_plaintext_secrets == 1 ? " has" : "s have");
        free(merged);
        return false;
    }
    size_t len = strlen(merged);
    if (old && len == old_len && memcmp(merged, old, len) == 0) {
        free(merged); /* nothing new: leave the file alone */
        return true;
    }
    *out = merged;
    *out_len = len;
    return true;
}

void outputs_stage_stack_state(outputs_t *out, const char *path, const char *stack, const char *project,
                               const stackstate_resource_t *res, size_t n, const stackstate_package_config_t *config,
                               size_t n_config, const outputs_secrets_t *s, bool b64, bool plaintext) {
    state_ctx_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->stack = stack;
    c->project = project;
    c->res = res;
    c->n = n;
    stackstate_options_default(&c->opts);
    c->opts.keyring = s ? s->keyring : NULL;
    c->opts.b64_secrets = b64;
    c->opts.plaintext_secrets = plaintext;
    c->opts.config = config;
    c->opts.n_config = n_config;
    out->state = c;
    /* A state file holds ids and (encrypted) secrets: a new one is private; one asked to hold them in
     * plaintext is made so. */
    txn_update(out->txn, path, 0600, plaintext, state_update, c);
}

/* Pulumi.<stack>.yaml: each value encrypted for the stack's salt (created when the file has none). */
static bool config_update(void *user, const char *path, const char *old, size_t old_len, char **out, size_t *out_len,
                          diag_list_t *diags) {
    secrets_ctx_t *c = user;
    const outputs_secrets_t *s = c->s;
    arena_t *a = arena_new();
    bool ok = false;
    stackconfig_t cfg;
    if (!stackconfig_parse(a, old, old_len, path, &cfg, diags)) goto done;
    if (!stackconfig_is_passphrase(&cfg)) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "the stack's secrets provider changed during the run (it no longer uses the passphrase); nothing "
                 "was written: run again");
        goto done;
    }
    const passphrase_crypter_t *cr = cfg.encryption_salt
                                         ? passphrase_keyring_open(s->keyring, cfg.encryption_salt, path, diags)
                                         : passphrase_keyring_default(s->keyring, diags);
    if (!cr) goto done;
    stackconfig_secure_t *vals = arena_alloc(a, (c->n ? c->n : 1) * sizeof *vals);
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++) {
        const char *key = arena_sprintf(a, "%s:%s", s->project, c->v[i].key);
        const stackconfig_entry_t *e = stackconfig_find(&cfg, key);
        if (e) {
            /* Set by another run meanwhile: the same value is fine, another one is a clash. */
            char *pt = NULL;
            size_t len = 0;
            diag_list_t quiet;
            diag_list_init(&quiet);
            bool same = e->secure && passphrase_decrypt(cr, e->secure, &pt, &len, &quiet) &&
                        len == strlen(c->v[i].plaintext) && memcmp(pt, c->v[i].plaintext, len) == 0;
            free(pt);
            diag_list_free(&quiet);
            if (same) continue;
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                     "the config key '%s' was set to another value while cimport ran; nothing was written: run again",
                     key);
            goto done;
        }
        char *ct = passphrase_encrypt(cr, c->v[i].plaintext, strlen(c->v[i].plaintext));
        if (!ct) {
            diag_add(diags, DIAG_ERROR, DIAG_GENERIC, path, NULL, "cannot encrypt a secret (libcrypto failed)");
            goto done;
        }
        vals[n++] = (stackconfig_secure_t){key, arena_strdup(a, ct)};
        free(ct);
    }
    if (n > 0) {
        *out = stackconfig_add_secure(old, old_len, path, cfg.encryption_salt ? NULL : passphrase_state(cr), vals, n,
                                      diags);
        if (!*out) goto done;
        *out_len = strlen(*out);
    }
    ok = true;
done:
    arena_free(a);
    return ok;
}

static int cmp_member(const void *x, const void *y) {
    return strcmp((*(const cJSON *const *)x)->string, (*(const cJSON *const *)y)->string);
}

/* The secrets file: a JSON object of config key → value, merged with what it holds. */
static bool file_update(void *user, const char *path, const char *old, size_t old_len, char **out, size_t *out_len,
                        diag_list_t *diags) {
    secrets_ctx_t *c = user;
    cJSON *doc = old && old_len ? cJSON_ParseWithLength(old, old_len) : cJSON_CreateObject();
    if (!cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "is not a cimport secrets file (a JSON object of config keys): move it away or name another file");
        return false;
    }
    /* The keys the file holds, sorted, so that merging 100,000 values is not quadratic. */
    size_t n_have = (size_t)cJSON_GetArraySize(doc), k = 0;
    const cJSON **have_sorted = malloc((n_have ? n_have : 1) * sizeof *have_sorted);
    if (!have_sorted) abort();
    for (const cJSON *m = doc->child; m; m = m->next)
        have_sorted[k++] = m;
    qsort(have_sorted, n_have, sizeof *have_sorted, cmp_member);
    for (size_t i = 0; i < c->n; i++) {
        cJSON probe = {.string = (char *)c->v[i].key};
        const cJSON *pp = &probe;
        const cJSON **hit = n_have ? bsearch(&pp, have_sorted, n_have, sizeof *have_sorted, cmp_member) : NULL;
        const cJSON *have = hit ? *hit : NULL;
        if (have) {
            /* Written by another run meanwhile: the same value is fine, another one is a clash. */
            if (cJSON_Compare(have, c->v[i].json, true)) continue;
            free(have_sorted);
            cJSON_Delete(doc);
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                     "the key '%s' was given another value while cimport ran; nothing was written: run again",
                     c->v[i].key);
            return false;
        }
        cJSON_AddItemToObject(doc, c->v[i].key, cJSON_Duplicate(c->v[i].json, true));
    }
    free(have_sorted);
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    size_t len = strlen(text);
    *out = malloc(len + 2);
    if (!*out) abort();
    memcpy(*out, text, len);
    (*out)[len] = '\n';
    (*out)[len + 1] = '\0';
    *out_len = len + 1;
    memset(text, 0, len);
    free(text);
    return true;
}

/* Makes the directory `dir` where `file` goes and every missing one above it, as `pulumi config set`
 * makes a stackConfigDir (os.MkdirAll), each remembered so that a run that writes nothing removes them
 * again. False with a diagnostic in out->refused where one cannot be made (a file in the way). */
static bool outputs_make_dirs(outputs_t *out, const char *dir, mode_t mode, const char *file, const char *fix) {
    size_t len = strlen(dir);
    char *p = malloc(len + 1);
    if (!p) abort();
    memcpy(p, dir, len + 1);
    bool ok = true;
    for (size_t i = 1; ok && i <= len; i++) {
        if (i < len && p[i] != '/') continue;
        char c = p[i];
        p[i] = '\0';
        struct stat st;
        const char *why = NULL;
        if (stat(p, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) why = "is not a directory";
        } else if (errno == ENOENT && mkdir(p, mode) == 0) {
            out->dirs = realloc(out->dirs, (out->ndirs + 1) * sizeof *out->dirs);
            if (!out->dirs || !(out->dirs[out->ndirs] = strdup(p))) abort();
            out->ndirs++;
            out->made_dir = true;
        } else if (errno != EEXIST) {
            why = strerror(errno);
        }
        if (why) {
            const char *base = strrchr(file, '/');
            diag_add(&out->refused, DIAG_ERROR, DIAG_IO, dir, NULL,
                     "cannot create the directory for %s: %s %s; nothing was written: %s", base ? base + 1 : file, p,
                     why, fix);
            ok = false;
        }
        p[i] = c;
    }
    free(p);
    return ok;
}

void outputs_stage_secrets(outputs_t *out, const outputs_secrets_t *s, const pcl_gen_result_t *g) {
    if (g->n_secrets == 0) return;
    secrets_ctx_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->s = s;
    c->v = calloc(g->n_secrets, sizeof *c->v);
    if (!c->v) abort();
    for (size_t i = 0; i < g->n_secrets; i++) {
        const pv_t *v = g->secrets[i].value;
        secret_value_t *sv = &c->v[c->n++];
        sv->key = g->secrets[i].config_key;
        if (v->kind == PV_STRING) {
            sv->plaintext = strdup(v->u.str.s);
            sv->json = cJSON_CreateString(v->u.str.s);
        } else {
            sv->json = pv_to_display_json(v, true);
            sv->plaintext = cJSON_PrintUnformatted(sv->json);
        }
        if (!sv->plaintext) abort();
    }
    out->secrets = c;
    if (s->no_stack) {
        char advice[DIAG_ADVICE_MAX];
        diag_add(&out->refused, DIAG_ERROR, DIAG_USAGE, NULL, NULL,
                 "no stack is selected, so there is no stack config to encrypt the %zu secret value%s into with the "
                 "passphrase (Pulumi has none either: `pulumi config set --secret` says \"no stack selected\"): "
                 "nothing was written; unset PULUMI_CONFIG_PASSPHRASE to have them written to %s for you to store "
                 "later, or select the stack the code is for%s",
                 g->n_secrets, g->n_secrets == 1 ? "" : "s", s->file,
                 diag_advice(advice, DIAG_ADVICE_SELECT_STACK, NULL));
        return;
    }
    /* A link the project ships (to ~/.profile, or to nothing yet) must not take the values out of it:
     * the commit fails before anything is written. */
    if (!file_link_stays_inside(s->to_config ? s->config_path : s->file, &out->refused)) return;
    if (s->to_config) {
        /* a stackConfigDir not there yet is made, nested too, as `pulumi config set` makes it (removed
         * again when the commit fails and leaves it empty) */
        char *d = arena_strdup(s->arena, s->config_path);
        char *slash = strrchr(d, '/');
        if (slash && slash != d) {
            *slash = '\0';
            char advice[DIAG_ADVICE_MAX];
            const char *fix = arena_sprintf(
                s->arena, "point stackConfigDir in Pulumi.yaml%s at a directory that can be made, or make it",
                diag_advice(advice, DIAG_ADVICE_CONFIG_FILE, NULL));
            if (!outputs_make_dirs(out, d, 0755, s->config_path, fix)) return;
        }
        txn_update(out->txn, s->config_path, 0644, false, config_update, c);
    } else {
        char advice[DIAG_ADVICE_MAX];
        const char *fix = arena_sprintf(s->arena, "%smake it", diag_advice(advice, DIAG_ADVICE_SECRETS_DIR, NULL));
        if (s->file_dir && !outputs_make_dirs(out, s->file_dir, 0700, s->file, fix)) return;
        txn_update(out->txn, s->file, 0600, true, file_update, c);
    }
}

void outputs_stage_participant(outputs_t *out, const txn_participant_t *p) {
    txn_set_participant(out->txn, p);
}

bool outputs_commit(outputs_t *out, diag_list_t *diags) {
    if (diag_has_errors(&out->refused)) {
        diag_list_move(diags, &out->refused);
        return false;
    }
    if (out->read_only) {
        file_read_only_error(diags, out->read_only);
        return false;
    }
    bool ok = txn_commit(out->txn, diags);
    if (ok) out->made_dir = false;
    return ok;
}

bool outputs_dry_run(outputs_t *out, const char ***changed, size_t *n_changed, diag_list_t *diags) {
    *changed = NULL;
    *n_changed = 0;
    if (diag_has_errors(&out->refused)) {
        diag_list_move(diags, &out->refused);
        return false;
    }
    return txn_dry_run(out->txn, changed, n_changed, diags);
}

const stackstate_report_t *outputs_state_report(const outputs_t *out) {
    return out->state && out->state->have_rep ? &out->state->rep : NULL;
}

bool outputs_program_changed(const outputs_t *out) {
    return out->program && txn_changed(out->txn, out->program_index);
}

size_t outputs_count(const outputs_t *out) {
    return txn_count(out->txn);
}

bool outputs_any_changed(const outputs_t *out, size_t n) {
    for (size_t i = 0; i < n && i < txn_count(out->txn); i++)
        if (txn_changed(out->txn, i)) return true;
    return false;
}

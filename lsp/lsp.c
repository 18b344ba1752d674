/* lsp.c — `cimport lsp`: the language server (see lsp.h for the protocol it speaks).
 *
 * One thread, one loop: read a message, handle it, answer. A command runs an import session to
 * the end before the next message is handled, but while it runs the progress callback reads what
 * the client sent meanwhile, handles $/cancelRequest at once and queues the rest, so a cancel is
 * seen without threads. A command then waits, as a job, for the client's answers to the server's
 * own requests (window/workDoneProgress/create, workspace/applyEdit) while other messages are
 * handled normally.
 *
 * What is edited is the document's text as the editor last sent it (unsaved edits included); the
 * edit carries the document's version, so an editor whose buffer changed meanwhile refuses it
 * rather than corrupting the program. A client without versioned edits applies one to whatever it
 * holds, so a change it sent is looked for before the import's files are written and again after,
 * right before the edit goes out; an edit that does not go in says what was written before it. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/dynlib.h"
#include "base/fileio.h"
#include "importer/plugin_host.h"
#include "lsp/lsp.h"
#include "lsp/lsp_internal.h"
#include "report/report.h"
#include "session/failures.h"
#include "session/results_json.h"
#include "session/session.h"
#include "specs/importfile.h"
#include "specs/project.h"
#include "splice/splice.h"

#define LSP_CMD_IMPORT_RESOURCE "cimport.importResource"
#define LSP_CMD_IMPORT_FILE "cimport.importFile"
#define LSP_CMD_SHOW_REPORT "cimport.showReport"

typedef enum {
    LSP_STATE_NEW = 0,  /* before initialize */
    LSP_STATE_RUNNING,  /* initialize answered */
    LSP_STATE_SHUTDOWN, /* shutdown answered: only exit is accepted */
} lsp_state_t;

typedef struct lsp_doc {
    char *uri;
    char *path; /* NULL for a URI that is not file:// */
    char *language_id;
    long version;
    char *text; /* NUL-terminated, len bytes */
    size_t len;
    unsigned long touched; /* when it was last opened or changed (for choosing a target) */
    struct lsp_doc *next;
} lsp_doc_t;

typedef enum {
    LSP_JOB_WAIT_TOKEN, /* waiting for window/workDoneProgress/create's answer */
    LSP_JOB_RUNNING,    /* the session runs */
    LSP_JOB_WAIT_APPLY, /* waiting for workspace/applyEdit's answer */
} lsp_job_phase_t;

typedef struct lsp_job {
    cJSON *id; /* the executeCommand request's id */
    char *command;
    cJSON *arg;   /* the command's argument object */
    cJSON *token; /* progress token, or NULL */
    lsp_job_phase_t phase;
    long wait_id; /* the id of the server request it waits for */
    bool cancelled;
    volatile sig_atomic_t stop; /* set with `cancelled` while the session runs: the engine stops */
    cJSON *result;              /* the command's result, sent once the edit is answered */
    char *target;               /* the target's name for messages */
    char *done;                 /* "read N of M": the progress end's message once the edit is answered */
    const cJSON *results;       /* the server's last_results when the edit was sent (for its summary.written) */
    char *stack;                /* intoStack: the stack this import wrote before the edit was sent, else NULL */
    char *note;                 /* shown once the edit is applied, or NULL */
    char *written;              /* what was written before the edit was sent (lsp_written_text), or NULL */
    struct lsp_job *next;
} lsp_job_t;

typedef struct lsp_queued {
    char *body;
    size_t len;
    struct lsp_queued *next;
} lsp_queued_t;

struct lsp_server {
    lsp_write_fn write;
    void *user;
    bool stopped;
    lsp_state_t state;
    int exit_code;
    arena_t *arena;         /* option strings and arrays */
    session_options_t base; /* from the command line */
    session_options_t opts; /* base + initializationOptions */
    char *root;             /* workspace root directory, NULL if none */
    lsp_encoding_t enc;
    bool cap_progress, cap_document_changes, cap_apply_edit;
    lsp_doc_t *docs;
    unsigned long tick;
    long next_id;
    lsp_job_t *jobs;
    lsp_reader_t *reader; /* set by lsp_server_run: read while a command runs */
    lsp_queued_t *queue, *queue_tail;
    splicer_t *splicer;
    cJSON *last_results; /* the last import's results document (with secret values), for the report */
    bool cap_show_document;
    bool into_stack; /* initializationOptions.intoStack: import into the workspace's selected stack */
};

/* ---------- sending ---------- */

/* A JSON number as a long without undefined behaviour: out-of-range values (1e300, from a broken or
 * hostile client) are clamped, so they compare as no valid position or id instead of overflowing. */
static long lsp_json_long(double d) {
    if (!(d >= -1e15)) return -1000000000000000L; /* also NaN */
    if (d > 1e15) return 1000000000000000L;
    return (long)d;
}

static void lsp_send(lsp_server_t *s, cJSON *msg) {
    if (!s->stopped) {
        char *body = cJSON_PrintUnformatted(msg);
        size_t n;
        char *framed = lsp_frame(body, strlen(body), &n);
        if (!s->write(s->user, framed, n)) s->stopped = true;
        free(framed);
        free(body);
    }
    cJSON_Delete(msg);
}

static cJSON *lsp_message(void) {
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    return m;
}

/* Answers request `id` (NULL: null) with result (taken; NULL: null). */
static void lsp_respond(lsp_server_t *s, const cJSON *id, cJSON *result) {
    cJSON *m = lsp_message();
    cJSON_AddItemToObject(m, "id", id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
    cJSON_AddItemToObject(m, "result", result ? result : cJSON_CreateNull());
    lsp_send(s, m);
}

static void lsp_respond_error(lsp_server_t *s, const cJSON *id, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void lsp_respond_error(lsp_server_t *s, const cJSON *id, int code, const char *fmt, ...) {
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    cJSON *m = lsp_message();
    cJSON_AddItemToObject(m, "id", id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
    cJSON *e = cJSON_AddObjectToObject(m, "error");
    cJSON_AddNumberToObject(e, "code", code);
    cJSON_AddStringToObject(e, "message", text);
    lsp_send(s, m);
}

static void lsp_notify(lsp_server_t *s, const char *method, cJSON *params) {
    cJSON *m = lsp_message();
    cJSON_AddStringToObject(m, "method", method);
    cJSON_AddItemToObject(m, "params", params);
    lsp_send(s, m);
}

/* Sends a request to the client; returns its id. */
static long lsp_request(lsp_server_t *s, const char *method, cJSON *params) {
    long id = ++s->next_id;
    cJSON *m = lsp_message();
    cJSON_AddNumberToObject(m, "id", (double)id);
    cJSON_AddStringToObject(m, "method", method);
    cJSON_AddItemToObject(m, "params", params);
    lsp_send(s, m);
    return id;
}

static void lsp_show(lsp_server_t *s, int type, const char *text) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "type", type);
    cJSON_AddStringToObject(p, "message", text);
    lsp_notify(s, "window/showMessage", p);
}

static void lsp_log(lsp_server_t *s, int type, const char *text) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "type", type);
    cJSON_AddStringToObject(p, "message", text);
    lsp_notify(s, "window/logMessage", p);
}

static void lsp_progress(lsp_server_t *s, const cJSON *token, const char *kind, const char *title, const char *message,
                         int percentage) {
    if (!token) return;
    cJSON *p = cJSON_CreateObject();
    cJSON_AddItemToObject(p, "token", cJSON_Duplicate(token, true));
    cJSON *v = cJSON_AddObjectToObject(p, "value");
    cJSON_AddStringToObject(v, "kind", kind);
    if (title) cJSON_AddStringToObject(v, "title", title);
    if (strcmp(kind, "begin") == 0) cJSON_AddBoolToObject(v, "cancellable", true);
    if (message) cJSON_AddStringToObject(v, "message", message);
    if (percentage >= 0 && strcmp(kind, "end") != 0) cJSON_AddNumberToObject(v, "percentage", percentage);
    lsp_notify(s, "$/progress", p);
}

/* ---------- JSON helpers ---------- */

static const char *lsp_str(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* True when o[key] is absent or null, or a string (then *out is set). */
static bool lsp_opt_str(const cJSON *o, const char *key, const char **out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = NULL;
    if (!v || cJSON_IsNull(v)) return true;
    if (!cJSON_IsString(v)) return false;
    *out = v->valuestring;
    return true;
}

static bool lsp_path_item(const cJSON *o, const char *path, long *out) {
    const cJSON *v = o;
    char key[64];
    for (const char *p = path; v && *p;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        snprintf(key, sizeof key, "%.*s", (int)n, p);
        v = cJSON_GetObjectItemCaseSensitive(v, key);
        p = dot ? dot + 1 : p + n;
    }
    if (!v || !cJSON_IsNumber(v)) return false;
    *out = lsp_json_long(v->valuedouble);
    return true;
}

static bool lsp_bool_at(const cJSON *o, const char *path) {
    const cJSON *v = o;
    char key[64];
    for (const char *p = path; v && *p;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        snprintf(key, sizeof key, "%.*s", (int)n, p);
        v = cJSON_GetObjectItemCaseSensitive(v, key);
        p = dot ? dot + 1 : p + n;
    }
    return cJSON_IsTrue(v);
}

/* A malloc'd formatted string. */
static char *lsp_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *lsp_strf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *out = malloc((size_t)n + 1);
    if (!out) abort();
    va_start(ap, fmt);
    vsnprintf(out, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return out;
}

static const char *lsp_basename(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---------- documents ---------- */

static void lsp_doc_free(lsp_doc_t *d) {
    free(d->uri);
    free(d->path);
    free(d->language_id);
    free(d->text);
    free(d);
}

/* The open document of the file at path (NULL: none). */
static lsp_doc_t *lsp_doc_find_path(lsp_server_t *s, const char *path) {
    for (lsp_doc_t *d = s->docs; path && d; d = d->next)
        if (d->path && strcmp(d->path, path) == 0) return d;
    return NULL;
}

static lsp_doc_t *lsp_doc_find(lsp_server_t *s, const char *uri) {
    for (lsp_doc_t *d = s->docs; d; d = d->next)
        if (strcmp(d->uri, uri) == 0) return d;
    /* the same file spelt differently (percent-encoding) */
    char *path = lsp_uri_to_path(uri);
    lsp_doc_t *found = lsp_doc_find_path(s, path);
    free(path);
    return found;
}

/* The program language of a document: its languageId, else its file name. */
static bool lsp_doc_lang(const char *language_id, const char *path, lang_t *out) {
    static const struct {
        const char *id;
        lang_t lang;
    } ids[] = {
        {"typescript", LANG_TYPESCRIPT},
        {"typescriptreact", LANG_TYPESCRIPT},
        {"python", LANG_PYTHON},
        {"go", LANG_GO},
        {"csharp", LANG_CSHARP},
        {"java", LANG_JAVA},
        {"yaml", LANG_YAML},
    };
    for (size_t i = 0; language_id && i < sizeof ids / sizeof ids[0]; i++)
        if (strcmp(language_id, ids[i].id) == 0) return *out = ids[i].lang, true;
    return path && splice_lang_from_path(path, out);
}

/* Whether a document can be a target of "Import these resources into …": a program in a language
 * splicing supports; YAML only when it is a Pulumi YAML program file. */
static bool lsp_doc_is_program(const lsp_doc_t *d) {
    lang_t l;
    if (!lsp_doc_lang(d->language_id, d->path, &l)) return false;
    if (l != LANG_YAML) return true;
    const char *base = d->path ? lsp_basename(d->path) : lsp_basename(d->uri);
    return strcmp(base, "Pulumi.yaml") == 0 || strcmp(base, "Pulumi.yml") == 0 || strcmp(base, "Main.yaml") == 0 ||
           strcmp(base, "Main.yml") == 0;
}

/* Whether text is an import file: it parses as one and lists at least one resource. */
static bool lsp_text_is_import_file(const char *text, size_t len) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    import_file_t *f = import_file_parse(a, text, len, NULL, &d);
    bool ok = f && !diag_has_errors(&d) && f->n_specs > 0;
    diag_list_free(&d);
    arena_free(a);
    return ok;
}

static void lsp_did_open(lsp_server_t *s, const cJSON *params) {
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
    const char *uri = lsp_str(td, "uri"), *text = lsp_str(td, "text");
    if (!uri || !text) {
        lsp_log(s, LSP_MSG_WARNING, "cimport: textDocument/didOpen without textDocument.uri and .text was ignored");
        return;
    }
    lsp_doc_t *d = lsp_doc_find(s, uri);
    if (!d) {
        d = calloc(1, sizeof *d);
        if (!d) abort();
        d->uri = strdup(uri);
        d->path = lsp_uri_to_path(uri);
        d->next = s->docs;
        s->docs = d;
    }
    free(d->language_id);
    free(d->text);
    const char *lid = lsp_str(td, "languageId");
    d->language_id = lid ? strdup(lid) : NULL;
    long version = 0;
    lsp_path_item(td, "version", &version);
    d->version = version;
    d->len = strlen(text);
    d->text = strdup(text);
    d->touched = ++s->tick;
}

static void lsp_did_change(lsp_server_t *s, const cJSON *params) {
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
    const char *uri = lsp_str(td, "uri");
    const cJSON *changes = cJSON_GetObjectItemCaseSensitive(params, "contentChanges");
    lsp_doc_t *d = uri ? lsp_doc_find(s, uri) : NULL;
    if (!d || !cJSON_IsArray(changes)) {
        lsp_log(s, LSP_MSG_WARNING, "cimport: textDocument/didChange for a document that is not open was ignored");
        return;
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, changes) {
        const char *text = lsp_str(c, "text");
        if (!text) continue;
        const cJSON *range = cJSON_GetObjectItemCaseSensitive(c, "range");
        size_t n = strlen(text);
        if (!range) { /* full text */
            free(d->text);
            d->text = strdup(text);
            d->len = n;
            continue;
        }
        long sl = 0, sc = 0, el = 0, ec = 0;
        lsp_path_item(range, "start.line", &sl);
        lsp_path_item(range, "start.character", &sc);
        lsp_path_item(range, "end.line", &el);
        lsp_path_item(range, "end.character", &ec);
        size_t start = lsp_text_offset(d->text, d->len, sl, sc, s->enc);
        size_t end = lsp_text_offset(d->text, d->len, el, ec, s->enc);
        if (end < start) end = start;
        lsp_text_replace(&d->text, &d->len, start, end, text, n);
    }
    long version;
    if (lsp_path_item(td, "version", &version)) d->version = version;
    d->touched = ++s->tick;
}

static void lsp_did_close(lsp_server_t *s, const cJSON *params) {
    const char *uri = lsp_str(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "uri");
    for (lsp_doc_t **pp = &s->docs; uri && *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->uri, uri) == 0) {
            lsp_doc_t *d = *pp;
            *pp = d->next;
            lsp_doc_free(d);
            return;
        }
    }
}

/* ---------- options ---------- */

/* A path from initializationOptions: relative ones are relative to the workspace root. */
static const char *lsp_resolve(lsp_server_t *s, const char *path) {
    if (path[0] == '/' || !s->root) return arena_strdup(s->arena, path);
    return arena_sprintf(s->arena, "%s/%s", s->root, path);
}

/* Applies initializationOptions to s->opts. False with *err set (a sentence) on a bad option. */
static bool lsp_apply_init_options(lsp_server_t *s, const cJSON *io, const char **err) {
    session_options_t *o = &s->opts;
    const char *v;
    if (!io || cJSON_IsNull(io)) return true;
    if (!cJSON_IsObject(io)) return *err = "initializationOptions must be an object", false;
    if (!lsp_opt_str(io, "offlineState", &v)) return *err = "initializationOptions.offlineState must be a path", false;
    if (v) o->offline_state = lsp_resolve(s, v);
    const cJSON *schemas = cJSON_GetObjectItemCaseSensitive(io, "schemas");
    if (schemas && !cJSON_IsNull(schemas)) {
        if (!cJSON_IsArray(schemas))
            return *err = "initializationOptions.schemas must be an array of schema file or directory paths", false;
        size_t n = (size_t)cJSON_GetArraySize(schemas);
        const char **arr = arena_alloc(s->arena, (n + 1) * sizeof *arr);
        size_t i = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, schemas) {
            if (!cJSON_IsString(e))
                return *err = "initializationOptions.schemas must be an array of schema file or directory paths", false;
            arr[i++] = lsp_resolve(s, e->valuestring);
        }
        o->schemas = arr;
        o->n_schemas = n;
    }
    if (!lsp_opt_str(io, "language", &v)) return *err = "initializationOptions.language must be a string", false;
    if (v) {
        if (!lang_from_name(v, &o->language))
            return *err = "initializationOptions.language must be typescript, python, go, csharp, java or yaml", false;
        o->language_set = true;
    }
    if (!lsp_opt_str(io, "stack", &v)) return *err = "initializationOptions.stack must be a string", false;
    if (v) o->stack = arena_strdup(s->arena, v);
    if (!lsp_opt_str(io, "project", &v)) return *err = "initializationOptions.project must be a string", false;
    if (v) o->project = arena_strdup(s->arena, v);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(io, "protect");
    if (b && !cJSON_IsNull(b)) {
        if (!cJSON_IsBool(b)) return *err = "initializationOptions.protect must be true or false", false;
        o->protect = cJSON_IsTrue(b);
    }
    b = cJSON_GetObjectItemCaseSensitive(io, "ignoreResidual");
    if (b && !cJSON_IsNull(b)) {
        if (!cJSON_IsBool(b)) return *err = "initializationOptions.ignoreResidual must be true or false", false;
        o->ignore_residual = cJSON_IsTrue(b);
    }
    if (!lsp_opt_str(io, "inputs", &v))
        return *err = "initializationOptions.inputs must be \"minimal\" or \"read\"", false;
    if (v) {
        if (strcmp(v, "minimal") == 0)
            o->inputs = INPUTS_MINIMAL;
        else if (strcmp(v, "read") == 0)
            o->inputs = INPUTS_READ;
        else
            return *err = "initializationOptions.inputs must be \"minimal\" or \"read\"", false;
    }
    if (!lsp_opt_str(io, "secrets", &v))
        return *err = "initializationOptions.secrets must be \"config\" or \"literal\"", false;
    if (v) {
        if (strcmp(v, "config") == 0)
            o->secrets = PCL_SECRETS_CONFIG;
        else if (strcmp(v, "literal") == 0)
            o->secrets = PCL_SECRETS_LITERAL;
        else
            return *err = "initializationOptions.secrets must be \"config\" or \"literal\"", false;
    }
    if (!lsp_opt_str(io, "secretsDir", &v)) return *err = "initializationOptions.secretsDir must be a path", false;
    if (v) o->secrets_dir = lsp_resolve(s, v);
    if (!lsp_opt_str(io, "secretsFile", &v)) return *err = "initializationOptions.secretsFile must be a path", false;
    if (v) o->secrets_file = lsp_resolve(s, v);
    b = cJSON_GetObjectItemCaseSensitive(io, "intoStack");
    if (b && !cJSON_IsNull(b)) {
        if (!cJSON_IsBool(b)) return *err = "initializationOptions.intoStack must be true or false", false;
        s->into_stack = cJSON_IsTrue(b);
    }
    const cJSON *mr = cJSON_GetObjectItemCaseSensitive(io, "maxRounds");
    if (mr && !cJSON_IsNull(mr)) {
        if (!cJSON_IsNumber(mr) || mr->valuedouble < 0 || mr->valuedouble > 100 ||
            mr->valuedouble != (double)mr->valueint)
            return *err = "initializationOptions.maxRounds must be a whole number from 0 to 100", false;
        o->max_rounds = mr->valueint;
    }
    return true;
}

/* ---------- lifecycle ---------- */

static void lsp_initialize(lsp_server_t *s, const cJSON *id, const cJSON *params) {
    if (!cJSON_IsObject(params)) {
        lsp_respond_error(s, id, LSP_INVALID_PARAMS, "initialize needs InitializeParams (an object)");
        return;
    }
    /* The workspace root first: relative option paths are relative to it. */
    free(s->root);
    s->root = NULL;
    const cJSON *folders = cJSON_GetObjectItemCaseSensitive(params, "workspaceFolders");
    const char *root_uri = lsp_str(params, "rootUri");
    if (!root_uri && cJSON_IsArray(folders) && cJSON_GetArraySize(folders) > 0)
        root_uri = lsp_str(cJSON_GetArrayItem(folders, 0), "uri");
    if (root_uri)
        s->root = lsp_uri_to_path(root_uri);
    else if (lsp_str(params, "rootPath"))
        s->root = strdup(lsp_str(params, "rootPath"));

    s->opts = s->base;
    const char *err = NULL;
    if (!lsp_apply_init_options(s, cJSON_GetObjectItemCaseSensitive(params, "initializationOptions"), &err)) {
        lsp_respond_error(s, id, LSP_INVALID_PARAMS, "%s", err);
        return;
    }
    /* The project name for URNs: the workspace's Pulumi.yaml when not given. */
    if (!s->opts.project && s->root) {
        project_info_t pi;
        if (project_read(s->arena, s->root, &pi, NULL) && pi.name) s->opts.project = pi.name;
    }

    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(params, "capabilities");
    s->enc = LSP_ENC_UTF16;
    const cJSON *encs =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(caps, "general"), "positionEncodings");
    const cJSON *e;
    if (!cJSON_IsArray(encs)) encs = NULL;
    cJSON_ArrayForEach(e, encs) {
        if (cJSON_IsString(e) && strcmp(e->valuestring, "utf-8") == 0) s->enc = LSP_ENC_UTF8;
    }
    s->cap_progress = lsp_bool_at(caps, "window.workDoneProgress");
    s->cap_document_changes = lsp_bool_at(caps, "workspace.workspaceEdit.documentChanges");
    s->cap_apply_edit = lsp_bool_at(caps, "workspace.applyEdit");
    s->cap_show_document = lsp_bool_at(caps, "window.showDocument.support");

    cJSON *r = cJSON_CreateObject();
    cJSON *c = cJSON_AddObjectToObject(r, "capabilities");
    cJSON_AddStringToObject(c, "positionEncoding", s->enc == LSP_ENC_UTF8 ? "utf-8" : "utf-16");
    cJSON *sync = cJSON_AddObjectToObject(c, "textDocumentSync");
    cJSON_AddBoolToObject(sync, "openClose", true);
    cJSON_AddNumberToObject(sync, "change", 2); /* incremental */
    cJSON *ec = cJSON_AddObjectToObject(c, "executeCommandProvider");
    cJSON *cmds = cJSON_AddArrayToObject(ec, "commands");
    cJSON_AddItemToArray(cmds, cJSON_CreateString(LSP_CMD_IMPORT_RESOURCE));
    cJSON_AddItemToArray(cmds, cJSON_CreateString(LSP_CMD_IMPORT_FILE));
    cJSON_AddItemToArray(cmds, cJSON_CreateString(LSP_CMD_SHOW_REPORT));
    cJSON_AddBoolToObject(ec, "workDoneProgress", true);
    cJSON *ca = cJSON_AddObjectToObject(c, "codeActionProvider");
    cJSON *kinds = cJSON_AddArrayToObject(ca, "codeActionKinds");
    cJSON_AddItemToArray(kinds, cJSON_CreateString("source"));
    cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
    cJSON_AddStringToObject(info, "name", "cimport");
    cJSON_AddStringToObject(info, "version", CIMPORT_VERSION);
    s->state = LSP_STATE_RUNNING;
    lsp_respond(s, id, r);
}

/* ---------- jobs ---------- */

static void lsp_job_free(lsp_job_t *j) {
    cJSON_Delete(j->id);
    cJSON_Delete(j->arg);
    cJSON_Delete(j->token);
    cJSON_Delete(j->result);
    free(j->command);
    free(j->target);
    free(j->done);
    free(j->stack);
    free(j->note);
    free(j->written);
    free(j);
}

static void lsp_job_remove(lsp_server_t *s, lsp_job_t *job) {
    for (lsp_job_t **pp = &s->jobs; *pp; pp = &(*pp)->next) {
        if (*pp == job) {
            *pp = job->next;
            lsp_job_free(job);
            return;
        }
    }
}

/* Ends a job with an error: shown to the user, and the request fails with RequestFailed. */
/* A failed command is reported once: as the error answer to the request, which editors show
 * (a window/showMessage as well made them show it twice). */
static void lsp_job_fail(lsp_server_t *s, lsp_job_t *job, const char *text) {
    lsp_progress(s, job->token, "end", NULL, "failed", -1);
    lsp_respond_error(s, job->id, LSP_REQUEST_FAILED, "%s", text);
    lsp_job_remove(s, job);
}

static void lsp_job_cancelled(lsp_server_t *s, lsp_job_t *job) {
    lsp_progress(s, job->token, "end", NULL, "cancelled", -1);
    lsp_respond_error(s, job->id, LSP_REQUEST_CANCELLED, "%s was cancelled; nothing was changed", job->command);
    lsp_job_remove(s, job);
}

/* $/cancelRequest for a command (a job). False when no job has that id. */
static bool lsp_cancel(lsp_server_t *s, const cJSON *params) {
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(params, "id");
    for (lsp_job_t *j = s->jobs; id && j; j = j->next) {
        if (!cJSON_Compare(j->id, id, true)) continue;
        if (j->phase == LSP_JOB_WAIT_TOKEN) {
            lsp_job_cancelled(s, j);
        } else if (j->phase == LSP_JOB_RUNNING) {
            /* The engine sees `stop` at its next turn: it cancels the provider calls in flight and
             * starts nothing more; the session then returns and `cancelled` answers the request. */
            j->cancelled = true;
            j->stop = 1;
        }
        /* LSP_JOB_WAIT_APPLY: the edit is with the editor already; its answer decides. */
        return true;
    }
    return false;
}

/* $/cancelRequest for a request that arrived while a command ran and waits in the queue: it is
 * answered as cancelled and never runs. */
static void lsp_cancel_queued(lsp_server_t *s, const cJSON *params) {
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(params, "id");
    lsp_queued_t *prev = NULL;
    for (lsp_queued_t *q = s->queue; id && q; prev = q, q = q->next) {
        cJSON *m = cJSON_ParseWithLength(q->body, q->len);
        const char *method = m ? lsp_str(m, "method") : NULL;
        bool match = method && cJSON_Compare(cJSON_GetObjectItemCaseSensitive(m, "id"), id, true);
        if (match) {
            lsp_respond_error(s, id, LSP_REQUEST_CANCELLED, "%s was cancelled before it ran", method);
            if (prev)
                prev->next = q->next;
            else
                s->queue = q->next;
            if (s->queue_tail == q) s->queue_tail = prev;
            free(q->body);
            free(q);
        }
        cJSON_Delete(m);
        if (match) return;
    }
}

/* Reads what the client sent while a command runs: cancels now, the rest later. */
static void lsp_poll_input(lsp_server_t *s) {
    if (!s->reader) return;
    for (;;) {
        char *body;
        size_t len;
        lsp_read_status_t st = lsp_reader_next(s->reader, false, &body, &len);
        if (st == LSP_READ_BAD_HEADER) {
            lsp_respond_error(s, NULL, LSP_PARSE_ERROR, "malformed message framing: %s", s->reader->error);
            continue;
        }
        if (st != LSP_READ_MESSAGE) return;
        cJSON *m = cJSON_ParseWithLength(body, len);
        const char *method = m ? lsp_str(m, "method") : NULL;
        if (method && strcmp(method, "$/cancelRequest") == 0) {
            const cJSON *params = cJSON_GetObjectItemCaseSensitive(m, "params");
            if (!lsp_cancel(s, params)) lsp_cancel_queued(s, params);
            free(body);
        } else {
            lsp_queued_t *q = calloc(1, sizeof *q);
            if (!q) abort();
            q->body = body;
            q->len = len;
            if (s->queue_tail)
                s->queue_tail->next = q;
            else
                s->queue = q;
            s->queue_tail = q;
        }
        cJSON_Delete(m);
    }
}

typedef struct lsp_run_ctx {
    lsp_server_t *s;
    lsp_job_t *job;
} lsp_run_ctx_t;

/* The session's events: a resource finished (progress), and every engine tick (about 250 ms), so a
 * cancel is seen even while one slow resource is in flight. */
static void lsp_on_event(void *user, const session_event_t *ev) {
    lsp_run_ctx_t *c = user;
    if (ev->kind == SESSION_EVENT_RESULT) {
        const import_result_t *r = ev->result;
        char msg[512];
        snprintf(msg, sizeof msg, "[%zu/%zu] %s %s", ev->done, ev->total,
                 r->status == IMPORT_OK ? "imported" : import_status_name(r->status), r->item->logical_name);
        lsp_progress(c->s, c->job->token, "report", NULL, msg, ev->total ? (int)(ev->done * 100 / ev->total) : 0);
    }
    if (ev->kind == SESSION_EVENT_RESULT || ev->kind == SESSION_EVENT_TICK) lsp_poll_input(c->s);
}

/* The last import's results document (cimport.showReport's page): whether its code went into the
 * program, and when not, why, among the run's diagnostics (the page points there). */
static void lsp_results_written(cJSON *doc, bool written, const char *why) {
    results_json_set_written(doc, written);
    cJSON *ds = cJSON_GetObjectItemCaseSensitive(doc, "diagnostics");
    if (!why || !cJSON_IsArray(ds)) return;
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "severity", "error");
    cJSON_AddStringToObject(d, "message", strncmp(why, "cimport: ", 9) == 0 ? why + 9 : why);
    cJSON_AddItemToArray(ds, d);
}

/* Appends "severity: message" lines for the diagnostics of l (infos only when with_info). */
static void lsp_diag_lines(buf_t *b, diag_list_t *l, bool with_info) {
    for (diag_t *d = l->head; d; d = d->next) {
        if (d->severity == DIAG_DEBUG || (d->severity == DIAG_INFO && !with_info)) continue;
        bool sep = b->len && b->data[b->len - 1] != '\n';
        buf_printf(b, "%s%s: %s", sep ? "\n" : "", diag_severity_name(d->severity), diag_format(l, d));
    }
}

/* The target program of a command: its current text in the editor (or on disk when it is not
 * open), language and version. */
typedef struct lsp_target {
    char *uri;
    char *path; /* the file's path (NULL for a URI that is not file://) */
    char *name; /* for messages: the file name */
    char *text;
    size_t len;
    lang_t lang;
    bool open;
    long version;
} lsp_target_t;

static void lsp_target_free(lsp_target_t *t) {
    free(t->uri);
    free(t->path);
    free(t->name);
    free(t->text);
}

/* The open program the user touched last (for a command without "uri"). */
static lsp_doc_t *lsp_last_program(lsp_server_t *s) {
    lsp_doc_t *best = NULL;
    for (lsp_doc_t *d = s->docs; d; d = d->next)
        if (lsp_doc_is_program(d) && (!best || d->touched > best->touched)) best = d;
    return best;
}

/* False with a message in *err (malloc'd). */
static bool lsp_target_load(lsp_server_t *s, const char *uri, lsp_target_t *t, char **err) {
    memset(t, 0, sizeof *t);
    lsp_doc_t *d = lsp_doc_find(s, uri);
    char *path = d && d->path ? strdup(d->path) : lsp_uri_to_path(uri);
    t->uri = strdup(d ? d->uri : uri);
    t->name = strdup(path ? lsp_basename(path) : uri);
    bool lang_ok = lsp_doc_lang(d ? d->language_id : NULL, path, &t->lang);
    if (!lang_ok && s->opts.language_set && s->opts.language != LANG_PCL) {
        t->lang = s->opts.language;
        lang_ok = true;
    }
    if (!lang_ok || t->lang == LANG_PCL) {
        *err = lsp_strf("cannot tell the program language of %s: open a TypeScript, Python, Go, C#, "
                        "Java or Pulumi YAML program, or set initializationOptions.language",
                        t->name);
        free(path);
        return false;
    }
    if (d) {
        t->text = malloc(d->len + 1);
        if (!t->text) abort();
        memcpy(t->text, d->text, d->len + 1);
        t->len = d->len;
        t->open = true;
        t->version = d->version;
    } else {
        arena_t *a = arena_new();
        diag_list_t dl;
        diag_list_init(&dl);
        char *text = path ? file_read_all(a, path, &t->len, &dl) : NULL;
        if (text) {
            t->text = malloc(t->len + 1);
            if (!t->text) abort();
            memcpy(t->text, text, t->len + 1);
        } else {
            *err = lsp_strf("%s is not open in the editor and cannot be read%s%s", uri, dl.head ? ": " : "",
                            dl.head ? diag_format(&dl, dl.head) : "");
        }
        diag_list_free(&dl);
        arena_free(a);
    }
    t->path = path;
    return t->text != NULL;
}

/* Whether two URIs name the same document (as lsp_doc_find matches them). */
static bool lsp_same_uri(const char *a, const char *b) {
    if (strcmp(a, b) == 0) return true;
    char *pa = lsp_uri_to_path(a), *pb = lsp_uri_to_path(b);
    bool same = pa && pb && strcmp(pa, pb) == 0;
    free(pa);
    free(pb);
    return same;
}

/* Whether the target's text changed since it was read for the import: the client sent a change of
 * it (or opened it with other text) that waits in the queue, or, when it was read from disk, the
 * file holds other text now. An edit computed against the old text must not go out then: a client
 * applies an edit without a version (not open, or no documentChanges) to whatever it holds. */
static bool lsp_target_changed(lsp_server_t *s, const lsp_target_t *t) {
    lsp_poll_input(s);
    for (lsp_queued_t *q = s->queue; q; q = q->next) {
        cJSON *m = cJSON_ParseWithLength(q->body, q->len);
        const char *method = m ? lsp_str(m, "method") : NULL;
        const cJSON *td =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m, "params"), "textDocument");
        const char *uri = lsp_str(td, "uri"), *text = lsp_str(td, "text");
        bool hit = method && uri && lsp_same_uri(uri, t->uri) &&
                   (strcmp(method, "textDocument/didChange") == 0 || strcmp(method, "textDocument/didClose") == 0 ||
                    (strcmp(method, "textDocument/didOpen") == 0 && (!text || strcmp(text, t->text) != 0)));
        cJSON_Delete(m);
        if (hit) return true;
    }
    if (t->open || !t->path) return false;
    arena_t *a = arena_new();
    diag_list_t dl;
    diag_list_init(&dl);
    size_t len = 0;
    const char *now = file_read_all(a, t->path, &len, &dl);
    bool changed = !now || len != t->len || memcmp(now, t->text, len) != 0;
    diag_list_free(&dl);
    arena_free(a);
    return changed;
}

/* What a committed import wrote before its edit was sent, for the messages of an edit that does not
 * go in (malloc'd; NULL when nothing): "the resources were imported into stack S", "N secret values
 * were saved to F" (or encrypted into the stack config). */
static char *lsp_written_text(const import_session_t *p, bool into_stack) {
    buf_t b;
    buf_init(&b);
    if (into_stack && p->stack_written)
        buf_printf(&b, "the resources were imported into stack %s", stack_store_describe(p->stack_store));
    if (p->secrets_saved) {
        size_t n = p->gen.n_secrets;
        buf_printf(&b, "%s%zu secret value%s %s ", b.len ? " and " : "", n, n == 1 ? "" : "s", n == 1 ? "was" : "were");
        if (p->secrets.to_config)
            buf_printf(&b, "encrypted into %s (`secure:` stack config)", p->secrets.config_path);
        else
            buf_printf(&b, "saved to %s", p->secrets.file);
    }
    if (!b.len) {
        buf_free(&b);
        return NULL;
    }
    return buf_take(&b);
}

/* initializationOptions.intoStack: the stack selected for the workspace's project on its backend,
 * found as `pulumi` finds it (stacks/workspace.h), for the session to import into (into_stack); the
 * stack, project and stack config of the run follow it. False with a message in *err (malloc'd). */
static bool lsp_stack_find(lsp_server_t *s, arena_t *a, workspace_t *ws, session_options_t *o, char **err) {
    diag_list_t dl;
    diag_list_init(&dl);
    bool ok =
        workspace_discover_in(a, s->root ? s->root : ".", o->stack, ws, &dl) && workspace_stack_ref_fits(a, ws, &dl);
    if (!ok)
        *err = lsp_strf("cimport: cannot find the stack to import into: %s", dl.head ? diag_format(&dl, dl.head) : "");
    diag_list_free(&dl);
    if (!ok) return false;
    session_options_from_workspace(o, ws, a); /* the stack, project and stack config it gives */
    switch (workspace_stack_status(ws, o->stack)) {
    case WORKSPACE_NO_PROJECT:
        *err = lsp_strf("cimport: cannot import into a stack: there is no Pulumi.yaml in the workspace or a directory "
                        "above it");
        return false;
    case WORKSPACE_NO_STACK:
        *err = lsp_strf("cimport: cannot import into a stack: no stack is selected%s%s (`pulumi stack select NAME` "
                        "or initializationOptions.stack)",
                        ws->stack_elsewhere ? "; the workspace selects only for other backends: " : "",
                        ws->stack_elsewhere ? ws->stack_elsewhere : "");
        return false;
    case WORKSPACE_NO_BACKEND:
        *err = lsp_strf("cimport: cannot import into a stack: no backend is configured (`pulumi login`, "
                        "PULUMI_BACKEND_URL or backend.url)");
        return false;
    case WORKSPACE_BACKEND_OTHER:
        *err = lsp_strf("cimport: cannot import into a stack: cimport cannot write stacks of the %s %s",
                        backend_kind_name(ws->backend), ws->backend_shown);
        return false;
    case WORKSPACE_STACK_WRITABLE: break;
    }
    diag_list_init(&dl);
    ok = workspace_project_fits(ws, o->project, &dl); /* the command line's check of --project */
    if (!ok) *err = lsp_strf("cimport: cannot import into a stack: %s", diag_format(&dl, dl.head));
    diag_list_free(&dl);
    if (!ok) return false;
    o->into_stack = ws;
    return true;
}

/* Runs a job's import and sends the edit (or the failure). */
static void lsp_job_run(lsp_server_t *s, lsp_job_t *job) {
    job->phase = LSP_JOB_RUNNING;
    lsp_poll_input(s);
    if (job->cancelled) {
        lsp_job_cancelled(s, job);
        return;
    }
    const cJSON *arg = job->arg;
    bool is_file = strcmp(job->command, LSP_CMD_IMPORT_FILE) == 0;
    const char *uri = lsp_str(arg, "uri");
    if (!uri) {
        lsp_doc_t *d = lsp_last_program(s);
        if (!d) {
            lsp_respond_error(s, job->id, LSP_INVALID_PARAMS,
                              "%s needs \"uri\": the program document to import into (no program is open)",
                              job->command);
            lsp_job_remove(s, job);
            return;
        }
        uri = d->uri;
    }
    lsp_target_t t;
    char *err = NULL;
    if (!lsp_target_load(s, uri, &t, &err)) {
        lsp_target_free(&t);
        lsp_job_fail(s, job, err);
        free(err);
        return;
    }
    job->target = strdup(t.name);

    session_options_t o = s->opts;
    o.language = t.lang;
    o.language_set = true;
    o.program_text = t.text; /* the editor's text: spliced here, the edit goes back to the editor */
    o.program_len = t.len;
    o.program_name = t.name;
    o.program_path = t.path; /* its program's other files are read from disk */
    lsp_run_ctx_t ctx = {.s = s, .job = job};
    o.on_event = lsp_on_event;
    o.user = &ctx;
    o.stop = &job->stop;
    arena_t *wa = arena_new(); /* the workspace: the stack of intoStack, the stack config, the secrets */
    workspace_t ws;
    memset(&ws, 0, sizeof ws);
    if (s->into_stack && !lsp_stack_find(s, wa, &ws, &o, &err)) {
        arena_free(wa);
        lsp_target_free(&t);
        lsp_job_fail(s, job, err);
        free(err);
        return;
    }
    if (!s->into_stack) { /* the selected stack and its config file, as the command line finds them */
        diag_list_t wdl;
        diag_list_init(&wdl);
        if (workspace_discover_in(wa, s->root ? s->root : ".", o.stack, &ws, &wdl) &&
            workspace_stack_ref_fits(wa, &ws, &wdl))
            session_options_from_workspace(&o, &ws, wa);
        else
            memset(&ws, 0, sizeof ws);
        diag_list_free(&wdl);
        /* No stack is written: the code imports the resources with the `import` option (as the
         * command line's does when it writes no stack), else `pulumi up` would create them. */
        o.import_option = true;
        o.no_stack_reason = "initializationOptions.intoStack is not set";
    }
    /* The document as the command line judges --insert-into's program (session_program_fits). */
    diag_list_t pdl;
    diag_list_init(&pdl);
    if (!session_program_fits(wa, &ws, t.path, t.lang, &pdl)) {
        err = lsp_strf("cimport: cannot import into %s: %s", t.name, diag_format(&pdl, pdl.head));
        diag_list_free(&pdl);
        arena_free(wa);
        lsp_target_free(&t);
        lsp_job_fail(s, job, err);
        free(err);
        return;
    }
    diag_list_free(&pdl);
    /* Secret values without a passphrase go beside the project (else the workspace root), where the
     * note sends the user, not into the server's working directory (an editor starts it anywhere). */
    if (!o.secrets_file && !o.secrets_dir) o.secrets_dir = ws.have_project && ws.project_dir ? ws.project_dir : s->root;
    import_session_t p;
    session_init(&p, &o);
    arena_t *a = p.arena;
    char *written = NULL; /* what the commit wrote (lsp_written_text): the job's once the edit is sent */
    diag_list_t dl;
    diag_list_init(&dl);
    import_file_t *file;
    const char *what;
    if (is_file) {
        const char *path_arg = lsp_str(arg, "path");
        /* a path, not a URI, is the workspace root's (lsp_resolve), as the server's other paths */
        bool is_uri = strncmp(path_arg, "file://", 7) == 0;
        char *path = is_uri ? lsp_uri_to_path(path_arg) : strdup(lsp_resolve(s, path_arg));
        lsp_doc_t *fd = is_uri ? lsp_doc_find(s, path_arg) : lsp_doc_find_path(s, path);
        const char *display = arena_strdup(a, path ? path : path_arg);
        if (fd)
            file = import_file_parse(a, fd->text, fd->len, display, &dl); /* its unsaved text */
        else
            file = path ? import_file_load(a, display, &dl) : NULL;
        if (!path) diag_add(&dl, DIAG_ERROR, DIAG_INPUT, path_arg, NULL, "only file:// import files can be read");
        free(path);
        what = arena_sprintf(a, "the resources of %s", lsp_basename(display));
    } else {
        file = import_file_inline(a, lsp_str(arg, "type"), lsp_str(arg, "name"), lsp_str(arg, "id"),
                                  lsp_str(arg, "parent"), lsp_str(arg, "provider"), lsp_str(arg, "properties"), &dl);
        if (file && lsp_str(arg, "version")) file->specs[0].version = lsp_str(arg, "version");
        what = arena_sprintf(a, "%s", lsp_str(arg, "name"));
    }
    /* Where secrets go, and the passphrase checked against the stack, before anything runs. */
    session_prepare(&p, &dl);
    buf_t msg;
    buf_init(&msg);
    if (!file || diag_has_errors(&dl)) {
        buf_printf(&msg, "cimport: cannot import %s:\n", what);
        lsp_diag_lines(&msg, &dl, true);
        lsp_job_fail(s, job, msg.data);
        goto done;
    }

    lsp_progress(s, job->token, "begin", arena_sprintf(a, "Importing %s into %s", what, t.name), NULL, 0);
    bool ran = session_run(&p, file);
    lsp_poll_input(s);
    if (job->cancelled) {
        lsp_job_cancelled(s, job);
        goto done;
    }
    if (!ran) {
        buf_printf(&msg, "cimport: cannot import %s:\n", what);
        lsp_diag_lines(&msg, &p.diags, true);
        lsp_job_fail(s, job, msg.data);
        goto done;
    }
    size_t total = p.plan->n_items, failed = total - p.n_ok;
    /* Kept for cimport.showReport; secret values are cut out when the page is written. */
    cJSON_Delete(s->last_results);
    s->last_results = session_results_json(&p, true);
    if (!s->opts.show_secrets) session_redact_secret_ids(&p, s->last_results); /* IDs that are secret values */
    lsp_results_written(s->last_results, false, NULL);                         /* until the code is in the program */
    /* "read", not "imported": the language server only inserts code; no stack records the resources yet. */
    buf_printf(&msg, "cimport: read %zu of %zu resource%s for %s (%s)", p.n_ok, total, total == 1 ? "" : "s", t.name,
               session_checked_text(&p));
    if (failed) buf_printf(&msg, ", %zu failed:", failed);
    size_t header = msg.len;
    /* The failures grouped by cause, as the command line shows them. */
    buf_t details;
    buf_init(&details);
    session_failures_text(&p, &details, SESSION_FAILURES_EDITOR_DIAGS);
    if (details.len) details.data[--details.len] = '\0'; /* the last line's '\n' */
    lsp_diag_lines(&details, &p.diags, true);
    if (details.len) buf_printf(&msg, "\n%s", details.data);
    buf_free(&details);
    if (!p.code) {
        if (p.n_ok > 0 && header == msg.len) buf_puts(&msg, "\nerror: no code could be generated");
        lsp_job_fail(s, job, msg.data);
        goto done;
    }

    /* intoStack: the resources merged into the stack, written below with the secret values. */
    if (o.into_stack && !session_stack_merge(&p)) {
        buf_t e;
        buf_init(&e);
        buf_printf(&e, "cimport: nothing was imported into the stack %s, and the code was not inserted:\n",
                   stack_store_describe(p.stack_store));
        lsp_diag_lines(&e, &p.diags, true);
        lsp_job_fail(s, job, e.data);
        buf_free(&e);
        goto done;
    }
    /* the report says which resources the write adds and which the stack holds already */
    if (o.into_stack) results_json_add_stack_outcomes(s->last_results, &p, &p.stack_report);

    /* The code into the editor's text; the secret values it refers to and the stack (intoStack) are
     * saved first (one transaction), before the edit is sent. */
    diag_list_t sd, wd;
    diag_list_init(&sd);
    diag_list_init(&wd);
    buf_t b;
    buf_init(&b);
    bool placed = session_place_code(&p, s->splicer, &sd);
    if (!placed) {
        buf_printf(&b, "cimport: cannot insert the code into %s (nothing was changed):\n", t.name);
        lsp_diag_lines(&b, &sd, true);
        lsp_job_fail(s, job, b.data);
    } else {
        if (p.changed) {
            char *d = session_program_diff(&p);
            if (d) {
                results_json_add_program_diff(s->last_results, &p, d); /* with its twin without secrets */
            } else { /* the edit itself does not need libgit2; the report's diff of the program does */
                const char *why = dynlib_git2_error();
                lsp_log(s, 2, *why ? why : "cannot compute the program's diff for the report (libgit2 failed)");
            }
            free(d);
        }
        if (lsp_target_changed(s, &t)) {
            buf_printf(&b,
                       "cimport: %s changed while cimport imported into it (the editor sent a change, or the file on "
                       "disk was rewritten), and the code was placed in the text it had before; nothing was inserted "
                       "or written: run the command again",
                       t.name);
            lsp_job_fail(s, job, b.data);
            placed = false;
        } else if (!session_commit(&p, &wd)) {
            placed = false;
            if (o.into_stack && p.stack_undo_failed)
                buf_printf(&b,
                           "cimport: the code was not inserted, and the write to the stack %s could not be taken "
                           "back:\n",
                           stack_store_describe(p.stack_store));
            else if (o.into_stack && stack_store_unconfirmed(p.stack_store))
                buf_printf(&b,
                           "cimport: the code was not inserted, and whether the import into the stack %s landed is "
                           "not known (%s):\n",
                           stack_store_describe(p.stack_store), stack_store_unconfirmed(p.stack_store));
            else if (o.into_stack)
                buf_printf(&b,
                           "cimport: nothing was written (the stack %s is as it was), so the code was not inserted:\n",
                           stack_store_describe(p.stack_store));
            else
                buf_puts(&b, "cimport: the secret values could not be saved, so the code was not inserted:\n");
            lsp_diag_lines(&b, &wd, true);
            lsp_job_fail(s, job, b.data);
        }
    }
    if (!placed) lsp_results_written(s->last_results, false, b.data);
    char *note = placed ? session_secrets_note(&p) : NULL;
    if (note) {
        buf_printf(&b, "cimport: %s", note);
        lsp_show(s, LSP_MSG_INFO, b.data);
        free(note);
    }
    /* The commit may have taken a while (a lock, a stack's backend): a change the editor sent meanwhile
     * is looked for again, as an edit without a version would go into the changed text. */
    written = placed ? lsp_written_text(&p, o.into_stack) : NULL;
    if (placed && lsp_target_changed(s, &t)) {
        buf_free(&b);
        buf_init(&b);
        buf_printf(&b,
                   "cimport: %s changed while cimport imported into it (the editor sent a change, or the file on disk "
                   "was rewritten) after %s: the code was not inserted: run the command again",
                   t.name, written ? written : "the import was saved");
        lsp_results_written(s->last_results, false, b.data);
        lsp_job_fail(s, job, b.data);
        placed = false;
    }
    buf_free(&b);
    diag_list_free(&sd);
    diag_list_free(&wd);
    if (!placed) goto done;
    if (header != msg.len) lsp_show(s, failed ? LSP_MSG_ERROR : LSP_MSG_WARNING, msg.data);
    if (o.into_stack) {
        char *st =
            p.stack_written
                ? lsp_strf("cimport: imported %zu of %zu resource%s into stack %s%s", p.stack_n_import, total,
                           total == 1 ? "" : "s", stack_store_describe(p.stack_store),
                           p.stack_n_same ? arena_sprintf(a, ", %zu already in it", p.stack_n_same) : "")
                /* with failures, "the resources" would take in the ones never read (as the CLI says it) */
                : lsp_strf("cimport: %s already in stack %s: nothing to import",
                           failed ? (p.n_ok == 1 ? "the one read is" : arena_sprintf(a, "the %zu read are", p.n_ok))
                           : p.n_ok == 1 ? "the resource is"
                                         : "the resources are",
                           stack_store_describe(p.stack_store));
        lsp_show(s, LSP_MSG_INFO, st);
        free(st);
    }
    /* No stack: what the code does instead, said once the code is in (or handed back in the result). */
    char *code_note = NULL;
    /* ... which `pulumi up` keeps only for resources whose inputs match what was read and pass Check */
    size_t n_differ = 0, n_rejected = 0;
    for (size_t i = 0; p.results && p.plan && i < p.plan->n_items; i++)
        if (p.results[i].status == IMPORT_OK) {
            n_differ += p.results[i].n_residual > 0 || p.results[i].residual_unnamed;
            n_rejected += p.results[i].check_rejected;
        }
    if (!o.into_stack && p.changed && p.n_ok > 0 && (n_differ || n_rejected))
        code_note = lsp_strf(
            "cimport: nothing was imported into a stack yet: the code for %s has the `import` resource option, but "
            "%s%s%s (listed above): edit the inputs first",
            t.name,
            n_differ ? arena_sprintf(a,
                                     "`pulumi up` refuses to import %zu resource%s whose inputs still differ from what "
                                     "the provider read",
                                     n_differ, n_differ == 1 ? "" : "s")
                     : "",
            n_differ && n_rejected ? ", and " : "",
            n_rejected
                ? arena_sprintf(a, "`pulumi up` fails on %zu resource%s whose inputs the provider's Check rejects",
                                n_rejected, n_rejected == 1 ? "" : "s")
                : "");
    else if (!o.into_stack && p.changed && p.n_ok > 0) {
        const char *it = p.n_ok == 1 ? "it" : "them";
        code_note = lsp_strf("cimport: nothing was imported into a stack yet: the code for %s imports the resource%s "
                             "with the `import` resource option, so `pulumi up` imports %s instead of creating %s",
                             t.name, p.n_ok == 1 ? "" : "s", it, it);
    }

    cJSON *result = cJSON_CreateObject();
    cJSON_AddBoolToObject(result, "applied", false);
    cJSON_AddBoolToObject(result, "changed", p.changed);
    cJSON_AddNumberToObject(result, "imported", (double)p.n_ok);
    if (o.into_stack) {
        cJSON_AddStringToObject(result, "stack", stack_store_describe(p.stack_store));
        cJSON_AddNumberToObject(result, "importedIntoStack", p.stack_written ? (double)p.stack_n_import : 0);
    } else {
        cJSON_AddBoolToObject(result, "importOption", true); /* in no stack: the code imports them */
    }
    cJSON_AddNumberToObject(result, "failed", (double)failed);
    cJSON_AddNumberToObject(result, "inserted", (double)p.splice.inserted);
    cJSON_AddNumberToObject(result, "replaced", (double)p.splice.replaced);
    cJSON_AddNumberToObject(result, "importsAdded", (double)p.splice.imports_added);
    cJSON_AddNumberToObject(result, "renamed", (double)p.splice.renamed);
    if (!p.changed) {
        lsp_results_written(s->last_results, true, NULL); /* the program holds the code already */
        lsp_progress(s, job->token, "end", NULL, "no change", -1);
        char *nc = lsp_strf("cimport: %s already defines %s; nothing to change", t.name, what);
        lsp_show(s, LSP_MSG_INFO, nc);
        free(nc);
        lsp_respond(s, job->id, result);
        lsp_job_remove(s, job);
        goto done;
    }
    lsp_edit_t *edits;
    size_t n_edits = lsp_text_diff(t.text, t.len, p.new_text, p.new_len, &edits);
    cJSON *text_edits = lsp_edits_json(t.text, t.len, p.new_text, edits, n_edits, s->enc);
    free(edits);
    cJSON *we = cJSON_CreateObject();
    if (s->cap_document_changes && t.open) {
        cJSON *dc = cJSON_AddArrayToObject(we, "documentChanges");
        cJSON *tde = cJSON_CreateObject();
        cJSON *tdi = cJSON_AddObjectToObject(tde, "textDocument");
        cJSON_AddStringToObject(tdi, "uri", t.uri);
        cJSON_AddNumberToObject(tdi, "version", (double)t.version);
        cJSON_AddItemToObject(tde, "edits", text_edits);
        cJSON_AddItemToArray(dc, tde);
    } else {
        cJSON *ch = cJSON_AddObjectToObject(we, "changes");
        cJSON_AddItemToObject(ch, t.uri, text_edits);
    }
    if (!s->cap_apply_edit) {
        /* The client cannot take edits from the server: hand the edit back in the result (whether it
         * is applied is the client's; the page does not say either way). */
        cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(s->last_results, "summary"),
                                                "written");
        lsp_progress(s, job->token, "end", NULL,
                     arena_sprintf(a, "read %zu of %zu; the edit is in the command's result", p.n_ok, total), -1);
        cJSON_AddItemToObject(result, "edit", we);
        if (code_note) lsp_show(s, LSP_MSG_INFO, code_note);
        free(code_note);
        lsp_respond(s, job->id, result);
        lsp_job_remove(s, job);
        goto done;
    }
    cJSON *ap = cJSON_CreateObject();
    cJSON_AddStringToObject(ap, "label", arena_sprintf(a, "Import %s", what));
    cJSON_AddItemToObject(ap, "edit", we);
    job->result = result;
    /* the progress ends when the editor answers: only then is the code inserted, or not */
    job->done = lsp_strf("read %zu of %zu", p.n_ok, total);
    job->results = s->last_results;
    if (o.into_stack && p.stack_written) job->stack = strdup(stack_store_describe(p.stack_store));
    job->note = code_note;
    job->written = written;
    written = NULL;
    job->phase = LSP_JOB_WAIT_APPLY;
    job->wait_id = lsp_request(s, "workspace/applyEdit", ap);
done:
    free(written);
    buf_free(&msg);
    diag_list_free(&dl);
    session_free(&p);
    arena_free(wa);
    lsp_target_free(&t);
}

/* cimport.showReport [{"path"?}]: the import report of the session's last import, written to
 * `path` (default .cimport/report.html under the workspace root, else the working directory) and
 * opened in the user's browser through window/showDocument when the client offers it. */
static void lsp_show_report(lsp_server_t *s, const cJSON *id, const cJSON *params) {
    if (!s->last_results) {
        lsp_respond_error(s, id, LSP_REQUEST_FAILED,
                          "no import has run in this session yet: run %s or %s first, then %s shows its report",
                          LSP_CMD_IMPORT_RESOURCE, LSP_CMD_IMPORT_FILE, LSP_CMD_SHOW_REPORT);
        return;
    }
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
    const cJSON *arg = cJSON_IsArray(args) ? cJSON_GetArrayItem(args, 0) : NULL;
    const char *path = NULL;
    if (arg && (!cJSON_IsObject(arg) || !lsp_opt_str(arg, "path", &path))) {
        lsp_respond_error(s, id, LSP_INVALID_PARAMS, "%s takes no argument or {\"path\": string}", LSP_CMD_SHOW_REPORT);
        return;
    }
    char *target;
    if (path) {
        target = strncmp(path, "file://", 7) == 0 ? lsp_uri_to_path(path) : strdup(lsp_resolve(s, path));
    } else {
        char *dir = lsp_strf("%s/.cimport", s->root ? s->root : ".");
        mkdir(dir, 0755);
        target = lsp_strf("%s/report.html", dir);
        free(dir);
    }
    if (!target) {
        lsp_respond_error(s, id, LSP_INVALID_PARAMS, "%s: \"path\" is not a file path or file:// URI",
                          LSP_CMD_SHOW_REPORT);
        return;
    }
    report_options_t ro = {.show_secrets = s->opts.show_secrets};
    diag_list_t dl;
    diag_list_init(&dl);
    if (!report_write(target, s->last_results, &ro, &dl)) {
        buf_t b;
        buf_init(&b);
        buf_puts(&b, "cimport: the report could not be written:\n");
        lsp_diag_lines(&b, &dl, true);
        lsp_show(s, LSP_MSG_ERROR, b.data);
        lsp_respond_error(s, id, LSP_REQUEST_FAILED, "%s", b.data);
        buf_free(&b);
        diag_list_free(&dl);
        free(target);
        return;
    }
    diag_list_free(&dl);
    char *abs = realpath(target, NULL);
    char *uri = lsp_path_to_uri(abs ? abs : target);
    cJSON *result = cJSON_CreateObject();
    cJSON_AddStringToObject(result, "path", abs ? abs : target);
    cJSON_AddStringToObject(result, "uri", uri);
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(s->last_results, "summary");
    if (sum) cJSON_AddItemToObject(result, "summary", cJSON_Duplicate(sum, true));
    cJSON_AddBoolToObject(result, "opened", s->cap_show_document);
    if (s->cap_show_document) {
        cJSON *sd = cJSON_CreateObject();
        cJSON_AddStringToObject(sd, "uri", uri);
        cJSON_AddBoolToObject(sd, "external", true);
        lsp_request(s, "window/showDocument", sd);
    } else {
        char *note = lsp_strf("cimport: the import report is %s", abs ? abs : target);
        lsp_show(s, LSP_MSG_INFO, note);
        free(note);
    }
    lsp_respond(s, id, result);
    free(uri);
    free(abs);
    free(target);
}

static void lsp_execute(lsp_server_t *s, const cJSON *id, const cJSON *params) {
    const char *command = lsp_str(params, "command");
    if (!command) {
        lsp_respond_error(s, id, LSP_INVALID_PARAMS, "workspace/executeCommand needs \"command\"");
        return;
    }
    bool is_resource = strcmp(command, LSP_CMD_IMPORT_RESOURCE) == 0;
    bool is_file = strcmp(command, LSP_CMD_IMPORT_FILE) == 0;
    if (strcmp(command, LSP_CMD_SHOW_REPORT) == 0) {
        lsp_show_report(s, id, params);
        return;
    }
    if (!is_resource && !is_file) {
        lsp_respond_error(s, id, LSP_INVALID_PARAMS, "unknown command '%s': cimport offers %s, %s and %s", command,
                          LSP_CMD_IMPORT_RESOURCE, LSP_CMD_IMPORT_FILE, LSP_CMD_SHOW_REPORT);
        return;
    }
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
    const cJSON *arg = cJSON_IsArray(args) ? cJSON_GetArrayItem(args, 0) : NULL;
    if (!cJSON_IsObject(arg)) {
        lsp_respond_error(s, id, LSP_INVALID_PARAMS,
                          is_resource ? "%s takes one argument: {\"type\", \"name\", \"id\", \"uri\"}"
                                      : "%s takes one argument: {\"path\", \"uri\"}",
                          command);
        return;
    }
    const char *v;
    if (is_resource) {
        static const char *const required[] = {"type", "name", "id"};
        for (size_t i = 0; i < 3; i++)
            if (!lsp_str(arg, required[i])) {
                lsp_respond_error(s, id, LSP_INVALID_PARAMS,
                                  "%s needs \"%s\" (a string): the resource's type token, name and import ID", command,
                                  required[i]);
                return;
            }
        static const char *const optional[] = {"parent", "provider", "version", "properties", "uri"};
        for (size_t i = 0; i < 5; i++)
            if (!lsp_opt_str(arg, optional[i], &v)) {
                lsp_respond_error(s, id, LSP_INVALID_PARAMS, "%s: \"%s\" must be a string", command, optional[i]);
                return;
            }
    } else {
        if (!lsp_str(arg, "path")) {
            lsp_respond_error(s, id, LSP_INVALID_PARAMS, "%s needs \"path\" (a string): the import file's path or URI",
                              command);
            return;
        }
        if (!lsp_opt_str(arg, "uri", &v)) {
            lsp_respond_error(s, id, LSP_INVALID_PARAMS, "%s: \"uri\" must be a string", command);
            return;
        }
    }
    lsp_job_t *job = calloc(1, sizeof *job);
    if (!job) abort();
    job->id = cJSON_Duplicate(id, true);
    job->command = strdup(command);
    job->arg = cJSON_Duplicate(arg, true);
    job->next = s->jobs;
    s->jobs = job;
    const cJSON *token = cJSON_GetObjectItemCaseSensitive(params, "workDoneToken");
    if (cJSON_IsString(token) || cJSON_IsNumber(token)) {
        job->token = cJSON_Duplicate(token, true);
    } else if (s->cap_progress) {
        /* The token must exist in the client before progress is reported on it. */
        char name[64];
        snprintf(name, sizeof name, "cimport-%ld", s->next_id + 1);
        job->token = cJSON_CreateString(name);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "token", name);
        job->phase = LSP_JOB_WAIT_TOKEN;
        job->wait_id = lsp_request(s, "window/workDoneProgress/create", p);
        return;
    }
    lsp_job_run(s, job);
}

/* An answer to one of the server's requests. */
static void lsp_on_response(lsp_server_t *s, const cJSON *m) {
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
    if (!cJSON_IsNumber(id)) return;
    long wid = lsp_json_long(id->valuedouble);
    lsp_job_t *job = NULL;
    for (lsp_job_t *j = s->jobs; j && !job; j = j->next)
        if (j->phase != LSP_JOB_RUNNING && j->wait_id == wid) job = j;
    if (!job) return;
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(m, "error");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(m, "result");
    if (job->phase == LSP_JOB_WAIT_TOKEN) {
        if (err) { /* no progress then, but the command still runs */
            cJSON_Delete(job->token);
            job->token = NULL;
        }
        lsp_job_run(s, job);
        return;
    }
    bool applied = !err && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "applied"));
    cJSON_ReplaceItemInObjectCaseSensitive(job->result, "applied", cJSON_CreateBool(applied));
    char *end = lsp_strf("%s; %s", job->done, applied ? "code inserted" : "the editor did not apply the edit");
    if (job->results && job->results == s->last_results) lsp_results_written(s->last_results, applied, NULL);
    lsp_progress(s, job->token, "end", NULL, end, -1);
    free(end);
    if (!applied) {
        const char *reason = err ? lsp_str(err, "message") : lsp_str(res, "failureReason");
        /* The stack (intoStack) and the secret values were written before the edit was sent, and stay
         * so; a second run finds the resources there and inserts their code. */
        char *text =
            job->written
                ? lsp_strf("cimport: the editor did not apply the edit to %s%s%s, but %s before the edit was sent: "
                           "run the command again to insert the code",
                           job->target, reason ? ": " : "", reason ? reason : "", job->written)
                : lsp_strf("cimport: the editor did not apply the edit to %s%s%s; run the command again", job->target,
                           reason ? ": " : "", reason ? reason : "");
        lsp_show(s, LSP_MSG_ERROR, text);
        if (job->results && job->results == s->last_results)
            lsp_results_written(s->last_results, job->stack != NULL, text);
        if (reason) cJSON_AddStringToObject(job->result, "failureReason", reason);
        free(text);
    } else if (job->note) {
        lsp_show(s, LSP_MSG_INFO, job->note);
    }
    cJSON *result = job->result;
    job->result = NULL;
    lsp_respond(s, job->id, result);
    lsp_job_remove(s, job);
}

/* ---------- code actions ---------- */

/* The main program of the project whose Pulumi.yaml is in dir or above it (up to the root). */
static char *lsp_main_program(lsp_server_t *s, const char *start_dir) {
    static const struct {
        const char *runtime;
        const char *files[3];
    } mains[] = {
        {"nodejs", {"index.ts", "index.js", NULL}},
        {"python", {"__main__.py", NULL, NULL}},
        {"go", {"main.go", NULL, NULL}},
        {"dotnet", {"Program.cs", NULL, NULL}},
        {"yaml", {"Pulumi.yaml", NULL, NULL}},
    };
    char *dir = strdup(start_dir);
    char *found = NULL;
    arena_t *a = arena_new();
    while (dir && !found) {
        project_info_t pi;
        if (project_read(a, dir, &pi, NULL)) {
            const char *rt = pi.runtime ? pi.runtime : "";
            if (!strcmp(rt, "java")) { /* no fixed name: the source file holding Pulumi.run */
                workspace_t jw = {.have_project = true, .project = pi, .project_dir = dir};
                const char *jp = session_java_program(a, &jw);
                found = jp ? strdup(jp) : NULL;
            }
            for (size_t i = 0; i < sizeof mains / sizeof mains[0] && !found; i++) {
                if (strcmp(rt, mains[i].runtime) != 0) continue;
                for (size_t k = 0; k < 3 && mains[i].files[k] && !found; k++) {
                    char *p = lsp_strf("%s/%s", dir, mains[i].files[k]);
                    if (access(p, R_OK) == 0)
                        found = p;
                    else
                        free(p);
                }
            }
            break;
        }
        if ((s->root && strcmp(dir, s->root) == 0) || strcmp(dir, "/") == 0 || !strchr(dir, '/')) break;
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
    arena_free(a);
    free(dir);
    return found;
}

/* Whether the command would take the document at path as its program: session_program_fits for the
 * workspace the command runs in (the root's), so that no action is offered that it then refuses (a
 * JavaScript file, a program of a nested project or of another language than the runtime's). */
static bool lsp_target_fits(arena_t *a, const workspace_t *ws, const char *path, const char *language_id) {
    lang_t l;
    if (!path || !lsp_doc_lang(language_id, path, &l)) return path == NULL;
    diag_list_t d;
    diag_list_init(&d);
    bool fits = session_program_fits(a, ws, path, l, &d);
    diag_list_free(&d);
    return fits;
}

static void lsp_add_action(cJSON *actions, const char *import_uri, const char *target_uri, const char *target_name) {
    char *title = lsp_strf("Import these resources into %s", target_name);
    cJSON *ca = cJSON_CreateObject();
    cJSON_AddStringToObject(ca, "title", title);
    cJSON_AddStringToObject(ca, "kind", "source");
    cJSON *cmd = cJSON_AddObjectToObject(ca, "command");
    cJSON_AddStringToObject(cmd, "title", title);
    cJSON_AddStringToObject(cmd, "command", LSP_CMD_IMPORT_FILE);
    cJSON *args = cJSON_AddArrayToObject(cmd, "arguments");
    cJSON *arg = cJSON_CreateObject();
    cJSON_AddStringToObject(arg, "path", import_uri);
    cJSON_AddStringToObject(arg, "uri", target_uri);
    cJSON_AddItemToArray(args, arg);
    cJSON_AddItemToArray(actions, ca);
    free(title);
}

static void lsp_code_action(lsp_server_t *s, const cJSON *id, const cJSON *params) {
    const char *uri = lsp_str(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "uri");
    if (!uri) {
        lsp_respond_error(s, id, LSP_INVALID_PARAMS, "textDocument/codeAction needs textDocument.uri");
        return;
    }
    cJSON *actions = cJSON_CreateArray();
    lsp_doc_t *doc = lsp_doc_find(s, uri);
    /* honour context.only: "source" actions only when asked for (or no filter) */
    const cJSON *only = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(params, "context"), "only");
    bool wanted = !only || !cJSON_IsArray(only);
    const cJSON *k;
    if (!cJSON_IsArray(only)) only = NULL;
    cJSON_ArrayForEach(k, only) {
        if (cJSON_IsString(k) && strcmp(k->valuestring, "source") == 0) wanted = true;
    }
    if (!doc || !wanted || lsp_doc_is_program(doc) || !lsp_text_is_import_file(doc->text, doc->len)) {
        lsp_respond(s, id, actions);
        return;
    }
    /* The workspace the command runs in, as it finds it (none: every program fits it). */
    arena_t *wa = arena_new();
    workspace_t ws;
    diag_list_t wdl;
    diag_list_init(&wdl);
    if (!workspace_discover_in(wa, s->root ? s->root : ".", NULL, &ws, &wdl)) memset(&ws, 0, sizeof ws);
    diag_list_free(&wdl);
    /* Open programs, most recently used first. */
    size_t n = 0;
    for (lsp_doc_t *d = s->docs; d; d = d->next)
        n++;
    lsp_doc_t **v = calloc(n ? n : 1, sizeof *v);
    if (!v) abort();
    size_t m = 0;
    for (lsp_doc_t *d = s->docs; d; d = d->next)
        if (d != doc && lsp_doc_is_program(d) && lsp_target_fits(wa, &ws, d->path, d->language_id)) v[m++] = d;
    for (size_t i = 1; i < m; i++)
        for (size_t j = i; j > 0 && v[j]->touched > v[j - 1]->touched; j--) {
            lsp_doc_t *x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    for (size_t i = 0; i < m; i++)
        lsp_add_action(actions, doc->uri, v[i]->uri, v[i]->path ? lsp_basename(v[i]->path) : v[i]->uri);
    free(v);
    /* The project's main program, when it is not open. */
    char *dir = doc->path ? strdup(doc->path) : (s->root ? strdup(s->root) : NULL);
    if (dir && doc->path) {
        char *slash = strrchr(dir, '/');
        if (slash) *slash = '\0';
    }
    char *main_path = dir && *dir ? lsp_main_program(s, dir) : NULL;
    if (main_path && lsp_target_fits(wa, &ws, main_path, NULL)) {
        char *main_uri = lsp_path_to_uri(main_path);
        if (!lsp_doc_find(s, main_uri)) lsp_add_action(actions, doc->uri, main_uri, lsp_basename(main_path));
        free(main_uri);
    }
    free(main_path);
    free(dir);
    arena_free(wa);
    lsp_respond(s, id, actions);
}

/* ---------- dispatch ---------- */

static void lsp_on_request(lsp_server_t *s, const cJSON *id, const char *method, const cJSON *params) {
    if (s->state == LSP_STATE_NEW && strcmp(method, "initialize") != 0) {
        lsp_respond_error(s, id, LSP_SERVER_NOT_INITIALIZED,
                          "the server is not initialized: send 'initialize' before '%s'", method);
        return;
    }
    if (s->state == LSP_STATE_SHUTDOWN) {
        lsp_respond_error(s, id, LSP_INVALID_REQUEST, "the server is shut down: only 'exit' is accepted now");
        return;
    }
    if (strcmp(method, "initialize") == 0) {
        if (s->state != LSP_STATE_NEW)
            lsp_respond_error(s, id, LSP_INVALID_REQUEST, "initialize may be sent only once");
        else
            lsp_initialize(s, id, params);
    } else if (strcmp(method, "shutdown") == 0) {
        s->state = LSP_STATE_SHUTDOWN;
        lsp_respond(s, id, NULL);
    } else if (strcmp(method, "workspace/executeCommand") == 0) {
        if (!cJSON_IsObject(params))
            lsp_respond_error(s, id, LSP_INVALID_PARAMS, "workspace/executeCommand needs ExecuteCommandParams");
        else
            lsp_execute(s, id, params);
    } else if (strcmp(method, "textDocument/codeAction") == 0) {
        lsp_code_action(s, id, params);
    } else {
        lsp_respond_error(s, id, LSP_METHOD_NOT_FOUND, "unknown method '%s'", method);
    }
}

static void lsp_on_notification(lsp_server_t *s, const char *method, const cJSON *params) {
    if (strcmp(method, "exit") == 0) {
        s->exit_code = s->state == LSP_STATE_SHUTDOWN ? 0 : 1;
        s->stopped = true;
        return;
    }
    if (s->state == LSP_STATE_NEW) return; /* notifications before initialize are dropped */
    if (strcmp(method, "textDocument/didOpen") == 0)
        lsp_did_open(s, params);
    else if (strcmp(method, "textDocument/didChange") == 0)
        lsp_did_change(s, params);
    else if (strcmp(method, "textDocument/didClose") == 0)
        lsp_did_close(s, params);
    else if (strcmp(method, "$/cancelRequest") == 0)
        lsp_cancel(s, params);
    /* initialized, didSave, $/setTrace, configuration changes, …: nothing to do */
}

bool lsp_server_handle(lsp_server_t *s, const char *json, size_t len) {
    if (s->stopped) return false;
    cJSON *m = cJSON_ParseWithLength(json, len);
    if (!m) {
        lsp_respond_error(s, NULL, LSP_PARSE_ERROR, "the message is not valid JSON");
        return !s->stopped;
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(m, "method");
    const char *jsonrpc = lsp_str(m, "jsonrpc");
    bool id_ok = !id || cJSON_IsNumber(id) || cJSON_IsString(id);
    if (!cJSON_IsObject(m) || !jsonrpc || strcmp(jsonrpc, "2.0") != 0 || !id_ok ||
        (method && !cJSON_IsString(method))) {
        lsp_respond_error(s, id_ok ? id : NULL, LSP_INVALID_REQUEST,
                          "not a JSON-RPC 2.0 message: expected an object with \"jsonrpc\": \"2.0\", a string "
                          "\"method\" and a number or string \"id\"");
    } else if (!method) {
        if (id && (cJSON_HasObjectItem(m, "result") || cJSON_HasObjectItem(m, "error")))
            lsp_on_response(s, m);
        else
            lsp_respond_error(s, id, LSP_INVALID_REQUEST, "a message has neither \"method\" nor \"result\"/\"error\"");
    } else if (id) {
        lsp_on_request(s, id, method->valuestring, cJSON_GetObjectItemCaseSensitive(m, "params"));
    } else {
        lsp_on_notification(s, method->valuestring, cJSON_GetObjectItemCaseSensitive(m, "params"));
    }
    cJSON_Delete(m);
    return !s->stopped;
}

/* ---------- the server ---------- */

/* The editor's words for a library diagnostic's advice: the initializationOptions field, or the
 * option of `cimport lsp` where the editor has none. */
static void lsp_advice(char *out, size_t n, diag_advice_t kind, const char *subject) {
    switch (kind) {
    case DIAG_ADVICE_SCHEMA:
        snprintf(out, n, "; add the %s package schema to initializationOptions.schemas", subject);
        break;
    case DIAG_ADVICE_SCHEMA_WITH_TYPE:
        snprintf(out, n, "; check the type token, or add a %s schema that has it to initializationOptions.schemas",
                 subject);
        break;
    case DIAG_ADVICE_SCHEMA_LOADED: snprintf(out, n, "; add it to initializationOptions.schemas"); break;
    case DIAG_ADVICE_SCHEMA_INPUTS:
        snprintf(out, n, "; add the package's schema to initializationOptions.schemas to keep only input properties");
        break;
    case DIAG_ADVICE_INPUT_SIZE: snprintf(out, n, " with `cimport lsp --max-input-size`"); break;
    case DIAG_ADVICE_INPUT_WAIT: snprintf(out, n, " with `cimport lsp --input-timeout`"); break;
    case DIAG_ADVICE_DEADLINE: snprintf(out, n, " (`cimport lsp --timeout`)"); break;
    case DIAG_ADVICE_START_DEADLINE: snprintf(out, n, " (`cimport lsp --start-timeout`)"); break;
    case DIAG_ADVICE_LOCK_WAIT: snprintf(out, n, " (or raise `cimport lsp --lock-timeout`)"); break;
    case DIAG_ADVICE_OTHER_STACK: snprintf(out, n, ", or set another in initializationOptions.stack"); break;
    case DIAG_ADVICE_SELECT_STACK:
        snprintf(out, n, ": set initializationOptions.stack or run `pulumi stack select`");
        break;
    case DIAG_ADVICE_STACK_ORG: snprintf(out, n, ": set initializationOptions.stack to ORG/%s", subject); break;
    case DIAG_ADVICE_STACK_NAMES:
        snprintf(out, n, "; import with initializationOptions.stack and .project those of the stack state");
        break;
    case DIAG_ADVICE_STACK_NAMES_NEEDED:
        snprintf(out, n, ": set initializationOptions.stack and initializationOptions.project");
        break;
    case DIAG_ADVICE_STACK_OF_STATE:
    case DIAG_ADVICE_RESUME_STACK: {
        const char *sep = strstr(subject, "::");
        int ls = sep ? (int)(sep - subject) : (int)strlen(subject);
        snprintf(out, n, ": set initializationOptions.stack to '%.*s' and initializationOptions.project to '%s', %s",
                 ls, subject, sep ? sep + 2 : "",
                 kind == DIAG_ADVICE_STACK_OF_STATE ? "or merge into the export of the right stack"
                                                    : "or give no results document");
        break;
    }
    case DIAG_ADVICE_RESULTS_DOC:
        snprintf(out, n, "; give a results document that a previous `cimport --json` run wrote");
        break;
    case DIAG_ADVICE_CONFIG_VALUE: snprintf(out, n, "; pass it with `cimport lsp --config %s=VALUE`", subject); break;
    case DIAG_ADVICE_ATTACH:
        snprintf(out, n, ", or attach to a running one with `cimport lsp --attach %s=PORT`", subject);
        break;
    case DIAG_ADVICE_NO_PROTECT: snprintf(out, n, " (initializationOptions.protect: false)"); break;
    case DIAG_ADVICE_OTHER_PROJECT:
        snprintf(out, n, ": open project %s's directory as the workspace, or drop initializationOptions.project",
                 subject);
        break;
    case DIAG_ADVICE_PROGRAM_PROJECT:
        snprintf(out, n, ": open that project's directory (%s) as the workspace", subject);
        break;
    /* the editor's buffer takes the edit, no file is written; and the command has no other place for code */
    case DIAG_ADVICE_DIFF_INSTEAD:
    case DIAG_ADVICE_TYPESCRIPT_CODE: out[0] = 0; break;
    case DIAG_ADVICE_JSON_PROJECT: snprintf(out, n, ", or import into a program outside that project"); break;
    case DIAG_ADVICE_INTO_STACK: snprintf(out, n, " (initializationOptions.intoStack)"); break;
    /* the server has no stack config file of its own: Pulumi.yaml's stackConfigDir is the way */
    case DIAG_ADVICE_CONFIG_FILE: out[0] = 0; break;
    case DIAG_ADVICE_SECRETS_DIR:
        snprintf(out, n, "give initializationOptions.secretsDir a directory that can be made, or ");
        break;
    case DIAG_ADVICE_STACK_GIVEN: snprintf(out, n, "initializationOptions.stack %s", subject); break;
    case DIAG_ADVICE_STACK_OF_PROJECT:
        snprintf(out, n,
                 ": open that project's directory as the workspace, or set initializationOptions.stack to a stack of "
                 "project '%s'",
                 subject);
        break;
    case DIAG_ADVICE_IMPORT_OPTION:
        snprintf(out, n, "; insert the code with the `import` option instead, and your `pulumi up` imports them");
        break;
    }
}

lsp_server_t *lsp_server_new(const session_options_t *defaults, lsp_write_fn write, void *user) {
    lsp_server_t *s = calloc(1, sizeof *s);
    if (!s) abort();
    diag_set_advice(lsp_advice); /* for the whole process: it serves only the editor */
    s->write = write;
    s->user = user;
    s->exit_code = 1;
    s->arena = arena_new();
    s->splicer = splicer_new();
    lsp_text_diff_hold();
    if (defaults) {
        s->base = *defaults;
        const char **schemas = arena_alloc(s->arena, (defaults->n_schemas + 1) * sizeof *schemas);
        for (size_t i = 0; i < defaults->n_schemas; i++)
            schemas[i] = arena_strdup(s->arena, defaults->schemas[i]);
        s->base.schemas = schemas;
    } else {
        session_options_default(&s->base);
    }
    s->base.spec_path = s->base.inline_type = s->base.inline_name = s->base.inline_id = NULL;
    s->base.out_path = s->base.insert_into = s->base.stack_state = NULL;
    s->base.diff = s->base.preview_only = false;
    s->base.generate_code = true;
    s->opts = s->base;
    return s;
}

void lsp_server_free(lsp_server_t *s) {
    if (!s) return;
    lsp_text_diff_release();
    while (s->docs) {
        lsp_doc_t *d = s->docs;
        s->docs = d->next;
        lsp_doc_free(d);
    }
    while (s->jobs) {
        lsp_job_t *j = s->jobs;
        s->jobs = j->next;
        lsp_job_free(j);
    }
    while (s->queue) {
        lsp_queued_t *q = s->queue;
        s->queue = q->next;
        free(q->body);
        free(q);
    }
    splicer_free(s->splicer);
    cJSON_Delete(s->last_results);
    arena_free(s->arena);
    free(s->root);
    free(s);
}

bool lsp_server_exited(const lsp_server_t *s, int *exit_code) {
    if (exit_code) *exit_code = s->exit_code;
    return s->stopped;
}

int lsp_server_run(lsp_server_t *s, int in_fd) {
    lsp_reader_t r;
    lsp_reader_init(&r, in_fd);
    s->reader = &r;
    while (!s->stopped) {
        if (s->queue) {
            lsp_queued_t *q = s->queue;
            s->queue = q->next;
            if (!s->queue) s->queue_tail = NULL;
            lsp_server_handle(s, q->body, q->len);
            free(q->body);
            free(q);
            continue;
        }
        char *body;
        size_t len;
        lsp_read_status_t st = lsp_reader_next(&r, true, &body, &len);
        if (st == LSP_READ_EOF) {
            /* the client went away without `exit` */
            s->exit_code = 1;
            break;
        }
        if (st == LSP_READ_BAD_HEADER) {
            lsp_respond_error(s, NULL, LSP_PARSE_ERROR, "malformed message framing: %s", r.error);
            continue;
        }
        if (st != LSP_READ_MESSAGE) continue;
        lsp_server_handle(s, body, len);
        free(body);
    }
    s->reader = NULL;
    lsp_reader_free(&r);
    return s->exit_code;
}

/* ---------- for tests and benchmarks (lsp_internal.h) ---------- */

const char *lsp_server_document(lsp_server_t *s, const char *uri, size_t *len, long *version) {
    lsp_doc_t *d = lsp_doc_find(s, uri);
    if (!d) return NULL;
    if (len) *len = d->len;
    if (version) *version = d->version;
    return d->text;
}

const session_options_t *lsp_server_options(const lsp_server_t *s) {
    return &s->opts;
}

long lsp_server_last_request_id(const lsp_server_t *s) {
    return s->next_id;
}

splicer_t *lsp_server_splicer(lsp_server_t *s) {
    return s->splicer;
}

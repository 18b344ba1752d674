/* results_json.c — the results document's fields for the import report (results_json.h). */
#include "session/results_json.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "emitters/emit.h"
#include "report/report.h"
#include "specs/schema.h"
#include "specs/stackstate.h"
#include "splice/review.h"
#include "splice/splice.h"
#include "stacks/backend.h"

/* A sorted (key → index) table for lookups by name without a quadratic scan. */
typedef struct name_ix {
    const char *key;
    size_t index;
} name_ix_t;

static int name_ix_cmp(const void *a, const void *b) {
    return strcmp(((const name_ix_t *)a)->key, ((const name_ix_t *)b)->key);
}

/* Equal keys in plan order, so the k-th node of a (type, logical name) pairs with the k-th item. */
static int name_ix_cmp_stable(const void *a, const void *b) {
    int c = name_ix_cmp(a, b);
    if (c) return c;
    size_t x = ((const name_ix_t *)a)->index, y = ((const name_ix_t *)b)->index;
    return x < y ? -1 : x > y;
}

static const name_ix_t *name_ix_find(const name_ix_t *t, size_t n, const char *key) {
    name_ix_t k = {key, 0};
    return bsearch(&k, t, n, sizeof *t, name_ix_cmp);
}

/* The variable that declares a parent/provider: an item of this plan, else its nameTable name. */
static const char *plan_ref_name(const import_plan_t *plan, int index, const char *urn) {
    if (index >= 0) return plan->items[index].variable;
    for (size_t i = 0; urn && i < plan->n_names; i++)
        if (strcmp(plan->names[i].urn, urn) == 0) return plan->names[i].name;
    return NULL;
}

/* Input paths holding secrets, written as the report reads them: `a.b[0].c`. */
static void secret_paths(const pv_t *v, char *path, size_t len, size_t cap, cJSON *out) {
    if (!v) return;
    if (v->kind == PV_SECRET || (v->kind == PV_OUTPUT && v->u.output.secret)) {
        if (len) cJSON_AddItemToArray(out, cJSON_CreateString(path));
        return;
    }
    if (v->kind == PV_OBJECT) {
        for (size_t i = 0; i < v->u.obj.len; i++) {
            int n = snprintf(path + len, cap - len, "%s%s", len ? "." : "", v->u.obj.members[i].key);
            if (n > 0 && (size_t)n < cap - len)
                secret_paths(v->u.obj.members[i].value, path, len + (size_t)n, cap, out);
            path[len] = '\0';
        }
    } else if (v->kind == PV_ARRAY) {
        for (size_t i = 0; i < v->u.arr.len; i++) {
            int n = snprintf(path + len, cap - len, "[%zu]", i);
            if (n > 0 && (size_t)n < cap - len) secret_paths(v->u.arr.items[i], path, len + (size_t)n, cap, out);
            path[len] = '\0';
        }
    }
}

static bool json_has_string(const cJSON *arr, const char *s) {
    const cJSON *x;
    cJSON_ArrayForEach(x, arr) if (cJSON_IsString(x) && strcmp(x->valuestring, s) == 0) return true;
    return false;
}

/* An input is secret too when the provider keeps the same property secret in the state, or the
 * schema marks it secret — even if the recorded inputs hold it in plaintext. */
static void add_state_secrets(const import_session_t *p, const import_plan_item_t *it, const import_result_t *r,
                              cJSON *sp) {
    if (!r->inputs || r->inputs->kind != PV_OBJECT) return;
    const schema_resource_t *res = NULL;
    if (!it->is_provider && !it->is_component) {
        char *pkg = schema_token_package(p->arena, it->type);
        schema_package_t *sp_pkg = pkg ? schema_set_get(p->schemas, pkg) : NULL;
        res = sp_pkg ? schema_find_resource(sp_pkg, it->type) : NULL;
    }
    for (size_t i = 0; i < r->inputs->u.obj.len; i++) {
        const char *key = r->inputs->u.obj.members[i].key;
        bool secret = false;
        for (size_t k = 0; r->state && r->state->kind == PV_OBJECT && k < r->state->u.obj.len; k++) {
            const pv_t *sv = r->state->u.obj.members[k].value;
            if (strcmp(r->state->u.obj.members[k].key, key) == 0)
                secret = sv->kind == PV_SECRET || (sv->kind == PV_OUTPUT && sv->u.output.secret);
        }
        for (size_t k = 0; res && !secret && k < res->n_inputs; k++)
            if (strcmp(res->inputs[k].name, key) == 0) secret = res->inputs[k].secret;
        if (secret && !json_has_string(sp, key)) cJSON_AddItemToArray(sp, cJSON_CreateString(key));
    }
}

/* Traversals in a node's inputs whose root is another imported resource: the references the
 * generator inferred (by ID, name or ARN). */
typedef struct refs_ctx {
    const name_ix_t *nodes; /* resource node name → plan item */
    size_t n_nodes;
    const import_plan_t *plan;
    const char *self;
    cJSON *out;
    const pcl_node_t *const *configs; /* config nodes by name, for the resource's own code */
    size_t n_configs;
    const pcl_node_t **used_configs;
    size_t n_used;
} refs_ctx_t;

static void refs_walk(refs_ctx_t *c, const pcl_expr_t *e, char *path, size_t len, size_t cap) {
    if (!e) return;
    switch (e->kind) {
    case PCL_TRAVERSAL: {
        const name_ix_t *hit = name_ix_find(c->nodes, c->n_nodes, e->trav.root);
        if (hit && strcmp(e->trav.root, c->self) != 0) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddStringToObject(r, "to", c->plan->items[hit->index].variable);
            cJSON_AddStringToObject(r, "path", path);
            cJSON_AddItemToArray(c->out, r);
        }
        for (size_t i = 0; i < c->n_configs; i++)
            if (strcmp(c->configs[i]->name, e->trav.root) == 0) {
                bool seen = false;
                for (size_t k = 0; k < c->n_used; k++)
                    seen = seen || c->used_configs[k] == c->configs[i];
                if (!seen) c->used_configs[c->n_used++] = c->configs[i];
            }
        break;
    }
    case PCL_TUPLE:
        for (size_t i = 0; i < e->tuple.n; i++) {
            int n = snprintf(path + len, cap - len, "[%zu]", i);
            if (n > 0 && (size_t)n < cap - len) refs_walk(c, e->tuple.items[i], path, len + (size_t)n, cap);
            path[len] = '\0';
        }
        break;
    case PCL_OBJECT:
        for (size_t i = 0; i < e->object.n; i++) {
            int n = snprintf(path + len, cap - len, ".%s", e->object.items[i].key);
            if (n > 0 && (size_t)n < cap - len) refs_walk(c, e->object.items[i].value, path, len + (size_t)n, cap);
            path[len] = '\0';
        }
        break;
    case PCL_CALL:
        for (size_t i = 0; i < e->call.n; i++)
            refs_walk(c, e->call.args[i], path, len, cap);
        break;
    default: break;
    }
}

static const char *inputs_mode_name(inputs_mode_t m) {
    return m == INPUTS_READ ? "read" : "minimal";
}

static void add_run(cJSON *doc, const import_session_t *p, bool show_secrets) {
    const session_options_t *o = p->opts;
    cJSON *run = cJSON_AddObjectToObject(doc, "run");
    cJSON_AddStringToObject(run, "cimport", CIMPORT_VERSION);
    if (p->project) cJSON_AddStringToObject(run, "project", p->project);
    if (p->stack) cJSON_AddStringToObject(run, "stack", p->stack);
    if (o->spec_path) cJSON_AddStringToObject(run, "spec", o->spec_path);
    if (o->inline_type) {
        char buf[1024];
        const char *id = o->inline_id && !show_secrets ? session_shown_id(p, o->inline_id) : o->inline_id;
        snprintf(buf, sizeof buf, "%s %s %s", o->inline_type, o->inline_name ? o->inline_name : "", id ? id : "");
        cJSON_AddStringToObject(run, "inline", buf);
    }
    if (o->offline_state) {
        cJSON_AddStringToObject(run, "offlineState", o->offline_state);
        cJSON_AddStringToObject(run, "offlineKind", p->offline_is_terraform ? "terraform state" : "pulumi state");
    }
    cJSON *schemas = cJSON_AddArrayToObject(run, "schemas");
    for (size_t i = 0; i < o->n_schemas; i++)
        cJSON_AddItemToArray(schemas, cJSON_CreateString(o->schemas[i]));
    cJSON_AddStringToObject(run, "inputs", inputs_mode_name(o->inputs));
    cJSON_AddStringToObject(run, "secrets", o->secrets == PCL_SECRETS_LITERAL ? "literal" : "config");
    if (o->insert_into) cJSON_AddStringToObject(run, "insertInto", o->insert_into);
    if (o->out_path) cJSON_AddStringToObject(run, "out", o->out_path);
    if (o->stack_state) cJSON_AddStringToObject(run, "stackState", o->stack_state);
    /* Where the import goes: a stack, a stack export, or no stack (the code imports them with the
     * `import` option, or has none): a page must not call resources imported that no stack holds. */
    cJSON *target = cJSON_AddObjectToObject(run, "target");
    if (o->into_stack) {
        cJSON_AddStringToObject(target, "kind", "stack");
        cJSON_AddStringToObject(target, "stack", p->stack_store ? stack_store_describe(p->stack_store) : p->stack);
    } else if (o->stack_state) {
        cJSON_AddStringToObject(target, "kind", "stackState");
        cJSON_AddStringToObject(target, "file", o->stack_state);
    } else {
        cJSON_AddStringToObject(target, "kind", o->import_option ? "importOption" : "codeOnly");
    }
    if (!o->into_stack && !o->stack_state && o->no_stack_reason)
        cJSON_AddStringToObject(target, "why", o->no_stack_reason);
    /* the user's flags; the `import` option is run.target's (cimport chooses it where no stack is written) */
    cJSON *flags = cJSON_AddArrayToObject(run, "flags");
    struct {
        bool on;
        const char *flag;
    } fl[] = {
        {o->ignore_residual, "--ignore-residual"},
        {!o->protect, "--protect=false"},
        {!o->generate_code, "--generate-code=false"},
        {o->preview_only, "--preview-only"},
        {o->diff, "--diff"},
        {o->keep_existing, "--keep-existing"},
        {show_secrets, "--show-secrets"},
    };
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
        if (fl[i].on) cJSON_AddItemToArray(flags, cJSON_CreateString(fl[i].flag));
    char buf[64];
    if (o->parallel > 0 && o->parallel != ENGINE_PARALLEL_DEFAULT) {
        snprintf(buf, sizeof buf, "--parallel %d", o->parallel);
        cJSON_AddItemToArray(flags, cJSON_CreateString(buf));
    }
    if (o->resume) cJSON_AddStringToObject(run, "resume", o->resume);
}

/* --- the code without its secrets --------------------------------------------------------------
 * The code fields ("code", "pcl", "programDiff") hold a secret in whatever literal form its language
 * writes (--secrets literal; or a plain value equal to a secret), which no search of the text could
 * be sure to find. So each field gets a twin printed from the program without its secret values
 * (pcl_program_redacted), in its holder's "redacted" object; report_redact puts the twins in place
 * (a null twin: the field is withheld), and the document's own "redacted" says that it has them. */

typedef struct code_redaction {
    hashmap_t secrets;      /* the document's string secret values (borrowed from it) */
    pcl_program_t *program; /* the program without them; NULL: it holds none to take out */
} code_redaction_t;

static char *emit_quietly(const pcl_program_t *prog, lang_t lang) {
    if (lang == LANG_PCL) return pcl_print(prog);
    diag_list_t quiet;
    diag_list_init(&quiet);
    char *code = emit_program(prog, lang, &quiet);
    diag_list_free(&quiet);
    return code;
}

/* text with each `from` replaced by `to` (taken: text is freed); `bare`: only where `from` follows no
 * quote (a number's or bool's placeholder, not the string "[secret]"). */
static char *text_replace(char *text, const char *from, const char *to, bool bare) {
    buf_t b;
    buf_init(&b);
    const char *p = text, *hit;
    size_t n = strlen(from);
    while ((hit = strstr(p, from))) {
        bool quoted = bare && hit > text && strchr("\"'`", hit[-1]);
        buf_append(&b, p, (size_t)(hit - p));
        buf_puts(&b, quoted ? from : to);
        p = hit + n;
    }
    buf_puts(&b, p);
    free(text);
    return buf_take(&b);
}

/* The code of the program without secrets, as the other languages show a number's or bool's
 * placeholder: Pulumi YAML reads the name `[secret]` as `${["[secret]"]}` (pcl_program_redacted). */
static char *emit_redacted(const pcl_program_t *prog, lang_t lang) {
    char *code = emit_quietly(prog, lang);
    if (!code || lang != LANG_YAML) return code;
    return text_replace(code, "${[\"[secret]\"]}", "[secret]", false);
}

static void redaction_begin(code_redaction_t *red, const cJSON *doc, const import_session_t *p) {
    memset(red, 0, sizeof *red);
    report_secret_strings(doc, &red->secrets);
    if (p->gen.program && (hashmap_count(&red->secrets) || p->opts->secrets == PCL_SECRETS_LITERAL))
        red->program = pcl_program_redacted(p->gen.program, &red->secrets);
}

/* The node of the program without secrets that stands where nd (a node of prog) stands. */
static const pcl_node_t *redacted_node(const code_redaction_t *red, const pcl_program_t *prog, const pcl_node_t *nd) {
    return &red->program->nodes[nd - prog->nodes];
}

/* holder.redacted[key]: the twin of the field's text (taken; NULL: could not be printed, withheld). */
static void redacted_add(cJSON *holder, const char *key, const char *text, char *twin) {
    if (twin && strcmp(twin, text) == 0) { /* no secret in it */
        free(twin);
        return;
    }
    cJSON *r = cJSON_GetObjectItemCaseSensitive(holder, "redacted");
    if (!r) r = cJSON_AddObjectToObject(holder, "redacted");
    cJSON_DeleteItemFromObjectCaseSensitive(r, key);
    cJSON_AddItemToObject(r, key, twin ? cJSON_CreateString(twin) : cJSON_CreateNull());
    free(twin);
}

/* Whether text holds a piece of a secret a language never escapes: a run of four or more ASCII
 * letters and digits (or a whole secret of letters and digits) of one of the secret strings. */
static bool holds_secret_piece(const hashmap_t *secrets, const char *text) {
    const hashmap_entry_t *en;
    for (size_t it = 0; (en = hashmap_next(secrets, &it));) {
        const char *s = en->key;
        for (size_t i = 0; i < en->len;) {
            size_t j = i;
            while (j < en->len &&
                   ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= '0' && s[j] <= '9')))
                j++;
            if (j - i >= 4 || (i == 0 && j == en->len && j > 0)) {
                char *piece = strndup(s + i, j - i);
                bool hit = piece && strstr(text, piece);
                free(piece);
                if (hit) return true;
            }
            i = j > i ? j : i + 1;
        }
    }
    return false;
}

/* Whether text calls what --secrets literal wraps a value in, in some language: `secret(` after no
 * letter, digit or `_` (pulumi.secret, pulumi.Output.secret, PCL's secret; not requireSecret or
 * require_secret, which take a key), pulumi.ToSecret, Output.CreateSecret, Output.ofSecret,
 * .asSecret(), fn::secret. The value inside may be any secret, in any form. */
static bool calls_secret_wrapper(const char *text) {
    static const char *const named[] = {"ToSecret(", "CreateSecret(", "ofSecret(", "asSecret(", "fn::secret"};
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (strstr(text, named[i])) return true;
    for (const char *hit = text; (hit = strstr(hit, "secret(")); hit++) {
        char c = hit == text ? ' ' : hit[-1];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return true;
    }
    return false;
}

/* Whether text holds a secret in the form the run's own code writes it: each changed part of the
 * code against its twin without secrets (a diff's removed lines against its added ones, less what
 * they share at either end) is a secret as the language writes it (`ab!cd@ef\x09gh#ij`, a PEM's
 * lines). */
static bool holds_secret_form(const char *code, const char *twin, const char *text) {
    char *d = review_unified_diff("code", code, strlen(code), twin, strlen(twin));
    buf_t minus, plus;
    buf_init(&minus);
    buf_init(&plus);
    bool hit = false;
    for (const char *l = d; l && !hit;) {
        const char *nl = *l ? strchr(l, '\n') : NULL;
        size_t len = nl ? (size_t)(nl - l + 1) : strlen(l);
        bool removed = len && *l == '-' && strncmp(l, "--- ", 4) != 0;
        bool added = len && *l == '+' && strncmp(l, "+++ ", 4) != 0;
        if (removed || added) {
            buf_append(removed ? &minus : &plus, l + 1, len - 1);
        } else if (minus.len) { /* the end of a changed part */
            size_t pre = 0, suf = 0, pl = plus.len;
            while (pre < minus.len && pre < pl && minus.data[pre] == plus.data[pre])
                pre++;
            while (suf < minus.len - pre && suf < pl - pre &&
                   minus.data[minus.len - 1 - suf] == plus.data[pl - 1 - suf])
                suf++;
            if (minus.len - pre - suf > 0) {
                char *form = strndup(minus.data + pre, minus.len - pre - suf);
                hit = form && strstr(text, form);
                free(form);
            }
            minus.len = plus.len = 0;
        } else {
            plus.len = 0;
        }
        if (!len) break;
        l += len;
    }
    buf_free(&minus);
    buf_free(&plus);
    free(d);
    return hit;
}

/* Whether e reads a secret: a `secret(...)` call, or a traversal of a secret config. */
static bool reads_secret_fn(const pcl_expr_t *e, void *ctx) {
    struct {
        const pcl_program_t *prog;
        bool hit;
    } *c = ctx;
    if (e->kind == PCL_CALL && e->call.name && strcmp(e->call.name, "secret") == 0) c->hit = true;
    if (e->kind == PCL_TRAVERSAL && e->trav.root) {
        int i = pcl_program_find(c->prog, e->trav.root);
        if (i >= 0 && c->prog->nodes[i].kind == PCL_NODE_CONFIG && c->prog->nodes[i].config_secret) c->hit = true;
    }
    return !c->hit;
}

/* The names of the inputs (at any depth) whose value the code reads as a secret, into names. */
static void secret_input_names(const pcl_program_t *prog, const char *name, const pcl_expr_t *v, hashmap_t *names) {
    if (!v) return;
    if (v->kind == PCL_OBJECT) {
        for (size_t i = 0; i < v->object.n; i++)
            secret_input_names(prog, v->object.items[i].key, v->object.items[i].value, names);
        return;
    }
    struct {
        const pcl_program_t *prog;
        bool hit;
    } c = {prog, false};
    pcl_expr_walk(v, reads_secret_fn, &c);
    if (c.hit && name && *name) hashmap_add(names, name, strlen(name), NULL);
}

/* A name as all its languages' spellings compare: letters lower-cased, `_` dropped (apiToken, api_token,
 * ApiToken, "apiToken"). */
static bool same_input_name(const char *a, size_t alen, const char *b) {
    size_t i = 0;
    for (; *b; b++) {
        if (*b == '_') continue;
        while (i < alen && a[i] == '_')
            i++;
        if (i >= alen || tolower((unsigned char)a[i]) != tolower((unsigned char)*b)) return false;
        i++;
    }
    while (i < alen && a[i] == '_')
        i++;
    return i == alen;
}

/* The diff with the value of each removed line that sets an input the code now reads as a secret shown as
 * `[secret]`: the program's old text for it (a plaintext the user wrote, a value an earlier run wrote) is
 * that secret's, as Pulumi shows a secret input's old value in a diff (read18 F5). A line is `KEY: …`,
 * `KEY = …`, `"KEY": …`, `{ "KEY", … }` or `.KEY(…)`, KEY in any language's spelling. */
static char *redact_removed_secret_lines(const char *diff, const hashmap_t *names) {
    buf_t b;
    buf_init(&b);
    for (const char *l = diff; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l + 1) : strlen(l);
        const char *q = l + 1, *end = l + len;
        bool redacted = false;
        if (*l == '-' && strncmp(l, "--- ", 4) != 0) {
            while (q < end && (*q == ' ' || *q == '\t' || *q == '{' || *q == '.'))
                q++;
            bool quoted = q < end && (*q == '"' || *q == '\'');
            if (quoted) q++;
            const char *k = q;
            while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
                q++;
            size_t klen = (size_t)(q - k);
            if (quoted && q < end && (*q == '"' || *q == '\'')) q++;
            while (q < end && *q == ' ')
                q++;
            const hashmap_entry_t *en;
            if (klen && q < end && (*q == ':' || *q == '=' || *q == '(' || *q == ','))
                for (size_t it = 0; !redacted && (en = hashmap_next(names, &it));)
                    redacted = same_input_name(k, klen, en->key);
        }
        if (redacted) {
            buf_append(&b, l, (size_t)(q - l) + 1);
            buf_puts(&b, " [secret]\n");
        } else {
            buf_append(&b, l, len);
        }
        l += len;
    }
    return buf_take(&b);
}

char *session_redact_old_secrets(const import_session_t *p, char *diff) {
    const pcl_program_t *prog = p->gen.program;
    if (!diff || !prog) return diff;
    hashmap_t names = {0};
    for (size_t i = 0; i < prog->n_nodes; i++)
        if (prog->nodes[i].kind == PCL_NODE_RESOURCE)
            for (size_t j = 0; j < prog->nodes[i].n_attrs; j++)
                secret_input_names(prog, prog->nodes[i].attrs[j].name, prog->nodes[i].attrs[j].value, &names);
    if (hashmap_count(&names)) {
        char *r = redact_removed_secret_lines(diff, &names);
        free(diff);
        diff = r;
    }
    hashmap_free(&names);
    return diff;
}

/* The program diff without secrets: the code without them spliced into the program as the run
 * spliced the code (or the whole file written), against the program as it was; NULL when it cannot
 * be made, or the program as it was shows a piece of a secret. */
static char *redacted_program_diff(const code_redaction_t *red, const import_session_t *p, const char *code) {
    if (!code || !p->new_text) return NULL;
    char *new_text = NULL;
    size_t new_len = 0;
    if (p->new_is_code) {
        new_text = strdup(code);
        new_len = strlen(code);
    } else {
        /* A number's or bool's placeholder, the name `[secret]`, is no expression Go, Java or C# parse, and
         * the splice takes only code that does: it is spliced as a name neither the code nor the program
         * holds, and put back in the diff. */
        char name[64];
        for (unsigned k = 0;; k++) {
            snprintf(name, sizeof name, "cimportRedactedSecret%u", k);
            if (!strstr(code, name) && (!p->old_text || !strstr(p->old_text, name))) break;
        }
        char *parsed = strdup(code);
        if (!parsed) abort();
        parsed = text_replace(parsed, "[secret]", name, true);
        splice_options_t so = session_splice_options(p, p->code_target);
        bool changed = false;
        diag_list_t quiet;
        diag_list_init(&quiet);
        if (!splice_program(p->old_text ? p->old_text : "", p->old_len, p->lang, parsed, &so, &new_text, &changed,
                            &quiet))
            new_text = NULL;
        diag_list_free(&quiet);
        free(parsed);
        if (new_text) new_text = text_replace(new_text, name, "[secret]", false);
        new_len = new_text ? strlen(new_text) : 0;
    }
    char *diff =
        new_text ? review_unified_diff(p->code_target, p->old_text ? p->old_text : "", p->old_len, new_text, new_len)
                 : NULL;
    diff = session_redact_old_secrets(p, diff);
    free(new_text);
    /* The lines the program had (context, removed, and a hunk header's line of it) are the user's own
     * text, in which cimport cannot know a secret's form (a re-run replacing code an earlier
     * --secrets literal wrote). */
    buf_t old;
    buf_init(&old);
    for (const char *l = diff; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l + 1) : strlen(l);
        /* a line's text without its mark, so that a secret over several lines reads as written */
        if ((*l == ' ' || *l == '-') && strncmp(l, "--- ", 4) != 0) buf_append(&old, l + 1, len - 1);
        if (*l == '@') buf_append(&old, l, len);
        l += len;
    }
    char *real = old.data ? emit_quietly(p->gen.program, p->lang) : NULL;
    if (old.data && (holds_secret_piece(&red->secrets, old.data) || calls_secret_wrapper(old.data) || !real ||
                     holds_secret_form(real, code, old.data))) {
        free(diff);
        diff = NULL;
    }
    free(real);
    buf_free(&old);
    return diff;
}

/* The twins of the document's own "code" and "programDiff", and its "redacted" (then present, if
 * empty: the document has the twins); the redaction's memory freed. */
static void redaction_finish(code_redaction_t *red, cJSON *doc, const import_session_t *p) {
    if (red->program) {
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(doc, "code");
        const cJSON *diff = cJSON_GetObjectItemCaseSensitive(doc, "programDiff");
        char *twin = cJSON_IsString(code) || cJSON_IsString(diff) ? emit_redacted(red->program, p->lang) : NULL;
        if (cJSON_IsString(code)) redacted_add(doc, "code", code->valuestring, twin ? strdup(twin) : NULL);
        if (cJSON_IsString(diff))
            redacted_add(doc, "programDiff", diff->valuestring, redacted_program_diff(red, p, twin));
        free(twin);
        if (!cJSON_GetObjectItemCaseSensitive(doc, "redacted")) cJSON_AddObjectToObject(doc, "redacted");
        pcl_program_free(red->program);
    }
    hashmap_free(&red->secrets);
}

void results_json_add_program_diff(cJSON *doc, const import_session_t *p, const char *diff) {
    cJSON_DeleteItemFromObjectCaseSensitive(doc, "programDiff");
    cJSON_AddStringToObject(doc, "programDiff", diff);
    code_redaction_t red;
    redaction_begin(&red, doc, p);
    if (red.program) {
        char *twin = emit_redacted(red.program, p->lang);
        cJSON *r = cJSON_GetObjectItemCaseSensitive(doc, "redacted");
        if (r) cJSON_DeleteItemFromObjectCaseSensitive(r, "programDiff");
        redacted_add(doc, "programDiff", diff, redacted_program_diff(&red, p, twin));
        free(twin);
        if (!cJSON_GetObjectItemCaseSensitive(doc, "redacted")) cJSON_AddObjectToObject(doc, "redacted");
        pcl_program_free(red.program);
    }
    hashmap_free(&red.secrets);
}

void results_json_add_report_fields(cJSON *doc, const import_session_t *p, bool show_secrets) {
    add_run(doc, p, show_secrets);
    const import_plan_t *plan = p->plan;
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "resources");
    const pcl_program_t *prog = p->gen.program;

    /* Resource nodes of the program, matched to plan items by (type, logical name). */
    size_t n_items = plan && p->results ? plan->n_items : 0;
    name_ix_t *items_by_key = calloc(n_items + 1, sizeof *items_by_key);
    char **keys = calloc(n_items + 1, sizeof *keys);
    for (size_t i = 0; i < n_items; i++) {
        size_t l = strlen(plan->items[i].type) + strlen(plan->items[i].logical_name) + 2;
        keys[i] = malloc(l);
        snprintf(keys[i], l, "%s %s", plan->items[i].type, plan->items[i].logical_name);
        items_by_key[i] = (name_ix_t){keys[i], i};
    }
    qsort(items_by_key, n_items, sizeof *items_by_key, name_ix_cmp_stable);
    size_t n_nodes = prog ? prog->n_nodes : 0;
    const pcl_node_t **node_of_item = calloc(n_items + 1, sizeof *node_of_item);
    name_ix_t *nodes_by_name = calloc(n_nodes + 1, sizeof *nodes_by_name);
    const pcl_node_t **configs = calloc(n_nodes + 1, sizeof *configs);
    const pcl_node_t **packages = calloc(n_nodes + 1, sizeof *packages);
    size_t n_named = 0, n_configs = 0, n_packages = 0;
    for (size_t k = 0; k < n_nodes; k++) {
        const pcl_node_t *nd = &prog->nodes[k];
        if (nd->kind == PCL_NODE_CONFIG) configs[n_configs++] = nd;
        if (nd->kind == PCL_NODE_PACKAGE) packages[n_packages++] = nd;
        if (nd->kind == PCL_NODE_PACKAGE || nd->kind == PCL_NODE_CONFIG || !nd->token) continue;
        const char *logical = nd->logical_name ? nd->logical_name : nd->name;
        if (!logical) continue;
        size_t l = strlen(nd->token) + strlen(logical) + 2;
        char *key = malloc(l);
        snprintf(key, l, "%s %s", nd->token, logical);
        const name_ix_t *hit = name_ix_find(items_by_key, n_items, key);
        /* the first item of that key, in plan order, still without its node */
        while (hit && hit > items_by_key && strcmp(hit[-1].key, key) == 0)
            hit--;
        while (hit && hit < items_by_key + n_items && strcmp(hit->key, key) == 0 &&
               (p->results[hit->index].status != IMPORT_OK || node_of_item[hit->index]))
            hit++;
        if (hit && (hit >= items_by_key + n_items || strcmp(hit->key, key) != 0)) hit = NULL;
        free(key);
        if (!hit) continue;
        node_of_item[hit->index] = nd;
        nodes_by_name[n_named++] = (name_ix_t){nd->name, hit->index};
    }
    qsort(nodes_by_name, n_named, sizeof *nodes_by_name, name_ix_cmp);
    pcl_node_t *sub_storage = calloc(n_packages + n_configs + 1, sizeof *sub_storage);
    const pcl_node_t **used = calloc(n_configs + 1, sizeof *used);

    /* Every resource's secret paths first: their values are what the code is printed without. */
    cJSON *e = arr ? arr->child : NULL;
    for (size_t i = 0; i < n_items && e; i++, e = e->next) {
        char path[2048] = "";
        cJSON *sp = cJSON_AddArrayToObject(e, "secretPaths");
        secret_paths(p->results[i].inputs, path, 0, sizeof path, sp);
        add_state_secrets(p, p->results[i].item, &p->results[i], sp);
    }
    code_redaction_t red;
    redaction_begin(&red, doc, p);

    e = arr ? arr->child : NULL;
    for (size_t i = 0; i < n_items && e; i++, e = e->next) {
        const import_result_t *r = &p->results[i];
        const import_plan_item_t *it = r->item;
        const char *parent = plan_ref_name(plan, it->parent_index, it->parent_urn);
        const char *provider = plan_ref_name(plan, it->provider_index, it->provider_urn);
        if (parent) cJSON_AddStringToObject(e, "parent", parent);
        if (provider) cJSON_AddStringToObject(e, "provider", provider);
        cJSON_AddStringToObject(e, "kind", it->is_provider ? "provider" : it->is_component ? "component" : "resource");
        if (r->resumed) cJSON_AddBoolToObject(e, "resumed", true);
        cJSON_AddItemToObject(e, "secretPaths", cJSON_DetachItemFromObjectCaseSensitive(e, "secretPaths")); /* here */
        char path[2048] = "";
        /* The CLI's text of each diagnostic (file, resource and message, as printed on stderr). */
        cJSON *ds = cJSON_GetObjectItemCaseSensitive(e, "diagnostics");
        cJSON *dj = ds ? ds->child : NULL;
        for (diag_t *d = r->diags.head; d && dj; d = d->next, dj = dj->next)
            cJSON_AddStringToObject(dj, "text", diag_format((diag_list_t *)&r->diags, d));
        const pcl_node_t *nd = node_of_item[i];
        if (!nd) continue;
        char *pcl_text = pcl_print_node(nd);
        cJSON_AddStringToObject(e, "pcl", pcl_text);
        if (red.program) redacted_add(e, "pcl", pcl_text, pcl_print_node(redacted_node(&red, prog, nd)));
        free(pcl_text);
        cJSON *refs = cJSON_AddArrayToObject(e, "references");
        refs_ctx_t c = {nodes_by_name, n_named, plan, nd->name, refs, configs, n_configs, used, 0};
        for (size_t k = 0; k < nd->n_attrs; k++) {
            snprintf(path, sizeof path, "%s", nd->attrs[k].name);
            refs_walk(&c, nd->attrs[k].value, path, strlen(path), sizeof path);
        }
        /* The resource's own code in the chosen language: its block with the packages and the config
         * reads it uses (PCL is already in "pcl"). */
        if (p->lang == LANG_PCL) continue;
        size_t n = 0;
        for (size_t k = 0; k < n_packages; k++)
            sub_storage[n++] = *packages[k];
        for (size_t k = 0; k < c.n_used; k++)
            sub_storage[n++] = *used[k];
        sub_storage[n++] = *nd;
        pcl_program_t sub = *prog;
        sub.nodes = sub_storage;
        sub.n_nodes = n;
        sub.cap_nodes = n;
        char *code = emit_quietly(&sub, p->lang);
        if (code) cJSON_AddStringToObject(e, "code", code);
        if (code && red.program) {
            n = 0; /* the same nodes, of the program without secrets */
            for (size_t k = 0; k < n_packages; k++)
                sub_storage[n++] = *redacted_node(&red, prog, packages[k]);
            for (size_t k = 0; k < c.n_used; k++)
                sub_storage[n++] = *redacted_node(&red, prog, used[k]);
            sub_storage[n++] = *redacted_node(&red, prog, nd);
            sub.external_roots = red.program->external_roots; /* with the placeholders' name */
            sub.n_external_roots = red.program->n_external_roots;
            redacted_add(e, "code", code, emit_redacted(&sub, p->lang));
        }
        free(code);
    }
    redaction_finish(&red, doc, p);
    free(used);
    free(sub_storage);
    free(packages);
    free(configs);
    free(nodes_by_name);
    free(node_of_item);
    for (size_t i = 0; i < n_items; i++)
        free(keys[i]);
    free(keys);
    free(items_by_key);

    /* Inputs the state or the schema holds secret are secret in the document too. */
    if (!show_secrets) report_redact(doc);

    /* What the Terraform state given to --offline-state left out, and what the state converted by
     * --from left out. */
    if (p->offline_is_terraform || p->opts->n_left_out) {
        cJSON *um = cJSON_AddArrayToObject(doc, "unmapped");
        size_t n_offline = p->offline_is_terraform ? p->offline_report.n_entries : 0;
        hashmap_t seen = {0}; /* addresses listed: the same state is often both --from and --offline-state */
        for (size_t i = 0; i < n_offline + p->opts->n_left_out; i++) {
            const convert_entry_t *ce =
                i < n_offline ? &p->offline_report.entries[i] : &p->opts->left_out[i - n_offline];
            if (ce->outcome != CONVERT_UNMAPPED && ce->outcome != CONVERT_NO_ID) continue;
            if (!hashmap_add(&seen, ce->address, strlen(ce->address), NULL)) continue;
            cJSON *u = cJSON_CreateObject();
            cJSON_AddStringToObject(u, "address", ce->address);
            cJSON_AddStringToObject(u, "sourceType", ce->source_type);
            cJSON_AddStringToObject(u, "outcome", ce->outcome == CONVERT_UNMAPPED ? "unmapped" : "no-id");
            if (ce->reason) cJSON_AddStringToObject(u, "reason", ce->reason);
            if (ce->id) cJSON_AddStringToObject(u, "id", ce->id);
            cJSON_AddItemToArray(um, u);
        }
        hashmap_free(&seen);
        cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "summary");
        if (s) cJSON_AddNumberToObject(s, "unmapped", (double)cJSON_GetArraySize(um));
    }
}

void results_json_set_declined(cJSON *doc) {
    cJSON *sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    if (!sum) return;
    cJSON_DeleteItemFromObjectCaseSensitive(sum, "declined");
    cJSON_AddBoolToObject(sum, "declined", true);
}

void results_json_add_stack_outcomes(cJSON *doc, const import_session_t *p, const stackstate_report_t *rep) {
    cJSON *sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    if (!rep || !rep->n_entries || !p->plan || !p->results || !sum) return;
    hashmap_t by_urn = {0}; /* the merge's entry of each URN */
    hashmap_reserve(&by_urn, rep->n_entries);
    for (size_t i = 0; i < rep->n_entries; i++)
        hashmap_add_str(&by_urn, rep->entries[i].urn, &rep->entries[i]);
    /* After session_commit (its outputs made): whether the stack holds what the write added — it
     * wrote it, or could not take it back after a file failed —, or it is not known (a Pulumi Cloud
     * import whose update was not seen to finish). Before it: what the write adds. */
    bool after = p->outputs != NULL && p->opts->into_stack; /* a stack export is written with the files */
    bool kept = p->stack_written || p->stack_undo_failed;
    bool unknown = after && !kept && p->stack_store && stack_store_unconfirmed(p->stack_store);
    size_t added = 0, already = 0;
    cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "resources")->child;
    for (size_t i = 0; i < p->plan->n_items && e; i++, e = e->next) {
        const import_result_t *r = &p->results[i];
        void **hit = r->status == IMPORT_OK ? hashmap_find_str(&by_urn, r->item->urn) : NULL;
        if (!hit) continue;
        bool same = ((const stackstate_report_entry_t *)*hit)->outcome == STACKSTATE_SAME;
        cJSON_AddStringToObject(e, "stack", same ? "already" : unknown ? "notKnown" : "added");
        *(same ? &already : &added) += 1;
    }
    hashmap_free(&by_urn);
    if (unknown)
        cJSON_AddNumberToObject(sum, "notKnownInStack", (double)added);
    else
        cJSON_AddNumberToObject(sum, "addedToStack", (double)added);
    cJSON_AddNumberToObject(sum, "alreadyInStack", (double)already);
    if (after && kept) cJSON_AddBoolToObject(sum, "stackWritten", true);
}

void results_json_set_written(cJSON *doc, bool written) {
    cJSON *sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    if (!sum) return;
    cJSON_DeleteItemFromObjectCaseSensitive(sum, "written");
    cJSON_AddBoolToObject(sum, "written", written);
    /* not written: what the stack write would have added is not in the stack — unless the stack kept
     * the write (summary.stackWritten: it could not be taken back) */
    cJSON *added = cJSON_GetObjectItemCaseSensitive(sum, "addedToStack");
    if (written || !added || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sum, "stackWritten"))) return;
    cJSON_SetNumberValue(added, 0);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "resources")) {
        cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "stack");
        if (cJSON_IsString(st) && strcmp(st->valuestring, "added") == 0)
            cJSON_ReplaceItemInObjectCaseSensitive((cJSON *)e, "stack", cJSON_CreateString("notAdded"));
    }
}

/* stackconfig.c — Pulumi.<stack>.yaml: what the stack's secrets provider is, which config keys are
 * set, and adding secure values as text edits (see stackconfig.h). */
#include "specs/stackconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/arena.h"

typedef struct {
    yaml_parser_t parser;
    arena_t *a;
    const char *path;
    diag_list_t *diags;
    bool failed;
} reader_t;

static bool next(reader_t *r, yaml_event_t *ev) {
    if (!yaml_parser_parse(&r->parser, ev)) {
        diag_add(r->diags, DIAG_ERROR, DIAG_INPUT, r->path, NULL, "is not valid YAML: %s (line %zu)",
                 r->parser.problem ? r->parser.problem : "syntax error", r->parser.problem_mark.line + 1);
        r->failed = true;
        return false;
    }
    return true;
}

/* Where a mapping ends in the text: the end of its last scalar (or flow collection). */
typedef struct {
    size_t last_end;
    size_t first_key_start;
    size_t first_key_col;
    bool has_key;
} extent_t;

static void extend(extent_t *x, size_t end) {
    if (end > x->last_end) x->last_end = end;
}

/* Consumes the node that starts with ev (already read), widening x. */
static bool skip_node(reader_t *r, yaml_event_t *ev, extent_t *x) {
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
    case YAML_ALIAS_EVENT: extend(x, ev->end_mark.index); return true;
    case YAML_MAPPING_START_EVENT:
    case YAML_SEQUENCE_START_EVENT: {
        bool flow = ev->type == YAML_MAPPING_START_EVENT ? ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                                                         : ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
        for (;;) {
            yaml_event_t c;
            if (!next(r, &c)) return false;
            if (c.type == YAML_MAPPING_END_EVENT || c.type == YAML_SEQUENCE_END_EVENT) {
                if (flow) extend(x, c.end_mark.index);
                yaml_event_delete(&c);
                return true;
            }
            bool ok = skip_node(r, &c, x);
            yaml_event_delete(&c);
            if (!ok) return false;
        }
    }
    default: return true;
    }
}

/* Everything stackconfig_add_secure needs to know about where things are. */
typedef struct {
    stackconfig_t c;
    bool have_root;
    size_t root_first_key_start; /* offset of the first top-level key, when have_root_key */
    bool have_root_key;
    bool have_config;
    bool config_empty;     /* `config:` with no value */
    bool config_flow;      /* `config: {…}` */
    size_t config_key_end; /* end of the `config` key */
    extent_t config;       /* the config mapping's extent */
} layout_t;

static bool read_config(reader_t *r, yaml_event_t *ev, layout_t *l) {
    if (ev->type == YAML_SCALAR_EVENT && ev->data.scalar.length == 0) {
        l->config_empty = true;
        return true;
    }
    if (ev->type != YAML_MAPPING_START_EVENT) {
        diag_add(r->diags, DIAG_ERROR, DIAG_INPUT, r->path, NULL, "`config:` is not a mapping (line %zu)",
                 ev->start_mark.line + 1);
        return false;
    }
    l->config_flow = ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
    size_t cap = 0;
    for (;;) {
        yaml_event_t k;
        if (!next(r, &k)) return false;
        if (k.type == YAML_MAPPING_END_EVENT) {
            if (l->config_flow) extend(&l->config, k.end_mark.index);
            yaml_event_delete(&k);
            return true;
        }
        if (k.type != YAML_SCALAR_EVENT) {
            diag_add(r->diags, DIAG_ERROR, DIAG_INPUT, r->path, NULL, "a `config:` key is not a string (line %zu)",
                     k.start_mark.line + 1);
            yaml_event_delete(&k);
            return false;
        }
        if (!l->config.has_key) {
            l->config.has_key = true;
            l->config.first_key_start = k.start_mark.index;
            l->config.first_key_col = k.start_mark.column;
        }
        extend(&l->config, k.end_mark.index);
        l->c.entries = arena_grow_array(r->a, l->c.entries, &cap, l->c.n_entries + 1, sizeof *l->c.entries);
        stackconfig_entry_t *e = &l->c.entries[l->c.n_entries++];
        e->key = arena_strndup(r->a, (const char *)k.data.scalar.value, k.data.scalar.length);
        e->secure = NULL;
        yaml_event_delete(&k);
        yaml_event_t v;
        if (!next(r, &v)) return false;
        bool ok = true;
        if (v.type == YAML_MAPPING_START_EVENT) {
            /* {secure: v1:…} — or any other object value. */
            bool flow = v.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
            size_t n = 0;
            for (;;) {
                yaml_event_t mk;
                if (!next(r, &mk)) return yaml_event_delete(&v), false;
                if (mk.type == YAML_MAPPING_END_EVENT) {
                    if (flow) extend(&l->config, mk.end_mark.index);
                    yaml_event_delete(&mk);
                    break;
                }
                bool is_secure =
                    mk.type == YAML_SCALAR_EVENT && strcmp((const char *)mk.data.scalar.value, "secure") == 0;
                ok = skip_node(r, &mk, &l->config);
                yaml_event_delete(&mk);
                if (!ok) break;
                yaml_event_t mv;
                if (!next(r, &mv)) {
                    ok = false;
                    break;
                }
                if (is_secure && mv.type == YAML_SCALAR_EVENT)
                    e->secure = arena_strndup(r->a, (const char *)mv.data.scalar.value, mv.data.scalar.length);
                ok = skip_node(r, &mv, &l->config);
                yaml_event_delete(&mv);
                if (!ok) break;
                n++;
            }
            if (n != 1) e->secure = NULL;
        } else {
            ok = skip_node(r, &v, &l->config);
        }
        yaml_event_delete(&v);
        if (!ok) return false;
    }
}

static bool parse_layout(arena_t *a, const char *text, size_t len, const char *path, layout_t *l, diag_list_t *diags) {
    memset(l, 0, sizeof *l);
    reader_t r = {.a = a, .path = path, .diags = diags};
    yaml_parser_initialize(&r.parser);
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)(text ? text : ""), text ? len : 0);
    bool ok = false;
    yaml_event_t ev;
    /* stream start, then a document or the end */
    if (!next(&r, &ev)) goto done;
    yaml_event_delete(&ev);
    if (!next(&r, &ev)) goto done;
    if (ev.type == YAML_STREAM_END_EVENT) {
        yaml_event_delete(&ev);
        ok = true;
        goto done;
    }
    yaml_event_delete(&ev);
    if (!next(&r, &ev)) goto done;
    if (ev.type == YAML_SCALAR_EVENT && ev.data.scalar.length == 0) {
        /* a document with nothing in it */
        yaml_event_delete(&ev);
        ok = true;
        goto done;
    }
    if (ev.type != YAML_MAPPING_START_EVENT || ev.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "is not a stack config file: its top level is not a block mapping of keys");
        yaml_event_delete(&ev);
        goto done;
    }
    yaml_event_delete(&ev);
    l->have_root = true;
    for (;;) {
        yaml_event_t k;
        if (!next(&r, &k)) goto done;
        if (k.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&k);
            break;
        }
        if (!l->have_root_key) {
            l->have_root_key = true;
            l->root_first_key_start = k.start_mark.index - k.start_mark.column;
        }
        char *key = k.type == YAML_SCALAR_EVENT
                        ? arena_strndup(a, (const char *)k.data.scalar.value, k.data.scalar.length)
                        : NULL;
        size_t key_end = k.end_mark.index;
        extent_t ignore = {0};
        bool fine = skip_node(&r, &k, &ignore);
        yaml_event_delete(&k);
        if (!fine) goto done;
        yaml_event_t v;
        if (!next(&r, &v)) goto done;
        const char *sval = v.type == YAML_SCALAR_EVENT
                               ? arena_strndup(a, (const char *)v.data.scalar.value, v.data.scalar.length)
                               : NULL;
        if (key && strcmp(key, "config") == 0) {
            l->have_config = true;
            l->config_key_end = key_end;
            fine = read_config(&r, &v, l);
        } else {
            if (key && strcmp(key, "encryptionsalt") == 0 && sval && *sval) l->c.encryption_salt = sval;
            if (key && strcmp(key, "secretsprovider") == 0 && sval && *sval) l->c.secrets_provider = sval;
            if (key && strcmp(key, "encryptedkey") == 0 && sval && *sval) l->c.encrypted_key = true;
            fine = skip_node(&r, &v, &ignore);
        }
        yaml_event_delete(&v);
        if (!fine) goto done;
    }
    ok = true;
done:
    yaml_parser_delete(&r.parser);
    return ok;
}

static int cmp_entry(const void *x, const void *y) {
    return strcmp((*(const stackconfig_entry_t *const *)x)->key, (*(const stackconfig_entry_t *const *)y)->key);
}

/* The sorted index stackconfig_find searches. */
static void index_entries(arena_t *a, stackconfig_t *c) {
    c->by_key = arena_alloc(a, (c->n_entries ? c->n_entries : 1) * sizeof *c->by_key);
    for (size_t i = 0; i < c->n_entries; i++)
        c->by_key[i] = &c->entries[i];
    qsort(c->by_key, c->n_entries, sizeof *c->by_key, cmp_entry);
}

bool stackconfig_parse(arena_t *a, const char *text, size_t len, const char *path, stackconfig_t *out,
                       diag_list_t *diags) {
    layout_t l;
    if (!parse_layout(a, text, len, path, &l, diags)) return false;
    index_entries(a, &l.c);
    *out = l.c;
    return true;
}

const stackconfig_entry_t *stackconfig_find(const stackconfig_t *c, const char *key) {
    stackconfig_entry_t probe = {.key = key};
    const stackconfig_entry_t *pp = &probe;
    const stackconfig_entry_t **hit =
        c->n_entries ? bsearch(&pp, c->by_key, c->n_entries, sizeof *c->by_key, cmp_entry) : NULL;
    return hit ? *hit : NULL;
}

bool stackconfig_is_passphrase(const stackconfig_t *c) {
    if (c->encrypted_key) return false;
    return !c->secrets_provider || strcmp(c->secrets_provider, "passphrase") == 0;
}

/* A key as a YAML scalar: plain when that reads back the same, else double-quoted. */
static void put_key(buf_t *b, const char *k) {
    bool plain = *k && (k[0] == '_' || (k[0] >= 'A' && k[0] <= 'Z') || (k[0] >= 'a' && k[0] <= 'z') ||
                        (k[0] >= '0' && k[0] <= '9'));
    for (const char *p = k; plain && *p; p++) {
        char c = *p;
        plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                c == '.' || c == '/' || (c == ':' && p[1] != '\0' && p[1] != ' ');
    }
    if (plain) {
        buf_puts(b, k);
        return;
    }
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)k; *p; p++) {
        if (*p == '"' || *p == '\\')
            buf_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            buf_printf(b, "\\x%02x", *p);
        else
            buf_putc(b, (char)*p);
    }
    buf_putc(b, '"');
}

char *stackconfig_add_secure(const char *text, size_t len, const char *path, const char *salt_state,
                             const stackconfig_secure_t *vals, size_t n, diag_list_t *diags) {
    arena_t *a = arena_new();
    char *result = NULL;
    layout_t l;
    if (!text) len = 0;
    if (!parse_layout(a, text, len, path, &l, diags)) goto done;
    index_entries(a, &l.c);
    if (l.config_flow) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "`config:` is written in flow style ({…}); cimport adds keys only to a block mapping: rewrite it "
                 "one key per line");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if (stackconfig_find(&l.c, vals[i].key)) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "already sets the config key '%s'; nothing was added",
                     vals[i].key);
            goto done;
        }
    /* The new entries. */
    size_t col = l.config.has_key ? l.config.first_key_col : 2;
    buf_t entries;
    buf_init(&entries);
    for (size_t i = 0; i < n; i++) {
        buf_printf(&entries, "%*s", (int)col, "");
        put_key(&entries, vals[i].key);
        buf_printf(&entries, ":\n%*ssecure: %s\n", (int)col + 2, "", vals[i].ciphertext);
    }
    /* Where they go. */
    size_t at;
    const char *before = "";
    if (!l.have_config) {
        at = len;
        before = len && text[len - 1] != '\n' ? "\nconfig:\n" : "config:\n";
    } else {
        size_t p = l.config.has_key ? l.config.last_end : l.config_key_end;
        if (p > 0 && text[p - 1] == '\n') {
            at = p;
        } else {
            while (p < len && text[p] != '\n')
                p++;
            if (p < len) {
                at = p + 1;
            } else {
                at = len;
                before = "\n";
            }
        }
    }
    buf_t b;
    buf_init(&b);
    size_t salt_at = l.have_root_key ? l.root_first_key_start : 0;
    bool add_salt = salt_state && !l.c.encryption_salt;
    if (add_salt && salt_at > at) salt_at = at; /* cannot happen with a root key before config */
    if (add_salt) {
        buf_append(&b, text, salt_at);
        buf_printf(&b, "encryptionsalt: %s\n", salt_state);
        buf_append(&b, text + salt_at, at - salt_at);
    } else {
        buf_append(&b, text, at);
    }
    buf_puts(&b, before);
    buf_append(&b, entries.data, entries.len);
    buf_append(&b, text + at, len - at);
    buf_free(&entries);
    /* Check the edit: every key reads back with its value. */
    stackconfig_t check;
    diag_list_t quiet;
    diag_list_init(&quiet);
    bool good = stackconfig_parse(a, b.data, b.len, path, &check, &quiet);
    for (size_t i = 0; good && i < n; i++) {
        const stackconfig_entry_t *e = stackconfig_find(&check, vals[i].key);
        good = e && e->secure && strcmp(e->secure, vals[i].ciphertext) == 0;
    }
    if (good && salt_state)
        good = check.encryption_salt &&
               strcmp(check.encryption_salt, l.c.encryption_salt ? l.c.encryption_salt : salt_state) == 0;
    diag_list_free(&quiet);
    if (!good) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "cimport could not add the secure values to this file without changing its other content; nothing "
                 "was written");
        buf_free(&b);
        goto done;
    }
    result = buf_take(&b);
done:
    arena_free(a);
    return result;
}

/* importfile.c — reading Pulumi import files (JSON or YAML), building the inline one-resource
 * file, and writing import files the way `pulumi import` does.
 *
 * Both syntaxes are turned into one cJSON tree and decoded by the same code, which follows Go's
 * encoding/json as `pulumi import` uses it: keys match case-insensitively, unknown keys are
 * ignored, null leaves the zero value, and a value of the wrong JSON type is an error naming the
 * field. The import plan (validation and name resolution) lives in importfile_plan.c. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "base/fileio.h"
#include "base/hashmap.h"
#include "specs/importfile.h"
#include "specs/json_strict.h"

/* YAML aliases are copied into the tree; this bounds what a small file can expand to. */
#define IMPORTFILE_MAX_YAML_NODES (1u << 20)
#define IMPORTFILE_MAX_DEPTH 512

typedef struct ifdec {
    arena_t *a;
    const char *path;
    diag_list_t *diags;
    bool failed;
    hashmap_t texts; /* the texts resources repeat (types, providers, parents), held once: dec_text */
} ifdec_t;

static void dec_error_at(ifdec_t *d, size_t line, const char *resource, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void dec_error_at(ifdec_t *d, size_t line, const char *resource, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vsprintf(d->a, fmt, ap);
    va_end(ap);
    diag_t *g = diag_add(d->diags, DIAG_ERROR, DIAG_INPUT, d->path, resource, "%s", msg);
    if (g) g->line = (long)line;
    d->failed = true;
}

static const char *json_kind(const cJSON *j) {
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsArray(j)) return "a list";
    if (cJSON_IsObject(j)) return "an object";
    return "null";
}

char *import_spec_describe(arena_t *a, const import_spec_t *s) {
    const char *name = s->name ? s->name : s->logical_name;
    char *who;
    if (name)
        who = arena_sprintf(a, "resource '%s'", name);
    else if (s->id)
        who = arena_sprintf(a, "resource '%s'", s->id);
    else
        who = arena_sprintf(a, "resource %d", s->index);
    if (s->type) who = arena_sprintf(a, "%s of type '%s'", who, s->type);
    return who;
}

/* --- decoding the tree ------------------------------------------------------------------------ */

/* A resource's field, named ("resources[3].id") only when a message needs it: formatted for every
 * field of every resource it was a tenth of a KB a resource of the run, kept to the end. */
typedef struct field {
    int idx;
    const char *json;
} field_t;

static const char *field_text(ifdec_t *d, field_t f) {
    return arena_sprintf(d->a, "resources[%d].%s", f.idx, f.json);
}

/* A string field; numbers and booleans get a hint because unquoted IDs are the usual mistake. */
static const char *dec_string(ifdec_t *d, const cJSON *j, field_t f) {
    if (cJSON_IsNull(j)) return NULL;
    if (!cJSON_IsString(j)) {
        const char *field = field_text(d, f);
        bool scalar = cJSON_IsNumber(j) || cJSON_IsBool(j);
        dec_error_at(d, 0, NULL, "'%s' must be a string, but it is %s%s", field, json_kind(j),
                     scalar ? "; put the value in quotes" : "");
        return NULL;
    }
    return *j->valuestring ? arena_strdup(d->a, j->valuestring) : NULL;
}

/* A string field many resources repeat (a type, a parent's or provider's name, a version), held once. */
static const char *dec_text(ifdec_t *d, const cJSON *j, field_t f) {
    if (!cJSON_IsString(j) || !*j->valuestring) return dec_string(d, j, f);
    void **hit = hashmap_find_str(&d->texts, j->valuestring);
    if (hit) return *hit;
    char *copy = arena_strdup(d->a, j->valuestring);
    hashmap_add_str(&d->texts, copy, copy);
    return copy;
}

static bool dec_bool(ifdec_t *d, const cJSON *j, field_t f) {
    if (cJSON_IsNull(j)) return false;
    if (!cJSON_IsBool(j)) {
        dec_error_at(d, 0, NULL, "'%s' must be true or false, but it is %s", field_text(d, f), json_kind(j));
        return false;
    }
    return cJSON_IsTrue(j);
}

/* inputs/outputs: a property map in Pulumi's state encoding (secrets, assets, ...). */
static pv_t *dec_props(ifdec_t *d, const cJSON *j, const char *field, const char *what, const import_spec_t *s) {
    if (cJSON_IsNull(j)) return NULL;
    if (!cJSON_IsObject(j)) {
        dec_error_at(d, 0, NULL, "'%s' must be an object mapping property names to values, but it is %s", field,
                     json_kind(j));
        return NULL;
    }
    char *desc = import_spec_describe(d->a, s);
    diag_list_t tmp;
    diag_list_init(&tmp);
    /* Pulumi's wording: "could not deserialize inputs for <desc>: <reason>". */
    pv_t *v = pv_from_state_json(d->a, j, arena_sprintf(d->a, "could not deserialize %s for %s", what, desc), &tmp);
    for (diag_t *g = tmp.head; g; g = g->next)
        dec_error_at(d, 0, desc, "%s", g->message);
    bool bad = tmp.errors > 0;
    diag_list_free(&tmp);
    return bad ? NULL : v;
}

static void dec_properties(ifdec_t *d, const cJSON *j, field_t f, import_spec_t *s) {
    s->properties = NULL;
    s->n_properties = 0;
    if (cJSON_IsNull(j)) return;
    if (!cJSON_IsArray(j)) {
        dec_error_at(d, 0, NULL, "'%s' must be a list of property names, but it is %s", field_text(d, f), json_kind(j));
        return;
    }
    size_t n = (size_t)cJSON_GetArraySize(j);
    const char **props = arena_alloc(d->a, (n ? n : 1) * sizeof *props);
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, j) {
        if (cJSON_IsNull(e)) {
            props[i++] = "";
        } else if (cJSON_IsString(e)) {
            props[i++] = arena_strdup(d->a, e->valuestring);
        } else {
            dec_error_at(d, 0, NULL, "'%s[%zu]' must be a string, but it is %s", field_text(d, f), i, json_kind(e));
            return;
        }
    }
    s->properties = props;
    s->n_properties = i;
}

static void dec_spec(ifdec_t *d, const cJSON *j, int idx, import_spec_t *s) {
    memset(s, 0, sizeof *s);
    s->index = idx;
    if (cJSON_IsNull(j)) return;
    if (!cJSON_IsObject(j)) {
        dec_error_at(d, 0, NULL, "'resources[%d]' must be an object with 'type', 'name' and 'id', but it is %s", idx,
                     json_kind(j));
        return;
    }
    const cJSON *inputs = NULL, *outputs = NULL, *m;
    cJSON_ArrayForEach(m, j) {
        const char *k = m->string;
#define FIELD(json) ((field_t){idx, json})
        /* Keys match case-insensitively; when a key repeats, the last one wins (as in Go). */
        if (!strcasecmp(k, "type"))
            s->type = dec_text(d, m, FIELD("type"));
        else if (!strcasecmp(k, "name"))
            s->name = dec_string(d, m, FIELD("name"));
        else if (!strcasecmp(k, "logicalName"))
            s->logical_name = dec_string(d, m, FIELD("logicalName"));
        else if (!strcasecmp(k, "id"))
            s->id = dec_string(d, m, FIELD("id"));
        else if (!strcasecmp(k, "parent"))
            s->parent = dec_text(d, m, FIELD("parent"));
        else if (!strcasecmp(k, "provider"))
            s->provider = dec_text(d, m, FIELD("provider"));
        else if (!strcasecmp(k, "version"))
            s->version = dec_text(d, m, FIELD("version"));
        else if (!strcasecmp(k, "pluginDownloadUrl"))
            s->plugin_download_url = dec_text(d, m, FIELD("pluginDownloadUrl"));
        else if (!strcasecmp(k, "properties"))
            dec_properties(d, m, FIELD("properties"), s);
        else if (!strcasecmp(k, "component"))
            s->component = dec_bool(d, m, FIELD("component"));
        else if (!strcasecmp(k, "remote"))
            s->remote = dec_bool(d, m, FIELD("remote"));
        else if (!strcasecmp(k, "inputs"))
            inputs = m;
        else if (!strcasecmp(k, "outputs"))
            outputs = m;
#undef FIELD
    }
    /* Decoded last so that errors inside them can describe the resource by name and type. */
    if (inputs) s->inputs = dec_props(d, inputs, arena_sprintf(d->a, "resources[%d].inputs", idx), "inputs", s);
    if (outputs) s->outputs = dec_props(d, outputs, arena_sprintf(d->a, "resources[%d].outputs", idx), "outputs", s);
}

static void dec_name_table(ifdec_t *d, const cJSON *j, import_file_t *f) {
    if (cJSON_IsNull(j)) return;
    if (!cJSON_IsObject(j)) {
        dec_error_at(d, 0, NULL, "'nameTable' must be an object mapping names to URNs, but it is %s", json_kind(j));
        return;
    }
    size_t n = (size_t)cJSON_GetArraySize(j);
    f->name_table = arena_alloc(d->a, (n ? n : 1) * sizeof *f->name_table);
    const cJSON *m;
    cJSON_ArrayForEach(m, j) {
        const char *urn = "";
        if (cJSON_IsString(m)) {
            urn = arena_strdup(d->a, m->valuestring);
        } else if (!cJSON_IsNull(m)) {
            dec_error_at(d, 0, NULL, "'nameTable.%s' must be a URN string, but it is %s", m->string, json_kind(m));
            continue;
        }
        /* A repeated key replaces the earlier entry, as in a Go map. */
        size_t i = 0;
        while (i < f->n_names && strcmp(f->name_table[i].name, m->string) != 0)
            i++;
        if (i == f->n_names) f->name_table[f->n_names++].name = arena_strdup(d->a, m->string);
        f->name_table[i].urn = urn;
    }
}

static import_file_t *dec_file(ifdec_t *d, const cJSON *root) {
    if (!cJSON_IsObject(root)) {
        dec_error_at(d, 0, NULL,
                     "the import file must be an object with a 'resources' list (and optionally a 'nameTable'), "
                     "but it is %s",
                     json_kind(root));
        return NULL;
    }
    import_file_t *f = arena_alloc(d->a, sizeof *f);
    f->path = d->path ? arena_strdup(d->a, d->path) : NULL;
    const cJSON *m;
    cJSON_ArrayForEach(m, root) {
        if (!strcasecmp(m->string, "nameTable")) {
            f->n_names = 0;
            dec_name_table(d, m, f);
        } else if (!strcasecmp(m->string, "resources")) {
            f->specs = NULL;
            f->n_specs = 0;
            if (cJSON_IsNull(m)) continue;
            if (!cJSON_IsArray(m)) {
                dec_error_at(d, 0, NULL, "'resources' must be a list of resources, but it is %s", json_kind(m));
                continue;
            }
            size_t n = (size_t)cJSON_GetArraySize(m);
            f->specs = arena_alloc(d->a, (n ? n : 1) * sizeof *f->specs);
            const cJSON *e;
            cJSON_ArrayForEach(e, m) {
                dec_spec(d, e, (int)f->n_specs, &f->specs[f->n_specs]);
                f->n_specs++;
            }
        } else if (!strcasecmp(m->string, "providerInputs") && !cJSON_IsNull(m)) {
            diag_add(d->diags, DIAG_WARNING, DIAG_INPUT, d->path, NULL,
                     "the 'providerInputs' field is deprecated and ignored: declare the provider in 'resources' and "
                     "set its configuration via its 'inputs' instead");
        }
    }
    return d->failed ? NULL : f;
}

/* --- JSON syntax ------------------------------------------------------------------------------ */

static void text_position(const char *text, const char *at, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            (*col)++; /* count characters, not UTF-8 continuation bytes */
        }
    }
}

/* Go's quoting of a character in encoding/json syntax errors: 'x', '\n', '\x01', '\''. */
static const char *json_quote_char(arena_t *a, const char *p, size_t avail) {
    unsigned char c = (unsigned char)*p;
    switch (c) {
    case '\'': return "'\\''";
    case '\n': return "'\\n'";
    case '\r': return "'\\r'";
    case '\t': return "'\\t'";
    default: break;
    }
    if (c < 0x20 || c == 0x7f) return arena_sprintf(a, "'\\x%02x'", c);
    size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (n > avail) n = 1;
    return arena_sprintf(a, "'%.*s'", (int)n, p);
}

#define JSON_MAX_DEPTH 1000 /* cJSON's nesting limit */

/* Checks JSON syntax with Go's grammar and returns NULL, or Go's error text with *at set to the
 * offending offset. cJSON's own error position is often one character off, and its grammar is
 * looser than Go's (leading zeroes), so this scanner decides what is valid. */
static const char *json_syntax_error(arena_t *a, const char *s, size_t len, size_t *at) {
    enum { ST_VALUE, ST_ARRAY_FIRST, ST_KEY_OR_END, ST_KEY, ST_COLON, ST_OBJ_NEXT, ST_ARR_NEXT, ST_DONE } st = ST_VALUE;
    char stack[JSON_MAX_DEPTH];
    size_t depth = 0, i = 0;
    for (;;) {
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
            i++;
        *at = i;
        if (i == len) return st == ST_DONE ? NULL : "unexpected end of JSON input";
        char c = s[i];
        /* the offending character, quoted: only formatted for a message (every token of a big file
         * passes through here) */
#define q json_quote_char(a, s + i, len - i)
        bool value_done = false;
        switch (st) {
        case ST_DONE: return arena_sprintf(a, "invalid character %s after top-level value", q);
        case ST_COLON:
            if (c != ':') return arena_sprintf(a, "invalid character %s after object key", q);
            i++;
            st = ST_VALUE;
            continue;
        case ST_OBJ_NEXT:
            if (c == ',') {
                i++;
                st = ST_KEY;
                continue;
            }
            if (c != '}') return arena_sprintf(a, "invalid character %s after object key:value pair", q);
            i++;
            depth--;
            value_done = true;
            break;
        case ST_ARR_NEXT:
            if (c == ',') {
                i++;
                st = ST_VALUE;
                continue;
            }
            if (c != ']') return arena_sprintf(a, "invalid character %s after array element", q);
            i++;
            depth--;
            value_done = true;
            break;
        case ST_KEY_OR_END:
        case ST_KEY:
            if (c == '}' && st == ST_KEY_OR_END) {
                i++;
                depth--;
                value_done = true;
                break;
            }
            if (c != '"') return arena_sprintf(a, "invalid character %s looking for beginning of object key string", q);
            /* The key is scanned as a string below. */
            __attribute__((fallthrough));
        case ST_ARRAY_FIRST:
        case ST_VALUE:
            if (c == ']' && st == ST_ARRAY_FIRST) {
                i++;
                depth--;
                value_done = true;
                break;
            }
            if (c == '{' || c == '[') {
                if (depth == JSON_MAX_DEPTH) return "values are nested more than 1000 levels deep";
                stack[depth++] = c;
                i++;
                st = c == '{' ? ST_KEY_OR_END : ST_ARRAY_FIRST;
                continue;
            }
            if (c == '"') {
                bool is_key = st == ST_KEY_OR_END || st == ST_KEY;
                for (i++;; i++) {
                    *at = i;
                    if (i >= len) return "unexpected end of JSON input";
                    unsigned char sc = (unsigned char)s[i];
                    if (sc == '"') break;
                    if (sc < 0x20)
                        return arena_sprintf(a, "invalid character %s in string literal", json_quote_char(a, s + i, 1));
                    if (sc != '\\') continue;
                    *at = ++i;
                    if (i >= len) return "unexpected end of JSON input";
                    if (s[i] == 'u') {
                        for (int k = 0; k < 4; k++) {
                            *at = ++i;
                            if (i >= len) return "unexpected end of JSON input";
                            if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
                                return arena_sprintf(a, "invalid character %s in \\u hexadecimal character escape",
                                                     json_quote_char(a, s + i, len - i));
                        }
                    } else if (!s[i] || !strchr("\"\\/bfnrt", s[i])) {
                        return arena_sprintf(a, "invalid character %s in string escape code",
                                             json_quote_char(a, s + i, len - i));
                    }
                }
                i++;
                if (is_key) {
                    st = ST_COLON;
                    continue;
                }
                value_done = true;
                break;
            }
            if (c == '-' || (c >= '0' && c <= '9')) {
                if (c == '-') {
                    *at = ++i;
                    if (i >= len) return "unexpected end of JSON input";
                    if (!(s[i] >= '0' && s[i] <= '9'))
                        return arena_sprintf(a, "invalid character %s in numeric literal",
                                             json_quote_char(a, s + i, len - i));
                }
                if (s[i] == '0')
                    i++;
                else
                    while (i < len && s[i] >= '0' && s[i] <= '9')
                        i++;
                if (i < len && s[i] == '.') {
                    *at = ++i;
                    if (i >= len) return "unexpected end of JSON input";
                    if (!(s[i] >= '0' && s[i] <= '9'))
                        return arena_sprintf(a, "invalid character %s after decimal point in numeric literal",
                                             json_quote_char(a, s + i, len - i));
                    while (i < len && s[i] >= '0' && s[i] <= '9')
                        i++;
                }
                if (i < len && (s[i] == 'e' || s[i] == 'E')) {
                    *at = ++i;
                    if (i < len && (s[i] == '+' || s[i] == '-')) *at = ++i;
                    if (i >= len) return "unexpected end of JSON input";
                    if (!(s[i] >= '0' && s[i] <= '9'))
                        return arena_sprintf(a, "invalid character %s in exponent of numeric literal",
                                             json_quote_char(a, s + i, len - i));
                    while (i < len && s[i] >= '0' && s[i] <= '9')
                        i++;
                }
                value_done = true;
                break;
            }
            if (c == 't' || c == 'f' || c == 'n') {
                const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
                for (size_t k = 1; word[k]; k++) {
                    *at = i + k;
                    if (i + k >= len) return "unexpected end of JSON input";
                    if (s[i + k] != word[k])
                        return arena_sprintf(a, "invalid character %s in literal %s (expecting '%c')",
                                             json_quote_char(a, s + i + k, len - i - k), word, word[k]);
                }
                i += strlen(word);
                value_done = true;
                break;
            }
            return arena_sprintf(a, "invalid character %s looking for beginning of value", q);
        }
        if (value_done) st = depth == 0 ? ST_DONE : stack[depth - 1] == '{' ? ST_OBJ_NEXT : ST_ARR_NEXT;
    }
#undef q
}

static cJSON *json_parse(ifdec_t *d, const char *text, size_t len) {
    size_t at = 0;
    size_t line, col;
    const char *err = json_syntax_error(d->a, text, len, &at);
    if (err) {
        text_position(text, text + at, &line, &col);
        if (at >= len)
            dec_error_at(d, line, NULL, "invalid JSON: %s; check for a missing '}', ']' or '\"'", err);
        else
            dec_error_at(d, line, NULL, "invalid JSON: %s, at column %zu", err, col);
        return NULL;
    }
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, NULL, 0);
    if (!root) dec_error_at(d, 0, NULL, "invalid JSON: the JSON parser rejected the text (is it too large?)");
    if (root && !json_strict_check(text, len, d->path, d->diags)) {
        d->failed = true;
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* --- YAML ------------------------------------------------------------------------------------- */

static bool yaml_matches_digits(const char *s, const char *e, const char *set) {
    if (s == e) return false;
    for (; s < e; s++)
        if (!strchr(set, *s)) return false;
    return true;
}

/* YAML 1.2 core schema float: [-+]? ( \.[0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )? */
static bool yaml_is_float(const char *s, size_t n) {
    const char *p = s, *e = s + n;
    if (p < e && (*p == '-' || *p == '+')) p++;
    const char *digits = p;
    while (p < e && *p >= '0' && *p <= '9')
        p++;
    bool intpart = p > digits;
    bool frac = false;
    if (p < e && *p == '.') {
        p++;
        const char *f = p;
        while (p < e && *p >= '0' && *p <= '9')
            p++;
        frac = p > f;
    }
    if (!intpart && !frac) return false;
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '-' || *p == '+')) p++;
        const char *x = p;
        while (p < e && *p >= '0' && *p <= '9')
            p++;
        if (p == x) return false;
    }
    return p == e;
}

/* Resolves a plain (unquoted, untagged) scalar with the YAML 1.2 core schema. */
static cJSON *yaml_core_scalar(const char *v, size_t n) {
    if (n == 0 || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL"))
        return cJSON_CreateNull();
    if (!strcmp(v, "true") || !strcmp(v, "True") || !strcmp(v, "TRUE")) return cJSON_CreateTrue();
    if (!strcmp(v, "false") || !strcmp(v, "False") || !strcmp(v, "FALSE")) return cJSON_CreateFalse();
    if (n > 2 && v[0] == '0' && v[1] == 'o' && yaml_matches_digits(v + 2, v + n, "01234567"))
        return cJSON_CreateNumber((double)strtoull(v + 2, NULL, 8));
    if (n > 2 && v[0] == '0' && v[1] == 'x' && yaml_matches_digits(v + 2, v + n, "0123456789abcdefABCDEF"))
        return cJSON_CreateNumber((double)strtoull(v + 2, NULL, 16));
    if (yaml_is_float(v, n)) return cJSON_CreateNumber(strtod(v, NULL));
    const char *p = v;
    double sign = 1;
    if (*p == '-' || *p == '+') sign = *p++ == '-' ? -1 : 1;
    if (!strcmp(p, ".inf") || !strcmp(p, ".Inf") || !strcmp(p, ".INF")) return cJSON_CreateNumber(sign * INFINITY);
    if (!strcmp(v, ".nan") || !strcmp(v, ".NaN") || !strcmp(v, ".NAN")) return cJSON_CreateNumber(NAN);
    return cJSON_CreateString(v);
}

static cJSON *yaml_scalar(const yaml_event_t *ev) {
    const char *v = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (tag && !(plain && ev->data.scalar.plain_implicit)) {
        /* An explicit tag: !!str keeps the text; the core tags resolve the text; others are text. */
        if (!strcmp(tag, YAML_STR_TAG) || !strcmp(tag, "!")) return cJSON_CreateString(v);
        if (!strcmp(tag, YAML_NULL_TAG) || !strcmp(tag, YAML_BOOL_TAG) || !strcmp(tag, YAML_INT_TAG) ||
            !strcmp(tag, YAML_FLOAT_TAG))
            return yaml_core_scalar(v, n);
        return plain ? yaml_core_scalar(v, n) : cJSON_CreateString(v);
    }
    return plain ? yaml_core_scalar(v, n) : cJSON_CreateString(v);
}

typedef struct yaml_frame {
    cJSON *node;
    const char *key; /* pending key of a mapping, NULL while a key is expected */
    const char *anchor;
    size_t key_line; /* line of the pending key */
    size_t *lines;   /* a mapping's keys' lines, in order (arena) */
    size_t n_lines, cap_lines;
} yaml_frame_t;

typedef struct yaml_key_ref {
    const char *key;
    size_t line;
} yaml_key_ref_t;

static int yaml_key_ref_cmp(const void *a, const void *b) {
    const yaml_key_ref_t *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* A mapping with the same key twice is an error naming the second one's line: which value was
 * meant cannot be guessed (YAML 1.2 forbids duplicates; libyaml does not check). Sorted, so a
 * mapping with a million keys costs no more than sorting them. */
static bool yaml_check_duplicates(ifdec_t *d, const yaml_frame_t *f) {
    if (!cJSON_IsObject(f->node) || f->n_lines < 2) return true;
    yaml_key_ref_t *refs = malloc(f->n_lines * sizeof *refs);
    if (!refs) abort();
    size_t n = 0;
    for (const cJSON *c = f->node->child; c && n < f->n_lines; c = c->next, n++)
        refs[n] = (yaml_key_ref_t){c->string ? c->string : "", f->lines[n]};
    qsort(refs, n, sizeof *refs, yaml_key_ref_cmp);
    bool ok = true;
    for (size_t i = 1; i < n && ok; i++)
        if (strcmp(refs[i - 1].key, refs[i].key) == 0) {
            dec_error_at(d, refs[i].line, NULL,
                         "duplicate key '%.60s' in a YAML mapping (first at line %zu): remove one of them, cimport "
                         "does not guess which one is meant",
                         refs[i].key, refs[i - 1].line);
            ok = false;
        }
    free(refs);
    return ok;
}

typedef struct yaml_anchor {
    const char *name;
    const cJSON *node;
} yaml_anchor_t;

typedef struct yaml_builder {
    ifdec_t *d;
    yaml_frame_t *frames;
    size_t n_frames, cap_frames;
    yaml_anchor_t *anchors;
    size_t n_anchors, cap_anchors;
    cJSON *root;
    size_t nodes;
} yaml_builder_t;

static size_t yaml_count_nodes(const cJSON *j) {
    size_t n = 1;
    for (const cJSON *c = j->child; c; c = c->next)
        n += yaml_count_nodes(c);
    return n;
}

static void yaml_register_anchor(yaml_builder_t *b, const char *anchor, const cJSON *node) {
    if (!anchor) return;
    b->anchors = arena_grow_array(b->d->a, b->anchors, &b->cap_anchors, b->n_anchors + 1, sizeof *b->anchors);
    b->anchors[b->n_anchors].name = anchor;
    b->anchors[b->n_anchors].node = node;
    b->n_anchors++;
}

/* Attaches a finished node to the open container (or makes it the root). Takes ownership. */
static bool yaml_attach(yaml_builder_t *b, cJSON *node, size_t line) {
    if (b->n_frames == 0) {
        if (b->root) cJSON_Delete(b->root);
        b->root = node;
        return true;
    }
    yaml_frame_t *top = &b->frames[b->n_frames - 1];
    if (cJSON_IsArray(top->node)) {
        cJSON_AddItemToArray(top->node, node);
        return true;
    }
    if (!top->key) {
        cJSON_Delete(node);
        dec_error_at(b->d, line, NULL, "invalid YAML: a mapping key must be a plain value, not a list or mapping");
        return false;
    }
    cJSON_AddItemToObject(top->node, top->key, node);
    top->lines = arena_grow_array(b->d->a, top->lines, &top->cap_lines, top->n_lines + 1, sizeof *top->lines);
    top->lines[top->n_lines++] = top->key_line;
    top->key = NULL;
    return true;
}

static cJSON *yaml_parse(ifdec_t *d, const char *text, size_t len) {
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) abort();
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    yaml_builder_t b = {.d = d};
    bool ok = true, done = false;
    int documents = 0;
    while (ok && !done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            size_t line = p.problem_mark.line + 1;
            dec_error_at(d, line, NULL, "invalid YAML: %s%s%s at column %zu", p.problem ? p.problem : "syntax error",
                         p.context ? " " : "", p.context ? p.context : "", p.problem_mark.column + 1);
            ok = false;
            break;
        }
        size_t line = ev.start_mark.line + 1;
        const char *anchor = NULL;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT: done = true; break;
        case YAML_DOCUMENT_START_EVENT:
            if (++documents > 1) {
                dec_error_at(d, line, NULL,
                             "invalid YAML: the file holds more than one document ('---'); an import file is one "
                             "mapping");
                ok = false;
            }
            break;
        case YAML_SCALAR_EVENT: {
            yaml_frame_t *top = b.n_frames ? &b.frames[b.n_frames - 1] : NULL;
            if (top && cJSON_IsObject(top->node) && !top->key) {
                if (memchr(ev.data.scalar.value, 0, ev.data.scalar.length)) {
                    dec_error_at(d, line, NULL, "a key holds a NUL character; remove it");
                    ok = false;
                    break;
                }
                top->key = arena_strndup(d->a, (const char *)ev.data.scalar.value, ev.data.scalar.length);
                top->key_line = line;
                break;
            }
            if (memchr(ev.data.scalar.value, 0, ev.data.scalar.length)) {
                dec_error_at(d, line, NULL,
                             "a value holds a NUL character: names, IDs, tokens and values cannot contain NUL; "
                             "remove it");
                ok = false;
                break;
            }
            cJSON *node = yaml_scalar(&ev);
            if (++b.nodes > IMPORTFILE_MAX_YAML_NODES) {
                cJSON_Delete(node);
                dec_error_at(d, line, NULL, "invalid YAML: the document has more than %u values",
                             IMPORTFILE_MAX_YAML_NODES);
                ok = false;
                break;
            }
            if (ev.data.scalar.anchor)
                yaml_register_anchor(&b, arena_strdup(d->a, (const char *)ev.data.scalar.anchor), node);
            ok = yaml_attach(&b, node, line);
            break;
        }
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
            yaml_frame_t *top = b.n_frames ? &b.frames[b.n_frames - 1] : NULL;
            if (top && cJSON_IsObject(top->node) && !top->key) {
                dec_error_at(d, line, NULL, "invalid YAML: a mapping key must be a plain value, not a list or mapping");
                ok = false;
                break;
            }
            if (b.n_frames >= IMPORTFILE_MAX_DEPTH) {
                dec_error_at(d, line, NULL, "invalid YAML: values are nested more than %d levels deep",
                             IMPORTFILE_MAX_DEPTH);
                ok = false;
                break;
            }
            b.frames = arena_grow_array(d->a, b.frames, &b.cap_frames, b.n_frames + 1, sizeof *b.frames);
            anchor = (const char *)(ev.type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.anchor
                                                                         : ev.data.mapping_start.anchor);
            b.nodes++;
            b.frames[b.n_frames] = (yaml_frame_t){0};
            b.frames[b.n_frames].node =
                ev.type == YAML_SEQUENCE_START_EVENT ? cJSON_CreateArray() : cJSON_CreateObject();
            b.frames[b.n_frames].anchor = anchor ? arena_strdup(d->a, anchor) : NULL;
            b.n_frames++;
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: {
            if (!b.n_frames) { /* libyaml pairs every end with a start; refuse rather than underflow */
                dec_error_at(d, line, NULL, "invalid YAML: a list or mapping ends that never started");
                ok = false;
                break;
            }
            yaml_frame_t f = b.frames[--b.n_frames];
            if (!yaml_check_duplicates(d, &f)) {
                cJSON_Delete(f.node);
                ok = false;
                break;
            }
            /* Registered once complete, so an alias can never refer to a node that contains it. */
            yaml_register_anchor(&b, f.anchor, f.node);
            ok = yaml_attach(&b, f.node, line);
            break;
        }
        case YAML_ALIAS_EVENT: {
            const char *name = (const char *)ev.data.alias.anchor;
            const cJSON *target = NULL;
            for (size_t i = b.n_anchors; i-- > 0;)
                if (!strcmp(b.anchors[i].name, name)) {
                    target = b.anchors[i].node;
                    break;
                }
            if (!target) {
                dec_error_at(d, line, NULL, "invalid YAML: the alias '*%s' refers to no anchor defined before it",
                             name);
                ok = false;
                break;
            }
            yaml_frame_t *top = b.n_frames ? &b.frames[b.n_frames - 1] : NULL;
            if (top && cJSON_IsObject(top->node) && !top->key) {
                if (!cJSON_IsString(target)) {
                    dec_error_at(d, line, NULL,
                                 "invalid YAML: a mapping key must be a plain value, not a list or mapping");
                    ok = false;
                    break;
                }
                top->key = arena_strdup(d->a, target->valuestring);
                top->key_line = line;
                break;
            }
            b.nodes += yaml_count_nodes(target);
            if (b.nodes > IMPORTFILE_MAX_YAML_NODES) {
                dec_error_at(d, line, NULL, "invalid YAML: aliases expand the document to more than %u values",
                             IMPORTFILE_MAX_YAML_NODES);
                ok = false;
                break;
            }
            ok = yaml_attach(&b, cJSON_Duplicate(target, 1), line);
            break;
        }
        default: break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    while (b.n_frames > 0)
        cJSON_Delete(b.frames[--b.n_frames].node);
    if (!ok) {
        cJSON_Delete(b.root);
        return NULL;
    }
    return b.root;
}

/* --- entry points ----------------------------------------------------------------------------- */

/* A UTF-8 byte-order mark starts a YAML file (YAML allows it); JSON, and UTF-16, get the answer of
 * every JSON reader (json_encoding_check). Of the whole text, or of its first bytes. */
static bool import_text_encoding_ok(const char *text, size_t len, const char *path, diag_list_t *diags) {
    size_t off = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0, first = off;
    while (first < len && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r' || text[first] == '\n'))
        first++;
    return !(!off || (first < len && (text[first] == '{' || text[first] == '['))) ||
           json_encoding_check(text, len, path, diags);
}

/* import_file_parse; with `text_arena`, the arena holding the text, freed (and set NULL) as soon as the text is parsed
 * into a tree: what is decoded from the tree is copied out of it, and the text and the tree together were the load
 * phase's peak (15 MB and 27 MB at 100,000 resources, beside the stack export's index being built). */
static import_file_t *parse_text(arena_t *a, const char *text, size_t len, const char *path, diag_list_t *diags,
                                 arena_t **text_arena) {
    ifdec_t d = {.a = a, .path = path, .diags = diags};
    size_t off = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    if (!import_text_encoding_ok(text, len, path, diags)) return NULL;
    size_t i = off;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    if (i == len) {
        dec_error_at(&d, 0, NULL,
                     "the import file is empty; it must hold an object with a 'resources' list, e.g. "
                     "{\"resources\": [{\"type\": \"aws:s3/bucket:Bucket\", \"name\": \"b\", \"id\": \"my-bucket\"}]}");
        return NULL;
    }
    cJSON *root;
    if (text[i] == '{' || text[i] == '[')
        root = json_parse(&d, text + off, len - off);
    else
        root = yaml_parse(&d, text + off, len - off);
    if (!root) {
        if (!d.failed)
            dec_error_at(&d, 0, NULL,
                         "the import file holds no document; it must hold a mapping with a 'resources' list");
        return NULL;
    }
    if (text_arena) {
        arena_free(*text_arena);
        *text_arena = NULL;
    }
    import_file_t *f = dec_file(&d, root);
    cJSON_Delete(root);
    hashmap_free(&d.texts);
    return f;
}

import_file_t *import_file_parse(arena_t *a, const char *text, size_t len, const char *path, diag_list_t *diags) {
    return parse_text(a, text, len, path, diags, NULL);
}

import_file_t *import_file_load(arena_t *a, const char *path, diag_list_t *diags) {
    size_t len = 0;
    /* the text only while it is parsed: what the import file holds is copied out of it (an import file
     * of 100,000 resources is 15 MB) */
    char head[JSON_HEAD_BYTES]; /* judged by its start before it is read whole (a zero-filled file) */
    size_t n = file_read_head(path, head, sizeof head);
    if (n && !import_text_encoding_ok(head, n, path, diags)) return NULL;
    arena_t *t = arena_new();
    char *text = file_read_all(t, path, &len, diags);
    import_file_t *f = text ? parse_text(a, text, len, path, diags, &t) : NULL;
    arena_free(t);
    return f;
}

/* Go's parseResourceSpec: `name=URN` with both parts non-empty and a valid URN. */
static bool inline_parse_named(arena_t *a, const char *spec, const char **name, const char **urn) {
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1] || !urn_is_valid(eq + 1)) return false;
    *name = arena_strndup(a, spec, (size_t)(eq - spec));
    *urn = arena_strdup(a, eq + 1);
    return true;
}

import_file_t *import_file_inline(arena_t *a, const char *type, const char *name, const char *id, const char *parent,
                                  const char *provider, const char *properties, diag_list_t *diags) {
    import_file_t *f = arena_alloc(a, sizeof *f);
    f->name_table = arena_alloc(a, 2 * sizeof *f->name_table);
    f->specs = arena_alloc(a, sizeof *f->specs);
    f->n_specs = 1;
    import_spec_t *s = &f->specs[0];
    s->type = type && *type ? arena_strdup(a, type) : NULL;
    s->name = name && *name ? arena_strdup(a, name) : NULL;
    s->id = id && *id ? arena_strdup(a, id) : NULL;
    if (properties && *properties) {
        /* A comma-separated list, as cobra's string slice flag reads it. */
        size_t n = 1;
        for (const char *p = properties; *p; p++)
            n += *p == ',';
        const char **props = arena_alloc(a, n * sizeof *props);
        const char *start = properties;
        for (size_t i = 0; i < n; i++) {
            const char *comma = strchr(start, ',');
            size_t l = comma ? (size_t)(comma - start) : strlen(start);
            props[i] = arena_strndup(a, start, l);
            start += l + 1;
        }
        s->properties = props;
        s->n_properties = n;
    }
    if (parent && *parent) {
        const char *pname, *purn;
        if (!inline_parse_named(a, parent, &pname, &purn)) {
            /* Anything that is not `name=URN` is taken as a bare URN named "parent". */
            pname = "parent";
            purn = arena_strdup(a, parent);
            if (!urn_is_valid(purn)) {
                diag_error(diags, DIAG_USAGE, "invalid parent URN: '%s'", parent);
                return NULL;
            }
        }
        f->name_table[f->n_names].name = pname;
        f->name_table[f->n_names].urn = purn;
        f->n_names++;
        s->parent = pname;
    }
    if (provider && *provider) {
        const char *pname, *purn;
        if (!inline_parse_named(a, provider, &pname, &purn)) {
            /* Not checked here: planning rejects a URN that is not a provider's. */
            pname = "provider";
            purn = arena_strdup(a, provider);
        }
        if (f->n_names == 1 && !strcmp(f->name_table[0].name, pname)) {
            diag_error(diags, DIAG_USAGE, "provider and parent must have distinct names, both were '%s'", pname);
            return NULL;
        }
        f->name_table[f->n_names].name = pname;
        f->name_table[f->n_names].urn = purn;
        f->n_names++;
        s->provider = pname;
    }
    return f;
}

/* --- writing ---------------------------------------------------------------------------------- */

/* Go's encoding/json string escaping with HTML escaping off. */
static void json_put_string(buf_t *b, const char *s) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s;
    buf_putc(b, '"');
    while (*p) {
        unsigned char c = *p;
        if (c < 0x80) {
            switch (c) {
            case '"': buf_puts(b, "\\\""); break;
            case '\\': buf_puts(b, "\\\\"); break;
            case '\n': buf_puts(b, "\\n"); break;
            case '\r': buf_puts(b, "\\r"); break;
            case '\t': buf_puts(b, "\\t"); break;
            case '\b': buf_puts(b, "\\b"); break;
            case '\f': buf_puts(b, "\\f"); break;
            default:
                if (c < 0x20) {
                    buf_puts(b, "\\u00");
                    buf_putc(b, hex[c >> 4]);
                    buf_putc(b, hex[c & 15]);
                } else {
                    buf_putc(b, (char)c);
                }
            }
            p++;
            continue;
        }
        /* Multi-byte UTF-8: copy valid sequences; invalid bytes become U+FFFD like Go. */
        size_t n = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
        bool valid = n > 0;
        for (size_t k = 1; valid && k < n; k++)
            valid = (p[k] & 0xC0) == 0x80;
        if (valid && n == 3 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0))) valid = false;
        if (valid && n == 4 && ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90))) valid = false;
        if (!valid) {
            buf_puts(b, "\\ufffd");
            p++;
            continue;
        }
        if (n == 3 && c == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
            buf_puts(b, p[2] == 0xA8 ? "\\u2028" : "\\u2029");
        } else {
            buf_append(b, (const char *)p, n);
        }
        p += n;
    }
    buf_putc(b, '"');
}

/* Go's float64 encoding: shortest round-trip digits, plain notation for 1e-6 <= |v| < 1e21. */
static void json_put_number(buf_t *b, double v) {
    if (!isfinite(v)) {
        buf_puts(b, "null"); /* not reached: the state encoding writes these as signature objects */
        return;
    }
    if (v == 0) {
        buf_puts(b, signbit(v) ? "-0" : "0");
        return;
    }
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
        if (strtod(tmp, NULL) == v) break;
    }
    /* tmp is [-]d[.ddd]e[+-]xx */
    char digits[24];
    size_t nd = 0;
    const char *p = tmp;
    bool neg = *p == '-';
    if (neg) p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    digits[nd] = '\0';
    int exp = (int)strtol(p + 1, NULL, 10);
    if (neg) buf_putc(b, '-');
    double av = fabs(v);
    if (av < 1e-6 || av >= 1e21) {
        buf_putc(b, digits[0]);
        if (nd > 1) {
            buf_putc(b, '.');
            buf_append(b, digits + 1, nd - 1);
        }
        buf_printf(b, "e%c%s%d", exp < 0 ? '-' : '+', (exp > -10 && exp < 10 && exp >= 0) ? "0" : "", abs(exp));
        return;
    }
    if (exp < 0) {
        buf_puts(b, "0.");
        for (int k = 0; k < -exp - 1; k++)
            buf_putc(b, '0');
        buf_append(b, digits, nd);
        return;
    }
    size_t intlen = (size_t)exp + 1;
    for (size_t k = 0; k < intlen; k++)
        buf_putc(b, k < nd ? digits[k] : '0');
    if (nd > intlen) {
        buf_putc(b, '.');
        buf_append(b, digits + intlen, nd - intlen);
    }
}

static void json_put_value(buf_t *b, const cJSON *j, int indent) {
    if (cJSON_IsNull(j)) {
        buf_puts(b, "null");
    } else if (cJSON_IsBool(j)) {
        buf_puts(b, cJSON_IsTrue(j) ? "true" : "false");
    } else if (cJSON_IsNumber(j)) {
        json_put_number(b, j->valuedouble);
    } else if (cJSON_IsString(j)) {
        json_put_string(b, j->valuestring);
    } else {
        bool obj = cJSON_IsObject(j);
        if (!j->child) {
            buf_puts(b, obj ? "{}" : "[]");
            return;
        }
        buf_putc(b, obj ? '{' : '[');
        for (const cJSON *c = j->child; c; c = c->next) {
            buf_putc(b, '\n');
            buf_indent(b, indent + 4);
            if (obj) {
                json_put_string(b, c->string);
                buf_puts(b, ": ");
            }
            json_put_value(b, c, indent + 4);
            if (c->next) buf_putc(b, ',');
        }
        buf_putc(b, '\n');
        buf_indent(b, indent);
        buf_putc(b, obj ? '}' : ']');
    }
}

/* Starts a member of an object whose other members are written the same way. */
static void json_put_key(buf_t *b, bool *first, int indent, const char *key) {
    buf_puts(b, *first ? "\n" : ",\n");
    *first = false;
    buf_indent(b, indent);
    json_put_string(b, key);
    buf_puts(b, ": ");
}

static void json_put_opt_string(buf_t *b, bool *first, int indent, const char *key, const char *v) {
    if (!v || !*v) return;
    json_put_key(b, first, indent, key);
    json_put_string(b, v);
}

static void json_put_props(buf_t *b, bool *first, int indent, const char *key, const pv_t *v) {
    if (!v || (v->kind == PV_OBJECT && v->u.obj.len == 0)) return;
    cJSON *j = pv_to_state_json(v);
    json_put_key(b, first, indent, key);
    json_put_value(b, j, indent);
    cJSON_Delete(j);
}

static int name_entry_cmp(const void *x, const void *y) {
    return strcmp(((const import_name_entry_t *)x)->name, ((const import_name_entry_t *)y)->name);
}

char *import_file_to_json(const import_file_t *f) {
    buf_t b;
    buf_init(&b);
    buf_putc(&b, '{');
    bool first = true;
    if (f->n_names > 0) {
        /* Go writes map keys sorted. */
        import_name_entry_t *sorted = malloc(f->n_names * sizeof *sorted);
        if (!sorted) abort();
        memcpy(sorted, f->name_table, f->n_names * sizeof *sorted);
        qsort(sorted, f->n_names, sizeof *sorted, name_entry_cmp);
        json_put_key(&b, &first, 4, "nameTable");
        buf_putc(&b, '{');
        bool nfirst = true;
        for (size_t i = 0; i < f->n_names; i++) {
            json_put_key(&b, &nfirst, 8, sorted[i].name);
            json_put_string(&b, sorted[i].urn ? sorted[i].urn : "");
        }
        buf_puts(&b, "\n    }");
        free(sorted);
    }
    if (f->n_specs > 0) {
        json_put_key(&b, &first, 4, "resources");
        buf_putc(&b, '[');
        for (size_t i = 0; i < f->n_specs; i++) {
            const import_spec_t *s = &f->specs[i];
            buf_puts(&b, i ? ",\n" : "\n");
            buf_indent(&b, 8);
            buf_putc(&b, '{');
            bool sfirst = true;
            json_put_key(&b, &sfirst, 12, "type");
            json_put_string(&b, s->type ? s->type : "");
            json_put_key(&b, &sfirst, 12, "name");
            json_put_string(&b, s->name ? s->name : "");
            json_put_opt_string(&b, &sfirst, 12, "id", s->id);
            json_put_opt_string(&b, &sfirst, 12, "parent", s->parent);
            json_put_opt_string(&b, &sfirst, 12, "provider", s->provider);
            json_put_opt_string(&b, &sfirst, 12, "version", s->version);
            json_put_opt_string(&b, &sfirst, 12, "pluginDownloadUrl", s->plugin_download_url);
            if (s->n_properties > 0) {
                json_put_key(&b, &sfirst, 12, "properties");
                buf_putc(&b, '[');
                for (size_t k = 0; k < s->n_properties; k++) {
                    buf_puts(&b, k ? ",\n" : "\n");
                    buf_indent(&b, 16);
                    json_put_string(&b, s->properties[k]);
                }
                buf_puts(&b, "\n            ]");
            }
            if (s->component) {
                json_put_key(&b, &sfirst, 12, "component");
                buf_puts(&b, "true");
            }
            if (s->remote) {
                json_put_key(&b, &sfirst, 12, "remote");
                buf_puts(&b, "true");
            }
            json_put_opt_string(&b, &sfirst, 12, "logicalName", s->logical_name);
            json_put_props(&b, &sfirst, 12, "inputs", s->inputs);
            json_put_props(&b, &sfirst, 12, "outputs", s->outputs);
            buf_puts(&b, "\n        }");
        }
        buf_puts(&b, "\n    ]");
    }
    buf_puts(&b, first ? "}\n" : "\n}\n");
    return buf_take(&b);
}

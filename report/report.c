/* report.c — renders a results document as one self-contained HTML page (see report.h).
 *
 * The C side does three things: it checks the document (so a bad file gets a clear error and no
 * page), it takes secret values out unless asked to keep them, and it assembles the page: the
 * embedded stylesheet and script, and the document as inline JSON data. Everything a reader sees is
 * drawn by the page's own script from that data, so `--report` and `cimport report` give the same
 * page from the same document. */
#include "report/report.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/fileio.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "specs/json_strict.h"

/* report_assets.c, generated at build time from page.css and page.js (report/embed.cmake). */
extern const char report_page_css[];
extern const size_t report_page_css_len;
extern const char report_page_js[];
extern const size_t report_page_js_len;

/* --- text for the page (base/arena.h's buf_t) ----------------------------------------------- */

/* Text for an HTML element body or attribute. */
static void put_html(buf_t *b, const char *s) {
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '<': buf_puts(b, "&lt;"); break;
        case '>': buf_puts(b, "&gt;"); break;
        case '&': buf_puts(b, "&amp;"); break;
        case '"': buf_puts(b, "&quot;"); break;
        default: buf_append(b, p, 1);
        }
    }
}

/* JSON inside <script type="application/json">: '<' is written as \u003c so no "</script>" or
 * "<!--" can end the element early; U+2028/U+2029 are escaped as well. '<' only occurs inside JSON
 * strings, where the escape means the same character. */
static void put_script_json(buf_t *b, const char *json) {
    const char *start = json;
    for (const char *p = json; *p; p++) {
        if (*p == '<') {
            buf_append(b, start, (size_t)(p - start));
            buf_puts(b, "\\u003c");
            start = p + 1;
        } else if ((unsigned char)p[0] == 0xE2 && (unsigned char)p[1] == 0x80 &&
                   ((unsigned char)p[2] == 0xA8 || (unsigned char)p[2] == 0xA9)) {
            buf_append(b, start, (size_t)(p - start));
            buf_puts(b, (unsigned char)p[2] == 0xA8 ? "\\u2028" : "\\u2029");
            p += 2;
            start = p + 1;
        }
    }
    buf_puts(b, start);
}

/* --- checking the document ------------------------------------------------------------------- */

static bool bad(diag_list_t *diags, const char *path, const char *fmt, const char *detail) {
    diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, fmt, detail ? detail : "");
    return false;
}

bool report_check(const cJSON *doc, const char *path, diag_list_t *diags) {
    static const char not_results[] =
        "this is not a cimport results document%s: write one with `cimport --json ... > results.json`";
    if (!cJSON_IsObject(doc)) return bad(diags, path, not_results, " (it is not a JSON object)");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "version");
    const cJSON *resources = cJSON_GetObjectItemCaseSensitive(doc, "resources");
    const cJSON *summary = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    if (!cJSON_IsNumber(version) || !cJSON_IsArray(resources) || !cJSON_IsObject(summary))
        return bad(diags, path, not_results, " (it has no \"version\", \"resources\" and \"summary\")");
    if (version->valuedouble > REPORT_RESULTS_VERSION) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "the results document is version %d, written by a newer cimport; this cimport reads results "
                 "versions up to %d: render it with the cimport that wrote it, or upgrade this one",
                 version->valueint, REPORT_RESULTS_VERSION);
        return false;
    }
    if (version->valuedouble < 1) return bad(diags, path, not_results, " (its \"version\" is not 1 or later)");
    int i = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, resources) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(r, "name");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(r, "type");
        const cJSON *status = cJSON_GetObjectItemCaseSensitive(r, "status");
        if (!cJSON_IsObject(r) || !cJSON_IsString(name) || !cJSON_IsString(type) || !cJSON_IsString(status)) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                     "resources[%d] of the results document has no \"name\", \"type\" and \"status\": the file "
                     "was changed or is not a cimport results document",
                     i);
            return false;
        }
        i++;
    }
    return true;
}

/* Whether text starts as a JSON object and stops with a string or an object/array still open — a
 * document cut short (a run killed mid-write, a partial copy) rather than something else. */
static bool json_ends_open(const char *text, size_t len) {
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
        i++;
    if (i >= len || text[i] != '{') return false;
    int depth = 0;
    bool in_string = false;
    for (; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (--depth < 0) return false;
        }
    }
    return in_string || depth > 0;
}

cJSON *report_parse(const char *text, size_t len, const char *path, diag_list_t *diags) {
    const char *end = NULL;
    if (!json_encoding_check(text, len, path, diags)) return NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!doc) {
        size_t at = end && end >= text ? (size_t)(end - text) : 0;
        if (json_ends_open(text, len))
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                     "the results document ends early (truncated after %zu bytes): write it again with "
                     "`cimport --json ... > results.json` and let the run finish",
                     len);
        else
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                     "this is not a cimport results document (not JSON: error at byte %zu): write one with "
                     "`cimport --json ... > results.json`",
                     at);
        return NULL;
    }
    if (!report_check(doc, path, diags)) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

/* --- secrets ---------------------------------------------------------------------------------- */

/* Path text as pipeline_results_json writes secretPaths: `a.b[0].c`. */
static void path_child(char *out, size_t cap, const char *base, const cJSON *item, int index) {
    if (item->string)
        snprintf(out, cap, "%s%s%s", base, base[0] ? "." : "", item->string);
    else
        snprintf(out, cap, "%s[%d]", base, index);
}

static bool path_listed(const cJSON *paths, const char *path) {
    const cJSON *p;
    cJSON_ArrayForEach(p, paths) if (cJSON_IsString(p) && strcmp(p->valuestring, path) == 0) return true;
    return false;
}

/* What a secret is cut out of texts as: a string, a number or bool (its JSON text), or a value that is
 * only matched whole (an object's or list's JSON text; its strings are strings of their own). */
typedef enum { SECRET_STRING, SECRET_SCALAR, SECRET_WHOLE } secret_kind_t;

typedef struct secret_values {
    char **v;
    secret_kind_t *kind;
    size_t n, cap, cap_kind;
} secret_values_t;

static void secrets_push(secret_values_t *s, char *text, secret_kind_t kind) {
    if (!text) return;
    if (strcmp(text, "[secret]") == 0 || text[0] == '\0') {
        free(text);
        return;
    }
    s->v = vec_grow(s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->kind = vec_grow(s->kind, &s->cap_kind, s->n + 1, sizeof *s->kind);
    s->v[s->n] = text;
    s->kind[s->n++] = kind;
}

/* A secret value, and the strings inside an object or list one (each secret too). */
static void secrets_add(secret_values_t *s, const cJSON *value) {
    if (cJSON_IsString(value)) {
        secrets_push(s, strdup(value->valuestring), SECRET_STRING);
    } else if (cJSON_IsObject(value) || cJSON_IsArray(value)) {
        secrets_push(s, cJSON_PrintUnformatted(value), SECRET_WHOLE);
        for (const cJSON *c = value->child; c; c = c->next)
            secrets_add(s, c);
    } else {
        secrets_push(s, cJSON_PrintUnformatted(value), SECRET_SCALAR);
    }
}

/* Replaces every value at a listed path with "[secret]" (remembering the value when `keep` is
 * false so it can be cut out of texts too). */
static void redact_walk(cJSON *node, const char *path, const cJSON *paths, secret_values_t *found) {
    int i = 0;
    cJSON *child = node->child;
    while (child) {
        cJSON *next = child->next;
        char sub[2048];
        path_child(sub, sizeof sub, path, child, i);
        if (path_listed(paths, sub)) {
            secrets_add(found, child);
            cJSON *rep = cJSON_CreateString("[secret]");
            if (child->string)
                cJSON_ReplaceItemInObjectCaseSensitive(node, child->string, rep);
            else
                cJSON_ReplaceItemInArray(node, i, rep);
        } else if (cJSON_IsObject(child) || cJSON_IsArray(child)) {
            redact_walk(child, sub, paths, found);
        }
        child = next;
        i++;
    }
}

/* Every secret value, to cut out of texts in one pass — where it stands as the value, not wherever its
 * letters occur: a secret `true`, 1234 or "name" would otherwise blank every `true` (`protect: true`),
 * every 1234 and every name of the code. In code, a string where it is a whole string literal
 * ("v", 'v', or a YAML plain scalar: the rest of a line after `key: ` or `- `), a number or bool only as
 * the argument of a secret wrapper (`secret(1234)`, Go's `pulumi.ToSecret(pulumi.Int(1234))`, Python's
 * `True`, YAML's `fn::secret: 1234`) — the places cimport's code puts a secret (`--secrets literal`). In
 * an import ID, a secret where it stands as a token of the ID ('Zq9x7,1,10'), not inside another word.
 * Needles are found by their first four bytes: a bit filter over them rejects most positions at
 * once, a map from the four bytes gives the needles that start so; shorter ones are searched alone. */
typedef enum {
    NEEDLE_LITERAL, /* a string secret quoted: "v" (JSON's escapes) or 'v' */
    NEEDLE_WRAPPED, /* a number's or bool's text: as a secret wrapper's argument */
    NEEDLE_TOKEN,   /* a string secret's own text: in an import ID, as a token */
} needle_kind_t;

typedef struct needle {
    const char *text;
    size_t len;
    needle_kind_t kind;
    struct needle *next; /* the next needle with the same first four bytes */
} needle_t;

typedef enum { SCRUB_CODE, SCRUB_ID } scrub_mode_t;

enum { FILTER_BITS = 1 << 20 };

typedef struct secret_finder {
    arena_t *a;
    hashmap_t values;   /* each secret value's text once (whole-field matches) */
    hashmap_t strings;  /* each string secret once (a whole YAML plain scalar) */
    hashmap_t needles;  /* each needle once, by its kind and text */
    hashmap_t by_start; /* first four bytes → needle_t list, longest first */
    uint64_t *filter;   /* FILTER_BITS bits over the first four bytes of every needle */
    needle_t *shorts;   /* needles under four bytes */
    size_t n_short, cap_short;
} secret_finder_t;

static uint32_t four_bytes(const char *p) {
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

static uint32_t filter_slot(uint32_t w) {
    return (uint32_t)((w * 2654435761u) >> 12) & (FILTER_BITS - 1);
}

static void needle_add(secret_finder_t *f, needle_kind_t kind, const char *text) {
    const char *key = arena_sprintf(f->a, "%d%s", (int)kind, text);
    if (!hashmap_add_str(&f->needles, key, NULL)) return; /* the same needle again */
    needle_t *n = arena_alloc(f->a, sizeof *n);
    n->text = key + 1;
    n->len = strlen(n->text);
    n->kind = kind;
    n->next = NULL;
    if (n->len < 4) {
        f->shorts = arena_grow_array(f->a, f->shorts, &f->cap_short, f->n_short + 1, sizeof *f->shorts);
        f->shorts[f->n_short++] = *n;
        return;
    }
    uint32_t w = four_bytes(n->text);
    f->filter[filter_slot(w) / 64] |= 1ull << (filter_slot(w) % 64);
    void **slot = hashmap_find(&f->by_start, n->text, 4);
    if (!slot) {
        hashmap_add(&f->by_start, n->text, 4, n);
        return;
    }
    needle_t **at = (needle_t **)slot; /* kept longest first: the longest match is cut */
    while (*at && (*at)->len >= n->len)
        at = &(*at)->next;
    n->next = *at;
    *at = n;
}

static void finder_build(secret_finder_t *f, const secret_values_t *s) {
    memset(f, 0, sizeof *f);
    f->a = arena_new();
    f->filter = arena_alloc(f->a, FILTER_BITS / 8);
    memset(f->filter, 0, FILTER_BITS / 8);
    for (size_t k = 0; k < s->n; k++) {
        const char *v = s->v[k];
        hashmap_add_str(&f->values, v, s->v[k]);
        if (s->kind[k] == SECRET_STRING) {
            hashmap_add_str(&f->strings, v, s->v[k]);
            cJSON *j = cJSON_CreateString(v);
            char *quoted = j ? cJSON_PrintUnformatted(j) : NULL; /* "v", with JSON's escapes */
            cJSON_Delete(j);
            if (quoted) needle_add(f, NEEDLE_LITERAL, quoted);
            free(quoted);
            if (!strpbrk(v, "'\\\n")) needle_add(f, NEEDLE_LITERAL, arena_sprintf(f->a, "'%s'", v));
            needle_add(f, NEEDLE_TOKEN, v);
        } else if (s->kind[k] == SECRET_SCALAR) {
            needle_add(f, NEEDLE_WRAPPED, v);
            if (strcmp(v, "true") == 0) needle_add(f, NEEDLE_WRAPPED, "True"); /* Python's */
            if (strcmp(v, "false") == 0) needle_add(f, NEEDLE_WRAPPED, "False");
        }
    }
}

static void finder_free(secret_finder_t *f) {
    hashmap_free(&f->values);
    hashmap_free(&f->strings);
    hashmap_free(&f->needles);
    hashmap_free(&f->by_start);
    arena_free(f->a);
}

static bool code_word_char(char c) {
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-';
}

static bool id_word_char(char c) {
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* Whether the text before `at` opens a secret wrapper whose argument starts there: `fn::secret:`, or a
 * call whose name ends in "secret"/"Secret" (`secret(`, `pulumi.secret(`, `Output.CreateSecret(`,
 * `Output.ofSecret(`), directly or around one typed literal (Go's `pulumi.ToSecret(pulumi.Int(`). */
static bool wrapper_before(const char *text, size_t at) {
    size_t k = at;
    while (k > 0 && text[k - 1] == ' ')
        k--;
    if (k >= 11 && memcmp(text + k - 11, "fn::secret:", 11) == 0) return true;
    for (int call = 0; call < 2; call++) {
        if (k == 0 || text[k - 1] != '(') return false;
        size_t end = --k;
        while (k > 0 && (isalnum((unsigned char)text[k - 1]) || text[k - 1] == '_' || text[k - 1] == '.'))
            k--;
        if (end - k >= 6 && memcmp(text + end - 5, "ecret", 5) == 0 && (text[end - 6] | 0x20) == 's') return true;
    }
    return false;
}

/* Whether needle n, found at `at` of text (len bytes), stands there as the value. */
static bool needle_accepted(const needle_t *n, const char *text, size_t len, size_t at, scrub_mode_t mode) {
    char before = at ? text[at - 1] : '\0', after = at + n->len < len ? text[at + n->len] : '\0';
    switch (n->kind) {
    case NEEDLE_LITERAL: return true;
    case NEEDLE_WRAPPED:
        if (mode == SCRUB_ID) return !id_word_char(before) && !id_word_char(after);
        return !code_word_char(before) && !code_word_char(after) && wrapper_before(text, at);
    case NEEDLE_TOKEN: return mode == SCRUB_ID && !id_word_char(before) && !id_word_char(after);
    }
    return false;
}

/* The longest needle at `at` that stands there as the value, or NULL. */
static const needle_t *needle_at(const secret_finder_t *f, const char *text, size_t len, size_t at, scrub_mode_t mode) {
    uint32_t w = four_bytes(text + at);
    uint32_t slot = filter_slot(w);
    if (!(f->filter[slot / 64] & (1ull << (slot % 64)))) return NULL;
    void **first = hashmap_find(&f->by_start, text + at, 4);
    for (const needle_t *n = first ? *first : NULL; n; n = n->next)
        if (n->len <= len - at && memcmp(text + at, n->text, n->len) == 0 && needle_accepted(n, text, len, at, mode))
            return n;
    return NULL;
}

static void put_cut(buf_t *out, const needle_t *n) {
    if (n->kind == NEEDLE_LITERAL)
        buf_printf(out, "%c[secret]%c", n->text[0], n->text[0]);
    else
        buf_puts(out, "[secret]");
}

/* A YAML plain scalar that is a whole string secret: the rest of a line after its first `: `, or
 * after a `- ` that only spaces (and a diff's `+`) come before. Returns whether one was cut. */
static bool cut_plain_scalars(const secret_finder_t *f, buf_t *text) {
    if (hashmap_count(&f->strings) == 0 || !text->data) return false;
    buf_t out;
    buf_init(&out);
    bool cut = false;
    const char *p = text->data, *end = text->data + text->len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        const char *vend = eol;
        while (vend > p && (vend[-1] == ' ' || vend[-1] == '\r'))
            vend--;
        const char *hit = NULL, *colon = NULL;
        for (const char *c = p; c + 1 < vend; c++)
            if (c[0] == ':' && c[1] == ' ') {
                colon = c + 2;
                break;
            }
        if (colon && colon < vend && hashmap_find(&f->strings, colon, (size_t)(vend - colon))) hit = colon;
        const char *d = p < vend && *p == '+' ? p + 1 : p;
        while (!hit && d < vend) {
            while (d < vend && *d == ' ')
                d++;
            if (d + 1 >= vend || d[0] != '-' || d[1] != ' ') break;
            d += 2;
            if (d < vend && hashmap_find(&f->strings, d, (size_t)(vend - d))) hit = d;
        }
        if (hit) {
            buf_append(&out, p, (size_t)(hit - p));
            buf_puts(&out, "[secret]");
            buf_append(&out, vend, (size_t)(eol - vend));
            cut = true;
        } else {
            buf_append(&out, p, (size_t)(eol - p));
        }
        if (eol < end) buf_putc(&out, '\n');
        p = eol + 1;
    }
    if (cut) {
        buf_free(text);
        *text = out;
    } else {
        buf_free(&out);
    }
    return cut;
}

/* Cuts every secret out of a text field where it stands as the value (see secret_finder_t): in one
 * pass the needles of four bytes or more (the longest where several start at one place), then each
 * shorter one, then (code) YAML's plain scalars. */
static void scrub_text(cJSON *obj, const char *key, const secret_finder_t *f, scrub_mode_t mode) {
    cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsString(item) || hashmap_count(&f->values) == 0) return;
    const char *text = item->valuestring;
    size_t len = strlen(text), from = 0;
    buf_t out;
    buf_init(&out);
    bool cut = false;
    for (size_t i = 0; i + 4 <= len;) {
        const needle_t *n = needle_at(f, text, len, i, mode);
        if (!n) {
            i++;
            continue;
        }
        buf_append(&out, text + from, i - from);
        put_cut(&out, n);
        i += n->len;
        from = i;
        cut = true;
    }
    buf_append(&out, text + from, len - from);
    for (size_t k = 0; k < f->n_short; k++) {
        const needle_t *n = &f->shorts[k];
        if (!out.data || !strstr(out.data, n->text)) continue;
        buf_t again;
        buf_init(&again);
        const char *p = out.data, *hit;
        bool any = false;
        while ((hit = strstr(p, n->text))) {
            if (!needle_accepted(n, out.data, out.len, (size_t)(hit - out.data), mode)) {
                buf_append(&again, p, (size_t)(hit - p) + 1);
                p = hit + 1;
                continue;
            }
            buf_append(&again, p, (size_t)(hit - p));
            put_cut(&again, n);
            p = hit + n->len;
            any = true;
        }
        buf_puts(&again, p);
        if (any) {
            buf_free(&out);
            out = again;
            cut = true;
        } else {
            buf_free(&again);
        }
    }
    if (mode == SCRUB_CODE && cut_plain_scalars(f, &out)) cut = true;
    if (cut) cJSON_SetValuestring(item, out.data ? out.data : "");
    buf_free(&out);
}

/* Every string at or under a listed path of node (secret_strings_walk) into out. */
static void strings_add(const cJSON *v, hashmap_t *out) {
    if (cJSON_IsString(v) && v->valuestring[0] && strcmp(v->valuestring, "[secret]") != 0)
        hashmap_add_str(out, v->valuestring, NULL);
    for (const cJSON *c = cJSON_IsObject(v) || cJSON_IsArray(v) ? v->child : NULL; c; c = c->next)
        strings_add(c, out);
}

static void secret_strings_walk(const cJSON *node, const char *path, const cJSON *paths, hashmap_t *out) {
    int i = 0;
    for (const cJSON *child = node->child; child; child = child->next, i++) {
        char sub[2048];
        path_child(sub, sizeof sub, path, child, i);
        if (path_listed(paths, sub))
            strings_add(child, out);
        else if (cJSON_IsObject(child) || cJSON_IsArray(child))
            secret_strings_walk(child, sub, paths, out);
    }
}

void report_secret_strings(const cJSON *doc, hashmap_t *out) {
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "resources")) {
        const cJSON *paths = cJSON_GetObjectItemCaseSensitive(r, "secretPaths");
        const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(r, "inputs");
        if (cJSON_IsArray(paths) && inputs && (cJSON_IsObject(inputs) || cJSON_IsArray(inputs)))
            secret_strings_walk(inputs, "", paths, out);
    }
}

/* The holder's code fields replaced by their twins without secrets (holder.redacted), or, when it has
 * none and must (`withhold`), removed. */
static void use_twins(cJSON *holder, bool withhold) {
    static const char *const fields[] = {"code", "pcl", "programDiff"};
    cJSON *twins = cJSON_DetachItemFromObjectCaseSensitive(holder, "redacted");
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        cJSON *twin = cJSON_DetachItemFromObjectCaseSensitive(twins, fields[k]);
        if (cJSON_IsString(twin) && cJSON_ReplaceItemInObjectCaseSensitive(holder, fields[k], twin)) continue;
        if (twin || withhold) cJSON_DeleteItemFromObjectCaseSensitive(holder, fields[k]);
        cJSON_Delete(twin); /* a null twin, or one for a field the holder does not have */
    }
    cJSON_Delete(twins);
}

void report_redact(cJSON *doc) {
    secret_values_t found = {0};
    cJSON *resources = cJSON_GetObjectItemCaseSensitive(doc, "resources");
    cJSON *r;
    cJSON_ArrayForEach(r, resources) {
        const cJSON *paths = cJSON_GetObjectItemCaseSensitive(r, "secretPaths");
        cJSON *inputs = cJSON_GetObjectItemCaseSensitive(r, "inputs");
        if (cJSON_IsArray(paths) && inputs && (cJSON_IsObject(inputs) || cJSON_IsArray(inputs)))
            redact_walk(inputs, "", paths, &found);
    }
    /* plaintext secrets, literal ones in the code, and no twins: an older cimport's --show-secrets document */
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "run"), "secrets");
    bool withhold = found.n > 0 && !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "redacted")) &&
                    cJSON_IsString(mode) && strcmp(mode->valuestring, "literal") == 0;
    cJSON_ArrayForEach(r, resources) use_twins(r, withhold);
    use_twins(doc, withhold);
    secret_finder_t f;
    finder_build(&f, &found);
    cJSON_ArrayForEach(r, resources) {
        scrub_text(r, "code", &f, SCRUB_CODE);
        scrub_text(r, "pcl", &f, SCRUB_CODE);
        /* a resource imported by a secret value (--resume then reads it again); a short one whole */
        scrub_text(r, "importId", &f, SCRUB_ID);
        cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "importId");
        if (cJSON_IsString(id) && hashmap_find_str(&f.values, id->valuestring)) cJSON_SetValuestring(id, "[secret]");
    }
    scrub_text(doc, "code", &f, SCRUB_CODE);
    scrub_text(doc, "programDiff", &f, SCRUB_CODE);
    finder_free(&f);
    for (size_t k = 0; k < found.n; k++)
        free(found.v[k]);
    free(found.v);
    free(found.kind);
}

/* --- the page --------------------------------------------------------------------------------- */

char *report_render(const cJSON *src, const report_options_t *o, size_t *len, diag_list_t *diags) {
    if (!report_check(src, NULL, diags)) return NULL;
    cJSON *doc = cJSON_Duplicate(src, true);
    if (!doc) {
        diag_error(diags, DIAG_GENERIC, "out of memory while rendering the report");
        return NULL;
    }
    char *html = report_render_doc(doc, o, len, diags);
    cJSON_Delete(doc);
    return html;
}

char *report_render_doc(cJSON *doc, const report_options_t *o, size_t *len, diag_list_t *diags) {
    if (!report_check(doc, NULL, diags)) return NULL;
    bool show = o && o->show_secrets;
    if (!show) report_redact(doc);
    cJSON_DeleteItemFromObjectCaseSensitive(doc, "reportShowSecrets");
    cJSON_AddBoolToObject(doc, "reportShowSecrets", show);
    char *json = cJSON_PrintUnformatted(doc);
    if (!json) {
        diag_error(diags, DIAG_GENERIC, "out of memory while rendering the report");
        return NULL;
    }

    const cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run");
    const cJSON *project = cJSON_GetObjectItemCaseSensitive(run, "project");
    const cJSON *stack = cJSON_GetObjectItemCaseSensitive(run, "stack");
    buf_t b;
    buf_init(&b);
    buf_puts(&b,
             "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
             "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
             /* Nothing may be fetched: the page is complete as written. */
             "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
             "script-src 'unsafe-inline'; img-src data:\">\n"
             "<meta name=\"generator\" content=\"cimport report\">\n<title>cimport import report");
    if (cJSON_IsString(project)) {
        buf_puts(&b, " — ");
        put_html(&b, project->valuestring);
        if (cJSON_IsString(stack)) {
            buf_puts(&b, "/");
            put_html(&b, stack->valuestring);
        }
    }
    buf_puts(&b, "</title>\n<style>\n");
    buf_append(&b, report_page_css, report_page_css_len);
    buf_puts(&b, "</style>\n</head>\n<body>\n"
                 "<noscript><p class=\"noscript\">This report draws itself with JavaScript, which is turned off. "
                 "The data is in the page source (the cimport-data element).</p></noscript>\n"
                 "<div id=\"app\"></div>\n<script type=\"application/json\" id=\"cimport-data\">");
    put_script_json(&b, json);
    free(json);
    buf_puts(&b, "</script>\n<script>\n");
    buf_append(&b, report_page_js, report_page_js_len);
    buf_puts(&b, "</script>\n</body>\n</html>\n");
    if (len) *len = b.len;
    return buf_take(&b);
}

bool report_write(const char *path, const cJSON *doc, const report_options_t *o, diag_list_t *diags) {
    size_t len = 0;
    char *html = report_render(doc, o, &len, diags);
    if (!html) return false;
    bool ok = file_write_atomic(path, html, len, 0644, false, diags);
    free(html);
    return ok;
}

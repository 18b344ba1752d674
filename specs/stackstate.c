/* stackstate.c — merges imported resources into a stack export document (see stackstate.h).
 *
 * The old document is parsed with deployment_parse (for validation and the existing resources) and
 * also scanned as text to find where the deployment object and its `resources` array are. New
 * resources are printed in the document's own indentation and spliced in as text, so nothing that
 * was there changes by a single byte. */
#include "specs/stackstate.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/base64.h"
#include "base/fileio.h"
#include "base/hashmap.h"
#include "specs/deployment.h"
#include "specs/importfile.h"
#include "specs/importid.h"
#include "specs/jsonscan.h"
#include "specs/passphrase.h"

#define STACK_TYPE "pulumi:pulumi:Stack"
#define PROVIDER_PREFIX "pulumi:providers:"
#define INTERNAL_KEY "__internal"

void stackstate_options_default(stackstate_options_t *o) {
    memset(o, 0, sizeof *o);
}

void stackstate_report_free(stackstate_report_t *r) {
    if (!r) return;
    arena_free(r->arena);
    memset(r, 0, sizeof *r);
}

/* ---------------------------------------------------------------------------------------------
 * Small helpers: time, UUIDs, base64, names. */

static char *time_now_rfc3339(arena_t *a) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char base[32], frac[16];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    /* Go's RFC3339Nano: the fraction without trailing zeros, none at all when zero. */
    snprintf(frac, sizeof frac, ".%09ld", ts.tv_nsec);
    size_t n = strlen(frac);
    while (n > 1 && frac[n - 1] == '0')
        frac[--n] = 0;
    if (n == 1) frac[0] = 0;
    return arena_sprintf(a, "%s%sZ", base, frac);
}

/* A random (version 4) UUID, as the engine gives a new provider. */
static char *uuid_v4(arena_t *a) {
    unsigned char b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t r = getrandom(b + got, sizeof b - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            abort(); /* no entropy source at all: nothing sensible to do */
        }
        got += (size_t)r;
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    return arena_sprintf(a, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
                         b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static bool name_char_ok(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
}

bool stackstate_is_default_provider_name(const char *name) {
    if (!name || strncmp(name, "default", 7) != 0) return false;
    if (!name[7]) return true;
    /* `default_` then the version's major number, or (no version) the download URL's QName, which
     * holds a `/` (see below); a user's provider default_west is neither */
    return name[7] == '_' && (isdigit((unsigned char)name[8]) || (name[8] && strchr(name + 8, '/')));
}

/* Pulumi's ProviderRequest.Name(): `default`, then `_<major>_<minor>_<patch>`, `_<part>` per
 * prerelease and build part, then `_<QName of the download URL>` (each `/`-separated segment with
 * characters outside [A-Za-z0-9_.-] replaced by `_`, empty segments dropped). */
char *stackstate_default_provider_name(arena_t *a, const char *version, const char *download_url) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "default");
    if (version && *version) {
        const char *v = version[0] == 'v' ? version + 1 : version;
        unsigned long maj = 0, min = 0, pat = 0;
        char *end;
        maj = strtoul(v, &end, 10);
        if (*end == '.') min = strtoul(end + 1, &end, 10);
        if (*end == '.') pat = strtoul(end + 1, &end, 10);
        buf_printf(&b, "_%lu_%lu_%lu", maj, min, pat);
        /* `-pre.parts` then `+build.parts`: every dot-separated part becomes `_part` (a `-` inside a
         * part is a legal name character and stays). */
        if (*end == '-' || *end == '+') {
            buf_putc(&b, '_');
            for (const char *p = end + 1; *p; p++)
                buf_putc(&b, *p == '.' || *p == '+' ? '_' : *p);
        }
    }
    if (download_url && *download_url) {
        size_t n = strlen(download_url);
        while (n > 0 && download_url[n - 1] == '/')
            n--; /* the request trims one trailing slash; all is safe */
        buf_t q;
        buf_init(&q);
        const char *p = download_url, *end = download_url + n;
        while (p < end) {
            const char *slash = memchr(p, '/', (size_t)(end - p));
            const char *seg_end = slash ? slash : end;
            if (seg_end > p) {
                if (q.len) buf_putc(&q, '/');
                for (const char *c = p; c < seg_end; c++)
                    buf_putc(&q, name_char_ok(*c) ? *c : '_');
            }
            p = seg_end + (slash ? 1 : 0);
            if (!slash) break;
        }
        buf_putc(&b, '_');
        if (q.len)
            buf_append(&b, q.data, q.len);
        else
            buf_putc(&b, '_');
        buf_free(&q);
    }
    char *s = buf_arena_str(&b, a);
    buf_free(&b);
    return s;
}

/* `<pkg>` of a type token `<pkg>:<module>:<type>` (or of `pulumi:providers:<pkg>`). */
static char *type_package(arena_t *a, const char *type) {
    if (strncmp(type, PROVIDER_PREFIX, strlen(PROVIDER_PREFIX)) == 0)
        return arena_strdup(a, type + strlen(PROVIDER_PREFIX));
    const char *colon = strchr(type, ':');
    return colon ? arena_strndup(a, type, (size_t)(colon - type)) : arena_strdup(a, type);
}

/* ---------------------------------------------------------------------------------------------
 * A minimal scanner over the (already validated) document text, to find byte offsets.
 *
 * cJSON skips every byte up to 0x20 as whitespace; JSON (and `pulumi stack import`) allows only
 * space, tab, LF and CR there, and so does this scanner. stackstate_merge_text refuses a document
 * with any other control byte outside its strings (document_control_byte) before the scanner runs,
 * and the scanner's loops stop on what they do not understand rather than spin. */

/* Offset of the first control byte (< 0x20, not TAB, LF or CR) outside a string; len if none. */
static size_t document_control_byte(const char *text, size_t len) {
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            return i;
        }
    }
    return len;
}

typedef struct scan {
    const char *s;
    size_t len;
} scan_t;

static size_t scan_ws(const scan_t *sc, size_t p) {
    while (p < sc->len && (sc->s[p] == ' ' || sc->s[p] == '\t' || sc->s[p] == '\n' || sc->s[p] == '\r'))
        p++;
    return p;
}

/* A byte that ends a scalar (a number, true, false, null). Not strchr over the set: it also finds
 * a NUL byte (its terminator), so a scalar "ended" at a NUL without moving past it. */
static bool ends_scalar(char c) {
    switch (c) {
    case ',':
    case '}':
    case ']':
    case ' ':
    case '\t':
    case '\r':
    case '\n': return true;
    default: return false;
    }
}

/* p at an opening quote; returns the offset after the closing quote (or len). */
static size_t scan_string(const scan_t *sc, size_t p) {
    for (p++; p < sc->len; p++) {
        if (sc->s[p] == '\\')
            p++;
        else if (sc->s[p] == '"')
            return p + 1;
    }
    return sc->len;
}

static size_t scan_value(const scan_t *sc, size_t p) {
    if (p >= sc->len) return p;
    char c = sc->s[p];
    if (c == '"') return scan_string(sc, p);
    if (c == '{' || c == '[') {
        int depth = 0;
        for (; p < sc->len; p++) {
            char d = sc->s[p];
            if (d == '"') {
                p = scan_string(sc, p) - 1;
            } else if (d == '{' || d == '[') {
                depth++;
            } else if (d == '}' || d == ']') {
                if (--depth == 0) return p + 1;
            }
        }
        return sc->len;
    }
    while (p < sc->len && !ends_scalar(sc->s[p]))
        p++;
    return p;
}

/* Where a member sits in an object. */
typedef struct member_pos {
    bool found;
    size_t key;       /* offset of the key's opening quote */
    size_t val_start; /* offset of the value */
    size_t val_end;   /* offset after the value */
} member_pos_t;

typedef struct object_pos {
    size_t open, close;     /* offsets of `{` and `}` */
    size_t last_member_end; /* offset after the last member's value (open + 1 when empty) */
    size_t n_members;
} object_pos_t;

/* The key [kstart, kend) (quotes included) names `key`: an escaped key is compared decoded, as the
 * document's reader (cJSON) found it ("\u0072esources" is `resources`). */
static bool key_is(const scan_t *sc, size_t kstart, size_t kend, const char *key, size_t klen) {
    if (kend - kstart < 2) return false;
    jscan_range_t r = {kstart + 1, kend - 1};
    if (!memchr(sc->s + r.start, '\\', r.end - r.start))
        return r.end - r.start == klen && memcmp(sc->s + r.start, key, klen) == 0;
    jscan_t js;
    jscan_init(&js, sc->s, sc->len);
    return jscan_key_is(&js, r, true, key);
}

/* Scans the object at p; finds `key` (its first occurrence, as cJSON does). False if p is not an object. */
static bool scan_object(const scan_t *sc, size_t p, const char *key, object_pos_t *obj, member_pos_t *m) {
    memset(obj, 0, sizeof *obj);
    if (m) memset(m, 0, sizeof *m);
    if (p >= sc->len || sc->s[p] != '{') return false;
    obj->open = p;
    obj->last_member_end = p + 1;
    size_t klen = key ? strlen(key) : 0;
    p = scan_ws(sc, p + 1);
    while (p < sc->len && sc->s[p] != '}') {
        if (sc->s[p] != '"') return false;
        size_t kstart = p;
        size_t kend = scan_string(sc, p);
        p = scan_ws(sc, kend);
        if (p >= sc->len || sc->s[p] != ':') return false;
        p = scan_ws(sc, p + 1);
        size_t vstart = p;
        size_t vend = scan_value(sc, p);
        if (m && !m->found && key && key_is(sc, kstart, kend, key, klen)) {
            m->found = true;
            m->key = kstart;
            m->val_start = vstart;
            m->val_end = vend;
        }
        obj->n_members++;
        obj->last_member_end = vend;
        p = scan_ws(sc, vend);
        if (p < sc->len && sc->s[p] == ',') p = scan_ws(sc, p + 1);
    }
    if (p >= sc->len) return false;
    obj->close = p;
    return true;
}

/* The whitespace run before offset p on its line (for matching indentation); "" when p does not
 * start a line. */
static char *line_indent(arena_t *a, const scan_t *sc, size_t p) {
    size_t q = p;
    while (q > 0 && (sc->s[q - 1] == ' ' || sc->s[q - 1] == '\t'))
        q--;
    if (q > 0 && sc->s[q - 1] != '\n') return arena_strdup(a, "");
    return arena_strndup(a, sc->s + q, p - q);
}

/* ---------------------------------------------------------------------------------------------
 * Printing new JSON in the document's style. */

typedef struct style {
    bool pretty;
    const char *unit; /* one level of indentation */
} style_t;

static void print_json(buf_t *b, const cJSON *j, const style_t *st, const char *indent);

static void print_container(buf_t *b, const cJSON *j, const style_t *st, const char *indent, bool object) {
    const cJSON *c = j->child;
    if (!c) {
        buf_puts(b, object ? "{}" : "[]");
        return;
    }
    char *inner = NULL;
    if (st->pretty) {
        size_t n = strlen(indent) + strlen(st->unit);
        inner = malloc(n + 1);
        if (!inner) abort();
        snprintf(inner, n + 1, "%s%s", indent, st->unit);
    }
    buf_putc(b, object ? '{' : '[');
    for (; c; c = c->next) {
        if (st->pretty) {
            buf_putc(b, '\n');
            buf_puts(b, inner);
        }
        if (object) {
            cJSON *k = cJSON_CreateString(c->string);
            char *ks = cJSON_PrintUnformatted(k);
            buf_puts(b, ks);
            free(ks);
            cJSON_Delete(k);
            buf_puts(b, st->pretty ? ": " : ":");
        }
        print_json(b, c, st, st->pretty ? inner : "");
        if (c->next) buf_putc(b, ',');
    }
    if (st->pretty) {
        buf_putc(b, '\n');
        buf_puts(b, indent);
    }
    buf_putc(b, object ? '}' : ']');
    free(inner);
}

static void print_json(buf_t *b, const cJSON *j, const style_t *st, const char *indent) {
    if (cJSON_IsObject(j) || cJSON_IsArray(j)) {
        print_container(b, j, st, indent, cJSON_IsObject(j));
        return;
    }
    char *s = cJSON_PrintUnformatted(j);
    buf_puts(b, s);
    free(s);
}

/* ---------------------------------------------------------------------------------------------
 * Secrets. */

typedef enum {
    SECRETS_B64 = 0,    /* the document uses (or will use, asked for by name) the b64 provider */
    SECRETS_PASSPHRASE, /* the passphrase provider: encrypted with the stack's key */
    SECRETS_PLAINTEXT,  /* a provider cimport cannot encrypt for: plaintext form */
} secrets_mode_t;

/* A copy of v without ciphertexts where the plaintext is known, so every secret is re-encoded for
 * this document's secrets provider rather than carrying another stack's ciphertext. */
static void secrets_drop_ciphertext(pv_t *v) {
    if (!v) return;
    switch (v->kind) {
    case PV_SECRET:
        if (v->u.secret.inner) {
            v->u.secret.ciphertext = NULL;
            secrets_drop_ciphertext(v->u.secret.inner);
        }
        break;
    case PV_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++)
            secrets_drop_ciphertext(v->u.arr.items[i]);
        break;
    case PV_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++)
            secrets_drop_ciphertext(v->u.obj.members[i].value);
        break;
    default: break;
    }
}

/* Rewrites plaintext secret objects of j for the mode; counts the secrets, those left in plaintext
 * and those that are opaque ciphertexts. */
static void secrets_encode(cJSON *j, secrets_mode_t mode, const passphrase_crypter_t *crypter, size_t *n_all,
                           size_t *n_plain, size_t *n_opaque) {
    if (!j) return;
    if (cJSON_IsObject(j)) {
        const cJSON *sig = cJSON_GetObjectItemCaseSensitive(j, PV_SIG_KEY);
        if (cJSON_IsString(sig) && strcmp(sig->valuestring, PV_SIG_SECRET) == 0) {
            (*n_all)++;
            cJSON *pt = cJSON_GetObjectItemCaseSensitive(j, "plaintext");
            if (cJSON_IsString(pt)) {
                if (mode == SECRETS_B64 || mode == SECRETS_PASSPHRASE) {
                    /* Both encode the value's JSON text, as Pulumi's secrets managers do. */
                    char *ct = mode == SECRETS_B64
                                   ? base64_encode(pt->valuestring, strlen(pt->valuestring))
                                   : passphrase_encrypt(crypter, pt->valuestring, strlen(pt->valuestring));
                    if (!ct) abort(); /* libcrypto could not encrypt: never fall back to plaintext */
                    cJSON_DeleteItemFromObjectCaseSensitive(j, "plaintext");
                    cJSON_AddStringToObject(j, "ciphertext", ct);
                    free(ct);
                } else {
                    (*n_plain)++;
                }
            } else {
                (*n_opaque)++;
            }
            return; /* the inner value is inside the encoded text: nothing nested to visit */
        }
    }
    for (cJSON *c = j->child; c; c = c->next)
        secrets_encode(c, mode, crypter, n_all, n_plain, n_opaque);
}

/* ---------------------------------------------------------------------------------------------
 * The merge. */

typedef struct new_res {
    const char *urn;
    const char *type;
    const char *id;
    const char *parent;
    const char *provider_urn; /* for ordering: the provider resource this one depends on */
    cJSON *json;
    bool emitted, visiting;
    const stackstate_resource_t *src; /* NULL for stack/providers made here */
} new_res_t;

typedef struct merge {
    arena_t *a;
    const char *path;
    const deployment_t *d; /* NULL for a new document */
    const char *stack, *project;
    const char *now;
    new_res_t *items;
    size_t n_items, cap_items;
    const stackstate_options_t *opts;
    stackstate_report_t *rep;
    diag_list_t *diags;
    /* URN → the document's live resource (the first of a URN), made on first use; URN → new item's
     * index + 1: looked up for every resource's parent and provider (a scan each was quadratic:
     * 100,000 resources into a stack took minutes) */
    hashmap_t state_urns, new_urns;
    bool state_indexed;
    /* Reading the recorded secrets, to compare them with the ones read now: the crypter of the stack's
     * passphrase, or why they cannot be read; looked for once, at the first recorded ciphertext. */
    const passphrase_crypter_t *reveal;
    const char *reveal_unable;
    bool reveal_tried;
    /* package → the URN of the stack's one default provider of it ("" when it has several), made on
     * first use (stack_default_provider) */
    hashmap_t pkg_defaults;
    bool pkg_defaults_indexed;
} merge_t;

static const state_resource_t *state_find(merge_t *m, const char *urn) {
    if (!m->d) return NULL;
    if (!m->state_indexed) {
        hashmap_reserve(&m->state_urns, m->d->n_resources);
        for (size_t i = 0; i < m->d->n_resources; i++) {
            const state_resource_t *r = &m->d->resources[i];
            if (!r->del) hashmap_add_str(&m->state_urns, r->urn, (void *)r);
        }
        m->state_indexed = true;
    }
    void **r = hashmap_find_str(&m->state_urns, urn);
    return r ? *r : NULL;
}

static new_res_t *new_find(const merge_t *m, const char *urn) {
    void **i = hashmap_find_str(&m->new_urns, urn);
    return i ? &m->items[(uintptr_t)*i - 1] : NULL;
}

static new_res_t *new_add(merge_t *m, const char *urn, const char *type) {
    m->items = arena_grow_array(m->a, m->items, &m->cap_items, m->n_items + 1, sizeof *m->items);
    new_res_t *r = &m->items[m->n_items++];
    memset(r, 0, sizeof *r);
    r->urn = urn;
    r->type = type;
    hashmap_add_str(&m->new_urns, urn, (void *)(uintptr_t)m->n_items); /* the first of a URN, as the scan found */
    return r;
}

static void report_add(merge_t *m, const char *urn, const char *type, const char *id, stackstate_outcome_t o) {
    stackstate_report_t *rep = m->rep;
    size_t n = rep->n_entries;
    rep->entries = arena_grow_array(rep->arena, rep->entries, &rep->cap_entries, n + 1, sizeof *rep->entries);
    stackstate_report_entry_t *e = &rep->entries[n];
    e->urn = arena_strdup(rep->arena, urn);
    e->type = arena_strdup(rep->arena, type);
    e->id = id ? arena_strdup(rep->arena, id) : NULL;
    e->outcome = o;
    rep->n_entries = n + 1;
    if (o == STACKSTATE_ADDED) rep->n_added++;
    if (o == STACKSTATE_SAME) rep->n_same++;
}

/* A ResourceV3 object with the engine's key order; empty fields omitted (omitempty). */
static cJSON *resource_json(const char *urn, bool custom, const char *id, const char *type, const pv_t *inputs,
                            const pv_t *outputs, const char *parent, bool protect, const char *provider_ref,
                            const char *now) {
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "urn", urn);
    cJSON_AddBoolToObject(r, "custom", custom);
    if (id && *id) cJSON_AddStringToObject(r, "id", id);
    cJSON_AddStringToObject(r, "type", type);
    if (inputs && inputs->kind == PV_OBJECT && inputs->u.obj.len)
        cJSON_AddItemToObject(r, "inputs", pv_to_state_json(inputs));
    if (outputs && outputs->kind == PV_OBJECT && outputs->u.obj.len)
        cJSON_AddItemToObject(r, "outputs", pv_to_state_json(outputs));
    if (parent && *parent) cJSON_AddStringToObject(r, "parent", parent);
    if (protect) cJSON_AddBoolToObject(r, "protect", true);
    if (provider_ref && *provider_ref) cJSON_AddStringToObject(r, "provider", provider_ref);
    cJSON_AddStringToObject(r, "created", now);
    cJSON_AddStringToObject(r, "modified", now);
    return r;
}

static const pv_t *package_config(const merge_t *m, const char *pkg) {
    if (!m->opts) return NULL;
    for (size_t i = 0; i < m->opts->n_config; i++)
        if (m->opts->config[i].package && strcmp(m->opts->config[i].package, pkg) == 0)
            return m->opts->config[i].config;
    return NULL;
}

/* Provider inputs: the given ones + `version` + `__internal` (with pluginDownloadURL when set). */
static pv_t *provider_inputs(arena_t *a, const pv_t *base, const char *version, const char *download_url) {
    pv_t *in = base && base->kind == PV_OBJECT ? pv_clone(a, base) : pv_object(a);
    pv_t *internal = pv_object_get(in, INTERNAL_KEY);
    if (!internal || internal->kind != PV_OBJECT) {
        internal = pv_object(a);
        pv_object_set(a, in, INTERNAL_KEY, internal);
    }
    if (download_url && *download_url) pv_object_set(a, internal, "pluginDownloadURL", pv_string(a, download_url));
    if (version && *version) pv_object_set(a, in, "version", pv_string(a, version[0] == 'v' ? version + 1 : version));
    return in;
}

/* Records a provider (explicit or default) that is not in the state; returns its reference. */
static const char *provider_create(merge_t *m, const char *urn, const pv_t *base, const char *version,
                                   const char *download_url, const char *parent) {
    new_res_t *nr = new_find(m, urn);
    if (nr) return arena_sprintf(m->a, "%s::%s", nr->urn, nr->id);
    char *type = urn_type(m->a, urn);
    nr = new_add(m, urn, type);
    nr->id = uuid_v4(m->a);
    nr->parent = parent;
    pv_t *in = provider_inputs(m->a, base, version, download_url);
    pv_t *out = pv_clone(m->a, in);
    pv_object_remove(out, INTERNAL_KEY);
    /* The engine stores `__internal: {}` even when empty; pv_to_state_json keeps empty objects, but
     * resource_json omits empty maps, which matters only when there is nothing else. */
    nr->json = resource_json(urn, true, nr->id, type, in, out, parent, false, NULL, m->now);
    report_add(m, urn, type, nr->id, STACKSTATE_ADDED);
    return arena_sprintf(m->a, "%s::%s", urn, nr->id);
}

/* The reference `<urn>::<id>` of a provider URN: from the state, else made here. */
static const char *provider_ref_for(merge_t *m, const char *urn, const pv_t *base, const char *version,
                                    const char *download_url, const char *parent) {
    const state_resource_t *r = state_find(m, urn);
    if (r) return arena_sprintf(m->a, "%s::%s", r->urn, r->id ? r->id : "");
    return provider_create(m, urn, base, version, download_url, parent);
}

static bool emit_order(merge_t *m, new_res_t *r, new_res_t **order, size_t *n) {
    if (r->emitted) return true;
    if (r->visiting) {
        diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
                 "resource '%s' depends on itself through its parent or provider; fix the import file's parents",
                 r->urn);
        return false;
    }
    r->visiting = true;
    const char *deps[2] = {r->parent, r->provider_urn};
    for (int i = 0; i < 2; i++) {
        if (!deps[i]) continue;
        new_res_t *dep = new_find(m, deps[i]);
        if (dep && dep != r && !emit_order(m, dep, order, n)) return false;
    }
    r->visiting = false;
    r->emitted = true;
    order[(*n)++] = r;
    return true;
}

/* The stack resource of the document (a `pulumi:pulumi:Stack` without parent), or NULL. */
static const state_resource_t *state_stack(const deployment_t *d) {
    if (!d) return NULL;
    for (size_t i = 0; i < d->n_resources; i++)
        if (!d->resources[i].del && strcmp(d->resources[i].type, STACK_TYPE) == 0 && !d->resources[i].parent)
            return &d->resources[i];
    return NULL;
}

static bool check_inputs(merge_t *m, const stackstate_resource_t *res, size_t n) {
    char *prefix = arena_sprintf(m->a, "urn:pulumi:%s::%s::", m->stack, m->project);
    bool ok = true;
    hashmap_t seen = {0}; /* the URNs given so far */
    for (size_t i = 0; i < n; i++) {
        const stackstate_resource_t *r = &res[i];
        if (!r->urn || !r->type || !urn_is_valid(r->urn)) {
            diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
                     "resource #%zu to record has no valid URN or type; this is a bug in the caller", i);
            ok = false;
            continue;
        }
        if (strncmp(r->urn, prefix, strlen(prefix)) != 0) {
            char advice[DIAG_ADVICE_MAX];
            diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
                     "resource '%s' does not belong to stack '%s' of project '%s'%s", r->urn, m->stack, m->project,
                     diag_advice(advice, DIAG_ADVICE_STACK_NAMES, NULL));
            ok = false;
        }
        if (r->custom && !r->is_provider && (!r->id || !*r->id)) {
            diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
                     "resource '%s' is a custom resource without an ID and cannot be recorded", r->urn);
            ok = false;
        }
        if (r->urn && !hashmap_add_str(&seen, r->urn, NULL)) {
            char *name = urn_name(m->a, r->urn);
            diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL, "duplicate import '%s' of type '%s'", name,
                     r->type);
            ok = false;
        }
    }
    hashmap_free(&seen);
    return ok;
}

/* Whether the recorded ciphertexts can be read: the stack's passphrase key, opened once. */
static bool reveal_open(merge_t *m) {
    if (m->reveal_tried) return m->reveal != NULL;
    m->reveal_tried = true;
    const char *salt;
    const char *sp = deployment_secrets_provider(m->d, &salt);
    if (!sp || strcmp(sp, "passphrase") != 0) {
        m->reveal_unable = sp ? arena_sprintf(m->a,
                                              "the stack's '%s' secrets provider encrypts them, which cimport "
                                              "cannot decrypt",
                                              sp)
                              : "the stack records them as ciphertext and names no secrets provider";
        return false;
    }
    if (!m->opts || !m->opts->keyring) {
        m->reveal_unable = "the stack encrypts them with its passphrase, and no passphrase is set "
                           "(PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE)";
        return false;
    }
    diag_list_t quiet;
    diag_list_init(&quiet);
    m->reveal = passphrase_keyring_open(m->opts->keyring, salt, m->path, &quiet);
    diag_list_free(&quiet);
    if (!m->reveal) m->reveal_unable = "the passphrase set does not decrypt the stack's secrets";
    return m->reveal != NULL;
}

/* v with every secret replaced by its value, a recorded ciphertext decrypted with the stack's key
 * (never printed: only compared); NULL when a secret cannot be read (m->reveal_unable says why). */
static const pv_t *secrets_revealed(merge_t *m, const pv_t *v) {
    if (!v || !pv_contains_secret(v)) return v;
    switch (v->kind) {
    case PV_SECRET: {
        if (v->u.secret.inner) return secrets_revealed(m, v->u.secret.inner);
        if (!v->u.secret.ciphertext || !reveal_open(m)) return NULL;
        const pv_t *inner = deployment_secret_decrypt(m->a, v->u.secret.ciphertext, m->reveal);
        if (!inner) {
            m->reveal_unable = "they do not decrypt with the stack's passphrase";
            return NULL;
        }
        return secrets_revealed(m, inner);
    }
    case PV_ARRAY: {
        pv_t *c = pv_array(m->a);
        for (size_t i = 0; i < v->u.arr.len; i++) {
            const pv_t *item = secrets_revealed(m, v->u.arr.items[i]);
            if (!item) return NULL;
            pv_array_push(m->a, c, (pv_t *)item);
        }
        return c;
    }
    case PV_OBJECT: {
        pv_t *c = pv_object(m->a);
        for (size_t i = 0; i < v->u.obj.len; i++) {
            const pv_t *item = secrets_revealed(m, v->u.obj.members[i].value);
            if (!item) return NULL;
            pv_object_set(m->a, c, v->u.obj.members[i].key, (pv_t *)item);
        }
        return c;
    }
    case PV_OUTPUT: return v->u.output.value ? secrets_revealed(m, v->u.output.value) : v;
    default: return v;
    }
}

/* The top-level keys whose values differ between a resource's recorded inputs and the ones given now,
 * joined by ", "; NULL when none do. Keys of the engine's own (`__defaults`) are not compared. Secrets
 * are compared by their values (a recorded one decrypted with the stack's passphrase; whether a value
 * is secret is not compared); a key holding a secret that cannot be read on both sides is appended to
 * *unread, one that holds a secret on one side only differs. */
static const char *inputs_differ(merge_t *m, const pv_t *old, const pv_t *now, buf_t *unread) {
    if (!now || now->kind != PV_OBJECT) return NULL;
    buf_t b;
    buf_init(&b);
    for (int side = 0; side < 2; side++) {
        const pv_t *x = side ? old : now, *y = side ? now : old;
        if (!x || x->kind != PV_OBJECT) continue;
        for (size_t k = 0; k < x->u.obj.len; k++) {
            const char *key = x->u.obj.members[k].key;
            if (strncmp(key, "__", 2) == 0) continue;
            const pv_t *u = x->u.obj.members[k].value, *v = y ? pv_object_get(y, key) : NULL;
            if (side && v) continue; /* in both: compared on the first pass */
            if (pv_contains_secret(u) || pv_contains_secret(v)) {
                /* a side without the key (or null) is read as it is: a secret there and none here is a
                 * difference, read or not (a secret holds a value); read, one that holds null is none */
                bool u_none = !u || u->kind == PV_NULL, v_none = !v || v->kind == PV_NULL;
                const pv_t *ru = u_none ? NULL : secrets_revealed(m, u), *rv = v_none ? NULL : secrets_revealed(m, v);
                if ((!u_none && !ru) || (!v_none && !rv)) {
                    if (u_none || v_none)
                        buf_printf(&b, "%s%s", b.len ? ", " : "", key);
                    else
                        buf_printf(unread, "%s%s", unread->len ? ", " : "", key);
                    continue;
                }
                u = ru, v = rv;
            }
            bool u_null = !u || u->kind == PV_NULL, v_null = !v || v->kind == PV_NULL;
            if (u_null && v_null) continue;
            if (!u_null && !v_null && pv_equal(u, v)) continue;
            buf_printf(&b, "%s%s", b.len ? ", " : "", key);
        }
    }
    const char *r = b.len ? arena_strndup(m->rep->arena, b.data, b.len) : NULL;
    buf_free(&b);
    return r;
}

bool stackstate_is_provider_config_key(const char *key) {
    return strcmp(key, "version") != 0 && strcmp(key, "pluginDownloadURL") != 0 && strncmp(key, "__", 2) != 0;
}

/* inputs_differ for a provider's inputs, leaving out what is no configuration
 * (stackstate_is_provider_config_key). */
static const char *provider_inputs_differ(merge_t *m, const pv_t *old, const pv_t *now, buf_t *unread) {
    const pv_t *side[2] = {old, now};
    pv_t *kept[2];
    for (int k = 0; k < 2; k++) {
        kept[k] = pv_object(m->a);
        for (size_t i = 0; side[k] && side[k]->kind == PV_OBJECT && i < side[k]->u.obj.len; i++) {
            const char *key = side[k]->u.obj.members[i].key;
            if (stackstate_is_provider_config_key(key))
                pv_object_set(m->a, kept[k], key, side[k]->u.obj.members[i].value);
        }
    }
    return inputs_differ(m, kept[0], kept[1], unread);
}

/* The URN of the stack's one live default provider of package pkg; NULL when it has none or several. */
static const char *stack_default_provider(merge_t *m, const char *pkg) {
    if (!m->d) return NULL;
    if (!m->pkg_defaults_indexed) {
        m->pkg_defaults_indexed = true;
        size_t pl = strlen(PROVIDER_PREFIX);
        for (size_t i = 0; i < m->d->n_resources; i++) {
            const state_resource_t *r = &m->d->resources[i];
            if (r->del || strncmp(r->type, PROVIDER_PREFIX, pl) != 0 ||
                !stackstate_is_default_provider_name(urn_name(m->a, r->urn)))
                continue;
            void **had = hashmap_find_str(&m->pkg_defaults, r->type + pl);
            if (had)
                *had = (void *)"";
            else
                hashmap_add_str(&m->pkg_defaults, r->type + pl, (void *)r->urn);
        }
    }
    void **v = hashmap_find_str(&m->pkg_defaults, pkg);
    return v && **(const char **)v ? *v : NULL;
}

/* The URN of the provider the run records for a resource: its explicit one, else its package's default
 * provider of its version — or, with no version or download URL asked for (an offline import), the
 * stack's one default provider of the package: the one its program's SDK registers (`default_4_16_0`),
 * where an unversioned `default` beside it would be moved off and deleted by the next update. */
static const char *provider_urn_of(merge_t *m, const stackstate_resource_t *r) {
    if (r->provider_urn) return r->provider_urn;
    char *pkg = r->package ? arena_strdup(m->a, r->package) : type_package(m->a, r->type);
    const char *theirs = (!r->version || !*r->version) && (!r->plugin_download_url || !*r->plugin_download_url)
                             ? stack_default_provider(m, pkg)
                             : NULL;
    if (theirs) return theirs;
    char *name = stackstate_default_provider_name(m->a, r->version, r->plugin_download_url);
    return arena_sprintf(m->a, "urn:pulumi:%s::%s::%s%s::%s", m->stack, m->project, PROVIDER_PREFIX, pkg, name);
}

/* The URN of a state resource's provider reference ("URN::ID"), NULL without one. */
static char *provider_ref_urn(arena_t *a, const char *ref) {
    const char *sep = ref ? strstr(ref, "::") : NULL, *last = NULL;
    for (; sep; sep = strstr(sep + 2, "::"))
        last = sep;
    return last ? arena_strndup(a, ref, (size_t)(last - ref)) : NULL;
}

const char *stackstate_object_key(arena_t *a, const char *type, const char *id, const char *provider_urn, size_t *len) {
    if (!provider_urn || stackstate_is_default_provider_name(urn_name(a, provider_urn))) provider_urn = "";
    size_t tl = strlen(type), il = strlen(id), pl = strlen(provider_urn);
    char *key = arena_alloc(a, tl + il + pl + 3);
    memcpy(key, type, tl + 1);
    memcpy(key + tl + 1, id, il + 1);
    memcpy(key + tl + il + 2, provider_urn, pl + 1);
    *len = tl + il + pl + 2;
    return key;
}

/* A default provider the stack holds already, recorded with another configuration than the stack's
 * configuration gives its package now (the resources were read with the one now): Pulumi registers the
 * default provider with the configuration now, so its next preview updates the provider (or replaces it,
 * and every resource under it, when the provider says the change needs that). The new resources are
 * recorded under it all the same (the stack has one default provider of a version); a warning, and
 * rep->n_provider_differ so that no run promises "no changes". */
static void default_provider_differs(merge_t *m, const state_resource_t *old, const char *pkg, const pv_t *config) {
    buf_t unread;
    buf_init(&unread);
    const char *d = provider_inputs_differ(m, old->inputs, config ? config : pv_object(m->a), &unread);
    if (d || unread.len) {
        diag_add(m->diags, DIAG_WARNING, DIAG_INPUT, m->path, NULL,
                 "the stack's default provider '%s' records another configuration (%s%s%s) than the stack's "
                 "configuration gives the %s package now, which the resources were read with: `pulumi preview` "
                 "shows that provider updated (or replaced, with every resource under it, if the provider says the "
                 "change needs it; a protected resource fails the preview), and `pulumi up` records the "
                 "configuration now",
                 old->urn, d ? d : "", d && unread.len ? ", " : "",
                 unread.len ? arena_sprintf(m->a, "%s: %s", unread.data,
                                            m->reveal_unable ? m->reveal_unable : "its secrets cannot be read")
                            : "",
                 pkg);
        m->rep->n_provider_differ++;
    }
    buf_free(&unread);
}

/* A resource the stack records already, under another provider or parent than the run gives it: the
 * code written declares the run's. Pulumi diffs a changed provider's configuration and may replace the
 * resource (step_generator providerChanged; from or to an explicit provider always, in older engines),
 * and records the new parent. Two default providers (another version) are the engine's to diff, as on
 * any provider upgrade: not counted. Appends "provider"/"parent" to *differs with a warning for each. */
static void options_differ(merge_t *m, const state_resource_t *old, const stackstate_resource_t *r,
                           const char *stack_urn, buf_t *differs) {
    if ((r->custom || r->remote) && old->provider && *old->provider) {
        char *old_urn = provider_ref_urn(m->a, old->provider);
        const char *want = provider_urn_of(m, r);
        bool old_default = old_urn && stackstate_is_default_provider_name(urn_name(m->a, old_urn));
        bool want_default = !r->provider_urn;
        if (old_urn && strcmp(old_urn, want) != 0 && !(old_default && want_default)) {
            buf_printf(differs, "%sprovider", differs->len ? ", " : "");
            diag_add(m->diags, DIAG_WARNING, DIAG_INPUT, m->path, NULL,
                     "resource '%s' is in the stack already with provider '%s', but the code written declares it "
                     "with %s ('%s'): Pulumi compares the two providers' configuration and can replace the resource "
                     "(a protected one fails the preview); %s",
                     r->urn, old_urn, want_default ? "the default provider" : "another provider", want,
                     old_default ? "remove the resource's `provider` from the import file"
                                 : "give the resource the stack's provider in the import file (its `provider`)");
        }
    }
    const char *parent = r->parent_urn ? r->parent_urn : stack_urn;
    const char *old_parent = old->parent && *old->parent ? old->parent : stack_urn; /* top level either way */
    if (strcmp(old_parent, parent) != 0) {
        buf_printf(differs, "%sparent", differs->len ? ", " : "");
        diag_add(m->diags, DIAG_WARNING, DIAG_INPUT, m->path, NULL,
                 "resource '%s' is in the stack already with parent '%s', but the code written declares it with "
                 "parent '%s': `pulumi up` with it records the new parent; give the resource the stack's parent in "
                 "the import file (its `parent`)",
                 r->urn, old_parent, parent);
    }
}

/* Explicit providers configured alike reach one account: *canon maps each provider's URN to "" when it
 * is configured as its package's default provider is this run (package_config), else to the first one's
 * configured as it (the stack's providers first, then the import file's new ones), so that an object
 * under either has one key. A provider whose secrets cannot be read is no other's alike. */
/* Whether two providers' inputs are one configuration (provider_inputs_differ finds nothing and every
 * secret could be read). */
static bool inputs_alike(merge_t *m, const pv_t *a, const pv_t *b) {
    buf_t unread;
    buf_init(&unread);
    bool alike = !provider_inputs_differ(m, a, b, &unread) && !unread.len;
    buf_free(&unread);
    return alike;
}

static void alike_providers(merge_t *m, const stackstate_resource_t *res, size_t n, hashmap_t *canon) {
    size_t cap = (m->d ? m->d->n_resources : 0) + n, k = 0;
    const char **urn = arena_alloc(m->a, (cap ? cap : 1) * sizeof *urn),
               **type = arena_alloc(m->a, (cap ? cap : 1) * sizeof *type);
    const pv_t **in = arena_alloc(m->a, (cap ? cap : 1) * sizeof(const pv_t *));
    for (size_t i = 0; m->d && i < m->d->n_resources; i++) {
        const state_resource_t *r = &m->d->resources[i];
        if (r->del || strncmp(r->type, PROVIDER_PREFIX, strlen(PROVIDER_PREFIX)) != 0 ||
            stackstate_is_default_provider_name(urn_name(m->a, r->urn)))
            continue;
        urn[k] = r->urn, type[k] = r->type, in[k++] = r->inputs;
    }
    for (size_t i = 0; i < n; i++)
        if (res[i].is_provider && !state_find(m, res[i].urn))
            urn[k] = res[i].urn, type[k] = res[i].type, in[k++] = res[i].inputs;
    for (size_t i = 0; i < k; i++) {
        const pv_t *dc = package_config(m, type[i] + strlen(PROVIDER_PREFIX));
        if (inputs_alike(m, in[i], dc ? dc : pv_object(m->a))) hashmap_add(canon, urn[i], strlen(urn[i]), (void *)"");
    }
    for (size_t j = 1; j < k; j++)
        for (size_t i = 0; i < j && !hashmap_find(canon, urn[j], strlen(urn[j])); i++) {
            if (strcmp(type[i], type[j]) != 0 || hashmap_find(canon, urn[i], strlen(urn[i]))) continue;
            if (inputs_alike(m, in[i], in[j])) hashmap_add(canon, urn[j], strlen(urn[j]), (void *)urn[i]);
        }
}

const char *stackstate_explicit_provider_name(arena_t *a, const char *provider_urn) {
    const char *name = provider_urn ? urn_name(a, provider_urn) : NULL;
    return name && !stackstate_is_default_provider_name(name) ? name : NULL;
}

/* The URN that stands for provider_urn's configuration (alike_providers). */
static const char *canon_provider(const hashmap_t *canon, const char *provider_urn) {
    void **v = provider_urn ? hashmap_find(canon, provider_urn, strlen(provider_urn)) : NULL;
    return v ? *v : provider_urn;
}

/* Builds the new resources (m->items) from the inputs; false with diagnostics on conflicts. */
static bool plan_new_resources(merge_t *m, const stackstate_resource_t *res, size_t n, const char **stack_urn) {
    const state_resource_t *st = state_stack(m->d);
    if (st) {
        *stack_urn = st->urn;
    } else {
        char *urn =
            arena_sprintf(m->a, "urn:pulumi:%s::%s::%s::%s-%s", m->stack, m->project, STACK_TYPE, m->project, m->stack);
        *stack_urn = urn;
        new_res_t *nr = new_add(m, urn, STACK_TYPE);
        nr->json = resource_json(urn, false, NULL, STACK_TYPE, NULL, NULL, NULL, false, NULL, m->now);
        m->rep->created_stack = true;
        report_add(m, urn, STACK_TYPE, NULL, STACKSTATE_ADDED);
    }

    bool ok = true;
    /* The stack's managed custom resources by type, ID and provider configuration: another URN with one
     * of them would be a second Pulumi resource managing the same cloud object. */
    hashmap_t by_id = {0}, canon = {0}, pending = {0}; /* pending: the same, held pending deletion */
    if (m->d && n) alike_providers(m, res, n, &canon);
    for (size_t i = 0; m->d && n && i < m->d->n_resources; i++) {
        const state_resource_t *r = &m->d->resources[i];
        /* a pending deletion with retainOnDelete is dropped from the state, the object left (Pulumi's
         * DeleteStep): it dooms nothing */
        if (r->external || !r->custom || !r->id || !*r->id || (r->del && r->retain_on_delete) ||
            strncmp(r->type, PROVIDER_PREFIX, strlen(PROVIDER_PREFIX)) == 0 || importid_id_is_no_identity(r->type))
            continue;
        size_t kl;
        const char *key = stackstate_object_key(m->a, r->type, r->id,
                                                canon_provider(&canon, provider_ref_urn(m->a, r->provider)), &kl);
        hashmap_add(r->del ? &pending : &by_id, key, kl, (void *)r);
    }
    /* 1. Conflicts with the state and explicit providers declared in the import file. */
    bool *skip = arena_alloc(m->a, (n ? n : 1) * sizeof *skip);
    hashmap_t default_seen = {0}; /* the stack's default providers compared with the stack's config */
    for (size_t i = 0; i < n; i++) {
        const stackstate_resource_t *r = &res[i];
        const state_resource_t *old = state_find(m, r->urn);
        if (pending.count && r->custom && !r->is_provider && r->id) {
            /* Pulumi's next update deletes every resource its base snapshot holds pending deletion
             * (a replacement whose delete did not finish), whatever the program declares */
            size_t kl;
            const char *key =
                stackstate_object_key(m->a, r->type, r->id, canon_provider(&canon, provider_urn_of(m, r)), &kl);
            void **doomed = hashmap_find(&pending, key, kl);
            if (doomed) {
                const state_resource_t *t = *doomed;
                diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
                         "resource '%s' has the type and ID ('%s') of '%s', which the stack holds pending deletion "
                         "(a replacement whose delete did not finish): %s; if it must stay, take that entry out of "
                         "the stack first (`pulumi state delete '%s'`, or `pulumi state edit`), then import it",
                         r->urn, r->id, t->urn,
                         t->protect ? "Pulumi's next update fails on that entry, which is protected, and deletes the "
                                      "object once the protection is taken off"
                                    : "Pulumi's next update deletes that object whatever the program declares",
                         t->urn);
                ok = false;
                continue;
            }
        }
        if (!old && by_id.count && r->custom && !r->is_provider && r->id) {
            size_t kl;
            const char *want = provider_urn_of(m, r);
            const char *key = stackstate_object_key(m->a, r->type, r->id, canon_provider(&canon, want), &kl);
            void **twin = hashmap_find(&by_id, key, kl);
            if (twin) {
                /* the key's third part: "" for the default provider, else an explicit one's (alike) */
                const state_resource_t *t = *twin;
                const char *theirs = provider_ref_urn(m->a, t->provider);
                const char *we = stackstate_explicit_provider_name(m->a, want),
                           *te = stackstate_explicit_provider_name(m->a, theirs);
                const char *under =
                    we && te && strcmp(theirs, want) != 0
                        ? arena_sprintf(m->a, "providers '%s' and '%s', which are configured alike", we, te)
                    : we && te ? arena_sprintf(m->a, "the same provider ('%s')", want)
                    : we || te ? arena_sprintf(m->a,
                                               "provider '%s' and the package's default provider, which are "
                                               "configured alike",
                                               we ? we : te)
                               : "the same provider (the package's default provider)";
                diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
                         "resource '%s' has the type and ID ('%s') of '%s', which the stack manages already, under "
                         "%s: two resources would manage one object (a `pulumi destroy` of either deletes it); import "
                         "it under that name, or remove that resource from the stack first",
                         r->urn, r->id, t->urn, under);
                ok = false;
                continue;
            }
        }
        if (old) {
            const char *want = r->is_provider ? old->id : r->id;
            if (r->custom && !r->is_provider && (!old->id || strcmp(old->id, want) != 0)) {
                diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
                         "resource '%s' already exists with ID '%s'; remove it from the state or pick another name",
                         r->urn, old->id ? old->id : "");
                ok = false;
                continue;
            }
            if (strcmp(old->type, r->type) != 0) {
                diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
                         "resource '%s' already exists with type '%s', not '%s'; remove it from the state or pick "
                         "another name",
                         r->urn, old->type, r->type);
                ok = false;
                continue;
            }
            if (r->is_provider) {
                /* its resources were read through a provider configured with the inputs given now: the
                 * stack's provider must have the same, or they would be recorded under another
                 * configuration than they were read with */
                buf_t unread;
                buf_init(&unread);
                const char *d = provider_inputs_differ(m, old->inputs, r->inputs, &unread);
                if (d || unread.len) {
                    diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
                             "provider '%s' is in the stack already with other inputs (%s%s%s) than the import file "
                             "gives it: its resources were read with the import file's and would be recorded under "
                             "the stack's; give the provider the stack's inputs in the import file, or another name",
                             r->urn, d ? d : "", d && unread.len ? ", " : "", unread.len ? unread.data : "");
                    buf_free(&unread);
                    ok = false;
                    continue;
                }
                buf_free(&unread);
            }
            skip[i] = true;
            report_add(m, r->urn, r->type, old->id, STACKSTATE_SAME);
            if (r->is_provider) continue;
            /* read now through the default provider with the stack's configuration now: the one the stack
             * records it under may hold another, which the next preview updates */
            const char *old_prov = r->custom && !r->provider_urn ? provider_ref_urn(m->a, old->provider) : NULL;
            const state_resource_t *old_prov_res =
                old_prov && stackstate_is_default_provider_name(urn_name(m->a, old_prov)) ? state_find(m, old_prov)
                                                                                          : NULL;
            if (old_prov_res && hashmap_add_str(&default_seen, old_prov, NULL)) {
                const char *pkg = r->package ? r->package : type_package(m->a, r->type);
                default_provider_differs(m, old_prov_res, pkg, package_config(m, pkg));
            }
            buf_t differs;
            buf_init(&differs);
            buf_t unread;
            buf_init(&unread);
            const char *d = r->custom ? inputs_differ(m, old->inputs, r->inputs, &unread) : NULL;
            if (d) {
                buf_printf(&differs, "%s", d);
                diag_add(m->diags, DIAG_WARNING, DIAG_INPUT, m->path, NULL,
                         "resource '%s' is in the stack already, but the stack records other inputs than were "
                         "read now: %s; the code written declares what was read, so `pulumi preview` with it "
                         "can show a change for it (an update or a replacement): cimport cannot tell it will not",
                         r->urn, d);
            }
            if (unread.len) { /* cannot be confirmed: counted as differing, so the run does not promise it */
                buf_printf(&differs, "%s%s", differs.len ? ", " : "", unread.data);
                diag_add(m->diags, DIAG_WARNING, DIAG_INPUT, m->path, NULL,
                         "resource '%s' is in the stack already, but its secret input%s %s could not be compared with "
                         "the one%s read now: %s; cimport cannot tell `pulumi preview` with the code written will show "
                         "no change for it",
                         r->urn, strchr(unread.data, ',') ? "s" : "", unread.data, strchr(unread.data, ',') ? "s" : "",
                         m->reveal_unable ? m->reveal_unable : "they cannot be read");
            }
            buf_free(&unread);
            options_differ(m, old, r, *stack_urn, &differs);
            if (differs.len) {
                m->rep->entries[m->rep->n_entries - 1].differs =
                    arena_strndup(m->rep->arena, differs.data, differs.len);
                m->rep->n_differ++;
            }
            buf_free(&differs);
            continue;
        }
        if (r->is_provider) {
            provider_create(m, r->urn, r->inputs, r->version, r->plugin_download_url, r->parent_urn);
            skip[i] = true;
        }
    }
    hashmap_free(&by_id);
    hashmap_free(&pending);
    hashmap_free(&canon);
    if (!ok) {
        hashmap_free(&default_seen);
        return false;
    }

    /* 2. Resources, with their providers (default ones made here when absent). */
    hashmap_t given = {0};
    bool given_indexed = false;
    for (size_t i = 0; i < n; i++) {
        const stackstate_resource_t *r = &res[i];
        if (skip[i]) continue;
        const char *parent = r->parent_urn ? r->parent_urn : *stack_urn;
        if (!state_find(m, parent) && !new_find(m, parent)) {
            if (!given_indexed) { /* the resources still to record, by URN (once, when first needed) */
                for (size_t k = 0; k < n; k++)
                    if (!skip[k]) hashmap_add_str(&given, res[k].urn, NULL);
                given_indexed = true;
            }
            if (!hashmap_find_str(&given, parent)) {
                diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL, "unknown parent '%s' for resource '%s'",
                         parent, r->urn);
                ok = false;
                continue;
            }
        }
        const char *ref = NULL, *prov_urn = NULL;
        if (r->custom || r->remote) {
            if (r->provider_urn) {
                prov_urn = r->provider_urn;
                /* A provider the import file names but neither it nor the state declares is created
                 * with empty config, as Pulumi does (#15453). */
                ref = provider_ref_for(m, prov_urn, NULL, r->version, r->plugin_download_url, NULL);
            } else {
                prov_urn = provider_urn_of(m, r);
                const char *pkg = r->package ? r->package : type_package(m->a, r->type);
                const state_resource_t *old_prov = state_find(m, prov_urn);
                if (old_prov && hashmap_add_str(&default_seen, prov_urn, NULL))
                    default_provider_differs(m, old_prov, pkg, package_config(m, pkg));
                ref = provider_ref_for(m, prov_urn, package_config(m, pkg), r->version, r->plugin_download_url, NULL);
            }
        }
        new_res_t *nr = new_add(m, r->urn, r->type);
        nr->id = r->custom ? r->id : NULL;
        nr->parent = parent;
        nr->provider_urn = prov_urn;
        nr->src = r;
        pv_t *in = r->inputs ? pv_clone(m->a, r->inputs) : NULL;
        pv_t *out = r->outputs ? pv_clone(m->a, r->outputs) : NULL;
        secrets_drop_ciphertext(in);
        secrets_drop_ciphertext(out);
        nr->json = resource_json(r->urn, r->custom, nr->id, r->type, in, out, parent, r->protect, ref, m->now);
        report_add(m, r->urn, r->type, nr->id, STACKSTATE_ADDED);
    }
    hashmap_free(&given);
    hashmap_free(&default_seen);
    return ok;
}

/* An edit of the old text: replace [at, at+del) by text (apply_edits frees text). */
typedef struct edit {
    size_t at, del;
    char *text; /* malloc'd */
} edit_t;

static char *apply_edits(const char *text, size_t len, edit_t *e, size_t n) {
    /* Edits are produced in increasing offset order and never overlap. */
    buf_t b;
    buf_init(&b);
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        buf_append(&b, text + pos, e[i].at - pos);
        buf_puts(&b, e[i].text);
        free(e[i].text);
        pos = e[i].at + e[i].del;
    }
    buf_append(&b, text + pos, len - pos);
    return buf_take(&b);
}

static char *print_resources(new_res_t **order, size_t n, const style_t *st, const char *indent, bool leading_sep) {
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 || leading_sep) buf_putc(&b, ',');
        if (st->pretty) {
            buf_putc(&b, '\n');
            buf_puts(&b, indent);
        }
        print_json(&b, order[i]->json, st, indent);
    }
    return buf_take(&b);
}

/* The document's indentation unit: the indentation of its first member line, if it has newlines. */
static style_t detect_style(arena_t *a, const scan_t *sc, size_t top_open) {
    style_t st = {.pretty = false, .unit = ""};
    size_t p = top_open + 1;
    size_t q = scan_ws(sc, p);
    if (memchr(sc->s + p, '\n', q - p)) {
        st.pretty = true;
        st.unit = line_indent(a, sc, q);
        if (!*st.unit) st.unit = "    ";
    }
    return st;
}

static char *indent_join(arena_t *a, const char *base, const char *unit) {
    return arena_sprintf(a, "%s%s", base, unit);
}

/* Splices the ordered new resources (and a secrets provider, when one must be added) into text. */
static char *splice(merge_t *m, const char *text, size_t len, new_res_t **order, size_t n_order,
                    const cJSON *add_provider) {
    scan_t sc = {text, len};
    size_t top = scan_ws(&sc, 0);
    object_pos_t top_obj, dep_obj, holder_obj;
    member_pos_t mem;
    style_t st = detect_style(m->a, &sc, top);
    char *top_ind = line_indent(m->a, &sc, top);
    edit_t edits[3];
    size_t n_edits = 0;

    /* Find the deployment object: deployment | checkpoint.latest | latest (version 0). */
    if (!scan_object(&sc, top, "deployment", &top_obj, &mem)) goto bad;
    size_t dep_at = 0;
    bool have_dep = false;
    object_pos_t *holder = &top_obj;
    const char *holder_key = "deployment";
    if (mem.found) {
        dep_at = mem.val_start;
        have_dep = text[dep_at] == '{';
    } else {
        member_pos_t cp;
        if (!scan_object(&sc, top, "checkpoint", &top_obj, &cp) || !cp.found) goto bad;
        if (!scan_object(&sc, cp.val_start, "latest", &holder_obj, &mem)) goto bad;
        holder = &holder_obj;
        holder_key = "latest";
        if (mem.found) {
            dep_at = mem.val_start;
            have_dep = text[dep_at] == '{';
        }
    }
    char *member_ind; /* indentation of members of the deployment object */
    if (!have_dep) {
        /* No deployment yet (`"latest": null` or absent): write a whole one. */
        char *hold_ind = holder->n_members ? line_indent(m->a, &sc, scan_ws(&sc, holder->open + 1))
                                           : indent_join(m->a, top_ind, st.unit);
        cJSON *dep = cJSON_CreateObject();
        cJSON *man = cJSON_AddObjectToObject(dep, "manifest");
        cJSON_AddStringToObject(man, "time", m->now);
        cJSON_AddStringToObject(man, "magic", "");
        cJSON_AddStringToObject(man, "version", "");
        if (add_provider) cJSON_AddItemReferenceToObject(dep, "secrets_providers", (cJSON *)add_provider);
        cJSON *arr = cJSON_AddArrayToObject(dep, "resources");
        for (size_t i = 0; i < n_order; i++)
            cJSON_AddItemReferenceToArray(arr, order[i]->json);
        cJSON_AddObjectToObject(dep, "metadata");
        buf_t b;
        buf_init(&b);
        if (mem.found) {
            print_json(&b, dep, &st, hold_ind);
            edits[n_edits++] = (edit_t){mem.val_start, mem.val_end - mem.val_start, buf_take(&b)};
        } else {
            if (holder->n_members) buf_putc(&b, ',');
            if (st.pretty) {
                buf_putc(&b, '\n');
                buf_puts(&b, hold_ind);
            }
            buf_printf(&b, "\"%s\":%s", holder_key, st.pretty ? " " : "");
            print_json(&b, dep, &st, hold_ind);
            edits[n_edits++] = (edit_t){holder->last_member_end, 0, buf_take(&b)};
        }
        cJSON_Delete(dep);
        return apply_edits(text, len, edits, n_edits);
    }

    member_pos_t res_mem, man_mem;
    if (!scan_object(&sc, dep_at, "resources", &dep_obj, &res_mem)) goto bad;
    scan_object(&sc, dep_at, "manifest", &dep_obj, &man_mem);
    char *dep_ind = line_indent(m->a, &sc, dep_at);
    if (!*dep_ind) {
        /* `"deployment": {` — the object starts mid-line: its members' indentation tells. */
        dep_ind = dep_obj.n_members ? NULL : indent_join(m->a, top_ind, st.unit);
    }
    member_ind = dep_obj.n_members ? line_indent(m->a, &sc, scan_ws(&sc, dep_obj.open + 1))
                                   : indent_join(m->a, dep_ind ? dep_ind : "", st.unit);

    if (add_provider) {
        const char *sp = st.pretty ? " " : "";
        buf_t b;
        buf_init(&b);
        size_t at;
        if (man_mem.found) {
            at = man_mem.val_end;
            buf_putc(&b, ',');
            if (st.pretty) {
                buf_putc(&b, '\n');
                buf_puts(&b, member_ind);
            }
            buf_printf(&b, "\"secrets_providers\":%s", sp);
            print_json(&b, add_provider, &st, member_ind);
        } else {
            at = dep_obj.open + 1;
            if (st.pretty) {
                buf_putc(&b, '\n');
                buf_puts(&b, member_ind);
            }
            buf_printf(&b, "\"secrets_providers\":%s", sp);
            print_json(&b, add_provider, &st, member_ind);
            if (dep_obj.n_members) buf_putc(&b, ',');
        }
        edits[n_edits++] = (edit_t){at, 0, buf_take(&b)};
    }

    if (n_order == 0) return apply_edits(text, len, edits, n_edits);

    if (res_mem.found && text[res_mem.val_start] == '[') {
        /* Find the last element of the array and the first one's indentation. */
        size_t p = scan_ws(&sc, res_mem.val_start + 1), last_end = 0, first = 0;
        size_t count = 0;
        while (p < len && text[p] != ']') {
            if (count == 0) first = p;
            last_end = scan_value(&sc, p);
            if (last_end == p) goto bad; /* no value here: stop rather than loop */
            count++;
            p = scan_ws(&sc, last_end);
            if (p < len && text[p] == ',')
                p = scan_ws(&sc, p + 1);
            else if (p < len && text[p] != ']')
                goto bad;
        }
        if (p >= len) goto bad;
        if (count > 0) {
            char *elem_ind = line_indent(m->a, &sc, first);
            if (!*elem_ind && st.pretty) elem_ind = indent_join(m->a, member_ind, st.unit);
            edits[n_edits++] = (edit_t){last_end, 0, print_resources(order, n_order, &st, elem_ind, true)};
            return apply_edits(text, len, edits, n_edits);
        }
    }
    /* No resources yet: an empty array, null, or no `resources` member. */
    {
        char *elem_ind = indent_join(m->a, member_ind, st.unit);
        char *items = print_resources(order, n_order, &st, elem_ind, false);
        buf_t b;
        buf_init(&b);
        if (!res_mem.found) {
            if (dep_obj.n_members) buf_putc(&b, ',');
            if (st.pretty) {
                buf_putc(&b, '\n');
                buf_puts(&b, member_ind);
            }
            buf_printf(&b, "\"resources\":%s", st.pretty ? " " : "");
        }
        buf_putc(&b, '[');
        buf_puts(&b, items);
        if (st.pretty) {
            buf_putc(&b, '\n');
            buf_puts(&b, member_ind);
        }
        buf_putc(&b, ']');
        free(items);
        if (res_mem.found)
            edits[n_edits++] = (edit_t){res_mem.val_start, res_mem.val_end - res_mem.val_start, buf_take(&b)};
        else
            edits[n_edits++] = (edit_t){dep_obj.last_member_end, 0, buf_take(&b)};
        /* Keep edits in offset order (the secrets provider edit may come after `resources`). */
        if (n_edits == 2 && edits[0].at > edits[1].at) {
            edit_t t = edits[0];
            edits[0] = edits[1];
            edits[1] = t;
        }
        return apply_edits(text, len, edits, n_edits);
    }

bad:
    for (size_t i = 0; i < n_edits; i++)
        free(edits[i].text);
    diag_add(m->diags, DIAG_ERROR, DIAG_INPUT, m->path, NULL,
             "cannot find the deployment's resource list in the stack state; it does not look like the output of "
             "`pulumi stack export`");
    return NULL;
}

static char *new_document(merge_t *m, new_res_t **order, size_t n, const cJSON *add_provider) {
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "version", 3);
    cJSON *dep = cJSON_AddObjectToObject(doc, "deployment");
    cJSON *man = cJSON_AddObjectToObject(dep, "manifest");
    cJSON_AddStringToObject(man, "time", m->now);
    /* magic is the SHA-256 of the CLI version and empty when the version is empty (Manifest.NewMagic). */
    cJSON_AddStringToObject(man, "magic", "");
    cJSON_AddStringToObject(man, "version", "");
    if (add_provider) cJSON_AddItemReferenceToObject(dep, "secrets_providers", (cJSON *)add_provider);
    cJSON *arr = cJSON_AddArrayToObject(dep, "resources");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemReferenceToArray(arr, order[i]->json);
    cJSON_AddObjectToObject(dep, "metadata");
    style_t st = {.pretty = true, .unit = "    "};
    buf_t b;
    buf_init(&b);
    print_json(&b, doc, &st, "");
    buf_putc(&b, '\n');
    cJSON_Delete(doc);
    return buf_take(&b);
}

/* The secrets provider of the document (its type, or NULL), and the passphrase provider's salt state. */
pv_t *stackstate_recorded_inputs(arena_t *out, const char *text, size_t len, const char *path, const char *const *urns,
                                 size_t n, size_t n_warn, passphrase_keyring_t *keyring, diag_list_t *diags) {
    pv_t *found = pv_object(out);
    if (!text || !len || !n) return found;
    arena_t *a = arena_new();
    stackstate_options_t o;
    stackstate_options_default(&o);
    o.keyring = keyring;
    diag_list_t quiet; /* a document that does not parse is the merge's to report */
    diag_list_init(&quiet);
    deployment_t *d = deployment_parse(a, text, len, path, &quiet);
    merge_t m = {.a = a, .path = path, .d = d, .opts = &o, .diags = &quiet};
    for (size_t i = 0; m.d && i < n; i++) {
        const state_resource_t *r = state_find(&m, urns[i]);
        if (!r || !r->inputs || r->inputs->kind != PV_OBJECT || pv_object_get(found, urns[i])) continue;
        pv_t *in = pv_object(out);
        bool readable = true;
        for (size_t k = 0; readable && k < r->inputs->u.obj.len; k++) {
            const pv_t *v = r->inputs->u.obj.members[k].value;
            const pv_t *plain = secrets_revealed(&m, v);
            if (!plain) {
                readable = false;
                break;
            }
            pv_t *c = pv_clone(out, plain);
            pv_object_set(out, in, r->inputs->u.obj.members[k].key, pv_contains_secret(v) ? pv_secret(out, c) : c);
        }
        if (readable)
            pv_object_set(out, found, urns[i], in);
        else if (i < n_warn)
            diag_add(diags, DIAG_WARNING, DIAG_INPUT, path, NULL,
                     "the stack records provider '%s' with secret inputs cimport cannot read (%s), so it cannot be "
                     "configured as the stack records it",
                     urns[i], m.reveal_unable ? m.reveal_unable : "they do not decrypt");
    }
    if (d) deployment_free(d);
    hashmap_free(&m.state_urns);
    hashmap_free(&m.pkg_defaults);
    diag_list_free(&quiet);
    arena_free(a);
    return found;
}

char *stackstate_merge_text(const char *text, size_t len, const char *path, const char *stack, const char *project,
                            const stackstate_resource_t *res, size_t n, const stackstate_options_t *opts,
                            stackstate_report_t *out, diag_list_t *diags) {
    stackstate_report_t local;
    stackstate_report_t *rep = out ? out : &local;
    memset(rep, 0, sizeof *rep);
    rep->arena = arena_new();
    arena_t *a = arena_new();
    merge_t m = {.a = a, .path = path, .stack = stack, .project = project, .opts = opts, .rep = rep, .diags = diags};
    m.now = opts && opts->now ? opts->now : time_now_rfc3339(a);
    deployment_t *d = NULL;
    char *result = NULL;
    new_res_t **order = NULL;
    cJSON *add_provider = NULL; /* a secrets provider the document gets */

    if (!stack || !*stack || !project || !*project) {
        char advice[DIAG_ADVICE_MAX];
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, path, NULL,
                 "the stack and project names are needed to write the stack state%s",
                 diag_advice(advice, DIAG_ADVICE_STACK_NAMES_NEEDED, NULL));
        goto done;
    }
    bool is_new = !text || len == 0;
    if (!is_new) {
        size_t bad = document_control_byte(text, len);
        if (bad < len) {
            size_t line = 1, line_start = 0;
            for (size_t i = 0; i < bad; i++)
                if (text[i] == '\n') line++, line_start = i + 1;
            diag_t *dg = diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                                  "the stack state is not valid JSON: byte 0x%02X at line %zu, column %zu (offset "
                                  "%zu) is a control character outside a string; merge into the unchanged output of "
                                  "`pulumi stack export`. Nothing was written",
                                  (unsigned char)text[bad], line, bad - line_start + 1, bad);
            if (dg) dg->line = (long)line;
            goto done;
        }
        d = deployment_parse(a, text, len, path, diags);
        if (!d) goto done;
        if (d->version < 3) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                     "the stack state has deployment version %d; cimport merges only into versions 3 and 4: run "
                     "`pulumi stack export` with a current Pulumi CLI and merge into that file",
                     d->version);
            goto done;
        }
        /* The document's stack and project: from its stack resource, else from its first resource. */
        const state_resource_t *st = state_stack(d);
        if (!st && d->n_resources) st = &d->resources[0];
        if (st) {
            char *want = arena_sprintf(a, "urn:pulumi:%s::%s::", stack, project);
            if (strncmp(st->urn, want, strlen(want)) != 0) {
                const char *s0 = st->urn + strlen("urn:pulumi:");
                const char *e0 = strstr(s0, "::");
                const char *e1 = e0 ? strstr(e0 + 2, "::") : NULL;
                char *have_stack = e0 ? arena_strndup(a, s0, (size_t)(e0 - s0)) : "?";
                char *have_project = e1 ? arena_strndup(a, e0 + 2, (size_t)(e1 - e0 - 2)) : "?";
                char advice[DIAG_ADVICE_MAX];
                diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                         "the stack state belongs to stack '%s' of project '%s', not stack '%s' of project '%s'%s",
                         have_stack, have_project, stack, project,
                         diag_advice(advice, DIAG_ADVICE_STACK_OF_STATE,
                                     arena_sprintf(a, "%s::%s", have_stack, have_project)));
                goto done;
            }
        }
        rep->n_existing = d->n_resources;
    }
    rep->created_file = is_new;
    m.d = d;
    if (!check_inputs(&m, res, n)) goto done;
    const char *stack_urn;
    if (!plan_new_resources(&m, res, n, &stack_urn)) goto done;

    /* Order: stack, then each resource after its parent and provider. */
    order = malloc((m.n_items ? m.n_items : 1) * sizeof *order);
    if (!order) abort();
    size_t n_order = 0;
    for (size_t i = 0; i < m.n_items; i++)
        if (!emit_order(&m, &m.items[i], order, &n_order)) goto done;

    /* Secrets, per the document's secrets provider: count them first. */
    const char *salt;
    const char *sp = deployment_secrets_provider(d, &salt);
    size_t n_secret_res = 0;
    for (size_t i = 0; i < n_order; i++) {
        size_t n_all = 0, n_plain = 0, n_opaque = 0;
        secrets_encode(cJSON_GetObjectItemCaseSensitive(order[i]->json, "inputs"), SECRETS_PLAINTEXT, NULL, &n_all,
                       &n_plain, &n_opaque);
        secrets_encode(cJSON_GetObjectItemCaseSensitive(order[i]->json, "outputs"), SECRETS_PLAINTEXT, NULL, &n_all,
                       &n_plain, &n_opaque);
        if (n_plain) n_secret_res++;
    }
    secrets_mode_t mode = SECRETS_PLAINTEXT;
    const passphrase_crypter_t *crypter = NULL;
    if (sp && strcmp(sp, "b64") == 0) {
        mode = SECRETS_B64;
    } else if (sp && strcmp(sp, "passphrase") == 0) {
        mode = SECRETS_PASSPHRASE;
        if (n_secret_res) {
            if (!opts || !opts->keyring) {
                diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                         "the stack state uses the passphrase secrets provider and %zu new resource%s secrets: set "
                         "PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to the stack's passphrase so "
                         "cimport can encrypt them; nothing was written",
                         n_secret_res, n_secret_res == 1 ? " has" : "s have");
                goto done;
            }
            crypter = passphrase_keyring_open(opts->keyring, salt, path, diags);
            if (!crypter) goto done;
        }
    } else if (!sp && n_secret_res) {
        if (opts && opts->keyring) {
            mode = SECRETS_PASSPHRASE;
            crypter = passphrase_keyring_default(opts->keyring, diags);
            if (!crypter) goto done;
            add_provider = cJSON_CreateObject();
            cJSON_AddStringToObject(add_provider, "type", "passphrase");
            cJSON_AddStringToObject(cJSON_AddObjectToObject(add_provider, "state"), "salt", passphrase_state(crypter));
        } else if (opts && opts->b64_secrets) {
            mode = SECRETS_B64;
            add_provider = cJSON_CreateObject();
            cJSON_AddStringToObject(add_provider, "type", "b64");
        } else {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                     "%zu resource%s secrets and the stack state has no secrets provider to encrypt them for: set "
                     "PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to encrypt them with the "
                     "passphrase provider (base64, which is not encryption, only when asked for by name); nothing "
                     "was written",
                     n_secret_res, n_secret_res == 1 ? " has" : "s have");
            goto done;
        }
    }
    buf_t plain_names, opaque_names;
    buf_init(&plain_names);
    buf_init(&opaque_names);
    for (size_t i = 0; i < n_order; i++) {
        size_t n_all = 0, n_plain = 0, n_opaque = 0;
        secrets_encode(cJSON_GetObjectItemCaseSensitive(order[i]->json, "inputs"), mode, crypter, &n_all, &n_plain,
                       &n_opaque);
        secrets_encode(cJSON_GetObjectItemCaseSensitive(order[i]->json, "outputs"), mode, crypter, &n_all, &n_plain,
                       &n_opaque);
        if (n_plain) {
            rep->n_plaintext_secrets++;
            buf_printf(&plain_names, "%s'%s'", plain_names.len ? ", " : "", order[i]->urn);
        }
        if (n_opaque) buf_printf(&opaque_names, "%s'%s'", opaque_names.len ? ", " : "", order[i]->urn);
    }
    if (plain_names.len && opts && opts->plaintext_secrets)
        diag_add(diags, DIAG_WARNING, DIAG_IO, path, NULL,
                 "cimport cannot encrypt for the stack's '%s' secrets provider, so the secrets of %s are written in "
                 "plaintext; `pulumi stack import --file` encrypts them. Keep the file private and delete it after "
                 "importing",
                 sp, plain_names.data);
    if (opaque_names.len)
        diag_add(diags, DIAG_WARNING, DIAG_IO, path, NULL,
                 "secrets of %s were copied as ciphertext cimport could not decrypt; they read back only if this "
                 "stack uses the secrets provider that encrypted them",
                 opaque_names.data);
    buf_free(&plain_names);
    buf_free(&opaque_names);

    if (is_new)
        result = new_document(&m, order, n_order, add_provider);
    else if (n_order == 0)
        result = strndup(text, len);
    else
        result = splice(&m, text, len, order, n_order, add_provider);

done:
    hashmap_free(&m.state_urns);
    hashmap_free(&m.new_urns);
    hashmap_free(&m.pkg_defaults);
    cJSON_Delete(add_provider);
    free(order);
    for (size_t i = 0; i < m.n_items; i++)
        cJSON_Delete(m.items[i].json);
    deployment_free(d);
    arena_free(a);
    if (!out) stackstate_report_free(&local);
    return result;
}

/* Writes through a temporary file beside path (file_write_atomic_hooked). A state file holds secrets
 * and ids: a new one is private (0600); an existing one keeps its mode. */
static bool write_atomic(const char *path, const char *data, size_t len, const stackstate_options_t *opts,
                         diag_list_t *diags) {
    bool stopped = false;
    bool ok = file_write_atomic_hooked(path, data, len, 0600, false, opts ? opts->before_rename : NULL,
                                       opts ? opts->user : NULL, &stopped, diags);
    if (stopped)
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL,
                 "the stack state was not replaced (stopped before the rename); the old file is unchanged");
    return ok;
}

bool stackstate_merge(const char *path, const char *stack, const char *project, const stackstate_resource_t *res,
                      size_t n, const stackstate_options_t *opts, stackstate_report_t *out, diag_list_t *diags) {
    arena_t *a = arena_new();
    struct stat st;
    bool exists = stat(path, &st) == 0;
    char *text = NULL;
    size_t len = 0;
    if (exists && !S_ISREG(st.st_mode)) {
        /* Renaming over a device or FIFO would replace it; a stack state is always a regular file. */
        diag_add(diags, DIAG_ERROR, DIAG_IO, path, NULL, "is not a regular file: name the stack state file to write");
        arena_free(a);
        return false;
    }
    if (exists) {
        text = file_read_all(a, path, &len, diags);
        if (!text) {
            arena_free(a);
            return false;
        }
    }
    char *merged = stackstate_merge_text(text, len, path, stack, project, res, n, opts, out, diags);
    bool ok = false;
    if (merged) {
        /* Unchanged text (nothing new): leave the file alone. */
        if (exists && strlen(merged) == len && memcmp(merged, text, len) == 0)
            ok = true;
        else
            ok = write_atomic(path, merged, strlen(merged), opts, diags);
    }
    free(merged);
    arena_free(a);
    return ok;
}

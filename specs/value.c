/* value.c — property values: construction, equality, paths, and Pulumi's JSON state encoding. */
#include "specs/value.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base64.h"
#include "specs/jsonscan.h"

static pv_t *pv_new(arena_t *a, pv_kind_t k) {
    pv_t *v = arena_alloc(a, sizeof *v);
    v->kind = k;
    return v;
}

pv_t *pv_null(arena_t *a) {
    return pv_new(a, PV_NULL);
}

pv_t *pv_bool(arena_t *a, bool b) {
    pv_t *v = pv_new(a, PV_BOOL);
    v->u.b = b;
    return v;
}

pv_t *pv_number(arena_t *a, double n) {
    pv_t *v = pv_new(a, PV_NUMBER);
    v->u.n = n;
    return v;
}

pv_t *pv_stringn(arena_t *a, const char *s, size_t len) {
    pv_t *v = pv_new(a, PV_STRING);
    v->u.str.s = arena_strndup(a, s, len);
    v->u.str.len = len;
    return v;
}

pv_t *pv_string(arena_t *a, const char *s) {
    return pv_stringn(a, s, strlen(s));
}

pv_t *pv_array(arena_t *a) {
    return pv_new(a, PV_ARRAY);
}

pv_t *pv_object(arena_t *a) {
    return pv_new(a, PV_OBJECT);
}

pv_t *pv_secret(arena_t *a, pv_t *inner) {
    pv_t *v = pv_new(a, PV_SECRET);
    v->u.secret.inner = inner;
    return v;
}

pv_t *pv_unknown(arena_t *a) {
    return pv_new(a, PV_UNKNOWN);
}

void pv_array_push(arena_t *a, pv_t *arr, pv_t *item) {
    arr->u.arr.items = arena_grow_array(a, arr->u.arr.items, &arr->u.arr.cap, arr->u.arr.len + 1, sizeof(pv_t *));
    arr->u.arr.items[arr->u.arr.len++] = item;
}

static pv_member_t *pv_find_member(const pv_t *obj, const char *key) {
    for (size_t i = 0; i < obj->u.obj.len; i++)
        if (strcmp(obj->u.obj.members[i].key, key) == 0) return &obj->u.obj.members[i];
    return NULL;
}

void pv_object_set(arena_t *a, pv_t *obj, const char *key, pv_t *value) {
    pv_member_t *m = pv_find_member(obj, key);
    if (m) {
        m->value = value;
        return;
    }
    obj->u.obj.members =
        arena_grow_array(a, obj->u.obj.members, &obj->u.obj.cap, obj->u.obj.len + 1, sizeof *obj->u.obj.members);
    obj->u.obj.members[obj->u.obj.len].key = arena_strdup(a, key);
    obj->u.obj.members[obj->u.obj.len].value = value;
    obj->u.obj.len++;
}

bool pv_object_remove(pv_t *obj, const char *key) {
    for (size_t i = 0; i < obj->u.obj.len; i++) {
        if (strcmp(obj->u.obj.members[i].key, key) == 0) {
            memmove(&obj->u.obj.members[i], &obj->u.obj.members[i + 1], (obj->u.obj.len - i - 1) * sizeof(pv_member_t));
            obj->u.obj.len--;
            return true;
        }
    }
    return false;
}

pv_t *pv_object_get(const pv_t *obj, const char *key) {
    if (!obj || obj->kind != PV_OBJECT) return NULL;
    pv_member_t *m = pv_find_member(obj, key);
    return m ? m->value : NULL;
}

static pv_member_t *clone_members(arena_t *a, const pv_member_t *src, size_t n) {
    if (!n) return NULL;
    pv_member_t *m = arena_alloc(a, n * sizeof *m);
    for (size_t i = 0; i < n; i++) {
        m[i].key = arena_strdup(a, src[i].key);
        m[i].value = pv_clone(a, src[i].value);
    }
    return m;
}

pv_t *pv_clone(arena_t *a, const pv_t *v) {
    if (!v) return NULL;
    pv_t *c = pv_new(a, v->kind);
    switch (v->kind) {
    case PV_NULL:
    case PV_UNKNOWN: break;
    case PV_BOOL: c->u.b = v->u.b; break;
    case PV_NUMBER: c->u.n = v->u.n; break;
    case PV_STRING:
        c->u.str.s = arena_strndup(a, v->u.str.s, v->u.str.len);
        c->u.str.len = v->u.str.len;
        c->u.str.bytes = v->u.str.bytes;
        break;
    case PV_ARRAY:
        c->u.arr.len = c->u.arr.cap = v->u.arr.len;
        c->u.arr.items = v->u.arr.len ? arena_alloc(a, v->u.arr.len * sizeof(pv_t *)) : NULL;
        for (size_t i = 0; i < v->u.arr.len; i++)
            c->u.arr.items[i] = pv_clone(a, v->u.arr.items[i]);
        break;
    case PV_OBJECT:
        c->u.obj.len = c->u.obj.cap = v->u.obj.len;
        c->u.obj.members = clone_members(a, v->u.obj.members, v->u.obj.len);
        break;
    case PV_SECRET:
        c->u.secret.inner = pv_clone(a, v->u.secret.inner);
        c->u.secret.ciphertext = arena_strdup(a, v->u.secret.ciphertext);
        break;
    case PV_ASSET:
        c->u.asset.hash = arena_strdup(a, v->u.asset.hash);
        c->u.asset.text = arena_strdup(a, v->u.asset.text);
        c->u.asset.path = arena_strdup(a, v->u.asset.path);
        c->u.asset.uri = arena_strdup(a, v->u.asset.uri);
        break;
    case PV_ARCHIVE:
        c->u.archive.hash = arena_strdup(a, v->u.archive.hash);
        c->u.archive.path = arena_strdup(a, v->u.archive.path);
        c->u.archive.uri = arena_strdup(a, v->u.archive.uri);
        c->u.archive.has_assets = v->u.archive.has_assets;
        c->u.archive.nassets = v->u.archive.nassets;
        c->u.archive.assets = clone_members(a, v->u.archive.assets, v->u.archive.nassets);
        break;
    case PV_RESOURCE_REF:
        c->u.ref.urn = arena_strdup(a, v->u.ref.urn);
        c->u.ref.id = arena_strdup(a, v->u.ref.id);
        c->u.ref.package_version = arena_strdup(a, v->u.ref.package_version);
        break;
    case PV_OUTPUT:
        c->u.output.value = pv_clone(a, v->u.output.value);
        c->u.output.known = v->u.output.known;
        c->u.output.secret = v->u.output.secret;
        c->u.output.ndeps = v->u.output.ndeps;
        if (v->u.output.ndeps) {
            c->u.output.deps = arena_alloc(a, v->u.output.ndeps * sizeof(char *));
            for (size_t i = 0; i < v->u.output.ndeps; i++)
                c->u.output.deps[i] = arena_strdup(a, v->u.output.deps[i]);
        }
        break;
    }
    return c;
}

static bool str_eq(const char *a, const char *b) {
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

static bool members_equal(const pv_member_t *am, size_t an, const pv_member_t *bm, size_t bn) {
    if (an != bn) return false;
    for (size_t i = 0; i < an; i++) {
        /* the member at the same place first: an archive's asset names may repeat (an object's keys
         * may not), and the first of two equal names is not the second's counterpart */
        const pv_t *other = strcmp(am[i].key, bm[i].key) == 0 ? bm[i].value : NULL;
        for (size_t j = 0; !other && j < bn; j++)
            if (strcmp(am[i].key, bm[j].key) == 0) {
                other = bm[j].value;
                break;
            }
        if (!other || !pv_equal(am[i].value, other)) return false;
    }
    return true;
}

bool pv_equal(const pv_t *a, const pv_t *b) {
    if (a == b) return true;
    if (!a || !b) return false;
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case PV_NULL:
    case PV_UNKNOWN: return true;
    case PV_BOOL: return a->u.b == b->u.b;
    case PV_NUMBER:
        if (isnan(a->u.n) && isnan(b->u.n)) return true;
        return a->u.n == b->u.n;
    case PV_STRING: return a->u.str.len == b->u.str.len && memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
    case PV_ARRAY:
        if (a->u.arr.len != b->u.arr.len) return false;
        for (size_t i = 0; i < a->u.arr.len; i++)
            if (!pv_equal(a->u.arr.items[i], b->u.arr.items[i])) return false;
        return true;
    case PV_OBJECT: return members_equal(a->u.obj.members, a->u.obj.len, b->u.obj.members, b->u.obj.len);
    case PV_SECRET:
        if (a->u.secret.inner && b->u.secret.inner) return pv_equal(a->u.secret.inner, b->u.secret.inner);
        return str_eq(a->u.secret.ciphertext, b->u.secret.ciphertext) && !a->u.secret.inner && !b->u.secret.inner;
    case PV_ASSET:
        return str_eq(a->u.asset.hash, b->u.asset.hash) && str_eq(a->u.asset.text, b->u.asset.text) &&
               str_eq(a->u.asset.path, b->u.asset.path) && str_eq(a->u.asset.uri, b->u.asset.uri);
    case PV_ARCHIVE:
        return str_eq(a->u.archive.hash, b->u.archive.hash) && str_eq(a->u.archive.path, b->u.archive.path) &&
               str_eq(a->u.archive.uri, b->u.archive.uri) && a->u.archive.has_assets == b->u.archive.has_assets &&
               members_equal(a->u.archive.assets, a->u.archive.nassets, b->u.archive.assets, b->u.archive.nassets);
    case PV_RESOURCE_REF:
        return str_eq(a->u.ref.urn, b->u.ref.urn) && str_eq(a->u.ref.id, b->u.ref.id) &&
               str_eq(a->u.ref.package_version, b->u.ref.package_version);
    case PV_OUTPUT:
        return a->u.output.known == b->u.output.known && a->u.output.secret == b->u.output.secret &&
               pv_equal(a->u.output.value, b->u.output.value);
    }
    return false;
}

const pv_t *pv_unwrap(const pv_t *v) {
    while (v) {
        if (v->kind == PV_SECRET)
            v = v->u.secret.inner;
        else if (v->kind == PV_OUTPUT)
            v = v->u.output.value;
        else
            break;
    }
    return v;
}

bool pv_contains_secret(const pv_t *v) {
    if (!v) return false;
    switch (v->kind) {
    case PV_SECRET: return true;
    case PV_OUTPUT: return v->u.output.secret || pv_contains_secret(v->u.output.value);
    case PV_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++)
            if (pv_contains_secret(v->u.arr.items[i])) return true;
        return false;
    case PV_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++)
            if (pv_contains_secret(v->u.obj.members[i].value)) return true;
        return false;
    default: return false;
    }
}

bool pv_contains_unknown(const pv_t *v) {
    if (!v) return false;
    switch (v->kind) {
    case PV_UNKNOWN: return true;
    case PV_OUTPUT: return !v->u.output.known || pv_contains_unknown(v->u.output.value);
    case PV_SECRET: return pv_contains_unknown(v->u.secret.inner);
    case PV_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++)
            if (pv_contains_unknown(v->u.arr.items[i])) return true;
        return false;
    case PV_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++)
            if (pv_contains_unknown(v->u.obj.members[i].value)) return true;
        return false;
    default: return false;
    }
}

const char *pv_kind_name(pv_kind_t k) {
    static const char *names[] = {"null",    "bool",   "number", "string",  "array",
                                  "object",  "secret", "asset",  "archive", "resource reference",
                                  "unknown", "output"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* --- number text ----------------------------------------------------------------------------- */

/* The shortest decimal digits that read back as finite n != 0 (no sign, no trailing zeros) and the
 * decimal exponent of the first: n = 0.d1d2... x 10^(exp+1). Of the shortest, the nearest n (a tie:
 * the even one), as Go's strconv and JavaScript choose; printf's nearest p digits may not read back
 * where the next p-digit decimal up does (a power of two, whose gap below is half the one above). */
static void shortest_digits(double n, char digits[24], int *exp) {
    char e[40];
    double a = fabs(n);
    /* a whole number below 10^15 is exact in a double, and no shorter digits name it (its
     * neighbours are closer than one unit of its last digit): its own digits, trailing zeros off */
    if (a < 1e15 && a == (double)(long long)a) {
        int nd = snprintf(digits, 24, "%lld", (long long)a);
        *exp = nd - 1;
        while (nd > 1 && digits[nd - 1] == '0')
            digits[--nd] = 0;
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec - 1, a);
        if (strtod(e, NULL) == a) break;
        char *end = strchr(e, 'e');
        if (!end || strtod(e, NULL) > a) continue;
        char up[40]; /* the next p-digit decimal above: the last digit up by one, carried */
        memcpy(up, e, sizeof up);
        char *d = up + (end - e) - 1;
        while (d >= up && (*d == '9' || *d == '.')) {
            if (*d == '9') *d = '0';
            d--;
        }
        if (d < up) continue; /* 9.99e5 up is 1.00e6: one digit shorter, tried before */
        (*d)++;
        if (strtod(up, NULL) == a) {
            memcpy(e, up, sizeof e);
            break;
        }
    }
    /* e = d[.ddd]e[+-]XX */
    const char *p = e;
    size_t nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = 0;
    *exp = (int)strtol(p + 1, NULL, 10); /* printf's exponent: a few digits */
}

void pv_format_number(buf_t *b, double n) {
    /* int64-exact: [-2^63, 2^63) and integral. */
    if (n == trunc(n) && n >= -9223372036854775808.0 && n < 9223372036854775808.0) {
        buf_printf(b, "%lld", (long long)n);
        return;
    }
    /* Shortest digits that read back as the same double (Go's 'g' with precision -1). */
    char digits[24];
    int exp;
    shortest_digits(n, digits, &exp);
    size_t nd = strlen(digits);
    if (n < 0) buf_putc(b, '-');
    if (exp < -4 || exp >= 6) {
        buf_putc(b, digits[0]);
        if (nd > 1) {
            buf_putc(b, '.');
            buf_puts(b, digits + 1);
        }
        buf_printf(b, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    } else if (exp < 0) {
        buf_puts(b, "0.");
        for (int i = 0; i < -exp - 1; i++)
            buf_putc(b, '0');
        buf_puts(b, digits);
    } else {
        for (int i = 0; i <= exp; i++)
            buf_putc(b, (size_t)i < nd ? digits[i] : '0');
        if ((size_t)exp + 1 < nd) {
            buf_putc(b, '.');
            buf_puts(b, digits + exp + 1);
        }
    }
}

void pv_format_number_js(buf_t *b, double n) {
    if (isnan(n)) {
        buf_puts(b, "NaN");
        return;
    }
    if (isinf(n)) {
        buf_puts(b, n > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (n == 0) { /* -0 too */
        buf_putc(b, '0');
        return;
    }
    char digits[24];
    int exp;
    shortest_digits(n, digits, &exp);
    int k = (int)strlen(digits), e = exp + 1; /* n = 0.digits x 10^e (ECMAScript's Number::toString) */
    if (n < 0) buf_putc(b, '-');
    if (k <= e && e <= 21) {
        buf_puts(b, digits);
        for (int i = k; i < e; i++)
            buf_putc(b, '0');
    } else if (0 < e && e <= 21) {
        buf_printf(b, "%.*s.%s", e, digits, digits + e);
    } else if (-6 < e && e <= 0) {
        buf_puts(b, "0.");
        for (int i = e; i < 0; i++)
            buf_putc(b, '0');
        buf_puts(b, digits);
    } else {
        buf_printf(b, "%c%s%se%c%d", digits[0], k > 1 ? "." : "", digits + 1, e > 0 ? '+' : '-', abs(e - 1));
    }
}

/* --- paths ------------------------------------------------------------------------------------ */

static bool is_ident_start(unsigned char c) {
    return isalpha(c) || c == '_' || c == '$' || c >= 0x80;
}
static bool is_ident_char(unsigned char c) {
    return isalnum(c) || c == '_' || c == '$' || c == '-' || c >= 0x80;
}

bool pv_path_parse(arena_t *a, const char *text, pv_path_t *out, diag_list_t *diags) {
    size_t cap = 0, n = 0;
    pv_path_seg_t *segs = NULL;
    const char *p = text;
    bool expect_key = true;
    if (!*p) goto bad;
    while (*p) {
        segs = arena_grow_array(a, segs, &cap, n + 1, sizeof *segs);
        if (*p == '[') {
            p++;
            if (*p == '"') {
                buf_t b;
                buf_init(&b);
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1]) p++;
                    buf_putc(&b, *p++);
                }
                if (*p != '"' || p[1] != ']') {
                    buf_free(&b);
                    goto bad;
                }
                p += 2;
                segs[n].key = buf_arena_str(&b, a);
                buf_free(&b);
            } else if (isdigit((unsigned char)*p)) {
                size_t idx = 0;
                while (isdigit((unsigned char)*p))
                    idx = idx * 10 + (size_t)(*p++ - '0');
                if (*p != ']') goto bad;
                p++;
                segs[n].key = NULL;
                segs[n].index = idx;
            } else {
                goto bad;
            }
            n++;
            expect_key = false;
        } else if (*p == '.') {
            if (expect_key) goto bad;
            p++;
            expect_key = true;
            if (!*p) goto bad;
        } else {
            if (!expect_key && n > 0) goto bad;
            const char *s = p;
            while (*p && *p != '.' && *p != '[')
                p++;
            if (p == s) goto bad;
            segs[n].key = arena_strndup(a, s, (size_t)(p - s));
            n++;
            expect_key = false;
        }
    }
    if (expect_key && n > 0) goto bad;
    out->segs = segs;
    out->len = n;
    return true;
bad:
    if (diags) diag_error(diags, DIAG_INPUT, "invalid property path '%s': use the form a.b[0][\"c.d\"]", text);
    return false;
}

char *pv_path_format(arena_t *a, const pv_path_t *p) {
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < p->len; i++) {
        const pv_path_seg_t *s = &p->segs[i];
        if (!s->key) {
            buf_printf(&b, "[%zu]", s->index);
            continue;
        }
        bool ident = is_ident_start((unsigned char)s->key[0]);
        for (const char *c = s->key; *c && ident; c++)
            if (!is_ident_char((unsigned char)*c)) ident = false;
        if (ident) {
            if (i > 0) buf_putc(&b, '.');
            buf_puts(&b, s->key);
        } else {
            buf_puts(&b, "[\"");
            for (const char *c = s->key; *c; c++) {
                if (*c == '"' || *c == '\\') buf_putc(&b, '\\');
                buf_putc(&b, *c);
            }
            buf_puts(&b, "\"]");
        }
    }
    char *r = buf_arena_str(&b, a);
    buf_free(&b);
    return r;
}

static pv_t *through_secret(pv_t *v) {
    while (v && (v->kind == PV_SECRET || v->kind == PV_OUTPUT))
        v = v->kind == PV_SECRET ? v->u.secret.inner : v->u.output.value;
    return v;
}

pv_t *pv_path_get(const pv_t *root, const pv_path_t *p) {
    pv_t *v = (pv_t *)root;
    for (size_t i = 0; i < p->len && v; i++) {
        v = through_secret(v);
        if (!v) return NULL;
        const pv_path_seg_t *s = &p->segs[i];
        if (s->key) {
            if (v->kind != PV_OBJECT) return NULL;
            v = pv_object_get(v, s->key);
        } else {
            if (v->kind != PV_ARRAY || s->index >= v->u.arr.len) return NULL;
            v = v->u.arr.items[s->index];
        }
    }
    return v;
}

bool pv_path_set(arena_t *a, pv_t *root, const pv_path_t *p, pv_t *value) {
    pv_t *v = through_secret(root);
    if (!v || p->len == 0) return false;
    for (size_t i = 0; i < p->len; i++) {
        const pv_path_seg_t *s = &p->segs[i];
        bool last = i + 1 == p->len;
        const pv_path_seg_t *next = last ? NULL : &p->segs[i + 1];
        if (s->key) {
            if (v->kind == PV_NULL) v->kind = PV_OBJECT;
            if (v->kind != PV_OBJECT) return false;
            if (last) {
                pv_object_set(a, v, s->key, value);
                return true;
            }
            pv_t *child = through_secret(pv_object_get(v, s->key));
            if (!child) {
                child = next->key ? pv_object(a) : pv_array(a);
                pv_object_set(a, v, s->key, child);
            }
            v = child;
        } else {
            if (v->kind == PV_NULL) v->kind = PV_ARRAY;
            if (v->kind != PV_ARRAY) return false;
            while (v->u.arr.len <= s->index)
                pv_array_push(a, v, pv_null(a));
            if (last) {
                v->u.arr.items[s->index] = value;
                return true;
            }
            pv_t *child = through_secret(v->u.arr.items[s->index]);
            if (!child || child->kind == PV_NULL) {
                child = next->key ? pv_object(a) : pv_array(a);
                v->u.arr.items[s->index] = child;
            }
            v = child;
        }
    }
    return true;
}

/* --- state JSON encoding ---------------------------------------------------------------------- */

static const char *jstr(const cJSON *obj, const char *key) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(j) ? j->valuestring : NULL;
}

/* Whether t (a C string) is exactly one JSON value, whitespace around it allowed (the scanner's
 * grammar: RFC 8259's). */
static bool json_text_is_one_value(const char *t) {
    jscan_t s;
    jscan_init(&s, t, strlen(t));
    jscan_range_t r;
    return jscan_value(&s, &r) && jscan_end(&s);
}

static pv_t *decode_sig(arena_t *a, const cJSON *j, const char *sig, const char *where, diag_list_t *diags) {
    if (strcmp(sig, PV_SIG_SECRET) == 0) {
        const char *ct = jstr(j, "ciphertext");
        const cJSON *pt = cJSON_GetObjectItemCaseSensitive(j, "plaintext");
        const cJSON *val = cJSON_GetObjectItemCaseSensitive(j, "value");
        pv_t *v = pv_new(a, PV_SECRET);
        if (ct && !pt) {
            v->u.secret.ciphertext = arena_strdup(a, ct);
            return v;
        }
        if (pt && cJSON_IsString(pt) && !ct) {
            /* one JSON value, as Go's json.Unmarshal reads it: cJSON alone reads on past a leading
             * zero (02 is 2), takes 1.e5 and ignores text after the value */
            cJSON *inner = json_text_is_one_value(pt->valuestring) ? cJSON_Parse(pt->valuestring) : NULL;
            if (!inner) {
                diag_error(diags, DIAG_INPUT, "%s: malformed secret value: its plaintext is not JSON", where);
                return NULL;
            }
            v->u.secret.inner = pv_from_state_json(a, inner, where, diags);
            cJSON_Delete(inner);
            return v->u.secret.inner ? v : NULL;
        }
        if (val && !ct && !pt) { /* the gRPC-style form, accepted for convenience */
            v->u.secret.inner = pv_from_state_json(a, val, where, diags);
            return v->u.secret.inner ? v : NULL;
        }
        diag_error(diags, DIAG_INPUT,
                   "%s: malformed secret value: exactly one of `ciphertext` or `plaintext` must be supplied", where);
        return NULL;
    }
    if (strcmp(sig, PV_SIG_ASSET) == 0) {
        pv_t *v = pv_new(a, PV_ASSET);
        v->u.asset.hash = arena_strdup(a, jstr(j, "hash"));
        v->u.asset.text = arena_strdup(a, jstr(j, "text"));
        v->u.asset.path = arena_strdup(a, jstr(j, "path"));
        v->u.asset.uri = arena_strdup(a, jstr(j, "uri"));
        return v;
    }
    if (strcmp(sig, PV_SIG_ARCHIVE) == 0) {
        pv_t *v = pv_new(a, PV_ARCHIVE);
        v->u.archive.hash = arena_strdup(a, jstr(j, "hash"));
        v->u.archive.path = arena_strdup(a, jstr(j, "path"));
        v->u.archive.uri = arena_strdup(a, jstr(j, "uri"));
        const cJSON *assets = cJSON_GetObjectItemCaseSensitive(j, "assets");
        if (cJSON_IsObject(assets)) {
            v->u.archive.has_assets = true;
            size_t n = (size_t)cJSON_GetArraySize(assets), i = 0;
            v->u.archive.assets = n ? arena_alloc(a, n * sizeof(pv_member_t)) : NULL;
            const cJSON *e;
            /* i < n: no more members than were counted (and none when none were) */
            for (e = assets->child; e && i < n; e = e->next) {
                pv_t *ev = pv_from_state_json(a, e, where, diags);
                if (!ev) return NULL;
                v->u.archive.assets[i].key = arena_strdup(a, e->string);
                v->u.archive.assets[i].value = ev;
                i++;
            }
            v->u.archive.nassets = (uint32_t)i;
        }
        return v;
    }
    if (strcmp(sig, PV_SIG_RESOURCE_REF) == 0) {
        pv_t *v = pv_new(a, PV_RESOURCE_REF);
        const char *urn = jstr(j, "urn");
        if (!urn) {
            diag_error(diags, DIAG_INPUT, "%s: malformed resource reference: it has no `urn`", where);
            return NULL;
        }
        v->u.ref.urn = arena_strdup(a, urn);
        v->u.ref.id = arena_strdup(a, jstr(j, "id"));
        v->u.ref.package_version = arena_strdup(a, jstr(j, "packageVersion"));
        return v;
    }
    if (strcmp(sig, PV_SIG_BYTESTRING) == 0) {
        const char *val = jstr(j, "value");
        char *bytes;
        size_t len;
        if (!val || !base64_decode(a, val, &bytes, &len)) {
            diag_error(diags, DIAG_INPUT, "%s: malformed byte string: `value` must be base64", where);
            return NULL;
        }
        pv_t *v = pv_new(a, PV_STRING);
        v->u.str.s = bytes;
        v->u.str.len = len;
        v->u.str.bytes = true;
        return v;
    }
    if (strcmp(sig, PV_SIG_FLOAT) == 0) {
        const char *val = jstr(j, "value");
        if (!val || strlen(val) != 16) {
            diag_error(diags, DIAG_INPUT, "%s: malformed special number: `value` must be 16 hex digits", where);
            return NULL;
        }
        uint64_t bits = strtoull(val, NULL, 16);
        double d;
        memcpy(&d, &bits, sizeof d);
        return pv_number(a, d);
    }
    if (strcmp(sig, PV_SIG_OUTPUT) == 0) {
        pv_t *v = pv_new(a, PV_OUTPUT);
        const cJSON *val = cJSON_GetObjectItemCaseSensitive(j, "value");
        if (val) {
            v->u.output.value = pv_from_state_json(a, val, where, diags);
            if (!v->u.output.value) return NULL;
            v->u.output.known = true;
        }
        v->u.output.secret = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "secret"));
        const cJSON *deps = cJSON_GetObjectItemCaseSensitive(j, "dependencies");
        if (cJSON_IsArray(deps)) {
            size_t n = (size_t)cJSON_GetArraySize(deps), i = 0;
            v->u.output.deps = n ? arena_alloc(a, n * sizeof(char *)) : NULL;
            const cJSON *e;
            for (e = deps->child; e && i < n; e = e->next) /* i < n: as many as were counted */
                if (cJSON_IsString(e)) v->u.output.deps[i++] = arena_strdup(a, e->valuestring);
            v->u.output.ndeps = i;
        }
        return v;
    }
    diag_error(diags, DIAG_INPUT, "%s: unrecognized signature '%s' in a property value", where, sig);
    return NULL;
}

pv_t *pv_from_state_json(arena_t *a, const cJSON *j, const char *where, diag_list_t *diags) {
    if (!j || cJSON_IsNull(j)) return pv_null(a);
    if (cJSON_IsBool(j)) return pv_bool(a, cJSON_IsTrue(j));
    if (cJSON_IsNumber(j)) return pv_number(a, j->valuedouble);
    if (cJSON_IsString(j)) {
        if (strcmp(j->valuestring, PV_UNKNOWN_SENTINEL) == 0) return pv_unknown(a);
        return pv_string(a, j->valuestring);
    }
    if (cJSON_IsArray(j)) {
        pv_t *v = pv_array(a);
        const cJSON *e;
        cJSON_ArrayForEach(e, j) {
            pv_t *ev = pv_from_state_json(a, e, where, diags);
            if (!ev) return NULL;
            pv_array_push(a, v, ev);
        }
        return v;
    }
    if (cJSON_IsObject(j)) {
        const char *sig = jstr(j, PV_SIG_KEY);
        if (sig) return decode_sig(a, j, sig, where, diags);
        pv_t *v = pv_object(a);
        size_t n = (size_t)cJSON_GetArraySize(j);
        if (n) {
            v->u.obj.members = arena_alloc(a, n * sizeof(pv_member_t));
            v->u.obj.cap = n;
        }
        const cJSON *e;
        cJSON_ArrayForEach(e, j) {
            pv_t *ev = pv_from_state_json(a, e, where, diags);
            if (!ev) return NULL;
            /* JSON objects may repeat a key; the last one wins as in Go's decoder. */
            pv_object_set(a, v, e->string, ev);
        }
        return v;
    }
    diag_error(diags, DIAG_INPUT, "%s: unsupported JSON value", where);
    return NULL;
}

/* The value at s's position; depth counts the containers around it. */
static pv_t *from_text(arena_t *a, jscan_t *s, const char *where, diag_list_t *diags, int depth);

/* A member name or string value (range with its quotes) decoded. */
static char *text_string(arena_t *a, const jscan_t *s, jscan_range_t r) {
    const char *t = s->text + r.start;
    size_t n = r.end - r.start;
    return memchr(t, '\\', n) ? jscan_string(a, s, r) : arena_strndup(a, t + 1, n - 2);
}

/* The common signature object — a secret with its plaintext, {sig: secret, plaintext: "<JSON>"} —
 * decoded from the members already read (obj, `members` of them read: fewer in obj means a key was
 * repeated) into *out (NULL after a diagnostic). False for anything else, which the caller decodes
 * through cJSON: the same answer, diagnostics included. */
static bool plaintext_secret(arena_t *a, const pv_t *obj, size_t members, const char *where, diag_list_t *diags,
                             pv_t **out) {
    const pv_t *sig = pv_object_get(obj, PV_SIG_KEY);
    const pv_t *pt = pv_object_get(obj, "plaintext");
    if (obj->u.obj.len != members || !sig || sig->kind != PV_STRING || strcmp(sig->u.str.s, PV_SIG_SECRET) != 0 ||
        !pt || pt->kind != PV_STRING || pv_object_get(obj, "ciphertext"))
        return false;
    jscan_t in;
    jscan_init(&in, pt->u.str.s, strlen(pt->u.str.s));
    diag_list_t local;
    diag_list_init(&local);
    pv_t *inner = from_text(a, &in, where, &local, 0);
    if (inner && !jscan_end(&in)) inner = NULL; /* 0 of 02, 1 of "1 2": not one value (in.err set) */
    if (!inner && in.err) { /* not JSON to this reader: cJSON's reading decides (and words the error) */
        diag_list_free(&local);
        return false;
    }
    if (diags)
        diag_list_move(diags, &local);
    else
        diag_list_free(&local);
    *out = inner ? pv_secret(a, inner) : NULL;
    return true;
}

static pv_t *object_from_text(arena_t *a, jscan_t *s, const char *where, diag_list_t *diags, int depth) {
    if (!jscan_object_begin(s)) return NULL;
    size_t start = s->pos - 1;
    pv_t *v = pv_object(a);
    size_t members = 0;
    bool first = true, done = false, signed_ = false;
    for (;;) {
        jscan_range_t key;
        bool esc;
        if (!jscan_object_next(s, &first, &key, &esc, &done)) return NULL;
        if (done) break;
        char *name = text_string(a, s, (jscan_range_t){key.start - 1, key.end + 1});
        if (!name) return NULL;
        if (strcmp(name, PV_SIG_KEY) == 0) signed_ = true;
        pv_t *ev = from_text(a, s, where, diags, depth + 1);
        if (!ev) return NULL;
        pv_object_set(a, v, name, ev); /* a repeated key: the last one wins, as in Go's decoder */
        members++;
    }
    if (!signed_) return v;
    pv_t *secret;
    if (plaintext_secret(a, v, members, where, diags, &secret)) return secret;
    /* Any other signature object (ciphertext, asset, archive, reference, output…): decoded from its
     * own JSON as pv_from_state_json decodes it. */
    cJSON *j = cJSON_ParseWithLength(s->text + start, s->pos - start);
    pv_t *out = j ? pv_from_state_json(a, j, where, diags) : NULL;
    if (!j) s->err = "a JSON object", s->err_pos = start;
    cJSON_Delete(j);
    return out;
}

static pv_t *from_text(arena_t *a, jscan_t *s, const char *where, diag_list_t *diags, int depth) {
    char c = jscan_peek(s);
    if ((c == '{' || c == '[') && depth >= JSCAN_MAX_DEPTH) { /* cJSON's limit: 1,000 containers deep */
        s->err = "less nesting (deeper than 1000 levels)";
        s->err_pos = s->pos;
        return NULL;
    }
    if (c == '{') return object_from_text(a, s, where, diags, depth);
    if (c == '[') {
        if (!jscan_array_begin(s)) return NULL;
        pv_t *v = pv_array(a);
        bool first = true, done = false;
        for (;;) {
            if (!jscan_array_next(s, &first, &done)) return NULL;
            if (done) return v;
            pv_t *ev = from_text(a, s, where, diags, depth + 1);
            if (!ev) return NULL;
            pv_array_push(a, v, ev);
        }
    }
    jscan_range_t r;
    if (!jscan_value(s, &r)) return NULL;
    const char *t = s->text + r.start;
    size_t n = r.end - r.start;
    switch (c) {
    case '"': {
        if (n - 2 == strlen(PV_UNKNOWN_SENTINEL) && memcmp(t + 1, PV_UNKNOWN_SENTINEL, n - 2) == 0)
            return pv_unknown(a);
        if (!memchr(t, '\\', n)) return pv_stringn(a, t + 1, n - 2);
        char *str = jscan_string(a, s, r);
        if (!str) return NULL;
        if (strcmp(str, PV_UNKNOWN_SENTINEL) == 0) return pv_unknown(a);
        return pv_string(a, str); /* up to a decoded NUL, as cJSON's C string ends there */
    }
    case 't': return pv_bool(a, true);
    case 'f': return pv_bool(a, false);
    case 'n': return pv_null(a);
    default: {
        /* the whole number with strtod, as cJSON reads it (a longer one than 63 characters too: cut
         * there, 3222…2 of 95 digits read 3.2e62 where cJSON reads 3.2e94) */
        char small[64];
        char *num = n < sizeof small ? small : arena_alloc(a, n + 1);
        memcpy(num, t, n);
        num[n] = 0;
        return pv_number(a, strtod(num, NULL));
    }
    }
}

pv_t *pv_from_state_text(arena_t *a, jscan_t *s, const char *where, diag_list_t *diags) {
    return from_text(a, s, where, diags, 0);
}

static int member_cmp(const void *x, const void *y) {
    return strcmp(((const pv_member_t *)x)->key, ((const pv_member_t *)y)->key);
}

static cJSON *encode(const pv_t *v, bool display, bool show_secrets);

static cJSON *encode_members(const pv_member_t *m, size_t n, bool display, bool show_secrets) {
    cJSON *o = cJSON_CreateObject();
    if (!n) return o;
    pv_member_t *sorted = malloc(n * sizeof *sorted);
    if (!sorted) abort();
    memcpy(sorted, m, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, member_cmp);
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToObject(o, sorted[i].key, encode(sorted[i].value, display, show_secrets));
    free(sorted);
    return o;
}

static void add_opt(cJSON *o, const char *k, const char *v) {
    if (v) cJSON_AddStringToObject(o, k, v);
}

static cJSON *encode(const pv_t *v, bool display, bool show_secrets) {
    if (!v) return cJSON_CreateNull();
    switch (v->kind) {
    case PV_NULL: return cJSON_CreateNull();
    case PV_BOOL: return cJSON_CreateBool(v->u.b);
    case PV_NUMBER:
        if (!isfinite(v->u.n)) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, PV_SIG_KEY, PV_SIG_FLOAT);
            uint64_t bits;
            memcpy(&bits, &v->u.n, sizeof bits);
            char hex[17];
            snprintf(hex, sizeof hex, "%016llx", (unsigned long long)bits);
            cJSON_AddStringToObject(o, "value", hex);
            return o;
        }
        return cJSON_CreateNumber(v->u.n);
    case PV_STRING:
        if (v->u.str.bytes) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, PV_SIG_KEY, PV_SIG_BYTESTRING);
            char *b = base64_encode(v->u.str.s, v->u.str.len);
            cJSON_AddStringToObject(o, "value", b);
            free(b);
            return o;
        }
        return cJSON_CreateString(v->u.str.s);
    case PV_ARRAY: {
        cJSON *arr = cJSON_CreateArray();
        for (size_t i = 0; i < v->u.arr.len; i++)
            cJSON_AddItemToArray(arr, encode(v->u.arr.items[i], display, show_secrets));
        return arr;
    }
    case PV_OBJECT: return encode_members(v->u.obj.members, v->u.obj.len, display, show_secrets);
    case PV_SECRET: {
        if (display) {
            if (show_secrets && v->u.secret.inner) return encode(v->u.secret.inner, display, show_secrets);
            return cJSON_CreateString("[secret]");
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, PV_SIG_KEY, PV_SIG_SECRET);
        if (v->u.secret.ciphertext) {
            cJSON_AddStringToObject(o, "ciphertext", v->u.secret.ciphertext);
        } else {
            cJSON *inner = encode(v->u.secret.inner, false, false);
            char *text = cJSON_PrintUnformatted(inner);
            cJSON_AddStringToObject(o, "plaintext", text);
            free(text);
            cJSON_Delete(inner);
        }
        return o;
    }
    case PV_ASSET: {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, PV_SIG_KEY, PV_SIG_ASSET);
        add_opt(o, "hash", v->u.asset.hash);
        add_opt(o, "path", v->u.asset.path);
        add_opt(o, "text", v->u.asset.text);
        add_opt(o, "uri", v->u.asset.uri);
        return o;
    }
    case PV_ARCHIVE: {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, PV_SIG_KEY, PV_SIG_ARCHIVE);
        if (v->u.archive.has_assets)
            cJSON_AddItemToObject(o, "assets",
                                  encode_members(v->u.archive.assets, v->u.archive.nassets, display, show_secrets));
        add_opt(o, "hash", v->u.archive.hash);
        add_opt(o, "path", v->u.archive.path);
        add_opt(o, "uri", v->u.archive.uri);
        return o;
    }
    case PV_RESOURCE_REF: {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, PV_SIG_KEY, PV_SIG_RESOURCE_REF);
        add_opt(o, "id", v->u.ref.id);
        add_opt(o, "packageVersion", v->u.ref.package_version);
        cJSON_AddStringToObject(o, "urn", v->u.ref.urn);
        return o;
    }
    case PV_UNKNOWN: return cJSON_CreateString(PV_UNKNOWN_SENTINEL);
    case PV_OUTPUT: {
        /* State flattens output values to their element; secrecy is kept. */
        if (!v->u.output.known) return cJSON_CreateString(PV_UNKNOWN_SENTINEL);
        if (v->u.output.secret) {
            pv_t tmp = {.kind = PV_SECRET};
            tmp.u.secret.inner = v->u.output.value;
            return encode(&tmp, display, show_secrets);
        }
        return encode(v->u.output.value, display, show_secrets);
    }
    }
    return cJSON_CreateNull();
}

cJSON *pv_to_state_json(const pv_t *v) {
    return encode(v, false, false);
}

cJSON *pv_to_display_json(const pv_t *v, bool show_secrets) {
    return encode(v, true, show_secrets);
}

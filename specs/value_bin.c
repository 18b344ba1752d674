/* value_bin.c — a value's compact binary form (pv_encode, pv_decode): what a run writes of a value
 * into a file of its own to read it back later in the same process (session/session.c spills each
 * resource's inputs so that 1,000,000 of them are not held while the engine runs).
 *
 * The form is exact, not portable: a tag byte per value (its kind, or PV_BIN_NONE for a NULL
 * pointer), lengths as LEB128 varints, strings as their bytes (a byte string's flag kept, so its NULs
 * too), numbers as their eight bytes in this machine's order, members in their order, and an optional
 * C string as its length + 1 (0 for NULL). Decoding checks every length against the bytes left and
 * the nesting against PV_BIN_MAX_DEPTH, so a short or damaged record is refused, never read past. */
#include <string.h>

#include "specs/value.h"

#define PV_BIN_NONE 0xFF
/* Deeper than any value the state readers build (they stop at 1,000 levels). */
#define PV_BIN_MAX_DEPTH 4096

static void put_varint(buf_t *b, size_t n) {
    while (n >= 0x80) {
        buf_putc(b, (char)(0x80 | (n & 0x7F)));
        n >>= 7;
    }
    buf_putc(b, (char)n);
}

static void put_bytes(buf_t *b, const char *s, size_t n) {
    put_varint(b, n);
    if (n) buf_append(b, s, n);
}

/* An optional C string: 0 for NULL, else its length + 1 and its bytes. */
static void put_cstr(buf_t *b, const char *s) {
    if (!s) {
        put_varint(b, 0);
        return;
    }
    size_t n = strlen(s);
    put_varint(b, n + 1);
    buf_append(b, s, n);
}

static void put_members(buf_t *b, const pv_member_t *m, size_t n) {
    put_varint(b, n);
    for (size_t i = 0; i < n; i++) {
        put_cstr(b, m[i].key);
        pv_encode(b, m[i].value);
    }
}

void pv_encode(buf_t *b, const pv_t *v) {
    if (!v) {
        buf_putc(b, (char)PV_BIN_NONE);
        return;
    }
    buf_putc(b, (char)v->kind);
    switch (v->kind) {
    case PV_NULL:
    case PV_UNKNOWN: break;
    case PV_BOOL: buf_putc(b, v->u.b ? 1 : 0); break;
    case PV_NUMBER: buf_append(b, (const char *)&v->u.n, sizeof v->u.n); break;
    case PV_STRING:
        buf_putc(b, v->u.str.bytes ? 1 : 0);
        put_bytes(b, v->u.str.s, v->u.str.len);
        break;
    case PV_ARRAY:
        put_varint(b, v->u.arr.len);
        for (size_t i = 0; i < v->u.arr.len; i++)
            pv_encode(b, v->u.arr.items[i]);
        break;
    case PV_OBJECT: put_members(b, v->u.obj.members, v->u.obj.len); break;
    case PV_SECRET:
        pv_encode(b, v->u.secret.inner);
        put_cstr(b, v->u.secret.ciphertext);
        break;
    case PV_ASSET:
        put_cstr(b, v->u.asset.hash);
        put_cstr(b, v->u.asset.text);
        put_cstr(b, v->u.asset.path);
        put_cstr(b, v->u.asset.uri);
        break;
    case PV_ARCHIVE:
        put_cstr(b, v->u.archive.hash);
        put_cstr(b, v->u.archive.path);
        put_cstr(b, v->u.archive.uri);
        buf_putc(b, v->u.archive.has_assets ? 1 : 0);
        put_members(b, v->u.archive.assets, v->u.archive.nassets);
        break;
    case PV_RESOURCE_REF:
        put_cstr(b, v->u.ref.urn);
        put_cstr(b, v->u.ref.id);
        put_cstr(b, v->u.ref.package_version);
        break;
    case PV_OUTPUT:
        pv_encode(b, v->u.output.value);
        buf_putc(b, (char)((v->u.output.known ? 1 : 0) | (v->u.output.secret ? 2 : 0)));
        put_varint(b, v->u.output.ndeps);
        for (size_t i = 0; i < v->u.output.ndeps; i++)
            put_cstr(b, v->u.output.deps[i]);
        break;
    }
}

typedef struct reader {
    arena_t *a;
    const unsigned char *p, *end;
    bool bad;
} reader_t;

static unsigned char get_byte(reader_t *r) {
    if (r->p == r->end) {
        r->bad = true;
        return 0;
    }
    return *r->p++;
}

static size_t get_varint(reader_t *r) {
    size_t n = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        unsigned char c = get_byte(r);
        n |= (size_t)(c & 0x7F) << shift;
        if (!(c & 0x80)) return n;
    }
    r->bad = true;
    return 0;
}

/* A count of things of at least one byte each: no more than the bytes left. */
static size_t get_count(reader_t *r) {
    size_t n = get_varint(r);
    if (n > (size_t)(r->end - r->p)) r->bad = true;
    return r->bad ? 0 : n;
}

static const char *get_str(reader_t *r, size_t n) {
    if (r->bad || n > (size_t)(r->end - r->p)) {
        r->bad = true;
        return NULL;
    }
    const char *s = arena_strndup(r->a, (const char *)r->p, n);
    r->p += n;
    return s;
}

static const char *get_cstr(reader_t *r) {
    size_t n = get_varint(r);
    return n == 0 || r->bad ? NULL : get_str(r, n - 1);
}

static pv_t *get_value(reader_t *r, int depth);

static pv_member_t *get_members(reader_t *r, size_t *count, int depth) {
    size_t n = get_count(r);
    *count = n;
    if (!n) return NULL;
    pv_member_t *m = arena_alloc(r->a, n * sizeof *m);
    for (size_t i = 0; i < n && !r->bad; i++) {
        m[i].key = get_cstr(r);
        m[i].value = get_value(r, depth + 1);
    }
    return m;
}

static pv_t *get_value(reader_t *r, int depth) {
    unsigned char tag = get_byte(r);
    if (r->bad || tag == PV_BIN_NONE) return NULL;
    if (tag > PV_OUTPUT || depth > PV_BIN_MAX_DEPTH) {
        r->bad = true;
        return NULL;
    }
    pv_t *v = arena_alloc(r->a, sizeof *v);
    v->kind = (pv_kind_t)tag;
    switch (v->kind) {
    case PV_NULL:
    case PV_UNKNOWN: break;
    case PV_BOOL: v->u.b = get_byte(r) != 0; break;
    case PV_NUMBER:
        if ((size_t)(r->end - r->p) < sizeof v->u.n) {
            r->bad = true;
            break;
        }
        memcpy(&v->u.n, r->p, sizeof v->u.n);
        r->p += sizeof v->u.n;
        break;
    case PV_STRING:
        v->u.str.bytes = get_byte(r) != 0;
        v->u.str.len = get_varint(r);
        v->u.str.s = get_str(r, v->u.str.len);
        break;
    case PV_ARRAY: {
        size_t n = get_count(r);
        v->u.arr.len = v->u.arr.cap = n;
        v->u.arr.items = n ? arena_alloc(r->a, n * sizeof(pv_t *)) : NULL;
        for (size_t i = 0; i < n && !r->bad; i++)
            v->u.arr.items[i] = get_value(r, depth + 1);
        break;
    }
    case PV_OBJECT:
        v->u.obj.members = get_members(r, &v->u.obj.len, depth);
        v->u.obj.cap = v->u.obj.len;
        break;
    case PV_SECRET:
        v->u.secret.inner = get_value(r, depth + 1);
        v->u.secret.ciphertext = get_cstr(r);
        break;
    case PV_ASSET:
        v->u.asset.hash = get_cstr(r);
        v->u.asset.text = get_cstr(r);
        v->u.asset.path = get_cstr(r);
        v->u.asset.uri = get_cstr(r);
        break;
    case PV_ARCHIVE: {
        v->u.archive.hash = get_cstr(r);
        v->u.archive.path = get_cstr(r);
        v->u.archive.uri = get_cstr(r);
        v->u.archive.has_assets = get_byte(r) != 0;
        size_t n = 0;
        v->u.archive.assets = get_members(r, &n, depth);
        if (n > UINT32_MAX) r->bad = true;
        v->u.archive.nassets = (uint32_t)n;
        break;
    }
    case PV_RESOURCE_REF:
        v->u.ref.urn = get_cstr(r);
        v->u.ref.id = get_cstr(r);
        v->u.ref.package_version = get_cstr(r);
        break;
    case PV_OUTPUT: {
        v->u.output.value = get_value(r, depth + 1);
        unsigned char flags = get_byte(r);
        v->u.output.known = (flags & 1) != 0;
        v->u.output.secret = (flags & 2) != 0;
        size_t n = get_count(r);
        v->u.output.ndeps = n;
        if (n) {
            v->u.output.deps = arena_alloc(r->a, n * sizeof *v->u.output.deps);
            for (size_t i = 0; i < n && !r->bad; i++)
                v->u.output.deps[i] = get_cstr(r);
        }
        break;
    }
    }
    return v;
}

bool pv_decode(arena_t *a, const char *data, size_t len, pv_t **out) {
    reader_t r = {a, (const unsigned char *)data, (const unsigned char *)data + len, false};
    pv_t *v = get_value(&r, 0);
    if (r.bad || r.p != r.end) return false;
    *out = v;
    return true;
}

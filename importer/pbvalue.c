/* pbvalue.c — pv_t ⇄ google.protobuf.Struct/Value with Pulumi's signature objects (see pbvalue.h). */
#include "importer/pbvalue.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base64.h"

/* Unknown sentinels, one per element kind (provider-protocol.md §2); every one decodes to PV_UNKNOWN. */
static const char *const UNKNOWN_SENTINELS[] = {
    PV_UNKNOWN_SENTINEL,                    /* string / generic */
    "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", /* bool */
    "3eeb2bf0-c639-47a8-9e75-3b44932eb421", /* number */
    "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", /* array */
    "030794c1-ac77-496b-92df-f27374a8bd58", /* asset */
    "e48ece36-62e2-4504-bad9-02848725956a", /* archive */
    "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", /* object */
};

static bool is_unknown_sentinel(const char *s) {
    for (size_t i = 0; i < sizeof UNKNOWN_SENTINELS / sizeof UNKNOWN_SENTINELS[0]; i++)
        if (strcmp(s, UNKNOWN_SENTINELS[i]) == 0) return true;
    return false;
}

void pbvalue_options_default(pbvalue_options_t *o) {
    memset(o, 0, sizeof *o);
    o->keep_secrets = true;
    o->keep_resources = true;
    o->keep_unknowns = true;
    o->keep_output_values = true;
    o->keep_byte_strings = true;
}

static void *arena_pb_alloc(void *data, size_t size) {
    return arena_alloc(data, size ? size : 1);
}
static void arena_pb_free(void *data, void *p) {
    (void)data;
    (void)p;
}

ProtobufCAllocator pbvalue_arena_allocator(arena_t *a) {
    ProtobufCAllocator al = {.alloc = arena_pb_alloc, .free = arena_pb_free, .allocator_data = a};
    return al;
}

unsigned char *pbvalue_pack(const ProtobufCMessage *m, size_t *len) {
    size_t n = protobuf_c_message_get_packed_size(m);
    unsigned char *buf = malloc(n ? n : 1);
    if (!buf) abort();
    *len = protobuf_c_message_pack(m, buf);
    return buf;
}

/* --- encoding ------------------------------------------------------------------------------------ */

typedef struct enc {
    arena_t *a;
    const pbvalue_options_t *o;
    const char *where;
    diag_list_t *diags;
    bool failed;
} enc_t;

static Google__Protobuf__Value *enc_value(enc_t *e, const pv_t *v);

static Google__Protobuf__Value *new_value(arena_t *a) {
    Google__Protobuf__Value *pv = arena_alloc(a, sizeof *pv);
    google__protobuf__value__init(pv);
    return pv;
}

static Google__Protobuf__Value *val_string(arena_t *a, const char *s) {
    Google__Protobuf__Value *pv = new_value(a);
    pv->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE;
    pv->string_value = (char *)s;
    return pv;
}

static Google__Protobuf__Value *val_bool(arena_t *a, bool b) {
    Google__Protobuf__Value *pv = new_value(a);
    pv->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE;
    pv->bool_value = b;
    return pv;
}

static Google__Protobuf__Value *val_null(arena_t *a) {
    Google__Protobuf__Value *pv = new_value(a);
    pv->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_NULL_VALUE;
    pv->null_value = GOOGLE__PROTOBUF__NULL_VALUE__NULL_VALUE;
    return pv;
}

/* A Struct under construction: fields appended in order. */
typedef struct sbuild {
    Google__Protobuf__Struct *s;
    size_t cap;
} sbuild_t;

static void sb_init(arena_t *a, sbuild_t *b, size_t cap) {
    b->s = arena_alloc(a, sizeof *b->s);
    google__protobuf__struct__init(b->s);
    b->cap = cap ? cap : 1;
    b->s->fields = arena_alloc(a, b->cap * sizeof *b->s->fields);
}

static void sb_add(arena_t *a, sbuild_t *b, const char *key, Google__Protobuf__Value *v) {
    if (!v) return;
    b->s->fields =
        arena_grow_array(a, b->s->fields, &b->cap, b->s->n_fields + 1, sizeof(Google__Protobuf__Struct__FieldsEntry *));
    Google__Protobuf__Struct__FieldsEntry *fe = arena_alloc(a, sizeof *fe);
    google__protobuf__struct__fields_entry__init(fe);
    fe->key = (char *)key;
    fe->value = v;
    b->s->fields[b->s->n_fields++] = fe;
}

static Google__Protobuf__Value *val_struct(arena_t *a, Google__Protobuf__Struct *s) {
    Google__Protobuf__Value *pv = new_value(a);
    pv->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE;
    pv->struct_value = s;
    return pv;
}

static void sb_add_str(arena_t *a, sbuild_t *b, const char *key, const char *s) {
    if (s) sb_add(a, b, key, val_string(a, s));
}

static Google__Protobuf__Struct *enc_members(enc_t *e, const pv_member_t *m, size_t n) {
    sbuild_t b;
    sb_init(e->a, &b, n);
    for (size_t i = 0; i < n && !e->failed; i++) {
        const pv_t *mv = m[i].value;
        /* Without keep_unknowns an unknown member is left out, as the engine does. */
        if (!mv || (!e->o->keep_unknowns && mv->kind == PV_UNKNOWN)) continue;
        sb_add(e->a, &b, m[i].key, enc_value(e, mv));
    }
    return b.s;
}

static Google__Protobuf__Value *enc_asset(enc_t *e, const pv_t *v) {
    sbuild_t b;
    sb_init(e->a, &b, 5);
    sb_add_str(e->a, &b, PV_SIG_KEY, PV_SIG_ASSET);
    sb_add_str(e->a, &b, "hash", v->u.asset.hash);
    if (!e->o->elide_asset_contents) {
        sb_add_str(e->a, &b, "text", v->u.asset.text);
        sb_add_str(e->a, &b, "path", v->u.asset.path);
        sb_add_str(e->a, &b, "uri", v->u.asset.uri);
    }
    return val_struct(e->a, b.s);
}

static Google__Protobuf__Value *enc_archive(enc_t *e, const pv_t *v) {
    sbuild_t b;
    sb_init(e->a, &b, 5);
    sb_add_str(e->a, &b, PV_SIG_KEY, PV_SIG_ARCHIVE);
    sb_add_str(e->a, &b, "hash", v->u.archive.hash);
    if (!e->o->elide_asset_contents) {
        if (v->u.archive.has_assets)
            sb_add(e->a, &b, "assets", val_struct(e->a, enc_members(e, v->u.archive.assets, v->u.archive.nassets)));
        sb_add_str(e->a, &b, "path", v->u.archive.path);
        sb_add_str(e->a, &b, "uri", v->u.archive.uri);
    }
    return val_struct(e->a, b.s);
}

static Google__Protobuf__Value *enc_value(enc_t *e, const pv_t *v) {
    arena_t *a = e->a;
    switch (v->kind) {
    case PV_NULL: return val_null(a);
    case PV_BOOL: return val_bool(a, v->u.b);
    case PV_NUMBER: {
        Google__Protobuf__Value *pv = new_value(a);
        pv->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE;
        pv->number_value = v->u.n;
        return pv;
    }
    case PV_STRING:
        if (v->u.str.bytes && e->o->keep_byte_strings) {
            sbuild_t b;
            sb_init(a, &b, 2);
            sb_add_str(a, &b, PV_SIG_KEY, PV_SIG_BYTESTRING);
            char *b64 = base64_encode(v->u.str.s, v->u.str.len);
            sb_add_str(a, &b, "value", arena_strdup(a, b64));
            free(b64);
            return val_struct(a, b.s);
        }
        return val_string(a, v->u.str.s);
    case PV_ARRAY: {
        Google__Protobuf__ListValue *l = arena_alloc(a, sizeof *l);
        google__protobuf__list_value__init(l);
        l->values = arena_alloc(a, (v->u.arr.len ? v->u.arr.len : 1) * sizeof *l->values);
        for (size_t i = 0; i < v->u.arr.len && !e->failed; i++) {
            Google__Protobuf__Value *item = enc_value(e, v->u.arr.items[i]);
            l->values[l->n_values++] = item ? item : val_null(a);
        }
        Google__Protobuf__Value *pv = new_value(a);
        pv->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE;
        pv->list_value = l;
        return pv;
    }
    case PV_OBJECT: return val_struct(a, enc_members(e, v->u.obj.members, v->u.obj.len));
    case PV_SECRET: {
        if (!v->u.secret.inner) {
            diag_error(e->diags, DIAG_PROVIDER,
                       "%s: a secret value is known only by its ciphertext and cannot be sent to the provider; "
                       "decrypt the state first (e.g. `pulumi stack export --show-secrets`)",
                       e->where);
            e->failed = true;
            return NULL;
        }
        Google__Protobuf__Value *inner = enc_value(e, v->u.secret.inner);
        if (!e->o->keep_secrets || !inner) return inner;
        sbuild_t b;
        sb_init(a, &b, 2);
        sb_add_str(a, &b, PV_SIG_KEY, PV_SIG_SECRET);
        sb_add(a, &b, "value", inner);
        return val_struct(a, b.s);
    }
    case PV_ASSET: return enc_asset(e, v);
    case PV_ARCHIVE: return enc_archive(e, v);
    case PV_RESOURCE_REF: {
        if (!e->o->keep_resources) return val_string(a, v->u.ref.id && *v->u.ref.id ? v->u.ref.id : v->u.ref.urn);
        sbuild_t b;
        sb_init(a, &b, 4);
        sb_add_str(a, &b, PV_SIG_KEY, PV_SIG_RESOURCE_REF);
        sb_add_str(a, &b, "urn", v->u.ref.urn);
        sb_add_str(a, &b, "id", v->u.ref.id);
        sb_add_str(a, &b, "packageVersion", v->u.ref.package_version);
        return val_struct(a, b.s);
    }
    case PV_UNKNOWN: return e->o->keep_unknowns ? val_string(a, PV_UNKNOWN_SENTINEL) : NULL;
    case PV_OUTPUT: {
        if (!e->o->keep_output_values) {
            if (!v->u.output.known || !v->u.output.value)
                return e->o->keep_unknowns ? val_string(a, PV_UNKNOWN_SENTINEL) : NULL;
            if (v->u.output.secret) {
                pv_t wrapped = {.kind = PV_SECRET};
                wrapped.u.secret.inner = v->u.output.value;
                return enc_value(e, &wrapped);
            }
            return enc_value(e, v->u.output.value);
        }
        sbuild_t b;
        sb_init(a, &b, 4);
        sb_add_str(a, &b, PV_SIG_KEY, PV_SIG_OUTPUT);
        if (v->u.output.known && v->u.output.value) sb_add(a, &b, "value", enc_value(e, v->u.output.value));
        if (v->u.output.secret) sb_add(a, &b, "secret", val_bool(a, true));
        if (v->u.output.ndeps) {
            Google__Protobuf__ListValue *l = arena_alloc(a, sizeof *l);
            google__protobuf__list_value__init(l);
            l->values = arena_alloc(a, v->u.output.ndeps * sizeof *l->values);
            for (size_t i = 0; i < v->u.output.ndeps; i++)
                l->values[l->n_values++] = val_string(a, v->u.output.deps[i]);
            Google__Protobuf__Value *lv = new_value(a);
            lv->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE;
            lv->list_value = l;
            sb_add(a, &b, "dependencies", lv);
        }
        return val_struct(a, b.s);
    }
    }
    return val_null(a);
}

Google__Protobuf__Value *pbvalue_value_from_pv(arena_t *a, const pv_t *v, const pbvalue_options_t *opts,
                                               const char *where, diag_list_t *diags) {
    pbvalue_options_t def;
    if (!opts) {
        pbvalue_options_default(&def);
        opts = &def;
    }
    enc_t e = {.a = a, .o = opts, .where = where ? where : "property value", .diags = diags};
    if (!v) return val_null(a);
    Google__Protobuf__Value *pv = enc_value(&e, v);
    if (e.failed) return NULL;
    return pv ? pv : val_null(a);
}

Google__Protobuf__Struct *pbvalue_struct_from_pv(arena_t *a, const pv_t *obj, const pbvalue_options_t *opts,
                                                 const char *where, diag_list_t *diags) {
    pbvalue_options_t def;
    if (!opts) {
        pbvalue_options_default(&def);
        opts = &def;
    }
    enc_t e = {.a = a, .o = opts, .where = where ? where : "properties", .diags = diags};
    if (!obj) {
        sbuild_t b;
        sb_init(a, &b, 1);
        return b.s;
    }
    if (obj->kind != PV_OBJECT) {
        diag_error(diags, DIAG_PROVIDER, "%s: expected an object of properties, got %s", e.where,
                   pv_kind_name(obj->kind));
        return NULL;
    }
    Google__Protobuf__Struct *s = enc_members(&e, obj->u.obj.members, obj->u.obj.len);
    return e.failed ? NULL : s;
}

/* --- decoding ------------------------------------------------------------------------------------ */

static const Google__Protobuf__Value *struct_get(const Google__Protobuf__Struct *s, const char *key) {
    const Google__Protobuf__Value *found = NULL;
    for (size_t i = 0; i < s->n_fields; i++)
        if (s->fields[i]->key && strcmp(s->fields[i]->key, key) == 0) found = s->fields[i]->value; /* last wins */
    return found;
}

static const char *struct_str(arena_t *a, const Google__Protobuf__Struct *s, const char *key) {
    const Google__Protobuf__Value *v = struct_get(s, key);
    if (!v || v->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE) return NULL;
    return arena_strdup(a, v->string_value);
}

static pv_t *new_pv(arena_t *a, pv_kind_t k) {
    pv_t *v = arena_alloc(a, sizeof *v);
    v->kind = k;
    return v;
}

static pv_t *dec_members(arena_t *a, const Google__Protobuf__Struct *s, pv_member_t **out, size_t *n, const char *where,
                         diag_list_t *diags) {
    pv_t *obj = pv_object(a);
    for (size_t i = 0; i < s->n_fields; i++) {
        const Google__Protobuf__Struct__FieldsEntry *fe = s->fields[i];
        pv_t *mv = pbvalue_pv_from_value(a, fe->value, where, diags);
        if (!mv) return NULL;
        pv_object_set(a, obj, fe->key ? fe->key : "", mv);
    }
    if (out) {
        *out = obj->u.obj.members;
        *n = obj->u.obj.len;
    }
    return obj;
}

static pv_t *dec_sig(arena_t *a, const Google__Protobuf__Struct *s, const char *sig, const char *where,
                     diag_list_t *diags) {
    if (strcmp(sig, PV_SIG_SECRET) == 0) {
        pv_t *v = new_pv(a, PV_SECRET);
        v->u.secret.inner = pbvalue_pv_from_value(a, struct_get(s, "value"), where, diags);
        return v->u.secret.inner ? v : NULL;
    }
    if (strcmp(sig, PV_SIG_ASSET) == 0) {
        pv_t *v = new_pv(a, PV_ASSET);
        v->u.asset.hash = struct_str(a, s, "hash");
        v->u.asset.text = struct_str(a, s, "text");
        v->u.asset.path = struct_str(a, s, "path");
        v->u.asset.uri = struct_str(a, s, "uri");
        return v;
    }
    if (strcmp(sig, PV_SIG_ARCHIVE) == 0) {
        pv_t *v = new_pv(a, PV_ARCHIVE);
        v->u.archive.hash = struct_str(a, s, "hash");
        v->u.archive.path = struct_str(a, s, "path");
        v->u.archive.uri = struct_str(a, s, "uri");
        const Google__Protobuf__Value *assets = struct_get(s, "assets");
        if (assets && assets->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE) {
            v->u.archive.has_assets = true;
            size_t n = 0;
            if (!dec_members(a, assets->struct_value, &v->u.archive.assets, &n, where, diags)) return NULL;
            v->u.archive.nassets = (uint32_t)n;
        }
        return v;
    }
    if (strcmp(sig, PV_SIG_RESOURCE_REF) == 0) {
        const char *urn = struct_str(a, s, "urn");
        if (!urn) {
            diag_error(diags, DIAG_PROVIDER, "%s: malformed resource reference from the provider: it has no `urn`",
                       where);
            return NULL;
        }
        pv_t *v = new_pv(a, PV_RESOURCE_REF);
        v->u.ref.urn = urn;
        v->u.ref.id = struct_str(a, s, "id");
        /* An unknown ID is sent as the unknown sentinel; the value model spells it "". */
        if (v->u.ref.id && is_unknown_sentinel(v->u.ref.id)) v->u.ref.id = "";
        v->u.ref.package_version = struct_str(a, s, "packageVersion");
        return v;
    }
    if (strcmp(sig, PV_SIG_OUTPUT) == 0) {
        pv_t *v = new_pv(a, PV_OUTPUT);
        const Google__Protobuf__Value *val = struct_get(s, "value");
        if (val) {
            v->u.output.value = pbvalue_pv_from_value(a, val, where, diags);
            if (!v->u.output.value) return NULL;
            v->u.output.known = v->u.output.value->kind != PV_UNKNOWN;
            if (!v->u.output.known) v->u.output.value = NULL;
        }
        const Google__Protobuf__Value *sec = struct_get(s, "secret");
        v->u.output.secret = sec && sec->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE && sec->bool_value;
        const Google__Protobuf__Value *deps = struct_get(s, "dependencies");
        if (deps && deps->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE && deps->list_value->n_values) {
            const Google__Protobuf__ListValue *l = deps->list_value;
            v->u.output.deps = arena_alloc(a, l->n_values * sizeof(char *));
            for (size_t i = 0; i < l->n_values; i++)
                if (l->values[i]->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE)
                    v->u.output.deps[v->u.output.ndeps++] = arena_strdup(a, l->values[i]->string_value);
        }
        return v;
    }
    if (strcmp(sig, PV_SIG_BYTESTRING) == 0) {
        const char *b64 = struct_str(a, s, "value");
        char *bytes;
        size_t len;
        if (!b64 || !base64_decode(a, b64, &bytes, &len)) {
            diag_error(diags, DIAG_PROVIDER, "%s: malformed byte string from the provider: `value` must be base64",
                       where);
            return NULL;
        }
        pv_t *v = new_pv(a, PV_STRING);
        v->u.str.s = bytes;
        v->u.str.len = len;
        v->u.str.bytes = true;
        return v;
    }
    diag_error(diags, DIAG_PROVIDER, "%s: unrecognized signature '%s' in a property value from the provider", where,
               sig);
    return NULL;
}

pv_t *pbvalue_pv_from_value(arena_t *a, const Google__Protobuf__Value *v, const char *where, diag_list_t *diags) {
    if (!where) where = "property value";
    if (!v) return pv_null(a);
    switch (v->kind_case) {
    case GOOGLE__PROTOBUF__VALUE__KIND__NOT_SET:
    case GOOGLE__PROTOBUF__VALUE__KIND_NULL_VALUE: return pv_null(a);
    case GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE: return pv_number(a, v->number_value);
    case GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE: return pv_bool(a, v->bool_value);
    case GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE:
        if (!v->string_value) return pv_string(a, "");
        if (is_unknown_sentinel(v->string_value)) return pv_unknown(a);
        return pv_string(a, v->string_value);
    case GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE: {
        pv_t *arr = pv_array(a);
        const Google__Protobuf__ListValue *l = v->list_value;
        for (size_t i = 0; l && i < l->n_values; i++) {
            pv_t *item = pbvalue_pv_from_value(a, l->values[i], where, diags);
            if (!item) return NULL;
            pv_array_push(a, arr, item);
        }
        return arr;
    }
    case GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE: return pbvalue_pv_from_struct(a, v->struct_value, where, diags);
    default: break;
    }
    diag_error(diags, DIAG_PROVIDER, "%s: a property value from the provider has an unknown kind (%d)", where,
               (int)v->kind_case);
    return NULL;
}

pv_t *pbvalue_pv_from_struct(arena_t *a, const Google__Protobuf__Struct *s, const char *where, diag_list_t *diags) {
    if (!s) return NULL;
    if (!where) where = "properties";
    const Google__Protobuf__Value *sig = struct_get(s, PV_SIG_KEY);
    if (sig) {
        if (sig->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE) {
            diag_error(diags, DIAG_PROVIDER,
                       "%s: a signature key in a property value from the provider is not a string", where);
            return NULL;
        }
        return dec_sig(a, s, sig->string_value, where, diags);
    }
    return dec_members(a, s, NULL, NULL, where, diags);
}

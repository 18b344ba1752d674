/* gen.c — PCL generation from imported resources (pcl_generate).
 *
 * Follows Pulumi's importer (pkg/importer/hcl2.go, language.go) and fixes its weak spots:
 *   - identifiers: every character invalid in HCL becomes `_` (Pulumi only replaces `.`), names are
 *     unique across the program, `__logicalName` whenever the identifier differs;
 *   - inputs in schema order with Pulumi's value rules (zero values for missing required inputs,
 *     union reduction, map entries that do not fit the element type dropped, objects by schema);
 *   - references: another resource's exact id / `name` / `arn` output becomes `<var>.id|.name|.arn`,
 *     found through a hash table of candidate values (O(total values)); a reference cycle is broken
 *     at one edge instead of dropping every reference; candidates may also come from outside the
 *     import (resources the user's program already declares, opts->external), whose roots are
 *     variables of that program rather than nodes, and which order nothing;
 *   - secrets of every kind stay secret: either a secret stack-config read (default) or `secret(..)`;
 *   - nodes in a stable topological order (a resource before its users).
 * Pass order: resolve schemas and names → candidate table → values → order/cycles → nodes. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "pcl/pcl_internal.h"
#include "specs/readable_name.h"

/* Deeper than any real schema; stops zero values of self-recursive required object types. */
#define GEN_MAX_ZERO_DEPTH 32

/* A secret output is read by generation for one question: does an input hold the same string (then it
 * becomes a reference to that output). A string longer than this is compared by its SHA-256 instead
 * (equality_key), so a kept copy of the outputs (pcl_gen_outputs_needed) holds a private key's PEM as
 * 65 bytes, not kilobytes, and answers the same. */
#define GEN_KEY_PLAIN_MAX 80
#define GEN_KEY_DIGEST_LEN 65 /* "\x01" and 64 hex digits: short enough to be its own key */

/* --- per-resource state ------------------------------------------------------------------------- */

typedef struct gen_ref {
    size_t target;
    pcl_expr_t *expr;    /* rewritten to a string literal if this edge is broken */
    const char *literal; /* the value the reference replaced */
} gen_ref_t;

typedef struct gen_edge {
    size_t target;
    bool hard;   /* parent/provider/dependsOn/...: cannot be broken */
    bool broken; /* a reference edge turned back into literals, or an ignored hard cycle edge */
} gen_edge_t;

typedef struct gen_config {
    const char *name;
    const char *type;
} gen_config_t;

typedef struct gen_res {
    const pcl_gen_resource_t *in;
    bool ok;
    const char *ident;
    const char *pkg_name;
    schema_package_t *pkg;
    const schema_resource_t *schema;
    pcl_attr_t *attrs;
    size_t n_attrs;
    gen_ref_t *refs;
    size_t n_refs, cap_refs;
    gen_edge_t *edges;
    size_t n_edges;
    gen_config_t *configs;
    size_t n_configs, cap_configs;
} gen_res_t;

/* A reference candidate: a value that names another resource's attribute. */
typedef struct gen_cand {
    size_t res;                    /* imported resource, SIZE_MAX for an external one */
    const pcl_external_ref_t *ext; /* the external candidate, NULL for an imported resource */
    const char *attr;              /* "id", "name", "arn" */
    bool ambiguous;                /* the value belongs to more than one resource: never referenced */
} gen_cand_t;

typedef struct gen_ctx {
    arena_t *a; /* the program's arena */
    /* where resources' expressions, attributes, options and edges go: the program's arena, or, when
     * the program is printed as it is generated (opts->print_to), the current batch's, freed once
     * every resource generated into it is printed */
    arena_t *ea;
    const pcl_gen_options_t *opts;
    diag_list_t *diags;
    pcl_gen_result_t *out;
    gen_res_t *res;
    size_t n;
    size_t cur;
    pcl_smap_t names;      /* every identifier in use */
    pcl_smap_t plan_names; /* caller's variable name → resource index */
    pcl_smap_t cands;      /* candidate value → index into cand */
    gen_cand_t *cand;
    size_t n_cand;
    pcl_smap_t secret_cands; /* a secret output's equality_key → index into secret_cand */
    arena_t *secret_keys;    /* the keys that are digests (freed with the map after pass 3) */
    arena_t *cand_keys;      /* the keys taken from outputs read back (opts->load_outputs), freed as well */
    pcl_smap_t reused_keys;  /* reserved config keys a secret of this program took again */
    gen_cand_t *secret_cand;
    size_t n_secret_cand;
    pcl_smap_t superseded; /* external roots describing a resource this batch re-imports */
    pcl_smap_t ext_used;   /* external roots referenced so far (→ program->external_roots) */
    size_t cap_ext_used;
    size_t cap_secrets;
    /* Literals a program repeats, each held once: bool, number and null expressions by kind, type and
     * value (the keys in an arena of their own, freed with the map when generation ends), and type
     * tokens (the key is the program's copy). Expressions are not changed once generated but for
     * references (gen_ref_t), which are never shared. */
    hashmap_t literals;
    arena_t *literal_keys;
    hashmap_t tokens;
    pcl_smap_t pkgs; /* pass 5: the packages whose node is written */
    struct gen_lin *lin;
    /* opts->print_to: the resources below printed_to are printed; every edge of those generated
     * leads below reach; the text not yet in the spool, the nodes printed, pass 4's messages */
    size_t printed_to, reach;
    buf_t text;
    size_t n_printed;
    diag_list_t lin_diags, check_diags;
    bool print_refused;
    buf_t path;       /* Title-cased path of the value being generated, for config names */
    const char *prop; /* top-level property being generated, for diagnostics */
    int zero_depth;
} gen_ctx_t;

void pcl_gen_options_default(pcl_gen_options_t *o) {
    memset(o, 0, sizeof *o);
    o->secrets = PCL_SECRETS_CONFIG;
    o->guess_references = true;
}

char *pcl_sanitize_identifier(arena_t *a, const char *name) {
    buf_t b;
    buf_init(&b);
    for (const unsigned char *p = (const unsigned char *)(name ? name : ""); *p; p++) {
        unsigned char c = *p;
        if (isalnum(c) || c == '_' || c == '-') {
            buf_putc(&b, (char)c);
        } else {
            /* one `_` per character, so skip a UTF-8 sequence's continuation bytes */
            buf_putc(&b, '_');
            while ((p[1] & 0xC0) == 0x80)
                p++;
        }
    }
    if (b.len == 0) buf_putc(&b, '_');
    char *s = buf_arena_str(&b, a);
    buf_free(&b);
    if (isdigit((unsigned char)s[0]) || s[0] == '-' || pcl_is_reserved(s)) s = arena_sprintf(a, "_%s", s);
    return s;
}

/* Reserves base, or base2, base3, ... whichever is free. */
static const char *unique_name(gen_ctx_t *g, const char *base, size_t val) {
    const char *name = base;
    for (unsigned k = 2; !pcl_smap_add(&g->names, name, val); k++)
        name = arena_sprintf(g->a, "%s%u", base, k);
    return name;
}

/* A resource's identifier: its sanitized variable name, else one that reads like the resource (its
 * type, logical name, module or ID: `objBucketObject`, not `obj2`), numbered only when all are taken. */
static const char *resource_ident(gen_ctx_t *g, const pcl_gen_resource_t *in, const char *var, size_t val) {
    const char *base = pcl_sanitize_identifier(g->a, var);
    if (pcl_smap_add(&g->names, base, val)) return base;
    const char *c[READABLE_MAX];
    size_t n = readable_name_candidates(g->a, READABLE_CAMEL, base, in->type, in->logical_name, in->id, c);
    for (size_t k = 0; k < n; k++) {
        const char *ident = pcl_sanitize_identifier(g->a, c[k]);
        if (pcl_smap_add(&g->names, ident, val)) return ident;
    }
    return unique_name(g, base, val);
}

/* The form s is compared in for equality: s itself when it is at most GEN_KEY_PLAIN_MAX bytes, else
 * "\x01" and the hex SHA-256 of its bytes (up to its NUL, as strcmp compares) written into buf. A key is
 * its own key, so a copy that holds keys compares as the strings would. */
static const char *equality_key(const char *s, char buf[GEN_KEY_DIGEST_LEN + 1]) {
    size_t len = strlen(s);
    if (len <= GEN_KEY_PLAIN_MAX) return s;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(s, len, md, &n, EVP_sha256(), NULL) || n != 32) abort();
    static const char hex[] = "0123456789abcdef";
    buf[0] = '\x01';
    for (unsigned i = 0; i < 32; i++) {
        buf[1 + 2 * i] = hex[md[i] >> 4];
        buf[2 + 2 * i] = hex[md[i] & 15];
    }
    buf[GEN_KEY_DIGEST_LEN] = 0;
    return buf;
}

/* Whether two strings are equal, compared as equality_key compares them. */
static bool equal_keys(const char *x, const char *y) {
    char bx[GEN_KEY_DIGEST_LEN + 1], by[GEN_KEY_DIGEST_LEN + 1];
    return strcmp(equality_key(x, bx), equality_key(y, by)) == 0;
}

/* "resource 'x' of type 'T'" for a diagnostic about r (made when one is given, not kept per resource). */
static const char *res_desc(gen_ctx_t *g, const gen_res_t *r) {
    const pcl_gen_resource_t *in = r->in;
    return arena_sprintf(g->a, "resource '%s' of type '%s'",
                         in->logical_name ? in->logical_name
                         : in->name       ? in->name
                                          : "",
                         in->type ? in->type : "");
}

/* --- expression constructors ---------------------------------------------------------------------- */

static pcl_expr_t *new_expr(gen_ctx_t *g, pcl_expr_kind_t kind, const schema_type_t *type) {
    pcl_expr_t *e = arena_alloc(g->ea, sizeof *e);
    e->kind = kind;
    e->type = type;
    return e;
}

/* A bool, number or null literal of this type and value: the program's one expression for it. */
static pcl_expr_t *shared_literal(gen_ctx_t *g, pcl_expr_kind_t kind, const schema_type_t *type, bool b, double n) {
    struct {
        const schema_type_t *type;
        double n;
        unsigned char kind, b;
    } key;
    memset(&key, 0, sizeof key); /* the padding is part of the key's bytes */
    key.type = type;
    key.kind = (unsigned char)kind;
    key.b = kind == PCL_BOOL && b;
    key.n = kind == PCL_NUMBER ? n : 0;
    void **found = hashmap_find(&g->literals, (const char *)&key, sizeof key);
    if (found) return *found;
    pcl_expr_t *e = arena_alloc(g->a, sizeof *e); /* the program's: shared across printed batches */
    e->kind = kind;
    e->type = type;
    e->b = key.b;
    e->n = key.n;
    if (!g->literal_keys) g->literal_keys = arena_new();
    char *k = arena_alloc(g->literal_keys, sizeof key);
    memcpy(k, &key, sizeof key);
    hashmap_add(&g->literals, k, sizeof key, e);
    return e;
}

static pcl_expr_t *new_string(gen_ctx_t *g, const char *s, const schema_type_t *type) {
    pcl_expr_t *e = new_expr(g, PCL_STRING, type);
    e->s = arena_strdup(g->ea, s);
    return e;
}

static pcl_expr_t *new_traversal(gen_ctx_t *g, const char *root, const char *attr, const schema_type_t *type) {
    pcl_expr_t *e = new_expr(g, PCL_TRAVERSAL, type);
    e->trav.root = root;
    if (attr) {
        e->trav.parts = arena_alloc(g->ea, sizeof *e->trav.parts);
        e->trav.parts[0].attr = attr;
        e->trav.n = 1;
    }
    return e;
}

static pcl_expr_t *new_call1(gen_ctx_t *g, const char *fn, pcl_expr_t *arg, const schema_type_t *type) {
    pcl_expr_t *e = new_expr(g, PCL_CALL, type);
    e->call.name = fn;
    e->call.args = arena_alloc(g->ea, sizeof(pcl_expr_t *));
    e->call.args[0] = arg;
    e->call.n = 1;
    return e;
}

static void tuple_push(gen_ctx_t *g, pcl_expr_t *t, pcl_expr_t *item, size_t *cap) {
    t->tuple.items = arena_grow_array(g->ea, t->tuple.items, cap, t->tuple.n + 1, sizeof(pcl_expr_t *));
    t->tuple.items[t->tuple.n++] = item;
}

/* A warning about the property being generated: "'<prop>': <message>". */
static void warnf(gen_ctx_t *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(gen_ctx_t *g, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    const char *msg = arena_vsprintf(g->a, fmt, ap);
    va_end(ap);
    diag_add(g->diags, DIAG_WARNING, DIAG_CODEGEN, NULL, res_desc(g, &g->res[g->cur]), "property '%s': %s",
             g->prop ? g->prop : "?", msg);
}

/* --- zero values for missing required inputs ----------------------------------------------------- */

static int type_rank(const schema_type_t *t) {
    switch (t->kind) {
    case SCHEMA_BOOL: return 1;
    case SCHEMA_INT: return 2;
    case SCHEMA_NUMBER: return 3;
    case SCHEMA_STRING: return 4;
    case SCHEMA_ASSET: return 5;
    case SCHEMA_ARCHIVE: return 6;
    case SCHEMA_JSON: return 7;
    case SCHEMA_ENUM: return 8;
    case SCHEMA_ARRAY: return 9;
    case SCHEMA_MAP: return 10;
    case SCHEMA_OBJECT: return 11;
    case SCHEMA_UNION: return 12;
    default: return 13;
    }
}

static pcl_expr_t *gen_literal(gen_ctx_t *g, const pv_t *v, const schema_type_t *type);

static pcl_expr_t *gen_zero(gen_ctx_t *g, const schema_type_t *t) {
    if (!t) return shared_literal(g, PCL_NULL, NULL, false, 0);
    switch (t->kind) {
    case SCHEMA_BOOL: return shared_literal(g, PCL_BOOL, t, false, 0);
    case SCHEMA_INT:
    case SCHEMA_NUMBER: return shared_literal(g, PCL_NUMBER, t, false, 0);
    case SCHEMA_STRING: return new_string(g, "", t);
    case SCHEMA_ARRAY: return new_expr(g, PCL_TUPLE, t);
    case SCHEMA_MAP:
    case SCHEMA_ANY:
    case SCHEMA_JSON: return new_expr(g, PCL_OBJECT, t);
    case SCHEMA_ENUM:
        /* Pulumi panics here; the first member is a value the provider accepts. */
        if (t->n_enum_values && t->enum_values[0].value) return gen_literal(g, t->enum_values[0].value, t);
        return gen_zero(g, t->element);
    case SCHEMA_UNION: {
        const schema_type_t *best = NULL;
        for (size_t i = 0; i < t->n_members; i++)
            if (!best || type_rank(t->members[i]) < type_rank(best)) best = t->members[i];
        pcl_expr_t *e = gen_zero(g, best);
        if (e->type == best) return e;
        /* a copy: a literal may be shared (shared_literal) */
        pcl_expr_t *typed = arena_alloc(g->ea, sizeof *typed);
        *typed = *e;
        typed->type = best;
        return typed;
    }
    case SCHEMA_OBJECT: {
        pcl_expr_t *e = new_expr(g, PCL_OBJECT, t);
        if (!t->object || g->zero_depth >= GEN_MAX_ZERO_DEPTH) return e;
        g->zero_depth++;
        size_t nreq = 0;
        for (size_t i = 0; i < t->object->n_props; i++)
            nreq += t->object->props[i].required;
        e->object.items = arena_alloc(g->ea, (nreq ? nreq : 1) * sizeof *e->object.items);
        for (size_t i = 0; i < t->object->n_props; i++) {
            const schema_property_t *p = &t->object->props[i];
            if (!p->required) continue;
            pcl_object_item_t *it = &e->object.items[e->object.n++];
            it->key = p->name;
            it->prop = p;
            it->value = gen_zero(g, p->type);
        }
        g->zero_depth--;
        return e;
    }
    default: return new_expr(g, PCL_NULL, t);
    }
}

/* A plain literal of a scalar value (enum members, zero values). */
static pcl_expr_t *gen_literal(gen_ctx_t *g, const pv_t *v, const schema_type_t *type) {
    switch (v->kind) {
    case PV_BOOL: return shared_literal(g, PCL_BOOL, type, v->u.b, 0);
    case PV_NUMBER: return shared_literal(g, PCL_NUMBER, type, false, v->u.n);
    case PV_STRING: return new_string(g, v->u.str.s, type);
    default: return shared_literal(g, PCL_NULL, type, false, 0);
    }
}

/* --- values ---------------------------------------------------------------------------------------- */

static pcl_expr_t *gen_value(gen_ctx_t *g, const schema_type_t *type, const pv_t *v);

/* Appends a path segment to the config-name path: `master_password` → `MasterPassword`. */
static void path_push_key(gen_ctx_t *g, const char *key) {
    bool up = true;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
        if (isalnum(*p)) {
            buf_putc(&g->path, up ? (char)toupper(*p) : (char)*p);
            up = false;
        } else {
            up = true;
        }
    }
}

static const char *config_type_name(gen_ctx_t *g, const schema_type_t *t, const pv_t *v) {
    if (t && t->kind == SCHEMA_ENUM) t = t->element;
    if (t && t->kind == SCHEMA_UNION) t = pcl_reduce_union(t, v);
    const pv_t *pv = pv_unwrap(v);
    if (t) {
        switch (t->kind) {
        case SCHEMA_STRING: return "string";
        case SCHEMA_INT: return "int";
        case SCHEMA_NUMBER: return "number";
        case SCHEMA_BOOL: return "bool";
        case SCHEMA_ARRAY: return arena_sprintf(g->a, "list(%s)", config_type_name(g, t->element, NULL));
        case SCHEMA_MAP: return arena_sprintf(g->a, "map(%s)", config_type_name(g, t->element, NULL));
        default: break;
        }
    }
    if (pv) {
        switch (pv->kind) {
        case PV_STRING: return "string";
        case PV_BOOL: return "bool";
        case PV_NUMBER: return "number";
        case PV_ARRAY: return "list(any)";
        case PV_OBJECT: return "map(any)";
        default: break;
        }
    }
    return "any";
}

/* Copies v without any secret or output wrappers (the plaintext handed back to the caller). */
static pv_t *strip_secrets(arena_t *a, const pv_t *v) {
    if (!v) return pv_null(a);
    switch (v->kind) {
    case PV_SECRET: return strip_secrets(a, v->u.secret.inner);
    case PV_OUTPUT: return strip_secrets(a, v->u.output.known ? v->u.output.value : NULL);
    case PV_ARRAY: {
        pv_t *r = pv_array(a);
        for (size_t i = 0; i < v->u.arr.len; i++)
            pv_array_push(a, r, strip_secrets(a, v->u.arr.items[i]));
        return r;
    }
    case PV_OBJECT: {
        pv_t *r = pv_object(a);
        for (size_t i = 0; i < v->u.obj.len; i++)
            pv_object_set(a, r, v->u.obj.members[i].key, strip_secrets(a, v->u.obj.members[i].value));
        return r;
    }
    default: return pv_clone(a, v);
    }
}

/* Resource i's inputs: the caller's, or what it reads back (opts->load_inputs). */
static const pv_t *res_inputs(gen_ctx_t *g, size_t i) {
    const pcl_gen_options_t *o = g->opts;
    return o->load_inputs ? o->load_inputs(o->release_user, i) : g->res[i].in->inputs;
}

/* Resource i's outputs: the caller's, or what it reads back (opts->load_outputs). */
static const pv_t *res_outputs(gen_ctx_t *g, size_t i) {
    const pcl_gen_options_t *o = g->opts;
    return o->load_outputs ? o->load_outputs(o->release_user, i) : g->res[i].in->outputs;
}

/* A secret string that another imported resource produces as a secret output (a TLS private key's
 * privateKeyPem used by a cert request) becomes a reference to that output: the value stays where
 * it is, encrypted in the state, instead of being copied into the code or the stack config. */
static pcl_expr_t *gen_secret_reference(gen_ctx_t *g, const pv_t *inner, const schema_type_t *type) {
    const pv_t *v = pv_unwrap(inner);
    size_t ci;
    char key[GEN_KEY_DIGEST_LEN + 1];
    if (!g->opts->guess_references || !v || v->kind != PV_STRING || !*v->u.str.s ||
        !pcl_smap_get(&g->secret_cands, equality_key(v->u.str.s, key), &ci))
        return NULL;
    const gen_cand_t *c = &g->secret_cand[ci];
    if (c->ambiguous || c->res == g->cur) return NULL;
    /* The producer may output the value under several names (a key's privateKeyPem and
     * privateKeyOpenssh can coincide): the one named like the property being set reads best. */
    const char *attr = c->attr;
    const pv_t *outs = res_outputs(g, c->res);
    const pv_t *same = g->prop && outs ? pv_unwrap(pv_object_get(outs, g->prop)) : NULL;
    if (same && same->kind == PV_STRING && equal_keys(same->u.str.s, v->u.str.s)) attr = g->prop;
    /* copies: the producer's outputs and this resource's inputs may be released before the program is
     * (release_inputs, release_outputs), and a broken edge turns the reference back into its literal */
    if (attr != g->prop) attr = arena_strdup(g->ea, attr);
    pcl_expr_t *e = new_traversal(g, g->res[c->res].ident, attr, type);
    gen_res_t *r = &g->res[g->cur];
    r->refs = arena_grow_array(g->ea, r->refs, &r->cap_refs, r->n_refs + 1, sizeof *r->refs);
    r->refs[r->n_refs++] = (gen_ref_t){c->res, e, arena_strdup(g->ea, v->u.str.s)};
    return e;
}

/* The key an earlier run stored this secret's value under: of the names unique_name would try for
 * base (base, base2, ...), one the stack config or secrets file holds with this very value and no
 * other secret of this program took; else NULL. */
static const char *reused_secret_name(gen_ctx_t *g, const char *base, const pv_t *inner, bool *elsewhere) {
    const pcl_gen_options_t *o = g->opts;
    if (!inner || !o->reserved_values || !o->n_reserved_names) return NULL;
    const pv_t *v = strip_secrets(g->a, inner);
    char *json = NULL;
    const char *text = v->kind == PV_STRING ? v->u.str.s : NULL;
    if (!text) {
        cJSON *j = pv_to_display_json(v, true);
        json = cJSON_PrintUnformatted(j);
        cJSON_Delete(j);
        text = json;
    }
    const char *found = NULL;
    for (unsigned k = 1; text && !found; k++) {
        const char *name = k == 1 ? base : arena_sprintf(g->a, "%s%u", base, k);
        size_t i = 0;
        while (i < o->n_reserved_names && strcmp(o->reserved_names[i], name) != 0)
            i++;
        if (i == o->n_reserved_names) break; /* free: unique_name takes it */
        if (o->reserved_values[i] && strcmp(o->reserved_values[i], text) == 0 &&
            !pcl_smap_get(&g->reused_keys, name, NULL)) {
            pcl_smap_add(&g->reused_keys, name, 0);
            found = name;
            *elsewhere = o->reserved_elsewhere && o->reserved_elsewhere[i];
        }
    }
    free(json);
    return found;
}

static pcl_expr_t *gen_secret(gen_ctx_t *g, const schema_type_t *type, const pv_t *inner) {
    pcl_expr_t *ref = gen_secret_reference(g, inner, type);
    if (ref) return ref;
    if (g->opts->secrets == PCL_SECRETS_LITERAL) {
        pcl_expr_t *arg;
        if (inner) {
            arg = gen_value(g, type, inner);
        } else {
            warnf(g, "a secret value is only known encrypted; it is written as secret(null)");
            arg = new_expr(g, PCL_NULL, type);
        }
        return new_call1(g, "secret", arg, type);
    }
    /* A secret object of a named object type: each of its fields becomes a secret of the field's type,
     * and the code builds the object (of the type the resource takes) from those typed config values —
     * no language can read one config value as a typed Args object. */
    const schema_type_t *shape = type && type->kind == SCHEMA_UNION ? pcl_reduce_union(type, inner) : type;
    const pv_t *obj = pv_unwrap(inner);
    if (shape && shape->kind == SCHEMA_OBJECT && obj && obj->kind == PV_OBJECT) {
        pv_t *split = pv_object(g->ea);
        for (size_t i = 0; i < obj->u.obj.len; i++) {
            pv_t *m = obj->u.obj.members[i].value;
            const pv_t *mv = pv_unwrap(m);
            pv_object_set(g->ea, split, obj->u.obj.members[i].key,
                          !mv || mv->kind == PV_NULL ? m : pv_secret(g->ea, pv_clone(g->ea, m)));
        }
        return gen_value(g, type, split);
    }
    gen_res_t *r = &g->res[g->cur];
    const char *base = arena_sprintf(g->a, "%s%s", r->ident, g->path.len ? g->path.data : "Secret");
    bool elsewhere = false;
    const char *name = reused_secret_name(g, base, inner, &elsewhere);
    bool stored = name != NULL && !elsewhere; /* the key holds this value already, where this run writes */
    if (!name) name = unique_name(g, base, SIZE_MAX);
    r->configs = arena_grow_array(g->ea, r->configs, &r->cap_configs, r->n_configs + 1, sizeof *r->configs);
    r->configs[r->n_configs++] = (gen_config_t){name, config_type_name(g, type, inner)};
    if (inner && !stored) {
        g->out->secrets =
            arena_grow_array(g->a, g->out->secrets, &g->cap_secrets, g->out->n_secrets + 1, sizeof *g->out->secrets);
        g->out->secrets[g->out->n_secrets++] = (pcl_secret_value_t){name, strip_secrets(g->a, inner)};
    } else if (!inner) { /* stored: the key holds this known value already */
        diag_add(g->diags, DIAG_WARNING, DIAG_CODEGEN, NULL, res_desc(g, r),
                 "the secret value of '%s' is only known encrypted; set it with `pulumi config set --secret %s`",
                 g->prop ? g->prop : "?", name);
    }
    return new_traversal(g, name, NULL, type);
}

/* A reference to a variable of the user's program (an external candidate); the root is recorded
 * in the program so emitters write it as it is. No edge: it orders nothing in the program. */
static pcl_expr_t *gen_external_reference(gen_ctx_t *g, const gen_cand_t *c, const schema_type_t *type) {
    pcl_program_t *p = g->out->program;
    const char *root = arena_strdup(g->a, c->ext->root);
    if (pcl_smap_add(&g->ext_used, root, p->n_external_roots)) {
        p->external_roots = arena_grow_array(g->a, p->external_roots, &g->cap_ext_used, p->n_external_roots + 1,
                                             sizeof *p->external_roots);
        p->external_roots[p->n_external_roots++] = root;
    }
    return new_traversal(g, root, c->attr, type);
}

/* A string that is exactly another imported resource's id/name/arn becomes a reference to it. */
static pcl_expr_t *gen_reference(gen_ctx_t *g, const char *s, const schema_type_t *type) {
    size_t ci;
    if (!g->opts->guess_references || !*s || !pcl_smap_get(&g->cands, s, &ci)) return NULL;
    const gen_cand_t *c = &g->cand[ci];
    if (c->ambiguous || c->res == g->cur) return NULL;
    if (c->ext) return gen_external_reference(g, c, type);
    pcl_expr_t *e = new_traversal(g, g->res[c->res].ident, c->attr, type);
    gen_res_t *r = &g->res[g->cur];
    r->refs = arena_grow_array(g->ea, r->refs, &r->cap_refs, r->n_refs + 1, sizeof *r->refs);
    r->refs[r->n_refs++] = (gen_ref_t){c->res, e, arena_strdup(g->ea, s)}; /* s is the input's: a copy */
    return e;
}

static pcl_expr_t *gen_asset(gen_ctx_t *g, const pv_t *v, const schema_type_t *type) {
    if (v->u.asset.text) return new_call1(g, "stringAsset", new_string(g, v->u.asset.text, NULL), type);
    if (v->u.asset.path) return new_call1(g, "fileAsset", new_string(g, v->u.asset.path, NULL), type);
    if (v->u.asset.uri) return new_call1(g, "remoteAsset", new_string(g, v->u.asset.uri, NULL), type);
    warnf(g, "an asset has no text, path or uri (only a hash); it is written as null");
    return new_expr(g, PCL_NULL, type);
}

static int member_cmp(const void *x, const void *y) {
    return strcmp(((const pv_member_t *)x)->key, ((const pv_member_t *)y)->key);
}

/* Members sorted by key (a copy; the value keeps its insertion order). */
static pv_member_t *sorted_members(gen_ctx_t *g, const pv_member_t *m, size_t n) {
    pv_member_t *s = arena_alloc(g->ea, (n ? n : 1) * sizeof *s);
    if (n) memcpy(s, m, n * sizeof *s);
    qsort(s, n, sizeof *s, member_cmp);
    return s;
}

static pcl_expr_t *gen_archive(gen_ctx_t *g, const pv_t *v, const schema_type_t *type) {
    if (v->u.archive.has_assets) {
        pcl_expr_t *o = new_expr(g, PCL_OBJECT, NULL);
        size_t n = v->u.archive.nassets;
        pv_member_t *m = sorted_members(g, v->u.archive.assets, n);
        o->object.items = arena_alloc(g->ea, (n ? n : 1) * sizeof *o->object.items);
        for (size_t i = 0; i < n; i++) {
            pcl_object_item_t *it = &o->object.items[o->object.n++];
            it->key = arena_strdup(g->ea, m[i].key);
            it->key_quoted = true;
            it->value =
                m[i].value->kind == PV_ARCHIVE ? gen_archive(g, m[i].value, NULL) : gen_asset(g, m[i].value, NULL);
        }
        return new_call1(g, "assetArchive", o, type);
    }
    if (v->u.archive.path) return new_call1(g, "fileArchive", new_string(g, v->u.archive.path, NULL), type);
    if (v->u.archive.uri) return new_call1(g, "remoteArchive", new_string(g, v->u.archive.uri, NULL), type);
    warnf(g, "an archive has no path, uri or assets (only a hash); it is written as null");
    return new_expr(g, PCL_NULL, type);
}

/* Whether a property value is absent for generation: null, unknown, or a wrapper of those. */
static bool value_absent(const pv_t *v) {
    while (v) {
        if (v->kind == PV_SECRET) {
            if (!v->u.secret.inner) return false; /* ciphertext only: still a value */
            v = v->u.secret.inner;
        } else if (v->kind == PV_OUTPUT) {
            if (!v->u.output.known) return true;
            v = v->u.output.value;
        } else {
            return v->kind == PV_NULL || v->kind == PV_UNKNOWN;
        }
    }
    return true;
}

/* Generates one property of a schema object or resource; NULL when it is left out. */
static pcl_expr_t *gen_prop(gen_ctx_t *g, const schema_property_t *p, const pv_t *v) {
    if (value_absent(v)) return p->required ? gen_zero(g, p->type) : NULL;
    size_t mark = g->path.len;
    path_push_key(g, p->name);
    pcl_expr_t *e = gen_value(g, p->type, v);
    g->path.len = mark;
    if (g->path.data) g->path.data[mark] = 0;
    return e;
}

static pcl_expr_t *gen_object(gen_ctx_t *g, const schema_type_t *pos, const schema_type_t *shape, const pv_t *v) {
    pcl_expr_t *e = new_expr(g, PCL_OBJECT, pos);
    if (shape && shape->kind == SCHEMA_OBJECT && shape->object) {
        const schema_object_t *o = shape->object;
        e->object.items = arena_alloc(g->ea, (o->n_props ? o->n_props : 1) * sizeof *e->object.items);
        for (size_t i = 0; i < o->n_props; i++) {
            const schema_property_t *p = &o->props[i];
            pcl_expr_t *val = gen_prop(g, p, pv_object_get(v, p->name));
            if (!val) continue;
            pcl_object_item_t *it = &e->object.items[e->object.n++];
            it->key = p->name;
            it->prop = p;
            it->value = val;
        }
        return e;
    }
    /* a map, `any`, JSON or an unknown type: quoted keys in sorted order */
    const schema_type_t *elem = NULL;
    bool filter = false;
    if (shape && shape->kind == SCHEMA_MAP) {
        elem = shape->element;
        filter = true;
    } else if (shape && (shape->kind == SCHEMA_ANY || shape->kind == SCHEMA_JSON)) {
        elem = shape;
    }
    size_t n = v->u.obj.len;
    pv_member_t *m = sorted_members(g, v->u.obj.members, n);
    e->object.items = arena_alloc(g->ea, (n ? n : 1) * sizeof *e->object.items);
    for (size_t i = 0; i < n; i++) {
        if (filter && !pcl_value_conforms(m[i].value, elem)) {
            diag_add(g->diags, DIAG_INFO, DIAG_CODEGEN, NULL, res_desc(g, &g->res[g->cur]),
                     "map entry '%s' of '%s' does not match the schema's element type and is left out", m[i].key,
                     g->prop ? g->prop : "?");
            continue;
        }
        size_t mark = g->path.len;
        path_push_key(g, m[i].key);
        pcl_object_item_t *it = &e->object.items[e->object.n++];
        it->key = arena_strdup(g->ea, m[i].key);
        it->key_quoted = true;
        it->value = gen_value(g, elem, m[i].value);
        g->path.len = mark;
        if (g->path.data) g->path.data[mark] = 0;
    }
    return e;
}

static pcl_expr_t *gen_value(gen_ctx_t *g, const schema_type_t *type, const pv_t *v) {
    /* `pos` is the type written on the expression; `shape` is what the value is generated as. */
    const schema_type_t *shape = type;
    if (type && type->kind == SCHEMA_UNION) shape = pcl_reduce_union(type, v);
    const schema_type_t *pos = shape ? shape : type;
    if (shape && shape->kind == SCHEMA_ENUM) shape = shape->element;
    if (!v) return shared_literal(g, PCL_NULL, pos, false, 0);
    switch (v->kind) {
    case PV_NULL: return shared_literal(g, PCL_NULL, pos, false, 0);
    case PV_SECRET: return gen_secret(g, type, v->u.secret.inner);
    case PV_OUTPUT:
        if (!v->u.output.known || !v->u.output.value) break;
        if (v->u.output.secret) return gen_secret(g, type, v->u.output.value);
        return gen_value(g, type, v->u.output.value);
    case PV_UNKNOWN: break;
    case PV_BOOL:
    case PV_NUMBER: return gen_literal(g, v, pos);
    case PV_STRING: {
        if (shape && shape->kind == SCHEMA_ASSET)
            return new_call1(g, "fileAsset", new_string(g, v->u.str.s, NULL), pos);
        if (shape && shape->kind == SCHEMA_ARCHIVE)
            return new_call1(g, "fileArchive", new_string(g, v->u.str.s, NULL), pos);
        pcl_expr_t *ref = gen_reference(g, v->u.str.s, pos);
        return ref ? ref : new_string(g, v->u.str.s, pos);
    }
    case PV_ARRAY: {
        pcl_expr_t *t = new_expr(g, PCL_TUPLE, pos);
        const schema_type_t *elem = NULL;
        if (shape && shape->kind == SCHEMA_ARRAY)
            elem = shape->element;
        else if (shape && (shape->kind == SCHEMA_ANY || shape->kind == SCHEMA_JSON))
            elem = shape;
        size_t cap = 0;
        for (size_t i = 0; i < v->u.arr.len; i++) {
            size_t mark = g->path.len;
            buf_printf(&g->path, "%zu", i);
            tuple_push(g, t, gen_value(g, elem, v->u.arr.items[i]), &cap);
            g->path.len = mark;
            g->path.data[mark] = 0;
        }
        return t;
    }
    case PV_OBJECT: return gen_object(g, pos, shape, v);
    case PV_ASSET: return gen_asset(g, v, pos);
    case PV_ARCHIVE: return gen_archive(g, v, pos);
    case PV_RESOURCE_REF: {
        size_t idx;
        for (idx = 0; idx < g->n; idx++)
            if (g->res[idx].ok && g->res[idx].in->urn && strcmp(g->res[idx].in->urn, v->u.ref.urn) == 0) break;
        if (idx < g->n && idx != g->cur) return new_traversal(g, g->res[idx].ident, NULL, pos);
        warnf(g, "refers to resource %s, which is not part of this import; its id is written instead", v->u.ref.urn);
        return new_string(g, v->u.ref.id ? v->u.ref.id : v->u.ref.urn, pos);
    }
    }
    warnf(g, "an unknown (computed) value is written as null");
    return shared_literal(g, PCL_NULL, pos, false, 0);
}

/* --- options ---------------------------------------------------------------------------------------- */

/* A variable reference by the caller's variable name; *target is the resource index when the
 * variable is one of this batch's generated resources, else SIZE_MAX. */
static const char *resolve_var(gen_ctx_t *g, const char *name, size_t *target) {
    size_t idx;
    *target = SIZE_MAX;
    if (pcl_smap_get(&g->plan_names, name, &idx)) {
        if (g->res[idx].ok) *target = idx;
        return g->res[idx].ident;
    }
    return pcl_sanitize_identifier(g->ea, name);
}

static pcl_expr_t *var_expr(gen_ctx_t *g, const char *name) {
    size_t t;
    return new_traversal(g, resolve_var(g, name, &t), NULL, NULL);
}

static pcl_expr_t *var_tuple(gen_ctx_t *g, const char **names, size_t n) {
    pcl_expr_t *t = new_expr(g, PCL_TUPLE, NULL);
    size_t cap = 0;
    for (size_t i = 0; i < n; i++)
        tuple_push(g, t, var_expr(g, names[i]), &cap);
    return t;
}

/* `tags["a.b"]` → the bare traversal tags["a.b"]; a path that cannot be a traversal stays a string. */
static pcl_expr_t *path_expr(gen_ctx_t *g, const char *text) {
    pv_path_t path;
    if (!pv_path_parse(g->ea, text, &path, NULL) || path.len == 0 || !path.segs[0].key ||
        !pcl_is_identifier(path.segs[0].key))
        return new_string(g, text, NULL);
    pcl_expr_t *e = new_traversal(g, path.segs[0].key, NULL, NULL);
    if (path.len > 1) e->trav.parts = arena_alloc(g->ea, (path.len - 1) * sizeof *e->trav.parts);
    for (size_t i = 1; i < path.len; i++) {
        pcl_trav_part_t *p = &e->trav.parts[e->trav.n++];
        if (!path.segs[i].key) {
            p->index_num = path.segs[i].index;
        } else if (pcl_is_identifier(path.segs[i].key)) {
            p->attr = path.segs[i].key;
        } else {
            p->index_is_string = true;
            p->index_str = path.segs[i].key;
        }
    }
    return e;
}

static bool has_live_ref(const gen_res_t *r, size_t target) {
    for (size_t i = 0; i < r->n_edges; i++)
        if (!r->edges[i].hard && !r->edges[i].broken && r->edges[i].target == target) return true;
    return false;
}

static void build_options(gen_ctx_t *g, size_t i, pcl_node_t *node) {
    const pcl_gen_resource_t *in = g->res[i].in;
    pcl_attr_t opts[9];
    size_t n = 0;
    if (in->parent) opts[n++] = (pcl_attr_t){"parent", var_expr(g, in->parent), NULL, 0, 0};
    if (in->provider) opts[n++] = (pcl_attr_t){"provider", var_expr(g, in->provider), NULL, 0, 0};
    if (in->n_depends_on) {
        /* resources already referenced through inputs need no dependsOn entry */
        const char **keep = arena_alloc(g->ea, in->n_depends_on * sizeof *keep);
        size_t nk = 0;
        for (size_t k = 0; k < in->n_depends_on; k++) {
            size_t t;
            resolve_var(g, in->depends_on[k], &t);
            if (t == SIZE_MAX || !has_live_ref(&g->res[i], t)) keep[nk++] = in->depends_on[k];
        }
        if (nk) opts[n++] = (pcl_attr_t){"dependsOn", var_tuple(g, keep, nk), NULL, 0, 0};
    }
    if (in->protect) opts[n++] = (pcl_attr_t){"protect", shared_literal(g, PCL_BOOL, NULL, true, 0), NULL, 0, 0};
    if (in->retain_on_delete)
        opts[n++] = (pcl_attr_t){"retainOnDelete", shared_literal(g, PCL_BOOL, NULL, true, 0), NULL, 0, 0};
    if (in->n_ignore_changes) {
        pcl_expr_t *t = new_expr(g, PCL_TUPLE, NULL);
        size_t cap = 0;
        for (size_t k = 0; k < in->n_ignore_changes; k++)
            tuple_push(g, t, path_expr(g, in->ignore_changes[k]), &cap);
        opts[n++] = (pcl_attr_t){"ignoreChanges", t, NULL, 0, 0};
    }
    if (in->deleted_with) opts[n++] = (pcl_attr_t){"deletedWith", var_expr(g, in->deleted_with), NULL, 0, 0};
    if (in->n_replace_with)
        opts[n++] = (pcl_attr_t){"replaceWith", var_tuple(g, in->replace_with, in->n_replace_with), NULL, 0, 0};
    if (in->import_id) opts[n++] = (pcl_attr_t){"import", new_string(g, in->import_id, NULL), NULL, 0, 0};
    if (!n) return;
    node->options = arena_alloc(g->ea, n * sizeof *node->options);
    memcpy(node->options, opts, n * sizeof *opts);
    node->n_options = n;
}

/* --- passes ----------------------------------------------------------------------------------------- */

/* Pass 1: schema of every resource, identifiers. */
static void resolve_resources(gen_ctx_t *g, schema_set_t *schemas) {
    for (size_t i = 0; i < g->n; i++) {
        gen_res_t *r = &g->res[i];
        const pcl_gen_resource_t *in = r->in;
        const char *type = in->type ? in->type : "";
        const char *var = in->name ? in->name : in->logical_name ? in->logical_name : "";
        r->ident = resource_ident(g, in, var, i);
        if (in->name) pcl_smap_add(&g->plan_names, in->name, i);
        if (in->component) {
            r->ok = true;
            continue;
        }
        r->pkg_name = schema_token_package(g->a, type);
        r->pkg = schemas ? schema_set_get(schemas, r->pkg_name) : NULL;
        if (!r->pkg) {
            char advice[DIAG_ADVICE_MAX];
            diag_add(g->diags, DIAG_ERROR, DIAG_SCHEMA, NULL, res_desc(g, r),
                     "no code was generated: the schema of package '%s' is not loaded%s", r->pkg_name,
                     diag_advice(advice, DIAG_ADVICE_SCHEMA_LOADED, r->pkg_name));
            continue;
        }
        r->schema = schema_find_resource(r->pkg, type);
        if (!r->schema) {
            diag_add(g->diags, DIAG_ERROR, DIAG_SCHEMA, NULL, res_desc(g, r),
                     "no code was generated: the %s schema%s%s has no resource type '%s'; check the type token or "
                     "load a schema version that has it",
                     r->pkg_name, r->pkg->version ? " version " : "", r->pkg->version ? r->pkg->version : "", type);
            continue;
        }
        r->ok = true;
    }
}

static void add_candidate(gen_ctx_t *g, const char *value, size_t res, const pcl_external_ref_t *ext,
                          const char *attr) {
    if (!value || !*value) return;
    size_t ci;
    if (pcl_smap_get(&g->cands, value, &ci)) {
        /* the same resource's id and name may coincide: keep the first (id); across resources the
         * value is ambiguous */
        const gen_cand_t *c = &g->cand[ci];
        bool same = ext ? c->ext && strcmp(c->ext->root, ext->root) == 0 : !c->ext && c->res == res;
        if (!same) g->cand[ci].ambiguous = true;
        return;
    }
    g->cand[g->n_cand] = (gen_cand_t){res, ext, attr, false};
    pcl_smap_add(&g->cands, value, g->n_cand++);
}

static bool external_valid(const pcl_external_ref_t *x) {
    return x->value && *x->value && x->root && *x->root && x->attr &&
           (strcmp(x->attr, "id") == 0 || strcmp(x->attr, "name") == 0 || strcmp(x->attr, "arn") == 0);
}

/* Before names are chosen: external roots whose resource this batch imports again (an `id`
 * candidate with the type and id of an imported resource) are superseded by it — the import
 * replaces that definition, so its values name the imported resource. The other roots are
 * reserved, so no generated identifier shadows a variable of the user's program. */
static void reserve_external_roots(gen_ctx_t *g) {
    const pcl_gen_options_t *o = g->opts;
    if (!o->guess_references || !o->n_external) return;
    pcl_smap_t ids = {0}; /* "type\x1fid" of the imported resources */
    for (size_t i = 0; i < g->n; i++) {
        const pcl_gen_resource_t *in = g->res[i].in;
        if (in->type && in->id && *in->id) pcl_smap_add(&ids, arena_sprintf(g->a, "%s\x1f%s", in->type, in->id), i);
    }
    for (size_t k = 0; k < o->n_external; k++) {
        const pcl_external_ref_t *x = &o->external[k];
        if (!external_valid(x) || !x->type || strcmp(x->attr, "id") != 0) continue;
        size_t i;
        if (pcl_smap_get(&ids, arena_sprintf(g->a, "%s\x1f%s", x->type, x->value), &i))
            pcl_smap_add(&g->superseded, x->root, i);
    }
    for (size_t k = 0; k < o->n_external; k++) {
        const pcl_external_ref_t *x = &o->external[k];
        size_t i;
        if (external_valid(x) && !pcl_smap_get(&g->superseded, x->root, &i))
            pcl_smap_add(&g->names, arena_strdup(g->a, x->root), SIZE_MAX);
    }
    pcl_smap_free(&ids);
}

/* A key of the candidate maps taken from outputs: a copy when the outputs are read back (they last only
 * until the next are). */
static const char *cand_key(gen_ctx_t *g, const char *s) {
    if (!g->opts->load_outputs) return s;
    if (!g->cand_keys) g->cand_keys = arena_new();
    return arena_strdup(g->cand_keys, s);
}

/* Pass 2: every value that names a resource's id, `name` or `arn` output, and every secret string
 * output (top level), for secret inputs only (gen_secret_reference). Each resource's outputs are read
 * once. */
static void collect_candidates(gen_ctx_t *g) {
    size_t n_ext = g->opts->guess_references ? g->opts->n_external : 0;
    g->cand = calloc(3 * g->n + n_ext + 1, sizeof *g->cand); /* freed after pass 3, as secret_cand */
    if (!g->cand) abort();
    size_t cap_secret = 0;
    for (size_t i = 0; i < g->n; i++) {
        gen_res_t *r = &g->res[i];
        if (!r->ok || r->in->component) continue;
        add_candidate(g, r->in->id, i, NULL, "id");
        const pv_t *o = res_outputs(g, i);
        if (!o || o->kind != PV_OBJECT) continue;
        static const char *const attrs[] = {"name", "arn"};
        for (size_t k = 0; k < 2; k++) {
            const pv_t *v = pv_unwrap(pv_object_get(o, attrs[k]));
            size_t ci;
            if (v && v->kind == PV_STRING && *v->u.str.s)
                add_candidate(g, pcl_smap_get(&g->cands, v->u.str.s, &ci) ? v->u.str.s : cand_key(g, v->u.str.s), i,
                              NULL, attrs[k]);
        }
        const pv_t *inputs = NULL; /* read once, for its first secret output */
        bool read = false;
        for (size_t k = 0; k < o->u.obj.len; k++) {
            const pv_t *v = o->u.obj.members[k].value;
            if (!v || v->kind != PV_SECRET) continue;
            const pv_t *pt = pv_unwrap(v);
            if (!pt || pt->kind != PV_STRING || !*pt->u.str.s) continue;
            /* An output that merely echoes the resource's own input (a cert request's privateKeyPem)
             * is not where the value comes from. */
            if (!read) {
                inputs = res_inputs(g, i);
                read = true;
            }
            const pv_t *in =
                inputs && inputs->kind == PV_OBJECT ? pv_unwrap(pv_object_get(inputs, o->u.obj.members[k].key)) : NULL;
            if (in && in->kind == PV_STRING && equal_keys(in->u.str.s, pt->u.str.s)) continue;
            size_t ci;
            char buf[GEN_KEY_DIGEST_LEN + 1];
            const char *key = equality_key(pt->u.str.s, buf);
            if (pcl_smap_get(&g->secret_cands, key, &ci)) {
                if (g->secret_cand[ci].res != i) g->secret_cand[ci].ambiguous = true;
                continue;
            }
            if (key == buf) {
                if (!g->secret_keys) g->secret_keys = arena_new();
                key = arena_strdup(g->secret_keys, buf);
            } else {
                key = cand_key(g, key);
            }
            g->secret_cand = vec_grow(g->secret_cand, &cap_secret, g->n_secret_cand + 1, sizeof *g->secret_cand);
            g->secret_cand[g->n_secret_cand] = (gen_cand_t){i, NULL, cand_key(g, o->u.obj.members[k].key), false};
            pcl_smap_add(&g->secret_cands, key, g->n_secret_cand++);
        }
    }
    for (size_t k = 0; k < n_ext; k++) {
        const pcl_external_ref_t *x = &g->opts->external[k];
        size_t i;
        if (!external_valid(x) || pcl_smap_get(&g->superseded, x->root, &i)) continue;
        /* the attribute as a literal: the traversal outlives the caller's strings */
        const char *attr = strcmp(x->attr, "id") == 0 ? "id" : strcmp(x->attr, "name") == 0 ? "name" : "arn";
        add_candidate(g, x->value, SIZE_MAX, x, attr);
    }
}

/* What collect_candidates and gen_secret_reference read of a resource's outputs (see pcl.h). */
pv_t *pcl_gen_outputs_needed(arena_t *a, const pv_t *outputs) {
    if (!outputs || outputs->kind != PV_OBJECT) return outputs ? pv_clone(a, outputs) : NULL;
    const pv_member_t *m = outputs->u.obj.members;
    size_t n = outputs->u.obj.len;
    /* the members kept, found first: the copy's array takes their number (a caller keeps 100,000 of
     * these, and an array grown a member at a time leaves its smaller ones behind in the arena) */
    size_t few[32], *keep = n <= 32 ? few : malloc(n * sizeof *keep), n_keep = 0;
    if (!keep) abort();
    for (size_t i = 0; i < n; i++) {
        bool secret = m[i].value && m[i].value->kind == PV_SECRET;
        /* name and arn are reference candidates by their value: kept whole */
        bool named = strcmp(m[i].key, "name") == 0 || strcmp(m[i].key, "arn") == 0;
        const pv_t *v = pv_unwrap(m[i].value);
        bool equal = false; /* a string equal to a secret member's */
        for (size_t k = 0; !secret && !named && !equal && v && v->kind == PV_STRING && k < n; k++) {
            const pv_t *s = m[k].value && m[k].value->kind == PV_SECRET ? pv_unwrap(m[k].value) : NULL;
            equal = s && s->kind == PV_STRING && strcmp(s->u.str.s, v->u.str.s) == 0;
        }
        if (secret || named || equal) keep[n_keep++] = i;
    }
    pv_t *kept = pv_object(a);
    kept->u.obj.members = n_keep ? arena_alloc(a, n_keep * sizeof *kept->u.obj.members) : NULL;
    kept->u.obj.cap = n_keep;
    for (size_t j = 0; j < n_keep; j++) {
        size_t i = keep[j];
        bool named = strcmp(m[i].key, "name") == 0 || strcmp(m[i].key, "arn") == 0;
        const pv_t *v = pv_unwrap(m[i].value);
        /* a secret or a string equal to one is only compared: a long one is held by its key */
        char buf[GEN_KEY_DIGEST_LEN + 1];
        const char *key = !named && v && v->kind == PV_STRING ? equality_key(v->u.str.s, buf) : NULL;
        pv_t *copy;
        if (key == buf)
            copy = m[i].value->kind == PV_SECRET ? pv_secret(a, pv_string(a, buf)) : pv_string(a, buf);
        else
            copy = pv_clone(a, m[i].value);
        /* an object's keys are unique: each is a member of its own, as pv_object_set would make it */
        kept->u.obj.members[kept->u.obj.len++] = (pv_member_t){arena_strdup(a, m[i].key), copy};
    }
    if (keep != few) free(keep);
    return kept;
}

static void stream_resource(gen_ctx_t *g, size_t i);

/* Pass 3: the inputs of every resource, each resource's inputs released once read (and every output
 * after the last), when the caller asked for it. A resource's attributes take the room they fill,
 * not one slot per schema input (a few of dozens are set). A program printed as it is generated
 * prints and frees what it can after each resource (stream_resource). */
static void generate_inputs(gen_ctx_t *g) {
    const pcl_gen_options_t *o = g->opts;
    pcl_attr_t *attrs = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < g->n; i++) {
        gen_res_t *r = &g->res[i];
        if (r->ok && r->schema) {
            g->cur = i;
            const pv_t *inputs = res_inputs(g, i);
            if (inputs && inputs->kind != PV_OBJECT) inputs = NULL;
            attrs = vec_grow(attrs, &cap, r->schema->n_inputs ? r->schema->n_inputs : 1, sizeof *attrs);
            for (size_t k = 0; k < r->schema->n_inputs; k++) {
                const schema_property_t *p = &r->schema->inputs[k];
                g->prop = p->name;
                g->path.len = 0;
                if (g->path.data) g->path.data[0] = 0;
                pcl_expr_t *e = gen_prop(g, p, inputs ? pv_object_get(inputs, p->name) : NULL);
                if (e) attrs[r->n_attrs++] = (pcl_attr_t){p->name, e, p, 0, 0};
            }
            g->prop = NULL;
            r->attrs = arena_alloc(g->ea, (r->n_attrs ? r->n_attrs : 1) * sizeof *r->attrs);
            if (r->n_attrs) memcpy(r->attrs, attrs, r->n_attrs * sizeof *attrs);
        }
        if (o->release_inputs) o->release_inputs(o->release_user, i);
        if (o->print_to) stream_resource(g, i);
    }
    free(attrs);
    if (o->release_outputs) o->release_outputs(o->release_user);
}

static void add_edge(gen_ctx_t *g, gen_res_t *r, size_t self, size_t target, bool hard, size_t *cap) {
    if (target == SIZE_MAX || target == self) return;
    for (size_t k = 0; k < r->n_edges; k++)
        if (r->edges[k].target == target && r->edges[k].hard == hard) return;
    r->edges = arena_grow_array(g->ea, r->edges, cap, r->n_edges + 1, sizeof *r->edges);
    r->edges[r->n_edges++] = (gen_edge_t){target, hard, false};
}

/* Resource i's edges: its options' resources (hard), then the resources its inputs refer to. */
static void build_edges_of(gen_ctx_t *g, size_t i) {
    gen_res_t *r = &g->res[i];
    if (!r->ok) return;
    const pcl_gen_resource_t *in = r->in;
    size_t cap = 0, t;
    if (in->parent) add_edge(g, r, i, (resolve_var(g, in->parent, &t), t), true, &cap);
    if (in->provider) add_edge(g, r, i, (resolve_var(g, in->provider, &t), t), true, &cap);
    for (size_t k = 0; k < in->n_depends_on; k++)
        add_edge(g, r, i, (resolve_var(g, in->depends_on[k], &t), t), true, &cap);
    if (in->deleted_with) add_edge(g, r, i, (resolve_var(g, in->deleted_with, &t), t), true, &cap);
    for (size_t k = 0; k < in->n_replace_with; k++)
        add_edge(g, r, i, (resolve_var(g, in->replace_with[k], &t), t), true, &cap);
    for (size_t k = 0; k < r->n_refs; k++)
        add_edge(g, r, i, r->refs[k].target, false, &cap);
}

static void build_edges(gen_ctx_t *g) {
    for (size_t i = 0; i < g->n; i++)
        build_edges_of(g, i);
}

/* Turns every reference from resource `from` to `to` back into its literal. */
static void break_edge(gen_ctx_t *g, size_t from, gen_edge_t *e) {
    gen_res_t *r = &g->res[from];
    e->broken = true;
    for (size_t k = 0; k < r->n_refs; k++) {
        if (r->refs[k].target != e->target) continue;
        pcl_expr_t *x = r->refs[k].expr;
        x->kind = PCL_STRING;
        x->s = r->refs[k].literal;
        memset(&x->trav, 0, sizeof x->trav);
    }
}

typedef struct dfs_frame {
    size_t node, next;
} dfs_frame_t;

/* Pass 4's walk: the order found so far and the walk's state of every resource. */
typedef struct gen_lin {
    size_t *order, n_order;
    unsigned char *state; /* 0 not reached, 1 on the stack (at pos), 2 placed */
    dfs_frame_t *stack;
    size_t *pos; /* stack index of an in-progress node */
} gen_lin_t;

static void lin_init(gen_ctx_t *g, gen_lin_t *l) {
    l->order = malloc((g->n + 1) * sizeof *l->order);
    l->n_order = 0;
    l->state = calloc(g->n + 1, 1);
    /* Zeroed: a frame or position is only read once set (state 1 = on the stack at pos), which the
     * analyzer cannot follow through the state array. */
    l->stack = calloc(g->n + 1, sizeof *l->stack);
    l->pos = calloc(g->n + 1, sizeof *l->pos);
    if (!l->order || !l->state || !l->stack || !l->pos) abort();
}

static void lin_free(gen_lin_t *l) {
    free(l->order);
    free(l->state);
    free(l->stack);
    free(l->pos);
}

/* Pass 4: depth-first linearization in input order (Pulumi's pcl.Linearize: stable, a resource
 * after everything it depends on). A cycle is broken at one reference edge — the back edge when it
 * is a reference, else the reference edge nearest to it on the cycle — and the walk restarts.
 * The roots from..to-1 are added to l's order; every edge of theirs leads below `to` (all of them
 * when to is g->n), and every resource below `from` is placed already: a cycle never leaves the
 * range, and a restart walks only the range again, which is what walking from the first root again
 * gives (the edges below it are as they were). */
static void linearize(gen_ctx_t *g, gen_lin_t *l, size_t from, size_t to, diag_list_t *diags) {
    unsigned char *state = l->state;
    dfs_frame_t *stack = l->stack;
    size_t *pos = l->pos, start = l->n_order;
restart:
    memset(state + from, 0, to - from);
    l->n_order = start;
    for (size_t root = from; root < to; root++) {
        if (!g->res[root].ok || state[root]) continue;
        size_t sp = 0;
        stack[sp++] = (dfs_frame_t){root, 0};
        state[root] = 1;
        pos[root] = 0;
        while (sp) {
            dfs_frame_t *f = &stack[sp - 1];
            gen_res_t *r = &g->res[f->node];
            if (f->next == r->n_edges) {
                state[f->node] = 2;
                l->order[l->n_order++] = f->node;
                sp--;
                continue;
            }
            gen_edge_t *e = &r->edges[f->next++];
            if (e->broken) continue;
            size_t v = e->target;
            if (state[v] == 0) {
                state[v] = 1;
                pos[v] = sp;
                stack[sp++] = (dfs_frame_t){v, 0};
            } else if (state[v] == 1) {
                if (!e->hard) {
                    break_edge(g, f->node, e);
                    continue;
                }
                /* the edge just taken out of each frame leads to the next frame on the cycle */
                for (size_t k = sp - 1; k > pos[v]; k--) {
                    gen_edge_t *pe = &g->res[stack[k - 1].node].edges[stack[k - 1].next - 1];
                    if (!pe->hard) {
                        break_edge(g, stack[k - 1].node, pe);
                        goto restart;
                    }
                }
                diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, NULL, res_desc(g, r),
                         "resources '%s' and '%s' depend on each other through parent, provider or dependsOn options; "
                         "the generated program cannot run until one of these options is removed",
                         r->ident, g->res[v].ident);
                e->broken = true;
            }
        }
    }
}

/* The program's copy of a type token, one per type. */
static const char *program_token(gen_ctx_t *g, const char *type) {
    void **found = hashmap_find_str(&g->tokens, type);
    if (found) return *found;
    char *copy = arena_strdup(g->a, type);
    hashmap_add_str(&g->tokens, copy, copy);
    return copy;
}

/* Pass 5: resource i's nodes, each handed to put: its package's the first time the package is used,
 * the config reads of its secrets, then its own. */
static void emit_resource(gen_ctx_t *g, size_t i, void (*put)(gen_ctx_t *g, const pcl_node_t *n)) {
    gen_res_t *r = &g->res[i];
    const pcl_gen_resource_t *in = r->in;
    if (!in->component && pcl_smap_add(&g->pkgs, r->pkg_name, i)) {
        pcl_node_t pk = {.kind = PCL_NODE_PACKAGE, .name = r->pkg_name, .package = r->pkg};
        const char *version = in->version ? in->version : r->pkg->version;
        pk.attrs = arena_alloc(g->ea, 3 * sizeof *pk.attrs);
        pk.attrs[pk.n_attrs++] = (pcl_attr_t){"baseProviderName", new_string(g, r->pkg_name, NULL), NULL, 0, 0};
        if (version)
            pk.attrs[pk.n_attrs++] = (pcl_attr_t){"baseProviderVersion", new_string(g, version, NULL), NULL, 0, 0};
        if (in->plugin_download_url)
            pk.attrs[pk.n_attrs++] =
                (pcl_attr_t){"baseProviderDownloadUrl", new_string(g, in->plugin_download_url, NULL), NULL, 0, 0};
        put(g, &pk);
    }
    for (size_t k = 0; k < r->n_configs; k++) {
        const char *name = r->configs[k].name;
        put(g, &(pcl_node_t){.kind = PCL_NODE_CONFIG,
                             .name = name,
                             .token = r->configs[k].type,
                             .config_secret = true,
                             .config_key = name});
    }
    pcl_node_t node = {.kind = in->component ? PCL_NODE_COMPONENT : PCL_NODE_RESOURCE,
                       .name = r->ident,
                       .token = program_token(g, in->type ? in->type : ""),
                       .attrs = r->attrs,
                       .n_attrs = r->n_attrs,
                       .package = r->pkg,
                       .schema = r->schema};
    const char *logical = in->logical_name ? in->logical_name : in->name;
    if (logical && strcmp(logical, r->ident) != 0) node.logical_name = arena_strdup(g->ea, logical);
    build_options(g, i, &node);
    put(g, &node);
}

static void put_in_program(gen_ctx_t *g, const pcl_node_t *n) {
    *pcl_program_add(g->out->program, n->kind) = *n;
}

/* The nodes in order, into the program. */
static void emit_nodes(gen_ctx_t *g, const size_t *order, size_t n_order) {
    pcl_program_t *p = g->out->program;
    pcl_smap_t pkgs = {0};
    /* the nodes' count first: one array of that size (100,000 resources' nodes are 12 MB) */
    size_t n_nodes = p->n_nodes + n_order;
    for (size_t oi = 0; oi < n_order; oi++) {
        const gen_res_t *r = &g->res[order[oi]];
        n_nodes += r->n_configs + (!r->in->component && pcl_smap_add(&pkgs, r->pkg_name, 0));
    }
    pcl_smap_free(&pkgs);
    pcl_program_reserve(p, n_nodes);
    for (size_t oi = 0; oi < n_order; oi++)
        emit_resource(g, order[oi], put_in_program);
}

/* --- a program printed as it is generated (pcl_gen_options_t.print_to) ------------------------------ */

/* Resources generated into one batch arena before it is printed and freed (about 1 MB of them). */
#define GEN_PRINT_BATCH_DEFAULT 1024

static void put_printed(gen_ctx_t *g, const pcl_node_t *n) {
    const pcl_gen_options_t *o = g->opts;
    if (o->print_check && !o->print_check(o->print_check_user, n, &g->check_diags)) g->print_refused = true;
    if (g->print_refused) return;
    if (g->n_printed++) buf_putc(&g->text, '\n');
    pcl_print_node_append(&g->text, n);
    if (g->text.len >= SPOOL_CHUNK) spool_take(g->opts->print_to, &g->text);
}

/* After resource i's inputs: its edges, and, once every edge of the resources generated so far leads
 * among them (a forward reference waits for its target) and a batch is full or this is the last
 * resource, their nodes in pass 4's order printed — the order those resources take in the whole
 * program's, since nothing before them depends on anything after — and the batch freed. */
static void stream_resource(gen_ctx_t *g, size_t i) {
    build_edges_of(g, i);
    const gen_res_t *r = &g->res[i];
    for (size_t k = 0; k < r->n_edges; k++)
        if (r->edges[k].target + 1 > g->reach) g->reach = r->edges[k].target + 1;
    size_t to = i + 1;
    size_t batch = g->opts->print_batch ? g->opts->print_batch : GEN_PRINT_BATCH_DEFAULT;
    if (g->reach > to || (to - g->printed_to < batch && to < g->n)) return;
    size_t start = g->lin->n_order;
    linearize(g, g->lin, g->printed_to, to, &g->lin_diags);
    for (size_t k = start; k < g->lin->n_order; k++)
        emit_resource(g, g->lin->order[k], put_printed);
    for (size_t k = g->printed_to; k < to; k++) { /* what pointed into the batch */
        gen_res_t *x = &g->res[k];
        x->attrs = NULL;
        x->refs = NULL;
        x->edges = NULL;
        x->configs = NULL;
        x->n_attrs = x->n_refs = x->cap_refs = x->n_edges = x->n_configs = x->cap_configs = 0;
    }
    g->printed_to = to;
    arena_free(g->ea);
    g->ea = arena_new();
}

bool pcl_generate(const pcl_gen_resource_t *resources, size_t n, schema_set_t *schemas, const pcl_gen_options_t *opts,
                  pcl_gen_result_t *out, diag_list_t *diags) {
    pcl_gen_options_t defaults;
    if (!opts) {
        pcl_gen_options_default(&defaults);
        opts = &defaults;
    }
    memset(out, 0, sizeof *out);
    out->program = pcl_program_new();
    gen_ctx_t g = {0};
    g.a = g.ea = out->program->arena;
    g.opts = opts;
    g.diags = diags;
    g.out = out;
    g.n = n;
    /* the resources' working state, not the program's: freed when it is built */
    g.res = calloc(n ? n : 1, sizeof *g.res);
    if (!g.res) abort();
    for (size_t i = 0; i < n; i++)
        g.res[i].in = &resources[i];
    buf_init(&g.path);

    reserve_external_roots(&g);
    /* Names already taken outside the program (e.g. the stack config's keys): never generated. */
    for (size_t k = 0; k < opts->n_reserved_names; k++)
        pcl_smap_add(&g.names, arena_strdup(g.a, opts->reserved_names[k]), SIZE_MAX);
    resolve_resources(&g, schemas);
    collect_candidates(&g);
    gen_lin_t lin;
    lin_init(&g, &lin);
    g.lin = &lin;
    if (opts->print_to) {
        g.ea = arena_new();
        diag_list_init(&g.lin_diags);
        diag_list_init(&g.check_diags);
        buf_init(&g.text);
    }
    generate_inputs(&g);
    /* the candidates are read by pass 3 only (their values may be released with the outputs) */
    pcl_smap_free(&g.cands);
    pcl_smap_free(&g.secret_cands);
    arena_free(g.secret_keys);
    arena_free(g.cand_keys);
    free(g.cand);
    free(g.secret_cand);
    if (opts->print_to) { /* printed: pass 4's messages after pass 3's, as when the program is whole */
        spool_take(opts->print_to, &g.text);
        buf_free(&g.text);
        arena_free(g.ea);
        diag_list_move(diags, &g.lin_diags);
        diag_list_move(diags, &g.check_diags); /* the caller's check follows generation */
    } else {
        build_edges(&g);
        linearize(&g, &lin, 0, g.n, diags);
        emit_nodes(&g, lin.order, lin.n_order);
    }
    size_t n_order = lin.n_order;
    lin_free(&lin);

    buf_free(&g.path);
    pcl_smap_free(&g.names);
    pcl_smap_free(&g.reused_keys);
    pcl_smap_free(&g.plan_names);
    pcl_smap_free(&g.superseded);
    pcl_smap_free(&g.ext_used);
    hashmap_free(&g.literals);
    arena_free(g.literal_keys);
    hashmap_free(&g.tokens);
    pcl_smap_free(&g.pkgs);
    free(g.res);
    return n == 0 || n_order > 0;
}

/* redact.c — a program's copy with its secret values taken out (see pcl.h, pcl_program_redacted).
 *
 * The results document and the import report show the code without its secrets. Cutting a value's
 * text out of the printed code would have to know every form each language writes a string in — a
 * template literal, a triple-quoted string, a YAML block scalar, `$${`, `\x09`, `\u2028` — and would
 * leak the one it does not know. Instead the program is printed a second time from a copy in which
 * the values are gone: every literal under a `secret(...)` call, and every string literal equal to a
 * value known to be secret elsewhere, is the placeholder `[secret]`. Whatever a language then makes
 * of it, the secret's text is not there to print. */
#include <string.h>

#include "pcl/pcl.h"

typedef struct redact_ctx {
    arena_t *a;
    const hashmap_t *secrets; /* string secret values (keys), or NULL */
} redact_ctx_t;

static const char PLACEHOLDER[] = "[secret]";

static pcl_expr_t *copy_expr(redact_ctx_t *c, const pcl_expr_t *e) {
    pcl_expr_t *n = arena_alloc(c->a, sizeof *n);
    *n = *e;
    return n;
}

/* A literal standing for a secret value, at the same position with the same type: a string
 * "[secret]"; a number or bool the name `[secret]`, which every emitter writes as it is (an external
 * root of the program, see pcl_program_redacted) — a string there would not be written: emitters
 * check a literal against the type the schema wants. */
static pcl_expr_t *placeholder(redact_ctx_t *c, const pcl_expr_t *e) {
    pcl_expr_t *n = arena_alloc(c->a, sizeof *n);
    memset(n, 0, sizeof *n);
    n->type = e->type;
    n->line = e->line;
    n->col = e->col;
    if (e->kind == PCL_STRING || e->kind == PCL_TEMPLATE) {
        n->kind = PCL_STRING;
        n->s = PLACEHOLDER;
    } else {
        n->kind = PCL_TRAVERSAL;
        n->trav.root = PLACEHOLDER;
    }
    return n;
}

static pcl_expr_t *redact_expr(redact_ctx_t *c, pcl_expr_t *e, bool secret);

/* Redacts each of n expressions in items; a copy of the array when one changed, else items. */
static pcl_expr_t **redact_list(redact_ctx_t *c, pcl_expr_t **items, size_t n, bool secret) {
    pcl_expr_t **out = NULL;
    for (size_t i = 0; i < n; i++) {
        pcl_expr_t *r = redact_expr(c, items[i], secret);
        if (r == items[i]) continue;
        if (!out) {
            out = arena_alloc(c->a, n * sizeof(pcl_expr_t *));
            memcpy(out, items, n * sizeof(pcl_expr_t *));
        }
        out[i] = r;
    }
    return out ? out : items;
}

/* e with its secrets taken out: e itself when it holds none, else a copy (the parts that hold none
 * shared with e). `secret`: e is (inside) the argument of secret(...); a map's keys there are
 * placeholders too ("[secret]", "[secret]#2", ...: keys stay distinct). Recursion is bounded as
 * every walk of an expression is (PCL_MAX_DEPTH). */
static pcl_expr_t *redact_expr(redact_ctx_t *c, pcl_expr_t *e, bool secret) {
    if (!e) return e;
    switch (e->kind) {
    case PCL_NULL: return e; /* null is no value to hide */
    case PCL_BOOL:
    case PCL_NUMBER: return secret ? placeholder(c, e) : e;
    case PCL_STRING:
        if (secret || (c->secrets && e->s && hashmap_find_str(c->secrets, e->s))) return placeholder(c, e);
        return e;
    case PCL_TEMPLATE:
        if (secret) return placeholder(c, e); /* its literal chunks and what it interpolates: one value */
        break;
    case PCL_CALL:
        if (e->call.name && strcmp(e->call.name, "secret") == 0) secret = true;
        break;
    default: break;
    }
    pcl_expr_t *n = NULL;
    pcl_expr_t **items = redact_list(c, e->tuple.items, e->tuple.n, secret);
    if (items != e->tuple.items) (n = copy_expr(c, e))->tuple.items = items;
    pcl_expr_t **args = redact_list(c, e->call.args, e->call.n, secret);
    if (args != e->call.args) {
        if (!n) n = copy_expr(c, e);
        n->call.args = args;
    }
    pcl_object_item_t *obj = NULL;
    unsigned n_keys = 0;
    for (size_t i = 0; i < e->object.n; i++) {
        pcl_expr_t *v = redact_expr(c, e->object.items[i].value, secret);
        /* a map's keys are part of its value (an object type's are the schema's property names) */
        bool key = secret && e->object.items[i].key_quoted;
        if (v == e->object.items[i].value && !key) continue;
        if (!obj) {
            obj = arena_alloc(c->a, e->object.n * sizeof *obj);
            memcpy(obj, e->object.items, e->object.n * sizeof *obj);
        }
        obj[i].value = v;
        if (key) obj[i].key = ++n_keys == 1 ? PLACEHOLDER : arena_sprintf(c->a, "%s#%u", PLACEHOLDER, n_keys);
    }
    if (obj) {
        if (!n) n = copy_expr(c, e);
        n->object.items = obj;
    }
    pcl_expr_t *sub[4] = {e->x, e->y, e->z, e->w};
    for (int k = 0; k < 4; k++) {
        pcl_expr_t *r = redact_expr(c, sub[k], secret);
        if (r == sub[k]) continue;
        if (!n) n = copy_expr(c, e);
        *(k == 0 ? &n->x : k == 1 ? &n->y : k == 2 ? &n->z : &n->w) = r;
    }
    return n ? n : e;
}

static pcl_attr_t *redact_attrs(redact_ctx_t *c, pcl_attr_t *attrs, size_t n) {
    pcl_attr_t *out = NULL;
    for (size_t i = 0; i < n; i++) {
        pcl_expr_t *v = redact_expr(c, attrs[i].value, false);
        if (v == attrs[i].value) continue;
        if (!out) {
            out = arena_alloc(c->a, n * sizeof *out);
            memcpy(out, attrs, n * sizeof *out);
        }
        out[i].value = v;
    }
    return out ? out : attrs;
}

pcl_program_t *pcl_program_redacted(const pcl_program_t *p, const hashmap_t *secret_strings) {
    pcl_program_t *r = pcl_program_new();
    redact_ctx_t c = {r->arena, secret_strings && hashmap_count(secret_strings) ? secret_strings : NULL};
    *r = *p;
    r->arena = c.a;
    r->nodes = p->n_nodes ? arena_alloc(c.a, p->n_nodes * sizeof *r->nodes) : NULL;
    r->cap_nodes = p->n_nodes;
    for (size_t i = 0; i < p->n_nodes; i++) {
        pcl_node_t *nd = &r->nodes[i];
        *nd = p->nodes[i];
        nd->attrs = redact_attrs(&c, nd->attrs, nd->n_attrs);
        nd->options = redact_attrs(&c, nd->options, nd->n_options);
        nd->params = redact_attrs(&c, nd->params, nd->n_params);
    }
    /* the name a number's or bool's placeholder reads, written as it is */
    r->external_roots = arena_alloc(c.a, (p->n_external_roots + 1) * sizeof *r->external_roots);
    if (p->n_external_roots)
        memcpy(r->external_roots, p->external_roots, p->n_external_roots * sizeof *p->external_roots);
    r->external_roots[p->n_external_roots] = PLACEHOLDER;
    r->n_external_roots = p->n_external_roots + 1;
    return r;
}

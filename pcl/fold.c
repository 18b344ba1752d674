/* fold.c — the value of a PCL expression when it is certain before the program runs (see pcl.h).
 *
 * Pulumi YAML has no operators, conditionals or loops, but a program whose operators and for
 * expressions work on literals only (`[for n in names : "prefix-${n}"]` over a literal list,
 * `max([1, 2, 3]...)`) can still be written in YAML with the value computed here. "Certain" means the
 * same value under every reading of the program: HCL's (go-cty: arbitrary-precision numbers, strings
 * normalised to NFC, a conditional's two results unified to one type, a map iterated in key order)
 * and the generated programs' (float64 numbers, strings as written). So:
 * - arithmetic takes integers within ±2^53 only, and keeps a result only when it is exact (a
 *   quotient q with q × b = a exactly), never -0 or beyond 2^53;
 * - numbers compare when they differ or are integers (two texts of one float64 may differ in cty);
 * - strings are compared, and joined in a template, only when they are ASCII (NFC changes nothing);
 *   equal bytes are equal anyway;
 * - a template writes integers, booleans and strings; a template of one interpolation alone must
 *   give a string (HCL hands back the value itself otherwise);
 * - a conditional folds only when both results fold to the same kind of scalar (or null): then no
 *   type unification changes the one chosen;
 * - a for expression goes over a literal list (index, element) or object (key, value, in key order);
 *   its keys are strings and distinct;
 * - locals fold through their values; config values, resource outputs, invokes, secret() and every
 *   function but max and min are not certain.
 * Anything else gives NULL, and the caller keeps the expression (and refuses what it cannot write). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pcl/pcl_internal.h"

/* Locals folded within one another (a = b + 1, b = c + 1, ...) before the folder gives up. */
enum { FOLD_MAX_LOCAL_DEPTH = 64 };
/* Nodes one folder builds in all: a for expression over a for expression multiplies. */
enum { FOLD_BUDGET = 1000000 };
/* 2^53: integers below it are exact in a float64. */
#define FOLD_INT_LIMIT 9007199254740992.0

typedef enum { LOCAL_NOT_YET = 0, LOCAL_FOLDING, LOCAL_DONE } local_state_t;

struct pcl_folder {
    arena_t *a;
    const pcl_program_t *p;
    pcl_smap_t names; /* a node's name → its index (built on first use) */
    bool names_built;
    pcl_expr_t **values;  /* per node: a local's folded value (NULL: not certain) */
    unsigned char *state; /* per node: local_state_t */
    int depth;            /* locals being folded within one another */
    size_t budget;        /* nodes left to build */
};

/* A for expression's variables in scope, innermost first. */
typedef struct fold_env {
    const char *name;
    const pcl_expr_t *value;
    const struct fold_env *up;
} fold_env_t;

static void folder_free_map(void *ctx) {
    pcl_smap_free(ctx);
}

pcl_folder_t *pcl_folder_new(arena_t *a, const pcl_program_t *p) {
    pcl_folder_t *f = arena_alloc(a, sizeof *f);
    f->a = a;
    f->p = p;
    f->budget = FOLD_BUDGET;
    arena_on_free(a, folder_free_map, &f->names);
    return f;
}

static pcl_expr_t *fold(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env);

static pcl_expr_t *new_value(pcl_folder_t *f, pcl_expr_kind_t kind) {
    if (f->budget == 0) return NULL;
    f->budget--;
    pcl_expr_t *v = arena_alloc(f->a, sizeof *v);
    v->kind = kind;
    return v;
}

static pcl_expr_t *new_number(pcl_folder_t *f, double n) {
    pcl_expr_t *v = new_value(f, PCL_NUMBER);
    if (v) v->n = n;
    return v;
}

static pcl_expr_t *new_bool(pcl_folder_t *f, bool b) {
    pcl_expr_t *v = new_value(f, PCL_BOOL);
    if (v) v->b = b;
    return v;
}

static bool is_ascii(const char *s) {
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80) return false;
    return true;
}

/* An integer a float64 holds exactly, and not -0. */
static bool exact_int(double n) {
    return isfinite(n) && n == floor(n) && fabs(n) < FOLD_INT_LIMIT && !(n == 0 && signbit(n));
}

static bool is_scalar(const pcl_expr_t *v) {
    return v->kind == PCL_NULL || v->kind == PCL_BOOL || v->kind == PCL_NUMBER || v->kind == PCL_STRING;
}

/* The value's member `key` (an object's), or NULL. */
static const pcl_expr_t *member(const pcl_expr_t *v, const char *key) {
    if (v->kind != PCL_OBJECT) return NULL;
    for (size_t i = 0; i < v->object.n; i++)
        if (strcmp(v->object.items[i].key, key) == 0) return v->object.items[i].value;
    return NULL;
}

/* The value's element at a number index (a list's, in range), or NULL. */
static const pcl_expr_t *element(const pcl_expr_t *v, double index) {
    if (v->kind != PCL_TUPLE || !exact_int(index) || index < 0 || index >= (double)v->tuple.n) return NULL;
    return v->tuple.items[(size_t)index];
}

/* The value read by traversal parts (`.a`, `["k"]`, `[0]`), or NULL where a part reads nothing. */
static const pcl_expr_t *read_parts(const pcl_expr_t *v, const pcl_trav_part_t *parts, size_t n) {
    for (size_t i = 0; v && i < n; i++)
        v = parts[i].attr              ? member(v, parts[i].attr)
            : parts[i].index_is_string ? member(v, parts[i].index_str)
                                       : element(v, (double)parts[i].index_num);
    return v;
}

/* A local's value, folded once. */
static pcl_expr_t *fold_local(pcl_folder_t *f, size_t idx) {
    if (!f->values) {
        f->values = arena_alloc(f->a, (f->p->n_nodes + 1) * sizeof(pcl_expr_t *));
        f->state = arena_alloc(f->a, f->p->n_nodes + 1);
    }
    if (f->state[idx] == LOCAL_DONE) return f->values[idx];
    if (f->state[idx] == LOCAL_FOLDING || f->depth >= FOLD_MAX_LOCAL_DEPTH) return NULL; /* a cycle, or too deep */
    const pcl_node_t *n = &f->p->nodes[idx];
    if (n->kind != PCL_NODE_LOCAL || n->n_attrs == 0) return NULL;
    f->state[idx] = LOCAL_FOLDING;
    f->depth++;
    pcl_expr_t *v = fold(f, n->attrs[0].value, NULL);
    f->depth--;
    f->values[idx] = v;
    f->state[idx] = LOCAL_DONE;
    return v;
}

static pcl_expr_t *fold_traversal(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    const pcl_expr_t *v = NULL;
    const fold_env_t *s = env;
    while (s && strcmp(s->name, e->trav.root) != 0)
        s = s->up;
    if (s) {
        v = s->value;
    } else {
        if (!f->names_built) { /* the node each name declares, the first as pcl_program_find finds it */
            for (size_t i = 0; i < f->p->n_nodes; i++) {
                const pcl_node_t *n = &f->p->nodes[i];
                if (n->kind != PCL_NODE_PACKAGE && n->kind != PCL_NODE_OUTPUT && n->name)
                    pcl_smap_add(&f->names, n->name, i);
            }
            f->names_built = true;
        }
        size_t idx;
        if (!pcl_smap_get(&f->names, e->trav.root, &idx)) return NULL;
        v = fold_local(f, idx); /* NULL for a resource, a config value, ... */
    }
    return (pcl_expr_t *)(v ? read_parts(v, e->trav.parts, e->trav.n) : NULL);
}

/* Appends a folded scalar to a template's text; false when it has no certain text. */
static bool template_text(buf_t *t, const pcl_expr_t *v) {
    switch (v->kind) {
    case PCL_STRING:
        if (!is_ascii(v->s)) return false;
        buf_puts(t, v->s);
        return true;
    case PCL_NUMBER:
        if (!exact_int(v->n)) return false; /* cty writes other numbers its own way */
        buf_printf(t, "%.0f", v->n);
        return true;
    case PCL_BOOL: buf_puts(t, v->b ? "true" : "false"); return true;
    default: return false; /* null is an error in HCL; a collection has no text */
    }
}

static pcl_expr_t *fold_template(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    buf_t t;
    buf_init(&t);
    bool ok = true;
    for (size_t i = 0; ok && i < e->tuple.n; i++) {
        const pcl_expr_t *v = fold(f, e->tuple.items[i], env);
        /* HCL's "${x}" is x itself, not its text */
        ok = v && (e->tuple.n > 1 || e->tuple.items[i]->kind == PCL_STRING || v->kind == PCL_STRING) &&
             template_text(&t, v);
    }
    pcl_expr_t *r = ok ? new_value(f, PCL_STRING) : NULL;
    if (r) r->s = t.data ? buf_arena_str(&t, f->a) : "";
    buf_free(&t);
    return r;
}

/* Whether a and b are equal: 1 yes, 0 no, -1 not certain (see the header). */
static int values_equal(const pcl_expr_t *a, const pcl_expr_t *b) {
    if (a->kind == PCL_NULL || b->kind == PCL_NULL) return a->kind == b->kind;
    if (a->kind != b->kind) return -1; /* HCL: never equal; a generated program may convert */
    switch (a->kind) {
    case PCL_BOOL: return a->b == b->b;
    case PCL_NUMBER:
        if (!isfinite(a->n) || !isfinite(b->n)) return -1;
        if (a->n != b->n) return 0;
        return a->n == floor(a->n) ? 1 : -1;
    case PCL_STRING:
        if (strcmp(a->s, b->s) == 0) return 1;
        return is_ascii(a->s) && is_ascii(b->s) ? 0 : -1;
    default: return -1;
    }
}

static pcl_expr_t *fold_binary(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    const pcl_expr_t *x = fold(f, e->x, env), *y = x ? fold(f, e->y, env) : NULL;
    if (!x || !y) return NULL;
    const char *op = e->op;
    if (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0) {
        if (x->kind != PCL_BOOL || y->kind != PCL_BOOL) return NULL;
        return new_bool(f, op[0] == '&' ? x->b && y->b : x->b || y->b);
    }
    if (strcmp(op, "==") == 0 || strcmp(op, "!=") == 0) {
        int eq = values_equal(x, y);
        return eq < 0 ? NULL : new_bool(f, (eq == 1) == (op[0] == '='));
    }
    if (x->kind != PCL_NUMBER || y->kind != PCL_NUMBER || !isfinite(x->n) || !isfinite(y->n)) return NULL;
    double a = x->n, b = y->n;
    if (op[0] == '<' || op[0] == '>') {
        if (a == b && a != floor(a)) return NULL; /* two texts of one float64 */
        bool lt = a < b, eq = a == b;
        bool r = op[0] == '<' ? (op[1] == '=' ? lt || eq : lt) : (op[1] == '=' ? !lt : !lt && !eq);
        return new_bool(f, r);
    }
    if (!exact_int(a) || !exact_int(b)) return NULL;
    double r;
    switch (op[0]) {
    case '+': r = a + b; break;
    case '-': r = a - b; break;
    case '*': r = a * b; break;
    case '/':
        if (b == 0) return NULL;
        r = a / b;
        if (fma(r, b, -a) != 0) return NULL; /* not the exact quotient */
        break;
    case '%':
        if (a < 0 || b <= 0) return NULL; /* the sign of a remainder differs between languages */
        r = fmod(a, b);
        break;
    default: return NULL;
    }
    /* a result at or past 2^53 may have been rounded; -0 prints as -0 in cty */
    if (!isfinite(r) || fabs(r) >= FOLD_INT_LIMIT || (r == 0 && signbit(r))) return NULL;
    return new_number(f, r);
}

static pcl_expr_t *fold_unary(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    const pcl_expr_t *x = fold(f, e->x, env);
    if (!x) return NULL;
    if (strcmp(e->op, "!") == 0) return x->kind == PCL_BOOL ? new_bool(f, !x->b) : NULL;
    if (strcmp(e->op, "-") == 0 && x->kind == PCL_NUMBER && isfinite(x->n) && x->n != 0) return new_number(f, -x->n);
    return NULL;
}

static pcl_expr_t *fold_cond(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    pcl_expr_t *c = fold(f, e->x, env);
    pcl_expr_t *y = c ? fold(f, e->y, env) : NULL;
    pcl_expr_t *z = y ? fold(f, e->z, env) : NULL;
    if (!z || c->kind != PCL_BOOL || !is_scalar(y) || !is_scalar(z)) return NULL;
    /* results of two kinds are unified to one type (1 or "a" gives "1"): not certain */
    if (y->kind != z->kind && y->kind != PCL_NULL && z->kind != PCL_NULL) return NULL;
    return c->b ? y : z;
}

/* max(...) and min(...) over numbers (the last argument's elements with `...`): the one it picks. */
static pcl_expr_t *fold_call(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    bool is_max = strcmp(e->call.name, "max") == 0;
    if (!is_max && strcmp(e->call.name, "min") != 0) return NULL;
    pcl_expr_t *best = NULL;
    for (size_t i = 0; i < e->call.n; i++) {
        pcl_expr_t *v = fold(f, e->call.args[i], env);
        if (!v) return NULL;
        pcl_expr_t **items = &v;
        size_t n = 1;
        if (e->call.expand_final && i + 1 == e->call.n) {
            if (v->kind != PCL_TUPLE) return NULL;
            items = v->tuple.items, n = v->tuple.n;
        }
        for (size_t k = 0; k < n; k++) {
            if (items[k]->kind != PCL_NUMBER || !isfinite(items[k]->n)) return NULL;
            if (!best || (is_max ? items[k]->n > best->n : items[k]->n < best->n)) best = items[k];
        }
    }
    return best; /* NULL without arguments: an error in PCL */
}

static pcl_expr_t *fold_index(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    const pcl_expr_t *x = fold(f, e->x, env);
    if (!x) return NULL;
    if (e->kind == PCL_GETATTR) return (pcl_expr_t *)member(x, e->s);
    const pcl_expr_t *k = fold(f, e->y, env);
    if (!k) return NULL;
    if (k->kind == PCL_STRING) return (pcl_expr_t *)member(x, k->s);
    return k->kind == PCL_NUMBER ? (pcl_expr_t *)element(x, k->n) : NULL;
}

/* x[*].a.b over a list: the list of each element's .a.b. */
static pcl_expr_t *fold_splat(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    const pcl_expr_t *x = fold(f, e->x, env);
    if (!x || x->kind != PCL_TUPLE) return NULL; /* a splat of null or of one value: not written here */
    pcl_expr_t *r = new_value(f, PCL_TUPLE);
    if (!r) return NULL;
    r->tuple.items = arena_alloc(f->a, (x->tuple.n + 1) * sizeof(pcl_expr_t *));
    for (size_t i = 0; i < x->tuple.n; i++) {
        const pcl_expr_t *v = read_parts(x->tuple.items[i], e->trav.parts, e->trav.n);
        if (!v) return NULL;
        r->tuple.items[r->tuple.n++] = (pcl_expr_t *)v;
    }
    return r;
}

static int item_key_cmp(const void *x, const void *y) {
    return strcmp(((const pcl_object_item_t *)x)->key, ((const pcl_object_item_t *)y)->key);
}

static bool has_key(const pcl_expr_t *obj, const char *key) {
    return member(obj, key) != NULL;
}

static pcl_expr_t *fold_for(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    const pcl_expr_t *coll = fold(f, e->x, env);
    if (!coll || (coll->kind != PCL_TUPLE && coll->kind != PCL_OBJECT)) return NULL;
    size_t n = coll->kind == PCL_TUPLE ? coll->tuple.n : coll->object.n;
    pcl_object_item_t *entries = NULL;
    if (coll->kind == PCL_OBJECT) { /* cty goes over a map or object in the order of its keys */
        entries = arena_alloc(f->a, (n + 1) * sizeof *entries);
        if (n) memcpy(entries, coll->object.items, n * sizeof *entries);
        qsort(entries, n, sizeof *entries, item_key_cmp);
        for (size_t i = 1; i < n; i++)
            if (strcmp(entries[i - 1].key, entries[i].key) == 0) return NULL; /* HCL refuses the literal */
    }
    pcl_expr_t *r = new_value(f, e->for_object ? PCL_OBJECT : PCL_TUPLE);
    if (!r) return NULL;
    if (e->for_object)
        r->object.items = arena_alloc(f->a, (n + 1) * sizeof *r->object.items);
    else
        r->tuple.items = arena_alloc(f->a, (n + 1) * sizeof(pcl_expr_t *));
    for (size_t i = 0; i < n; i++) {
        pcl_expr_t *key;
        if (entries) {
            key = new_value(f, PCL_STRING);
            if (key) key->s = entries[i].key;
        } else {
            key = new_number(f, (double)i);
        }
        if (!key) return NULL;
        fold_env_t kv = {e->kvar, key, env};
        fold_env_t vv = {e->vvar, entries ? entries[i].value : coll->tuple.items[i], e->kvar ? &kv : env};
        if (e->w) {
            const pcl_expr_t *keep = fold(f, e->w, &vv);
            if (!keep || keep->kind != PCL_BOOL) return NULL;
            if (!keep->b) continue;
        }
        pcl_expr_t *v = fold(f, e->z, &vv);
        if (!v) return NULL;
        if (!e->for_object) {
            r->tuple.items[r->tuple.n++] = v;
            continue;
        }
        const pcl_expr_t *k = fold(f, e->y, &vv);
        /* a key of another kind is converted to a string in HCL; two of one key are an error there */
        if (!k || k->kind != PCL_STRING || has_key(r, k->s)) return NULL;
        r->object.items[r->object.n++] = (pcl_object_item_t){.key = k->s, .key_quoted = true, .value = v};
    }
    return r;
}

static pcl_expr_t *fold_collection(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    pcl_expr_t *r = new_value(f, e->kind);
    if (!r) return NULL;
    if (e->kind == PCL_TUPLE) {
        r->tuple.items = arena_alloc(f->a, (e->tuple.n + 1) * sizeof(pcl_expr_t *));
        for (size_t i = 0; i < e->tuple.n; i++)
            if (!(r->tuple.items[r->tuple.n++] = fold(f, e->tuple.items[i], env))) return NULL;
        return r;
    }
    r->object.items = arena_alloc(f->a, (e->object.n + 1) * sizeof *r->object.items);
    for (size_t i = 0; i < e->object.n; i++) {
        if (has_key(r, e->object.items[i].key)) return NULL; /* HCL refuses a key given twice */
        pcl_object_item_t *it = &r->object.items[r->object.n++];
        *it = e->object.items[i];
        if (!(it->value = fold(f, e->object.items[i].value, env))) return NULL;
    }
    return r;
}

static pcl_expr_t *fold(pcl_folder_t *f, const pcl_expr_t *e, const fold_env_t *env) {
    switch (e->kind) {
    case PCL_NULL:
    case PCL_BOOL:
    case PCL_STRING: return (pcl_expr_t *)e;
    case PCL_NUMBER: return isfinite(e->n) && !e->inexact ? (pcl_expr_t *)e : NULL;
    case PCL_TUPLE:
    case PCL_OBJECT: return fold_collection(f, e, env);
    case PCL_TRAVERSAL: return fold_traversal(f, e, env);
    case PCL_TEMPLATE: return fold_template(f, e, env);
    case PCL_UNARY: return fold_unary(f, e, env);
    case PCL_BINARY: return fold_binary(f, e, env);
    case PCL_COND: return fold_cond(f, e, env);
    case PCL_CALL: return fold_call(f, e, env);
    case PCL_INDEX:
    case PCL_GETATTR: return fold_index(f, e, env);
    case PCL_SPLAT: return fold_splat(f, e, env);
    case PCL_FOR: return fold_for(f, e, env);
    }
    return NULL;
}

pcl_expr_t *pcl_fold(pcl_folder_t *f, const pcl_expr_t *e) {
    return fold(f, e, NULL);
}

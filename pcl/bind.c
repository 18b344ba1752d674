/* bind.c — attaching schemas to a parsed PCL program, and reading expressions back as values.
 *
 * pcl_bind resolves each resource block's schema (the package from the token's prefix;
 * `pulumi:providers:<pkg>` is the package's provider resource) and writes the schema type at every
 * position of its inputs — through objects, maps, tuples and secret() — the same way generation
 * does, so a bound program looks to the emitters exactly like a generated one; a literal of another
 * scalar type than its position's is converted to it there, as PCL's binder converts it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcl/pcl_internal.h"

typedef struct binder {
    pcl_program_t *p;
    schema_set_t *schemas;
    diag_list_t *diags;
    bool ok;
} binder_t;

/* An error at e's position (the program's file, line and column); fmt takes two strings. */
static void bind_error(binder_t *b, const pcl_expr_t *e, const char *fmt, const char *a1, const char *a2) {
    b->ok = false;
    diag_add(b->diags, DIAG_ERROR, DIAG_SCHEMA, NULL, NULL, "%s:%d:%d: %s",
             b->p->filename ? b->p->filename : "<program>", e->line, e->col,
             arena_sprintf(b->p->arena, fmt, a1, a2 ? a2 : ""));
}

static void bind_expr(binder_t *b, const schema_type_t *t, pcl_expr_t *e);

static void bind_items(binder_t *b, const schema_type_t *shape, pcl_expr_t *e) {
    if (e->kind == PCL_TUPLE) {
        const schema_type_t *elem = NULL;
        if (shape && shape->kind == SCHEMA_ARRAY)
            elem = shape->element;
        else if (shape && (shape->kind == SCHEMA_ANY || shape->kind == SCHEMA_JSON))
            elem = shape;
        for (size_t i = 0; i < e->tuple.n; i++)
            bind_expr(b, elem, e->tuple.items[i]);
        return;
    }
    /* object */
    for (size_t i = 0; i < e->object.n; i++) {
        pcl_object_item_t *it = &e->object.items[i];
        const schema_type_t *vt = NULL;
        if (shape && shape->kind == SCHEMA_OBJECT && shape->object) {
            /* quoting does not matter for schema objects (Pulumi binds "selector" = .. to selector) */
            it->prop = schema_find_property(shape->object->props, shape->object->n_props, it->key);
            vt = it->prop ? it->prop->type : NULL;
        } else if (shape && shape->kind == SCHEMA_MAP) {
            vt = shape->element;
        } else if (shape && (shape->kind == SCHEMA_ANY || shape->kind == SCHEMA_JSON)) {
            vt = shape;
        }
        bind_expr(b, vt, it->value);
    }
}

/* The enum member of a union (`oneOf: [string, Enum]`) one of whose values is the literal v, or NULL:
 * Pulumi's generators write such a literal as the enum's member (`union.BlobType.Block`), any other
 * string as itself (pcl_expr_t.union_enum). */
static const schema_type_t *union_enum_listing(const schema_type_t *u, const pv_t *v) {
    if (v->kind != PV_STRING && v->kind != PV_NUMBER) return NULL;
    for (size_t i = 0; i < u->n_members; i++) {
        const schema_type_t *m = u->members[i];
        for (size_t j = 0; m && m->kind == SCHEMA_ENUM && j < m->n_enum_values; j++) {
            const pv_t *ev = m->enum_values[j].value;
            if (ev && ev->kind == v->kind &&
                (v->kind == PV_STRING ? strcmp(ev->u.str.s, v->u.str.s) == 0 : ev->u.n == v->u.n))
                return m;
        }
    }
    return NULL;
}

/* --- literals of another type than the position's -------------------------------------------------
 *
 * HCL converts a value to the type its position wants, and Pulumi's binder does it to a literal in
 * place (rewrite_convert.go's convertPrimitiveValues, with go-cty's conversions): a string to a number
 * (its decimal text) or a bool ("true" and "1", "false" and "0"), a number or a bool to its text.
 * Terraform 0.11's quoted numbers and bools (`count = "3"`, `enabled = "true"`) are written so. The
 * literal is converted here, so every emitter writes the value PCL means; one that does not convert
 * (cty refuses it at run time) is an error with its position. */

/* The scalar kind a position of type t converts a literal to (an enum's underlying one); SCHEMA_ANY
 * for any other. */
static schema_kind_t scalar_kind(const schema_type_t *t) {
    if (t && t->kind == SCHEMA_ENUM) t = t->element;
    if (!t) return SCHEMA_ANY;
    return t->kind == SCHEMA_BOOL || t->kind == SCHEMA_INT || t->kind == SCHEMA_NUMBER || t->kind == SCHEMA_STRING
               ? t->kind
               : SCHEMA_ANY;
}

/* Whether s is a decimal number as go-cty reads one (big.Float's base-10 syntax, without the
 * infinities and binary exponents it also takes): a sign, digits with at most one point, an
 * exponent. */
static bool is_decimal_text(const char *s) {
    if (*s == '+' || *s == '-') s++;
    size_t digits = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits++;
    if (!digits) return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!(*s >= '0' && *s <= '9')) return false;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == 0;
}

static void become_string(binder_t *b, pcl_expr_t *e, const char *s) {
    e->kind = PCL_STRING;
    e->s = arena_strdup(b->p->arena, s);
    e->x = NULL;
    e->op = NULL;
}

static void convert_literal(binder_t *b, const schema_type_t *t, pcl_expr_t *e) {
    schema_kind_t want = scalar_kind(t);
    /* `-42`: Pulumi's binder takes the negated literal as one (convertLiteralToString) */
    bool negated = e->kind == PCL_UNARY && e->op && strcmp(e->op, "-") == 0 && e->x && e->x->kind == PCL_NUMBER;
    const pcl_expr_t *lit = negated ? e->x : e;
    if (want == SCHEMA_ANY || (lit->kind != PCL_STRING && lit->kind != PCL_NUMBER && lit->kind != PCL_BOOL)) return;
    char text[64];
    buf_t nb;
    /* the number's text, for a string or the bool refusal only (most numbers are at number positions) */
    if (lit->kind == PCL_NUMBER && (want == SCHEMA_STRING || want == SCHEMA_BOOL)) {
        buf_init(&nb);
        if (negated) buf_putc(&nb, '-');
        pv_format_number_js(&nb, lit->n); /* as the emitters print a number in a template */
        snprintf(text, sizeof text, "%s", nb.data);
        buf_free(&nb);
    }
    if (want == SCHEMA_STRING) {
        if (lit->kind == PCL_BOOL) {
            become_string(b, e, lit->b ? "true" : "false");
        } else if (lit->kind == PCL_NUMBER && lit->inexact) {
            bind_error(b, e,
                       "this number has more significant digits than a float64 holds exactly, and the schema wants "
                       "a string here; write it as a string%s%s",
                       "", NULL);
        } else if (lit->kind == PCL_NUMBER) {
            become_string(b, e, text);
        }
    } else if (want == SCHEMA_BOOL) {
        if (lit->kind == PCL_STRING) {
            bool yes = strcmp(lit->s, "true") == 0 || strcmp(lit->s, "1") == 0;
            if (yes || strcmp(lit->s, "false") == 0 || strcmp(lit->s, "0") == 0) {
                e->kind = PCL_BOOL;
                e->b = yes;
            } else {
                bind_error(b, e,
                           "the string \"%s\" is not a bool, and the schema wants one here (only \"true\", "
                           "\"false\", \"1\" and \"0\" convert to one)%s",
                           lit->s, NULL);
            }
        } else if (lit->kind == PCL_NUMBER) {
            bind_error(b, e, "the number %s is not a bool, and the schema wants one here; write true or false%s", text,
                       NULL);
        }
    } else { /* an integer or a number */
        if (lit->kind == PCL_STRING && is_decimal_text(lit->s)) {
            errno = 0;
            e->n = strtod(lit->s, NULL);
            e->inexact = errno == ERANGE || pcl_number_digits(lit->s + (*lit->s == '+' || *lit->s == '-')) > 15;
            e->kind = PCL_NUMBER;
        } else if (lit->kind == PCL_STRING) {
            bind_error(b, e, "the string \"%s\" is not a number, and the schema wants one here%s", lit->s, NULL);
        } else if (lit->kind == PCL_BOOL) {
            bind_error(b, e, "the bool %s is not a number, and the schema wants one here%s", lit->b ? "true" : "false",
                       NULL);
        }
    }
}

static void bind_expr(binder_t *b, const schema_type_t *t, pcl_expr_t *e) {
    if (!e) return;
    pcl_program_t *p = b->p;
    if (e->kind == PCL_CALL && strcmp(e->call.name, "secret") == 0) {
        e->type = t;
        for (size_t i = 0; i < e->call.n; i++)
            bind_expr(b, t, e->call.args[i]);
        return;
    }
    const schema_type_t *pos = t;
    if (t && t->kind == SCHEMA_UNION) {
        const pv_t *v = pcl_expr_to_value(p->arena, e);
        const schema_type_t *r = v ? pcl_reduce_union(t, v) : NULL;
        if (r) pos = r;
        e->union_enum = v ? union_enum_listing(t, v) : NULL;
    }
    if (e->kind == PCL_CALL && (strcmp(e->call.name, "invoke") == 0 || strcmp(e->call.name, "call") == 0))
        return; /* typed from its function (bind_functions) */
    e->type = pos;
    const schema_type_t *shape = pos && pos->kind == SCHEMA_UNION ? NULL : pos;
    convert_literal(b, shape, e);
    if (shape && shape->kind == SCHEMA_ENUM) shape = shape->element;
    if (e->kind == PCL_TUPLE || e->kind == PCL_OBJECT)
        bind_items(b, shape, e);
    else if (e->kind == PCL_CALL && strcmp(e->call.name, "invoke") != 0 && strcmp(e->call.name, "call") != 0)
        for (size_t i = 0; i < e->call.n; i++)
            bind_expr(b, NULL, e->call.args[i]);
}

/* --- invoke() and call() -------------------------------------------------------------------------- */

/* The member of a token (`pkg:mod:member` or `pkg:member`), and its module ("" for two parts). */
static bool split_token(arena_t *a, const char *token, char **mod, const char **member) {
    const char *c1 = strchr(token, ':');
    if (!c1) return false;
    const char *c2 = strchr(c1 + 1, ':');
    *member = c2 ? c2 + 1 : c1 + 1;
    *mod = c2 ? arena_strndup(a, c1 + 1, (size_t)(c2 - c1 - 1)) : arena_strdup(a, "");
    return **member != 0 && !strchr(*member, ':');
}

/* The schema's token for a resource or function token the program spells another way, as Pulumi's
 * binder finds it: by the module the package's moduleFormat gives each token (`pkg:mod:Fn` finds
 * `pkg:mod_Fn:Fn` under `(.*)(?:_[^_]*)`; `pkg:Fn` and `pkg:index:Fn` find the index module's
 * `pkg:index/fn:Fn`). NULL when no token of the package has that module and member. */
static const char *canonical_token(arena_t *a, schema_package_t *pkg, const char *token,
                                   size_t (*count)(const schema_package_t *pkg),
                                   const char *(*at)(const schema_package_t *pkg, size_t i)) {
    char *mod;
    const char *member;
    if (!split_token(a, token, &mod, &member)) return NULL;
    if (strcmp(mod, "index") == 0) *mod = 0;
    for (size_t i = 0; i < count(pkg); i++) {
        const char *t = at(pkg, i);
        char *tmod;
        const char *tmember;
        if (!split_token(a, t, &tmod, &tmember) || strcmp(tmember, member) != 0) continue;
        char *m = schema_token_module(a, pkg, t);
        if (strcmp(m, "index") == 0) *m = 0;
        if (strcmp(m, mod) == 0 || strcmp(tmod, mod) == 0) return t;
    }
    return NULL;
}

static const schema_function_t *find_function(arena_t *a, schema_package_t *pkg, const char *token) {
    const schema_function_t *f = schema_find_function(pkg, token);
    if (f) return f;
    const char *t = canonical_token(a, pkg, token, schema_function_count, schema_function_token_at);
    return t ? schema_find_function(pkg, t) : NULL;
}

static const char *const INVOKE_OPTIONS[] = {"provider", "parent", "version", "pluginDownloadUrl", "dependsOn"};

/* Types an object of arguments from the function's inputs; a key that is not an input is an error.
 * `__self__` (a method's resource) is not an argument the program passes. */
static void bind_args(binder_t *b, const schema_function_t *f, pcl_expr_t *args, const char *what) {
    if (args->kind != PCL_OBJECT) {
        bind_error(b, args, "the arguments of %s must be an object {name = value, ...}", what, NULL);
        return;
    }
    for (size_t i = 0; i < args->object.n; i++) {
        pcl_object_item_t *it = &args->object.items[i];
        it->prop = strcmp(it->key, "__self__") == 0 ? NULL : schema_find_property(f->inputs, f->n_inputs, it->key);
        if (!it->prop) {
            bind_error(b, it->value, "%s has no input '%s'; check its spelling in the schema", what, it->key);
            continue;
        }
        bind_expr(b, it->prop->type, it->value);
    }
}

static void bind_invoke(binder_t *b, pcl_expr_t *e) {
    if (e->call.n < 1 || e->call.args[0]->kind != PCL_STRING) {
        bind_error(b, e,
                   "invoke's first argument must be the function's token, a string such as \"pkg:index:getThing\"",
                   NULL, NULL);
        return;
    }
    const char *token = e->call.args[0]->s;
    char *pkg_name = schema_token_package(b->p->arena, token);
    schema_package_t *pkg = b->schemas ? schema_set_get(b->schemas, pkg_name) : NULL;
    if (!pkg) {
        bind_error(b, e, "invoke of '%s': no schema for package '%s' is loaded", token, pkg_name);
        return;
    }
    const schema_function_t *f = find_function(b->p->arena, pkg, token);
    if (!f) {
        bind_error(b, e, "invoke of '%s': the %s schema has no such function", token, pkg_name);
        return;
    }
    e->function = f;
    e->package = pkg;
    e->type = f->return_type;
    const char *what = arena_sprintf(b->p->arena, "the function '%s'", token);
    if (f->multi_argument && e->call.n >= 2 && e->call.args[1]->kind != PCL_OBJECT) {
        /* positional: invoke(token, first, second, ...) */
        if (e->call.n - 1 > f->n_multi_args) {
            bind_error(b, e, "%s takes at most %s arguments", what, arena_sprintf(b->p->arena, "%zu", f->n_multi_args));
            return;
        }
        for (size_t i = 1; i < e->call.n; i++) {
            const schema_property_t *pr = schema_find_property(f->inputs, f->n_inputs, f->multi_args[i - 1]);
            bind_expr(b, pr ? pr->type : NULL, e->call.args[i]);
        }
        return;
    }
    if (e->call.n > 3) {
        bind_error(b, e, "invoke takes the function's token, its arguments and its options; %s has more", what, NULL);
        return;
    }
    if (e->call.n >= 2) bind_args(b, f, e->call.args[1], what);
    if (e->call.n == 3) {
        pcl_expr_t *o = e->call.args[2];
        if (o->kind != PCL_OBJECT) {
            bind_error(b, o, "the options of an invoke must be an object {provider = ..., dependsOn = [...]}", NULL,
                       NULL);
            return;
        }
        for (size_t i = 0; i < o->object.n; i++) {
            bool known = false;
            for (size_t k = 0; k < sizeof INVOKE_OPTIONS / sizeof *INVOKE_OPTIONS; k++)
                known |= strcmp(INVOKE_OPTIONS[k], o->object.items[i].key) == 0;
            if (!known)
                bind_error(b, o->object.items[i].value,
                           "'%s' is not an invoke option (they are provider, parent, version, pluginDownloadUrl and "
                           "dependsOn)%s",
                           o->object.items[i].key, NULL);
        }
    }
}

static void bind_method_call(binder_t *b, pcl_expr_t *e) {
    if (e->call.n != 3 || e->call.args[0]->kind != PCL_TRAVERSAL || e->call.args[0]->trav.n != 0 ||
        e->call.args[1]->kind != PCL_STRING) {
        bind_error(b, e, "call takes a resource, a method name and its arguments: call(res, \"method\", {...})", NULL,
                   NULL);
        return;
    }
    const char *root = e->call.args[0]->trav.root, *method = e->call.args[1]->s;
    int idx = pcl_program_find(b->p, root);
    const pcl_node_t *n = idx >= 0 ? &b->p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_RESOURCE || !n->schema) {
        bind_error(b, e, "call of '%s': '%s' is not a resource of the program with a schema", method, root);
        return;
    }
    const schema_method_t *m = schema_find_method(n->schema, method);
    const schema_function_t *f = m ? schema_find_function(n->package, m->function) : NULL;
    if (!f) {
        bind_error(b, e, "call of '%s': the resource type '%s' has no such method", method, n->schema->token);
        return;
    }
    e->function = f;
    e->package = n->package;
    e->type = f->return_type;
    bind_args(b, f, e->call.args[2], arena_sprintf(b->p->arena, "the method '%s'", method));
}

/* The type of `x.name` when x's type is known: an object's property, a map's element. */
static const schema_type_t *attr_type(pcl_expr_t *e) {
    if (e->type || e->kind != PCL_GETATTR) return e->type;
    const schema_type_t *t = attr_type(e->x);
    if (t && t->kind == SCHEMA_OBJECT && t->object) {
        const schema_property_t *pr = schema_find_property(t->object->props, t->object->n_props, e->s);
        return pr ? pr->type : NULL;
    }
    return t && t->kind == SCHEMA_MAP ? t->element : NULL;
}

static bool bind_fn_one(const pcl_expr_t *ce, void *ctx) {
    binder_t *b = ctx;
    pcl_expr_t *e = (pcl_expr_t *)ce; /* the program being bound owns its expressions */
    if (e->kind == PCL_CALL && e->call.name && strcmp(e->call.name, "invoke") == 0) bind_invoke(b, e);
    if (e->kind == PCL_CALL && e->call.name && strcmp(e->call.name, "call") == 0) bind_method_call(b, e);
    return true;
}

static bool type_attr_one(const pcl_expr_t *ce, void *ctx) {
    (void)ctx;
    pcl_expr_t *e = (pcl_expr_t *)ce;
    if (e->kind == PCL_GETATTR) e->type = attr_type(e);
    return true;
}

/* Binds every invoke and method call of the program, then types attributes read from their results. */
static void bind_functions(binder_t *b) {
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < b->p->n_nodes; i++) {
            pcl_node_t *n = &b->p->nodes[i];
            for (size_t k = 0; k < n->n_attrs + n->n_options; k++) {
                pcl_attr_t *a = k < n->n_attrs ? &n->attrs[k] : &n->options[k - n->n_attrs];
                pcl_expr_walk(a->value, pass ? type_attr_one : bind_fn_one, b);
            }
        }
}

/* Every call names one of PCL's built-in functions with as many arguments as it takes. */
typedef struct call_check {
    const pcl_program_t *p;
    const pcl_attr_t *at;
    diag_list_t *diags;
    bool ok;
} call_check_t;

static bool check_call(const pcl_expr_t *e, void *ctx) {
    call_check_t *c = ctx;
    if (e->kind != PCL_CALL) return true;
    const pcl_function_t *f = pcl_function_find(e->call.name);
    const char *file = c->p->filename ? c->p->filename : "<program>";
    int line = e->line ? e->line : c->at->line, col = e->line ? e->col : c->at->col;
    if (!f) {
        diag_add(c->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "%s:%d:%d: '%s' calls %s(), which is not a PCL function; check its spelling", file, line, col,
                 c->at->name, e->call.name);
        c->ok = false;
    } else if (!pcl_function_arity_ok(f, e->call.n)) {
        diag_add(c->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "%s:%d:%d: '%s' calls %s() with %zu argument%s; it takes %s", file, line, col, c->at->name,
                 e->call.name, e->call.n, e->call.n == 1 ? "" : "s", pcl_function_arity(f));
        c->ok = false;
    }
    return true;
}

static bool check_calls(const pcl_program_t *p, diag_list_t *diags) {
    call_check_t c = {.p = p, .diags = diags, .ok = true};
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        for (size_t k = 0; k < n->n_attrs; k++) {
            c.at = &n->attrs[k];
            pcl_expr_walk(n->attrs[k].value, check_call, &c);
        }
        for (size_t k = 0; k < n->n_options; k++) {
            c.at = &n->options[k];
            pcl_expr_walk(n->options[k].value, check_call, &c);
        }
    }
    return c.ok;
}

/* The `pulumi` package's built-in resources, which Pulumi's binder knows without a schema: a stack
 * reference (`name`, the stack; the Python SDK spells it stack_name) and Stash (its `input` saved in
 * the stack and read back as `output`). */
static const char PULUMI_SCHEMA[] =
    "{\"name\":\"pulumi\",\"version\":\"3.0.0\",\"resources\":{"
    "\"pulumi:pulumi:StackReference\":{\"inputProperties\":{\"name\":{\"type\":\"string\","
    "\"language\":{\"python\":{\"name\":\"stack_name\"}}}},\"requiredInputs\":[\"name\"],"
    "\"properties\":{\"name\":{\"type\":\"string\"},\"outputs\":{\"type\":\"object\","
    "\"additionalProperties\":{\"$ref\":\"pulumi.json#/Any\"}},\"secretOutputNames\":{\"type\":\"array\","
    "\"items\":{\"type\":\"string\"}}},\"required\":[\"name\",\"outputs\",\"secretOutputNames\"]},"
    "\"pulumi:index:Stash\":{\"inputProperties\":{\"input\":{\"$ref\":\"pulumi.json#/Any\"}},"
    "\"requiredInputs\":[\"input\"],\"properties\":{\"input\":{\"$ref\":\"pulumi.json#/Any\"},"
    "\"output\":{\"$ref\":\"pulumi.json#/Any\"}},\"required\":[\"input\",\"output\"]}}}";

static void free_schema(void *pkg) {
    schema_free(pkg);
}

/* The package of a resource token: the loaded schema, else for `pulumi` the built-in one (loaded
 * once per program and freed with it). */
static schema_package_t *resource_package(pcl_program_t *p, schema_set_t *schemas, const char *name,
                                          schema_package_t **builtin) {
    schema_package_t *pkg = schemas ? schema_set_get(schemas, name) : NULL;
    if (pkg || strcmp(name, "pulumi") != 0) return pkg;
    if (!*builtin) {
        diag_list_t d;
        diag_list_init(&d);
        *builtin = schema_load_buffer(PULUMI_SCHEMA, sizeof PULUMI_SCHEMA - 1, "pulumi (built in)", &d);
        diag_list_free(&d);
        if (*builtin) arena_on_free(p->arena, free_schema, *builtin);
    }
    return *builtin;
}

/* --- for expressions' variables ---------------------------------------------------------------------- */

/* A for expression's variables hide the program's names inside it, as in HCL: in
 * `[for pet in pets : pet.prefix]` beside a resource `pet`, `pet` is the item. Every stage after the
 * binder (the checks, output and shape analyses, each emitter) finds a traversal's node by its root
 * name, so a variable that is also a program name (a node, or a name outside the program) is given a
 * name no node, variable or reference of the program uses, and the reads it binds follow it: read12
 * F4 read the resource's prefix for every item. */
typedef struct for_names {
    pcl_program_t *p;
    pcl_smap_t taken; /* node names, traversal roots and for variables of the whole program */
    pcl_smap_t names; /* the names pcl_program_find finds (an index: a loop per for variable was O(n^2)) */
} for_names_t;

static bool taken_one(const pcl_expr_t *e, void *ctx) {
    pcl_smap_t *taken = ctx;
    if (e->kind == PCL_TRAVERSAL) pcl_smap_add(taken, e->trav.root, 0);
    if (e->kind == PCL_FOR) {
        if (e->kvar) pcl_smap_add(taken, e->kvar, 0);
        pcl_smap_add(taken, e->vvar, 0);
    }
    return true;
}

typedef struct rebinding {
    const char *from, *to;
} rebinding_t;

/* pcl_expr_walk's step of rebind: a root read renamed; a for expression binding `from` again renames in
 * its collection only (the walk hands out the program's own expressions, which binding may change). */
static bool rebind_one(const pcl_expr_t *ce, void *ctx) {
    const rebinding_t *r = ctx;
    pcl_expr_t *e = (pcl_expr_t *)ce;
    if (e->kind == PCL_TRAVERSAL && strcmp(e->trav.root, r->from) == 0) e->trav.root = r->to;
    if (e->kind == PCL_FOR && ((e->kvar && strcmp(e->kvar, r->from) == 0) || strcmp(e->vvar, r->from) == 0)) {
        pcl_expr_walk(e->x, rebind_one, ctx);
        return false;
    }
    return true;
}

/* Roots `from` read in e become `to`, but for those a for expression inside e binds again. */
static void rebind(pcl_expr_t *e, const char *from, const char *to) {
    rebinding_t r = {from, to};
    pcl_expr_walk(e, rebind_one, &r);
}

static const char *fresh_var(for_names_t *f, const char *name) {
    const char *fresh = arena_sprintf(f->p->arena, "%sItem", name);
    for (int k = 2; !pcl_smap_add(&f->taken, fresh, 0); k++)
        fresh = arena_sprintf(f->p->arena, "%sItem%d", name, k);
    return fresh;
}

static bool hides_program_name(const for_names_t *f, const char *var) {
    return pcl_smap_get(&f->names, var, NULL) || pcl_program_is_external(f->p, var);
}

static void rename_for_vars(for_names_t *f, pcl_expr_t *e) {
    if (!e) return;
    for (int k = 0; e->kind == PCL_FOR && k < 2; k++) {
        const char **var = k ? &e->vvar : &e->kvar;
        if (!*var || !hides_program_name(f, *var)) continue;
        const char *to = fresh_var(f, *var);
        rebind(e->y, *var, to);
        rebind(e->z, *var, to);
        rebind(e->w, *var, to);
        *var = to;
    }
    switch (e->kind) {
    case PCL_TUPLE:
    case PCL_TEMPLATE:
        for (size_t i = 0; i < e->tuple.n; i++)
            rename_for_vars(f, e->tuple.items[i]);
        return;
    case PCL_OBJECT:
        for (size_t i = 0; i < e->object.n; i++)
            rename_for_vars(f, e->object.items[i].value);
        return;
    case PCL_CALL:
        for (size_t i = 0; i < e->call.n; i++)
            rename_for_vars(f, e->call.args[i]);
        return;
    default: /* the collection, then the body's own for expressions */
        rename_for_vars(f, e->x);
        rename_for_vars(f, e->y);
        rename_for_vars(f, e->z);
        rename_for_vars(f, e->w);
        return;
    }
}

static bool has_for_one(const pcl_expr_t *e, void *ctx) {
    if (e->kind == PCL_FOR) *(bool *)ctx = true;
    return !*(bool *)ctx;
}

/* Renames the for variables that hide a program name (see for_names_t). Most programs have none
 * and pay one walk. */
static void bind_for_vars(pcl_program_t *p) {
    bool any = false;
    for (size_t i = 0; i < p->n_nodes && !any; i++)
        for (size_t pass = 0; pass < 2; pass++) {
            const pcl_node_t *n = &p->nodes[i];
            const pcl_attr_t *as = pass ? n->options : n->attrs;
            for (size_t k = 0; k < (pass ? n->n_options : n->n_attrs); k++)
                pcl_expr_walk(as[k].value, has_for_one, &any);
        }
    if (!any) return;
    for_names_t f = {p, {0}, {0}};
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        if (n->name) pcl_smap_add(&f.taken, n->name, 0);
        if (n->name && n->kind != PCL_NODE_PACKAGE && n->kind != PCL_NODE_OUTPUT) pcl_smap_add(&f.names, n->name, 0);
        for (size_t k = 0; k < n->n_attrs; k++)
            pcl_expr_walk(n->attrs[k].value, taken_one, &f.taken);
        for (size_t k = 0; k < n->n_options; k++)
            pcl_expr_walk(n->options[k].value, taken_one, &f.taken);
    }
    for (size_t i = 0; i < p->n_nodes; i++) {
        pcl_node_t *n = &p->nodes[i];
        for (size_t k = 0; k < n->n_attrs; k++)
            rename_for_vars(&f, n->attrs[k].value);
        for (size_t k = 0; k < n->n_options; k++)
            rename_for_vars(&f, n->options[k].value);
    }
    pcl_smap_free(&f.taken);
    pcl_smap_free(&f.names);
}

bool pcl_bind(pcl_program_t *p, schema_set_t *schemas, diag_list_t *diags) {
    bool ok = true;
    binder_t b = {p, schemas, diags, true};
    schema_package_t *builtin = NULL;
    if (!check_calls(p, diags)) ok = false;
    bind_for_vars(p);
    for (size_t i = 0; i < p->n_nodes; i++) {
        pcl_node_t *n = &p->nodes[i];
        if (n->kind == PCL_NODE_PACKAGE) {
            n->package = schemas ? schema_set_get(schemas, n->name) : NULL;
            continue;
        }
        if (n->kind != PCL_NODE_RESOURCE) continue;
        const char *token = n->token ? n->token : "";
        char *pkg_name = schema_token_package(p->arena, token);
        schema_package_t *pkg = resource_package(p, schemas, pkg_name, &builtin);
        if (!pkg) {
            char advice[DIAG_ADVICE_MAX];
            diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, NULL, NULL,
                     "resource '%s' has unknown type '%s': no schema for package '%s' is loaded%s", n->name, token,
                     pkg_name, diag_advice(advice, DIAG_ADVICE_SCHEMA_LOADED, pkg_name));
            ok = false;
            continue;
        }
        const schema_resource_t *r = schema_find_resource(pkg, token);
        if (!r) {
            /* `simple:Resource`, `module-format:mod:Resource`: the schema's token, which the
             * emitters then read the module from */
            const char *canon = canonical_token(p->arena, pkg, token, schema_resource_count, schema_resource_token_at);
            r = canon ? schema_find_resource(pkg, canon) : NULL;
            if (r) n->token = canon;
        }
        if (!r) {
            diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, NULL, NULL,
                     "resource '%s' has unknown type '%s': the %s schema has no such resource", n->name, token,
                     pkg_name);
            ok = false;
            continue;
        }
        n->package = pkg;
        n->schema = r;
        for (size_t k = 0; k < n->n_attrs; k++) {
            pcl_attr_t *a = &n->attrs[k];
            if (n->read && strcmp(a->name, "id") == 0) { /* the ID to read, a string */
                bind_expr(&b, NULL, a->value);
                continue;
            }
            /* a read resource's other attributes are its state: its output properties */
            a->prop = n->read ? schema_find_property(r->outputs, r->n_outputs, a->name)
                              : schema_find_property(r->inputs, r->n_inputs, a->name);
            if (!a->prop && n->read) {
                diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, NULL, NULL,
                         "read '%s' of type '%s' has no property '%s'; check its spelling in the schema", n->name,
                         token, a->name);
                ok = false;
            } else if (!a->prop) {
                diag_add(diags, DIAG_ERROR, DIAG_SCHEMA, NULL, NULL,
                         "resource '%s' of type '%s' has no input property '%s'; check its spelling in the schema",
                         n->name, token, a->name);
                ok = false;
            }
            bind_expr(&b, a->prop ? a->prop->type : NULL, a->value);
        }
    }
    bind_functions(&b);
    return b.ok && ok;
}

/* --- expressions back to values --------------------------------------------------------------------- */

static pv_t *new_special(arena_t *a, pv_kind_t kind) {
    pv_t *v = arena_alloc(a, sizeof *v);
    v->kind = kind;
    return v;
}

static const char *string_arg(const pcl_expr_t *e) {
    return e->call.n == 1 && e->call.args[0] && e->call.args[0]->kind == PCL_STRING ? e->call.args[0]->s : NULL;
}

static pv_t *call_to_value(arena_t *a, const pcl_expr_t *e) {
    const char *fn = e->call.name;
    if (strcmp(fn, "secret") == 0) {
        if (e->call.n != 1) return NULL;
        pv_t *inner = pcl_expr_to_value(a, e->call.args[0]);
        return inner ? pv_secret(a, inner) : NULL;
    }
    if (strcmp(fn, "assetArchive") == 0) {
        if (e->call.n != 1 || !e->call.args[0] || e->call.args[0]->kind != PCL_OBJECT) return NULL;
        const pcl_expr_t *o = e->call.args[0];
        pv_t *v = new_special(a, PV_ARCHIVE);
        v->u.archive.has_assets = true;
        v->u.archive.assets = arena_alloc(a, (o->object.n ? o->object.n : 1) * sizeof *v->u.archive.assets);
        for (size_t i = 0; i < o->object.n; i++) {
            pv_t *m = pcl_expr_to_value(a, o->object.items[i].value);
            if (!m || (m->kind != PV_ASSET && m->kind != PV_ARCHIVE)) return NULL;
            v->u.archive.assets[v->u.archive.nassets++] = (pv_member_t){arena_strdup(a, o->object.items[i].key), m};
        }
        return v;
    }
    const char *s = string_arg(e);
    if (!s) return NULL;
    pv_t *v;
    if (strcmp(fn, "fileAsset") == 0 || strcmp(fn, "stringAsset") == 0 || strcmp(fn, "remoteAsset") == 0) {
        v = new_special(a, PV_ASSET);
        const char *c = arena_strdup(a, s);
        if (fn[0] == 'f')
            v->u.asset.path = c;
        else if (fn[0] == 's')
            v->u.asset.text = c;
        else
            v->u.asset.uri = c;
        return v;
    }
    if (strcmp(fn, "fileArchive") == 0 || strcmp(fn, "remoteArchive") == 0) {
        v = new_special(a, PV_ARCHIVE);
        if (fn[0] == 'f')
            v->u.archive.path = arena_strdup(a, s);
        else
            v->u.archive.uri = arena_strdup(a, s);
        return v;
    }
    return NULL;
}

pv_t *pcl_expr_to_value(arena_t *a, const pcl_expr_t *e) {
    if (!e) return NULL;
    switch (e->kind) {
    case PCL_NULL: return pv_null(a);
    case PCL_BOOL: return pv_bool(a, e->b);
    case PCL_NUMBER: return pv_number(a, e->n);
    case PCL_STRING: return pv_string(a, e->s ? e->s : "");
    case PCL_TUPLE: {
        pv_t *arr = pv_array(a);
        for (size_t i = 0; i < e->tuple.n; i++) {
            pv_t *v = pcl_expr_to_value(a, e->tuple.items[i]);
            if (!v) return NULL;
            pv_array_push(a, arr, v);
        }
        return arr;
    }
    case PCL_OBJECT: {
        pv_t *obj = pv_object(a);
        for (size_t i = 0; i < e->object.n; i++) {
            pv_t *v = pcl_expr_to_value(a, e->object.items[i].value);
            if (!v) return NULL;
            pv_object_set(a, obj, e->object.items[i].key, v);
        }
        return obj;
    }
    case PCL_TRAVERSAL: {
        char *text = pcl_print_expr(e);
        pv_t *v = pv_string(a, text);
        free(text);
        return v;
    }
    case PCL_CALL: return call_to_value(a, e);
    case PCL_TEMPLATE: /* computed by the program, not literal values */
    case PCL_UNARY:
    case PCL_BINARY:
    case PCL_COND:
    case PCL_INDEX:
    case PCL_GETATTR:
    case PCL_SPLAT:
    case PCL_FOR: return NULL;
    }
    return NULL;
}

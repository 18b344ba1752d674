/* python.c — the Python emitter: PCL program → __main__.py for the Pulumi Python SDK.
 *
 * Same shape as the other emitters: a program walker (imports, then nodes in order), an
 * expression printer guided by the schema type at each position, and names.h for naming. Layout
 * follows Pulumi's python program generator (pcl-emitters §3.2, §4.2): keyword arguments named by
 * PyName, the "hanging" call layout with `)` glued to the last argument, `opts =
 * pulumi.ResourceOptions(...)` in Pulumi's fixed option order, nested schema objects as TypedDict
 * dict literals with PyName'd keys (or `...Args(...)` classes when the package's python
 * `inputTypes` is "classes"), and `float(42)` where a number property gets an integer. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit_internal.h"

typedef struct py_pkg {
    const char *name;   /* package name (`azuread`) */
    const char *module; /* Python module (`pulumi_azuread`) */
    const char *alias;  /* import alias (`azuread`) */
    schema_package_t *schema;
} py_pkg_t;

typedef struct py_gen {
    arena_t *a;
    const pcl_program_t *p;
    diag_list_t *diags;
    buf_t *b;
    names_table_t *idents;
    names_table_t *nodes; /* PCL node name → node index */
    const char **ident;   /* per node: its Python identifier */
    py_pkg_t *pkgs;
    size_t n_pkgs;
    int indent;
    /* inside an apply: output atoms written as the lambda's parameter (see emit_apply_t) */
    const pcl_expr_t **subst;
    const char **subst_name;
    size_t *subst_skip;
    size_t n_subst;
    bool subst_all; /* several outputs: resolved_outputs['name'] */
    bool in_apply;
    const char *scope[EMIT_MAX_SCOPE]; /* for-expression variables in scope */
    size_t n_scope;
} py_gen_t;

static void py_expr(py_gen_t *g, const pcl_expr_t *e);

static const char *node_logical_name(const pcl_node_t *n) { return n->logical_name ? n->logical_name : n->name; }

static const char *node_package_name(arena_t *a, const pcl_node_t *n) {
    if (n->package) return n->package->name;
    return schema_token_package(a, n->token);
}

static const py_pkg_t *py_find_pkg(const py_gen_t *g, const char *name) {
    for (size_t i = 0; i < g->n_pkgs; i++)
        if (strcmp(g->pkgs[i].name, name) == 0) return &g->pkgs[i];
    return NULL;
}

static int py_pkg_cmp(const void *x, const void *y) {
    return strcmp(((const py_pkg_t *)x)->module, ((const py_pkg_t *)y)->module);
}

static char *py_dashes_to_underscores(arena_t *a, const char *s) {
    char *r = arena_strdup(a, s);
    for (char *c = r; *c; c++)
        if (*c == '-') *c = '_';
    return r;
}

static void py_collect_packages(py_gen_t *g) {
    size_t cap = 0;
    for (size_t i = 0; i < g->p->n_nodes; i++) {
        const pcl_node_t *n = &g->p->nodes[i];
        if (n->kind != PCL_NODE_RESOURCE || !n->token) continue;
        const char *name = node_package_name(g->a, n);
        if (py_find_pkg(g, name)) continue;
        if (g->n_pkgs == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            g->pkgs = arena_grow(g->a, g->pkgs, cap * sizeof *g->pkgs, ncap * sizeof *g->pkgs);
            cap = ncap;
        }
        py_pkg_t *pk = &g->pkgs[g->n_pkgs++];
        pk->name = name;
        pk->schema = n->package;
        if (n->package && n->package->python_package_name && *n->package->python_package_name) pk->module = n->package->python_package_name;
        else
            pk->module = arena_sprintf(g->a, "%s_%s",
                                       n->package && n->package->namespace_ && *n->package->namespace_
                                           ? py_dashes_to_underscores(g->a, n->package->namespace_)
                                           : "pulumi",
                                       py_dashes_to_underscores(g->a, name));
    }
    if (g->n_pkgs > 1) qsort(g->pkgs, g->n_pkgs, sizeof *g->pkgs, py_pkg_cmp);
    for (size_t i = 0; i < g->n_pkgs; i++) {
        char *base = names_py_name(g->a, names_make_valid_identifier(g->a, LANG_PYTHON, g->pkgs[i].name));
        g->pkgs[i].alias = names_table_unique(g->idents, names_make_valid_identifier(g->a, LANG_PYTHON, base), "_", 1);
    }
}

/* `<alias>[.<mod>...]`: module per moduleFormat, `language.python.moduleNameOverrides` applied,
 * else lowercased with each `/` part PyName'd; `index` has no module. */
static char *py_module_prefix(py_gen_t *g, const py_pkg_t *pk, const char *token) {
    char *mod = schema_token_module(g->a, pk->schema, token);
    /* without a schema, assume the common moduleFormat `(.*)(?:/[^/]*)` (`index/bucket` → `index`) */
    char *slash = pk->schema ? NULL : strrchr(mod, '/');
    if (slash) *slash = 0;
    if (!*mod || strcmp(mod, "index") == 0) return arena_strdup(g->a, pk->alias);
    if (pk->schema && pk->schema->language) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(pk->schema->language, "python"),
                                             "moduleNameOverrides"),
            mod);
        if (cJSON_IsString(o)) {
            char *r = arena_sprintf(g->a, "%s.%s", pk->alias, o->valuestring);
            for (char *c = r; *c; c++)
                if (*c == '/') *c = '.';
            return r;
        }
    }
    buf_t b;
    buf_init(&b);
    buf_puts(&b, pk->alias);
    char *save = NULL;
    for (char *seg = strtok_r(mod, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
        for (char *c = seg; *c; c++) *c = (char)tolower((unsigned char)*c);
        buf_putc(&b, '.');
        buf_puts(&b, names_make_valid_identifier(g->a, LANG_PYTHON, names_py_name(g->a, seg)));
    }
    char *r = buf_arena_str(&b, g->a);
    buf_free(&b);
    return r;
}

/* The keyword-argument name of a resource input: `language.python.name` if the schema has one,
 * else PyName; keywords and the constructor's own `resource_name`/`opts` get a `_` suffix. */
static const char *py_param_name(py_gen_t *g, const char *name, const schema_property_t *prop) {
    const char *n = prop && prop->python_name ? prop->python_name : names_py_name(g->a, name);
    if (strcmp(n, "resource_name") == 0 || strcmp(n, "opts") == 0) return arena_sprintf(g->a, "%s_", n);
    return names_make_valid_identifier(g->a, LANG_PYTHON, n);
}

static void py_newline(py_gen_t *g) {
    buf_putc(g->b, '\n');
    buf_indent(g->b, g->indent);
}

/* Pulumi's quote choice: `"..."` unless the string has more than one newline or an interior one,
 * then `"""..."""` with raw newlines. Unlike Pulumi, `\` and quotes that would end the literal are
 * escaped inside triple quotes too, so every string compiles. */
static void py_string(py_gen_t *g, const char *s) {
    size_t n = strlen(s), nls = 0;
    for (const char *c = s; *c; c++) nls += *c == '\n';
    const char *nl = strchr(s, '\n');
    bool triple = nls > 1 || (nls == 1 && nl != s && nl != s + n - 1);
    if (!triple) {
        names_append_quoted(g->b, LANG_PYTHON, s);
        return;
    }
    buf_puts(g->b, "\"\"\"");
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\\') buf_puts(g->b, "\\\\");
        else if (c == '"' && (p[1] == '"' || p[1] == 0)) buf_puts(g->b, "\\\"");
        else if (c == '\r') buf_puts(g->b, "\\r");
        else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) buf_printf(g->b, "\\x%02x", c);
        else buf_putc(g->b, (char)c);
    }
    buf_puts(g->b, "\"\"\"");
}

/* A literal at an enum position becomes `<alias>[.<mod>].<Enum>.<MEMBER>`; false if not a member. */
static bool py_enum(py_gen_t *g, const pcl_expr_t *e) {
    const schema_type_t *t = names_enum_type_at(e->type);
    if (!t || !t->token || e->kind == PCL_BOOL) return false;
    const schema_enum_value_t *ev = names_enum_value_of(t, e);
    char *pkg, *member;
    if (!ev || !names_token_split(g->a, t->token, &pkg, NULL, &member)) return false;
    const py_pkg_t *pk = py_find_pkg(g, pkg);
    char *m = names_enum_member(g->a, LANG_PYTHON, ev, member);
    if (!pk || !m) return false;
    buf_printf(g->b, "%s.%s.%s", py_module_prefix(g, pk, t->token), member, m);
    return true;
}

static void py_number(py_gen_t *g, const pcl_expr_t *e) {
    if (py_enum(g, e)) return;
    schema_kind_t k = e->type ? e->type->kind : SCHEMA_ANY;
    bool is_int = names_number_is_int(e->n);
    /* the SDK's type hints want a float for `number` and an int for `integer` */
    const char *wrap = (k == SCHEMA_NUMBER && is_int) ? "float" : (k == SCHEMA_INT && !is_int) ? "int" : NULL;
    if (wrap) buf_printf(g->b, "%s(", wrap);
    names_append_number(g->b, e->n);
    if (wrap) buf_putc(g->b, ')');
}

static bool py_in_scope(const py_gen_t *g, const char *name) {
    for (size_t i = g->n_scope; i > 0; i--)
        if (strcmp(g->scope[i - 1], name) == 0) return true;
    return false;
}

static void py_trav_parts(py_gen_t *g, const pcl_trav_part_t *parts, size_t from, size_t n);

static void py_traversal(py_gen_t *g, const pcl_expr_t *e) {
    int idx = names_table_get(g->nodes, e->trav.root);
    if (py_in_scope(g, e->trav.root)) {
        buf_puts(g->b, e->trav.root); /* a for-expression variable */
    } else if (idx >= 0) {
        buf_puts(g->b, g->ident[idx]);
    } else if (pcl_program_is_external(g->p, e->trav.root)) {
        buf_puts(g->b, e->trav.root); /* a variable of the file the code goes into, already Python */
    } else {
        diag_add(g->diags, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL,
                 "reference to '%s', which the program does not declare; the Python code uses the name as is",
                 e->trav.root);
        buf_puts(g->b, names_make_valid_identifier(g->a, LANG_PYTHON, names_py_name(g->a, e->trav.root)));
    }
    py_trav_parts(g, e->trav.parts, 0, e->trav.n);
}

static void py_trav_parts(py_gen_t *g, const pcl_trav_part_t *parts, size_t from, size_t n) {
    for (size_t i = from; i < n; i++) {
        const pcl_trav_part_t *pt = &parts[i];
        if (pt->attr) {
            buf_putc(g->b, '.');
            buf_puts(g->b, names_make_valid_identifier(g->a, LANG_PYTHON, names_py_name(g->a, pt->attr)));
        } else if (pt->index_is_string) {
            buf_putc(g->b, '[');
            names_append_quoted(g->b, LANG_PYTHON, pt->index_str);
            buf_putc(g->b, ']');
        } else {
            buf_printf(g->b, "[%zu]", pt->index_num);
        }
    }
}

static void py_call(py_gen_t *g, const pcl_expr_t *e) {
    static const struct {
        const char *pcl, *py;
    } calls[] = {{"secret", "pulumi.Output.secret"},       {"fileAsset", "pulumi.FileAsset"},
                 {"stringAsset", "pulumi.StringAsset"},     {"remoteAsset", "pulumi.RemoteAsset"},
                 {"fileArchive", "pulumi.FileArchive"},     {"remoteArchive", "pulumi.RemoteArchive"},
                 {"assetArchive", "pulumi.AssetArchive"}};
    const char *fn = NULL;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (strcmp(calls[i].pcl, e->call.name) == 0) fn = calls[i].py;
    if (!fn) {
        diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "the Python emitter does not know the PCL function '%s'; only secret and the asset/archive "
                 "functions appear in imported programs",
                 e->call.name);
        fn = e->call.name;
    }
    buf_puts(g->b, fn);
    buf_putc(g->b, '(');
    for (size_t i = 0; i < e->call.n; i++) {
        if (i) buf_puts(g->b, ", ");
        py_expr(g, e->call.args[i]);
    }
    buf_putc(g->b, ')');
}

/* True when the package wants input classes (`inputTypes: "classes"`) instead of TypedDicts. */
static bool py_uses_classes(py_gen_t *g, const char *type_token, const py_pkg_t **pk) {
    char *pkg;
    if (!type_token || !names_token_split(g->a, type_token, &pkg, NULL, NULL)) return false;
    *pk = py_find_pkg(g, pkg);
    return *pk && (*pk)->schema && (*pk)->schema->python_input_types &&
           strcmp((*pk)->schema->python_input_types, "classes") == 0;
}

static void py_object(py_gen_t *g, const pcl_expr_t *e) {
    bool schema_object = e->type && e->type->kind == SCHEMA_OBJECT;
    for (size_t i = 0; !schema_object && i < e->object.n; i++) schema_object = e->object.items[i].prop != NULL;
    const py_pkg_t *pk = NULL;
    if (schema_object && e->type && e->type->kind == SCHEMA_OBJECT && py_uses_classes(g, e->type->token, &pk)) {
        char *member;
        names_token_split(g->a, e->type->token, NULL, NULL, &member);
        buf_printf(g->b, "%s.%sArgs(", py_module_prefix(g, pk, e->type->token), names_title(g->a, member));
        g->indent += 4;
        for (size_t i = 0; i < e->object.n; i++) {
            py_newline(g);
            buf_printf(g->b, "%s=", py_param_name(g, e->object.items[i].key, e->object.items[i].prop));
            py_expr(g, e->object.items[i].value);
            buf_putc(g->b, ',');
        }
        g->indent -= 4;
        if (e->object.n) py_newline(g);
        buf_putc(g->b, ')');
        return;
    }
    if (e->object.n == 0) {
        buf_puts(g->b, "{}");
        return;
    }
    buf_putc(g->b, '{');
    g->indent += 4;
    for (size_t i = 0; i < e->object.n; i++) {
        const pcl_object_item_t *it = &e->object.items[i];
        py_newline(g);
        /* TypedDict keys are the Python names of the schema properties; map keys stay verbatim */
        const char *key = schema_object ? (it->prop && it->prop->python_name ? it->prop->python_name
                                                                              : names_py_name(g->a, it->key))
                                        : it->key;
        names_append_quoted(g->b, LANG_PYTHON, key);
        buf_puts(g->b, ": ");
        py_expr(g, it->value);
        buf_putc(g->b, ',');
    }
    g->indent -= 4;
    py_newline(g);
    buf_putc(g->b, '}');
}

/* --- expressions beyond literals: templates, operators, conditionals, for, splat ------------------- */

/* A template as an f-string, Pulumi's form; `{`/`}` doubled in the text. An interpolated
 * expression whose Python text holds a quote, a backslash or a new line (not allowed inside an
 * f-string's braces before Python 3.12) makes it a `"".join([...])` of the parts instead. */
static void py_template(py_gen_t *g, const pcl_expr_t *e) {
    buf_t *outer = g->b;
    size_t n = e->tuple.n;
    char **texts = arena_alloc(g->a, (n + 1) * sizeof *texts);
    bool fstring = true;
    for (size_t i = 0; i < n; i++) {
        buf_t t;
        buf_init(&t);
        g->b = &t;
        if (e->tuple.items[i]->kind == PCL_STRING) names_append_quoted(&t, LANG_PYTHON, e->tuple.items[i]->s);
        else py_expr(g, e->tuple.items[i]);
        g->b = outer;
        texts[i] = buf_arena_str(&t, g->a);
        buf_free(&t);
        if (e->tuple.items[i]->kind != PCL_STRING) fstring &= !strpbrk(texts[i], "\"\\\n'{}");
    }
    if (!fstring) {
        buf_puts(outer, "\"\".join([");
        for (size_t i = 0; i < n; i++) {
            if (i) buf_puts(outer, ", ");
            if (e->tuple.items[i]->kind == PCL_STRING) buf_puts(outer, texts[i]);
            else buf_printf(outer, "str(%s)", texts[i]);
        }
        buf_puts(outer, "])");
        return;
    }
    buf_puts(outer, "f\"");
    for (size_t i = 0; i < n; i++) {
        if (e->tuple.items[i]->kind != PCL_STRING) {
            buf_printf(outer, "{%s}", texts[i]);
            continue;
        }
        const char *s = texts[i] + 1; /* the quoted chunk without its quotes */
        size_t len = strlen(s) - 1;
        for (size_t k = 0; k < len; k++) {
            if (s[k] == '{' || s[k] == '}') buf_putc(outer, s[k]);
            buf_putc(outer, s[k]);
        }
    }
    buf_putc(outer, '"');
}

static void py_operand(py_gen_t *g, const pcl_expr_t *parent, const pcl_expr_t *child, bool right) {
    /* `not` binds looser than comparisons in Python: `(not a) == b` */
    bool paren = emit_operand_needs_parens(parent, child, right) ||
                 (child->kind == PCL_UNARY && child->op[0] == '!' && parent->kind != PCL_COND &&
                  !(parent->kind == PCL_BINARY && emit_binop_prec(parent->op) <= 2));
    if (paren) buf_putc(g->b, '(');
    py_expr(g, child);
    if (paren) buf_putc(g->b, ')');
}

static const char *py_binop(const char *op) {
    if (strcmp(op, "&&") == 0) return "and";
    if (strcmp(op, "||") == 0) return "or";
    return op;
}

static bool py_scope_push(py_gen_t *g, const pcl_expr_t *e) {
    if (g->n_scope + 2 > EMIT_MAX_SCOPE) {
        diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "%d:%d: for expressions nested more than 8 deep are not supported", e->line, e->col);
        return false;
    }
    if (e->kvar) g->scope[g->n_scope++] = e->kvar;
    g->scope[g->n_scope++] = e->vvar;
    return true;
}

/* Pulumi's Python for a for expression: a list or dict comprehension; lists with an index through
 * enumerate, maps through sorted(items()). */
static void py_for(py_gen_t *g, const pcl_expr_t *e) {
    emit_shape_t sh = emit_expr_shape(g->p, g->nodes, e->x);
    if (sh != EMIT_SHAPE_LIST && sh != EMIT_SHAPE_MAP && sh != EMIT_SHAPE_OBJECT) {
        diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "%d:%d: the Python emitter cannot tell whether this for expression ranges over a list or a map; "
                 "assign the collection to a local list or object first",
                 e->line, e->col);
        return;
    }
    size_t saved = g->n_scope;
    if (!py_scope_push(g, e)) return;
    buf_putc(g->b, e->for_object ? '{' : '[');
    if (e->for_object) {
        py_expr(g, e->y);
        buf_puts(g->b, ": ");
    }
    py_expr(g, e->z);
    g->n_scope = saved; /* the collection does not see the variables */
    if (sh == EMIT_SHAPE_LIST) {
        if (e->kvar) {
            buf_printf(g->b, " for %s, %s in enumerate(", e->kvar, e->vvar);
            py_expr(g, e->x);
            buf_putc(g->b, ')');
        } else {
            buf_printf(g->b, " for %s in ", e->vvar);
            py_operand(g, e, e->x, false);
        }
    } else {
        buf_printf(g->b, " for %s, %s in sorted(", e->kvar ? e->kvar : "_", e->vvar);
        py_operand(g, e, e->x, false);
        buf_puts(g->b, ".items())");
    }
    py_scope_push(g, e);
    if (e->w) {
        buf_puts(g->b, " if ");
        py_expr(g, e->w);
    }
    g->n_scope = saved;
    buf_putc(g->b, e->for_object ? '}' : ']');
}

/* The expression itself, its output atoms already resolved (or none). */
static void py_computed(py_gen_t *g, const pcl_expr_t *e) {
    switch (e->kind) {
    case PCL_TEMPLATE: py_template(g, e); return;
    case PCL_UNARY:
        buf_puts(g->b, e->op[0] == '!' ? "not " : "-");
        py_operand(g, e, e->x, false);
        return;
    case PCL_BINARY: {
        /* `x is None` as Pulumi writes a comparison with null */
        bool null_cmp = (e->x->kind == PCL_NULL || e->y->kind == PCL_NULL) && emit_binop_prec(e->op) == 3;
        const pcl_expr_t *l = e->x->kind == PCL_NULL && null_cmp ? e->y : e->x;
        py_operand(g, e, l, false);
        if (null_cmp) {
            buf_puts(g->b, e->op[0] == '=' ? " is None" : " is not None");
            return;
        }
        buf_printf(g->b, " %s ", py_binop(e->op));
        py_operand(g, e, e->y, true);
        return;
    }
    case PCL_COND:
        py_operand(g, e, e->y, false);
        buf_puts(g->b, " if ");
        py_operand(g, e, e->x, false);
        buf_puts(g->b, " else ");
        py_operand(g, e, e->z, false);
        return;
    case PCL_INDEX:
        py_operand(g, e, e->x, false);
        buf_putc(g->b, '[');
        py_expr(g, e->y);
        buf_putc(g->b, ']');
        return;
    case PCL_GETATTR:
        py_operand(g, e, e->x, false);
        buf_putc(g->b, '.');
        buf_puts(g->b, names_make_valid_identifier(g->a, LANG_PYTHON, names_py_name(g->a, e->s)));
        return;
    case PCL_SPLAT:
        buf_puts(g->b, "[__item");
        py_trav_parts(g, e->trav.parts, 0, e->trav.n);
        buf_puts(g->b, " for __item in ");
        py_operand(g, e, e->x, false);
        buf_putc(g->b, ']');
        return;
    case PCL_FOR: py_for(g, e); return;
    default: py_expr(g, e); return;
    }
}

/* An expression computed from outputs, as Pulumi writes it: `a.apply(lambda x: ...)` for one
 * output, `pulumi.Output.all(x=a, y=b).apply(lambda resolved_outputs: ...)` for several. */
static void py_apply(py_gen_t *g, const pcl_expr_t *e) {
    emit_apply_t ap;
    emit_apply_plan(g->a, g->p, g->nodes, g->ident, LANG_PYTHON, e, g->scope, g->n_scope, &ap);
    if (ap.nu == 1) {
        if (!ap.head_is_output) buf_puts(g->b, "pulumi.Output.from_input(");
        py_expr(g, ap.heads[ap.uniq[0]]);
        buf_printf(g->b, "%s.apply(lambda %s: ", ap.head_is_output ? "" : ")", ap.names[ap.uniq[0]]);
    } else {
        buf_puts(g->b, "pulumi.Output.all(");
        for (size_t k = 0; k < ap.nu; k++) {
            buf_printf(g->b, "%s%s=", k ? ", " : "", ap.names[ap.uniq[k]]);
            py_expr(g, ap.heads[ap.uniq[k]]);
        }
        buf_puts(g->b, ").apply(lambda resolved_outputs: ");
    }
    g->subst = ap.atoms;
    g->subst_name = ap.names;
    g->subst_skip = ap.skip;
    g->n_subst = ap.n;
    g->subst_all = ap.nu > 1;
    g->in_apply = true;
    py_computed(g, e);
    g->in_apply = false;
    g->n_subst = 0;
    buf_putc(g->b, ')');
}

static void py_expr(py_gen_t *g, const pcl_expr_t *e) {
    for (size_t i = 0; i < g->n_subst; i++)
        if (g->subst[i] == e) {
            if (g->subst_all) buf_printf(g->b, "resolved_outputs['%s']", g->subst_name[i]);
            else buf_puts(g->b, g->subst_name[i]);
            if (e->kind == PCL_TRAVERSAL) py_trav_parts(g, e->trav.parts, g->subst_skip[i], e->trav.n);
            return;
        }
    switch (e->kind) {
    case PCL_NULL: buf_puts(g->b, "None"); break;
    case PCL_BOOL: buf_puts(g->b, e->b ? "True" : "False"); break;
    case PCL_NUMBER: py_number(g, e); break;
    case PCL_STRING:
        if (!py_enum(g, e)) py_string(g, e->s);
        break;
    case PCL_TUPLE:
        if (e->tuple.n == 0) {
            buf_puts(g->b, "[]");
        } else if (e->tuple.n == 1) {
            buf_putc(g->b, '[');
            py_expr(g, e->tuple.items[0]);
            buf_putc(g->b, ']');
        } else {
            buf_putc(g->b, '[');
            g->indent += 4;
            for (size_t i = 0; i < e->tuple.n; i++) {
                py_newline(g);
                py_expr(g, e->tuple.items[i]);
                buf_putc(g->b, ',');
            }
            g->indent -= 4;
            py_newline(g);
            buf_putc(g->b, ']');
        }
        break;
    case PCL_OBJECT: py_object(g, e); break;
    case PCL_TRAVERSAL: py_traversal(g, e); break;
    EMIT_CASE_LANGUAGE_EXPRS:
        if (g->in_apply || !emit_has_output(g->p, g->nodes, e)) py_computed(g, e);
        else py_apply(g, e);
        break;
    case PCL_CALL: py_call(g, e); break;
    }
}

/* ignore_changes entries are property paths written as strings. */
static void py_path_string(py_gen_t *g, const pcl_expr_t *e) {
    if (e->kind == PCL_STRING || !names_append_path_literal(g->b, LANG_PYTHON, e)) py_expr(g, e);
}

/* One alias: a URN string, or `pulumi.Alias(name=..., type_=..., parent=...)`; `noParent = true`
 * is `parent=None` (no parent), which the SDK tells apart from the default (inherit). */
static void py_alias(py_gen_t *g, const pcl_expr_t *e) {
    if (e->kind != PCL_OBJECT) {
        py_expr(g, e);
        return;
    }
    buf_puts(g->b, "pulumi.Alias(");
    bool first = true;
    for (size_t i = 0; i < e->object.n; i++) {
        const pcl_object_item_t *it = &e->object.items[i];
        bool no_parent = strcmp(it->key, "noParent") == 0;
        if (no_parent && !it->value->b) continue;
        if (!first) buf_puts(g->b, ", ");
        first = false;
        if (no_parent) {
            buf_puts(g->b, "parent=None");
            continue;
        }
        buf_printf(g->b, "%s=", strcmp(it->key, "type") == 0 ? "type_" : it->key);
        py_expr(g, it->value);
    }
    buf_putc(g->b, ')');
}

/* Pulumi's lowerResourceOptions order and the ResourceOptions keyword of each PCL option. */
static const struct {
    const char *pcl, *py;
} PY_OPTIONS[] = {{"aliases", "aliases"},
                  {"parent", "parent"},
                  {"provider", "provider"},
                  {"providers", "providers"},
                  {"dependsOn", "depends_on"},
                  {"protect", "protect"},
                  {"retainOnDelete", "retain_on_delete"},
                  {"ignoreChanges", "ignore_changes"},
                  {"deletedWith", "deleted_with"},
                  {"replaceWith", "replace_with"},
                  {"replacementTrigger", "replacement_trigger"},
                  {"import", "import_"},
                  {"hideDiffs", "hide_diffs"},
                  {"replaceOnChanges", "replace_on_changes"},
                  {"deleteBeforeReplace", "delete_before_replace"},
                  {"additionalSecretOutputs", "additional_secret_outputs"},
                  {"customTimeouts", "custom_timeouts"},
                  {"version", "version"},
                  {"pluginDownloadURL", "plugin_download_url"}};

/* `,\n<indent>opts = pulumi.ResourceOptions(k=v,\n<indent+4>k=v)` (`, opts = ...` without inputs). */
static void py_options(py_gen_t *g, const pcl_node_t *n, int n_inputs) {
    if (n->n_options == 0) return;
    int base = n_inputs > 1 ? 4 : 0;
    if (n_inputs > 0) {
        buf_puts(g->b, ",\n");
        buf_indent(g->b, base);
    } else {
        buf_puts(g->b, ", ");
    }
    buf_puts(g->b, "opts = pulumi.ResourceOptions(");
    int saved = g->indent;
    g->indent = base + 4;
    bool first = true;
    for (size_t k = 0; k < sizeof PY_OPTIONS / sizeof PY_OPTIONS[0]; k++) {
        for (size_t i = 0; i < n->n_options; i++) {
            const pcl_attr_t *o = &n->options[i];
            if (strcmp(o->name, PY_OPTIONS[k].pcl) != 0) continue;
            if (!first) {
                buf_putc(g->b, ',');
                py_newline(g);
            }
            first = false;
            buf_printf(g->b, "%s=", PY_OPTIONS[k].py);
            pcl_option_kind_t kind = pcl_option_kind(o->name);
            if ((kind == PCL_OPT_PATHS || kind == PCL_OPT_ALIASES) && o->value->kind == PCL_TUPLE) {
                /* property names are strings (`["value"]`), never bare identifiers */
                const pcl_expr_t *t = o->value;
                buf_putc(g->b, '[');
                g->indent += 4;
                for (size_t j = 0; j < t->tuple.n; j++) {
                    if (t->tuple.n > 1) py_newline(g);
                    if (kind == PCL_OPT_PATHS) py_path_string(g, t->tuple.items[j]);
                    else py_alias(g, t->tuple.items[j]);
                    if (t->tuple.n > 1) buf_putc(g->b, ',');
                }
                g->indent -= 4;
                if (t->tuple.n > 1) py_newline(g);
                buf_putc(g->b, ']');
            } else if (kind == PCL_OPT_TIMEOUTS && o->value->kind == PCL_OBJECT) {
                buf_puts(g->b, "pulumi.CustomTimeouts(");
                for (size_t j = 0; j < o->value->object.n; j++) {
                    if (j) buf_puts(g->b, ", ");
                    buf_printf(g->b, "%s=", o->value->object.items[j].key);
                    py_expr(g, o->value->object.items[j].value);
                }
                buf_putc(g->b, ')');
            } else {
                py_expr(g, o->value);
            }
        }
    }
    g->indent = saved;
    buf_putc(g->b, ')');
    for (size_t i = 0; i < n->n_options; i++) {
        bool known = false;
        for (size_t k = 0; k < sizeof PY_OPTIONS / sizeof PY_OPTIONS[0]; k++)
            known |= strcmp(n->options[i].name, PY_OPTIONS[k].pcl) == 0;
        if (!known)
            diag_add(g->diags, DIAG_WARNING, DIAG_CODEGEN, NULL,
                     arena_sprintf(g->a, "resource '%s'", node_logical_name(n)),
                     "the resource option '%s' has no Python equivalent and was left out", n->options[i].name);
    }
}

static void py_resource(py_gen_t *g, size_t idx) {
    const pcl_node_t *n = &g->p->nodes[idx];
    const py_pkg_t *pk = py_find_pkg(g, node_package_name(g->a, n));
    const char *cls;
    if (strncmp(n->token, "pulumi:providers:", 17) == 0) {
        cls = arena_sprintf(g->a, "%s.Provider", pk->alias);
    } else {
        char *member;
        if (!names_token_split(g->a, n->token, NULL, NULL, &member)) {
            diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL,
                     arena_sprintf(g->a, "resource '%s' of type '%s'", node_logical_name(n), n->token),
                     "the type token is not of the form package:module:Type; fix the token in the program");
            return;
        }
        /* the SDK's class is the token's member title-cased (`someResource` → SomeResource) */
        cls = arena_sprintf(g->a, "%s.%s", py_module_prefix(g, pk, n->token), names_pascal(g->a, member));
    }
    buf_printf(g->b, "%s = %s(", g->ident[idx], cls);
    names_append_quoted(g->b, LANG_PYTHON, node_logical_name(n));
    int saved = g->indent;
    if (n->n_attrs > 1) g->indent += 4;
    for (size_t i = 0; i < n->n_attrs; i++) {
        if (n->n_attrs == 1) buf_puts(g->b, ", ");
        else {
            buf_putc(g->b, ',');
            py_newline(g);
        }
        buf_printf(g->b, "%s=", py_param_name(g, n->attrs[i].name, n->attrs[i].prop));
        py_expr(g, n->attrs[i].value);
    }
    g->indent = saved;
    py_options(g, n, (int)n->n_attrs);
    buf_puts(g->b, ")\n");
}

static void py_component(py_gen_t *g, size_t idx) {
    const pcl_node_t *n = &g->p->nodes[idx];
    buf_printf(g->b, "%s = pulumi.ComponentResource(", g->ident[idx]);
    names_append_quoted(g->b, LANG_PYTHON, n->token ? n->token : "");
    buf_puts(g->b, ", ");
    names_append_quoted(g->b, LANG_PYTHON, node_logical_name(n));
    if (n->n_attrs > 0) {
        /* the component's inputs: its props dict, keys as written */
        buf_puts(g->b, ", {");
        for (size_t i = 0; i < n->n_attrs; i++) {
            if (i) buf_puts(g->b, ", ");
            names_append_quoted(g->b, LANG_PYTHON, n->attrs[i].name);
            buf_puts(g->b, ": ");
            py_expr(g, n->attrs[i].value);
        }
        buf_putc(g->b, '}');
    }
    py_options(g, n, 0);
    buf_puts(g->b, ")\n");
}

static void py_config(py_gen_t *g, size_t idx, const char *config_var) {
    const pcl_node_t *n = &g->p->nodes[idx];
    const char *t = n->token ? n->token : "string";
    const char *kind = "";
    if (strcmp(t, "int") == 0) kind = "_int";
    else if (strcmp(t, "number") == 0) kind = "_float";
    else if (strcmp(t, "bool") == 0) kind = "_bool";
    else if (strcmp(t, "string") != 0) kind = "_object";
    buf_printf(g->b, "%s = %s.require%s%s(", g->ident[idx], config_var, n->config_secret ? "_secret" : "", kind);
    names_append_quoted(g->b, LANG_PYTHON, n->config_key ? n->config_key : n->name);
    buf_puts(g->b, ")\n");
}

char *emit_python(const pcl_program_t *p, diag_list_t *diags) {
    buf_t out;
    buf_init(&out);
    py_gen_t g = {.a = arena_new(), .p = p, .diags = diags, .b = &out};
    g.idents = names_table_new(g.a);
    g.nodes = names_table_new(g.a);
    g.ident = arena_alloc(g.a, (p->n_nodes + 1) * sizeof *g.ident);
    names_table_reserve(g.idents, "pulumi");
    py_collect_packages(&g);

    bool has_config = false;
    for (size_t i = 0; i < p->n_nodes; i++) has_config |= p->nodes[i].kind == PCL_NODE_CONFIG;
    const char *config_var = has_config ? names_table_unique(g.idents, "config", "_", 1) : NULL;
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        if (n->kind == PCL_NODE_PACKAGE || !n->name) continue;
        if (n->kind == PCL_NODE_OUTPUT) continue; /* not a variable: pulumi.export("name", ...) */
        names_table_put(g.nodes, n->name, (int)i);
        char *base = names_make_valid_identifier(g.a, LANG_PYTHON, names_py_name(g.a, n->name));
        g.ident[i] = names_table_unique(g.idents, base, "_", 1);
    }

    buf_puts(&out, "import pulumi\n");
    for (size_t i = 0; i < g.n_pkgs; i++) buf_printf(&out, "import %s as %s\n", g.pkgs[i].module, g.pkgs[i].alias);
    buf_putc(&out, '\n');

    bool config_declared = false;
    for (size_t i = 0; i < p->n_nodes; i++) {
        switch (p->nodes[i].kind) {
        case PCL_NODE_PACKAGE: break;
        case PCL_NODE_RESOURCE: py_resource(&g, i); break;
        case PCL_NODE_COMPONENT: py_component(&g, i); break;
        case PCL_NODE_OUTPUT:
            buf_puts(&out, "pulumi.export(");
            names_append_quoted(&out, LANG_PYTHON, node_logical_name(&p->nodes[i]));
            buf_puts(&out, ", ");
            py_expr(&g, p->nodes[i].attrs[0].value);
            buf_puts(&out, ")\n");
            break;
        case PCL_NODE_LOCAL:
            buf_printf(&out, "%s = ", g.ident[i]);
            py_expr(&g, p->nodes[i].attrs[0].value);
            buf_putc(&out, '\n');
            break;
        case PCL_NODE_CONFIG:
            if (!config_declared) buf_printf(&out, "%s = pulumi.Config()\n", config_var);
            config_declared = true;
            py_config(&g, i, config_var);
            break;
        }
    }
    arena_free(g.a);
    return buf_take(&out);
}

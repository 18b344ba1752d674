/* typescript.c — the TypeScript emitter: PCL program → index.ts for the Pulumi Node.js SDK.
 *
 * Shape shared by every emitter: a program walker (imports from the packages used, then each node
 * in order), an expression printer (one case per PCL expression kind, guided by the schema type
 * at the position), and the names helper (names.h). Layout follows Pulumi's nodejs program
 * generator (pcl-emitters §3.1, §4.1): 4-space indent, `{k: v}` for a single input, one input
 * per line with trailing commas otherwise, options as a third argument with keys sorted. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit_internal.h"

typedef struct ts_pkg {
    const char *name;  /* package name (`random`) */
    const char *npm;   /* import path (`@pulumi/random`) */
    const char *alias; /* local name (`random`) */
    schema_package_t *schema;
} ts_pkg_t;

typedef struct ts_gen {
    arena_t *a;
    const pcl_program_t *p;
    diag_list_t *diags;
    buf_t *b;
    names_table_t *idents; /* identifiers taken in the file */
    names_table_t *nodes;  /* PCL node name → node index */
    const char **ident;    /* per node: its TypeScript identifier */
    ts_pkg_t *pkgs;
    size_t n_pkgs;
    int indent;
    /* inside an apply: output atoms written as the lambda's parameters */
    const pcl_expr_t **subst; /* traversals: their first subst_skip parts are the parameter */
    const char **subst_name;
    size_t *subst_skip;
    size_t n_subst;
    bool in_apply;
    bool in_interpolate; /* inside pulumi.interpolate: outputs are read lifted, without an apply */
    const char *scope[EMIT_MAX_SCOPE]; /* for-expression variables in scope */
    size_t n_scope;
} ts_gen_t;

static void ts_expr(ts_gen_t *g, const pcl_expr_t *e);

static const char *node_logical_name(const pcl_node_t *n) { return n->logical_name ? n->logical_name : n->name; }

static const char *node_describe(ts_gen_t *g, const pcl_node_t *n) {
    return arena_sprintf(g->a, "resource '%s' of type '%s'", node_logical_name(n), n->token ? n->token : "?");
}

static const char *node_package_name(arena_t *a, const pcl_node_t *n) {
    if (n->package) return n->package->name;
    return schema_token_package(a, n->token);
}

static const ts_pkg_t *ts_find_pkg(const ts_gen_t *g, const char *name) {
    for (size_t i = 0; i < g->n_pkgs; i++)
        if (strcmp(g->pkgs[i].name, name) == 0) return &g->pkgs[i];
    return NULL;
}

static int ts_pkg_cmp(const void *x, const void *y) {
    return strcmp(((const ts_pkg_t *)x)->npm, ((const ts_pkg_t *)y)->npm);
}

/* Packages of the resource nodes, sorted by import path, with aliases reserved first so no
 * resource can take an alias's name. */
static void ts_collect_packages(ts_gen_t *g) {
    size_t cap = 0;
    for (size_t i = 0; i < g->p->n_nodes; i++) {
        const pcl_node_t *n = &g->p->nodes[i];
        if (n->kind != PCL_NODE_RESOURCE || !n->token) continue;
        const char *name = node_package_name(g->a, n);
        if (ts_find_pkg(g, name)) continue;
        if (g->n_pkgs == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            g->pkgs = arena_grow(g->a, g->pkgs, cap * sizeof *g->pkgs, ncap * sizeof *g->pkgs);
            cap = ncap;
        }
        ts_pkg_t *pk = &g->pkgs[g->n_pkgs++];
        pk->name = name;
        pk->schema = n->package;
        if (n->package && n->package->nodejs_package_name && *n->package->nodejs_package_name) pk->npm = n->package->nodejs_package_name;
        else if (n->package && n->package->namespace_ && *n->package->namespace_)
            pk->npm = arena_sprintf(g->a, "@%s/%s", n->package->namespace_, name);
        else pk->npm = arena_sprintf(g->a, "@pulumi/%s", name);
    }
    if (g->n_pkgs > 1) qsort(g->pkgs, g->n_pkgs, sizeof *g->pkgs, ts_pkg_cmp);
    for (size_t i = 0; i < g->n_pkgs; i++)
        g->pkgs[i].alias =
            names_table_unique(g->idents, names_make_valid_identifier(g->a, LANG_TYPESCRIPT, g->pkgs[i].name), "", 2);
}

/* `<alias>[.<module>]` for a token: module per moduleFormat, `language.nodejs.moduleToPackage`
 * applied, lowercased, `/` → `.`, each segment a valid identifier; `index` has no module. */
static char *ts_module_prefix(ts_gen_t *g, const ts_pkg_t *pk, const char *token) {
    char *mod = schema_token_module(g->a, pk->schema, token);
    /* without a schema, assume the common moduleFormat `(.*)(?:/[^/]*)` (`index/bucket` → `index`) */
    char *slash = pk->schema ? NULL : strrchr(mod, '/');
    if (slash) *slash = 0;
    if (pk->schema && pk->schema->language) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(pk->schema->language, "nodejs"),
                                             "moduleToPackage"),
            mod);
        if (cJSON_IsString(m)) mod = arena_strdup(g->a, m->valuestring);
    }
    if (!*mod || strcmp(mod, "index") == 0) return arena_strdup(g->a, pk->alias);
    buf_t b;
    buf_init(&b);
    buf_puts(&b, pk->alias);
    char *save = NULL;
    for (char *seg = strtok_r(mod, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
        for (char *c = seg; *c; c++) *c = (char)tolower((unsigned char)*c);
        buf_putc(&b, '.');
        buf_puts(&b, names_make_valid_identifier(g->a, LANG_TYPESCRIPT, seg));
    }
    char *r = buf_arena_str(&b, g->a);
    buf_free(&b);
    return r;
}

static void ts_newline(ts_gen_t *g) {
    buf_putc(g->b, '\n');
    buf_indent(g->b, g->indent);
}

/* Pulumi's genStringLiteral: a double-quoted literal unless the string has an interior newline,
 * then a template literal with raw newlines (`` ` ``, `\` and `${` escaped). */
static void ts_string(ts_gen_t *g, const char *s) {
    size_t n = strlen(s);
    const char *nl = strchr(s, '\n');
    bool interior = nl && !(nl == s && !strchr(s + 1, '\n')) && !(nl == s + n - 1);
    if (!interior) {
        names_append_quoted(g->b, LANG_TYPESCRIPT, s);
        return;
    }
    buf_putc(g->b, '`');
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '`' || c == '\\') {
            buf_putc(g->b, '\\');
            buf_putc(g->b, (char)c);
        } else if (c == '$' && p[1] == '{') {
            buf_puts(g->b, "\\$");
        } else if (c == '\r') {
            buf_puts(g->b, "\\r"); /* a raw CR in a template would be read as LF */
        } else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
            buf_printf(g->b, "\\x%02x", c);
        } else {
            buf_putc(g->b, (char)c);
        }
    }
    buf_putc(g->b, '`');
}

/* An object key or property name: verbatim when a legal identifier name (reserved words are fine
 * as property names), else quoted. */
static void ts_key(ts_gen_t *g, const char *k) {
    bool ok = *k && (isalpha((unsigned char)*k) || *k == '_' || *k == '$');
    for (const char *c = k; ok && *c; c++) ok = isalnum((unsigned char)*c) || *c == '_' || *c == '$';
    if (ok && !names_is_reserved(LANG_TYPESCRIPT, k)) buf_puts(g->b, k); /* Pulumi quotes `"delete"` */
    else names_append_quoted(g->b, LANG_TYPESCRIPT, k);
}

/* A literal at an enum-typed position becomes the SDK's enum member (`random.Region.NYC1`).
 * Returns false (and prints nothing) when the value is not one of the enum's values or the enum
 * belongs to a package that is not imported. */
static bool ts_enum(ts_gen_t *g, const pcl_expr_t *e) {
    const schema_type_t *t = names_enum_type_at(e->type);
    if (!t || !t->token || e->kind == PCL_BOOL) return false;
    const schema_enum_value_t *ev = names_enum_value_of(t, e);
    char *pkg, *member;
    if (!ev || !names_token_split(g->a, t->token, &pkg, NULL, &member)) return false;
    const ts_pkg_t *pk = ts_find_pkg(g, pkg);
    char *m = names_enum_member(g->a, LANG_TYPESCRIPT, ev, member);
    if (!pk || !m) return false;
    buf_printf(g->b, "%s.%s.%s", ts_module_prefix(g, pk, t->token), member, m);
    return true;
}

/* One traversal part: `.attr`, `["key"]` or `[0]`, each optionally chained (`?.`). */
static void ts_trav_part(ts_gen_t *g, const pcl_trav_part_t *pt, bool optional) {
    if (pt->attr) {
        buf_puts(g->b, optional ? "?." : ".");
        buf_puts(g->b, pt->attr);
    } else {
        if (optional) buf_puts(g->b, "?.");
        buf_putc(g->b, '[');
        if (pt->index_is_string) names_append_quoted(g->b, LANG_TYPESCRIPT, pt->index_str);
        else buf_printf(g->b, "%zu", pt->index_num);
        buf_putc(g->b, ']');
    }
}

static bool ts_in_scope(const ts_gen_t *g, const char *name) {
    for (size_t i = g->n_scope; i > 0; i--)
        if (strcmp(g->scope[i - 1], name) == 0) return true;
    return false;
}

static void ts_traversal(ts_gen_t *g, const pcl_expr_t *e) {
    if (ts_in_scope(g, e->trav.root)) { /* a for-expression variable */
        buf_puts(g->b, e->trav.root);
        for (size_t i = 0; i < e->trav.n; i++) ts_trav_part(g, &e->trav.parts[i], false);
        return;
    }
    int idx = names_table_get(g->nodes, e->trav.root);
    /* A list index below a resource's output property: Output lifting cannot index a list that
     * may be undefined, so read it in an apply with optional chaining, as Pulumi does
     * (`res.data.apply(data => data.items?.[0]?.name)`). */
    bool list_index = false;
    for (size_t i = 1; i < e->trav.n; i++) list_index |= !e->trav.parts[i].attr && !e->trav.parts[i].index_is_string;
    /* A property below an optional output property (`setRes.optionalData.string`) is
     * `Output<T | undefined>`, which no `Input<T>` accepts under --strict: refused, by position. */
    if (idx >= 0 && e->trav.n > 1 && e->trav.parts[0].attr && g->p->nodes[idx].schema) {
        const schema_resource_t *r = g->p->nodes[idx].schema;
        const schema_property_t *pr = schema_find_property(r->outputs, r->n_outputs, e->trav.parts[0].attr);
        if (pr && !pr->required)
            diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                     "%d:%d: '%s.%s.%s' reads below the optional output '%s'; its TypeScript type "
                     "(Output<T | undefined>) is not an input, so cimport does not write it yet",
                     e->line, e->col, e->trav.root, e->trav.parts[0].attr, e->trav.parts[1].attr ? e->trav.parts[1].attr : "[...]",
                     e->trav.parts[0].attr);
    }
    if (idx >= 0 && g->p->nodes[idx].kind != PCL_NODE_CONFIG && g->p->nodes[idx].kind != PCL_NODE_LOCAL &&
        e->trav.n > 1 && e->trav.parts[0].attr && list_index && !g->in_interpolate) {
        const char *param = names_make_valid_identifier(g->a, LANG_TYPESCRIPT, e->trav.parts[0].attr);
        buf_printf(g->b, "%s.%s.apply(%s => %s", g->ident[idx], e->trav.parts[0].attr, param, param);
        for (size_t i = 1; i < e->trav.n; i++) ts_trav_part(g, &e->trav.parts[i], i > 1);
        buf_putc(g->b, ')');
        return;
    }
    if (idx >= 0) {
        buf_puts(g->b, g->ident[idx]);
    } else if (pcl_program_is_external(g->p, e->trav.root)) {
        buf_puts(g->b, e->trav.root); /* a variable of the file the code goes into */
    } else {
        diag_add(g->diags, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL,
                 "reference to '%s', which the program does not declare; the TypeScript code uses the name as is",
                 e->trav.root);
        buf_puts(g->b, names_make_valid_identifier(g->a, LANG_TYPESCRIPT, e->trav.root));
    }
    for (size_t i = 0; i < e->trav.n; i++) {
        const pcl_trav_part_t *pt = &e->trav.parts[i];
        if (pt->attr) {
            buf_putc(g->b, '.');
            buf_puts(g->b, pt->attr);
        } else if (pt->index_is_string) {
            buf_putc(g->b, '[');
            names_append_quoted(g->b, LANG_TYPESCRIPT, pt->index_str);
            buf_putc(g->b, ']');
        } else {
            buf_printf(g->b, "[%zu]", pt->index_num);
        }
    }
}

static void ts_call(ts_gen_t *g, const pcl_expr_t *e) {
    static const struct {
        const char *pcl, *ts;
    } calls[] = {{"secret", "pulumi.secret"},
                 {"fileAsset", "new pulumi.asset.FileAsset"},
                 {"stringAsset", "new pulumi.asset.StringAsset"},
                 {"remoteAsset", "new pulumi.asset.RemoteAsset"},
                 {"fileArchive", "new pulumi.asset.FileArchive"},
                 {"remoteArchive", "new pulumi.asset.RemoteArchive"},
                 {"assetArchive", "new pulumi.asset.AssetArchive"}};
    const char *fn = NULL;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (strcmp(calls[i].pcl, e->call.name) == 0) fn = calls[i].ts;
    if (!fn) {
        diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "the TypeScript emitter does not know the PCL function '%s'; only secret and the asset/archive "
                 "functions appear in imported programs",
                 e->call.name);
        fn = e->call.name;
    }
    buf_puts(g->b, fn);
    buf_putc(g->b, '(');
    for (size_t i = 0; i < e->call.n; i++) {
        if (i) buf_puts(g->b, ", ");
        ts_expr(g, e->call.args[i]);
    }
    buf_putc(g->b, ')');
}

/* --- expressions beyond literals: templates, operators, conditionals, for, splat ------------------- */

/* A template literal's text: `\`, `` ` `` and `${` escaped, control characters as escapes. */
static void ts_template_chunk(ts_gen_t *g, const char *s) {
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '`' || c == '\\') {
            buf_putc(g->b, '\\');
            buf_putc(g->b, (char)c);
        } else if (c == '$' && p[1] == '{') {
            buf_puts(g->b, "\\$");
        } else if (c == '\n') {
            buf_puts(g->b, "\\n");
        } else if (c == '\r') {
            buf_puts(g->b, "\\r");
        } else if (c == '\t') {
            buf_puts(g->b, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            buf_printf(g->b, "\\x%02x", c);
        } else {
            buf_putc(g->b, (char)c);
        }
    }
}

static void ts_template(ts_gen_t *g, const pcl_expr_t *e) {
    buf_putc(g->b, '`');
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *part = e->tuple.items[i];
        if (part->kind == PCL_STRING) {
            ts_template_chunk(g, part->s);
        } else {
            buf_puts(g->b, "${");
            ts_expr(g, part);
            buf_putc(g->b, '}');
        }
    }
    buf_putc(g->b, '`');
}

static void ts_operand(ts_gen_t *g, const pcl_expr_t *parent, const pcl_expr_t *child, bool right) {
    bool paren = emit_operand_needs_parens(parent, child, right);
    if (paren) buf_putc(g->b, '(');
    ts_expr(g, child);
    if (paren) buf_putc(g->b, ')');
}

static bool ts_scope_push(ts_gen_t *g, const pcl_expr_t *e) {
    if (g->n_scope + 2 > sizeof g->scope / sizeof *g->scope) {
        diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "%d:%d: for expressions nested more than 8 deep are not supported", e->line, e->col);
        return false;
    }
    if (e->kvar) g->scope[g->n_scope++] = e->kvar;
    g->scope[g->n_scope++] = e->vvar;
    return true;
}

/* The lambda parameters of a for expression: `n`, `(v, k)` / `([k, v])` for entries. */
static void ts_for_params(ts_gen_t *g, const pcl_expr_t *e, bool entries) {
    if (entries || e->kvar) buf_printf(g->b, "([%s, %s])", e->kvar ? e->kvar : "_", e->vvar);
    else buf_puts(g->b, e->vvar);
}

/* Pulumi's TypeScript for a for expression: lists `.map`, maps `Object.entries(m).sort()`, a
 * condition `.filter` first, an object result `.reduce` into a fresh object. */
static void ts_for(ts_gen_t *g, const pcl_expr_t *e) {
    emit_shape_t sh = emit_expr_shape(g->p, g->nodes, e->x);
    if (sh != EMIT_SHAPE_LIST && sh != EMIT_SHAPE_MAP && sh != EMIT_SHAPE_OBJECT) {
        diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "%d:%d: the TypeScript emitter cannot tell whether this for expression ranges over a list or a "
                 "map; assign the collection to a local list or object first",
                 e->line, e->col);
        return;
    }
    bool entries = sh != EMIT_SHAPE_LIST;
    if (entries) {
        buf_puts(g->b, "Object.entries(");
        ts_expr(g, e->x);
        buf_puts(g->b, ").sort()");
    } else {
        bool paren = e->x->kind != PCL_TRAVERSAL && e->x->kind != PCL_TUPLE && e->x->kind != PCL_CALL;
        if (paren) buf_putc(g->b, '(');
        ts_expr(g, e->x);
        if (paren) buf_putc(g->b, ')');
        if (e->kvar) buf_puts(g->b, ".map((v, k) => [k, v] as const)");
    }
    size_t saved = g->n_scope;
    if (!ts_scope_push(g, e)) return;
    if (e->w) {
        buf_puts(g->b, ".filter(");
        ts_for_params(g, e, entries);
        buf_puts(g->b, " => ");
        ts_expr(g, e->w);
        buf_putc(g->b, ')');
    }
    if (e->for_object) {
        buf_puts(g->b, ".reduce((__obj, ");
        if (entries || e->kvar) buf_printf(g->b, "[%s, %s]", e->kvar ? e->kvar : "_", e->vvar);
        else buf_puts(g->b, e->vvar);
        buf_puts(g->b, ") => ({ ...__obj, [");
        ts_expr(g, e->y);
        buf_puts(g->b, "]: ");
        ts_expr(g, e->z);
        buf_puts(g->b, " }), {})");
    } else {
        buf_puts(g->b, ".map(");
        ts_for_params(g, e, entries);
        buf_puts(g->b, " => (");
        ts_expr(g, e->z);
        buf_puts(g->b, "))");
    }
    g->n_scope = saved;
}

/* The expression itself, its output atoms already resolved (or none). */
static void ts_computed(ts_gen_t *g, const pcl_expr_t *e) {
    switch (e->kind) {
    case PCL_TEMPLATE: ts_template(g, e); return;
    case PCL_UNARY:
        buf_puts(g->b, e->op);
        ts_operand(g, e, e->x, false);
        return;
    case PCL_BINARY: /* `x == null` as Pulumi writes it (loose equality: null or undefined) */
        if (e->x->kind == PCL_NULL) buf_puts(g->b, "null");
        else ts_operand(g, e, e->x, false);
        buf_printf(g->b, " %s ", e->op);
        if (e->y->kind == PCL_NULL) buf_puts(g->b, "null");
        else ts_operand(g, e, e->y, true);
        return;
    case PCL_COND:
        ts_operand(g, e, e->x, false);
        buf_puts(g->b, " ? ");
        ts_operand(g, e, e->y, false);
        buf_puts(g->b, " : ");
        ts_operand(g, e, e->z, false);
        return;
    case PCL_INDEX:
        ts_operand(g, e, e->x, false);
        buf_putc(g->b, '[');
        ts_expr(g, e->y);
        buf_putc(g->b, ']');
        return;
    case PCL_GETATTR:
        ts_operand(g, e, e->x, false);
        buf_putc(g->b, '.');
        buf_puts(g->b, e->s);
        return;
    case PCL_SPLAT:
        ts_operand(g, e, e->x, false);
        buf_puts(g->b, ".map(__item => __item");
        for (size_t i = 0; i < e->trav.n; i++) ts_trav_part(g, &e->trav.parts[i], false);
        buf_putc(g->b, ')');
        return;
    case PCL_FOR: ts_for(g, e); return;
    default: ts_expr(g, e); return;
    }
}

/* Whether a traversal's first property is an optional output of its resource. */
static bool ts_head_optional(const ts_gen_t *g, const pcl_expr_t *e) {
    int idx = names_table_get(g->nodes, e->trav.root);
    if (idx < 0 || !g->p->nodes[idx].schema || !e->trav.n || !e->trav.parts[0].attr) return false;
    const schema_resource_t *r = g->p->nodes[idx].schema;
    const schema_property_t *pr = schema_find_property(r->outputs, r->n_outputs, e->trav.parts[0].attr);
    return pr && !pr->required;
}

/* An expression computed from outputs, as Pulumi writes it: `a.apply(x => ...)` for one output,
 * `pulumi.all([a, b]).apply(([x, y]) => ...)` for several; the same output read twice is one
 * parameter. */
static void ts_apply(ts_gen_t *g, const pcl_expr_t *e) {
    emit_apply_t ap;
    emit_apply_plan(g->a, g->p, g->nodes, g->ident, LANG_TYPESCRIPT, e, g->scope, g->n_scope, &ap);
    if (ap.nu == 1) {
        const pcl_expr_t *a = ap.heads[ap.uniq[0]];
        if (!ap.head_is_output) buf_puts(g->b, "pulumi.output(");
        ts_expr(g, a);
        buf_printf(g->b, "%s.apply(%s => ", ap.head_is_output ? "" : ")", ap.names[ap.uniq[0]]);
    } else {
        buf_puts(g->b, "pulumi.all([");
        for (size_t k = 0; k < ap.nu; k++) {
            if (k) buf_puts(g->b, ", ");
            ts_expr(g, ap.heads[ap.uniq[k]]);
        }
        buf_puts(g->b, "]).apply(([");
        for (size_t k = 0; k < ap.nu; k++) buf_printf(g->b, "%s%s", k ? ", " : "", ap.names[ap.uniq[k]]);
        buf_puts(g->b, "]) => ");
    }
    g->subst = ap.atoms;
    g->subst_name = ap.names;
    g->subst_skip = ap.skip;
    g->n_subst = ap.n;
    g->in_apply = true;
    ts_computed(g, e);
    g->in_apply = false;
    g->n_subst = 0;
    buf_putc(g->b, ')');
}

static void ts_expr(ts_gen_t *g, const pcl_expr_t *e) {
    for (size_t i = 0; i < g->n_subst; i++)
        if (g->subst[i] == e) {
            buf_puts(g->b, g->subst_name[i]);
            bool optional = g->subst_skip[i] > 0 && ts_head_optional(g, e);
            for (size_t k = g->subst_skip[i]; e->kind == PCL_TRAVERSAL && k < e->trav.n; k++)
                ts_trav_part(g, &e->trav.parts[k], optional);
            return;
        }
    switch (e->kind) {
    case PCL_NULL:
        /* `undefined` rather than Pulumi's `null`: under --strict an optional input does not accept
         * null, and to the engine both mean "not set". */
        buf_puts(g->b, "undefined");
        break;
    case PCL_BOOL: buf_puts(g->b, e->b ? "true" : "false"); break;
    case PCL_NUMBER:
        if (!ts_enum(g, e)) names_append_number(g->b, e->n);
        break;
    case PCL_STRING:
        if (!ts_enum(g, e)) ts_string(g, e->s);
        break;
    case PCL_TUPLE:
        if (e->tuple.n == 0) {
            buf_puts(g->b, "[]");
        } else if (e->tuple.n == 1) {
            buf_putc(g->b, '[');
            ts_expr(g, e->tuple.items[0]);
            buf_putc(g->b, ']');
        } else {
            buf_putc(g->b, '[');
            g->indent += 4;
            for (size_t i = 0; i < e->tuple.n; i++) {
                ts_newline(g);
                ts_expr(g, e->tuple.items[i]);
                buf_putc(g->b, ',');
            }
            g->indent -= 4;
            ts_newline(g);
            buf_putc(g->b, ']');
        }
        break;
    case PCL_OBJECT:
        if (e->object.n == 0) {
            buf_puts(g->b, "{}");
            break;
        }
        buf_putc(g->b, '{');
        g->indent += 4;
        for (size_t i = 0; i < e->object.n; i++) {
            ts_newline(g);
            ts_key(g, e->object.items[i].key);
            buf_puts(g->b, ": ");
            ts_expr(g, e->object.items[i].value);
            buf_putc(g->b, ',');
        }
        g->indent -= 4;
        ts_newline(g);
        buf_putc(g->b, '}');
        break;
    case PCL_TRAVERSAL: ts_traversal(g, e); break;
    EMIT_CASE_LANGUAGE_EXPRS:
        if (g->in_apply || !emit_has_output(g->p, g->nodes, e)) {
            ts_computed(g, e);
        } else if (e->kind == PCL_TEMPLATE) {
            /* Pulumi's form for a template over outputs: interpolate resolves the outputs in it (a
             * computed part over outputs gets its own apply) */
            buf_puts(g->b, "pulumi.interpolate");
            g->in_interpolate = true;
            ts_template(g, e);
            g->in_interpolate = false;
        } else {
            ts_apply(g, e);
        }
        break;
    case PCL_CALL: ts_call(g, e); break;
    }
}

/* ignoreChanges entries are property paths, written as strings (`"tags"`, `"rules[0].port"`). */
static void ts_path_string(ts_gen_t *g, const pcl_expr_t *e) {
    if (e->kind == PCL_STRING || !names_append_path_literal(g->b, LANG_TYPESCRIPT, e)) ts_expr(g, e);
}

static int attr_name_cmp(const void *x, const void *y) {
    return strcmp((*(const pcl_attr_t *const *)x)->name, (*(const pcl_attr_t *const *)y)->name);
}

/* One alias: a URN string, or `{name: ..., parent: ...}` with `noParent = true` as the SDK's
 * `parent: pulumi.rootStackResource`. */
static void ts_alias(ts_gen_t *g, const pcl_expr_t *e) {
    if (e->kind != PCL_OBJECT) {
        ts_expr(g, e);
        return;
    }
    buf_putc(g->b, '{');
    bool first = true;
    for (size_t i = 0; i < e->object.n; i++) {
        const pcl_object_item_t *it = &e->object.items[i];
        bool no_parent = strcmp(it->key, "noParent") == 0;
        if (no_parent && !it->value->b) continue;
        if (!first) buf_puts(g->b, ", ");
        first = false;
        if (no_parent) {
            buf_puts(g->b, "parent: pulumi.rootStackResource");
            continue;
        }
        buf_printf(g->b, "%s: ", it->key);
        ts_expr(g, it->value);
    }
    buf_putc(g->b, '}');
}

/* `, {\n    key: value,\n}` with keys sorted (Pulumi's genResourceOptions), or nothing. */
static void ts_options(ts_gen_t *g, const pcl_node_t *n) {
    if (n->n_options == 0) return;
    const pcl_attr_t **opts = arena_alloc(g->a, n->n_options * sizeof *opts);
    for (size_t i = 0; i < n->n_options; i++) opts[i] = &n->options[i];
    qsort(opts, n->n_options, sizeof *opts, attr_name_cmp);
    buf_puts(g->b, ", {");
    g->indent += 4;
    for (size_t i = 0; i < n->n_options; i++) {
        const pcl_attr_t *o = opts[i];
        ts_newline(g);
        buf_printf(g->b, "%s: ", o->name);
        pcl_option_kind_t kind = pcl_option_kind(o->name);
        if ((kind == PCL_OPT_PATHS || kind == PCL_OPT_ALIASES) && o->value->kind == PCL_TUPLE) {
            /* property names are strings (`["value"]`), never the bare identifiers PCL writes */
            const pcl_expr_t *t = o->value;
            buf_putc(g->b, '[');
            g->indent += 4;
            for (size_t k = 0; k < t->tuple.n; k++) {
                if (t->tuple.n > 1) ts_newline(g);
                if (kind == PCL_OPT_PATHS) ts_path_string(g, t->tuple.items[k]);
                else ts_alias(g, t->tuple.items[k]);
                if (t->tuple.n > 1) buf_putc(g->b, ',');
            }
            g->indent -= 4;
            if (t->tuple.n > 1) ts_newline(g);
            buf_putc(g->b, ']');
        } else {
            ts_expr(g, o->value);
        }
        buf_putc(g->b, ',');
    }
    g->indent -= 4;
    ts_newline(g);
    buf_putc(g->b, '}');
}

/* `{k: v}` for one input, one per line otherwise (Pulumi's layout). */
static void ts_inputs(ts_gen_t *g, const pcl_node_t *n) {
    buf_putc(g->b, '{');
    if (n->n_attrs == 1) {
        ts_key(g, n->attrs[0].name);
        buf_puts(g->b, ": ");
        ts_expr(g, n->attrs[0].value);
    } else if (n->n_attrs > 1) {
        g->indent += 4;
        for (size_t i = 0; i < n->n_attrs; i++) {
            ts_newline(g);
            ts_key(g, n->attrs[i].name);
            buf_puts(g->b, ": ");
            ts_expr(g, n->attrs[i].value);
            buf_putc(g->b, ',');
        }
        g->indent -= 4;
        ts_newline(g);
    }
    buf_putc(g->b, '}');
}

static void ts_resource(ts_gen_t *g, size_t idx) {
    const pcl_node_t *n = &g->p->nodes[idx];
    const ts_pkg_t *pk = ts_find_pkg(g, node_package_name(g->a, n));
    const char *cls;
    if (strncmp(n->token, "pulumi:providers:", 17) == 0) {
        cls = arena_sprintf(g->a, "%s.Provider", pk->alias);
    } else {
        char *member;
        if (!names_token_split(g->a, n->token, NULL, NULL, &member)) {
            diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, node_describe(g, n),
                     "the type token is not of the form package:module:Type; fix the token in the program");
            return;
        }
        /* the SDK's class is the token's member title-cased (`someResource` → SomeResource) */
        cls = arena_sprintf(g->a, "%s.%s", ts_module_prefix(g, pk, n->token), names_pascal(g->a, member));
    }
    buf_printf(g->b, "const %s = new %s(", g->ident[idx], cls);
    names_append_quoted(g->b, LANG_TYPESCRIPT, node_logical_name(n));
    buf_puts(g->b, ", ");
    ts_inputs(g, n);
    ts_options(g, n);
    buf_puts(g->b, ");\n");
}

static void ts_component(ts_gen_t *g, size_t idx) {
    const pcl_node_t *n = &g->p->nodes[idx];
    buf_printf(g->b, "const %s = new pulumi.ComponentResource(", g->ident[idx]);
    names_append_quoted(g->b, LANG_TYPESCRIPT, n->token ? n->token : "");
    buf_puts(g->b, ", ");
    names_append_quoted(g->b, LANG_TYPESCRIPT, node_logical_name(n));
    buf_puts(g->b, ", ");
    ts_inputs(g, n);
    ts_options(g, n);
    buf_puts(g->b, ");\n");
}

/* The TypeScript type of a config value read with requireObject: string[], Record<string, number>, any. */
static const char *ts_cfg_type(ts_gen_t *g, const emit_cfg_type_t *t) {
    switch (t->kind) {
    case EMIT_CFG_STRING: return "string";
    case EMIT_CFG_INT:
    case EMIT_CFG_NUMBER: return "number";
    case EMIT_CFG_BOOL: return "boolean";
    case EMIT_CFG_LIST: return arena_sprintf(g->a, "%s[]", ts_cfg_type(g, t->elem));
    case EMIT_CFG_MAP: return arena_sprintf(g->a, "Record<string, %s>", ts_cfg_type(g, t->elem));
    case EMIT_CFG_ANY: break;
    }
    return "any";
}

/* Stack config read: `config.require[Secret][Number|Boolean|Object<T>]("key")`. */
static void ts_config(ts_gen_t *g, size_t idx, const char *config_var) {
    const pcl_node_t *n = &g->p->nodes[idx];
    const char *t = n->token ? n->token : "string";
    const char *kind = "";
    if (strcmp(t, "int") == 0 || strcmp(t, "number") == 0) kind = "Number";
    else if (strcmp(t, "bool") == 0) kind = "Boolean";
    else if (strcmp(t, "string") != 0)
        kind = arena_sprintf(g->a, "Object<%s>", ts_cfg_type(g, emit_config_type(g->a, t)));
    buf_printf(g->b, "const %s = %s.require%s%s(", g->ident[idx], config_var, n->config_secret ? "Secret" : "", kind);
    names_append_quoted(g->b, LANG_TYPESCRIPT, n->config_key ? n->config_key : n->name);
    buf_puts(g->b, ");\n");
}

char *emit_typescript(const pcl_program_t *p, diag_list_t *diags) {
    buf_t out;
    buf_init(&out);
    ts_gen_t g = {.a = arena_new(), .p = p, .diags = diags, .b = &out};
    g.idents = names_table_new(g.a);
    g.nodes = names_table_new(g.a);
    g.ident = arena_alloc(g.a, (p->n_nodes + 1) * sizeof *g.ident);
    names_table_reserve(g.idents, "pulumi");
    ts_collect_packages(&g);

    bool has_config = false;
    for (size_t i = 0; i < p->n_nodes; i++) has_config |= p->nodes[i].kind == PCL_NODE_CONFIG;
    const char *config_var = has_config ? names_table_unique(g.idents, "config", "", 2) : NULL;
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        if (n->kind == PCL_NODE_PACKAGE || !n->name) continue;
        if (n->kind != PCL_NODE_OUTPUT) names_table_put(g.nodes, n->name, (int)i);
        g.ident[i] = names_table_unique(g.idents, names_make_valid_identifier(g.a, LANG_TYPESCRIPT, n->name), "", 2);
    }

    buf_puts(&out, "import * as pulumi from \"@pulumi/pulumi\";\n");
    for (size_t i = 0; i < g.n_pkgs; i++) {
        buf_printf(&out, "import * as %s from ", g.pkgs[i].alias);
        names_append_quoted(&out, LANG_TYPESCRIPT, g.pkgs[i].npm);
        buf_puts(&out, ";\n");
    }
    buf_putc(&out, '\n');

    bool config_declared = false;
    for (size_t i = 0; i < p->n_nodes; i++) {
        switch (p->nodes[i].kind) {
        case PCL_NODE_PACKAGE: break;
        case PCL_NODE_RESOURCE: ts_resource(&g, i); break;
        case PCL_NODE_COMPONENT: ts_component(&g, i); break;
        case PCL_NODE_OUTPUT:
            /* a stack output is an export of the module, under the output's name */
            if (strcmp(g.ident[i], node_logical_name(&p->nodes[i])) != 0) {
                diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                         "output '%s' cannot be exported under its name in TypeScript (it is not a free "
                         "identifier there); rename the output",
                         node_logical_name(&p->nodes[i]));
                break;
            }
            buf_printf(&out, "export const %s = ", g.ident[i]);
            ts_expr(&g, p->nodes[i].attrs[0].value);
            buf_puts(&out, ";\n");
            break;
        case PCL_NODE_LOCAL:
            buf_printf(&out, "const %s = ", g.ident[i]);
            ts_expr(&g, p->nodes[i].attrs[0].value);
            buf_puts(&out, ";\n");
            break;
        case PCL_NODE_CONFIG:
            if (!config_declared) buf_printf(&out, "const %s = new pulumi.Config();\n", config_var);
            config_declared = true;
            ts_config(&g, i, config_var);
            break;
        }
    }
    arena_free(g.a);
    return buf_take(&out);
}

/* typescript.c — the TypeScript emitter: PCL program → index.ts for the Pulumi Node.js SDK.
 *
 * Shape shared by every emitter: a program walker (imports from the packages used, then each node
 * in order), an expression printer (one case per PCL expression kind, guided by the schema type
 * at the position), and the names helper (names.h). Layout follows Pulumi's nodejs program
 * generator (pcl-emitters §3.1, §4.1): 4-space indent, `{k: v}` for a single input, one input
 * per line with trailing commas otherwise, options as a third argument with keys sorted. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/walk.h"

typedef struct ts_gen {
    emit_walk_t w;       /* first: the hooks convert the walk back to the generator */
    bool in_interpolate; /* inside pulumi.interpolate: outputs are read lifted, without an apply */
    bool async_main;     /* `export = async () => {...}` returning the stack outputs (ts_async_main) */
    bool in_output;      /* writing a stack output's value (ts_output_value) */
} ts_gen_t;

static void ts_expr(ts_gen_t *g, const pcl_expr_t *e);
static void ts_expr_hook(emit_walk_t *w, const pcl_expr_t *e) {
    ts_expr((ts_gen_t *)w, e);
}
static char *ts_identifier(arena_t *a, const char *s) {
    return names_make_valid_identifier(a, LANG_TYPESCRIPT, s);
}
static char *ts_module_prefix(emit_walk_t *w, const emit_pkg_t *pk, const char *token);
static void ts_object_key(emit_walk_t *w, const pcl_object_item_t *it, bool schema_object);
static void ts_invoke(emit_walk_t *w, const pcl_expr_t *e);
static void ts_method_args(emit_walk_t *w, const pcl_expr_t *args);
static void ts_call(emit_walk_t *w, const pcl_expr_t *e);
static void ts_apply(emit_walk_t *w, const pcl_expr_t *e);
static void ts_resource(emit_walk_t *w, size_t idx);
static void ts_component_args(emit_walk_t *w, const pcl_node_t *n);
static void ts_output(emit_walk_t *w, size_t idx);
static void ts_hook(emit_walk_t *w, size_t idx);
static const char *ts_config_getter(emit_walk_t *w, const pcl_node_t *n);
static void ts_config_default(emit_walk_t *w, size_t idx, const char *close);
static bool ts_needs_parens(const pcl_expr_t *parent, const pcl_expr_t *child);

static const emit_syntax_t TS_SYNTAX = {
    .lang = LANG_TYPESCRIPT,
    .expr = ts_expr_hook,
    .needs_parens = ts_needs_parens,
    .identifier = ts_identifier,
    .module_prefix = ts_module_prefix,
    .object_key = ts_object_key,
    .invoke = ts_invoke,
    .method_args = ts_method_args,
    .call = ts_call,
    .apply = ts_apply,
    .resource = ts_resource,
    .component_args = ts_component_args,
    .output = ts_output,
    .hook = ts_hook,
    .declare = "const %s = ",
    .construct = "new ",
    .end = ";\n",
    .new_config = "new pulumi.Config()",
    .require_version = "pulumi.requirePulumiVersion",
    .config_getter = ts_config_getter,
    .config_default = ts_config_default,
    .config_output_open = "pulumi.output(",
    .config_output_close = ")",
};

/* The npm package of a resource's package: its schema's nodejs packageName, else
 * `@<namespace>/<name>` (`@pulumi/<name>` without a namespace). */
static const char *ts_import_path(emit_walk_t *w, const schema_package_t *pkg, const char *name) {
    if (pkg && pkg->nodejs_package_name && *pkg->nodejs_package_name) return pkg->nodejs_package_name;
    if (pkg && pkg->namespace_ && *pkg->namespace_) return arena_sprintf(w->a, "@%s/%s", pkg->namespace_, name);
    return arena_sprintf(w->a, "@pulumi/%s", name);
}

/* Packages of the resource nodes, sorted by import path, with aliases reserved first so no
 * resource can take an alias's name. */
static void ts_collect_packages(ts_gen_t *g) {
    emit_walk_collect_packages(&g->w, ts_import_path);
    for (size_t i = 0; i < g->w.n_pkgs; i++)
        g->w.pkgs[i].alias =
            strcmp(g->w.pkgs[i].name, "pulumi") == 0 /* the SDK's own resources */
                ? "pulumi"
                : names_table_unique(g->w.idents,
                                     names_make_valid_identifier(g->w.a, LANG_TYPESCRIPT, g->w.pkgs[i].name), "", 2);
}

/* `<alias>[.<module>]` for a token: module per moduleFormat, `language.nodejs.moduleToPackage`
 * applied, lowercased, `/` → `.`, each segment a valid identifier; `index` has no module. */
static char *ts_module_prefix(emit_walk_t *w, const emit_pkg_t *pk, const char *token) {
    if (strcmp(pk->name, "pulumi") == 0) return arena_strdup(w->a, "pulumi"); /* pulumi.StackReference */
    char *mod = emit_pkg_module(w->a, pk, token);
    const char *renamed = emit_pkg_language_string(pk, "nodejs", "moduleToPackage", mod);
    if (renamed) mod = arena_strdup(w->a, renamed);
    if (!*mod || strcmp(mod, "index") == 0) return arena_strdup(w->a, pk->alias);
    return emit_walk_module_path(w, pk->alias, mod);
}

/* A template literal's text: `\`, `` ` `` and `${` escaped, control characters as escapes; new lines
 * and tabs written raw when `raw` (a multi-line string), else escaped too. */
static void ts_template_text(ts_gen_t *g, const char *s, bool raw) {
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '`' || c == '\\') {
            buf_putc(g->w.b, '\\');
            buf_putc(g->w.b, (char)c);
        } else if (c == '$' && p[1] == '{') {
            buf_puts(g->w.b, "\\$");
        } else if (c == '\r') {
            buf_puts(g->w.b, "\\r"); /* a raw CR in a template would be read as LF */
        } else if (!raw && c == '\n') {
            buf_puts(g->w.b, "\\n");
        } else if (pcl_is_nul(p)) { /* PCL_NUL */
            buf_puts(g->w.b, "\\x00");
            p++;
        } else if ((c < 0x20 && !(raw && c == '\n')) || c == 0x7f) {
            buf_printf(g->w.b, "\\x%02x", c); /* a tab too: \x09, as Pulumi writes it */
        } else if (c >= 0x80 && names_escape_unprintable(g->w.b, LANG_TYPESCRIPT, &p)) {
            continue;
        } else {
            buf_putc(g->w.b, (char)c);
        }
    }
}

/* Pulumi's genStringLiteral: a double-quoted literal unless the string has an interior newline,
 * then a template literal with raw newlines (`` ` ``, `\` and `${` escaped). */
static void ts_string(ts_gen_t *g, const char *s) {
    size_t n = strlen(s);
    const char *nl = strchr(s, '\n');
    bool interior = nl && !(nl == s && !strchr(s + 1, '\n')) && !(nl == s + n - 1);
    if (!interior) {
        names_append_quoted(g->w.b, LANG_TYPESCRIPT, s);
        return;
    }
    buf_putc(g->w.b, '`');
    ts_template_text(g, s, true);
    buf_putc(g->w.b, '`');
}

/* A map's entries in PCL's order, by key: `.sort()` alone compares each entry's "k,v" text, which puts
 * "a b" and "a!" before "a"; `<` compares UTF-16 code units, which puts U+1F600 (0xD83D 0xDE00) before
 * U+FFFD. UTF-8 bytes compare as code points do. */
#define TS_SORT_BY_KEY ".sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)))"

/* An object key or property name: verbatim when a legal identifier name (reserved words are fine
 * as property names), else quoted. */
static void ts_key(ts_gen_t *g, const char *k) {
    bool ok = *k && (isalpha((unsigned char)*k) || *k == '_' || *k == '$');
    for (const char *c = k; ok && *c; c++)
        ok = isalnum((unsigned char)*c) || *c == '_' || *c == '$';
    if (strcmp(k, "__proto__") == 0) { /* `__proto__: v` and `"__proto__": v` set the prototype */
        buf_puts(g->w.b, "[\"__proto__\"]");
        return;
    }
    if (ok && !names_is_reserved(LANG_TYPESCRIPT, k))
        buf_puts(g->w.b, k); /* Pulumi quotes `"delete"` */
    else
        names_append_quoted(g->w.b, LANG_TYPESCRIPT, k);
}

static void ts_object_key(emit_walk_t *w, const pcl_object_item_t *it, bool schema_object) {
    (void)schema_object;
    ts_key((ts_gen_t *)w, it->key);
}

/* One traversal part: `.attr`, `["key"]` or `[0]`, each optionally chained (`?.`). */
static void ts_trav_part(ts_gen_t *g, const pcl_trav_part_t *pt, bool optional) {
    /* a string key that is an identifier name is read as a property (`m.key`), as Pulumi writes it */
    const char *key = pt->attr ? pt->attr : pt->index_is_string ? pt->index_str : NULL;
    bool name = key && *key && (isalpha((unsigned char)*key) || *key == '_' || *key == '$');
    for (const char *c = key; name && *c; c++)
        name = isalnum((unsigned char)*c) || *c == '_' || *c == '$';
    if (pt->attr || name) {
        buf_puts(g->w.b, optional ? "?." : ".");
        buf_puts(g->w.b, key);
    } else {
        if (optional) buf_puts(g->w.b, "?.");
        buf_putc(g->w.b, '[');
        if (pt->index_is_string)
            names_append_quoted(g->w.b, LANG_TYPESCRIPT, pt->index_str);
        else
            buf_printf(g->w.b, "%zu", pt->index_num);
        buf_putc(g->w.b, ']');
    }
}

static void ts_trav_parts(ts_gen_t *g, const pcl_trav_part_t *parts, size_t n) {
    for (size_t i = 0; i < n; i++)
        ts_trav_part(g, &parts[i], false);
}

/* Whether e is a reference to a config value read as an object type with fields (`object({a=T})`). */
static bool ts_config_fields(ts_gen_t *g, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL && !emit_walk_in_scope(&g->w, e->trav.root)
                  ? names_table_get(g->w.nodes, e->trav.root)
                  : -1;
    const pcl_node_t *n = idx >= 0 ? &g->w.p->nodes[idx] : NULL;
    return n && n->kind == PCL_NODE_CONFIG && n->token && emit_config_type(g->w.a, n->token)->n_fields > 0;
}

/* Whether reading `parts` from a value of type t meets only required properties, list elements and
 * map values (its TypeScript type never adds `| undefined`); false where it meets an optional property
 * or a type it cannot follow. */
static bool ts_path_required(const schema_type_t *t, const pcl_trav_part_t *parts, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const pcl_trav_part_t *pt = &parts[i];
        bool key = pt->attr || pt->index_is_string;
        if (!t) return false;
        if ((t->kind == SCHEMA_ARRAY && !key) || (t->kind == SCHEMA_MAP && key)) {
            t = t->element;
        } else if (t->kind == SCHEMA_OBJECT && t->object && key) {
            const schema_property_t *pr =
                schema_find_property(t->object->props, t->object->n_props, pt->attr ? pt->attr : pt->index_str);
            if (!pr || !pr->required) return false;
            t = pr->type;
        } else {
            return false;
        }
    }
    return true;
}

/* Whether a plain object that lacks key has it from Object.prototype (`m["toString"]` is a function). */
static bool ts_prototype_member(const char *key) {
    static const char *const members[] = {
        "__defineGetter__", "__defineSetter__", "__lookupGetter__",     "__lookupSetter__", "__proto__", "constructor",
        "hasOwnProperty",   "isPrototypeOf",    "propertyIsEnumerable", "toLocaleString",   "toString",  "valueOf",
    };
    for (size_t i = 0; key && i < sizeof members / sizeof *members; i++)
        if (strcmp(key, members[i]) == 0) return true;
    return false;
}

/* Whether reading key from an Output by lifting (`o.key`, `o["key"]`) gives something else than the
 * value's member: @pulumi/pulumi's Output proxy answers a name the Output or its prototype chain has
 * itself (apply, get, isKnown, toString, constructor, valueOf, ...), `then`, and any name starting with
 * `__`, `doNotCapture` or `deploymentOnlyModule` without lifting (sdk/nodejs/output.ts). */
static bool ts_output_member(const char *key) {
    static const char *const members[] = {
        "allResources",  "apply",    "constructor",    "deploymentOnlyModule",
        "doNotCapture",  "get",      "hasOwnProperty", "isKnown",
        "isPrototypeOf", "isSecret", "promise",        "propertyIsEnumerable",
        "resources",     "then",     "toJSON",         "toLocaleString",
        "toString",      "valueOf",
    };
    if (!key) return false;
    if (strncmp(key, "__", 2) == 0) return true;
    for (size_t i = 0; i < sizeof members / sizeof *members; i++)
        if (strcmp(key, members[i]) == 0) return true;
    return false;
}

/* Whether the TypeScript value e is itself an Output (not a plain object or list holding some): a
 * resource's property, a secret config value (or one whose default reads an output), an Output call
 * (secret(), an invoke), or a local holding one of these. */
static bool ts_value_is_output(ts_gen_t *g, const pcl_expr_t *e, int depth) {
    if (depth > 64) return false;
    if (e->kind == PCL_CALL) return emit_call_is_output(g->w.p, g->w.nodes, e);
    int idx = e->kind == PCL_TRAVERSAL && !emit_walk_in_scope(&g->w, e->trav.root)
                  ? names_table_get(g->w.nodes, e->trav.root)
                  : -1;
    const pcl_node_t *n = idx >= 0 ? &g->w.p->nodes[idx] : NULL;
    if (!n) return false;
    if (n->kind == PCL_NODE_RESOURCE || n->kind == PCL_NODE_COMPONENT) return e->trav.n > 0;
    if (n->kind == PCL_NODE_CONFIG) return emit_is_output_atom(g->w.p, g->w.nodes, e);
    return n->kind == PCL_NODE_LOCAL && n->n_attrs && ts_value_is_output(g, n->attrs[0].value, depth + 1);
}

/* The first part of traversal e (not in an apply) that lifting would read as an Output's own member
 * (ts_output_member), or e->trav.n: parts from the second of a resource's (its first is the class's
 * property), from the first of another Output. */
static size_t ts_output_member_part(ts_gen_t *g, const pcl_expr_t *e, int idx) {
    if (g->w.in_apply || idx < 0) return e->trav.n;
    const pcl_node_t *n = &g->w.p->nodes[idx];
    bool resource = n->kind == PCL_NODE_RESOURCE || n->kind == PCL_NODE_COMPONENT;
    pcl_expr_t root = *e;
    root.trav.n = 0;
    if (!resource && !ts_value_is_output(g, &root, 0)) return e->trav.n;
    for (size_t i = resource ? 1 : 0; i < e->trav.n; i++) {
        const pcl_trav_part_t *pt = &e->trav.parts[i];
        if (ts_output_member(pt->attr ? pt->attr : pt->index_is_string ? pt->index_str : NULL)) return i;
    }
    return e->trav.n;
}

static void ts_traversal(ts_gen_t *g, const pcl_expr_t *e) {
    if (emit_walk_in_scope(&g->w, e->trav.root)) { /* a for-expression variable */
        buf_puts(g->w.b, e->trav.root);
        ts_trav_parts(g, e->trav.parts, e->trav.n);
        return;
    }
    int idx = names_table_get(g->w.nodes, e->trav.root);
    if (idx >= 0 && e->trav.n == 0 && g->w.p->nodes[idx].kind == PCL_NODE_CONFIG && !g->w.in_apply) {
        /* a config value where the schema wants another scalar type, converted as Pulumi does */
        static const char *const conv[] = {
            [EMIT_CONV_STRING_TO_BOOL] = "%s === \"true\"", [EMIT_CONV_STRING_TO_INT] = "Number(%s)",
            [EMIT_CONV_STRING_TO_NUMBER] = "Number(%s)",    [EMIT_CONV_NUMBER_TO_STRING] = "String(%s)",
            [EMIT_CONV_BOOL_TO_STRING] = "String(%s)",
        };
        const pcl_node_t *cfg = &g->w.p->nodes[idx];
        emit_conversion_t k = emit_config_conversion(cfg, e->type);
        if (k != EMIT_CONV_NONE && k < EMIT_CONV_INT_TO_NUMBER) {
            if (cfg->config_secret)
                buf_printf(g->w.b, "%s.apply(x => %s)", g->w.ident[idx], arena_sprintf(g->w.a, conv[k], "x"));
            else
                buf_printf(g->w.b, conv[k], g->w.ident[idx]);
            return;
        }
    }
    /* A key that lifting would read as the Output's own member (`r.booleanMap.apply`: the method):
     * the Output up to it, then the key and the rest read in an apply of it (read12 F7) */
    size_t member = ts_output_member_part(g, e, idx);
    bool resource_root = idx >= 0 && g->w.p->nodes[idx].kind != PCL_NODE_CONFIG &&
                         g->w.p->nodes[idx].kind != PCL_NODE_LOCAL && e->trav.n && e->trav.parts[0].attr;
    if (member < e->trav.n && (g->in_interpolate || !resource_root)) { /* a resource's: below, with the others */
        if (g->in_interpolate) {
            diag_add(g->w.diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                     "%d:%d: '%s' reads the key '%s' of an Output inside an interpolation, where TypeScript lifts "
                     "it and @pulumi/pulumi's Output gives its own member of that name, so cimport does not "
                     "write it yet",
                     e->line, e->col, e->trav.root,
                     e->trav.parts[member].attr ? e->trav.parts[member].attr : e->trav.parts[member].index_str);
            return;
        }
        pcl_expr_t head = *e;
        head.trav.n = member;
        ts_traversal(g, &head);
        const pcl_trav_part_t *last = member ? &e->trav.parts[member - 1] : NULL;
        const char *param = last && last->attr ? names_make_valid_identifier(g->w.a, LANG_TYPESCRIPT, last->attr)
                                               : names_make_valid_identifier(g->w.a, LANG_TYPESCRIPT, e->trav.root);
        buf_printf(g->w.b, ".apply(%s => %s", param, param);
        for (size_t i = member; i < e->trav.n; i++)
            ts_trav_part(g, &e->trav.parts[i], false);
        buf_putc(g->w.b, ')');
        return;
    }
    /* A list index below a resource's output property: Output lifting cannot index a list that
     * may be undefined, so where an optional property is on the way (or a type cimport cannot
     * follow) it is read in an apply with optional chaining, as Pulumi does
     * (`res.data.apply(data => data.items?.[0]?.name)`); below required properties it is lifted
     * (`res.data.boolArray[0]`). */
    bool list_index = false;
    for (size_t i = 1; i < e->trav.n; i++)
        list_index |= !e->trav.parts[i].attr && !e->trav.parts[i].index_is_string;
    if (list_index && idx >= 0 && e->trav.parts[0].attr && g->w.p->nodes[idx].schema) {
        const schema_resource_t *r = g->w.p->nodes[idx].schema;
        const schema_property_t *pr = schema_find_property(r->outputs, r->n_outputs, e->trav.parts[0].attr);
        list_index = !pr || !pr->required || !ts_path_required(pr->type, e->trav.parts + 1, e->trav.n - 1);
    }
    /* A property below an optional output property (`setRes.optionalData.string`): the property is
     * `Output<T | undefined>`, so it is read in an apply with optional chaining, as Pulumi does
     * (`setRes.optionalData.apply(optionalData => optionalData?.string!)`); inside an interpolation,
     * where no apply is written, it is refused by position. */
    bool optional_head = false;
    if (idx >= 0 && e->trav.n > 1 && e->trav.parts[0].attr && g->w.p->nodes[idx].schema) {
        const schema_resource_t *r = g->w.p->nodes[idx].schema;
        const schema_property_t *pr = schema_find_property(r->outputs, r->n_outputs, e->trav.parts[0].attr);
        optional_head = pr && !pr->required;
        if (optional_head && g->in_interpolate)
            diag_add(g->w.diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                     "%d:%d: '%s.%s.%s' reads below the optional output '%s' inside an interpolation; its "
                     "TypeScript type (Output<T | undefined>) lifts no property, so cimport does not write it yet",
                     e->line, e->col, e->trav.root, e->trav.parts[0].attr,
                     e->trav.parts[1].attr ? e->trav.parts[1].attr : "[...]", e->trav.parts[0].attr);
    }
    if (idx >= 0 && g->w.p->nodes[idx].kind != PCL_NODE_CONFIG && g->w.p->nodes[idx].kind != PCL_NODE_LOCAL &&
        e->trav.n > 1 && e->trav.parts[0].attr && (list_index || optional_head || member < e->trav.n) &&
        !g->in_interpolate) {
        const char *param = names_make_valid_identifier(g->w.a, LANG_TYPESCRIPT, e->trav.parts[0].attr);
        buf_printf(g->w.b, "%s.%s.apply(%s => %s", g->w.ident[idx], e->trav.parts[0].attr, param, param);
        for (size_t i = 1; i < e->trav.n; i++)
            ts_trav_part(g, &e->trav.parts[i], optional_head || i > 1);
        /* under --strict an Output<T | undefined> is no Input<T>; an undefined value is still passed
         * as undefined (not set), as in Pulumi's output, which has no `!` */
        buf_puts(g->w.b, optional_head ? "!)" : ")");
        return;
    }
    /* Into a local holding secret() of a value of unknown shape (`secret(anyConfig).property`): no
     * Output<any> lifts a property under --strict, so read it in an apply, as Pulumi does; one field
     * of an object-typed config's value lifts (`secret(anObject).property`). */
    const pcl_node_t *local = idx >= 0 && g->w.p->nodes[idx].kind == PCL_NODE_LOCAL ? &g->w.p->nodes[idx] : NULL;
    if (local && e->trav.n > 0 && !g->in_interpolate && local->attrs[0].value->kind == PCL_CALL) {
        const pcl_expr_t *v = local->attrs[0].value;
        const pcl_function_t *f = pcl_function_find(v->call.name);
        emit_shape_t sh = emit_expr_shape(g->w.p, g->w.nodes, v);
        bool field = e->trav.n == 1 && e->trav.parts[0].attr && v->call.n == 1 && ts_config_fields(g, v->call.args[0]);
        if (f && f->result == PCL_FN_SAME && sh != EMIT_SHAPE_LIST && sh != EMIT_SHAPE_MAP && sh != EMIT_SHAPE_OBJECT &&
            !field) {
            buf_printf(g->w.b, "%s.apply(%s => %s", g->w.ident[idx], g->w.ident[idx], g->w.ident[idx]);
            ts_trav_parts(g, e->trav.parts, e->trav.n);
            buf_putc(g->w.b, ')');
            return;
        }
    }
    emit_walk_root(&g->w, e, idx);
    /* below a field of an object-typed config's value (`{prop?: Array<boolean>}`), each field
     * optional: read with optional chaining, as Pulumi writes it (`anObject.prop?.[0]`) */
    bool fields = idx >= 0 && e->trav.n > 1 && ts_config_fields(g, e);
    for (size_t i = 0; i < e->trav.n; i++)
        ts_trav_part(g, &e->trav.parts[i], fields && i > 0);
}

/* PCL's built-in functions as Pulumi's Node.js generator writes them (emit_walk_format); length,
 * entries, lookup and toJSON depend on their arguments (ts_call). */
static const emit_call_name_t TS_CALLS[] = {
    {"secret", "pulumi.secret($0)"},
    {"unsecret", "pulumi.unsecret($0)"},
    {"fileAsset", "new pulumi.asset.FileAsset($0)"},
    {"stringAsset", "new pulumi.asset.StringAsset($0)"},
    {"remoteAsset", "new pulumi.asset.RemoteAsset($0)"},
    {"fileArchive", "new pulumi.asset.FileArchive($0)"},
    {"remoteArchive", "new pulumi.asset.RemoteArchive($0)"},
    {"assetArchive", "new pulumi.asset.AssetArchive($0)"},
    {"stack", "pulumi.getStack()"},
    {"project", "pulumi.getProject()"},
    {"organization", "pulumi.getOrganization()"},
    {"rootDirectory", "pulumi.getRootDirectory()"},
    {"cwd", "process.cwd()"},
    {"toBase64", "Buffer.from($0).toString(\"base64\")"},
    {"fromBase64", "Buffer.from($0, \"base64\").toString(\"utf8\")"},
    {"sha1", "crypto.createHash('sha1').update($0).digest('hex')"},
    {"readFile", "fs.readFileSync($0, \"utf8\")"},
    {"filebase64", "fs.readFileSync($0, { encoding: \"base64\" })"},
    {"filebase64sha256", "computeFilebase64sha256($0)"},
    {"element", "element($0, $1)"},
    {"join", "$r1.join($0)"},
    {"split", "$r1.split($0)"},
    {"min", "Math.min($*)"},
    {"max", "Math.max($*)"},
    {"singleOrNone", "singleOrNone($0)"},
    {"notImplemented", "notImplemented($0)"},
    {"pulumiResourceName", "pulumi.resourceName($0)"},
    {"pulumiResourceType", "pulumi.resourceType($0)"},
    {"getOutput", "$r0.getOutput($1)"},
};

/* Helper functions the program's calls need, written after the imports as Pulumi writes them. */
static const emit_helper_t TS_HELPERS[] = {
    {"filebase64sha256", "computeFilebase64sha256",
     /* the file's bytes hashed as they are (Pulumi's helper reads it as a latin1 string and hashes that
      * string's UTF-8 encoding: another digest for any byte above 0x7f) */
     "function computeFilebase64sha256(path: string): string {\n"
     "\tconst fileData = fs.readFileSync(path)\n"
     "\treturn crypto.createHash('sha256').update(fileData).digest('base64')\n"
     "}\n\n"},
    /* PCL's element() wraps the index around (go-cty's ElementFunc): an index is undefined past the end */
    {"element", "element",
     "function element<T>(list: T[], index: number): T {\n"
     "    // PCL's element(): the index taken modulo the list's length (a whole number, not negative)\n"
     "    if (!Number.isInteger(index) || index < 0) {\n"
     "        throw new Error(\"element: the index is not a whole number of 0 or more\");\n"
     "    }\n"
     "    if (list.length == 0) {\n"
     "        throw new Error(\"element: the list is empty\");\n"
     "    }\n"
     "    return list[index % list.length];\n"
     "}\n\n"},
    {"notImplemented", "notImplemented", /* `any`: it stands for a value of any type */
     "function notImplemented(message: string): any {\n"
     "    throw new Error(message);\n"
     "}\n\n"},
    {"singleOrNone", "singleOrNone",
     "function singleOrNone<T>(elements: pulumi.Input<T>[]): pulumi.Input<T> | undefined {\n"
     "    if (elements.length > 1) {\n"
     "        throw new Error(\"singleOrNone expected input list to have a single element\");\n"
     "    }\n"
     "    return elements[0];\n"
     "}\n\n"},
};

/* Node.js modules the program's calls need: `import * as <name> from "<name>";`. */
static const emit_module_use_t TS_MODULES[] = {{"sha1", "crypto"},
                                               {"filebase64sha256", "crypto"},
                                               {"readFile", "fs"},
                                               {"filebase64", "fs"},
                                               {"filebase64sha256", "fs"}};

/* can() and try(): each argument a closure, so a failing one is caught by the helper; the Output
 * versions when an argument reads an output or a value of no type (Pulumi's form). */
static void ts_can_try(ts_gen_t *g, const pcl_expr_t *e) {
    bool out = emit_call_output_version(g->w.p, g->w.nodes, e), can = strcmp(e->call.name, "can") == 0;
    buf_puts(g->w.b, can ? (out ? "canOutput_(" : "can_(") : (out ? "tryOutput_(" : "try_("));
    if (can) {
        buf_puts(g->w.b, "() => ");
        ts_expr(g, e->call.args[0]);
        buf_putc(g->w.b, ')');
        return;
    }
    g->w.indent += 4;
    for (size_t i = 0; i < e->call.n; i++) {
        emit_walk_newline(&g->w);
        buf_puts(g->w.b, "() => ");
        ts_expr(g, e->call.args[i]);
        if (i + 1 < e->call.n) buf_putc(g->w.b, ',');
    }
    g->w.indent -= 4;
    emit_walk_newline(&g->w);
    buf_putc(g->w.b, ')');
}

/* The helpers of can() and try(), as Pulumi writes them; `undefined` counts as failure (a value
 * read "too safely" with ?. is undefined where the PCL read fails). */
static const char TS_CAN[] = "function can_(\n"
                             "    fn: () => any\n"
                             "): boolean {\n"
                             "    try {\n"
                             "        const result = fn();\n"
                             "        if (result === undefined) {\n"
                             "            return false;\n"
                             "        }\n"
                             "        return true;\n"
                             "    } catch (e) {\n"
                             "        return false;\n"
                             "    }\n"
                             "}\n\n";
static const char TS_CAN_OUTPUT[] = "function canOutput_(\n"
                                    "    fn: () => pulumi.Input<any>\n"
                                    "): pulumi.Output<boolean> {\n"
                                    "    try {\n"
                                    "        return pulumi.output(fn()).apply(result => result !== undefined);\n"
                                    "    } catch {\n"
                                    "        return pulumi.output(false);\n"
                                    "    }\n"
                                    "}\n\n";
static const char TS_TRY[] = "function try_(\n"
                             "\t...fns: Array<() => any>\n"
                             "): any {\n"
                             "\tfor (const fn of fns) {\n"
                             "\t\ttry {\n"
                             "\t\t\tconst result = fn();\n"
                             "\t\t\tif (result === undefined) {\n"
                             "\t\t\t\tcontinue;\n"
                             "\t\t\t}\n"
                             "\t\t\treturn result;\n"
                             "\t\t} catch (e) {\n"
                             "\t\t\tcontinue;\n"
                             "\t\t}\n"
                             "\t}\n"
                             "\tthrow new Error(\"try: all parameters failed\");\n"
                             "}\n\n";
static const char TS_TRY_OUTPUT[] =
    "function tryOutput_(\n"
    "\t...fns: Array<() => pulumi.Input<any>>\n"
    "): pulumi.Output<any> {\n"
    "\tif (fns.length === 0) {\n"
    "\t\tthrow new Error(\"try: all parameters failed\");\n"
    "\t}\n"
    "\tconst [fn, ...rest] = fns;\n"
    "\ttry {\n"
    "\t\treturn pulumi.output(fn()).apply(result => result !== undefined ? result : tryOutput_(...rest));\n"
    "\t} catch {\n"
    "\t\treturn tryOutput_(...rest);\n"
    "\t}\n"
    "\tthrow new Error(\"try: all parameters failed\");\n"
    "}\n\n";

typedef struct can_try_scan {
    ts_gen_t *g;
    bool used[4]; /* can_, canOutput_, try_, tryOutput_ */
} can_try_scan_t;

static bool can_try_one(const pcl_expr_t *e, void *ctx) {
    can_try_scan_t *s = ctx;
    if (e->kind == PCL_CALL && (strcmp(e->call.name, "can") == 0 || strcmp(e->call.name, "try") == 0))
        s->used[(e->call.name[0] == 't' ? 2 : 0) + emit_call_output_version(s->g->w.p, s->g->w.nodes, e)] = true;
    return true;
}

/* Writes the helpers of the can() and try() versions the program calls. */
static void ts_can_try_helpers(ts_gen_t *g) {
    can_try_scan_t s = {.g = g};
    for (size_t i = 0; i < g->w.p->n_nodes; i++) {
        const pcl_node_t *n = &g->w.p->nodes[i];
        for (size_t k = 0; k < n->n_attrs; k++)
            pcl_expr_walk(n->attrs[k].value, can_try_one, &s);
        for (size_t k = 0; k < n->n_options; k++)
            pcl_expr_walk(n->options[k].value, can_try_one, &s);
    }
    static const char *const text[] = {TS_CAN, TS_CAN_OUTPUT, TS_TRY, TS_TRY_OUTPUT};
    static const int order[] = {1, 0, 3, 2}; /* Pulumi's: sorted by text */
    for (size_t i = 0; i < 4; i++)
        if (s.used[order[i]]) buf_puts(g->w.b, text[order[i]]);
}

/* toJSON's replacer where a member may be undefined: PCL's null. */
#define TS_JSON_KEEP_UNDEFINED ", (_, v) => v === undefined ? null : v"

/* Whether e may be undefined in TypeScript: an unset config value (`default = null`, which
 * config.get gives as undefined), an output the schema does not require or an invoke's result the
 * provider left out, a for expression's variable, what a lookup, an index or a conditional gives. A
 * literal, a template, an operator, a list or an object never is. */
static bool ts_may_be_undefined(const ts_gen_t *g, const pcl_expr_t *e, int depth) {
    switch (e->kind) {
    case PCL_NULL:
    case PCL_BOOL:
    case PCL_NUMBER:
    case PCL_STRING:
    case PCL_TEMPLATE:
    case PCL_UNARY:
    case PCL_BINARY:
    case PCL_TUPLE:
    case PCL_OBJECT:
    case PCL_FOR:
    case PCL_SPLAT: return false;
    case PCL_TRAVERSAL: {
        int idx = emit_walk_in_scope(&g->w, e->trav.root) ? -1 : names_table_get(g->w.nodes, e->trav.root);
        const pcl_node_t *n = idx >= 0 ? &g->w.p->nodes[idx] : NULL;
        if (n && n->kind == PCL_NODE_CONFIG && !e->trav.n) /* config.require, or a default given */
            return n->n_attrs && n->attrs[0].value->kind == PCL_NULL;
        if (n && n->kind == PCL_NODE_LOCAL && !e->trav.n && depth < 8)
            return ts_may_be_undefined(g, n->attrs[0].value, depth + 1);
        if (n && n->kind == PCL_NODE_RESOURCE && n->schema && e->trav.n && e->trav.parts[0].attr) {
            /* an output the schema requires, and required properties of its objects, are always there */
            const char *first = e->trav.parts[0].attr;
            if (e->trav.n == 1 && (strcmp(first, "id") == 0 || strcmp(first, "urn") == 0)) return false;
            const schema_property_t *pr = schema_find_property(n->schema->outputs, n->schema->n_outputs, first);
            for (size_t i = 1; pr && pr->required && i < e->trav.n; i++) {
                const schema_type_t *t = pr->type;
                pr = e->trav.parts[i].attr && t && t->kind == SCHEMA_OBJECT && t->object
                         ? schema_find_property(t->object->props, t->object->n_props, e->trav.parts[i].attr)
                         : NULL;
            }
            return !pr || !pr->required;
        }
        return true;
    }
    default: return true;
    }
}

/* Whether JSON.stringify of e may meet an object member that is undefined (ts_may_be_undefined),
 * which it omits where PCL's toJSON writes null: in an object or a for expression's object written
 * here or held by a local, through lists, conditionals and secret(). */
static bool ts_json_may_drop(const ts_gen_t *g, const pcl_expr_t *e, int depth) {
    if (depth > 8) return false;
    switch (e->kind) {
    case PCL_OBJECT:
        for (size_t i = 0; i < e->object.n; i++)
            if (ts_may_be_undefined(g, e->object.items[i].value, 0) ||
                ts_json_may_drop(g, e->object.items[i].value, depth + 1))
                return true;
        return false;
    case PCL_TUPLE:
        for (size_t i = 0; i < e->tuple.n; i++)
            if (ts_json_may_drop(g, e->tuple.items[i], depth + 1)) return true;
        return false;
    case PCL_FOR: return (e->for_object && ts_may_be_undefined(g, e->z, 0)) || ts_json_may_drop(g, e->z, depth + 1);
    case PCL_COND: return ts_json_may_drop(g, e->y, depth + 1) || ts_json_may_drop(g, e->z, depth + 1);
    case PCL_CALL:
        return (strcmp(e->call.name, "secret") == 0 || strcmp(e->call.name, "unsecret") == 0) && e->call.n == 1 &&
               ts_json_may_drop(g, e->call.args[0], depth + 1);
    case PCL_TRAVERSAL: {
        int idx = emit_walk_in_scope(&g->w, e->trav.root) ? -1 : names_table_get(g->w.nodes, e->trav.root);
        return idx >= 0 && !e->trav.n && g->w.p->nodes[idx].kind == PCL_NODE_LOCAL &&
               ts_json_may_drop(g, g->w.p->nodes[idx].attrs[0].value, depth + 1);
    }
    default: return false;
    }
}

static void ts_call(emit_walk_t *w, const pcl_expr_t *e) {
    ts_gen_t *g = (ts_gen_t *)w;
    const char *fn = e->call.name;
    if (strcmp(fn, "can") == 0 || strcmp(fn, "try") == 0) {
        ts_can_try(g, e);
        return;
    }
    if (emit_walk_min_max_spread(&g->w, e, "Math.%s(", "...")) return; /* the list spread into the arguments */
    /* Pulumi's form: the value a function of the failure's message, `error` */
    if (emit_walk_recover(w, e, "pulumi.recover($0, err => ((error) => ",
                          ")(err instanceof Error ? err.message : String(err)))"))
        return;
    if (strcmp(fn, "length") == 0 && e->call.n == 1) {
        /* PCL counts a string's grapheme clusters, a list's elements, a map's keys */
        emit_shape_t sh = emit_expr_shape(g->w.p, g->w.nodes, e->call.args[0]);
        emit_walk_format(&g->w,
                         sh == EMIT_SHAPE_STRING ? "[...new Intl.Segmenter().segment($0)].length"
                         : sh == EMIT_SHAPE_LIST ? "$r0.length"
                                                 : "Object.keys($0).length",
                         e);
    } else if (strcmp(fn, "entries") == 0 && e->call.n == 1) {
        if (emit_expr_shape(g->w.p, g->w.nodes, e->call.args[0]) == EMIT_SHAPE_LIST)
            emit_walk_format(&g->w, "$r0.map((v, k) => ({key: k, value: v}))", e);
        else
            emit_walk_format(&g->w, "Object.entries($0)" TS_SORT_BY_KEY ".map(([k, v]) => ({key: k, value: v}))", e);
    } else if (strcmp(fn, "lookup") == 0) {
        /* `??`, not Pulumi's `||`: a present key whose value is "", 0 or false is not the default */
        emit_shape_t sh = emit_expr_shape(g->w.p, g->w.nodes, e->call.args[0]);
        const char *map = sh == EMIT_SHAPE_OBJECT ? "($0 as Record<string, any>)" : "$r0";
        /* the default as a receiver is (`$r2`: an operator, a conditional or another lookup with a
         * default parenthesised): `??` binds looser than all but `?:`, and `m[k] ?? c ? 1 : 2` read
         * `(m[k] ?? c) ? 1 : 2` (read12c F3) */
        /* a key a plain object has from Object.prototype when the map lacks it (`constructor`,
         * `toString`, ...), or one not known before the program runs: the default unless the map has
         * the key itself (read12 F7: `m["constructor"] ?? d` gave the Object function) */
        const pcl_expr_t *k = e->call.args[1];
        bool own = e->call.n == 3 && (k->kind != PCL_STRING || ts_prototype_member(k->s));
        if (own)
            emit_walk_format(
                &g->w, arena_sprintf(g->w.a, "(Object.prototype.hasOwnProperty.call($0, $1) ? %s[$1] : $2)", map), e);
        else
            emit_walk_format(&g->w, arena_sprintf(g->w.a, "%s[$1]%s", map, e->call.n == 3 ? " ?? $r2" : ""), e);
    } else if (strcmp(fn, "split") == 0 && e->call.n == 2 &&
               (e->call.args[0]->kind != PCL_STRING || !*e->call.args[0]->s)) {
        /* "" gives PCL's characters, code points: "".split("") cuts an emoji into UTF-16 halves */
        emit_walk_format(&g->w,
                         e->call.args[0]->kind == PCL_STRING ? "Array.from($1)"
                                                             : "($r0 === \"\" ? Array.from($1) : $r1.split($0))",
                         e);
    } else if (strcmp(fn, "toJSON") == 0) {
        /* JSON.stringify omits an object's undefined member, and gives undefined (no text) for an
         * undefined value itself, where PCL writes null (the replacer sees the value itself too) */
        const char *keep =
            e->call.n == 1 && (ts_may_be_undefined(g, e->call.args[0], 0) || ts_json_may_drop(g, e->call.args[0], 0))
                ? TS_JSON_KEEP_UNDEFINED
                : "";
        emit_walk_format(
            &g->w,
            arena_sprintf(g->w.a, "%s($0%s)",
                          emit_call_is_output(g->w.p, g->w.nodes, e) ? "pulumi.jsonStringify" : "JSON.stringify", keep),
            e);
    } else {
        emit_walk_call(&g->w, e, TS_CALLS, sizeof TS_CALLS / sizeof TS_CALLS[0]);
    }
}

/* --- invokes and method calls ------------------------------------------------------------------------ */

/* `pkg[.module].fnOutput(args[, options])`, Pulumi's form: the output version of the function (it
 * takes Inputs and returns an Output), the arguments an object one per line (positional for a
 * function with multi-argument inputs), options in the order written with pluginDownloadUrl
 * spelled as the SDK's InvokeOptions spell it. */
static void ts_invoke(emit_walk_t *w, const pcl_expr_t *e) {
    ts_gen_t *g = (ts_gen_t *)w;
    bool positional = emit_walk_invoke_head(w, e, "Output", e->call.args[0]->s, NULL);
    if (e->call.n == 3 && !positional) {
        const pcl_expr_t *o = e->call.args[2];
        buf_puts(g->w.b, ", {");
        g->w.indent += 4;
        for (size_t i = 0; i < o->object.n; i++) {
            const char *key = o->object.items[i].key;
            emit_walk_newline(&g->w);
            buf_printf(g->w.b, "%s: ", strcmp(key, "pluginDownloadUrl") == 0 ? "pluginDownloadURL" : key);
            ts_expr(g, o->object.items[i].value);
            buf_putc(g->w.b, ',');
        }
        g->w.indent -= 4;
        emit_walk_newline(&g->w);
        buf_putc(g->w.b, '}');
    }
    buf_putc(g->w.b, ')');
}

/* A method's arguments: `res.method()`, or `res.method(({...}))` with arguments (Pulumi's generator
 * parenthesises the object). */
static void ts_method_args(emit_walk_t *w, const pcl_expr_t *args) {
    if (!args->object.n) return;
    buf_putc(w->b, '(');
    emit_walk_object(w, args, true);
    buf_putc(w->b, ')');
}

/* --- expressions beyond literals: templates, operators, conditionals, for, splat ------------------- */

static void ts_template(ts_gen_t *g, const pcl_expr_t *e) {
    buf_putc(g->w.b, '`');
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *part = e->tuple.items[i];
        if (part->kind == PCL_STRING) {
            ts_template_text(g, part->s, false);
        } else {
            buf_puts(g->w.b, "${");
            ts_expr(g, part);
            buf_putc(g->w.b, '}');
        }
    }
    buf_putc(g->w.b, '`');
}

/* lookup() with a default is written `m[k] ?? d`: `??` binds looser than every operator but `?:` and
 * does not mix with `||`/`&&` unparenthesised, so as an operand, an indexed value or a receiver it is
 * parenthesised (read12 F15: `lookup(m, k, d) == "x"` meant `m[k] ?? (d == "x")`). */
static bool ts_needs_parens(const pcl_expr_t *parent, const pcl_expr_t *child) {
    return parent->kind != PCL_COND && child->kind == PCL_CALL && child->call.n == 3 &&
           strcmp(child->call.name, "lookup") == 0;
}

static void ts_operand(ts_gen_t *g, const pcl_expr_t *parent, const pcl_expr_t *child, bool right) {
    emit_walk_operand(&g->w, parent, child, right);
}

/* The lambda parameters of a for expression: `n`, `(v, k)` / `([k, v])` for entries. */
static void ts_for_params(ts_gen_t *g, const pcl_expr_t *e, bool entries) {
    if (entries || e->kvar)
        buf_printf(g->w.b, "([%s, %s])", e->kvar ? e->kvar : "_", e->vvar);
    else
        buf_puts(g->w.b, e->vvar);
}

/* Pulumi's TypeScript for a for expression: lists `.map`, maps `Object.entries(m).sort()`, a
 * condition `.filter` first, an object result `.reduce` into a fresh object. */
static void ts_for(ts_gen_t *g, const pcl_expr_t *e) {
    emit_shape_t sh;
    if (!emit_walk_for_shape(&g->w, e, &sh)) return;
    bool entries = sh != EMIT_SHAPE_LIST;
    if (entries) {
        buf_puts(g->w.b, "Object.entries(");
        ts_expr(g, e->x);
        buf_puts(g->w.b, ")" TS_SORT_BY_KEY);
    } else {
        bool paren = e->x->kind != PCL_TRAVERSAL && e->x->kind != PCL_TUPLE && e->x->kind != PCL_CALL;
        if (paren) buf_putc(g->w.b, '(');
        ts_expr(g, e->x);
        if (paren) buf_putc(g->w.b, ')');
        if (e->kvar) buf_puts(g->w.b, ".map((v, k) => [k, v] as const)");
    }
    size_t saved = g->w.n_scope;
    if (!emit_walk_scope_push(&g->w, e)) return;
    if (e->w) {
        buf_puts(g->w.b, ".filter(");
        ts_for_params(g, e, entries);
        buf_puts(g->w.b, " => ");
        ts_expr(g, e->w);
        buf_putc(g->w.b, ')');
    }
    if (e->for_object) {
        buf_puts(g->w.b, ".reduce((__obj, ");
        if (entries || e->kvar)
            buf_printf(g->w.b, "[%s, %s]", e->kvar ? e->kvar : "_", e->vvar);
        else
            buf_puts(g->w.b, e->vvar);
        buf_puts(g->w.b, ") => ({ ...__obj, [");
        ts_expr(g, e->y);
        buf_puts(g->w.b, "]: ");
        ts_expr(g, e->z);
        buf_puts(g->w.b, " }), {})");
    } else {
        buf_puts(g->w.b, ".map(");
        ts_for_params(g, e, entries);
        buf_puts(g->w.b, " => (");
        ts_expr(g, e->z);
        buf_puts(g->w.b, "))");
    }
    g->w.n_scope = saved;
}

/* The expression itself, its output atoms already resolved (or none). */
static void ts_computed(emit_walk_t *w, const pcl_expr_t *e) {
    ts_gen_t *g = (ts_gen_t *)w;
    switch (e->kind) {
    case PCL_TEMPLATE: ts_template(g, e); return;
    case PCL_UNARY:
        buf_puts(g->w.b, e->op);
        ts_operand(g, e, e->x, false);
        return;
    case PCL_BINARY: { /* `x == null` as Pulumi writes it (loose equality: null or undefined) */
        emit_scope_t s = {g->w.scope, NULL, NULL, NULL, g->w.n_scope, NULL};
        bool strict = emit_strict_equality(g->w.p, g->w.nodes, &s, e);
        emit_walk_binary(&g->w, e, strict ? (e->op[0] == '=' ? "===" : "!==") : e->op, "Number(", "null");
        return;
    }
    case PCL_COND: emit_walk_conditional(&g->w, e, false, " ? ", " : "); return;
    case PCL_INDEX:
        /* a key that is a name reads as a property, as Pulumi writes it (`.key`) */
        if (e->y->kind == PCL_STRING && names_is_identifier(LANG_TYPESCRIPT, e->y->s) && emit_fn_call_under(e)) {
            emit_walk_operand(&g->w, e, e->x, false);
            buf_printf(g->w.b, ".%s", e->y->s);
            return;
        }
        emit_walk_index(&g->w, e);
        return;
    case PCL_GETATTR: emit_walk_getattr(&g->w, e, false); return;
    case PCL_SPLAT:
        ts_operand(g, e, e->x, false);
        buf_puts(g->w.b, ".map(__item => __item");
        for (size_t i = 0; i < e->trav.n; i++)
            ts_trav_part(g, &e->trav.parts[i], false);
        buf_putc(g->w.b, ')');
        return;
    case PCL_FOR: ts_for(g, e); return;
    default: ts_expr(g, e); return;
    }
}

/* Whether a traversal's first property is an optional output of its resource. */
static bool ts_head_optional(const ts_gen_t *g, const pcl_expr_t *e) {
    int idx = names_table_get(g->w.nodes, e->trav.root);
    if (idx < 0 || !g->w.p->nodes[idx].schema || !e->trav.n || !e->trav.parts[0].attr) return false;
    const schema_resource_t *r = g->w.p->nodes[idx].schema;
    const schema_property_t *pr = schema_find_property(r->outputs, r->n_outputs, e->trav.parts[0].attr);
    return pr && !pr->required;
}

/* An expression computed from outputs, as Pulumi writes it: `a.apply(x => ...)` for one output,
 * `pulumi.all([a, b]).apply(([x, y]) => ...)` for several; the same output read twice is one
 * parameter. */
static void ts_apply(emit_walk_t *w, const pcl_expr_t *e) {
    ts_gen_t *g = (ts_gen_t *)w;
    emit_apply_t ap;
    emit_apply_plan(g->w.a, g->w.p, g->w.nodes, g->w.ident, LANG_TYPESCRIPT, e, g->w.scope, g->w.n_scope, &ap);
    if (ap.nu == 1) {
        const pcl_expr_t *a = ap.heads[ap.uniq[0]];
        if (!ap.head_is_output) buf_puts(g->w.b, "pulumi.output(");
        ts_expr(g, a);
        buf_printf(g->w.b, "%s.apply(%s => ", ap.head_is_output ? "" : ")", ap.names[ap.uniq[0]]);
    } else {
        buf_puts(g->w.b, "pulumi.all([");
        for (size_t k = 0; k < ap.nu; k++) {
            if (k) buf_puts(g->w.b, ", ");
            ts_expr(g, ap.heads[ap.uniq[k]]);
        }
        buf_puts(g->w.b, "]).apply(([");
        for (size_t k = 0; k < ap.nu; k++)
            buf_printf(g->w.b, "%s%s", k ? ", " : "", ap.names[ap.uniq[k]]);
        buf_puts(g->w.b, "]) => ");
    }
    emit_walk_apply_body(&g->w, &ap, e, ts_computed);
}

/* A method call whose result is plain (a provider, a value): the Node.js SDK returns a Promise of it,
 * so Pulumi's generator awaits it, in an async main function (l2-component-call-plain). */
static bool ts_plain_method(const pcl_expr_t *e) {
    return e->kind == PCL_CALL && emit_is_method_call(e) && e->function && e->function->return_plain;
}

static bool ts_find_plain_method(const pcl_expr_t *e, void *ctx) {
    if (ts_plain_method(e)) *(bool *)ctx = true;
    return !*(bool *)ctx;
}

/* Whether any of the program's expressions calls a method with a plain result. */
static bool ts_awaits(const pcl_program_t *p) {
    bool found = false;
    for (size_t i = 0; i < p->n_nodes && !found; i++) {
        const pcl_node_t *n = &p->nodes[i];
        for (size_t k = 0; k < n->n_attrs && !found; k++)
            pcl_expr_walk(n->attrs[k].value, ts_find_plain_method, &found);
        for (size_t k = 0; k < n->n_options && !found; k++)
            pcl_expr_walk(n->options[k].value, ts_find_plain_method, &found);
    }
    return found;
}

static void ts_expr(ts_gen_t *g, const pcl_expr_t *e) {
    static const char *const conv[EMIT_CONV_UNSUPPORTED] = {
        [EMIT_CONV_STRING_TO_BOOL] = "%s === \"true\"",
        [EMIT_CONV_STRING_TO_INT] = "Number(%s)",
        [EMIT_CONV_STRING_TO_NUMBER] = "Number(%s)",
    };
    if (emit_walk_convert(&g->w, e, conv, "%s.apply(x => %s)")) return;
    int s = emit_walk_subst(&g->w, e);
    if (s >= 0) {
        buf_puts(g->w.b, g->w.subst_name[s]);
        bool optional = g->w.subst_skip[s] > 0 && ts_head_optional(g, e);
        for (size_t k = g->w.subst_skip[s]; e->kind == PCL_TRAVERSAL && k < e->trav.n; k++)
            ts_trav_part(g, &e->trav.parts[k], optional);
        return;
    }
    switch (e->kind) {
    case PCL_NULL:
        /* in a stack output's value, at no position the schema types, the JSON null it is, as Pulumi
         * writes it; elsewhere `undefined` rather than Pulumi's `null`, which an optional input does
         * not accept under --strict (to the engine both mean "not set") */
        buf_puts(g->w.b, g->in_output && !e->type ? "null" : "undefined");
        break;
    case PCL_BOOL: buf_puts(g->w.b, e->b ? "true" : "false"); break;
    case PCL_NUMBER:
        if (!emit_walk_enum(&g->w, e)) names_append_number(g->w.b, e->n);
        break;
    case PCL_STRING:
        if (!emit_walk_enum(&g->w, e)) ts_string(g, e->s);
        break;
    case PCL_TUPLE: emit_walk_list(&g->w, e); break;
    case PCL_OBJECT: emit_walk_object(&g->w, e, false); break;
    case PCL_TRAVERSAL:
        ts_traversal(g, e);
        break;
    EMIT_CASE_LANGUAGE_EXPRS:
        /* `invoke(...).result`: the result is an Output of an object, whose properties lift */
        if (g->w.in_apply || !emit_has_output(g->w.p, g->w.nodes, e) ||
            ((e->kind == PCL_GETATTR || e->kind == PCL_INDEX) && emit_fn_call_under(e))) {
            ts_computed(&g->w, e);
        } else if (e->kind == PCL_TEMPLATE) {
            /* Pulumi's form for a template over outputs: interpolate resolves the outputs in it (a
             * computed part over outputs gets its own apply) */
            buf_puts(g->w.b, "pulumi.interpolate");
            g->in_interpolate = true;
            ts_template(g, e);
            g->in_interpolate = false;
        } else {
            ts_apply(&g->w, e);
        }
        break;
    case PCL_CALL:
        if (ts_plain_method(e)) { /* its result is a Promise: awaited in the async main function */
            buf_puts(g->w.b, "(await ");
            emit_walk_call_expr(&g->w, e);
            buf_putc(g->w.b, ')');
            break;
        }
        emit_walk_call_expr(&g->w, e);
        break;
    }
}

static int attr_name_cmp(const void *x, const void *y) {
    return strcmp((*(const pcl_attr_t *const *)x)->name, (*(const pcl_attr_t *const *)y)->name);
}

/* An alias object: `{name: ..., parent: ...}` with `noParent = true` as the SDK's
 * `parent: pulumi.rootStackResource`. */
static const emit_alias_syntax_t TS_ALIAS = {
    .open = "{", .close = "}", .sep = ": ", .no_parent = "parent: pulumi.rootStackResource"};

/* The `hooks` option, a ResourceHookBinding: `{\n    afterCreate: [a, b],\n}` (each list on one line,
 * as Pulumi writes it). */
static void ts_hook_binding(ts_gen_t *g, const pcl_expr_t *v) {
    buf_putc(g->w.b, '{');
    g->w.indent += 4;
    for (size_t i = 0; i < v->object.n; i++) {
        const pcl_expr_t *l = v->object.items[i].value;
        emit_walk_newline(&g->w);
        buf_printf(g->w.b, "%s: [", v->object.items[i].key);
        for (size_t k = 0; k < l->tuple.n; k++) {
            if (k) buf_puts(g->w.b, ", ");
            ts_expr(g, l->tuple.items[k]);
        }
        buf_puts(g->w.b, "],");
    }
    g->w.indent -= 4;
    emit_walk_newline(&g->w);
    buf_putc(g->w.b, '}');
}

/* A hook's command run as Pulumi's Node.js generator writes it: `child_process.execFileSync(program,
 * [args])` (no shell), with the hook's arguments as `args`; an argument known to be a number or a
 * bool converted with String() (execFileSync takes strings). */
static void ts_hook_command(ts_gen_t *g, const pcl_expr_t *cmd) {
    buf_puts(g->w.b, "child_process.execFileSync(");
    for (size_t i = 0; i < cmd->tuple.n; i++) {
        const pcl_expr_t *a = cmd->tuple.items[i];
        if (i == 1) buf_puts(g->w.b, ", [");
        if (i > 1) buf_puts(g->w.b, ", ");
        emit_shape_t sh = emit_expr_shape(g->w.p, g->w.nodes, a);
        bool conv = sh == EMIT_SHAPE_NUMBER || sh == EMIT_SHAPE_BOOL;
        if (conv) buf_puts(g->w.b, "String(");
        ts_expr(g, a);
        if (conv) buf_putc(g->w.b, ')');
    }
    buf_puts(g->w.b, cmd->tuple.n > 1 ? "]);" : ", []);");
}

/* `new pulumi.ResourceHook(name, (args) => {...}[, {onDryRun: ..., ignoreErrors: ...}])`, or an
 * ErrorHook whose callback says whether to retry: true when the command succeeds. */
static void ts_hook(emit_walk_t *w, size_t idx) {
    ts_gen_t *g = (ts_gen_t *)w;
    const pcl_node_t *n = &g->w.p->nodes[idx];
    emit_hook_t h;
    if (!emit_hook_attrs(n, &h)) return;
    bool error = h.error;
    const pcl_attr_t *cmd = h.command, *dry = h.dry_run, *ignore = h.ignore_errors;
    buf_printf(g->w.b, "const %s = new pulumi.%s(", g->w.ident[idx], error ? "ErrorHook" : "ResourceHook");
    names_append_quoted(g->w.b, LANG_TYPESCRIPT, emit_node_logical_name(n));
    buf_puts(g->w.b, ", (args) => {");
    size_t saved_scope = g->w.n_scope;
    g->w.scope[g->w.n_scope++] = "args";
    g->w.indent += 4;
    emit_walk_newline(&g->w);
    if (error) {
        buf_puts(g->w.b, "try {");
        g->w.indent += 4;
        emit_walk_newline(&g->w);
        ts_hook_command(g, cmd->value);
        emit_walk_newline(&g->w);
        buf_puts(g->w.b, "return true;");
        g->w.indent -= 4;
        emit_walk_newline(&g->w);
        buf_puts(g->w.b, "} catch (error) {");
        g->w.indent += 4;
        emit_walk_newline(&g->w);
        buf_puts(g->w.b, "return false;");
        g->w.indent -= 4;
        emit_walk_newline(&g->w);
        buf_putc(g->w.b, '}');
    } else {
        ts_hook_command(g, cmd->value);
    }
    g->w.indent -= 4;
    emit_walk_newline(&g->w);
    buf_putc(g->w.b, '}');
    g->w.n_scope = saved_scope;
    if (dry || ignore) {
        buf_puts(g->w.b, ", {");
        if (dry) {
            buf_puts(g->w.b, "onDryRun: ");
            ts_expr(g, dry->value);
        }
        if (ignore) {
            buf_puts(g->w.b, dry ? ", ignoreErrors: " : "ignoreErrors: ");
            ts_expr(g, ignore->value);
        }
        buf_putc(g->w.b, '}');
    }
    buf_puts(g->w.b, ");\n");
}

/* `, {\n    key: value,\n}` with keys sorted (Pulumi's genResourceOptions), or nothing. */
static void ts_options(ts_gen_t *g, const pcl_node_t *n) {
    if (n->n_options == 0) return;
    const pcl_attr_t **opts = arena_alloc(g->w.a, n->n_options * sizeof *opts);
    for (size_t i = 0; i < n->n_options; i++)
        opts[i] = &n->options[i];
    qsort(opts, n->n_options, sizeof *opts, attr_name_cmp);
    buf_puts(g->w.b, ", {");
    g->w.indent += 4;
    for (size_t i = 0; i < n->n_options; i++) {
        const pcl_attr_t *o = opts[i];
        emit_walk_newline(&g->w);
        buf_printf(g->w.b, "%s: ", o->name);
        pcl_option_kind_t kind = pcl_option_kind(o->name);
        if ((kind == PCL_OPT_PATHS || kind == PCL_OPT_ALIASES) && o->value->kind == PCL_TUPLE) {
            emit_walk_option_list(&g->w, kind, o->value, &TS_ALIAS);
        } else if (strcmp(o->name, "hooks") == 0 && o->value->kind == PCL_OBJECT) {
            ts_hook_binding(g, o->value);
        } else {
            ts_expr(g, o->value);
        }
        buf_putc(g->w.b, ',');
    }
    g->w.indent -= 4;
    emit_walk_newline(&g->w);
    buf_putc(g->w.b, '}');
}

/* `{k: v}` for one input, one per line otherwise (Pulumi's layout). */
static void ts_inputs(ts_gen_t *g, const pcl_node_t *n) {
    buf_putc(g->w.b, '{');
    if (n->n_attrs == 1) {
        ts_key(g, n->attrs[0].name);
        buf_puts(g->w.b, ": ");
        ts_expr(g, n->attrs[0].value);
    } else if (n->n_attrs > 1) {
        g->w.indent += 4;
        for (size_t i = 0; i < n->n_attrs; i++) {
            emit_walk_newline(&g->w);
            ts_key(g, n->attrs[i].name);
            buf_puts(g->w.b, ": ");
            ts_expr(g, n->attrs[i].value);
            buf_putc(g->w.b, ',');
        }
        g->w.indent -= 4;
        emit_walk_newline(&g->w);
    }
    buf_putc(g->w.b, '}');
}

/* A read block: `Class.get(name, id[, {state}][, options])`, as Pulumi writes it. */
static void ts_read(ts_gen_t *g, size_t idx, const char *cls) {
    const pcl_node_t *n = &g->w.p->nodes[idx];
    pcl_node_t state = *n; /* its attributes but the id */
    state.attrs = arena_alloc(g->w.a, (n->n_attrs ? n->n_attrs : 1) * sizeof *state.attrs);
    state.n_attrs = 0;
    const pcl_attr_t *id = NULL;
    for (size_t i = 0; i < n->n_attrs; i++)
        if (strcmp(n->attrs[i].name, "id") == 0)
            id = &n->attrs[i];
        else
            state.attrs[state.n_attrs++] = n->attrs[i];
    buf_printf(g->w.b, "const %s = %s.get(", g->w.ident[idx], cls);
    names_append_quoted(g->w.b, LANG_TYPESCRIPT, emit_node_logical_name(n));
    buf_puts(g->w.b, ", ");
    if (id) ts_expr(g, id->value);
    if (state.n_attrs) {
        buf_puts(g->w.b, ", ");
        ts_inputs(g, &state);
    } else if (n->n_options) {
        buf_puts(g->w.b, ", undefined");
    }
    ts_options(g, n);
    buf_puts(g->w.b, ");\n");
}

static void ts_resource(emit_walk_t *w, size_t idx) {
    ts_gen_t *g = (ts_gen_t *)w;
    const pcl_node_t *n = &g->w.p->nodes[idx];
    const char *cls = emit_walk_resource_class(&g->w, n);
    if (!cls) return;
    if (n->read) {
        ts_read(g, idx, cls);
        return;
    }
    buf_printf(g->w.b, "const %s = new %s(", g->w.ident[idx], cls);
    names_append_quoted(g->w.b, LANG_TYPESCRIPT, emit_node_logical_name(n));
    buf_puts(g->w.b, ", ");
    ts_inputs(g, n);
    ts_options(g, n);
    buf_puts(g->w.b, ");\n");
}

/* After a component's name: its inputs and options. */
static void ts_component_args(emit_walk_t *w, const pcl_node_t *n) {
    ts_gen_t *g = (ts_gen_t *)w;
    buf_puts(g->w.b, ", ");
    ts_inputs(g, n);
    ts_options(g, n);
}

/* The TypeScript type of a config value read with requireObject: string[], Record<string, number>, any. */
static const char *ts_cfg_type(ts_gen_t *g, const emit_cfg_type_t *t) {
    switch (t->kind) {
    case EMIT_CFG_STRING: return "string";
    case EMIT_CFG_INT:
    case EMIT_CFG_NUMBER: return "number";
    case EMIT_CFG_BOOL: return "boolean";
    case EMIT_CFG_LIST: return arena_sprintf(g->w.a, "Array<%s>", ts_cfg_type(g, t->elem)); /* Pulumi's form */
    case EMIT_CFG_MAP: return arena_sprintf(g->w.a, "Record<string, %s>", ts_cfg_type(g, t->elem));
    case EMIT_CFG_ANY: break;
    }
    if (!t->n_fields) return "any";
    buf_t b; /* an object type: each field optional, as Pulumi writes it (`{other?: number, prop?: string}`) */
    buf_init(&b);
    buf_putc(&b, '{');
    for (size_t i = 0; i < t->n_fields; i++)
        buf_printf(&b, "%s%s?: %s", i ? ", " : "", t->fields[i].name, ts_cfg_type(g, t->fields[i].type));
    buf_putc(&b, '}');
    const char *r = buf_arena_str(&b, g->w.a);
    buf_free(&b);
    return r;
}

/* The getter of a stack config read, `config.require[Secret][Number|Boolean|Object<T>]("key")`. */
static const char *ts_config_getter(emit_walk_t *w, const pcl_node_t *n) {
    const char *t = n->token ? n->token : "string";
    const char *kind = "";
    if (strcmp(t, "int") == 0 || strcmp(t, "number") == 0)
        kind = "Number";
    else if (strcmp(t, "bool") == 0)
        kind = "Boolean";
    else if (strcmp(t, "string") != 0)
        kind = arena_sprintf(w->a, "Object<%s>", ts_cfg_type((ts_gen_t *)w, emit_config_type(w->a, t)));
    return arena_sprintf(w->a, "%s%s%s", n->n_attrs ? "get" : "require", n->config_secret ? "Secret" : "", kind);
}

/* ` ?? default;` — `??`, not Pulumi's `||`: a value set to "", 0 or false is not replaced. */
static void ts_config_default(emit_walk_t *w, size_t idx, const char *close) {
    ts_gen_t *g = (ts_gen_t *)w;
    const pcl_node_t *n = &w->p->nodes[idx];
    buf_puts(w->b, " ?? ");
    if (n->config_secret) buf_puts(w->b, "pulumi.secret(");
    ts_expr(g, n->attrs[0].value);
    if (n->config_secret) buf_putc(w->b, ')');
    buf_puts(w->b, close);
    buf_puts(w->b, ";\n");
}

static void ts_output_value(ts_gen_t *g, const pcl_node_t *n) {
    g->in_output = true;
    ts_expr(g, n->attrs[0].value);
    g->in_output = false;
}

/* A stack output is an export of the module, under the output's name. */
static void ts_output(emit_walk_t *w, size_t idx) {
    ts_gen_t *g = (ts_gen_t *)w;
    const pcl_node_t *n = &g->w.p->nodes[idx];
    if (g->async_main) return; /* returned at the end of the main function */
    buf_printf(g->w.b, "export const %s = ", g->w.ident[idx]);
    ts_output_value(g, n);
    buf_puts(g->w.b, ";\n");
}

/* `return {name: value, ...};` and the end of the async main function: every output under its
 * logical name (quoted when not an identifier), in program order. */
static void ts_return_outputs(ts_gen_t *g) {
    bool any = false;
    for (size_t i = 0; i < g->w.p->n_nodes; i++) {
        const pcl_node_t *n = &g->w.p->nodes[i];
        if (n->kind != PCL_NODE_OUTPUT) continue;
        if (!any) buf_puts(g->w.b, "    return {");
        any = true;
        g->w.indent = 8;
        emit_walk_newline(&g->w);
        ts_key(g, emit_node_logical_name(n));
        buf_puts(g->w.b, ": ");
        ts_output_value(g, n);
        buf_putc(g->w.b, ',');
    }
    if (any) buf_puts(g->w.b, "\n    };\n");
    buf_puts(g->w.b, "}\n");
}

char *emit_typescript(const pcl_program_t *p, diag_list_t *diags) {
    buf_t out;
    buf_init(&out);
    ts_gen_t g = {0};
    emit_walk_init(&g.w, &TS_SYNTAX, p, diags, &out);
    ts_collect_packages(&g);

    /* the modules and helpers the program's functions need keep their names */
    bool hooks; /* hooks run their commands with child_process */
    names_table_t *fns = emit_walk_reserve_needs(&g.w, TS_MODULES, sizeof TS_MODULES / sizeof *TS_MODULES, TS_HELPERS,
                                                 sizeof TS_HELPERS / sizeof *TS_HELPERS, "child_process", &hooks);
    if (names_table_get(fns, "can") >= 0 || names_table_get(fns, "try") >= 0) {
        static const char *const helpers[] = {"can_", "canOutput_", "try_", "tryOutput_"};
        for (size_t i = 0; i < 4; i++)
            names_table_reserve(g.w.idents, helpers[i]);
    }
    emit_walk_name_config(&g.w, "", 2);
    emit_walk_name_nodes(&g.w, "", 2, true);

    /* Pulumi's rule: an output whose name is not a free identifier of the module (a keyword, a
     * name a variable has, characters no identifier has) makes the program an async main function
     * that returns the outputs under their names */
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].kind == PCL_NODE_OUTPUT && p->nodes[i].name &&
            strcmp(g.w.ident[i], emit_node_logical_name(&p->nodes[i])) != 0)
            g.async_main = true;
    if (ts_awaits(p)) g.async_main = true; /* `(await res.method())` */

    buf_puts(&out, "import * as pulumi from \"@pulumi/pulumi\";\n");
    for (size_t i = 0; i < g.w.n_pkgs; i++) {
        if (strcmp(g.w.pkgs[i].name, "pulumi") == 0) continue; /* imported above */
        buf_printf(&out, "import * as %s from ", g.w.pkgs[i].alias);
        names_append_quoted(&out, LANG_TYPESCRIPT, g.w.pkgs[i].path);
        buf_puts(&out, ";\n");
    }
    if (hooks) buf_puts(&out, "import * as child_process from \"child_process\";\n");
    emit_walk_module_imports(&g.w, &out, fns, TS_MODULES, sizeof TS_MODULES / sizeof *TS_MODULES,
                             "import * as %s from \"%s\";\n");
    buf_putc(&out, '\n');
    emit_walk_helpers(&out, fns, TS_HELPERS, sizeof TS_HELPERS / sizeof *TS_HELPERS);
    if (names_table_get(fns, "can") >= 0 || names_table_get(fns, "try") >= 0) ts_can_try_helpers(&g);

    if (g.async_main) {
        buf_puts(&out, "export = async () => {\n");
        g.w.indent = 4;
    }
    emit_walk_nodes(&g.w);
    if (g.async_main) ts_return_outputs(&g);
    emit_walk_free(&g.w);
    return buf_take(&out);
}

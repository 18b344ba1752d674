/* csharp.c — the C# emitter: PCL program → Program.cs (top-level statements).
 *
 * Same shape as the other emitters: a program walker (emit_csharp), an expression printer
 * (cs_expr) and names (cs_namespace_alias, cs_property_name). Output follows Pulumi's .NET
 * program generator (pcl-emitters §3.4, §4.4): `using` aliases per package, `return await
 * Deployment.RunAsync(() => {...});`, `new()` args with object initializers (Allman braces,
 * trailing commas, a blank line after each resource), nested `Inputs.<Type>Args`, properties and
 * classes renamed by `language.csharp.name`, keywords escaped with `@`, number properties written
 * with `.0`, secrets from stack config and `Output.CreateSecret`. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "emitters/walk.h"

typedef struct cs_using {
    const char *alias;
    const char *ns;
} cs_using_t;

/* The System namespaces a file uses: these two always, more for the functions it calls. */
#define CS_MAX_SYSTEM 12
#define CS_MAX_HELPERS 10
static const char *const CS_SYSTEM[] = {"System.Collections.Generic", "System.Linq"};

typedef struct cs_ctx {
    emit_typed_t base; /* program, names, the node being written */
    cs_using_t *usings;
    size_t n_usings, cap_usings;
    const char *system[CS_MAX_SYSTEM]; /* the System namespaces, CS_SYSTEM first */
    size_t n_system;
    bool helpers[CS_MAX_HELPERS]; /* per CS_HELPERS entry: the file needs it */
    bool in_invoke;               /* writing an invoke's arguments: objects are `<T>InputArgs` */
} cs_ctx_t;

static void cs_indent(buf_t *b, int depth) {
    buf_indent(b, depth * 4);
}

/* --- names ------------------------------------------------------------------------------------ */

static const cJSON *cs_lang(const schema_package_t *pkg, const char *key) {
    if (!pkg || !pkg->language) return NULL;
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(pkg->language, "csharp");
    return cs ? cJSON_GetObjectItemCaseSensitive(cs, key) : NULL;
}

/* namespaceName: split on `-`, UppercaseFirst each part: `azure-native` → AzureNative. */
static char *cs_namespace_name(arena_t *a, const char *s) {
    char *r = arena_strdup(a, s);
    char *o = r;
    bool up = true;
    for (const char *p = s; *p; p++) {
        if (*p == '-' || *p == '_' || *p == '.') {
            up = true;
            continue;
        }
        *o++ = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
        up = false;
    }
    *o = 0;
    return r;
}

static const char *cs_mapped(const schema_package_t *pkg, const char *key) {
    const cJSON *m = cs_lang(pkg, "namespaces");
    const cJSON *v = m ? cJSON_GetObjectItemCaseSensitive(m, key) : NULL;
    return cJSON_GetStringValue(v);
}

/* The alias of the package's namespace (`Random` for `using Random = Pulumi.Random;`), adding the
 * using directive on first use. */
static const char *cs_namespace_alias(cs_ctx_t *c, const schema_package_t *pkg, const char *pkgname) {
    const char *pkgns = cs_mapped(pkg, pkgname);
    if (!pkgns) pkgns = cs_namespace_name(c->base.a, pkgname);
    const cJSON *root_j = cs_lang(pkg, "rootNamespace");
    const char *root = cJSON_IsString(root_j)   ? root_j->valuestring
                       : pkg && pkg->namespace_ ? cs_namespace_name(c->base.a, pkg->namespace_)
                                                : "Pulumi";
    const char *ns = arena_sprintf(c->base.a, "%s.%s", root, pkgns);
    const char *alias = strcmp(pkgns, "Output") == 0 ? "PulumiOutput" : pkgns;
    for (size_t i = 0; i < c->n_usings; i++)
        if (strcmp(c->usings[i].ns, ns) == 0) return c->usings[i].alias;
    for (int n = 2;; n++) {
        bool clash = false;
        for (size_t i = 0; i < c->n_usings && !clash; i++)
            clash = strcmp(c->usings[i].alias, alias) == 0;
        /* a local of the alias's name would hide it (`var Random = ...; new Random.RandomPet(...)`) */
        for (size_t i = 0; i < c->base.p->n_nodes && !clash; i++)
            clash = c->base.var[i] && strcmp(c->base.var[i], alias) == 0;
        if (!clash) break;
        alias = arena_sprintf(c->base.a, "%s%d", pkgns, n);
    }
    if (c->n_usings == c->cap_usings) {
        size_t nc = c->cap_usings ? c->cap_usings * 2 : 8;
        c->usings = arena_grow(c->base.a, c->usings, c->cap_usings * sizeof *c->usings, nc * sizeof *c->usings);
        c->cap_usings = nc;
    }
    c->usings[c->n_usings++] = (cs_using_t){alias, ns};
    return alias;
}

/* `<Alias>[.<ModNs>]` for the module of `token`. */
static const char *cs_module_path_uncached(emit_typed_t *x, schema_package_t *pkg, const char *pkgname,
                                           const char *mod) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    const char *alias = cs_namespace_alias(c, pkg, pkgname);
    if (!*mod || strcmp(mod, "index") == 0) return alias;
    const char *mapped = cs_mapped(pkg, mod);
    if (mapped) return arena_sprintf(c->base.a, "%s.%s", alias, mapped);
    buf_t b;
    buf_init(&b);
    buf_puts(&b, alias);
    char *parts = arena_strdup(c->base.a, mod);
    for (char *save = NULL, *seg = strtok_r(parts, "/", &save); seg; seg = strtok_r(NULL, "/", &save))
        buf_printf(&b, ".%s", cs_namespace_name(c->base.a, seg)); /* `kebab-module` → KebabModule */
    char *r = buf_arena_str(&b, c->base.a);
    buf_free(&b);
    return r;
}

static const char *cs_module_path(cs_ctx_t *c, schema_package_t *pkg, const char *token) {
    return emit_typed_module(&c->base, pkg, token, cs_module_path_uncached, "Unknown");
}

static const char *cs_token_member(cs_ctx_t *c, const char *token) {
    return emit_token_type_name(c->base.a, token, names_pascal);
}

static const char *cs_property_name(cs_ctx_t *c, const char *name, const schema_property_t *prop) {
    if (prop && prop->csharp_name) return prop->csharp_name;
    return names_make_valid_identifier(c->base.a, LANG_CSHARP, names_pascal(c->base.a, name));
}

/* --- expressions ---------------------------------------------------------------------------------- */

static void cs_property(cs_ctx_t *c, buf_t *b, const char *name, const pcl_expr_t *e, const schema_property_t *prop,
                        int depth);

static void cs_expr(cs_ctx_t *c, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth);
static const emit_typed_syntax_t CS_VALUES; /* the values C# writes: its hooks, below */

static void cs_string(buf_t *b, const char *s) {
    /* raw newlines; other control characters stay escaped, and so do C#'s other new-line characters
     * (U+0085, U+2028, U+2029: a line break in the source, which an editor may change) */
    bool verbatim = strchr(s, '\n') != NULL;
    for (const char *p = s; *p && verbatim; p++) {
        size_t w = 0;
        uint32_t r = (unsigned char)*p >= 0x80 ? names_utf8_rune((const unsigned char *)p, &w) : 0;
        verbatim = !pcl_is_nul(p) && ((unsigned char)*p >= 0x20 || *p == '\n' || *p == '\t') && *p != 0x7f &&
                   !(w && names_csharp_newline(r));
    }
    if (!verbatim) {
        names_append_quoted(b, LANG_CSHARP, s);
        return;
    }
    /* verbatim string: newlines raw, `"` doubled */
    buf_puts(b, "@\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"') buf_putc(b, '"');
        buf_putc(b, *p);
    }
    buf_putc(b, '"');
}

/* The .NET types of strings, ints, numbers and bools. */
static const char *const CS_SCALARS[] = {"string", "int", "double", "bool"};

static const char *cs_scalar_type(const schema_type_t *t) {
    const char *name = emit_scalar_name(t, CS_SCALARS);
    return name ? name : "object?";
}

/* A resource's outputs by their C# names (id and urn the resource's own), then what is read from
 * their values inside Apply. */
static const char *cs_attr_name(emit_typed_t *x, int idx, const char *attr, bool first) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    if (!first) return cs_property_name(c, attr, NULL);
    if (strcmp(attr, "id") == 0) return "Id";
    if (strcmp(attr, "urn") == 0) return "Urn";
    const schema_resource_t *res = idx >= 0 ? c->base.p->nodes[idx].schema : NULL;
    return cs_property_name(c, attr, res ? schema_find_property(res->outputs, res->n_outputs, attr) : NULL);
}

static const emit_part_syntax_t CS_PARTS = {.lang = LANG_CSHARP,
                                            .attr = ".Apply(v => v.%s)",
                                            .first_attr = ".%s",
                                            .key_open = ".Apply(v => v[",
                                            .key_close = "])",
                                            .index = ".Apply(v => v[%zu])",
                                            .name = cs_attr_name};

/* What is read from a resolved value (an apply's parameter): properties by their C# names. */
static const emit_part_syntax_t CS_VALUE_PARTS = {
    .lang = LANG_CSHARP, .attr = ".%s", .key_open = "[", .key_close = "]", .index = "[%zu]", .name = cs_attr_name};

/* Below a resource's output it may leave unset, each read is null-conditional, as Pulumi's .NET
 * generator writes it (`res.Data.Apply(v => v?.Size)`). */
/* What is read into a value of no type (a JsonElement), as Pulumi's .NET generator reads it: an
 * attribute or key by GetProperty, an index by its indexer. */
static const emit_part_syntax_t CS_UNTYPED_PARTS = {
    .lang = LANG_CSHARP, .key_open = ".GetProperty(", .key_close = ")", .index = "[%zu]"};

static void cs_untyped_read(emit_typed_t *x, buf_t *b, const char *value, const pcl_trav_part_t *parts, size_t n) {
    (void)x;
    buf_puts(b, value);
    for (size_t k = 0; k < n; k++)
        emit_append_part(b, &parts[k], NULL, &CS_UNTYPED_PARTS);
}

static const emit_part_syntax_t CS_PARTS_OPTIONAL = {.lang = LANG_CSHARP,
                                                     .attr = ".Apply(v => v?.%s)",
                                                     .first_attr = ".%s",
                                                     .key_open = ".Apply(v => v?[",
                                                     .key_close = "])",
                                                     .index = ".Apply(v => v?[%zu])",
                                                     .name = cs_attr_name};

static void cs_traversal(emit_typed_t *x, buf_t *b, const pcl_expr_t *e) {
    int idx = emit_typed_find(x, e->trav.root);
    const pcl_node_t *n = idx >= 0 ? &x->p->nodes[idx] : NULL;
    const schema_property_t *prop =
        n && n->kind == PCL_NODE_RESOURCE && n->schema && e->trav.n > 1 && e->trav.parts[0].attr
            ? schema_find_property(n->schema->outputs, n->schema->n_outputs, e->trav.parts[0].attr)
            : NULL;
    emit_typed_traversal(x, b, e, prop && !prop->required ? &CS_PARTS_OPTIONAL : &CS_PARTS);
}

/* `{`, elements one per line with trailing commas, `}` — the body of every initializer. Each
 * element is rendered at depth+1 by `fn`. */
static void cs_open(buf_t *b, int depth) {
    buf_putc(b, '\n');
    cs_indent(b, depth);
    buf_puts(b, "{\n");
}

static void cs_close(buf_t *b, int depth) {
    cs_indent(b, depth);
    buf_putc(b, '}');
}

/* The SDK's type of an object type's input, `<Module>.Inputs.<Type>Args` (in an invoke's arguments
 * the function's output form, `<Type>InputArgs`, as Pulumi's .NET generator writes it). */
static const char *cs_object_args_type(cs_ctx_t *c, const schema_type_t *t) {
    return arena_sprintf(c->base.a, "%s.Inputs.%s%sArgs",
                         cs_module_path(c, c->base.node ? c->base.node->package : NULL, t->token),
                         cs_token_member(c, t->token), c->in_invoke ? "Input" : "");
}

/* The element type of an empty list `new T[] {}` or of a Dictionary: a scalar's, an object type's
 * Args, an enum's type (what the property's InputList<T> or InputMap<T> converts from); object? for
 * any other. */
static const char *cs_element_type(cs_ctx_t *c, const schema_type_t *et) {
    if (et && et->kind == SCHEMA_OBJECT && et->token) return cs_object_args_type(c, et);
    if (et && et->kind == SCHEMA_ENUM && et->token)
        return arena_sprintf(c->base.a, "%s.%s",
                             cs_module_path(c, c->base.node ? c->base.node->package : NULL, et->token),
                             cs_token_member(c, et->token));
    return et ? cs_scalar_type(et) : "object?";
}

/* A dictionary initializer's body: `["key"] = value,` a line, values of type `et`. */
static void cs_dictionary_entries(cs_ctx_t *c, buf_t *b, const pcl_expr_t *o, const schema_type_t *et, int depth) {
    cs_open(b, depth);
    for (size_t i = 0; i < o->object.n; i++) {
        cs_indent(b, depth + 1);
        emit_typed_entry(&CS_VALUES, &c->base, b, &o->object.items[i], et, depth + 1, "[", "] = ", ",\n");
    }
    cs_close(b, depth);
}

static void cs_dictionary(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *et, int depth) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    if (e->object.n == 0) {
        buf_printf(b, "new Dictionary<string, %s>()", cs_element_type(c, et));
        return;
    }
    /* resources' ids, each read as an Output<string> (as Pulumi's .NET generator types the map) */
    bool ids = !et && emit_id_map(x->p, x->index, e);
    buf_printf(b, "new Dictionary<string, %s>", ids ? "Output<string>" : cs_element_type(c, et));
    cs_dictionary_entries(c, b, e, et, depth);
}

/* One argument of a call, in parentheses when it is an operation (a method's receiver, an operand). */
static void cs_arg(cs_ctx_t *c, buf_t *b, const pcl_expr_t *e, int depth) {
    bool paren = e->kind == PCL_BINARY || e->kind == PCL_UNARY || e->kind == PCL_COND;
    if (paren) buf_putc(b, '(');
    cs_expr(c, b, e, NULL, depth);
    if (paren) buf_putc(b, ')');
}

/* split() whose separator is "" or known only at run time: PCL gives the characters (code points)
 * for "", where Split("") returns the whole string; emit_check_program refuses it over an output. */
static bool cs_split(cs_ctx_t *c, buf_t *b, const pcl_expr_t *e, int depth) {
    const pcl_expr_t *sep = e->call.args[0], *s = e->call.args[1];
    bool literal = sep->kind == PCL_STRING;
    if (literal && *sep->s) return false; /* CS_CALLS: s.Split(",") */
    if (!literal) {
        buf_putc(b, '(');
        cs_arg(c, b, sep, depth);
        buf_puts(b, " == \"\" ? ");
    }
    cs_arg(c, b, s, depth);
    buf_puts(b, ".EnumerateRunes().Select(__rune => __rune.ToString()).ToArray()");
    if (!literal) {
        buf_puts(b, " : ");
        cs_arg(c, b, s, depth);
        buf_puts(b, ".Split(");
        cs_expr(c, b, sep, NULL, depth);
        buf_puts(b, "))");
    }
    return true;
}

/* singleOrNone() of a list whose items are no reference: SingleOrDefault gives default(T) for an
 * empty one (0, 0.0, false), where PCL gives null; the items are made nullable first (a value of
 * no type, a JsonElement, and one of a type not known here: an object?). */
static bool cs_single_or_none(cs_ctx_t *c, buf_t *b, const pcl_expr_t *e, int depth) {
    emit_print_t k = emit_typed_item_kind(&c->base, e->call.args[0]);
    if (k == EMIT_PRINT_STRING || k == EMIT_PRINT_COLLECTION) return false; /* CS_CALLS */
    const char *t = k == EMIT_PRINT_INT      ? "int?"
                    : k == EMIT_PRINT_NUMBER ? "double?"
                    : k == EMIT_PRINT_BOOL   ? "bool?"
                                             : "object?";
    buf_puts(b, "Enumerable.SingleOrDefault(");
    cs_arg(c, b, e->call.args[0], depth);
    buf_printf(b, ".Select(__item => (%s) __item))", t);
    return true;
}

static bool cs_asset_call(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    if (strcmp(e->call.name, "split") == 0 && e->call.n == 2) return cs_split(c, b, e, depth);
    if (strcmp(e->call.name, "singleOrNone") == 0 && e->call.n == 1) return cs_single_or_none(c, b, e, depth);
    const char *cls = emit_asset_class(e->call.name);
    if (!cls) return false;
    if (strcmp(cls, "AssetArchive") == 0) {
        if (e->call.n == 0 || e->call.args[0]->kind != PCL_OBJECT) return false;
        buf_puts(b, "new AssetArchive(new Dictionary<string, AssetOrArchive>");
        cs_dictionary_entries(c, b, e->call.args[0], NULL, depth);
    } else {
        buf_printf(b, "new %s(", cls);
        if (e->call.n > 0) cs_expr(c, b, e->call.args[0], NULL, depth);
    }
    buf_putc(b, ')');
    return true;
}

static void cs_enum_member(emit_typed_t *x, buf_t *b, const schema_type_t *t, const char *ename, const char *member) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    buf_printf(b, "%s.%s.%s", cs_module_path(c, c->base.node ? c->base.node->package : NULL, t->token), ename, member);
}

static const char *cs_need(emit_typed_t *x, const char *ns);

/* An interpolated string, Pulumi's form: `$"a-{x}"`, wrapped in Output.Format when it reads
 * outputs; braces doubled in the text, computed holes parenthesised (a `:` would start a format). */
static void cs_template(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    bool out = emit_has_output(c->base.p, c->base.index, e);
    if (out) buf_puts(b, "Output.Format(");
    buf_puts(b, "$\"");
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *part = e->tuple.items[i];
        if (part->kind != PCL_STRING) {
            /* a converted config value is an expression, and `:` would start a format */
            bool paren = part->kind != PCL_TRAVERSAL || emit_typed_conversion(&CS_VALUES, x, part) != EMIT_CONV_NONE;
            /* a value of no type of its own (a JsonElement, an object: a bool prints True / False) or of a
             * type not known here (a for expression's variable, element(), ...) as PCL prints it, an
             * output's in an Apply */
            emit_print_t kind = emit_typed_print_kind(x, part);
            /* ... and a bool read below an output's object property or off an invoke's or method's result, a
             * bool? (unset, or read through one) */
            bool read = (part->kind == PCL_TRAVERSAL && part->trav.n > 1) ||
                        ((part->kind == PCL_GETATTR || part->kind == PCL_INDEX) && emit_fn_call_under(part));
            bool nested_bool = kind == EMIT_PRINT_BOOL && read && !emit_reads_bool(c->base.p, c->base.index, part);
            /* ... and a number (a double prints by the culture, 1,5 in some, and 1E+15; an int too, -5
             * with U+2212 in some) */
            if (kind == EMIT_PRINT_DYNAMIC || kind == EMIT_PRINT_UNKNOWN || kind == EMIT_PRINT_NUMBER ||
                kind == EMIT_PRINT_INT || nested_bool) {
                const char *format = cs_need(x, "=FormatValue");
                bool output = !x->apply && emit_has_output(c->base.p, c->base.index, part);
                buf_puts(b, output ? (part->kind == PCL_COND ? "{(" : "{") : "{");
                if (!output) buf_printf(b, "%s(", format);
                cs_expr(c, b, part, NULL, depth);
                buf_printf(b, output ? (part->kind == PCL_COND ? ").Apply(v => %s(v))}" : ".Apply(v => %s(v))}") : ")}",
                           format);
                continue;
            }
            /* a bool as PCL prints it (C# formats it True / False; emit_check_program: a plain one) */
            bool boolean = kind == EMIT_PRINT_BOOL;
            if (boolean && out && emit_has_output(c->base.p, c->base.index, part)) { /* an Output<bool> */
                buf_puts(b, paren ? "{(" : "{");
                cs_expr(c, b, part, NULL, depth);
                buf_puts(b,
                         paren ? ").Apply(v => v ? \"true\" : \"false\")}" : ".Apply(v => v ? \"true\" : \"false\")}");
                continue;
            }
            buf_puts(b, paren || boolean ? "{(" : "{");
            cs_expr(c, b, part, NULL, depth);
            buf_puts(b, boolean ? " ? \"true\" : \"false\")}" : paren ? ")}" : "}");
            continue;
        }
        buf_t t;
        buf_init(&t);
        names_append_quoted(&t, LANG_CSHARP, part->s);
        for (size_t k = 1; k + 1 < t.len; k++) {
            if (t.data[k] == '{' || t.data[k] == '}') buf_putc(b, t.data[k]);
            buf_putc(b, t.data[k]);
        }
        buf_free(&t);
    }
    buf_putc(b, '"');
    if (out) buf_putc(b, ')');
}

/* `Pkg.Mod.Fn.Invoke(new()\n{\n    Arg = value,\n})`: the output form of the function (Pulumi's
 * .NET generator's); emit_check_program lets through only arguments without nested object types
 * and no invoke options. */
static void cs_invoke(cs_ctx_t *c, buf_t *b, const pcl_expr_t *e, int depth) {
    const schema_function_t *f = e->function;
    /* a class may not have a member of its own name: the SDK's class of a function named invoke is
     * InvokeFunction (pulumi-dotnet's l2-resource-primitive-conversions) */
    const char *cls = cs_token_member(c, f->token);
    buf_printf(b, "%s.%s.Invoke(", cs_module_path(c, e->package, f->token),
               strcmp(cls, "Invoke") == 0 ? "InvokeFunction" : cls);
    const pcl_expr_t *args = e->call.n >= 2 ? e->call.args[1] : NULL;
    if (args && args->kind != PCL_OBJECT) { /* multi-argument inputs, positionally (emit_check_program) */
        for (size_t i = 1; i < e->call.n; i++) {
            const schema_property_t *p =
                i - 1 < f->n_multi_args ? schema_find_property(f->inputs, f->n_inputs, f->multi_args[i - 1]) : NULL;
            if (i > 1) buf_puts(b, ", ");
            cs_expr(c, b, e->call.args[i], p ? p->type : NULL, depth);
        }
        buf_putc(b, ')');
        return;
    }
    const pcl_expr_t *opts = e->call.n >= 3 ? e->call.args[2] : NULL; /* emit_check_program: known keys */
    if (args && args->kind == PCL_OBJECT && args->object.n) {
        bool outer = c->in_invoke;
        c->in_invoke = true; /* the output form's argument types: Inputs.<T>InputArgs */
        buf_puts(b, "new()");
        cs_open(b, depth);
        for (size_t i = 0; i < args->object.n; i++) {
            const pcl_object_item_t *it = &args->object.items[i];
            cs_property(c, b, cs_property_name(c, it->key, it->prop), it->value, it->prop, depth + 1);
        }
        cs_close(b, depth);
        c->in_invoke = outer;
    } else if (opts) {
        buf_puts(b, "new()");
    }
    if (opts) { /* InvokeOutputOptions, as Pulumi's .NET generator writes them */
        buf_puts(b, ", new() {\n");
        for (size_t i = 0; i < opts->object.n; i++) {
            const char *key = opts->object.items[i].key;
            cs_indent(b, depth + 1);
            buf_printf(
                b, "%s = ", strcmp(key, "pluginDownloadUrl") == 0 ? "PluginDownloadURL" : names_pascal(c->base.a, key));
            cs_expr(c, b, opts->object.items[i].value, NULL, depth + 1);
            buf_puts(b, ",\n");
        }
        cs_close(b, depth);
    }
    buf_putc(b, ')');
}

/* A resource's method call as Pulumi's .NET generator writes it: `res.Method(new()\n{\n    Arg = value,\n})`,
 * the method's Output of its result (emit_check_program: arguments of no nested object type, a
 * result of properties that is an Output). */
static void cs_method_call(cs_ctx_t *c, buf_t *b, const pcl_expr_t *e, int depth) {
    cs_expr(c, b, e->call.args[0], NULL, depth);
    buf_printf(b, ".%s(",
               names_make_valid_identifier(c->base.a, LANG_CSHARP, names_pascal(c->base.a, e->call.args[1]->s)));
    const pcl_expr_t *args = e->call.args[2];
    if (args->kind == PCL_OBJECT && args->object.n) {
        buf_puts(b, "new()");
        cs_open(b, depth);
        for (size_t i = 0; i < args->object.n; i++) {
            const pcl_object_item_t *it = &args->object.items[i];
            cs_property(c, b, cs_property_name(c, it->key, it->prop), it->value, it->prop, depth + 1);
        }
        cs_close(b, depth);
    }
    buf_putc(b, ')');
}

/* Attributes and literal indexes read from an invoke's or a method's result:
 * `.Apply(invoke => invoke.A[0])`, `.Apply(call => call.Result)`. */
static void cs_invoke_read(cs_ctx_t *c, buf_t *b, const pcl_expr_t *e, int depth) {
    const pcl_expr_t *chain[64];
    size_t n = 0;
    const pcl_expr_t *x = e;
    for (; (x->kind == PCL_GETATTR || x->kind == PCL_INDEX) && n < 64; x = x->x)
        chain[n++] = x;
    bool method = emit_is_method_call(x);
    if (method)
        cs_method_call(c, b, x, depth);
    else
        cs_invoke(c, b, x, depth);
    buf_puts(b, method ? ".Apply(call => call" : ".Apply(invoke => invoke");
    const schema_type_t *t = x->type;
    while (n > 0) {
        const pcl_expr_t *p = chain[--n];
        if (p->kind == PCL_GETATTR && t && t->kind == SCHEMA_MAP) { /* a map's key */
            buf_putc(b, '[');
            names_append_quoted(b, LANG_CSHARP, p->s);
            buf_putc(b, ']');
            t = t->element;
        } else if (p->kind == PCL_GETATTR) {
            const schema_property_t *prop = t && t->kind == SCHEMA_OBJECT && t->object
                                                ? schema_find_property(t->object->props, t->object->n_props, p->s)
                                                : NULL;
            buf_printf(b, ".%s", cs_property_name(c, p->s, prop));
            t = prop ? prop->type : NULL;
        } else {
            buf_putc(b, '[');
            cs_expr(c, b, p->y, NULL, depth);
            buf_putc(b, ']');
            t = t && (t->kind == SCHEMA_ARRAY || t->kind == SCHEMA_MAP) ? t->element : NULL;
        }
    }
    buf_putc(b, ')');
}

/* An invoke or a method call, or what is read from its result. */
static void cs_invoke_value(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    if (emit_is_invoke(e))
        cs_invoke((cs_ctx_t *)x, b, e, depth);
    else if (emit_is_method_call(e))
        cs_method_call((cs_ctx_t *)x, b, e, depth);
    else
        cs_invoke_read((cs_ctx_t *)x, b, e, depth);
}

/* `new[]` and the items a line (an empty list: `new T[] {}`; items of no one type, `new object?[]`:
 * emit_cs_list_uniform; nulls only in a list of strings, `new string[]`). */
static void cs_list(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *et, int depth) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    if (e->tuple.n == 0) {
        buf_printf(b, "new %s[] {}", cs_element_type(c, et));
        return;
    }
    /* of no type or the schema's any type (an InputList<object>, a Dictionary<string, object?>'s
     * value): an object?[] when its items' shapes are known and not one (1, "a"); resources (dependsOn's
     * InputList<Resource>) stay new[] */
    bool nulls = true, resources = true; /* a null in a list of numbers: check.c refuses */
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *it = e->tuple.items[i];
        nulls &= it->kind == PCL_NULL;
        resources &= emit_resource_ref(x->p, x->index, it);
    }
    /* items of unknown shape (a value of no type, an any output) beside others have no best type
     * either ([x, 1]: JsonElement beside int): only one item or resources stay new[] */
    if (et && nulls && et->kind == SCHEMA_STRING)
        buf_puts(b, "new string[]");
    else if ((!et || et->kind == SCHEMA_ANY) && !resources && !emit_cs_list_uniform(x->p, x->index, e))
        buf_puts(b, "new object?[]");
    else
        buf_puts(b, "new[]");
    cs_open(b, depth);
    for (size_t i = 0; i < e->tuple.n; i++) {
        cs_indent(b, depth + 1);
        cs_expr(c, b, e->tuple.items[i], et, depth + 1);
        buf_puts(b, ",\n");
    }
    cs_close(b, depth);
}

/* Whether `e` is a list literal at a plain list property: a List<T> in the SDK's args, which no
 * array converts to (cs_property writes it `new()`). */
static bool cs_plain_list(const schema_property_t *prop, const pcl_expr_t *e) {
    return prop && prop->plain && prop->type && prop->type->kind == SCHEMA_ARRAY && e->kind == PCL_TUPLE;
}

static void cs_property(cs_ctx_t *c, buf_t *b, const char *name, const pcl_expr_t *e, const schema_property_t *prop,
                        int depth);

/* `new <Module>.Inputs.<Type>Args` with an object initializer; in an invoke's arguments the SDK's
 * type for the function's output form, `<Type>InputArgs` (Pulumi's .NET generator's). */
static void cs_object(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    const char *type = cs_object_args_type(c, t);
    if (e->object.n == 0) {
        buf_printf(b, "new %s()", type);
        return;
    }
    buf_printf(b, "new %s", type);
    cs_open(b, depth);
    for (size_t i = 0; i < e->object.n; i++) {
        const pcl_object_item_t *it = &e->object.items[i];
        const schema_property_t *prop = it->prop;
        if (!prop) prop = schema_find_property(t->object->props, t->object->n_props, it->key);
        if (cs_plain_list(prop, it->value)) {
            cs_property(c, b, cs_property_name(c, it->key, prop), it->value, prop, depth + 1);
            continue;
        }
        cs_indent(b, depth + 1);
        buf_printf(b, "%s = ", cs_property_name(c, it->key, prop));
        cs_expr(c, b, it->value, prop ? prop->type : NULL, depth + 1);
        buf_puts(b, ",\n");
    }
    cs_close(b, depth);
}

/* The helper functions some calls need (after the usings, as Pulumi's .NET generator writes them),
 * and the namespaces they use. */
static const struct {
    const char *name, *text, *ns[3];
} CS_HELPERS[] = {
    /* a map's keys in PCL's order, by code point: ordinal order compares UTF-16 code units, which puts
     * U+10000 and above (surrogates) before U+E000..U+FFFF */
    {"CompareCodePoints",
     "int CompareCodePoints(string? a, string? b)\n{\n"
     "    // by code point, as PCL orders keys (ordinal order puts surrogates before U+E000..U+FFFF)\n"
     "    a = a ?? \"\";\n    b = b ?? \"\";\n"
     "    for (var i = 0; i < a.Length && i < b.Length; i++)\n    {\n"
     "        if (a[i] != b[i])\n        {\n"
     "            return (a[i] >= 0xE000 ? a[i] - 0x800 : a[i] >= 0xD800 ? a[i] + 0x2000 : a[i])\n"
     "                - (b[i] >= 0xE000 ? b[i] - 0x800 : b[i] >= 0xD800 ? b[i] + 0x2000 : b[i]);\n"
     "        }\n    }\n"
     "    return a.Length - b.Length;\n}\n",
     {NULL, NULL, NULL}},
    {"ComputeSHA1",
     "string ComputeSHA1(string input)\n{\n    var hash = SHA1.Create().ComputeHash(Encoding.UTF8.GetBytes(input));\n"
     "    return BitConverter.ToString(hash).Replace(\"-\", \"\").ToLowerInvariant();\n}\n",
     {"System", "System.Security.Cryptography", "System.Text"}},
    {"ReadFileBase64",
     "string ReadFileBase64(string path)\n{\n    return Convert.ToBase64String(File.ReadAllBytes(path));\n}\n",
     {"System", "System.IO", NULL}},
    {"ComputeFileBase64Sha256",
     "string ComputeFileBase64Sha256(string path)\n{\n    var hashData = "
     "SHA256.Create().ComputeHash(File.ReadAllBytes(path));\n"
     "    return Convert.ToBase64String(hashData);\n}\n",
     {"System.IO", "System.Security.Cryptography", "System"}},
    {"FormatValue",
     "string FormatValue(object? value)\n{\n    switch (value)\n    {\n"
     "        case null:\n            return \"\";\n"
     "        case bool b:\n            return b ? \"true\" : \"false\";\n"
     "        case JsonElement { ValueKind: JsonValueKind.True }:\n            return \"true\";\n"
     "        case JsonElement { ValueKind: JsonValueKind.False }:\n            return \"false\";\n"
     "        case JsonElement { ValueKind: JsonValueKind.Number } number:\n"
     "            return FormatValue(number.GetDouble());\n"
     "        case double d when double.IsFinite(d) && d != 0:\n"
     "            // as JavaScript prints a number: its shortest digits, plain from 1e-6 to 1e21\n"
     "            var parts = Math.Abs(d).ToString(\"R\", CultureInfo.InvariantCulture).Split('E');\n"
     "            var dot = parts[0].IndexOf('.');\n"
     "            var digits = parts[0].Replace(\".\", \"\").TrimEnd('0');\n"
     "            var e = (dot < 0 ? parts[0].Length : dot)\n"
     "                + (parts.Length > 1 ? int.Parse(parts[1], CultureInfo.InvariantCulture) : 0)\n"
     "                - (digits.Length - digits.TrimStart('0').Length);\n"
     "            digits = digits.TrimStart('0');\n"
     "            var k = digits.Length;\n"
     "            var text = k <= e && e <= 21 ? digits + new string('0', e - k)\n"
     "                : 0 < e && e <= 21 ? digits[..e] + \".\" + digits[e..]\n"
     "                : -6 < e && e <= 0 ? \"0.\" + new string('0', -e) + digits\n"
     "                : (k == 1 ? digits : digits[..1] + \".\" + digits[1..]) + (e > 0 ? \"e+\" : \"e-\") + Math.Abs(e "
     "- 1);\n"
     "            return d < 0 ? \"-\" + text : text;\n"
     "        case double d:\n            return d == 0 ? \"0\" : d.ToString(CultureInfo.InvariantCulture);\n"
     "        case IFormattable number:\n"
     "            return number.ToString(null, CultureInfo.InvariantCulture);\n"
     "        default:\n            return value.ToString() ?? \"\";\n"
     "    }\n}\n",
     {"System", "System.Globalization", "System.Text.Json"}},
    /* PCL's toJSON writes JSON as JavaScript's JSON.stringify does; System.Text.Json's encoders
     * escape more (the default one all non-ASCII, < > & ' + ` and " as \u0022; even
     * UnsafeRelaxedJsonEscaping supplementary characters and its block list) and write 1e21 as
     * 1E+21, 1e15 as 1E+15: its text is rewritten, each escape decoded and written again as
     * JSON.stringify writes it, each number as FormatValue prints it. */
    {"ToJsonText",
     "string ToJsonText(string json)\n{\n"
     "    // System.Text.Json's JSON as JavaScript's JSON.stringify writes it: only \" \\ and control\n"
     "    // characters escaped, numbers as JavaScript prints them\n"
     "    var text = new StringBuilder(json.Length);\n"
     "    var inString = false;\n"
     "    for (var i = 0; i < json.Length; i++)\n    {\n"
     "        var c = json[i];\n"
     "        if (!inString && (c == '-' || (c >= '0' && c <= '9')))\n        {\n"
     "            var end = i;\n"
     "            while (end < json.Length && \"+-.eE0123456789\".IndexOf(json[end]) >= 0)\n"
     "                end++;\n"
     "            text.Append(FormatValue(double.Parse(json[i..end], CultureInfo.InvariantCulture)));\n"
     "            i = end - 1;\n"
     "            continue;\n"
     "        }\n"
     "        if (c != '\\\\')\n        {\n"
     "            inString ^= c == '\"';\n"
     "            text.Append(c);\n"
     "            continue;\n"
     "        }\n"
     "        c = json[++i];\n"
     "        if (c == 'u')\n        {\n"
     "            c = (char)int.Parse(json.Substring(i + 1, 4), NumberStyles.AllowHexSpecifier, "
     "CultureInfo.InvariantCulture);\n"
     "            i += 4;\n"
     "        }\n"
     "        else\n        {\n"
     "            c = c switch { 'b' => '\\b', 'f' => '\\f', 'n' => '\\n', 'r' => '\\r', 't' => '\\t', _ => c };\n"
     "        }\n"
     "        text.Append(c switch\n        {\n"
     "            '\"' => \"\\\\\\\"\",\n"
     "            '\\\\' => \"\\\\\\\\\",\n"
     "            '\\b' => \"\\\\b\",\n"
     "            '\\f' => \"\\\\f\",\n"
     "            '\\n' => \"\\\\n\",\n"
     "            '\\r' => \"\\\\r\",\n"
     "            '\\t' => \"\\\\t\",\n"
     "            < ' ' => \"\\\\u\" + ((int)c).ToString(\"x4\", CultureInfo.InvariantCulture),\n"
     "            _ => c.ToString(),\n"
     "        });\n"
     "    }\n"
     "    return text.ToString();\n}\n",
     {"System.Text", "System.Globalization", "=FormatValue"}},
    /* PCL's element() wraps the index around (go-cty's ElementFunc); an index throws past the end */
    {"Element",
     "T Element<T>(IReadOnlyList<T> list, double index)\n{\n"
     "    // PCL's element(): the index taken modulo the list's length (a whole number, not negative)\n"
     "    if (index < 0 || index != Math.Floor(index))\n    {\n"
     "        throw new ArgumentException(\"element: the index is not a whole number of 0 or more\");\n    }\n"
     "    if (list.Count == 0)\n    {\n"
     "        throw new ArgumentException(\"element: the list is empty\");\n    }\n"
     "    return list[(int) (index % list.Count)];\n}\n",
     {"System", NULL, NULL}},
    {"NotImplemented",
     "object NotImplemented(string errorMessage)\n{\n    throw new System.NotImplementedException(errorMessage);\n}\n",
     {NULL}}, /* PCL's can() and try(): what fails in PCL throws in the written C# (a Dictionary's missing key,
               * an index past the end, a property of null, a JsonElement's missing property or a value of
               * another kind), and the helper catches it */
    {"Can",
     "bool Can(Func<object?> fn)\n{\n"
     "    // PCL's can(): whether evaluating fn succeeds (a failure throws)\n"
     "    try\n    {\n        fn();\n        return true;\n    }\n"
     "    catch (Exception)\n    {\n        return false;\n    }\n}\n",
     {"System", NULL, NULL}},
    {"Try",
     "T Try<T>(params Func<T>[] fns)\n{\n"
     "    // PCL's try(): the value of the first of fns that succeeds (a failure throws)\n"
     "    foreach (var fn in fns)\n    {\n"
     "        try\n        {\n            return fn();\n        }\n"
     "        catch (Exception)\n        {\n        }\n    }\n"
     "    throw new ArgumentException(\"try: all parameters failed\");\n}\n",
     {"System", NULL, NULL}},
};
#define CS_N_HELPERS (sizeof CS_HELPERS / sizeof CS_HELPERS[0])
_Static_assert(CS_N_HELPERS <= CS_MAX_HELPERS, "cs_ctx_t.helpers holds a flag per helper");

/* A System namespace the file uses, once. */
static const char *cs_need(emit_typed_t *x, const char *ns) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    if (ns[0] == '=') { /* a helper function, and its namespaces */
        for (size_t i = 0; i < CS_N_HELPERS; i++)
            if (strcmp(CS_HELPERS[i].name, ns + 1) == 0) {
                c->helpers[i] = true;
                for (size_t k = 0; k < 3 && CS_HELPERS[i].ns[k]; k++)
                    cs_need(x, CS_HELPERS[i].ns[k]);
            }
        return ns + 1;
    }
    for (size_t i = 0; i < c->n_system; i++)
        if (strcmp(c->system[i], ns) == 0) return ns;
    if (c->n_system < CS_MAX_SYSTEM) c->system[c->n_system++] = ns;
    return ns;
}

/* A for expression over a plain list or map in LINQ, as Pulumi's .NET generator writes one
 * (`.Select(...).ToList()`, `.ToDictionary(key, value)`): a condition `.Where` first; a list's index
 * the second parameter of Select (emit_check_program: then no condition, no object); a map's entries
 * in the order of their keys (PCL iterates a map by its sorted keys), read as `.Key` and `.Value` of
 * the lambdas' one parameter, named after the key variable. */
static void cs_for(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    bool map = emit_expr_shape(x->p, x->index, e->x) != EMIT_SHAPE_LIST;
    const char *v = names_make_valid_identifier(x->a, LANG_CSHARP, e->vvar);
    const char *k = e->kvar ? names_make_valid_identifier(x->a, LANG_CSHARP, e->kvar) : NULL;
    const char *param = map && k ? k : v;
    size_t saved = x->n_scope;
    bool paren = e->x->kind != PCL_TRAVERSAL && e->x->kind != PCL_CALL;
    if (paren) buf_putc(b, '(');
    cs_expr(c, b, e->x, NULL, depth);
    if (paren) buf_putc(b, ')');
    if (map) {
        cs_need(x, "=CompareCodePoints");
        buf_printf(b, ".OrderBy(%s => %s.Key, Comparer<string>.Create(CompareCodePoints))", param, param);
        if (k) emit_typed_scope_push(x, e->kvar, arena_sprintf(x->a, "%s.Key", param));
        emit_typed_scope_push(x, e->vvar, arena_sprintf(x->a, "%s.Value", param));
        emit_typed_scope_entries(x, e);
    } else {
        if (k) emit_typed_scope_push(x, e->kvar, k);
        emit_typed_scope_push(x, e->vvar, v);
        emit_typed_scope_entries(x, e);
    }
    static const emit_for_syntax_t linq = {".Where(%s => ", ".ToDictionary(%s => ", ", %s => ", ")", ".Select(%s => ",
                                           ").ToList()"};
    emit_typed_for_body(&CS_VALUES, x, b, e, depth, !map && k ? arena_sprintf(x->a, "(%s, %s)", v, k) : param, &linq);
    x->n_scope = saved;
}

/* can(x) and try(x, y, ...): each argument a lambda the helper calls, catching what it throws;
 * try<T>'s T the one scalar type it gives (emit_typed_try_kind), else object?. */
static void cs_can_try_plain(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    static const char *const names[] = {[EMIT_PRINT_STRING] = "string",
                                        [EMIT_PRINT_BOOL] = "bool",
                                        [EMIT_PRINT_INT] = "int",
                                        [EMIT_PRINT_NUMBER] = "double"};
    emit_print_t k = strcmp(e->call.name, "can") == 0 ? EMIT_PRINT_UNKNOWN : emit_typed_try_kind(x, e);
    if (strcmp(e->call.name, "can") == 0)
        buf_printf(b, "%s(", cs_need(x, "=Can"));
    else
        buf_printf(b, "%s<%s>(", cs_need(x, "=Try"), k != EMIT_PRINT_UNKNOWN ? names[k] : "object?");
    for (size_t i = 0; i < e->call.n; i++) {
        buf_puts(b, i ? ", () => " : "() => ");
        cs_expr((cs_ctx_t *)x, b, e->call.args[i], NULL, depth);
    }
    buf_putc(b, ')');
}

static bool cs_can_try(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    return emit_typed_can_try(&CS_VALUES, x, b, e, depth, cs_can_try_plain, "Output.Create(");
}

/* The built-in functions as Pulumi's .NET program generator writes them. */
static const emit_typed_call_t CS_CALLS[] = {
    {"cwd", "Directory.GetCurrentDirectory()", {"System.IO"}, EMIT_SHAPE_UNKNOWN},
    {"rootDirectory", "Pulumi.Deployment.Instance.RootDirectory", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"stack", "Deployment.Instance.StackName", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"project", "Deployment.Instance.ProjectName", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"organization", "Deployment.Instance.OrganizationName", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"unsecret", "Output.Unsecret($0)", {NULL}, EMIT_SHAPE_UNKNOWN},
    /* the file's bytes as UTF-8, a byte-order mark kept as U+FEFF, as PCL reads it (ReadAllText drops
     * one, and decodes a UTF-16/32 file by it) */
    {"readFile", "System.Text.Encoding.UTF8.GetString(File.ReadAllBytes($0))", {"System.IO"}, EMIT_SHAPE_UNKNOWN},
    {"toBase64", "Convert.ToBase64String(System.Text.Encoding.UTF8.GetBytes($0))", {"System"}, EMIT_SHAPE_UNKNOWN},
    {"fromBase64", "System.Text.Encoding.UTF8.GetString(Convert.FromBase64String($0))", {"System"}, EMIT_SHAPE_UNKNOWN},
    {"join", "string.Join($0, $1)", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"split", "$r1.Split($0)", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"element", "Element($0, $1)", {"=Element"}, EMIT_SHAPE_UNKNOWN},
    {"length", "new System.Globalization.StringInfo($0).LengthInTextElements", {NULL}, EMIT_SHAPE_STRING},
    {"length", "$r0.Length", {NULL}, EMIT_SHAPE_LIST},
    {"length", "$r0.Count", {NULL}, EMIT_SHAPE_MAP},
    {"singleOrNone", "Enumerable.SingleOrDefault($0)", {NULL}, EMIT_SHAPE_UNKNOWN},
    /* a map's entries by key, each a map of key and value (TypeScript: Object.entries(m).sort()...) */
    {"entries",
     "$r0.OrderBy(kv => kv.Key, Comparer<string>.Create(CompareCodePoints)).Select(kv => new Dictionary<string, "
     "object?> { [\"key\"] = "
     "kv.Key, [\"value\"] = kv.Value }).ToList()",
     {"=CompareCodePoints"},
     EMIT_SHAPE_MAP},
    /* a value of no type's (a JsonElement: emit_check_program), its properties by name */
    {"entries",
     "$r0.EnumerateObject().OrderBy(p => p.Name, Comparer<string>.Create(CompareCodePoints)).Select(p => new "
     "Dictionary<string, object?> "
     "{ [\"key\"] = p.Name, [\"value\"] = p.Value }).ToList()",
     {"=CompareCodePoints"},
     EMIT_SHAPE_UNKNOWN},
    {"lookup", "$r0.GetValueOrDefault($1, $2)", {NULL}, EMIT_SHAPE_MAP},
    {"getOutput", "$r0.GetOutput($1)", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"sha1", "ComputeSHA1($0)", {"=ComputeSHA1"}, EMIT_SHAPE_UNKNOWN},
    {"filebase64", "ReadFileBase64($0)", {"=ReadFileBase64"}, EMIT_SHAPE_UNKNOWN},
    {"filebase64sha256", "ComputeFileBase64Sha256($0)", {"=ComputeFileBase64Sha256"}, EMIT_SHAPE_UNKNOWN},
    {"toJSON", "ToJsonText(JsonSerializer.Serialize($0))", {"System.Text.Json", "=ToJsonText"}, EMIT_SHAPE_UNKNOWN},
    /* emit_check_program: a stack output's value or a hook's command word (cast to string there) */
    {"notImplemented", "NotImplemented($0)", {"=NotImplemented"}, EMIT_SHAPE_UNKNOWN},
    /* emit_check_program: two numbers, or one list expanded (`max(xs...)`) */
    {"max", "Math.Max($0, $1)", {"System"}, EMIT_SHAPE_NUMBER},
    {"min", "Math.Min($0, $1)", {"System"}, EMIT_SHAPE_NUMBER},
    {"max", "Enumerable.Max($0)", {NULL}, EMIT_SHAPE_LIST},
    {"min", "Enumerable.Min($0)", {NULL}, EMIT_SHAPE_LIST},
    {"pulumiResourceName", "$r0.GetResourceName()", {NULL}, EMIT_SHAPE_UNKNOWN},
    {"pulumiResourceType", "$r0.GetResourceType()", {NULL}, EMIT_SHAPE_UNKNOWN},
};

/* Over outputs (nested in a value too), as Pulumi's .NET generator writes them. */
static const emit_typed_call_t CS_CALLS_OUTPUT[] = {
    {"toJSON",
     "Output.JsonSerialize(Output.Create($0)).Apply(v => ToJsonText(v))",
     {"=ToJsonText"},
     EMIT_SHAPE_UNKNOWN},
    {"toBase64",
     "$r0.Apply(v => Convert.ToBase64String(System.Text.Encoding.UTF8.GetBytes(v)))",
     {"System"},
     EMIT_SHAPE_UNKNOWN},
    /* a resource's output map (emit_check_program) */
    {"entries",
     "$r0.Apply(v => v.OrderBy(kv => kv.Key, Comparer<string>.Create(CompareCodePoints)).Select(kv => new "
     "Dictionary<string, object?> { "
     "[\"key\"] = kv.Key, [\"value\"] = kv.Value }).ToList())",
     {"=CompareCodePoints"},
     EMIT_SHAPE_UNKNOWN},
    {"lookup", "$r0.Apply(v => v.GetValueOrDefault($1, $2))", {NULL}, EMIT_SHAPE_UNKNOWN},
};

/* entries() or lookup() of an object of the schema's type t (the SDK's output class: emit_check_program
 * lets through every property required, or a literal key): its properties listed by key in byte order,
 * `new List<Dictionary<string, object?>> { new Dictionary<string, object?> { ["key"] = "a", ["value"] =
 * v.A }, ... }`, or the property a literal key names (`v.A`), or the default for a key the type does
 * not have; in an Apply of the object's output (`res.Data.Apply(v => ...)`), or of the apply's
 * parameter that holds it. */
static void cs_keyed_object(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    buf_t r;
    buf_init(&r);
    bool apply = emit_typed_keyed_receiver(&CS_VALUES, x, b, &r, e->call.args[0], ".Apply(v => ", "v", depth);
    const schema_object_t *o = t->object;
    if (strcmp(e->call.name, "lookup") == 0) {
        const pcl_expr_t *k = e->call.args[1];
        const schema_property_t *p = k->kind == PCL_STRING ? schema_find_property(o->props, o->n_props, k->s) : NULL;
        if (p)
            buf_printf(b, "%s.%s", r.data, cs_property_name(c, p->name, p));
        else
            cs_expr(c, b, e->call.args[2], NULL, depth);
    } else {
        const char **keys = emit_object_keys_sorted(x->a, o);
        buf_puts(b, "new List<Dictionary<string, object?>> {");
        for (size_t i = 0; i < o->n_props; i++) {
            const schema_property_t *p = schema_find_property(o->props, o->n_props, keys[i]);
            buf_printf(b, "%s new Dictionary<string, object?> { [\"key\"] = ", i ? "," : "");
            cs_string(b, keys[i]);
            buf_printf(b, ", [\"value\"] = %s.%s }", r.data, cs_property_name(c, keys[i], p));
        }
        buf_puts(b, " }");
    }
    if (apply) buf_putc(b, ')');
    buf_free(&r);
}

/* A config value converted to the scalar type the schema wants, as Pulumi's .NET generator writes it
 * (pulumi-dotnet's l2-resource-primitive-conversions), but a number to a string by FormatValue
 * (config_number_text: ToString prints 1E+15 where PCL prints 1000000000000000). */
static const char *const CS_CONFIG_CONV[EMIT_CONV_UNSUPPORTED] = {
    [EMIT_CONV_STRING_TO_BOOL] = "%s == \"true\"",
    [EMIT_CONV_STRING_TO_INT] = "int.Parse(%s, System.Globalization.CultureInfo.InvariantCulture)",
    [EMIT_CONV_STRING_TO_NUMBER] = "double.Parse(%s, System.Globalization.CultureInfo.InvariantCulture)",
    [EMIT_CONV_NUMBER_TO_STRING] = "%s.ToString(System.Globalization.CultureInfo.InvariantCulture)",
    [EMIT_CONV_BOOL_TO_STRING] = "%s ? \"true\" : \"false\"",
    [EMIT_CONV_INT_TO_NUMBER] = "(double)%s",
};

static const emit_typed_syntax_t CS_VALUES = {
    .lang = LANG_CSHARP,
    .secret = "Output.CreateSecret",
    .string = cs_string,
    .enum_member = cs_enum_member,
    .traversal = cs_traversal,
    .asset_call = cs_asset_call,
    .own_call = cs_can_try,
    .interpolation = cs_template,
    .invoke = cs_invoke_value,
    .method_call = cs_invoke_value,
    .list = cs_list,
    .object = cs_object,
    .map = cs_dictionary,
    .apply_open = ".Apply(%s => ",
    .param_prefix = "",
    .value_parts = &CS_VALUE_PARTS,
    .untyped_read = cs_untyped_read,
    .untyped_number = "%s.GetDouble()",
    .untyped_optional = "%s!.Value", /* a JsonElement? (CS_CFG any_optional) */
    /* an Output<T> converts to an Input<T> only, not Input<object> */
    .untyped_output_any = ".Apply(v => (object)v)",
    .int_checked = "checked", /* an int that overflows throws OverflowException */
    .calls = CS_CALLS,
    .n_calls = sizeof CS_CALLS / sizeof CS_CALLS[0],
    .calls_output = CS_CALLS_OUTPUT,
    .n_calls_output = sizeof CS_CALLS_OUTPUT / sizeof CS_CALLS_OUTPUT[0],
    .keyed_object = cs_keyed_object,
    .need = cs_need,
    .for_expr = cs_for,
    .config_conv = CS_CONFIG_CONV,
    .config_number_text = "=FormatValue", /* 1e21, not 1E+21 / 1000000000000000000000 */
};

/* A value at a position of schema type `t` (NULL: unknown), starting on a line indented `depth`. */
static void cs_expr(cs_ctx_t *c, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth) {
    emit_typed_expr(&CS_VALUES, &c->base, b, e, t, depth);
}

/* `Name = \n{\n    { "k", "v" },\n},`: a map in the collection-initializer form that only a property
 * initializer allows (values of type et), after the line's indentation. */
static void cs_map_initializer(cs_ctx_t *c, buf_t *b, const char *name, const pcl_expr_t *e, const schema_type_t *et,
                               int depth) {
    buf_printf(b, "%s = ", name);
    cs_open(b, depth);
    for (size_t i = 0; i < e->object.n; i++) {
        cs_indent(b, depth + 1);
        emit_typed_entry(&CS_VALUES, &c->base, b, &e->object.items[i], et, depth + 1, "{ ", ", ", " },\n");
    }
    cs_close(b, depth);
    buf_puts(b, ",\n");
}

/* A resource input or nested-object property of the schema property `prop` (NULL: unknown): maps
 * use the collection-initializer form; a plain list (a List<T>, which an array does not convert to)
 * a target-typed `new()` with its items, as Pulumi's .NET generator writes it. */
static void cs_property(cs_ctx_t *c, buf_t *b, const char *name, const pcl_expr_t *e, const schema_property_t *prop,
                        int depth) {
    const schema_type_t *t = prop && prop->type ? prop->type : e->type;
    cs_indent(b, depth);
    if (e->kind == PCL_OBJECT && e->object.n > 0 && t && t->kind == SCHEMA_MAP) {
        cs_map_initializer(c, b, name, e, t->element, depth);
        return;
    }
    if (cs_plain_list(prop, e)) {
        buf_printf(b, "%s = new()", name);
        if (e->tuple.n == 0) {
            buf_puts(b, ",\n");
            return;
        }
        cs_open(b, depth);
        for (size_t i = 0; i < e->tuple.n; i++) {
            cs_indent(b, depth + 1);
            cs_expr(c, b, e->tuple.items[i], t->element, depth + 1);
            buf_puts(b, ",\n");
        }
        cs_close(b, depth);
        buf_puts(b, ",\n");
        return;
    }
    buf_printf(b, "%s = ", name);
    cs_expr(c, b, e, t, depth);
    buf_puts(b, ",\n");
}

/* --- options -------------------------------------------------------------------------------------- */

/* Pulumi's .NET program generator's option order. */
static const char *const CS_OPTION_NAMES[] = {"parent",
                                              "provider",
                                              "providers",
                                              "dependsOn",
                                              "protect",
                                              "retainOnDelete",
                                              "aliases",
                                              "ignoreChanges",
                                              "customTimeouts",
                                              "deletedWith",
                                              "replaceWith",
                                              "import",
                                              "hideDiffs",
                                              "replaceOnChanges",
                                              "deleteBeforeReplace",
                                              "replacementTrigger",
                                              "additionalSecretOutputs",
                                              "version",
                                              "pluginDownloadURL",
                                              "envVarMappings",
                                              "hooks"};
static const emit_option_order_t CS_OPTIONS = {CS_OPTION_NAMES, sizeof CS_OPTION_NAMES / sizeof CS_OPTION_NAMES[0]};

/* `Aliases = { new Alias { Urn = "..." }, new Alias { Name = "old", NoParent = true } }`: each a
 * Pulumi.Alias (a URN string its Urn; emit_check_program lets through the fields name, type, parent,
 * noParent, stack and project), the list's collection initializer. */
static void cs_aliases(cs_ctx_t *c, buf_t *b, const pcl_expr_t *v, int depth) {
    buf_puts(b, "Aliases =");
    cs_open(b, depth);
    for (size_t k = 0; k < v->tuple.n; k++) {
        const pcl_expr_t *it = v->tuple.items[k];
        cs_indent(b, depth + 1);
        buf_puts(b, "new Alias");
        cs_open(b, depth + 1);
        size_t n_fields = it->kind == PCL_STRING ? 1 : it->object.n;
        for (size_t f = 0; f < n_fields; f++) {
            cs_indent(b, depth + 2);
            if (it->kind == PCL_STRING) {
                buf_puts(b, "Urn = ");
                cs_string(b, it->s);
            } else {
                buf_printf(b, "%s = ", names_pascal(c->base.a, it->object.items[f].key));
                cs_expr(c, b, it->object.items[f].value, NULL, depth + 2);
            }
            buf_puts(b, ",\n");
        }
        cs_close(b, depth + 1);
        buf_puts(b, ",\n");
    }
    cs_close(b, depth);
    buf_puts(b, ",\n");
}

/* A duration literal as a TimeSpan: in the largest unit it is a whole number of (hours, minutes,
 * seconds), else in milliseconds. */
static void cs_timespan(cs_ctx_t *c, buf_t *b, const char *duration) {
    double secs = 0;
    emit_duration_seconds(duration, &secs); /* emit_check_program: a duration */
    const char *ts = "TimeSpan";
    cs_need(&c->base, "System");
    if (secs != 0 && names_number_is_int(secs / 3600)) {
        buf_printf(b, "%s.FromHours(", ts);
        names_append_number(b, secs / 3600);
    } else if (secs != 0 && names_number_is_int(secs / 60)) {
        buf_printf(b, "%s.FromMinutes(", ts);
        names_append_number(b, secs / 60);
    } else if (names_number_is_int(secs)) {
        buf_printf(b, "%s.FromSeconds(", ts);
        names_append_number(b, secs);
    } else {
        buf_printf(b, "%s.FromMilliseconds(", ts);
        names_append_number(b, secs * 1000);
    }
    buf_putc(b, ')');
}

static void cs_options(cs_ctx_t *c, buf_t *b, const pcl_node_t *n, int depth) {
    const pcl_attr_t **sorted = emit_sorted_options(c->base.a, n, &CS_OPTIONS);
    bool component = n->kind == PCL_NODE_COMPONENT || (n->schema && n->schema->is_component);
    buf_printf(b, "new %s", component ? "ComponentResourceOptions" : "CustomResourceOptions");
    cs_open(b, depth);
    for (size_t i = 0; i < n->n_options; i++) {
        const pcl_attr_t *o = sorted[i];
        const char *name = o->name;
        const pcl_expr_t *v = o->value;
        if (!emit_option_written(&CS_OPTIONS, name)) {
            if (c->base.report)
                diag_add(c->base.diags, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL,
                         "resource '%s': the resource option '%s' is not supported by the C# emitter and was left out",
                         n->name, name);
            continue;
        }
        cs_indent(b, depth + 1);
        if (strcmp(name, "hooks") == 0) { /* emit_check_program: {step = [hook, ...], ...} */
            buf_puts(b, "Hooks = new ResourceHookBinding");
            cs_open(b, depth + 1);
            for (size_t k = 0; k < v->object.n; k++) {
                const pcl_expr_t *hooks = v->object.items[k].value;
                cs_indent(b, depth + 2);
                buf_printf(b, "%s = { ", names_pascal(c->base.a, v->object.items[k].key));
                for (size_t h = 0; h < hooks->tuple.n; h++) {
                    if (h) buf_puts(b, ", ");
                    cs_expr(c, b, hooks->tuple.items[h], NULL, depth + 2);
                }
                buf_puts(b, " },\n");
            }
            cs_close(b, depth + 1);
            buf_puts(b, ",\n");
            continue;
        }
        if (strcmp(name, "aliases") == 0) { /* emit_check_program: URNs and alias objects */
            cs_aliases(c, b, v, depth + 1);
            continue;
        }
        if (pcl_option_kind(name) == PCL_OPT_TIMEOUTS) { /* emit_check_program: duration literals */
            buf_puts(b, "CustomTimeouts = new CustomTimeouts");
            cs_open(b, depth + 1);
            for (size_t k = 0; k < v->object.n; k++) {
                cs_indent(b, depth + 2);
                buf_printf(b, "%s = ", names_pascal(c->base.a, v->object.items[k].key));
                cs_timespan(c, b, v->object.items[k].value->s);
                buf_puts(b, ",\n");
            }
            cs_close(b, depth + 1);
            buf_puts(b, ",\n");
            continue;
        }
        if (strcmp(name, "envVarMappings") == 0) { /* emit_check_program: an object of strings */
            cs_map_initializer(c, b, "EnvVarMappings", v, NULL, depth + 1);
            continue;
        }
        bool paths = pcl_option_kind(name) == PCL_OPT_PATHS, providers = strcmp(name, "providers") == 0;
        if ((strcmp(name, "dependsOn") == 0 || strcmp(name, "replaceWith") == 0 || paths || providers) &&
            (v->kind == PCL_TUPLE || (providers && v->kind == PCL_OBJECT))) {
            /* a list of them (the SDK takes a list of providers: a map's values) */
            buf_printf(b, "%s =", names_pascal(c->base.a, name));
            cs_open(b, depth + 1);
            size_t n_items = v->kind == PCL_TUPLE ? v->tuple.n : v->object.n;
            for (size_t k = 0; k < n_items; k++) {
                const pcl_expr_t *item = v->kind == PCL_TUPLE ? v->tuple.items[k] : v->object.items[k].value;
                cs_indent(b, depth + 2);
                if (paths)
                    emit_path_literal(b, LANG_CSHARP, item);
                else
                    cs_expr(c, b, item, NULL, depth + 2);
                buf_puts(b, ",\n");
            }
            cs_close(b, depth + 1);
            buf_puts(b, ",\n");
            continue;
        }
        buf_printf(b, "%s = ", strcmp(name, "import") == 0 ? "ImportId" : names_pascal(c->base.a, name));
        cs_expr(c, b, v, NULL, depth + 1);
        buf_puts(b, ",\n");
    }
    cs_close(b, depth);
}

/* --- program ---------------------------------------------------------------------------------------- */

/* The .NET type a list, map or any config value is deserialized into (System.Text.Json): a list is an
 * array and a map a Dictionary, which InputList/InputMap take (also as Output<T[]> and
 * Output<Dictionary<string, T>>); inside them ImmutableArray/ImmutableDictionary, the element types
 * of nested InputLists and InputMaps. */
static const emit_cfg_names_t CS_CFG = {
    .getter = {{"Require", "RequireInt32", "RequireDouble", "RequireBoolean"},
               {"RequireSecret", "RequireSecretInt32", "RequireSecretDouble", "RequireSecretBoolean"}},
    .scalar = {"string", "int", "double", "bool"},
    .list = "%s[]",
    .map = "Dictionary<string, %s>",
    .any = "JsonElement", /* System.Text.Json's, as Pulumi's .NET generator reads a value of no type */
    .inner_list = "System.Collections.Immutable.ImmutableArray<%s>",
    .inner_map = "System.Collections.Immutable.ImmutableDictionary<string, %s>",
    .object = {"RequireObject<%s>", "RequireSecretObject<%s>"},
    .get = {"Get", "GetInt32", "GetDouble", "GetBoolean"},
    .or_open = " ?? ",
    .or_close = "",
    .or_output_open = " is { } %s ? Output.Create(%s) : ",
    .get_object = "GetObject<%s>",
    .or_null = "",
    .any_optional = "JsonElement?",
    .any_open = "JsonSerializer.SerializeToElement(",
    .any_close = ")",
};

/* Whether config node n reads a value of no type (JsonElement), whole or in a list or map. */
static bool cs_config_any(arena_t *a, const pcl_node_t *n) {
    if (n->kind != PCL_NODE_CONFIG) return false;
    const emit_cfg_type_t *t = emit_config_type(a, n->token);
    while (t->kind == EMIT_CFG_LIST || t->kind == EMIT_CFG_MAP)
        t = t->elem;
    return t->kind == EMIT_CFG_ANY;
}

/* The class a resource constructs: its schema's C# name, else the token's member. */
static const char *cs_class_of(emit_typed_t *x, const pcl_node_t *n) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    if (n->kind == PCL_NODE_COMPONENT) return "ComponentResource";
    if (emit_is_builtin(n, "pulumi:index:Stash")) return "Stash"; /* Pulumi.Stash */
    if (emit_is_builtin(n, "pulumi:pulumi:StackReference")) return "Pulumi.StackReference";
    return arena_sprintf(c->base.a, "%s.%s", cs_module_path(c, n->package, n->token),
                         n->schema && n->schema->csharp_name ? n->schema->csharp_name : cs_token_member(c, n->token));
}

/* `, new()` and the inputs' object initializer (also when there are only options). */
static void cs_args(emit_typed_t *x, buf_t *b, const pcl_node_t *n) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    if (n->n_attrs == 0 && n->n_options == 0) return;
    buf_puts(b, ", new()");
    cs_open(b, 1);
    for (size_t j = 0; j < n->n_attrs; j++) {
        const pcl_attr_t *at = &n->attrs[j];
        const schema_property_t *prop = at->prop;
        if (!prop && n->schema) prop = schema_find_property(n->schema->inputs, n->schema->n_inputs, at->name);
        cs_property(c, b, cs_property_name(c, at->name, prop), at->value, prop, 2);
    }
    cs_close(b, 1);
}

/* A local component's inputs: the SDK's DictionaryResourceArgs, the ResourceArgs of a dynamic shape,
 * of an immutable dictionary of them (emit_check_program: strings, numbers, booleans, outputs of
 * them, which its constructor accepts). */
static void cs_component_args(emit_typed_t *x, buf_t *b, const pcl_node_t *n) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    cs_need(x, "System.Collections.Immutable");
    buf_puts(b, ", new DictionaryResourceArgs(new Dictionary<string, object?>");
    cs_open(b, 1);
    for (size_t j = 0; j < n->n_attrs; j++) {
        cs_indent(b, 2);
        buf_putc(b, '[');
        names_append_quoted(b, LANG_CSHARP, n->attrs[j].name);
        buf_puts(b, "] = ");
        cs_expr(c, b, n->attrs[j].value, NULL, 2);
        buf_puts(b, ",\n");
    }
    cs_close(b, 1);
    buf_puts(b, ".ToImmutableDictionary())");
}

static void cs_node_options(emit_typed_t *x, buf_t *b, const pcl_node_t *n) {
    cs_options((cs_ctx_t *)x, b, n, 1);
}

/* A read block's arguments after its name: `, id`, the state's object initializer (the class's
 * <Type>State, target-typed) and the options, named when there is no state (a resource without
 * state inputs has no state parameter), as in the SDK's
 * `Get(string name, Input<string> id, <Type>State? state = null, CustomResourceOptions? options = null)`. */
static void cs_read(emit_typed_t *x, buf_t *b, const pcl_node_t *n, const pcl_attr_t *id) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    buf_puts(b, ", ");
    if (id) cs_expr(c, b, id->value, NULL, 1);
    bool state = n->n_attrs > (id ? 1u : 0u);
    if (state) {
        buf_puts(b, ", new()");
        cs_open(b, 1);
        for (size_t j = 0; j < n->n_attrs; j++) {
            const pcl_attr_t *at = &n->attrs[j];
            if (at == id) continue;
            const schema_property_t *prop = emit_state_property(n, at);
            cs_property(c, b, cs_property_name(c, at->name, prop), at->value, prop, 2);
        }
        cs_close(b, 1);
    }
    if (n->n_options > 0) {
        buf_puts(b, state ? ", " : ", options: ");
        cs_options(c, b, n, 1);
    }
}

/* A hook, as Pulumi's .NET generator writes it: a ResourceHook (or an ErrorHook, which says whether
 * to retry: whether the command succeeds) whose function runs the command (its first word the
 * program, no shell), reading the hook's `args`; its options after it. */
static void cs_hook(emit_typed_t *x, buf_t *b, size_t i) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    const pcl_node_t *n = &c->base.p->nodes[i];
    emit_hook_t h;
    if (!emit_hook_attrs(n, &h)) return;
    const pcl_expr_t *cmd = h.command->value; /* emit_check_program: a list of words */
    cs_need(x, "System");
    cs_need(x, "System.Diagnostics");
    cs_need(x, "System.Threading.Tasks");
    int d = h.error ? 3 : 2; /* the statements' depth: an error hook's are in a try */
    cs_indent(b, 1);
    buf_printf(b, "var %s = new %s(", c->base.var[i], h.error ? "ErrorHook" : "ResourceHook");
    names_append_quoted(b, LANG_CSHARP, emit_node_logical_name(n));
    buf_puts(b, ", (args, cancellationToken) =>\n");
    cs_indent(b, 1);
    buf_puts(b, "{\n");
    if (h.error) {
        cs_indent(b, 2);
        buf_puts(b, "try\n");
        cs_indent(b, 2);
        buf_puts(b, "{\n");
    }
    cs_indent(b, d);
    buf_puts(b, "var process = Process.Start(");
    for (size_t k = 0; k < cmd->tuple.n; k++) {
        const pcl_expr_t *w = cmd->tuple.items[k];
        buf_puts(b, k == 1 ? ", new[] { " : k > 1 ? ", " : "");
        if (w->kind == PCL_CALL) buf_puts(b, "(string)"); /* notImplemented's object (emit_check_program) */
        cs_expr(c, b, w, NULL, d);
    }
    if (cmd->tuple.n > 1) buf_puts(b, " }");
    buf_puts(b, ");\n");
    cs_indent(b, d);
    buf_puts(b, "process.WaitForExit();\n");
    if (h.error) {
        cs_indent(b, d);
        buf_puts(b, "return Task.FromResult(process.ExitCode == 0);\n");
        cs_indent(b, 2);
        buf_puts(b, "}\n");
        cs_indent(b, 2);
        buf_puts(b, "catch\n");
        cs_indent(b, 2);
        buf_puts(b, "{\n");
        cs_indent(b, 3);
        buf_puts(b, "return Task.FromResult(false);\n");
        cs_indent(b, 2);
        buf_puts(b, "}\n");
    } else {
        cs_indent(b, 2);
        buf_puts(b, "if (process.ExitCode != 0)\n");
        cs_indent(b, 2);
        buf_puts(b, "{\n");
        cs_indent(b, 3);
        buf_puts(b, "throw new Exception($\"Hook command exited with code {process.ExitCode}.\");\n");
        cs_indent(b, 2);
        buf_puts(b, "}\n");
        cs_indent(b, 2);
        buf_puts(b, "return Task.CompletedTask;\n");
    }
    cs_indent(b, 1);
    buf_putc(b, '}');
    if (h.dry_run || h.ignore_errors) { /* a resource hook's (emit_check_program) */
        buf_puts(b, ", new ResourceHookOptions");
        cs_open(b, 1);
        const pcl_attr_t *opts[] = {h.dry_run, h.ignore_errors};
        for (size_t k = 0; k < 2; k++) {
            if (!opts[k]) continue;
            cs_indent(b, 2);
            buf_printf(b, "%s = ", k ? "IgnoreErrors" : "OnDryRun");
            cs_expr(c, b, opts[k]->value, NULL, 2);
            buf_puts(b, ",\n");
        }
        cs_close(b, 1);
    }
    buf_puts(b, ");\n");
}

static const emit_typed_program_t CS_PROGRAM = {
    .lang = LANG_CSHARP,
    .indent = "    ",
    .depth = 1,
    .declare = "var %s = ",
    .end = ";\n\n",
    .values = &CS_VALUES,
    .new_config = "var config = new Config();\n",
    .config = "config",
    .cfg = &CS_CFG,
    .class_of = cs_class_of,
    .args = cs_args,
    .component_args = cs_component_args,
    .options = cs_node_options,
    .read_get = ".Get(",
    .read = cs_read,
    .hook = cs_hook,
    .require_version = "Deployment.RequirePulumiVersionAsync(",
    .require_close = ").Wait()",
};

/* The statements, then the stack outputs: the dictionary the program returns. */
static void cs_body(emit_typed_t *x, buf_t *b) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    const int depth = 1;
    emit_typed_nodes(x, b, &CS_PROGRAM);
    bool first = true;
    for (size_t i = 0; i < c->base.p->n_nodes; i++) {
        const pcl_node_t *n = &c->base.p->nodes[i];
        if (n->kind != PCL_NODE_OUTPUT) continue;
        c->base.node = n;
        if (first) {
            cs_indent(b, depth);
            buf_puts(b, "return new Dictionary<string, object?>");
            cs_open(b, depth);
        }
        first = false;
        cs_indent(b, depth + 1);
        buf_putc(b, '[');
        names_append_quoted(b, LANG_CSHARP, emit_node_logical_name(n));
        buf_puts(b, "] = ");
        cs_expr(c, b, n->attrs[0].value, NULL, depth + 1);
        buf_puts(b, ",\n");
    }
    if (!first) {
        cs_close(b, depth);
        buf_puts(b, ";\n");
    }
    c->base.node = NULL;
}

static int cs_using_cmp(const void *x, const void *y) {
    return strcmp(((const cs_using_t *)x)->alias, ((const cs_using_t *)y)->alias);
}

static int cs_str_cmp(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* `using` the SDK and each package's namespace (by alias), and the program's entry. */
static void cs_head(emit_typed_t *x, buf_t *out) {
    cs_ctx_t *c = (cs_ctx_t *)x;
    qsort(c->system, c->n_system, sizeof *c->system, cs_str_cmp);
    for (size_t i = 0; i < c->n_system; i++)
        buf_printf(out, "using %s;\n", c->system[i]);
    buf_puts(out, "using Pulumi;\n");
    if (c->n_usings > 1)
        qsort(c->usings, c->n_usings, sizeof *c->usings, cs_using_cmp); /* none: a program without resources */
    for (size_t i = 0; i < c->n_usings; i++)
        buf_printf(out, "using %s = %s;\n", c->usings[i].alias, c->usings[i].ns);
    /* the helpers after every using directive (C# allows no using after a declaration) */
    for (size_t i = 0; i < CS_N_HELPERS; i++)
        if (c->helpers[i]) buf_printf(out, "\n%s", CS_HELPERS[i].text);
    buf_puts(out, "\nreturn await Deployment.RunAsync(() => \n{\n");
}

char *emit_csharp(const pcl_program_t *p, diag_list_t *diags) {
    cs_ctx_t c = {0};
    if (!emit_typed_init(&c.base, p, diags, LANG_CSHARP)) return NULL;
    for (size_t i = 0; i < sizeof CS_SYSTEM / sizeof CS_SYSTEM[0]; i++)
        cs_need(&c.base, CS_SYSTEM[i]);
    for (size_t i = 0; i < p->n_nodes; i++)
        if (cs_config_any(c.base.a, &p->nodes[i])) cs_need(&c.base, "System.Text.Json");
    /* Pulumi's C# generator does not make names unique (collisions give invalid code); we do,
     * after the names the program itself declares. */
    static const char *const reserved[] = {"config", NULL};
    emit_typed_name_nodes(&c.base, LANG_CSHARP, NULL, reserved, NULL, NULL);
    return emit_typed_file(&c.base, cs_body, cs_head, "});\n\n");
}

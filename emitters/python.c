/* python.c — the Python emitter: PCL program → __main__.py for the Pulumi Python SDK.
 *
 * Same shape as the other emitters: a program walker (imports, then nodes in order), an
 * expression printer guided by the schema type at each position, and names.h for naming. Layout
 * follows Pulumi's python program generator (pcl-emitters §3.2, §4.2): keyword arguments named by
 * PyName, the "hanging" call layout with `)` glued to the last argument, `opts =
 * pulumi.ResourceOptions(...)` in Pulumi's fixed option order, nested schema objects as TypedDict
 * dict literals with PyName'd keys (or `...Args(...)` classes when the package's python
 * `inputTypes` is "classes"), and `float(42)` where a number property gets an integer. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/walk.h"

typedef struct py_gen {
    emit_walk_t w;        /* first: the hooks convert the walk back to the generator */
    bool subst_all;       /* in an apply over several outputs: all_name['name'] */
    const char *all_name; /* that apply's parameter: resolved_outputs, unless the body uses the name */
    /* for-expression variables whose values are dicts (the items of entries()): read with ["key"] */
    const char *dict_vars[EMIT_MAX_SCOPE];
    size_t n_dict_vars;
    bool format_value;                      /* a template printed a bool or a number through format_value() */
    bool to_json;                           /* a toJSON() of a value that may hold a float went through to_json() */
    const pcl_expr_t *fors[EMIT_MAX_SCOPE]; /* the for expressions whose variables are in scope */
    size_t n_fors;
} py_gen_t;

static void py_expr(py_gen_t *g, const pcl_expr_t *e);
static void py_expr_hook(emit_walk_t *w, const pcl_expr_t *e) {
    py_expr((py_gen_t *)w, e);
}
static char *py_identifier(arena_t *a, const char *s) {
    return names_make_valid_identifier(a, LANG_PYTHON, names_py_name(a, s));
}
static char *py_module_prefix(emit_walk_t *w, const emit_pkg_t *pk, const char *token);
static void py_object_key(emit_walk_t *w, const pcl_object_item_t *it, bool schema_object);
static bool py_needs_parens(const pcl_expr_t *parent, const pcl_expr_t *child);
static void py_invoke(emit_walk_t *w, const pcl_expr_t *e);
static void py_method_args(emit_walk_t *w, const pcl_expr_t *args);
static void py_call(emit_walk_t *w, const pcl_expr_t *e);
static void py_apply(emit_walk_t *w, const pcl_expr_t *e);
static void py_apply_open(py_gen_t *g, const emit_apply_t *ap, const pcl_expr_t *body);
static void py_resource(emit_walk_t *w, size_t idx);
static void py_component_args(emit_walk_t *w, const pcl_node_t *n);
static void py_output(emit_walk_t *w, size_t idx);
static void py_hook(emit_walk_t *w, size_t idx);
static const char *py_config_getter(emit_walk_t *w, const pcl_node_t *n);
static void py_config_default(emit_walk_t *w, size_t idx, const char *close);

static const emit_syntax_t PY_SYNTAX = {
    .lang = LANG_PYTHON,
    .expr = py_expr_hook,
    .identifier = py_identifier,
    .module_prefix = py_module_prefix,
    .object_key = py_object_key,
    .needs_parens = py_needs_parens,
    .invoke = py_invoke,
    .method_args = py_method_args,
    .call = py_call,
    .apply = py_apply,
    .resource = py_resource,
    .component_args = py_component_args,
    .output = py_output,
    .hook = py_hook,
    .declare = "%s = ",
    .construct = "",
    .end = "\n",
    .new_config = "pulumi.Config()",
    .require_version = "pulumi.require_pulumi_version",
    .config_getter = py_config_getter,
    .config_default = py_config_default,
};

static char *py_dashes_to_underscores(arena_t *a, const char *s) {
    char *r = arena_strdup(a, s);
    for (char *c = r; *c; c++)
        if (*c == '-') *c = '_';
    return r;
}

/* The Python module of a resource's package: its schema's python packageName, else
 * `<namespace>_<name>` (`pulumi_<name>` without a namespace), dashes as underscores. */
static const char *py_import_path(emit_walk_t *w, const schema_package_t *pkg, const char *name) {
    if (pkg && pkg->python_package_name && *pkg->python_package_name) return pkg->python_package_name;
    return arena_sprintf(w->a, "%s_%s",
                         pkg && pkg->namespace_ && *pkg->namespace_ ? py_dashes_to_underscores(w->a, pkg->namespace_)
                                                                    : "pulumi",
                         py_dashes_to_underscores(w->a, name));
}

static void py_collect_packages(py_gen_t *g) {
    emit_walk_collect_packages(&g->w, py_import_path);
    for (size_t i = 0; i < g->w.n_pkgs; i++) {
        if (strcmp(g->w.pkgs[i].name, "pulumi") == 0) { /* the SDK's own resources: pulumi.StackReference */
            g->w.pkgs[i].alias = "pulumi";
            continue;
        }
        char *base = names_py_name(g->w.a, names_make_valid_identifier(g->w.a, LANG_PYTHON, g->w.pkgs[i].name));
        g->w.pkgs[i].alias =
            names_table_unique(g->w.idents, names_make_valid_identifier(g->w.a, LANG_PYTHON, base), "_", 1);
    }
}

/* `<alias>[.<mod>...]`: module per moduleFormat, `language.python.moduleNameOverrides` applied,
 * else lowercased with each `/` part PyName'd; `index` has no module. */
static char *py_module_prefix(emit_walk_t *w, const emit_pkg_t *pk, const char *token) {
    if (strcmp(pk->name, "pulumi") == 0) return arena_strdup(w->a, "pulumi");
    char *mod = emit_pkg_module(w->a, pk, token);
    if (!*mod || strcmp(mod, "index") == 0) return arena_strdup(w->a, pk->alias);
    const char *renamed = emit_pkg_language_string(pk, "python", "moduleNameOverrides", mod);
    if (renamed) {
        char *r = arena_sprintf(w->a, "%s.%s", pk->alias, renamed);
        for (char *c = r; *c; c++)
            if (*c == '/') *c = '.';
        return r;
    }
    return emit_walk_module_path(w, pk->alias, mod);
}

/* The keyword-argument name of a resource input: `language.python.name` if the schema has one,
 * else PyName; keywords and the constructor's own `resource_name`/`opts` get a `_` suffix. */
static const char *py_param_name(py_gen_t *g, const char *name, const schema_property_t *prop) {
    const char *n = prop && prop->python_name ? prop->python_name : names_py_name(g->w.a, name);
    if (strcmp(n, "resource_name") == 0 || strcmp(n, "opts") == 0) return arena_sprintf(g->w.a, "%s_", n);
    return names_make_valid_identifier(g->w.a, LANG_PYTHON, n);
}

/* Pulumi's quote choice: `"..."` unless the string has more than one newline or an interior one,
 * then `"""..."""` with raw newlines. Unlike Pulumi, `\` and quotes that would end the literal are
 * escaped inside triple quotes too, so every string compiles. */
static void py_string(py_gen_t *g, const char *s) {
    size_t n = strlen(s), nls = 0;
    for (const char *c = s; *c; c++)
        nls += *c == '\n';
    const char *nl = strchr(s, '\n');
    bool triple = nls > 1 || (nls == 1 && nl != s && nl != s + n - 1);
    if (!triple) {
        names_append_quoted(g->w.b, LANG_PYTHON, s);
        return;
    }
    buf_puts(g->w.b, "\"\"\"");
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\\')
            buf_puts(g->w.b, "\\\\");
        else if (c == '"' && (p[1] == '"' || p[1] == 0))
            buf_puts(g->w.b, "\\\"");
        else if (c == '\r')
            buf_puts(g->w.b, "\\r");
        else if (pcl_is_nul(p)) /* PCL_NUL */
            buf_puts(g->w.b, "\\x00"), p++;
        else if ((c < 0x20 && c != '\n') || c == 0x7f)
            buf_printf(g->w.b, "\\x%02x", c); /* a tab too: \x09, as Pulumi writes it */
        else if (c >= 0x80 && names_escape_unprintable(g->w.b, LANG_PYTHON, &p))
            continue;
        else
            buf_putc(g->w.b, (char)c);
    }
    buf_puts(g->w.b, "\"\"\"");
}

static void py_number(py_gen_t *g, const pcl_expr_t *e) {
    if (emit_walk_enum(&g->w, e)) return;
    schema_kind_t k = e->type ? e->type->kind : SCHEMA_ANY;
    bool is_int = names_number_is_int(e->n);
    /* the SDK's type hints want a float for `number` and an int for `integer` */
    const char *wrap = (k == SCHEMA_NUMBER && is_int) ? "float" : (k == SCHEMA_INT && !is_int) ? "int" : NULL;
    if (wrap) buf_printf(g->w.b, "%s(", wrap);
    names_append_number(g->w.b, e->n);
    if (wrap) buf_putc(g->w.b, ')');
}

/* Whether a traversal's root holds plain data — a config value, a local whose value is a list, an
 * object, a for expression or config (through secret()/unsecret()) — whose Python form is a dict
 * or a list: read with ["key"], which attribute access on a dict is not. */
static bool py_plain_data(py_gen_t *g, const char *root) {
    for (int depth = 0; depth < 8; depth++) {
        int idx = emit_walk_in_scope(&g->w, root) ? -1 : names_table_get(g->w.nodes, root);
        if (idx < 0) return false;
        const pcl_node_t *n = &g->w.p->nodes[idx];
        if (n->kind == PCL_NODE_CONFIG) return true;
        if (n->kind != PCL_NODE_LOCAL) return false;
        const pcl_expr_t *v = n->attrs[0].value;
        if (v->kind == PCL_CALL && v->call.n == 1 &&
            (strcmp(v->call.name, "secret") == 0 || strcmp(v->call.name, "unsecret") == 0))
            v = v->call.args[0];
        if (v->kind == PCL_OBJECT || v->kind == PCL_TUPLE || v->kind == PCL_FOR) return true;
        if (v->kind != PCL_TRAVERSAL || v->trav.n) return false;
        root = v->trav.root;
    }
    return false;
}

/* Whether e reads plain data: a traversal of a plain-data root (py_plain_data) or of a
 * for-expression variable whose values are dicts, or a list of such. */
static bool py_plain_expr(py_gen_t *g, const pcl_expr_t *e) {
    if (e->kind == PCL_TUPLE) { /* a list of plain data */
        for (size_t i = 0; i < e->tuple.n; i++)
            if (!py_plain_expr(g, e->tuple.items[i])) return false;
        return e->tuple.n > 0;
    }
    if (e->kind != PCL_TRAVERSAL) return false;
    if (!emit_walk_in_scope(&g->w, e->trav.root)) return py_plain_data(g, e->trav.root);
    for (size_t i = 0; i < g->n_dict_vars; i++)
        if (strcmp(g->dict_vars[i], e->trav.root) == 0) return true;
    return false;
}

/* A traversal's parts [from, n): into plain data (a dict: a config object, a local object) as
 * `["key"]` and `[0]`, else as emit_walk_trav_parts writes them — but for a key of what the schema
 * types a map (a resource's map output, `r.tags.Name`), a dict too, whose attributes are not its
 * keys (the SDK's Output lifts `.Name` to getattr: an AttributeError, or a dict's method for items,
 * keys, values, get). */
static void py_trav_parts(py_gen_t *g, const pcl_expr_t *e, size_t from, bool dict) {
    bool typed = !dict && !emit_walk_in_scope(&g->w, e->trav.root);
    for (size_t k = from; k < e->trav.n; k++) {
        const pcl_trav_part_t *pt = &e->trav.parts[k];
        if (!dict && !(typed && pt->attr && emit_reads_map_key(g->w.p, g->w.nodes, e, k))) {
            emit_walk_trav_parts(&g->w, e->trav.parts, k, k + 1, true);
            continue;
        }
        buf_putc(g->w.b, '[');
        if (pt->attr || pt->index_is_string)
            names_append_quoted(g->w.b, LANG_PYTHON, pt->attr ? pt->attr : pt->index_str);
        else
            buf_printf(g->w.b, "%zu", pt->index_num);
        buf_putc(g->w.b, ']');
    }
}

/* A config of PCL type number: Python reads it as a float (require_float). */
static bool py_number_config(const pcl_node_t *n) {
    return n->kind == PCL_NODE_CONFIG && n->token && strcmp(n->token, "number") == 0;
}

static void py_traversal(py_gen_t *g, const pcl_expr_t *e) {
    int cidx = emit_walk_in_scope(&g->w, e->trav.root) ? -1 : names_table_get(g->w.nodes, e->trav.root);
    if (cidx >= 0 && e->trav.n == 0 && g->w.p->nodes[cidx].kind == PCL_NODE_CONFIG && !g->w.in_apply) {
        /* a config value where the schema wants another scalar type, converted as Pulumi does */
        static const char *const conv[] = {
            [EMIT_CONV_STRING_TO_BOOL] = "%s == \"true\"",
            [EMIT_CONV_STRING_TO_INT] = "int(%s)",
            [EMIT_CONV_STRING_TO_NUMBER] = "float(%s)",
            [EMIT_CONV_NUMBER_TO_STRING] = "str(%s)",
            [EMIT_CONV_BOOL_TO_STRING] = "\"true\" if %s else \"false\"",
            [EMIT_CONV_INT_TO_NUMBER] = "float(%s)",
        };
        const pcl_node_t *cfg = &g->w.p->nodes[cidx];
        emit_conversion_t k = emit_config_conversion(cfg, e->type);
        if (k == EMIT_CONV_NUMBER_TO_STRING && py_number_config(cfg)) { /* str(8080.0) is "8080.0" */
            g->format_value = true;
            if (cfg->config_secret)
                buf_printf(g->w.b, "%s.apply(lambda x: format_value(x))", g->w.ident[cidx]);
            else
                buf_printf(g->w.b, "format_value(%s)", g->w.ident[cidx]);
            return;
        }
        if (k != EMIT_CONV_NONE && k != EMIT_CONV_UNSUPPORTED) {
            if (cfg->config_secret)
                buf_printf(g->w.b, "%s.apply(lambda x: %s)", g->w.ident[cidx], arena_sprintf(g->w.a, conv[k], "x"));
            else
                buf_printf(g->w.b, conv[k], g->w.ident[cidx]);
            return;
        }
    }
    /* A provider's output at an enum input: the SDK gives a provider's outputs as strings, so Pulumi
     * converts it to the enum in an apply (`prov.a_enum.apply(lambda x: config_enum.MyEnum(x))`). */
    const char *ptoken = cidx >= 0 && g->w.p->nodes[cidx].kind == PCL_NODE_RESOURCE ? g->w.p->nodes[cidx].token : NULL;
    const char *enum_class = ptoken && strncmp(ptoken, "pulumi:providers:", 17) == 0 && e->trav.n == 1 &&
                                     e->trav.parts[0].attr && !g->w.in_apply
                                 ? emit_walk_enum_class(&g->w, e->type)
                                 : NULL;
    if (enum_class) {
        emit_walk_root(&g->w, e, cidx);
        py_trav_parts(g, e, 0, false);
        buf_printf(g->w.b, ".apply(lambda x: %s(x))", enum_class);
        return;
    }
    bool in_scope = emit_walk_in_scope(&g->w, e->trav.root), dict = e->trav.n > 0 && py_plain_data(g, e->trav.root);
    for (size_t i = 0; in_scope && i < g->n_dict_vars; i++)
        dict |= strcmp(g->dict_vars[i], e->trav.root) == 0;
    if (in_scope)
        buf_puts(g->w.b, e->trav.root); /* a for-expression variable */
    else
        emit_walk_root(&g->w, e, names_table_get(g->w.nodes, e->trav.root));
    py_trav_parts(g, e, 0, dict);
}

/* PCL's built-in functions as Pulumi's Python generator writes them (emit_walk_format); length,
 * entries, lookup and toJSON depend on their arguments (py_call). */
static const emit_call_name_t PY_CALLS[] = {
    {"secret", "pulumi.Output.secret($0)"},
    {"unsecret", "pulumi.Output.unsecret($0)"},
    {"fileAsset", "pulumi.FileAsset($0)"},
    {"stringAsset", "pulumi.StringAsset($0)"},
    {"remoteAsset", "pulumi.RemoteAsset($0)"},
    {"fileArchive", "pulumi.FileArchive($0)"},
    {"remoteArchive", "pulumi.RemoteArchive($0)"},
    {"assetArchive", "pulumi.AssetArchive($0)"},
    {"stack", "pulumi.get_stack()"},
    {"project", "pulumi.get_project()"},
    {"organization", "pulumi.get_organization()"},
    {"rootDirectory", "pulumi.get_root_directory()"},
    {"cwd", "os.getcwd()"},
    {"toBase64", "base64.b64encode($r0.encode()).decode()"},
    {"fromBase64", "base64.b64decode($r0.encode()).decode()"},
    {"sha1", "hashlib.sha1($r0.encode()).hexdigest()"},
    /* the file's bytes as they are: text mode would decode by the locale and turn \r\n into \n */
    {"readFile", "(lambda path: open(path, encoding=\"utf-8\", newline=\"\").read())($0)"},
    {"filebase64", "(lambda path: base64.b64encode(open(path, \"rb\").read()).decode())($0)"},
    {"filebase64sha256", "computeFilebase64sha256($0)"},
    {"element", "element($0, $1)"},
    {"join", "$r0.join($1)"},
    {"split", "$r1.split($0)"},
    {"min", "min($*)"},
    {"max", "max($*)"},
    {"singleOrNone", "single_or_none($0)"},
    {"notImplemented", "not_implemented($0)"},
    {"pulumiResourceName", "$r0.pulumi_resource_name"},
    {"pulumiResourceType", "$r0.pulumi_resource_type"},
    {"getOutput", "$r0.get_output($1)"},
};

/* Helper functions the program's calls need, written after the imports as Pulumi writes them. */
static const emit_helper_t PY_HELPERS[] = {
    {"filebase64sha256", "computeFilebase64sha256",
     "def computeFilebase64sha256(path):\n"
     "\tfileData = open(path, \"rb\").read()\n"
     "\thashedData = hashlib.sha256(fileData).digest()\n"
     "\treturn base64.b64encode(hashedData).decode()\n\n"},
    /* PCL's element() wraps the index around (go-cty's ElementFunc); an index fails past the end */
    {"element", "element",
     "def element(lst, index):\n"
     "    # PCL's element(): the index taken modulo the list's length (a whole number, not negative)\n"
     "    if index < 0 or index != int(index):\n"
     "        raise ValueError(\"element: the index is not a whole number of 0 or more\")\n"
     "    if not lst:\n"
     "        raise ValueError(\"element: the list is empty\")\n"
     "    return lst[int(index) % len(lst)]\n\n\n"},
    {"notImplemented", "not_implemented",
     "def not_implemented(msg):\n"
     "    raise NotImplementedError(msg)\n\n\n"},
    /* PCL's can() and try(): a failing argument is one that raises (a missing key, an attribute of
     * None); an explicit null is a value. try() with every argument failing is an error, as PCL's. */
    {"can", "can_",
     "def can_(fn):\n"
     "    try:\n"
     "        fn()\n"
     "        return True\n"
     "    except Exception:\n"
     "        return False\n\n\n"},
    {"try", "try_",
     "def try_(*fns):\n"
     "    for fn in fns:\n"
     "        try:\n"
     "            return fn()\n"
     "        except Exception:\n"
     "            continue\n"
     "    raise Exception(\"try: all parameters failed\")\n\n\n"},
    {"singleOrNone", "single_or_none",
     "def single_or_none(elements):\n"
     "    if len(elements) > 1:\n"
     "        raise Exception(\"single_or_none expected input list to have a single element\")\n"
     "    return elements[0] if elements else None\n\n\n"},
};

/* PCL's length() of a string counts extended grapheme clusters (go-cty's, Unicode 15.0's rules,
 * UAX #29): Hangul syllables, regional-indicator pairs, emoji ZWJ sequences, prepended and spacing
 * marks; the code point tables are emit_helper_puts' (walk.c). Categories come from the running
 * Python's unicodedata. */
static const char PY_GRAPHEME_LENGTH[] =
    "def grapheme_length(s):\n"
    "    # extended grapheme clusters by Unicode 15.0's rules (UAX #29), as PCL counts them\n"
    "    def within(o, bounds):  # bounds: starts and ends (exclusive), sorted\n"
    "        lo, hi = 0, len(bounds)\n"
    "        while lo < hi:\n"
    "            mid = (lo + hi) // 2\n"
    "            if bounds[mid] <= o:\n"
    "                lo = mid + 1\n"
    "            else:\n"
    "                hi = mid\n"
    "        return lo % 2 == 1\n"
    "\n"
    "    @grapheme-tables\n"
    "\n"
    "    def kind(c):\n"
    "        o = ord(c)\n"
    "        if o in (10, 13, 0x200D):\n"
    "            return o\n"
    "        if 0x1F1E6 <= o <= 0x1F1FF:\n"
    "            return \"RI\"\n"
    "        if 0x1100 <= o <= 0x115F or 0xA960 <= o <= 0xA97C:\n"
    "            return \"L\"\n"
    "        if 0x1160 <= o <= 0x11A7 or 0xD7B0 <= o <= 0xD7C6:\n"
    "            return \"V\"\n"
    "        if 0x11A8 <= o <= 0x11FF or 0xD7CB <= o <= 0xD7FB:\n"
    "            return \"T\"\n"
    "        if 0xAC00 <= o <= 0xD7A3:\n"
    "            return \"LV\" if (o - 0xAC00) % 28 == 0 else \"LVT\"\n"
    "        if within(o, prepend):\n"
    "            return \"Prepend\"\n"
    "        cat = unicodedata.category(c)\n"
    "        if cat in (\"Mn\", \"Me\") or within(o, other_extend):\n"
    "            return \"Extend\"\n"
    "        if cat in (\"Cc\", \"Cf\", \"Zl\", \"Zp\") or (cat == \"Cn\" and (o == 0x2065 or 0xFFF0 <= o <= 0xFFF8 or "
    "0xE0000 <= o <= 0xE0FFF)):\n"
    "            return \"Control\"\n"
    "        if (cat == \"Mc\" and not within(o, not_spacing)) or o in (0xE33, 0xEB3):\n"
    "            return \"SpacingMark\"\n"
    "        return \"Pictographic\" if within(o, pictographic) else \"\"\n"
    "\n"
    "    count, prev, regional, emoji = 0, None, 0, 0\n"
    "    for c in s:\n"
    "        k = kind(c)\n"
    "        if prev is None or prev == 13 and k == 10:\n"
    "            joined = prev is not None\n"
    "        elif prev in (10, 13, \"Control\") or k in (10, 13, \"Control\"):\n"
    "            joined = False\n"
    "        else:\n"
    "            joined = (prev == \"L\" and k in (\"L\", \"V\", \"LV\", \"LVT\") or prev in (\"LV\", \"V\") and k in "
    "(\"V\", \"T\")\n"
    "                      or prev in (\"LVT\", \"T\") and k == \"T\" or k in (\"Extend\", 0x200D, \"SpacingMark\")\n"
    "                      or prev == \"Prepend\" or prev == 0x200D and k == \"Pictographic\" and emoji == 2\n"
    "                      or prev == \"RI\" and k == \"RI\" and regional % 2 == 1)\n"
    "        count += 0 if joined else 1\n"
    "        regional = regional + 1 if k == \"RI\" else 0\n"
    "        emoji = 1 if k == \"Pictographic\" else 2 if emoji == 1 and k == 0x200D else emoji if emoji == 1 and k == "
    "\"Extend\" else 0\n"
    "        prev = k\n"
    "    return count\n"
    "\n"
    "\n";

/* A bool or a number in a template as PCL (and JavaScript) prints it: true, 2 (Python's str() gives
 * True, 2.0, 1e-07); JavaScript's Number::toString over repr()'s shortest digits. */
static const char PY_FORMAT_VALUE[] =
    "def format_value(v):\n"
    "    if isinstance(v, bool):\n"
    "        return \"true\" if v else \"false\"\n"
    "    if not isinstance(v, float):\n"
    "        return str(v)\n"
    "    if v != v or v in (float(\"inf\"), float(\"-inf\")):\n"
    "        return \"NaN\" if v != v else (\"Infinity\" if v > 0 else \"-Infinity\")\n"
    "    if v == 0:\n"
    "        return \"0\"\n"
    "    mant, _, exp = repr(abs(v)).partition(\"e\")\n"
    "    whole, _, frac = mant.partition(\".\")\n"
    "    digits = (whole + frac).lstrip(\"0\")\n"
    "    point = len(whole) + int(exp or 0) - (len(whole + frac) - len(digits))\n"
    "    digits = digits.rstrip(\"0\")\n"
    "    sign = \"-\" if v < 0 else \"\"\n"
    "    if len(digits) <= point <= 21:\n"
    "        return sign + digits + \"0\" * (point - len(digits))\n"
    "    if 0 < point <= 21:\n"
    "        return sign + digits[:point] + \".\" + digits[point:]\n"
    "    if -6 < point <= 0:\n"
    "        return sign + \"0.\" + \"0\" * -point + digits\n"
    "    e = point - 1\n"
    "    rest = \".\" + digits[1:] if len(digits) > 1 else \"\"\n"
    "    return sign + digits[0] + rest + \"e\" + (\"+\" if e >= 0 else \"-\") + str(abs(e))\n\n\n";

/* PCL's toJSON of a value that may hold a float: json.dumps prints 2.0 and 1e-07 where PCL (and Go's
 * and JavaScript's JSON) print 2 and 1e-7; numbers as format_value() prints them, the rest as
 * json.dumps does. NaN and infinities are no JSON (cty refuses them too). */
static const char PY_TO_JSON[] = "def to_json(v):\n"
                                 "    if isinstance(v, float):\n"
                                 "        if v != v or v in (float(\"inf\"), float(\"-inf\")):\n"
                                 "            raise ValueError(\"toJSON: \" + repr(v) + \" is not a JSON number\")\n"
                                 "        return format_value(v)\n"
                                 "    if isinstance(v, dict):\n"
                                 "        return \"{\" + \",\".join(json.dumps(k, ensure_ascii=False) + \":\" + "
                                 "to_json(x) for k, x in v.items()) + \"}\"\n"
                                 "    if isinstance(v, (list, tuple)):\n"
                                 "        return \"[\" + \",\".join(to_json(x) for x in v) + \"]\"\n"
                                 "    return json.dumps(v, ensure_ascii=False)\n\n\n";

/* Whether json.dumps writes e's value as PCL does: no float inside but a literal that prints alike
 * (a whole one written as a Python int, another between 1e-4 and 1e15, which repr() writes without
 * an exponent), strings and bools of any origin. */
static bool py_json_plain(py_gen_t *g, const pcl_expr_t *e) {
    switch (e->kind) {
    case PCL_NULL:
    case PCL_BOOL:
    case PCL_STRING:
    case PCL_TEMPLATE: return true;
    case PCL_NUMBER: {
        double a = e->n < 0 ? -e->n : e->n;
        if (names_number_is_int(e->n)) return a < 1e15 && !(e->type && e->type->kind == SCHEMA_NUMBER);
        return a >= 1e-4 && a < 1e15;
    }
    case PCL_TUPLE:
        for (size_t i = 0; i < e->tuple.n; i++)
            if (!py_json_plain(g, e->tuple.items[i])) return false;
        return true;
    case PCL_OBJECT:
        for (size_t i = 0; i < e->object.n; i++)
            if (!py_json_plain(g, e->object.items[i].value)) return false;
        return true;
    default: {
        emit_shape_t sh = emit_expr_shape(g->w.p, g->w.nodes, e);
        return sh == EMIT_SHAPE_STRING || sh == EMIT_SHAPE_BOOL;
    }
    }
}

/* Python modules the program's calls need: `import <module>`. */
static const emit_module_use_t PY_MODULES[] = {
    {"toBase64", "base64"}, {"fromBase64", "base64"},        {"filebase64", "base64"}, {"filebase64sha256", "base64"},
    {"sha1", "hashlib"},    {"filebase64sha256", "hashlib"}, {"toJSON", "json"},       {"cwd", "os"},
    {"%", "math"}}; /* the operator % (emit_program_functions): math.fmod */

/* can() and try(): each argument a lambda, so the helper catches what it raises. */
static void py_can_try_plain(emit_walk_t *w, const pcl_expr_t *e) {
    py_gen_t *g = (py_gen_t *)w;
    buf_puts(g->w.b, strcmp(e->call.name, "can") == 0 ? "can_(" : "try_(");
    for (size_t i = 0; i < e->call.n; i++) {
        buf_puts(g->w.b, i ? ", lambda: " : "lambda: ");
        py_expr(g, e->call.args[i]);
    }
    buf_putc(g->w.b, ')');
}

/* Over outputs the call runs inside an apply on the values of its arguments' outputs (a lifted
 * read of a missing key would fail the whole output, not the lambda); over values of no type it is
 * still an Output, as emit_call_is_output says of it. */
static void py_can_try(py_gen_t *g, const pcl_expr_t *e) {
    if (g->w.in_apply || !emit_call_output_version(g->w.p, g->w.nodes, e)) {
        py_can_try_plain(&g->w, e);
        return;
    }
    pcl_expr_t args = {.kind = PCL_TUPLE, .tuple = {.items = e->call.args, .n = e->call.n}};
    emit_apply_t ap;
    emit_apply_plan(g->w.a, g->w.p, g->w.nodes, g->w.ident, LANG_PYTHON, &args, g->w.scope, g->w.n_scope, &ap);
    if (ap.nu == 0) {
        buf_puts(g->w.b, "pulumi.Output.from_input(");
        py_can_try_plain(&g->w, e);
        buf_putc(g->w.b, ')');
        return;
    }
    py_apply_open(g, &ap, e);
    emit_walk_apply_body(&g->w, &ap, e, py_can_try_plain);
}

static void py_call(emit_walk_t *w, const pcl_expr_t *e) {
    py_gen_t *g = (py_gen_t *)w;
    const char *fn = e->call.name;
    if (strcmp(fn, "can") == 0 || strcmp(fn, "try") == 0) {
        py_can_try(g, e);
        return;
    }
    if (emit_walk_min_max_spread(&g->w, e, "%s(", "*")) return; /* the list unpacked into the arguments */
    /* Pulumi's form: output.recover(a function of the failure's message, `error`) */
    if (emit_walk_recover(w, e, "$r0.recover(lambda __error: (lambda error: ", ")(str(__error)))")) return;
    if (strcmp(fn, "length") == 0 && e->call.n == 1) {
        bool str = emit_expr_shape(g->w.p, g->w.nodes, e->call.args[0]) == EMIT_SHAPE_STRING;
        emit_walk_format(&g->w, str ? "grapheme_length($0)" : "len($0)", e);
    } else if (strcmp(fn, "entries") == 0 && e->call.n == 1) {
        if (emit_expr_shape(g->w.p, g->w.nodes, e->call.args[0]) == EMIT_SHAPE_LIST)
            emit_walk_format(&g->w, "[{\"key\": k, \"value\": v} for k, v in enumerate($0)]", e);
        else
            emit_walk_format(&g->w, "[{\"key\": k, \"value\": v} for k, v in sorted($r0.items())]", e);
    } else if (strcmp(fn, "split") == 0 && e->call.n == 2 && e->call.args[0]->kind != PCL_STRING) {
        /* a separator known at run time may be "", where str.split raises and PCL gives characters */
        emit_walk_format(&g->w, "(lambda sep, s: s.split(sep) if sep else list(s))($0, $1)", e);
    } else if (strcmp(fn, "split") == 0 && e->call.n == 2 && !*e->call.args[0]->s) {
        emit_walk_format(&g->w, "list($1)", e); /* PCL's characters; str.split("") raises */
    } else if (strcmp(fn, "lookup") == 0) {
        emit_walk_format(&g->w, e->call.n == 3 ? "$r0.get($1, $2)" : "$r0[$1]", e);
    } else if (strcmp(fn, "toJSON") == 0 && e->call.n == 1 && !py_json_plain(g, e->call.args[0])) {
        g->to_json = g->format_value = true;
        emit_walk_format(&g->w,
                         emit_call_is_output(g->w.p, g->w.nodes, e) ? "pulumi.Output.from_input($0).apply(to_json)"
                                                                    : "to_json($0)",
                         e);
    } else if (strcmp(fn, "toJSON") == 0) {
        /* PCL's JSON: compact, non-ASCII characters as they are */
        emit_walk_format(&g->w,
                         emit_call_is_output(g->w.p, g->w.nodes, e)
                             ? "pulumi.Output.json_dumps($0, separators=(\",\", \":\"), ensure_ascii=False)"
                             : "json.dumps($0, separators=(\",\", \":\"), ensure_ascii=False)",
                         e);
    } else {
        emit_walk_call(&g->w, e, PY_CALLS, sizeof PY_CALLS / sizeof PY_CALLS[0]);
    }
}

/* True when the package wants input classes (`inputTypes: "classes"`) instead of TypedDicts. */
static bool py_uses_classes(py_gen_t *g, const char *type_token, const emit_pkg_t **pk) {
    char *pkg;
    if (!type_token || !names_token_split(g->w.a, type_token, &pkg, NULL, NULL)) return false;
    *pk = emit_walk_find_pkg(&g->w, pkg);
    return *pk && (*pk)->schema && (*pk)->schema->python_input_types &&
           strcmp((*pk)->schema->python_input_types, "classes") == 0;
}

/* TypedDict keys are the Python names of the schema properties; map keys stay verbatim. */
static void py_object_key(emit_walk_t *w, const pcl_object_item_t *it, bool schema_object) {
    const char *key = schema_object
                          ? (it->prop && it->prop->python_name ? it->prop->python_name : names_py_name(w->a, it->key))
                          : it->key;
    names_append_quoted(w->b, LANG_PYTHON, key);
}

static void py_object(py_gen_t *g, const pcl_expr_t *e) {
    bool schema_object = e->type && e->type->kind == SCHEMA_OBJECT;
    for (size_t i = 0; !schema_object && i < e->object.n; i++)
        schema_object = e->object.items[i].prop != NULL;
    const emit_pkg_t *pk = NULL;
    if (schema_object && e->type && e->type->kind == SCHEMA_OBJECT && py_uses_classes(g, e->type->token, &pk)) {
        char *member;
        names_token_split(g->w.a, e->type->token, NULL, NULL, &member);
        buf_printf(g->w.b, "%s.%sArgs(", py_module_prefix(&g->w, pk, e->type->token), names_title(g->w.a, member));
        g->w.indent += 4;
        for (size_t i = 0; i < e->object.n; i++) {
            emit_walk_newline(&g->w);
            buf_printf(g->w.b, "%s=", py_param_name(g, e->object.items[i].key, e->object.items[i].prop));
            py_expr(g, e->object.items[i].value);
            buf_putc(g->w.b, ',');
        }
        g->w.indent -= 4;
        if (e->object.n) emit_walk_newline(&g->w);
        buf_putc(g->w.b, ')');
        return;
    }
    emit_walk_object(&g->w, e, schema_object);
}

/* --- invokes and method calls ------------------------------------------------------------------------ */

/* Keyword arguments from an object, Pulumi's layout: the first after `(`, each further one on a line
 * of its own indented one step. */
static void py_kwargs(py_gen_t *g, const pcl_expr_t *args) {
    for (size_t i = 0; i < args->object.n; i++) {
        const pcl_object_item_t *it = &args->object.items[i];
        if (i) {
            buf_puts(g->w.b, ",\n");
            buf_indent(g->w.b, g->w.indent + 4);
        }
        buf_printf(g->w.b, "%s=", py_param_name(g, it->key, it->prop));
        g->w.indent += args->object.n > 1 ? 4 : 0;
        py_expr(g, it->value);
        g->w.indent -= args->object.n > 1 ? 4 : 0;
    }
}

/* Pulumi's InvokeOutputOptions keyword of each PCL invoke option. */
static const struct {
    const char *pcl, *py;
} PY_INVOKE_OPTIONS[] = {{"provider", "provider"},
                         {"parent", "parent"},
                         {"version", "version"},
                         {"pluginDownloadUrl", "plugin_download_url"},
                         {"dependsOn", "depends_on"}};

/* `pkg[.module].fn_output(k=v, ...[, opts=pulumi.InvokeOutputOptions(...)])`: the output version of
 * the function, keyword arguments (positional ones for multi-argument inputs). */
static void py_invoke(emit_walk_t *w, const pcl_expr_t *e) {
    py_gen_t *g = (py_gen_t *)w;
    bool positional = emit_walk_invoke_head(w, e, "_output", e->function->token, py_method_args);
    if (e->call.n == 3 && !positional) {
        const pcl_expr_t *o = e->call.args[2];
        buf_printf(g->w.b, "%sopts=pulumi.%s(", e->call.args[1]->object.n ? ", " : "",
                   e->function->return_type ? "InvokeOutputOptions" : "InvokeOptions");
        for (size_t i = 0; i < o->object.n; i++) {
            const char *key = o->object.items[i].key;
            for (size_t k = 0; k < sizeof PY_INVOKE_OPTIONS / sizeof *PY_INVOKE_OPTIONS; k++)
                if (strcmp(PY_INVOKE_OPTIONS[k].pcl, key) == 0) key = PY_INVOKE_OPTIONS[k].py;
            buf_printf(g->w.b, "%s%s=", i ? ", " : "", key);
            py_expr(g, o->object.items[i].value);
        }
        buf_putc(g->w.b, ')');
    }
    buf_putc(g->w.b, ')');
}

/* A method's or an invoke's object of arguments as keyword arguments: `res.method_name(k=v, ...)`. */
static void py_method_args(emit_walk_t *w, const pcl_expr_t *args) {
    py_kwargs((py_gen_t *)w, args);
}

/* Whether an attribute of an Output is read lifted (`result.name`): not when the name is one of
 * the Output class's own members (`secret`, `apply`, ...), which Python would find instead. */
static bool py_lifts(const char *attr) {
    static const char *const members[] = {"apply",    "all",       "concat",     "format",     "from_input",
                                          "get",      "is_secret", "json_dumps", "json_loads", "secret",
                                          "unsecret", "future",    "is_known",   "resources"};
    for (size_t i = 0; i < sizeof members / sizeof *members; i++)
        if (strcmp(members[i], attr) == 0) return false;
    return true;
}

/* An attribute chain over an invoke's or method call's result that Python reads lifted. */
static bool py_lifted_attr(const pcl_expr_t *e) {
    if ((e->kind != PCL_GETATTR && e->kind != PCL_INDEX) || !emit_fn_call_under(e)) return false;
    for (const pcl_expr_t *x = e; x->kind == PCL_GETATTR || x->kind == PCL_INDEX; x = x->x)
        if (x->kind == PCL_GETATTR && !py_lifts(x->s)) return false;
    return true;
}

/* --- expressions beyond literals: templates, operators, conditionals, for, splat ------------------- */

/* A template as an f-string, Pulumi's form; `{`/`}` doubled in the text. An interpolated
 * expression whose Python text holds a quote, a backslash or a new line (not allowed inside an
 * f-string's braces before Python 3.12) makes it a `"".join([...])` of the parts instead. */
typedef struct py_scope_read {
    py_gen_t *g;
    bool other; /* reads a variable no for expression declares, not recover's error or a hook's args.name */
} py_scope_read_t;

static bool py_declared_by_for(const py_gen_t *g, const char *name) {
    for (size_t i = 0; i < g->n_fors; i++)
        if (strcmp(g->fors[i]->vvar, name) == 0 || (g->fors[i]->kvar && strcmp(g->fors[i]->kvar, name) == 0))
            return true;
    return false;
}

static bool py_scope_read_one(const pcl_expr_t *e, void *ctx) {
    py_scope_read_t *r = ctx;
    if (e->kind != PCL_TRAVERSAL || !emit_walk_in_scope(&r->g->w, e->trav.root) ||
        py_declared_by_for(r->g, e->trav.root))
        return true;
    /* recover()'s error is str(exception); a hook's args.name, .type, .urn, .id are strings */
    bool string = (strcmp(e->trav.root, "error") == 0 && !e->trav.n) ||
                  (strcmp(e->trav.root, "args") == 0 && e->trav.n == 1 && e->trav.parts[0].attr);
    r->other |= !string;
    return false;
}

/* How a value prints as far as the program shows its type, the for expressions' variables included
 * (EMIT_PRINT_UNKNOWN where it reads another variable of the scope). */
static emit_print_t py_print_kind(py_gen_t *g, const pcl_expr_t *part) {
    if (part->kind == PCL_TRAVERSAL && emit_walk_in_scope(&g->w, part->trav.root) &&
        !py_declared_by_for(g, part->trav.root)) {
        py_scope_read_t r = {g, false};
        py_scope_read_one(part, &r);
        return r.other ? EMIT_PRINT_UNKNOWN : EMIT_PRINT_STRING;
    }
    py_scope_read_t r = {g, false};
    pcl_expr_walk(part, py_scope_read_one, &r);
    if (r.other) return EMIT_PRINT_UNKNOWN;
    /* the for expressions' variables as their collections' keys or items */
    const char *names[EMIT_MAX_SCOPE][2];
    const pcl_expr_t *colls[EMIT_MAX_SCOPE][2];
    bool is_key[EMIT_MAX_SCOPE][2], entries[EMIT_MAX_SCOPE][2];
    emit_scope_t links[EMIT_MAX_SCOPE];
    const emit_scope_t *in = NULL;
    for (size_t i = 0; i < g->n_fors; i++) {
        const pcl_expr_t *f = g->fors[i];
        names[i][0] = f->kvar ? f->kvar : "";
        names[i][1] = f->vvar;
        colls[i][0] = colls[i][1] = f->x;
        is_key[i][0] = true;
        is_key[i][1] = false;
        entries[i][0] = false;
        entries[i][1] = f->x->kind == PCL_CALL && strcmp(f->x->call.name, "entries") == 0;
        links[i] = (emit_scope_t){names[i], colls[i], is_key[i], entries[i], 2, in};
        in = &links[i];
    }
    return emit_scope_print_kind(g->w.p, g->w.nodes, in, part);
}

/* Whether a template's part prints in Python as PCL prints it (str() of a string or an int); a bool,
 * a number, a value of no type or of a type not known here goes through format_value(). */
static bool py_prints_as_pcl(py_gen_t *g, const pcl_expr_t *part) {
    emit_print_t k = py_print_kind(g, part);
    return k == EMIT_PRINT_STRING || k == EMIT_PRINT_INT || k == EMIT_PRINT_COLLECTION;
}

static void py_template(py_gen_t *g, const pcl_expr_t *e) {
    buf_t *outer = g->w.b;
    size_t n = e->tuple.n;
    char **texts = arena_alloc(g->w.a, (n + 1) * sizeof *texts);
    bool *formatted = arena_alloc(g->w.a, (n + 1) * sizeof *formatted);
    bool fstring = true;
    for (size_t i = 0; i < n; i++) {
        buf_t t;
        buf_init(&t);
        g->w.b = &t;
        formatted[i] = e->tuple.items[i]->kind != PCL_STRING && !py_prints_as_pcl(g, e->tuple.items[i]);
        if (formatted[i]) buf_puts(&t, "format_value(");
        if (e->tuple.items[i]->kind == PCL_STRING)
            names_append_quoted(&t, LANG_PYTHON, e->tuple.items[i]->s);
        else
            py_expr(g, e->tuple.items[i]);
        if (formatted[i]) buf_putc(&t, ')');
        g->format_value |= formatted[i];
        g->w.b = outer;
        texts[i] = buf_arena_str(&t, g->w.a);
        buf_free(&t);
        if (e->tuple.items[i]->kind != PCL_STRING) fstring &= !strpbrk(texts[i], "\"\\\n'{}");
    }
    if (!fstring) {
        buf_puts(outer, "\"\".join([");
        for (size_t i = 0; i < n; i++) {
            if (i) buf_puts(outer, ", ");
            if (e->tuple.items[i]->kind == PCL_STRING || formatted[i])
                buf_puts(outer, texts[i]);
            else
                buf_printf(outer, "str(%s)", texts[i]);
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

/* `not` binds looser than comparisons in Python: `(not a) == b`; and comparisons chain (`a == b == c`
 * is `a == b and b == c`), so one under another is parenthesised: `(a == b) == c` */
static bool py_needs_parens(const pcl_expr_t *parent, const pcl_expr_t *child) {
    bool compare = parent->kind == PCL_BINARY && child->kind == PCL_BINARY &&
                   (emit_binop_prec(parent->op) == 3 || emit_binop_prec(parent->op) == 4) &&
                   (emit_binop_prec(child->op) == 3 || emit_binop_prec(child->op) == 4);
    return compare || (child->kind == PCL_UNARY && child->op[0] == '!' && parent->kind != PCL_COND &&
                       !(parent->kind == PCL_BINARY && emit_binop_prec(parent->op) <= 2));
}

static void py_operand(py_gen_t *g, const pcl_expr_t *parent, const pcl_expr_t *child, bool right) {
    emit_walk_operand(&g->w, parent, child, right);
}

static const char *py_binop(const char *op) {
    if (strcmp(op, "&&") == 0) return "and";
    if (strcmp(op, "||") == 0) return "or";
    return op;
}

/* Pulumi's Python for a for expression: a list or dict comprehension; lists with an index through
 * enumerate, maps through sorted(items()). */
static void py_for(py_gen_t *g, const pcl_expr_t *e) {
    emit_shape_t sh;
    if (!emit_walk_for_shape(&g->w, e, &sh)) return;
    size_t saved = g->w.n_scope, saved_dicts = g->n_dict_vars;
    /* entries() gives {"key": k, "value": v} dicts: `entry.value` is `entry["value"]`; so are the
     * items of plain data (a config list of objects) */
    bool dict_items = (e->x->kind == PCL_CALL && strcmp(e->x->call.name, "entries") == 0) || py_plain_expr(g, e->x);
    if (!emit_walk_scope_push(&g->w, e)) return;
    if (dict_items && g->n_dict_vars < EMIT_MAX_SCOPE) g->dict_vars[g->n_dict_vars++] = e->vvar;
    size_t saved_fors = g->n_fors;
    g->fors[g->n_fors++] = e; /* emit_walk_scope_push: fewer than EMIT_MAX_SCOPE */
    buf_putc(g->w.b, e->for_object ? '{' : '[');
    if (e->for_object) {
        /* an object's key is a string: a number key is its text (`{for i, x in l : i => x}` has the
         * keys "0", "1"), where a Python dict would keep the int */
        emit_print_t k = py_print_kind(g, e->y);
        bool text = k != EMIT_PRINT_STRING && e->y->kind != PCL_STRING && e->y->kind != PCL_TEMPLATE;
        if (text) buf_puts(g->w.b, k == EMIT_PRINT_INT ? "str(" : "format_value(");
        g->format_value |= text && k != EMIT_PRINT_INT;
        py_expr(g, e->y);
        buf_puts(g->w.b, text ? "): " : ": ");
    }
    py_expr(g, e->z);
    g->w.n_scope = saved; /* the collection does not see the variables */
    g->n_fors = saved_fors;
    if (sh == EMIT_SHAPE_LIST) {
        if (e->kvar) {
            buf_printf(g->w.b, " for %s, %s in enumerate(", e->kvar, e->vvar);
            py_expr(g, e->x);
            buf_putc(g->w.b, ')');
        } else {
            buf_printf(g->w.b, " for %s in ", e->vvar);
            py_operand(g, e, e->x, false);
        }
    } else {
        buf_printf(g->w.b, " for %s, %s in sorted(", e->kvar ? e->kvar : "_", e->vvar);
        py_operand(g, e, e->x, false);
        buf_puts(g->w.b, ".items())");
    }
    emit_walk_scope_push(&g->w, e);
    g->fors[g->n_fors++] = e;
    if (e->w) {
        buf_puts(g->w.b, " if ");
        py_expr(g, e->w);
    }
    g->w.n_scope = saved;
    g->n_fors = saved_fors;
    g->n_dict_vars = saved_dicts;
    buf_putc(g->w.b, e->for_object ? '}' : ']');
}

/* The expression itself, its output atoms already resolved (or none). */
static void py_computed(emit_walk_t *w, const pcl_expr_t *e) {
    py_gen_t *g = (py_gen_t *)w;
    switch (e->kind) {
    case PCL_TEMPLATE: py_template(g, e); return;
    case PCL_UNARY:
        buf_puts(g->w.b, e->op[0] == '!' ? "not " : "-");
        py_operand(g, e, e->x, false);
        return;
    case PCL_BINARY: {
        /* `x is None` as Pulumi writes a comparison with null */
        bool null_cmp = (e->x->kind == PCL_NULL || e->y->kind == PCL_NULL) && emit_binop_prec(e->op) == 3;
        const pcl_expr_t *l = e->x->kind == PCL_NULL && null_cmp ? e->y : e->x;
        if (null_cmp) {
            py_operand(g, e, l, false);
            buf_puts(g->w.b, e->op[0] == '=' ? " is None" : " is not None");
            return;
        }
        if (strcmp(e->op, "%") == 0) { /* PCL's % truncates (-7 % 3 is -1), Python's floors (2) */
            bool ints = emit_print_kind(g->w.p, g->w.nodes, e->x) == EMIT_PRINT_INT &&
                        emit_print_kind(g->w.p, g->w.nodes, e->y) == EMIT_PRINT_INT;
            buf_puts(g->w.b, ints ? "int(math.fmod(" : "math.fmod(");
            for (int k = 0; k < 2; k++) {
                const pcl_expr_t *o = k ? e->y : e->x;
                bool untyped = !(o->kind == PCL_TRAVERSAL && emit_walk_in_scope(&g->w, o->trav.root)) &&
                               emit_untyped_value(g->w.p, g->w.nodes, o);
                buf_puts(g->w.b, k ? ", " : "");
                buf_puts(g->w.b, untyped ? "float(" : "");
                py_expr(g, o);
                buf_puts(g->w.b, untyped ? ")" : "");
            }
            buf_puts(g->w.b, ints ? "))" : ")");
            return;
        }
        emit_walk_binary(&g->w, e, py_binop(e->op), "float(", NULL);
        return;
    }
    case PCL_COND: emit_walk_conditional(&g->w, e, true, " if ", " else "); return;
    case PCL_INDEX: emit_walk_index(&g->w, e); return;
    case PCL_GETATTR: {
        const schema_type_t *t = emit_read_type(g->w.p, g->w.nodes, e->x);
        if (t && t->kind == SCHEMA_MAP) { /* a map's key: a dict's item (py_trav_parts) */
            emit_walk_operand(&g->w, e, e->x, false);
            buf_putc(g->w.b, '[');
            names_append_quoted(g->w.b, LANG_PYTHON, e->s);
            buf_putc(g->w.b, ']');
        } else {
            emit_walk_getattr(&g->w, e, true);
        }
        return;
    }
    case PCL_SPLAT: {
        /* PCL's splat of a value that is not a list is a list of that value: `m[*]` is [m], where
         * the comprehension would go over a dict's keys or a string's characters */
        emit_shape_t sh = emit_expr_shape(g->w.p, g->w.nodes, e->x);
        if (sh != EMIT_SHAPE_LIST && sh != EMIT_SHAPE_UNKNOWN)
            diag_add(g->w.diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                     "%d:%d: a splat ([*]) of a value that is not a list (PCL makes it a one-item list); the "
                     "Python emitter cannot write it yet",
                     e->line, e->col);
        buf_puts(g->w.b, "[__item");
        py_trav_parts(g, e, 0, py_plain_expr(g, e->x)); /* an item of plain data is a dict */
        buf_puts(g->w.b, " for __item in ");
        py_operand(g, e, e->x, false);
        buf_putc(g->w.b, ']');
        return;
    }
    case PCL_FOR: py_for(g, e); return;
    default: py_expr(g, e); return;
    }
}

/* An expression computed from outputs, as Pulumi writes it: `a.apply(lambda x: ...)` for one
 * output, `pulumi.Output.all(x=a, y=b).apply(lambda resolved_outputs: ...)` for several. */
/* Whether body writes `name` as a variable: a program value whose Python name it is (a config
 * `resolvedOutputs` is resolved_outputs), a for expression's variable. */
typedef struct py_name_use {
    py_gen_t *g;
    const char *name;
    bool used;
} py_name_use_t;

static bool py_name_use_one(const pcl_expr_t *e, void *ctx) {
    py_name_use_t *u = ctx;
    if (e->kind == PCL_FOR) u->used |= strcmp(e->vvar, u->name) == 0 || (e->kvar && strcmp(e->kvar, u->name) == 0);
    if (e->kind == PCL_TRAVERSAL) {
        int idx = emit_walk_in_scope(&u->g->w, e->trav.root) ? -1 : names_table_get(u->g->w.nodes, e->trav.root);
        u->used |= strcmp(idx >= 0 ? u->g->w.ident[idx] : e->trav.root, u->name) == 0;
    }
    return true;
}

/* Opens the apply `ap` plans: `head.apply(lambda name: ` or `pulumi.Output.all(...).apply(lambda
 * resolved_outputs: ` (Pulumi's name; another where body uses it, which the parameter would hide). */
static void py_apply_open(py_gen_t *g, const emit_apply_t *ap, const pcl_expr_t *body) {
    if (ap->nu == 1) {
        if (!ap->head_is_output) buf_puts(g->w.b, "pulumi.Output.from_input(");
        py_expr(g, ap->heads[ap->uniq[0]]);
        buf_printf(g->w.b, "%s.apply(lambda %s: ", ap->head_is_output ? "" : ")", ap->names[ap->uniq[0]]);
    } else {
        buf_puts(g->w.b, "pulumi.Output.all(");
        for (size_t k = 0; k < ap->nu; k++) {
            buf_printf(g->w.b, "%s%s=", k ? ", " : "", ap->names[ap->uniq[k]]);
            py_expr(g, ap->heads[ap->uniq[k]]);
        }
        py_name_use_t u = {g, "resolved_outputs", false};
        pcl_expr_walk(body, py_name_use_one, &u);
        for (int k = 1; u.used; k++) {
            u.name = arena_sprintf(g->w.a, "resolved_outputs_%d", k);
            u.used = false;
            pcl_expr_walk(body, py_name_use_one, &u);
        }
        g->all_name = u.name;
        buf_printf(g->w.b, ").apply(lambda %s: ", u.name);
    }
    g->subst_all = ap->nu > 1;
}

/* Whether `code` calls `name` (a builtin): the word, not after a `.`, followed by `(`. A string
 * holding such text counts too, which only costs the parameter its builtin name. */
static bool py_text_calls(const char *code, const char *name) {
    size_t n = strlen(name);
    for (const char *s = strstr(code, name); s; s = strstr(s + 1, name)) {
        char before = s == code ? ' ' : s[-1];
        if (isalnum((unsigned char)before) || before == '_' || before == '.') continue;
        const char *after = s + n;
        while (*after == ' ')
            after++;
        if (*after == '(') return true;
    }
    return false;
}

/* One apply. Its parameter is named after the output it holds, as Pulumi's generator names it, also
 * where that is a builtin's name (`lambda float: float is None`); where the body written calls that
 * builtin, which the parameter would hide (`float(a)`: TypeError, read9b #4), it is written again
 * with the parameter named otherwise (float_1). Several outputs are keys of resolved_outputs, not
 * variables: their names hide nothing. */
static void py_apply(emit_walk_t *w, const pcl_expr_t *e) {
    py_gen_t *g = (py_gen_t *)w;
    emit_apply_t ap;
    emit_apply_plan_builtin_names(g->w.a, g->w.p, g->w.nodes, g->w.ident, LANG_PYTHON, e, g->w.scope, g->w.n_scope,
                                  &ap);
    const char *param = ap.nu == 1 ? ap.names[ap.uniq[0]] : NULL;
    bool builtin = false;
    for (const char *const *b = names_builtins(LANG_PYTHON); param && *b; b++)
        builtin |= strcmp(*b, param) == 0;
    if (builtin) {
        size_t start = g->w.b->len;
        diag_list_t *diags = g->w.diags, tried;
        diag_list_init(&tried);
        g->w.diags = &tried;
        py_apply_open(g, &ap, e);
        size_t body = g->w.b->len;
        emit_walk_apply_body(&g->w, &ap, e, py_computed);
        g->w.diags = diags;
        bool keep = tried.count == 0 && !py_text_calls(g->w.b->data + body, param);
        diag_list_free(&tried);
        if (keep) return;
        g->w.b->len = start; /* written again below, with what it says */
        g->w.b->data[start] = 0;
        emit_apply_plan(g->w.a, g->w.p, g->w.nodes, g->w.ident, LANG_PYTHON, e, g->w.scope, g->w.n_scope, &ap);
    }
    py_apply_open(g, &ap, e);
    emit_walk_apply_body(&g->w, &ap, e, py_computed);
}

static void py_expr(py_gen_t *g, const pcl_expr_t *e) {
    static const char *const conv[EMIT_CONV_UNSUPPORTED] = {
        [EMIT_CONV_STRING_TO_BOOL] = "%s == \"true\"",
        [EMIT_CONV_STRING_TO_INT] = "int(%s)",
        [EMIT_CONV_STRING_TO_NUMBER] = "float(%s)",
    };
    if (emit_walk_convert(&g->w, e, conv, "%s.apply(lambda x: %s)")) return;
    int s = emit_walk_subst(&g->w, e);
    if (s >= 0) {
        if (g->subst_all)
            buf_printf(g->w.b, "%s['%s']", g->all_name, g->w.subst_name[s]);
        else
            buf_puts(g->w.b, g->w.subst_name[s]);
        /* the value of a local of plain data (secret(config)) is a dict inside the apply too */
        if (e->kind == PCL_TRAVERSAL) py_trav_parts(g, e, g->w.subst_skip[s], py_plain_data(g, e->trav.root));
        return;
    }
    switch (e->kind) {
    case PCL_NULL: buf_puts(g->w.b, "None"); break;
    case PCL_BOOL: buf_puts(g->w.b, e->b ? "True" : "False"); break;
    case PCL_NUMBER: py_number(g, e); break;
    case PCL_STRING:
        if (!emit_walk_enum(&g->w, e)) py_string(g, e->s);
        break;
    case PCL_TUPLE: emit_walk_list(&g->w, e); break;
    case PCL_OBJECT: py_object(g, e); break;
    case PCL_TRAVERSAL:
        py_traversal(g, e);
        break;
    EMIT_CASE_LANGUAGE_EXPRS:
        if (g->w.in_apply || !emit_has_output(g->w.p, g->w.nodes, e) || py_lifted_attr(e))
            py_computed(&g->w, e);
        else
            py_apply(&g->w, e);
        break;
    case PCL_CALL: emit_walk_call_expr(&g->w, e); break;
    }
}

static const char *py_alias_key(const char *key) {
    return strcmp(key, "type") == 0 ? "type_" : key;
}

/* An alias object: `pulumi.Alias(name=..., type_=..., parent=...)`; `noParent = true` is
 * `parent=None` (no parent), which the SDK tells apart from the default (inherit). */
static const emit_alias_syntax_t PY_ALIAS = {
    .open = "pulumi.Alias(", .close = ")", .sep = "=", .no_parent = "parent=None", .key = py_alias_key};

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
                  {"pluginDownloadURL", "plugin_download_url"},
                  {"envVarMappings", "env_var_mappings"},
                  {"hooks", "hooks"}};

/* `,\n<indent>opts = pulumi.ResourceOptions(k=v,\n<indent+4>k=v)` (`, opts = ...` without inputs). */
static void py_options(py_gen_t *g, const pcl_node_t *n, int n_inputs) {
    if (n->n_options == 0) return;
    int base = n_inputs > 1 ? 4 : 0;
    if (n_inputs > 0) {
        buf_puts(g->w.b, ",\n");
        buf_indent(g->w.b, base);
    } else {
        buf_puts(g->w.b, ", ");
    }
    buf_puts(g->w.b, "opts = pulumi.ResourceOptions(");
    int saved = g->w.indent;
    g->w.indent = base + 4;
    bool first = true;
    for (size_t k = 0; k < sizeof PY_OPTIONS / sizeof PY_OPTIONS[0]; k++) {
        for (size_t i = 0; i < n->n_options; i++) {
            const pcl_attr_t *o = &n->options[i];
            if (strcmp(o->name, PY_OPTIONS[k].pcl) != 0) continue;
            if (!first) {
                buf_putc(g->w.b, ',');
                emit_walk_newline(&g->w);
            }
            first = false;
            buf_printf(g->w.b, "%s=", PY_OPTIONS[k].py);
            pcl_option_kind_t kind = pcl_option_kind(o->name);
            if ((kind == PCL_OPT_PATHS || kind == PCL_OPT_ALIASES) && o->value->kind == PCL_TUPLE) {
                emit_walk_option_list(&g->w, kind, o->value, &PY_ALIAS);
            } else if (strcmp(o->name, "hooks") == 0 && o->value->kind == PCL_OBJECT) {
                /* pulumi.ResourceHookBinding(after_create=[hook, ...], ...) */
                buf_puts(g->w.b, "pulumi.ResourceHookBinding(");
                for (size_t j = 0; j < o->value->object.n; j++) {
                    const pcl_expr_t *l = o->value->object.items[j].value;
                    buf_printf(g->w.b, "%s%s=[", j ? ", " : "", names_py_name(g->w.a, o->value->object.items[j].key));
                    for (size_t h = 0; h < l->tuple.n; h++) {
                        if (h) buf_puts(g->w.b, ", ");
                        py_expr(g, l->tuple.items[h]);
                    }
                    buf_putc(g->w.b, ']');
                }
                buf_putc(g->w.b, ')');
            } else if (kind == PCL_OPT_TIMEOUTS && o->value->kind == PCL_OBJECT) {
                buf_puts(g->w.b, "pulumi.CustomTimeouts(");
                for (size_t j = 0; j < o->value->object.n; j++) {
                    if (j) buf_puts(g->w.b, ", ");
                    buf_printf(g->w.b, "%s=", o->value->object.items[j].key);
                    py_expr(g, o->value->object.items[j].value);
                }
                buf_putc(g->w.b, ')');
            } else {
                py_expr(g, o->value);
            }
        }
    }
    g->w.indent = saved;
    buf_putc(g->w.b, ')');
    for (size_t i = 0; i < n->n_options; i++) {
        bool known = false;
        for (size_t k = 0; k < sizeof PY_OPTIONS / sizeof PY_OPTIONS[0]; k++)
            known |= strcmp(n->options[i].name, PY_OPTIONS[k].pcl) == 0;
        if (!known)
            diag_add(g->w.diags, DIAG_WARNING, DIAG_CODEGEN, NULL,
                     arena_sprintf(g->w.a, "resource '%s'", emit_node_logical_name(n)),
                     "the resource option '%s' has no Python equivalent and was left out", n->options[i].name);
    }
}

static void py_resource(emit_walk_t *w, size_t idx) {
    py_gen_t *g = (py_gen_t *)w;
    const pcl_node_t *n = &g->w.p->nodes[idx];
    const char *cls = emit_walk_resource_class(&g->w, n);
    if (!cls) return;
    /* a read block: `Class.get(name, id, state=...)`, as Pulumi writes it */
    buf_printf(g->w.b, "%s = %s%s(", g->w.ident[idx], cls, n->read ? ".get" : "");
    names_append_quoted(g->w.b, LANG_PYTHON, emit_node_logical_name(n));
    for (size_t i = 0; n->read && i < n->n_attrs; i++)
        if (strcmp(n->attrs[i].name, "id") == 0) {
            buf_puts(g->w.b, ", ");
            py_expr(g, n->attrs[i].value);
        }
    size_t n_state = n->n_attrs - (n->read ? 1 : 0);
    int saved = g->w.indent;
    if (n_state > 1) g->w.indent += 4;
    for (size_t i = 0; i < n->n_attrs; i++) {
        if (n->read && strcmp(n->attrs[i].name, "id") == 0) continue;
        if (n_state == 1)
            buf_puts(g->w.b, ", ");
        else {
            buf_putc(g->w.b, ',');
            emit_walk_newline(&g->w);
        }
        buf_printf(g->w.b, "%s=", py_param_name(g, n->attrs[i].name, n->attrs[i].prop));
        py_expr(g, n->attrs[i].value);
    }
    g->w.indent = saved;
    py_options(g, n, (int)n_state);
    buf_puts(g->w.b, ")\n");
}

/* After a component's name: its props dict (keys as written) and its options. */
static void py_component_args(emit_walk_t *w, const pcl_node_t *n) {
    py_gen_t *g = (py_gen_t *)w;
    if (n->n_attrs > 0) {
        buf_puts(g->w.b, ", {");
        for (size_t i = 0; i < n->n_attrs; i++) {
            if (i) buf_puts(g->w.b, ", ");
            names_append_quoted(g->w.b, LANG_PYTHON, n->attrs[i].name);
            buf_puts(g->w.b, ": ");
            py_expr(g, n->attrs[i].value);
        }
        buf_putc(g->w.b, '}');
    }
    py_options(g, n, 0);
}

/* `require[_secret][_int|_float|_bool|_object]` by the config node's type. */
static const char *py_config_getter(emit_walk_t *w, const pcl_node_t *n) {
    const char *t = n->token ? n->token : "string";
    const char *kind = "";
    if (strcmp(t, "int") == 0)
        kind = "_int";
    else if (strcmp(t, "number") == 0)
        kind = "_float";
    else if (strcmp(t, "bool") == 0)
        kind = "_bool";
    else if (strcmp(t, "string") != 0)
        kind = "_object";
    return arena_sprintf(w->a, "%s%s%s", n->n_attrs ? "get" : "require", n->config_secret ? "_secret" : "", kind);
}

/* Pulumi's form: `\nif x is None:\n    x = default\n`; a default read from an output makes the
 * value an Output either way (`x = pulumi.Output.from_input(x)`), as the emitters read it. */
static void py_config_default(emit_walk_t *w, size_t idx, const char *close) {
    py_gen_t *g = (py_gen_t *)w;
    const pcl_node_t *n = &w->p->nodes[idx];
    (void)close;
    buf_printf(w->b, "\nif %s is None:\n    %s = ", w->ident[idx], w->ident[idx]);
    if (n->config_secret) buf_puts(w->b, "pulumi.Output.secret(");
    w->indent += 4;
    py_expr(g, n->attrs[0].value);
    w->indent -= 4;
    if (n->config_secret) buf_putc(w->b, ')');
    buf_putc(w->b, '\n');
    if (emit_config_output_default(w->p, w->nodes, n))
        buf_printf(w->b, "%s = pulumi.Output.from_input(%s)\n", w->ident[idx], w->ident[idx]);
}

/* A hook as Pulumi's Python generator writes it: a function `_<name>(args)` running the command with
 * subprocess (no shell; an argument not known to be a string converted with str()), then
 * `name = pulumi.ResourceHook("name", _name[, opts=pulumi.ResourceHookOptions(...)])`; an error
 * hook's function returns whether the command succeeded (retry) instead of raising. */
static void py_hook(emit_walk_t *w, size_t idx) {
    py_gen_t *g = (py_gen_t *)w;
    const pcl_node_t *n = &w->p->nodes[idx];
    emit_hook_t h;
    if (!emit_hook_attrs(n, &h)) return;
    bool error = h.error;
    const pcl_attr_t *cmd = h.command, *dry = h.dry_run, *ignore = h.ignore_errors;
    const char *fn = names_table_unique(w->idents, arena_sprintf(w->a, "_%s", w->ident[idx]), "_", 1);
    buf_printf(w->b, "def %s(args):", fn);
    size_t saved_scope = w->n_scope;
    w->scope[w->n_scope++] = "args";
    w->indent += 4;
    emit_walk_newline(w);
    if (error) buf_puts(w->b, "result = ");
    buf_puts(w->b, "subprocess.run([");
    for (size_t i = 0; i < cmd->value->tuple.n; i++) {
        const pcl_expr_t *a = cmd->value->tuple.items[i];
        if (i) buf_puts(w->b, ", ");
        bool str = emit_expr_shape(w->p, w->nodes, a) == EMIT_SHAPE_STRING ||
                   (a->kind == PCL_TRAVERSAL && emit_walk_in_scope(w, a->trav.root) &&
                    strcmp(a->trav.root, "args") == 0); /* args.name, .type, .urn, .id */
        if (!str) buf_puts(w->b, "str(");
        py_expr(g, a);
        if (!str) buf_putc(w->b, ')');
    }
    buf_printf(w->b, "], check=%s)", error ? "False" : "True");
    if (error) {
        emit_walk_newline(w);
        buf_puts(w->b, "return result.returncode == 0");
    }
    w->indent -= 4;
    w->n_scope = saved_scope;
    buf_putc(w->b, '\n');
    buf_indent(w->b, w->indent);
    buf_printf(w->b, "%s = pulumi.%s(", w->ident[idx], error ? "ErrorHook" : "ResourceHook");
    names_append_quoted(w->b, LANG_PYTHON, emit_node_logical_name(n));
    buf_printf(w->b, ", %s", fn);
    if (dry || ignore) {
        buf_puts(w->b, ", opts=pulumi.ResourceHookOptions(");
        if (dry) {
            buf_puts(w->b, "on_dry_run=");
            py_expr(g, dry->value);
        }
        if (ignore) {
            buf_puts(w->b, dry ? ", ignore_errors=" : "ignore_errors=");
            py_expr(g, ignore->value);
        }
        buf_putc(w->b, ')');
    }
    buf_puts(w->b, ")\n");
}

/* `pulumi.export("name", value)`: a stack output is not a variable. */
static void py_output(emit_walk_t *w, size_t idx) {
    py_gen_t *g = (py_gen_t *)w;
    const pcl_node_t *n = &g->w.p->nodes[idx];
    buf_puts(g->w.b, "pulumi.export(");
    names_append_quoted(g->w.b, LANG_PYTHON, emit_node_logical_name(n));
    buf_puts(g->w.b, ", ");
    py_expr(g, n->attrs[0].value);
    buf_puts(g->w.b, ")\n");
}

char *emit_python(const pcl_program_t *p, diag_list_t *diags) {
    buf_t out;
    buf_init(&out);
    py_gen_t g = {0};
    emit_walk_init(&g.w, &PY_SYNTAX, p, diags, &out);
    py_collect_packages(&g);

    /* the modules and helpers the program's functions need keep their names */
    bool hooks; /* hooks run their commands with subprocess */
    names_table_t *fns = emit_walk_reserve_needs(&g.w, PY_MODULES, sizeof PY_MODULES / sizeof *PY_MODULES, PY_HELPERS,
                                                 sizeof PY_HELPERS / sizeof *PY_HELPERS, "subprocess", &hooks);
    if (names_table_get(fns, "length") >= 0) {
        names_table_reserve(g.w.idents, "unicodedata");
        names_table_reserve(g.w.idents, "grapheme_length");
    }
    bool number_config = false; /* one converted to a string prints through format_value() */
    for (size_t i = 0; i < p->n_nodes; i++)
        number_config |= py_number_config(&p->nodes[i]);
    if (names_table_get(fns, "toJSON") >= 0) names_table_reserve(g.w.idents, "to_json");
    if (number_config || emit_program_has_template_value(p) || names_table_get(fns, "toJSON") >= 0)
        names_table_reserve(g.w.idents, "format_value");
    emit_walk_name_config(&g.w, "_", 1);
    emit_walk_name_nodes(&g.w, "_", 1, false); /* an output is not a variable: pulumi.export("name", ...) */

    bool grapheme =
        names_table_get(fns, "length") >= 0 && emit_program_calls_with_shape(p, g.w.nodes, "length", EMIT_SHAPE_STRING);
    buf_puts(&out, "import pulumi\n");
    for (size_t i = 0; i < g.w.n_pkgs; i++)
        if (strcmp(g.w.pkgs[i].name, "pulumi") != 0) /* imported above */
            buf_printf(&out, "import %s as %s\n", g.w.pkgs[i].path, g.w.pkgs[i].alias);
    emit_walk_module_imports(&g.w, &out, fns, PY_MODULES, sizeof PY_MODULES / sizeof *PY_MODULES, "import %s\n");
    if (grapheme) buf_puts(&out, "import unicodedata\n");
    if (hooks) buf_puts(&out, "import subprocess\n");
    buf_putc(&out, '\n');
    emit_walk_helpers(&out, fns, PY_HELPERS, sizeof PY_HELPERS / sizeof *PY_HELPERS);
    if (grapheme) emit_helper_puts(&out, PY_GRAPHEME_LENGTH, LANG_PYTHON);

    buf_t body; /* the program, after the helpers it turns out to need */
    buf_init(&body);
    g.w.b = &body;
    emit_walk_nodes(&g.w);
    emit_walk_free(&g.w);
    if (g.format_value) buf_puts(&out, PY_FORMAT_VALUE);
    if (g.to_json) buf_puts(&out, PY_TO_JSON);
    buf_append(&out, body.data ? body.data : "", body.len);
    buf_free(&body);
    return buf_take(&out);
}

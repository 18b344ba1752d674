/* check.c — the walk every emitter shares before writing a line: the program's constructs checked
 * against what the target language's emitter can write, and the nodes put in dependency order.
 *
 * A construct an emitter cannot express is refused here with its position (file:line:col), so no
 * emitter ever drops an option, an input or a function call and still reports success. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "emitters/emit_internal.h"

#define L(x) (1u << (x))
#define ALL_LANGS                                                                                                      \
    (L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON) | L(LANG_GO) | L(LANG_CSHARP) | L(LANG_JAVA) | L(LANG_YAML))

/* Pulumi YAML's resource options and functions run no program code, which a hook is. */
#define YAML_NO_HOOKS                                                                                                  \
    "Pulumi YAML has no resource hooks (a hook runs program code, and a YAML program has none), so it cannot be "      \
    "written in YAML"

/* Pulumi's documentation of the hooks option: hooks are TypeScript, Python, Go and C# only. */
#define JAVA_NO_HOOKS                                                                                                  \
    "Pulumi Java has no resource hooks (Pulumi supports them in TypeScript, Python, Go and C# only), so it cannot "    \
    "be written in Java"

/* What pulumi-java's SDK lacks (its Deployment, sdk/java/pulumi/src/main/java/com/pulumi/deployment/
 * Deployment.java: getStackName, getProjectName, invoke, ...; its ResourceOptions.Builder): the Java
 * emitter would write a method that does not exist (javac: cannot find symbol). */
#define JAVA_NO_ROOT_DIRECTORY                                                                                         \
    "pulumi-java's Deployment has no getRootDirectory, so rootDirectory() cannot be written in Java"
#define JAVA_NO_DELETED_WITH                                                                                           \
    "the resource option 'deletedWith' is not among pulumi-java's resource options (its ResourceOptions.Builder has "  \
    "no deletedWith), so it cannot be written in Java"

/* Pulumi YAML's type checker refuses a string where a number or boolean is wanted, and it has no
 * function converting one (pulumi-yaml #1073). */
#define YAML_NO_STRING_CONVERSION                                                                                      \
    "Pulumi YAML has no conversion from a string to a number or boolean (its type checker refuses the string), so "    \
    "it cannot be written in YAML"

/* Languages whose emitter writes the option. */
static unsigned option_langs(const char *name) {
    static const struct {
        const char *name;
        unsigned langs;
    } partial[] = {
        {"hideDiffs", ALL_LANGS},
        {"aliases", ALL_LANGS},
        {"customTimeouts", ALL_LANGS},
        {"providers", ALL_LANGS},
        {"replacementTrigger", ALL_LANGS},
        {"deletedWith", ALL_LANGS & ~L(LANG_JAVA)}, /* JAVA_NO_DELETED_WITH */
        {"range", L(LANG_PCL)},
        {"hooks", L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON) | L(LANG_GO) | L(LANG_CSHARP)},
        {"envVarMappings",
         L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON) | L(LANG_CSHARP) | L(LANG_GO) | L(LANG_YAML)},
    };
    for (size_t i = 0; i < sizeof partial / sizeof *partial; i++)
        if (strcmp(partial[i].name, name) == 0) return partial[i].langs;
    return pcl_option_kind(name) == PCL_OPT_UNKNOWN ? L(LANG_PCL) : ALL_LANGS;
}

typedef struct check {
    const pcl_program_t *p;
    lang_t lang;
    diag_list_t *diags;
    names_table_t *nodes;
    arena_t *a;
    bool ok;
} check_t;

/* How a refusal names a node's kind: "resource 'a'", "local 'x'". */
static const char *node_kind_word(const pcl_node_t *n) {
    switch (n->kind) {
    case PCL_NODE_COMPONENT: return "component";
    case PCL_NODE_CONFIG: return "config";
    case PCL_NODE_OUTPUT: return "output";
    case PCL_NODE_LOCAL: return "local";
    case PCL_NODE_HOOK: return "hook";
    default: return "resource";
    }
}

static void refuse(check_t *c, const pcl_node_t *n, int line, int col, const char *what) {
    c->ok = false;
    const char *file = c->p->filename ? c->p->filename : "<program>";
    if (!line) line = n ? n->line : 0, col = n ? n->col : 0;
    if (n && n->kind == PCL_NODE_PULUMI) n = NULL, what = arena_sprintf(c->a, "the pulumi block: %s", what);
    const char *who = n ? arena_sprintf(c->a, "%s '%s'", node_kind_word(n), n->name) : "program";
    if (line)
        diag_add(c->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL, "%s:%d:%d: %s: %s", file, line, col, who, what);
    else
        diag_add(c->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL, "%s: %s", who, what);
}

/* The functions each language's emitter writes: the secret and asset functions everywhere, the
 * rest of PCL's built-in functions in TypeScript and Python (over outputs through an apply), and
 * in Go those whose arguments go_infer_call types. */
static unsigned function_langs(const char *name) {
    const unsigned ts_py = L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON);
    const unsigned ts_py_yaml = ts_py | L(LANG_YAML);       /* YAML: ${pulumi.stack}, fn::toBase64, ... */
    const unsigned go = L(LANG_GO);                         /* Go: go_infer_call types the arguments */
    const unsigned cs_java = L(LANG_CSHARP) | L(LANG_JAVA); /* emit_typed_call_t tables, plain values */
    const struct {
        const char *name;
        unsigned langs;
    } fns[] = {
        {"secret", ALL_LANGS},
        {"fileAsset", ALL_LANGS},
        {"stringAsset", ALL_LANGS},
        {"remoteAsset", ALL_LANGS},
        {"fileArchive", ALL_LANGS},
        {"remoteArchive", ALL_LANGS},
        {"assetArchive", ALL_LANGS},
        {"unsecret", ts_py_yaml | go | cs_java},
        {"stack", ts_py_yaml | go | cs_java},
        {"project", ts_py_yaml | go | cs_java},
        {"organization", ts_py_yaml | go | cs_java},
        {"cwd", ts_py_yaml | go | cs_java},
        {"rootDirectory", ts_py_yaml | go | L(LANG_CSHARP)}, /* Java: JAVA_NO_ROOT_DIRECTORY */
        {"toBase64", ts_py_yaml | go | cs_java},
        {"fromBase64", ts_py_yaml | go | cs_java},
        {"sha1", ts_py_yaml | go | L(LANG_CSHARP) | L(LANG_JAVA)},
        {"readFile", ts_py_yaml | go | cs_java},
        {"filebase64", ts_py_yaml | go | cs_java},
        {"filebase64sha256", ts_py_yaml | go | L(LANG_CSHARP) | L(LANG_JAVA)},
        {"toJSON", ts_py_yaml | go | cs_java},  /* Java: not over several outputs (java_json_lacks) */
        {"element", ts_py_yaml | go | cs_java}, /* YAML: fn::select [index, list] */
        {"entries", ts_py | go | cs_java},      /* Go: a helper; C#, Java: a map's entries sorted by key */
        {"join", ts_py_yaml | go | cs_java},
        {"split", ts_py_yaml | go | cs_java},
        {"length", ts_py_yaml | go | cs_java},
        {"lookup", ts_py | go | cs_java},
        {"min", ts_py | go | cs_java}, /* C#, Java: of two numbers, or of a list expanded */
        {"max", ts_py | go | cs_java},
        {"singleOrNone", ts_py_yaml | go | cs_java},     /* Go: its element or nil, an interface{} */
        {"notImplemented", ts_py | go | L(LANG_CSHARP)}, /* C#: where an object is wanted (check_one) */
        {"pulumiResourceName", ts_py_yaml | go | cs_java},
        {"pulumiResourceType", ts_py_yaml | go | cs_java},
        {"getOutput",
         ts_py_yaml | go | cs_java}, /* a stack reference's output: ref.getOutput(name); YAML ${ref.outputs["name"]} */
        {"recover", ts_py},          /* pulumi.recover(output, ...), output.recover(...) */
        /* TypeScript's helpers catch a failure inside an Output (canOutput_, tryOutput_); Python's,
         * Go's, C#'s and Java's run inside an apply on the outputs' values */
        {"can", ts_py | go | cs_java},
        {"try", ts_py | go | cs_java},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (strcmp(fns[i].name, name) == 0) return fns[i].langs;
    return L(LANG_PCL);
}

#define RECOVER_TS_PY_ONLY                                                                                             \
    "pulumi/pulumi#23881 added recover() to PCL with code generation for TypeScript (pulumi.recover) and Python "      \
    "(Output.recover) only"

/* Why Pulumi's own program generator for `lang` does not write the function `fn` (its language host
 * skips the conformance test of it, naming the issue), or NULL. try() and can() evaluate an
 * expression and catch its failure, recover() an output's; Pulumi's Go, .NET and Java generators
 * have no form of either (cimport writes try() and can() in Go, C# and Java with its own helpers). */
static const char *pulumi_lacks(const char *fn, lang_t lang) {
    static const struct {
        const char *fn;
        lang_t lang;
        const char *why;
    } lacks[] = {
        /* recover(): Pulumi's generators write it for TypeScript and Python only */
        {"recover", LANG_GO, RECOVER_TS_PY_ONLY},
        {"recover", LANG_CSHARP, RECOVER_TS_PY_ONLY},
        {"recover", LANG_JAVA, RECOVER_TS_PY_ONLY},
    };
    for (size_t i = 0; i < sizeof lacks / sizeof *lacks; i++)
        if (lacks[i].lang == lang && strcmp(lacks[i].fn, fn) == 0) return lacks[i].why;
    return NULL;
}

static bool nested_object_type(const pcl_expr_t *e, void *ctx) {
    if (e->kind == PCL_OBJECT && e->type && e->type->kind == SCHEMA_OBJECT) *(bool *)ctx = true;
    return true;
}

/* Whether a call's argument object holds no value of a nested object type. */
static bool typed_args_plain(const pcl_expr_t *args) {
    if (args->kind != PCL_OBJECT) return false; /* positional (multi-argument inputs) */
    bool nested = false;
    for (size_t i = 0; i < args->object.n; i++)
        pcl_expr_walk(args->object.items[i].value, nested_object_type, &nested);
    return !nested;
}

/* C# and Java write an invoke's output form with keyword arguments, nested objects of the SDK's
 * input types among them (C#'s `Inputs.<T>InputArgs`, Java's `<T>Args.builder()`, as Pulumi's
 * generators write them), and no options. */
static bool typed_writes_invoke(const pcl_expr_t *e) {
    if (e->function->return_plain || e->call.n > 2) return false;
    return e->call.n < 2 || e->call.args[1]->kind == PCL_OBJECT;
}

/* Whether an invoke's options object has options of these kinds only: provider, parent, version,
 * pluginDownloadUrl, a list dependsOn (Go, C# and Java write them). */
static bool invoke_options_known(const pcl_expr_t *o) {
    static const char *const known[] = {"provider", "parent", "version", "pluginDownloadUrl", "dependsOn"};
    for (size_t i = 0; i < o->object.n; i++) {
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof *known && !ok; k++)
            ok = strcmp(o->object.items[i].key, known[k]) == 0;
        if (!ok || (strcmp(o->object.items[i].key, "dependsOn") == 0 && o->object.items[i].value->kind != PCL_TUPLE))
            return false;
    }
    return true;
}

/* C# and Java write an invoke of keyword arguments with such options. */
static bool typed_writes_invoke_options(const pcl_expr_t *e) {
    if (e->call.n != 3 || e->call.args[2]->kind != PCL_OBJECT) return false;
    pcl_expr_t head = *e; /* the call without its options */
    head.call.n = 2;
    return typed_writes_invoke(&head) && invoke_options_known(e->call.args[2]);
}

/* Go also writes an invoke's arguments of nested object types, its options (pulumi.Provider(p),
 * pulumi.DependsOn(...), ...) of these kinds, and multi-argument inputs given positionally (of no
 * nested object type). */
static bool go_writes_invoke(const pcl_expr_t *e) {
    const schema_function_t *f = e->function;
    if (f->return_plain) return false;
    if (f->multi_argument && e->call.n >= 2 && e->call.args[1]->kind != PCL_OBJECT) { /* positional */
        bool nested = f->return_plain || e->call.n - 1 > f->n_multi_args;
        for (size_t i = 1; i < e->call.n; i++)
            pcl_expr_walk(e->call.args[i], nested_object_type, &nested);
        return !nested;
    }
    if (e->call.n >= 2 && e->call.args[1]->kind != PCL_OBJECT) return false;
    if (e->call.n < 3) return true; /* nested objects too: &mod.TArgs{...}, as in resources */
    return e->call.args[2]->kind == PCL_OBJECT && invoke_options_known(e->call.args[2]);
}

/* C# and Java write a function of multi-argument inputs given positionally (`Fn.Invoke("a", "b")`,
 * `fn("a", null)`, as Pulumi's .NET and Java generators do), none of a nested object type, no more
 * than it takes, no options. */
static bool typed_writes_multi_invoke(const pcl_expr_t *e) {
    const schema_function_t *f = e->function;
    if (!f->multi_argument || f->return_plain || e->call.n < 2 || e->call.args[1]->kind == PCL_OBJECT ||
        e->call.n - 1 > f->n_multi_args)
        return false;
    bool nested = false;
    for (size_t i = 1; i < e->call.n; i++)
        pcl_expr_walk(e->call.args[i], nested_object_type, &nested);
    return !nested;
}

/* The languages whose emitter writes an invoke or method call (TypeScript awaits a plain result in
 * an async main, which cimport does not write). */
static unsigned fn_call_langs(const pcl_expr_t *e) {
    unsigned langs = L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON);
    if (emit_is_invoke(e)) langs |= L(LANG_YAML); /* fn::invoke */
    if (emit_is_invoke(e) && typed_writes_invoke(e)) langs |= L(LANG_CSHARP) | L(LANG_GO) | L(LANG_JAVA);
    if (emit_is_invoke(e) && go_writes_invoke(e)) langs |= L(LANG_GO);
    if (emit_is_invoke(e) && typed_writes_invoke_options(e)) langs |= L(LANG_CSHARP) | L(LANG_JAVA);
    if (emit_is_invoke(e) && typed_writes_multi_invoke(e)) langs |= L(LANG_CSHARP) | L(LANG_JAVA);
    /* Go: a method's call before the statement, an Output result read in an apply, a plain one as it
     * is (go_method_call) */
    if (emit_is_method_call(e) && e->call.n == 3 && typed_args_plain(e->call.args[2])) langs |= L(LANG_GO);
    /* C#: `res.Method(new() {...})`, an Output of the result's properties (a plain or lifted single
     * value it does not write) */
    if (emit_is_method_call(e) && e->call.n == 3 && typed_args_plain(e->call.args[2]) && !e->function->return_plain &&
        !e->function->scalar_return)
        langs |= L(LANG_CSHARP);
    /* TypeScript awaits a method's plain result in an async main; an invoke's it does not write */
    if (e->function->return_plain && !emit_is_method_call(e)) langs &= ~L(LANG_TYPESCRIPT);
    return langs;
}

/* Attributes and literal indexes read from an invoke's result: C# and Java read them in an apply;
 * from a method's result, C#. */
static unsigned invoke_read_langs(const pcl_expr_t *e) {
    const pcl_expr_t *fc = emit_fn_call_under(e);
    if (fc && emit_is_method_call(fc)) return L(LANG_CSHARP);
    return fc && emit_is_invoke(fc) ? L(LANG_CSHARP) | L(LANG_JAVA) : 0;
}

/* C# and Java write an operator or conditional over outputs in one apply of one Output (however
 * often read), over literals, references and operators (emitters/walk.c typed_apply). */
typedef struct typed_apply_scan {
    const check_t *c;
    bool ok, java;    /* java: also readable as Java writes it */
    bool literals;    /* object and list literals too (Java's toJSON) */
    const char *head; /* the one Output, printed */
} typed_apply_scan_t;

/* Java: whether every attribute read below a value of type t (from part `from` of e) is a property
 * of its object type (`required`: a required one, so that the read gives the value itself, not an
 * Optional) and each index one of a list or map. */
static bool java_reads_known(const schema_type_t *t, const pcl_expr_t *e, size_t from, bool required) {
    for (size_t k = from; t && k < e->trav.n; k++) {
        const pcl_trav_part_t *pt = &e->trav.parts[k];
        if (pt->attr) {
            const schema_property_t *p = t->kind == SCHEMA_OBJECT && t->object
                                             ? schema_find_property(t->object->props, t->object->n_props, pt->attr)
                                             : NULL;
            if (!p || (required && !p->required)) return false;
            t = p->type;
        } else {
            if (t->kind != SCHEMA_ARRAY && t->kind != SCHEMA_MAP) return false;
            t = t->element;
        }
    }
    return t != NULL;
}

/* What `x == null` or `x != null` (null on either side) compares with null; NULL for another
 * expression. */
static const pcl_expr_t *null_compared(const pcl_expr_t *e) {
    if (e->kind != PCL_BINARY || (strcmp(e->op, "==") != 0 && strcmp(e->op, "!=") != 0)) return NULL;
    if ((e->x->kind == PCL_NULL) == (e->y->kind == PCL_NULL)) return NULL;
    return e->x->kind == PCL_NULL ? e->y : e->x;
}

/* Whether e compares an output (one atom) with null: `x == null`, `x != null`. */
static bool null_test(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    const pcl_expr_t *v = null_compared(e);
    return v && emit_is_output_atom(p, nodes, v);
}

/* An output atom of the expression (null_tested: the operand of `== null` or `!= null`). */
static void typed_apply_atom(typed_apply_scan_t *t, const pcl_expr_t *e, bool null_tested) {
    const check_t *c = t->c;
    size_t skip = 0;
    const pcl_expr_t *h = emit_atom_head(c->a, c->p, c->nodes, e, &skip);
    char *text = pcl_print_expr(h);
    if (!text) {
        t->ok = false;
        return;
    }
    if (t->head && strcmp(t->head, text) != 0) t->ok = false;
    if (!t->head) t->head = arena_strdup(c->a, text);
    free(text);
    /* Java: a getter of an optional output (or below one) gives an Optional, not the value or
     * null: a config value, a secret() or a required output read as a whole, what is read below a
     * required one by required getters, or an optional output read as a whole and compared with
     * null (java_traversal unwraps it to its value or null) */
    int idx = h->kind == PCL_TRAVERSAL ? names_table_get(c->nodes, h->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    bool whole = e->kind != PCL_TRAVERSAL || skip == e->trav.n;
    bool required = false, below_required = false, known = false;
    if (n && n->kind == PCL_NODE_RESOURCE && n->schema && h->trav.n == 1 && h->trav.parts[0].attr) {
        const schema_property_t *prop =
            schema_find_property(n->schema->outputs, n->schema->n_outputs, h->trav.parts[0].attr);
        known = prop != NULL;
        required = prop && prop->required;
        below_required = required && !whole && java_reads_known(prop->type, e, skip, true);
        /* compared with null, what is read below a required output may be optional: unwrapped
         * (java_read_below), every getter known */
        below_required |= required && !whole && null_tested && java_reads_known(prop->type, e, skip, false);
    }
    t->java &= (whole || below_required) && ((n && n->kind == PCL_NODE_CONFIG) || h->kind == PCL_CALL || required ||
                                             (whole && known && null_tested));
    /* below an output the resource may leave unset, the value is null (C#: no `?.` written yet) */
    if (!whole && n && n->kind == PCL_NODE_RESOURCE && !required) t->ok = false;
}

static bool typed_apply_one(const pcl_expr_t *e, void *ctx) {
    typed_apply_scan_t *t = ctx;
    const check_t *c = t->c;
    if (emit_is_output_atom(c->p, c->nodes, e)) {
        typed_apply_atom(t, e, false);
        return false;
    }
    if (null_test(c->p, c->nodes, e)) {
        typed_apply_atom(t, e->x->kind == PCL_NULL ? e->y : e->x, true);
        return false;
    }
    switch (e->kind) {
    case PCL_NULL:
    case PCL_BOOL:
    case PCL_NUMBER:
    case PCL_STRING:
    case PCL_TRAVERSAL:
    case PCL_UNARY:
    case PCL_BINARY:
    case PCL_COND: return true;
    case PCL_OBJECT:
    case PCL_TUPLE: return t->ok = t->literals;
    default: return t->ok = false;
    }
}

static unsigned typed_apply_langs(const check_t *c, const pcl_expr_t *e) {
    typed_apply_scan_t t = {.c = c, .ok = true, .java = true};
    pcl_expr_walk(e, typed_apply_one, &t);
    if (!t.ok || !t.head) return 0;
    return L(LANG_CSHARP) | (t.java ? L(LANG_JAVA) : 0);
}

bool emit_string_equality(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    if (e->kind != PCL_BINARY || emit_binop_prec(e->op) != 3) return false;
    bool string = false;
    for (int k = 0; k < 2; k++) {
        const pcl_expr_t *o = k ? e->y : e->x;
        emit_shape_t sh = o->kind == PCL_NULL ? EMIT_SHAPE_UNKNOWN : emit_expr_shape(p, nodes, o);
        if (sh == EMIT_SHAPE_NUMBER || sh == EMIT_SHAPE_BOOL || o->kind == PCL_NULL) return false;
        string |= sh == EMIT_SHAPE_STRING;
    }
    return string;
}

static bool object_literal(const pcl_expr_t *e, void *ctx) {
    if (e->kind == PCL_OBJECT) *(bool *)ctx = true;
    return true;
}

bool emit_resource_ref(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    int r = e->kind == PCL_TRAVERSAL && e->trav.n == 0 ? names_table_get(nodes, e->trav.root) : -1;
    return r >= 0 && (p->nodes[r].kind == PCL_NODE_RESOURCE || p->nodes[r].kind == PCL_NODE_COMPONENT);
}

/* Java: whether a builder writes e, at type t, with java.c's java_output_all: a list or map of a type (not any: a
 * List<Object> / Map<String, Object> holds an Output) with an output among its items. */
bool java_needs_output_all(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e,
                           const schema_type_t *t) {
    if (!t || !t->element || t->element->kind == SCHEMA_ANY) return false;
    if (!((e->kind == PCL_TUPLE && t->kind == SCHEMA_ARRAY) || (e->kind == PCL_OBJECT && t->kind == SCHEMA_MAP)))
        return false;
    size_t n = e->kind == PCL_TUPLE ? e->tuple.n : e->object.n;
    for (size_t i = 0; i < n; i++) {
        const pcl_expr_t *item = e->kind == PCL_TUPLE ? e->tuple.items[i] : e->object.items[i].value;
        if (emit_resource_ref(p, nodes, item)) continue; /* a resource itself: its class, not an Output */
        if (emit_has_output(p, nodes, item)) return true;
    }
    return false;
}

/* An entries() element, as C# and Java build it: a map of its key and value (Dictionary<string, object?>,
 * Java's Map.of), whose value is an object: read whole only (an item of a list or an object, the body's
 * value). Whether a part of a for expression over entries() reads its value into an operator, a
 * conditional, a template or a call, or into the value (e.value.x): code that does not compile
 * (object + int, CS0019; javac's bad operand types). */
typedef struct entry_use {
    const char *var;
    bool found;
} entry_use_t;

static bool reads_entry_value(const pcl_expr_t *o, const char *var) {
    if (!o || o->kind != PCL_TRAVERSAL || strcmp(o->trav.root, var) != 0 || o->trav.n == 0) return false;
    const pcl_trav_part_t *p = &o->trav.parts[0];
    const char *k = p->attr ? p->attr : p->index_is_string ? p->index_str : NULL;
    return k && strcmp(k, "value") == 0;
}

static bool entry_value_used(const pcl_expr_t *e, void *ctx) {
    entry_use_t *u = ctx;
    const pcl_expr_t *ops[3] = {NULL, NULL, NULL};
    pcl_expr_t *const *items = NULL;
    size_t n = 0;
    switch (e->kind) {
    case PCL_TRAVERSAL: u->found |= reads_entry_value(e, u->var) && e->trav.n > 1; return !u->found;
    case PCL_BINARY:
    case PCL_UNARY:
    case PCL_COND: ops[0] = e->x, ops[1] = e->y, ops[2] = e->z; break;
    case PCL_TEMPLATE: items = e->tuple.items, n = e->tuple.n; break;
    case PCL_CALL: items = e->call.args, n = e->call.n; break;
    default: return true;
    }
    for (size_t i = 0; i < 3 + n; i++)
        u->found |= reads_entry_value(i < 3 ? ops[i] : items[i - 3], u->var);
    return !u->found;
}

static bool entry_value_in_operator(const pcl_expr_t *e) {
    if (!e->vvar || e->x->kind != PCL_CALL || strcmp(e->x->call.name, "entries") != 0) return false;
    entry_use_t u = {.var = e->vvar};
    const pcl_expr_t *parts[] = {e->y, e->z, e->w};
    for (int i = 0; i < 3 && !u.found; i++)
        if (parts[i]) pcl_expr_walk(parts[i], entry_value_used, &u);
    return u.found;
}

/* C# writes a for expression over a plain list or map (LINQ), none of its parts reading an output
 * nor building an object,
 * its variables named unlike the program's nodes (a lambda's parameter may not shadow a local); a
 * list's index with no condition and into a list only (Select's index is the position after Where). */
static bool typed_for_ok(const check_t *c, const pcl_expr_t *e) {
    emit_shape_t sh = emit_expr_shape(c->p, c->nodes, e->x);
    if (sh != EMIT_SHAPE_LIST && sh != EMIT_SHAPE_MAP) return false;
    if (entry_value_in_operator(e)) return false;
    if (sh == EMIT_SHAPE_LIST && e->kvar && (e->w || e->for_object)) return false;
    const char *vars[] = {e->kvar, e->vvar};
    for (int i = 0; i < 2; i++)
        if (vars[i] && names_table_get(c->nodes, vars[i]) >= 0) return false;
    const pcl_expr_t *parts[] = {e->x, e->y, e->z, e->w};
    bool object = false; /* an object built in the lambda would be a dictionary, not the input type */
    for (int i = 0; i < 4; i++) {
        if (parts[i] && emit_has_output(c->p, c->nodes, parts[i])) return false;
        if (parts[i] && i > 0) pcl_expr_walk(parts[i], object_literal, &object);
    }
    return !object;
}

/* Java: as C#, a list's index over a list the program names (its elements read by get(i)). */
/* Java: whether e reads a config value (itself or through a local holding it) into a list or map
 * whose items are lists or maps holding ints: Gson decodes those as Doubles (walk.c
 * emit_config_raw_int), which a for expression's variable would read as Integers. */
static bool java_for_raw_items(const check_t *c, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL ? names_table_get(c->nodes, e->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    if (n && n->kind == PCL_NODE_LOCAL && !emit_local_held(c->p, c->nodes, n, &n)) return false;
    if (!n || n->kind != PCL_NODE_CONFIG) return false;
    const emit_cfg_type_t *t = emit_config_type(c->a, n->token);
    size_t k = 0;
    for (; k < e->trav.n && (t->kind == EMIT_CFG_LIST || t->kind == EMIT_CFG_MAP); k++)
        t = t->elem;
    if (k < e->trav.n || (t->kind != EMIT_CFG_LIST && t->kind != EMIT_CFG_MAP)) return false;
    t = t->elem;
    if (t->kind != EMIT_CFG_LIST && t->kind != EMIT_CFG_MAP) return false;
    while (t->kind == EMIT_CFG_LIST || t->kind == EMIT_CFG_MAP)
        t = t->elem;
    return t->kind == EMIT_CFG_INT;
}

static bool java_for_ok(const check_t *c, const pcl_expr_t *e) {
    bool list_index = e->kvar && emit_expr_shape(c->p, c->nodes, e->x) == EMIT_SHAPE_LIST;
    return typed_for_ok(c, e) && (!list_index || e->x->kind == PCL_TRAVERSAL);
}

/* Java: a config value, read whole, compared with null: a reference in Java (a String, a List, a
 * Map, an Object, or an optional value's boxed orElse(null)), so `x == null` is Java's own test. A
 * required int, number or bool is a primitive (Config.requireInteger gives an int, requireBoolean a
 * boolean), which null does not compare with; a secret's or an output default's is an Output
 * (null_test, in an apply). */
static bool java_config_null_test(const check_t *c, const pcl_expr_t *e) {
    const pcl_expr_t *v = null_compared(e);
    int idx = v && v->kind == PCL_TRAVERSAL && v->trav.n == 0 ? names_table_get(c->nodes, v->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_CONFIG || emit_has_output(c->p, c->nodes, v)) return false;
    emit_cfg_kind_t k = emit_config_type(c->a, n->token)->kind;
    return n->n_attrs > 0 || (k != EMIT_CFG_INT && k != EMIT_CFG_NUMBER && k != EMIT_CFG_BOOL);
}

static const schema_property_t *output_bool_item(const pcl_program_t *p, const names_table_t *nodes,
                                                 const pcl_expr_t *e, bool *item);

/* Whether e reads a resource's required output whole (`res.flag`), or a bool out of a list or map it
 * is (`res.flags["a"]`): an Output<T>, not of a T?. */
static bool cs_required_output(const check_t *c, const pcl_expr_t *e) {
    bool item = false;
    const schema_property_t *held = output_bool_item(c->p, c->nodes, e, &item);
    if (held && item) return held->required;
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n == 1 && e->trav.parts[0].attr
                  ? names_table_get(c->nodes, e->trav.root)
                  : -1;
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_RESOURCE || !n->schema) return false;
    const schema_property_t *p = schema_find_property(n->schema->outputs, n->schema->n_outputs, e->trav.parts[0].attr);
    return p && p->required;
}

/* The languages whose emitter writes this expression (by kind, and for some languages by whether it
 * reads outputs and what its operands are). */
static unsigned expr_langs(const check_t *c, const pcl_expr_t *e) {
    /* write applies (Go types each expression itself and refuses, with its position, what it cannot) */
    const unsigned apply = L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON) | L(LANG_GO);
    switch (e->kind) {
    case PCL_TEMPLATE: { /* YAML interpolates references; other parts are joined (fn::join), strings only */
        bool yaml = true, cs = true;
        for (size_t i = 0; i < e->tuple.n; i++) {
            const pcl_expr_t *part = e->tuple.items[i];
            /* C# formats a bool True / False: it is written as PCL prints it, an output's in an Apply of an
             * Output<bool> (a required output read whole, an operator over outputs), not of a bool? */
            cs &= !emit_reads_bool(c->p, c->nodes, part) || !emit_has_output(c->p, c->nodes, part) ||
                  part->kind == PCL_BINARY || part->kind == PCL_UNARY || cs_required_output(c, part);
            yaml &= part->kind == PCL_STRING || part->kind == PCL_TRAVERSAL || emit_yaml_interpolates(part) ||
                    emit_yaml_part_as_json(c->p, c->nodes, e, part) || emit_yaml_read_base(c->p, c->nodes, part) ||
                    emit_expr_shape(c->p, c->nodes, part) == EMIT_SHAPE_STRING ||
                    (part->type && part->type->kind == SCHEMA_STRING);
        }
        return apply | (cs ? L(LANG_CSHARP) : 0) | L(LANG_JAVA) | (yaml ? L(LANG_YAML) : 0);
    }
    case PCL_UNARY:
    case PCL_BINARY:
    case PCL_COND: {
        unsigned langs = apply | L(LANG_CSHARP) | L(LANG_JAVA);
        if (emit_has_output(c->p, c->nodes, e)) langs = apply | typed_apply_langs(c, e);
        /* Java compares numbers and booleans with ==, strings with Objects.equals (emit_string_equality),
         * an output's value (an object in the apply) with null by ==; anything else it cannot tell is
         * either */
        bool java = true;
        if (e->kind == PCL_BINARY && emit_binop_prec(e->op) == 3 && !emit_string_equality(c->p, c->nodes, e) &&
            !null_test(c->p, c->nodes, e) && !java_config_null_test(c, e))
            for (int k = 0; k < 2; k++) {
                emit_shape_t sh = emit_expr_shape(c->p, c->nodes, k ? e->y : e->x);
                java &= sh == EMIT_SHAPE_NUMBER || sh == EMIT_SHAPE_BOOL;
            }
        return java ? langs : langs & ~L(LANG_JAVA);
    }
    /* YAML: one attribute of an invoke's result is fn::invoke's `return`, a deeper read goes through a
     * variable holding the invoke */
    case PCL_GETATTR:
    case PCL_INDEX: {
        const pcl_expr_t *fc = emit_fn_call_under(e);
        return apply |
               ((fc && emit_is_invoke(fc)) || emit_yaml_read_base(c->p, c->nodes, e) ||
                        emit_yaml_selects(c->p, c->nodes, e)
                    ? L(LANG_YAML)
                    : 0) |
               invoke_read_langs(e);
    }
    case PCL_SPLAT: return apply | invoke_read_langs(e);
    case PCL_FOR: return apply | (typed_for_ok(c, e) ? L(LANG_CSHARP) : 0) | (java_for_ok(c, e) ? L(LANG_JAVA) : 0);
    default: return ALL_LANGS;
    }
}

/* A literal string (a value, a template's text, an object's key) within e that Go's json.Marshal
 * escapes otherwise than JSON.stringify: one holding < > & U+2028 or U+2029; or NULL. */
static bool json_escaped(const char *s) {
    return strpbrk(s, "<>&") || strstr(s, "\u2028") || strstr(s, "\u2029");
}

typedef struct json_literal {
    const char *found;
} json_literal_t;

static bool json_literal_one(const pcl_expr_t *e, void *ctx) {
    json_literal_t *j = ctx;
    if (e->kind == PCL_STRING && json_escaped(e->s)) j->found = e->s;
    for (size_t i = 0; e->kind == PCL_OBJECT && i < e->object.n; i++)
        if (json_escaped(e->object.items[i].key)) j->found = e->object.items[i].key;
    return !j->found;
}

static const char *yaml_json_escaped_literal(const pcl_expr_t *e) {
    json_literal_t j = {NULL};
    pcl_expr_walk(e, json_literal_one, &j);
    return j.found;
}

/* The string key of a read (`r.m["k\\"]`) that ends with a backslash, or NULL. */
static const char *yaml_backslash_key(const pcl_expr_t *e) {
    const char *k = NULL;
    if (e->kind == PCL_INDEX && e->y->kind == PCL_STRING) k = e->y->s;
    for (size_t i = 0; e->kind == PCL_TRAVERSAL && i < e->trav.n; i++)
        if (e->trav.parts[i].index_is_string && *e->trav.parts[i].index_str &&
            e->trav.parts[i].index_str[strlen(e->trav.parts[i].index_str) - 1] == '\\')
            return e->trav.parts[i].index_str;
    return k && *k && k[strlen(k) - 1] == '\\' ? k : NULL;
}

/* Languages whose emitter writes a node kind. */
/* Whether a resource is one of the `pulumi` package's built-in resources (StackReference, Stash). */
static bool builtin_resource(const pcl_node_t *n) {
    return n->kind == PCL_NODE_RESOURCE && n->package && strcmp(n->package->name, "pulumi") == 0;
}

bool emit_is_builtin(const pcl_node_t *n, const char *token) {
    return builtin_resource(n) && n->schema && strcmp(n->schema->token, token) == 0;
}

static unsigned node_langs(const pcl_node_t *n) {
    if (n->kind == PCL_NODE_HOOK)
        return L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON) | L(LANG_GO) | L(LANG_CSHARP);
    /* YAML: `pulumi: requiredPulumiVersion`, the resource types pulumi:Stash and
     * pulumi:pulumi:StackReference, and a read as a resource's `get: {id, state}`; C# and Java: the
     * SDK's Stash and StackReference classes, C#'s Deployment.RequirePulumiVersionAsync and Java's
     * Deployment.getInstance().requirePulumiVersion (pulumi-java #1979); a read by the class's
     * Get(name, id, state, options) — Java's get takes a state argument only when the resource has
     * state inputs, which a read with state attributes shows */
    if (n->read && !builtin_resource(n))
        return L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON) | L(LANG_YAML) | L(LANG_GO) | L(LANG_CSHARP) |
               (n->n_attrs > 1 ? L(LANG_JAVA) : 0);
    if (n->kind == PCL_NODE_PULUMI || builtin_resource(n) || n->read)
        return L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON) | L(LANG_YAML) | L(LANG_GO) |
               ((builtin_resource(n) || n->kind == PCL_NODE_PULUMI) && !n->read ? L(LANG_CSHARP) | L(LANG_JAVA) : 0);
    if (n->kind != PCL_NODE_LOCAL) return ALL_LANGS;
    unsigned langs = L(LANG_PCL) | L(LANG_TYPESCRIPT) | L(LANG_PYTHON) | L(LANG_YAML);
    /* `var x = null` has no type */
    if (n->attrs[0].value->kind != PCL_NULL) langs |= L(LANG_CSHARP) | L(LANG_JAVA) | L(LANG_GO);
    return langs;
}

void emit_unwritable(diag_list_t *diags, const pcl_expr_t *e, lang_t lang) {
    diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL, "%d:%d: the %s emitter cannot write %s%s%s", e->line, e->col,
             lang_title(lang), pcl_expr_kind_name(e), e->op ? " " : "", e->op ? e->op : "");
}

typedef struct expr_check {
    check_t *c;
    const pcl_node_t *n;
    const pcl_attr_t *at;
    const char **scope;                 /* for-expression variables in scope */
    const pcl_expr_t **scope_coll;      /* ... the collection each goes over (NULL: a hook's args) */
    bool *scope_is_key, *scope_entries; /* ... as its key or index; over entries() */
    size_t n_scope;
} expr_check_t;

static bool in_scope_any(const expr_check_t *x, const pcl_expr_t *e);

/* Whether e reads a config value of no type or of an object type (or what it holds), which Java reads
 * as Object.class: pulumi-java's Config decodes it with Gson's fromJson(text, Object.class), whose
 * values are a Map in the text's order, a List, a Double, a String, a Boolean or null, all of which the
 * toJson helper writes; not where its default is a list or object (Map.ofEntries: no order). */
static bool gson_config_value(const check_t *c, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL ? names_table_get(c->nodes, e->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_CONFIG || emit_config_type(c->a, n->token)->kind != EMIT_CFG_ANY) return false;
    const pcl_expr_t *d = n->n_attrs ? n->attrs[0].value : NULL;
    return !d || d->kind == PCL_NULL || d->kind == PCL_STRING || d->kind == PCL_NUMBER || d->kind == PCL_BOOL;
}

/* The first value in e (a literal list's or object's items, any other value itself) that Java holds as
 * a value of no type the toJson helper cannot be given (a resource's or an invoke's output of no type,
 * pulumi-java's Object or JsonElement; not a config value, gson_config_value), or NULL. */
static const pcl_expr_t *json_untyped(const check_t *c, const expr_check_t *x, const pcl_expr_t *e, int depth) {
    if (depth > 32) return NULL;
    size_t n = e->kind == PCL_TUPLE ? e->tuple.n : e->kind == PCL_OBJECT ? e->object.n : 0;
    for (size_t i = 0; i < n; i++) {
        const pcl_expr_t *v = e->kind == PCL_TUPLE ? e->tuple.items[i] : e->object.items[i].value;
        const pcl_expr_t *d = json_untyped(c, x, v, depth + 1);
        if (d) return d;
    }
    if (n || e->kind == PCL_TUPLE || e->kind == PCL_OBJECT || e->kind == PCL_NUMBER || in_scope_any(x, e) ||
        gson_config_value(c, e))
        return NULL;
    return emit_print_kind(c->p, c->nodes, e) == EMIT_PRINT_DYNAMIC ? e : NULL;
}

typedef struct var_compare {
    const char *var;
    const pcl_expr_t *found;
} var_compare_t;

static bool var_compare_one(const pcl_expr_t *e, void *ctx) {
    var_compare_t *v = ctx;
    if (v->found) return false;
    if (e->kind != PCL_BINARY || emit_binop_prec(e->op) != 3 || null_compared(e)) return true;
    for (int k = 0; k < 2; k++) {
        const pcl_expr_t *o = k ? e->y : e->x;
        if (o->kind == PCL_TRAVERSAL && !o->trav.n && strcmp(o->trav.root, v->var) == 0) v->found = e;
    }
    return !v->found;
}

/* The first `==` or `!=` in e (NULL: none) that compares the variable `var` itself (not with null). */
static const pcl_expr_t *compares_var(const pcl_expr_t *e, const char *var) {
    var_compare_t v = {var, NULL};
    if (e && var) pcl_expr_walk(e, var_compare_one, &v);
    return v.found;
}

static bool in_scope(const expr_check_t *x, const char *name) {
    for (size_t i = 0; i < x->n_scope; i++)
        if (strcmp(x->scope[i], name) == 0) return true;
    return false;
}

static bool check_one(const pcl_expr_t *e, void *ctx);

/* Whether a scalar config value (string, int, number, bool) is read at a position of another scalar
 * type (a string where a bool or number is wanted, ...). */
/* A scalar schema type in words ("a boolean"), an enum's by its element's; "another type" else. */
static const char *schema_kind_text(const schema_type_t *t) {
    if (t && t->kind == SCHEMA_ENUM) t = t->element;
    switch (t ? t->kind : SCHEMA_ANY) {
    case SCHEMA_STRING: return "a string";
    case SCHEMA_INT: return "an integer";
    case SCHEMA_NUMBER: return "a number";
    case SCHEMA_BOOL: return "a boolean";
    default: return "another type";
    }
}

static bool config_needs_conversion(const pcl_node_t *cfg, const schema_type_t *t) {
    if (t && t->kind == SCHEMA_ENUM) t = t->element;
    if (!t) return false;
    const char *tok = cfg->token ? cfg->token : "string";
    bool num = strcmp(tok, "int") == 0 || strcmp(tok, "number") == 0;
    switch (t->kind) {
    case SCHEMA_STRING: return num || strcmp(tok, "bool") == 0;
    case SCHEMA_INT:
    case SCHEMA_NUMBER: return !num && (strcmp(tok, "string") == 0 || strcmp(tok, "bool") == 0);
    case SCHEMA_BOOL: return strcmp(tok, "bool") != 0 && (num || strcmp(tok, "string") == 0);
    default: return false;
    }
}

emit_conversion_t emit_config_conversion(const pcl_node_t *cfg, const schema_type_t *t) {
    if (t && t->kind == SCHEMA_ENUM) t = t->element;
    if (!t || !config_needs_conversion(cfg, t)) {
        bool int_cfg = cfg->token && strcmp(cfg->token, "int") == 0;
        return t && t->kind == SCHEMA_NUMBER && int_cfg ? EMIT_CONV_INT_TO_NUMBER : EMIT_CONV_NONE;
    }
    const char *tok = cfg->token ? cfg->token : "string";
    bool from_string = strcmp(tok, "string") == 0, from_bool = strcmp(tok, "bool") == 0;
    switch (t->kind) {
    case SCHEMA_BOOL: return from_string ? EMIT_CONV_STRING_TO_BOOL : EMIT_CONV_UNSUPPORTED;
    case SCHEMA_INT: return from_string ? EMIT_CONV_STRING_TO_INT : EMIT_CONV_UNSUPPORTED;
    case SCHEMA_NUMBER: return from_string ? EMIT_CONV_STRING_TO_NUMBER : EMIT_CONV_UNSUPPORTED;
    case SCHEMA_STRING: return from_bool ? EMIT_CONV_BOOL_TO_STRING : EMIT_CONV_NUMBER_TO_STRING;
    default: return EMIT_CONV_UNSUPPORTED;
    }
}

/* Whether e is a for-expression variable (its shape is not the node of the same name's). */
emit_conversion_t emit_string_conversion(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    /* the wanted type first: every expression an emitter writes asks, and the shape is the costly part */
    emit_conversion_t k = !e->type                         ? EMIT_CONV_NONE
                          : e->type->kind == SCHEMA_BOOL   ? EMIT_CONV_STRING_TO_BOOL
                          : e->type->kind == SCHEMA_INT    ? EMIT_CONV_STRING_TO_INT
                          : e->type->kind == SCHEMA_NUMBER ? EMIT_CONV_STRING_TO_NUMBER
                                                           : EMIT_CONV_NONE;
    if (k == EMIT_CONV_NONE || e->kind == PCL_STRING) return EMIT_CONV_NONE;
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n == 0 ? names_table_get(nodes, e->trav.root) : -1;
    if (idx >= 0 && p->nodes[idx].kind == PCL_NODE_CONFIG) return EMIT_CONV_NONE; /* emit_config_conversion */
    return emit_expr_shape(p, nodes, e) == EMIT_SHAPE_STRING ? k : EMIT_CONV_NONE;
}

emit_conversion_t emit_typed_string_conversion(const pcl_program_t *p, const names_table_t *nodes,
                                               const pcl_expr_t *e) {
    if (emit_id_map_read(p, nodes, e)) return emit_string_conversion(p, nodes, e); /* an ID Output */
    if (e->kind != PCL_TRAVERSAL || e->trav.n != 1 || !e->trav.parts[0].attr) return EMIT_CONV_NONE;
    int idx = names_table_get(nodes, e->trav.root);
    const pcl_node_t *n = idx >= 0 ? &p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_RESOURCE || !n->schema) return EMIT_CONV_NONE;
    const char *attr = e->trav.parts[0].attr;
    if (strcmp(attr, "id") != 0) {
        const schema_property_t *prop = schema_find_property(n->schema->outputs, n->schema->n_outputs, attr);
        if (!prop || !prop->required || !prop->type || prop->type->kind != SCHEMA_STRING) return EMIT_CONV_NONE;
    }
    return emit_string_conversion(p, nodes, e);
}

bool emit_id_map_local(const pcl_program_t *p, const names_table_t *nodes, int idx) {
    return idx >= 0 && p->nodes[idx].kind == PCL_NODE_LOCAL && emit_id_map(p, nodes, p->nodes[idx].attrs[0].value);
}

bool emit_id_map_read(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    bool entry =
        e->kind == PCL_TRAVERSAL && e->trav.n == 1 && !e->trav.parts[0].attr && e->trav.parts[0].index_is_string;
    return entry && emit_id_map_local(p, nodes, names_table_get(nodes, e->trav.root));
}

bool emit_id_map(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *v) {
    if (v->kind != PCL_OBJECT || v->object.n == 0) return false;
    for (size_t i = 0; i < v->object.n; i++) {
        const pcl_expr_t *x = v->object.items[i].value;
        int r = x->kind == PCL_TRAVERSAL ? names_table_get(nodes, x->trav.root) : -1;
        if (r < 0 || p->nodes[r].kind != PCL_NODE_RESOURCE || x->trav.n != 1 || !x->trav.parts[0].attr ||
            strcmp(x->trav.parts[0].attr, "id") != 0)
            return false;
    }
    return true;
}

/* Whether e reads one entry by its key of a local map of resources' ids (`ids["a"]`), which Go
 * converts as Pulumi's Go does (go.c go_id_map_read: strconv over the ID Output). */
static bool reads_id_map(const check_t *c, const pcl_expr_t *e) {
    return emit_id_map_read(c->p, c->nodes, e);
}

static bool in_scope_any(const expr_check_t *x, const pcl_expr_t *e) {
    return e->kind == PCL_TRAVERSAL && in_scope(x, e->trav.root);
}

/* x with its scope copied, room for `more` variables (scope_add). */
static expr_check_t scope_with(const expr_check_t *x, size_t more) {
    expr_check_t in = *x;
    arena_t *a = x->c->a;
    size_t n = x->n_scope + more;
    in.scope = arena_alloc(a, n * sizeof *in.scope);
    in.scope_coll = arena_alloc(a, n * sizeof(const pcl_expr_t *));
    in.scope_is_key = arena_alloc(a, n * sizeof *in.scope_is_key);
    in.scope_entries = arena_alloc(a, n * sizeof *in.scope_entries);
    for (size_t i = 0; i < x->n_scope; i++) {
        in.scope[i] = x->scope[i];
        in.scope_coll[i] = x->scope_coll ? x->scope_coll[i] : NULL;
        in.scope_is_key[i] = x->scope_is_key && x->scope_is_key[i];
        in.scope_entries[i] = x->scope_entries && x->scope_entries[i];
    }
    return in;
}

/* Adds variable `name` going over `coll` (as its key or index; over entries()) to in's scope. */
static void scope_add(expr_check_t *in, const char *name, const pcl_expr_t *coll, bool key, bool entries) {
    in->scope[in->n_scope] = name;
    in->scope_coll[in->n_scope] = coll;
    in->scope_is_key[in->n_scope] = key;
    in->scope_entries[in->n_scope++] = entries;
}

/* What e prints as, a for expression's variables (and what reads them) by the items they go over. */
static emit_print_t scope_print_kind(const expr_check_t *x, const pcl_expr_t *e) {
    emit_scope_t s = {x->scope, x->scope_coll, x->scope_is_key, x->scope_entries, x->n_scope, NULL};
    return emit_scope_print_kind(x->c->p, x->c->nodes, &s, e);
}

/* Whether e reads a for expression's variable. */
static bool scope_reads(const expr_check_t *x, const pcl_expr_t *e) {
    emit_scope_t s = {x->scope, x->scope_coll, x->scope_is_key, x->scope_entries, x->n_scope, NULL};
    return emit_scope_reads(&s, e);
}
/* Whether e reads a config value itself. */
static bool reads_config(const check_t *c, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n == 0 ? names_table_get(c->nodes, e->trav.root) : -1;
    return idx >= 0 && c->p->nodes[idx].kind == PCL_NODE_CONFIG;
}

/* Whether node n is a config value of no type, or a local holding one through secret()/unsecret(). */
static bool node_untyped(const pcl_program_t *p, const names_table_t *nodes, const pcl_node_t *n) {
    for (int depth = 0; n && depth < 8; depth++) {
        if (n->kind == PCL_NODE_CONFIG) return n->token && strcmp(n->token, "any") == 0;
        if (n->kind != PCL_NODE_LOCAL) return false;
        const pcl_expr_t *v = n->attrs[0].value;
        if (v->kind == PCL_CALL && v->call.n == 1 &&
            (strcmp(v->call.name, "secret") == 0 || strcmp(v->call.name, "unsecret") == 0))
            v = v->call.args[0];
        if (v->kind != PCL_TRAVERSAL || v->trav.n) return false;
        int idx = names_table_get(nodes, v->trav.root);
        n = idx >= 0 ? &p->nodes[idx] : NULL;
    }
    return false;
}

/* Whether what e reads into config value n walks its list and map types (an index into a list, a
 * key or attribute of a map) as far as they go: below them is a value of no type (an object type's
 * too), which C# and Java read into as a JsonElement / Gson's Object. */
static bool config_read_typed(const pcl_node_t *n, const pcl_expr_t *e) {
    arena_t *a = arena_new();
    const emit_cfg_type_t *t = emit_config_type(a, n->token ? n->token : "string");
    bool ok = true;
    for (size_t k = 0; ok && k < e->trav.n && t->kind != EMIT_CFG_ANY; k++) { /* into no type: GetProperty */
        const pcl_trav_part_t *pt = &e->trav.parts[k];
        bool key = pt->attr || pt->index_is_string;
        ok = (t->kind == EMIT_CFG_LIST && !key) || (t->kind == EMIT_CFG_MAP && key);
        t = t->elem;
    }
    arena_free(a);
    return ok;
}

const pcl_expr_t *emit_local_held(const pcl_program_t *p, const names_table_t *nodes, const pcl_node_t *n,
                                  const pcl_node_t **config) {
    *config = NULL;
    if (n->kind != PCL_NODE_LOCAL || !n->n_attrs) return NULL;
    const pcl_expr_t *v = n->attrs[0].value;
    if (v->kind == PCL_CALL && v->call.n == 1 && !v->function &&
        (strcmp(v->call.name, "secret") == 0 || strcmp(v->call.name, "unsecret") == 0))
        v = v->call.args[0];
    if (v->kind == PCL_TUPLE || v->kind == PCL_OBJECT) return emit_has_output(p, nodes, v) ? NULL : v;
    int idx = v->kind == PCL_TRAVERSAL && v->trav.n == 0 ? names_table_get(nodes, v->trav.root) : -1;
    if (idx < 0 || p->nodes[idx].kind != PCL_NODE_CONFIG || p->nodes[idx].config_secret) return NULL;
    *config = &p->nodes[idx];
    return v;
}

bool emit_may_be_null(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    for (int hop = 0; hop < 64; hop++) {
        if (e->kind == PCL_NULL) return true;
        if (e->kind == PCL_COND) return emit_may_be_null(p, nodes, e->y) || emit_may_be_null(p, nodes, e->z);
        int idx = e->kind == PCL_TRAVERSAL ? names_table_get(nodes, e->trav.root) : -1;
        const pcl_node_t *n = idx >= 0 ? &p->nodes[idx] : NULL;
        if (!n) return false;
        /* unset; not a read into a value of no type, where Java's null is also a key that is not there,
         * which PCL refuses (as Output.of(null) does) */
        if (n->kind == PCL_NODE_CONFIG) return !e->trav.n && n->n_attrs && n->attrs[0].value->kind == PCL_NULL;
        if (n->kind != PCL_NODE_LOCAL || e->trav.n || !n->n_attrs) return false;
        e = n->attrs[0].value;
    }
    return false;
}

/* The property of a resource's output e reads first, and in *item whether every part after it
 * indexes a list or map of its type down to a bool (`res.flags["a"]` of a map(bool); NULL: none). */
static const schema_property_t *output_bool_item(const pcl_program_t *p, const names_table_t *nodes,
                                                 const pcl_expr_t *e, bool *item) {
    *item = false;
    int idx =
        e->kind == PCL_TRAVERSAL && e->trav.n > 1 && e->trav.parts[0].attr ? names_table_get(nodes, e->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_RESOURCE || !n->schema) return NULL;
    const schema_property_t *pr = schema_find_property(n->schema->outputs, n->schema->n_outputs, e->trav.parts[0].attr);
    const schema_type_t *t = pr ? pr->type : NULL;
    for (size_t k = 1; t && k < e->trav.n; k++) {
        bool key = e->trav.parts[k].attr || e->trav.parts[k].index_is_string;
        t = (t->kind == SCHEMA_MAP && key) || (t->kind == SCHEMA_ARRAY && !key) ? t->element : NULL;
    }
    *item = t && t->kind == SCHEMA_BOOL;
    return pr;
}

/* The kind of what e reads from a config value, down its list and map types, and `items` levels
 * further down them (-1: e reads none). */
static int config_read_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e, size_t items) {
    int idx = e->kind == PCL_TRAVERSAL ? names_table_get(nodes, e->trav.root) : -1;
    if (idx < 0 || p->nodes[idx].kind != PCL_NODE_CONFIG) return -1;
    arena_t *a = arena_new();
    const emit_cfg_type_t *t = emit_config_type(a, p->nodes[idx].token);
    for (size_t k = 0; k < e->trav.n + items && (t->kind == EMIT_CFG_LIST || t->kind == EMIT_CFG_MAP); k++)
        t = t->elem;
    int kind = (int)t->kind;
    arena_free(a);
    return kind;
}

bool emit_reads_bool(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    if (emit_expr_shape(p, nodes, e) == EMIT_SHAPE_BOOL) return true;
    bool item = false;
    if (output_bool_item(p, nodes, e, &item) && item) return true;
    return config_read_kind(p, nodes, e, 0) == EMIT_CFG_BOOL;
}

bool emit_untyped_config_read(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL ? names_table_get(nodes, e->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &p->nodes[idx] : NULL;
    if (n && n->kind == PCL_NODE_LOCAL) emit_local_held(p, nodes, n, &n); /* the config value it holds */
    if (!n || n->kind != PCL_NODE_CONFIG || n->config_secret) return false;
    arena_t *a = arena_new();
    const emit_cfg_type_t *t = emit_config_type(a, n->token);
    for (size_t k = 0; k < e->trav.n && (t->kind == EMIT_CFG_LIST || t->kind == EMIT_CFG_MAP); k++)
        t = t->elem;
    bool any = t->kind == EMIT_CFG_ANY;
    arena_free(a);
    return any;
}

/* Whether e reads an item of a literal list or object a local holds (emit_local_held), which C# and
 * Java hold as a collection of no one type (Dictionary<string, object?>, a Map of mixed values). */
static bool reads_held_literal(const check_t *c, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n ? names_table_get(c->nodes, e->trav.root) : -1;
    const pcl_node_t *config = NULL;
    return idx >= 0 && c->p->nodes[idx].kind == PCL_NODE_LOCAL &&
           emit_local_held(c->p, c->nodes, &c->p->nodes[idx], &config) && !config;
}

/* The read of an item of a held literal (reads_held_literal) that local e holds, itself or through
 * further locals (`v = o.items`, then `v`), or NULL: C#'s `var v = o["items"]` is an object? and
 * Java's an Object (emit_cs_object_item; a list of one type's item keeps its type). */
static const pcl_expr_t *local_holds_held_item(const check_t *c, const pcl_expr_t *e) {
    if (e->kind != PCL_TRAVERSAL || e->trav.n || !emit_cs_object_item(c->p, c->nodes, e)) return NULL;
    for (int hop = 0; hop < 64 && e->kind == PCL_TRAVERSAL; hop++) {
        if (reads_held_literal(c, e)) return e;
        int idx = names_table_get(c->nodes, e->trav.root);
        if (idx < 0 || c->p->nodes[idx].kind != PCL_NODE_LOCAL || !c->p->nodes[idx].n_attrs) return NULL;
        e = c->p->nodes[idx].attrs[0].value;
    }
    return NULL;
}

/* The first operand of e (of a kind that is not a list or an object) that reads into a value of no
 * type from a config value (emit_untyped_config_read, below its top; not in arithmetic) or an item
 * of a literal a local holds (reads_held_literal, *held set), or NULL: C# and Java write the first as
 * a JsonElement / Object, which only arithmetic converts (to a number), the second as an object. */
static const pcl_expr_t *untyped_read_operand(const check_t *c, const pcl_expr_t *e, bool *held) {
    const pcl_expr_t *ops[3] = {NULL, NULL, NULL};
    const pcl_expr_t *const *items = NULL;
    size_t n = 0;
    bool arithmetic = false;
    switch (e->kind) {
    case PCL_BINARY:
        arithmetic = emit_binop_prec(e->op) >= 5;
        /* fallthrough */
    case PCL_UNARY:
    case PCL_COND:
    case PCL_GETATTR:
    case PCL_INDEX:
    case PCL_SPLAT:
    case PCL_FOR: ops[0] = e->x, ops[1] = e->y, ops[2] = e->z; break;
    case PCL_TEMPLATE: items = (const pcl_expr_t *const *)e->tuple.items, n = e->tuple.n; break;
    case PCL_CALL:
        /* can() and try() take any value whole (C#: a lambda returning object?) */
        if (strcmp(e->call.name, "can") == 0 || strcmp(e->call.name, "try") == 0) return NULL;
        items = (const pcl_expr_t *const *)e->call.args, n = e->call.n;
        break;
    default: return NULL;
    }
    for (size_t i = 0; i < 3 + n; i++) {
        const pcl_expr_t *o = i < 3 ? ops[i] : items[i - 3];
        if (!o || o->kind != PCL_TRAVERSAL) continue;
        if ((*held = reads_held_literal(c, o) || local_holds_held_item(c, o)) ||
            (o->trav.n && !arithmetic && emit_untyped_config_read(c->p, c->nodes, o)))
            return o;
    }
    return NULL;
}

bool emit_untyped_value(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    if (e->kind == PCL_CALL && strcmp(e->call.name, "getOutput") == 0) return true;
    int idx = e->kind == PCL_TRAVERSAL ? names_table_get(nodes, e->trav.root) : -1;
    return idx >= 0 && node_untyped(p, nodes, &p->nodes[idx]);
}

bool emit_untyped_output(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    const pcl_expr_t *v = e;
    while (v->kind == PCL_CALL && v->call.n == 1 &&
           (strcmp(v->call.name, "secret") == 0 || strcmp(v->call.name, "unsecret") == 0))
        v = v->call.args[0];
    return v->kind == PCL_TRAVERSAL && emit_untyped_value(p, nodes, v) && emit_has_output(p, nodes, e);
}

/* The schema's type of what is read below a value of type t by `key` (an attribute or a string
 * index: an object's property, a map's value) or by a number index (key NULL: a list's item). */
static const schema_type_t *type_below(const schema_type_t *t, const char *key) {
    if (!t) return NULL;
    if (key && t->kind == SCHEMA_OBJECT && t->object) {
        const schema_property_t *pr = schema_find_property(t->object->props, t->object->n_props, key);
        return pr ? pr->type : NULL;
    }
    return (key && t->kind == SCHEMA_MAP) || (!key && t->kind == SCHEMA_ARRAY) ? t->element : NULL;
}

/* The schema's type of what the first `k` parts of traversal e read (of a resource's output, of an
 * invoke's result a local holds), or NULL. */
static const schema_type_t *trav_read_type(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e,
                                           size_t k, int depth);

/* The schema's type of what e gives where the schema says it: a resource's output, an invoke's or a
 * method's result (a local holding an invoke's too), and what is read below them; NULL elsewhere. */
static const schema_type_t *schema_read_type(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e,
                                             int depth) {
    if (depth > 64) return NULL;
    if (e->kind == PCL_CALL) return e->function ? e->function->return_type : NULL;
    if (e->kind == PCL_GETATTR) return type_below(schema_read_type(p, nodes, e->x, depth + 1), e->s);
    if (e->kind == PCL_INDEX && (e->y->kind == PCL_STRING || e->y->kind == PCL_NUMBER))
        return type_below(schema_read_type(p, nodes, e->x, depth + 1), e->y->kind == PCL_STRING ? e->y->s : NULL);
    return e->kind == PCL_TRAVERSAL ? trav_read_type(p, nodes, e, e->trav.n, depth) : NULL;
}

static const schema_type_t *trav_read_type(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e,
                                           size_t k, int depth) {
    int idx = names_table_get(nodes, e->trav.root);
    const pcl_node_t *n = idx >= 0 ? &p->nodes[idx] : NULL;
    const schema_type_t *t = NULL;
    size_t i = 0;
    if (n && n->kind == PCL_NODE_RESOURCE && n->schema && k && e->trav.parts[0].attr) {
        const schema_property_t *pr =
            schema_find_property(n->schema->outputs, n->schema->n_outputs, e->trav.parts[0].attr);
        t = pr ? pr->type : NULL;
        i = 1;
    } else if (n && n->kind == PCL_NODE_LOCAL && n->n_attrs && emit_is_invoke(n->attrs[0].value)) {
        t = schema_read_type(p, nodes, n->attrs[0].value, depth + 1);
    }
    for (; t && i < k; i++) {
        const pcl_trav_part_t *pt = &e->trav.parts[i];
        t = type_below(t, pt->attr ? pt->attr : pt->index_is_string ? pt->index_str : NULL);
    }
    return t;
}

const schema_type_t *emit_read_type(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    return schema_read_type(p, nodes, e, 0);
}

bool emit_reads_map_key(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e, size_t k) {
    if (e->kind != PCL_TRAVERSAL || k >= e->trav.n || !e->trav.parts[k].attr) return false;
    int idx = names_table_get(nodes, e->trav.root);
    if (idx >= 0 && p->nodes[idx].kind == PCL_NODE_CONFIG) { /* a config map's key */
        arena_t *a = arena_new();
        const emit_cfg_type_t *t = emit_config_type(a, p->nodes[idx].token);
        for (size_t i = 0; i < k && (t->kind == EMIT_CFG_LIST || t->kind == EMIT_CFG_MAP); i++)
            t = t->elem;
        bool map = t->kind == EMIT_CFG_MAP;
        arena_free(a);
        return map;
    }
    const schema_type_t *t = trav_read_type(p, nodes, e, k, 0);
    return t && t->kind == SCHEMA_MAP;
}

/* Whether e is a list, a map or an object, by its shape or the schema's type of what it reads. */
static bool collection_value(const check_t *c, const pcl_expr_t *e) {
    emit_shape_t sh = emit_expr_shape(c->p, c->nodes, e);
    if (sh == EMIT_SHAPE_LIST || sh == EMIT_SHAPE_MAP || sh == EMIT_SHAPE_OBJECT) return true;
    const schema_type_t *t = schema_read_type(c->p, c->nodes, e, 0);
    return t && (t->kind == SCHEMA_ARRAY || t->kind == SCHEMA_MAP || t->kind == SCHEMA_OBJECT);
}

bool emit_dynamic_value(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    for (int depth = 0; depth < 8; depth++) {
        while (e->kind == PCL_CALL && e->call.n == 1 && !e->function &&
               (strcmp(e->call.name, "secret") == 0 || strcmp(e->call.name, "unsecret") == 0))
            e = e->call.args[0];
        if (emit_untyped_value(p, nodes, e) || emit_untyped_config_read(p, nodes, e)) return true;
        if (e->kind == PCL_COND) return emit_dynamic_value(p, nodes, e->y) || emit_dynamic_value(p, nodes, e->z);
        const schema_type_t *t = schema_read_type(p, nodes, e, 0);
        if (t) return (t->kind == SCHEMA_ANY && !t->external_ref) || t->kind == SCHEMA_JSON;
        int idx = e->kind == PCL_TRAVERSAL && !e->trav.n ? names_table_get(nodes, e->trav.root) : -1;
        if (idx < 0 || p->nodes[idx].kind != PCL_NODE_LOCAL || !p->nodes[idx].n_attrs) return false;
        e = p->nodes[idx].attrs[0].value; /* what the local holds */
    }
    return false;
}

static emit_print_t print_of_config(int kind) {
    switch (kind) {
    case EMIT_CFG_STRING: return EMIT_PRINT_STRING;
    case EMIT_CFG_INT: return EMIT_PRINT_INT;
    case EMIT_CFG_NUMBER: return EMIT_PRINT_NUMBER;
    case EMIT_CFG_BOOL: return EMIT_PRINT_BOOL;
    case EMIT_CFG_ANY: return EMIT_PRINT_DYNAMIC;
    case EMIT_CFG_LIST:
    case EMIT_CFG_MAP: return EMIT_PRINT_COLLECTION;
    default: return EMIT_PRINT_UNKNOWN;
    }
}

static emit_print_t print_of_type(const schema_type_t *t) {
    if (t && t->kind == SCHEMA_ENUM) t = t->element;
    switch (t ? t->kind : SCHEMA_ANY) {
    case SCHEMA_STRING: return EMIT_PRINT_STRING;
    case SCHEMA_INT: return EMIT_PRINT_INT;
    case SCHEMA_NUMBER: return EMIT_PRINT_NUMBER;
    case SCHEMA_BOOL: return EMIT_PRINT_BOOL;
    case SCHEMA_JSON: return EMIT_PRINT_DYNAMIC;
    case SCHEMA_ANY: return !t || t->external_ref ? EMIT_PRINT_UNKNOWN : EMIT_PRINT_DYNAMIC;
    case SCHEMA_ARRAY:
    case SCHEMA_MAP:
    case SCHEMA_OBJECT: return EMIT_PRINT_COLLECTION;
    default: return EMIT_PRINT_UNKNOWN;
    }
}

emit_print_t emit_print_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    /* a whole number literal is written as an int (1, not 1.0) where no number is wanted */
    if (e->kind == PCL_NUMBER && e->n > -2147483648.0 && e->n < 2147483648.0 && e->n == (double)(long)e->n)
        return EMIT_PRINT_INT;
    if (emit_dynamic_value(p, nodes, e)) return EMIT_PRINT_DYNAMIC;
    if (emit_reads_bool(p, nodes, e)) return EMIT_PRINT_BOOL;
    int kind = config_read_kind(p, nodes, e, 0);
    if (kind >= 0) return print_of_config(kind);
    const schema_type_t *t = schema_read_type(p, nodes, e, 0);
    if (t) return print_of_type(t);
    switch (emit_expr_shape(p, nodes, e)) {
    case EMIT_SHAPE_STRING: return EMIT_PRINT_STRING;
    case EMIT_SHAPE_NUMBER: return EMIT_PRINT_NUMBER;
    case EMIT_SHAPE_BOOL: return EMIT_PRINT_BOOL;
    case EMIT_SHAPE_LIST:
    case EMIT_SHAPE_MAP:
    case EMIT_SHAPE_OBJECT: return EMIT_PRINT_COLLECTION;
    default: return EMIT_PRINT_UNKNOWN;
    }
}

/* emit_print_kind, and through a local holding a config value (secret(config)), the kind of what is
 * read into that value. */
static emit_print_t held_print_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    emit_print_t k = emit_print_kind(p, nodes, e);
    int idx = k == EMIT_PRINT_UNKNOWN && e->kind == PCL_TRAVERSAL ? names_table_get(nodes, e->trav.root) : -1;
    const pcl_node_t *cfg = NULL;
    if (idx < 0 || !emit_local_held(p, nodes, &p->nodes[idx], &cfg) || !cfg) return k;
    pcl_expr_t read = *e; /* the same parts, read into the config value */
    read.trav.root = cfg->name;
    return print_of_config(config_read_kind(p, nodes, &read, 0));
}

bool emit_cs_list_uniform(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    /* one item is its own best type */
    if (e->tuple.n == 1) return e->tuple.items[0]->kind != PCL_NULL;
    emit_shape_t first = emit_expr_shape(p, nodes, e->tuple.items[0]);
    bool out = emit_has_output(p, nodes, e->tuple.items[0]);
    if (first == EMIT_SHAPE_LIST || first == EMIT_SHAPE_MAP || first == EMIT_SHAPE_OBJECT ||
        first == EMIT_SHAPE_UNKNOWN || (out && first == EMIT_SHAPE_NUMBER))
        return false;
    for (size_t i = 0; i < e->tuple.n; i++)
        if (e->tuple.items[i]->kind == PCL_NULL || emit_expr_shape(p, nodes, e->tuple.items[i]) != first ||
            emit_has_output(p, nodes, e->tuple.items[i]) != out)
            return false;
    return true;
}

bool emit_cs_object_item(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    size_t parts = 0; /* read below the literal, over every local passed */
    for (int hop = 0; hop < 64 && e->kind == PCL_TRAVERSAL; hop++) {
        int idx = names_table_get(nodes, e->trav.root);
        const pcl_node_t *n = idx >= 0 ? &p->nodes[idx] : NULL;
        if (!n || n->kind != PCL_NODE_LOCAL || !n->n_attrs) return false;
        parts += e->trav.n;
        const pcl_node_t *config = NULL;
        const pcl_expr_t *held = emit_local_held(p, nodes, n, &config);
        if (held) /* a list of one type is a T[] (new[]), whose item is a T */
            return !config && parts && !(held->kind == PCL_TUPLE && parts == 1 && emit_cs_list_uniform(p, nodes, held));
        e = n->attrs[0].value;
    }
    return false;
}

emit_print_t emit_try_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    emit_print_t all = EMIT_PRINT_UNKNOWN;
    for (size_t i = 0; i < e->call.n; i++) {
        if (emit_cs_object_item(p, nodes, e->call.args[i])) return EMIT_PRINT_UNKNOWN;
        emit_print_t k = held_print_kind(p, nodes, e->call.args[i]);
        if (k < EMIT_PRINT_STRING || k > EMIT_PRINT_NUMBER) return EMIT_PRINT_UNKNOWN;
        if (i && k != all &&
            !((k == EMIT_PRINT_INT || k == EMIT_PRINT_NUMBER) && (all == EMIT_PRINT_INT || all == EMIT_PRINT_NUMBER)))
            return EMIT_PRINT_UNKNOWN;
        all = i && k != all ? EMIT_PRINT_NUMBER : k;
    }
    return all;
}

/* The scope link and index where for-expression variable `name` is declared, innermost first. */
static const emit_scope_t *scope_find(const emit_scope_t *s, const char *name, size_t *at) {
    for (; s; s = s->outer)
        for (size_t i = s->n; i-- > 0;)
            if (strcmp(s->name[i], name) == 0) return *at = i, s;
    return NULL;
}

typedef struct scope_reads {
    const emit_scope_t *s;
    bool found;
} scope_reads_t;

static bool scope_reads_one(const pcl_expr_t *e, void *ctx) {
    scope_reads_t *r = ctx;
    size_t at = 0;
    r->found |= e->kind == PCL_TRAVERSAL && scope_find(r->s, e->trav.root, &at);
    return !r->found;
}

bool emit_scope_reads(const emit_scope_t *s, const pcl_expr_t *e) {
    scope_reads_t r = {s, false};
    if (s) pcl_expr_walk(e, scope_reads_one, &r);
    return r.found;
}

static emit_print_t items_kind(const pcl_program_t *p, const names_table_t *nodes, const emit_scope_t *s,
                               const pcl_expr_t *coll, size_t levels);

emit_print_t emit_scope_print_kind(const pcl_program_t *p, const names_table_t *nodes, const emit_scope_t *s,
                                   const pcl_expr_t *e) {
    if (!emit_scope_reads(s, e)) return emit_print_kind(p, nodes, e);
    if (e->kind == PCL_TRAVERSAL && !e->trav.n) return items_kind(p, nodes, s, e, 0); /* a variable itself */
    if (e->kind == PCL_COND) {                                                        /* either branch */
        emit_print_t y = emit_scope_print_kind(p, nodes, s, e->y);
        return y == emit_scope_print_kind(p, nodes, s, e->z) ? y : EMIT_PRINT_UNKNOWN;
    }
    /* what is read from one: unknown here; an operator's result, a template, a call by its shape */
    if (e->kind == PCL_TRAVERSAL || e->kind == PCL_INDEX || e->kind == PCL_GETATTR || e->kind == PCL_CALL)
        return e->kind == PCL_CALL && emit_expr_shape(p, nodes, e) == EMIT_SHAPE_STRING ? EMIT_PRINT_STRING
                                                                                        : EMIT_PRINT_UNKNOWN;
    return emit_print_kind(p, nodes, e);
}

emit_print_t emit_print_item_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *coll,
                                  bool key) {
    return emit_scope_item_kind(p, nodes, NULL, coll, key);
}

emit_print_t emit_scope_item_kind(const pcl_program_t *p, const names_table_t *nodes, const emit_scope_t *s,
                                  const pcl_expr_t *coll, bool key) {
    if (!key) return items_kind(p, nodes, s, coll, 1);
    emit_shape_t sh = emit_expr_shape(p, nodes, coll);
    return sh == EMIT_SHAPE_LIST ? EMIT_PRINT_INT : sh == EMIT_SHAPE_MAP ? EMIT_PRINT_STRING : EMIT_PRINT_UNKNOWN;
}

/* What e prints as (levels 0) or its items (1), their items (2), ...: a variable of s as an item of
 * its collection, a for expression's items as its body, a conditional's as both branches'. */
static emit_print_t items_kind(const pcl_program_t *p, const names_table_t *nodes, const emit_scope_t *s,
                               const pcl_expr_t *coll, size_t levels) {
    size_t at = 0;
    const emit_scope_t *v = coll->kind == PCL_TRAVERSAL && !coll->trav.n ? scope_find(s, coll->trav.root, &at) : NULL;
    if (v) {
        const pcl_expr_t *over = v->coll ? v->coll[at] : NULL;
        if (v->is_key && v->is_key[at]) /* a list's index, a map's key */
            return !levels && over ? emit_scope_item_kind(p, nodes, NULL, over, true) : EMIT_PRINT_UNKNOWN;
        if (over && v->entries && v->entries[at]) return !levels ? EMIT_PRINT_COLLECTION : EMIT_PRINT_UNKNOWN;
        emit_scope_t before = {v->name, v->coll, v->is_key, v->entries, at, v->outer}; /* what `over` sees */
        return over ? items_kind(p, nodes, &before, over, levels + 1) : EMIT_PRINT_UNKNOWN;
    }
    if (!levels) return emit_scope_print_kind(p, nodes, s, coll);
    if (coll->kind == PCL_FOR) { /* its body, its variables in scope */
        const char *names[2] = {coll->kvar ? coll->kvar : "", coll->vvar};
        const pcl_expr_t *colls[2] = {coll->x, coll->x};
        bool is_key[2] = {true, false};
        bool entries[2] = {false, coll->x->kind == PCL_CALL && strcmp(coll->x->call.name, "entries") == 0};
        emit_scope_t in = {names, colls, is_key, entries, 2, s};
        return items_kind(p, nodes, &in, coll->z, levels - 1);
    }
    if (coll->kind == PCL_COND) { /* either branch's */
        emit_print_t y = items_kind(p, nodes, s, coll->y, levels);
        return y == items_kind(p, nodes, s, coll->z, levels) ? y : EMIT_PRINT_UNKNOWN;
    }
    if (coll->kind == PCL_CALL && !coll->function && strcmp(coll->call.name, "split") == 0)
        return levels == 1 ? EMIT_PRINT_STRING : EMIT_PRINT_UNKNOWN; /* strings */
    if (coll->kind != PCL_TUPLE && coll->kind != PCL_OBJECT && emit_scope_reads(s, coll))
        return EMIT_PRINT_UNKNOWN; /* read below a variable: not known here */
    int kind = config_read_kind(p, nodes, coll, levels);
    if (kind >= 0) return print_of_config(kind);
    const schema_type_t *t = schema_read_type(p, nodes, coll, 0);
    if (t) {
        for (size_t i = 0; t && i < levels; i++)
            t = t->kind == SCHEMA_ARRAY || t->kind == SCHEMA_MAP ? t->element : NULL;
        return t ? print_of_type(t) : EMIT_PRINT_UNKNOWN;
    }
    for (int depth = 0; depth < 8 && coll->kind == PCL_TRAVERSAL && !coll->trav.n; depth++) { /* a local's */
        int idx = names_table_get(nodes, coll->trav.root);
        if (idx < 0 || p->nodes[idx].kind != PCL_NODE_LOCAL || !p->nodes[idx].n_attrs) break;
        coll = p->nodes[idx].attrs[0].value;
        if (coll->kind == PCL_FOR || coll->kind == PCL_COND) return items_kind(p, nodes, NULL, coll, levels);
    }
    emit_print_t all = EMIT_PRINT_UNKNOWN; /* a list's or object's literal items, all of one kind */
    size_t n = coll->kind == PCL_TUPLE ? coll->tuple.n : coll->kind == PCL_OBJECT ? coll->object.n : 0;
    for (size_t i = 0; i < n; i++) {
        emit_print_t k = items_kind(
            p, nodes, s, coll->kind == PCL_TUPLE ? coll->tuple.items[i] : coll->object.items[i].value, levels - 1);
        if (i && k != all) return EMIT_PRINT_UNKNOWN;
        all = k;
    }
    return all;
}

/* length() and entries() are written by what their argument is: a string, a list or a map. */
static bool check_call_shape(const check_t *c, const pcl_expr_t *e) {
    if (c->lang != LANG_TYPESCRIPT && c->lang != LANG_PYTHON) return true;
    bool length = strcmp(e->call.name, "length") == 0;
    if (!length && strcmp(e->call.name, "entries") != 0) return true;
    emit_shape_t sh = emit_expr_shape(c->p, c->nodes, e->call.args[0]);
    if (!length && reads_config(c, e->call.args[0])) /* a config value of any type: its entries as a map's */
        return true;
    return sh == EMIT_SHAPE_LIST || sh == EMIT_SHAPE_MAP || sh == EMIT_SHAPE_OBJECT ||
           (length && sh == EMIT_SHAPE_STRING);
}

/* C# and Java read the result of an invoke a local holds in an apply of it (emitters/walk.c
 * typed_apply): its properties (Java: one that the function's result always has, whose getter gives
 * the value, not an Optional). */
/* C# and Java read into a local holding a literal list or object (one index or key: its items are
 * of no one type) or a config value (as into the config value), through secret()/unsecret() in an
 * apply (emitters/walk.c typed_held_parts). */
static bool typed_reads_held_local(const check_t *c, const pcl_node_t *local, const pcl_expr_t *e) {
    const pcl_node_t *cfg = NULL;
    const pcl_expr_t *w = emit_local_held(c->p, c->nodes, local, &cfg);
    if (!w) return false;
    if (cfg) return config_read_typed(cfg, e);
    if (e->trav.n != 1 || (e->type && e->type->kind != SCHEMA_ANY)) return false;
    bool key = e->trav.parts[0].attr || e->trav.parts[0].index_is_string;
    return w->kind == PCL_OBJECT ? key : !key;
}

static bool typed_reads_invoke_local(const check_t *c, const pcl_node_t *local, const pcl_expr_t *e) {
    const pcl_expr_t *v = local->attrs[0].value;
    if (!emit_is_invoke(v) || !emit_is_output_atom(c->p, c->nodes, e)) return false;
    for (size_t i = 0; i < e->trav.n; i++)
        if (!e->trav.parts[i].attr) return false;
    if (c->lang != LANG_JAVA) return true;
    const schema_property_t *prop = emit_invoke_local_property(c->p, c->nodes, e);
    return prop && prop->required;
}

/* C# and Java write a built-in function over plain values (their emit_typed_call_t tables), but
 * unsecret over an output and secret and the assets over either: false when a call is otherwise. */
/* The shape of the values of a config map(T) value e reads (whole), T a scalar; unknown otherwise. */
static emit_shape_t config_map_elem_shape(const check_t *c, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n == 0 ? names_table_get(c->nodes, e->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_CONFIG || !n->token) return EMIT_SHAPE_UNKNOWN;
    arena_t *a = arena_new();
    const emit_cfg_type_t *t = emit_config_type(a, n->token);
    emit_cfg_kind_t k = t->kind == EMIT_CFG_MAP && emit_config_scalar(t->elem) ? t->elem->kind : EMIT_CFG_ANY;
    arena_free(a);
    return k == EMIT_CFG_STRING ? EMIT_SHAPE_STRING
           : k == EMIT_CFG_BOOL ? EMIT_SHAPE_BOOL
           : k == EMIT_CFG_ANY  ? EMIT_SHAPE_UNKNOWN
                                : EMIT_SHAPE_NUMBER;
}

static const char *go_keyed_object(const check_t *c, const pcl_expr_t *e);
static const char *keyed_object_lacks(const check_t *c, const pcl_expr_t *e);

/* Whether e is entries() or lookup() of an object of the schema's type that C# and Java write from the
 * type's properties (cs_keyed_object, java_keyed_object), its other arguments plain (written inside
 * the apply). */
static bool typed_keyed_object_ok(const check_t *c, const pcl_expr_t *e) {
    if (!go_keyed_object(c, e) || keyed_object_lacks(c, e)) return false;
    for (size_t i = 1; i < e->call.n; i++)
        if (emit_has_output(c->p, c->nodes, e->call.args[i])) return false;
    return true;
}

/* Whether e is entries() or lookup() over a resource's required output of a map type read whole
 * (`res.tags`), its other arguments plain: C# and Java write it in an apply of the output (their
 * calls_output), lookup's default of the kind of the map's values (Java: a string or a bool, as its
 * getOrDefault types the default as the values). */
static bool typed_keyed_output_ok(const check_t *c, const pcl_expr_t *e) {
    bool entries = strcmp(e->call.name, "entries") == 0;
    if ((!entries && strcmp(e->call.name, "lookup") != 0) || e->call.n != (entries ? 1u : 3u)) return false;
    const pcl_expr_t *m = e->call.args[0];
    if (m->kind != PCL_TRAVERSAL || m->trav.n != 1 || !m->trav.parts[0].attr) return false;
    int idx = names_table_get(c->nodes, m->trav.root);
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_RESOURCE || !n->schema) return false;
    const schema_property_t *p = schema_find_property(n->schema->outputs, n->schema->n_outputs, m->trav.parts[0].attr);
    if (!p || !p->required || !p->type || p->type->kind != SCHEMA_MAP || !p->type->element) return false;
    for (size_t i = 1; i < e->call.n; i++)
        if (emit_has_output(c->p, c->nodes, e->call.args[i])) return false;
    if (entries) return true;
    schema_kind_t k = p->type->element->kind;
    emit_shape_t want = k == SCHEMA_STRING                      ? EMIT_SHAPE_STRING
                        : k == SCHEMA_BOOL                      ? EMIT_SHAPE_BOOL
                        : k == SCHEMA_INT || k == SCHEMA_NUMBER ? EMIT_SHAPE_NUMBER
                                                                : EMIT_SHAPE_UNKNOWN;
    return want != EMIT_SHAPE_UNKNOWN && emit_expr_shape(c->p, c->nodes, e->call.args[2]) == want &&
           (c->lang == LANG_CSHARP || want != EMIT_SHAPE_NUMBER);
}

/* C# and Java write can() and try() over outputs in an apply of the one Output their arguments read
 * (cs_can_try, java_can_try), what they read below it inside the helper's lambdas; not below an output
 * the resource may leave unset (typed_apply_atom: what reads it would give null where PCL fails). */
static bool typed_can_try_ok(const check_t *c, const pcl_expr_t *e) {
    bool outputs = false;
    for (size_t i = 0; i < e->call.n; i++)
        outputs |= emit_has_output(c->p, c->nodes, e->call.args[i]);
    if (!outputs) return true;
    typed_apply_scan_t t = {.c = c, .ok = true, .java = true, .literals = true};
    for (size_t i = 0; i < e->call.n; i++)
        pcl_expr_walk(e->call.args[i], typed_apply_one, &t);
    return t.ok && t.head;
}

/* C# and Java: the scalar type (its name) where can() or try() stands that its value is not known to
 * be of (can's is a bool; try's the type its arguments share, emit_try_kind, a variable of a for
 * expression not known), or NULL. C#'s Try<T> and Java's try_ return one type, and an object? (an
 * Object) is no Input<string> (no String). */
static const char *typed_can_try_misfit(const check_t *c, const expr_check_t *x, const pcl_expr_t *e) {
    const schema_type_t *t = e->type && e->type->kind == SCHEMA_ENUM ? e->type->element : e->type;
    static const char *const cs[] = {
        [SCHEMA_STRING] = "string", [SCHEMA_BOOL] = "bool", [SCHEMA_INT] = "int", [SCHEMA_NUMBER] = "double"};
    static const char *const java[] = {
        [SCHEMA_STRING] = "String", [SCHEMA_BOOL] = "Boolean", [SCHEMA_INT] = "Integer", [SCHEMA_NUMBER] = "Double"};
    const char *const *names = c->lang == LANG_JAVA ? java : cs;
    if (!t || (t->kind != SCHEMA_STRING && t->kind != SCHEMA_BOOL && t->kind != SCHEMA_INT && t->kind != SCHEMA_NUMBER))
        return NULL;
    if (strcmp(e->call.name, "can") == 0) return t->kind == SCHEMA_BOOL ? NULL : names[t->kind];
    for (size_t i = 0; i < e->call.n; i++)
        if (scope_reads(x, e->call.args[i])) return names[t->kind];
    emit_print_t k = emit_try_kind(c->p, c->nodes, e), want = print_of_type(t);
    return k == want || (want == EMIT_PRINT_NUMBER && k == EMIT_PRINT_INT) ? NULL : names[t->kind];
}

static bool typed_call_args_ok(const check_t *c, const pcl_expr_t *e) {
    static const char *const any[] = {"secret",        "fileAsset",    "stringAsset", "remoteAsset", "fileArchive",
                                      "remoteArchive", "assetArchive", "getOutput",   NULL};
    if (c->lang != LANG_CSHARP && c->lang != LANG_JAVA) return true;
    if (strcmp(e->call.name, "can") == 0 || strcmp(e->call.name, "try") == 0) return typed_can_try_ok(c, e);
    if (typed_keyed_output_ok(c, e)) return true;
    if (typed_keyed_object_ok(c, e)) return true;
    if (strcmp(e->call.name, "unsecret") == 0) return emit_has_output(c->p, c->nodes, e->call.args[0]);
    /* length() by its argument's shape, element() of a list; Java's split() takes a regular
     * expression: a literal separator without its special characters */
    emit_shape_t sh = e->call.n ? emit_expr_shape(c->p, c->nodes, e->call.args[0]) : EMIT_SHAPE_UNKNOWN;
    if (strcmp(e->call.name, "length") == 0 && sh != EMIT_SHAPE_STRING && sh != EMIT_SHAPE_LIST && sh != EMIT_SHAPE_MAP)
        return false;
    if ((strcmp(e->call.name, "element") == 0 || strcmp(e->call.name, "singleOrNone") == 0) && sh != EMIT_SHAPE_LIST)
        return false;
    /* a map's entries, or a value of no type's (a config value's: a JsonElement, Gson's Object) */
    if (strcmp(e->call.name, "entries") == 0 && sh != EMIT_SHAPE_MAP &&
        !(sh == EMIT_SHAPE_UNKNOWN && emit_untyped_config_read(c->p, c->nodes, e->call.args[0])))
        return false;
    /* lookup(map, key, default): a config map whose values the default's kind (the SDK's generic
     * GetValueOrDefault / getOrDefault types the default as the map's values); Java's map(int) and
     * map(number) hold the doubles Gson decodes, not the Integer a default would be */
    if (strcmp(e->call.name, "lookup") == 0) {
        emit_shape_t el = config_map_elem_shape(c, e->call.args[0]);
        return el != EMIT_SHAPE_UNKNOWN && emit_expr_shape(c->p, c->nodes, e->call.args[2]) == el &&
               (c->lang == LANG_CSHARP || el != EMIT_SHAPE_NUMBER);
    }
    /* "" splits into characters, which String.split("") cuts into UTF-16 halves and C#'s
     * EnumerateRunes form (cs_split) is written for a value that is no output */
    if (strcmp(e->call.name, "split") == 0 && c->lang == LANG_JAVA &&
        (e->call.args[0]->kind != PCL_STRING || !*e->call.args[0]->s || strpbrk(e->call.args[0]->s, "\\^$.|?*+()[]{}")))
        return false;
    if (strcmp(e->call.name, "split") == 0 && c->lang == LANG_CSHARP &&
        (e->call.args[0]->kind != PCL_STRING || !*e->call.args[0]->s) && emit_has_output(c->p, c->nodes, e))
        return false;
    /* min/max: Math.Max(a, b) of two numbers, Enumerable.Max / Collections.max of a list expanded */
    if (strcmp(e->call.name, "min") == 0 || strcmp(e->call.name, "max") == 0) {
        if (e->call.n == 1) return e->call.expand_final && sh == EMIT_SHAPE_LIST && !emit_has_output(c->p, c->nodes, e);
        return e->call.n == 2 && !e->call.expand_final && sh == EMIT_SHAPE_NUMBER &&
               emit_expr_shape(c->p, c->nodes, e->call.args[1]) == EMIT_SHAPE_NUMBER &&
               !emit_has_output(c->p, c->nodes, e);
    }
    /* a resource's own name and type, by its SDK's methods */
    if (strcmp(e->call.name, "pulumiResourceName") == 0 || strcmp(e->call.name, "pulumiResourceType") == 0) {
        return emit_resource_ref(c->p, c->nodes, e->call.args[0]);
    }
    for (size_t i = 0; any[i]; i++)
        if (strcmp(any[i], e->call.name) == 0) return true;
    if (strcmp(e->call.name, "toJSON") == 0) return true;   /* C#: Output.JsonSerialize over outputs */
    if (strcmp(e->call.name, "toBase64") == 0) return true; /* over an output in an apply of it */
    for (size_t i = 0; i < e->call.n; i++)
        if (emit_has_output(c->p, c->nodes, e->call.args[i])) return false;
    return true;
}

/* Why Java cannot write this toJSON() call, or NULL. It is written with the toJson helper (java.c),
 * which writes any string, number, bool, list or map (null too), over one Output's value in an apply
 * of it, as pulumi-java writes toJSON of one Output (its serializeJson took only an object literal's
 * Map.ofEntries, which refuses null). */
const pcl_expr_t *emit_java_json_arg(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL && !e->trav.n ? names_table_get(nodes, e->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &p->nodes[idx] : NULL;
    const pcl_expr_t *v = n && n->kind == PCL_NODE_LOCAL && n->n_attrs ? n->attrs[0].value : NULL;
    return v && (v->kind == PCL_OBJECT || v->kind == PCL_TUPLE) && emit_has_output(p, nodes, v) ? v : e;
}

static const char *java_json_lacks(const check_t *c, const pcl_expr_t *e) {
    const pcl_expr_t *arg = emit_java_json_arg(c->p, c->nodes, e->call.args[0]);
    if (!emit_has_output(c->p, c->nodes, arg)) return NULL;
    typed_apply_scan_t t = {.c = c, .ok = true, .java = true, .literals = true};
    pcl_expr_walk(arg, typed_apply_one, &t);
    return t.ok && t.head && t.java
               ? NULL
               : "over outputs other than one Output read as a whole or by its required properties, "
                 "which cimport's Java writes in an apply of that Output only";
}

/* C# and Java write the default of a scalar config value that is not secret, a literal of its type
 * (`config.GetInt32("n") ?? 1`, `ctx.config().getInteger("n").orElse(1)`). */
/* Whether a literal fits a config type as a Go value of it (go.c go_cfg_literal): a value of any type
 * takes any literal, a list or map of a type takes a list or map of literals that fit it (no null
 * among them: Go has no null string or number). */
static bool literal_only(const pcl_expr_t *e, void *ctx);

static bool go_default_fits(const emit_cfg_type_t *t, const pcl_expr_t *e) {
    switch (t->kind) {
    case EMIT_CFG_ANY: {
        bool literal = true;
        pcl_expr_walk(e, literal_only, &literal);
        return literal;
    }
    case EMIT_CFG_STRING: return e->kind == PCL_STRING;
    case EMIT_CFG_INT: return e->kind == PCL_NUMBER && names_number_is_int(e->n);
    case EMIT_CFG_NUMBER: return e->kind == PCL_NUMBER;
    case EMIT_CFG_BOOL: return e->kind == PCL_BOOL;
    case EMIT_CFG_LIST:
        if (e->kind != PCL_TUPLE) return false;
        for (size_t i = 0; i < e->tuple.n; i++)
            if (!go_default_fits(t->elem, e->tuple.items[i])) return false;
        return true;
    case EMIT_CFG_MAP:
        if (e->kind != PCL_OBJECT) return false;
        for (size_t i = 0; i < e->object.n; i++)
            if (!go_default_fits(t->elem, e->object.items[i].value)) return false;
        return true;
    }
    return false;
}

/* Whether config type t is no type (or an object type) and v a literal scalar or an object whose
 * values are literal scalars or null. */
static bool untyped_default_ok(const char *t, const pcl_expr_t *v) {
    arena_t *a = arena_new();
    bool any = emit_config_type(a, t)->kind == EMIT_CFG_ANY;
    arena_free(a);
    if (!any) return false;
    if (v->kind == PCL_STRING || v->kind == PCL_NUMBER || v->kind == PCL_BOOL) return true;
    if (v->kind != PCL_OBJECT) return false;
    for (size_t i = 0; i < v->object.n; i++) {
        const pcl_expr_t *x = v->object.items[i].value;
        if (x->kind != PCL_STRING && x->kind != PCL_NUMBER && x->kind != PCL_BOOL && x->kind != PCL_NULL) return false;
    }
    return true;
}

static bool typed_default_ok(const check_t *c, lang_t lang, const pcl_node_t *n) {
    if ((lang != LANG_CSHARP && lang != LANG_JAVA && lang != LANG_GO) || n->config_secret) return false;
    const pcl_expr_t *v = n->attrs[0].value;
    const char *t = n->token ? n->token : "string";
    /* a string or bool computed from an output (an invoke's result), the config value then an
     * Output of it (emitters/walk.c typed_config, go.c go_config_default) */
    if (emit_has_output(c->p, c->nodes, v))
        return (strcmp(t, "string") == 0 && emit_expr_shape(c->p, c->nodes, v) == EMIT_SHAPE_STRING) ||
               (strcmp(t, "bool") == 0 && emit_expr_shape(c->p, c->nodes, v) == EMIT_SHAPE_BOOL);
    if (lang == LANG_GO) { /* a list, map or any value: a literal that fits it, or null */
        arena_t *ga = arena_new();
        const emit_cfg_type_t *gt = emit_config_type(ga, t);
        bool nested = !emit_config_scalar(gt), fits = v->kind == PCL_NULL || go_default_fits(gt, v);
        arena_free(ga);
        if (nested) return fits;
    }
    /* C# and Java: null (the getter that gives nothing when unset); a value of no type (or an object
     * type) defaulting to a scalar or an object of scalars, which they write as a value of no type
     * (emitters/walk.c typed_config_optional) */
    if (lang != LANG_GO && (v->kind == PCL_NULL || untyped_default_ok(t, v))) return true;
    /* a list of scalars (C# config.GetObject<string[]>("k") ?? new[] {...}, Java
     * getObject("k", String[].class).map(Arrays::asList).orElse(Arrays.asList(...))), its items
     * literals of the element's kind or null */
    arena_t *a = arena_new();
    const emit_cfg_type_t *ct = emit_config_type_nullable(a, t);
    bool list = ct->kind == EMIT_CFG_LIST && emit_config_scalar(ct->elem), items = v->kind == PCL_TUPLE;
    static const pcl_expr_kind_t item_kind[] = {PCL_STRING, PCL_NUMBER, PCL_NUMBER, PCL_BOOL};
    pcl_expr_kind_t want = list ? item_kind[ct->elem->kind] : PCL_NULL;
    arena_free(a);
    if (list) { /* one item not null at least: C# infers new[]'s type from it */
        bool typed = false;
        for (size_t i = 0; items && i < v->tuple.n; i++) {
            items = v->tuple.items[i]->kind == want || v->tuple.items[i]->kind == PCL_NULL;
            typed |= v->tuple.items[i]->kind == want;
        }
        return items && typed;
    }
    if (strcmp(t, "string") == 0) return v->kind == PCL_STRING;
    if (strcmp(t, "bool") == 0) return v->kind == PCL_BOOL;
    if (strcmp(t, "number") == 0) return v->kind == PCL_NUMBER;
    return strcmp(t, "int") == 0 && v->kind == PCL_NUMBER && names_number_is_int(v->n);
}

static const char *expr_text(arena_t *a, const pcl_expr_t *e);

/* The literal list or object local `name` holds (through secret()/unsecret()), or NULL. */
static const pcl_expr_t *local_literal(const check_t *c, const char *name) {
    int idx = names_table_get(c->nodes, name);
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_LOCAL || !n->n_attrs) return NULL;
    const pcl_expr_t *v = n->attrs[0].value;
    if (v->kind == PCL_CALL && v->call.n == 1 && !v->function &&
        (strcmp(v->call.name, "secret") == 0 || strcmp(v->call.name, "unsecret") == 0))
        v = v->call.args[0];
    return v->kind == PCL_TUPLE || v->kind == PCL_OBJECT ? v : NULL;
}

/* A read of a key a literal object does not have, or of an index past a literal list's end, through
 * a local holding it (`o = {a = 1}`, then `o.b` / `l[5]`): PCL fails the program there ("The given
 * key does not identify an element in this collection value"), while TypeScript reads undefined, Go
 * the zero value and C#/Java throw or read null, so it is refused with its position. Not inside a
 * conditional's branches, a for expression's body, can() or try(), which may not evaluate it. */
static bool missing_item_one(const pcl_expr_t *e, void *ctx) {
    expr_check_t *x = ctx;
    if (e->kind == PCL_COND) {
        pcl_expr_walk(e->x, missing_item_one, x);
        return false;
    }
    if (e->kind == PCL_FOR ||
        (e->kind == PCL_CALL && (strcmp(e->call.name, "can") == 0 || strcmp(e->call.name, "try") == 0)))
        return false;
    if (e->kind != PCL_TRAVERSAL || !e->trav.n || in_scope_any(x, e)) return true;
    const pcl_expr_t *v = local_literal(x->c, e->trav.root);
    for (size_t i = 0; v && i < e->trav.n; i++) {
        const pcl_trav_part_t *pt = &e->trav.parts[i];
        const char *key = pt->attr ? pt->attr : pt->index_is_string ? pt->index_str : NULL;
        const pcl_expr_t *next = NULL;
        if (v->kind == PCL_OBJECT && key) {
            for (size_t k = 0; k < v->object.n && !next; k++) {
                if (!v->object.items[k].key) return true; /* a key computed when the program runs */
                if (strcmp(v->object.items[k].key, key) == 0) next = v->object.items[k].value;
            }
        } else if (v->kind == PCL_TUPLE && !key) {
            if (pt->index_num < v->tuple.n) next = v->tuple.items[pt->index_num];
        } else {
            return true; /* a key of a list, a number of an object, an index computed: not followed */
        }
        if (!next) {
            int line = e->line ? e->line : x->at->line, col = e->line ? e->col : x->at->col;
            const char *where =
                key ? arena_sprintf(x->c->a, "but the object the local '%s' holds has no key '%s'", e->trav.root, key)
                    : arena_sprintf(x->c->a, "past the end of the %zu-item list the local '%s' holds", v->tuple.n,
                                    e->trav.root);
            refuse(x->c, x->n, line, col,
                   arena_sprintf(x->c->a,
                                 "'%s' reads '%s', %s: PCL fails the program there (the %s does not identify an "
                                 "element), so cimport does not write it",
                                 x->at->name, expr_text(x->c->a, e), where, key ? "key" : "index"));
            return true;
        }
        v = next->kind == PCL_TUPLE || next->kind == PCL_OBJECT ? next : NULL;
    }
    return true;
}

/* Function calls, references and expression kinds anywhere in an expression. */
static void check_expr(check_t *c, const pcl_node_t *n, const pcl_attr_t *at, const pcl_expr_t *e) {
    static const char *const hook_scope[] = {"args"}; /* a hook's command reads its arguments */
    expr_check_t x = {.c = c, .n = n, .at = at};
    if (n->kind == PCL_NODE_HOOK) x.scope = (const char **)hook_scope, x.n_scope = 1;
    pcl_expr_walk(e, check_one, &x);
    /* evaluated whenever the program runs: a local's, an output's, a resource's without a range */
    bool evaluated = n->kind == PCL_NODE_LOCAL || n->kind == PCL_NODE_OUTPUT;
    if (n->kind == PCL_NODE_RESOURCE || n->kind == PCL_NODE_COMPONENT) {
        evaluated = at >= n->attrs && at < n->attrs + n->n_attrs;
        for (size_t k = 0; k < n->n_options; k++)
            evaluated &= strcmp(n->options[k].name, "range") != 0 && strcmp(n->options[k].name, "condition") != 0;
    }
    if (evaluated) pcl_expr_walk(e, missing_item_one, &x);
}

/* Whether e names a stack reference resource of the program (getOutput's first argument). */
static bool stack_reference(const check_t *c, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n == 0 ? names_table_get(c->nodes, e->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    return n && builtin_resource(n) && strcmp(n->schema->token, "pulumi:pulumi:StackReference") == 0;
}

/* C#'s NotImplemented helper returns an object: written as a stack output's whole value, or a hook's
 * command word (cast to string). */
static bool cs_not_implemented_ok(const expr_check_t *x, const pcl_expr_t *e) {
    if (x->n->kind == PCL_NODE_OUTPUT) return x->at->value == e;
    if (x->n->kind != PCL_NODE_HOOK || strcmp(x->at->name, "command") != 0 || x->at->value->kind != PCL_TUPLE)
        return false;
    for (size_t i = 0; i < x->at->value->tuple.n; i++)
        if (x->at->value->tuple.items[i] == e) return true;
    return false;
}

/* recover(output, value)'s arguments: the value reads the failure's message as `error`. */
static void check_recover_args(expr_check_t *x, const pcl_expr_t *e) {
    pcl_expr_walk(e->call.args[0], check_one, x);
    if (x->n_scope + 1 > EMIT_MAX_SCOPE) return;
    /* `error` is a string: an item of a list of strings, for what it prints or compares as */
    static pcl_expr_t message = {.kind = PCL_STRING, .s = ""}, *messages_items[] = {&message};
    static const pcl_expr_t messages = {.kind = PCL_TUPLE, .tuple = {.items = messages_items, .n = 1}};
    expr_check_t in = scope_with(x, 1);
    scope_add(&in, "error", &messages, false, false);
    pcl_expr_walk(e->call.args[1], check_one, &in);
}

/* Refuses an invoke or method call the language's emitter cannot write. */
static void refuse_fn_call(const expr_check_t *x, const pcl_expr_t *e) {
    check_t *c = x->c;
    /* why a language has no method calls: pulumi-java's SDK generator skips methods (#262) and its
     * program generator writes `"TODO: call call".applyValue(...)` (its own l2-component-call-simple
     * snapshot); Pulumi YAML's language host evaluates none */
    const char *none = emit_is_invoke(e) ? NULL
                       : c->lang == LANG_JAVA
                           ? "Pulumi Java's SDKs have no resource methods (pulumi-java #262: its SDK generator leaves "
                             "them out), and its program generator writes the string \"TODO: call ...\" in a call's "
                             "place (pulumi-language-java skips l2-component-call-simple, pulumi-java #1680)"
                       : c->lang == LANG_YAML ? "Pulumi YAML has no resource method calls"
                       : c->lang == LANG_CSHARP && e->function->return_plain
                           ? "Pulumi .NET's SDKs give a method's result as an Output only, never the plain value "
                             "this method returns (pulumi/pulumi-dotnet#170, open)"
                           : NULL;
    refuse(c, x->n, e->line ? e->line : x->at->line, e->line ? e->col : x->at->col,
           none ? arena_sprintf(c->a, "'%s' calls the method '%s'; %s, so it cannot be written in %s", x->at->name,
                                e->function->token, none, lang_title(c->lang))
                : arena_sprintf(c->a, "'%s' %s '%s', which the %s emitter cannot write yet%s", x->at->name,
                                emit_is_invoke(e) ? "invokes" : "calls the method", e->function->token,
                                lang_title(c->lang),
                                e->function->return_plain ? " (its result is plain, not an output)" : ""));
}

/* A hook's command runs in the program's process with plain values: it reads config, locals of
 * plain values and its own arguments — `args.name`, `.type`, `.urn` and `.id`, strings in every
 * SDK (the inputs and outputs are maps whose keys the SDKs spell differently). An output would be
 * an Output object where a string is wanted. Returns true (refused) for what it cannot read. */
static const char *expr_text(arena_t *a, const pcl_expr_t *e) {
    char *t = pcl_print_expr(e);
    const char *r = arena_strdup(a, t ? t : "");
    free(t);
    return r;
}

/* The schema type of what a traversal reads from a resource's outputs (`res.data`, `res.list[0].x`),
 * or NULL; *optional (when given) is set when a property on the way is not required. */
static const schema_type_t *output_read_type(const check_t *c, const pcl_expr_t *e, bool *optional) {
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n > 0 && e->trav.parts[0].attr
                  ? names_table_get(c->nodes, e->trav.root)
                  : -1;
    const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_RESOURCE || !n->schema) return NULL;
    const schema_property_t *p = schema_find_property(n->schema->outputs, n->schema->n_outputs, e->trav.parts[0].attr);
    bool opt = p && !p->required;
    const schema_type_t *t = p ? p->type : NULL;
    for (size_t k = 1; t && k < e->trav.n; k++) {
        const pcl_trav_part_t *pt = &e->trav.parts[k];
        const schema_property_t *q = pt->attr && t->kind == SCHEMA_OBJECT && t->object
                                         ? schema_find_property(t->object->props, t->object->n_props, pt->attr)
                                         : NULL;
        opt |= q && !q->required;
        t = pt->attr ? (q ? q->type : NULL) : t->kind == SCHEMA_ARRAY || t->kind == SCHEMA_MAP ? t->element : NULL;
    }
    if (optional) *optional = opt;
    return t;
}

/* C# and Java: a resource's output of an object type, or a list or map of one, where a resource's
 * input wants it (`data = a.data`, `datas = [a.data]`): the SDKs hold the output in the type's output
 * class (C# Outputs.Data, Java outputs.Data) and the input in its Args class (Inputs.DataArgs,
 * inputs.DataArgs), and neither converts one to the other; written as it is it did not compile (an
 * Output<Data> is no Input<DataArgs>). Go's DataOutput is a DataInput; TypeScript and Python are
 * structural. Walks the value's literal lists and objects only: an output read inside a call or an
 * operator is not passed to the input as it is. Refuses at each such output; false when any. */
static bool typed_object_outputs_ok(check_t *c, const pcl_node_t *n, const pcl_attr_t *at, const pcl_expr_t *e) {
    if (e->kind == PCL_TUPLE || e->kind == PCL_OBJECT) {
        bool ok = true;
        size_t count = e->kind == PCL_TUPLE ? e->tuple.n : e->object.n;
        for (size_t i = 0; i < count; i++)
            ok &=
                typed_object_outputs_ok(c, n, at, e->kind == PCL_TUPLE ? e->tuple.items[i] : e->object.items[i].value);
        return ok;
    }
    const schema_type_t *t = output_read_type(c, e, NULL);
    const schema_type_t *obj = t && (t->kind == SCHEMA_ARRAY || t->kind == SCHEMA_MAP) ? t->element : t;
    if (!obj || obj->kind != SCHEMA_OBJECT || !obj->token) return true;
    const char *name = strrchr(obj->token, ':') ? strrchr(obj->token, ':') + 1 : obj->token;
    bool cs = c->lang == LANG_CSHARP;
    refuse(c, n, e->line, e->col,
           arena_sprintf(c->a,
                         "'%s' gives the output '%s', %s the object type %s, where the schema wants it as an input: "
                         "%s holds the output in the type's output class (%s.%s) and the input in its Args class "
                         "(%s.%sArgs), and does not convert one to the other, so it cannot be written in %s; give "
                         "the object's fields one by one instead (%s = { field = %s.field, ... })",
                         at->name, expr_text(c->a, e),
                         t->kind == SCHEMA_ARRAY ? "a list of"
                         : t->kind == SCHEMA_MAP ? "a map of"
                                                 : "of",
                         obj->token, cs ? "Pulumi .NET" : "pulumi-java", cs ? "Outputs" : "outputs", name,
                         cs ? "Inputs" : "inputs", name, lang_title(c->lang), at->name, expr_text(c->a, e)));
    return false;
}

/* Whether traversal e reads, below a resource's output, an optional list or map property of an
 * object type: pulumi-java's getter of one gives an empty List or Map when it is unset, never null. */
static bool java_reads_empty_for_unset(const check_t *c, const pcl_expr_t *e) {
    if (e->kind != PCL_TRAVERSAL || e->trav.n < 2 || !e->trav.parts[e->trav.n - 1].attr) return false;
    pcl_expr_t head = *e;
    head.trav.n--;
    const schema_type_t *t = output_read_type(c, &head, NULL);
    const schema_property_t *q =
        t && t->kind == SCHEMA_OBJECT && t->object
            ? schema_find_property(t->object->props, t->object->n_props, e->trav.parts[e->trav.n - 1].attr)
            : NULL;
    return q && !q->required && q->type && (q->type->kind == SCHEMA_ARRAY || q->type->kind == SCHEMA_MAP);
}

/* Whether two schema types are one Java type (pulumi-java's typeString): scalars by kind (a dangling
 * reference's token names no class: its scalar type), named types by token, lists and maps by element. */
static bool java_same_type(const schema_type_t *a, const schema_type_t *b) {
    if (a->kind != b->kind) return false;
    if (a->kind == SCHEMA_OBJECT || a->kind == SCHEMA_ENUM || a->kind == SCHEMA_RESOURCE)
        return a->token && b->token && strcmp(a->token, b->token) == 0;
    if (a->kind == SCHEMA_ARRAY || a->kind == SCHEMA_MAP)
        return a->element && b->element ? java_same_type(a->element, b->element) : a->element == b->element;
    return a->kind != SCHEMA_UNION;
}

/* How many Java types a union's members are (pulumi-java writes one as it is, two an Either<L, R>,
 * more an Object). */
size_t java_union_types(const schema_type_t *t) {
    size_t n = 0;
    for (size_t i = 0; i < t->n_members; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = java_same_type(t->members[i], t->members[k]);
        n += !seen;
    }
    return n;
}

int java_union_side(const schema_type_t *t, const schema_type_t *m) {
    int side = 0;
    for (size_t i = 0; i < t->n_members; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = java_same_type(t->members[i], t->members[k]);
        if (seen) continue;
        if (java_same_type(t->members[i], m)) return side;
        side++;
    }
    return -1;
}

/* Here, not in walk.c beside the other typed values, because the checks pick union members too and
 * walk.c calls the checks (scripts/file-cycles.py: files do not call each other both ways). */
const schema_type_t *emit_union_pick(const schema_type_t *t, const pcl_expr_t *e, bool whole_for_int) {
    for (size_t i = 0; i < t->n_members; i++) {
        schema_kind_t k = t->members[i]->kind;
        bool fits = false;
        switch (e->kind) {
        case PCL_STRING: fits = k == SCHEMA_STRING || k == SCHEMA_ENUM; break;
        case PCL_NUMBER:
            fits = k == SCHEMA_NUMBER || (k == SCHEMA_INT && (!whole_for_int || names_number_is_int(e->n)));
            break;
        case PCL_BOOL: fits = k == SCHEMA_BOOL; break;
        case PCL_TUPLE: fits = k == SCHEMA_ARRAY; break;
        case PCL_OBJECT: fits = k == SCHEMA_OBJECT || k == SCHEMA_MAP; break;
        default: break;
        }
        if (fits) return t->members[i];
    }
    return NULL;
}

const schema_type_t *java_union_member(const schema_type_t *t, const pcl_expr_t *e) {
    bool literal = e->kind == PCL_STRING || e->kind == PCL_NUMBER || e->kind == PCL_BOOL || e->kind == PCL_TUPLE ||
                   e->kind == PCL_OBJECT;
    for (size_t i = 0; literal && e->type && e->type->kind != SCHEMA_UNION && i < t->n_members; i++)
        if (t->members[i] == e->type) return e->type; /* the binder's: by discriminator, or the first it fits */
    return literal ? emit_union_pick(t, e, false) : NULL;
}

/* Whether a resource's output of schema type rt is, in Java, the member m of a union: a scalar of its
 * kind or the same enum (an object's output class is not its input's Args class). */
static bool java_output_is_member(const schema_type_t *rt, const schema_type_t *m) {
    switch (rt->kind) {
    case SCHEMA_STRING:
    case SCHEMA_INT:
    case SCHEMA_NUMBER:
    case SCHEMA_BOOL: return m->kind == rt->kind;
    case SCHEMA_ENUM: return m->kind == SCHEMA_ENUM && rt->token && m->token && strcmp(rt->token, m->token) == 0;
    default: return false;
    }
}

/* Java: why value e at a position of union type t cannot be written, or NULL. pulumi-java types a
 * union of two Java types Either<L, R>, of more Object (a union of one type is that type); a builder
 * takes L or R in its place too (codegen's genBuilderHelpers). java.c writes a literal of a member (an
 * object the member the binder picked by its discriminator) as that member, in a list or map
 * Either.ofLeft/ofRight of it (java_union_value); a resource's output read whole at a property, when
 * it is required and of a member's type, made an Either in an apply (`.applyValue(Either::ofLeft)`),
 * or when both are Objects, as it is. */
static const char *java_union_lacks(const check_t *c, const expr_check_t *x, const pcl_expr_t *e) {
    bool whole = e == x->at->value && x->at->prop;
    const schema_type_t *t = whole ? x->at->prop->type : e->type;
    if (!t || t->kind != SCHEMA_UNION || e->kind == PCL_NULL || java_union_types(t) < 2) return NULL;
    const schema_type_t *member = java_union_member(t, e);
    if (member && java_needs_output_all(c->p, c->nodes, e, member))
        return arena_sprintf(c->a,
                             "'%s' gives a list or map holding outputs where the schema wants a value of a union "
                             "type; the Java emitter gathers such a list or map with Output.all only where the "
                             "builder takes the list or map type itself",
                             x->at->name);
    if (e->kind == PCL_STRING || e->kind == PCL_NUMBER || e->kind == PCL_BOOL || member) return NULL;
    bool optional = false;
    const schema_type_t *rt =
        whole && x->n->kind == PCL_NODE_RESOURCE && e->kind == PCL_TRAVERSAL && emit_has_output(c->p, c->nodes, e)
            ? output_read_type(c, e, &optional)
            : NULL;
    bool rt_enum = false; /* an output's union holding an enum is the enum's scalar type in pulumi-java */
    for (size_t i = 0; rt && rt->kind == SCHEMA_UNION && i < rt->n_members; i++)
        rt_enum |= rt->members[i]->kind == SCHEMA_ENUM;
    if (rt && rt->kind == SCHEMA_UNION && !rt_enum && java_union_types(rt) > 2 && java_union_types(t) > 2) return NULL;
    const schema_type_t *m = NULL;
    for (size_t i = 0; rt && java_union_types(t) == 2 && i < t->n_members && !m; i++)
        if (java_output_is_member(rt, t->members[i])) m = t->members[i];
    if (m && !optional) return NULL;
    if (m)
        return arena_sprintf(c->a,
                             "'%s' gives an optional output where the schema wants a value of a union type, "
                             "which pulumi-java types Either<L, R>: Either.ofLeft takes no null, and the Java "
                             "emitter does not write the unset case",
                             x->at->name);
    if (rt && rt->kind == SCHEMA_UNION)
        return arena_sprintf(c->a,
                             "'%s' gives an output of a union of object types (or of a union of other types) "
                             "where the schema wants a value of a union type: pulumi-java holds the output in "
                             "an Either of its output classes (or an Object) and the input in an Either of "
                             "its Args classes, and the Java emitter does not convert one to the other",
                             x->at->name);
    return arena_sprintf(c->a,
                         "'%s' gives %s where the schema wants a value of a union type, which pulumi-java types "
                         "Either<L, R> (or Object); the Java emitter writes there a literal of one of its "
                         "types, or a resource's required output of one of them at a resource's property",
                         x->at->name, e->kind == PCL_TUPLE || e->kind == PCL_OBJECT ? "a list or map" : "a value");
}

/* Whether traversal e reads below a resource reference (an output of resource type) otherwise than
 * res.ref.out with ref required (java.c java_traversal). */
static bool java_reads_resource_ref(const check_t *c, const pcl_expr_t *e) {
    for (size_t k = 1; k < e->trav.n; k++) {
        pcl_expr_t head = *e;
        head.trav.n = k;
        bool optional = false;
        const schema_type_t *t = output_read_type(c, &head, &optional);
        if (t && t->kind == SCHEMA_RESOURCE) return !(k == 1 && e->trav.n == 2 && !optional && e->trav.parts[1].attr);
    }
    return false;
}

/* The type token of the object entries() or lookup() reads by key, where that is an object of the
 * schema's type (the SDK's struct, its fields no keys: Pulumi's Go generator writes these calls over
 * maps only), or NULL. */
static const char *go_keyed_object(const check_t *c, const pcl_expr_t *e) {
    if (strcmp(e->call.name, "entries") != 0 && strcmp(e->call.name, "lookup") != 0) return NULL;
    const schema_type_t *t = output_read_type(c, e->call.args[0], NULL);
    return t && t->kind == SCHEMA_OBJECT ? (t->token ? t->token : "object") : NULL;
}

/* Go, C#, Java: why entries() or lookup() of an object of the schema's type cannot be written, or NULL
 * when it can. The SDK's struct's or class's fields are the schema's properties: entries() lists them when every one is
 * required (an optional one, unset, is no entry, and which are set is known at run time only);
 * lookup() with a literal key reads the required field it names, or gives the default for a key the
 * type does not have. The object is read by a traversal (written once per field). */
static const char *keyed_object_lacks(const check_t *c, const pcl_expr_t *e) {
    const schema_type_t *t = output_read_type(c, e->call.args[0], NULL);
    if (!t || t->kind != SCHEMA_OBJECT || !t->object) return NULL;
    const schema_object_t *o = t->object;
    bool optional = false;
    output_read_type(c, e->call.args[0], &optional);
    if (optional || e->call.args[0]->kind != PCL_TRAVERSAL)
        return "cimport reads its fields by the schema, and the object itself may be unset (optional)";
    if (strcmp(e->call.name, "entries") == 0) {
        for (size_t i = 0; i < o->n_props; i++)
            if (!o->props[i].required)
                return arena_sprintf(c->a,
                                     "cimport lists its fields by the schema, and '%s' is optional (unset, it is "
                                     "no entry)",
                                     o->props[i].name);
        return NULL;
    }
    const pcl_expr_t *key = e->call.n == 3 ? e->call.args[1] : NULL;
    if (!key || key->kind != PCL_STRING)
        return "cimport reads a field the schema names, and the key is not a literal string";
    const schema_property_t *p = schema_find_property(o->props, o->n_props, key->s);
    if (p && !p->required)
        return arena_sprintf(c->a, "cimport reads a field the schema names, and '%s' is optional", p->name);
    return NULL;
}

/* Whether `args` here is the hook's own (scope[0]), not a for-expression variable of that name. */
static bool hook_args(const expr_check_t *x, const pcl_expr_t *e) {
    if (e->kind != PCL_TRAVERSAL || strcmp(e->trav.root, "args") != 0) return false;
    for (size_t i = 1; i < x->n_scope; i++)
        if (strcmp(x->scope[i], "args") == 0) return false;
    return x->n_scope > 0 && strcmp(x->scope[0], "args") == 0;
}

static bool hook_reads(check_t *c, const expr_check_t *x, const pcl_expr_t *e, int line, int col) {
    if (hook_args(x, e)) {
        static const char *const ok[] = {"name", "type", "urn", "id"};
        bool known = false;
        for (size_t i = 0; e->trav.n == 1 && e->trav.parts[0].attr && i < sizeof ok / sizeof *ok; i++)
            known |= strcmp(ok[i], e->trav.parts[0].attr) == 0;
        if (!known)
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "the hook's command reads '%s', which cimport does not write yet (it writes "
                                 "args.name, args.type, args.urn and args.id)",
                                 expr_text(c->a, e)));
        return true;
    }
    if (emit_is_output_atom(c->p, c->nodes, e)) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "the hook's command reads the output '%s'; a hook runs its command with plain values, "
                             "so cimport does not write it",
                             expr_text(c->a, e)));
        return true;
    }
    return false;
}

/* The first null item of list or object literal e (its key in *key for an object), or NULL; Java:
 * also an item that may be null when the program runs (emit_may_be_null: a config value whose
 * default is null), which its List.of / Map.entry / Output.of refuse as they refuse null. */
static const pcl_expr_t *null_item(const check_t *c, const pcl_expr_t *e, const char **key) {
    size_t n = e->kind == PCL_TUPLE ? e->tuple.n : e->kind == PCL_OBJECT ? e->object.n : 0;
    for (size_t i = 0; i < n; i++) {
        const pcl_expr_t *v = e->kind == PCL_TUPLE ? e->tuple.items[i] : e->object.items[i].value;
        if (v->kind != PCL_NULL && !(c->lang == LANG_JAVA && emit_may_be_null(c->p, c->nodes, v))) continue;
        *key = e->kind == PCL_OBJECT ? e->object.items[i].key : NULL;
        return v;
    }
    return NULL;
}

typedef struct branch_call {
    const check_t *c;
    const pcl_expr_t *found;
} branch_call_t;

static bool branch_call_one(const pcl_expr_t *e, void *ctx) {
    branch_call_t *b = ctx;
    if (b->found) return false;
    if ((emit_is_invoke(e) || emit_is_method_call(e)) && emit_call_is_output(b->c->p, b->c->nodes, e)) b->found = e;
    return !b->found;
}

/* The output-valued invoke or method call PCL may not make at all where `e` stands: in a branch of
 * the conditional `e`, or in an argument of try() or can() (evaluated lazily: a failing argument is
 * the fallback); NULL when none. */
static const pcl_expr_t *branch_output_call(const check_t *c, const pcl_expr_t *e) {
    branch_call_t b = {c, NULL};
    if (e->kind == PCL_COND) {
        pcl_expr_walk(e->y, branch_call_one, &b);
        pcl_expr_walk(e->z, branch_call_one, &b);
    } else if (e->kind == PCL_CALL && (strcmp(e->call.name, "try") == 0 || strcmp(e->call.name, "can") == 0)) {
        for (size_t i = 0; i < e->call.n; i++)
            pcl_expr_walk(e->call.args[i], branch_call_one, &b);
    }
    return b.found;
}

/* A number beyond a float64 (a literal 1e999, a state's 1e400) is Infinity here: no emitter writes
 * one, nor PCL's printer (it would print null, the value unset), and Pulumi's own JSON decoding of a
 * state refuses it. Refused (true) with where it is and the fix. */
static bool refuse_infinite(check_t *c, const pcl_node_t *n, const pcl_attr_t *at, const pcl_expr_t *e, int line,
                            int col) {
    if (e->kind != PCL_NUMBER || isfinite(e->n)) return false;
    refuse(c, n, line, col,
           arena_sprintf(c->a, "'%s' has a number beyond a float64 (%s), which cimport does not write: %s", at->name,
                         e->n < 0 ? "-Infinity" : "Infinity",
                         line ? "write a number of at most 1.7976931348623157e308 in size"
                              : "correct the value where it comes from (the stack state) to a number of at most "
                                "1.7976931348623157e308 in size"));
    return true;
}

typedef struct finite_check {
    check_t *c;
    const pcl_node_t *n;
    const pcl_attr_t *at;
} finite_check_t;

static bool finite_one(const pcl_expr_t *e, void *ctx) {
    finite_check_t *f = ctx;
    int line = e->line ? e->line : f->at->line, col = e->line ? e->col : f->at->col;
    return !refuse_infinite(f->c, f->n, f->at, e, line, col);
}

bool emit_check_pcl(const pcl_program_t *p, diag_list_t *diags) {
    check_t c = {.p = p, .lang = LANG_PCL, .diags = diags, .a = arena_new(), .ok = true};
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        for (size_t k = 0; k < n->n_attrs + n->n_options; k++) {
            const pcl_attr_t *at = k < n->n_attrs ? &n->attrs[k] : &n->options[k - n->n_attrs];
            finite_check_t f = {&c, n, at};
            pcl_expr_walk(at->value, finite_one, &f);
        }
    }
    arena_free(c.a);
    return c.ok;
}

static bool check_one(const pcl_expr_t *e, void *ctx) {
    expr_check_t *x = ctx;
    check_t *c = x->c;
    int line = e->line ? e->line : x->at->line, col = e->line ? e->col : x->at->col;
    if (x->n->kind == PCL_NODE_HOOK && hook_reads(c, x, e, line, col)) return false;
    if (refuse_infinite(c, x->n, x->at, e, line, col)) return false;
    const pcl_expr_t *fc = emit_fn_call_under(e);
    if (fc && fc != e && !(fn_call_langs(fc) & L(c->lang))) { /* name the call, not the attribute read from it */
        refuse_fn_call(x, fc);
        return false;
    }
    /* Go reads attributes of an invoke's result as Output methods, or the whole read in an apply; a
     * method call's one attribute in an apply */
    if (fc && fc != e && c->lang == LANG_GO && emit_is_method_call(fc)) {
        for (const pcl_expr_t *k = e; k != fc; k = k->x)
            if (k->kind != PCL_GETATTR) {
                refuse(c, x->n, line, col,
                       arena_sprintf(c->a, "'%s' indexes the result of '%s', which the Go emitter cannot write yet",
                                     x->at->name, fc->function->token));
                return false;
            }
    }
    if (!(expr_langs(c, e) & L(c->lang))) {
        const char *what = pcl_expr_kind_name(e);
        if (e->op) what = arena_sprintf(c->a, "%s '%s'", what, e->op);
        /* Pulumi YAML's expressions are references, interpolation and fn:: functions only */
        bool yaml_lacks = c->lang == LANG_YAML && (e->kind == PCL_UNARY || e->kind == PCL_BINARY ||
                                                   e->kind == PCL_COND || e->kind == PCL_FOR || e->kind == PCL_SPLAT);
        refuse(c, x->n, line, col,
               yaml_lacks ? arena_sprintf(c->a,
                                          "'%s' uses %s; Pulumi YAML has no operators, conditionals or loops (its "
                                          "expressions are references, interpolation and fn:: functions), so it "
                                          "cannot be written in YAML",
                                          x->at->name, what)
                          : arena_sprintf(c->a, "'%s' uses %s, which the %s emitter cannot write yet", x->at->name,
                                          what, lang_title(c->lang)));
        return false;
    }
    /* The same apply head in a branch of a conditional, or in an argument of try() or can(): the call
     * is made whatever the test says (or outside the try), with the arguments the test guards
     * (`length(l) > 0 ? invoke(..., {value = l[0]}) : "none"` calls it with l[0] of an empty list);
     * PCL makes only the branch it takes, and try() gives its fallback (read12 F3, read13c F6). */
    const pcl_expr_t *bc = c->lang == LANG_TYPESCRIPT || c->lang == LANG_PYTHON ? branch_output_call(c, e) : NULL;
    if (bc) {
        refuse(c, x->n, line, col,
               e->kind == PCL_COND
                   ? arena_sprintf(c->a,
                                   "'%s' calls '%s' in a branch of a conditional; the %s emitter would make the "
                                   "call before the test, whichever branch it takes, so it cannot write this yet",
                                   x->at->name, bc->function->token, lang_title(c->lang))
                   : arena_sprintf(c->a,
                                   "'%s' calls '%s' inside %s(); the %s emitter would make the call outside it, "
                                   "where its failure is not caught, so it cannot write this yet",
                                   x->at->name, bc->function->token, e->call.name, lang_title(c->lang)));
        return false;
    }
    /* TypeScript and Python write an output-valued call (an invoke, secret(), toJSON over outputs,
     * try() over one) as the head of an apply around its whole expression: inside a for expression,
     * reading the loop's variables, it would be called once, before the loop, with whatever those
     * names mean there (read12 F3). One call per item is not written yet: refused. */
    if ((c->lang == LANG_TYPESCRIPT || c->lang == LANG_PYTHON) && e->kind == PCL_CALL && x->n->kind != PCL_NODE_HOOK &&
        scope_reads(x, e) && emit_call_is_output(c->p, c->nodes, e)) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "'%s' calls %s inside a for expression with the loop's variables; its value is an "
                             "output, which the %s emitter would compute once outside the loop, so it cannot "
                             "write this yet",
                             x->at->name,
                             emit_is_invoke(e) || emit_is_method_call(e)
                                 ? arena_sprintf(c->a, "'%s'", e->function ? e->function->token : e->call.name)
                                 : arena_sprintf(c->a, "%s()", e->call.name),
                             lang_title(c->lang)));
        return false;
    }
    /* YAML: pulumi-yaml reads a one-entry map whose key names a builtin (any case) as that call, and
     * reserves every key starting with fn:: (its tryParseFunction) */
    for (size_t i = 0; c->lang == LANG_YAML && e->kind == PCL_OBJECT && i < e->object.n; i++)
        if (strncasecmp(e->object.items[i].key, "fn::", 4) == 0) {
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' has the key '%s', which Pulumi YAML reads as a call of its built-in "
                                 "function (a key starting with fn:: is reserved), so it cannot be written in YAML",
                                 x->at->name, e->object.items[i].key));
            return false;
        }
    /* YAML: fn::toJSON is Go's json.Marshal, which writes < > & U+2028 U+2029 as \u003c ..., where PCL
     * (JSON.stringify) writes them as they are: a literal string holding one is refused */
    const char *html =
        c->lang == LANG_YAML && e->kind == PCL_CALL && strcmp(e->call.name, "toJSON") == 0 && e->call.n == 1
            ? yaml_json_escaped_literal(e->call.args[0])
            : NULL;
    if (html) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "'%s' calls toJSON() over the string \"%s\", which holds < > & or U+2028/U+2029; "
                             "Pulumi YAML's fn::toJSON (Go's json.Marshal) writes them escaped (\\u003c ...) "
                             "where PCL writes them as they are, so cimport does not write it in YAML",
                             x->at->name, html));
        return false;
    }
    /* YAML: pulumi-yaml's property access knows one escape in a quoted key, \" (its ast/property.go),
     * so a key ending in a backslash would escape its own closing quote */
    const char *bs_key = c->lang == LANG_YAML ? yaml_backslash_key(e) : NULL;
    if (bs_key) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "'%s' reads the key \"%s\", which ends with a backslash; Pulumi YAML's property "
                             "access takes \\\" in a key as a quote, so the read cannot be written in YAML",
                             x->at->name, bs_key));
        return false;
    }
    /* a string computed or read at a number or bool position: TypeScript and Python convert it as
     * Pulumi does (emit_string_conversion); a config value has its own check below */
    if (c->lang != LANG_TYPESCRIPT && c->lang != LANG_PYTHON && c->lang != LANG_PCL && !in_scope_any(x, e) &&
        emit_string_conversion(c->p, c->nodes, e) != EMIT_CONV_NONE && !(c->lang == LANG_GO && reads_id_map(c, e)) &&
        !((c->lang == LANG_CSHARP || c->lang == LANG_JAVA) &&
          emit_typed_string_conversion(c->p, c->nodes, e) != EMIT_CONV_NONE)) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a, "'%s' gives a string where the schema wants a %s; %s", x->at->name,
                             e->type->kind == SCHEMA_BOOL ? "boolean" : "number",
                             c->lang == LANG_YAML ? YAML_NO_STRING_CONVERSION : "cimport does not convert it yet"));
        return false;
    }
    /* C# and Java: an output's number, int or bool where the schema wants a string (PCL converts it):
     * an Output<double> is no Input<string> (Go converts it in an apply: go_output_to_string) */
    const schema_type_t *rt = (c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && e->type &&
                                      e->type->kind == SCHEMA_STRING && !in_scope_any(x, e) &&
                                      emit_has_output(c->p, c->nodes, e)
                                  ? emit_read_type(c->p, c->nodes, e)
                                  : NULL;
    if (rt && (rt->kind == SCHEMA_NUMBER || rt->kind == SCHEMA_INT || rt->kind == SCHEMA_BOOL)) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "'%s' gives an output's %s where the schema wants a string; the %s emitter does "
                             "not convert it yet",
                             x->at->name, rt->kind == SCHEMA_BOOL ? "boolean" : "number", lang_title(c->lang)));
        return false;
    }
    /* C# and Java: a whole number beyond an int where the schema wants an integer (an int) */
    if ((c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && e->kind == PCL_NUMBER && e->type &&
        e->type->kind == SCHEMA_INT && (e->n > 2147483647.0 || e->n < -2147483648.0)) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a, "'%s' gives a number beyond a %s int where the schema wants an integer", x->at->name,
                             lang_title(c->lang)));
        return false;
    }
    /* Java: a resource's list or map input of a type is a whole Output<List<T>> / Output<Map<String, T>>
     * or a plain List<T> / Map<String, T> in its builder (pulumi-java's SDKs), never a list or map of
     * Outputs: one at a resource's property is gathered with Output.all (java.c java_output_all);
     * deeper, refused */
    if (c->lang == LANG_JAVA && java_needs_output_all(c->p, c->nodes, e, e->type) &&
        !(x->n->kind == PCL_NODE_RESOURCE && e == x->at->value)) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "'%s' holds an output in a %s inside another value; Pulumi Java's builders take a "
                             "whole Output of a %s or a plain one, and the Java emitter gathers one only at a "
                             "resource's property",
                             x->at->name, e->kind == PCL_TUPLE ? "list" : "map",
                             e->kind == PCL_TUPLE ? "List" : "Map"));
        return false;
    }
    /* Java: a local whose value is a list or map literal holding outputs (or a secret() of one) is a
     * plain List<Object> / Map<String, Object> of them (or an Output of one), which no builder takes:
     * at a resource's property the value is gathered only where it is written (java_output_all) */
    if (c->lang == LANG_JAVA && x->n->kind == PCL_NODE_RESOURCE && e->kind == PCL_TRAVERSAL && e->trav.n == 0 &&
        !in_scope_any(x, e)) {
        int li = names_table_get(c->nodes, e->trav.root);
        const pcl_expr_t *lv = li >= 0 && c->p->nodes[li].kind == PCL_NODE_LOCAL && c->p->nodes[li].n_attrs
                                   ? c->p->nodes[li].attrs[0].value
                                   : NULL;
        if (lv && lv->kind == PCL_CALL && strcmp(lv->call.name, "secret") == 0 && lv->call.n == 1)
            lv = lv->call.args[0];
        if (lv && java_needs_output_all(c->p, c->nodes, lv, e->type)) {
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' reads the local '%s', a %s holding outputs; Pulumi Java's builders take a "
                                 "whole Output of a %s or a plain one, and the Java emitter gathers one only where "
                                 "it is written at a resource's property: write the value there",
                                 x->at->name, e->trav.root, lv->kind == PCL_TUPLE ? "list" : "map",
                                 lv->kind == PCL_TUPLE ? "List" : "Map"));
            return false;
        }
    }
    /* Java: a value at a union (java_union_lacks) */
    const char *union_why = c->lang == LANG_JAVA && !in_scope_any(x, e) ? java_union_lacks(c, x, e) : NULL;
    if (union_why) {
        refuse(c, x->n, line, col, union_why);
        return false;
    }
    /* Java: an output of a resource another resource's output refers to is an Output of its own, read by
     * java_traversal in an apply for a required reference read one level down only */
    if (c->lang == LANG_JAVA && e->kind == PCL_TRAVERSAL && !in_scope_any(x, e) && java_reads_resource_ref(c, e)) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "'%s' reads below a resource that an optional or nested output refers to; the Java "
                             "emitter reads an output of a required resource reference only (res.ref.out)",
                             x->at->name));
        return false;
    }
    /* Java: an unset optional list or map of an output type reads as an empty one (java_getter_optional),
     * so comparing it with null would always say it is set */
    if (c->lang == LANG_JAVA && e->kind == PCL_BINARY && (strcmp(e->op, "==") == 0 || strcmp(e->op, "!=") == 0) &&
        ((e->x->kind == PCL_NULL && java_reads_empty_for_unset(c, e->y)) ||
         (e->y->kind == PCL_NULL && java_reads_empty_for_unset(c, e->x)))) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "'%s' compares an optional list or map of an output type with null; pulumi-java's getter "
                             "gives an empty List or Map when it is unset, never null, so the comparison cannot be "
                             "written in Java",
                             x->at->name));
        return false;
    }
    /* Java's Output.ofSecret(null) and Output.of(null) (how java_output_all gathers a plain item) throw
     * NullPointerException; C#'s Output.CreateSecret(null) has no type to infer (CS0411) */
    if ((c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && e->kind == PCL_CALL && e->call.n == 1 &&
        e->call.args[0]->kind == PCL_NULL &&
        (strcmp(e->call.name, "secret") == 0 || strcmp(e->call.name, "unsecret") == 0)) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a, "'%s' calls %s() on null, which %s", x->at->name, e->call.name,
                             c->lang == LANG_JAVA ? "Pulumi Java's Output.ofSecret refuses (NullPointerException)"
                                                  : "C#'s Output.CreateSecret cannot type (CS0411)"));
        return false;
    }
    /* a list, map or object in a template: PCL converts only scalars to a string (C# would print a
     * type's name, System.String[], Java [a, b], TypeScript a,b or [object Object], Python ['a']);
     * null it does not convert at all (TypeScript would print undefined, Python None) */
    for (size_t i = 0; c->lang != LANG_PCL && e->kind == PCL_TEMPLATE && i < e->tuple.n; i++) {
        const pcl_expr_t *part = e->tuple.items[i];
        if (part->kind == PCL_NULL) {
            refuse(
                c, x->n, part->line ? part->line : line, part->line ? part->col : col,
                arena_sprintf(c->a, "'%s' interpolates null into a string, which PCL does not convert", x->at->name));
            return false;
        }
        if (c->lang != LANG_CSHARP && c->lang != LANG_JAVA && c->lang != LANG_TYPESCRIPT && c->lang != LANG_PYTHON &&
            c->lang != LANG_YAML)
            continue;
        /* YAML: pulumi-yaml prints an interpolated value with Go's %v and reads a template of one
         * reference as the value itself; a string is right either way, a number or bool is written
         * through fn::toJSON (emit_yaml_part_as_json), a value of no known type can be neither */
        emit_print_t yk = c->lang == LANG_YAML && part->kind != PCL_STRING ? emit_yaml_part_kind(c->p, c->nodes, part)
                                                                           : EMIT_PRINT_STRING;
        if (yk == EMIT_PRINT_DYNAMIC || yk == EMIT_PRINT_UNKNOWN) {
            refuse(c, x->n, part->line ? part->line : line, part->line ? part->col : col,
                   arena_sprintf(c->a,
                                 "'%s' interpolates '%s', a value of no known type, into a string; Pulumi YAML "
                                 "prints a number there in Go's form (1e+06 for 1000000) and reads a template of "
                                 "one reference as the value itself (not a string), so cimport cannot write it in "
                                 "YAML",
                                 x->at->name, expr_text(c->a, part)));
            return false;
        }
        if (part->kind == PCL_STRING ||
            (scope_reads(x, part) ? scope_print_kind(x, part) != EMIT_PRINT_COLLECTION : !collection_value(c, part)))
            continue;
        refuse(c, x->n, part->line ? part->line : line, part->line ? part->col : col,
               arena_sprintf(c->a,
                             "'%s' interpolates '%s', a list, map or object, into a string, which PCL does not "
                             "convert (only a string, number or bool)",
                             x->at->name, expr_text(c->a, part)));
        return false;
    }
    /* Java's toJSON is the toJson helper (java.c), which writes maps, lists, strings, numbers and
     * bools: a config value of no type is what Gson decodes (those), any other value of no type
     * refused (json_untyped) */
    if (c->lang == LANG_JAVA && e->kind == PCL_CALL && strcmp(e->call.name, "toJSON") == 0 && e->call.n == 1) {
        const pcl_expr_t *d = json_untyped(c, x, emit_java_json_arg(c->p, c->nodes, e->call.args[0]), 0);
        if (d) {
            refuse(c, x->n, d->line ? d->line : line, d->line ? d->col : col,
                   arena_sprintf(c->a,
                                 "'%s' calls toJSON() over '%s', a value of no type that cimport's Java toJson "
                                 "cannot write as PCL does (it writes a config value of no type as Gson decodes it, "
                                 "but not a resource's or invoke's output of no type, nor a config value whose "
                                 "default is a list or object, a Map.ofEntries of no order), so cimport does not "
                                 "write it",
                                 x->at->name, expr_text(c->a, d)));
            return false;
        }
    }
    /* join() of a list of bools or numbers: PCL joins them as it prints them; C#'s string.Join prints
     * a bool True (an object's too) and a double by the culture (an int as PCL does), Java's
     * String.join takes strings only; so does a list whose items' type is not known (a for
     * expression's, a conditional's, a mixed literal's: emit_scope_item_kind) */
    if ((c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && e->kind == PCL_CALL && strcmp(e->call.name, "join") == 0 &&
        e->call.n == 2) {
        emit_scope_t s = {x->scope, x->scope_coll, x->scope_is_key, x->scope_entries, x->n_scope, NULL};
        emit_print_t k = emit_scope_item_kind(c->p, c->nodes, &s, e->call.args[1], false);
        if (k != EMIT_PRINT_STRING && (k != EMIT_PRINT_INT || c->lang == LANG_JAVA)) {
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' joins a list of %s, which %s, so cimport does not write it", x->at->name,
                                 k == EMIT_PRINT_BOOL      ? "bools"
                                 : k == EMIT_PRINT_DYNAMIC ? "values of no type"
                                 : k == EMIT_PRINT_UNKNOWN ? "items of no one known type (it may hold bools or numbers)"
                                 : k == EMIT_PRINT_COLLECTION ? "lists, maps or objects"
                                                              : "numbers",
                                 c->lang == LANG_JAVA ? "Java's String.join does not take (it joins strings)"
                                                      : "C#'s string.Join prints otherwise than PCL (a bool True, a "
                                                        "double by the culture)"));
            return false;
        }
    }
    /* C#'s conditional needs one type for both branches: a value of no type (a JsonElement) beside
     * another (`true ? x : "y"`) has none (CS0173); Java's takes their common Object */
    if (c->lang == LANG_CSHARP && e->kind == PCL_COND && !in_scope_any(x, e->y) && !in_scope_any(x, e->z) &&
        emit_untyped_value(c->p, c->nodes, e->y) != emit_untyped_value(c->p, c->nodes, e->z)) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "'%s' has a conditional with a value of no type in one branch only, which C# holds as a "
                             "JsonElement: its branches have no one type (CS0173)",
                             x->at->name));
        return false;
    }
    /* ... and Java's Output.ofSecret of a config value whose default is null throws whenever it is unset */
    if (c->lang == LANG_JAVA && e->kind == PCL_CALL && e->call.n == 1 && strcmp(e->call.name, "secret") == 0 &&
        e->call.args[0]->kind == PCL_TRAVERSAL && e->call.args[0]->trav.n == 0) {
        int idx = names_table_get(c->nodes, e->call.args[0]->trav.root);
        const pcl_node_t *n = idx >= 0 ? &c->p->nodes[idx] : NULL;
        if (n && n->kind == PCL_NODE_CONFIG && n->n_attrs && n->attrs[0].value->kind == PCL_NULL) {
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' calls secret() on the config value '%s', whose default is null, which "
                                 "Pulumi Java's Output.ofSecret refuses (NullPointerException) whenever it is unset",
                                 x->at->name, n->name));
            return false;
        }
    }
    /* a null item Java or C# cannot hold: Java gathers a resource's list items with outputs with
     * Output.all, each plain item an Output.of(item), which throws on null; Java writes a map (an object
     * literal not of the schema's object type) as pulumi-java does, Map.ofEntries(Map.entry(k, v), ...),
     * and Map.entry throws on a null value; C#'s list of numbers or bools of the schema's is a double[]
     * / int[] / bool[] */
    const char *key = NULL, *why = NULL;
    const pcl_expr_t *nul = c->lang == LANG_JAVA || c->lang == LANG_CSHARP ? null_item(c, e, &key) : NULL;
    const schema_type_t *el = e->type && e->type->kind == SCHEMA_ARRAY ? e->type->element : NULL;
    const char *null_text =
        !nul || nul->kind == PCL_NULL ? "null" : arena_sprintf(c->a, "'%s', which may be null,", expr_text(c->a, nul));
    if (nul && c->lang == LANG_JAVA && e->kind == PCL_TUPLE && java_needs_output_all(c->p, c->nodes, e, e->type))
        why = arena_sprintf(c->a,
                            "'%s' holds %s in a list with outputs, which Java gathers with Output.all, each plain "
                            "item an Output.of(item), and Output.of(null) throws NullPointerException at run time",
                            x->at->name, null_text);
    else if (nul && c->lang == LANG_JAVA && e->kind == PCL_OBJECT &&
             !(e->type && e->type->kind == SCHEMA_OBJECT && e->type->object && e->type->token))
        why = arena_sprintf(c->a,
                            "'%s' holds %s as the value of '%s' in a map, which Java writes as pulumi-java does, "
                            "Map.ofEntries(Map.entry(...)), and Map.entry throws NullPointerException on a null "
                            "value at run time",
                            x->at->name, null_text, key);
    else if (nul && c->lang == LANG_CSHARP && e->kind == PCL_TUPLE && el &&
             (el->kind == SCHEMA_NUMBER || el->kind == SCHEMA_INT || el->kind == SCHEMA_BOOL))
        why = arena_sprintf(c->a, "'%s' holds null in a list of %ss, which C# holds as a %s[] of no null items",
                            x->at->name, el->kind == SCHEMA_BOOL ? "bool" : "number",
                            el->kind == SCHEMA_BOOL     ? "bool"
                            : el->kind == SCHEMA_NUMBER ? "double"
                                                        : "int");
    if (why) {
        refuse(c, x->n, nul->line ? nul->line : line, nul->line ? nul->col : col, why);
        return false;
    }
    bool typed = c->lang == LANG_CSHARP || c->lang == LANG_JAVA; /* convert a config value's (walk.c typed_operand) */
    bool held = false;
    const pcl_expr_t *uo = typed && !in_scope_any(x, e) ? untyped_read_operand(c, e, &held) : NULL;
    if (uo && !in_scope_any(x, uo)) {
        /* an item of a held literal: C#'s object?, Java's Object (of no one type) */
        const pcl_expr_t *item = held ? local_holds_held_item(c, uo) : NULL;
        const char *what = !held  ? "a value of no type"
                           : item ? arena_sprintf(c->a, "which holds an item of the literal the local '%s' holds (%s)",
                                                  item->trav.root, expr_text(c->a, item))
                                  : arena_sprintf(c->a, "an item of the literal the local '%s' holds", uo->trav.root);
        const char *does = held
                               ? "writes only whole (an output's value, a list's or an object's item)"
                               : "does not convert yet (it writes it whole, in arithmetic or in a list or object only)";
        refuse(c, x->n, uo->line ? uo->line : line, uo->line ? uo->col : col,
               arena_sprintf(
                   c->a, "'%s' reads '%s', %s, into %s, which the %s emitter %s", x->at->name, expr_text(c->a, uo),
                   what, e->op ? arena_sprintf(c->a, "%s '%s'", pcl_expr_kind_name(e), e->op) : pcl_expr_kind_name(e),
                   lang_title(c->lang), does));
        return false;
    }
    /* C#'s == of a value of no type of its own (emit_dynamic_value: an object compares references, "a"
     * read from a stack output is not "a"; a JsonElement's does not compile), of a list, map or object
     * (arrays, dictionaries and the SDK's classes compare references: ["a"] == ["a"] is false);
     * TypeScript's likewise compares arrays and objects by reference and converts a value of no type
     * ("1" == 1, 1 == true) */
    if ((c->lang == LANG_CSHARP || c->lang == LANG_TYPESCRIPT) && e->kind == PCL_BINARY &&
        emit_binop_prec(e->op) == 3 && !null_compared(e)) {
        const pcl_expr_t *ops[2] = {e->x, e->y}, *d = NULL;
        emit_print_t kind = EMIT_PRINT_STRING;
        for (int k = 0; k < 2 && !d; k++) {
            if (scope_reads(x, ops[k])) /* a for expression's variable: by its collection's items */
                kind = scope_print_kind(x, ops[k]);
            else
                kind = emit_dynamic_value(c->p, c->nodes, ops[k])
                           ? EMIT_PRINT_DYNAMIC
                           : (collection_value(c, ops[k]) ? EMIT_PRINT_COLLECTION : EMIT_PRINT_STRING);
            emit_print_t other = scope_print_kind(x, ops[1 - k]);
            if (c->lang == LANG_TYPESCRIPT && kind == EMIT_PRINT_DYNAMIC && !scope_reads(x, ops[k]) &&
                (other == EMIT_PRINT_STRING || other == EMIT_PRINT_BOOL || other == EMIT_PRINT_INT ||
                 other == EMIT_PRINT_NUMBER))
                continue; /* with a string, bool or number: TypeScript writes === (emit_strict_equality) */
            if (kind == EMIT_PRINT_DYNAMIC || kind == EMIT_PRINT_COLLECTION || kind == EMIT_PRINT_UNKNOWN) d = ops[k];
        }
        if (d) {
            bool dynamic = kind != EMIT_PRINT_COLLECTION;
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' compares '%s', %s, with '%s': %s, so cimport does not write it",
                                 x->at->name, expr_text(c->a, d),
                                 kind == EMIT_PRINT_DYNAMIC   ? "a value of no type of its own"
                                 : kind == EMIT_PRINT_UNKNOWN ? "a for expression's value of no one known type"
                                                              : "a list, map or object",
                                 e->op,
                                 c->lang == LANG_TYPESCRIPT
                                     ? (dynamic ? "TypeScript's == converts between types (\"1\" == 1, 1 == true) "
                                                  "where PCL's values of two types differ"
                                                : "TypeScript's == compares arrays and objects by reference")
                                 : dynamic
                                     ? "C# holds it as an object, whose == compares references (or a JsonElement, "
                                       "which has no ==)"
                                     : "C#'s == compares arrays, dictionaries and objects by reference"));
            return false;
        }
    }
    /* Python's == takes a bool for a number (True == 1): a value of no type compared with a bool or a
     * number (or another of no type), a bool with a number */
    if (c->lang == LANG_PYTHON && e->kind == PCL_BINARY && emit_binop_prec(e->op) == 3 && !null_compared(e)) {
        emit_print_t k[2] = {scope_print_kind(x, e->x), scope_print_kind(x, e->y)};
        for (int i = 0; i < 2; i++) {
            bool untyped = k[i] == EMIT_PRINT_DYNAMIC || k[i] == EMIT_PRINT_UNKNOWN;
            emit_print_t o = k[1 - i];
            bool numeric = o == EMIT_PRINT_INT || o == EMIT_PRINT_NUMBER;
            if (!(untyped && (numeric || o == EMIT_PRINT_BOOL || o == EMIT_PRINT_DYNAMIC || o == EMIT_PRINT_UNKNOWN)) &&
                !(k[i] == EMIT_PRINT_BOOL && numeric))
                continue;
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' compares '%s', %s, with '%s': Python's %s takes True for 1 (a bool is an int) "
                                 "where PCL's values of two types differ, so cimport does not write it",
                                 x->at->name, expr_text(c->a, i ? e->y : e->x),
                                 k[i] == EMIT_PRINT_BOOL      ? "a bool"
                                 : k[i] == EMIT_PRINT_DYNAMIC ? "a value of no type of its own"
                                                              : "a value of no one known type",
                                 expr_text(c->a, i ? e->x : e->y), e->op));
            return false;
        }
    }
    /* `+` of a string and a bool (C#), a number or a value of no type: PCL's + adds numbers; C# and Java
     * join the string with the other as they print it (C#: True, 1,5 by the culture; Java: 1.0), where
     * TypeScript prints true, 1.5, 1 */
    if ((c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && e->kind == PCL_BINARY && strcmp(e->op, "+") == 0) {
        emit_print_t k[2] = {scope_print_kind(x, e->x), scope_print_kind(x, e->y)};
        for (int i = 0; i < 2; i++) {
            emit_print_t o = k[1 - i];
            bool joins_otherwise = o == EMIT_PRINT_NUMBER || o == EMIT_PRINT_DYNAMIC || o == EMIT_PRINT_UNKNOWN ||
                                   (o == EMIT_PRINT_BOOL && c->lang == LANG_CSHARP);
            if (k[i] != EMIT_PRINT_STRING || !joins_otherwise) continue;
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' adds a string and '%s' with '+', which PCL does not (its + adds numbers) and "
                                 "%s would join as it prints the %s",
                                 x->at->name, expr_text(c->a, i ? e->x : e->y), lang_title(c->lang),
                                 o == EMIT_PRINT_BOOL      ? "bool (True)"
                                 : o == EMIT_PRINT_NUMBER  ? "number"
                                 : o == EMIT_PRINT_UNKNOWN ? "value (of no one known type: a bool or number prints so)"
                                                           : "value"));
            return false;
        }
    }
    /* PCL's arithmetic (+ - * / %) and order (< <= > >=) take numbers, converting a string ("10" + "5"
     * is 15, "10" < "9" false), where each language's operator joins, repeats or orders the text
     * (TypeScript "105", Python "2" * 3 "222"); and a for expression's item of no type (or of no one
     * known type) TypeScript and Python would add or repeat as it is ("1" + 1 is "11"; a value of no
     * type read whole is converted, Number(x)) */
    if (c->lang != LANG_PCL && e->kind == PCL_BINARY && emit_binop_prec(e->op) >= 4) {
        for (int i = 0; i < 2; i++) {
            const pcl_expr_t *o = i ? e->y : e->x;
            emit_print_t k = scope_print_kind(x, o);
            bool item = (c->lang == LANG_TYPESCRIPT || c->lang == LANG_PYTHON) && emit_binop_prec(e->op) >= 5 &&
                        scope_reads(x, o) && (k == EMIT_PRINT_DYNAMIC || k == EMIT_PRINT_UNKNOWN);
            if (k != EMIT_PRINT_STRING && !item) continue;
            bool order = emit_binop_prec(e->op) == 4;
            const char *what = k == EMIT_PRINT_STRING ? "a string" : "a for expression's item of no known type";
            refuse(c, x->n, line, col,
                   arena_sprintf(
                       c->a,
                       "'%s' %s: PCL's %s takes numbers (a string converts to one), where %s's would %s, so "
                       "cimport does not write it",
                       x->at->name,
                       order ? arena_sprintf(c->a, "compares '%s', %s, with '%s'", expr_text(c->a, o), what, e->op)
                             : arena_sprintf(c->a, "computes '%s' over '%s', %s", e->op, expr_text(c->a, o), what),
                       e->op, lang_title(c->lang),
                       order                    ? "order the text"
                       : k == EMIT_PRINT_STRING ? "join or repeat the text"
                                                : "join or repeat an item that is a string"));
            return false;
        }
    }
    /* arithmetic over a value of no type: Pulumi converts it (Number(x), float(x)), as TypeScript and
     * Python do, and Go asserts it a number; the other emitters do not yet */
    if (e->kind == PCL_BINARY && emit_binop_prec(e->op) >= 5 && c->lang != LANG_TYPESCRIPT && c->lang != LANG_PYTHON &&
        c->lang != LANG_GO && /* Go asserts it a float64 (go.c go_arith_operand) */
        ((!in_scope_any(x, e->x) && emit_untyped_value(c->p, c->nodes, e->x) &&
          !(typed && emit_untyped_config_read(c->p, c->nodes, e->x))) ||
         (!in_scope_any(x, e->y) && emit_untyped_value(c->p, c->nodes, e->y) &&
          !(typed && emit_untyped_config_read(c->p, c->nodes, e->y))))) {
        refuse(c, x->n, line, col,
               arena_sprintf(c->a,
                             "'%s' computes '%s' over a value of no type, which the %s emitter does not convert to "
                             "a number yet",
                             x->at->name, e->op, lang_title(c->lang)));
        return false;
    }
    switch (e->kind) {
    case PCL_TRAVERSAL: {
        int idx = in_scope(x, e->trav.root) ? -1 : names_table_get(c->nodes, e->trav.root);
        if (!in_scope(x, e->trav.root) && idx < 0 && !pcl_program_is_external(c->p, e->trav.root))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' refers to '%s', which the program does not declare", x->at->name,
                                 e->trav.root));
        /* C# and Java read a value of no type (a config block without one) only as a whole: their
         * `object` / `Object` has no members to read (`anyObject.A`, `anyObject.a()` do not compile) */
        bool untyped_read = emit_untyped_config_read(c->p, c->nodes, e), untyped_config = e->trav.n > 0 && untyped_read;
        /* a JsonElement / Gson's Object (whole too) is no string, number, list, ...: only an input of
         * any type takes it */
        if (idx >= 0 && (c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && untyped_read && e->type &&
            e->type->kind != SCHEMA_ANY && e->type->kind != SCHEMA_JSON)
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' passes '%s', a value of no type, where the schema wants a value of a type, "
                                 "which the %s emitter does not convert yet",
                                 x->at->name, expr_text(c->a, e), lang_title(c->lang)));
        if (idx >= 0 && (c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && e->trav.n > 0 && !untyped_config &&
            node_untyped(c->p, c->nodes, &c->p->nodes[idx]))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' reads into '%s', a value of no type, which the %s emitter cannot write yet",
                                 x->at->name, e->trav.root, lang_title(c->lang)));
        /* what C# and Java read into a config value follows its list and map types (an index into a
         * list, a key of a map) down to a value of no type, read into as a JsonElement / Gson's Object */
        if (idx >= 0 && (c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && e->trav.n > 0 &&
            c->p->nodes[idx].kind == PCL_NODE_CONFIG && !node_untyped(c->p, c->nodes, &c->p->nodes[idx]) &&
            !config_read_typed(&c->p->nodes[idx], e))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' reads into the config value '%s' of type %s other than by its list and map "
                                 "types, which the %s emitter cannot write",
                                 x->at->name, e->trav.root, c->p->nodes[idx].token ? c->p->nodes[idx].token : "string",
                                 lang_title(c->lang)));
        /* a config value of another scalar type than the input wants needs a conversion (Pulumi's
         * generators write one: `Number(x)`, `x === "true"`); every emitter but YAML's writes it (TypeScript
         * and Python as Pulumi does), and no language converts between numbers and booleans (PCL has
         * no such conversion), so those are refused */
        if (idx >= 0 && c->lang != LANG_PCL && c->p->nodes[idx].kind == PCL_NODE_CONFIG && e->trav.n == 0 &&
            config_needs_conversion(&c->p->nodes[idx], e->type) &&
            ((c->lang != LANG_TYPESCRIPT && c->lang != LANG_PYTHON && c->lang != LANG_GO && c->lang != LANG_CSHARP &&
              c->lang != LANG_JAVA && !(c->lang == LANG_YAML && emit_yaml_config_to_string(c->p, c->nodes, e))) ||
             emit_config_conversion(&c->p->nodes[idx], e->type) == EMIT_CONV_UNSUPPORTED)) {
            const char *from = c->p->nodes[idx].token ? c->p->nodes[idx].token : "string";
            bool yaml_lacks =
                c->lang == LANG_YAML && strcmp(from, "string") == 0 && e->type &&
                (e->type->kind == SCHEMA_BOOL || e->type->kind == SCHEMA_NUMBER || e->type->kind == SCHEMA_INT);
            refuse(c, x->n, line, col,
                   yaml_lacks
                       ? arena_sprintf(c->a,
                                       "'%s' passes the config value '%s' (string) where the schema wants a "
                                       "%s; %s",
                                       x->at->name, e->trav.root, e->type->kind == SCHEMA_BOOL ? "boolean" : "number",
                                       YAML_NO_STRING_CONVERSION)
                       : arena_sprintf(c->a,
                                       "'%s' passes the config value '%s' (%s) where the schema wants %s; cimport "
                                       "does not write the conversion yet",
                                       x->at->name, e->trav.root, from, schema_kind_text(e->type)));
        }
        /* C#: a resource's optional output of a value type is an Output<bool?> (double?, int?), which
         * an Input<bool> does not take (Input<T> converts from T and Output<T> only) */
        if (c->lang == LANG_CSHARP && idx >= 0 && e->trav.n >= 1 && e->trav.parts[0].attr && e->type &&
            c->p->nodes[idx].kind == PCL_NODE_RESOURCE && c->p->nodes[idx].schema &&
            (e->type->kind == SCHEMA_BOOL || e->type->kind == SCHEMA_INT || e->type->kind == SCHEMA_NUMBER)) {
            static const char *const cs_type[] = {
                [SCHEMA_BOOL] = "bool", [SCHEMA_INT] = "int", [SCHEMA_NUMBER] = "double"};
            /* what is read below it too (`.Apply(v => v?.Size)`): optional if any property on the way is */
            bool optional = false;
            const schema_type_t *t = output_read_type(c, e, &optional);
            if (optional && t && t->kind == e->type->kind)
                refuse(c, x->n, line, col,
                       arena_sprintf(c->a,
                                     "'%s' passes the optional output '%s', an Output<%s?> in C#, where an "
                                     "Input<%s> is wanted; C# has no conversion that keeps it unset",
                                     x->at->name, expr_text(c->a, e), cs_type[e->type->kind], cs_type[e->type->kind]));
        }
        /* C# and Java read a traversal's first attribute as a resource output's getter; what is read
         * from a local holding an invoke's result is read in an apply (typed_reads_invoke_local) */
        if (idx >= 0 && c->p->nodes[idx].kind == PCL_NODE_LOCAL && e->trav.n > 0 &&
            (c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && !typed_reads_invoke_local(c, &c->p->nodes[idx], e) &&
            !typed_reads_held_local(c, &c->p->nodes[idx], e) && !reads_id_map(c, e))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' reads into the local '%s', which the %s emitter cannot write yet",
                                 x->at->name, e->trav.root, lang_title(c->lang)));
        return false;
    }
    case PCL_CALL: {
        if (e->function) { /* invoke() and call(), bound to their function */
            if (!(fn_call_langs(e) & L(c->lang))) refuse_fn_call(x, e);
            return true;
        }
        const pcl_function_t *f = pcl_function_find(e->call.name);
        const char *lacks = pulumi_lacks(e->call.name, c->lang);
        if (f && !pcl_function_arity_ok(f, e->call.n))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' calls %s() with %zu argument%s; it takes %s", x->at->name, e->call.name,
                                 e->call.n, e->call.n == 1 ? "" : "s", pcl_function_arity(f)));
        else if (!(function_langs(e->call.name) & L(c->lang)) && c->lang == LANG_YAML && f)
            /* the YAML emitter writes every PCL function Pulumi YAML has a built-in for */
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' calls the function %s(); Pulumi YAML has no such function among its fn:: "
                                 "built-ins, so it cannot be written in YAML",
                                 x->at->name, e->call.name));
        else if (c->lang == LANG_JAVA && strcmp(e->call.name, "rootDirectory") == 0)
            refuse(c, x->n, line, col, arena_sprintf(c->a, "'%s': %s", x->at->name, JAVA_NO_ROOT_DIRECTORY));
        else if (!(function_langs(e->call.name) & L(c->lang)) && lacks)
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' calls the function %s(), which Pulumi's own %s program generator does not "
                                 "write either (%s)",
                                 x->at->name, e->call.name, lang_title(c->lang), lacks));
        else if (!(function_langs(e->call.name) & L(c->lang)))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' calls the function %s(), which the %s emitter cannot translate yet",
                                 x->at->name, e->call.name, lang_title(c->lang)));
        else if (e->call.expand_final && (strcmp(e->call.name, "min") != 0 && strcmp(e->call.name, "max") != 0))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' expands the final argument of %s() ('...'), which cimport writes for min() "
                                 "and max() only",
                                 x->at->name, e->call.name));
        else if (e->call.expand_final && emit_has_output(c->p, c->nodes, e->call.args[e->call.n - 1]))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' expands an output as the final argument of %s() ('...')", x->at->name,
                                 e->call.name));
        else if (strcmp(e->call.name, "getOutput") == 0 && !stack_reference(c, e->call.args[0]))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' calls getOutput() on something other than a pulumi:pulumi:StackReference "
                                 "resource of the program",
                                 x->at->name));
        else if (c->lang == LANG_CSHARP && strcmp(e->call.name, "notImplemented") == 0 && !cs_not_implemented_ok(x, e))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' calls notImplemented() where C# wants a typed value; cimport writes it (an "
                                 "object) as a stack output's value or a hook's command word only",
                                 x->at->name));
        else if ((c->lang == LANG_GO || c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && go_keyed_object(c, e) &&
                 keyed_object_lacks(c, e))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' calls %s() on '%s', an object of the schema's type %s, which %s: %s",
                                 x->at->name, e->call.name, expr_text(c->a, e->call.args[0]), go_keyed_object(c, e),
                                 c->lang == LANG_GO       ? "Go holds in a struct"
                                 : c->lang == LANG_CSHARP ? "Pulumi .NET holds in a class"
                                                          : "Pulumi Java holds in a class",
                                 keyed_object_lacks(c, e)));
        else if (c->lang == LANG_JAVA && strcmp(e->call.name, "toJSON") == 0 && java_json_lacks(c, e))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' calls toJSON() %s", x->at->name, java_json_lacks(c, e)));
        else if ((c->lang == LANG_CSHARP || c->lang == LANG_JAVA) &&
                 (strcmp(e->call.name, "can") == 0 || strcmp(e->call.name, "try") == 0) &&
                 typed_can_try_misfit(c, x, e))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' calls %s() where a %s is wanted, and the %s emitter cannot tell its value is "
                                 "one (%s's %s() gives one type: %s)",
                                 x->at->name, e->call.name, typed_can_try_misfit(c, x, e), lang_title(c->lang),
                                 lang_title(c->lang), e->call.name,
                                 strcmp(e->call.name, "can") == 0 ? (c->lang == LANG_JAVA ? "a boolean" : "a bool")
                                 : c->lang == LANG_JAVA           ? "the one its arguments share, else Object"
                                                                  : "the one its arguments share, else object?"));
        else if (!typed_call_args_ok(c, e))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a, "'%s' calls %s() %s, which the %s emitter cannot write yet", x->at->name,
                                 e->call.name,
                                 strcmp(e->call.name, "unsecret") == 0 ? "on a plain value"
                                 : emit_has_output(c->p, c->nodes, e)  ? "over an output"
                                 : strcmp(e->call.name, "split") == 0
                                     ? "with a separator that is \"\" or not a literal free of regular-expression "
                                       "characters"
                                 : strcmp(e->call.name, "min") == 0 || strcmp(e->call.name, "max") == 0
                                     ? "with other arguments than two numbers or one list expanded"
                                 : strncmp(e->call.name, "pulumiResource", 14) == 0
                                     ? "on something other than a resource of the program"
                                     : "on a value it cannot tell is a string, a list or a map",
                                 lang_title(c->lang)));
        else if (c->lang == LANG_YAML && strcmp(e->call.name, "element") == 0 && !emit_element_index(e, &(double){0}))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' calls element() with an index Pulumi YAML cannot wrap around the list's "
                                 "length: PCL's element() takes the index modulo the length, fn::select takes it as "
                                 "it is and Pulumi YAML has no arithmetic (cimport writes an index of 0, or a "
                                 "literal index into a literal list)",
                                 x->at->name));
        else if (c->lang == LANG_YAML && strcmp(e->call.name, "getOutput") == 0 && e->call.args[1]->kind != PCL_STRING)
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' calls getOutput() with a computed name; Pulumi YAML reads a stack reference's "
                                 "output by a literal name (${ref.outputs[\"name\"]})",
                                 x->at->name));
        else if (!check_call_shape(c, e))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' calls %s() on a value the %s emitter cannot tell is a string, a list or a map; "
                                 "assign it to a typed config value or a local first",
                                 x->at->name, e->call.name, lang_title(c->lang)));
        else if (strcmp(e->call.name, "recover") == 0 && f && pcl_function_arity_ok(f, e->call.n)) {
            /* recover(output, value): the value, computed from the failure's message `error`, when
             * the output fails; the SDKs recover an Output with a function of plain values */
            if (!emit_has_output(c->p, c->nodes, e->call.args[0]) || emit_has_output(c->p, c->nodes, e->call.args[1]))
                refuse(c, x->n, line, col,
                       arena_sprintf(c->a,
                                     "'%s' calls recover() on a value that is not an output, or recovers with one; "
                                     "cimport writes recover(output, plain value)",
                                     x->at->name));
        }
        if (strcmp(e->call.name, "recover") == 0 && f && pcl_function_arity_ok(f, e->call.n)) {
            check_recover_args(x, e); /* accepted or refused: its value reads `error` */
            return false;
        }
        return true;
    }
    case PCL_FOR: {
        if (c->lang == LANG_JAVA && java_for_raw_items(c, e->x))
            refuse(c, x->n, line, col,
                   arena_sprintf(c->a,
                                 "'%s' iterates over '%s', whose items are lists or maps holding ints, which "
                                 "pulumi-java's config getters decode as Doubles (Gson's raw List and Map); the Java "
                                 "emitter converts such an int only where it reads one from the config value itself",
                                 x->at->name, expr_text(c->a, e->x)));
        /* C#'s items of no one type (an object?[] literal, a Dictionary<string, object?>) compare by
         * reference: `v == "a"` is false for a string equal to "a" that is not the same object */
        emit_print_t item =
            c->lang == LANG_CSHARP ? emit_print_item_kind(c->p, c->nodes, e->x, false) : EMIT_PRINT_STRING;
        const pcl_expr_t *cmp = NULL;
        for (int k = 0; k < 3 && !cmp && (item == EMIT_PRINT_UNKNOWN || item == EMIT_PRINT_DYNAMIC); k++)
            cmp = compares_var(k == 0 ? e->y : k == 1 ? e->z : e->w, e->vvar);
        if (cmp) {
            refuse(c, x->n, cmp->line ? cmp->line : line, cmp->line ? cmp->col : col,
                   arena_sprintf(c->a,
                                 "'%s' compares '%s', an item of '%s', which C# holds as an object (its items are of "
                                 "no one type), with '%s': C#'s == compares objects by reference, so cimport does "
                                 "not write it",
                                 x->at->name, e->vvar, expr_text(c->a, e->x), cmp->op));
            return false;
        }
        /* the body sees the for variables */
        pcl_expr_walk(e->x, check_one, x);
        expr_check_t in = scope_with(x, 2);
        if (e->kvar) scope_add(&in, e->kvar, e->x, true, false);
        scope_add(&in, e->vvar, e->x, false, e->x->kind == PCL_CALL && strcmp(e->x->call.name, "entries") == 0);
        pcl_expr_walk(e->y, check_one, &in);
        pcl_expr_walk(e->z, check_one, &in);
        pcl_expr_walk(e->w, check_one, &in);
        return false;
    }
    default: return true;
    }
}

static bool key_in(const char *k, const char *const *keys) {
    for (; *keys; keys++)
        if (strcmp(*keys, k) == 0) return true;
    return false;
}

/* The shape an option's value must have for every emitter to write it with its meaning. */
/* What Pulumi YAML's resource options cannot hold: a read timeout (its customTimeouts are create,
 * update and delete). Its aliases are URNs or alias objects (pulumi-yaml #936); an object's name,
 * type and noParent are written as they are, its parent resource as the resource's URN (`${res.urn}`,
 * a string Output, which #936 takes as the parent URN), while a parent of another kind, stack and
 * project are not written yet. */
static void check_yaml_option(check_t *c, const pcl_node_t *n, const pcl_attr_t *o) {
    const pcl_expr_t *v = o->value;
    for (size_t i = 0; pcl_option_kind(o->name) == PCL_OPT_ALIASES && v->kind == PCL_TUPLE && i < v->tuple.n; i++) {
        const pcl_expr_t *it = v->tuple.items[i];
        for (size_t k = 0; it->kind == PCL_OBJECT && k < it->object.n; k++) {
            const char *key = it->object.items[k].key;
            const pcl_expr_t *p = it->object.items[k].value;
            int idx = p->kind == PCL_TRAVERSAL && p->trav.n == 0 ? names_table_get(c->nodes, p->trav.root) : -1;
            if (strcmp(key, "parent") == 0 && idx >= 0 && c->p->nodes[idx].kind == PCL_NODE_RESOURCE) continue;
            if (strcmp(key, "parent") == 0 || strcmp(key, "stack") == 0 || strcmp(key, "project") == 0) {
                refuse(c, n, o->line, o->col,
                       arena_sprintf(c->a, "aliases item %zu: the YAML emitter does not write an alias's %s yet", i + 1,
                                     key));
                return;
            }
        }
    }
    for (size_t k = 0; pcl_option_kind(o->name) == PCL_OPT_TIMEOUTS && v->kind == PCL_OBJECT && k < v->object.n; k++)
        if (strcmp(v->object.items[k].key, "read") == 0)
            refuse(c, n, o->line, o->col,
                   "customTimeouts.read: Pulumi YAML's customTimeouts are create, update and delete only, so a read "
                   "timeout cannot be written in YAML");
}

bool emit_duration_seconds(const char *s, double *seconds) {
    static const struct {
        const char *unit;
        double seconds;
    } units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"\xc2\xb5s", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"h", 3600}};
    double total = 0;
    if (!s || !*s) return false;
    if (strcmp(s, "0") == 0) { /* the one duration without a unit */
        *seconds = 0;
        return true;
    }
    while (*s) {
        char *end = NULL;
        if ((*s < '0' || *s > '9') && *s != '.') return false;
        double v = strtod(s, &end);
        if (end == s) return false;
        size_t best = 0, best_len = 0;
        for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
            size_t len = strlen(units[i].unit);
            if (strncmp(end, units[i].unit, len) == 0 && len > best_len) best = i, best_len = len;
        }
        if (!best_len) return false;
        total += v * units[best].seconds;
        s = end + best_len;
    }
    *seconds = total;
    return true;
}

/* C#'s and Java's CustomTimeouts (their SDKs') hold create, update and delete, no read. Java parses
 * a duration string at run time (a literal or a plain string config value); C# takes a TimeSpan,
 * written from a duration literal. */
static void check_typed_timeouts(check_t *c, const pcl_node_t *n, const pcl_attr_t *o) {
    const pcl_expr_t *v = o->value;
    const char *sdk = c->lang == LANG_JAVA ? "Java" : ".NET";
    for (size_t k = 0; v->kind == PCL_OBJECT && k < v->object.n; k++) {
        const char *key = v->object.items[k].key;
        const pcl_expr_t *t = v->object.items[k].value;
        double secs = 0;
        int idx = t->kind == PCL_TRAVERSAL && !t->trav.n ? names_table_get(c->nodes, t->trav.root) : -1;
        const pcl_node_t *cfg = idx >= 0 && c->p->nodes[idx].kind == PCL_NODE_CONFIG ? &c->p->nodes[idx] : NULL;
        bool plain_string = cfg && !cfg->config_secret && (!cfg->token || strcmp(cfg->token, "string") == 0);
        if (strcmp(key, "read") == 0)
            refuse(c, n, o->line, o->col,
                   arena_sprintf(c->a,
                                 "customTimeouts.read: Pulumi %s's CustomTimeouts are create, update and delete "
                                 "only, so a read timeout cannot be written in %s",
                                 sdk, lang_title(c->lang)));
        else if (c->lang == LANG_JAVA && t->kind != PCL_STRING && !plain_string)
            refuse(c, n, o->line, o->col,
                   arena_sprintf(c->a,
                                 "customTimeouts.%s: Java's CustomTimeouts take a plain duration; the Java emitter "
                                 "writes a literal or a string config value only",
                                 key));
        else if (c->lang == LANG_CSHARP && t->kind != PCL_STRING)
            refuse(c, n, o->line, o->col,
                   arena_sprintf(c->a,
                                 "customTimeouts.%s: C#'s CustomTimeouts take a TimeSpan, which the C# emitter "
                                 "writes from a duration literal only",
                                 key));
        else if (t->kind == PCL_STRING && !emit_duration_seconds(t->s, &secs))
            refuse(c, n, o->line, o->col,
                   arena_sprintf(c->a, "customTimeouts.%s: \"%s\" is not a duration such as \"5m\"", key, t->s));
    }
}

static void check_option_value(check_t *c, const pcl_node_t *n, const pcl_attr_t *o) {
    const pcl_expr_t *v = o->value;
    if (c->lang == LANG_YAML) check_yaml_option(c, n, o);
    if ((c->lang == LANG_CSHARP || c->lang == LANG_JAVA) && pcl_option_kind(o->name) == PCL_OPT_TIMEOUTS)
        check_typed_timeouts(c, n, o);
    switch (pcl_option_kind(o->name)) {
    case PCL_OPT_PATHS:
        if (v->kind != PCL_TUPLE) {
            refuse(c, n, o->line, o->col,
                   arena_sprintf(c->a, "option '%s' must be a list of property names, e.g. [value]", o->name));
            return;
        }
        for (size_t i = 0; i < v->tuple.n; i++) {
            const pcl_expr_t *it = v->tuple.items[i];
            if (it->kind != PCL_STRING && it->kind != PCL_TRAVERSAL)
                refuse(c, n, o->line, o->col,
                       arena_sprintf(c->a, "option '%s': item %zu is not a property name or path", o->name, i + 1));
        }
        return;
    case PCL_OPT_ALIASES: {
        static const char *const keys[] = {"name", "type", "parent", "noParent", "stack", "project", NULL};
        if (v->kind != PCL_TUPLE) {
            refuse(c, n, o->line, o->col, "option 'aliases' must be a list of URN strings or alias objects");
            return;
        }
        for (size_t i = 0; i < v->tuple.n; i++) {
            const pcl_expr_t *it = v->tuple.items[i];
            if (it->kind == PCL_STRING) continue;
            if (it->kind != PCL_OBJECT) {
                refuse(c, n, o->line, o->col,
                       arena_sprintf(c->a, "aliases item %zu must be a URN string or an object", i + 1));
                continue;
            }
            for (size_t k = 0; k < it->object.n; k++) {
                const pcl_object_item_t *f = &it->object.items[k];
                if (!key_in(f->key, keys))
                    refuse(c, n, o->line, o->col,
                           arena_sprintf(c->a,
                                         "aliases item %zu has the unknown field '%s' (alias fields are name, type, "
                                         "parent, noParent, stack and project)",
                                         i + 1, f->key));
                else if (strcmp(f->key, "noParent") == 0 && f->value->kind != PCL_BOOL)
                    refuse(c, n, o->line, o->col, "alias field noParent must be true or false");
                else if (strcmp(f->key, "parent") == 0 && f->value->kind != PCL_TRAVERSAL)
                    refuse(c, n, o->line, o->col, "alias field parent must name a resource");
                else if (c->lang == LANG_JAVA && strcmp(f->key, "noParent") == 0 && f->value->b && it->object.n > 1)
                    refuse(c, n, o->line, o->col,
                           arena_sprintf(c->a,
                                         "aliases item %zu has noParent beside other fields; pulumi-java's alias "
                                         "without a parent is Alias.noParent(), which takes no other field",
                                         i + 1));
            }
        }
        return;
    }
    case PCL_OPT_TIMEOUTS: {
        static const char *const keys[] = {"create", "update", "delete", "read", NULL};
        if (v->kind != PCL_OBJECT) {
            refuse(c, n, o->line, o->col, "option 'customTimeouts' must be an object {create, update, delete, read}");
            return;
        }
        for (size_t k = 0; k < v->object.n; k++) {
            const pcl_object_item_t *f = &v->object.items[k];
            if (!key_in(f->key, keys))
                refuse(c, n, o->line, o->col,
                       arena_sprintf(c->a,
                                     "customTimeouts has the unknown field '%s' (fields are create, update, delete "
                                     "and read)",
                                     f->key));
            else if (f->value->kind != PCL_STRING && f->value->kind != PCL_TRAVERSAL)
                refuse(c, n, o->line, o->col,
                       arena_sprintf(c->a, "customTimeouts.%s must be a duration string such as \"5m\"", f->key));
        }
        return;
    }
    default: break;
    }
    /* C# and Java write a list of the providers (a map's values), item by item, in a component's
     * options (their SDKs' custom resource options have no providers); YAML a list of them */
    if (strcmp(o->name, "providers") == 0 && (c->lang == LANG_CSHARP || c->lang == LANG_JAVA || c->lang == LANG_YAML)) {
        if (v->kind != PCL_TUPLE && v->kind != PCL_OBJECT)
            refuse(c, n, o->line, o->col, "option 'providers' must be a list or map of provider resources");
        else if (c->lang != LANG_YAML && n->kind != PCL_NODE_COMPONENT && !(n->schema && n->schema->is_component))
            refuse(c, n, o->line, o->col,
                   arena_sprintf(c->a, "the %s SDK takes the option 'providers' for a component only",
                                 lang_title(c->lang)));
        return;
    }
    if (strcmp(o->name, "envVarMappings") == 0) { /* {"NAME" = "PROVIDER_NAME", ...}: plain strings */
        bool ok = v->kind == PCL_OBJECT;
        for (size_t k = 0; ok && k < v->object.n; k++)
            ok = v->object.items[k].value->kind == PCL_STRING;
        if (!ok)
            refuse(c, n, o->line, o->col,
                   "option 'envVarMappings' must be an object of string literals {\"VAR\" = \"PROVIDER_VAR\", ...}");
        return;
    }
    if (strcmp(o->name, "hooks") != 0) return;
    /* hooks = {beforeCreate = [hook, ...], ..., onError = [errorHook, ...]}: resource hooks at each
     * step of the resource's life, error hooks at onError */
    static const char *const steps[] = {"beforeCreate", "afterCreate", "beforeUpdate", "afterUpdate",
                                        "beforeDelete", "afterDelete", "onError",      NULL};
    if (v->kind != PCL_OBJECT) {
        refuse(c, n, o->line, o->col, "option 'hooks' must be an object {beforeCreate = [hook, ...], ...}");
        return;
    }
    for (size_t k = 0; k < v->object.n; k++) {
        const pcl_object_item_t *f = &v->object.items[k];
        if (!key_in(f->key, steps)) {
            refuse(c, n, o->line, o->col,
                   arena_sprintf(c->a,
                                 "hooks has the unknown field '%s' (fields are beforeCreate, afterCreate, "
                                 "beforeUpdate, afterUpdate, beforeDelete, afterDelete and onError)",
                                 f->key));
            continue;
        }
        bool on_error = strcmp(f->key, "onError") == 0;
        const pcl_expr_t *l = f->value;
        for (size_t i = 0; l->kind == PCL_TUPLE && i < l->tuple.n; i++) {
            const pcl_expr_t *h = l->tuple.items[i];
            int idx = h->kind == PCL_TRAVERSAL && h->trav.n == 0 ? names_table_get(c->nodes, h->trav.root) : -1;
            const pcl_node_t *hn = idx >= 0 ? &c->p->nodes[idx] : NULL;
            if (!hn || hn->kind != PCL_NODE_HOOK || (strcmp(hn->token, "error") == 0) != on_error)
                refuse(c, n, h->line ? h->line : o->line, h->line ? h->col : o->col,
                       arena_sprintf(c->a, "hooks.%s: item %zu must name %s hook block of the program", f->key, i + 1,
                                     on_error ? "an error" : "a resource"));
        }
        if (l->kind != PCL_TUPLE)
            refuse(c, n, o->line, o->col, arena_sprintf(c->a, "hooks.%s must be a list of hooks", f->key));
    }
}

/* Whether a list default has the shape Pulumi YAML's language host types a config list by: at least
 * one element, all of one kind, none null. Not a list: true. */
static bool yaml_default_list_ok(const pcl_expr_t *e) {
    if (e->kind != PCL_TUPLE) return true;
    if (e->tuple.n == 0) return false;
    for (size_t i = 0; i < e->tuple.n; i++)
        if (e->tuple.items[i]->kind == PCL_NULL || e->tuple.items[i]->kind != e->tuple.items[0]->kind) return false;
    return true;
}

/* Whether an expression is a literal value (no reference, call or operator anywhere in it). */
static bool literal_only(const pcl_expr_t *e, void *ctx) {
    if (e->kind != PCL_NULL && e->kind != PCL_BOOL && e->kind != PCL_NUMBER && e->kind != PCL_STRING &&
        e->kind != PCL_TUPLE && e->kind != PCL_OBJECT)
        *(bool *)ctx = false;
    return true;
}

bool emit_check_program(const pcl_program_t *p, lang_t lang, diag_list_t *diags) {
    check_t c = {.p = p, .lang = lang, .diags = diags, .a = arena_new(), .ok = true};
    c.nodes = names_node_index(c.a, p);
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        /* Pulumi YAML's built-in variable `pulumi` (${pulumi.stack}, ...): a config value, variable or
         * resource of that name is read as the one or the other */
        const char *yaml_name = n->kind == PCL_NODE_CONFIG && n->config_key ? n->config_key : n->name;
        if (lang == LANG_YAML && yaml_name && strcmp(yaml_name, "pulumi") == 0 &&
            (n->kind == PCL_NODE_CONFIG || n->kind == PCL_NODE_LOCAL || n->kind == PCL_NODE_RESOURCE)) {
            refuse(&c, n, 0, 0,
                   "the name 'pulumi' is Pulumi YAML's built-in variable (${pulumi.stack}, ${pulumi.project}, ...), "
                   "which a config value, variable or resource of that name would collide with, so it cannot be "
                   "written in YAML");
            continue;
        }
        /* a config key pulumi-yaml's property access reads as a quoted key (it holds `.`, `[` or `}`: the
         * YAML emitter's yaml_append_root) cannot end with a backslash, which would escape the quote */
        if (lang == LANG_YAML && n->kind == PCL_NODE_CONFIG && yaml_name && strpbrk(yaml_name, ".[}") &&
            yaml_name[strlen(yaml_name) - 1] == '\\') {
            refuse(
                &c, n, 0, 0,
                arena_sprintf(c.a,
                              "the config key \"%s\" ends with a backslash; Pulumi YAML reads a key holding . [ "
                              "or } as a quoted key in ${...}, where \\\" is a quote, so it cannot be written in YAML",
                              yaml_name));
            continue;
        }
        /* a key with a namespace ("aws:region"): the SDKs' project Config, which the emitters read
         * every key from, puts the project's namespace in front ("<project>:aws:region") */
        const char *key = n->kind == PCL_NODE_CONFIG ? (n->config_key ? n->config_key : n->name) : NULL;
        if (lang != LANG_YAML && lang != LANG_PCL && key && strchr(key, ':')) {
            refuse(&c, n, 0, 0,
                   arena_sprintf(c.a,
                                 "the config key \"%s\" has a namespace; the %s emitter reads config keys from the "
                                 "project's namespace (it would read \"<project>:%s\"), so it cannot write this yet",
                                 key, lang_title(lang), key));
            continue;
        }
        if (n->kind == PCL_NODE_CONFIG && n->n_attrs) { /* its default */
            bool literal = true;
            pcl_expr_walk(n->attrs[0].value, literal_only, &literal);
            if (lang == LANG_YAML && !literal) /* Pulumi YAML's `default:` is a value, read before anything runs */
                refuse(&c, n, n->attrs[0].line, n->attrs[0].col,
                       "the default is not a literal value; Pulumi YAML's config default is a literal "
                       "value, so it cannot be written in YAML");
            else if (lang == LANG_YAML && !yaml_default_list_ok(n->attrs[0].value))
                refuse(&c, n, n->attrs[0].line, n->attrs[0].col,
                       "the default is an empty list or one with nulls or mixed kinds of values; Pulumi YAML types a "
                       "config default by its elements, so it cannot be written in YAML");
            else if (lang != LANG_PCL && lang != LANG_TYPESCRIPT && lang != LANG_PYTHON && lang != LANG_YAML &&
                     !typed_default_ok(&c, lang, n))
                refuse(
                    &c, n, n->attrs[0].line, n->attrs[0].col,
                    arena_sprintf(c.a, "the %s emitter cannot write a config value's default yet", lang_title(lang)));
            else
                check_expr(&c, n, &n->attrs[0], n->attrs[0].value);
            continue;
        }
        if (n->kind == PCL_NODE_PACKAGE || n->kind == PCL_NODE_CONFIG) continue;
        if (n->kind == PCL_NODE_HOOK && (lang == LANG_YAML || lang == LANG_JAVA)) {
            refuse(&c, n, 0, 0, lang == LANG_YAML ? YAML_NO_HOOKS : JAVA_NO_HOOKS);
            continue;
        }
        if (!(node_langs(n) & L(lang))) {
            refuse(&c, n, 0, 0,
                   arena_sprintf(c.a, "the %s emitter cannot write %s yet", lang_title(lang),
                                 n->kind == PCL_NODE_HOOK     ? "hook blocks"
                                 : n->kind == PCL_NODE_PULUMI ? "requiredVersionRange"
                                 : n->read                    ? "read blocks"
                                 : builtin_resource(n)        ? arena_sprintf(c.a, "the built-in resource %s", n->token)
                                                              : "top-level local variables"));
            continue;
        }
        if (n->kind == PCL_NODE_PULUMI && emit_has_output(p, c.nodes, n->attrs[0].value))
            refuse(&c, n, n->attrs[0].line, n->attrs[0].col,
                   "requiredVersionRange reads an output; the version range is a plain string");
        if (n->kind == PCL_NODE_HOOK) {
            const pcl_attr_t *cmd = NULL;
            for (size_t k = 0; k < n->n_attrs; k++)
                if (strcmp(n->attrs[k].name, "command") == 0) cmd = &n->attrs[k];
            if (cmd && (cmd->value->kind != PCL_TUPLE || cmd->value->tuple.n == 0))
                refuse(&c, n, cmd->line, cmd->col,
                       "a hook's command must be a list of the program and its arguments, e.g. [\"touch\", \"file\"]");
            /* C#: Process.Start(string, string[]) (an error hook has no options: the parser's) */
            if (lang == LANG_CSHARP) {
                for (size_t k = 0; cmd && cmd->value->kind == PCL_TUPLE && k < cmd->value->tuple.n; k++) {
                    const pcl_expr_t *w = cmd->value->tuple.items[k];
                    bool args = w->kind == PCL_TRAVERSAL && strcmp(w->trav.root, "args") == 0 &&
                                names_table_get(c.nodes, "args") < 0;
                    bool not_implemented = w->kind == PCL_CALL && strcmp(w->call.name, "notImplemented") == 0;
                    if (w->kind != PCL_STRING && w->kind != PCL_TEMPLATE && !args && !not_implemented &&
                        !(w->kind == PCL_TRAVERSAL && emit_expr_shape(p, c.nodes, w) == EMIT_SHAPE_STRING))
                        refuse(&c, n, cmd->line, cmd->col, "the C# emitter writes a hook's command of strings only");
                }
            }
        }
        for (size_t k = 0; k < n->n_attrs; k++) {
            if (n->kind == PCL_NODE_RESOURCE && n->schema && (lang == LANG_CSHARP || lang == LANG_JAVA) &&
                !typed_object_outputs_ok(&c, n, &n->attrs[k], n->attrs[k].value))
                continue;
            check_expr(&c, n, &n->attrs[k], n->attrs[k].value);
        }
        for (size_t k = 0; k < n->n_options; k++) {
            const pcl_attr_t *o = &n->options[k];
            if (!(option_langs(o->name) & L(lang))) {
                const char *why =
                    strcmp(o->name, "hooks") == 0 && lang == LANG_YAML         ? YAML_NO_HOOKS
                    : strcmp(o->name, "hooks") == 0 && lang == LANG_JAVA       ? JAVA_NO_HOOKS
                    : strcmp(o->name, "deletedWith") == 0 && lang == LANG_JAVA ? JAVA_NO_DELETED_WITH
                    /* pulumi-java #2006 (l2-resource-option-env-var-mappings) is open; its SDK's
                     * CustomResourceOptions have no such builder method */
                    : strcmp(o->name, "envVarMappings") == 0 && lang == LANG_JAVA
                        ? "the resource option 'envVarMappings' is not among Pulumi Java's resource options "
                          "(pulumi-java #2006), so it cannot be written in Java"
                    : strcmp(o->name, "range") == 0
                        ? "the resource option 'range' (one resource per element) is not supported yet; "
                          "cimport refuses it rather than create a single resource"
                        : arena_sprintf(c.a, "the resource option '%s' is not supported by the %s emitter", o->name,
                                        lang_title(lang));
                refuse(&c, n, o->line, o->col, why);
                continue;
            }
            check_option_value(&c, n, o);
            if (pcl_option_kind(o->name) != PCL_OPT_PATHS) check_expr(&c, n, o, o->value); /* names, not refs */
        }
        /* A parsed program's component (a generated one, of an import, has no file: the YAML emitter
         * leaves it out with a warning, and the session refuses a stack that would record it): the
         * YAML without it declares its children at the stack's root, other resources than the PCL's. */
        if (n->kind == PCL_NODE_COMPONENT && lang == LANG_YAML && n->n_attrs == 0 && c.p->filename)
            refuse(&c, n, 0, 0,
                   "Pulumi YAML has no local components, so the component and the parent option of its children "
                   "cannot be written in YAML (pulumi-yaml #917); convert to TypeScript, Python, Go, C# or Java");
        /* C#: DictionaryResourceArgs, whose constructor accepts strings, numbers, booleans and outputs
         * of them (cs_component_args); a list or map it would reject as written (an array, a Dictionary) */
        for (size_t k = 0; n->kind == PCL_NODE_COMPONENT && lang == LANG_CSHARP && k < n->n_attrs; k++) {
            emit_shape_t sh = emit_expr_shape(p, c.nodes, n->attrs[k].value);
            if (sh != EMIT_SHAPE_STRING && sh != EMIT_SHAPE_NUMBER && sh != EMIT_SHAPE_BOOL)
                refuse(&c, n, n->attrs[k].line, n->attrs[k].col,
                       arena_sprintf(c.a,
                                     "the C# emitter passes a local component's inputs as DictionaryResourceArgs, "
                                     "which takes strings, numbers and booleans: a component's input '%s' that is "
                                     "not a string, number or bool it cannot write yet",
                                     n->attrs[k].name));
        }
        /* pulumi-yaml #917: local components are an open request. pulumi-java's gen_program.go:
         * genNode writes resources, config, locals, outputs and the pulumi block, nothing of a
         * pcl.Component (pulumi-java #1100); pulumi-language-java skips l3-component-simple; its SDK
         * reads a ResourceArgs by reflection over a class's @Import fields (InputArgs), with no map
         * form like .NET's DictionaryResourceArgs or Go's RegisterComponentResourceV2 map. */
        if (n->kind == PCL_NODE_COMPONENT && n->n_attrs > 0 && (lang == LANG_YAML || lang == LANG_JAVA))
            refuse(&c, n, n->attrs[0].line, n->attrs[0].col,
                   lang == LANG_YAML
                       ? arena_sprintf(c.a,
                                       "Pulumi YAML has no local components, so the inputs ('%s', ...) a component "
                                       "block passes cannot be written in YAML",
                                       n->attrs[0].name)
                       : arena_sprintf(c.a,
                                       "a local component's inputs ('%s', ...) have no form in Pulumi's Java "
                                       "generator: pulumi-java's program generator writes no component block "
                                       "(pulumi-java #1100, open; pulumi-language-java skips l3-component-simple), "
                                       "and its SDK's ComponentResource takes inputs only as a ResourceArgs class "
                                       "of @Import fields, not as a map, so cimport cannot write them as Pulumi "
                                       "would; convert to TypeScript, Python, Go or C#",
                                       n->attrs[0].name));
    }
    arena_free(c.a);
    return c.ok;
}

/* --- dependency order ------------------------------------------------------------------------------ */

/* The program nodes an expression refers to (traversal roots), counted or collected. */
typedef struct refs {
    const names_table_t *t;
    int *out;
    size_t n, cap;
} refs_t;

static bool ref_one(const pcl_expr_t *e, void *ctx) {
    refs_t *r = ctx;
    if (e->kind != PCL_TRAVERSAL) return true;
    int idx = r->t ? names_table_get(r->t, e->trav.root) : 0;
    if (idx >= 0) {
        if (r->out && r->n < r->cap) r->out[r->n] = idx;
        r->n++;
    }
    return false;
}

static void collect_refs(const names_table_t *t, const pcl_expr_t *e, int *out, size_t *n, size_t cap) {
    refs_t r = {.t = t, .out = out, .n = *n, .cap = cap};
    pcl_expr_walk(e, ref_one, &r);
    *n = r.n < cap ? r.n : cap;
}

static size_t count_refs(const pcl_expr_t *e) {
    refs_t r = {0};
    pcl_expr_walk(e, ref_one, &r);
    return r.n;
}

bool emit_sort_program(const pcl_program_t *p, pcl_program_t *out, diag_list_t *diags) {
    *out = *p;
    out->nodes = NULL;
    out->cap_nodes = 0;
    size_t nn = p->n_nodes;
    arena_t *a = arena_new();
    names_table_t *t = names_node_index(a, p);
    /* each node's references, as node indices */
    size_t *start = arena_alloc(a, (nn + 1) * sizeof *start);
    size_t total = 0;
    for (size_t i = 0; i < nn; i++) {
        start[i] = total;
        const pcl_node_t *n = &p->nodes[i];
        for (size_t k = 0; k < n->n_attrs; k++)
            total += count_refs(n->attrs[k].value);
        for (size_t k = 0; k < n->n_options; k++)
            if (pcl_option_kind(n->options[k].name) != PCL_OPT_PATHS) total += count_refs(n->options[k].value);
    }
    start[nn] = total;
    int *refs = arena_alloc(a, (total + 1) * sizeof *refs);
    size_t *nrefs = arena_alloc(a, (nn + 1) * sizeof *nrefs);
    for (size_t i = 0; i < nn; i++) {
        const pcl_node_t *n = &p->nodes[i];
        size_t cap = start[i + 1] - start[i];
        for (size_t k = 0; k < n->n_attrs; k++)
            collect_refs(t, n->attrs[k].value, refs + start[i], &nrefs[i], cap);
        for (size_t k = 0; k < n->n_options; k++)
            if (pcl_option_kind(n->options[k].name) != PCL_OPT_PATHS)
                collect_refs(t, n->options[k].value, refs + start[i], &nrefs[i], cap);
    }
    /* depth-first, dependencies first, in declaration order otherwise (an explicit stack: a chain of
     * 10,000 resources must not exhaust the C stack) */
    unsigned char *state = arena_alloc(a, nn + 1); /* 0 new, 1 on the stack, 2 placed */
    size_t *stack = arena_alloc(a, (nn + 1) * sizeof *stack);
    size_t *next = arena_alloc(a, (nn + 1) * sizeof *next);
    pcl_node_t *nodes = malloc((nn ? nn : 1) * sizeof *nodes);
    if (!nodes) abort();
    size_t placed = 0;
    bool ok = true;
    for (size_t root = 0; root < nn && ok; root++) {
        if (state[root]) continue;
        size_t sp = 0;
        stack[sp++] = root;
        state[root] = 1;
        next[root] = 0;
        while (sp > 0 && ok) {
            size_t cur = stack[sp - 1];
            if (next[cur] < nrefs[cur]) {
                size_t dep = (size_t)refs[start[cur] + next[cur]++];
                if (dep == cur) continue;
                if (state[dep] == 1) {
                    const pcl_node_t *x = &p->nodes[cur], *y = &p->nodes[dep];
                    const char *file = p->filename ? p->filename : "<program>";
                    diag_add(diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                             "%s:%d:%d: %s '%s' and %s '%s' (%s:%d:%d) depend on each other; a program cannot declare "
                             "either first",
                             file, x->line, x->col, node_kind_word(x), x->name, node_kind_word(y), y->name, file,
                             y->line, y->col);
                    ok = false;
                } else if (state[dep] == 0) {
                    state[dep] = 1;
                    next[dep] = 0;
                    stack[sp++] = dep;
                }
                continue;
            }
            state[cur] = 2;
            nodes[placed++] = p->nodes[cur];
            sp--;
        }
    }
    arena_free(a);
    if (!ok) {
        free(nodes);
        return false;
    }
    out->nodes = nodes;
    out->cap_nodes = nn;
    return true;
}

/* --- what an emitter needs to know about an expression ---------------------------------------------- */

/* A literal key of a read path: a string, or a number that can index a list (a whole number from 0
 * within int64). 1e300, -1 and 1.5 are none: a path's index_num is a size_t, and casting them to it
 * is undefined behaviour (fuzz_pcl's UBSan run stopped in the YAML emitter on [1, 2][1e300]). */
static bool literal_key(const pcl_expr_t *y) {
    return y->kind == PCL_STRING || (y->kind == PCL_NUMBER && y->n >= 0 && names_number_is_int(y->n));
}

const pcl_expr_t *emit_fn_call_under(const pcl_expr_t *e) {
    while (e->kind == PCL_GETATTR || (e->kind == PCL_INDEX && literal_key(e->y)))
        e = e->x;
    return emit_is_invoke(e) || emit_is_method_call(e) ? e : NULL;
}

int emit_binop_prec(const char *op) {
    static const struct {
        const char *op;
        int prec;
    } ops[] = {{"||", 1}, {"&&", 2}, {"==", 3}, {"!=", 3}, {"<", 4}, {"<=", 4}, {">", 4},
               {">=", 4}, {"+", 5},  {"-", 5},  {"*", 6},  {"/", 6}, {"%", 6}};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (strcmp(ops[i].op, op) == 0) return ops[i].prec;
    return 0;
}

bool emit_strict_equality(const pcl_program_t *p, const names_table_t *nodes, const emit_scope_t *s,
                          const pcl_expr_t *e) {
    if (e->kind != PCL_BINARY || emit_binop_prec(e->op) != 3 || null_compared(e)) return false;
    if ((!emit_scope_reads(s, e->x) && emit_dynamic_value(p, nodes, e->x)) ||
        (!emit_scope_reads(s, e->y) && emit_dynamic_value(p, nodes, e->y)))
        return true;
    /* a string, a bool and a number are three types (an int is a number in JavaScript) */
    int type[2];
    for (int k = 0; k < 2; k++) {
        emit_print_t kind = emit_scope_print_kind(p, nodes, s, k ? e->y : e->x);
        type[k] = kind == EMIT_PRINT_STRING                             ? 1
                  : kind == EMIT_PRINT_BOOL                             ? 2
                  : kind == EMIT_PRINT_INT || kind == EMIT_PRINT_NUMBER ? 3
                                                                        : 0;
    }
    return type[0] && type[1] && type[0] != type[1];
}

bool emit_double_minus(const pcl_expr_t *parent, const pcl_expr_t *child) {
    return parent->kind == PCL_UNARY && parent->op[0] == '-' &&
           ((child->kind == PCL_UNARY && child->op[0] == '-') || (child->kind == PCL_NUMBER && signbit(child->n)));
}

bool emit_operand_needs_parens(const pcl_expr_t *parent, const pcl_expr_t *child, bool right) {
    if (child->kind == PCL_COND || emit_double_minus(parent, child)) return true;
    if (child->kind != PCL_BINARY) return false;
    if (parent->kind == PCL_COND) return false;  /* a conditional binds loosest */
    if (parent->kind != PCL_BINARY) return true; /* unary, index, attribute: any operator below binds looser */
    int pp = emit_binop_prec(parent->op), cp = emit_binop_prec(child->op);
    return cp < pp || (right && cp == pp);
}

static int node_of(const pcl_program_t *p, const names_table_t *nodes, const char *root) {
    int idx = names_table_get(nodes, root);
    return idx >= 0 && (size_t)idx < p->n_nodes ? idx : -1;
}

static bool has_output(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
static void decide_local(const pcl_program_t *p, const names_table_t *nodes, int root);

bool emit_call_is_output(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    const char *fn = e->call.name;
    if (strcmp(fn, "secret") == 0 || strcmp(fn, "unsecret") == 0 || strcmp(fn, "getOutput") == 0 ||
        strcmp(fn, "recover") == 0)
        return true;
    if (emit_is_invoke(e) || emit_is_method_call(e)) return !e->function->return_plain;
    /* can() and try() over outputs or values of no type: their Output version (canOutput_) */
    if (strcmp(fn, "can") == 0 || strcmp(fn, "try") == 0) return emit_call_output_version(p, nodes, e);
    /* written over outputs as they are (pulumi.jsonStringify), their value an Output then */
    if (strcmp(fn, "toJSON") == 0)
        for (size_t i = 0; i < e->call.n; i++)
            if (has_output(p, nodes, e->call.args[i])) return true;
    return false;
}

typedef struct untyped_scan {
    const pcl_program_t *p;
    const names_table_t *nodes;
    bool found;
} untyped_scan_t;

static bool untyped_one(const pcl_expr_t *e, void *ctx) {
    untyped_scan_t *u = ctx;
    if (e->kind != PCL_TRAVERSAL) return !u->found;
    int idx = node_of(u->p, u->nodes, e->trav.root);
    if (idx >= 0 && node_untyped(u->p, u->nodes, &u->p->nodes[idx])) u->found = true;
    return false;
}

bool emit_call_output_version(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    untyped_scan_t u = {p, nodes, false};
    for (size_t i = 0; i < e->call.n && !u.found; i++) {
        if (has_output(p, nodes, e->call.args[i])) return true;
        pcl_expr_walk(e->call.args[i], untyped_one, &u);
    }
    return u.found;
}

bool emit_call_takes_inputs(const pcl_expr_t *e) {
    static const char *const fns[] = {
        "secret", "unsecret",  "toJSON", "pulumiResourceName", "pulumiResourceType", "can",
        "try",    "getOutput", "recover"};
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (strcmp(fns[i], e->call.name) == 0) return true;
    return false;
}

/* A call that reads a resource itself (its name, its type), not the resource's outputs. */
static bool reads_resource(const pcl_expr_t *e) {
    return e->kind == PCL_CALL &&
           (strcmp(e->call.name, "pulumiResourceName") == 0 || strcmp(e->call.name, "pulumiResourceType") == 0);
}

static bool atom_reads_output(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    if (e->kind == PCL_CALL) return emit_call_is_output(p, nodes, e);
    if (e->kind != PCL_TRAVERSAL) return false;
    int idx = node_of(p, nodes, e->trav.root);
    if (idx < 0) return false;
    const pcl_node_t *n = &p->nodes[idx];
    switch (n->kind) {
    case PCL_NODE_RESOURCE:
    case PCL_NODE_COMPONENT: return true;
    case PCL_NODE_CONFIG: /* a secret, or a value whose default reads an output (an invoke's result) */
        if (n->config_secret) return true;
        if (!n->n_attrs) return false;
        if (!n->output_memo) { /* 1 while deciding: a default that reads itself reads no output */
            ((pcl_node_t *)n)->output_memo = 1;
            ((pcl_node_t *)n)->output_memo = has_output(p, nodes, n->attrs[0].value) ? 2 : 3;
        }
        return n->output_memo == 2;
    case PCL_NODE_LOCAL:
        if (!n->output_memo) decide_local(p, nodes, idx);
        /* 1: met again while being decided (a cycle, refused elsewhere): reads no output here */
        return n->output_memo == 2;
    default: return false;
    }
}

/* The locals an expression reads that are not decided yet (node indexes). */
typedef struct local_refs {
    const pcl_program_t *p;
    const names_table_t *nodes;
    vec_t *out; /* of int */
} local_refs_t;

static bool local_ref_one(const pcl_expr_t *e, void *ctx) {
    local_refs_t *r = ctx;
    if (e->kind != PCL_TRAVERSAL) return true;
    int idx = node_of(r->p, r->nodes, e->trav.root);
    if (idx >= 0 && r->p->nodes[idx].kind == PCL_NODE_LOCAL && r->p->nodes[idx].output_memo == 0)
        VEC_PUSH(r->out, int, idx);
    return false; /* as scan_one: a traversal is one atom */
}

typedef struct local_frame {
    int idx;
    size_t first, n, next; /* its undecided references: refs[first .. first+n) */
} local_frame_t;

/* Decides whether local `root` reads an output and the shape of its value (memos in the node,
 * which the program owns and no emitter changes otherwise), deciding every local it reads first,
 * depth-first on an explicit stack: a chain of locals of any length is decided in steps linear in
 * its size, with no recursion bound (a bound of 64 once made a deeper chain "read no output", an
 * Output written as a plain value) and no C stack at risk. */
static void decide_local(const pcl_program_t *p, const names_table_t *nodes, int root) {
    vec_t frames = VEC_INIT(local_frame_t), refs = VEC_INIT(int);
    local_refs_t lr = {p, nodes, &refs};
    int idx = root;
    for (;;) {
        if (idx >= 0) { /* push idx */
            pcl_node_t *m = (pcl_node_t *)&p->nodes[idx];
            m->output_memo = 1;
            local_frame_t *f = vec_push(&frames);
            f->idx = idx;
            f->first = refs.len;
            if (m->n_attrs) pcl_expr_walk(m->attrs[0].value, local_ref_one, &lr);
            f->n = refs.len - f->first;
            f->next = 0;
        }
        local_frame_t *top = vec_last(&frames);
        if (!top) break;
        idx = -1;
        if (top->next < top->n) {
            int dep = VEC_AT(&refs, int, top->first + top->next++);
            if (p->nodes[dep].output_memo == 0) idx = dep;
            continue;
        }
        /* every local it reads is decided (or on the stack: a cycle) */
        pcl_node_t *m = (pcl_node_t *)&p->nodes[top->idx];
        bool out = m->n_attrs && has_output(p, nodes, m->attrs[0].value);
        m->shape_memo = (signed char)(m->n_attrs ? emit_expr_shape(p, nodes, m->attrs[0].value) : EMIT_SHAPE_UNKNOWN);
        m->output_memo = out ? 2 : 3;
        vec_truncate(&refs, top->first);
        vec_pop(&frames, NULL);
    }
    vec_free(&frames);
    vec_free(&refs);
}

bool emit_is_output_atom(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    return atom_reads_output(p, nodes, e);
}

typedef struct out_scan {
    const pcl_program_t *p;
    const names_table_t *nodes;
    bool found;
    const pcl_expr_t **atoms; /* collected when non-NULL */
    size_t n, cap;
} out_scan_t;

static bool scan_one(const pcl_expr_t *e, void *ctx) {
    out_scan_t *s = ctx;
    if (s->found && !s->atoms) return false;
    if (atom_reads_output(s->p, s->nodes, e)) {
        s->found = true;
        if (s->atoms && s->n < s->cap) s->atoms[s->n++] = e;
        return false;
    }
    return e->kind != PCL_TRAVERSAL && !reads_resource(e);
}

static bool has_output(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    out_scan_t s = {.p = p, .nodes = nodes};
    pcl_expr_walk(e, scan_one, &s);
    return s.found;
}

bool emit_has_output(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    return has_output(p, nodes, e);
}

const schema_property_t *emit_invoke_local_property(const pcl_program_t *p, const names_table_t *nodes,
                                                    const pcl_expr_t *e) {
    if (e->kind != PCL_TRAVERSAL || e->trav.n != 1 || !e->trav.parts[0].attr) return NULL;
    int idx = node_of(p, nodes, e->trav.root);
    const pcl_node_t *n = idx >= 0 ? &p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_LOCAL || !n->n_attrs || !emit_is_invoke(n->attrs[0].value)) return NULL;
    const schema_function_t *f = n->attrs[0].value->function;
    return f && !f->scalar_return ? schema_find_property(f->outputs, f->n_outputs, e->trav.parts[0].attr) : NULL;
}

bool emit_config_output_default(const pcl_program_t *p, const names_table_t *nodes, const pcl_node_t *n) {
    return n->kind == PCL_NODE_CONFIG && !n->config_secret && n->n_attrs && has_output(p, nodes, n->attrs[0].value);
}

static bool count_one(const pcl_expr_t *e, void *ctx) {
    (*(size_t *)ctx)++;
    (void)e;
    return true;
}

size_t emit_output_atoms(arena_t *a, const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e,
                         const pcl_expr_t ***out) {
    size_t total = 0;
    pcl_expr_walk(e, count_one, &total);
    out_scan_t s = {.p = p, .nodes = nodes, .cap = total};
    s.atoms = arena_alloc(a, (total + 1) * sizeof *s.atoms);
    pcl_expr_walk(e, scan_one, &s);
    *out = s.atoms;
    return s.n;
}

const char *emit_atom_base_name(const pcl_expr_t *e) {
    if (e->kind == PCL_TRAVERSAL) {
        for (size_t i = e->trav.n; i > 0; i--)
            if (e->trav.parts[i - 1].attr) return e->trav.parts[i - 1].attr;
        return e->trav.root;
    }
    if (emit_is_invoke(e)) return "invoke"; /* Pulumi's lambda parameter for an invoke's result */
    if (emit_is_method_call(e)) return "call";
    return "value";
}

static emit_shape_t type_shape(const schema_type_t *t) {
    if (!t) return EMIT_SHAPE_UNKNOWN;
    switch (t->kind) {
    case SCHEMA_ARRAY: return EMIT_SHAPE_LIST;
    case SCHEMA_MAP: return EMIT_SHAPE_MAP;
    case SCHEMA_OBJECT: return EMIT_SHAPE_OBJECT;
    case SCHEMA_STRING: return EMIT_SHAPE_STRING;
    case SCHEMA_INT:
    case SCHEMA_NUMBER: return EMIT_SHAPE_NUMBER;
    case SCHEMA_BOOL: return EMIT_SHAPE_BOOL;
    case SCHEMA_ENUM: return type_shape(t->element);
    default: return EMIT_SHAPE_UNKNOWN;
    }
}

/* `depth` bounds the nesting of conditionals within one expression (locals are memoized). */
static emit_shape_t shape_depth(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e, int depth) {
    if (!e || depth > 64) return EMIT_SHAPE_UNKNOWN;
    switch (e->kind) {
    case PCL_TUPLE:
    case PCL_SPLAT: return EMIT_SHAPE_LIST;
    case PCL_FOR: return e->for_object ? EMIT_SHAPE_MAP : EMIT_SHAPE_LIST;
    case PCL_OBJECT: return EMIT_SHAPE_MAP;
    case PCL_STRING:
    case PCL_TEMPLATE: return EMIT_SHAPE_STRING;
    case PCL_NUMBER: return EMIT_SHAPE_NUMBER;
    case PCL_BOOL: return EMIT_SHAPE_BOOL;
    case PCL_UNARY: return e->op[0] == '!' ? EMIT_SHAPE_BOOL : EMIT_SHAPE_NUMBER;
    case PCL_BINARY: return emit_binop_prec(e->op) <= 4 ? EMIT_SHAPE_BOOL : EMIT_SHAPE_NUMBER;
    case PCL_COND: {
        emit_shape_t a = shape_depth(p, nodes, e->y, depth + 1);
        return a == shape_depth(p, nodes, e->z, depth + 1) ? a : EMIT_SHAPE_UNKNOWN;
    }
    case PCL_CALL: {
        const pcl_function_t *f = pcl_function_find(e->call.name);
        switch (f ? f->result : PCL_FN_ANY) {
        case PCL_FN_SAME: return e->call.n ? shape_depth(p, nodes, e->call.args[0], depth + 1) : EMIT_SHAPE_UNKNOWN;
        case PCL_FN_STRING: return EMIT_SHAPE_STRING;
        case PCL_FN_NUMBER: return EMIT_SHAPE_NUMBER;
        case PCL_FN_BOOL: return EMIT_SHAPE_BOOL;
        case PCL_FN_LIST: return EMIT_SHAPE_LIST;
        default: return EMIT_SHAPE_UNKNOWN;
        }
    }
    case PCL_TRAVERSAL: {
        int idx = node_of(p, nodes, e->trav.root);
        if (idx < 0) return EMIT_SHAPE_UNKNOWN;
        const pcl_node_t *n = &p->nodes[idx];
        if (n->kind == PCL_NODE_LOCAL && e->trav.n == 0) {
            /* decided once per local with its chain (decide_local): a chain of conditionals over
             * the local before, each read twice, took 2^depth steps (26 locals: 5.4 s) */
            if (!n->output_memo) decide_local(p, nodes, idx);
            return n->output_memo == 1 ? EMIT_SHAPE_UNKNOWN : (emit_shape_t)n->shape_memo;
        }
        if (n->kind == PCL_NODE_LOCAL && n->n_attrs && emit_is_invoke(n->attrs[0].value)) {
            /* a property of the invoke's result a local holds, by its schema */
            const schema_property_t *pr = emit_invoke_local_property(p, nodes, e);
            return pr ? type_shape(pr->type) : EMIT_SHAPE_UNKNOWN;
        }
        if (n->kind == PCL_NODE_LOCAL && n->n_attrs) { /* into a local's object or list literal */
            const pcl_expr_t *v = n->attrs[0].value;
            for (size_t i = 0; v && i < e->trav.n; i++) {
                const pcl_trav_part_t *pt = &e->trav.parts[i];
                const char *key = pt->attr ? pt->attr : pt->index_is_string ? pt->index_str : NULL;
                const pcl_expr_t *next = NULL;
                if (v->kind == PCL_OBJECT && key) {
                    for (size_t k = 0; k < v->object.n; k++)
                        if (strcmp(v->object.items[k].key, key) == 0) next = v->object.items[k].value;
                } else if (v->kind == PCL_TUPLE && !key && pt->index_num < v->tuple.n) {
                    next = v->tuple.items[pt->index_num];
                }
                v = next;
            }
            return v ? shape_depth(p, nodes, v, depth + 1) : EMIT_SHAPE_UNKNOWN;
        }
        if (n->kind == PCL_NODE_CONFIG && e->trav.n == 0) {
            const char *t = n->token ? n->token : "string";
            if (strcmp(t, "string") == 0) return EMIT_SHAPE_STRING;
            if (strcmp(t, "int") == 0 || strcmp(t, "number") == 0) return EMIT_SHAPE_NUMBER;
            if (strcmp(t, "bool") == 0) return EMIT_SHAPE_BOOL;
            if (strncmp(t, "list(", 5) == 0 || strncmp(t, "List<", 5) == 0) return EMIT_SHAPE_LIST;
            if (strncmp(t, "map(", 4) == 0 || strncmp(t, "Map<", 4) == 0) return EMIT_SHAPE_MAP;
            return EMIT_SHAPE_UNKNOWN;
        }
        if (n->kind == PCL_NODE_RESOURCE && n->schema && e->trav.n == 1 && e->trav.parts[0].attr) {
            if (strcmp(e->trav.parts[0].attr, "id") == 0 || strcmp(e->trav.parts[0].attr, "urn") == 0)
                return EMIT_SHAPE_STRING;
            const schema_property_t *pr =
                schema_find_property(n->schema->outputs, n->schema->n_outputs, e->trav.parts[0].attr);
            return pr ? type_shape(pr->type) : EMIT_SHAPE_UNKNOWN;
        }
        return EMIT_SHAPE_UNKNOWN;
    }
    default: return EMIT_SHAPE_UNKNOWN;
    }
}

emit_shape_t emit_expr_shape(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    return shape_depth(p, nodes, e, 0);
}

const pcl_expr_t *emit_atom_head(arena_t *a, const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *atom,
                                 size_t *skip) {
    *skip = 0;
    if (atom->kind != PCL_TRAVERSAL || atom->trav.n == 0) return atom;
    int idx = node_of(p, nodes, atom->trav.root);
    size_t keep = idx >= 0 && (p->nodes[idx].kind == PCL_NODE_RESOURCE || p->nodes[idx].kind == PCL_NODE_COMPONENT) &&
                          atom->trav.parts[0].attr
                      ? 1
                      : 0;
    pcl_expr_t *h = arena_alloc(a, sizeof *h);
    *h = *atom;
    h->trav.n = keep;
    *skip = keep;
    return h;
}

typedef struct reads {
    const names_table_t *nodes;
    const char *const *node_ident;
    const pcl_expr_t **atoms;
    size_t n;
    names_table_t *t;
} reads_t;

/* Reserves the identifiers a body reads other than through the atoms. */
static bool read_one(const pcl_expr_t *e, void *ctx) {
    reads_t *r = ctx;
    for (size_t i = 0; i < r->n; i++)
        if (r->atoms[i] == e) return false;
    if (e->kind != PCL_TRAVERSAL) return true;
    int idx = names_table_get(r->nodes, e->trav.root);
    names_table_reserve(r->t, idx >= 0 && r->node_ident[idx] ? r->node_ident[idx] : e->trav.root);
    return false;
}

static void apply_plan(arena_t *a, const pcl_program_t *p, const names_table_t *nodes, const char *const *node_ident,
                       lang_t lang, const pcl_expr_t *e, const char *const *scope, size_t n_scope, bool builtins,
                       emit_apply_t *out) {
    size_t n = emit_output_atoms(a, p, nodes, e, &out->atoms);
    out->n = n;
    out->heads = arena_alloc(a, (n + 1) * sizeof *out->heads);
    out->skip = arena_alloc(a, (n + 1) * sizeof *out->skip);
    out->names = arena_alloc(a, (n + 1) * sizeof *out->names);
    out->uniq = arena_alloc(a, (n + 1) * sizeof *out->uniq);
    out->nu = 0;
    const char **texts = arena_alloc(a, (n + 1) * sizeof *texts);
    /* a parameter may shadow any name except one the body still reads */
    names_table_t *params = names_table_new(a);
    reads_t r = {nodes, node_ident, out->atoms, n, params};
    pcl_expr_walk(e, read_one, &r);
    names_table_reserve(params, "pulumi");
    for (const char *const *b = names_builtins(lang); builtins && *b; b++) /* float(x) in the body */
        names_table_reserve(params, *b);
    for (const char *const *m = names_modules(lang); *m; m++) /* base64.b64decode(x) in the body */
        names_table_reserve(params, *m);
    for (size_t i = 0; i < n_scope; i++)
        names_table_reserve(params, scope[i]);
    bool py = lang == LANG_PYTHON;
    for (size_t i = 0; i < n; i++) {
        /* the output is the resource's property (or the local, the config value); the rest of a
         * traversal reads the resolved value inside the apply, as Pulumi writes it */
        out->heads[i] = emit_atom_head(a, p, nodes, out->atoms[i], &out->skip[i]);
        char *t = pcl_print_expr(out->heads[i]);
        texts[i] = arena_strdup(a, t);
        free(t);
        size_t k = 0;
        while (k < out->nu && strcmp(texts[out->uniq[k]], texts[i]) != 0)
            k++;
        if (k < out->nu) {
            out->names[i] = out->names[out->uniq[k]];
            continue;
        }
        out->uniq[out->nu++] = i;
        const char *base = emit_atom_base_name(out->heads[i]);
        base = py ? names_py_name(a, base) : names_camel(a, base);
        out->names[i] =
            names_table_unique(params, names_make_valid_identifier(a, lang, base), py ? "_" : "", py ? 1 : 2);
    }
    out->head_is_output = false;
    if (out->nu == 1) {
        const pcl_expr_t *h = out->heads[out->uniq[0]];
        int idx = h->kind == PCL_TRAVERSAL ? node_of(p, nodes, h->trav.root) : -1;
        out->head_is_output = h->kind == PCL_CALL || (idx >= 0 && p->nodes[idx].kind != PCL_NODE_LOCAL);
    }
}

void emit_apply_plan(arena_t *a, const pcl_program_t *p, const names_table_t *nodes, const char *const *node_ident,
                     lang_t lang, const pcl_expr_t *e, const char *const *scope, size_t n_scope, emit_apply_t *out) {
    apply_plan(a, p, nodes, node_ident, lang, e, scope, n_scope, true, out);
}

void emit_apply_plan_builtin_names(arena_t *a, const pcl_program_t *p, const names_table_t *nodes,
                                   const char *const *node_ident, lang_t lang, const pcl_expr_t *e,
                                   const char *const *scope, size_t n_scope, emit_apply_t *out) {
    apply_plan(a, p, nodes, node_ident, lang, e, scope, n_scope, false, out);
}

/* --- what Pulumi YAML reads and interpolates (the check asks it; emitters/yaml.c writes it) --------- */

/* Pulumi YAML's variables for PCL's stack(), project(), ... (`${pulumi.stack}`), or NULL. */
const char *emit_yaml_pulumi_variable(const pcl_expr_t *e) {
    static const char *const fns[][2] = {{"stack", "${pulumi.stack}"},
                                         {"project", "${pulumi.project}"},
                                         {"organization", "${pulumi.organization}"},
                                         {"cwd", "${pulumi.cwd}"},
                                         {"rootDirectory", "${pulumi.rootDirectory}"}};
    if (e->kind != PCL_CALL || e->call.n) return NULL;
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (strcmp(fns[i][0], e->call.name) == 0) return fns[i][1];
    return NULL;
}

/* getOutput(ref, "name"): a stack reference's output, `${ref.outputs["name"]}` (the check allows a
 * literal name only). */
bool emit_yaml_stack_output(const pcl_expr_t *e) {
    return e->kind == PCL_CALL && strcmp(e->call.name, "getOutput") == 0 && e->call.n == 2 &&
           e->call.args[0]->kind == PCL_TRAVERSAL && e->call.args[1]->kind == PCL_STRING;
}

bool emit_yaml_interpolates(const pcl_expr_t *e) {
    return emit_yaml_pulumi_variable(e) || emit_yaml_stack_output(e);
}

emit_print_t emit_yaml_part_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *part) {
    emit_print_t k = emit_print_kind(p, nodes, part);
    if (k == EMIT_PRINT_UNKNOWN && (part->kind == PCL_GETATTR || (part->kind == PCL_INDEX && literal_key(part->y))))
        k = emit_print_item_kind(p, nodes, part->x, false); /* `split(",", s)[1]`: a string */
    return k;
}

/* Go's encoding/json (fn::toJSON's json.Marshal) writes a float64 as JavaScript's String does
 * (1000000, 1e+21, 1e-7) and a bool as true/false: PCL's text of them. */
bool emit_yaml_part_as_json(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *tmpl,
                            const pcl_expr_t *part) {
    if (part->kind == PCL_STRING) return false;
    emit_print_t k = emit_yaml_part_kind(p, nodes, part);
    return k == EMIT_PRINT_NUMBER || k == EMIT_PRINT_INT || (k == EMIT_PRINT_BOOL && tmpl->tuple.n == 1);
}

bool emit_yaml_config_to_string(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n == 0 ? names_table_get(nodes, e->trav.root) : -1;
    if (idx < 0 || p->nodes[idx].kind != PCL_NODE_CONFIG) return false;
    emit_conversion_t k = emit_config_conversion(&p->nodes[idx], e->type);
    return k == EMIT_CONV_NUMBER_TO_STRING || k == EMIT_CONV_BOOL_TO_STRING;
}

bool emit_element_index(const pcl_expr_t *e, double *index) {
    if (e->kind != PCL_CALL || e->function || e->call.n != 2 || strcmp(e->call.name, "element") != 0) return false;
    const pcl_expr_t *list = e->call.args[0], *i = e->call.args[1];
    if (i->kind != PCL_NUMBER || !names_number_is_int(i->n) || i->n < 0) return false;
    if (i->n == 0) { /* element 0 of any list (none of an empty one, as fn::select) */
        *index = 0;
        return true;
    }
    if (list->kind != PCL_TUPLE || list->tuple.n == 0) return false;
    *index = fmod(i->n, (double)list->tuple.n);
    return true;
}

/* A list read at a computed index (`l[i]`): fn::select [index, list], Pulumi YAML's only read that
 * takes a computed key (a map read by a computed key has none). */
bool emit_yaml_selects(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    return e->kind == PCL_INDEX && e->y->kind != PCL_STRING && e->y->kind != PCL_NUMBER &&
           emit_expr_shape(p, nodes, e->x) == EMIT_SHAPE_LIST && emit_expr_shape(p, nodes, e->y) == EMIT_SHAPE_NUMBER;
}

/* What a read of literal attributes and indexes is read from: a function's result, a list, an
 * object or a list read at a computed index (`split(",", s)[0]`, `secret({k = v}).k`, `l[i].a`);
 * Pulumi YAML reads properties of names only, so the value is held by a variable (yaml_hoist). An
 * invoke's read is fn::invoke's `return` or emit_fn_call_under's; a traversal, a Pulumi variable
 * and a method call are not held. */
const pcl_expr_t *emit_yaml_read_base(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e) {
    if (e->kind != PCL_GETATTR && e->kind != PCL_INDEX) return NULL;
    const pcl_expr_t *read = e;
    while (e->kind == PCL_GETATTR || (e->kind == PCL_INDEX && literal_key(e->y)))
        e = e->x;
    if (e->kind == PCL_TUPLE || e->kind == PCL_OBJECT) return e;
    if (e->kind == PCL_CALL && !e->function && !emit_yaml_interpolates(e)) return e;
    if (e != read && emit_yaml_selects(p, nodes, e)) return e;
    return NULL;
}

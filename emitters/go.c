/* go.c — the Go emitter: PCL program → main.go, formatted exactly as gofmt would leave it.
 *
 * Same shape as the other emitters: a program walker (emit_go), an expression printer (go_expr)
 * and names (go_import_for, go_field_name). Output follows Pulumi's Go program generator
 * (pcl-emitters §3.3): `pulumi.Run(func(ctx *pulumi.Context) error {...})`, one `New<Type>` call
 * per resource with `&mod.TypeArgs{...}`, inputs wrapped by their schema type (`pulumi.String`,
 * `pulumi.StringArray`, `&mod.NestedArgs`, ...), options as extra `pulumi.X(...)` arguments.
 *
 * Pulumi pipes its text through go/format; we cannot, so the printer produces gofmt's layout
 * directly: tabs, every composite-literal element on its own line with a trailing comma, and
 * gofmt's column alignment of consecutive single-line `Key: value` elements (go_write_elems).
 *
 * The program is rendered twice: the first pass only discovers the imports (nested types can pull
 * in other modules), so that variable names can then avoid the import aliases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "emitters/walk.h"

typedef struct go_import {
    const char *path;
    const char *alias; /* the package name used in code */
} go_import_t;

typedef struct go_ctx {
    emit_typed_t base; /* program, names (var: "_" when never referenced), the node being written */
    go_import_t *imports;
    size_t n_imports, cap_imports;
    const char **cfg_value; /* per config node read as a list, map or any value: the plain value's variable */
    bool *referenced;       /* per node */
    bool *cfg_output;       /* per config node: read as its Output somewhere (found by the first pass) */
    bool err_declared;
    names_table_t *names; /* identifiers the file declares (pass 2) */
    names_memo_t fields;  /* PCL property name → Go field name */
    /* the expression language (see go_infer) */
    struct go_local *local_type;                    /* per local node: its value's type, once known */
    const char *scope[EMIT_MAX_SCOPE];              /* for-expression variables in scope ... */
    const struct go_vt *scope_type[EMIT_MAX_SCOPE]; /* ... and their types */
    size_t n_scope;
    const emit_apply_t *ap;     /* inside an apply: the atoms its parameters stand for */
    const char *ap_zero;        /* ... and the zero value of its result, returned with an error */
    buf_t *pre;                 /* statements written before the current one (temporaries, loops) */
    int pre_indent;             /* their indentation */
    int line_depth;             /* the indentation of the line being written */
    int gd;                     /* gofmt's nesting depth of the expression being written */
    int n_tmp, n_for, n_splat;  /* temporaries, for loops and splats written so far */
    int n_tmpvar;               /* decoded base64 temporaries (tmpVar0, ...) written so far */
    int n_call;                 /* method calls (callIdentity, callPrefixed1, ...) written so far */
    bool ap_addr;               /* the next apply returns the address of what it reads (go_optional_read) */
    int n_json;                 /* toJSON temporaries (tmpJSON0, json0) written so far */
    unsigned helpers;           /* the helper functions the program's calls need (1 << GO_HELPER_x) */
    schema_package_t *type_pkg; /* while writing a value of another package's type: that package */
    bool float_lits;            /* writing the dividend of a constant `/`: whole literals as 7.0 */
    const pcl_expr_t *to_list;  /* a for or splat written straight into pulumi.To...Array(): nil is [] there */
    bool int_float;             /* writing ints' +, -, * as float64 inside pclInt() (go_plain_binary) */
    int in_try;                 /* writing an argument of can() or try(): what fails in PCL panics */
    bool refused;
} go_ctx_t;

static void go_indent(buf_t *b, int depth);
static void go_err_check(buf_t *b, int depth);

/* --- imports ------------------------------------------------------------------------------------ */

static const char *go_lang_str(const schema_package_t *pkg, const char *key) {
    if (!pkg || !pkg->language) return NULL;
    const cJSON *go = cJSON_GetObjectItemCaseSensitive(pkg->language, "go");
    const cJSON *v = go ? cJSON_GetObjectItemCaseSensitive(go, key) : NULL;
    return cJSON_GetStringValue(v);
}

static const char *go_lang_map(const schema_package_t *pkg, const char *map, const char *key) {
    if (!pkg || !pkg->language || !key) return NULL;
    const cJSON *go = cJSON_GetObjectItemCaseSensitive(pkg->language, "go");
    const cJSON *m = go ? cJSON_GetObjectItemCaseSensitive(go, map) : NULL;
    const cJSON *v = m ? cJSON_GetObjectItemCaseSensitive(m, key) : NULL;
    return cJSON_GetStringValue(v);
}

static const char *go_path_last(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* A Go package name from a path element: dashes and dots dropped (`using-dashes` → usingdashes). */
static char *go_package_name(arena_t *a, const char *elem) {
    char *r = arena_strdup(a, elem);
    char *o = r;
    for (const char *s = elem; *s; s++)
        if (*s != '-' && *s != '.') *o++ = *s;
    *o = 0;
    return r;
}

/* The SDK import base of a package (pcl-emitters §3.3): language.go.importBasePath, else derived
 * from the repository (or github.com/<namespace>/pulumi-<pkg>, or example.com/pulumi-<pkg>) and the
 * major version. */
static const char *go_import_base(go_ctx_t *g, const schema_package_t *pkg, const char *pkgname) {
    const char *base = go_lang_str(pkg, "importBasePath");
    if (base) return base;
    const char *root;
    if (pkg && pkg->repository && *pkg->repository) {
        const char *r = pkg->repository;
        const char *scheme = strstr(r, "://");
        if (scheme) r = scheme + 3;
        size_t n = strlen(r);
        while (n > 0 && r[n - 1] == '/')
            n--;
        root = arena_strndup(g->base.a, r, n);
    } else if (pkg && pkg->namespace_) {
        root = arena_sprintf(g->base.a, "github.com/%s/pulumi-%s", pkg->namespace_, pkgname);
    } else {
        root = arena_sprintf(g->base.a, "example.com/pulumi-%s", pkgname);
    }
    long major = pkg && pkg->version ? strtol(pkg->version[0] == 'v' ? pkg->version + 1 : pkg->version, NULL, 10) : 0;
    /* Pulumi's rule (supportPack or not; the conformance projects' imports, e.g.
     * example.com/pulumi-simple/sdk/go/v2/simple): the SDK module is <root>/sdk/go[/vN] and the
     * package directory is the package name without dashes */
    char *name = go_package_name(g->base.a, pkgname);
    if (major > 1) return arena_sprintf(g->base.a, "%s/sdk/go/v%ld/%s", root, major, name);
    return arena_sprintf(g->base.a, "%s/sdk/go/%s", root, name);
}

/* Adds an import (once) and returns the alias code uses for it. A clash of package names gets
 * the parent element in front (`moduleformatmod`), then a number. */
static const char *go_import_add(go_ctx_t *g, const char *path, const char *wanted) {
    for (size_t i = 0; i < g->n_imports; i++)
        if (strcmp(g->imports[i].path, path) == 0) return g->imports[i].alias;
    const char *alias = wanted;
    for (int attempt = 0;; attempt++) {
        bool clash = false;
        for (size_t i = 0; i < g->n_imports && !clash; i++)
            clash = strcmp(g->imports[i].alias, alias) == 0;
        if (!clash) break;
        if (attempt == 0) {
            const char *last = go_path_last(path);
            const char *parent = path;
            for (const char *s = path; s < last - 1; s++)
                if (*s == '/') parent = s + 1;
            alias = go_package_name(g->base.a,
                                    arena_sprintf(g->base.a, "%.*s%s", (int)(last - 1 - parent), parent, wanted));
        } else {
            alias = arena_sprintf(g->base.a, "%s%d", wanted, attempt + 1);
        }
    }
    if (g->n_imports == g->cap_imports) {
        size_t nc = g->cap_imports ? g->cap_imports * 2 : 8;
        g->imports = arena_grow(g->base.a, g->imports, g->cap_imports * sizeof *g->imports, nc * sizeof *g->imports);
        g->cap_imports = nc;
    }
    g->imports[g->n_imports].path = arena_strdup(g->base.a, path);
    g->imports[g->n_imports].alias = alias;
    g->n_imports++;
    return alias;
}

/* The import alias for the module holding `token` (a resource, object or enum token). */
static const char *go_import_for_uncached(emit_typed_t *x, schema_package_t *pkg, const char *pkgname,
                                          const char *mod) {
    go_ctx_t *g = (go_ctx_t *)x;
    const char *mapped = go_lang_map(pkg, "moduleToPackage", mod);
    if (mapped) mod = mapped;
    char *lower = arena_strdup(g->base.a, mod);
    for (char *s = lower; *s; s++)
        if (*s >= 'A' && *s <= 'Z') *s = (char)(*s - 'A' + 'a');
    const char *base = go_import_base(g, pkg, pkgname);
    const char *path = (!*lower || strcmp(lower, "index") == 0) ? base : arena_sprintf(g->base.a, "%s/%s", base, lower);
    const char *alias = go_lang_map(pkg, "packageImportAliases", path);
    if (!alias) alias = go_package_name(g->base.a, go_path_last(path));
    return go_import_add(g, path, alias);
}

static const char *go_import_for(go_ctx_t *g, schema_package_t *pkg, const char *token) {
    return emit_typed_module(&g->base, pkg, token, go_import_for_uncached, "unknown");
}

/* --- names -------------------------------------------------------------------------------------- */

/* structFieldName: Title, plus `_` for names that clash with methods of the Args/Output types. */
static const char *go_field_name_uncached(go_ctx_t *g, const char *name) {
    char *t = names_title(g->base.a, name);
    if (strcmp(t, "ID") == 0 || strcmp(t, "URN") == 0 || strcmp(t, "GetProvider") == 0 || strcmp(t, "ElementType") == 0)
        return arena_sprintf(g->base.a, "%s_", t);
    return names_make_valid_identifier(g->base.a, LANG_GO, t);
}

static const char *go_field_name(go_ctx_t *g, const char *name);

/* The method of an object's Output that reads a property: its field name, but GetElementType_ and
 * GetIsSecret, whose plain names the Output's own methods take (Pulumi's gen.go genOutputTypes). */
static const char *go_getter_name(go_ctx_t *g, const char *name) {
    const char *f = go_field_name(g, name);
    return strcasecmp(name, "elementType") == 0 || strcasecmp(name, "isSecret") == 0
               ? arena_sprintf(g->base.a, "Get%s", f)
               : f;
}

/* Memoized by property name: a program names the same few properties on every resource, and the
 * reserved-word check was a tenth of the Go emitter's time (bench_pcl). */
static const char *go_field_name(go_ctx_t *g, const char *name) {
    const char *r = names_memo_get(&g->fields, name);
    if (r) return r;
    r = go_field_name_uncached(g, name);
    names_memo_put(&g->fields, name, r);
    return r;
}

static char *go_type_name(arena_t *a, const char *member) {
    return names_make_valid_identifier(a, LANG_GO, names_title(a, member));
}

static const char *go_token_member(go_ctx_t *g, const char *token) {
    return emit_token_type_name(g->base.a, token, go_type_name);
}

/* The Go name of an object or enum type of pkg, as Pulumi's Go SDKs name it (pkg/codegen/go gen.go):
 * Title(member), plus `Type` for an object type whose token a resource of the package has too (its
 * duplicate tokens: reservednames:index:ElementType is ElementTypeType). NULL for a name that
 * collides with one the SDK derives from a resource otherwise (Foo's FooArgs, FooState, NewFoo, a
 * resource FooInput, ...) or an enum sharing a resource's token: the SDK renames those by rules
 * cimport does not follow, so the caller refuses. */
static const char *go_object_type_name(go_ctx_t *g, schema_package_t *pkg, const char *token, bool is_enum) {
    const char *name = go_token_member(g, token);
    const char *colon = strrchr(token, ':');
    if (!pkg || !colon) return name;
    const schema_resource_t *r = schema_find_resource(pkg, token);
    if (r && strcasecmp(r->token, token) == 0) return is_enum ? NULL : arena_sprintf(g->base.a, "%sType", name);
    const char *member = colon + 1;
    size_t plen = (size_t)(member - token), mlen = strlen(member);
    static const char *const suffixes[] = {"Args", "State", "Input", "Output", "Array", "Map"};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t sl = strlen(suffixes[i]);
        const char *cand = NULL;
        if (mlen > sl && strcmp(member + mlen - sl, suffixes[i]) == 0) /* Foo's FooArgs, ... */
            cand = arena_sprintf(g->base.a, "%.*s%.*s", (int)plen, token, (int)(mlen - sl), member);
        if (cand && schema_find_resource(pkg, cand)) return NULL;
    }
    if (strncmp(name, "New", 3) == 0 || strncmp(name, "Get", 3) == 0) /* NewFoo, GetFoo */
        if (name[3] && schema_find_resource(pkg, arena_sprintf(g->base.a, "%.*s%s", (int)plen, token, name + 3)))
            return NULL;
    if (schema_find_resource(pkg, arena_sprintf(g->base.a, "%sInput", token)) ||
        schema_find_resource(pkg, arena_sprintf(g->base.a, "%sOutput", token)))
        return NULL;
    return name;
}

/* --- composite literals with gofmt's alignment --------------------------------------------------- */

typedef struct go_elem {
    const char *key; /* NULL for positional elements */
    char *value;     /* rendered at the element's indentation; may span lines */
} go_elem_t;

/* Writes `{`, the elements (each on its own line, trailing comma), and `}` at `depth`.
 *
 * Alignment follows go/printer's exprList: consecutive key:value elements that fit on one line
 * share a column for their values, unless the key sizes jump (both over 40 characters-ish: the
 * ratio of this key to the geometric mean of the run's keys is ≤ 0.4 or ≥ 2.5), which starts a new
 * run. A multi-line element ends the run and is not padded. */
/* Columns as gofmt's tabwriter counts them: one per character (UTF-8 lead byte). */
static size_t go_columns(const char *s) {
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void go_write_elems(buf_t *b, const go_elem_t *elems, size_t n, int depth) {
    if (n == 0) {
        buf_puts(b, "{}");
        return;
    }
    buf_puts(b, "{\n");
    size_t *width = calloc(n, sizeof *width); /* the key column width of each element's run */
    if (!width) abort();
    size_t run_start = 0, run_width = 0, prev_size = 0;
    double lnsum = 0;
    int count = 0;
    for (size_t i = 0; i <= n; i++) {
        size_t size = 0;
        bool new_run = true;
        if (i < n && elems[i].key && !strchr(elems[i].value, '\n')) size = strlen(elems[i].key);
        if (i > 0 && i < n && prev_size > 0 && size > 0) {
            if (count == 0 || (prev_size <= 40 && size <= 40)) {
                new_run = false;
            } else {
                double ratio = (double)size / exp(lnsum / count);
                new_run = 2.5 * ratio <= 1 || 2.5 <= ratio;
            }
        }
        if (new_run) {
            for (size_t j = run_start; j < i; j++)
                width[j] = run_width;
            run_start = i;
            run_width = 0;
            lnsum = 0;
            count = 0;
        }
        if (i == n) break;
        if (size > 0) {
            lnsum += log((double)size);
            count++;
            size_t cols = go_columns(elems[i].key); /* the run's heuristic is in bytes, its column in characters */
            if (cols > run_width) run_width = cols;
        }
        prev_size = size;
    }
    for (size_t i = 0; i < n; i++) {
        for (int d = 0; d <= depth; d++)
            buf_putc(b, '\t');
        if (elems[i].key) {
            buf_puts(b, elems[i].key);
            buf_putc(b, ':');
            size_t pad = 1;
            /* a one-element literal is never aligned; a lone-line element's run is itself */
            if (n > 1 && !strchr(elems[i].value, '\n')) pad = width[i] - go_columns(elems[i].key) + 1;
            for (size_t k = 0; k < pad; k++)
                buf_putc(b, ' ');
        }
        buf_puts(b, elems[i].value);
        buf_puts(b, ",\n");
    }
    free(width);
    for (int d = 0; d < depth; d++)
        buf_putc(b, '\t');
    buf_putc(b, '}');
}

/* --- expressions --------------------------------------------------------------------------------- */

static void go_expr(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth);
static void go_raw(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth);
static void go_method_call(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth, bool raw);

static char *go_render(go_ctx_t *g, const pcl_expr_t *e, const schema_type_t *t, int depth, bool raw) {
    buf_t b;
    buf_init(&b);
    int saved_gd = g->gd;
    g->gd = 1; /* a composite literal's element */
    if (raw)
        go_raw(g, &b, e, depth);
    else
        go_expr(g, &b, e, t, depth);
    g->gd = saved_gd;
    char *s = buf_arena_str(&b, g->base.a);
    buf_free(&b);
    return s;
}

/* A map literal's key as Go writes it (a quoted string), in the generator's arena. */
static const char *go_quoted_key(go_ctx_t *g, const char *key) {
    buf_t k;
    buf_init(&k);
    names_append_quoted(&k, LANG_GO, key);
    const char *r = buf_arena_str(&k, g->base.a);
    buf_free(&k);
    return r;
}

/* The entries of a map literal: each key quoted, each value rendered at depth+1 (raw: a plain Go
 * value, else an input of element type `et`). */
static go_elem_t *go_map_elems(go_ctx_t *g, const pcl_expr_t *o, const schema_type_t *et, int depth, bool raw) {
    go_elem_t *el = arena_alloc(g->base.a, (o->object.n + 1) * sizeof *el);
    for (size_t i = 0; i < o->object.n; i++) {
        el[i].key = go_quoted_key(g, o->object.items[i].key);
        el[i].value = go_render(g, o->object.items[i].value, et, depth + 1, raw);
    }
    return el;
}

/* strconv.Quote, or a raw string for long multi-line text (Pulumi's genStringLiteral rule). */
static void go_string(buf_t *b, const char *s) {
    size_t lines = 0;
    bool raw_ok = strlen(s) > 50;
    for (const char *p = s; *p && raw_ok; p++) {
        if (*p == '`' || *p == '\r' || ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')) raw_ok = false;
        if (*p == '\n') lines++;
    }
    if (raw_ok && lines >= 5) {
        buf_putc(b, '`');
        buf_puts(b, s);
        buf_putc(b, '`');
        return;
    }
    names_append_quoted(b, LANG_GO, s);
}

/* The enum of a union that holds one (a "relaxed" enum: the enum or any value of its type), whose Go
 * input is the enum's element type's (pulumi.StringInput), as Pulumi's Go SDKs type it; else NULL. */
static const schema_type_t *go_union_enum(const schema_type_t *t) {
    for (size_t i = 0; t && t->kind == SCHEMA_UNION && i < t->n_members; i++)
        if (t->members[i]->kind == SCHEMA_ENUM && t->members[i]->element) return t->members[i];
    return NULL;
}

/* The element-type stem of a Pulumi Go input type: String, Int, Float64, Bool, `` (Any: so that
 * Array/Map suffixes give pulumi.Array/pulumi.Map), mod.Type for objects and enums. Collections
 * append Array/Map to their element's stem. Returns the full qualified stem. */
static const char *go_type_stem(go_ctx_t *g, const schema_type_t *t) {
    static const char *const scalars[] = {"pulumi.String", "pulumi.Int", "pulumi.Float64", "pulumi.Bool"};
    const char *scalar = emit_scalar_name(t, scalars);
    if (scalar) return scalar;
    if (!t) return "pulumi.";
    switch (t->kind) {
    case SCHEMA_ASSET: return "pulumi.AssetOrArchive";
    case SCHEMA_ARCHIVE: return "pulumi.Archive";
    case SCHEMA_ARRAY: return arena_sprintf(g->base.a, "%sArray", go_type_stem(g, t->element));
    case SCHEMA_MAP: return arena_sprintf(g->base.a, "%sMap", go_type_stem(g, t->element));
    case SCHEMA_UNION: return go_union_enum(t) ? go_type_stem(g, go_union_enum(t)->element) : "pulumi.";
    case SCHEMA_OBJECT:
    case SCHEMA_ENUM:
        if (t->token && g->base.node) {
            schema_package_t *pkg = g->type_pkg ? g->type_pkg : g->base.node->package;
            const char *name = go_object_type_name(g, pkg, t->token, t->kind == SCHEMA_ENUM);
            if (!name) {
                if (g->base.report)
                    diag_add(g->base.diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                             "resource '%s': the type %s is renamed in Go SDKs (its name collides with a name they "
                             "derive from a resource); the Go emitter cannot name it yet",
                             g->base.node->name, t->token);
                name = go_token_member(g, t->token);
            }
            return arena_sprintf(g->base.a, "%s.%s", go_import_for(g, pkg, t->token), name);
        }
        return "pulumi.";
    default: return "pulumi.";
    }
}

/* The Output type a `pulumi.ToSecret(x)` is asserted to, from the destination type. */
static const char *go_output_type(go_ctx_t *g, const schema_type_t *t, const pcl_expr_t *inner) {
    if (!t) {
        switch (inner->kind) {
        case PCL_STRING: return "pulumi.StringOutput";
        case PCL_BOOL: return "pulumi.BoolOutput";
        case PCL_NUMBER: return names_number_is_int(inner->n) ? "pulumi.IntOutput" : "pulumi.Float64Output";
        default: return "pulumi.AnyOutput";
        }
    }
    if (t->kind == SCHEMA_ANY || t->kind == SCHEMA_JSON || t->kind == SCHEMA_UNION) return "pulumi.AnyOutput";
    return arena_sprintf(g->base.a, "%sOutput", go_type_stem(g, t));
}

/* Resource outputs are fields (id and urn methods); properties of an output object are methods. */
static const char *go_attr_name(emit_typed_t *x, int idx, const char *attr, bool first) {
    (void)idx;
    if (first && strcmp(attr, "id") == 0) return "ID()";
    if (first && strcmp(attr, "urn") == 0) return "URN()";
    return first ? go_field_name((go_ctx_t *)x, attr) : go_getter_name((go_ctx_t *)x, attr);
}

static const emit_part_syntax_t GO_PARTS = {.lang = LANG_GO,
                                            .attr = ".%s()",
                                            .first_attr = ".%s",
                                            .key_open = ".MapIndex(pulumi.String(",
                                            .key_close = "))",
                                            .index = ".Index(pulumi.Int(%zu))",
                                            .name = go_attr_name};

static void go_traversal(go_ctx_t *g, buf_t *b, const pcl_expr_t *e) {
    int idx = emit_typed_find(&g->base, e->trav.root);
    if (idx >= 0 && g->cfg_output) g->cfg_output[idx] = true;
    emit_typed_traversal(&g->base, b, e, &GO_PARTS);
}

static bool go_asset_call(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth) {
    const char *cls = emit_asset_class(e->call.name);
    if (!cls) return false;
    buf_printf(b, "pulumi.New%s(", cls);
    if (strcmp(cls, "AssetArchive") == 0) {
        buf_puts(b, "map[string]interface{}");
        if (e->call.n > 0 && e->call.args[0]->kind == PCL_OBJECT) {
            const pcl_expr_t *o = e->call.args[0];
            go_write_elems(b, go_map_elems(g, o, NULL, depth, true), o->object.n, depth);
        } else {
            buf_puts(b, "{}");
        }
    } else if (e->call.n > 0) {
        go_raw(g, b, e->call.args[0], depth);
    }
    buf_putc(b, ')');
    return true;
}

/* A value with no schema type to go by, as a plain Go value inside `pulumi.Any(...)`. */
static void go_raw(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth) {
    if (e->kind == PCL_GETATTR && e->x->kind == PCL_CALL && emit_is_method_call(e->x)) {
        go_method_call(g, b, e, depth, true); /* a plain result's attribute (a provider) */
        return;
    }
    switch (e->kind) {
    case PCL_NULL: buf_puts(b, "nil"); return;
    case PCL_BOOL: buf_puts(b, e->b ? "true" : "false"); return;
    case PCL_NUMBER: names_append_number(b, e->n); return;
    case PCL_STRING: go_string(b, e->s); return;
    case PCL_TRAVERSAL: go_traversal(g, b, e); return;
    case PCL_CALL:
        if (emit_is_method_call(e)) {
            go_method_call(g, b, e, depth, true);
            return;
        }
        if (strcmp(e->call.name, "secret") == 0 && e->call.n == 1) {
            buf_puts(b, "pulumi.ToSecret(");
            go_raw(g, b, e->call.args[0], depth);
            buf_puts(b, ")");
            return;
        }
        if (go_asset_call(g, b, e, depth)) return;
        buf_puts(b, "nil");
        return;
    EMIT_CASE_LANGUAGE_EXPRS:
        emit_unwritable(g->base.diags, e, LANG_GO);
        buf_puts(b, "nil");
        return;
    case PCL_TUPLE: {
        go_elem_t *el = arena_alloc(g->base.a, (e->tuple.n + 1) * sizeof *el);
        bool strings = e->tuple.n > 0; /* a list of strings is a []string, as Pulumi writes it */
        for (size_t i = 0; i < e->tuple.n; i++) {
            el[i].value = go_render(g, e->tuple.items[i], NULL, depth + 1, true);
            strings &= e->tuple.items[i]->kind == PCL_STRING;
        }
        buf_puts(b, strings ? "[]string" : "[]interface{}");
        go_write_elems(b, el, e->tuple.n, depth);
        return;
    }
    case PCL_OBJECT: {
        go_elem_t *el = go_map_elems(g, e, NULL, depth, true);
        buf_puts(b, "map[string]interface{}");
        go_write_elems(b, el, e->object.n, depth);
        return;
    }
    }
}

static void go_enum(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t) {
    const char *stem = go_type_stem(g, t);
    const char *tname = go_token_member(g, t->token);
    const schema_enum_value_t *ev = names_enum_value_of(t, e);
    char *member = ev ? names_enum_member(g->base.a, LANG_GO, ev, tname) : NULL;
    if (member) {
        const char *dot = strchr(stem, '.');
        buf_append(b, stem, dot ? (size_t)(dot - stem + 1) : 0);
        buf_printf(b, "%s%s%s", tname, strchr(member, '_') ? "_" : "", member);
        return;
    }
    /* not a known member: a conversion to the enum type still compiles */
    buf_printf(b, "%s(", stem);
    go_raw(g, b, e, 0);
    buf_putc(b, ')');
}

static void go_scalar(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t) {
    schema_kind_t k = t ? t->kind : SCHEMA_ANY;
    if (k == SCHEMA_ENUM) {
        go_enum(g, b, e, t);
        return;
    }
    if (k == SCHEMA_ANY || k == SCHEMA_JSON || k == SCHEMA_UNION || k == SCHEMA_OBJECT || k == SCHEMA_ARRAY ||
        k == SCHEMA_MAP || k == SCHEMA_RESOURCE || k == SCHEMA_ASSET || k == SCHEMA_ARCHIVE) {
        /* no better type: by the literal's own kind */
        if (e->kind == PCL_STRING)
            k = SCHEMA_STRING;
        else if (e->kind == PCL_BOOL)
            k = SCHEMA_BOOL;
        else
            k = names_number_is_int(e->n) ? SCHEMA_INT : SCHEMA_NUMBER;
    }
    switch (k) {
    case SCHEMA_STRING:
        buf_puts(b, "pulumi.String(");
        if (e->kind == PCL_STRING)
            go_string(b, e->s);
        else {
            /* a number or bool into a string property: its text as PCL (JavaScript) prints it (1e-7) */
            buf_putc(b, '"');
            if (e->kind == PCL_BOOL)
                buf_puts(b, e->b ? "true" : "false");
            else
                pv_format_number_js(b, e->n);
            buf_putc(b, '"');
        }
        buf_putc(b, ')');
        return;
    case SCHEMA_BOOL:
        if (e->kind == PCL_BOOL)
            buf_printf(b, "pulumi.Bool(%s)", e->b ? "true" : "false");
        else if (e->kind == PCL_STRING && (strcmp(e->s, "true") == 0 || strcmp(e->s, "false") == 0))
            buf_printf(b, "pulumi.Bool(%s)", e->s);
        else
            go_scalar(g, b, e, NULL);
        return;
    case SCHEMA_INT:
    case SCHEMA_NUMBER: {
        double n = e->n;
        if (e->kind == PCL_STRING) {
            char *end;
            n = strtod(e->s, &end);
            if (!*e->s || *end) {
                go_scalar(g, b, e, NULL);
                return;
            }
        } else if (e->kind == PCL_BOOL) {
            go_scalar(g, b, e, NULL);
            return;
        }
        if (k == SCHEMA_INT && names_number_is_int(n))
            buf_puts(b, "pulumi.Int(");
        else
            buf_puts(b, "pulumi.Float64(");
        names_append_number(b, n);
        buf_putc(b, ')');
        return;
    }
    default: buf_puts(b, "nil"); return;
    }
}

/* --- the expression language ------------------------------------------------------------------------
 *
 * Locals, operators, conditionals, templates, for expressions, index and attribute access, written
 * as Pulumi's Go generator writes them. Go is typed and has no conditional expression, so:
 * - every such expression is typed first (go_infer: string, int, float64, bool, slices, maps,
 *   the SDK's structs; a schema property that is not required is a pointer), and one whose type
 *   the program does not show is refused with its position;
 * - a conditional becomes a temporary assigned in an if/else (`var tmp0 string`), a for
 *   expression a loop appending to `forResult0` (a map's keys sorted first), both written before
 *   the statement that uses them (g->pre);
 * - an expression that reads outputs is computed inside `x.ApplyT(func(x T) (R, error) {...})`,
 *   or `pulumi.All(a, b).ApplyT(func(_args []interface{}) ...)` for several, asserted to R's
 *   Output type; a template over outputs alone is `pulumi.Sprintf`;
 * - a plain value at an input position is wrapped by its type (`pulumi.String(x)`,
 *   `pulumi.ToStringArray(xs)`).
 * Spacing around binary operators follows gofmt (go/printer's cutoff by nesting depth, g->gd). */

typedef enum {
    GV_UNKNOWN = 0,
    GV_STRING,
    GV_INT,
    GV_FLOAT,
    GV_BOOL,
    GV_LIST,
    GV_MAP,
    GV_OBJECT,
    GV_ANY,
    GV_HOOK_ARGS /* a hook's `args` (*pulumi.ResourceHookArgs): its name and type are strings */
} go_vk_t;

typedef struct go_vt go_vt_t;
/* A local's type (a struct, so that the per-node array is an array of aggregates). */
typedef struct go_local {
    const go_vt_t *t;
} go_local_t;

struct go_vt {
    go_vk_t kind;
    bool ptr;                 /* an optional scalar or object of the SDK: *T */
    const struct go_vt *elem; /* LIST, MAP */
    const schema_type_t *obj; /* OBJECT: the schema object type (its token names the struct) */
    const schema_package_t *pkg;
};

static const go_vt_t GV_T_UNKNOWN = {GV_UNKNOWN, false, NULL, NULL, NULL};

static const go_vt_t *go_vt(go_ctx_t *g, go_vk_t kind, const go_vt_t *elem) {
    go_vt_t *t = arena_alloc(g->base.a, sizeof *t);
    *t = (go_vt_t){.kind = kind, .elem = elem};
    return t;
}

static const go_vt_t *go_vt_ptr(go_ctx_t *g, const go_vt_t *t, bool ptr) {
    if (t->ptr == ptr) return t;
    go_vt_t *c = arena_alloc(g->base.a, sizeof *c);
    *c = *t;
    c->ptr = ptr;
    return c;
}

/* The Go type of an output property of schema type t (its value inside an apply). */
static const go_vt_t *go_vt_schema(go_ctx_t *g, const schema_type_t *t, bool required, const schema_package_t *pkg) {
    if (!t) return &GV_T_UNKNOWN;
    const go_vt_t *r;
    switch (t->kind) {
    case SCHEMA_STRING: r = go_vt(g, GV_STRING, NULL); break;
    case SCHEMA_INT: r = go_vt(g, GV_INT, NULL); break;
    case SCHEMA_NUMBER: r = go_vt(g, GV_FLOAT, NULL); break;
    case SCHEMA_BOOL: r = go_vt(g, GV_BOOL, NULL); break;
    case SCHEMA_ANY:
    case SCHEMA_JSON: return go_vt(g, GV_ANY, NULL);
    case SCHEMA_ARRAY:
    case SCHEMA_MAP: {
        const go_vt_t *el = go_vt_schema(g, t->element, true, pkg);
        if (el->kind == GV_UNKNOWN) return el;
        return go_vt(g, t->kind == SCHEMA_ARRAY ? GV_LIST : GV_MAP, el);
    }
    case SCHEMA_OBJECT: {
        if (!t->object || !t->token || t->external_ref) return &GV_T_UNKNOWN;
        go_vt_t *o = arena_alloc(g->base.a, sizeof *o);
        *o = (go_vt_t){.kind = GV_OBJECT, .obj = t, .pkg = pkg};
        r = o;
        break;
    }
    default: return &GV_T_UNKNOWN;
    }
    return required ? r : go_vt_ptr(g, r, true);
}

/* `string`, `*float64`, `[]string`, `map[string]bool`, `mod.Data`, `interface{}`. */
static const char *go_vt_name(go_ctx_t *g, const go_vt_t *t) {
    const char *s;
    switch (t->kind) {
    case GV_STRING: s = "string"; break;
    case GV_INT: s = "int"; break;
    case GV_FLOAT: s = "float64"; break;
    case GV_BOOL: s = "bool"; break;
    case GV_LIST: return arena_sprintf(g->base.a, "[]%s", go_vt_name(g, t->elem));
    case GV_MAP: return arena_sprintf(g->base.a, "map[string]%s", go_vt_name(g, t->elem));
    case GV_OBJECT: {
        const char *name = go_object_type_name(g, (schema_package_t *)t->pkg, t->obj->token, false);
        s = arena_sprintf(g->base.a, "%s.%s", go_import_for(g, (schema_package_t *)t->pkg, t->obj->token),
                          name ? name : go_token_member(g, t->obj->token));
        break;
    }
    default: return "interface{}";
    }
    return t->ptr ? arena_sprintf(g->base.a, "*%s", s) : s;
}

/* The SDK's name stem of t's Output and Input types (`String`, `Float64Array`, `mod.DataPtr`), or
 * NULL when the SDK has none (lists and maps nest two deep at most). */
static const char *go_vt_stem(go_ctx_t *g, const go_vt_t *t, int level) {
    const char *s = NULL;
    if (level > 0 && t->ptr) return NULL; /* the SDK has no lists or maps of pointers (StringPtrArray) */
    switch (t->kind) {
    case GV_STRING: s = "pulumi.String"; break;
    case GV_INT: s = "pulumi.Int"; break;
    case GV_FLOAT: s = "pulumi.Float64"; break;
    case GV_BOOL: s = "pulumi.Bool"; break;
    case GV_ANY: return level == 0 ? "pulumi.Any" : "pulumi.";
    case GV_OBJECT: s = go_vt_name(g, go_vt_ptr(g, t, false)); break;
    case GV_LIST:
    case GV_MAP: {
        if (level >= 2) return NULL;
        const char *e = go_vt_stem(g, t->elem, level + 1);
        if (!e) return NULL;
        return arena_sprintf(g->base.a, "%s%s", e, t->kind == GV_LIST ? "Array" : "Map");
    }
    default: return NULL;
    }
    return t->ptr ? arena_sprintf(g->base.a, "%sPtr", s) : s;
}

/* The Output type an apply computing t is asserted to. */
static const char *go_vt_output(go_ctx_t *g, const go_vt_t *t) {
    const char *s = go_vt_stem(g, t, 0);
    if (!s || t->kind == GV_ANY) return "pulumi.AnyOutput";
    return arena_sprintf(g->base.a, "%sOutput", s);
}

/* Whether a value of type t passes at an input of schema type want (NULL: any input). */
static bool go_vt_fits(const go_vt_t *t, const schema_type_t *want) {
    if (!want || want->kind == SCHEMA_ANY || want->kind == SCHEMA_JSON) return true;
    if (t->ptr) return false;
    switch (want->kind) {
    case SCHEMA_STRING: return t->kind == GV_STRING;
    case SCHEMA_INT: return t->kind == GV_INT;
    case SCHEMA_NUMBER: return t->kind == GV_FLOAT;
    case SCHEMA_BOOL: return t->kind == GV_BOOL;
    case SCHEMA_ARRAY: return t->kind == GV_LIST && go_vt_fits(t->elem, want->element);
    case SCHEMA_MAP: return t->kind == GV_MAP && go_vt_fits(t->elem, want->element);
    default: return false;
    }
}

/* Whether x and y are the same Go type (compared by shape: naming a struct would import it). */
static bool go_vt_same(go_ctx_t *g, const go_vt_t *x, const go_vt_t *y) {
    if (x->kind != y->kind || x->ptr != y->ptr) return false;
    if (x->kind == GV_LIST || x->kind == GV_MAP) return go_vt_same(g, x->elem, y->elem);
    return x->kind != GV_OBJECT || strcmp(x->obj->token, y->obj->token) == 0;
}

/* An error naming the construct and its position (the reporting pass only); returns unknown. */
static const go_vt_t *go_refuse(go_ctx_t *g, const pcl_expr_t *e, const char *why) {
    g->refused = true;
    if (g->base.report) {
        const pcl_node_t *n = g->base.node;
        diag_add(g->base.diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "%s:%d:%d: %s '%s': %s; the Go emitter cannot write this yet",
                 g->base.p->filename ? g->base.p->filename : "<program>",
                 e->line ? e->line
                 : n     ? n->line
                         : 0,
                 e->line ? e->col
                 : n     ? n->col
                         : 0,
                 !n                           ? "program"
                 : n->kind == PCL_NODE_OUTPUT ? "output"
                 : n->kind == PCL_NODE_LOCAL  ? "local"
                 : n->kind == PCL_NODE_HOOK   ? "hook"
                 : n->kind == PCL_NODE_CONFIG ? "config"
                                              : "resource",
                 n ? n->name : "?", why);
    }
    return &GV_T_UNKNOWN;
}

/* What to call e in a refusal: "the operator '+'", "a conditional '? :'", ... */
static const char *go_what(go_ctx_t *g, const pcl_expr_t *e) {
    const char *w = pcl_expr_kind_name(e);
    return e->op ? arena_sprintf(g->base.a, "%s '%s'", w, e->op) : w;
}

/* Go's precedence of a PCL binary operator (|| 1, && 2, comparisons 3, + - 4, * / % 5). */
static int go_prec(const char *op) {
    int p = emit_binop_prec(op);
    return p <= 3 ? p : p - 1;
}

static const go_vt_t *go_infer(go_ctx_t *g, const pcl_expr_t *e);

/* An operand's type in arithmetic: a value of no type (interface{}) is a JSON number there, a
 * float64 once asserted (go_arith_operand). */
static const go_vt_t *go_arith_type(go_ctx_t *g, const pcl_expr_t *e) {
    const go_vt_t *t = go_infer(g, e);
    return t->kind == GV_ANY && !t->ptr ? go_vt(g, GV_FLOAT, NULL) : t;
}

static const go_vt_t *go_scope_type(const go_ctx_t *g, const char *name) {
    for (size_t i = g->n_scope; i > 0; i--)
        if (strcmp(g->scope[i - 1], name) == 0) return g->scope_type[i - 1];
    return NULL;
}

/* The type of one traversal part applied to a value of type t. */
static const go_vt_t *go_vt_part(go_ctx_t *g, const go_vt_t *t, const pcl_trav_part_t *pt) {
    if (t->kind == GV_ANY) return t;
    if (t->kind == GV_HOOK_ARGS)
        return pt->attr && (strcmp(pt->attr, "name") == 0 || strcmp(pt->attr, "type") == 0) ? go_vt(g, GV_STRING, NULL)
                                                                                            : &GV_T_UNKNOWN;
    if (pt->attr) {
        if (t->kind == GV_MAP) return t->elem;
        if (t->kind != GV_OBJECT) return &GV_T_UNKNOWN;
        const schema_object_t *o = t->obj->object;
        const schema_property_t *pr = schema_find_property(o->props, o->n_props, pt->attr);
        return pr ? go_vt_schema(g, pr->type, pr->required, t->pkg) : &GV_T_UNKNOWN;
    }
    if (t->ptr) return &GV_T_UNKNOWN;
    if (pt->index_is_string) return t->kind == GV_MAP ? t->elem : &GV_T_UNKNOWN;
    return t->kind == GV_LIST ? t->elem : &GV_T_UNKNOWN;
}

/* Whether a config node is of an object type (`object({a=T})`) with no default: decoded into a
 * map[string]interface{}, as Pulumi writes it (its fields read as interface{} values). */
static bool go_cfg_object(const pcl_node_t *n, const emit_cfg_type_t *t) {
    return t->kind == EMIT_CFG_ANY && t->n_fields > 0 && n->n_attrs == 0;
}

/* The value type of a config node (a plain value, or inside an apply when secret). */
static const go_vt_t *go_cfg_vt(go_ctx_t *g, const emit_cfg_type_t *c) {
    switch (c->kind) {
    case EMIT_CFG_STRING: return go_vt(g, GV_STRING, NULL);
    case EMIT_CFG_INT: return go_vt(g, GV_INT, NULL);
    case EMIT_CFG_NUMBER: return go_vt(g, GV_FLOAT, NULL);
    case EMIT_CFG_BOOL: return go_vt(g, GV_BOOL, NULL);
    case EMIT_CFG_LIST: return go_vt(g, GV_LIST, go_cfg_vt(g, c->elem));
    case EMIT_CFG_MAP: return go_vt(g, GV_MAP, go_cfg_vt(g, c->elem));
    case EMIT_CFG_ANY: break;
    }
    return go_vt(g, GV_ANY, NULL);
}

/* The type of a traversal's root and its first `upto` parts. */
static const go_vt_t *go_infer_trav(go_ctx_t *g, const pcl_expr_t *e, size_t upto) {
    const go_vt_t *t = go_scope_type(g, e->trav.root);
    size_t i = 0;
    if (!t) {
        int idx = emit_typed_find(&g->base, e->trav.root);
        if (idx < 0) return &GV_T_UNKNOWN;
        const pcl_node_t *n = &g->base.p->nodes[idx];
        switch (n->kind) {
        case PCL_NODE_LOCAL:
            if (!g->local_type[idx].t) {
                /* a placeholder while the local is typed breaks a cycle (refused elsewhere) */
                g->local_type[idx].t = &GV_T_UNKNOWN;
                g->local_type[idx].t = go_infer(g, n->attrs[0].value);
            }
            t = g->local_type[idx].t;
            break;
        case PCL_NODE_CONFIG: {
            const emit_cfg_type_t *ct = emit_config_type(g->base.a, n->token);
            t = go_cfg_object(n, ct) ? go_vt(g, GV_MAP, go_vt(g, GV_ANY, NULL)) : go_cfg_vt(g, ct);
            break;
        }
        case PCL_NODE_RESOURCE: {
            if (e->trav.n == 0 || !e->trav.parts[0].attr || !n->schema) return &GV_T_UNKNOWN;
            const char *a = e->trav.parts[0].attr;
            /* an apply's parameter of pulumi.ID or pulumi.URN, read as string(id) (go_plain_trav) */
            if (strcmp(a, "id") == 0 || strcmp(a, "urn") == 0)
                return e->trav.n == 1 && upto == 1 ? go_vt(g, GV_STRING, NULL) : &GV_T_UNKNOWN;
            const schema_property_t *pr = schema_find_property(n->schema->outputs, n->schema->n_outputs, a);
            if (!pr) return &GV_T_UNKNOWN;
            t = go_vt_schema(g, pr->type, pr->required, n->package);
            i = 1;
            break;
        }
        default: return &GV_T_UNKNOWN;
        }
    }
    for (; i < upto && t->kind != GV_UNKNOWN; i++)
        t = go_vt_part(g, t, &e->trav.parts[i]);
    return t;
}

/* Whether e is a number literal (an untyped constant in Go). */
static bool go_is_num_lit(const pcl_expr_t *e) {
    return e->kind == PCL_NUMBER || (e->kind == PCL_UNARY && e->op[0] == '-' && e->x->kind == PCL_NUMBER);
}

/* Two operands' common type: a number literal takes the other's (a fraction never an int's). */
static const go_vt_t *go_unify(go_ctx_t *g, const pcl_expr_t *x, const go_vt_t *tx, const pcl_expr_t *y,
                               const go_vt_t *ty) {
    if (tx->kind == GV_UNKNOWN || ty->kind == GV_UNKNOWN) return &GV_T_UNKNOWN;
    if (go_is_num_lit(x) && (ty->kind == GV_INT || ty->kind == GV_FLOAT) && !ty->ptr)
        return ty->kind == GV_FLOAT || names_number_is_int(x->kind == PCL_NUMBER ? x->n : x->x->n) ? ty : &GV_T_UNKNOWN;
    if (go_is_num_lit(y) && (tx->kind == GV_INT || tx->kind == GV_FLOAT) && !tx->ptr)
        return tx->kind == GV_FLOAT || names_number_is_int(y->kind == PCL_NUMBER ? y->n : y->x->n) ? tx : &GV_T_UNKNOWN;
    return go_vt_same(g, tx, ty) ? tx : &GV_T_UNKNOWN;
}

static bool go_is_null(const pcl_expr_t *e) {
    return e->kind == PCL_NULL;
}

/* Whether a Go value of type t may be compared with nil. */
static bool go_vt_nilable(const go_vt_t *t) {
    return t->ptr || t->kind == GV_LIST || t->kind == GV_MAP || t->kind == GV_ANY;
}

/* The plain Go type of e's value (inside an apply when it reads outputs); unknown (refused, when
 * reporting) when the program does not show it or Go cannot compute it. */
/* The element type of a list or map so far (el, NULL before the first) joined with the next
 * element's: the one type they share, else any. */
static const go_vt_t *go_vt_join(go_ctx_t *g, const go_vt_t *el, const go_vt_t *t) {
    if (!el) return t;
    return go_vt_same(g, el, t) ? el : go_vt(g, GV_ANY, NULL);
}

/* Brings a for expression's variables into scope — the key (a list's index, a map's key) when it
 * names one, and the value — typed by the collection c; returns the depth to restore. The caller
 * has checked there is room for two. */
static size_t go_scope_push_for(go_ctx_t *g, const pcl_expr_t *e, const go_vt_t *c) {
    size_t saved = g->n_scope;
    if (e->kvar) {
        g->scope[g->n_scope] = e->kvar;
        g->scope_type[g->n_scope++] = go_vt(g, c->kind == GV_LIST ? GV_INT : GV_STRING, NULL);
    }
    g->scope[g->n_scope] = e->vvar;
    g->scope_type[g->n_scope++] = c->elem;
    return saved;
}

/* --- PCL's built-in functions, as Pulumi's Go generator writes them ---------------------------------
 *
 * Each takes and gives plain Go values (inside an apply when its arguments read outputs): its
 * form with $0, $1 the arguments, the imports it needs and the helper function (written after the
 * imports) it calls. Their types are checked in go_infer_call; what does not fit is refused. */

enum {
    GO_HELPER_CAN,
    GO_HELPER_ELEMENT,
    GO_HELPER_ENTRIES,
    GO_HELPER_FILEBASE64,
    GO_HELPER_FILEBASE64SHA256,
    GO_HELPER_FORMAT_NUMBER,
    GO_HELPER_GRAPHEME_LENGTH,
    GO_HELPER_LOOKUP,
    GO_HELPER_MAP_KEY,
    GO_HELPER_NUMBER,
    GO_HELPER_MARSHAL_JSON,
    GO_HELPER_NOT_IMPLEMENTED,
    GO_HELPER_PCL_INT,
    GO_HELPER_READFILE,
    GO_HELPER_SHA1,
    GO_HELPER_SINGLE_OR_NONE,
    GO_HELPER_TRY,
    GO_N_HELPERS
};

/* The helpers in Pulumi's order (by name), each with the imports it needs. */
static const struct {
    const char *text;
    const char *imports[3];
} GO_HELPERS[GO_N_HELPERS] = {
    /* PCL's can(x): whether evaluating x succeeds. What fails in PCL panics in the written Go (a
     * map's missing key by mapKey, an index past the end, an attribute of null or a failed type
     * assertion by Go itself), and the helper recovers the panic */
    [GO_HELPER_CAN] = {"func can(fn func() interface{}) (ok bool) {\n"
                       "\t// PCL's can(): whether evaluating fn succeeds (a failure panics)\n"
                       "\tdefer func() {\n"
                       "\t\tif recover() != nil {\n"
                       "\t\t\tok = false\n"
                       "\t\t}\n"
                       "\t}()\n"
                       "\tfn()\n"
                       "\treturn true\n"
                       "}\n",
                       {NULL, NULL, NULL}},
    /* PCL's element(list, index): the index taken modulo the list's length (go-cty's ElementFunc), a
     * failure for a negative index or an empty list; a slice's index panics past the end */
    [GO_HELPER_ELEMENT] = {"func element[T any](list []T, index int) T {\n"
                           "\t// PCL's element(): the index taken modulo the list's length (not negative)\n"
                           "\tif index < 0 {\n"
                           "\t\tpanic(\"element: the index is negative\")\n"
                           "\t}\n"
                           "\tif len(list) == 0 {\n"
                           "\t\tpanic(\"element: the list is empty\")\n"
                           "\t}\n"
                           "\treturn list[index%len(list)]\n"
                           "}\n",
                           {NULL, NULL, NULL}},
    /* PCL's entries(map): its keys in order, each with its value, as TypeScript's
     * Object.entries(m).sort().map(([k, v]) => ({key: k, value: v})) */
    [GO_HELPER_ENTRIES] = {"func entries[V any](m map[string]V) []interface{} {\n"
                           "\tkeys := make([]string, 0, len(m))\n"
                           "\tfor k := range m {\n"
                           "\t\tkeys = append(keys, k)\n"
                           "\t}\n"
                           "\tsort.Strings(keys)\n"
                           "\tresult := make([]interface{}, 0, len(keys))\n"
                           "\tfor _, k := range keys {\n"
                           "\t\tresult = append(result, map[string]interface{}{\"key\": k, \"value\": m[k]})\n"
                           "\t}\n"
                           "\treturn result\n"
                           "}\n",
                           {"sort", NULL, NULL}},
    [GO_HELPER_FILEBASE64] = {"func filebase64OrPanic(path string) string {\n"
                              "\tif fileData, err := os.ReadFile(path); err == nil {\n"
                              "\t\treturn base64.StdEncoding.EncodeToString(fileData[:])\n"
                              "\t} else {\n"
                              "\t\tpanic(err.Error())\n"
                              "\t}\n"
                              "}\n",
                              {"encoding/base64", "os", NULL}},
    [GO_HELPER_FILEBASE64SHA256] = {"func filebase64sha256OrPanic(path string) string {\n"
                                    "\tif fileData, err := os.ReadFile(path); err == nil {\n"
                                    "\t\thashedData := sha256.Sum256([]byte(fileData))\n"
                                    "\t\treturn base64.StdEncoding.EncodeToString(hashedData[:])\n"
                                    "\t} else {\n"
                                    "\t\tpanic(err.Error())\n"
                                    "\t}\n"
                                    "}\n",
                                    {"crypto/sha256", "encoding/base64", "os"}},
    /* A number in a template as PCL (JavaScript's String(n)) prints it: digits without an exponent
     * from 1e-6 up to 1e21 (1000000, where Go's %v prints 1e+06), else the shortest digits with one
     * (1e+21, 1.5e-7: Go pads the exponent to two digits); -0 as 0; Infinity (Go: +Inf). Pulumi's Go
     * generator has none (it writes %v). */
    [GO_HELPER_FORMAT_NUMBER] =
        {"func formatNumber(v float64) string {\n"
         "\tif math.IsInf(v, 1) {\n"
         "\t\treturn \"Infinity\"\n"
         "\t} else if math.IsInf(v, -1) {\n"
         "\t\treturn \"-Infinity\"\n"
         "\t}\n"
         "\tif a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {\n"
         "\t\ts := strconv.FormatFloat(v, 'e', -1, 64)\n"
         "\t\treturn strings.Replace(strings.Replace(s, \"e-0\", \"e-\", 1), \"e+0\", \"e+\", 1)\n"
         "\t}\n"
         "\treturn strconv.FormatFloat(v+0, 'f', -1, 64)\n"
         "}\n",
         {"math", "strconv", "strings"}},
    /* PCL's length() of a string counts extended grapheme clusters (go-cty's, Unicode 15.0's rules,
     * UAX #29); Go's len counts bytes. As the Python emitter's helper: the tables are emit_helper_puts'
     * (walk.c), categories from the Go toolchain's unicode package. */
    [GO_HELPER_GRAPHEME_LENGTH] =
        {"func graphemeLength(s string) int {\n"
         "\t// extended grapheme clusters by Unicode 15.0's rules (UAX #29), as PCL counts them\n"
         "\twithin := func(r rune, bounds []rune) bool { // bounds: starts and ends (exclusive), sorted\n"
         "\t\tlo, hi := 0, len(bounds)\n"
         "\t\tfor lo < hi {\n"
         "\t\t\tmid := (lo + hi) / 2\n"
         "\t\t\tif bounds[mid] <= r {\n"
         "\t\t\t\tlo = mid + 1\n"
         "\t\t\t} else {\n"
         "\t\t\t\thi = mid\n"
         "\t\t\t}\n"
         "\t\t}\n"
         "\t\treturn lo%2 == 1\n"
         "\t}\n"
         "\t@grapheme-tables\n"
         "\tkind := func(r rune) string {\n"
         "\t\tswitch {\n"
         "\t\tcase r == '\\r' || r == '\\n':\n"
         "\t\t\treturn string(r)\n"
         "\t\tcase r == 0x200D:\n"
         "\t\t\treturn \"ZWJ\"\n"
         "\t\tcase r >= 0x1F1E6 && r <= 0x1F1FF:\n"
         "\t\t\treturn \"RI\"\n"
         "\t\tcase r >= 0x1100 && r <= 0x115F || r >= 0xA960 && r <= 0xA97C:\n"
         "\t\t\treturn \"L\"\n"
         "\t\tcase r >= 0x1160 && r <= 0x11A7 || r >= 0xD7B0 && r <= 0xD7C6:\n"
         "\t\t\treturn \"V\"\n"
         "\t\tcase r >= 0x11A8 && r <= 0x11FF || r >= 0xD7CB && r <= 0xD7FB:\n"
         "\t\t\treturn \"T\"\n"
         "\t\tcase r >= 0xAC00 && r <= 0xD7A3 && (r-0xAC00)%28 == 0:\n"
         "\t\t\treturn \"LV\"\n"
         "\t\tcase r >= 0xAC00 && r <= 0xD7A3:\n"
         "\t\t\treturn \"LVT\"\n"
         "\t\tcase within(r, prepend):\n"
         "\t\t\treturn \"Prepend\"\n"
         "\t\tcase unicode.In(r, unicode.Mn, unicode.Me) || within(r, otherExtend):\n"
         "\t\t\treturn \"Extend\"\n"
         "\t\tcase unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) || r == 0x2065 ||\n"
         "\t\t\tr >= 0xFFF0 && r <= 0xFFF8 || r >= 0xE0000 && r <= 0xE0FFF:\n"
         "\t\t\treturn \"Control\"\n"
         "\t\tcase unicode.Is(unicode.Mc, r) && !within(r, notSpacing) || r == 0xE33 || r == 0xEB3:\n"
         "\t\t\treturn \"SpacingMark\"\n"
         "\t\tcase within(r, pictographic):\n"
         "\t\t\treturn \"Pictographic\"\n"
         "\t\t}\n"
         "\t\treturn \"\"\n"
         "\t}\n"
         "\tcount, prev, regional, emoji := 0, \"\", 0, 0\n"
         "\tfor i, r := range s {\n"
         "\t\tk := kind(r)\n"
         "\t\tvar joined bool\n"
         "\t\tswitch {\n"
         "\t\tcase i == 0:\n"
         "\t\t\tjoined = false\n"
         "\t\tcase prev == \"\\r\" && k == \"\\n\":\n"
         "\t\t\tjoined = true\n"
         "\t\tcase prev == \"\\r\" || prev == \"\\n\" || prev == \"Control\" || k == \"\\r\" || k == \"\\n\" || k == "
         "\"Control\":\n"
         "\t\t\tjoined = false\n"
         "\t\tdefault:\n"
         "\t\t\tjoined = prev == \"L\" && (k == \"L\" || k == \"V\" || k == \"LV\" || k == \"LVT\") ||\n"
         "\t\t\t\t(prev == \"LV\" || prev == \"V\") && (k == \"V\" || k == \"T\") ||\n"
         "\t\t\t\t(prev == \"LVT\" || prev == \"T\") && k == \"T\" ||\n"
         "\t\t\t\tk == \"Extend\" || k == \"ZWJ\" || k == \"SpacingMark\" || prev == \"Prepend\" ||\n"
         "\t\t\t\tprev == \"ZWJ\" && k == \"Pictographic\" && emoji == 2 ||\n"
         "\t\t\t\tprev == \"RI\" && k == \"RI\" && regional%2 == 1\n"
         "\t\t}\n"
         "\t\tif !joined {\n"
         "\t\t\tcount++\n"
         "\t\t}\n"
         "\t\tif k == \"RI\" {\n"
         "\t\t\tregional++\n"
         "\t\t} else {\n"
         "\t\t\tregional = 0\n"
         "\t\t}\n"
         "\t\tswitch {\n"
         "\t\tcase k == \"Pictographic\":\n"
         "\t\t\temoji = 1\n"
         "\t\tcase emoji == 1 && k == \"ZWJ\":\n"
         "\t\t\temoji = 2\n"
         "\t\tcase emoji == 1 && k == \"Extend\":\n"
         "\t\tdefault:\n"
         "\t\t\temoji = 0\n"
         "\t\t}\n"
         "\t\tprev = k\n"
         "\t}\n"
         "\treturn count\n"
         "}\n",
         {"unicode", NULL, NULL}},
    /* PCL's lookup(map, key, default): the key's value when the map has the key, else the default */
    [GO_HELPER_LOOKUP] = {"func lookup[V any](m map[string]V, key string, def V) V {\n"
                          "\tif v, ok := m[key]; ok {\n"
                          "\t\treturn v\n"
                          "\t}\n"
                          "\treturn def\n"
                          "}\n",
                          {NULL, NULL, NULL}},
    /* PCL's m[key] inside can() and try(): a key the map does not have fails (panics), where Go's
     * index gives the zero value */
    [GO_HELPER_MAP_KEY] = {"func mapKey[V any](m map[string]V, key string) V {\n"
                           "\t// PCL's m[key]: a key the map does not have fails\n"
                           "\tv, ok := m[key]\n"
                           "\tif !ok {\n"
                           "\t\tpanic(\"the map has no key \" + key)\n"
                           "\t}\n"
                           "\treturn v\n"
                           "}\n",
                           {NULL, NULL, NULL}},
    /* a number of no Go type inside can() and try(): a float64 (decoded JSON) or an int (a literal of
     * the program's own object), where `.(float64)` would fail for the int, a failure PCL does not have */
    [GO_HELPER_NUMBER] = {"func pclNumber(v interface{}) float64 {\n"
                          "\tswitch n := v.(type) {\n"
                          "\tcase float64:\n"
                          "\t\treturn n\n"
                          "\tcase int:\n"
                          "\t\treturn float64(n)\n"
                          "\t}\n"
                          "\tpanic(\"not a number\")\n"
                          "}\n",
                          {NULL, NULL, NULL}},
    [GO_HELPER_NOT_IMPLEMENTED] = {"func notImplemented(message string) any {\n"
                                   "\tpanic(message)\n"
                                   "}\n",
                                   {NULL, NULL, NULL}},
    /* PCL's numbers are float64s: ints added, subtracted or multiplied are computed as float64 (Go's
     * int wraps past 2^63 and stays exact past 2^53, where PCL rounds) and made an int again where
     * the two agree, within 2^53; outside it the program stops rather than go on with another value */
    [GO_HELPER_PCL_INT] = {"func pclInt(v float64) int {\n"
                           "\tif v < -(1<<53) || v > 1<<53 {\n"
                           "\t\tpanic(\"an int computed past 2^53, where PCL's numbers are not exact\")\n"
                           "\t}\n"
                           "\treturn int(v)\n"
                           "}\n",
                           {NULL, NULL, NULL}},
    [GO_HELPER_READFILE] = {"func readFileOrPanic(path string) string {\n"
                            "\tdata, err := os.ReadFile(path)\n"
                            "\tif err != nil {\n"
                            "\t\tpanic(err.Error())\n"
                            "\t}\n"
                            "\treturn string(data)\n"
                            "}\n",
                            {"os", NULL, NULL}},
    /* PCL's toJSON: json.Marshal without its HTML escaping (< > & as \u003c \u003e \u0026),
     * the Encoder's new line dropped */
    [GO_HELPER_MARSHAL_JSON] = {"func marshalJSON(v interface{}) ([]byte, error) {\n"
                                "\tvar b bytes.Buffer\n"
                                "\tenc := json.NewEncoder(&b)\n"
                                "\tenc.SetEscapeHTML(false)\n"
                                "\tif err := enc.Encode(v); err != nil {\n"
                                "\t\treturn nil, err\n"
                                "\t}\n"
                                "\treturn bytes.TrimSuffix(b.Bytes(), []byte(\"\\n\")), nil\n"
                                "}\n",
                                {"bytes", "encoding/json", NULL}},
    [GO_HELPER_SHA1] = {"func sha1Hash(input string) string {\n"
                        "\thash := sha1.Sum([]byte(input))\n"
                        "\treturn hex.EncodeToString(hash[:])\n"
                        "}\n",
                        {"crypto/sha1", "encoding/hex", NULL}},
    /* PCL's singleOrNone(list): the one element, null for none (an interface{}: Go has no null
     * string or number), a failure for more than one, as TypeScript's helper */
    [GO_HELPER_SINGLE_OR_NONE] = {"func singleOrNone[T any](elements []T) interface{} {\n"
                                  "\tif len(elements) > 1 {\n"
                                  "\t\tpanic(\"singleOrNone expected input list to have a single element\")\n"
                                  "\t}\n"
                                  "\tif len(elements) == 0 {\n"
                                  "\t\treturn nil\n"
                                  "\t}\n"
                                  "\treturn elements[0]\n"
                                  "}\n",
                                  {NULL, NULL, NULL}},
    /* PCL's try(x, y, ...): the value of the first argument whose evaluation succeeds (as can()), a
     * failure when none does */
    [GO_HELPER_TRY] = {"func try[T any](fns ...func() T) T {\n"
                       "\t// PCL's try(): the value of the first of fns that succeeds (a failure panics)\n"
                       "\tfor _, fn := range fns {\n"
                       "\t\tvalue, ok := func() (value T, ok bool) {\n"
                       "\t\t\tdefer func() {\n"
                       "\t\t\t\tif recover() != nil {\n"
                       "\t\t\t\t\tok = false\n"
                       "\t\t\t\t}\n"
                       "\t\t\t}()\n"
                       "\t\t\treturn fn(), true\n"
                       "\t\t}()\n"
                       "\t\tif ok {\n"
                       "\t\t\treturn value\n"
                       "\t\t}\n"
                       "\t}\n"
                       "\tpanic(\"try: all parameters failed\")\n"
                       "}\n",
                       {NULL, NULL, NULL}},
};

typedef enum {
    GO_FN_CTX,     /* ctx.Stack(), ...: no arguments, a string */
    GO_FN_STRING,  /* string arguments, a string */
    GO_FN_SPLIT,   /* (string, string) → []string */
    GO_FN_JOIN,    /* (string, []string) → string */
    GO_FN_MINMAX,  /* numbers of one type → that type */
    GO_FN_LEN,     /* a list, map (len) or string (graphemeLength: characters, not bytes) → int */
    GO_FN_RESNAME, /* a resource itself → string */
    GO_FN_PANIC,   /* notImplemented(message): panics; its value is any */
    GO_FN_JSON,    /* toJSON(plain value) → string, marshalled before the statement */
    GO_FN_ELEMENT, /* element(list, whole number) → the list's element type, by the element helper */
    GO_FN_ENTRIES, /* entries(map) → []interface{} of map[string]interface{} of key and value, by key */
    GO_FN_LOOKUP,  /* lookup(map, string, default of the map's element type) → that type */
    GO_FN_SINGLE,  /* singleOrNone(list) → interface{}: its element, or nil */
    GO_FN_CAN,     /* can(x) → bool, x in a closure the helper runs (go_plain_can_try) */
    GO_FN_TRY,     /* try(x, y, ...) → the arguments' one type (else interface{}), each in a closure */
} go_fn_kind_t;

typedef struct go_fn {
    const char *name;
    go_fn_kind_t kind;
    const char *form;   /* $0, $1: the arguments; NULL: written by go_plain_call itself */
    const char *import; /* a package the form names */
    int helper;         /* the helper it calls, or -1 */
} go_fn_t;

static const go_fn_t GO_FNS[] = {
    {"stack", GO_FN_CTX, "ctx.Stack()", NULL, -1},
    {"project", GO_FN_CTX, "ctx.Project()", NULL, -1},
    {"organization", GO_FN_CTX, "ctx.Organization()", NULL, -1},
    {"rootDirectory", GO_FN_CTX, "ctx.RootDirectory()", NULL, -1},
    {"cwd", GO_FN_CTX, NULL, "os", -1},
    {"toBase64", GO_FN_STRING, "base64.StdEncoding.EncodeToString([]byte($0))", "encoding/base64", -1},
    {"fromBase64", GO_FN_STRING, NULL, "encoding/base64", -1},
    {"sha1", GO_FN_STRING, "sha1Hash($0)", NULL, GO_HELPER_SHA1},
    {"readFile", GO_FN_STRING, "readFileOrPanic($0)", NULL, GO_HELPER_READFILE},
    {"filebase64", GO_FN_STRING, "filebase64OrPanic($0)", NULL, GO_HELPER_FILEBASE64},
    {"filebase64sha256", GO_FN_STRING, "filebase64sha256OrPanic($0)", NULL, GO_HELPER_FILEBASE64SHA256},
    {"split", GO_FN_SPLIT, "strings.Split($1, $0)", "strings", -1},
    {"join", GO_FN_JOIN, "strings.Join($1, $0)", "strings", -1},
    {"min", GO_FN_MINMAX, NULL, NULL, -1},
    {"max", GO_FN_MINMAX, NULL, NULL, -1},
    {"length", GO_FN_LEN, "len($0)", NULL, -1},
    {"pulumiResourceName", GO_FN_RESNAME, "$0.PulumiResourceName()", NULL, -1},
    {"pulumiResourceType", GO_FN_RESNAME, "$0.PulumiResourceType()", NULL, -1},
    {"notImplemented", GO_FN_PANIC, "notImplemented($0)", NULL, GO_HELPER_NOT_IMPLEMENTED},
    {"toJSON", GO_FN_JSON, NULL, NULL, GO_HELPER_MARSHAL_JSON},
    {"element", GO_FN_ELEMENT, NULL, NULL, GO_HELPER_ELEMENT},
    {"entries", GO_FN_ENTRIES, NULL, NULL, GO_HELPER_ENTRIES},
    {"lookup", GO_FN_LOOKUP, NULL, NULL, GO_HELPER_LOOKUP},
    {"singleOrNone", GO_FN_SINGLE, "singleOrNone($0)", NULL, GO_HELPER_SINGLE_OR_NONE},
    {"can", GO_FN_CAN, NULL, NULL, GO_HELPER_CAN},
    {"try", GO_FN_TRY, NULL, NULL, GO_HELPER_TRY},
};

static const go_fn_t *go_fn_find(const pcl_expr_t *e) {
    if (e->kind != PCL_CALL || e->function) return NULL; /* an invoke or method call */
    for (size_t i = 0; i < sizeof GO_FNS / sizeof *GO_FNS; i++)
        if (strcmp(GO_FNS[i].name, e->call.name) == 0) return &GO_FNS[i];
    return NULL;
}

/* Whether e is a call of can() or try(). */
static bool go_can_try(const pcl_expr_t *e) {
    const go_fn_t *f = go_fn_find(e);
    return f && (f->kind == GO_FN_CAN || f->kind == GO_FN_TRY);
}

static bool go_vt_is(const go_vt_t *t, go_vk_t kind) {
    return t->kind == kind && !t->ptr;
}

/* The resource node a traversal names with no parts (pulumiResourceName(res)), or NULL. */
static const pcl_node_t *go_resource_arg(go_ctx_t *g, const pcl_expr_t *e) {
    if (e->kind != PCL_TRAVERSAL || e->trav.n != 0) return NULL;
    int idx = emit_typed_find(&g->base, e->trav.root);
    return idx >= 0 && g->base.p->nodes[idx].kind == PCL_NODE_RESOURCE ? &g->base.p->nodes[idx] : NULL;
}

/* The type of a built-in function's result, unknown when its arguments do not fit. */
/* The property of struct type m that lookup(obj, "key", default) names by its literal key, or NULL. */
static const schema_property_t *go_object_key(const go_vt_t *m, const pcl_expr_t *e) {
    const schema_object_t *o = m->obj->object;
    const pcl_expr_t *k = e->call.args[1];
    return k->kind == PCL_STRING ? schema_find_property(o->props, o->n_props, k->s) : NULL;
}

static const go_vt_t *go_infer_call(go_ctx_t *g, const pcl_expr_t *e) {
    const go_fn_t *f = go_fn_find(e);
    if (f && f->kind == GO_FN_MINMAX && e->call.expand_final && e->call.n == 1) {
        /* max(xs...): the list's elements, slices.Max(xs) */
        const go_vt_t *l = go_infer(g, e->call.args[0]);
        bool num = go_vt_is(l, GV_LIST) && (go_vt_is(l->elem, GV_INT) || go_vt_is(l->elem, GV_FLOAT));
        return num ? l->elem : &GV_T_UNKNOWN;
    }
    if (!f || e->call.expand_final) return &GV_T_UNKNOWN;
    const go_vt_t *str = go_vt(g, GV_STRING, NULL);
    switch (f->kind) {
    case GO_FN_CTX: return e->call.n == 0 ? str : &GV_T_UNKNOWN;
    case GO_FN_STRING:
        for (size_t i = 0; i < e->call.n; i++)
            if (!go_vt_is(go_infer(g, e->call.args[i]), GV_STRING)) return &GV_T_UNKNOWN;
        return str;
    case GO_FN_SPLIT:
        if (e->call.n != 2 || !go_vt_is(go_infer(g, e->call.args[0]), GV_STRING) ||
            !go_vt_is(go_infer(g, e->call.args[1]), GV_STRING))
            return &GV_T_UNKNOWN;
        return go_vt(g, GV_LIST, str);
    case GO_FN_JOIN: {
        if (e->call.n != 2 || !go_vt_is(go_infer(g, e->call.args[0]), GV_STRING)) return &GV_T_UNKNOWN;
        const go_vt_t *l = go_infer(g, e->call.args[1]);
        return go_vt_is(l, GV_LIST) && go_vt_is(l->elem, GV_STRING) ? str : &GV_T_UNKNOWN;
    }
    case GO_FN_MINMAX: {
        if (e->call.n == 0) return &GV_T_UNKNOWN;
        const go_vt_t *t = go_infer(g, e->call.args[0]);
        for (size_t i = 1; i < e->call.n && t->kind != GV_UNKNOWN; i++)
            t = go_unify(g, e->call.args[0], t, e->call.args[i], go_infer(g, e->call.args[i]));
        return go_vt_is(t, GV_INT) || go_vt_is(t, GV_FLOAT) ? t : &GV_T_UNKNOWN;
    }
    case GO_FN_LEN: {
        const go_vt_t *t = e->call.n == 1 ? go_infer(g, e->call.args[0]) : &GV_T_UNKNOWN;
        return go_vt_is(t, GV_LIST) || go_vt_is(t, GV_MAP) || go_vt_is(t, GV_STRING) ? go_vt(g, GV_INT, NULL)
                                                                                     : &GV_T_UNKNOWN;
    }
    case GO_FN_RESNAME: return e->call.n == 1 && go_resource_arg(g, e->call.args[0]) ? str : &GV_T_UNKNOWN;
    case GO_FN_JSON: {
        const go_vt_t *t = e->call.n == 1 ? go_infer(g, e->call.args[0]) : &GV_T_UNKNOWN;
        return t->kind != GV_UNKNOWN ? str : &GV_T_UNKNOWN;
    }
    case GO_FN_PANIC:
        return e->call.n == 1 && go_vt_is(go_infer(g, e->call.args[0]), GV_STRING) ? go_vt(g, GV_ANY, NULL)
                                                                                   : &GV_T_UNKNOWN;
    case GO_FN_ELEMENT: { /* a slice's index is an int: a whole-number literal or an int value */
        const go_vt_t *l = e->call.n == 2 ? go_infer(g, e->call.args[0]) : &GV_T_UNKNOWN;
        const pcl_expr_t *i = e->call.n == 2 ? e->call.args[1] : NULL;
        bool index =
            i && (i->kind == PCL_NUMBER ? names_number_is_int(i->n) && i->n >= 0 : go_vt_is(go_infer(g, i), GV_INT));
        return go_vt_is(l, GV_LIST) && index ? l->elem : &GV_T_UNKNOWN;
    }
    case GO_FN_SINGLE:
        return e->call.n == 1 && go_vt_is(go_infer(g, e->call.args[0]), GV_LIST) ? go_vt(g, GV_ANY, NULL)
                                                                                 : &GV_T_UNKNOWN;
    case GO_FN_CAN: /* its argument's value is not used: any type, null too */
        return e->call.n == 1 && (go_is_null(e->call.args[0]) || go_infer(g, e->call.args[0])->kind != GV_UNKNOWN)
                   ? go_vt(g, GV_BOOL, NULL)
                   : &GV_T_UNKNOWN;
    case GO_FN_TRY: { /* the arguments' one type, else interface{} (null too); no pointer (a nil *T in an
                       * interface{} is not nil) */
        const go_vt_t *r = NULL;
        bool null = false;
        for (size_t i = 0; i < e->call.n; i++) {
            if (go_is_null(e->call.args[i])) {
                null = true;
                continue;
            }
            const go_vt_t *t = go_infer(g, e->call.args[i]);
            if (t->kind == GV_UNKNOWN || t->ptr) return &GV_T_UNKNOWN;
            r = go_vt_join(g, r, t);
        }
        return !r ? &GV_T_UNKNOWN : null && !go_vt_nilable(r) ? go_vt(g, GV_ANY, NULL) : r;
    }
    case GO_FN_ENTRIES: { /* a map, or a value of no type asserted one, or a struct (go_object_entries) */
        const go_vt_t *m = e->call.n == 1 ? go_infer(g, e->call.args[0]) : &GV_T_UNKNOWN;
        if (go_vt_is(m, GV_OBJECT) && e->call.args[0]->kind == PCL_TRAVERSAL) {
            const schema_object_t *o = m->obj->object;
            for (size_t i = 0; i < o->n_props; i++)
                if (!o->props[i].required || go_vt_schema(g, o->props[i].type, true, m->pkg)->kind == GV_UNKNOWN)
                    return &GV_T_UNKNOWN;
            return go_vt(g, GV_LIST, go_vt(g, GV_ANY, NULL));
        }
        if (!go_vt_is(m, GV_MAP) && !go_vt_is(m, GV_ANY)) return &GV_T_UNKNOWN;
        return go_vt(g, GV_LIST, go_vt(g, GV_ANY, NULL)); /* of map[string]interface{} */
    }
    case GO_FN_LOOKUP: { /* the default is of the map's element type (any for a value of no type) */
        const go_vt_t *m = e->call.n == 3 ? go_infer(g, e->call.args[0]) : &GV_T_UNKNOWN;
        if (go_vt_is(m, GV_OBJECT)) { /* by a literal key: the field it names, or the default */
            const schema_property_t *p = go_object_key(m, e);
            if (e->call.args[1]->kind != PCL_STRING || e->call.args[0]->kind != PCL_TRAVERSAL || (p && !p->required))
                return &GV_T_UNKNOWN;
            const go_vt_t *d = go_infer(g, e->call.args[2]);
            if (!p) return d;
            const go_vt_t *ft = go_vt_schema(g, p->type, true, m->pkg);
            return go_unify(g, e->call.args[2], d, e->call.args[2], ft)->kind != GV_UNKNOWN ? ft : &GV_T_UNKNOWN;
        }
        const go_vt_t *el = go_vt_is(m, GV_MAP) ? m->elem : go_vt_is(m, GV_ANY) ? m : NULL;
        if (!el || el->kind == GV_UNKNOWN || !go_vt_is(go_infer(g, e->call.args[1]), GV_STRING)) return &GV_T_UNKNOWN;
        const go_vt_t *d = go_infer(g, e->call.args[2]);
        if (el->kind == GV_ANY) return d->kind != GV_UNKNOWN ? el : &GV_T_UNKNOWN;
        return go_unify(g, e->call.args[2], d, e->call.args[2], el)->kind != GV_UNKNOWN ? el : &GV_T_UNKNOWN;
    }
    }
    return &GV_T_UNKNOWN;
}

/* The type of secret(in)'s value: in's, but a list of whole numbers is an []int, as Pulumi writes
 * it (go_secret_call). */
static const go_vt_t *go_secret_arg_type(go_ctx_t *g, const pcl_expr_t *in) {
    bool whole = in->kind == PCL_TUPLE && in->tuple.n > 0;
    for (size_t i = 0; i < in->tuple.n && whole; i++)
        whole = in->tuple.items[i]->kind == PCL_NUMBER && names_number_is_int(in->tuple.items[i]->n);
    return whole ? go_vt(g, GV_LIST, go_vt(g, GV_INT, NULL)) : go_infer(g, in);
}

static const go_vt_t *go_infer(go_ctx_t *g, const pcl_expr_t *e) {
    switch (e->kind) {
    case PCL_STRING: return go_vt(g, GV_STRING, NULL);
    case PCL_TEMPLATE:
        /* %v prints a scalar as PCL does; a pointer would print its address, a list Go's syntax */
        for (size_t i = 0; i < e->tuple.n; i++) {
            const go_vt_t *t = e->tuple.items[i]->kind == PCL_STRING ? NULL : go_infer(g, e->tuple.items[i]);
            if (t && (t->ptr || t->kind < GV_STRING || t->kind > GV_BOOL)) return &GV_T_UNKNOWN;
        }
        return go_vt(g, GV_STRING, NULL);
    case PCL_NUMBER: return go_vt(g, GV_FLOAT, NULL);
    case PCL_BOOL: return go_vt(g, GV_BOOL, NULL);
    case PCL_NULL: return &GV_T_UNKNOWN;
    case PCL_TRAVERSAL: return go_infer_trav(g, e, e->trav.n);
    case PCL_TUPLE: {
        const go_vt_t *el = NULL;
        for (size_t i = 0; i < e->tuple.n; i++) {
            const go_vt_t *t = go_infer(g, e->tuple.items[i]);
            if (t->kind == GV_UNKNOWN) return t;
            el = go_vt_join(g, el, t);
        }
        return go_vt(g, GV_LIST, el ? el : go_vt(g, GV_ANY, NULL));
    }
    case PCL_OBJECT: {
        const go_vt_t *el = NULL;
        for (size_t i = 0; i < e->object.n; i++) {
            const go_vt_t *t = go_infer(g, e->object.items[i].value);
            if (t->kind == GV_UNKNOWN) return t;
            el = go_vt_join(g, el, t);
        }
        return go_vt(g, GV_MAP, el ? el : go_vt(g, GV_ANY, NULL));
    }
    case PCL_CALL:
        if (strcmp(e->call.name, "secret") == 0 && e->call.n == 1) return go_secret_arg_type(g, e->call.args[0]);
        return go_infer_call(g, e);
    case PCL_UNARY: {
        const go_vt_t *t = go_infer(g, e->x);
        bool ok = !t->ptr && (e->op[0] == '!' ? t->kind == GV_BOOL : t->kind == GV_INT || t->kind == GV_FLOAT);
        return ok ? t : &GV_T_UNKNOWN;
    }
    case PCL_BINARY: {
        int p = go_prec(e->op);
        if (p == 3 && (go_is_null(e->x) || go_is_null(e->y))) {
            const go_vt_t *t = go_infer(g, go_is_null(e->x) ? e->y : e->x);
            return go_vt_nilable(t) ? go_vt(g, GV_BOOL, NULL) : &GV_T_UNKNOWN;
        }
        const go_vt_t *t = p >= 4 ? go_unify(g, e->x, go_arith_type(g, e->x), e->y, go_arith_type(g, e->y))
                                  : go_unify(g, e->x, go_infer(g, e->x), e->y, go_infer(g, e->y));
        if (t->kind == GV_UNKNOWN || t->ptr) return &GV_T_UNKNOWN;
        if (p <= 2) return t->kind == GV_BOOL ? t : &GV_T_UNKNOWN;
        bool num = t->kind == GV_INT || t->kind == GV_FLOAT;
        if (p == 3) {
            bool eq = strcmp(e->op, "==") == 0 || strcmp(e->op, "!=") == 0;
            return (num || (eq && (t->kind == GV_STRING || t->kind == GV_BOOL))) ? go_vt(g, GV_BOOL, NULL)
                                                                                 : &GV_T_UNKNOWN;
        }
        if (strcmp(e->op, "%") == 0 && t->kind != GV_INT) return &GV_T_UNKNOWN; /* Go has no float % */
        /* PCL divides numbers exactly; Go's int division would truncate (5 / 2 == 2) */
        if (strcmp(e->op, "/") == 0 && t->kind == GV_INT) return &GV_T_UNKNOWN;
        return num ? t : &GV_T_UNKNOWN;
    }
    case PCL_COND: {
        const go_vt_t *c = go_infer(g, e->x);
        if (c->kind != GV_BOOL || c->ptr) return &GV_T_UNKNOWN;
        return go_unify(g, e->y, go_infer(g, e->y), e->z, go_infer(g, e->z));
    }
    case PCL_INDEX: {
        const go_vt_t *t = go_infer(g, e->x), *k = go_infer(g, e->y);
        if (t->ptr) return &GV_T_UNKNOWN;
        if (t->kind == GV_LIST && (go_is_num_lit(e->y) || k->kind == GV_INT)) return t->elem;
        if (t->kind == GV_MAP && k->kind == GV_STRING && !k->ptr) return t->elem;
        return &GV_T_UNKNOWN;
    }
    case PCL_GETATTR: {
        pcl_trav_part_t pt = {.attr = e->s};
        return go_vt_part(g, go_infer(g, e->x), &pt);
    }
    case PCL_FOR: {
        const go_vt_t *c = go_infer(g, e->x);
        if (c->ptr || (c->kind != GV_LIST && c->kind != GV_MAP) || g->n_scope + 2 > EMIT_MAX_SCOPE)
            return &GV_T_UNKNOWN;
        size_t saved = go_scope_push_for(g, e, c);
        const go_vt_t *r = &GV_T_UNKNOWN;
        const go_vt_t *cond = e->w ? go_infer(g, e->w) : NULL;
        if (!cond || (cond->kind == GV_BOOL && !cond->ptr)) {
            const go_vt_t *v = go_infer(g, e->z);
            if (e->for_object) {
                const go_vt_t *k = go_infer(g, e->y);
                if (k->kind == GV_STRING && !k->ptr && v->kind != GV_UNKNOWN) r = go_vt(g, GV_MAP, v);
            } else if (v->kind != GV_UNKNOWN) {
                r = go_vt(g, GV_LIST, v);
            }
        }
        g->n_scope = saved;
        return r;
    }
    case PCL_SPLAT: {
        const go_vt_t *t = go_infer(g, e->x);
        if (t->ptr || t->kind != GV_LIST) return &GV_T_UNKNOWN;
        const go_vt_t *el = t->elem;
        for (size_t i = 0; i < e->trav.n && el->kind != GV_UNKNOWN; i++)
            el = go_vt_part(g, el, &e->trav.parts[i]);
        return el->kind == GV_UNKNOWN ? el : go_vt(g, GV_LIST, el);
    }
    }
    return &GV_T_UNKNOWN;
}

/* --- plain Go expressions --- */

/* A for-expression variable in Go: a valid identifier that hides no name the loop's body writes
 * (an import, ctx, err, cfg: `for _, fmt := range` would break fmt.Sprintf), else `_` before it. */
static const char *go_scope_name(go_ctx_t *g, const char *name) {
    const char *v = names_make_valid_identifier(g->base.a, LANG_GO, name);
    static const char *const taken[] = {"ctx", "err", "cfg", "pulumi", "fmt", "sort"};
    bool clash = false;
    for (size_t i = 0; i < sizeof taken / sizeof taken[0] && !clash; i++)
        clash = strcmp(taken[i], v) == 0;
    for (size_t i = 0; i < g->n_imports && !clash; i++)
        clash = strcmp(g->imports[i].alias, v) == 0;
    return clash ? arena_sprintf(g->base.a, "_%s", v) : v;
}

static void go_plain(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int gd, const go_vt_t *want);

/* A fresh name `<stem><n>` for a temporary, n counting up across the file (`tmp0`, `forResult1`). */
static const char *go_fresh(go_ctx_t *g, const char *stem, int *counter) {
    for (;;) {
        const char *s = arena_sprintf(g->base.a, "%s%d", stem, (*counter)++);
        if (!g->names || !names_table_has(g->names, s)) return s;
    }
}

/* A line of the statements written before the current one, at g->pre_indent (+ extra). */
static void go_pre_line(go_ctx_t *g, int extra, const char *text) {
    go_indent(g->pre, g->pre_indent + extra);
    buf_puts(g->pre, text);
    buf_putc(g->pre, '\n');
}

/* Renders e as plain Go into a string; what it spills goes to g->pre. */
static char *go_plain_str(go_ctx_t *g, const pcl_expr_t *e, int gd, const go_vt_t *want) {
    buf_t v;
    buf_init(&v);
    go_plain(g, &v, e, gd, want);
    char *r = buf_arena_str(&v, g->base.a);
    buf_free(&v);
    return r;
}

/* The same for a statement's operand at indentation `indent`: what it spills is written there. */
static char *go_plain_stmt(go_ctx_t *g, const pcl_expr_t *e, int indent, int gd, const go_vt_t *want) {
    int saved_pre = g->pre_indent, saved_line = g->line_depth;
    g->pre_indent = indent;
    g->line_depth = indent;
    char *r = go_plain_str(g, e, gd, want);
    g->pre_indent = saved_pre;
    g->line_depth = saved_line;
    return r;
}

/* `var tmp0 T; if c { tmp0 = a } else { tmp0 = b }` before the statement; `tmp0` in its place. */
static void go_plain_cond(go_ctx_t *g, buf_t *b, const pcl_expr_t *e) {
    const go_vt_t *t = go_infer(g, e);
    const char *tmp = go_fresh(g, "tmp", &g->n_tmp);
    /* operands first: what they spill comes before the temporary's if/else */
    char *c = go_plain_stmt(g, e->x, g->pre_indent, 1, NULL);
    go_pre_line(g, 0, arena_sprintf(g->base.a, "var %s %s", tmp, go_vt_name(g, t)));
    go_pre_line(g, 0, arena_sprintf(g->base.a, "if %s {", c));
    char *y = go_plain_stmt(g, e->y, g->pre_indent + 1, 1, t);
    go_pre_line(g, 1, arena_sprintf(g->base.a, "%s = %s", tmp, y));
    go_pre_line(g, 0, "} else {");
    char *z = go_plain_stmt(g, e->z, g->pre_indent + 1, 1, t);
    go_pre_line(g, 1, arena_sprintf(g->base.a, "%s = %s", tmp, z));
    go_pre_line(g, 0, "}");
    buf_puts(b, tmp);
}

static bool go_uses_name(const pcl_expr_t *e, const char *name);

typedef struct go_uses {
    const char *name;
    bool found;
} go_uses_t;

static bool go_uses_one(const pcl_expr_t *e, void *ctx) {
    go_uses_t *u = ctx;
    if (e->kind == PCL_TRAVERSAL && strcmp(e->trav.root, u->name) == 0) u->found = true;
    return !u->found;
}

static bool go_uses_name(const pcl_expr_t *e, const char *name) {
    go_uses_t u = {name, false};
    if (e) pcl_expr_walk(e, go_uses_one, &u);
    return u.found;
}

/* The declaration of the list (or map) a for expression or splat `e` fills: an empty one, not nil —
 * the Go SDK sends a nil slice as null where PCL has [] (read12 F1) — unless it goes straight into
 * pulumi.To...Array(), which makes a slice of its length (make(StringArray, len(in))) and so sends []
 * for nil too: there Pulumi's declaration, `var forResult0 []string`. */
static void go_pre_list(go_ctx_t *g, const pcl_expr_t *e, const char *res, const go_vt_t *rt) {
    if (g->to_list == e && rt->kind == GV_LIST)
        go_pre_line(g, 0, arena_sprintf(g->base.a, "var %s %s", res, go_vt_name(g, rt)));
    else
        go_pre_line(g, 0, arena_sprintf(g->base.a, "%s := %s{}", res, go_vt_name(g, rt)));
}

/* A for expression: a loop filling `forResultN` before the statement; `forResultN` in its place. */
static void go_plain_for(go_ctx_t *g, buf_t *b, const pcl_expr_t *e) {
    const go_vt_t *rt = go_infer(g, e), *ct = go_infer(g, e->x);
    int k = g->n_for++;
    const char *res = arena_sprintf(g->base.a, "forResult%d", k);
    char *coll = go_plain_stmt(g, e->x, g->pre_indent, 1, NULL);
    go_pre_list(g, e, res, rt);
    bool used_k =
        e->kvar && (go_uses_name(e->y, e->kvar) || go_uses_name(e->z, e->kvar) || go_uses_name(e->w, e->kvar));
    bool used_v = go_uses_name(e->y, e->vvar) || go_uses_name(e->z, e->vvar) || go_uses_name(e->w, e->vvar);
    const char *vname = go_scope_name(g, e->vvar);
    const char *kname = e->kvar ? go_scope_name(g, e->kvar) : NULL;
    if (ct->kind == GV_LIST) {
        if (used_v)
            go_pre_line(g, 0, arena_sprintf(g->base.a, "for %s, %s := range %s {", used_k ? kname : "_", vname, coll));
        else if (used_k)
            go_pre_line(g, 0, arena_sprintf(g->base.a, "for %s := range %s {", kname, coll));
        else
            go_pre_line(g, 0, arena_sprintf(g->base.a, "for range %s {", coll));
    } else {
        const char *rng = arena_sprintf(g->base.a, "forRange%d", k), *keys = arena_sprintf(g->base.a, "forKeys%d", k),
                   *key = arena_sprintf(g->base.a, "forKey%d", k);
        go_pre_line(g, 0, arena_sprintf(g->base.a, "%s := %s", rng, coll));
        go_pre_line(g, 0, arena_sprintf(g->base.a, "%s := make([]string, 0, len(%s))", keys, rng));
        go_pre_line(g, 0, arena_sprintf(g->base.a, "for %s := range %s {", key, rng));
        go_pre_line(g, 1, arena_sprintf(g->base.a, "%s = append(%s, %s)", keys, keys, key));
        go_pre_line(g, 0, "}");
        go_pre_line(g, 0, arena_sprintf(g->base.a, "sort.Strings(%s)", keys));
        go_import_add(g, "sort", "sort");
        const char *kv = used_k ? kname : key;
        if (used_k || used_v)
            go_pre_line(g, 0, arena_sprintf(g->base.a, "for _, %s := range %s {", kv, keys));
        else
            go_pre_line(g, 0, arena_sprintf(g->base.a, "for range %s {", keys));
        if (used_v) go_pre_line(g, 1, arena_sprintf(g->base.a, "%s := %s[%s]", vname, rng, kv));
    }
    size_t saved = go_scope_push_for(g, e, ct);
    int in = 1;
    if (e->w) {
        char *c = go_plain_stmt(g, e->w, g->pre_indent + 1, 1, NULL);
        go_pre_line(g, 1, arena_sprintf(g->base.a, "if %s {", c));
        in = 2;
    }
    if (e->for_object) {
        char *key = go_plain_stmt(g, e->y, g->pre_indent + in, 2, NULL);
        char *v = go_plain_stmt(g, e->z, g->pre_indent + in, 1, rt->elem);
        go_pre_line(g, in, arena_sprintf(g->base.a, "%s[%s] = %s", res, key, v));
    } else {
        char *v = go_plain_stmt(g, e->z, g->pre_indent + in, 2, rt->elem);
        go_pre_line(g, in, arena_sprintf(g->base.a, "%s = append(%s, %s)", res, res, v));
    }
    if (e->w) go_pre_line(g, 1, "}");
    go_pre_line(g, 0, "}");
    g->n_scope = saved;
    buf_puts(b, res);
}

static void go_plain_parts(go_ctx_t *g, buf_t *b, size_t start, const go_vt_t *t, const pcl_trav_part_t *parts,
                           size_t from, size_t n);

/* A splat `xs[*].a`: a loop appending each element's `.A` to `splatN` before the statement, as
 * Pulumi's Go generator lowers it; `splatN` in its place. */
static void go_plain_splat(go_ctx_t *g, buf_t *b, const pcl_expr_t *e) {
    const go_vt_t *rt = go_infer(g, e), *ct = go_infer(g, e->x);
    int k = g->n_splat++;
    const char *res = arena_sprintf(g->base.a, "splat%d", k), *val = arena_sprintf(g->base.a, "val%d", k);
    char *coll = go_plain_stmt(g, e->x, g->pre_indent, 1, NULL);
    go_pre_list(g, e, res, rt);
    go_pre_line(g, 0, arena_sprintf(g->base.a, "for _, %s := range %s {", val, coll));
    buf_t item;
    buf_init(&item);
    buf_puts(&item, val);
    go_plain_parts(g, &item, 0, ct->elem, e->trav.parts, 0, e->trav.n);
    go_pre_line(g, 1, arena_sprintf(g->base.a, "%s = append(%s, %s)", res, res, item.data));
    buf_free(&item);
    go_pre_line(g, 0, "}");
    buf_puts(b, res);
}

static void go_use_helper(go_ctx_t *g, int h);

/* A map's value by its key inside can() or try(): `mapKey(m, key)`, which fails (panics) for a key
 * the map does not have, as PCL's index does; the map's text is b's from `start` on. */
static void go_map_key(go_ctx_t *g, buf_t *b, size_t start, const char *key) {
    char *m = arena_strndup(g->base.a, b->data + start, b->len - start);
    b->len = start;
    b->data[start] = 0;
    go_use_helper(g, GO_HELPER_MAP_KEY);
    buf_printf(b, "mapKey(%s, %s)", m, key);
}

/* Traversal parts [from, n) read from a plain value of type t (its text b's from `start` on):
 * `.Field`, `["key"]`, `[0]`; from a value of no type (interface{}) after asserting what the part
 * needs, as Pulumi writes it: `a.(map[string]interface{})["key"]`, `a.([]interface{})[0]`; a map's
 * key inside can() or try() by go_map_key. */
static void go_plain_parts(go_ctx_t *g, buf_t *b, size_t start, const go_vt_t *t, const pcl_trav_part_t *parts,
                           size_t from, size_t n) {
    static const emit_part_syntax_t plain = {
        .lang = LANG_GO, .attr = ".%s", .key_open = "[", .key_close = "]", .index = "[%zu]"};
    for (size_t i = from; i < n; i++) {
        const pcl_trav_part_t *pt = &parts[i];
        if (t->kind == GV_ANY)
            buf_puts(b, pt->attr || pt->index_is_string ? ".(map[string]interface{})" : ".([]interface{})");
        /* an attribute of a struct is its field; of a map, a key */
        bool field = t->kind == GV_OBJECT || t->kind == GV_HOOK_ARGS;
        if (g->in_try && !field && (pt->attr || pt->index_is_string) && (t->kind == GV_MAP || t->kind == GV_ANY)) {
            buf_t k;
            buf_init(&k);
            names_append_quoted(&k, LANG_GO, pt->attr ? pt->attr : pt->index_str);
            go_map_key(g, b, start, k.data);
            buf_free(&k);
        } else {
            emit_append_part(b, pt, pt->attr && field ? go_field_name(g, pt->attr) : NULL, &plain);
        }
        t = go_vt_part(g, t, pt);
    }
}

/* "pulumi.ID" or "pulumi.URN" for a resource's id or urn (the type of its Output), else NULL. */
static const char *go_id_atom(go_ctx_t *g, const pcl_expr_t *e) {
    if (e->kind != PCL_TRAVERSAL || e->trav.n != 1 || !e->trav.parts[0].attr) return NULL;
    int idx = emit_typed_find(&g->base, e->trav.root);
    if (idx < 0 || g->base.p->nodes[idx].kind != PCL_NODE_RESOURCE) return NULL;
    if (strcmp(e->trav.parts[0].attr, "id") == 0) return "pulumi.ID";
    return strcmp(e->trav.parts[0].attr, "urn") == 0 ? "pulumi.URN" : NULL;
}

/* The atom of the current apply that e is, or -1. */
static int go_subst(const go_ctx_t *g, const pcl_expr_t *e) {
    if (!g->ap) return -1;
    for (size_t i = 0; i < g->ap->n; i++)
        if (g->ap->atoms[i] == e) return (int)i;
    return -1;
}

static void go_plain_trav(go_ctx_t *g, buf_t *b, const pcl_expr_t *e) {
    int s = go_subst(g, e);
    size_t start = b->len;
    if (s >= 0 && go_id_atom(g, e)) {
        buf_printf(b, "string(%s)", g->ap->names[s]);
        return;
    }
    if (s >= 0) {
        buf_puts(b, g->ap->names[s]);
        go_plain_parts(g, b, start, go_infer_trav(g, e, g->ap->skip[s]), e->trav.parts, g->ap->skip[s], e->trav.n);
        return;
    }
    if (go_scope_type(g, e->trav.root)) {
        buf_puts(b, go_scope_name(g, e->trav.root));
        go_plain_parts(g, b, start, go_scope_type(g, e->trav.root), e->trav.parts, 0, e->trav.n);
        return;
    }
    int idx = emit_typed_find(&g->base, e->trav.root);
    const char *root = idx >= 0 ? g->base.var[idx] : e->trav.root;
    if (idx >= 0 && g->cfg_value && g->cfg_value[idx]) root = g->cfg_value[idx]; /* the decoded config value */
    buf_puts(b, root);
    go_plain_parts(g, b, start, go_infer_trav(g, e, 0), e->trav.parts, 0, e->trav.n);
}

/* gofmt's cutoff for a binary expression at nesting depth gd (go/printer's walkBinary). */
static void go_walk_binary(const pcl_expr_t *e, bool *has4, bool *has5) {
    int p = go_prec(e->op);
    if (p == 4) *has4 = true;
    if (p == 5) *has5 = true;
    if (e->x->kind == PCL_BINARY && go_prec(e->x->op) >= p) go_walk_binary(e->x, has4, has5);
    if (e->y->kind == PCL_BINARY && go_prec(e->y->op) > p) go_walk_binary(e->y, has4, has5);
}

static int go_cutoff(const pcl_expr_t *e, int gd) {
    bool has4 = false, has5 = false;
    go_walk_binary(e, &has4, &has5);
    if (has4 && has5) return gd == 1 ? 5 : 4;
    return gd == 1 ? 6 : 4;
}

/* An operand: parenthesised when Go would group it otherwise (gofmt: parentheses undo a depth). */
static void go_operand(go_ctx_t *g, buf_t *b, const pcl_expr_t *child, int prec, bool right, int gd,
                       const go_vt_t *want) {
    bool paren = child->kind == PCL_BINARY && (go_prec(child->op) < prec || (right && go_prec(child->op) == prec));
    if (paren) {
        buf_putc(b, '(');
        go_plain(g, b, child, gd > 1 ? gd - 1 : 1, want);
        buf_putc(b, ')');
        return;
    }
    go_plain(g, b, child, gd, want); /* a nested binary takes its own cutoff at its depth */
}

/* An operand of a binary operator; in arithmetic, a value of no type asserted a float64, the Go
 * value a JSON number decodes to (`a.(map[string]interface{})["n"].(float64) + 1`). */
static void go_arith_operand(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int p, bool right, int gd,
                             const go_vt_t *want) {
    size_t start = b->len;
    go_operand(g, b, e, p, right, gd, want);
    const go_vt_t *t = p >= 4 ? go_infer(g, e) : NULL;
    if (!t || t->kind != GV_ANY || t->ptr) return;
    if (!g->in_try) {
        buf_puts(b, ".(float64)");
        return;
    }
    /* inside can() and try() a failed assertion is recovered: an int of the program's own object
     * literal must not read as PCL's failure (read12c F9: try(m.n + 1, 0) gave 0) */
    char *v = arena_strndup(g->base.a, b->data + start, b->len - start);
    b->len = start;
    b->data[start] = 0;
    go_use_helper(g, GO_HELPER_NUMBER);
    buf_printf(b, "pclNumber(%s)", v);
}

/* A number as a Go float constant: a whole one gets `.0` (`7.0`), which Go would read as an int. */
static void go_float_literal(buf_t *b, double n) {
    size_t start = b->len;
    names_append_number(b, n);
    if (strcspn(b->data + start, ".eEIN") == b->len - start) buf_puts(b, ".0");
}

/* A Go constant expression of number literals (`7`, `-2`, `(7 + 1) * 3`): Go evaluates it at compile
 * time with integer division when every literal is whole. */
static bool go_const_number(const pcl_expr_t *e) {
    if (e->kind == PCL_NUMBER) return true;
    if (e->kind == PCL_UNARY) return e->op[0] == '-' && go_const_number(e->x);
    if (e->kind != PCL_BINARY || strchr("+-*/", e->op[0]) == NULL || e->op[1]) return false;
    return go_const_number(e->x) && go_const_number(e->y);
}

/* The helper function h is written after the imports, with the imports it needs. */
static void go_use_helper(go_ctx_t *g, int h) {
    g->helpers |= 1u << h;
    for (size_t i = 0; i < 3 && GO_HELPERS[h].imports[i]; i++)
        go_import_add(g, GO_HELPERS[h].imports[i], go_path_last(GO_HELPERS[h].imports[i]));
}

/* Whether e is ints added, subtracted or multiplied (not only literals: Go folds those exactly). */
static bool go_int_arith(go_ctx_t *g, const pcl_expr_t *e) {
    if (e->kind != PCL_BINARY || !strchr("+-*", e->op[0]) || e->op[1] || go_const_number(e)) return false;
    const go_vt_t *t = go_unify(g, e->x, go_arith_type(g, e->x), e->y, go_arith_type(g, e->y));
    return t->kind == GV_INT && !t->ptr;
}

/* An operand of ints' arithmetic written as float64 (g->int_float): a literal as it is (an untyped
 * constant), that arithmetic itself on, anything else converted: `float64(len(s))`. */
static void go_float_operand(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int p, bool right, int gd,
                             const go_vt_t *want) {
    if (go_is_num_lit(e) || go_int_arith(g, e)) {
        go_arith_operand(g, b, e, p, right, gd, want);
        return;
    }
    g->int_float = false;
    buf_puts(b, "float64(");
    go_operand(g, b, e, 0, false, gd + 1, want);
    buf_putc(b, ')');
    g->int_float = true;
}

static void go_plain_binary(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int gd) {
    int p = go_prec(e->op);
    if (!g->int_float && go_int_arith(g, e)) {
        go_use_helper(g, GO_HELPER_PCL_INT);
        buf_puts(b, "pclInt(");
        g->int_float = true;
        go_plain_binary(g, b, e, gd); /* gofmt spaces a call's only argument as it would the expression */
        g->int_float = false;
        buf_putc(b, ')');
        return;
    }
    bool as_float = g->int_float && go_int_arith(g, e);
    /* PCL divides exactly: `7 / 2` of two literals would be Go's integer constant division (3), so
     * the dividend's literals are written as floats (`7.0 / 2` is 3.5) */
    bool float_lits = g->float_lits;
    if (strcmp(e->op, "/") == 0 && go_const_number(e->x) && go_const_number(e->y)) g->float_lits = true;
    bool blank = p < go_cutoff(e, gd);
    bool eq = p == 3 && (go_is_null(e->x) || go_is_null(e->y));
    const go_vt_t *ot = NULL;
    if (!eq && p >= 4) ot = go_unify(g, e->x, go_arith_type(g, e->x), e->y, go_arith_type(g, e->y));
    if (!eq && p == 3) ot = go_unify(g, e->x, go_infer(g, e->x), e->y, go_infer(g, e->y));
    int dx = e->x->kind == PCL_BINARY && go_prec(e->x->op) == p ? 0 : 1;
    if (go_is_null(e->x))
        buf_puts(b, "nil");
    else if (as_float)
        go_float_operand(g, b, e->x, p, false, gd + dx, ot);
    else
        go_arith_operand(g, b, e->x, p, false, gd + dx, ot);
    g->float_lits = float_lits;
    buf_puts(b, blank ? " " : "");
    buf_puts(b, e->op);
    buf_puts(b, blank ? " " : "");
    if (go_is_null(e->y))
        buf_puts(b, "nil");
    else if (as_float)
        go_float_operand(g, b, e->y, p, true, gd + 1, ot);
    else
        go_arith_operand(g, b, e->y, p, true, gd + 1, ot);
}

/* A template as `fmt.Sprintf("a%vb", x)` (`fn` the function), its literal parts in the format. */

static void go_template(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const char *fn, int gd) {
    buf_t f;
    buf_init(&f);
    size_t nargs = 0;
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *pt = e->tuple.items[i];
        if (pt->kind == PCL_STRING) {
            for (const char *s = pt->s; *s; s++) {
                if (*s == '%') buf_putc(&f, '%');
                buf_putc(&f, *s);
            }
        } else {
            buf_puts(&f, "%v");
            nargs++;
        }
    }
    buf_puts(b, fn);
    buf_putc(b, '(');
    names_append_quoted(b, LANG_GO, f.data ? f.data : "");
    buf_free(&f);
    int ad = nargs > 0 ? gd + 1 : gd;
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *pt = e->tuple.items[i];
        if (pt->kind == PCL_STRING) continue;
        buf_puts(b, ", ");
        /* a float64 as PCL prints it (%v would print 1e+06); a whole literal is an int already */
        bool num = go_vt_is(go_infer(g, pt), GV_FLOAT) && !(pt->kind == PCL_NUMBER && names_number_is_int(pt->n));
        if (num) {
            go_use_helper(g, GO_HELPER_FORMAT_NUMBER);
            buf_puts(b, "formatNumber(");
        }
        go_plain(g, b, pt, ad, NULL);
        if (num) buf_putc(b, ')');
    }
    buf_putc(b, ')');
}

/* entries() or lookup() of a struct of the SDK (a schema object read by a traversal: check.c's
 * keyed_object_lacks): its fields are the schema's properties. entries() lists them by key
 * (strcmp: byte order, as PCL orders keys), `[]interface{}{map[string]interface{}{"key": "a",
 * "value": obj.A}, ...}`; lookup() by a literal key reads the field it names, `obj.A`, or writes the
 * default for a key the type does not have. */
static void go_object_keyed(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int gd) {
    const go_vt_t *m = go_infer(g, e->call.args[0]);
    const schema_object_t *o = m->obj->object;
    if (strcmp(e->call.name, "lookup") == 0) {
        const schema_property_t *p = go_object_key(m, e);
        if (!p) {
            go_plain(g, b, e->call.args[2], gd, go_infer_call(g, e));
            return;
        }
        go_operand(g, b, e->call.args[0], 6, false, gd, NULL);
        buf_printf(b, ".%s", go_field_name(g, p->name));
        return;
    }
    const char **keys = emit_object_keys_sorted(g->base.a, o);
    buf_puts(b, "[]interface{}{");
    for (size_t i = 0; i < o->n_props; i++) {
        buf_printf(b, "%smap[string]interface{}{\"key\": ", i ? ", " : "");
        go_string(b, keys[i]);
        buf_puts(b, ", \"value\": ");
        go_operand(g, b, e->call.args[0], 6, false, gd + 1, NULL);
        buf_printf(b, ".%s}", go_field_name(g, keys[i]));
    }
    buf_putc(b, '}');
}

/* can(x) and try(x, y, ...): each argument a closure the helper calls, `func() T {\n return x\n}`,
 * with the statements its value needs (temporaries, loops) inside it, so that a failure there is
 * the helper's to recover too; what fails in PCL panics inside (g->in_try). toJSON(), whose error
 * the statement returns, is not written there (refused). */
static void go_plain_can_try(go_ctx_t *g, buf_t *b, const pcl_expr_t *e) {
    bool can = e->call.name[0] == 'c';
    const go_vt_t *t = can ? go_vt(g, GV_ANY, NULL) : go_infer_call(g, e);
    const char *type = go_vt_name(g, t);
    int d = g->line_depth;
    buf_puts(b, can ? "can(" : "try(");
    for (size_t i = 0; i < e->call.n; i++) {
        buf_printf(b, "%sfunc() %s {\n", i ? ", " : "", type);
        buf_t *saved_pre = g->pre;
        int saved_indent = g->pre_indent;
        bool saved_err = g->err_declared;
        buf_t pre;
        buf_init(&pre);
        g->pre = &pre;
        g->pre_indent = d + 1;
        g->line_depth = d + 1;
        g->err_declared = false; /* the closure's own scope */
        g->in_try++;
        char *v = go_plain_str(g, e->call.args[i], 1, t);
        g->in_try--;
        g->pre = saved_pre;
        g->pre_indent = saved_indent;
        g->line_depth = d;
        g->err_declared = saved_err;
        if (pre.len) buf_append(b, pre.data, pre.len);
        buf_free(&pre);
        go_indent(b, d + 1);
        buf_printf(b, "return %s\n", v);
        go_indent(b, d);
        buf_putc(b, '}');
    }
    buf_putc(b, ')');
}

/* A built-in function's call as plain Go (go_infer_call has checked its arguments). */
static void go_plain_call(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const go_fn_t *f, int gd) {
    if (f->import) go_import_add(g, f->import, go_path_last(f->import));
    if (f->helper >= 0) go_use_helper(g, f->helper);
    if (f->kind == GO_FN_CAN || f->kind == GO_FN_TRY) {
        go_plain_can_try(g, b, e);
        return;
    }
    if (strcmp(f->name, "cwd") == 0) {
        /* os.Getwd's error is a panic, as in Pulumi's form */
        int d = g->line_depth;
        buf_puts(b, "func(cwd string, err error) string {\n");
        go_indent(b, d + 1);
        buf_puts(b, "if err != nil {\n");
        go_indent(b, d + 2);
        buf_puts(b, "panic(err)\n");
        go_indent(b, d + 1);
        buf_puts(b, "}\n");
        go_indent(b, d + 1);
        buf_puts(b, "return cwd\n");
        go_indent(b, d);
        buf_puts(b, "}(os.Getwd())");
        return;
    }
    if (strcmp(f->name, "fromBase64") == 0) {
        /* the decoded bytes in a temporary before the statement */
        const char *tmp = go_fresh(g, "tmpVar", &g->n_tmpvar);
        char *arg = go_plain_stmt(g, e->call.args[0], g->pre_indent, 2, NULL);
        go_pre_line(g, 0, arena_sprintf(g->base.a, "%s, _ := base64.StdEncoding.DecodeString(%s)", tmp, arg));
        buf_printf(b, "string(%s)", tmp);
        return;
    }
    if (f->kind == GO_FN_JSON) {
        /* json.Marshal before the statement, its error returned: at the program's top level, before
         * a registration line is written (outputs, locals and components render their values
         * first), or in an apply's function (over outputs), which returns its zero value with it */
        const pcl_node_t *n = g->base.node;
        if (g->in_try) { /* a closure of can() or try() returns its value alone */
            go_refuse(g, e, "toJSON() inside can() or try()");
            buf_puts(b, "nil");
            return;
        }
        if (!g->ap &&
            (!n || (n->kind != PCL_NODE_OUTPUT && n->kind != PCL_NODE_LOCAL && n->kind != PCL_NODE_COMPONENT))) {
            go_refuse(g, e, "toJSON() in a resource's input");
            buf_puts(b, "nil");
            return;
        }
        int k = g->n_json++;
        char *arg = go_plain_stmt(g, e->call.args[0], g->pre_indent, 1, go_infer(g, e->call.args[0]));
        go_pre_line(g, 0, arena_sprintf(g->base.a, "tmpJSON%d, err := marshalJSON(%s)", k, arg));
        if (g->ap) {
            go_pre_line(g, 0, "if err != nil {");
            go_pre_line(g, 1, arena_sprintf(g->base.a, "return %s, err", g->ap_zero));
            go_pre_line(g, 0, "}");
        } else {
            go_err_check(g->pre, g->pre_indent);
        }
        go_pre_line(g, 0, arena_sprintf(g->base.a, "json%d := string(tmpJSON%d)", k, k));
        g->err_declared = true;
        buf_printf(b, "json%d", k);
        return;
    }
    if (f->kind == GO_FN_LEN && go_vt_is(go_infer(g, e->call.args[0]), GV_STRING)) {
        g->helpers |= 1u << GO_HELPER_GRAPHEME_LENGTH;
        go_import_add(g, "unicode", "unicode");
        buf_puts(b, "graphemeLength(");
        go_plain(g, b, e->call.args[0], gd + 1, NULL);
        buf_putc(b, ')');
        return;
    }
    if ((f->kind == GO_FN_ENTRIES || f->kind == GO_FN_LOOKUP) && go_vt_is(go_infer(g, e->call.args[0]), GV_OBJECT)) {
        go_object_keyed(g, b, e, gd);
        return;
    }
    if (f->kind == GO_FN_ENTRIES || f->kind == GO_FN_LOOKUP) { /* the helper, over a map */
        const go_vt_t *m = go_infer(g, e->call.args[0]);
        buf_printf(b, "%s(", f->name);
        go_operand(g, b, e->call.args[0], 6, false, gd + 1, NULL);
        if (go_vt_is(m, GV_ANY)) buf_puts(b, ".(map[string]interface{})");
        for (size_t i = 1; i < e->call.n; i++) {
            buf_puts(b, ", ");
            go_plain(g, b, e->call.args[i], gd + 1, i == 2 && go_vt_is(m, GV_MAP) ? m->elem : NULL);
        }
        buf_putc(b, ')');
        return;
    }
    if (f->kind == GO_FN_ELEMENT) { /* the helper, over a slice and an int */
        buf_puts(b, "element(");
        go_plain(g, b, e->call.args[0], gd + 1, go_infer(g, e->call.args[0]));
        buf_puts(b, ", ");
        go_plain(g, b, e->call.args[1], gd + 1, go_vt(g, GV_INT, NULL));
        buf_putc(b, ')');
        return;
    }
    if (f->kind == GO_FN_MINMAX && e->call.expand_final) {
        go_import_add(g, "slices", "slices");
        buf_printf(b, "slices.%s(", f->name[1] == 'a' ? "Max" : "Min");
        go_plain(g, b, e->call.args[0], gd + 1, go_infer(g, e->call.args[0]));
        buf_putc(b, ')');
        return;
    }
    if (f->kind == GO_FN_MINMAX) {
        const go_vt_t *t = go_infer_call(g, e);
        buf_printf(b, "%s(", f->name);
        for (size_t i = 0; i < e->call.n; i++) {
            if (i) buf_puts(b, ", ");
            go_plain(g, b, e->call.args[i], gd + 1, t);
        }
        buf_putc(b, ')');
        return;
    }
    for (const char *s = f->form; *s; s++) {
        if (*s == '$' && s[1] >= '0' && s[1] <= '9' && (size_t)(s[1] - '0') < e->call.n) {
            const pcl_expr_t *a = e->call.args[s[1] - '0'];
            const pcl_node_t *res = f->kind == GO_FN_RESNAME ? go_resource_arg(g, a) : NULL;
            if (res)
                buf_puts(b, g->base.var[res - g->base.p->nodes]);
            else
                go_plain(g, b, a, gd + 1, NULL);
            s++;
        } else {
            buf_putc(b, *s);
        }
    }
}

static void go_plain(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int gd, const go_vt_t *want) {
    switch (e->kind) {
    case PCL_NULL: buf_puts(b, "nil"); return;
    case PCL_BOOL: buf_puts(b, e->b ? "true" : "false"); return;
    case PCL_NUMBER:
        if (want && want->kind == GV_INT && !g->float_lits && names_number_is_int(e->n)) {
            buf_printf(b, "%lld", (long long)e->n); /* else the number as it is: no int (Go refuses it) */
        } else if (g->float_lits) {
            go_float_literal(b, e->n);
        } else {
            names_append_number(b, e->n);
        }
        return;
    case PCL_STRING: go_string(b, e->s); return;
    case PCL_TRAVERSAL: go_plain_trav(g, b, e); return;
    case PCL_TEMPLATE:
        go_import_add(g, "fmt", "fmt");
        go_template(g, b, e, "fmt.Sprintf", gd);
        return;
    case PCL_UNARY:
        buf_puts(b, emit_double_minus(e, e->x) ? "-(" : e->op);
        go_operand(g, b, e->x, 6, false, gd, want);
        if (emit_double_minus(e, e->x)) buf_putc(b, ')');
        return;
    case PCL_BINARY: go_plain_binary(g, b, e, gd); return;
    case PCL_COND: go_plain_cond(g, b, e); return;
    case PCL_FOR: go_plain_for(g, b, e); return;
    case PCL_INDEX: {
        const go_vt_t *ct = go_infer(g, e->x);
        size_t start = b->len;
        go_operand(g, b, e->x, 6, false, gd, NULL);
        if (g->in_try && ct->kind == GV_MAP) { /* a key the map does not have fails (go_map_key) */
            go_map_key(g, b, start, go_plain_str(g, e->y, gd + 1, NULL));
            return;
        }
        buf_putc(b, '[');
        go_plain(g, b, e->y, gd + 1, ct->kind == GV_LIST ? go_vt(g, GV_INT, NULL) : NULL);
        buf_putc(b, ']');
        return;
    }
    case PCL_GETATTR: {
        const go_vt_t *ct = go_infer(g, e->x);
        size_t start = b->len;
        go_operand(g, b, e->x, 6, false, gd, NULL);
        pcl_trav_part_t pt = {.attr = e->s};
        go_plain_parts(g, b, start, ct, &pt, 0, 1);
        return;
    }
    case PCL_CALL:
        if (go_subst(g, e) >= 0 && go_can_try(e)) {
            buf_puts(b, g->ap->names[go_subst(g, e)]); /* can() or try() over outputs: the apply's parameter */
            return;
        }
        if (strcmp(e->call.name, "secret") == 0 && e->call.n == 1) {
            go_plain(g, b, e->call.args[0], gd, want);
            return;
        }
        if (go_fn_find(e) && go_infer_call(g, e)->kind != GV_UNKNOWN) {
            go_plain_call(g, b, e, go_fn_find(e), gd);
            return;
        }
        break;
    case PCL_TUPLE:
    case PCL_OBJECT: {
        const go_vt_t *t = want && (want->kind == GV_LIST || want->kind == GV_MAP) ? want : go_infer(g, e);
        size_t n = e->kind == PCL_TUPLE ? e->tuple.n : e->object.n;
        go_elem_t *el = arena_alloc(g->base.a, (n + 1) * sizeof *el);
        int depth = g->line_depth;
        for (size_t i = 0; i < n; i++) {
            const pcl_expr_t *v = e->kind == PCL_TUPLE ? e->tuple.items[i] : e->object.items[i].value;
            el[i].key = e->kind == PCL_OBJECT ? go_quoted_key(g, e->object.items[i].key) : NULL;
            g->line_depth = depth + 1;
            el[i].value = go_plain_str(g, v, 1, t->elem);
        }
        g->line_depth = depth;
        buf_puts(b, go_vt_name(g, t));
        go_write_elems(b, el, n, depth);
        return;
    }
    case PCL_SPLAT: go_plain_splat(g, b, e); return;
    }
    go_refuse(g, e, arena_sprintf(g->base.a, "it uses %s", go_what(g, e)));
    buf_puts(b, "nil");
}

/* --- values over outputs --- */

/* `x.ApplyT(func(x T) (R, error) {...}).(ROutput)`, or `pulumi.All(...)` over several outputs. */
static void go_apply_over(go_ctx_t *g, buf_t *b, const pcl_expr_t *over, const pcl_expr_t *e, const go_vt_t *rt,
                          int depth);

/* "Map" or "Array" when e names a local whose value is a map or list literal over outputs, which
 * go_local writes as a pulumi.Map or pulumi.Array (an Input, not an Output); else NULL. */
static const char *go_local_input(go_ctx_t *g, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n == 0 ? emit_typed_find(&g->base, e->trav.root) : -1;
    if (idx < 0 || g->base.p->nodes[idx].kind != PCL_NODE_LOCAL) return NULL;
    const pcl_expr_t *v = g->base.p->nodes[idx].attrs[0].value;
    if (v->kind != PCL_OBJECT && v->kind != PCL_TUPLE) return NULL;
    if (!emit_has_output(g->base.p, g->base.index, v)) return NULL;
    return v->kind == PCL_OBJECT ? "Map" : "Array";
}

static void go_apply(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const go_vt_t *rt, int depth) {
    go_apply_over(g, b, e, e, rt, depth);
}

/* The apply of the outputs `over` reads (e itself, or a part of it: a call that is an Output itself
 * is applied over its arguments), computing e. */
static void go_apply_over(go_ctx_t *g, buf_t *b, const pcl_expr_t *over, const pcl_expr_t *e, const go_vt_t *rt,
                          int depth) {
    bool addr = g->ap_addr;
    g->ap_addr = false;
    emit_apply_t ap;
    emit_apply_plan(g->base.a, g->base.p, g->base.index, g->base.var, LANG_GO, over, g->scope, g->n_scope, &ap);
    const char **ptype = arena_alloc(g->base.a, (ap.nu + 1) * sizeof *ptype);
    for (size_t k = 0; k < ap.nu; k++) {
        size_t i = ap.uniq[k];
        const pcl_expr_t *a = ap.atoms[i];
        const go_vt_t *t = a->kind == PCL_TRAVERSAL ? go_infer_trav(g, a, ap.skip[i]) : go_infer(g, a);
        if (t->kind == GV_UNKNOWN) {
            go_refuse(g, a, "it reads an output whose Go type the program does not show");
            buf_puts(b, "nil");
            return;
        }
        ptype[k] = go_id_atom(g, a) ? go_id_atom(g, a) : go_vt_name(g, t);
        /* a local holding a list or map literal over outputs is a pulumi.Array or pulumi.Map: its
         * Output's value is a []interface{} or map[string]interface{}, whatever its elements */
        const char *in = go_local_input(g, ap.heads[i]);
        if (in && strcmp(ptype[k], strcmp(in, "Map") == 0 ? "map[string]interface{}" : "[]interface{}") != 0) {
            go_refuse(g, a, "it reads into a local list or map of outputs, whose values Go reads as interface{}");
            buf_puts(b, "nil");
            return;
        }
    }
    const char *rname = go_vt_name(g, rt);
    if (ap.nu == 1) {
        go_expr(g, b, ap.heads[ap.uniq[0]], NULL, depth);
        const char *in = go_local_input(g, ap.heads[ap.uniq[0]]);
        if (in) buf_printf(b, ".To%sOutput()", in); /* an Input has no ApplyT */
        buf_printf(b, ".ApplyT(func(%s %s) (%s, error) {\n", ap.names[ap.uniq[0]], ptype[0], rname);
    } else {
        buf_puts(b, "pulumi.All(");
        for (size_t k = 0; k < ap.nu; k++) {
            if (k) buf_puts(b, ", ");
            go_expr(g, b, ap.heads[ap.uniq[k]], NULL, depth);
        }
        buf_printf(b, ").ApplyT(func(_args []interface{}) (%s, error) {\n", rname);
        for (size_t k = 0; k < ap.nu; k++) {
            go_indent(b, depth + 1);
            buf_printf(b, "%s := _args[%zu].(%s)\n", ap.names[ap.uniq[k]], k, ptype[k]);
        }
    }
    const emit_apply_t *saved_ap = g->ap;
    const char *saved_zero = g->ap_zero;
    bool saved_err = g->err_declared;
    g->ap = &ap;
    g->ap_zero = rt->ptr                                      ? "nil"
                 : rt->kind == GV_STRING                      ? "\"\""
                 : rt->kind == GV_INT || rt->kind == GV_FLOAT ? "0"
                 : rt->kind == GV_BOOL                        ? "false"
                                                              : "nil";
    g->err_declared = false; /* the function's own scope */
    buf_t *saved_pre = g->pre;
    int saved_indent = g->pre_indent, saved_line = g->line_depth;
    buf_t pre;
    buf_init(&pre);
    g->pre = &pre;
    g->pre_indent = depth + 1;
    g->line_depth = depth + 1;
    buf_t v;
    buf_init(&v);
    go_plain(g, &v, e, 1, rt);
    g->pre = saved_pre;
    g->pre_indent = saved_indent;
    g->line_depth = saved_line;
    g->ap = saved_ap;
    g->ap_zero = saved_zero;
    g->err_declared = saved_err;
    if (pre.len) buf_append(b, pre.data, pre.len);
    go_indent(b, depth + 1);
    buf_printf(b, "return %s%s, nil\n", addr ? "&" : "", v.data ? v.data : "");
    buf_free(&pre);
    buf_free(&v);
    go_indent(b, depth);
    buf_printf(b, "}).(%s)", go_vt_output(g, rt));
}

/* A plain value of type t at an input position: `pulumi.String(x)`, `pulumi.ToStringArray(xs)`;
 * NULL when the SDK has no such conversion. */
static const char *go_input_wrap(go_ctx_t *g, const go_vt_t *t) {
    if (t->ptr) return NULL;
    if (t->kind == GV_LIST || t->kind == GV_MAP) {
        if (t->elem->kind == GV_ANY) return t->kind == GV_LIST ? "pulumi.ToArray" : "pulumi.ToMap";
        const char *s = go_vt_stem(g, t, 1);
        if (!s || strncmp(s, "pulumi.", 7) != 0 || t->elem->kind == GV_LIST || t->elem->kind == GV_MAP) return NULL;
        return arena_sprintf(g->base.a, "pulumi.To%s", s + 7);
    }
    if (t->kind == GV_OBJECT) return NULL;
    return go_vt_stem(g, t, 0);
}

/* Whether node idx is a local map of resources' ids (emit_id_map_local). */
static bool go_id_map_local(go_ctx_t *g, int idx) {
    return emit_id_map_local(g->base.p, g->base.index, idx);
}

/* A read of a local map of ids (go_id_map_local): the whole map `pulumi.IDMap(m)`; an entry
 * `m["k"].ToIDOutput()`, converted where the schema wants a string (ToStringOutput), a number, an
 * integer or a boolean (strconv in an apply, whose error fails the update), as Pulumi's Go writes it.
 * False when e is no such read. */
static bool go_id_map_read(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t) {
    int idx = e->kind == PCL_TRAVERSAL ? emit_typed_find(&g->base, e->trav.root) : -1;
    if (!go_id_map_local(g, idx)) return false;
    const char *var = g->base.var[idx];
    if (e->trav.n == 0) {
        buf_printf(b, "pulumi.IDMap(%s)", var);
        return true;
    }
    const pcl_trav_part_t *k = &e->trav.parts[0];
    if (e->trav.n != 1 || k->attr || !k->index_is_string) {
        go_refuse(g, e, "a read into a local map of ids other than one entry by its key");
        buf_puts(b, "nil");
        return true;
    }
    buf_puts(b, var);
    buf_putc(b, '[');
    names_append_quoted(b, LANG_GO, k->index_str);
    buf_puts(b, "].ToIDOutput()");
    schema_kind_t kind = t ? (t->kind == SCHEMA_ENUM && t->element ? t->element->kind : t->kind) : SCHEMA_STRING;
    static const struct {
        schema_kind_t kind;
        const char *type, *call, *out;
    } conv[] = {{SCHEMA_NUMBER, "float64", "strconv.ParseFloat(string(id), 64)", "Float64"},
                {SCHEMA_INT, "int", "strconv.Atoi(string(id))", "Int"},
                {SCHEMA_BOOL, "bool", "strconv.ParseBool(string(id))", "Bool"}};
    for (size_t i = 0; i < sizeof conv / sizeof *conv; i++)
        if (conv[i].kind == kind) {
            go_import_add(g, "strconv", "strconv");
            buf_printf(b, ".ApplyT(func(id pulumi.ID) (%s, error) { return %s }).(pulumi.%sOutput)", conv[i].type,
                       conv[i].call, conv[i].out);
            return true;
        }
    if (kind == SCHEMA_STRING || kind == SCHEMA_ANY || kind == SCHEMA_JSON) {
        buf_puts(b, ".ToStringOutput()");
        return true;
    }
    go_refuse(g, e, "an id where the schema wants another type than a string, number or boolean");
    return true;
}

static bool go_optional_read(go_ctx_t *g, const pcl_expr_t *e, const go_vt_t *rt);

/* An expression of the language (or a reference to a local) at an input position of type t. */
static void go_lang_value(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth) {
    if (go_id_map_read(g, b, e, t)) return;
    bool outputs = emit_has_output(g->base.p, g->base.index, e);
    int saved_indent = g->line_depth;
    g->line_depth = depth;
    if (e->kind == PCL_TEMPLATE && !outputs &&
        (!t || t->kind == SCHEMA_STRING || t->kind == SCHEMA_ANY || t->kind == SCHEMA_JSON) &&
        (e->tuple.n > 1 || (e->tuple.n == 1 && e->tuple.items[0]->kind != PCL_STRING)) &&
        go_infer(g, e)->kind != GV_UNKNOWN) {
        /* Pulumi's form at an input: pulumi.Sprintf (a template over outputs is an apply of fmt.Sprintf) */
        go_template(g, b, e, "pulumi.Sprintf", g->gd);
        g->line_depth = saved_indent;
        return;
    }
    int idx = e->kind == PCL_TRAVERSAL ? emit_typed_find(&g->base, e->trav.root) : -1;
    if (idx >= 0 && e->trav.n > 0 && g->base.p->nodes[idx].kind == PCL_NODE_LOCAL &&
        emit_is_invoke(g->base.p->nodes[idx].attrs[0].value)) {
        /* attributes of a local holding an invoke's result: the result Output's methods */
        bool attrs = true;
        for (size_t i = 0; i < e->trav.n; i++)
            attrs &= e->trav.parts[i].attr != NULL;
        if (!attrs) {
            go_refuse(g, e, "an index into an invoke's result held by a local");
            buf_puts(b, "nil");
        } else {
            buf_puts(b, g->base.var[idx]);
            for (size_t i = 0; i < e->trav.n; i++) /* a map's key by key, as a resource output's */
                emit_append_part(b, &e->trav.parts[i],
                                 emit_reads_map_key(g->base.p, g->base.index, e, i)
                                     ? NULL
                                     : go_getter_name(g, e->trav.parts[i].attr),
                                 &GO_PARTS);
        }
        g->line_depth = saved_indent;
        return;
    }
    if (e->kind == PCL_TRAVERSAL && outputs && emit_is_output_atom(g->base.p, g->base.index, e) && e->trav.n == 0) {
        /* a local holding an Output: the Output itself */
        buf_puts(b, g->base.var[emit_typed_find(&g->base, e->trav.root)]);
        g->line_depth = saved_indent;
        return;
    }
    const go_vt_t *rt = go_infer(g, e);
    if (rt->kind == GV_UNKNOWN) {
        go_refuse(g, e,
                  arena_sprintf(g->base.a, "the Go type of %s is not known (or its operands' types do not agree)",
                                go_what(g, e)));
        buf_puts(b, "nil");
    } else if (!go_vt_fits(rt, t)) {
        go_refuse(
            g, e,
            arena_sprintf(g->base.a, "a value of Go type %s where the schema wants another type", go_vt_name(g, rt)));
        buf_puts(b, "nil");
    } else if (outputs) {
        if (!t && g->base.node && g->base.node->kind == PCL_NODE_OUTPUT && go_optional_read(g, e, rt)) {
            g->ap_addr = true;
            rt = go_vt_ptr(g, rt, true);
        }
        go_apply(g, b, e, rt, depth);
    } else {
        const char *wrap = go_input_wrap(g, rt);
        if (!wrap) {
            go_refuse(g, e,
                      arena_sprintf(g->base.a, "a %s value at an input (the SDK has no input of that type)",
                                    go_vt_name(g, rt)));
            buf_puts(b, "nil");
        } else {
            buf_printf(b, "%s(", wrap);
            g->to_list = e;
            go_plain(g, b, e, g->gd, rt);
            g->to_list = NULL;
            buf_putc(b, ')');
        }
    }
    g->line_depth = saved_indent;
}

/* can() or try() that PCL types an Output (emit_call_is_output): over outputs, computed in an apply of
 * every output its arguments read (their reads, and what fails in them, inside the helper's
 * closures); over values of no type alone, the plain call made an Output (`pulumi.Bool(can(...)).
 * ToBoolOutput()`, `pulumi.Any(try(...))`), as the rest of the program takes it for one. */
static void go_can_try_output(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth) {
    const go_vt_t *rt = go_infer(g, e);
    const char *wrap = rt->kind != GV_UNKNOWN ? go_input_wrap(g, rt) : NULL;
    if (rt->kind == GV_UNKNOWN || !go_vt_fits(rt, t) || !wrap) {
        go_refuse(g, e,
                  rt->kind == GV_UNKNOWN
                      ? arena_sprintf(g->base.a,
                                      "the Go type of %s() is not known (or its arguments' types do not agree)",
                                      e->call.name)
                      : arena_sprintf(g->base.a, "a value of Go type %s where the schema wants another type",
                                      go_vt_name(g, rt)));
        buf_puts(b, "nil");
        return;
    }
    bool outputs = false;
    for (size_t i = 0; i < e->call.n; i++)
        outputs |= emit_has_output(g->base.p, g->base.index, e->call.args[i]);
    if (outputs) {
        pcl_expr_t args = {.kind = PCL_TUPLE, .tuple = {.items = e->call.args, .n = e->call.n}};
        go_apply_over(g, b, &args, e, rt, depth);
        return;
    }
    int saved = g->line_depth;
    g->line_depth = depth;
    buf_printf(b, "%s(", wrap);
    go_plain(g, b, e, g->gd, rt);
    buf_putc(b, ')');
    g->line_depth = saved;
    if (rt->kind != GV_ANY) buf_printf(b, ".To%s()", go_vt_output(g, rt) + strlen("pulumi."));
}

/* Whether e reads a scalar out of a resource's output through a property the schema leaves optional
 * that Go holds as a plain value (a list, a struct field), so that Pulumi's Go generator types it
 * optional and returns its address from the apply (`return &data.List[0].Name, nil`, a
 * StringPtrOutput); only where that value is addressable in Go (no map index on the way). */
static bool go_optional_read(go_ctx_t *g, const pcl_expr_t *e, const go_vt_t *rt) {
    if (e->kind != PCL_TRAVERSAL || e->trav.n < 2 || !e->trav.parts[0].attr || go_scope_type(g, e->trav.root) ||
        rt->ptr || rt->kind < GV_STRING || rt->kind > GV_BOOL)
        return false;
    int idx = emit_typed_find(&g->base, e->trav.root);
    const pcl_node_t *n = idx >= 0 ? &g->base.p->nodes[idx] : NULL;
    if (!n || n->kind != PCL_NODE_RESOURCE || !n->schema) return false;
    const schema_property_t *pr = schema_find_property(n->schema->outputs, n->schema->n_outputs, e->trav.parts[0].attr);
    if (!pr) return false;
    bool optional = !pr->required;
    const go_vt_t *t = go_vt_schema(g, pr->type, pr->required, n->package);
    for (size_t i = 1; i < e->trav.n && t->kind != GV_UNKNOWN; i++) {
        const pcl_trav_part_t *pt = &e->trav.parts[i];
        if (!pt->attr && pt->index_is_string) return false; /* a map's value is not addressable */
        if (pt->attr && t->kind == GV_OBJECT) {
            const schema_property_t *f = schema_find_property(t->obj->object->props, t->obj->object->n_props, pt->attr);
            optional |= f && !f->required;
        }
        t = go_vt_part(g, t, pt);
    }
    return optional && t->kind == rt->kind && !t->ptr;
}

/* Whether e reads a resource's output with an index part (`res.out["k"][0].x`) whose Go type is known. */
static bool go_resource_index_read(go_ctx_t *g, const pcl_expr_t *e) {
    int idx = emit_typed_find(&g->base, e->trav.root);
    if (idx < 0 || g->base.p->nodes[idx].kind != PCL_NODE_RESOURCE || go_scope_type(g, e->trav.root)) return false;
    bool index = false;
    for (size_t i = 1; i < e->trav.n; i++)
        index |= !e->trav.parts[i].attr;
    return index && go_infer_trav(g, e, e->trav.n)->kind != GV_UNKNOWN;
}

/* Whether go_expr writes e through the expression language (a language expression, or a reference
 * to a local). */
static bool go_is_lang(go_ctx_t *g, const pcl_expr_t *e) {
    switch (e->kind) {
    EMIT_CASE_LANGUAGE_EXPRS:
        return true;
    case PCL_CALL: /* a built-in function of plain values (toJSON over outputs is an Output itself) */
        return go_fn_find(e) != NULL && !emit_call_is_output(g->base.p, g->base.index, e);
    case PCL_TRAVERSAL: {
        if (go_scope_type(g, e->trav.root)) return true;
        int idx = emit_typed_find(&g->base, e->trav.root);
        if (idx < 0) return false;
        const pcl_node_t *n = &g->base.p->nodes[idx];
        if (n->kind == PCL_NODE_LOCAL) return true;
        /* parts of a list, map or any config value read its decoded plain value */
        return n->kind == PCL_NODE_CONFIG && e->trav.n > 0;
    }
    default: return false;
    }
}

/* --- plain (non-Input) values --- */

static char *go_plain_input_str(go_ctx_t *g, const pcl_expr_t *e, const schema_type_t *t, bool required, int depth);

/* The Go type of a plain value of schema type t: `string`, `[]bool`, `map[string]string`,
 * `mod.DataArgs` (a pointer when optional and not an element); NULL when it has none we write. */
static const char *go_plain_type(go_ctx_t *g, const schema_type_t *t, bool required) {
    const char *s = NULL;
    switch (t ? t->kind : SCHEMA_ANY) {
    case SCHEMA_STRING: s = "string"; break;
    case SCHEMA_INT: s = "int"; break;
    case SCHEMA_NUMBER: s = "float64"; break;
    case SCHEMA_BOOL: s = "bool"; break;
    case SCHEMA_ARRAY:
    case SCHEMA_MAP: {
        const char *el = go_plain_type(g, t->element, true);
        if (!el) return NULL;
        return arena_sprintf(g->base.a, "%s%s", t->kind == SCHEMA_ARRAY ? "[]" : "map[string]", el);
    }
    case SCHEMA_OBJECT:
        if (!t->object || !t->token || t->external_ref || !g->base.node) return NULL;
        s = arena_sprintf(g->base.a, "%sArgs", go_type_stem(g, t));
        break;
    case SCHEMA_RESOURCE: { /* a pointer to the SDK's resource struct, optional or not (not a provider's) */
        if (!t->token || t->external_ref || !g->base.node || strncmp(t->token, "pulumi:", 7) == 0) return NULL;
        schema_package_t *pkg = g->type_pkg ? g->type_pkg : g->base.node->package;
        return arena_sprintf(g->base.a, "*%s.%s", go_import_for(g, pkg, t->token), go_token_member(g, t->token));
    }
    default: return NULL;
    }
    return required ? s : arena_sprintf(g->base.a, "*%s", s);
}

/* The elements of a plain list or map literal. */
static go_elem_t *go_plain_elems(go_ctx_t *g, const pcl_expr_t *e, const schema_type_t *et, int depth) {
    size_t n = e->kind == PCL_TUPLE ? e->tuple.n : e->object.n;
    go_elem_t *el = arena_alloc(g->base.a, (n + 1) * sizeof *el);
    for (size_t i = 0; i < n; i++) {
        el[i].key = e->kind == PCL_OBJECT ? go_quoted_key(g, e->object.items[i].key) : NULL;
        el[i].value = go_plain_input_str(g, e->kind == PCL_TUPLE ? e->tuple.items[i] : e->object.items[i].value, et,
                                         true, depth + 1);
    }
    return el;
}

/* A literal at a plain property of schema type t, as Pulumi's Go SDKs take it: a bare literal
 * (`true`, `"x"`, `4.5`), `pulumi.StringRef("x")` when optional, `[]bool{...}`,
 * `map[string]string{...}`, `mod.DataArgs{...}` (`&` when optional; what it holds is plain too).
 * Anything else (a reference, an expression) is refused: its plain Go value is not known here. */
static void go_plain_input(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, bool required,
                           int depth) {
    schema_kind_t k = t ? t->kind : SCHEMA_ANY;
    bool num = go_is_num_lit(e);
    double n = e->kind == PCL_NUMBER ? e->n : num ? -e->x->n : 0;
    const char *ref = !required ? (k == SCHEMA_STRING   ? "pulumi.StringRef"
                                   : k == SCHEMA_INT    ? "pulumi.IntRef"
                                   : k == SCHEMA_NUMBER ? "pulumi.Float64Ref"
                                   : k == SCHEMA_BOOL   ? "pulumi.BoolRef"
                                                        : NULL)
                                : NULL;
    if (ref) buf_printf(b, "%s(", ref);
    bool ok = true;
    switch (k) {
    case SCHEMA_STRING:
        if ((ok = e->kind == PCL_STRING)) go_string(b, e->s);
        break;
    case SCHEMA_BOOL:
        if ((ok = e->kind == PCL_BOOL)) buf_puts(b, e->b ? "true" : "false");
        break;
    case SCHEMA_INT:
        if ((ok = num && names_number_is_int(n))) names_append_number(b, n);
        break;
    case SCHEMA_NUMBER:
        if ((ok = num)) names_append_number(b, n);
        break;
    case SCHEMA_ARRAY:
    case SCHEMA_MAP: {
        const char *tn = go_plain_type(g, t, true);
        ok = tn && e->kind == (k == SCHEMA_ARRAY ? PCL_TUPLE : PCL_OBJECT);
        if (!ok) break;
        buf_puts(b, tn);
        go_write_elems(b, go_plain_elems(g, e, t->element, depth), e->kind == PCL_TUPLE ? e->tuple.n : e->object.n,
                       depth);
        break;
    }
    case SCHEMA_RESOURCE: {
        /* a resource itself, of the type the schema names: its variable (a *mod.Type already) */
        const pcl_node_t *res = go_resource_arg(g, e);
        if ((ok = res && res->token && t->token && strcmp(res->token, t->token) == 0 && go_plain_type(g, t, true)))
            go_raw(g, b, e, depth);
        break;
    }
    case SCHEMA_OBJECT: {
        const char *tn = go_plain_type(g, t, required);
        ok = tn && e->kind == PCL_OBJECT;
        if (!ok) break;
        buf_puts(b, tn[0] == '*' ? "&" : "");
        buf_puts(b, tn[0] == '*' ? tn + 1 : tn);
        go_elem_t *el = arena_alloc(g->base.a, (e->object.n + 1) * sizeof *el);
        for (size_t i = 0; i < e->object.n; i++) {
            const pcl_object_item_t *it = &e->object.items[i];
            const schema_property_t *prop = schema_find_property(t->object->props, t->object->n_props, it->key);
            el[i].key = go_field_name(g, it->key);
            el[i].value = go_plain_input_str(g, it->value, prop ? prop->type : NULL, prop && prop->required, depth + 1);
        }
        go_write_elems(b, el, e->object.n, depth);
        break;
    }
    default: ok = false; break;
    }
    if (ref) buf_putc(b, ')');
    if (!ok && e->kind != PCL_NULL)
        go_refuse(g, e,
                  arena_sprintf(g->base.a, "%s at a plain (not Input) property, which takes a bare Go value",
                                pcl_expr_kind_name(e)));
}

static char *go_plain_input_str(go_ctx_t *g, const pcl_expr_t *e, const schema_type_t *t, bool required, int depth) {
    buf_t b;
    buf_init(&b);
    if (e->kind == PCL_NULL && !required)
        buf_puts(&b, "nil");
    else
        go_plain_input(g, &b, e, t, required, depth);
    char *s = buf_arena_str(&b, g->base.a);
    buf_free(&b);
    return s;
}

/* An invoke's options after its arguments, in the program's order (`, nil` when it has none):
 * pulumi.Provider(p), pulumi.Parent(p), pulumi.Version(v), pulumi.PluginDownloadURL(u) and
 * pulumi.DependsOn([]pulumi.Resource{pulumi.Resource(r), ...}), as Pulumi writes them
 * (emit_check_program lets through only these). */
static void go_invoke_options(go_ctx_t *g, buf_t *b, const pcl_expr_t *o, int depth) {
    if (!o || o->kind != PCL_OBJECT || o->object.n == 0) {
        buf_puts(b, ", nil)");
        return;
    }
    for (size_t i = 0; i < o->object.n; i++) {
        const char *k = o->object.items[i].key;
        const pcl_expr_t *v = o->object.items[i].value;
        if (strcmp(k, "dependsOn") == 0 && v->kind == PCL_TUPLE) {
            buf_puts(b, ", pulumi.DependsOn([]pulumi.Resource");
            go_elem_t *el = arena_alloc(g->base.a, (v->tuple.n + 1) * sizeof *el);
            for (size_t j = 0; j < v->tuple.n; j++)
                el[j].value = arena_sprintf(g->base.a, "pulumi.Resource(%s)",
                                            go_render(g, v->tuple.items[j], NULL, depth + 1, true));
            go_write_elems(b, el, v->tuple.n, depth);
            buf_putc(b, ')');
            continue;
        }
        buf_printf(b, ", pulumi.%s(",
                   strcmp(k, "pluginDownloadUrl") == 0 ? "PluginDownloadURL" : names_title(g->base.a, k));
        go_raw(g, b, v, depth);
        buf_putc(b, ')');
    }
    buf_putc(b, ')');
}

/* `mod.FnOutput(ctx, mod.FnOutputArgs{...}, nil)` and the attributes read from its result as the
 * SDK's Output methods (`.Result()`), as Pulumi's Go generator writes them; emit_check_program lets
 * through only keyword arguments of no nested object type, no options, and attributes alone. */
static void go_invoke_args(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth);
static void go_invoke_read(go_ctx_t *g, buf_t *b, const schema_function_t *f, const char *mod, const char *name,
                           const pcl_expr_t *const *chain, size_t n, int depth);

static void go_invoke(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth) {
    const pcl_expr_t *chain[64];
    size_t n = 0;
    bool indexed = false; /* a read with an index: in an apply over the result */
    for (; (e->kind == PCL_GETATTR || e->kind == PCL_INDEX) && n < 64; e = e->x) {
        indexed |= e->kind == PCL_INDEX;
        chain[n++] = e;
    }
    const schema_function_t *f = e->function;
    const char *mod = go_import_for(g, e->package, f->token), *name = go_token_member(g, f->token);
    if (f->multi_argument && e->call.n >= 2 && e->call.args[1]->kind != PCL_OBJECT) {
        /* multi-argument inputs: positional, each typed by its input, nil for one left out */
        buf_printf(b, "%s.%sOutput(ctx", mod, name);
        for (size_t i = 0; i < f->n_multi_args; i++) {
            const pcl_expr_t *a = i + 1 < e->call.n ? e->call.args[i + 1] : NULL;
            const schema_property_t *pr = schema_find_property(f->inputs, f->n_inputs, f->multi_args[i]);
            buf_puts(b, ", ");
            if (a)
                go_expr(g, b, a, pr ? pr->type : NULL, depth);
            else
                buf_puts(b, "nil");
        }
        buf_putc(b, ')');
    } else {
        buf_printf(b, "%s.%sOutput(ctx, %s.%sOutputArgs", mod, name, mod, name);
        go_invoke_args(g, b, e, depth);
    }
    if (indexed) {
        go_invoke_read(g, b, f, mod, name, chain, n, depth);
        return;
    }
    while (n > 0) { /* a map's key by key (`.MapIndex(pulumi.String("k"))`), as a resource output's */
        const pcl_expr_t *p = chain[--n];
        const schema_type_t *t = emit_read_type(g->base.p, g->base.index, p->x);
        pcl_trav_part_t pt = {.attr = p->s};
        emit_append_part(b, &pt, t && t->kind == SCHEMA_MAP ? NULL : go_field_name(g, p->s), &GO_PARTS);
    }
}

/* A read with an index from an invoke's result (chain[n-1] the first part), as Pulumi writes it:
 * `.ApplyT(func(invoke mod.FnResult) (T, error) { return invoke.A[0]["k"].B, nil }).(TOutput)`. */
static void go_invoke_read(go_ctx_t *g, buf_t *b, const schema_function_t *f, const char *mod, const char *name,
                           const pcl_expr_t *const *chain, size_t n, int depth) {
    const pcl_expr_t *first = chain[n - 1];
    const schema_property_t *pr = first->kind == PCL_GETATTR && f->outputs && !f->scalar_return
                                      ? schema_find_property(f->outputs, f->n_outputs, first->s)
                                      : NULL;
    const go_vt_t *t = pr ? go_vt_schema(g, pr->type, pr->required, chain[0]->package) : &GV_T_UNKNOWN;
    buf_t read;
    buf_init(&read);
    buf_printf(&read, "invoke.%s", pr ? go_field_name(g, first->s) : "");
    for (size_t i = n - 1; i-- > 0 && t->kind != GV_UNKNOWN;) {
        const pcl_expr_t *k = chain[i];
        pcl_trav_part_t pt = {0};
        if (k->kind == PCL_GETATTR) {
            pt.attr = k->s;
        } else if (k->y->kind == PCL_STRING) {
            pt.index_is_string = true;
            pt.index_str = k->y->s;
        } else if (k->y->kind == PCL_NUMBER && k->y->n >= 0 && names_number_is_int(k->y->n)) {
            pt.index_num = (size_t)k->y->n;
        } else {
            t = &GV_T_UNKNOWN;
            break;
        }
        go_plain_parts(g, &read, 0, t, &pt, 0, 1);
        t = go_vt_part(g, t, &pt);
    }
    if (t->kind == GV_UNKNOWN) {
        go_refuse(g, chain[0], "a read from an invoke's result whose Go type the schema does not show");
    } else {
        buf_printf(b, ".ApplyT(func(invoke %s.%sResult) (%s, error) {\n", mod, name, go_vt_name(g, t));
        go_indent(b, depth + 1);
        buf_printf(b, "return %s, nil\n", read.data);
        go_indent(b, depth);
        buf_printf(b, "}).(%s)", go_vt_output(g, t));
    }
    buf_free(&read);
}

/* An invoke's argument object (`{...}`) and its options. */
static void go_invoke_args(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth) {
    const pcl_expr_t *args = e->call.n >= 2 ? e->call.args[1] : NULL;
    size_t na = args && args->kind == PCL_OBJECT ? args->object.n : 0;
    go_elem_t *el = arena_alloc(g->base.a, (na + 1) * sizeof *el);
    for (size_t i = 0; i < na; i++) {
        const pcl_object_item_t *it = &args->object.items[i];
        el[i].key = go_field_name(g, it->key);
        el[i].value = go_render(g, it->value, it->prop ? it->prop->type : NULL, depth + 1, false);
    }
    go_write_elems(b, el, na, depth);
    go_invoke_options(g, b, e->call.n >= 3 ? e->call.args[2] : NULL, depth);
}

/* A method call, `call(res, "m", {args})[.attr]`, as Pulumi's Go generator writes it: the call before
 * the statement, its error checked,
 *   callM, err := res.M(ctx, &mod.ResMArgs{...})
 * (the Args only when the method takes inputs; the receiver, registered before, has declared err).
 * An Output result's one attribute is read in an apply,
 *   callM.ApplyT(func(call mod.ResMResult) (T, error) { return call.Attr, nil }).(TOutput)
 * a plain result (a provider, a number, a plain object) is the value itself (`callM`, `callM.Attr`),
 * wrapped at an input (`pulumi.Int(callM)`) unless `raw` (a resource option). Anything else is
 * refused with its position. */
static void go_method_call(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth, bool raw) {
    const pcl_expr_t *c = e->kind == PCL_GETATTR ? e->x : e;
    const schema_function_t *f = c->function;
    int idx = c->call.n >= 2 && c->call.args[0]->kind == PCL_TRAVERSAL && c->call.args[0]->trav.n == 0
                  ? emit_typed_find(&g->base, c->call.args[0]->trav.root)
                  : -1;
    const pcl_node_t *res = idx >= 0 ? &g->base.p->nodes[idx] : NULL;
    const schema_property_t *out =
        e->kind == PCL_GETATTR && f->outputs ? schema_find_property(f->outputs, f->n_outputs, e->s) : NULL;
    const go_vt_t *rt = out ? go_vt_schema(g, out->type, out->required, c->package)
                        : e == c && f->scalar_return && f->return_type
                            ? go_vt_schema(g, f->return_type, true, c->package)
                            : &GV_T_UNKNOWN;
    /* a plain value is written as it is where no Input is wanted (an option) or when its type wraps */
    const char *wrap = f->return_plain && !raw && rt->kind != GV_UNKNOWN ? go_input_wrap(g, rt) : NULL;
    bool ok = res && (res->kind == PCL_NODE_RESOURCE || res->kind == PCL_NODE_COMPONENT) &&
              c->call.args[1]->kind == PCL_STRING && g->base.node && g->pre &&
              (f->return_plain ? raw || wrap : rt->kind != GV_UNKNOWN && !raw);
    if (!ok) {
        go_refuse(g, e, "a method call's result Go cannot read here (an Output's one attribute, or a plain value)");
        buf_puts(b, "nil");
        return;
    }
    const char *mod = go_import_for(g, res->package, res->token), *type = go_token_member(g, res->token);
    const char *method = go_type_name(g->base.a, c->call.args[1]->s);
    int k = g->n_call++;
    const char *var = arena_sprintf(g->base.a, "call%s%s", method, k ? arena_sprintf(g->base.a, "%d", k) : "");
    buf_t call;
    buf_init(&call);
    buf_printf(&call, "%s, err := %s.%s(ctx", var, g->base.var[idx], method);
    bool takes_args = false;
    for (size_t i = 0; i < f->n_inputs; i++)
        takes_args |= strcmp(f->inputs[i].name, "__self__") != 0;
    const pcl_expr_t *args = c->call.n >= 3 ? c->call.args[2] : NULL;
    if (takes_args) {
        size_t na = args && args->kind == PCL_OBJECT ? args->object.n : 0;
        go_elem_t *el = arena_alloc(g->base.a, (na + 1) * sizeof *el);
        for (size_t i = 0; i < na; i++) {
            const pcl_object_item_t *it = &args->object.items[i];
            const schema_property_t *pr = it->prop ? it->prop : schema_find_property(f->inputs, f->n_inputs, it->key);
            el[i].key = go_field_name(g, it->key);
            el[i].value = go_render(g, it->value, pr ? pr->type : NULL, g->pre_indent + 1, false);
        }
        buf_printf(&call, ", &%s.%s%sArgs", mod, type, method);
        go_write_elems(&call, el, na, g->pre_indent);
    }
    buf_putc(&call, ')');
    go_pre_line(g, 0, call.data);
    buf_free(&call);
    go_err_check(g->pre, g->pre_indent);
    g->err_declared = true;
    if (f->return_plain) {
        buf_printf(b, "%s%s%s%s%s", wrap ? wrap : "", wrap ? "(" : "", var, e == c ? "" : ".",
                   e == c ? "" : go_field_name(g, e->s));
        if (wrap) buf_putc(b, ')');
        return;
    }
    buf_printf(b, "%s.ApplyT(func(call %s.%s%sResult) (%s, error) {\n", var, mod, type, method, go_vt_name(g, rt));
    go_indent(b, depth + 1);
    buf_printf(b, "return call.%s, nil\n", go_field_name(g, e->s));
    go_indent(b, depth);
    buf_printf(b, "}).(%s)", go_vt_output(g, rt));
}

/* secret(x) as `pulumi.ToSecret(x).(T)`, unsecret(x) as `pulumi.Unsecret(x).(T)`, T the Output
 * type of x's value. As Pulumi writes it, ToSecret takes a plain string, bool or variable as it is
 * (a number literal would become an int); Unsecret takes an Output, and a plain value is not secret
 * to begin with. */
static void go_secret_call(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth) {
    const pcl_expr_t *in = e->call.args[0];
    bool output = emit_has_output(g->base.p, g->base.index, in);
    bool secret = e->call.name[0] == 's';
    if (!secret && !output) {
        go_expr(g, b, in, t, depth);
        return;
    }
    const go_vt_t *it = go_secret_arg_type(g, in);
    bool known = it->kind != GV_UNKNOWN && it->kind != GV_ANY && !it->ptr && go_vt_stem(g, it, 0);
    /* a plain Go value (`map[string]bool{...}`): ToSecret gives the Output of its type, where a
     * pulumi.Map would give a MapOutput whatever its values */
    bool plain = secret && !output && known &&
                 (it->kind == GV_STRING || it->kind == GV_BOOL || it->kind == GV_LIST || it->kind == GV_MAP ||
                  (in->kind == PCL_TRAVERSAL && it->kind != GV_OBJECT));
    if (secret && !output && it->kind == GV_ANY && in->kind == PCL_TRAVERSAL) {
        /* a value of no type: its plain value as a pulumi.Any, as Pulumi writes it */
        buf_puts(b, "pulumi.ToSecret(pulumi.Any(");
        go_plain(g, b, in, g->gd, it);
        buf_puts(b, ")).(pulumi.AnyOutput)");
        return;
    }
    buf_puts(b, secret ? "pulumi.ToSecret(" : "pulumi.Unsecret(");
    if (plain)
        go_plain(g, b, in, g->gd, it);
    else
        go_expr(g, b, in, t, depth);
    buf_printf(b, ").(%s)", t || !known ? go_output_type(g, t, in) : go_vt_output(g, it));
}

/* A value in an input position of schema type `t` (NULL: unknown, typed by the literal). */
/* A scalar config value where the schema wants another scalar type (emit_config_conversion), as
 * Pulumi's generators convert it: a string to a bool (`== "true"`), an int or a number
 * (strconv.Atoi, strconv.ParseFloat: in an apply, whose error fails the update as Pulumi's Go does
 * for an ID), an int to a number (float64()), a number or a bool to a string (strconv; a number as
 * JavaScript's String() writes it: formatNumber). A secret is an Output: converted in an apply. False
 * when no conversion is needed. */
static bool go_config_conversion(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const pcl_node_t *cn,
                                 const schema_type_t *t) {
    emit_conversion_t k = emit_config_conversion(cn, t);
    if (k == EMIT_CONV_NONE || k == EMIT_CONV_UNSUPPORTED) return false;
    const char *ct = cn->token ? cn->token : "string";
    const char *from = strcmp(ct, "int") == 0      ? "int"
                       : strcmp(ct, "number") == 0 ? "float64"
                       : strcmp(ct, "bool") == 0   ? "bool"
                                                   : "string";
    const char *to = NULL, *expr = NULL; /* expr: of v, "%s" standing for it; NULL: a (value, error) call */
    bool fails = false;
    switch (k) {
    case EMIT_CONV_STRING_TO_BOOL: to = "Bool", expr = "%s == \"true\""; break;
    case EMIT_CONV_STRING_TO_INT: to = "Int", expr = "strconv.Atoi(%s)", fails = true; break;
    case EMIT_CONV_STRING_TO_NUMBER: to = "Float64", expr = "strconv.ParseFloat(%s, 64)", fails = true; break;
    case EMIT_CONV_INT_TO_NUMBER: to = "Float64", expr = "float64(%s)"; break;
    case EMIT_CONV_BOOL_TO_STRING: to = "String", expr = "strconv.FormatBool(%s)"; break;
    case EMIT_CONV_NUMBER_TO_STRING:
        to = "String", expr = strcmp(from, "int") == 0 ? "strconv.Itoa(%s)" : "formatNumber(%s)";
        break;
    default: return false;
    }
    if (strstr(expr, "formatNumber")) go_use_helper(g, GO_HELPER_FORMAT_NUMBER);
    if (strstr(expr, "strconv.")) go_import_add(g, "strconv", "strconv");
    static const char *const plain[] = {"String", "string", "Int", "int", "Float64", "float64", "Bool", "bool"};
    const char *to_go = NULL;
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i += 2)
        if (strcmp(plain[i], to) == 0) to_go = plain[i + 1];
    if (!cn->config_secret && !fails) {
        buf_printf(b, "pulumi.%s(", to);
        buf_t v;
        buf_init(&v);
        go_traversal(g, &v, e);
        buf_printf(b, expr, v.data);
        buf_free(&v);
        buf_putc(b, ')');
        return true;
    }
    if (!cn->config_secret) { /* a plain string: its Output, to convert in an apply */
        buf_puts(b, "pulumi.String(");
        go_traversal(g, b, e);
        buf_puts(b, ").ToStringOutput()");
    } else {
        go_traversal(g, b, e);
    }
    buf_printf(b, ".ApplyT(func(v %s) (%s, error) { return ", from, to_go);
    buf_printf(b, expr, "v");
    buf_printf(b, "%s }).(pulumi.%sOutput)", fails ? "" : ", nil", to);
    return true;
}

/* The type of a list's or map's items (a map's values) when they are all string literals, all
 * whole-number literals, all assets or all archives: where no schema types it (a stack output),
 * Pulumi writes the typed collection, pulumi.StringArray{pulumi.String(...)}, pulumi.IntMap{...},
 * pulumi.AssetOrArchiveArray, pulumi.ArchiveMap; NULL otherwise. */
static const schema_type_t *go_literals_type(const pcl_expr_t *e) {
    static const schema_type_t str = {.kind = SCHEMA_STRING}, integer = {.kind = SCHEMA_INT},
                               asset = {.kind = SCHEMA_ASSET}, archive = {.kind = SCHEMA_ARCHIVE};
    size_t n = e->kind == PCL_TUPLE ? e->tuple.n : e->object.n;
    bool strings = n > 0, ints = n > 0, assets = n > 0, archives = n > 0;
    for (size_t i = 0; i < n; i++) {
        const pcl_expr_t *v = e->kind == PCL_TUPLE ? e->tuple.items[i] : e->object.items[i].value;
        strings &= v->kind == PCL_STRING;
        ints &= v->kind == PCL_NUMBER && names_number_is_int(v->n);
        /* assets (pulumi.AssetOrArchiveArray) and archives (pulumi.ArchiveArray) */
        const char *cls = v->kind == PCL_CALL && !v->function ? emit_asset_class(v->call.name) : NULL;
        assets &= cls && !strstr(cls, "Archive");
        archives &= cls && strstr(cls, "Archive");
    }
    return strings ? &str : ints ? &integer : assets ? &asset : archives ? &archive : NULL;
}

/* A list or map literal of resources as Pulumi's Go SDKs take it as an input: `[]mod.CustomInput`,
 * `map[string]mod.CustomInput` (they generate no CustomArray type); NULL for other types and for
 * literals holding anything but resources. */
static const char *go_resource_inputs_type(go_ctx_t *g, const pcl_expr_t *e, const schema_type_t *t) {
    if (!t || (t->kind != SCHEMA_ARRAY && t->kind != SCHEMA_MAP) || !t->element || t->element->kind != SCHEMA_RESOURCE)
        return NULL;
    size_t n = e->kind == PCL_TUPLE ? e->tuple.n : e->object.n;
    for (size_t i = 0; i < n; i++)
        if (!go_resource_arg(g, e->kind == PCL_TUPLE ? e->tuple.items[i] : e->object.items[i].value)) return NULL;
    const char *res = go_plain_type(g, t->element, true); /* *mod.Custom */
    return res ? arena_sprintf(g->base.a, "%s%sInput", t->kind == SCHEMA_ARRAY ? "[]" : "map[string]", res + 1) : NULL;
}

/* After an output's number, int or bool read written where the schema wants a string (PCL converts
 * it; a Float64Output is no StringInput): its conversion in an apply, as Pulumi writes one for an
 * ID, the number as PCL prints it (formatNumber). An optional one is refused. */
static void go_output_to_string(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t) {
    if (!t || t->kind != SCHEMA_STRING || !emit_has_output(g->base.p, g->base.index, e)) return;
    const go_vt_t *rt = go_infer(g, e);
    if (rt->kind != GV_FLOAT && rt->kind != GV_INT && rt->kind != GV_BOOL) return;
    if (rt->ptr) {
        go_refuse(g, e, "an optional number or bool where the schema wants a string");
        return;
    }
    const char *conv = rt->kind == GV_BOOL ? "strconv.FormatBool(v)" : rt->kind == GV_INT ? "strconv.Itoa(v)" : NULL;
    if (conv)
        go_import_add(g, "strconv", "strconv");
    else
        go_use_helper(g, GO_HELPER_FORMAT_NUMBER);
    buf_printf(b, ".ApplyT(func(v %s) (string, error) { return %s, nil }).(pulumi.StringOutput)", go_vt_name(g, rt),
               conv ? conv : "formatNumber(v)");
}

static void go_expr(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth) {
    if (!t) t = e->type;
    if (emit_is_method_call(e) ||
        (e->kind == PCL_GETATTR && emit_fn_call_under(e) && emit_is_method_call(emit_fn_call_under(e)))) {
        go_method_call(g, b, e, depth, false);
        return;
    }
    if (emit_is_invoke(e) || ((e->kind == PCL_GETATTR || e->kind == PCL_INDEX) && emit_fn_call_under(e))) {
        go_invoke(g, b, e, depth);
        return;
    }
    if (go_is_lang(g, e)) {
        /* a union's Go input is pulumi.Input: any value passes */
        go_lang_value(g, b, e, t && t->kind == SCHEMA_UNION ? NULL : t, depth);
        return;
    }
    bool scalar = e->kind == PCL_STRING || e->kind == PCL_NUMBER || e->kind == PCL_BOOL;
    const schema_type_t *relaxed = scalar ? go_union_enum(t) : NULL;
    if (relaxed) { /* a relaxed enum's input is its element type's: a member converted to it, as Pulumi writes it */
        if (names_enum_value_of(relaxed, e)) {
            buf_printf(b, "%s(", go_type_stem(g, relaxed->element));
            go_enum(g, b, e, relaxed);
            buf_putc(b, ')');
            return;
        }
        t = relaxed->element;
    } else if (scalar && t && t->kind == SCHEMA_UNION) { /* a pulumi.Input: Pulumi writes pulumi.Any(literal) */
        buf_puts(b, "pulumi.Any(");
        go_raw(g, b, e, depth);
        buf_putc(b, ')');
        return;
    }
    /* the binder reduced a union by its discriminator: that member, not the first that fits */
    if (t && t->kind == SCHEMA_UNION && e->type && e->type->kind != SCHEMA_UNION) t = e->type;
    if (t && t->external_ref && e->kind != PCL_TRAVERSAL && e->kind != PCL_NULL) {
        schema_package_t *xp = NULL;
        const schema_type_t *xt = emit_external_enum(g->base.a, g->base.p, t->external_ref, &xp);
        if (xt) { /* an enum of another package the program uses: its member, from that package's SDK */
            schema_package_t *saved = g->type_pkg;
            g->type_pkg = xp;
            go_expr(g, b, e, xt, depth);
            g->type_pkg = saved;
            return;
        }
        if (g->base.report)
            diag_add(g->base.diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                     "%s '%s': a value typed by another package's type (%s), which the Go emitter cannot name yet",
                     g->base.node && g->base.node->kind == PCL_NODE_OUTPUT ? "output" : "resource",
                     g->base.node ? g->base.node->name : "?", t->external_ref);
        buf_puts(b, "nil");
        return;
    }
    if (t && t->kind == SCHEMA_UNION) {
        const schema_type_t *m = emit_union_pick(t, e, true);
        t = m ? m : NULL;
        if (!m && e->kind != PCL_TRAVERSAL && e->kind != PCL_CALL) {
            buf_puts(b, "pulumi.Any(");
            go_raw(g, b, e, depth);
            buf_putc(b, ')');
            return;
        }
    }
    switch (e->kind) {
    case PCL_NULL: buf_puts(b, "nil"); return;
    case PCL_TRAVERSAL: {
        if (go_resource_index_read(g, e)) {
            /* an index into a resource's output: read in an apply, as Pulumi writes it */
            go_lang_value(g, b, e, t, depth);
            return;
        }
        /* a plain config read is a Go value (string, int, float64, bool), not an Input */
        int idx = e->trav.n == 0 ? emit_typed_find(&g->base, e->trav.root) : -1;
        const pcl_node_t *cn = idx >= 0 ? &g->base.p->nodes[idx] : NULL;
        if (idx >= 0 && g->base.p->nodes[idx].kind == PCL_NODE_CONFIG &&
            go_config_conversion(g, b, e, &g->base.p->nodes[idx], t))
            return;
        if (idx >= 0 && g->base.p->nodes[idx].kind == PCL_NODE_CONFIG && !g->base.p->nodes[idx].config_secret &&
            !emit_config_output_default(g->base.p, g->base.index, cn) &&
            emit_config_scalar(emit_config_type(g->base.a, g->base.p->nodes[idx].token))) {
            const char *ct = cn->token ? cn->token : "string";
            const char *wrap = strcmp(ct, "int") == 0      ? "pulumi.Int"
                               : strcmp(ct, "number") == 0 ? "pulumi.Float64"
                               : strcmp(ct, "bool") == 0   ? "pulumi.Bool"
                               : strcmp(ct, "string") == 0 ? "pulumi.String"
                                                           : "pulumi.Any";
            if (t && (t->kind == SCHEMA_ANY || t->kind == SCHEMA_JSON)) wrap = "pulumi.Any";
            buf_printf(b, "%s(", wrap);
            go_traversal(g, b, e);
            buf_putc(b, ')');
            return;
        }
        go_traversal(g, b, e);
        go_output_to_string(g, b, e, t);
        return;
    }
    case PCL_CALL:
        if ((strcmp(e->call.name, "secret") == 0 || strcmp(e->call.name, "unsecret") == 0) && e->call.n == 1) {
            go_secret_call(g, b, e, t, depth);
            return;
        }
        if (strcmp(e->call.name, "getOutput") == 0 && e->call.n == 2) {
            /* a stack reference's output, an AnyOutput: where any value goes */
            if (t && t->kind != SCHEMA_ANY && t->kind != SCHEMA_JSON) {
                go_refuse(g, e, "a stack reference's output (of no type) where the schema wants a typed value");
                buf_puts(b, "nil");
                return;
            }
            go_raw(g, b, e->call.args[0], depth);
            buf_puts(b, ".GetOutput(");
            go_expr(g, b, e->call.args[1], NULL, depth);
            buf_putc(b, ')');
            return;
        }
        if (go_asset_call(g, b, e, depth)) return;
        if (go_can_try(e)) {
            go_can_try_output(g, b, e, t, depth);
            return;
        }
        if (go_fn_find(e) && e->call.n == 1) { /* toJSON over outputs: marshalled in an apply of them */
            go_apply_over(g, b, e->call.args[0], e, go_vt(g, GV_STRING, NULL), depth);
            return;
        }
        if (go_fn_find(e)) {
            go_refuse(g, e, arena_sprintf(g->base.a, "%s() over outputs", e->call.name));
            buf_puts(b, "nil");
            return;
        }
        emit_unknown_call(b, g->base.diags, g->base.report, g->base.node, e, LANG_GO, "nil");
        return;
    EMIT_CASE_LANGUAGE_EXPRS:
        emit_unwritable(g->base.diags, e, LANG_GO);
        buf_puts(b, "nil");
        return;
    case PCL_BOOL:
    case PCL_NUMBER:
    case PCL_STRING:
        if (t && (t->kind == SCHEMA_ANY || t->kind == SCHEMA_JSON)) {
            buf_puts(b, "pulumi.Any(");
            go_raw(g, b, e, depth);
            buf_putc(b, ')');
            return;
        }
        go_scalar(g, b, e, t);
        return;
    case PCL_TUPLE: {
        schema_type_t typed = {.kind = SCHEMA_ARRAY, .element = t ? NULL : go_literals_type(e)};
        if (typed.element) t = &typed; /* literals of one type: pulumi.StringArray, as Pulumi writes them */
        if (!t || t->kind != SCHEMA_ARRAY) {
            if (t && (t->kind == SCHEMA_ANY || t->kind == SCHEMA_JSON)) {
                buf_puts(b, "pulumi.Any(");
                go_raw(g, b, e, depth);
                buf_putc(b, ')');
                return;
            }
            buf_puts(b, "pulumi.Array");
            t = NULL;
        } else {
            const char *rt = go_resource_inputs_type(g, e, t);
            buf_puts(b, rt ? rt : go_type_stem(g, t));
        }
        const schema_type_t *et = t ? t->element : NULL;
        go_elem_t *el = arena_alloc(g->base.a, (e->tuple.n + 1) * sizeof *el);
        for (size_t i = 0; i < e->tuple.n; i++)
            el[i].value = go_render(g, e->tuple.items[i], et, depth + 1, false);
        go_write_elems(b, el, e->tuple.n, depth);
        return;
    }
    case PCL_OBJECT: {
        if (t && t->kind == SCHEMA_OBJECT && t->object) {
            go_elem_t *el = arena_alloc(g->base.a, (e->object.n + 1) * sizeof *el);
            buf_printf(b, "&%sArgs", go_type_stem(g, t));
            for (size_t i = 0; i < e->object.n; i++) {
                const pcl_object_item_t *it = &e->object.items[i];
                const schema_property_t *prop = it->prop;
                if (!prop) prop = schema_find_property(t->object->props, t->object->n_props, it->key);
                el[i].key = go_field_name(g, it->key);
                if (prop && prop->plain)
                    el[i].value = go_plain_input_str(g, it->value, prop->type, prop->required, depth + 1);
                else
                    el[i].value = go_render(g, it->value, prop ? prop->type : NULL, depth + 1, false);
            }
            go_write_elems(b, el, e->object.n, depth);
            return;
        }
        if (t && (t->kind == SCHEMA_ANY || t->kind == SCHEMA_JSON)) {
            buf_puts(b, "pulumi.Any(");
            go_raw(g, b, e, depth);
            buf_putc(b, ')');
            return;
        }
        const schema_type_t *et = NULL;
        schema_type_t typed = {.kind = SCHEMA_MAP, .element = t ? NULL : go_literals_type(e)};
        if (typed.element) t = &typed; /* literals of one type: pulumi.StringMap, as Pulumi writes them */
        if (t && t->kind == SCHEMA_MAP) {
            const char *rt = go_resource_inputs_type(g, e, t);
            buf_puts(b, rt ? rt : go_type_stem(g, t));
            et = t->element;
        } else {
            buf_puts(b, "pulumi.Map");
        }
        go_write_elems(b, go_map_elems(g, e, et, depth, false), e->object.n, depth);
        return;
    }
    }
}

/* --- options -------------------------------------------------------------------------------------- */

static const char *go_option(go_ctx_t *g, const pcl_attr_t *o, int depth) {
    buf_t b;
    buf_init(&b);
    const pcl_expr_t *v = o->value;
    const char *n = o->name;
    if (strcmp(n, "parent") == 0 || strcmp(n, "provider") == 0 || strcmp(n, "deletedWith") == 0) {
        buf_printf(&b, "pulumi.%s(",
                   strcmp(n, "parent") == 0     ? "Parent"
                   : strcmp(n, "provider") == 0 ? "Provider"
                                                : "DeletedWith");
        go_raw(g, &b, v, depth);
        buf_putc(&b, ')');
    } else if (strcmp(n, "protect") == 0 || strcmp(n, "retainOnDelete") == 0) {
        buf_printf(&b, "pulumi.%s(", strcmp(n, "protect") == 0 ? "Protect" : "RetainOnDelete");
        go_raw(g, &b, v, depth);
        buf_putc(&b, ')');
    } else if ((strcmp(n, "dependsOn") == 0 || strcmp(n, "replaceWith") == 0) && v->kind == PCL_TUPLE) {
        buf_printf(&b, "pulumi.%s([]pulumi.Resource", strcmp(n, "dependsOn") == 0 ? "DependsOn" : "ReplaceWith");
        go_elem_t *el = arena_alloc(g->base.a, (v->tuple.n + 1) * sizeof *el);
        for (size_t i = 0; i < v->tuple.n; i++)
            el[i].value = go_render(g, v->tuple.items[i], NULL, depth + 1, true);
        go_write_elems(&b, el, v->tuple.n, depth);
        buf_putc(&b, ')');
    } else if (strcmp(n, "deleteBeforeReplace") == 0) {
        buf_puts(&b, "pulumi.DeleteBeforeReplace(");
        go_raw(g, &b, v, depth);
        buf_putc(&b, ')');
    } else if (strcmp(n, "version") == 0 || strcmp(n, "pluginDownloadURL") == 0) {
        buf_printf(&b, "pulumi.%s(", strcmp(n, "version") == 0 ? "Version" : "PluginDownloadURL");
        go_raw(g, &b, v, depth);
        buf_putc(&b, ')');
    } else if (strcmp(n, "customTimeouts") == 0 && v->kind == PCL_OBJECT) {
        buf_puts(&b, "pulumi.Timeouts(&pulumi.CustomTimeouts{");
        for (size_t i = 0; i < v->object.n; i++) {
            if (i) buf_puts(&b, ", ");
            buf_printf(&b, "%s: ", names_title(g->base.a, v->object.items[i].key));
            go_raw(g, &b, v->object.items[i].value, depth);
        }
        buf_puts(&b, "})");
    } else if (strcmp(n, "aliases") == 0 && v->kind == PCL_TUPLE) {
        buf_puts(&b, "pulumi.Aliases([]pulumi.Alias{");
        for (size_t i = 0; i < v->tuple.n; i++) {
            const pcl_expr_t *it = v->tuple.items[i];
            if (i) buf_puts(&b, ", ");
            buf_puts(&b, "pulumi.Alias{");
            if (it->kind != PCL_OBJECT) {
                buf_puts(&b, "URN: pulumi.URN(");
                go_raw(g, &b, it, depth);
                buf_putc(&b, ')');
            }
            for (size_t k = 0; it->kind == PCL_OBJECT && k < it->object.n; k++) {
                const pcl_object_item_t *f = &it->object.items[k];
                if (k) buf_puts(&b, ", ");
                if (strcmp(f->key, "parent") == 0) {
                    buf_puts(&b, "Parent: ");
                    go_raw(g, &b, f->value, depth);
                } else if (strcmp(f->key, "noParent") == 0) {
                    buf_puts(&b, "NoParent: pulumi.Bool(");
                    go_raw(g, &b, f->value, depth);
                    buf_putc(&b, ')');
                } else {
                    buf_printf(&b, "%s: pulumi.String(", names_title(g->base.a, f->key));
                    go_raw(g, &b, f->value, depth);
                    buf_putc(&b, ')');
                }
            }
            buf_putc(&b, '}');
        }
        buf_puts(&b, "})");
    } else if (pcl_option_kind(n) == PCL_OPT_PATHS && v->kind == PCL_TUPLE) {
        buf_printf(&b, "pulumi.%s([]string", names_title(g->base.a, n));
        go_elem_t *el = arena_alloc(g->base.a, (v->tuple.n + 1) * sizeof *el);
        for (size_t i = 0; i < v->tuple.n; i++) {
            buf_t s;
            buf_init(&s);
            emit_path_literal(&s, LANG_GO, v->tuple.items[i]);
            el[i].value = buf_arena_str(&s, g->base.a);
            buf_free(&s);
        }
        go_write_elems(&b, el, v->tuple.n, depth);
        buf_putc(&b, ')');
    } else if (strcmp(n, "replacementTrigger") == 0) {
        /* any value; a secret one is an Output held as interface{}, as Pulumi writes it */
        bool secret = v->kind == PCL_CALL && strcmp(v->call.name, "secret") == 0 && v->call.n == 1;
        buf_puts(&b, secret ? "pulumi.ReplacementTrigger(pulumi.Any(interface{}("
                            : "pulumi.ReplacementTrigger(pulumi.Any(");
        if (secret)
            go_secret_call(g, &b, v, NULL, depth);
        else
            go_raw(g, &b, v, depth);
        buf_puts(&b, secret ? ")))" : "))");
    } else if (strcmp(n, "providers") == 0 && v->kind == PCL_TUPLE && v->tuple.n > 0) {
        /* one provider is pulumi.Provider (Pulumi's form; for a component it serves its package) */
        buf_puts(&b, v->tuple.n == 1 ? "pulumi.Provider(" : "pulumi.Providers(");
        for (size_t i = 0; i < v->tuple.n; i++) {
            if (i) buf_puts(&b, ", ");
            go_raw(g, &b, v->tuple.items[i], depth);
        }
        buf_putc(&b, ')');
    } else if (strcmp(n, "providers") == 0 && v->kind == PCL_OBJECT) {
        buf_puts(&b, "pulumi.ProviderMap(map[string]pulumi.ProviderResource");
        go_write_elems(&b, go_map_elems(g, v, NULL, depth, true), v->object.n, depth);
        buf_putc(&b, ')');
    } else if (strcmp(n, "envVarMappings") == 0 && v->kind == PCL_OBJECT) {
        /* plain strings (emit_check_program: string literals), on one line as Pulumi writes them */
        buf_puts(&b, "pulumi.EnvVarMappings(map[string]string{");
        for (size_t i = 0; i < v->object.n; i++) {
            buf_printf(&b, "%s%s: ", i ? ", " : "", go_quoted_key(g, v->object.items[i].key));
            go_raw(g, &b, v->object.items[i].value, depth);
        }
        buf_puts(&b, "})");
    } else if (strcmp(n, "hooks") == 0 && v->kind == PCL_OBJECT) {
        /* a ResourceHookBinding: each list of hooks on one line, as Pulumi writes it */
        buf_puts(&b, "pulumi.ResourceHooks(&pulumi.ResourceHookBinding{");
        for (size_t i = 0; i < v->object.n; i++) {
            const pcl_expr_t *l = v->object.items[i].value;
            const char *key = v->object.items[i].key;
            buf_printf(&b, "%s%s: []*pulumi.%s{", i ? ", " : "", names_title(g->base.a, key),
                       strcmp(key, "onError") == 0 ? "ErrorHook" : "ResourceHook");
            for (size_t k = 0; l->kind == PCL_TUPLE && k < l->tuple.n; k++) {
                if (k) buf_puts(&b, ", ");
                go_raw(g, &b, l->tuple.items[k], depth);
            }
            buf_putc(&b, '}');
        }
        buf_puts(&b, "})");
    } else if (strcmp(n, "import") == 0) {
        buf_puts(&b, "pulumi.Import(pulumi.ID(");
        go_raw(g, &b, v, depth);
        buf_puts(&b, "))");
    } else {
        buf_free(&b);
        /* a value of a shape the Go emitter does not write: refused, never dropped */
        go_refuse(g, v, arena_sprintf(g->base.a, "the resource option '%s' of this shape", n));
        return NULL;
    }
    char *s = buf_arena_str(&b, g->base.a);
    buf_free(&b);
    return s;
}

/* Go's option order (lowerResourceOptions): parent, provider, dependsOn, protect, retainOnDelete,
 * ignoreChanges, deletedWith, replaceWith, import. */
static const char *const GO_OPTION_NAMES[] = {"aliases",
                                              "parent",
                                              "provider",
                                              "providers",
                                              "dependsOn",
                                              "protect",
                                              "retainOnDelete",
                                              "ignoreChanges",
                                              "deletedWith",
                                              "replaceWith",
                                              "import",
                                              "replaceOnChanges",
                                              "deleteBeforeReplace",
                                              "additionalSecretOutputs",
                                              "hideDiffs",
                                              "customTimeouts",
                                              "replacementTrigger",
                                              "hooks",
                                              "envVarMappings",
                                              "version",
                                              "pluginDownloadURL"};
static const emit_option_order_t GO_OPTIONS = {GO_OPTION_NAMES, sizeof GO_OPTION_NAMES / sizeof GO_OPTION_NAMES[0]};

static void go_options(go_ctx_t *g, buf_t *b, const pcl_node_t *n, int depth) {
    const pcl_attr_t **sorted = emit_sorted_options(g->base.a, n, &GO_OPTIONS);
    for (size_t i = 0; i < n->n_options; i++) {
        const char *o = go_option(g, sorted[i], depth);
        if (o) buf_printf(b, ", %s", o);
    }
}

/* --- program ---------------------------------------------------------------------------------------- */

static void go_indent(buf_t *b, int depth) {
    for (int i = 0; i < depth; i++)
        buf_putc(b, '\t');
}

static bool go_mark_one(const pcl_expr_t *e, void *ctx) {
    go_ctx_t *g = ctx;
    if (e->kind == PCL_TRAVERSAL) {
        int idx = emit_typed_find(&g->base, e->trav.root);
        if (idx >= 0) g->referenced[idx] = true;
    }
    return true;
}

static void go_mark_refs(go_ctx_t *g, const pcl_expr_t *e) {
    if (e) pcl_expr_walk(e, go_mark_one, g);
}

/* The getters of config values; a list, map or any config value is decoded from its JSON into a
 * Go value of the type named here ... RequireInt, RequireFloat64 and RequireBool (and TryX) are
 * what Pulumi's Go generator writes: the SDK converts a value that does not parse as the type to
 * its zero value ("abc" → 0), where the other SDKs fail; kept as Pulumi writes it (README, PCL). */
static const emit_cfg_names_t GO_CFG = {
    .getter = {{"Require", "RequireInt", "RequireFloat64", "RequireBool"},
               {"RequireSecret", "RequireSecretInt", "RequireSecretFloat64", "RequireSecretBool"}},
    .scalar = {"string", "int", "float64", "bool"},
    .list = "[]%s",
    .map = "map[string]%s",
    .any = "interface{}",
};

/* ... and wrapped in the SDK's Output of that type: StringArrayOutput, IntMapOutput, StringMapArrayOutput,
 * MapOutput (map[string]interface{}), ... The SDK has them for up to two levels of lists and maps;
 * deeper values are read as any (AnyOutput). */
static const char *go_cfg_output_type(go_ctx_t *g, const emit_cfg_type_t *t) {
    if (t->kind == EMIT_CFG_ANY || emit_config_depth(t) > 2) return "pulumi.AnyOutput";
    buf_t b;
    buf_init(&b);
    const emit_cfg_type_t *leaf = t;
    while (leaf->kind == EMIT_CFG_LIST || leaf->kind == EMIT_CFG_MAP)
        leaf = leaf->elem;
    static const char *const stem[] = {[EMIT_CFG_STRING] = "String",
                                       [EMIT_CFG_INT] = "Int",
                                       [EMIT_CFG_NUMBER] = "Float64",
                                       [EMIT_CFG_BOOL] = "Bool",
                                       [EMIT_CFG_ANY] = ""};
    buf_puts(&b, stem[leaf->kind]);
    /* innermost container first: list(map(string)) is StringMapArray */
    const emit_cfg_type_t *levels[2];
    int n = 0;
    for (const emit_cfg_type_t *c = t; c != leaf; c = c->elem)
        levels[n++] = c;
    while (n-- > 0)
        buf_puts(&b, levels[n]->kind == EMIT_CFG_LIST ? "Array" : "Map");
    const char *r = arena_sprintf(g->base.a, "pulumi.%sOutput", b.data);
    buf_free(&b);
    return r;
}

/* A literal default of a list, map or any config value as a Go value of the type it is read as
 * (emit_check_program accepts only defaults that fit it): `[]string{"a"}`, `map[string]int{"k": 1}`;
 * a value of any type (or one nested deeper than the SDK's Outputs go) as Pulumi writes a plain
 * value (`[]interface{}{...}`, `map[string]interface{}{...}`). */
static void go_cfg_literal(go_ctx_t *g, buf_t *b, const emit_cfg_type_t *t, const pcl_expr_t *e, int depth) {
    bool list = t && t->kind == EMIT_CFG_LIST && e->kind == PCL_TUPLE;
    if (!list && !(t && t->kind == EMIT_CFG_MAP && e->kind == PCL_OBJECT)) {
        go_raw(g, b, e, depth);
        return;
    }
    size_t n = list ? e->tuple.n : e->object.n;
    go_elem_t *el = arena_alloc(g->base.a, (n + 1) * sizeof *el);
    for (size_t k = 0; k < n; k++) {
        buf_t v;
        buf_init(&v);
        go_cfg_literal(g, &v, t->elem, list ? e->tuple.items[k] : e->object.items[k].value, depth + 1);
        el[k].key = list ? NULL : go_quoted_key(g, e->object.items[k].key);
        el[k].value = buf_arena_str(&v, g->base.a);
        buf_free(&v);
    }
    buf_puts(b, emit_config_type_name(g->base.a, t, &GO_CFG));
    go_write_elems(b, el, n, depth);
}

/* A list, map or any config value with a default: the configured value when the key is set (and
 * not null), else the default, as `config.getObject(k) ?? default` reads it:
 *   var namesValue []string
 *   if err := cfg.GetObject("names", &namesValue); err != nil {
 *       return err
 *   }
 *   if namesValue == nil {
 *       namesValue = []string{...}
 *   }
 *   names := pulumi.ToOutput(namesValue).(pulumi.StringArrayOutput)
 * (vt NULL: a value of any type, an interface{}.) */
static void go_config_object_default(go_ctx_t *g, buf_t *b, size_t i, const emit_cfg_type_t *t, const char *vt,
                                     int depth) {
    const pcl_node_t *n = &g->base.p->nodes[i];
    const char *value = g->cfg_value && g->cfg_value[i] ? g->cfg_value[i] : "v"; /* "v": the first pass */
    const pcl_expr_t *def = n->attrs[0].value;
    go_indent(b, depth);
    buf_printf(b, "var %s %s\n", value, vt ? vt : "interface{}");
    go_indent(b, depth);
    buf_puts(b, "if err := cfg.GetObject(");
    names_append_quoted(b, LANG_GO, n->config_key ? n->config_key : n->name);
    buf_printf(b, ", &%s); err != nil {\n", value);
    go_indent(b, depth + 1);
    buf_puts(b, "return err\n");
    go_indent(b, depth);
    buf_puts(b, "}\n");
    if (def->kind != PCL_NULL) {
        go_indent(b, depth);
        buf_printf(b, "if %s == nil {\n", value);
        go_indent(b, depth + 1);
        buf_printf(b, "%s = ", value);
        go_cfg_literal(g, b, vt ? t : NULL, def, depth + 1);
        buf_putc(b, '\n');
        go_indent(b, depth);
        buf_puts(b, "}\n");
    }
    if (g->cfg_output[i]) { /* Go rejects a variable nothing reads */
        go_indent(b, depth);
        bool any = !vt;
        buf_printf(b, "%s := pulumi.ToOutput(%s%s%s).(%s)\n", g->base.var[i], any ? "pulumi.Any(" : "", value,
                   any ? ")" : "", go_cfg_output_type(g, t));
    }
}

/* A list, map or any config value: decoded into a plain Go value, then an Output of its type (a
 * secret Output for a secret), so it passes where the resource takes that type:
 *   var tagsValue map[string]string
 *   cfg.RequireSecretObject("tags", &tagsValue)
 *   tags := pulumi.ToSecret(tagsValue).(pulumi.StringMapOutput) */
static void go_config_object(go_ctx_t *g, buf_t *b, size_t i, int depth) {
    const pcl_node_t *n = &g->base.p->nodes[i];
    const emit_cfg_type_t *t = emit_config_type(g->base.a, n->token);
    bool object = go_cfg_object(n, t);
    bool any = !object && (t->kind == EMIT_CFG_ANY || emit_config_depth(t) > 2);
    const char *vt = object ? "map[string]interface{}"
                     : any  ? "interface{}"
                            : emit_config_type_name(g->base.a, t, &GO_CFG);
    const char *getter = n->config_secret ? "RequireSecretObject" : "RequireObject";
    const char *key = n->config_key ? n->config_key : n->name;
    if (n->n_attrs) { /* a default: nothing to read when nothing reads it (a default never fails) */
        if (g->referenced[i]) go_config_object_default(g, b, i, t, any ? NULL : vt, depth);
        return;
    }
    if (!g->referenced[i]) {
        go_indent(b, depth);
        buf_printf(b, "cfg.%s(", getter);
        names_append_quoted(b, LANG_GO, key);
        buf_printf(b, ", new(%s))\n", vt);
        return;
    }
    const char *value = g->cfg_value && g->cfg_value[i] ? g->cfg_value[i] : "v";
    go_indent(b, depth);
    buf_printf(b, "var %s %s\n", value, vt);
    go_indent(b, depth);
    buf_printf(b, "cfg.%s(", getter);
    names_append_quoted(b, LANG_GO, key);
    buf_printf(b, ", &%s)\n", value);
    if (!g->cfg_output[i]) return; /* read only as the plain value: Go rejects a variable nothing reads */
    go_indent(b, depth);
    /* pulumi.Any: an interface{} holding a map would otherwise become a MapOutput */
    const char *wrap = any ? "pulumi.Any(" : "";
    buf_printf(b, "%s := pulumi.%s(%s%s%s).(%s)\n", g->base.var[i], n->config_secret ? "ToSecret" : "ToOutput", wrap,
               value, any ? ")" : "", object ? "pulumi.MapOutput" : go_cfg_output_type(g, t));
}

/* A top-level local: `name := value` (`_ = value` when nothing reads it). */
static void go_local(go_ctx_t *g, buf_t *b, size_t i, int depth) {
    const pcl_expr_t *v = g->base.p->nodes[i].attrs[0].value;
    const char *var = g->base.var[i];
    go_indent(b, depth);
    buf_printf(b, "%s %s ", var, strcmp(var, "_") == 0 ? "=" : ":=");
    g->gd = 1;
    g->line_depth = depth;
    if (go_id_map_local(g, (int)i)) {
        buf_puts(b, "map[string]pulumi.IDInput");
        go_write_elems(b, go_map_elems(g, v, NULL, depth, false), v->object.n, depth);
    } else if (emit_has_output(g->base.p, g->base.index, v)) {
        go_expr(g, b, v, NULL, depth);
    } else {
        const go_vt_t *t = go_infer(g, v);
        if (t->kind == GV_UNKNOWN) {
            go_refuse(g, v,
                      arena_sprintf(g->base.a, "the Go type of %s is not known (or its operands' types do not agree)",
                                    go_what(g, v)));
        } else if (go_is_num_lit(v)) {
            /* a bare whole number would declare an int */
            go_float_literal(b, v->kind == PCL_NUMBER ? v->n : -v->x->n);
        } else {
            go_plain(g, b, v, 1, t);
        }
    }
    buf_putc(b, '\n');
}

/* A read block's ID: `pulumi.ID(x)` for a plain string, a resource's id (an IDOutput) as it is. */
static void go_read_id(go_ctx_t *g, buf_t *b, const pcl_expr_t *e) {
    if (!e) {
        buf_puts(b, "nil");
        return;
    }
    if (go_id_atom(g, e) && strcmp(go_id_atom(g, e), "pulumi.ID") == 0) {
        go_traversal(g, b, e);
        return;
    }
    if (emit_has_output(g->base.p, g->base.index, e) || !go_vt_is(go_infer(g, e), GV_STRING)) {
        go_refuse(g, e, "a read block's id that is neither a plain string nor a resource's id");
        buf_puts(b, "nil");
        return;
    }
    buf_puts(b, "pulumi.ID(");
    go_plain(g, b, e, g->gd, NULL);
    buf_putc(b, ')');
}

/* The pulumi block: `if err := ctx.RequirePulumiVersion(range); err != nil { return err }`. */
static void go_pulumi_block(go_ctx_t *g, buf_t *b, const pcl_node_t *n, int depth) {
    const pcl_expr_t *v = n->n_attrs ? n->attrs[0].value : NULL;
    if (!v) return;
    if (!go_vt_is(go_infer(g, v), GV_STRING)) {
        go_refuse(g, v, "a requiredVersionRange that is not a plain string");
        return;
    }
    g->line_depth = depth;
    char *r = go_plain_str(g, v, 2, NULL);
    go_indent(b, depth);
    buf_printf(b, "if err := ctx.RequirePulumiVersion(%s); err != nil {\n", r);
    go_indent(b, depth + 1);
    buf_puts(b, "return err\n");
    go_indent(b, depth);
    buf_puts(b, "}\n");
}

/* `if err != nil { return err }` after a registration. */
static void go_err_check(buf_t *b, int depth) {
    go_indent(b, depth);
    buf_puts(b, "if err != nil {\n");
    go_indent(b, depth + 1);
    buf_puts(b, "return err\n");
    go_indent(b, depth);
    buf_puts(b, "}\n");
}

/* A local component given inputs, as Pulumi writes it: `ctx.RegisterComponentResourceV2(token, name,
 * pulumi.Map{"k": pulumi.Any(v), ...}, &c` (c a bare ResourceState, as without inputs); the inputs
 * are rendered first (what they write before the statement may declare err). */
static void go_component_inputs(go_ctx_t *g, buf_t *b, size_t i, int depth) {
    const pcl_node_t *n = &g->base.p->nodes[i];
    go_elem_t *el = arena_alloc(g->base.a, n->n_attrs * sizeof *el);
    for (size_t j = 0; j < n->n_attrs; j++) {
        const pcl_expr_t *v = n->attrs[j].value;
        el[j].key = go_quoted_key(g, n->attrs[j].name);
        buf_t vb;
        buf_init(&vb);
        buf_puts(&vb, "pulumi.Any(");
        if (go_is_lang(g, v) && !emit_has_output(g->base.p, g->base.index, v)) {
            const go_vt_t *t = go_infer(g, v);
            if (t->kind == GV_UNKNOWN) go_refuse(g, v, "a component input whose Go type the program does not show");
            g->line_depth = depth + 1;
            go_plain(g, &vb, v, 2, t);
        } else {
            go_raw(g, &vb, v, depth + 1);
        }
        buf_putc(&vb, ')');
        el[j].value = buf_arena_str(&vb, g->base.a);
        buf_free(&vb);
    }
    /* a bare ResourceState, as the component without inputs */
    buf_printf(b, "%s := &pulumi.ResourceState{}\n", g->base.var[i]);
    go_indent(b, depth);
    buf_printf(b, "err %s ctx.RegisterComponentResourceV2(", g->err_declared ? "=" : ":=");
    g->err_declared = true;
    names_append_quoted(b, LANG_GO, n->token ? n->token : "");
    buf_puts(b, ", ");
    names_append_quoted(b, LANG_GO, emit_node_logical_name(n));
    buf_puts(b, ", pulumi.Map");
    go_write_elems(b, el, n->n_attrs, depth);
    buf_printf(b, ", %s", g->base.var[i]);
}

/* A resource's `New<Type>` call or a component's registration, with its options and the error check. */
static void go_resource(emit_typed_t *x, buf_t *b, size_t i) {
    go_ctx_t *g = (go_ctx_t *)x;
    const int depth = 2;
    const pcl_node_t *n = &g->base.p->nodes[i];
    const char *logical = emit_node_logical_name(n);
    go_indent(b, depth);
    if (n->kind == PCL_NODE_COMPONENT && n->n_attrs > 0) {
        go_component_inputs(g, b, i, depth);
    } else if (n->kind == PCL_NODE_COMPONENT) {
        /* A local component: a bare ResourceState registered under the component's type, declared
         * first as Pulumi writes it (`c := &pulumi.ResourceState{}`; its options name it so) */
        buf_printf(b, "%s := &pulumi.ResourceState{}\n", g->base.var[i]);
        go_indent(b, depth);
        buf_printf(b, "err %s ctx.RegisterComponentResource(", g->err_declared ? "=" : ":=");
        g->err_declared = true;
        names_append_quoted(b, LANG_GO, n->token ? n->token : "");
        buf_puts(b, ", ");
        names_append_quoted(b, LANG_GO, logical);
        buf_printf(b, ", %s", g->base.var[i]);
    } else {
        /* the `pulumi` package's built-in resources are the SDK's own (pulumi.NewStash) */
        bool builtin = n->package && strcmp(n->package->name, "pulumi") == 0;
        const char *mod = builtin ? "pulumi" : go_import_for(g, n->package, n->token);
        const char *type = go_token_member(g, n->token);
        bool named = g->referenced[i];
        /* a read block: Get<Type>(ctx, name, id, state), its attributes but the id the state */
        const pcl_attr_t *id = NULL;
        size_t n_state = n->n_attrs;
        if (n->read)
            for (size_t j = 0; j < n->n_attrs; j++)
                if (strcmp(n->attrs[j].name, "id") == 0) id = &n->attrs[j], n_state--;
        buf_printf(b, "%s, err %s %s.%s%s(ctx, ", named ? g->base.var[i] : "_", named || !g->err_declared ? ":=" : "=",
                   mod, n->read ? "Get" : "New", type);
        g->err_declared = true;
        names_append_quoted(b, LANG_GO, logical);
        buf_puts(b, ", ");
        if (n->read) {
            go_read_id(g, b, id ? id->value : NULL);
            buf_puts(b, ", ");
        }
        if (n_state == 0) {
            buf_puts(b, "nil");
        } else {
            buf_printf(b, "&%s.%s%s", mod, type, n->read ? "State" : "Args");
            go_elem_t *el = arena_alloc(g->base.a, n->n_attrs * sizeof *el);
            size_t k = 0;
            for (size_t j = 0; j < n->n_attrs; j++) {
                const pcl_attr_t *at = &n->attrs[j];
                if (at == id) continue;
                const schema_property_t *prop = at->prop;
                if (!prop && n->schema) prop = schema_find_property(n->schema->inputs, n->schema->n_inputs, at->name);
                if (!prop && n->schema && n->read)
                    prop = schema_find_property(n->schema->outputs, n->schema->n_outputs, at->name);
                el[k].key = go_field_name(g, at->name);
                if (prop && prop->plain && !n->read)
                    el[k].value = go_plain_input_str(g, at->value, prop->type, prop->required, depth + 1);
                else
                    el[k].value = go_render(g, at->value, prop ? prop->type : NULL, depth + 1, false);
                k++;
            }
            go_write_elems(b, el, n_state, depth);
        }
    }
    go_options(g, b, n, depth);
    buf_puts(b, ")\n");
    go_err_check(b, depth);
}

/* A hook: `name, err := ctx.RegisterResourceHook("name", func(args *pulumi.ResourceHookArgs) error {...},
 * options)` running its command with os/exec (no shell), or an error hook whose function says
 * whether to retry: true when the command succeeds. The command's words are strings; `args` is the
 * hook's arguments (its name and type). */
static void go_hook(emit_typed_t *x, buf_t *b, size_t i) {
    go_ctx_t *g = (go_ctx_t *)x;
    const int depth = 2;
    const pcl_node_t *n = &g->base.p->nodes[i];
    emit_hook_t h;
    if (!emit_hook_attrs(n, &h)) return;
    const pcl_expr_t *cmd = h.command->value;
    if (cmd->kind != PCL_TUPLE || cmd->tuple.n == 0 || g->n_scope >= EMIT_MAX_SCOPE) {
        go_refuse(g, cmd, "a hook's command that is not a list of words");
        return;
    }
    if (h.error && (h.dry_run || h.ignore_errors)) {
        go_refuse(g, (h.dry_run ? h.dry_run : h.ignore_errors)->value, "an error hook's options (Go takes none)");
        return;
    }
    go_import_add(g, "os/exec", "exec");
    bool named = g->referenced[i];
    go_indent(b, depth);
    buf_printf(b, "%s, err %s ctx.Register%sHook(", named ? g->base.var[i] : "_",
               named || !g->err_declared ? ":=" : "=", h.error ? "Error" : "Resource");
    g->err_declared = true;
    names_append_quoted(b, LANG_GO, emit_node_logical_name(n));
    buf_printf(b, ", func(args *pulumi.%s) %s {\n", h.error ? "ErrorHookArgs" : "ResourceHookArgs",
               h.error ? "(bool, error)" : "error");
    size_t saved = g->n_scope;
    g->scope[g->n_scope] = "args";
    g->scope_type[g->n_scope++] = go_vt(g, GV_HOOK_ARGS, NULL);
    buf_t words;
    buf_init(&words);
    for (size_t k = 0; k < cmd->tuple.n; k++) {
        const pcl_expr_t *w = cmd->tuple.items[k];
        const go_vt_t *t = go_infer(g, w);
        bool panics = t->kind == GV_ANY && w->kind == PCL_CALL && strcmp(w->call.name, "notImplemented") == 0;
        if (!go_vt_is(t, GV_STRING) && !panics) {
            go_refuse(g, w, "a hook's command word that is not a string");
            continue;
        }
        if (k) buf_puts(&words, ", ");
        char *v = go_plain_stmt(g, w, depth + 1, 2, t);
        buf_puts(&words, v);
        if (panics) buf_puts(&words, ".(string)");
    }
    g->n_scope = saved;
    go_indent(b, depth + 1);
    buf_printf(b, "return exec.Command(%s).Run()%s\n", words.data ? words.data : "", h.error ? " == nil, nil" : "");
    buf_free(&words);
    go_indent(b, depth);
    buf_puts(b, "}");
    if (!h.error) {
        if (!h.dry_run && !h.ignore_errors) {
            buf_puts(b, ", nil");
        } else {
            buf_puts(b, ", &pulumi.ResourceHookOptions{");
            if (h.dry_run) {
                buf_puts(b, "OnDryRun: ");
                go_raw(g, b, h.dry_run->value, depth);
            }
            if (h.ignore_errors) {
                buf_puts(b, h.dry_run ? ", IgnoreErrors: " : "IgnoreErrors: ");
                go_raw(g, b, h.ignore_errors->value, depth);
            }
            buf_putc(b, '}');
        }
    }
    buf_puts(b, ")\n");
    go_err_check(b, depth);
}

static void go_config_statement(emit_typed_t *x, buf_t *b, size_t i) {
    go_config_object((go_ctx_t *)x, b, i, 2);
}

static void go_local_statement(emit_typed_t *x, buf_t *b, size_t i) {
    go_local((go_ctx_t *)x, b, i, 2);
}

static void go_export_value(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth) {
    go_ctx_t *g = (go_ctx_t *)x;
    g->gd = 2; /* the second argument of a call */
    go_expr(g, b, e, t, depth);
}

static const emit_typed_program_t GO_PROGRAM = {
    .lang = LANG_GO,
    .indent = "\t\t",
    .depth = 2,
    .declare = "%s := ",
    .declare_blank = "_ = ",
    .end = "\n",
    .value = go_export_value,
    .new_config = "cfg := config.New(ctx, \"\")\n",
    .config = "cfg",
    .cfg = &GO_CFG,
    .config_object = go_config_statement,
    .local = go_local_statement,
    .export = "ctx.Export(",
    .export_end = ")\n",
    .resource = go_resource,
    .hook = go_hook,
};

/* Whether e reads a property an invoke's result always has (`data.value`, data a local holding the
 * invoke): Go's accessor then gives the property's own Output type, not a pointer's. */
static bool go_required_result(go_ctx_t *g, const pcl_expr_t *e) {
    const schema_property_t *pr = emit_invoke_local_property(g->base.p, g->base.index, e);
    return pr && pr->required;
}

/* A scalar config value with a default (a literal of its type; emit_check_program refuses the rest):
 * the default, replaced by the configured value when one is set. Pulumi's form tests the value
 * `cfg.GetX` gives against the zero value, which cannot tell a missing key from one set to the zero
 * value: it is written only when the default is that zero value (the two then agree); any other
 * default is replaced when `cfg.TryX` finds the key, so a value set to 0, "" or false is kept. */
static void go_config_default(go_ctx_t *g, buf_t *b, size_t i, int depth) {
    const pcl_node_t *n = &g->base.p->nodes[i];
    if (!g->referenced[i]) return; /* nothing reads it; a default never fails */
    static const char *const kind[] = {"", "Int", "Float64", "Bool"};
    static const char *const zero[] = {" != \"\"", " != 0", " != 0", ""};
    int k = emit_config_type(g->base.a, n->token)->kind;
    if (emit_config_output_default(g->base.p, g->base.index, n)) {
        /* a default read from an output (a string or bool, emit_check_program): the value is that
         * Output, replaced by the configured value's Output when the key is set */
        if (!go_required_result(g, n->attrs[0].value)) {
            go_refuse(g, n->attrs[0].value,
                      "its default is not a property the invoke's result always has (an optional one is a "
                      "pointer Output, not the config value's type)");
            return;
        }
        go_indent(b, depth);
        buf_printf(b, "%s := ", g->base.var[i]);
        go_expr(g, b, n->attrs[0].value, NULL, depth);
        buf_putc(b, '\n');
        go_indent(b, depth);
        buf_printf(b, "if param, err := cfg.Try%s(", kind[k]);
        names_append_quoted(b, LANG_GO, n->config_key ? n->config_key : n->name);
        buf_puts(b, "); err == nil {\n");
        go_indent(b, depth + 1);
        const char *type = k == EMIT_CFG_BOOL ? "Bool" : "String";
        buf_printf(b, "%s = pulumi.%s(param).To%sOutput()\n", g->base.var[i], type, type);
        go_indent(b, depth);
        buf_puts(b, "}\n");
        return;
    }
    const pcl_expr_t *v = n->attrs[0].value;
    if (k > EMIT_CFG_BOOL) return;
    bool is_zero = v->kind == PCL_STRING ? !*v->s : v->kind == PCL_BOOL ? !v->b : v->n == 0;
    const char *var = g->base.var[i];
    go_indent(b, depth);
    buf_printf(b, "%s := ", var);
    if (k == EMIT_CFG_NUMBER) buf_puts(b, "float64(");
    go_raw(g, b, v, depth);
    buf_puts(b, k == EMIT_CFG_NUMBER ? ")\n" : "\n");
    go_indent(b, depth);
    if (is_zero)
        buf_printf(b, "if param := cfg.Get%s(", kind[k]);
    else
        buf_printf(b, "if param, err := cfg.Try%s(", kind[k]);
    names_append_quoted(b, LANG_GO, n->config_key ? n->config_key : n->name);
    buf_printf(b, "); %s {\n", is_zero ? arena_sprintf(g->base.a, "param%s", zero[k]) : "err == nil");
    go_indent(b, depth + 1);
    buf_printf(b, "%s = param\n", var);
    go_indent(b, depth);
    buf_puts(b, "}\n");
}

/* Go's writers (emit_nodes): EMIT_TYPED_WRITERS but for a config value with a default and the pulumi
 * block, each node's statement written after the temporaries and loops its expressions need (the
 * node's `pre`, g->pre while its statement is written). */
typedef struct go_walk {
    emit_typed_walk_t t; /* t.b: the node's statement */
    buf_t *body;         /* the function's body, each node's pre and statement appended in turn */
    buf_t pre, stmt;     /* the node's temporaries and its statement */
} go_walk_t;

enum { GO_BODY_DEPTH = 2 };

static void go_node_around(void *gen, size_t i, bool after) {
    go_walk_t *w = gen;
    go_ctx_t *g = (go_ctx_t *)w->t.x;
    (void)i;
    if (!after) {
        buf_init(&w->pre);
        buf_init(&w->stmt);
        w->t.b = &w->stmt;
        g->pre = &w->pre;
        g->pre_indent = GO_BODY_DEPTH;
        g->gd = 1;
        g->line_depth = GO_BODY_DEPTH;
        return;
    }
    g->pre = NULL;
    if (w->pre.len) buf_append(w->body, w->pre.data, w->pre.len);
    if (w->stmt.len) buf_append(w->body, w->stmt.data, w->stmt.len);
    buf_free(&w->pre);
    buf_free(&w->stmt);
}

static void go_node_config(void *gen, size_t i, bool first) {
    go_walk_t *w = gen;
    go_ctx_t *g = (go_ctx_t *)w->t.x;
    if (!g->base.p->nodes[i].n_attrs) {
        EMIT_TYPED_WRITERS.config(gen, i, first);
        return;
    }
    g->base.node = &g->base.p->nodes[i];
    if (first) {
        go_indent(&w->stmt, GO_BODY_DEPTH);
        buf_puts(&w->stmt, GO_PROGRAM.new_config);
    }
    if (emit_config_scalar(emit_config_type(g->base.a, g->base.node->token)))
        go_config_default(g, &w->stmt, i, GO_BODY_DEPTH);
    else
        go_config_object(g, &w->stmt, i, GO_BODY_DEPTH);
}

static void go_node_pulumi(void *gen, size_t i) {
    go_walk_t *w = gen;
    go_ctx_t *g = (go_ctx_t *)w->t.x;
    g->base.node = &g->base.p->nodes[i];
    go_pulumi_block(g, &w->stmt, g->base.node, GO_BODY_DEPTH);
}

/* Every node's statements, each after the temporaries and loops its expressions need. */
static void go_body(emit_typed_t *x, buf_t *b) {
    go_ctx_t *g = (go_ctx_t *)x;
    const int depth = GO_BODY_DEPTH;
    g->err_declared = false;
    g->n_tmp = 0;
    g->n_for = 0;
    g->n_splat = 0;
    g->n_tmpvar = 0;
    g->n_call = 0;
    g->n_json = 0;
    emit_node_writers_t writers = EMIT_TYPED_WRITERS;
    writers.config = go_node_config;
    writers.pulumi = go_node_pulumi;
    writers.around = go_node_around;
    go_walk_t w = {.t = {.x = x, .s = &GO_PROGRAM}, .body = b};
    emit_nodes(x->p, &writers, &w);
    g->base.node = NULL;
    go_indent(b, depth);
    buf_puts(b, "return nil\n");
}

static int go_import_cmp(const void *x, const void *y) {
    return strcmp(((const go_import_t *)x)->path, ((const go_import_t *)y)->path);
}

/* `package main`, the imports (the standard library first, then the rest, a blank line between) and
 * the program's entry. */
static void go_head(emit_typed_t *x, buf_t *out) {
    go_ctx_t *g = (go_ctx_t *)x;
    buf_puts(out, "package main\n\nimport (\n");
    qsort(g->imports, g->n_imports, sizeof *g->imports, go_import_cmp);
    bool wrote_std = false;
    for (int group = 0; group < 2; group++) {
        for (size_t i = 0; i < g->n_imports; i++) {
            /* the standard library: no dot in the first path element */
            const char *slash = strchr(g->imports[i].path, '/');
            size_t first = slash ? (size_t)(slash - g->imports[i].path) : strlen(g->imports[i].path);
            bool std = memchr(g->imports[i].path, '.', first) == NULL;
            if (std != (group == 0)) continue;
            if (group == 0)
                wrote_std = true;
            else if (wrote_std) {
                buf_putc(out, '\n');
                wrote_std = false;
            }
            buf_putc(out, '\t');
            if (strcmp(g->imports[i].alias, go_path_last(g->imports[i].path)) != 0)
                buf_printf(out, "%s ", g->imports[i].alias);
            names_append_quoted(out, LANG_GO, g->imports[i].path);
            buf_putc(out, '\n');
        }
    }
    buf_puts(out, ")\n\n");
    for (int h = 0; h < GO_N_HELPERS; h++)
        if (g->helpers & (1u << h)) {
            emit_helper_puts(out, GO_HELPERS[h].text, LANG_GO);
            buf_putc(out, '\n');
        }
    buf_puts(out, "func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n");
}

char *emit_go(const pcl_program_t *p, diag_list_t *diags) {
    go_ctx_t g = {0};
    if (!emit_typed_init(&g.base, p, diags, LANG_GO)) return NULL;
    g.referenced = arena_alloc(g.base.a, (p->n_nodes + 1) * sizeof *g.referenced);
    g.cfg_output = arena_alloc(g.base.a, (p->n_nodes + 1) * sizeof *g.cfg_output);
    g.local_type = arena_alloc(g.base.a, (p->n_nodes + 1) * sizeof *g.local_type);
    names_memo_init(&g.fields, g.base.a);

    bool has_config = false;
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        for (size_t j = 0; j < n->n_attrs; j++)
            go_mark_refs(&g, n->attrs[j].value);
        for (size_t j = 0; j < n->n_options; j++)
            go_mark_refs(&g, n->options[j].value);
        if (n->kind == PCL_NODE_CONFIG) has_config = true;
        if (n->kind == PCL_NODE_COMPONENT) g.referenced[i] = true; /* declared by its name (go_resource) */
    }
    go_import_add(&g, "github.com/pulumi/pulumi/sdk/v3/go/pulumi", "pulumi");
    if (has_config) go_import_add(&g, "github.com/pulumi/pulumi/sdk/v3/go/pulumi/config", "config");

    /* Each local's type, in dependency order: typing a chain of locals never recurses down it. */
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].kind == PCL_NODE_LOCAL && !g.local_type[i].t) {
            g.local_type[i].t = &GV_T_UNKNOWN;
            g.local_type[i].t = go_infer(&g, p->nodes[i].attrs[0].value);
        }

    /* Pass 1: discover every import; variable names are provisional. */
    for (size_t i = 0; i < p->n_nodes; i++)
        g.base.var[i] = "v";
    buf_t scratch;
    buf_init(&scratch);
    go_body(&g.base, &scratch);
    buf_free(&scratch);

    /* Names: import aliases, the helper functions' names (a variable of that name would hide the
     * function in main's body) and the names the program itself declares are taken. */
    static const char *const taken[] = {"ctx", "err", "cfg", "main", "pulumi", "config"};
    size_t n_taken = sizeof taken / sizeof taken[0];
    const char **reserved = arena_alloc(g.base.a, (g.n_imports + n_taken + GO_N_HELPERS + 1) * sizeof *reserved);
    for (size_t i = 0; i < g.n_imports; i++)
        reserved[i] = g.imports[i].alias;
    memcpy(reserved + g.n_imports, taken, sizeof taken);
    for (size_t h = 0; h < GO_N_HELPERS; h++) {
        const char *name = GO_HELPERS[h].text + strlen("func ");
        reserved[g.n_imports + n_taken + h] = arena_strndup(g.base.a, name, strcspn(name, "[("));
    }
    reserved[g.n_imports + n_taken + GO_N_HELPERS] = NULL;
    names_table_t *names = emit_typed_name_nodes(&g.base, LANG_GO, NULL, reserved, g.referenced, "_");
    g.names = names;
    /* The decoded value takes the config's own name, as Pulumi's generator names it, unless an Output
     * of it is declared too (cfg_output, found by pass 1): then that one has the name and the value
     * `<name>Value`, after every node's own name, so that none of them is renamed for these. */
    g.cfg_value = arena_alloc(g.base.a, (p->n_nodes + 1) * sizeof *g.cfg_value);
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        g.cfg_value[i] = NULL;
        if (n->kind != PCL_NODE_CONFIG || !g.referenced[i] || emit_config_scalar(emit_config_type(g.base.a, n->token)))
            continue;
        g.cfg_value[i] = g.cfg_output[i]
                             ? names_table_unique(names, arena_sprintf(g.base.a, "%sValue", g.base.var[i]), "", 2)
                             : g.base.var[i];
    }
    return emit_typed_file(&g.base, go_body, go_head, "\t})\n}\n");
}

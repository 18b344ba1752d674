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
    bool err_declared;
} go_ctx_t;

/* --- imports ------------------------------------------------------------------------------------ */

static int go_find(go_ctx_t *g, const char *name) {
    return names_table_get(g->base.index, name);
}

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
static const char *go_import_for_uncached(go_ctx_t *g, schema_package_t *pkg, const char *token) {
    char *pkgname = NULL, *rawmod = NULL;
    if (!names_token_split(g->base.a, token, &pkgname, &rawmod, NULL)) return "unknown";
    if (pkg && pkg->name) pkgname = (char *)pkg->name;
    const char *mod = rawmod ? (pkg ? schema_token_module(g->base.a, pkg, token) : rawmod) : "index";
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

/* Memoized by token: the module regex and path building run once per distinct type token. */
static const char *go_import_for(go_ctx_t *g, schema_package_t *pkg, const char *token) {
    const char *r = names_memo_get(&g->base.memo, token);
    if (r) return r;
    r = go_import_for_uncached(g, pkg, token);
    names_memo_put(&g->base.memo, token, r);
    return r;
}

/* --- names -------------------------------------------------------------------------------------- */

/* structFieldName: Title, plus `_` for names that clash with methods of the Args/Output types. */
static const char *go_field_name(go_ctx_t *g, const char *name) {
    char *t = names_title(g->base.a, name);
    if (strcmp(t, "ID") == 0 || strcmp(t, "URN") == 0 || strcmp(t, "GetProvider") == 0 || strcmp(t, "ElementType") == 0)
        return arena_sprintf(g->base.a, "%s_", t);
    return names_make_valid_identifier(g->base.a, LANG_GO, t);
}

static char *go_type_name(arena_t *a, const char *member) {
    return names_make_valid_identifier(a, LANG_GO, names_title(a, member));
}

static const char *go_token_member(go_ctx_t *g, const char *token) {
    return emit_token_type_name(g->base.a, token, go_type_name);
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
            if (size > run_width) run_width = size;
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
            if (n > 1 && !strchr(elems[i].value, '\n')) pad = width[i] - strlen(elems[i].key) + 1;
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

static char *go_render(go_ctx_t *g, const pcl_expr_t *e, const schema_type_t *t, int depth, bool raw) {
    buf_t b;
    buf_init(&b);
    if (raw)
        go_raw(g, &b, e, depth);
    else
        go_expr(g, &b, e, t, depth);
    char *s = buf_arena_str(&b, g->base.a);
    buf_free(&b);
    return s;
}

/* The entries of a map literal: each key quoted, each value rendered at depth+1 (raw: a plain Go
 * value, else an input of element type `et`). */
static go_elem_t *go_map_elems(go_ctx_t *g, const pcl_expr_t *o, const schema_type_t *et, int depth, bool raw) {
    go_elem_t *el = arena_alloc(g->base.a, (o->object.n + 1) * sizeof *el);
    for (size_t i = 0; i < o->object.n; i++) {
        buf_t k;
        buf_init(&k);
        names_append_quoted(&k, LANG_GO, o->object.items[i].key);
        el[i].key = buf_arena_str(&k, g->base.a);
        buf_free(&k);
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

/* The element-type stem of a Pulumi Go input type: String, Int, Float64, Bool, `` (Any: so that
 * Array/Map suffixes give pulumi.Array/pulumi.Map), mod.Type for objects and enums. Collections
 * append Array/Map to their element's stem. Returns the full qualified stem. */
static const char *go_type_stem(go_ctx_t *g, const schema_type_t *t) {
    if (!t) return "pulumi.";
    switch (t->kind) {
    case SCHEMA_STRING: return "pulumi.String";
    case SCHEMA_INT: return "pulumi.Int";
    case SCHEMA_NUMBER: return "pulumi.Float64";
    case SCHEMA_BOOL: return "pulumi.Bool";
    case SCHEMA_ASSET: return "pulumi.AssetOrArchive";
    case SCHEMA_ARCHIVE: return "pulumi.Archive";
    case SCHEMA_ARRAY: return arena_sprintf(g->base.a, "%sArray", go_type_stem(g, t->element));
    case SCHEMA_MAP: return arena_sprintf(g->base.a, "%sMap", go_type_stem(g, t->element));
    case SCHEMA_OBJECT:
    case SCHEMA_ENUM:
        if (t->token && g->base.node && strcmp(go_token_member(g, t->token), "ElementType") == 0 && g->base.report)
            diag_add(g->base.diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                     "resource '%s': the type %s is renamed in Go SDKs (its name collides with the ElementType "
                     "method); the Go emitter cannot name it yet",
                     g->base.node->name, t->token);
        if (t->token && g->base.node)
            return arena_sprintf(g->base.a, "%s.%s", go_import_for(g, g->base.node->package, t->token),
                                 go_token_member(g, t->token));
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

static void go_traversal(go_ctx_t *g, buf_t *b, const pcl_expr_t *e) {
    int idx = go_find(g, e->trav.root);
    /* an external root is a variable of the file the code goes into: written as it is */
    const char *root = idx >= 0 ? g->base.var[idx]
                       : pcl_program_is_external(g->base.p, e->trav.root)
                           ? e->trav.root
                           : names_make_valid_identifier(g->base.a, LANG_GO, e->trav.root);
    if (idx >= 0 && g->base.p->nodes[idx].kind == PCL_NODE_COMPONENT) buf_putc(b, '&');
    buf_puts(b, root);
    for (size_t i = 0; i < e->trav.n; i++) {
        const pcl_trav_part_t *part = &e->trav.parts[i];
        if (!part->attr) {
            if (part->index_is_string) {
                buf_puts(b, ".MapIndex(pulumi.String(");
                names_append_quoted(b, LANG_GO, part->index_str);
                buf_puts(b, "))");
            } else {
                buf_printf(b, ".Index(pulumi.Int(%zu))", part->index_num);
            }
        } else if (i == 0 && strcmp(part->attr, "id") == 0) {
            buf_puts(b, ".ID()");
        } else if (i == 0 && strcmp(part->attr, "urn") == 0) {
            buf_puts(b, ".URN()");
        } else {
            /* resource outputs are fields; properties of an output object are methods */
            buf_printf(b, ".%s%s", go_field_name(g, part->attr), i == 0 ? "" : "()");
        }
    }
}

static bool go_asset_call(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth) {
    static const struct {
        const char *pcl, *go;
    } fns[] = {{"fileAsset", "pulumi.NewFileAsset"},
               {"stringAsset", "pulumi.NewStringAsset"},
               {"remoteAsset", "pulumi.NewRemoteAsset"},
               {"fileArchive", "pulumi.NewFileArchive"},
               {"remoteArchive", "pulumi.NewRemoteArchive"}};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strcmp(e->call.name, fns[i].pcl) == 0) {
            buf_printf(b, "%s(", fns[i].go);
            if (e->call.n > 0) go_raw(g, b, e->call.args[0], depth);
            buf_putc(b, ')');
            return true;
        }
    if (strcmp(e->call.name, "assetArchive") == 0) {
        buf_puts(b, "pulumi.NewAssetArchive(map[string]interface{}");
        if (e->call.n > 0 && e->call.args[0]->kind == PCL_OBJECT) {
            const pcl_expr_t *o = e->call.args[0];
            go_write_elems(b, go_map_elems(g, o, NULL, depth, true), o->object.n, depth);
        } else {
            buf_puts(b, "{}");
        }
        buf_putc(b, ')');
        return true;
    }
    return false;
}

/* A value with no schema type to go by, as a plain Go value inside `pulumi.Any(...)`. */
static void go_raw(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, int depth) {
    switch (e->kind) {
    case PCL_NULL: buf_puts(b, "nil"); return;
    case PCL_BOOL: buf_puts(b, e->b ? "true" : "false"); return;
    case PCL_NUMBER: names_append_number(b, e->n); return;
    case PCL_STRING: go_string(b, e->s); return;
    case PCL_TRAVERSAL: go_traversal(g, b, e); return;
    case PCL_CALL:
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
        for (size_t i = 0; i < e->tuple.n; i++)
            el[i].value = go_render(g, e->tuple.items[i], NULL, depth + 1, true);
        buf_puts(b, "[]interface{}");
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
            /* a number or bool into a string property: its text, as the provider would read it */
            buf_putc(b, '"');
            if (e->kind == PCL_BOOL)
                buf_puts(b, e->b ? "true" : "false");
            else
                names_append_number(b, e->n);
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

/* Plain (non-Input) properties take bare Go values (`true`, `plain.DataArgs{...}`); the emitter
 * writes Inputs only, so it refuses them rather than write code that does not compile. */
static void go_refuse_plain(go_ctx_t *g, const schema_property_t *prop) {
    if (g->base.report)
        diag_add(g->base.diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "resource '%s': the property '%s' is plain (not an Input) in the schema; the Go emitter cannot "
                 "write plain values yet",
                 g->base.node ? g->base.node->name : "?", prop->name);
}

/* A value in an input position of schema type `t` (NULL: unknown, typed by the literal). */
static void go_expr(go_ctx_t *g, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth) {
    if (!t) t = e->type;
    /* the binder reduced a union by its discriminator: that member, not the first that fits */
    if (t && t->kind == SCHEMA_UNION && e->type && e->type->kind != SCHEMA_UNION) t = e->type;
    if (t && t->external_ref && e->kind != PCL_TRAVERSAL && e->kind != PCL_NULL) {
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
        /* a plain config read is a Go value (string, int, float64, bool), not an Input */
        int idx = e->trav.n == 0 ? go_find(g, e->trav.root) : -1;
        const pcl_node_t *cn = idx >= 0 ? &g->base.p->nodes[idx] : NULL;
        if (idx >= 0 && g->base.p->nodes[idx].kind == PCL_NODE_CONFIG && !g->base.p->nodes[idx].config_secret &&
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
        return;
    }
    case PCL_CALL:
        if (strcmp(e->call.name, "secret") == 0 && e->call.n == 1) {
            buf_puts(b, "pulumi.ToSecret(");
            go_expr(g, b, e->call.args[0], t, depth);
            buf_printf(b, ").(%s)", go_output_type(g, t, e->call.args[0]));
            return;
        }
        if (go_asset_call(g, b, e, depth)) return;
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
            buf_puts(b, go_type_stem(g, t));
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
                if (prop && prop->plain) go_refuse_plain(g, prop);
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
        if (t && t->kind == SCHEMA_MAP) {
            buf_puts(b, go_type_stem(g, t));
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

/* Appends a PCL property path (a traversal or a string) as a Go string literal. */
static void go_path_literal(go_ctx_t *g, buf_t *b, const pcl_expr_t *e) {
    (void)g;
    if (!names_append_path_literal(b, LANG_GO, e)) buf_puts(b, "\"\"");
}

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
            go_path_literal(g, &s, v->tuple.items[i]);
            el[i].value = buf_arena_str(&s, g->base.a);
            buf_free(&s);
        }
        go_write_elems(&b, el, v->tuple.n, depth);
        buf_putc(&b, ')');
    } else if (strcmp(n, "import") == 0) {
        buf_puts(&b, "pulumi.Import(pulumi.ID(");
        go_raw(g, &b, v, depth);
        buf_puts(&b, "))");
    } else {
        buf_free(&b);
        if (g->base.report)
            diag_add(g->base.diags, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL,
                     "resource '%s': the resource option '%s' is not supported by the Go emitter and was left out",
                     g->base.node->name, n);
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

static void go_mark_refs(go_ctx_t *g, const pcl_expr_t *e) {
    if (!e) return;
    switch (e->kind) {
    case PCL_TRAVERSAL: {
        int idx = go_find(g, e->trav.root);
        if (idx >= 0) g->referenced[idx] = true;
        return;
    }
    case PCL_TUPLE:
        for (size_t i = 0; i < e->tuple.n; i++)
            go_mark_refs(g, e->tuple.items[i]);
        return;
    case PCL_OBJECT:
        for (size_t i = 0; i < e->object.n; i++)
            go_mark_refs(g, e->object.items[i].value);
        return;
    case PCL_CALL:
        for (size_t i = 0; i < e->call.n; i++)
            go_mark_refs(g, e->call.args[i]);
        return;
    default: return;
    }
}

static const char *go_config_getter(const pcl_node_t *n) {
    const char *t = n->token ? n->token : "string";
    bool s = n->config_secret;
    if (strcmp(t, "int") == 0) return s ? "RequireSecretInt" : "RequireInt";
    if (strcmp(t, "number") == 0) return s ? "RequireSecretFloat64" : "RequireFloat64";
    if (strcmp(t, "bool") == 0) return s ? "RequireSecretBool" : "RequireBool";
    return s ? "RequireSecret" : "Require";
}

/* A list, map or any config value is decoded from its JSON into a Go value of this type ... */
static const char *go_cfg_value_type(go_ctx_t *g, const emit_cfg_type_t *t) {
    switch (t->kind) {
    case EMIT_CFG_STRING: return "string";
    case EMIT_CFG_INT: return "int";
    case EMIT_CFG_NUMBER: return "float64";
    case EMIT_CFG_BOOL: return "bool";
    case EMIT_CFG_LIST: return arena_sprintf(g->base.a, "[]%s", go_cfg_value_type(g, t->elem));
    case EMIT_CFG_MAP: return arena_sprintf(g->base.a, "map[string]%s", go_cfg_value_type(g, t->elem));
    case EMIT_CFG_ANY: break;
    }
    return "interface{}";
}

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

/* A list, map or any config value: decoded into a plain Go value, then an Output of its type (a
 * secret Output for a secret), so it passes where the resource takes that type:
 *   var tagsValue map[string]string
 *   cfg.RequireSecretObject("tags", &tagsValue)
 *   tags := pulumi.ToSecret(tagsValue).(pulumi.StringMapOutput) */
static void go_config_object(go_ctx_t *g, buf_t *b, size_t i, int depth) {
    const pcl_node_t *n = &g->base.p->nodes[i];
    const emit_cfg_type_t *t = emit_config_type(g->base.a, n->token);
    bool any = t->kind == EMIT_CFG_ANY || emit_config_depth(t) > 2;
    const char *vt = any ? "interface{}" : go_cfg_value_type(g, t);
    const char *getter = n->config_secret ? "RequireSecretObject" : "RequireObject";
    const char *key = n->config_key ? n->config_key : n->name;
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
    go_indent(b, depth);
    /* pulumi.Any: an interface{} holding a map would otherwise become a MapOutput */
    const char *wrap = any ? "pulumi.Any(" : "";
    buf_printf(b, "%s := pulumi.%s(%s%s%s).(%s)\n", g->base.var[i], n->config_secret ? "ToSecret" : "ToOutput", wrap,
               value, any ? ")" : "", go_cfg_output_type(g, t));
}

static void go_body(go_ctx_t *g, buf_t *b) {
    const int depth = 2;
    bool have_cfg = false;
    g->err_declared = false;
    for (size_t i = 0; i < g->base.p->n_nodes; i++) {
        const pcl_node_t *n = &g->base.p->nodes[i];
        g->base.node = n;
        if (n->kind == PCL_NODE_CONFIG) {
            if (!have_cfg) {
                go_indent(b, depth);
                buf_puts(b, "cfg := config.New(ctx, \"\")\n");
                have_cfg = true;
            }
            if (!emit_config_scalar(emit_config_type(g->base.a, n->token))) {
                go_config_object(g, b, i, depth);
                continue;
            }
            go_indent(b, depth);
            if (g->referenced[i])
                buf_printf(b, "%s := ", g->base.var[i]);
            else
                buf_puts(b, "_ = ");
            buf_printf(b, "cfg.%s(", go_config_getter(n));
            names_append_quoted(b, LANG_GO, n->config_key ? n->config_key : n->name);
            buf_puts(b, ")\n");
            continue;
        }
        if (n->kind == PCL_NODE_OUTPUT) {
            go_indent(b, depth);
            buf_puts(b, "ctx.Export(");
            names_append_quoted(b, LANG_GO, n->logical_name ? n->logical_name : n->name);
            buf_puts(b, ", ");
            go_expr(g, b, n->attrs[0].value, NULL, depth);
            buf_puts(b, ")\n");
            continue;
        }
        if (n->kind != PCL_NODE_RESOURCE && n->kind != PCL_NODE_COMPONENT) continue;
        const char *logical = n->logical_name ? n->logical_name : n->name;
        go_indent(b, depth);
        if (n->kind == PCL_NODE_COMPONENT) {
            /* A local component: a bare ResourceState registered under the component's type. */
            if (g->referenced[i]) {
                buf_printf(b, "var %s pulumi.ResourceState\n", g->base.var[i]);
                go_indent(b, depth);
            }
            buf_printf(b, "err %s ctx.RegisterComponentResource(", g->err_declared ? "=" : ":=");
            g->err_declared = true;
            names_append_quoted(b, LANG_GO, n->token ? n->token : "");
            buf_puts(b, ", ");
            names_append_quoted(b, LANG_GO, logical);
            if (g->referenced[i])
                buf_printf(b, ", &%s", g->base.var[i]);
            else
                buf_puts(b, ", &pulumi.ResourceState{}");
        } else {
            const char *mod = go_import_for(g, n->package, n->token);
            const char *type = go_token_member(g, n->token);
            bool named = g->referenced[i];
            buf_printf(b, "%s, err %s %s.New%s(ctx, ", named ? g->base.var[i] : "_",
                       named || !g->err_declared ? ":=" : "=", mod, type);
            g->err_declared = true;
            names_append_quoted(b, LANG_GO, logical);
            buf_puts(b, ", ");
            if (n->n_attrs == 0) {
                buf_puts(b, "nil");
            } else {
                buf_printf(b, "&%s.%sArgs", mod, type);
                go_elem_t *el = arena_alloc(g->base.a, n->n_attrs * sizeof *el);
                for (size_t j = 0; j < n->n_attrs; j++) {
                    const pcl_attr_t *at = &n->attrs[j];
                    const schema_property_t *prop = at->prop;
                    if (!prop && n->schema)
                        prop = schema_find_property(n->schema->inputs, n->schema->n_inputs, at->name);
                    el[j].key = go_field_name(g, at->name);
                    if (prop && prop->plain) go_refuse_plain(g, prop);
                    el[j].value = go_render(g, at->value, prop ? prop->type : NULL, depth + 1, false);
                }
                go_write_elems(b, el, n->n_attrs, depth);
            }
        }
        go_options(g, b, n, depth);
        buf_puts(b, ")\n");
        go_indent(b, depth);
        buf_puts(b, "if err != nil {\n");
        go_indent(b, depth + 1);
        buf_puts(b, "return err\n");
        go_indent(b, depth);
        buf_puts(b, "}\n");
    }
    g->base.node = NULL;
    go_indent(b, depth);
    buf_puts(b, "return nil\n");
}

static int go_import_cmp(const void *x, const void *y) {
    return strcmp(((const go_import_t *)x)->path, ((const go_import_t *)y)->path);
}

char *emit_go(const pcl_program_t *p, diag_list_t *diags) {
    go_ctx_t g = {0};
    if (!emit_typed_init(&g.base, p, diags, LANG_GO)) return NULL;
    g.referenced = arena_alloc(g.base.a, (p->n_nodes + 1) * sizeof *g.referenced);

    bool has_config = false;
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        for (size_t j = 0; j < n->n_attrs; j++)
            go_mark_refs(&g, n->attrs[j].value);
        for (size_t j = 0; j < n->n_options; j++)
            go_mark_refs(&g, n->options[j].value);
        if (n->kind == PCL_NODE_CONFIG) has_config = true;
    }
    go_import_add(&g, "github.com/pulumi/pulumi/sdk/v3/go/pulumi", "pulumi");
    if (has_config) go_import_add(&g, "github.com/pulumi/pulumi/sdk/v3/go/pulumi/config", "config");

    /* Pass 1: discover every import; variable names are provisional. */
    for (size_t i = 0; i < p->n_nodes; i++)
        g.base.var[i] = "v";
    buf_t scratch;
    buf_init(&scratch);
    go_body(&g, &scratch);
    buf_free(&scratch);

    /* Names: import aliases and the names the program itself declares are taken. */
    names_table_t *names = names_table_new(g.base.a);
    for (size_t i = 0; i < g.n_imports; i++)
        names_table_reserve(names, g.imports[i].alias);
    static const char *const taken[] = {"ctx", "err", "cfg", "main", "pulumi", "config"};
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
        names_table_reserve(names, taken[i]);
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        g.base.var[i] = "_";
        if (n->kind == PCL_NODE_PACKAGE || n->kind == PCL_NODE_OUTPUT || !g.referenced[i]) continue;
        g.base.var[i] = names_table_unique(names, names_make_valid_identifier(g.base.a, LANG_GO, n->name), "", 2);
    }
    /* after every node's own name, so that none of them is renamed for these */
    g.cfg_value = arena_alloc(g.base.a, (p->n_nodes + 1) * sizeof *g.cfg_value);
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        g.cfg_value[i] = NULL;
        if (n->kind == PCL_NODE_CONFIG && g.referenced[i] && !emit_config_scalar(emit_config_type(g.base.a, n->token)))
            g.cfg_value[i] = names_table_unique(names, arena_sprintf(g.base.a, "%sValue", g.base.var[i]), "", 2);
    }

    buf_t body;
    buf_init(&body);
    g.base.report = true;
    go_body(&g, &body);

    buf_t out;
    buf_init(&out);
    buf_puts(&out, "package main\n\nimport (\n");
    qsort(g.imports, g.n_imports, sizeof *g.imports, go_import_cmp);
    /* standard library (no dot in the first path element) first, then the rest */
    bool wrote_std = false;
    for (int group = 0; group < 2; group++) {
        for (size_t i = 0; i < g.n_imports; i++) {
            const char *slash = strchr(g.imports[i].path, '/');
            size_t first = slash ? (size_t)(slash - g.imports[i].path) : strlen(g.imports[i].path);
            bool std = memchr(g.imports[i].path, '.', first) == NULL;
            if (std != (group == 0)) continue;
            if (group == 0)
                wrote_std = true;
            else if (wrote_std) {
                buf_putc(&out, '\n'); /* one blank line between the groups */
                wrote_std = false;
            }
            buf_putc(&out, '\t');
            if (strcmp(g.imports[i].alias, go_path_last(g.imports[i].path)) != 0)
                buf_printf(&out, "%s ", g.imports[i].alias);
            names_append_quoted(&out, LANG_GO, g.imports[i].path);
            buf_putc(&out, '\n');
        }
    }
    buf_puts(&out, ")\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n");
    buf_append(&out, body.data ? body.data : "", body.len);
    buf_puts(&out, "\t})\n}\n");
    buf_free(&body);
    arena_free(g.base.a);
    return buf_take(&out);
}

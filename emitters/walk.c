/* walk.c — the walk the printing emitters share: what is the same in every language, written once
 * (see walk.h); the language comes in through emit_syntax_t. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/walk.h"

void emit_walk_init(emit_walk_t *w, const emit_syntax_t *syntax, const pcl_program_t *p, diag_list_t *diags,
                    buf_t *out) {
    *w = (emit_walk_t){.syntax = syntax, .a = arena_new(), .p = p, .diags = diags, .b = out};
    w->idents = names_table_new(w->a);
    w->nodes = names_table_new(w->a);
    w->ident = arena_alloc(w->a, (p->n_nodes + 1) * sizeof *w->ident);
    names_table_reserve(w->idents, "pulumi");
}

void emit_walk_free(emit_walk_t *w) {
    arena_free(w->a);
}

bool emit_walk_convert(emit_walk_t *w, const pcl_expr_t *e, const char *const conv[EMIT_CONV_UNSUPPORTED],
                       const char *apply) {
    if (e == w->converting) return false;
    emit_conversion_t k = emit_string_conversion(w->p, w->nodes, e);
    if (k == EMIT_CONV_NONE || !conv[k]) return false;
    const pcl_expr_t *outer = w->converting;
    buf_t text, *b = w->b;
    buf_init(&text);
    if (e->kind == PCL_BINARY || e->kind == PCL_COND) buf_putc(&text, '(');
    w->b = &text;
    w->converting = e;
    w->syntax->expr(w, e);
    w->converting = outer;
    w->b = b;
    if (e->kind == PCL_BINARY || e->kind == PCL_COND) buf_putc(&text, ')');
    if (!w->in_apply && emit_walk_subst(w, e) < 0 && emit_has_output(w->p, w->nodes, e))
        buf_printf(b, apply, text.data, arena_sprintf(w->a, conv[k], "x"));
    else
        buf_printf(b, conv[k], text.data);
    buf_free(&text);
    return true;
}

/* `<declare>value<end>` for a node's identifier. */
static void walk_declare(emit_walk_t *w, size_t idx) {
    buf_printf(w->b, w->syntax->declare, w->ident[idx]);
}

/* `<declare><construct>pulumi.ComponentResource("token", "name"<args>)<end>` */
static void walk_component(void *gen, size_t idx) {
    emit_walk_t *w = gen;
    const pcl_node_t *n = &w->p->nodes[idx];
    walk_declare(w, idx);
    buf_printf(w->b, "%spulumi.ComponentResource(", w->syntax->construct);
    names_append_quoted(w->b, w->syntax->lang, n->token ? n->token : "");
    buf_puts(w->b, ", ");
    names_append_quoted(w->b, w->syntax->lang, emit_node_logical_name(n));
    w->syntax->component_args(w, n);
    buf_putc(w->b, ')');
    buf_puts(w->b, w->syntax->end);
}

static void walk_config(void *gen, size_t idx, bool first) {
    emit_walk_t *w = gen;
    const pcl_node_t *n = &w->p->nodes[idx];
    if (first) {
        buf_printf(w->b, w->syntax->declare, w->config_var);
        buf_puts(w->b, w->syntax->new_config);
        buf_puts(w->b, w->syntax->end);
        buf_indent(w->b, w->indent);
    }
    walk_declare(w, idx);
    /* a default read from an output (an invoke's result): the value is an Output either way, as the
     * emitters read it (emit_is_output_atom) */
    bool wrap = emit_config_output_default(w->p, w->nodes, n) && w->syntax->config_output_open;
    if (wrap) buf_puts(w->b, w->syntax->config_output_open);
    buf_printf(w->b, "%s.%s(", w->config_var, w->syntax->config_getter(w, n));
    names_append_quoted(w->b, w->syntax->lang, n->config_key ? n->config_key : n->name);
    buf_putc(w->b, ')');
    if (n->n_attrs && n->attrs[0].value->kind != PCL_NULL && w->syntax->config_default) /* null: no default */
        w->syntax->config_default(w, idx, wrap ? w->syntax->config_output_close : "");
    else
        buf_puts(w->b, w->syntax->end);
}

/* --- the one walk over a program's nodes ------------------------------------------------------- */

void emit_nodes(const pcl_program_t *p, const emit_node_writers_t *w, void *gen) {
    bool config_seen = false;
    for (size_t i = 0; i < p->n_nodes; i++) {
        pcl_node_kind_t kind = p->nodes[i].kind;
        if (kind == PCL_NODE_PACKAGE) continue;
        if (w->around) w->around(gen, i, false);
        switch (kind) {
        case PCL_NODE_PACKAGE: break;
        case PCL_NODE_RESOURCE: w->resource(gen, i); break;
        case PCL_NODE_COMPONENT: w->component(gen, i); break;
        case PCL_NODE_OUTPUT: w->output(gen, i); break;
        case PCL_NODE_HOOK: w->hook(gen, i); break;
        case PCL_NODE_PULUMI: w->pulumi(gen, i); break;
        case PCL_NODE_LOCAL: w->local(gen, i); break;
        case PCL_NODE_CONFIG:
            w->config(gen, i, !config_seen);
            config_seen = true;
            break;
        }
        if (w->around) w->around(gen, i, true);
    }
}

/* TypeScript's and Python's writers: the syntax's printers, a statement but an output's at the walk's
 * indentation (inside TypeScript's async main: 4). */
static void walk_around(void *gen, size_t i, bool after) {
    emit_walk_t *w = gen;
    if (!after && w->p->nodes[i].kind != PCL_NODE_OUTPUT) buf_indent(w->b, w->indent);
}

static void walk_resource(void *gen, size_t i) {
    emit_walk_t *w = gen;
    w->syntax->resource(w, i);
}

static void walk_output(void *gen, size_t i) {
    emit_walk_t *w = gen;
    w->syntax->output(w, i);
}

static void walk_hook(void *gen, size_t i) {
    emit_walk_t *w = gen;
    w->syntax->hook(w, i);
}

static void walk_pulumi(void *gen, size_t i) {
    emit_walk_t *w = gen;
    buf_printf(w->b, "%s(", w->syntax->require_version);
    w->syntax->expr(w, w->p->nodes[i].attrs[0].value);
    buf_putc(w->b, ')');
    buf_puts(w->b, w->syntax->end);
}

static void walk_local(void *gen, size_t i) {
    emit_walk_t *w = gen;
    walk_declare(w, i);
    w->syntax->expr(w, w->p->nodes[i].attrs[0].value);
    buf_puts(w->b, w->syntax->end);
}

static const emit_node_writers_t WALK_WRITERS = {.resource = walk_resource,
                                                 .component = walk_component,
                                                 .output = walk_output,
                                                 .hook = walk_hook,
                                                 .pulumi = walk_pulumi,
                                                 .local = walk_local,
                                                 .config = walk_config,
                                                 .around = walk_around};

void emit_walk_nodes(emit_walk_t *w) {
    emit_nodes(w->p, &WALK_WRITERS, w);
}

void emit_walk_name_config(emit_walk_t *w, const char *sep, int first) {
    for (size_t i = 0; i < w->p->n_nodes; i++)
        if (w->p->nodes[i].kind == PCL_NODE_CONFIG) {
            w->config_var = names_table_unique(w->idents, "config", sep, first);
            return;
        }
}

names_table_t *emit_walk_reserve_needs(emit_walk_t *w, const emit_module_use_t *modules, size_t n_modules,
                                       const emit_helper_t *helpers, size_t n_helpers, const char *hook_module,
                                       bool *hooks) {
    names_table_t *fns = emit_program_functions(w->a, w->p);
    for (const char *const *b = names_builtins(w->syntax->lang); *b; b++)
        names_table_reserve(w->idents, *b);
    for (size_t i = 0; i < n_modules; i++)
        if (names_table_get(fns, modules[i].fn) >= 0) names_table_reserve(w->idents, modules[i].module);
    for (size_t i = 0; i < n_helpers; i++)
        if (names_table_get(fns, helpers[i].fn) >= 0) names_table_reserve(w->idents, helpers[i].name);
    *hooks = false;
    for (size_t i = 0; i < w->p->n_nodes; i++)
        *hooks |= w->p->nodes[i].kind == PCL_NODE_HOOK;
    if (*hooks) names_table_reserve(w->idents, hook_module);
    return fns;
}

void emit_walk_name_nodes(emit_walk_t *w, const char *sep, int first, bool outputs) {
    for (size_t i = 0; i < w->p->n_nodes; i++) {
        const pcl_node_t *n = &w->p->nodes[i];
        if (n->kind == PCL_NODE_PACKAGE || !n->name || (n->kind == PCL_NODE_OUTPUT && !outputs)) continue;
        if (n->kind != PCL_NODE_OUTPUT) names_table_put(w->nodes, n->name, (int)i);
        w->ident[i] = names_table_unique(w->idents, w->syntax->identifier(w->a, n->name), sep, first);
    }
}

void emit_walk_module_imports(emit_walk_t *w, buf_t *out, const names_table_t *fns, const emit_module_use_t *modules,
                              size_t n_modules, const char *fmt) {
    names_table_t *written = names_table_new(w->a);
    for (size_t i = 0; i < n_modules; i++)
        if (names_table_get(fns, modules[i].fn) >= 0 && !names_table_has(written, modules[i].module)) {
            names_table_put(written, modules[i].module, 1);
            buf_printf(out, fmt, modules[i].module, modules[i].module);
        }
}

void emit_walk_helpers(buf_t *out, const names_table_t *fns, const emit_helper_t *helpers, size_t n_helpers) {
    for (size_t i = 0; i < n_helpers; i++)
        if (names_table_get(fns, helpers[i].fn) >= 0) buf_puts(out, helpers[i].text);
}

/* PCL's length() of a string counts extended grapheme clusters (go-cty's, Unicode 15.0's rules, UAX
 * #29). What the runtime's Unicode categories do not give: Grapheme_Cluster_Break Prepend, the
 * Extend code points that are not Mn/Me (Other_Grapheme_Extend, ZWNJ, emoji modifiers, tags), the
 * Mc that are not SpacingMark, and Extended_Pictographic as Unicode 17.0's emoji data (it differs
 * from 15.0's only at code points 15.0 left unassigned). Each: sorted starts and exclusive ends. */
static const uint32_t GRAPHEME_PREPEND[] = {0x600,   0x606,   0x6DD,   0x6DE,   0x70F,   0x710,   0x890,   0x892,
                                            0x8E2,   0x8E3,   0xD4E,   0xD4F,   0x110BD, 0x110BE, 0x110CD, 0x110CE,
                                            0x111C2, 0x111C4, 0x1193F, 0x11940, 0x11941, 0x11942, 0x11A3A, 0x11A3B,
                                            0x11A84, 0x11A8A, 0x11D46, 0x11D47, 0x11F02, 0x11F03};
static const uint32_t GRAPHEME_OTHER_EXTEND[] = {
    0x9BE,   0x9BF,   0x9D7,   0x9D8,   0xB3E,   0xB3F,   0xB57,   0xB58,   0xBBE,   0xBBF,   0xBD7,
    0xBD8,   0xCC2,   0xCC3,   0xCD5,   0xCD7,   0xD3E,   0xD3F,   0xD57,   0xD58,   0xDCF,   0xDD0,
    0xDDF,   0xDE0,   0x1B35,  0x1B36,  0x200C,  0x200D,  0x302E,  0x3030,  0xFF9E,  0xFFA0,  0x1133E,
    0x1133F, 0x11357, 0x11358, 0x114B0, 0x114B1, 0x114BD, 0x114BE, 0x115AF, 0x115B0, 0x11930, 0x11931,
    0x1D165, 0x1D166, 0x1D16E, 0x1D173, 0x1F3FB, 0x1F400, 0xE0020, 0xE0080};
static const uint32_t GRAPHEME_NOT_SPACING[] = {0x102B, 0x102D, 0x1038, 0x1039, 0x1062, 0x1065, 0x1067,  0x106E, 0x1083,
                                                0x1084, 0x1087, 0x108D, 0x108F, 0x1090, 0x109A, 0x109D,  0x1A61, 0x1A62,
                                                0x1A63, 0x1A65, 0xAA7B, 0xAA7C, 0xAA7D, 0xAA7E, 0x11720, 0x11722};
static const uint32_t GRAPHEME_PICTOGRAPHIC[] = {
    0xA9,    0xAA,    0xAE,    0xAF,    0x203C,  0x203D,  0x2049,  0x204A,  0x2122,  0x2123,  0x2139,  0x213A,
    0x2194,  0x219A,  0x21A9,  0x21AB,  0x231A,  0x231C,  0x2328,  0x2329,  0x23CF,  0x23D0,  0x23E9,  0x23F4,
    0x23F8,  0x23FB,  0x24C2,  0x24C3,  0x25AA,  0x25AC,  0x25B6,  0x25B7,  0x25C0,  0x25C1,  0x25FB,  0x25FF,
    0x2600,  0x2605,  0x260E,  0x260F,  0x2611,  0x2612,  0x2614,  0x2616,  0x2618,  0x2619,  0x261D,  0x261E,
    0x2620,  0x2621,  0x2622,  0x2624,  0x2626,  0x2627,  0x262A,  0x262B,  0x262E,  0x2630,  0x2638,  0x263B,
    0x2640,  0x2641,  0x2642,  0x2643,  0x2648,  0x2654,  0x265F,  0x2661,  0x2663,  0x2664,  0x2665,  0x2667,
    0x2668,  0x2669,  0x267B,  0x267C,  0x267E,  0x2680,  0x2692,  0x2698,  0x2699,  0x269A,  0x269B,  0x269D,
    0x26A0,  0x26A2,  0x26A7,  0x26A8,  0x26AA,  0x26AC,  0x26B0,  0x26B2,  0x26BD,  0x26BF,  0x26C4,  0x26C6,
    0x26C8,  0x26C9,  0x26CE,  0x26D0,  0x26D1,  0x26D2,  0x26D3,  0x26D5,  0x26E9,  0x26EB,  0x26F0,  0x26F6,
    0x26F7,  0x26FB,  0x26FD,  0x26FE,  0x2702,  0x2703,  0x2705,  0x2706,  0x2708,  0x270E,  0x270F,  0x2710,
    0x2712,  0x2713,  0x2714,  0x2715,  0x2716,  0x2717,  0x271D,  0x271E,  0x2721,  0x2722,  0x2728,  0x2729,
    0x2733,  0x2735,  0x2744,  0x2745,  0x2747,  0x2748,  0x274C,  0x274D,  0x274E,  0x274F,  0x2753,  0x2756,
    0x2757,  0x2758,  0x2763,  0x2765,  0x2795,  0x2798,  0x27A1,  0x27A2,  0x27B0,  0x27B1,  0x27BF,  0x27C0,
    0x2934,  0x2936,  0x2B05,  0x2B08,  0x2B1B,  0x2B1D,  0x2B50,  0x2B51,  0x2B55,  0x2B56,  0x3030,  0x3031,
    0x303D,  0x303E,  0x3297,  0x3298,  0x3299,  0x329A,  0x1F004, 0x1F005, 0x1F02C, 0x1F030, 0x1F094, 0x1F0A0,
    0x1F0AF, 0x1F0B1, 0x1F0C0, 0x1F0C1, 0x1F0CF, 0x1F0D1, 0x1F0F6, 0x1F100, 0x1F170, 0x1F172, 0x1F17E, 0x1F180,
    0x1F18E, 0x1F18F, 0x1F191, 0x1F19B, 0x1F1AE, 0x1F1E6, 0x1F201, 0x1F210, 0x1F21A, 0x1F21B, 0x1F22F, 0x1F230,
    0x1F232, 0x1F23B, 0x1F23C, 0x1F240, 0x1F249, 0x1F260, 0x1F266, 0x1F322, 0x1F324, 0x1F394, 0x1F396, 0x1F398,
    0x1F399, 0x1F39C, 0x1F39E, 0x1F3F1, 0x1F3F3, 0x1F3F6, 0x1F3F7, 0x1F3FB, 0x1F400, 0x1F4FE, 0x1F4FF, 0x1F53E,
    0x1F549, 0x1F54F, 0x1F550, 0x1F568, 0x1F56F, 0x1F571, 0x1F573, 0x1F57B, 0x1F587, 0x1F588, 0x1F58A, 0x1F58E,
    0x1F590, 0x1F591, 0x1F595, 0x1F597, 0x1F5A4, 0x1F5A6, 0x1F5A8, 0x1F5A9, 0x1F5B1, 0x1F5B3, 0x1F5BC, 0x1F5BD,
    0x1F5C2, 0x1F5C5, 0x1F5D1, 0x1F5D4, 0x1F5DC, 0x1F5DF, 0x1F5E1, 0x1F5E2, 0x1F5E3, 0x1F5E4, 0x1F5E8, 0x1F5E9,
    0x1F5EF, 0x1F5F0, 0x1F5F3, 0x1F5F4, 0x1F5FA, 0x1F650, 0x1F680, 0x1F6C6, 0x1F6CB, 0x1F6D3, 0x1F6D5, 0x1F6E6,
    0x1F6E9, 0x1F6EA, 0x1F6EB, 0x1F6F1, 0x1F6F3, 0x1F700, 0x1F7DA, 0x1F800, 0x1F80C, 0x1F810, 0x1F848, 0x1F850,
    0x1F85A, 0x1F860, 0x1F888, 0x1F890, 0x1F8AE, 0x1F8B0, 0x1F8BC, 0x1F8C0, 0x1F8C2, 0x1F8D0, 0x1F8D9, 0x1F900,
    0x1F90C, 0x1F93B, 0x1F93C, 0x1F946, 0x1F947, 0x1FA00, 0x1FA58, 0x1FA60, 0x1FA6E, 0x1FB00, 0x1FC00, 0x1FFFE};
static const struct {
    const char *snake, *camel;
    const uint32_t *bounds;
    size_t n;
} GRAPHEME_TABLES[] = {
    {"prepend", "prepend", GRAPHEME_PREPEND, sizeof GRAPHEME_PREPEND / sizeof *GRAPHEME_PREPEND},
    {"other_extend", "otherExtend", GRAPHEME_OTHER_EXTEND,
     sizeof GRAPHEME_OTHER_EXTEND / sizeof *GRAPHEME_OTHER_EXTEND},
    {"not_spacing", "notSpacing", GRAPHEME_NOT_SPACING, sizeof GRAPHEME_NOT_SPACING / sizeof *GRAPHEME_NOT_SPACING},
    {"pictographic", "pictographic", GRAPHEME_PICTOGRAPHIC,
     sizeof GRAPHEME_PICTOGRAPHIC / sizeof *GRAPHEME_PICTOGRAPHIC},
};

static void grapheme_tables(buf_t *out, const char *indent, size_t indent_len, lang_t lang) {
    /* the declaration's opening and closing, the items' further indentation */
    const char *open = lang == LANG_GO     ? "%.*s%s := []rune{\n"
                       : lang == LANG_JAVA ? "%.*sint[] %s = {\n"
                                           : "%.*s%s = (\n";
    const char *close = lang == LANG_GO ? "}\n" : lang == LANG_JAVA ? "};\n" : ")\n";
    const char *step = lang == LANG_GO ? "\t" : "    ";
    for (size_t t = 0; t < sizeof GRAPHEME_TABLES / sizeof *GRAPHEME_TABLES; t++) {
        buf_printf(out, open, (int)indent_len, indent,
                   lang == LANG_PYTHON ? GRAPHEME_TABLES[t].snake : GRAPHEME_TABLES[t].camel);
        for (size_t i = 0; i < GRAPHEME_TABLES[t].n; i++) {
            if (i % 12 == 0) buf_printf(out, "%s%.*s%s", i ? "\n" : "", (int)indent_len, indent, step);
            buf_printf(out, "%s0x%" PRIX32 ",", i % 12 ? " " : "", GRAPHEME_TABLES[t].bounds[i]);
        }
        buf_printf(out, "\n%.*s%s", (int)indent_len, indent, close);
    }
}

void emit_helper_puts(buf_t *out, const char *text, lang_t lang) {
    static const char marker[] = "@grapheme-tables\n";
    const char *at = strstr(text, marker);
    if (!at) {
        buf_puts(out, text);
        return;
    }
    const char *line = at;
    while (line > text && line[-1] != '\n')
        line--;
    buf_append(out, text, (size_t)(line - text));
    grapheme_tables(out, line, (size_t)(at - line), lang);
    buf_puts(out, at + strlen(marker));
}

/* --- nodes and packages ------------------------------------------------------------------------ */

const char *emit_node_logical_name(const pcl_node_t *n) {
    return n->logical_name ? n->logical_name : n->name;
}

const char *emit_node_package_name(arena_t *a, const pcl_node_t *n) {
    if (n->package) return n->package->name;
    return schema_token_package(a, n->token);
}

const emit_pkg_t *emit_walk_find_pkg(const emit_walk_t *w, const char *name) {
    for (size_t i = 0; i < w->n_pkgs; i++)
        if (strcmp(w->pkgs[i].name, name) == 0) return &w->pkgs[i];
    return NULL;
}

static int pkg_path_cmp(const void *x, const void *y) {
    return strcmp(((const emit_pkg_t *)x)->path, ((const emit_pkg_t *)y)->path);
}

typedef struct pkg_collect {
    emit_walk_t *w;
    const char *(*import_path)(emit_walk_t *w, const schema_package_t *schema, const char *name);
    size_t cap;
} pkg_collect_t;

static void collect_package(pkg_collect_t *c, const char *name, schema_package_t *schema) {
    emit_walk_t *w = c->w;
    if (emit_walk_find_pkg(w, name)) return;
    if (w->n_pkgs == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 8;
        w->pkgs = arena_grow(w->a, w->pkgs, c->cap * sizeof *w->pkgs, ncap * sizeof *w->pkgs);
        c->cap = ncap;
    }
    emit_pkg_t *pk = &w->pkgs[w->n_pkgs++];
    pk->name = name;
    pk->schema = schema;
    pk->path = c->import_path(w, schema, name);
}

/* The package of every invoke (a method call's package is its resource's, collected already). */
static bool collect_invoke(const pcl_expr_t *e, void *ctx) {
    if (emit_is_invoke(e) && e->package) collect_package(ctx, e->package->name, e->package);
    return true;
}

void emit_walk_collect_packages(emit_walk_t *w,
                                const char *(*import_path)(emit_walk_t *w, const schema_package_t *schema,
                                                           const char *name)) {
    pkg_collect_t c = {w, import_path, 0};
    for (size_t i = 0; i < w->p->n_nodes; i++) {
        const pcl_node_t *n = &w->p->nodes[i];
        if (n->kind != PCL_NODE_RESOURCE || !n->token) continue;
        collect_package(&c, emit_node_package_name(w->a, n), n->package);
    }
    for (size_t i = 0; i < w->p->n_nodes; i++) {
        const pcl_node_t *n = &w->p->nodes[i];
        for (size_t k = 0; k < n->n_attrs + n->n_options; k++)
            pcl_expr_walk(k < n->n_attrs ? n->attrs[k].value : n->options[k - n->n_attrs].value, collect_invoke, &c);
    }
    if (w->n_pkgs > 1) qsort(w->pkgs, w->n_pkgs, sizeof *w->pkgs, pkg_path_cmp);
}

char *emit_pkg_module(arena_t *a, const emit_pkg_t *pk, const char *token) {
    char *mod = schema_token_module(a, pk->schema, token);
    char *slash = pk->schema ? NULL : strrchr(mod, '/');
    if (slash) *slash = 0;
    return mod;
}

const char *emit_pkg_language_string(const emit_pkg_t *pk, const char *lang, const char *key, const char *mod) {
    if (!pk->schema || !pk->schema->language) return NULL;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(pk->schema->language, lang), key), mod);
    return cJSON_IsString(s) ? s->valuestring : NULL;
}

char *emit_walk_module_path(emit_walk_t *w, const char *alias, char *mod) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, alias);
    char *save = NULL;
    for (char *seg = strtok_r(mod, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
        for (char *c = seg; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        buf_putc(&b, '.');
        buf_puts(&b, w->syntax->identifier(w->a, seg));
    }
    char *r = buf_arena_str(&b, w->a);
    buf_free(&b);
    return r;
}

const char *emit_walk_resource_class(emit_walk_t *w, const pcl_node_t *n) {
    const emit_pkg_t *pk = emit_walk_find_pkg(w, emit_node_package_name(w->a, n));
    if (strncmp(n->token, "pulumi:providers:", 17) == 0) return arena_sprintf(w->a, "%s.Provider", pk->alias);
    char *member;
    if (!names_token_split(w->a, n->token, NULL, NULL, &member)) {
        diag_add(w->diags, DIAG_ERROR, DIAG_CODEGEN, NULL,
                 arena_sprintf(w->a, "resource '%s' of type '%s'", emit_node_logical_name(n), n->token),
                 "the type token is not of the form package:module:Type; fix the token in the program");
        return NULL;
    }
    /* the SDK's class is the token's member title-cased (`someResource` → SomeResource) */
    return arena_sprintf(w->a, "%s.%s", w->syntax->module_prefix(w, pk, n->token), names_pascal(w->a, member));
}

bool emit_hook_attrs(const pcl_node_t *n, emit_hook_t *h) {
    *h = (emit_hook_t){.error = strcmp(n->token, "error") == 0};
    for (size_t i = 0; i < n->n_attrs; i++) {
        const char *a = n->attrs[i].name;
        if (strcmp(a, "command") == 0) h->command = &n->attrs[i];
        if (strcmp(a, "onDryRun") == 0) h->dry_run = &n->attrs[i];
        if (strcmp(a, "ignoreErrors") == 0) h->ignore_errors = &n->attrs[i];
    }
    return h->command != NULL;
}

/* --- expressions ------------------------------------------------------------------------------- */

void emit_walk_newline(emit_walk_t *w) {
    buf_putc(w->b, '\n');
    buf_indent(w->b, w->indent);
}

const schema_type_t *emit_external_enum(arena_t *a, const pcl_program_t *p, const char *ref, schema_package_t **pkg) {
    const char *tok = strstr(ref, "#/types/");
    if (!tok) return NULL;
    tok += strlen("#/types/");
    const char *colon = strchr(tok, ':');
    if (!colon) return NULL;
    for (size_t i = 0; i < p->n_nodes; i++) {
        schema_package_t *pk = p->nodes[i].package;
        if (!pk || !pk->name || strlen(pk->name) != (size_t)(colon - tok) || strncmp(pk->name, tok, colon - tok) != 0)
            continue;
        /* the version the reference names, when it names one, is the one loaded */
        if (pk->version && strstr(ref, "/v") && !strstr(ref, arena_sprintf(a, "/v%s/", pk->version))) continue;
        const schema_type_t *t = schema_find_type(pk, tok);
        if (t && t->kind == SCHEMA_ENUM) {
            *pkg = pk;
            return t;
        }
    }
    return NULL;
}

bool emit_walk_enum(emit_walk_t *w, const pcl_expr_t *e) {
    const schema_type_t *t = e->union_enum ? e->union_enum : names_enum_type_at(e->type);
    schema_package_t *xp;
    if (e->type && e->type->external_ref) t = emit_external_enum(w->a, w->p, e->type->external_ref, &xp);
    if (!t || !t->token || e->kind == PCL_BOOL) return false;
    const schema_enum_value_t *ev = names_enum_value_of(t, e);
    char *pkg, *member;
    if (!ev || !names_token_split(w->a, t->token, &pkg, NULL, &member)) return false;
    char *m = names_enum_member(w->a, w->syntax->lang, ev, member);
    const char *cls = m ? emit_walk_enum_class(w, t) : NULL;
    if (!cls) return false;
    buf_printf(w->b, "%s.%s", cls, m);
    return true;
}

const char *emit_walk_enum_class(emit_walk_t *w, const schema_type_t *t) {
    char *pkg, *member;
    if (!t || t->kind != SCHEMA_ENUM || !t->token || !names_token_split(w->a, t->token, &pkg, NULL, &member))
        return NULL;
    const emit_pkg_t *pk = emit_walk_find_pkg(w, pkg);
    return pk ? arena_sprintf(w->a, "%s.%s", w->syntax->module_prefix(w, pk, t->token), member) : NULL;
}

void emit_walk_operand(emit_walk_t *w, const pcl_expr_t *parent, const pcl_expr_t *child, bool right) {
    bool paren = emit_operand_needs_parens(parent, child, right) ||
                 (w->syntax->needs_parens && w->syntax->needs_parens(parent, child));
    if (paren) buf_putc(w->b, '(');
    w->syntax->expr(w, child);
    if (paren) buf_putc(w->b, ')');
}

void emit_walk_binary(emit_walk_t *w, const pcl_expr_t *e, const char *op, const char *to_number, const char *null) {
    for (int k = 0; k < 2; k++) {
        const pcl_expr_t *o = k ? e->y : e->x;
        if (k) buf_printf(w->b, " %s ", op);
        if (o->kind == PCL_NULL && null) {
            buf_puts(w->b, null);
        } else if (emit_binop_prec(e->op) >= 5 && !(o->kind == PCL_TRAVERSAL && emit_walk_in_scope(w, o->trav.root)) &&
                   emit_untyped_value(w->p, w->nodes, o)) {
            buf_puts(w->b, to_number); /* arithmetic over a value of no type: a number first */
            w->syntax->expr(w, o);
            buf_putc(w->b, ')');
        } else {
            emit_walk_operand(w, e, o, k == 1);
        }
    }
}

void emit_walk_conditional(emit_walk_t *w, const pcl_expr_t *e, bool value_first, const char *then,
                           const char *otherwise) {
    emit_walk_operand(w, e, value_first ? e->y : e->x, false);
    buf_puts(w->b, then);
    emit_walk_operand(w, e, value_first ? e->x : e->y, false);
    buf_puts(w->b, otherwise);
    emit_walk_operand(w, e, e->z, false);
}

void emit_walk_index(emit_walk_t *w, const pcl_expr_t *e) {
    emit_walk_operand(w, e, e->x, false);
    buf_putc(w->b, '[');
    w->syntax->expr(w, e->y);
    buf_putc(w->b, ']');
}

void emit_walk_getattr(emit_walk_t *w, const pcl_expr_t *e, bool named) {
    emit_walk_operand(w, e, e->x, false);
    buf_putc(w->b, '.');
    buf_puts(w->b, named ? w->syntax->identifier(w->a, e->s) : e->s);
}

bool emit_walk_in_scope(const emit_walk_t *w, const char *name) {
    for (size_t i = w->n_scope; i > 0; i--)
        if (strcmp(w->scope[i - 1], name) == 0) return true;
    return false;
}

bool emit_walk_scope_push(emit_walk_t *w, const pcl_expr_t *e) {
    if (w->n_scope + 2 > EMIT_MAX_SCOPE) {
        diag_add(w->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "%d:%d: for expressions nested more than 8 deep are not supported", e->line, e->col);
        return false;
    }
    if (e->kvar) w->scope[w->n_scope++] = e->kvar;
    w->scope[w->n_scope++] = e->vvar;
    return true;
}

bool emit_walk_for_shape(emit_walk_t *w, const pcl_expr_t *e, emit_shape_t *shape) {
    *shape = emit_expr_shape(w->p, w->nodes, e->x);
    if (*shape == EMIT_SHAPE_LIST || *shape == EMIT_SHAPE_MAP || *shape == EMIT_SHAPE_OBJECT) return true;
    diag_add(w->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
             "%d:%d: the %s emitter cannot tell whether this for expression ranges over a list or a map; "
             "assign the collection to a local list or object first",
             e->line, e->col, lang_title(w->syntax->lang));
    return false;
}

void emit_walk_root(emit_walk_t *w, const pcl_expr_t *e, int idx) {
    if (idx >= 0) {
        buf_puts(w->b, w->ident[idx]);
    } else if (pcl_program_is_external(w->p, e->trav.root)) {
        buf_puts(w->b, e->trav.root); /* a variable of the file the code goes into, already in the language */
    } else {
        diag_add(w->diags, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL,
                 "reference to '%s', which the program does not declare; the %s code uses the name as is", e->trav.root,
                 lang_title(w->syntax->lang));
        buf_puts(w->b, w->syntax->identifier(w->a, e->trav.root));
    }
}

/* `fmt` with its one `%s` replaced by s: the language's formats of a name, without vsnprintf (these
 * are written once per reference and per statement). */
static void put_format1(buf_t *b, const char *fmt, const char *s) {
    const char *hole = strstr(fmt, "%s");
    buf_append(b, fmt, (size_t)(hole - fmt));
    buf_puts(b, s);
    buf_puts(b, hole + 2);
}

void emit_append_part(buf_t *b, const pcl_trav_part_t *pt, const char *name, const emit_part_syntax_t *s) {
    if (pt->attr && name) {
        put_format1(b, s->attr, name);
    } else if (pt->attr || pt->index_is_string) {
        buf_puts(b, s->key_open);
        names_append_quoted(b, s->lang, pt->attr ? pt->attr : pt->index_str);
        buf_puts(b, s->key_close);
    } else {
        buf_printf(b, s->index, pt->index_num);
    }
}

void emit_append_trav_parts(buf_t *b, lang_t lang, const pcl_trav_part_t *parts, size_t from, size_t n, arena_t *a,
                            char *(*name)(arena_t *a, const char *s)) {
    const emit_part_syntax_t s = {.lang = lang, .attr = ".%s", .key_open = "[", .key_close = "]", .index = "[%zu]"};
    for (size_t i = from; i < n; i++) {
        const pcl_trav_part_t *pt = &parts[i];
        emit_append_part(b, pt, pt->attr && name ? name(a, pt->attr) : pt->attr, &s);
    }
}

void emit_walk_trav_parts(emit_walk_t *w, const pcl_trav_part_t *parts, size_t from, size_t n, bool named) {
    emit_append_trav_parts(w->b, w->syntax->lang, parts, from, n, w->a, named ? w->syntax->identifier : NULL);
}

void emit_walk_call(emit_walk_t *w, const pcl_expr_t *e, const emit_call_name_t *calls, size_t n_calls) {
    for (size_t i = 0; i < n_calls; i++)
        if (strcmp(calls[i].pcl, e->call.name) == 0) {
            emit_walk_format(w, calls[i].lang, e);
            return;
        }
    diag_add(w->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
             "%d:%d: the %s emitter does not know the PCL function '%s'", e->line, e->col, lang_title(w->syntax->lang),
             e->call.name);
    buf_puts(w->b, e->call.name);
    buf_puts(w->b, "()");
}

void emit_walk_call_expr(emit_walk_t *w, const pcl_expr_t *e) {
    if (emit_is_method_call(e)) {
        w->syntax->expr(w, e->call.args[0]);
        buf_printf(w->b, ".%s(", w->syntax->identifier(w->a, e->call.args[1]->s));
        w->syntax->method_args(w, e->call.args[2]);
        buf_putc(w->b, ')');
    } else if (emit_is_invoke(e)) {
        w->syntax->invoke(w, e);
    } else if (!w->in_apply && !emit_call_takes_inputs(e) && emit_has_output(w->p, w->nodes, e)) {
        w->syntax->apply(w, e); /* a function of resolved values */
    } else {
        w->syntax->call(w, e);
    }
}

bool emit_walk_min_max_spread(emit_walk_t *w, const pcl_expr_t *e, const char *fmt, const char *spread) {
    const char *fn = e->call.name;
    if (!e->call.expand_final || (strcmp(fn, "min") != 0 && strcmp(fn, "max") != 0)) return false;
    buf_printf(w->b, fmt, fn);
    for (size_t i = 0; i < e->call.n; i++) {
        buf_puts(w->b, i ? ", " : "");
        if (i + 1 == e->call.n) buf_puts(w->b, spread);
        w->syntax->expr(w, e->call.args[i]);
    }
    buf_putc(w->b, ')');
    return true;
}

bool emit_walk_invoke_head(emit_walk_t *w, const pcl_expr_t *e, const char *suffix, const char *unsplit,
                           void (*args)(emit_walk_t *w, const pcl_expr_t *object)) {
    const emit_pkg_t *pk = emit_walk_find_pkg(w, e->package->name);
    char *member = NULL;
    names_token_split(w->a, e->function->token, NULL, NULL, &member);
    buf_printf(w->b, "%s.%s%s(", w->syntax->module_prefix(w, pk, e->function->token),
               w->syntax->identifier(w->a, member ? member : unsplit), e->function->return_type ? suffix : "");
    bool positional = e->function->multi_argument && e->call.n >= 2 && e->call.args[1]->kind != PCL_OBJECT;
    if (positional) {
        for (size_t i = 1; i < e->call.n; i++) {
            if (i > 1) buf_puts(w->b, ", ");
            w->syntax->expr(w, e->call.args[i]);
        }
    } else if (e->call.n >= 2) {
        if (args)
            args(w, e->call.args[1]);
        else
            emit_walk_object(w, e->call.args[1], true);
    }
    return positional;
}

bool emit_walk_recover(emit_walk_t *w, const pcl_expr_t *e, const char *open, const char *close) {
    if (strcmp(e->call.name, "recover") != 0 || e->call.n != 2 || w->n_scope >= EMIT_MAX_SCOPE) return false;
    emit_walk_format(w, open, e);
    w->scope[w->n_scope++] = "error";
    w->syntax->expr(w, e->call.args[1]);
    w->n_scope--;
    buf_puts(w->b, close);
    return true;
}

void emit_walk_format(emit_walk_t *w, const char *fmt, const pcl_expr_t *e) {
    for (const char *c = fmt; *c; c++) {
        if (*c != '$') {
            buf_putc(w->b, *c);
            continue;
        }
        if (c[1] == '*') {
            for (size_t i = 0; i < e->call.n; i++) {
                if (i) buf_puts(w->b, ", ");
                w->syntax->expr(w, e->call.args[i]);
            }
            c++;
            continue;
        }
        bool receiver = c[1] == 'r';
        const char *d = c + 1 + receiver;
        size_t i = (size_t)(*d - '0');
        c = d;
        if (i >= e->call.n) continue; /* emit_check_program refused a call with fewer arguments */
        const pcl_expr_t *arg = e->call.args[i];
        bool paren = receiver && (arg->kind == PCL_UNARY || arg->kind == PCL_BINARY || arg->kind == PCL_COND ||
                                  (w->syntax->needs_parens && w->syntax->needs_parens(e, arg)));
        if (paren) buf_putc(w->b, '(');
        w->syntax->expr(w, arg);
        if (paren) buf_putc(w->b, ')');
    }
}

static bool collect_fn(const pcl_expr_t *e, void *ctx) {
    if (e->kind == PCL_CALL) names_table_put(ctx, e->call.name, 1);
    if (e->kind == PCL_BINARY && strcmp(e->op, "%") == 0) names_table_put(ctx, "%", 1); /* Python's math.fmod */
    return true;
}

names_table_t *emit_program_functions(arena_t *a, const pcl_program_t *p) {
    names_table_t *t = names_table_new(a);
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        for (size_t k = 0; k < n->n_attrs; k++)
            pcl_expr_walk(n->attrs[k].value, collect_fn, t);
        for (size_t k = 0; k < n->n_options; k++)
            pcl_expr_walk(n->options[k].value, collect_fn, t);
    }
    return t;
}

typedef struct shape_find {
    const pcl_program_t *p;
    const names_table_t *nodes;
    const char *fn;
    emit_shape_t shape;
    bool found;
} shape_find_t;

static bool shape_one(const pcl_expr_t *e, void *ctx) {
    shape_find_t *s = ctx;
    if (e->kind == PCL_CALL && e->call.n > 0 && strcmp(e->call.name, s->fn) == 0 &&
        emit_expr_shape(s->p, s->nodes, e->call.args[0]) == s->shape)
        s->found = true;
    return !s->found;
}

bool emit_program_calls_with_shape(const pcl_program_t *p, const names_table_t *nodes, const char *fn,
                                   emit_shape_t shape) {
    shape_find_t s = {p, nodes, fn, shape, false};
    for (size_t i = 0; i < p->n_nodes && !s.found; i++) {
        const pcl_node_t *n = &p->nodes[i];
        for (size_t k = 0; k < n->n_attrs; k++)
            pcl_expr_walk(n->attrs[k].value, shape_one, &s);
    }
    return s.found;
}

static bool template_value_one(const pcl_expr_t *e, void *ctx) {
    bool *found = ctx;
    for (size_t i = 0; e->kind == PCL_TEMPLATE && i < e->tuple.n; i++)
        *found |= e->tuple.items[i]->kind != PCL_STRING;
    return !*found;
}

bool emit_program_has_template_value(const pcl_program_t *p) {
    bool found = false;
    for (size_t i = 0; i < p->n_nodes && !found; i++)
        for (size_t k = 0; k < p->nodes[i].n_attrs; k++)
            pcl_expr_walk(p->nodes[i].attrs[k].value, template_value_one, &found);
    return found;
}

int emit_walk_subst(const emit_walk_t *w, const pcl_expr_t *e) {
    for (size_t i = 0; i < w->n_subst; i++)
        if (w->subst[i] == e) return (int)i;
    return -1;
}

void emit_walk_apply_body(emit_walk_t *w, const emit_apply_t *ap, const pcl_expr_t *e,
                          void (*computed)(emit_walk_t *w, const pcl_expr_t *e)) {
    w->subst = ap->atoms;
    w->subst_name = ap->names;
    w->subst_skip = ap->skip;
    w->n_subst = ap->n;
    w->in_apply = true;
    computed(w, e);
    w->in_apply = false;
    w->n_subst = 0;
    buf_putc(w->b, ')');
}

void emit_walk_list(emit_walk_t *w, const pcl_expr_t *e) {
    if (e->tuple.n == 0) {
        buf_puts(w->b, "[]");
    } else if (e->tuple.n == 1) {
        buf_putc(w->b, '[');
        w->syntax->expr(w, e->tuple.items[0]);
        buf_putc(w->b, ']');
    } else {
        buf_putc(w->b, '[');
        w->indent += 4;
        for (size_t i = 0; i < e->tuple.n; i++) {
            emit_walk_newline(w);
            w->syntax->expr(w, e->tuple.items[i]);
            buf_putc(w->b, ',');
        }
        w->indent -= 4;
        emit_walk_newline(w);
        buf_putc(w->b, ']');
    }
}

void emit_walk_object(emit_walk_t *w, const pcl_expr_t *e, bool schema_object) {
    if (e->object.n == 0) {
        buf_puts(w->b, "{}");
        return;
    }
    buf_putc(w->b, '{');
    w->indent += 4;
    for (size_t i = 0; i < e->object.n; i++) {
        emit_walk_newline(w);
        w->syntax->object_key(w, &e->object.items[i], schema_object);
        buf_puts(w->b, ": ");
        w->syntax->expr(w, e->object.items[i].value);
        buf_putc(w->b, ',');
    }
    w->indent -= 4;
    emit_walk_newline(w);
    buf_putc(w->b, '}');
}

/* --- resource options -------------------------------------------------------------------------- */

/* ignoreChanges entries are property paths, written as strings (`"tags"`, `"rules[0].port"`). */
static void walk_path_string(emit_walk_t *w, const pcl_expr_t *e) {
    if (e->kind == PCL_STRING || !names_append_path_literal(w->b, w->syntax->lang, e)) w->syntax->expr(w, e);
}

/* One alias: a URN string, or an object in the language's form. */
static void walk_alias(emit_walk_t *w, const pcl_expr_t *e, const emit_alias_syntax_t *alias) {
    if (e->kind != PCL_OBJECT) {
        w->syntax->expr(w, e);
        return;
    }
    buf_puts(w->b, alias->open);
    bool first = true;
    for (size_t i = 0; i < e->object.n; i++) {
        const pcl_object_item_t *it = &e->object.items[i];
        bool no_parent = strcmp(it->key, "noParent") == 0;
        if (no_parent && !it->value->b) continue;
        if (!first) buf_puts(w->b, ", ");
        first = false;
        if (no_parent) {
            buf_puts(w->b, alias->no_parent);
            continue;
        }
        buf_puts(w->b, alias->key ? alias->key(it->key) : it->key);
        buf_puts(w->b, alias->sep);
        w->syntax->expr(w, it->value);
    }
    buf_puts(w->b, alias->close);
}

void emit_walk_option_list(emit_walk_t *w, pcl_option_kind_t kind, const pcl_expr_t *t,
                           const emit_alias_syntax_t *alias) {
    /* property names are strings (`["value"]`), never the bare identifiers PCL writes */
    buf_putc(w->b, '[');
    w->indent += 4;
    for (size_t k = 0; k < t->tuple.n; k++) {
        if (t->tuple.n > 1) emit_walk_newline(w);
        if (kind == PCL_OPT_PATHS)
            walk_path_string(w, t->tuple.items[k]);
        else
            walk_alias(w, t->tuple.items[k], alias);
        if (t->tuple.n > 1) buf_putc(w->b, ',');
    }
    w->indent -= 4;
    if (t->tuple.n > 1) emit_walk_newline(w);
    buf_putc(w->b, ']');
}

bool emit_typed_init(emit_typed_t *t, const pcl_program_t *p, diag_list_t *diags, lang_t lang) {
    *t = (emit_typed_t){.a = arena_new(), .p = p, .diags = diags};
    t->var = arena_alloc(t->a, (p->n_nodes + 1) * sizeof *t->var);
    t->index = names_node_index(t->a, p);
    names_memo_init(&t->memo, t->a);
    if (names_check_tokens(p, lang_title(lang), diags)) return true;
    arena_free(t->a);
    return false;
}

int emit_typed_find(const emit_typed_t *t, const char *name) {
    return names_table_get(t->index, name);
}

const char *emit_typed_module(emit_typed_t *t, schema_package_t *pkg, const char *token, emit_module_fn make,
                              const char *unknown) {
    const char *r = names_memo_get(&t->memo, token);
    if (r) return r;
    char *pkgname = NULL;
    const char *mod = NULL;
    r = emit_token_module(t->a, pkg, token, &pkgname, &mod) ? make(t, pkg, pkgname, mod) : unknown;
    names_memo_put(&t->memo, token, r);
    return r;
}

bool emit_token_module(arena_t *a, schema_package_t *pkg, const char *token, char **pkgname, const char **mod) {
    char *rawmod = NULL;
    if (!names_token_split(a, token, pkgname, &rawmod, NULL)) return false;
    if (pkg && pkg->name) *pkgname = (char *)pkg->name;
    *mod = rawmod ? (pkg ? schema_token_module(a, pkg, token) : rawmod) : "index";
    return true;
}

void emit_typed_traversal(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const emit_part_syntax_t *s) {
    int idx = emit_typed_find(x, e->trav.root);
    if (idx >= 0 && s->component_ref && x->p->nodes[idx].kind == PCL_NODE_COMPONENT) buf_puts(b, s->component_ref);
    buf_puts(b, idx >= 0 ? x->var[idx]
                : pcl_program_is_external(x->p, e->trav.root)
                    ? e->trav.root /* a variable of the target file */
                    : names_make_valid_identifier(x->a, s->lang, e->trav.root));
    for (size_t i = 0; i < e->trav.n; i++) {
        const pcl_trav_part_t *pt = &e->trav.parts[i];
        const char *name =
            pt->attr && !emit_reads_map_key(x->p, x->index, e, i) ? s->name(x, idx, pt->attr, i == 0) : NULL;
        if (name && i == 0)
            put_format1(b, s->first_attr, name);
        else
            emit_append_part(b, pt, name, s);
    }
}

const char *emit_asset_class(const char *fn) {
    static const char *const fns[][2] = {{"fileAsset", "FileAsset"},         {"stringAsset", "StringAsset"},
                                         {"remoteAsset", "RemoteAsset"},     {"fileArchive", "FileArchive"},
                                         {"remoteArchive", "RemoteArchive"}, {"assetArchive", "AssetArchive"}};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strcmp(fn, fns[i][0]) == 0) return fns[i][1];
    return NULL;
}

void emit_path_literal(buf_t *b, lang_t lang, const pcl_expr_t *e) {
    if (!names_append_path_literal(b, lang, e)) buf_puts(b, "\"\"");
}

const char *emit_config_getter(const pcl_node_t *n, const emit_cfg_names_t *names) {
    static const char *const scalars[] = {"string", "int", "number", "bool"};
    const char *t = n->token ? n->token : "string";
    for (size_t k = 0; k < 4; k++)
        if (strcmp(t, scalars[k]) == 0) return names->getter[n->config_secret][k];
    return NULL;
}

/* The type name of t, lists and maps by the formats given (inner: inside a list or map). */
static const char *config_type_name(arena_t *a, const emit_cfg_type_t *t, const emit_cfg_names_t *names, bool inner) {
    const char *list = inner && names->inner_list ? names->inner_list : names->list;
    const char *map = inner && names->inner_map ? names->inner_map : names->map;
    const char *fmt = t->kind == EMIT_CFG_LIST ? list : t->kind == EMIT_CFG_MAP ? map : NULL;
    if (emit_config_scalar(t)) return names->scalar[t->kind];
    if (!fmt) return names->any;
    return arena_sprintf(a, fmt, config_type_name(a, t->elem, names, true));
}

const char *emit_config_type_name(arena_t *a, const emit_cfg_type_t *t, const emit_cfg_names_t *names) {
    return config_type_name(a, t, names, false);
}

/* --- values the typed emitters (Go, C#, Java) write alike -------------------------------------- */

const char *emit_scalar_name(const schema_type_t *t, const char *const names[4]) {
    switch (t ? t->kind : SCHEMA_ANY) {
    case SCHEMA_STRING: return names[0];
    case SCHEMA_INT: return names[1];
    case SCHEMA_NUMBER: return names[2];
    case SCHEMA_BOOL: return names[3];
    default: return NULL;
    }
}

void emit_number_dotted(buf_t *b, double n, const schema_type_t *t) {
    names_append_number(b, n);
    /* a whole number of no schema type beyond an int is a double too (Java has no such int literal) */
    bool untyped = !t || t->kind == SCHEMA_ANY || t->kind == SCHEMA_JSON;
    if (names_number_is_int(n) &&
        ((t && t->kind == SCHEMA_NUMBER) || (untyped && (n > 2147483647.0 || n < -2147483648.0))))
        buf_puts(b, ".0");
}

/* A number at a position of type t: quoted at a string position, as PCL (JavaScript) prints it
 * (1e-7, not 1e-07), else as emit_number_dotted. */
static void number_typed(buf_t *b, double n, const schema_type_t *t) {
    if (t && t->kind == SCHEMA_STRING) {
        buf_putc(b, '"');
        pv_format_number_js(b, n);
        buf_putc(b, '"');
    } else {
        emit_number_dotted(b, n, t);
    }
}

void emit_unknown_call(buf_t *b, diag_list_t *diags, bool report, const pcl_node_t *node, const pcl_expr_t *e,
                       lang_t lang, const char *nothing) {
    if (report)
        diag_add(diags, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL,
                 "resource '%s': the function %s() has no %s translation; it was written as %s",
                 node ? node->name : "?", e->call.name, lang_title(lang), nothing);
    buf_puts(b, nothing);
}

/* Whether config node n is of no type (or an object type) and its default null: held as an optional
 * (emit_typed_syntax_t untyped_optional). */
static bool config_null_any(emit_typed_t *x, const pcl_node_t *n) {
    return n && n->kind == PCL_NODE_CONFIG && n->n_attrs && n->attrs[0].value->kind == PCL_NULL &&
           emit_config_type(x->a, n->token)->kind == EMIT_CFG_ANY;
}

/* Whether e reads such a config value, itself or through a local holding it (emit_local_held). */
static bool typed_null_any(emit_typed_t *x, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL ? emit_typed_find(x, e->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &x->p->nodes[idx] : NULL;
    if (n && n->kind == PCL_NODE_LOCAL && !emit_local_held(x->p, x->index, n, &n)) return false;
    return config_null_any(x, n);
}

static void typed_operand(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *parent,
                          const pcl_expr_t *child, int depth, bool right) {
    bool paren = emit_operand_needs_parens(parent, child, right);
    bool scoped = false; /* a for expression's variable of the name */
    for (size_t i = 0; child->kind == PCL_TRAVERSAL && i < x->n_scope; i++)
        scoped |= strcmp(x->scope_name[i], child->trav.root) == 0;
    if (s->untyped_number && !scoped && parent->op && emit_binop_prec(parent->op) >= 5 &&
        emit_untyped_config_read(x->p, x->index, child)) {
        /* arithmetic over a value of no type: a number first, as PCL's operators take it */
        buf_t v;
        buf_init(&v);
        emit_typed_expr(s, x, &v, child, NULL, depth);
        const char *value = v.data ? v.data : "";
        if (s->untyped_optional && !child->trav.n && typed_null_any(x, child)) /* read into: by typed_held_parts */
            value = arena_sprintf(x->a, s->untyped_optional, value);
        put_format1(b, s->untyped_number, value);
        buf_free(&v);
        return;
    }
    if (paren) buf_putc(b, '(');
    emit_typed_expr(s, x, b, child, NULL, depth);
    if (paren) buf_putc(b, ')');
}

/* Whether e computes an int in C# and Java: an int (emit_typed_print_kind; a whole literal in an
 * int's range, -2147483648 too; length()), or +, -, *, % of two, or - of one. */
static bool typed_int_expr(const emit_typed_t *x, const pcl_expr_t *e) {
    if (e->kind == PCL_BINARY)
        return strchr("+-*%", e->op[0]) && !e->op[1] && typed_int_expr(x, e->x) && typed_int_expr(x, e->y);
    if (e->kind == PCL_UNARY) return e->op[0] == '-' && typed_int_expr(x, e->x);
    if (e->kind == PCL_NUMBER) return names_number_is_int(e->n) && e->n >= -2147483648.0 && e->n <= 2147483647.0;
    if (e->kind == PCL_CALL && strcmp(e->call.name, "length") == 0) return true;
    return emit_typed_print_kind(x, e) == EMIT_PRINT_INT;
}

/* Whether e is ints added, subtracted or multiplied, or an int negated. */
static bool typed_int_op(const emit_typed_t *x, const pcl_expr_t *e) {
    bool op = e->kind == PCL_BINARY ? strchr("+-*", e->op[0]) && !e->op[1] : e->kind == PCL_UNARY && e->op[0] == '-';
    return op && typed_int_expr(x, e);
}

/* An int made a double: `(double) i`, its text in parentheses when it is more than a name or call. */
static void typed_to_double(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    buf_t v;
    buf_init(&v);
    emit_typed_expr(s, x, &v, e, NULL, depth);
    const char *text = v.data ? v.data : "";
    buf_printf(b, strchr(text, ' ') ? "(double) (%s)" : "(double) %s", text);
    buf_free(&v);
}

/* Ints added, subtracted or multiplied: where a double may stand (x->number_ok), computed as
 * doubles, as PCL computes its numbers (an int wraps; 3 * 1000000000 is 3000000000 to PCL): the
 * first operand made a double unless it is such an operation itself (`(double) i * 1000000000`);
 * elsewhere as the syntax keeps them from wrapping silently (int_checked, int_exact). False, writing
 * nothing, for anything else (two literals whose result is an int: the compiler folds them). */
static bool typed_int_arith(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    int op = e->op[1] ? -1 : e->op[0] == '+' ? 0 : e->op[0] == '-' ? 1 : e->op[0] == '*' ? 2 : -1;
    if (op < 0 || (!s->int_checked && !s->int_exact[op]) || !typed_int_expr(x, e)) return false;
    if (e->x->kind == PCL_NUMBER && e->y->kind == PCL_NUMBER) {
        double r = op == 0 ? e->x->n + e->y->n : op == 1 ? e->x->n - e->y->n : e->x->n * e->y->n;
        if (r >= -2147483648.0 && r <= 2147483647.0) return false;
    }
    if (x->number_ok) {
        if (typed_int_op(x, e->x))
            typed_operand(s, x, b, e, e->x, depth, false);
        else
            typed_to_double(s, x, b, e->x, depth);
        buf_printf(b, " %s ", e->op);
        typed_operand(s, x, b, e, e->y, depth, true);
        return true;
    }
    if (!s->int_exact[op] && x->int_checked) return false;
    if (s->int_exact[op]) { /* the operands are arguments: no parentheses (ints: no conversion either) */
        buf_printf(b, "%s(", s->int_exact[op]);
        emit_typed_expr(s, x, b, e->x, NULL, depth);
        buf_puts(b, ", ");
        emit_typed_expr(s, x, b, e->y, NULL, depth);
        buf_putc(b, ')');
        return true;
    }
    buf_printf(b, "%s(", s->int_checked);
    x->int_checked = true;
    typed_operand(s, x, b, e, e->x, depth, false);
    buf_printf(b, " %s ", e->op);
    typed_operand(s, x, b, e, e->y, depth, true);
    x->int_checked = false;
    buf_putc(b, ')');
    return true;
}

/* `-x`, `x op y`, `c ? a : b`; an index, attribute, splat or for expression is refused. */
static void typed_operator(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    switch (e->kind) {
    case PCL_UNARY: {
        /* an int negated: -(-2147483648) is no int; as a double where one may stand, else checked */
        bool int_op = (s->int_checked || s->int_exact[3]) && typed_int_op(x, e);
        if (int_op && !x->number_ok && s->int_exact[3]) {
            buf_printf(b, "%s(", s->int_exact[3]);
            emit_typed_expr(s, x, b, e->x, NULL, depth);
            buf_putc(b, ')');
            return;
        }
        bool checked = int_op && !x->number_ok && !s->int_exact[3] && !x->int_checked;
        if (checked) {
            buf_printf(b, "%s(", s->int_checked);
            x->int_checked = true;
        }
        buf_puts(b, e->op);
        if (int_op && x->number_ok && !typed_int_op(x, e->x))
            typed_to_double(s, x, b, e->x, depth);
        else
            typed_operand(s, x, b, e, e->x, depth, false);
        if (checked) {
            x->int_checked = false;
            buf_putc(b, ')');
        }
        return;
    }
    case PCL_BINARY:
        if (s->equals_class && emit_string_equality(x->p, x->index, e)) {
            buf_printf(b, "%s%s.equals(", strcmp(e->op, "!=") == 0 ? "!" : "", s->need(x, s->equals_class));
            emit_typed_expr(s, x, b, e->x, NULL, depth);
            buf_puts(b, ", ");
            emit_typed_expr(s, x, b, e->y, NULL, depth);
            buf_putc(b, ')');
            return;
        }
        if (typed_int_arith(s, x, b, e, depth)) return;
        /* PCL's numbers divide as numbers: 3 / 2 is 1.5, where C# and Java divide ints as ints (1) */
        if (strcmp(e->op, "/") == 0) buf_puts(b, "(double) ");
        typed_operand(s, x, b, e, e->x, depth, false);
        buf_printf(b, " %s ", e->op);
        typed_operand(s, x, b, e, e->y, depth, true);
        return;
    case PCL_COND:
        typed_operand(s, x, b, e, e->x, depth, false);
        buf_puts(b, " ? ");
        typed_operand(s, x, b, e, e->y, depth, false);
        buf_puts(b, " : ");
        typed_operand(s, x, b, e, e->z, depth, false);
        return;
    default:
        emit_unwritable(x->diags, e, s->lang);
        buf_puts(b, "null");
        return;
    }
}

/* A literal at a position of enum type t: the enum's member, else the literal (the SDK's enums
 * convert explicitly from it). */
static void typed_enum(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e,
                       const schema_type_t *t) {
    const char *ename = emit_token_type_name(x->a, t->token, names_pascal);
    const schema_enum_value_t *ev = names_enum_value_of(t, e);
    char *member = ev ? names_enum_member(x->a, s->lang, ev, ename) : NULL;
    if (member)
        s->enum_member(x, b, t, ename, member);
    else if (e->kind == PCL_STRING)
        s->string(b, e->s);
    else
        emit_number_dotted(b, e->n, t->element);
}

static int key_cmp(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

const char **emit_object_keys_sorted(arena_t *a, const schema_object_t *o) {
    const char **keys = arena_alloc(a, (o->n_props ? o->n_props : 1) * sizeof *keys);
    for (size_t i = 0; i < o->n_props; i++)
        keys[i] = o->props[i].name;
    qsort(keys, o->n_props, sizeof *keys, key_cmp);
    return keys;
}

/* A built-in function by the syntax's table (emit_typed_call_t); false, writing nothing, for one
 * the language does not write. */
static bool typed_call(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    const schema_type_t *obj =
        s->keyed_object && e->call.n && (strcmp(e->call.name, "entries") == 0 || strcmp(e->call.name, "lookup") == 0)
            ? emit_read_type(x->p, x->index, e->call.args[0])
            : NULL;
    if (obj && obj->kind == SCHEMA_OBJECT && obj->object) {
        s->keyed_object(x, b, e, obj, depth);
        return true;
    }
    const emit_typed_call_t *call = NULL;
    emit_shape_t shape = e->call.n ? emit_expr_shape(x->p, x->index, e->call.args[0]) : EMIT_SHAPE_UNKNOWN;
    bool output = s->n_calls_output && emit_has_output(x->p, x->index, e);
    for (size_t i = 0; output && i < s->n_calls_output && !call; i++)
        if (strcmp(s->calls_output[i].fn, e->call.name) == 0) call = &s->calls_output[i];
    for (size_t i = 0; i < s->n_calls && !call; i++)
        if (strcmp(s->calls[i].fn, e->call.name) == 0 && (!s->calls[i].shape || s->calls[i].shape == shape))
            call = &s->calls[i];
    if (!call) return false;
    const char *named[2] = {"", ""};
    for (size_t i = 0; i < 2 && call->need[i]; i++)
        named[i] = s->need(x, call->need[i]);
    for (const char *f = call->fmt; *f; f++) {
        if (f[0] == '$' && (f[1] == 'n' || f[1] == 'm')) {
            buf_puts(b, named[*++f == 'm']);
            continue;
        }
        bool recv = f[0] == '$' && f[1] == 'r' && f[2] >= '0' && f[2] <= '9';
        if (f[0] != '$' || (!recv && (f[1] < '0' || f[1] > '9'))) {
            buf_putc(b, *f);
            continue;
        }
        size_t k = (size_t)(f[recv ? 2 : 1] - '0');
        f += recv ? 2 : 1;
        if (k >= e->call.n) continue;
        const pcl_expr_t *arg = e->call.args[k];
        bool paren = recv && (arg->kind == PCL_BINARY || arg->kind == PCL_UNARY || arg->kind == PCL_COND);
        if (recv && !output && s->untyped_optional && arg->kind == PCL_TRAVERSAL && !arg->trav.n &&
            typed_null_any(x, arg)) { /* a method of a value of no type held as an optional: of its value */
            buf_t v;
            buf_init(&v);
            emit_typed_expr(s, x, &v, arg, NULL, depth);
            put_format1(b, s->untyped_optional, v.data ? v.data : "");
            buf_free(&v);
            continue;
        }
        if (paren) buf_putc(b, '(');
        emit_typed_expr(s, x, b, arg, NULL, depth);
        if (paren) buf_putc(b, ')');
    }
    return true;
}

void emit_typed_entry(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_object_item_t *it,
                      const schema_type_t *et, int depth, const char *open, const char *sep, const char *close) {
    buf_puts(b, open);
    names_append_quoted(b, s->lang, it->key);
    buf_puts(b, sep);
    emit_typed_expr(s, x, b, it->value, et, depth);
    buf_puts(b, close);
}

bool emit_config_raw_int(arena_t *a, const pcl_node_t *config, const pcl_trav_part_t *parts, size_t n) {
    const emit_cfg_type_t *t = emit_config_type(a, config->token);
    bool raw = t->kind == EMIT_CFG_MAP; /* a map, or a list inside a list or map */
    size_t k = 0;
    for (; k < n && (t->kind == EMIT_CFG_LIST || t->kind == EMIT_CFG_MAP); k++, t = t->elem)
        raw |= k > 0;
    return n && k == n && raw && t->kind == EMIT_CFG_INT;
}

bool emit_config_raw_int_items(emit_typed_t *x, const pcl_expr_t *e, bool map) {
    int idx = e->kind == PCL_TRAVERSAL ? emit_typed_find(x, e->trav.root) : -1;
    const pcl_node_t *n = idx >= 0 ? &x->p->nodes[idx] : NULL;
    if (n && n->kind == PCL_NODE_LOCAL && !emit_local_held(x->p, x->index, n, &n)) return false;
    if (!n || n->kind != PCL_NODE_CONFIG) return false;
    pcl_trav_part_t *parts = arena_alloc(x->a, (e->trav.n + 1) * sizeof *parts);
    if (e->trav.n) memcpy(parts, e->trav.parts, e->trav.n * sizeof *parts);         /* none: parts may be NULL */
    parts[e->trav.n] = (pcl_trav_part_t){.index_is_string = map, .index_str = "k"}; /* an item */
    return emit_config_raw_int(x->a, n, parts, e->trav.n + 1);
}

/* How a resolved value's parts are read: inside can() and try()'s arguments by the syntax's strict
 * parts, where it has them. */
static const emit_part_syntax_t *typed_value_parts(const emit_typed_syntax_t *s, const emit_typed_t *x) {
    return x->strict && s->strict_value_parts ? s->strict_value_parts : s->value_parts;
}

/* `value` (the text of a config value that is not secret, or of what holds it: a literal list or
 * object when config is NULL) and the n parts read into it: through the config type's lists and
 * maps, then into a value of no type (an object type's too) by the language's untyped_read. */
static void typed_held_parts(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const char *value,
                             const pcl_node_t *config, const pcl_trav_part_t *parts, size_t n,
                             const schema_type_t *want) {
    const emit_cfg_type_t *t = config ? emit_config_type(x->a, config->token) : NULL;
    buf_t v;
    buf_init(&v);
    if (n && s->untyped_optional && config_null_any(x, config))
        put_format1(&v, s->untyped_optional, value);
    else
        buf_puts(&v, value);
    size_t k = 0;
    for (; k < n && (!t || t->kind == EMIT_CFG_LIST || t->kind == EMIT_CFG_MAP); k++, t = t ? t->elem : NULL)
        emit_append_part(&v, &parts[k], NULL, typed_value_parts(s, x));
    if (k < n && s->untyped_read)
        s->untyped_read(x, b, v.data, parts + k, n - k);
    else if (s->config_raw_int && config && emit_config_raw_int(x->a, config, parts, n))
        put_format1(
            b, want && want->kind == SCHEMA_NUMBER && s->config_raw_number ? s->config_raw_number : s->config_raw_int,
            v.data);
    else
        buf_append(b, v.data, v.len);
    buf_free(&v);
}

/* Inside an apply: an output atom of it as the apply's parameter and what is read below the output
 * (true); false for any other expression. */
static bool typed_apply_param(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e) {
    const emit_apply_t *ap = x->apply;
    for (size_t i = 0; ap && i < ap->n; i++) {
        if (ap->atoms[i] != e) continue;
        int idx = e->kind == PCL_TRAVERSAL ? emit_typed_find(x, e->trav.root) : -1;
        const pcl_node_t *config = NULL;
        if (idx >= 0 && x->p->nodes[idx].kind == PCL_NODE_LOCAL && ap->skip[i] == 0 &&
            emit_local_held(x->p, x->index, &x->p->nodes[idx], &config)) { /* a secret literal or config value */
            typed_held_parts(s, x, b, arena_sprintf(x->a, "%s%s", s->param_prefix, ap->names[i]), config, e->trav.parts,
                             e->trav.n, e->type);
            return true;
        }
        buf_printf(b, "%s%s", s->param_prefix, ap->names[i]);
        if (s->read_below && e->kind == PCL_TRAVERSAL) {
            s->read_below(x, b, e, ap->skip[i]);
            return true;
        }
        for (size_t k = ap->skip[i]; e->kind == PCL_TRAVERSAL && k < e->trav.n; k++) {
            const pcl_trav_part_t *pt = &e->trav.parts[k];
            bool key = emit_reads_map_key(x->p, x->index, e, k);
            emit_append_part(b, pt, pt->attr && !key ? s->value_parts->name(x, -1, pt->attr, false) : NULL,
                             typed_value_parts(s, x));
        }
        return true;
    }
    return false;
}

emit_print_t emit_typed_try_kind(const emit_typed_t *x, const pcl_expr_t *e) {
    const schema_type_t *t = e->type && e->type->kind == SCHEMA_ENUM ? e->type->element : e->type;
    emit_print_t k = t && t->kind == SCHEMA_STRING   ? EMIT_PRINT_STRING
                     : t && t->kind == SCHEMA_BOOL   ? EMIT_PRINT_BOOL
                     : t && t->kind == SCHEMA_INT    ? EMIT_PRINT_INT
                     : t && t->kind == SCHEMA_NUMBER ? EMIT_PRINT_NUMBER
                                                     : EMIT_PRINT_UNKNOWN;
    if (k == EMIT_PRINT_UNKNOWN && !x->n_scope) k = emit_try_kind(x->p, x->index, e);
    for (size_t i = 0; k == EMIT_PRINT_UNKNOWN && x->n_scope && i < e->call.n; i++) {
        emit_print_t a = emit_typed_print_kind(x, e->call.args[i]), first = emit_typed_print_kind(x, e->call.args[0]);
        if (a < EMIT_PRINT_STRING || a > EMIT_PRINT_NUMBER || a != first ||
            emit_cs_object_item(x->p, x->index, e->call.args[i]))
            break;
        if (i + 1 == e->call.n) k = a;
    }
    return k >= EMIT_PRINT_STRING && k <= EMIT_PRINT_NUMBER ? k : EMIT_PRINT_UNKNOWN;
}

bool emit_typed_can_try(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth,
                        void (*plain)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth),
                        const char *output_of) {
    if (strcmp(e->call.name, "can") != 0 && strcmp(e->call.name, "try") != 0) return false;
    bool outputs = false;
    for (size_t i = 0; i < e->call.n; i++)
        outputs |= emit_has_output(x->p, x->index, e->call.args[i]);
    if (outputs && !x->apply) {
        pcl_expr_t args = {.kind = PCL_TUPLE, .tuple = {.items = e->call.args, .n = e->call.n}};
        emit_typed_apply_over(s, x, b, &args, e, depth, plain);
        return true;
    }
    bool wrap = !outputs && !x->apply && emit_call_is_output(x->p, x->index, e);
    if (wrap) buf_puts(b, output_of);
    plain(x, b, e, depth);
    if (wrap) buf_putc(b, ')');
    return true;
}

void emit_typed_apply(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth,
                      void (*body)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth)) {
    emit_typed_apply_over(s, x, b, e, e, depth, body);
}

void emit_typed_apply_over(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *over,
                           const pcl_expr_t *e, int depth,
                           void (*body)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth)) {
    emit_apply_t ap;
    emit_apply_plan(x->a, x->p, x->index, x->var, s->lang, over, NULL, 0, &ap);
    if (ap.nu != 1) {
        emit_unwritable(x->diags, e, s->lang);
        buf_puts(b, "null");
        return;
    }
    emit_typed_expr(s, x, b, ap.heads[ap.uniq[0]], NULL, depth);
    put_format1(b, s->apply_open, arena_sprintf(x->a, "%s%s", s->param_prefix, ap.names[ap.uniq[0]]));
    x->apply = &ap;
    if (body)
        body(x, b, e, depth);
    else
        emit_typed_expr(s, x, b, e, NULL, depth);
    x->apply = NULL;
    buf_putc(b, ')');
}

/* An operator or conditional over outputs: `<output><apply_open>expression)` (emit_check_program
 * lets through one output, however often read). */
static void typed_apply(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth) {
    emit_typed_apply(s, x, b, e, depth, NULL);
}

void emit_typed_scope_entries(emit_typed_t *x, const pcl_expr_t *e) {
    for (size_t i = 0; i < (e->kvar ? 2u : 1u) && i < x->n_scope; i++) {
        size_t at = x->n_scope - 1 - i;
        x->scope_coll[at] = e->x;
        x->scope_is_key[at] = i == 1;
    }
    if (x->n_scope && e->x->kind == PCL_CALL && strcmp(e->x->call.name, "entries") == 0)
        x->scope_keys[x->n_scope - 1] = true;
}

emit_print_t emit_typed_print_kind(const emit_typed_t *x, const pcl_expr_t *e) {
    emit_scope_t in = {x->scope_name, x->scope_coll, x->scope_is_key, x->scope_keys, x->n_scope, NULL};
    /* a hook's args.name, .type, .urn, .id (emit_check_program: nothing else of it) */
    if (x->node && x->node->kind == PCL_NODE_HOOK && e->kind == PCL_TRAVERSAL && strcmp(e->trav.root, "args") == 0 &&
        emit_typed_find(x, "args") < 0 && !emit_scope_reads(&in, e))
        return EMIT_PRINT_STRING;
    return emit_scope_print_kind(x->p, x->index, &in, e);
}

emit_print_t emit_typed_item_kind(const emit_typed_t *x, const pcl_expr_t *coll) {
    emit_scope_t in = {x->scope_name, x->scope_coll, x->scope_is_key, x->scope_keys, x->n_scope, NULL};
    return emit_scope_item_kind(x->p, x->index, &in, coll, false);
}

bool emit_typed_scope_push(emit_typed_t *x, const char *name, const char *text) {
    if (x->n_scope >= EMIT_MAX_SCOPE) return false;
    x->scope_keys[x->n_scope] = false;
    x->scope_coll[x->n_scope] = NULL;
    x->scope_is_key[x->n_scope] = false;
    x->scope_name[x->n_scope] = name;
    x->scope_text[x->n_scope++] = text;
    return true;
}

void emit_typed_for_body(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth,
                         const char *params, const emit_for_syntax_t *f) {
    if (e->w) {
        put_format1(b, f->filter, params);
        emit_typed_expr(s, x, b, e->w, NULL, depth);
        buf_putc(b, ')');
    }
    if (e->for_object) {
        put_format1(b, f->to_map, params);
        emit_typed_expr(s, x, b, e->y, NULL, depth);
        put_format1(b, f->map_sep, params);
        emit_typed_expr(s, x, b, e->z, NULL, depth);
        buf_puts(b, f->map_close);
    } else {
        put_format1(b, f->to_list, params);
        emit_typed_expr(s, x, b, e->z, NULL, depth);
        buf_puts(b, f->list_close);
    }
}

emit_conversion_t emit_typed_conversion(const emit_typed_syntax_t *s, const emit_typed_t *x, const pcl_expr_t *e) {
    if (!s->config_conv || e->kind != PCL_TRAVERSAL || e->trav.n || x->n_scope) return EMIT_CONV_NONE;
    int idx = emit_typed_find(x, e->trav.root);
    if (idx < 0 || x->p->nodes[idx].kind != PCL_NODE_CONFIG) return EMIT_CONV_NONE;
    emit_conversion_t k = emit_config_conversion(&x->p->nodes[idx], e->type);
    return k != EMIT_CONV_UNSUPPORTED && s->config_conv[k] ? k : EMIT_CONV_NONE;
}

/* A config value converted to the scalar type the schema wants, as the syntax writes it; a secret
 * one in an apply. */
static bool typed_config_conversion(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e) {
    emit_conversion_t k = emit_typed_conversion(s, x, e);
    if (k == EMIT_CONV_NONE) return false;
    const pcl_node_t *n = &x->p->nodes[emit_typed_find(x, e->trav.root)];
    const char *conv = s->config_conv[k];
    if (k == EMIT_CONV_NUMBER_TO_STRING && s->config_number_text && n->token && strcmp(n->token, "number") == 0)
        conv = arena_sprintf(x->a, "%s(%%s)", s->need(x, s->config_number_text));
    if (!n->config_secret) {
        put_format1(b, conv, x->var[n - x->p->nodes]);
        return true;
    }
    buf_puts(b, x->var[n - x->p->nodes]);
    put_format1(b, s->apply_open, "x");
    put_format1(b, conv, "x");
    buf_putc(b, ')');
    return true;
}

/* A for expression's variable (the innermost of its name) and what is read below it; false for
 * any other traversal. */
static bool typed_scope_var(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e) {
    for (size_t i = x->n_scope; i-- > 0;) {
        if (strcmp(x->scope_name[i], e->trav.root) != 0) continue;
        buf_puts(b, x->scope_text[i]);
        for (size_t k = 0; k < e->trav.n; k++) {
            const pcl_trav_part_t *pt = &e->trav.parts[k];
            bool key = k == 0 && x->scope_keys[i]; /* an entries() item's "key" and "value" */
            emit_append_part(b, pt, pt->attr && !key ? s->value_parts->name(x, -1, pt->attr, false) : NULL,
                             typed_value_parts(s, x));
        }
        return true;
    }
    return false;
}

/* Whether e reads into a local that holds an output (written in an apply of it). */
static bool typed_reads_local_output(const emit_typed_t *x, const pcl_expr_t *e) {
    int idx = e->kind == PCL_TRAVERSAL && e->trav.n > 0 ? emit_typed_find(x, e->trav.root) : -1;
    return idx >= 0 && x->p->nodes[idx].kind == PCL_NODE_LOCAL && emit_is_output_atom(x->p, x->index, e);
}

/* What is read into a config value that is not secret, a plain list or map (emit_check_program): by
 * the syntax of a resolved value, an attribute as a map's key. */
static bool typed_config_read(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e) {
    int idx = e->trav.n && s->value_parts ? emit_typed_find(x, e->trav.root) : -1;
    if (idx < 0) return false;
    const pcl_node_t *n = &x->p->nodes[idx], *config = n;
    if (n->kind == PCL_NODE_LOCAL) { /* a local holding a literal or a config value, not an output */
        if (emit_is_output_atom(x->p, x->index, e) || !emit_local_held(x->p, x->index, n, &config)) return false;
    } else if (n->kind != PCL_NODE_CONFIG || n->config_secret) {
        return false;
    }
    typed_held_parts(s, x, b, x->var[idx], config, e->trav.parts, e->trav.n, e->type);
    return true;
}

static void typed_expr(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e,
                       const schema_type_t *t, int depth);

void emit_typed_expr(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e,
                     const schema_type_t *t, int depth) {
    typed_expr(s, x, b, e, t, depth);
    if (s->untyped_output_any && !x->apply && t && t->kind == SCHEMA_ANY && emit_untyped_output(x->p, x->index, e))
        buf_puts(b, s->untyped_output_any);
}

static void typed_expr_at(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e,
                          const schema_type_t *t, int depth);

/* Whether a double may stand where e is written (emit_typed_t number_ok). */
static bool typed_number_ok(const emit_typed_t *x, const pcl_expr_t *e, const schema_type_t *t) {
    const pcl_expr_t *up = x->writing;
    if (!t) t = e->type;
    if (t && (t->kind == SCHEMA_NUMBER || t->kind == SCHEMA_JSON)) return true;
    if (t && t->kind != SCHEMA_ANY) return false;
    if (x->node && x->node->kind == PCL_NODE_OUTPUT && x->node->n_attrs && e == x->node->attrs[0].value) return true;
    if (up && up->kind == PCL_TEMPLATE && up != e) return true; /* a part: printed as PCL prints a number */
    if (up && up != e && up->kind == PCL_BINARY && (emit_binop_prec(up->op) == 3 || emit_binop_prec(up->op) == 4))
        return true; /* compared as numbers */
    return x->number_ok && up &&
           (up == e || up->kind == PCL_TUPLE || up->kind == PCL_OBJECT || up->kind == PCL_TEMPLATE ||
            up->kind == PCL_COND || up->kind == PCL_BINARY || up->kind == PCL_UNARY ||
            (up->kind == PCL_FOR && e == up->z));
}

static void typed_expr(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e,
                       const schema_type_t *t, int depth) {
    const pcl_expr_t *up = x->writing;
    bool ok = x->number_ok;
    x->number_ok = typed_number_ok(x, e, t);
    x->writing = e;
    typed_expr_at(s, x, b, e, t, depth);
    x->writing = up;
    x->number_ok = ok;
}

static void typed_expr_at(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e,
                          const schema_type_t *t, int depth) {
    if (x->apply && typed_apply_param(s, x, b, e)) return;
    const pcl_expr_t *under = e->kind == PCL_GETATTR || e->kind == PCL_INDEX ? emit_fn_call_under(e) : NULL;
    if (emit_is_invoke(e) || (under && emit_is_invoke(under))) {
        s->invoke(x, b, e, depth);
        return;
    }
    if (emit_is_method_call(e) || (under && emit_is_method_call(under))) {
        if (s->method_call)
            s->method_call(x, b, e, depth);
        else
            emit_unwritable(x->diags, e, s->lang); /* emit_check_program refuses it */
        return;
    }
    if (!t) t = e->type;
    if (t && t->kind == SCHEMA_UNION && s->union_value && s->union_value(x, b, e, t, depth)) return;
    if (t && t->kind == SCHEMA_UNION) t = emit_union_pick(t, e, false);
    switch (e->kind) {
    case PCL_NULL: buf_puts(b, "null"); return;
    case PCL_BOOL: buf_puts(b, e->b ? "true" : "false"); return;
    case PCL_NUMBER:
        if (t && t->kind == SCHEMA_ENUM)
            typed_enum(s, x, b, e, t);
        else
            number_typed(b, e->n, t);
        return;
    case PCL_STRING:
        if (t && t->kind == SCHEMA_ENUM)
            typed_enum(s, x, b, e, t);
        else
            s->string(b, e->s);
        return;
    case PCL_TRAVERSAL:
        if (x->n_scope && typed_scope_var(s, x, b, e)) return;
        if (s->config_conv && typed_config_conversion(s, x, b, e)) return;
        if (typed_config_read(s, x, b, e)) return;
        bool id_map = s->value_parts && emit_id_map_read(x->p, x->index, e); /* an entry: an ID Output */
        emit_conversion_t conv =
            s->config_conv && !x->apply ? emit_typed_string_conversion(x->p, x->index, e) : EMIT_CONV_NONE;
        if (id_map && conv == EMIT_CONV_NONE) {
            typed_held_parts(s, x, b, x->var[emit_typed_find(x, e->trav.root)], NULL, e->trav.parts, e->trav.n, NULL);
            return;
        }
        if (conv != EMIT_CONV_NONE) {
            /* a string output where a number or bool is wanted: converted in an apply, as a config value */
            if (id_map)
                typed_held_parts(s, x, b, x->var[emit_typed_find(x, e->trav.root)], NULL, e->trav.parts, e->trav.n,
                                 NULL);
            else
                s->traversal(x, b, e);
            put_format1(b, s->apply_open, "x");
            put_format1(b, s->config_conv[conv], "x");
            buf_putc(b, ')');
            return;
        }
        if (!x->apply && s->apply_open && typed_reads_local_output(x, e))
            typed_apply(s, x, b, e, depth);
        else
            s->traversal(x, b, e);
        return;
    case PCL_CALL:
        /* `.asSecret()` after an Output; a list or map literal holding outputs is written as a plain
         * List or Map of them (Java), which has no such method: made a secret Output of it below */
        if (strcmp(e->call.name, "secret") == 0 && e->call.n == 1 && s->secret_output &&
            e->call.args[0]->kind != PCL_TUPLE && e->call.args[0]->kind != PCL_OBJECT &&
            emit_has_output(x->p, x->index, e->call.args[0])) {
            typed_operand(s, x, b, e, e->call.args[0], depth, false);
            buf_puts(b, s->secret_output);
        } else if (strcmp(e->call.name, "secret") == 0 && e->call.n == 1) {
            buf_printf(b, "%s(", s->secret);
            emit_typed_expr(s, x, b, e->call.args[0], t, depth);
            buf_putc(b, ')');
        } else if (!(s->own_call && s->own_call(x, b, e, depth)) && !s->asset_call(x, b, e, depth) &&
                   !typed_call(s, x, b, e, depth)) {
            emit_unknown_call(b, x->diags, x->report, x->node, e, s->lang, "null");
        }
        return;
    EMIT_CASE_LANGUAGE_EXPRS:
        if (e->kind == PCL_TEMPLATE)
            s->interpolation(x, b, e, depth);
        else if (e->kind == PCL_FOR && s->for_expr)
            s->for_expr(x, b, e, depth); /* emit_check_program: over plain values only */
        else if (!x->apply && s->apply_open && emit_has_output(x->p, x->index, e))
            typed_apply(s, x, b, e, depth);
        else
            typed_operator(s, x, b, e, depth);
        return;
    case PCL_TUPLE: s->list(x, b, e, t && t->kind == SCHEMA_ARRAY ? t->element : NULL, depth); return;
    case PCL_OBJECT:
        if (t && t->kind == SCHEMA_OBJECT && t->object && t->token)
            s->object(x, b, e, t, depth);
        else
            s->map(x, b, e, t && t->kind == SCHEMA_MAP ? t->element : NULL, depth);
        return;
    }
}

bool emit_typed_keyed_receiver(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, buf_t *recv,
                               const pcl_expr_t *obj, const char *open, const char *param, int depth) {
    bool atom = false; /* the apply's parameter already holds its value */
    for (size_t i = 0; x->apply && i < x->apply->n; i++)
        atom |= x->apply->atoms[i] == obj;
    if (atom || !emit_has_output(x->p, x->index, obj)) {
        emit_typed_expr(s, x, recv, obj, NULL, depth);
        return false;
    }
    emit_typed_expr(s, x, b, obj, NULL, depth);
    buf_puts(b, open);
    buf_puts(recv, param);
    return true;
}

/* --- the program walk the typed emitters (Go, C#, Java) share ---------------------------------- */

names_table_t *emit_typed_name_nodes(emit_typed_t *x, lang_t lang, char *(*style)(arena_t *a, const char *s),
                                     const char *const *reserved, const bool *referenced, const char *unused) {
    names_table_t *names = names_table_new(x->a);
    for (size_t i = 0; reserved && reserved[i]; i++)
        names_table_reserve(names, reserved[i]);
    for (const char *const *b = names_builtins(lang); *b; b++)
        names_table_reserve(names, *b);
    for (size_t i = 0; i < x->p->n_nodes; i++) {
        const pcl_node_t *n = &x->p->nodes[i];
        x->var[i] = unused;
        if (n->kind == PCL_NODE_PACKAGE || n->kind == PCL_NODE_OUTPUT || (referenced && !referenced[i])) continue;
        const char *name = style ? style(x->a, n->name) : n->name;
        x->var[i] = names_table_unique(names, names_make_valid_identifier(x->a, lang, name), "", 2);
    }
    return names;
}

static void typed_declare(emit_typed_t *x, buf_t *b, size_t i, const emit_typed_program_t *s, const char *declare) {
    buf_puts(b, s->indent);
    if (s->declare_blank && strcmp(x->var[i], "_") == 0)
        buf_puts(b, s->declare_blank);
    else
        put_format1(b, declare ? declare : s->declare, x->var[i]);
}

/* A node's value at an unknown type. */
static void typed_value(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const emit_typed_program_t *s) {
    if (s->values)
        emit_typed_expr(s->values, x, b, e, NULL, s->depth);
    else
        s->value(x, b, e, NULL, s->depth);
}

/* `base` + `suffix`, or with a number after it when a node's variable has that name already. */
static const char *typed_fresh_name(emit_typed_t *x, const char *base, const char *suffix) {
    for (int k = 1;; k++) {
        const char *name =
            k == 1 ? arena_sprintf(x->a, "%s%s", base, suffix) : arena_sprintf(x->a, "%s%s%d", base, suffix, k);
        bool taken = false;
        for (size_t i = 0; i < x->p->n_nodes && !taken; i++)
            taken = x->var[i] && strcmp(x->var[i], name) == 0;
        if (!taken) return name;
    }
}

/* A config value whose default is null, or of no type (or an object type) whose default is a
 * literal (emit_check_program): the getter that gives nothing when it is unset, then `or_null` or
 * the default, as Pulumi's .NET and Java generators write it (`config.GetObject<string[]>("l")`,
 * `config.getObject("o", ...).orElse(Map.of())`); false for another default. */
static bool typed_config_optional(emit_typed_t *x, buf_t *b, size_t i, const emit_typed_program_t *s) {
    const pcl_node_t *n = &x->p->nodes[i];
    const pcl_expr_t *v = n->attrs[0].value;
    const emit_cfg_type_t *ct = emit_config_type(x->a, n->token);
    if (!s->cfg->or_null || (v->kind != PCL_NULL && ct->kind != EMIT_CFG_ANY)) return false;
    typed_declare(x, b, i, s, NULL);
    if (!emit_config_scalar(ct) && s->config_get_object) {
        s->config_get_object(x, b, i);
    } else {
        const char *type = ct->kind == EMIT_CFG_ANY && s->cfg->any_optional ? s->cfg->any_optional
                                                                            : emit_config_type_name(x->a, ct, s->cfg);
        buf_printf(b, "%s.%s(", s->config,
                   emit_config_scalar(ct) ? s->cfg->get[ct->kind] : arena_sprintf(x->a, s->cfg->get_object, type));
        names_append_quoted(b, s->lang, n->config_key ? n->config_key : n->name);
        buf_putc(b, ')');
    }
    if (v->kind == PCL_NULL) {
        buf_puts(b, s->cfg->or_null);
    } else {
        buf_puts(b, s->cfg->or_open);
        if (s->cfg->any_open) buf_puts(b, s->cfg->any_open);
        emit_typed_expr(s->values, x, b, v, NULL, s->depth);
        if (s->cfg->any_close) buf_puts(b, s->cfg->any_close);
        buf_puts(b, s->cfg->or_close);
    }
    buf_puts(b, s->end);
    return true;
}

static void typed_config(emit_typed_t *x, buf_t *b, size_t i, const emit_typed_program_t *s, bool first) {
    const pcl_node_t *n = &x->p->nodes[i];
    if (first && s->new_config) {
        buf_puts(b, s->indent);
        buf_puts(b, s->new_config);
    }
    const char *getter = emit_config_getter(n, s->cfg);
    if (n->n_attrs && s->cfg->get[0] && typed_config_optional(x, b, i, s)) return;
    if (n->n_attrs && s->cfg->get[0]) { /* a default (emit_check_program: a literal of the type) */
        static const schema_type_t scalar[] = {
            {.kind = SCHEMA_STRING}, {.kind = SCHEMA_INT}, {.kind = SCHEMA_NUMBER}, {.kind = SCHEMA_BOOL}};
        /* a list of scalars: list(optional(string)) is a string[] (its items may be null) */
        const emit_cfg_type_t *ct =
            s->cfg->get_object ? emit_config_type_nullable(x->a, n->token) : emit_config_type(x->a, n->token);
        bool list = ct->kind == EMIT_CFG_LIST; /* of scalars (emit_check_program) */
        schema_type_t array = {.kind = SCHEMA_ARRAY, .element = list ? &scalar[ct->elem->kind] : NULL};
        typed_declare(x, b, i, s, NULL);
        if (list)
            buf_printf(b, "%s.%s(", s->config,
                       arena_sprintf(x->a, s->cfg->get_object, emit_config_type_name(x->a, ct, s->cfg)));
        else
            buf_printf(b, "%s.%s(", s->config, s->cfg->get[ct->kind]);
        names_append_quoted(b, s->lang, n->config_key ? n->config_key : n->name);
        if (emit_config_output_default(x->p, x->index, n)) { /* emit_check_program: a string or bool */
            buf_putc(b, ')');
            buf_printf(b, s->cfg->or_output_open, typed_fresh_name(x, x->var[i], "Value"),
                       typed_fresh_name(x, x->var[i], "Value"));
            emit_typed_expr(s->values, x, b, n->attrs[0].value, &scalar[ct->kind], s->depth);
            buf_puts(b, s->cfg->or_close);
            buf_puts(b, s->end);
            return;
        }
        if (list && s->cfg->get_object_tail)
            buf_printf(b, s->cfg->get_object_tail, emit_config_type_name(x->a, ct->elem, s->cfg),
                       s->values->need(x, s->cfg->get_object_need));
        buf_printf(b, ")%s", s->cfg->or_open);
        emit_typed_expr(s->values, x, b, n->attrs[0].value, list ? &array : &scalar[ct->kind], s->depth);
        buf_puts(b, s->cfg->or_close);
        buf_puts(b, s->end);
        return;
    }
    if (!getter && !s->cfg->object[n->config_secret]) {
        s->config_object(x, b, i);
        return;
    }
    if (!getter) /* a list, map or any value: decoded from its JSON into its own type */
        getter = arena_sprintf(x->a, s->cfg->object[n->config_secret],
                               emit_config_type_name(x->a, emit_config_type(x->a, n->token), s->cfg));
    typed_declare(x, b, i, s, NULL);
    buf_printf(b, "%s.%s(", s->config, getter);
    names_append_quoted(b, s->lang, n->config_key ? n->config_key : n->name);
    buf_putc(b, ')');
    buf_puts(b, s->end);
}

/* A read block's statement: `Class.Get("name", id, state, options)` by the language's hook. */
static void typed_read(emit_typed_t *x, buf_t *b, size_t i, const emit_typed_program_t *s) {
    const pcl_node_t *n = &x->p->nodes[i];
    const pcl_attr_t *id = NULL;
    for (size_t j = 0; j < n->n_attrs; j++)
        if (strcmp(n->attrs[j].name, "id") == 0) id = &n->attrs[j];
    typed_declare(x, b, i, s, s->declare_resource);
    buf_puts(b, s->class_of(x, n));
    buf_puts(b, s->read_get);
    names_append_quoted(b, s->lang, emit_node_logical_name(n));
    s->read(x, b, n, id);
    buf_putc(b, ')');
    buf_puts(b, s->end);
}

const schema_property_t *emit_state_property(const pcl_node_t *n, const pcl_attr_t *at) {
    if (at->prop) return at->prop;
    return n->schema ? schema_find_property(n->schema->outputs, n->schema->n_outputs, at->name) : NULL;
}

static void typed_resource(emit_typed_t *x, buf_t *b, size_t i, const emit_typed_program_t *s) {
    const pcl_node_t *n = &x->p->nodes[i];
    if (n->read && s->read) {
        typed_read(x, b, i, s);
        return;
    }
    typed_declare(x, b, i, s, s->declare_resource);
    buf_puts(b, "new ");
    buf_puts(b, s->class_of(x, n));
    buf_putc(b, '(');
    if (n->kind == PCL_NODE_COMPONENT) {
        names_append_quoted(b, s->lang, n->token ? n->token : "");
        buf_puts(b, ", ");
    }
    names_append_quoted(b, s->lang, emit_node_logical_name(n));
    if (n->kind == PCL_NODE_RESOURCE) s->args(x, b, n);
    if (n->kind == PCL_NODE_COMPONENT && n->n_attrs && s->component_args) s->component_args(x, b, n);
    if (n->n_options > 0) {
        buf_puts(b, ", ");
        s->options(x, b, n);
    }
    buf_putc(b, ')');
    buf_puts(b, s->end);
}

/* The typed languages' writers (EMIT_TYPED_WRITERS): each sets the node it writes (x->node). */
static const pcl_node_t *typed_node_at(emit_typed_walk_t *t, size_t i) {
    t->x->node = &t->x->p->nodes[i];
    return t->x->node;
}

static void typed_pulumi_node(void *gen, size_t i) {
    emit_typed_walk_t *t = gen;
    const pcl_node_t *n = typed_node_at(t, i);
    const emit_typed_program_t *s = t->s;
    if (!s->require_version) return; /* Go writes it with its resources */
    buf_puts(t->b, s->indent);
    if (s->deployment)
        put_format1(t->b, s->require_version, s->values->need(t->x, s->deployment));
    else
        buf_puts(t->b, s->require_version);
    emit_typed_expr(s->values, t->x, t->b, n->attrs[0].value, NULL, s->depth);
    buf_puts(t->b, s->require_close);
    buf_puts(t->b, s->end);
}

static void typed_hook_node(void *gen, size_t i) {
    emit_typed_walk_t *t = gen;
    typed_node_at(t, i);
    if (t->s->hook) t->s->hook(t->x, t->b, i); /* else refused by emit_check_program */
}

static void typed_config_node(void *gen, size_t i, bool first) {
    emit_typed_walk_t *t = gen;
    typed_node_at(t, i);
    typed_config(t->x, t->b, i, t->s, first);
}

static void typed_local_node(void *gen, size_t i) {
    emit_typed_walk_t *t = gen;
    const pcl_node_t *n = typed_node_at(t, i);
    if (t->s->local) {
        t->s->local(t->x, t->b, i);
        return;
    }
    typed_declare(t->x, t->b, i, t->s, NULL);
    typed_value(t->x, t->b, n->attrs[0].value, t->s);
    buf_puts(t->b, t->s->end);
}

static void typed_output_node(void *gen, size_t i) {
    emit_typed_walk_t *t = gen;
    const pcl_node_t *n = typed_node_at(t, i);
    const emit_typed_program_t *s = t->s;
    if (!s->export) return;
    buf_puts(t->b, s->indent);
    buf_puts(t->b, s->export);
    names_append_quoted(t->b, s->lang, emit_node_logical_name(n));
    buf_puts(t->b, ", ");
    const pcl_expr_t *v = n->attrs[0].value;
    bool nullable =
        s->export_nullable && !emit_has_output(t->x->p, t->x->index, v) && emit_may_be_null(t->x->p, t->x->index, v);
    if (nullable) put_format1(t->b, s->export_nullable, s->values->need(t->x, s->nullable_class));
    typed_value(t->x, t->b, v, s);
    if (nullable) buf_putc(t->b, ')');
    buf_puts(t->b, s->export_end);
}

/* a resource's or a component's statement */
static void typed_resource_node(void *gen, size_t i) {
    emit_typed_walk_t *t = gen;
    typed_node_at(t, i);
    if (t->s->resource)
        t->s->resource(t->x, t->b, i);
    else
        typed_resource(t->x, t->b, i, t->s);
}

const emit_node_writers_t EMIT_TYPED_WRITERS = {.resource = typed_resource_node,
                                                .component = typed_resource_node,
                                                .output = typed_output_node,
                                                .hook = typed_hook_node,
                                                .pulumi = typed_pulumi_node,
                                                .local = typed_local_node,
                                                .config = typed_config_node};

void emit_typed_nodes(emit_typed_t *x, buf_t *b, const emit_typed_program_t *s) {
    emit_typed_walk_t t = {.x = x, .b = b, .s = s};
    emit_nodes(x->p, &EMIT_TYPED_WRITERS, &t);
    x->node = NULL;
}

char *emit_typed_file(emit_typed_t *x, void (*body)(emit_typed_t *x, buf_t *b), void (*head)(emit_typed_t *x, buf_t *b),
                      const char *tail) {
    buf_t text;
    buf_init(&text);
    x->report = true;
    body(x, &text);
    buf_t out;
    buf_init(&out);
    head(x, &out);
    buf_append(&out, text.data ? text.data : "", text.len);
    buf_puts(&out, tail);
    buf_free(&text);
    arena_free(x->a);
    return buf_take(&out);
}

const char *emit_token_type_name(arena_t *a, const char *token, char *(*style)(arena_t *a, const char *s)) {
    char *member = NULL;
    if (!names_token_split(a, token, NULL, NULL, &member) || !member) return "Unknown";
    return style(a, member);
}

/* Where an option stands in the order; order->n when the language does not write it. */
static size_t option_rank(const emit_option_order_t *order, const char *name) {
    for (size_t i = 0; i < order->n; i++)
        if (strcmp(order->names[i], name) == 0) return i;
    return order->n;
}

bool emit_option_written(const emit_option_order_t *order, const char *name) {
    return option_rank(order, name) < order->n;
}

const pcl_attr_t **emit_sorted_options(arena_t *a, const pcl_node_t *n, const emit_option_order_t *order) {
    const pcl_attr_t **sorted = arena_alloc(a, (n->n_options + 1) * sizeof *sorted);
    for (size_t i = 0; i < n->n_options; i++)
        sorted[i] = &n->options[i];
    for (size_t i = 1; i < n->n_options; i++) /* insertion sort: stable, tiny n */
        for (size_t j = i; j > 0 && option_rank(order, sorted[j - 1]->name) > option_rank(order, sorted[j]->name);
             j--) {
            const pcl_attr_t *t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    return sorted;
}

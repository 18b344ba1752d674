/* yaml.c — the Pulumi YAML emitter: PCL program → Main.yaml.
 *
 * Same shape as the other emitters: a program walker (configuration, then resources in order),
 * an expression printer (block-style YAML, 2-space indent, sequences indented under their key),
 * and names.h for escaping and numbers. Follows pulumi-yaml's program generator (pcl-emitters
 * §3.6, §4.6): resource keys are the PCL names, `type` is the collapsed token, `name` only when
 * the logical name differs, properties verbatim, enums as literals, references as `${res.prop}`,
 * a top-level `secret(...)` unwrapped where the schema marks the property secret, others as
 * `fn::secret`. Pulumi YAML has no local components: they are reported and left out. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "emitters/walk.h"

/* An invoke read deeper than one attribute and the variable that holds it. */
typedef struct yaml_hoisted {
    const pcl_expr_t *invoke;
    const char *name;
} yaml_hoisted_t;

typedef struct yaml_gen {
    arena_t *a;
    const pcl_program_t *p;
    diag_list_t *diags;
    buf_t *b;
    names_table_t *nodes;   /* PCL node name → node index */
    const char **ref_names; /* per node: how `${...}` names it (resource key or config key) */
    /* invokes read deeper than one attribute (`invoke(...).a[0].b`), each held by a variable of its
     * own and read through it: fn::invoke's `return` names one attribute only */
    yaml_hoisted_t *hoisted;
    size_t n_hoisted, cap_hoisted;
} yaml_gen_t;

static void yaml_block(yaml_gen_t *g, const pcl_expr_t *e, int indent);

static const char *node_logical_name(const pcl_node_t *n) {
    return n->logical_name ? n->logical_name : n->name;
}

/* pulumi-yaml's collapseToken: `aws:s3/bucket:Bucket` → `aws:s3:Bucket`, `pkg:index:T` → `pkg:T`. */
static char *yaml_collapse_token(arena_t *a, const char *token) {
    char *pkg, *mod, *member;
    if (!names_token_split(a, token, &pkg, &mod, &member) || strncmp(token, "pulumi:providers:", 17) == 0)
        return arena_strdup(a, token);
    char *slash = strchr(mod, '/');
    if (slash && !strchr(slash + 1, '/') && toupper((unsigned char)slash[1]) == member[0] &&
        strcmp(slash + 2, member + 1) == 0)
        *slash = 0;
    if (!*mod || strcmp(mod, "index") == 0) return arena_sprintf(a, "%s:%s", pkg, member);
    return arena_sprintf(a, "%s:%s:%s", pkg, mod, member);
}

/* Whether the UTF-8 sequence at c is a code point a scalar writes escaped (names_yaml_escapes). */
static bool yaml_escaped_at(const char *c) {
    size_t w = 0;
    uint32_t r = (unsigned char)*c >= 0x80 ? names_utf8_rune((const unsigned char *)c, &w) : 0;
    return w && names_yaml_escapes(r);
}

/* Whether yaml.v3's resolver (pulumi-yaml's YAML reader) or a YAML 1.1 one reads s as a number: it
 * drops `_` between digits (1_000 is 1000) and takes Go's 0b/0o/0x prefixes in any case. */
static bool yaml_number_like(const char *s) {
    char *t = malloc(strlen(s) + 1);
    if (!t) return true;
    size_t o = 0;
    for (; *s; s++)
        if (*s != '_') t[o++] = *s;
    t[o] = 0;
    const char *u = t + (t[0] == '+' || t[0] == '-');
    char *end = t;
    bool number = u[0] == '0' && u[1] && strchr("bBoOxX", u[1]);
    if (!number && o) strtod(t, &end);
    number |= o && *end == 0;
    free(t);
    return number;
}

/* True when `s` can be written as a plain scalar and still reads back as the same string. */
static bool yaml_plain_ok(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || strchr("-?:,[]{}#&*!|>'\"%@` ", s[0]) || s[n - 1] == ' ' || s[n - 1] == ':') return false;
    for (const char *c = s; *c; c++) {
        unsigned char u = (unsigned char)*c;
        if (u < 0x20 || u == 0x7f || pcl_is_nul(c) || yaml_escaped_at(c)) return false;
        if ((c[0] == ':' && c[1] == ' ') || (c[0] == ' ' && c[1] == '#')) return false;
    }
    /* `<<` is YAML's merge key, `=` its value key (YAML 1.1) */
    static const char *const special[] = {"true", "false", "yes",  "no",    "on",    "off",  "y",  "n",
                                          "null", "~",     ".inf", "-.inf", "+.inf", ".nan", "<<", "="};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (strcasecmp(s, special[i]) == 0) return false;
    char *end;
    strtod(s, &end);
    if (*end == 0) return false; /* would read back as a number */
    /* dates, times, 0x/0o literals and sexagesimals resolve to other types in YAML 1.1 readers */
    if (isdigit((unsigned char)s[0]) || s[0] == '.' || s[0] == '+') {
        for (const char *c = s; *c; c++)
            if (*c == '-' || *c == ':' || *c == 'x' || *c == 'o' || *c == ' ') return false;
        if (yaml_number_like(s)) return false;
    }
    return true;
}

/* A literal block scalar keeps multi-line text readable; only used when it round-trips exactly
 * (no leading space on the first line, no whitespace-only lines, no control characters). */
static bool yaml_block_ok(const char *s) {
    if (!strchr(s, '\n') || s[0] == ' ' || s[0] == '\n') return false;
    const char *line = s;
    for (const char *c = s;; c++) {
        unsigned char u = (unsigned char)*c;
        if (u == '\n' || u == 0) {
            bool blank = c > line;
            for (const char *k = line; k < c; k++)
                blank &= *k == ' ' || *k == '\t';
            if (blank) return false;
            if (!u) break;
            line = c + 1;
            continue;
        }
        if ((u < 0x20 && u != '\t') || u == 0x7f || pcl_is_nul(c) || yaml_escaped_at(c)) return false;
    }
    return true;
}

/* Text as pulumi-yaml reads it back: every string of a program (a value, an object's key, a
 * resource's name) is parsed for interpolation, where `$$` is one `$` and `${` starts a reference,
 * so each `$` of the text is written `$$` (as pulumi-yaml's own InterpolateExpr.String writes it). */
static void yaml_append_text(buf_t *b, const char *s) {
    for (const char *c = s; *c; c++) {
        if (*c == '$') buf_putc(b, '$');
        buf_putc(b, *c);
    }
}

static const char *yaml_text(yaml_gen_t *g, const char *s) {
    if (!strchr(s, '$')) return s;
    buf_t t;
    buf_init(&t);
    yaml_append_text(&t, s);
    char *r = buf_arena_str(&t, g->a);
    buf_free(&t);
    return r;
}

/* Writes a string scalar (after `: ` or `- `): text (its `$` escaped, yaml_text), or with
 * `interpolate` text already in Pulumi YAML's interpolation syntax (`a-${res.prop}`). */
static void yaml_string(yaml_gen_t *g, const char *raw, int indent, bool interpolate) {
    const char *s = interpolate ? raw : yaml_text(g, raw);
    if (yaml_block_ok(s)) {
        size_t n = strlen(s), trail = 0;
        while (trail < n && s[n - 1 - trail] == '\n')
            trail++;
        buf_puts(g->b, trail == 0 ? "|-" : trail == 1 ? "|" : "|+");
        const char *line = s;
        for (const char *c = s;; c++) {
            if (*c == '\n' || *c == 0) {
                if (c > line || *c == '\n') {
                    buf_putc(g->b, '\n');
                    if (c > line) {
                        buf_indent(g->b, indent);
                        buf_append(g->b, line, (size_t)(c - line));
                    }
                }
                if (!*c) break;
                line = c + 1;
            }
        }
        /* each line is written after its preceding line break; the caller ends the last one */
        return;
    }
    if (yaml_plain_ok(s))
        buf_puts(g->b, s);
    else
        names_append_quoted(g->b, LANG_YAML, s);
}

static void yaml_key(yaml_gen_t *g, const char *k) {
    if (yaml_plain_ok(k))
        buf_puts(g->b, k);
    else
        names_append_quoted(g->b, LANG_YAML, k);
}

/* An object's key in an expression (pulumi-yaml interpolates it as it does a value); the keys of
 * the program's sections and of a resource's properties are names, read as written (yaml_key). */
static void yaml_object_key(yaml_gen_t *g, const char *k) {
    yaml_key(g, yaml_text(g, k));
}

/* `root.attr[0]["k"]`: a property path (ignoreChanges), not a reference. */
static char *yaml_path_text(yaml_gen_t *g, const pcl_expr_t *e) {
    buf_t t;
    buf_init(&t);
    buf_puts(&t, e->trav.root);
    emit_append_trav_parts(&t, LANG_YAML, e->trav.parts, 0, e->trav.n, g->a, NULL);
    char *r = buf_arena_str(&t, g->a);
    buf_free(&t);
    return r;
}

/* A read's parts as pulumi-yaml's property access reads them (ast/property.go): `.attr`, `[0]`, and
 * `["key"]` with the key as it is but for its `"`, written \" (the one escape it knows; the check
 * refuses a key ending in a backslash, which would escape the closing quote). */
static void yaml_append_access(buf_t *b, const pcl_trav_part_t *parts, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const pcl_trav_part_t *pt = &parts[i];
        if (pt->attr) {
            buf_putc(b, '.');
            buf_puts(b, pt->attr);
        } else if (pt->index_is_string) {
            buf_puts(b, "[\"");
            for (const char *c = pt->index_str; *c; c++) {
                if (*c == '"') buf_putc(b, '\\');
                buf_putc(b, *c);
            }
            buf_puts(b, "\"]");
        } else {
            buf_printf(b, "[%zu]", pt->index_num);
        }
    }
}

/* A root of a property access: pulumi-yaml reads a name up to a `.`, `[` or `}`, so a name holding one
 * (a config key, `bucket.name`) is written as the quoted key its grammar also takes for a root,
 * `["bucket.name"]` (emit_check_program refuses such a key ending in a backslash). */
static void yaml_append_root(buf_t *b, const char *name) {
    if (!strpbrk(name, ".[}")) {
        buf_puts(b, name);
        return;
    }
    pcl_trav_part_t key = {.index_is_string = true, .index_str = name};
    yaml_append_access(b, &key, 1);
}

/* `${root.attr[0]["k"]}` with the root named as YAML names it. */
static char *yaml_traversal_text(yaml_gen_t *g, const pcl_expr_t *e) {
    buf_t t;
    buf_init(&t);
    int idx = names_table_get(g->nodes, e->trav.root);
    buf_puts(&t, "${");
    yaml_append_root(&t, idx >= 0 ? g->ref_names[idx] : e->trav.root);
    yaml_append_access(&t, e->trav.parts, e->trav.n);
    buf_putc(&t, '}');
    char *r = buf_arena_str(&t, g->a);
    buf_free(&t);
    if (idx < 0 && !pcl_program_is_external(g->p, e->trav.root))
        diag_add(g->diags, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL,
                 "reference to '%s', which the program does not declare; the YAML uses the name as is", e->trav.root);
    return r;
}

/* An attribute of an invoke's result: `fn::invoke` with `return: <attr>`. */
static bool yaml_invoke_return(const pcl_expr_t *e) {
    return e->kind == PCL_GETATTR && emit_is_invoke(e->x);
}

/* A read below an invoke's result deeper than one attribute (`invoke(...).a[0]["k"]`), or below
 * another value (emit_yaml_read_base): the expression a variable holds. */
static const pcl_expr_t *yaml_deep_invoke(const yaml_gen_t *g, const pcl_expr_t *e) {
    if ((e->kind != PCL_GETATTR && e->kind != PCL_INDEX) || yaml_invoke_return(e)) return NULL;
    const pcl_expr_t *fc = emit_fn_call_under(e);
    if (fc && emit_is_invoke(fc)) return fc;
    return emit_yaml_read_base(g->p, g->nodes, e);
}

/* `${var.a[0]["k"]}`: the read through the variable holding the invoke (yaml_hoist). */
static char *yaml_deep_read_text(yaml_gen_t *g, const pcl_expr_t *e) {
    const pcl_expr_t *fc = yaml_deep_invoke(g, e);
    size_t n = 0;
    for (const pcl_expr_t *k = e; k != fc; k = k->x)
        n++;
    pcl_trav_part_t *parts = arena_alloc(g->a, n * sizeof *parts);
    size_t i = n;
    for (const pcl_expr_t *k = e; k != fc; k = k->x) {
        pcl_trav_part_t *pt = &parts[--i];
        memset(pt, 0, sizeof *pt);
        if (k->kind == PCL_GETATTR)
            pt->attr = k->s;
        else if (k->y->kind == PCL_STRING)
            pt->index_is_string = true, pt->index_str = k->y->s;
        else
            pt->index_num = (size_t)k->y->n;
    }
    const char *name = "?";
    for (size_t h = 0; h < g->n_hoisted; h++)
        if (g->hoisted[h].invoke == fc) name = g->hoisted[h].name;
    buf_t t;
    buf_init(&t);
    buf_printf(&t, "${%s", name);
    yaml_append_access(&t, parts, n);
    buf_putc(&t, '}');
    char *r = buf_arena_str(&t, g->a);
    buf_free(&t);
    return r;
}

/* Names a variable for each invoke read deeper than one attribute: `<function>Result`, unique
 * among the program's names and the other such variables. */
static bool yaml_hoist(const pcl_expr_t *e, void *ctx) {
    yaml_gen_t *g = ctx;
    const pcl_expr_t *fc = yaml_deep_invoke(g, e);
    if (!fc) return true;
    for (size_t h = 0; h < g->n_hoisted; h++)
        if (g->hoisted[h].invoke == fc) return true;
    char *pkg, *mod, *member;
    bool value = fc->kind == PCL_TUPLE || fc->kind == PCL_OBJECT;
    const char *stem = fc->kind == PCL_TUPLE                                               ? "list"
                       : fc->kind == PCL_OBJECT                                            ? "object"
                       : fc->kind == PCL_INDEX /* emit_yaml_selects: fn::select */         ? "select"
                       : !fc->function                                                     ? fc->call.name
                       : names_token_split(g->a, fc->function->token, &pkg, &mod, &member) ? member
                                                                                           : "invoke";
    const char *suffix = value ? "Value" : "Result";
    const char *name = arena_sprintf(g->a, "%s%s", stem, suffix);
    for (int k = 2;; k++) {
        bool taken = names_table_get(g->nodes, name) >= 0;
        for (size_t h = 0; h < g->n_hoisted; h++)
            taken |= strcmp(g->hoisted[h].name, name) == 0;
        if (!taken) break;
        name = arena_sprintf(g->a, "%s%s%d", stem, suffix, k);
    }
    if (g->n_hoisted == g->cap_hoisted) {
        size_t cap = g->cap_hoisted ? 2 * g->cap_hoisted : 4;
        yaml_hoisted_t *h = arena_alloc(g->a, cap * sizeof *h);
        if (g->n_hoisted) memcpy(h, g->hoisted, g->n_hoisted * sizeof *h);
        g->hoisted = h, g->cap_hoisted = cap;
    }
    g->hoisted[g->n_hoisted++] = (yaml_hoisted_t){.invoke = fc, .name = name};
    return true;
}

static char *yaml_stack_output_text(yaml_gen_t *g, const pcl_expr_t *e) {
    pcl_trav_part_t parts[2] = {{.attr = "outputs"}, {.index_is_string = true, .index_str = e->call.args[1]->s}};
    pcl_expr_t ref = *e->call.args[0];
    ref.trav.parts = parts;
    ref.trav.n = 2;
    return yaml_traversal_text(g, &ref);
}

/* A template part Pulumi YAML writes inside the string: text, a reference, a Pulumi variable (a
 * number's or a lone bool's is fn::toJSON of it, emit_yaml_part_as_json). */
static bool yaml_interpolated_part(const yaml_gen_t *g, const pcl_expr_t *tmpl, const pcl_expr_t *part) {
    return (part->kind == PCL_STRING || part->kind == PCL_TRAVERSAL || emit_yaml_interpolates(part) ||
            yaml_deep_invoke(g, part)) &&
           !emit_yaml_part_as_json(g->p, g->nodes, tmpl, part);
}

/* A template with another part (a function call, a read below an invoke, a number): its parts joined. */
static bool yaml_template_joins(const yaml_gen_t *g, const pcl_expr_t *e) {
    if (e->kind != PCL_TEMPLATE) return false;
    for (size_t i = 0; i < e->tuple.n; i++)
        if (!yaml_interpolated_part(g, e, e->tuple.items[i])) return true;
    return false;
}

/* toJSON(part): Go's json.Marshal writes a float64 as JavaScript's String does, a bool true/false. */
static pcl_expr_t *yaml_to_json(yaml_gen_t *g, pcl_expr_t *part) {
    pcl_expr_t *call = arena_alloc(g->a, sizeof *call);
    *call = (pcl_expr_t){.kind = PCL_CALL, .line = part->line, .col = part->col};
    call->call.name = "toJSON";
    call->call.args = arena_alloc(g->a, sizeof(pcl_expr_t *));
    call->call.args[0] = part;
    call->call.n = 1;
    return call;
}

/* The template part as a string: fn::toJSON of a number or a lone bool, the part itself otherwise. */
static pcl_expr_t *yaml_part_string(yaml_gen_t *g, const pcl_expr_t *tmpl, pcl_expr_t *part) {
    return emit_yaml_part_as_json(g->p, g->nodes, tmpl, part) ? yaml_to_json(g, part) : part;
}

/* A config number, integer or bool where the schema wants a string (emit_yaml_config_to_string): PCL's
 * text of it, written as the template "${value}" is (yaml_part_string): fn::toJSON of it; else e. */
static const pcl_expr_t *yaml_converted(yaml_gen_t *g, const pcl_expr_t *e) {
    if (!emit_yaml_config_to_string(g->p, g->nodes, e)) return e;
    pcl_expr_t *part = arena_alloc(g->a, sizeof *part);
    *part = *e;
    part->type = NULL; /* the config value itself, not converted again */
    return yaml_to_json(g, part);
}

static bool yaml_is_collection(const yaml_gen_t *g, const pcl_expr_t *e) {
    if (yaml_deep_invoke(g, e)) return false; /* read through its variable */
    return (e->kind == PCL_TUPLE && e->tuple.n) || (e->kind == PCL_OBJECT && e->object.n) ||
           (e->kind == PCL_CALL && !emit_yaml_interpolates(e)) || yaml_invoke_return(e) || yaml_template_joins(g, e) ||
           emit_yaml_selects(g->p, g->nodes, e);
}

/* Pulumi YAML interpolates references in strings: "a-${res.prop}". */
static void yaml_template(yaml_gen_t *g, const pcl_expr_t *e, int indent) {
    buf_t t;
    buf_init(&t);
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *part = e->tuple.items[i];
        if (part->kind == PCL_TRAVERSAL) {
            buf_puts(&t, yaml_traversal_text(g, part));
            continue;
        }
        if (yaml_deep_invoke(g, part)) { /* read through the variable holding it */
            buf_puts(&t, yaml_deep_read_text(g, part));
            continue;
        }
        if (part->kind == PCL_CALL) { /* emit_yaml_interpolates */
            buf_puts(&t, emit_yaml_pulumi_variable(part) ? emit_yaml_pulumi_variable(part)
                                                         : yaml_stack_output_text(g, part));
            continue;
        }
        yaml_append_text(&t, part->s);
    }
    yaml_string(g, buf_arena_str(&t, g->a), indent, true);
    buf_free(&t);
}

/* A scalar or empty collection on the current line. */
static void yaml_inline(yaml_gen_t *g, const pcl_expr_t *e, int indent) {
    switch (e->kind) {
    case PCL_NULL: buf_puts(g->b, "null"); break;
    case PCL_BOOL: buf_puts(g->b, e->b ? "true" : "false"); break;
    case PCL_NUMBER: names_append_number(g->b, e->n); break;
    case PCL_STRING: yaml_string(g, e->s, indent, false); break;
    case PCL_TUPLE: buf_puts(g->b, "[]"); break;
    case PCL_OBJECT: buf_puts(g->b, "{}"); break;
    case PCL_TRAVERSAL:
        yaml_string(g, yaml_traversal_text(g, e), indent, true);
        break;
    EMIT_CASE_LANGUAGE_EXPRS:
        if (e->kind == PCL_TEMPLATE)
            yaml_template(g, e, indent);
        else if (yaml_deep_invoke(g, e))
            yaml_string(g, yaml_deep_read_text(g, e), indent, true);
        else
            emit_unwritable(g->diags, e, LANG_YAML);
        break;
    case PCL_CALL: /* only a Pulumi variable or a stack reference's output is inline (yaml_is_collection) */
        if (emit_yaml_pulumi_variable(e)) yaml_string(g, emit_yaml_pulumi_variable(e), indent, true);
        if (emit_yaml_stack_output(e)) yaml_string(g, yaml_stack_output_text(g, e), indent, true);
        break;
    }
}

/* Mapping entries at `indent`, the first one possibly already positioned (after `- `). */
static void yaml_entries(yaml_gen_t *g, const pcl_object_item_t *items, size_t n, int indent, bool first_inline) {
    for (size_t i = 0; i < n; i++) {
        if (i > 0 || !first_inline) buf_indent(g->b, indent);
        yaml_object_key(g, items[i].key);
        buf_putc(g->b, ':');
        yaml_block(g, items[i].value, indent + 2);
    }
}

/* Pulumi YAML's invoke: `fn::invoke: {function, arguments, options, return}`; positional
 * arguments (multi-argument inputs) by their input names. `ret` is the attribute read, or NULL. */
static void yaml_invoke(yaml_gen_t *g, const pcl_expr_t *e, const char *ret, int indent, bool first_inline) {
    if (!first_inline) buf_indent(g->b, indent);
    buf_puts(g->b, "fn::invoke:\n");
    buf_indent(g->b, indent + 2);
    buf_puts(g->b, "function:");
    /* collapsed as pulumi-yaml writes tokens: `pkg:index:fn` → `pkg:fn` */
    pcl_expr_t tok = {.kind = PCL_STRING, .s = yaml_collapse_token(g->a, e->function->token)};
    yaml_block(g, &tok, indent + 4);
    bool positional = e->function->multi_argument && e->call.n >= 2 && e->call.args[1]->kind != PCL_OBJECT;
    if (positional) {
        buf_indent(g->b, indent + 2);
        buf_puts(g->b, "arguments:\n");
        for (size_t i = 1; i < e->call.n && i - 1 < e->function->n_multi_args; i++) {
            buf_indent(g->b, indent + 4);
            yaml_key(g, e->function->multi_args[i - 1]);
            buf_putc(g->b, ':');
            yaml_block(g, e->call.args[i], indent + 6);
        }
    } else if (e->call.n >= 2 && e->call.args[1]->object.n) {
        buf_indent(g->b, indent + 2);
        buf_puts(g->b, "arguments:");
        yaml_block(g, e->call.args[1], indent + 4);
    }
    if (e->call.n == 3 && !positional && e->call.args[2]->object.n) {
        const pcl_expr_t *o = e->call.args[2];
        buf_indent(g->b, indent + 2);
        buf_puts(g->b, "options:\n");
        for (size_t i = 0; i < o->object.n; i++) {
            const char *key = o->object.items[i].key;
            buf_indent(g->b, indent + 4);
            buf_printf(g->b, "%s:", strcmp(key, "pluginDownloadUrl") == 0 ? "pluginDownloadURL" : key);
            yaml_block(g, o->object.items[i].value, indent + 6);
        }
    }
    if (ret) {
        buf_indent(g->b, indent + 2);
        buf_printf(g->b, "return: %s\n", ret);
    }
}

static void yaml_call(yaml_gen_t *g, const pcl_expr_t *e, int indent, bool first_inline);

/* The PCL call name(a, b), written as yaml_call writes it. */
static void yaml_call2(yaml_gen_t *g, const char *name, pcl_expr_t *a, pcl_expr_t *b, int indent, bool first_inline) {
    pcl_expr_t *args[2] = {a, b};
    pcl_expr_t call = {.kind = PCL_CALL};
    call.call.name = name;
    call.call.args = args;
    call.call.n = 2;
    yaml_call(g, &call, indent, first_inline);
}

/* A function call as the one-entry mapping `fn::name: arg` (args as a list when not exactly one). */
static void yaml_call(yaml_gen_t *g, const pcl_expr_t *e, int indent, bool first_inline) {
    if (emit_yaml_selects(g->p, g->nodes, e)) { /* l[i]: element(l, i), written fn::select [i, l] */
        yaml_call2(g, "element", e->x, e->y, indent, first_inline);
        return;
    }
    if (yaml_template_joins(g, e) && e->tuple.n == 1) { /* "${n}": fn::toJSON of it, no join */
        yaml_call(g, yaml_part_string(g, e, e->tuple.items[0]), indent, first_inline);
        return;
    }
    if (yaml_template_joins(g, e)) { /* fn::join ["", [parts]]: each run of text and references one string */
        pcl_expr_t **parts = arena_alloc(g->a, (e->tuple.n + 1) * sizeof(pcl_expr_t *));
        size_t n = 0;
        for (size_t i = 0; i < e->tuple.n;) {
            if (!yaml_interpolated_part(g, e, e->tuple.items[i])) {
                parts[n++] = yaml_part_string(g, e, e->tuple.items[i++]);
                continue;
            }
            pcl_expr_t *run = arena_alloc(g->a, sizeof *run);
            *run = (pcl_expr_t){.kind = PCL_TEMPLATE, .line = e->line, .col = e->col};
            run->tuple.items = &e->tuple.items[i];
            while (i < e->tuple.n && yaml_interpolated_part(g, e, e->tuple.items[i]))
                run->tuple.n++, i++;
            parts[n++] = run;
        }
        pcl_expr_t sep = {.kind = PCL_STRING, .s = ""}, list = {.kind = PCL_TUPLE};
        list.tuple.items = parts;
        list.tuple.n = n;
        yaml_call2(g, "join", &sep, &list, indent, first_inline);
        return;
    }
    if (yaml_invoke_return(e)) {
        yaml_invoke(g, e->x, e->s, indent, first_inline);
        return;
    }
    if (emit_is_invoke(e)) {
        yaml_invoke(g, e, NULL, indent, first_inline);
        return;
    }
    /* Pulumi YAML's built-in functions of the same name and arguments */
    static const char *const known[] = {"secret",
                                        "fileAsset",
                                        "stringAsset",
                                        "remoteAsset",
                                        "fileArchive",
                                        "remoteArchive",
                                        "assetArchive",
                                        "toBase64",
                                        "fromBase64",
                                        "toJSON",
                                        "readFile",
                                        "join",
                                        "split",
                                        "sha1",
                                        "length",
                                        "filebase64",
                                        "singleOrNone",
                                        "filebase64sha256",
                                        "pulumiResourceName",
                                        "pulumiResourceType",
                                        "unsecret"};
    bool ok = strcmp(e->call.name, "element") == 0;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        ok |= strcmp(known[i], e->call.name) == 0;
    if (!ok)
        diag_add(g->diags, DIAG_ERROR, DIAG_CODEGEN, NULL, NULL,
                 "%d:%d: the YAML emitter does not know the PCL function '%s'", e->line, e->col, e->call.name);
    if (!first_inline) buf_indent(g->b, indent);
    if (e->call.n == 1) {
        buf_printf(g->b, "fn::%s:", e->call.name);
        yaml_block(g, e->call.args[0], indent + 2);
        return;
    }
    /* element(list, index) is fn::select [index, list] */
    bool select = strcmp(e->call.name, "element") == 0 && e->call.n == 2;
    pcl_expr_t *swapped[2];
    pcl_expr_t list = {.kind = PCL_TUPLE};
    list.tuple.items = e->call.args;
    list.tuple.n = e->call.n;
    pcl_expr_t wrapped = {.kind = PCL_NUMBER};
    if (select && emit_element_index(e, &wrapped.n)) { /* PCL's index modulo the length (emit_check_program) */
        wrapped.line = e->call.args[1]->line, wrapped.col = e->call.args[1]->col;
        swapped[0] = &wrapped;
        swapped[1] = e->call.args[0];
        list.tuple.items = swapped;
    } else if (select) {
        swapped[0] = e->call.args[1];
        swapped[1] = e->call.args[0];
        list.tuple.items = swapped;
    }
    buf_printf(g->b, "fn::%s:", select ? "select" : e->call.name);
    yaml_block(g, &list, indent + 2);
}

/* Sequence items at `indent`: `- scalar`, `- k: v` with further keys aligned under `k`. */
static void yaml_items(yaml_gen_t *g, const pcl_expr_t *e, int indent) {
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *it = yaml_converted(g, e->tuple.items[i]);
        buf_indent(g->b, indent);
        buf_putc(g->b, '-');
        if (!yaml_is_collection(g, it)) {
            buf_putc(g->b, ' ');
            yaml_inline(g, it, indent + 2);
            buf_putc(g->b, '\n');
        } else if (it->kind == PCL_OBJECT) {
            buf_putc(g->b, ' ');
            yaml_entries(g, it->object.items, it->object.n, indent + 2, true);
        } else if (it->kind == PCL_CALL || yaml_invoke_return(it) || yaml_template_joins(g, it) ||
                   emit_yaml_selects(g->p, g->nodes, it)) {
            buf_putc(g->b, ' ');
            yaml_call(g, it, indent + 2, true);
        } else {
            buf_putc(g->b, '\n');
            yaml_items(g, it, indent + 2);
        }
    }
}

/* The value after `key:` — inline scalars on the same line, collections on the lines below. */
static void yaml_block(yaml_gen_t *g, const pcl_expr_t *e, int indent) {
    e = yaml_converted(g, e);
    if (!yaml_is_collection(g, e)) {
        buf_putc(g->b, ' ');
        yaml_inline(g, e, indent);
        buf_putc(g->b, '\n');
        return;
    }
    buf_putc(g->b, '\n');
    if (e->kind == PCL_OBJECT)
        yaml_entries(g, e->object.items, e->object.n, indent, false);
    else if (e->kind == PCL_CALL || yaml_invoke_return(e) || yaml_template_joins(g, e) ||
             emit_yaml_selects(g->p, g->nodes, e))
        yaml_call(g, e, indent, false);
    else
        yaml_items(g, e, indent);
}

/* pulumi-yaml's genResourceOpts order. */
static const char *const YAML_OPTIONS[] = {"provider",
                                           "parent",
                                           "providers",
                                           "dependsOn",
                                           "replaceWith",
                                           "ignoreChanges",
                                           "protect",
                                           "import",
                                           "hideDiffs",
                                           "deletedWith",
                                           "aliases",
                                           "customTimeouts",
                                           "retainOnDelete",
                                           "deleteBeforeReplace",
                                           "additionalSecretOutputs",
                                           "replaceOnChanges",
                                           "replacementTrigger",
                                           "envVarMappings",
                                           "version",
                                           "pluginDownloadURL"};

static bool yaml_refers_to_component(yaml_gen_t *g, const pcl_expr_t *e) {
    if (e->kind != PCL_TRAVERSAL) return false;
    int idx = names_table_get(g->nodes, e->trav.root);
    return idx >= 0 && g->p->nodes[idx].kind == PCL_NODE_COMPONENT;
}

/* An alias's parent resource as Pulumi YAML takes it (pulumi-yaml #936: a parent URN, a string or
 * a string Output): its URN, `${res.urn}`; aliases otherwise as they are. */
static const pcl_expr_t *yaml_aliases(yaml_gen_t *g, const pcl_expr_t *v) {
    if (v->kind != PCL_TUPLE) return v;
    pcl_expr_t *list = arena_alloc(g->a, sizeof *list);
    *list = *v;
    list->tuple.items = arena_alloc(g->a, (v->tuple.n + 1) * sizeof(pcl_expr_t *));
    for (size_t i = 0; i < v->tuple.n; i++) {
        pcl_expr_t *it = v->tuple.items[i];
        list->tuple.items[i] = it;
        for (size_t k = 0; it->kind == PCL_OBJECT && k < it->object.n; k++) {
            const pcl_expr_t *p = it->object.items[k].value;
            if (strcmp(it->object.items[k].key, "parent") != 0 || p->kind != PCL_TRAVERSAL || p->trav.n) continue;
            pcl_expr_t *o = arena_alloc(g->a, sizeof *o);
            *o = *it;
            o->object.items = arena_alloc(g->a, it->object.n * sizeof *o->object.items);
            memcpy(o->object.items, it->object.items, it->object.n * sizeof *o->object.items);
            pcl_expr_t *urn = arena_alloc(g->a, sizeof *urn);
            *urn = *p;
            urn->trav.parts = arena_alloc(g->a, sizeof *urn->trav.parts);
            urn->trav.parts[0] = (pcl_trav_part_t){.attr = "urn"};
            urn->trav.n = 1;
            o->object.items[k].value = urn;
            list->tuple.items[i] = it = o;
        }
    }
    return list;
}

static void yaml_options(yaml_gen_t *g, const pcl_node_t *n) {
    bool header = false;
    for (size_t k = 0; k < sizeof YAML_OPTIONS / sizeof YAML_OPTIONS[0]; k++) {
        for (size_t i = 0; i < n->n_options; i++) {
            const pcl_attr_t *o = &n->options[i];
            if (strcmp(o->name, YAML_OPTIONS[k]) != 0) continue;
            if (yaml_refers_to_component(g, o->value)) {
                diag_add(g->diags, DIAG_WARNING, DIAG_CODEGEN, NULL,
                         arena_sprintf(g->a, "resource '%s' of type '%s'", node_logical_name(n), n->token),
                         "its %s '%s' is a local component, which Pulumi YAML cannot declare; the option was left "
                         "out",
                         o->name, o->value->trav.root);
                continue;
            }
            if (!header) buf_puts(g->b, "    options:\n");
            header = true;
            buf_printf(g->b, "      %s:", o->name);
            if (pcl_option_kind(o->name) == PCL_OPT_PATHS && o->value->kind == PCL_TUPLE && o->value->tuple.n) {
                /* property paths, bare: `- tags`, `- rules[0].port` */
                buf_putc(g->b, '\n');
                for (size_t j = 0; j < o->value->tuple.n; j++) {
                    const pcl_expr_t *it = o->value->tuple.items[j];
                    buf_puts(g->b, "        - ");
                    if (it->kind == PCL_TRAVERSAL) {
                        yaml_string(g, yaml_path_text(g, it), 10, false);
                    } else {
                        yaml_inline(g, it, 10);
                    }
                    buf_putc(g->b, '\n');
                }
            } else if (strcmp(o->name, "providers") == 0 && o->value->kind == PCL_OBJECT) {
                /* Pulumi YAML's providers are a list: the map's values (each keyed by its own package) */
                pcl_expr_t list = {.kind = PCL_TUPLE};
                list.tuple.n = o->value->object.n;
                list.tuple.items = arena_alloc(g->a, (list.tuple.n + 1) * sizeof(pcl_expr_t *));
                for (size_t j = 0; j < list.tuple.n; j++)
                    list.tuple.items[j] = o->value->object.items[j].value;
                yaml_block(g, &list, 8);
            } else {
                yaml_block(g, pcl_option_kind(o->name) == PCL_OPT_ALIASES ? yaml_aliases(g, o->value) : o->value, 8);
            }
        }
    }
}

static void yaml_resource(yaml_gen_t *g, const pcl_node_t *n) {
    buf_puts(g->b, "  ");
    yaml_key(g, n->name);
    buf_puts(g->b, ":\n    type: ");
    yaml_string(g, yaml_collapse_token(g->a, n->token), 6, true);
    buf_putc(g->b, '\n');
    if (n->logical_name && strcmp(n->logical_name, n->name) != 0) {
        buf_puts(g->b, "    name: ");
        yaml_string(g, n->logical_name, 6, false);
        buf_putc(g->b, '\n');
    }
    /* a read is `get: {id, state}`: the existing resource's ID and the state it is looked up by */
    int ind = n->read ? 8 : 6;
    const pcl_attr_t *id = NULL;
    size_t n_props = 0;
    for (size_t i = 0; i < n->n_attrs; i++)
        if (n->read && strcmp(n->attrs[i].name, "id") == 0)
            id = &n->attrs[i];
        else
            n_props++;
    if (id) {
        buf_puts(g->b, "    get:\n      id:");
        yaml_block(g, id->value, 8);
    }
    if (n_props) buf_puts(g->b, n->read ? "      state:\n" : "    properties:\n");
    for (size_t i = 0; i < n->n_attrs; i++) {
        if (&n->attrs[i] == id) continue;
        const pcl_expr_t *v = n->attrs[i].value;
        /* an input the schema marks secret is secret anyway: the wrapper adds nothing at the top level
         * (as pulumi-yaml's generator writes it); any other input keeps its fn::secret */
        const schema_property_t *prop =
            n->schema ? schema_find_property(n->schema->inputs, n->schema->n_inputs, n->attrs[i].name) : NULL;
        if (prop && prop->secret && v->kind == PCL_CALL && strcmp(v->call.name, "secret") == 0 && v->call.n == 1)
            v = v->call.args[0];
        buf_indent(g->b, ind);
        yaml_key(g, n->attrs[i].name);
        buf_putc(g->b, ':');
        yaml_block(g, v, ind + 2);
    }
    yaml_options(g, n);
}

/* Pulumi YAML's config types as its language host parses them and pulumi-yaml's generator spells
 * them: string, int, number, boolean, list<T> and object (any map or object). */
static const emit_cfg_names_t YAML_CFG = {
    .scalar = {"string", "int", "number", "boolean"},
    .list = "list<%s>",
    .any = "object",
};

/* The sections of Pulumi YAML's program in its order, each filled by emit_nodes' writers (the node
 * walk every language shares) for its nodes in the program's order. */
enum { YAML_CONFIG, YAML_PULUMI, YAML_VARIABLES, YAML_RESOURCES, YAML_OUTPUTS, YAML_SECTIONS };

typedef struct yaml_walk {
    yaml_gen_t *g;
    buf_t sections[YAML_SECTIONS];
} yaml_walk_t;

/* The node's section, where the writer writes (g->b). */
static yaml_gen_t *yaml_in(void *gen, int section) {
    yaml_walk_t *w = gen;
    w->g->b = &w->sections[section];
    return w->g;
}

static void yaml_config_node(void *gen, size_t i, bool first) {
    (void)first;
    yaml_gen_t *g = yaml_in(gen, YAML_CONFIG);
    const pcl_node_t *n = &g->p->nodes[i];
    buf_puts(g->b, "  ");
    yaml_key(g, g->ref_names[i]);
    buf_printf(g->b, ":\n    type: %s\n", emit_config_type_name(g->a, emit_config_type(g->a, n->token), &YAML_CFG));
    if (n->config_secret) buf_puts(g->b, "    secret: true\n");
    if (n->n_attrs) { /* its default, a literal (emit_check_program) */
        buf_puts(g->b, "    default:");
        yaml_block(g, n->attrs[0].value, 6);
    }
}

/* the Pulumi CLI versions the program runs with */
static void yaml_pulumi_node(void *gen, size_t i) {
    yaml_gen_t *g = yaml_in(gen, YAML_PULUMI);
    buf_puts(g->b, "pulumi:\n  requiredPulumiVersion:");
    yaml_block(g, g->p->nodes[i].attrs[0].value, 4);
}

/* Pulumi YAML's locals, referenced as ${name} */
static void yaml_local_node(void *gen, size_t i) {
    yaml_gen_t *g = yaml_in(gen, YAML_VARIABLES);
    buf_puts(g->b, "  ");
    yaml_key(g, g->p->nodes[i].name);
    buf_putc(g->b, ':');
    yaml_block(g, g->p->nodes[i].attrs[0].value, 4);
}

static void yaml_resource_node(void *gen, size_t i) {
    yaml_gen_t *g = yaml_in(gen, YAML_RESOURCES);
    yaml_resource(g, &g->p->nodes[i]);
}

static void yaml_component_node(void *gen, size_t i) {
    yaml_gen_t *g = yaml_in(gen, YAML_RESOURCES);
    const pcl_node_t *n = &g->p->nodes[i];
    diag_add(g->diags, DIAG_WARNING, DIAG_CODEGEN, NULL,
             arena_sprintf(g->a, "component '%s' of type '%s'", node_logical_name(n), n->token ? n->token : "?"),
             "Pulumi YAML cannot declare local components, so it was left out of the YAML program; "
             "generate TypeScript or Python to keep it, or import its children without a parent");
}

static void yaml_output_node(void *gen, size_t i) {
    yaml_gen_t *g = yaml_in(gen, YAML_OUTPUTS);
    const pcl_node_t *n = &g->p->nodes[i];
    buf_puts(g->b, "  ");
    yaml_key(g, n->logical_name ? n->logical_name : n->name);
    buf_putc(g->b, ':');
    yaml_block(g, n->attrs[0].value, 4);
}

/* Pulumi YAML has no hooks: emit_check_program refuses them. */
static void yaml_hook_node(void *gen, size_t i) {
    (void)gen;
    (void)i;
}

static const emit_node_writers_t YAML_WRITERS = {.resource = yaml_resource_node,
                                                 .component = yaml_component_node,
                                                 .output = yaml_output_node,
                                                 .hook = yaml_hook_node,
                                                 .pulumi = yaml_pulumi_node,
                                                 .local = yaml_local_node,
                                                 .config = yaml_config_node};

/* --- values computed when written (emit_yaml_fold) ------------------------------------------------ */

typedef struct yaml_folding {
    pcl_folder_t *folder;
    arena_t *a;
} yaml_folding_t;

/* What Pulumi YAML has no way to write but its value: operators, conditionals, loops, max and min. */
static bool yaml_folds(const pcl_expr_t *e) {
    return e->kind == PCL_UNARY || e->kind == PCL_BINARY || e->kind == PCL_COND || e->kind == PCL_FOR ||
           e->kind == PCL_SPLAT ||
           (e->kind == PCL_CALL && (strcmp(e->call.name, "max") == 0 || strcmp(e->call.name, "min") == 0));
}

/* A template interpolating one of them ("${i + 1}"): folded whole when it can be. */
static bool yaml_template_folds(const pcl_expr_t *e) {
    for (size_t i = 0; e->kind == PCL_TEMPLATE && i < e->tuple.n; i++)
        if (yaml_folds(e->tuple.items[i])) return true;
    return false;
}

static pcl_expr_t *yaml_fold_expr(yaml_folding_t *y, pcl_expr_t *e);

/* The expressions folded, or `items` itself when none changed. */
static pcl_expr_t **yaml_fold_items(yaml_folding_t *y, pcl_expr_t **items, size_t n) {
    pcl_expr_t **out = items;
    for (size_t i = 0; i < n; i++) {
        pcl_expr_t *v = yaml_fold_expr(y, items[i]);
        if (v == items[i]) continue;
        if (out == items) {
            out = arena_alloc(y->a, n * sizeof(pcl_expr_t *));
            memcpy(out, items, n * sizeof(pcl_expr_t *));
        }
        out[i] = v;
    }
    return out;
}

/* e with each outermost expression yaml_folds names replaced by its value where that is certain;
 * e itself when nothing folds. A for expression's body is left as it is: its variables hide names
 * the folder would read. */
static pcl_expr_t *yaml_fold_expr(yaml_folding_t *y, pcl_expr_t *e) {
    if (!e) return NULL;
    if (yaml_folds(e) || yaml_template_folds(e)) {
        const pcl_expr_t *v = pcl_fold(y->folder, e);
        if (v) {
            pcl_expr_t *r = arena_alloc(y->a, sizeof *r);
            *r = *v;
            r->type = e->type; /* the position's schema type, as the expression had it */
            r->line = e->line, r->col = e->col;
            return r;
        }
    }
    pcl_expr_t c = *e;
    bool changed = false;
    switch (e->kind) {
    case PCL_TUPLE:
    case PCL_TEMPLATE:
        c.tuple.items = yaml_fold_items(y, e->tuple.items, e->tuple.n);
        changed = c.tuple.items != e->tuple.items;
        break;
    case PCL_CALL:
        c.call.args = yaml_fold_items(y, e->call.args, e->call.n);
        changed = c.call.args != e->call.args;
        break;
    case PCL_OBJECT:
        for (size_t i = 0; i < e->object.n; i++) {
            pcl_expr_t *v = yaml_fold_expr(y, e->object.items[i].value);
            if (v == e->object.items[i].value) continue;
            if (!changed) {
                c.object.items = arena_alloc(y->a, e->object.n * sizeof *c.object.items);
                memcpy(c.object.items, e->object.items, e->object.n * sizeof *c.object.items);
            }
            c.object.items[i].value = v;
            changed = true;
        }
        break;
    case PCL_FOR: /* the collection only */
        c.x = yaml_fold_expr(y, e->x);
        changed = c.x != e->x;
        break;
    case PCL_UNARY:
    case PCL_BINARY:
    case PCL_COND:
    case PCL_INDEX:
    case PCL_GETATTR:
    case PCL_SPLAT:
        c.x = yaml_fold_expr(y, e->x), c.y = yaml_fold_expr(y, e->y);
        c.z = yaml_fold_expr(y, e->z), c.w = yaml_fold_expr(y, e->w);
        changed = c.x != e->x || c.y != e->y || c.z != e->z || c.w != e->w;
        break;
    case PCL_NULL:
    case PCL_BOOL:
    case PCL_NUMBER:
    case PCL_STRING:
    case PCL_TRAVERSAL: break;
    }
    if (!changed) return e;
    pcl_expr_t *r = arena_alloc(y->a, sizeof *r);
    *r = c;
    return r;
}

/* The attributes folded, or `attrs` itself when none changed. */
static pcl_attr_t *yaml_fold_attrs(yaml_folding_t *y, pcl_attr_t *attrs, size_t n) {
    pcl_attr_t *out = attrs;
    for (size_t i = 0; i < n; i++) {
        pcl_expr_t *v = yaml_fold_expr(y, attrs[i].value);
        if (v == attrs[i].value) continue;
        if (out == attrs) {
            out = arena_alloc(y->a, n * sizeof *out);
            memcpy(out, attrs, n * sizeof *out);
        }
        out[i].value = v;
    }
    return out;
}

const pcl_program_t *emit_yaml_fold(const pcl_program_t *p, arena_t *a, pcl_program_t *out) {
    yaml_folding_t y = {.folder = pcl_folder_new(a, p), .a = a};
    pcl_node_t *nodes = NULL;
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        if (n->kind == PCL_NODE_PACKAGE || n->kind == PCL_NODE_HOOK) continue; /* hooks: refused in YAML */
        pcl_attr_t *attrs = yaml_fold_attrs(&y, n->attrs, n->n_attrs);
        pcl_attr_t *options = yaml_fold_attrs(&y, n->options, n->n_options);
        if (attrs == n->attrs && options == n->options) continue;
        if (!nodes) {
            nodes = arena_alloc(a, (p->n_nodes + 1) * sizeof *nodes);
            memcpy(nodes, p->nodes, p->n_nodes * sizeof *nodes);
        }
        nodes[i].attrs = attrs;
        nodes[i].options = options;
    }
    if (!nodes) return p;
    *out = *p;
    out->nodes = nodes;
    out->cap_nodes = p->n_nodes;
    for (size_t i = 0; i < p->n_nodes; i++) /* what the emitters learnt of the values before */
        nodes[i].output_memo = nodes[i].shape_memo = 0;
    return out;
}

char *emit_yaml(const pcl_program_t *p, diag_list_t *diags) {
    buf_t out;
    buf_init(&out);
    yaml_gen_t g = {.a = arena_new(), .p = p, .diags = diags, .b = &out};
    g.nodes = names_table_new(g.a);
    g.ref_names = arena_alloc(g.a, (p->n_nodes + 1) * sizeof *g.ref_names);
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        if (n->kind == PCL_NODE_PACKAGE && n->n_params)
            diag_add(diags, DIAG_WARNING, DIAG_CODEGEN, NULL, NULL,
                     "package '%s' is parameterized: Pulumi YAML finds its types through the project's package "
                     "declaration (sdks/%s.yaml, which `pulumi package add` writes), not through the program file",
                     n->name, n->name);
        if (n->kind == PCL_NODE_PACKAGE || n->kind == PCL_NODE_OUTPUT || !n->name) continue;
        names_table_put(g.nodes, n->name, (int)i);
        g.ref_names[i] = n->kind == PCL_NODE_CONFIG && n->config_key ? n->config_key : n->name;
    }
    /* the variables holding invokes read deeply, named before any reference to them is written */
    for (size_t i = 0; i < p->n_nodes; i++) {
        const pcl_node_t *n = &p->nodes[i];
        for (size_t k = 0; n->kind != PCL_NODE_CONFIG && k < n->n_attrs; k++)
            pcl_expr_walk(n->attrs[k].value, yaml_hoist, &g);
        for (size_t k = 0; k < n->n_options; k++)
            pcl_expr_walk(n->options[k].value, yaml_hoist, &g);
    }
    yaml_walk_t w = {.g = &g};
    for (int s = 0; s < YAML_SECTIONS; s++)
        buf_init(&w.sections[s]);
    emit_nodes(p, &YAML_WRITERS, &w);
    g.b = &w.sections[YAML_VARIABLES];
    for (size_t h = 0; h < g.n_hoisted; h++) {
        buf_puts(g.b, "  ");
        yaml_key(&g, g.hoisted[h].name);
        buf_putc(g.b, ':');
        yaml_block(&g, g.hoisted[h].invoke, 4);
    }
    static const char *const heads[YAML_SECTIONS] = {"configuration:\n", "", "variables:\n", "resources:\n",
                                                     "outputs:\n"};
    for (int s = 0; s < YAML_SECTIONS; s++) { /* a section is there when a node wrote into it */
        if (w.sections[s].len) buf_puts(&out, heads[s]);
        buf_append(&out, w.sections[s].data ? w.sections[s].data : "", w.sections[s].len);
        buf_free(&w.sections[s]);
    }
    /* a program of no sections is the empty mapping, as pulumi-yaml writes it (an empty file is no document) */
    if (out.len == 0) buf_puts(&out, "{}\n");
    arena_free(g.a);
    return buf_take(&out);
}

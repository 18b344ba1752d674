/* print.c — PCL text out: the program printer (conformance style) and the literal forms.
 *
 * Layout: one blank line between blocks, 4-space indentation, `key = value`, nested objects one item
 * per line, short scalar lists inline, the `options` block last in a resource. Labels are bare
 * identifiers when valid, else quoted; the type label is always quoted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcl/pcl_internal.h"

/* A tuple is printed on one line when every item is a scalar and the line stays short. */
#define PCL_INLINE_TUPLE_MAX 80

bool pcl_is_identifier(const char *s) {
    if (!s || !*s) return false;
    unsigned char c = (unsigned char)s[0];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) return false;
    for (const unsigned char *p = (const unsigned char *)s + 1; *p; p++) {
        c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return false;
    }
    return true;
}

bool pcl_is_reserved(const char *s) {
    static const char *const words[] = {"resource", "component", "config", "output", "package", "options", "null",
                                        "true",     "false",     "for",    "in",     "if",      "pulumi",  "read",
                                        "hook",     "locals",    "else",   "endif",  "endfor"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(s, words[i]) == 0) return true;
    return false;
}

void pcl_append_string(buf_t *b, const char *s) {
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        switch (c) {
        case '"': buf_puts(b, "\\\""); break;
        case '\\': buf_puts(b, "\\\\"); break;
        case '\n': buf_puts(b, "\\n"); break;
        case '\r': buf_puts(b, "\\r"); break;
        case '\t': buf_puts(b, "\\t"); break;
        case '$':
        case '%':
            /* `${` and `%{` open templates in HCL; doubling the sigil makes them literal. */
            if (p[1] == '{') buf_putc(b, (char)c);
            buf_putc(b, (char)c);
            break;
        default:
            if (pcl_is_nul((const char *)p)) /* PCL_NUL */
                buf_puts(b, "\\u0000"), p++;
            else if (c < 0x20 || c == 0x7f)
                buf_printf(b, "\\u%04X", c);
            else
                buf_putc(b, (char)c);
        }
    }
    buf_putc(b, '"');
}

void pcl_append_number(buf_t *b, double n) {
    if (isnan(n) || isinf(n)) {
        buf_puts(b, "null");
        return;
    }
    pv_format_number(b, n);
}

pcl_option_kind_t pcl_option_kind(const char *name) {
    static const struct {
        const char *name;
        pcl_option_kind_t kind;
    } opts[] = {{"parent", PCL_OPT_RESOURCE},
                {"provider", PCL_OPT_RESOURCE},
                {"deletedWith", PCL_OPT_RESOURCE},
                {"dependsOn", PCL_OPT_RESOURCES},
                {"replaceWith", PCL_OPT_RESOURCES},
                {"protect", PCL_OPT_BOOL},
                {"retainOnDelete", PCL_OPT_BOOL},
                {"deleteBeforeReplace", PCL_OPT_BOOL},
                {"import", PCL_OPT_STRING},
                {"version", PCL_OPT_STRING},
                {"pluginDownloadURL", PCL_OPT_STRING},
                {"ignoreChanges", PCL_OPT_PATHS},
                {"replaceOnChanges", PCL_OPT_PATHS},
                {"additionalSecretOutputs", PCL_OPT_PATHS},
                {"hideDiffs", PCL_OPT_PATHS},
                {"aliases", PCL_OPT_ALIASES},
                {"customTimeouts", PCL_OPT_TIMEOUTS},
                {"range", PCL_OPT_OTHER},
                {"providers", PCL_OPT_OTHER},
                {"hooks", PCL_OPT_OTHER},
                {"replacementTrigger", PCL_OPT_OTHER},
                {"envVarMappings", PCL_OPT_OTHER}};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (opts[i].name[0] == name[0] && strcmp(name, opts[i].name) == 0) return opts[i].kind;
    return PCL_OPT_UNKNOWN;
}

int pcl_option_rank(const char *name) {
    static const char *const order[] = {"parent",        "provider",    "dependsOn",   "protect", "retainOnDelete",
                                        "ignoreChanges", "deletedWith", "replaceWith", "import"};
    for (size_t i = 0; i < sizeof order / sizeof *order; i++)
        if (strcmp(name, order[i]) == 0) return (int)i;
    return (int)(sizeof order / sizeof *order);
}

static void print_label(buf_t *b, const char *s) {
    if (pcl_is_identifier(s))
        buf_puts(b, s);
    else
        pcl_append_string(b, s);
}

static void print_expr(buf_t *b, const pcl_expr_t *e, int indent);

static bool expr_is_scalar(const pcl_expr_t *e) {
    switch (e->kind) {
    case PCL_NULL:
    case PCL_BOOL:
    case PCL_NUMBER:
    case PCL_STRING:
    case PCL_TRAVERSAL: return true;
    case PCL_CALL:
        for (size_t i = 0; i < e->call.n; i++)
            if (!expr_is_scalar(e->call.args[i])) return false;
        return true;
    case PCL_TUPLE: return e->tuple.n == 0;
    case PCL_OBJECT: return e->object.n == 0;
    case PCL_TEMPLATE:
    case PCL_UNARY:
    case PCL_BINARY:
    case PCL_COND:
    case PCL_INDEX:
    case PCL_GETATTR:
    case PCL_SPLAT:
    case PCL_FOR: return true;
    }
    return false;
}

static void print_parts(buf_t *b, const pcl_trav_part_t *parts, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const pcl_trav_part_t *t = &parts[i];
        if (t->attr) {
            buf_putc(b, '.');
            buf_puts(b, t->attr);
        } else if (t->index_is_string) {
            buf_putc(b, '[');
            pcl_append_string(b, t->index_str);
            buf_putc(b, ']');
        } else {
            buf_printf(b, "[%zu]", t->index_num);
        }
    }
}

/* A template's string chunk: as a quoted string's contents (escapes; `${` doubled). */
static void print_template(buf_t *b, const pcl_expr_t *e, int indent) {
    buf_putc(b, '"');
    for (size_t i = 0; i < e->tuple.n; i++) {
        const pcl_expr_t *part = e->tuple.items[i];
        if (part->kind == PCL_STRING) {
            size_t start = b->len;
            pcl_append_string(b, part->s);
            /* drop the quotes pcl_append_string put around the chunk */
            memmove(b->data + start, b->data + start + 1, b->len - start - 2);
            b->len -= 2;
            b->data[b->len] = 0;
        } else {
            buf_puts(b, "${");
            print_expr(b, part, indent);
            buf_putc(b, '}');
        }
    }
    buf_putc(b, '"');
}

/* Operands of operators are parenthesised unless they are primary expressions, so the printed
 * text parses back to the same tree whatever the precedence. */
static void print_operand(buf_t *b, const pcl_expr_t *e, int indent) {
    bool paren = e->kind == PCL_BINARY || e->kind == PCL_COND || e->kind == PCL_UNARY;
    if (paren) buf_putc(b, '(');
    print_expr(b, e, indent);
    if (paren) buf_putc(b, ')');
}

static void print_traversal(buf_t *b, const pcl_expr_t *e) {
    buf_puts(b, e->trav.root);
    print_parts(b, e->trav.parts, e->trav.n);
}

static void print_tuple(buf_t *b, const pcl_expr_t *e, int indent) {
    if (e->tuple.n == 0) {
        buf_puts(b, "[]");
        return;
    }
    bool inline_ok = true;
    for (size_t i = 0; i < e->tuple.n && inline_ok; i++)
        inline_ok = expr_is_scalar(e->tuple.items[i]);
    if (inline_ok) {
        size_t start = b->len;
        buf_putc(b, '[');
        for (size_t i = 0; i < e->tuple.n; i++) {
            if (i) buf_puts(b, ", ");
            print_expr(b, e->tuple.items[i], indent);
        }
        buf_putc(b, ']');
        if (b->len - start <= PCL_INLINE_TUPLE_MAX) return;
        b->len = start; /* too long for one line: print it again, one item per line */
        b->data[b->len] = 0;
    }
    buf_puts(b, "[\n");
    for (size_t i = 0; i < e->tuple.n; i++) {
        buf_indent(b, indent + 4);
        print_expr(b, e->tuple.items[i], indent + 4);
        buf_puts(b, ",\n");
    }
    buf_indent(b, indent);
    buf_putc(b, ']');
}

static void print_object(buf_t *b, const pcl_expr_t *e, int indent) {
    if (e->object.n == 0) {
        buf_puts(b, "{}");
        return;
    }
    buf_puts(b, "{\n");
    for (size_t i = 0; i < e->object.n; i++) {
        const pcl_object_item_t *it = &e->object.items[i];
        buf_indent(b, indent + 4);
        /* a bare `for` key would open a for-expression: reserved words are quoted too */
        if (!it->key_quoted && pcl_is_identifier(it->key) && !pcl_is_reserved(it->key))
            buf_puts(b, it->key);
        else
            pcl_append_string(b, it->key);
        buf_puts(b, " = ");
        print_expr(b, it->value, indent + 4);
        buf_putc(b, '\n');
    }
    buf_indent(b, indent);
    buf_putc(b, '}');
}

static void print_expr(buf_t *b, const pcl_expr_t *e, int indent) {
    if (!e) {
        buf_puts(b, "null");
        return;
    }
    switch (e->kind) {
    case PCL_NULL: buf_puts(b, "null"); break;
    case PCL_BOOL: buf_puts(b, e->b ? "true" : "false"); break;
    case PCL_NUMBER: pcl_append_number(b, e->n); break;
    case PCL_STRING: pcl_append_string(b, e->s ? e->s : ""); break;
    case PCL_TUPLE: print_tuple(b, e, indent); break;
    case PCL_OBJECT: print_object(b, e, indent); break;
    case PCL_TRAVERSAL: print_traversal(b, e); break;
    case PCL_CALL:
        buf_puts(b, e->call.name);
        buf_putc(b, '(');
        for (size_t i = 0; i < e->call.n; i++) {
            if (i) buf_puts(b, ", ");
            print_expr(b, e->call.args[i], indent);
        }
        if (e->call.expand_final) buf_puts(b, "...");
        buf_putc(b, ')');
        break;
    case PCL_TEMPLATE: print_template(b, e, indent); break;
    case PCL_UNARY:
        buf_puts(b, e->op);
        print_operand(b, e->x, indent);
        break;
    case PCL_BINARY:
        print_operand(b, e->x, indent);
        buf_printf(b, " %s ", e->op);
        print_operand(b, e->y, indent);
        break;
    case PCL_COND:
        print_operand(b, e->x, indent);
        buf_puts(b, " ? ");
        print_operand(b, e->y, indent);
        buf_puts(b, " : ");
        print_operand(b, e->z, indent);
        break;
    case PCL_INDEX:
        print_operand(b, e->x, indent);
        buf_putc(b, '[');
        print_expr(b, e->y, indent);
        buf_putc(b, ']');
        break;
    case PCL_GETATTR:
        print_operand(b, e->x, indent);
        buf_putc(b, '.');
        buf_puts(b, e->s);
        break;
    case PCL_SPLAT:
        print_operand(b, e->x, indent);
        buf_puts(b, "[*]");
        print_parts(b, e->trav.parts, e->trav.n);
        break;
    case PCL_FOR:
        buf_puts(b, e->for_object ? "{for " : "[for ");
        if (e->kvar) buf_printf(b, "%s, ", e->kvar);
        buf_printf(b, "%s in ", e->vvar);
        print_expr(b, e->x, indent);
        buf_puts(b, " : ");
        if (e->for_object) {
            print_expr(b, e->y, indent);
            buf_puts(b, " => ");
        }
        print_expr(b, e->z, indent);
        if (e->w) {
            buf_puts(b, " if ");
            print_expr(b, e->w, indent);
        }
        buf_putc(b, e->for_object ? '}' : ']');
        break;
    }
}

static void print_attrs(buf_t *b, const pcl_attr_t *attrs, size_t n, int indent) {
    for (size_t i = 0; i < n; i++) {
        buf_indent(b, indent);
        buf_puts(b, attrs[i].name);
        buf_puts(b, " = ");
        print_expr(b, attrs[i].value, indent);
        buf_putc(b, '\n');
    }
}

static void print_logical_name(buf_t *b, const char *logical) {
    if (!logical) return;
    buf_indent(b, 4);
    buf_puts(b, "__logicalName = ");
    pcl_append_string(b, logical);
    buf_putc(b, '\n');
}

static void print_options(buf_t *b, const pcl_node_t *n) {
    if (n->n_options == 0) return;
    buf_puts(b, "    options {\n");
    print_attrs(b, n->options, n->n_options, 8);
    buf_puts(b, "    }\n");
}

static void print_node(buf_t *b, const pcl_node_t *n) {
    switch (n->kind) {
    case PCL_NODE_PACKAGE:
        buf_puts(b, "package ");
        print_label(b, n->name);
        buf_puts(b, " {\n");
        print_attrs(b, n->attrs, n->n_attrs, 4);
        if (n->n_params) {
            buf_puts(b, "    parameterization {\n");
            print_attrs(b, n->params, n->n_params, 8);
            buf_puts(b, "    }\n");
        }
        buf_puts(b, "}\n");
        break;
    case PCL_NODE_RESOURCE:
        buf_puts(b, n->read ? "read " : "resource ");
        print_label(b, n->name);
        buf_putc(b, ' ');
        pcl_append_string(b, n->token ? n->token : "");
        buf_puts(b, " {\n");
        print_logical_name(b, n->logical_name);
        print_attrs(b, n->attrs, n->n_attrs, 4);
        print_options(b, n);
        buf_puts(b, "}\n");
        break;
    case PCL_NODE_COMPONENT:
        buf_puts(b, "component ");
        print_label(b, n->name);
        buf_puts(b, " {\n");
        print_logical_name(b, n->logical_name);
        if (n->token) {
            buf_puts(b, "    token = ");
            pcl_append_string(b, n->token);
            buf_putc(b, '\n');
        }
        print_attrs(b, n->attrs, n->n_attrs, 4);
        print_options(b, n);
        buf_puts(b, "}\n");
        break;
    case PCL_NODE_OUTPUT:
        buf_puts(b, "output ");
        print_label(b, n->name);
        if (n->token) {
            buf_putc(b, ' ');
            pcl_append_string(b, n->token);
        }
        buf_puts(b, " {\n");
        print_logical_name(b, n->logical_name);
        print_attrs(b, n->attrs, n->n_attrs, 4);
        buf_puts(b, "}\n");
        break;
    case PCL_NODE_PULUMI:
        buf_puts(b, "pulumi {\n");
        print_attrs(b, n->attrs, n->n_attrs, 4);
        buf_puts(b, "}\n");
        break;
    case PCL_NODE_HOOK:
        buf_puts(b, "hook ");
        buf_puts(b, n->token ? n->token : "resource");
        buf_putc(b, ' ');
        print_label(b, n->name);
        buf_puts(b, " {\n");
        print_attrs(b, n->attrs, n->n_attrs, 4);
        buf_puts(b, "}\n");
        break;
    case PCL_NODE_LOCAL:
        print_label(b, n->name);
        buf_puts(b, " = ");
        print_expr(b, n->attrs[0].value, 0);
        buf_putc(b, '\n');
        break;
    case PCL_NODE_CONFIG:
        buf_puts(b, "config ");
        print_label(b, n->name);
        buf_putc(b, ' ');
        pcl_append_string(b, n->token ? n->token : "string");
        buf_puts(b, " {\n");
        if (n->config_key && strcmp(n->config_key, n->name) != 0) print_logical_name(b, n->config_key);
        print_attrs(b, n->attrs, n->n_attrs, 4);
        if (n->config_secret) buf_puts(b, "    __secret = true\n");
        buf_puts(b, "}\n");
        break;
    }
}

char *pcl_print(const pcl_program_t *p) {
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < p->n_nodes; i++) {
        if (i) buf_putc(&b, '\n');
        print_node(&b, &p->nodes[i]);
    }
    if (!b.data) buf_puts(&b, "");
    return buf_take(&b);
}

void pcl_print_node_append(buf_t *b, const pcl_node_t *n) {
    print_node(b, n);
}

char *pcl_print_expr(const pcl_expr_t *e) {
    buf_t b;
    buf_init(&b);
    print_expr(&b, e, 0);
    if (!b.data) buf_puts(&b, "");
    return buf_take(&b);
}

char *pcl_print_node(const pcl_node_t *n) {
    buf_t b;
    buf_init(&b);
    print_node(&b, n);
    if (!b.data) buf_puts(&b, "");
    return buf_take(&b);
}

/* program.c — the PCL program container (see pcl.h). */
#include <string.h>

#include "pcl/pcl.h"

pcl_program_t *pcl_program_new(void) {
    arena_t *a = arena_new();
    pcl_program_t *p = arena_alloc(a, sizeof *p);
    p->arena = a;
    return p;
}

void pcl_program_free(pcl_program_t *p) {
    if (p) arena_free(p->arena);
}

void pcl_program_reserve(pcl_program_t *p, size_t n) {
    if (n <= p->cap_nodes) return;
    p->nodes = arena_grow(p->arena, p->nodes, p->n_nodes * sizeof *p->nodes, n * sizeof *p->nodes);
    p->cap_nodes = n;
}

pcl_node_t *pcl_program_add(pcl_program_t *p, pcl_node_kind_t kind) {
    p->nodes = arena_grow_array(p->arena, p->nodes, &p->cap_nodes, p->n_nodes + 1, sizeof *p->nodes);
    pcl_node_t *n = &p->nodes[p->n_nodes++];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    return n;
}

int pcl_program_find(const pcl_program_t *p, const char *name) {
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].kind != PCL_NODE_PACKAGE && p->nodes[i].kind != PCL_NODE_OUTPUT && p->nodes[i].name &&
            strcmp(p->nodes[i].name, name) == 0)
            return (int)i;
    return -1;
}

bool pcl_program_is_external(const pcl_program_t *p, const char *root) {
    if (!root) return false;
    for (size_t i = 0; i < p->n_external_roots; i++)
        if (strcmp(p->external_roots[i], root) == 0) return pcl_program_find(p, root) < 0;
    return false;
}

void pcl_expr_walk(const pcl_expr_t *e, bool (*fn)(const pcl_expr_t *e, void *ctx), void *ctx) {
    /* recursion is bounded: the parser refuses nesting deeper than PCL_MAX_DEPTH */
    if (!e || !fn(e, ctx)) return;
    switch (e->kind) {
    case PCL_TUPLE:
    case PCL_TEMPLATE:
        for (size_t i = 0; i < e->tuple.n; i++)
            pcl_expr_walk(e->tuple.items[i], fn, ctx);
        return;
    case PCL_OBJECT:
        for (size_t i = 0; i < e->object.n; i++)
            pcl_expr_walk(e->object.items[i].value, fn, ctx);
        return;
    case PCL_CALL:
        for (size_t i = 0; i < e->call.n; i++)
            pcl_expr_walk(e->call.args[i], fn, ctx);
        return;
    case PCL_UNARY:
    case PCL_BINARY:
    case PCL_COND:
    case PCL_INDEX:
    case PCL_GETATTR:
    case PCL_SPLAT:
    case PCL_FOR:
        pcl_expr_walk(e->x, fn, ctx);
        pcl_expr_walk(e->y, fn, ctx);
        pcl_expr_walk(e->z, fn, ctx);
        pcl_expr_walk(e->w, fn, ctx);
        return;
    case PCL_NULL:
    case PCL_BOOL:
    case PCL_NUMBER:
    case PCL_STRING:
    case PCL_TRAVERSAL: return;
    }
}

const char *pcl_expr_kind_name(const pcl_expr_t *e) {
    switch (e->kind) {
    case PCL_TEMPLATE: return "template interpolation '${...}'";
    case PCL_UNARY:
    case PCL_BINARY: return "the operator";
    case PCL_COND: return "a conditional '? :'";
    case PCL_INDEX: return "an index on an expression";
    case PCL_GETATTR: return "an attribute of a call result or expression";
    case PCL_SPLAT: return "a splat '[*]'";
    case PCL_FOR: return "a for expression";
    case PCL_CALL: return "a function call";
    case PCL_TRAVERSAL: return "a reference";
    default: return "a literal";
    }
}

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

pcl_node_t *pcl_program_add(pcl_program_t *p, pcl_node_kind_t kind) {
    if (p->n_nodes == p->cap_nodes) {
        size_t ncap = p->cap_nodes ? p->cap_nodes * 2 : 16;
        p->nodes = arena_grow(p->arena, p->nodes, p->n_nodes * sizeof(pcl_node_t), ncap * sizeof(pcl_node_t));
        p->cap_nodes = ncap;
    }
    pcl_node_t *n = &p->nodes[p->n_nodes++];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    return n;
}

int pcl_program_find(const pcl_program_t *p, const char *name) {
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].kind != PCL_NODE_PACKAGE && p->nodes[i].kind != PCL_NODE_OUTPUT && p->nodes[i].name && strcmp(p->nodes[i].name, name) == 0)
            return (int)i;
    return -1;
}

bool pcl_program_is_external(const pcl_program_t *p, const char *root) {
    if (!root) return false;
    for (size_t i = 0; i < p->n_external_roots; i++)
        if (strcmp(p->external_roots[i], root) == 0) return pcl_program_find(p, root) < 0;
    return false;
}

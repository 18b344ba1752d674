/* cloud.c — Pulumi Cloud stacks through the REST API (export, then import of the merged deployment). */
#include <string.h>

#include "cli/backend_internal.h"

struct cloud_stack {
    arena_t *a;
};

cloud_stack_t *cloud_stack_open(arena_t *a, const workspace_t *w, const char *project, const stack_store_options_t *o,
                                diag_list_t *diags) {
    (void)a, (void)project, (void)o;
    diag_error(diags, DIAG_USAGE, "importing into Pulumi Cloud stacks (%s) is not supported yet: use --import-option",
               w->backend_url);
    return NULL;
}
const char *cloud_stack_text(const cloud_stack_t *c, size_t *len) {
    (void)c;
    *len = 0;
    return NULL;
}
const char *cloud_stack_describe(const cloud_stack_t *c) {
    (void)c;
    return NULL;
}
bool cloud_stack_import(cloud_stack_t *c, const char *text, size_t len, diag_list_t *diags) {
    (void)c, (void)text, (void)len;
    diag_error(diags, DIAG_USAGE, "Pulumi Cloud import is not supported yet");
    return false;
}
void cloud_stack_close(cloud_stack_t *c) {
    (void)c;
}

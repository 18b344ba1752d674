/* deployment.h — Pulumi stack state: `pulumi stack export` documents and checkpoints.
 *
 * Reads deployment versions 1–4 (UntypedDeployment `{version, deployment}` or VersionedCheckpoint
 * `{version, checkpoint: {stack, latest}}`); refuses unknown features by name. The raw document is
 * kept so a writer can merge into it without losing fields it does not model. */
#ifndef CIMPORT_DEPLOYMENT_H
#define CIMPORT_DEPLOYMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "specs/arena.h"
#include "specs/diag.h"
#include "specs/value.h"

struct cJSON;

typedef struct state_resource {
    const char *urn;
    const char *type;
    const char *id; /* NULL if none */
    const char *parent;
    const char *provider; /* "<provider URN>::<provider ID>" or NULL */
    bool custom;
    bool protect;
    bool del; /* pending delete */
    bool external;
    pv_t *inputs;  /* object, never NULL */
    pv_t *outputs; /* object, never NULL */
    const char **dependencies;
    size_t n_dependencies;
    const struct cJSON *raw; /* the resource's JSON in `doc` */
} state_resource_t;

typedef struct deployment {
    const char *path;
    int version;          /* the container's version */
    bool is_checkpoint;   /* VersionedCheckpoint rather than UntypedDeployment */
    const char *stack;    /* from the checkpoint or the stack resource's URN, may be NULL */
    const char *project;  /* from the stack resource's URN, may be NULL */
    state_resource_t *resources;
    size_t n_resources;
    struct cJSON *doc; /* owned; freed by deployment_free */
} deployment_t;

deployment_t *deployment_parse(arena_t *a, const char *text, size_t len, const char *path, diag_list_t *diags);
deployment_t *deployment_load(arena_t *a, const char *path, diag_list_t *diags);
void deployment_free(deployment_t *d);
/* First resource with this URN, or NULL. */
const state_resource_t *deployment_find_urn(const deployment_t *d, const char *urn);
/* First custom, non-deleted resource of this type and ID, or NULL. */
const state_resource_t *deployment_find_id(const deployment_t *d, const char *type, const char *id);

#endif

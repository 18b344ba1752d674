/* backend_internal.h — the blob store under a DIY backend, and the Pulumi Cloud client, shared by
 * backend.c and cloud.c. */
#ifndef CIMPORT_BACKEND_INTERNAL_H
#define CIMPORT_BACKEND_INTERNAL_H

#include "stacks/backend.h"

/* Keys are slash-separated paths relative to the backend root (".pulumi/stacks/p/s.json"). */
typedef struct bucket bucket_t;
struct bucket {
    arena_t *a;
    const char *where; /* for messages */
    /* 1: found (data in the arena, NUL-terminated), 0: no such key, -1: error (diagnostic added). */
    int (*read)(bucket_t *b, const char *key, char **data, size_t *len, diag_list_t *diags);
    bool (*write)(bucket_t *b, const char *key, const char *data, size_t len, diag_list_t *diags);
    bool (*remove)(bucket_t *b, const char *key, diag_list_t *diags);
    /* When the key was last written, in ns since the epoch, as Pulumi's listing gives it (a file's
     * modification time, a row's updated_at): 1 found, 0 no such key, -1 error. */
    int (*mtime)(bucket_t *b, const char *key, long long *ns, diag_list_t *diags);
    /* The keys directly under dir (no deeper ones). */
    size_t (*list)(bucket_t *b, const char *dir, const char ***keys, diag_list_t *diags);
    void (*close)(bucket_t *b);
    /* A store with transactions (PostgreSQL): the writes between begin and commit land together or
     * not at all, and rollback takes them back. NULL for the file store. */
    bool (*begin)(bucket_t *b, diag_list_t *diags);
    bool (*commit)(bucket_t *b, diag_list_t *diags);
    void (*rollback)(bucket_t *b);
};

char *backend_uuid_v4(arena_t *a);

/* Pulumi Cloud (cloud.c). */
typedef struct cloud_stack cloud_stack_t;
cloud_stack_t *cloud_stack_open(arena_t *a, const workspace_t *w, const char *project, const stack_store_options_t *o,
                                diag_list_t *diags);
const char *cloud_stack_text(const cloud_stack_t *c, size_t *len);
const char *cloud_stack_describe(const cloud_stack_t *c);
bool cloud_stack_import(cloud_stack_t *c, const char *text, size_t len, diag_list_t *diags);
/* After an import that returned false: the update the service accepted and cimport did not see
 * finish ("update ID (URL)"), or NULL (nothing was accepted). */
const char *cloud_stack_unconfirmed(const cloud_stack_t *c);
/* Whether the stack still holds the deployment exported at open (exported again and compared): Pulumi
 * Cloud has no lock to hold, and an import replaces whatever another update wrote meanwhile. */
bool cloud_stack_unchanged(cloud_stack_t *c, diag_list_t *diags);
/* Imports the deployment exported at open again (the undo of an import). */
bool cloud_stack_restore(cloud_stack_t *c, diag_list_t *diags);
void cloud_stack_close(cloud_stack_t *c);

#endif

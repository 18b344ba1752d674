/* deployment.h — Pulumi stack state: `pulumi stack export` documents and checkpoints.
 *
 * Reads deployment versions 1–4 (UntypedDeployment `{version, deployment}` or VersionedCheckpoint
 * `{version, checkpoint: {stack, latest}}`); refuses unknown features by name. The raw document is
 * kept so a writer can merge into it without losing fields it does not model. */
#ifndef CIMPORT_DEPLOYMENT_H
#define CIMPORT_DEPLOYMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "specs/passphrase.h"
#include "specs/value.h"

struct cJSON;

typedef struct state_resource {
    const char *urn;
    const char *type;
    const char *id; /* NULL if none */
    const char *parent;
    const char *provider; /* "<provider URN>::<provider ID>" or NULL */
    /* additionalSecretOutputs: the output names the program marked secret, ", "-joined; NULL if none */
    const char *additional_secret_outputs;
    pv_t *inputs;  /* object, never NULL */
    pv_t *outputs; /* object, never NULL */
    const char **dependencies;
    size_t n_dependencies;
    const struct cJSON *raw; /* the resource's JSON in `doc`; NULL when loaded indexed */
    /* Loaded indexed (deployment_load_indexed): inputs and outputs are NULL until
     * deployment_resource_read parses the resource's byte range of the file. */
    size_t range_start, range_len;
    /* the flags together at the end: 112 bytes, not 120 (one a resource of the export's index) */
    bool custom;
    bool protect;
    bool del; /* pending delete */
    bool external;
    bool retain_on_delete; /* retainOnDelete: `pulumi destroy` leaves it in the cloud */
    bool lazy;
} state_resource_t;

typedef struct deployment {
    const char *path;
    int version;         /* the container's version */
    bool is_checkpoint;  /* VersionedCheckpoint rather than UntypedDeployment */
    const char *stack;   /* from the checkpoint or the stack resource's URN, may be NULL */
    const char *project; /* from the stack resource's URN, may be NULL */
    state_resource_t *resources;
    size_t n_resources;
    struct cJSON *doc; /* owned; freed by deployment_free (indexed: the document without its resources) */
    /* indexed loading */
    bool indexed;                   /* loaded by deployment_load_indexed */
    int fd;                         /* indexed: the file, open until deployment_free */
    bool b64_secrets;               /* the `b64` secrets provider */
    struct deployment_ahead *ahead; /* deployment_read_ahead's worker, or NULL */
} deployment_t;

deployment_t *deployment_parse(arena_t *a, const char *text, size_t len, const char *path, diag_list_t *diags);
deployment_t *deployment_load(arena_t *a, const char *path, diag_list_t *diags);
void deployment_free(deployment_t *d);

/* Loads a stack export or checkpoint without a JSON tree of the whole file: a validating structural
 * scan (specs/jsonscan.h) finds each resource's byte range and reads only its small fields (URN,
 * type, ID, parent, provider, flags, dependencies); inputs and outputs are parsed when
 * deployment_resource_read asks for them. Memory stays near the size of those fields, not of the
 * file. The same errors as deployment_parse for a document that is not a stack state; a document
 * that is not JSON gets the scanner's reason and line (a truncated file names the resource it ends
 * in). When the file is not a Pulumi state at all (no `deployment`, `checkpoint` or `latest`, e.g. a
 * Terraform state), returns NULL with no diagnostic and sets *not_pulumi. */
deployment_t *deployment_load_indexed(arena_t *a, const char *path, bool *not_pulumi, diag_list_t *diags);
/* A resource's inputs and outputs as new values in `a` (copies for a fully parsed state; parsed
 * from the file's byte range for an indexed one). False with a diagnostic if that range no longer
 * reads as it did (the file changed) or its properties are malformed. */
bool deployment_resource_read(const deployment_t *d, const state_resource_t *r, arena_t *a, pv_t **inputs,
                              pv_t **outputs, diag_list_t *diags);
/* Starts parsing the properties of an indexed deployment's resources on a thread of its own, in the
 * order `order` gives (indexes into d->resources), so that deployment_resource_read finds each one
 * ready: the parse runs on the second core while the caller does the rest of the import. The values
 * are the same, and handed over whole (base/arena.h's arena_adopt), not copied. The worker keeps at
 * most DEPLOYMENT_READ_AHEAD resources ready that nobody has read yet, so memory stays bounded by
 * that window, not by N. A resource read out of order, twice, or not in `order` is parsed by the
 * reader as without read-ahead. False (nothing started) for a deployment not loaded indexed, an
 * empty order, or when no thread can be started. deployment_free stops it. Not for a deployment
 * that is read from more than one thread. */
#define DEPLOYMENT_READ_AHEAD 256
bool deployment_read_ahead(deployment_t *d, const size_t *order, size_t n);
/* Ends the read-ahead (its unread values are freed; later reads parse as without it): true when
 * one was running. deployment_free does this too. */
bool deployment_read_ahead_end(deployment_t *d);
/* The most resources the read-ahead held parsed and unread at once (0 without one): at most
 * DEPLOYMENT_READ_AHEAD when resources are read in the order given. */
size_t deployment_read_ahead_peak(const deployment_t *d);
/* The state's secrets provider (`secrets_providers.type`; NULL when it names none) and, for the
 * passphrase provider, its salt state (*salt; else NULL). */
const char *deployment_secrets_provider(const deployment_t *d, const char **salt);
/* One ciphertext-only secret's value: decrypted with c (a passphrase key), or with c NULL decoded as
 * the `b64` provider writes it (base64 of the value's JSON text); NULL when it does not. */
pv_t *deployment_secret_decrypt(arena_t *a, const char *ciphertext, const passphrase_crypter_t *c);
/* Gives the ciphertext-only secrets in v their values, decrypted with c (the ciphertext dropped: the
 * value is encrypted again for wherever it goes); with c NULL nothing is decrypted. Returns how many
 * stay ciphertext only. */
size_t deployment_secrets_decrypt(arena_t *a, pv_t *v, const passphrase_crypter_t *c);
/* First resource with this URN, or NULL. */
const state_resource_t *deployment_find_urn(const deployment_t *d, const char *urn);
/* First custom, non-deleted resource of this type and ID, or NULL. */
const state_resource_t *deployment_find_id(const deployment_t *d, const char *type, const char *id);

#endif

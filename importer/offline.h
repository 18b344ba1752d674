/* offline.h — the offline snapshot provider: serves Read from recorded state (a stack export or
 * checkpoint), Check validates against the schema and applies schema defaults, Diff compares
 * structurally and returns detailed paths. It lets a user see the code for a whole migration
 * before touching the cloud. */
#ifndef CIMPORT_OFFLINE_H
#define CIMPORT_OFFLINE_H

#include "importer/provider.h"
#include "specs/deployment.h"
#include "specs/importfile.h"
#include "specs/schema.h"

typedef struct offline_source offline_source_t;

/* The source indexes the state's custom resources by type+ID once. Both stay owned by the caller
 * and must outlive every provider made from the source. */
offline_source_t *offline_source_new(const deployment_t *state, schema_set_t *schemas);
void offline_source_free(offline_source_t *src);
/* The import plan Read serves: each resource's provider (and name) tells apart recorded resources
 * that share a type and an ID. The plan must outlive the source. Without it, the name alone does. */
void offline_source_set_plan(offline_source_t *src, const import_plan_t *plan);
/* The run's passphrase (NULL: none; it must outlive the source): the state's ciphertexts of the
 * passphrase provider are decrypted with it. A resource holding one that cannot be decrypted (no
 * passphrase, one that does not open the state's salt, another secrets provider) is refused by Read,
 * with the reason and `pulumi stack export --show-secrets`. */
void offline_source_set_keyring(offline_source_t *src, passphrase_keyring_t *keyring);
/* The recorded resources the plan's Reads will serve, in plan order, as indexes into the state's
 * resources (the order for deployment_read_ahead): each item whose type and ID match exactly one
 * recorded resource; an ambiguous or unknown one is left to Read. malloc'd; *n set (0: NULL). */
size_t *offline_source_read_order(const offline_source_t *src, size_t *n);
/* A provider_factory_fn: user = offline_source_t*. Fails (with the places it looked) when no
 * schema for the package is known. */
provider_t *offline_provider_factory(void *user, const char *package, const char *version, const char *download_url,
                                     diag_list_t *diags);

#endif

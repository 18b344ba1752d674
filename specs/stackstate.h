/* stackstate.h — merging imported resources into a `pulumi stack export` document (`--stack-state`).
 *
 * The result is a file `pulumi stack import --file` accepts, with what `pulumi import` itself would
 * have recorded (import-semantics §2.2, §2.5, §4): the stack resource if the document has none,
 * default providers `default_X_Y_Z` (inputs = the package's stack config + `version` + `__internal`,
 * outputs = inputs without `__internal`, a UUID as ID) or the import file's explicit providers, and
 * every imported resource with its Read inputs and state, ID, parent, provider reference
 * `<provider URN>::<provider ID>`, protect and created/modified times.
 *
 * Guarantees:
 * - the old document is never rewritten: new resources are spliced in as text after the existing
 *   ones, so every byte of the existing resources, manifest and secrets_providers stays as it was;
 * - new resources are ordered so that providers and parents come before their dependents;
 * - re-running the same import adds nothing (same URN and ID is a no-op); the same URN with another
 *   ID is an error and nothing is written;
 * - the file is replaced atomically (temporary file beside it, fsync, rename, fsync of the
 *   directory): a crash at any point leaves either the old or the new document.
 *
 * Secrets are never written in plaintext where cimport can encrypt them:
 * - a document with the `passphrase` secrets provider: each secret's JSON text is encrypted with the
 *   key of the document's salt (`secrets_providers.state.salt`), from the options' keyring;
 * - a document without a secrets provider: the passphrase provider is added (the keyring's default
 *   salt, so it matches the stack config's `encryptionsalt`), or `b64` when b64_secrets asks for it
 *   by name; with neither, secrets are an error and nothing is written;
 * - a document with the `b64` provider keeps it (base64 ciphertext);
 * - any other provider (service, cloud KMS): cimport cannot encrypt, so secrets are written in
 *   Pulumi's plaintext form, which `pulumi stack import` encrypts, and a warning names the resources.
 *
 * This module takes neutral resource descriptions (stackstate_resource_t) so specs/ does not
 * depend on importer/; the CLI converts import results into them. */
#ifndef CIMPORT_STACKSTATE_H
#define CIMPORT_STACKSTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "specs/passphrase.h"
#include "specs/value.h"

/* One resource to record. Strings are borrowed for the duration of the call. */
typedef struct stackstate_resource {
    const char *urn;
    const char *type;
    const char *id;           /* custom resources: the ID Read returned (else the import ID); NULL for components */
    const pv_t *inputs;       /* object or NULL (stored as Pulumi stores Read's inputs) */
    const pv_t *outputs;      /* object or NULL (Read's state) */
    const char *parent_urn;   /* NULL: top level, parented to the stack (explicit providers: no parent) */
    const char *provider_urn; /* an explicit provider's URN; NULL: the default provider of the package */
    const char *package;      /* NULL: the first part of the type token */
    const char *version;      /* provider version for the default provider name and inputs; may be NULL */
    const char *plugin_download_url; /* may be NULL */
    bool custom;                     /* false for components */
    bool remote;                     /* a remote (provider-backed) component: it gets a provider reference */
    bool is_provider;                /* an explicit provider `pulumi:providers:<pkg>` declared in the import file */
    bool protect;
} stackstate_resource_t;

/* A package's stack config (`<pkg>:<key>` values, keys without the prefix): the inputs of its
 * default provider. */
typedef struct stackstate_package_config {
    const char *package;
    const pv_t *config; /* object */
} stackstate_package_config_t;

typedef struct stackstate_options {
    const stackstate_package_config_t *config;
    size_t n_config;
    const char *now; /* RFC 3339 UTC time for created/modified (and a new manifest); NULL: the clock */
    /* Fault injection for tests: called after the temporary file is complete and synced, just before
     * it is renamed over the target. Returning false stops there as a crash would (the temporary
     * file is removed and an error reported); it may also simply _exit() to be a real crash. */
    bool (*before_rename)(void *user, const char *tmp_path);
    void *user;
    /* Secrets (see above): the passphrase keyring (NULL: no passphrase), and whether a document without
     * a secrets provider may get `b64` when there is no keyring. */
    passphrase_keyring_t *keyring;
    bool b64_secrets;
    /* Whether secrets for a provider cimport cannot encrypt for (service, KMS) may be written in
     * plaintext (a warning says so); otherwise they are only counted (n_plaintext_secrets) for the
     * caller to refuse. */
    bool plaintext_secrets;
} stackstate_options_t;

void stackstate_options_default(stackstate_options_t *o);

typedef enum {
    STACKSTATE_ADDED = 0, /* written as a new resource */
    STACKSTATE_SAME,      /* already in the state with the same ID: nothing to do */
} stackstate_outcome_t;

typedef struct stackstate_report_entry {
    const char *urn;
    const char *type;
    const char *id;
    stackstate_outcome_t outcome;
    /* STACKSTATE_SAME: the top-level inputs whose recorded value is not the one given now (a recorded
     * secret decrypted with the stack's passphrase), and those holding a secret that cannot be read
     * (another secrets provider, no passphrase: not confirmed), then "provider" when the stack records
     * another provider (one of the two explicit) and "parent" another parent, joined by ", "; NULL: none */
    const char *differs;
} stackstate_report_entry_t;

typedef struct stackstate_report {
    bool created_file;  /* there was no document at path */
    bool created_stack; /* the stack resource was added */
    size_t n_existing;  /* resources in the document before the merge */
    size_t n_added;     /* resources appended (stack, providers and imported resources) */
    size_t n_same;      /* imported resources already present with the same ID */
    size_t n_differ;    /* of those, the ones recorded with other inputs, provider or parent (entries' differs) */
    /* default providers the stack holds already with another configuration than the stack's config gives
     * them now (stackstate_options_t.config): the next preview updates them (a warning names them) */
    size_t n_provider_differ;
    size_t n_plaintext_secrets;         /* resources whose secrets were written in plaintext form */
    stackstate_report_entry_t *entries; /* every resource added or found, in file order; arena-owned */
    size_t n_entries, cap_entries;
    arena_t *arena; /* owns entries; freed by stackstate_report_free */
} stackstate_report_t;

void stackstate_report_free(stackstate_report_t *r);

/* Merges into `text` (a stack export or checkpoint of deployment version 3 or 4; NULL or empty:
 * a new document) and returns the new document text (malloc'd), or NULL with diagnostics. `path`
 * only names the document in messages. stack and project must match the document's stack resource. */
char *stackstate_merge_text(const char *text, size_t len, const char *path, const char *stack, const char *project,
                            const stackstate_resource_t *res, size_t n, const stackstate_options_t *opts,
                            stackstate_report_t *out, diag_list_t *diags);

/* Reads path (a missing file means a new document), merges and replaces it atomically. On any error
 * nothing is written. out may be NULL. */
bool stackstate_merge(const char *path, const char *stack, const char *project, const stackstate_resource_t *res,
                      size_t n, const stackstate_options_t *opts, stackstate_report_t *out, diag_list_t *diags);

/* The inputs the stack state `text` records for the resources `urns` (the providers a run configures),
 * as {urn: inputs} in `out`: secrets read with the stack's passphrase (keyring) and kept secret; one
 * absent is left out, and so is one whose secrets cannot be read (a warning says why for the first
 * n_warn urns: the explicit providers a run names by URN only, which it is configured with). A document
 * that does not parse gives none. */
pv_t *stackstate_recorded_inputs(arena_t *out, const char *text, size_t len, const char *path, const char *const *urns,
                                 size_t n, size_t n_warn, passphrase_keyring_t *keyring, diag_list_t *diags);

/* The default provider's name for a version and download URL (`default`, `default_1_2_3`,
 * `default_1_2_3_beta_1`, `default_1_2_3_https_/get.example.com/x`), as Pulumi names it. */
char *stackstate_default_provider_name(arena_t *a, const char *version, const char *download_url);
/* Whether a provider's name (its URN's last part) is one Pulumi gives a default provider: `default`,
 * or `default_` and the version/URL parts. A program's own provider may be named `defaultWest` or
 * `default-east`: that is an explicit provider. */
bool stackstate_is_default_provider_name(const char *name);
/* The name of an explicit provider (its URN's last part); NULL for none or a default provider. */
const char *stackstate_explicit_provider_name(arena_t *a, const char *provider_urn);
/* Whether a provider's input key is configuration: not the plugin's `version` or `pluginDownloadURL`,
 * nor one of the engine's own (`__internal`). Two explicit providers whose configuration keys hold equal
 * values reach one account (the plugin's version aside). */
bool stackstate_is_provider_config_key(const char *key);
/* The map key of one cloud object: "TYPE\0ID\0PROVIDER" (*len bytes), PROVIDER the provider
 * configuration the resource takes — an explicit provider's URN (the caller gives, for a provider
 * configured as an earlier one, that one's URN), or "" for its package's default provider of any version
 * (NULL or a default provider's URN: each takes the stack's config of the package). The same type and ID
 * under two provider configurations (an IAM role "admin" in two accounts) are two objects. The run's
 * check of its own resources (engine) and the stack merge's of the stack's key them so. */
const char *stackstate_object_key(arena_t *a, const char *type, const char *id, const char *provider_urn, size_t *len);

#endif

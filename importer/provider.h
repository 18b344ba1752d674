/* provider.h — the provider interface (ARCHITECTURE §5) and the registry that hands out one
 * provider per package+version for the whole run.
 *
 * Two implementations: the offline snapshot (offline.h) and the gRPC plugin host (later). Every
 * call fills a result allocated from the caller's arena and returns false with diagnostics on
 * failure. */
#ifndef CIMPORT_PROVIDER_H
#define CIMPORT_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "specs/schema.h"
#include "specs/value.h"

typedef struct provider provider_t;

typedef struct provider_read_result {
    const char *id; /* the ID Read returned (may differ from the import ID); NULL = keep import ID */
    pv_t *inputs;   /* NULL ⇒ the provider cannot import this resource */
    pv_t *state;    /* NULL ⇒ the resource does not exist */
} provider_read_result_t;

typedef struct provider_check_failure {
    const char *property; /* may be NULL for a resource-level failure */
    const char *reason;
} provider_check_failure_t;

typedef struct provider_check_result {
    pv_t *inputs; /* checked inputs */
    provider_check_failure_t *failures;
    size_t n_failures;
} provider_check_result_t;

typedef enum {
    DIFF_UNKNOWN = 0,
    DIFF_NONE = 1,
    DIFF_SOME = 2,
} diff_changes_t;

typedef enum {
    PDIFF_ADD = 0,
    PDIFF_ADD_REPLACE,
    PDIFF_DELETE,
    PDIFF_DELETE_REPLACE,
    PDIFF_UPDATE,
    PDIFF_UPDATE_REPLACE,
} property_diff_kind_t;

typedef struct provider_property_diff {
    const char *path; /* property path text, e.g. `tags.Name` or `ingress[0].cidrBlocks` */
    property_diff_kind_t kind;
    bool input_diff; /* compare against old inputs rather than old state */
} provider_property_diff_t;

typedef struct provider_diff_result {
    diff_changes_t changes;
    const char **diffs; /* top-level keys that differ */
    size_t n_diffs;
    const char **replaces;
    size_t n_replaces;
    provider_property_diff_t *detailed;
    size_t n_detailed;
    bool has_detailed_diff;
} provider_diff_result_t;

/* Completion of an asynchronous operation (below): `ok` is what the synchronous operation would have
 * returned; the `out` result and the diagnostics were filled before it runs. */
typedef void (*provider_done_fn)(void *user, bool ok);

struct grpc_loop; /* importer/grpc.h */

typedef struct provider_ops {
    /* The package schema (cached by the implementation), or NULL with a diagnostic. */
    schema_package_t *(*get_schema)(provider_t *p, diag_list_t *diags);
    bool (*configure)(provider_t *p, const pv_t *config, diag_list_t *diags);
    bool (*read)(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state, arena_t *a,
                 provider_read_result_t *out, diag_list_t *diags);
    bool (*check)(provider_t *p, const char *urn, const pv_t *olds, const pv_t *news, const unsigned char *seed,
                  size_t seed_len, arena_t *a, provider_check_result_t *out, diag_list_t *diags);
    bool (*diff)(provider_t *p, const char *urn, const char *id, const pv_t *old_state, const pv_t *old_inputs,
                 const pv_t *news, arena_t *a, provider_diff_result_t *out, diag_list_t *diags);
    void (*close)(provider_t *p);
} provider_ops_t;

/* Optional asynchronous operations (provider_t.async; NULL: the provider is used through the
 * synchronous ones). The same operations as provider_ops_t's, started now and completed later:
 * `done` runs exactly once, from provider_registry_poll (the provider's poll or event loop), never
 * from inside the *_async call itself, so a caller can start a call while holding state the callback
 * touches. Everything passed in (strings, values, the arena, `out`, `diags`) must stay valid until
 * `done` has run. Many calls may be in flight on one provider at once. Each operation may be NULL
 * (that one is then used synchronously). */
typedef struct provider_async_ops {
    void (*read_async)(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state,
                       arena_t *a, provider_read_result_t *out, diag_list_t *diags, provider_done_fn done, void *user);
    void (*check_async)(provider_t *p, const char *urn, const pv_t *olds, const pv_t *news, const unsigned char *seed,
                        size_t seed_len, arena_t *a, provider_check_result_t *out, diag_list_t *diags,
                        provider_done_fn done, void *user);
    void (*diff_async)(provider_t *p, const char *urn, const char *id, const pv_t *old_state, const pv_t *old_inputs,
                       const pv_t *news, arena_t *a, provider_diff_result_t *out, diag_list_t *diags,
                       provider_done_fn done, void *user);
    /* Runs the completions that are ready without waiting (e.g. a queue of calls answered at once);
     * returns how many ran. NULL: the provider has none of its own. */
    size_t (*poll)(provider_t *p);
    /* The event loop the provider's calls complete on (importer/grpc.h), or NULL. Providers that share
     * one loop are driven by one poll(2). */
    struct grpc_loop *(*event_loop)(provider_t *p);
    /* Cancels every call in flight (gRPC: the stream is reset, which is gRPC's Cancel): each one's
     * `done` then runs with ok = false and a diagnostic saying it was cancelled, from the next poll
     * as always. NULL: calls cannot be cancelled (they finish, or hit their deadline). */
    void (*cancel_all)(provider_t *p);
} provider_async_ops_t;

struct provider {
    const provider_ops_t *ops;
    const char *package;
    const char *version; /* may be NULL */
    void *impl;
    const provider_async_ops_t *async; /* may be NULL */
};

/* The registry creates providers on demand through a factory and keeps one per package+version. */
typedef provider_t *(*provider_factory_fn)(void *user, const char *package, const char *version,
                                           const char *download_url, diag_list_t *diags);

typedef struct provider_registry provider_registry_t;
provider_registry_t *provider_registry_new(provider_factory_fn factory, void *user);
/* NULL with diagnostics when the factory cannot make one; a failure is remembered so every
 * resource of that package gets the same error without retrying. */
provider_t *provider_registry_get(provider_registry_t *r, const char *package, const char *version,
                                  const char *download_url, diag_list_t *diags);
/* Drives every provider's asynchronous calls once: runs ready completions (provider poll ops); when
 * there were none, waits up to timeout_ms (-1: no limit) on the providers' event loops — one poll(2)
 * when they share a loop, short turns on each otherwise. Returns the number of completions run by
 * the poll ops plus 1 if an event loop was run, 0 when no provider has anything that could complete
 * (a caller waiting for a `done` then waits forever). */
size_t provider_registry_poll(provider_registry_t *r, int timeout_ms);
/* Cancels the calls in flight on every provider (provider_async_ops_t.cancel_all): for a stop
 * (SIGINT/SIGTERM, an LSP $/cancelRequest). */
void provider_registry_cancel_all(provider_registry_t *r);
/* Closes every provider. */
void provider_registry_free(provider_registry_t *r);

#endif

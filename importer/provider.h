/* provider.h — the provider interface (ARCHITECTURE §5) and the registry that hands out one
 * provider per package+version for the whole run.
 *
 * Implementations: the offline snapshot (offline.h), the gRPC provider (grpc_provider.h) and the
 * plugin host that launches and restarts gRPC plugins (plugin_host.h). Every call fills a result
 * allocated from the caller's arena and reports failure (`ok` false) with diagnostics. */
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

/* Completion of a Read, Check or Diff (below): `ok` says whether the call succeeded; the `out` result
 * and the diagnostics were filled before it runs. */
typedef void (*provider_done_fn)(void *user, bool ok);

struct grpc_loop; /* importer/grpc.h */

/* The one provider interface. Read, Check and Diff — the calls an import makes per resource, many at
 * once — are asynchronous: started now and completed later, `done` running exactly once, from the
 * provider's poll op or its event loop (provider_registry_poll drives both), never from inside the
 * *_async call itself, so a caller can start a call while holding state the callback touches.
 * Everything passed in (strings, values, the arena, `out`, `diags`) must stay valid until `done` has
 * run. Many calls may be in flight on one provider at once. A caller that wants the answer now uses
 * the blocking calls provider_read/provider_check/provider_diff (below), which drive the provider
 * until the call's `done` has run; a provider implements only the asynchronous operations.
 *
 * get_schema, configure and close stay synchronous: each is once per provider, not per resource —
 * the schema is fetched once and cached (later calls answer from memory), configure is part of
 * starting the provider (the gRPC start-up sequence needs each answer before its next request), and
 * close ends it — so there is nothing for them to overlap with. */
typedef struct provider_ops {
    /* The package schema (cached by the implementation), or NULL with a diagnostic. */
    schema_package_t *(*get_schema)(provider_t *p, diag_list_t *diags);
    bool (*configure)(provider_t *p, const pv_t *config, diag_list_t *diags);
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
     * one loop are driven by one poll(2). A provider needs a poll op, an event loop or both. */
    struct grpc_loop *(*event_loop)(provider_t *p);
    /* Cancels every call in flight (gRPC: the stream is reset, which is gRPC's Cancel): each one's
     * `done` then runs with ok = false and a diagnostic saying it was cancelled, from the next poll
     * as always. NULL: calls cannot be cancelled (they finish, or hit their deadline). */
    void (*cancel_all)(provider_t *p);
    void (*close)(provider_t *p);
    /* The provider's configuration as its CheckConfig answered it (what it was configured with, and what
     * Pulumi records as the provider's inputs), or NULL: CheckConfig is not implemented (the configuration
     * is used as given), or the provider has none. NULL op: the same. */
    const pv_t *(*checked_config)(provider_t *p);
} provider_ops_t;

struct provider {
    const provider_ops_t *ops;
    const char *package;
    const char *version; /* may be NULL */
    void *impl;
};

/* The blocking calls: start the asynchronous operation, then run the provider's poll op and event
 * loop until its `done` has run, and return its `ok`. Calls of other providers on a shared loop keep
 * being served meanwhile. When nothing can complete the call (no poll op answers and there is no
 * loop to wait on), calls in flight are cancelled (cancel_all) and, if the call still has not
 * completed, false is returned with a diagnostic. Not from a completion callback (they run the loop). */
bool provider_read(provider_t *p, const char *urn, const char *id, const pv_t *inputs, const pv_t *state, arena_t *a,
                   provider_read_result_t *out, diag_list_t *diags);
bool provider_check(provider_t *p, const char *urn, const pv_t *olds, const pv_t *news, const unsigned char *seed,
                    size_t seed_len, arena_t *a, provider_check_result_t *out, diag_list_t *diags);
bool provider_diff(provider_t *p, const char *urn, const char *id, const pv_t *old_state, const pv_t *old_inputs,
                   const pv_t *news, arena_t *a, provider_diff_result_t *out, diag_list_t *diags);

/* Completions for a provider that knows its answer at once (the offline snapshot, test providers):
 * the *_async op computes the answer and pushes its completion; the poll op runs the queue. */
typedef struct provider_queued provider_queued_t;
typedef struct provider_queue {
    provider_queued_t *items;
    size_t n, cap;
} provider_queue_t; /* zero-initialised is empty */
void provider_queue_push(provider_queue_t *q, provider_done_fn done, void *user, bool ok);
/* Runs the completions pushed before this call, in order; ones pushed by those callbacks wait for the
 * next run, so a chain of calls cannot keep one poll busy forever. Returns how many ran. */
size_t provider_queue_run(provider_queue_t *q);
/* Frees the queue; completions still in it are dropped without running. */
void provider_queue_free(provider_queue_t *q);

/* The registry creates providers on demand through a factory and keeps one per package+version. */
typedef provider_t *(*provider_factory_fn)(void *user, const char *package, const char *version,
                                           const char *download_url, diag_list_t *diags);

typedef struct provider_registry provider_registry_t;
provider_registry_t *provider_registry_new(provider_factory_fn factory, void *user);
/* NULL with diagnostics when the factory cannot make one; a failure is remembered so every
 * resource of that package gets the same error without retrying. */
provider_t *provider_registry_get(provider_registry_t *r, const char *package, const char *version,
                                  const char *download_url, diag_list_t *diags);
/* An explicit provider's factory: a provider of the package configured with `config` (the explicit
 * provider's inputs) instead of the package's default configuration; `name` is the provider's URN. A
 * NULL config: its configuration is not known (a provider referenced by URN only). */
typedef provider_t *(*provider_configured_factory_fn)(void *user, const char *package, const char *version,
                                                      const char *download_url, const char *name, const pv_t *config,
                                                      diag_list_t *diags);
/* Gives the registry a factory for explicit providers; without one (offline sources, tests), a resource
 * under an explicit provider gets the package's provider. */
void provider_registry_set_configured(provider_registry_t *r, provider_configured_factory_fn factory);
/* The provider a resource under the explicit provider `name` (NULL: the default provider) is read,
 * checked and diffed through: one per explicit provider, as Pulumi's engine runs one per provider
 * resource, each configured with its own inputs. */
provider_t *provider_registry_get_for(provider_registry_t *r, const char *package, const char *version,
                                      const char *download_url, const char *name, const pv_t *config,
                                      diag_list_t *diags);
/* Drives every provider's asynchronous calls once: runs ready completions (provider poll ops); when
 * there were none, waits up to timeout_ms (-1: no limit) on the providers' event loops — one poll(2)
 * when they share a loop, short turns on each otherwise. Returns the number of completions run by
 * the poll ops plus 1 if an event loop was run, 0 when no provider has anything that could complete
 * (a caller waiting for a `done` then waits forever). */
size_t provider_registry_poll(provider_registry_t *r, int timeout_ms);
/* Cancels the calls in flight on every provider (provider_ops_t.cancel_all): for a stop
 * (SIGINT/SIGTERM, an LSP $/cancelRequest). */
void provider_registry_cancel_all(provider_registry_t *r);
/* The configuration CheckConfig gave a default provider of `package` this run (any version started;
 * provider_ops_t.checked_config), or NULL. */
const pv_t *provider_registry_checked_config(provider_registry_t *r, const char *package);
/* The configuration CheckConfig gave the explicit provider `name` (its URN) this run, or NULL: no plugin
 * was started for it (no resource was read through it, an offline run), or its CheckConfig is not
 * implemented. */
const pv_t *provider_registry_checked_config_of(provider_registry_t *r, const char *name);
/* Closes every provider. */
void provider_registry_free(provider_registry_t *r);

#endif

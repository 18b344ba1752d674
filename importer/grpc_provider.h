/* grpc_provider.h — a provider_t (importer/provider.h) backed by a running Pulumi provider plugin,
 * spoken to over gRPC (importer/grpc.h) on one HTTP/2 connection.
 *
 * Attaching runs the engine's start-up sequence (provider-protocol.md §5): Handshake (UNIMPLEMENTED is
 * fine; its acceptSecrets/acceptResources win over Configure's, as in Pulumi's provider_plugin.go) →
 * Attach with the engine endpoint address (optional) → GetPluginInfo → CheckConfig (the provider
 * resource's urn, name and type; olds and news — the config with the `version` input — sent with
 * secrets as plain values, as the engine marshals them; the answer's values marked secret again where
 * the news held one, Pulumi's annotateSecrets; UNIMPLEMENTED ⇒ the news are used) → Configure (both
 * `variables`, plain, and `args`, secrets in their signature whatever the plugin accepts, accepting
 * secrets and resources), each a blocking call. Then get_schema maps to GetSchema (blocking, cached),
 * and the asynchronous read/check/diff to Read/Check/Diff — always with empty Structs rather than
 * absent ones, because the Node.js provider host crashes on absent fields — started with
 * grpc_call_start, any number in flight as HTTP/2 streams on the one connection, completed from the
 * event loop (provider_registry_poll drives it; provider_read & co. block on it); their Log
 * messages go to the call of the same URN. close sends Cancel and drops the connection. The plugin
 * process itself is not owned: launching and stopping it is the plugin host's job
 * (importer/plugin.c).
 *
 * Schemas from GetSchema are cached on disk per package+version in
 * `$XDG_CACHE_HOME/cimport/schemas/<pkg>-<version>.json` (else `~/.cache/cimport/...`). */
#ifndef CIMPORT_GRPC_PROVIDER_H
#define CIMPORT_GRPC_PROVIDER_H

#include <stdbool.h>

#include "importer/engine_endpoint.h"
#include "importer/grpc.h"
#include "importer/provider.h"

typedef struct grpc_provider_options {
    const char *host;      /* default "127.0.0.1" */
    int call_timeout_ms;   /* deadline of each Read, Check and Diff; default 300000 (5 minutes) */
    int start_timeout_ms;  /* Handshake, Attach, GetPluginInfo, CheckConfig, Configure; default 60000 */
    int schema_timeout_ms; /* GetSchema (large schemas take a while); default 300000 */
    const char *cache_dir; /* schema cache root; NULL: $XDG_CACHE_HOME/cimport or ~/.cache/cimport */
    bool no_schema_cache;  /* always ask GetSchema, never read or write the cache */
    /* The plugin's executable when the host launched it: the schema cache keys an entry by it (its
     * path, and entries older than the file are stale). NULL (a plugin attached to): no cache. */
    const char *plugin_path;
    grpc_loop_t *loop;           /* a loop shared with other providers; NULL: the provider makes its own */
    engine_endpoint_t *endpoint; /* a shared engine endpoint on `loop`; NULL: the provider starts its own
                                    (its Log messages then go to the diagnostics of the call running) */
    bool send_attach;            /* send Attach{engine address}: for a plugin started by someone else */
    const char *stack;           /* for the provider URN of CheckConfig/Configure; default "cimport" */
    const char *project;         /* default "cimport" */
    /* The provider resource CheckConfig and Configure name (their urn, name and type, as Pulumi's
     * engine sends them); NULL: the package's default provider of the version in the stack and
     * project (Pulumi's ProviderRequest.DefaultName: `default_1_2_3`, `default` without one). */
    const char *provider_urn;
    /* The inputs the stack records for that provider, secrets read (CheckConfig's olds, as the engine
     * sends a provider's old inputs); NULL: the stack holds none. */
    const pv_t *olds;
    /* The run's stop flag (SIGINT, SIGTERM, an editor's cancel): a blocking call (GetSchema,
     * Configure, the handshake) in flight when it is set is cancelled at once. May be NULL. */
    const volatile sig_atomic_t *stop;
} grpc_provider_options_t;

void grpc_provider_options_default(grpc_provider_options_t *o);
/* The deadline (ms) these options give a call of `method` ("/pulumirpc.ResourceProvider/Read"). */
int grpc_provider_timeout_for(const grpc_provider_options_t *o, const char *method);

/* Attaches to a plugin listening on 127.0.0.1:port with default options and Attach sent (the
 * `--attach pkg=PORT` / PULUMI_DEBUG_PROVIDERS case). config is the package's provider config object
 * (may be NULL). NULL with diagnostics when the plugin cannot be reached or refuses the config. */
provider_t *grpc_provider_attach(const char *package, const char *version, int port, const pv_t *config,
                                 diag_list_t *diags);
provider_t *grpc_provider_attach_with(const char *package, const char *version, int port, const pv_t *config,
                                      const grpc_provider_options_t *opts, diag_list_t *diags);

/* The version GetPluginInfo reported ("" if none) — valid for a provider made here only. */
const char *grpc_provider_plugin_version(const provider_t *p);
/* The loop and connection, for callers that issue many calls at once (a gRPC provider only). */
grpc_loop_t *grpc_provider_loop(const provider_t *p);
grpc_conn_t *grpc_provider_conn(const provider_t *p);
/* Whether a provider_t is one of these. */
bool grpc_provider_is(const provider_t *p);

#endif

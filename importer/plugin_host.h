/* plugin_host.h — the gRPC plugin host: a provider_factory_fn (importer/provider.h) that turns a
 * package+version into a running provider plugin and a provider_t that talks to it.
 *
 * For each package the factory either attaches to a plugin someone else started (`--attach
 * pkg=PORT`, or PULUMI_DEBUG_PROVIDERS="pkg:port,...") or finds the plugin (importer/plugin.h),
 * downloads it when it is missing and downloading is allowed, launches it with the host's engine
 * endpoint address as its argument, reads its port and attaches with importer/grpc_provider.h (which
 * runs Handshake → GetPluginInfo → CheckConfig → Configure with the package's config).
 *
 * The returned provider adds what only the host knows to failures: when the plugin process died
 * during a call, the error names how it ended and quotes its last stderr lines, and the next call
 * starts a fresh process (at most `max_restarts` times), so one crashing resource fails alone; a call
 * that runs into the deadline says so. Provider Log messages arrive at the host's engine endpoint and
 * are added to the diagnostics of the call running (so they belong to its resource) and passed to the
 * log callback. Closing a provider sends Cancel, SIGINT to the plugin's process group and SIGKILL
 * after the grace period.
 *
 * Usage: h = plugin_host_new(&opts, diags); r = provider_registry_new(plugin_host_factory, h); ...
 * provider_registry_free(r); plugin_host_free(h) — the registry must be freed first. */
#ifndef CIMPORT_PLUGIN_HOST_H
#define CIMPORT_PLUGIN_HOST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "importer/grpc.h"
#include "importer/plugin.h"
#include "importer/provider.h"
#include "specs/value.h"

typedef struct plugin_host plugin_host_t;

/* A provider's Log message: `pkg` is the package whose call was running (NULL when none was), `urn` the
 * message's URN ("" when global), d the diagnostic (resource set from the URN), status = LogStatus. */
typedef void (*plugin_host_log_fn)(void *user, const char *pkg, const char *urn, const diag_t *d, bool status);

typedef struct plugin_host_options {
    const char *project_dir;   /* plugins from its Pulumi.yaml / plugins/; the plugins' working dir */
    const char *const *attach; /* "pkg=PORT" entries: attach instead of launching */
    size_t n_attach;
    const pv_t *config;             /* object: package → object of config key → value; may be NULL */
    const char *const *plugin_dirs; /* extra directories searched before $PATH */
    size_t n_plugin_dirs;
    const char *pulumi_home;           /* NULL: $PULUMI_HOME, else ~/.pulumi */
    bool download;                     /* download missing plugins (default true) */
    bool ignore_debug_env;             /* do not read PULUMI_DEBUG_PROVIDERS */
    int port_timeout_ms;               /* wait for a plugin's port line; default 30000 */
    int call_timeout_ms;               /* deadline of each Read/Check/Diff call; default 300000 */
    int start_timeout_ms;              /* Handshake..Configure after the port line; default 60000 */
    int schema_timeout_ms;             /* GetSchema; default 300000 */
    const volatile sig_atomic_t *stop; /* the run's stop flag: a blocking call in flight is cancelled */
    int grace_ms;                      /* SIGINT → SIGKILL; default 5000 */
    int max_restarts;                  /* per plugin after crashes; default 2 */
    const char *stack, *project;       /* for provider URNs; default "cimport" */
    /* {provider URN: the inputs the stack records for it, secrets read} (may be NULL): CheckConfig's
     * olds for the provider of that URN, as the engine sends a provider's old inputs. */
    const pv_t *recorded;
    const char *schema_cache_dir; /* see grpc_provider.h; NULL: default */
    bool no_schema_cache;
    plugin_host_log_fn log; /* may be NULL */
    void *log_user;
    plugin_progress_fn progress; /* download progress; may be NULL */
    void *progress_user;
} plugin_host_options_t;

void plugin_host_options_default(plugin_host_options_t *o);

/* Starts the engine endpoint. NULL with diagnostics when an attach entry (or PULUMI_DEBUG_PROVIDERS)
 * is malformed or the endpoint cannot listen. The options' strings and config are copied. */
plugin_host_t *plugin_host_new(const plugin_host_options_t *o, diag_list_t *diags);
/* The provider_factory_fn: `host` is a plugin_host_t*. */
provider_t *plugin_host_factory(void *host, const char *pkg, const char *version, const char *download_url,
                                diag_list_t *diags);
/* The same for an explicit provider (provider_configured_factory_fn): its own plugin process, configured
 * with the provider's inputs instead of the package's default configuration. */
provider_t *plugin_host_configured_factory(void *host, const char *pkg, const char *version, const char *download_url,
                                           const char *name, const pv_t *config, diag_list_t *diags);
/* Stops every plugin still running and the endpoint. Free the registry first. */
void plugin_host_free(plugin_host_t *h);

/* The loop every plugin's connection, pipes and the endpoint run on; the endpoint's address. */
grpc_loop_t *plugin_host_loop(const plugin_host_t *h);
const char *plugin_host_engine_address(const plugin_host_t *h);
/* The process id of a launched provider's plugin (0 for attached ones or other providers). */
pid_t plugin_host_provider_pid(const provider_t *p);
/* The port a provider's plugin listens on (launched or attached); 0 when it is not running or not
 * one of these. */
int plugin_host_provider_port(const provider_t *p);

/* For the CLI: SIGINT/SIGTERM/SIGHUP kill every plugin's process group, then cimport dies of the
 * signal as usual. */
void plugin_host_install_signal_handlers(void);
/* plugin.h plugin_kill_all: for the CLI's own fatal-signal handlers. */
void plugin_host_kill_all(void);
/* The graceful form (plugin.h plugin_install_stop_handlers): first SIGINT/SIGTERM sets *flag. */
void plugin_host_install_stop_handlers(volatile sig_atomic_t *flag);

/* --- provider configuration ---------------------------------------------------------------------- */

/* `--config pkg:key=value`: sets config[pkg][key] = "value" (a string). */
bool plugin_host_config_parse_arg(arena_t *a, pv_t *config, const char *text, diag_list_t *diags);
/* Provider configuration comes in two forms, each `{pkg: {key: value}}`: `config`, what the plugins are
 * given (to CheckConfig, whose answer Configure gets), and `stack_values` (may be NULL), the stack's
 * configuration as Pulumi gives a default provider its inputs (its GetPackageConfig). In both every value
 * is the string Pulumi keeps (a number's or boolean's text, a list's or object's JSON with sorted keys);
 * in stack_values an encrypted one is a secret. Load the project's first, then the stack file's over it,
 * then the --config arguments (config only). */

/* The `config:` section of a Pulumi.<stack>.yaml: every `pkg:key: value` entry (also the older
 * `pkg:config:key`). The project's own config (no package, or the project's name as the prefix) is
 * skipped. An encrypted (`secure:`) value is decrypted with the keyring (the stack's passphrase; its
 * `encryptionsalt:`); without one, or a stack whose secrets provider is not the passphrase, it is an
 * error: the provider would run without it. A file importing Pulumi ESC environments (`environment:`)
 * is an error naming them: cimport cannot open them, and the providers would run without what they give. */
struct passphrase_keyring;
bool plugin_host_config_load_stack(arena_t *a, pv_t *config, pv_t *stack_values, const char *path, const char *project,
                                   struct passphrase_keyring *keyring, diag_list_t *diags);
/* The project-level config of Pulumi.yaml's `config:` block (Pulumi applies it to every stack, under the
 * stack file's values): each `pkg:key: VALUE` or `pkg:key: {value: VALUE}` of another namespace than the
 * project's. A missing file is no error. */
bool plugin_host_config_load_project(arena_t *a, pv_t *config, pv_t *stack_values, const char *path,
                                     const char *project, diag_list_t *diags);

#endif

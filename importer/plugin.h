/* plugin.h — Pulumi resource-provider plugins as programs: finding them, launching them, stopping
 * them and downloading them (provider-protocol.md §4).
 *
 * Discovery follows the engine's order: project plugins (Pulumi.yaml `plugins.providers` entries with
 * a `path`, and `<project>/plugins/`), extra search directories, `$PATH` (`pulumi-resource-<pkg>`),
 * then the plugin cache `$PULUMI_HOME/plugins/resource-<pkg>-v<version>/pulumi-resource-<pkg>`
 * (default ~/.pulumi). A requested version picks the exact cache entry if present, else the newest
 * one of the same major version that is not older; prereleases only match exactly. Directories being
 * downloaded (`.partial`) are never used.
 *
 * A launched plugin runs in its own process group with the engine endpoint address as its argument.
 * Its port line is read one byte at a time, as the engine does; afterwards its stdout and stderr keep
 * being drained by the event loop (importer/grpc.h) it was launched on, and the last lines of each are
 * kept for error messages. Stopping sends SIGINT to the group, waits a grace period, then SIGKILL.
 *
 * Downloads use libcurl and Pulumi's asset naming; the archive is unpacked with `tar -xzf` into the
 * plugin cache behind a `.partial` marker, so a half-finished download is never picked up. */
#ifndef CIMPORT_PLUGIN_H
#define CIMPORT_PLUGIN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/arena.h"
#include "base/diag.h"
#include "importer/grpc.h"
#include "specs/value.h"

/* --- versions ------------------------------------------------------------------------------------ */

typedef struct plugin_semver {
    long major, minor, patch;
    char pre[64]; /* prerelease text after '-', "" when none; build metadata is dropped */
} plugin_semver_t;

/* Parses "1.2.3", "v1.2.3", "1.2.3-alpha.1+build". False when it is not a semantic version. */
bool plugin_semver_parse(const char *text, plugin_semver_t *out);
/* <0, 0, >0 by semver precedence (a prerelease sorts before its release). */
int plugin_semver_compare(const plugin_semver_t *a, const plugin_semver_t *b);
/* Whether `have` may serve a request for `want`: exact, or same major and not older, and a
 * prerelease only when asked for exactly. */
bool plugin_semver_compatible(const plugin_semver_t *have, const plugin_semver_t *want);

/* --- YAML ---------------------------------------------------------------------------------------- */

/* Loads a YAML file (Pulumi.yaml, Pulumi.<stack>.yaml) as a value: mappings become objects,
 * sequences arrays, plain scalars null/bool/number when they read as such, everything else strings.
 * NULL with a diagnostic naming the file and line when it cannot be read or parsed. A missing file
 * is an error only when `must_exist`; otherwise *missing is set and NULL returned. */
pv_t *plugin_yaml_load(arena_t *a, const char *path, bool must_exist, bool *missing, diag_list_t *diags);

/* --- discovery ----------------------------------------------------------------------------------- */

typedef struct plugin_search {
    const char *project_dir; /* Pulumi.yaml and plugins/ live here; NULL: none */
    const char *const *dirs; /* extra directories searched before $PATH */
    size_t n_dirs;
    const char *path_env;    /* NULL: getenv("PATH") */
    const char *pulumi_home; /* NULL: $PULUMI_HOME, else $HOME/.pulumi */
    bool ignore_ambient;     /* skip $PATH (as PULUMI_IGNORE_AMBIENT_PLUGINS does) */
} plugin_search_t;

typedef struct plugin_location {
    const char *path;    /* the executable */
    const char *version; /* from the cache directory name; NULL when not known (project, $PATH) */
    const char *origin;  /* "Pulumi.yaml", "project plugins", "search directory", "$PATH", "plugin cache" */
} plugin_location_t;

/* `$PULUMI_HOME/plugins` (or `$HOME/.pulumi/plugins`), arena-allocated; NULL when neither is set. */
char *plugin_cache_dir(arena_t *a, const char *pulumi_home);

/* Finds pulumi-resource-<pkg>. version may be NULL (newest wins in the cache). Every place looked at
 * is appended to `looked` as a line "  - <where>: <what was there>\n" (may be NULL), for the error
 * message the caller gives when nothing fits. Bad Pulumi.yaml entries give diagnostics. */
bool plugin_find(arena_t *a, const plugin_search_t *s, const char *pkg, const char *version, plugin_location_t *out,
                 buf_t *looked, diag_list_t *diags);

/* --- processes ----------------------------------------------------------------------------------- */

typedef struct plugin_proc plugin_proc_t;

typedef struct plugin_launch_options {
    const char *cwd;         /* NULL: inherit */
    const char *const *args; /* arguments after the program name (the engine address) */
    size_t n_args;
    int port_timeout_ms;               /* how long to wait for the port line; <= 0: 30000 */
    size_t keep_lines;                 /* stderr/stdout lines kept for messages; 0: 20 */
    const volatile sig_atomic_t *stop; /* the run's stop flag: set, the wait ends at once; may be NULL */
} plugin_launch_options_t;

/* Starts the plugin at `path` in its own process group and waits (running `loop`, so servers on it
 * keep answering) for its port line. `name` is how messages call it ("the random provider").
 * NULL with a diagnostic — including the plugin's last stderr lines — when it cannot be started,
 * exits, prints something other than a port, or prints nothing in time; no process is left behind. */
plugin_proc_t *plugin_launch(grpc_loop_t *loop, const char *path, const char *name, const plugin_launch_options_t *o,
                             diag_list_t *diags);
int plugin_proc_port(const plugin_proc_t *p);
pid_t plugin_proc_pid(const plugin_proc_t *p);
/* Whether the process has exited (reaped without blocking); *how is set to "exited with status N" /
 * "was killed by signal N (Killed)" when it has. */
bool plugin_proc_exited(plugin_proc_t *p, const char **how);
/* Whether its stdout and stderr are both closed (it exited, or is exiting); reads what is pending. */
bool plugin_proc_output_closed(plugin_proc_t *p);
/* The last kept stderr lines, each prefixed with "    ", joined with '\n' ("" when none). */
char *plugin_proc_stderr_tail(const plugin_proc_t *p, arena_t *a);
/* SIGINT to the process group, up to grace_ms for it to exit, then SIGKILL to the group; reaps the
 * process, removes its pipes from the loop and frees everything. NULL is fine. */
void plugin_stop(plugin_proc_t *p, int grace_ms);

/* SIGKILLs the process group of every running plugin. Async-signal-safe: for a fatal signal's handler. */
void plugin_kill_all(void);
/* Installs SIGINT/SIGTERM/SIGHUP handlers that SIGKILL the process group of every running plugin and
 * then die of the same signal, so an interrupted cimport leaves no plugin behind. */
void plugin_install_signal_handlers(void);
/* The graceful form: the first SIGINT or SIGTERM sets *flag to the signal number and returns (the
 * caller stops its work, cancels what is in flight and keeps what finished); a second one kills
 * every plugin's process group and dies of the signal at once. SIGHUP stays fatal. */
void plugin_install_stop_handlers(volatile sig_atomic_t *flag);

/* --- download ------------------------------------------------------------------------------------ */

/* Called while downloading: bytes so far and the total (0 when unknown). */
typedef void (*plugin_progress_fn)(void *user, const char *pkg, const char *version, size_t done, size_t total);

/* The asset URL: `base` (pluginDownloadUrl; `${VERSION}`, `${OS}`, `${ARCH}` are replaced) followed by
 * `/pulumi-resource-<pkg>-v<version>-<os>-<arch>.tar.gz`; NULL base means Pulumi's release server
 * https://get.pulumi.com/releases/plugins. */
char *plugin_asset_url(arena_t *a, const char *base, const char *pkg, const char *version);

/* Downloads and unpacks pulumi-resource-<pkg> v<version> into the plugin cache, then locates it.
 * False with a diagnostic saying what failed (HTTP status, network error, bad archive); nothing is
 * left in the cache then. */
bool plugin_download(arena_t *a, const char *pulumi_home, const char *pkg, const char *version, const char *base_url,
                     plugin_progress_fn progress, void *user, plugin_location_t *out, diag_list_t *diags);

#endif

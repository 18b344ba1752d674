/* tfmapper.h — the Terraform mappings of installed Pulumi provider plugins, asked the way Pulumi's
 * converter asks them (reference/terraform-mapping.md): GetMapping("terraform", <tf provider>) over
 * gRPC, returning the mapping document (specs/bridge.h reads it).
 *
 * For each Terraform provider P: first the plugin named like P (`google` → gcp, `azurerm` → azure, ...;
 * convert_tf_provider_package) is asked GetMapping("terraform", P); when there is none or it has no
 * mapping, every other installed plugin is asked GetMappings("terraform") and, when its list names P,
 * GetMapping("terraform", P); a plugin without GetMappings is asked GetMapping("terraform", "") once
 * (its primary mapping), which counts when the response names P. When the plugin named like P is
 * installed but has no mapping for it, its schema (GetSchema) is fetched instead, so the caller can
 * confirm the tokens the bridge's default naming rule derives. Plugins are located as the import
 * path locates them (importer/plugin.h: project plugins, extra directories, $PATH, the plugin cache
 * `$PULUMI_HOME/plugins`), or attached to (`pkg=PORT` entries and PULUMI_DEBUG_PROVIDERS). A plugin
 * is started at most once per lookup and stopped at the end; it is not configured.
 *
 * Mapping documents are cached per plugin name and version under
 * `$XDG_CACHE_HOME/cimport/mappings/<plugin>-<version>/<P>.json` (else `~/.cache/cimport/...`), so a
 * plugin whose version is known from the plugin cache is not even started the next time. */
#ifndef CIMPORT_TFMAPPER_H
#define CIMPORT_TFMAPPER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"

typedef struct tfmapper_options {
    const char *project_dir;        /* plugins of its Pulumi.yaml / plugins/; NULL: none */
    const char *const *plugin_dirs; /* extra directories searched before $PATH */
    size_t n_plugin_dirs;
    const char *path_env;      /* NULL: getenv("PATH") */
    const char *pulumi_home;   /* NULL: $PULUMI_HOME, else ~/.pulumi */
    const char *const *attach; /* "pkg=PORT" entries: ask a running plugin */
    size_t n_attach;
    bool ignore_debug_env; /* do not read PULUMI_DEBUG_PROVIDERS */
    const char *cache_dir; /* NULL: $XDG_CACHE_HOME/cimport or ~/.cache/cimport */
    bool no_cache;
    int port_timeout_ms; /* default 30000 */
    int call_timeout_ms; /* default 120000 */
} tfmapper_options_t;

/* What was found for one Terraform provider. */
typedef struct tfmapper_answer {
    const char *tf_provider;
    const char *data; /* the mapping document, NULL when no plugin maps the provider */
    size_t len;
    const char *plugin; /* the plugin that answered ("aws"), NULL when none */
    const char *origin; /* e.g. "GetMapping(terraform, aws) of pulumi-resource-aws 6.0.0 ($PATH)" */
    bool from_cache;    /* read from the mapping cache instead of asking the plugin */
    const char *why;    /* when data is NULL: which plugins were asked and what they said */
    const char *schema; /* when data is NULL: GetSchema of the plugin named like the provider, or NULL */
    size_t schema_len;
} tfmapper_answer_t;

typedef struct tfmapper_stats {
    size_t plugins_started; /* processes launched */
    size_t plugins_attached;
    size_t get_mapping_calls, get_mappings_calls;
    size_t cache_hits;
} tfmapper_stats_t;

/* Looks up a mapping for each of the n Terraform providers; out[i] answers providers[i]. Failing to
 * start or ask a plugin is not an error (it is in out[i].why); malformed attach entries are (false
 * with a diagnostic). Everything is allocated from a. stats may be NULL. */
bool tfmapper_lookup(arena_t *a, const tfmapper_options_t *o, const char *const *providers, size_t n,
                     tfmapper_answer_t *out, tfmapper_stats_t *stats, diag_list_t *diags);

/* For a Terraform state: looks up the mappings of every provider of a managed resource that bridge
 * does not cover yet, adds what the plugins answer to bridge (and the schemas of named plugins
 * without a mapping to *schemas, created when NULL), and returns (arena) one hint per
 * provider left without a mapping (what was asked; for convert_options_t.hints) and every answer.
 * no_plugins: ask nothing, the hints say so. False with diagnostics on bad attach entries or a
 * malformed mapping document from a plugin. */
struct tf_state;
struct bridge_set;
struct convert_provider_hint;
struct schema_set;
bool tfmapper_fill_bridge(arena_t *a, const tfmapper_options_t *o, bool no_plugins, const struct tf_state *s,
                          struct bridge_set *bridge, struct schema_set **schemas, struct convert_provider_hint **hints,
                          size_t *n_hints, tfmapper_answer_t **answers, size_t *n_answers, tfmapper_stats_t *stats,
                          diag_list_t *diags);

#endif

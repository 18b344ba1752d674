/* convert.h — bulk migration: Terraform state and other Pulumi stacks into import files, and
 * Terraform state into a Pulumi-typed stack snapshot the offline provider can serve.
 *
 * Terraform → import file follows pulumi-converter-terraform's TranslateState (import-semantics
 * §1.7): one spec per managed instance, `-<index>`/`-<key>` name suffixes, the character
 * sanitizing, and the per-type ID exceptions table; beyond it, module paths prefix names, names are
 * deduplicated, provider aliases and module provider blocks become explicit provider specs, and
 * every resource that is not converted is listed in the report with its reason.
 *
 * Pulumi export → import file follows `pulumi preview --import-file` (§1.8): explicit providers
 * and components become specs, default providers do not, parents and providers are referenced by
 * name, and whatever is referenced but not imported goes to the nameTable. */
#ifndef CIMPORT_CONVERT_H
#define CIMPORT_CONVERT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "specs/bridge.h"
#include "specs/deployment.h"
#include "specs/importfile.h"
#include "specs/schema.h"
#include "specs/tfstate.h"

typedef enum {
    CONVERT_CONVERTED = 0,
    CONVERT_SKIPPED,  /* data sources, deposed objects, the stack, default providers, pending deletes */
    CONVERT_UNMAPPED, /* no Pulumi type for it */
    CONVERT_NO_ID,    /* mapped, but the state has no import ID for it */
} convert_outcome_t;

/* One source resource (instance) and what became of it. */
typedef struct convert_entry {
    const char *address;      /* Terraform address with instance key, or the URN */
    const char *source_type;  /* Terraform type, or Pulumi type for exports */
    const char *token;        /* Pulumi type token; NULL when unmapped */
    const char *name;         /* the spec's name; NULL unless converted */
    const char *logical_name; /* the spec's logicalName when it differs from name (Terraform), else NULL */
    const char *id;           /* import ID; NULL when none */
    convert_outcome_t outcome;
    const char *reason;      /* why skipped/unmapped/no ID; for converted ones an optional note */
    bool tainted;            /* converted from a Terraform instance marked tainted (its last apply failed part way) */
    bool deposed;            /* skipped: a Terraform deposed object (pending destroy) */
    bool stack_only;         /* converted, but its provider has no importer: into a stack only (reason says) */
    const char *tf_provider; /* Terraform: the provider's name (`aws`) for unmapped entries, else NULL */
    const char *package;     /* Terraform: the Pulumi package named like it (`aws`, `gcp`), for advice */
} convert_entry_t;

/* What a conversion of `terraform show -json` says of its providers (convert_report_t.providers_unrecorded). */
#define CONVERT_SHOW_JSON_PROVIDERS                                                                                    \
    "`terraform show -json` does not record which provider configuration (an alias, a module's provider block) "       \
    "each resource uses, so every resource is imported through its package's default provider; if the "                \
    "configuration uses aliases or module providers, convert the state itself (`terraform state pull > "               \
    "terraform.tfstate`), which records them"

typedef struct convert_report {
    convert_entry_t *entries;
    size_t n_entries, cap_entries;
    size_t converted, skipped, unmapped, no_id;
    size_t stack_only; /* of the converted: types whose provider has no importer (importid_no_importer) */
    size_t providers;  /* explicit provider specs written */
    /* explicit providers not converted for what an import file cannot carry (their secret configuration):
     * they, and the resources under them, are listed as skipped and the run exits as with some unmapped */
    size_t withheld;
    /* they come from a Terraform state, which records no provider configuration: each needs it set */
    bool providers_unconfigured;
    /* a `terraform show -json` document, which does not record each resource's provider configuration
     * (an alias, a module's provider block): every converted resource is on its default provider */
    bool providers_unrecorded;
    const char *note; /* why the input has nothing to import (the state is empty, ...), or NULL */
} convert_report_t;

/* What the caller learned about a Terraform provider beyond the mappings (e.g. which plugins it
 * asked and what they answered); appended to the reason of the provider's unmapped resources. */
typedef struct convert_provider_hint {
    const char *tf_provider; /* `aws` */
    const char *text;
} convert_provider_hint_t;

typedef struct convert_options {
    bridge_set_t *bridge;  /* may be NULL: then only the default naming rule applies */
    schema_set_t *schemas; /* may be NULL */
    const convert_provider_hint_t *hints;
    size_t n_hints;
} convert_options_t;

/* Terraform state → import file (specs in state order, provider specs first). A resource gets a type
 * only when a mapping in opts->bridge names it, or when a schema in opts->schemas contains the token
 * the bridge's default naming rule derives; every other resource is unmapped (in the report with its
 * reason), never guessed. A state with no managed resources gives an import file with no specs and
 * report->note saying why. Names follow pulumi-converter-terraform (convert_tf_name), with
 * logicalName set when it differs. */
import_file_t *convert_tfstate_to_import_file(arena_t *a, const tf_state_t *s, const convert_options_t *opts,
                                              convert_report_t *report, diag_list_t *diags);

/* A stack export or checkpoint to convert, loaded indexed (specs/deployment.h): a 1,000,000-resource
 * export is not held as a JSON tree, and only provider resources' properties are ever parsed. A
 * file that is not a Pulumi state is read whole for the usual error. Free with deployment_free. */
deployment_t *deployment_load_for_convert(arena_t *a, const char *path, diag_list_t *diags);
/* `pulumi stack export` → import file (the state loaded either way), allocated in `a` with copies of
 * what it keeps from d, so d may be freed after; the report's entries point into d. NULL (with a
 * diagnostic) when the export has no resources to import or a provider's properties do not read. */
import_file_t *convert_deployment_to_import_file(arena_t *a, const deployment_t *d, convert_report_t *report,
                                                 diag_list_t *diags);

/* Terraform state → stack snapshot: one custom resource per converted instance, URN
 * `urn:pulumi:dev::imported::<type>::<name>` (names as in the import file), ID as in the import
 * file, outputs = every attribute mapped to Pulumi names and typed by the schema (maxItemsOne
 * lists flattened, sensitive attributes secret), inputs = those outputs that are input properties
 * of the schema. The caller frees the result with deployment_free. */
deployment_t *convert_tfstate_to_deployment_with(arena_t *a, const tf_state_t *s, const convert_options_t *opts,
                                                 diag_list_t *diags);
/* The same from a path; mapping_path (file or directory of bridge metadata) is loaded for the call.
 * With mapping_path NULL, bridge-metadata*.json files in the directories the schemas were loaded
 * from are used. For `--offline-state FILE` when FILE is a Terraform state. */
deployment_t *convert_tfstate_to_deployment(arena_t *a, const char *path, schema_set_t *schemas,
                                            const char *mapping_path, diag_list_t *diags);
/* The same two, also filling `report` (arena-allocated entries) with what was not converted and
 * why — the import report lists unmapped resources from it. */
deployment_t *convert_tfstate_to_deployment_report(arena_t *a, const tf_state_t *s, const convert_options_t *opts,
                                                   convert_report_t *report, diag_list_t *diags);
deployment_t *convert_tfstate_file_to_deployment(arena_t *a, const char *path, schema_set_t *schemas,
                                                 const char *mapping_path, convert_report_t *report,
                                                 diag_list_t *diags);

/* A bridge set holding the bridge-metadata*.json files kept next to the loaded schemas (the layout of
 * provider repositories and of ../shared/data/schemas/<pkg>/). The caller frees it. */
bridge_set_t *convert_bridge_beside_schemas(schema_set_t *schemas, diag_list_t *diags);

/* Whether text is a Terraform state (any version) or `terraform show -json` output. */
bool convert_is_terraform_state(const char *text);

/* The TF instance's logicalName before deduplication: module path parts, the resource name and the
 * count index or for_each key joined with `-` (`module.net["a b"]`, `web`, key 0 → "net-a b-web-0"). */
char *convert_tf_logical_name(arena_t *a, const char *module, const char *name, const char *index_key);
/* Its spec name: the logical name sanitized (→ "net_a_b_web_0"). */
char *convert_tf_name(arena_t *a, const char *module, const char *name, const char *index_key);
/* pulumi-converter-terraform's rule: a leading digit gets `_` in front, and every rune that is not a
 * letter or digit becomes `_` ("a simple & resource" → "a_simple___resource", "0x" → "_0x"). */
char *convert_sanitize_name(arena_t *a, const char *name);
/* The Pulumi package named like a Terraform provider: `google` → "gcp", `azurerm` → "azure",
 * `bigip` → "f5bigip", `template` → "terraform-template", otherwise the provider's own name. */
const char *convert_tf_provider_package(const char *tf_provider);

/* The attribute holding the value a Pulumi resource type is imported by when that value is a secret
 * (the random provider's RandomPassword: "result", RandomBytes: "base64"), else NULL. */
const char *convert_secret_id_attr(const char *token);

/* Adds an entry to a report (used by both converters; exposed for the CLI's own refusals). */
convert_entry_t *convert_report_add(arena_t *a, convert_report_t *r, convert_outcome_t outcome, const char *address,
                                    const char *source_type);

#endif

/* importfile.h — Pulumi's import file (JSON or YAML) and the import plan derived from it.
 *
 * Parsing follows Go's encoding/json as `pulumi import` uses it: keys match case-insensitively,
 * unknown keys are ignored, null leaves the zero value. Planning (import-semantics §1.3) defaults
 * name/logicalName, validates every spec with Pulumi's exact messages, resolves parents and
 * providers through the nameTable and the specs' names, computes URNs, dedupes variable names, and
 * — beyond Pulumi, which loops forever — reports cyclic parents. */
#ifndef CIMPORT_IMPORTFILE_H
#define CIMPORT_IMPORTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "specs/value.h"

/* Strings are NULL when absent, null or empty (Go's zero value), so a NULL check is enough. */
typedef struct import_spec {
    const char *type;
    const char *name;
    const char *logical_name;
    const char *id;
    const char *parent;   /* a name: nameTable key or another spec's name */
    const char *provider; /* a name of an explicit provider */
    const char *version;
    const char *plugin_download_url;
    const char **properties;
    size_t n_properties;
    pv_t *inputs;  /* NULL when absent */
    pv_t *outputs; /* NULL when absent */
    int index;     /* position in the file (0-based) */
    bool component;
    bool remote;
} import_spec_t;

typedef struct import_name_entry {
    const char *name;
    const char *urn;
} import_name_entry_t;

typedef struct import_file {
    const char *path; /* NULL for inline specs */
    import_name_entry_t *name_table;
    size_t n_names;
    import_spec_t *specs;
    size_t n_specs;
} import_file_t;

/* Parses JSON (text starting with `{` or `[` after whitespace/BOM) or YAML. Syntax errors name the
 * file and line (diag->file, diag->line; the message gives the column). JSON syntax follows Go's
 * grammar and error texts ("invalid character '}' looking for beginning of object key string"). */
import_file_t *import_file_parse(arena_t *a, const char *text, size_t len, const char *path, diag_list_t *diags);
import_file_t *import_file_load(arena_t *a, const char *path, diag_list_t *diags);
/* The inline form `cimport TYPE NAME ID [--parent P] [--provider P] [--properties a,b]`
 * (import-semantics §1.4). parent/provider/properties may be NULL. */
import_file_t *import_file_inline(arena_t *a, const char *type, const char *name, const char *id, const char *parent,
                                  const char *provider, const char *properties, diag_list_t *diags);
/* Pulumi's writer: 4-space indent, omitempty except type and name. malloc'd. */
char *import_file_to_json(const import_file_t *f);
/* Pulumi's description of a spec for messages: `resource 'name'` (name, else logicalName, else
 * id in quotes, else the index) followed by ` of type 'T'` when the type is set. */
char *import_spec_describe(arena_t *a, const import_spec_t *s);

typedef struct import_plan_item {
    const import_spec_t *spec;
    const char *type;
    const char *logical_name;
    const char *variable; /* code identifier after Pulumi's dedupe rule (not yet sanitized) */
    const char *id;       /* NULL for components and providers */
    const char *urn;
    const char *parent_urn;   /* NULL when the parent is the stack */
    const char *provider_urn; /* explicit provider, NULL for the default provider */
    int parent_index;         /* index in plan items, or -1 (nameTable parent or none) */
    int provider_index;       /* index in plan items, or -1 */
    int depth;                /* 0 for top-level; parents always come before their children in `items` */
    bool is_provider;
    bool is_component;
    bool protect;
} import_plan_item_t;

typedef struct import_plan {
    const char *stack;
    const char *project;
    import_plan_item_t *items; /* resolution order: parents before children */
    size_t n_items;
    import_name_entry_t *names; /* URN → variable name, nameTable entries included */
    size_t n_names;
} import_plan_t;

/* Validates and resolves. On failure returns NULL and adds one diagnostic per problem, each with
 * Pulumi's wording (e.g. "resource 'x' of type 'T' has no ID"). */
import_plan_t *import_plan_build(arena_t *a, const import_file_t *f, const char *stack, const char *project,
                                 bool protect, diag_list_t *diags);
/* Pulumi's multierror text for a list of error messages: "1 error occurred:\n\t* msg\n\n". */
char *import_format_errors(arena_t *a, const diag_list_t *diags);

/* URN helpers. */
char *urn_make(arena_t *a, const char *stack, const char *project, const char *parent_qualified_type, const char *type,
               const char *name);
bool urn_is_valid(const char *urn);
/* Parts of `urn:pulumi:<stack>::<project>::<qualified type>::<name>`; NULL if not a URN. */
char *urn_name(arena_t *a, const char *urn);
char *urn_qualified_type(arena_t *a, const char *urn);
char *urn_type(arena_t *a, const char *urn); /* last `$` segment of the qualified type */

#endif

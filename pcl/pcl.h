/* pcl.h — the PCL program: AST, generation from imported resources, printing and parsing.
 *
 * PCL (Pulumi Configuration Language, HCL syntax) is the intermediate every emitter reads. The AST
 * keeps what import programs use: package, resource, component and config blocks; literal, tuple,
 * object, traversal (`other.id`, `a.b[0]["k"]`) and function-call (`secret(..)`, `fileAsset(..)`)
 * expressions. Each expression may carry the schema type at its position (set by generation or by
 * pcl_bind) so emitters can name nested types and convert numbers without re-deriving them. */
#ifndef CIMPORT_PCL_H
#define CIMPORT_PCL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/spool.h"
#include "specs/schema.h"
#include "specs/value.h"

typedef enum {
    PCL_NULL = 0,
    PCL_BOOL,
    PCL_NUMBER,
    PCL_STRING,
    PCL_TUPLE,
    PCL_OBJECT,
    PCL_TRAVERSAL,
    PCL_CALL,
    /* the rest of Pulumi's PCL expression language (parsed and printed; each emitter writes what
     * it can and emitters/check.c refuses the rest with its position) */
    PCL_TEMPLATE, /* "a-${x}-b": parts in tuple.items, PCL_STRING chunks and interpolated expressions */
    PCL_UNARY,    /* op x: op "!" or "-" */
    PCL_BINARY,   /* x op y: op one of || && == != < <= > >= + - * / % */
    PCL_COND,     /* x ? y : z */
    PCL_INDEX,    /* x[y] where x is not a plain name or y not a literal */
    PCL_GETATTR,  /* x.s where x is not a plain traversal (e.g. a call result: invoke(...).result) */
    PCL_SPLAT,    /* x[*] then trav.parts applied to each element (x[*].a.b) */
    PCL_FOR,      /* [for kvar, vvar in x : z if w] / {for kvar, vvar in x : y => z if w}; kvar may be NULL */
} pcl_expr_kind_t;

typedef struct pcl_expr pcl_expr_t;

typedef struct pcl_object_item {
    const char *key; /* the key's value (unescaped) */
    bool key_quoted; /* printed as "key" (maps) rather than bare (schema object properties) */
    pcl_expr_t *value;
    const schema_property_t *prop; /* the schema property for object-typed positions, else NULL */
} pcl_object_item_t;

typedef struct pcl_trav_part {
    const char *attr; /* `.attr`, or NULL for an index */
    bool index_is_string;
    const char *index_str; /* `["k"]` */
    size_t index_num;      /* `[0]` */
} pcl_trav_part_t;

/* A "\u0000" in a PCL string is held as the two bytes C0 80 (the NUL of "modified UTF-8"), so
 * strings stay C strings. The pair never comes from a program's text: the parser refuses text that
 * is not valid UTF-8, and C0 80 is not. Every writer of a string literal turns it into its
 * language's NUL escape; pcl_is_nul finds it. */
#define PCL_NUL "\xC0\x80"

static inline bool pcl_is_nul(const char *p) {
    return (unsigned char)p[0] == 0xC0 && (unsigned char)p[1] == 0x80;
}

struct pcl_expr {
    pcl_expr_kind_t kind;
    bool b;
    double n;
    const char *s; /* PCL_STRING: the value, unescaped (UTF-8) */
    struct {
        pcl_expr_t **items;
        size_t n;
    } tuple;
    struct {
        pcl_object_item_t *items;
        size_t n;
    } object;
    struct {
        const char *root;
        pcl_trav_part_t *parts;
        size_t n;
    } trav;
    struct {
        const char *name; /* secret, fileAsset, stringAsset, remoteAsset, fileArchive, remoteArchive, assetArchive */
        pcl_expr_t **args;
        size_t n;
        bool expand_final; /* `f(a, list...)`: the last argument's elements are the arguments */
    } call;
    const schema_type_t *type; /* schema type at this position, NULL when unknown; for invoke() and
                                  call(), the function's return type */
    /* a literal at a union position (`oneOf: [string, Enum]`) that one of the union's enum members
     * lists: that enum (Pulumi's generators write the literal as its member); `type` stays the
     * member the literal reduces to */
    const schema_type_t *union_enum;
    /* invoke(token, args[, options]) and call(resource, "method", args), bound: the function and
     * the package it comes from (NULL before binding) */
    const schema_function_t *function;
    schema_package_t *package;
    /* operators, conditionals, index/attribute on any expression, splat and for (see the kinds) */
    const char *op;
    pcl_expr_t *x, *y, *z, *w;
    const char *kvar, *vvar; /* PCL_FOR: the key/index and value variables */
    bool for_object;         /* PCL_FOR: `{for ...}` builds an object */
    bool inexact;            /* PCL_NUMBER: the literal's text is a value n (a float64) does not hold exactly
                                for certain: over 15 significant digits, or out of range */
    int line, col;           /* position in the parsed text (0 when generated) */
    int depth;               /* the parser's: the levels of this expression's tree, once known (0: not yet) */
};

/* Calls fn on e and, when fn returns true, on its sub-expressions in source order (pre-order, an
 * explicit stack: no recursion). The one walk the checker, the dependency sort and the emitters'
 * analyses share. */
void pcl_expr_walk(const pcl_expr_t *e, bool (*fn)(const pcl_expr_t *e, void *ctx), void *ctx);
/* What to call an expression kind in a message ("template interpolation", "a for expression", ...). */
const char *pcl_expr_kind_name(const pcl_expr_t *e);

typedef struct pcl_attr {
    const char *name;
    pcl_expr_t *value;
    const schema_property_t *prop; /* resource input property, NULL if not resolved */
    int line, col;                 /* position in the parsed text (0 when generated) */
} pcl_attr_t;

typedef enum {
    PCL_NODE_PACKAGE = 0, /* package <name> { baseProviderName = ..., baseProviderVersion = ...,
                             parameterization { name = ..., version = ..., value = ... } }; the name may be
                             left out when the parameterization names it */
    PCL_NODE_RESOURCE,    /* resource <name> "<token>" { attrs; options { ... } } */
    PCL_NODE_COMPONENT,   /* component <name> { __logicalName; token = "..."; options { ... } } (local component) */
    PCL_NODE_CONFIG,      /* config <name> "<type>" { __secret = true } — stack configuration read; the type
                             "any" when the block has none, attrs[0] its `default` when it has one */
    PCL_NODE_OUTPUT,      /* output <name> { value = <expr> } — a stack output (attrs[0] is `value`);
                             outputs have their own namespace and cannot be referenced */
    PCL_NODE_LOCAL,       /* <name> = <expr> — a top-level local variable (attrs[0] is `value`) */
    PCL_NODE_HOOK,        /* hook resource|error "<name>" { command = [...], onDryRun, ignoreErrors } — a resource
                             hook (token "resource") or an error hook ("error") running a command; resources
                             bind it with the `hooks` option, its command reads `args` (the hook's arguments) */
    PCL_NODE_PULUMI,      /* pulumi { requiredVersionRange = <expr> } — what the program needs of the Pulumi
                             CLI (attrs[0]); no name, at most one */
} pcl_node_kind_t;

typedef struct pcl_node {
    pcl_node_kind_t kind;
    const char *name;         /* identifier (block label) */
    const char *token;        /* RESOURCE/COMPONENT: type token; CONFIG: "string", "int", ...; OUTPUT: its
                                 optional type label; HOOK: "resource" or "error"; PACKAGE: NULL */
    const char *logical_name; /* `__logicalName`, NULL when equal to name */
    pcl_attr_t *attrs;        /* inputs (RESOURCE), package attributes (PACKAGE), command/onDryRun/ignoreErrors
                                 (HOOK) */
    size_t n_attrs;
    pcl_attr_t *options; /* in Pulumi's order: parent, provider, dependsOn, protect, retainOnDelete,
                            ignoreChanges, deletedWith, replaceWith, import */
    size_t n_options;
    pcl_attr_t *params; /* PACKAGE: its parameterization block's name, version and value (a parameterized
                           package: an SDK generated for the parameter), in the order written */
    size_t n_params;
    bool read;               /* RESOURCE: `read "name" "token" { id = ..., state... }`, an existing resource
                                read by its ID (the `id` attribute; the others its state) */
    bool config_secret;      /* CONFIG: read it as a secret */
    signed char output_memo; /* LOCAL, CONFIG (its default), for the emitters: 0 not known yet, 1 being decided,
                                2 reads an output, 3 not */
    signed char shape_memo;  /* LOCAL, for the emitters: its value's emit_shape_t once output_memo is 2 or 3 */
    const char *config_key;  /* CONFIG: the stack config key (defaults to name) */
    /* resolved by generation / pcl_bind; NULL when the schema is unknown */
    schema_package_t *package;
    const schema_resource_t *schema;
    int line, col; /* position of the block in the parsed text (0 when generated) */
} pcl_node_t;

typedef struct pcl_program {
    arena_t *arena; /* owns everything in the program */
    pcl_node_t *nodes;
    size_t n_nodes;
    size_t cap_nodes;
    /* Roots of traversals that name variables declared outside the program — in the file the code
     * is spliced into (pcl_gen_options_t.external). Emitters write them verbatim, without a
     * warning; they are names in the target language, not PCL identifiers. */
    const char **external_roots;
    size_t n_external_roots;
    const char *filename; /* the parsed file's name for diagnostics (NULL when generated) */
} pcl_program_t;

pcl_program_t *pcl_program_new(void);
void pcl_program_free(pcl_program_t *p);
/* Appends a zeroed node and returns it (pointer valid until the next append). */
/* Room for n nodes in all (exactly, not the doubling of pcl_program_add): a program whose size is
 * known is not grown and copied node by node, leaving each smaller array unused in its arena. */
void pcl_program_reserve(pcl_program_t *p, size_t n);
pcl_node_t *pcl_program_add(pcl_program_t *p, pcl_node_kind_t kind);
/* Index of the node declaring `name` (resources, components, config), or -1. */
int pcl_program_find(const pcl_program_t *p, const char *name);
/* Whether `root` is one of p->external_roots (and no node of the program declares it). */
bool pcl_program_is_external(const pcl_program_t *p, const char *root);

/* A copy of p to print without its secret values (the results document's and the report's code,
 * redact.c): every literal under a `secret(...)` call, and every string literal that is a key of
 * secret_strings (may be NULL), is `[secret]` — a string "[secret]", a number's or bool's the name
 * `[secret]`, an external root of the copy, which emitters write as it is (Pulumi YAML as
 * `${["[secret]"]}`). The copy shares what it does not change with p: free it (pcl_program_free)
 * before p. */
pcl_program_t *pcl_program_redacted(const pcl_program_t *p, const hashmap_t *secret_strings);

/* --- generation from imported resources -------------------------------------------------------- */

/* One imported resource as the generator needs it (the CLI fills these from the import results,
 * so pcl/ does not depend on importer/). */
typedef struct pcl_gen_resource {
    const char *type;
    const char *name;         /* variable name before sanitizing (plan's variable) */
    const char *logical_name; /* the URN name */
    const char *urn;
    const char *id;       /* for reference guessing; NULL for components/providers */
    const pv_t *inputs;   /* the inputs to write (object) */
    const pv_t *outputs;  /* state, for `name`/`arn` reference guessing; may be NULL */
    const char *parent;   /* variable name of the parent resource, NULL for the stack */
    const char *provider; /* variable name of an explicit provider, NULL for default */
    const char *version;  /* package version for the package block */
    const char *plugin_download_url;
    const char **ignore_changes;
    size_t n_ignore_changes;
    const char *import_id; /* emit the `import` option (code-first import), NULL otherwise */
    /* further options carried over from a recorded state (variable names as for parent) */
    const char **depends_on;
    size_t n_depends_on;
    const char *deleted_with;
    const char **replace_with;
    size_t n_replace_with;
    /* the flags together at the end (one such record a resource while the program is generated) */
    bool protect;
    bool component;        /* local component */
    bool retain_on_delete; /* from a recorded state */
} pcl_gen_resource_t;

typedef enum {
    PCL_SECRETS_CONFIG = 0, /* secret values become secret stack config reads (default) */
    PCL_SECRETS_LITERAL,    /* Pulumi's behaviour: secret("plaintext") */
} pcl_secrets_mode_t;

/* A reference candidate outside the import: a resource the user's program already declares
 * (cli/existing_refs.c finds them from the stack state and the file). A string input equal to
 * `value` becomes `<root>.<attr>` like a reference to an imported resource, but `root` is not a
 * node of the generated program: it is the variable the file declares, in the file's language. */
typedef struct pcl_external_ref {
    const char *value; /* the id, `name` or `arn` output */
    const char *root;  /* the variable declaring the resource in the program (e.g. `serverName`) */
    const char *attr;  /* "id", "name" or "arn" */
    const char *type;  /* the resource's type token; an imported resource of this type with this
                          id is the same resource re-imported, and supersedes the root's refs */
} pcl_external_ref_t;

typedef struct pcl_gen_options {
    pcl_secrets_mode_t secrets;
    bool guess_references; /* reference other imported resources by id/name/arn (default true) */
    /* Further reference candidates (with guess_references): exact whole-string matches, a value
     * that names more than one resource stays literal. Borrowed for the call. */
    const pcl_external_ref_t *external;
    size_t n_external;
    /* Names no generated variable or config key may take (the stack config's existing keys of the
     * project, so a secret's new key never clashes with one). Borrowed for the call. */
    const char *const *reserved_names;
    size_t n_reserved_names;
    /* With reserved_names: the value each holds (a string as is, anything else as JSON), or NULL when
     * unknown. A secret of the same value whose key would be that name takes it again (a re-run writes
     * the same code, no second key). Borrowed for the call. */
    const char *const *reserved_values;
    /* With reserved_values: true where that value is held only where this run does not write secrets
     * (the secrets file of an earlier run without a passphrase, now that the stack config takes them):
     * the key is taken again and the value still stored, so the key the code reads holds it where
     * `pulumi` looks. NULL: every held value is where this run writes. Borrowed for the call. */
    const bool *reserved_elsewhere;
    /* A caller that keeps many results for generation may free them while the program is still being
     * built: release_inputs(release_user, i) once resources[i].inputs are read for the last time (its
     * code's inputs generated), release_outputs(release_user) once no resource's outputs are read
     * again (every resource's inputs generated). The program holds copies of what it uses of them.
     * NULL: nothing is released (the resources are read until pcl_generate returns). */
    void (*release_inputs)(void *user, size_t i);
    void (*release_outputs)(void *user);
    /* A caller that does not hold the resources' inputs at all (resources[i].inputs NULL) gives them
     * here when asked: load_inputs(release_user, i), valid until the next call or release_inputs(i).
     * Asked once for each resource whose inputs generation reads, in resource order (pass 3), and before
     * that of a resource with a secret output (whether it only echoes an input). NULL: the inputs are
     * resources[i].inputs. */
    const pv_t *(*load_inputs)(void *user, size_t i);
    /* The same for the outputs (resources[i].outputs NULL): load_outputs(release_user, i), valid until
     * its next call. Asked once for each resource in pass 2, in order, and again in pass 3 for a resource
     * a secret input is found to come from. */
    const pv_t *(*load_outputs)(void *user, size_t i);
    void *release_user;
    /* The program printed into this spool as it is generated (pcl_print's text, byte for byte), each
     * batch of nodes freed once printed, so that it is never whole: the result's program then holds
     * no nodes (what the secrets' values and external_roots need). A failed write is the spool's to
     * report (spool_error). NULL: the program is built whole. */
    spool_t *print_to;
    /* print_to: asked of each node before it is printed (a caller's check of a whole program, a node at
     * a time), its messages into diags, which pcl_generate appends after its own. Once a node is
     * refused nothing more is printed; the rest are still asked. NULL: none. */
    bool (*print_check)(void *user, const pcl_node_t *n, diag_list_t *diags);
    void *print_check_user;
    size_t print_batch; /* print_to: resources generated before their nodes are printed and freed
                           (more while one refers to a later one); 0: 1024 */
} pcl_gen_options_t;

/* A secret value moved out of the code into stack config. */
typedef struct pcl_secret_value {
    const char *config_key; /* e.g. "myPasswordResult" */
    const pv_t *value;      /* the plaintext value (unwrapped) */
} pcl_secret_value_t;

typedef struct pcl_gen_result {
    pcl_program_t *program;
    pcl_secret_value_t *secrets;
    size_t n_secrets;
} pcl_gen_result_t;

void pcl_gen_options_default(pcl_gen_options_t *o);
/* Generates the program. Resources whose schema is missing get an error diagnostic naming the
 * resource and are left out; the others are still generated. Returns false if none could be. */
bool pcl_generate(const pcl_gen_resource_t *resources, size_t n, schema_set_t *schemas, const pcl_gen_options_t *opts,
                  pcl_gen_result_t *out, diag_list_t *diags);

/* A copy of a resource's outputs (its state) holding only what pcl_generate reads of them — the
 * `name` and `arn` members, the secret members, and any member whose string equals a secret
 * member's (a reference to a secret output is named after the property being set when the producer
 * has an output of that name with the same value) — so a caller keeping many results for generation
 * keeps a fraction of their state. Generation only compares a secret member (and a member kept for
 * equalling one) with inputs: one longer than 80 bytes is held by its SHA-256 (65 bytes), which
 * compares the same; anything else the caller asks of a secret (does it hold a given text) it asks of
 * the whole state. Generating from the copy gives the same program. */
pv_t *pcl_gen_outputs_needed(arena_t *a, const pv_t *outputs);

/* --- text ------------------------------------------------------------------------------------- */

/* Readable PCL (conformance style: 4-space indent, options last). malloc'd. */
char *pcl_print(const pcl_program_t *p);
/* Prints one block (a resource's PCL for results documents). malloc'd. */
char *pcl_print_node(const pcl_node_t *n);
/* Prints one expression (for diagnostics and tests). malloc'd. */
char *pcl_print_expr(const pcl_expr_t *e);
/* Parses the subset above, plus heredocs and `$${`/`%%{` escapes. Errors name file:line. */
pcl_program_t *pcl_parse(const char *text, size_t len, const char *filename, diag_list_t *diags);
/* Attaches schemas to nodes and schema types to expressions (after pcl_parse). Unknown types are
 * errors naming the resource. Function calls are bound too: `invoke(token, {args}, {options})`
 * (also `invoke(token, arg1, arg2)` for a function with multi-argument inputs) to the package's
 * function, `call(resource, "method", {args})` to the resource's method; their arguments are typed
 * from the function's inputs and the call from its return type, and an attribute read from the
 * result (`invoke(...).result`) from the output property. An unknown function, method, argument
 * or invoke option is an error naming its position. */
bool pcl_bind(pcl_program_t *p, schema_set_t *schemas, diag_list_t *diags);
/* Converts a literal expression back into a property value (for round-trip tests and
 * `convert --from pcl`): secret() becomes a secret, asset/archive calls assets/archives, and
 * traversals (references, config reads) strings of their text; the caller resolves those against
 * the program when it needs to. NULL for a call it does not know. */
pv_t *pcl_expr_to_value(arena_t *a, const pcl_expr_t *e);

/* Constant folding (pcl/fold.c): the value of an expression when it is certain before the program
 * runs — the same under HCL's reading of PCL (arbitrary-precision numbers, NFC strings, unified
 * conditional results) and the generated programs' (float64, strings as written): operators over
 * integers within ±2^53 with exact results, ASCII strings, conditionals whose results are scalars of
 * one kind, for expressions and splats over literal lists and objects, max() and min(), locals
 * through their values. Config values, resource outputs, invokes and other functions are not
 * certain. A folder memoizes locals' values; it and the values live in the arena `a`. */
typedef struct pcl_folder pcl_folder_t;
pcl_folder_t *pcl_folder_new(arena_t *a, const pcl_program_t *p);
/* The value as a literal expression (null, bool, number, string, tuple or object; it may share
 * literals with the program, and carries no type), or NULL when it is not certain. */
pcl_expr_t *pcl_fold(pcl_folder_t *f, const pcl_expr_t *e);

/* Pulumi PCL's built-in functions (pcl/functions.c): what kind of value each returns. */
typedef enum {
    PCL_FN_ANY = 0, /* depends on the arguments (element, lookup, try, invoke, ...) */
    PCL_FN_SAME,    /* the argument's value (secret, unsecret) */
    PCL_FN_STRING,
    PCL_FN_NUMBER,
    PCL_FN_BOOL,
    PCL_FN_LIST,
    PCL_FN_ASSET, /* an asset or archive */
} pcl_fn_result_t;

#define PCL_FN_VARIADIC 255
typedef struct pcl_function {
    const char *name;
    unsigned char min_args, max_args; /* max_args PCL_FN_VARIADIC: any number from min_args */
    pcl_fn_result_t result;
} pcl_function_t;

/* The built-in function `name`, or NULL when PCL has none of that name. */
const pcl_function_t *pcl_function_find(const char *name);
/* Whether the function takes n_args arguments. */
bool pcl_function_arity_ok(const pcl_function_t *f, size_t n_args);
/* How many arguments it takes, in words ("two or three arguments"), for messages. */
const char *pcl_function_arity(const pcl_function_t *f);

/* What a resource option's value is (Pulumi's PCL resource options). */
typedef enum {
    PCL_OPT_UNKNOWN = 0, /* not an option PCL defines */
    PCL_OPT_RESOURCE,    /* parent, provider, deletedWith: a resource */
    PCL_OPT_RESOURCES,   /* dependsOn, replaceWith: a list of resources */
    PCL_OPT_BOOL,        /* protect, retainOnDelete, deleteBeforeReplace */
    PCL_OPT_STRING,      /* import, version, pluginDownloadURL */
    PCL_OPT_PATHS,       /* ignoreChanges, replaceOnChanges, additionalSecretOutputs, hideDiffs:
                            property names/paths, written as strings in every language */
    PCL_OPT_ALIASES,     /* aliases: URN strings or {name, type, parent, noParent, stack, project} */
    PCL_OPT_TIMEOUTS,    /* customTimeouts: {create, update, delete, read} duration strings */
    PCL_OPT_OTHER,       /* range, providers, hooks, replacementTrigger, envVarMappings, ... */
} pcl_option_kind_t;

/* The kind of the resource option `name` (PCL_OPT_UNKNOWN for a name PCL does not define). */
pcl_option_kind_t pcl_option_kind(const char *name);

/* Identifier rules shared by generation: every character invalid in an HCL identifier becomes `_`,
 * a leading digit gets `_` in front, and PCL keywords are avoided. */
char *pcl_sanitize_identifier(arena_t *a, const char *name);

#endif

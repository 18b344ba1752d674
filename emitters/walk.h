/* walk.h — the part of an expression-printing emitter that is the same in every language
 * (emitters/ only).
 *
 * Every language walks the program's nodes with one walk, `emit_nodes`: each node in the program's
 * order by its kind's writer (`emit_node_writers_t`) — TypeScript's and Python's through their
 * syntax's printers, Go's, C#'s and Java's through the typed writers (`EMIT_TYPED_WRITERS`, Go
 * replacing two), YAML's into the section each kind belongs to.
 *
 * The TypeScript and Python emitters print into one buffer as they walk the program; what they
 * share is held here once: the file's state (program, names, packages, indentation, the output
 * atoms an apply resolves, the for-expression variables in scope) and the walk over the parts of
 * PCL whose shape does not depend on the language — packages and their modules, enum members,
 * references, calls, lists and objects, resource option lists, aliases. What differs by language
 * comes through the hooks of `emit_syntax_t` (the expression printer, a module's prefix, an
 * object key, an alias's keys) and the arguments of each function.
 *
 * A language's generator embeds an `emit_walk_t` as its first member, so a hook may convert the
 * `emit_walk_t *` it receives back to the generator that holds it.
 *
 * The emitters that print guided by the schema type at each position (Go, C#, Java) share the
 * values they write alike: the union member a literal fits, typed numbers, a function with no
 * translation, and (C#, Java) operators over plain values. */
#ifndef CIMPORT_EMIT_WALK_H
#define CIMPORT_EMIT_WALK_H

#include "emitters/emit_internal.h"

/* A package the program's resources come from and how the file imports it. */
typedef struct emit_pkg {
    const char *name;  /* package name (`random`) */
    const char *path;  /* what the file imports (`@pulumi/random`, `pulumi_random`) */
    const char *alias; /* the name the code uses (`random`) */
    schema_package_t *schema;
} emit_pkg_t;

typedef struct emit_walk emit_walk_t;

/* What differs by language in the shared walk. */
typedef struct emit_syntax {
    lang_t lang;
    /* writes an expression */
    void (*expr)(emit_walk_t *w, const pcl_expr_t *e);
    /* a PCL name (a module's part, an undeclared reference) as an identifier of the language */
    char *(*identifier)(arena_t *a, const char *s);
    /* `<alias>[.<module>...]`: how code names the module of a token of the package */
    char *(*module_prefix)(emit_walk_t *w, const emit_pkg_t *pk, const char *token);
    /* writes an object's key; schema_object: the object is a schema object type (not a map) */
    void (*object_key)(emit_walk_t *w, const pcl_object_item_t *it, bool schema_object);
    /* whether an operand needs parentheses beyond C-like precedence (NULL: never) */
    bool (*needs_parens)(const pcl_expr_t *parent, const pcl_expr_t *child);
    /* a call by its kind (emit_walk_call_expr): an invoke, a built-in function; a method call's
     * arguments (the object of them, args[2]), after `receiver.method(` */
    void (*invoke)(emit_walk_t *w, const pcl_expr_t *e);
    void (*call)(emit_walk_t *w, const pcl_expr_t *e);
    void (*method_args)(emit_walk_t *w, const pcl_expr_t *args);
    /* an expression over outputs, written in an apply that resolves them */
    void (*apply)(emit_walk_t *w, const pcl_expr_t *e);
    /* the statements of the program, one per node kind (Pulumi's genNode); idx is the node's */
    void (*resource)(emit_walk_t *w, size_t idx);
    void (*output)(emit_walk_t *w, size_t idx);
    /* a component's statement is shared (`<declare><construct>pulumi.ComponentResource("token", "name"`
     * ... `)<end>`): what comes after its name, its inputs and options */
    void (*component_args)(emit_walk_t *w, const pcl_node_t *n);
    /* a resource or error hook: its command as a function of the hook's arguments */
    void (*hook)(emit_walk_t *w, size_t idx);
    const char *declare;    /* a variable's declaration: a format of its identifier ("const %s = ") */
    const char *end;        /* the end of a statement (";\n") */
    const char *construct;  /* before a class to construct an object of it ("new ") */
    const char *new_config; /* the expression that makes the Config object ("new pulumi.Config()") */
    /* the call a pulumi block's requiredVersionRange is the argument of ("pulumi.requirePulumiVersion") */
    const char *require_version;
    /* the Config method that reads a config node's value (`requireSecretNumber`; `get...` for one
     * with a default) */
    const char *(*config_getter)(emit_walk_t *w, const pcl_node_t *n);
    /* after `config.get...("key")`: its default (n->attrs[0]), `close` and the statement's end */
    void (*config_default)(emit_walk_t *w, size_t idx, const char *close);
    /* around the read of a config value whose default reads an output, so that it is an Output
     * either way ("pulumi.output(" ... ")"; NULL: config_default makes it one) */
    const char *config_output_open, *config_output_close;
} emit_syntax_t;

struct emit_walk {
    const emit_syntax_t *syntax;
    arena_t *a;
    const pcl_program_t *p;
    diag_list_t *diags;
    buf_t *b;
    names_table_t *idents; /* identifiers taken in the file */
    names_table_t *nodes;  /* PCL node name → node index */
    const char **ident;    /* per node: its identifier */
    emit_pkg_t *pkgs;
    size_t n_pkgs;
    int indent;
    /* inside an apply: output atoms written as the lambda's parameters (see emit_apply_t) */
    const pcl_expr_t **subst; /* traversals: their first subst_skip parts are the parameter */
    const char **subst_name;
    size_t *subst_skip;
    size_t n_subst;
    bool in_apply;
    const char *scope[EMIT_MAX_SCOPE]; /* for-expression variables in scope */
    size_t n_scope;
    const char *config_var;       /* the Config object, when the program reads config */
    const pcl_expr_t *converting; /* the expression emit_walk_convert is writing inside its conversion */
};

/* A fresh walk writing to `out`: its own arena, name tables, one identifier slot per node, and
 * `pulumi` taken. Free with emit_walk_free. */
void emit_walk_init(emit_walk_t *w, const emit_syntax_t *syntax, const pcl_program_t *p, diag_list_t *diags,
                    buf_t *out);
void emit_walk_free(emit_walk_t *w);

/* A string where the schema wants a number or a boolean (emit_string_conversion: an ID, a string
 * output or local), converted as Pulumi's generators do: through an apply when it is an output
 * (`apply`, a format of the value and the conversion of "x": "%s.apply(x => %s)"), else directly.
 * `conv` spells each conversion over "%s". False, writing nothing, when e needs none. */
bool emit_walk_convert(emit_walk_t *w, const pcl_expr_t *e, const char *const conv[EMIT_CONV_UNSUPPORTED],
                       const char *apply);

/* What a language writes for each kind of node (gen: its generator). */
typedef struct emit_node_writers {
    void (*resource)(void *gen, size_t i); /* a resource or a read block */
    void (*component)(void *gen, size_t i);
    void (*output)(void *gen, size_t i);
    void (*hook)(void *gen, size_t i);
    void (*pulumi)(void *gen, size_t i);
    void (*local)(void *gen, size_t i);
    void (*config)(void *gen, size_t i, bool first); /* first: no config node came before it */
    void (*around)(void *gen, size_t i, bool after); /* before and after each node (NULL: nothing) */
} emit_node_writers_t;

/* The one walk over a program's nodes that every code language takes (TypeScript, Python, Go, C#,
 * Java; YAML writes its sections): each node but a package, in the program's order (emit_sort_program's:
 * each after what it refers to), by its kind's writer. */
void emit_nodes(const pcl_program_t *p, const emit_node_writers_t *w, void *gen);

/* Writes every node of the program in order: resources, components and outputs with the
 * syntax's printers, locals and config reads (the Config object declared before the first) as
 * declarations; each statement but an output's starts at the walk's indentation. */
void emit_walk_nodes(emit_walk_t *w);
/* Names the program's Config object when it reads config (unique by the language's rule: `sep`,
 * `first` as names_table_unique). */
void emit_walk_name_config(emit_walk_t *w, const char *sep, int first);

/* A module of the language's own library that a function of the program needs (`sha1` → `crypto`). */
typedef struct emit_module_use {
    const char *fn, *module;
} emit_module_use_t;
/* A helper function written after the imports when the program calls `fn`: its name and code. */
typedef struct emit_helper {
    const char *fn, *name, *text;
} emit_helper_t;
/* What the program's functions and hooks need, kept from the names the program's nodes take: the
 * modules of `modules` and the helpers of `helpers` the functions it calls need, and `hook_module`
 * when it has a hook (*hooks). Returns the set of the functions it calls (emit_program_functions). */
names_table_t *emit_walk_reserve_needs(emit_walk_t *w, const emit_module_use_t *modules, size_t n_modules,
                                       const emit_helper_t *helpers, size_t n_helpers, const char *hook_module,
                                       bool *hooks);
/* Names each node but packages (and outputs, unless `outputs`) unique by the language's rule (`sep`,
 * `first` as names_table_unique), its PCL name made an identifier by the syntax; every node but an
 * output is found by its PCL name. */
void emit_walk_name_nodes(emit_walk_t *w, const char *sep, int first, bool outputs);
/* Imports each module of `modules` one of the functions `fns` needs, once, by `fmt` (given the
 * module's name twice). */
void emit_walk_module_imports(emit_walk_t *w, buf_t *out, const names_table_t *fns, const emit_module_use_t *modules,
                              size_t n_modules, const char *fmt);
/* The code of each helper of `helpers` one of the functions `fns` needs. */
void emit_walk_helpers(buf_t *out, const names_table_t *fns, const emit_helper_t *helpers, size_t n_helpers);
/* Writes a helper's text; a line `<indent>@grapheme-tables` in it becomes the code point tables the
 * graphemeLength helpers' UAX #29 rules read (prepend, other_extend / otherExtend, not_spacing /
 * notSpacing, pictographic: sorted starts and exclusive ends), declared in `lang` at that indent —
 * one copy of the data for Python, Go and Java. */
void emit_helper_puts(buf_t *out, const char *text, lang_t lang);

/* --- nodes and packages ------------------------------------------------------------------------ */

/* The name the resource has in the stack (its logical name, else its PCL name). */
const char *emit_node_logical_name(const pcl_node_t *n);
/* The package a resource node comes from: its schema's, else its token's. */
const char *emit_node_package_name(arena_t *a, const pcl_node_t *n);
/* The packages of the resource nodes and of the functions the program invokes, each once, sorted
 * by the path `import_path` gives for the package (`schema` NULL when not loaded; aliases are left
 * for the language to choose). */
void emit_walk_collect_packages(emit_walk_t *w,
                                const char *(*import_path)(emit_walk_t *w, const schema_package_t *schema,
                                                           const char *name));
const emit_pkg_t *emit_walk_find_pkg(const emit_walk_t *w, const char *name);
/* The module of a token of the package (per its moduleFormat; without a schema, the common
 * `(.*)(?:/[^/]*)`: `index/bucket` → `index`), a modifiable arena string. */
char *emit_pkg_module(arena_t *a, const emit_pkg_t *pk, const char *token);
/* The string `language.<lang>.<key>.<mod>` of the package's schema, or NULL. */
const char *emit_pkg_language_string(const emit_pkg_t *pk, const char *lang, const char *key, const char *mod);
/* `<alias>.<seg>.<seg>`: each `/` part of `mod` lowercased and made a name by the syntax. */
char *emit_walk_module_path(emit_walk_t *w, const char *alias, char *mod);
/* The class a resource node constructs: `<alias>.Provider` for a provider, else the module prefix
 * and the token's member in PascalCase. NULL (with an error) when the token is malformed. */
const char *emit_walk_resource_class(emit_walk_t *w, const pcl_node_t *n);

/* A hook node: whether it is an error hook, and its command, onDryRun and ignoreErrors attributes
 * (NULL when absent). */
typedef struct emit_hook {
    bool error;
    const pcl_attr_t *command, *dry_run, *ignore_errors;
} emit_hook_t;
/* Reads a hook node into *h; false when it has no command (the parser requires one). */
bool emit_hook_attrs(const pcl_node_t *n, emit_hook_t *h);

/* --- expressions ------------------------------------------------------------------------------- */

/* A new line at the current indentation. */
void emit_walk_newline(emit_walk_t *w);
/* The enum type an external `$ref` names (`/enum/v30.0.0/schema.json#/types/enum:index:StringEnum`)
 * when a package of that name and version is one the program's resources use, with that package
 * (*pkg); else NULL. */
const schema_type_t *emit_external_enum(arena_t *a, const pcl_program_t *p, const char *ref, schema_package_t **pkg);
/* A literal at an enum position (a union's enum listing it, another package's enum the program
 * imports) as the SDK's member (`<module prefix>.<Enum>.<MEMBER>`); false,
 * writing nothing, when the value is not a member or its package is not imported. */
bool emit_walk_enum(emit_walk_t *w, const pcl_expr_t *e);
/* How the file names an enum type's class (`<module prefix>.<Enum>`); NULL when t is no enum of a
 * package the file imports. */
const char *emit_walk_enum_class(emit_walk_t *w, const schema_type_t *t);
/* An operand of `parent`, parenthesised as PCL groups it (right: the right operand). */
void emit_walk_operand(emit_walk_t *w, const pcl_expr_t *parent, const pcl_expr_t *child, bool right);
/* A binary operation's operands around ` op `: an operand of arithmetic of no type made a number
 * first (`to_number` "Number(", the operand, `)`), a null operand as `null` when given (NULL: as any
 * operand), else parenthesised as PCL groups it. */
void emit_walk_binary(emit_walk_t *w, const pcl_expr_t *e, const char *op, const char *to_number, const char *null);
/* A conditional `c ? a : b` as `c<then>a<otherwise>b` (`a<then>c<otherwise>b` when `value_first`),
 * each operand parenthesised as PCL groups it. */
void emit_walk_conditional(emit_walk_t *w, const pcl_expr_t *e, bool value_first, const char *then,
                           const char *otherwise);
/* `x[i]`, and `x.name` (the name by the syntax when `named`, else as is). */
void emit_walk_index(emit_walk_t *w, const pcl_expr_t *e);
void emit_walk_getattr(emit_walk_t *w, const pcl_expr_t *e, bool named);
/* Whether `name` is a for-expression variable in scope. */
bool emit_walk_in_scope(const emit_walk_t *w, const char *name);
/* Brings a for expression's variables into scope; false (with an error) when nested too deep. */
bool emit_walk_scope_push(emit_walk_t *w, const pcl_expr_t *e);
/* Whether a for expression's collection is known to be a list (*shape LIST) or a map (MAP,
 * OBJECT); false with an error otherwise. */
bool emit_walk_for_shape(emit_walk_t *w, const pcl_expr_t *e, emit_shape_t *shape);
/* A reference's root (idx: its node, or -1): the node's identifier, a variable of the file the
 * code goes into as is, or (with a warning) the undeclared name made a name by the syntax. */
void emit_walk_root(emit_walk_t *w, const pcl_expr_t *e, int idx);
/* `.attr` (named by the syntax when `named`, else as is), `["key"]` and `[0]` for parts [from, n). */
void emit_walk_trav_parts(emit_walk_t *w, const pcl_trav_part_t *parts, size_t from, size_t n, bool named);
/* The same into any buffer: attributes named by `name` (NULL: as written), strings quoted in
 * `lang`. */
void emit_append_trav_parts(buf_t *b, lang_t lang, const pcl_trav_part_t *parts, size_t from, size_t n, arena_t *a,
                            char *(*name)(arena_t *a, const char *s));
void emit_walk_trav_parts(emit_walk_t *w, const pcl_trav_part_t *parts, size_t from, size_t n, bool named);
/* A call of one of the functions in `calls` (PCL name → the language's emit_walk_format), with its
 * arguments; an error naming the call's position for any other function. */
typedef struct emit_call_name {
    const char *pcl, *lang;
} emit_call_name_t;
void emit_walk_call(emit_walk_t *w, const pcl_expr_t *e, const emit_call_name_t *calls, size_t n_calls);
/* A call by the syntax's hooks: an invoke, a method call (`receiver.method(` its arguments `)`, the
 * method's name made a name by the syntax), a function of outputs that takes no
 * inputs (outside an apply: in an apply of its own, as a function of resolved values), else a
 * built-in function. */
void emit_walk_call_expr(emit_walk_t *w, const pcl_expr_t *e);
/* `max(list...)`: `fmt` (a format of the function's name, "Math.%s("), the arguments with `spread`
 * ("...") before the last, `)`; false, writing nothing, for any other call. */
bool emit_walk_min_max_spread(emit_walk_t *w, const pcl_expr_t *e, const char *fmt, const char *spread);
/* An invoke up to its options: `<module prefix>.<function><suffix>(` (`suffix` when the function
 * returns an output; the function `unsplit` when its token has no member), then its arguments:
 * positional (a multi-argument function given them), else their object by `args` (NULL:
 * emit_walk_object). Returns whether they were positional. */
bool emit_walk_invoke_head(emit_walk_t *w, const pcl_expr_t *e, const char *suffix, const char *unsplit,
                           void (*args)(emit_walk_t *w, const pcl_expr_t *object));
/* `recover(value, fallback)`: `open` (an emit_walk_format of the call), the fallback with the
 * failure's message `error` in scope, `close`; false, writing nothing, for any other call (or when
 * the scope is full). */
bool emit_walk_recover(emit_walk_t *w, const pcl_expr_t *e, const char *open, const char *close);
/* Writes a built-in function call by a format of the language: `$0`..`$9` an argument, `$r0`..`$r9`
 * an argument that is the receiver of a method or an index (parenthesised when an operator or
 * conditional), `$*` every argument separated by ", "; other text is copied. */
void emit_walk_format(emit_walk_t *w, const char *fmt, const pcl_expr_t *e);
/* The names of the functions the program calls anywhere (a set: names_table_get >= 0), and "%" when it
 * uses that operator (Python writes math.fmod). */
names_table_t *emit_program_functions(arena_t *a, const pcl_program_t *p);
/* Whether the program has a template with an interpolated expression anywhere. */
bool emit_program_has_template_value(const pcl_program_t *p);
/* Whether the program calls `fn` with an argument of the given shape (length, entries). */
bool emit_program_calls_with_shape(const pcl_program_t *p, const names_table_t *nodes, const char *fn,
                                   emit_shape_t shape);
/* The index in the apply's atoms of an expression an apply resolves, or -1. */
int emit_walk_subst(const emit_walk_t *w, const pcl_expr_t *e);
/* Writes `e` with `computed` inside the apply `ap` plans, then `)`. */
void emit_walk_apply_body(emit_walk_t *w, const emit_apply_t *ap, const pcl_expr_t *e,
                          void (*computed)(emit_walk_t *w, const pcl_expr_t *e));
/* `[]`, `[x]`, or one item a line with trailing commas. */
void emit_walk_list(emit_walk_t *w, const pcl_expr_t *e);
/* `{}`, or one `key: value,` a line; keys by the syntax's object_key. */
void emit_walk_object(emit_walk_t *w, const pcl_expr_t *e, bool schema_object);

/* --- resource options -------------------------------------------------------------------------- */

/* How the language writes one alias object: `<open>k<sep>v, ...<close>`; `noParent = true` is
 * `no_parent`; a key is renamed by `key` when given. */
typedef struct emit_alias_syntax {
    const char *open, *close, *sep, *no_parent;
    const char *(*key)(const char *key);
} emit_alias_syntax_t;
/* ignoreChanges and aliases: a list of property paths as strings (`["tags", "rules[0].port"]`),
 * or of aliases; one item a line when there are several. */
void emit_walk_option_list(emit_walk_t *w, pcl_option_kind_t kind, const pcl_expr_t *t,
                           const emit_alias_syntax_t *alias);

/* The state Go, C# and Java write a program with. */
typedef struct emit_typed {
    arena_t *a;
    const pcl_program_t *p;
    diag_list_t *diags;
    bool report;               /* second pass: diagnostics are reported only once */
    const char **var;          /* per node: its identifier */
    const pcl_node_t *node;    /* node being written (diagnostic context) */
    names_table_t *index;      /* node name → node index (pcl_program_find is a linear scan) */
    names_memo_t memo;         /* type token → the language's module path */
    const emit_apply_t *apply; /* inside an apply: its output atoms are written as its parameter */
    bool int_checked;          /* inside the syntax's int_checked context */
    bool strict;               /* inside can() or try()'s arguments: parts by strict_value_parts */
    /* the expression being written (NULL: none), and whether it may be a double where PCL computes a
     * number: an output's value, or what it holds in a list, map, conditional, operator or for
     * expression's items, a template's part, a comparison's operand, or a value where the schema
     * wants a number (ints added, subtracted, multiplied or negated are computed as doubles there,
     * as PCL computes them; elsewhere an int is wanted: checked) */
    const pcl_expr_t *writing;
    bool number_ok;
    /* inside a for expression's lambdas: its variables (scope_name) and how the code reads them */
    const char *scope_name[EMIT_MAX_SCOPE], *scope_text[EMIT_MAX_SCOPE];
    bool scope_keys[EMIT_MAX_SCOPE]; /* the variable holds a map (an entries() item): attributes read as keys */
    /* the collection the variable goes over (NULL: not known), and whether it is its index or key */
    const pcl_expr_t *scope_coll[EMIT_MAX_SCOPE];
    bool scope_is_key[EMIT_MAX_SCOPE];
    size_t n_scope;
} emit_typed_t;
/* A fresh state (its own arena: free with arena_free(t->a)); false, with nothing kept, when a
 * type token is malformed (names_check_tokens' errors name the language). */
bool emit_typed_init(emit_typed_t *t, const pcl_program_t *p, diag_list_t *diags, lang_t lang);
/* The index of the node a PCL name refers to, or -1. */
int emit_typed_find(const emit_typed_t *t, const char *name);
/* How the language's code names the module of a type token (an import alias, a namespace, a
 * package), made by `make` from the token's package name and module (emit_token_module) once per
 * distinct token and remembered; `unknown` for a malformed token. */
typedef const char *(*emit_module_fn)(emit_typed_t *t, schema_package_t *pkg, const char *pkgname, const char *mod);
const char *emit_typed_module(emit_typed_t *t, schema_package_t *pkg, const char *token, emit_module_fn make,
                              const char *unknown);

/* The package name (the schema's, else the token's) and module (by the schema's moduleFormat,
 * else the token's; "index" when the token has none) of a type token; false when it is malformed. */
bool emit_token_module(arena_t *a, schema_package_t *pkg, const char *token, char **pkgname, const char **mod);

/* How a language reads a traversal's parts from an Output or value: `attr` the format of an
 * attribute after the first (".Apply(v => v.%s)"), `first_attr` of the first (".%s"), `key_open`
 * and `key_close` around a quoted string index, `index` the format of a number index; `name`
 * names an attribute (idx: the root node or -1; first: the traversal's first part). */
typedef struct emit_part_syntax {
    lang_t lang;
    const char *attr, *first_attr, *key_open, *key_close, *index; /* attr, first_attr: one %s */
    const char *component_ref; /* before a reference to a component (NULL: nothing) */
    const char *(*name)(emit_typed_t *x, int idx, const char *attr, bool first);
} emit_part_syntax_t;
/* One part: an attribute by `s->attr` when `name` is given, else (or a string index) a quoted key,
 * else a number index. */
void emit_append_part(buf_t *b, const pcl_trav_part_t *pt, const char *name, const emit_part_syntax_t *s);
/* A traversal's root (its node's variable; a variable of the file the code goes into as is; else
 * the name made an identifier of the language) and its parts by `s`. */
void emit_typed_traversal(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const emit_part_syntax_t *s);

/* The SDK class of an asset or archive function (`fileAsset` → FileAsset, ... `assetArchive` →
 * AssetArchive), or NULL for any other function. */
const char *emit_asset_class(const char *fn);
/* A property path (ignoreChanges, a traversal or a string) as a string literal of `lang`; `""` when
 * it is not a path. */
void emit_path_literal(buf_t *b, lang_t lang, const pcl_expr_t *e);

/* How a language reads config and names its types. `getter[secret][kind]`: the Config method that
 * reads a scalar (kind EMIT_CFG_STRING..EMIT_CFG_BOOL); `scalar[kind]` its type; `list` and `map`
 * formats of the element's type name ("[]%s"; NULL: the value is `any`); `inner_list` and
 * `inner_map` the formats inside a list or map (NULL: the same). */
typedef struct emit_cfg_names {
    const char *getter[2][4];
    const char *scalar[4];
    const char *list, *map, *any;
    const char *inner_list, *inner_map;
    const char *object[2]; /* [secret]: the getter of a list, map or any value, a format of its type
                              (NULL: the language writes that read itself) */
    /* a scalar with a default (NULL: the language writes none): its getter by kind, which gives
     * nothing when the value is not set, then `or_open` the default `or_close` */
    const char *get[4];
    const char *or_open, *or_close;
    /* a string or bool whose default reads an output: what follows the getter, a format of a fresh
     * name for the value when it is set (used twice at most), before the default, then `or_close`;
     * the config value is an Output of its type either way */
    const char *or_output_open;
    const char *get_object; /* a list's getter with a default, a format of its type (NULL: none) */
    /* what follows the key in a list's getter with a default: a format of the element's type name and
     * the name `get_object_need` takes (NULL: nothing) */
    const char *get_object_tail, *get_object_need;
    /* a default of null: what follows the getter that gives nothing when the value is unset */
    const char *or_null;
    /* a value of no type (or an object type) with a literal default: the type its getter reads when
     * that differs from `any` (C#'s JsonElement?: GetObject<T> gives default(T) when unset), and what
     * the default is written in to be a value of that type (NULL: nothing) */
    const char *any_optional, *any_open, *any_close;
} emit_cfg_names_t;
/* The getter of a config node read as a string, int, number or bool (its token, NULL: string);
 * NULL for a list, map or any value. */
const char *emit_config_getter(const pcl_node_t *n, const emit_cfg_names_t *names);
/* The language's type of a config value of type t, by `names`. */
const char *emit_config_type_name(arena_t *a, const emit_cfg_type_t *t, const emit_cfg_names_t *names);

/* Whether the n parts read into config node `config` go through its list and map types to an int
 * that a map, or a list inside a list or map, holds (emit_typed_syntax_t config_raw_int). */
bool emit_config_raw_int(arena_t *a, const pcl_node_t *config, const pcl_trav_part_t *parts, size_t n);
/* Whether the items of e (a map's values when `map`, else a list's) are such ints: e reads a config
 * value (itself or through a local holding it) that far. */
bool emit_config_raw_int_items(emit_typed_t *x, const pcl_expr_t *e, bool map);

/* --- values the typed emitters (Go, C#, Java) write alike -------------------------------------- */

/* The language's name of a string, int, number or bool type (`names` in that order); NULL for any
 * other type or none. */
const char *emit_scalar_name(const schema_type_t *t, const char *const names[4]);
/* A number, with `.0` after a whole number at a `number` position (C#, Java: a double). */
void emit_number_dotted(buf_t *b, double n, const schema_type_t *t);
/* A function with no translation in the language: a warning naming the resource (when `report`,
 * the pass that reports), and `nothing` ("null", "nil") written in its place. */
void emit_unknown_call(buf_t *b, diag_list_t *diags, bool report, const pcl_node_t *node, const pcl_expr_t *e,
                       lang_t lang, const char *nothing);

/* The names of object type o's properties in byte order (strcmp: as PCL orders keys), for entries()
 * of an object of the schema's type (Go, C#). */
const char **emit_object_keys_sorted(arena_t *a, const schema_object_t *o);

/* A built-in function as a typed language writes it over plain values (emit_check_program refuses
 * it over outputs, but for `unsecret`, which takes one): `fmt` with `$0`..`$9` an argument,
 * `$r0`..`$r9` one that is a receiver (parenthesised when an operator or conditional) and `$n`, `$m`
 * how the code names need[0], need[1]; `need` what the file then needs (a namespace, a class to
 * import; NULL: nothing), given to the syntax's `need` hook. */
typedef struct emit_typed_call {
    const char *fn, *fmt;
    const char *need[2];
    emit_shape_t shape; /* the first argument's shape it is for (length: a string, a list, a map);
                           EMIT_SHAPE_UNKNOWN: any */
} emit_typed_call_t;

/* What C# and Java write differently among the values they otherwise write alike. Each hook gets
 * the emit_typed_t its generator holds first (and may convert it back to the generator). */
typedef struct emit_typed_syntax {
    lang_t lang;
    const char *secret;        /* the function that makes a secret ("Output.CreateSecret") */
    const char *secret_output; /* what makes an output a secret after it (".asSecret()"; NULL: `secret`) */
    void (*string)(buf_t *b, const char *s);
    /* a member of the enum type t: `ename` the enum's name, `member` the member's */
    void (*enum_member)(emit_typed_t *x, buf_t *b, const schema_type_t *t, const char *ename, const char *member);
    void (*traversal)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e);
    /* an asset or archive call; false (nothing written) for any other function */
    bool (*asset_call)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth);
    /* a built-in function the language writes itself (C#: can, try); false (nothing written) for
     * any other; NULL: none */
    bool (*own_call)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth);
    void (*interpolation)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth); /* a template */
    /* an invoke, or the attributes and literal indexes read from its result */
    void (*invoke)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth);
    /* a resource's method call, or what is read from its result (NULL: refused by the check) */
    void (*method_call)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth);
    /* a list (et: its element type), an object of the schema object type t, a map (et: its values'
     * type); et NULL when unknown */
    void (*list)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *et, int depth);
    void (*object)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth);
    void (*map)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *et, int depth);
    /* a value at a position of union type t, when the language writes it otherwise than as the member
     * it is (Java: Either.ofLeft(...)); false (nothing written): as that member (NULL: always) */
    bool (*union_value)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth);
    /* an operator or conditional over outputs (emit_check_program: one Output, however often read)
     * is written in an apply: the Output, `apply_open` (a format of the parameter's name, which is
     * `param_prefix` and the name emit_apply_plan gives), the expression with the parameter in
     * place of the output, `)`; what the expression reads below the output is read from the
     * parameter by `value_parts` (NULL: the language writes no apply) */
    const char *apply_open, *param_prefix;
    const emit_part_syntax_t *value_parts;
    /* inside can() and try()'s arguments (emit_typed_t.strict): a value's parts read so that what fails
     * in PCL fails there (Java: a map's missing key throws, where Map.get gives null); NULL: value_parts */
    const emit_part_syntax_t *strict_value_parts;
    /* the built-in functions the language writes (beyond secret and the assets), and what a file
     * that calls one needs (a `using`, an import) */
    const emit_typed_call_t *calls;
    size_t n_calls;
    /* the functions it writes over outputs (arguments that read one), looked up first */
    const emit_typed_call_t *calls_output;
    size_t n_calls_output;
    /* entries() or lookup() of an object of the schema object type t (emit_check_program lets
     * through what the schema answers: every property required, or a literal key), written from
     * the type's properties (NULL: refused by the check) */
    void (*keyed_object)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth);
    const char *(*need)(emit_typed_t *x, const char *what); /* returns how the code names it */
    /* a for expression over a plain list or map (NULL: the language writes none; emit_check_program
     * refuses it); its variables read as emit_typed_scope_push says */
    void (*for_expr)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth);
    /* the class whose equals(a, b) compares strings (emit_string_equality; NULL: `==` as any other) */
    const char *equals_class;
    /* a config value where the schema wants another scalar type, by emit_config_conversion: a format
     * of the value per conversion (NULL: none written; emit_check_program refuses it); a secret one's
     * in an apply of it (`apply_open` of `x`) */
    const char *const *config_conv;
    /* the helper (for `need`: "=FormatValue") that prints a number config value where the schema
     * wants a string as PCL prints a number (NULL: config_conv's format) */
    const char *config_number_text;
    /* inside an apply: what is read below its parameter `value` from an atom (the head's first
     * `skip` parts are the parameter; NULL: by value_parts) */
    void (*read_below)(emit_typed_t *x, buf_t *b, const pcl_expr_t *atom, size_t skip);
    /* what is read into a value of no type (a config value's that is not secret, by
     * emit_untyped_config_read), `value` the text of what holds it, the `n` parts read into it (NULL:
     * none written; emit_check_program refuses it) */
    void (*untyped_read)(emit_typed_t *x, buf_t *b, const char *value, const pcl_trav_part_t *parts, size_t n);
    /* an operand of no type in arithmetic (the same), a format of it made a number */
    const char *untyped_number;
    /* a config value of no type whose default is null, as the language holds it (C#'s JsonElement?),
     * read into or made a number: a format of it as its value (NULL: as it is) */
    const char *untyped_optional;
    /* an int read from a config map, or from a list inside a list or map, which the language's SDK
     * decodes untyped (Java: Gson gives a raw Map's or List's numbers as Doubles): a format of the
     * read made an int (NULL: as it is) */
    const char *config_raw_int;
    /* the same read where the position wants a number (a double), NULL: config_raw_int */
    const char *config_raw_number;
    /* appended to an output of a value of no type (emit_untyped_output) where the schema wants a value
     * of any type (C#: Output<JsonElement> to an Output<object>; NULL: as it is) */
    const char *untyped_output_any;
    /* ints added, subtracted or multiplied (PCL's numbers do not overflow; an int silently wraps): the
     * whole expression in a checked context (C#: "checked"), or each operation by a function that
     * throws on overflow, for +, -, * and a negation (Java: "Math.addExact", ..., "Math.negateExact");
     * NULL: as it is */
    const char *int_checked;
    const char *int_exact[4];
} emit_typed_syntax_t;
/* How a language's for expression goes on after its source: each a format of the lambdas'
 * parameters (one `%s`): a condition `filter` expression `)`; an object `to_map` key `map_sep`
 * value `map_close`; a list `to_list` value `list_close`. */
typedef struct emit_for_syntax {
    const char *filter, *to_map, *map_sep, *map_close, *to_list, *list_close;
} emit_for_syntax_t;
/* The condition and the result of for expression e (its variables in scope), by f. */
void emit_typed_for_body(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth,
                         const char *params, const emit_for_syntax_t *f);
/* The conversion the typed walk writes around e, a config value read where the schema wants another
 * scalar type (EMIT_CONV_NONE: none). */
emit_conversion_t emit_typed_conversion(const emit_typed_syntax_t *s, const emit_typed_t *x, const pcl_expr_t *e);
/* An expression over one Output (emit_check_program lets through one, however often read) in an
 * apply of it: the Output, `apply_open` of the parameter, the expression written by `body` with the
 * parameter in place of the Output (NULL: emit_typed_expr), `)`. */
void emit_typed_apply(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth,
                      void (*body)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth));
/* The same, the Output found in `over` (a part of e, or what e is computed from). */
void emit_typed_apply_over(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *over,
                           const pcl_expr_t *e, int depth,
                           void (*body)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth));
/* What try() gives, as C#'s Try<T> and Java's try_ name it: the scalar type its position wants
 * (emit_check_program: its arguments are of it), else its arguments' one scalar type (emit_try_kind;
 * inside a for expression by what its variables hold; none where one is an item of a literal a local
 * holds, emit_cs_object_item: an object? in C#, an Object in Java), else unknown. */
emit_print_t emit_typed_try_kind(const emit_typed_t *x, const pcl_expr_t *e);
/* can() and try() (false, nothing written, for any other function): over an output (emit_check_program:
 * one), in an apply of it, so that what is read from its value, and fails, is read inside the helper's
 * lambdas (`plain` writes the call); over values of no type alone, the call made an Output
 * (`output_of`, the call, `)`), as the rest of the program takes it for one (PCL types it an Output). */
bool emit_typed_can_try(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth,
                        void (*plain)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, int depth),
                        const char *output_of);
/* Makes `name` (a for expression's variable) read as `text` until n_scope is restored; false when
 * the scope is full. */
bool emit_typed_scope_push(emit_typed_t *x, const char *name, const char *text);
/* How a template's part prints (emit_print_kind); what reads or chooses a for expression's variable,
 * unknown. */
emit_print_t emit_typed_print_kind(const emit_typed_t *x, const pcl_expr_t *e);
/* How the items of list (or map) coll print, its variables in scope as in emit_typed_print_kind. */
emit_print_t emit_typed_item_kind(const emit_typed_t *x, const pcl_expr_t *coll);
/* Marks the variables of for expression e pushed last (its key variable, if any, then its value
 * variable) as going over its collection, and the value variable as holding an item of it when that
 * is entries() (a map of "key" and "value"), whose attributes are then read as its keys. */
void emit_typed_scope_entries(emit_typed_t *x, const pcl_expr_t *e);
/* One entry of a map: `open`, the key quoted, `sep`, the value (of type et, at `depth`), `close`. */
void emit_typed_entry(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_object_item_t *it,
                      const schema_type_t *et, int depth, const char *open, const char *sep, const char *close);
/* Writes a value at a position of type t (NULL: the expression's own; a union's member the value
 * fits) on a line indented `depth`: an invoke; a literal (null, a bool, a number quoted at a string
 * position or with `.0` at a number position, an enum member or else the literal); a reference; a
 * call (secret, assets, the syntax's `calls`; any other is written null with a warning); a template or an operator over
 * plain values (index, attribute, splat and for are refused: emit_unwritable); a list, an object or
 * a map by the syntax. */
/* What entries() or lookup() of an object of the schema's type reads the object's fields from
 * (keyed_object): when obj is an output that is not already the apply's parameter, writes obj and
 * `open` (an apply's opening, its parameter `param`) to b, puts `param` in `recv` and returns true
 * (the caller closes the apply); else puts obj's value in `recv` and returns false. */
bool emit_typed_keyed_receiver(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, buf_t *recv,
                               const pcl_expr_t *obj, const char *open, const char *param, int depth);
void emit_typed_expr(const emit_typed_syntax_t *s, emit_typed_t *x, buf_t *b, const pcl_expr_t *e,
                     const schema_type_t *t, int depth);

/* --- the program walk the typed emitters (Go, C#, Java) share ---------------------------------- */

/* What differs by language in the statements of a typed emitter's program. */
typedef struct emit_typed_program {
    lang_t lang;
    const char *indent;           /* what starts a statement ("    ", "\t\t") */
    int depth;                    /* the depth (in the language's unit) a statement's values are written at */
    const char *declare;          /* a variable's declaration: a format of its identifier ("var %s = ") */
    const char *declare_blank;    /* the declaration of a variable named "_" (NULL: `declare`) */
    const char *declare_resource; /* a resource's or component's variable (NULL: `declare`) */
    const char *end;              /* what ends a statement (";\n\n") */
    /* a value at a position of type t (NULL: unknown): emit_typed_expr by `values`, else `value` */
    const emit_typed_syntax_t *values;
    void (*value)(emit_typed_t *x, buf_t *b, const pcl_expr_t *e, const schema_type_t *t, int depth);
    /* config: the statement that makes the Config object, before the first read (NULL: none), the
     * expression of that object, and the language's getters; `config_object` writes the whole
     * statement that reads a list, map or any value when the getters have no format for it */
    const char *new_config, *config;
    const emit_cfg_names_t *cfg;
    void (*config_object)(emit_typed_t *x, buf_t *b, size_t i);
    /* the getter of a list, map or any value that gives nothing when it is unset, before `or_null`
     * or the default (NULL: `cfg->get_object` of its type) */
    void (*config_get_object)(emit_typed_t *x, buf_t *b, size_t i);
    /* a local's statement (NULL: `declare` value `end`) */
    void (*local)(emit_typed_t *x, buf_t *b, size_t i);
    /* a stack output: `export("name", value` `export_end` (export NULL: outputs are not written here) */
    const char *export, *export_end;
    /* what wraps a plain value that may be null (emit_may_be_null) as a stack output, closed by `)`:
     * a format of the name the code gives class `nullable_class` (NULL: written as it is) */
    const char *export_nullable, *nullable_class;
    /* a resource's or component's statement (NULL: `declare` `new Class("name"[, args][, options])` `end`,
     * by the hooks below) */
    void (*resource)(emit_typed_t *x, buf_t *b, size_t i);
    const char *(*class_of)(emit_typed_t *x, const pcl_node_t *n); /* the class a node constructs */
    void (*args)(emit_typed_t *x, buf_t *b, const pcl_node_t *n);  /* after the name: the inputs */
    /* after a local component's name: its inputs (NULL: emit_check_program refuses them) */
    void (*component_args)(emit_typed_t *x, buf_t *b, const pcl_node_t *n);
    void (*options)(emit_typed_t *x, buf_t *b, const pcl_node_t *n);
    /* a read block: `declare` Class`read_get`"name", then `read` writes the ID, the state and the
     * options (the attributes but `id`, read_id gives it) and `)` `end` */
    const char *read_get;
    void (*read)(emit_typed_t *x, buf_t *b, const pcl_node_t *n, const pcl_attr_t *id);
    void (*hook)(emit_typed_t *x, buf_t *b, size_t i); /* a hook's statement (NULL: refused by the check) */
    /* a pulumi block's requiredVersionRange: `require_version` (a format of how the code names the
     * class `deployment`, imported by the syntax's `need`; NULL deployment: as is), the range,
     * `require_close`, `end` (require_version NULL: the language writes none) */
    const char *require_version, *deployment, *require_close;
} emit_typed_program_t;

/* The schema property of a read block's state attribute (the resource's output of its name). */
const schema_property_t *emit_state_property(const pcl_node_t *n, const pcl_attr_t *at);

/* Names each node's variable (but packages' and outputs', and those `referenced` says are never
 * read: `unused`) unique in a new table where the NULL-terminated `reserved` and the language's
 * names_builtins are taken: the PCL name
 * made an identifier of `lang` after `style` (NULL: as is). Returns the table. */
names_table_t *emit_typed_name_nodes(emit_typed_t *x, lang_t lang, char *(*style)(arena_t *a, const char *s),
                                     const char *const *reserved, const bool *referenced, const char *unused);
/* The typed languages' generator as emit_nodes' writers see it: the state, the statement's buffer
 * and the language's program syntax. */
typedef struct emit_typed_walk {
    emit_typed_t *x;
    buf_t *b;
    const emit_typed_program_t *s;
} emit_typed_walk_t;
/* Each node's statement by the program syntax (gen: an emit_typed_walk_t; x->node is set to the
 * node); a language replaces a writer in a copy (Go: config with a default, the pulumi block). */
extern const emit_node_writers_t EMIT_TYPED_WRITERS;
/* Every node's statement in order (emit_nodes with EMIT_TYPED_WRITERS). */
void emit_typed_nodes(emit_typed_t *x, buf_t *b, const emit_typed_program_t *s);
/* The file: the body written by `body` (the pass that reports), after the `head` it needs (imports
 * known once the body is written), then `tail`. Frees x's arena; the text is malloc'd. */
char *emit_typed_file(emit_typed_t *x, void (*body)(emit_typed_t *x, buf_t *b), void (*head)(emit_typed_t *x, buf_t *b),
                      const char *tail);

/* The type name of a token's member in the language's `style` (names_pascal, ...), or "Unknown"
 * for a malformed token. */
const char *emit_token_type_name(arena_t *a, const char *token, char *(*style)(arena_t *a, const char *s));

/* A language's order of resource options (its Pulumi generator's); an option not in it is not
 * written by the language. */
typedef struct emit_option_order {
    const char *const *names;
    size_t n;
} emit_option_order_t;
bool emit_option_written(const emit_option_order_t *order, const char *name);
/* The node's options in the order (stable; those not in it last), an arena array. */
const pcl_attr_t **emit_sorted_options(arena_t *a, const pcl_node_t *n, const emit_option_order_t *order);

#endif

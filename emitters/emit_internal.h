/* emit_internal.h — the per-language emitter entry points behind emit_program (emitters/ only).
 *
 * Each takes a bound PCL program (nodes in declaration order, schemas attached where known) and
 * returns the whole source file, malloc'd. On a problem that makes the file unusable they return
 * NULL with an error diagnostic; problems confined to one node (e.g. a local component in YAML)
 * become warnings/errors naming the resource while the rest is still emitted. */
#ifndef CIMPORT_EMIT_INTERNAL_H
#define CIMPORT_EMIT_INTERNAL_H

#include <string.h>

#include "emitters/emit.h"
#include "emitters/names.h"

/* Refuses, with file:line:col and an error diagnostic each, every construct the `lang` emitter
 * cannot write with its meaning: options it does not support (and `range` everywhere), option
 * values of the wrong shape, calls to functions it does not know, references to undeclared names,
 * inputs of local components where the language has no way to pass them. (emitters/check.c) */
bool emit_check_program(const pcl_program_t *p, lang_t lang, diag_list_t *diags);
/* `out` becomes a copy of `p` whose nodes (a malloc'd array: free out->nodes) are in dependency
 * order — each after the nodes it refers to, declaration order otherwise. False with an error on
 * a reference cycle. */
bool emit_sort_program(const pcl_program_t *p, pcl_program_t *out, diag_list_t *diags);

/* Expression kinds beyond literals, references and calls: each emitter's switch lists them here and
 * writes those it supports; emit_check_program refuses the rest before an emitter runs, so
 * emit_unwritable (an error diagnostic naming the construct and its position) is a safety net. */
#define EMIT_CASE_LANGUAGE_EXPRS                                                                                       \
    case PCL_TEMPLATE:                                                                                                 \
    case PCL_UNARY:                                                                                                    \
    case PCL_BINARY:                                                                                                   \
    case PCL_COND:                                                                                                     \
    case PCL_INDEX:                                                                                                    \
    case PCL_GETATTR:                                                                                                  \
    case PCL_SPLAT:                                                                                                    \
    case PCL_FOR
void emit_unwritable(diag_list_t *diags, const pcl_expr_t *e, lang_t lang);

/* What Pulumi YAML can read and interpolate (emitters/check.c: the check and the YAML emitter ask
 * alike). A call Pulumi YAML writes as a reference inside `${...}` (stack(), a stack reference's
 * output by a literal name): a template interpolates it. */
bool emit_yaml_interpolates(const pcl_expr_t *e);
/* Pulumi YAML's variable for PCL's stack(), project(), ... (`${pulumi.stack}`), or NULL. */
const char *emit_yaml_pulumi_variable(const pcl_expr_t *e);
/* getOutput(ref, "name") with a literal name: a stack reference's output. */
bool emit_yaml_stack_output(const pcl_expr_t *e);
/* What Pulumi YAML reads literal attributes and indexes from through a variable holding it (a
 * function's result, a list, an object), or NULL. */
const pcl_expr_t *emit_yaml_read_base(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* YAML: whether e is a config value of a number, integer or bool type where the schema wants a string
 * (PCL converts it to its text): written as the template "${e}" is, fn::toJSON of it. */
bool emit_yaml_config_to_string(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* element(list, index) whose index modulo the list's length (PCL's element() wraps around) is
 * known when written: a whole literal index of 0 or more, and 0 or a literal list; *index is it. */
bool emit_element_index(const pcl_expr_t *e, double *index);
/* A list read at a computed index, written fn::select [index, list]. */
bool emit_yaml_selects(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);

/* --- what an emitter needs to know about an expression (emitters/check.c) --- */

/* invoke(token, ...) and call(resource, "method", ...), bound to their function (pcl_bind). */
static inline bool emit_is_invoke(const pcl_expr_t *e) {
    return e->kind == PCL_CALL && e->function && strcmp(e->call.name, "invoke") == 0;
}
static inline bool emit_is_method_call(const pcl_expr_t *e) {
    return e->kind == PCL_CALL && e->function && strcmp(e->call.name, "call") == 0;
}
/* The invoke or method call whose result `e` reads attributes and literal indexes of
 * (`invoke(...).a[0]["k"]`), or NULL. */
const pcl_expr_t *emit_fn_call_under(const pcl_expr_t *e);

/* Whether a resource node is the `pulumi` package's built-in resource of this token
 * ("pulumi:index:Stash", "pulumi:pulumi:StackReference"). */
bool emit_is_builtin(const pcl_node_t *n, const char *token);

/* HCL precedence of a binary operator (|| 1 ... * / % 6), 0 if unknown. */
int emit_binop_prec(const char *op);
/* Whether child, the operand of parent, is a negation (or a negative number) under a negation: -(-x),
 * which written bare (--x) is a decrement in the C-like languages. */
bool emit_double_minus(const pcl_expr_t *parent, const pcl_expr_t *child);
/* Whether `child`, an operand of `parent` (an operator, index or attribute access), needs
 * parentheses to keep PCL's grouping in a language with the usual C-like precedence. */
bool emit_operand_needs_parens(const pcl_expr_t *parent, const pcl_expr_t *child, bool right);
/* An "output atom": a value that is an Output in every Pulumi SDK — a resource's or component's
 * attribute, a secret config value, secret(...), or a local whose value holds one. */
bool emit_is_output_atom(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether a call's value is an Output written over its arguments as they are (secret, unsecret;
 * toJSON over outputs); any other function is written over resolved values, in an apply when its
 * arguments hold outputs. */
bool emit_call_is_output(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether a call is written over its arguments as they are, outputs or not (secret, unsecret,
 * toJSON, pulumiResourceName/Type): never inside an apply of its own. */
bool emit_call_takes_inputs(const pcl_expr_t *e);
/* Whether can()/try() needs its Output version: an argument reads an output or a value of no type. */
bool emit_call_output_version(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* The property of an invoke's result that e reads (`data.value`, data a local holding the invoke;
 * one attribute), by the function's schema; NULL otherwise. */
const schema_property_t *emit_invoke_local_property(const pcl_program_t *p, const names_table_t *nodes,
                                                    const pcl_expr_t *e);
/* Whether a config node is not secret and its default reads an output (an invoke's result): its
 * value is then an Output whether it is set or not. */
bool emit_config_output_default(const pcl_program_t *p, const names_table_t *nodes, const pcl_node_t *n);
/* Whether e holds an output atom anywhere: computing it needs an apply. */
bool emit_has_output(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* The output atoms of e (outermost first, in source order), in an arena array; returns the count. */
size_t emit_output_atoms(arena_t *a, const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e,
                         const pcl_expr_t ***out);
/* The part of an atom that is the Output itself: a resource's property (`res.data` of
 * `res.data.items[0]`), a local or config value (its name alone); *skip is how many traversal
 * parts it keeps, the rest reads the resolved value inside an apply. The atom itself otherwise. */
const pcl_expr_t *emit_atom_head(arena_t *a, const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *atom,
                                 size_t *skip);
/* The name an apply's parameter for the atom starts from (its last attribute, as Pulumi names it). */
const char *emit_atom_base_name(const pcl_expr_t *atom);

/* How an expression computed from outputs is written: one parameter per distinct output head
 * (atoms reading the same output share it), named after the output's property in the language's
 * style and unique among the names the body still reads. */
typedef struct emit_apply {
    const pcl_expr_t **atoms; /* every output atom of the expression */
    const pcl_expr_t **heads; /* per atom: the Output itself (emit_atom_head) */
    size_t *skip;             /* per atom: traversal parts in the head */
    const char **names;       /* per atom: its parameter */
    size_t n;
    size_t *uniq; /* indices of the first atom of each distinct head */
    size_t nu;
    bool head_is_output; /* nu == 1 and the head is an Output (not a local holding outputs) */
} emit_apply_t;
#define EMIT_MAX_SCOPE 16
void emit_apply_plan(arena_t *a, const pcl_program_t *p, const names_table_t *nodes, const char *const *node_ident,
                     lang_t lang, const pcl_expr_t *e, const char *const *scope, size_t n_scope, emit_apply_t *out);
/* The same, but a parameter may take the name of a global the written code calls (names_builtins:
 * Python's float, len, ...), as Pulumi names it: for an emitter that then checks that the body it
 * writes calls no such global the parameter would hide. */
void emit_apply_plan_builtin_names(arena_t *a, const pcl_program_t *p, const names_table_t *nodes,
                                   const char *const *node_ident, lang_t lang, const pcl_expr_t *e,
                                   const char *const *scope, size_t n_scope, emit_apply_t *out);

/* What kind of value an expression is, as far as the program shows it. */
typedef enum {
    EMIT_SHAPE_UNKNOWN = 0,
    EMIT_SHAPE_LIST,
    EMIT_SHAPE_MAP,
    EMIT_SHAPE_OBJECT, /* a schema object type */
    EMIT_SHAPE_STRING,
    EMIT_SHAPE_NUMBER,
    EMIT_SHAPE_BOOL,
} emit_shape_t;
emit_shape_t emit_expr_shape(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);

/* The type a stack config value is read as, from a config node's token: "string", "int", "number",
 * "bool", "list(T)", "map(T)"; anything else ("any", an object type) is EMIT_CFG_ANY, a JSON value
 * of any shape. Each emitter reads config with the getter of this type. */
typedef enum {
    EMIT_CFG_STRING,
    EMIT_CFG_INT,
    EMIT_CFG_NUMBER,
    EMIT_CFG_BOOL,
    EMIT_CFG_LIST,
    EMIT_CFG_MAP,
    EMIT_CFG_ANY,
} emit_cfg_kind_t;

typedef struct emit_cfg_field emit_cfg_field_t;
typedef struct emit_cfg_type {
    emit_cfg_kind_t kind;
    const struct emit_cfg_type *elem; /* LIST, MAP: the element type */
    /* ANY read from an object type `object({a=T, ...})`: its fields sorted by name (TypeScript names
     * them, `{a?: T}`, as Pulumi does; the other languages read the value as any) */
    const emit_cfg_field_t *fields;
    size_t n_fields;
} emit_cfg_type_t;
struct emit_cfg_field {
    const char *name;
    const emit_cfg_type_t *type;
};

/* The parsed type of a config node's token (NULL: "string"), allocated in a. */
const emit_cfg_type_t *emit_config_type(arena_t *a, const char *token);
/* The same with `optional(T)` read as T (a language whose T holds null: C#'s string[] takes a null
 * item; Go's []string does not, so Go keeps `optional` an any). */
const emit_cfg_type_t *emit_config_type_nullable(arena_t *a, const char *token);
/* Whether t is a string, int, number or bool. */
bool emit_config_scalar(const emit_cfg_type_t *t);
/* How deep lists and maps nest in t (0 for a scalar or any). */
int emit_config_depth(const emit_cfg_type_t *t);

/* How a config value is converted where the schema wants another scalar type (Pulumi's generators
 * write the conversion): a string to a bool (`== "true"`), an int or a number, a number or a bool to
 * a string; an int where a number is wanted (Python writes float()); UNSUPPORTED: a number and a
 * bool, which PCL does not convert between. */
typedef enum {
    EMIT_CONV_NONE = 0,
    EMIT_CONV_STRING_TO_BOOL,
    EMIT_CONV_STRING_TO_INT,
    EMIT_CONV_STRING_TO_NUMBER,
    EMIT_CONV_NUMBER_TO_STRING,
    EMIT_CONV_BOOL_TO_STRING,
    EMIT_CONV_INT_TO_NUMBER,
    EMIT_CONV_UNSUPPORTED,
} emit_conversion_t;
emit_conversion_t emit_config_conversion(const pcl_node_t *cfg, const schema_type_t *t);
/* The conversion a string-shaped value (an ID, a string output or local) needs where the schema
 * wants a number, an integer or a boolean: Pulumi's generators write one (`Number(x)`,
 * `x === "true"`, `float(x)`). EMIT_CONV_NONE when none is needed; literals and config values
 * (emit_config_conversion) have their own rules. */
emit_conversion_t emit_string_conversion(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether e is a value of no type — a config value without one, a read into it, a local holding it,
 * a stack reference's getOutput() — which arithmetic converts to a number first (Number(x), float(x)),
 * as PCL's operators do. (A for-expression variable of the same name is the caller's to rule out.) */
bool emit_untyped_value(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether e is an output of a value of no type (C#'s Output<JsonElement>, Java's Output<Object>): a
 * secret config value of no type, secret()/unsecret() of a value of no type, a local holding one, a
 * read into one. */
bool emit_untyped_output(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether e reads a value of no type from a config value that is not secret: the config value of
 * no type (or an object type) itself, or what it reads through its list and map types into one. */
bool emit_untyped_config_read(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether e gives a bool: by its shape, or read from a config value through its list and map types. */
bool emit_reads_bool(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether e gives a value C# and Java hold with no type of its own (a JsonElement, an object, Gson's
 * Object, or an Output of one) that may be a bool or a number at run time: a value of no type
 * (emit_untyped_value, emit_untyped_config_read), what the schema types `any` or Json (a resource's
 * output, an invoke's or a method's result, what is read below them), secret()/unsecret() of one, a
 * local holding one, a conditional giving one. */
bool emit_dynamic_value(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* The schema's type of what e gives where the schema says it (a resource's output, an invoke's or a
 * method's result, what is read below them), or NULL. */
const schema_type_t *emit_read_type(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether traversal e's part k is an attribute read of a map's key (`r.tags.k`, a config map's
 * `m.k`), which C# and Java read by key, not as a property. */
bool emit_reads_map_key(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e, size_t k);
/* How a value prints in C# and Java, as far as the program shows its type: a string, a bool (C#:
 * True / False), an int, a number (a double: Java 1.0), of no type of its own (emit_dynamic_value),
 * or unknown (may be any of them). */
typedef enum {
    EMIT_PRINT_UNKNOWN = 0,
    EMIT_PRINT_STRING,
    EMIT_PRINT_BOOL,
    EMIT_PRINT_INT,
    EMIT_PRINT_NUMBER,
    EMIT_PRINT_DYNAMIC,
    EMIT_PRINT_COLLECTION, /* a list, map or object */
} emit_print_t;
/* What e prints as (a read of a for expression's variable is the caller's to call unknown). */
emit_print_t emit_print_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* What try(a, b, ...) gives in C#: its arguments' one kind (an int among numbers: a number), else
 * unknown (null, a collection, a value of no type, an object? of emit_cs_object_item, kinds that
 * differ). */
emit_print_t emit_try_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether C# infers the type of list literal e's array from its items (`new[] {...}` has a best type):
 * all of one known shape, none null, all outputs or none. Otherwise (`new[] { 1, "a" }`, `new[] { null }`
 * do not compile) it is an object?[]. Lists, maps and objects are not one type however alike their shapes
 * (`new[] { new[] {1, 2}, new[] {"a"} }`: int[] beside string[]), nor are number outputs (Output<int>
 * beside Output<double>): CS0826. */
bool emit_cs_list_uniform(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* What Java's toJSON() writes of its argument e: a local holding a literal list or object that reads an
 * Output is written as that literal (its value, in an apply of the Output, as toJSON of the literal
 * is), else e. */
const pcl_expr_t *emit_java_json_arg(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether e reads into a literal list or object a local holds (emit_local_held, not a config value),
 * itself or through locals holding such a read (`v = m["a"]`, then `v`), where C# has an object?:
 * such a literal is a Dictionary<string, object?> or an object?[] (a list of one type, a T[], only
 * one level down), and a `var` local holding its item is an object? too. */
bool emit_cs_object_item(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* What an item of collection `coll` prints as (a for expression's value variable), or its key
 * (`key`: a list's index, a map's key). */
emit_print_t emit_print_item_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *coll, bool key);
/* For-expression variables in scope: name[i] goes over coll[i] (NULL: not a for's, as a hook's
 * args), as its key or index (is_key[i]) or its value (entries[i]: an item of entries(), an object);
 * the variables of the enclosing scopes in `outer`. */
typedef struct emit_scope {
    const char *const *name;
    const pcl_expr_t *const *coll;
    const bool *is_key, *entries;
    size_t n;
    const struct emit_scope *outer;
} emit_scope_t;
/* Whether e reads a variable of scope s. */
bool emit_scope_reads(const emit_scope_t *s, const pcl_expr_t *e);
/* What e prints as where the variables of s are in scope: a variable as its collection's item or key
 * (emit_scope_item_kind), a conditional as both branches, what is read below a variable unknown. */
emit_print_t emit_scope_print_kind(const pcl_program_t *p, const names_table_t *nodes, const emit_scope_t *s,
                                   const pcl_expr_t *e);
/* emit_print_item_kind where the variables of s are in scope; also a for expression's items (its
 * body's kind) and a conditional's (both branches'). */
emit_print_t emit_scope_item_kind(const pcl_program_t *p, const names_table_t *nodes, const emit_scope_t *s,
                                  const pcl_expr_t *coll, bool key);
/* Whether e is == or != over a value of no type (emit_dynamic_value, not read from a variable of s),
 * or of a string, bool or number beside another of these types, which TypeScript writes === / !==
 * (its == converts: "1" == 1, true == 1; PCL's values of two types differ); the check lets a value
 * of no type through only beside a string, bool or number. */
bool emit_strict_equality(const pcl_program_t *p, const names_table_t *nodes, const emit_scope_t *s,
                          const pcl_expr_t *e);
/* What local n holds, itself or through secret()/unsecret(), that C# and Java read into: a literal
 * list or object with no output in it, or a config value that is not secret (also set in *config);
 * NULL for another local. */
const pcl_expr_t *emit_local_held(const pcl_program_t *p, const names_table_t *nodes, const pcl_node_t *n,
                                  const pcl_node_t **config);
/* Whether plain value e may be null when the program runs: null, a config value whose default is null
 * (unset), a conditional with such a branch, a local holding one. */
bool emit_may_be_null(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Whether e is `==` or `!=` between strings (one operand a string, neither a number nor a bool):
 * Java compares them with Objects.equals, not by reference. */
bool emit_string_equality(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* C# and Java: the conversion (emit_string_conversion) of e when it is a string output they convert
 * where the schema wants a number or a boolean, in an apply of it: a resource's ID or one of its
 * required string outputs, read as a whole; EMIT_CONV_NONE for anything else. */
emit_conversion_t emit_typed_string_conversion(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* The seconds a Go duration string gives ("5m", "1h30m", "1.5s", "300ms"; units h, m, s, ms, us, µs,
 * ns), as Pulumi's engine parses a custom timeout; false for anything else. */
bool emit_duration_seconds(const char *s, double *seconds);
/* How a YAML template part prints: emit_print_kind, or for an item read at a literal key of a
 * collection (`split(",", s)[1]`), its items' kind. */
emit_print_t emit_yaml_part_kind(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *part);
/* A template part written as fn::toJSON of it (in the template's fn::join, or alone): a number,
 * which pulumi-yaml's interpolation prints with Go's %v (1e+06 for 1000000), and a bool that is the
 * template's only part, which pulumi-yaml reads as the value itself ("${b}" is a bool). */
bool emit_yaml_part_as_json(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *tmpl,
                            const pcl_expr_t *part);

/* Whether node idx is a local map of resources' ids (`{a = r.id, ...}`), which Go writes as a
 * map[string]pulumi.IDInput (as Pulumi's Go does) and reads an entry of as an ID Output. */
bool emit_id_map_local(const pcl_program_t *p, const names_table_t *nodes, int idx);
/* Whether v is such a map (`{a = r.id, ...}`), and whether e reads one entry of a local one by its
 * key (`ids["a"]`), an ID Output (C# and Java: a Dictionary / Map of them, read by key). */
bool emit_id_map(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *v);
/* Whether e names a resource or a component whole (`res`): its class in C# and Java, not an Output. */
bool emit_resource_ref(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* Java: whether a builder writes list or map e at its property's type t with Output.all (a list or
 * map of a type, not any, with an output among its items; emitters/check.c). */
bool java_needs_output_all(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e,
                           const schema_type_t *t);
bool emit_id_map_read(const pcl_program_t *p, const names_table_t *nodes, const pcl_expr_t *e);
/* The first member of union type `t` that a literal like `e` fits, or NULL: a string an enum or
 * string, a number a number or integer (only a whole number an integer when `whole_for_int`), a
 * bool a bool, a list an array, an object an object or map
 * (emitters/check.c). */
const schema_type_t *emit_union_pick(const schema_type_t *t, const pcl_expr_t *e, bool whole_for_int);
/* Java, a union type t (emitters/check.c): how many Java types its members are (pulumi-java: one is
 * that type, two an Either<L, R>, more an Object); which of an Either's two member m is (0 left, 1
 * right, -1 neither); the member value e is (the binder's, by discriminator, else the first a literal
 * like it fits), or NULL. */
size_t java_union_types(const schema_type_t *t);
int java_union_side(const schema_type_t *t, const schema_type_t *m);
const schema_type_t *java_union_member(const schema_type_t *t, const pcl_expr_t *e);

char *emit_typescript(const pcl_program_t *p, diag_list_t *diags);
char *emit_python(const pcl_program_t *p, diag_list_t *diags);
char *emit_yaml(const pcl_program_t *p, diag_list_t *diags);
/* The program as the YAML emitter takes it: every operator, conditional, for expression, splat and
 * max()/min() call whose value is certain when written (pcl_fold) replaced by that value, which
 * Pulumi YAML writes as a literal; the rest as it is (emit_check_program refuses it). Returns p when
 * nothing folds, else `out`, a copy whose new parts live in `a`. (emitters/yaml.c) */
const pcl_program_t *emit_yaml_fold(const pcl_program_t *p, arena_t *a, pcl_program_t *out);
char *emit_go(const pcl_program_t *p, diag_list_t *diags);
char *emit_csharp(const pcl_program_t *p, diag_list_t *diags);
char *emit_java(const pcl_program_t *p, diag_list_t *diags);

#endif

/* names.h — naming rules shared by every language emitter.
 *
 * One place for what differs between languages only in tables: reserved words, how a name becomes
 * a valid identifier, case conversions (camelCase, PascalCase, Go's Title, Pulumi's PyName),
 * unique-name allocation with each language's suffix rule, string-literal escaping, and Go-`%g`
 * number formatting (the form Pulumi's generators print). Results are allocated in the caller's
 * arena or appended to the caller's buffer; nothing here keeps state between calls. */
#ifndef CIMPORT_NAMES_H
#define CIMPORT_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/schema.h"

/* --- reserved words and identifiers ------------------------------------------------------------ */

/* True if `word` is reserved in `lang` (TS: ECMAScript keywords + null/true/false; Python: keywords
 * + builtins-that-are-keywords; Go: keywords + predeclared identifiers; C#: keywords + contextual
 * keywords; Java: keywords + literals; YAML/PCL: none). */
bool names_is_reserved(lang_t lang, const char *word);

/* The globals, classes and helpers the code cimport writes in `lang` names unqualified (TypeScript,
 * Python, C#; Java: the roots of qualified names and its calls' lambda parameters; NULL-terminated,
 * empty for the others), which a program's variable must not hide. */
const char *const *names_builtins(lang_t lang);
/* The modules/packages the emitters import for built-in functions (Python, Go), NULL-terminated. */
const char *const *names_modules(lang_t lang);

/* True if `s` is a legal identifier in `lang` as written (ASCII letters, digits, `_`, and `$` for
 * TS/Java; no leading digit) and not reserved. */
bool names_is_identifier(lang_t lang, const char *s);

/* Pulumi's makeValidIdentifier per language: every illegal character becomes `_`, a leading digit
 * gets `_` in front, and a reserved word is escaped the language's way (TS/Go `_` prefix, Python
 * and Java `_` suffix, C# `@` prefix). Never returns an empty string. */
char *names_make_valid_identifier(arena_t *a, lang_t lang, const char *name);

/* --- case helpers ---------------------------------------------------------------------------- */

/* First character lowercased: `FooBar` → `fooBar` (Java/TS lowerCamel of a PascalCase name). */
char *names_camel(arena_t *a, const char *s);
/* First character uppercased: `fooBar` → `FooBar` (C# UppercaseFirst). */
char *names_pascal(arena_t *a, const char *s);
/* Go's Title (pulumi go utilities): uppercase the first rune, strip a leading `$`, drop `-` and
 * capitalise the letter after it: `foo-bar` → `FooBar`. */
char *names_title(arena_t *a, const char *s);
/* Pulumi's PyName: camelCase → snake_case with acronym handling (`enableFIPS` → `enable_fips`,
 * `vnetSubnetID` → `vnet_subnet_id`, `osSKU` → `os_sku`) and Pulumi's legacy exceptions. */
char *names_py_name(arena_t *a, const char *s);

/* Enum member name for a schema enum value in `lang` (Pulumi's makeSafeEnumName): TS/C#/Go/Java
 * `Title` of the valid identifier (`Standard_LRS`, `Value1`); Python upper snake (`STANDARD_LRS`).
 * `type_name` is the enum's own name (a member equal to it gets `Value` appended). NULL when no
 * member name can be derived (e.g. a one-character symbol). */
char *names_enum_member(arena_t *a, lang_t lang, const schema_enum_value_t *v, const char *type_name);

/* --- tokens ------------------------------------------------------------------------------------ */

/* `aws:s3/bucket:Bucket` → package "aws", module "s3/bucket" (raw, before moduleFormat), member
 * "Bucket". `pulumi:providers:aws` → package "aws", module NULL, member "Provider". Returns false
 * for a token without two colons. Outputs are arena copies; any out pointer may be NULL. */
bool names_token_split(arena_t *a, const char *token, char **package, char **module, char **member);

/* --- unique names ------------------------------------------------------------------------------ */

/* A set of names already taken in one generated file (hash set in an arena). */
typedef struct names_table names_table_t;

names_table_t *names_table_new(arena_t *a);
/* Marks `name` as taken (import aliases, `pulumi`, ...). */
void names_table_reserve(names_table_t *t, const char *name);
bool names_table_has(const names_table_t *t, const char *name);
/* Returns `base` if free, else the first free `base<sep><n>` for n = `first`, first+1, ... (TS/Go
 * use sep "" first 2: `bucket2`; Python sep "_" first 1: `bucket_1`), and reserves it. */
const char *names_table_unique(names_table_t *t, const char *base, const char *sep, int first);
/* The table doubles as a name → int map (e.g. PCL node name → node index): put records `value`
 * (and reserves the name); get returns it, or -1 when the name is absent or was only reserved. */
void names_table_put(names_table_t *t, const char *name, int value);
int names_table_get(const names_table_t *t, const char *name);

/* --- literals ---------------------------------------------------------------------------------- */

/* Appends `s` as a double-quoted string literal of `lang`: `"` and `\` escaped, `\n` `\r` `\t`
 * (a tab `\x09` in TS/Python, as Pulumi writes it), other control characters as `\xHH`
 * (TS/Python), `\u00HH` (Java/C#/YAML), Go `\x..`; valid UTF-8 is copied through but, in Go, TS
 * and Python, a code point that is not printable (names_unprintable) is escaped, in YAML one that
 * names_yaml_escapes, in C# U+0085, U+2028 and U+2029 (names_csharp_newline). (TS templates and
 * Python triple quotes are the emitters' own choice.) */
void names_append_quoted(buf_t *b, lang_t lang, const char *s);
/* The code point of the valid UTF-8 sequence at p and its length in *w; 0 when it is not one. */
uint32_t names_utf8_rune(const unsigned char *p, size_t *w);
/* Whether a code point is one Pulumi's generators escape (Go's unicode.IsPrint is false; see names.c). */
bool names_unprintable(uint32_t r);
/* Whether a YAML scalar must write code point r as an escape (in double quotes): a C1 control, U+FEFF
 * and U+FFFE/U+FFFF are no printable characters to YAML (libyaml and yaml.v3 refuse them), and U+0085,
 * U+2028 and U+2029 are line breaks to YAML 1.1 readers (folded or ending the scalar). */
bool names_yaml_escapes(uint32_t r);
/* Whether code point r is one of C#'s new-line characters beyond CR and LF (U+0085, U+2028, U+2029),
 * which a regular string literal may not hold (CS1010). */
bool names_csharp_newline(uint32_t r);
/* The escape of code point r in a string of lang: `\u{e0021}` in TypeScript, `\U000e0021` (`\u00a0`)
 * in Go and Python. */
void names_rune_escape(char *out, size_t size, lang_t lang, uint32_t r);
/* At *p, a code point that is not printable: appends its escape in lang, moves *p to its last byte
 * and returns true; false, appending nothing, otherwise (TS templates, Python triple quotes). */
bool names_escape_unprintable(buf_t *b, lang_t lang, const char **p);

/* Appends a number the way Pulumi's generators print it: an integer that fits int64 exactly as
 * `%d`, anything else as Go's `strconv.FormatFloat(n, 'g', -1, 64)` (shortest round-trip digits,
 * exponent form when the decimal exponent is < -4 or >= 6 → `1.5e+06`, `1.5e-07`). NaN/Inf are appended as
 * `NaN`, `+Inf`, `-Inf` (callers diagnose them). */
void names_append_number(buf_t *b, double n);
/* True if `n` is integral and within int64 (printed as `%d`). */
bool names_number_is_int(double n);

/* An ignoreChanges-style property path (a PCL traversal such as `tags["a b"].x`, or a PCL string)
 * appended as a quoted string literal of `lang`. Returns false, appending nothing, for any other
 * expression kind so the caller can render it its own way. */
bool names_append_path_literal(buf_t *b, lang_t lang, const pcl_expr_t *e);

/* A string → string cache (e.g. type token → import path), arena-backed. */
typedef struct names_memo {
    arena_t *a;
    names_table_t *index; /* key → slot in values */
    const char **values;
    size_t n, cap;
} names_memo_t;

void names_memo_init(names_memo_t *m, arena_t *a);
/* The cached value, or NULL when key has none. */
const char *names_memo_get(const names_memo_t *m, const char *key);
void names_memo_put(names_memo_t *m, const char *key, const char *value);

/* Node name → node index for a program (pcl_program_find is a linear scan); the first node of a
 * name wins. */
names_table_t *names_node_index(arena_t *a, const pcl_program_t *p);
/* False, with an error diagnostic naming the resource, when a resource or component has no type
 * token (the emitter for `language` cannot name its class). */
bool names_check_tokens(const pcl_program_t *p, const char *language, diag_list_t *diags);

/* The enum type at a position: the type itself, or the enum member of a union; NULL if none. */
const schema_type_t *names_enum_type_at(const schema_type_t *t);
/* The enum value a literal (string, number or bool) stands for, or NULL when it is none of them. */
const schema_enum_value_t *names_enum_value_of(const schema_type_t *enum_type, const pcl_expr_t *e);

#endif

/* emit_internal.h — the per-language emitter entry points behind emit_program (emitters/ only).
 *
 * Each takes a bound PCL program (nodes in declaration order, schemas attached where known) and
 * returns the whole source file, malloc'd. On a problem that makes the file unusable they return
 * NULL with an error diagnostic; problems confined to one node (e.g. a local component in YAML)
 * become warnings/errors naming the resource while the rest is still emitted. */
#ifndef CIMPORT_EMIT_INTERNAL_H
#define CIMPORT_EMIT_INTERNAL_H

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
#define EMIT_CASE_LANGUAGE_EXPRS                                                                                        \
    case PCL_TEMPLATE:                                                                                                 \
    case PCL_UNARY:                                                                                                    \
    case PCL_BINARY:                                                                                                   \
    case PCL_COND:                                                                                                     \
    case PCL_INDEX:                                                                                                    \
    case PCL_GETATTR:                                                                                                  \
    case PCL_SPLAT:                                                                                                    \
    case PCL_FOR
void emit_unwritable(diag_list_t *diags, const pcl_expr_t *e, lang_t lang);

char *emit_typescript(const pcl_program_t *p, diag_list_t *diags);
char *emit_python(const pcl_program_t *p, diag_list_t *diags);
char *emit_yaml(const pcl_program_t *p, diag_list_t *diags);
char *emit_go(const pcl_program_t *p, diag_list_t *diags);
char *emit_csharp(const pcl_program_t *p, diag_list_t *diags);
char *emit_java(const pcl_program_t *p, diag_list_t *diags);

#endif

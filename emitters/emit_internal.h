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

char *emit_typescript(const pcl_program_t *p, diag_list_t *diags);
char *emit_python(const pcl_program_t *p, diag_list_t *diags);
char *emit_yaml(const pcl_program_t *p, diag_list_t *diags);
char *emit_go(const pcl_program_t *p, diag_list_t *diags);
char *emit_csharp(const pcl_program_t *p, diag_list_t *diags);
char *emit_java(const pcl_program_t *p, diag_list_t *diags);

#endif

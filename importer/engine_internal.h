/* engine_internal.h — what engine.c needs from engine_resume.c (not a public header). */
#ifndef CIMPORT_ENGINE_INTERNAL_H
#define CIMPORT_ENGINE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "importer/engine.h"

/* Fills r (item and diags already set) from the previous run's record of the same URN and type, in
 * arena a: ID, inputs (top-level secret properties of T wrapped again when `schemas` has T),
 * provenance, verified, rounds, residual, ignoreChanges and diagnostics; read inputs and state are
 * empty objects (results documents do not record them). Returns false when there is no usable
 * record: the resource is then imported as usual. */
bool engine_resume_apply(const engine_resume_t *res, import_result_t *r, arena_t *a, schema_set_t *schemas);

/* The hash the engine keys claimed cloud objects by (hashmap_hash); a test sets one under which every key collides,
 * so that the keys themselves decide. */
extern uint64_t (*engine_object_hash)(const void *key, size_t len);

#endif

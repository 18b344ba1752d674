/* offline_internal.h — pieces of the offline provider the engine reuses (not a public header).
 *
 * The engine needs the structural input diff when a provider answers Diff with DIFF_UNKNOWN (the
 * protocol's "I don't know": Pulumi's engine then diffs old and new inputs itself). */
#ifndef CIMPORT_OFFLINE_INTERNAL_H
#define CIMPORT_OFFLINE_INTERNAL_H

#include "importer/provider.h"
#include "specs/schema.h"

/* Compares news against old_inputs over the resource's schema input properties: detailed paths at
 * the deepest differing level (objects by key, arrays by index; arrays of different length at the
 * array), every entry an input diff. Keys starting with `__` (bridge bookkeeping) are ignored; a key
 * absent from old_inputs whose new value equals the schema default is not a difference. Null counts
 * as absent. Secrets are compared by their values. */
void offline_diff_inputs(const schema_resource_t *res, const pv_t *old_inputs, const pv_t *news, arena_t *a,
                         provider_diff_result_t *out);

/* The diff Pulumi's engine makes itself when a live provider's Diff answers DIFF_UNKNOWN
 * (step_generator.go diffResource: oldInputs.Diff(news), then a detailed diff of it with every entry
 * an input diff): every key of either object, whatever the schema, `__` keys included, and no schema
 * default exempt. Null counts as absent, secrets are compared by their values, as above. */
void offline_diff_legacy(const pv_t *old_inputs, const pv_t *news, arena_t *a, provider_diff_result_t *out);

#endif

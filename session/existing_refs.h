/* existing_refs.h — references to resources the stack and the program already have.
 *
 * With `--insert-into FILE --stack-state STATE`, a value of an imported resource that is exactly
 * the ID (or the `name`/`arn` output) of a resource already in the stack becomes a reference to the
 * variable FILE declares that resource with, instead of a literal: the stack records
 * `random:index/randomPet:RandomPet::server-name` with ID `clever-wombat`, index.ts declares
 * `const serverName = new random.RandomPet("server-name", ...)`, so `keepers.server` of an imported
 * RandomId equal to `clever-wombat` is written `serverName.id`.
 *
 * A stack resource is matched to a definition by its URN's name (the constructor's name argument)
 * and its type (splice_type_matches). Only definitions whose variable is in scope where splicing
 * inserts code count (splice_definition_t.variable). The candidates go to pcl_generate through
 * pcl_gen_options_t.external, which keeps ambiguous values literal. */
#ifndef CIMPORT_SESSION_EXISTING_REFS_H
#define CIMPORT_SESSION_EXISTING_REFS_H

#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "emitters/emit.h"
#include "pcl/pcl.h"

/* Reads the stack export at stack_state_path and the program text (in `lang`), and returns in
 * *out (allocated from `a`) one candidate per custom, live resource of the stack that the program
 * declares: its ID, and its top-level string outputs `name` and `arn`. Returns the count.
 *
 * A missing stack file (a stack that does not exist yet) or a NULL path gives no candidates and
 * no diagnostic. A stack file or program that cannot be read gives no candidates and one warning
 * (the merge and the splice that follow report the problem itself as an error). */
size_t existing_refs_collect(arena_t *a, const char *stack_state_path, const char *program_text, size_t len,
                             lang_t lang, pcl_external_ref_t **out, diag_list_t *diags);

#endif

/* result_spill.h — what generation reads of each resource's result (its inputs, and the part of its
 * state pcl_gen_outputs_needed keeps) set aside in a file while the engine runs, read back when its
 * code is generated (a run whose code is only written, session_options_t.stream_code).
 *
 * Why: a resource's inputs may name any other resource's id, `name` or `arn`, known only once that
 * resource is read, so generation starts when every resource is read — and until then every
 * resource's inputs and kept state were held: at 100,000 resources 41 MB and 22 MB, the largest
 * parts of the run's peak. Here each is encoded (pv_encode) into an unnamed file (base/spool.h:
 * O_TMPFILE in the code's directory, gone however the process ends) as the engine delivers it, and
 * only its offset is held.
 *
 * They hold secret values in plaintext (a password, a private key): the file's bytes are encrypted
 * with AES-256-CTR under a key made for the run and held only in memory, so what reaches the disk is
 * no secret's plaintext even while the file exists. */
#ifndef CIMPORT_SESSION_RESULT_SPILL_H
#define CIMPORT_SESSION_RESULT_SPILL_H

#include <stdbool.h>
#include <stddef.h>

#include "specs/value.h"

typedef struct result_spill result_spill_t;

/* What of a resource is set aside: each is read back independently of the other. */
typedef enum {
    RESULT_SPILL_INPUTS = 0,
    RESULT_SPILL_OUTPUTS = 1, /* the kept state (pcl_gen_outputs_needed) */
    RESULT_SPILL_KINDS = 2,
} result_spill_kind_t;

/* A spill for n_items resources in the directory of the file at `beside`, or NULL when none can be made
 * there (a device, an unwritable directory, no random key): the caller holds the values as before. */
result_spill_t *result_spill_new(const char *beside, size_t n_items);
void result_spill_free(result_spill_t *s);

/* Sets aside item's value of the kind (NULL: it has none). Written in chunks; a failed write is kept
 * (result_spill_finish says so) and the later ones are dropped. */
void result_spill_put(result_spill_t *s, result_spill_kind_t kind, size_t item, const pv_t *v);
/* Once every item is put: writes what is left. 0, or the errno of the first write that failed
 * (then nothing can be read back). */
int result_spill_finish(result_spill_t *s);

/* Item's value of the kind read back (NULL when it had none), valid until the next call for that kind
 * or result_spill_drop; reads of a kind in item order are served from one read-ahead window of its
 * own. *failed is set (and NULL returned) when the file cannot be read back whole. */
const pv_t *result_spill_get(result_spill_t *s, result_spill_kind_t kind, size_t item, bool *failed);
/* Frees the value of the kind result_spill_get returned last. */
void result_spill_drop(result_spill_t *s, result_spill_kind_t kind);

#endif

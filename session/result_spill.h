/* inputs_spill.h — each resource's inputs set aside in a file while the engine runs, read back one at
 * a time when its code is generated (a run whose code is only written, session_options_t.stream_code).
 *
 * Why: a resource's inputs may name any other resource's id, `name` or `arn`, known only once that
 * resource is read, so generation starts when every resource is read — and until then every
 * resource's inputs were held: at 100,000 resources 41 MB, the largest part of the run's peak. Here
 * each is encoded (pv_encode) into an unnamed file (base/spool.h: O_TMPFILE in the code's directory,
 * gone however the process ends) as the engine delivers it, and only its offset is held.
 *
 * The inputs hold secret values in plaintext (a password, a private key): the file's bytes are
 * encrypted with AES-256-CTR under a key made for the run and held only in memory, so what reaches
 * the disk is no secret's plaintext even while the file exists. */
#ifndef CIMPORT_SESSION_INPUTS_SPILL_H
#define CIMPORT_SESSION_INPUTS_SPILL_H

#include <stdbool.h>
#include <stddef.h>

#include "specs/value.h"

typedef struct inputs_spill inputs_spill_t;

/* A spill for n_items resources in the directory of the file at `beside`, or NULL when none can be made
 * there (a device, an unwritable directory, no random key): the caller holds the inputs as before. */
inputs_spill_t *inputs_spill_new(const char *beside, size_t n_items);
void inputs_spill_free(inputs_spill_t *s);

/* Sets aside item's inputs (NULL: it has none). Written in chunks; a failed write is kept
 * (inputs_spill_finish says so) and the later ones are dropped. */
void inputs_spill_put(inputs_spill_t *s, size_t item, const pv_t *inputs);
/* Once every item is put: writes what is left. 0, or the errno of the first write that failed
 * (then nothing can be read back). */
int inputs_spill_finish(inputs_spill_t *s);

/* Item's inputs read back (NULL when it had none), valid until the next call or inputs_spill_drop;
 * reads in item order are served from one read-ahead window. *failed is set (and NULL returned) when
 * the file cannot be read back whole. */
const pv_t *inputs_spill_get(inputs_spill_t *s, size_t item, bool *failed);
/* Frees the inputs inputs_spill_get returned last. */
void inputs_spill_drop(inputs_spill_t *s);

#endif

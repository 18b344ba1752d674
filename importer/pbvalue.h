/* pbvalue.h — property values (pv_t) to and from google.protobuf.Struct/Value, the encoding Pulumi
 * providers speak over gRPC (provider-protocol.md §2).
 *
 * Plain values map to the Struct kinds (numbers are doubles). Pulumi's special values travel as
 * "signature objects" — an object with the key PV_SIG_KEY naming what it is: secrets, assets,
 * archives, resource references, output values and byte strings — and unknowns as sentinel strings.
 * What a request may carry depends on what the provider accepts (its Handshake/Configure answer), so
 * encoding takes options; decoding always accepts everything (responses may contain secrets and
 * references whatever was negotiated).
 *
 * Messages are built in and decoded into an arena: nothing needs protobuf_c_message_free_unpacked. */
#ifndef CIMPORT_PBVALUE_H
#define CIMPORT_PBVALUE_H

#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>

#include "base/arena.h"
#include "base/diag.h"
#include "google/protobuf/struct.pb-c.h"
#include "specs/value.h"

typedef struct pbvalue_options {
    bool keep_secrets;         /* false: a secret is sent as its inner value */
    bool keep_resources;       /* false: a reference is sent as its ID string, or its URN when it has no ID */
    bool keep_unknowns;        /* false: unknowns are left out (object members dropped, array items null) */
    bool keep_output_values;   /* false: an output value is sent as its value (secret-wrapped if secret) */
    bool keep_byte_strings;    /* false: a byte string is sent as a plain string of its bytes */
    bool elide_asset_contents; /* true: assets/archives are sent with only their hash (Diff/Read) */
} pbvalue_options_t;

/* Everything kept, nothing elided: the encoding for a provider that accepts all special values. */
void pbvalue_options_default(pbvalue_options_t *o);

/* An object value as a Struct (NULL ⇒ an empty Struct, never an absent one: Node providers crash on
 * absent Structs). Returns NULL with a diagnostic naming `where` when obj is not an object or holds a
 * value that cannot be sent (a secret known only by its ciphertext). */
Google__Protobuf__Struct *pbvalue_struct_from_pv(arena_t *a, const pv_t *obj, const pbvalue_options_t *opts,
                                                 const char *where, diag_list_t *diags);
/* Any value as a Value; NULL with a diagnostic as above. An unknown with keep_unknowns false encodes
 * as null here (only containers can leave it out). */
Google__Protobuf__Value *pbvalue_value_from_pv(arena_t *a, const pv_t *v, const pbvalue_options_t *opts,
                                               const char *where, diag_list_t *diags);

/* Decoding. A NULL Struct decodes to NULL (absent); malformed signature objects and unrecognized
 * signatures are errors with a diagnostic naming `where`. */
pv_t *pbvalue_pv_from_struct(arena_t *a, const Google__Protobuf__Struct *s, const char *where, diag_list_t *diags);
pv_t *pbvalue_pv_from_value(arena_t *a, const Google__Protobuf__Value *v, const char *where, diag_list_t *diags);

/* A protobuf-c allocator that allocates from the arena and never frees, so unpacked messages live
 * exactly as long as the arena. */
ProtobufCAllocator pbvalue_arena_allocator(arena_t *a);

/* Packs a message into a new malloc'd buffer (caller frees). */
unsigned char *pbvalue_pack(const ProtobufCMessage *m, size_t *len);

#endif

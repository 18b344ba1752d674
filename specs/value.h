/* value.h — Pulumi property values: the data every stage passes around.
 *
 * A value is null, bool, number, string, array, object, or one of Pulumi's special values:
 * secret (wraps another value), asset, archive, resource reference, unknown (computed), and
 * output value (a value with known/secret flags and dependencies). Values are allocated from an
 * arena and are immutable once built, except through the builder functions below.
 *
 * Paths address nested values with the syntax of Pulumi's ignoreChanges: `a.b[0]["c.d"]`. */
#ifndef CIMPORT_VALUE_H
#define CIMPORT_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

typedef enum {
    PV_NULL = 0,
    PV_BOOL,
    PV_NUMBER,
    PV_STRING,
    PV_ARRAY,
    PV_OBJECT,
    PV_SECRET,
    PV_ASSET,
    PV_ARCHIVE,
    PV_RESOURCE_REF,
    PV_UNKNOWN,
    PV_OUTPUT,
} pv_kind_t;

typedef struct pv pv_t;

typedef struct pv_member {
    const char *key;
    pv_t *value;
} pv_member_t;

struct pv {
    pv_kind_t kind;
    union {
        bool b;
        double n;
        struct {
            const char *s; /* NUL-terminated UTF-8 */
            size_t len;
            bool bytes; /* decoded from a byteString (not valid UTF-8); s holds the raw bytes */
        } str;
        struct {
            pv_t **items;
            size_t len, cap;
        } arr;
        struct {
            pv_member_t *members; /* insertion order; keys unique */
            size_t len, cap;
        } obj;
        struct {
            pv_t *inner;            /* NULL when only ciphertext is known */
            const char *ciphertext; /* kept verbatim from state so it round-trips; NULL if plaintext */
        } secret;
        struct {
            const char *hash, *text, *path, *uri; /* exactly one of text/path/uri, or none */
        } asset;
        struct {
            const char *hash, *path, *uri;
            pv_member_t *assets; /* name → asset or archive value; NULL unless has_assets */
            uint32_t nassets;    /* 32 bits: the largest member, so every value is 48 bytes, not 56 */
            bool has_assets;
        } archive;
        struct {
            const char *urn, *id, *package_version; /* id NULL when absent */
        } ref;
        struct {
            pv_t *value; /* NULL when unknown */
            bool known, secret;
            const char **deps;
            size_t ndeps;
        } output;
    } u;
};

/* Signature key and values of Pulumi's special objects (import-semantics §4.4). */
#define PV_SIG_KEY "4dabf18193072939515e22adb298388d"
#define PV_SIG_SECRET "1b47061264138c4ac30d75fd1eb44270"
#define PV_SIG_ASSET "c44067f5952c0a294b673a41bacd8c17"
#define PV_SIG_ARCHIVE "0def7320c3a5731c473e5ecbe6d01bc7"
#define PV_SIG_RESOURCE_REF "5cf8f73096256a8f31e491e813e4eb8e"
#define PV_SIG_OUTPUT "d0e6a833031e9bbcd3f4e8bde6ca49a4"
#define PV_SIG_BYTESTRING "803fd3297a5875dc03ca845dda5d2a98"
#define PV_SIG_FLOAT "8ad145fe-0d11-4827-bfd7-1abcbf086f5c"
#define PV_UNKNOWN_SENTINEL "04da6b54-80e4-46f7-96ec-b56ff0331ba9"

/* Constructors (all allocate from the arena; strings are copied). */
pv_t *pv_null(arena_t *a);
pv_t *pv_bool(arena_t *a, bool b);
pv_t *pv_number(arena_t *a, double n);
pv_t *pv_string(arena_t *a, const char *s);
pv_t *pv_stringn(arena_t *a, const char *s, size_t len);
pv_t *pv_array(arena_t *a);
pv_t *pv_object(arena_t *a);
pv_t *pv_secret(arena_t *a, pv_t *inner);
pv_t *pv_unknown(arena_t *a);

void pv_array_push(arena_t *a, pv_t *arr, pv_t *item);
/* Sets key (replacing an existing member of that key, keeping its position). */
void pv_object_set(arena_t *a, pv_t *obj, const char *key, pv_t *value);
/* Removes key if present; returns whether it was. */
bool pv_object_remove(pv_t *obj, const char *key);
pv_t *pv_object_get(const pv_t *obj, const char *key);

/* Appends a finite number as Go's strconv.FormatFloat(n, 'g', -1, 64) writes it, except that
 * int64-exact integers are written as integers: `42`, `3.14`, `1.2345675e+06`, `1e-07`. This is the
 * number form of PCL and of Pulumi's generated programs. NaN/Inf are the caller's to handle. */
void pv_format_number(buf_t *b, double n);
/* Appends a number as JavaScript's String(n) writes it (PCL's numbers are float64s printed so): the
 * shortest digits that read back as it, without an exponent from 1e-6 up to 1e21 (`1000000`,
 * `0.000001`), else with one (`1e+21`, `1.5e-7`); -0 as `0`, `NaN`, `Infinity`, `-Infinity`. */
void pv_format_number_js(buf_t *b, double n);

/* Deep copy into another arena. */
pv_t *pv_clone(arena_t *a, const pv_t *v);
/* A value's compact binary form (specs/value_bin.c), for a value written out and read back by the
 * same process (a run's resources spilled to a file): appended to b, exact — every kind, member order,
 * a byte string's bytes, a secret's ciphertext — so that pv_decode gives what pv_clone would. */
void pv_encode(buf_t *b, const pv_t *v);
/* Decodes the one value encoded in data[0..len) into a (*out NULL when v was NULL); false when the
 * bytes are not exactly one encoding (short, damaged or with bytes left over). */
bool pv_decode(arena_t *a, const char *data, size_t len, pv_t **out);
/* Structural equality. Secrets equal secrets with equal inner values (ciphertexts compare as text);
 * numbers compare by value; object member order does not matter. */
bool pv_equal(const pv_t *a, const pv_t *b);
/* Strips secret and output wrappers (to the innermost known value); NULL stays NULL. */
const pv_t *pv_unwrap(const pv_t *v);
/* Whether v or anything inside it is a secret. */
bool pv_contains_secret(const pv_t *v);
bool pv_contains_unknown(const pv_t *v);
const char *pv_kind_name(pv_kind_t k);

/* --- paths ------------------------------------------------------------------------------------ */

typedef struct pv_path_seg {
    const char *key; /* object key, or NULL for an index */
    size_t index;
} pv_path_seg_t;

typedef struct pv_path {
    pv_path_seg_t *segs;
    size_t len;
} pv_path_t;

/* Parses `a.b[0]["c.d"]`; `*` is not supported. Returns false (with a diagnostic) on bad syntax. */
bool pv_path_parse(arena_t *a, const char *text, pv_path_t *out, diag_list_t *diags);
/* Canonical text of a path: keys that are identifiers are dotted, others quoted in brackets. */
char *pv_path_format(arena_t *a, const pv_path_t *p);
/* Value at the path, looking through secrets; NULL if absent. */
pv_t *pv_path_get(const pv_t *root, const pv_path_t *p);
/* Sets the value at the path, creating intermediate objects/arrays (arrays padded with null).
 * Setting inside a secret sets inside its inner value. Returns false when the path crosses a
 * scalar. */
bool pv_path_set(arena_t *a, pv_t *root, const pv_path_t *p, pv_t *value);

/* --- Pulumi's JSON state encoding (cJSON) ------------------------------------------------------ */

struct cJSON;
/* Decodes a state-encoded JSON value (plain JSON plus signature objects). Errors (bad signature
 * objects) are reported with `where` as context; returns NULL then. */
pv_t *pv_from_state_json(arena_t *a, const struct cJSON *j, const char *where, diag_list_t *diags);
/* The same from JSON text: one value at s's position (s stepped past it), decoded as
 * pv_from_state_json decodes its cJSON tree, without building that tree — signature objects, the
 * rare case, go through cJSON. NULL on a syntax error (s->err says what) or a bad signature
 * object (a diagnostic as above). */
struct jscan;
pv_t *pv_from_state_text(arena_t *a, struct jscan *s, const char *where, diag_list_t *diags);
/* Encodes in Pulumi's state encoding; object keys sorted. Secrets are written with their
 * ciphertext if they have one, else as plaintext (JSON text of the inner value). */
struct cJSON *pv_to_state_json(const pv_t *v);
/* Plain JSON view for display: secrets become "[secret]" unless show_secrets, assets/archives and
 * references become their signature objects. */
struct cJSON *pv_to_display_json(const pv_t *v, bool show_secrets);

#endif

/* stackconfig.h — reading and editing a stack's config file, Pulumi.<stack>.yaml, in place.
 *
 * Reading (libyaml) finds what cimport needs to know: the secrets provider the stack uses
 * (`encryptionsalt:` for the passphrase provider, `secretsprovider:`/`encryptedkey:` for others) and
 * the config keys already set, with their `secure:` ciphertexts.
 *
 * Editing adds `<project>:<key>: {secure: v1:…}` entries (and the `encryptionsalt:` of a new
 * passphrase stack) as text: every other byte — keys, values, comments, order, quoting — stays as it
 * was. New keys go after the last entry of the `config:` mapping, indented like its first key; a file
 * without `config:` gets one at its end. The result is parsed again before it is returned. */
#ifndef CIMPORT_STACKCONFIG_H
#define CIMPORT_STACKCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"

typedef struct stackconfig_entry {
    const char *key;    /* as written, e.g. "aws:region" or "myproj:dbPassword" */
    const char *secure; /* the ciphertext of a `{secure: …}` value, else NULL */
} stackconfig_entry_t;

typedef struct stackconfig {
    const char *encryption_salt;  /* `encryptionsalt:` (the passphrase provider's salt state), or NULL */
    const char *secrets_provider; /* `secretsprovider:` (e.g. "awskms://…"), or NULL */
    bool encrypted_key;           /* `encryptedkey:` is set: a cloud secrets provider */
    stackconfig_entry_t *entries; /* the `config:` mapping's keys, in file order */
    size_t n_entries;
    const stackconfig_entry_t **by_key; /* the same, sorted by key (stackconfig_find) */
} stackconfig_t;

/* Parses the file's text (empty text: a file with nothing in it). Arena-owned results. False with an
 * error naming path when the text is not YAML or not a mapping, or `config:` is not a mapping. */
bool stackconfig_parse(arena_t *a, const char *text, size_t len, const char *path, stackconfig_t *out,
                       diag_list_t *diags);
/* The entry for key, or NULL (a binary search: a file with 100,000 keys is fine). */
const stackconfig_entry_t *stackconfig_find(const stackconfig_t *c, const char *key);
/* True when the stack uses (or can start using) the passphrase provider: no other provider named. */
bool stackconfig_is_passphrase(const stackconfig_t *c);

/* A secure value to add. */
typedef struct stackconfig_secure {
    const char *key;        /* e.g. "myproj:dbPassword" */
    const char *ciphertext; /* `v1:…` */
} stackconfig_secure_t;

/* The text with the entries added (and `encryptionsalt: <salt_state>` first when salt_state is not
 * NULL and the file has none), malloc'd. Keys the file already has are an error (nothing returned). */
char *stackconfig_add_secure(const char *text, size_t len, const char *path, const char *salt_state,
                             const stackconfig_secure_t *vals, size_t n, diag_list_t *diags);

#endif

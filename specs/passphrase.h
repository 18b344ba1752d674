/* passphrase.h — Pulumi's passphrase secrets provider, byte for byte as the Pulumi CLI stores it.
 *
 * A stack that uses it keeps a salt state, `encryptionsalt: v1:<base64 8-byte salt>:<check>` in
 * Pulumi.<stack>.yaml and `secrets_providers: {type: passphrase, state: {salt: …}}` in its
 * checkpoint, where <check> is the encryption of the text "pulumi". From the passphrase and the salt:
 *
 *   key   = PBKDF2-HMAC-SHA256(passphrase, salt, 1,000,000 iterations, 32 bytes)
 *   value = "v1:" base64(12-byte random nonce) ":" base64(AES-256-GCM ciphertext ‖ 16-byte tag)
 *
 * All cryptography is OpenSSL's libcrypto. Deriving the key is the slow part (about a second), so a
 * run opens one crypter per salt and encrypts every value with it. The key is wiped on free. */
#ifndef CIMPORT_PASSPHRASE_H
#define CIMPORT_PASSPHRASE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

#define PASSPHRASE_ITERATIONS 1000000

typedef struct passphrase_crypter passphrase_crypter_t;

/* The passphrase from PULUMI_CONFIG_PASSPHRASE (used as is, even empty), else the contents of the
 * file PULUMI_CONFIG_PASSPHRASE_FILE names (without its trailing newline). *out is malloc'd, or
 * NULL when neither variable is set. False (with a diagnostic) when the file cannot be read. */
bool passphrase_from_env(char **out, diag_list_t *diags);

/* A crypter for an existing salt state. The passphrase is checked against the state first: a wrong
 * passphrase or a malformed state gives NULL and an error naming `where` (the file holding it). */
passphrase_crypter_t *passphrase_open(const char *passphrase, const char *state, const char *where, diag_list_t *diags);
/* A crypter with a new random salt (for a stack that has no salt state yet). */
passphrase_crypter_t *passphrase_create(const char *passphrase, diag_list_t *diags);
void passphrase_free(passphrase_crypter_t *c);

/* The salt state `v1:<salt>:<check>` to store with the stack (owned by the crypter). */
const char *passphrase_state(const passphrase_crypter_t *c);
/* True when the state's salt is this crypter's (the key needs no new derivation). */
bool passphrase_same_salt(const passphrase_crypter_t *c, const char *state);

/* Encrypts len bytes: `v1:<nonce>:<ciphertext‖tag>`, malloc'd (NULL only if libcrypto fails). */
char *passphrase_encrypt(const passphrase_crypter_t *c, const void *plaintext, size_t len);
/* Decrypts a `v1:…` value into a malloc'd NUL-terminated buffer (*len bytes). False with an error
 * when the value is malformed or does not authenticate under this key. */
bool passphrase_decrypt(const passphrase_crypter_t *c, const char *value, char **out, size_t *len, diag_list_t *diags);

/* A run's keys: one passphrase, one crypter per salt, each derived once however many files use it. */
typedef struct passphrase_keyring passphrase_keyring_t;

passphrase_keyring_t *passphrase_keyring_new(const char *passphrase);
void passphrase_keyring_free(passphrase_keyring_t *k);
/* The crypter for a salt state: derived and checked on first use (a wrong passphrase: NULL and an
 * error naming `where`; the same state fails the same way again without another derivation). */
const passphrase_crypter_t *passphrase_keyring_open(passphrase_keyring_t *k, const char *state, const char *where,
                                                    diag_list_t *diags);
/* The crypter for a file that has no salt state yet: the first one this keyring opened or created,
 * else a new random salt — so a run's new files share one salt with the stack's config. */
const passphrase_crypter_t *passphrase_keyring_default(passphrase_keyring_t *k, diag_list_t *diags);
/* How many keys were derived (for tests and benchmarks). */
size_t passphrase_keyring_derivations(const passphrase_keyring_t *k);

#endif

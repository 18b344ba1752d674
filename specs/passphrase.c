/* passphrase.c — Pulumi's passphrase secrets provider over OpenSSL libcrypto (see passphrase.h). */
#include "specs/passphrase.h"

#include <errno.h>
#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/base64.h"
#include "base/fileio.h"
#include "base/vec.h"

#define SALT_LEN 8
#define KEY_LEN 32
#define NONCE_LEN 12
#define TAG_LEN 16
#define CHECK_TEXT "pulumi"

struct passphrase_crypter {
    unsigned char key[KEY_LEN];
    unsigned char salt[SALT_LEN];
    char *state;
};

bool passphrase_from_env(char **out, diag_list_t *diags) {
    *out = NULL;
    const char *p = getenv("PULUMI_CONFIG_PASSPHRASE");
    if (p) {
        *out = strdup(p);
        if (!*out) abort();
        return true;
    }
    const char *file = getenv("PULUMI_CONFIG_PASSPHRASE_FILE");
    if (!file || !*file) return true;
    /* Read whole under the input caps (size, and the idle timeout of a FIFO); the copy in the
     * arena is wiped before it is freed. */
    arena_t *tmp = arena_new();
    size_t n = 0;
    char *text = file_read_all(tmp, file, &n, diags);
    if (!text) {
        arena_free(tmp);
        diag_add(diags, DIAG_INFO, DIAG_IO, file, NULL, "the passphrase file that PULUMI_CONFIG_PASSPHRASE_FILE names");
        return false;
    }
    size_t len = n;
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    char *s = malloc(len + 1);
    if (!s) abort();
    memcpy(s, text, len);
    s[len] = '\0';
    OPENSSL_cleanse(text, n);
    arena_free(tmp);
    *out = s;
    return true;
}

static bool derive(passphrase_crypter_t *c, const char *passphrase) {
    size_t len = strlen(passphrase);
    if (len > INT_MAX) return false; /* PBKDF2 takes an int length */
    return PKCS5_PBKDF2_HMAC(passphrase, (int)len, c->salt, SALT_LEN, PASSPHRASE_ITERATIONS, EVP_sha256(), KEY_LEN,
                             c->key) == 1;
}

/* EVP_EncryptUpdate/EVP_DecryptUpdate take an int length: a longer text goes through in chunks
 * (a (int) cast of a 4 GiB + 5 byte secret would have encrypted 5 bytes of it). */
#define GCM_CHUNK ((size_t)1 << 30)

static bool gcm_update(EVP_CIPHER_CTX *ctx, bool encrypt, unsigned char *out, const unsigned char *in, size_t len) {
    size_t done = 0;
    while (done < len) {
        int n = 0, k = (int)(len - done < GCM_CHUNK ? len - done : GCM_CHUNK);
        if ((encrypt ? EVP_EncryptUpdate(ctx, out + done, &n, in + done, k)
                     : EVP_DecryptUpdate(ctx, out + done, &n, in + done, k)) != 1 ||
            n != k)
            return false;
        done += (size_t)k;
    }
    return true; /* GCM is a stream mode: the final call writes nothing more */
}

/* AES-256-GCM seal of pt with the given nonce: ciphertext ‖ tag into out (len + TAG_LEN bytes). */
static bool gcm_seal(const unsigned char *key, const unsigned char *nonce, const void *pt, size_t len,
                     unsigned char *out) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx) return false;
    int fin = 0;
    bool ok = EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) == 1 &&
              EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, NONCE_LEN, NULL) == 1 &&
              EVP_EncryptInit_ex(ctx, NULL, NULL, key, nonce) == 1 && gcm_update(ctx, true, out, pt, len) &&
              EVP_EncryptFinal_ex(ctx, out + len, &fin) == 1 &&
              EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, TAG_LEN, out + len) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/* AES-256-GCM open of ct ‖ tag (ct_len includes the tag) into out (ct_len - TAG_LEN bytes). */
static bool gcm_open(const unsigned char *key, const unsigned char *nonce, const unsigned char *ct, size_t ct_len,
                     unsigned char *out) {
    if (ct_len < TAG_LEN) return false;
    size_t len = ct_len - TAG_LEN;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx) return false;
    int fin = 0;
    bool ok = EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) == 1 &&
              EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, NONCE_LEN, NULL) == 1 &&
              EVP_DecryptInit_ex(ctx, NULL, NULL, key, nonce) == 1 && gcm_update(ctx, false, out, ct, len) &&
              EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, TAG_LEN, (void *)(ct + len)) == 1 &&
              EVP_DecryptFinal_ex(ctx, out + len, &fin) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

char *passphrase_encrypt(const passphrase_crypter_t *c, const void *plaintext, size_t len) {
    unsigned char nonce[NONCE_LEN];
    if (RAND_bytes(nonce, NONCE_LEN) != 1) return NULL;
    unsigned char *ct = malloc(len + TAG_LEN);
    if (!ct) abort();
    char *result = NULL;
    if (gcm_seal(c->key, nonce, plaintext, len, ct)) {
        char *n64 = base64_encode(nonce, NONCE_LEN);
        char *c64 = base64_encode(ct, len + TAG_LEN);
        size_t sz = strlen(n64) + strlen(c64) + 8;
        result = malloc(sz);
        if (!result) abort();
        snprintf(result, sz, "v1:%s:%s", n64, c64);
        free(n64);
        free(c64);
    }
    free(ct);
    return result;
}

/* Splits `v1:<a>:<b>` into its two base64 parts (decoded into the arena). */
static bool split_v1(arena_t *a, const char *value, char **p1, size_t *l1, char **p2, size_t *l2) {
    if (strncmp(value, "v1:", 3) != 0) return false;
    const char *s = value + 3;
    const char *colon = strchr(s, ':');
    if (!colon) return false;
    char *first = arena_strndup(a, s, (size_t)(colon - s));
    return base64_decode(a, first, p1, l1) && base64_decode(a, colon + 1, p2, l2);
}

bool passphrase_decrypt(const passphrase_crypter_t *c, const char *value, char **out, size_t *len, diag_list_t *diags) {
    arena_t *a = arena_new();
    char *nonce, *ct;
    size_t nl, cl;
    bool ok = false;
    *out = NULL;
    if (!split_v1(a, value, &nonce, &nl, &ct, &cl) || nl != NONCE_LEN || cl < TAG_LEN) {
        diag_error(diags, DIAG_INPUT, "not a passphrase-encrypted value (want v1:<nonce>:<ciphertext>)");
        goto done;
    }
    unsigned char *pt = malloc(cl - TAG_LEN + 1);
    if (!pt) abort();
    if (!gcm_open(c->key, (unsigned char *)nonce, (unsigned char *)ct, cl, pt)) {
        free(pt);
        diag_error(diags, DIAG_INPUT, "the value does not decrypt with this passphrase and salt");
        goto done;
    }
    pt[cl - TAG_LEN] = '\0';
    *out = (char *)pt;
    if (len) *len = cl - TAG_LEN;
    ok = true;
done:
    arena_free(a);
    return ok;
}

passphrase_crypter_t *passphrase_open(const char *passphrase, const char *state, const char *where,
                                      diag_list_t *diags) {
    arena_t *a = arena_new();
    passphrase_crypter_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    char *salt = NULL;
    size_t salt_len = 0;
    const char *check = NULL;
    /* v1:<salt>:<check>, where <check> is itself v1:<nonce>:<ciphertext>. */
    if (state && strncmp(state, "v1:", 3) == 0) {
        const char *s = state + 3;
        const char *colon = strchr(s, ':');
        if (colon && base64_decode(a, arena_strndup(a, s, (size_t)(colon - s)), &salt, &salt_len)) check = colon + 1;
    }
    if (!check || salt_len != SALT_LEN) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL,
                 "the passphrase salt state is malformed (want v1:<base64 salt>:<check value>): restore it from "
                 "version control, or remove it and every `secure:` value to start a new one");
        goto fail;
    }
    memcpy(c->salt, salt, SALT_LEN);
    if (!derive(c, passphrase)) {
        diag_add(diags, DIAG_ERROR, DIAG_GENERIC, where, NULL, "cannot derive the key (libcrypto PBKDF2 failed)");
        goto fail;
    }
    diag_list_t quiet;
    diag_list_init(&quiet);
    char *pt = NULL;
    size_t len = 0;
    bool good = passphrase_decrypt(c, check, &pt, &len, &quiet) && len == strlen(CHECK_TEXT) &&
                memcmp(pt, CHECK_TEXT, len) == 0;
    free(pt);
    diag_list_free(&quiet);
    if (!good) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL,
                 "incorrect passphrase: PULUMI_CONFIG_PASSPHRASE (or the file PULUMI_CONFIG_PASSPHRASE_FILE names) "
                 "does not decrypt this stack's salt state; set the stack's passphrase");
        goto fail;
    }
    c->state = strdup(state);
    if (!c->state) abort();
    arena_free(a);
    return c;
fail:
    arena_free(a);
    passphrase_free(c);
    return NULL;
}

passphrase_crypter_t *passphrase_create(const char *passphrase, diag_list_t *diags) {
    passphrase_crypter_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    if (RAND_bytes(c->salt, SALT_LEN) != 1 || !derive(c, passphrase)) {
        diag_error(diags, DIAG_GENERIC, "cannot create a passphrase salt and key (libcrypto failed)");
        passphrase_free(c);
        return NULL;
    }
    char *check = passphrase_encrypt(c, CHECK_TEXT, strlen(CHECK_TEXT));
    char *s64 = base64_encode(c->salt, SALT_LEN);
    if (!check) {
        free(s64);
        diag_error(diags, DIAG_GENERIC, "cannot encrypt the passphrase check value (libcrypto failed)");
        passphrase_free(c);
        return NULL;
    }
    size_t sz = strlen(check) + strlen(s64) + 8;
    c->state = malloc(sz);
    if (!c->state) abort();
    snprintf(c->state, sz, "v1:%s:%s", s64, check);
    free(check);
    free(s64);
    return c;
}

void passphrase_free(passphrase_crypter_t *c) {
    if (!c) return;
    OPENSSL_cleanse(c->key, sizeof c->key);
    free(c->state);
    free(c);
}

const char *passphrase_state(const passphrase_crypter_t *c) {
    return c->state;
}

bool passphrase_same_salt(const passphrase_crypter_t *c, const char *state) {
    if (!state || strncmp(state, "v1:", 3) != 0) return false;
    const char *s = state + 3;
    const char *colon = strchr(s, ':');
    if (!colon) return false;
    arena_t *a = arena_new();
    char *salt;
    size_t len;
    bool same = base64_decode(a, arena_strndup(a, s, (size_t)(colon - s)), &salt, &len) && len == SALT_LEN &&
                memcmp(salt, c->salt, SALT_LEN) == 0;
    arena_free(a);
    return same;
}

struct passphrase_keyring {
    char *passphrase;
    passphrase_crypter_t **c;
    size_t n, cap;
    char **bad; /* states the passphrase did not open */
    size_t n_bad, cap_bad;
    size_t derivations;
};

passphrase_keyring_t *passphrase_keyring_new(const char *passphrase) {
    passphrase_keyring_t *k = calloc(1, sizeof *k);
    if (!k) abort();
    k->passphrase = strdup(passphrase);
    if (!k->passphrase) abort();
    return k;
}

void passphrase_keyring_free(passphrase_keyring_t *k) {
    if (!k) return;
    for (size_t i = 0; i < k->n; i++)
        passphrase_free(k->c[i]);
    for (size_t i = 0; i < k->n_bad; i++)
        free(k->bad[i]);
    free(k->c);
    free(k->bad);
    OPENSSL_cleanse(k->passphrase, strlen(k->passphrase));
    free(k->passphrase);
    free(k);
}

static void keyring_add(passphrase_keyring_t *k, passphrase_crypter_t *c) {
    k->c = vec_grow(k->c, &k->cap, k->n + 1, sizeof(passphrase_crypter_t *));
    k->c[k->n++] = c;
}

const passphrase_crypter_t *passphrase_keyring_open(passphrase_keyring_t *k, const char *state, const char *where,
                                                    diag_list_t *diags) {
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->c[i]->state, state) == 0) return k->c[i];
    bool known_bad = false;
    for (size_t i = 0; i < k->n_bad; i++)
        known_bad |= strcmp(k->bad[i], state) == 0;
    if (!known_bad) k->derivations++;
    passphrase_crypter_t *c = known_bad ? NULL : passphrase_open(k->passphrase, state, where, diags);
    if (!c) {
        if (known_bad)
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, where, NULL,
                     "incorrect passphrase: PULUMI_CONFIG_PASSPHRASE (or the file PULUMI_CONFIG_PASSPHRASE_FILE "
                     "names) does not decrypt this stack's salt state; set the stack's passphrase");
        else {
            k->bad = vec_grow(k->bad, &k->cap_bad, k->n_bad + 1, sizeof *k->bad);
            k->bad[k->n_bad] = strdup(state);
            if (!k->bad[k->n_bad]) abort();
            k->n_bad++;
        }
        return NULL;
    }
    keyring_add(k, c);
    return c;
}

const passphrase_crypter_t *passphrase_keyring_default(passphrase_keyring_t *k, diag_list_t *diags) {
    if (k->n) return k->c[0];
    k->derivations++;
    passphrase_crypter_t *c = passphrase_create(k->passphrase, diags);
    if (!c) return NULL;
    keyring_add(k, c);
    return c;
}

size_t passphrase_keyring_derivations(const passphrase_keyring_t *k) {
    return k->derivations;
}

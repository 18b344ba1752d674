/* inputs_spill.c — resources' inputs set aside in an encrypted unnamed file (see inputs_spill.h).
 *
 * A record is the inputs' pv_encode form behind its length (4 bytes, this machine's order); item i's
 * record starts at off[i] (SIZE_MAX: none). The file is one AES-256-CTR stream: the byte at offset x
 * is enciphered with block x / 16 of the key stream at position x % 16, so any range can be written
 * or read on its own. Nothing in it authenticates: it is this process's own file, which no name
 * leads to, and a record that does not decode is a failure, not a value. */
#include "session/inputs_spill.h"

#include <errno.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/spool.h"

#define SPILL_KEY_LEN 32
#define SPILL_LEN_BYTES 4

struct inputs_spill {
    spool_t *file;
    unsigned char key[SPILL_KEY_LEN];
    EVP_CIPHER_CTX *ctx;
    size_t *off, n_items;
    buf_t out; /* records not yet written: their plaintext, enciphered as they are */
    buf_t enc; /* one record's encoding */
    int error; /* a record that could not be set aside (too long, a cipher failure) */
    char *win; /* read back: the plaintext of the file's bytes [win_off, win_off + win_len) */
    size_t win_off, win_len, win_cap;
    arena_t *values; /* the inputs inputs_spill_get returned last */
};

inputs_spill_t *inputs_spill_new(const char *beside, size_t n_items) {
    inputs_spill_t *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->ctx = EVP_CIPHER_CTX_new();
    if (!s->ctx || RAND_bytes(s->key, sizeof s->key) != 1 || !(s->file = spool_new(beside))) {
        inputs_spill_free(s);
        return NULL;
    }
    s->n_items = n_items;
    s->off = malloc((n_items ? n_items : 1) * sizeof *s->off);
    if (!s->off) abort();
    for (size_t i = 0; i < n_items; i++)
        s->off[i] = SIZE_MAX;
    buf_init(&s->out);
    buf_init(&s->enc);
    return s;
}

void inputs_spill_free(inputs_spill_t *s) {
    if (!s) return;
    OPENSSL_cleanse(s->key, sizeof s->key);
    EVP_CIPHER_CTX_free(s->ctx);
    spool_free(s->file);
    free(s->off);
    if (s->out.data) OPENSSL_cleanse(s->out.data, s->out.cap);
    if (s->enc.data) OPENSSL_cleanse(s->enc.data, s->enc.cap);
    if (s->win) OPENSSL_cleanse(s->win, s->win_cap);
    buf_free(&s->out);
    buf_free(&s->enc);
    free(s->win);
    arena_free(s->values);
    free(s);
}

/* Enciphers (or deciphers: CTR is its own inverse) the n bytes of data that stand at offset off of the
 * file, in place. */
static bool crypt_at(inputs_spill_t *s, size_t off, char *data, size_t n) {
    unsigned char iv[16] = {0};
    uint64_t block = (uint64_t)off / 16;
    for (int i = 0; i < 8; i++)
        iv[15 - i] = (unsigned char)(block >> (8 * i));
    unsigned char skip[16];
    int len = 0;
    if (EVP_EncryptInit_ex(s->ctx, EVP_aes_256_ctr(), NULL, s->key, iv) != 1) return false;
    if (off % 16 && EVP_EncryptUpdate(s->ctx, skip, &len, skip, (int)(off % 16)) != 1) return false;
    for (size_t done = 0; done < n;) { /* EVP takes an int's worth at a time */
        int step = n - done > (1u << 30) ? 1 << 30 : (int)(n - done);
        unsigned char *p = (unsigned char *)data + done;
        if (EVP_EncryptUpdate(s->ctx, p, &len, p, step) != 1) return false;
        done += (size_t)step;
    }
    return true;
}

/* Writes the records held so far, enciphered at the offset they take. */
static void flush_out(inputs_spill_t *s) {
    if (!s->out.len) return;
    if (!s->error && !crypt_at(s, spool_size(s->file), s->out.data, s->out.len)) s->error = EIO;
    if (s->error) {
        OPENSSL_cleanse(s->out.data, s->out.len);
        s->out.len = 0;
        return;
    }
    spool_take(s->file, &s->out);
}

void inputs_spill_put(inputs_spill_t *s, size_t item, const pv_t *inputs) {
    if (!inputs || item >= s->n_items) return;
    s->enc.len = 0;
    pv_encode(&s->enc, inputs);
    if (s->enc.len > UINT32_MAX) {
        s->error = EFBIG;
        return;
    }
    uint32_t len = (uint32_t)s->enc.len;
    s->off[item] = spool_size(s->file) + s->out.len;
    buf_append(&s->out, (const char *)&len, SPILL_LEN_BYTES);
    buf_append(&s->out, s->enc.data, s->enc.len);
    OPENSSL_cleanse(s->enc.data, s->enc.len);
    if (s->out.len >= SPOOL_CHUNK) flush_out(s);
}

int inputs_spill_finish(inputs_spill_t *s) {
    flush_out(s);
    return s->error ? s->error : spool_error(s->file);
}

/* Makes the window hold [off, off + n): read from off, at least a chunk. */
static bool window_at(inputs_spill_t *s, size_t off, size_t n) {
    if (off >= s->win_off && off - s->win_off <= s->win_len && n <= s->win_len - (off - s->win_off)) return true;
    size_t want = n > SPOOL_CHUNK ? n : SPOOL_CHUNK;
    if (want > s->win_cap) {
        if (s->win) OPENSSL_cleanse(s->win, s->win_cap);
        free(s->win);
        s->win = malloc(want);
        if (!s->win) abort();
        s->win_cap = want;
    }
    ssize_t got = spool_read(s->file, off, s->win, want);
    s->win_off = off;
    s->win_len = got > 0 ? (size_t)got : 0;
    if (got < 0 || (size_t)got < n || !crypt_at(s, off, s->win, s->win_len)) {
        s->win_len = 0;
        return false;
    }
    return true;
}

const pv_t *inputs_spill_get(inputs_spill_t *s, size_t item, bool *failed) {
    inputs_spill_drop(s);
    if (item >= s->n_items || s->off[item] == SIZE_MAX) return NULL;
    size_t off = s->off[item];
    uint32_t len;
    pv_t *v = NULL;
    if (!window_at(s, off, SPILL_LEN_BYTES)) goto bad;
    memcpy(&len, s->win + (off - s->win_off), SPILL_LEN_BYTES);
    if (!window_at(s, off, SPILL_LEN_BYTES + (size_t)len)) goto bad;
    s->values = arena_new();
    if (!pv_decode(s->values, s->win + (off - s->win_off) + SPILL_LEN_BYTES, len, &v)) goto bad;
    return v;
bad:
    *failed = true;
    return NULL;
}

void inputs_spill_drop(inputs_spill_t *s) {
    arena_free(s->values);
    s->values = NULL;
}

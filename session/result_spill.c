/* result_spill.c — what generation reads of resources' results set aside in an encrypted unnamed file
 * (see result_spill.h).
 *
 * A record is a value's pv_encode form behind its length (4 bytes, this machine's order); item i's
 * record of a kind starts at off[kind][i] (SIZE_MAX: none). The file is one AES-256-CTR stream: the byte at offset x
 * is enciphered with block x / 16 of the key stream at position x % 16, so any range can be written
 * or read on its own. Nothing in it authenticates: it is this process's own file, which no name
 * leads to, and a record that does not decode is a failure, not a value. */
#include "session/result_spill.h"

#include <errno.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/spool.h"

#define SPILL_KEY_LEN 32
#define SPILL_LEN_BYTES 4

/* Reading back one kind: a window over the file and the value returned last. */
typedef struct spill_reader {
    char *win; /* the plaintext of the file's bytes [win_off, win_off + win_len) */
    size_t win_off, win_len, win_cap;
    arena_t *values;
} spill_reader_t;

struct result_spill {
    spool_t *file;
    unsigned char key[SPILL_KEY_LEN];
    EVP_CIPHER_CTX *ctx;
    size_t *off[RESULT_SPILL_KINDS], n_items;
    buf_t out; /* records not yet written: their plaintext, enciphered as they are */
    buf_t enc; /* one record's encoding */
    int error; /* a record that could not be set aside (too long, a cipher failure) */
    spill_reader_t read[RESULT_SPILL_KINDS];
};

result_spill_t *result_spill_new(const char *beside, size_t n_items) {
    result_spill_t *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->ctx = EVP_CIPHER_CTX_new();
    if (!s->ctx || RAND_bytes(s->key, sizeof s->key) != 1 || !(s->file = spool_new(beside))) {
        result_spill_free(s);
        return NULL;
    }
    s->n_items = n_items;
    for (int k = 0; k < RESULT_SPILL_KINDS; k++) {
        s->off[k] = malloc((n_items ? n_items : 1) * sizeof *s->off[k]);
        if (!s->off[k]) abort();
        for (size_t i = 0; i < n_items; i++)
            s->off[k][i] = SIZE_MAX;
    }
    buf_init(&s->out);
    buf_init(&s->enc);
    return s;
}

void result_spill_free(result_spill_t *s) {
    if (!s) return;
    OPENSSL_cleanse(s->key, sizeof s->key);
    EVP_CIPHER_CTX_free(s->ctx);
    spool_free(s->file);
    if (s->out.data) OPENSSL_cleanse(s->out.data, s->out.cap);
    if (s->enc.data) OPENSSL_cleanse(s->enc.data, s->enc.cap);
    buf_free(&s->out);
    buf_free(&s->enc);
    for (int k = 0; k < RESULT_SPILL_KINDS; k++) {
        spill_reader_t *r = &s->read[k];
        if (r->win) OPENSSL_cleanse(r->win, r->win_cap);
        free(r->win);
        arena_free(r->values);
        free(s->off[k]);
    }
    free(s);
}

/* Enciphers (or deciphers: CTR is its own inverse) the n bytes of data that stand at offset off of the
 * file, in place. */
static bool crypt_at(result_spill_t *s, size_t off, char *data, size_t n) {
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
static void flush_out(result_spill_t *s) {
    if (!s->out.len) return;
    if (!s->error && !crypt_at(s, spool_size(s->file), s->out.data, s->out.len)) s->error = EIO;
    if (s->error) {
        OPENSSL_cleanse(s->out.data, s->out.len);
        s->out.len = 0;
        return;
    }
    spool_take(s->file, &s->out);
}

void result_spill_put(result_spill_t *s, result_spill_kind_t kind, size_t item, const pv_t *v) {
    if (!v || item >= s->n_items) return;
    s->enc.len = 0;
    pv_encode(&s->enc, v);
    if (s->enc.len > UINT32_MAX) {
        s->error = EFBIG;
        return;
    }
    uint32_t len = (uint32_t)s->enc.len;
    s->off[kind][item] = spool_size(s->file) + s->out.len;
    buf_append(&s->out, (const char *)&len, SPILL_LEN_BYTES);
    buf_append(&s->out, s->enc.data, s->enc.len);
    OPENSSL_cleanse(s->enc.data, s->enc.len);
    if (s->out.len >= SPOOL_CHUNK) flush_out(s);
}

int result_spill_finish(result_spill_t *s) {
    flush_out(s);
    return s->error ? s->error : spool_error(s->file);
}

/* Makes r's window hold [off, off + n): read from off, at least a chunk. */
static bool window_at(result_spill_t *s, spill_reader_t *r, size_t off, size_t n) {
    if (off >= r->win_off && off - r->win_off <= r->win_len && n <= r->win_len - (off - r->win_off)) return true;
    size_t want = n > SPOOL_CHUNK ? n : SPOOL_CHUNK;
    if (want > r->win_cap) {
        if (r->win) OPENSSL_cleanse(r->win, r->win_cap);
        free(r->win);
        r->win = malloc(want);
        if (!r->win) abort();
        r->win_cap = want;
    }
    ssize_t got = spool_read(s->file, off, r->win, want);
    r->win_off = off;
    r->win_len = got > 0 ? (size_t)got : 0;
    if (got < 0 || (size_t)got < n || !crypt_at(s, off, r->win, r->win_len)) {
        r->win_len = 0;
        return false;
    }
    return true;
}

const pv_t *result_spill_get(result_spill_t *s, result_spill_kind_t kind, size_t item, bool *failed) {
    result_spill_drop(s, kind);
    if (item >= s->n_items || s->off[kind][item] == SIZE_MAX) return NULL;
    spill_reader_t *r = &s->read[kind];
    size_t off = s->off[kind][item];
    uint32_t len;
    pv_t *v = NULL;
    if (!window_at(s, r, off, SPILL_LEN_BYTES)) goto bad;
    memcpy(&len, r->win + (off - r->win_off), SPILL_LEN_BYTES);
    if (!window_at(s, r, off, SPILL_LEN_BYTES + (size_t)len)) goto bad;
    r->values = arena_new();
    if (!pv_decode(r->values, r->win + (off - r->win_off) + SPILL_LEN_BYTES, len, &v)) goto bad;
    return v;
bad:
    *failed = true;
    return NULL;
}

void result_spill_drop(result_spill_t *s, result_spill_kind_t kind) {
    arena_free(s->read[kind].values);
    s->read[kind].values = NULL;
}

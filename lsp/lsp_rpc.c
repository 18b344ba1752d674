/* lsp_rpc.c — JSON-RPC framing for the language server: Content-Length headers over a byte stream.
 *
 * The reader never trusts its peer: a header block without a Content-Length (or with a bad or huge
 * one) is reported and skipped, and reading resumes at the next `Content-Length` header, so one
 * garbled message does not take the whole session down. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/vec.h"
#include "lsp/lsp_internal.h"

void lsp_reader_init(lsp_reader_t *r, int fd) {
    memset(r, 0, sizeof *r);
    r->fd = fd;
}

void lsp_reader_free(lsp_reader_t *r) {
    free(r->buf);
    memset(r, 0, sizeof *r);
}

/* Reads more bytes into the buffer. block=false: only if some are available now. False when
 * nothing was added (EOF, error, or nothing available). */
static bool rpc_fill(lsp_reader_t *r, bool block) {
    if (r->eof) return false;
    if (!block) {
        struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
        int n = poll(&pfd, 1, 0);
        if (n <= 0 || !(pfd.revents & (POLLIN | POLLHUP | POLLERR))) return false;
    }
    if (r->pos > 0 && r->pos == r->len) r->pos = r->len = 0;
    if (r->pos > 0 && r->pos > r->cap / 2) { /* compact: keep the buffer from creeping forward */
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    r->buf = vec_grow(r->buf, &r->cap, r->len + 65536, 1); /* room to read 64 KiB at a time */
    for (;;) {
        ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
        if (n > 0) {
            r->len += (size_t)n;
            return true;
        }
        if (n < 0 && errno == EINTR) continue;
        r->eof = true;
        return false;
    }
}

/* Finds the end of the header block from pos: the index just past the empty line, or 0. */
static size_t rpc_header_end(const lsp_reader_t *r) {
    const char *b = r->buf;
    for (size_t i = r->pos; i < r->len; i++) {
        if (b[i] != '\n') continue;
        /* an empty line: "\n\n" or "\n\r\n" */
        if (i + 1 < r->len && b[i + 1] == '\n') return i + 2;
        if (i + 2 < r->len && b[i + 1] == '\r' && b[i + 2] == '\n') return i + 3;
    }
    return 0;
}

/* Skips to the next line that starts with "Content-Length" (after a bad header). True when found. */
static bool rpc_resync(lsp_reader_t *r) {
    static const char key[] = "Content-Length";
    size_t k = sizeof key - 1;
    for (size_t i = r->pos; i + k <= r->len; i++) {
        if ((i == r->pos || r->buf[i - 1] == '\n' || r->buf[i - 1] == '}') && strncasecmp(r->buf + i, key, k) == 0) {
            r->pos = i;
            r->resync = false;
            return true;
        }
    }
    /* keep the last few bytes: the key may be split across reads */
    if (r->len - r->pos > k) r->pos = r->len - k;
    return false;
}

/* Parses the header block [pos, end). Sets *content_length; false with r->error on a bad block. */
static bool rpc_parse_headers(lsp_reader_t *r, size_t end, size_t *content_length) {
    bool have = false;
    size_t i = r->pos;
    while (i < end) {
        size_t e = i;
        while (e < end && r->buf[e] != '\n')
            e++;
        size_t line_end = e > i && r->buf[e - 1] == '\r' ? e - 1 : e;
        const char *line = r->buf + i;
        size_t n = line_end - i;
        const char *colon = memchr(line, ':', n);
        if (n > 0 && !colon) {
            snprintf(r->error, sizeof r->error, "a header line has no ':' (expected 'Content-Length: N')");
            return false;
        }
        if (colon && (size_t)(colon - line) == 14 && strncasecmp(line, "Content-Length", 14) == 0) {
            const char *v = colon + 1;
            const char *ve = line + n;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            if (v == ve) {
                snprintf(r->error, sizeof r->error, "the Content-Length header has no value");
                return false;
            }
            size_t value = 0;
            for (const char *p = v; p < ve; p++) {
                if (*p < '0' || *p > '9' || value > LSP_MAX_MESSAGE) {
                    snprintf(r->error, sizeof r->error, "the Content-Length header is not a number of bytes up to %u",
                             LSP_MAX_MESSAGE);
                    return false;
                }
                value = value * 10 + (size_t)(*p - '0');
            }
            if (value > LSP_MAX_MESSAGE) {
                snprintf(r->error, sizeof r->error, "the Content-Length %zu is larger than the limit of %u bytes",
                         value, LSP_MAX_MESSAGE);
                return false;
            }
            *content_length = value;
            have = true;
        }
        i = e + 1;
    }
    if (!have) snprintf(r->error, sizeof r->error, "a message has no Content-Length header");
    return have;
}

lsp_read_status_t lsp_reader_next(lsp_reader_t *r, bool block, char **body, size_t *len) {
    *body = NULL;
    *len = 0;
    r->error[0] = '\0';
    bool tried = false; /* non-blocking: read at most once */
    for (;;) {
        if (r->resync) {
            if (!rpc_resync(r)) goto more;
        }
        /* Skip blank lines between messages (some clients add a newline after the body). */
        while (r->pos < r->len && (r->buf[r->pos] == '\r' || r->buf[r->pos] == '\n'))
            r->pos++;
        size_t hend = rpc_header_end(r);
        if (hend == 0) {
            if (r->len - r->pos > 65536) { /* a header block that never ends: not LSP */
                snprintf(r->error, sizeof r->error, "a header block longer than 64 KiB has no end (an empty line)");
                r->pos = r->len;
                r->resync = true;
                return LSP_READ_BAD_HEADER;
            }
            goto more;
        }
        size_t clen;
        if (!rpc_parse_headers(r, hend, &clen)) {
            r->pos = hend;
            r->resync = true;
            return LSP_READ_BAD_HEADER;
        }
        if (r->len - hend < clen) goto more;
        char *m = malloc(clen + 1);
        if (!m) abort();
        memcpy(m, r->buf + hend, clen);
        m[clen] = '\0';
        r->pos = hend + clen;
        *body = m;
        *len = clen;
        return LSP_READ_MESSAGE;
    more:
        if (!block && tried) return LSP_READ_AGAIN;
        tried = true;
        if (!rpc_fill(r, block)) {
            if (r->eof) {
                size_t left = r->len - r->pos;
                while (left > 0 && (r->buf[r->pos] == '\r' || r->buf[r->pos] == '\n'))
                    r->pos++, left--;
                r->partial = left > 0 && !r->resync;
                return LSP_READ_EOF;
            }
            if (!block) return LSP_READ_AGAIN;
        }
    }
}

char *lsp_frame(const char *body, size_t len, size_t *out_len) {
    char head[48];
    int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", len);
    char *out = malloc((size_t)h + len + 1);
    if (!out) abort();
    memcpy(out, head, (size_t)h);
    memcpy(out + h, body, len);
    out[(size_t)h + len] = '\0';
    *out_len = (size_t)h + len;
    return out;
}

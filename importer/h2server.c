/* h2server.c — a unary gRPC server over cleartext HTTP/2 on 127.0.0.1 (see h2server.h).
 *
 * One listening socket and one nghttp2 server session per accepted connection, each a source of the
 * shared event loop. A call moves RECEIVING → HANDED (the handler owns the right to reply) →
 * REPLIED (the response is being sent; freed when nghttp2 closes the stream). A HANDED call whose
 * stream or session goes away becomes ORPHAN: it stays allocated until the handler replies, so a
 * deferred reply is always safe. */
#define _GNU_SOURCE
#include "importer/h2server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/arena.h"

typedef enum { CALL_RECEIVING, CALL_HANDED, CALL_REPLIED, CALL_ORPHAN } call_state_t;

typedef struct h2session h2session_t;

struct h2server_call {
    h2server_t *srv;
    h2session_t *sess; /* NULL once the session is gone */
    h2server_call_t *prev, *next;
    int32_t stream_id;
    call_state_t state;
    bool cancelled;
    char *path;
    bool grpc_content_type;
    buf_t body;
    unsigned char *resp;
    size_t resp_len, resp_off;
};

struct h2session {
    h2server_t *srv;
    h2session_t *prev, *next;
    int fd;
    int handle;
    nghttp2_session *ng;
    buf_t out;      /* frames produced, sent in one send() per batch (see grpc.c) */
    size_t out_off; /* bytes of `out` already sent */
    bool broken;    /* the socket failed */
    bool in_recv;   /* inside nghttp2_session_mem_recv: h2server_flush leaves this session alone */
    /* Where the input is in the frame sequence, for feeding nghttp2 one frame at a time when the
     * server has an after-request hook (session_piece). */
    size_t preface_left;  /* bytes of the client's connection preface still to come */
    unsigned char hdr[9]; /* a frame header split between two reads */
    size_t hdr_len;
    size_t frame_left; /* payload bytes of the current frame still to come */
    bool handed;       /* a request was handed to the handler in the current piece */
};

#define SESSION_OUT_MAX (4u << 20)

struct h2server {
    grpc_loop_t *loop;
    int lfd;
    int lhandle;
    int port;
    char address[32];
    h2server_handler_fn handler;
    void *user;
    h2session_t *sessions;
    h2server_call_t *calls;
    size_t pending;
    h2server_after_request_fn after_request;
    void *after_request_user;
};

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) abort();
    return p;
}

static void call_unlink(h2server_call_t *c) {
    h2server_t *s = c->srv;
    if (c->prev)
        c->prev->next = c->next;
    else if (s->calls == c)
        s->calls = c->next;
    if (c->next) c->next->prev = c->prev;
}

static void call_free(h2server_call_t *c) {
    call_unlink(c);
    if (c->state == CALL_HANDED || c->state == CALL_ORPHAN) c->srv->pending--;
    free(c->path);
    buf_free(&c->body);
    free(c->resp);
    free(c);
}

#define NV(name, value)                                                                                                \
    { (uint8_t *)(name), (uint8_t *)(value), sizeof(name) - 1, strlen(value), NGHTTP2_NV_FLAG_NONE }

static ssize_t resp_read(nghttp2_session *ng, int32_t stream_id, uint8_t *buf, size_t length, uint32_t *data_flags,
                         nghttp2_data_source *source, void *user) {
    (void)user;
    h2server_call_t *c = source->ptr;
    size_t n = c->resp_len - c->resp_off;
    if (n > length) n = length;
    memcpy(buf, c->resp + c->resp_off, n);
    c->resp_off += n;
    if (c->resp_off == c->resp_len) {
        *data_flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
        nghttp2_nv trailers[] = {NV("grpc-status", "0")};
        nghttp2_submit_trailer(ng, stream_id, trailers, 1);
    }
    return (ssize_t)n;
}

/* Sends a response for a call whose session is alive. */
static void call_send(h2server_call_t *c, int status, const char *message, unsigned char *body, size_t len) {
    nghttp2_session *ng = c->sess->ng;
    c->state = CALL_REPLIED;
    c->srv->pending--;
    if (status != GRPC_OK) {
        char code[16];
        snprintf(code, sizeof code, "%d", status);
        char *enc = grpc_message_encode(message ? message : "");
        nghttp2_nv hdrs[] = {NV(":status", "200"), NV("content-type", "application/grpc"), NV("grpc-status", code),
                             NV("grpc-message", enc)};
        nghttp2_submit_response(ng, c->stream_id, hdrs, sizeof hdrs / sizeof hdrs[0], NULL);
        free(enc);
        free(body);
        return;
    }
    c->resp = body;
    c->resp_len = len;
    nghttp2_nv hdrs[] = {NV(":status", "200"), NV("content-type", "application/grpc")};
    nghttp2_data_provider dp = {.source.ptr = c, .read_callback = resp_read};
    nghttp2_submit_response(ng, c->stream_id, hdrs, 2, &dp);
}

static void reply_common(h2server_call_t *c, int status, const char *message, unsigned char *body, size_t len) {
    if (c->state != CALL_HANDED || !c->sess) {
        free(body);
        call_free(c); /* ORPHAN: the client went away; nothing to send */
        return;
    }
    call_send(c, status, message, body, len);
}

void h2server_reply(h2server_call_t *c, int status, const char *message, const void *msg, size_t len) {
    unsigned char *body = NULL;
    if (status == GRPC_OK) {
        body = xcalloc(len + 5, 1);
        body[1] = (unsigned char)(len >> 24);
        body[2] = (unsigned char)(len >> 16);
        body[3] = (unsigned char)(len >> 8);
        body[4] = (unsigned char)len;
        if (len) memcpy(body + 5, msg, len);
        len += 5;
    }
    reply_common(c, status, message, body, len);
}

void h2server_reply_raw(h2server_call_t *c, const void *raw, size_t len) {
    unsigned char *body = xcalloc(len, 1);
    if (len) memcpy(body, raw, len);
    reply_common(c, GRPC_OK, NULL, body, len);
}

bool h2server_call_cancelled(const h2server_call_t *c) {
    return c->cancelled;
}

size_t h2server_pending(const h2server_t *s) {
    return s->pending;
}

/* --- session callbacks --------------------------------------------------------------------------- */

static ssize_t cb_send(nghttp2_session *ng, const uint8_t *data, size_t len, int flags, void *user) {
    (void)ng;
    (void)flags;
    h2session_t *ss = user;
    if (ss->out.len - ss->out_off > SESSION_OUT_MAX) return NGHTTP2_ERR_WOULDBLOCK;
    buf_append(&ss->out, (const char *)data, len);
    return (ssize_t)len;
}

/* Writes buffered frames; the rest waits for POLLOUT. */
static void session_flush(h2session_t *ss) {
    while (ss->out_off < ss->out.len) {
        ssize_t n = send(ss->fd, ss->out.data + ss->out_off, ss->out.len - ss->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) ss->broken = true;
            return;
        }
        ss->out_off += (size_t)n;
    }
    ss->out.len = 0;
    ss->out_off = 0;
}

void h2server_set_after_request(h2server_t *s, h2server_after_request_fn fn, void *user) {
    s->after_request = fn;
    s->after_request_user = user;
}

void h2server_flush(h2server_t *s) {
    for (h2session_t *ss = s->sessions; ss; ss = ss->next) {
        /* nghttp2 must not be asked to send from inside its own receive; a failed session is closed
         * by its next dispatch, which sees `broken` */
        if (ss->in_recv || ss->broken) continue;
        if (nghttp2_session_send(ss->ng) != 0)
            ss->broken = true;
        else
            session_flush(ss);
    }
}

static int cb_begin_headers(nghttp2_session *ng, const nghttp2_frame *frame, void *user) {
    h2session_t *ss = user;
    if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    h2server_call_t *c = xcalloc(1, sizeof *c);
    c->srv = ss->srv;
    c->sess = ss;
    c->stream_id = frame->hd.stream_id;
    buf_init(&c->body);
    c->next = ss->srv->calls;
    if (c->next) c->next->prev = c;
    ss->srv->calls = c;
    nghttp2_session_set_stream_user_data(ng, frame->hd.stream_id, c);
    return 0;
}

static int cb_header(nghttp2_session *ng, const nghttp2_frame *frame, const uint8_t *name, size_t namelen,
                     const uint8_t *value, size_t valuelen, uint8_t flags, void *user) {
    (void)flags;
    (void)user;
    h2server_call_t *c = nghttp2_session_get_stream_user_data(ng, frame->hd.stream_id);
    if (!c || c->state != CALL_RECEIVING) return 0;
    if (namelen == 5 && memcmp(name, ":path", 5) == 0) {
        free(c->path);
        c->path = strndup((const char *)value, valuelen);
        if (!c->path) abort();
    } else if (namelen == 12 && memcmp(name, "content-type", 12) == 0) {
        c->grpc_content_type = valuelen >= 16 && memcmp(value, "application/grpc", 16) == 0;
    }
    return 0;
}

static int cb_data_chunk(nghttp2_session *ng, uint8_t flags, int32_t stream_id, const uint8_t *data, size_t len,
                         void *user) {
    (void)flags;
    (void)user;
    h2server_call_t *c = nghttp2_session_get_stream_user_data(ng, stream_id);
    if (!c || c->state != CALL_RECEIVING) return 0;
    if (c->body.len + len > GRPC_MAX_MESSAGE + 5) {
        c->state = CALL_HANDED; /* so call_send's bookkeeping holds */
        c->srv->pending++;
        call_send(c, GRPC_RESOURCE_EXHAUSTED, "the request is larger than the message limit", NULL, 0);
        return 0;
    }
    buf_append(&c->body, (const char *)data, len);
    return 0;
}

static void call_dispatch(h2server_call_t *c) {
    h2server_t *s = c->srv;
    c->state = CALL_HANDED;
    s->pending++;
    const unsigned char *p = (const unsigned char *)c->body.data;
    size_t n = c->body.len;
    const char *bad = NULL;
    if (!c->path || !c->grpc_content_type)
        bad = "not a gRPC request (content-type must be application/grpc)";
    else if (n < 5)
        bad = "malformed gRPC request: no complete message";
    else if (p[0] != 0)
        bad = "malformed gRPC request: compressed messages are not supported";
    else if (((size_t)p[1] << 24 | (size_t)p[2] << 16 | (size_t)p[3] << 8 | p[4]) + 5 != n)
        bad = "malformed gRPC request: the length prefix does not match the message";
    if (bad) {
        call_send(c, GRPC_INTERNAL, bad, NULL, 0);
        return;
    }
    if (c->sess) c->sess->handed = true;
    s->handler(s->user, c, c->path, p + 5, n - 5);
}

static int cb_frame_recv(nghttp2_session *ng, const nghttp2_frame *frame, void *user) {
    (void)user;
    if ((frame->hd.type != NGHTTP2_DATA && frame->hd.type != NGHTTP2_HEADERS) ||
        !(frame->hd.flags & NGHTTP2_FLAG_END_STREAM))
        return 0;
    h2server_call_t *c = nghttp2_session_get_stream_user_data(ng, frame->hd.stream_id);
    if (c && c->state == CALL_RECEIVING) call_dispatch(c);
    return 0;
}

static int cb_stream_close(nghttp2_session *ng, int32_t stream_id, uint32_t error_code, void *user) {
    (void)error_code;
    (void)user;
    h2server_call_t *c = nghttp2_session_get_stream_user_data(ng, stream_id);
    if (!c) return 0;
    nghttp2_session_set_stream_user_data(ng, stream_id, NULL);
    if (c->state == CALL_HANDED) {
        c->state = CALL_ORPHAN;
        c->cancelled = true;
        c->sess = NULL;
    } else if (c->state != CALL_ORPHAN) {
        call_free(c);
    }
    return 0;
}

static void session_close(h2session_t *ss) {
    h2server_t *s = ss->srv;
    h2server_call_t *next;
    for (h2server_call_t *c = s->calls; c; c = next) {
        next = c->next;
        if (c->sess != ss) continue;
        nghttp2_session_set_stream_user_data(ss->ng, c->stream_id, NULL);
        if (c->state == CALL_HANDED) {
            c->state = CALL_ORPHAN;
            c->cancelled = true;
            c->sess = NULL;
        } else {
            call_free(c);
        }
    }
    if (ss->prev)
        ss->prev->next = ss->next;
    else
        s->sessions = ss->next;
    if (ss->next) ss->next->prev = ss->prev;
    grpc_loop_remove(s->loop, ss->handle);
    nghttp2_session_del(ss->ng);
    close(ss->fd);
    buf_free(&ss->out);
    free(ss);
}

static void session_prepare(void *user, int *fd, short *events, int *timeout_ms) {
    (void)timeout_ms;
    h2session_t *ss = user;
    *fd = ss->fd;
    *events = POLLIN;
    if (nghttp2_session_want_write(ss->ng) || ss->out_off < ss->out.len) *events |= POLLOUT;
}

/* How many of the n bytes at p to give nghttp2 next: up to the end of the frame they are in, so a
 * request that frame completes is handed over, and the after-request hook runs, before the next frame
 * is parsed. Only frame lengths are read here; nghttp2 checks everything, so a peer that does not
 * speak HTTP/2 only changes where the input is cut. */
static size_t session_piece(h2session_t *ss, const unsigned char *p, size_t n) {
    if (ss->preface_left) {
        size_t k = n < ss->preface_left ? n : ss->preface_left;
        ss->preface_left -= k;
        return k;
    }
    size_t k = 0;
    if (ss->frame_left == 0) {
        k = sizeof ss->hdr - ss->hdr_len;
        if (k > n) k = n;
        memcpy(ss->hdr + ss->hdr_len, p, k);
        ss->hdr_len += k;
        if (ss->hdr_len < sizeof ss->hdr) return k;
        ss->hdr_len = 0;
        ss->frame_left = (size_t)ss->hdr[0] << 16 | (size_t)ss->hdr[1] << 8 | ss->hdr[2];
    }
    size_t m = n - k < ss->frame_left ? n - k : ss->frame_left;
    ss->frame_left -= m;
    return k + m;
}

/* Gives a read to nghttp2: whole, or a frame at a time with the after-request hook run after each
 * piece that handed a request over. False when nghttp2 rejects the input. */
static bool session_feed(h2session_t *ss, const unsigned char *buf, size_t n) {
    h2server_t *s = ss->srv;
    for (size_t off = 0; off < n;) {
        size_t piece = s->after_request ? session_piece(ss, buf + off, n - off) : n - off;
        ss->in_recv = true;
        ssize_t used = nghttp2_session_mem_recv(ss->ng, buf + off, piece);
        ss->in_recv = false;
        if (used < 0) return false;
        off += piece;
        if (ss->handed && s->after_request) s->after_request(s->after_request_user);
        ss->handed = false;
    }
    return true;
}

static void session_dispatch(void *user, short revents) {
    h2session_t *ss = user;
    if (revents & (POLLIN | POLLHUP | POLLERR)) {
        unsigned char buf[65536];
        for (;;) {
            ssize_t n = recv(ss->fd, buf, sizeof buf, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
            if (n <= 0) {
                session_close(ss);
                return;
            }
            if (!session_feed(ss, buf, (size_t)n)) {
                session_close(ss);
                return;
            }
        }
    }
    session_flush(ss);
    if (ss->broken || nghttp2_session_send(ss->ng) != 0) {
        session_close(ss);
        return;
    }
    session_flush(ss);
    if (ss->broken ||
        (!nghttp2_session_want_read(ss->ng) && !nghttp2_session_want_write(ss->ng) && ss->out_off == ss->out.len))
        session_close(ss);
}

static void session_open(h2server_t *s, int fd) {
    h2session_t *ss = xcalloc(1, sizeof *ss);
    ss->srv = s;
    ss->fd = fd;
    ss->preface_left = NGHTTP2_CLIENT_MAGIC_LEN;
    nghttp2_session_callbacks *cbs;
    nghttp2_session_callbacks_new(&cbs);
    nghttp2_session_callbacks_set_send_callback(cbs, cb_send);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cbs, cb_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(cbs, cb_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, cb_data_chunk);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, cb_frame_recv);
    nghttp2_session_callbacks_set_on_stream_close_callback(cbs, cb_stream_close);
    nghttp2_session_server_new(&ss->ng, cbs, ss);
    nghttp2_session_callbacks_del(cbs);
    nghttp2_settings_entry iv[] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 1024},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 16 * 1024 * 1024},
    };
    nghttp2_submit_settings(ss->ng, NGHTTP2_FLAG_NONE, iv, 2);
    nghttp2_session_set_local_window_size(ss->ng, NGHTTP2_FLAG_NONE, 0, 256 * 1024 * 1024);
    ss->next = s->sessions;
    if (ss->next) ss->next->prev = ss;
    s->sessions = ss;
    grpc_loop_source_t src = {.prepare = session_prepare, .dispatch = session_dispatch, .user = ss};
    ss->handle = grpc_loop_add(s->loop, &src);
}

static void listener_prepare(void *user, int *fd, short *events, int *timeout_ms) {
    (void)timeout_ms;
    h2server_t *s = user;
    *fd = s->lfd;
    *events = POLLIN;
}

static void listener_dispatch(void *user, short revents) {
    h2server_t *s = user;
    if (!(revents & POLLIN)) return;
    for (;;) {
        int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) break;
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        session_open(s, fd);
    }
}

h2server_t *h2server_start(grpc_loop_t *loop, int port, h2server_handler_fn handler, void *user, diag_list_t *diags) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        diag_error(diags, DIAG_PROVIDER, "cannot create a socket for the engine endpoint: %s", strerror(errno));
        return NULL;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t sl = sizeof sa;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 128) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &sl) != 0) {
        diag_error(diags, DIAG_PROVIDER, "cannot listen on 127.0.0.1:%d: %s; choose another port or 0 for any", port,
                   strerror(errno));
        close(fd);
        return NULL;
    }
    h2server_t *s = xcalloc(1, sizeof *s);
    s->loop = loop;
    s->lfd = fd;
    s->port = ntohs(sa.sin_port);
    snprintf(s->address, sizeof s->address, "127.0.0.1:%d", s->port);
    s->handler = handler;
    s->user = user;
    grpc_loop_source_t src = {.prepare = listener_prepare, .dispatch = listener_dispatch, .user = s};
    s->lhandle = grpc_loop_add(loop, &src);
    return s;
}

void h2server_free(h2server_t *s) {
    if (!s) return;
    /* Each session and call unlinks itself from s as it goes; the next one is read first. */
    for (h2session_t *ss = s->sessions, *next; ss; ss = next) {
        next = ss->next;
        session_close(ss);
    }
    for (h2server_call_t *c = s->calls, *next; c; c = next) {
        next = c->next;
        call_free(c);
    }
    grpc_loop_remove(s->loop, s->lhandle);
    close(s->lfd);
    free(s);
}

void h2server_goaway(h2server_t *s) {
    for (h2session_t *ss = s->sessions; ss; ss = ss->next)
        nghttp2_submit_goaway(ss->ng, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(ss->ng),
                              NGHTTP2_NO_ERROR, NULL, 0);
}

int h2server_port(const h2server_t *s) {
    return s->port;
}

const char *h2server_address(const h2server_t *s) {
    return s->address;
}

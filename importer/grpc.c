/* grpc.c — the event loop and the unary gRPC client over cleartext HTTP/2 (see grpc.h).
 *
 * The client is a plain nghttp2 client session on a non-blocking socket. Completed calls are put on
 * a list and their callbacks run after nghttp2 returns, never from inside an nghttp2 callback, so a
 * completion callback can start new calls without re-entering the session. */
#define _GNU_SOURCE
#include "importer/grpc.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/vec.h"

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) abort();
    return p;
}

static char *xstrdup(const char *s) {
    char *d = strdup(s ? s : "");
    if (!d) abort();
    return d;
}

const char *grpc_status_name(int status) {
    static const char *const names[] = {
        "OK",        "CANCELLED",       "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
        "NOT_FOUND", "ALREADY_EXISTS",  "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED",   "OUT_OF_RANGE",    "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
        "DATA_LOSS", "UNAUTHENTICATED",
    };
    if (status < 0 || status >= (int)(sizeof names / sizeof names[0])) return "UNKNOWN_STATUS";
    return names[status];
}

int64_t grpc_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- event loop ---------------------------------------------------------------------------------- */

typedef struct loop_entry {
    grpc_loop_source_t src;
    int handle;
    bool removed;
} loop_entry_t;

struct grpc_loop {
    loop_entry_t *entries;
    size_t n, cap;
    int next_handle;
    int depth; /* > 0 while dispatching: removals are only marked */
};

grpc_loop_t *grpc_loop_new(void) {
    return xcalloc(1, sizeof(grpc_loop_t));
}

void grpc_loop_free(grpc_loop_t *loop) {
    if (!loop) return;
    free(loop->entries);
    free(loop);
}

int grpc_loop_add(grpc_loop_t *loop, const grpc_loop_source_t *src) {
    loop->entries = vec_grow(loop->entries, &loop->cap, loop->n + 1, sizeof *loop->entries);
    loop_entry_t *e = &loop->entries[loop->n++];
    e->src = *src;
    e->handle = ++loop->next_handle;
    e->removed = false;
    return e->handle;
}

static void loop_compact(grpc_loop_t *loop) {
    size_t j = 0;
    for (size_t i = 0; i < loop->n; i++)
        if (!loop->entries[i].removed) loop->entries[j++] = loop->entries[i];
    loop->n = j;
}

void grpc_loop_remove(grpc_loop_t *loop, int handle) {
    for (size_t i = 0; i < loop->n; i++)
        if (loop->entries[i].handle == handle) loop->entries[i].removed = true;
    if (loop->depth == 0) loop_compact(loop);
}

bool grpc_loop_run_once(grpc_loop_t *loop, int timeout_ms) {
    size_t n = loop->n;
    if (n == 0) return false;
    struct pollfd *pfds = xcalloc(n, sizeof *pfds);
    int *handles = xcalloc(n, sizeof *handles);
    int timeout = timeout_ms;
    bool any_fd = false;
    loop->depth++;
    for (size_t i = 0; i < n; i++) {
        loop_entry_t e = loop->entries[i];
        handles[i] = e.handle;
        pfds[i].fd = -1;
        if (e.removed) continue;
        int fd = -1, t = -1;
        short ev = 0;
        e.src.prepare(e.src.user, &fd, &ev, &t);
        pfds[i].fd = fd;
        pfds[i].events = ev;
        if (fd >= 0) any_fd = true;
        if (t >= 0 && (timeout < 0 || t < timeout)) timeout = t;
    }
    bool ok = true;
    if (!any_fd && timeout < 0) {
        ok = false;
    } else {
        int r = poll(pfds, n, timeout);
        if (r < 0 && errno != EINTR) ok = false;
        if (r < 0)
            for (size_t i = 0; i < n; i++)
                pfds[i].revents = 0;
        if (ok) {
            /* Every source is dispatched each round (not only ready ones) so each can check its
             * deadlines; an entry may have been removed or the array grown by an earlier dispatch. */
            for (size_t i = 0; i < n; i++) {
                size_t k;
                for (k = 0; k < loop->n && loop->entries[k].handle != handles[i]; k++) {
                }
                if (k == loop->n || loop->entries[k].removed) continue;
                grpc_loop_source_t s = loop->entries[k].src;
                s.dispatch(s.user, pfds[i].fd >= 0 ? pfds[i].revents : 0);
            }
        }
    }
    loop->depth--;
    if (loop->depth == 0) loop_compact(loop);
    free(pfds);
    free(handles);
    return ok;
}

/* --- grpc-message percent encoding --------------------------------------------------------------- */

char *grpc_message_encode(const char *msg) {
    buf_t b;
    buf_init(&b);
    for (const unsigned char *p = (const unsigned char *)(msg ? msg : ""); *p; p++) {
        if (*p >= 0x20 && *p <= 0x7e && *p != '%')
            buf_putc(&b, (char)*p);
        else
            buf_printf(&b, "%%%02X", *p);
    }
    buf_putc(&b, 0);
    return buf_take(&b);
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

char *grpc_message_decode(const char *text, size_t len) {
    char *o = xcalloc(len + 1, 1);
    size_t j = 0;
    for (size_t i = 0; i < len; i++) {
        int h, l;
        if (text[i] == '%' && i + 2 < len && (h = hexval(text[i + 1])) >= 0 && (l = hexval(text[i + 2])) >= 0) {
            o[j++] = (char)(h << 4 | l);
            i += 2;
        } else {
            o[j++] = text[i];
        }
    }
    o[j] = 0;
    return o;
}

/* --- client -------------------------------------------------------------------------------------- */

struct grpc_call {
    grpc_conn_t *conn;
    grpc_call_t *prev, *next; /* in conn->calls (running) or conn->completed */
    int32_t stream_id;        /* 0 before submission or after the stream is forgotten */
    int64_t deadline;         /* 0 = none */
    grpc_done_fn done;
    void *user;
    /* request: prefix + message */
    unsigned char *req;
    size_t req_len, req_off;
    /* response */
    buf_t body;
    int http_status;
    bool grpc_content_type;
    bool have_status;
    int status;
    char *message;
    bool completed;
};

struct grpc_conn {
    grpc_loop_t *loop;
    int handle;
    int fd;
    nghttp2_session *session;
    char address[300];
    grpc_call_t *calls;     /* running */
    grpc_call_t *completed; /* finished, callback pending */
    size_t in_flight;       /* running + completed-but-not-yet-called-back */
    bool dead;              /* socket failed or closed */
    bool goaway;
    char *error; /* why the connection is dead (malloc'd) */
    /* Frames nghttp2 produced, written to the socket in one send() per batch: one syscall per frame
     * was half of all CPU at 3,200 calls/s (bench_parallel). */
    buf_t out;
    size_t out_off; /* bytes of `out` already sent */
};

/* Output kept in memory before nghttp2 is told to wait for the socket. */
#define CONN_OUT_MAX (4u << 20)

static void list_remove(grpc_call_t **head, grpc_call_t *c) {
    if (*head == c)
        *head = c->next;
    else if (c->prev)
        c->prev->next = c->next;
    if (c->next) c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

static void list_push(grpc_call_t **head, grpc_call_t *c) {
    c->prev = NULL;
    c->next = *head;
    if (*head) (*head)->prev = c;
    *head = c;
}

/* Marks a running call finished with the given outcome (first outcome wins) and moves it to the
 * completed list; its callback runs from conn_flush_completed. */
static void call_finish(grpc_call_t *call, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void call_finish(grpc_call_t *call, int status, const char *fmt, ...) {
    if (call->completed) return;
    grpc_conn_t *c = call->conn;
    call->completed = true;
    call->status = status;
    if (fmt) {
        free(call->message);
        va_list ap;
        va_start(ap, fmt);
        if (vasprintf(&call->message, fmt, ap) < 0) abort();
        va_end(ap);
    }
    if (call->stream_id > 0 && c->session) nghttp2_session_set_stream_user_data(c->session, call->stream_id, NULL);
    list_remove(&c->calls, call);
    list_push(&c->completed, call);
}

static void call_free(grpc_call_t *call) {
    free(call->req);
    buf_free(&call->body);
    free(call->message);
    free(call);
}

/* Turns the received body into the single response message of a unary call. */
static void call_result(grpc_call_t *call, grpc_result_t *r) {
    r->status = call->status;
    r->message = call->message ? call->message : "";
    r->data = NULL;
    r->len = 0;
    if (call->status != GRPC_OK) return;
    const unsigned char *p = (const unsigned char *)call->body.data;
    size_t n = call->body.len;
    if (n < 5) {
        r->status = GRPC_INTERNAL;
        r->message = n ? "malformed gRPC response: a message is shorter than its 5-byte prefix"
                       : "malformed gRPC response: status OK but no response message";
        return;
    }
    uint32_t len = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 8 | p[4];
    if (p[0] != 0) {
        r->status = GRPC_INTERNAL;
        r->message = "malformed gRPC response: the message is compressed but no compression was negotiated";
        return;
    }
    if ((size_t)len + 5 != n) {
        r->status = GRPC_INTERNAL;
        r->message = (size_t)len + 5 > n ? "malformed gRPC response: the message is shorter than its length prefix"
                                         : "malformed gRPC response: more than one message in a unary response";
        return;
    }
    r->data = p + 5;
    r->len = len;
}

static void conn_flush_completed(grpc_conn_t *c) {
    while (c->completed) {
        grpc_call_t *call = c->completed;
        list_remove(&c->completed, call);
        grpc_result_t r;
        call_result(call, &r);
        c->in_flight--;
        if (call->done) call->done(call->user, &r);
        call_free(call);
    }
}

static void conn_fail_all(grpc_conn_t *c, int status, const char *why) {
    while (c->calls)
        call_finish(c->calls, status, "%s", why);
}

static void conn_set_dead(grpc_conn_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void conn_set_dead(grpc_conn_t *c, const char *fmt, ...) {
    if (!c->dead) {
        c->dead = true;
        va_list ap;
        va_start(ap, fmt);
        char *m;
        if (vasprintf(&m, fmt, ap) < 0) abort();
        va_end(ap);
        free(c->error);
        c->error = m;
    }
    conn_fail_all(c, GRPC_UNAVAILABLE, c->error);
}

/* nghttp2 callbacks */

static ssize_t cb_send(nghttp2_session *s, const uint8_t *data, size_t len, int flags, void *user) {
    (void)s;
    (void)flags;
    grpc_conn_t *c = user;
    if (c->out.len - c->out_off > CONN_OUT_MAX) return NGHTTP2_ERR_WOULDBLOCK;
    buf_append(&c->out, (const char *)data, len);
    return (ssize_t)len;
}

/* Writes buffered frames; what the socket does not take now stays for the next POLLOUT. */
static void conn_flush(grpc_conn_t *c) {
    while (c->out_off < c->out.len) {
        ssize_t n = send(c->fd, c->out.data + c->out_off, c->out.len - c->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            conn_set_dead(c, "connection to %s failed while sending: %s", c->address, strerror(errno));
            return;
        }
        c->out_off += (size_t)n;
    }
    c->out.len = 0;
    c->out_off = 0;
}

static int cb_header(nghttp2_session *s, const nghttp2_frame *frame, const uint8_t *name, size_t namelen,
                     const uint8_t *value, size_t valuelen, uint8_t flags, void *user) {
    (void)flags;
    (void)user;
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    grpc_call_t *call = nghttp2_session_get_stream_user_data(s, frame->hd.stream_id);
    if (!call) return 0;
    if (namelen == 7 && memcmp(name, ":status", 7) == 0) {
        call->http_status = (int)strtol((const char *)value, NULL, 10);
    } else if (namelen == 12 && memcmp(name, "content-type", 12) == 0) {
        /* grpc-js says application/grpc+proto, grpc-go application/grpc: prefix match. */
        call->grpc_content_type = valuelen >= 16 && memcmp(value, "application/grpc", 16) == 0;
    } else if (namelen == 11 && memcmp(name, "grpc-status", 11) == 0) {
        call->have_status = true;
        call->status = (int)strtol((const char *)value, NULL, 10);
    } else if (namelen == 12 && memcmp(name, "grpc-message", 12) == 0) {
        free(call->message);
        call->message = grpc_message_decode((const char *)value, valuelen);
    }
    return 0;
}

static int cb_data_chunk(nghttp2_session *s, uint8_t flags, int32_t stream_id, const uint8_t *data, size_t len,
                         void *user) {
    (void)flags;
    (void)user;
    grpc_call_t *call = nghttp2_session_get_stream_user_data(s, stream_id);
    if (!call) return 0;
    if (call->body.len + len > GRPC_MAX_MESSAGE + 5) {
        nghttp2_submit_rst_stream(s, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_CANCEL);
        call_finish(call, GRPC_RESOURCE_EXHAUSTED, "the response is larger than the %zu MiB message limit",
                    GRPC_MAX_MESSAGE >> 20);
        return 0;
    }
    buf_append(&call->body, (const char *)data, len);
    /* A length prefix that claims more than the limit is cut off as soon as it arrives, not after
     * waiting (forever) for bytes a hostile or broken plugin never sends. */
    if (call->body.len >= 5) {
        const unsigned char *p = (const unsigned char *)call->body.data;
        size_t claimed = (size_t)p[1] << 24 | (size_t)p[2] << 16 | (size_t)p[3] << 8 | p[4];
        if (claimed > GRPC_MAX_MESSAGE) {
            nghttp2_submit_rst_stream(s, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_CANCEL);
            call_finish(call, GRPC_RESOURCE_EXHAUSTED,
                        "the provider announced a %zu-byte response, more than the %zu MiB message limit; the call "
                        "was cut off",
                        claimed, GRPC_MAX_MESSAGE >> 20);
        }
    }
    return 0;
}

/* HTTP status → gRPC status for responses that are not gRPC (the gRPC HTTP/2 mapping). */
static int http_to_grpc(int http) {
    switch (http) {
    case 400: return GRPC_INTERNAL;
    case 401: return GRPC_UNAUTHENTICATED;
    case 403: return GRPC_PERMISSION_DENIED;
    case 404: return GRPC_UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504: return GRPC_UNAVAILABLE;
    default: return GRPC_UNKNOWN;
    }
}

static int cb_stream_close(nghttp2_session *s, int32_t stream_id, uint32_t error_code, void *user) {
    (void)user;
    grpc_call_t *call = nghttp2_session_get_stream_user_data(s, stream_id);
    if (!call) return 0;
    if (call->have_status) {
        call_finish(call, call->status, NULL);
    } else if (error_code == NGHTTP2_REFUSED_STREAM) {
        call_finish(call, GRPC_UNAVAILABLE, "the server refused the stream (it is shutting down or sent GOAWAY)");
    } else if (error_code == NGHTTP2_CANCEL) {
        call_finish(call, GRPC_CANCELLED, "the server cancelled the call");
    } else if (error_code == NGHTTP2_ENHANCE_YOUR_CALM) {
        call_finish(call, GRPC_RESOURCE_EXHAUSTED, "the server reset the stream (ENHANCE_YOUR_CALM)");
    } else if (error_code != NGHTTP2_NO_ERROR) {
        call_finish(call, GRPC_INTERNAL, "the server reset the stream (%s)", nghttp2_http2_strerror(error_code));
    } else if (call->http_status != 200) {
        call_finish(call, http_to_grpc(call->http_status), "the server answered HTTP status %d, not a gRPC response",
                    call->http_status);
    } else if (!call->grpc_content_type) {
        call_finish(call, GRPC_UNKNOWN, "the server's response is not gRPC (content-type is not application/grpc)");
    } else {
        call_finish(call, GRPC_INTERNAL, "the server closed the stream without a grpc-status");
    }
    return 0;
}

static int cb_frame_recv(nghttp2_session *s, const nghttp2_frame *frame, void *user) {
    (void)s;
    grpc_conn_t *c = user;
    if (frame->hd.type == NGHTTP2_GOAWAY) {
        /* Streams above last_stream_id are closed by nghttp2 with REFUSED_STREAM; the rest finish. */
        c->goaway = true;
    }
    return 0;
}

static int cb_error(nghttp2_session *s, int lib_error_code, const char *msg, size_t len, void *user) {
    (void)s;
    (void)lib_error_code;
    grpc_conn_t *c = user;
    free(c->error);
    c->error = NULL;
    if (asprintf(&c->error, "HTTP/2 protocol error from %s: %.*s", c->address, (int)len, msg) < 0) abort();
    return 0;
}

static void conn_io_send(grpc_conn_t *c) {
    if (c->dead) return;
    conn_flush(c);
    if (c->dead) return;
    int rv = nghttp2_session_send(c->session);
    if (rv != 0) {
        conn_set_dead(c, "connection to %s failed while sending: %s", c->address, nghttp2_strerror(rv));
        return;
    }
    conn_flush(c);
}

static void conn_io_recv(grpc_conn_t *c) {
    unsigned char buf[65536];
    for (;;) {
        ssize_t n = recv(c->fd, buf, sizeof buf, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            conn_set_dead(c, "connection to %s failed: %s", c->address, strerror(errno));
            return;
        }
        if (n == 0) {
            if (c->error)
                conn_set_dead(c, "%s", c->error);
            else
                conn_set_dead(c, "the provider at %s closed the connection", c->address);
            return;
        }
        ssize_t r = nghttp2_session_mem_recv(c->session, buf, (size_t)n);
        if (r < 0) {
            conn_set_dead(c, "%s", c->error ? c->error : nghttp2_strerror((int)r));
            return;
        }
    }
}

static void conn_prepare(void *user, int *fd, short *events, int *timeout_ms) {
    grpc_conn_t *c = user;
    if (c->completed) *timeout_ms = 0;
    if (c->dead) return;
    *fd = c->fd;
    *events = POLLIN;
    if (nghttp2_session_want_write(c->session) || c->out_off < c->out.len) *events |= POLLOUT;
    int64_t now = grpc_now_ms();
    for (grpc_call_t *call = c->calls; call; call = call->next) {
        if (!call->deadline) continue;
        int64_t left = call->deadline - now;
        int t = left <= 0 ? 0 : left > 3600000 ? 3600000 : (int)left;
        if (*timeout_ms < 0 || t < *timeout_ms) *timeout_ms = t;
    }
}

static void conn_check_deadlines(grpc_conn_t *c) {
    int64_t now = grpc_now_ms();
    grpc_call_t *next;
    for (grpc_call_t *call = c->calls; call; call = next) {
        next = call->next;
        if (!call->deadline || now < call->deadline) continue;
        if (call->stream_id > 0 && !c->dead)
            nghttp2_submit_rst_stream(c->session, NGHTTP2_FLAG_NONE, call->stream_id, NGHTTP2_CANCEL);
        call_finish(call, GRPC_DEADLINE_EXCEEDED, "the call did not complete within its deadline");
    }
}

static void conn_dispatch(void *user, short revents) {
    grpc_conn_t *c = user;
    if (!c->dead) {
        if (revents & (POLLIN | POLLHUP | POLLERR)) conn_io_recv(c);
        if (!c->dead) conn_check_deadlines(c);
        conn_io_send(c);
        if (!c->dead && !nghttp2_session_want_read(c->session) && !nghttp2_session_want_write(c->session))
            conn_set_dead(c, "%s", c->error ? c->error : "the HTTP/2 session ended");
    }
    conn_flush_completed(c);
}

/* A connect interrupted by a signal goes on in the kernel (a second connect would fail with EALREADY):
 * waits until the socket is writable and takes the outcome from SO_ERROR. */
static bool connect_finish(int fd, int *err) {
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    int n;
    do
        n = poll(&p, 1, -1);
    while (n < 0 && errno == EINTR);
    if (n < 0) {
        *err = errno;
        return false;
    }
    socklen_t len = sizeof *err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, err, &len) != 0) *err = errno;
    return *err == 0;
}

grpc_conn_t *grpc_conn_open(grpc_loop_t *loop, const char *host, int port, diag_list_t *diags) {
    char portstr[16];
    snprintf(portstr, sizeof portstr, "%d", port);
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_family = AF_UNSPEC}, *res = NULL;
    int gai = getaddrinfo(host, portstr, &hints, &res);
    if (gai != 0) {
        diag_error(diags, DIAG_PROVIDER, "cannot resolve provider address '%s': %s", host, gai_strerror(gai));
        return NULL;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
        err = errno;
        if (err == EINTR && connect_finish(fd, &err)) break;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        diag_error(diags, DIAG_PROVIDER,
                   "cannot connect to the provider at %s:%d: %s; check that the plugin is running and listening on "
                   "that port",
                   host, port, strerror(err));
        return NULL;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);

    grpc_conn_t *c = xcalloc(1, sizeof *c);
    c->loop = loop;
    c->fd = fd;
    snprintf(c->address, sizeof c->address, "%s:%d", host, port);

    nghttp2_session_callbacks *cbs;
    nghttp2_session_callbacks_new(&cbs);
    nghttp2_session_callbacks_set_send_callback(cbs, cb_send);
    nghttp2_session_callbacks_set_on_header_callback(cbs, cb_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, cb_data_chunk);
    nghttp2_session_callbacks_set_on_stream_close_callback(cbs, cb_stream_close);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, cb_frame_recv);
    nghttp2_session_callbacks_set_error_callback2(cbs, cb_error);
    nghttp2_session_client_new(&c->session, cbs, c);
    nghttp2_session_callbacks_del(cbs);

    /* Large windows so big responses (GetSchema: tens of MB) stream without waiting on WINDOW_UPDATEs;
     * no server push. */
    nghttp2_settings_entry iv[] = {
        {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 16 * 1024 * 1024},
    };
    nghttp2_submit_settings(c->session, NGHTTP2_FLAG_NONE, iv, sizeof iv / sizeof iv[0]);
    nghttp2_session_set_local_window_size(c->session, NGHTTP2_FLAG_NONE, 0, 256 * 1024 * 1024);
    conn_io_send(c);

    grpc_loop_source_t src = {.prepare = conn_prepare, .dispatch = conn_dispatch, .user = c};
    c->handle = grpc_loop_add(loop, &src);
    return c;
}

void grpc_conn_close(grpc_conn_t *c) {
    if (!c) return;
    for (grpc_call_t *call = c->calls; call; call = call->next)
        if (call->stream_id > 0 && !c->dead)
            nghttp2_submit_rst_stream(c->session, NGHTTP2_FLAG_NONE, call->stream_id, NGHTTP2_CANCEL);
    conn_fail_all(c, GRPC_CANCELLED, "the connection was closed");
    if (!c->dead) {
        nghttp2_session_terminate_session(c->session, NGHTTP2_NO_ERROR);
        /* Best effort: push out the RST_STREAMs and GOAWAY without waiting. */
        nghttp2_session_send(c->session);
        conn_flush(c);
    }
    conn_flush_completed(c);
    grpc_loop_remove(c->loop, c->handle);
    nghttp2_session_del(c->session);
    close(c->fd);
    free(c->error);
    buf_free(&c->out);
    free(c);
}

size_t grpc_conn_in_flight(const grpc_conn_t *c) {
    return c->in_flight;
}

bool grpc_conn_usable(const grpc_conn_t *c) {
    return !c->dead && !c->goaway;
}

const char *grpc_conn_address(const grpc_conn_t *c) {
    return c->address;
}

static ssize_t req_read(nghttp2_session *s, int32_t stream_id, uint8_t *buf, size_t length, uint32_t *data_flags,
                        nghttp2_data_source *source, void *user) {
    (void)s;
    (void)stream_id;
    (void)user;
    grpc_call_t *call = source->ptr;
    size_t n = call->req_len - call->req_off;
    if (n > length) n = length;
    memcpy(buf, call->req + call->req_off, n);
    call->req_off += n;
    if (call->req_off == call->req_len) *data_flags |= NGHTTP2_DATA_FLAG_EOF;
    return (ssize_t)n;
}

#define NV(name, value)                                                                                                \
    { (uint8_t *)(name), (uint8_t *)(value), sizeof(name) - 1, strlen(value), NGHTTP2_NV_FLAG_NONE }

grpc_call_t *grpc_call_start(grpc_conn_t *c, const char *method, const void *msg, size_t len, int timeout_ms,
                             grpc_done_fn done, void *user) {
    grpc_call_t *call = xcalloc(1, sizeof *call);
    call->conn = c;
    call->done = done;
    call->user = user;
    buf_init(&call->body);
    list_push(&c->calls, call);
    c->in_flight++;
    if (timeout_ms > 0) call->deadline = grpc_now_ms() + timeout_ms;
    if (len > GRPC_MAX_MESSAGE) {
        call_finish(call, GRPC_RESOURCE_EXHAUSTED, "the request (%zu bytes) is larger than the %zu MiB message limit",
                    len, GRPC_MAX_MESSAGE >> 20);
        return call;
    }
    if (c->dead || c->goaway) {
        call_finish(call, GRPC_UNAVAILABLE, "%s",
                    c->dead ? c->error : "the provider is shutting down the connection (GOAWAY); reconnect");
        return call;
    }
    call->req_len = len + 5;
    call->req = xcalloc(call->req_len, 1);
    call->req[1] = (unsigned char)(len >> 24);
    call->req[2] = (unsigned char)(len >> 16);
    call->req[3] = (unsigned char)(len >> 8);
    call->req[4] = (unsigned char)len;
    if (len) memcpy(call->req + 5, msg, len);

    char timeout[24] = "";
    /* grpc-timeout allows at most 8 digits. */
    if (timeout_ms > 0) snprintf(timeout, sizeof timeout, "%dm", timeout_ms > 99999999 ? 99999999 : timeout_ms);
    nghttp2_nv hdrs[] = {
        NV(":method", "POST"),
        NV(":scheme", "http"),
        NV(":path", method),
        NV(":authority", c->address),
        NV("content-type", "application/grpc"),
        NV("te", "trailers"),
        NV("user-agent", "cimport-grpc/1"),
        NV("grpc-timeout", timeout),
    };
    size_t nh = sizeof hdrs / sizeof hdrs[0] - (timeout_ms > 0 ? 0 : 1);
    nghttp2_data_provider dp = {.source.ptr = call, .read_callback = req_read};
    int32_t sid = nghttp2_submit_request(c->session, NULL, hdrs, nh, &dp, call);
    if (sid < 0) {
        call_finish(call, GRPC_UNAVAILABLE, "cannot start a call on %s: %s", c->address, nghttp2_strerror(sid));
        return call;
    }
    call->stream_id = sid;
    conn_io_send(c);
    return call;
}

void grpc_call_cancel(grpc_call_t *call) {
    grpc_conn_t *c = call->conn;
    if (!call->completed) {
        if (call->stream_id > 0 && !c->dead) {
            nghttp2_submit_rst_stream(c->session, NGHTTP2_FLAG_NONE, call->stream_id, NGHTTP2_CANCEL);
            conn_io_send(c);
        }
        call_finish(call, GRPC_CANCELLED, "the call was cancelled");
    }
    /* Run just this call's callback now; others completed meanwhile wait for the loop. */
    list_remove(&c->completed, call);
    grpc_result_t r;
    call_result(call, &r);
    c->in_flight--;
    if (call->done) call->done(call->user, &r);
    call_free(call);
}

typedef struct unary_state {
    bool done;
    grpc_response_t *out;
} unary_state_t;

static void unary_done(void *user, const grpc_result_t *r) {
    unary_state_t *st = user;
    st->done = true;
    st->out->status = r->status;
    st->out->message = xstrdup(r->message);
    if (r->status == GRPC_OK) {
        st->out->data = malloc(r->len ? r->len : 1);
        if (!st->out->data) abort();
        if (r->len) memcpy(st->out->data, r->data, r->len);
        st->out->len = r->len;
    }
}

bool grpc_call_unary(grpc_conn_t *c, const char *method, const void *msg, size_t len, int timeout_ms,
                     grpc_response_t *out) {
    return grpc_call_unary_until(c, method, msg, len, timeout_ms, NULL, out);
}

bool grpc_call_unary_until(grpc_conn_t *c, const char *method, const void *msg, size_t len, int timeout_ms,
                           const volatile sig_atomic_t *stop, grpc_response_t *out) {
    memset(out, 0, sizeof *out);
    unary_state_t st = {.out = out};
    grpc_call_start(c, method, msg, len, timeout_ms, unary_done, &st);
    /* A signal that sets *stop interrupts poll(2) (no SA_RESTART); the bound covers one that lands
     * between the check and the poll. */
    while (!st.done && !(stop && *stop))
        if (!grpc_loop_run_once(c->loop, stop ? 200 : -1)) break;
    if (!st.done) { /* stopped, or the loop cannot make progress (poll failed): give up on the call */
        grpc_call_t *call = c->calls;
        while (call && call->user != &st)
            call = call->next;
        if (call) grpc_call_cancel(call);
    }
    return out->status == GRPC_OK;
}

void grpc_response_free(grpc_response_t *r) {
    if (!r) return;
    free(r->message);
    free(r->data);
    memset(r, 0, sizeof *r);
}

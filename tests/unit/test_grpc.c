/* test_grpc.c — the gRPC client (importer/grpc.h) against the project's own HTTP/2 server
 * (importer/h2server.h), both on one event loop in this process: concurrent streams, errors in
 * trailers-only responses, deadlines, cancellation, large messages, GOAWAY, malformed framing and a
 * peer that does not speak HTTP/2 at all. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "engine.pb-c.h"
#include "importer/engine_endpoint.h"
#include "importer/grpc.h"
#include "importer/h2server.h"
#include "importer/pbvalue.h"
#include "testutil.h"

/* The test server: /test.Echo/Echo echoes, /test.Echo/Fail answers NOT_FOUND, /test.Echo/Hold keeps
 * the call for the test to answer later, /test.Echo/Raw* send malformed bodies; anything else is
 * UNIMPLEMENTED. */
typedef struct server_state {
    h2server_call_t *held[8];
    size_t n_held;
    size_t handled;
    h2server_t *srv; /* for /test.Echo/EchoFlush */
} server_state_t;

static void handler(void *user, h2server_call_t *call, const char *path, const unsigned char *msg, size_t len) {
    server_state_t *st = user;
    st->handled++;
    if (strcmp(path, "/test.Echo/Echo") == 0) {
        h2server_reply(call, GRPC_OK, NULL, msg, len);
    } else if (strcmp(path, "/test.Echo/EchoFlush") == 0) {
        h2server_reply(call, GRPC_OK, NULL, msg, len);
        h2server_flush(st->srv); /* from inside the session's read: must keep the reply for its end */
    } else if (strcmp(path, "/test.Echo/Fail") == 0) {
        h2server_reply(call, GRPC_NOT_FOUND, "no such thing: 100% gone\nfor good \xe2\x9c\x93", NULL, 0);
    } else if (strcmp(path, "/test.Echo/Hold") == 0) {
        ck_assert_uint_lt(st->n_held, 8);
        st->held[st->n_held++] = call;
    } else if (strcmp(path, "/test.Echo/RawShort") == 0) {
        static const unsigned char body[] = {0, 0, 0, 0, 10, 'a', 'b'};
        h2server_reply_raw(call, body, sizeof body);
    } else if (strcmp(path, "/test.Echo/RawCompressed") == 0) {
        static const unsigned char body[] = {1, 0, 0, 0, 2, 'a', 'b'};
        h2server_reply_raw(call, body, sizeof body);
    } else if (strcmp(path, "/test.Echo/RawTwo") == 0) {
        static const unsigned char body[] = {0, 0, 0, 0, 1, 'a', 0, 0, 0, 0, 1, 'b'};
        h2server_reply_raw(call, body, sizeof body);
    } else if (strcmp(path, "/test.Echo/Empty") == 0) {
        h2server_reply_raw(call, "", 0);
    } else {
        h2server_reply(call, GRPC_UNIMPLEMENTED, "unknown method", NULL, 0);
    }
}

typedef struct fixture {
    grpc_loop_t *loop;
    h2server_t *srv;
    grpc_conn_t *conn;
    server_state_t st;
    diag_list_t diags;
} fixture_t;

static void fx_open(fixture_t *f) {
    memset(f, 0, sizeof *f);
    diag_list_init(&f->diags);
    f->loop = grpc_loop_new();
    f->srv = h2server_start(f->loop, 0, handler, &f->st, &f->diags);
    ck_assert_ptr_nonnull(f->srv);
    ck_assert_int_gt(h2server_port(f->srv), 0);
    f->st.srv = f->srv;
    f->conn = grpc_conn_open(f->loop, "127.0.0.1", h2server_port(f->srv), &f->diags);
    ck_assert_ptr_nonnull(f->conn);
}

static void fx_close(fixture_t *f) {
    if (f->conn) grpc_conn_close(f->conn);
    if (f->srv) h2server_free(f->srv);
    grpc_loop_free(f->loop);
    diag_list_free(&f->diags);
}

typedef struct result_slot {
    bool done;
    int status;
    char *message;
    unsigned char *data;
    size_t len;
} result_slot_t;

static void slot_done(void *user, const grpc_result_t *r) {
    result_slot_t *s = user;
    ck_assert(!s->done); /* exactly once */
    s->done = true;
    s->status = r->status;
    s->message = strdup(r->message);
    s->len = r->len;
    s->data = malloc(r->len + 1);
    if (r->len) memcpy(s->data, r->data, r->len);
}

static void slot_free(result_slot_t *s) {
    free(s->message);
    free(s->data);
}

static void run_until_idle(fixture_t *f) {
    int64_t end = grpc_now_ms() + 20000;
    while (grpc_conn_in_flight(f->conn) > 0 && grpc_now_ms() < end)
        grpc_loop_run_once(f->loop, 100);
    ck_assert_uint_eq(grpc_conn_in_flight(f->conn), 0);
}

START_TEST(test_concurrent_streams) {
    fixture_t f;
    fx_open(&f);
    enum { N = 200 };
    result_slot_t slots[N] = {0};
    char msgs[N][32];
    for (int i = 0; i < N; i++) {
        snprintf(msgs[i], sizeof msgs[i], "message %d", i);
        grpc_call_start(f.conn, "/test.Echo/Echo", msgs[i], strlen(msgs[i]), 5000, slot_done, &slots[i]);
    }
    ck_assert_uint_eq(grpc_conn_in_flight(f.conn), N);
    run_until_idle(&f);
    for (int i = 0; i < N; i++) {
        ck_assert(slots[i].done);
        ck_assert_int_eq(slots[i].status, GRPC_OK);
        ck_assert_uint_eq(slots[i].len, strlen(msgs[i]));
        ck_assert(memcmp(slots[i].data, msgs[i], slots[i].len) == 0);
        slot_free(&slots[i]);
    }
    ck_assert_uint_eq(f.st.handled, N);
    ck_assert(grpc_conn_usable(f.conn));
    /* An empty request message is a valid call too. */
    grpc_response_t r;
    ck_assert(grpc_call_unary(f.conn, "/test.Echo/Echo", NULL, 0, 1000, &r));
    ck_assert_uint_eq(r.len, 0);
    grpc_response_free(&r);
    fx_close(&f);
}
END_TEST

START_TEST(test_trailers_only_errors) {
    fixture_t f;
    fx_open(&f);
    grpc_response_t r;
    ck_assert(!grpc_call_unary(f.conn, "/test.Echo/Fail", "x", 1, 1000, &r));
    ck_assert_int_eq(r.status, GRPC_NOT_FOUND);
    ck_assert_str_eq(r.message, "no such thing: 100% gone\nfor good \xe2\x9c\x93");
    ck_assert_ptr_null(r.data);
    grpc_response_free(&r);
    ck_assert(!grpc_call_unary(f.conn, "/test.Other/Method", "x", 1, 1000, &r));
    ck_assert_int_eq(r.status, GRPC_UNIMPLEMENTED);
    ck_assert_str_eq(r.message, "unknown method");
    grpc_response_free(&r);
    ck_assert_str_eq(grpc_status_name(GRPC_UNIMPLEMENTED), "UNIMPLEMENTED");
    ck_assert_str_eq(grpc_status_name(99), "UNKNOWN_STATUS");
    /* The connection keeps working after errors. */
    ck_assert(grpc_call_unary(f.conn, "/test.Echo/Echo", "ok", 2, 1000, &r));
    grpc_response_free(&r);
    fx_close(&f);
}
END_TEST

START_TEST(test_message_percent_encoding) {
    char *e = grpc_message_encode("a%b\nc\xc3\xa9");
    ck_assert_str_eq(e, "a%25b%0Ac%C3%A9");
    char *d = grpc_message_decode(e, strlen(e));
    ck_assert_str_eq(d, "a%b\nc\xc3\xa9");
    free(e);
    free(d);
    /* Malformed escapes are kept as they are. */
    d = grpc_message_decode("50%zz%4", 7);
    ck_assert_str_eq(d, "50%zz%4");
    free(d);
}
END_TEST

START_TEST(test_deadline_and_cancel) {
    fixture_t f;
    fx_open(&f);
    result_slot_t held = {0}, cancelled = {0};
    int64_t t0 = grpc_now_ms();
    grpc_call_start(f.conn, "/test.Echo/Hold", "a", 1, 150, slot_done, &held);
    grpc_call_t *c2 = grpc_call_start(f.conn, "/test.Echo/Hold", "b", 1, 0, slot_done, &cancelled);
    while (f.st.n_held < 2)
        grpc_loop_run_once(f.loop, 100);
    while (!held.done)
        grpc_loop_run_once(f.loop, 100);
    int64_t took = grpc_now_ms() - t0;
    ck_assert_int_eq(held.status, GRPC_DEADLINE_EXCEEDED);
    ck_assert_str_eq(held.message, "the call did not complete within its deadline");
    ck_assert_int_ge(took, 140);
    ck_assert_int_lt(took, 2000);
    ck_assert(!cancelled.done);
    grpc_call_cancel(c2);
    ck_assert(cancelled.done); /* synchronously */
    ck_assert_int_eq(cancelled.status, GRPC_CANCELLED);
    ck_assert_uint_eq(grpc_conn_in_flight(f.conn), 0);
    /* The server sees both streams reset; late replies to them are dropped safely. */
    for (int i = 0; i < 50 && !(h2server_call_cancelled(f.st.held[0]) && h2server_call_cancelled(f.st.held[1])); i++)
        grpc_loop_run_once(f.loop, 20);
    ck_assert(h2server_call_cancelled(f.st.held[0]));
    ck_assert(h2server_call_cancelled(f.st.held[1]));
    ck_assert_uint_eq(h2server_pending(f.srv), 2);
    h2server_reply(f.st.held[0], GRPC_OK, NULL, "late", 4);
    h2server_reply(f.st.held[1], GRPC_OK, NULL, "late", 4);
    ck_assert_uint_eq(h2server_pending(f.srv), 0);
    grpc_response_t r;
    ck_assert(grpc_call_unary(f.conn, "/test.Echo/Echo", "still", 5, 1000, &r));
    ck_assert_uint_eq(r.len, 5);
    grpc_response_free(&r);
    slot_free(&held);
    slot_free(&cancelled);
    fx_close(&f);
}
END_TEST

START_TEST(test_large_messages) {
    fixture_t f;
    fx_open(&f);
    size_t n = 24u * 1024 * 1024 + 7;
    unsigned char *big = malloc(n);
    for (size_t i = 0; i < n; i++)
        big[i] = (unsigned char)(i * 2654435761u >> 13);
    grpc_response_t r;
    ck_assert(grpc_call_unary(f.conn, "/test.Echo/Echo", big, n, 60000, &r));
    ck_assert_uint_eq(r.len, n);
    ck_assert(memcmp(r.data, big, n) == 0);
    grpc_response_free(&r);
    /* Over the limit: refused locally without sending anything. */
    ck_assert(!grpc_call_unary(f.conn, "/test.Echo/Echo", big, GRPC_MAX_MESSAGE + 1, 1000, &r));
    ck_assert_int_eq(r.status, GRPC_RESOURCE_EXHAUSTED);
    ck_assert_str_eq(r.message, "the request (419430401 bytes) is larger than the 400 MiB message limit");
    grpc_response_free(&r);
    free(big);
    fx_close(&f);
}
END_TEST

START_TEST(test_malformed_responses) {
    fixture_t f;
    fx_open(&f);
    static const struct {
        const char *method, *message;
    } cases[] = {
        {"/test.Echo/RawShort", "malformed gRPC response: the message is shorter than its length prefix"},
        {"/test.Echo/RawCompressed",
         "malformed gRPC response: the message is compressed but no compression was negotiated"},
        {"/test.Echo/RawTwo", "malformed gRPC response: more than one message in a unary response"},
        {"/test.Echo/Empty", "malformed gRPC response: status OK but no response message"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        grpc_response_t r;
        ck_assert(!grpc_call_unary(f.conn, cases[i].method, "x", 1, 1000, &r));
        ck_assert_int_eq(r.status, GRPC_INTERNAL);
        ck_assert_str_eq(r.message, cases[i].message);
        grpc_response_free(&r);
    }
    fx_close(&f);
}
END_TEST

START_TEST(test_goaway) {
    fixture_t f;
    fx_open(&f);
    result_slot_t held = {0};
    grpc_call_start(f.conn, "/test.Echo/Hold", "a", 1, 5000, slot_done, &held);
    while (f.st.n_held < 1)
        grpc_loop_run_once(f.loop, 100);
    h2server_goaway(f.srv);
    for (int i = 0; i < 20 && grpc_conn_usable(f.conn); i++)
        grpc_loop_run_once(f.loop, 20);
    ck_assert(!grpc_conn_usable(f.conn));
    /* New calls fail at once; the call the server already took still completes. */
    grpc_response_t r;
    ck_assert(!grpc_call_unary(f.conn, "/test.Echo/Echo", "b", 1, 1000, &r));
    ck_assert_int_eq(r.status, GRPC_UNAVAILABLE);
    ck_assert_str_eq(r.message, "the provider is shutting down the connection (GOAWAY); reconnect");
    grpc_response_free(&r);
    h2server_reply(f.st.held[0], GRPC_OK, NULL, "done", 4);
    run_until_idle(&f);
    ck_assert_int_eq(held.status, GRPC_OK);
    ck_assert_uint_eq(held.len, 4);
    slot_free(&held);
    fx_close(&f);
}
END_TEST

START_TEST(test_server_goes_away_mid_call) {
    fixture_t f;
    fx_open(&f);
    result_slot_t held = {0};
    grpc_call_start(f.conn, "/test.Echo/Hold", "a", 1, 5000, slot_done, &held);
    while (f.st.n_held < 1)
        grpc_loop_run_once(f.loop, 100);
    char *port = strdup(h2server_address(f.srv));
    h2server_free(f.srv);
    f.srv = NULL;
    run_until_idle(&f);
    ck_assert_int_eq(held.status, GRPC_UNAVAILABLE);
    char want[128];
    snprintf(want, sizeof want, "the provider at %s closed the connection", port);
    ck_assert_str_eq(held.message, want);
    ck_assert(!grpc_conn_usable(f.conn));
    slot_free(&held);
    free(port);
    fx_close(&f);
}
END_TEST

/* A peer that answers like an HTTP/1.1 server, then closes: not HTTP/2 at all. */
static void *garbage_server(void *arg) {
    int lfd = *(int *)arg;
    int fd = accept(lfd, NULL, NULL);
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    (void)n;
    const char *resp = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
    ssize_t w = send(fd, resp, strlen(resp), MSG_NOSIGNAL);
    (void)w;
    usleep(200 * 1000);
    close(fd);
    return NULL;
}

START_TEST(test_peer_not_http2) {
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t sl = sizeof sa;
    ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sa, sizeof sa), 0);
    ck_assert_int_eq(listen(lfd, 1), 0);
    getsockname(lfd, (struct sockaddr *)&sa, &sl);
    pthread_t th;
    pthread_create(&th, NULL, garbage_server, &lfd);
    grpc_loop_t *loop = grpc_loop_new();
    diag_list_t d;
    diag_list_init(&d);
    grpc_conn_t *c = grpc_conn_open(loop, "127.0.0.1", ntohs(sa.sin_port), &d);
    ck_assert_ptr_nonnull(c);
    grpc_response_t r;
    ck_assert(!grpc_call_unary(c, "/test.Echo/Echo", "x", 1, 5000, &r));
    ck_assert_int_eq(r.status, GRPC_UNAVAILABLE);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "HTTP/2 protocol error from 127.0.0.1:%d: ", ntohs(sa.sin_port));
    ck_assert_msg(strncmp(r.message, prefix, strlen(prefix)) == 0, "message: %s", r.message);
    grpc_response_free(&r);
    ck_assert(!grpc_conn_usable(c));
    grpc_conn_close(c);
    grpc_loop_free(loop);
    pthread_join(th, NULL);
    close(lfd);
    diag_list_free(&d);
}
END_TEST

START_TEST(test_connection_refused) {
    /* Find a port nobody listens on: bind, learn the port, close. */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t sl = sizeof sa;
    bind(fd, (struct sockaddr *)&sa, sizeof sa);
    getsockname(fd, (struct sockaddr *)&sa, &sl);
    int port = ntohs(sa.sin_port);
    close(fd);
    grpc_loop_t *loop = grpc_loop_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(grpc_conn_open(loop, "127.0.0.1", port, &d));
    ck_assert_int_eq(d.errors, 1);
    char want[200];
    snprintf(want, sizeof want,
             "cannot connect to the provider at 127.0.0.1:%d: Connection refused; check that the plugin is running "
             "and listening on that port",
             port);
    ck_assert_str_eq(d.head->message, want);
    grpc_loop_free(loop);
    diag_list_free(&d);
}
END_TEST

/* A completion callback may start the next call (the engine chains Read → Check → Diff this way). */
typedef struct chain {
    grpc_conn_t *conn;
    int remaining;
    int ok;
} chain_t;

/* A connect interrupted by a signal (EINTR) goes on in the kernel: cimport must wait for it, not call
 * the provider unreachable. The fuzzer met this when libFuzzer's timer signal landed in connect; in
 * cimport a plugin exiting (SIGCHLD) or a progress timer can do the same. Here the listener's
 * backlog is full, so connect blocks; a timer signal without SA_RESTART interrupts it; a thread
 * accepts later and the connection completes. */
static void on_alarm(int sig) {
    (void)sig;
}

typedef struct {
    int listener;
    int accepted[4];
} late_accept_t;

static void *accept_late(void *arg) {
    late_accept_t *la = arg;
    usleep(400 * 1000);
    for (int i = 0; i < 2; i++)
        la->accepted[i] = accept(la->listener, NULL, NULL);
    return NULL;
}

START_TEST(test_connect_interrupted_by_signal) {
    int l = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof sa;
    ck_assert_int_eq(bind(l, (struct sockaddr *)&sa, sizeof sa), 0);
    ck_assert_int_eq(listen(l, 0), 0);
    ck_assert_int_eq(getsockname(l, (struct sockaddr *)&sa, &sl), 0);
    /* One connection fills the backlog of 0 (+1), so the next connect blocks until it is accepted. */
    int filler = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_eq(connect(filler, (struct sockaddr *)&sa, sizeof sa), 0);
    struct sigaction act = {.sa_handler = on_alarm}, old;
    sigemptyset(&act.sa_mask); /* no SA_RESTART: the blocked connect returns EINTR */
    ck_assert_int_eq(sigaction(SIGALRM, &act, &old), 0);
    struct itimerval it = {.it_value = {0, 100 * 1000}};
    late_accept_t la = {.listener = l};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, accept_late, &la), 0);
    ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
    grpc_loop_t *loop = grpc_loop_new();
    diag_list_t d;
    diag_list_init(&d);
    grpc_conn_t *c = grpc_conn_open(loop, "127.0.0.1", ntohs(sa.sin_port), &d);
    ck_assert_msg(c != NULL, "a connect interrupted by a signal was given up: %s",
                  d.head ? diag_format(&d, d.head) : "?");
    pthread_join(th, NULL);
    sigaction(SIGALRM, &old, NULL);
    grpc_conn_close(c);
    grpc_loop_free(loop);
    diag_list_free(&d);
    for (int i = 0; i < 2; i++)
        if (la.accepted[i] >= 0) close(la.accepted[i]);
    close(filler);
    close(l);
}
END_TEST

static void chain_done(void *user, const grpc_result_t *r) {
    chain_t *ch = user;
    if (r->status == GRPC_OK) ch->ok++;
    if (--ch->remaining > 0) grpc_call_start(ch->conn, "/test.Echo/Echo", "n", 1, 1000, chain_done, ch);
}

START_TEST(test_chained_calls) {
    fixture_t f;
    fx_open(&f);
    chain_t chains[16];
    for (int i = 0; i < 16; i++) {
        chains[i] = (chain_t){.conn = f.conn, .remaining = 30};
        grpc_call_start(f.conn, "/test.Echo/Echo", "n", 1, 1000, chain_done, &chains[i]);
    }
    run_until_idle(&f);
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(chains[i].ok, 30);
    fx_close(&f);
}
END_TEST

/* A reply made outside the handler (as a server answering from a timer does) and flushed is on the
 * wire before the loop turns again: one round completes the call. The client's source comes before
 * the server's session in the loop, and poll waits for the client's socket to become readable — without
 * the flush the session still wants to write, poll returns at once and the reply is sent after the
 * client has looked. Flushing from inside the handler is safe: those replies go out after the read. */
START_TEST(test_flush_sends_replies_at_once) {
    fixture_t f;
    fx_open(&f);
    result_slot_t held = {0};
    grpc_call_start(f.conn, "/test.Echo/Hold", "h", 1, 5000, slot_done, &held);
    while (f.st.n_held < 1)
        grpc_loop_run_once(f.loop, 100);
    for (int i = 0; i < 3; i++) /* let the session send what it has (SETTINGS acks) */
        grpc_loop_run_once(f.loop, 0);
    ck_assert(!held.done);
    h2server_reply(f.st.held[0], GRPC_OK, NULL, "now", 3);
    h2server_flush(f.srv);
    grpc_loop_run_once(f.loop, 1000);
    ck_assert(held.done);
    ck_assert_int_eq(held.status, GRPC_OK);
    ck_assert_uint_eq(held.len, 3);
    ck_assert(memcmp(held.data, "now", 3) == 0);
    slot_free(&held);
    enum { N = 40 };
    result_slot_t slots[N] = {0};
    for (int i = 0; i < N; i++)
        grpc_call_start(f.conn, "/test.Echo/EchoFlush", &i, sizeof i, 5000, slot_done, &slots[i]);
    run_until_idle(&f);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(slots[i].status, GRPC_OK);
        ck_assert_uint_eq(slots[i].len, sizeof i);
        ck_assert(memcmp(slots[i].data, &i, sizeof i) == 0);
        slot_free(&slots[i]);
    }
    fx_close(&f);
}
END_TEST

/* The after-request hook runs once per request, between the requests of a read, outside nghttp2:
 * replies made and flushed there reach the client. Reads that end inside a frame (a 1 MiB request)
 * are parsed as before. */
typedef struct after_log {
    fixture_t *f;
    size_t seen[16]; /* requests handed to the handler when the hook ran */
    size_t n, replied;
} after_log_t;

static void after_request_hook(void *user) {
    after_log_t *l = user;
    ck_assert_uint_lt(l->n, 16);
    l->seen[l->n++] = l->f->st.handled;
    while (l->replied < l->f->st.n_held)
        h2server_reply(l->f->st.held[l->replied++], GRPC_OK, NULL, "a", 1);
    h2server_flush(l->f->srv);
}

START_TEST(test_after_request_hook) {
    fixture_t f;
    fx_open(&f);
    after_log_t l = {.f = &f};
    h2server_set_after_request(f.srv, after_request_hook, &l);
    enum { N = 5 };
    result_slot_t slots[N] = {0};
    for (int i = 0; i < N; i++)
        grpc_call_start(f.conn, "/test.Echo/Hold", "h", 1, 5000, slot_done, &slots[i]);
    int64_t end = grpc_now_ms() + 3000;
    while (grpc_conn_in_flight(f.conn) > 0 && grpc_now_ms() < end)
        grpc_loop_run_once(f.loop, 100);
    ck_assert_uint_eq(l.n, N);
    for (size_t i = 0; i < N; i++)
        ck_assert_uint_eq(l.seen[i], i + 1);
    for (int i = 0; i < N; i++) {
        ck_assert(slots[i].done);
        ck_assert_int_eq(slots[i].status, GRPC_OK);
        ck_assert_uint_eq(slots[i].len, 1);
        ck_assert_int_eq(slots[i].data[0], 'a');
        slot_free(&slots[i]);
    }
    size_t n = (1u << 20) + 3;
    unsigned char *big = malloc(n);
    for (size_t i = 0; i < n; i++)
        big[i] = (unsigned char)(i * 2654435761u >> 11);
    grpc_response_t r;
    ck_assert(grpc_call_unary(f.conn, "/test.Echo/Echo", big, n, 5000, &r));
    ck_assert_uint_eq(r.len, n);
    ck_assert(memcmp(r.data, big, n) == 0);
    ck_assert_uint_eq(l.n, N + 1);
    grpc_response_free(&r);
    free(big);
    fx_close(&f);
}
END_TEST

typedef struct logs {
    diag_list_t kept;
    int statuses;
    char urn[256];
} logs_t;

static void on_log(void *user, const char *urn, const diag_t *d, bool status) {
    logs_t *l = user;
    snprintf(l->urn, sizeof l->urn, "%s", urn);
    if (status) l->statuses++;
    engine_log_to_list(&l->kept, urn, d, status);
}

/* The engine endpoint: Log/LogStatus become diagnostics for the resource their URN names; anything
 * else (the Go health check included) is UNIMPLEMENTED. */
START_TEST(test_engine_endpoint) {
    grpc_loop_t *loop = grpc_loop_new();
    diag_list_t d;
    diag_list_init(&d);
    logs_t logs = {0};
    diag_list_init(&logs.kept);
    engine_endpoint_t *ep = engine_endpoint_start(loop, 0, on_log, &logs, &d);
    ck_assert_ptr_nonnull(ep);
    ck_assert_int_eq(strncmp(engine_endpoint_address(ep), "127.0.0.1:", 10), 0);
    int port = atoi(engine_endpoint_address(ep) + 10);
    grpc_conn_t *c = grpc_conn_open(loop, "127.0.0.1", port, &d);
    ck_assert_ptr_nonnull(c);

    Pulumirpc__LogRequest req = PULUMIRPC__LOG_REQUEST__INIT;
    req.severity = PULUMIRPC__LOG_SEVERITY__WARNING;
    req.message = "bucket is public";
    req.urn = "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::logs";
    size_t len;
    unsigned char *bytes = pbvalue_pack(&req.base, &len);
    grpc_response_t r;
    ck_assert(grpc_call_unary(c, "/pulumirpc.Engine/Log", bytes, len, 1000, &r));
    ck_assert_uint_eq(r.len, 0); /* google.protobuf.Empty */
    grpc_response_free(&r);
    free(bytes);
    ck_assert_uint_eq(logs.kept.count, 1);
    ck_assert_int_eq(logs.kept.head->severity, DIAG_WARNING);
    ck_assert_int_eq(logs.kept.head->code, DIAG_PROVIDER_LOG);
    ck_assert_str_eq(logs.kept.head->message, "bucket is public");
    ck_assert_str_eq(logs.kept.head->resource, "resource 'logs' of type 'aws:s3/bucket:Bucket'");
    ck_assert_str_eq(logs.urn, "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::logs");

    /* LogStatus reaches the callback flagged as status (and the list helper does not keep it); a
     * global ERROR message has no resource. */
    req.severity = PULUMIRPC__LOG_SEVERITY__ERROR;
    req.urn = "";
    req.message = "fatal: credentials expired";
    bytes = pbvalue_pack(&req.base, &len);
    ck_assert(grpc_call_unary(c, "/pulumirpc.Engine/LogStatus", bytes, len, 1000, &r));
    grpc_response_free(&r);
    ck_assert_int_eq(logs.statuses, 1);
    ck_assert_uint_eq(logs.kept.count, 1);
    ck_assert(grpc_call_unary(c, "/pulumirpc.Engine/Log", bytes, len, 1000, &r));
    grpc_response_free(&r);
    free(bytes);
    ck_assert_uint_eq(logs.kept.count, 2);
    ck_assert_int_eq(logs.kept.tail->severity, DIAG_ERROR);
    ck_assert_ptr_null(logs.kept.tail->resource);

    ck_assert(!grpc_call_unary(c, "/grpc.health.v1.Health/Check", NULL, 0, 1000, &r));
    ck_assert_int_eq(r.status, GRPC_UNIMPLEMENTED);
    ck_assert_str_eq(r.message, "cimport's engine endpoint does not implement this method");
    grpc_response_free(&r);
    ck_assert(!grpc_call_unary(c, "/pulumirpc.Engine/Log", "\xff\xff", 2, 1000, &r));
    ck_assert_int_eq(r.status, GRPC_INVALID_ARGUMENT);
    grpc_response_free(&r);

    grpc_conn_close(c);
    engine_endpoint_free(ep);
    grpc_loop_free(loop);
    diag_list_free(&logs.kept);
    diag_list_free(&d);
}
END_TEST

int main(void) {
    Suite *s = suite_create("grpc");
    TCase *tc = tcase_create("grpc");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_concurrent_streams);
    tcase_add_test(tc, test_trailers_only_errors);
    tcase_add_test(tc, test_message_percent_encoding);
    tcase_add_test(tc, test_deadline_and_cancel);
    tcase_add_test(tc, test_large_messages);
    tcase_add_test(tc, test_malformed_responses);
    tcase_add_test(tc, test_goaway);
    tcase_add_test(tc, test_server_goes_away_mid_call);
    tcase_add_test(tc, test_peer_not_http2);
    tcase_add_test(tc, test_connection_refused);
    tcase_add_test(tc, test_connect_interrupted_by_signal);
    tcase_add_test(tc, test_chained_calls);
    tcase_add_test(tc, test_flush_sends_replies_at_once);
    tcase_add_test(tc, test_after_request_hook);
    tcase_add_test(tc, test_engine_endpoint);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

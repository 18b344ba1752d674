/* fuzz_h2.c — libFuzzer target: HTTP/2 frames from a provider. The input is what a plugin's side of
 * the connection sends (server preface SETTINGS, HEADERS, DATA with the gRPC length prefix, trailers,
 * RST_STREAM, GOAWAY, ...) to cimport's gRPC client (importer/grpc.c) while one unary call runs.
 * A real loopback TCP connection carries the bytes; the peer then closes its side, so every input
 * ends (the call completes with whatever status the bytes lead to). */
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "importer/grpc.h"

static int listener = -1, port;

static void setup(void) {
    signal(SIGPIPE, SIG_IGN); /* the client may write to the reset connection */
    listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof sa;
    if (listener < 0 || bind(listener, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(listener, 16) != 0 ||
        getsockname(listener, (struct sockaddr *)&sa, &sl) != 0)
        abort();
    port = ntohs(sa.sin_port);
}

typedef struct {
    bool done;
} state_t;

static void on_done(void *user, const grpc_result_t *r) {
    (void)r;
    ((state_t *)user)->done = true;
}

/* The lowest free descriptor: the same before and after every input, or the client leaked one. */
static int lowest_free_fd(void) {
    int fd = dup(0);
    if (fd >= 0) close(fd);
    return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (listener < 0) setup();
    int fd_before = lowest_free_fd();
    grpc_loop_t *loop = grpc_loop_new();
    diag_list_t diags;
    diag_list_init(&diags);
    grpc_conn_t *c = grpc_conn_open(loop, "127.0.0.1", port, &diags);
    if (!c) {
        fprintf(stderr, "fuzz_h2: cannot connect: %s\n", diags.head ? diag_format(&diags, diags.head) : "?");
        abort();
    }
    diag_list_free(&diags);
    int peer = accept(listener, NULL, NULL);
    if (peer < 0) {
        perror("fuzz_h2: accept");
        abort();
    }
    state_t st = {0};
    static const unsigned char req[] = {0x0a, 0x03, 'f', 'o', 'o'};
    grpc_call_start(c, "/pulumirpc.ResourceProvider/Read", req, sizeof req, 2000, on_done, &st);
    size_t off = 0;
    for (int rounds = 0; !st.done && rounds < 10000; rounds++) {
        if (off < size) {
            ssize_t w = send(peer, data + off, size - off, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (w > 0) off += (size_t)w;
        } else if (off == size) {
            shutdown(peer, SHUT_WR);
            off++;
        }
        /* Drain what the client sends so it never blocks on a full socket. */
        char sink[65536];
        while (recv(peer, sink, sizeof sink, MSG_DONTWAIT) > 0) {
        }
        grpc_loop_run_once(loop, 10);
    }
    /* The peer closes first with a reset, so neither side keeps the connection in TIME_WAIT: tens of
     * thousands of inputs a run would otherwise use up the loopback's ephemeral ports. */
    struct linger reset = {.l_onoff = 1, .l_linger = 0};
    setsockopt(peer, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    close(peer);
    grpc_conn_close(c);
    grpc_loop_free(loop);
    int fd_after = lowest_free_fd();
    if (fd_after != fd_before) {
        fprintf(stderr, "fuzz_h2: descriptor leak: lowest free fd %d before the input, %d after\n", fd_before,
                fd_after);
        abort();
    }
    return 0;
}

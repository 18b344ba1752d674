/* latency_server.c — the fake latency-injecting provider (see latency_server.h).
 *
 * Replies wait in a FIFO: calls get the same latency, so due times only grow and the head is always
 * the next one due (after latency_server_set_latency lowers it, a reply may wait for an older one:
 * never by more than the old latency). Due times are kept in microseconds and a timerfd set to the
 * head's due time wakes the loop: a millisecond clock and poll(2)'s millisecond timeout would hold a
 * "1 ms" reply anywhere from a fraction of a millisecond to two, and the bench would measure the fake
 * provider's rounding instead of the engine. How long replies were really held is kept
 * (latency_server_mean_hold_us) so a bench can show the provider kept its promise.
 *
 * "Answers in 1 ms" is kept to the microsecond, not to the timer's: the timerfd wakes the loop
 * LATENCY_SERVER_EARLY_US before the head is due and the loop polls without sleeping for the rest
 * (still reading requests), because a timer's wake-up lands 20–50 µs late on this VM; the due
 * replies are then flushed at once (h2server_flush) instead of after the requests that came in
 * meanwhile. How late replies left the socket past their due time is kept too
 * (latency_server_mean_late_us). */
#include "bench/latency_server.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "importer/h2server.h"
#include "importer/pbvalue.h"
#include "provider.pb-c.h"

#define LS_RP "/pulumirpc.ResourceProvider/"
#define LATENCY_SERVER_EARLY_US 50

static const char LATENCY_SCHEMA[] =
    "{\"name\":\"bench\",\"version\":\"1.0.0\",\"resources\":{\"bench:index:Thing\":{"
    "\"inputProperties\":{\"name\":{\"type\":\"string\"},\"size\":{\"type\":\"number\"},"
    "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}},"
    "\"requiredInputs\":[\"name\"],"
    "\"properties\":{\"name\":{\"type\":\"string\"},\"size\":{\"type\":\"number\"},"
    "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},\"arn\":{\"type\":\"string\"}}}}}";

typedef struct held_reply {
    h2server_call_t *call;
    int status;
    unsigned char *bytes; /* malloc'd packed response; NULL for an error status */
    size_t len;
    int64_t arrived_us, due_us;
    struct held_reply *next;
} held_reply_t;

struct latency_server {
    grpc_loop_t *loop;
    h2server_t *srv;
    int timer;     /* the loop source */
    int timerfd;   /* armed for the head's due time */
    int64_t armed; /* the wake-up time timerfd is set to (0: disarmed) */
    int latency_ms;
    int64_t held_us_total; /* over the replies sent */
    int64_t held_us_min;   /* the shortest hold (-1 before the first reply) */
    int64_t late_us_total; /* due time → the send carrying the reply returned, over the replies sent */
    int64_t request_us;    /* when the handler got the request being handled: the hold starts there */
    size_t replies;
    held_reply_t *head, *tail;
    size_t pending, peak_pending, calls;
};

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void hold(latency_server_t *s, h2server_call_t *call, int status, const ProtobufCMessage *m) {
    held_reply_t *h = calloc(1, sizeof *h);
    if (!h) abort();
    h->call = call;
    h->status = status;
    if (m) h->bytes = pbvalue_pack(m, &h->len);
    h->arrived_us = s->request_us;
    h->due_us = h->arrived_us + (int64_t)s->latency_ms * 1000;
    if (s->tail)
        s->tail->next = h;
    else
        s->head = h;
    s->tail = h;
    if (++s->pending > s->peak_pending) s->peak_pending = s->pending;
}

/* Arms the timerfd for the head's due time (absolute, CLOCK_MONOTONIC) and waits on it; with no
 * latency the head is due now and the loop is told not to sleep. */
static void timer_prepare(void *user, int *fd, short *events, int *timeout_ms) {
    latency_server_t *s = user;
    if (!s->head) return;
    int64_t wake = s->head->due_us - LATENCY_SERVER_EARLY_US;
    if (wake <= now_us()) {
        *timeout_ms = 0;
        return;
    }
    if (wake != s->armed) {
        struct itimerspec it = {.it_value = {.tv_sec = wake / 1000000, .tv_nsec = (wake % 1000000) * 1000}};
        if (timerfd_settime(s->timerfd, TFD_TIMER_ABSTIME, &it, NULL) != 0) abort();
        s->armed = wake;
    }
    *fd = s->timerfd;
    *events = POLLIN;
}

/* Sends the replies that are due, at once. From the timer, and from h2server between the requests of
 * one read: a read can hold dozens of requests, and replies falling due while they are decoded would
 * wait for all of them. */
static void send_due(void *user) {
    latency_server_t *s = user;
    if (!s->head) return;
    int64_t now = now_us(), due_total = 0;
    size_t sent = 0;
    while (s->head && s->head->due_us <= now) {
        held_reply_t *h = s->head;
        s->head = h->next;
        if (!s->head) s->tail = NULL;
        s->pending--;
        s->held_us_total += now - h->arrived_us;
        if (s->held_us_min < 0 || now - h->arrived_us < s->held_us_min) s->held_us_min = now - h->arrived_us;
        s->replies++;
        due_total += h->due_us;
        sent++;
        h2server_reply(h->call, h->status, h->status ? "injected failure" : NULL, h->bytes, h->len);
        free(h->bytes);
        free(h);
    }
    if (!sent) return;
    h2server_flush(s->srv);
    s->late_us_total += (int64_t)sent * now_us() - due_total;
}

static void timer_dispatch(void *user, short revents) {
    latency_server_t *s = user;
    if (revents & POLLIN) {
        uint64_t expirations;
        if (read(s->timerfd, &expirations, sizeof expirations) < 0 && errno != EAGAIN) abort();
        s->armed = 0;
    }
    send_due(s);
}

/* The inputs Read reports for an ID. */
static pv_t *thing_inputs(arena_t *a, const char *id) {
    pv_t *in = pv_object(a);
    pv_object_set(a, in, "name", pv_string(a, id));
    pv_object_set(a, in, "size", pv_number(a, 7));
    pv_t *tags = pv_object(a);
    pv_object_set(a, tags, "team", pv_string(a, "core"));
    pv_object_set(a, in, "tags", tags);
    return in;
}

static void on_read(latency_server_t *s, h2server_call_t *call, arena_t *a, const unsigned char *msg, size_t len) {
    ProtobufCAllocator al = pbvalue_arena_allocator(a);
    Pulumirpc__ReadRequest *req = pulumirpc__read_request__unpack(&al, len, msg);
    if (!req) {
        hold(s, call, GRPC_INVALID_ARGUMENT, NULL);
        return;
    }
    const char *id = req->id ? req->id : "";
    if (strncmp(id, "fail-", 5) == 0) {
        hold(s, call, GRPC_INTERNAL, NULL);
        return;
    }
    Pulumirpc__ReadResponse resp = PULUMIRPC__READ_RESPONSE__INIT;
    resp.id = (char *)id;
    if (strncmp(id, "missing-", 8) != 0) {
        pbvalue_options_t o;
        pbvalue_options_default(&o);
        pv_t *in = thing_inputs(a, id);
        pv_t *state = pv_clone(a, in);
        pv_object_set(a, state, "arn", pv_string(a, arena_sprintf(a, "arn:bench:%s", id)));
        resp.inputs = pbvalue_struct_from_pv(a, in, &o, "Read", NULL);
        resp.properties = pbvalue_struct_from_pv(a, state, &o, "Read", NULL);
    }
    hold(s, call, GRPC_OK, &resp.base);
}

static void on_check(latency_server_t *s, h2server_call_t *call, arena_t *a, const unsigned char *msg, size_t len) {
    ProtobufCAllocator al = pbvalue_arena_allocator(a);
    Pulumirpc__CheckRequest *req = pulumirpc__check_request__unpack(&al, len, msg);
    if (!req) {
        hold(s, call, GRPC_INVALID_ARGUMENT, NULL);
        return;
    }
    Pulumirpc__CheckResponse resp = PULUMIRPC__CHECK_RESPONSE__INIT;
    resp.inputs = req->news;
    hold(s, call, GRPC_OK, &resp.base);
}

static void on_diff(latency_server_t *s, h2server_call_t *call, arena_t *a, const unsigned char *msg, size_t len) {
    ProtobufCAllocator al = pbvalue_arena_allocator(a);
    Pulumirpc__DiffRequest *req = pulumirpc__diff_request__unpack(&al, len, msg);
    pv_t *olds = req ? pbvalue_pv_from_struct(a, req->old_inputs, "Diff", NULL) : NULL;
    pv_t *news = req ? pbvalue_pv_from_struct(a, req->news, "Diff", NULL) : NULL;
    if (!olds || !news) {
        hold(s, call, GRPC_INVALID_ARGUMENT, NULL);
        return;
    }
    Pulumirpc__DiffResponse resp = PULUMIRPC__DIFF_RESPONSE__INIT;
    size_t cap = olds->u.obj.len + news->u.obj.len;
    resp.detaileddiff = arena_alloc(a, (cap ? cap : 1) * sizeof *resp.detaileddiff);
    for (int pass = 0; pass < 2; pass++) {
        const pv_t *from = pass ? news : olds, *other = pass ? olds : news;
        for (size_t i = 0; i < from->u.obj.len; i++) {
            const char *key = from->u.obj.members[i].key;
            const pv_t *v = pv_object_get(other, key);
            if (pass && v) continue; /* keys in both were compared in the first pass */
            if (v && pv_equal(v, from->u.obj.members[i].value)) continue;
            Pulumirpc__DiffResponse__DetailedDiffEntry *e = arena_alloc(a, sizeof *e);
            pulumirpc__diff_response__detailed_diff_entry__init(e);
            Pulumirpc__PropertyDiff *pd = arena_alloc(a, sizeof *pd);
            pulumirpc__property_diff__init(pd);
            pd->kind = !v ? (pass ? PULUMIRPC__PROPERTY_DIFF__KIND__ADD : PULUMIRPC__PROPERTY_DIFF__KIND__DELETE)
                          : PULUMIRPC__PROPERTY_DIFF__KIND__UPDATE;
            pd->inputdiff = true;
            e->key = (char *)key;
            e->value = pd;
            resp.detaileddiff[resp.n_detaileddiff++] = e;
        }
    }
    resp.changes = resp.n_detaileddiff ? PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_SOME
                                       : PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_NONE;
    resp.hasdetaileddiff = true;
    hold(s, call, GRPC_OK, &resp.base);
}

static void handler(void *user, h2server_call_t *call, const char *path, const unsigned char *msg, size_t len) {
    latency_server_t *s = user;
    s->request_us = now_us();
    arena_t *a = arena_new();
    if (strcmp(path, LS_RP "Read") == 0) {
        s->calls++;
        on_read(s, call, a, msg, len);
    } else if (strcmp(path, LS_RP "Check") == 0) {
        s->calls++;
        on_check(s, call, a, msg, len);
    } else if (strcmp(path, LS_RP "Diff") == 0) {
        s->calls++;
        on_diff(s, call, a, msg, len);
    } else if (strcmp(path, LS_RP "GetPluginInfo") == 0) {
        Pulumirpc__PluginInfo info = PULUMIRPC__PLUGIN_INFO__INIT;
        info.version = "1.0.0";
        hold(s, call, GRPC_OK, &info.base);
    } else if (strcmp(path, LS_RP "Configure") == 0) {
        Pulumirpc__ConfigureResponse resp = PULUMIRPC__CONFIGURE_RESPONSE__INIT;
        resp.acceptsecrets = true;
        resp.acceptresources = true;
        hold(s, call, GRPC_OK, &resp.base);
    } else if (strcmp(path, LS_RP "GetSchema") == 0) {
        Pulumirpc__GetSchemaResponse resp = PULUMIRPC__GET_SCHEMA_RESPONSE__INIT;
        resp.schema = (char *)LATENCY_SCHEMA;
        hold(s, call, GRPC_OK, &resp.base);
    } else if (strcmp(path, LS_RP "Cancel") == 0) {
        h2server_reply(call, GRPC_OK, NULL, NULL, 0); /* google.protobuf.Empty packs to no bytes */
    } else {
        h2server_reply(call, GRPC_UNIMPLEMENTED, "not implemented by the latency server", NULL, 0);
    }
    arena_free(a);
}

latency_server_t *latency_server_start(grpc_loop_t *loop, int latency_ms, diag_list_t *diags) {
    latency_server_t *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->loop = loop;
    s->latency_ms = latency_ms;
    s->held_us_min = -1;
    s->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (s->timerfd < 0) {
        diag_error(diags, DIAG_IO, "cannot create a timer for the latency server: %s", strerror(errno));
        free(s);
        return NULL;
    }
    s->srv = h2server_start(loop, 0, handler, s, diags);
    if (!s->srv) {
        close(s->timerfd);
        free(s);
        return NULL;
    }
    h2server_set_after_request(s->srv, send_due, s);
    grpc_loop_source_t src = {.prepare = timer_prepare, .dispatch = timer_dispatch, .user = s};
    s->timer = grpc_loop_add(loop, &src);
    return s;
}

void latency_server_free(latency_server_t *s) {
    if (!s) return;
    while (s->head) {
        held_reply_t *h = s->head;
        s->head = h->next;
        free(h->bytes);
        free(h);
    }
    grpc_loop_remove(s->loop, s->timer);
    close(s->timerfd);
    h2server_free(s->srv);
    free(s);
}

int latency_server_port(const latency_server_t *s) {
    return h2server_port(s->srv);
}
void latency_server_set_latency(latency_server_t *s, int latency_ms) {
    s->latency_ms = latency_ms;
}
size_t latency_server_calls(const latency_server_t *s) {
    return s->calls;
}
size_t latency_server_peak_pending(const latency_server_t *s) {
    return s->peak_pending;
}
double latency_server_mean_hold_us(const latency_server_t *s) {
    return s->replies ? (double)s->held_us_total / (double)s->replies : 0;
}
int64_t latency_server_min_hold_us(const latency_server_t *s) {
    return s->held_us_min;
}
double latency_server_mean_late_us(const latency_server_t *s) {
    return s->replies ? (double)s->late_us_total / (double)s->replies : 0;
}

static volatile sig_atomic_t spawned_stop;
static void on_sigterm(int sig) {
    (void)sig;
    spawned_stop = 1;
}

pid_t latency_server_spawn(int latency_ms, int *port, int *stats_fd, diag_list_t *diags) {
    int fds[2];
    if (pipe(fds) != 0) {
        diag_error(diags, DIAG_IO, "cannot create a pipe for the latency server");
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        diag_error(diags, DIAG_IO, "cannot fork the latency server");
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        struct sigaction sa = {.sa_handler = on_sigterm}; /* no SA_RESTART: poll(2) returns EINTR */
        sigemptyset(&sa.sa_mask);
        sigaction(SIGTERM, &sa, NULL);
        grpc_loop_t *loop = grpc_loop_new();
        latency_server_t *s = latency_server_start(loop, latency_ms, NULL);
        int p = s ? latency_server_port(s) : -1;
        if (write(fds[1], &p, sizeof p) != (ssize_t)sizeof p || p < 0) _exit(1);
        while (!spawned_stop)
            grpc_loop_run_once(loop, -1);
        double stats[2] = {latency_server_mean_hold_us(s), latency_server_mean_late_us(s)};
        _exit(write(fds[1], stats, sizeof stats) == (ssize_t)sizeof stats ? 0 : 1);
    }
    close(fds[1]);
    int p = -1;
    ssize_t n = read(fds[0], &p, sizeof p);
    if (n != (ssize_t)sizeof p || p <= 0) {
        diag_error(diags, DIAG_IO, "the latency server did not start");
        close(fds[0]);
        kill(pid, SIGKILL);
        return -1;
    }
    *port = p;
    *stats_fd = fds[0];
    return pid;
}

double latency_server_stop(pid_t pid, int stats_fd, struct rusage *ru, double *late_us) {
    kill(pid, SIGTERM);
    double stats[2] = {-1, -1};
    if (read(stats_fd, stats, sizeof stats) != (ssize_t)sizeof stats) stats[0] = stats[1] = -1;
    close(stats_fd);
    int status;
    wait4(pid, &status, 0, ru);
    if (late_us) *late_us = stats[1];
    return stats[0];
}

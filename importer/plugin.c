/* plugin.c — finding, launching, stopping and downloading provider plugins (see plugin.h). */
#define _GNU_SOURCE
#include "importer/plugin.h"

#include <ctype.h>
#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>

#include "base/dynlib.h"
#include "base/fileio.h"

/* --- versions ------------------------------------------------------------------------------------ */

static bool parse_num(const char **p, long *out) {
    const char *s = *p;
    if (!isdigit((unsigned char)*s)) return false;
    if (*s == '0' && isdigit((unsigned char)s[1])) return false; /* no leading zeros */
    long v = 0;
    while (isdigit((unsigned char)*s)) {
        if (v > 100000000L) return false;
        v = v * 10 + (*s++ - '0');
    }
    *p = s;
    *out = v;
    return true;
}

bool plugin_semver_parse(const char *text, plugin_semver_t *out) {
    memset(out, 0, sizeof *out);
    if (!text) return false;
    const char *p = text;
    if (*p == 'v') p++;
    if (!parse_num(&p, &out->major) || *p++ != '.' || !parse_num(&p, &out->minor) || *p++ != '.' ||
        !parse_num(&p, &out->patch))
        return false;
    if (*p == '-') {
        p++;
        size_t n = strcspn(p, "+");
        if (n == 0 || n >= sizeof out->pre) return false;
        for (size_t i = 0; i < n; i++)
            if (!isalnum((unsigned char)p[i]) && p[i] != '.' && p[i] != '-') return false;
        memcpy(out->pre, p, n);
        p += n;
    }
    if (*p == '+') {
        p++;
        if (!*p) return false;
        for (; *p; p++)
            if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-') return false;
    }
    return *p == 0;
}

/* Prerelease precedence: dot-separated identifiers, numeric ones compared as numbers and below
 * alphanumeric ones; a shorter list of equal identifiers comes first. */
static int compare_pre(const char *a, const char *b) {
    if (!*a || !*b) return *a ? -1 : *b ? 1 : 0; /* no prerelease sorts after any prerelease */
    while (*a || *b) {
        if (!*a) return -1;
        if (!*b) return 1;
        size_t na = strcspn(a, "."), nb = strcspn(b, ".");
        bool da = true, db = true;
        for (size_t i = 0; i < na; i++)
            da = da && isdigit((unsigned char)a[i]);
        for (size_t i = 0; i < nb; i++)
            db = db && isdigit((unsigned char)b[i]);
        int c;
        if (da && db)
            c = na != nb ? (na < nb ? -1 : 1) : strncmp(a, b, na);
        else if (da != db)
            c = da ? -1 : 1;
        else {
            c = strncmp(a, b, na < nb ? na : nb);
            if (c == 0 && na != nb) c = na < nb ? -1 : 1;
        }
        if (c) return c < 0 ? -1 : 1;
        a += na + (a[na] == '.');
        b += nb + (b[nb] == '.');
    }
    return 0;
}

int plugin_semver_compare(const plugin_semver_t *a, const plugin_semver_t *b) {
    if (a->major != b->major) return a->major < b->major ? -1 : 1;
    if (a->minor != b->minor) return a->minor < b->minor ? -1 : 1;
    if (a->patch != b->patch) return a->patch < b->patch ? -1 : 1;
    return compare_pre(a->pre, b->pre);
}

bool plugin_semver_compatible(const plugin_semver_t *have, const plugin_semver_t *want) {
    int c = plugin_semver_compare(have, want);
    if (c == 0) return true;
    if (have->pre[0] || want->pre[0]) return false; /* prereleases only match exactly */
    return have->major == want->major && c > 0;
}

/* --- YAML ---------------------------------------------------------------------------------------- */

static pv_t *yaml_scalar(arena_t *a, const yaml_node_t *n) {
    const char *s = (const char *)n->data.scalar.value;
    size_t len = n->data.scalar.length;
    if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
        if (len == 0 || strcmp(s, "null") == 0 || strcmp(s, "~") == 0 || strcmp(s, "Null") == 0) return pv_null(a);
        if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0) return pv_bool(a, true);
        if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0) return pv_bool(a, false);
        /* Numbers: digits with an optional sign, fraction and exponent (not inf/nan/hex). */
        bool numeric = strspn(s, "+-0123456789.eE") == len && strpbrk(s, "0123456789");
        if (numeric) {
            char *end;
            double d = strtod(s, &end);
            if (*end == 0) return pv_number(a, d);
        }
    }
    return pv_stringn(a, s, len);
}

static pv_t *yaml_to_pv(arena_t *a, yaml_document_t *doc, yaml_node_t *n, int depth) {
    if (!n || depth > 64) return pv_null(a);
    switch (n->type) {
    case YAML_SCALAR_NODE: return yaml_scalar(a, n);
    case YAML_SEQUENCE_NODE: {
        pv_t *arr = pv_array(a);
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
            pv_array_push(a, arr, yaml_to_pv(a, doc, yaml_document_get_node(doc, *it), depth + 1));
        return arr;
    }
    case YAML_MAPPING_NODE: {
        pv_t *obj = pv_object(a);
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            yaml_node_t *k = yaml_document_get_node(doc, p->key);
            if (!k || k->type != YAML_SCALAR_NODE) continue;
            pv_object_set(a, obj, (const char *)k->data.scalar.value,
                          yaml_to_pv(a, doc, yaml_document_get_node(doc, p->value), depth + 1));
        }
        return obj;
    }
    default: return pv_null(a);
    }
}

pv_t *plugin_yaml_load(arena_t *a, const char *path, bool must_exist, bool *missing, diag_list_t *diags) {
    if (missing) *missing = false;
    struct stat st;
    if (!must_exist && stat(path, &st) != 0 && errno == ENOENT) {
        if (missing) *missing = true;
        return NULL;
    }
    /* Read whole under the input caps (size, and the idle timeout of a FIFO). */
    size_t len = 0;
    char *text = file_read_all(a, path, &len, diags);
    if (!text) return NULL;
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    pv_t *out = NULL;
    if (!yaml_parser_load(&parser, &doc)) {
        diag_t *d = diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "is not valid YAML: %s%s%s",
                             parser.problem ? parser.problem : "syntax error", parser.context ? " " : "",
                             parser.context ? parser.context : "");
        if (d) d->line = (int)parser.problem_mark.line + 1;
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        out = root ? yaml_to_pv(a, &doc, root, 0) : pv_object(a);
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    return out;
}

/* --- discovery ----------------------------------------------------------------------------------- */

static bool is_executable_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static bool exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static bool is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *plugin_cache_dir(arena_t *a, const char *pulumi_home) {
    if (pulumi_home && *pulumi_home) return arena_sprintf(a, "%s/plugins", pulumi_home);
    const char *env = getenv("PULUMI_HOME");
    if (env && *env) return arena_sprintf(a, "%s/plugins", env);
    const char *home = file_user_home(a); /* ~/.pulumi as Pulumi's pulumihome.Dir takes it */
    return home ? arena_sprintf(a, "%s/.pulumi/plugins", home) : NULL;
}

static void looked_add(buf_t *looked, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void looked_add(buf_t *looked, const char *fmt, ...) {
    if (!looked) return;
    char *line = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&line, fmt, ap);
    va_end(ap);
    if (n < 0) abort();
    buf_puts(looked, "  - ");
    buf_puts(looked, line);
    buf_putc(looked, '\n');
    free(line);
}

/* Scans `dir` for resource-<pkg>-v<version>/pulumi-resource-<pkg> and picks per the version rules. */
static bool scan_versioned(arena_t *a, const char *dir, const char *pkg, const char *want_text, const char *origin,
                           plugin_location_t *out, buf_t *looked) {
    DIR *d = opendir(dir);
    if (!d) {
        looked_add(looked, "%s %s/resource-%s-v*: %s", origin, dir, pkg,
                   errno == ENOENT ? "no such directory" : strerror(errno));
        return false;
    }
    plugin_semver_t want, best;
    bool have_want = want_text && plugin_semver_parse(want_text, &want);
    char *prefix = arena_sprintf(a, "resource-%s-v", pkg);
    size_t plen = strlen(prefix);
    char *best_path = NULL, *best_ver = NULL;
    buf_t seen;
    buf_init(&seen);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        if (strncmp(name, prefix, plen) != 0) continue;
        const char *ver = name + plen;
        size_t nl = strlen(name);
        if (nl > 8 && strcmp(name + nl - 8, ".partial") == 0) continue; /* a download in progress */
        plugin_semver_t v;
        if (!plugin_semver_parse(ver, &v)) continue; /* also skips `.tmpNNN` leftovers */
        char *sub = arena_sprintf(a, "%s/%s", dir, name);
        if (exists(arena_sprintf(a, "%s.partial", sub)) || exists(arena_sprintf(a, "%s/.partial", sub))) {
            buf_printf(&seen, "%s%s (partial download, ignored)", seen.len ? ", " : "", ver);
            continue;
        }
        char *bin = arena_sprintf(a, "%s/pulumi-resource-%s", sub, pkg);
        if (!is_executable_file(bin)) {
            buf_printf(&seen, "%s%s (no executable pulumi-resource-%s)", seen.len ? ", " : "", ver, pkg);
            continue;
        }
        buf_printf(&seen, "%s%s", seen.len ? ", " : "", ver);
        if (have_want && !plugin_semver_compatible(&v, &want)) continue;
        bool better;
        if (!best_path)
            better = true;
        else if (have_want)
            /* the exact version if there, else the newest compatible one */
            better = plugin_semver_compare(&best, &want) != 0 &&
                     (plugin_semver_compare(&v, &want) == 0 || plugin_semver_compare(&v, &best) > 0);
        else
            /* the newest release; prereleases only when there is no release */
            better = (!v.pre[0] && best.pre[0]) || (!v.pre[0] == !best.pre[0] && plugin_semver_compare(&v, &best) > 0);
        if (better) {
            best = v;
            best_path = bin;
            best_ver = arena_strdup(a, ver);
        }
    }
    closedir(d);
    if (!best_path) {
        if (seen.len)
            looked_add(looked, "%s %s: found version%s %s, none %s", origin, dir, strchr(seen.data, ',') ? "s" : "",
                       seen.data,
                       have_want ? arena_sprintf(a, "compatible with %s (same major version, not older)", want_text)
                                 : "usable");
        else
            looked_add(looked, "%s %s/%s*: none", origin, dir, prefix);
    }
    buf_free(&seen);
    if (!best_path) return false;
    out->path = best_path;
    out->version = best_ver;
    out->origin = origin;
    return true;
}

static bool find_in_project(arena_t *a, const plugin_search_t *s, const char *pkg, const char *version,
                            plugin_location_t *out, buf_t *looked, diag_list_t *diags) {
    if (!s->project_dir) return false;
    char *yaml_path = arena_sprintf(a, "%s/Pulumi.yaml", s->project_dir);
    bool missing;
    pv_t *proj = plugin_yaml_load(a, yaml_path, false, &missing, diags);
    const pv_t *providers = NULL;
    if (proj && proj->kind == PV_OBJECT) {
        const pv_t *plugins = pv_object_get(proj, "plugins");
        if (plugins && plugins->kind == PV_OBJECT) providers = pv_object_get(plugins, "providers");
    }
    if (providers && providers->kind == PV_ARRAY) {
        for (size_t i = 0; i < providers->u.arr.len; i++) {
            const pv_t *ent = providers->u.arr.items[i];
            const pv_t *name = ent->kind == PV_OBJECT ? pv_object_get(ent, "name") : NULL;
            if (!name || name->kind != PV_STRING || strcmp(name->u.str.s, pkg) != 0) continue;
            const pv_t *path = pv_object_get(ent, "path");
            if (!path || path->kind != PV_STRING || !*path->u.str.s) {
                diag_add(diags, DIAG_WARNING, DIAG_INPUT, yaml_path, NULL,
                         "plugins.providers entry '%s' has no `path`; give the directory or file of "
                         "pulumi-resource-%s",
                         pkg, pkg);
                continue;
            }
            const char *p = path->u.str.s;
            char *full = p[0] == '/' ? arena_strdup(a, p) : arena_sprintf(a, "%s/%s", s->project_dir, p);
            if (is_dir(full)) full = arena_sprintf(a, "%s/pulumi-resource-%s", full, pkg);
            if (is_executable_file(full)) {
                const pv_t *ver = pv_object_get(ent, "version");
                out->path = full;
                out->version = ver && ver->kind == PV_STRING ? ver->u.str.s : NULL;
                out->origin = "Pulumi.yaml";
                return true;
            }
            looked_add(looked, "Pulumi.yaml plugins.providers '%s' path %s: no executable there", pkg, full);
        }
    }
    char *dir = arena_sprintf(a, "%s/plugins", s->project_dir);
    char *flat = arena_sprintf(a, "%s/pulumi-resource-%s", dir, pkg);
    if (is_executable_file(flat)) {
        out->path = flat;
        out->version = NULL;
        out->origin = "project plugins";
        return true;
    }
    if (!is_dir(dir)) return false; /* most projects have none; not worth a line in the message */
    looked_add(looked, "project plugins %s: not there", flat);
    return scan_versioned(a, dir, pkg, version, "project plugins", out, looked);
}

bool plugin_find(arena_t *a, const plugin_search_t *s, const char *pkg, const char *version, plugin_location_t *out,
                 buf_t *looked, diag_list_t *diags) {
    memset(out, 0, sizeof *out);
    if (find_in_project(a, s, pkg, version, out, looked, diags)) return true;
    char *exe = arena_sprintf(a, "pulumi-resource-%s", pkg);
    for (size_t i = 0; i < s->n_dirs; i++) {
        char *p = arena_sprintf(a, "%s/%s", s->dirs[i], exe);
        if (is_executable_file(p)) {
            out->path = p;
            out->origin = "search directory";
            return true;
        }
        if (scan_versioned(a, s->dirs[i], pkg, version, "search directory", out, NULL)) return true;
        looked_add(looked, "search directory %s: no %s", s->dirs[i], exe);
    }
    if (!s->ignore_ambient) {
        const char *path_env = s->path_env ? s->path_env : getenv("PATH");
        char *copy = arena_strdup(a, path_env ? path_env : "");
        bool any = false;
        for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
            if (!*dir) continue;
            any = true;
            char *p = arena_sprintf(a, "%s/%s", dir, exe);
            if (is_executable_file(p)) {
                out->path = p;
                out->origin = "$PATH";
                return true;
            }
        }
        looked_add(looked, "$PATH: no %s in %s", exe, any ? "any of its directories" : "it (PATH is empty)");
    } else {
        looked_add(looked, "$PATH: not searched (ambient plugins are ignored)");
    }
    char *cache = plugin_cache_dir(a, s->pulumi_home);
    if (!cache) {
        looked_add(looked, "plugin cache: neither PULUMI_HOME nor HOME is set");
        return false;
    }
    return scan_versioned(a, cache, pkg, version, "plugin cache", out, looked);
}

/* --- processes ----------------------------------------------------------------------------------- */

/* Process groups of running plugins, for the signal handler: a handler can only reach process-wide
 * state, so this table is the one piece of global mutable state, written only by launch/stop and
 * read (async-signal-safely) by the handler. */
#define PLUGIN_MAX_GROUPS 256
static volatile sig_atomic_t plugin_groups[PLUGIN_MAX_GROUPS];

static void groups_add(pid_t pgid) {
    for (size_t i = 0; i < PLUGIN_MAX_GROUPS; i++)
        if (plugin_groups[i] == 0) {
            plugin_groups[i] = pgid;
            return;
        }
}

static void groups_remove(pid_t pgid) {
    for (size_t i = 0; i < PLUGIN_MAX_GROUPS; i++)
        if (plugin_groups[i] == pgid) plugin_groups[i] = 0;
}

void plugin_kill_all(void) {
    for (size_t i = 0; i < PLUGIN_MAX_GROUPS; i++)
        if (plugin_groups[i] > 0) kill(-(pid_t)plugin_groups[i], SIGKILL);
}

static void on_fatal_signal(int sig) {
    int saved = errno;
    plugin_kill_all();
    file_temps_remove(); /* no *.cimport-tmp-* left beside the user's files */
    /* Die of the same signal so the parent sees the usual status. */
    signal(sig, SIG_DFL);
    raise(sig);
    errno = saved;
}

/* Graceful mode: the first SIGINT/SIGTERM only sets the caller's flag (to the signal number); a
 * second one is fatal as above. */
static volatile sig_atomic_t *stop_flag;

static void on_stop_signal(int sig) {
    if (stop_flag && *stop_flag == 0) {
        *stop_flag = sig;
        return;
    }
    on_fatal_signal(sig);
}

void plugin_install_stop_handlers(volatile sig_atomic_t *flag) {
    stop_flag = flag;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask); /* no SA_RESTART: a blocking poll(2) returns at once with EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = on_fatal_signal;
    sigaction(SIGHUP, &sa, NULL);
}

void plugin_install_signal_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

typedef struct plugin_pipe {
    plugin_proc_t *proc;
    int fd;
    int handle; /* loop source, -1 when not added */
    bool is_stdout;
    bool eof;
    /* Port line (stdout only): read byte by byte until '\n'. */
    bool port_done;
    char port_line[128];
    size_t port_len;
    bool port_overflow;
    /* Last complete lines and the one being collected. */
    char **ring;
    size_t keep, n_lines, next;
    buf_t partial;
} plugin_pipe_t;

struct plugin_proc {
    grpc_loop_t *loop;
    char *name, *path;
    pid_t pid;
    bool exited; /* exit status collected (with WNOWAIT: the zombie keeps the pid and group reserved) */
    bool reaped;
    char how[96];
    int port;
    plugin_pipe_t out, err;
};

static void pipe_keep_line(plugin_pipe_t *pp, const char *s, size_t n) {
    while (n && (s[n - 1] == '\r' || s[n - 1] == '\n'))
        n--;
    char *line = strndup(s, n);
    if (!line) abort();
    free(pp->ring[pp->next]);
    pp->ring[pp->next] = line;
    pp->next = (pp->next + 1) % pp->keep;
    if (pp->n_lines < pp->keep) pp->n_lines++;
}

static void pipe_take_text(plugin_pipe_t *pp, const char *data, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (data[i] == '\n') {
            pipe_keep_line(pp, pp->partial.data ? pp->partial.data : "", pp->partial.len);
            pp->partial.len = 0;
        } else if (pp->partial.len < 4096) { /* very long lines are cut, not kept whole */
            buf_putc(&pp->partial, data[i]);
        }
    }
}

static void pipe_read(plugin_pipe_t *pp) {
    while (pp->is_stdout && !pp->port_done && !pp->eof) {
        char c;
        ssize_t r = read(pp->fd, &c, 1);
        if (r == 1) {
            if (c == '\n') {
                pp->port_done = true;
                break;
            }
            if (pp->port_len + 1 < sizeof pp->port_line)
                pp->port_line[pp->port_len++] = c;
            else
                pp->port_overflow = true;
        } else if (r == 0) {
            pp->eof = true;
        } else if (errno != EINTR) {
            if (errno != EAGAIN && errno != EWOULDBLOCK) pp->eof = true;
            return;
        }
    }
    char chunk[4096];
    while (!pp->eof) {
        ssize_t r = read(pp->fd, chunk, sizeof chunk);
        if (r > 0) {
            pipe_take_text(pp, chunk, (size_t)r);
        } else if (r == 0) {
            pp->eof = true;
        } else if (errno != EINTR) {
            if (errno != EAGAIN && errno != EWOULDBLOCK) pp->eof = true;
            return;
        }
    }
    if (pp->eof && pp->partial.len) {
        pipe_keep_line(pp, pp->partial.data, pp->partial.len);
        pp->partial.len = 0;
    }
}

static void pipe_prepare(void *user, int *fd, short *events, int *timeout_ms) {
    plugin_pipe_t *pp = user;
    (void)timeout_ms;
    *fd = pp->eof ? -1 : pp->fd;
    *events = POLLIN;
}

static void pipe_dispatch(void *user, short revents) {
    plugin_pipe_t *pp = user;
    if (revents) pipe_read(pp);
}

static void pipe_init(plugin_pipe_t *pp, plugin_proc_t *p, int fd, bool is_stdout, size_t keep) {
    pp->proc = p;
    pp->fd = fd;
    pp->handle = -1;
    pp->is_stdout = is_stdout;
    pp->port_done = !is_stdout;
    pp->keep = keep;
    pp->ring = calloc(keep, sizeof *pp->ring);
    if (!pp->ring) abort();
    buf_init(&pp->partial);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    grpc_loop_source_t src = {pipe_prepare, pipe_dispatch, pp};
    pp->handle = grpc_loop_add(p->loop, &src);
}

static void pipe_release(plugin_pipe_t *pp) {
    if (pp->handle >= 0) grpc_loop_remove(pp->proc->loop, pp->handle);
    pp->handle = -1;
    if (pp->fd >= 0) close(pp->fd);
    pp->fd = -1;
    for (size_t i = 0; i < pp->keep; i++)
        free(pp->ring[i]);
    free(pp->ring);
    pp->ring = NULL;
    buf_free(&pp->partial);
}

static char *pipe_tail(const plugin_pipe_t *pp, arena_t *a) {
    buf_t b;
    buf_init(&b);
    size_t start = (pp->next + pp->keep - pp->n_lines) % pp->keep;
    for (size_t i = 0; i < pp->n_lines; i++) {
        const char *line = pp->ring[(start + i) % pp->keep];
        buf_printf(&b, "%s    %s", b.len ? "\n" : "", line);
    }
    if (pp->partial.len) buf_printf(&b, "%s    %.*s", b.len ? "\n" : "", (int)pp->partial.len, pp->partial.data);
    char *s = b.len ? buf_arena_str(&b, a) : arena_strdup(a, "");
    buf_free(&b);
    return s;
}

int plugin_proc_port(const plugin_proc_t *p) {
    return p->port;
}
pid_t plugin_proc_pid(const plugin_proc_t *p) {
    return p->pid;
}

bool plugin_proc_output_closed(plugin_proc_t *p) {
    if (!p->out.eof && p->out.fd >= 0) pipe_read(&p->out);
    if (!p->err.eof && p->err.fd >= 0) pipe_read(&p->err);
    return p->out.eof && p->err.eof;
}

char *plugin_proc_stderr_tail(const plugin_proc_t *p, arena_t *a) {
    /* Pick up whatever is already in the pipe: a crash's last words arrive just before the exit. */
    plugin_pipe_t *err = (plugin_pipe_t *)&p->err;
    if (!err->eof && err->fd >= 0) pipe_read(err);
    return pipe_tail(&p->err, a);
}

static void describe_status(plugin_proc_t *p, int code, int si_code) {
    if (si_code == CLD_EXITED)
        snprintf(p->how, sizeof p->how, "exited with status %d", code);
    else
        snprintf(p->how, sizeof p->how, "was killed by signal %d (%s)", code, strsignal(code));
}

/* Collects the exit status without reaping (WNOWAIT), so the pid and group stay reserved until
 * plugin_stop and signalling the group can never hit an unrelated process. */
bool plugin_proc_exited(plugin_proc_t *p, const char **how) {
    if (!p->exited) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == p->pid) {
            p->exited = true;
            describe_status(p, si.si_status, si.si_code);
        }
    }
    if (p->exited && how) *how = p->how;
    return p->exited;
}

static void wait_exit(plugin_proc_t *p, int ms) {
    int64_t until = grpc_now_ms() + ms;
    while (!plugin_proc_exited(p, NULL) && grpc_now_ms() < until) {
        struct timespec ts = {0, 5L * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

void plugin_stop(plugin_proc_t *p, int grace_ms) {
    if (!p) return;
    if (!plugin_proc_exited(p, NULL)) {
        kill(-p->pid, SIGINT);
        wait_exit(p, grace_ms);
    }
    /* Always: the leader may be gone while helpers it started still run in its group. */
    kill(-p->pid, SIGKILL);
    if (!p->reaped) {
        int st;
        while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR) {
        }
        p->reaped = true;
    }
    groups_remove(p->pid);
    pipe_release(&p->out);
    pipe_release(&p->err);
    free(p->name);
    free(p->path);
    free(p);
}

/* Strips the progress OSC sequences .NET plugins print (ESC]9;4;3;ESC\ and ESC]9;4;0;ESC\) and
 * surrounding whitespace, then reads 1..65535 (the engine's parsePort). */
static int parse_port(const char *line) {
    char buf[128];
    size_t n = 0;
    for (const char *s = line; *s && n + 1 < sizeof buf;) {
        if (strncmp(s, "\x1b]9;4;3;\x1b\\", 10) == 0 || strncmp(s, "\x1b]9;4;0;\x1b\\", 10) == 0) {
            s += 10;
            continue;
        }
        buf[n++] = *s++;
    }
    buf[n] = 0;
    char *b = buf;
    while (isspace((unsigned char)*b))
        b++;
    char *e = b + strlen(b);
    while (e > b && isspace((unsigned char)e[-1]))
        *--e = 0;
    if (!*b || strspn(b, "0123456789") != strlen(b) || strlen(b) > 5) return -1;
    long port = strtol(b, NULL, 10); /* at most 5 digits: no overflow */
    return port >= 1 && port <= 65535 ? (int)port : -1;
}

/* Printable form of what the plugin printed instead of a port (control bytes escaped). */
static char *printable(arena_t *a, const char *s) {
    buf_t b;
    buf_init(&b);
    for (; *s && b.len < 120; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            buf_printf(&b, "\\x%02x", c);
        else
            buf_putc(&b, (char)c);
    }
    char *r = b.len ? buf_arena_str(&b, a) : arena_strdup(a, "");
    buf_free(&b);
    return r;
}

static void add_with_stderr(diag_list_t *diags, plugin_proc_t *p, const char *what) {
    arena_t *a = arena_new();
    const char *tail = plugin_proc_stderr_tail(p, a);
    if (*tail)
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "%s; its last output on stderr:\n%s", what, tail);
    else
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "%s; it wrote nothing on stderr", what);
    arena_free(a);
}

plugin_proc_t *plugin_launch(grpc_loop_t *loop, const char *path, const char *name, const plugin_launch_options_t *o,
                             diag_list_t *diags) {
    plugin_launch_options_t defaults = {0};
    if (!o) o = &defaults;
    int timeout = o->port_timeout_ms > 0 ? o->port_timeout_ms : 30000;
    size_t keep = o->keep_lines ? o->keep_lines : 20;

    int out[2], err[2], status[2];
    if (pipe2(out, O_CLOEXEC) != 0) goto pipe_fail;
    if (pipe2(err, O_CLOEXEC) != 0) {
        close(out[0]);
        close(out[1]);
        goto pipe_fail;
    }
    if (pipe2(status, O_CLOEXEC) != 0) {
        close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        goto pipe_fail;
    }
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);

    /* Everything the child needs is built before fork: only async-signal-safe calls after it. */
    char **argv = calloc(o->n_args + 2, sizeof *argv);
    if (!argv) abort();
    argv[0] = (char *)path;
    for (size_t i = 0; i < o->n_args; i++)
        argv[i + 1] = (char *)o->args[i];
    pid_t parent = getpid();
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old); /* no handler of ours may run in the child */
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        /* If cimport dies without cleaning up (even SIGKILL), the plugin goes too. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        for (int s = 1; s < NSIG; s++)
            if (s != SIGKILL && s != SIGSTOP) signal(s, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (devnull >= 0) dup2(devnull, 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        int e = 0;
        if (o->cwd && chdir(o->cwd) != 0) e = errno;
        if (!e) {
            execv(path, argv);
            e = errno;
        }
        ssize_t w = write(status[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    free(argv);
    if (devnull >= 0) close(devnull);
    close(out[1]);
    close(err[1]);
    close(status[1]);
    if (pid < 0) {
        close(out[0]), close(err[0]), close(status[0]);
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "could not start %s (%s): fork failed: %s", name, path,
                 strerror(fork_errno));
        return NULL;
    }
    setpgid(pid, pid); /* also in the parent, so the group exists before anyone signals it */
    groups_add(pid);

    plugin_proc_t *p = calloc(1, sizeof *p);
    if (!p) abort();
    p->loop = loop;
    p->name = strdup(name);
    p->path = strdup(path);
    p->pid = pid;
    pipe_init(&p->out, p, out[0], true, keep);
    pipe_init(&p->err, p, err[0], false, keep);

    /* The status pipe closes on exec (success) or carries the child's errno. */
    int child_errno = 0;
    ssize_t r;
    while ((r = read(status[0], &child_errno, sizeof child_errno)) < 0 && errno == EINTR) {
    }
    close(status[0]);
    if (r == (ssize_t)sizeof child_errno) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "could not start %s (%s): %s", name, path,
                 strerror(child_errno));
        plugin_stop(p, 0);
        return NULL;
    }

    int64_t deadline = grpc_now_ms() + timeout;
    while (!p->out.port_done && !p->out.eof && !(o->stop && *o->stop)) {
        int64_t left = deadline - grpc_now_ms();
        if (left <= 0) break;
        grpc_loop_run_once(loop, (int)(left > 100 ? 100 : left));
    }
    arena_t *a = arena_new();
    if (!p->out.port_done && !p->out.eof && o->stop && *o->stop) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL,
                 "%s (%s) was stopped before it printed its port: the run was stopped", name, path);
    } else if (p->out.port_done) {
        p->out.port_line[p->out.port_len] = 0;
        p->port = parse_port(p->out.port_line);
        if (p->port > 0 && !p->out.port_overflow) {
            arena_free(a);
            return p;
        }
        add_with_stderr(diags, p,
                        arena_sprintf(a,
                                      "%s (%s) printed '%s' where its port number was expected (a provider plugin "
                                      "must print only the port it listens on as the first line of its output)",
                                      name, path, printable(a, p->out.port_line)));
    } else if (p->out.eof) {
        /* Give it a moment to finish exiting and to flush stderr. */
        wait_exit(p, 2000);
        int64_t until = grpc_now_ms() + 500;
        while (!p->err.eof && grpc_now_ms() < until)
            grpc_loop_run_once(loop, 50);
        const char *how = NULL;
        plugin_proc_exited(p, &how);
        add_with_stderr(diags, p,
                        arena_sprintf(a, "%s (%s) %s before printing the port it listens on", name, path,
                                      how ? how : "closed its output"));
    } else {
        add_with_stderr(
            diags, p,
            arena_sprintf(a, "%s (%s) printed no port within %d ms and was stopped%s%s%s", name, path, timeout,
                          p->out.port_len ? " (it printed '" : "",
                          p->out.port_len ? printable(a, arena_strndup(a, p->out.port_line, p->out.port_len)) : "",
                          p->out.port_len ? "' without a newline)" : ""));
    }
    arena_free(a);
    plugin_stop(p, 0);
    return NULL;

pipe_fail:
    diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "could not start %s (%s): %s", name, path, strerror(errno));
    return NULL;
}

/* --- download ------------------------------------------------------------------------------------ */

static void platform(const char **os, const char **arch) {
    static const char *const oses[][2] = {{"Linux", "linux"}, {"Darwin", "darwin"}};
    static const char *const arches[][2] = {{"x86_64", "amd64"}, {"aarch64", "arm64"}, {"arm64", "arm64"}};
    struct utsname u;
    *os = "linux";
    *arch = "amd64";
    if (uname(&u) != 0) return;
    for (size_t i = 0; i < sizeof oses / sizeof oses[0]; i++)
        if (strcmp(u.sysname, oses[i][0]) == 0) *os = oses[i][1];
    for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++)
        if (strcmp(u.machine, arches[i][0]) == 0) *arch = arches[i][1];
}

static char *replace_all(arena_t *a, const char *s, const char *from, const char *to) {
    buf_t b;
    buf_init(&b);
    size_t fl = strlen(from);
    for (const char *hit; (hit = strstr(s, from)); s = hit + fl) {
        buf_append(&b, s, (size_t)(hit - s));
        buf_puts(&b, to);
    }
    buf_puts(&b, s);
    char *r = buf_arena_str(&b, a);
    buf_free(&b);
    return r;
}

char *plugin_asset_url(arena_t *a, const char *base, const char *pkg, const char *version) {
    const char *os, *arch;
    platform(&os, &arch);
    const char *v = version[0] == 'v' ? version + 1 : version;
    char *root = arena_strdup(a, base && *base ? base : "https://get.pulumi.com/releases/plugins");
    root = replace_all(a, root, "${VERSION}", v);
    root = replace_all(a, root, "${OS}", os);
    root = replace_all(a, root, "${ARCH}", arch);
    size_t n = strlen(root);
    while (n && root[n - 1] == '/')
        root[--n] = 0;
    return arena_sprintf(a, "%s/pulumi-resource-%s-v%s-%s-%s.tar.gz", root, pkg, v, os, arch);
}

typedef struct download_ctx {
    plugin_progress_fn progress;
    void *user;
    const char *pkg, *version;
} download_ctx_t;

static int on_xfer(void *user, curl_off_t total, curl_off_t now, curl_off_t ut, curl_off_t un) {
    (void)ut, (void)un;
    download_ctx_t *c = user;
    if (c->progress) c->progress(c->user, c->pkg, c->version, (size_t)now, (size_t)total);
    return 0;
}

static void mkdir_parents(const char *path) {
    char *p = strdup(path);
    if (!p) abort();
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        mkdir(p, 0755);
        *s = '/';
    }
    mkdir(p, 0755);
    free(p);
}

/* Runs `tar -xzf archive -C dir`; on failure fills *why with tar's stderr. */
static bool run_tar(arena_t *a, const char *archive, const char *dir, char **why) {
    int errp[2];
    if (pipe2(errp, O_CLOEXEC) != 0) {
        *why = arena_sprintf(a, "cannot run tar: %s", strerror(errno));
        return false;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(errp[1], 2);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) dup2(devnull, 0), dup2(devnull, 1);
        execlp("tar", "tar", "-xzf", archive, "-C", dir, (char *)NULL);
        _exit(127);
    }
    close(errp[1]);
    buf_t b;
    buf_init(&b);
    char chunk[1024];
    ssize_t r;
    while ((r = read(errp[0], chunk, sizeof chunk)) != 0) {
        if (r < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (b.len < 4096) buf_append(&b, chunk, (size_t)r);
    }
    close(errp[0]);
    int st = 0;
    if (pid > 0)
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        }
    bool ok = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!ok) {
        while (b.len && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == '\r'))
            b.len--;
        *why = pid < 0 ? arena_sprintf(a, "cannot run tar: %s", strerror(errno))
               : b.len ? arena_sprintf(a, "tar -xzf failed: %.*s", (int)b.len, b.data)
                       : arena_sprintf(a, "tar -xzf failed with status %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    buf_free(&b);
    return ok;
}

static void remove_tree(const char *path) {
    DIR *d = opendir(path);
    if (!d) {
        unlink(path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char *sub = NULL;
        if (asprintf(&sub, "%s/%s", path, e->d_name) < 0) abort();
        struct stat st;
        if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(sub);
        else
            unlink(sub);
        free(sub);
    }
    closedir(d);
    rmdir(path);
}

bool plugin_download(arena_t *a, const char *pulumi_home, const char *pkg, const char *version, const char *base_url,
                     plugin_progress_fn progress, void *user, plugin_location_t *out, diag_list_t *diags) {
    memset(out, 0, sizeof *out);
    plugin_semver_t sv;
    if (!version || !plugin_semver_parse(version, &sv)) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL,
                 "cannot download the %s plugin without a version: give the resource's `version` in the import "
                 "file",
                 pkg);
        return false;
    }
    const char *v = version[0] == 'v' ? version + 1 : version;
    char *cache = plugin_cache_dir(a, pulumi_home);
    if (!cache) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL,
                 "cannot download the %s plugin: neither PULUMI_HOME nor HOME is set", pkg);
        return false;
    }
    if (base_url && (strncmp(base_url, "github://", 9) == 0 || strncmp(base_url, "gitlab://", 9) == 0)) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL,
                 "cannot download the %s plugin from %s: github:// and gitlab:// download URLs are not supported; "
                 "install it with `pulumi plugin install resource %s %s`",
                 pkg, base_url, pkg, v);
        return false;
    }
    char *url = plugin_asset_url(a, base_url, pkg, v);
    char *dir = arena_sprintf(a, "%s/resource-%s-v%s", cache, pkg, v);
    char *marker = arena_sprintf(a, "%s.partial", dir);
    char *archive = arena_sprintf(a, "%s/.download-%d-%s-v%s.tar.gz", cache, (int)getpid(), pkg, v);
    mkdir_parents(cache);

    /* The marker goes first, so neither cimport nor pulumi picks up a half-written directory. */
    FILE *mf = fopen(marker, "w");
    if (!mf) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, marker, NULL, "cannot write in the plugin cache: %s", strerror(errno));
        return false;
    }
    fclose(mf);
    FILE *f = fopen(archive, "wb");
    if (!f) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, archive, NULL, "cannot write in the plugin cache: %s", strerror(errno));
        unlink(marker);
        return false;
    }
    CURL *c = curl_easy_init();
    if (!c) {
        const char *why = dynlib_curl_error();
        diag_add(diags, DIAG_ERROR, DIAG_IO, url, NULL, "cannot download the %s plugin: %s", pkg,
                 *why ? why : "libcurl could not start a transfer");
        fclose(f);
        unlink(archive);
        unlink(marker);
        return false;
    }
    char errbuf[CURL_ERROR_SIZE] = "";
    download_ctx_t ctx = {progress, user, pkg, v};
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, f);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
    /* A stalled transfer (under 1 KiB/s for 60 s) is abandoned rather than hanging the run. */
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "cimport");
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_xfer);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &ctx);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, progress ? 0L : 1L);
    CURLcode rc = curl_easy_perform(c);
    long http = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &http);
    curl_easy_cleanup(c);
    bool write_ok = fclose(f) == 0;
    char *why = NULL;
    if (rc != CURLE_OK)
        why = http >= 400 ? arena_sprintf(a, "the server answered HTTP %ld", http)
                          : arena_sprintf(a, "%s", errbuf[0] ? errbuf : curl_easy_strerror(rc));
    else if (!write_ok)
        why = arena_sprintf(a, "writing %s failed: %s", archive, strerror(errno));
    if (!why) {
        remove_tree(dir); /* a stale, unmarked leftover would otherwise mix with the new files */
        mkdir_parents(dir);
        if (run_tar(a, archive, dir, &why)) {
            char *bin = arena_sprintf(a, "%s/pulumi-resource-%s", dir, pkg);
            if (!is_executable_file(bin))
                why = arena_sprintf(a, "the archive has no executable pulumi-resource-%s", pkg);
        }
        if (why) remove_tree(dir);
    }
    unlink(archive);
    unlink(marker);
    if (why) {
        diag_add(diags, DIAG_ERROR, DIAG_PROVIDER, NULL, NULL, "downloading the %s plugin v%s from %s failed: %s", pkg,
                 v, url, why);
        return false;
    }
    out->path = arena_sprintf(a, "%s/pulumi-resource-%s", dir, pkg);
    out->version = arena_strdup(a, v);
    out->origin = "plugin cache (downloaded)";
    return true;
}

/* backend.c — DIY backends (file and PostgreSQL) laid out as pulumi/pulumi pkg/backend/diy lays
 * them out: a small blob store ("bucket") per kind, and the stack logic (layout check, lock,
 * checkpoint, backups, history) once on top of it. See backend.h for the keys. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/fileio.h"
#include "stacks/backend.h"
#include "stacks/backend_internal.h"

/* (here, not in workspace.c: the workspace uses backends, never the other way round) */
const char *backend_kind_name(backend_kind_t k) {
    switch (k) {
    case BACKEND_FILE: return "DIY file backend";
    case BACKEND_POSTGRES: return "DIY PostgreSQL backend";
    case BACKEND_CLOUD: return "Pulumi Cloud";
    case BACKEND_OTHER: return "DIY cloud storage backend";
    default: return "no backend";
    }
}

void stack_store_options_default(stack_store_options_t *o) {
    memset(o, 0, sizeof *o);
    o->lock_timeout_ms = 10000;
    o->retries = 3;
    o->retry_delay_ms = 500;
    o->import_wait_ms = 120000;
    const char *w = getenv("CIMPORT_CLOUD_IMPORT_WAIT");
    char *end = NULL;
    double sec = w && *w ? strtod(w, &end) : 0;
    if (end && *end == 0 && sec > 0 && sec <= 86400) o->import_wait_ms = (int)(sec * 1000);
}

bool backend_writable(backend_kind_t k) {
    return k == BACKEND_FILE || k == BACKEND_POSTGRES || k == BACKEND_CLOUD;
}

/* ---- the file bucket ------------------------------------------------------------------------ */

typedef struct file_bucket {
    bucket_t base;
    const char *root;
} file_bucket_t;

static const char *fb_path(bucket_t *b, const char *key) {
    return arena_sprintf(b->a, "%s/%s", ((file_bucket_t *)b)->root, key);
}

static int fb_read(bucket_t *b, const char *key, char **data, size_t *len, diag_list_t *diags) {
    const char *p = fb_path(b, key);
    if (access(p, F_OK) != 0) return 0;
    *data = file_read_all(b->a, p, len, diags);
    return *data ? 1 : -1;
}

static bool mkdirs(const char *path, diag_list_t *diags) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *q = tmp + 1; *q; q++) {
        if (*q != '/') continue;
        *q = 0;
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, tmp, NULL, "cannot create the directory: %s", strerror(errno));
            return false;
        }
        *q = '/';
    }
    return true;
}

static bool fb_write(bucket_t *b, const char *key, const char *data, size_t len, diag_list_t *diags) {
    const char *p = fb_path(b, key);
    if (!mkdirs(p, diags)) return false;
    return file_write_atomic(p, data, len, 0644, false, diags);
}

static bool fb_remove(bucket_t *b, const char *key, diag_list_t *diags) {
    const char *p = fb_path(b, key);
    if (unlink(p) != 0 && errno != ENOENT) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, p, NULL, "cannot remove: %s", strerror(errno));
        return false;
    }
    return true;
}

static int fb_mtime(bucket_t *b, const char *key, long long *ns, diag_list_t *diags) {
    const char *p = fb_path(b, key);
    struct stat st;
    if (stat(p, &st) != 0) {
        if (errno == ENOENT) return 0;
        diag_add(diags, DIAG_ERROR, DIAG_IO, p, NULL, "cannot read its modification time: %s", strerror(errno));
        return -1;
    }
    *ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    return 1;
}

static size_t fb_list(bucket_t *b, const char *dir, const char ***keys, diag_list_t *diags) {
    (void)diags;
    const char *p = fb_path(b, dir);
    DIR *d = opendir(p);
    *keys = NULL;
    if (!d) return 0;
    size_t n = 0, cap = 0;
    const char **out = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        out = arena_grow_array(b->a, out, &cap, n + 1, sizeof *out);
        out[n++] = arena_sprintf(b->a, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    *keys = out;
    return n;
}

static void fb_close(bucket_t *b) {
    (void)b;
}

static bucket_t *file_bucket_open(arena_t *a, const char *url, const char *shown, diag_list_t *diags) {
    const char *root = file_url_dir(a, url);
    struct stat st;
    if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "the backend directory %s (from %s) does not exist; log in to it with `pulumi login %s` first", root,
                 shown, shown);
        return NULL;
    }
    file_bucket_t *b = arena_alloc(a, sizeof *b);
    memset(b, 0, sizeof *b);
    b->base.a = a;
    b->base.read = fb_read;
    b->base.write = fb_write;
    b->base.remove = fb_remove;
    b->base.mtime = fb_mtime;
    b->base.list = fb_list;
    b->base.close = fb_close;
    b->base.where = root;
    b->root = root;
    return &b->base;
}

/* ---- the PostgreSQL bucket (pkg/backend/diy/postgres: key TEXT, data BYTEA|JSON, updated_at) --- */

typedef struct pg_bucket {
    bucket_t base;
    PGconn *conn;
    char *table; /* quoted identifier */
} pg_bucket_t;

static bool pg_ok(pg_bucket_t *b, PGresult *r, const char *what, diag_list_t *diags) {
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return true;
    diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL, "PostgreSQL backend: %s failed: %s", what,
             PQerrorMessage(b->conn));
    return false;
}

static int pg_read(bucket_t *bb, const char *key, char **data, size_t *len, diag_list_t *diags) {
    pg_bucket_t *b = (pg_bucket_t *)bb;
    char *q = arena_sprintf(bb->a, "SELECT data FROM %s WHERE key = $1", b->table);
    const char *params[1] = {key};
    /* Binary results: a bytea column comes back as its bytes, a json column as its text. */
    PGresult *r = PQexecParams(b->conn, q, 1, NULL, params, NULL, NULL, 1);
    if (!pg_ok(b, r, "reading a stack", diags)) return PQclear(r), -1;
    if (PQntuples(r) == 0) return PQclear(r), 0;
    *len = (size_t)PQgetlength(r, 0, 0);
    char *out = arena_alloc(bb->a, *len + 1);
    memcpy(out, PQgetvalue(r, 0, 0), *len);
    out[*len] = 0;
    *data = out;
    PQclear(r);
    return 1;
}

static bool pg_write(bucket_t *bb, const char *key, const char *data, size_t len, diag_list_t *diags) {
    pg_bucket_t *b = (pg_bucket_t *)bb;
    char *q = arena_sprintf(bb->a,
                            "INSERT INTO %s (key, data) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET data = $2, "
                            "updated_at = now()",
                            b->table);
    const char *params[2] = {key, data};
    int lens[2] = {0, (int)len};
    int fmts[2] = {0, 1};
    PGresult *r = PQexecParams(b->conn, q, 2, NULL, params, lens, fmts, 0);
    bool ok = pg_ok(b, r, "writing a stack", diags);
    PQclear(r);
    return ok;
}

static bool pg_remove(bucket_t *bb, const char *key, diag_list_t *diags) {
    pg_bucket_t *b = (pg_bucket_t *)bb;
    char *q = arena_sprintf(bb->a, "DELETE FROM %s WHERE key = $1", b->table);
    const char *params[1] = {key};
    PGresult *r = PQexecParams(b->conn, q, 1, NULL, params, NULL, NULL, 0);
    bool ok = pg_ok(b, r, "removing a lock", diags);
    PQclear(r);
    return ok;
}

/* updated_at, the time Pulumi's listing gives a row (pkg/backend/diy/postgres ListPaged): microseconds. */
static int pg_mtime(bucket_t *bb, const char *key, long long *ns, diag_list_t *diags) {
    pg_bucket_t *b = (pg_bucket_t *)bb;
    char *q = arena_sprintf(
        bb->a, "SELECT floor(extract(epoch FROM updated_at) * 1000000)::bigint FROM %s WHERE key = $1", b->table);
    const char *params[1] = {key};
    PGresult *r = PQexecParams(b->conn, q, 1, NULL, params, NULL, NULL, 0);
    if (!pg_ok(b, r, "reading a stack's updated_at", diags)) return PQclear(r), -1;
    if (PQntuples(r) == 0) return PQclear(r), 0;
    if (!*PQgetvalue(r, 0, 0)) { /* NULL (a bigint is never empty) */
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                 "PostgreSQL backend: the row %s of %s has no updated_at, which Pulumi's backend always sets; cimport "
                 "cannot tell which checkpoint Pulumi reads, nothing was written",
                 key, bb->where);
        return PQclear(r), -1;
    }
    *ns = strtoll(PQgetvalue(r, 0, 0), NULL, 10) * 1000LL;
    PQclear(r);
    return 1;
}

static size_t pg_list(bucket_t *bb, const char *dir, const char ***keys, diag_list_t *diags) {
    pg_bucket_t *b = (pg_bucket_t *)bb;
    *keys = NULL;
    char *q = arena_sprintf(bb->a, "SELECT key FROM %s WHERE starts_with(key, $1) ORDER BY key", b->table);
    const char *params[1] = {arena_sprintf(bb->a, "%s/", dir)};
    PGresult *r = PQexecParams(b->conn, q, 1, NULL, params, NULL, NULL, 0);
    if (!pg_ok(b, r, "listing keys", diags)) return PQclear(r), 0;
    size_t n = (size_t)PQntuples(r);
    const char **out = arena_alloc(bb->a, (n ? n : 1) * sizeof *out);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const char *k = PQgetvalue(r, (int)i, 0);
        if (strchr(k + strlen(params[0]), '/')) continue; /* deeper "directories" */
        out[m++] = arena_strdup(bb->a, k);
    }
    PQclear(r);
    *keys = out;
    return m;
}

/* One SQL transaction around a stack write: the backup, .bak, checkpoint and history rows land
 * together at COMMIT or not at all. */
static bool pg_exec(pg_bucket_t *b, const char *sql, diag_list_t *diags) {
    PGresult *r = PQexec(b->conn, sql);
    bool ok = pg_ok(b, r, sql, diags);
    PQclear(r);
    return ok;
}
static bool pg_begin(bucket_t *bb, diag_list_t *diags) {
    return pg_exec((pg_bucket_t *)bb, "BEGIN", diags);
}
static bool pg_commit(bucket_t *bb, diag_list_t *diags) {
    return pg_exec((pg_bucket_t *)bb, "COMMIT", diags);
}
static void pg_rollback(bucket_t *bb) {
    diag_list_t quiet; /* a lost connection rolls back by itself */
    diag_list_init(&quiet);
    pg_exec((pg_bucket_t *)bb, "ROLLBACK", &quiet);
    diag_list_free(&quiet);
}

static void pg_close(bucket_t *bb) {
    pg_bucket_t *b = (pg_bucket_t *)bb;
    if (b->conn) PQfinish(b->conn);
    b->conn = NULL;
}

/* A %XX-escaped query component as Go's url.QueryUnescape decodes it ('+' is a space); NULL when an
 * escape is not two hex digits (Go's url.Query then drops the parameter). */
static char *query_unescape(arena_t *a, const char *s, size_t n) {
    char *out = arena_alloc(a, n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '+') {
            *o++ = ' ';
        } else if (s[i] == '%') {
            if (i + 2 >= n || !isxdigit((unsigned char)s[i + 1]) || !isxdigit((unsigned char)s[i + 2])) return NULL;
            char hex[3] = {s[i + 1], s[i + 2], 0};
            *o++ = (char)strtol(hex, NULL, 16);
            i += 2;
        } else {
            *o++ = s[i];
        }
    }
    *o = 0;
    return out;
}

/* Whether Pulumi's backend can use the table name t: its SQL has it unquoted (CREATE TABLE IF NOT
 * EXISTS t …; CREATE INDEX IF NOT EXISTS t_key_prefix_idx ON t …), so it must be one plain
 * identifier — a letter (or a byte of a multibyte one) or _, then those, digits or $ — whose lower
 * case PostgreSQL then names (reserved words are checked on the server). */
static bool pg_plain_identifier(const char *t) {
    const unsigned char *c = (const unsigned char *)t;
    if (!*c || !(isalpha(*c) || *c == '_' || *c >= 0x80)) return false;
    for (; *c; c++)
        if (!(isalnum(*c) || *c == '_' || *c == '$' || *c >= 0x80)) return false;
    return true;
}

static void pg_bad_table(diag_list_t *diags, const char *table, const char *why) {
    diag_add(diags, DIAG_ERROR, DIAG_USAGE, NULL, NULL,
             "'%s' (table= of the backend URL) is not a table name Pulumi's PostgreSQL backend can use: %s; nothing "
             "was read or written. Name a table Pulumi uses (`pulumi login` with the URL creates it)",
             table, why);
}

/* The table as Pulumi's backend takes it (pkg/backend/diy/postgres NewPostgresBucket): the first
 * table= of the URL's query, %-decoded, pulumi_state when there is none or it is empty; the
 * connection URL is the rest. */
static bucket_t *pg_bucket_open(arena_t *a, const char *url, diag_list_t *diags) {
    char *conn = arena_strdup(a, url);
    const char *table = NULL;
    char *qm = strchr(conn, '?');
    if (qm) {
        char *rest = arena_strdup(a, qm + 1);
        *qm = 0;
        char *frag = strchr(rest, '#');
        if (frag) *frag = 0;
        buf_t kept;
        buf_init(&kept);
        for (char *save = NULL, *p = strtok_r(rest, "&", &save); p; p = strtok_r(NULL, "&", &save)) {
            char *eq = strchr(p, '=');
            size_t kn = eq ? (size_t)(eq - p) : strlen(p);
            char *k = query_unescape(a, p, kn);
            if (k && strcmp(k, "table") == 0) {
                if (!table) {
                    table = eq ? query_unescape(a, eq + 1, strlen(eq + 1)) : "";
                    if (!table) {
                        pg_bad_table(diags, eq + 1,
                                     "a %-escape in it is not % and two hex digits, so Pulumi ignores the parameter "
                                     "and uses the table pulumi_state, which cimport does not take for the one meant");
                        return NULL;
                    }
                }
                continue;
            }
            buf_putc(&kept, kept.len ? '&' : '?');
            buf_puts(&kept, p);
        }
        if (kept.len) conn = arena_sprintf(a, "%s%s", conn, kept.data);
        buf_free(&kept);
    }
    if (!table || !*table) table = "pulumi_state";
    if (!pg_plain_identifier(table)) {
        pg_bad_table(diags, table,
                     "Pulumi writes it into its SQL unquoted, where it must be a letter or _ followed by letters, "
                     "digits, _ or $ (so Pulumi cannot keep stacks in it either)");
        return NULL;
    }
    char *folded = arena_strdup(a, table); /* PostgreSQL's downcase_identifier: ASCII letters */
    for (char *c = folded; *c; c++)
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    pg_bucket_t *b = arena_alloc(a, sizeof *b);
    memset(b, 0, sizeof *b);
    b->base.a = a;
    b->conn = PQconnectdb(conn);
    if (PQstatus(b->conn) != CONNECTION_OK) {
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL, "cannot connect to the PostgreSQL backend: %s",
                 PQerrorMessage(b->conn));
        PQfinish(b->conn);
        return NULL;
    }
    /* A reserved word (SELECT, USER, …) is no table name unquoted: the server's own list says which. */
    const char *params[1] = {folded};
    PGresult *r =
        PQexecParams(b->conn, "SELECT catcode FROM pg_get_keywords() WHERE word = $1", 1, NULL, params, NULL, NULL, 0);
    if (!pg_ok(b, r, "reading the server's reserved words", diags)) {
        PQclear(r);
        PQfinish(b->conn);
        return NULL;
    }
    bool reserved = PQntuples(r) > 0 && strchr("RT", PQgetvalue(r, 0, 0)[0]);
    PQclear(r);
    if (reserved) {
        pg_bad_table(diags, table,
                     "Pulumi writes it into its SQL unquoted, where a reserved SQL word is no table name (so Pulumi "
                     "cannot keep stacks in it either)");
        PQfinish(b->conn);
        return NULL;
    }
    char *quoted = PQescapeIdentifier(b->conn, folded, strlen(folded));
    b->table = arena_strdup(a, quoted);
    PQfreemem(quoted);
    b->base.read = pg_read;
    b->base.write = pg_write;
    b->base.remove = pg_remove;
    b->base.mtime = pg_mtime;
    b->base.list = pg_list;
    b->base.close = pg_close;
    b->base.begin = pg_begin;
    b->base.commit = pg_commit;
    b->base.rollback = pg_rollback;
    b->base.where = arena_sprintf(a, "table %s", folded);
    return &b->base;
}

/* ---- gzip (zlib) ------------------------------------------------------------------------------- */

static bool is_gzip(const char *d, size_t n) {
    return n >= 2 && (unsigned char)d[0] == 0x1f && (unsigned char)d[1] == 0x8b;
}

static char *gunzip(arena_t *a, const char *in, size_t n, size_t *out_len) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 15 + 32) != Z_OK) return NULL;
    buf_t out;
    buf_init(&out);
    zs.next_in = (Bytef *)in;
    zs.avail_in = (uInt)n;
    char chunk[65536];
    int rc;
    do {
        zs.next_out = (Bytef *)chunk;
        zs.avail_out = sizeof chunk;
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) break;
        buf_append(&out, chunk, sizeof chunk - zs.avail_out);
    } while (rc != Z_STREAM_END);
    inflateEnd(&zs);
    char *r = rc == Z_STREAM_END ? arena_strndup(a, out.data ? out.data : "", out.len) : NULL;
    *out_len = out.len;
    buf_free(&out);
    return r;
}

static char *gzip_bytes(arena_t *a, const char *in, size_t n, size_t *out_len) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return NULL;
    uLong cap = deflateBound(&zs, (uLong)n) + 32;
    char *out = arena_alloc(a, cap);
    zs.next_in = (Bytef *)in;
    zs.avail_in = (uInt)n;
    zs.next_out = (Bytef *)out;
    zs.avail_out = (uInt)cap;
    int rc = deflate(&zs, Z_FINISH);
    *out_len = zs.total_out;
    deflateEnd(&zs);
    return rc == Z_STREAM_END ? out : NULL;
}

/* ---- the DIY stack ----------------------------------------------------------------------------- */

struct stack_store {
    arena_t *a;
    backend_kind_t kind;
    bucket_t *bucket;
    const char *project, *stack, *url;
    const char *shown;     /* url as printed (backend_url_shown) */
    const char *stack_key; /* .pulumi/stacks/<project>/<stack>.json[.gz] */
    bool gz;
    const char *lock_key; /* ours, while held */
    bool peek;            /* opened without the lock: nothing may be written */
    const char *held_by;  /* peek: the others' locks, or NULL */
    char *raw;            /* the checkpoint as stored */
    size_t raw_len;
    char *text; /* the checkpoint JSON */
    size_t text_len;
    const char *describe;
    const char *backup;
    cloud_stack_t *cloud; /* Pulumi Cloud */
    /* A write not yet made final or taken back, and what it changed (to take it back). */
    bool pending, in_sql_txn;
    bool wrote_backup, wrote_bak, wrote_checkpoint;
    int had_bak; /* 1: .bak existed before the write (old_bak holds it), 0: it did not, -1: unknown */
    char *old_bak;
    size_t old_bak_len;
    const char *history[3]; /* the keys the write added: the history entries and a retained copy */
    int n_history;
};

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static char *rfc3339_now(arena_t *a) {
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    char b[40];
    strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return arena_strdup(a, b);
}

char *backend_uuid_v4(arena_t *a) {
    unsigned char b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t r = getrandom(b + got, sizeof b - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            abort();
        }
        got += (size_t)r;
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    return arena_sprintf(a, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
                         b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* meta.yaml: `version: N`. Missing: a new backend (version 1) unless stacks exist in the legacy
 * layout. */
static bool check_layout(stack_store_t *s, diag_list_t *diags) {
    char *meta;
    size_t len;
    int got = s->bucket->read(s->bucket, ".pulumi/meta.yaml", &meta, &len, diags);
    if (got < 0) return false;
    long version = 1;
    if (got > 0) {
        const char *v = strstr(meta, "version:");
        version = v ? strtol(v + 8, NULL, 10) : 0;
    } else {
        const char **keys;
        size_t n = s->bucket->list(s->bucket, ".pulumi/stacks", &keys, diags);
        for (size_t i = 0; i < n; i++)
            if (strstr(keys[i], ".json")) version = 0;
    }
    if (version != 1) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                 "the backend %s uses Pulumi's %s stack layout (meta.yaml version %ld); cimport writes only the "
                 "project layout (version 1): run `pulumi state upgrade` first",
                 s->shown, version == 0 ? "legacy" : "unknown", version);
        return false;
    }
    return true;
}

static const char *lock_dir(stack_store_t *s) {
    return arena_sprintf(s->a, ".pulumi/locks/organization/%s/%s", s->project, s->stack);
}

/* Every lock of the stack but ours, described as Pulumi describes them. */
static char *other_locks(stack_store_t *s, size_t *count, diag_list_t *diags) {
    const char **keys;
    size_t n = s->bucket->list(s->bucket, lock_dir(s), &keys, diags);
    buf_t b;
    buf_init(&b);
    *count = 0;
    for (size_t i = 0; i < n; i++) {
        if (s->lock_key && strcmp(keys[i], s->lock_key) == 0) continue;
        if (!strstr(keys[i], ".json")) continue;
        (*count)++;
        char *t;
        size_t len;
        const char *who = "an unknown holder";
        diag_list_t quiet;
        diag_list_init(&quiet);
        if (s->bucket->read(s->bucket, keys[i], &t, &len, &quiet) > 0) {
            cJSON *j = cJSON_ParseWithLength(t, len);
            const cJSON *u = cJSON_GetObjectItemCaseSensitive(j, "username");
            const cJSON *h = cJSON_GetObjectItemCaseSensitive(j, "hostname");
            const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "pid");
            const cJSON *ts = cJSON_GetObjectItemCaseSensitive(j, "timestamp");
            if (j)
                who = arena_sprintf(s->a, "%s@%s (pid %d) at %s", cJSON_IsString(u) ? u->valuestring : "?",
                                    cJSON_IsString(h) ? h->valuestring : "?", cJSON_IsNumber(p) ? p->valueint : 0,
                                    cJSON_IsString(ts) ? ts->valuestring : "?");
            cJSON_Delete(j);
        }
        diag_list_free(&quiet);
        buf_printf(&b, "\n  %s: created by %s", keys[i], who);
    }
    char *r = buf_arena_str(&b, s->a);
    buf_free(&b);
    return r;
}

static bool take_lock(stack_store_t *s, const stack_store_options_t *o, diag_list_t *diags) {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    struct passwd *pw = getpwuid(getuid());
    cJSON *lc = cJSON_CreateObject();
    cJSON_AddNumberToObject(lc, "pid", (double)getpid());
    cJSON_AddStringToObject(lc, "username", pw ? pw->pw_name : "unknown");
    cJSON_AddStringToObject(lc, "hostname", host);
    cJSON_AddStringToObject(lc, "timestamp", rfc3339_now(s->a));
    char *content = cJSON_PrintUnformatted(lc);
    cJSON_Delete(lc);
    const char *key = arena_sprintf(s->a, "%s/%s.json", lock_dir(s), backend_uuid_v4(s->a));
    long long deadline = now_ns() + (long long)(o->lock_timeout_ms > 0 ? o->lock_timeout_ms : 0) * 1000000LL;
    bool told = false;
    for (;;) {
        size_t n;
        char *others = other_locks(s, &n, diags);
        if (diag_has_errors(diags)) return free(content), false;
        if (n == 0) {
            if (!s->bucket->write(s->bucket, key, content, strlen(content), diags)) return free(content), false;
            s->lock_key = key;
            /* Pulumi checks again after writing: two writers at once both back off. */
            others = other_locks(s, &n, diags);
            if (n == 0) return free(content), true;
            s->bucket->remove(s->bucket, key, diags);
            s->lock_key = NULL;
        }
        if (now_ns() >= deadline) {
            char advice[DIAG_ADVICE_MAX];
            /* as long as it was waited: "300 ms" is not "0 s" */
            int ms = o->lock_timeout_ms > 0 ? o->lock_timeout_ms : 0;
            const char *waited = ms % 1000 ? arena_sprintf(s->a, "%d ms", ms) : arena_sprintf(s->a, "%d s", ms / 1000);
            diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                     "the stack %s is locked by %zu other process%s and stayed locked for %s, so nothing was "
                     "imported. Wait for it to finish and run cimport again%s; if no process is running, remove the "
                     "lock with `pulumi cancel`.%s",
                     s->describe, n, n == 1 ? "" : "es", waited, diag_advice(advice, DIAG_ADVICE_LOCK_WAIT, NULL),
                     others);
            free(content);
            return false;
        }
        if (!told && o->on_wait) {
            o->on_wait(o->user, others);
            told = true;
        }
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* Which of <stack>.json, <stack>.json.gz and <stack>.json.zst is the stack (s->stack_key, NULL: none
 * exists). Pulumi removes the others when it changes the compression, but more than one can be left (a
 * crash, a switch of PULUMI_DIY_BACKEND_GZIP or _ZSTD): then it reads the most recently modified one,
 * the later in that order of two as old (pkg/backend/diy stackPath keeps its pick only over an older
 * one; equal times come of `cp -p`, `rsync -t`, a restored archive, or rows written in one SQL
 * transaction), and so does cimport, so that it writes the one Pulumi reads. The time is the one
 * Pulumi's listing gives: a file's modification time, a PostgreSQL row's updated_at. */
static bool diy_pick_checkpoint(stack_store_t *s, const char *base, diag_list_t *diags) {
    arena_t *a = s->a;
    const char *cands[3] = {base, arena_sprintf(a, "%s.gz", base), arena_sprintf(a, "%s.zst", base)};
    long long t[3] = {0, 0, 0};
    int pick = -1;
    for (int i = 0; i < 3; i++) {
        int got = s->bucket->mtime(s->bucket, cands[i], &t[i], diags);
        if (got < 0) return false;
        if (got && (pick < 0 || t[i] >= t[pick])) pick = i; /* on equal times the later name, as stackPath */
    }
    s->stack_key = pick >= 0 ? cands[pick] : NULL;
    return true;
}

/* A journal a Pulumi operation left under .pulumi/journal/<project>/<stack>/ (Pulumi's journaling DIY
 * backend): Pulumi replays it into the checkpoint on its next operation, but only while the checkpoint
 * is the one the journal was made against (its manifest's hash); after a write by anyone else it takes
 * the entries for stale and deletes them, and what that operation did is lost from the state. */
static bool diy_no_journal(stack_store_t *s, diag_list_t *diags) {
    const char **keys = NULL;
    const char *dir = arena_sprintf(s->a, ".pulumi/journal/%s/%s", s->project, s->stack);
    size_t errors_before = diags->errors;
    size_t n = s->bucket->list(s->bucket, dir, &keys, diags);
    if (diags->errors > errors_before) return false;
    if (!n) return true;
    diag_add(diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
             "the stack '%s' of project '%s' in %s holds the journal of a Pulumi operation that did not finish (%s, "
             "%zu file%s), which Pulumi applies on its next operation only if nobody wrote the stack meanwhile; "
             "nothing was written: run `pulumi refresh` on the stack first, then import",
             s->stack, s->project, s->shown, dir, n, n == 1 ? "" : "s");
    return false;
}

static stack_store_t *diy_open(const workspace_t *w, const char *project, const stack_store_options_t *o,
                               diag_list_t *diags) {
    arena_t *a = arena_new();
    stack_store_t *s = arena_alloc(a, sizeof *s);
    memset(s, 0, sizeof *s);
    s->a = a;
    s->kind = w->backend;
    s->project = arena_strdup(a, project);
    s->stack = arena_strdup(a, w->stack);
    s->url = arena_strdup(a, w->backend_url);
    s->shown = arena_strdup(a, w->backend_shown);
    s->bucket =
        w->backend == BACKEND_FILE ? file_bucket_open(a, s->url, s->shown, diags) : pg_bucket_open(a, s->url, diags);
    s->describe = arena_sprintf(a, "organization/%s/%s at %s", project, w->stack, s->shown);
    if (!s->bucket) goto fail;
    if (!check_layout(s, diags)) goto fail;
    const char *base = arena_sprintf(a, ".pulumi/stacks/%s/%s.json", project, w->stack);
    if (!diy_pick_checkpoint(s, base, diags)) goto fail;
    char advice[DIAG_ADVICE_MAX];
    if (s->stack_key && strcmp(s->stack_key + strlen(s->stack_key) - strlen(".zst"), ".zst") == 0) {
        /* Pulumi also keeps a stack zstd-compressed: the one it reads, which cannot be read here */
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                 "the stack '%s' of project '%s' in %s is stored zstd-compressed (%s), which cimport cannot "
                 "read; nothing was written%s",
                 w->stack, project, s->shown, s->stack_key, diag_advice(advice, DIAG_ADVICE_IMPORT_OPTION, NULL));
        goto fail;
    }
    if (!s->stack_key) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL,
                 "the stack '%s' of project '%s' does not exist in %s (no %s): create it with `pulumi stack init "
                 "%s`%s",
                 w->stack, project, s->shown, base, w->stack, diag_advice(advice, DIAG_ADVICE_OTHER_STACK, NULL));
        goto fail;
    }
    s->peek = o->peek;
    if (s->peek) {
        size_t n;
        const char *others = other_locks(s, &n, diags);
        if (diag_has_errors(diags)) goto fail;
        s->held_by = n ? others : NULL;
    } else if (!take_lock(s, o, diags)) {
        goto fail;
    }
    if (!diy_no_journal(s, diags)) goto fail;
    /* Read again under the lock: what we merge into is what nobody else is changing. */
    if (s->bucket->read(s->bucket, s->stack_key, &s->raw, &s->raw_len, diags) <= 0) goto fail;
    s->gz = is_gzip(s->raw, s->raw_len);
    if (s->gz) {
        s->text = gunzip(a, s->raw, s->raw_len, &s->text_len);
        if (!s->text) {
            diag_add(diags, DIAG_ERROR, DIAG_INPUT, NULL, NULL, "%s: not a valid gzip file", s->stack_key);
            goto fail;
        }
    } else {
        s->text = s->raw;
        s->text_len = s->raw_len;
    }
    return s;
fail:
    stack_store_close(s, diags);
    return NULL;
}

stack_store_t *stack_store_open(const workspace_t *w, const char *project, const stack_store_options_t *o,
                                diag_list_t *diags) {
    stack_store_options_t def;
    if (!o) stack_store_options_default(&def), o = &def;
    if (!w->stack) {
        char advice[DIAG_ADVICE_MAX];
        diag_error(diags, DIAG_USAGE, "no stack is selected%s", diag_advice(advice, DIAG_ADVICE_SELECT_STACK, NULL));
        return NULL;
    }
    if (w->backend == BACKEND_FILE || w->backend == BACKEND_POSTGRES) return diy_open(w, project, o, diags);
    if (w->backend == BACKEND_CLOUD) {
        arena_t *a = arena_new();
        stack_store_t *s = arena_alloc(a, sizeof *s);
        memset(s, 0, sizeof *s);
        s->a = a;
        s->kind = BACKEND_CLOUD;
        s->peek = o->peek; /* the export read; Pulumi Cloud has no lock to take */
        s->cloud = cloud_stack_open(a, w, project, o, diags);
        if (!s->cloud) {
            arena_free(a);
            return NULL;
        }
        s->text = (char *)cloud_stack_text(s->cloud, &s->text_len);
        s->describe = cloud_stack_describe(s->cloud);
        s->stack_key = s->describe;
        return s;
    }
    diag_error(diags, DIAG_USAGE, "cimport cannot write stacks of %s (%s)", backend_kind_name(w->backend),
               w->backend_url ? w->backend_shown : "none");
    return NULL;
}

const char *stack_store_held_by(const stack_store_t *s) {
    return s->held_by;
}

const char *stack_store_text(const stack_store_t *s, size_t *len) {
    *len = s->text_len;
    return s->text;
}
const char *stack_store_describe(const stack_store_t *s) {
    return s->describe;
}
const char *stack_store_location(const stack_store_t *s) {
    return s->stack_key;
}
/* A bucket key as the user finds it: a path under the DIY directory, else the key in its table. */
static const char *bucket_key_where(const stack_store_t *s, const char *key) {
    if (!key || !s->bucket) return key;
    if (s->kind == BACKEND_FILE) return fb_path(s->bucket, key);
    return arena_sprintf(s->a, "%s (%s)", key, s->bucket->where);
}

const char *stack_store_unconfirmed(const stack_store_t *s) {
    return s && s->cloud ? cloud_stack_unconfirmed(s->cloud) : NULL;
}

const char *stack_store_backup(const stack_store_t *s) {
    return bucket_key_where(s, s->backup);
}

/* Takes back what diy_write wrote (newest first), from what open read: the checkpoint and its .bak
 * as they were, the backup and history entries of the write removed. */
static bool diy_take_back(stack_store_t *s, diag_list_t *diags) {
    bucket_t *b = s->bucket;
    if (s->in_sql_txn) {
        b->rollback(b);
        s->in_sql_txn = false;
        s->backup = NULL;
        return true;
    }
    diag_list_t local;
    diag_list_init(&local);
    bool ok = true;
    for (int i = s->n_history; i-- > 0;)
        ok = b->remove(b, s->history[i], &local) && ok;
    s->n_history = 0;
    if (s->wrote_checkpoint) ok = b->write(b, s->stack_key, s->raw, s->raw_len, &local) && ok;
    s->wrote_checkpoint = false;
    const char *bak = arena_sprintf(s->a, "%s.bak", s->stack_key);
    if (s->wrote_bak && s->had_bak == 1) ok = b->write(b, bak, s->old_bak, s->old_bak_len, &local) && ok;
    if (s->wrote_bak && s->had_bak == 0) ok = b->remove(b, bak, &local) && ok;
    s->wrote_bak = false;
    /* The backup last: while anything else is not back, it holds the previous checkpoint. */
    if (ok && s->wrote_backup) ok = b->remove(b, s->backup, &local);
    s->wrote_backup = false;
    if (!ok) {
        diag_list_move(diags, &local);
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "the write to the stack %s could not be fully taken back; the previous checkpoint is %s%s (`pulumi "
                 "stack import --file` of its `checkpoint.latest` restores it)",
                 s->describe, s->backup ? "kept in " : "the .bak beside ",
                 bucket_key_where(s, s->backup ? s->backup : s->stack_key));
    } else {
        s->backup = NULL;
    }
    diag_list_free(&local);
    return ok;
}

/* A DIY backend variable as Pulumi's env package reads it: PULUMI_<name>, else its alternative name
 * when that one is unset; true for "1" or "true" in any case (cmdutil.IsTruthy). */
static bool diy_env_bool(const char *name, const char *alternative) {
    const char *v = getenv(name);
    if (!v) v = getenv(alternative);
    return v && (!strcmp(v, "1") || !strcasecmp(v, "true"));
}

static bool diy_write(stack_store_t *s, const char *text, size_t len, size_t n_imported, diag_list_t *diags) {
    arena_t *a = s->a;
    bucket_t *b = s->bucket;
    long long start = (long long)time(NULL);
    const char *data = text;
    size_t dlen = len;
    if (s->gz && !(data = gzip_bytes(a, text, len, &dlen))) {
        diag_error(diags, DIAG_IO, "cannot compress the checkpoint");
        return false;
    }
    const char *ext = s->gz ? ".json.gz" : ".json";
    long long ns = now_ns();
    const char *bak = arena_sprintf(a, "%s.bak", s->stack_key);
    s->had_bak = -1;
    s->n_history = 0;
    s->wrote_backup = s->wrote_bak = s->wrote_checkpoint = false;
    if (b->begin) {
        if (!b->begin(b, diags)) return false;
        s->in_sql_txn = true;
    } else {
        /* The .bak as it is, to put it back if the write is taken back. */
        s->had_bak = b->read(b, bak, &s->old_bak, &s->old_bak_len, diags);
        if (s->had_bak < 0) return false;
    }
    /* backupStack: a copy of the checkpoint as it was, under .pulumi/backups (unless disabled). */
    if (!diy_env_bool("PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS", "PULUMI_DISABLE_CHECKPOINT_BACKUPS")) {
        s->backup = arena_sprintf(a, ".pulumi/backups/%s/%s/%s.%lld%s", s->project, s->stack, s->stack, ns, ext);
        if (!b->write(b, s->backup, s->raw, s->raw_len, diags)) goto fail;
        s->wrote_backup = true;
    }
    /* saveCheckpoint: <file>.bak, then the new checkpoint. */
    if (!b->write(b, bak, s->raw, s->raw_len, diags)) goto fail;
    s->wrote_bak = true;
    if (!b->write(b, s->stack_key, data, dlen, diags)) goto fail;
    s->wrote_checkpoint = true;
    /* retained checkpoints: the checkpoint written again as <file>.<unix ns>, as saveCheckpoint does */
    if (diy_env_bool("PULUMI_DIY_BACKEND_RETAIN_CHECKPOINTS", "PULUMI_RETAIN_CHECKPOINTS")) {
        const char *kept = arena_sprintf(a, "%s.%lld", s->stack_key, now_ns());
        if (!b->write(b, kept, data, dlen, diags)) goto fail;
        s->history[s->n_history++] = kept;
    }
    /* addToHistory: the update record and a copy of the checkpoint after it. */
    cJSON *u = cJSON_CreateObject();
    cJSON_AddStringToObject(u, "kind", "import");
    cJSON_AddNumberToObject(u, "startTime", (double)start);
    cJSON_AddStringToObject(u, "message", "");
    cJSON *env = cJSON_AddObjectToObject(u, "environment");
    cJSON_AddStringToObject(env, "exec.kind", "cimport");
    cJSON_AddObjectToObject(u, "config");
    cJSON_AddStringToObject(u, "result", "succeeded");
    cJSON_AddNumberToObject(u, "endTime", (double)time(NULL));
    cJSON *rc = cJSON_AddObjectToObject(u, "resourceChanges");
    cJSON_AddNumberToObject(rc, "import", (double)n_imported);
    char *ut = cJSON_PrintUnformatted(u);
    cJSON_Delete(u);
    const char *prefix = arena_sprintf(a, ".pulumi/history/%s/%s/%s-%lld", s->project, s->stack, s->stack, ns);
    const char *hext = s->gz ? "json.gz" : "json";
    size_t hl = strlen(ut);
    const char *hd = s->gz ? gzip_bytes(a, ut, hl, &hl) : ut;
    const char *hkeys[2] = {arena_sprintf(a, "%s.history.%s", prefix, hext),
                            arena_sprintf(a, "%s.checkpoint.%s", prefix, hext)};
    bool ok = hd != NULL;
    if (!ok) diag_error(diags, DIAG_IO, "cannot compress the history entry");
    if (ok && (ok = b->write(b, hkeys[0], hd, hl, diags))) s->history[s->n_history++] = hkeys[0];
    if (ok && (ok = b->write(b, hkeys[1], data, dlen, diags))) s->history[s->n_history++] = hkeys[1];
    free(ut);
    if (!ok) goto fail;
    s->pending = true;
    return true;
fail:
    diy_take_back(s, diags);
    return false;
}

bool stack_store_write(stack_store_t *s, const char *text, size_t len, size_t n_imported, diag_list_t *diags) {
    if (s->peek) {
        diag_add(diags, DIAG_ERROR, DIAG_GENERIC, NULL, NULL,
                 "the stack %s was opened to be read only (a preview): nothing was written", s->describe);
        return false;
    }
    if (s->kind == BACKEND_CLOUD) {
        s->pending = cloud_stack_unchanged(s->cloud, diags) && cloud_stack_import(s->cloud, text, len, diags);
        return s->pending;
    }
    return diy_write(s, text, len, n_imported, diags);
}

bool stack_store_commit(stack_store_t *s, diag_list_t *diags) {
    if (!s->pending) return true;
    s->pending = false;
    if (!s->in_sql_txn) return true;
    s->in_sql_txn = false;
    if (s->bucket->commit(s->bucket, diags)) return true;
    /* A failed COMMIT is a rollback: nothing of the write landed. */
    s->bucket->rollback(s->bucket);
    s->backup = NULL;
    diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL, "the write to the stack %s did not commit; the stack is unchanged",
             s->describe);
    return false;
}

bool stack_store_undo(stack_store_t *s, diag_list_t *diags) {
    if (!s->pending) return true;
    s->pending = false;
    if (s->kind != BACKEND_CLOUD) return diy_take_back(s, diags);
    diag_list_t local;
    diag_list_init(&local);
    bool ok = cloud_stack_restore(s->cloud, &local);
    if (!ok) {
        diag_list_move(diags, &local);
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "the import into the stack %s could not be taken back; export the previous deployment from the "
                 "stack's history in Pulumi Cloud and `pulumi stack import` it",
                 s->describe);
    }
    diag_list_free(&local);
    return ok;
}

void stack_store_close(stack_store_t *s, diag_list_t *diags) {
    if (!s) return;
    if (s->in_sql_txn && s->bucket) { /* neither committed nor taken back: not made final */
        s->bucket->rollback(s->bucket);
        s->in_sql_txn = false;
    }
    if (s->lock_key && s->bucket) {
        diag_list_t local;
        diag_list_init(&local);
        if (!s->bucket->remove(s->bucket, s->lock_key, &local))
            diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                     "there was a problem deleting the lock %s, manual clean up may be required", s->lock_key);
        diag_list_free(&local);
    }
    if (s->bucket) s->bucket->close(s->bucket);
    if (s->cloud) cloud_stack_close(s->cloud);
    arena_free(s->a);
}

/* tfmapper.c — asks installed provider plugins for their Terraform mappings (GetMapping /
 * GetMappings), in Pulumi's mapper order, with a per-plugin-version cache. See tfmapper.h.
 *
 * One event loop and one engine endpoint serve every plugin started here (plugins are started with
 * the endpoint's address, as the engine starts them, so a plugin that health-checks its engine keeps
 * running). Calls are plain unary calls over importer/grpc.h; plugins are never configured, because
 * GetMapping needs no configuration (Pulumi's converter does not configure them either). */
#include "importer/tfmapper.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "google/protobuf/empty.pb-c.h"
#include "importer/engine_endpoint.h"
#include "importer/grpc.h"
#include "importer/pbvalue.h"
#include "importer/plugin.h"
#include "migrate/convert.h"
#include "provider.pb-c.h"
#include "specs/schema.h"

#define RP "/pulumirpc.ResourceProvider/"

/* One plugin as the lookup knows it. */
typedef struct plug {
    const char *name;
    const char *path;     /* executable, NULL for attached plugins */
    const char *version;  /* from the plugin cache directory or GetPluginInfo; NULL when unknown */
    const char *where;    /* "$PATH", "plugin cache", "--attach", ... */
    int attach_port;      /* > 0: attach instead of launching */
    bool tried;           /* start attempted */
    bool up;              /* connected */
    const char *down_why; /* why it could not be started or reached */
    plugin_proc_t *proc;
    grpc_conn_t *conn;
    /* GetMappings: 0 not asked, 1 answered (list), 2 UNIMPLEMENTED, 3 failed */
    int mappings_state;
    const char **mappings;
    size_t n_mappings;
    /* GetMapping("terraform", "") for plugins without GetMappings: 0 not asked, 1 asked */
    int primary_state;
    const char *primary_provider;
    const char *primary_data;
    size_t primary_len;
    bool get_mapping_unimplemented;
} plug_t;

typedef struct mapper {
    arena_t *a;
    const tfmapper_options_t *o;
    tfmapper_stats_t *stats;
    grpc_loop_t *loop;
    engine_endpoint_t *endpoint;
    plugin_search_t search;
    plug_t *plugs;
    size_t n_plugs, cap_plugs;
    bool listed; /* every installed plugin enumerated */
    const char *cache_root;
} mapper_t;

/* --- plugins ------------------------------------------------------------------------------------- */

static plug_t *plug_get(mapper_t *m, const char *name) {
    for (size_t i = 0; i < m->n_plugs; i++)
        if (strcmp(m->plugs[i].name, name) == 0) return &m->plugs[i];
    return NULL;
}

static plug_t *plug_add(mapper_t *m, const char *name) {
    plug_t *p = plug_get(m, name);
    if (p) return p;
    m->plugs = arena_grow_array(m->a, m->plugs, &m->cap_plugs, m->n_plugs + 1, sizeof *m->plugs);
    p = &m->plugs[m->n_plugs++];
    memset(p, 0, sizeof *p);
    p->name = arena_strdup(m->a, name);
    return p;
}

static bool parse_attach(mapper_t *m, const char *text, char sep, const char *where, diag_list_t *diags) {
    const char *cut = strchr(text, sep);
    const char *port_text = cut ? cut + 1 : "";
    int port = *port_text && strspn(port_text, "0123456789") == strlen(port_text) && strlen(port_text) <= 5
                   ? (int)strtol(port_text, NULL, 10) /* at most 5 digits: no overflow */
                   : 0;
    if (!cut || cut == text || port < 1 || port > 65535) {
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, NULL, NULL,
                 "%s entry '%s' is not PACKAGE%cPORT (a port 1-65535), e.g. random%c50051", where, text, sep, sep);
        return false;
    }
    plug_t *p = plug_add(m, arena_strndup(m->a, text, (size_t)(cut - text)));
    p->attach_port = port;
    p->where = where;
    return true;
}

/* Locates a plugin by name as the import path does; NULL when it is not installed. */
static plug_t *plug_find(mapper_t *m, const char *name, buf_t *looked) {
    plug_t *p = plug_get(m, name);
    if (p && (p->attach_port || p->path)) return p;
    plugin_location_t loc;
    diag_list_t tmp;
    diag_list_init(&tmp);
    bool found = plugin_find(m->a, &m->search, name, NULL, &loc, looked, &tmp);
    diag_list_free(&tmp);
    if (!found) return NULL;
    p = plug_add(m, name);
    p->path = loc.path;
    p->version = loc.version;
    p->where = loc.origin;
    return p;
}

/* `pulumi-resource-<name>` executables in a directory. */
static void list_dir_plugins(mapper_t *m, const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "pulumi-resource-", 16) == 0 && e->d_name[16]) plug_find(m, e->d_name + 16, NULL);
    closedir(d);
}

/* Every installed plugin (attached ones are already known): project plugins, extra directories,
 * $PATH, the plugin cache (`resource-<name>-v<version>`), sorted by name for a stable order. */
static void list_all(mapper_t *m) {
    if (m->listed) return;
    m->listed = true;
    if (m->o->project_dir) list_dir_plugins(m, arena_sprintf(m->a, "%s/plugins", m->o->project_dir));
    for (size_t i = 0; i < m->o->n_plugin_dirs; i++)
        list_dir_plugins(m, m->o->plugin_dirs[i]);
    const char *path = m->o->path_env ? m->o->path_env : getenv("PATH");
    if (path) {
        char *copy = arena_strdup(m->a, path);
        for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
            list_dir_plugins(m, *dir ? dir : ".");
    }
    char *cache = plugin_cache_dir(m->a, m->o->pulumi_home);
    DIR *d = cache ? opendir(cache) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, "resource-", 9) != 0) continue;
        const char *name = e->d_name + 9;
        const char *v = NULL;
        for (const char *q = name; (q = strstr(q, "-v")); q += 2)
            if (isdigit((unsigned char)q[2])) v = q;
        if (v && v > name) plug_find(m, arena_strndup(m->a, name, (size_t)(v - name)), NULL);
    }
    if (d) closedir(d);
}

static int cmp_plug(const void *x, const void *y) {
    return strcmp(((const plug_t *)x)->name, ((const plug_t *)y)->name);
}

static const char *plug_label(mapper_t *m, const plug_t *p) {
    if (p->attach_port) return arena_sprintf(m->a, "plugin '%s' (%s port %d)", p->name, p->where, p->attach_port);
    return arena_sprintf(m->a, "pulumi-resource-%s%s%s (%s)", p->name, p->version ? " " : "",
                         p->version ? p->version : "", p->where ? p->where : "found");
}

/* Starts (or attaches to) a plugin once; false with p->down_why when it cannot be reached. */
static bool plug_start(mapper_t *m, plug_t *p) {
    if (p->tried) return p->up;
    p->tried = true;
    diag_list_t tmp;
    diag_list_init(&tmp);
    int port = p->attach_port;
    if (!port) {
        plugin_launch_options_t lo = {0};
        const char *args[1] = {engine_endpoint_address(m->endpoint)};
        lo.args = args;
        lo.n_args = 1;
        lo.cwd = m->o->project_dir;
        lo.port_timeout_ms = m->o->port_timeout_ms > 0 ? m->o->port_timeout_ms : 30000;
        p->proc = plugin_launch(m->loop, p->path, arena_sprintf(m->a, "the %s plugin", p->name), &lo, &tmp);
        if (!p->proc) {
            p->down_why =
                arena_sprintf(m->a, "could not be started: %s", tmp.head ? tmp.head->message : "unknown error");
            diag_list_free(&tmp);
            return false;
        }
        port = plugin_proc_port(p->proc);
        if (m->stats) m->stats->plugins_started++;
    } else if (m->stats) {
        m->stats->plugins_attached++;
    }
    p->conn = grpc_conn_open(m->loop, "127.0.0.1", port, &tmp);
    if (!p->conn) {
        p->down_why = arena_sprintf(m->a, "could not be reached: %s", tmp.head ? tmp.head->message : "unknown error");
        diag_list_free(&tmp);
        return false;
    }
    diag_list_free(&tmp);
    p->up = true;
    return true;
}

/* A unary call; the unpacked response (arena) or NULL with *status. */
static ProtobufCMessage *plug_call(mapper_t *m, plug_t *p, const char *method, const ProtobufCMessage *req,
                                   const ProtobufCMessageDescriptor *desc, int *status, const char **message) {
    size_t len;
    unsigned char *bytes = pbvalue_pack(req, &len);
    grpc_response_t r = {0};
    int timeout = m->o->call_timeout_ms > 0 ? m->o->call_timeout_ms : 120000;
    grpc_call_unary(p->conn, method, bytes, len, timeout, &r);
    free(bytes);
    *status = r.status;
    *message = arena_strdup(m->a, r.message ? r.message : "");
    ProtobufCMessage *out = NULL;
    if (r.status == GRPC_OK) {
        ProtobufCAllocator al = pbvalue_arena_allocator(m->a);
        out = protobuf_c_message_unpack(desc, &al, r.len, r.data);
        if (!out) {
            *status = GRPC_INTERNAL;
            *message = arena_sprintf(m->a, "a malformed %s message", desc->name);
        }
    }
    grpc_response_free(&r);
    return out;
}

/* The version for the cache key: known from the plugin cache, else GetPluginInfo (once). */
static const char *plug_version(mapper_t *m, plug_t *p) {
    if (p->version || !p->up) return p->version;
    Google__Protobuf__Empty empty = GOOGLE__PROTOBUF__EMPTY__INIT;
    int st;
    const char *msg;
    Pulumirpc__PluginInfo *info = (Pulumirpc__PluginInfo *)plug_call(m, p, RP "GetPluginInfo", &empty.base,
                                                                     &pulumirpc__plugin_info__descriptor, &st, &msg);
    if (info && info->version && *info->version) p->version = arena_strdup(m->a, info->version);
    return p->version;
}

/* --- the cache ----------------------------------------------------------------------------------- */

static char *safe_part(arena_t *a, const char *s) {
    char *c = arena_strdup(a, s);
    for (char *q = c; *q; q++)
        if (*q == '/' || *q == '\\' || (q == c && *q == '.')) *q = '_';
    return c;
}

static char *cache_file(mapper_t *m, const plug_t *p, const char *tf_provider) {
    if (!m->cache_root || !p->version) return NULL;
    return arena_sprintf(m->a, "%s/mappings/%s-%s/%s.json", m->cache_root, safe_part(m->a, p->name),
                         safe_part(m->a, p->version), safe_part(m->a, tf_provider));
}

static bool cache_read(mapper_t *m, const plug_t *p, const char *tf_provider, tfmapper_answer_t *ans) {
    char *path = cache_file(m, p, tf_provider);
    if (!path || access(path, R_OK) != 0) return false;
    size_t len;
    char *text = file_read_all(m->a, path, &len, NULL);
    if (!text || !len) return false;
    ans->data = text;
    ans->len = len;
    ans->from_cache = true;
    if (m->stats) m->stats->cache_hits++;
    return true;
}

static void cache_write(mapper_t *m, const plug_t *p, const char *tf_provider, const char *data, size_t len) {
    char *path = cache_file(m, p, tf_provider);
    if (!path) return;
    for (char *q = path + 1; *q; q++) {
        if (*q != '/') continue;
        *q = 0;
        mkdir(path, 0755);
        *q = '/';
    }
    diag_list_t tmp;
    diag_list_init(&tmp);
    file_write_atomic(path, data, len, 0644, false, &tmp); /* a cache: failing to write it is not an error */
    diag_list_free(&tmp);
}

/* --- asking ---------------------------------------------------------------------------------------- */

/* GetMapping("terraform", provider): 1 data, 0 no mapping, -1 UNIMPLEMENTED, -2 failed (why in *why). */
static int ask_mapping(mapper_t *m, plug_t *p, const char *provider, const char **data, size_t *len,
                       const char **answered_for, const char **why) {
    Pulumirpc__GetMappingRequest req = PULUMIRPC__GET_MAPPING_REQUEST__INIT;
    req.key = "terraform";
    req.provider = (char *)provider;
    int st;
    const char *msg;
    if (m->stats) m->stats->get_mapping_calls++;
    Pulumirpc__GetMappingResponse *r = (Pulumirpc__GetMappingResponse *)plug_call(
        m, p, RP "GetMapping", &req.base, &pulumirpc__get_mapping_response__descriptor, &st, &msg);
    if (!r) {
        if (st == GRPC_UNIMPLEMENTED) {
            p->get_mapping_unimplemented = true;
            return -1;
        }
        *why = arena_sprintf(m->a, "GetMapping failed (%s): %s", grpc_status_name(st), *msg ? msg : "no message");
        return -2;
    }
    *answered_for = r->provider && *r->provider ? arena_strdup(m->a, r->provider) : provider;
    if (!r->data.len) return 0;
    char *copy = arena_alloc(m->a, r->data.len + 1);
    memcpy(copy, r->data.data, r->data.len);
    copy[r->data.len] = 0;
    *data = copy;
    *len = r->data.len;
    return 1;
}

/* GetMappings("terraform") once per plugin. */
static void ask_mappings(mapper_t *m, plug_t *p) {
    if (p->mappings_state) return;
    Pulumirpc__GetMappingsRequest req = PULUMIRPC__GET_MAPPINGS_REQUEST__INIT;
    req.key = "terraform";
    int st;
    const char *msg;
    if (m->stats) m->stats->get_mappings_calls++;
    Pulumirpc__GetMappingsResponse *r = (Pulumirpc__GetMappingsResponse *)plug_call(
        m, p, RP "GetMappings", &req.base, &pulumirpc__get_mappings_response__descriptor, &st, &msg);
    if (!r) {
        p->mappings_state = st == GRPC_UNIMPLEMENTED ? 2 : 3;
        return;
    }
    p->mappings_state = 1;
    p->mappings = arena_alloc(m->a, (r->n_providers ? r->n_providers : 1) * sizeof *p->mappings);
    for (size_t i = 0; i < r->n_providers; i++)
        p->mappings[p->n_mappings++] = arena_strdup(m->a, r->providers[i]);
}

static void answer_from(mapper_t *m, plug_t *p, const char *tf_provider, const char *data, size_t len,
                        tfmapper_answer_t *ans) {
    ans->data = data;
    ans->len = len;
    ans->plugin = p->name;
    ans->origin = arena_sprintf(m->a, "GetMapping(terraform, %s) of %s", tf_provider, plug_label(m, p));
}

/* The plugin named like the provider. True when it mapped it; notes what happened otherwise. */
static bool try_named(mapper_t *m, plug_t *p, const char *tf_provider, tfmapper_answer_t *ans, buf_t *notes) {
    if (p->version && cache_read(m, p, tf_provider, ans)) {
        ans->plugin = p->name;
        ans->origin = arena_sprintf(m->a, "GetMapping(terraform, %s) of %s, cached", tf_provider, plug_label(m, p));
        return true;
    }
    if (!plug_start(m, p)) {
        buf_printf(notes, "%s%s %s", notes->len ? "; " : "", plug_label(m, p), p->down_why);
        return false;
    }
    plug_version(m, p);
    if (cache_read(m, p, tf_provider, ans)) {
        ans->plugin = p->name;
        ans->origin = arena_sprintf(m->a, "GetMapping(terraform, %s) of %s, cached", tf_provider, plug_label(m, p));
        return true;
    }
    const char *data = NULL, *for_ = NULL, *why = NULL;
    size_t len = 0;
    int r = p->get_mapping_unimplemented ? -1 : ask_mapping(m, p, tf_provider, &data, &len, &for_, &why);
    if (r == 1) {
        cache_write(m, p, tf_provider, data, len);
        answer_from(m, p, tf_provider, data, len, ans);
        return true;
    }
    /* No mapping: its schema can still confirm the default naming rule's tokens. */
    Pulumirpc__GetSchemaRequest sreq = PULUMIRPC__GET_SCHEMA_REQUEST__INIT;
    int sst;
    const char *smsg;
    Pulumirpc__GetSchemaResponse *sr = (Pulumirpc__GetSchemaResponse *)plug_call(
        m, p, RP "GetSchema", &sreq.base, &pulumirpc__get_schema_response__descriptor, &sst, &smsg);
    if (sr && sr->schema && *sr->schema) {
        ans->schema = sr->schema;
        ans->schema_len = strlen(sr->schema);
    }
    buf_printf(notes, "%s%s %s%s", notes->len ? "; " : "", plug_label(m, p),
               r == 0    ? "has no Terraform mapping for it (GetMapping returned no data)"
               : r == -1 ? "does not implement GetMapping"
                         : why,
               ans->schema ? ", and its schema (GetSchema) has no token the default naming rule derives"
                           : arena_sprintf(m->a, ", and its schema could not be read (GetSchema %s)",
                                           sst == GRPC_OK ? "returned nothing" : grpc_status_name(sst)));
    return false;
}

/* Another plugin: maps the provider when GetMappings lists it, or (without GetMappings) when its
 * primary mapping is for it. */
static bool try_other(mapper_t *m, plug_t *p, const char *tf_provider, tfmapper_answer_t *ans, buf_t *asked) {
    if (!plug_start(m, p)) {
        buf_printf(asked, "%s%s %s", asked->len ? "; " : "", plug_label(m, p), p->down_why);
        return false;
    }
    ask_mappings(m, p);
    if (p->mappings_state == 1) {
        bool listed = false;
        for (size_t i = 0; i < p->n_mappings && !listed; i++)
            listed = strcmp(p->mappings[i], tf_provider) == 0;
        if (!listed) {
            buf_printf(asked, "%s%s lists other providers in GetMappings", asked->len ? "; " : "", plug_label(m, p));
            return false;
        }
        plug_version(m, p);
        if (cache_read(m, p, tf_provider, ans)) {
            ans->plugin = p->name;
            ans->origin = arena_sprintf(m->a, "GetMapping(terraform, %s) of %s, cached", tf_provider, plug_label(m, p));
            return true;
        }
        const char *data = NULL, *for_ = NULL, *why = NULL;
        size_t len = 0;
        int r = ask_mapping(m, p, tf_provider, &data, &len, &for_, &why);
        if (r == 1) {
            cache_write(m, p, tf_provider, data, len);
            answer_from(m, p, tf_provider, data, len, ans);
            return true;
        }
        buf_printf(asked, "%s%s lists it in GetMappings but %s", asked->len ? "; " : "", plug_label(m, p),
                   r == 0    ? "GetMapping returned no data"
                   : r == -1 ? "does not implement GetMapping"
                             : why);
        return false;
    }
    /* No GetMappings: the primary mapping, asked once per plugin. */
    if (!p->primary_state && !p->get_mapping_unimplemented) {
        p->primary_state = 1;
        const char *why = NULL;
        ask_mapping(m, p, "", &p->primary_data, &p->primary_len, &p->primary_provider, &why);
    }
    if (p->primary_data && p->primary_provider && strcmp(p->primary_provider, tf_provider) == 0) {
        plug_version(m, p);
        cache_write(m, p, tf_provider, p->primary_data, p->primary_len);
        answer_from(m, p, tf_provider, p->primary_data, p->primary_len, ans);
        return true;
    }
    buf_printf(asked, "%s%s %s", asked->len ? "; " : "", plug_label(m, p),
               p->get_mapping_unimplemented ? "implements neither GetMapping nor GetMappings"
               : p->primary_data            ? arena_sprintf(m->a, "maps only provider '%s'", p->primary_provider)
                                            : "has no Terraform mapping");
    return false;
}

static void lookup_one(mapper_t *m, const char *tf_provider, tfmapper_answer_t *ans) {
    ans->tf_provider = tf_provider;
    const char *pkg = convert_tf_provider_package(tf_provider);
    buf_t notes;
    buf_init(&notes);
    plug_t *named = plug_find(m, pkg, NULL);
    if (named && try_named(m, named, tf_provider, ans, &notes)) {
        buf_free(&notes);
        return;
    }
    if (!named) buf_printf(&notes, "no plugin pulumi-resource-%s is installed", pkg);
    list_all(m);
    if (m->n_plugs > 1) qsort(m->plugs, m->n_plugs, sizeof *m->plugs, cmp_plug);
    buf_t asked;
    buf_init(&asked);
    for (size_t i = 0; i < m->n_plugs; i++) {
        plug_t *p = &m->plugs[i];
        if (strcmp(p->name, pkg) == 0) continue;
        if (try_other(m, p, tf_provider, ans, &asked)) {
            buf_free(&notes);
            buf_free(&asked);
            return;
        }
    }
    ans->why = asked.len ? arena_sprintf(m->a, "%s; other plugins asked: %s", notes.data, asked.data)
                         : arena_sprintf(m->a, "%s, and no other plugin is installed", notes.data);
    buf_free(&notes);
    buf_free(&asked);
}

bool tfmapper_lookup(arena_t *a, const tfmapper_options_t *o, const char *const *providers, size_t n,
                     tfmapper_answer_t *out, tfmapper_stats_t *stats, diag_list_t *diags) {
    mapper_t m = {0};
    m.a = a;
    m.o = o;
    m.stats = stats;
    m.search.project_dir = o->project_dir;
    m.search.dirs = o->plugin_dirs;
    m.search.n_dirs = o->n_plugin_dirs;
    m.search.path_env = o->path_env;
    m.search.pulumi_home = o->pulumi_home;
    if (!o->no_cache) {
        m.cache_root = o->cache_dir ? o->cache_dir : file_cache_root(a);
    }
    bool ok = true;
    for (size_t i = 0; i < o->n_attach; i++)
        ok = parse_attach(&m, o->attach[i], '=', "--attach", diags) && ok;
    const char *env = o->ignore_debug_env ? NULL : getenv("PULUMI_DEBUG_PROVIDERS");
    if (env && *env) {
        char *copy = arena_strdup(a, env);
        for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            while (isspace((unsigned char)*tok))
                tok++;
            if (*tok) ok = parse_attach(&m, tok, ':', "PULUMI_DEBUG_PROVIDERS", diags) && ok;
        }
    }
    if (!ok) return false;
    memset(out, 0, n * sizeof *out);
    if (!n) return true;
    m.loop = grpc_loop_new();
    m.endpoint = engine_endpoint_start(m.loop, 0, NULL, NULL, diags);
    if (!m.endpoint) {
        grpc_loop_free(m.loop);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        lookup_one(&m, providers[i], &out[i]);
    for (size_t i = 0; i < m.n_plugs; i++) {
        if (m.plugs[i].conn) grpc_conn_close(m.plugs[i].conn);
        if (m.plugs[i].proc) plugin_stop(m.plugs[i].proc, 2000);
    }
    engine_endpoint_free(m.endpoint);
    grpc_loop_free(m.loop);
    return true;
}

bool tfmapper_fill_bridge(arena_t *a, const tfmapper_options_t *o, bool no_plugins, const tf_state_t *s,
                          bridge_set_t *bridge, schema_set_t **schemas, convert_provider_hint_t **hints,
                          size_t *n_hints, tfmapper_answer_t **answers, size_t *n_answers, tfmapper_stats_t *stats,
                          diag_list_t *diags) {
    *hints = NULL;
    *n_hints = 0;
    *answers = NULL;
    *n_answers = 0;
    const char **need = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < s->n_resources; i++) {
        const tf_resource_t *r = &s->resources[i];
        if (r->is_data || !r->n_instances || bridge_find_resource(bridge, r->type) ||
            bridge_package_for_provider(bridge, r->provider_type))
            continue;
        bool dup = false;
        for (size_t k = 0; k < n && !dup; k++)
            dup = strcmp(need[k], r->provider_type) == 0;
        if (dup) continue;
        need = arena_grow_array(a, need, &cap, n + 1, sizeof *need);
        need[n++] = r->provider_type;
    }
    if (!n) return true;
    convert_provider_hint_t *h = arena_alloc(a, n * sizeof *h);
    if (no_plugins) {
        for (size_t i = 0; i < n; i++)
            h[i] = (convert_provider_hint_t){need[i], "provider plugins were not asked"};
        *hints = h;
        *n_hints = n;
        return true;
    }
    tfmapper_answer_t *ans = arena_alloc(a, n * sizeof *ans);
    if (!tfmapper_lookup(a, o, need, n, ans, stats, diags)) return false;
    size_t nh = 0;
    for (size_t i = 0; i < n; i++) {
        if (ans[i].data) {
            if (!bridge_set_add_mapping(bridge, ans[i].data, ans[i].len, need[i], ans[i].origin, diags)) return false;
        } else {
            h[nh++] = (convert_provider_hint_t){need[i], ans[i].why};
            const char *pkg = convert_tf_provider_package(need[i]);
            if (ans[i].schema && !(*schemas && schema_set_get(*schemas, pkg))) {
                diag_list_t tmp;
                diag_list_init(&tmp);
                schema_package_t *sp = schema_load_buffer(ans[i].schema, ans[i].schema_len,
                                                          arena_sprintf(a, "GetSchema of plugin '%s'", pkg), &tmp);
                diag_list_free(&tmp); /* an unreadable schema confirms nothing: the resources stay unmapped */
                if (sp) {
                    if (!*schemas) *schemas = schema_set_new();
                    schema_set_add(*schemas, sp);
                }
            }
        }
    }
    *hints = h;
    *n_hints = nh;
    *answers = ans;
    *n_answers = n;
    return true;
}

/* workspace.c — finds the Pulumi project, the selected stack and the backend (see workspace.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "stacks/backend.h"
#include "stacks/workspace.h"

backend_kind_t backend_kind_of(const char *url) {
    if (!url || !*url) return BACKEND_NONE;
    if (strncmp(url, "file://", 7) == 0) return BACKEND_FILE;
    if (strncmp(url, "postgres://", 11) == 0 || strncmp(url, "postgresql://", 13) == 0) return BACKEND_POSTGRES;
    if (strncmp(url, "https://", 8) == 0 || strncmp(url, "http://", 7) == 0) return BACKEND_CLOUD;
    return BACKEND_OTHER;
}

/* Lower-case hex SHA-1 of s (OpenSSL's EVP digest). */
static char *sha1_hex(arena_t *a, const char *s) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(s, strlen(s), md, &n, EVP_sha1(), NULL)) return NULL;
    size_t len = n;
    char *hex = arena_alloc(a, 2 * len + 1);
    for (size_t i = 0; i < len; i++) {
        static const char d[] = "0123456789abcdef";
        hex[2 * i] = d[md[i] >> 4];
        hex[2 * i + 1] = d[md[i] & 15];
    }
    hex[2 * len] = 0;
    return hex;
}

char *workspace_settings_path(arena_t *a, const char *pulumi_home, const char *project_name, const char *project_file) {
    char *h = sha1_hex(a, project_file);
    return h ? arena_sprintf(a, "%s/workspaces/%s-%s-workspace.json", pulumi_home, project_name, h) : NULL;
}

/* Reads a small JSON file; NULL when it does not exist (no diagnostic), or with one when unreadable. */
static cJSON *read_json(arena_t *a, const char *path, diag_list_t *diags, bool *bad) {
    *bad = false;
    if (access(path, F_OK) != 0) return NULL;
    size_t len;
    char *t = file_read_all(a, path, &len, diags);
    if (!t) return *bad = true, NULL;
    cJSON *j = cJSON_ParseWithLength(t, len);
    if (!j) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL, "not valid JSON; Pulumi writes this file, so check it");
        *bad = true;
    }
    return j;
}

static const char *json_str(arena_t *a, const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) && v->valuestring[0] ? arena_strdup(a, v->valuestring) : NULL;
}

static void set_stack(arena_t *a, workspace_t *w, const char *ref, const char *source) {
    w->stack_ref = arena_strdup(a, ref);
    w->stack_source = source;
    const char *last = strrchr(ref, '/');
    w->stack = last ? arena_strdup(a, last + 1) : w->stack_ref;
    const char *first = strchr(ref, '/');
    if (first) {
        size_t n = (size_t)(first - ref);
        char *org = arena_alloc(a, n + 1);
        memcpy(org, ref, n);
        org[n] = 0;
        w->stack_org = org;
    }
}

const char *workspace_stack_ref_project(arena_t *a, const workspace_t *w) {
    if (!w->stack_ref) return NULL;
    const char *first = strchr(w->stack_ref, '/'), *last = strrchr(w->stack_ref, '/');
    if (!first || first == last) return NULL;
    return arena_strndup(a, first + 1, (size_t)(last - first - 1));
}

/* A stack reference ORG/PROJECT/STACK names the project: as pulumi, one other than Pulumi.yaml's is
 * refused (the stack would be looked up in this project, another stack than the one named); and a
 * DIY backend has one organization, `organization`. */
bool workspace_stack_ref_fits(arena_t *a, const workspace_t *w, diag_list_t *diags) {
    if (w->stack && !project_name_valid(w->stack)) {
        diag_error(diags, DIAG_USAGE,
                   "the stack '%s': stack names are limited to 100 characters and may only contain alphanumerics, "
                   "hyphens, underscores, or periods (as `pulumi` refuses it)",
                   w->stack);
        return false;
    }
    if (!w->stack_ref || !w->stack_org) return true;
    /* a stack the front end was given is named as it takes it (a flag, a setting) */
    char given[DIAG_ADVICE_MAX], advice[DIAG_ADVICE_MAX];
    const char *what = w->stack_source ? arena_sprintf(a, "the stack %s selected in %s", w->stack_ref, w->stack_source)
                       : *diag_advice(given, DIAG_ADVICE_STACK_GIVEN, w->stack_ref)
                           ? given
                           : arena_sprintf(a, "the stack %s", w->stack_ref);
    const char *project = workspace_stack_ref_project(a, w);
    if (project && w->have_project && w->project.name && strcmp(project, w->project.name) != 0) {
        diag_error(diags, DIAG_USAGE, "%s names project '%s', but this is project '%s' (%s)%s", what, project,
                   w->project.name, w->project_file,
                   diag_advice(advice, DIAG_ADVICE_STACK_OF_PROJECT, w->project.name));
        return false;
    }
    if ((w->backend == BACKEND_FILE || w->backend == BACKEND_POSTGRES) && strcmp(w->stack_org, "organization") != 0) {
        diag_error(diags, DIAG_USAGE,
                   "%s names organization '%s', but a DIY backend (%s) has only 'organization': name the stack as "
                   "organization/PROJECT/STACK or just STACK",
                   what, w->stack_org, w->backend_shown);
        return false;
    }
    return true;
}

bool workspace_project_fits(const workspace_t *w, const char *project, diag_list_t *diags) {
    if (!w->have_project || !w->project.name || !project || strcmp(project, w->project.name) == 0) return true;
    char advice[DIAG_ADVICE_MAX];
    diag_error(diags, DIAG_USAGE,
               "project '%s' is not this program's ('%s', %s), whose stacks its `pulumi preview` and `pulumi up` "
               "use%s",
               project, w->project.name, w->project_file, diag_advice(advice, DIAG_ADVICE_OTHER_PROJECT, project));
    return false;
}

static bool discover(arena_t *a, const char *start, bool in_project_dir, const char *stack_flag, workspace_t *w,
                     diag_list_t *diags);

/* The working directory as `pulumi` sees it: Go's os.Getwd returns $PWD when it is absolute and names
 * the working directory (a path through a symlink, as the shell keeps it), else the resolved path; the
 * project file's path, and so the workspace settings file's name (its SHA-1), follow from it. */
static bool working_dir(char *cwd, size_t size) {
    const char *pwd = getenv("PWD");
    struct stat here, there;
    if (pwd && pwd[0] == '/' && strlen(pwd) < size && stat(".", &here) == 0 && stat(pwd, &there) == 0 &&
        here.st_dev == there.st_dev && here.st_ino == there.st_ino) {
        memcpy(cwd, pwd, strlen(pwd) + 1);
        return true;
    }
    return getcwd(cwd, size) != NULL;
}

bool workspace_discover(arena_t *a, const char *stack_flag, workspace_t *w, diag_list_t *diags) {
    char cwd[PATH_MAX];
    if (!working_dir(cwd, sizeof cwd)) {
        memset(w, 0, sizeof *w);
        diag_error(diags, DIAG_IO, "cannot tell the working directory: %s", strerror(errno));
        return false;
    }
    return discover(a, cwd, false, stack_flag, w, diags);
}

workspace_stack_status_t workspace_stack_status(const workspace_t *w, const char *stack) {
    if (!w->have_project) return WORKSPACE_NO_PROJECT;
    if (!stack) return WORKSPACE_NO_STACK;
    if (w->backend == BACKEND_NONE) return WORKSPACE_NO_BACKEND;
    if (!backend_writable(w->backend)) return WORKSPACE_BACKEND_OTHER;
    return WORKSPACE_STACK_WRITABLE;
}

bool workspace_discover_in(arena_t *a, const char *start, const char *stack_flag, workspace_t *w, diag_list_t *diags) {
    return discover(a, start, true, stack_flag, w, diags);
}

/* A relative file:// backend URL of Pulumi.yaml (`file://./state`, `file://../state`) made absolute
 * against the project's directory. Pulumi makes such a path absolute against the directory `pulumi`
 * runs in (pkg/backend/diy's massageBlobPath: filepath.Abs); a run found from elsewhere than the
 * working directory (a program named from outside its project, a language server's root) is the run
 * of `pulumi` in the project's directory (`pulumi -C DIR`), not in cimport's working directory. */
static const char *backend_url_in_project(arena_t *a, const char *url, const char *project_dir) {
    const char *path = url + strlen("file://");
    if (path[0] == '/' || path[0] == '~') return url;
    const char *query = strchr(path, '?'); /* kept as it is: the blob store's options */
    if (query) path = arena_strndup(a, path, (size_t)(query - path));
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    if (!strcmp(path, ".")) path = "";
    char abs[PATH_MAX];
    const char *dir = realpath(project_dir, abs) ? abs : project_dir;
    char *joined = arena_sprintf(a, "%s%s%s", dir, *path ? "/" : "", path);
    return arena_sprintf(a, "file://%s%s", realpath(joined, abs) ? abs : joined, /* `..` resolved where it exists */
                         query ? query : "");
}

/* A file:// URL's directory, resolved where it exists. */
static const char *file_url_dir_resolved(arena_t *a, const char *url) {
    const char *path = file_url_dir(a, url);
    char abs[PATH_MAX];
    return realpath(path, abs) ? arena_strdup(a, abs) : path;
}

/* Whether a key of the workspace file's "stacks" names the backend in use. Pulumi keys the selection
 * by the backend's URL as it was given (trailing slashes stripped, as it strips them); a DIY
 * backend's URL may be spelt otherwise (a relative path, `~`, a trailing slash, a symbolic link):
 * the same directory is the same backend. */
static bool is_this_backend(arena_t *a, const workspace_t *w, const char *key) {
    if (!w->backend_url || !key) return false;
    size_t n = strlen(key);
    while (n > 8 && key[n - 1] == '/')
        n--;
    if (n == strlen(w->backend_url) && strncmp(key, w->backend_url, n) == 0) return true;
    if (w->backend != BACKEND_FILE || backend_kind_of(key) != BACKEND_FILE) return false;
    const char *raw = w->project.backend_url; /* Pulumi.yaml's, before it was made absolute */
    if (raw && w->backend_source && strncmp(w->backend_source, "backend.url", 11) == 0 && strcmp(key, raw) == 0)
        return true;
    return strcmp(file_url_dir_resolved(a, arena_strndup(a, key, n)), file_url_dir_resolved(a, w->backend_url)) == 0;
}

/* The stack, as `pulumi` chooses it (pkg/backend/state getCurrentStackName): --stack, else
 * PULUMI_STACK, else the workspace file's selection for the backend in use ("stacks", keyed by
 * backend URL, which `pulumi stack select` writes since v3.256), else its older unscoped "stack" —
 * which, as Pulumi, counts as no selection on a DIY backend when it names another organization than
 * `organization` (a Pulumi Cloud stack selected before a `pulumi login --local`). */
static bool select_stack(arena_t *a, workspace_t *w, const char *stack_flag, diag_list_t *diags) {
    const char *env = getenv("PULUMI_STACK");
    if (stack_flag && *stack_flag) {
        set_stack(a, w, stack_flag, NULL); /* the front end's: named by diag_advice */
        return true;
    }
    if (env) { /* set but empty: no stack selected, the workspace file's aside (Pulumi's os.LookupEnv) */
        if (*env) set_stack(a, w, env, "PULUMI_STACK");
        return true;
    }
    if (!w->have_project || !w->project.name) return true;
    char *path = workspace_settings_path(a, w->pulumi_home, w->project.name, w->project_file);
    bool bad = false;
    cJSON *j = path ? read_json(a, path, diags, &bad) : NULL;
    if (!j) return !bad;
    const cJSON *scoped = cJSON_GetObjectItemCaseSensitive(j, "stacks"), *e;
    const char *s = NULL;
    buf_t elsewhere;
    buf_init(&elsewhere);
    cJSON_ArrayForEach(e, scoped) {
        if (!cJSON_IsString(e) || !e->valuestring[0]) continue;
        if (is_this_backend(a, w, e->string))
            s = arena_strdup(a, e->valuestring);
        else
            buf_printf(&elsewhere, "%s%s: %s", elsewhere.len ? ", " : "", backend_url_shown(a, e->string),
                       e->valuestring); /* the key is the URL as given to `pulumi login`, password and all */
    }
    if (!s && (s = json_str(a, j, "stack")) && (w->backend == BACKEND_FILE || w->backend == BACKEND_POSTGRES)) {
        if (strchr(s, '/') && strncmp(s, "organization/", strlen("organization/")) != 0) s = NULL;
    }
    if (s)
        set_stack(a, w, s, path);
    else if (elsewhere.len)
        w->stack_elsewhere = buf_arena_str(&elsewhere, a);
    buf_free(&elsewhere);
    cJSON_Delete(j);
    return true;
}

static bool discover(arena_t *a, const char *start, bool in_project_dir, const char *stack_flag, workspace_t *w,
                     diag_list_t *diags) {
    memset(w, 0, sizeof *w);
    const char *home = getenv("PULUMI_HOME");
    if (home && *home)
        w->pulumi_home = arena_strdup(a, home);
    else /* the account's home, as pulumihome.Dir: os/user.Current's, not $HOME's */
        w->pulumi_home = arena_sprintf(a, "%s/.pulumi", (home = file_user_home(a)) ? home : "");

    /* The project: the nearest Pulumi.yaml upward. */
    char *dir = arena_strdup(a, start);
    for (;;) {
        project_info_t pi;
        size_t errors_before = diags->errors;
        bool found = project_read(a, dir, &pi, diags);
        if (diags->errors > errors_before) return false;
        if (found) {
            w->have_project = true;
            w->project = pi;
            w->project_dir = dir;
            w->project_file = pi.path;
            break;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) {
            if (slash == dir && dir[1]) {
                dir[1] = 0;
                continue;
            }
            break;
        }
        *slash = 0;
    }

    /* The backend, and the access token for it. */
    const char *env_url = getenv("PULUMI_BACKEND_URL");
    char *creds_path = arena_sprintf(a, "%s/credentials.json", w->pulumi_home);
    bool bad;
    cJSON *creds = read_json(a, creds_path, diags, &bad);
    if (bad) return false;
    if (env_url && *env_url) {
        w->backend_url = arena_strdup(a, env_url);
        w->backend_source = "PULUMI_BACKEND_URL";
    } else if (w->have_project && w->project.backend_url) {
        w->backend_url = w->project.backend_url;
        if (in_project_dir && backend_kind_of(w->backend_url) == BACKEND_FILE)
            w->backend_url = backend_url_in_project(a, w->backend_url, w->project_dir);
        w->backend_source = arena_sprintf(a, "backend.url in %s", w->project_file);
    } else if (creds && json_str(a, creds, "current")) {
        w->backend_url = json_str(a, creds, "current");
        w->backend_source = creds_path;
    }
    /* Pulumi strips a trailing slash from backend URLs. */
    if (w->backend_url) {
        size_t n = strlen(w->backend_url);
        while (n > 8 && w->backend_url[n - 1] == '/')
            ((char *)w->backend_url)[--n] = 0;
    }
    w->backend = backend_kind_of(w->backend_url);
    w->backend_shown = backend_url_shown(a, w->backend_url);
    const char *tok = getenv("PULUMI_ACCESS_TOKEN");
    if (tok && *tok)
        w->access_token = arena_strdup(a, tok);
    else if (creds && w->backend_url) {
        const cJSON *toks = cJSON_GetObjectItemCaseSensitive(creds, "accessTokens");
        w->access_token = json_str(a, toks, w->backend_url);
    }
    cJSON_Delete(creds);
    /* The organization of an unqualified stack name on this backend, as `pulumi org set-default`
     * records it (Pulumi reads the same key: the backend URL, trailing slashes stripped). */
    const char *url = w->backend_url;
    cJSON *cfg = url ? read_json(a, arena_sprintf(a, "%s/config.json", w->pulumi_home), diags, &bad) : NULL;
    if (bad) return false;
    const cJSON *be = cJSON_GetObjectItemCaseSensitive(cfg, "backends"), *e;
    cJSON_ArrayForEach(e, be) {
        const char *key = e->string, *org = json_str(a, e, "defaultOrg");
        size_t n = key ? strlen(key) : 0;
        while (n > 8 && key[n - 1] == '/')
            n--;
        if (url && key && org && *org && n == strlen(url) && strncmp(key, url, n) == 0)
            w->default_org = w->set_default_org = org;
    }
    cJSON_Delete(cfg);
    /* PULUMI_DEFAULT_ORGANIZATION "takes precedence over any default organization set with `pulumi org
     * set-default`" (Pulumi's env.DefaultOrg), also as the configured one a selected name is qualified
     * with (pkg/backend's getBackendConfigDefaultOrg; read18 F6). */
    const char *env_org = getenv("PULUMI_DEFAULT_ORGANIZATION");
    if (env_org && *env_org) w->default_org = w->set_default_org = arena_strdup(a, env_org);
    return select_stack(a, w, stack_flag, diags);
}

static bool is_password_param(const char *p, size_t n) {
    static const char *const names[] = {"password", "sslpassword", "token", "access_token"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (n == strlen(names[i]) && memcmp(p, names[i], n) == 0) return true;
    return false;
}

const char *backend_url_shown(arena_t *a, const char *url) {
    if (!url) return NULL;
    buf_t b;
    buf_init(&b);
    const char *sep = strstr(url, "://");
    const char *p = url;
    if (sep) {
        const char *auth = sep + 3;
        const char *end = auth + strcspn(auth, "/?#");
        const char *at = NULL;
        for (const char *q = auth; q < end; q++)
            if (*q == '@') at = q;
        const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
        /* A user name alone is no secret to libpq (a role), but Pulumi Cloud has no use for one: in
         * an http(s) URL it can only be a credential (a token written as the user). */
        bool web = (sep - url == 4 && strncasecmp(url, "http", 4) == 0) ||
                   (sep - url == 5 && strncasecmp(url, "https", 5) == 0);
        if (colon) {
            buf_append(&b, url, (size_t)(colon + 1 - url));
            buf_puts(&b, "xxxxx");
            p = at;
        } else if (at && web) {
            buf_append(&b, url, (size_t)(auth - url));
            buf_puts(&b, "xxxxx");
            p = at;
        }
    }
    const char *query = strchr(p, '?');
    if (!query) {
        buf_puts(&b, p);
    } else {
        buf_append(&b, p, (size_t)(query + 1 - p));
        for (const char *q = query + 1; *q;) {
            size_t n = strcspn(q, "&#");
            const char *eq = memchr(q, '=', n);
            if (eq && is_password_param(q, (size_t)(eq - q))) {
                buf_append(&b, q, (size_t)(eq + 1 - q));
                buf_puts(&b, "xxxxx");
            } else {
                buf_append(&b, q, n);
            }
            q += n;
            if (*q == '#') {
                buf_puts(&b, q);
                break;
            }
            if (*q == '&') buf_putc(&b, *q++);
        }
    }
    const char *out = buf_arena_str(&b, a);
    buf_free(&b);
    return out;
}

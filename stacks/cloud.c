/* cloud.c — Pulumi Cloud stacks through the documented REST API, over libcurl:
 *   GET  <url>/api/user                                         the login (the default organization)
 *   GET  <url>/api/stacks/<org>/<project>/<stack>/export         the deployment (UntypedDeployment)
 *   POST <url>/api/stacks/<org>/<project>/<stack>/import         the merged deployment → {"updateId"}
 *   GET  <url>/api/stacks/<org>/<project>/<stack>/update/<id>    its status, until it has finished
 * with `Authorization: token <access token>` and `Accept: application/vnd.pulumi+8`. 401, 403, 404
 * and 409 (another update in progress) are reported as such; 5xx answers and lost connections are
 * tried again (stack_store_options_t.retries, doubling delay). */
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/dynlib.h"
#include "stacks/backend_internal.h"

struct cloud_stack {
    arena_t *a;
    const char *base; /* <url>/api/stacks/<org>/<project>/<stack> */
    const char *token;
    const char *describe;
    const char *url, *shown; /* the backend URL, and as printed (backend_url_shown: no credentials) */
    stack_store_options_t o;
    char *text;
    size_t len;
    const char *unconfirmed; /* an import the service accepted whose outcome cimport did not see */
};

typedef struct {
    long status;
    buf_t body;
    char err[CURL_ERROR_SIZE];
} http_answer_t;

static size_t on_data(char *p, size_t sz, size_t n, void *user) {
    buf_append(&((http_answer_t *)user)->body, p, sz * n);
    return sz * n;
}

static long long mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000LL + ts.tv_nsec / 1000000L;
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A request's URL as printed: the backend URL's part of it as backend_url_shown shows it. */
static const char *url_shown(const cloud_stack_t *c, const char *url) {
    size_t n = strlen(c->url);
    if (strncmp(url, c->url, n) == 0) return arena_sprintf(c->a, "%s%s", c->shown, url + n);
    return "(a URL cimport made of no backend URL)"; /* never: every request is made of it */
}

/* One request, tried again on 5xx and transport errors. False with a diagnostic when it never got
 * an answer below 500; otherwise the status and body are in ans (caller frees ans->body). */
static bool http(cloud_stack_t *c, const char *method, const char *url, const char *body, size_t len,
                 http_answer_t *ans, diag_list_t *diags) {
    int tries = c->o.retries > 0 ? c->o.retries : 1, delay = c->o.retry_delay_ms > 0 ? c->o.retry_delay_ms : 500;
    for (int attempt = 1;; attempt++) {
        memset(ans, 0, sizeof *ans);
        buf_init(&ans->body);
        CURL *h = curl_easy_init();
        if (!h) {
            const char *why = dynlib_curl_error();
            diag_error(diags, DIAG_IO, "cannot start an HTTP client: %s", *why ? why : "libcurl could not start");
            return false;
        }
        struct curl_slist *hdr = NULL;
        char auth[4096];
        snprintf(auth, sizeof auth, "Authorization: token %s", c->token);
        hdr = curl_slist_append(hdr, auth);
        hdr = curl_slist_append(hdr, "Accept: application/vnd.pulumi+8");
        hdr = curl_slist_append(hdr, "Content-Type: application/json");
        hdr = curl_slist_append(hdr, "User-Agent: cimport");
        curl_easy_setopt(h, CURLOPT_URL, url);
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
        if (body) {
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        }
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, ans);
        curl_easy_setopt(h, CURLOPT_ERRORBUFFER, ans->err);
        curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 20L);
        curl_easy_setopt(h, CURLOPT_TIMEOUT, 300L);
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
        CURLcode rc = curl_easy_perform(h);
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &ans->status);
        curl_slist_free_all(hdr);
        curl_easy_cleanup(h);
        bool retry = rc != CURLE_OK || ans->status >= 500;
        if (!retry) return true;
        if (attempt >= tries) {
            url = url_shown(c, url); /* printed without the backend URL's credentials */
            if (rc != CURLE_OK)
                diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL, "Pulumi Cloud: %s %s failed %d times: %s", method, url,
                         attempt, ans->err[0] ? ans->err : curl_easy_strerror(rc));
            else if (!strcmp(method, "GET"))
                diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                         "Pulumi Cloud: %s %s answered %ld (a server error) %d times; nothing was imported, try again "
                         "later",
                         method, url, ans->status, attempt);
            else /* a server error can come after the service took the request (a gateway's timeout) */
                diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                         "Pulumi Cloud: %s %s answered %ld (a server error) %d times", method, url, ans->status,
                         attempt);
            buf_free(&ans->body);
            return false;
        }
        buf_free(&ans->body);
        sleep_ms(delay);
        delay *= 2;
    }
}

/* A non-2xx answer as a diagnostic a user can act on. */
static void http_error(cloud_stack_t *c, const char *what, http_answer_t *ans, diag_list_t *diags) {
    char advice[DIAG_ADVICE_MAX];
    const char *msg = "";
    cJSON *j = ans->body.len ? cJSON_ParseWithLength(ans->body.data, ans->body.len) : NULL;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "message");
    if (cJSON_IsString(m)) msg = arena_sprintf(c->a, ": %s", m->valuestring);
    switch (ans->status) {
    case 401:
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "Pulumi Cloud refused the access token (401 Unauthorized) while %s%s; log in again with `pulumi "
                 "login` or set PULUMI_ACCESS_TOKEN",
                 what, msg);
        break;
    case 403:
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "Pulumi Cloud: you may not write the stack %s (403 Forbidden) while %s%s", c->describe, what, msg);
        break;
    case 404:
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "Pulumi Cloud has no stack %s (404 Not Found) while %s%s: create it with `pulumi stack init`%s",
                 c->describe, what, msg, diag_advice(advice, DIAG_ADVICE_OTHER_STACK, NULL));
        break;
    case 409:
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "another update is in progress on the stack %s (409 Conflict) while %s%s; nothing was imported. Wait "
                 "for it to finish and run cimport again (`pulumi cancel` stops a stuck one)",
                 c->describe, what, msg);
        break;
    default:
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL, "Pulumi Cloud answered %ld while %s%s", ans->status, what,
                 msg);
    }
    cJSON_Delete(j);
}

cloud_stack_t *cloud_stack_open(arena_t *a, const workspace_t *w, const char *project, const stack_store_options_t *o,
                                diag_list_t *diags) {
    static bool curl_ready;
    if (!curl_ready) curl_global_init(CURL_GLOBAL_DEFAULT), curl_ready = true;
    cloud_stack_t *c = arena_alloc(a, sizeof *c);
    memset(c, 0, sizeof *c);
    c->a = a;
    c->o = *o;
    c->url = arena_strdup(a, w->backend_url);
    c->shown = arena_strdup(a, w->backend_shown);
    if (!w->access_token) {
        diag_add(diags, DIAG_ERROR, DIAG_USAGE, NULL, NULL,
                 "no access token for %s: log in with `pulumi login %s` (its credentials.json is read) or set "
                 "PULUMI_ACCESS_TOKEN",
                 w->backend_shown, w->backend_shown);
        return NULL;
    }
    c->token = w->access_token;
    const char *org = w->stack_org;
    http_answer_t ans;
    c->describe = arena_sprintf(a, "%s/%s at %s", project, w->stack, w->backend_shown);
    /* An unqualified stack name is in the default organization, found as pulumi finds it:
     * PULUMI_DEFAULT_ORGANIZATION, else `pulumi org set-default` (config.json), else the service's opinion,
     * else the user's own. But one selected (the workspace file, PULUMI_STACK), not given, is the user's
     * own unless the user configured an organization (PULUMI_DEFAULT_ORGANIZATION, `pulumi org
     * set-default`): Pulumi's CurrentStack qualifies it so first (getStackNameWithLegacyOrgNameIfNeeded,
     * GetLegacyDefaultOrgFallback, whose getBackendConfigDefaultOrg reads both). */
    bool users = w->stack_source && !w->set_default_org;
    if (!org && !users) org = w->default_org;
    if (!org && !users) {
        if (!http(c, "GET", arena_sprintf(a, "%s/api/user/organizations/default", w->backend_url), NULL, 0, &ans,
                  diags))
            return NULL;
        if (ans.status == 200) {
            cJSON *j = cJSON_ParseWithLength(ans.body.data ? ans.body.data : "", ans.body.len);
            const cJSON *login = cJSON_GetObjectItemCaseSensitive(j, "GitHubLogin");
            if (cJSON_IsString(login) && *login->valuestring) org = arena_strdup(a, login->valuestring);
            cJSON_Delete(j);
        } else if (ans.status != 404) { /* 404: a service with no such opinion (pulumi asks the user then) */
            http_error(c, "reading the default organization", &ans, diags);
            buf_free(&ans.body);
            return NULL;
        }
        buf_free(&ans.body);
    }
    if (!org) {
        /* No default organization set: the user's own. */
        if (!http(c, "GET", arena_sprintf(a, "%s/api/user", w->backend_url), NULL, 0, &ans, diags)) return NULL;
        if (ans.status != 200) {
            http_error(c, "reading the user", &ans, diags);
            buf_free(&ans.body);
            return NULL;
        }
        cJSON *j = cJSON_ParseWithLength(ans.body.data ? ans.body.data : "", ans.body.len);
        const cJSON *login = cJSON_GetObjectItemCaseSensitive(j, "githubLogin");
        if (cJSON_IsString(login)) org = arena_strdup(a, login->valuestring);
        cJSON_Delete(j);
        buf_free(&ans.body);
        if (!org) {
            char advice[DIAG_ADVICE_MAX];
            diag_error(diags, DIAG_IO, "Pulumi Cloud did not say who you are (no githubLogin)%s",
                       diag_advice(advice, DIAG_ADVICE_STACK_ORG, arena_sprintf(a, "%s/%s", project, w->stack)));
            return NULL;
        }
    }
    c->describe = arena_sprintf(a, "%s/%s/%s at %s", org, project, w->stack, w->backend_shown);
    c->base = arena_sprintf(a, "%s/api/stacks/%s/%s/%s", w->backend_url, org, project, w->stack);
    if (!http(c, "GET", arena_sprintf(a, "%s/export", c->base), NULL, 0, &ans, diags)) return NULL;
    if (ans.status != 200) {
        http_error(c, "exporting the stack", &ans, diags);
        buf_free(&ans.body);
        return NULL;
    }
    c->text = arena_strndup(a, ans.body.data ? ans.body.data : "", ans.body.len);
    c->len = ans.body.len;
    buf_free(&ans.body);
    return c;
}

const char *cloud_stack_text(const cloud_stack_t *c, size_t *len) {
    *len = c->len;
    return c->text;
}

const char *cloud_stack_describe(const cloud_stack_t *c) {
    return c->describe;
}

bool cloud_stack_unchanged(cloud_stack_t *c, diag_list_t *diags) {
    http_answer_t ans;
    if (!http(c, "GET", arena_sprintf(c->a, "%s/export", c->base), NULL, 0, &ans, diags)) return false;
    if (ans.status != 200) {
        http_error(c, "exporting the stack again before the import", &ans, diags);
        buf_free(&ans.body);
        return false;
    }
    /* The deployments compared as JSON values: the same state however the answer is spelled. */
    cJSON *now = cJSON_ParseWithLength(ans.body.data ? ans.body.data : "", ans.body.len);
    cJSON *then = cJSON_ParseWithLength(c->text, c->len);
    buf_free(&ans.body);
    if (!now || !then) { /* not a sign of another update: say what it is */
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "exporting the stack %s again before the import: the answer is not a JSON document, so cimport "
                 "cannot tell whether another update ran meanwhile; nothing was imported; run cimport again",
                 c->describe);
        cJSON_Delete(now);
        cJSON_Delete(then);
        return false;
    }
    const cJSON *dn = cJSON_GetObjectItemCaseSensitive(now, "deployment");
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(then, "deployment");
    /* an export without a deployment (never seen from Pulumi Cloud) is compared whole */
    bool same = dn || dt ? cJSON_Compare(dn, dt, true) : cJSON_Compare(now, then, true);
    cJSON_Delete(now);
    cJSON_Delete(then);
    if (!same)
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "the stack %s changed since cimport read it (another update ran meanwhile): importing the merged "
                 "deployment would undo that update, so nothing was imported; run cimport again",
                 c->describe);
    return same;
}

bool cloud_stack_import(cloud_stack_t *c, const char *text, size_t len, diag_list_t *diags) {
    http_answer_t ans;
    const char *import_url = arena_sprintf(c->a, "%s/import", c->base);
    if (!http(c, "POST", import_url, text, len, &ans, diags)) {
        /* No answer below 500 to any try: the service may have taken one of them (a gateway that timed
         * out on a request it passed on), so the outcome is not known — not "nothing was imported". */
        c->unconfirmed = arena_sprintf(c->a, "the request POST %s got no answer", url_shown(c, import_url));
        diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                 "whether the import into the stack %s lands is not known: %s. Check the stack's updates (`pulumi "
                 "stack history`, or the stack's activity in Pulumi Cloud), then run cimport again: if the import "
                 "landed, it finds the resources in the stack and writes their code",
                 c->describe, c->unconfirmed);
        return false;
    }
    if (ans.status != 200 && ans.status != 201 && ans.status != 202) {
        http_error(c, "importing the merged deployment", &ans, diags);
        buf_free(&ans.body);
        return false;
    }
    cJSON *j = cJSON_ParseWithLength(ans.body.data ? ans.body.data : "", ans.body.len);
    buf_free(&ans.body);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "updateId");
    char *update = cJSON_IsString(id) ? arena_strdup(c->a, id->valuestring) : NULL;
    cJSON_Delete(j);
    if (!update) return true; /* a synchronous import */
    /* Wait for the import update to finish. The service has the deployment from here on: a wait that
     * ends without the update's outcome (still running, an answer cimport cannot read) is not
     * "nothing imported" — the update may land after cimport stops — so it is said to be unknown. */
    const char *update_url = arena_sprintf(c->a, "%s/update/%s", c->base, update);
    long long deadline = mono_ms() + (c->o.import_wait_ms > 0 ? c->o.import_wait_ms : 0);
    const char *last = "";
    for (;;) {
        if (!http(c, "GET", update_url, NULL, 0, &ans, diags)) break;
        if (ans.status != 200) {
            http_error(c, "waiting for the import", &ans, diags);
            buf_free(&ans.body);
            break;
        }
        cJSON *u = cJSON_ParseWithLength(ans.body.data ? ans.body.data : "", ans.body.len);
        buf_free(&ans.body);
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(u, "status");
        char *status = cJSON_IsString(st) ? arena_strdup(c->a, st->valuestring) : arena_strdup(c->a, "");
        cJSON_Delete(u);
        if (!strcmp(status, "succeeded")) return true;
        if (!strcmp(status, "failed") || !strcmp(status, "cancelled")) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL, "Pulumi Cloud: the import of %s %s", c->describe, status);
            return false;
        }
        last = status;
        if (mono_ms() >= deadline) {
            diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
                     "Pulumi Cloud: the import of %s had not finished after %d s (its update's status: %s)",
                     c->describe, (c->o.import_wait_ms + 999) / 1000, *last ? last : "none given");
            break;
        }
        sleep_ms(200);
    }
    c->unconfirmed = arena_sprintf(c->a, "update %s (%s)", update, url_shown(c, update_url));
    diag_add(diags, DIAG_ERROR, DIAG_IO, NULL, NULL,
             "whether the import into the stack %s lands is not known: Pulumi Cloud accepted it as %s and cimport did "
             "not see it finish. Check the stack's updates (`pulumi stack history`, or the stack's activity in Pulumi "
             "Cloud), then run cimport again: if the import landed, it finds the resources in the stack and writes "
             "their code",
             c->describe, c->unconfirmed);
    return false;
}

const char *cloud_stack_unconfirmed(const cloud_stack_t *c) {
    return c->unconfirmed;
}

/* Pulumi Cloud has no transaction and no way to drop an update: an import is taken back by importing
 * the deployment exported at open (the stack's history keeps both updates). */
bool cloud_stack_restore(cloud_stack_t *c, diag_list_t *diags) {
    return cloud_stack_import(c, c->text, c->len, diags);
}

void cloud_stack_close(cloud_stack_t *c) {
    (void)c;
}

/* registry.c — one provider per package+version for the whole run, and one per explicit provider
 * (see provider.h). */
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "importer/grpc.h"
#include "importer/provider.h"

typedef struct registry_entry {
    char *package;
    char *version;
    char *name;           /* the explicit provider's URN; NULL: the package's default provider */
    provider_t *provider; /* NULL: creation failed, `failure` says why */
    diag_list_t failure;
} registry_entry_t;

struct provider_registry {
    provider_factory_fn factory;
    provider_configured_factory_fn configured; /* NULL: explicit providers get the default one */
    void *user;
    registry_entry_t *entries;
    size_t n, cap;
};

provider_registry_t *provider_registry_new(provider_factory_fn factory, void *user) {
    provider_registry_t *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->factory = factory;
    r->user = user;
    return r;
}

static bool same(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

void provider_registry_set_configured(provider_registry_t *r, provider_configured_factory_fn factory) {
    r->configured = factory;
}

provider_t *provider_registry_get_for(provider_registry_t *r, const char *package, const char *version,
                                      const char *download_url, const char *name, const pv_t *config,
                                      diag_list_t *diags) {
    if (!r->configured) name = NULL;
    for (size_t i = 0; i < r->n; i++) {
        registry_entry_t *e = &r->entries[i];
        if (strcmp(e->package, package) == 0 && same(e->version, version) && same(e->name, name)) {
            if (!e->provider)
                for (diag_t *d = e->failure.head; d; d = d->next)
                    diag_add(diags, d->severity, d->code, d->file, d->resource, "%s", d->message);
            return e->provider;
        }
    }
    r->entries = vec_grow(r->entries, &r->cap, r->n + 1, sizeof *r->entries);
    registry_entry_t *e = &r->entries[r->n++];
    memset(e, 0, sizeof *e);
    e->package = strdup(package);
    e->version = version ? strdup(version) : NULL;
    e->name = name ? strdup(name) : NULL;
    diag_list_init(&e->failure);
    e->provider = name ? r->configured(r->user, package, version, download_url, name, config, &e->failure)
                       : r->factory(r->user, package, version, download_url, &e->failure);
    for (diag_t *d = e->failure.head; d; d = d->next)
        diag_add(diags, d->severity, d->code, d->file, d->resource, "%s", d->message);
    return e->provider;
}

provider_t *provider_registry_get(provider_registry_t *r, const char *package, const char *version,
                                  const char *download_url, diag_list_t *diags) {
    return provider_registry_get_for(r, package, version, download_url, NULL, NULL, diags);
}

/* A turn on each of several loops: long enough not to spin, short enough that no loop starves. */
#define REGISTRY_SLICE_MS 2

size_t provider_registry_poll(provider_registry_t *r, int timeout_ms) {
    size_t ran = 0;
    for (size_t i = 0; i < r->n; i++) {
        provider_t *p = r->entries[i].provider;
        if (p && p->ops->poll) ran += p->ops->poll(p);
    }
    if (ran) return ran;
    /* Distinct loops, in registry order (a handful of providers: a linear scan is fine). */
    grpc_loop_t *loops[64];
    size_t n_loops = 0;
    for (size_t i = 0; i < r->n && n_loops < sizeof loops / sizeof loops[0]; i++) {
        provider_t *p = r->entries[i].provider;
        grpc_loop_t *l = p && p->ops->event_loop ? p->ops->event_loop(p) : NULL;
        bool seen = false;
        for (size_t k = 0; k < n_loops; k++)
            seen = seen || loops[k] == l;
        if (l && !seen) loops[n_loops++] = l;
    }
    if (n_loops == 0) return 0;
    if (n_loops == 1) return grpc_loop_run_once(loops[0], timeout_ms) ? 1 : 0;
    int slice = timeout_ms >= 0 && timeout_ms < REGISTRY_SLICE_MS ? timeout_ms : REGISTRY_SLICE_MS;
    bool any = false;
    for (size_t k = 0; k < n_loops; k++)
        any = grpc_loop_run_once(loops[k], slice) || any;
    return any ? 1 : 0;
}

void provider_registry_cancel_all(provider_registry_t *r) {
    for (size_t i = 0; r && i < r->n; i++) {
        provider_t *p = r->entries[i].provider;
        if (p && p->ops->cancel_all) p->ops->cancel_all(p);
    }
}

const pv_t *provider_registry_checked_config(provider_registry_t *r, const char *package) {
    for (size_t i = 0; r && i < r->n; i++) {
        const registry_entry_t *e = &r->entries[i];
        if (e->name || !e->provider || strcmp(e->package, package) != 0 || !e->provider->ops->checked_config) continue;
        const pv_t *c = e->provider->ops->checked_config(e->provider);
        if (c) return c;
    }
    return NULL;
}

const pv_t *provider_registry_checked_config_of(provider_registry_t *r, const char *name) {
    for (size_t i = 0; r && name && i < r->n; i++) {
        const registry_entry_t *e = &r->entries[i];
        if (!e->name || strcmp(e->name, name) != 0 || !e->provider || !e->provider->ops->checked_config) continue;
        const pv_t *c = e->provider->ops->checked_config(e->provider);
        if (c) return c;
    }
    return NULL;
}

void provider_registry_free(provider_registry_t *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) {
        registry_entry_t *e = &r->entries[i];
        if (e->provider && e->provider->ops->close) e->provider->ops->close(e->provider);
        diag_list_free(&e->failure);
        free(e->package);
        free(e->version);
        free(e->name);
    }
    free(r->entries);
    free(r);
}

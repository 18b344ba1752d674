/* convert.c — Terraform state and Pulumi stack exports into import files; Terraform state into a
 * Pulumi-typed stack snapshot for the offline provider.
 *
 * The Terraform side runs one pass over the state (tf_plan) that decides, for every instance, its
 * Pulumi type, spec name, import ID and explicit provider, and records the outcome in the report.
 * The import file writer and the snapshot writer both consume that pass, so a name or ID in the
 * import file always matches the snapshot the offline provider serves. */
#include "migrate/convert.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base64.h"
#include "base/fileio.h"
#include "base/hashmap.h"
#include "specs/importid.h"
#include "specs/readable_name.h"
#include "specs/stackstate.h"

/* --- names already used: a base/hashmap used as a set (keys only), freed with its arena ---------- */

static void used_release(void *m) {
    hashmap_free(m);
}

static hashmap_t *used_new(arena_t *a) {
    hashmap_t *m = arena_alloc(a, sizeof *m);
    arena_on_free(a, used_release, m);
    return m;
}

static bool used_has(const hashmap_t *m, const char *name) {
    return hashmap_find_str(m, name) != NULL;
}

/* name must live as long as the set (an arena string). */
static void used_add(hashmap_t *m, const char *name) {
    hashmap_add_str(m, name, NULL);
}

/* A name not used yet: base, else base_2, base_3, ... */
static const char *unique_name(arena_t *a, hashmap_t *used, const char *base) {
    const char *name = base;
    for (int n = 2; used_has(used, name); n++)
        name = arena_sprintf(a, "%s_%d", base, n);
    used_add(used, name);
    return name;
}

/* Whether Terraform marks the top-level attribute sensitive (in the state, or the provider's schema). */
static bool tf_attr_sensitive(bridge_set_t *bridge, const tf_resource_t *r, const tf_instance_t *inst,
                              const char *attr) {
    const char *path[1] = {attr};
    return tfstate_instance_sensitive(inst, attr) || bridge_tf_sensitive(bridge, r->type, path, 1);
}

/* A name for a Terraform instance whose own name is taken already: one that reads like the resource
 * (its `name` or `tags.Name` attribute, unless Terraform marks it sensitive: the value would land in
 * the import file, the code and the URN; then its type), before falling back to base_2, base_3... */
static const char *readable_unique_name(arena_t *a, hashmap_t *used, const char *base, const tf_resource_t *r,
                                        const tf_instance_t *inst, bridge_set_t *bridge) {
    if (!used_has(used, base)) return unique_name(a, used, base);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(inst->attributes, "name");
    const cJSON *tags = cJSON_GetObjectItemCaseSensitive(inst->attributes, "tags");
    const cJSON *tag = cJSON_GetObjectItemCaseSensitive(tags, "Name");
    const char *cands[3] = {
        cJSON_IsString(name) && name->valuestring[0] ? name->valuestring : NULL,
        cJSON_IsString(tag) && tag->valuestring[0] ? tag->valuestring : NULL,
        NULL,
    };
    if (cands[0] && tf_attr_sensitive(bridge, r, inst, "name")) cands[0] = NULL;
    if (cands[1] && tf_attr_sensitive(bridge, r, inst, "tags")) cands[1] = NULL;
    /* the type without its provider prefix: aws_lb_target_group → lb_target_group */
    const char *us = strchr(r->type, '_');
    cands[2] = arena_sprintf(a, "%s_%s", base, us ? us + 1 : r->type);
    for (int i = 0; i < 3; i++) {
        if (!cands[i] || strlen(cands[i]) > 64) continue;
        const char *c = convert_sanitize_name(a, cands[i]);
        if (!used_has(used, c)) {
            used_add(used, c);
            return c;
        }
    }
    return unique_name(a, used, base);
}

/* A spec name for a resource of a stack export: its URN name, else one that reads like the resource
 * (its type, then module and type, then its ID: `vpc_vpc`, not `vpc_2`), numbered only when all
 * of these are taken. */
static const char *export_unique_name(arena_t *a, hashmap_t *used, const char *base, const char *type, const char *id) {
    if (used_has(used, base)) {
        const char *c[READABLE_MAX];
        size_t n = readable_name_candidates(a, READABLE_SNAKE, base, type, NULL, id, c);
        for (size_t i = 0; i < n; i++) {
            if (used_has(used, c[i])) continue;
            used_add(used, c[i]);
            return c[i];
        }
    }
    return unique_name(a, used, base);
}

/* --- report -------------------------------------------------------------------------------------- */

convert_entry_t *convert_report_add(arena_t *a, convert_report_t *r, convert_outcome_t outcome, const char *address,
                                    const char *source_type) {
    r->entries = arena_grow_array(a, r->entries, &r->cap_entries, r->n_entries + 1, sizeof *r->entries);
    convert_entry_t *e = &r->entries[r->n_entries++];
    e->address = address;
    e->source_type = source_type;
    e->outcome = outcome;
    switch (outcome) {
    case CONVERT_CONVERTED: r->converted++; break;
    case CONVERT_SKIPPED: r->skipped++; break;
    case CONVERT_UNMAPPED: r->unmapped++; break;
    case CONVERT_NO_ID: r->no_id++; break;
    }
    return e;
}

/* --- names --------------------------------------------------------------------------------------- */

/* Length of the UTF-8 sequence at p (1 for a stray byte) and its code point. */
static size_t utf8_rune(const unsigned char *p, unsigned *cp) {
    size_t n = *p < 0x80 ? 1 : (*p >> 5) == 6 ? 2 : (*p >> 4) == 14 ? 3 : (*p >> 3) == 30 ? 4 : 1;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) n = 1;
    *cp = n == 1 ? *p : n == 2 ? (*p & 0x1Fu) : n == 3 ? (*p & 0x0Fu) : (*p & 0x07u);
    for (size_t i = 1; i < n; i++)
        *cp = (*cp << 6) | (p[i] & 0x3Fu);
    return n;
}

/* Go's unicode.IsLetter/IsDigit, closely enough for names: ASCII letters and digits, and outside
 * ASCII the letter blocks (Latin-1 and Latin Extended without × ÷, Greek through the Indic and other
 * scripts, CJK, Hangul). Punctuation, symbols and spaces are not. */
static bool rune_is_letter_or_digit(unsigned cp) {
    if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    if (cp == 0xD7 || cp == 0xF7) return false;
    return (cp >= 0xC0 && cp <= 0x24F) || (cp >= 0x370 && cp <= 0x1FFF && cp != 0x37E && cp != 0x387) ||
           (cp >= 0x3040 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7A3);
}

char *convert_sanitize_name(arena_t *a, const char *name) {
    buf_t b;
    buf_init(&b);
    /* pulumi-converter-terraform: a leading digit gets `_` in front; every rune that is not a
     * letter or digit becomes `_`. */
    if (name[0] >= '0' && name[0] <= '9') buf_putc(&b, '_');
    for (const unsigned char *p = (const unsigned char *)name; *p;) {
        unsigned cp;
        size_t n = utf8_rune(p, &cp);
        if (rune_is_letter_or_digit(cp))
            buf_append(&b, (const char *)p, n);
        else
            buf_putc(&b, '_');
        p += n;
    }
    char *out = buf_arena_str(&b, a);
    buf_free(&b);
    return out;
}

/* Appends `module.a["k"].module.b[0]` as "a-k-b-0" (keys unquoted). */
static void module_path_parts(buf_t *b, const char *module) {
    const char *p = module;
    while (p && *p) {
        if (strncmp(p, "module.", 7) == 0) p += 7;
        const char *end = p;
        while (*end && *end != '.' && *end != '[')
            end++;
        if (b->len) buf_putc(b, '-');
        buf_append(b, p, (size_t)(end - p));
        p = end;
        if (*p == '[') {
            p++;
            buf_putc(b, '-');
            if (*p == '"') {
                for (p++; *p && *p != '"'; p++) {
                    if (*p == '\\' && p[1]) p++;
                    buf_putc(b, *p);
                }
                if (*p == '"') p++;
            } else {
                while (*p && *p != ']')
                    buf_putc(b, *p++);
            }
            if (*p == ']') p++;
        }
        if (*p == '.') p++;
    }
}

char *convert_tf_logical_name(arena_t *a, const char *module, const char *name, const char *index_key) {
    buf_t b;
    buf_init(&b);
    if (module) module_path_parts(&b, module);
    if (b.len) buf_putc(&b, '-');
    buf_puts(&b, name);
    if (index_key) buf_printf(&b, "-%s", index_key);
    char *raw = buf_arena_str(&b, a);
    buf_free(&b);
    return raw;
}

char *convert_tf_name(arena_t *a, const char *module, const char *name, const char *index_key) {
    return convert_sanitize_name(a, convert_tf_logical_name(a, module, name, index_key));
}

/* --- Terraform types → Pulumi tokens ------------------------------------------------------------ */

/* Terraform provider names whose Pulumi package is named differently (Pulumi's mapper renames the
 * same ones); every other provider's package has the provider's name. */
static const struct {
    const char *tf, *pkg;
} provider_renames[] = {
    {"azurerm", "azure"},
    {"bigip", "f5bigip"},
    {"google", "gcp"},
    {"google-beta", "gcp"},
    {"template", "terraform-template"},
};

const char *convert_tf_provider_package(const char *tf_provider) {
    for (size_t i = 0; i < sizeof provider_renames / sizeof provider_renames[0]; i++)
        if (strcmp(provider_renames[i].tf, tf_provider) == 0) return provider_renames[i].pkg;
    return tf_provider;
}

typedef struct pkg_modules {
    const char *package;
    const char **modules;
    size_t n, cap;
} pkg_modules_t;

typedef struct tf_item {
    const tf_resource_t *r;
    const tf_instance_t *inst;
    convert_entry_t *entry;
    const char *provider_ref; /* explicit provider spec name, or NULL */
} tf_item_t;

typedef struct provider_spec {
    const char *key; /* provider source + "." + alias */
    const char *name;
    const char *package;
    bool used; /* by a converted resource */
} provider_spec_t;

typedef struct tf_plan {
    arena_t *a;
    const convert_options_t *opts;
    convert_report_t *report;
    hashmap_t *names;
    hashmap_t *logicals; /* "<token>\n<logical name>" of the resources converted */
    pkg_modules_t *mods;
    size_t n_mods, cap_mods;
    tf_item_t *items;
    size_t n_items;
    provider_spec_t *providers;
    size_t n_providers, cap_providers;
} tf_plan_t;

static const char *package_of_token(arena_t *a, const char *token) {
    const char *c = strchr(token, ':');
    return c ? arena_strndup(a, token, (size_t)(c - token)) : token;
}

/* The modules of a package (from its schema's resource tokens), for the default naming rule. */
static const pkg_modules_t *package_modules(tf_plan_t *p, const char *package) {
    for (size_t i = 0; i < p->n_mods; i++)
        if (strcmp(p->mods[i].package, package) == 0) return &p->mods[i];
    p->mods = arena_grow_array(p->a, p->mods, &p->cap_mods, p->n_mods + 1, sizeof *p->mods);
    pkg_modules_t *m = &p->mods[p->n_mods++];
    memset(m, 0, sizeof *m);
    m->package = arena_strdup(p->a, package);
    schema_package_t *pkg = p->opts && p->opts->schemas ? schema_set_get(p->opts->schemas, package) : NULL;
    size_t n = pkg ? schema_resource_count(pkg) : 0;
    hashmap_t seen = {0};
    for (size_t i = 0; i < n; i++) {
        const char *tok = schema_resource_token_at(pkg, i);
        const char *c1 = tok ? strchr(tok, ':') : NULL;
        const char *end = c1 ? strpbrk(c1 + 1, "/:") : NULL;
        if (!end || end == c1 + 1) continue;
        char *mod = arena_strndup(p->a, c1 + 1, (size_t)(end - c1 - 1));
        if (strcmp(mod, "index") == 0 || used_has(&seen, mod)) continue;
        used_add(&seen, mod);
        m->modules = arena_grow_array(p->a, m->modules, &m->cap, m->n + 1, sizeof *m->modules);
        /* Modules match Terraform names in snake case: `appAutoScaling` would be `app_auto_scaling`. */
        buf_t b;
        buf_init(&b);
        for (const char *c = mod; *c; c++) {
            if (isupper((unsigned char)*c)) {
                buf_putc(&b, '_');
                buf_putc(&b, (char)tolower((unsigned char)*c));
            } else {
                buf_putc(&b, *c);
            }
        }
        m->modules[m->n++] = buf_arena_str(&b, p->a);
        buf_free(&b);
    }
    hashmap_free(&seen);
    return m;
}

/* What the caller knows about a provider beyond the mappings (e.g. which plugins were asked), to
 * complete the reason of its unmapped resources; NULL when nothing. */
static const char *provider_hint(const tf_plan_t *p, const char *tf_provider) {
    for (size_t i = 0; p->opts && i < p->opts->n_hints; i++)
        if (strcmp(p->opts->hints[i].tf_provider, tf_provider) == 0) return p->opts->hints[i].text;
    return NULL;
}

/* Decides the Pulumi token of a Terraform type, or explains why there is none. A token is written
 * only when a mapping names it, or when a Pulumi schema at hand contains the token the bridge's
 * default naming rule derives: nothing unconfirmed is given a type. */
static const char *map_type(tf_plan_t *p, const tf_resource_t *r, const char **note, const char **why) {
    arena_t *a = p->a;
    bridge_set_t *bridge = p->opts ? p->opts->bridge : NULL;
    *note = *why = NULL;
    const bridge_resource_t *br = bridge_find_resource(bridge, r->type);
    if (br) return arena_strdup(a, br->token); /* the import file outlives the bridge set */
    const char *hint = provider_hint(p, r->provider_type);
    const char *covered = bridge_package_for_provider(bridge, r->provider_type);
    if (covered) {
        *why = arena_sprintf(a, "Terraform type '%s' is not in the mapping of provider '%s' (package '%s', from %s)",
                             r->type, r->provider_type, covered, bridge_origin_for_provider(bridge, r->provider_type));
        return NULL;
    }
    const char *package = convert_tf_provider_package(r->provider_type);
    schema_set_t *schemas = p->opts ? p->opts->schemas : NULL;
    schema_package_t *pkg = schemas ? schema_set_get(schemas, package) : NULL;
    if (!pkg) {
        *why = arena_sprintf(a,
                             "no mapping for Terraform provider '%s' and no schema of Pulumi package '%s' to "
                             "confirm a type%s%s",
                             r->provider_source, package, hint ? "; " : "", hint ? hint : "");
        return NULL;
    }
    const pkg_modules_t *m = package_modules(p, package);
    char *token = bridge_default_token(a, package, r->provider_type, r->type, m->modules, m->n);
    if (!schema_find_resource(pkg, token)) {
        *why = arena_sprintf(a,
                             "no mapping for Terraform provider '%s', and '%s' (the bridge's default naming) is not "
                             "in the schema of package '%s'%s%s",
                             r->provider_source, token, package, hint ? "; " : "", hint ? hint : "");
        return NULL;
    }
    *note = arena_sprintf(a,
                          "no mapping for provider '%s': type derived by the bridge's default naming rule and "
                          "found in the schema of package '%s'",
                          r->provider_type, package);
    return token;
}

/* --- import IDs ---------------------------------------------------------------------------------- */

static const char *attr_str(const cJSON *attrs, const char *key) {
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(attrs, key);
    return cJSON_IsString(j) && j->valuestring[0] ? j->valuestring : NULL;
}

/* Why a resource whose import ID is a secret is not converted: `why` says whose secret it is, `what`
 * names the import ID (its "value", its "ID"); `renewable` when the program may as well make a new one. */
static const char *secret_import_id_reason(arena_t *a, const char *why, const char *what, bool renewable) {
    return arena_sprintf(a,
                         "%s: cimport does not write a secret into the import file in plaintext. Import it by hand "
                         "(`pulumi import <type> <name> <%s>`, or add it to the import file yourself if its %s in "
                         "plaintext there is acceptable)%s",
                         why, what, what, renewable ? ", or let the program create a new one" : "");
}

/* Why a resource the provider imports by its value, a secret, is not converted (source: whose ID it
 * has; id: that ID, shown only when it is the placeholder "none" — another could be the value). */
static const char *secret_id_reason(arena_t *a, const char *value_attr, const char *source, const char *id) {
    return secret_import_id_reason(
        a,
        arena_sprintf(
            a, "the random provider imports it by its value (its `%s` attribute, a secret), not by its %s `id`%s",
            value_attr, source, id && strcmp(id, "none") == 0 ? " \"none\" (a placeholder)" : ""),
        "value", true);
}

/* Types the provider imports by their value, a secret (terraform-provider-random's importers; the
 * state's `id` of a random_password is the placeholder "none"): converting them by `id` would import
 * another value, and by their value would put the secret in plaintext into the import file. Each by
 * its Terraform type and its Pulumi token, with the attribute that holds the value in each. */
static const struct {
    const char *tf_type, *tf_attr, *token, *attr;
} secret_id_types[] = {
    {"random_password", "result", "random:index/randomPassword:RandomPassword", "result"},
    {"random_bytes", "result_base64", "random:index/randomBytes:RandomBytes", "base64"},
};

/* The value attribute of a type (a Terraform type, or a Pulumi token) the provider imports by its
 * value, a secret, else NULL. */
static const char *secret_id_attr(const char *type, bool terraform) {
    for (size_t i = 0; i < sizeof secret_id_types / sizeof secret_id_types[0]; i++)
        if (strcmp(terraform ? secret_id_types[i].tf_type : secret_id_types[i].token, type) == 0)
            return terraform ? secret_id_types[i].tf_attr : secret_id_types[i].attr;
    return NULL;
}

const char *convert_secret_id_attr(const char *token) {
    return token ? secret_id_attr(token, false) : NULL;
}

/* The instance's `id` attribute as text (a number as %.17g), NULL when it has none. */
static const char *tf_state_id(arena_t *a, const cJSON *attrs) {
    const cJSON *idj = cJSON_GetObjectItemCaseSensitive(attrs, "id");
    return cJSON_IsString(idj) && idj->valuestring[0] ? arena_strdup(a, idj->valuestring)
           : cJSON_IsNumber(idj)                      ? arena_sprintf(a, "%.17g", idj->valuedouble)
                                                      : NULL;
}

/* The ID `pulumi import` needs. Most types import by `id`; some (pulumi-converter-terraform's table,
 * and the random provider's: importid.h) by an ID assembled from other attributes. A secret is never
 * one: neither an `id` Terraform marks sensitive that the import ID would hold, nor a sensitive
 * attribute it is made of. On failure *why says what is missing. */
static const char *import_id(arena_t *a, bridge_set_t *bridge, const tf_resource_t *r, const tf_instance_t *inst,
                             const char **why) {
    *why = NULL;
    const cJSON *attrs = inst->attributes;
    const char *secret_attr = secret_id_attr(r->type, true);
    if (secret_attr) {
        *why = secret_id_reason(a, secret_attr, "Terraform", attr_str(attrs, "id"));
        return NULL;
    }
    const char *id = tf_state_id(a, attrs);
    bool apart = importid_apart_from_id(r->type);
    if (!id && !apart) {
        *why = "has no `id` attribute in the state, so there is nothing to import it by";
        return NULL;
    }
    if (id && (!apart || importid_holds_id(r->type)) && tf_attr_sensitive(bridge, r, inst, "id")) {
        *why = secret_import_id_reason(a, "Terraform marks its `id` sensitive, and the provider imports it by that ID",
                                       "ID", false);
        return NULL;
    }
    if (!importid_assembled(r->type)) return id;
    /* an importer that takes more than the ID, or other attributes (importid.h): from the instance's,
     * those Terraform marks sensitive as secrets (importid_of refuses to put one in the ID) */
    diag_list_t quiet;
    diag_list_init(&quiet);
    pv_t *v = pv_from_state_json(a, attrs, r->type, &quiet);
    diag_list_free(&quiet);
    for (size_t i = 0; v && v->kind == PV_OBJECT && i < v->u.obj.len; i++) {
        pv_member_t *m = &v->u.obj.members[i];
        if (m->value->kind != PV_SECRET && tf_attr_sensitive(bridge, r, inst, m->key))
            m->value = pv_secret(a, m->value);
    }
    return importid_of(a, r->type, id, v, "Terraform", why);
}

/* --- the planning pass ------------------------------------------------------------------------------ */

/* The explicit provider spec of a resource's provider configuration: one per alias and per module
 * provider block (`module.m.provider[...]` is another configuration than the root's); NULL for the
 * root's default configuration. */
static const char *provider_spec_for(tf_plan_t *p, const tf_resource_t *r, const char *token, bool use) {
    if (!r->provider_alias && !r->provider_module) return NULL;
    char *key = arena_sprintf(p->a, "%s|%s.%s", r->provider_module ? r->provider_module : "", r->provider_source,
                              r->provider_alias ? r->provider_alias : "");
    for (size_t i = 0; i < p->n_providers; i++)
        if (strcmp(p->providers[i].key, key) == 0) {
            p->providers[i].used |= use;
            return p->providers[i].name;
        }
    const char *pkg = package_of_token(p->a, token);
    p->providers = arena_grow_array(p->a, p->providers, &p->cap_providers, p->n_providers + 1, sizeof *p->providers);
    provider_spec_t *ps = &p->providers[p->n_providers++];
    ps->key = key;
    ps->package = pkg;
    ps->used = use;
    buf_t b;
    buf_init(&b);
    buf_puts(&b, pkg);
    if (r->provider_module) module_path_parts(&b, r->provider_module);
    if (r->provider_alias) buf_printf(&b, "-%s", r->provider_alias);
    ps->name = unique_name(p->a, p->names, convert_sanitize_name(p->a, buf_arena_str(&b, p->a)));
    buf_free(&b);
    p->report->providers_unconfigured = true;
    return ps->name;
}

static bool tf_plan_build(tf_plan_t *p, const tf_state_t *s, diag_list_t *diags) {
    arena_t *a = p->a;
    (void)diags;
    size_t total = 0;
    for (size_t i = 0; i < s->n_resources; i++)
        total += s->resources[i].n_instances;
    p->items = arena_alloc(a, (total ? total : 1) * sizeof *p->items);
    /* The objects converted, by type, import ID and provider configuration (an ID is unique only within
     * one: a role "admin" in two accounts): a second address holding one (Terraform allows it) would be
     * a second spec the import refuses as a whole ("imported twice"). Types whose ID is no identity (two
     * RandomIntegers of one result) are two resources whatever their IDs. */
    hashmap_t *objects = used_new(a);
    /* Provider specs are named before resources, so a resource never takes a provider's name. */
    for (size_t i = 0; i < s->n_resources; i++) {
        const tf_resource_t *r = &s->resources[i];
        if (r->is_data || (!r->provider_alias && !r->provider_module)) continue;
        const char *note, *why;
        const char *token = map_type(p, r, &note, &why);
        if (token) provider_spec_for(p, r, token, false);
    }
    for (size_t i = 0; i < s->n_resources; i++) {
        const tf_resource_t *r = &s->resources[i];
        for (size_t k = 0; k < r->n_instances; k++) {
            const tf_instance_t *inst = &r->instances[k];
            const char *addr = r->address;
            if (inst->index_key)
                addr = arena_sprintf(a, inst->index_is_number ? "%s[%s]" : "%s[\"%s\"]", r->address, inst->index_key);
            convert_entry_t *e;
            if (r->is_data) {
                e = convert_report_add(a, p->report, CONVERT_SKIPPED, addr, r->type);
                e->reason = "data source: read-only in Terraform, nothing to import";
                continue;
            }
            if (inst->deposed) {
                e = convert_report_add(a, p->report, CONVERT_SKIPPED, addr, r->type);
                e->reason = arena_sprintf(a, "deposed object %s, pending destroy in Terraform", inst->deposed);
                e->deposed = true;
                continue;
            }
            const char *note, *why;
            const char *token = map_type(p, r, &note, &why);
            if (!token) {
                e = convert_report_add(a, p->report, CONVERT_UNMAPPED, addr, r->type);
                e->reason = why;
                e->tf_provider = r->provider_type;
                e->package = convert_tf_provider_package(r->provider_type);
                continue;
            }
            const char *id = import_id(a, p->opts ? p->opts->bridge : NULL, r, inst, &why);
            if (!id) {
                e = convert_report_add(a, p->report, CONVERT_NO_ID, addr, r->type);
                e->token = token;
                e->reason = why;
                continue;
            }
            const char *provider = provider_spec_for(p, r, token, false);
            const char *key = arena_sprintf(a, "%s\n%s\n%s", token, id, provider ? provider : "");
            void **first = importid_id_is_no_identity(token) ? NULL : hashmap_find_str(objects, key);
            if (first) {
                e = convert_report_add(a, p->report, CONVERT_NO_ID, addr, r->type);
                e->token = token;
                e->reason = arena_sprintf(a,
                                          "the same object (type %s, ID '%s') as %s, which is converted: Terraform "
                                          "holds it under two addresses, and one import of it is all Pulumi can "
                                          "manage; remove the other address from the Terraform state (`terraform "
                                          "state rm %s`) if it is a leftover",
                                          token, id, (const char *)*first, addr);
                continue;
            }
            hashmap_add_str(objects, key, (void *)addr);
            e = convert_report_add(a, p->report, CONVERT_CONVERTED, addr, r->type);
            e->token = token;
            e->id = id;
            e->reason = note;
            const char *no_importer = importid_no_importer(r->type);
            if (no_importer) {
                /* the ID is right, and recording the state into a stack runs no importer */
                e->stack_only = true;
                p->report->stack_only++;
                e->reason = arena_sprintf(a,
                                          "into a stack only: its provider implements no importer for %s (an "
                                          "import fails with \"Resource Import Not Implemented\"), so `pulumi "
                                          "import` and the code's `import` resource option cannot import it; "
                                          "record it from this state into a stack instead (`cimport --spec FILE "
                                          "--offline-state STATE`, into the selected stack or with --stack-state), "
                                          "which runs no importer%s%s",
                                          no_importer, note ? "; " : "", note ? note : "");
            }
            e->tainted = inst->tainted; /* converted all the same: it exists, but the user should know */
            const char *raw = convert_tf_logical_name(a, r->module, r->name, inst->index_key);
            const char *base = convert_sanitize_name(a, raw);
            e->name = readable_unique_name(a, p->names, base, r, inst, p->opts ? p->opts->bridge : NULL);
            /* The logical name is the address's (pulumi-converter-terraform: name, `-`, key), whatever
             * else the state holds: only the spec name, the code's variable, is deduplicated, or a URN
             * would change with the other resources of the state. Two addresses of one type can still
             * give one (`p-x` and `p["x"]`), which one URN cannot hold: the later one is numbered. */
            const char *logical = raw;
            for (int n = 2; used_has(p->logicals, arena_sprintf(a, "%s\n%s", token, logical)); n++)
                logical = arena_sprintf(a, "%s_%d", raw, n);
            used_add(p->logicals, arena_sprintf(a, "%s\n%s", token, logical));
            if (strcmp(logical, e->name) != 0) e->logical_name = logical;
            tf_item_t *it = &p->items[p->n_items++];
            it->r = r;
            it->inst = inst;
            it->entry = e;
            it->provider_ref = provider_spec_for(p, r, token, true);
        }
    }
    /* A provider spec is made (and named) before the resources are decided; one that no converted
     * resource uses (its resources have no import ID, or are a converted object's second address)
     * is dropped: it would be an unconfigured provider of nothing. */
    size_t kept = 0;
    for (size_t i = 0; i < p->n_providers; i++)
        if (p->providers[i].used) p->providers[kept++] = p->providers[i];
    p->n_providers = kept;
    if (!kept) p->report->providers_unconfigured = false;
    /* show -json names each resource's provider by its source only (`provider_name`), never the
     * configuration (alias, module provider block) the .tfstate records */
    if (s->is_show_json && p->report->converted) p->report->providers_unrecorded = true;
    if (!p->report->converted && !p->report->unmapped && !p->report->no_id)
        p->report->note = s->n_resources == 0
                              ? "the state has no resources (it is empty, or holds only check results)"
                              : "the state has no managed resources (only data sources or destroyed objects)";
    return true;
}

static void tf_plan_init(tf_plan_t *p, arena_t *a, const convert_options_t *opts, convert_report_t *report) {
    memset(p, 0, sizeof *p);
    p->a = a;
    p->opts = opts;
    p->report = report;
    p->names = used_new(a);
    p->logicals = used_new(a);
}

/* --- Terraform → import file ------------------------------------------------------------------------- */

import_file_t *convert_tfstate_to_import_file(arena_t *a, const tf_state_t *s, const convert_options_t *opts,
                                              convert_report_t *report, diag_list_t *diags) {
    tf_plan_t p;
    tf_plan_init(&p, a, opts, report);
    if (!tf_plan_build(&p, s, diags)) return NULL;
    import_file_t *f = arena_alloc(a, sizeof *f);
    f->path = s->path;
    size_t n = p.n_providers + p.n_items;
    f->specs = arena_alloc(a, (n ? n : 1) * sizeof *f->specs);
    for (size_t i = 0; i < p.n_providers; i++) {
        import_spec_t *sp = &f->specs[f->n_specs];
        sp->index = (int)f->n_specs++;
        sp->type = arena_sprintf(a, "pulumi:providers:%s", p.providers[i].package);
        sp->name = p.providers[i].name;
    }
    report->providers += p.n_providers;
    for (size_t i = 0; i < p.n_items; i++) {
        import_spec_t *sp = &f->specs[f->n_specs];
        sp->index = (int)f->n_specs++;
        sp->type = p.items[i].entry->token;
        sp->name = p.items[i].entry->name;
        sp->logical_name = p.items[i].entry->logical_name;
        sp->id = p.items[i].entry->id;
        sp->provider = p.items[i].provider_ref;
    }
    return f;
}

/* --- Terraform attributes → Pulumi values ------------------------------------------------------------ */

typedef struct value_ctx {
    arena_t *a;
    bridge_set_t *bridge;
    schema_package_t *pkg;
} value_ctx_t;

/* Untyped JSON → value. Objects that are block elements get camelCase keys; maps keep theirs. */
static pv_t *plain_value(value_ctx_t *c, const cJSON *v, bool block) {
    if (cJSON_IsBool(v)) return pv_bool(c->a, cJSON_IsTrue(v));
    if (cJSON_IsNumber(v)) return pv_number(c->a, v->valuedouble);
    if (cJSON_IsString(v)) return pv_string(c->a, v->valuestring);
    if (cJSON_IsArray(v)) {
        pv_t *arr = pv_array(c->a);
        const cJSON *it;
        cJSON_ArrayForEach(it, v) pv_array_push(c->a, arr, plain_value(c, it, true));
        return arr;
    }
    if (cJSON_IsObject(v)) {
        pv_t *obj = pv_object(c->a);
        const cJSON *m;
        cJSON_ArrayForEach(m, v) {
            if (cJSON_IsNull(m)) continue;
            pv_object_set(c->a, obj, block ? bridge_camel_case(c->a, m->string) : m->string, plain_value(c, m, false));
        }
        return obj;
    }
    return pv_null(c->a);
}

static const char *pulumi_prop_name(value_ctx_t *c, const char *token, const char *tf_name) {
    const char *r = bridge_renamed_property(c->bridge, token, tf_name);
    return r ? r : bridge_camel_case(c->a, tf_name);
}

static pv_t *typed_value(value_ctx_t *c, const cJSON *v, const schema_type_t *t, bridge_mio_t mio, const cJSON *fields);

/* An object's attributes into Pulumi properties of the object type (token, props), typed. */
static pv_t *typed_object(value_ctx_t *c, const cJSON *v, const char *token, const schema_property_t *props,
                          size_t n_props, const schema_property_t *props2, size_t n_props2, const cJSON *fields) {
    pv_t *obj = pv_object(c->a);
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        if (cJSON_IsNull(m)) continue;
        const cJSON *field = bridge_field(fields, m->string);
        const char *renamed = bridge_field_name(field);
        const char *name = renamed ? renamed : pulumi_prop_name(c, token, m->string);
        const schema_property_t *prop = props ? schema_find_property(props, n_props, name) : NULL;
        if (!prop && props2) prop = schema_find_property(props2, n_props2, name);
        pv_t *pv =
            prop ? typed_value(c, m, prop->type, bridge_field_max_items_one(field), bridge_field_elem_fields(field))
                 : (field ? typed_value(c, m, NULL, bridge_field_max_items_one(field), bridge_field_elem_fields(field))
                          : plain_value(c, m, false));
        if (!pv) continue;
        if (((prop && prop->secret) || bridge_field_sensitive(field)) && pv->kind != PV_SECRET)
            pv = pv_secret(c->a, pv);
        pv_object_set(c->a, obj, name, pv);
    }
    return obj;
}

static bool parse_number(const char *s, double *out) {
    if (!*s) return false;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (*end || errno || !isfinite(d)) return false;
    *out = d;
    return true;
}

/* Value typed by the Pulumi schema type t (NULL when unknown). mio says whether the bridge
 * flattened this list to one element; NULL is returned for a value to leave out (null, or an
 * empty maxItemsOne list). */
static pv_t *typed_value(value_ctx_t *c, const cJSON *v, const schema_type_t *t, bridge_mio_t mio,
                         const cJSON *fields) {
    if (!v || cJSON_IsNull(v)) return NULL;
    while (t && t->kind == SCHEMA_ENUM && t->element)
        t = t->element;
    bool flatten =
        mio == BRIDGE_MIO_TRUE || (mio == BRIDGE_MIO_UNKNOWN && t && t->kind != SCHEMA_ARRAY && t->kind != SCHEMA_ANY &&
                                   t->kind != SCHEMA_JSON && t->kind != SCHEMA_UNION);
    if (cJSON_IsArray(v) && flatten) {
        if (cJSON_GetArraySize(v) == 0) return NULL;
        v = cJSON_GetArrayItem(v, 0);
        if (cJSON_IsNull(v)) return NULL;
        if (!t && cJSON_IsObject(v)) return typed_object(c, v, NULL, NULL, 0, NULL, 0, fields);
    }
    if (!t) {
        if (cJSON_IsArray(v) && fields) {
            pv_t *arr = pv_array(c->a);
            const cJSON *it;
            cJSON_ArrayForEach(it, v) {
                pv_t *x =
                    cJSON_IsObject(it) ? typed_object(c, it, NULL, NULL, 0, NULL, 0, fields) : plain_value(c, it, true);
                pv_array_push(c->a, arr, x);
            }
            return arr;
        }
        return plain_value(c, v, false);
    }
    switch (t->kind) {
    case SCHEMA_BOOL:
        if (cJSON_IsString(v) && strcmp(v->valuestring, "true") == 0) return pv_bool(c->a, true);
        if (cJSON_IsString(v) && strcmp(v->valuestring, "false") == 0) return pv_bool(c->a, false);
        return plain_value(c, v, false);
    case SCHEMA_INT:
    case SCHEMA_NUMBER: {
        double d;
        if (cJSON_IsString(v) && parse_number(v->valuestring, &d)) return pv_number(c->a, d);
        return plain_value(c, v, false);
    }
    case SCHEMA_STRING:
        if (cJSON_IsNumber(v)) {
            double d = v->valuedouble;
            if (d == floor(d) && fabs(d) < 9.007199254740992e15) return pv_string(c->a, arena_sprintf(c->a, "%.0f", d));
            return pv_string(c->a, arena_sprintf(c->a, "%.17g", d));
        }
        if (cJSON_IsBool(v)) return pv_string(c->a, cJSON_IsTrue(v) ? "true" : "false");
        return plain_value(c, v, false);
    case SCHEMA_ARRAY: {
        if (!cJSON_IsArray(v)) {
            pv_t *one = typed_value(c, v, t->element, BRIDGE_MIO_FALSE, fields);
            pv_t *arr = pv_array(c->a);
            if (one) pv_array_push(c->a, arr, one);
            return arr;
        }
        pv_t *arr = pv_array(c->a);
        const cJSON *it;
        cJSON_ArrayForEach(it, v) {
            pv_t *x = typed_value(c, it, t->element, BRIDGE_MIO_FALSE, fields);
            pv_array_push(c->a, arr, x ? x : pv_null(c->a));
        }
        return arr;
    }
    case SCHEMA_MAP: {
        if (!cJSON_IsObject(v)) return plain_value(c, v, false);
        pv_t *obj = pv_object(c->a);
        const cJSON *m;
        cJSON_ArrayForEach(m, v) {
            pv_t *x = typed_value(c, m, t->element, BRIDGE_MIO_FALSE, NULL);
            if (x) pv_object_set(c->a, obj, m->string, x);
        }
        return obj;
    }
    case SCHEMA_OBJECT:
        if (!cJSON_IsObject(v) || !t->object) return plain_value(c, v, true);
        return typed_object(c, v, t->token, t->object->props, t->object->n_props, NULL, 0, fields);
    default: return plain_value(c, v, false);
    }
}

/* --- Terraform → deployment ---------------------------------------------------------------------- */

static void add_state_json(cJSON *res, const char *key, const pv_t *v) {
    cJSON_AddItemToObject(res, key, pv_to_state_json(v));
}

/* The `__meta` output terraform-bridge records for an instance: its private meta (timeouts...) with
 * `schema_version` when above 0, keys sorted as Go's encoding/json writes a map; NULL when empty
 * (schema version 0, no meta: the bridge records none). */
static const char *bridge_meta(arena_t *a, const tf_instance_t *inst) {
    cJSON *meta = NULL;
    char *raw = NULL;
    size_t len = 0;
    if (inst->private_meta && base64_decode(a, inst->private_meta, &raw, &len)) meta = cJSON_ParseWithLength(raw, len);
    if (!meta || !cJSON_IsObject(meta)) {
        cJSON_Delete(meta);
        meta = cJSON_CreateObject();
        if (!meta) return NULL;
    }
    if (inst->schema_version > 0 && !cJSON_HasObjectItem(meta, "schema_version"))
        cJSON_AddStringToObject(meta, "schema_version", arena_sprintf(a, "%d", inst->schema_version));
    /* keys in order, as Go's encoding/json writes a map: the smallest left each time (a few keys) */
    cJSON *sorted = cJSON_CreateObject();
    while (sorted && meta->child) {
        cJSON *min = meta->child;
        for (cJSON *c = min->next; c; c = c->next)
            if (strcmp(c->string, min->string) < 0) min = c;
        cJSON_AddItemToObject(sorted, min->string, cJSON_DetachItemViaPointer(meta, min));
    }
    const char *out = NULL;
    if (sorted && sorted->child) {
        char *text = cJSON_PrintUnformatted(sorted);
        out = text ? arena_strdup(a, text) : NULL;
        free(text);
    }
    cJSON_Delete(sorted);
    cJSON_Delete(meta);
    return out;
}

deployment_t *convert_tfstate_to_deployment_with(arena_t *a, const tf_state_t *s, const convert_options_t *opts,
                                                 diag_list_t *diags) {
    convert_report_t report = {0};
    return convert_tfstate_to_deployment_report(a, s, opts, &report, diags);
}

deployment_t *convert_tfstate_to_deployment_report(arena_t *a, const tf_state_t *s, const convert_options_t *opts,
                                                   convert_report_t *out_report, diag_list_t *diags) {
    tf_plan_t p;
    tf_plan_init(&p, a, opts, out_report);
    if (!tf_plan_build(&p, s, diags)) return NULL;
    for (size_t i = 0; i < out_report->n_entries; i++) {
        const convert_entry_t *e = &out_report->entries[i];
        if (e->outcome == CONVERT_UNMAPPED || e->outcome == CONVERT_NO_ID)
            diag_add(diags, DIAG_WARNING, DIAG_INPUT, s->path,
                     arena_sprintf(a, "resource '%s' of type '%s'", e->address, e->source_type), "%s: not converted",
                     e->reason);
    }
    const char *stack_urn = "urn:pulumi:dev::imported::pulumi:pulumi:Stack::imported-dev";
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "version", 3);
    cJSON *dep = cJSON_AddObjectToObject(doc, "deployment");
    cJSON *manifest = cJSON_AddObjectToObject(dep, "manifest");
    cJSON_AddStringToObject(manifest, "time", "0001-01-01T00:00:00Z");
    cJSON_AddStringToObject(manifest, "magic", "");
    cJSON_AddStringToObject(manifest, "version", "");
    cJSON *resources = cJSON_AddArrayToObject(dep, "resources");
    cJSON *stack = cJSON_CreateObject();
    cJSON_AddStringToObject(stack, "urn", stack_urn);
    cJSON_AddBoolToObject(stack, "custom", false);
    cJSON_AddStringToObject(stack, "type", "pulumi:pulumi:Stack");
    cJSON_AddItemToArray(resources, stack);

    bridge_set_t *bridge = opts ? opts->bridge : NULL;
    bool warned_no_schema = false;
    for (size_t i = 0; i < p.n_items; i++) {
        const tf_item_t *it = &p.items[i];
        const convert_entry_t *e = it->entry;
        const char *package = package_of_token(a, e->token);
        value_ctx_t c = {a, bridge, opts && opts->schemas ? schema_set_get(opts->schemas, package) : NULL};
        const schema_resource_t *sr = c.pkg ? schema_find_resource(c.pkg, e->token) : NULL;
        const bridge_resource_t *br = bridge_find_resource(bridge, it->r->type);
        pv_t *outputs =
            typed_object(&c, it->inst->attributes, e->token, sr ? sr->outputs : NULL, sr ? sr->n_outputs : 0,
                         sr ? sr->inputs : NULL, sr ? sr->n_inputs : 0, br ? br->fields : NULL);
        /* The ID is no input: set apart here, and recorded below. */
        pv_object_remove(outputs, "id");
        /* Terraform's own sensitive marks (state and provider schema) make top-level secrets. */
        const cJSON *m;
        cJSON_ArrayForEach(m, it->inst->attributes) {
            const char *path[1] = {m->string};
            if (!tfstate_instance_sensitive(it->inst, m->string) && !bridge_tf_sensitive(bridge, it->r->type, path, 1))
                continue;
            const char *renamed = bridge_field_name(bridge_field(br ? br->fields : NULL, m->string));
            const char *name = renamed ? renamed : pulumi_prop_name(&c, e->token, m->string);
            pv_t *v = pv_object_get(outputs, name);
            if (v && v->kind != PV_SECRET) pv_object_set(a, outputs, name, pv_secret(a, v));
        }
        pv_t *inputs = pv_object(a);
        if (sr) {
            for (size_t k = 0; k < outputs->u.obj.len; k++) {
                const pv_member_t *mem = &outputs->u.obj.members[k];
                if (schema_find_property(sr->inputs, sr->n_inputs, mem->key))
                    pv_object_set(a, inputs, mem->key, mem->value);
            }
        } else {
            char advice[DIAG_ADVICE_MAX];
            if (!warned_no_schema)
                diag_add(diags, DIAG_WARNING, DIAG_SCHEMA, s->path,
                         arena_sprintf(a, "resource '%s' of type '%s'", e->name, e->token),
                         "no schema of package '%s' knows this type, so its inputs are all its Terraform attributes%s",
                         package, diag_advice(advice, DIAG_ADVICE_SCHEMA_INPUTS, package));
            warned_no_schema = true;
            inputs = outputs;
        }
        /* The ID the provider records: the state's own `id`, also for a type whose import ID is another
         * form (importid.h: the importer of a RandomInteger records its result, not "result,min,max";
         * the offline provider finds it by the import ID all the same); the import ID only when the
         * state has no `id`. The bridge records it as the `id` output too, a string. */
        const char *id = tf_state_id(a, it->inst->attributes);
        if (id) {
            if (inputs == outputs) inputs = pv_clone(a, outputs);
            pv_t *v = pv_string(a, id);
            pv_object_set(a, outputs, "id", tf_attr_sensitive(bridge, it->r, it->inst, "id") ? pv_secret(a, v) : v);
        }
        /* what the bridge records beside the attributes, an output only (read back on refresh: without
         * it, the state is taken for schema version 0 and upgraded again) */
        const char *meta = bridge_meta(a, it->inst);
        if (meta) {
            if (inputs == outputs) inputs = pv_clone(a, outputs);
            pv_object_set(a, outputs, "__meta", pv_string(a, meta));
        }
        cJSON *res = cJSON_CreateObject();
        cJSON_AddStringToObject(res, "urn",
                                arena_sprintf(a, "urn:pulumi:dev::imported::%s::%s", e->token,
                                              e->logical_name ? e->logical_name : e->name));
        cJSON_AddBoolToObject(res, "custom", true);
        cJSON_AddStringToObject(res, "id", id ? id : e->id);
        cJSON_AddStringToObject(res, "type", e->token);
        add_state_json(res, "inputs", inputs);
        add_state_json(res, "outputs", outputs);
        cJSON_AddStringToObject(res, "parent", stack_urn);
        cJSON_AddItemToArray(resources, res);
    }
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    deployment_t *d = deployment_parse(a, text, strlen(text), s->path, diags);
    free(text);
    return d;
}

/* Without an explicit mapping, bridge metadata kept next to a package's schema (the layout of
 * provider repositories and of ../shared/data/schemas/<pkg>/) is used. */
bridge_set_t *convert_bridge_beside_schemas(schema_set_t *schemas, diag_list_t *diags) {
    bridge_set_t *bridge = bridge_set_new();
    for (size_t i = 0; schemas && i < schema_set_count(schemas); i++) {
        const schema_package_t *pkg = schema_set_at(schemas, i);
        const char *slash = pkg && pkg->origin ? strrchr(pkg->origin, '/') : NULL;
        if (!slash) continue;
        arena_t *tmp = arena_new();
        char *dir = arena_strndup(tmp, pkg->origin, (size_t)(slash - pkg->origin));
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (strncmp(e->d_name, "bridge-metadata", 15) == 0 && l > 5 && strcmp(e->d_name + l - 5, ".json") == 0)
                bridge_set_add_path(bridge, arena_sprintf(tmp, "%s/%s", dir, e->d_name), diags);
        }
        if (d) closedir(d);
        arena_free(tmp);
    }
    return bridge;
}

deployment_t *convert_tfstate_to_deployment(arena_t *a, const char *path, schema_set_t *schemas,
                                            const char *mapping_path, diag_list_t *diags) {
    convert_report_t report = {0};
    return convert_tfstate_file_to_deployment(a, path, schemas, mapping_path, &report, diags);
}

deployment_t *convert_tfstate_file_to_deployment(arena_t *a, const char *path, schema_set_t *schemas,
                                                 const char *mapping_path, convert_report_t *report,
                                                 diag_list_t *diags) {
    bridge_set_t *bridge = NULL;
    if (mapping_path) {
        bridge = bridge_set_new();
        if (!bridge_set_add_path(bridge, mapping_path, diags)) {
            bridge_set_free(bridge);
            return NULL;
        }
    } else {
        bridge = convert_bridge_beside_schemas(schemas, diags);
    }
    deployment_t *d = NULL;
    tf_state_t *s = tfstate_load(a, path, diags);
    if (s) {
        convert_options_t opts = {.bridge = bridge, .schemas = schemas};
        d = convert_tfstate_to_deployment_report(a, s, &opts, report, diags);
        tfstate_free(s);
    }
    bridge_set_free(bridge);
    return d;
}

bool convert_is_terraform_state(const char *text) {
    return text && tfstate_detect(text, strlen(text));
}

/* --- Pulumi export → import file ----------------------------------------------------------------- */

/* The resource's name: everything after the URN's third `::` (it may hold `::` itself). */
static const char *export_urn_name(arena_t *a, const char *urn) {
    const char *name = urn_name(a, urn);
    return name ? name : arena_strdup(a, urn);
}

static bool is_default_provider(arena_t *a, const state_resource_t *r) {
    return strncmp(r->type, "pulumi:providers:", 17) == 0 &&
           stackstate_is_default_provider_name(export_urn_name(a, r->urn));
}

/* `<provider URN>::<provider ID>` → the URN. */
static const char *provider_ref_urn(arena_t *a, const char *ref) {
    const char *sep = NULL;
    for (const char *p = ref; (p = strstr(p, "::")); p += 2)
        sep = p;
    return sep ? arena_strndup(a, ref, (size_t)(sep - ref)) : ref;
}

typedef struct export_ctx {
    arena_t *a;
    const deployment_t *d;
    const char **spec_name; /* per resource index: its spec name, or NULL */
    const char **import_id; /* per resource index: its import ID where it is not its ID (importid.h) */
    size_t *entry;          /* per resource index: its report entry's index */
    convert_report_t *report;
    import_file_t *f;
    hashmap_t *used;
    hashmap_t by_urn;          /* URN → 1 + index of its first resource not pending delete */
    hashmap_t provider_inputs; /* provider URN → its inputs, read once */
    bool failed;               /* a provider's inputs did not read (diagnosed) */
} export_ctx_t;

static int find_urn(const export_ctx_t *x, const char *urn) {
    void **v = hashmap_find_str(&x->by_urn, urn);
    return v ? (int)((uintptr_t)*v - 1) : -1;
}

/* The spec name by which a spec refers to urn, or NULL when the import file does not hold it. No
 * nameTable entry is written for the rest: it would hold the SOURCE stack's URN, which the target
 * stack never has (the import refuses such a file). */
static const char *reference_name(const export_ctx_t *x, const char *urn) {
    int i = find_urn(x, urn);
    return i >= 0 ? x->spec_name[i] : NULL;
}

/* Why the resource at urn is not in the import file. */
static const char *not_held_reason(const export_ctx_t *x, const char *urn) {
    int i = find_urn(x, urn);
    if (i < 0) return "not in the export, or pending delete there";
    const convert_entry_t *e = &x->report->entries[x->entry[i]];
    return e->reason ? e->reason : "not converted";
}

/* A provider resource's inputs: parsed from its range of the file when the state was loaded
 * indexed (only providers' are needed here, so the rest of the file is never parsed), once each. */
static const pv_t *provider_inputs(export_ctx_t *x, const state_resource_t *r, diag_list_t *diags) {
    void **known = hashmap_find_str(&x->provider_inputs, r->urn);
    if (known) return *known;
    pv_t *in = NULL, *out = NULL;
    if (!r->lazy) {
        in = pv_clone(x->a, r->inputs);
    } else if (!deployment_resource_read(x->d, r, x->a, &in, &out, diags)) {
        x->failed = true;
        return NULL;
    }
    hashmap_add_str(&x->provider_inputs, r->urn, in);
    return in;
}

/* The keys of an explicit provider's configuration that hold a secret ("a, b"), or NULL. An import file
 * cannot carry them: the source stack's ciphertext does not decrypt in another stack, and a secret is
 * never written in plaintext. */
static const char *provider_secret_keys(export_ctx_t *x, const state_resource_t *r, diag_list_t *diags) {
    const pv_t *src = provider_inputs(x, r, diags);
    buf_t keys;
    buf_init(&keys);
    for (size_t k = 0; src && src->kind == PV_OBJECT && k < src->u.obj.len; k++)
        if (pv_contains_secret(src->u.obj.members[k].value))
            buf_printf(&keys, "%s%s", keys.len ? ", " : "", src->u.obj.members[k].key);
    const char *r_keys = keys.len ? arena_strdup(x->a, keys.data) : NULL;
    buf_free(&keys);
    return r_keys;
}

static const char *pv_str_member(const pv_t *obj, const char *key) {
    const pv_t *v = pv_unwrap(obj ? pv_object_get(obj, key) : NULL);
    return v && v->kind == PV_STRING && v->u.str.len ? v->u.str.s : NULL;
}

/* The import ID of a resource whose importer takes another ID than the one recorded (importid.h): true
 * with it in *out (NULL: the ID is the import ID); false with the reason in *out when a part it needs
 * is not recorded, or with x->failed when the resource does not read. */
static bool export_import_id(export_ctx_t *x, const state_resource_t *r, const char **out, diag_list_t *diags) {
    *out = NULL;
    if (!r->id || !importid_assembled(r->type)) return true;
    pv_t *in = r->inputs, *outputs = r->outputs;
    if (r->lazy && !deployment_resource_read(x->d, r, x->a, &in, &outputs, diags)) {
        x->failed = true;
        return false;
    }
    const char *why, *id = importid_of(x->a, r->type, r->id, outputs, "Pulumi", &why);
    *out = id ? (strcmp(id, r->id) != 0 ? id : NULL) : why;
    return id != NULL;
}

static void export_ctx_free(export_ctx_t *x) {
    hashmap_free(&x->by_urn);
    hashmap_free(&x->provider_inputs);
}

/* A default provider is not converted: the target stack makes its own from its configuration. What
 * the source's was configured with (a gcp project, region and zone; an aws region) decides where its
 * resources were read, so it is said, with the commands that give the target stack the same (a
 * secret one without its value, which only the source stack can decrypt), and the entry's reason
 * names it. Its version and download URL are not configuration, nor Pulumi's own `__` keys. */
static void default_provider_config(export_ctx_t *x, const state_resource_t *r, convert_entry_t *e,
                                    diag_list_t *diags) {
    const pv_t *in = provider_inputs(x, r, diags);
    const char *pkg = r->type + strlen("pulumi:providers:");
    buf_t keys, cmds;
    buf_init(&keys);
    buf_init(&cmds);
    for (size_t k = 0; in && in->kind == PV_OBJECT && k < in->u.obj.len; k++) {
        const pv_member_t *m = &in->u.obj.members[k];
        const pv_t *v = pv_unwrap(m->value);
        if (strcmp(m->key, "version") == 0 || strcmp(m->key, "pluginDownloadURL") == 0 ||
            strncmp(m->key, "__", 2) == 0 || !v || v->kind == PV_NULL)
            continue;
        buf_printf(&keys, "%s%s:%s", keys.len ? ", " : "", pkg, m->key);
        if (pv_contains_secret(m->value)) {
            buf_printf(&cmds, "\n  pulumi config set --secret %s:%s   # secret in the source: give its value", pkg,
                       m->key);
            continue;
        }
        buf_printf(&cmds, "\n  pulumi config set %s:%s ", pkg, m->key);
        if (v->kind == PV_STRING) {
            buf_shell_word(&cmds, v->u.str.s);
        } else {
            cJSON *j = pv_to_state_json(v);
            char *text = j ? cJSON_PrintUnformatted(j) : NULL;
            buf_shell_word(&cmds, text ? text : "");
            free(text);
            cJSON_Delete(j);
        }
    }
    if (keys.len) {
        e->reason = arena_sprintf(x->a,
                                  "default provider: the target stack makes its own, from its configuration, which "
                                  "must give %s as the source's did (below)",
                                  keys.data);
        diag_add(diags, DIAG_WARNING, DIAG_INPUT, x->d->path,
                 arena_sprintf(x->a, "default provider '%s' of type '%s'", export_urn_name(x->a, r->urn), r->type),
                 "not converted: the target stack makes its own default provider from its configuration, and the "
                 "source's read its resources with %s; unless the target stack's configuration gives the same, they "
                 "are read there in another place (or not found). Give it the same (with -s STACK for another "
                 "stack than the selected one):%s",
                 keys.data, cmds.data);
    }
    buf_free(&keys);
    buf_free(&cmds);
}

deployment_t *deployment_load_for_convert(arena_t *a, const char *path, diag_list_t *diags) {
    bool not_pulumi = false;
    deployment_t *d = deployment_load_indexed(a, path, &not_pulumi, diags);
    return d || !not_pulumi ? d : deployment_load(a, path, diags);
}

import_file_t *convert_deployment_to_import_file(arena_t *a, const deployment_t *d, convert_report_t *report,
                                                 diag_list_t *diags) {
    export_ctx_t x = {0};
    x.a = a;
    x.d = d;
    x.used = used_new(a);
    x.f = arena_alloc(a, sizeof *x.f);
    x.f->path = d->path ? arena_strdup(a, d->path) : NULL;
    x.spec_name = arena_alloc(a, (d->n_resources ? d->n_resources : 1) * sizeof *x.spec_name);
    x.import_id = arena_alloc(a, (d->n_resources ? d->n_resources : 1) * sizeof *x.import_id);
    x.entry = arena_alloc(a, (d->n_resources ? d->n_resources : 1) * sizeof *x.entry);
    x.report = report;
    hashmap_reserve(&x.by_urn, d->n_resources);
    for (size_t i = 0; i < d->n_resources; i++)
        if (!d->resources[i].del) hashmap_add_str(&x.by_urn, d->resources[i].urn, (void *)(uintptr_t)(i + 1));
    x.f->specs = arena_alloc(a, (d->n_resources ? d->n_resources : 1) * sizeof *x.f->specs);
    /* First pass: which resources become specs, and their names (URN names, deduplicated, so
     * references in the second pass can point forward as well as back). */
    for (size_t i = 0; i < d->n_resources; i++) {
        const state_resource_t *r = &d->resources[i];
        convert_entry_t *e;
        const char *secret_keys;
        if (strcmp(r->type, "pulumi:pulumi:Stack") == 0) {
            e = convert_report_add(a, report, CONVERT_SKIPPED, r->urn, r->type);
            e->reason = "the stack itself: the target stack has its own";
        } else if (r->del) {
            e = convert_report_add(a, report, CONVERT_SKIPPED, r->urn, r->type);
            e->reason = "pending delete in the source stack";
        } else if (is_default_provider(a, r)) {
            e = convert_report_add(a, report, CONVERT_SKIPPED, r->urn, r->type);
            e->reason = "default provider: the target stack makes its own";
            default_provider_config(&x, r, e, diags);
        } else if (r->external) {
            /* imported, the target would manage it (and its `pulumi destroy` delete it) */
            e = convert_report_add(a, report, CONVERT_SKIPPED, r->urn, r->type);
            e->reason = "read by the source program (a get), not managed by it: read it the same way in the target's "
                        "program";
        } else if (r->custom && !r->id && strncmp(r->type, "pulumi:providers:", 17) != 0) {
            e = convert_report_add(a, report, CONVERT_NO_ID, r->urn, r->type);
            e->token = r->type;
            e->reason = "custom resource without an ID in the export";
        } else if (secret_id_attr(r->type, false)) {
            /* the export's ID is the placeholder "none" (a password) or the value itself (bytes) */
            e = convert_report_add(a, report, CONVERT_NO_ID, r->urn, r->type);
            e->token = r->type;
            e->reason = secret_id_reason(a, secret_id_attr(r->type, false), "Pulumi", r->id);
        } else if (strncmp(r->type, "pulumi:providers:", 17) == 0 &&
                   (secret_keys = provider_secret_keys(&x, r, diags))) {
            e = convert_report_add(a, report, CONVERT_SKIPPED, r->urn, r->type);
            e->reason = arena_sprintf(
                a,
                "its configuration holds the secret %s, which an import file cannot carry (a ciphertext of the source "
                "stack does not decrypt in another, and cimport writes no secret in plaintext), and without which the "
                "resources under it would be read with another configuration: create the provider in the target stack "
                "with it (its program's provider, the secret set with `pulumi config set --secret`, and `pulumi up`), "
                "then name it in the import file's nameTable by its URN there, as `pulumi import` takes an explicit "
                "provider, and give it as the `provider` of the resources under it",
                secret_keys);
            report->withheld++;
        } else if (r->custom && !export_import_id(&x, r, &x.import_id[i], diags)) {
            e = convert_report_add(a, report, CONVERT_NO_ID, r->urn, r->type);
            e->token = r->type;
            e->reason = x.import_id[i] ? x.import_id[i] : "its state does not read (the error above says why)";
            x.import_id[i] = NULL;
        } else {
            e = convert_report_add(a, report, CONVERT_CONVERTED, r->urn, r->type);
            e->token = r->type;
            e->id = r->custom && strncmp(r->type, "pulumi:providers:", 17) != 0
                        ? (x.import_id[i] ? x.import_id[i] : r->id)
                        : NULL;
            x.spec_name[i] = e->name = export_unique_name(a, x.used, export_urn_name(a, r->urn), r->type, e->id);
            if (strncmp(r->type, "pulumi:providers:", 17) == 0) report->providers++;
            /* an import file has no field for it: said, not dropped silently */
            if (r->retain_on_delete)
                diag_add(diags, DIAG_WARNING, DIAG_INPUT, d->path,
                         arena_sprintf(a, "resource '%s' of type '%s'", e->name, r->type),
                         "the source stack keeps it on delete (retainOnDelete), which an import file cannot carry: "
                         "add retainOnDelete to its code, or the target's `pulumi destroy` deletes it");
            if (r->additional_secret_outputs)
                diag_add(diags, DIAG_WARNING, DIAG_INPUT, d->path,
                         arena_sprintf(a, "resource '%s' of type '%s'", e->name, r->type),
                         "the source program marks outputs of it secret (additionalSecretOutputs: %s), which an "
                         "import file cannot carry: the import records them as the provider returns them (in "
                         "plaintext unless the provider marks them) until its code has that option and `pulumi up` "
                         "ran",
                         r->additional_secret_outputs);
        }
        x.entry[i] = report->n_entries - 1;
    }
    /* A resource under an explicit provider the file does not hold is not converted: under another
     * provider (the target's default one) it would be read with another configuration. */
    for (size_t i = 0; i < d->n_resources; i++) {
        const state_resource_t *r = &d->resources[i];
        if (!x.spec_name[i] || !r->provider || strncmp(r->type, "pulumi:providers:", 17) == 0) continue;
        const char *purn = provider_ref_urn(a, r->provider);
        int pi = find_urn(&x, purn);
        if ((pi >= 0 && x.spec_name[pi]) || stackstate_is_default_provider_name(export_urn_name(a, purn))) continue;
        convert_entry_t *e = &report->entries[x.entry[i]];
        const char *secret_keys = pi >= 0 && strncmp(d->resources[pi].type, "pulumi:providers:", 17) == 0
                                      ? provider_secret_keys(&x, &d->resources[pi], diags)
                                      : NULL;
        if (secret_keys)
            e->reason = arena_sprintf(a,
                                      "its provider '%s' is not converted: its configuration holds the secret %s, "
                                      "which an import file cannot carry (the provider's entry says how to)",
                                      purn, secret_keys);
        else
            e->reason = arena_sprintf(a,
                                      "its provider '%s' is not in the import file (%s): under another provider it "
                                      "would be read with another configuration; import the provider too, or give it "
                                      "one in the import file",
                                      purn, not_held_reason(&x, purn));
        e->outcome = CONVERT_SKIPPED;
        report->converted--;
        report->skipped++;
        x.spec_name[i] = NULL;
    }
    /* nothing converted: an error, unless some have no ID cimport can use (then the report lists them
     * with the reason and the run exits as a Terraform state's does: none converted) */
    if (report->converted == 0 && !report->no_id && !report->withheld) {
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, d->path, NULL,
                 "the export has no resources to import (only the stack, default providers or pending deletes)");
        export_ctx_free(&x);
        return NULL;
    }
    for (size_t i = 0; i < d->n_resources; i++) {
        if (!x.spec_name[i]) continue;
        const state_resource_t *r = &d->resources[i];
        import_spec_t *sp = &x.f->specs[x.f->n_specs];
        sp->index = (int)x.f->n_specs++;
        sp->type = arena_strdup(a, r->type);
        sp->name = x.spec_name[i];
        const char *logical = export_urn_name(a, r->urn);
        if (strcmp(logical, sp->name) != 0) sp->logical_name = logical;
        bool is_provider = strncmp(r->type, "pulumi:providers:", 17) == 0;
        if (r->custom && !is_provider) sp->id = arena_strdup(a, x.import_id[i] ? x.import_id[i] : r->id);
        if (!r->custom) sp->component = true;
        if (r->parent) {
            int pi = find_urn(&x, r->parent);
            bool parent_is_stack = pi >= 0 && strcmp(d->resources[pi].type, "pulumi:pulumi:Stack") == 0;
            if (!parent_is_stack && !strstr(r->parent, "::pulumi:pulumi:Stack::")) {
                sp->parent = reference_name(&x, r->parent);
                if (!sp->parent)
                    diag_add(diags, DIAG_WARNING, DIAG_INPUT, d->path,
                             arena_sprintf(a, "resource '%s' of type '%s'", sp->name, r->type),
                             "its parent '%s' is not in the import file (%s): it is imported at the stack's root "
                             "(its URN has no parent type)",
                             r->parent, not_held_reason(&x, r->parent));
            }
        }
        if (r->provider && !is_provider) {
            const char *purn = provider_ref_urn(a, r->provider);
            int pi = find_urn(&x, purn);
            if (pi >= 0 && is_default_provider(a, &d->resources[pi])) {
                /* A default provider is not a spec; its version selects the target's default provider. */
                const pv_t *pin = provider_inputs(&x, &d->resources[pi], diags);
                sp->version = pv_str_member(pin, "version");
                sp->plugin_download_url = pv_str_member(pin, "pluginDownloadURL");
            } else if (!stackstate_is_default_provider_name(export_urn_name(a, purn))) {
                sp->provider = reference_name(&x, purn);
            }
        }
        if (is_provider) {
            /* its configuration (one holding a secret is not converted: provider_secret_keys) */
            pv_t *in = pv_object(a);
            const pv_t *src = provider_inputs(&x, r, diags);
            for (size_t k = 0; src && k < src->u.obj.len; k++)
                if (strcmp(src->u.obj.members[k].key, "version") != 0)
                    pv_object_set(a, in, src->u.obj.members[k].key, src->u.obj.members[k].value);
            if (in->u.obj.len) sp->inputs = in;
            sp->version = pv_str_member(src, "version");
        }
    }
    export_ctx_free(&x);
    return x.failed ? NULL : x.f;
}

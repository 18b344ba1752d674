/* importid.c — import IDs that are not the resource's ID (see importid.h): the random provider's
 * RandomInteger and RandomId, whose importers take the parts they make the resource's state from. */
#include "specs/importid.h"

#include <math.h>
#include <string.h>

typedef enum { IMPORTID_INTEGER, IMPORTID_ID } importid_kind_t;

/* The types whose import ID is assembled, by their Pulumi token and their Terraform type. */
static const struct {
    const char *token, *tf_type;
    importid_kind_t kind;
} importid_types[] = {
    {"random:index/randomInteger:RandomInteger", "random_integer", IMPORTID_INTEGER},
    {"random:index/randomId:RandomId", "random_id", IMPORTID_ID},
};

static bool importid_kind(const char *type, importid_kind_t *kind) {
    for (size_t i = 0; type && i < sizeof importid_types / sizeof importid_types[0]; i++)
        if (strcmp(type, importid_types[i].token) == 0 || strcmp(type, importid_types[i].tf_type) == 0) {
            *kind = importid_types[i].kind;
            return true;
        }
    return false;
}

bool importid_assembled(const char *type) {
    importid_kind_t k;
    return importid_kind(type, &k);
}

/* The output `key` as the importer parses it: an integer in decimal, or a non-empty string as it is;
 * NULL when absent or null (*secret when it is a secret, which the import ID would hold in plaintext). */
static const char *importid_part(arena_t *a, const pv_t *outputs, const char *key, bool integer, bool *secret) {
    const pv_t *v = outputs && outputs->kind == PV_OBJECT ? pv_object_get(outputs, key) : NULL;
    *secret = v && v->kind == PV_SECRET;
    if (!v || *secret) return NULL;
    if (v->kind == PV_STRING && v->u.str.len && !v->u.str.bytes) return v->u.str.s;
    /* the importer reads an int64 (strconv.ParseInt): a whole number within double's exact range */
    if (integer && v->kind == PV_NUMBER && v->u.n == floor(v->u.n) && fabs(v->u.n) <= 9007199254740992.0)
        return arena_sprintf(a, "%lld", (long long)v->u.n);
    return NULL;
}

const char *importid_of(arena_t *a, const char *type, const char *id, const pv_t *outputs, const char *source,
                        const char **why) {
    *why = NULL;
    importid_kind_t kind;
    if (!importid_kind(type, &kind)) return id;
    bool secret = false;
    if (kind == IMPORTID_ID) {
        /* "prefix,b64url"; without a prefix the ID alone (the importer splits at the last comma) */
        const char *prefix = importid_part(a, outputs, "prefix", false, &secret);
        if (secret) {
            *why = "the random provider imports it by `prefix,b64url`, and its `prefix` is a secret, which the "
                   "import ID would hold in plaintext";
            return NULL;
        }
        return prefix ? arena_sprintf(a, "%s,%s", prefix, id) : id;
    }
    static const char *const parts[] = {"result", "min", "max"};
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        const char *v = importid_part(a, outputs, parts[i], true, &secret);
        if (!v) {
            buf_free(&b);
            *why = arena_sprintf(a, "the random provider imports it by `result,min,max`, and its `%s` is %s", parts[i],
                                 secret ? "a secret, which the import ID would hold in plaintext"
                                        : arena_sprintf(a, "not recorded in the %s state (an integer)", source));
            return NULL;
        }
        buf_printf(&b, "%s%s", i ? "," : "", v);
    }
    const char *seed = importid_part(a, outputs, "seed", false, &secret);
    if (secret) {
        buf_free(&b);
        *why = "the random provider imports it by `result,min,max,seed`, and its `seed` is a secret, which the import "
               "ID would hold in plaintext";
        return NULL;
    }
    if (seed) buf_printf(&b, ",%s", seed);
    const char *r = buf_arena_str(&b, a);
    buf_free(&b);
    return r;
}

bool importid_resource_id(const char *type, const char *import_id, size_t *start, size_t *len) {
    importid_kind_t kind;
    if (!importid_kind(type, &kind) || !import_id) return false;
    if (kind == IMPORTID_ID) {
        const char *sep = strrchr(import_id, ',');
        if (!sep) return false;
        *start = (size_t)(sep + 1 - import_id);
        *len = strlen(sep + 1);
        return true;
    }
    /* "result,min,max" or "result,min,max,seed" (a seed may hold no comma: the importer splits on each) */
    size_t commas = 0;
    for (const char *p = import_id; *p; p++)
        commas += *p == ',';
    if (commas != 2 && commas != 3) return false;
    *start = 0;
    *len = (size_t)(strchr(import_id, ',') - import_id);
    return true;
}

/* importid.c — import IDs that are not the resource's ID (see importid.h): the random provider's
 * RandomInteger and RandomId, whose importers take the parts they make the resource's state from, and
 * the AWS types imported by an ID made of other properties. */
#include "specs/importid.h"

#include <math.h>
#include <string.h>

typedef enum { IMPORTID_INTEGER, IMPORTID_ID, IMPORTID_JOINED } importid_kind_t;

/* IMPORTID_JOINED: a part of the import ID, by its Pulumi property and its Terraform attribute;
 * "a|b|c": the first of them recorded (not empty). */
typedef struct {
    const char *prop, *attr;
} importid_part_t;

/* The types whose import ID is assembled, by their Pulumi token and their Terraform type. The AWS ones
 * are pulumi-converter-terraform's table (import-semantics §1.7), each checked against the resource's
 * "Import" section in pulumi-aws's docs: a route by ROUTETABLEID_DESTINATION (an IPv4 or IPv6 CIDR or
 * a prefix list), an association by the subnet's or gateway's ID and the route table's. */
static const struct {
    const char *token, *tf_type;
    importid_kind_t kind;
    const char *seps;         /* IMPORTID_JOINED: the separator after each part but the last */
    importid_part_t parts[4]; /* IMPORTID_JOINED */
    bool first_after_slash;   /* the first part after its last '/' (an ECS cluster's ARN: its name) */
} importid_types[] = {
    {"random:index/randomInteger:RandomInteger", "random_integer", IMPORTID_INTEGER, NULL, {{0}}, false},
    {"random:index/randomId:RandomId", "random_id", IMPORTID_ID, NULL, {{0}}, false},
    {"aws:ecs/cluster:Cluster", "aws_ecs_cluster", IMPORTID_JOINED, "", {{"name", "name"}}, false},
    {"aws:ecs/taskDefinition:TaskDefinition", "aws_ecs_task_definition", IMPORTID_JOINED, "", {{"arn", "arn"}}, false},
    {"aws:ecs/service:Service",
     "aws_ecs_service",
     IMPORTID_JOINED,
     "/",
     {{"cluster", "cluster"}, {"name", "name"}},
     true},
    {"aws:ec2/route:Route",
     "aws_route",
     IMPORTID_JOINED,
     "_",
     {{"routeTableId", "route_table_id"},
      {"destinationCidrBlock|destinationIpv6CidrBlock|destinationPrefixListId",
       "destination_cidr_block|destination_ipv6_cidr_block|destination_prefix_list_id"}},
     false},
    {"aws:ec2/routeTableAssociation:RouteTableAssociation",
     "aws_route_table_association",
     IMPORTID_JOINED,
     "/",
     {{"subnetId|gatewayId", "subnet_id|gateway_id"}, {"routeTableId", "route_table_id"}},
     false},
    {"aws:iam/rolePolicyAttachment:RolePolicyAttachment",
     "aws_iam_role_policy_attachment",
     IMPORTID_JOINED,
     "/",
     {{"role", "role"}, {"policyArn", "policy_arn"}},
     false},
    {"aws:appautoscaling/policy:Policy",
     "aws_appautoscaling_policy",
     IMPORTID_JOINED,
     "///",
     {{"serviceNamespace", "service_namespace"},
      {"resourceId", "resource_id"},
      {"scalableDimension", "scalable_dimension"},
      {"name", "name"}},
     false},
    {"aws:appautoscaling/target:Target",
     "aws_appautoscaling_target",
     IMPORTID_JOINED,
     "//",
     {{"serviceNamespace", "service_namespace"},
      {"resourceId", "resource_id"},
      {"scalableDimension", "scalable_dimension"}},
     false},
};

/* The entry of a type (a Pulumi token or a Terraform type), -1 when none; *terraform when it is named
 * by its Terraform type. */
static int importid_entry(const char *type, bool *terraform) {
    for (size_t i = 0; type && i < sizeof importid_types / sizeof importid_types[0]; i++) {
        *terraform = strcmp(type, importid_types[i].tf_type) == 0;
        if (*terraform || strcmp(type, importid_types[i].token) == 0) return (int)i;
    }
    return -1;
}

static bool importid_kind(const char *type, importid_kind_t *kind) {
    bool tf;
    int e = importid_entry(type, &tf);
    if (e >= 0) *kind = importid_types[e].kind;
    return e >= 0;
}

bool importid_assembled(const char *type) {
    importid_kind_t k;
    return importid_kind(type, &k);
}

bool importid_apart_from_id(const char *type) {
    importid_kind_t k;
    return importid_kind(type, &k) && k == IMPORTID_JOINED;
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

/* The import ID of an IMPORTID_JOINED entry from its parts, or NULL with *why. */
static const char *importid_joined(arena_t *a, int e, bool terraform, const pv_t *outputs, const char *source,
                                   const char **why) {
    /* the import ID's form, for the messages: `<routeTableId>_<destinationCidrBlock|...>` */
    buf_t form, b;
    buf_init(&form);
    buf_init(&b);
    const char *missing = NULL;
    bool secret = false;
    for (size_t k = 0; k < 4 && importid_types[e].parts[k].prop; k++) {
        const char *names = terraform ? importid_types[e].parts[k].attr : importid_types[e].parts[k].prop;
        if (k) buf_putc(&form, importid_types[e].seps[k - 1]);
        buf_printf(&form, "<%s>", names);
        if (missing) continue;
        const char *v = NULL;
        for (const char *n = names; n && !v && !secret;) {
            const char *bar = strchr(n, '|');
            char *name = bar ? arena_strndup(a, n, (size_t)(bar - n)) : arena_strdup(a, n);
            v = importid_part(a, outputs, name, false, &secret);
            if (secret) missing = name;
            n = bar ? bar + 1 : NULL;
        }
        if (!v) {
            if (!missing) missing = names;
            continue;
        }
        const char *slash = k == 0 && importid_types[e].first_after_slash ? strrchr(v, '/') : NULL;
        if (k) buf_putc(&b, importid_types[e].seps[k - 1]);
        buf_puts(&b, slash ? slash + 1 : v);
    }
    const char *r = NULL;
    if (!missing)
        r = buf_arena_str(&b, a);
    else if (secret)
        *why = arena_sprintf(a,
                             "the provider imports it by `%s`, and its `%s` is a secret, which the import ID would "
                             "hold in plaintext",
                             form.data, missing);
    else if (strchr(missing, '|')) {
        buf_t list;
        buf_init(&list);
        for (const char *n = missing; *n; n++)
            if (*n == '|')
                buf_puts(&list, "`, `");
            else
                buf_putc(&list, *n);
        *why = arena_sprintf(a, "the provider imports it by `%s`, and none of its `%s` is recorded in the %s state",
                             form.data, list.data, source);
        buf_free(&list);
    } else
        *why = arena_sprintf(a, "the provider imports it by `%s`, and its `%s` is not recorded in the %s state",
                             form.data, missing, source);
    buf_free(&form);
    buf_free(&b);
    return r;
}

const char *importid_of(arena_t *a, const char *type, const char *id, const pv_t *outputs, const char *source,
                        const char **why) {
    *why = NULL;
    bool terraform;
    int e = importid_entry(type, &terraform);
    if (e < 0) return id;
    importid_kind_t kind = importid_types[e].kind;
    if (kind == IMPORTID_JOINED) return importid_joined(a, e, terraform, outputs, source, why);
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
    if (!importid_kind(type, &kind) || !import_id || kind == IMPORTID_JOINED) return false;
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

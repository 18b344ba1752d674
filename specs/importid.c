/* importid.c — import IDs that are not the resource's ID (see importid.h): the random provider's
 * RandomInteger and RandomId, whose importers take the parts they make the resource's state from, and
 * the AWS types imported by an ID made of other properties. */
#include "specs/importid.h"

#include <math.h>
#include <string.h>
#include <strings.h>

typedef enum {
    IMPORTID_INTEGER,
    IMPORTID_ID,
    IMPORTID_JOINED,
    IMPORTID_GCP_MEMBER,
    IMPORTID_GCP_BINDING
} importid_kind_t;

/* IMPORTID_JOINED: a part of the import ID, by its Pulumi property and its Terraform attribute;
 * "a|b|c": the first of them recorded (not empty); "id": the resource's ID. */
typedef struct {
    const char *prop, *attr;
} importid_part_t;

/* The types whose import ID is assembled, by their Pulumi token and their Terraform type. The first AWS
 * ones are pulumi-converter-terraform's table (import-semantics §1.7), each checked against the
 * resource's "Import" section in pulumi-aws's docs: a route by ROUTETABLEID_DESTINATION (an IPv4 or IPv6
 * CIDR or a prefix list), an association by the subnet's or gateway's ID and the route table's. The
 * others are types whose Terraform `id` is no form their importer takes (a generated unique ID, a key's
 * or a GraphQL node's ID), each checked against its "Import" section and its importer in the Terraform
 * provider: the user and group policy attachments (`<user>/<policy_arn>`, SplitN at the first '/'), a
 * user's group membership (`<user>/<group1>/<group2>...`), an SSH key
 * (`<username>:<ssh_public_key_id>:<encoding>`), a server certificate (by its name: the importer sets
 * `name` from the ID), GitHub's branch protection (`<repository>:<pattern>`, the repository by its
 * node ID or name, as the state's `repository_id` holds it) and OpenStack's LB member
 * (`<pool_id>/<member_id>`). */
static const struct {
    const char *token, *tf_type;
    importid_kind_t kind;
    const char *seps;         /* IMPORTID_JOINED: the separator after each part but the last */
    importid_part_t parts[4]; /* IMPORTID_JOINED */
    bool first_after_slash;   /* the first part after its last '/' (an ECS cluster's ARN: its name) */
    bool last_is_list;        /* the last part a list, its items joined by the last separator */
} importid_types[] = {
    {"random:index/randomInteger:RandomInteger", "random_integer", IMPORTID_INTEGER, NULL, {{0}}, false, false},
    {"random:index/randomId:RandomId", "random_id", IMPORTID_ID, NULL, {{0}}, false, false},
    {"aws:ecs/cluster:Cluster", "aws_ecs_cluster", IMPORTID_JOINED, "", {{"name", "name"}}, false, false},
    {"aws:ecs/taskDefinition:TaskDefinition",
     "aws_ecs_task_definition",
     IMPORTID_JOINED,
     "",
     {{"arn", "arn"}},
     false,
     false},
    {"aws:ecs/service:Service",
     "aws_ecs_service",
     IMPORTID_JOINED,
     "/",
     {{"cluster", "cluster"}, {"name", "name"}},
     true,
     false},
    {"aws:ec2/route:Route",
     "aws_route",
     IMPORTID_JOINED,
     "_",
     {{"routeTableId", "route_table_id"},
      {"destinationCidrBlock|destinationIpv6CidrBlock|destinationPrefixListId",
       "destination_cidr_block|destination_ipv6_cidr_block|destination_prefix_list_id"}},
     false,
     false},
    {"aws:ec2/routeTableAssociation:RouteTableAssociation",
     "aws_route_table_association",
     IMPORTID_JOINED,
     "/",
     {{"subnetId|gatewayId", "subnet_id|gateway_id"}, {"routeTableId", "route_table_id"}},
     false,
     false},
    {"aws:iam/rolePolicyAttachment:RolePolicyAttachment",
     "aws_iam_role_policy_attachment",
     IMPORTID_JOINED,
     "/",
     {{"role", "role"}, {"policyArn", "policy_arn"}},
     false,
     false},
    {"aws:iam/userPolicyAttachment:UserPolicyAttachment",
     "aws_iam_user_policy_attachment",
     IMPORTID_JOINED,
     "/",
     {{"user", "user"}, {"policyArn", "policy_arn"}},
     false,
     false},
    {"aws:iam/groupPolicyAttachment:GroupPolicyAttachment",
     "aws_iam_group_policy_attachment",
     IMPORTID_JOINED,
     "/",
     {{"group", "group"}, {"policyArn", "policy_arn"}},
     false,
     false},
    {"aws:iam/userGroupMembership:UserGroupMembership",
     "aws_iam_user_group_membership",
     IMPORTID_JOINED,
     "/",
     {{"user", "user"}, {"groups", "groups"}},
     false,
     true},
    {"aws:iam/sshKey:SshKey",
     "aws_iam_user_ssh_key",
     IMPORTID_JOINED,
     "::",
     {{"username", "username"}, {"sshPublicKeyId", "ssh_public_key_id"}, {"encoding", "encoding"}},
     false,
     false},
    {"aws:iam/serverCertificate:ServerCertificate",
     "aws_iam_server_certificate",
     IMPORTID_JOINED,
     "",
     {{"name", "name"}},
     false,
     false},
    {"github:index/branchProtection:BranchProtection",
     "github_branch_protection",
     IMPORTID_JOINED,
     ":",
     {{"repositoryId", "repository_id"}, {"pattern", "pattern"}},
     false,
     false},
    {"openstack:loadbalancer/member:Member",
     "openstack_lb_member_v2",
     IMPORTID_JOINED,
     "/",
     {{"poolId", "pool_id"}, {"id", "id"}},
     false,
     false},
    {"aws:appautoscaling/policy:Policy",
     "aws_appautoscaling_policy",
     IMPORTID_JOINED,
     "///",
     {{"serviceNamespace", "service_namespace"},
      {"resourceId", "resource_id"},
      {"scalableDimension", "scalable_dimension"},
      {"name", "name"}},
     false,
     false},
    {"aws:appautoscaling/target:Target",
     "aws_appautoscaling_target",
     IMPORTID_JOINED,
     "//",
     {{"serviceNamespace", "service_namespace"},
      {"resourceId", "resource_id"},
      {"scalableDimension", "scalable_dimension"}},
     false,
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

/* Whether `name` ends with `suffix`, ignoring ASCII case. */
static bool ends_with_nocase(const char *name, const char *suffix) {
    size_t n = strlen(name), k = strlen(suffix);
    return n >= k && strncasecmp(name + n - k, suffix, k) == 0;
}

/* A GCP IAM member or binding (IMPORTID_GCP_MEMBER, _BINDING), by its Terraform type
 * (`google_<resource>_iam_member`) or its Pulumi token (`gcp:<module>/<x>IAMMember:<X>IAMMember`, or
 * `IamMember`): every one shares terraform-provider-google's iamMemberImport / iamBindingImport. */
static bool importid_gcp_iam(const char *type, importid_kind_t *kind, bool *terraform) {
    if (!type) return false;
    const char *name = NULL;
    if (strncmp(type, "google_", 7) == 0) {
        *terraform = true;
        name = type;
    } else if (strncmp(type, "gcp:", 4) == 0 && strrchr(type, ':') > type + 3) {
        *terraform = false;
        name = strrchr(type, ':') + 1;
    }
    if (!name) return false;
    bool member = ends_with_nocase(name, *terraform ? "_iam_member" : "iammember");
    bool binding = ends_with_nocase(name, *terraform ? "_iam_binding" : "iambinding");
    if (member) *kind = IMPORTID_GCP_MEMBER;
    if (binding) *kind = IMPORTID_GCP_BINDING;
    return member || binding;
}

static bool importid_kind(const char *type, importid_kind_t *kind) {
    bool tf;
    int e = importid_entry(type, &tf);
    if (e >= 0) *kind = importid_types[e].kind;
    return e >= 0 || importid_gcp_iam(type, kind, &tf);
}

bool importid_assembled(const char *type) {
    importid_kind_t k;
    return importid_kind(type, &k);
}

bool importid_apart_from_id(const char *type) {
    importid_kind_t k;
    return importid_kind(type, &k) && k != IMPORTID_INTEGER && k != IMPORTID_ID;
}

bool importid_holds_id(const char *type) {
    bool tf;
    importid_kind_t gcp;
    int e = importid_entry(type, &tf);
    if (e < 0) return importid_gcp_iam(type, &gcp, &tf);
    for (size_t k = 0; e >= 0 && k < 4 && importid_types[e].parts[k].prop; k++)
        if (strcmp(importid_types[e].parts[k].prop, "id") == 0) return true;
    return false;
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

/* The list output `key`, its items (non-empty strings) joined by `sep`; NULL when absent, empty or
 * holding anything else (*secret when it or an item is a secret). */
static const char *importid_list(arena_t *a, const pv_t *outputs, const char *key, char sep, bool *secret) {
    const pv_t *v = outputs && outputs->kind == PV_OBJECT ? pv_object_get(outputs, key) : NULL;
    *secret = v && v->kind == PV_SECRET;
    if (!v || v->kind != PV_ARRAY || !v->u.arr.len) return NULL;
    buf_t b;
    buf_init(&b);
    bool ok = true;
    for (size_t i = 0; ok && i < v->u.arr.len; i++) {
        const pv_t *it = v->u.arr.items[i];
        if (it->kind == PV_SECRET) *secret = true;
        ok = it->kind == PV_STRING && it->u.str.len && !it->u.str.bytes;
        if (ok && i) buf_putc(&b, sep);
        if (ok) buf_puts(&b, it->u.str.s);
    }
    const char *r = ok ? buf_arena_str(&b, a) : NULL;
    buf_free(&b);
    return r;
}

/* The import ID of an IMPORTID_JOINED entry from its parts, or NULL with *why. */
static const char *importid_joined(arena_t *a, int e, bool terraform, const char *id, const pv_t *outputs,
                                   const char *source, const char **why) {
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
        bool last = k == 3 || !importid_types[e].parts[k + 1].prop;
        if (strcmp(names, "id") == 0)
            v = id && *id ? id : NULL;
        else if (last && importid_types[e].last_is_list)
            v = importid_list(a, outputs, names, k ? importid_types[e].seps[k - 1] : ',', &secret);
        for (const char *n = names; n && !v && !secret;) {
            const char *bar = strchr(n, '|');
            char *name = bar ? arena_strndup(a, n, (size_t)(bar - n)) : arena_strdup(a, n);
            v = importid_part(a, outputs, name, false, &secret);
            if (secret) missing = name;
            n = bar ? bar + 1 : NULL;
        }
        if (secret && !missing) missing = names;
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

/* Whether `s` has whitespace other than single spaces between words (the importer splits its ID with
 * strings.Fields and joins a condition title's words with one space). */
static bool importid_fields_change(const char *s, bool spaces_allowed) {
    for (const char *p = s; *p; p++) {
        bool ws = *p == ' ' || (*p >= '\t' && *p <= '\r');
        if (ws && (!spaces_allowed || *p != ' ' || p == s || !p[1] || p[1] == ' ')) return true;
    }
    return false;
}

/* The import ID of a GCP IAM member or binding: `<resource> <role> [<member>] [<condition title>]`,
 * separated by spaces (terraform-provider-google's iamMemberImport / iamBindingImport split it with
 * strings.Fields). The state's `id` is `<resource>/<role>[/<member>][/<title>/<description>/<expression>]`
 * (the provider's SetId), so the resource part is the `id` less that suffix; NULL with *why when the
 * `id` does not end with it or a part would not survive the split. */
static const char *importid_gcp(arena_t *a, importid_kind_t kind, const char *id, const pv_t *outputs,
                                const char *source, const char **why) {
    bool member = kind == IMPORTID_GCP_MEMBER, secret = false;
    const char *form = member ? "`<resource> <role> <member> [<condition title>]` (space-separated)"
                              : "`<resource> <role> [<condition title>]` (space-separated)";
    const char *role = importid_part(a, outputs, "role", false, &secret);
    const char *who = member && !secret ? importid_part(a, outputs, "member", false, &secret) : NULL;
    const char *lack = secret ? NULL : !id || !*id ? "id" : !role ? "role" : member && !who ? "member" : NULL;
    if (secret) {
        *why = arena_sprintf(a,
                             "the provider imports it by %s, and its role or member is a secret, which the import "
                             "ID would hold in plaintext",
                             form);
        return NULL;
    }
    if (lack) {
        *why = arena_sprintf(a, "the provider imports it by %s, and its `%s` is not recorded in the %s state", form,
                             lack, source);
        return NULL;
    }
    const pv_t *cond = outputs && outputs->kind == PV_OBJECT ? pv_object_get(outputs, "condition") : NULL;
    if (cond && cond->kind == PV_ARRAY) cond = cond->u.arr.len ? cond->u.arr.items[0] : NULL;
    const char *title = NULL, *suffix = NULL;
    if (cond && cond->kind == PV_OBJECT) {
        bool s1, s2, s3;
        title = importid_part(a, cond, "title", false, &s1);
        const char *desc = importid_part(a, cond, "description", false, &s2);
        const char *expr = importid_part(a, cond, "expression", false, &s3);
        if (!title || !expr || s1 || s2 || s3) {
            *why = arena_sprintf(a,
                                 "the provider imports it by %s, and its condition's title or expression is not "
                                 "recorded in the %s state",
                                 form, source);
            return NULL;
        }
        suffix = arena_sprintf(a, "/%s/%s/%s", title, desc ? desc : "", expr);
    }
    const char *tail = arena_sprintf(a, "/%s%s%s%s", role, member ? "/" : "", member ? who : "", suffix ? suffix : "");
    size_t n = strlen(id), k = strlen(tail);
    /* the provider writes the member's type in lower case (normalizeIamMemberCasing) */
    if (n <= k || strncasecmp(id + n - k, tail, k) != 0) {
        *why = arena_sprintf(a,
                             "the provider imports it by %s, and its `id` \"%s\" does not end with its role%s, so "
                             "the resource part cannot be told",
                             form, id, member ? " and member" : "");
        return NULL;
    }
    const char *resource = arena_strndup(a, id, n - k);
    if (importid_fields_change(resource, false) || importid_fields_change(role, false) ||
        (member && importid_fields_change(who, false)) || (title && importid_fields_change(title, true))) {
        *why = arena_sprintf(a,
                             "the provider imports it by %s, and a part of it holds whitespace the importer would "
                             "split it at",
                             form);
        return NULL;
    }
    return arena_sprintf(a, "%s %s%s%s%s%s", resource, role, member ? " " : "", member ? who : "", title ? " " : "",
                         title ? title : "");
}

const char *importid_of(arena_t *a, const char *type, const char *id, const pv_t *outputs, const char *source,
                        const char **why) {
    *why = NULL;
    bool terraform;
    int e = importid_entry(type, &terraform);
    importid_kind_t gcp;
    if (e < 0 && importid_gcp_iam(type, &gcp, &terraform)) return importid_gcp(a, gcp, id, outputs, source, why);
    if (e < 0) return id;
    importid_kind_t kind = importid_types[e].kind;
    if (kind == IMPORTID_JOINED) return importid_joined(a, e, terraform, id, outputs, source, why);
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
    if (!importid_kind(type, &kind) || !import_id || (kind != IMPORTID_INTEGER && kind != IMPORTID_ID)) return false;
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

bool importid_id_is_no_identity(const char *type) {
    static const char *const types[] = {"random:index/randomPassword:RandomPassword",
                                        "random:index/randomInteger:RandomInteger",
                                        "random:index/randomShuffle:RandomShuffle", "random:index/randomIp:RandomIp"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(type, types[i]) == 0) return true;
    return false;
}

/* Checked against the providers' sources: terraform-provider-random's petResource, shuffleResource and
 * ipResource implement resource.Resource only (no ResourceWithImportState), unlike its string, integer, id,
 * password, bytes and uuid resources; terraform-provider-tls's privateKeyResource (Resource,
 * ResourceWithUpgradeState), certRequestResource (ResourceWithConfigValidators), selfSignedCertResource
 * and locallySignedCertResource (ResourceWithModifyPlan) none either; pulumi-random's and pulumi-tls's
 * provider/resources.go add no importer. */
static const struct {
    const char *token, *tf_type;
} no_importer_types[] = {
    {"random:index/randomPet:RandomPet", "random_pet"},
    {"random:index/randomShuffle:RandomShuffle", "random_shuffle"},
    {"random:index/randomIp:RandomIp", "random_ip"},
    {"tls:index/privateKey:PrivateKey", "tls_private_key"},
    {"tls:index/certRequest:CertRequest", "tls_cert_request"},
    {"tls:index/selfSignedCert:SelfSignedCert", "tls_self_signed_cert"},
    {"tls:index/locallySignedCert:LocallySignedCert", "tls_locally_signed_cert"},
};

const char *importid_no_importer(const char *type) {
    for (size_t i = 0; type && i < sizeof no_importer_types / sizeof no_importer_types[0]; i++)
        if (strcmp(type, no_importer_types[i].token) == 0 || strcmp(type, no_importer_types[i].tf_type) == 0)
            return no_importer_types[i].tf_type;
    return NULL;
}

/* Checked against terraform-provider-random's ImportState of each resource (internal/provider/
 * resource_*.go, the framework provider pulumi-random 4.x bridges): random_string and random_password
 * set every flag true, every minimum 0, override_special and keepers null and length the ID's; random_bytes,
 * random_uuid4 and random_uuid7 keepers null; random_integer, random_id and random_uuid keepers an empty
 * map (types.MapValueMust(types.StringType, nil)); everything else they set comes from the import ID.
 * Their plan modifiers make any other value a change: RequiresReplace for the flags, minimums and
 * override_special, RequiresReplaceIfValuesNotNull for keepers (a map where the importer sets null, even an
 * empty one, is still another value than the one imported). A length other than the ID's needs characters
 * of more than one byte, which only an override_special gives: not looked at. */
static const struct {
    const char *token, *tf_type;
    bool empty_keepers; /* its importer sets keepers to an empty map, not null */
    bool flags;         /* a random_string's or random_password's flags and minimums */
} rebuilt_types[] = {
    {"random:index/randomString:RandomString", "random_string", false, true},
    {"random:index/randomPassword:RandomPassword", "random_password", false, true},
    {"random:index/randomBytes:RandomBytes", "random_bytes", false, false},
    {"random:index/randomUuid4:RandomUuid4", "random_uuid4", false, false},
    {"random:index/randomUuid7:RandomUuid7", "random_uuid7", false, false},
    {"random:index/randomInteger:RandomInteger", "random_integer", true, false},
    {"random:index/randomId:RandomId", "random_id", true, false},
    {"random:index/randomUuid:RandomUuid", "random_uuid", true, false},
};

const char *importid_not_rebuilt(arena_t *a, const char *type, const pv_t *inputs) {
    size_t t = 0, n_types = sizeof rebuilt_types / sizeof rebuilt_types[0];
    while (type && t < n_types && strcmp(type, rebuilt_types[t].token) != 0 &&
           strcmp(type, rebuilt_types[t].tf_type) != 0)
        t++;
    const pv_t *in = pv_unwrap(inputs);
    if (!type || t == n_types || !in || in->kind != PV_OBJECT) return NULL;
    /* Pulumi's names, in the order the message gives them; what the importer sets each to */
    static const struct {
        const char *name;
        pv_kind_t kind; /* PV_BOOL: true; PV_NUMBER: 0; PV_STRING: null */
    } flags[] = {{"lower", PV_BOOL},        {"minLower", PV_NUMBER},        {"minNumeric", PV_NUMBER},
                 {"minSpecial", PV_NUMBER}, {"minUpper", PV_NUMBER},        {"number", PV_BOOL},
                 {"numeric", PV_BOOL},      {"overrideSpecial", PV_STRING}, {"special", PV_BOOL},
                 {"upper", PV_BOOL}};
    const char *names[1 + sizeof flags / sizeof flags[0]];
    size_t n = 0;
    /* a secret or an output is judged by what it holds; one whose value is not known is not rebuilt */
    const pv_t *member = pv_object_get(in, "keepers");
    const pv_t *keepers = pv_unwrap(member);
    if (member && (!keepers || (keepers->kind != PV_NULL &&
                                (!rebuilt_types[t].empty_keepers || keepers->kind != PV_OBJECT || keepers->u.obj.len))))
        names[n++] = "keepers";
    for (size_t i = 0; rebuilt_types[t].flags && i < sizeof flags / sizeof flags[0]; i++) {
        member = pv_object_get(in, flags[i].name);
        const pv_t *v = pv_unwrap(member);
        if (!member || (v && v->kind == PV_NULL)) continue;
        bool rebuilt = v && ((flags[i].kind == PV_BOOL && v->kind == PV_BOOL && v->u.b) ||
                             (flags[i].kind == PV_NUMBER && v->kind == PV_NUMBER && v->u.n == 0));
        if (!rebuilt) names[n++] = flags[i].name;
    }
    if (!n) return NULL;
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " and ", names[i]);
    char *out = buf_arena_str(&b, a);
    buf_free(&b);
    return out;
}

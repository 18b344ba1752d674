/* importid.h — import IDs that are not the resource's ID.
 *
 * A provider's importer takes the resource's ID for most types, and Read gives that ID back. The
 * random provider's importers (terraform-provider-random's ImportState, which pulumi-random bridges)
 * take more than the ID they record for two types, and make the resource's state from those parts:
 *
 *   RandomInteger  "result,min,max", or "result,min,max,seed"; its ID is the result ("83")
 *   RandomId       "prefix,b64url" when it has a prefix; its ID is the bytes in base64url, without it
 *
 * Some AWS types are imported by an ID made of other properties, which does not hold the ID the state
 * records (pulumi-converter-terraform's table; pulumi-aws's "Import" sections):
 *
 *   ecs Cluster `<name>`, TaskDefinition `<arn>`, Service `<cluster's name>/<name>`,
 *   ec2 Route `<routeTableId>_<destination: IPv4 or IPv6 CIDR, or prefix list>`,
 *   ec2 RouteTableAssociation `<subnetId or gatewayId>/<routeTableId>`,
 *   iam RolePolicyAttachment `<role>/<policyArn>`,
 *   appautoscaling Policy `<serviceNamespace>/<resourceId>/<scalableDimension>/<name>`, Target (the first three)
 *
 * and others whose Terraform `id` is a generated or a node ID their importer does not take (each
 * provider's "Import" section and importer):
 *
 *   aws iam UserPolicyAttachment `<user>/<policyArn>`, GroupPolicyAttachment `<group>/<policyArn>`,
 *   UserGroupMembership `<user>/<group1>/<group2>...`, SshKey `<username>:<sshPublicKeyId>:<encoding>`,
 *   ServerCertificate `<name>`; github BranchProtection `<repositoryId>:<pattern>`; openstack
 *   loadbalancer Member `<poolId>/<id>`; every gcp IAM member and binding
 *   `<resource> <role> [<member>] [<condition title>]` (spaces; the resource is the `id` less its role,
 *   member and condition)
 *
 * So a converter that writes an import file from a state (which records the ID) asks importid_of for
 * the ID to write, and the offline snapshot (which finds a recorded resource by its ID) asks
 * importid_resource_id for the ID inside an import ID, or indexes the resources of a type whose import
 * ID does not hold it (importid_apart_from_id) by their import IDs, then checks that importid_of of the
 * resource it found gives the import ID back (another range or prefix would be another resource's
 * state; the recorded ID is not what the importer takes). */
#ifndef CIMPORT_IMPORTID_H
#define CIMPORT_IMPORTID_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "specs/value.h"

/* Whether a resource of `type` (a Pulumi token, or a Terraform type) has an import ID assembled from
 * its outputs, which importid_of then needs. */
bool importid_assembled(const char *type);

/* Whether the import ID of a resource of `type` is made of its other properties and does not hold its
 * ID (the AWS types above). */
bool importid_apart_from_id(const char *type);

/* Whether the import ID of `type` is made from the resource's ID and other properties (an OpenStack LB
 * member's `<poolId>/<id>`; a GCP IAM member's `id` less its role and member, then those, spaced): the
 * provider records that ID, not the import ID. */
bool importid_holds_id(const char *type);

/* The ID the provider's importer takes for a resource of `type` (a Pulumi token, or a Terraform type)
 * recorded with ID `id` and outputs (a Terraform state's attributes) `outputs`: `id` itself for most
 * types. NULL when a part it needs is not recorded, with *why saying which (`source` names the state
 * in it: "Pulumi", "Terraform"). */
const char *importid_of(arena_t *a, const char *type, const char *id, const pv_t *outputs, const char *source,
                        const char **why);

/* The resource's ID inside import ID `import_id` of `type` (a Pulumi token): true with its start and
 * length in *start and *len when the two differ (a RandomInteger's result, a RandomId's base64url
 * after its prefix); false when the import ID is the resource's ID. */
bool importid_resource_id(const char *type, const char *import_id, size_t *start, size_t *len);

/* Whether the ID of `type` (a Pulumi token) is no identity: the random provider records every
 * RandomPassword with the placeholder ID "none", and a RandomInteger's ID is its result, which small
 * ranges share (a RandomShuffle's and a RandomIp's is "-" in Terraform). Two of them with one ID are two
 * resources. */
bool importid_id_is_no_identity(const char *type);

/* Types whose provider has no importer, which `pulumi import` and the code's `import` resource option
 * need (Pulumi's Read of a resource by its ID alone; the bridge turns it into the Terraform provider's
 * ImportResourceState, and terraform-plugin-framework answers a resource without ImportState with
 * "Resource Import Not Implemented"): terraform-provider-random's random_pet, random_shuffle and random_ip, and
 * every terraform-provider-tls resource (tls_private_key, tls_cert_request, tls_self_signed_cert,
 * tls_locally_signed_cert), which pulumi-random and pulumi-tls bridge without adding an importer (their
 * schemas have no "Import" section for them). Such a resource can still be recorded into a stack from
 * a recorded state (no importer runs there). `type` is a Pulumi token or a Terraform type; the answer
 * is the Terraform type ("random_pet"), or NULL when the provider has an importer for it. */
const char *importid_no_importer(const char *type);

/* The inputs of a resource of `type` (a Pulumi token or a Terraform type) that its provider's importer
 * does not rebuild from the import ID, which the code's `import` resource option then declares against
 * the imported resource (`pulumi up` finds a diff and refuses the import): terraform-provider-random's
 * importers set keepers null (an empty map for random_integer, random_id and random_uuid), and
 * random_string's and random_password's flags (special, upper, lower, number, numeric) true, their
 * minimums 0 and override_special null. `inputs` are the inputs the code declares (Pulumi names); the
 * answer names those that differ, as "keepers" or "lower, special and minUpper", or NULL when the
 * importer rebuilds them all (or `type` is none of these). */
const char *importid_not_rebuilt(arena_t *a, const char *type, const pv_t *inputs);

#endif

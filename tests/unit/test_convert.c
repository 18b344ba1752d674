/* test_convert.c — Terraform state and Pulumi export conversion: names, types, IDs, provider
 * aliases, bad input with exact messages, every real state under ../shared/data/tfstate accounted
 * for, offline snapshots typed by real schemas, and the parent/provider structure of every real
 * stack export. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate/convert.h"
#include "specs/importid.h"
#include "testutil.h"

static char *fixture(arena_t *a, const char *name) {
    return arena_sprintf(a, "%s/tests/fixtures/convert/%s", SOURCE_DIR, name);
}

static bridge_set_t *load_bridge(void) {
    arena_t *a = arena_new();
    bridge_set_t *b = bridge_set_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(bridge_set_add_path(b, tu_data(a, "schemas"), &d));
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    arena_free(a);
    return b;
}

/* First error message of a parse of path, or NULL when it parsed. */
static const char *parse_error(arena_t *a, const char *path, diag_list_t *d) {
    tf_state_t *s = tfstate_load(a, path, d);
    if (s) {
        tfstate_free(s);
        return NULL;
    }
    ck_assert_ptr_nonnull(d->head);
    return d->head->message;
}

START_TEST(test_names) {
    arena_t *a = arena_new();
    ck_assert_str_eq(convert_sanitize_name(a, "a-b.c/d\\e$f@g#h%i^j&k*l(m)n\"o'p<q>r|s`t u"),
                     "a_b_c_d_e_f_g_h_i_j_k_l_m_n_o_p_q_r_s_t_u");
    /* pulumi-converter-terraform's rule: every rune that is not a letter or digit, and a leading digit. */
    ck_assert_str_eq(convert_sanitize_name(a, "a+b:c~d=e[f]g,h;i"), "a_b_c_d_e_f_g_h_i");
    ck_assert_str_eq(convert_sanitize_name(a, "0web"), "_0web");
    ck_assert_str_eq(convert_sanitize_name(a, "café-1"), "café_1");
    ck_assert_str_eq(convert_sanitize_name(a, "a\xe2\x80\x94"
                                              "z"),
                     "a_z"); /* an em dash is one rune, one _ */
    /* The reference examples: count 0, and a for_each key with spaces and &. */
    ck_assert_str_eq(convert_tf_logical_name(a, NULL, "a_resource", "0"), "a_resource-0");
    ck_assert_str_eq(convert_tf_name(a, NULL, "a_resource", "0"), "a_resource_0");
    ck_assert_str_eq(convert_tf_logical_name(a, NULL, "simple_resource", "a simple & resource"),
                     "simple_resource-a simple & resource");
    ck_assert_str_eq(convert_tf_name(a, NULL, "simple_resource", "a simple & resource"),
                     "simple_resource_a_simple___resource");
    ck_assert_str_eq(convert_tf_logical_name(a, "module.net[\"a b\"]", "web", "k.1"), "net-a b-web-k.1");
    ck_assert_str_eq(convert_tf_provider_package("google"), "gcp");
    ck_assert_str_eq(convert_tf_provider_package("google-beta"), "gcp");
    ck_assert_str_eq(convert_tf_provider_package("azurerm"), "azure");
    ck_assert_str_eq(convert_tf_provider_package("bigip"), "f5bigip");
    ck_assert_str_eq(convert_tf_provider_package("template"), "terraform-template");
    ck_assert_str_eq(convert_tf_provider_package("random"), "random");
    ck_assert_str_eq(convert_tf_name(a, NULL, "web", NULL), "web");
    ck_assert_str_eq(convert_tf_name(a, NULL, "web", "0"), "web_0");
    ck_assert_str_eq(convert_tf_name(a, "module.net[\"a b\"]", "web", "k.1"), "net_a_b_web_k_1");
    ck_assert_str_eq(convert_tf_name(a, "module.a.module.b[2]", "x", NULL), "a_b_2_x");
    ck_assert_str_eq(bridge_camel_case(a, "min_lower"), "minLower");
    ck_assert_str_eq(bridge_camel_case(a, "b64_std"), "b64Std");
    const char *mods[] = {"s3", "ec2"};
    ck_assert_str_eq(bridge_default_token(a, "aws", "aws", "aws_s3_bucket", mods, 2), "aws:s3/bucket:Bucket");
    ck_assert_str_eq(bridge_default_token(a, "aws", "aws", "aws_s3_bucket", NULL, 0), "aws:index/s3Bucket:S3Bucket");
    ck_assert_str_eq(bridge_default_token(a, "gcp", "google", "google_compute_instance", NULL, 0),
                     "gcp:index/computeInstance:ComputeInstance");
    arena_free(a);
}
END_TEST

START_TEST(test_bridge_metadata) {
    bridge_set_t *b = load_bridge();
    const bridge_resource_t *r = bridge_find_resource(b, "github_repository");
    ck_assert_ptr_nonnull(r);
    ck_assert_str_eq(r->token, "github:index/repository:Repository");
    ck_assert(bridge_field_max_items_one(bridge_field(r->fields, "pages")) == BRIDGE_MIO_TRUE);
    ck_assert(bridge_field_max_items_one(bridge_field(r->fields, "topics")) == BRIDGE_MIO_FALSE);
    ck_assert(bridge_field_max_items_one(bridge_field(bridge_field_elem_fields(bridge_field(r->fields, "pages")),
                                                      "source")) == BRIDGE_MIO_TRUE);
    ck_assert_str_eq(bridge_renamed_property(b, "random:index/randomShuffle:RandomShuffle", "input"), "inputs");
    ck_assert_ptr_null(bridge_renamed_property(b, "random:index/randomShuffle:RandomShuffle", "keepers"));
    ck_assert_str_eq(bridge_package_for_provider(b, "google"), "gcp");
    ck_assert_str_eq(bridge_package_for_provider(b, "azurerm"), "azure");
    /* tls keeps its mapping only in renames.resources. */
    ck_assert_str_eq(bridge_find_resource(b, "tls_private_key")->token, "tls:index/privateKey:PrivateKey");
    ck_assert_uint_gt(bridge_resource_count(b), 2000);
    bridge_set_free(b);

    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    b = bridge_set_new();
    ck_assert(!bridge_set_add_path(b, tu_data(a, "schemas/github/schema.json"), &d));
    ck_assert_str_eq(d.head->message, "not a mapping document (GetMapping's format: `resources` of `{\"tok\": ...}` "
                                      "objects), nor Terraform-bridge metadata (no `auto-aliasing`, `renames` or "
                                      "`resources`), nor a Terraform provider schema");
    /* Terraform provider schemas give Sensitive flags. */
    ck_assert(bridge_set_add_path(b, tu_data(a, "tf-provider-schemas"), &d));
    ck_assert_uint_eq(bridge_tf_schema_count(b), 4);
    const char *p1[] = {"plaintext_value"}, *p2[] = {"name"};
    ck_assert(bridge_tf_sensitive(b, "github_actions_secret", p1, 1));
    ck_assert(!bridge_tf_sensitive(b, "github_actions_secret", p2, 1));
    bridge_set_free(b);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_modules_counts_aliases_golden) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    bridge_set_t *b = load_bridge();
    tf_state_t *s = tfstate_load(a, fixture(a, "modules.tfstate"), &d);
    ck_assert_ptr_nonnull(s);
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(r.converted, 5);
    ck_assert_uint_eq(r.skipped, 1);
    ck_assert_uint_eq(r.unmapped, 2); /* null_resource, and aws_route: no aws mapping or schema given */
    ck_assert_uint_eq(r.no_id, 0);
    ck_assert_uint_eq(r.providers, 1);
    char *json = import_file_to_json(f);
    char *expected = tu_read(fixture(a, "modules.expected.json"), NULL);
    ck_assert_ptr_nonnull(expected);
    ck_assert_str_eq(json, expected);
    /* The unmapped resource is listed with its reason, not dropped. */
    bool found = false;
    for (size_t i = 0; i < r.n_entries; i++) {
        if (strcmp(r.entries[i].address, "null_resource.hook") != 0) continue;
        found = true;
        ck_assert_int_eq(r.entries[i].outcome, CONVERT_UNMAPPED);
        ck_assert_str_eq(r.entries[i].reason,
                         "no mapping for Terraform provider 'registry.terraform.io/hashicorp/null' "
                         "and no schema of Pulumi package 'null' to confirm a type");
    }
    ck_assert(found);
    free(json);
    free(expected);
    tfstate_free(s);
    bridge_set_free(b);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_id_exceptions) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":4,\"lineage\":\"x\",\"resources\":["
        "{\"mode\":\"managed\",\"type\":\"aws_ecs_service\",\"name\":\"svc\",\"provider\":\"provider.aws\","
        "\"instances\":[{\"attributes\":{\"id\":\"arn:svc\",\"cluster\":\"arn:aws:ecs:us-east-1:1:cluster/main\","
        "\"name\":\"api\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_appautoscaling_policy\",\"name\":\"p\",\"provider\":\"provider.aws\","
        "\"instances\":[{\"attributes\":{\"id\":\"x\",\"service_namespace\":\"ecs\",\"resource_id\":\"service/main/"
        "api\","
        "\"scalable_dimension\":\"ecs:service:DesiredCount\",\"name\":\"cpu\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_iam_role_policy_attachment\",\"name\":\"att\",\"provider\":\"provider."
        "aws\","
        "\"instances\":[{\"attributes\":{\"id\":\"x\",\"role\":\"r\",\"policy_arn\":\"arn:p\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_ecs_cluster\",\"name\":\"c\",\"provider\":\"provider.aws\","
        "\"instances\":[{\"attributes\":{\"id\":\"arn:c\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_route\",\"name\":\"v6\",\"provider\":\"provider.aws\","
        "\"instances\":[{\"attributes\":{\"id\":\"r-rtb-1\",\"route_table_id\":\"rtb-1\",\"destination_cidr_block\":"
        "\"\",\"destination_ipv6_cidr_block\":\"::/0\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_route_table_association\",\"name\":\"gw\",\"provider\":"
        "\"provider.aws\",\"instances\":[{\"attributes\":{\"id\":\"rtbassoc-1\",\"subnet_id\":\"\",\"gateway_id\":"
        "\"igw-1\",\"route_table_id\":\"rtb-1\"}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "ids.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    const char *map =
        "{\"name\":\"aws\",\"resources\":{\"aws_ecs_service\":{\"tok\":\"aws:ecs/service:Service\"},"
        "\"aws_appautoscaling_policy\":{\"tok\":\"aws:appautoscaling/policy:Policy\"},"
        "\"aws_iam_role_policy_attachment\":{\"tok\":\"aws:iam/rolePolicyAttachment:RolePolicyAttachment\"},"
        "\"aws_ecs_cluster\":{\"tok\":\"aws:ecs/cluster:Cluster\"},\"aws_route\":{\"tok\":\"aws:ec2/route:Route\"},"
        "\"aws_route_table_association\":{\"tok\":\"aws:ec2/routeTableAssociation:RouteTableAssociation\"}}}";
    bridge_set_t *b = bridge_set_new();
    ck_assert(bridge_set_add_mapping(b, map, strlen(map), "aws", "aws.json", &d));
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_uint_eq(f->n_specs, 5);
    ck_assert_str_eq(f->specs[0].type, "aws:ecs/service:Service");
    ck_assert_str_eq(f->specs[0].id, "main/api");
    ck_assert_str_eq(f->specs[1].id, "ecs/service/main/api/ecs:service:DesiredCount/cpu");
    ck_assert_str_eq(f->specs[2].id, "r/arn:p");
    /* a route's destination is whichever of its three it has; an association's resource a subnet or a gateway */
    ck_assert_str_eq(f->specs[3].id, "rtb-1_::/0");
    ck_assert_str_eq(f->specs[4].id, "igw-1/rtb-1");
    ck_assert_uint_eq(r.no_id, 1);
    ck_assert_str_eq(r.entries[3].reason, "the provider imports it by `<name>`, and its `name` is not recorded in the "
                                          "Terraform state");
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Types whose importer takes another form than the state's `id`, built from attributes the state
 * records (read13 F1): AWS user/group policy attachments `<user>/<policyArn>`, a user's group
 * membership `<user>/<group1>/<group2>`, an SSH key `<username>:<sshPublicKeyId>:<encoding>`, a server
 * certificate by its name; GitHub branch protection `<repositoryId>:<pattern>`; an OpenStack LB member
 * `<poolId>/<id>`; every GCP IAM member and binding `<resource> <role> [<member>] [<condition title>]`
 * (space-separated: the importer splits on whitespace), the resource part being the `id` less its role,
 * member and condition. Each was written with its Terraform `id` and called converted. One whose form
 * cannot be built is not converted, with why. */
START_TEST(test_id_forms_from_attributes) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":4,\"lineage\":\"x\",\"resources\":["
        "{\"mode\":\"managed\",\"type\":\"aws_iam_user_policy_attachment\",\"name\":\"upa\",\"provider\":\"provider."
        "x\",\"instances\":[{\"attributes\":{\"id\":\"lb-2020\",\"user\":\"lb\",\"policy_arn\":\"arn:aws:iam::1:policy/"
        "t\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_iam_group_policy_attachment\",\"name\":\"gpa\",\"provider\":\"provider."
        "x\",\"instances\":[{\"attributes\":{\"id\":\"g-2022\",\"group\":\"g\",\"policy_arn\":\"arn:p\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_iam_user_group_membership\",\"name\":\"ugm\",\"provider\":\"provider.x\","
        "\"instances\":[{\"attributes\":{\"id\":\"terraform-1\",\"user\":\"u\",\"groups\":[\"g1\",\"g2\"]}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_iam_user_ssh_key\",\"name\":\"ssh\",\"provider\":\"provider.x\","
        "\"instances\":[{\"attributes\":{\"id\":\"APKA1\",\"username\":\"u\",\"ssh_public_key_id\":\"APKA1\","
        "\"encoding\":\"SSH\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_iam_server_certificate\",\"name\":\"cert\",\"provider\":\"provider.x\","
        "\"instances\":[{\"attributes\":{\"id\":\"ASCA1\",\"name\":\"example.com\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"github_branch_protection\",\"name\":\"bp\",\"provider\":\"provider.x\","
        "\"instances\":[{\"attributes\":{\"id\":\"MDIwOkJy\",\"repository_id\":\"MDEwOlJl\",\"pattern\":\"main\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"openstack_lb_member_v2\",\"name\":\"m\",\"provider\":\"provider.x\","
        "\"instances\":[{\"attributes\":{\"id\":\"m-1\",\"pool_id\":\"p-1\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"google_storage_bucket_iam_member\",\"name\":\"bm\",\"provider\":\"provider."
        "x\",\"instances\":[{\"attributes\":{\"id\":\"b/bk/roles/storage.objectViewer/user:Jane@x.com\",\"bucket\":\"b/"
        "bk\",\"role\":\"roles/storage.objectViewer\",\"member\":\"user:Jane@x.com\",\"condition\":[]}}]},"
        "{\"mode\":\"managed\",\"type\":\"google_project_iam_binding\",\"name\":\"pb\",\"provider\":\"provider.x\","
        "\"instances\":[{\"attributes\":{\"id\":\"p1/roles/viewer/expires soon//request.time < "
        "x\",\"project\":\"p1\",\"role\":\"roles/"
        "viewer\",\"members\":[\"user:a@x.com\"],\"condition\":[{\"title\":\"expires "
        "soon\",\"description\":\"\",\"expression\":\"request.time < x\"}]}}]},"
        "{\"mode\":\"managed\",\"type\":\"google_project_iam_member\",\"name\":\"odd\",\"provider\":\"provider.x\","
        "\"instances\":[{\"attributes\":{\"id\":\"something-else\",\"project\":\"p1\",\"role\":\"roles/"
        "viewer\",\"member\":\"user:a@x.com\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_iam_user_group_membership\",\"name\":\"nogroups\",\"provider\":"
        "\"provider.x\",\"instances\":[{\"attributes\":{\"id\":\"terraform-2\",\"user\":\"u\",\"groups\":[]}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "forms.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    const char *map =
        "{\"name\":\"x\",\"resources\":{"
        "\"aws_iam_user_policy_attachment\":{\"tok\":\"aws:iam/userPolicyAttachment:UserPolicyAttachment\"},"
        "\"aws_iam_group_policy_attachment\":{\"tok\":\"aws:iam/groupPolicyAttachment:GroupPolicyAttachment\"},"
        "\"aws_iam_user_group_membership\":{\"tok\":\"aws:iam/userGroupMembership:UserGroupMembership\"},"
        "\"aws_iam_user_ssh_key\":{\"tok\":\"aws:iam/sshKey:SshKey\"},"
        "\"aws_iam_server_certificate\":{\"tok\":\"aws:iam/serverCertificate:ServerCertificate\"},"
        "\"github_branch_protection\":{\"tok\":\"github:index/branchProtection:BranchProtection\"},"
        "\"openstack_lb_member_v2\":{\"tok\":\"openstack:loadbalancer/member:Member\"},"
        "\"google_storage_bucket_iam_member\":{\"tok\":\"gcp:storage/bucketIAMMember:BucketIAMMember\"},"
        "\"google_project_iam_binding\":{\"tok\":\"gcp:projects/iAMBinding:IAMBinding\"},"
        "\"google_project_iam_member\":{\"tok\":\"gcp:projects/iAMMember:IAMMember\"}}}";
    bridge_set_t *b = bridge_set_new();
    ck_assert(bridge_set_add_mapping(b, map, strlen(map), "x", "x.json", &d));
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 9);
    ck_assert_str_eq(f->specs[0].id, "lb/arn:aws:iam::1:policy/t");
    ck_assert_str_eq(f->specs[1].id, "g/arn:p");
    ck_assert_str_eq(f->specs[2].id, "u/g1/g2");
    ck_assert_str_eq(f->specs[3].id, "u:APKA1:SSH");
    ck_assert_str_eq(f->specs[4].id, "example.com");
    ck_assert_str_eq(f->specs[5].id, "MDEwOlJl:main");
    ck_assert_str_eq(f->specs[6].id, "p-1/m-1");
    ck_assert_str_eq(f->specs[7].id, "b/bk roles/storage.objectViewer user:Jane@x.com");
    ck_assert_str_eq(f->specs[8].id, "p1 roles/viewer expires soon");
    ck_assert_uint_eq(r.no_id, 2);
    ck_assert_int_eq(r.entries[9].outcome, CONVERT_NO_ID);
    ck_assert_str_eq(r.entries[9].reason,
                     "the provider imports it by `<resource> <role> <member> [<condition title>]` (space-separated), "
                     "and its `id` \"something-else\" does not end with its role and member, so the resource part "
                     "cannot be told");
    ck_assert_int_eq(r.entries[10].outcome, CONVERT_NO_ID);
    ck_assert_str_eq(r.entries[10].reason, "the provider imports it by `<user>/<groups>`, and its `groups` is not "
                                           "recorded in the Terraform state");
    /* The offline snapshot of the same state finds each by that import ID (the same plan). */
    convert_report_t r2 = {0};
    deployment_t *dep = convert_tfstate_to_deployment_report(a, s, &o, &r2, &d);
    ck_assert_ptr_nonnull(dep);
    for (size_t i = 0; i < dep->n_resources; i++) {
        const state_resource_t *sr = &dep->resources[i];
        if (!sr->custom || strncmp(sr->type, "pulumi:", 7) == 0) continue;
        const char *why;
        ck_assert(importid_apart_from_id(sr->type));
        const char *iid = importid_of(a, sr->type, sr->id, sr->outputs, "Pulumi", &why);
        ck_assert_msg(iid != NULL, "%s: %s", sr->type, why);
        bool found = false;
        for (size_t k = 0; k < f->n_specs && !found; k++)
            found = strcmp(f->specs[k].id, iid) == 0;
        ck_assert_msg(found, "%s: %s", sr->type, iid);
    }
    deployment_free(dep);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Two Terraform addresses holding one object (the same type and ID: `terraform import` of it under two
 * addresses, a module moved without `moved`) were written as two specs, exit 0, and the import then
 * refused the whole file ("imported twice") (read13 F15). The second is not converted, naming the
 * first. */
START_TEST(test_same_object_twice_not_converted) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text = "{\"version\":4,\"lineage\":\"x\",\"resources\":["
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"a\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"x-y\",\"length\":2}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"b\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"x-y\",\"length\":2}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_string\",\"name\":\"c\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"x-y\",\"length\":3,\"result\":\"x-y\"}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "dup.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 2); /* a, and c: another type with the same ID is another object */
    ck_assert_str_eq(f->specs[0].name, "a");
    ck_assert_str_eq(f->specs[1].name, "c");
    ck_assert_uint_eq(r.no_id, 1);
    ck_assert_int_eq(r.entries[1].outcome, CONVERT_NO_ID);
    ck_assert_str_eq(r.entries[1].reason,
                     "the same object (type random:index/randomPet:RandomPet, ID 'x-y') as random_pet.a, which is "
                     "converted: Terraform holds it under two addresses, and one import of it is all Pulumi can "
                     "manage; remove the other address from the Terraform state (`terraform state rm "
                     "random_pet.b`) if it is a leftover");
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* The duplicate check above took two resources of one type and ID for one object even under two
 * provider configurations (a role "admin" in two accounts, by an alias) and for types whose ID is no
 * identity (two RandomIntegers that drew one result): the second was not converted, with advice to
 * `terraform state rm` a live resource (read13c F3). Both are converted now. */
START_TEST(test_same_id_other_provider_or_no_identity_converted) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text = "{\"version\":4,\"lineage\":\"x\",\"resources\":["
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"prod\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"x-y\",\"length\":2}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"staging\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"].staging\","
                       "\"instances\":[{\"attributes\":{\"id\":\"x-y\",\"length\":2}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_integer\",\"name\":\"az_a\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"1\",\"min\":0,\"max\":2,\"result\":1}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_integer\",\"name\":\"az_b\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"1\",\"min\":0,\"max\":2,\"result\":1}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"again\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"].staging\","
                       "\"instances\":[{\"attributes\":{\"id\":\"x-y\",\"length\":2}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "twin.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(r.n_entries, 5);
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(r.entries[i].outcome == CONVERT_CONVERTED, "%s not converted: %s", r.entries[i].address,
                      r.entries[i].reason ? r.entries[i].reason : "");
    ck_assert_str_eq(r.entries[2].id, "1,0,2");
    ck_assert_str_eq(r.entries[3].id, "1,0,2");
    /* The same object under two addresses of one provider configuration is still refused. */
    ck_assert_int_eq(r.entries[4].outcome, CONVERT_NO_ID);
    ck_assert_ptr_nonnull(strstr(r.entries[4].reason, "the same object (type random:index/randomPet:RandomPet, "
                                                      "ID 'x-y') as random_pet.staging, which is converted"));
    ck_assert_uint_eq(r.no_id, 1);
    size_t providers = 0, resources = 0;
    for (size_t i = 0; i < f->n_specs; i++)
        *(strncmp(f->specs[i].type, "pulumi:providers:", 17) == 0 ? &providers : &resources) += 1;
    ck_assert_uint_eq(providers, 1); /* random_staging, used by random_pet.staging */
    ck_assert_uint_eq(resources, 4);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* A random_pet, random_shuffle or tls_private_key was "converted" like any other resource, for an import
 * its provider cannot perform: terraform-provider-random's pet and shuffle and terraform-provider-tls's
 * private key implement no ImportState, so `pulumi import` and the code's `import` option fail
 * ("Resource Import Not Implemented"; read13 F5). They are still written (recorded into a stack from
 * the state, no importer runs), marked stack-only with the reason, and counted. */
START_TEST(test_no_importer_types_into_a_stack_only) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text = "{\"version\":4,\"lineage\":\"x\",\"resources\":["
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"p\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"x-y\",\"length\":2}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_shuffle\",\"name\":\"s\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"-\",\"input\":[\"a\",\"b\"],\"result\":[\"b\",\"a\"]}}]},"
                       "{\"mode\":\"managed\",\"type\":\"tls_private_key\",\"name\":\"k\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/tls\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"1815e6ab\",\"algorithm\":\"RSA\"}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_string\",\"name\":\"r\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"abc\",\"result\":\"abc\",\"length\":3}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "noimp.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(r.n_entries, 4);
    for (size_t i = 0; i < 4; i++) {
        const convert_entry_t *e = &r.entries[i];
        ck_assert_msg(e->outcome == CONVERT_CONVERTED, "%s not written: %s", e->address, e->reason ? e->reason : "");
        ck_assert_msg(e->stack_only == (i < 3), "%s: stack_only %d", e->address, e->stack_only);
    }
    ck_assert_str_eq(r.entries[0].reason,
                     "into a stack only: its provider implements no importer for random_pet (an import fails with "
                     "\"Resource Import Not Implemented\"), so `pulumi import` and the code's `import` resource "
                     "option cannot import it; record it from this state into a stack instead (`cimport --spec FILE "
                     "--offline-state STATE`, into the selected stack or with --stack-state), which runs no "
                     "importer");
    ck_assert_ptr_null(r.entries[3].reason);
    ck_assert_uint_eq(r.stack_only, 3);
    ck_assert_uint_eq(r.converted, 4);
    ck_assert_uint_eq(f->n_specs, 4); /* still written: the stack path reads them from the state */
    ck_assert_str_eq(importid_no_importer("tls:index/selfSignedCert:SelfSignedCert"), "tls_self_signed_cert");
    ck_assert_ptr_null(importid_no_importer("random:index/randomString:RandomString"));
    ck_assert_ptr_null(importid_no_importer("random_uuid"));
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* An explicit provider spec was written for an alias none of whose resources is converted (its only
 * resource has no import ID), with the warning to configure it: an unused provider that, imported,
 * became a resource of the stack the next `pulumi up` deletes (read13 F11). Only the providers of
 * converted resources are written. */
START_TEST(test_provider_spec_only_when_used) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text = "{\"version\":4,\"lineage\":\"x\",\"resources\":["
                       "{\"mode\":\"managed\",\"type\":\"random_password\",\"name\":\"pw\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"].west\",\"instances\":["
                       "{\"schema_version\":3,\"attributes\":{\"id\":\"none\",\"length\":8,\"result\":\"0therPw!\"}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"p\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"x-y\",\"length\":2}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"q\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"].east\",\"instances\":["
                       "{\"attributes\":{\"id\":\"q-z\",\"length\":2}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "orphan.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(r.providers, 1);
    ck_assert_uint_eq(f->n_specs, 3);
    ck_assert_str_eq(f->specs[0].type, "pulumi:providers:random");
    ck_assert_str_eq(f->specs[0].name, "random_east");
    ck_assert_str_eq(f->specs[2].provider, "random_east");
    ck_assert_ptr_null(f->specs[1].provider);
    /* the snapshot of the same plan holds no provider of the unconverted alias either */
    convert_report_t r2 = {0};
    deployment_t *dep = convert_tfstate_to_deployment_report(a, s, &o, &r2, &d);
    ck_assert_ptr_nonnull(dep);
    for (size_t i = 0; i < dep->n_resources; i++)
        ck_assert_ptr_null(strstr(dep->resources[i].urn, "random_west"));
    deployment_free(dep);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* A random_password's Terraform `id` is the placeholder "none"; the random provider imports one by its
 * value (a secret), as random_bytes by its base64 value. Neither is converted with the placeholder (which
 * would "import" a password "none"), nor with the secret in plaintext in the import file: refused with
 * the reason, and two passwords are two refusals, not one resource "imported twice". */
START_TEST(test_secret_import_ids_refused) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":4,\"lineage\":\"x\",\"resources\":["
        "{\"mode\":\"managed\",\"type\":\"random_password\",\"name\":\"pw\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"schema_version\":3,\"attributes\":{\"id\":\"none\",\"length\":16,\"result\":\"S3cr3t-Value-XYZ\"},"
        "\"sensitive_attributes\":[[{\"type\":\"get_attr\",\"value\":\"result\"}]]}]},"
        "{\"mode\":\"managed\",\"type\":\"random_password\",\"name\":\"pw2\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"schema_version\":3,\"attributes\":{\"id\":\"none\",\"length\":8,\"result\":\"0therPw!\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"random_bytes\",\"name\":\"key\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"schema_version\":0,\"attributes\":{\"length\":4,\"result_base64\":\"q80S3w==\","
        "\"result_hex\":\"abcd12df\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"random_string\",\"name\":\"s\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"schema_version\":2,\"attributes\":{\"id\":\"abcDEF12\",\"length\":8,\"result\":\"abcDEF12\"}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "pw.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(r.converted, 1);
    ck_assert_uint_eq(r.no_id, 3);
    ck_assert_uint_eq(f->n_specs, 1);
    ck_assert_str_eq(f->specs[0].type, "random:index/randomString:RandomString");
    ck_assert_str_eq(f->specs[0].id, "abcDEF12");
    ck_assert_int_eq(r.entries[0].outcome, CONVERT_NO_ID);
    ck_assert_str_eq(r.entries[0].token, "random:index/randomPassword:RandomPassword");
    ck_assert_str_eq(r.entries[0].reason,
                     "the random provider imports it by its value (its `result` attribute, a secret), not by its "
                     "Terraform `id` \"none\" (a placeholder): cimport does not write a secret into the import file in "
                     "plaintext. Import it by hand (`pulumi import <type> <name> <value>`, or add it to the import "
                     "file yourself if its value in plaintext there is acceptable), or let the program create a new "
                     "one");
    ck_assert_int_eq(r.entries[1].outcome, CONVERT_NO_ID);
    ck_assert_int_eq(r.entries[2].outcome, CONVERT_NO_ID);
    ck_assert_ptr_nonnull(strstr(r.entries[2].reason, "its `result_base64` attribute, a secret"));
    char *json = import_file_to_json(f);
    ck_assert_ptr_null(strstr(json, "none"));
    ck_assert_ptr_null(strstr(json, "S3cr3t"));
    ck_assert_ptr_null(strstr(json, "q80S3w"));
    free(json);
    /* The offline snapshot of the same state does not serve them either (the same plan). */
    convert_report_t r2 = {0};
    deployment_t *dep = convert_tfstate_to_deployment_report(a, s, &o, &r2, &d);
    ck_assert_ptr_nonnull(dep);
    ck_assert_uint_eq(dep->n_resources, 2); /* the stack and the string */
    deployment_free(dep);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* A provider block of a module (`module.m.provider["…"].west`, `module.n.provider["…"]`) is another
 * configuration than the root's `provider["…"].west` or default: each gets its own provider spec, and
 * their resources keep theirs (they were all put on the root's alias or on the default provider). */
START_TEST(test_module_provider_configs_distinct) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":4,\"lineage\":\"x\",\"resources\":["
        "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"a\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"].west\",\"instances\":["
        "{\"attributes\":{\"id\":\"a-pet\",\"length\":2}}]},"
        "{\"module\":\"module.m\",\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"b\","
        "\"provider\":\"module.m.provider[\\\"registry.terraform.io/hashicorp/random\\\"].west\",\"instances\":["
        "{\"attributes\":{\"id\":\"b-pet\",\"length\":2}}]},"
        "{\"module\":\"module.n\",\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"c\","
        "\"provider\":\"module.n.provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"attributes\":{\"id\":\"c-pet\",\"length\":2}}]},"
        "{\"module\":\"module.k\",\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"e\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"attributes\":{\"id\":\"e-pet\",\"length\":2}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "al.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(r.providers, 3);
    ck_assert(r.providers_unconfigured);
    ck_assert_uint_eq(f->n_specs, 7);
    ck_assert_str_eq(f->specs[0].name, "random_west");
    ck_assert_str_eq(f->specs[1].name, "random_m_west");
    ck_assert_str_eq(f->specs[2].name, "random_n");
    ck_assert_str_eq(f->specs[2].type, "pulumi:providers:random");
    ck_assert_str_eq(f->specs[3].id, "a-pet");
    ck_assert_str_eq(f->specs[3].provider, "random_west");
    ck_assert_str_eq(f->specs[4].id, "b-pet");
    ck_assert_str_eq(f->specs[4].provider, "random_m_west");
    ck_assert_str_eq(f->specs[5].id, "c-pet");
    ck_assert_str_eq(f->specs[5].provider, "random_n");
    ck_assert_str_eq(f->specs[6].id, "e-pet"); /* the root's provider, inherited: the default one */
    ck_assert_ptr_null(f->specs[6].provider);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* A name taken already falls back to the resource's `name` or `tags.Name` attribute, but never to one
 * Terraform marks sensitive: the value would land in the import file, the code and every URN. */
START_TEST(test_readable_name_not_from_sensitive) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text = "{\"version\":4,\"lineage\":\"x\",\"resources\":["
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"web\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"p1\",\"length\":2}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_string\",\"name\":\"web\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"abcdefgh\",\"length\":8,\"name\":\"db-password-Hunter2Secret\"},"
                       "\"sensitive_attributes\":[[{\"type\":\"get_attr\",\"value\":\"name\"}]]}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_uuid\",\"name\":\"web\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"u-1\",\"tags\":{\"Name\":\"tagSecret\"}},"
                       "\"sensitive_attributes\":[[{\"type\":\"get_attr\",\"value\":\"tags\"},"
                       "{\"type\":\"index\",\"value\":{\"value\":\"Name\",\"type\":\"string\"}}]]}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "sn.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 3);
    ck_assert_str_eq(f->specs[0].name, "web");
    ck_assert_str_eq(f->specs[1].name, "web_string");
    ck_assert_str_eq(f->specs[2].name, "web_uuid");
    char *json = import_file_to_json(f);
    ck_assert_ptr_null(strstr(json, "Hunter2"));
    ck_assert_ptr_null(strstr(json, "tagSecret"));
    free(json);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* load_bridge's mappings, and one for types whose import ID is another form than their `id`
 * (importid.h) that no shared bridge metadata maps. */
static bridge_set_t *load_bridge_with_forms(diag_list_t *d) {
    const char *map =
        "{\"name\":\"aws\",\"resources\":{"
        "\"aws_iam_role_policy_attachment\":{\"tok\":\"aws:iam/rolePolicyAttachment:RolePolicyAttachment\"},"
        "\"aws_ecs_cluster\":{\"tok\":\"aws:ecs/cluster:Cluster\"},"
        "\"openstack_lb_member_v2\":{\"tok\":\"openstack:loadbalancer/member:Member\"}}}";
    bridge_set_t *b = load_bridge();
    ck_assert(bridge_set_add_mapping(b, map, strlen(map), "aws", "aws.json", d));
    return b;
}

/* A Terraform address gives the logical name (pulumi-converter-terraform: the resource's name, `-`, the
 * key), and addresses that differ give different ones: `p["a.b"]`, `p["a b"]`, `p["a_b"]` and `p_a_b`
 * are `p-a.b`, `p-a b`, `p-a_b` and `p_a_b`. When their sanitized spec names collided, the replacement
 * name went into the logical name too (`p-a b_pet`, `p-a_b_2`, `p_a_b_3`), so a URN depended on the other
 * resources of the state: converted again without `p["a.b"]`, `p["a b"]` was `p-a b`, another URN for
 * the same object (read13 F9). Only the spec name is deduplicated; a logical name changes only when two
 * of one type are equal (`p-x` and `p["x"]`), which two URNs cannot be. */
START_TEST(test_logical_names_from_terraform_addresses) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *head = "{\"version\":4,\"lineage\":\"x\",\"resources\":[";
    const char *pets = "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"p\",\"each\":\"map\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":[%s"
                       "{\"index_key\":\"a b\",\"attributes\":{\"id\":\"two-cat\",\"length\":2}},"
                       "{\"index_key\":\"a_b\",\"attributes\":{\"id\":\"three-cat\",\"length\":2}},"
                       "{\"index_key\":\"x\",\"attributes\":{\"id\":\"six-cat\",\"length\":2}}]},";
    const char *rest = "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"p_a_b\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"four-cat\",\"length\":2}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_string\",\"name\":\"p_a_b\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"abc\",\"length\":3,\"result\":\"abc\"}}]},"
                       "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"p-x\","
                       "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                       "{\"attributes\":{\"id\":\"five-cat\",\"length\":2}}]}]}";
    const char *first = "{\"index_key\":\"a.b\",\"attributes\":{\"id\":\"one-cat\",\"length\":2}},";
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    /* the logical name of each ID: once with p["a.b"], once without it */
    const char *logical[2][8] = {{0}};
    const char *ids[] = {"one-cat", "two-cat", "three-cat", "six-cat", "four-cat", "abc", "five-cat"};
    for (int pass = 0; pass < 2; pass++) {
        char *text = arena_sprintf(a, "%s%s%s", head, arena_sprintf(a, pets, pass ? "" : first), rest);
        tf_state_t *s = tfstate_parse(a, text, strlen(text), "names.tfstate", &d);
        ck_assert_ptr_nonnull(s);
        convert_report_t r = {0};
        import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(f->n_specs, pass ? 6 : 7);
        for (size_t i = 0; i < f->n_specs; i++)
            for (size_t k = 0; k < 7; k++)
                if (strcmp(f->specs[i].id, ids[k]) == 0)
                    logical[pass][k] = f->specs[i].logical_name ? f->specs[i].logical_name : f->specs[i].name;
        if (pass == 0) {
            /* spec names stay unique (they name the code's variables) */
            ck_assert_str_eq(f->specs[0].name, "p_a_b");
            ck_assert_str_eq(f->specs[1].name, "p_a_b_pet");
            ck_assert_str_eq(f->specs[2].name, "p_a_b_2");
            /* the URNs of the snapshot are the logical names */
            deployment_t *dep = convert_tfstate_to_deployment_report(a, s, &o, &(convert_report_t){0}, &d);
            ck_assert_ptr_nonnull(dep);
            ck_assert_str_eq(dep->resources[2].urn,
                             "urn:pulumi:dev::imported::random:index/randomPet:RandomPet::p-a b");
            deployment_free(dep);
        }
        tfstate_free(s);
    }
    ck_assert_str_eq(logical[0][0], "p-a.b");
    ck_assert_str_eq(logical[0][1], "p-a b");
    ck_assert_str_eq(logical[0][2], "p-a_b");
    ck_assert_str_eq(logical[0][3], "p-x");
    ck_assert_str_eq(logical[0][4], "p_a_b");
    ck_assert_str_eq(logical[0][5], "p_a_b"); /* another type: another URN */
    ck_assert_str_eq(logical[0][6], "p-x_2"); /* `p-x` and `p["x"]`: one logical name, one type */
    for (size_t k = 1; k < 7; k++)
        ck_assert_str_eq(logical[1][k], logical[0][k]);
    bridge_set_free(b);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* An `id` Terraform marks sensitive (sensitive_attributes, or the provider's schema) was written into the
 * import file in plaintext, where the import refuses the same ID as a secret value (read13 F4); an
 * attribute the import ID is made of likewise. Such a resource is not converted, with the reason, as a
 * random_password; a type whose import ID does not hold its `id` (an ECS cluster, by its name) is. */
START_TEST(test_sensitive_id_not_converted) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":4,\"lineage\":\"x\",\"resources\":["
        "{\"mode\":\"managed\",\"type\":\"random_string\",\"name\":\"s\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"schema_version\":2,\"attributes\":{\"id\":\"TopSecretValue1\",\"length\":15,\"result\":"
        "\"TopSecretValue1\"},\"sensitive_attributes\":[[{\"type\":\"get_attr\",\"value\":\"result\"}],"
        "[{\"type\":\"get_attr\",\"value\":\"id\"}]]}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_iam_role_policy_attachment\",\"name\":\"att\",\"provider\":"
        "\"provider[\\\"registry.terraform.io/hashicorp/aws\\\"]\",\"instances\":[{\"attributes\":{\"id\":\"r-1\","
        "\"role\":\"r\",\"policy_arn\":\"arn:SecretPolicy\"},\"sensitive_attributes\":[[{\"type\":\"get_attr\","
        "\"value\":\"policy_arn\"}]]}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_ecs_cluster\",\"name\":\"c\",\"provider\":"
        "\"provider[\\\"registry.terraform.io/hashicorp/aws\\\"]\",\"instances\":[{\"attributes\":{\"id\":"
        "\"arn:c/"
        "SecretArn\",\"name\":\"main\"},\"sensitive_attributes\":[[{\"type\":\"get_attr\",\"value\":\"id\"}]]}]},"
        "{\"mode\":\"managed\",\"type\":\"random_string\",\"name\":\"plain\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"schema_version\":2,\"attributes\":{\"id\":\"abcDEF12\",\"length\":8,\"result\":\"abcDEF12\"}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "sens.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge_with_forms(&d);
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(r.no_id, 2);
    ck_assert_uint_eq(f->n_specs, 2);
    ck_assert_str_eq(f->specs[0].id, "main");
    ck_assert_str_eq(f->specs[1].id, "abcDEF12");
    ck_assert_int_eq(r.entries[0].outcome, CONVERT_NO_ID);
    ck_assert_str_eq(r.entries[0].reason,
                     "Terraform marks its `id` sensitive, and the provider imports it by that ID: cimport does not "
                     "write a secret into the import file in plaintext. Import it by hand (`pulumi import <type> "
                     "<name> <ID>`, or add it to the import file yourself if its ID in plaintext there is "
                     "acceptable)");
    ck_assert_int_eq(r.entries[1].outcome, CONVERT_NO_ID);
    ck_assert_str_eq(r.entries[1].reason, "the provider imports it by `<role>/<policy_arn>`, and its `policy_arn` is "
                                          "a secret, which the import ID would hold in plaintext");
    char *json = import_file_to_json(f);
    ck_assert_ptr_null(strstr(json, "Secret"));
    free(json);
    /* the offline snapshot of the same plan does not serve them either */
    convert_report_t r2 = {0};
    deployment_t *dep = convert_tfstate_to_deployment_report(a, s, &o, &r2, &d);
    ck_assert_ptr_nonnull(dep);
    ck_assert_uint_eq(dep->n_resources, 3); /* the stack, the cluster and the plain string */
    deployment_free(dep);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* The offline snapshot of a Terraform state recorded a resource whose import ID is another form than its
 * ID under that import ID — a RandomInteger as "2,0,2", no `id` output — so imported into a stack it was
 * recorded so, where the provider's importer records "2" and a Pulumi export's resource has "2" (read13
 * F12); a later run with the provider was refused for that URN ("already exists with ID '2,0,2'"). The
 * snapshot records the state's own `id` for every type of the import-ID forms table, and the `id`
 * output as the bridge does; the offline provider still finds each by its import ID. */
START_TEST(test_snapshot_records_state_id) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":4,\"lineage\":\"x\",\"resources\":["
        "{\"mode\":\"managed\",\"type\":\"random_integer\",\"name\":\"az_a\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"attributes\":{\"id\":\"2\",\"min\":0,\"max\":2,\"result\":2}}]},"
        "{\"mode\":\"managed\",\"type\":\"random_id\",\"name\":\"k\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"attributes\":{\"id\":\"q80S3w\",\"prefix\":\"k-\",\"byte_length\":4,\"b64_url\":\"q80S3w\","
        "\"b64_std\":\"k-q80S3w==\",\"hex\":\"k-abcd12df\",\"dec\":\"k-2882343647\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_iam_role_policy_attachment\",\"name\":\"att\",\"provider\":"
        "\"provider[\\\"registry.terraform.io/hashicorp/aws\\\"]\",\"instances\":[{\"attributes\":{\"id\":"
        "\"r-20240514105624840000000001\",\"role\":\"r\",\"policy_arn\":\"arn:p\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"aws_ecs_cluster\",\"name\":\"c\",\"provider\":"
        "\"provider[\\\"registry.terraform.io/hashicorp/aws\\\"]\",\"instances\":[{\"attributes\":{\"id\":"
        "\"arn:aws:ecs:us-east-1:1:cluster/main\",\"name\":\"main\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"openstack_lb_member_v2\",\"name\":\"m\",\"provider\":"
        "\"provider[\\\"registry.terraform.io/terraform-provider-openstack/openstack\\\"]\",\"instances\":["
        "{\"attributes\":{\"id\":\"m-1\",\"pool_id\":\"p-1\"}}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "ids.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge_with_forms(&d);
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 5);
    const char *import_ids[] = {"2,0,2", "k-,q80S3w", "r/arn:p", "main", "p-1/m-1"};
    const char *state_ids[] = {"2", "q80S3w", "r-20240514105624840000000001", "arn:aws:ecs:us-east-1:1:cluster/main",
                               "m-1"};
    for (size_t i = 0; i < 5; i++)
        ck_assert_str_eq(f->specs[i].id, import_ids[i]);
    deployment_t *dep = convert_tfstate_to_deployment_report(a, s, &o, &(convert_report_t){0}, &d);
    ck_assert_ptr_nonnull(dep);
    ck_assert_uint_eq(dep->n_resources, 6);
    for (size_t i = 0; i < 5; i++) {
        const state_resource_t *sr = &dep->resources[i + 1];
        ck_assert_str_eq(sr->type, f->specs[i].type);
        ck_assert_str_eq(sr->id, state_ids[i]);
        const pv_t *out_id = pv_object_get(sr->outputs, "id");
        ck_assert_msg(out_id && out_id->kind == PV_STRING, "%s: no `id` output", sr->type);
        ck_assert_str_eq(out_id->u.str.s, state_ids[i]);
        ck_assert_ptr_null(pv_object_get(sr->inputs, "id")); /* no input, with a schema or without */
        /* what the offline provider finds it by: the import ID made from the recorded ID and outputs */
        const char *why, *iid = importid_of(a, sr->type, sr->id, sr->outputs, "Pulumi", &why);
        ck_assert_msg(iid && strcmp(iid, import_ids[i]) == 0, "%s: %s", sr->type, iid ? iid : why);
    }
    deployment_free(dep);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* The bridge records a Terraform instance's schema version (and its private meta, e.g. timeouts) as the
 * `__meta` output, `{"schema_version":"N"}` when N > 0 (the shared exports: RandomString of 4.16.0
 * has {"schema_version":"2"}, RandomPet none); without it a bridged provider takes the state for
 * version 0 and upgrades it again. The offline snapshot of a Terraform state carries it the same way. */
START_TEST(test_snapshot_meta_schema_version) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":4,\"lineage\":\"x\",\"resources\":["
        "{\"mode\":\"managed\",\"type\":\"random_string\",\"name\":\"s\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"schema_version\":2,\"attributes\":{\"id\":\"abcDEF12\",\"length\":8,\"result\":\"abcDEF12\"}}]},"
        "{\"mode\":\"managed\",\"type\":\"random_pet\",\"name\":\"p\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"schema_version\":0,\"attributes\":{\"id\":\"calm-cat\",\"length\":2}}]},"
        /* private: base64 of {"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0":{"create":600000000000}} */
        "{\"mode\":\"managed\",\"type\":\"random_uuid\",\"name\":\"u\","
        "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
        "{\"schema_version\":1,\"attributes\":{\"id\":\"u-1\"},\"private\":"
        "\"eyJlMmJmYjczMC1lY2FhLTExZTYtOGY4OC0zNDM2M2JjN2M0YzAiOnsiY3JlYXRlIjo2MDAwMDAwMDAwMDB9fQ==\"}]}]}";
    tf_state_t *s = tfstate_parse(a, text, strlen(text), "meta.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    deployment_t *dep = convert_tfstate_to_deployment_report(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(dep);
    ck_assert_uint_eq(dep->n_resources, 4);
    const pv_t *m = pv_object_get(dep->resources[1].outputs, "__meta");
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(m->u.str.s, "{\"schema_version\":\"2\"}");
    ck_assert_ptr_null(pv_object_get(dep->resources[1].inputs, "__meta"));
    ck_assert_ptr_null(pv_object_get(dep->resources[2].outputs, "__meta"));
    m = pv_object_get(dep->resources[3].outputs, "__meta");
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(m->u.str.s,
                     "{\"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0\":{\"create\":600000000000},\"schema_version\":\"1\"}");
    deployment_free(dep);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_bad_inputs_exact_errors) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_str_eq(parse_error(a, fixture(a, "truncated.tfstate"), &d),
                     "not a Terraform state: invalid JSON at line 22, column 5 (is the file truncated?)");
    diag_list_free(&d);
    diag_list_init(&d);
    ck_assert_str_eq(parse_error(a, tu_data(a, "tfstate/inframap/generate/testdata/version_3_state.json"), &d),
                     "Terraform state version 3 (written by Terraform 0.11.14) is not supported; cimport reads "
                     "version 4. Upgrade it by running `terraform refresh` (or `terraform apply`) with Terraform 0.12 "
                     "or later, then convert the upgraded state");
    diag_list_free(&d);
    diag_list_init(&d);
    ck_assert_str_eq(
        parse_error(a, tu_data(a, "tfstate/infracost/cmd/infracost/testdata/terraform_v0.14_plan.json"), &d),
        "a Terraform plan, not a state; convert the state instead: `terraform show -json > state.json` "
        "(without a plan file) or the terraform.tfstate file");
    diag_list_free(&d);
    diag_list_init(&d);
    ck_assert_str_eq(parse_error(a, tu_data(a, "schemas/random/bridge-metadata.json"), &d),
                     "not a Terraform state: it has neither `version` nor `format_version`; pass a terraform.tfstate "
                     "file or the output of `terraform show -json`");
    diag_list_free(&d);

    /* A state with no resources is not an error: an import file with no specs, and a note. */
    diag_list_init(&d);
    tf_state_t *s = tfstate_load(a, fixture(a, "empty.tfstate"), &d);
    ck_assert_ptr_nonnull(s);
    convert_report_t r = {0};
    import_file_t *empty = convert_tfstate_to_import_file(a, s, NULL, &r, &d);
    ck_assert_ptr_nonnull(empty);
    ck_assert_uint_eq(empty->n_specs, 0);
    ck_assert_int_eq(d.errors, 0);
    ck_assert_str_eq(r.note, "the state has no resources (it is empty, or holds only check results)");
    tfstate_free(s);
    diag_list_free(&d);

    /* An unknown provider: its resource is unmapped with the reason; the others convert. */
    diag_list_init(&d);
    bridge_set_t *b = load_bridge();
    s = tfstate_load(a, tu_data(a, "tfstate/pulumi-tool-terraform-migrate/pkg/testdata/unknown_provider_state.json"),
                     &d);
    ck_assert_ptr_nonnull(s);
    convert_options_t o = {.bridge = b};
    convert_report_t r2 = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r2, &d);
    ck_assert_uint_eq(f->n_specs, 1);
    ck_assert_str_eq(f->specs[0].type, "random:index/randomString:RandomString");
    ck_assert_uint_eq(r2.unmapped, 1);
    ck_assert_str_eq(r2.entries[0].address, "unknown_resource.example");
    ck_assert_str_eq(r2.entries[0].reason,
                     "no mapping for Terraform provider 'registry.opentofu.org/hashicorp/unknown' "
                     "and no schema of Pulumi package 'unknown' to confirm a type");
    tfstate_free(s);
    bridge_set_free(b);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_show_json_modules) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    tf_state_t *s = tfstate_load(
        a, tu_data(a, "tfstate/pulumi-tool-terraform-migrate/pkg/testdata/tofu_state_nested_modules.json"), &d);
    ck_assert_ptr_nonnull(s);
    ck_assert(s->is_show_json);
    const char *map = "{\"resources\":{\"aws_s3_bucket\":{\"tok\":\"aws:s3/bucket:Bucket\"}}}";
    bridge_set_t *b = bridge_set_new();
    ck_assert(bridge_set_add_mapping(b, map, strlen(map), "aws", "aws.json", &d));
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_uint_eq(f->n_specs, 4);
    ck_assert_str_eq(f->specs[0].name, "s3_bucket_this");
    ck_assert_str_eq(f->specs[1].name, "s3_bucket_tags_this");
    ck_assert_str_eq(f->specs[2].name, "s3_bucket_2_this");
    ck_assert_str_eq(f->specs[3].name, "s3_bucket_2_tags_this");
    ck_assert_str_eq(f->specs[0].type, "aws:s3/bucket:Bucket");
    /* `terraform show -json` records no provider configuration (alias, module provider block): every
     * resource goes to the default provider, which the report says (read13 F3: nothing said) */
    ck_assert(r.providers_unrecorded);
    ck_assert_uint_eq(r.providers, 0);
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Every file under tfstate/ converts or is refused with a known reason, and every instance of a
 * converted file is converted, skipped or listed as unmapped / without ID. With the shared bridge
 * metadata and schemas, no written type is absent from both; with neither, nothing is converted
 * (every managed instance is unmapped). The per-state counts are a reviewed golden file,
 * tests/fixtures/convert/tfstate-sweep.tsv (CIMPORT_UPDATE_GOLDEN=1 rewrites it). */
START_TEST(test_all_shared_tfstates_accounted) {
    arena_t *a = arena_new();
    bridge_set_t *b = load_bridge();
    schema_set_t *ss = schema_set_new();
    diag_list_t sd;
    diag_list_init(&sd);
    ck_assert(schema_set_add_path(ss, tu_data(a, "schemas"), &sd));
    diag_list_free(&sd);
    size_t n;
    char **files = tu_find_files(a, tu_data(a, "tfstate"), "", &n);
    size_t converted_files = 0, refused = 0, by_reason[4] = {0};
    size_t conv = 0, skip = 0, unm = 0, noid = 0, instances = 0, empty_files = 0;
    static const char *reasons[] = {"Terraform state version ", "not a Terraform state: ", "a Terraform plan"};
    buf_t table;
    buf_init(&table);
    buf_puts(&table, "# state\tconverted\tunmapped\tskipped\tno_id (with ../shared/data/schemas as mappings and "
                     "schemas; \"refused\" when it is not a convertible state)\n");
    size_t prefix = strlen(tu_data(a, "tfstate/"));
    for (size_t i = 0; i < n; i++) {
        diag_list_t d;
        diag_list_init(&d);
        arena_t *fa = arena_new();
        tf_state_t *s = tfstate_load(fa, files[i], &d);
        convert_report_t r = {0};
        import_file_t *f = NULL;
        if (s) {
            convert_options_t o = {.bridge = b, .schemas = ss};
            f = convert_tfstate_to_import_file(fa, s, &o, &r, &d);
        }
        if (!f) {
            refused++;
            ck_assert_ptr_nonnull(d.head);
            int k = 0;
            while (k < 3 && strncmp(d.head->message, reasons[k], strlen(reasons[k])) != 0)
                k++;
            if (k == 3) ck_abort_msg("%s refused for an unexpected reason: %s", files[i], d.head->message);
            by_reason[k]++;
            buf_printf(&table, "%s\trefused: %s\n", files[i] + prefix, reasons[k]);
        } else {
            converted_files++;
            size_t inst = 0, managed = 0;
            for (size_t k = 0; k < s->n_resources; k++) {
                inst += s->resources[k].n_instances;
                for (size_t j = 0; j < s->resources[k].n_instances; j++)
                    if (!s->resources[k].is_data && !s->resources[k].instances[j].deposed) managed++;
            }
            ck_assert_uint_eq(r.n_entries, inst);
            ck_assert_uint_eq(r.converted + r.skipped + r.unmapped + r.no_id, inst);
            ck_assert_uint_eq(f->n_specs, r.converted + r.providers);
            if (!r.converted && !r.unmapped && !r.no_id) {
                ck_assert_ptr_nonnull(r.note);
                empty_files++;
            }
            for (size_t k = 0; k < r.n_entries; k++)
                if (r.entries[k].outcome != CONVERT_CONVERTED) ck_assert_ptr_nonnull(r.entries[k].reason);
            /* No written type is absent from the mappings and schemas given. */
            for (size_t k = 0; k < r.n_entries; k++) {
                const convert_entry_t *e = &r.entries[k];
                if (e->outcome != CONVERT_CONVERTED) continue;
                const bridge_resource_t *br = bridge_find_resource(b, e->source_type);
                bool in_map = br && strcmp(br->token, e->token) == 0;
                const char *colon = strchr(e->token, ':');
                schema_package_t *pkg = schema_set_get(ss, arena_strndup(fa, e->token, (size_t)(colon - e->token)));
                bool in_schema = pkg && schema_find_resource(pkg, e->token);
                ck_assert_msg(in_map || in_schema, "%s: %s written as %s, which no mapping or schema names", files[i],
                              e->address, e->token);
            }
            buf_printf(&table, "%s\t%zu\t%zu\t%zu\t%zu\n", files[i] + prefix, r.converted, r.unmapped, r.skipped,
                       r.no_id);
            /* With neither mappings nor schemas: every managed instance unmapped, nothing written. */
            convert_report_t r0 = {0};
            diag_list_t d0;
            diag_list_init(&d0);
            import_file_t *f0 = convert_tfstate_to_import_file(fa, s, NULL, &r0, &d0);
            ck_assert_ptr_nonnull(f0);
            ck_assert_uint_eq(f0->n_specs, 0);
            ck_assert_uint_eq(r0.converted, 0);
            ck_assert_uint_eq(r0.unmapped, managed);
            diag_list_free(&d0);
            instances += inst;
            conv += r.converted;
            skip += r.skipped;
            unm += r.unmapped;
            noid += r.no_id;
        }
        if (s) tfstate_free(s);
        diag_list_free(&d);
        arena_free(fa);
    }
    printf("tfstate files: %zu total, %zu converted (%zu with nothing to import), %zu refused (%zu old version, "
           "%zu not a state, %zu plan)\n",
           n, converted_files, empty_files, refused, by_reason[0], by_reason[1], by_reason[2]);
    printf("resource instances: %zu total, %zu converted, %zu skipped, %zu unmapped, %zu without import ID\n",
           instances, conv, skip, unm, noid);
    ck_assert_uint_gt(n, 230);
    ck_assert_uint_eq(converted_files + refused, n);
    ck_assert_uint_gt(conv, 150);
    char *golden_path = fixture(a, "tfstate-sweep.tsv");
    char *text = buf_arena_str(&table, a);
    buf_free(&table);
    if (getenv("CIMPORT_UPDATE_GOLDEN")) {
        FILE *g = fopen(golden_path, "w");
        ck_assert_ptr_nonnull(g);
        fputs(text, g);
        fclose(g);
    }
    char *golden = tu_read(golden_path, NULL);
    ck_assert_msg(golden != NULL, "missing %s (run with CIMPORT_UPDATE_GOLDEN=1)", golden_path);
    ck_assert_str_eq(text, golden);
    free(golden);
    schema_set_free(ss);
    bridge_set_free(b);
    arena_free(a);
}
END_TEST

/* --- mapping documents (GetMapping data) ----------------------------------------------------------- */

static const cJSON *field_at(const cJSON *fields, const char *name) {
    const cJSON *f = bridge_field(fields, name);
    ck_assert_msg(f != NULL, "no field %s", name);
    return f;
}

START_TEST(test_mapping_document) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    bridge_set_t *b = bridge_set_new();
    ck_assert(bridge_set_add_path(b, fixture(a, "mapping/acme.json"), &d));
    ck_assert_int_eq(d.errors, 0);
    ck_assert_uint_eq(bridge_mapping_count(b), 1);
    const bridge_resource_t *w = bridge_find_resource(b, "acme_widget");
    ck_assert_ptr_nonnull(w);
    ck_assert_str_eq(w->token, "acme:storage/widget:Widget");
    ck_assert_str_eq(bridge_find_resource(b, "acme_gadget")->token, "acme:index/gadget:Gadget");
    ck_assert_ptr_null(bridge_find_resource(b, "acme_zone")); /* a data source is not a resource */
    ck_assert_str_eq(bridge_find_data_source(b, "acme_zone"), "acme:dns/getZone:getZone");
    ck_assert_str_eq(bridge_package_for_provider(b, "acme"), "acme");
    /* Renames, top-level and nested (both `fields` and `element.fields` spellings). */
    ck_assert_str_eq(bridge_field_name(field_at(w->fields, "size_gb")), "sizeGigabytes");
    ck_assert_ptr_null(bridge_field_name(field_at(w->fields, "tags")));
    const cJSON *spec = field_at(w->fields, "spec");
    ck_assert_str_eq(bridge_field_name(field_at(bridge_field_elem_fields(spec), "disk_type")), "diskKind");
    const cJSON *rule = field_at(bridge_field_elem_fields(spec), "rule");
    ck_assert_str_eq(bridge_field_name(field_at(bridge_field_elem_fields(rule), "from_port")), "startPort");
    /* maxItems 1 on a list of blocks flattens; not a list of strings, not a set without maxItems,
     * not when the info says maxItemsOne: false. */
    ck_assert(bridge_field_max_items_one(spec) == BRIDGE_MIO_TRUE);
    ck_assert(bridge_field_max_items_one(rule) == BRIDGE_MIO_FALSE);
    ck_assert(bridge_field_max_items_one(field_at(w->fields, "labels")) == BRIDGE_MIO_FALSE);
    ck_assert(bridge_field_max_items_one(field_at(w->fields, "listener")) == BRIDGE_MIO_FALSE);
    ck_assert(bridge_field_max_items_one(field_at(w->fields, "mount")) == BRIDGE_MIO_FALSE);
    /* sensitive (shim) and secret (info). */
    ck_assert(bridge_field_sensitive(field_at(w->fields, "token")));
    ck_assert(bridge_field_sensitive(field_at(w->fields, "mount")));
    ck_assert(!bridge_field_sensitive(field_at(w->fields, "size_gb")));
    /* Provider configuration renames. */
    ck_assert_str_eq(bridge_config_name(b, "acme", "api_url"), "apiUrl");
    ck_assert_str_eq(bridge_config_name(b, "acme", "max_retries"), "maxRetryCount");
    ck_assert_ptr_null(bridge_config_name(b, "acme", "region"));
    bridge_set_free(b);

    /* A directory of `<tf provider>.json` documents; the base name is the provider key. */
    b = bridge_set_new();
    ck_assert(bridge_set_add_path(b, fixture(a, "mapping"), &d));
    ck_assert_str_eq(bridge_find_resource(b, "acme_widget")->token, "acme:storage/widget:Widget");
    bridge_set_free(b);
    /* A token in another package (helm_release → kubernetes) is taken as the mapping says. */
    b = bridge_set_new();
    const char *helm =
        "{\"name\":\"helm\",\"resources\":{\"helm_release\":{\"tok\":\"kubernetes:helm.sh/v3:Release\"}}}";
    ck_assert(bridge_set_add_mapping(b, helm, strlen(helm), "helm", "GetMapping(terraform, helm)", &d));
    ck_assert_str_eq(bridge_find_resource(b, "helm_release")->token, "kubernetes:helm.sh/v3:Release");
    ck_assert_int_eq(d.errors, 0);
    bridge_set_free(b);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Malformed documents: one exact error naming the origin and the JSON path, nothing added. */
START_TEST(test_mapping_document_malformed) {
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"{\"resources\":{\"x_a\":{\"tok\":\"x:index/a:A\"},\"x_b\":{\"tok\":\"nocolons\"}}}",
         "mapping document: resources.x_b.tok 'nocolons' is not a Pulumi type token (package:module:Name); nothing was "
         "converted"},
        {"{\"resources\":{\"x_a\":{\"tok\":42}}}",
         "mapping document: resources.x_a.tok must be a string; nothing was converted"},
        {"{\"resources\":{\"x_a\":{\"tok\":\"x:index/a:A\",\"fields\":[1]}}}",
         "mapping document: resources.x_a.fields must be an object; nothing was converted"},
        {"{\"resources\":{\"x_a\":{\"tok\":\"x:index/a:A\",\"fields\":{\"n\":{\"name\":7}}}}}",
         "mapping document: resources.x_a.fields.n.name must be a string (the Pulumi property name); nothing was "
         "converted"},
        {"{\"provider\":{\"resources\":{\"x_a\":{\"n\":{\"type\":9}}}},\"resources\":{\"x_a\":{\"tok\":\"x:index/"
         "a:A\"}}}",
         "mapping document: resources.x_a.fields.n.type must be a value type number 1-7 (1 bool, 2 int, 3 float, 4 "
         "string, 5 list, 6 map, 7 set); nothing was converted"},
        {"{\"provider\":{\"resources\":{\"x_a\":{\"n\":{\"type\":5,\"maxItems\":\"1\"}}}},\"resources\":{\"x_a\":{"
         "\"tok\":\"x:i:A\"}}}",
         "mapping document: resources.x_a.fields.n.maxItems must be a number; nothing was converted"},
        {"{\"provider\":{\"resources\":[]},\"resources\":{\"x_a\":{\"tok\":\"x:index/a:A\"}}}",
         "mapping document: `provider.resources` must be an object; nothing was converted"},
        {"{\"resources\":{\"x_a\":{\"tok\":\"x:index/a:A\"}},\"dataSources\":{\"x_d\":{}}}",
         "mapping document: dataSources.x_d.tok is missing; nothing was converted"},
        {"{\"resources\":{\"x_a\":{\"tok\":\"x:index/a:A\"}},\"config\":{\"k\":{\"name\":false}}}",
         "mapping document: config.k.name must be a string; nothing was converted"},
        {"{\"resources\": {\"x_a\": {\"tok\"", "the mapping is not valid JSON (near byte 27)"},
        {"{\"hello\":1}", "not a mapping document: it has no `resources` object of `{\"tok\": ...}` entries"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        diag_list_t d;
        diag_list_init(&d);
        bridge_set_t *b = bridge_set_new();
        ck_assert(!bridge_set_add_mapping(b, cases[i].text, strlen(cases[i].text), "x", "x.json", &d));
        ck_assert_uint_eq(d.errors, 1);
        ck_assert_str_eq(d.head->file, "x.json");
        ck_assert_str_eq(d.head->message, cases[i].message);
        ck_assert_uint_eq(bridge_resource_count(b), 0);
        ck_assert_uint_eq(bridge_mapping_count(b), 0);
        ck_assert_ptr_null(bridge_package_for_provider(b, "x"));
        bridge_set_free(b);
        diag_list_free(&d);
    }
}
END_TEST

/* A state converted through a mapping document: its tokens, the pulumi-converter-terraform names,
 * the unlisted type unmapped (never guessed), the data source skipped; the offline snapshot carries
 * the document's renames (nested too), maxItemsOne flattening and sensitive → secret. */
START_TEST(test_convert_with_mapping_document) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    bridge_set_t *b = bridge_set_new();
    ck_assert(bridge_set_add_path(b, fixture(a, "mapping/acme.json"), &d));
    tf_state_t *s = tfstate_load(a, fixture(a, "acme.tfstate"), &d);
    ck_assert_ptr_nonnull(s);
    convert_options_t o = {.bridge = b};
    convert_report_t r = {0};
    import_file_t *f = convert_tfstate_to_import_file(a, s, &o, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(r.converted, 3);
    ck_assert_uint_eq(r.unmapped, 1);
    ck_assert_uint_eq(r.skipped, 1);
    ck_assert_uint_eq(f->n_specs, 3);
    ck_assert_str_eq(f->specs[0].type, "acme:storage/widget:Widget");
    ck_assert_str_eq(f->specs[0].name, "big");
    ck_assert_ptr_null(f->specs[0].logical_name);
    ck_assert_str_eq(f->specs[1].name, "g_0");
    ck_assert_str_eq(f->specs[1].logical_name, "g-0");
    ck_assert_str_eq(f->specs[2].name, "g_a_simple___gadget");
    ck_assert_str_eq(f->specs[2].logical_name, "g-a simple & gadget");
    ck_assert_str_eq(r.entries[3].address, "acme_unlisted.u");
    ck_assert_int_eq(r.entries[3].outcome, CONVERT_UNMAPPED);
    ck_assert_str_eq(r.entries[3].reason,
                     "Terraform type 'acme_unlisted' is not in the mapping of provider 'acme' "
                     "(package 'acme', from " SOURCE_DIR "/tests/fixtures/convert/mapping/acme.json)");

    deployment_t *dep = convert_tfstate_to_deployment_with(a, s, &o, &d);
    ck_assert_ptr_nonnull(dep);
    const state_resource_t *w = NULL, *g = NULL;
    for (size_t i = 0; i < dep->n_resources; i++) {
        if (strcmp(dep->resources[i].type, "acme:storage/widget:Widget") == 0) w = &dep->resources[i];
        if (strstr(dep->resources[i].urn, "::g-a simple & gadget")) g = &dep->resources[i];
    }
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_nonnull(g); /* URNs use the logical name, as the import plan does */
    const pv_t *out = w->outputs;
    ck_assert_double_eq(pv_object_get(out, "sizeGigabytes")->u.n, 40);
    ck_assert_ptr_null(pv_object_get(out, "sizeGb"));
    ck_assert_int_eq(pv_object_get(out, "token")->kind, PV_SECRET);
    ck_assert_int_eq(pv_object_get(out, "mount")->kind, PV_SECRET);
    const pv_t *spec = pv_object_get(out, "spec");
    ck_assert_int_eq(spec->kind, PV_OBJECT); /* maxItems 1 block flattened */
    ck_assert_str_eq(pv_object_get(spec, "diskKind")->u.str.s, "ssd");
    const pv_t *rules = pv_object_get(spec, "rule");
    ck_assert_int_eq(rules->kind, PV_ARRAY);
    ck_assert_double_eq(pv_object_get(rules->u.arr.items[0], "startPort")->u.n, 80);
    ck_assert_int_eq(pv_object_get(out, "listener")->kind, PV_ARRAY); /* maxItemsOne: false in the info */
    ck_assert_int_eq(pv_object_get(out, "labels")->kind, PV_ARRAY);   /* a list of strings is not flattened */
    deployment_free(dep);
    tfstate_free(s);
    bridge_set_free(b);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Empty is not an error: only data sources, only check results, nothing at all. */
START_TEST(test_empty_states) {
    static const struct {
        const char *file, *note;
    } cases[] = {
        {"empty.tfstate", "the state has no resources (it is empty, or holds only check results)"},
        {"only-checks.tfstate", "the state has no resources (it is empty, or holds only check results)"},
        {"only-data.tfstate", "the state has no managed resources (only data sources or destroyed objects)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        arena_t *a = arena_new();
        diag_list_t d;
        diag_list_init(&d);
        tf_state_t *s = tfstate_load(a, fixture(a, cases[i].file), &d);
        ck_assert_msg(s != NULL, "%s: %s", cases[i].file, d.head ? d.head->message : "");
        convert_report_t r = {0};
        import_file_t *f = convert_tfstate_to_import_file(a, s, NULL, &r, &d);
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(f->n_specs, 0);
        ck_assert_uint_eq(d.errors, 0);
        ck_assert_str_eq(r.note, cases[i].note);
        char *json = import_file_to_json(f);
        ck_assert_str_eq(json, "{}\n"); /* Pulumi's import file format leaves out an empty resources list */
        free(json);
        tfstate_free(s);
        diag_list_free(&d);
        arena_free(a);
    }
}
END_TEST

/* Whether v (secrets looked through) has the kind the schema type asks for. */
static void check_typed(const pv_t *v, const schema_type_t *t, const char *where) {
    v = pv_unwrap(v);
    ck_assert_msg(v != NULL, "%s: no value", where);
    while (t && t->kind == SCHEMA_ENUM && t->element)
        t = t->element;
    if (!t) return;
    switch (t->kind) {
    case SCHEMA_BOOL: ck_assert_msg(v->kind == PV_BOOL, "%s: %s, not bool", where, pv_kind_name(v->kind)); break;
    case SCHEMA_INT:
    case SCHEMA_NUMBER: ck_assert_msg(v->kind == PV_NUMBER, "%s: %s, not number", where, pv_kind_name(v->kind)); break;
    case SCHEMA_STRING: ck_assert_msg(v->kind == PV_STRING, "%s: %s, not string", where, pv_kind_name(v->kind)); break;
    case SCHEMA_ARRAY:
        ck_assert_msg(v->kind == PV_ARRAY, "%s: %s, not array", where, pv_kind_name(v->kind));
        for (size_t i = 0; i < v->u.arr.len; i++)
            check_typed(v->u.arr.items[i], t->element, where);
        break;
    case SCHEMA_MAP:
        ck_assert_msg(v->kind == PV_OBJECT, "%s: %s, not map", where, pv_kind_name(v->kind));
        for (size_t i = 0; i < v->u.obj.len; i++)
            check_typed(v->u.obj.members[i].value, t->element, where);
        break;
    case SCHEMA_OBJECT:
        ck_assert_msg(v->kind == PV_OBJECT, "%s: %s, not object", where, pv_kind_name(v->kind));
        if (!t->object) break;
        for (size_t i = 0; i < v->u.obj.len; i++) {
            const schema_property_t *p =
                schema_find_property(t->object->props, t->object->n_props, v->u.obj.members[i].key);
            ck_assert_msg(p != NULL, "%s: %s is not a property of %s", where, v->u.obj.members[i].key, t->token);
            check_typed(v->u.obj.members[i].value, p->type, where);
        }
        break;
    default: break;
    }
}

/* Converts a state to a snapshot with the package's schema and checks every resource: its type
 * is in the schema, every input is an input property, every value has the schema's kind. */
static deployment_t *check_offline(arena_t *a, const char *state, const char *pkg, size_t *n_inputs) {
    diag_list_t d;
    diag_list_init(&d);
    schema_set_t *ss = schema_set_new();
    ck_assert(schema_set_add_path(ss, tu_data(a, arena_sprintf(a, "schemas/%s/schema.json", pkg)), &d));
    deployment_t *dep = convert_tfstate_to_deployment(a, state, ss, NULL, &d);
    ck_assert_msg(dep != NULL, "%s: %s", state, d.head ? d.head->message : "");
    schema_package_t *sp = schema_set_get(ss, pkg);
    size_t custom = 0;
    for (size_t i = 0; i < dep->n_resources; i++) {
        const state_resource_t *r = &dep->resources[i];
        if (!r->custom) continue;
        custom++;
        const schema_resource_t *sr = schema_find_resource(sp, r->type);
        ck_assert_msg(sr != NULL, "%s: type %s not in schema", state, r->type);
        for (size_t k = 0; k < r->inputs->u.obj.len; k++) {
            const pv_member_t *m = &r->inputs->u.obj.members[k];
            const schema_property_t *p = schema_find_property(sr->inputs, sr->n_inputs, m->key);
            ck_assert_msg(p != NULL, "%s: %s.%s is not an input", state, r->type, m->key);
            check_typed(m->value, p->type, arena_sprintf(a, "%s %s.%s", state, r->type, m->key));
            (*n_inputs)++;
        }
        for (size_t k = 0; k < r->outputs->u.obj.len; k++) {
            const pv_member_t *m = &r->outputs->u.obj.members[k];
            const schema_property_t *p = schema_find_property(sr->outputs, sr->n_outputs, m->key);
            if (p) check_typed(m->value, p->type, arena_sprintf(a, "%s %s.%s (output)", state, r->type, m->key));
        }
    }
    ck_assert_uint_gt(custom, 0);
    /* The schemas stay alive only for the check; the snapshot keeps its own values. */
    schema_set_free(ss);
    diag_list_free(&d);
    return dep;
}

static const pv_t *input_of(const deployment_t *d, const char *urn_suffix, const char *key) {
    for (size_t i = 0; i < d->n_resources; i++) {
        size_t l = strlen(d->resources[i].urn), s = strlen(urn_suffix);
        if (l >= s && strcmp(d->resources[i].urn + l - s, urn_suffix) == 0)
            return pv_object_get(d->resources[i].inputs, key);
    }
    return NULL;
}

START_TEST(test_offline_snapshots_typed_by_schema) {
    arena_t *a = arena_new();
    size_t n_inputs = 0;
    size_t n;
    char **gh = tu_find_files(a, tu_data(a, "tfstate/driftctl/pkg/iac/terraform/state/test"), "", &n);
    size_t github_states = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strstr(gh[i], "/github_")) continue;
        deployment_free(check_offline(a, gh[i], "github", &n_inputs));
        github_states++;
    }
    ck_assert_uint_eq(github_states, 5);
    deployment_free(check_offline(a, tu_data(a, "tfstate/inframap/generate/testdata/openstack_state_lb.json"),
                                  "openstack", &n_inputs));
    deployment_free(check_offline(a, tu_data(a, "tfstate/inframap/generate/testdata/openstack_state_sg.json"),
                                  "openstack", &n_inputs));

    deployment_t *d = check_offline(a, fixture(a, "digitalocean.tfstate"), "digitalocean", &n_inputs);
    const pv_t *size = input_of(d, "Volume::data", "size");
    ck_assert(size && size->kind == PV_NUMBER && size->u.n == 100); /* "100" from a flatmap */
    const pv_t *tags = input_of(d, "Volume::data", "tags");
    ck_assert(tags && tags->kind == PV_ARRAY && tags->u.arr.len == 1);
    ck_assert_str_eq(tags->u.arr.items[0]->u.str.s, "prod");
    ck_assert_ptr_null(input_of(d, "Droplet::web_0", "backupPolicy")); /* empty maxItemsOne list left out */
    ck_assert_ptr_null(input_of(d, "Droplet::web_0", "priceHourly"));  /* output only */
    deployment_free(d);

    d = check_offline(a, fixture(a, "docker.tfstate"), "docker", &n_inputs);
    const pv_t *hc = input_of(d, "Container::web", "healthcheck");
    ck_assert(hc && hc->kind == PV_OBJECT); /* maxItemsOne block flattened */
    ck_assert_double_eq(pv_object_get(hc, "retries")->u.n, 3);
    ck_assert_str_eq(pv_object_get(hc, "startPeriod")->u.str.s, "0s");
    const pv_t *lo = input_of(d, "Container::web", "logOpts");
    ck_assert_ptr_nonnull(pv_object_get(lo, "max-size"));                   /* map keys kept as they are */
    ck_assert_uint_eq(input_of(d, "Container::web", "envs")->u.arr.len, 2); /* renamed env → envs */
    deployment_free(d);

    d = check_offline(a, fixture(a, "azuread.tfstate"), "azuread", &n_inputs);
    const pv_t *api = input_of(d, "Application::api", "api");
    ck_assert(api && api->kind == PV_OBJECT);
    const pv_t *scopes = pv_object_get(api, "oauth2PermissionScopes");
    ck_assert(scopes && scopes->kind == PV_ARRAY && scopes->u.arr.len == 1);
    const pv_t *web = input_of(d, "Application::api", "web");
    ck_assert(pv_object_get(web, "implicitGrant")->kind == PV_OBJECT);           /* nested maxItemsOne */
    ck_assert_int_eq(input_of(d, "User::alice", "password")->kind, PV_SECRET);   /* schema secret + TF sensitive */
    ck_assert_int_eq(input_of(d, "User::alice", "employeeId")->kind, PV_SECRET); /* TF sensitive only */
    ck_assert_int_eq(input_of(d, "User::alice", "displayName")->kind, PV_STRING);
    deployment_free(d);
    printf("offline snapshots: %zu input values checked against schemas\n", n_inputs);
    ck_assert_uint_gt(n_inputs, 100);
    arena_free(a);
}
END_TEST

/* For each real stack export: every spec's parent and provider name resolves (spec or nameTable)
 * to the URN the original resource had. */
START_TEST(test_pulumi_exports_structure) {
    arena_t *a = arena_new();
    size_t n, exports = 0, specs = 0, parents = 0, providers = 0, names = 0, readable = 0;
    char **files = tu_find_files(a, tu_data(a, "pulumi-state"), "stack.json", &n);
    for (size_t i = 0; i < n; i++) {
        diag_list_t d;
        diag_list_init(&d);
        arena_t *fa = arena_new();
        deployment_t *dep = deployment_load(fa, files[i], &d);
        ck_assert_msg(dep != NULL, "%s", files[i]);
        convert_report_t r = {0};
        import_file_t *f = convert_deployment_to_import_file(fa, dep, &r, &d);
        ck_assert_msg(f != NULL, "%s: %s", files[i], d.head ? d.head->message : "");
        exports++;
        /* name → URN for specs (matched by position: spec i is the i-th converted resource). */
        const char **spec_urn = arena_alloc(fa, (f->n_specs + 1) * sizeof *spec_urn);
        size_t k = 0;
        for (size_t e = 0; e < r.n_entries; e++)
            if (r.entries[e].outcome == CONVERT_CONVERTED) spec_urn[k++] = r.entries[e].address;
        ck_assert_uint_eq(k, f->n_specs);
        for (size_t s = 0; s < f->n_specs; s++) {
            const import_spec_t *sp = &f->specs[s];
            const state_resource_t *orig = deployment_find_urn(dep, spec_urn[s]);
            ck_assert_str_eq(sp->type, orig->type);
            size_t id_at, id_len; /* the recorded ID, inside an import ID that holds more (importid.h) */
            if (orig->custom && strncmp(orig->type, "pulumi:providers:", 17) != 0) {
                const char *why;
                if (importid_apart_from_id(orig->type)) /* made of other outputs (importid.h) */
                    ck_assert_str_eq(sp->id, importid_of(fa, orig->type, orig->id, orig->outputs, "Pulumi", &why));
                else if (importid_resource_id(orig->type, sp->id, &id_at, &id_len))
                    ck_assert_msg(strlen(orig->id) == id_len && strncmp(sp->id + id_at, orig->id, id_len) == 0,
                                  "%s: import ID %s of ID %s", files[i], sp->id, orig->id);
                else
                    ck_assert_str_eq(sp->id, orig->id);
            }
            const char *refs[2] = {sp->parent, sp->provider};
            const char *want[2] = {orig->parent, orig->provider};
            for (int w = 0; w < 2; w++) {
                if (!refs[w]) continue;
                const char *got = NULL;
                for (size_t q = 0; q < f->n_specs && !got; q++)
                    if (strcmp(f->specs[q].name, refs[w]) == 0) got = spec_urn[q];
                for (size_t q = 0; q < f->n_names && !got; q++)
                    if (strcmp(f->name_table[q].name, refs[w]) == 0) got = f->name_table[q].urn;
                ck_assert_msg(got != NULL, "%s: %s refers to unknown name %s", files[i], sp->name, refs[w]);
                ck_assert_msg(strncmp(want[w], got, strlen(got)) == 0, "%s: %s: %s is %s, not %s", files[i], sp->name,
                              w ? "provider" : "parent", got, want[w]);
                if (w)
                    providers++;
                else
                    parents++;
            }
            /* A parent other than the stack is always kept. */
            if (orig->parent && !strstr(orig->parent, "::pulumi:pulumi:Stack::")) ck_assert_ptr_nonnull(sp->parent);
            /* Issue 16: a deduplicated name reads like the resource (its type, module or ID), never
             * `name_2` when the URN's own name has no such suffix. */
            const char *us = strrchr(sp->name, '_');
            if (us && us[1] && strspn(us + 1, "0123456789") == strlen(us + 1) && sp->logical_name &&
                strcmp(sp->logical_name, sp->name) != 0)
                ck_abort_msg("%s: %s is named %s", files[i], spec_urn[s], sp->name);
            if (sp->logical_name) readable++;
        }
        specs += f->n_specs;
        names += f->n_names;
        deployment_free(dep);
        diag_list_free(&d);
        arena_free(fa);
    }
    printf("stack exports: %zu converted, %zu specs (%zu renamed readably), %zu parent and %zu provider references, "
           "%zu nameTable entries\n",
           exports, specs, readable, parents, providers, names);
    ck_assert_uint_gt(readable, 100); /* the awsx exports name many resources like their component */
    ck_assert_uint_gt(exports, 50);
    ck_assert_uint_gt(parents, 200); /* the awsx exports nest components deeply */
    arena_free(a);
}
END_TEST

START_TEST(test_export_named_references) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    deployment_t *dep = deployment_load(a,
                                        tu_data(a, "pulumi-state/pulumi-awsx/provider/testdata/recorded/"
                                                   "TestProviderUpgrade/ts-lb-attach-ec2/1.0.6/stack.json"),
                                        &d);
    ck_assert_ptr_nonnull(dep);
    convert_report_t r = {0};
    import_file_t *f = convert_deployment_to_import_file(a, dep, &r, &d);
    ck_assert_ptr_nonnull(f);
    /* The component `vpc` keeps its name; the Vpc resource of the same name is named after its module
     * and type (issue 16: not `vpc_2`) with its logical name kept, and its children point at it. */
    const import_spec_t *comp = NULL, *vpc = NULL, *igw = NULL;
    for (size_t i = 0; i < f->n_specs; i++) {
        if (!strcmp(f->specs[i].type, "awsx:ec2:Vpc")) comp = &f->specs[i];
        if (!strcmp(f->specs[i].type, "aws:ec2/vpc:Vpc")) vpc = &f->specs[i];
        if (!strcmp(f->specs[i].type, "aws:ec2/internetGateway:InternetGateway")) igw = &f->specs[i];
    }
    ck_assert(comp && vpc && igw);
    ck_assert(comp->component);
    ck_assert_str_eq(comp->name, "vpc");
    ck_assert_ptr_null(comp->parent);
    ck_assert_str_eq(vpc->name, "ec2_vpc");
    ck_assert_str_eq(vpc->logical_name, "vpc");
    ck_assert_str_eq(vpc->parent, "vpc");
    ck_assert_str_eq(vpc->version, "5.35.0");
    ck_assert_ptr_null(vpc->provider);        /* default providers are not specs */
    ck_assert_str_eq(igw->parent, "ec2_vpc"); /* its parent is the Vpc resource, not the component */
    ck_assert_uint_eq(r.skipped, 5);          /* the stack and four default providers */
    deployment_free(dep);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* Pulumi names its default providers `default` or `default_<version>[_<download URL>]`; a provider the
 * program made itself may be named `defaultWest` or `default-east`: it is an explicit provider, kept
 * with its configuration, and its resources keep it (not re-homed onto the target's default one). */
/* A Pulumi export's RandomPassword has the placeholder ID "none" and a RandomBytes its value: the
 * random provider imports both by their value, a secret; converted by ID, the import "verified" a
 * password "none" (read9c F1). Not converted, with the reason; the pet beside them is. */
START_TEST(test_export_secret_import_ids_refused) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":3,\"deployment\":{\"resources\":["
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomPassword:RandomPassword::pw\",\"custom\":true,"
        "\"id\":\"none\",\"type\":\"random:index/randomPassword:RandomPassword\"},"
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomBytes:RandomBytes::b\",\"custom\":true,"
        "\"id\":\"q80S3w==\",\"type\":\"random:index/randomBytes:RandomBytes\"},"
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet\",\"custom\":true,"
        "\"id\":\"calm-cat\",\"type\":\"random:index/randomPet:RandomPet\"}]}}";
    deployment_t *dep = deployment_parse(a, text, strlen(text), "export.json", &d);
    ck_assert_ptr_nonnull(dep);
    convert_report_t r = {0};
    import_file_t *f = convert_deployment_to_import_file(a, dep, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 1);
    ck_assert_str_eq(f->specs[0].name, "pet");
    ck_assert_uint_eq(r.no_id, 2);
    ck_assert_ptr_nonnull(strstr(r.entries[0].reason, "its `result` attribute, a secret), not by its Pulumi `id` "
                                                      "\"none\" (a placeholder)"));
    ck_assert_ptr_nonnull(strstr(r.entries[1].reason, "its `base64` attribute, a secret"));
    ck_assert_ptr_null(strstr(r.entries[1].reason, "q80S3w"));
    char *json = import_file_to_json(f);
    ck_assert_ptr_null(strstr(json, "none"));
    ck_assert_ptr_null(strstr(json, "q80S3w"));
    free(json);
    deployment_free(dep);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* AWS types whose importers take an ID made of other properties (the Terraform path's table, by Pulumi
 * token and property): an export records Terraform's own ID ("r-rtb-...", "rtbassoc-...", a role's
 * prefixed unique ID), which convert wrote and `pulumi import` refuses. One without a part is not
 * converted, with why. */
START_TEST(test_aws_import_ids) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":3,\"deployment\":{\"resources\":["
        "{\"urn\":\"urn:pulumi:dev::p::aws:iam/rolePolicyAttachment:RolePolicyAttachment::att\",\"custom\":true,"
        "\"id\":\"exec-2024\",\"type\":\"aws:iam/rolePolicyAttachment:RolePolicyAttachment\","
        "\"outputs\":{\"id\":\"exec-2024\",\"policyArn\":\"arn:aws:iam::aws:policy/P\",\"role\":\"exec\"}},"
        "{\"urn\":\"urn:pulumi:dev::p::aws:ec2/route:Route::r4\",\"custom\":true,\"id\":\"r-rtb-11080289494\","
        "\"type\":\"aws:ec2/route:Route\",\"outputs\":{\"destinationCidrBlock\":\"0.0.0.0/0\","
        "\"destinationIpv6CidrBlock\":\"\",\"gatewayId\":\"igw-1\",\"routeTableId\":\"rtb-1\"}},"
        "{\"urn\":\"urn:pulumi:dev::p::aws:ec2/route:Route::pl\",\"custom\":true,\"id\":\"r-rtb-2\","
        "\"type\":\"aws:ec2/route:Route\",\"outputs\":{\"destinationPrefixListId\":\"pl-9\",\"routeTableId\":"
        "\"rtb-2\"}},"
        "{\"urn\":\"urn:pulumi:dev::p::aws:ec2/routeTableAssociation:RouteTableAssociation::a\",\"custom\":true,"
        "\"id\":\"rtbassoc-1\",\"type\":\"aws:ec2/routeTableAssociation:RouteTableAssociation\","
        "\"outputs\":{\"gatewayId\":\"\",\"routeTableId\":\"rtb-1\",\"subnetId\":\"subnet-1\"}},"
        "{\"urn\":\"urn:pulumi:dev::p::aws:ecs/service:Service::svc\",\"custom\":true,"
        "\"id\":\"arn:aws:ecs:us-east-1:1:service/main/api\",\"type\":\"aws:ecs/service:Service\","
        "\"outputs\":{\"cluster\":\"arn:aws:ecs:us-east-1:1:cluster/main\",\"name\":\"api\"}},"
        "{\"urn\":\"urn:pulumi:dev::p::aws:ec2/route:Route::none\",\"custom\":true,\"id\":\"r-rtb-3\","
        "\"type\":\"aws:ec2/route:Route\",\"outputs\":{\"routeTableId\":\"rtb-3\"}}]}}";
    deployment_t *dep = deployment_parse(a, text, strlen(text), "export.json", &d);
    ck_assert_ptr_nonnull(dep);
    convert_report_t r = {0};
    import_file_t *f = convert_deployment_to_import_file(a, dep, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 5);
    ck_assert_str_eq(f->specs[0].id, "exec/arn:aws:iam::aws:policy/P");
    ck_assert_str_eq(f->specs[1].id, "rtb-1_0.0.0.0/0");
    ck_assert_str_eq(f->specs[2].id, "rtb-2_pl-9");
    ck_assert_str_eq(f->specs[3].id, "subnet-1/rtb-1");
    ck_assert_str_eq(f->specs[4].id, "main/api");
    ck_assert_uint_eq(r.no_id, 1);
    ck_assert_int_eq(r.entries[5].outcome, CONVERT_NO_ID);
    ck_assert_str_eq(r.entries[5].reason,
                     "the provider imports it by "
                     "`<routeTableId>_<destinationCidrBlock|destinationIpv6CidrBlock|destinationPrefixListId>`, and "
                     "none of its `destinationCidrBlock`, `destinationIpv6CidrBlock`, `destinationPrefixListId` is "
                     "recorded in the Pulumi state");
    deployment_free(dep);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* The random provider's importers take a RandomInteger as "result,min,max[,seed]" and a RandomId with
 * a prefix as "prefix,b64url", while a state records the result ("83") and the bytes without the prefix:
 * convert wrote the recorded ID, which `pulumi import` (and the code's `import` option) cannot import.
 * Both paths write the importer's ID now; one whose parts are missing is not converted, with why. */
START_TEST(test_random_import_ids) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":3,\"deployment\":{\"resources\":["
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomInteger:RandomInteger::n\",\"custom\":true,"
        "\"id\":\"83\",\"type\":\"random:index/randomInteger:RandomInteger\",\"inputs\":{\"max\":100,\"min\":1},"
        "\"outputs\":{\"id\":\"83\",\"max\":100,\"min\":1,\"result\":83}},"
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomInteger:RandomInteger::seeded\",\"custom\":true,"
        "\"id\":\"-5\",\"type\":\"random:index/randomInteger:RandomInteger\","
        "\"outputs\":{\"id\":\"-5\",\"max\":10,\"min\":-10,\"result\":-5,\"seed\":\"s1\"}},"
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomId:RandomId::pre\",\"custom\":true,"
        "\"id\":\"gEtk2V_GVJQ\",\"type\":\"random:index/randomId:RandomId\","
        "\"outputs\":{\"b64Url\":\"web-gEtk2V_GVJQ\",\"byteLength\":8,\"id\":\"gEtk2V_GVJQ\",\"prefix\":\"web-\"}},"
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomId:RandomId::plain\",\"custom\":true,"
        "\"id\":\"q8Vb1f0Zk3Y\",\"type\":\"random:index/randomId:RandomId\","
        "\"outputs\":{\"b64Url\":\"q8Vb1f0Zk3Y\",\"byteLength\":8,\"id\":\"q8Vb1f0Zk3Y\"}},"
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomInteger:RandomInteger::bare\",\"custom\":true,"
        "\"id\":\"7\",\"type\":\"random:index/randomInteger:RandomInteger\",\"outputs\":{\"id\":\"7\"}}]}}";
    deployment_t *dep = deployment_parse(a, text, strlen(text), "export.json", &d);
    ck_assert_ptr_nonnull(dep);
    convert_report_t r = {0};
    import_file_t *f = convert_deployment_to_import_file(a, dep, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 4);
    ck_assert_str_eq(f->specs[0].id, "83,1,100");
    ck_assert_str_eq(f->specs[1].id, "-5,-10,10,s1");
    ck_assert_str_eq(f->specs[2].id, "web-,gEtk2V_GVJQ");
    ck_assert_str_eq(f->specs[3].id, "q8Vb1f0Zk3Y");
    ck_assert_uint_eq(r.no_id, 1);
    ck_assert_int_eq(r.entries[4].outcome, CONVERT_NO_ID);
    ck_assert_str_eq(r.entries[4].reason, "the random provider imports it by `result,min,max`, and its `result` is not "
                                          "recorded in the Pulumi state (an integer)");
    deployment_free(dep);

    const char *tf = "{\"version\":4,\"lineage\":\"x\",\"resources\":["
                     "{\"mode\":\"managed\",\"type\":\"random_integer\",\"name\":\"port\","
                     "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                     "{\"schema_version\":0,\"attributes\":{\"id\":\"8443\",\"keepers\":null,\"max\":8999,\"min\":8000,"
                     "\"result\":8443,\"seed\":null}}]},"
                     "{\"mode\":\"managed\",\"type\":\"random_id\",\"name\":\"server\","
                     "\"provider\":\"provider[\\\"registry.terraform.io/hashicorp/random\\\"]\",\"instances\":["
                     "{\"schema_version\":0,\"attributes\":{\"b64_url\":\"srv-q8Vb1f0Zk3Y\",\"byte_length\":8,"
                     "\"id\":\"q8Vb1f0Zk3Y\",\"keepers\":null,\"prefix\":\"srv-\"}}]}]}";
    tf_state_t *s = tfstate_parse(a, tf, strlen(tf), "r.tfstate", &d);
    ck_assert_ptr_nonnull(s);
    bridge_set_t *b = load_bridge();
    convert_options_t o = {.bridge = b};
    convert_report_t r2 = {0};
    f = convert_tfstate_to_import_file(a, s, &o, &r2, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 2);
    ck_assert_str_eq(f->specs[0].type, "random:index/randomInteger:RandomInteger");
    ck_assert_str_eq(f->specs[0].id, "8443,8000,8999");
    ck_assert_str_eq(f->specs[1].type, "random:index/randomId:RandomId");
    ck_assert_str_eq(f->specs[1].id, "srv-,q8Vb1f0Zk3Y");
    bridge_set_free(b);
    tfstate_free(s);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_export_user_provider_named_default_like) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":3,\"deployment\":{\"resources\":["
        "{\"urn\":\"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev\",\"custom\":false,"
        "\"type\":\"pulumi:pulumi:Stack\"},"
        "{\"urn\":\"urn:pulumi:dev::proj::pulumi:providers:random::default_4_16_0\",\"custom\":true,\"id\":\"aaaa\","
        "\"type\":\"pulumi:providers:random\",\"inputs\":{\"version\":\"4.16.0\"}},"
        "{\"urn\":\"urn:pulumi:dev::proj::pulumi:providers:random::defaultWest\",\"custom\":true,\"id\":\"bbbb\","
        "\"type\":\"pulumi:providers:random\",\"inputs\":{\"version\":\"4.16.0\",\"foo\":\"bar\"}},"
        "{\"urn\":\"urn:pulumi:dev::proj::pulumi:providers:random::default-east\",\"custom\":true,\"id\":\"cccc\","
        "\"type\":\"pulumi:providers:random\",\"inputs\":{\"foo\":\"baz\"}},"
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet1\",\"custom\":true,"
        "\"id\":\"brave-otter\",\"type\":\"random:index/randomPet:RandomPet\","
        "\"provider\":\"urn:pulumi:dev::proj::pulumi:providers:random::defaultWest::bbbb\"},"
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet2\",\"custom\":true,"
        "\"id\":\"calm-cat\",\"type\":\"random:index/randomPet:RandomPet\","
        "\"provider\":\"urn:pulumi:dev::proj::pulumi:providers:random::default-east::cccc\"},"
        "{\"urn\":\"urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet3\",\"custom\":true,"
        "\"id\":\"dry-dog\",\"type\":\"random:index/randomPet:RandomPet\","
        "\"provider\":\"urn:pulumi:dev::proj::pulumi:providers:random::default_4_16_0::aaaa\"}]}}";
    deployment_t *dep = deployment_parse(a, text, strlen(text), "export.json", &d);
    ck_assert_msg(dep != NULL, "%s", d.head ? d.head->message : "");
    convert_report_t r = {0};
    import_file_t *f = convert_deployment_to_import_file(a, dep, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(r.skipped, 2); /* the stack, default_4_16_0 */
    ck_assert_uint_eq(f->n_specs, 5);
    ck_assert_str_eq(f->specs[0].name, "defaultWest");
    ck_assert_str_eq(f->specs[0].type, "pulumi:providers:random");
    ck_assert_str_eq(pv_object_get(f->specs[0].inputs, "foo")->u.str.s, "bar");
    ck_assert_str_eq(f->specs[1].name, "default-east");
    ck_assert_str_eq(f->specs[2].name, "pet1");
    ck_assert_str_eq(f->specs[2].provider, "defaultWest");
    ck_assert_str_eq(f->specs[3].provider, "default-east");
    ck_assert_ptr_null(f->specs[4].provider);
    ck_assert_str_eq(f->specs[4].version, "4.16.0");
    deployment_free(dep);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* A logical name holding `::` was cut after its last `::` (`a::b` → `b`): the import file named
 * another resource than the source stack's (its URN's name is everything after the third `::`), and
 * `x::b` beside it became `b_2`. The whole name is kept. */
START_TEST(test_export_name_with_double_colon) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":3,\"deployment\":{\"resources\":["
        "{\"urn\":\"urn:pulumi:s::p::random:index/randomPet:RandomPet::a::b\",\"custom\":true,\"id\":\"g-cat\","
        "\"type\":\"random:index/randomPet:RandomPet\"},"
        "{\"urn\":\"urn:pulumi:s::p::random:index/randomPet:RandomPet::x::b\",\"custom\":true,\"id\":\"h-dog\","
        "\"type\":\"random:index/randomPet:RandomPet\"}]}}";
    deployment_t *dep = deployment_parse(a, text, strlen(text), "export.json", &d);
    ck_assert_msg(dep != NULL, "%s", d.head ? d.head->message : "");
    convert_report_t r = {0};
    import_file_t *f = convert_deployment_to_import_file(a, dep, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 2);
    for (size_t i = 0; i < 2; i++) {
        const import_spec_t *sp = &f->specs[i];
        const char *logical = sp->logical_name ? sp->logical_name : sp->name;
        ck_assert_str_eq(logical, i == 0 ? "a::b" : "x::b");
    }
    deployment_free(dep);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* A parent the import file does not hold (not in the export, read with get, pending delete, no ID) is
 * no reference: a nameTable entry would hold the SOURCE stack's URN, which no target stack has, so the
 * import refused the file. The resource goes to the stack root, said; a resource under an explicit
 * provider the file does not hold is not converted, with the reason (another provider would read it
 * with another configuration). Explicit providers are specs referenced by name, with their configuration. */
START_TEST(test_export_name_table_and_explicit_provider) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":3,\"deployment\":{\"resources\":["
        "{\"urn\":\"urn:pulumi:s::p::pulumi:pulumi:Stack::p-s\",\"custom\":false,\"type\":\"pulumi:pulumi:Stack\"},"
        "{\"urn\":\"urn:pulumi:s::p::pulumi:providers:aws::east\",\"custom\":true,\"id\":\"pid\","
        "\"type\":\"pulumi:providers:aws\",\"inputs\":{\"region\":\"us-east-1\",\"version\":\"6.0.0\"}},"
        "{\"urn\":\"urn:pulumi:s::p::my:app:Comp$aws:s3/bucket:Bucket::b\",\"custom\":true,\"id\":\"bucket-1\","
        "\"type\":\"aws:s3/bucket:Bucket\",\"parent\":\"urn:pulumi:s::p::my:app:Comp::app\","
        "\"provider\":\"urn:pulumi:s::p::pulumi:providers:aws::east::pid\"},"
        "{\"urn\":\"urn:pulumi:s::p::aws:s3/bucket:Bucket::gone\",\"custom\":true,\"id\":\"g\",\"delete\":true,"
        "\"type\":\"aws:s3/bucket:Bucket\"},"
        "{\"urn\":\"urn:pulumi:s::p::random:index/randomPet:RandomPet::ext\",\"custom\":true,\"id\":\"ext-pet\","
        "\"external\":true,\"type\":\"random:index/randomPet:RandomPet\"},"
        "{\"urn\":\"urn:pulumi:s::p::random:index/randomPet:RandomPet$random:index/randomPet:RandomPet::child\","
        "\"custom\":true,\"id\":\"child-pet\",\"type\":\"random:index/randomPet:RandomPet\","
        "\"parent\":\"urn:pulumi:s::p::random:index/randomPet:RandomPet::ext\"},"
        "{\"urn\":\"urn:pulumi:s::p::aws:s3/bucket:Bucket::orphan\",\"custom\":true,\"id\":\"o-1\","
        "\"type\":\"aws:s3/bucket:Bucket\",\"provider\":\"urn:pulumi:s::p::pulumi:providers:aws::west::wid\"}]}}";
    deployment_t *dep = deployment_parse(a, text, strlen(text), "export.json", &d);
    ck_assert_msg(dep != NULL, "%s", d.head ? d.head->message : "");
    convert_report_t r = {0};
    import_file_t *f = convert_deployment_to_import_file(a, dep, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 3);
    ck_assert_uint_eq(r.converted, 3);
    ck_assert_uint_eq(r.skipped, 4); /* the stack, gone, ext, orphan */
    ck_assert_str_eq(f->specs[0].type, "pulumi:providers:aws");
    ck_assert_str_eq(f->specs[0].name, "east");
    ck_assert_ptr_null(f->specs[0].id);
    ck_assert_str_eq(f->specs[1].provider, "east");
    ck_assert_ptr_null(f->specs[1].parent);
    ck_assert_str_eq(f->specs[2].name, "child");
    ck_assert_ptr_null(f->specs[2].parent);
    ck_assert_uint_eq(f->n_names, 0);
    const convert_entry_t *orphan = &r.entries[r.n_entries - 1];
    ck_assert_str_eq(orphan->address, "urn:pulumi:s::p::aws:s3/bucket:Bucket::orphan");
    ck_assert_int_eq(orphan->outcome, CONVERT_SKIPPED);
    ck_assert_str_eq(orphan->reason,
                     "its provider 'urn:pulumi:s::p::pulumi:providers:aws::west' is not in the "
                     "import file (not in the export, or pending delete there): under another provider "
                     "it would be read with "
                     "another configuration; import the provider too, or give it one in the import file");
    /* the parents left out are said */
    bool said_app = false, said_ext = false;
    for (const diag_t *g = d.head; g; g = g->next) {
        if (strstr(g->message, "its parent 'urn:pulumi:s::p::my:app:Comp::app' is not in the import file (not in the "
                               "export, or pending delete there)"))
            said_app = true;
        if (strstr(g->message, "its parent 'urn:pulumi:s::p::random:index/randomPet:RandomPet::ext' is not in the "
                               "import file (read by the source program (a get)"))
            said_ext = true;
    }
    ck_assert(said_app && said_ext);
    char *json = import_file_to_json(f);
    ck_assert_ptr_null(strstr(json, "nameTable"));
    ck_assert_str_eq(json, "{\n"
                           "    \"resources\": [\n"
                           "        {\n"
                           "            \"type\": \"pulumi:providers:aws\",\n"
                           "            \"name\": \"east\",\n"
                           "            \"version\": \"6.0.0\",\n"
                           "            \"inputs\": {\n"
                           "                \"region\": \"us-east-1\"\n"
                           "            }\n"
                           "        },\n"
                           "        {\n"
                           "            \"type\": \"aws:s3/bucket:Bucket\",\n"
                           "            \"name\": \"b\",\n"
                           "            \"id\": \"bucket-1\",\n"
                           "            \"provider\": \"east\"\n"
                           "        },\n"
                           "        {\n"
                           "            \"type\": \"random:index/randomPet:RandomPet\",\n"
                           "            \"name\": \"child\",\n"
                           "            \"id\": \"child-pet\"\n"
                           "        }\n"
                           "    ]\n"
                           "}\n");
    free(json);
    deployment_free(dep);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* An explicit provider whose configuration holds a secret (a ciphertext of the source stack, or the
 * plaintext of an export made with --show-secrets) is not converted, nor the resources under it: the
 * ciphertext does not decrypt in another stack, a secret is not written in plaintext, and under another
 * provider they would be read with another configuration. Both say why; the report counts it withheld
 * (the CLI exits 1). It was written without the secret, with a warning. */
START_TEST(test_export_provider_secret_config_withheld) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *text =
        "{\"version\":3,\"deployment\":{\"resources\":["
        "{\"urn\":\"urn:pulumi:s::p::pulumi:providers:aws::east\",\"custom\":true,\"id\":\"pid\","
        "\"type\":\"pulumi:providers:aws\",\"inputs\":{\"region\":\"us-east-1\",\"version\":\"6.0.0\","
        "\"assumeRole\":{\"roleArn\":{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\","
        "\"plaintext\":\"\\\"arn:x\\\"\"}},"
        "\"token\":{\"4dabf18193072939515e22adb298388d\":\"1b47061264138c4ac30d75fd1eb44270\",\"ciphertext\":"
        "\"v1:a:b\"}}},"
        "{\"urn\":\"urn:pulumi:s::p::aws:s3/bucket:Bucket::b\",\"custom\":true,\"id\":\"bucket-1\","
        "\"type\":\"aws:s3/bucket:Bucket\",\"provider\":\"urn:pulumi:s::p::pulumi:providers:aws::east::pid\"},"
        "{\"urn\":\"urn:pulumi:s::p::aws:s3/bucket:Bucket::c\",\"custom\":true,\"id\":\"bucket-2\","
        "\"type\":\"aws:s3/bucket:Bucket\"}]}}";
    deployment_t *dep = deployment_parse(a, text, strlen(text), "export.json", &d);
    ck_assert_msg(dep != NULL, "%s", d.head ? d.head->message : "");
    convert_report_t r = {0};
    import_file_t *f = convert_deployment_to_import_file(a, dep, &r, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, 1);
    ck_assert_str_eq(f->specs[0].name, "c");
    ck_assert_uint_eq(r.converted, 1);
    ck_assert_uint_eq(r.skipped, 2);
    ck_assert_uint_eq(r.withheld, 1);
    ck_assert_uint_eq(r.providers, 0);
    ck_assert_int_eq(r.entries[0].outcome, CONVERT_SKIPPED);
    ck_assert_msg(strstr(r.entries[0].reason, "its configuration holds the secret assumeRole, token, which an import "
                                              "file cannot carry") &&
                      strstr(r.entries[0].reason, "nameTable"),
                  "%s", r.entries[0].reason);
    ck_assert_int_eq(r.entries[1].outcome, CONVERT_SKIPPED);
    ck_assert_str_eq(r.entries[1].reason, "its provider 'urn:pulumi:s::p::pulumi:providers:aws::east' is not "
                                          "converted: its configuration holds the secret assumeRole, token, which an "
                                          "import file cannot carry (the provider's entry says how to)");
    char *json = import_file_to_json(f);
    ck_assert_ptr_null(strstr(json, "arn:x"));
    ck_assert_ptr_null(strstr(json, "v1:a:b"));
    free(json);
    deployment_free(dep);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_is_terraform_state) {
    arena_t *a = arena_new();
    char *tf = tu_read(fixture(a, "docker.tfstate"), NULL);
    char *pu = tu_read(tu_data(a, "pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/"
                                  "index_randomid/4.16.0/stack.json"),
                       NULL);
    char *v3 = tu_read(tu_data(a, "tfstate/inframap/generate/testdata/version_3_state.json"), NULL);
    ck_assert(convert_is_terraform_state(tf));
    ck_assert(convert_is_terraform_state(v3));
    ck_assert(!convert_is_terraform_state(pu));
    ck_assert(!convert_is_terraform_state("{\"version\": 3}"));
    /* v4 states without lineage/serial (hand-written, trimmed) are states too; exports are not. */
    ck_assert(convert_is_terraform_state("{\"version\": 4, \"terraform_version\": \"1.9.0\", \"resources\": []}"));
    ck_assert(convert_is_terraform_state("{\"version\": 4, \"resources\": []}"));
    ck_assert(!convert_is_terraform_state("{\"version\": 3, \"deployment\": {\"resources\": []}}"));
    ck_assert(!convert_is_terraform_state("not json"));
    free(tf);
    free(pu);
    free(v3);
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("convert");
    TCase *tc = tcase_create("convert");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_bridge_metadata);
    tcase_add_test(tc, test_modules_counts_aliases_golden);
    tcase_add_test(tc, test_id_exceptions);
    tcase_add_test(tc, test_id_forms_from_attributes);
    tcase_add_test(tc, test_same_object_twice_not_converted);
    tcase_add_test(tc, test_same_id_other_provider_or_no_identity_converted);
    tcase_add_test(tc, test_no_importer_types_into_a_stack_only);
    tcase_add_test(tc, test_provider_spec_only_when_used);
    tcase_add_test(tc, test_secret_import_ids_refused);
    tcase_add_test(tc, test_module_provider_configs_distinct);
    tcase_add_test(tc, test_readable_name_not_from_sensitive);
    tcase_add_test(tc, test_logical_names_from_terraform_addresses);
    tcase_add_test(tc, test_sensitive_id_not_converted);
    tcase_add_test(tc, test_snapshot_records_state_id);
    tcase_add_test(tc, test_snapshot_meta_schema_version);
    tcase_add_test(tc, test_bad_inputs_exact_errors);
    tcase_add_test(tc, test_show_json_modules);
    tcase_add_test(tc, test_all_shared_tfstates_accounted);
    tcase_add_test(tc, test_offline_snapshots_typed_by_schema);
    tcase_add_test(tc, test_pulumi_exports_structure);
    tcase_add_test(tc, test_export_named_references);
    tcase_add_test(tc, test_export_name_table_and_explicit_provider);
    tcase_add_test(tc, test_export_provider_secret_config_withheld);
    tcase_add_test(tc, test_export_name_with_double_colon);
    tcase_add_test(tc, test_export_user_provider_named_default_like);
    tcase_add_test(tc, test_export_secret_import_ids_refused);
    tcase_add_test(tc, test_random_import_ids);
    tcase_add_test(tc, test_aws_import_ids);
    tcase_add_test(tc, test_is_terraform_state);
    tcase_add_test(tc, test_mapping_document);
    tcase_add_test(tc, test_mapping_document_malformed);
    tcase_add_test(tc, test_convert_with_mapping_document);
    tcase_add_test(tc, test_empty_states);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

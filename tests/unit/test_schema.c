/* test_schema.c — the package schema loader against the real schemas in ../shared/data: every schema
 * loads, every resource and type resolves and agrees with the JSON (checked independently with
 * cJSON), $ref/enum/union/map/array types, language overrides, aliases, secrets, defaults,
 * moduleFormat, the provider resource, schema sets from directories, and bad input with exact
 * messages. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "specs/schema.h"
#include "testutil.h"

static schema_package_t *load_data(arena_t *a, const char *rel) {
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *pkg = schema_load_file(tu_data(a, rel), &d);
    ck_assert_msg(pkg != NULL, "%s: %s", rel, d.head ? d.head->message : "?");
    ck_assert_int_eq(d.count, 0);
    diag_list_free(&d);
    return pkg;
}

/* Loads text as a schema expecting failure; returns the formatted single diagnostic (arena copy). */
static const char *load_error(arena_t *a, const char *text, const char *origin) {
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *pkg = schema_load_buffer(text, strlen(text), origin, &d);
    ck_assert_ptr_null(pkg);
    ck_assert_int_eq(d.errors, 1);
    const char *msg = arena_strdup(a, diag_format(&d, d.head));
    diag_list_free(&d);
    return msg;
}

static bool json_array_has(const cJSON *arr, const char *s) {
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        if (cJSON_IsString(e) && strcmp(e->valuestring, s) == 0) return true;
    }
    return false;
}

/* Checks a resolved property list against its JSON: same names, sorted, required flags from the
 * required array, secret flags. Returns the number of required properties. */
static size_t check_props(const char *what, const schema_property_t *props, size_t n, const cJSON *jprops,
                          const cJSON *jrequired) {
    size_t jn = cJSON_IsObject(jprops) ? (size_t)cJSON_GetArraySize(jprops) : 0;
    ck_assert_msg(n == jn, "%s: %zu properties, JSON has %zu", what, n, jn);
    size_t required = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0) ck_assert_msg(strcmp(props[i - 1].name, props[i].name) < 0, "%s: properties not sorted", what);
        const cJSON *jp = cJSON_GetObjectItemCaseSensitive(jprops, props[i].name);
        ck_assert_msg(jp != NULL, "%s: property %s not in JSON", what, props[i].name);
        ck_assert_ptr_nonnull(props[i].type);
        bool want = json_array_has(jrequired, props[i].name);
        ck_assert_msg(props[i].required == want, "%s.%s: required=%d, JSON says %d", what, props[i].name,
                      props[i].required, want);
        ck_assert(props[i].secret == cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(jp, "secret")));
        ck_assert_ptr_eq(schema_find_property(props, n, props[i].name), &props[i]);
        if (want) required++;
    }
    return required;
}

/* Every resource and type of one schema file, compared with the JSON parsed separately. */
static size_t check_schema_file(const char *path) {
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *pkg = schema_load_file(path, &d);
    ck_assert_msg(pkg != NULL, "%s: %s", path, d.head ? d.head->message : "?");
    ck_assert_str_eq(pkg->origin, path);
    diag_list_free(&d);
    char *text = tu_read(path, NULL);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    ck_assert_ptr_nonnull(doc);
    ck_assert_str_eq(pkg->name, cJSON_GetObjectItemCaseSensitive(doc, "name")->valuestring);

    const cJSON *jres = cJSON_GetObjectItemCaseSensitive(doc, "resources");
    size_t nres = jres ? (size_t)cJSON_GetArraySize(jres) : 0;
    ck_assert_uint_eq(schema_resource_count(pkg), nres);
    size_t checked = 0, i = 0;
    const cJSON *jr;
    cJSON_ArrayForEach(jr, jres) {
        ck_assert_str_eq(schema_resource_token_at(pkg, i), jr->string);
        const schema_resource_t *r = schema_find_resource(pkg, jr->string);
        ck_assert_msg(r != NULL, "%s: resource %s not found", path, jr->string);
        ck_assert_str_eq(r->token, jr->string);
        ck_assert(!r->is_provider);
        /* a second lookup is the cached resolution, not a new one */
        ck_assert_ptr_eq(schema_find_resource(pkg, jr->string), r);
        const cJSON *req = cJSON_GetObjectItemCaseSensitive(jr, "requiredInputs");
        size_t nreq = check_props(jr->string, r->inputs, r->n_inputs,
                                  cJSON_GetObjectItemCaseSensitive(jr, "inputProperties"), req);
        /* every requiredInput the JSON declares is an input marked required */
        const cJSON *e;
        size_t declared = 0;
        cJSON_ArrayForEach(e, req) {
            const schema_property_t *p = schema_find_property(r->inputs, r->n_inputs, e->valuestring);
            if (p) {
                ck_assert(p->required);
                declared++;
            }
        }
        ck_assert_uint_eq(nreq, declared);
        check_props(jr->string, r->outputs, r->n_outputs, cJSON_GetObjectItemCaseSensitive(jr, "properties"),
                    cJSON_GetObjectItemCaseSensitive(jr, "required"));
        ck_assert(r->is_component == cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(jr, "isComponent")));
        checked++;
        i++;
    }
    ck_assert_ptr_null(schema_resource_token_at(pkg, nres));

    const cJSON *jtypes = cJSON_GetObjectItemCaseSensitive(doc, "types");
    ck_assert_uint_eq(schema_type_count(pkg), jtypes ? (size_t)cJSON_GetArraySize(jtypes) : 0);
    const cJSON *jt;
    cJSON_ArrayForEach(jt, jtypes) {
        const schema_type_t *t = schema_find_type(pkg, jt->string);
        ck_assert_msg(t != NULL, "%s: type %s not found", path, jt->string);
        ck_assert_str_eq(t->token, jt->string);
        const cJSON *jenum = cJSON_GetObjectItemCaseSensitive(jt, "enum");
        const cJSON *jprops = cJSON_GetObjectItemCaseSensitive(jt, "properties");
        if (jenum) {
            ck_assert_int_eq(t->kind, SCHEMA_ENUM);
            ck_assert_uint_eq(t->n_enum_values, (size_t)cJSON_GetArraySize(jenum));
        } else if (cJSON_GetArraySize(jprops) > 0) {
            ck_assert_int_eq(t->kind, SCHEMA_OBJECT);
            const schema_object_t *o = schema_find_object(pkg, jt->string);
            ck_assert_ptr_eq(o, t->object);
            check_props(jt->string, o->props, o->n_props, jprops, cJSON_GetObjectItemCaseSensitive(jt, "required"));
        }
        checked++;
    }
    /* the provider resource always exists */
    arena_t *a = arena_new();
    const schema_resource_t *prov = schema_find_resource(pkg, arena_sprintf(a, "pulumi:providers:%s", pkg->name));
    ck_assert_ptr_nonnull(prov);
    ck_assert(prov->is_provider);
    arena_free(a);
    cJSON_Delete(doc);
    schema_free(pkg);
    return checked;
}

START_TEST(test_every_schema_resolves) {
    arena_t *a = arena_new();
    size_t n1, n2, files = 0, checked = 0;
    char **named = tu_find_files(a, tu_data(a, "schemas"), ".json", &n1);
    for (size_t i = 0; i < n1; i++) {
        const char *base = strrchr(named[i], '/') + 1;
        if (strncmp(base, "schema", 6) != 0) continue; /* bridge metadata */
        checked += check_schema_file(named[i]);
        files++;
    }
    ck_assert_uint_eq(files, 12);
    char **importer = tu_find_files(a, tu_data(a, "pulumi-importer/schemas"), ".json", &n2);
    for (size_t i = 0; i < n2; i++, files++)
        checked += check_schema_file(importer[i]);
    ck_assert_uint_eq(files, 12 + 23);
    ck_assert_uint_gt(checked, 3500);
    arena_free(a);
}
END_TEST

START_TEST(test_package_header) {
    arena_t *a = arena_new();
    schema_package_t *k8s = load_data(a, "schemas/kubernetes/schema.json");
    ck_assert_str_eq(k8s->name, "kubernetes");
    ck_assert_str_eq(k8s->display_name, "Kubernetes");
    ck_assert_str_eq(k8s->module_format, "(.*)"); /* no meta: the default */
    ck_assert(!k8s->support_pack);
    ck_assert_ptr_nonnull(k8s->language);
    schema_package_t *gcp = load_data(a, "schemas/gcp/schema-v2.11.1.json");
    ck_assert_str_eq(gcp->version, "v2.11.0-alpha.1585225700+gc19122c6.dirty");
    ck_assert_str_eq(gcp->module_format, "(.*)(?:/[^/]*)");
    ck_assert_ptr_null(gcp->namespace_);
    schema_package_t *aws = load_data(a, "schemas/aws-subset-phillipedwards/schema.json");
    ck_assert_str_eq(aws->go_import_base_path, "github.com/pulumi/pulumi-aws/sdk/go/aws");
    ck_assert_str_eq(aws->nodejs_package_name, "");
    ck_assert_ptr_null(aws->version);
    schema_package_t *imp = load_data(a, "pulumi-importer/schemas/importpath-1.0.0.json");
    ck_assert_str_eq(imp->version, "1.0.0");
    schema_free(k8s);
    schema_free(gcp);
    schema_free(aws);
    schema_free(imp);
    arena_free(a);
}
END_TEST

START_TEST(test_refs_maps_arrays) {
    arena_t *a = arena_new();
    schema_package_t *k8s = load_data(a, "schemas/kubernetes/schema.json");
    const schema_resource_t *dep = schema_find_resource(k8s, "kubernetes:apps/v1:Deployment");
    ck_assert_ptr_nonnull(dep);
    ck_assert_uint_eq(dep->n_inputs, 4);
    ck_assert_str_eq(dep->inputs[0].name, "apiVersion");
    ck_assert_str_eq(dep->inputs[0].const_value_json, "\"apps/v1\"");
    const schema_property_t *meta = schema_find_property(dep->inputs, dep->n_inputs, "metadata");
    ck_assert_ptr_nonnull(meta);
    ck_assert_int_eq(meta->type->kind, SCHEMA_OBJECT);
    ck_assert_str_eq(meta->type->token, "kubernetes:meta/v1:ObjectMeta");
    /* the $ref resolves to the same cached type as a direct lookup */
    ck_assert_ptr_eq(meta->type, schema_find_type(k8s, "kubernetes:meta/v1:ObjectMeta"));
    const schema_object_t *om = meta->type->object;
    ck_assert_str_eq(om->token, "kubernetes:meta/v1:ObjectMeta");
    ck_assert_uint_eq(om->n_props, 16);
    const schema_property_t *labels = schema_find_property(om->props, om->n_props, "labels");
    ck_assert_int_eq(labels->type->kind, SCHEMA_MAP);
    ck_assert_int_eq(labels->type->element->kind, SCHEMA_STRING);
    const schema_property_t *fin = schema_find_property(om->props, om->n_props, "finalizers");
    ck_assert_int_eq(fin->type->kind, SCHEMA_ARRAY);
    ck_assert_int_eq(fin->type->element->kind, SCHEMA_STRING);
    const schema_property_t *owners = schema_find_property(om->props, om->n_props, "ownerReferences");
    ck_assert_int_eq(owners->type->kind, SCHEMA_ARRAY);
    ck_assert_int_eq(owners->type->element->kind, SCHEMA_OBJECT);
    ck_assert_str_eq(owners->type->element->token, "kubernetes:meta/v1:OwnerReference");
    const schema_property_t *gen = schema_find_property(om->props, om->n_props, "generation");
    ck_assert_int_eq(gen->type->kind, SCHEMA_INT);
    ck_assert_ptr_null(schema_find_property(om->props, om->n_props, "nosuch"));
    /* nested required properties of an object type */
    const schema_object_t *owner = schema_find_object(k8s, "kubernetes:meta/v1:OwnerReference");
    ck_assert(schema_find_property(owner->props, owner->n_props, "uid")->required);
    ck_assert(!schema_find_property(owner->props, owner->n_props, "controller")->required);
    /* enums are types but not objects */
    ck_assert_ptr_null(schema_find_object(k8s, "kubernetes:core/v1:ServiceSpecType"));
    ck_assert_ptr_null(schema_find_type(k8s, "kubernetes:core/v1:NoSuchType"));

    schema_package_t *aws = load_data(a, "schemas/aws-subset-phillipedwards/schema.json");
    const schema_resource_t *role = schema_find_resource(aws, "aws:iam/role:Role");
    const schema_property_t *inl = schema_find_property(role->inputs, role->n_inputs, "inlinePolicies");
    ck_assert_int_eq(inl->type->kind, SCHEMA_ARRAY);
    ck_assert_int_eq(inl->type->element->kind, SCHEMA_OBJECT);
    ck_assert_str_eq(inl->type->element->token, "aws:iam/RoleInlinePolicy:RoleInlinePolicy");
    const schema_property_t *tags = schema_find_property(role->inputs, role->n_inputs, "tags");
    ck_assert_int_eq(tags->type->kind, SCHEMA_MAP);
    ck_assert_int_eq(tags->type->element->kind, SCHEMA_STRING);
    schema_free(k8s);
    schema_free(aws);
    arena_free(a);
}
END_TEST

START_TEST(test_enums) {
    arena_t *a = arena_new();
    schema_package_t *docker = load_data(a, "schemas/docker/schema.json");
    const schema_type_t *bv = schema_find_type(docker, "docker:index/builderVersion:BuilderVersion");
    ck_assert_int_eq(bv->kind, SCHEMA_ENUM);
    ck_assert_int_eq(bv->element->kind, SCHEMA_STRING);
    ck_assert_uint_eq(bv->n_enum_values, 2);
    ck_assert_str_eq(bv->enum_values[0].name, "BuilderV1");
    ck_assert_str_eq(bv->enum_values[0].description, "The first generation builder for Docker Daemon");
    ck_assert_int_eq(bv->enum_values[0].value->kind, PV_STRING);
    ck_assert_str_eq(bv->enum_values[0].value->u.str.s, "BuilderV1");
    ck_assert_str_eq(bv->enum_values[1].name, "BuilderBuildKit");

    schema_package_t *k8s = load_data(a, "schemas/kubernetes/schema.json");
    const schema_type_t *st = schema_find_type(k8s, "kubernetes:core/v1:ServiceSpecType");
    ck_assert_uint_eq(st->n_enum_values, 4);
    ck_assert_ptr_null(st->enum_values[2].name); /* no name: the value names the member */
    ck_assert_str_eq(st->enum_values[2].value->u.str.s, "NodePort");

    schema_package_t *en = load_data(a, "pulumi-importer/schemas/enum-1.0.0.json");
    const schema_type_t *color = schema_find_type(en, "enum:index:Color");
    ck_assert_int_eq(color->kind, SCHEMA_ENUM);
    ck_assert_uint_eq(color->n_enum_values, 3);
    ck_assert_str_eq(color->enum_values[1].value->u.str.s, "green");
    /* a token with an escaped slash finds the same type */
    schema_package_t *dig = load_data(a, "schemas/digitalocean/schema.json");
    const schema_type_t *region = schema_find_type(dig, "digitalocean:index:Region");
    ck_assert_int_eq(region->kind, SCHEMA_ENUM);
    ck_assert_str_eq(region->enum_values[0].name, "NYC1");
    ck_assert_str_eq(region->enum_values[0].value->u.str.s, "nyc1");
    ck_assert_ptr_eq(schema_find_type(docker, "docker:index%2FbuilderVersion:BuilderVersion"), bv);
    schema_free(docker);
    schema_free(k8s);
    schema_free(en);
    schema_free(dig);
    arena_free(a);
}
END_TEST

START_TEST(test_unions) {
    arena_t *a = arena_new();
    schema_package_t *k8s = load_data(a, "schemas/kubernetes/schema.json");
    const schema_object_t *sp = schema_find_object(k8s, "kubernetes:core/v1:ServicePort");
    const schema_property_t *tp = schema_find_property(sp->props, sp->n_props, "targetPort");
    ck_assert_int_eq(tp->type->kind, SCHEMA_UNION);
    ck_assert_uint_eq(tp->type->n_members, 2);
    ck_assert_int_eq(tp->type->members[0]->kind, SCHEMA_INT);
    ck_assert_int_eq(tp->type->members[1]->kind, SCHEMA_STRING);
    ck_assert_ptr_null(tp->type->discriminator);
    const schema_object_t *ss = schema_find_object(k8s, "kubernetes:core/v1:ServiceSpec");
    const schema_property_t *ty = schema_find_property(ss->props, ss->n_props, "type");
    ck_assert_int_eq(ty->type->kind, SCHEMA_UNION);
    ck_assert_int_eq(ty->type->members[1]->kind, SCHEMA_ENUM);
    ck_assert_ptr_eq(ty->type->members[1], schema_find_type(k8s, "kubernetes:core/v1:ServiceSpecType"));

    schema_package_t *imp = load_data(a, "pulumi-importer/schemas/importer-1.0.0.json");
    const schema_resource_t *b = schema_find_resource(imp, "importer:s3/bucket:Bucket");
    const schema_property_t *acl = schema_find_property(b->inputs, b->n_inputs, "acl");
    ck_assert_int_eq(acl->type->kind, SCHEMA_UNION);
    ck_assert_int_eq(acl->type->members[1]->kind, SCHEMA_ENUM);
    ck_assert_str_eq(acl->type->members[1]->token, "importer:s3/CannedAcl:CannedAcl");
    /* a member naming a type the schema lacks keeps its scalar type and the missing token */
    const schema_resource_t *obj = schema_find_resource(imp, "importer:s3/bucketObject:BucketObject");
    const schema_property_t *bucket = schema_find_property(obj->inputs, obj->n_inputs, "bucket");
    ck_assert_int_eq(bucket->type->members[1]->kind, SCHEMA_STRING);
    ck_assert_str_eq(bucket->type->members[1]->token, "importer:s3/bucket:Bucket");

    /* discriminated unions (none in the real schemas) */
    const char *text =
        "{\"name\":\"u\",\"types\":{\"u:index:A\":{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\"}}}"
        ","
        "\"u:index:B\":{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\"},\"n\":{\"type\":\"number\"}}"
        "}},"
        "\"resources\":{\"u:index:R\":{\"inputProperties\":{\"v\":{\"oneOf\":[{\"$ref\":\"#/types/u:index:A\"},"
        "{\"$ref\":\"#/types/u:index:B\"}],\"discriminator\":{\"propertyName\":\"kind\",\"mapping\":{\"a\":\"#/types/"
        "u:index:A\",\"b\":\"#/types/u:index:B\"}}}}}}}";
    schema_package_t *u = schema_load_buffer(text, strlen(text), "u.json", NULL);
    ck_assert_ptr_nonnull(u);
    const schema_resource_t *r = schema_find_resource(u, "u:index:R");
    const schema_type_t *v = r->inputs[0].type;
    ck_assert_int_eq(v->kind, SCHEMA_UNION);
    ck_assert_str_eq(v->discriminator, "kind");
    ck_assert_uint_eq(v->n_mapping, 2);
    ck_assert_str_eq(v->mapping[1].value, "b");
    ck_assert_str_eq(v->mapping[1].ref, "#/types/u:index:B");
    ck_assert_str_eq(v->members[1]->object->token, "u:index:B");
    ck_assert_uint_eq(v->members[1]->object->n_props, 2);
    schema_free(u);
    schema_free(k8s);
    schema_free(imp);
    arena_free(a);
}
END_TEST

START_TEST(test_language_overrides) {
    arena_t *a = arena_new();
    schema_package_t *aws = load_data(a, "schemas/aws-subset-phillipedwards/schema.json");
    const schema_resource_t *al = schema_find_resource(aws, "aws:iam/accountAlias:AccountAlias");
    const schema_property_t *p = schema_find_property(al->inputs, al->n_inputs, "accountAlias");
    ck_assert_str_eq(p->csharp_name, "Alias");
    ck_assert_ptr_null(p->python_name);
    ck_assert_ptr_nonnull(p->language);
    ck_assert_str_eq(schema_find_property(al->outputs, al->n_outputs, "accountAlias")->csharp_name, "Alias");
    const schema_resource_t *pol = schema_find_resource(aws, "aws:iam/policy:Policy");
    ck_assert_str_eq(schema_find_property(pol->inputs, pol->n_inputs, "policy")->csharp_name, "PolicyDocument");
    ck_assert_ptr_null(schema_find_property(pol->inputs, pol->n_inputs, "name")->csharp_name);
    schema_package_t *gcp = load_data(a, "schemas/gcp/schema-v2.11.1.json");
    const schema_resource_t *svc = schema_find_resource(gcp, "gcp:projects/service:Service");
    ck_assert_str_eq(schema_find_property(svc->inputs, svc->n_inputs, "service")->csharp_name, "ServiceName");
    schema_free(aws);
    schema_free(gcp);
    arena_free(a);
}
END_TEST

START_TEST(test_aliases) {
    arena_t *a = arena_new();
    schema_package_t *k8s = load_data(a, "schemas/kubernetes/schema.json");
    const schema_resource_t *dep = schema_find_resource(k8s, "kubernetes:apps/v1:Deployment");
    ck_assert_uint_eq(dep->n_aliases, 3);
    ck_assert_str_eq(dep->aliases[0], "kubernetes:apps/v1beta1:Deployment");
    /* v1beta1 is a resource of its own (aliasing v1 back), so the canonical token wins */
    const schema_resource_t *beta = schema_find_resource(k8s, "kubernetes:apps/v1beta1:Deployment");
    ck_assert_str_eq(beta->token, "kubernetes:apps/v1beta1:Deployment");
    ck_assert_str_eq(beta->deprecation,
                     "apps/v1beta1/Deployment is deprecated by apps/v1/Deployment and not supported by Kubernetes "
                     "v1.16+ clusters.");
    schema_package_t *gcp = load_data(a, "schemas/gcp/schema-v2.11.1.json");
    const schema_resource_t *cert =
        schema_find_resource(gcp, "gcp:compute/managedSslCertificate:ManagedSslCertificate");
    ck_assert_uint_eq(cert->n_aliases, 1);
    ck_assert_str_eq(cert->aliases[0], "gcp:compute/mangedSslCertificate:MangedSslCertificate");
    ck_assert_ptr_null(schema_find_resource(gcp, "gcp:compute/nosuch:Nosuch"));
    ck_assert_ptr_null(schema_find_resource(gcp, NULL));
    /* an alias token with no resource of its own finds the resource it aliases */
    schema_package_t *docker = load_data(a, "schemas/docker/schema.json");
    const schema_resource_t *img = schema_find_resource(docker, "docker:index/image:Image");
    ck_assert_ptr_eq(schema_find_resource(docker, "docker:image:Image"), img);
    ck_assert_str_eq(img->aliases[0], "docker:image:Image");
    /* both spellings of an alias: a bare string and {type} */
    schema_package_t *al = load_data(a, "pulumi-importer/schemas/aliases-1.0.0.json");
    ck_assert_str_eq(schema_find_resource(al, "aliases:index:OldFirst")->token, "aliases:index:First");
    ck_assert_str_eq(schema_find_resource(al, "aliases:index:OldSecond")->token, "aliases:index:Second");
    schema_free(docker);
    schema_free(al);
    schema_free(k8s);
    schema_free(gcp);
    arena_free(a);
}
END_TEST

/* Functions: object returns (typed outputs), scalar, list and map returns, multi-argument inputs,
 * and resource methods naming the function that implements them. */
static schema_package_t *load_conformance(arena_t *a, const char *file) {
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *pkg =
        schema_load_file(arena_sprintf(a, "%s/tests/fixtures/conformance/schemas/%s", SOURCE_DIR, file), &d);
    ck_assert_msg(pkg != NULL, "%s: %s", file, d.head ? d.head->message : "?");
    diag_list_free(&d);
    return pkg;
}

START_TEST(test_functions) {
    arena_t *a = arena_new();
    schema_package_t *si = load_conformance(a, "simple-invoke-10.0.0.json");
    ck_assert_uint_eq(schema_function_count(si), 4);
    const schema_function_t *f = schema_find_function(si, "simple-invoke:index:secretInvoke");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_eq(schema_find_function(si, "simple-invoke:index:secretInvoke"), f); /* cached */
    ck_assert_uint_eq(f->n_inputs, 2);
    ck_assert_str_eq(f->inputs[0].name, "secretResponse");
    ck_assert_int_eq(f->inputs[0].type->kind, SCHEMA_BOOL);
    ck_assert(f->inputs[0].required);
    ck_assert(!f->scalar_return && !f->multi_argument && !f->return_plain);
    ck_assert_int_eq(f->return_type->kind, SCHEMA_OBJECT);
    ck_assert_str_eq(f->return_type->token, "simple-invoke:index:secretInvoke");
    ck_assert_uint_eq(f->return_type->object->n_props, 2);
    ck_assert_ptr_eq(f->outputs, f->return_type->object->props);
    ck_assert_str_eq(f->outputs[1].name, "secret");
    ck_assert_ptr_null(schema_find_function(si, "simple-invoke:index:nosuch"));
    ck_assert_ptr_null(schema_find_function(si, "simple-invoke:index:StringResource")); /* a resource */
    const schema_function_t *unit = schema_find_function(si, "simple-invoke:index:unit");
    ck_assert_uint_eq(unit->n_inputs, 0);

    schema_package_t *sr = load_conformance(a, "scalar-returns-21.0.0.json");
    f = schema_find_function(sr, "scalar-returns:index:invokeSecret");
    ck_assert(f->scalar_return);
    ck_assert_int_eq(f->return_type->kind, SCHEMA_NUMBER);
    ck_assert_uint_eq(f->n_outputs, 0);
    ck_assert_int_eq(schema_find_function(sr, "scalar-returns:index:invokeArray")->return_type->kind, SCHEMA_ARRAY);
    ck_assert_int_eq(schema_find_function(sr, "scalar-returns:index:invokeMap")->return_type->kind, SCHEMA_MAP);

    schema_package_t *ma = load_conformance(a, "multi-argument-invoke-44.0.0.json");
    f = schema_find_function(ma, "multi-argument-invoke:index:multiArgumentInvoke");
    ck_assert(f->multi_argument);
    ck_assert_uint_eq(f->n_multi_args, 2);
    ck_assert_str_eq(f->multi_args[0], "first");
    ck_assert_str_eq(f->multi_args[1], "second");

    schema_package_t *cf = load_conformance(a, "configurer-38.0.0.json");
    const schema_resource_t *r = schema_find_resource(cf, "configurer:index:Configurer");
    ck_assert_uint_eq(r->n_methods, 3);
    const schema_method_t *m = schema_find_method(r, "plainValue");
    ck_assert_str_eq(m->function, "configurer:index:Configurer/plainValue");
    ck_assert_ptr_null(schema_find_method(r, "nosuch"));
    f = schema_find_function(cf, m->function);
    ck_assert(f->scalar_return && f->return_plain);
    ck_assert_int_eq(f->return_type->kind, SCHEMA_INT);
    f = schema_find_function(cf, "configurer:index:Configurer/plainProvider");
    ck_assert_int_eq(f->return_type->kind, SCHEMA_RESOURCE);
    ck_assert_str_eq(f->return_type->token, "pulumi:providers:configurer");
    ck_assert_ptr_null(schema_find_resource(cf, "configurer:index:Custom")->methods);

    /* the whole-tree loader gives the same functions */
    size_t len;
    char *text =
        tu_read(arena_sprintf(a, "%s/tests/fixtures/conformance/schemas/simple-invoke-10.0.0.json", SOURCE_DIR), &len);
    diag_list_t d;
    diag_list_init(&d);
    schema_package_t *whole = schema_load_buffer_whole(text, len, "x", &d);
    free(text);
    ck_assert_uint_eq(schema_find_function(whole, "simple-invoke:index:secretInvoke")->n_inputs, 2);
    diag_list_free(&d);
    schema_free(whole);
    schema_free(si);
    schema_free(sr);
    schema_free(ma);
    schema_free(cf);
    arena_free(a);
}
END_TEST

START_TEST(test_flags_and_defaults) {
    arena_t *a = arena_new();
    schema_package_t *k8s = load_data(a, "schemas/kubernetes/schema.json");
    const schema_resource_t *sec = schema_find_resource(k8s, "kubernetes:core/v1:Secret");
    ck_assert(schema_find_property(sec->inputs, sec->n_inputs, "data")->secret);
    ck_assert(schema_find_property(sec->inputs, sec->n_inputs, "stringData")->secret);
    ck_assert(!schema_find_property(sec->inputs, sec->n_inputs, "type")->secret);
    const schema_resource_t *kp = schema_find_resource(k8s, "pulumi:providers:kubernetes");
    const schema_property_t *kc = schema_find_property(kp->inputs, kp->n_inputs, "kubeconfig");
    ck_assert_uint_eq(kc->n_default_env, 1);
    ck_assert_str_eq(kc->default_env[0], "KUBECONFIG");

    schema_package_t *imp = load_data(a, "pulumi-importer/schemas/importer-1.0.0.json");
    const schema_resource_t *sg = schema_find_resource(imp, "importer:ec2/securityGroup:SecurityGroup");
    const schema_property_t *desc = schema_find_property(sg->inputs, sg->n_inputs, "description");
    ck_assert_ptr_nonnull(desc->default_value);
    ck_assert_int_eq(desc->default_value->kind, PV_STRING);
    ck_assert_str_eq(desc->default_value->u.str.s, "Managed by Pulumi");
    ck_assert_ptr_null(schema_find_property(sg->inputs, sg->n_inputs, "name")->default_value);

    schema_package_t *docker = load_data(a, "schemas/docker/schema.json");
    const schema_resource_t *img = schema_find_resource(docker, "docker:index/image:Image");
    const schema_property_t *skip = schema_find_property(img->inputs, img->n_inputs, "skipPush");
    ck_assert_int_eq(skip->default_value->kind, PV_BOOL);
    ck_assert(!skip->default_value->u.b);

    schema_package_t *cmd = load_data(a, "schemas/command/schema.json");
    const schema_resource_t *c = schema_find_resource(cmd, "command:local:Command");
    ck_assert(schema_find_property(c->inputs, c->n_inputs, "triggers")->replace_on_changes);
    ck_assert(!schema_find_property(c->inputs, c->n_inputs, "create")->replace_on_changes);
    schema_package_t *dig = load_data(a, "schemas/digitalocean/schema.json");
    const schema_resource_t *app = schema_find_resource(dig, "digitalocean:index/app:App");
    ck_assert(schema_find_property(app->inputs, app->n_inputs, "projectId")->replace_on_changes);

    schema_package_t *pp = load_data(a, "pulumi-importer/schemas/plain-properties-1.0.0.json");
    const schema_resource_t *ex = schema_find_resource(pp, "plain-properties:index:ExampleResource");
    ck_assert(schema_find_property(ex->inputs, ex->n_inputs, "exampleProperty")->plain);
    ck_assert(!schema_find_property(ex->inputs, ex->n_inputs, "nonPlainProperty")->plain);

    schema_package_t *rnd = load_data(a, "schemas/random/schema.json");
    const schema_resource_t *pw = schema_find_resource(rnd, "random:index/randomPassword:RandomPassword");
    ck_assert(schema_find_property(pw->outputs, pw->n_outputs, "result")->secret);
    ck_assert(schema_find_property(pw->inputs, pw->n_inputs, "length")->required);
    ck_assert_ptr_nonnull(schema_find_property(pw->inputs, pw->n_inputs, "number")->deprecation);
    ck_assert_ptr_null(schema_find_property(pw->inputs, pw->n_inputs, "numeric")->deprecation);

    schema_package_t *comp = load_data(a, "pulumi-importer/schemas/component-13.3.7.json");
    ck_assert(schema_find_resource(comp, "component:index:Callable")->is_component);
    schema_free(k8s);
    schema_free(imp);
    schema_free(docker);
    schema_free(cmd);
    schema_free(dig);
    schema_free(pp);
    schema_free(rnd);
    schema_free(comp);
    arena_free(a);
}
END_TEST

START_TEST(test_provider_resource) {
    arena_t *a = arena_new();
    schema_package_t *aws = load_data(a, "schemas/aws-subset-phillipedwards/schema.json");
    const schema_resource_t *p = schema_find_resource(aws, "pulumi:providers:aws");
    ck_assert_ptr_nonnull(p);
    ck_assert(p->is_provider);
    ck_assert_str_eq(p->token, "pulumi:providers:aws");
    const schema_property_t *region = schema_find_property(p->inputs, p->n_inputs, "region");
    ck_assert_uint_eq(region->n_default_env, 2);
    ck_assert_str_eq(region->default_env[0], "AWS_REGION");
    ck_assert_str_eq(region->default_env[1], "AWS_DEFAULT_REGION");
    /* the schema refers to `aws:index/region:Region`, the type is `aws:index/Region:Region` */
    ck_assert_int_eq(region->type->kind, SCHEMA_ENUM);
    ck_assert_str_eq(region->type->token, "aws:index/Region:Region");
    ck_assert_ptr_eq(schema_find_type(aws, "aws:index/region:Region"), region->type);
    /* provider is not counted among the resources */
    for (size_t i = 0; i < schema_resource_count(aws); i++)
        ck_assert_str_ne(schema_resource_token_at(aws, i), "pulumi:providers:aws");
    ck_assert_ptr_null(schema_find_resource(aws, "pulumi:providers:gcp"));
    /* a schema with no provider section still has a provider resource, with no inputs */
    schema_package_t *comp = load_data(a, "pulumi-importer/schemas/component-13.3.7.json");
    const schema_resource_t *cp = schema_find_resource(comp, "pulumi:providers:component");
    ck_assert(cp->is_provider);
    ck_assert_uint_eq(cp->n_inputs, 0);
    schema_free(aws);
    schema_free(comp);
    arena_free(a);
}
END_TEST

START_TEST(test_special_refs) {
    arena_t *a = arena_new();
    schema_package_t *rr = load_data(a, "pulumi-importer/schemas/remoteref-1.0.0.json");
    const schema_resource_t *root = schema_find_resource(rr, "remoteref:index:Root");
    const schema_property_t *cfg = schema_find_property(root->outputs, root->n_outputs, "config");
    ck_assert_int_eq(cfg->type->kind, SCHEMA_ANY);
    ck_assert_str_eq(cfg->type->external_ref, "/goalias/v1.0.0/schema.json#/types/goalias:mod1%2Fv1:Config");
    ck_assert_str_eq(cfg->type->token, "goalias:mod1/v1:Config");
    const schema_property_t *res = schema_find_property(root->outputs, root->n_outputs, "res");
    ck_assert_int_eq(res->type->kind, SCHEMA_ANY);
    ck_assert_str_eq(res->type->token, "goalias:mod1/v1:Res");
    ck_assert(res->required);

    schema_package_t *rec = load_data(a, "pulumi-importer/schemas/recursive-1.0.0.json");
    const schema_type_t *rt = schema_find_type(rec, "recursive:index:RecursiveType");
    ck_assert_int_eq(rt->kind, SCHEMA_OBJECT);
    const schema_property_t *self = schema_find_property(rt->object->props, rt->object->n_props, "recursiveType");
    ck_assert_ptr_eq(self->type, rt);

    /* a property-less object type is a map of anything, still named */
    schema_package_t *good = load_data(a, "pulumi-importer/schemas/dangling-reference-good-0.1.0.json");
    const schema_resource_t *gp = schema_find_resource(good, "pulumi:providers:dangling-reference");
    ck_assert_int_eq(gp->inputs[0].type->kind, SCHEMA_MAP);
    ck_assert_int_eq(gp->inputs[0].type->element->kind, SCHEMA_ANY);
    ck_assert_str_eq(gp->inputs[0].type->token, "dangling-reference:a:b");
    ck_assert_uint_eq(schema_find_object(good, "dangling-reference:a:b")->n_props, 0);
    schema_package_t *bad = load_data(a, "pulumi-importer/schemas/dangling-reference-bad-0.1.0.json");
    const schema_resource_t *bp = schema_find_resource(bad, "pulumi:providers:dangling-reference");
    ck_assert_int_eq(bp->inputs[0].type->kind, SCHEMA_ANY);
    ck_assert_str_eq(bp->inputs[0].type->token, "dangling-reference:a:b");
    ck_assert_ptr_null(bp->inputs[0].type->external_ref);

    /* pulumi.json types and resource references */
    const char *text = "{\"name\":\"p\",\"resources\":{\"p:index:R\":{\"inputProperties\":{"
                       "\"a\":{\"$ref\":\"pulumi.json#/Asset\"},\"b\":{\"$ref\":\"pulumi.json#/Archive\"},"
                       "\"c\":{\"$ref\":\"pulumi.json#/Any\"},\"d\":{\"$ref\":\"pulumi.json#/Json\"},"
                       "\"e\":{\"$ref\":\"#/resources/p:index%2Fx:R\"},\"f\":{\"type\":\"object\"},"
                       "\"g\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"additionalProperties\":"
                       "{\"type\":\"number\"}}},\"h\":{},\"i\":{\"type\":\"string\",\"const\":7}},"
                       "\"requiredInputs\":[\"a\",\"zz\"]}}}";
    schema_package_t *p = schema_load_buffer(text, strlen(text), NULL, NULL);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->origin, "<schema>");
    const schema_resource_t *r = schema_find_resource(p, "p:index:R");
    ck_assert_uint_eq(r->n_inputs, 9);
    ck_assert_int_eq(r->inputs[0].type->kind, SCHEMA_ASSET);
    ck_assert(r->inputs[0].required);
    ck_assert_int_eq(r->inputs[1].type->kind, SCHEMA_ARCHIVE);
    ck_assert_int_eq(r->inputs[2].type->kind, SCHEMA_ANY);
    ck_assert_int_eq(r->inputs[3].type->kind, SCHEMA_JSON);
    ck_assert_int_eq(r->inputs[4].type->kind, SCHEMA_RESOURCE);
    ck_assert_str_eq(r->inputs[4].type->token, "p:index/x:R");
    ck_assert_int_eq(r->inputs[5].type->kind, SCHEMA_MAP);
    ck_assert_int_eq(r->inputs[5].type->element->kind, SCHEMA_ANY);
    ck_assert_int_eq(r->inputs[6].type->element->kind, SCHEMA_MAP);
    ck_assert_int_eq(r->inputs[6].type->element->element->kind, SCHEMA_NUMBER);
    ck_assert_int_eq(r->inputs[7].type->kind, SCHEMA_ANY);
    ck_assert_str_eq(r->inputs[8].const_value_json, "7");
    schema_free(p);
    schema_free(rr);
    schema_free(rec);
    schema_free(good);
    schema_free(bad);
    arena_free(a);
}
END_TEST

START_TEST(test_token_module_and_package) {
    arena_t *a = arena_new();
    schema_package_t *aws = load_data(a, "schemas/aws-subset-phillipedwards/schema.json");
    ck_assert_str_eq(schema_token_module(a, aws, "aws:s3/bucket:Bucket"), "s3");
    ck_assert_str_eq(schema_token_module(a, aws, "aws:iam/accessKey:AccessKey"), "iam");
    ck_assert_str_eq(schema_token_module(a, aws, "aws:index/Region:Region"), "index");
    ck_assert_str_eq(schema_token_module(a, aws, "aws:x/iam/thing:Thing"), "x/iam");
    ck_assert_str_eq(schema_token_module(a, aws, "aws:index:Foo"), ""); /* no match of the format */
    ck_assert_str_eq(schema_token_module(a, aws, "notatoken"), "");
    schema_package_t *k8s = load_data(a, "schemas/kubernetes/schema.json");
    ck_assert_str_eq(schema_token_module(a, k8s, "kubernetes:apps/v1:Deployment"), "apps/v1");
    ck_assert_str_eq(schema_token_module(a, k8s, "kubernetes:yaml:ConfigFile"), "yaml");
    const char *text = "{\"name\":\"m\",\"meta\":{\"moduleFormat\":\"(?:v[0-9]+/)?([a-z]+)(?:/.*)?\"},\"types\":{}}";
    schema_package_t *m = schema_load_buffer(text, strlen(text), "m.json", NULL);
    ck_assert_str_eq(schema_token_module(a, m, "m:v2/compute/x:X"), "compute");
    ck_assert_str_eq(schema_token_module(a, m, "m:storage:X"), "storage");
    /* asked again (answered from the per-package cache): the same, and each answer the caller's own */
    char *again = schema_token_module(a, m, "m:v2/compute/y:Y");
    ck_assert_str_eq(again, "compute");
    again[0] = 'X';
    ck_assert_str_eq(schema_token_module(a, m, "m:v2/compute/x:X"), "compute");
    ck_assert_str_eq(schema_token_module(a, aws, "aws:index:Bar"), "");
    ck_assert_str_eq(schema_token_module(a, aws, "aws:s3/bucketPolicy:BucketPolicy"), "s3");
    schema_free(m);

    ck_assert_str_eq(schema_token_package(a, "aws:s3/bucket:Bucket"), "aws");
    ck_assert_str_eq(schema_token_package(a, "pulumi:providers:aws"), "aws");
    ck_assert_str_eq(schema_token_package(a, "kubernetes:apps/v1:Deployment"), "kubernetes");
    ck_assert_str_eq(schema_token_package(a, "bare"), "bare");
    schema_free(aws);
    schema_free(k8s);
    arena_free(a);
}
END_TEST

START_TEST(test_bad_input) {
    arena_t *a = arena_new();
    ck_assert_str_eq(load_error(a, "", "e.json"),
                     "e.json: the schema file is empty; a package schema is the JSON printed by `pulumi package "
                     "get-schema <plugin>`");
    ck_assert_str_eq(load_error(a, " \n\t", "e.json"),
                     "e.json: the schema file is empty; a package schema is the JSON printed by `pulumi package "
                     "get-schema <plugin>`");
    ck_assert_str_eq(load_error(a, "{\n  \"name\": \"x\",\n  \"resources\": {,}\n}", "bad.json"),
                     "bad.json:3: the schema is not valid JSON (syntax error in `\"resources\": {,}`); a package "
                     "schema is the JSON printed by `pulumi package get-schema <plugin>`");
    ck_assert_str_eq(load_error(a, "name: x", "s.yaml"),
                     "s.yaml:1: the schema is not valid JSON (syntax error in `name: x`); a package schema is the "
                     "JSON printed by `pulumi package get-schema <plugin>`");
    ck_assert_str_eq(load_error(a, "[1,2]", "a.json"),
                     "a.json: not a Pulumi package schema (it is an array, not a JSON object); a package schema is "
                     "the JSON printed by `pulumi package get-schema <plugin>`");
    ck_assert_str_eq(load_error(a, "{\"auto-aliasing\":{}}", "m.json"),
                     "m.json: not a Pulumi package schema (it has no `name` and no `resources`); a package schema "
                     "is the JSON printed by `pulumi package get-schema <plugin>`");
    ck_assert_str_eq(load_error(a, "{\"resources\":{}}", "m.json"),
                     "m.json: not a Pulumi package schema (it has no `name`); a package schema is the JSON printed "
                     "by `pulumi package get-schema <plugin>`");
    ck_assert_str_eq(load_error(a, "{\"name\":\"x\",\"version\":\"1.0.0\"}", "m.json"),
                     "m.json: not a Pulumi package schema (it has no `resources`, `types`, `provider` or "
                     "`functions`); a package schema is the JSON printed by `pulumi package get-schema <plugin>`");
    /* a long line is quoted up to 60 bytes, never cutting a UTF-8 character in two */
    ck_assert_str_eq(
        load_error(a, "{\"name\":\"x\",\"types\":{},\"d\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaa\u00e9\u00e9\u00e9\u00e9\",,}",
                   "long.json"),
        "long.json:1: the schema is not valid JSON (syntax error in "
        "`{\"name\":\"x\",\"types\":{},\"d\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaa\u00e9\u00e9`); a package "
        "schema is the JSON printed by `pulumi package get-schema <plugin>`");
    /* trailing garbage after the document is an error too */
    ck_assert_ptr_nonnull(strstr(load_error(a, "{\"name\":\"x\",\"types\":{}} x", "t.json"), "not valid JSON"));

    /* real files: a bridge metadata file named directly, a missing file */
    diag_list_t d;
    diag_list_init(&d);
    const char *bm = tu_data(a, "schemas/docker/bridge-metadata.json");
    ck_assert_ptr_null(schema_load_file(bm, &d));
    ck_assert_str_eq(diag_format(&d, d.head),
                     arena_sprintf(a,
                                   "%s: not a Pulumi package schema (it has no `name` and no `resources`); a "
                                   "package schema is the JSON printed by `pulumi package get-schema <plugin>`",
                                   bm));
    ck_assert_int_eq(d.head->code, DIAG_SCHEMA);
    diag_list_free(&d);
    diag_list_init(&d);
    ck_assert_ptr_null(schema_load_file("/nonexistent/schema.json", &d));
    ck_assert_str_eq(diag_format(&d, d.head),
                     "/nonexistent/schema.json: cannot read the file: No such file or directory");
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

static void write_file(const char *dir, const char *rel, const char *text) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    ck_assert(tu_write(path, text));
}

START_TEST(test_schema_set_directory) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    ck_assert_ptr_nonnull(dir);
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/pkgs", dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    snprintf(sub, sizeof sub, "%s/pkgs/deep", dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    write_file(dir, "one.json", "{\"name\":\"one\",\"version\":\"1.2.0\",\"resources\":{\"one:index:A\":{}}}");
    write_file(dir, "notes.json", "{\"hello\":\"world\"}");            /* other JSON: skipped */
    write_file(dir, "bridge-metadata.json", "{\"auto-aliasing\":{}}"); /* never a schema */
    write_file(dir, "readme.txt", "not json");
    write_file(dir, "pkgs/deep/schema.json", "{\"name\":\"two\",\"types\":{}}");
    write_file(dir, "pkgs/other.json", "{\"name\":\"three\",\"types\":{}}"); /* not top-level: ignored */
    write_file(dir, "pkgs/schema-v1.3.0.json", "{\"name\":\"one\",\"version\":\"1.3.0\",\"resources\":{}}");
    schema_set_t *set = schema_set_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(schema_set_add_path(set, dir, &d));
    ck_assert_int_eq(d.count, 0);
    ck_assert_uint_eq(schema_set_count(set), 2);
    /* the newer `one` replaced the older one */
    ck_assert_str_eq(schema_set_get(set, "one")->version, "1.3.0");
    ck_assert_ptr_nonnull(schema_set_get(set, "two"));
    ck_assert_ptr_null(schema_set_get(set, "three"));
    ck_assert_str_eq(schema_set_at(set, 0)->name, "one");
    ck_assert_ptr_null(schema_set_at(set, 2));
    /* an older version does not replace a newer one */
    const char *old = "{\"name\":\"one\",\"version\":\"1.3.0-alpha.1\",\"types\":{}}";
    schema_set_add(set, schema_load_buffer(old, strlen(old), "old.json", NULL));
    ck_assert_str_eq(schema_set_get(set, "one")->version, "1.3.0");
    const char *newer = "{\"name\":\"one\",\"version\":\"v1.10.0\",\"types\":{}}";
    schema_set_add(set, schema_load_buffer(newer, strlen(newer), "new.json", NULL));
    ck_assert_str_eq(schema_set_get(set, "one")->version, "v1.10.0");
    ck_assert_uint_eq(schema_set_count(set), 2);

    /* a non-schema file named directly is an error, and adds nothing */
    char *notes = arena_sprintf(a, "%s/notes.json", dir);
    ck_assert(!schema_set_add_path(set, notes, &d));
    ck_assert_str_eq(diag_format(&d, d.head),
                     arena_sprintf(a,
                                   "%s: not a Pulumi package schema (it has no `name` and no `resources`); a "
                                   "package schema is the JSON printed by `pulumi package get-schema <plugin>`",
                                   notes));
    ck_assert_uint_eq(schema_set_count(set), 2);
    diag_list_free(&d);

    /* a broken schema.json makes the directory fail with the file and line named; the rest still loads */
    write_file(dir, "pkgs/deep/schema.json", "{\"name\":\"two\",\n\"types\":{\n}");
    schema_set_t *set2 = schema_set_new();
    diag_list_init(&d);
    ck_assert(!schema_set_add_path(set2, dir, &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(d.head->file, arena_sprintf(a, "%s/pkgs/deep/schema.json", dir));
    ck_assert_int_eq(d.head->line, 3);
    ck_assert_uint_eq(schema_set_count(set2), 1);
    diag_list_free(&d);

    /* a directory without schemas */
    char *empty = arena_sprintf(a, "%s/pkgs/deep", dir);
    write_file(dir, "pkgs/deep/schema.json", "{\"auto-aliasing\":{}}");
    schema_set_t *set3 = schema_set_new();
    diag_list_init(&d);
    ck_assert(!schema_set_add_path(set3, empty, &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_ptr_nonnull(strstr(d.head->message, "not a Pulumi package schema"));
    diag_list_free(&d);
    remove(arena_sprintf(a, "%s/pkgs/deep/schema.json", dir));
    diag_list_init(&d);
    ck_assert(!schema_set_add_path(set3, empty, &d));
    ck_assert_str_eq(diag_format(&d, d.head),
                     arena_sprintf(a,
                                   "%s: no Pulumi package schemas found in the directory (looked for schema.json "
                                   "files below it and *.json schemas in it)",
                                   empty));
    ck_assert_uint_eq(schema_set_count(set3), 0);
    diag_list_free(&d);

    schema_set_free(set);
    schema_set_free(set2);
    schema_set_free(set3);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

START_TEST(test_schema_set_shared_data) {
    arena_t *a = arena_new();
    schema_set_t *set = schema_set_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert(schema_set_add_path(set, tu_data(a, "schemas"), &d));
    ck_assert_int_eq(d.count, 0);
    ck_assert_uint_eq(schema_set_count(set), 12);
    const char *names[] = {"aws",    "azuread",    "command",   "digitalocean", "docker", "gcp",
                           "github", "kubernetes", "openstack", "postgresql",   "random", "tls"};
    for (size_t i = 0; i < 12; i++)
        ck_assert_msg(schema_set_get(set, names[i]) != NULL, "%s", names[i]);
    ck_assert_ptr_nonnull(
        schema_find_resource(schema_set_get(set, "digitalocean"), "digitalocean:index/droplet:Droplet"));
    /* the importer's schemas: every top-level file is a schema; two share the name
     * `dangling-reference` with no version, so the first one (sorted by file name) stays */
    schema_set_t *imp = schema_set_new();
    ck_assert(schema_set_add_path(imp, tu_data(a, "pulumi-importer/schemas"), &d));
    ck_assert_int_eq(d.count, 0);
    ck_assert_uint_eq(schema_set_count(imp), 22);
    ck_assert_str_eq(schema_set_get(imp, "dangling-reference")->origin,
                     tu_data(a, "pulumi-importer/schemas/dangling-reference-bad-0.1.0.json"));
    diag_list_free(&d);
    schema_set_free(set);
    schema_set_free(imp);
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("schema");
    TCase *tc = tcase_create("schema");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_schema_resolves);
    tcase_add_test(tc, test_package_header);
    tcase_add_test(tc, test_refs_maps_arrays);
    tcase_add_test(tc, test_enums);
    tcase_add_test(tc, test_functions);
    tcase_add_test(tc, test_unions);
    tcase_add_test(tc, test_language_overrides);
    tcase_add_test(tc, test_aliases);
    tcase_add_test(tc, test_flags_and_defaults);
    tcase_add_test(tc, test_provider_resource);
    tcase_add_test(tc, test_special_refs);
    tcase_add_test(tc, test_token_module_and_package);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_schema_set_directory);
    tcase_add_test(tc, test_schema_set_shared_data);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* test_importfile.c — import files and the import plan: Pulumi's parseImportFile behaviours and
 * messages (import-semantics §1.3, §1.4 and the CLI tests of §3.7), JSON/YAML parsing with Go's
 * decoding rules, syntax errors with lines, cyclic parents, and the byte-exact writer. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "specs/importfile.h"
#include "testutil.h"

#define FIXTURES SOURCE_DIR "/tests/fixtures/importfile/"

/* --- helpers ---------------------------------------------------------------------------------- */

static import_file_t *parse_ok(arena_t *a, const char *text) {
    diag_list_t d;
    diag_list_init(&d);
    import_file_t *f = import_file_parse(a, text, strlen(text), "imports.json", &d);
    if (!f) ck_abort_msg("parse failed: %s", d.head ? d.head->message : "(no diagnostic)");
    ck_assert_int_eq(d.errors, 0);
    diag_list_free(&d);
    return f;
}

/* Parses (must succeed), plans with stack "stack" and project "proj", returns the plan or NULL
 * and the multierror text in *errors. */
static import_plan_t *plan_text(arena_t *a, const char *text, char **errors) {
    import_file_t *f = parse_ok(a, text);
    diag_list_t d;
    diag_list_init(&d);
    import_plan_t *p = import_plan_build(a, f, "stack", "proj", false, &d);
    *errors = import_format_errors(a, &d);
    ck_assert_int_eq(p == NULL, d.errors > 0);
    for (diag_t *g = d.head; g; g = g->next)
        ck_assert_str_eq(g->file, "imports.json");
    diag_list_free(&d);
    return p;
}

static import_plan_t *plan_ok(arena_t *a, const char *text) {
    char *errors;
    import_plan_t *p = plan_text(a, text, &errors);
    if (!p) ck_abort_msg("plan failed: %s", errors);
    return p;
}

static void plan_fails(const char *text, const char *want) {
    arena_t *a = arena_new();
    char *errors;
    import_plan_t *p = plan_text(a, text, &errors);
    ck_assert_ptr_null(p);
    ck_assert_str_eq(errors, want);
    arena_free(a);
}

static const import_plan_item_t *item_named(const import_plan_t *p, const char *logical_name) {
    for (size_t i = 0; i < p->n_items; i++)
        if (!strcmp(p->items[i].logical_name, logical_name)) return &p->items[i];
    ck_abort_msg("no plan item '%s'", logical_name);
    return NULL;
}

static const char *name_of(const import_plan_t *p, const char *urn) {
    for (size_t i = 0; i < p->n_names; i++)
        if (!strcmp(p->names[i].urn, urn)) return p->names[i].name;
    return NULL;
}

/* The first error message of a failed parse, and its line. */
static const char *parse_error(arena_t *a, const char *text, const char *path, int *line) {
    diag_list_t d;
    diag_list_init(&d);
    import_file_t *f = import_file_parse(a, text, strlen(text), path, &d);
    ck_assert_ptr_null(f);
    ck_assert_int_ge(d.errors, 1);
    ck_assert_str_eq(d.head->file, path);
    const char *msg = arena_strdup(a, d.head->message);
    if (line) *line = d.head->line;
    diag_list_free(&d);
    return msg;
}

/* --- phase 1: per-spec validation ------------------------------------------------------------- */

START_TEST(test_missing_everything) {
    plan_fails(
        "{\"resources\": [{}]}",
        "3 errors occurred:\n\t* resource 0 has no type\n\t* resource 0 has no name\n\t* resource 0 has no ID\n\n");
}
END_TEST

START_TEST(test_missing_fields) {
    plan_fails("{\"resources\": [{\"id\": \"thing\"}]}",
               "2 errors occurred:\n\t* resource 'thing' has no type\n\t* resource 'thing' has no name\n\n");
    plan_fails("{\"resources\": [{\"name\": \"foo\"}]}",
               "2 errors occurred:\n\t* resource 'foo' has no type\n\t* resource 'foo' has no ID\n\n");
    plan_fails("{\"resources\": [{\"name\": \"foo\", \"id\": \"bar\"}]}",
               "1 error occurred:\n\t* resource 'foo' has no type\n\n");
    plan_fails("{\"resources\": [{\"id\": \"bar\", \"type\": \"foo:bar:baz\"}]}",
               "1 error occurred:\n\t* resource 'bar' of type 'foo:bar:baz' has no name\n\n");
    plan_fails("{\"resources\": [{\"name\": \"foo\", \"type\": \"foo:bar:baz\"}]}",
               "1 error occurred:\n\t* resource 'foo' of type 'foo:bar:baz' has no ID\n\n");
    /* Empty strings are Go's zero value, the same as absent. */
    plan_fails("{\"resources\": [{\"name\": \"foo\", \"type\": \"foo:bar:baz\", \"id\": \"\"}]}",
               "1 error occurred:\n\t* resource 'foo' of type 'foo:bar:baz' has no ID\n\n");
}
END_TEST

START_TEST(test_component_and_remote_rules) {
    plan_fails(
        "{\"resources\": [{\"name\": \"comp\", \"id\": \"some-id\", \"type\": \"foo:bar:baz\", \"component\": true}]}",
        "1 error occurred:\n\t* resource 'comp' of type 'foo:bar:baz' has an ID, but is marked as a component\n\n");
    plan_fails(
        "{\"resources\": [{\"name\": \"r\", \"id\": \"x\", \"type\": \"foo:bar:baz\", \"remote\": true}]}",
        "1 error occurred:\n\t* resource 'r' of type 'foo:bar:baz' is marked as remote, but not as a component\n\n");
    arena_t *a = arena_new();
    import_plan_t *p = plan_ok(
        a, "{\"resources\": [{\"name\": \"c\", \"type\": \"my:comp:C\", \"component\": true, \"remote\": true}]}");
    ck_assert(p->items[0].is_component);
    ck_assert_ptr_null(p->items[0].id);
    arena_free(a);
}
END_TEST

START_TEST(test_provider_rules) {
    plan_fails("{\"resources\": [{\"name\": \"p\", \"id\": \"x\", \"type\": \"pulumi:providers:aws\"}]}",
               "1 error occurred:\n\t* resource 'p' of type 'pulumi:providers:aws' has an ID, but is a provider, which "
               "is created rather than read\n\n");
    plan_fails("{\"resources\": [{\"name\": \"p\", \"type\": \"pulumi:providers:aws\", \"component\": true}]}",
               "1 error occurred:\n\t* resource 'p' of type 'pulumi:providers:aws' is a provider and may not be marked "
               "as a component\n\n");
    plan_fails("{\"resources\": [{\"name\": \"p\", \"type\": \"pulumi:providers:aws\", \"outputs\": {\"a\": 1}}]}",
               "1 error occurred:\n\t* resource 'p' of type 'pulumi:providers:aws' is a provider and may not have "
               "outputs\n\n");
}
END_TEST

START_TEST(test_errors_carry_resource_and_file) {
    arena_t *a = arena_new();
    import_file_t *f = parse_ok(a, "{\"resources\": [{\"name\": \"x\", \"type\": \"aws:s3/bucket:Bucket\"}]}");
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(import_plan_build(a, f, "dev", "proj", true, &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(d.head->message, "resource 'x' of type 'aws:s3/bucket:Bucket' has no ID");
    ck_assert_str_eq(d.head->resource, "resource 'x' of type 'aws:s3/bucket:Bucket'");
    ck_assert_str_eq(d.head->file, "imports.json");
    ck_assert_int_eq(d.head->code, DIAG_INPUT);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* --- names, URNs and dedupe ------------------------------------------------------------------- */

START_TEST(test_just_logical_name) {
    arena_t *a = arena_new();
    import_plan_t *p =
        plan_ok(a, "{\"resources\": [{\"logicalName\": \"thing\", \"id\": \"thing\", \"type\": \"foo:bar:bar\"}]}");
    ck_assert_int_eq(p->n_items, 1);
    ck_assert_str_eq(p->items[0].logical_name, "thing");
    ck_assert_str_eq(p->items[0].variable, "thing");
    ck_assert_str_eq(p->items[0].urn, "urn:pulumi:stack::proj::foo:bar:bar::thing");
    ck_assert_str_eq(p->items[0].id, "thing");
    ck_assert_int_eq(p->n_names, 1);
    ck_assert_str_eq(name_of(p, "urn:pulumi:stack::proj::foo:bar:bar::thing"), "thing");
    ck_assert(!p->items[0].protect); /* plan_text passes protect=false */
    arena_free(a);
}
END_TEST

START_TEST(test_logical_name_differs) {
    arena_t *a = arena_new();
    import_plan_t *p = plan_ok(a, "{\"resources\": [{\"name\": \"thing\", \"logicalName\": \"different logical name\", "
                                  "\"id\": \"thing\", \"type\": \"foo:bar:bar\", \"version\": \"0.0.0\"}]}");
    ck_assert_str_eq(p->items[0].urn, "urn:pulumi:stack::proj::foo:bar:bar::different logical name");
    ck_assert_str_eq(p->items[0].variable, "thing");
    ck_assert_str_eq(name_of(p, "urn:pulumi:stack::proj::foo:bar:bar::different logical name"), "thing");
    arena_free(a);
}
END_TEST

START_TEST(test_same_name_same_type_is_ambiguous_urn) {
    plan_fails(
        "{\"resources\": [{\"name\": \"thing\", \"id\": \"thing\", \"type\": \"foo:bar:bar\", \"version\": \"0.0.0\"},"
        "{\"name\": \"thing\", \"id\": \"thing\", \"type\": \"foo:bar:bar\", \"version\": \"0.0.0\"}]}",
        "1 error occurred:\n\t* resource 'thing' of type 'foo:bar:bar' has an ambiguous URN, set name (or "
        "logical name) to be unique\n\n");
    /* A URN already in the nameTable is taken too. */
    plan_fails("{\"nameTable\": {\"old\": \"urn:pulumi:stack::proj::foo:bar:bar::thing\"},"
               "\"resources\": [{\"name\": \"thing\", \"id\": \"thing\", \"type\": \"foo:bar:bar\"}]}",
               "1 error occurred:\n\t* resource 'thing' of type 'foo:bar:bar' has an ambiguous URN, set name (or "
               "logical name) to be unique\n\n");
}
END_TEST

START_TEST(test_same_name_different_type_dedupe) {
    arena_t *a = arena_new();
    import_plan_t *p =
        plan_ok(a, "{\"resources\": [{\"name\": \"thing\", \"id\": \"thing\", \"type\": \"foo:bar:bar\"},"
                   "{\"name\": \"thing\", \"id\": \"thing\", \"type\": \"foo:bar:baz\"},"
                   "{\"name\": \"thing\", \"id\": \"thing\", \"type\": \"foo:moo:baz\"}]}");
    ck_assert_int_eq(p->n_items, 3);
    ck_assert_str_eq(p->items[0].variable, "thing");
    ck_assert_str_eq(p->items[1].variable, "thingBaz");
    /* Pulumi's `thingBaz2` does not say which one it is; the module does (issue 16). */
    ck_assert_str_eq(p->items[2].variable, "thingMooBaz");
    ck_assert_str_eq(name_of(p, "urn:pulumi:stack::proj::foo:bar:bar::thing"), "thing");
    ck_assert_str_eq(name_of(p, "urn:pulumi:stack::proj::foo:bar:baz::thing"), "thingBaz");
    ck_assert_str_eq(name_of(p, "urn:pulumi:stack::proj::foo:moo:baz::thing"), "thingMooBaz");
    /* Every logical name stays `thing`; only the code variable changes. */
    for (size_t i = 0; i < 3; i++)
        ck_assert_str_eq(p->items[i].logical_name, "thing");
    arena_free(a);
}
END_TEST

START_TEST(test_dedupe_skips_taken_names_and_nametable_keys) {
    arena_t *a = arena_new();
    /* `bucketBucket` is a spec name, so the generated name is the resource's own logical name `b3`
     * (Pulumi would say `bucketBucket2`); a spec named like a nameTable key is renamed (its name is
     * already a variable). */
    import_plan_t *p =
        plan_ok(a, "{\"nameTable\": {\"vpc\": \"urn:pulumi:stack::proj::aws:ec2/vpc:Vpc::main\"},"
                   "\"resources\": ["
                   "{\"name\": \"bucket\", \"logicalName\": \"b1\", \"id\": \"1\", \"type\": \"aws:s3/bucket:Bucket\"},"
                   "{\"name\": \"bucketBucket\", \"id\": \"2\", \"type\": \"aws:s3/bucket:Bucket\"},"
                   "{\"name\": \"bucket\", \"logicalName\": \"b3\", \"id\": \"3\", \"type\": \"aws:s3/bucket:Bucket\"},"
                   "{\"name\": \"vpc\", \"id\": \"4\", \"type\": \"aws:ec2/vpc:vpc\"}]}");
    ck_assert_str_eq(item_named(p, "b1")->variable, "bucket");
    ck_assert_str_eq(item_named(p, "bucketBucket")->variable, "bucketBucket");
    ck_assert_str_eq(item_named(p, "b3")->variable, "b3");
    ck_assert_str_eq(item_named(p, "vpc")->variable, "ec2Vpc"); /* Pulumi: vpcVpc */
    ck_assert_int_eq(p->n_names, 5);
    ck_assert_str_eq(p->names[0].urn, "urn:pulumi:stack::proj::aws:ec2/vpc:Vpc::main");
    ck_assert_str_eq(p->names[0].name, "vpc");
    arena_free(a);
}
END_TEST

/* Issue 16: a deduplicated name reads like the resource: Pulumi's name + type first, then its
 * logical name, then its ID; a number only when all of these are taken. */
START_TEST(test_dedupe_readable_from_id) {
    arena_t *a = arena_new();
    import_plan_t *p = plan_ok(
        a, "{\"resources\": ["
           "{\"name\": \"c\", \"logicalName\": \"cid\", \"id\": \"x\", \"type\": \"random:index/randomId:RandomId\"},"
           "{\"name\": \"pet\", \"logicalName\": \"a\", \"id\": \"clever-wombat\","
           " \"type\": \"random:index/randomPet:RandomPet\"},"
           "{\"name\": \"pet\", \"logicalName\": \"b\", \"id\": \"shy-fox\","
           " \"type\": \"random:index/randomPet:RandomPet\"},"
           "{\"name\": \"pet\", \"logicalName\": \"c\", \"id\": \"quick-owl\","
           " \"type\": \"random:index/randomPet:RandomPet\"},"
           "{\"name\": \"pet\", \"logicalName\": \"d\", \"id\": \"quick-owl\","
           " \"type\": \"random:index/randomPet:RandomPet\", \"provider\": \"p2\"},"
           "{\"name\": \"p2\", \"type\": \"pulumi:providers:random\"}]}");
    ck_assert_str_eq(item_named(p, "a")->variable, "pet");
    ck_assert_str_eq(item_named(p, "b")->variable, "petRandomPet");
    ck_assert_str_eq(item_named(p, "c")->variable, "petRandomPetQuickOwl"); /* `c` is a spec's name */
    ck_assert_str_eq(item_named(p, "d")->variable, "d");
    arena_free(a);
}
END_TEST

START_TEST(test_auto_urn_of_in_file_parents) {
    arena_t *a = arena_new();
    /* Out of order: the parent need not come first, and needs no nameTable entry. */
    import_plan_t *p = plan_ok(
        a, "{\"resources\": ["
           "{\"name\": \"lastThing\", \"id\": \"lastThing\", \"type\": \"foo:bar:a\", \"parent\": \"otherThing\"},"
           "{\"name\": \"thing\", \"component\": true, \"type\": \"foo:bar:a\"},"
           "{\"name\": \"otherThing\", \"id\": \"otherThing\", \"type\": \"foo:bar:a\", \"parent\": \"thing\"}]}");
    const import_plan_item_t *last = item_named(p, "lastThing"), *thing = item_named(p, "thing"),
                             *other = item_named(p, "otherThing");
    ck_assert_str_eq(last->parent_urn, "urn:pulumi:stack::proj::foo:bar:a$foo:bar:a::otherThing");
    ck_assert_ptr_null(thing->parent_urn);
    ck_assert_str_eq(other->parent_urn, "urn:pulumi:stack::proj::foo:bar:a::thing");
    ck_assert_str_eq(last->urn, "urn:pulumi:stack::proj::foo:bar:a$foo:bar:a$foo:bar:a::lastThing");
    ck_assert_str_eq(name_of(p, last->parent_urn), "otherThing");
    ck_assert_str_eq(name_of(p, other->parent_urn), "thing");
    /* Resolution order: parents first; depth and indexes follow. */
    ck_assert_str_eq(p->items[0].logical_name, "thing");
    ck_assert_str_eq(p->items[1].logical_name, "otherThing");
    ck_assert_str_eq(p->items[2].logical_name, "lastThing");
    ck_assert_int_eq(p->items[0].depth, 0);
    ck_assert_int_eq(p->items[1].depth, 1);
    ck_assert_int_eq(p->items[2].depth, 2);
    ck_assert_int_eq(p->items[0].parent_index, -1);
    ck_assert_int_eq(p->items[1].parent_index, 0);
    ck_assert_int_eq(p->items[2].parent_index, 1);
    ck_assert_int_eq(p->items[2].spec->index, 0);
    arena_free(a);
}
END_TEST

START_TEST(test_nametable_parent_type_chain) {
    arena_t *a = arena_new();
    import_plan_t *p = plan_ok(
        a, "{\"nameTable\": {\"p\": \"urn:pulumi:stack::proj::my:C:Outer$my:C:Inner::inner\","
           " \"s\": \"urn:pulumi:stack::proj::pulumi:pulumi:Stack::proj-stack\"},"
           "\"resources\": [{\"name\": \"r\", \"id\": \"1\", \"type\": \"aws:s3/bucket:Bucket\", \"parent\": \"p\"},"
           "{\"name\": \"top\", \"id\": \"2\", \"type\": \"aws:s3/bucket:Bucket\", \"parent\": \"s\"}]}");
    const import_plan_item_t *r = item_named(p, "r"), *top = item_named(p, "top");
    ck_assert_str_eq(r->urn, "urn:pulumi:stack::proj::my:C:Outer$my:C:Inner$aws:s3/bucket:Bucket::r");
    ck_assert_str_eq(r->parent_urn, "urn:pulumi:stack::proj::my:C:Outer$my:C:Inner::inner");
    ck_assert_int_eq(r->parent_index, -1);
    ck_assert_int_eq(r->depth, 0);
    /* The stack adds no `$` prefix. */
    ck_assert_str_eq(top->urn, "urn:pulumi:stack::proj::aws:s3/bucket:Bucket::top");
    ck_assert_str_eq(top->parent_urn, "urn:pulumi:stack::proj::pulumi:pulumi:Stack::proj-stack");
    arena_free(a);
}
END_TEST

START_TEST(test_spec_name_shadows_nametable_key) {
    arena_t *a = arena_new();
    /* Pulumi's import file parser takes the parent *type* from the nameTable but the parent URN from
     * the spec, and its engine then makes the URN from that parent: a:b:P$a:b:C, not ext:m:T$a:b:C
     * (which no program declaring child under x has: the stack recorded it, and `pulumi up` would
     * create child anew). So do the child's children and what names the child as its provider. */
    import_plan_t *p =
        plan_ok(a, "{\"nameTable\": {\"x\": \"urn:pulumi:stack::proj::ext:m:T::x\"},"
                   "\"resources\": [{\"name\": \"child\", \"id\": \"1\", \"type\": \"a:b:C\", \"parent\": \"x\"},"
                   "{\"name\": \"x\", \"id\": \"2\", \"type\": \"a:b:P\"},"
                   "{\"name\": \"grand\", \"id\": \"3\", \"type\": \"a:b:G\", \"parent\": \"child\"},"
                   "{\"name\": \"prov\", \"type\": \"pulumi:providers:a\", \"parent\": \"x\"},"
                   "{\"name\": \"user\", \"id\": \"4\", \"type\": \"a:b:U\", \"provider\": \"prov\"}]}");
    const import_plan_item_t *child = item_named(p, "child"), *x = item_named(p, "x");
    ck_assert_str_eq(child->urn, "urn:pulumi:stack::proj::a:b:P$a:b:C::child");
    ck_assert_str_eq(child->parent_urn, "urn:pulumi:stack::proj::a:b:P::x");
    const import_plan_item_t *grand = item_named(p, "grand"), *prov = item_named(p, "prov"),
                             *user = item_named(p, "user");
    ck_assert_str_eq(grand->urn, "urn:pulumi:stack::proj::a:b:P$a:b:C$a:b:G::grand");
    ck_assert_str_eq(grand->parent_urn, child->urn);
    ck_assert_str_eq(prov->urn, "urn:pulumi:stack::proj::a:b:P$pulumi:providers:a::prov");
    ck_assert_str_eq(user->provider_urn, prov->urn);
    /* the names the code generator is given are the URNs recorded */
    bool named = false;
    for (size_t i = 0; i < p->n_names; i++)
        if (strcmp(p->names[i].urn, child->urn) == 0) named = strcmp(p->names[i].name, "child") == 0;
    ck_assert(named);
    ck_assert_str_eq(x->variable, "xP");
    /* Parents still come before children in the items. */
    ck_assert_str_eq(p->items[0].logical_name, "x");
    ck_assert_int_eq(child->parent_index, 0);
    ck_assert_int_eq(child->depth, 1);
    arena_free(a);
}
END_TEST

/* A URN the plan gave up for the one its recorded parent makes is free again: here c2's URN is the one
 * c1 had before, and no resource holds it (it was refused as ambiguous). */
START_TEST(test_urn_given_up_is_free) {
    arena_t *a = arena_new();
    import_plan_t *p =
        plan_ok(a, "{\"nameTable\": {\"x\": \"urn:pulumi:stack::proj::ext:m:T::x\", \"z\": "
                   "\"urn:pulumi:stack::proj::q:r:S::z\"},"
                   "\"resources\": [{\"name\": \"x\", \"id\": \"1\", \"type\": \"a:b:P\"},"
                   "{\"name\": \"z\", \"id\": \"2\", \"type\": \"ext:m:T\"},"
                   "{\"name\": \"c1\", \"logicalName\": \"c\", \"id\": \"3\", \"type\": \"a:b:C\", \"parent\": \"x\"},"
                   "{\"name\": \"c2\", \"logicalName\": \"c\", \"id\": \"4\", \"type\": \"a:b:C\", \"parent\": "
                   "\"z\"}]}");
    size_t found = 0;
    for (size_t i = 0; i < p->n_items; i++) {
        const import_plan_item_t *it = &p->items[i];
        if (strcmp(it->id, "3") == 0) found += strcmp(it->urn, "urn:pulumi:stack::proj::a:b:P$a:b:C::c") == 0;
        if (strcmp(it->id, "4") == 0) found += strcmp(it->urn, "urn:pulumi:stack::proj::ext:m:T$a:b:C::c") == 0;
    }
    ck_assert_uint_eq(found, 2);
    arena_free(a);
    /* the same file in another order: the same plan (the URN is freed before any is checked) */
    a = arena_new();
    p = plan_ok(a, "{\"nameTable\": {\"x\": \"urn:pulumi:stack::proj::ext:m:T::x\", \"z\": "
                   "\"urn:pulumi:stack::proj::q:r:S::z\"},"
                   "\"resources\": [{\"name\": \"z\", \"id\": \"2\", \"type\": \"ext:m:T\"},"
                   "{\"name\": \"x\", \"id\": \"1\", \"type\": \"a:b:P\"},"
                   "{\"name\": \"c2\", \"logicalName\": \"c\", \"id\": \"4\", \"type\": \"a:b:C\", \"parent\": "
                   "\"z\"},"
                   "{\"name\": \"c1\", \"logicalName\": \"c\", \"id\": \"3\", \"type\": \"a:b:C\", \"parent\": "
                   "\"x\"}]}");
    found = 0;
    for (size_t i = 0; i < p->n_items; i++) {
        const import_plan_item_t *it = &p->items[i];
        if (strcmp(it->id, "3") == 0) found += strcmp(it->urn, "urn:pulumi:stack::proj::a:b:P$a:b:C::c") == 0;
        if (strcmp(it->id, "4") == 0) found += strcmp(it->urn, "urn:pulumi:stack::proj::ext:m:T$a:b:C::c") == 0;
    }
    ck_assert_uint_eq(found, 2);
    arena_free(a);
}
END_TEST

START_TEST(test_unknown_parent_and_provider) {
    plan_fails("{\"resources\": [{\"name\": \"thing\", \"id\": \"thing\", \"parent\": \"unknown\", \"type\": "
               "\"foo:bar:baz\"}]}",
               "1 error occurred:\n\t* the parent 'unknown' for resource 'thing' of type 'foo:bar:baz' has no entry in "
               "'nameTable'\n\n");
    plan_fails(
        "{\"resources\": [{\"name\": \"thing\", \"id\": \"thing\", \"provider\": \"unknown\", \"type\": "
        "\"foo:bar:baz\"}]}",
        "1 error occurred:\n\t* the provider 'unknown' for resource 'thing' of type 'foo:bar:baz' has no entry in "
        "'nameTable' or 'resources'\n\n");
}
END_TEST

START_TEST(test_provider_must_be_a_provider) {
    plan_fails(
        "{\"nameTable\": {\"p\": \"urn:pulumi:stack::proj::aws:s3/bucket:Bucket::b\"},"
        "\"resources\": [{\"name\": \"r\", \"id\": \"1\", \"type\": \"aws:s3/bucket:Bucket\", \"provider\": \"p\"}]}",
        "1 error occurred:\n\t* the provider 'p' for resource 'r' of type 'aws:s3/bucket:Bucket' is not a "
        "provider\n\n");
    plan_fails(
        "{\"nameTable\": {\"p\": \"whatever\"},"
        "\"resources\": [{\"name\": \"r\", \"id\": \"1\", \"type\": \"aws:s3/bucket:Bucket\", \"provider\": \"p\"}]}",
        "1 error occurred:\n\t* the provider 'p' for resource 'r' of type 'aws:s3/bucket:Bucket' is not a "
        "provider\n\n");
    plan_fails("{\"resources\": [{\"name\": \"c\", \"type\": \"my:C:C\", \"component\": true},"
               "{\"name\": \"r\", \"id\": \"1\", \"type\": \"aws:s3/bucket:Bucket\", \"provider\": \"c\"}]}",
               "1 error occurred:\n\t* the provider 'c' for resource 'r' of type 'aws:s3/bucket:Bucket' is not a "
               "provider\n\n");
}
END_TEST

START_TEST(test_providers_in_nametable_and_resources) {
    arena_t *a = arena_new();
    import_plan_t *p = plan_ok(
        a,
        "{\"nameTable\": {\"admin\": \"urn:pulumi:stack::proj::pulumi:providers:aws::admin\"},"
        "\"resources\": [{\"name\": \"b\", \"id\": \"1\", \"type\": \"aws:s3/bucket:Bucket\", \"provider\": \"east\"},"
        "{\"name\": \"c\", \"id\": \"2\", \"type\": \"aws:s3/bucket:Bucket\", \"provider\": \"admin\"},"
        "{\"name\": \"east\", \"type\": \"pulumi:providers:aws\", \"inputs\": {\"region\": \"us-east-1\"}}]}");
    const import_plan_item_t *b = item_named(p, "b"), *c = item_named(p, "c"), *east = item_named(p, "east");
    ck_assert(east->is_provider);
    ck_assert(!east->protect);
    ck_assert_ptr_null(east->id);
    ck_assert_str_eq(east->urn, "urn:pulumi:stack::proj::pulumi:providers:aws::east");
    ck_assert_str_eq(b->provider_urn, east->urn);
    ck_assert_ptr_eq(&p->items[b->provider_index], east);
    ck_assert_str_eq(c->provider_urn, "urn:pulumi:stack::proj::pulumi:providers:aws::admin");
    ck_assert_int_eq(c->provider_index, -1);
    ck_assert_str_eq(pv_object_get(east->spec->inputs, "region")->u.str.s, "us-east-1");
    arena_free(a);
}
END_TEST

START_TEST(test_ambiguous_only_when_referenced) {
    /* Duplicate names that nothing references are fine (types differ, so URNs differ). */
    arena_t *a = arena_new();
    import_plan_t *p = plan_ok(a, "{\"resources\": [{\"name\": \"res\", \"id\": \"res\", \"type\": \"foo:bar:bar\"},"
                                  "{\"name\": \"res\", \"id\": \"res\", \"type\": \"foo:bar:baz\"}]}");
    ck_assert_int_eq(p->n_items, 2);
    arena_free(a);
    plan_fails(
        "{\"resources\": [{\"name\": \"res\", \"id\": \"res\", \"type\": \"foo:bar:bar\", \"version\": \"0.0.0\"},"
        "{\"name\": \"res\", \"id\": \"res\", \"type\": \"foo:bar:baz\", \"version\": \"0.0.0\"},"
        "{\"name\": \"res-2\", \"id\": \"res-2\", \"type\": \"foo:bar:a\", \"parent\": \"res\", \"version\": "
        "\"0.0.0\"}]}",
        "1 error occurred:\n\t* resource 'res-2' of type 'foo:bar:a' has an ambiguous parent\n\n");
    plan_fails(
        "{\"nameTable\": {\"res\": \"whatever\"},"
        "\"resources\": [{\"name\": \"res\", \"id\": \"res\", \"type\": \"foo:bar:bar\", \"version\": \"0.0.0\"},"
        "{\"name\": \"res\", \"id\": \"res\", \"type\": \"foo:bar:baz\", \"version\": \"0.0.0\"},"
        "{\"name\": \"res-2\", \"id\": \"res-2\", \"type\": \"foo:bar:a\", \"provider\": \"res\", \"version\": "
        "\"0.0.0\"}]}",
        "1 error occurred:\n\t* resource 'res-2' of type 'foo:bar:a' has an ambiguous provider\n\n");
}
END_TEST

START_TEST(test_cyclic_parents) {
    plan_fails("{\"resources\": [{\"name\": \"a\", \"id\": \"1\", \"type\": \"T\", \"parent\": \"b\"},"
               "{\"name\": \"b\", \"id\": \"2\", \"type\": \"T\", \"parent\": \"a\"}]}",
               "1 error occurred:\n\t* resource 'a' of type 'T' has a cyclic parent chain: a -> b -> a\n\n");
    plan_fails("{\"resources\": [{\"name\": \"a\", \"id\": \"1\", \"type\": \"T\", \"parent\": \"a\"}]}",
               "1 error occurred:\n\t* resource 'a' of type 'T' has a cyclic parent chain: a -> a\n\n");
    /* Two cycles, one reported each; a child of a cycle is not reported on its own. */
    plan_fails("{\"resources\": [{\"name\": \"kid\", \"id\": \"0\", \"type\": \"T\", \"parent\": \"y\"},"
               "{\"name\": \"x\", \"id\": \"1\", \"type\": \"T\", \"parent\": \"z\"},"
               "{\"name\": \"y\", \"id\": \"2\", \"type\": \"T\", \"parent\": \"x\"},"
               "{\"name\": \"z\", \"id\": \"3\", \"type\": \"T\", \"parent\": \"y\"},"
               "{\"name\": \"ok\", \"id\": \"4\", \"type\": \"T\"},"
               "{\"name\": \"self\", \"id\": \"5\", \"type\": \"U\", \"parent\": \"self\"}]}",
               "2 errors occurred:\n\t* resource 'x' of type 'T' has a cyclic parent chain: x -> z -> y -> x\n"
               "\t* resource 'self' of type 'U' has a cyclic parent chain: self -> self\n\n");
    /* A cycle hidden by nameTable shadowing (phase 2 resolves it through the nameTable). */
    plan_fails("{\"nameTable\": {\"b\": \"urn:pulumi:stack::proj::ext:m:T::b\"},"
               "\"resources\": [{\"name\": \"a\", \"id\": \"1\", \"type\": \"T\", \"parent\": \"b\"},"
               "{\"name\": \"b\", \"id\": \"2\", \"type\": \"T\", \"parent\": \"a\"}]}",
               "1 error occurred:\n\t* resource 'a' of type 'T' has a cyclic parent chain: a -> b -> a\n\n");
}
END_TEST

START_TEST(test_versions) {
    plan_fails(
        "{\"resources\": [{\"name\": \"thing\", \"id\": \"thing\", \"type\": \"foo:bar:baz\", \"version\": "
        "\"not-a-semver\"}]}",
        "1 error occurred:\n\t* could not parse version 'not-a-semver' for resource 'thing' of type 'foo:bar:baz': "
        "Short version cannot contain PreRelease/Build meta data\n\n");
    plan_fails("{\"resources\": [{\"name\": \"t\", \"id\": \"t\", \"type\": \"a:b:c\", \"version\": \"1.x.3\"}]}",
               "1 error occurred:\n\t* could not parse version '1.x.3' for resource 't' of type 'a:b:c': Invalid "
               "character(s) found in minor number \"x\"\n\n");
    arena_t *a = arena_new();
    /* Tolerant parsing: a `v` prefix, short versions, leading zeroes, prerelease and build. */
    plan_ok(a, "{\"resources\": [{\"name\": \"a\", \"id\": \"1\", \"type\": \"a:b:c\", \"version\": \"v6\"},"
               "{\"name\": \"b\", \"id\": \"1\", \"type\": \"a:b:c\", \"version\": \"1.2\"},"
               "{\"name\": \"c\", \"id\": \"1\", \"type\": \"a:b:c\", \"version\": \" 01.02.03-alpha.1+build.5 \"}]}");
    arena_free(a);
}
END_TEST

START_TEST(test_unknown_values_rejected) {
    plan_fails(
        "{\"resources\": [{\"name\": \"b\", \"id\": \"1\", \"type\": \"aws:s3/bucket:Bucket\","
        "\"inputs\": {\"tags\": {\"a\": \"04da6b54-80e4-46f7-96ec-b56ff0331ba9\"}}}]}",
        "1 error occurred:\n\t* the inputs for resource 'b' of type 'aws:s3/bucket:Bucket' contain unknown values; "
        "fill them in before importing\n\n");
    plan_fails(
        "{\"resources\": [{\"name\": \"b\", \"id\": \"1\", \"type\": \"aws:s3/bucket:Bucket\","
        "\"outputs\": {\"arn\": \"04da6b54-80e4-46f7-96ec-b56ff0331ba9\"}}]}",
        "1 error occurred:\n\t* the outputs for resource 'b' of type 'aws:s3/bucket:Bucket' contain unknown values; "
        "fill them in before importing\n\n");
}
END_TEST

START_TEST(test_format_errors) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_str_eq(import_format_errors(a, &d), "");
    diag_add(&d, DIAG_WARNING, DIAG_INPUT, NULL, NULL, "not an error");
    diag_error(&d, DIAG_INPUT, "m1");
    ck_assert_str_eq(import_format_errors(a, &d), "1 error occurred:\n\t* m1\n\n");
    diag_error(&d, DIAG_INPUT, "m2");
    ck_assert_str_eq(import_format_errors(a, &d), "2 errors occurred:\n\t* m1\n\t* m2\n\n");
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* --- decoding --------------------------------------------------------------------------------- */

START_TEST(test_case_insensitive_keys_and_nulls) {
    arena_t *a = arena_new();
    import_file_t *f = parse_ok(a, "{\"NameTable\": {\"p\": \"urn:pulumi:s::p::a:b:C::p\"}, \"RESOURCES\": [{"
                                   "\"TYPE\": \"a:b:c\", \"Name\": \"n\", \"logicalname\": \"l\", \"iD\": \"i\","
                                   "\"Parent\": \"p\", \"PROVIDER\": null, \"version\": null, \"Component\": null,"
                                   "\"Properties\": [\"x\", null], \"extra\": {\"ignored\": [1, 2]},"
                                   "\"type\": \"a:b:d\"}, null]}");
    ck_assert_int_eq(f->n_names, 1);
    ck_assert_str_eq(f->name_table[0].name, "p");
    ck_assert_int_eq(f->n_specs, 2);
    const import_spec_t *s = &f->specs[0];
    ck_assert_str_eq(s->type, "a:b:d"); /* a repeated key: the last one wins */
    ck_assert_str_eq(s->name, "n");
    ck_assert_str_eq(s->logical_name, "l");
    ck_assert_str_eq(s->id, "i");
    ck_assert_str_eq(s->parent, "p");
    ck_assert_ptr_null(s->provider);
    ck_assert_ptr_null(s->version);
    ck_assert(!s->component);
    ck_assert_int_eq(s->n_properties, 2);
    ck_assert_str_eq(s->properties[0], "x");
    ck_assert_str_eq(s->properties[1], "");
    /* A null resource is a zero spec (which planning then rejects). */
    ck_assert_ptr_null(f->specs[1].type);
    ck_assert_int_eq(f->specs[1].index, 1);
    arena_free(a);
}
END_TEST

START_TEST(test_wrong_json_types) {
    arena_t *a = arena_new();
    ck_assert_str_eq(
        parse_error(a, "{\"resources\": [{\"type\": \"a:b:c\", \"name\": \"n\", \"id\": 5}]}", "f.json", NULL),
        "'resources[0].id' must be a string, but it is a number; put the value in quotes");
    ck_assert_str_eq(parse_error(a, "{\"resources\": [{}, {\"component\": \"yes\"}]}", "f.json", NULL),
                     "'resources[1].component' must be true or false, but it is a string");
    ck_assert_str_eq(parse_error(a, "{\"resources\": {\"type\": \"a\"}}", "f.json", NULL),
                     "'resources' must be a list of resources, but it is an object");
    ck_assert_str_eq(parse_error(a, "{\"resources\": [5]}", "f.json", NULL),
                     "'resources[0]' must be an object with 'type', 'name' and 'id', but it is a number");
    ck_assert_str_eq(parse_error(a, "{\"nameTable\": {\"x\": 1}}", "f.json", NULL),
                     "'nameTable.x' must be a URN string, but it is a number");
    ck_assert_str_eq(parse_error(a, "{\"resources\": [{\"properties\": \"a,b\"}]}", "f.json", NULL),
                     "'resources[0].properties' must be a list of property names, but it is a string");
    ck_assert_str_eq(parse_error(a, "{\"resources\": [{\"inputs\": [1]}]}", "f.json", NULL),
                     "'resources[0].inputs' must be an object mapping property names to values, but it is a list");
    ck_assert_str_eq(parse_error(a, "[{\"type\": \"a\"}]", "f.json", NULL),
                     "the import file must be an object with a 'resources' list (and optionally a 'nameTable'), but it "
                     "is a list");
    arena_free(a);
}
END_TEST

START_TEST(test_secret_inputs) {
    arena_t *a = arena_new();
    import_file_t *f =
        parse_ok(a, "{\"resources\": [{\"type\": \"a:b:c\", \"name\": \"n\", \"id\": \"i\", \"inputs\": {"
                    "\"password\": {\"4dabf18193072939515e22adb298388d\": \"1b47061264138c4ac30d75fd1eb44270\","
                    "\"plaintext\": \"\\\"hunter2\\\"\"}}}]}");
    const pv_t *pw = pv_object_get(f->specs[0].inputs, "password");
    ck_assert_ptr_nonnull(pw);
    ck_assert_int_eq(pw->kind, PV_SECRET);
    ck_assert_str_eq(pw->u.secret.inner->u.str.s, "hunter2");
    const char *msg =
        parse_error(a,
                    "{\"resources\": [{\"type\": \"a:b:c\", \"name\": \"n\", \"id\": \"i\", \"inputs\": {"
                    "\"password\": {\"4dabf18193072939515e22adb298388d\": \"1b47061264138c4ac30d75fd1eb44270\"}}}]}",
                    "f.json", NULL);
    ck_assert_str_eq(msg,
                     "could not deserialize inputs for resource 'n' of type 'a:b:c': malformed secret value: exactly "
                     "one of `ciphertext` or `plaintext` must be supplied");
    arena_free(a);
}
END_TEST

START_TEST(test_malformed_json) {
    arena_t *a = arena_new();
    int line;
    const char *msg = parse_error(a, "{\n  \"resources\": [\n    {\"type\": \"a\",}\n  ]\n}\n", "bad.json", &line);
    ck_assert_str_eq(msg,
                     "invalid JSON: invalid character '}' looking for beginning of object key string, at column 18");
    ck_assert_int_eq(line, 3);
    msg = parse_error(a, "{\"resources\": [\n", "bad.json", &line);
    ck_assert_str_eq(msg, "invalid JSON: unexpected end of JSON input; check for a missing '}', ']' or '\"'");
    ck_assert_int_eq(line, 2);
    msg = parse_error(a, "{}\n{}\n", "bad.json", &line);
    ck_assert_str_eq(msg, "invalid JSON: invalid character '{' after top-level value, at column 1");
    ck_assert_int_eq(line, 2);
    msg = parse_error(a, " \n\t", "empty.json", &line);
    ck_assert_str_eq(msg,
                     "the import file is empty; it must hold an object with a 'resources' list, e.g. {\"resources\": "
                     "[{\"type\": \"aws:s3/bucket:Bucket\", \"name\": \"b\", \"id\": \"my-bucket\"}]}");
    /* diag_format puts file and line in front. */
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(import_file_parse(a, "{\"a\" 1}", 7, "x.json", &d));
    ck_assert_str_eq(diag_format(&d, d.head),
                     "x.json:1: invalid JSON: invalid character '1' after object key, at column 6");
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_malformed_yaml) {
    arena_t *a = arena_new();
    int line;
    const char *msg = parse_error(a, "resources:\n  - type: a\n    name: b: c\n", "bad.yaml", &line);
    ck_assert_str_eq(msg, "invalid YAML: mapping values are not allowed in this context at column 12");
    ck_assert_int_eq(line, 3);
    msg = parse_error(a, "resources:\n  - type: \"a\n", "bad.yaml", &line);
    ck_assert_str_eq(msg, "invalid YAML: found unexpected end of stream while scanning a quoted scalar at column 1");
    ck_assert_int_eq(line, 3);
    msg = parse_error(a, "resources: []\n---\nresources: []\n", "two.yaml", &line);
    ck_assert_str_eq(msg, "invalid YAML: the file holds more than one document ('---'); an import file is one mapping");
    ck_assert_int_eq(line, 2);
    msg = parse_error(a, "resources:\n  - *nope\n", "alias.yaml", &line);
    ck_assert_str_eq(msg, "invalid YAML: the alias '*nope' refers to no anchor defined before it");
    ck_assert_int_eq(line, 2);
    /* Plain text is a YAML string, not an import file. */
    msg = parse_error(a, "hello world\n", "text.yaml", NULL);
    ck_assert_str_eq(msg, "the import file must be an object with a 'resources' list (and optionally a 'nameTable'), "
                          "but it is a string");
    arena_free(a);
}
END_TEST

START_TEST(test_yaml_scalars) {
    arena_t *a = arena_new();
    import_file_t *f = parse_ok(a, "resources:\n"
                                   "  - type: a:b:c\n    name: n\n    id: '12345'\n    component: false\n"
                                   "    inputs:\n"
                                   "      int: 42\n      neg: -7\n      oct: 0o17\n      hex: 0x1F\n      flt: 1.5e3\n"
                                   "      t: True\n      f: FALSE\n      n1: ~\n      n2: null\n      n3:\n"
                                   "      s1: \"42\"\n      s2: !!str 43\n      s3: yes\n      s4: 1.2.3\n"
                                   "      list: &l [1, two]\n      again: *l\n"
                                   "      block: |\n        line1\n        line2\n");
    const pv_t *in = f->specs[0].inputs;
    ck_assert_str_eq(f->specs[0].id, "12345");
    ck_assert(pv_object_get(in, "int")->kind == PV_NUMBER && pv_object_get(in, "int")->u.n == 42);
    ck_assert(pv_object_get(in, "neg")->u.n == -7);
    ck_assert(pv_object_get(in, "oct")->u.n == 15);
    ck_assert(pv_object_get(in, "hex")->u.n == 31);
    ck_assert(pv_object_get(in, "flt")->u.n == 1500);
    ck_assert(pv_object_get(in, "t")->kind == PV_BOOL && pv_object_get(in, "t")->u.b);
    ck_assert(pv_object_get(in, "f")->kind == PV_BOOL && !pv_object_get(in, "f")->u.b);
    ck_assert_int_eq(pv_object_get(in, "n1")->kind, PV_NULL);
    ck_assert_int_eq(pv_object_get(in, "n2")->kind, PV_NULL);
    ck_assert_int_eq(pv_object_get(in, "n3")->kind, PV_NULL);
    ck_assert_str_eq(pv_object_get(in, "s1")->u.str.s, "42");
    ck_assert_str_eq(pv_object_get(in, "s2")->u.str.s, "43");
    ck_assert_str_eq(pv_object_get(in, "s3")->u.str.s, "yes"); /* YAML 1.2: not a boolean */
    ck_assert_str_eq(pv_object_get(in, "s4")->u.str.s, "1.2.3");
    ck_assert(pv_equal(pv_object_get(in, "list"), pv_object_get(in, "again")));
    ck_assert_int_eq(pv_object_get(in, "list")->u.arr.len, 2);
    ck_assert_str_eq(pv_object_get(in, "block")->u.str.s, "line1\nline2\n");
    /* An unquoted numeric ID is a number, which the decoder rejects with a hint. */
    const char *msg =
        parse_error(a, "resources:\n  - type: a:b:c\n    name: n\n    id: 123456789012\n", "n.yaml", NULL);
    ck_assert_str_eq(msg, "'resources[0].id' must be a string, but it is a number; put the value in quotes");
    arena_free(a);
}
END_TEST

START_TEST(test_yaml_alias_bomb_is_bounded) {
    arena_t *a = arena_new();
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "a0: &a0 [x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 12; i++)
        buf_printf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i - 1, i - 1, i - 1, i - 1,
                   i - 1, i - 1, i - 1, i - 1);
    const char *msg = parse_error(a, b.data, "bomb.yaml", NULL);
    ck_assert_str_eq(msg, "invalid YAML: aliases expand the document to more than 1048576 values");
    buf_free(&b);
    arena_free(a);
}
END_TEST

/* --- the sample fixture: JSON and YAML give the same file and plan; the writer is byte-exact ---- */

static import_file_t *load_fixture(arena_t *a, const char *name) {
    diag_list_t d;
    diag_list_init(&d);
    import_file_t *f = import_file_load(a, arena_sprintf(a, FIXTURES "%s", name), &d);
    if (!f) ck_abort_msg("%s: %s", name, d.head ? d.head->message : "?");
    ck_assert_int_eq(d.count, 0);
    diag_list_free(&d);
    return f;
}

START_TEST(test_sample_plan) {
    arena_t *a = arena_new();
    import_file_t *f = load_fixture(a, "sample.json");
    diag_list_t d;
    diag_list_init(&d);
    import_plan_t *p = import_plan_build(a, f, "dev", "proj", true, &d);
    ck_assert_ptr_nonnull(p);
    diag_list_free(&d);
    static const struct {
        const char *variable, *urn, *parent_urn, *provider_urn;
        int parent_index, provider_index, depth;
        bool protect;
    } want[] = {
        {"app", "urn:pulumi:dev::proj::my:index:App::app", NULL, NULL, -1, -1, 0, true},
        {"east", "urn:pulumi:dev::proj::pulumi:providers:aws::east", NULL, NULL, -1, -1, 0, false},
        {"logs", "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::logs", NULL,
         "urn:pulumi:dev::proj::pulumi:providers:aws::admin", -1, -1, 0, true},
        {"subnet-a", "urn:pulumi:dev::proj::aws:ec2/vpc:Vpc$aws:ec2/subnet:Subnet::subnet-a",
         "urn:pulumi:dev::proj::aws:ec2/vpc:Vpc::main-vpc", NULL, -1, -1, 0, true},
        {"logsBucketPolicy", "urn:pulumi:dev::proj::aws:s3/bucketPolicy:BucketPolicy::logs-policy", NULL, NULL, -1, -1,
         0, true},
        {"web", "urn:pulumi:dev::proj::my:index:App$aws:ec2/instance:Instance::web",
         "urn:pulumi:dev::proj::my:index:App::app", "urn:pulumi:dev::proj::pulumi:providers:aws::east", 0, 1, 1, true},
        {"ip", "urn:pulumi:dev::proj::my:index:App$aws:ec2/instance:Instance$aws:ec2/eip:Eip::ip",
         "urn:pulumi:dev::proj::my:index:App$aws:ec2/instance:Instance::web", NULL, 5, -1, 2, true},
    };
    ck_assert_int_eq(p->n_items, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < p->n_items; i++) {
        const import_plan_item_t *it = &p->items[i];
        ck_assert_str_eq(it->variable, want[i].variable);
        ck_assert_str_eq(it->urn, want[i].urn);
        if (want[i].parent_urn)
            ck_assert_str_eq(it->parent_urn, want[i].parent_urn);
        else
            ck_assert_ptr_null(it->parent_urn);
        if (want[i].provider_urn)
            ck_assert_str_eq(it->provider_urn, want[i].provider_urn);
        else
            ck_assert_ptr_null(it->provider_urn);
        ck_assert_int_eq(it->parent_index, want[i].parent_index);
        ck_assert_int_eq(it->provider_index, want[i].provider_index);
        ck_assert_int_eq(it->depth, want[i].depth);
        ck_assert_int_eq(it->protect, want[i].protect);
        ck_assert_str_eq(name_of(p, it->urn), it->variable);
    }
    ck_assert_str_eq(p->items[6].id, "eipalloc-1 <&> \xc3\xa9\t");
    ck_assert_int_eq(p->n_names, 9);
    ck_assert_str_eq(name_of(p, "urn:pulumi:dev::proj::pulumi:providers:aws::admin"), "admin");
    ck_assert_str_eq(name_of(p, "urn:pulumi:dev::proj::aws:ec2/vpc:Vpc::main-vpc"), "vpc");
    arena_free(a);
}
END_TEST

START_TEST(test_sample_writer_is_byte_exact) {
    arena_t *a = arena_new();
    char *want = tu_read(FIXTURES "sample.expected.json", NULL);
    ck_assert_ptr_nonnull(want);
    char *got = import_file_to_json(load_fixture(a, "sample.json"));
    ck_assert_str_eq(got, want);
    /* Writing is stable: what was written reads back to the same text. */
    import_file_t *again = parse_ok(a, got);
    char *got2 = import_file_to_json(again);
    ck_assert_str_eq(got2, want);
    free(got);
    free(got2);
    free(want);
    arena_free(a);
}
END_TEST

START_TEST(test_yaml_equals_json) {
    arena_t *a = arena_new();
    import_file_t *fj = load_fixture(a, "sample.json"), *fy = load_fixture(a, "sample.yaml");
    char *wj = import_file_to_json(fj), *wy = import_file_to_json(fy);
    ck_assert_str_eq(wy, wj);
    free(wj);
    free(wy);
    diag_list_t d;
    diag_list_init(&d);
    import_plan_t *pj = import_plan_build(a, fj, "dev", "proj", true, &d);
    import_plan_t *py = import_plan_build(a, fy, "dev", "proj", true, &d);
    ck_assert_int_eq(d.count, 0);
    ck_assert_int_eq(pj->n_items, py->n_items);
    for (size_t i = 0; i < pj->n_items; i++) {
        ck_assert_str_eq(pj->items[i].urn, py->items[i].urn);
        ck_assert_str_eq(pj->items[i].variable, py->items[i].variable);
        ck_assert_int_eq(pj->items[i].parent_index, py->items[i].parent_index);
        ck_assert_int_eq(pj->items[i].provider_index, py->items[i].provider_index);
        ck_assert(pv_equal(pj->items[i].spec->inputs, py->items[i].spec->inputs) ||
                  (!pj->items[i].spec->inputs && !py->items[i].spec->inputs));
    }
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_writer_minimal_and_empty) {
    arena_t *a = arena_new();
    /* TestImportFileMarshal's file, with our 4-space writer. */
    import_file_t *f = parse_ok(
        a, "{\"nameTable\": {\"foo\": \"urn:pulumi:stack::proj::foo:bar:a::arb\"},"
           "\"resources\": [{\"name\": \"bar\", \"type\": \"foo:bar:b\", \"id\": \"123\"},"
           "{\"name\": \"comp\", \"type\": \"some/comp\", \"component\": true},"
           "{\"name\": \"thirdParty\", \"type\": \"some:third:party\", \"id\": \"abc123\", \"parent\": \"bar\","
           "\"version\": \"1.2.3\", \"pluginDownloadUrl\": \"https://example.com\"}]}");
    char *got = import_file_to_json(f);
    ck_assert_str_eq(got, "{\n"
                          "    \"nameTable\": {\n"
                          "        \"foo\": \"urn:pulumi:stack::proj::foo:bar:a::arb\"\n"
                          "    },\n"
                          "    \"resources\": [\n"
                          "        {\n"
                          "            \"type\": \"foo:bar:b\",\n"
                          "            \"name\": \"bar\",\n"
                          "            \"id\": \"123\"\n"
                          "        },\n"
                          "        {\n"
                          "            \"type\": \"some/comp\",\n"
                          "            \"name\": \"comp\",\n"
                          "            \"component\": true\n"
                          "        },\n"
                          "        {\n"
                          "            \"type\": \"some:third:party\",\n"
                          "            \"name\": \"thirdParty\",\n"
                          "            \"id\": \"abc123\",\n"
                          "            \"parent\": \"bar\",\n"
                          "            \"version\": \"1.2.3\",\n"
                          "            \"pluginDownloadUrl\": \"https://example.com\"\n"
                          "        }\n"
                          "    ]\n"
                          "}\n");
    free(got);
    import_file_t empty = {0};
    got = import_file_to_json(&empty);
    ck_assert_str_eq(got, "{}\n");
    free(got);
    arena_free(a);
}
END_TEST

/* --- inline mode (§1.4) ----------------------------------------------------------------------- */

START_TEST(test_inline_basic) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    import_file_t *f =
        import_file_inline(a, "aws:s3/bucket:Bucket", "my-bucket", "my-bucket-123", NULL, NULL, "bucket,acl", &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_null(f->path);
    ck_assert_int_eq(f->n_specs, 1);
    ck_assert_int_eq(f->n_names, 0);
    ck_assert_int_eq(f->specs[0].n_properties, 2);
    ck_assert_str_eq(f->specs[0].properties[1], "acl");
    import_plan_t *p = import_plan_build(a, f, "dev", "proj", true, &d);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->items[0].urn, "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::my-bucket");
    ck_assert(p->items[0].protect);
    ck_assert_int_eq(d.count, 0);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_inline_parent_and_provider) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *parent = "urn:pulumi:dev::proj::my:C:C::comp";
    const char *prov = "urn:pulumi:dev::proj::pulumi:providers:aws::admin";
    /* Bare URNs are named `parent` and `provider`. */
    import_file_t *f = import_file_inline(a, "aws:s3/bucket:Bucket", "b", "b-1", parent, prov, NULL, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(f->n_names, 2);
    ck_assert_str_eq(f->name_table[0].name, "parent");
    ck_assert_str_eq(f->name_table[1].name, "provider");
    ck_assert_str_eq(f->specs[0].parent, "parent");
    ck_assert_str_eq(f->specs[0].provider, "provider");
    import_plan_t *p = import_plan_build(a, f, "dev", "proj", true, &d);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->items[0].urn, "urn:pulumi:dev::proj::my:C:C$aws:s3/bucket:Bucket::b");
    ck_assert_str_eq(p->items[0].parent_urn, parent);
    ck_assert_str_eq(p->items[0].provider_urn, prov);
    /* `name=URN` names them. */
    f = import_file_inline(a, "aws:s3/bucket:Bucket", "b", "b-1", "comp=urn:pulumi:dev::proj::my:C:C::comp",
                           "admin=urn:pulumi:dev::proj::pulumi:providers:aws::admin", NULL, &d);
    ck_assert_str_eq(f->name_table[0].name, "comp");
    ck_assert_str_eq(f->name_table[1].name, "admin");
    ck_assert_str_eq(f->name_table[1].urn, prov);
    ck_assert_int_eq(d.count, 0);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

START_TEST(test_inline_errors) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(import_file_inline(a, "a:b:c", "n", "i", "not-a-urn", NULL, NULL, &d));
    ck_assert_str_eq(d.head->message, "invalid parent URN: 'not-a-urn'");
    ck_assert_int_eq(d.head->code, DIAG_USAGE);
    diag_list_free(&d);
    /* `x=bad` is not a name=URN pair, so the whole value is taken as a (bad) URN. */
    ck_assert_ptr_null(import_file_inline(a, "a:b:c", "n", "i", "x=urn:pulumi:bad", NULL, NULL, &d));
    ck_assert_str_eq(d.head->message, "invalid parent URN: 'x=urn:pulumi:bad'");
    diag_list_free(&d);
    ck_assert_ptr_null(import_file_inline(a, "a:b:c", "n", "i", "same=urn:pulumi:s::p::a:b:c::x",
                                          "same=urn:pulumi:s::p::pulumi:providers:aws::y", NULL, &d));
    ck_assert_str_eq(d.head->message, "provider and parent must have distinct names, both were 'same'");
    diag_list_free(&d);
    ck_assert_ptr_null(import_file_inline(a, "a:b:c", "n", "i", "provider=urn:pulumi:s::p::a:b:c::x",
                                          "urn:pulumi:s::p::pulumi:providers:aws::y", NULL, &d));
    ck_assert_str_eq(d.head->message, "provider and parent must have distinct names, both were 'provider'");
    diag_list_free(&d);
    /* A bare provider value is not checked here; planning says it is not a provider. */
    import_file_t *f = import_file_inline(a, "a:b:c", "n", "i", NULL, "junk", NULL, &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_null(import_plan_build(a, f, "dev", "proj", true, &d));
    ck_assert_str_eq(
        import_format_errors(a, &d),
        "1 error occurred:\n\t* the provider 'provider' for resource 'n' of type 'a:b:c' is not a provider\n\n");
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

/* --- URN helpers ------------------------------------------------------------------------------ */

START_TEST(test_urn_helpers) {
    arena_t *a = arena_new();
    ck_assert_str_eq(urn_make(a, "dev", "proj", NULL, "a:b:C", "n"), "urn:pulumi:dev::proj::a:b:C::n");
    ck_assert_str_eq(urn_make(a, "dev", "proj", "pulumi:pulumi:Stack", "a:b:C", "n"), "urn:pulumi:dev::proj::a:b:C::n");
    ck_assert_str_eq(urn_make(a, "dev", "proj", "x:y:P$x:y:Q", "a:b:C", "n"),
                     "urn:pulumi:dev::proj::x:y:P$x:y:Q$a:b:C::n");
    const char *u = "urn:pulumi:dev::proj::x:y:P$a:b:C::name::with::colons";
    ck_assert(urn_is_valid(u));
    ck_assert(!urn_is_valid("urn:pulumi:dev::proj::a:b:C"));
    ck_assert(!urn_is_valid("urn:other:dev::proj::a:b:C::n"));
    ck_assert(!urn_is_valid(NULL));
    ck_assert_str_eq(urn_name(a, u), "name::with::colons");
    ck_assert_str_eq(urn_qualified_type(a, u), "x:y:P$a:b:C");
    ck_assert_str_eq(urn_type(a, u), "a:b:C");
    ck_assert_ptr_null(urn_name(a, "whatever"));
    ck_assert_ptr_null(urn_type(a, "whatever"));
    arena_free(a);
}
END_TEST

/* What an import file and its plan hold per resource, since a million-resource import keeps both to
 * the end: the spec and its own texts (a type, repeated by every resource of it, once), then the plan
 * item, its names-table entry and its URN — not the planner's working copies, descriptions and index
 * arrays, nor a "resources[N].field" text per field (formatted for messages that were never given). */
START_TEST(test_plan_holds_its_items_only) {
    enum { N = 2000 };
    buf_t b = {0};
    buf_puts(&b, "{\"resources\": [");
    for (int i = 0; i < N; i++)
        buf_printf(&b, "%s{\"type\": \"random:index/randomPet:RandomPet\", \"name\": \"p%d\", \"id\": \"i%d\"}",
                   i ? ", " : "", i, i);
    buf_puts(&b, "]}");
    arena_t *fa = arena_new(), *pa = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    import_file_t *f = import_file_parse(fa, b.data, b.len, "imports.json", &d);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->n_specs, N);
    ck_assert_ptr_eq(f->specs[0].type, f->specs[N - 1].type);
    /* per spec: the spec, its name and ID (16 bytes each in the arena) */
    size_t file_bytes = arena_used(fa);
    ck_assert_msg(file_bytes <= N * (sizeof(import_spec_t) + 32) + 4096, "the import file holds %zu bytes a resource",
                  file_bytes / N);
    import_plan_t *plan = import_plan_build(pa, f, "stack", "proj", true, &d);
    ck_assert_ptr_nonnull(plan);
    ck_assert_uint_eq(plan->n_items, N);
    size_t urns = 0;
    for (size_t i = 0; i < plan->n_items; i++)
        urns += (strlen(plan->items[i].urn) + 1 + 15) & ~(size_t)15;
    size_t plan_bytes = arena_used(pa);
    ck_assert_msg(plan_bytes <= N * (sizeof(import_plan_item_t) + sizeof(import_name_entry_t)) + urns + 4096,
                  "the plan holds %zu bytes a resource, %zu of them its item, name entry and URN", plan_bytes / N,
                  sizeof(import_plan_item_t) + sizeof(import_name_entry_t) + urns / N);
    diag_list_free(&d);
    buf_free(&b);
    arena_free(fa);
    arena_free(pa);
}
END_TEST

START_TEST(test_load_missing_file) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(import_file_load(a, FIXTURES "does-not-exist.json", &d));
    ck_assert_int_eq(d.errors, 1);
    ck_assert_str_eq(d.head->file, FIXTURES "does-not-exist.json");
    ck_assert_int_eq(d.head->code, DIAG_IO);
    diag_list_free(&d);
    arena_free(a);
}
END_TEST

int main(void) {
    Suite *s = suite_create("importfile");
    TCase *tc = tcase_create("plan");
    tcase_add_test(tc, test_missing_everything);
    tcase_add_test(tc, test_missing_fields);
    tcase_add_test(tc, test_component_and_remote_rules);
    tcase_add_test(tc, test_provider_rules);
    tcase_add_test(tc, test_errors_carry_resource_and_file);
    tcase_add_test(tc, test_just_logical_name);
    tcase_add_test(tc, test_logical_name_differs);
    tcase_add_test(tc, test_same_name_same_type_is_ambiguous_urn);
    tcase_add_test(tc, test_dedupe_readable_from_id);
    tcase_add_test(tc, test_same_name_different_type_dedupe);
    tcase_add_test(tc, test_dedupe_skips_taken_names_and_nametable_keys);
    tcase_add_test(tc, test_auto_urn_of_in_file_parents);
    tcase_add_test(tc, test_nametable_parent_type_chain);
    tcase_add_test(tc, test_spec_name_shadows_nametable_key);
    tcase_add_test(tc, test_urn_given_up_is_free);
    tcase_add_test(tc, test_unknown_parent_and_provider);
    tcase_add_test(tc, test_provider_must_be_a_provider);
    tcase_add_test(tc, test_providers_in_nametable_and_resources);
    tcase_add_test(tc, test_ambiguous_only_when_referenced);
    tcase_add_test(tc, test_cyclic_parents);
    tcase_add_test(tc, test_versions);
    tcase_add_test(tc, test_unknown_values_rejected);
    tcase_add_test(tc, test_format_errors);
    suite_add_tcase(s, tc);
    TCase *tp = tcase_create("parse");
    tcase_add_test(tp, test_case_insensitive_keys_and_nulls);
    tcase_add_test(tp, test_wrong_json_types);
    tcase_add_test(tp, test_secret_inputs);
    tcase_add_test(tp, test_malformed_json);
    tcase_add_test(tp, test_malformed_yaml);
    tcase_add_test(tp, test_yaml_scalars);
    tcase_add_test(tp, test_yaml_alias_bomb_is_bounded);
    tcase_add_test(tp, test_sample_plan);
    tcase_add_test(tp, test_sample_writer_is_byte_exact);
    tcase_add_test(tp, test_yaml_equals_json);
    tcase_add_test(tp, test_writer_minimal_and_empty);
    tcase_add_test(tp, test_load_missing_file);
    tcase_add_test(tp, test_plan_holds_its_items_only);
    suite_add_tcase(s, tp);
    TCase *ti = tcase_create("inline");
    tcase_add_test(ti, test_inline_basic);
    tcase_add_test(ti, test_inline_parent_and_provider);
    tcase_add_test(ti, test_inline_errors);
    tcase_add_test(ti, test_urn_helpers);
    suite_add_tcase(s, ti);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

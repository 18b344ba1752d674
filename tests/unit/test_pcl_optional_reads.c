/* Reads of optional properties. Java, as pulumi-java's SDK types them (pkg/codegen/java gen.go): a
 * resource's getter of an optional output gives an Output<Optional<T>> (of any kind); an output
 * type's or an invoke result's getter of an optional property gives an Optional<T> for a scalar or
 * an object, but a List (List.of() when absent) or a Map (Map.of()) for a list or a map; a
 * required one the value. Every read path writes that: a traversal of a resource, a read off an
 * invoke call, at an input, a stack output and in a template (never Optional[...]). C#: a bool? read
 * off an invoke call in a template. */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "emitters/ts_check.h"
#include "pcl/pcl.h"
#include "specs/schema.h"
#include "testutil.h"

/* An "an" package: Res with optional outputs of each kind (bool, number, map, list, object, map of
 * objects, Json) and a required object; Obj with optional bool, number, map, list and object and a
 * required string; getThing's result: a required map, optional object, bool, number and list. */
static const char *SCHEMA =
    "{\"name\":\"an\",\"version\":\"1.0.0\",\"resources\":{\"an:index:Res\":{\"properties\":{"
    "\"text\":{\"type\":\"string\"},\"on\":{\"type\":\"boolean\"},\"num\":{\"type\":\"number\"},"
    "\"labels\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},"
    "\"nums\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}},"
    "\"obj\":{\"$ref\":\"#/types/an:index:Obj\"},\"oobj\":{\"$ref\":\"#/types/an:index:Obj\"},"
    "\"omap\":{\"type\":\"object\",\"additionalProperties\":{\"$ref\":\"#/types/an:index:Obj\"}},"
    "\"js\":{\"$ref\":\"pulumi.json#/Json\"},"
    "\"rmap\":{\"type\":\"object\",\"additionalProperties\":{\"$ref\":\"#/types/an:index:Obj\"}}},"
    "\"required\":[\"text\",\"obj\",\"rmap\"],"
    "\"inputProperties\":{\"text\":{\"type\":\"string\"}}}},"
    "\"types\":{\"an:index:Obj\":{\"type\":\"object\",\"properties\":{\"on\":{\"type\":\"boolean\"},"
    "\"num\":{\"type\":\"number\"},\"labels\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},"
    "\"nums\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}},\"sub\":{\"$ref\":\"#/types/an:index:Sub\"},"
    "\"s\":{\"type\":\"string\"}},\"required\":[\"s\"]},"
    "\"an:index:Sub\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}},"
    "\"functions\":{\"an:index:getThing\":{\"inputs\":{\"properties\":{\"a\":{\"type\":\"string\"}},"
    "\"type\":\"object\"},\"outputs\":{\"properties\":{\"m\":{\"type\":\"object\",\"additionalProperties\":"
    "{\"type\":\"string\"}},\"obj\":{\"$ref\":\"#/types/an:index:Obj\"},\"ob\":{\"type\":\"boolean\"},"
    "\"onum\":{\"type\":\"number\"},\"lst\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
    "\"type\":\"object\",\"required\":[\"m\"]}}}}";

typedef tu_pcl_t fixture_t;

/* C# and Java must parse (tree-sitter) what they write. */
static void parses(lang_t lang, const char *src) {
    diag_list_t d;
    diag_list_init(&d);
    size_t n = ts_check_buffer(lang, src, strlen(src), lang == LANG_JAVA ? "App.java" : "Program.cs", &d);
    ck_assert_msg(n == 0, "%s: %s\n%s", lang_name(lang), d.head ? diag_format(&d, d.head) : "?", src);
    diag_list_free(&d);
}

static char *java_of(fixture_t *f) {
    char *java = tu_pcl_emit_ok(f, LANG_JAVA);
    if (getenv("FX_DUMP")) fputs(java, stderr);
    parses(LANG_JAVA, java);
    return java;
}

/* Below a resource's optional map of objects, by key as an attribute (r.omap.k.on) and by index:
 * through the Optional, flatMap where the getter gives an Optional itself. */
START_TEST(test_resource_reads) {
    fixture_t f = tu_pcl_load(SCHEMA, "an.json",
                              "resource \"r\" \"an:index:Res\" {\n    text = \"x\"\n}\n"
                              "output \"a\" {\n    value = r.omap.k.on\n}\n"
                              "output \"b\" {\n    value = r.omap[\"k\"].on\n}\n"
                              "output \"c\" {\n    value = r.omap.k.sub.q\n}\n"
                              "output \"d\" {\n    value = r.obj.labels.k\n}\n"
                              "output \"e\" {\n    value = r.oobj.labels.k\n}\n"
                              "output \"g\" {\n    value = r.obj.nums[0]\n}\n"
                              "output \"h\" {\n    value = r.oobj.sub.q\n}\n"
                              "output \"i\" {\n    value = r.obj.on\n}\n"
                              "output \"j\" {\n    value = r.rmap.k.on\n}\n"
                              "output \"k\" {\n    value = r.rmap.k.labels.q\n}\n"
                              "output \"l\" {\n    value = r.rmap[\"k\"].sub.q\n}\n"
                              "output \"t5\" {\n    value = \"v-${r.rmap.k.on}\"\n}\n"
                              "output \"t1\" {\n    value = \"v-${r.omap.k.on}\"\n}\n"
                              "output \"t2\" {\n    value = \"v-${r.obj.nums[0]}\"\n}\n"
                              "output \"t3\" {\n    value = \"v-${r.obj.on}\"\n}\n"
                              "output \"t4\" {\n    value = \"v-${r.js}\"\n}\n"
                              "resource \"u\" \"an:index:Res\" {\n    text = r.omap.k.sub.q\n}\n");
    char *java = java_of(&f);
    /* a map's key read as an attribute, then an optional bool (was v.get("k")).applyValue(v -> v.on()):
     * an Optional<Boolean>, printed Optional[true]) */
    tu_has(java, "ctx.export(\"j\", r.rmap().applyValue(v -> v.get(\"k\").on().orElse(null)));\n");
    tu_has(java,
           "ctx.export(\"t5\", Output.format(\"v-%s\", r.rmap().applyValue(v -> v.get(\"k\").on().orElse(null))));\n");
    tu_has(java, "ctx.export(\"k\", r.rmap().applyValue(v -> v.get(\"k\")).applyValue(v -> v.labels())"
                 ".applyValue(v -> v.get(\"q\")));\n");
    tu_has(
        java,
        "ctx.export(\"a\", r.omap().applyValue(v -> v.map(x -> x.get(\"k\")).flatMap(x -> x.on()).orElse(null)));\n");
    tu_has(
        java,
        "ctx.export(\"b\", r.omap().applyValue(v -> v.map(x -> x.get(\"k\")).flatMap(x -> x.on()).orElse(null)));\n");
    tu_has(java, ".text(r.omap().applyValue(v -> v.map(x -> x.get(\"k\")).flatMap(x -> x.sub()).flatMap(x -> x.q())"
                 ".orElse(null)))\n");
    /* an optional map or list of an object is a Map or List, never an Optional (was v.labels().map(...),
     * v.flatMap(x -> x.labels()), v.nums().map(x -> x.get(0)): did not compile) */
    tu_has(java, "ctx.export(\"d\", r.obj().applyValue(v -> v.labels()).applyValue(v -> v.get(\"k\")));\n");
    tu_has(
        java,
        "ctx.export(\"e\", r.oobj().applyValue(v -> v.map(x -> x.labels()).map(x -> x.get(\"k\")).orElse(null)));\n");
    tu_has(java, "ctx.export(\"g\", r.obj().applyValue(v -> v.nums()).applyValue(v -> v.get(0)));\n");
    tu_has(java, "Output.format(\"v-%s\", r.obj().applyValue(v -> v.nums()).applyValue(v -> v.get(0))"
                 ".applyValue(v -> formatValue(v))));\n");
    tu_has(java,
           "ctx.export(\"h\", r.oobj().applyValue(v -> v.flatMap(x -> x.sub()).flatMap(x -> x.q()).orElse(null)));\n");
    /* a Json string prints without its quotes (was Gson's toString: "a") */
    tu_has(java, "Output.format(\"v-%s\", r.js().applyValue(v -> v.orElse(null)).applyValue(v -> formatValue(v))));\n");
    tu_has(java, "        if (value instanceof com.google.gson.JsonPrimitive) {\n");
    tu_has(java, ": json.isBoolean() ? (Object) json.getAsBoolean() : json.getAsString();\n");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

START_TEST(test_invoke_reads) {
    fixture_t f = tu_pcl_load(
        SCHEMA, "an.json",
        "output \"c\" {\n    value = invoke(\"an:index:getThing\", {a = \"y\"}).m.k\n}\n"
        "output \"d\" {\n    value = invoke(\"an:index:getThing\", {a = \"y\"}).lst[0]\n}\n"
        "output \"f\" {\n    value = invoke(\"an:index:getThing\", {a = \"y\"}).obj.on\n}\n"
        "output \"g\" {\n    value = invoke(\"an:index:getThing\", {a = \"y\"}).ob\n}\n"
        "output \"h\" {\n    value = invoke(\"an:index:getThing\", {a = \"y\"}).obj.labels.k\n}\n"
        "output \"t1\" {\n    value = \"v-${invoke(\"an:index:getThing\", {a = \"y\"}).ob}\"\n}\n"
        "output \"t2\" {\n    value = \"v-${invoke(\"an:index:getThing\", {a = \"y\"}).onum}\"\n}\n"
        "output \"t3\" {\n    value = \"v-${invoke(\"an:index:getThing\", {a = \"y\"}).obj.on}\"\n}\n"
        "resource \"u\" \"an:index:Res\" {\n    text = invoke(\"an:index:getThing\", {a = \"y\"}).obj.sub.q\n}\n");
    char *java = java_of(&f);
    /* an invoke's result is an output type: an optional scalar or object an Optional (was invoke.ob(),
     * printed Optional[true], invoke.obj().on(): did not compile), a list or map never */
    tu_has(java, ".applyValue(invoke -> invoke.m().get(\"k\")));\n");
    tu_has(java, ".applyValue(invoke -> invoke.lst().get(0)));\n");
    tu_has(java, "ctx.export(\"f\", AnFunctions.getThing(");
    tu_has(java, ".applyValue(invoke -> invoke.obj().flatMap(x -> x.on()).orElse(null)));\n");
    tu_has(java, ".applyValue(invoke -> invoke.ob().orElse(null)));\n");
    tu_has(java, ".applyValue(invoke -> invoke.obj().map(x -> x.labels()).map(x -> x.get(\"k\")).orElse(null)));\n");
    tu_has(java, ".applyValue(invoke -> invoke.ob().orElse(null))));\n");
    tu_has(java, ".applyValue(invoke -> invoke.onum().orElse(null)).applyValue(v -> formatValue(v))));\n");
    tu_has(java, ".applyValue(invoke -> invoke.obj().flatMap(x -> x.on()).orElse(null))));\n");
    tu_has(java, ".applyValue(invoke -> invoke.obj().flatMap(x -> x.sub()).flatMap(x -> x.q()).orElse(null)))\n");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* C#: a bool read off an invoke call in a template, a bool? where the result's property or one it is
 * read through is optional, was written `.Apply(v => v ? "true" : "false")` (CS0266 on a bool?); by
 * FormatValue now, as the traversal of a local holding the result is. */
START_TEST(test_invoke_bool_in_template_cs) {
    fixture_t f =
        tu_pcl_load(SCHEMA, "an.json",
                    "t = invoke(\"an:index:getThing\", {a = \"x\"})\n"
                    "output \"t1\" {\n    value = \"v-${invoke(\"an:index:getThing\", {a = \"y\"}).obj.on}\"\n}\n"
                    "output \"t2\" {\n    value = \"v-${invoke(\"an:index:getThing\", {a = \"y\"}).ob}\"\n}\n"
                    "output \"t4\" {\n    value = \"v-${t.obj.on}\"\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    if (getenv("FX_DUMP")) fputs(cs, stderr);
    tu_has(cs, "}).Apply(invoke => invoke.Obj.On).Apply(v => FormatValue(v))}\"),\n");
    tu_has(cs, "}).Apply(invoke => invoke.Ob).Apply(v => FormatValue(v))}\"),\n");
    tu_has(cs, "[\"t4\"] = Output.Format($\"v-{t.Apply(t => t.Obj.On).Apply(v => FormatValue(v))}\"),\n");
    ck_assert_msg(!strstr(cs, "v ? \"true\" : \"false\""), "%s", cs);
    parses(LANG_CSHARP, cs);
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pcl_optional_reads");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_resource_reads);
    tcase_add_test(tc, test_invoke_reads);
    tcase_add_test(tc, test_invoke_bool_in_template_cs);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

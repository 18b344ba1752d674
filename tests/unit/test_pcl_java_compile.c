/* test_pcl_java_compile.c — Java the emitter wrote that javac rejects against pulumi-java's API
 * (issue 18; found by the conformance test's javac check over tests/peers/java and the classes
 * fixtures/conformance/javastubs.js derives from the schemas): each case is now written as Java
 * that compiles, or refused with the construct and its position. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/schema.h"
#include "testutil.h"

/* A package with what the cases below read and write: a resource with a string, a number, a union
 * (string or integer), a list of that union and a reference to another resource among its inputs;
 * among its outputs the string, a required reference to a resource and an object with an optional
 * list; a function of multi-argument inputs. */
static const char *JV_SCHEMA =
    "{\"name\":\"jv\",\"version\":\"1.0.0\",\"resources\":{\"jv:index:Res\":{"
    "\"properties\":{\"text\":{\"type\":\"string\"},\"ref\":{\"$ref\":\"#/resources/jv:index:Res\"},"
    "\"data\":{\"$ref\":\"#/types/jv:index:Data\"}},\"required\":[\"text\",\"ref\",\"data\"],"
    "\"inputProperties\":{\"text\":{\"type\":\"string\"},\"num\":{\"type\":\"number\"},"
    "\"u\":{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]},"
    "\"us\":{\"type\":\"array\",\"items\":{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}}}}},"
    "\"types\":{\"jv:index:Data\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},"
    "\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},\"required\":[\"name\"]}},"
    "\"functions\":{\"jv:index:multi\":{\"inputs\":{\"properties\":{\"a\":{\"type\":\"string\"},"
    "\"b\":{\"type\":\"string\"}},\"required\":[\"a\"]},\"multiArgumentInputs\":[\"a\",\"b\"],"
    "\"outputs\":{\"properties\":{\"result\":{\"type\":\"string\"}},\"required\":[\"result\"]}}}}";

static tu_pcl_t jv(const char *pcl) {
    return tu_pcl_load(JV_SCHEMA, "jv.json", pcl);
}

static void lacks(const char *text, const char *needle) {
    ck_assert_msg(!strstr(text, needle), "unexpected [%s] in:\n%s", needle, text);
}

/* A package named after a Java keyword, with a resource taking a string and an enum. */
static const char *ENUM_SCHEMA =
    "{\"name\":\"enum\",\"version\":\"1.0.0\",\"resources\":{\"enum:index:Res\":{"
    "\"properties\":{\"text\":{\"type\":\"string\"}},\"inputProperties\":{\"text\":{\"type\":\"string\"},"
    "\"color\":{\"$ref\":\"#/types/enum:index:Color\"}}}},"
    "\"types\":{\"enum:index:Color\":{\"type\":\"string\",\"enum\":[{\"value\":\"red\"}]}}}";

/* A package whose name is a Java keyword lives in `<keyword>_` (pulumi-java's names.Ident):
 * `com.pulumi.enum` is no Java package name. */
START_TEST(test_keyword_package) {
    tu_pcl_t f = tu_pcl_load(ENUM_SCHEMA, "enum.json",
                             "resource \"r\" \"enum:index:Res\" {\n    text = \"a\"\n    color = \"red\"\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.enum_.Res;");
    tu_has(java, "import com.pulumi.enum_.ResArgs;");
    tu_has(java, "com.pulumi.enum_.enums.Color");
    ck_assert_msg(!strstr(java, "com.pulumi.enum."), "keyword package in:\n%s", java);
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* pulumi-java's alias without a parent is the static Alias.noParent(): its Alias.Builder has no
 * noParent(); beside another field it cannot be written. */
START_TEST(test_alias_no_parent) {
    tu_pcl_t f = jv("resource \"r\" \"jv:index:Res\" {\n    text = \"a\"\n    options {\n"
                    "        aliases = [{noParent = true}, {name = \"old\"}]\n    }\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".aliases(Alias.noParent(), Alias.builder().name(\"old\").build())");
    lacks(java, "Alias.builder().noParent()");
    free(java);
    tu_pcl_unload(&f);
    f = jv("resource \"r\" \"jv:index:Res\" {\n    text = \"a\"\n    options {\n"
           "        aliases = [{noParent = true, name = \"old\"}]\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "noParent beside other fields", "Alias.noParent()");
    tu_pcl_unload(&f);
}
END_TEST

/* What pulumi-java's SDK has no method for is refused: deletedWith (ResourceOptions.Builder) and
 * getRootDirectory (Deployment). */
START_TEST(test_sdk_lacks) {
    tu_pcl_t f =
        jv("resource \"a\" \"jv:index:Res\" {\n    text = \"a\"\n}\n"
           "resource \"r\" \"jv:index:Res\" {\n    text = \"a\"\n    options {\n        deletedWith = a\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "'deletedWith' is not among pulumi-java's resource options", NULL);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    free(cs);
    tu_pcl_unload(&f);
    f = jv("output \"root\" {\n    value = rootDirectory()\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "no getRootDirectory", NULL);
    tu_pcl_unload(&f);
}
END_TEST

/* Files.readString and Files.readAllBytes throw IOException, which the stack method cannot throw:
 * readFile() and filebase64() read in a helper that rethrows it unchecked. */
START_TEST(test_read_file_helper) {
    tu_pcl_t f = jv("output \"text\" {\n    value = readFile(\"a.txt\")\n}\n"
                    "output \"b64\" {\n    value = filebase64(\"a.txt\")\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"text\", readFile(\"a.txt\"));");
    tu_has(java, "ctx.export(\"b64\", readFileBase64(\"a.txt\"));");
    tu_has(java, "    private static String readFile(String path) {\n        try {\n"
                 "            return java.nio.file.Files.readString(java.nio.file.Paths.get(path));\n"
                 "        } catch (java.io.IOException e) {\n"
                 "            throw new java.io.UncheckedIOException(e);\n");
    tu_has(java, "    private static String readFileBase64(String path) {\n");
    lacks(java, "ctx.export(\"text\", Files.readString(");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* A constant string longer than a class file holds (65535 bytes) is joined from pieces at run time. */
START_TEST(test_long_string) {
    size_t n = 70000;
    char *big = malloc(n + 1);
    ck_assert_ptr_nonnull(big);
    memset(big, 'x', n);
    big[n] = 0;
    char *pcl = malloc(n + 64);
    ck_assert_ptr_nonnull(pcl);
    snprintf(pcl, n + 64, "output \"big\" {\n    value = \"%s\"\n}\n", big);
    tu_pcl_t f = jv(pcl);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"big\", String.join(\"\", \"xxxx");
    const char *q = strstr(java, "String.join(");
    size_t pieces = 0;
    for (const char *p = q; p && (p = strstr(p, ", \"")); p += 3)
        pieces++;
    ck_assert_uint_eq(pieces, 4); /* 20000 + 20000 + 20000 + 10000 */
    free(java);
    tu_pcl_unload(&f);
    free(pcl);
    free(big);
}
END_TEST

/* An output of the resource an output refers to is an Output itself: read in apply (which flattens
 * it), not applyValue (an Output<Output<String>>). */
START_TEST(test_resource_ref_read) {
    tu_pcl_t f = jv("resource \"a\" \"jv:index:Res\" {\n    text = \"a\"\n}\n"
                    "resource \"b\" \"jv:index:Res\" {\n    text = a.ref.text\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".text(a.ref().apply(v -> v.text()))");
    lacks(java, "applyValue(v -> v.text())");
    free(java);
    tu_pcl_unload(&f);
    f = jv("resource \"a\" \"jv:index:Res\" {\n    text = \"a\"\n}\n"
           "output \"o\" {\n    value = a.ref.ref.text\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "reads below a resource", NULL);
    tu_pcl_unload(&f);
}
END_TEST

/* pulumi-java's getter of an optional list or map of an output type is the bare List or Map (empty
 * when unset), not an Optional: read as it is; compared with null, refused (it never is). */
START_TEST(test_optional_list_getter) {
    tu_pcl_t f = jv("resource \"a\" \"jv:index:Res\" {\n    text = \"a\"\n}\n"
                    "output \"first\" {\n    value = a.data.items[0]\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"first\", a.data().applyValue(v -> v.items()).applyValue(v -> v.get(0)));");
    lacks(java, "map(x -> x.get(0))");
    free(java);
    tu_pcl_unload(&f);
    f = jv("resource \"a\" \"jv:index:Res\" {\n    text = \"a\"\n}\n"
           "output \"unset\" {\n    value = a.data.items == null\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "compares an optional list or map of an output type with null", NULL);
    tu_pcl_unload(&f);
}
END_TEST

/* pulumi-java's SDK functions take one Args object, multi-argument inputs too (its codegen writes
 * no positional overload): the arguments given positionally fill the builder, a null one left out. */
START_TEST(test_multi_argument_invoke) {
    tu_pcl_t f = jv("output \"both\" {\n    value = invoke(\"jv:index:multi\", \"x\", \"y\").result\n}\n"
                    "output \"one\" {\n    value = invoke(\"jv:index:multi\", \"x\", null).result\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"both\", JvFunctions.multi(MultiArgs.builder()\n            .a(\"x\")\n"
                 "            .b(\"y\")\n            .build()).applyValue(invoke -> invoke.result()));");
    tu_has(java, "ctx.export(\"one\", JvFunctions.multi(MultiArgs.builder()\n            .a(\"x\")\n"
                 "            .build()).applyValue(invoke -> invoke.result()));");
    lacks(java, "multi(\"x\"");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* pulumi-java types a union Either<L, R>; its builder takes L or R in the union's place (a literal as
 * it is); a list of the union is a List<Either<L, R>>, each item Either.ofLeft/ofRight of its member;
 * an Output<L> of a resource where the builder wants an Output<Either<L, R>> is made one in an apply. */
START_TEST(test_union_values) {
    tu_pcl_t f = jv("resource \"a\" \"jv:index:Res\" {\n    text = \"a\"\n    u = \"s\"\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".u(\"s\")");
    lacks(java, "Either");
    free(java);
    tu_pcl_unload(&f);
    f = jv("resource \"a\" \"jv:index:Res\" {\n    text = \"a\"\n    us = [\"s\", 1]\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.core.Either;");
    tu_has(java, ".us(\n                Either.ofLeft(\"s\"),\n                Either.ofRight(1))");
    free(java);
    tu_pcl_unload(&f);
    f = jv("resource \"a\" \"jv:index:Res\" {\n    text = \"a\"\n}\n"
           "resource \"b\" \"jv:index:Res\" {\n    text = \"b\"\n    u = a.text\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".u(a.text().applyValue(Either::ofLeft))");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* Unions of object types with a discriminator, of three types (pulumi-java's Object) and a map of a
 * union of a string and a list. */
static const char *DU_SCHEMA =
    "{\"name\":\"du\",\"version\":\"1.0.0\",\"types\":{"
    "\"du:index:One\":{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\",\"const\":\"one\"},"
    "\"a\":{\"type\":\"string\"}},\"required\":[\"kind\"]},"
    "\"du:index:Two\":{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\",\"const\":\"two\"},"
    "\"b\":{\"type\":\"string\"}},\"required\":[\"kind\"]},"
    "\"du:index:Three\":{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\",\"const\":\"three\"},"
    "\"c\":{\"type\":\"integer\"}},\"required\":[\"kind\"]}},"
    "\"resources\":{\"du:index:Res\":{\"inputProperties\":{"
    "\"v\":{\"oneOf\":[{\"$ref\":\"#/types/du:index:One\"},{\"$ref\":\"#/types/du:index:Two\"}],"
    "\"discriminator\":{\"propertyName\":\"kind\",\"mapping\":{\"one\":\"#/types/du:index:One\","
    "\"two\":\"#/types/du:index:Two\"}}},"
    "\"vs\":{\"type\":\"array\",\"items\":{\"oneOf\":[{\"$ref\":\"#/types/du:index:One\"},"
    "{\"$ref\":\"#/types/du:index:Two\"}],\"discriminator\":{\"propertyName\":\"kind\",\"mapping\":{"
    "\"one\":\"#/types/du:index:One\",\"two\":\"#/types/du:index:Two\"}}}},"
    "\"w\":{\"oneOf\":[{\"$ref\":\"#/types/du:index:One\"},{\"$ref\":\"#/types/du:index:Two\"},"
    "{\"$ref\":\"#/types/du:index:Three\"}],\"discriminator\":{\"propertyName\":\"kind\",\"mapping\":{"
    "\"one\":\"#/types/du:index:One\",\"two\":\"#/types/du:index:Two\",\"three\":\"#/types/du:index:Three\"}}},"
    "\"m\":{\"type\":\"object\",\"additionalProperties\":{\"oneOf\":[{\"type\":\"string\"},"
    "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}]}}},"
    "\"properties\":{\"out\":{\"oneOf\":[{\"$ref\":\"#/types/du:index:One\"},{\"$ref\":\"#/types/du:index:Two\"}]},"
    "\"wout\":{\"oneOf\":[{\"$ref\":\"#/types/du:index:One\"},{\"$ref\":\"#/types/du:index:Two\"},"
    "{\"$ref\":\"#/types/du:index:Three\"}]}},\"required\":[\"out\"]}}}";

/* An object at a union of object types is the member its discriminator names (not the first object
 * type), in the list of the union wrapped in Either; at a union of three types (Object) the member's
 * builder as it is; an output of a union of objects (an Either of the output classes) where the
 * input's Either of Args classes is wanted is refused. */
START_TEST(test_discriminated_union_values) {
    tu_pcl_t f = tu_pcl_load(DU_SCHEMA, "du.json",
                             "resource \"r\" \"du:index:Res\" {\n"
                             "    v = { kind = \"two\", b = \"x\" }\n"
                             "    vs = [{ kind = \"one\", a = \"y\" }, { kind = \"two\", b = \"z\" }]\n"
                             "    w = { kind = \"three\", c = 3 }\n"
                             "    m = { k = \"s\", l = [\"a\"] }\n"
                             "}\n"
                             "resource \"s\" \"du:index:Res\" {\n    w = r.wout\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".v(TwoArgs.builder()\n                .kind(\"two\")\n                .b(\"x\")");
    tu_has(java, "Either.ofLeft(OneArgs.builder()");
    tu_has(java, "Either.ofRight(TwoArgs.builder()");
    tu_has(java, ".w(ThreeArgs.builder()\n                .kind(\"three\")\n                .c(3)");
    tu_has(java, "Map.entry(\"k\", Either.ofLeft(\"s\"))");
    tu_has(java, "Map.entry(\"l\", Either.ofRight(List.of(\n                    \"a\")))");
    tu_has(java, ".w(r.wout().applyValue(v -> v.orElse(null)))");
    lacks(java, ".v(OneArgs");
    free(java);
    tu_pcl_unload(&f);
    f = tu_pcl_load(DU_SCHEMA, "du.json",
                    "resource \"r\" \"du:index:Res\" {\n    v = { kind = \"one\" }\n}\n"
                    "resource \"s\" \"du:index:Res\" {\n    v = r.out\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "'v' gives an output of a union of object types", NULL);
    tu_pcl_unload(&f);
}
END_TEST

/* secret() over a list or map literal holding an output: Java writes the literal as a plain List or
 * Map of the outputs and wrote `.asSecret()` after it, which List and Map have no such method for
 * (javac: cannot find symbol); a secret Output of the literal now (pulumi-java's serializer awaits
 * the Outputs inside it). A local holding such a literal, read at a resource's property, is a
 * List<Object> / Map<String, Object> (or an Output of one) that no builder takes (javac: no suitable
 * method): refused at its position. */
static const char *MAP_SCHEMA = "{\"name\":\"mp\",\"version\":\"1.0.0\",\"resources\":{\"mp:index:Res\":{"
                                "\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"],"
                                "\"inputProperties\":{\"text\":{\"type\":\"string\"},\"tags\":{\"type\":"
                                "\"object\",\"additionalProperties\":{\"type\":\"string\"}}}}}}";

START_TEST(test_secret_collection_of_outputs) {
    tu_pcl_t f = tu_pcl_load(MAP_SCHEMA, "mp.json",
                             "resource \"a\" \"mp:index:Res\" {\n    text = \"a\"\n}\n"
                             "output \"m\" {\n    value = secret({ x = a.text, y = \"b\" })\n}\n"
                             "output \"l\" {\n    value = secret([a.text, \"b\"])\n}\n"
                             "output \"s\" {\n    value = secret(a.text)\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"m\", Output.ofSecret(Map.ofEntries(\n");
    tu_has(java, "ctx.export(\"l\", Output.ofSecret(List.of(\n");
    tu_has(java, "ctx.export(\"s\", a.text().asSecret());");
    lacks(java, ").asSecret());\n        ctx.export(\"l\"");
    lacks(java, "\"b\").asSecret()");
    free(java);
    tu_pcl_unload(&f);
    static const char *const locals[] = {"{ x = a.text }", "secret({ x = a.text })"};
    for (size_t i = 0; i < 2; i++) {
        char pcl[512];
        snprintf(pcl, sizeof pcl,
                 "resource \"a\" \"mp:index:Res\" {\n    text = \"a\"\n}\nloc = %s\n"
                 "resource \"b\" \"mp:index:Res\" {\n    tags = loc\n}\n",
                 locals[i]);
        f = tu_pcl_load(MAP_SCHEMA, "mp.json", pcl);
        tu_pcl_emit_refused(&f, LANG_JAVA,
                            "main.pp:6:12: resource 'b': 'tags' reads the local 'loc', a map holding outputs",
                            "write the value there");
        tu_pcl_unload(&f);
    }
    /* written at the property itself, the map is gathered (java_output_all), as before */
    f = tu_pcl_load(MAP_SCHEMA, "mp.json",
                    "resource \"a\" \"mp:index:Res\" {\n    text = \"a\"\n}\n"
                    "resource \"b\" \"mp:index:Res\" {\n    tags = { x = a.text }\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".tags(Output.all(");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pcl_java_compile");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_keyword_package);
    tcase_add_test(tc, test_alias_no_parent);
    tcase_add_test(tc, test_sdk_lacks);
    tcase_add_test(tc, test_read_file_helper);
    tcase_add_test(tc, test_long_string);
    tcase_add_test(tc, test_resource_ref_read);
    tcase_add_test(tc, test_optional_list_getter);
    tcase_add_test(tc, test_multi_argument_invoke);
    tcase_add_test(tc, test_union_values);
    tcase_add_test(tc, test_discriminated_union_values);
    tcase_add_test(tc, test_secret_collection_of_outputs);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* test_pcl_package.c — PCL's package blocks with a parameterization (issue 18): a parameterized
 * package (`package "name" { ..., parameterization { name, version, value } }`, the label left out
 * when the parameterization names it) binds its resources and functions to the schema of the
 * package it is parameterized as, and the emitters import that package's SDK as Pulumi's
 * generators do; Pulumi YAML names its types as any package's and finds the package through the project's package
 * declaration, which cimport warns about (the program file cannot carry it). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/schema.h"
#include "testutil.h"

/* The schema the base provider gives for the parameter ("Goodbye"): a resource named after it. */
static const char *SCHEMA = "{\"name\":\"goodbye\",\"version\":\"2.0.0\","
                            "\"provider\":{\"inputProperties\":{\"text\":{\"type\":\"string\"}}},"
                            "\"resources\":{\"goodbye:index:Goodbye\":{\"properties\":{\"parameterValue\":{\"type\":"
                            "\"string\"}},\"required\":[\"parameterValue\"]}},"
                            "\"parameterization\":{\"baseProvider\":{\"name\":\"parameterized\",\"version\":\"1.2.3\"},"
                            "\"parameter\":\"R29vZGJ5ZQ==\"}}";

static const char *PARAMS = "    parameterization {\n"
                            "        name = \"goodbye\"\n"
                            "        version = \"2.0.0\"\n"
                            "        value = \"R29vZGJ5ZQ==\"\n"
                            "    }\n";

static const char *BODY =
    "resource \"prov\" \"pulumi:providers:goodbye\" {\n    text = \"World\"\n}\n"
    "resource \"res\" \"goodbye:index:Goodbye\" {\n    options {\n        provider = prov\n    }\n}\n"
    "output \"v\" {\n    value = res.parameterValue\n}\n";

static char *program(bool labelled) {
    buf_t b;
    buf_init(&b);
    buf_printf(&b,
               "package %s{\n    baseProviderName = \"parameterized\"\n    baseProviderVersion = \"1.2.3\"\n%s}\n%s",
               labelled ? "\"goodbye\" " : "", PARAMS, BODY);
    return buf_take(&b);
}

START_TEST(test_parameterized_package) {
    for (int labelled = 0; labelled < 2; labelled++) {
        char *text = program(labelled);
        tu_pcl_t f = tu_pcl_load(SCHEMA, "goodbye.json", text);
        ck_assert_str_eq(f.p->nodes[0].name, "goodbye");
        ck_assert_uint_eq(f.p->nodes[0].n_params, 3);
        ck_assert_ptr_nonnull(f.p->nodes[1].schema); /* the provider of the parameterized package */
        char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
        tu_has(ts, "import * as goodbye from \"@pulumi/goodbye\";\n");
        tu_has(ts, "const prov = new goodbye.Provider(\"prov\", {text: \"World\"});\n");
        tu_has(ts, "const res = new goodbye.Goodbye(\"res\", {}, {\n    provider: prov,\n});\n");
        free(ts);
        char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
        tu_has(py, "import pulumi_goodbye as goodbye\n");
        tu_has(py, "pulumi.export(\"v\", res.parameter_value)\n");
        free(py);
        /* printed back with its parameterization, named */
        char *pcl = pcl_print(f.p);
        tu_has(pcl, "package goodbye {\n    baseProviderName = \"parameterized\"\n    baseProviderVersion = \"1.2.3\"\n"
                    "    parameterization {\n        name = \"goodbye\"\n        version = \"2.0.0\"\n"
                    "        value = \"R29vZGJ5ZQ==\"\n    }\n}\n");
        free(pcl);
        diag_list_t d;
        diag_list_init(&d);
        char *y = emit_program(f.p, LANG_YAML, &d);
        ck_assert_ptr_nonnull(y);
        ck_assert_int_eq(d.errors, 0);
        tu_has(y, "resources:\n  prov:\n    type: pulumi:providers:goodbye\n    properties:\n      text: World\n"
                  "  res:\n    type: goodbye:Goodbye\n    options:\n      provider: ${prov}\n");
        ck_assert_ptr_nonnull(d.head);
        tu_has(diag_format(&d, d.head), "package 'goodbye' is parameterized: Pulumi YAML finds its types through "
                                        "the project's package declaration");
        free(y);
        diag_list_free(&d);
        tu_pcl_unload(&f);
        free(text);
    }
}
END_TEST

START_TEST(test_parameterization_errors) {
    tu_pcl_parse_fails("package {\n    baseProviderName = \"x\"\n}\n", "main.pp:1:1: a package block needs a name");
    tu_pcl_parse_fails(
        "package \"a\" {\n    parameterization {\n        name = \"b\"\n        version = \"1.0.0\"\n    }\n}\n",
        "main.pp:1:1: package 'a' is parameterized as 'b'");
    tu_pcl_parse_fails("package \"a\" {\n    parameterization {\n        name = \"a\"\n    }\n}\n",
                       "main.pp:1:1: a package's parameterization needs a name and a version");
    tu_pcl_parse_fails("package \"a\" {\n    parameterization {\n        kind = \"a\"\n    }\n}\n",
                       "main.pp:3:9: parameterization attribute 'kind' is not supported");
    tu_pcl_parse_fails("package \"a\" {\n    parameterization {\n        name = a\n    }\n}\n",
                       "main.pp:3:9: parameterization name must be a string literal");
    tu_pcl_parse_fails("package \"a\" {\n    parameterization {\n    }\n    parameterization {\n    }\n}\n",
                       "main.pp:4:5: a package has only one parameterization block");
    tu_pcl_parse_fails("resource \"r\" \"a:b:C\" {\n    parameterization {\n    }\n}\n",
                       "main.pp:2:5: unsupported block 'parameterization' here");
}
END_TEST

int main(void) {
    Suite *s = suite_create("pcl_package");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_parameterized_package);
    tcase_add_test(tc, test_parameterization_errors);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

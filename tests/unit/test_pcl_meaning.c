/* test_pcl_meaning.c — PCL programs whose written code used to mean something else than the PCL
 * (review read9b, issue 18): each is now written with PCL's meaning or refused with the construct
 * and its position. Programs go through pcl_parse, pcl_bind and emit_program. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "testutil.h"

/* One resource with a number, a string, a bool and a map of strings. */
static const char *SCHEMA =
    "{\"name\":\"m\",\"version\":\"1.0.0\",\"resources\":{\"m:index:R\":{"
    "\"properties\":{\"f\":{\"type\":\"number\"},\"s\":{\"type\":\"string\"},\"b\":{\"type\":\"boolean\"},"
    "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}},"
    "\"inputProperties\":{\"f\":{\"type\":\"number\"},\"s\":{\"type\":\"string\"},\"b\":{\"type\":\"boolean\"},"
    "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}}}}}";

static tu_pcl_t load(const char *pcl) {
    return tu_pcl_load(SCHEMA, "m.json", pcl);
}

static void lacks(const char *text, const char *needle) {
    ck_assert_msg(!strstr(text, needle), "unexpected [%s] in:\n%s", needle, text);
}

/* Go: `7 / 2` of two literals was Go's integer constant division (3); PCL means 3.5. */
START_TEST(test_go_literal_division_is_float) {
    tu_pcl_t f = load("y = 7 / 2\nu = 1 / 3 * 3\nw = (7 + 1) / -2\n"
                      "resource \"r\" \"m:index:R\" {\n    f = 7 / 2\n    s = \"v${9 / 2}\"\n}\n"
                      "output \"oy\" {\n    value = y + u + w\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "y := 7.0 / 2\n");
    tu_has(go, "u := 1.0 / 3 * 3\n");
    tu_has(go, "w := (7.0 + 1.0) / -2\n");
    tu_has(go, "F: pulumi.Float64(7.0 / 2),");
    tu_has(go, "formatNumber(9.0/2)");
    lacks(go, "7 / 2");
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("pcl_meaning");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_go_literal_division_is_float);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

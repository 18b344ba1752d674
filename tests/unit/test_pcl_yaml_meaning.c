/* test_pcl_yaml_meaning.c — PCL programs whose Pulumi YAML used to mean something else than the PCL
 * (review read10b): each is now written so that Pulumi YAML reads PCL's value, or refused with the
 * construct and its position. The YAML is read back with libyaml and then as pulumi-yaml reads a
 * string (its parseInterpolate: `$$` is `$`, `${...}` an interpolation). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/arena.h"
#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "testutil.h"

/* One resource with a number, a string, a bool and maps. */
static const char *SCHEMA = "{\"name\":\"m\",\"version\":\"1.0.0\",\"resources\":{\"m:index:R\":{"
                            "\"properties\":{\"f\":{\"type\":\"number\"},\"i\":{\"type\":\"integer\"},\"s\":{"
                            "\"type\":\"string\"},\"b\":{\"type\":\"boolean\"},"
                            "\"bm\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"boolean\"}},"
                            "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}},"
                            "\"inputProperties\":{\"f\":{\"type\":\"number\"},\"i\":{\"type\":\"integer\"},\"s\":{"
                            "\"type\":\"string\"},\"b\":{\"type\":\"boolean\"},"
                            "\"bm\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"boolean\"}},"
                            "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}}}}}";

static tu_pcl_t load(const char *pcl) {
    return tu_pcl_load(SCHEMA, "m.json", pcl);
}

static void lacks(const char *text, const char *needle) {
    ck_assert_msg(!strstr(text, needle), "unexpected [%s] in:\n%s", needle, text);
}

/* The string pulumi-yaml makes of a scalar's text that holds no interpolation (`$$` is `$`), or
 * NULL when it interpolates (malloc'd). */
static char *pulumi_literal(const char *raw) {
    char *out = malloc(strlen(raw) + 1);
    size_t o = 0;
    for (const char *c = raw; *c;) {
        if (c[0] == '$' && c[1] == '$') {
            out[o++] = '$';
            c += 2;
        } else if (c[0] == '$' && c[1] == '{') {
            free(out);
            return NULL;
        } else {
            out[o++] = *c++;
        }
    }
    out[o] = 0;
    return out;
}

/* The node at `path` ("variables/c/x": mapping keys as pulumi-yaml reads them, "#2" a sequence's third
 * item), or NULL. */
static yaml_node_t *yaml_at(yaml_document_t *doc, const char *path) {
    yaml_node_t *node = yaml_document_get_root_node(doc);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *save = NULL, *k = strtok_r(buf, "/", &save); k && node; k = strtok_r(NULL, "/", &save)) {
        yaml_node_t *next = NULL;
        if (k[0] == '#' && node->type == YAML_SEQUENCE_NODE) {
            long i = strtol(k + 1, NULL, 10);
            yaml_node_item_t *it = node->data.sequence.items.start + i;
            node = i >= 0 && it < node->data.sequence.items.top ? yaml_document_get_node(doc, *it) : NULL;
            continue;
        }
        if (node->type != YAML_MAPPING_NODE) return NULL;
        for (yaml_node_pair_t *pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++) {
            char *key = pulumi_literal((const char *)yaml_document_get_node(doc, pr->key)->data.scalar.value);
            if (key && strcmp(key, k) == 0) next = yaml_document_get_node(doc, pr->value);
            free(key);
        }
        node = next;
    }
    return node;
}

/* The scalar's text at `path` in the YAML (malloc'd), asserting the YAML loads and the node is there;
 * its style in *style when style is not NULL. */
static char *yaml_scalar_style(const char *y, const char *path, yaml_scalar_style_t *style) {
    yaml_parser_t parser;
    yaml_document_t doc;
    ck_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_string(&parser, (const unsigned char *)y, strlen(y));
    ck_assert_msg(yaml_parser_load(&parser, &doc), "libyaml: %s in\n%s", parser.problem, y);
    yaml_node_t *n = yaml_at(&doc, path);
    ck_assert_msg(n && n->type == YAML_SCALAR_NODE, "no scalar at %s in\n%s", path, y);
    char *s = strdup((const char *)n->data.scalar.value);
    if (style) *style = n->data.scalar.style;
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return s;
}

static char *yaml_scalar(const char *y, const char *path) {
    return yaml_scalar_style(y, path, NULL);
}

/* What pulumi-yaml reads at `path` must be the literal string `want`. */
static void reads_string(const char *y, const char *path, const char *want) {
    char *raw = yaml_scalar(y, path);
    char *got = pulumi_literal(raw);
    ck_assert_msg(got && strcmp(got, want) == 0, "%s: pulumi-yaml reads [%s] (text [%s]), PCL means [%s] in\n%s", path,
                  got ? got : "(an interpolation)", raw, want, y);
    free(got);
    free(raw);
}

/* F12: `$$` in a PCL string was written as is, and pulumi-yaml reads `$$` as `$` (in a string of
 * text only as in an interpolated one); a `$` before an interpolation made `$${`, an escape. */
START_TEST(test_dollars_in_strings) {
    tu_pcl_t f = load("config \"name\" \"string\" {}\n"
                      "a = \"echo $$ > /tmp/pid; cost=$$5\"\n"
                      "b = \"pid $$ for ${name}\"\n"
                      "d = \"lone $ end$\"\n"
                      "e = \"price: $${name}\"\n"
                      "resource \"r\" \"m:index:R\" {\n    options {\n        import = \"id$$1\"\n    }\n"
                      "    s = \"x$\"\n}\n"
                      "output \"o\" {\n    value = [a, b, d, e]\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    reads_string(y, "variables/a", "echo $$ > /tmp/pid; cost=$$5");
    reads_string(y, "variables/d", "lone $ end$");
    reads_string(y, "variables/e", "price: ${name}");
    reads_string(y, "resources/r/options/import", "id$$1");
    reads_string(y, "resources/r/properties/s", "x$");
    /* text with an interpolation: every `$` of the text doubled, the reference kept */
    tu_has(y, "b: pid $$$$ for ${name}\n");
    free(y);
    tu_pcl_unload(&f);
    /* a `$` that ends the text before an interpolation */
    f = load("config \"name\" \"string\" {}\nb = \"cost $${name}\"\nc = \"US$${name}\"\n"
             "output \"o\" {\n    value = [b, c]\n}\n");
    y = tu_pcl_emit_ok(&f, LANG_YAML);
    reads_string(y, "variables/b", "cost ${name}");
    free(y);
    tu_pcl_unload(&f);
}
END_TEST

/* F13: an object's keys are expressions in pulumi-yaml (interpolated, `$$` read as `$`), but were
 * written raw: "x${y}" read the variable y, "p$$q" became "p$q". */
START_TEST(test_dollars_in_keys) {
    tu_pcl_t f = load("y = \"Y\"\n"
                      "c = { \"p$$q\" = 1, \"x$${y}\" = 2 }\n"
                      "resource \"r\" \"m:index:R\" {\n    tags = { \"Some $${common} key\" = \"v\" }\n}\n"
                      "resource \"r2\" \"m:index:R\" {\n    options {\n        import = \"x\"\n    }\n}\n"
                      "output \"o\" {\n    value = [c, y]\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    reads_string(y, "variables/c/p$$q", "1");
    reads_string(y, "variables/c/x${y}", "2");
    reads_string(y, "resources/r/properties/tags/Some ${common} key", "v");
    lacks(y, "x${y}");
    free(y);
    tu_pcl_unload(&f);
}
END_TEST

/* A resource's logical name is an expression too (`name:`): "a$$b" was read "a$b". */
START_TEST(test_dollars_in_logical_name) {
    tu_pcl_t f = load("resource \"r\" \"m:index:R\" {\n    __logicalName = \"web$$1\"\n    s = \"x\"\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    reads_string(y, "resources/r/name", "web$$1");
    free(y);
    tu_pcl_unload(&f);
}
END_TEST

/* F20, F5: a template of one reference ("${n}") was written `${n}`, which pulumi-yaml reads as the
 * value itself (a number or bool, not a string); a number in a template printed with Go's %v
 * (1000000 as 1e+06). A number, or a bool alone, is written fn::toJSON of it now (Go's
 * encoding/json writes a number as JavaScript does: 1000000, 1e+21, 1e-7). */
START_TEST(test_template_numbers_and_bools) {
    tu_pcl_t f = load("config \"port\" \"int\" {}\nconfig \"enabled\" \"bool\" {}\nconfig \"f\" \"number\" {}\n"
                      "config \"s\" \"string\" {}\n"
                      "resource \"r\" \"m:index:R\" {\n    s = \"${port}\"\n}\n"
                      "a = toJSON({ port = \"${port}\", enabled = \"${enabled}\" })\n"
                      "n = \"${port}\"\nm = \"${s}\"\n"
                      "t = \"f=${f} i=${r.i} b=${enabled} s=${s}\"\n"
                      "output \"o\" {\n    value = [a, n, m, t]\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "      s:\n        fn::toJSON: ${port}\n");
    tu_has(y, "  a:\n    fn::toJSON:\n      port:\n        fn::toJSON: ${port}\n      enabled:\n        fn::toJSON: "
              "${enabled}\n");
    tu_has(y, "  \"n\":\n    fn::toJSON: ${port}\n");
    tu_has(y, "  m: ${s}\n");
    tu_has(y, "  t:\n    fn::join:\n      - \"\"\n      -\n        - f=\n        - fn::toJSON: ${f}\n"
              "        - \" i=\"\n        - fn::toJSON: ${r.i}\n        - \" b=${enabled} s=${s}\"\n");
    lacks(y, "f=${f}");
    lacks(y, "i=${r.i}");
    free(y);
    tu_pcl_unload(&f);
}
END_TEST

/* F6, F20: a list or map in a template (TypeScript refuses it: PCL converts scalars only) and a
 * value of no type (a number in it would print as 1e+06, and alone it is the value itself, not a
 * string) are refused with their position. */
START_TEST(test_template_refusals) {
    tu_pcl_t f = load("config \"l\" \"list(string)\" {}\nc = \"l=${l}\"\noutput \"o\" {\n    value = c\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML,
                        "2:10: local 'c': 'value' interpolates 'l', a list, map or object, into a string", NULL);
    tu_pcl_unload(&f);
    f = load("config \"l\" \"list(string)\" {}\nc = \"${l}\"\noutput \"o\" {\n    value = c\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "'value' interpolates 'l', a list, map or object, into a string", NULL);
    tu_pcl_unload(&f);
    f = load("config \"a\" \"any\" {}\nc = \"v=${a}\"\nd = \"${a}\"\noutput \"o\" {\n    value = [c, d]\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "2:10: local 'c': 'value' interpolates 'a', a value of no known type",
                        "Pulumi YAML");
    tu_pcl_emit_refused(&f, LANG_YAML, "3:8: local 'd': 'value' interpolates 'a', a value of no known type", NULL);
    tu_pcl_unload(&f);
}
END_TEST

/* F21: a map key in a `${...}` read was escaped as JSON ("a\\b", "n\nl"), but pulumi-yaml's property
 * access knows only \" in a quoted key: it looked up another key and read null. The key is written
 * as it is (its `"` as \"); one ending in a backslash, which no quoted key can hold, is refused. */
START_TEST(test_interpolated_keys_raw) {
    tu_pcl_t f =
        load("resource \"r\" \"m:index:R\" {\n    bm = { \"a\\\\b\" = true, \"n\\nl\" = false, \"q\\\"x\" = true }\n}\n"
             "output \"o1\" {\n    value = r.bm[\"a\\\\b\"]\n}\n"
             "output \"o2\" {\n    value = r.bm[\"n\\nl\"]\n}\n"
             "output \"o3\" {\n    value = \"v=${r.bm[\"q\\\"x\"]}\"\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    char *o1 = yaml_scalar(y, "outputs/o1"), *o2 = yaml_scalar(y, "outputs/o2"), *o3 = yaml_scalar(y, "outputs/o3");
    ck_assert_str_eq(o1, "${r.bm[\"a\\b\"]}");
    ck_assert_str_eq(o2, "${r.bm[\"n\nl\"]}");
    ck_assert_str_eq(o3, "v=${r.bm[\"q\\\"x\"]}");
    free(o1);
    free(o2);
    free(o3);
    free(y);
    tu_pcl_unload(&f);
    f = load("resource \"r\" \"m:index:R\" {\n    bm = { \"e\\\\\" = true }\n}\n"
             "output \"o\" {\n    value = r.bm[\"e\\\\\"]\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "output 'o'", "ends with a backslash");
    tu_pcl_unload(&f);
}
END_TEST

/* F17: "1_000", "0b11" and the like were written plain, and YAML's resolver (yaml.v3's, which
 * pulumi-yaml uses) reads them as the numbers 1000 and 3; F8: U+0085, U+2028, U+2029 were written
 * raw, which YAML reads as line breaks (a C1 control or a BOM inside is no printable character). */
START_TEST(test_scalars_read_back) {
    static const char *const vals[] = {"1_000",    "0b11",        "1_0.5",       "0o17",
                                       "0B1",      "1_",          "<<",          "=",
                                       "x\u2028y", "\xc2\x85",    "k: x\u2029y", "a\xc2\x80\x62", /* a, U+0080, b */
                                       "a\ufeffb", "l1\nl2\u2028"};
    const size_t n = sizeof vals / sizeof *vals;
    buf_t pcl;
    buf_init(&pcl);
    buf_puts(&pcl, "resource \"r\" \"m:index:R\" {\n    tags = {\n");
    for (size_t i = 0; i < n; i++) {
        buf_printf(&pcl, "        k%zu = \"", i);
        for (const char *c = vals[i]; *c; c++)
            if (*c == '\n')
                buf_puts(&pcl, "\\n");
            else
                buf_putc(&pcl, *c);
        buf_puts(&pcl, "\"\n");
    }
    buf_puts(&pcl, "    }\n}\n");
    tu_pcl_t f = load(pcl.data);
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    for (size_t i = 0; i < n; i++) {
        char path[64];
        snprintf(path, sizeof path, "resources/r/properties/tags/k%zu", i);
        yaml_scalar_style_t style;
        char *got = yaml_scalar_style(y, path, &style);
        ck_assert_msg(strcmp(got, vals[i]) == 0, "%s: read back [%s], PCL means [%s] in\n%s", path, got, vals[i], y);
        ck_assert_msg(style != YAML_PLAIN_SCALAR_STYLE || i >= 8, "%s: [%s] written plain in\n%s", path, got, y);
        free(got);
    }
    free(y);
    tu_pcl_unload(&f);
    buf_free(&pcl);
}
END_TEST

/* F24: a one-entry map whose key is a builtin's (`fn::join`, any case) was read by pulumi-yaml as
 * that call, and any key starting with fn:: is reserved; F7: fn::toJSON is Go's json.Marshal,
 * which writes < > & U+2028 U+2029 as \u003c ..., where PCL writes them as they are; F14: a node
 * named pulumi is Pulumi YAML's built-in variable (${pulumi.stack}). All refused with the place. */
START_TEST(test_yaml_reserved_refused) {
    tu_pcl_t f = load("a = { \"fn::join\" = [\",\", [\"a\", \"b\"]] }\nb = { \"Fn::Secret\" = \"x\" }\n"
                      "output \"o\" {\n    value = [a, b]\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "1:5: local 'a'", "the key 'fn::join'");
    tu_pcl_emit_refused(&f, LANG_YAML, "2:5: local 'b'", "the key 'Fn::Secret'");
    tu_pcl_unload(&f);
    f = load("a = toJSON({ b = 1, a = \"x<y & z>\" })\noutput \"o\" {\n    value = a\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "local 'a'", "\"x<y & z>\", which holds < > & or U+2028/U+2029");
    tu_pcl_unload(&f);
    f = load("a = toJSON({ \"<k>\" = 1 })\noutput \"o\" {\n    value = a\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "local 'a'", "\"<k>\", which holds < > & or U+2028/U+2029");
    tu_pcl_unload(&f);
    f = load("config \"pulumi\" \"string\" {}\noutput \"o\" {\n    value = pulumi\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "1:1", "Pulumi YAML's built-in variable");
    tu_pcl_unload(&f);
    /* toJSON of plain strings is written */
    f = load("a = toJSON({ b = 1, a = \"x\" })\noutput \"o\" {\n    value = a\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "fn::toJSON:");
    free(y);
    tu_pcl_unload(&f);
}
END_TEST

/* The number of items of the sequence at `path`, or -1 when there is none. */
static long yaml_seq_len(const char *y, const char *path) {
    yaml_parser_t parser;
    yaml_document_t doc;
    ck_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_string(&parser, (const unsigned char *)y, strlen(y));
    ck_assert_msg(yaml_parser_load(&parser, &doc), "libyaml: %s in\n%s", parser.problem, y);
    yaml_node_t *n = yaml_at(&doc, path);
    long len = n && n->type == YAML_SEQUENCE_NODE ? n->data.sequence.items.top - n->data.sequence.items.start : -1;
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return len;
}

/* Pulumi YAML has no loops: for expressions were refused ("uses a for expression"), though over a
 * literal list or object their value is known when the program is written (l1-for-expression). That
 * value is written now — a map in its keys' order, as HCL goes over it; a for expression over a
 * config value or reading a resource is still refused with its position. */
START_TEST(test_for_over_literals_written_as_values) {
    tu_pcl_t f =
        load("names = [\"alpha\", \"beta\", \"gamma\"]\n"
             "tags = { \"Team\" = \"infra\", \"Environment\" = \"production\", \"Cost\" = \"x$1\" }\n"
             "output \"prefixed\" {\n    value = [for n in names : \"prefix-${n}\"]\n}\n"
             "output \"filtered\" {\n    value = [for n in names : n if n != \"beta\"]\n}\n"
             "output \"indexed\" {\n    value = [for i, n in names : \"${i}:${n}\"]\n}\n"
             "output \"tagList\" {\n    value = [for k, v in tags : \"${k}=${v}\"]\n}\n"
             "output \"prefixedMap\" {\n    value = {for n in names : n => \"prefix-${n}\"}\n}\n"
             "output \"filteredTags\" {\n    value = {for k, v in tags : k => v if k != \"Team\"}\n}\n"
             "output \"nested\" {\n    value = [for n in names : [for m in names : \"${n}${m}\" if m == n]]\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    static const char *const prefixed[] = {"prefix-alpha", "prefix-beta", "prefix-gamma"};
    static const char *const indexed[] = {"0:alpha", "1:beta", "2:gamma"};
    static const char *const tag_list[] = {"Cost=x$1", "Environment=production", "Team=infra"};
    char path[64];
    ck_assert_int_eq(yaml_seq_len(y, "outputs/prefixed"), 3);
    ck_assert_int_eq(yaml_seq_len(y, "outputs/indexed"), 3);
    ck_assert_int_eq(yaml_seq_len(y, "outputs/tagList"), 3);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "outputs/prefixed/#%d", i);
        reads_string(y, path, prefixed[i]);
        snprintf(path, sizeof path, "outputs/indexed/#%d", i);
        reads_string(y, path, indexed[i]);
        snprintf(path, sizeof path, "outputs/tagList/#%d", i);
        reads_string(y, path, tag_list[i]);
        snprintf(path, sizeof path, "outputs/prefixedMap/%s", prefixed[i] + 7);
        reads_string(y, path, prefixed[i]);
    }
    ck_assert_int_eq(yaml_seq_len(y, "outputs/filtered"), 2);
    reads_string(y, "outputs/filtered/#0", "alpha");
    reads_string(y, "outputs/filtered/#1", "gamma");
    reads_string(y, "outputs/filteredTags/Cost", "x$1");
    reads_string(y, "outputs/filteredTags/Environment", "production");
    lacks(strstr(y, "  filteredTags:"), "Team");
    ck_assert_int_eq(yaml_seq_len(y, "outputs/nested/#1"), 1);
    reads_string(y, "outputs/nested/#1/#0", "betabeta");
    free(y);
    tu_pcl_unload(&f);

    f = load("config \"l\" \"list(string)\" {}\nnames = [\"a\"]\n"
             "resource \"r\" \"m:index:R\" {\n    s = \"x\"\n}\n"
             "output \"o\" {\n    value = [for n in l : n]\n}\n"
             "output \"p\" {\n    value = [for n in names : r.s]\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "7:13: output 'o'", "uses a for expression");
    tu_pcl_emit_refused(&f, LANG_YAML, "10:13: output 'p'", "uses a for expression");
    tu_pcl_unload(&f);
}
END_TEST

/* Operators, conditionals, max() and min() were refused in YAML even over literals (l1-expand-final's
 * max([1, 2, 3]...)). Their value is written where it is certain: the same under HCL's numbers
 * (arbitrary precision) and strings (NFC) as under the generated programs' float64 — integers within
 * 2^53 with exact results, ASCII strings, a conditional whose results are of one kind. Anything else
 * is still refused with its position. */
START_TEST(test_operators_over_literals_written_as_values) {
    tu_pcl_t f = load("a = 1 + 2 * 3\nb = max([1, 5, 3]...)\nc = min(4, 2)\nd = !false && true\n"
                      "e = \"x\" == \"x\" ? \"same\" : \"other\"\ng = 7 / 2\nh = 10 % 3\ni = -(2 - 5)\n"
                      "j = a > 6 ? \"${a}-${b}\" : null\nk = [[1, 2], [3]][0][1] == 2\n"
                      "resource \"r\" \"m:index:R\" {\n    i = a + 1\n    f = max(a, b)\n    b = e != \"same\"\n}\n"
                      "output \"o\" {\n    value = [a, b, c, d, e, g, h, i, j, k]\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    static const struct {
        const char *path, *text;
    } want[] = {{"variables/a", "7"},
                {"variables/b", "5"},
                {"variables/c", "2"},
                {"variables/d", "true"},
                {"variables/e", "same"},
                {"variables/g", "3.5"},
                {"variables/h", "1"},
                {"variables/i", "3"},
                {"variables/j", "7-5"},
                {"variables/k", "true"},
                {"resources/r/properties/i", "8"},
                {"resources/r/properties/f", "7"},
                {"resources/r/properties/b", "false"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        yaml_scalar_style_t style;
        char *got = yaml_scalar_style(y, want[i].path, &style);
        ck_assert_msg(strcmp(got, want[i].text) == 0, "%s: [%s], want [%s] in\n%s", want[i].path, got, want[i].text, y);
        /* a number or bool as one: plain; the strings e and j quoted or plain, but strings */
        ck_assert_msg(style == YAML_PLAIN_SCALAR_STYLE || i == 4 || i == 8, "%s quoted in\n%s", want[i].path, y);
        free(got);
    }
    free(y);
    tu_pcl_unload(&f);

    /* not certain: inexact or too large numbers, a config value, results of two kinds (HCL unifies
     * them: 1 becomes "1"), strings NFC may make equal, a remainder of a negative number */
    f = load("config \"n\" \"int\" {}\n"
             "a = 0.1 + 0.2\nb = n + 1\nc = true ? 1 : \"a\"\nd = \"\\u00e9\" == \"e\\u0301\"\n"
             "e = 9007199254740991 + 1\ng = 1 / 3\nh = -7 % 3\ni = max(n, 2)\nj = \"${0.5 + 1}\"\n"
             "output \"o\" {\n    value = [a, b, c, d, e, g, h, i, j]\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "2:9: local 'a'", "the operator '+'");
    tu_pcl_emit_refused(&f, LANG_YAML, "3:7: local 'b'", "the operator '+'");
    tu_pcl_emit_refused(&f, LANG_YAML, "4:10: local 'c'", "a conditional");
    tu_pcl_emit_refused(&f, LANG_YAML, "5:14: local 'd'", "the operator '=='");
    tu_pcl_emit_refused(&f, LANG_YAML, "6:22: local 'e'", "the operator '+'");
    tu_pcl_emit_refused(&f, LANG_YAML, "7:7: local 'g'", "the operator '/'");
    tu_pcl_emit_refused(&f, LANG_YAML, "8:8: local 'h'", "the operator '%'");
    tu_pcl_emit_refused(&f, LANG_YAML, "9:5: local 'i'", "max()");
    tu_pcl_emit_refused(&f, LANG_YAML, "10:12: local 'j'", "the operator '+'");
    tu_pcl_unload(&f);

    /* literals a float64 cannot hold (HCL reads the text exactly): 2^53 + 1 is not 2^53, and
     * 1.0000000000000001 is not 1 (read12c F2: written false, true and 2) */
    f = load("a = 9007199254740993 > 9007199254740992\nb = 1.0000000000000001 == 1\nc = 1.0000000000000001 + 1\n"
             "output \"o\" {\n    value = [a, b, c]\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "1:22: local 'a'", "the operator '>'");
    tu_pcl_emit_refused(&f, LANG_YAML, "2:24: local 'b'", "the operator '=='");
    tu_pcl_emit_refused(&f, LANG_YAML, "3:24: local 'c'", "the operator '+'");
    tu_pcl_unload(&f);
}
END_TEST

/* The name the first `${...}` of a scalar's text reads from, as pulumi-yaml's property access parses
 * it (ast/property.go): a name up to `.`, `[` or `}`, or a quoted key `["..."]` (\" a quote); the text
 * before it in *prefix (malloc'd both). */
static char *interpolation_root(const char *text, char **prefix) {
    const char *at = strstr(text, "${");
    ck_assert_msg(at, "no interpolation in [%s]", text);
    *prefix = strndup(text, (size_t)(at - text));
    const char *c = at + 2;
    buf_t b;
    buf_init(&b);
    if (c[0] == '[' && c[1] == '"') {
        for (c += 2; *c && *c != '"'; c++) {
            if (c[0] == '\\' && c[1] == '"') c++;
            buf_putc(&b, *c);
        }
    } else {
        for (; *c && !strchr(".[}", *c); c++)
            buf_putc(&b, *c);
    }
    return buf_take(&b);
}

/* A config key holding `.`, `[` or `}` (`__logicalName = "bucket.name"`) was written into `${...}` as
 * it is: pulumi-yaml read `${bucket.name}` as the resource bucket's output `name`, and `${a}b}` as the
 * name `a` then the text `b}`. Such a name is written as the quoted key pulumi-yaml's grammar takes for
 * a root, `${["bucket.name"]}`; one that ends with a backslash (which would escape the closing quote)
 * is refused. */
START_TEST(test_config_key_roots_quoted) {
    tu_pcl_t f = load("config \"v\" \"string\" {\n    __logicalName = \"bucket.name\"\n}\n"
                      "config \"w\" \"string\" {\n    __logicalName = \"a}b[\\\"q\\\"]\"\n}\n"
                      "resource \"bucket\" \"m:index:R\" {\n    s = \"x\"\n}\n"
                      "resource \"other\" \"m:index:R\" {\n    s = v\n    tags = { k = \"w=${w}\" }\n}\n"
                      "output \"o\" {\n    value = v\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    static const struct {
        const char *path, *prefix, *root;
    } want[] = {{"resources/other/properties/s", "", "bucket.name"},
                {"outputs/o", "", "bucket.name"},
                {"resources/other/properties/tags/k", "w=", "a}b[\"q\"]"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *text = yaml_scalar(y, want[i].path), *prefix;
        char *root = interpolation_root(text, &prefix);
        ck_assert_msg(strcmp(root, want[i].root) == 0 && strcmp(prefix, want[i].prefix) == 0,
                      "%s: pulumi-yaml reads the name [%s] after [%s] in [%s], PCL means [%s] in\n%s", want[i].path,
                      root, prefix, text, want[i].root, y);
        free(root);
        free(prefix);
        free(text);
    }
    free(y);
    tu_pcl_unload(&f);
    f = load("config \"v\" \"string\" {\n    __logicalName = \"a.b\\\\\"\n}\noutput \"o\" {\n    value = v\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "1:1: config 'v'", "ends with a backslash");
    tu_pcl_unload(&f);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("pcl_yaml_meaning");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_dollars_in_strings);
    tcase_add_test(tc, test_dollars_in_keys);
    tcase_add_test(tc, test_dollars_in_logical_name);
    tcase_add_test(tc, test_template_numbers_and_bools);
    tcase_add_test(tc, test_template_refusals);
    tcase_add_test(tc, test_interpolated_keys_raw);
    tcase_add_test(tc, test_scalars_read_back);
    tcase_add_test(tc, test_yaml_reserved_refused);
    tcase_add_test(tc, test_for_over_literals_written_as_values);
    tcase_add_test(tc, test_operators_over_literals_written_as_values);
    tcase_add_test(tc, test_config_key_roots_quoted);
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

/* test_pcl_meaning.c — PCL programs whose written code used to mean something else than the PCL
 * (review read9b, issue 18): each is now written with PCL's meaning or refused with the construct
 * and its position. Programs go through pcl_parse, pcl_bind and emit_program. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "testutil.h"

/* One resource with a number, a string, a bool and a map of strings (and, as inputs only, an integer and a
 * list of numbers); one function giving a map of strings. */
static const char *SCHEMA =
    "{\"name\":\"m\",\"version\":\"1.0.0\",\"resources\":{\"m:index:R\":{"
    "\"properties\":{\"f\":{\"type\":\"number\"},\"float\":{\"type\":\"number\"},\"s\":{"
    "\"type\":\"string\"},\"b\":{\"type\":\"boolean\"},"
    "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}},"
    "\"inputProperties\":{\"f\":{\"type\":\"number\"},\"float\":{\"type\":\"number\"},\"s\":{"
    "\"type\":\"string\"},\"b\":{\"type\":\"boolean\"},\"i\":{\"type\":\"integer\"},"
    "\"ns\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}},"
    "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}}}},"
    "\"functions\":{\"m:index:get\":{\"inputs\":{\"properties\":{}},\"outputs\":{\"properties\":{"
    "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}}}}}}";

static tu_pcl_t load(const char *pcl) {
    return tu_pcl_load(SCHEMA, "m.json", pcl);
}

static void lacks(const char *text, const char *needle) {
    ck_assert_msg(!strstr(text, needle), "unexpected [%s] in:\n%s", needle, text);
}

/* Runs prog with `interp` (python3, node, go run) from a temporary file named *.ext and returns its
 * standard output (malloc'd); asserts that it exits 0. */
static char *run_program(const char *interp, const char *ext, const char *prog) {
    char name[32], cmd[640];
    snprintf(name, sizeof name, "main.%s", ext);
    snprintf(cmd, sizeof cmd, "%s %s", interp, name);
    int status = 0;
    char *out = tu_run_source(name, prog, cmd, &status);
    ck_assert_msg(status == 0, "%s failed (%d):\n%s\n--- program:\n%s", interp, status, out, prog);
    return out;
}

/* Compiles and runs a Java class (javac against tests/peers/java, then java, UTF-8 throughout); its
 * output (malloc'd). */
static char *run_java(const char *cls, const char *src) {
    char file[64], cmd[1024];
    snprintf(file, sizeof file, "%s.java", cls);
    snprintf(cmd, sizeof cmd,
             "javac -nowarn -encoding UTF-8 -sourcepath '" SOURCE_DIR "/tests/peers/java' -d . %s && "
             "java -Dfile.encoding=UTF-8 -cp . %s",
             file, cls);
    int status = -1;
    char *out = tu_run_source(file, src, cmd, &status);
    ck_assert_msg(status == 0 && out, "javac/java failed:\n%s\n(program:\n%s)", out ? out : "", src);
    return out;
}

/* The text of `text` from the start of `from` up to (not including) `to` after it (malloc'd). */
static char *cut(const char *text, const char *from, const char *to) {
    const char *a = strstr(text, from);
    ck_assert_msg(a != NULL, "no [%s] in:\n%s", from, text);
    const char *z = strstr(a + strlen(from), to);
    ck_assert_msg(z != NULL, "no [%s] after [%s] in:\n%s", to, from, text);
    size_t n = (size_t)(z - a);
    char *r = malloc(n + 1);
    memcpy(r, a, n);
    r[n] = 0;
    return r;
}

/* Runs the written Python program py with python3, its text up to and including `header` (its
 * imports) replaced by `stub` (stand-ins of the SDK and the packages); its output (malloc'd). */
static char *run_python_stubbed(const char *py, const char *header, const char *stub) {
    const char *body = strstr(py, header);
    ck_assert_msg(body != NULL, "no [%s] in:\n%s", header, py);
    buf_t prog;
    buf_init(&prog);
    buf_puts(&prog, stub);
    buf_puts(&prog, body + strlen(header));
    char *out = run_program("python3", "py", prog.data);
    buf_free(&prog);
    return out;
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

/* Python: a bool or a number in a template printed Python's text (True, 2.0, 1e-07); PCL prints
 * true, 2, 1e-7 as JavaScript does. The written format_value() is run over such values. */
START_TEST(test_python_template_prints_as_pcl) {
    tu_pcl_t f = load("config \"b\" \"bool\" {}\nconfig \"n\" \"number\" {}\nconfig \"i\" \"int\" {}\n"
                      "config \"s\" \"string\" {}\n"
                      "t = \"b=${b} n=${n} k=${true} f=${1.5 * 2} i=${i} s=${s}\"\n"
                      "resource \"r\" \"m:index:R\" {\n    s = \"web-${n}\"\n}\n"
                      "output \"o\" {\n    value = \"pb=${r.b} pf=${r.f} ps=${r.s}\"\n}\n"
                      "output \"t\" {\n    value = t\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "t = f\"b={format_value(b)} n={format_value(n)} k={format_value(True)} f={format_value(1.5 * 2)} "
               "i={i} s={s}\"\n");
    tu_has(py, "s=f\"web-{format_value(n)}\"");
    tu_has(py, "format_value(resolved_outputs['b'])");
    tu_has(py, "format_value(resolved_outputs['f'])");
    tu_has(py, "str(resolved_outputs['s'])");
    tu_has(py, "def format_value(v):\n");
    /* the helper prints as JavaScript's String(x) */
    const char *def = strstr(py, "def format_value(v):\n");
    const char *end = strstr(def, "\n\n\n");
    static char prog[8192];
    ck_assert(end != NULL);
    ck_assert(snprintf(prog, sizeof prog,
                       "%.*s\nprint(' '.join(format_value(v) for v in [True, False, 2.0, 2, 1.5, 0.1, 1e21, 1e20, "
                       "1e-6, 1e-7, 1.5e-7, -0.0, -2.5, 123456.789e3, 5e-324, float('inf')]))\n",
                       (int)(end - def), def) < (int)sizeof prog);
    char path[] = "/tmp/fmtXXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    ck_assert(tu_write(path, prog));
    char cmd[64];
    snprintf(cmd, sizeof cmd, "python3 %s", path);
    int status = 0;
    char *out = tu_run(cmd, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(out, "true false 2 2 1.5 0.1 1e+21 100000000000000000000 0.000001 1e-7 1.5e-7 0 -2.5 123456789 "
                          "5e-324 Infinity\n");
    unlink(path);
    free(out);
    free(py);
    tu_pcl_unload(&f);
    /* a number config where the schema wants a string: str(8080.0) is "8080.0", PCL's "8080" */
    f = load("config \"port\" \"number\" {}\nconfig \"sp\" \"number\" {\n    secret = true\n}\n"
             "resource \"r\" \"m:index:R\" {\n    s = port\n}\nresource \"q\" \"m:index:R\" {\n    s = sp\n}\n");
    py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "r = m.R(\"r\", s=format_value(port))\n");
    tu_has(py, "q = m.R(\"q\", s=sp.apply(lambda x: format_value(x)))\n");
    tu_has(py, "def format_value(v):\n");
    lacks(py, "str(port)");
    free(py);
    tu_pcl_unload(&f);
    /* no template value: no helper, and the name stays the user's */
    f = load("config \"format_value\" \"string\" {}\noutput \"o\" {\n    value = format_value\n}\n");
    py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    lacks(py, "def format_value");
    tu_has(py, "format_value = config.require(\"format_value\")");
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* Python: readFile, filebase64 and filebase64sha256 read the file in text mode (the locale's
 * decoding, \r\n as \n: other base64 and sha256, a binary file raised UnicodeDecodeError). */
START_TEST(test_python_reads_file_bytes) {
    tu_pcl_t f = load("a = readFile(\"./a.txt\")\nb = filebase64(\"./a.bin\")\nh = filebase64sha256(\"./a.bin\")\n"
                      "output \"o\" {\n    value = [a, b, h]\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "a = (lambda path: open(path, encoding=\"utf-8\", newline=\"\").read())(\"./a.txt\")\n");
    tu_has(py, "b = (lambda path: base64.b64encode(open(path, \"rb\").read()).decode())(\"./a.bin\")\n");
    tu_has(py, "\tfileData = open(path, \"rb\").read()\n");
    lacks(py, ".encode()");
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* toJSON writes PCL's JSON: compact, non-ASCII kept, no HTML escaping. Python's json.dumps put
 * spaces after , and : and escaped é; Go's json.Marshal wrote < > & as \u003c \u003e \u0026. */
START_TEST(test_to_json_as_pcl) {
    tu_pcl_t f = load("config \"s\" \"string\" {}\n"
                      "j = toJSON({ a = \"\u00e9<b>&${s}\", n = [1, 2.5] })\n"
                      "resource \"r\" \"m:index:R\" {\n    s = \"x\"\n}\n"
                      "k = toJSON({ a = r.s })\n"
                      "output \"o\" {\n    value = [j, k]\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "j = json.dumps({\n");
    tu_has(py, "}, separators=(\",\", \":\"), ensure_ascii=False)\n");
    tu_has(py, "k = pulumi.Output.json_dumps({\n");
    free(py);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "tmpJSON0, err := marshalJSON(map[string]interface{}{");
    tu_has(go, "func marshalJSON(v interface{}) ([]byte, error) {\n");
    tu_has(go, "\tenc.SetEscapeHTML(false)\n");
    lacks(go, "json.Marshal(");
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

/* Python: the items of plain data (a config list of objects: dicts) were read with .attr by a splat
 * or a for expression (AttributeError); a splat of a map or a string went over its keys or
 * characters where PCL makes it a one-item list. */
START_TEST(test_python_plain_items_by_key) {
    tu_pcl_t f = load("config \"la\" \"list(map(string))\" {}\n"
                      "x = la[*].name\ny = [for v in la : v.name]\nz = [for v in la : [for w in [v] : w.name]]\n"
                      "output \"o\" {\n    value = [x, y, z]\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "x = [__item[\"name\"] for __item in la]\n");
    tu_has(py, "y = [v[\"name\"] for v in la]\n");
    lacks(py, ".name");
    free(py);
    tu_pcl_unload(&f);
    f = load("config \"m\" \"map(string)\" {}\nconfig \"s\" \"string\" {}\n"
             "x = m[*]\nz = s[*]\noutput \"o\" {\n    value = [x, z]\n}\n");
    tu_pcl_emit_refused(&f, LANG_PYTHON, "3:6: a splat ([*]) of a value that is not a list", NULL);
    tu_pcl_emit_refused(&f, LANG_PYTHON, "4:6: a splat ([*]) of a value that is not a list", NULL);
    tu_pcl_unload(&f);
}
END_TEST

/* TypeScript and Python: a config value, local or apply parameter named like a builtin the emitted
 * code calls (float, len, str, Object, JSON) hid it: float(2) called a number, JSON.stringify a
 * string. Those names are taken like the helpers'. */
START_TEST(test_builtin_names_taken) {
    tu_pcl_t f = load("config \"float\" \"number\" {}\nconfig \"len\" \"map(string)\" {}\n"
                      "config \"Object\" \"map(string)\" {}\nconfig \"JSON\" \"string\" {}\nconfig \"a\" \"any\" {}\n"
                      "resource \"r\" \"m:index:R\" {\n    f = 2\n}\n"
                      "x = [for k, v in len : \"${k}${v}\"]\nb = length(len)\nd = toJSON([\"x\"])\n"
                      "e = r.float + a\n"
                      "output \"o\" {\n    value = [x, b, d, float, Object, JSON, e]\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "f=float(2)");
    lacks(py, "\nfloat = ");
    lacks(py, "\nlen = ");
    lacks(py, "lambda float:");
    free(py);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "JSON.stringify(");
    lacks(ts, "const Object = ");
    lacks(ts, "const JSON = ");
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* Python: an apply's parameter is named after the output it holds, as Pulumi's generator names it,
 * also where that is a builtin's name (`lambda float: "null" if float is None else ...`); only where
 * the lambda's body calls that builtin does it take another (`lambda float_1: float_1 + float(a)`,
 * read9b #4). */
START_TEST(test_py_apply_parameter_named_as_builtin) {
    tu_pcl_t f = load("config \"a\" \"any\" {}\nresource \"r\" \"m:index:R\" {\n    f = 2\n}\n"
                      "e = r.float + a\n"
                      "output \"o\" {\n    value = e\n}\n"
                      "output \"u\" {\n    value = r.float == null ? \"null\" : \"not null\"\n}\n"
                      "output \"w\" {\n    value = \"${r.float}\"\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "e = r.float.apply(lambda float_1: float_1 + float(a))\n");
    tu_has(py, "pulumi.export(\"u\", r.float.apply(lambda float: \"null\" if float is None else \"not null\"))\n");
    tu_has(py, "pulumi.export(\"w\", r.float.apply(lambda float: f\"{format_value(float)}\"))\n");
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* Python's "".split raised on an empty separator (PCL gives the characters); TypeScript's
 * Object.entries(m).sort() ordered the entries by their "k,v" text ("a b" before "a"), and a
 * "__proto__" key set the prototype (the key vanished). */
START_TEST(test_split_sort_proto) {
    tu_pcl_t f = load("config \"s\" \"string\" {}\nconfig \"mm\" \"map(string)\" {}\n"
                      "a = split(\"\", s)\nks = [for k, v in mm : k]\n"
                      "o = { \"__proto__\" = \"p\", \"constructor\" = \"c\" }\n"
                      "resource \"r\" \"m:index:R\" {\n    tags = { \"__proto__\" = \"x\" }\n}\n"
                      "output \"o\" {\n    value = [a, ks, o]\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "a = list(s)\n");
    free(py);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "Object.entries(mm).sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))).map(");
    tu_has(ts, "[\"__proto__\"]: \"p\"");
    tu_has(ts, "[\"__proto__\"]: \"x\"");
    lacks(ts, ".sort()");
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* split() whose separator is "" gives the string's characters (code points, as Go's strings.Split):
 * Python's str.split raised ValueError on a separator known only at run time; TypeScript's
 * "".split and Java's String.split("") cut an emoji into its UTF-16 halves, C#'s Split("")
 * returned the whole string; Java's split() also dropped trailing empty strings ("a,," gave [a]). */
START_TEST(test_split_characters) {
    tu_pcl_t f = load("config \"sep\" \"string\" {}\nconfig \"s\" \"string\" {}\n"
                      "a = split(sep, s)\nb = split(\"\", s)\nc = split(\",\", s)\n"
                      "output \"o\" {\n    value = [a, b, c]\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    char *pa = cut(py, "a = ", "\n"), *pb = cut(py, "b = ", "\n");
    char prog[4096];
    snprintf(prog, sizeof prog,
             "for sep, s in [('', 'a\\U0001F600b'), ('-', 'a-b--'), ('', '')]:\n    %s\n    %s\n    print(a, b)\n", pa,
             pb);
    char *out = run_program("python3", "py", prog);
    ck_assert_str_eq(out, "['a', '\U0001F600', 'b'] ['a', '\U0001F600', 'b']\n"
                          "['a', 'b', '', ''] ['a', '-', 'b', '-', '-']\n[] []\n");
    free(out);
    free(pa);
    free(pb);
    free(py);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    char *ta = cut(ts, "const a = ", "\n"), *tb = cut(ts, "const b = ", "\n");
    snprintf(prog, sizeof prog,
             "for (const [sep, s] of [['', 'a\\u{1F600}b'], ['-', 'a-b--'], ['', '']]) {\n    %s\n    %s\n"
             "    console.log(JSON.stringify([a, b]));\n}\n",
             ta, tb);
    out = run_program("node", "js", prog);
    ck_assert_str_eq(out, "[[\"a\",\"\U0001F600\",\"b\"],[\"a\",\"\U0001F600\",\"b\"]]\n"
                          "[[\"a\",\"b\",\"\",\"\"],[\"a\",\"-\",\"b\",\"-\",\"-\"]]\n[[],[]]\n");
    free(out);
    free(ta);
    free(tb);
    free(ts);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var b = s.EnumerateRunes().Select(__rune => __rune.ToString()).ToArray();");
    tu_has(cs, "var c = s.Split(\",\");");
    tu_has(cs,
           "var a = (sep == \"\" ? s.EnumerateRunes().Select(__rune => __rune.ToString()).ToArray() : s.Split(sep));");
    free(cs);
    tu_pcl_unload(&f);
    f = load("config \"s\" \"string\" {}\nc = split(\",\", s)\noutput \"o\" {\n    value = c\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "s.split(\",\", -1)");
    free(java);
    tu_pcl_unload(&f);
    f = load("config \"s\" \"string\" {}\nb = split(\"\", s)\noutput \"o\" {\n    value = b\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "2:5: local 'b': 'value' calls split() with a separator that is \"\" or not",
                        NULL);
    tu_pcl_unload(&f);
}
END_TEST

/* Python: toJSON of a number config wrote json.dumps(n), which prints 2.0 for a float (PCL, Go and
 * TypeScript print 2) and 1e-07 for 1e-7; it goes through to_json(), which prints numbers as
 * format_value() does. Values that hold no float keep json.dumps. */
START_TEST(test_python_to_json_numbers) {
    tu_pcl_t f = load("config \"n\" \"number\" {}\nconfig \"s\" \"string\" {}\n"
                      "resource \"r\" \"m:index:R\" {\n    s = \"x\"\n}\n"
                      "j = toJSON({ a = n, b = [1.5, n] })\nk = toJSON(s)\nl = toJSON({ f = r.f })\n"
                      "output \"o\" {\n    value = [j, k, l]\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "j = to_json({\n");
    tu_has(py, "k = json.dumps(s, separators=(\",\", \":\"), ensure_ascii=False)\n");
    tu_has(py, "l = pulumi.Output.from_input({\n");
    tu_has(py, "}).apply(to_json)\n");
    char *fv = cut(py, "def format_value(v):\n", "\n\n\n"), *tj = cut(py, "def to_json(v):\n", "\n\n\n");
    char prog[8192];
    snprintf(prog, sizeof prog,
             "import json\n%s\n%s\nprint(to_json({'a': 2.0, 'b': [1e-7, 1.5, 1e21, -3, True, None, 'é\"<'], "
             "'c': {}}))\n",
             fv, tj);
    char *out = run_program("python3", "py", prog);
    ck_assert_str_eq(out, "{\"a\":2,\"b\":[1e-7,1.5,1e+21,-3,true,null,\"é\\\"<\"],\"c\":{}}\n");
    free(out);
    free(fv);
    free(tj);
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* TypeScript: map keys sorted by UTF-16 code units put U+1F600 (a surrogate pair, 0xD83D...)
 * before U+FFFD; PCL (Go's sort.Strings, Python's sorted) orders by code points. */
START_TEST(test_typescript_keys_by_code_point) {
    tu_pcl_t f = load("config \"mm\" \"map(string)\" {}\nks = [for k, v in mm : k]\ne = entries(mm)\n"
                      "output \"o\" {\n    value = [ks, e]\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    char *ks = cut(ts, "const ks = ", "\n"), *e = cut(ts, "const e = ", "\n");
    char prog[4096];
    snprintf(prog, sizeof prog,
             "const mm = {'\\u{1F600}': '1', '\\uFFFD': '2', 'b': '3', 'a b': '4', 'a': '5'};\n%s\n%s\n"
             "console.log(JSON.stringify(ks), JSON.stringify(e.map(x => x.key)));\n",
             ks, e);
    char *out = run_program("node", "js", prog);
    ck_assert_str_eq(
        out, "[\"a\",\"a b\",\"b\",\"\uFFFD\",\"\U0001F600\"] [\"a\",\"a b\",\"b\",\"\uFFFD\",\"\U0001F600\"]\n");
    free(out);
    free(ks);
    free(e);
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* C# and Java: a map's entries (entries(), a for expression over it) were sorted by UTF-16 code units
 * (StringComparer.Ordinal, String.compareTo), which put U+1F600 (0xD83D...) before U+FFFD; PCL orders
 * keys by code point. Java's line is run; C#'s compares by a CompareCodePoints helper. */
START_TEST(test_cs_java_keys_by_code_point) {
    tu_pcl_t f = load("config \"mm\" \"map(string)\" {}\nks = [for k, v in mm : k]\ne = entries(mm)\n"
                      "output \"o\" {\n    value = [ks, e]\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    lacks(java, "comparingByKey()");
    char *ks = cut(java, "final var ks = ", "\n"), *e = cut(java, "final var e = ", "\n");
    char prog[4096];
    snprintf(
        prog, sizeof prog,
        "import java.util.*;\nimport java.util.stream.*;\n\npublic class K {\n"
        "    public static void main(String[] args) {\n        var mm = new HashMap<String, String>();\n"
        "        for (var k : new String[] {\"\\uD83D\\uDE00\", \"\\uFFFD\", \"b\", \"a b\", \"a\"}) {\n"
        "            mm.put(k, k);\n        }\n        %s\n        %s\n"
        "        System.out.println(ks + \" \" + e.stream().map(x -> x.get(\"key\")).collect(Collectors.toList()));\n"
        "    }\n}\n",
        ks, e);
    char *out = run_java("K", prog);
    ck_assert_str_eq(out, "[a, a b, b, \uFFFD, \U0001F600] [a, a b, b, \uFFFD, \U0001F600]\n");
    free(out);
    free(ks);
    free(e);
    free(java);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    lacks(cs, "StringComparer.Ordinal");
    tu_has(cs, "var ks = mm.OrderBy(k => k.Key, Comparer<string>.Create(CompareCodePoints))");
    tu_has(cs, "var e = mm.OrderBy(kv => kv.Key, Comparer<string>.Create(CompareCodePoints))");
    tu_has(cs, "int CompareCodePoints(string? a, string? b)\n");
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

/* length() of a string counts extended grapheme clusters (PCL's, go-cty's: Unicode 15.0's rules).
 * Python's and Go's helpers took a combining mark or anything after a zero-width joiner into the
 * character before and counted the rest: two flags were 4, a skin tone 2, CRLF 2, conjoining Hangul
 * jamo 3, "a\u200db" 1; pulumi-java's Strings.length, which Java wrote, approximates them the same way.
 * Each helper is run over the same strings. */
static const char *const GRAPHEME_CASES =
    "\"\", \"abc\", \"e\\u0301\", \"\\U0001F1E9\\U0001F1EA\\U0001F1EB\\U0001F1F7\", "
    "\"\\U0001F1E9\\U0001F1EA\\U0001F1EB\", "
    "\"\\U0001F44D\\U0001F3FD\", \"\\r\\n\", \"\\n\\r\", \"\\ud55c\\uad6d\\uc5b4\", \"\\u1100\\u1161\\u11a8\", "
    "\"\\U0001F468\\u200d\\U0001F469\\u200d\\U0001F467\", \"a\\u200db\", \"\\U0001F3F3\\ufe0f\\u200d\\U0001F308\", "
    "\"\\u0600a\", \"\\u0915\\u093f\", \"\\u0e01\\u0e33\", \"a\\u00adb\", \"\\u0301\\u0301a\", \"a\\r\\n\\u0301\", "
    "\"\\U0001F1E6\\u0301\\U0001F1E6\", \"\\U0001F600\\u0301\\u200d\\U0001F600\", \"\\u00e9\\u200d\\U0001F600\"";
static const char *const GRAPHEME_COUNTS = "0 3 1 2 2 1 1 2 3 1 1 2 1 1 1 1 3 2 3 2 1 2\n";

START_TEST(test_grapheme_length) {
    tu_pcl_t f = load("config \"s\" \"string\" {}\nn = length(s)\noutput \"o\" {\n    value = n\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "n = grapheme_length(s)\n");
    char *fn = cut(py, "def grapheme_length(s):\n", "\n\n\n");
    char prog[32768];
    snprintf(prog, sizeof prog, "import unicodedata\n%s\nprint(' '.join(str(grapheme_length(s)) for s in [%s]))\n", fn,
             GRAPHEME_CASES);
    char *out = run_program("python3", "py", prog);
    ck_assert_str_eq(out, GRAPHEME_COUNTS);
    free(out);
    free(fn);
    free(py);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "n := graphemeLength(s)\n");
    fn = cut(go, "func graphemeLength(s string) int {\n", "\n}\n");
    /* Go's string literals take \U0001F1E9 and \u0301 as Python's do */
    snprintf(prog, sizeof prog,
             "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\t\"unicode\"\n)\n\n%s\n}\n\nfunc main() {\n"
             "\tvar counts []string\n\tfor _, s := range []string{%s} {\n"
             "\t\tcounts = append(counts, fmt.Sprint(graphemeLength(s)))\n\t}\n"
             "\tfmt.Println(strings.Join(counts, \" \"))\n\tvar _ = unicode.Mn\n}\n",
             fn, GRAPHEME_CASES);
    out = run_program("HOME=${HOME:-/tmp} go run", "go", prog);
    ck_assert_str_eq(out, GRAPHEME_COUNTS);
    free(out);
    free(fn);
    free(go);
    /* Java: pulumi-java's Strings.length skipped combining marks and the code point after a joiner */
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "final var n = graphemeLength(s);\n");
    lacks(java, "Strings.length(");
    char *helpers = cut(java, "\n    private static ", "\n    public static void stack(");
    buf_t cases; /* Java's literals know \uXXXX only: a \U0001XXXX is written as its surrogate pair */
    buf_init(&cases);
    for (const char *c = GRAPHEME_CASES; *c; c++) {
        if (c[0] == '\\' && c[1] == 'U') {
            unsigned long cp = strtoul((char[]){c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], 0}, NULL, 16) - 0x10000;
            buf_printf(&cases, "\\u%04lX\\u%04lX", 0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF));
            c += 9;
        } else {
            buf_putc(&cases, *c);
        }
    }
    snprintf(prog, sizeof prog,
             "public class J {\n    public static void main(String[] args) {\n        var counts = new "
             "java.util.ArrayList<String>();\n        for (var s : new String[] {%s}) {\n"
             "            counts.add(String.valueOf(graphemeLength(s)));\n        }\n"
             "        System.out.println(String.join(\" \", counts));\n    }\n%s}\n",
             cases.data, helpers);
    out = run_java("J", prog);
    ck_assert_str_eq(out, GRAPHEME_COUNTS);
    free(out);
    buf_free(&cases);
    free(helpers);
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* Go: ints added, subtracted or multiplied were Go's int arithmetic, which wraps past 2^63 (i * i
 * for i = 3037000500 was negative) and stays exact past 2^53, where PCL's float64 numbers round.
 * They are computed as float64 and made an int by pclInt(), which stops the program outside 2^53
 * (where the two differ) rather than going on with another value. */
START_TEST(test_go_int_arithmetic) {
    tu_pcl_t f = load("config \"i\" \"int\" {}\nconfig \"s\" \"string\" {}\ne = i * i + 1\n"
                      "n = length(s) * 3 - -i\noutput \"o\" {\n    value = [e, n, \"${i * 3}\"]\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "e := pclInt(float64(i)*float64(i) + 1)\n");
    tu_has(go, "n := pclInt(float64(graphemeLength(s))*3 - float64(-i))\n");
    tu_has(go, "pulumi.Sprintf(\"%v\", pclInt(float64(i)*3))");
    char *fn = cut(go, "func pclInt(v float64) int {\n", "\n}\n"), *line = cut(go, "e := ", "\n");
    char prog[4096];
    snprintf(prog, sizeof prog,
             "package main\n\nimport \"fmt\"\n\n%s\n}\n\nfunc square(i int) (text string) {\n"
             "\tdefer func() {\n\t\tif recover() != nil {\n\t\t\ttext = \"stopped\"\n\t\t}\n\t}()\n"
             "\t%s\n\treturn fmt.Sprint(e)\n}\n\nfunc main() {\n"
             "\tfmt.Println(square(1000), square(-94906265), square(94906267), square(3037000500))\n}\n",
             fn, line);
    char *out = run_program("HOME=${HOME:-/tmp} go run", "go", prog);
    ck_assert_str_eq(out, "1000001 9007199136250226 stopped stopped\n");
    free(out);
    free(fn);
    free(line);
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

/* PCL's toJSON writes JSON as JavaScript's JSON.stringify does (831a6d5): keys in their written
 * order, only " \ and control characters escaped, numbers as JavaScript prints them. */
static const char *JSON_PCL = "config \"s\" \"string\" {}\n"
                              "j = toJSON({ b = 1, a = \"\u00e9<&>'=+`\\\"\\\\\\n\\t\\u0001${s}\\U0001F600\", "
                              "c = [1.0, 1e21, 0.1, 12345678.5, 0.0005, 1e-7, 1e15, 100], d = true, z = [], e = {} })\n"
                              "output \"o\" {\n    value = j\n}\n";
static const char *JSON_WANT = "{\"b\":1,\"a\":\"\u00e9<&>'=+`\\\"\\\\\\n\\t\\u0001S\U0001F600\","
                               "\"c\":[1,1e+21,0.1,12345678.5,0.0005,1e-7,1000000000000000,100],\"d\":true,\"z\":[],"
                               "\"e\":{}}\n";

/* Java: toJSON was pulumi-java's serializeJson, Gson over Map.ofEntries: the key order changed from
 * one JVM run to the next, < > & = ' were written \u003c..., a double 12345678.5 as 1.23456785E7.
 * The written toJson helper is run here over the written value (javac, java). */
START_TEST(test_java_to_json_as_pcl) {
    tu_pcl_t f = load(JSON_PCL);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    lacks(java, "serializeJson(");
    lacks(java, "Serialization");
    char *expr = cut(java, "final var j = ", ";\n");
    char *helpers = cut(java, "\n    private static ", "\n    public static void stack(");
    buf_t src;
    buf_init(&src);
    buf_printf(&src,
               "public class J {\n    public static void main(String[] args) {\n        final var s = \"S\";\n"
               "        for (int i = 0; i < 2; i++) {\n            final var %s;\n"
               "            System.out.println(j);\n        }\n    }\n%s}\n",
               expr + strlen("final var "), helpers);
    char *out = run_java("J", src.data);
    char want[1024];
    snprintf(want, sizeof want, "%s%s", JSON_WANT, JSON_WANT);
    ck_assert_str_eq(out, want);
    free(out);
    buf_free(&src);
    free(helpers);
    free(expr);
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* Java: toJSON of anything but an object literal was refused ("pulumi-java's serializeJson takes a
 * Map"), though the toJson helper writes any string, number, bool, list or map (l1-builtin-to-json,
 * l1-config-types-object were refused). They are written now and run here: config values of each
 * type, a literal list holding null and a list. A config value of no type (or of an object type: both
 * read as Object.class) was still refused as "a Gson JsonElement in Java, which cimport's Java toJson
 * does not write" (l1-config-types-object); pulumi-java's Config decodes it with `new
 * Gson().fromJson(text, Object.class)`, whose values are a Map in the text's order, a List, a Double,
 * a String, a Boolean or null, which toJson writes: o and p are run as Gson gives {"prop": "x",
 * "other": 42, "l": [true, null, 1.5]} (no Gson here: the same classes, built by hand), 42.0 written
 * 42 as PCL writes it. One whose default is an object stays refused (a Map.ofEntries has no order). */
START_TEST(test_java_to_json_of_values) {
    tu_pcl_t f = load("config \"s\" \"string\" {}\nconfig \"n\" \"number\" {}\nconfig \"l\" \"list(string)\" {}\n"
                      "config \"m\" \"map(string)\" {}\nconfig \"o\" {}\n"
                      "config \"p\" \"object({prop=string, other=int})\" {\n    default = null\n}\n"
                      "a = toJSON(s)\nb = toJSON(n)\nc = toJSON(l)\nd = toJSON(m)\n"
                      "e = toJSON({y = [null], z = [l]})\ng = toJSON(true)\nh = toJSON(o)\n"
                      "k = p == null ? \"null\" : toJSON(p)\n"
                      "output \"o\" {\n    value = [a, b, c, d, e, g, h, k]\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    char *helpers = cut(java, "\n    private static ", "\n    public static void stack(");
    char *lines = cut(java, "final var a = ", "        ctx.export(");
    buf_t src;
    buf_init(&src);
    buf_printf(&src,
               "import java.util.*;\n\npublic class V {\n    public static void main(String[] args) {\n"
               "        final var s = \"\u00e9\\\"<\";\n        final var n = 1e21;\n"
               "        final var l = List.of(\"x\", \"y\");\n        final var m = Map.of(\"k\", \"v\");\n"
               "        final var gson = new LinkedHashMap<String, Object>();\n"
               "        gson.put(\"prop\", \"x\");\n        gson.put(\"other\", 42.0);\n"
               "        gson.put(\"l\", new ArrayList<Object>(Arrays.asList(true, null, 1.5)));\n"
               "        final Object o = gson;\n        final Object p = gson;\n"
               "        %s        System.out.println(String.join(\" \", a, b, c, d, e, g, h, k));\n    }\n%s}\n",
               lines, helpers);
    char *out = run_java("V", src.data);
    ck_assert_str_eq(out, "\"\u00e9\\\"<\" 1e+21 [\"x\",\"y\"] {\"k\":\"v\"} {\"y\":[null],\"z\":[[\"x\",\"y\"]]} "
                          "true {\"prop\":\"x\",\"other\":42,\"l\":[true,null,1.5]} "
                          "{\"prop\":\"x\",\"other\":42,\"l\":[true,null,1.5]}\n");
    free(out);
    buf_free(&src);
    free(lines);
    free(helpers);
    free(java);
    tu_pcl_unload(&f);
    f = load("config \"d\" {\n    default = {a = 1, b = 2}\n}\noutput \"o\" {\n    value = toJSON(d)\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:20", "a value of no type");
    tu_pcl_unload(&f);
}
END_TEST

/* C#: toJSON was System.Text.Json's JsonSerializer with its default encoder, which writes é < > & '
 * + ` and " as \uXXXX (an emoji as two), 1e21 as 1E+21 and 1e15 as 1E+15. Its text goes through the
 * written ToJsonText, which writes each escape and number as JSON.stringify does. */
START_TEST(test_csharp_to_json_as_pcl) {
    char pcl[1024];
    snprintf(pcl, sizeof pcl,
             "%sresource \"r\" \"m:index:R\" {\n    s = \"x\"\n}\nk = toJSON({ a = r.s })\n"
             "output \"k\" {\n    value = k\n}\n",
             JSON_PCL);
    tu_pcl_t f = load(pcl);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var j = ToJsonText(JsonSerializer.Serialize(new Dictionary<string, object?>\n");
    tu_has(cs, "Output.JsonSerialize(Output.Create(");
    tu_has(cs, ").Apply(v => ToJsonText(v))");
    tu_has(cs, "string ToJsonText(string json)\n");
    tu_has(cs, "string FormatValue(object? value)\n");
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

/* C#: U+0085, U+2028 and U+2029 are new-line characters to C#: written raw into a regular string
 * literal (or an interpolated one) the program did not compile (CS1010), so each is escaped
 * (\u2028), and a string holding one is not written verbatim (@"...") either. */
START_TEST(test_csharp_line_separators_escaped) {
    tu_pcl_t f = load("config \"s\" \"string\" {}\na = \"x\\u2028y\\u0085z\\u2029w\"\nb = \"${s}\\u2028\"\n"
                      "c = \"l1\\nl2\\u2029\"\noutput \"o\" {\n    value = [a, b, c]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var a = \"x\\u2028y\\u0085z\\u2029w\";\n");
    tu_has(cs, "var b = $\"{s}\\u2028\";\n");
    tu_has(cs, "var c = \"l1\\nl2\\u2029\";\n");
    lacks(cs, "\u2028");
    lacks(cs, "\u2029");
    lacks(cs, "\xc2\x85");
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

/* C#: readFile was File.ReadAllText, which takes a leading byte-order mark for the file's encoding
 * and drops it (and decodes a UTF-16/32 file by it); PCL's readFile (Go's os.ReadFile as a string)
 * keeps the file's bytes, a UTF-8 BOM as U+FEFF. The bytes are decoded as UTF-8 now. */
START_TEST(test_csharp_read_file_bytes) {
    tu_pcl_t f = load("config \"p\" \"string\" {}\na = readFile(p)\noutput \"o\" {\n    value = a\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var a = System.Text.Encoding.UTF8.GetString(File.ReadAllBytes(p));\n");
    tu_has(cs, "using System.IO;\n");
    lacks(cs, "ReadAllText");
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

/* C#: singleOrNone() was Enumerable.SingleOrDefault, which gives default(T) for an empty list: 0 for
 * an int[], 0.0 for a double[], false for a bool[], where PCL gives null. Such a list's items are
 * made nullable first; a list of strings (null already) is written as before. */
START_TEST(test_csharp_single_or_none_null) {
    tu_pcl_t f = load("config \"li\" \"list(int)\" {}\nconfig \"ln\" \"list(number)\" {}\n"
                      "config \"lb\" \"list(bool)\" {}\nconfig \"ls\" \"list(string)\" {}\n"
                      "output \"o\" {\n    value = [singleOrNone(li), singleOrNone(ln), singleOrNone(lb), "
                      "singleOrNone(ls), singleOrNone([for x in li : x * 2])]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "Enumerable.SingleOrDefault(li.Select(__item => (int?) __item)),\n");
    tu_has(cs, "Enumerable.SingleOrDefault(ln.Select(__item => (double?) __item)),\n");
    tu_has(cs, "Enumerable.SingleOrDefault(lb.Select(__item => (bool?) __item)),\n");
    tu_has(cs, "Enumerable.SingleOrDefault(ls),\n");
    lacks(cs, "SingleOrDefault(li)");
    lacks(cs, "SingleOrDefault(ln)");
    lacks(cs, "SingleOrDefault(lb)");
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

/* C#: an int in a template was formatted by the current culture (`$"n={n}"`, Output.Format's
 * string.Format), which writes a negative int with U+2212 in some (sv-SE, fi-FI, nb-NO): each goes
 * through FormatValue, which formats it by the invariant culture, as every number. */
START_TEST(test_csharp_ints_invariant) {
    tu_pcl_t f = load("config \"n\" \"int\" {}\nconfig \"l\" \"list(string)\" {}\n"
                      "resource \"r\" \"m:index:R\" {\n    s = \"x\"\n}\n"
                      "a = \"n=${n} len=${length(l)}\"\noutput \"o\" {\n    value = [a, \"${r.s}-${n}\"]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var a = $\"n={FormatValue(n)} len={FormatValue(l.Length)}\";\n");
    tu_has(cs, "Output.Format($\"{r.S}-{FormatValue(n)}\")");
    tu_has(cs, "        case IFormattable number:\n"
               "            return number.ToString(null, CultureInfo.InvariantCulture);\n"
               "        default:\n");
    lacks(cs, "{n}");
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

/* element(list, index) takes the index modulo the list's length (go-cty's ElementFunc; Terraform's
 * element(var.azs, count.index) relies on it) and fails for a negative index and an empty list; it
 * was written as an index (l[i], l.get(i), fn::select), which fails past the end or, in TypeScript,
 * is undefined. Each language's written helper is run over the written line with l = [a, b, c]. */
static const char *ELEMENT_WANT = "a a b b stopped stopped\n";

START_TEST(test_element_wraps_around) {
    tu_pcl_t f = load("config \"l\" \"list(string)\" {}\nconfig \"i\" \"int\" {}\ne = element(l, i)\n"
                      "output \"o\" {\n    value = e\n}\n");
    char prog[8192];
    /* TypeScript, transpiled by the peers' typescript */
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "const e = element(l, i);\n");
    char *fn = cut(ts, "function element<T>(", "\n}\n"), *line = cut(ts, "const e = ", "\n");
    snprintf(
        prog, sizeof prog,
        "%s\n}\nfunction run(l: string[], i: number): string {\n    try {\n        %s\n        return e;\n"
        "    } catch (err) {\n        return \"stopped\";\n    }\n}\n"
        "console.log([run([\"a\", \"b\", \"c\"], 0), run([\"a\", \"b\", \"c\"], 3), run([\"a\", \"b\", \"c\"], 4), "
        "run([\"a\", \"b\", \"c\"], 7), run([\"a\", \"b\", \"c\"], -1), run([], 0)].join(\" \"));\n",
        fn, line);
    char *out = run_program("node -e \"eval(require('" SOURCE_DIR "/tests/peers/node_modules/typescript')"
                            ".transpile(require('fs').readFileSync('main.ts', 'utf8')))\" --",
                            "ts", prog);
    ck_assert_str_eq(out, ELEMENT_WANT);
    free(out), free(fn), free(line), free(ts);
    /* Python */
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "e = element(l, i)\n");
    fn = cut(py, "def element(", "\n\n\n"), line = cut(py, "e = element(", "\n");
    snprintf(prog, sizeof prog,
             "%s\n\n\ndef run(l, i):\n    try:\n        %s\n        return e\n    except Exception:\n"
             "        return 'stopped'\n\n\nabc = ['a', 'b', 'c']\n"
             "print(' '.join([run(abc, 0), run(abc, 3), run(abc, 4), run(abc, 7), run(abc, -1), run([], 0)]))\n",
             fn, line);
    out = run_program("python3", "py", prog);
    ck_assert_str_eq(out, ELEMENT_WANT);
    free(out), free(fn), free(line), free(py);
    /* Go */
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "e := element(l, i)\n");
    fn = cut(go, "func element[T any](", "\n}\n"), line = cut(go, "e := element(", "\n");
    snprintf(prog, sizeof prog,
             "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n%s\n}\n\n"
             "func run(l []string, i int) (text string) {\n\tdefer func() {\n\t\tif recover() != nil {\n"
             "\t\t\ttext = \"stopped\"\n\t\t}\n\t}()\n\t%s\n\treturn e\n}\n\nfunc main() {\n"
             "\tabc := []string{\"a\", \"b\", \"c\"}\n\tfmt.Println(strings.Join([]string{run(abc, 0), run(abc, 3), "
             "run(abc, 4), run(abc, 7), run(abc, -1), run(nil, 0)}, \" \"))\n}\n",
             fn, line);
    out = run_program("HOME=${HOME:-/tmp} go run", "go", prog);
    ck_assert_str_eq(out, ELEMENT_WANT);
    free(out), free(fn), free(line), free(go);
    /* Java */
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "final var e = element(l, i);\n");
    fn = cut(java, "    private static <T> T element(", "\n    }\n"), line = cut(java, "final var e = element(", "\n");
    snprintf(prog, sizeof prog,
             "import java.util.List;\n\npublic class J {\n%s\n    }\n\n"
             "    static String run(List<String> l, Integer i) {\n        try {\n            %s\n"
             "            return e;\n        } catch (RuntimeException x) {\n            return \"stopped\";\n"
             "        }\n    }\n\n    public static void main(String[] args) {\n"
             "        var abc = List.of(\"a\", \"b\", \"c\");\n"
             "        System.out.println(String.join(\" \", run(abc, 0), run(abc, 3), run(abc, 4), run(abc, 7), "
             "run(abc, -1), run(List.<String>of(), 0)));\n    }\n}\n",
             fn, line);
    int status = -1;
    out = tu_run_source("J.java", prog, "javac -nowarn -d . J.java && java -cp . J", &status);
    ck_assert_msg(status == 0 && out, "javac/java failed:\n%s\n(program:\n%s)", out ? out : "", prog);
    ck_assert_str_eq(out, ELEMENT_WANT);
    free(out), free(fn), free(line), free(java);
    /* C# (no .NET here: the written text) */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var e = Element(l, i);\n");
    tu_has(cs, "T Element<T>(IReadOnlyList<T> list, double index)\n");
    tu_has(cs, "return list[(int) (index % list.Count)];\n");
    free(cs);
    /* a program's name Element (or IFormattable, the helpers' types) would hide the helper */
    tu_pcl_unload(&f);
    f = load("config \"Element\" \"list(string)\" {}\nconfig \"IFormattable\" \"int\" {}\n"
             "output \"o\" {\n    value = [element(Element, IFormattable), \"${IFormattable}\"]\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "Element(Element2, IFormattable2),\n");
    tu_has(cs, "$\"{FormatValue(IFormattable2)}\"");
    free(cs);
    tu_pcl_unload(&f);
    f = load("config \"l\" \"list(string)\" {}\nconfig \"i\" \"int\" {}\ne = element(l, i)\n"
             "output \"o\" {\n    value = e\n}\n");
    /* YAML's fn::select takes the index as it is and Pulumi YAML has no arithmetic: the index is
     * wrapped where both are literals, 0 is written as it is (element 0 of any list), else refused */
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:3:5", "element()");
    tu_pcl_unload(&f);
    f = load("config \"l\" \"list(string)\" {}\noutput \"o\" {\n    value = [element([\"a\", \"b\", \"c\"], 4), "
             "element(l, 0)]\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "    - fn::select:\n        - 1\n        -\n          - a\n          - b\n          - c\n");
    tu_has(y, "    - fn::select:\n        - 0\n        - ${l}\n");
    free(y);
    tu_pcl_unload(&f);
    f = load("config \"l\" \"list(string)\" {}\noutput \"o\" {\n    value = element(l, 1)\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:3:13", "element()");
    tu_pcl_unload(&f);
}
END_TEST

/* TypeScript: `n == "3"` of a number and a string (a bool and a number) was written with JavaScript's
 * loose ==, which converts (3 == "3", true == 1); PCL's == of values of two types is false. */
START_TEST(test_ts_equality_of_two_types) {
    tu_pcl_t f = load("config \"n\" \"int\" {}\nconfig \"s\" \"string\" {}\nconfig \"b\" \"bool\" {}\n"
                      "e = n == \"3\"\ng = s != 5\nh = b == 1\nk = n == 3.5\nm = s == \"x\"\nq = b != true\n"
                      "output \"o\" {\n    value = [e, g, h, k, m, q]\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "const e = n === \"3\";\n");
    tu_has(ts, "const g = s !== 5;\n");
    tu_has(ts, "const h = b === 1;\n");
    tu_has(ts, "const k = n == 3.5;\n");
    tu_has(ts, "const m = s == \"x\";\n");
    tu_has(ts, "const q = b != true;\n");
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* TypeScript: lookup() with a default is `m[k] ?? d`, and `??` binds looser than every comparison and
 * arithmetic operator (and cannot mix with `||`/`&&` unparenthesised): as an operand, an indexed value
 * or a method's receiver it was written bare, so `lookup(m, "a", "d") == "x"` meant
 * `m["a"] ?? ("d" == "x")` (read12 F15). It is parenthesised there now; the written code is run. */
START_TEST(test_ts_lookup_default_parenthesised) {
    tu_pcl_t f = load("config \"m\" \"map(string)\" {}\nconfig \"nm\" \"map(number)\" {}\n"
                      "config \"ml\" \"map(list(string))\" {}\n"
                      "first = lookup(ml, \"k\", [\"d\"])\n"
                      "output \"o\" {\n    value = [lookup(m, \"a\", \"d\") == \"x\", lookup(nm, \"a\", 0) + 1, "
                      "2 * lookup(nm, \"missing\", 0), -lookup(nm, \"missing\", 0), "
                      "lookup(m, \"a\", \"d\") == \"x\" ? \"yes\" : \"no\", lookup(ml, \"k\", [\"d\"])[0], "
                      "join(\",\", lookup(ml, \"k\", [\"d\"])), first[1], "
                      /* the default an operator or a conditional (read12c F3: `?? c ? 1 : 2`) */
                      "lookup(nm, \"a\", 1 > 0 ? 1 : 2), lookup(nm, \"missing\", 1 > 0 ? 1 : 2), "
                      "lookup(nm, \"missing\", 3 + 4)]\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "(m[\"a\"] ?? \"d\") == \"x\"");
    tu_has(ts, "(nm[\"a\"] ?? 0) + 1");
    tu_has(ts, "const first = ml[\"k\"] ?? [\"d\"];\n"); /* not an operand: as before */
    /* run the written expressions over m = {a: "y"}, nm = {a: 5}, ml = {k: ["p", "q"]} */
    char *value = cut(ts, "export const o = ", ";\n");
    static char prog[4096];
    ck_assert(snprintf(prog, sizeof prog,
                       "const m = {a: 'y'}, nm = {a: 5}, ml = {k: ['p', 'q']};\nconst first = ml['k'] ?? ['d'];\n"
                       "console.log(JSON.stringify(%s));\n",
                       value + strlen("export const o = ")) < (int)sizeof prog);
    char *out = run_program("node", "js", prog);
    ck_assert_str_eq(out, "[false,6,0,0,\"no\",\"p\",\"p,q\",\"q\",5,1,7]\n");
    free(out);
    free(value);
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* The call `can(...)` or `try(...)` first after `marker` in Go text, its parentheses balanced (string
 * literals skipped) (malloc'd). */
static char *call_after(const char *text, const char *marker, const char *try_name) {
    const char *m = strstr(text, marker);
    ck_assert_msg(m != NULL, "no [%s] in:\n%s", marker, text);
    const char *c = strstr(m, "can("), *t = strstr(m, try_name);
    const char *a = c && (!t || c < t) ? c : t, *z = a + 3;
    ck_assert_msg(a != NULL, "no can( or %s after [%s] in:\n%s", try_name, marker, text);
    for (int depth = 0; *z; z++) {
        if (*z == '"')
            for (z++; *z && *z != '"'; z++)
                z += *z == '\\';
        else if (*z == '(')
            depth++;
        else if (*z == ')' && --depth == 0)
            break;
    }
    return strndup(a, (size_t)(z - a + 1));
}

static char *go_call_after(const char *text, const char *marker) {
    return call_after(text, marker, "try(");
}

/* can() and try() over m (a map), obj (of no type), l (a list) and s (the secret m): a map's present
 * and missing keys, an index past the end, attributes of {} and of a number, null kept, a conditional,
 * over an output, and (k) every argument failing. */
#define CAN_TRY_PCL                                                                                                    \
    "config \"m\" \"map(string)\" {}\nconfig \"obj\" {}\nconfig \"l\" \"list(string)\" {}\n"                           \
    "s = secret(m)\n"                                                                                                  \
    "output \"a\" {\n    value = can(m[\"a\"])\n}\n"                                                                   \
    "output \"b\" {\n    value = can(m[\"b\"])\n}\n"                                                                   \
    "output \"c\" {\n    value = try(m[\"b\"], m.c, \"fallback\")\n}\n"                                                \
    "output \"d\" {\n    value = try(l[3], l[0])\n}\n"                                                                 \
    "output \"e\" {\n    value = can(obj.x.y)\n}\n"                                                                    \
    "output \"f\" {\n    value = [try(obj.opt, \"fallback\")]\n}\n"                                                    \
    "output \"g\" {\n    value = can(obj.a.b)\n}\n"                                                                    \
    "output \"h\" {\n    value = try(length(l) > 5 ? l[5] : m[\"q\"], \"cond\")\n}\n"                                  \
    "output \"i\" {\n    value = try(s[\"b\"], s[\"a\"])\n}\n"                                                         \
    "output \"j\" {\n    value = can(obj.x)\n}\n"                                                                      \
    "output \"k\" {\n    value = try(m[\"b\"], m[\"c\"])\n}\n"

/* Go: can() and try() were refused (Pulumi's Go generator has no form of them). Each argument is a
 * closure the written helper calls, recovering its panic; what fails in PCL panics there: a map's
 * missing key (mapKey: Go's index gives ""), an index past the end, an attribute of a value that is
 * no object (a failed type assertion). The written calls are run with go run over m = {a: "A"},
 * obj = {a: 1, opt: null, x: {}}, l = ["first"]: PCL's values (null is a value: [null]), and
 * try() failing when every argument does. Over an output, in its apply; toJSON() inside is refused
 * (its error is returned by the statement, not the closure). */
START_TEST(test_go_can_try_as_pcl) {
    tu_pcl_t f = load(CAN_TRY_PCL
                      /* a number of the program's own object (a Go int) in arithmetic (read12c F9: gave 0) */
                      "lit = {a = \"x\", n = 1}\n"
                      "output \"n\" {\n    value = try(lit.n + 1, 0)\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tctx.Export(\"a\", pulumi.Bool(can(func() interface{} {\n\t\t\treturn mapKey(m, \"a\")\n"
               "\t\t})))\n");
    tu_has(go, "\t\tctx.Export(\"i\", s.ApplyT(func(s map[string]string) (string, error) {\n"
               "\t\t\treturn try(func() string {\n\t\t\t\treturn mapKey(s, \"b\")\n");
    /* over values of no type alone PCL types it an Output, as the program takes it */
    tu_has(go, "\t\tctx.Export(\"j\", pulumi.Bool(can(func() interface{} {\n"
               "\t\t\treturn mapKey(obj.(map[string]interface{}), \"x\")\n\t\t})).ToBoolOutput())\n");
    /* the conditional's temporary inside the closure, where its failure is recovered */
    tu_has(go, "try(func() string {\n\t\t\tvar tmp0 string\n\t\t\tif len(l) > 5 {\n");
    char *helpers = cut(go, "func can(", "\nfunc main() {");
    buf_t calls;
    buf_init(&calls);
    static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "n"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char marker[32];
        snprintf(marker, sizeof marker, "ctx.Export(\"%s\", ", names[i]);
        char *call = go_call_after(go, marker);
        buf_printf(&calls, "%s%s", i ? ", " : "", call);
        free(call);
    }
    char *k = go_call_after(go, "ctx.Export(\"k\", ");
    buf_t prog;
    buf_init(&prog);
    buf_printf(&prog,
               "package main\n\nimport \"fmt\"\n\n%s\nfunc main() {\n"
               "\tm := map[string]string{\"a\": \"A\"}\n"
               "\tvar obj interface{} = map[string]interface{}{\"a\": 1.0, \"opt\": nil, "
               "\"x\": map[string]interface{}{}}\n"
               "\tl := []string{\"first\"}\n\ts := m\n\tlit := map[string]interface{}{\"a\": \"x\", \"n\": 1}\n"
               "\tfmt.Println(%s)\n"
               "\tfmt.Println(func() (r string) {\n\t\tdefer func() {\n\t\t\tif recover() != nil {\n"
               "\t\t\t\tr = \"every argument failed\"\n\t\t\t}\n\t\t}()\n\t\treturn %s\n\t}())\n}\n",
               helpers, calls.data, k);
    char *out = run_program("HOME=${HOME:-/tmp} go run", "go", prog.data);
    ck_assert_str_eq(out, "true false fallback first false <nil> false cond A true 2\nevery argument failed\n");
    free(out), free(k), free(helpers), free(go);
    buf_free(&prog);
    buf_free(&calls);
    tu_pcl_unload(&f);
    f = load("config \"m\" \"map(string)\" {}\noutput \"o\" {\n    value = try(toJSON(m), \"x\")\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:17", "toJSON() inside can() or try()");
    tu_pcl_unload(&f);
}
END_TEST

/* Java: can() and try() were refused ("which Pulumi's own Java program generator does not write
 * either", pulumi/pulumi-java#1683; l1-builtin-can, l1-builtin-try). Each argument is a lambda the
 * written helper calls, catching what it throws; what fails in PCL throws there: a map's missing key
 * (Map.get gives null: the key is read through the map's entries, orElseThrow), an index past the end
 * (List.get), an attribute of a value that is no object (the cast to a Map). The written calls are
 * compiled and run over m = {a: "A"}, obj = {a: 1, opt: null, x: {}}, l = ["first"] (javac, java):
 * PCL's values (null is a value: [null]), try() failing when every argument does; over an output, in
 * its apply. */
START_TEST(test_java_can_try_as_pcl) {
    tu_pcl_t f = load(CAN_TRY_PCL);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    lacks(java, "TODO");
    /* over the secret map: in its apply, the reads inside the lambdas */
    tu_has(java,
           "ctx.export(\"i\", s.applyValue(_s -> App.<String>try_(() -> _s.entrySet().stream().filter(keyIs(\"b\"))"
           ".findFirst().orElseThrow().getValue(), ");
    /* over a value of no type alone, made an Output that may hold null (Output.of throws for it) */
    tu_has(java, "ctx.export(\"f\", List.of(\n            Output.ofNullable(try_(() -> ((Map<String, Object>) obj)");
    char *helpers = cut(java, "\n    private static ", "\n    public static void stack(");
    buf_t calls;
    buf_init(&calls);
    static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char marker[32];
        snprintf(marker, sizeof marker, "ctx.export(\"%s\", ", names[i]);
        char *call = call_after(java, marker, "try_(");
        buf_printf(&calls, "        System.out.println(String.valueOf(%s));\n", call);
        free(call);
    }
    char *k = call_after(java, "ctx.export(\"k\", ", "try_(");
    buf_t prog;
    buf_init(&prog);
    buf_printf(
        &prog,
        "import java.util.*;\n\npublic class T {\n    public static void main(String[] args) {\n"
        "        final Map<String, String> m = new HashMap<>(Map.of(\"a\", \"A\"));\n"
        "        final var objMap = new HashMap<String, Object>();\n"
        "        objMap.put(\"a\", 1.0);\n        objMap.put(\"opt\", null);\n"
        "        objMap.put(\"x\", new HashMap<String, Object>());\n"
        "        final Object obj = objMap;\n"
        "        final List<String> l = List.of(\"first\");\n        final var _s = m;\n"
        "%s"
        "        try {\n            System.out.println(String.valueOf(%s));\n"
        "        } catch (IllegalArgumentException e) {\n            System.out.println(\"every argument failed\");\n"
        "        }\n    }\n%s}\n",
        calls.data, k, helpers);
    char *out = run_java("T", prog.data);
    ck_assert_str_eq(out, "true\nfalse\nfallback\nfirst\nfalse\nnull\nfalse\ncond\nA\ntrue\nevery argument failed\n");
    free(out), free(k), free(helpers), free(java);
    buf_free(&prog);
    buf_free(&calls);
    tu_pcl_unload(&f);
}
END_TEST

/* A for expression's variables hide the program's names inside it, as in HCL: `[for r in items : r.s]`
 * next to a resource `r` reads the item. The emitters looked the variable up among the program's nodes
 * and read the resource's (or the secret config value's, the local's) output once for every item
 * (read12 F4). The written TypeScript and Python values are run over items [{s: "a"}, {s: "b"}]. */
START_TEST(test_for_variable_hides_program_names) {
    tu_pcl_t f = load("config \"items\" \"list(object({s=string}))\" {}\n"
                      "config \"sec\" \"string\" {\n    secret = true\n}\n"
                      "resource \"r\" \"m:index:R\" {\n    s = \"resource-s\"\n}\n"
                      "loc = r.tags\n"
                      "output \"o\" {\n    value = [for r in items : r.s]\n}\n"
                      "output \"u\" {\n    value = {for r in items : r.s => \"${r.s}-x\"}\n}\n"
                      "output \"v\" {\n    value = [for sec, loc in items : \"${sec}:${loc.s}\"]\n}\n");
    static const char *const want[] = {"[\"a\",\"b\"]", "{\"a\":\"a-x\",\"b\":\"b-x\"}", "[\"0:a\",\"1:b\"]"};
    static const char *const names[] = {"o", "u", "v"};
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    for (int i = 0; i < 3; i++) {
        char from[64], prog[2048];
        snprintf(from, sizeof from, "export const %s = ", names[i]);
        char *value = cut(ts, from, ";\n");
        ck_assert(snprintf(prog, sizeof prog, "const items = [{s: 'a'}, {s: 'b'}];\nconsole.log(JSON.stringify(%s));\n",
                           value + strlen(from)) < (int)sizeof prog);
        char *out = run_program("node -e \"eval(require('" SOURCE_DIR "/tests/peers/node_modules/typescript')"
                                ".transpile(require('fs').readFileSync('main.ts', 'utf8')))\" --",
                                "ts", prog);
        ck_assert_msg(strncmp(out, want[i], strlen(want[i])) == 0, "TypeScript %s: %s (want %s)", names[i], out,
                      want[i]);
        free(out);
        free(value);
        snprintf(from, sizeof from, "pulumi.export(\"%s\", ", names[i]);
        value = cut(py, from, ")\n");
        const char *def = strstr(py, "def format_value(v):\n");
        const char *end = def ? strstr(def, "\n\n\n") : NULL;
        ck_assert(snprintf(prog, sizeof prog,
                           "import json\n%.*s\nitems = [{'s': 'a'}, {'s': 'b'}]\n"
                           "print(json.dumps(%s, separators=(',', ':')))\n",
                           def && end ? (int)(end - def) : 0, def ? def : "", value + strlen(from)) < (int)sizeof prog);
        out = run_program("python3", "py", prog);
        ck_assert_msg(strncmp(out, want[i], strlen(want[i])) == 0, "Python %s: %s (want %s)", names[i], out, want[i]);
        free(out);
        free(value);
    }
    free(py);
    free(ts);
    tu_pcl_unload(&f);
    /* Go wrote the loop inside an apply of the resource's output, with the item unused */
    f = load("config \"items\" \"list(object({s=string}))\" {}\n"
             "resource \"r\" \"m:index:R\" {\n    s = \"resource-s\"\n}\n"
             "output \"o\" {\n    value = [for r in items : r.s]\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    lacks(go, "ApplyT(");
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

/* A config key with a namespace (`__logicalName = "aws:region"`) was written into the project's
 * Config getter (`new pulumi.Config().get("aws:region")`), which reads "<project>:aws:region": the
 * configured region ignored, silently with a default (read12 F5). Refused with the key in the
 * languages whose Config adds the project's namespace; a key without one is written as before. */
START_TEST(test_namespaced_config_key_refused) {
    tu_pcl_t f = load("config \"region\" \"string\" {\n    __logicalName = \"aws:region\"\n"
                      "    default = \"us-east-1\"\n}\noutput \"r\" {\n    value = region\n}\n");
    static const lang_t langs[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA};
    for (size_t i = 0; i < sizeof langs / sizeof *langs; i++)
        tu_pcl_emit_refused(&f, langs[i], "main.pp:1:1", "the config key \"aws:region\" has a namespace");
    tu_pcl_unload(&f);
    f = load("config \"region\" \"string\" {\n    __logicalName = \"awsRegion\"\n}\noutput \"r\" {\n"
             "    value = region\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "config.require(\"awsRegion\")");
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* Go: a for expression's (or a splat's) list was declared `var forResult0 []string`, a nil slice when
 * nothing is appended; returned from an apply, the Go SDK sends a nil slice as null (an input unset,
 * a stack output dropped) where PCL has [] (read12 F1). Inside an apply, or held by a local, it starts
 * as an empty slice. Given straight to `pulumi.ToStringArray(...)` (or another To...Array), it is
 * declared as Pulumi's generator declares it (`var forResult0 []string`): the conversion makes a
 * slice of the list's length (make(StringArray, len(in)), sdk/go/pulumi/types_builtins.go), never
 * nil, so an empty list is still sent as []. */
START_TEST(test_go_empty_for_is_empty_list) {
    tu_pcl_t f = load("config \"names\" \"list(string)\" {}\nconfig \"objs\" \"list(object({a=string}))\" {}\n"
                      "resource \"r\" \"m:index:R\" {\n    f = 1\n}\n"
                      "held = [for n in names : n]\n"
                      "output \"picked\" {\n    value = [for n in names : \"${n}.x\" if n != \"\"]\n}\n"
                      "output \"as\" {\n    value = [for o in objs : o.a]\n}\n"
                      "output \"sp\" {\n    value = objs[*].a\n}\n"
                      "output \"applied\" {\n    value = [for k, v in r.tags : v if k != \"\"]\n}\n"
                      "output \"held\" {\n    value = held\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tvar forResult1 []string\n\t\tfor _, n := range names {\n");
    tu_has(go, "ctx.Export(\"picked\", pulumi.ToStringArray(forResult1))\n");
    tu_has(go, "\t\tvar forResult2 []interface{}\n");
    tu_has(go, "ctx.Export(\"as\", pulumi.ToArray(forResult2))\n");
    tu_has(go, "\t\tvar splat0 []interface{}\n");
    tu_has(go, "ctx.Export(\"sp\", pulumi.ToArray(splat0))\n");
    /* the local's list and the apply's: an empty slice */
    tu_has(go, "\t\tforResult0 := []string{}\n");
    tu_has(go, "\t\t\tforResult3 := []string{}\n");
    lacks(go, "var forResult0");
    lacks(go, "var forResult3");
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

/* A literal of another type than the input's (`i = "3"`, `b = "true"`, `s = 42`, Terraform 0.11's
 * quoted numbers and bools) is converted by PCL's binder as HCL converts it, and Go wrote it so; the
 * other languages wrote it as it was: the provider got a string where its schema has an integer
 * (Python, YAML; TypeScript, C#, Java did not compile) (read12 F14). A literal that does not convert
 * ("abc" for an integer) is refused with its position. */
START_TEST(test_literals_converted_to_the_input_type) {
    tu_pcl_t f = load("resource \"r\" \"m:index:R\" {\n    f = \"1.5\"\n    i = \"3\"\n    s = -42\n    b = \"true\"\n"
                      "    ns = [\"1\", 2.5]\n    tags = { a = 1, b = false }\n    float = \"-2e3\"\n}\n");
    static const struct {
        lang_t lang;
        const char *want[8];
    } cases[] = {
        {LANG_TYPESCRIPT,
         {"f: 1.5,", "i: 3,", "s: \"-42\",", "b: true,", "        1,\n", "a: \"1\",", "b: \"false\",",
          "float: -2000,"}},
        {LANG_PYTHON,
         {"f=1.5,", "i=3,", "s=\"-42\",", "b=True,", "        float(1),\n", "\"a\": \"1\",", "\"b\": \"false\",",
          "float=float(-2000)"}},
        {LANG_GO,
         {"F: pulumi.Float64(1.5),", "I: pulumi.Int(3),", "S: pulumi.String(\"-42\"),", "B: pulumi.Bool(true),",
          "pulumi.Float64(1),", "\"a\": pulumi.String(\"1\"),", "\"b\": pulumi.String(\"false\"),",
          "Float: pulumi.Float64(-2000),"}},
        {LANG_CSHARP,
         {"F = 1.5,", "I = 3,", "S = \"-42\",", "B = true,", "            1.0,\n", "{ \"a\", \"1\" },",
          "{ \"b\", \"false\" },", "Float = -2000.0,"}},
        {LANG_JAVA,
         {".f(1.5)", ".i(3)", ".s(\"-42\")", ".b(true)", "                1.0,\n", "Map.entry(\"a\", \"1\")",
          "Map.entry(\"b\", \"false\")", ".float_(-2000.0)"}},
        {LANG_YAML,
         {"f: 1.5\n", "i: 3\n", "s: \"-42\"\n", "b: true\n", "- 1\n", "a: \"1\"\n", "b: \"false\"\n",
          "float: -2000\n"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *code = tu_pcl_emit_ok(&f, cases[i].lang);
        for (size_t k = 0; k < 8; k++)
            tu_has(code, cases[i].want[k]);
        lacks(code, "\"3\"");
        lacks(code, "\"true\"");
        free(code);
    }
    tu_pcl_unload(&f);
    static const char *const refused[][2] = {
        {"    i = \"abc\"\n", "main.pp:2:9: the string \"abc\" is not a number"},
        {"    b = \"yes\"\n", "main.pp:2:9: the string \"yes\" is not a bool"},
        {"    ns = [1, \"x1\"]\n", "main.pp:2:14: the string \"x1\" is not a number"},
        {"    b = 1\n", "main.pp:2:9: the number 1 is not a bool"},
        {"    f = true\n", "main.pp:2:9: the bool true is not a number"},
        {"    s = 12345678901234567890\n", "main.pp:2:9: this number has more significant digits than a float64 holds"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char pcl[256];
        snprintf(pcl, sizeof pcl, "resource \"r\" \"m:index:R\" {\n%s}\n", refused[i][0]);
        tu_pcl_bind_refused(SCHEMA, "m.json", pcl, refused[i][1]);
    }
}
END_TEST

/* Python: a key of a map-typed resource output read as `r.tags.key` (as Terraform code reads
 * `aws_instance.web.tags.Name`) was written as an attribute, `r.tags.enabled`: the SDK's Output lifts
 * it to getattr on a dict, an AttributeError at `pulumi up`, or a dict's method for items, keys,
 * values, get (read12 F6). Such a key is read as `["key"]` now. The written values run over an
 * Output stand-in that lifts attributes and items as the SDK's does (sdk/python/lib/pulumi/output.py). */
START_TEST(test_python_map_output_keys) {
    tu_pcl_t f = load("resource \"r\" \"m:index:R\" {\n    tags = { enabled = \"a\", items = \"b\", keys = \"c\" }\n}\n"
                      "output \"o1\" {\n    value = r.tags.enabled\n}\n"
                      "output \"o2\" {\n    value = \"${r.tags.items}!\"\n}\n"
                      "output \"o3\" {\n    value = r.tags.items == \"b\"\n}\n"
                      "output \"o4\" {\n    value = [r.tags.keys, r.s]\n}\n"
                      "output \"o5\" {\n    value = invoke(\"m:index:get\", {}).tags.items\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "m.get_output().tags[\"items\"]");
    buf_t prog;
    buf_init(&prog);
    buf_puts(&prog, "import json\n"
                    "class Output:\n"
                    "    def __init__(self, v): self.v = v\n"
                    "    def apply(self, f): return Output(f(self.v))\n"
                    "    def __getattr__(self, k):\n"
                    "        if k.startswith('__'): raise AttributeError(k)\n"
                    "        return Output(getattr(self.v, k))\n"
                    "    def __getitem__(self, k): return Output(self.v[k])\n"
                    "def value(v):\n"
                    "    if isinstance(v, list): return [value(x) for x in v]\n"
                    "    v = v.v if isinstance(v, Output) else v\n"
                    "    return v if isinstance(v, (str, bool)) else repr(v)\n"
                    "def format_value(v): return str(v)\n"
                    "class R: pass\n"
                    "r = R()\n"
                    "r.tags = Output({'enabled': 'a', 'items': 'b', 'keys': 'c'})\n"
                    "r.s = Output('S')\n"
                    "out = []\n");
    for (int i = 1; i <= 4; i++) {
        char from[64];
        snprintf(from, sizeof from, "pulumi.export(\"o%d\", ", i);
        char *v = cut(py, from, ")\n");
        buf_printf(&prog, "out.append(value(%s))\n", v + strlen(from));
        free(v);
    }
    buf_puts(&prog, "print(json.dumps(out))\n");
    char *out = run_program("python3", "py", prog.data);
    ck_assert_str_eq(out, "[\"a\", \"b!\", true, [\"c\", \"S\"]]\n");
    tu_has(py, "r.tags[\"enabled\"]");
    free(out);
    buf_free(&prog);
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* Python: an object for expression keyed by a number (`{for i, x in l : i => x}`, Terraform's
 * `{ for idx, s in var.subnets : idx => s.id }`) wrote int keys; PCL's object keys are strings (the
 * number's text), so a lookup by "0" missed, toJSON wrote `{0:"a"}` (no JSON) and `k == "443"` was
 * never true (read12 F10). The key is written as its text now. The whole program runs with python3,
 * `pulumi` a stand-in whose config holds l = [a, b], ports = [80, 443], ns = [1.5, 2]. */
START_TEST(test_python_for_object_keys_are_strings) {
    tu_pcl_t f = load("config \"l\" \"list(string)\" {}\nconfig \"ports\" \"list(int)\" {}\n"
                      "config \"ns\" \"list(number)\" {}\n"
                      "byIndex = {for i, x in l : i => x}\nrules = {for p in ports : p => \"tcp\"}\n"
                      "output \"o\" {\n    value = lookup(byIndex, \"0\", \"none\")\n}\n"
                      "output \"q\" {\n    value = toJSON({for i, x in l : i => x})\n}\n"
                      "output \"n\" {\n    value = length([for k, v in rules : k if k == \"443\"])\n}\n"
                      "output \"r\" {\n    value = lookup(rules, \"80\", \"none\")\n}\n"
                      "output \"f\" {\n    value = {for x in ns : x => x}\n}\n"
                      "output \"s\" {\n    value = {for x in l : x => 1}\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    char *out = run_python_stubbed(
        py, "import pulumi\n",
        "import json, types\n"
        "class Config:\n"
        "    def require_object(self, k): return {'l': ['a', 'b'], 'ports': [80, 443], 'ns': [1.5, 2]}[k]\n"
        "def export(k, v): print(k, json.dumps(v, separators=(',', ':')))\n"
        "pulumi = types.SimpleNamespace(Config=Config, export=export)\n");
    ck_assert_str_eq(out, "o \"a\"\nq \"{\\\"0\\\":\\\"a\\\",\\\"1\\\":\\\"b\\\"}\"\nn 1\nr \"tcp\"\n"
                          "f {\"1.5\":1.5,\"2\":2}\ns {\"a\":1,\"b\":1}\n");
    free(out);
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* TypeScript: toJSON of an object whose member is an unset config value (`default = null`, read by
 * config.get: undefined) or an absent optional output dropped the member — JSON.stringify omits an
 * undefined member — where PCL writes it as null (read12 F12). Such a toJSON maps undefined to null
 * now; one over literals is written as before. The written values run with node. */
START_TEST(test_ts_to_json_keeps_null_members) {
    tu_pcl_t f =
        load("config \"maybe\" \"string\" {\n    default = null\n}\n"
             "config \"tags\" \"map(string)\" {\n    default = null\n}\n"
             "config \"given\" \"string\" {\n    default = \"g\"\n}\n"
             "resource \"r\" \"m:index:R\" {\n}\n"
             "loc = { d = maybe }\n"
             "output \"j\" {\n    value = toJSON({ a = maybe, b = tags, c = null, e = [{ f = maybe }], g = given "
             "})\n}\n"
             "output \"k\" {\n    value = toJSON(loc)\n}\n"
             "output \"l\" {\n    value = toJSON({ x = \"lit\", y = [1, null] })\n}\n"
             "output \"o\" {\n    value = toJSON({ s = r.s })\n}\n"
             "output \"mj\" {\n    value = toJSON(maybe)\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts,
           "export const l = JSON.stringify({\n    x: \"lit\",\n    y: [\n        1,\n        null,\n    ],\n});\n");
    tu_has(ts, "export const o = pulumi.jsonStringify({\n    s: r.s,\n}, (_, v) => v === undefined ? null : v);\n");
    char *j = cut(ts, "export const j = ", ";\n"), *k = cut(ts, "export const k = ", ";\n");
    char *m = cut(ts, "export const mj = ", ";\n"); /* the value itself unset: "null" (read13c F5) */
    char *loc = cut(ts, "const loc = ", ";\n");
    static char prog[4096];
    ck_assert(snprintf(prog, sizeof prog,
                       "const maybe: string | undefined = undefined, tags: Record<string, string> | undefined = "
                       "undefined, given = 'g';\n%s;\nconsole.log(%s);\nconsole.log(%s);\nconsole.log(%s);\n",
                       loc, j + strlen("export const j = "), k + strlen("export const k = "),
                       m + strlen("export const mj = ")) < (int)sizeof prog);
    char *out = run_program("node -e \"eval(require('" SOURCE_DIR "/tests/peers/node_modules/typescript')"
                            ".transpile(require('fs').readFileSync('main.ts', 'utf8')))\" --",
                            "ts", prog);
    ck_assert_str_eq(out, "{\"a\":null,\"b\":null,\"c\":null,\"e\":[{\"f\":null}],\"g\":\"g\"}\n{\"d\":null}\nnull\n");
    free(out);
    free(m);
    free(loc);
    free(k);
    free(j);
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* Python: the parameter of an apply over several outputs was always `resolved_outputs`, so a program
 * value written so (a config `resolvedOutputs`) or a for variable of that name inside it was read as
 * the dict of resolved outputs, or the outputs as the item (read12 F11). The parameter takes another
 * name where the body uses that one. The program runs with python3 over stand-ins of the SDK. */
START_TEST(test_python_apply_parameter_not_hidden) {
    tu_pcl_t f = load(
        "config \"resolvedOutputs\" \"string\" {}\n"
        "resource \"a\" \"m:index:R\" {\n}\nresource \"b\" \"m:index:R\" {\n}\n"
        "output \"o\" {\n    value = \"${resolvedOutputs}-${a.s}-${b.s}\"\n}\n"
        "output \"p\" {\n    value = [for resolved_outputs in [\"x\"] : \"${resolved_outputs}-${a.s}-${b.s}\"]\n}\n"
        "output \"q\" {\n    value = \"${a.s}-${b.s}\"\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    /* where the body does not use the name, Pulumi's */
    tu_has(py, ".apply(lambda resolved_outputs: \"\".join([str(resolved_outputs['s']), \"-\", "
               "str(resolved_outputs['s_1'])]))");
    char *out = run_python_stubbed(py, "import pulumi_m as m\n",
                                   "import json, types\n"
                                   "class Output:\n"
                                   "    def __init__(self, v): self.v = v\n"
                                   "    def apply(self, f): return Output(f(self.v))\n"
                                   "    @staticmethod\n"
                                   "    def all(**kw): return Output({k: v.v for k, v in kw.items()})\n"
                                   "class Config:\n"
                                   "    def require(self, k): return 'CFG'\n"
                                   "def export(k, v): print(k, json.dumps(v.v))\n"
                                   "pulumi = types.SimpleNamespace(Config=Config, export=export, Output=Output)\n"
                                   "class R:\n"
                                   "    def __init__(self, name): self.s = Output(name + '-s')\n"
                                   "m = types.SimpleNamespace(R=R)\n");
    ck_assert_str_eq(out, "o \"CFG-a-s-b-s\"\np [\"x-a-s-b-s\"]\nq \"a-s-b-s\"\n");
    free(out);
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* Java: a stack output of a plain value that may be null — a null literal, a config value whose
 * default is null and is unset, a conditional with such a branch — was written ctx.export("a", null) /
 * ctx.export("b", maybe): pulumi-java's Context.export(String, Output<?>) requires a non-null Output
 * and its export(String, T) makes Output.of(value), which throws NullPointerException for null, so the
 * program failed at run time where PCL exports null. The written stack body runs with stand-ins of
 * Context, Config and Output that check as the SDK does (pulumi-java Context.java, Output.java). */
START_TEST(test_java_null_outputs_exported) {
    tu_pcl_t f = load("config \"maybe\" \"string\" {\n    default = null\n}\n"
                      "config \"n\" \"int\" {\n    default = 3\n}\n"
                      "config \"flag\" \"bool\" {\n    default = true\n}\n"
                      "output \"a\" {\n    value = null\n}\noutput \"b\" {\n    value = maybe\n}\n"
                      "output \"c\" {\n    value = flag ? maybe : \"x\"\n}\noutput \"d\" {\n    value = n\n}\n"
                      "output \"e\" {\n    value = \"lit\"\n}\noutput \"f\" {\n    value = [maybe]\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"e\", \"lit\");"); /* never null: as before */
    char *body = cut(java, "    public static void stack(", "\n}\n");
    buf_t prog;
    buf_init(&prog);
    buf_printf(&prog,
               "import java.util.*;\n\npublic class T {\n"
               "    interface Output<X> {\n"
               "        static <X> Output<X> of(X v) { Objects.requireNonNull(v); return new Val<>(v); }\n"
               "        static <X> Output<X> ofNullable(X v) { return new Val<>(v); }\n    }\n"
               "    record Val<X>(X v) implements Output<X> {}\n"
               "    static class Config {\n"
               "        Optional<String> get(String k) { return Optional.empty(); }\n"
               "        Optional<Integer> getInteger(String k) { return Optional.empty(); }\n"
               "        Optional<Boolean> getBoolean(String k) { return Optional.empty(); }\n    }\n"
               "    static class Context {\n        Config config() { return new Config(); }\n"
               "        Context export(String name, Output<?> o) {\n"
               "            Objects.requireNonNull(o, \"The 'output' of an 'export' cannot be 'null'\");\n"
               "            System.out.println(name + \"=\" + ((Val<?>) o).v());\n            return this;\n        }\n"
               "        <X> Context export(String name, X v) { return export(name, Output.of(v)); }\n    }\n"
               "    public static void main(String[] args) { stack(new Context()); }\n"
               "%s\n}\n",
               body);
    char *out = run_java("T", prog.data);
    ck_assert_str_eq(out, "a=null\nb=null\nc=null\nd=3\ne=lit\nf=[null]\n");
    free(out), free(body), free(java);
    buf_free(&prog);
    tu_pcl_unload(&f);
    /* as a map's value: Map.entry throws on null, as for a null literal there */
    f = load("config \"maybe\" \"string\" {\n    default = null\n}\n"
             "output \"g\" {\n    value = {k = maybe}\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:18",
                        "'value' holds 'maybe', which may be null, as the value of 'k' in a map");
    tu_pcl_unload(&f);
}
END_TEST

/* TypeScript: a map key that names a member of @pulumi/pulumi's Output (`r.tags.apply`, `.isKnown`,
 * `.get`) was read by lifting, which gives the Output's own member (a function, a Promise), not the
 * element; lookup() of a key a plain object has from Object.prototype when the map lacks it
 * (`constructor`, `toString`), or of a key known only at run time, gave that member, not the default
 * (read12 F7). The written expressions run with node over the real Output (pulumi.output). */
START_TEST(test_ts_keys_named_like_members) {
    /* a resource whose map output is required (an optional one is read in an apply already) */
    static const char *schema =
        "{\"name\":\"q\",\"version\":\"1.0.0\",\"resources\":{\"q:index:R\":{\"properties\":{\"tags\":{"
        "\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}},\"required\":[\"tags\"],"
        "\"inputProperties\":{\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}}}}}";
    tu_pcl_t f = tu_pcl_load(
        schema, "q.json",
        "config \"mm\" \"map(string)\" {}\nconfig \"k\" \"string\" {}\n"
        "config \"sm\" \"map(string)\" {\n    secret = true\n}\nloc = r.tags\n"
        "resource \"r\" \"q:index:R\" {\n    tags = {apply = \"A\", isKnown = \"K\", get = \"G\"}\n}\n"
        "output \"o1\" {\n    value = r.tags.apply\n}\noutput \"o2\" {\n    value = r.tags[\"isKnown\"]\n}\n"
        "output \"o3\" {\n    value = r.tags.get\n}\noutput \"o4\" {\n    value = sm.get\n}\n"
        "output \"o5\" {\n    value = loc.isKnown\n}\n"
        "output \"a\" {\n    value = lookup(mm, \"constructor\", \"none\")\n}\n"
        "output \"b\" {\n    value = lookup(mm, k, \"none\")\n}\n"
        "output \"c\" {\n    value = lookup(mm, \"toString\", \"none\")\n}\n"
        "output \"d\" {\n    value = lookup(mm, \"a\", \"none\")\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const d = mm[\"a\"] ?? \"none\";\n"); /* a key no object has of itself: as before */
    static const char *const names[] = {"o1", "o2", "o3", "o4", "o5", "a", "b", "c"};
    buf_t prog;
    buf_init(&prog);
    buf_puts(&prog, "const pulumi = require('@pulumi/pulumi');\n"
                    "const r = {tags: pulumi.output({apply: 'A', isKnown: 'K', get: 'G'})};\n"
                    "const mm = {a: 'x', toString: 'T'}, k = 'valueOf';\n"
                    "const sm = pulumi.secret({get: 'S'}), loc = r.tags;\n");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char from[32];
        snprintf(from, sizeof from, "export const %s = ", names[i]);
        char *v = cut(ts, from, ";\n");
        buf_printf(&prog, "const %s = %s;\n", names[i], v + strlen(from));
        free(v);
    }
    buf_puts(&prog, "console.log(JSON.stringify([a, b, c]));\n"
                    "pulumi.all([o1, o2, o3, o4, o5]).apply(v => console.log(JSON.stringify(v)));\n");
    char *out = run_program("NODE_PATH='" SOURCE_DIR "/tests/peers/node_modules' node", "js", prog.data);
    ck_assert_str_eq(out, "[\"none\",\"none\",\"T\"]\n[\"A\",\"K\",\"G\",\"S\",\"K\"]\n");
    free(out), free(ts);
    buf_free(&prog);
    tu_pcl_unload(&f);
    /* a local holding a plain object with an Output in it is no Output: its own keys are read as written */
    f = tu_pcl_load(schema, "q.json",
                    "resource \"r\" \"q:index:R\" {\n    tags = {a = \"A\"}\n}\n"
                    "loc = {get = r.tags, apply = \"x\"}\noutput \"o\" {\n    value = loc.apply\n}\n");
    ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const o = loc.apply;\n");
    free(ts);
    tu_pcl_unload(&f);
    /* inside an interpolation no apply is written: refused */
    f = tu_pcl_load(schema, "q.json",
                    "resource \"r\" \"q:index:R\" {\n    tags = {apply = \"A\"}\n}\n"
                    "output \"o\" {\n    value = \"x${r.tags.apply}\"\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "5:17", "reads the key 'apply' of an Output inside an interpolation");
    tu_pcl_unload(&f);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("pcl_meaning");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_go_literal_division_is_float);
    tcase_add_test(tc, test_python_template_prints_as_pcl);
    tcase_add_test(tc, test_python_reads_file_bytes);
    tcase_add_test(tc, test_to_json_as_pcl);
    tcase_add_test(tc, test_python_plain_items_by_key);
    tcase_add_test(tc, test_builtin_names_taken);
    tcase_add_test(tc, test_py_apply_parameter_named_as_builtin);
    tcase_add_test(tc, test_split_sort_proto);
    tcase_add_test(tc, test_split_characters);
    tcase_add_test(tc, test_python_to_json_numbers);
    tcase_add_test(tc, test_typescript_keys_by_code_point);
    tcase_add_test(tc, test_cs_java_keys_by_code_point);
    tcase_add_test(tc, test_grapheme_length);
    tcase_add_test(tc, test_go_int_arithmetic);
    tcase_add_test(tc, test_java_to_json_as_pcl);
    tcase_add_test(tc, test_java_to_json_of_values);
    tcase_add_test(tc, test_csharp_to_json_as_pcl);
    tcase_add_test(tc, test_ts_equality_of_two_types);
    tcase_add_test(tc, test_ts_lookup_default_parenthesised);
    tcase_add_test(tc, test_for_variable_hides_program_names);
    tcase_add_test(tc, test_namespaced_config_key_refused);
    tcase_add_test(tc, test_go_empty_for_is_empty_list);
    tcase_add_test(tc, test_csharp_line_separators_escaped);
    tcase_add_test(tc, test_csharp_read_file_bytes);
    tcase_add_test(tc, test_csharp_single_or_none_null);
    tcase_add_test(tc, test_csharp_ints_invariant);
    tcase_add_test(tc, test_element_wraps_around);
    tcase_add_test(tc, test_go_can_try_as_pcl);
    tcase_add_test(tc, test_literals_converted_to_the_input_type);
    tcase_add_test(tc, test_python_map_output_keys);
    tcase_add_test(tc, test_java_can_try_as_pcl);
    tcase_add_test(tc, test_python_for_object_keys_are_strings);
    tcase_add_test(tc, test_ts_to_json_keeps_null_members);
    tcase_add_test(tc, test_python_apply_parameter_not_hidden);
    tcase_add_test(tc, test_java_null_outputs_exported);
    tcase_add_test(tc, test_ts_keys_named_like_members);
    tcase_set_timeout(tc, 120); /* javac and java */
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

/* test_pcl_language.c — the PCL language beyond literals and references (issue 18): top-level
 * locals, template interpolation, unary and binary operators, conditionals, for expressions,
 * splat and index/attribute access on any expression, each written by the emitters as Pulumi's
 * generators write it (over outputs: an apply, or pulumi.interpolate for a template) — or refused
 * with the construct and its file:line:col by an emitter that cannot write it yet. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "emitters/ts_check.h"
#include "pcl/pcl.h"
#include "specs/schema.h"
#include "testutil.h"

/* A test package: a resource with string, number, bool and list inputs and the same outputs. */
static const char *SCHEMA =
    "{\"name\":\"lang\",\"version\":\"1.0.0\",\"resources\":{\"lang:index:Res\":{"
    "\"properties\":{\"text\":{\"type\":\"string\"},\"num\":{\"type\":\"number\"},\"flag\":{\"type\":\"boolean\"},"
    "\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},\"required\":[\"text\",\"num\",\"flag\",\"items\"]"
    ","
    "\"inputProperties\":{\"text\":{\"type\":\"string\"},\"num\":{\"type\":\"number\"},\"flag\":{\"type\":\"boolean\"},"
    "\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}},"
    "\"lang:index:Opt\":{\"properties\":{\"maybe\":{\"type\":\"string\"}},\"inputProperties\":{}},"
    "\"lang:index:Plain\":{\"inputProperties\":{\"name\":{\"type\":\"string\",\"plain\":true},"
    "\"opt\":{\"type\":\"string\",\"plain\":true},\"cfg\":{\"$ref\":\"#/types/lang:index:Cfg\",\"plain\":true},"
    "\"list\":{\"type\":\"array\",\"plain\":true,\"items\":{\"$ref\":\"#/types/lang:index:Cfg\"}}},"
    "\"requiredInputs\":[\"name\",\"cfg\"]}},"
    "\"types\":{\"lang:index:Cfg\":{\"type\":\"object\",\"properties\":{\"on\":{\"type\":\"boolean\",\"plain\":true},"
    "\"size\":{\"type\":\"integer\",\"plain\":true},"
    "\"tags\":{\"type\":\"object\",\"plain\":true,\"additionalProperties\":{\"type\":\"string\"}}},"
    "\"required\":[\"on\"]}}}";

typedef tu_pcl_t fixture_t;

static fixture_t load(const char *pcl) {
    return tu_pcl_load(SCHEMA, "lang.json", pcl);
}

static void unload(fixture_t *f) {
    tu_pcl_unload(f);
}

/* C# and Java must parse (tree-sitter) what they write. */
static void parses(lang_t lang, const char *src) {
    diag_list_t d;
    diag_list_init(&d);
    size_t n = ts_check_buffer(lang, src, strlen(src), lang == LANG_JAVA ? "App.java" : "Program.cs", &d);
    ck_assert_msg(n == 0, "%s: %s\n%s", lang_name(lang), d.head ? diag_format(&d, d.head) : "?", src);
    diag_list_free(&d);
}

/* A local is declared once, after what it reads and before what reads it (declaration order
 * does not matter in PCL). */
START_TEST(test_locals_ordered) {
    fixture_t f = load("output \"out\" {\n    value = res2.text\n}\n"
                       "resource \"res2\" \"lang:index:Res\" {\n    text = localVar\n    num = 1\n    flag = true\n"
                       "    items = []\n}\n"
                       "localVar = res1.text\n"
                       "resource \"res1\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
                       "    items = []\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    const char *r1 = strstr(ts, "const res1 = "), *lv = strstr(ts, "const localVar = res1.text;"),
               *r2 = strstr(ts, "const res2 = "), *out = strstr(ts, "export const out = res2.text;");
    ck_assert_msg(r1 && lv && r2 && out && r1 < lv && lv < r2 && r2 < out, "order:\n%s", ts);
    tu_has(ts, "{\n    text: localVar,\n");
    free(ts);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var localVar = res1.Text;");
    tu_has(cs, "Text = localVar,");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "final var localVar = res1.text();");
    tu_has(java, ".text(localVar)");
    free(java);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    const char *pr1 = strstr(py, "res1 = "), *plv = strstr(py, "local_var = res1.text\n"), *pr2 = strstr(py, "res2 = ");
    ck_assert_msg(pr1 && plv && pr2 && pr1 < plv && plv < pr2, "order:\n%s", py);
    tu_has(py, "text=local_var,");
    free(py);
    unload(&f);
}
END_TEST

/* A template over plain values is a template literal; over outputs, pulumi.interpolate. */
START_TEST(test_templates) {
    fixture_t f = load("config \"name\" \"string\" {}\n"
                       "resource \"res\" \"lang:index:Res\" {\n    text = \"hi ${name}!\"\n    num = 1\n"
                       "    flag = true\n    items = []\n}\n"
                       "output \"o\" {\n    value = \"${res.text}-`${name}` $${x}\\n\"\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "text: `hi ${name}!`,");
    tu_has(ts, "export const o = pulumi.interpolate`${res.text}-\\`${name}\\` \\${x}\\n`;");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "text=f\"hi {name}!\",");
    tu_has(py, "pulumi.export(\"o\", res.text.apply(lambda text: f\"{text}-`{name}` ${{x}}\\n\"))");
    free(py);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "Text = $\"hi {name}!\",");
    tu_has(cs, "[\"o\"] = Output.Format($\"{res.Text}-`{name}` ${{x}}\\n\"),");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".text(String.format(\"hi %s!\", name))");
    tu_has(java, "ctx.export(\"o\", Output.format(\"%s-`%s` ${x}\\n\", res.text(), name));");
    free(java);
    unload(&f);
}
END_TEST

/* Operators and conditionals: plain values directly with PCL's grouping kept; over outputs in an
 * apply whose parameters are the outputs' property names (one parameter per distinct output). */
START_TEST(test_operators_and_conditionals) {
    fixture_t f = load("config \"n\" \"int\" {}\n"
                       "config \"s\" \"string\" {}\n"
                       "resource \"res\" \"lang:index:Res\" {\n    text = s\n    num = (n + 1) * 2 - n % 3\n"
                       "    flag = !(n > 2) && s != \"x\" || n == 0\n    items = []\n}\n"
                       "output \"plain\" {\n    value = n > 1 ? \"big\" : \"small\"\n}\n"
                       "output \"one\" {\n    value = res.num + res.num * 2\n}\n"
                       "output \"two\" {\n    value = res.flag ? res.text : s\n}\n"
                       "output \"neg\" {\n    value = -res.num\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "num: (n + 1) * 2 - n % 3,");
    tu_has(ts, "flag: !(n > 2) && s != \"x\" || n == 0,");
    tu_has(ts, "export const plain = n > 1 ? \"big\" : \"small\";");
    tu_has(ts, "export const one = res.num.apply(num => num + num * 2);");
    tu_has(ts, "export const two = pulumi.all([res.flag, res.text]).apply(([flag, text]) => flag ? text : s);");
    tu_has(ts, "export const neg = res.num.apply(num => -num);");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "num=(n + 1) * 2 - int(math.fmod(n, 3)),");
    tu_has(py, "flag=not (n > 2) and s != \"x\" or n == 0,");
    tu_has(py, "pulumi.export(\"plain\", \"big\" if n > 1 else \"small\")");
    tu_has(py, "pulumi.export(\"one\", res.num.apply(lambda num: num + num * 2))");
    tu_has(py, "pulumi.export(\"two\", pulumi.Output.all(flag=res.flag, text=res.text).apply(lambda resolved_outputs: "
               "resolved_outputs['text'] if resolved_outputs['flag'] else s))");
    tu_has(py, "pulumi.export(\"neg\", res.num.apply(lambda num: -num))");
    free(py);
    unload(&f);
    /* C# and Java: the same over plain values (Java's == only between numbers and booleans) */
    f = load("config \"n\" \"int\" {}\n"
             "resource \"res\" \"lang:index:Res\" {\n    text = \"t\"\n    num = (n + 1) * 2 - n % 3\n"
             "    flag = !(n > 2) && n != 4 || n == 0\n    items = []\n}\n"
             "output \"plain\" {\n    value = n > 1 ? \"big\" : \"small\"\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "Num = ((double) n + 1) * 2 - n % 3,");
    tu_has(cs, "Flag = !(n > 2) && n != 4 || n == 0,");
    tu_has(cs, "[\"plain\"] = n > 1 ? \"big\" : \"small\",");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".num(((double) n + 1) * 2 - n % 3)");
    tu_has(java, ".flag(!(n > 2) && n != 4 || n == 0)");
    tu_has(java, "ctx.export(\"plain\", n > 1 ? \"big\" : \"small\");");
    free(java);
    unload(&f);
}
END_TEST

/* For expressions as Pulumi's TypeScript writes them: lists map, maps go through sorted entries,
 * conditions filter first, object results reduce; a splat maps. */
START_TEST(test_for_expressions) {
    fixture_t f = load("names = [\"a\", \"b\"]\n"
                       "tags = {\n    \"X\" = \"1\"\n}\n"
                       "output \"l\" {\n    value = [for n in names : \"p-${n}\" if n != \"b\"]\n}\n"
                       "output \"i\" {\n    value = [for i, n in names : \"${i}:${n}\"]\n}\n"
                       "output \"m\" {\n    value = {for k, v in tags : k => v}\n}\n"
                       "output \"o\" {\n    value = {for n in names : n => \"v-${n}\"}\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const l = names.filter(n => n != \"b\").map(n => (`p-${n}`));");
    tu_has(ts, "export const i = names.map((v, k) => [k, v] as const).map(([i, n]) => (`${i}:${n}`));");
    tu_has(ts, "export const m = Object.entries(tags).sort(([a], [b]) => Buffer.compare(Buffer.from(a), "
               "Buffer.from(b))).reduce((__obj, "
               "[k, v]) => ({ ...__obj, [k]: v }), {});");
    tu_has(ts, "export const o = names.reduce((__obj, n) => ({ ...__obj, [n]: `v-${n}` }), {});");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.export(\"l\", [f\"p-{n}\" for n in names if n != \"b\"])");
    tu_has(py, "pulumi.export(\"i\", [f\"{i}:{n}\" for i, n in enumerate(names)])");
    tu_has(py, "pulumi.export(\"m\", {k: v for k, v in sorted(tags.items())})");
    tu_has(py, "pulumi.export(\"o\", {n: f\"v-{n}\" for n in names})");
    free(py);
    /* C#: LINQ, as Pulumi's .NET generator writes it, a map's entries by their sorted keys */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "using System;\n");
    tu_has(cs, "        [\"l\"] = names.Where(n => n != \"b\").Select(n => $\"p-{n}\").ToList(),\n"
               "        [\"i\"] = names.Select((n, i) => $\"{FormatValue(i)}:{n}\").ToList(),\n"
               "        [\"m\"] = tags.OrderBy(k => k.Key, Comparer<string>.Create(CompareCodePoints)).ToDictionary(k "
               "=> k.Key, k => k.Value),\n"
               "        [\"o\"] = names.ToDictionary(n => n, n => $\"v-{n}\"),\n");
    free(cs);
    /* Java: streams, strings compared with Objects.equals (not by reference), a list's index by
     * IntStream.range over the list's size */
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java,
           "import java.util.Objects;\nimport java.util.stream.Collectors;\nimport java.util.stream.IntStream;\n");
    tu_has(java, "        ctx.export(\"l\", names.stream().filter(n -> !Objects.equals(n, \"b\"))"
                 ".map(n -> String.format(\"p-%s\", n)).collect(Collectors.toList()));\n"
                 "        ctx.export(\"i\", IntStream.range(0, names.size()).mapToObj(i -> String.format(\"%s:%s\", i, "
                 "names.get(i))).collect(Collectors.toList()));\n"
                 "        ctx.export(\"m\", "
                 "tags.entrySet().stream().sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing((String _k) "
                 "-> _k.codePoints().toArray(), java.util.Arrays::compare)))"
                 ".collect(Collectors.toMap(k -> k.getKey(), k -> k.getValue())));\n"
                 "        ctx.export(\"o\", names.stream().collect(Collectors.toMap(n -> n, n -> "
                 "String.format(\"v-%s\", n))));\n");
    free(java);
    /* a for over something whose shape the program does not show is refused, by position */
    fixture_t g = load("config \"c\" \"string\" {}\noutput \"x\" {\n    value = [for v in c : v]\n}\n");
    tu_pcl_emit_refused(&g, LANG_TYPESCRIPT, "3:13", "ranges over a list or a map");
    tu_pcl_emit_refused(&g, LANG_PYTHON, "3:13", "ranges over a list or a map");
    tu_pcl_emit_refused(&g, LANG_CSHARP, "3:13", "uses a for expression, which the C# emitter cannot write yet");
    unload(&g);
    /* C#: over an output, with a list's index and a condition, or building objects: refused; a
     * variable named as a node (a lambda's parameter may not shadow a local) is renamed by the binder
     * (read12 F4) */
    g = load("names = [\"a\"]\nn = 1\noutput \"x\" {\n    value = [for i, v in names : v if i > 0]\n}\n"
             "output \"y\" {\n    value = [for v in names : {a = v}]\n}\n"
             "output \"z\" {\n    value = [for n in names : n]\n}\n");
    tu_pcl_emit_refused(&g, LANG_CSHARP, "4:13", "uses a for expression");
    tu_pcl_emit_refused(&g, LANG_CSHARP, "7:13", "uses a for expression");
    tu_pcl_emit_refused(&g, LANG_JAVA, "4:13", "uses a for expression");
    tu_pcl_emit_refused(&g, LANG_JAVA, "7:13", "uses a for expression");
    unload(&g);
    g = load("names = [\"a\"]\nn = 1\noutput \"z\" {\n    value = [for n in names : n]\n}\n");
    char *named = tu_pcl_emit_ok(&g, LANG_CSHARP);
    tu_has(named, "[\"z\"] = names.Select(nItem => nItem).ToList(),");
    free(named);
    named = tu_pcl_emit_ok(&g, LANG_JAVA);
    tu_has(named, "ctx.export(\"z\", names.stream().map(nItem -> nItem).collect(Collectors.toList()));");
    free(named);
    unload(&g);
    /* Java: a list's index over a list the program does not name is refused */
    g = load("output \"x\" {\n    value = [for i, v in [\"a\"] : \"${i}${v}\"]\n}\n");
    tu_pcl_emit_refused(&g, LANG_JAVA, "2:13", "uses a for expression");
    unload(&g);
    unload(&f);
}
END_TEST

/* Go: locals are plain Go values (`names := []string{...}`), wrapped where an input takes them
 * (`pulumi.ToStringArray(names)`); a template is pulumi.Sprintf at an input and fmt.Sprintf
 * elsewhere; a conditional is a temporary set in an if/else and a for expression a loop, both
 * before the statement; over outputs, one ApplyT (pulumi.All for several) asserted to the result's
 * Output type; binary operators spaced as gofmt leaves them. Before: each was refused. */
START_TEST(test_go_expression_language) {
    fixture_t f =
        load("config \"n\" \"int\" {}\n"
             "config \"x\" \"number\" {}\n"
             "config \"s\" \"string\" {}\n"
             "names = [\"a\", \"b\"]\n"
             "tags = {\n    \"K\" = \"v\"\n}\n"
             "resource \"res\" \"lang:index:Res\" {\n    text = \"hi ${s}!\"\n    num = (x + 1) * 2 - x\n"
             "    flag = !(n > 2) && s != \"x\" || n == 0\n    items = [for v in names : \"p-${v}\" if v != \"b\"]\n}\n"
             "output \"plain\" {\n    value = n > 1 ? \"big\" : \"small\"\n}\n"
             "output \"one\" {\n    value = res.num + res.num * 2\n}\n"
             "output \"two\" {\n    value = res.flag ? res.text : s\n}\n"
             "output \"neg\" {\n    value = -res.num\n}\n"
             "output \"o\" {\n    value = \"${res.text}-`${s}` 100%\"\n}\n"
             "output \"m\" {\n    value = {for k, v in tags : k => \"${v}!\"}\n}\n"
             "output \"names\" {\n    value = names\n}\n"
             "output \"first\" {\n    value = names[0]\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "import (\n\t\"fmt\"\n\t\"sort\"\n\n\t\"example.com/pulumi-lang/sdk/go/lang\"\n");
    tu_has(go, "\t\tnames := []string{\n\t\t\t\"a\",\n\t\t\t\"b\",\n\t\t}\n");
    tu_has(go, "\t\ttags := map[string]string{\n\t\t\t\"K\": \"v\",\n\t\t}\n");
    tu_has(go, "\t\tvar forResult0 []string\n"
               "\t\tfor _, v := range names {\n"
               "\t\t\tif v != \"b\" {\n"
               "\t\t\t\tforResult0 = append(forResult0, fmt.Sprintf(\"p-%v\", v))\n"
               "\t\t\t}\n"
               "\t\t}\n"
               "\t\tres, err := lang.NewRes(ctx, \"res\", &lang.ResArgs{\n");
    tu_has(go, "\t\t\tText:  pulumi.Sprintf(\"hi %v!\", s),\n");
    tu_has(go, "\t\t\tNum:   pulumi.Float64((x+1)*2 - x),\n");
    tu_has(go, "\t\t\tFlag:  pulumi.Bool(!(n > 2) && s != \"x\" || n == 0),\n");
    tu_has(go, "\t\t\tItems: pulumi.ToStringArray(forResult0),\n");
    tu_has(go,
           "\t\tvar tmp0 string\n\t\tif n > 1 {\n\t\t\ttmp0 = \"big\"\n\t\t} else {\n\t\t\ttmp0 = \"small\"\n\t\t}\n"
           "\t\tctx.Export(\"plain\", pulumi.String(tmp0))\n");
    tu_has(go, "\t\tctx.Export(\"one\", res.Num.ApplyT(func(num float64) (float64, error) {\n"
               "\t\t\treturn num + num*2, nil\n\t\t}).(pulumi.Float64Output))\n");
    tu_has(go,
           "\t\tctx.Export(\"two\", pulumi.All(res.Flag, res.Text).ApplyT(func(_args []interface{}) (string, error) {\n"
           "\t\t\tflag := _args[0].(bool)\n\t\t\ttext := _args[1].(string)\n"
           "\t\t\tvar tmp1 string\n\t\t\tif flag {\n\t\t\t\ttmp1 = text\n\t\t\t} else {\n\t\t\t\ttmp1 = s\n\t\t\t}\n"
           "\t\t\treturn tmp1, nil\n\t\t}).(pulumi.StringOutput))\n");
    tu_has(go, "ctx.Export(\"neg\", res.Num.ApplyT(func(num float64) (float64, error) {\n\t\t\treturn -num, nil\n");
    tu_has(go, "ctx.Export(\"o\", res.Text.ApplyT(func(text string) (string, error) {\n"
               "\t\t\treturn fmt.Sprintf(\"%v-`%v` 100%%\", text, s), nil\n");
    tu_has(go, "\t\tforResult1 := map[string]string{}\n"
               "\t\tforRange1 := tags\n"
               "\t\tforKeys1 := make([]string, 0, len(forRange1))\n"
               "\t\tfor forKey1 := range forRange1 {\n"
               "\t\t\tforKeys1 = append(forKeys1, forKey1)\n"
               "\t\t}\n"
               "\t\tsort.Strings(forKeys1)\n"
               "\t\tfor _, k := range forKeys1 {\n"
               "\t\t\tv := forRange1[k]\n"
               "\t\t\tforResult1[k] = fmt.Sprintf(\"%v!\", v)\n"
               "\t\t}\n"
               "\t\tctx.Export(\"m\", pulumi.ToStringMap(forResult1))\n");
    tu_has(go, "ctx.Export(\"names\", pulumi.ToStringArray(names))\n");
    tu_has(go, "ctx.Export(\"first\", pulumi.String(names[0]))\n");
    free(go);
    unload(&f);
}
END_TEST

/* Go reads an optional output as a pointer (`func(boolean *bool)`, compared with nil) and a
 * resource's id as pulumi.ID (`string(id)` in the body); a local holding an output is the output;
 * a local nothing reads is `_ = value`. */
START_TEST(test_go_outputs_typed) {
    fixture_t f = load("resource \"res\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
                       "    items = []\n}\n"
                       "resource \"opt\" \"lang:index:Opt\" {}\n"
                       "local = res.text\n"
                       "unused = 1\n"
                       "negative = -2\n"
                       "output \"isNull\" {\n    value = opt.maybe == null ? \"null\" : \"set\"\n}\n"
                       "output \"idText\" {\n    value = \"id-${res.id}\"\n}\n"
                       "output \"viaLocal\" {\n    value = \"${local}!\"\n}\n"
                       "output \"same\" {\n    value = local\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "ctx.Export(\"isNull\", opt.Maybe.ApplyT(func(maybe *string) (string, error) {\n"
               "\t\t\tvar tmp0 string\n\t\t\tif maybe == nil {\n");
    tu_has(go, "ctx.Export(\"idText\", res.ID().ApplyT(func(id pulumi.ID) (string, error) {\n"
               "\t\t\treturn fmt.Sprintf(\"id-%v\", string(id)), nil\n");
    tu_has(go, "\t\tlocal := res.Text\n");
    tu_has(go, "\t\t_ = 1.0\n");
    tu_has(go, "\t\t_ = -2.0\n");
    tu_has(go, "ctx.Export(\"viaLocal\", local.ApplyT(func(local string) (string, error) {\n");
    tu_has(go, "ctx.Export(\"same\", local)\n");
    free(go);
    unload(&f);
}
END_TEST

/* Go: a plain (not Input) property takes a bare Go value — `"n"`, `pulumi.StringRef("o")` when
 * optional, `lang.CfgArgs{...}` (what it holds plain too), `[]lang.CfgArgs{...}`; a reference
 * there is refused with its position. Before: every plain property was refused. */
START_TEST(test_go_plain_values) {
    fixture_t f = load("resource \"p\" \"lang:index:Plain\" {\n    name = \"n\"\n    opt = \"o\"\n"
                       "    cfg = {\n        on = true\n        tags = {\n            \"k\" = \"v\"\n        }\n    }\n"
                       "    list = [{\n        on = false\n        size = 2\n    }]\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\t_, err := lang.NewPlain(ctx, \"p\", &lang.PlainArgs{\n"
               "\t\t\tName: \"n\",\n"
               "\t\t\tOpt:  pulumi.StringRef(\"o\"),\n"
               "\t\t\tCfg: lang.CfgArgs{\n"
               "\t\t\t\tOn: true,\n"
               "\t\t\t\tTags: map[string]string{\n\t\t\t\t\t\"k\": \"v\",\n\t\t\t\t},\n"
               "\t\t\t},\n"
               "\t\t\tList: []lang.CfgArgs{\n"
               "\t\t\t\tlang.CfgArgs{\n"
               "\t\t\t\t\tOn:   false,\n"
               "\t\t\t\t\tSize: pulumi.IntRef(2),\n");
    free(go);
    unload(&f);
    f = load("config \"c\" \"string\" {}\nresource \"p\" \"lang:index:Plain\" {\n    name = c\n"
             "    cfg = {\n        on = true\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:12", "plain (not Input) property");
    unload(&f);
}
END_TEST

/* Go: a splat is a loop appending each element's attribute (`splat0`), over outputs inside the
 * apply; a for variable that would hide an import (`fmt`) is renamed; an optional output (a
 * pointer) interpolated into a template is refused (%v would print its address). */
START_TEST(test_go_splat_and_names) {
    fixture_t f = load("resource \"res\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
                       "    items = []\n}\n"
                       "objs = [{ name = \"a\" }]\n"
                       "output \"names\" {\n    value = objs[*].name\n}\n"
                       "output \"items\" {\n    value = [for s in res.items[*] : \"${s}!\"]\n}\n"
                       "output \"hidden\" {\n    value = [for fmt in objs : \"${fmt.name}\"]\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    /* straight into pulumi.ToStringArray (which sends [] for nil) declared as Pulumi declares it; in an
     * apply, returned, an empty slice (a nil one is sent as null) */
    tu_has(go, "\t\tvar splat0 []string\n\t\tfor _, val0 := range objs {\n"
               "\t\t\tsplat0 = append(splat0, val0[\"name\"])\n\t\t}\n"
               "\t\tctx.Export(\"names\", pulumi.ToStringArray(splat0))\n");
    tu_has(go, "ctx.Export(\"items\", res.Items.ApplyT(func(items []string) ([]string, error) {\n"
               "\t\t\tsplat1 := []string{}\n\t\t\tfor _, val1 := range items {\n");
    tu_has(go, "\t\tfor _, _fmt := range objs {\n"
               "\t\t\tforResult1 = append(forResult1, fmt.Sprintf(\"%v\", _fmt[\"name\"]))\n");
    free(go);
    unload(&f);
    f = load("resource \"opt\" \"lang:index:Opt\" {}\noutput \"x\" {\n    value = \"m-${opt.maybe}\"\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:13", "template interpolation");
    unload(&f);
}
END_TEST

/* Until an emitter writes a construct it is refused with the construct and its position. */
START_TEST(test_unwritten_refused_with_position) {
    /* Go: a list interpolated into a template (%v would print Go's syntax), and operands whose Go
     * types do not agree (an int plus a fraction) */
    fixture_t f = load("names = [\"a\"]\noutput \"x\" {\n    value = \"all: ${names}\"\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:13", "template interpolation");
    unload(&f);
    f = load("config \"n\" \"int\" {}\noutput \"y\" {\n    value = n + 1.5\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:15", "the operator '+'");
    unload(&f);
    /* PCL divides exactly; Go would truncate an int division */
    f = load("config \"n\" \"int\" {}\noutput \"y\" {\n    value = n / 2\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:15", "the operator '/'");
    unload(&f);
    /* C# and Java write operators over one output only; Java compares numbers and booleans with ==,
     * strings with Objects.equals, and nothing else */
    fixture_t o = load("resource \"res\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
                       "    items = []\n}\noutput \"x\" {\n    value = res.num + res.num * res2.num\n}\n"
                       "config \"s\" {}\noutput \"y\" {\n    value = s == 1\n}\n"
                       "resource \"res2\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
                       "    items = []\n}\n");
    tu_pcl_emit_refused(&o, LANG_CSHARP, "main.pp:8:21", "the operator '+'");
    tu_pcl_emit_refused(&o, LANG_JAVA, "main.pp:8:21", "the operator '+'");
    tu_pcl_emit_refused(&o, LANG_JAVA, "main.pp:12:15", "the operator '=='");
    unload(&o);
    o = load("config \"s\" \"string\" {}\noutput \"y\" {\n    value = s == \"a\"\n}\n"
             "output \"z\" {\n    value = \"a\" != s\n}\n");
    char *java = tu_pcl_emit_ok(&o, LANG_JAVA);
    tu_has(java, "import java.util.Objects;\n");
    tu_has(java, "        ctx.export(\"y\", Objects.equals(s, \"a\"));\n        ctx.export(\"z\", "
                 "!Objects.equals(\"a\", s));\n");
    free(java);
    unload(&o);
    /* Java: a config value compared with null is a reference (a List, a Map, an Object, a String,
     * or an optional scalar's boxed orElse(null)), so Java's own `== null`; a required int or bool
     * is a primitive (Config.requireInteger gives an int), which no null compares with */
    o = load("config \"l\" \"list(string)\" {\n    default = null\n}\n"
             "config \"m\" \"map(string)\" {\n    default = null\n}\n"
             "config \"n\" \"int\" {\n    default = null\n}\nconfig \"s\" \"string\" {}\n"
             "output \"a\" {\n    value = l == null ? \"null\" : \"set\"\n}\n"
             "output \"b\" {\n    value = null != m\n}\noutput \"c\" {\n    value = n == null\n}\n"
             "output \"d\" {\n    value = s != null\n}\n");
    java = tu_pcl_emit_ok(&o, LANG_JAVA);
    tu_has(java, "        ctx.export(\"a\", l == null ? \"null\" : \"set\");\n"
                 "        ctx.export(\"b\", null != m);\n        ctx.export(\"c\", n == null);\n"
                 "        ctx.export(\"d\", s != null);\n");
    free(java);
    unload(&o);
    o = load("config \"n\" \"int\" {}\nconfig \"f\" \"bool\" {}\noutput \"a\" {\n    value = n == null\n}\n"
             "output \"b\" {\n    value = f != null\n}\noutput \"c\" {\n    value = n + 1 == null\n}\n");
    tu_pcl_emit_refused(&o, LANG_JAVA, "main.pp:4:15", "the operator '=='");
    tu_pcl_emit_refused(&o, LANG_JAVA, "main.pp:7:15", "the operator '!='");
    tu_pcl_emit_refused(&o, LANG_JAVA, "main.pp:10:19", "the operator '=='");
    unload(&o);
    /* Java: below a required output, by getters and get() of required properties, in an apply */
    o = load(
        "resource \"res\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n    items = []\n}\n"
        "output \"q\" {\n    value = res.items[0] == \"a\"\n}\n");
    java = tu_pcl_emit_ok(&o, LANG_JAVA);
    tu_has(java, "ctx.export(\"q\", res.items().applyValue(_items -> Objects.equals(_items.get(0), \"a\")));\n");
    free(java);
    unload(&o);
    /* YAML has no operators */
    fixture_t g = load("config \"n\" \"int\" {}\noutput \"x\" {\n    value = 1 + n\n}\n");
    tu_pcl_emit_refused(&g, LANG_YAML, "main.pp:3:15", "the operator '+'; Pulumi YAML has no operators");
    unload(&g);
}
END_TEST

/* Whether a local reads an output is decided once per local: a chain of locals that each read the
 * one before twice took 2^depth steps (fuzz_pcl timed out on a 93-byte program), and a local that
 * reads itself must end too (refused or written, never a hang). */
START_TEST(test_local_chains_linear) {
    char *text = malloc(64 * 1024);
    size_t n = (size_t)sprintf(text, "config \"s\" \"int\" {}\nl0 = s + 1\n");
    for (int i = 1; i < 60; i++)
        n += (size_t)sprintf(text + n, "l%d = l%d + l%d\n", i, i - 1, i - 1);
    sprintf(text + n, "output \"x\" {\n    value = l59\n}\n");
    fixture_t f = load(text);
    free(text);
    diag_list_t d;
    diag_list_init(&d);
    char *out = emit_program(f.p, LANG_TYPESCRIPT, &d); /* before the fix: 2^59 steps */
    free(out);
    diag_list_free(&d);
    unload(&f);
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse("me = { a = -me, b = me }\n", 25, "main.pp", &d);
    if (p) {
        out = emit_program(p, LANG_TYPESCRIPT, &d);
        free(out);
        pcl_program_free(p);
    }
    diag_list_free(&d);
}
END_TEST

/* A template over the last of a chain of locals that starts at a resource output is an output
 * whatever the chain's length. Before, a chain deeper than 64 locals was taken to read no output
 * (a recursion bound) and the template was written over plain values: TypeScript `${l69}-x`, an
 * Output printed as text. 70 locals in each language that writes locals, 10,000 in TypeScript;
 * and the shape of a value through a chain of conditionals (decided once per local too). */
static char *local_chain(int n) {
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "resource \"res\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
                 "    items = []\n}\nl0 = res.text\n");
    for (int i = 1; i < n; i++)
        buf_printf(&b, "l%d = l%d\n", i, i - 1);
    buf_printf(&b, "output \"o\" {\n    value = \"${l%d}-x\"\n}\n", n - 1);
    return buf_take(&b);
}

START_TEST(test_deep_local_chain_reads_output) {
    char *text = local_chain(70);
    fixture_t f = load(text);
    free(text);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const o = pulumi.interpolate`${l69}-x`;");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.export(\"o\", pulumi.Output.from_input(l69).apply(lambda l69: f\"{l69}-x\"))");
    free(py);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"o\"] = Output.Format($\"{l69}-x\"),");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"o\", Output.format(\"%s-x\", l69));");
    free(java);
    char *yaml = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(yaml, "  o: ${l69}-x\n");
    free(yaml);
    unload(&f);
    text = local_chain(10000);
    f = load(text);
    free(text);
    ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const o = pulumi.interpolate`${l9999}-x`;");
    free(ts);
    unload(&f);
    /* the shape of a local (what a for expression ranges over) through a chain of conditionals
     * that each read the local before twice: 2^depth steps before (26 locals took 5.4 s) */
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "l0 = [1]\n");
    for (int i = 1; i < 60; i++)
        buf_printf(&b, "l%d = true ? l%d : l%d\n", i, i - 1, i - 1);
    buf_puts(&b, "output \"o\" {\n    value = [for x in l59 : x]\n}\n");
    f = load(b.data);
    buf_free(&b);
    ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const o = l59.map(x => (x));");
    free(ts);
    unload(&f);
}
END_TEST

/* YAML: locals are `variables`, a template of references an interpolated string. */
START_TEST(test_yaml_variables_and_interpolation) {
    fixture_t f = load("config \"name\" \"string\" {}\n"
                       "greeting = \"hi ${name} $${x}\"\n"
                       "resource \"res\" \"lang:index:Res\" {\n    text = greeting\n    num = 1\n"
                       "    flag = true\n    items = [\"${res2.text}-a\"]\n}\n"
                       "resource \"res2\" \"lang:index:Res\" {\n    text = \"b\"\n    num = 1\n"
                       "    flag = true\n    items = []\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "variables:\n  greeting: hi ${name} $${x}\n");
    tu_has(y, "      text: ${greeting}\n");
    tu_has(y, "      items:\n        - ${res2.text}-a\n");
    free(y);
    unload(&f);
}
END_TEST

/* PCL's built-in functions: over plain values written as Pulumi writes them, with the modules and
 * helpers they need; over outputs inside an apply (secret, unsecret, toJSON take outputs as they
 * are); a resource's name and type read from the resource itself. */
START_TEST(test_builtin_functions) {
    fixture_t f = load("config \"s\" \"string\" {}\n"
                       "config \"l\" \"list(string)\" {}\n"
                       "config \"m\" \"map(string)\" {}\n"
                       "resource \"res\" \"lang:index:Res\" {\n    text = toBase64(s)\n    num = length(l)\n"
                       "    flag = true\n    items = split(\",\", fromBase64(s))\n}\n"
                       "output \"o1\" {\n    value = sha1(res.text)\n}\n"
                       "output \"o2\" {\n    value = toJSON({a = res.text})\n}\n"
                       "output \"o3\" {\n    value = lookup(m, \"k\", \"d\")\n}\n"
                       "output \"o4\" {\n    value = join(\"-\", res.items)\n}\n"
                       "output \"o5\" {\n    value = length(s)\n}\n"
                       "output \"o6\" {\n    value = entries(m)\n}\n"
                       "output \"o7\" {\n    value = [stack(), project(), organization(), cwd(), rootDirectory()]\n}\n"
                       "output \"o8\" {\n    value = unsecret(secret(s))\n}\n"
                       "output \"o9\" {\n    value = pulumiResourceName(res)\n}\n"
                       "output \"o10\" {\n    value = max(1, res.num, 3)\n}\n"
                       "output \"o11\" {\n    value = readFile(element(l, 0))\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "import * as crypto from \"crypto\";\nimport * as fs from \"fs\";\n");
    tu_has(ts, "text: Buffer.from(s).toString(\"base64\"),\n");
    tu_has(ts, "num: l.length,\n");
    tu_has(ts, "items: Buffer.from(s, \"base64\").toString(\"utf8\").split(\",\"),\n");
    tu_has(ts, "export const o1 = res.text.apply(text => crypto.createHash('sha1').update(text).digest('hex'));");
    tu_has(ts, "export const o2 = pulumi.jsonStringify({\n    a: res.text,\n});");
    tu_has(ts, "export const o3 = m[\"k\"] ?? \"d\";");
    tu_has(ts, "export const o4 = res.items.apply(items => items.join(\"-\"));");
    tu_has(ts, "export const o5 = [...new Intl.Segmenter().segment(s)].length;");
    tu_has(ts, "export const o6 = Object.entries(m).sort(([a], [b]) => Buffer.compare(Buffer.from(a), "
               "Buffer.from(b))).map(([k, v]) => "
               "({key: k, value: v}));");
    tu_has(ts, "pulumi.getStack(),\n    pulumi.getProject(),\n    pulumi.getOrganization(),\n    process.cwd(),\n"
               "    pulumi.getRootDirectory(),\n");
    tu_has(ts, "export const o8 = pulumi.unsecret(pulumi.secret(s));");
    tu_has(ts, "export const o9 = pulumi.resourceName(res);");
    tu_has(ts, "export const o10 = res.num.apply(num => Math.max(1, num, 3));");
    tu_has(ts, "export const o11 = fs.readFileSync(element(l, 0), \"utf8\");");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "import pulumi\nimport pulumi_lang as lang\nimport base64\nimport hashlib\nimport json\nimport os\n"
               "import unicodedata\n\ndef element(lst, index):\n");
    tu_has(py, "\n\n\ndef grapheme_length(s):\n");
    tu_has(py, "text=base64.b64encode(s.encode()).decode(),\n");
    tu_has(py, "num=len(l),\n");
    tu_has(py, "items=base64.b64decode(s.encode()).decode().split(\",\"))\n");
    tu_has(py, "pulumi.export(\"o1\", res.text.apply(lambda text: hashlib.sha1(text.encode()).hexdigest()))");
    tu_has(py, "pulumi.export(\"o2\", pulumi.Output.json_dumps({\n    \"a\": res.text,\n}, separators=(\",\", \":\"), "
               "ensure_ascii=False))");
    tu_has(py, "pulumi.export(\"o3\", m.get(\"k\", \"d\"))");
    tu_has(py, "pulumi.export(\"o4\", res.items.apply(lambda items: \"-\".join(items)))");
    tu_has(py, "pulumi.export(\"o5\", grapheme_length(s))");
    tu_has(py, "pulumi.export(\"o6\", [{\"key\": k, \"value\": v} for k, v in sorted(m.items())])");
    tu_has(py, "pulumi.get_stack(),\n    pulumi.get_project(),\n    pulumi.get_organization(),\n    os.getcwd(),\n"
               "    pulumi.get_root_directory(),\n");
    tu_has(py, "pulumi.export(\"o8\", pulumi.Output.unsecret(pulumi.Output.secret(s)))");
    tu_has(py, "pulumi.export(\"o9\", res.pulumi_resource_name)");
    tu_has(py, "pulumi.export(\"o10\", res.num.apply(lambda num: max(1, num, 3)))");
    tu_has(py,
           "pulumi.export(\"o11\", (lambda path: open(path, encoding=\"utf-8\", newline=\"\").read())(element(l, 0)))");
    free(py);
    /* the typed emitters do not write all of these functions yet: refused with the call's position */
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:11:13", "calls sha1() over an output, which the C# emitter cannot");
    /* Go writes lookup and entries (test_pcl_builtins test_builtins_go); here an int at a number input */
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:6:11", "a value of Go type int where the schema wants another type");
    unload(&f);
}
END_TEST

/* Go writes the built-in functions as Pulumi's Go generator does: over plain Go values (inside an
 * apply over outputs), with the imports and helper functions (after the imports) they need; a
 * base64 decoding goes to a temporary before the statement; a string's length() counts characters
 * (graphemeLength; Go's len counts bytes), a number's is refused. */
START_TEST(test_builtin_functions_go) {
    fixture_t f = load("config \"s\" \"string\" {}\nconfig \"l\" \"list(string)\" {}\nconfig \"a\" \"number\" {}\n"
                       "resource \"res\" \"lang:index:Res\" {\n    text = toBase64(s)\n    num = 2\n"
                       "    flag = true\n    items = split(\",\", fromBase64(s))\n}\n"
                       "output \"o1\" {\n    value = sha1(res.text)\n}\n"
                       "output \"o4\" {\n    value = join(\"-\", res.items)\n}\n"
                       "output \"o7\" {\n    value = [stack(), project(), organization(), rootDirectory()]\n}\n"
                       "output \"o8\" {\n    value = unsecret(secret(s))\n}\n"
                       "output \"o9\" {\n    value = pulumiResourceName(res)\n}\n"
                       "output \"o10\" {\n    value = max(1, res.num, 3)\n}\n"
                       "output \"o11\" {\n    value = readFile(join(\"/\", l))\n}\n"
                       "output \"o12\" {\n    value = min(a, 2.5)\n}\n"
                       "output \"o13\" {\n    value = length(l)\n}\n"
                       "output \"o14\" {\n    value = cwd()\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "import (\n\t\"crypto/sha1\"\n\t\"encoding/base64\"\n\t\"encoding/hex\"\n\t\"os\"\n\t\"strings\"\n\n");
    tu_has(go, ")\n\nfunc readFileOrPanic(path string) string {\n\tdata, err := os.ReadFile(path)\n");
    tu_has(go, "}\n\nfunc sha1Hash(input string) string {\n\thash := sha1.Sum([]byte(input))\n"
               "\treturn hex.EncodeToString(hash[:])\n}\n\nfunc main() {\n");
    tu_has(go, "\t\ttmpVar0, _ := base64.StdEncoding.DecodeString(s)\n\t\tres, err := lang.NewRes(");
    tu_has(go, "Text:  pulumi.String(base64.StdEncoding.EncodeToString([]byte(s))),\n");
    tu_has(go, "Items: pulumi.ToStringArray(strings.Split(string(tmpVar0), \",\")),\n");
    tu_has(
        go,
        "ctx.Export(\"o1\", res.Text.ApplyT(func(text string) (string, error) {\n\t\t\treturn sha1Hash(text), nil\n");
    tu_has(go, "\t\t\treturn strings.Join(items, \"-\"), nil\n");
    tu_has(go, "\t\t\tpulumi.String(ctx.Stack()),\n\t\t\tpulumi.String(ctx.Project()),\n"
               "\t\t\tpulumi.String(ctx.Organization()),\n\t\t\tpulumi.String(ctx.RootDirectory()),\n");
    tu_has(go, "ctx.Export(\"o8\", pulumi.Unsecret(pulumi.ToSecret(s).(pulumi.StringOutput)).(pulumi.StringOutput))\n");
    tu_has(go, "ctx.Export(\"o9\", pulumi.String(res.PulumiResourceName()))\n");
    tu_has(go, "\t\t\treturn max(1, num, 3), nil\n\t\t}).(pulumi.Float64Output))\n");
    tu_has(go, "ctx.Export(\"o11\", pulumi.String(readFileOrPanic(strings.Join(l, \"/\"))))\n");
    tu_has(go, "ctx.Export(\"o12\", pulumi.Float64(min(a, 2.5)))\n");
    tu_has(go, "ctx.Export(\"o13\", pulumi.Int(len(l)))\n");
    tu_has(go, "ctx.Export(\"o14\", pulumi.String(func(cwd string, err error) string {\n\t\t\tif err != nil {\n"
               "\t\t\t\tpanic(err)\n\t\t\t}\n\t\t\treturn cwd\n\t\t}(os.Getwd())))\n");
    free(go);
    unload(&f);
    /* a string's length counts characters (Go's len counts bytes): the graphemeLength helper */
    f = load("config \"s\" \"string\" {}\noutput \"n\" {\n    value = length(s)\n}\n");
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\"unicode\"\n");
    tu_has(go, "func graphemeLength(s string) int {\n");
    tu_has(go, "\t\tcase unicode.In(r, unicode.Mn, unicode.Me) || within(r, otherExtend):\n");
    tu_has(go, "ctx.Export(\"n\", pulumi.Int(graphemeLength(s)))\n");
    free(go);
    unload(&f);
    f = load("config \"n\" \"number\" {}\noutput \"l\" {\n    value = length(n)\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:13", "the Go type of a function call is not known");
    unload(&f);
}
END_TEST

/* Go reads into a value of no type after asserting what each part needs, as Pulumi writes it
 * (`a.(map[string]interface{})["k"]`, `.([]interface{})[0]`), and computes arithmetic over it as a
 * float64 (`.(float64)`; before, refused); an object-typed config value is a
 * map[string]interface{} (a MapOutput as a secret); secret() of a plain list or map is of the plain
 * Go value (`map[string]bool{...}`: a pulumi.Map would give a MapOutput, not the BoolMapOutput it is
 * asserted to), a list of whole numbers an []int also where an apply reads it. Before, the reads
 * were refused, and `m` and `l` failed at run time (the wrong Output type). */
START_TEST(test_go_untyped_and_secret_values) {
    fixture_t f = load("config \"anyObject\" {}\nconfig \"anObject\" \"object({property=string})\" {}\n"
                       "m = secret({\"key\": true})\nl = secret([1])\na = secret(anyObject)\nc = secret(anObject)\n"
                       "output \"a\" {\n    value = a.property\n}\noutput \"ai\" {\n    value = anyObject.list[0]\n}\n"
                       "output \"l\" {\n    value = l[0]\n}\noutput \"m\" {\n    value = m[\"key\"]\n}\n"
                       "output \"c\" {\n    value = c.property\n}\noutput \"n\" {\n    value = anyObject.n + 1\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    /* arithmetic over it: the number a JSON value decodes to, a float64 (TypeScript: Number(x)) */
    tu_has(go, "ctx.Export(\"n\", pulumi.Float64(anyObject.(map[string]interface{})[\"n\"].(float64)+1))\n");
    tu_has(go, "\t\tvar anObject map[string]interface{}\n\t\tcfg.RequireObject(\"anObject\", &anObject)\n");
    tu_has(go, "\t\tm := pulumi.ToSecret(map[string]bool{\n\t\t\t\"key\": true,\n\t\t}).(pulumi.BoolMapOutput)\n");
    tu_has(go, "\t\ta := pulumi.ToSecret(pulumi.Any(anyObject)).(pulumi.AnyOutput)\n"
               "\t\tc := pulumi.ToSecret(anObject).(pulumi.MapOutput)\n");
    tu_has(go, "\t\tctx.Export(\"a\", a.ApplyT(func(a interface{}) (interface{}, error) {\n"
               "\t\t\treturn a.(map[string]interface{})[\"property\"], nil\n\t\t}).(pulumi.AnyOutput))\n");
    tu_has(go, "ctx.Export(\"ai\", pulumi.Any(anyObject.(map[string]interface{})[\"list\"].([]interface{})[0]))\n");
    tu_has(go, "\t\tctx.Export(\"l\", l.ApplyT(func(l []int) (int, error) {\n");
    tu_has(go, "\t\tctx.Export(\"c\", c.ApplyT(func(c map[string]interface{}) (interface{}, error) {\n"
               "\t\t\treturn c[\"property\"], nil\n");
    free(go);
    /* C# and Java (l1-proxy-index) as Pulumi's .NET and Java generators write it: in an apply of the
     * secret local, into a literal list or object by index or key, into a config value of no type
     * (or of an object type) by GetProperty / a Map's get (test_held_locals_cs_java) */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        [\"a\"] = a.Apply(a => a.GetProperty(\"property\")),\n"
               "        [\"ai\"] = anyObject.GetProperty(\"list\")[0],\n"
               "        [\"l\"] = l.Apply(l => l[0]),\n        [\"m\"] = m.Apply(m => m[\"key\"]),\n"
               "        [\"c\"] = c.Apply(c => c.GetProperty(\"property\")),\n"
               "        [\"n\"] = anyObject.GetProperty(\"n\").GetDouble() + 1,\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java,
           "ctx.export(\"a\", a.applyValue(_a -> ((Map<String, Object>) _a).get(\"property\")));\n"
           "        ctx.export(\"ai\", ((List<Object>) ((Map<String, Object>) anyObject).get(\"list\")).get(0));\n"
           "        ctx.export(\"l\", l.applyValue(_l -> _l.get(0)));\n"
           "        ctx.export(\"m\", m.applyValue(_m -> _m.get(\"key\")));\n"
           "        ctx.export(\"c\", c.applyValue(_c -> ((Map<String, Object>) _c).get(\"property\")));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
}
END_TEST

/* Go: a stack output reading a scalar through an output property the schema leaves optional that Go
 * holds as a plain value (a list) returns its address from the apply, as Pulumi's generator types it
 * (`return &data.Items[0].Name, nil`, a StringPtrOutput: l2-proxy-index); not through a map index
 * (a map's value has no address), nor at a resource's input (which takes a StringInput). */
START_TEST(test_go_optional_read_pointer) {
    static const char *OP =
        "{\"name\":\"op\",\"version\":\"1.0.0\",\"types\":{\"op:index:Item\":{\"type\":\"object\","
        "\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]},"
        "\"op:index:Data\":{\"type\":\"object\",\"properties\":{"
        "\"items\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/types/op:index:Item\"}},"
        "\"byKey\":{\"type\":\"object\",\"additionalProperties\":{\"$ref\":\"#/types/op:index:Item\"}}}}},"
        "\"resources\":{\"op:index:Res\":{\"properties\":{\"data\":{\"$ref\":\"#/types/op:index:Data\"}},"
        "\"required\":[\"data\"],\"inputProperties\":{\"text\":{\"type\":\"string\"}}}}}";
    fixture_t f = tu_pcl_load(OP, "op.json",
                              "resource \"res\" \"op:index:Res\" {}\n"
                              "resource \"r2\" \"op:index:Res\" {\n    text = res.data.items[0].name\n}\n"
                              "output \"a\" {\n    value = res.data.items[0].name\n}\n"
                              "output \"b\" {\n    value = res.data.byKey[\"k\"].name\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "ctx.Export(\"a\", res.Data.ApplyT(func(data op.Data) (*string, error) {\n"
               "\t\t\treturn &data.Items[0].Name, nil\n\t\t}).(pulumi.StringPtrOutput))\n");
    tu_has(go, "ctx.Export(\"b\", res.Data.ApplyT(func(data op.Data) (string, error) {\n"
               "\t\t\treturn data.ByKey[\"k\"].Name, nil\n\t\t}).(pulumi.StringOutput))\n");
    tu_has(go, "\t\t\tText: res.Data.ApplyT(func(data op.Data) (string, error) {\n"
               "\t\t\t\treturn data.Items[0].Name, nil\n");
    free(go);
    unload(&f);
}
END_TEST

/* A call with the wrong number of arguments, or of no PCL function, is refused by the binder at
 * its position; a length() of a value of unknown shape, and a string at a number position, by the
 * emitters. */
START_TEST(test_builtin_functions_refused) {
    static const struct {
        const char *pcl, *want;
    } bad[] = {
        {"output \"o\" {\n    value = toBase64(\"a\", \"b\")\n}\n",
         "main.pp:2:13: 'value' calls toBase64() with 2 arguments; it takes one argument"},
        {"output \"o\" {\n    value = [stack(1)]\n}\n",
         "main.pp:2:14: 'value' calls stack() with 1 argument; it takes no arguments"},
        {"output \"o\" {\n    value = lookup({})\n}\n",
         "main.pp:2:13: 'value' calls lookup() with 1 argument; it takes two or three arguments"},
        {"output \"o\" {\n    value = base64encode(\"a\")\n}\n",
         "main.pp:2:13: 'value' calls base64encode(), which is not a PCL function; check its spelling"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        diag_list_t d;
        diag_list_init(&d);
        pcl_program_t *p = pcl_parse(bad[i].pcl, strlen(bad[i].pcl), "main.pp", &d);
        ck_assert_ptr_nonnull(p);
        ck_assert(!pcl_bind(p, NULL, &d));
        ck_assert_str_eq(diag_format(&d, d.head), bad[i].want);
        /* the emitters refuse the same call given the program unbound */
        diag_list_t e;
        diag_list_init(&e);
        ck_assert_ptr_null(emit_program(p, LANG_TYPESCRIPT, &e));
        ck_assert_msg(strstr(diag_format(&e, e.head), "main.pp") == NULL || e.errors > 0, "no error");
        diag_list_free(&e);
        pcl_program_free(p);
        diag_list_free(&d);
    }
    fixture_t f = load("x = {a = \"s\"}\n"
                       "output \"o\" {\n    value = length(x.a)\n}\n"
                       "resource \"res\" \"lang:index:Res\" {\n    text = \"a\"\n    num = res0.text\n"
                       "    flag = true\n    items = []\n}\n"
                       "resource \"res0\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n"
                       "    flag = true\n    items = []\n}\n"
                       "output \"p\" {\n    value = length(res0)\n}\n");
    /* a string output where the schema wants a number: Python converts it (test_string_where_bool_wanted)
     * and refuses only length(); the languages that do not convert yet refuse it */
    tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:18:13", "calls length() on a value the Python emitter cannot tell");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:7:11", "'num' gives a string where the schema wants a number");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:18:13",
                        "calls length() on a value the TypeScript emitter cannot tell");
    unload(&f);
}
END_TEST

/* The modules and helpers a program's functions need keep their names: a resource named like one
 * is renamed instead. */
START_TEST(test_builtin_names_reserved) {
    fixture_t f = load("resource \"fs\" \"lang:index:Res\" {\n    text = readFile(\"a.txt\")\n    num = 1\n"
                       "    flag = true\n    items = []\n}\n"
                       "resource \"base64\" \"lang:index:Res\" {\n    text = toBase64(fs.text)\n    num = 1\n"
                       "    flag = true\n    items = []\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "import * as fs from \"fs\";\n");
    tu_has(ts, "const fs2 = new lang.Res(\"fs\", {\n    text: fs.readFileSync(\"a.txt\", \"utf8\"),\n");
    tu_has(ts, "text: fs2.text.apply(text => Buffer.from(text).toString(\"base64\")),\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "import base64\n");
    tu_has(py, "base64_1 = lang.Res(\"base64\",\n    text=fs.text.apply(lambda text: "
               "base64.b64encode(text.encode()).decode()),\n");
    free(py);
    unload(&f);
}
END_TEST

/* An output named like a variable of the program cannot be `export const`: the TypeScript program
 * becomes Pulumi's async main function, every statement inside it and the outputs returned under
 * their names; a program whose outputs are free identifiers stays a module of exports. */
START_TEST(test_async_main_outputs) {
    fixture_t f = load("config \"input\" \"string\" {}\n"
                       "hash = sha1(input)\n"
                       "output \"hash\" {\n    value = hash\n}\n"
                       "output \"other\" {\n    value = [\n        input,\n        hash,\n    ]\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    ck_assert_str_eq(ts, "import * as pulumi from \"@pulumi/pulumi\";\n"
                         "import * as crypto from \"crypto\";\n\n"
                         "export = async () => {\n"
                         "    const config = new pulumi.Config();\n"
                         "    const input = config.require(\"input\");\n"
                         "    const hash = crypto.createHash('sha1').update(input).digest('hex');\n"
                         "    return {\n"
                         "        hash: hash,\n"
                         "        other: [\n"
                         "            input,\n"
                         "            hash,\n"
                         "        ],\n"
                         "    };\n"
                         "}\n");
    free(ts);
    unload(&f);
    f = load("config \"input\" \"string\" {}\noutput \"digest\" {\n    value = sha1(input)\n}\n");
    ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "\nexport const digest = crypto.createHash('sha1').update(input).digest('hex');\n");
    ck_assert_ptr_null(strstr(ts, "async"));
    free(ts);
    unload(&f);
}
END_TEST

/* A config block without a type reads a value of any type; `default` makes the read optional
 * (`??`, so a value set to false stays false; Python's `if x is None`). Python reads config and
 * plain data with ["key"] (they are dicts there); Go cannot read into an untyped value, and no
 * emitter adds numbers read from one without converting them: refused. */
/* Go: a scalar config default is the variable's first value, replaced by the configured value.
 * Pulumi's `if param := cfg.GetX(key); param != 0` cannot tell a key set to the zero value from a
 * missing one: written only where the default is that zero value; any other default is replaced
 * when cfg.TryX finds the key (a configured false stays false). A default of no literal, or a secret
 * one, is refused. */
START_TEST(test_config_default_go) {
    fixture_t f = load("config \"on\" \"bool\" {\n    default = true\n}\n"
                       "config \"off\" \"bool\" {\n    default = false\n}\n"
                       "config \"n\" \"number\" {\n    default = 41.5\n}\n"
                       "config \"i\" \"int\" {\n    default = 0\n}\n"
                       "config \"s\" \"string\" {\n    default = \"x\"\n}\n"
                       "config \"unused\" \"string\" {\n    default = \"y\"\n}\n"
                       "output \"o\" {\n    value = [on, off, n, i, s]\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tcfg := config.New(ctx, \"\")\n\t\ton := true\n"
               "\t\tif param, err := cfg.TryBool(\"on\"); err == nil {\n\t\t\ton = param\n\t\t}\n"
               "\t\toff := false\n\t\tif param := cfg.GetBool(\"off\"); param {\n\t\t\toff = param\n\t\t}\n"
               "\t\tn := float64(41.5)\n\t\tif param, err := cfg.TryFloat64(\"n\"); err == nil {\n"
               "\t\t\tn = param\n\t\t}\n"
               "\t\ti := 0\n\t\tif param := cfg.GetInt(\"i\"); param != 0 {\n\t\t\ti = param\n\t\t}\n"
               "\t\ts := \"x\"\n\t\tif param, err := cfg.Try(\"s\"); err == nil {\n\t\t\ts = param\n\t\t}\n"
               "\t\tctx.Export(");
    ck_assert_ptr_null(strstr(go, "unused"));
    free(go);
    unload(&f);
    f = load("config \"k\" \"string\" {\n    default = \"a${1}\"\n}\n"
             "output \"o\" {\n    value = k\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:2:5: config 'k'",
                        "the Go emitter cannot write a config value's default yet");
    unload(&f);
}
END_TEST

/* Go: a list, map or any config value with a literal default is decoded when the key is set (and not
 * null), else takes the default (`config.getObject(k) ?? default`); its Output is declared only when
 * something reads it (Go rejects an unread variable: length() reads the plain value, which then has the
 * config's name, as Pulumi's generator names it: `var opt []interface{}`). A null among
 * a typed list's items has no Go value: refused. */
START_TEST(test_config_default_go_nested) {
    fixture_t f = load("config \"names\" \"list(string)\" {\n    default = [\"a\", \"b\"]\n}\n"
                       "config \"opt\" \"list(optional(string))\" {\n    default = [null, \"hello\"]\n}\n"
                       "config \"tags\" \"map(int)\" {\n    default = { x = 1 }\n}\n"
                       "config \"none\" \"map(string)\" {\n    default = null\n}\n"
                       "config \"blob\" {\n    default = { key = \"value\" }\n}\n"
                       "output \"o\" {\n    value = names\n}\noutput \"n\" {\n    value = length(opt)\n}\n"
                       "output \"t\" {\n    value = tags\n}\noutput \"m\" {\n    value = none\n}\n"
                       "output \"b\" {\n    value = blob\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tvar namesValue []string\n\t\tif err := cfg.GetObject(\"names\", &namesValue); err != nil {\n"
               "\t\t\treturn err\n\t\t}\n\t\tif namesValue == nil {\n\t\t\tnamesValue = []string{\n"
               "\t\t\t\t\"a\",\n\t\t\t\t\"b\",\n\t\t\t}\n\t\t}\n"
               "\t\tnames := pulumi.ToOutput(namesValue).(pulumi.StringArrayOutput)\n");
    tu_has(go, "\t\t\topt = []interface{}{\n\t\t\t\tnil,\n\t\t\t\t\"hello\",\n\t\t\t}\n\t\t}\n"
               "\t\tvar tagsValue map[string]int\n");
    tu_has(go, "\t\t\ttagsValue = map[string]int{\n\t\t\t\t\"x\": 1,\n\t\t\t}\n");
    tu_has(go, "\t\tif err := cfg.GetObject(\"none\", &noneValue); err != nil {\n\t\t\treturn err\n\t\t}\n"
               "\t\tnone := pulumi.ToOutput(noneValue).(pulumi.StringMapOutput)\n");
    tu_has(go, "\t\t\tblobValue = map[string]interface{}{\n\t\t\t\t\"key\": \"value\",\n\t\t\t}\n\t\t}\n"
               "\t\tblob := pulumi.ToOutput(pulumi.Any(blobValue)).(pulumi.AnyOutput)\n");
    tu_has(go, "ctx.Export(\"n\", pulumi.Int(len(opt)))");
    ck_assert_ptr_null(strstr(go, "opt :="));
    free(go);
    unload(&f);
    f = load("config \"l\" \"list(string)\" {\n    default = [null, \"a\"]\n}\noutput \"o\" {\n    value = l\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:2:5", "the Go emitter cannot write a config value's default yet");
    unload(&f);
}
END_TEST

/* Go: a stack output of string or whole-number literals, of assets or of archives is the typed
 * collection Pulumi writes (pulumi.StringArray, pulumi.IntMap, pulumi.AssetOrArchiveArray,
 * pulumi.ArchiveMap); other lists and maps stay pulumi.Array / pulumi.Map. Strings are
 * escaped as strconv.Quote escapes them: \a, \b, \f, \v, and \u / \U for characters Go does not print
 * (a no-break space, the tag character U+E0021). */
START_TEST(test_go_typed_literals_and_escapes) {
    fixture_t f = load("output \"s\" {\n    value = [\"a\", \"b\"]\n}\n"
                       "output \"n\" {\n    value = {\n        x = 1\n    }\n}\n"
                       "output \"m\" {\n    value = [\"a\", 1.5]\n}\n"
                       "output \"e\" {\n    value = \"\\u0007\\u0008\\u000b\\u000c\\u00a0\\U000e0021é\"\n}\n"
                       "output \"as\" {\n    value = [fileAsset(\"a.txt\"), stringAsset(\"b\")]\n}\n"
                       "output \"ar\" {\n    value = {\n        x = fileArchive(\"y.tar\")\n    }\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tctx.Export(\"s\", pulumi.StringArray{\n\t\t\tpulumi.String(\"a\"),\n");
    tu_has(go, "\t\tctx.Export(\"n\", pulumi.IntMap{\n\t\t\t\"x\": pulumi.Int(1),\n");
    tu_has(go, "\t\tctx.Export(\"m\", pulumi.Array{\n");
    tu_has(go, "\t\tctx.Export(\"e\", pulumi.String(\"\\a\\b\\v\\f\\u00a0\\U000e0021é\"))\n");
    tu_has(go, "\t\tctx.Export(\"as\", pulumi.AssetOrArchiveArray{\n\t\t\tpulumi.NewFileAsset(\"a.txt\"),\n");
    tu_has(go, "\t\tctx.Export(\"ar\", pulumi.ArchiveMap{\n\t\t\t\"x\": pulumi.NewFileArchive(\"y.tar\"),\n");
    free(go);
    unload(&f);
}
END_TEST

/* Go: a union holding an enum (a "relaxed" enum) is an input of the enum's element type in Pulumi's Go
 * SDKs: a member's value is its constant converted to it (pulumi.String(u.ColorRed)), another value
 * the plain string, a list of them a pulumi.StringArray; a literal at another union (a pulumi.Input)
 * is pulumi.Any(...), as Pulumi writes them. */
START_TEST(test_go_union_literals) {
    static const char *U =
        "{\"name\":\"u\",\"version\":\"1.0.0\",\"types\":{\"u:index:Color\":{\"type\":\"string\","
        "\"enum\":[{\"value\":\"Red\"},{\"value\":\"Blue\"}]}},\"resources\":{\"u:index:R\":{"
        "\"inputProperties\":{\"c\":{\"oneOf\":[{\"type\":\"string\"},{\"$ref\":\"#/types/u:index:Color\"}]},"
        "\"cs\":{\"type\":\"array\",\"items\":{\"oneOf\":[{\"$ref\":\"#/types/u:index:Color\"},"
        "{\"type\":\"string\"}]}},\"si\":{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]}}}}}";
    fixture_t f = tu_pcl_load(U, "u.json",
                              "resource \"r\" \"u:index:R\" {\n    c = \"Red\"\n    cs = [\"Blue\", \"Green\"]\n"
                              "    si = 42\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\t\tC: pulumi.String(u.ColorRed),\n");
    tu_has(go,
           "\t\t\tCs: pulumi.StringArray{\n\t\t\t\tpulumi.String(u.ColorBlue),\n\t\t\t\tpulumi.String(\"Green\"),\n");
    tu_has(go, "\t\t\tSi: pulumi.Any(42),\n");
    free(go);
    unload(&f);
}
END_TEST

/* Go: names as Pulumi's Go SDKs give them (pkg/codegen/go gen.go): an object type whose token a
 * resource has too is <Name>Type (its Args ThingTypeArgs), a field named elementType ElementType_ and
 * its getter on an object's Output GetElementType_(); a type whose name collides with another the
 * SDK derives from a resource (WidgetArgs of the resource Widget) is renamed by rules cimport does
 * not follow: refused. */
START_TEST(test_go_reserved_type_names) {
    static const char *T =
        "{\"name\":\"t\",\"version\":\"1.0.0\",\"types\":{\"t:index:Thing\":{\"type\":\"object\",\"properties\":{"
        "\"elementType\":{\"type\":\"string\"}},\"required\":[\"elementType\"]},\"t:index:WidgetArgs\":{\"type\":"
        "\"object\",\"properties\":{\"x\":{\"type\":\"string\"}}}},\"resources\":{\"t:index:Thing\":{\"properties\":{"
        "\"elementType\":{\"$ref\":\"#/types/t:index:Thing\"}},\"required\":[\"elementType\"],\"inputProperties\":{"
        "\"elementType\":{\"$ref\":\"#/types/t:index:Thing\"}}},\"t:index:Widget\":{\"inputProperties\":{\"a\":{"
        "\"$ref\":\"#/types/t:index:WidgetArgs\"}}}}}";
    fixture_t f = tu_pcl_load(T, "t.json",
                              "resource \"r\" \"t:index:Thing\" {\n    elementType = {\n        elementType = \"x\"\n"
                              "    }\n}\noutput \"o\" {\n    value = r.elementType.elementType\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tr, err := t.NewThing(ctx, \"r\", &t.ThingArgs{\n\t\t\tElementType_: &t.ThingTypeArgs{\n"
               "\t\t\t\tElementType_: pulumi.String(\"x\"),\n");
    tu_has(go, "\t\tctx.Export(\"o\", r.ElementType_.GetElementType_())\n");
    free(go);
    unload(&f);
    f = tu_pcl_load(T, "t.json", "resource \"w\" \"t:index:Widget\" {\n    a = {\n        x = \"y\"\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "resource 'w'", "the type t:index:WidgetArgs is renamed in Go SDKs");
    unload(&f);
}
END_TEST

/* Go: a local map of resources' ids is a map[string]pulumi.IDInput, an entry read as its ID Output
 * converted where the schema wants a string (ToStringOutput), a number or a boolean (strconv in an
 * apply), the whole map exported as a pulumi.IDMap, as Pulumi's Go writes them (before: pulumi.Map,
 * read with ApplyT, which a pulumi.Map has not, or refused at a number). */
START_TEST(test_go_id_map_local) {
    fixture_t f = load("resource \"a\" \"lang:index:Res\" {\n    text = \"1\"\n    num = 1\n    flag = true\n"
                       "    items = []\n}\nids = {\n    x = a.id\n}\n"
                       "resource \"b\" \"lang:index:Res\" {\n    text = ids[\"x\"]\n    num = ids[\"x\"]\n"
                       "    flag = ids[\"x\"]\n    items = []\n}\noutput \"o\" {\n    value = ids\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tids := map[string]pulumi.IDInput{\n\t\t\t\"x\": a.ID(),\n\t\t}\n");
    tu_has(go, "ids[\"x\"].ToIDOutput().ToStringOutput(),\n");
    tu_has(go, "ids[\"x\"].ToIDOutput().ApplyT(func(id pulumi.ID) (float64, error) { return "
               "strconv.ParseFloat(string(id), 64) }).(pulumi.Float64Output),\n");
    tu_has(go, "ids[\"x\"].ToIDOutput().ApplyT(func(id pulumi.ID) (bool, error) { return strconv.ParseBool(string(id)) "
               "}).(pulumi.BoolOutput),\n");
    tu_has(go, "\t\tctx.Export(\"o\", pulumi.IDMap(ids))\n");
    free(go);
    unload(&f);
}
END_TEST

/* Go: an input typed by an enum of another package (an external $ref) is that package's enum member,
 * from its SDK, when the program uses that package (at the version the reference names); else the
 * value is refused with its position, as before. */
START_TEST(test_go_external_enum) {
    static const char *ENUM_PKG = "{\"name\":\"en\",\"version\":\"3.0.0\",\"resources\":{\"en:index:Res\":{"
                                  "\"inputProperties\":{\"e\":{\"$ref\":\"#/types/en:index:Color\"}}}},"
                                  "\"types\":{\"en:index:Color\":{\"type\":\"string\",\"enum\":[{\"value\":\"red\","
                                  "\"name\":\"Red\"},{\"value\":\"blue\",\"name\":\"Blue\"}]}}}";
    static const char *REF_PKG =
        "{\"name\":\"sink\",\"version\":\"1.0.0\",\"resources\":{\"sink:index:Sink\":{"
        "\"inputProperties\":{\"c\":{\"$ref\":\"/en/v3.0.0/schema.json#/types/en:index:Color\"}}}}}";
    const char *pcl = "resource \"a\" \"en:index:Res\" {\n    e = \"red\"\n}\n"
                      "resource \"b\" \"sink:index:Sink\" {\n    c = \"blue\"\n}\n";
    diag_list_t d;
    diag_list_init(&d);
    schema_set_t *set = schema_set_new();
    schema_set_add(set, schema_load_buffer(ENUM_PKG, strlen(ENUM_PKG), "en.json", &d));
    schema_set_add(set, schema_load_buffer(REF_PKG, strlen(REF_PKG), "sink.json", &d));
    fixture_t f = {set, pcl_parse(pcl, strlen(pcl), "main.pp", &d)};
    ck_assert(pcl_bind(f.p, f.set, &d));
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\"example.com/pulumi-en/sdk/go/v3/en\"\n");
    tu_has(go, "_, err = sink.NewSink(ctx, \"b\", &sink.SinkArgs{\n\t\t\tC: en.ColorBlue,\n\t\t})\n");
    free(go);
    pcl_program_free(f.p);
    /* without the enum's package in the program, the value stays refused */
    f.p = pcl_parse(pcl + strlen("resource \"a\" \"en:index:Res\" {\n    e = \"red\"\n}\n"),
                    strlen(pcl) - strlen("resource \"a\" \"en:index:Res\" {\n    e = \"red\"\n}\n"), "main.pp", &d);
    ck_assert(pcl_bind(f.p, f.set, &d));
    tu_pcl_emit_refused(&f, LANG_GO, "resource 'b'", "a value typed by another package's type");
    unload(&f);
    diag_list_free(&d);
}
END_TEST

/* Go: a read with an index from a resource's output is written in an apply over the output, as
 * Pulumi writes it (it was the SDK's Index/MapIndex chain); an apply's result of a type the SDK has
 * no Output for is asserted to AnyOutput. */
START_TEST(test_go_output_index_read) {
    fixture_t f = load("resource \"res\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
                       "    items = []\n}\noutput \"o\" {\n    value = res.items[0]\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "ctx.Export(\"o\", res.Items.ApplyT(func(items []string) (string, error) {\n"
               "\t\t\treturn items[0], nil\n\t\t}).(pulumi.StringOutput))\n");
    ck_assert_ptr_null(strstr(go, ".Index("));
    free(go);
    unload(&f);
    /* a list of optional values has no Output type of its own in the SDK (no StringPtrArrayOutput):
     * the apply's result is an AnyOutput */
    f = load("resource \"opt\" \"lang:index:Opt\" {}\noutput \"o\" {\n    value = [for s in [\"a\"] : opt.maybe]\n}\n");
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "ctx.Export(\"o\", opt.Maybe.ApplyT(func(maybe *string) ([]*string, error) {\n");
    tu_has(go, "\t\t}).(pulumi.AnyOutput))\n");
    ck_assert_ptr_null(strstr(go, "PtrArray"));
    free(go);
    unload(&f);
}
END_TEST

START_TEST(test_config_default_and_untyped) {
    fixture_t f = load("config \"flag\" \"bool\" {\n    default = true\n}\n"
                       "config \"obj\" {}\n"
                       "config \"names\" {\n    default = {}\n}\n"
                       "output \"a\" {\n    value = obj.a\n}\n"
                       "output \"b\" {\n    value = [for e in entries(names) : e.value]\n}\n"
                       "output \"c\" {\n    value = flag\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "const flag = config.getBoolean(\"flag\") ?? true;\n");
    tu_has(ts, "const obj = config.requireObject<any>(\"obj\");\n");
    tu_has(ts, "const names = config.getObject<any>(\"names\") ?? {};\n");
    tu_has(ts, "export const b = Object.entries(names).sort(([a], [b]) => Buffer.compare(Buffer.from(a), "
               "Buffer.from(b))).map(([k, v]) "
               "=> ({key: k, value: v})).map(e => (e.value));");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "flag = config.get_bool(\"flag\")\nif flag is None:\n    flag = True\n");
    tu_has(py, "obj = config.require_object(\"obj\")\n");
    tu_has(py, "pulumi.export(\"a\", obj[\"a\"])");
    tu_has(
        py,
        "pulumi.export(\"b\", [e[\"value\"] for e in [{\"key\": k, \"value\": v} for k, v in sorted(names.items())]])");
    free(py);
    /* C# and Java: the entries of a value of no type, read as a map (a JsonElement's properties, Gson's
     * Map), each a map of "key" and "value" that a for expression's variable reads by key */
    char *cs0 = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs0, "[\"b\"] = names.EnumerateObject().OrderBy(p => p.Name, "
                "Comparer<string>.Create(CompareCodePoints)).Select(p => new "
                "Dictionary<string, object?> { [\"key\"] = p.Name, [\"value\"] = p.Value }).ToList().Select(e => "
                "e[\"value\"]).ToList(),\n");
    parses(LANG_CSHARP, cs0);
    free(cs0);
    char *java0 = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java0, "ctx.export(\"b\", ((Map<String, Object>) "
                  "names).entrySet().stream().sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing((String "
                  "_k) -> _k.codePoints().toArray(), java.util.Arrays::compare)))"
                  ".map(_kv -> Map.of(\"key\", _kv.getKey(), \"value\", _kv.getValue())).collect(Collectors.toList())"
                  ".stream().map(e -> e.get(\"value\")).collect(Collectors.toList()));\n");
    parses(LANG_JAVA, java0);
    free(java0);
    unload(&f);
    /* a map's entries in a for expression: its variable read by key (`entry["value"]`,
     * `entry.get("value")`), not as a member (`entry.Value`, `entry.value()`: a Dictionary and a Map
     * have none; before, both were written and did not compile) */
    f = load("config \"aMap\" \"map(string)\" {}\noutput \"n\" {\n    value = [for entry in entries(aMap) : "
             "entry.value]\n}\n");
    cs0 = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs0, ".ToList().Select(entry => entry[\"value\"]).ToList(),\n");
    free(cs0);
    java0 = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java0, ".stream().map(entry -> entry.get(\"value\")).collect(Collectors.toList()));\n");
    free(java0);
    unload(&f);
    /* arithmetic over a value of no type converts it to a number first, as PCL's operators do (a
     * string "2" is 2, not concatenated) */
    f = load("config \"obj\" {}\nconfig \"n\" {}\noutput \"sum\" {\n    value = obj.a + 1\n}\n"
             "output \"s2\" {\n    value = n * 2\n}\n");
    ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const sum = Number(obj.a) + 1;\nexport const s2 = Number(n) * 2;\n");
    free(ts);
    py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.export(\"sum\", float(obj[\"a\"]) + 1)\npulumi.export(\"s2\", float(n) * 2)\n");
    free(py);
    /* C# and Java as Pulumi's .NET and Java generators write it: a JsonElement's GetDouble(), Gson's
     * Number's doubleValue() (what is read into it by GetProperty, a Map's get) */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"sum\"] = obj.GetProperty(\"a\").GetDouble() + 1,\n        [\"s2\"] = n.GetDouble() * 2,\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"sum\", ((Number) ((Map<String, Object>) obj).get(\"a\")).doubleValue() + 1);\n"
                 "        ctx.export(\"s2\", ((Number) n).doubleValue() * 2);\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* read into it other than whole, in arithmetic or in a list or object: refused */
    f = load("config \"obj\" {}\noutput \"t\" {\n    value = \"${obj.a}\"\n}\n"
             "output \"e\" {\n    value = obj.a == \"x\"\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_JAVA : LANG_CSHARP;
        tu_pcl_emit_refused(&f, lang, "main.pp:3:16", "reads 'obj.a', a value of no type, into template");
        tu_pcl_emit_refused(&f, lang, "main.pp:6:13", "reads 'obj.a', a value of no type, into the operator '=='");
    }
    unload(&f);
}
END_TEST

/* C# and Java write an operator or conditional over one output (however often read) in an apply of
 * it, as Pulumi's .NET and Java generators do: `res.Num.Apply(num => num + 1)`,
 * `res.num().applyValue(_num -> _num + 1)` (a Java lambda's parameter may not shadow a local); what
 * is read below the output comes from the parameter. Java only over a config value or a required
 * output read whole (an optional output's getter gives an Optional, never null; one compared with
 * null is unwrapped: test_java_optional_outputs). */
START_TEST(test_operators_over_outputs_cs_java) {
    static const char *schema =
        "{\"name\":\"ap\",\"version\":\"1.0.0\",\"resources\":{\"ap:index:Res\":{"
        "\"properties\":{\"num\":{\"type\":\"number\"},\"obj\":{\"$ref\":\"#/types/ap:index:Obj\"},"
        "\"opt\":{\"type\":\"number\"},\"obj2\":{\"$ref\":\"#/types/ap:index:Obj\"}},"
        "\"required\":[\"num\",\"obj\"],\"inputProperties\":{}}},"
        "\"types\":{\"ap:index:Obj\":{\"type\":\"object\",\"properties\":{\"size\":{\"type\":\"integer\"}}}}}";
    fixture_t f = tu_pcl_load(schema, "ap.json",
                              "config \"sec\" \"number\" {\n    secret = true\n}\n"
                              "resource \"res\" \"ap:index:Res\" {}\n"
                              "output \"a\" {\n    value = res.num * 2 + res.num\n}\n"
                              "output \"b\" {\n    value = res.obj.size == null ? \"none\" : \"some\"\n}\n"
                              "output \"c\" {\n    value = -sec\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"a\"] = res.Num.Apply(num => num * 2 + num),\n");
    tu_has(cs, "[\"b\"] = res.Obj.Apply(obj => obj.Size == null ? \"none\" : \"some\"),\n");
    tu_has(cs, "[\"c\"] = sec.Apply(sec => -sec),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    /* Java: below an output an optional property's getter gives an Optional, compared with null
     * unwrapped (test_java_optional_outputs) */
    char *jb = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(jb, "ctx.export(\"b\", res.obj().applyValue(_obj -> _obj.size().orElse(null) == null ? \"none\" : "
               "\"some\"));\n");
    parses(LANG_JAVA, jb);
    free(jb);
    unload(&f);
    f = tu_pcl_load(schema, "ap.json",
                    "config \"sec\" \"number\" {\n    secret = true\n}\n"
                    "resource \"res\" \"ap:index:Res\" {}\n"
                    "output \"a\" {\n    value = res.num * 2 + res.num\n}\n"
                    "output \"c\" {\n    value = -sec\n}\n"
                    "output \"d\" {\n    value = res.opt + 1\n}\n"
                    "output \"e\" {\n    value = res.obj2.size\n}\n");
    char *cs2 = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs2, "[\"d\"] = res.Opt.Apply(opt => opt + 1),\n");
    /* below an output the resource may leave unset: null-conditional */
    tu_has(cs2, "[\"e\"] = res.Obj2.Apply(v => v?.Size),\n");
    free(cs2);
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:12:21", "uses the operator '+'"); /* an optional output */
    unload(&f);
    f = tu_pcl_load(schema, "ap.json",
                    "config \"sec\" \"number\" {\n    secret = true\n}\n"
                    "resource \"res\" \"ap:index:Res\" {}\n"
                    "output \"a\" {\n    value = res.num * 2 + res.num\n}\n"
                    "output \"c\" {\n    value = -sec\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"a\", res.num().applyValue(_num -> _num * 2 + _num));\n");
    tu_has(java, "ctx.export(\"c\", sec.applyValue(_sec -> -_sec));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* below an output the resource may leave unset; a template in the apply: refused */
    f = tu_pcl_load(schema, "ap.json",
                    "resource \"res\" \"ap:index:Res\" {}\n"
                    "output \"a\" {\n    value = res.num > 1 ? \"${res.num}\" : \"small\"\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:25", "uses a conditional");
    unload(&f);
}
END_TEST

/* C# and Java read a scalar config value with a default (a literal of its type, not secret) by the
 * getter that gives nothing when it is unset, as Pulumi's .NET and Java generators write it: C#
 * `config.GetDouble("n") ?? 1.0`, Java `ctx.config().getDouble("n").orElse(1.0)` (a whole number
 * at a number written as a double); a secret's default or one of another kind stays refused. */
START_TEST(test_config_default_cs_java) {
    fixture_t f = load("config \"n\" \"number\" {\n    default = 1\n}\n"
                       "config \"i\" \"int\" {\n    default = 2\n}\n"
                       "config \"s\" \"string\" {\n    default = \"x\"\n}\n"
                       "config \"b\" \"bool\" {\n    default = false\n}\n"
                       "output \"o\" {\n    value = [n, i, s, b]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "    var config = new Config();\n    var n = config.GetDouble(\"n\") ?? 1.0;\n\n"
               "    var i = config.GetInt32(\"i\") ?? 2;\n\n    var s = config.Get(\"s\") ?? \"x\";\n\n"
               "    var b = config.GetBoolean(\"b\") ?? false;\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "final var n = ctx.config().getDouble(\"n\").orElse(1.0);\n\n"
                 "        final var i = ctx.config().getInteger(\"i\").orElse(2);\n\n"
                 "        final var s = ctx.config().get(\"s\").orElse(\"x\");\n\n"
                 "        final var b = ctx.config().getBoolean(\"b\").orElse(false);\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* C#: a list of scalars, as Pulumi's .NET generator writes it */
    f = load("config \"l\" \"list(string)\" {\n    default = [null, \"a\"]\n}\noutput \"o\" {\n    value = l\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs,
           "    var l = config.GetObject<string[]>(\"l\") ?? new[]\n    {\n        null,\n        \"a\",\n    };\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    /* Java: Config.getObject(key, String[].class) as a List, else the default; Arrays.asList (List.of
     * rejects a null item) */
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "final var l = ctx.config().getObject(\"l\", String[].class).map(Arrays::asList).orElse("
                 "Arrays.asList(\n            null,\n            \"a\"));\n");
    tu_has(java, "import java.util.Arrays;\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* null, of any type: the getter that gives nothing when unset; a value of no type (or an object
     * type) with a literal default, as Pulumi's .NET (a JsonElement) and Java generators write it */
    f = load("config \"u\" {\n    default = { \"key\" = \"value\" }\n}\n"
             "config \"e\" {\n    default = {}\n}\n"
             "config \"s\" \"string\" {\n    default = null\n}\n"
             "config \"l\" \"list(string)\" {\n    default = null\n}\n"
             "config \"m\" \"map(string)\" {\n    default = null\n}\n"
             "config \"o\" \"object({prop=string})\" {\n    default = null\n}\n"
             "output \"x\" {\n    value = u\n}\noutput \"y\" {\n    value = [s]\n}\n"
             "output \"z\" {\n    value = l\n}\noutput \"w\" {\n    value = m\n}\n"
             "output \"v\" {\n    value = o\n}\noutput \"t\" {\n    value = e\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "using System.Text.Json;\n");
    tu_has(cs, "    var u = config.GetObject<JsonElement?>(\"u\") ?? JsonSerializer.SerializeToElement(new "
               "Dictionary<string, object?>\n    {\n        [\"key\"] = \"value\",\n    });\n\n"
               "    var e = config.GetObject<JsonElement?>(\"e\") ?? JsonSerializer.SerializeToElement(new "
               "Dictionary<string, object?>());\n\n"
               "    var s = config.Get(\"s\");\n\n    var l = config.GetObject<string[]>(\"l\");\n\n"
               "    var m = config.GetObject<Dictionary<string, string>>(\"m\");\n\n"
               "    var o = config.GetObject<JsonElement?>(\"o\");\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java,
           "final var u = ctx.config().getObject(\"u\", Object.class).orElse(Map.ofEntries(\n"
           "            Map.entry(\"key\", \"value\")\n        ));\n\n"
           "        final var e = ctx.config().getObject(\"e\", Object.class).orElse(Map.of());\n\n"
           "        final var s = ctx.config().get(\"s\").orElse(null);\n\n"
           "        final var l = ctx.config().getObject(\"l\", String[].class).map(Arrays::asList).orElse(null);\n\n"
           "        final var m = (Map<String, String>) ctx.config().getObject(\"m\", Map.class).orElse(null);\n\n"
           "        final var o = ctx.config().getObject(\"o\", Object.class).orElse(null);\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    f = load("config \"p\" \"string\" {\n    default = \"x\"\n    secret = true\n}\n"
             "config \"i\" \"int\" {\n    default = 2.5\n}\n"
             "config \"l\" \"list(string)\" {\n    default = []\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_JAVA : LANG_CSHARP;
        tu_pcl_emit_refused(&f, lang, "main.pp:2:5", "cannot write a config value's default yet");
        tu_pcl_emit_refused(&f, lang, "main.pp:6:5", "cannot write a config value's default yet");
        tu_pcl_emit_refused(&f, lang, "main.pp:9:5", "cannot write a config value's default yet");
    }
    unload(&f);
}
END_TEST

/* C# and Java read into a config value that is not secret (a plain list or map) as a plain value,
 * as Pulumi's .NET and Java generators do: `aMap["a"] + 1`, `aMap.get("a") + 1` (an attribute of a
 * map is its key), not an apply (a Dictionary has no Apply); into an object type, which they read as
 * `object` / `Object`, refused. */
START_TEST(test_config_reads_cs_java) {
    fixture_t f = load("config \"aMap\" \"map(int)\" {}\nconfig \"aList\" \"list(list(string))\" {}\n"
                       "output \"a\" {\n    value = aMap[\"a\"] + 1\n}\n"
                       "output \"b\" {\n    value = aMap.b\n}\n"
                       "output \"c\" {\n    value = aList[0][1]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"a\"] = (double) aMap[\"a\"] + 1,\n        [\"b\"] = aMap[\"b\"],\n        [\"c\"] = aList[0][1],\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    /* Java: pulumi-java's getObject/requireObject of Map.class or List.class decode with Gson, whose
     * raw Map and List hold a number as a Double: an int read from a map(int) (or a list nested in
     * one) is made an int by Number (aMap.get("a") + 1 threw ClassCastException: Double to Integer);
     * a list(int)'s items, read as an Integer[], and map(number)'s Doubles are read as they are */
    tu_has(java, "ctx.export(\"a\", (double) (((Number) aMap.get(\"a\")).intValue()) + 1);\n"
                 "        ctx.export(\"b\", ((Number) aMap.get(\"b\")).intValue());\n"
                 "        ctx.export(\"c\", aList.get(0).get(1));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    f = load("config \"l\" \"list(int)\" {}\nconfig \"ll\" \"list(list(int))\" {}\nconfig \"n\" \"map(number)\" {}\n"
             "config \"mo\" \"map(int)\" {\n    secret = true\n}\n"
             "output \"a\" {\n    value = l[0] + 1\n}\noutput \"b\" {\n    value = ll[0][1] + 1\n}\n"
             "output \"c\" {\n    value = n[\"x\"] + 1\n}\noutput \"e\" {\n    value = mo[\"k\"]\n}\n"
             "config \"m\" \"map(int)\" {}\noutput \"f\" {\n    value = [for k, v in m : v + 1]\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"a\", (double) l.get(0) + 1);\n"
                 "        ctx.export(\"b\", (double) (((Number) ll.get(0).get(1)).intValue()) + 1);\n"
                 "        ctx.export(\"c\", n.get(\"x\") + 1);\n"
                 "        ctx.export(\"e\", mo.applyValue(v -> ((Number) v.get(\"k\")).intValue()));\n");
    tu_has(java, ".map(k -> (double) (((Number) k.getValue()).intValue()) + 1)");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* a for expression over lists of ints: its variable would be read as a List<Integer> of Doubles */
    f = load("config \"ll\" \"list(list(int))\" {}\noutput \"c\" {\n    value = [for x in ll : x[0] + 1]\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:13",
                        "iterates over 'll', whose items are lists or maps holding ints");
    unload(&f);
    /* an object type, read as a value of no type (a JsonElement, Gson's Object) */
    f = load("config \"o\" \"object({prop=list(bool)})\" {}\noutput \"a\" {\n    value = o.prop[0]\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"a\"] = o.GetProperty(\"prop\")[0],\n");
    free(cs);
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"a\", ((List<Object>) ((Map<String, Object>) o).get(\"prop\")).get(0));\n");
    free(java);
    unload(&f);
    /* a value of no type (a JsonElement, Gson's Object), whole too, where the schema wants a string:
     * refused (before, C# wrote `Text = x`, an object where an Input<string> is wanted) */
    f = load("config \"x\" {}\nresource \"r\" \"lang:index:Res\" {\n    text = x\n    num = 1\n    flag = true\n"
             "    items = []\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:12", "passes 'x', a value of no type, where the schema wants");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:12", "passes 'x', a value of no type, where the schema wants");
    unload(&f);
    /* C#: a value of no type (or of an object type) whose default is null is a JsonElement?
     * (GetObject<JsonElement?>), read into by its Value (a Nullable<JsonElement> has no GetProperty) */
    f = load("config \"u\" {\n    default = null\n}\nconfig \"ob\" \"object({a=int})\" {\n    default = null\n}\n"
             "s = secret(u)\nh = u\n"
             "output \"x\" {\n    value = u.a + 1\n}\noutput \"y\" {\n    value = ob.a\n}\n"
             "output \"z\" {\n    value = s.p\n}\noutput \"w\" {\n    value = h.q\n}\n"
             "output \"v\" {\n    value = u + 1\n}\noutput \"t\" {\n    value = u\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var u = config.GetObject<JsonElement?>(\"u\");\n");
    tu_has(cs, "        [\"x\"] = u!.Value.GetProperty(\"a\").GetDouble() + 1,\n"
               "        [\"y\"] = ob!.Value.GetProperty(\"a\"),\n"
               "        [\"z\"] = s.Apply(s => s!.Value.GetProperty(\"p\")),\n"
               "        [\"w\"] = h!.Value.GetProperty(\"q\"),\n"
               "        [\"v\"] = u!.Value.GetDouble() + 1,\n"
               "        [\"t\"] = u,\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
    /* a list index into a map: refused */
    f = load("config \"m\" \"map(string)\" {}\noutput \"a\" {\n    value = m[0]\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:13", "reads into the config value 'm' of type");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:13", "reads into the config value 'm' of type");
    unload(&f);
}
END_TEST

/* C# and Java read into a local that holds, not an output, a literal list or object (by its index or
 * key: C# `l[1]`, `o["a"]`; Java `l.get(1)`, `o.get("a")`) or a config value (as into the config
 * value), where both refused it; more than one index or key into a literal (its items are of no one
 * type in C#), a literal holding outputs (a Dictionary of them is no Output) and such a read at a
 * typed input stay refused. */
START_TEST(test_held_locals_cs_java) {
    fixture_t f = load("config \"anyObject\" {}\nconfig \"aMap\" \"map(int)\" {}\nl = [1, 2]\no = {a = \"x\"}\n"
                       "h = anyObject\nk = aMap\nz = secret(aMap)\n"
                       "output \"a\" {\n    value = l[1]\n}\noutput \"b\" {\n    value = o.a\n}\n"
                       "output \"c\" {\n    value = h.p + 1\n}\noutput \"d\" {\n    value = k[\"z\"]\n}\n"
                       "output \"e\" {\n    value = z.q\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        [\"a\"] = l[1],\n        [\"b\"] = o[\"a\"],\n"
               "        [\"c\"] = h.GetProperty(\"p\").GetDouble() + 1,\n        [\"d\"] = k[\"z\"],\n"
               "        [\"e\"] = z.Apply(z => z[\"q\"]),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"a\", l.get(1));\n        ctx.export(\"b\", o.get(\"a\"));\n"
                 "        ctx.export(\"c\", ((Number) ((Map<String, Object>) h).get(\"p\")).doubleValue() + 1);\n"
                 "        ctx.export(\"d\", ((Number) k.get(\"z\")).intValue());\n"
                 "        ctx.export(\"e\", z.applyValue(_z -> ((Number) _z.get(\"q\")).intValue()));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    f = load("o = {a = {b = 1}}\nresource \"r\" \"lang:index:Res\" {\n    text = \"t\"\n    num = 1\n    flag = true\n"
             "    items = []\n}\nm = {x = r.text}\np = [\"s\"]\n"
             "output \"a\" {\n    value = o.a.b\n}\noutput \"b\" {\n    value = m.x\n}\n"
             "resource \"s\" \"lang:index:Res\" {\n    text = p[0]\n    num = 1\n    flag = true\n    items = []\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_JAVA : LANG_CSHARP;
        tu_pcl_emit_refused(&f, lang, "main.pp:11:13", "reads into the local 'o'");
        tu_pcl_emit_refused(&f, lang, "main.pp:14:13", "reads into the local 'm'");
        tu_pcl_emit_refused(&f, lang, "main.pp:17:12", "reads into the local 'p'");
    }
    unload(&f);
}
END_TEST

/* A read of one item of a literal a local holds (of no one type: C#'s Dictionary<string, object?>,
 * Java's Map of mixed values) is written only whole, an output's value or a list's or object's item:
 * in arithmetic, a comparison, a conditional or a template neither compiles (`o["a"] == 1`,
 * `o.get("b") ? ...`, `s.Apply(s => s["a"] + 1)`), or C# prints a bool True where PCL has true;
 * refused at the read's position. */
START_TEST(test_held_reads_whole_only_cs_java) {
    fixture_t f =
        load("o = {a = 1, b = true}\ns = secret({a = 1, b = \"x\"})\nl = [1, \"a\"]\n"
             "output \"t\" {\n    value = \"v-${o.b}\"\n}\noutput \"u\" {\n    value = o.a == 1\n}\n"
             "output \"w\" {\n    value = o.b ? \"y\" : \"n\"\n}\noutput \"z\" {\n    value = o[\"a\"] + 1\n}\n"
             "output \"y\" {\n    value = s.a + 1\n}\noutput \"x\" {\n    value = [l[0], o.b]\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_JAVA : LANG_CSHARP;
        tu_pcl_emit_refused(&f, lang, "main.pp:5:18", "reads 'o.b', an item of the literal the local 'o' holds");
        tu_pcl_emit_refused(&f, lang, "main.pp:8:13", "reads 'o.a', an item of the literal the local 'o' holds");
        tu_pcl_emit_refused(&f, lang, "main.pp:11:13", "reads 'o.b'");
        tu_pcl_emit_refused(&f, lang, "main.pp:14:13", "reads 'o[\"a\"]'");
    }
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:17:13", "reads 's.a'"); /* Java: no operator over an output */
    unload(&f);
    /* whole, it stays written */
    f = load("o = {a = 1, b = true}\nl = [1, \"a\"]\noutput \"x\" {\n    value = [l[0], o.b]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "            l[0],\n            o[\"b\"],\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "l.get(0)");
    free(java);
    unload(&f);
    /* through a local holding the item (`v = o.items`: C#'s `var v = o["items"]` is an object?, Java's
     * an Object): length(v) was written v.Length / new StringInfo(v) / v.size(), u + 1 and u == 1 over
     * the object; refused as the read in place is. An item of a list of one type (a T[], a List<T>)
     * stays written. */
    f = load("o = {items = [\"a\"], name = \"x\", n = 1}\nl = [\"p\", \"q\"]\nv = o.items\nw = o.name\nu = o.n\n"
             "x = l[0]\n"
             "output \"a\" {\n    value = length(v)\n}\noutput \"b\" {\n    value = length(w)\n}\n"
             "output \"c\" {\n    value = u + 1\n}\noutput \"d\" {\n    value = u == 1\n}\n"
             "output \"e\" {\n    value = length(x)\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_JAVA : LANG_CSHARP;
        tu_pcl_emit_refused(&f, lang, "main.pp:8:20",
                            "reads 'v', which holds an item of the literal the local 'o' holds (o.items)");
        tu_pcl_emit_refused(&f, lang, "main.pp:11:20", "reads 'w', which holds an item of the literal");
        tu_pcl_emit_refused(&f, lang, "main.pp:14:13", "reads 'u', which holds an item of the literal");
        tu_pcl_emit_refused(&f, lang, "main.pp:17:13", "reads 'u', which holds an item of the literal");
    }
    unload(&f);
    f = load("l = [\"p\", \"q\"]\nfirst = l[0]\noutput \"e\" {\n    value = length(first)\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"e\"] = new System.Globalization.StringInfo(first).LengthInTextElements,");
    free(cs);
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"e\", graphemeLength(first));");
    free(java);
    unload(&f);
}
END_TEST

/* C# and Java build an entries() element as a map of its key and value (a Dictionary<string,
 * object?>, Map.of), so a for expression over entries() that reads the value into an operator wrote
 * e["value"] + 1 / e.get("value") + 1 (object + int: does not compile). Refused; whole it is written. */
START_TEST(test_entries_value_whole_only_cs_java) {
    fixture_t f =
        load("config \"m\" \"map(int)\" {}\noutput \"v\" {\n    value = [for e in entries(m) : e.value + 1]\n}\n"
             "output \"t\" {\n    value = [for e in entries(m) : \"${e.value}\"]\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_JAVA : LANG_CSHARP;
        tu_pcl_emit_refused(&f, lang, "main.pp:3:13", "uses a for expression");
        tu_pcl_emit_refused(&f, lang, "main.pp:6:13", "uses a for expression");
    }
    unload(&f);
    f = load("config \"m\" \"map(int)\" {}\noutput \"v\" {\n    value = [for e in entries(m) : [e.key, e.value]]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "e[\"value\"]");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "e.get(\"value\")");
    free(java);
    unload(&f);
}
END_TEST

/* Java: Output.ofSecret(x) throws on null, so secret() of a config value whose default is null is
 * refused (it was written Output.ofSecret(s) over config().get("s").orElse(null)). */
START_TEST(test_secret_of_nullable_config_java) {
    fixture_t f = load("config \"s\" \"string\" {\n    default = null\n}\noutput \"b\" {\n    value = secret(s)\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:13", "calls secret() on the config value 's', whose default is null");
    unload(&f);
    /* C#: a conditional of a value of no type and a string has no one type (CS0173) */
    f = load("config \"x\" {}\noutput \"d\" {\n    value = true ? x : \"y\"\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:18", "a conditional with a value of no type in one branch only");
    unload(&f);
    f = load("config \"s\" \"string\" {}\noutput \"b\" {\n    value = secret(s)\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "Output.ofSecret(s)");
    free(java);
    unload(&f);
}
END_TEST

/* PCL divides numbers as numbers (3 / 2 is 1.5); C# and Java divide two ints as ints (1). */
START_TEST(test_division_as_numbers_cs_java) {
    fixture_t f = load("config \"i\" \"int\" {}\noutput \"h\" {\n    value = i / 2\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"h\"] = (double) i / 2,\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"h\", (double) i / 2);\n");
    free(java);
    unload(&f);
}
END_TEST

/* C#: a list literal of no schema type whose items have no one type is an object?[] (`new[] { 1, "a",
 * true }` and `new[] { null }` have no best type: CS0826); one of a type stays `new[]`. */
START_TEST(test_mixed_list_cs) {
    fixture_t f = load("l = [1, \"a\", true]\nk = [1, 2]\noutput \"x\" {\n    value = l\n}\n"
                       "output \"y\" {\n    value = [null]\n}\noutput \"z\" {\n    value = k\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var l = new object?[]\n    {\n        1,\n        \"a\",\n        true,\n    };\n");
    tu_has(cs, "var k = new[]\n    {\n        1,\n        2,\n    };\n");
    tu_has(cs, "[\"y\"] = new object?[]\n        {\n            null,\n        },\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
    /* a value of no type beside others: new[] { x, 1 } is JsonElement beside int (CS0826) */
    f = load("config \"x\" {}\noutput \"b\" {\n    value = [x, 1]\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"b\"] = new object?[]\n");
    free(cs);
    unload(&f);
    /* lists of lists: new[] { new[] { 1, 2 }, new[] { "a" } } is int[] beside string[] (CS0826) */
    f = load("n = [[1, 2], [\"a\"]]\noutput \"n\" {\n    value = n\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "var n = new object?[]\n    {\n        new[]\n        {\n            1,\n");
    free(cs);
    unload(&f);
}
END_TEST

/* C# and Java write a local map of resources' ids and an entry of it converted where the schema
 * wants a number or a boolean, as Pulumi's .NET generator writes l2-id-type: a
 * Dictionary<string, Output<string>> read by key (`ids["x"].Apply(x => double.Parse(x, ...))`; Java
 * `ids.get("x").applyValue(x -> Double.parseDouble(x))`), and toBase64() over an output in an apply
 * of it; both refused them. Java refuses an output in a list or map at a resource's input (its
 * builders take a whole Output<List<T>> or a plain List<T>: `.items(output)` did not compile). */
static const char ID_MAP_LIST[] =
    "resource \"a\" \"lang:index:Res\" {\n    text = \"1\"\n    num = 1\n    flag = true\n    items = []\n}\n"
    "ids = {\n    x = a.id\n}\n"
    "resource \"b\" \"lang:index:Res\" {\n    text = \"t\"\n    num = 1\n    flag = true\n    items = [\"s\", "
    "ids[\"x\"]]\n}\n";

START_TEST(test_id_map_cs_java) {
#define ID_MAP_RES_A                                                                                                   \
    "resource \"a\" \"lang:index:Res\" {\n    text = \"1\"\n    num = 1\n    flag = true\n    items = []\n}\n"         \
    "ids = {\n    x = a.id\n}\n"
    fixture_t f =
        load(ID_MAP_RES_A "resource \"b\" \"lang:index:Res\" {\n    text = ids[\"x\"]\n    num = ids[\"x\"]\n"
                          "    flag = ids[\"x\"]\n    items = []\n}\n"
                          "output \"e\" {\n    value = toBase64(a.id)\n}\noutput \"i\" {\n    value = ids\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "    var ids = new Dictionary<string, Output<string>>\n    {\n        [\"x\"] = a.Id,\n    };\n");
    tu_has(cs,
           "        Text = ids[\"x\"],\n"
           "        Num = ids[\"x\"].Apply(x => double.Parse(x, System.Globalization.CultureInfo.InvariantCulture)),\n"
           "        Flag = ids[\"x\"].Apply(x => x == \"true\"),\n");
    tu_has(cs, "        [\"e\"] = a.Id.Apply(v => Convert.ToBase64String(System.Text.Encoding.UTF8.GetBytes(v))),\n"
               "        [\"i\"] = ids,\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(
        java,
        "            .text(ids.get(\"x\"))\n            .num(ids.get(\"x\").applyValue(x -> Double.parseDouble(x)))\n"
        "            .flag(ids.get(\"x\").applyValue(x -> x.equals(\"true\")))\n");
    tu_has(java, "ctx.export(\"e\", a.id().applyValue(_v -> "
                 "Base64.getEncoder().encodeToString(_v.getBytes(StandardCharsets.UTF_8))));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* Java: a list or map property holding outputs gathered with Output.all (its builders take a whole
     * Output<List<T>> or a plain List<T>: `.items("s", ids.get("x"))` did not compile); deeper in a
     * value, refused */
    f = load(ID_MAP_RES_A "resource \"b\" \"lang:index:Res\" {\n    text = \"t\"\n    num = 1\n    flag = true\n"
                          "    items = [\"s\", ids[\"x\"]]\n}\n"
                          "resource \"p\" \"lang:index:Plain\" {\n    name = \"n\"\n    cfg = {\n        on = true\n"
                          "        tags = { a = ids[\"x\"] }\n    }\n}\n");
#undef ID_MAP_RES_A
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:20:16", "'cfg' holds an output in a map inside another value");
    unload(&f);
    f = load(ID_MAP_LIST);
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java,
           "            .items(Output.all(\n                Output.of(\"s\"),\n                ids.get(\"x\")))\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
}
END_TEST

/* C# and Java write entries() and lookup() over a resource's output map in an apply of it (the map
 * sorted by key, each entry a map of "key" and "value", as over a plain map), where both refused
 * them; over an object of the schema's type (the SDK's class, no keys) they refuse naming why. */
START_TEST(test_keyed_outputs_cs_java) {
    static const char *schema =
        "{\"name\":\"km\",\"version\":\"1.0.0\",\"resources\":{\"km:index:Res\":{"
        "\"properties\":{\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},"
        "\"obj\":{\"$ref\":\"#/types/km:index:Obj\"}},\"required\":[\"tags\",\"obj\"],\"inputProperties\":{}}},"
        "\"types\":{\"km:index:Obj\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}}}";
    fixture_t f = tu_pcl_load(schema, "km.json",
                              "resource \"res\" \"km:index:Res\" {}\n"
                              "output \"e\" {\n    value = entries(res.tags)\n}\n"
                              "output \"l\" {\n    value = lookup(res.tags, \"x\", \"d\")\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"e\"] = res.Tags.Apply(v => v.OrderBy(kv => kv.Key, "
               "Comparer<string>.Create(CompareCodePoints)).Select(kv => new "
               "Dictionary<string, object?> { [\"key\"] = kv.Key, [\"value\"] = kv.Value }).ToList()),\n"
               "        [\"l\"] = res.Tags.Apply(v => v.GetValueOrDefault(\"x\", \"d\")),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java,
           "ctx.export(\"e\", res.tags().applyValue(_v -> "
           "_v.entrySet().stream().sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing((String _k) -> "
           "_k.codePoints().toArray(), java.util.Arrays::compare)))"
           ".map(_kv -> Map.of(\"key\", _kv.getKey(), \"value\", _kv.getValue())).collect(Collectors.toList())));\n"
           "        ctx.export(\"l\", res.tags().applyValue(_v -> _v.getOrDefault(\"x\", \"d\")));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    f = tu_pcl_load(schema, "km.json",
                    "resource \"res\" \"km:index:Res\" {}\noutput \"o\" {\n    value = entries(res.obj)\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:13",
                        "an object of the schema's type km:index:Obj, which Pulumi .NET");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:13",
                        "an object of the schema's type km:index:Obj, which Pulumi Java");
    unload(&f);
}
END_TEST

/* C# formats a bool in an interpolated string as True / False; PCL prints true / false: a plain bool
 * (a config value's, read from a config map, an operator's) is written `(b ? "true" : "false")`, a
 * required output's in an Apply of it; an optional one (an Output<bool?>) is refused. Before, all were
 * written `{b}` and printed True. */
START_TEST(test_bool_in_template_cs) {
    fixture_t f = load("config \"b\" \"bool\" {}\nconfig \"m\" \"map(bool)\" {}\n"
                       "resource \"r\" \"lang:index:Res\" {\n    text = \"t\"\n    num = 1\n    flag = true\n"
                       "    items = []\n}\n"
                       "output \"a\" {\n    value = \"v-${b}-${m[\"k\"]}-${1 == 1}\"\n}\n"
                       "output \"d\" {\n    value = \"v-${r.flag}\"\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"a\"] = $\"v-{(b ? \"true\" : \"false\")}-{(m[\"k\"] ? \"true\" : \"false\")}-{(1 == 1 ? "
               "\"true\" : \"false\")}\",\n"
               "        [\"d\"] = Output.Format($\"v-{r.Flag.Apply(v => v ? \"true\" : \"false\")}\"),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
    static const char *schema = "{\"name\":\"ob\",\"version\":\"1.0.0\",\"resources\":{\"ob:index:Res\":{"
                                "\"properties\":{\"on\":{\"type\":\"boolean\"}},\"inputProperties\":{}}}}";
    f = tu_pcl_load(schema, "ob.json",
                    "resource \"r\" \"ob:index:Res\" {}\noutput \"o\" {\n    value = \"v-${r.on}\"\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:13", "uses template interpolation");
    unload(&f);
}
END_TEST

/* can() and try(): each argument a closure for Pulumi's helpers (the Output versions over outputs
 * or values of no type), only the helpers used written; Python, Go and C# run theirs inside an apply
 * over an output (what is read below it, and fails, inside the helper's closures); Java refuses them.
 * A string key that is an identifier is read as a property. */
START_TEST(test_can_try) {
    fixture_t f = load("config \"m\" \"map(string)\" {}\n"
                       "s = secret(m)\n"
                       "output \"a\" {\n    value = can(m[\"a\"])\n}\n"
                       "output \"b\" {\n    value = try(s[\"b\"], \"fallback\")\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "\nfunction can_(\n    fn: () => any\n): boolean {\n");
    tu_has(ts, "\nfunction tryOutput_(\n\t...fns: Array<() => pulumi.Input<any>>\n): pulumi.Output<any> {\n");
    ck_assert_ptr_null(strstr(ts, "function canOutput_"));
    ck_assert_ptr_null(strstr(ts, "function try_("));
    tu_has(ts, "export const a = can_(() => m.a);\n");
    tu_has(ts, "export const b = tryOutput_(\n    () => s.b,\n    () => \"fallback\"\n);\n");
    free(ts);
    /* Python: the same helpers' forms, over an output inside an apply (test_python_can_try) */
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.export(\"a\", can_(lambda: m[\"a\"]))\n");
    tu_has(py, "apply(lambda s: try_(lambda: s[\"b\"], lambda: \"fallback\")))\n");
    free(py);
    /* Go: closures the helpers recover the panic of, a map's missing key by mapKey (test_pcl_meaning
     * runs them) */
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\nfunc can(fn func() interface{}) (ok bool) {\n");
    tu_has(go, "\nfunc try[T any](fns ...func() T) T {\n");
    tu_has(go, "\nfunc mapKey[V any](m map[string]V, key string) V {\n");
    tu_has(go, "ctx.Export(\"a\", pulumi.Bool(can(func() interface{} {\n\t\t\treturn mapKey(m, \"a\")\n\t\t})))\n");
    tu_has(go, "ctx.Export(\"b\", s.ApplyT(func(s map[string]string) (string, error) {\n"
               "\t\t\treturn try(func() string {\n\t\t\t\treturn mapKey(s, \"b\")\n\t\t\t}, func() string {\n"
               "\t\t\t\treturn \"fallback\"\n\t\t\t}), nil\n\t\t}).(pulumi.StringOutput))\n");
    free(go);
    /* C#: lambdas the helpers catch the exception of (a Dictionary's missing key throws) */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "\nbool Can(Func<object?> fn)\n{\n");
    tu_has(cs, "\nT Try<T>(params Func<T>[] fns)\n{\n");
    tu_has(cs, "[\"a\"] = Can(() => m[\"a\"]),\n");
    tu_has(cs, "[\"b\"] = s.Apply(s => Try<string>(() => s[\"b\"], () => \"fallback\")),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    /* Java: lambdas (Suppliers) the helpers catch the exception of; a map's key read as its entry,
     * which throws where the map has none (Map.get gives null) */
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "\n    private static boolean can(java.util.function.Supplier<Object> fn) {\n");
    tu_has(java, "\n    @SafeVarargs\n    private static <T> T try_(java.util.function.Supplier<T>... fns) {\n");
    tu_has(java, "ctx.export(\"a\", can(() -> m.entrySet().stream().filter(keyIs(\"a\")).findFirst().orElseThrow()"
                 ".getValue()));\n");
    tu_has(java, "ctx.export(\"b\", s.applyValue(_s -> App.<String>try_(() -> _s.entrySet().stream().filter(keyIs("
                 "\"b\")).findFirst().orElseThrow().getValue(), () -> \"fallback\")));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* over values of no type (a JsonElement in C#, an interface{} in Go), which PCL types an Output
     * and the program takes for one: the plain call made an Output; try() of values of no one type is
     * an object? (C#), an interface{} (Go); where the schema wants a string, C# writes Try<string>
     * when the arguments are strings and refuses it otherwise (an object? is no Input<string>), Go
     * refuses an interface{} */
    f = load("config \"obj\" {}\nconfig \"m\" \"map(string)\" {}\nconfig \"n\" \"int\" {}\n"
             "output \"a\" {\n    value = can(obj.a)\n}\n"
             "output \"b\" {\n    value = [try(obj.opt, \"x\")]\n}\n"
             "resource \"r\" \"lang:index:Res\" {\n    text = try(m[\"k\"], \"x\")\n    num = try(n, 2.5)\n"
             "    flag = can(obj.b)\n    items = []\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"a\"] = Output.Create(Can(() => obj.GetProperty(\"a\"))),\n");
    tu_has(cs, "Output.Create(Try<object?>(() => obj.GetProperty(\"opt\"), () => \"x\")),\n");
    tu_has(cs, "Text = Try<string>(() => m[\"k\"], () => \"x\"),\n");
    tu_has(cs, "Num = Try<double>(() => n, () => 2.5),\n");
    tu_has(cs, "Flag = Output.Create(Can(() => obj.GetProperty(\"b\"))),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    /* Java: try_'s type given (App.<Double>try_), an int widened to it; a value of no type made an
     * Output by ofNullable (try() may give null; Output.of throws for it) */
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"a\", Output.ofNullable(can(() -> ((Map<String, Object>) obj).entrySet().stream()"
                 ".filter(keyIs(\"a\")).findFirst().orElseThrow().getValue())));\n");
    tu_has(java, ".text(App.<String>try_(() -> m.entrySet().stream().filter(keyIs(\"k\")).findFirst().orElseThrow()"
                 ".getValue(), () -> \"x\"))\n");
    tu_has(java, ".num(App.<Double>try_(() -> (double) (n), () -> 2.5))\n");
    parses(LANG_JAVA, java);
    free(java);
    /* Go: an int and a number are interface{} (test_pcl_meaning: the rest) */
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:12:11",
                        "a value of Go type interface{} where the schema wants another type");
    unload(&f);
    f = load("config \"obj\" {}\nresource \"r\" \"lang:index:Res\" {\n    text = try(obj.a, \"x\")\n"
             "    num = 1\n    flag = true\n    items = []\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:12",
                        "'text' calls try() where a string is wanted, and the C# emitter cannot tell its value is one");
    tu_pcl_emit_refused(
        &f, LANG_JAVA, "main.pp:3:12",
        "'text' calls try() where a String is wanted, and the Java emitter cannot tell its value is one "
        "(Java's try() gives one type: the one its arguments share, else Object)");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:12",
                        "a value of Go type interface{} where the schema wants another type");
    unload(&f);
    /* an item of an object literal a local holds is an object? in C# (the literal is a
     * Dictionary<string, object?>), itself or through a local holding it (`var f = m["a"]`): try() over
     * it is a Try<object?> (a lambda returning object? is no Func<string>: CS1662), and where the schema
     * wants a string it is refused; an item of a list of one type (`new[]`, a string[]) stays typed */
    f = load("m = { a = \"x\", n = 1 }\nl = [\"p\", \"q\"]\nv = m[\"a\"]\n"
             "output \"o\" {\n    value = [try(m[\"a\"], \"none\"), try(m.n, 0), try(v, \"none\"), "
             "try(l[0], \"none\")]\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "Try<object?>(() => m[\"a\"], () => \"none\"),\n");
    tu_has(cs, "Try<object?>(() => m[\"n\"], () => 0),\n");
    tu_has(cs, "Try<object?>(() => v, () => \"none\"),\n");
    tu_has(cs, "Try<string>(() => l[0], () => \"none\"),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
    f = load("m = { a = \"x\" }\nresource \"r\" \"lang:index:Res\" {\n    text = try(m.a, \"x\")\n"
             "    num = 1\n    flag = true\n    items = []\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:12",
                        "'text' calls try() where a string is wanted, and the C# emitter cannot tell its value is one");
    unload(&f);
}
END_TEST

/* YAML writes stack(), project(), organization(), cwd() and rootDirectory() as Pulumi YAML's
 * variables (`${pulumi.stack}`) and toBase64, fromBase64, toJSON, readFile, join, split, sha1, length,
 * filebase64, filebase64sha256, singleOrNone, pulumiResourceName, pulumiResourceType and unsecret as its
 * functions of the same arguments, element as
 * fn::select (index first; an index of 0 here, as fn::select does not wrap one around the list's
 * length: test_pcl_meaning); a function it has no form for is refused at its position. */
START_TEST(test_builtin_functions_yaml) {
    fixture_t f = load("config \"s\" \"string\" {}\n"
                       "output \"o1\" {\n    value = [stack(), project(), organization(), cwd(), rootDirectory()]\n}\n"
                       "output \"o2\" {\n    value = toBase64(s)\n}\n"
                       "output \"o3\" {\n    value = join(\"-\", split(\",\", s))\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y,
           "  o1:\n    - ${pulumi.stack}\n    - ${pulumi.project}\n    - ${pulumi.organization}\n    - ${pulumi.cwd}\n"
           "    - ${pulumi.rootDirectory}\n");
    tu_has(y, "  o2:\n    fn::toBase64: ${s}\n");
    tu_has(y, "  o3:\n    fn::join:\n      - \"-\"\n      - fn::split:\n          - \",\"\n          - ${s}\n");
    free(y);
    unload(&f);
    f = load("config \"s\" \"string\" {}\nconfig \"l\" \"list(string)\" {}\n"
             "output \"o1\" {\n    value = sha1(s)\n}\noutput \"o2\" {\n    value = length(l)\n}\n"
             "output \"o3\" {\n    value = element(l, 0)\n}\noutput \"o4\" {\n    value = [singleOrNone(l)]\n}\n"
             "output \"o5\" {\n    value = filebase64sha256(s)\n}\n");
    y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "  o1:\n    fn::sha1: ${s}\n  o2:\n    fn::length: ${l}\n");
    tu_has(y, "  o3:\n    fn::select:\n      - 0\n      - ${l}\n");
    tu_has(y, "  o4:\n    - fn::singleOrNone: ${l}\n  o5:\n    fn::filebase64sha256: ${s}\n");
    free(y);
    unload(&f);
    f = load("resource \"r\" \"lang:index:Opt\" {}\noutput \"nm\" {\n    value = pulumiResourceName(r)\n}\n"
             "output \"t\" {\n    value = pulumiResourceType(r)\n}\n");
    y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "outputs:\n  nm:\n    fn::pulumiResourceName: ${r}\n  t:\n    fn::pulumiResourceType: ${r}\n");
    free(y);
    /* C# and Java: the SDK's Resource methods */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        [\"nm\"] = r.GetResourceName(),\n        [\"t\"] = r.GetResourceType(),\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java,
           "        ctx.export(\"nm\", r.pulumiResourceName());\n        ctx.export(\"t\", r.pulumiResourceType());\n");
    free(java);
    unload(&f);
    f = load("config \"s\" \"string\" {\n    secret = true\n}\noutput \"o\" {\n    value = unsecret(s)\n}\n");
    y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "outputs:\n  o:\n    fn::unsecret: ${s}\n");
    free(y);
    unload(&f);
    f = load("config \"s\" \"string\" {}\noutput \"o\" {\n    value = entries(s)\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:3:13",
                        "calls the function entries(); Pulumi YAML has no such function");
    unload(&f);
}
END_TEST

/* C# and Java write PCL's built-in functions over plain values as Pulumi's .NET and Java program
 * generators do (their `using`s and imports with them), unsecret over an output; a function over an
 * output they cannot write yet is refused at its position. */
START_TEST(test_builtin_functions_cs_java) {
    fixture_t f = load("config \"s\" \"string\" {}\n"
                       "config \"sec\" \"string\" {\n    secret = true\n}\n"
                       "output \"o1\" {\n    value = [stack(), project(), organization(), cwd(), rootDirectory()]\n}\n"
                       "output \"o2\" {\n    value = fromBase64(toBase64(s))\n}\n"
                       "output \"o3\" {\n    value = readFile(s)\n}\n"
                       "output \"o4\" {\n    value = unsecret(sec)\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs,
           "using System;\nusing System.Collections.Generic;\nusing System.IO;\nusing System.Linq;\nusing Pulumi;\n");
    tu_has(cs, "Deployment.Instance.StackName,\n            Deployment.Instance.ProjectName,\n"
               "            Deployment.Instance.OrganizationName,\n            Directory.GetCurrentDirectory(),\n"
               "            Pulumi.Deployment.Instance.RootDirectory,\n");
    tu_has(cs, "[\"o2\"] = System.Text.Encoding.UTF8.GetString(Convert.FromBase64String("
               "Convert.ToBase64String(System.Text.Encoding.UTF8.GetBytes(s)))),\n");
    tu_has(cs, "[\"o3\"] = System.Text.Encoding.UTF8.GetString(File.ReadAllBytes(s)),\n");
    tu_has(cs, "[\"o4\"] = Output.Unsecret(sec),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    /* Java: pulumi-java's Deployment has no getRootDirectory */
    tu_pcl_emit_refused(&f, LANG_JAVA, "no getRootDirectory", NULL);
    unload(&f);
    f = load("config \"s\" \"string\" {}\n"
             "config \"sec\" \"string\" {\n    secret = true\n}\n"
             "output \"o1\" {\n    value = [stack(), project(), organization(), cwd()]\n}\n"
             "output \"o2\" {\n    value = fromBase64(toBase64(s))\n}\n"
             "output \"o3\" {\n    value = readFile(s)\n}\n"
             "output \"o4\" {\n    value = unsecret(sec)\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.deployment.Deployment;\nimport java.nio.charset.StandardCharsets;\n"
                 "import java.util.Base64;\n");
    tu_has(java, "Deployment.getInstance().getStackName(),\n            Deployment.getInstance().getProjectName(),\n"
                 "            Deployment.getInstance().getOrganizationName(),\n"
                 "            System.getProperty(\"user.dir\")));\n");
    tu_has(java,
           "ctx.export(\"o2\", new String(Base64.getDecoder().decode("
           "Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8))), StandardCharsets.UTF_8));\n");
    tu_has(java, "ctx.export(\"o3\", readFile(s));\n"); /* a helper: Files.readString throws IOException */
    tu_has(java, "ctx.export(\"o4\", sec.asPlaintext());\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* strings and lists by their shape; C#'s helpers after the usings, the packages' aliases too (no
     * using directive may follow a declaration) */
    f = load("config \"s\" \"string\" {}\nconfig \"l\" \"list(string)\" {}\nresource \"r\" \"lang:index:Opt\" {}\n"
             "output \"o1\" {\n    value = [length(s), length(l), element(l, 1)]\n}\n"
             "output \"o2\" {\n    value = join(\"|\", split(\"-\", s))\n}\n"
             "output \"o3\" {\n    value = [sha1(s), filebase64(s), filebase64sha256(s)]\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "using System.Security.Cryptography;\nusing System.Text;\nusing Pulumi;\nusing Lang = Pulumi.Lang;\n\n"
               "string ComputeSHA1(string input)\n");
    tu_has(cs,
           "\nstring ReadFileBase64(string path)\n{\n    return Convert.ToBase64String(File.ReadAllBytes(path));\n}\n");
    tu_has(cs, "new System.Globalization.StringInfo(s).LengthInTextElements,\n            l.Length,\n            "
               "Element(l, 1),\n");
    tu_has(cs, "[\"o2\"] = string.Join(\"|\", s.Split(\"-\")),\n");
    tu_has(cs, "ComputeSHA1(s),\n            ReadFileBase64(s),\n            ComputeFileBase64Sha256(s),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    java = tu_pcl_emit_ok(&f, LANG_JAVA); /* helper methods in App, before stack */
    tu_has(java, "    }\n\n    private static String computeSHA1(String input) {\n        try {\n");
    tu_has(java, "    private static String computeFileBase64Sha256(String path) {\n");
    tu_has(java, "computeSHA1(s),\n            readFileBase64(s),\n            computeFileBase64Sha256(s)));\n");
    tu_has(java, "    private static String readFileBase64(String path) {\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    f = load("config \"s\" \"string\" {}\nconfig \"l\" \"list(string)\" {}\n"
             "output \"o1\" {\n    value = [length(s), length(l), element(l, 1)]\n}\n"
             "output \"o2\" {\n    value = join(\"|\", split(\"-\", s))\n}\n"
             "output \"o3\" {\n    value = split(\".\", s)\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:10:13",
                        "calls split() with a separator that is \"\" or not a literal free of regular-expression");
    unload(&f);
    f = load("config \"s\" \"string\" {}\nconfig \"l\" \"list(string)\" {}\n"
             "output \"o1\" {\n    value = [length(s), length(l), element(l, 1)]\n}\n"
             "output \"o2\" {\n    value = join(\"|\", split(\"-\", s))\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "graphemeLength(s),\n            l.size(),\n            element(l, 1)));\n");
    tu_has(java, "ctx.export(\"o2\", String.join(\"|\", Arrays.asList(s.split(\"-\", -1))));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* C#: toJSON as Pulumi's .NET generator writes it, JsonSerializer.Serialize of a plain value,
     * Output.JsonSerialize(Output.Create(value)) of one holding outputs */
    f = load("config \"s\" \"string\" {}\nconfig \"k\" \"string\" {\n    secret = true\n}\n"
             "obj = {\n    a = s\n    b = k\n}\n"
             "output \"p\" {\n    value = toJSON([s])\n}\noutput \"q\" {\n    value = toJSON(obj)\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "using System.Text.Json;\n");
    tu_has(cs, "        [\"p\"] = ToJsonText(JsonSerializer.Serialize(new[]\n        {\n            s,\n        })),\n"
               "        [\"q\"] = Output.JsonSerialize(Output.Create(obj)).Apply(v => ToJsonText(v)),\n");
    free(cs);
    /* Java: the toJson helper of any plain value (a list, a value read from a config); over a local
     * holding a literal that reads one Output, that literal in an apply of it (test_to_json_double_java) */
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java,
           "ctx.export(\"q\", k.applyValue(_k -> toJson(\n            jsonObject(\n"
           "                jsonProperty(\"a\", s),\n                jsonProperty(\"b\", _k)\n            ))));\n");
    free(java);
    unload(&f);
    f = load("config \"s\" \"string\" {}\noutput \"p\" {\n    value = toJSON([s])\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"p\", toJson(\n            jsonArray(\n                (Object) s\n            )));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    f = load("config \"k\" \"string\" {\n    secret = true\n}\nconfig \"j\" \"string\" {\n    secret = true\n}\n"
             "output \"q\" {\n    value = toJSON({a = k, b = j})\n}\n"
             "output \"r\" {\n    value = toJSON({a = null})\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:8:13", "calls toJSON() over outputs other than one Output");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:11:25", "holds null as the value of 'a' in a map");
    unload(&f);
    /* a list of one item: jsonArray((Object) item), the varargs overload, where jsonArray(null)
     * passes no array (a null list) and jsonArray(list)
     * takes the inner list's items as the outer list's ([[1, 2]] written [1, 2]) */
    f = load("output \"b\" {\n    value = toJSON({s = \"x\", l = [null], m = [[1, 2]]})\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "jsonProperty(\"l\", jsonArray(\n                    (Object) null\n                )),\n");
    tu_has(java, "jsonProperty(\"m\", jsonArray(\n                    (Object) jsonArray(\n"
                 "                        1,\n                        2\n                    )\n                ))\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* over one Output: in an apply of it, as pulumi-java writes it (an IAM policy of an ARN) */
    f = load("config \"k\" \"string\" {\n    secret = true\n}\n"
             "output \"q\" {\n    value = toJSON({a = k, list = [k, \"x\"]})\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"q\", k.applyValue(_k -> toJson(\n"
                 "            jsonObject(\n"
                 "                jsonProperty(\"a\", _k),\n"
                 "                jsonProperty(\"list\", jsonArray(\n"
                 "                    _k,\n"
                 "                    \"x\"\n"
                 "                ))\n"
                 "            ))));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* Java: an object literal of plain values as pulumi-java writes it, but through the program's
     * toJson helper (test_pcl_meaning runs it): toJson(jsonObject(jsonProperty(key, value), ...)),
     * nested objects and lists as jsonObject and jsonArray */
    f = load("config \"s\" \"string\" {}\nconfig \"l\" \"list(string)\" {}\n"
             "output \"p\" {\n    value = toJSON({\n        key = \"value\"\n        count = 1\n"
             "        inner = { name = s, items = l }\n        list = [s, true]\n    })\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    ck_assert(!strstr(java, "Serialization"));
    tu_has(java, "ctx.export(\"p\", toJson(\n"
                 "            jsonObject(\n"
                 "                jsonProperty(\"key\", \"value\"),\n"
                 "                jsonProperty(\"count\", 1),\n"
                 "                jsonProperty(\"inner\", jsonObject(\n"
                 "                    jsonProperty(\"name\", s),\n"
                 "                    jsonProperty(\"items\", l)\n"
                 "                )),\n"
                 "                jsonProperty(\"list\", jsonArray(\n"
                 "                    s,\n"
                 "                    true\n"
                 "                ))\n"
                 "            )));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    /* over an output (Pulumi writes an apply; toBase64 has one: test_id_map_cs_java), or unsecret of a plain value:
     * refused */
    f = load(
        "resource \"res\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n    items = []\n}\n"
        "output \"o\" {\n    value = fromBase64(res.text)\n}\n"
        "output \"p\" {\n    value = unsecret(\"x\")\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_JAVA : LANG_CSHARP;
        tu_pcl_emit_refused(&f, lang, "main.pp:8:13", "calls fromBase64() over an output");
        tu_pcl_emit_refused(&f, lang, "main.pp:11:13", "calls unsecret() on a plain value");
    }
    unload(&f);
}
END_TEST

/* Lists and maps holding null, as C# and Java run them: Java's List.of, Map.entry and the SDK's
 * varargs setters (List.of again) throw NullPointerException on null, so a list holding null is
 * Arrays.asList(...) (one item: Arrays.asList((Object) null), as pulumi-java writes l1-output-null, or
 * Collections.singletonList(null) of the setter's type) passed whole, and a map holding null is
 * refused. C#: nulls only in a list of strings are a string[] (new[] { null } has no best type), a
 * list of any type's items of no one type an object?[] (test_mixed_list_cs: of no type), and null in
 * a list of numbers (a double[]) refused. */
START_TEST(test_null_and_mixed_lists_cs_java) {
    fixture_t f = load("l = [1, null]\nm = [1, \"a\", true]\n"
                       "resource \"r\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
                       "    items = [\"x\", null]\n}\n"
                       "resource \"s\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
                       "    items = [null]\n}\n"
                       "output \"l\" {\n    value = l\n}\noutput \"m\" {\n    value = m\n}\n"
                       "output \"n\" {\n    value = [null]\n}\noutput \"same\" {\n    value = [1, 2.5]\n}\n"
                       "output \"strs\" {\n    value = [\"a\", null]\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "final var l = Arrays.asList(\n            1,\n            null);\n");
    tu_has(java, "            .items(Arrays.asList(\n                \"x\",\n                null))\n");
    tu_has(java, "            .items(Collections.singletonList(null))\n");
    tu_has(java, "ctx.export(\"n\", Arrays.asList((Object) null));\n");
    tu_has(java, "final var m = List.of(\n");
    parses(LANG_JAVA, java);
    free(java);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        Items = new[]\n        {\n            \"x\",\n            null,\n        },\n");
    tu_has(cs, "        Items = new string[]\n        {\n            null,\n        },\n");
    tu_has(cs, "        [\"same\"] = new[]\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
    /* Java: a map holding null, anywhere; C#: null in a list of numbers */
    f = load("o = {a = 1, b = null}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:1:17", "holds null as the value of 'b' in a map");
    char *ok = tu_pcl_emit_ok(&f, LANG_CSHARP);
    free(ok);
    unload(&f);
    f = load("output \"o\" {\n    value = {x = {y = null}}\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:2:23", "Map.entry throws NullPointerException");
    unload(&f);
    /* Java: null among a resource's list items with outputs (Output.all(a.text(), Output.of(null))) and
     * secret(null) (Output.ofSecret(null)) throw; C#'s Output.CreateSecret(null) does not compile */
    f = load("resource \"a\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n    items = []\n}\n"
             "resource \"b\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n"
             "    items = [a.text, null]\n}\n"
             "output \"s\" {\n    value = secret(null)\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:11:22", "Output.of(null) throws NullPointerException");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:14:13", "calls secret() on null");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:14:13", "calls secret() on null");
    unload(&f);
    static const char *schema = "{\"name\":\"nl\",\"version\":\"1.0.0\",\"resources\":{\"nl:index:Res\":{"
                                "\"inputProperties\":{\"nums\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}},"
                                "\"anys\":{\"type\":\"array\",\"items\":{\"$ref\":\"pulumi.json#/Any\"}}}}}}";
    f = tu_pcl_load(schema, "nl.json", "resource \"r\" \"nl:index:Res\" {\n    nums = [1, null]\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:2:16", "holds null in a list of numbers");
    unload(&f);
    f = tu_pcl_load(schema, "nl.json", "resource \"r\" \"nl:index:Res\" {\n    anys = [1, \"a\"]\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        Anys = new object?[]\n");
    free(cs);
    unload(&f);
}
END_TEST

/* Java prints a number or a value of no type (Gson's Object, every number a Double) in a template as
 * PCL does:
 * formatValue(x) gives 1 for 1.0 (String.format("%s", 1.0) gave "1.0"); over an output of one, in an
 * applyValue. C# passes an output of a value of no type (an Output<JsonElement>: a secret config value,
 * secret() of one, a local holding it) where the schema wants any (an Input<object>, which an
 * Output<JsonElement> does not convert to) as an Output<object>. */
START_TEST(test_untyped_values_cs_java) {
    fixture_t f =
        load("config \"x\" {}\nconfig \"k\" {\n    secret = true\n}\n"
             "output \"t\" {\n    value = \"v-${x}\"\n}\noutput \"s\" {\n    value = \"v-${secret(x)}-${k}\"\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"t\", String.format(\"v-%s\", formatValue(x2)));\n");
    tu_has(java, "ctx.export(\"s\", Output.format(\"v-%s-%s\", Output.ofSecret(x2).applyValue(v -> formatValue(v)), "
                 "k.applyValue(v -> formatValue(v))));\n");
    tu_has(java, "    private static String formatValue(Object value) {\n");
    parses(LANG_JAVA, java);
    free(java);
    /* C#: a JsonElement prints a bool True / False: FormatValue (true / false, else ToString) */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "string FormatValue(object? value)\n{\n    switch (value)\n");
    tu_has(cs, "[\"t\"] = $\"v-{FormatValue(x)}\",\n");
    tu_has(cs, "[\"s\"] = Output.Format($\"v-{Output.CreateSecret(x).Apply(v => FormatValue(v))}-"
               "{k.Apply(v => FormatValue(v))}\"),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
    /* a number is a Double too (a config number, the schema's number, arithmetic over them); an int
     * (a config int, the schema's integer) an Integer, as it is */
    f = load("config \"n\" \"number\" {}\nconfig \"i\" \"int\" {}\n"
             "resource \"r\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n    items = []\n}\n"
             "output \"t\" {\n    value = \"v-${n}-${i}-${r.num}-${n + 1}\"\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"t\", Output.format(\"v-%s-%s-%s-%s\", formatValue(n), i, "
                 "r.num().applyValue(v -> formatValue(v)), formatValue(n + 1)));\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
    static const char *schema =
        "{\"name\":\"an\",\"version\":\"1.0.0\",\"resources\":{\"an:index:Res\":{"
        "\"inputProperties\":{\"value\":{\"$ref\":\"pulumi.json#/Any\"},"
        "\"vals\":{\"type\":\"array\",\"items\":{\"$ref\":\"pulumi.json#/Any\"}},"
        "\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"$ref\":\"pulumi.json#/Any\"}}}}}}";
    f = tu_pcl_load(
        schema, "an.json",
        "config \"x\" {}\nconfig \"k\" {\n    secret = true\n}\ns = secret(x)\n"
        "resource \"r\" \"an:index:Res\" {\n    value = s\n    vals = [secret(x)]\n    tags = { a = k }\n}\n"
        "resource \"p\" \"an:index:Res\" {\n    value = x\n}\n"
        "output \"o\" {\n    value = s\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs,
           "        Value = s.Apply(v => (object)v),\n"
           "        Vals = new[]\n        {\n            Output.CreateSecret(x).Apply(v => (object)v),\n        },\n"
           "        Tags = \n        {\n            { \"a\", k.Apply(v => (object)v) },\n        },\n");
    tu_has(cs, "        Value = x,\n");
    tu_has(cs, "        [\"o\"] = s,\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
}
END_TEST

/* Java reads an int of a config map (or of a list in a list) as a Double Gson decoded and made it
 * an int, also where the schema wants a number: .num(((Number) m.get("b")).intValue()) did not
 * compile (int cannot be converted to Double); there it is made a double. */
START_TEST(test_config_raw_int_as_number_java) {
    fixture_t f = load("config \"m\" \"map(int)\" {}\nconfig \"s\" \"map(int)\" {\n    secret = true\n}\n"
                       "resource \"r\" \"lang:index:Res\" {\n    text = \"v-${m[\"c\"]}\"\n    num = m[\"b\"]\n"
                       "    flag = true\n    items = []\n}\n"
                       "resource \"q\" \"lang:index:Res\" {\n    text = \"a\"\n    num = s[\"b\"]\n"
                       "    flag = true\n    items = []\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".num(((Number) m.get(\"b\")).doubleValue())\n");
    tu_has(java, "String.format(\"v-%s\", ((Number) m.get(\"c\")).intValue())");
    tu_has(java, ".num(s.applyValue(v -> ((Number) v.get(\"b\")).doubleValue()))\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
}
END_TEST

/* C# formats a bool True / False: a bool read out of a resource's output map or list in a template
 * (`"i-${r.flags["a"]}"`) was written r.Flags.Apply(v => v["a"]) in Output.Format, which prints
 * i-True where PCL prints i-true. It is a bool: out of a required output written as one
 * (.Apply(v => v ? "true" : "false")), out of an optional one refused with its position. */
START_TEST(test_bool_item_in_template_cs) {
    static const char *schema =
        "{\"name\":\"bm\",\"version\":\"1.0.0\",\"resources\":{\"bm:index:Res\":{"
        "\"properties\":{\"flags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"boolean\"}},"
        "\"bits\":{\"type\":\"array\",\"items\":{\"type\":\"boolean\"}},"
        "\"opt\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"boolean\"}}},"
        "\"required\":[\"flags\",\"bits\"],\"inputProperties\":{}}}}";
    fixture_t f = tu_pcl_load(schema, "bm.json",
                              "resource \"r\" \"bm:index:Res\" {}\n"
                              "output \"o\" {\n    value = \"i-${r.flags[\"a\"]} j-${r.bits[0]}\"\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "Output.Format($\"i-{r.Flags.Apply(v => v[\"a\"]).Apply(v => v ? \"true\" : \"false\")} "
               "j-{r.Bits.Apply(v => v[0]).Apply(v => v ? \"true\" : \"false\")}\")");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
    f = tu_pcl_load(schema, "bm.json",
                    "resource \"r\" \"bm:index:Res\" {}\noutput \"o\" {\n    value = \"i-${r.opt[\"a\"]}\"\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:13", "uses template interpolation");
    unload(&f);
}
END_TEST

/* A template's part whose value has no static type in C# and Java while at run time it may be a bool
 * or a number (a stack reference's output, what the schema types `any`: a resource's output, an item
 * of one, an invoke's result, a local holding one) printed as PCL prints it: C#'s object prints a bool
 * True (Output<object>, Output<JsonElement>), Java's Object a number Gson decoded 1.0; and a Java
 * config list or map of numbers (Double[], a raw Map's Doubles) 1.0 too. FormatValue / formatValue
 * print true / false and a number as JavaScript does (1, 0.5, 1e+21). */
START_TEST(test_dynamic_values_in_template_cs_java) {
    static const char *schema =
        "{\"name\":\"an\",\"version\":\"1.0.0\",\"resources\":{\"an:index:Res\":{"
        "\"properties\":{\"val\":{\"$ref\":\"pulumi.json#/Any\"},"
        "\"vals\":{\"type\":\"array\",\"items\":{\"$ref\":\"pulumi.json#/Any\"}}},\"required\":[\"val\",\"vals\"],"
        "\"inputProperties\":{\"value\":{\"$ref\":\"pulumi.json#/Any\"}}}},"
        "\"functions\":{\"an:index:getThing\":{\"inputs\":{\"properties\":{\"a\":{\"type\":\"string\"}},"
        "\"type\":\"object\"},\"outputs\":{\"properties\":{\"result\":{\"$ref\":\"pulumi.json#/Any\"}},"
        "\"type\":\"object\",\"required\":[\"result\"]}}}}";
    fixture_t f =
        tu_pcl_load(schema, "an.json",
                    "config \"ln\" \"list(number)\" {}\nconfig \"mn\" \"map(number)\" {}\n"
                    "resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
                    "resource \"r\" \"an:index:Res\" {\n    value = 1\n}\n"
                    "t = invoke(\"an:index:getThing\", {a = \"x\"})\ng = getOutput(ref, \"b\")\nl = r.val\n"
                    "output \"j\" {\n    value = \"v-${ln[0]}-${mn.k}-${r.val}-${r.vals[0]}-${t.result}-${l}\"\n}\n"
                    "output \"c\" {\n    value = \"v-${getOutput(ref, \"a\")}-${g}-${r.val}-${t.result}-"
                    "${secret(getOutput(ref, \"c\"))}-${invoke(\"an:index:getThing\", {a = \"y\"}).result}\"\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java,
           "ctx.export(\"j\", Output.format(\"v-%s-%s-%s-%s-%s-%s\", formatValue(ln.get(0)), "
           "formatValue(mn.get(\"k\")), r.val().applyValue(v -> formatValue(v)), "
           "r.vals().applyValue(v -> v.get(0)).applyValue(v -> formatValue(v)), "
           "t.applyValue(_t -> _t.result()).applyValue(v -> formatValue(v)), l.applyValue(v -> formatValue(v))));\n");
    tu_has(java, ".applyValue(invoke -> invoke.result()).applyValue(v -> formatValue(v))));\n");
    /* a number as JavaScript prints it: its shortest digits, plain from 1e-6 to 1e21 */
    tu_has(java, "        if (k <= e && e <= 21) {\n            text = digits + \"0\".repeat(e - k);\n");
    parses(LANG_JAVA, java);
    free(java);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"c\"] = Output.Format($\"v-{@ref.GetOutput(\"a\").Apply(v => FormatValue(v))}-"
               "{g.Apply(v => FormatValue(v))}-{r.Val.Apply(v => FormatValue(v))}-"
               "{t.Apply(t => t.Result).Apply(v => FormatValue(v))}-"
               "{Output.CreateSecret(@ref.GetOutput(\"c\")).Apply(v => FormatValue(v))}-");
    tu_has(cs, ".Apply(invoke => invoke.Result).Apply(v => FormatValue(v))}\"),\n");
    tu_has(cs, "string FormatValue(object? value)\n{\n    switch (value)\n    {\n");
    tu_has(cs, "        case bool b:\n            return b ? \"true\" : \"false\";\n");
    tu_has(cs, "using System.Globalization;\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
}
END_TEST

/* A template's part whose type the emitter did not know: a for expression's variable (C# printed a
 * bool of a list(bool) True, Java a list(number)'s item 1.0), element() of a list. A variable prints
 * as its collection's item (a config list's, a literal's a local holds) or key does; what is not
 * known goes through FormatValue / formatValue, which print every kind as PCL does. */
START_TEST(test_unknown_parts_in_template_cs_java) {
    fixture_t f = load("config \"lb\" \"list(bool)\" {}\nconfig \"ln\" \"list(number)\" {}\nnames = [\"a\", \"b\"]\n"
                       "output \"f1\" {\n    value = [for v in lb : \"b-${v}\"]\n}\n"
                       "output \"f2\" {\n    value = [for i, v in ln : \"${i}-${v}\"]\n}\n"
                       "output \"e\" {\n    value = \"e-${element(lb, 0)}-${element(ln, 0)}\"\n}\n"
                       "output \"p\" {\n    value = [for n in names : \"p-${n}\"]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"f1\"] = lb.Select(v => $\"b-{(v ? \"true\" : \"false\")}\").ToList(),\n");
    tu_has(cs, "[\"f2\"] = ln.Select((v, i) => $\"{FormatValue(i)}-{FormatValue(v)}\").ToList(),\n");
    tu_has(cs, "[\"e\"] = $\"e-{FormatValue(Element(lb, 0))}-{FormatValue(Element(ln, 0))}\",\n");
    tu_has(cs, "[\"p\"] = names.Select(n => $\"p-{n}\").ToList(),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"f1\", lb.stream().map(v -> String.format(\"b-%s\", v))");
    tu_has(java, ".mapToObj(i -> String.format(\"%s-%s\", i, formatValue(ln.get(i))))");
    tu_has(
        java,
        "ctx.export(\"e\", String.format(\"e-%s-%s\", formatValue(element(lb, 0)), formatValue(element(ln, 0))));\n");
    tu_has(java, "ctx.export(\"p\", names.stream().map(n -> String.format(\"p-%s\", n))");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
}
END_TEST

/* C# compared a value of no type of its own with == as an object (r.Val.Apply(val => val == "a"):
 * by reference, false for a stack output "a"), and joined a list of bools with string.Join (True,False);
 * Java's String.join of a list of bools or numbers does not compile. Refused with their positions;
 * a comparison with null, a join of strings (C#: of ints too) stay written. */
START_TEST(test_dynamic_compare_and_join_cs_java) {
    static const char *schema = "{\"name\":\"an\",\"version\":\"1.0.0\",\"resources\":{\"an:index:Res\":{"
                                "\"properties\":{\"val\":{\"$ref\":\"pulumi.json#/Any\"}},\"required\":[\"val\"],"
                                "\"inputProperties\":{\"value\":{\"$ref\":\"pulumi.json#/Any\"}}}}}";
    fixture_t f = tu_pcl_load(schema, "an.json",
                              "config \"lb\" \"list(bool)\" {}\nconfig \"li\" \"list(int)\" {}\n"
                              "resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
                              "resource \"r\" \"an:index:Res\" {\n    value = 1\n}\n"
                              "output \"e1\" {\n    value = r.val == \"a\"\n}\n"
                              "output \"e2\" {\n    value = getOutput(ref, \"a\") != \"a\"\n}\n"
                              "output \"j1\" {\n    value = join(\",\", lb)\n}\n"
                              "output \"j2\" {\n    value = join(\",\", li)\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:10:19", "compares 'r.val', a value of no type of its own");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:13:33", "with '!=': C# holds it as an object");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:16:13", "joins a list of bools");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:16:13", "joins a list of bools");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:19:13", "joins a list of numbers");
    unload(&f);
    f = tu_pcl_load(schema, "an.json",
                    "config \"li\" \"list(int)\" {}\nconfig \"ls\" \"list(string)\" {}\n"
                    "resource \"r\" \"an:index:Res\" {\n    value = 1\n}\n"
                    "output \"e\" {\n    value = r.val == null\n}\n"
                    "output \"j\" {\n    value = join(\",\", li)\n}\noutput \"k\" {\n    value = join(\",\", ls)\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"e\"] = r.Val.Apply(val => val == null),\n");
    tu_has(cs, "[\"j\"] = string.Join(\",\", li),\n");
    free(cs);
    unload(&f);
}
END_TEST

/* C# read a bool below an output's object property (`r.obj.on`) as a bool? (a property left unset,
 * or one read through one: v?.On), and printed it in a template with `v ? "true" : "false"`, which
 * does not take a bool? (before: as itself, True). FormatValue prints it as PCL does. */
START_TEST(test_nested_bool_in_template_cs) {
    static const char *schema =
        "{\"name\":\"ob\",\"version\":\"1.0.0\",\"resources\":{\"ob:index:Res\":{"
        "\"properties\":{\"obj\":{\"$ref\":\"#/types/ob:index:Cfg\"},\"req\":{\"$ref\":\"#/types/ob:index:Cfg\"}},"
        "\"required\":[\"req\"],\"inputProperties\":{}}},\"types\":{\"ob:index:Cfg\":{\"type\":\"object\","
        "\"properties\":{\"on\":{\"type\":\"boolean\"},\"off\":{\"type\":\"boolean\"}},\"required\":[\"on\"]}}}";
    fixture_t f = tu_pcl_load(schema, "ob.json",
                              "resource \"r\" \"ob:index:Res\" {}\n"
                              "output \"o\" {\n    value = \"a-${r.obj.on}-${r.req.off}\"\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"o\"] = Output.Format($\"a-{r.Obj.Apply(v => v?.On).Apply(v => FormatValue(v))}-"
               "{r.Req.Apply(v => v.Off).Apply(v => FormatValue(v))}\"),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
}
END_TEST

/* C# compared lists, maps and objects with == by reference: `l == ls` of two string[] (or a config
 * list with a literal) was false whatever they held, where PCL compares their items. Refused with the
 * position; scalars and null tests stay written. */
START_TEST(test_collection_compare_cs) {
    fixture_t f = load("config \"ls\" \"list(string)\" {}\nconfig \"ms\" \"map(string)\" {}\nl = [\"a\"]\n"
                       "output \"e1\" {\n    value = ls == [\"a\"]\n}\n"
                       "output \"e2\" {\n    value = l != ls\n}\n"
                       "output \"e3\" {\n    value = ms == {a = \"b\"}\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:5:16", "compares 'ls', a list, map or object, with '=='");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:8:15", "compares 'l', a list, map or object, with '!='");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:11:16", "compares 'ms', a list, map or object");
    unload(&f);
    f = load("config \"ls\" \"list(string)\" {}\noutput \"e\" {\n    value = ls[0] == \"a\"\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"e\"] = ls[0] == \"a\",\n");
    free(cs);
    unload(&f);
}
END_TEST

/* An attribute read of a map's key (`r.tags.k`: PCL reads a map's key so) was written as a property
 * of the SDK's class: C# v.K, Java v.k(), Go .K(), none of which a map has (did not compile); in C#
 * also a secret config map's (ms.K of an Output) and an invoke result's. Now by key, as `["k"]` is. */
START_TEST(test_map_key_attribute_cs_java_go) {
    static const char *schema =
        "{\"name\":\"mp\",\"version\":\"1.0.0\",\"resources\":{\"mp:index:Res\":{"
        "\"properties\":{\"tags\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},"
        "\"obj\":{\"$ref\":\"#/types/mp:index:Cfg\"}},\"required\":[\"tags\",\"obj\"],"
        "\"inputProperties\":{\"text\":{\"type\":\"string\"}}}},"
        "\"types\":{\"mp:index:Cfg\":{\"type\":\"object\",\"properties\":{\"labels\":{\"type\":\"object\","
        "\"additionalProperties\":{\"type\":\"string\"}}},\"required\":[\"labels\"]}},"
        "\"functions\":{\"mp:index:getThing\":{\"inputs\":{\"properties\":{\"a\":{\"type\":\"string\"}},"
        "\"type\":\"object\"},\"outputs\":{\"properties\":{\"m\":{\"type\":\"object\",\"additionalProperties\":"
        "{\"type\":\"string\"}}},\"type\":\"object\",\"required\":[\"m\"]}}}}";
    fixture_t f = tu_pcl_load(schema, "mp.json",
                              "config \"ms\" \"map(string)\" {\n    secret = true\n}\n"
                              "resource \"r\" \"mp:index:Res\" {\n    text = \"x\"\n}\n"
                              "resource \"u\" \"mp:index:Res\" {\n    text = r.tags.k\n}\n"
                              "resource \"w\" \"mp:index:Res\" {\n    text = r.obj.labels.k\n}\n"
                              "resource \"y\" \"mp:index:Res\" {\n    text = ms.k\n}\n"
                              "output \"o\" {\n    value = invoke(\"mp:index:getThing\", {a = \"y\"}).m.k\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        Text = r.Tags.Apply(v => v[\"k\"]),\n");
    tu_has(cs, "        Text = r.Obj.Apply(v => v.Labels).Apply(v => v[\"k\"]),\n");
    tu_has(cs, "        Text = ms.Apply(v => v[\"k\"]),\n");
    tu_has(cs, "}).Apply(invoke => invoke.M[\"k\"]),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "            .text(r.tags().applyValue(v -> v.get(\"k\")))\n");
    tu_has(java, "            .text(r.obj().applyValue(v -> v.labels()).applyValue(v -> v.get(\"k\")))\n");
    tu_has(java, ".applyValue(invoke -> invoke.m().get(\"k\")));\n");
    parses(LANG_JAVA, java);
    free(java);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "Text: r.Tags.MapIndex(pulumi.String(\"k\")),\n");
    tu_has(go, "Text: r.Obj.Labels().MapIndex(pulumi.String(\"k\")),\n");
    free(go);
    unload(&f);
}
END_TEST

/* C# printed a number (a double) in a template by the culture the program runs in (1,5 in a German
 * one, where PCL and Pulumi's TypeScript print 1.5) and 1E+15 (JavaScript: 1000000000000000): it goes
 * through FormatValue, which prints it invariantly as JavaScript does, an int too (invariantly). */
START_TEST(test_number_in_template_cs) {
    fixture_t f =
        load("config \"n\" \"number\" {}\nconfig \"i\" \"int\" {}\n"
             "resource \"r\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n    items = []\n}\n"
             "output \"t\" {\n    value = \"v-${n}-${i}-${r.num}-${n * 2}\"\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"t\"] = Output.Format($\"v-{FormatValue(n)}-{FormatValue(i)}-{r.Num.Apply(v => FormatValue(v))}-"
               "{FormatValue(n * 2)}\"),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
}
END_TEST

/* A list, map or object in a template, which PCL does not convert to a string: C# printed the type's
 * name (System.String[]: FormatValue gives its ToString), Java its toString ([a, b]). Refused with the
 * part's position. */
START_TEST(test_collection_in_template_cs_java) {
    fixture_t f =
        load("config \"ls\" \"list(string)\" {}\n"
             "resource \"r\" \"lang:index:Res\" {\n    text = \"a\"\n    num = 1\n    flag = true\n    items = []\n}\n"
             "output \"a\" {\n    value = \"l-${ls}\"\n}\noutput \"b\" {\n    value = \"i-${r.items}\"\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_JAVA : LANG_CSHARP;
        tu_pcl_emit_refused(&f, lang, "main.pp:9:18", "interpolates 'ls', a list, map or object, into a string");
        tu_pcl_emit_refused(&f, lang, "main.pp:12:18", "interpolates 'r.items'");
    }
    unload(&f);
}
END_TEST

/* `+` of a string and a bool, a number or a value of no type, which PCL does not add (its + adds
 * numbers): C# and Java wrote a string concatenation that prints the other as they print it (C#:
 * "a" + val is aTrue, 1,5 by the culture; Java: a1.0), where TypeScript's prints atrue, a1.5, a1.
 * Refused with the position; so is any arithmetic over a string now (test_string_arithmetic_refused). */
START_TEST(test_string_plus_cs_java) {
    fixture_t f = load("config \"s\" \"string\" {}\nconfig \"b\" \"bool\" {}\nconfig \"n\" \"number\" {}\n"
                       "output \"a\" {\n    value = s + b\n}\noutput \"c\" {\n    value = s + n\n}\n"
                       "output \"d\" {\n    value = s + 1\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:5:15", "adds a string and 'b' with '+'");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:8:15", "adds a string and 'n' with '+'");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:8:15", "adds a string and 'n' with '+'");
    unload(&f);
    /* with a whole number literal or, in Java, a bool: refused too (PCL's + converts s to a number:
     * "3" + 1 is 4, where Java's joins, 31) */
    f = load("config \"s\" \"string\" {}\nconfig \"b\" \"bool\" {}\n"
             "output \"a\" {\n    value = s + b\n}\noutput \"d\" {\n    value = s + 1\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:4:15", "computes '+' over 's', a string");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:7:15", "computes '+' over 's', a string");
    unload(&f);
}
END_TEST

/* PCL's arithmetic and order operators take numbers and convert a string operand ("10" + "5" is 15,
 * "10" < "9" is false): TypeScript and Python joined, repeated or compared the text ("105", "2" * i
 * "222", "10" < "9" true), C# and Java joined too; a for expression's item of no type was added as
 * it is (TypeScript "1" + 1 is "11"). Refused with the position in every language that wrote it. */
START_TEST(test_string_arithmetic_refused) {
    fixture_t f = load("config \"s\" \"string\" {}\nconfig \"t\" \"string\" {}\nconfig \"i\" \"int\" {}\n"
                       "config \"la\" \"list(any)\" {}\n"
                       "output \"q\" {\n    value = \"10\" + \"5\"\n}\n"
                       "output \"x\" {\n    value = s + 1\n}\n"
                       "output \"y\" {\n    value = \"2\" * i\n}\n"
                       "output \"lt\" {\n    value = s < t\n}\n"
                       "output \"w\" {\n    value = [for v in la : v + 1]\n}\n");
    static const lang_t langs[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_CSHARP, LANG_JAVA};
    for (size_t k = 0; k < sizeof langs / sizeof *langs; k++) {
        tu_pcl_emit_refused(&f, langs[k], "main.pp:6:18", "computes '+' over '\"10\"', a string");
        tu_pcl_emit_refused(&f, langs[k], "main.pp:12:17", "computes '*' over '\"2\"', a string");
        tu_pcl_emit_refused(&f, langs[k], "main.pp:15:15", "compares 's', a string, with '<'");
    }
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:9:15", "computes '+' over 's', a string");
    tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:18:30", "computes '+' over 'v', a for expression's item");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:18:30", "computes '+' over 'v'");
    unload(&f);
    /* numbers (and a value of no type read whole, converted: Number(a)) stay written */
    f = load("config \"n\" \"number\" {}\nconfig \"a\" \"any\" {}\nconfig \"ln\" \"list(number)\" {}\n"
             "output \"x\" {\n    value = n + 1 < a * 2\n}\noutput \"y\" {\n    value = [for v in ln : v + 1]\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const x = n + 1 < Number(a) * 2;\n");
    tu_has(ts, "export const y = ln.map(v => (v + 1));\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.export(\"x\", n + 1 < float(a) * 2)\n");
    free(py);
    unload(&f);
}
END_TEST

/* TypeScript's == compares arrays and objects by reference (two equal config lists are not ==) and
 * converts between types for a value of no type (a == 1 is true for "1", a == true for 1); Python's
 * True == 1. PCL compares values of one type. Refused with the position; in TypeScript a value of no
 * type beside a string, bool or number is compared with === (as PCL: a = "1" is not 1); strings and
 * numbers of their own types stay written as Pulumi writes them (==). */
START_TEST(test_compare_collections_and_untyped_ts_py) {
    fixture_t f = load("config \"l\" \"list(string)\" {}\nconfig \"l2\" \"list(string)\" {}\n"
                       "config \"m\" \"map(string)\" {}\nconfig \"m2\" \"map(string)\" {}\n"
                       "config \"a\" \"any\" {}\nconfig \"la\" \"list(any)\" {}\n"
                       "output \"x\" {\n    value = l == l2\n}\n"
                       "output \"y\" {\n    value = m != m2\n}\n"
                       "output \"z\" {\n    value = a == 1\n}\n"
                       "output \"u\" {\n    value = a == true\n}\n"
                       "output \"w\" {\n    value = [for v in la : v == \"1\"]\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:8:15", "compares 'l', a list, map or object, with '=='");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:11:15", "compares 'm', a list, map or object, with '!='");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:20:30", "compares 'v'");
    tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:14:15", "compares 'a', a value of no type of its own, with '1'");
    tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:17:15", "compares 'a', a value of no type of its own, with 'true'");
    unload(&f);
    /* TypeScript: a value of no type beside a bool or number compares strictly (a = "1" is not 1) */
    f = load("config \"a\" \"any\" {}\noutput \"z\" {\n    value = a == 1\n}\n"
             "output \"u\" {\n    value = a != true\n}\n");
    char *strict = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(strict, "export const z = a === 1;\n");
    tu_has(strict, "export const u = a !== true;\n");
    free(strict);
    unload(&f);
    f = load("config \"l\" \"list(string)\" {}\nconfig \"a\" \"any\" {}\nconfig \"n\" \"number\" {}\n"
             "output \"e\" {\n    value = l[0] == \"a\" && n != 2\n}\noutput \"p\" {\n    value = a == \"x\"\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const e = l[0] == \"a\" && n != 2;\n");
    tu_has(ts, "export const p = a === \"x\";\n"); /* strict: a value of no type beside a string */
    free(ts);
    unload(&f);
    f = load("config \"a\" \"any\" {}\noutput \"p\" {\n    value = a == \"x\"\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.export(\"p\", a == \"x\")\n");
    free(py);
    unload(&f);
}
END_TEST

/* A list, map or null in a template, which PCL does not convert to a string: TypeScript printed a,b,
 * [object Object] and undefined, Python ['a', 'b'], {'k': 'v'} and None. Refused with the part's
 * position in TypeScript and Python as in C# and Java; null in every language. */
START_TEST(test_collection_and_null_in_template_ts_py) {
    fixture_t f = load("config \"l\" \"list(string)\" {}\nconfig \"m\" \"map(string)\" {}\n"
                       "output \"a\" {\n    value = \"v-${l}\"\n}\n"
                       "output \"b\" {\n    value = \"v-${m}\"\n}\n"
                       "output \"c\" {\n    value = \"v-${null}\"\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_PYTHON : LANG_TYPESCRIPT;
        tu_pcl_emit_refused(&f, lang, "main.pp:4:18", "interpolates 'l', a list, map or object, into a string");
        tu_pcl_emit_refused(&f, lang, "main.pp:7:18", "interpolates 'm'");
    }
    static const lang_t langs[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA};
    for (size_t k = 0; k < sizeof langs / sizeof *langs; k++)
        tu_pcl_emit_refused(&f, langs[k], "main.pp:10:18", "interpolates null into a string");
    unload(&f);
}
END_TEST

/* -(-v) lost its parentheses: TypeScript --v (a decrement: off by one in a lambda), Go's did not
 * parse; now -(-v) in each. */
START_TEST(test_double_negation) {
    fixture_t f = load("config \"n\" \"number\" {}\nconfig \"ln\" \"list(number)\" {}\n"
                       "output \"x\" {\n    value = -(-n)\n}\noutput \"y\" {\n    value = [for v in ln : -(-v)]\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const x = -(-n);\n");
    tu_has(ts, "export const y = ln.map(v => (-(-v)));\n");
    free(ts);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "-(-n)");
    free(go);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "-(-n)");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "-(-n)");
    free(java);
    unload(&f);
}
END_TEST

/* Python chains comparisons (a == b == c is a == b and b == c); PCL's associate left: (a == b) == c.
 * Python's % floors (-7 % 3 is 2) where PCL's truncates (-1): math.fmod. */
START_TEST(test_python_compare_chain_and_mod) {
    fixture_t f = load("config \"a\" \"bool\" {}\nconfig \"b\" \"bool\" {}\nconfig \"c\" \"bool\" {}\n"
                       "config \"n\" \"number\" {}\n"
                       "output \"x\" {\n    value = a == b == c\n}\noutput \"y\" {\n    value = n < 3 == a\n}\n"
                       "output \"z\" {\n    value = a == (n < 3)\n}\noutput \"r\" {\n    value = n % 3 + 7 % 2\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "import math\n");
    tu_has(py, "pulumi.export(\"x\", (a == b) == c)\n");
    tu_has(py, "pulumi.export(\"y\", (n < 3) == a)\n");
    tu_has(py, "pulumi.export(\"z\", a == (n < 3))\n");
    tu_has(py, "pulumi.export(\"r\", math.fmod(n, 3) + int(math.fmod(7, 2)))\n");
    free(py);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const x = a == b == c;\n");
    free(ts);
    unload(&f);
}
END_TEST

/* C# held the items of a list or map literal of no one type as objects (object?[], Dictionary<string,
 * object?>), and a for expression's `v == "a"` over them compared references: false for a config
 * string equal to "a". Refused with the comparison's position; over items of one type (split()'s
 * strings) it stays written. */
START_TEST(test_for_object_compare_cs) {
    fixture_t f = load("config \"s\" \"string\" {}\nl = [s, 1]\nm = {a = s, b = true}\n"
                       "output \"a\" {\n    value = [for v in l : v if v == \"a\"]\n}\n"
                       "output \"b\" {\n    value = [for k, v in m : k if v != \"x\"]\n}\n"
                       "output \"c\" {\n    value = [for v in split(\",\", s) : v if v != \"a\"]\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:5:34", "compares 'v', an item of 'l', which C# holds as an object");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:8:37", "compares 'v', an item of 'm'");
    unload(&f);
    f = load(
        "config \"s\" \"string\" {}\noutput \"c\" {\n    value = [for v in split(\",\", s) : v if v != \"a\"]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"c\"] = s.Split(\",\").Where(v => v != \"a\").Select(v => v).ToList(),\n");
    free(cs);
    unload(&f);
}
END_TEST

/* PCL's numbers do not overflow; C#'s and Java's ints wrap silently: `i * 1024 * 1024 * 1024` of a
 * config int 4 was 0. Where a double may stand (an output's value and a for expression's items, as
 * here) they are computed as doubles (test_emit_go_cs_java test_cs_java_int_arith_as_pcl); where an
 * int is wanted (an integer input, an index) written so that an overflow throws: C# in checked(...),
 * Java by Math.addExact / subtractExact / multiplyExact; two literals whose result is an int stay as
 * they are. */
START_TEST(test_int_overflow_cs_java) {
    fixture_t f = load("config \"i\" \"int\" {}\nconfig \"li\" \"list(int)\" {}\n"
                       "output \"a\" {\n    value = i * 1024 * 1024 * 1024\n}\n"
                       "output \"c\" {\n    value = [for v in li : v - 2]\n}\noutput \"d\" {\n    value = 2 * 3\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"a\"] = (double) i * 1024 * 1024 * 1024,\n");
    tu_has(cs, "[\"c\"] = li.Select(v => (double) v - 2).ToList(),\n");
    tu_has(cs, "[\"d\"] = 2 * 3,\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"a\", (double) i * 1024 * 1024 * 1024);\n");
    tu_has(java, "li.stream().map(v -> (double) v - 2)");
    tu_has(java, "ctx.export(\"d\", 2 * 3);\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
}
END_TEST

/* Java's toJSON was pulumi-java's serializeJson, Gson's toJson, which writes a Double 1.0 as 1.0 (a
 * config number, the schema's number), where PCL and JSON.stringify write 1: such a value was refused.
 * The toJson helper writes a Double as PCL does (test_pcl_meaning runs it): written now; a value of no
 * type (Gson's decoding) is refused with its position. */
START_TEST(test_to_json_double_java) {
    fixture_t f = load("config \"n\" \"number\" {}\nconfig \"i\" \"int\" {}\n"
                       "output \"a\" {\n    value = toJSON({a = i, b = [n]})\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "jsonProperty(\"b\", jsonArray(\n                    (Object) n\n");
    free(java);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    free(cs);
    unload(&f);
    f = load("config \"i\" \"int\" {}\noutput \"a\" {\n    value = toJSON({a = i, b = 1.5})\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "jsonProperty(\"a\", i),\n");
    tu_has(java, "jsonProperty(\"b\", 1.5)\n");
    free(java);
    unload(&f);
    /* a config value of no type is what Gson decodes (a Map, a List, a Double...), which toJson writes
     * (test_pcl_meaning runs it); one whose default is an object (a Map.ofEntries, of no order) is not */
    f = load("config \"d\" {}\noutput \"a\" {\n    value = toJSON({a = [d]})\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "jsonProperty(\"a\", jsonArray(\n                    (Object) d\n");
    free(java);
    unload(&f);
    f = load("config \"d\" {\n    default = {x = 1, y = 2}\n}\noutput \"a\" {\n    value = toJSON({a = [d]})\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:26", "calls toJSON() over 'd', a value of no type");
    unload(&f);
    /* a local holding a literal that reads one Output (l1-builtin-to-json's nestedObject): its literal in
     * an apply of that Output, as toJSON of the literal itself is written (was refused: "over outputs
     * other than one Output read as a whole") */
    f = load("config \"s\" \"string\" {\n    secret = true\n}\nconfig \"t\" \"string\" {}\n"
             "o = {in = {name = t}, sec = s}\noutput \"a\" {\n    value = toJSON(o)\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"a\", s.applyValue(_s -> toJson(\n            jsonObject(\n"
                 "                jsonProperty(\"in\", jsonObject(\n                    jsonProperty(\"name\", t)\n"
                 "                )),\n                jsonProperty(\"sec\", _s)\n            ))));\n");
    free(java);
    unload(&f);
}
END_TEST

/* The checks that refuse what C#'s and Java's run-time types print or compare otherwise than PCL (==
 * of a value of no type or of collections, join() of bools or numbers, a collection in a template, a
 * string + a bool or number) skipped an operand that reads a for expression's variable, and join()
 * let through a list whose items' kind was not known (a for expression's, a mixed literal's, a
 * conditional's): C# compared JsonElements and ImmutableArrays with ==, joined True,False, printed
 * aTrue, a1,5 and a list's type name; Java a1.0, [a, b]. A variable is now judged by its collection's
 * items; what is not known is refused where it could print or compare so. */
START_TEST(test_for_variable_checks_cs_java) {
    static const char *cfg = "config \"cla\" \"list(any)\" {}\nconfig \"cll\" \"list(list(string))\" {}\n"
                             "config \"lb\" \"list(bool)\" {}\nconfig \"ln\" \"list(number)\" {}\n"
                             "config \"ls\" \"list(string)\" {}\nconfig \"b\" \"bool\" {}\n";
    static const struct {
        const char *value, *at, *why;
        bool cs, java;
    } refused[] = {
        {"[for x in cla : x == \"a\"]", "main.pp:8:31", "compares 'x'", true, false},
        {"[for x in cll : [for y in cll : x == y]]", "main.pp:8:47", "compares 'x', a list, map or object", true,
         false},
        {"join(\",\", [for x in ls : x == \"a\"])", "main.pp:8:13", "joins a list of bools", true, true},
        {"join(\",\", [b, \"x\"])", "main.pp:8:13", "joins a list of items of no one known type", true, true},
        {"join(\",\", b ? [true] : [false])", "main.pp:8:13", "joins a list of bools", true, true},
        {"[for x in lb : \"a\" + x]", "main.pp:8:32", "adds a string and 'x' with '+'", true, false},
        {"[for x in ln : \"a\" + x]", "main.pp:8:32", "adds a string and 'x' with '+'", true, true},
        {"[for x in cll : \"v-${x}\"]", "main.pp:8:34", "interpolates 'x', a list, map or object", true, true},
        {"[for x in ls : \"a\" + x]", "main.pp:8:32", "computes '+' over '\"a\"', a string", true, true},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char pcl[1024];
        snprintf(pcl, sizeof pcl, "%soutput \"o\" {\n    value = %s\n}\n", cfg, refused[i].value);
        fixture_t f = load(pcl);
        if (refused[i].cs) tu_pcl_emit_refused(&f, LANG_CSHARP, refused[i].at, refused[i].why);
        if (refused[i].java) tu_pcl_emit_refused(&f, LANG_JAVA, refused[i].at, refused[i].why);
        unload(&f);
    }
    /* a variable of a known scalar kind stays written */
    fixture_t f = load("config \"ls\" \"list(string)\" {}\nconfig \"cll\" \"list(list(string))\" {}\n"
                       "output \"e\" {\n    value = [for x in ls : x == \"a\"]\n}\n"
                       "output \"j\" {\n    value = join(\",\", [for x in ls : \"v-${x}\"])\n}\n"
                       "output \"k\" {\n    value = [for x in cll : join(\",\", x)]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"e\"] = ls.Select(x => x == \"a\").ToList(),\n");
    tu_has(cs, "[\"j\"] = string.Join(\",\", ls.Select(x => $\"v-{x}\").ToList()),\n");
    tu_has(cs, "[\"k\"] = cll.Select(x => string.Join(\",\", x)).ToList(),\n");
    parses(LANG_CSHARP, cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "String.join(\",\", x)");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
}
END_TEST

/* C# holds a config value of no type whose default is null as a JsonElement?: entries(u) of it was
 * written u.EnumerateObject() (CS1061: a Nullable<JsonElement> has none), also as a for's source;
 * it is u!.Value.EnumerateObject() now, as a read into it is (u!.Value.GetProperty). */
START_TEST(test_entries_of_null_default_cs) {
    fixture_t f = load("config \"u\" {\n    default = null\n}\nconfig \"names\" {}\n"
                       "output \"o\" {\n    value = entries(u)\n}\n"
                       "output \"p\" {\n    value = [for e in entries(u) : e.key]\n}\n"
                       "output \"q\" {\n    value = entries(names)\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"o\"] = u!.Value.EnumerateObject().OrderBy(");
    tu_has(cs, "[\"p\"] = u!.Value.EnumerateObject().OrderBy(");
    tu_has(cs, "[\"q\"] = names.EnumerateObject().OrderBy(");
    parses(LANG_CSHARP, cs);
    free(cs);
    unload(&f);
}
END_TEST

/* Java gathers a list of numbers holding outputs with Output.all (Output<T>... of one T): an int
 * output beside a number (Output.all(r.count(), Output.of(2.0), r.size())) did not compile, nor
 * does an Output<List<Integer>> where the builder wants one of Doubles. An output that may be an
 * int is made a double; a number output is left as it is. */
START_TEST(test_int_outputs_in_number_list_java) {
    static const char *schema = "{\"name\":\"nl\",\"version\":\"1.0.0\",\"resources\":{\"nl:index:Res\":{"
                                "\"properties\":{\"count\":{\"type\":\"integer\"},\"size\":{\"type\":\"number\"}},"
                                "\"required\":[\"count\",\"size\"],"
                                "\"inputProperties\":{\"nums\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}},"
                                "\"one\":{\"type\":\"number\"}}}}}";
    fixture_t f = tu_pcl_load(schema, "nl.json",
                              "resource \"r\" \"nl:index:Res\" {}\n"
                              "resource \"s\" \"nl:index:Res\" {\n    nums = [r.count, 2, r.size, r.count + 1]\n"
                              "    one = r.count\n}\n"
                              "resource \"t\" \"nl:index:Res\" {\n    one = r.size\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java,
           ".nums(Output.all(\n                r.count().applyValue(v -> v == null ? null : v.doubleValue()),\n"
           "                Output.of(2.0),\n                r.size(),\n"
           "                r.count().applyValue(_count -> (double) _count + 1).applyValue(v -> v == null ? null : "
           "v.doubleValue())))");
    tu_has(java, ".one(r.count().applyValue(v -> v == null ? null : v.doubleValue()))\n");
    tu_has(java, ".one(r.size())\n");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
}
END_TEST

/* C# and Java: a program's name that is a class, namespace alias or helper the written code refers
 * to unqualified hid it, and the file did not compile (read10b F19): C# `var File = ...;
 * File.ReadAllText(File)`, `var FormatValue = ...; FormatValue(Math)`, a local `Lang` beside `using
 * Lang = Pulumi.Lang;`; Java `final var _ = ...` (a keyword since Java 9), a local `java` where
 * `java.math.BigDecimal` is written. Such names take another (C#: the package's alias). */
START_TEST(test_names_hiding_classes_cs_java) {
    fixture_t f =
        load("config \"File\" \"string\" {}\nconfig \"Output\" \"string\" {}\n"
             "config \"FormatValue\" \"number\" {}\nconfig \"Math\" \"number\" {}\n"
             "config \"Deployment\" \"string\" {}\nconfig \"Dictionary\" \"string\" {}\nLang = \"l\"\n"
             "resource \"res\" \"lang:index:Res\" {\n"
             "    text = \"${readFile(File)}${FormatValue}${Deployment}${stack()}${Lang}${Output}${Dictionary}\"\n"
             "    num = max(Math, 1)\n    flag = true\n    items = [Output]\n}\n"
             "output \"o\" {\n    value = [res.text, Output]\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    parses(LANG_CSHARP, cs);
    static const char *const hidden[] = {"File", "Output", "FormatValue", "Math", "Deployment", "Dictionary"};
    for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++) {
        char decl[64];
        snprintf(decl, sizeof decl, "var %s = ", hidden[i]);
        ck_assert_msg(strstr(cs, decl) == NULL, "C# declares %s, which the file refers to:\n%s", hidden[i], cs);
    }
    tu_has(cs, "var File2 = config.Require(\"File\");\n");
    tu_has(cs, "File.ReadAllBytes(File2)");
    tu_has(cs, "var Lang = \"l\";\n"); /* the package's alias takes another name */
    tu_has(cs, "using Lang2 = Pulumi.Lang;\n");
    tu_has(cs, "new Lang2.Res(\"res\"");
    free(cs);
    unload(&f);

    /* Java: compiled with javac against pulumi-java's API surface (tests/peers/java) */
    f = load("config \"_\" \"string\" {}\nconfig \"java\" \"number\" {}\nconfig \"com\" \"string\" {}\n"
             "resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = java\n}\n"
             "output \"o\" {\n    value = [_, com, ref.outputs]\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    parses(LANG_JAVA, java);
    ck_assert_ptr_null(strstr(java, "final var _ = "));
    ck_assert_ptr_null(strstr(java, "final var java = "));
    int status = -1;
    char *out = tu_run_source(
        "App.java", java,
        "javac -nowarn -encoding UTF-8 -sourcepath '" SOURCE_DIR "/tests/peers/java' -d . App.java 2>&1", &status);
    ck_assert_msg(status == 0, "javac rejects:\n%s\n(program:\n%s)", out ? out : "", java);
    free(out);
    free(java);
    unload(&f);
    /* a class written qualified (App is the file's own class) under a package's own base, io.acme */
    f = tu_pcl_load("{\"name\":\"ex\",\"version\":\"1.0.0\",\"language\":{\"java\":{\"basePackage\":\"io.acme\"}},"
                    "\"resources\":{\"ex:index:App\":{\"inputProperties\":{\"s\":{\"type\":\"string\"}}}}}",
                    "ex.json", "io = \"x\"\nresource \"r\" \"ex:index:App\" {\n    s = io\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "final var io2 = \"x\";\n");
    tu_has(java, "new io.acme.ex.App(\"r\"");
    parses(LANG_JAVA, java);
    free(java);
    unload(&f);
}
END_TEST

/* A read of a key a literal object a local holds lacks, or past the end of a literal list, is an error
 * in PCL (cty: the key does not identify an element); TypeScript read undefined (`ll[5]`), Go the
 * zero value (`o["b"]`: ""), Python raised (read12 F13). Refused in every language with its position;
 * not where it may not be evaluated (a conditional's branch, try(), a for body). */
START_TEST(test_missing_literal_item_refused) {
    fixture_t f = load("o = {a = \"x\", n = {k = \"v\"}}\nll = [\"p\", \"q\"]\n"
                       "output \"d\" {\n    value = o.b\n}\noutput \"e\" {\n    value = ll[5]\n}\n"
                       "output \"f\" {\n    value = o.n.z\n}\n");
    static const lang_t langs[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA, LANG_YAML};
    for (size_t k = 0; k < sizeof langs / sizeof *langs; k++) {
        tu_pcl_emit_refused(&f, langs[k], "main.pp:4:13",
                            "'value' reads 'o.b', but the object the local 'o' holds has no key 'b': PCL fails");
        tu_pcl_emit_refused(&f, langs[k], "main.pp:7:13",
                            "'value' reads 'll[5]', past the end of the 2-item list the local 'll' holds");
        tu_pcl_emit_refused(&f, langs[k], "main.pp:10:13", "reads 'o.n.z', but the object the local 'o' holds");
    }
    unload(&f);
    f = load("config \"c\" \"bool\" {}\no = {a = \"x\"}\nll = [\"p\", \"q\"]\n"
             "output \"d\" {\n    value = c ? o.b : o.a\n}\noutput \"e\" {\n    value = try(ll[5], \"none\")\n}\n"
             "output \"f\" {\n    value = [for x in [] : o.b]\n}\noutput \"g\" {\n    value = ll[1]\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const g = ll[1];");
    free(ts);
    unload(&f);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pcl_language");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_locals_ordered);
    tcase_add_test(tc, test_templates);
    tcase_add_test(tc, test_operators_and_conditionals);
    tcase_add_test(tc, test_for_expressions);
    tcase_add_test(tc, test_go_expression_language);
    tcase_add_test(tc, test_go_outputs_typed);
    tcase_add_test(tc, test_go_plain_values);
    tcase_add_test(tc, test_go_splat_and_names);
    tcase_add_test(tc, test_unwritten_refused_with_position);
    tcase_add_test(tc, test_yaml_variables_and_interpolation);
    tcase_add_test(tc, test_local_chains_linear);
    tcase_add_test(tc, test_deep_local_chain_reads_output);
    tcase_add_test(tc, test_builtin_functions);
    tcase_add_test(tc, test_builtin_functions_refused);
    tcase_add_test(tc, test_builtin_names_reserved);
    tcase_add_test(tc, test_async_main_outputs);
    tcase_add_test(tc, test_config_default_and_untyped);
    tcase_add_test(tc, test_config_default_go);
    tcase_add_test(tc, test_config_default_go_nested);
    tcase_add_test(tc, test_go_typed_literals_and_escapes);
    tcase_add_test(tc, test_go_union_literals);
    tcase_add_test(tc, test_go_reserved_type_names);
    tcase_add_test(tc, test_go_id_map_local);
    tcase_add_test(tc, test_go_external_enum);
    tcase_add_test(tc, test_go_output_index_read);
    tcase_add_test(tc, test_can_try);
    tcase_add_test(tc, test_builtin_functions_yaml);
    tcase_add_test(tc, test_builtin_functions_go);
    tcase_add_test(tc, test_go_untyped_and_secret_values);
    tcase_add_test(tc, test_go_optional_read_pointer);
    tcase_add_test(tc, test_builtin_functions_cs_java);
    tcase_add_test(tc, test_config_default_cs_java);
    tcase_add_test(tc, test_config_reads_cs_java);
    tcase_add_test(tc, test_held_locals_cs_java);
    tcase_add_test(tc, test_held_reads_whole_only_cs_java);
    tcase_add_test(tc, test_missing_literal_item_refused);
    tcase_add_test(tc, test_entries_value_whole_only_cs_java);
    tcase_add_test(tc, test_division_as_numbers_cs_java);
    tcase_add_test(tc, test_secret_of_nullable_config_java);
    tcase_add_test(tc, test_mixed_list_cs);
    tcase_add_test(tc, test_id_map_cs_java);
    tcase_add_test(tc, test_keyed_outputs_cs_java);
    tcase_add_test(tc, test_bool_in_template_cs);
    tcase_add_test(tc, test_operators_over_outputs_cs_java);
    tcase_add_test(tc, test_null_and_mixed_lists_cs_java);
    tcase_add_test(tc, test_untyped_values_cs_java);
    tcase_add_test(tc, test_config_raw_int_as_number_java);
    tcase_add_test(tc, test_bool_item_in_template_cs);
    tcase_add_test(tc, test_dynamic_values_in_template_cs_java);
    tcase_add_test(tc, test_unknown_parts_in_template_cs_java);
    tcase_add_test(tc, test_dynamic_compare_and_join_cs_java);
    tcase_add_test(tc, test_nested_bool_in_template_cs);
    tcase_add_test(tc, test_collection_compare_cs);
    tcase_add_test(tc, test_map_key_attribute_cs_java_go);
    tcase_add_test(tc, test_number_in_template_cs);
    tcase_add_test(tc, test_collection_in_template_cs_java);
    tcase_add_test(tc, test_string_plus_cs_java);
    tcase_add_test(tc, test_string_arithmetic_refused);
    tcase_add_test(tc, test_compare_collections_and_untyped_ts_py);
    tcase_add_test(tc, test_collection_and_null_in_template_ts_py);
    tcase_add_test(tc, test_double_negation);
    tcase_add_test(tc, test_python_compare_chain_and_mod);
    tcase_add_test(tc, test_for_object_compare_cs);
    tcase_add_test(tc, test_int_overflow_cs_java);
    tcase_add_test(tc, test_to_json_double_java);
    tcase_add_test(tc, test_for_variable_checks_cs_java);
    tcase_add_test(tc, test_entries_of_null_default_cs);
    tcase_add_test(tc, test_int_outputs_in_number_list_java);
    tcase_add_test(tc, test_names_hiding_classes_cs_java);
    tcase_set_timeout(tc, 60); /* javac */
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

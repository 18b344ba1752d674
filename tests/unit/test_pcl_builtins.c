/* test_pcl_builtins.c — the `pulumi` package's built-in resources (issue 18): a stack reference
 * (`pulumi:pulumi:StackReference`, read with getOutput) and Stash (`pulumi:index:Stash`, also
 * spelled `pulumi:Stash`) bind without a schema, as in Pulumi's binder, and TypeScript, Python and
 * Go write them as the SDK's own classes (pulumi.StackReference, pulumi.Stash, pulumi.NewStash),
 * importing nothing more; the other languages refuse them with their position. Also the resource option envVarMappings
 * (a provider's environment variables taken from others), which the SDKs take as a plain map, and
 * recover(output, value), the value (of the failure's message, `error`) when the output fails; and the
 * `pulumi { requiredVersionRange = ... }` block, pulumi.requirePulumiVersion; and a call's expanded
 * final argument, `max(list...)`; and config values converted where the schema wants another scalar
 * type, as Pulumi's generators convert them; and `read` blocks, an existing resource read by its ID.
 * Pulumi YAML writes the built-in resources as resource types, a read as `get:`, the pulumi block as
 * `pulumi: requiredPulumiVersion`. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/schema.h"
#include "testutil.h"

static const char *SCHEMA =
    "{\"name\":\"other\",\"version\":\"1.0.0\",\"resources\":{\"other:index:R\":{\"inputProperties\":{"
    "\"b\":{\"type\":\"boolean\"},\"i\":{\"type\":\"integer\"},\"n\":{\"type\":\"number\"},\"s\":{\"type\":\"string\"},"
    "\"t\":{\"type\":\"string\"}},\"properties\":{\"b\":{\"type\":\"boolean\"}}}}}";

static tu_pcl_t load(const char *pcl) {
    return tu_pcl_load(SCHEMA, "other.json", pcl);
}

static const char *PROGRAM = "resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
                             "resource \"st\" \"pulumi:Stash\" {\n    input = {a = 1}\n}\n"
                             "x = getOutput(ref, \"a\")\n"
                             "output \"t\" {\n    value = \"v-${getOutput(ref, \"b\")}-${x}\"\n}\n"
                             "output \"s\" {\n    value = secret(getOutput(ref, \"c\"))\n}\n"
                             "output \"o\" {\n    value = st.output\n}\n";

START_TEST(test_builtins_typescript) {
    tu_pcl_t f = load(PROGRAM);
    ck_assert_str_eq(f.p->nodes[1].schema->token, "pulumi:index:Stash"); /* `pulumi:Stash` expanded */
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    ck_assert_ptr_null(strstr(ts, "import * as pulumi2"));
    tu_has(ts, "const ref = new pulumi.StackReference(\"ref\", {name: \"org/proj/dev\"});\n");
    tu_has(ts, "const st = new pulumi.Stash(\"st\", {input: {\n    a: 1,\n}});\n");
    tu_has(ts, "const x = ref.getOutput(\"a\");\n");
    /* getOutput's value is an Output: interpolated, not written into a plain template */
    tu_has(ts, "export const t = pulumi.interpolate`v-${ref.getOutput(\"b\")}-${x}`;\n");
    tu_has(ts, "export const s = pulumi.secret(ref.getOutput(\"c\"));\n");
    tu_has(ts, "export const o = st.output;\n");
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

START_TEST(test_builtins_python) {
    tu_pcl_t f = load(PROGRAM);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    ck_assert_ptr_null(strstr(py, "import pulumi_pulumi"));
    tu_has(py, "ref = pulumi.StackReference(\"ref\", stack_name=\"org/proj/dev\")\n");
    tu_has(py, "st = pulumi.Stash(\"st\", input={\n    \"a\": 1,\n})\n");
    tu_has(py, "x = ref.get_output(\"a\")\n");
    tu_has(py, "pulumi.export(\"t\", pulumi.Output.all(value=ref.get_output(\"b\"), x=x).apply(");
    tu_has(py, "pulumi.export(\"s\", pulumi.Output.secret(ref.get_output(\"c\")))\n");
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* Pulumi YAML: the same resource types (pulumi:Stash collapsed as pulumi-yaml writes it), a stack
 * reference's output as `${ref.outputs["name"]}` */
START_TEST(test_builtins_yaml) {
    tu_pcl_t f = load("resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
                      "resource \"st\" \"pulumi:Stash\" {\n    input = {a = 1}\n}\n"
                      "output \"t\" {\n    value = getOutput(ref, \"b\\\"q\")\n}\n"
                      "output \"o\" {\n    value = [st.output, getOutput(ref, \"a\")]\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "resources:\n  ref:\n    type: pulumi:pulumi:StackReference\n    properties:\n      name: org/proj/dev\n"
              "  st:\n    type: pulumi:Stash\n    properties:\n      input:\n        a: 1\n");
    tu_has(y, "outputs:\n  t: ${ref.outputs[\"b\\\"q\"]}\n  o:\n    - ${st.output}\n    - ${ref.outputs[\"a\"]}\n");
    free(y);
    tu_pcl_unload(&f);
    f = load("resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
             "config \"k\" \"string\" {}\noutput \"t\" {\n    value = getOutput(ref, k)\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:6:13",
                        "Pulumi YAML reads a stack reference's output by a literal name");
    tu_pcl_unload(&f);
}
END_TEST

/* Go: the SDK's own pulumi.NewStackReference and pulumi.NewStash; getOutput an AnyOutput
 * (ref.GetOutput(name)), refused where the schema wants a typed value. */
START_TEST(test_builtins_go) {
    tu_pcl_t f = load("resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
                      "resource \"st\" \"pulumi:Stash\" {\n    input = {a = [\"x\", \"y\"]}\n}\n"
                      "output \"a\" {\n    value = getOutput(ref, \"a\")\n}\n"
                      "output \"s\" {\n    value = unsecret(getOutput(ref, \"c\"))\n}\n"
                      "output \"o\" {\n    value = st.output\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "import (\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n");
    tu_has(go, "\t\tref, err := pulumi.NewStackReference(ctx, \"ref\", &pulumi.StackReferenceArgs{\n"
               "\t\t\tName: pulumi.String(\"org/proj/dev\"),\n\t\t})\n");
    tu_has(go, "\t\tst, err := pulumi.NewStash(ctx, \"st\", &pulumi.StashArgs{\n"
               "\t\t\tInput: pulumi.Any(map[string]interface{}{\n\t\t\t\t\"a\": []string{\n");
    tu_has(go, "ctx.Export(\"a\", ref.GetOutput(pulumi.String(\"a\")))\n");
    tu_has(go, "ctx.Export(\"s\", pulumi.Unsecret(ref.GetOutput(pulumi.String(\"c\"))).(pulumi.AnyOutput))\n");
    tu_has(go, "ctx.Export(\"o\", st.Output)\n");
    free(go);
    tu_pcl_unload(&f);
    f = load("resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
             "resource \"r\" \"other:index:R\" {\n    s = getOutput(ref, \"a\")\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:5:9: resource 'r'", "a stack reference's output (of no type)");
    tu_pcl_unload(&f);
    /* element(list, index): by the element helper (the index modulo the list's length, as PCL's
     * element() takes it); over an output in an apply; an index that is not a whole number is refused */
    f = load("config \"xs\" \"list(string)\" {}\nconfig \"f\" \"number\" {}\n"
             "resource \"st\" \"pulumi:Stash\" {\n    input = element(xs, 1)\n}\n"
             "output \"e\" {\n    value = element(xs, 2)\n}\n"
             "output \"u\" {\n    value = element([st.output], 0)\n}\n");
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "Input: pulumi.String(element(xs, 1)),\n");
    tu_has(go, "ctx.Export(\"e\", pulumi.String(element(xs, 2)))\n");
    tu_has(go, "ctx.Export(\"u\", st.Output.ApplyT(func(output interface{}) (interface{}, error) {\n"
               "\t\t\treturn element([]interface{}{\n\t\t\t\toutput,\n\t\t\t}, 0), nil\n");
    free(go);
    tu_pcl_unload(&f);
    f = load("config \"xs\" \"list(string)\" {}\nconfig \"f\" \"number\" {}\n"
             "output \"e\" {\n    value = element(xs, f)\n}\noutput \"h\" {\n    value = element(xs, 1.5)\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:4:13", NULL);
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:7:13", NULL);
    tu_pcl_unload(&f);
    /* entries(map) and lookup(map, key, default) by helpers over a Go map (entries: the keys in order,
     * each a map of key and value, as TypeScript's Object.entries(m).sort()); a value of no type
     * asserted a map first; a default of another type than the map's values is refused */
    f = load("config \"m\" \"map(int)\" {}\nconfig \"u\" {}\n"
             "output \"e\" {\n    value = entries(m)\n}\noutput \"l\" {\n    value = lookup(m, \"k\", 3)\n}\n"
             "output \"n\" {\n    value = [for x in entries(u) : x.key]\n}\n"
             "output \"d\" {\n    value = lookup(u, \"k\", \"d\")\n}\n");
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "import (\n\t\"sort\"\n\n");
    tu_has(go, "func entries[V any](m map[string]V) []interface{} {\n");
    tu_has(go, "\tsort.Strings(keys)\n");
    tu_has(go, "\t\tresult = append(result, map[string]interface{}{\"key\": k, \"value\": m[k]})\n");
    tu_has(go, "func lookup[V any](m map[string]V, key string, def V) V {\n\tif v, ok := m[key]; ok {\n");
    tu_has(go, "ctx.Export(\"e\", pulumi.ToArray(entries(m)))\n");
    tu_has(go, "ctx.Export(\"l\", pulumi.Int(lookup(m, \"k\", 3)))\n");
    tu_has(go, "for _, x := range entries(u.(map[string]interface{})) {\n"
               "\t\t\tforResult0 = append(forResult0, x.(map[string]interface{})[\"key\"])\n");
    tu_has(go, "ctx.Export(\"d\", pulumi.Any(lookup(u.(map[string]interface{}), \"k\", \"d\")))\n");
    free(go);
    tu_pcl_unload(&f);
    f = load("config \"m\" \"map(int)\" {}\noutput \"l\" {\n    value = lookup(m, \"k\", \"x\")\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:13", NULL);
    tu_pcl_unload(&f);
    /* singleOrNone(list): its element or nil (an interface{}: Go has no null string), a panic for
     * more than one, as TypeScript's helper (Pulumi's Go helper returns T and panics for none) */
    f = load("config \"xs\" \"list(string)\" {}\noutput \"s\" {\n    value = [singleOrNone(xs)]\n}\n");
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "func singleOrNone[T any](elements []T) interface{} {\n\tif len(elements) > 1 {\n"
               "\t\tpanic(\"singleOrNone expected input list to have a single element\")\n\t}\n"
               "\tif len(elements) == 0 {\n\t\treturn nil\n\t}\n\treturn elements[0]\n}\n");
    tu_has(go, "ctx.Export(\"s\", pulumi.Array{\n\t\t\tpulumi.Any(singleOrNone(xs)),\n\t\t})\n");
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

/* C# and Java: entries(map) sorted by key, each a map of key and value, and lookup(map, key,
 * default) by the SDK's GetValueOrDefault / getOrDefault, over a config map whose values are of the
 * default's kind; a list's entries, another kind of default, a Java map of numbers (Gson decodes
 * doubles) and a map of outputs stay refused. */
START_TEST(test_entries_lookup_cs_java) {
    tu_pcl_t f =
        load("config \"m\" \"map(string)\" {}\nconfig \"b\" \"map(bool)\" {}\n"
             "output \"e\" {\n    value = entries(m)\n}\noutput \"l\" {\n    value = lookup(m, \"k\", \"d\")\n}\n"
             "output \"lb\" {\n    value = lookup(b, \"k\", true)\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"e\"] = m.OrderBy(kv => kv.Key, Comparer<string>.Create(CompareCodePoints)).Select(kv => new "
               "Dictionary<string, "
               "object?> { [\"key\"] = kv.Key, [\"value\"] = kv.Value }).ToList(),\n");
    tu_has(cs, "[\"l\"] = m.GetValueOrDefault(\"k\", \"d\"),\n");
    tu_has(cs, "[\"lb\"] = b.GetValueOrDefault(\"k\", true),\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import java.util.stream.Collectors;\n");
    tu_has(java, "ctx.export(\"e\", "
                 "m.entrySet().stream().sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing((String _k) -> "
                 "_k.codePoints().toArray(), java.util.Arrays::compare))).map(_kv -> "
                 "Map.of(\"key\", _kv.getKey(), \"value\", _kv.getValue())).collect(Collectors.toList()));\n");
    tu_has(java, "ctx.export(\"l\", m.getOrDefault(\"k\", \"d\"));\n");
    tu_has(java, "ctx.export(\"lb\", b.getOrDefault(\"k\", true));\n");
    free(java);
    tu_pcl_unload(&f);
    f = load("config \"xs\" \"list(string)\" {}\nconfig \"n\" \"map(number)\" {}\nconfig \"m\" \"map(string)\" {}\n"
             "output \"a\" {\n    value = entries(xs)\n}\noutput \"b\" {\n    value = lookup(m, \"k\", 1)\n}\n"
             "output \"c\" {\n    value = lookup(n, \"k\", 1)\n}\n");
    for (int k = 0; k < 2; k++) {
        lang_t lang = k ? LANG_JAVA : LANG_CSHARP;
        tu_pcl_emit_refused(&f, lang, "main.pp:5:13", "calls entries()");
        tu_pcl_emit_refused(&f, lang, "main.pp:8:13", "calls lookup()");
    }
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:11:13", "calls lookup()");
    tu_pcl_unload(&f);
}
END_TEST

START_TEST(test_builtins_refused) {
    /* C# and Java: the SDK's StackReference, its outputs by GetOutput / output */
    tu_pcl_t f = load(PROGRAM);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(
        cs,
        "    var @ref = new Pulumi.StackReference(\"ref\", new()\n    {\n        Name = \"org/proj/dev\",\n    });\n");
    tu_has(cs, "    var x = @ref.GetOutput(\"a\");\n");
    /* an output of no type (an Output<object?>: a bool prints True) printed as PCL prints it */
    tu_has(cs, "[\"t\"] = Output.Format($\"v-{@ref.GetOutput(\"b\").Apply(v => FormatValue(v))}-"
               "{x.Apply(v => FormatValue(v))}\"),\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.resources.StackReference;\nimport com.pulumi.resources.StackReferenceArgs;\n");
    tu_has(java, "        var ref = new StackReference(\"ref\", StackReferenceArgs.builder()\n"
                 "            .name(\"org/proj/dev\")\n            .build());\n");
    /* x2: x is the parameter of the lambdas Java writes; a stack output of no type (Gson's Object: a
     * number a Double) printed as PCL prints it (formatValue: 1, not 1.0) */
    tu_has(java, "ctx.export(\"t\", Output.format(\"v-%s-%s\", ref.output(\"b\").applyValue(v -> formatValue(v)), "
                 "x2.applyValue(v -> formatValue(v))));\n");
    tu_has(java, "ctx.export(\"s\", ref.output(\"c\").asSecret());\n"); /* not Output.ofSecret(an Output) */
    free(java);
    tu_pcl_unload(&f);
    /* getOutput's value has no type: arithmetic converts it to a number first; its first argument
     * must be a stack reference */
    f = load("resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
             "resource \"st\" \"pulumi:index:Stash\" {\n    input = 1\n}\n"
             "output \"n\" {\n    value = getOutput(ref, \"a\") + 1\n}\n"
             "output \"m\" {\n    value = getOutput(st, \"a\")\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:11:13",
                        "calls getOutput() on something other than a pulumi:pulumi:StackReference");
    tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:11:13",
                        "calls getOutput() on something other than a pulumi:pulumi:StackReference");
    tu_pcl_unload(&f);
    f = load("resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
             "output \"n\" {\n    value = getOutput(ref, \"a\") + 1\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const n = ref.getOutput(\"a\").apply(value => Number(value) + 1);\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.export(\"n\", ref.get_output(\"a\").apply(lambda value: float(value) + 1))\n");
    free(py);
    tu_pcl_unload(&f);
    /* try() and can(): Pulumi's Go, .NET and Java generators do not write them; cimport's Go, C# and
     * Java do, each argument a closure its helper runs (test_pcl_meaning, test_pcl_language) */
    f = load("output \"t\" {\n    value = try(\"a\", \"b\")\n}\noutput \"c\" {\n    value = can(\"a\")\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "ctx.Export(\"t\", pulumi.String(try(func() string {\n\t\t\treturn \"a\"\n\t\t}, func() string {\n"
               "\t\t\treturn \"b\"\n\t\t})))\n");
    tu_has(go, "ctx.Export(\"c\", pulumi.Bool(can(func() interface{} {\n\t\t\treturn \"a\"\n\t\t})))\n");
    free(go);
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"t\"] = Try<string>(() => \"a\", () => \"b\"),\n");
    tu_has(cs, "[\"c\"] = Can(() => \"a\"),\n");
    free(cs);
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"t\", App.<String>try_(() -> \"a\", () -> \"b\"));\n");
    tu_has(java, "ctx.export(\"c\", can(() -> \"a\"));\n");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* C# and Java write a Stash as the SDK's own class (Pulumi.Stash, com.pulumi.resources.Stash) with
 * its args, its input of any type as a dictionary or map. */
START_TEST(test_stash_cs_java) {
    tu_pcl_t f = load("resource \"st\" \"pulumi:Stash\" {\n    input = {a = [1, \"x\"]}\n}\n"
                      "output \"o\" {\n    value = st.output\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    ck_assert_ptr_null(strstr(cs, "using Pulumi = "));
    tu_has(cs, "    var st = new Stash(\"st\", new()\n    {\n        Input = new Dictionary<string, object?>\n"
               "        {\n            [\"a\"] = new object?[]\n"); /* [1, "x"]: no best type for new[] */
    tu_has(cs, "[\"o\"] = st.Output,\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.resources.Stash;\nimport com.pulumi.resources.StashArgs;\n");
    tu_has(java, "        var st = new Stash(\"st\", StashArgs.builder()\n            .input(Map.ofEntries(\n"
                 "                Map.entry(\"a\", List.of(\n");
    tu_has(java, "ctx.export(\"o\", st.output());\n");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

START_TEST(test_env_var_mappings) {
    tu_pcl_t f =
        load("resource \"prov\" \"pulumi:providers:other\" {\n    options {\n        envVarMappings = {\n"
             "            \"MY_VAR\" = \"PROVIDER_VAR\"\n            \"OTHER\" = \"TARGET\"\n        }\n    }\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts,
           "const prov = new other.Provider(\"prov\", {}, {\n    envVarMappings: {\n        MY_VAR: \"PROVIDER_VAR\",\n"
           "        OTHER: \"TARGET\",\n    },\n});\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "prov = other.Provider(\"prov\", opts = pulumi.ResourceOptions(env_var_mappings={\n");
    tu_has(py, "\"MY_VAR\": \"PROVIDER_VAR\",\n");
    free(py);
    char *go = tu_pcl_emit_ok(&f, LANG_GO); /* one line, as Pulumi writes it */
    tu_has(go, "_, err := other.NewProvider(ctx, \"prov\", nil, pulumi.EnvVarMappings(map[string]string{\"MY_VAR\": "
               "\"PROVIDER_VAR\", \"OTHER\": \"TARGET\"}))\n");
    free(go);
    tu_pcl_unload(&f);
    /* the SDKs take plain strings */
    f = load("config \"v\" \"string\" {}\nresource \"prov\" \"pulumi:providers:other\" {\n    options {\n"
             "        envVarMappings = {\n            \"MY_VAR\" = v\n        }\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:4:9",
                        "option 'envVarMappings' must be an object of string literals");
    tu_pcl_unload(&f);
}
END_TEST

/* A resource with an output of an object type. */
static const char *OBJECT_SCHEMA =
    "{\"name\":\"obj\",\"version\":\"1.0.0\",\"types\":{\"obj:index:Data\":{\"type\":\"object\","
    "\"properties\":{\"output\":{\"type\":\"string\"}},\"required\":[\"output\"]}},"
    "\"resources\":{\"obj:index:R\":{\"inputProperties\":{},\"properties\":{\"data\":{\"$ref\":"
    "\"#/types/obj:index:Data\"}},\"required\":[\"data\"]}}}";

/* The same schema with the object's property optional (a pointer field in Go). */
static const char *OPTIONAL_OBJECT_SCHEMA =
    "{\"name\":\"obj\",\"version\":\"1.0.0\",\"types\":{\"obj:index:Data\":{\"type\":\"object\","
    "\"properties\":{\"output\":{\"type\":\"string\"}}}},"
    "\"resources\":{\"obj:index:R\":{\"inputProperties\":{},\"properties\":{\"data\":{\"$ref\":"
    "\"#/types/obj:index:Data\"}},\"required\":[\"data\"]}}}";

/* Go: entries() and lookup() of an object of the schema's type (l2-builtin-object). The SDK holds it
 * in a struct, whose fields cannot be listed or read by a key at run time, but the schema names
 * them: entries() lists the required fields by key, lookup() by a literal key reads the field it
 * names or gives the default for a key the type does not have. Before, both were refused (Pulumi's
 * Go generator writes neither). What the schema cannot answer is still refused: an optional field
 * (unset, it is no entry), a key that is not a literal. */
START_TEST(test_go_entries_lookup_object) {
    tu_pcl_t f = tu_pcl_load(OBJECT_SCHEMA, "obj.json",
                             "resource \"res\" \"obj:index:R\" {\n}\n"
                             "output \"e\" {\n    value = entries(res.data)\n}\n"
                             "output \"l\" {\n    value = lookup(res.data, \"output\", \"d\")\n}\n"
                             "output \"m\" {\n    value = lookup(res.data, \"missing\", \"d\")\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "ctx.Export(\"e\", res.Data.ApplyT(func(data obj.Data) ([]interface{}, error) {\n"
               "\t\t\treturn []interface{}{map[string]interface{}{\"key\": \"output\", \"value\": data.Output}}, nil\n"
               "\t\t}).(pulumi.ArrayOutput))\n");
    tu_has(go, "ctx.Export(\"l\", res.Data.ApplyT(func(data obj.Data) (string, error) {\n"
               "\t\t\treturn data.Output, nil\n");
    tu_has(go, "ctx.Export(\"m\", res.Data.ApplyT(func(data obj.Data) (string, error) {\n"
               "\t\t\treturn \"d\", nil\n");
    free(go);
    tu_pcl_unload(&f);
    f = tu_pcl_load(OPTIONAL_OBJECT_SCHEMA, "obj.json",
                    "config \"k\" \"string\" {}\n"
                    "resource \"res\" \"obj:index:R\" {\n}\n"
                    "output \"e\" {\n    value = entries(res.data)\n}\n"
                    "output \"l\" {\n    value = lookup(res.data, \"output\", \"d\")\n}\n"
                    "output \"k\" {\n    value = lookup(res.data, k, \"d\")\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:5:13: output 'e'",
                        "calls entries() on 'res.data', an object of the schema's type obj:index:Data, which Go "
                        "holds in a struct: cimport lists its fields by the schema, and 'output' is optional (unset, "
                        "it is no entry)");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:8:13: output 'l'",
                        "calls lookup() on 'res.data', an object of the schema's type obj:index:Data, which Go holds "
                        "in a struct: cimport reads a field the schema names, and 'output' is optional");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:11:13: output 'k'", "the key is not a literal string");
    tu_pcl_unload(&f);
}
END_TEST

/* C# and Java: the same, as Go writes it (test_go_entries_lookup_object): the class's properties (Java:
 * its output class's getters) are the schema's, listed or read in the apply of the output. */
START_TEST(test_cs_entries_lookup_object) {
    tu_pcl_t f = tu_pcl_load(OBJECT_SCHEMA, "obj.json",
                             "resource \"res\" \"obj:index:R\" {\n}\n"
                             "output \"e\" {\n    value = entries(res.data)\n}\n"
                             "output \"l\" {\n    value = lookup(res.data, \"output\", \"d\")\n}\n"
                             "output \"m\" {\n    value = lookup(res.data, \"missing\", \"d\")\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "[\"e\"] = res.Data.Apply(v => new List<Dictionary<string, object?>> { new Dictionary<string, "
               "object?> { [\"key\"] = \"output\", [\"value\"] = v.Output } }),\n");
    tu_has(cs, "[\"l\"] = res.Data.Apply(v => v.Output),\n");
    tu_has(cs, "[\"m\"] = res.Data.Apply(v => \"d\"),\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "ctx.export(\"e\", res.data().applyValue(_v -> List.of(Map.of(\"key\", \"output\", \"value\", "
                 "_v.output()))));\n");
    tu_has(java, "ctx.export(\"l\", res.data().applyValue(_v -> _v.output()));\n");
    tu_has(java, "ctx.export(\"m\", res.data().applyValue(_v -> \"d\"));\n");
    free(java);
    tu_pcl_unload(&f);
    f = tu_pcl_load(OPTIONAL_OBJECT_SCHEMA, "obj.json",
                    "resource \"res\" \"obj:index:R\" {\n}\n"
                    "output \"e\" {\n    value = entries(res.data)\n}\n"
                    "output \"l\" {\n    value = lookup(res.data, \"output\", \"d\")\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:4:13: output 'e'",
                        "which Pulumi .NET holds in a class: cimport lists its fields by the schema, and 'output' is "
                        "optional (unset, it is no entry)");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:7:13: output 'l'", "and 'output' is optional");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:4:13: output 'e'",
                        "which Pulumi Java holds in a class: cimport lists its fields by the schema, and 'output' is "
                        "optional (unset, it is no entry)");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:7:13: output 'l'", "and 'output' is optional");
    tu_pcl_unload(&f);
}
END_TEST

START_TEST(test_recover) {
    tu_pcl_t f = load("resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
                      "output \"r\" {\n    value = recover(ref.name, \"failed: ${error}\")\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts,
           "export const r = pulumi.recover(ref.name, err => ((error) => `failed: ${error}`)(err instanceof Error ? "
           "err.message : String(err)));\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(
        py,
        "pulumi.export(\"r\", ref.name.recover(lambda __error: (lambda error: f\"failed: {error}\")(str(__error))))\n");
    free(py);
    /* Go, C# and Java: refused naming why (Pulumi's own generators write it for TypeScript and
     * Python only, pulumi/pulumi#23881) */
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:5:13",
                        "calls the function recover(), which Pulumi's own Go program generator does not write either "
                        "(pulumi/pulumi#23881 added recover() to PCL with code generation for TypeScript");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:5:13", "Pulumi's own C# program generator does not write either");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:13", "Pulumi's own Java program generator does not write either");
    /* refused, recover() still scopes `error` in its value: no second error that `error` is undeclared */
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(emit_program(f.p, LANG_GO, &d));
    for (diag_t *x = d.head; x; x = x->next)
        ck_assert_msg(!strstr(diag_format(&d, x), "refers to 'error'"), "%s", diag_format(&d, x));
    diag_list_free(&d);
    tu_pcl_unload(&f);
    /* what recovers is an output; the value it recovers with is plain */
    f = load("resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
             "output \"a\" {\n    value = recover(\"x\", error)\n}\n"
             "output \"b\" {\n    value = recover(ref.name, ref.name)\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:5:13", "calls recover() on a value that is not an output");
    tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:8:13", "or recovers with one");
    tu_pcl_unload(&f);
}
END_TEST

/* PCL's functions with no Pulumi YAML built-in (error handling, arithmetic, map reads, ranges) are
 * refused as what they are, a limit of the language, with their position (max() and min() over
 * literals are written as their value: test_pcl_yaml_meaning). */
START_TEST(test_yaml_functions_refused) {
    tu_pcl_t f = load("config \"m\" \"map(string)\" {}\nconfig \"xs\" \"list(int)\" {}\n"
                      "output \"a\" {\n    value = can(m.k)\n}\n"
                      "output \"b\" {\n    value = try(m.k, \"d\")\n}\n"
                      "output \"c\" {\n    value = entries(m)\n}\n"
                      "output \"d\" {\n    value = lookup(m, \"k\", \"d\")\n}\n"
                      "output \"e\" {\n    value = max(xs[0], 2)\n}\n"
                      "output \"f\" {\n    value = min(xs...)\n}\n");
    static const struct {
        const char *at, *fn;
    } refused[] = {{"main.pp:4:13", "can()"},     {"main.pp:7:13", "try()"},  {"main.pp:10:13", "entries()"},
                   {"main.pp:13:13", "lookup()"}, {"main.pp:16:13", "max()"}, {"main.pp:19:13", "min()"}};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char want[160];
        snprintf(want, sizeof want, "calls the function %s; Pulumi YAML has no such function", refused[i].fn);
        tu_pcl_emit_refused(&f, LANG_YAML, refused[i].at, want);
    }
    tu_pcl_unload(&f);
    f = load("resource \"ref\" \"pulumi:pulumi:StackReference\" {\n    name = \"org/proj/dev\"\n}\n"
             "output \"r\" {\n    value = recover(ref.name, \"failed\")\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:5:13",
                        "calls the function recover(); Pulumi YAML has no such function");
    tu_pcl_unload(&f);
}
END_TEST

/* A template with a function call among its parts: Pulumi YAML interpolates property reads only, so
 * the string is fn::join of its parts with "" (pulumi-yaml's generator writes the same), each run of
 * text and references one interpolated string; stack() stays interpolated. A stack reference's
 * output has no known type: pulumi-yaml would print a number in it as Go does (1e+06), so it is
 * refused in a template (read10b F5). A part of another type than string is refused (fn::join joins
 * strings). */
START_TEST(test_yaml_template_join) {
    tu_pcl_t f = load(PROGRAM);
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:9:18",
                        "interpolates 'getOutput(ref, \"b\")', a value of no known type");
    tu_pcl_unload(&f);
    f = load("config \"l\" \"list(string)\" {}\nconfig \"s\" \"string\" {}\n"
             "output \"a\" {\n    value = \"x-${toJSON(l)}-${s}/${stack()}$${lit}\"\n}\n"
             "output \"b\" {\n    value = [\"${toBase64(s)}\"]\n}\n"
             "output \"c\" {\n    value = \"n=${length(l)}\"\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    /* a number in a template is fn::toJSON of it (Go's %v would print 1e+06) */
    tu_has(y, "  c:\n    fn::join:\n      - \"\"\n      -\n        - n=\n        - fn::toJSON:\n"
              "            fn::length: ${l}\n");
    tu_has(y, "outputs:\n  a:\n    fn::join:\n      - \"\"\n      -\n        - x-\n        - fn::toJSON: ${l}\n"
              "        - \"-${s}/${pulumi.stack}$${lit}\"\n");
    tu_has(y, "  b:\n    - fn::toBase64: ${s}\n"); /* a string alone: no join */
    free(y);
    tu_pcl_unload(&f);
}
END_TEST

/* A read below a function's result, a list or an object (`split(",", s)[0]`): Pulumi YAML reads
 * properties of names only, so the value is held by a variable of its own and read through it, as
 * an invoke read deeper than one attribute already is. A computed index stays refused. */
START_TEST(test_yaml_read_below_expression) {
    tu_pcl_t f = load("config \"s\" \"string\" {}\nconfig \"i\" \"int\" {}\n"
                      "output \"a\" {\n    value = split(\",\", s)[0]\n}\n"
                      "output \"b\" {\n    value = secret({k = s}).k\n}\n"
                      "output \"c\" {\n    value = [\"p\", s][1]\n}\n"
                      "output \"d\" {\n    value = \"x-${split(\",\", s)[1]}\"\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "variables:\n  splitResult:\n    fn::split:\n      - \",\"\n      - ${s}\n"
              "  secretResult:\n    fn::secret:\n      k: ${s}\n  listValue:\n    - p\n    - ${s}\n"
              "  splitResult2:\n    fn::split:\n      - \",\"\n      - ${s}\n");
    tu_has(y, "outputs:\n  a: ${splitResult[0]}\n  b: ${secretResult.k}\n  c: ${listValue[1]}\n"
              "  d: x-${splitResult2[1]}\n");
    free(y);
    tu_pcl_unload(&f);
    /* a list read at a computed index is fn::select [index, list]; a map read by a computed key is
     * refused (Pulumi YAML reads a map by a literal key only) */
    f = load("config \"s\" \"string\" {}\nconfig \"i\" \"int\" {}\nconfig \"l\" \"list(string)\" {}\n"
             "output \"a\" {\n    value = split(\",\", s)[i]\n}\n"
             "output \"b\" {\n    value = l[i]\n}\n"
             "output \"d\" {\n    value = [{k = s}][i].k\n}\n");
    y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "variables:\n  selectResult:\n    fn::select:\n      - ${i}\n      -\n        - k: ${s}\n");
    tu_has(y, "  d: ${selectResult.k}\n");
    tu_has(y, "outputs:\n  a:\n    fn::select:\n      - ${i}\n      - fn::split:\n          - \",\"\n          - ${s}\n"
              "  b:\n    fn::select:\n      - ${i}\n      - ${l}\n");
    free(y);
    tu_pcl_unload(&f);
    f = load("config \"s\" \"string\" {}\nconfig \"m\" \"map(string)\" {}\n"
             "output \"a\" {\n    value = m[s]\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:4:14", "an index on an expression");
    tu_pcl_unload(&f);
}
END_TEST

/* Pulumi YAML has no conversion from a string to a number or a boolean (its type checker refuses a
 * string there: pulumi-yaml #1073), so those are refused as a limit of the language. A config number,
 * integer or boolean where a string is wanted is PCL's text of it, as "${num}" is: fn::toJSON of it
 * (Go's json.Marshal writes a float64 as JavaScript's String does; Pulumi YAML's type checker lets the
 * bare number through to a string, but would send the number). It was refused as not written yet. */
START_TEST(test_yaml_string_conversions_refused) {
    tu_pcl_t f = load("config \"str\" \"string\" {}\nconfig \"num\" \"number\" {}\n"
                      "resource \"r0\" \"other:index:R\" {}\n"
                      "resource \"r\" \"other:index:R\" {\n    b = str\n    i = r0.id\n    s = num\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:5:9: resource 'r'",
                        "'b' passes the config value 'str' (string) where the schema wants a boolean; Pulumi YAML "
                        "has no conversion from a string");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:6:9: resource 'r'",
                        "'i' gives a string where the schema wants a number; Pulumi YAML has no conversion from a "
                        "string");
    tu_pcl_unload(&f);
    f = load("config \"num\" \"number\" {}\nconfig \"n\" \"int\" {}\nconfig \"flag\" \"bool\" {}\n"
             "resource \"r\" \"other:index:R\" {\n    s = num\n}\n"
             "resource \"q\" \"other:index:R\" {\n    s = n\n}\n"
             "resource \"p\" \"other:index:R\" {\n    s = flag\n}\n");
    char *yaml = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(yaml, "  r:\n    type: other:R\n    properties:\n      s:\n        fn::toJSON: ${num}\n");
    tu_has(yaml, "  q:\n    type: other:R\n    properties:\n      s:\n        fn::toJSON: ${n}\n");
    tu_has(yaml, "  p:\n    type: other:R\n    properties:\n      s:\n        fn::toJSON: ${flag}\n");
    free(yaml);
    tu_pcl_unload(&f);
    /* a number where a boolean is wanted: no language writes it; the message names the type */
    f = load("config \"num\" \"number\" {}\nresource \"r\" \"other:index:R\" {\n    b = num\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:3:9",
                        "'b' passes the config value 'num' (number) where the schema wants a boolean; cimport does "
                        "not write the conversion yet");
    tu_pcl_unload(&f);
}
END_TEST

/* Pulumi YAML's config type for a map, an object or a value of no type is `object`, as
 * pulumi-yaml's generator writes it (its conformance project l1-proxy-index: `type: object` for
 * object({property=string}) and an untyped config) and its docs list it; lists are list<T>. */
START_TEST(test_yaml_config_types) {
    tu_pcl_t f = load("config \"m\" \"map(string)\" {}\nconfig \"o\" \"object({a=string})\" {}\n"
                      "config \"u\" {}\nconfig \"l\" \"list(int)\" {}\nconfig \"b\" \"bool\" {}\n"
                      "output \"x\" {\n    value = [m, o, u, l, b]\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "configuration:\n  m:\n    type: object\n  o:\n    type: object\n  u:\n    type: object\n"
              "  l:\n    type: list<int>\n  b:\n    type: boolean\n");
    free(y);
    tu_pcl_unload(&f);
}
END_TEST

START_TEST(test_pulumi_block) {
    tu_pcl_t f = load("config \"v\" \"string\" {}\npulumi {\n    requiredVersionRange = v\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "const v = config.require(\"v\");\npulumi.requirePulumiVersion(v);\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "v = config.require(\"v\")\npulumi.require_pulumi_version(v)\n");
    free(py);
    char *pcl = pcl_print(f.p);
    tu_has(pcl, "pulumi {\n    requiredVersionRange = v\n}\n");
    free(pcl);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tv := cfg.Require(\"v\")\n\t\tif err := ctx.RequirePulumiVersion(v); err != nil {\n"
               "\t\t\treturn err\n\t\t}\n");
    free(go);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "    var v = config.Require(\"v\");\n\n    Deployment.RequirePulumiVersionAsync(v).Wait();\n");
    free(cs);
    /* Java: pulumi-java's Deployment.requirePulumiVersion (pulumi-java #1979), as its own generator
     * writes it */
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.deployment.Deployment;\n");
    tu_has(java, "        final var v2 = ctx.config().require(\"v\");\n\n"
                 "        Deployment.getInstance().requirePulumiVersion(v2);\n");
    free(java);
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "configuration:\n  v:\n    type: string\npulumi:\n  requiredPulumiVersion: ${v}\n");
    free(y);
    tu_pcl_unload(&f);
    f = load("config \"v\" \"string\" {\n    secret = true\n}\npulumi {\n    requiredVersionRange = v\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:5:5", "requiredVersionRange reads an output");
    tu_pcl_unload(&f);
    tu_pcl_parse_fails(
        "pulumi {\n    requiredVersionRange = \">=3\"\n}\npulumi {\n    requiredVersionRange = \">=3\"\n}\n",
        "main.pp:4:1: a program has one pulumi block");
    tu_pcl_parse_fails("pulumi {\n    version = \">=3\"\n}\n",
                       "main.pp:1:1: the pulumi block needs exactly one attribute");
}
END_TEST

START_TEST(test_expand_final) {
    tu_pcl_t f = load("config \"xs\" \"list(int)\" {}\noutput \"m\" {\n    value = max(1, xs...)\n}\n"
                      "output \"n\" {\n    value = min([3, 4]...)\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export const m = Math.max(1, ...xs);\n");
    tu_has(ts, "export const n = Math.min(...[\n    3,\n    4,\n]);\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.export(\"m\", max(1, *xs))\n");
    tu_has(py, "pulumi.export(\"n\", min(*[\n    3,\n    4,\n]))\n");
    free(py);
    char *pcl = pcl_print(f.p);
    tu_has(pcl, "value = max(1, xs...)\n");
    free(pcl);
    /* Go: a list alone expanded is slices.Max/Min of it; with other arguments before it, refused */
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:13", "the Go type of a function call is not known");
    tu_pcl_unload(&f);
    f = load("config \"xs\" \"list(int)\" {}\noutput \"m\" {\n    value = max(xs...)\n}\n"
             "output \"n\" {\n    value = min([3, 4.5]...)\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\"slices\"\n");
    tu_has(go, "ctx.Export(\"m\", pulumi.Int(slices.Max(xs)))\n");
    tu_has(go, "ctx.Export(\"n\", pulumi.Float64(slices.Min([]float64{\n\t\t\t3,\n\t\t\t4.5,\n\t\t})))\n");
    free(go);
    tu_pcl_unload(&f);
    /* C# and Java: of two numbers Math.Max/Math.max, of one list expanded Enumerable.Max /
     * Collections.max; other arguments are refused */
    f = load("config \"a\" \"number\" {}\nconfig \"xs\" \"list(int)\" {}\n"
             "output \"m\" {\n    value = max(a, 2)\n}\noutput \"n\" {\n    value = min(xs...)\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "using System;\n");
    tu_has(cs, "        [\"m\"] = Math.Max(a, 2),\n        [\"n\"] = Enumerable.Min(xs),\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import java.util.Collections;\n");
    tu_has(java, "        ctx.export(\"m\", Math.max(a, 2));\n        ctx.export(\"n\", Collections.min(xs));\n");
    free(java);
    tu_pcl_unload(&f);
    f = load("config \"a\" \"number\" {}\noutput \"m\" {\n    value = max(a, 2, 3)\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:13", "with other arguments than two numbers or one list expanded");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:13", "with other arguments than two numbers or one list expanded");
    tu_pcl_unload(&f);
    f = load("config \"xs\" \"list(string)\" {}\noutput \"j\" {\n    value = join(\",\", xs...)\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:3:13", "expands the final argument of join()");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:3:13", "expands the final argument of join()");
    tu_pcl_unload(&f);
    tu_pcl_parse_fails("output \"o\" {\n    value = max([1]..., 2)\n}\n",
                       "main.pp:2:23: expected ')' after the expanded final");
}
END_TEST

START_TEST(test_config_conversions) {
    tu_pcl_t f = load(
        "config \"str\" \"string\" {}\nconfig \"num\" \"number\" {}\nconfig \"int\" \"int\" {}\n"
        "config \"flag\" \"bool\" {}\nconfig \"sec\" \"string\" {\n    secret = true\n}\n"
        "resource \"r\" \"other:index:R\" {\n    b = str\n    i = sec\n    n = int\n    s = num\n    t = flag\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "    b: str === \"true\",\n    i: sec.apply(x => Number(x)),\n    n: int,\n    s: String(num),\n"
               "    t: String(flag),\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    /* configs named str and int are str_1 and int_1: int(x) still calls Python's own; a number to a
     * string prints as PCL prints it (str(2.0) is 2.0) */
    tu_has(py, "str_1 = config.require(\"str\")\n");
    tu_has(
        py,
        "    b=str_1 == \"true\",\n    i=sec.apply(lambda x: int(x)),\n    n=float(int_1),\n    s=format_value(num),\n"
        "    t=\"true\" if flag else \"false\")\n");
    free(py);
    /* Go: strconv (a string to a number in an apply, whose error fails the update), float64(), a
     * number as PCL prints it (formatNumber), a secret's conversion in an apply of it */
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\"strconv\"\n");
    tu_has(go, "\t\t\tB: pulumi.Bool(str == \"true\"),\n"
               "\t\t\tI: sec.ApplyT(func(v string) (int, error) { return strconv.Atoi(v) }).(pulumi.IntOutput),\n"
               "\t\t\tN: pulumi.Float64(float64(_int)),\n"
               "\t\t\tS: pulumi.String(formatNumber(num)),\n"
               "\t\t\tT: pulumi.String(strconv.FormatBool(flag)),\n");
    free(go);
    /* C#: as Pulumi's .NET generator converts them (invariant culture), a secret one in an apply; a
     * number as PCL prints it (FormatValue) */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        B = str == \"true\",\n"
               "        I = sec.Apply(x => int.Parse(x, System.Globalization.CultureInfo.InvariantCulture)),\n"
               "        N = (double)@int,\n"
               "        S = FormatValue(num),\n"
               "        T = flag ? \"true\" : \"false\",\n");
    free(cs);
    /* Java: as PCL converts them (a number's text by formatValue: 3 not 3.0, as the other languages
     * write it), a secret one in an apply; an int config value (requireInteger's primitive int, which
     * has no doubleValue()) cast to double */
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "            .b(str.equals(\"true\"))\n"
                 "            .i(sec.applyValue(x -> Integer.parseInt(x)))\n"
                 "            .n((double) int_)\n"
                 "            .s(formatValue(num))\n"
                 "            .t(String.valueOf(flag))\n");
    free(java);
    tu_pcl_unload(&f);
    f = load("config \"str\" \"string\" {}\nconfig \"flag\" \"bool\" {\n    secret = true\n}\n"
             "config \"int\" \"int\" {}\n"
             "resource \"r\" \"other:index:R\" {\n    i = str\n    n = str\n    s = int\n    t = flag\n}\n");
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\t\tI: pulumi.String(str).ToStringOutput().ApplyT(func(v string) (int, error) { return "
               "strconv.Atoi(v) }).(pulumi.IntOutput),\n"
               "\t\t\tN: pulumi.String(str).ToStringOutput().ApplyT(func(v string) (float64, error) { return "
               "strconv.ParseFloat(v, 64) }).(pulumi.Float64Output),\n"
               "\t\t\tS: pulumi.String(strconv.Itoa(_int)),\n"
               "\t\t\tT: flag.ApplyT(func(v bool) (string, error) { return strconv.FormatBool(v), nil "
               "}).(pulumi.StringOutput),\n");
    free(go);
    tu_pcl_unload(&f);
    /* PCL converts no number to a bool, nor a bool to a number */
    f = load("config \"num\" \"number\" {}\nconfig \"flag\" \"bool\" {}\n"
             "resource \"r\" \"other:index:R\" {\n    b = num\n    n = flag\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:4:9", "passes the config value 'num' (number)");
    tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:5:9", "passes the config value 'flag' (bool)");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:4:9", "passes the config value 'num' (number)");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:4:9", "passes the config value 'num' (number)");
    tu_pcl_unload(&f);
}
END_TEST

START_TEST(test_read_block) {
    tu_pcl_t f =
        load("read \"res\" \"other:index:R\" {\n    id = \"existing-id\"\n    b = true\n}\n"
             "read \"bare\" \"other:index:R\" {\n    id = \"id2\"\n    options {\n        protect = true\n    }\n}\n"
             "output \"o\" {\n    value = res.b\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "const res = other.R.get(\"res\", \"existing-id\", {b: true});\n");
    tu_has(ts, "const bare = other.R.get(\"bare\", \"id2\", undefined, {\n    protect: true,\n});\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "res = other.R.get(\"res\", \"existing-id\", b=True)\n");
    tu_has(py, "bare = other.R.get(\"bare\", \"id2\", opts = pulumi.ResourceOptions(protect=True))\n");
    free(py);
    char *pcl = pcl_print(f.p);
    tu_has(pcl, "read res \"other:index:R\" {\n    id = \"existing-id\"\n");
    free(pcl);
    /* Go: Get<Type>(ctx, name, pulumi.ID(id), state or nil, options) */
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tres, err := other.GetR(ctx, \"res\", pulumi.ID(\"existing-id\"), &other.RState{\n"
               "\t\t\tB: pulumi.Bool(true),\n\t\t})\n");
    tu_has(go, "\t\t_, err = other.GetR(ctx, \"bare\", pulumi.ID(\"id2\"), nil, pulumi.Protect(true))\n");
    free(go);
    char *y = tu_pcl_emit_ok(&f, LANG_YAML); /* a resource's `get: {id, state}` */
    tu_has(y, "resources:\n  res:\n    type: other:R\n    get:\n      id: existing-id\n      state:\n        b: true\n"
              "  bare:\n    type: other:R\n    get:\n      id: id2\n    options:\n      protect: true\n");
    free(y);
    /* C#: the class's Get(name, id, state, options), its options named without a state (a resource
     * without state inputs has no state parameter) */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "    var res = Other.R.Get(\"res\", \"existing-id\", new()\n    {\n        B = true,\n    });\n");
    tu_has(cs, "    var bare = Other.R.Get(\"bare\", \"id2\", options: new CustomResourceOptions\n    {\n"
               "        Protect = true,\n    });\n");
    free(cs);
    /* Java: get(name, Output<String> id, state, options), which has a state parameter only when the
     * resource has state inputs: a read without state attributes is refused */
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:1: resource 'bare'", "the Java emitter cannot write read blocks");
    tu_pcl_unload(&f);
    f = load("read \"res\" \"other:index:R\" {\n    id = \"existing-id\"\n    b = true\n    options {\n"
             "        protect = true\n    }\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.other.R;\nimport com.pulumi.other.inputs.RState;\n");
    tu_has(java, "        var res = R.get(\"res\", Output.of(\"existing-id\"), RState.builder()\n            .b(true)\n"
                 "            .build(), CustomResourceOptions.builder()\n                .protect(true)\n"
                 "                .build());\n");
    free(java);
    tu_pcl_unload(&f);
    tu_pcl_parse_fails("read \"r\" \"other:index:R\" {\n    b = true\n}\n",
                       "main.pp:1:1: read 'r' has no id attribute");
}
END_TEST

/* Pulumi YAML: a program of no sections is the empty mapping (an empty file is no YAML document); a
 * config value's literal default is its `default:`, one computed from the program is refused */
START_TEST(test_yaml_empty_program) {
    tu_pcl_t f = load("");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    ck_assert_str_eq(y, "{}\n");
    free(y);
    tu_pcl_unload(&f);
    f = load("config \"names\" \"list(string)\" {\n    default = [\"a\", \"b\"]\n}\n"
             "config \"num\" \"int\" {\n    default = 3\n}\n");
    y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "configuration:\n  names:\n    type: list<string>\n    default:\n      - a\n      - b\n"
              "  num:\n    type: int\n    default: 3\n");
    free(y);
    tu_pcl_unload(&f);
    f = load("config \"a\" \"string\" {}\nconfig \"b\" \"string\" {\n    default = a\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:3:5: config 'b'", "Pulumi YAML's config default is a literal value");
    tu_pcl_unload(&f);
    /* the language host types a list default by its elements: nulls have no type */
    f = load("config \"names\" \"list(optional(string))\" {\n    default = [null, \"a\"]\n}\n");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:2:5: config 'names'",
                        "Pulumi YAML types a config default by its elements");
    /* C#: a string[] (its items may be null), as Pulumi's .NET generator writes it */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "    var names = config.GetObject<string[]>(\"names\") ?? new[]\n    {\n        null,\n        \"a\",\n "
               "   };\n");
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pcl_builtins");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_builtins_typescript);
    tcase_add_test(tc, test_builtins_python);
    tcase_add_test(tc, test_builtins_yaml);
    tcase_add_test(tc, test_builtins_refused);
    tcase_add_test(tc, test_stash_cs_java);
    tcase_add_test(tc, test_builtins_go);
    tcase_add_test(tc, test_entries_lookup_cs_java);
    tcase_add_test(tc, test_env_var_mappings);
    tcase_add_test(tc, test_recover);
    tcase_add_test(tc, test_go_entries_lookup_object);
    tcase_add_test(tc, test_cs_entries_lookup_object);
    tcase_add_test(tc, test_yaml_functions_refused);
    tcase_add_test(tc, test_yaml_template_join);
    tcase_add_test(tc, test_yaml_read_below_expression);
    tcase_add_test(tc, test_yaml_string_conversions_refused);
    tcase_add_test(tc, test_yaml_config_types);
    tcase_add_test(tc, test_pulumi_block);
    tcase_add_test(tc, test_expand_final);
    tcase_add_test(tc, test_config_conversions);
    tcase_add_test(tc, test_read_block);
    tcase_add_test(tc, test_yaml_empty_program);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

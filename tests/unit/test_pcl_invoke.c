/* test_pcl_invoke.c — invokes and resource method calls in PCL (issue 18): `invoke(token, {args},
 * {options})` and `call(resource, "method", {args})` bound to the schema's functions (arguments
 * typed from the inputs, the result from the outputs), written by TypeScript and Python as Pulumi's
 * generators write them (the output version of the function, attributes of the result read
 * lifted), refused with their position by the emitters that cannot write them, and binding
 * errors (unknown function, argument, option, method) naming their position. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/schema.h"
#include "testutil.h"

/* A resource with a method, and functions: an object return, a scalar return, multi-argument
 * inputs, one in a module. */
static const char *SCHEMA =
    "{\"name\":\"inv\",\"version\":\"1.0.0\",\"resources\":{\"inv:index:Res\":{"
    "\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"],"
    "\"inputProperties\":{\"text\":{\"type\":\"string\"},\"flag\":{\"type\":\"boolean\"}},"
    "\"methods\":{\"greet\":\"inv:index:Res/greet\"}}},"
    "\"functions\":{"
    "\"inv:index:getThing\":{\"inputs\":{\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]},"
    "\"outputs\":{\"properties\":{\"value\":{\"type\":\"string\"},\"secret\":{\"type\":\"boolean\"},"
    "\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},\"required\":[\"value\",\"secret\",\"items\"]}},"
    "\"inv:index:answer\":{\"inputs\":{\"properties\":{}},\"outputs\":{\"type\":\"number\"}},"
    "\"inv:index:pair\":{\"inputs\":{\"properties\":{\"first\":{\"type\":\"string\"},\"second\":{\"type\":\"string\"}},"
    "\"required\":[\"first\"]},\"multiArgumentInputs\":[\"first\",\"second\"],"
    "\"outputs\":{\"properties\":{\"result\":{\"type\":\"string\"}}}},"
    "\"inv:things:lookUp\":{\"inputs\":{\"properties\":{}},\"outputs\":{\"properties\":{\"id\":{\"type\":\"string\"}}}}"
    ","
    "\"inv:index:Res/greet\":{\"inputs\":{\"properties\":{\"__self__\":{\"$ref\":\"#/resources/inv:index:Res\"},"
    "\"prefix\":{\"type\":\"string\"}},\"required\":[\"__self__\"]},"
    "\"outputs\":{\"properties\":{\"result\":{\"type\":\"string\"}}}}}}";

static tu_pcl_t load(const char *pcl) {
    return tu_pcl_load(SCHEMA, "inv.json", pcl);
}

/* Binding must fail with an error containing the needle. */
static void bind_refused(const char *pcl, const char *needle) {
    tu_pcl_bind_refused(SCHEMA, "inv.json", pcl, needle);
}

/* The binder types the arguments from the inputs and the call and the attributes read from it
 * from the outputs. */
START_TEST(test_bind_types) {
    tu_pcl_t f = load("output \"o\" {\n    value = invoke(\"inv:index:getThing\", {name = \"a\"}).items\n}\n"
                      "output \"n\" {\n    value = invoke(\"inv:answer\", {})\n}\n");
    const pcl_expr_t *get = f.p->nodes[0].attrs[0].value;
    ck_assert_int_eq(get->kind, PCL_GETATTR);
    ck_assert_int_eq(get->type->kind, SCHEMA_ARRAY);
    const pcl_expr_t *call = get->x;
    ck_assert_str_eq(call->function->token, "inv:index:getThing");
    ck_assert_str_eq(call->package->name, "inv");
    ck_assert_int_eq(call->type->kind, SCHEMA_OBJECT);
    ck_assert_str_eq(call->call.args[1]->object.items[0].prop->name, "name");
    ck_assert_int_eq(call->call.args[1]->object.items[0].value->type->kind, SCHEMA_STRING);
    /* `pkg:fn` is the index module's function; a scalar return types the call itself */
    const pcl_expr_t *ans = f.p->nodes[1].attrs[0].value;
    ck_assert_str_eq(ans->function->token, "inv:index:answer");
    ck_assert_int_eq(ans->type->kind, SCHEMA_NUMBER);
    tu_pcl_unload(&f);
}
END_TEST

/* Tokens spelled by module as moduleFormat gives it (`mf:mod:Res` is `mf:mod_Res:Res`) or without
 * the index module (`inv:Res`) bind to the schema's token, which the emitters read modules from. */
START_TEST(test_bind_short_tokens) {
    static const char *mf =
        "{\"name\":\"mf\",\"meta\":{\"moduleFormat\":\"(.*)(?:_[^_]*)\"},"
        "\"resources\":{\"mf:mod_Res:Res\":{\"inputProperties\":{\"text\":{\"type\":\"string\"}}}},"
        "\"functions\":{\"mf:mod_get:get\":{\"outputs\":{\"properties\":{\"x\":{\"type\":\"string\"}}}}}}";
    tu_pcl_t f =
        tu_pcl_load(mf, "mf.json", "resource \"r\" \"mf:mod:Res\" {\n    text = invoke(\"mf:mod:get\", {}).x\n}\n");
    ck_assert_str_eq(f.p->nodes[0].token, "mf:mod_Res:Res");
    ck_assert_str_eq(f.p->nodes[0].attrs[0].value->x->function->token, "mf:mod_get:get");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "const r = new mf.mod.Res(\"r\", {text: mf.mod.getOutput({}).x});");
    free(ts);
    tu_pcl_unload(&f);
    tu_pcl_t g = load("resource \"r\" \"inv:Res\" {\n    text = \"a\"\n}\n");
    ck_assert_str_eq(g.p->nodes[0].token, "inv:index:Res");
    tu_pcl_unload(&g);
}
END_TEST

START_TEST(test_bind_errors) {
    bind_refused("output \"o\" {\n    value = invoke(\"inv:index:nope\", {})\n}\n",
                 "main.pp:2:13: invoke of 'inv:index:nope': the inv schema has no such function");
    bind_refused("output \"o\" {\n    value = invoke(\"other:index:f\", {})\n}\n",
                 "invoke of 'other:index:f': no schema for package 'other' is loaded");
    bind_refused("output \"o\" {\n    value = invoke(\"inv:index:getThing\", {nmae = \"a\"})\n}\n",
                 "main.pp:2:50: the function 'inv:index:getThing' has no input 'nmae'");
    bind_refused(
        "output \"o\" {\n    value = invoke(\"inv:index:getThing\", {name = \"a\"}, {retainOnDelete = true})\n}\n",
        "'retainOnDelete' is not an invoke option");
    bind_refused("output \"o\" {\n    value = invoke(42)\n}\n", "invoke's first argument must be the function's token");
    bind_refused("resource \"r\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
                 "output \"o\" {\n    value = call(r, \"wave\", {})\n}\n",
                 "main.pp:5:13: call of 'wave': the resource type 'inv:index:Res' has no such method");
    bind_refused("output \"o\" {\n    value = call(nobody, \"greet\", {})\n}\n",
                 "call of 'greet': 'nobody' is not a resource of the program");
    bind_refused("resource \"r\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
                 "output \"o\" {\n    value = call(r, \"greet\", {prefx = \"x\"})\n}\n",
                 "the method 'greet' has no input 'prefx'");
}
END_TEST

/* TypeScript: the output version of the function, its package imported even when no resource
 * comes from it, the result's attributes lifted, options in the order written. */
START_TEST(test_typescript) {
    tu_pcl_t f =
        load("resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
             "data = invoke(\"inv:index:getThing\", {name = res.text}, {\n"
             "    provider = res\n    dependsOn = [res]\n    pluginDownloadUrl = \"https://x\"\n})\n"
             "resource \"other\" \"inv:index:Res\" {\n    text = data.value\n"
             "    flag = invoke(\"inv:index:getThing\", {name = \"b\"}).secret\n}\n"
             "output \"mod\" {\n    value = invoke(\"inv:things:lookUp\", {}).id\n}\n"
             "output \"two\" {\n    value = invoke(\"inv:index:pair\", \"x\", \"y\").result\n}\n"
             "output \"greeting\" {\n    value = call(res, \"greet\", {prefix = \"hi \"}).result\n}\n"
             "output \"plain\" {\n    value = call(res, \"greet\", {}).result\n}\n"
             "output \"item\" {\n    value = \"${invoke(\"inv:index:getThing\", {name = \"c\"}).items[0]}!\"\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "import * as inv from \"@pulumi/inv\";");
    tu_has(ts,
           "const data = inv.getThingOutput({\n    name: res.text,\n}, {\n    provider: res,\n    dependsOn: [res],\n"
           "    pluginDownloadURL: \"https://x\",\n});\n");
    tu_has(ts, "text: data.value,\n    flag: inv.getThingOutput({\n        name: \"b\",\n    }).secret,\n");
    tu_has(ts, "export const mod = inv.things.lookUpOutput({}).id;");
    tu_has(ts, "export const two = inv.pairOutput(\"x\", \"y\").result;");
    tu_has(ts, "export const greeting = res.greet(({\n    prefix: \"hi \",\n})).result;");
    tu_has(ts, "export const plain = res.greet().result;");
    tu_has(ts, "export const item = pulumi.interpolate`${inv.getThingOutput({\n    name: \"c\",\n}).items[0]}!`;");
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* Python: `fn_output(k=v, ...)`, InvokeOutputOptions, a method's snake_case name, and an attribute
 * that is a member of the Output class (`secret`) read in an apply instead of lifted. */
START_TEST(test_python) {
    tu_pcl_t f = load("resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
                      "data = invoke(\"inv:index:getThing\", {name = res.text}, {\n"
                      "    provider = res\n    dependsOn = [res]\n    pluginDownloadUrl = \"https://x\"\n})\n"
                      "resource \"other\" \"inv:index:Res\" {\n    text = data.value\n"
                      "    flag = invoke(\"inv:index:getThing\", {name = \"b\"}).secret\n}\n"
                      "output \"two\" {\n    value = invoke(\"inv:index:pair\", \"x\", \"y\").result\n}\n"
                      "output \"greeting\" {\n    value = call(res, \"greet\", {prefix = \"hi \"}).result\n}\n"
                      "output \"first\" {\n    value = invoke(\"inv:index:getThing\", {name = \"c\"}).items[0]\n}\n");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "import pulumi_inv as inv\n");
    tu_has(py, "data = inv.get_thing_output(name=res.text, opts=pulumi.InvokeOutputOptions(provider=res, "
               "depends_on=[res], plugin_download_url=\"https://x\"))\n");
    tu_has(py, "text=data.value,\n    flag=inv.get_thing_output(name=\"b\").apply(lambda invoke: invoke.secret))");
    tu_has(py, "pulumi.export(\"two\", inv.pair_output(\"x\", \"y\").result)");
    tu_has(py, "pulumi.export(\"greeting\", res.greet(prefix=\"hi \").result)");
    tu_has(py, "pulumi.export(\"first\", inv.get_thing_output(name=\"c\").items[0])");
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* YAML: `fn::invoke` with the attribute read as its `return`, options with pluginDownloadURL,
 * positional arguments named; the function token collapsed as pulumi-yaml writes it (pkg:fn). */
START_TEST(test_yaml) {
    tu_pcl_t f = load("resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
                      "data = invoke(\"inv:index:getThing\", {name = res.text}, {\n"
                      "    dependsOn = [res]\n    pluginDownloadUrl = \"https://x\"\n})\n"
                      "resource \"other\" \"inv:index:Res\" {\n    text = data.value\n"
                      "    flag = invoke(\"inv:index:getThing\", {name = \"b\"}).secret\n}\n"
                      "output \"two\" {\n    value = invoke(\"inv:index:pair\", \"x\", \"y\").result\n}\n");
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "variables:\n  data:\n    fn::invoke:\n      function: inv:getThing\n      arguments:\n"
              "        name: ${res.text}\n      options:\n        dependsOn:\n          - ${res}\n"
              "        pluginDownloadURL: https://x\n");
    tu_has(y, "      text: ${data.value}\n      flag:\n        fn::invoke:\n          function: inv:getThing\n"
              "          arguments:\n            name: b\n          return: secret\n");
    tu_has(y, "  two:\n    fn::invoke:\n      function: inv:pair\n      arguments:\n        first: x\n"
              "        second: \"y\"\n      return: result\n");
    free(y);
    tu_pcl_unload(&f);
    /* a deeper read of the result: fn::invoke's `return` names one attribute, so the invoke is held by
     * a variable of its own (named after the function, unique) and read through it */
    tu_pcl_t g = load("getThingResult = 1\n"
                      "output \"o\" {\n    value = invoke(\"inv:index:getThing\", {name = \"c\"}).items[0]\n}\n"
                      "output \"p\" {\n    value = [invoke(\"inv:index:getThing\", {name = \"d\"}).items[1], 2]\n}\n");
    y = tu_pcl_emit_ok(&g, LANG_YAML);
    tu_has(y, "variables:\n  getThingResult: 1\n  getThingResult2:\n    fn::invoke:\n      function: inv:getThing\n"
              "      arguments:\n        name: c\n  getThingResult3:\n    fn::invoke:\n      function: inv:getThing\n"
              "      arguments:\n        name: d\n");
    tu_has(y, "outputs:\n  o: ${getThingResult2.items[0]}\n  p:\n    - ${getThingResult3.items[1]}\n    - 2\n");
    free(y);
    tu_pcl_unload(&g);
}
END_TEST

/* C#: `Pkg.Fn.Invoke(new() {...})`, attributes and indexes of the result read in an apply; invoke
 * options and method calls are refused with their position. */
START_TEST(test_csharp) {
    tu_pcl_t f = load("resource \"res\" \"inv:index:Res\" {\n    text = invoke(\"inv:index:getThing\", {name = "
                      "\"a\"}).value\n}\n"
                      "output \"first\" {\n    value = invoke(\"inv:index:getThing\", {name = res.text}).items[0]\n}\n"
                      "output \"n\" {\n    value = invoke(\"inv:index:answer\", {})\n}\n"
                      "output \"m\" {\n    value = invoke(\"inv:things:lookUp\", {}).id\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "using Inv = Pulumi.Inv;\n");
    tu_has(cs, "var res = new Inv.Res(\"res\", new()\n    {\n        Text = Inv.GetThing.Invoke(new()\n        {\n"
               "            Name = \"a\",\n        }).Apply(invoke => invoke.Value),\n    });\n");
    tu_has(cs, "[\"first\"] = Inv.GetThing.Invoke(new()\n        {\n            Name = res.Text,\n"
               "        }).Apply(invoke => invoke.Items[0]),\n");
    tu_has(cs, "[\"n\"] = Inv.Answer.Invoke(),\n");
    tu_has(cs, "[\"m\"] = Inv.Things.LookUp.Invoke().Apply(invoke => invoke.Id),\n");
    free(cs);
    tu_pcl_unload(&f);
    /* multi-argument inputs positionally, as Pulumi's .NET generator writes them */
    tu_pcl_t g = load("output \"two\" {\n    value = invoke(\"inv:index:pair\", \"x\", \"y\").result\n}\n"
                      "output \"one\" {\n    value = invoke(\"inv:index:pair\", \"x\").result\n}\n");
    cs = tu_pcl_emit_ok(&g, LANG_CSHARP);
    tu_has(cs, "[\"two\"] = Inv.Pair.Invoke(\"x\", \"y\").Apply(invoke => invoke.Result),\n");
    free(cs);
    /* Java: pulumi-java's SDK functions take one Args object (its codegen writes no positional
     * overload: fn("x", "y") does not compile), built of the arguments given */
    char *jv = tu_pcl_emit_ok(&g, LANG_JAVA);
    tu_has(jv, "ctx.export(\"two\", InvFunctions.pair(PairArgs.builder()\n");
    tu_has(jv, "ctx.export(\"one\", InvFunctions.pair(PairArgs.builder()\n");
    ck_assert_msg(!strstr(jv, "pair(\"x\""), "%s", jv);
    free(jv);
    tu_pcl_unload(&g);
    g = load(
        "resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
        "output \"o\" {\n    value = invoke(\"inv:index:getThing\", {name = \"a\"}, {dependsOn = [res]}).value\n}\n");
    /* an invoke's options: InvokeOutputOptions, as Pulumi's .NET generator writes them */
    cs = tu_pcl_emit_ok(&g, LANG_CSHARP);
    tu_has(cs, "[\"o\"] = Inv.GetThing.Invoke(new()\n        {\n            Name = \"a\",\n        }, new() {\n"
               "            DependsOn = new[]\n            {\n                res,\n            },\n"
               "        }).Apply(invoke => invoke.Value),\n");
    free(cs);
    /* Java: as pulumi-java writes them, InvokeOutputOptions' builder with dependsOn, else InvokeOptions' */
    char *java = tu_pcl_emit_ok(&g, LANG_JAVA);
    tu_has(java, "import com.pulumi.deployment.InvokeOutputOptions;\n");
    tu_has(java, "            .build(), (new InvokeOutputOptions.Builder())\n                .dependsOn(res)\n"
                 "                .build()).applyValue(invoke -> invoke.value()));\n");
    free(java);
    tu_pcl_unload(&g);
    g = load("resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
             "output \"o\" {\n    value = invoke(\"inv:things:lookUp\", {}, {provider = res, pluginDownloadUrl = "
             "\"u\"})\n}\n");
    cs = tu_pcl_emit_ok(&g, LANG_CSHARP);
    tu_has(cs, "[\"o\"] = Inv.Things.LookUp.Invoke(new(), new() {\n            Provider = res,\n"
               "            PluginDownloadURL = \"u\",\n        }),\n");
    free(cs);
    java = tu_pcl_emit_ok(&g, LANG_JAVA);
    tu_has(java, "import com.pulumi.deployment.InvokeOptions;\n");
    tu_has(java, "            .build(), InvokeOptions.builder()\n                .provider(res)\n"
                 "                .pluginDownloadURL(\"u\")\n                .build()));\n");
    free(java);
    tu_pcl_unload(&g);
}
END_TEST

/* Go: `mod.FnOutput(ctx, mod.FnOutputArgs{...}, nil)` with the result's attributes as Output
 * methods; a read with an index in an apply over the result. */
START_TEST(test_go) {
    tu_pcl_t f = load("resource \"res\" \"inv:index:Res\" {\n    text = invoke(\"inv:index:getThing\", {name = "
                      "\"a\"}).value\n}\n"
                      "output \"m\" {\n    value = invoke(\"inv:things:lookUp\", {}).id\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "Text: inv.GetThingOutput(ctx, inv.GetThingOutputArgs{\n\t\t\t\tName: pulumi.String(\"a\"),\n"
               "\t\t\t}, nil).Value(),\n");
    tu_has(go, "ctx.Export(\"m\", things.LookUpOutput(ctx, things.LookUpOutputArgs{}, nil).Id())");
    free(go);
    tu_pcl_unload(&f);
    /* a read with an index: in an apply over the result, as Pulumi writes it */
    tu_pcl_t g = load("output \"o\" {\n    value = invoke(\"inv:index:getThing\", {name = \"c\"}).items[0]\n}\n");
    go = tu_pcl_emit_ok(&g, LANG_GO);
    tu_has(go, "\t\t}, nil).ApplyT(func(invoke inv.GetThingResult) (string, error) {\n"
               "\t\t\treturn invoke.Items[0], nil\n\t\t}).(pulumi.StringOutput))\n");
    free(go);
    tu_pcl_unload(&g);
}
END_TEST

/* Go: a local holding an invoke's result is that Output (`data := inv.GetThingOutput(...)`), and
 * its attributes read through the result's methods (`data.Value()`), as Pulumi writes them; before,
 * the attribute was refused ("the Go type of a reference is not known"). */
START_TEST(test_go_local_invoke) {
    tu_pcl_t f = load("data = invoke(\"inv:index:getThing\", {name = \"a\"})\n"
                      "resource \"res\" \"inv:index:Res\" {\n    text = data.value\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tdata := inv.GetThingOutput(ctx, inv.GetThingOutputArgs{\n");
    tu_has(go, "Text: data.Value(),\n");
    free(go);
    tu_pcl_unload(&f);
    tu_pcl_t g = load("data = invoke(\"inv:index:getThing\", {name = \"a\"})\n"
                      "output \"o\" {\n    value = data.items[0]\n}\n");
    tu_pcl_emit_refused(&g, LANG_GO, "main.pp:3:", "an index into an invoke's result held by a local");
    tu_pcl_unload(&g);
}
END_TEST

/* Go: an invoke's options after its arguments in the program's order (pulumi.Provider,
 * pulumi.Parent, pulumi.Version, pulumi.PluginDownloadURL, pulumi.DependsOn of pulumi.Resource(r)),
 * and multi-argument inputs positionally, as Pulumi writes them. */
START_TEST(test_go_invoke_options) {
    tu_pcl_t f =
        load("resource \"prov\" \"pulumi:providers:inv\" {}\n"
             "resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
             "data = invoke(\"inv:index:getThing\", {name = \"a\"}, {\n    provider = prov\n"
             "    parent = prov\n    version = \"1.2.3\"\n    pluginDownloadUrl = \"https://example.test/inv\"\n"
             "    dependsOn = [res]\n})\n"
             "output \"o\" {\n    value = data.value\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tdata := inv.GetThingOutput(ctx, inv.GetThingOutputArgs{\n\t\t\tName: pulumi.String(\"a\"),\n"
               "\t\t}, pulumi.Provider(prov), pulumi.Parent(prov), pulumi.Version(\"1.2.3\"), "
               "pulumi.PluginDownloadURL(\"https://example.test/inv\"), pulumi.DependsOn([]pulumi.Resource{\n"
               "\t\t\tpulumi.Resource(res),\n\t\t}))\n");
    tu_has(go, "ctx.Export(\"o\", data.Value())\n");
    free(go);
    tu_pcl_unload(&f);
    /* multi-argument inputs: positional, typed by their inputs, nil for one left out */
    f = load("output \"b\" {\n    value = invoke(\"inv:index:pair\", \"x\", \"y\").result\n}\n"
             "output \"c\" {\n    value = invoke(\"inv:index:pair\", \"x\").result\n}\n");
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "ctx.Export(\"b\", inv.PairOutput(ctx, pulumi.String(\"x\"), pulumi.String(\"y\")).Result())\n");
    tu_has(go, "ctx.Export(\"c\", inv.PairOutput(ctx, pulumi.String(\"x\"), nil).Result())\n");
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

/* Go: a method call before the statement that reads it (`callGreet, err := res.Greet(ctx,
 * &inv.ResGreetArgs{...})`, its error checked, numbered from the second call on), the attribute
 * read from its result in an apply, as Pulumi writes it, in outputs, locals and resource inputs. */
START_TEST(test_go_method_call) {
    tu_pcl_t f = load("resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
                      "output \"p\" {\n    value = call(res, \"greet\", {prefix = \"x\"}).result\n}\n"
                      "q = call(res, \"greet\", {}).result\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tcallGreet, err := res.Greet(ctx, &inv.ResGreetArgs{\n\t\t\tPrefix: pulumi.String(\"x\"),\n"
               "\t\t})\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
               "\t\tctx.Export(\"p\", callGreet.ApplyT(func(call inv.ResGreetResult) (*string, error) {\n"
               "\t\t\treturn call.Result, nil\n\t\t}).(pulumi.StringPtrOutput))\n");
    tu_has(go, "\t\tcallGreet1, err := res.Greet(ctx, &inv.ResGreetArgs{})\n");
    free(go);
    tu_pcl_unload(&f);
    /* in a resource's input too (the receiver, registered before, has declared err) */
    f = load("resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
             "resource \"r2\" \"inv:index:Res\" {\n    text = call(res, \"greet\", {}).result\n}\n");
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tcallGreet, err := res.Greet(ctx, &inv.ResGreetArgs{})\n\t\tif err != nil {\n\t\t\treturn err\n"
               "\t\t}\n\t\t_, err = inv.NewRes(ctx, \"r2\", &inv.ResArgs{\n"
               "\t\t\tText: callGreet.ApplyT(func(call inv.ResGreetResult) (*string, error) {\n");
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

/* C#: a method call as Pulumi's .NET generator writes it, `res.Greet(new() {...})` (the method's
 * Output of its result), what is read from the result in `.Apply(call => call.Result)`; Java has no
 * method calls (pulumi-java's generator writes none): refused. */
START_TEST(test_csharp_method_call) {
    tu_pcl_t f = load("resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
                      "resource \"r2\" \"inv:index:Res\" {\n    text = call(res, \"greet\", {}).result\n}\n"
                      "output \"p\" {\n    value = call(res, \"greet\", {prefix = \"x\"}).result\n}\n"
                      "output \"whole\" {\n    value = call(res, \"greet\", {})\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs,
           "    var r2 = new Inv.Res(\"r2\", new()\n    {\n        Text = res.Greet().Apply(call => call.Result),\n");
    tu_has(cs, "        [\"p\"] = res.Greet(new()\n        {\n            Prefix = \"x\",\n"
               "        }).Apply(call => call.Result),\n        [\"whole\"] = res.Greet(),\n");
    free(cs);
    /* pulumi-java's SDK generator writes no resource methods (pulumi-java #262), and its program
     * generator writes a "TODO: call" string literal in a call's place */
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:12: resource 'r2'",
                        "calls the method 'inv:index:Res/greet'; Pulumi Java's SDKs have no resource methods");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:12: resource 'r2'",
                        "its program generator writes the string \"TODO: call ...\" in a call's place "
                        "(pulumi-language-java skips l2-component-call-simple, pulumi-java #1680)");
    tu_pcl_unload(&f);
    /* a plain list input is a List<T>, which an array does not convert to: a target-typed new() */
    f = tu_pcl_load("{\"name\":\"pl\",\"version\":\"1.0.0\",\"resources\":{\"pl:index:R\":{\"inputProperties\":{"
                    "\"names\":{\"type\":\"array\",\"plain\":true,\"items\":{\"type\":\"string\"}},"
                    "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}}}",
                    "pl.json", "resource \"r\" \"pl:index:R\" {\n    names = [\"a\"]\n    tags = [\"b\"]\n}\n");
    cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        Names = new()\n        {\n            \"a\",\n        },\n        Tags = new[]\n        {\n");
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

/* Go: a method's plain result is the value itself (Pulumi's form): a number wrapped at an input,
 * a provider as it is in the provider option. */
START_TEST(test_go_method_plain_result) {
    static const char *PM =
        "{\"name\":\"pm\",\"version\":\"1.0.0\",\"resources\":{\"pm:index:R\":{"
        "\"inputProperties\":{},\"methods\":{\"num\":\"pm:index:R/num\",\"prov\":\"pm:index:R/prov\"}}},"
        "\"functions\":{\"pm:index:R/num\":{\"inputs\":{\"properties\":{\"__self__\":{\"$ref\":"
        "\"#/resources/pm:index:R\"}},\"required\":[\"__self__\"]},\"outputs\":{\"type\":\"integer\","
        "\"plain\":true}},\"pm:index:R/prov\":{\"inputs\":{\"properties\":{\"__self__\":{\"$ref\":"
        "\"#/resources/pm:index:R\"}},\"required\":[\"__self__\"]},\"outputs\":{\"$ref\":"
        "\"#/resources/pulumi:providers:pm\",\"plain\":true}}}}";
    tu_pcl_t f =
        tu_pcl_load(PM, "pm.json",
                    "resource \"r\" \"pm:index:R\" {}\n"
                    "resource \"s\" \"pm:index:R\" {\n    options {\n        provider = call(r, \"prov\", {})\n"
                    "    }\n}\noutput \"n\" {\n    value = call(r, \"num\", {})\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tcallProv, err := r.Prov(ctx)\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
               "\t\t_, err = pm.NewR(ctx, \"s\", nil, pulumi.Provider(callProv))\n");
    tu_has(go, "\t\tcallNum1, err := r.Num(ctx)\n");
    tu_has(go, "ctx.Export(\"n\", pulumi.Int(callNum1))\n");
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

/* Go: resources at plain inputs are their variables (`*pr.Custom`, in `[]*pr.Custom` and
 * `map[string]*pr.Custom`), and lists and maps of resources at a method's inputs are
 * `[]pr.CustomInput` and `map[string]pr.CustomInput`, as Pulumi's Go SDKs type them (they have no
 * CustomArray type; `pulumi.Array` does not convert). A resource of another type stays refused. */
START_TEST(test_go_resource_inputs) {
    static const char *PR =
        "{\"name\":\"pr\",\"version\":\"1.0.0\",\"resources\":{"
        "\"pr:index:Custom\":{\"inputProperties\":{}},\"pr:index:Other\":{\"inputProperties\":{}},"
        "\"pr:index:Comp\":{\"isComponent\":true,\"inputProperties\":{"
        "\"one\":{\"plain\":true,\"$ref\":\"#/resources/pr:index:Custom\"},"
        "\"provs\":{\"type\":\"array\",\"plain\":true,\"items\":{\"$ref\":\"#/resources/pulumi:providers:pr\"}},"
        "\"list\":{\"type\":\"array\",\"plain\":true,\"items\":{\"plain\":true,\"$ref\":\"#/resources/"
        "pr:index:Custom\"}},"
        "\"byKey\":{\"type\":\"object\",\"plain\":true,\"additionalProperties\":{\"plain\":true,"
        "\"$ref\":\"#/resources/pr:index:Custom\"}}},"
        "\"methods\":{\"refs\":\"pr:index:Comp/refs\"}}},"
        "\"functions\":{\"pr:index:Comp/refs\":{\"inputs\":{\"properties\":{\"__self__\":{\"$ref\":"
        "\"#/resources/pr:index:Comp\"},\"list\":{\"type\":\"array\",\"items\":{\"$ref\":"
        "\"#/resources/pr:index:Custom\"}},\"byKey\":{\"type\":\"object\",\"additionalProperties\":{\"$ref\":"
        "\"#/resources/pr:index:Custom\"}}},\"required\":[\"__self__\"]},"
        "\"outputs\":{\"properties\":{\"result\":{\"type\":\"string\"}}}}}}";
    tu_pcl_t f = tu_pcl_load(PR, "pr.json",
                             "resource \"a\" \"pr:index:Custom\" {}\nresource \"b\" \"pr:index:Custom\" {}\n"
                             "resource \"c\" \"pr:index:Comp\" {\n    one = a\n    list = [a, b]\n"
                             "    byKey = {\n        \"x\" = b\n    }\n}\n"
                             "output \"o\" {\n    value = call(c, \"refs\", {\n        list = [a, b]\n"
                             "        byKey = {\n            \"x\" = b\n        }\n    }).result\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tc, err := pr.NewComp(ctx, \"c\", &pr.CompArgs{\n\t\t\tOne: a,\n"
               "\t\t\tList: []*pr.Custom{\n\t\t\t\ta,\n\t\t\t\tb,\n\t\t\t},\n"
               "\t\t\tByKey: map[string]*pr.Custom{\n\t\t\t\t\"x\": b,\n\t\t\t},\n\t\t})\n");
    tu_has(go, "\t\tcallRefs, err := c.Refs(ctx, &pr.CompRefsArgs{\n"
               "\t\t\tList: []pr.CustomInput{\n\t\t\t\ta,\n\t\t\t\tb,\n\t\t\t},\n"
               "\t\t\tByKey: map[string]pr.CustomInput{\n\t\t\t\t\"x\": b,\n\t\t\t},\n\t\t})\n");
    free(go);
    tu_pcl_unload(&f);
    f = tu_pcl_load(PR, "pr.json",
                    "resource \"o\" \"pr:index:Other\" {}\n"
                    "resource \"c\" \"pr:index:Comp\" {\n    one = o\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:11:", "a reference at a plain (not Input) property");
    tu_pcl_unload(&f);
    /* providers: the SDK's Provider type is not named from the token's member; refused */
    f = tu_pcl_load(PR, "pr.json",
                    "resource \"p\" \"pulumi:providers:pr\" {}\n"
                    "resource \"c\" \"pr:index:Comp\" {\n    provs = [p]\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:13:", "at a plain (not Input) property");
    tu_pcl_unload(&f);
}
END_TEST

/* Java: `<Pkg>Functions.fn(FnArgs.builder()...build())`, the result read in applyValue. */
START_TEST(test_java) {
    tu_pcl_t f = load("output \"v\" {\n    value = invoke(\"inv:index:getThing\", {name = \"a\"}).items[0]\n}\n"
                      "output \"m\" {\n    value = invoke(\"inv:things:lookUp\", {}).id\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.inv.InvFunctions;\n");
    tu_has(java, "import com.pulumi.inv.inputs.GetThingArgs;\n");
    tu_has(java, "ctx.export(\"v\", InvFunctions.getThing(GetThingArgs.builder()\n            .name(\"a\")\n"
                 "            .build()).applyValue(invoke -> invoke.items().get(0)));");
    tu_has(java, "ctx.export(\"m\", ThingsFunctions.lookUp(LookUpArgs.builder()\n            .build())"
                 ".applyValue(invoke -> invoke.id().orElse(null)));");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* A function whose inputs are of an object type, in a list and alone. */
static const char *NESTED_SCHEMA =
    "{\"name\":\"nst\",\"version\":\"1.0.0\",\"types\":{\"nst:index:Filter\":{\"type\":\"object\","
    "\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}},"
    "\"functions\":{\"nst:index:search\":{\"inputs\":{\"properties\":{"
    "\"filters\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/types/nst:index:Filter\"}},"
    "\"first\":{\"$ref\":\"#/types/nst:index:Filter\"}}},"
    "\"outputs\":{\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}}}}";

/* An invoke's arguments of an object type, as Pulumi's generators write them: C# the SDK's type of
 * the function's output form, `Inputs.<T>InputArgs`, Java `<T>Args.builder()` (before, both refused
 * the invoke: "which the C# emitter cannot write yet", l2-snake-names). */
START_TEST(test_invoke_nested_args_cs_java) {
    tu_pcl_t f = tu_pcl_load(NESTED_SCHEMA, "nst.json",
                             "output \"o\" {\n    value = invoke(\"nst:index:search\", {\n"
                             "        filters = [{ name = \"a\" }]\n        first = { name = \"b\" }\n    }).id\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs,
           "[\"o\"] = Nst.Search.Invoke(new()\n        {\n            Filters = new[]\n            {\n"
           "                new Nst.Inputs.FilterInputArgs\n                {\n                    Name = \"a\",\n"
           "                },\n            },\n            First = new Nst.Inputs.FilterInputArgs\n"
           "            {\n                Name = \"b\",\n            },\n        }).Apply(invoke => invoke.Id),\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.nst.inputs.FilterArgs;\n");
    tu_has(java,
           "ctx.export(\"o\", NstFunctions.search(SearchArgs.builder()\n            .filters(FilterArgs.builder()\n"
           "                .name(\"a\")\n                .build())\n            .first(FilterArgs.builder()\n"
           "                .name(\"b\")\n                .build())\n            .build()).applyValue(invoke -> "
           "invoke.id()));\n");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* A resource whose inputs are lists of an object type and of an enum, and a function's list of an
 * object type. */
static const char *EMPTY_LIST_SCHEMA =
    "{\"name\":\"nst\",\"version\":\"1.0.0\",\"types\":{\"nst:index:Filter\":{\"type\":\"object\","
    "\"properties\":{\"name\":{\"type\":\"string\"},"
    "\"tags\":{\"type\":\"array\",\"plain\":true,\"items\":{\"type\":\"string\"}}},\"required\":[\"name\"]},"
    "\"nst:index:Kind\":{\"type\":\"string\",\"enum\":[{\"value\":\"a\"},{\"value\":\"b\"}]}},"
    "\"resources\":{\"nst:index:Box\":{\"properties\":{},\"inputProperties\":{"
    "\"filters\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/types/nst:index:Filter\"}},"
    "\"kinds\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/types/nst:index:Kind\"}},"
    "\"byName\":{\"type\":\"object\",\"additionalProperties\":{\"$ref\":\"#/types/nst:index:Filter\"}},"
    "\"noNames\":{\"type\":\"object\",\"additionalProperties\":{\"$ref\":\"#/types/nst:index:Filter\"}},"
    "\"plainFilters\":{\"type\":\"array\",\"plain\":true,\"items\":{\"$ref\":\"#/types/nst:index:Filter\"}},"
    "\"plainNone\":{\"type\":\"array\",\"plain\":true,\"items\":{\"$ref\":\"#/types/nst:index:Filter\"}}}}},"
    "\"functions\":{\"nst:index:search\":{\"inputs\":{\"properties\":{"
    "\"filters\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/types/nst:index:Filter\"}}}},"
    "\"outputs\":{\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}}}}";

/* An empty list of an object type or an enum in C#: an array of the SDK's type, which converts to
 * the property's InputList<FilterArgs> (read14 F20: `new object?[] {}`, which does not); an empty
 * map of an object type a Dictionary<string, FilterArgs> (was Dictionary<string, object?>, which
 * does not convert to InputMap<FilterArgs> either); a plain list, also inside an object, `new()`
 * (its List<T> takes no array: `new[] {...}` and `new object?[] {}` were written). */
START_TEST(test_cs_empty_list_of_objects) {
    tu_pcl_t f = tu_pcl_load(EMPTY_LIST_SCHEMA, "nst.json",
                             "resource \"b\" \"nst:index:Box\" {\n    filters = []\n    kinds = []\n"
                             "    byName = {\n        x = { name = \"a\" }\n    }\n    noNames = {}\n"
                             "    plainFilters = [{\n        name = \"p\"\n        tags = [\"t\"]\n    }, {\n"
                             "        name = \"q\"\n        tags = []\n    }]\n    plainNone = []\n}\n"
                             "output \"o\" {\n    value = invoke(\"nst:index:search\", {\n"
                             "        filters = []\n    }).id\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "Filters = new Nst.Inputs.FilterArgs[] {},\n");
    tu_has(cs, "Kinds = new Nst.Kind[] {},\n");
    tu_has(cs, "            { \"x\", new Nst.Inputs.FilterArgs\n");
    tu_has(cs, "NoNames = new Dictionary<string, Nst.Inputs.FilterArgs>(),\n");
    /* a plain list is a List<T> in the SDK's args, which no array converts to: `new()` */
    tu_has(cs, "PlainFilters = new()\n        {\n            new Nst.Inputs.FilterArgs\n            {\n"
               "                Name = \"p\",\n                Tags = new()\n                {\n"
               "                    \"t\",\n                },\n            },\n");
    tu_has(cs, "                Name = \"q\",\n                Tags = new(),\n");
    tu_has(cs, "PlainNone = new(),\n");
    tu_has(cs, "Filters = new Nst.Inputs.FilterInputArgs[] {},\n");
    ck_assert_msg(!strstr(cs, "new object?"), "%s", cs);
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

/* A component whose method returns a plain integer. */
static const char *PLAIN_SCHEMA =
    "{\"name\":\"pln\",\"version\":\"1.0.0\",\"resources\":{\"pln:index:Comp\":{\"isComponent\":true,"
    "\"properties\":{},\"inputProperties\":{},\"methods\":{\"answer\":\"pln:index:Comp/answer\"}}},"
    "\"functions\":{\"pln:index:Comp/answer\":{\"inputs\":{\"properties\":{\"__self__\":{\"$ref\":"
    "\"#/resources/pln:index:Comp\"}},\"required\":[\"__self__\"]},\"outputs\":{\"type\":\"integer\","
    "\"plain\":true}}}}";

/* A method's plain result: C# refuses it naming why (the .NET SDKs' methods give Outputs only,
 * pulumi-dotnet#170), as Java and YAML name theirs. */
START_TEST(test_method_plain_result_refused) {
    tu_pcl_t f = tu_pcl_load(PLAIN_SCHEMA, "pln.json",
                             "resource \"comp\" \"pln:index:Comp\" {\n}\n"
                             "output \"o\" {\n    value = call(comp, \"answer\", {})\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:4:13: output 'o'",
                        "Pulumi .NET's SDKs give a method's result as an Output only, never the plain value this "
                        "method returns (pulumi/pulumi-dotnet#170, open)");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:4:13: output 'o'", "pulumi-java #262");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:4:13: output 'o'", "Pulumi YAML has no resource method calls");
    tu_pcl_unload(&f);
}
END_TEST

/* C# and Java read what a local holding an invoke's result gives in an apply of it (Java: one
 * property the result always has, its getter giving the value, not an Optional); an index into it
 * is refused, as is, in Java, a property the result may leave unset. */
START_TEST(test_invoke_local_cs_java) {
    tu_pcl_t f = load("data = invoke(\"inv:index:getThing\", {name = \"a\"})\n"
                      "resource \"res\" \"inv:index:Res\" {\n    text = data.value\n}\n"
                      "output \"s\" {\n    value = data.secret\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "    var data = Inv.GetThing.Invoke(new()\n    {\n        Name = \"a\",\n    });\n");
    tu_has(cs, "        Text = data.Apply(data => data.Value),\n");
    tu_has(cs, "[\"s\"] = data.Apply(data => data.Secret),\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "            .text(data.applyValue(_data -> _data.value()))\n");
    tu_has(java, "ctx.export(\"s\", data.applyValue(_data -> _data.secret()));\n");
    free(java);
    tu_pcl_unload(&f);
    f = load("data = invoke(\"inv:index:getThing\", {name = \"a\"})\noutput \"i\" {\n    value = data.items[0]\n}\n"
             "other = invoke(\"inv:things:lookUp\", {})\noutput \"o\" {\n    value = other.id\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:13", "reads into the local 'data'");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:13", "reads into the local 'data'");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:7:13", "reads into the local 'other'");
    tu_pcl_unload(&f);
}
END_TEST

/* A config value whose default is computed from an invoke's result (l2-config-default-from-invoke)
 * is an Output either way: C# `config.Get(k) is { } v ? Output.Create(v) : <default>`, Java
 * `ctx.config().get(k).map(Output::of).orElse(<default>)`, TypeScript `pulumi.output(config.get(k) ??
 * <default>)`, Python `pulumi.Output.from_input(...)` after its default, each read like any output
 * (before, TypeScript and Python read it as a plain string: `.apply` on a str, a template over an
 * Output); Go `name := data.Value()`, replaced by `pulumi.String(param).ToStringOutput()` when set. */
START_TEST(test_config_default_from_invoke) {
    tu_pcl_t f = load("data = invoke(\"inv:index:getThing\", {name = \"a\"})\n"
                      "config \"name\" \"string\" {\n    default = data.value\n}\n"
                      "resource \"res\" \"inv:index:Res\" {\n    text = name\n}\n"
                      "output \"s\" {\n    value = \"x-${name}\"\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "    var name = config.Get(\"name\") is { } nameValue ? Output.Create(nameValue) : "
               "data.Apply(data => data.Value);\n");
    tu_has(cs, "        Text = name,\n");
    tu_has(cs, "[\"s\"] = Output.Format($\"x-{name}\"),\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "final var name = ctx.config().get(\"name\").map(Output::of).orElse(data.applyValue(_data -> "
                 "_data.value()));\n");
    tu_has(java, "            .text(name)\n");
    tu_has(java, "ctx.export(\"s\", Output.format(\"x-%s\", name));\n");
    free(java);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "const name = pulumi.output(config.get(\"name\") ?? data.value);\n");
    tu_has(ts, "export const s = pulumi.interpolate`x-${name}`;\n");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "if name is None:\n    name = data.value\nname = pulumi.Output.from_input(name)\n");
    tu_has(py, "pulumi.export(\"s\", name.apply(lambda name: f\"x-{name}\"))\n");
    free(py);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tname := data.Value()\n\t\tif param, err := cfg.Try(\"name\"); err == nil {\n"
               "\t\t\tname = pulumi.String(param).ToStringOutput()\n\t\t}\n");
    tu_has(go, "Text: name,\n");
    free(go);
    tu_pcl_unload(&f);
    /* Go: an optional property is a pointer Output (StringPtrOutput), not the string's */
    f = load("other = invoke(\"inv:things:lookUp\", {})\nconfig \"d\" \"string\" {\n    default = other.id\n}\n"
             "output \"t\" {\n    value = d\n}\n");
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:3:15: config 'd'", "an optional one is a pointer Output");
    tu_pcl_unload(&f);
}
END_TEST

/* The emitters that cannot write an invoke or a method call refuse it with its position. */
START_TEST(test_refused_elsewhere) {
    /* invoke options: dependsOn a list only (C#, Java and Go write it) */
    tu_pcl_t f = load("resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
                      "resource \"other\" \"inv:index:Res\" {\n    text = invoke(\"inv:index:getThing\", {name = "
                      "\"a\"}, {dependsOn = res}).value\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:12: resource 'other':", "invokes 'inv:index:getThing', which the");
    tu_pcl_unload(&f);
    tu_pcl_t g = load("resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n}\n"
                      "output \"o\" {\n    value = call(res, \"greet\", {})\n}\n");
    tu_pcl_emit_refused(&g, LANG_GO, "main.pp:5:13: output 'o':", "a method call's result Go cannot read here");
    tu_pcl_emit_refused(&g, LANG_YAML, "main.pp:5:13: output 'o':",
                        "calls the method 'inv:index:Res/greet'; Pulumi YAML has no resource method calls");
    tu_pcl_unload(&g);
}
END_TEST

/* A config value of another scalar type than the input wants needs a conversion: TypeScript, Python
 * and Go write it as Pulumi does, the other emitters refuse it rather than pass the value as is (a
 * string where a bool is wanted). */
START_TEST(test_config_conversion_refused) {
    tu_pcl_t f = load("config \"flagText\" \"string\" {}\n"
                      "resource \"res\" \"inv:index:Res\" {\n    text = \"a\"\n    flag = flagText\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    ck_assert_msg(strstr(ts, "flag: flagText === \"true\","), "%s", ts);
    free(ts);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    ck_assert_msg(strstr(go, "Flag: pulumi.Bool(flagText == \"true\"),"), "%s", go);
    free(go);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    ck_assert_msg(strstr(cs, "Flag = flagText == \"true\","), "%s", cs);
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    ck_assert_msg(strstr(java, ".flag(flagText.equals(\"true\"))"), "%s", java);
    free(java);
    tu_pcl_unload(&f);
    tu_pcl_t g = load("config \"flag\" \"bool\" {}\nconfig \"name\" \"string\" {}\n"
                      "resource \"res\" \"inv:index:Res\" {\n    text = name\n    flag = flag\n}\n");
    free(tu_pcl_emit_ok(&g, LANG_TYPESCRIPT));
    tu_pcl_unload(&g);
}
END_TEST

/* TypeScript and Python wrote an output-valued call (an invoke, secret(), toJSON over outputs, try()
 * over one) inside a for expression as the head of an apply around the whole loop: called once,
 * before the loop, with the program's value of the variable's name (or an undeclared name), its one
 * result given to every item (read12 F3). A call reading the for expression's variables is refused
 * with its position; one that reads none is the same for every item and is written as before. */
START_TEST(test_output_call_in_for_refused) {
    static const char *const cases[][2] = {
        {"output \"o\" {\n    value = [for name in names : invoke(\"inv:index:getThing\", {name = name}).value]\n}\n",
         "main.pp:7:"},
        {"output \"o\" {\n    value = [for n in names : \"${secret(n)}!\"]\n}\n", "main.pp:7:"},
        {"output \"o\" {\n    value = {for n in names : n => toJSON({k = r.text, n = n})}\n}\n", "main.pp:7:"},
        {"output \"o\" {\n    value = [for k in names : try(r.text[k], \"none\")]\n}\n", "main.pp:7:"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char pcl[1024];
        snprintf(pcl, sizeof pcl,
                 "config \"name\" \"string\" {}\nconfig \"names\" \"list(string)\" {}\n"
                 "resource \"r\" \"inv:index:Res\" {\n    text = \"t\"\n}\n%s",
                 cases[i][0]);
        tu_pcl_t f = load(pcl);
        tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, cases[i][1], "inside a for expression");
        tu_pcl_emit_refused(&f, LANG_PYTHON, cases[i][1], "inside a for expression");
        tu_pcl_unload(&f);
    }
    /* a call that reads no variable of the loop: one value for every item, as before */
    tu_pcl_t f = load(
        "config \"names\" \"list(string)\" {}\n"
        "output \"o\" {\n    value = [for n in names : invoke(\"inv:index:getThing\", {name = \"x\"}).value]\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "names.map(n => (invoke.value))");
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

/* read12 F3's other half: an invoke in a conditional's branch was written as the head of an apply
 * around the whole conditional — made whatever the test says (with arguments the test guards, e.g.
 * l[0] of an empty list). TypeScript and Python refuse it; an invoke in the test itself is made in
 * PCL too, and stays written. */
START_TEST(test_invoke_in_conditional_branch_refused) {
    static const char *const cases[] = {
        "output \"o\" {\n    value = name != \"\" ? invoke(\"inv:index:getThing\", {name = name}).value : "
        "\"none\"\n}\n",
        "output \"o\" {\n    value = name == \"\" ? \"none\" : invoke(\"inv:index:getThing\", {name = "
        "name}).value\n}\n",
        "output \"o\" {\n    value = length(names) > 0 ? \"${invoke(\"inv:index:getThing\", {name = "
        "names[0]}).value}!\" "
        ": \"none\"\n}\n",
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char pcl[1024];
        snprintf(pcl, sizeof pcl, "config \"name\" \"string\" {}\nconfig \"names\" \"list(string)\" {}\n%s", cases[i]);
        tu_pcl_t f = load(pcl);
        tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:4:", "in a branch of a conditional");
        tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:4:", "in a branch of a conditional");
        tu_pcl_unload(&f);
    }
    /* try() and can() evaluate their argument lazily too: a failing one gives the fallback (read13c F6) */
    static const char *const lazy[] = {
        "output \"o\" {\n    value = try(invoke(\"inv:index:getThing\", {name = names[0]}).value, \"none\")\n}\n",
        "output \"o\" {\n    value = can(invoke(\"inv:index:getThing\", {name = names[0]}).value)\n}\n",
    };
    for (size_t i = 0; i < sizeof lazy / sizeof *lazy; i++) {
        char pcl[1024];
        snprintf(pcl, sizeof pcl, "config \"name\" \"string\" {}\nconfig \"names\" \"list(string)\" {}\n%s", lazy[i]);
        tu_pcl_t f = load(pcl);
        tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:4:", i ? "inside can()" : "inside try()");
        tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:4:", i ? "inside can()" : "inside try()");
        tu_pcl_unload(&f);
    }
    /* in the test: PCL makes the call whatever its value, so the apply's head is right */
    tu_pcl_t f = load("config \"name\" \"string\" {}\n"
                      "output \"o\" {\n    value = invoke(\"inv:index:getThing\", {name = name}).value == \"x\" ? "
                      "\"yes\" : \"no\"\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "getThingOutput(");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "get_thing_output(");
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pcl_invoke");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_bind_types);
    tcase_add_test(tc, test_bind_short_tokens);
    tcase_add_test(tc, test_bind_errors);
    tcase_add_test(tc, test_typescript);
    tcase_add_test(tc, test_python);
    tcase_add_test(tc, test_yaml);
    tcase_add_test(tc, test_csharp);
    tcase_add_test(tc, test_go);
    tcase_add_test(tc, test_go_local_invoke);
    tcase_add_test(tc, test_config_default_from_invoke);
    tcase_add_test(tc, test_go_invoke_options);
    tcase_add_test(tc, test_go_method_call);
    tcase_add_test(tc, test_csharp_method_call);
    tcase_add_test(tc, test_go_method_plain_result);
    tcase_add_test(tc, test_go_resource_inputs);
    tcase_add_test(tc, test_java);
    tcase_add_test(tc, test_invoke_nested_args_cs_java);
    tcase_add_test(tc, test_cs_empty_list_of_objects);
    tcase_add_test(tc, test_method_plain_result_refused);
    tcase_add_test(tc, test_invoke_local_cs_java);
    tcase_add_test(tc, test_refused_elsewhere);
    tcase_add_test(tc, test_config_conversion_refused);
    tcase_add_test(tc, test_output_call_in_for_refused);
    tcase_add_test(tc, test_invoke_in_conditional_branch_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* test_pcl_silent_wrong.c — PCL programs the emitters used to accept and turn into code that means
 * something else (issue 18): each case is now written with its meaning or refused with the
 * construct and its position. Programs go through pcl_parse, pcl_bind and emit_program, as
 * `cimport convert --from pcl` runs them. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/json_strict.h"
#include "specs/schema.h"
#include "testutil.h"

/* The conformance `simple` provider's schema (simple@2.0.0: one resource with a boolean). */
static const char *SIMPLE = "{\"name\":\"simple\",\"version\":\"2.0.0\",%s\"resources\":{\"simple:index:Resource\":{"
                            "\"properties\":{\"value\":{\"type\":\"boolean\"}},\"required\":[\"value\"],"
                            "\"inputProperties\":{\"value\":{\"type\":\"boolean\"}},\"requiredInputs\":[\"value\"]}}}";

static const lang_t ALL[] = {LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA, LANG_YAML};

typedef tu_pcl_t fixture_t;

static fixture_t load(const char *pcl, const char *extra_schema) {
    char text[2048];
    snprintf(text, sizeof text, SIMPLE, extra_schema ? extra_schema : "");
    return tu_pcl_load(text, "simple.json", pcl);
}

static void unload(fixture_t *f) {
    tu_pcl_unload(f);
}

static void lacks(const char *text, const char *needle) {
    ck_assert_msg(!strstr(text, needle), "unexpected [%s] in:\n%s", needle, text);
}

static const char *OPTIONS_PCL = "resource \"withOpts\" \"simple:index:Resource\" {\n"
                                 "    value = true\n"
                                 "    options {\n"
                                 "        replaceOnChanges = [value]\n"
                                 "        deleteBeforeReplace = true\n"
                                 "        additionalSecretOutputs = [value]\n"
                                 "        version = \"2.0.0\"\n"
                                 "        pluginDownloadURL = \"https://example.test/simple\"\n"
                                 "    }\n"
                                 "}\n";

/* Go used to drop every option but the nine an import writes (a warning, exit 0). */
START_TEST(test_go_keeps_resource_options) {
    const char *pcl =
        "resource \"parent\" \"simple:index:Resource\" {\n    value = true\n}\n"
        "resource \"res\" \"simple:index:Resource\" {\n"
        "    value = true\n"
        "    options {\n"
        "        parent = parent\n"
        "        aliases = [\"urn:pulumi:s::p::simple:index:Resource::old\", {name = \"older\"}, {noParent = true}, "
        "{parent = parent}]\n"
        "        customTimeouts = {\n            create = \"5m\"\n            delete = \"3m\"\n        }\n"
        "        replaceOnChanges = [value]\n"
        "        deleteBeforeReplace = true\n"
        "        additionalSecretOutputs = [value]\n"
        "        hideDiffs = [value]\n"
        "        version = \"2.0.0\"\n"
        "        pluginDownloadURL = \"https://example.test/simple\"\n"
        "    }\n"
        "}\n";
    fixture_t f = load(pcl, NULL);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(
        go,
        "pulumi.Aliases([]pulumi.Alias{pulumi.Alias{URN: pulumi.URN(\"urn:pulumi:s::p::simple:index:Resource::old\")}, "
        "pulumi.Alias{Name: pulumi.String(\"older\")}, pulumi.Alias{NoParent: pulumi.Bool(true)}, "
        "pulumi.Alias{Parent: parent}})");
    tu_has(go, "pulumi.Timeouts(&pulumi.CustomTimeouts{Create: \"5m\", Delete: \"3m\"})");
    tu_has(go, "pulumi.ReplaceOnChanges([]string{\n\t\t\t\"value\",\n\t\t})");
    tu_has(go, "pulumi.DeleteBeforeReplace(true)");
    tu_has(go, "pulumi.AdditionalSecretOutputs([]string{");
    tu_has(go, "pulumi.HideDiffs([]string{");
    tu_has(go, "pulumi.Version(\"2.0.0\")");
    tu_has(go, "pulumi.PluginDownloadURL(\"https://example.test/simple\")");
    free(go);
    unload(&f);

    /* replacementTrigger takes any value; a secret one is its Output held as interface{} (Pulumi's form) */
    f = load("resource \"a\" \"simple:index:Resource\" {\n    value = true\n}\n"
             "resource \"b\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        replacementTrigger = a.value\n    }\n}\n"
             "resource \"c\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        replacementTrigger = secret([1, 2])\n    }\n}\n",
             NULL);
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "}, pulumi.ReplacementTrigger(pulumi.Any(a.Value)))\n");
    tu_has(go, "}, pulumi.ReplacementTrigger(pulumi.Any(interface{}(pulumi.ToSecret([]int{\n\t\t\t1,\n\t\t\t2,\n"
               "\t\t}).(pulumi.IntArrayOutput)))))\n");
    free(go);
    unload(&f);

    /* providers: one is pulumi.Provider (Pulumi's form), more pulumi.Providers, a map pulumi.ProviderMap */
    f = load("resource \"p\" \"pulumi:providers:simple\" {}\nresource \"q\" \"pulumi:providers:simple\" {}\n"
             "resource \"a\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        providers = [p]\n    }\n}\n"
             "resource \"b\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        providers = [p, q]\n    }\n}\n"
             "resource \"c\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        providers = {simple = q}\n    }\n}\n",
             NULL);
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "}, pulumi.Provider(p))\n");
    tu_has(go, "}, pulumi.Providers(p, q))\n");
    tu_has(go, "}, pulumi.ProviderMap(map[string]pulumi.ProviderResource{\n\t\t\t\"simple\": q,\n\t\t}))\n");
    free(go);
    unload(&f);

    /* C# and Java write the options they have; YAML too */
    f = load(OPTIONS_PCL, NULL);
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "ReplaceOnChanges =\n");
    tu_has(cs, "\"value\",\n");
    tu_has(cs, "DeleteBeforeReplace = true,");
    tu_has(cs, "AdditionalSecretOutputs =");
    tu_has(cs, "Version = \"2.0.0\",");
    tu_has(cs, "PluginDownloadURL = \"https://example.test/simple\",");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, ".replaceOnChanges(\"value\")");
    tu_has(java, ".deleteBeforeReplace(true)");
    tu_has(java, ".additionalSecretOutputs(\"value\")");
    tu_has(java, ".version(\"2.0.0\")");
    tu_has(java, ".pluginDownloadURL(\"https://example.test/simple\")");
    char *yaml = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(yaml, "      replaceOnChanges:\n        - value\n");
    tu_has(yaml, "      deleteBeforeReplace: true\n");
    tu_has(yaml, "      version: 2.0.0\n");
    free(cs);
    free(java);
    free(yaml);
    unload(&f);
}
END_TEST

/* Pulumi YAML's replacementTrigger (any value: a literal, a reference, a secret) and a provider's
 * envVarMappings (a map of variable names) are options of its own; both used to be refused. */
START_TEST(test_yaml_replacement_trigger_env_var_mappings) {
    fixture_t f = load("resource \"a\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
                       "        replacementTrigger = \"test2\"\n    }\n}\n"
                       "resource \"b\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
                       "        replacementTrigger = a.value\n    }\n}\n"
                       "resource \"c\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
                       "        replacementTrigger = secret([3, 2, 1])\n    }\n}\n"
                       "resource \"prov\" \"pulumi:providers:simple\" {\n    options {\n"
                       "        envVarMappings = {\n            \"MY_VAR\" = \"PROVIDER_VAR\"\n"
                       "            \"OTHER_VAR\" = \"TARGET_VAR\"\n        }\n    }\n}\n",
                       NULL);
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "  a:\n    type: simple:Resource\n    properties:\n      value: true\n    options:\n"
              "      replacementTrigger: test2\n");
    tu_has(y, "    options:\n      replacementTrigger: ${a.value}\n");
    tu_has(y, "    options:\n      replacementTrigger:\n        fn::secret:\n          - 3\n          - 2\n"
              "          - 1\n");
    tu_has(y, "  prov:\n    type: pulumi:providers:simple\n    options:\n      envVarMappings:\n"
              "        MY_VAR: PROVIDER_VAR\n        OTHER_VAR: TARGET_VAR\n");
    free(y);
    unload(&f);
}
END_TEST

/* An option a language's emitter cannot write is refused with the option and its position. */
START_TEST(test_unsupported_options_refused) {
    const char *pcl = "resource \"res\" \"simple:index:Resource\" {\n"
                      "    value = true\n"
                      "    options {\n"
                      "        aliases = [{name = \"old\"}]\n"
                      "    }\n"
                      "}\n";
    fixture_t f = load(pcl, NULL);
    /* Pulumi YAML's aliases are URNs or alias objects (pulumi-yaml #936): a mapping per alias */
    char *yo = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(yo, "    options:\n      aliases:\n        - name: old\n");
    free(yo);
    unload(&f);
    f = load("resource \"p\" \"simple:index:Resource\" {\n    value = true\n}\n"
             "resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n        parent = p\n"
             "        aliases = [\"urn:a\", {name = \"old\", type = \"simple:index:Old\"}, {noParent = true}]\n"
             "    }\n}\n",
             NULL);
    yo = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(yo, "      aliases:\n        - urn:a\n        - name: old\n          type: simple:index:Old\n"
               "        - noParent: true\n");
    free(yo);
    unload(&f);
    /* an alias's parent is a resource in PCL; Pulumi YAML takes the parent's URN (a string or a
     * string Output, pulumi-yaml #936), which `${p.urn}` is; a stack stays refused */
    f = load("resource \"p\" \"simple:index:Resource\" {\n    value = true\n}\n"
             "resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        aliases = [{parent = p, name = \"old\"}, {noParent = true}]\n    }\n}\n",
             NULL);
    yo = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(yo, "      aliases:\n        - parent: ${p.urn}\n          name: old\n        - noParent: true\n");
    free(yo);
    unload(&f);
    f = load("resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        aliases = [{name = \"old\"}, {stack = \"dev\"}]\n    }\n}\n",
             NULL);
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:4:9",
                        "aliases item 2: the YAML emitter does not write an alias's stack");
    unload(&f);
    /* Java writes aliases as pulumi-java's SDK takes them: Alias.withUrn, Alias.noParent(), an alias's
     * builder */
    f = load("resource \"p\" \"simple:index:Resource\" {\n    value = true\n}\n"
             "resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        aliases = [\"urn:a\", {name = \"old\", noParent = true}, {parent = p, type = \"t:index:T\"}]\n"
             "    }\n}\n",
             NULL);
    /* C#: Pulumi.Alias objects in the options' Aliases list (a URN string its Urn) */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        Aliases =\n        {\n            new Alias\n            {\n                Urn = \"urn:a\",\n"
               "            },\n            new Alias\n            {\n                Name = \"old\",\n"
               "                NoParent = true,\n            },\n            new Alias\n            {\n"
               "                Parent = p,\n                Type = \"t:index:T\",\n            },\n        },\n");
    free(cs);
    /* Java: pulumi-java's alias without a parent is the static Alias.noParent(), which takes no other
     * field (its Alias.Builder has no noParent()) */
    tu_pcl_emit_refused(&f, LANG_JAVA, "aliases item 2 has noParent beside other fields", NULL);
    unload(&f);
    f = load("resource \"p\" \"simple:index:Resource\" {\n    value = true\n}\n"
             "resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        aliases = [\"urn:a\", {name = \"old\"}, {noParent = true}, {parent = p, type = \"t:index:T\"}]\n"
             "    }\n}\n",
             NULL);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.core.Alias;\n");
    tu_has(java, "                .aliases(Alias.withUrn(\"urn:a\"), Alias.builder().name(\"old\").build(), "
                 "Alias.noParent(), Alias.builder().parent(p).type(\"t:index:T\").build())\n");
    free(java);
    unload(&f);
    /* Pulumi YAML: aliases are URNs, hideDiffs property names, providers a list (a map's values), and
     * customTimeouts has no read timeout (it would be dropped) */
    f = load("resource \"prov\" \"pulumi:providers:simple\" {}\n"
             "resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        aliases = [\"urn:pulumi:s::p::simple:index:Resource::old\"]\n        hideDiffs = [value]\n"
             "        providers = {simple = prov}\n    }\n}\n",
             NULL);
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "    options:\n      providers:\n        - ${prov}\n      hideDiffs:\n        - value\n"
              "      aliases:\n        - urn:pulumi:s::p::simple:index:Resource::old\n");
    free(y);
    unload(&f);
    f = load("resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        customTimeouts = {create = \"1m\", read = \"2m\"}\n    }\n}\n",
             NULL);
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:4:9", "Pulumi YAML's customTimeouts are create, update and delete");
    unload(&f);
    /* an option PCL does not define never parses */
    const char *bad = "resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n        "
                      "protected = true\n    }\n}\n";
    diag_list_t d;
    diag_list_init(&d);
    pcl_program_t *p = pcl_parse(bad, strlen(bad), "main.pp", &d);
    ck_assert_ptr_null(p);
    ck_assert_msg(strstr(diag_format(&d, d.head), "main.pp:4:9: unknown resource option 'protected'"), "%s",
                  diag_format(&d, d.head));
    diag_list_free(&d);
}
END_TEST

/* C# and Java write hideDiffs (property names), replacementTrigger, providers (a component's: a
 * list, a map's values) and, in C#, envVarMappings as Pulumi's .NET and Java generators write them
 * (Java's builder takes an Output as the trigger); a component's options are its SDK's
 * ComponentResourceOptions; providers for a custom resource are refused (no such SDK option). */
START_TEST(test_options_cs_java) {
    static const char *schema =
        "{\"name\":\"opt\",\"version\":\"1.0.0\",\"resources\":{\"opt:index:Res\":{"
        "\"properties\":{\"value\":{\"type\":\"boolean\"}},\"inputProperties\":{\"value\":{\"type\":\"boolean\"}}},"
        "\"opt:index:Comp\":{\"isComponent\":true,\"inputProperties\":{}}}}";
    fixture_t f = tu_pcl_load(schema, "opt.json",
                              "resource \"prov\" \"pulumi:providers:opt\" {\n    options {\n"
                              "        envVarMappings = {\n            \"A\" = \"B\"\n        }\n    }\n}\n"
                              "resource \"res\" \"opt:index:Res\" {\n    value = true\n    options {\n"
                              "        hideDiffs = [value]\n        replacementTrigger = \"t\"\n    }\n}\n"
                              "resource \"comp\" \"opt:index:Comp\" {\n    options {\n"
                              "        providers = {opt = prov}\n    }\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "}, new CustomResourceOptions\n    {\n        EnvVarMappings = \n        {\n"
               "            { \"A\", \"B\" },\n        },\n    });\n");
    tu_has(cs, "    }, new CustomResourceOptions\n    {\n        HideDiffs =\n        {\n            \"value\",\n"
               "        },\n        ReplacementTrigger = \"t\",\n    });\n");
    tu_has(cs, "new Opt.Comp(\"comp\", new()\n    {\n    }, new ComponentResourceOptions\n    {\n"
               "        Providers =\n        {\n            prov,\n        },\n    });\n");
    free(cs);
    /* Pulumi Java's resource options have no envVarMappings (pulumi-java #2006) */
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:9",
                        "the resource option 'envVarMappings' is not among Pulumi Java's resource options");
    unload(&f);
    f = tu_pcl_load(schema, "opt.json",
                    "resource \"prov\" \"pulumi:providers:opt\" {}\n"
                    "resource \"res\" \"opt:index:Res\" {\n    value = true\n    options {\n"
                    "        hideDiffs = [value]\n        replacementTrigger = \"t\"\n    }\n}\n"
                    "resource \"comp\" \"opt:index:Comp\" {\n    options {\n"
                    "        providers = {opt = prov}\n    }\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "CustomResourceOptions.builder()\n                .hideDiffs(\"value\")\n"
                 "                .replacementTrigger(Output.of(\"t\"))\n                .build());\n");
    tu_has(java, "ComponentResourceOptions.builder()\n                .providers(prov)\n                .build());\n");
    free(java);
    unload(&f);
    f = tu_pcl_load(schema, "opt.json",
                    "resource \"prov\" \"pulumi:providers:opt\" {}\n"
                    "resource \"res\" \"opt:index:Res\" {\n    options {\n        providers = [prov]\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:4:9", "takes the option 'providers' for a component only");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:4:9", "takes the option 'providers' for a component only");
    unload(&f);
}
END_TEST

/* customTimeouts in C# and Java: their SDKs' CustomTimeouts hold create, update and delete (no read,
 * refused as YAML's is). Java parses each duration at run time, as pulumi-java's generator writes it
 * (CustomTimeouts.parseTimeoutString); C#'s take a TimeSpan, which the emitter writes from a duration
 * literal (Pulumi's .NET generator leaves the option out), refusing another value. */
START_TEST(test_custom_timeouts_cs_java) {
    static const char *schema =
        "{\"name\":\"opt\",\"version\":\"1.0.0\",\"resources\":{\"opt:index:Res\":{"
        "\"properties\":{\"value\":{\"type\":\"boolean\"}},\"inputProperties\":{\"value\":{\"type\":\"boolean\"}}}}}";
    fixture_t f =
        tu_pcl_load(schema, "opt.json",
                    "config \"t\" \"string\" {}\n"
                    "resource \"a\" \"opt:index:Res\" {\n    value = true\n    options {\n"
                    "        customTimeouts = {\n            create = \"5m\"\n            delete = t\n"
                    "        }\n    }\n}\n"
                    "resource \"b\" \"opt:index:Res\" {\n    value = true\n    options {\n"
                    "        customTimeouts = {\n            create = \"1h30m\"\n            update = \"1m30s\"\n"
                    "            delete = \"2h\"\n        }\n    }\n}\n");
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "import com.pulumi.resources.CustomTimeouts;\n");
    tu_has(java, "            .build(), CustomResourceOptions.builder()\n"
                 "                .customTimeouts(CustomTimeouts.builder()\n"
                 "                    .create(CustomTimeouts.parseTimeoutString(\"5m\"))\n"
                 "                    .delete(CustomTimeouts.parseTimeoutString(t))\n"
                 "                .build())\n                .build());\n");
    free(java);
    /* C#: a TimeSpan of the duration literal; the config value it cannot parse */
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:5:9",
                        "customTimeouts.delete: C#'s CustomTimeouts take a TimeSpan, which the C# emitter writes "
                        "from a duration literal only");
    unload(&f);
    f = tu_pcl_load(schema, "opt.json",
                    "resource \"b\" \"opt:index:Res\" {\n    value = true\n    options {\n"
                    "        customTimeouts = {\n            create = \"1h30m\"\n            update = \"1m30s\"\n"
                    "            delete = \"2h\"\n        }\n    }\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "using System;\n");
    tu_has(cs, "    }, new CustomResourceOptions\n    {\n        CustomTimeouts = new CustomTimeouts\n        {\n"
               "            Create = TimeSpan.FromMinutes(90),\n            Update = TimeSpan.FromSeconds(90),\n"
               "            Delete = TimeSpan.FromHours(2),\n        },\n    });\n");
    free(cs);
    unload(&f);
    f = tu_pcl_load(schema, "opt.json",
                    "resource \"a\" \"opt:index:Res\" {\n    value = true\n    options {\n"
                    "        customTimeouts = {\n            read = \"5m\"\n        }\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:4:9",
                        "customTimeouts.read: Pulumi Java's CustomTimeouts are create, update and delete only");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:4:9",
                        "customTimeouts.read: Pulumi .NET's CustomTimeouts are create, update and delete only");
    unload(&f);
    f = tu_pcl_load(schema, "opt.json",
                    "resource \"a\" \"opt:index:Res\" {\n    value = true\n    options {\n"
                    "        customTimeouts = {\n            create = \"soon\"\n        }\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:4:9", "customTimeouts.create: \"soon\" is not a duration");
    unload(&f);
}
END_TEST

/* A string output (a resource's ID, a required string output) where the schema wants a number or a
 * boolean: PCL converts it, and so do Pulumi's generators (l2-id-type: `id.apply(x => Number(x))`);
 * C# and Java refused it, now convert it in an apply as they convert a config value. */
START_TEST(test_string_output_conversion_cs_java) {
    static const char *schema =
        "{\"name\":\"cv\",\"version\":\"1.0.0\",\"resources\":{\"cv:index:Res\":{"
        "\"properties\":{\"s\":{\"type\":\"string\"},\"o\":{\"type\":\"string\"}},\"required\":[\"s\"],"
        "\"inputProperties\":{\"n\":{\"type\":\"number\"},\"i\":{\"type\":\"integer\"},"
        "\"b\":{\"type\":\"boolean\"}}}}}";
    fixture_t f = tu_pcl_load(schema, "cv.json",
                              "resource \"a\" \"cv:index:Res\" {}\n"
                              "resource \"b\" \"cv:index:Res\" {\n    n = a.id\n    i = a.s\n    b = a.s\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        N = a.Id.Apply(x => double.Parse(x, System.Globalization.CultureInfo.InvariantCulture)),\n"
               "        I = a.S.Apply(x => int.Parse(x, System.Globalization.CultureInfo.InvariantCulture)),\n"
               "        B = a.S.Apply(x => x == \"true\"),\n");
    free(cs);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "            .n(a.id().applyValue(x -> Double.parseDouble(x)))\n"
                 "            .i(a.s().applyValue(x -> Integer.parseInt(x)))\n"
                 "            .b(a.s().applyValue(x -> x.equals(\"true\")))\n");
    free(java);
    unload(&f);
    /* an optional output may be unset (null): not converted */
    f = tu_pcl_load(schema, "cv.json",
                    "resource \"a\" \"cv:index:Res\" {}\n"
                    "resource \"b\" \"cv:index:Res\" {\n    n = a.o\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:9", "gives a string where the schema wants a number");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:9", "gives a string where the schema wants a number");
    unload(&f);
}
END_TEST

/* C# and Java: a resource's output of an object type (or a list or map of one) is held in the SDK's
 * output class (C# Outputs.Data, Java outputs.Data), an input of that type in its Args class
 * (Inputs.DataArgs, inputs.DataArgs): `data = a.data` was written as it is and did not compile
 * (javac: "Output<Data> cannot be converted to Output<DataArgs>"). Refused there, with the position;
 * Go (DataOutput is a DataInput), TypeScript and Python write it; a field read below it and the
 * object at a stack output are written in C# and Java too. */
START_TEST(test_object_output_to_input) {
    static const char *schema =
        "{\"name\":\"oo\",\"version\":\"1.0.0\",\"resources\":{\"oo:index:Res\":{"
        "\"properties\":{\"data\":{\"$ref\":\"#/types/oo:index:Data\"},"
        "\"datas\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/types/oo:index:Data\"}}},"
        "\"required\":[\"data\",\"datas\"],"
        "\"inputProperties\":{\"data\":{\"$ref\":\"#/types/oo:index:Data\"},\"s\":{\"type\":\"string\"},"
        "\"datas\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/types/oo:index:Data\"}}}}},"
        "\"types\":{\"oo:index:Data\":{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\"}},"
        "\"required\":[\"s\"]}}}";
    const char *whole = "resource \"a\" \"oo:index:Res\" {\n    data = { s = \"x\" }\n}\n"
                        "resource \"b\" \"oo:index:Res\" {\n    data = a.data\n}\n";
    fixture_t f = tu_pcl_load(schema, "oo.json", whole);
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:5:12",
                        "resource 'b': 'data' gives the output 'a.data', of the object type oo:index:Data, where the "
                        "schema wants it as an input");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:12", "'data' gives the output 'a.data', of the object type");
    free(tu_pcl_emit_ok(&f, LANG_GO));
    free(tu_pcl_emit_ok(&f, LANG_TYPESCRIPT));
    free(tu_pcl_emit_ok(&f, LANG_PYTHON));
    unload(&f);
    /* a list of the object type, and the object inside a literal list */
    f = tu_pcl_load(schema, "oo.json",
                    "resource \"a\" \"oo:index:Res\" {}\n"
                    "resource \"b\" \"oo:index:Res\" {\n    datas = a.datas\n}\n"
                    "resource \"c\" \"oo:index:Res\" {\n    datas = [a.data]\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:13", "'datas' gives the output 'a.datas', a list of the object");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:6:14", "'datas' gives the output 'a.data', of the object type");
    unload(&f);
    /* a field read below it, and the whole object at a stack output: written */
    f = tu_pcl_load(schema, "oo.json",
                    "resource \"a\" \"oo:index:Res\" {}\n"
                    "resource \"b\" \"oo:index:Res\" {\n    s = a.data.s\n}\n"
                    "output \"o\" {\n    value = a.data\n}\n");
    free(tu_pcl_emit_ok(&f, LANG_CSHARP));
    free(tu_pcl_emit_ok(&f, LANG_JAVA));
    unload(&f);
}
END_TEST

/* C#: a resource's optional output of a value type is an Output<bool?> (double?, int?), which an
 * Input<bool> does not take (no conversion; it was written and did not compile): refused where an
 * input wants the value; a string one (a reference type) and one at a stack output are written. */
START_TEST(test_cs_optional_value_output) {
    static const char *schema = "{\"name\":\"ov\",\"version\":\"1.0.0\",\"resources\":{\"ov:index:Res\":{"
                                "\"properties\":{\"b\":{\"type\":\"boolean\"},\"s\":{\"type\":\"string\"}},"
                                "\"inputProperties\":{\"b\":{\"type\":\"boolean\"},\"s\":{\"type\":\"string\"}}}}}";
    fixture_t f = tu_pcl_load(schema, "ov.json",
                              "resource \"a\" \"ov:index:Res\" {}\n"
                              "resource \"c\" \"ov:index:Res\" {\n    s = a.s\n}\n"
                              "output \"o\" {\n    value = a.b\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        S = a.S,\n");
    tu_has(cs, "[\"o\"] = a.B,\n");
    free(cs);
    unload(&f);
    f = tu_pcl_load(schema, "ov.json",
                    "resource \"a\" \"ov:index:Res\" {}\n"
                    "resource \"c\" \"ov:index:Res\" {\n    b = a.b\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:9",
                        "'b' passes the optional output 'a.b', an Output<bool?> in C#, where an Input<bool> is wanted");
    free(tu_pcl_emit_ok(&f, LANG_JAVA)); /* unwrapped: test_java_optional_outputs */
    unload(&f);
    /* what is read below a required output, optional itself: an Output<bool?> too */
    static const char *below =
        "{\"name\":\"ov\",\"version\":\"1.0.0\",\"resources\":{\"ov:index:Res\":{"
        "\"properties\":{\"o\":{\"$ref\":\"#/types/ov:index:O\"}},\"required\":[\"o\"],"
        "\"inputProperties\":{\"b\":{\"type\":\"boolean\"}}}},"
        "\"types\":{\"ov:index:O\":{\"type\":\"object\",\"properties\":{\"b\":{\"type\":\"boolean\"}}}}}";
    f = tu_pcl_load(below, "ov.json",
                    "resource \"a\" \"ov:index:Res\" {}\n"
                    "resource \"c\" \"ov:index:Res\" {\n    b = a.o.b\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:9", "passes the optional output 'a.o.b', an Output<bool?>");
    unload(&f);
}
END_TEST

/* hideDiffs, replaceOnChanges, additionalSecretOutputs, ignoreChanges hold property names: TS
 * wrote `[value]` (a bare identifier, does not compile). */
START_TEST(test_property_name_lists_are_strings) {
    const char *pcl = "resource \"res\" \"simple:index:Resource\" {\n"
                      "    value = true\n"
                      "    options {\n"
                      "        hideDiffs = [value]\n"
                      "        ignoreChanges = [value]\n"
                      "        replaceOnChanges = [value]\n"
                      "        additionalSecretOutputs = [value]\n"
                      "    }\n"
                      "}\n";
    fixture_t f = load(pcl, NULL);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "hideDiffs: [\"value\"],");
    tu_has(ts, "ignoreChanges: [\"value\"],");
    tu_has(ts, "replaceOnChanges: [\"value\"],");
    tu_has(ts, "additionalSecretOutputs: [\"value\"],");
    lacks(ts, "[value]");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "hide_diffs=[\"value\"]");
    tu_has(py, "replace_on_changes=[\"value\"]");
    tu_has(py, "additional_secret_outputs=[\"value\"]");
    lacks(py, "[value]");
    free(ts);
    free(py);
    unload(&f);
}
END_TEST

/* `config "x" "bool" { secret = true }` (Pulumi's spelling) read the value as plaintext. */
START_TEST(test_secret_config_stays_secret) {
    const char *pcl = "config \"flag\" \"bool\" {\n    secret = true\n    description = \"a flag\"\n}\n"
                      "resource \"res\" \"simple:index:Resource\" {\n    value = flag\n}\n";
    fixture_t f = load(pcl, NULL);
    static const char *const want[] = {"config.requireSecretBoolean(\"flag\")", "config.require_secret_bool(\"flag\")",
                                       "cfg.RequireSecretBool(\"flag\")", "RequireSecretBoolean(\"flag\")"};
    for (size_t i = 0; i < 4; i++) {
        char *s = tu_pcl_emit_ok(&f, ALL[i]);
        tu_has(s, want[i]);
        free(s);
    }
    char *yaml = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(yaml, "secret: true");
    free(yaml);
    unload(&f);
    /* a config attribute cimport does not implement is refused where it is */
    const char *dflt = "config \"flag\" \"bool\" {\n    nullable = true\n}\n";
    diag_list_t d;
    diag_list_init(&d);
    ck_assert_ptr_null(pcl_parse(dflt, strlen(dflt), "main.pp", &d));
    ck_assert_msg(strstr(diag_format(&d, d.head), "main.pp:2:5: config attribute 'nullable' is not supported"), "%s",
                  diag_format(&d, d.head));
    diag_list_free(&d);
}
END_TEST

/* YAML left out a top-level secret() wrapper on every input: an input the schema does not mark
 * secret lost its secrecy. The wrapper is left out only where the schema makes the input secret. */
START_TEST(test_yaml_secret_input_stays_secret) {
    fixture_t f = load("resource \"res\" \"simple:index:Resource\" {\n    value = secret(true)\n}\n", NULL);
    char *y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "    properties:\n      value:\n        fn::secret: true\n");
    free(y);
    unload(&f);
    f = tu_pcl_load(
        "{\"name\":\"sec\",\"version\":\"1.0.0\",\"resources\":{\"sec:index:R\":{"
        "\"inputProperties\":{\"pw\":{\"type\":\"string\",\"secret\":true},"
        "\"name\":{\"type\":\"string\"}}}}}",
        "sec.json",
        "resource \"r\" \"sec:index:R\" {\n    pw = secret(\"hunter2\")\n    name = secret(\"label\")\n}\n");
    y = tu_pcl_emit_ok(&f, LANG_YAML);
    tu_has(y, "    properties:\n      pw: hunter2\n      name:\n        fn::secret: label\n");
    free(y);
    unload(&f);
}
END_TEST

/* Go passed a plain config value (string/bool) where an Input is expected: does not compile. */
START_TEST(test_go_config_values_become_inputs) {
    const char *pcl = "config \"flag\" \"bool\" {}\n"
                      "resource \"res\" \"simple:index:Resource\" {\n    value = flag\n}\n";
    fixture_t f = load(pcl, NULL);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "flag := cfg.RequireBool(\"flag\")");
    tu_has(go, "Value: pulumi.Bool(flag),");
    free(go);
    unload(&f);
}
END_TEST

/* aliases / customTimeouts came out as plain maps (TS rejects `noParent`, Python got dicts). */
START_TEST(test_aliases_and_timeouts_typed) {
    const char *pcl = "resource \"parent\" \"simple:index:Resource\" {\n    value = true\n}\n"
                      "resource \"res\" \"simple:index:Resource\" {\n"
                      "    value = true\n"
                      "    options {\n"
                      "        parent = parent\n"
                      "        aliases = [{noParent = true}, {type = \"component:index:Custom\"}]\n"
                      "        customTimeouts = {\n            create = \"5m\"\n        }\n"
                      "    }\n"
                      "}\n";
    fixture_t f = load(pcl, NULL);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "{parent: pulumi.rootStackResource}");
    tu_has(ts, "{type: \"component:index:Custom\"}");
    lacks(ts, "noParent");
    tu_has(ts, "customTimeouts: {\n        create: \"5m\",\n    },");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py,
           "aliases=[\n        pulumi.Alias(parent=None),\n        pulumi.Alias(type_=\"component:index:Custom\"),\n  "
           "  ]");
    tu_has(py, "custom_timeouts=pulumi.CustomTimeouts(create=\"5m\")");
    lacks(py, "noParent");
    free(ts);
    free(py);
    unload(&f);
    /* a misspelt alias or timeout field is refused, not passed on */
    const char *bad = "resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
                      "        customTimeouts = {\n            craete = \"5m\"\n        }\n    }\n}\n";
    f = load(bad, NULL);
    for (size_t i = 0; i < 6; i++)
        tu_pcl_emit_refused(&f, ALL[i], "main.pp:4:9", "craete");
    unload(&f);
}
END_TEST

/* A resource used before its declaration must still be declared first in the code. */
START_TEST(test_dependency_order) {
    const char *pcl = "resource \"res2\" \"simple:index:Resource\" {\n    value = res1.value\n}\n"
                      "resource \"res1\" \"simple:index:Resource\" {\n    value = true\n}\n";
    fixture_t f = load(pcl, NULL);
    static const char *const first[][2] = {{"const res1", "const res2"}, {"res1 = simple", "res2 = simple"},
                                           {"res1, err :=", "\"res2\""}, {"var res1", "var res2"},
                                           {"var res1", "var res2"},     {"  res1:", "  res2:"}};
    for (size_t i = 0; i < 6; i++) {
        char *s = tu_pcl_emit_ok(&f, ALL[i]);
        const char *a = strstr(s, first[i][0]), *b = strstr(s, first[i][1]);
        ck_assert_msg(a && b && a < b, "%s: res1 not before res2:\n%s", lang_name(ALL[i]), s);
        free(s);
    }
    /* the PCL itself is printed as written */
    char *pp = tu_pcl_emit_ok(&f, LANG_PCL);
    ck_assert(strstr(pp, "res2") < strstr(pp, "res1"));
    free(pp);
    unload(&f);
    const char *cycle = "resource \"a\" \"simple:index:Resource\" {\n    value = b.value\n}\n"
                        "resource \"b\" \"simple:index:Resource\" {\n    value = a.value\n}\n";
    f = load(cycle, NULL);
    /* named where each is declared: the refusal said "'b' and 'a' depend on each other", no position */
    for (size_t i = 0; i < 6; i++)
        tu_pcl_emit_refused(&f, ALL[i], "main.pp:4:1: resource 'b' and resource 'a' (main.pp:1:1) depend on each other",
                            NULL);
    unload(&f);
}
END_TEST

/* `options { range = n }` produced one resource instead of n. */
START_TEST(test_range_refused) {
    const char *pcl =
        "resource \"res\" \"simple:index:Resource\" {\n    value = true\n    options {\n        range = 3\n    }\n}\n";
    fixture_t f = load(pcl, NULL);
    for (size_t i = 0; i < 6; i++)
        tu_pcl_emit_refused(&f, ALL[i], "main.pp:4:9", "'range'");
    unload(&f);
}
END_TEST

/* A local component in a PCL program converted to YAML: Pulumi YAML cannot declare it, and the program
 * written without it (its children at the stack's root) would create other resources than the PCL
 * does, so conversion refuses it, inputs or not. (An import's generated program, which has no file,
 * still leaves it out with a warning: test_emit_ts_py_yaml's test_components.) */
START_TEST(test_yaml_component_refused) {
    fixture_t f = load("component alone {\n    token = \"my:custom:Component\"\n}\n"
                       "resource \"r\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
                       "        parent = alone\n    }\n}\n",
                       NULL);
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:1:1: component 'alone'",
                        "Pulumi YAML has no local components, so the component and the parent option of its "
                        "children cannot be written in YAML");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    free(ts);
    unload(&f);
}
END_TEST

/* l1-component-sourceless: the component's inputs were dropped (and YAML came out empty). */
START_TEST(test_component_inputs) {
    const char *pcl = "component myComponent {\n    token = \"my:custom:Component\"\n    aNumber = 42\n"
                      "    aString = \"hello\"\n}\n";
    fixture_t f = load(pcl, NULL);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts,
           "new pulumi.ComponentResource(\"my:custom:Component\", \"myComponent\", {\n    aNumber: 42,\n    aString: "
           "\"hello\",\n})");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "pulumi.ComponentResource(\"my:custom:Component\", \"myComponent\", {\"aNumber\": 42, \"aString\": "
               "\"hello\"})");
    free(ts);
    free(py);
    /* C#: the SDK's DictionaryResourceArgs (the ResourceArgs of a dynamic shape) of the inputs */
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "using System.Collections.Immutable;\n");
    tu_has(cs, "    var myComponent = new ComponentResource(\"my:custom:Component\", \"myComponent\", new "
               "DictionaryResourceArgs(new Dictionary<string, object?>\n    {\n        [\"aNumber\"] = 42,\n"
               "        [\"aString\"] = \"hello\",\n    }.ToImmutableDictionary()));\n");
    free(cs);
    for (size_t i = 4; i < 6; i++)
        tu_pcl_emit_refused(&f, ALL[i], "main.pp:3:5", "inputs ('aNumber'");
    /* Java: pulumi-java's program generator writes no component block, and its SDK's ResourceArgs
     * are classes of @Import fields (no dictionary form): a limit of Pulumi Java, said as one */
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:5: component 'myComponent'",
                        "a local component's inputs ('aNumber', ...) have no form in Pulumi's Java generator");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:5",
                        "pulumi-java's program generator writes no component block (pulumi-java #1100, open");
    /* a component's inputs are a limit of the language, not of the YAML emitter */
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:3:5: component 'myComponent'",
                        "Pulumi YAML has no local components, so the inputs ('aNumber', ...)");
    unload(&f);
    /* Go: RegisterComponentResourceV2 with a pulumi.Map of the inputs, as Pulumi writes it; a toJSON()
     * marshalled before the statement, its error returned; the component's ResourceState declared by
     * its name first (`c := &pulumi.ResourceState{}`), read or not, as Pulumi writes it */
    f = load("component myComponent {\n    token = \"my:custom:Component\"\n    aNumber = 42\n"
             "    aJson = toJSON({\n        key = \"value\"\n    })\n}\n"
             "resource \"r\" \"simple:index:Resource\" {\n    value = true\n    options {\n"
             "        parent = myComponent\n    }\n}\n",
             NULL);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\"encoding/json\"\n");
    tu_has(go, "\t\ttmpJSON0, err := marshalJSON(map[string]string{\n\t\t\t\"key\": \"value\",\n\t\t})\n"
               "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\tjson0 := string(tmpJSON0)\n"
               "\t\tmyComponent := &pulumi.ResourceState{}\n"
               "\t\terr = ctx.RegisterComponentResourceV2(\"my:custom:Component\", \"myComponent\", pulumi.Map{\n"
               "\t\t\t\"aNumber\": pulumi.Any(42),\n\t\t\t\"aJson\":   pulumi.Any(json0),\n\t\t}, myComponent)\n");
    tu_has(go, "}, pulumi.Parent(myComponent))\n");
    free(go);
    unload(&f);
    /* C#: DictionaryResourceArgs checks its values' types (strings, numbers, booleans, assets, JSON,
     * immutable collections, outputs of them): a list or map, written as an array or Dictionary, it
     * would reject */
    f = load("component c {\n    token = \"my:custom:Component\"\n    tags = [\"a\"]\n}\n", NULL);
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:3:5",
                        "a component's input 'tags' that is not a string, number or bool");
    unload(&f);
    f = load("component alone {\n    token = \"my:custom:Component\"\n}\n", NULL);
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\talone := &pulumi.ResourceState{}\n"
               "\t\terr := ctx.RegisterComponentResource(\"my:custom:Component\", \"alone\", alone)\n");
    free(go);
    unload(&f);
    /* toJSON over outputs in Go: json.Marshal in an apply of them, its error returned with the
     * function's zero value; a local map literal over outputs (a pulumi.Map, an Input) applied
     * through its Output, whose value is a map[string]interface{} */
    f = load("resource \"r\" \"simple:index:Resource\" {\n    value = true\n}\n"
             "output \"j\" {\n    value = toJSON({v = r.value})\n}\n"
             "local = {\n    a = r.value\n    b = \"x\"\n}\noutput \"k\" {\n    value = toJSON(local)\n}\n",
             NULL);
    go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\tctx.Export(\"j\", r.Value.ApplyT(func(value bool) (string, error) {\n"
               "\t\t\ttmpJSON0, err := marshalJSON(map[string]bool{\n\t\t\t\t\"v\": value,\n\t\t\t})\n"
               "\t\t\tif err != nil {\n\t\t\t\treturn \"\", err\n\t\t\t}\n\t\t\tjson0 := string(tmpJSON0)\n"
               "\t\t\treturn json0, nil\n\t\t}).(pulumi.StringOutput))\n");
    tu_has(go, "\t\tctx.Export(\"k\", local.ToMapOutput().ApplyT(func(local map[string]interface{}) (string, error) {\n"
               "\t\t\ttmpJSON1, err := marshalJSON(local)\n");
    free(go);
    unload(&f);
    /* a local map of outputs read with its values' own types: Go's Output of it holds interface{}
     * values (it wrote ApplyT on the pulumi.Map, which has none, with a map[string]bool parameter) */
    f = load("resource \"r\" \"simple:index:Resource\" {\n    value = true\n}\n"
             "flags = {\n    a = r.value\n}\n"
             "resource \"s\" \"simple:index:Resource\" {\n    value = flags[\"a\"]\n}\n",
             NULL);
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:8:13: resource 's'", "a local list or map of outputs");
    unload(&f);
}
END_TEST

/* A schema with an empty Node.js package name (real gcp, snowflake schemas) imported `from ""`. */
START_TEST(test_ts_import_fallback) {
    fixture_t f =
        load(OPTIONS_PCL, "\"language\":{\"nodejs\":{\"packageName\":\"\"},\"python\":{\"packageName\":\"\"}},");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "import * as simple from \"@pulumi/simple\";");
    lacks(ts, "from \"\"");
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "import pulumi_simple as simple");
    free(ts);
    free(py);
    unload(&f);
}
END_TEST

/* Go SDK import paths follow Pulumi's rule: <root>/sdk/go/v<major>/<name>. */
START_TEST(test_go_module_path) {
    fixture_t f = load(OPTIONS_PCL, NULL);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\"example.com/pulumi-simple/sdk/go/v2/simple\"");
    free(go);
    unload(&f);
}
END_TEST

/* Functions an emitter cannot translate were written as nil/null with a warning (Go, C#, Java).
 * A name that is no PCL function is refused by the binder, and by every emitter given the program
 * unbound. */
START_TEST(test_unknown_function_refused) {
    const char *pcl = "resource \"res\" \"simple:index:Resource\" {\n    value = notAFunction(true)\n}\n";
    diag_list_t d;
    diag_list_init(&d);
    fixture_t f = {.set = schema_set_new(), .p = pcl_parse(pcl, strlen(pcl), "main.pp", &d)};
    ck_assert_ptr_nonnull(f.p);
    ck_assert(!pcl_bind(f.p, f.set, &d));
    ck_assert_str_eq(diag_format(&d, d.head),
                     "main.pp:2:13: 'value' calls notAFunction(), which is not a PCL function; check its spelling");
    diag_list_free(&d);
    for (size_t i = 0; i < 6; i++)
        tu_pcl_emit_refused(&f, ALL[i], "main.pp:2:13", "notAFunction()"); /* the call's own position */
    unload(&f);
    const char *undeclared = "resource \"res\" \"simple:index:Resource\" {\n    value = nowhere.value\n}\n";
    f = load(undeclared, NULL);
    for (size_t i = 0; i < 6; i++)
        tu_pcl_emit_refused(&f, ALL[i], "main.pp:2:13", "'nowhere'");
    unload(&f);
}
END_TEST

/* Stack outputs are exported under their logical name; where a TS export cannot be (it must be
 * a free identifier) the program is an async main function returning the outputs. A NUL in a string would truncate it:
 * refused. */
START_TEST(test_outputs_and_strings) {
    const char *pcl = "resource \"res\" \"simple:index:Resource\" {\n    value = true\n}\n"
                      "output lexical {\n    __logicalName = \"my-output\"\n    value = res.value\n}\n";
    fixture_t f = load(pcl, NULL);
    static const char *const want[] = {NULL,
                                       "pulumi.export(\"my-output\", res.value)",
                                       "ctx.Export(\"my-output\", res.Value)",
                                       "[\"my-output\"] = res.Value,",
                                       "ctx.export(\"my-output\", res.value())",
                                       "outputs:\n  my-output: ${res.value}\n"};
    for (size_t i = 1; i < 6; i++) {
        char *s = tu_pcl_emit_ok(&f, ALL[i]);
        tu_has(s, want[i]);
        free(s);
    }
    /* TypeScript, as Pulumi: an async main function returns it under its name */
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export = async () => {\n    const res = new simple.Resource(\"res\", {value: true});\n"
               "    return {\n        \"my-output\": res.value,\n    };\n}\n");
    free(ts);
    unload(&f);
}
END_TEST

/* A string (an ID, a string local) where the schema wants a boolean or a number is converted as
 * Pulumi's generators convert it (l2-id-type): through an apply for an output, directly for a plain
 * value. It used to be refused in every language; the ones that do not convert yet still refuse. */
START_TEST(test_string_where_bool_wanted) {
    const char *pcl = "s = \"true\"\n"
                      "resource \"a\" \"simple:index:Resource\" {\n    value = true\n}\n"
                      "resource \"b\" \"simple:index:Resource\" {\n    value = s\n}\n"
                      "resource \"c\" \"simple:index:Resource\" {\n    value = a.id\n}\n";
    fixture_t f = load(pcl, NULL);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "{value: s === \"true\"}");
    tu_has(ts, "{value: a.id.apply(x => x === \"true\")}");
    free(ts);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "value=s == \"true\")");
    tu_has(py, "value=a.id.apply(lambda x: x == \"true\"))");
    free(py);
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:6:13", "'value' gives a string where the schema wants a boolean");
    unload(&f);
}
END_TEST

/* A property read below an optional output (`a.data.s`, data not required) is
 * Output<T | undefined> in TypeScript: read in an apply with optional chaining, as Pulumi does
 * (l2-primitive-ref-optional); it used to be refused. Inside an interpolation it still is. */
START_TEST(test_read_below_optional_output) {
    const char *schema = "{\"name\":\"opt\",\"version\":\"1.0.0\",\"resources\":{\"opt:index:Res\":{"
                         "\"properties\":{\"data\":{\"$ref\":\"#/types/opt:index:Data\"}},"
                         "\"inputProperties\":{\"data\":{\"$ref\":\"#/types/opt:index:Data\"}}}},"
                         "\"types\":{\"opt:index:Data\":{\"type\":\"object\",\"properties\":{\"s\":{\"type\":"
                         "\"string\"}}}}}";
    const char *pcl = "resource \"a\" \"opt:index:Res\" {\n    data = { s = \"x\" }\n}\n"
                      "resource \"b\" \"opt:index:Res\" {\n    data = { s = a.data.s }\n}\n";
    tu_pcl_t f = tu_pcl_load(schema, "opt.json", pcl);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "s: a.data.apply(data => data?.s!),");
    free(ts);
    tu_pcl_unload(&f);
    f = tu_pcl_load(schema, "opt.json",
                    "resource \"a\" \"opt:index:Res\" {\n    data = { s = \"x\" }\n}\n"
                    "output \"o\" {\n    value = \"v-${a.data.s}\"\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT,
                        "'a.data.s' reads below the optional output 'data' inside an interpolation", NULL);
    tu_pcl_unload(&f);
}
END_TEST

/* Java: a resource's optional output is an Output<Optional<T>> (pulumi-java's getters), and so is
 * what is read below one; an input wants an Output<T>. It was passed as it is (did not compile);
 * now it is unwrapped, `.orElse(null)` in an apply, and a conditional over it compares the value
 * with null (l2-resource-optional), where it was refused. */
START_TEST(test_java_optional_outputs) {
    const char *schema = "{\"name\":\"opt\",\"version\":\"1.0.0\",\"resources\":{\"opt:index:Res\":{"
                         "\"properties\":{\"data\":{\"$ref\":\"#/types/opt:index:Data\"},"
                         "\"flag\":{\"type\":\"boolean\"},\"name\":{\"type\":\"string\"},"
                         "\"req\":{\"$ref\":\"#/types/opt:index:Data\"}},\"required\":[\"name\",\"req\"],"
                         "\"inputProperties\":{\"data\":{\"$ref\":\"#/types/opt:index:Data\"},"
                         "\"flag\":{\"type\":\"boolean\"},\"name\":{\"type\":\"string\"}}}},"
                         "\"types\":{\"opt:index:Data\":{\"type\":\"object\",\"properties\":{\"s\":{\"type\":"
                         "\"string\"},\"r\":{\"type\":\"string\"}},\"required\":[\"r\"]}}}";
    const char *pcl = "resource \"a\" \"opt:index:Res\" {\n    name = \"x\"\n}\n"
                      "resource \"b\" \"opt:index:Res\" {\n    name = a.name\n    flag = a.flag\n"
                      "    data = { s = a.data.s, r = a.data.r }\n}\n"
                      "output \"isSet\" {\n    value = a.flag == null ? \"null\" : \"not null\"\n}\n"
                      "output \"isUnset\" {\n    value = a.flag != null\n}\n"
                      "output \"below\" {\n    value = a.req.s == null ? \"null\" : \"set\"\n}\n";
    tu_pcl_t f = tu_pcl_load(schema, "opt.json", pcl);
    char *java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "            .name(a.name())\n            .flag(a.flag().applyValue(v -> v.orElse(null)))\n");
    tu_has(java, ".s(a.data().applyValue(v -> v.flatMap(x -> x.s()).orElse(null)))\n");
    tu_has(java, ".r(a.data().applyValue(v -> v.map(x -> x.r()).orElse(null)))\n");
    tu_has(java, "ctx.export(\"isSet\", a.flag().applyValue(v -> v.orElse(null)).applyValue(_flag -> _flag == null ? "
                 "\"null\" : \"not null\"));\n");
    tu_has(java, "ctx.export(\"isUnset\", a.flag().applyValue(v -> v.orElse(null)).applyValue(_flag -> _flag != "
                 "null));\n");
    /* below a required output, compared with null (l2-primitive-ref-optional) */
    tu_has(java, "ctx.export(\"below\", a.req().applyValue(_req -> _req.s().orElse(null) == null ? \"null\" : "
                 "\"set\"));\n");
    free(java);
    tu_pcl_unload(&f);
    /* other operators over an optional output: null would fail the unboxing */
    f = tu_pcl_load(schema, "opt.json",
                    "resource \"a\" \"opt:index:Res\" {\n    name = \"x\"\n}\n"
                    "output \"neg\" {\n    value = !a.flag\n}\n");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:5:13", "uses the operator '!'");
    tu_pcl_unload(&f);
    /* the lambdas' parameters (v, x) may not shadow a variable of the program: v2, x2 */
    f = tu_pcl_load(schema, "opt.json",
                    "resource \"x\" \"opt:index:Res\" {\n    name = \"x\"\n}\n"
                    "resource \"v\" \"opt:index:Res\" {\n    name = \"v\"\n    flag = x.flag\n}\n");
    java = tu_pcl_emit_ok(&f, LANG_JAVA);
    tu_has(java, "        var x2 = new Res(\"x\", ResArgs.builder()\n");
    tu_has(java, "        var v2 = new Res(\"v\", ResArgs.builder()\n            .name(\"v\")\n"
                 "            .flag(x2.flag().applyValue(v -> v.orElse(null)))\n");
    free(java);
    tu_pcl_unload(&f);
}
END_TEST

/* A method whose result is plain (a provider, a number, a plain object): the Node.js SDK returns a
 * Promise of it, so TypeScript awaits it in an async main function, as Pulumi does
 * (l2-component-call-plain); it used to be refused. */
START_TEST(test_plain_method_awaited) {
    char *schema = tu_read(SOURCE_DIR "/tests/fixtures/conformance/schemas/configurer-38.0.0.json", NULL);
    ck_assert_ptr_nonnull(schema);
    tu_pcl_t f =
        tu_pcl_load(schema, "configurer.json",
                    "resource \"c\" \"configurer:index:Configurer\" {\n    providerConfig = \"p\"\n}\n"
                    "resource \"x\" \"configurer:index:Custom\" {\n    value = \"v\"\n"
                    "    options {\n        provider = call(c, \"nestedPlainProvider\", {}).provider\n    }\n}\n"
                    "output \"n\" {\n    value = call(c, \"plainValue\", {})\n}\n");
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "export = async () => {\n");
    tu_has(ts, "provider: (await c.nestedPlainProvider()).provider,");
    tu_has(ts, "n: (await c.plainValue()),");
    free(ts);
    tu_pcl_unload(&f);
    free(schema);
}
END_TEST

/* Python's can() and try(): plain values through the helpers; over an output inside an apply on
 * its value, where a missing key raises in the helper's lambda (a lifted read would fail the whole
 * output instead). A local holding secret(config object) is a dict inside an apply too: `s["a"]`,
 * never the attribute `s.a`, which raises on a dict (an interpolation used to write it). */
START_TEST(test_python_can_try) {
    fixture_t f = load("config \"obj\" {}\ns = secret(obj)\n"
                       "output \"a\" {\n    value = can(obj.a)\n}\n"
                       "output \"b\" {\n    value = can(s.a)\n}\n"
                       "output \"c\" {\n    value = try(s.b, \"x\")\n}\n"
                       "output \"d\" {\n    value = \"v-${s.a}\"\n}\n",
                       NULL);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "def can_(fn):\n    try:\n        fn()\n        return True\n    except Exception:\n");
    tu_has(py, "    raise Exception(\"try: all parameters failed\")\n");
    tu_has(py, "pulumi.export(\"a\", pulumi.Output.from_input(can_(lambda: obj[\"a\"])))\n");
    tu_has(py, "pulumi.export(\"b\", pulumi.Output.from_input(s).apply(lambda s: can_(lambda: s[\"a\"])))\n");
    tu_has(py, "apply(lambda s: try_(lambda: s[\"b\"], lambda: \"x\")))\n");
    tu_has(py, "apply(lambda s: \"\".join([\"v-\", format_value(s[\"a\"])])))\n");
    free(py);
    unload(&f);
}
END_TEST

/* An apply's parameter named after its output took the name of a module the code imports for a
 * built-in function (read18 F13): `lambda base64: base64.b64decode(base64.encode())` (AttributeError at
 * `pulumi up`), Go `func(base64 string) … base64.StdEncoding` (does not compile). */
START_TEST(test_apply_parameter_keeps_modules) {
    const char *schema = "{\"name\":\"bb\",\"version\":\"1.0.0\",\"resources\":{\"bb:index:Res\":{\"properties\":{"
                         "\"base64\":{\"type\":\"string\"},\"json\":{\"type\":\"string\"},\"hashlib\":{\"type\":"
                         "\"string\"},\"strings\":{\"type\":\"string\"},\"hex\":{\"type\":\"string\"}},\"required\":"
                         "[\"base64\",\"json\",\"hashlib\",\"strings\",\"hex\"],\"inputProperties\":{\"s\":{\"type\":"
                         "\"string\"}}}}}";
    const char *pcl = "resource \"r\" \"bb:index:Res\" {\n}\n"
                      "output \"a\" {\n    value = fromBase64(r.base64)\n}\n"
                      "output \"b\" {\n    value = toJSON([r.json])\n}\n"
                      "output \"c\" {\n    value = sha1(r.hashlib)\n}\n"
                      "output \"d\" {\n    value = split(\",\", r.strings)\n}\n"
                      "output \"e\" {\n    value = sha1(r.hex)\n}\n";
    fixture_t f = tu_pcl_load(schema, "bb.json", pcl);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    lacks(py, "lambda base64:");
    lacks(py, "lambda json:");
    lacks(py, "lambda hashlib:");
    tu_has(py, "base64.b64decode(");
    free(py);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    lacks(go, "func(base64 string)");
    lacks(go, "func(json string)");
    lacks(go, "func(strings string)");
    lacks(go, "func(hex string)");
    tu_has(go, "base64.StdEncoding");
    free(go);
    unload(&f);
}
END_TEST

/* "\u0000" in a string (value, map key, template, multi-line text) is written with each language's
 * escape: never dropped, never cut short at the NUL, never a raw or invalid byte in the output. */
START_TEST(test_nul_in_strings) {
    const char *pcl = "resource \"res\" \"simple:index:Resource\" {\n    value = true\n}\n"
                      "output plain {\n    value = \"a\\u0000b\"\n}\n"
                      "output key {\n    value = { \"k\\u0000\" = \"v\" }\n}\n"
                      "output tmpl {\n    value = \"x${res.value}\\u0000y\"\n}\n"
                      "output lines {\n    value = \"l1\\nl2\\u0000\\nl3\"\n}\n";
    fixture_t f = load(pcl, NULL);
    static const lang_t langs[] = {LANG_PCL, LANG_TYPESCRIPT, LANG_PYTHON, LANG_GO, LANG_CSHARP, LANG_JAVA, LANG_YAML};
    static const char *const nul[] = {"\\u0000", "\\x00", "\\x00", "\\x00", "\\u0000", "\\000", "\\x00"};
    for (size_t i = 0; i < sizeof langs / sizeof *langs; i++) {
        char *s = tu_pcl_emit_ok(&f, langs[i]);
        size_t bad = 0;
        ck_assert_msg(utf8_valid(s, strlen(s), &bad), "lang %d: invalid UTF-8 at %zu:\n%s", (int)langs[i], bad, s);
        char want[32];
        snprintf(want, sizeof want, "a%sb", nul[i]);
        tu_has(s, want);
        snprintf(want, sizeof want, "k%s", nul[i]);
        tu_has(s, want);
        snprintf(want, sizeof want, "l2%s", nul[i]);
        tu_has(s, want);
        snprintf(want, sizeof want, "%sy", nul[i]);
        tu_has(s, want);
        free(s);
    }
    unload(&f);
    /* gofmt aligns a map's values by characters, not bytes: "ä" is two bytes and one column */
    f = load("output m {\n    value = { \"\u00e4\" = \"x\", \"bb\" = \"y\" }\n}\n", NULL);
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\t\t\"\xc3\xa4\":  pulumi.String(\"x\"),\n\t\t\t\"bb\": pulumi.String(\"y\"),\n");
    free(go);
    unload(&f);
    /* a PCL file is UTF-8: a stray byte is refused at its place, not copied into the code */
    tu_pcl_parse_fails("output o {\n    value = \"a\xff\"\n}\n", "main.pp:2:15: the program is not valid UTF-8");
    tu_pcl_parse_fails("output o {\n    value = \"a\xc0\x80\"\n}\n", "main.pp:2:15: the program is not valid UTF-8");
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("pcl_silent_wrong");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_go_keeps_resource_options);
    tcase_add_test(tc, test_unsupported_options_refused);
    tcase_add_test(tc, test_yaml_replacement_trigger_env_var_mappings);
    tcase_add_test(tc, test_property_name_lists_are_strings);
    tcase_add_test(tc, test_options_cs_java);
    tcase_add_test(tc, test_secret_config_stays_secret);
    tcase_add_test(tc, test_yaml_secret_input_stays_secret);
    tcase_add_test(tc, test_go_config_values_become_inputs);
    tcase_add_test(tc, test_aliases_and_timeouts_typed);
    tcase_add_test(tc, test_dependency_order);
    tcase_add_test(tc, test_range_refused);
    tcase_add_test(tc, test_component_inputs);
    tcase_add_test(tc, test_yaml_component_refused);
    tcase_add_test(tc, test_ts_import_fallback);
    tcase_add_test(tc, test_go_module_path);
    tcase_add_test(tc, test_unknown_function_refused);
    tcase_add_test(tc, test_outputs_and_strings);
    tcase_add_test(tc, test_nul_in_strings);
    tcase_add_test(tc, test_string_where_bool_wanted);
    tcase_add_test(tc, test_read_below_optional_output);
    tcase_add_test(tc, test_java_optional_outputs);
    tcase_add_test(tc, test_custom_timeouts_cs_java);
    tcase_add_test(tc, test_string_output_conversion_cs_java);
    tcase_add_test(tc, test_cs_optional_value_output);
    tcase_add_test(tc, test_object_output_to_input);
    tcase_add_test(tc, test_plain_method_awaited);
    tcase_add_test(tc, test_python_can_try);
    tcase_add_test(tc, test_apply_parameter_keeps_modules);
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

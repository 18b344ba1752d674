/* test_pcl_hooks.c — PCL's `hook` blocks (issue 18): resource hooks and error hooks that run a
 * command, bound to resources with the `hooks` option, written by the TypeScript and Python
 * emitters as Pulumi's generators write them (pulumi.ResourceHook / ErrorHook over
 * child_process.execFileSync / subprocess.run) — and refused, with the construct and its position,
 * wherever they cannot be written with their meaning. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitters/emit.h"
#include "pcl/pcl.h"
#include "specs/schema.h"
#include "testutil.h"

static const char *SCHEMA = "{\"name\":\"hk\",\"version\":\"1.0.0\",\"resources\":{\"hk:index:Res\":{"
                            "\"properties\":{\"value\":{\"type\":\"boolean\"},\"text\":{\"type\":\"string\"}},"
                            "\"required\":[\"value\",\"text\"],"
                            "\"inputProperties\":{\"value\":{\"type\":\"boolean\"}}}}}";

static tu_pcl_t load(const char *pcl) {
    return tu_pcl_load(SCHEMA, "hk.json", pcl);
}

static const char *PROGRAM = "config file \"string\" {}\n"
                             "config count \"int\" {}\n"
                             "hook resource \"create\" {\n"
                             "    command = [\"touch\", file, count]\n"
                             "}\n"
                             "hook resource \"preview\" {\n"
                             "    command = [\"touch\", \"${file}_${args.name}\"]\n"
                             "    onDryRun = true\n"
                             "    ignoreErrors = true\n"
                             "}\n"
                             "hook error \"retry\" {\n"
                             "    command = [\"true\"]\n"
                             "}\n"
                             "resource \"res\" \"hk:index:Res\" {\n"
                             "    value = true\n"
                             "    options {\n"
                             "        hooks = {\n"
                             "            beforeCreate = [create, preview]\n"
                             "            onError = [retry]\n"
                             "        }\n"
                             "    }\n"
                             "}\n";

/* Each hook is declared before the resource that binds it; its command runs without a shell, a
 * number converted to a string; an error hook retries when its command succeeds. */
START_TEST(test_hooks_typescript) {
    tu_pcl_t f = load(PROGRAM);
    char *ts = tu_pcl_emit_ok(&f, LANG_TYPESCRIPT);
    tu_has(ts, "import * as child_process from \"child_process\";\n");
    tu_has(ts, "const create = new pulumi.ResourceHook(\"create\", (args) => {\n"
               "    child_process.execFileSync(\"touch\", [file, String(count)]);\n"
               "});\n");
    tu_has(ts, "const preview = new pulumi.ResourceHook(\"preview\", (args) => {\n"
               "    child_process.execFileSync(\"touch\", [`${file}_${args.name}`]);\n"
               "}, {onDryRun: true, ignoreErrors: true});\n");
    tu_has(ts, "const retry = new pulumi.ErrorHook(\"retry\", (args) => {\n"
               "    try {\n"
               "        child_process.execFileSync(\"true\", []);\n"
               "        return true;\n"
               "    } catch (error) {\n"
               "        return false;\n"
               "    }\n"
               "});\n");
    tu_has(ts, "const res = new hk.Res(\"res\", {value: true}, {\n"
               "    hooks: {\n"
               "        beforeCreate: [create, preview],\n"
               "        onError: [retry],\n"
               "    },\n"
               "});\n");
    ck_assert(strstr(ts, "const retry") < strstr(ts, "const res"));
    free(ts);
    tu_pcl_unload(&f);
}
END_TEST

START_TEST(test_hooks_python) {
    tu_pcl_t f = load(PROGRAM);
    char *py = tu_pcl_emit_ok(&f, LANG_PYTHON);
    tu_has(py, "import subprocess\n");
    tu_has(py, "def _create(args):\n"
               "    subprocess.run([\"touch\", file, str(count)], check=True)\n"
               "create = pulumi.ResourceHook(\"create\", _create)\n");
    tu_has(py, "def _preview(args):\n"
               "    subprocess.run([\"touch\", f\"{file}_{args.name}\"], check=True)\n"
               "preview = pulumi.ResourceHook(\"preview\", _preview, "
               "opts=pulumi.ResourceHookOptions(on_dry_run=True, ignore_errors=True))\n");
    tu_has(py, "def _retry(args):\n"
               "    result = subprocess.run([\"true\"], check=False)\n"
               "    return result.returncode == 0\n"
               "retry = pulumi.ErrorHook(\"retry\", _retry)\n");
    tu_has(py, "opts = pulumi.ResourceOptions(hooks=pulumi.ResourceHookBinding(before_create=[create, preview], "
               "on_error=[retry])))\n");
    free(py);
    tu_pcl_unload(&f);
}
END_TEST

/* Go registers each hook with the context (ctx.RegisterResourceHook / RegisterErrorHook) as Pulumi's
 * Go generator writes it: the command run with os/exec, `args` the hook's arguments, the options a
 * ResourceHookOptions; an error hook retries when its command succeeds; the binding a
 * ResourceHookBinding of []*pulumi.ResourceHook and []*pulumi.ErrorHook; notImplemented() panics. */
START_TEST(test_hooks_go) {
    tu_pcl_t f = load("config file \"string\" {}\n"
                      "hook resource \"create\" {\n    command = [\"touch\", file]\n}\n"
                      "hook resource \"preview\" {\n    command = [\"touch\", \"${file}_${args.name}\"]\n"
                      "    onDryRun = true\n    ignoreErrors = true\n}\n"
                      "hook error \"retry\" {\n    command = [\"true\"]\n}\n"
                      "hook resource \"todo\" {\n    command = [notImplemented(\"later\")]\n}\n"
                      "resource \"res\" \"hk:index:Res\" {\n    value = true\n    options {\n        hooks = {\n"
                      "            beforeCreate = [create, preview]\n            onError = [retry]\n"
                      "            afterDelete = [todo]\n        }\n    }\n}\n");
    char *go = tu_pcl_emit_ok(&f, LANG_GO);
    tu_has(go, "\t\"fmt\"\n\t\"os/exec\"\n");
    tu_has(go, "func notImplemented(message string) any {\n\tpanic(message)\n}\n");
    tu_has(go, "\t\tcreate, err := ctx.RegisterResourceHook(\"create\", func(args *pulumi.ResourceHookArgs) error {\n"
               "\t\t\treturn exec.Command(\"touch\", file).Run()\n\t\t}, nil)\n\t\tif err != nil {\n");
    tu_has(go, "\t\tpreview, err := ctx.RegisterResourceHook(\"preview\", func(args *pulumi.ResourceHookArgs) error {\n"
               "\t\t\treturn exec.Command(\"touch\", fmt.Sprintf(\"%v_%v\", file, args.Name)).Run()\n"
               "\t\t}, &pulumi.ResourceHookOptions{OnDryRun: true, IgnoreErrors: true})\n");
    tu_has(go, "\t\tretry, err := ctx.RegisterErrorHook(\"retry\", func(args *pulumi.ErrorHookArgs) (bool, error) {\n"
               "\t\t\treturn exec.Command(\"true\").Run() == nil, nil\n\t\t})\n");
    tu_has(go, "\t\t\treturn exec.Command(notImplemented(\"later\").(string)).Run()\n");
    tu_has(go,
           "}, pulumi.ResourceHooks(&pulumi.ResourceHookBinding{BeforeCreate: []*pulumi.ResourceHook{create, preview}, "
           "OnError: []*pulumi.ErrorHook{retry}, AfterDelete: []*pulumi.ResourceHook{todo}}))\n");
    free(go);
    tu_pcl_unload(&f);
}
END_TEST

/* C# constructs each hook as Pulumi's .NET generator writes it: a ResourceHook (an ErrorHook that
 * retries when its command succeeds) whose function runs the command with Process.Start (no shell),
 * `args` the hook's arguments, its options a ResourceHookOptions; the binding a ResourceHookBinding. */
START_TEST(test_hooks_csharp) {
    tu_pcl_t f = load("config file \"string\" {}\n"
                      "hook resource \"create\" {\n    command = [\"touch\", file]\n}\n"
                      "hook resource \"preview\" {\n    command = [\"touch\", \"${file}_${args.name}\"]\n"
                      "    onDryRun = true\n    ignoreErrors = true\n}\n"
                      "hook error \"retry\" {\n    command = [\"true\"]\n}\n"
                      "hook resource \"todo\" {\n    command = [notImplemented(\"later\")]\n}\n"
                      "resource \"res\" \"hk:index:Res\" {\n    value = true\n    options {\n        hooks = {\n"
                      "            beforeCreate = [create, preview]\n            onError = [retry]\n"
                      "        }\n    }\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    /* notImplemented(): Pulumi's .NET helper (an object it never returns: it throws), cast to the
     * string Process.Start takes */
    tu_has(cs, "using Hk = Pulumi.Hk;\n\nobject NotImplemented(string errorMessage)\n{\n"
               "    throw new System.NotImplementedException(errorMessage);\n}\n");
    tu_has(cs, "        var process = Process.Start((string)NotImplemented(\"later\"));\n");
    tu_has(cs, "using System;\nusing System.Collections.Generic;\nusing System.Diagnostics;\nusing System.Linq;\n"
               "using System.Threading.Tasks;\nusing Pulumi;\n");
    tu_has(cs, "    var create = new ResourceHook(\"create\", (args, cancellationToken) =>\n    {\n"
               "        var process = Process.Start(\"touch\", new[] { file });\n        process.WaitForExit();\n"
               "        if (process.ExitCode != 0)\n        {\n"
               "            throw new Exception($\"Hook command exited with code {process.ExitCode}.\");\n        }\n"
               "        return Task.CompletedTask;\n    });\n");
    tu_has(cs, "Process.Start(\"touch\", new[] { $\"{file}_{args.Name}\" });\n");
    tu_has(cs,
           "    }, new ResourceHookOptions\n    {\n        OnDryRun = true,\n        IgnoreErrors = true,\n    });\n");
    tu_has(cs, "    var retry = new ErrorHook(\"retry\", (args, cancellationToken) =>\n    {\n        try\n        {\n"
               "            var process = Process.Start(\"true\");\n            process.WaitForExit();\n"
               "            return Task.FromResult(process.ExitCode == 0);\n        }\n        catch\n        {\n"
               "            return Task.FromResult(false);\n        }\n    });\n");
    tu_has(cs, "        Hooks = new ResourceHookBinding\n        {\n            BeforeCreate = { create, preview },\n"
               "            OnError = { retry },\n        },\n");
    free(cs);
    tu_pcl_unload(&f);
}
END_TEST

/* The hook block prints back as PCL. */
START_TEST(test_hooks_print) {
    tu_pcl_t f = load(PROGRAM);
    char *pcl = pcl_print(f.p);
    tu_has(pcl, "hook resource preview {\n    command = [\"touch\", \"${file}_${args.name}\"]\n    onDryRun = true\n");
    tu_has(pcl, "hook error retry {\n    command = [\"true\"]\n}\n");
    free(pcl);
    tu_pcl_unload(&f);
}
END_TEST

/* Languages without hooks, and hooks that cannot be written with their meaning, are refused with
 * their position. */
START_TEST(test_hooks_refused) {
    tu_pcl_t f = load(PROGRAM);
    /* Pulumi Java has no resource hooks (Pulumi's documentation of the hooks option) */
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:3:1: hook 'create'", "Pulumi Java has no resource hooks");
    tu_pcl_emit_refused(&f, LANG_JAVA, "main.pp:17:9: resource 'res'", "Pulumi Java has no resource hooks");
    /* a hook runs program code; a YAML program has none to run */
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:3:1: hook 'create'", "Pulumi YAML has no resource hooks");
    tu_pcl_emit_refused(&f, LANG_YAML, "main.pp:17:9: resource 'res'", "Pulumi YAML has no resource hooks");
    /* C#'s Process.Start takes strings: an int config value is not converted */
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:4:5: hook 'create'", "a hook's command of strings only");
    /* Go's exec.Command takes strings: an int config value is not converted */
    tu_pcl_emit_refused(&f, LANG_GO, "main.pp:4:31: hook 'create'", "a hook's command word that is not a string");
    tu_pcl_unload(&f);

    /* C#: notImplemented() (an object) where a typed value is wanted */
    f = load("resource \"res\" \"hk:index:Res\" {\n    value = notImplemented(\"v\")\n}\n"
             "output \"o\" {\n    value = notImplemented(\"o\")\n}\n");
    tu_pcl_emit_refused(&f, LANG_CSHARP, "main.pp:2:13: resource 'res'",
                        "calls notImplemented() where C# wants a typed");
    tu_pcl_unload(&f);
    f = load("output \"o\" {\n    value = notImplemented(\"o\")\n}\n");
    char *cs = tu_pcl_emit_ok(&f, LANG_CSHARP);
    tu_has(cs, "        [\"o\"] = NotImplemented(\"o\"),\n");
    free(cs);
    tu_pcl_unload(&f);

    /* an output is an Output object, not the string the command wants */
    f = load("resource \"res\" \"hk:index:Res\" {\n    value = true\n}\n"
             "hook resource \"h\" {\n    command = [\"echo\", res.text]\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:5:24: hook 'h'", "reads the output 'res.text'");
    tu_pcl_emit_refused(&f, LANG_PYTHON, "main.pp:5:24", "reads the output 'res.text'");
    tu_pcl_unload(&f);

    /* the inputs and outputs the hook gets are maps spelled differently by each SDK */
    f = load("hook resource \"h\" {\n    command = [\"echo\", args.newInputs]\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:2:24", "reads 'args.newInputs'");
    tu_pcl_unload(&f);

    /* an error hook at a resource step, a resource hook at onError, a name that is no hook */
    f = load("hook error \"e\" {\n    command = [\"true\"]\n}\n"
             "hook resource \"h\" {\n    command = [\"true\"]\n}\n"
             "resource \"res\" \"hk:index:Res\" {\n    value = true\n"
             "    options {\n        hooks = {\n            afterCreate = [e]\n        }\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:11:28", "hooks.afterCreate: item 1 must name a resource hook");
    tu_pcl_unload(&f);
    f = load("hook resource \"h\" {\n    command = [\"true\"]\n}\n"
             "resource \"res\" \"hk:index:Res\" {\n    value = true\n"
             "    options {\n        hooks = {\n            onError = [h]\n            afterSave = [h]\n"
             "        }\n    }\n}\n");
    tu_pcl_emit_refused(&f, LANG_PYTHON, "must name an error hook", NULL);
    tu_pcl_emit_refused(&f, LANG_PYTHON, "hooks has the unknown field 'afterSave'", NULL);
    tu_pcl_unload(&f);

    /* a command that is not a list */
    f = load("hook resource \"h\" {\n    command = \"touch file\"\n}\n");
    tu_pcl_emit_refused(&f, LANG_TYPESCRIPT, "main.pp:2:5", "a hook's command must be a list");
    tu_pcl_unload(&f);
}
END_TEST

START_TEST(test_hooks_parse_errors) {
    tu_pcl_parse_fails("hook before \"h\" {\n    command = [\"x\"]\n}\n", "main.pp:1:6: unknown hook kind 'before'");
    tu_pcl_parse_fails("hook resource \"h\" {\n    onDryRun = true\n}\n",
                       "main.pp:1:1: hook 'h' has no command attribute");
    tu_pcl_parse_fails("hook resource \"h\" {\n    command = [\"x\"]\n    shell = true\n}\n",
                       "main.pp:3:5: hook attribute 'shell' is not supported");
    tu_pcl_parse_fails("hook error \"h\" {\n    command = [\"x\"]\n    onDryRun = true\n}\n",
                       "main.pp:3:5: error hook attribute 'onDryRun' is not supported");
}
END_TEST

int main(void) {
    Suite *s = suite_create("pcl_hooks");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_hooks_typescript);
    tcase_add_test(tc, test_hooks_python);
    tcase_add_test(tc, test_hooks_print);
    tcase_add_test(tc, test_hooks_go);
    tcase_add_test(tc, test_hooks_csharp);
    tcase_add_test(tc, test_hooks_refused);
    tcase_add_test(tc, test_hooks_parse_errors);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

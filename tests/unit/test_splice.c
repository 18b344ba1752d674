/* test_splice.c — splicing generated programs into existing ones (splice/splice.h) and review
 * diffs (splice/review.h).
 *
 * Fixtures in tests/fixtures/splice: a generated program per language (gen.*, in the emitters'
 * style) and user programs of every shape (top level, `export = async`, `export default`, Go named
 * run function, C# RunAsync and Stack class, Java method and Pulumi.run lambda, YAML with and
 * without `resources:`). Every result must re-parse without errors, keep the file's style (tabs,
 * CRLF, BOM, final newline), type-check/format where a real tool exists (tsc against tests/peers,
 * gofmt, py_compile), and a second identical run must change nothing. Bad input must be refused
 * with the exact message and leave files byte-identical. */
#include <check.h>
#include <glob.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "cli/cli.h"
#include "emitters/ts_check.h"
#include "splice/review.h"
#include "splice/splice.h"
#include "testutil.h"

static char *fixture(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fixtures/splice/%s", SOURCE_DIR, name);
    char *t = tu_read(path, NULL);
    ck_assert_msg(t != NULL, "missing fixture %s", path);
    return t;
}

static size_t count(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Splices and checks what every successful splice must satisfy: the result parses cleanly, and
 * splicing the same generated program into the result changes nothing. */
static char *splice_ok(const char *target, lang_t lang, const char *gen, const char *name, splice_stats_t *st) {
    splicer_t *s = splicer_new();
    diag_list_t d;
    diag_list_init(&d);
    splice_options_t o = {.filename = name};
    char *out = NULL;
    size_t out_len = 0;
    bool changed = false;
    splice_stats_t local;
    bool ok = splicer_splice(s, target, strlen(target), lang, gen, strlen(gen), &o, &out, &out_len, &changed,
                             st ? st : &local, &d);
    ck_assert_msg(ok, "splice into %s failed: %s", name, d.head ? diag_format(&d, d.head) : "?");
    ck_assert_uint_eq(out_len, strlen(out));
    ck_assert_uint_eq(ts_check_buffer(lang, out, out_len, name, &d), 0);
    /* idempotent */
    char *again = NULL;
    bool changed2 = true;
    splice_stats_t st2;
    ck_assert(splicer_splice(s, out, out_len, lang, gen, strlen(gen), &o, &again, NULL, &changed2, &st2, &d));
    ck_assert_msg(!changed2, "second splice into %s changed it:\n%s", name, again);
    ck_assert_str_eq(again, out);
    ck_assert_uint_eq(st2.inserted, 0);
    ck_assert_uint_eq(st2.imports_added, 0);
    free(again);
    diag_list_free(&d);
    splicer_free(s);
    return out;
}

/* Expects refusal; returns the first message formatted ("file:line: message"), malloc'd. */
static char *splice_fail(const char *target, size_t len, lang_t lang, const char *gen, const char *name) {
    diag_list_t d;
    diag_list_init(&d);
    splice_options_t o = {.filename = name};
    char *out = (char *)1;
    bool changed = true;
    splicer_t *s = splicer_new();
    bool ok = splicer_splice(s, target, len, lang, gen, strlen(gen), &o, &out, NULL, &changed, NULL, &d);
    splicer_free(s);
    ck_assert_msg(!ok, "splice into %s should have been refused", name);
    ck_assert_ptr_null(out);
    ck_assert(d.errors >= 1);
    char *msg = strdup(diag_format(&d, d.head));
    diag_list_free(&d);
    return msg;
}

static char *to_crlf(const char *s) {
    buf_t b;
    buf_init(&b);
    for (; *s; s++) {
        if (*s == '\n') buf_putc(&b, '\r');
        buf_putc(&b, *s);
    }
    return buf_take(&b);
}

static bool all_crlf(const char *s) {
    for (const char *p = s; *p; p++)
        if (*p == '\n' && (p == s || p[-1] != '\r')) return false;
    return true;
}

/* ---------------------------------------------------------------------------------------------- */

START_TEST(test_typescript_top_level) {
    char *t = fixture("toplevel.ts"), *g = fixture("gen.ts");
    splice_stats_t st;
    char *out = splice_ok(t, LANG_TYPESCRIPT, g, "index.ts", &st);
    /* The existing RandomPassword "password" (imported as rnd) is replaced in place, keeping its
     * variable; the clash with `const password` never arises. */
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_uint_eq(st.inserted, 2); /* the key and the cert; the config reads with them are no resources */
    ck_assert_uint_eq(count(out, "new rnd.RandomPassword(\"password\", {\n    length: 16,\n    special: true,\n});"),
                      1);
    ck_assert_uint_eq(count(out, "RandomPassword(\"password\""), 1);
    ck_assert_uint_eq(count(out, "import * as tls from \"@pulumi/tls\";\n"), 1);
    ck_assert_uint_eq(count(out, "@pulumi/random"), 1); /* no second import of the package */
    ck_assert_ptr_nonnull(strstr(out, "import * as rnd from \"@pulumi/random\";\nimport * as tls"));
    ck_assert_ptr_nonnull(strstr(out, "export const note = password;\nconst myKey = new tls.PrivateKey("));
    ck_assert_ptr_nonnull(strstr(out, "// The team's infrastructure.\n"));
    ck_assert(out[strlen(out) - 1] == '\n');
    free(out);
    free(t);
    free(g);
}
END_TEST

/* A file of 256 KB or more is walked on a thread of its own while the rest is read: what that walk
 * finds must count as in a small file — a name declared anywhere in the file (here inside a function
 * far down) keeps the generated code from taking it, and an existing resource is still replaced. */
START_TEST(test_big_file_walk_on_thread) {
    char *t = fixture("toplevel.ts"), *g = fixture("gen.ts");
    buf_t b;
    buf_init(&b);
    buf_puts(&b, t);
    for (int i = 0; b.len < (size_t)300 * 1024; i++)
        buf_printf(&b, "function pad%d(x: number) { const y%d = x + %d; return y%d; }\n", i, i, i, i);
    buf_puts(&b, "function later() { const myKey = 1; return myKey; }\n");
    char *big = buf_take(&b);
    splice_stats_t st;
    char *out = splice_ok(big, LANG_TYPESCRIPT, g, "index.ts", &st);
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_uint_eq(st.inserted, 2);
    ck_assert_uint_eq(count(out, "new tls.PrivateKey("), 1);
    ck_assert_uint_eq(count(out, "const myKey = new tls.PrivateKey("), 0);
    ck_assert_uint_eq(count(out, "const myKeyPrivateKey = new tls.PrivateKey("), 1);
    ck_assert_uint_eq(count(out, "dependsOn: [myKeyPrivateKey]"), 1);
    ck_assert_ptr_nonnull(strstr(out, "function later() { const myKey = 1; return myKey; }\n"));
    free(out);
    free(big);
    free(t);
    free(g);
}
END_TEST

START_TEST(test_typescript_async_export_tabs) {
    char *t = fixture("async.ts"), *g = fixture("gen.ts");
    splice_stats_t st;
    char *out = splice_ok(t, LANG_TYPESCRIPT, g, "index.ts", &st);
    /* `myKey` is taken in the file: the generated one is named after its type (issue 16: not myKeyPrivateKey),
     * references follow. */
    ck_assert_uint_eq(st.renamed, 1);
    ck_assert_ptr_nonnull(
        strstr(out, "\tconst myKeyPrivateKey = new tls.PrivateKey(\"my-key\", {algorithm: \"RSA\"});\n"));
    ck_assert_ptr_nonnull(strstr(out, "\t\tdependsOn: [myKeyPrivateKey],\n"));
    ck_assert_ptr_nonnull(
        strstr(out, "\tconst password = new random.RandomPassword(\"password\", {\n\t\tlength: 16,\n"));
    /* before the comment that belongs to the return */
    ck_assert_ptr_nonnull(strstr(out, "\t});\n\t// Outputs of the stack.\n\treturn {"));
    ck_assert_ptr_null(strstr(out, "\n    ")); /* no space indentation crept in */
    free(out);
    free(t);
    free(g);
}
END_TEST

START_TEST(test_typescript_export_default) {
    char *t = fixture("default.ts"), *g = fixture("gen.ts");
    char *out = splice_ok(t, LANG_TYPESCRIPT, g, "index.ts", NULL);
    ck_assert_ptr_nonnull(
        strstr(out, "  const k = new tls.PrivateKey(\"other\", { algorithm: \"ECDSA\" });\n  const password = new "));
    ck_assert_ptr_nonnull(strstr(out, "    protect: true,\n  });\n  return { id: k.id };\n}\n"));
    /* sorted into the file's sorted imports */
    ck_assert_ptr_nonnull(
        strstr(out, "\"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\nimport * as tls"));
    free(out);
    free(t);
    free(g);
}
END_TEST

START_TEST(test_javascript_require_and_no_final_newline) {
    const char *t = "\"use strict\";\nconst pulumi = require('@pulumi/pulumi')\nconst x = 1";
    const char *g = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                    "const id = new random.RandomId(\"id\", {byteLength: 8});\n";
    char *out = splice_ok(t, LANG_TYPESCRIPT, g, "index.js", NULL);
    ck_assert_str_eq(out, "\"use strict\";\nconst pulumi = require('@pulumi/pulumi')\n"
                          "const random = require('@pulumi/random')\nconst x = 1\n"
                          "const id = new random.RandomId(\"id\", {byteLength: 8});");
    free(out);
}
END_TEST

START_TEST(test_python_nested_replace_and_indent) {
    char *t = fixture("__main__.py"), *g = fixture("gen.py");
    splice_stats_t st;
    char *out = splice_ok(t, LANG_PYTHON, g, "__main__.py", &st);
    ck_assert_uint_eq(st.replaced, 1);
    /* replaced inside the `if`, with the file's alias for pulumi_random and its 2-space unit */
    ck_assert_ptr_nonnull(strstr(out, "if env == \"prod\":\n  pw = pulumi_random.RandomPassword(\"password\",\n"
                                      "    length=16,\n    special=True)\n  pulumi.export(\"pw\", pw.result)\n"));
    ck_assert_ptr_nonnull(strstr(out, "import pulumi_random\nimport pulumi_tls as tls\n"));
    ck_assert_ptr_nonnull(
        strstr(out, "description = \"\"\"\n    keep this indentation\n\"\"\"\nmy_key = tls.PrivateKey("));
    ck_assert_ptr_nonnull(strstr(out, "  opts = pulumi.ResourceOptions(depends_on=[my_key],\n    protect=True))\n"));
    free(out);
    free(t);
    free(g);
}
END_TEST

START_TEST(test_go_named_run_function) {
    char *t = fixture("main.go"), *g = fixture("gen.go");
    splice_stats_t st;
    char *out = splice_ok(t, LANG_GO, g, "main.go", &st);
    /* "N added" counts the resources the program declares now: three, not the config reads with them
     * (it said 5) */
    ck_assert_uint_eq(st.inserted, 3);
    ck_assert_ptr_nonnull(strstr(out, "import (\n\t\"fmt\"\n\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                                      "\t\"github.com/pulumi/pulumi-tls/sdk/v5/go/tls\"\n"
                                      "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n"
                                      "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config\"\n)\n"));
    /* err is new in the body: the first statement declares it, later ones assign */
    ck_assert_ptr_nonnull(strstr(out, "\t_, err := random.NewRandomPassword(ctx, \"password\""));
    ck_assert_ptr_nonnull(strstr(out, "\tmyKeyPrivateKey, err := tls.NewPrivateKey(ctx, \"my-key\""));
    ck_assert_ptr_nonnull(strstr(out, "\t_, err = tls.NewSelfSignedCert(ctx, \"cert\""));
    ck_assert_ptr_nonnull(
        strstr(out, "\t\tmyKeyPrivateKey,\n\t}), pulumi.Protect(true))\n\tif err != nil {\n\t\treturn err\n\t}\n"
                    "\t// Done.\n\treturn nil\n}\n"));
    free(out);
    free(t);
    free(g);
}
END_TEST

START_TEST(test_go_existing_err_uses_assign) {
    const char *t =
        "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
        "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
        "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
        "\t\tpet, err := random.NewRandomPet(ctx, \"pet\", nil)\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
        "\t\tctx.Export(\"pet\", pet.ID())\n\t\treturn nil\n\t})\n}\n";
    const char *g = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                    "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                    "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                    "\t\t_, err := random.NewRandomId(ctx, \"id\", &random.RandomIdArgs{\n"
                    "\t\t\tByteLength: pulumi.Int(8),\n\t\t})\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
                    "\t\treturn nil\n\t})\n}\n";
    char *out = splice_ok(t, LANG_GO, g, "main.go", NULL);
    ck_assert_ptr_nonnull(
        strstr(out, "\t\tctx.Export(\"pet\", pet.ID())\n\t\t_, err = random.NewRandomId(ctx, \"id\""));
    free(out);
    /* A component is two statements in Go (its state, then its registration): one resource added (the
     * quickstart's five resources said "6 added") */
    const char *gc = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                     "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                     "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                     "\t\tserver := &pulumi.ResourceState{}\n"
                     "\t\terr := ctx.RegisterComponentResource(\"webshop:index:Server\", \"server\", server)\n"
                     "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
                     "\t\t_, err = random.NewRandomId(ctx, \"id\", &random.RandomIdArgs{\n"
                     "\t\t\tByteLength: pulumi.Int(8),\n\t\t}, pulumi.Parent(server))\n\t\tif err != nil {\n"
                     "\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    splice_stats_t st;
    out = splice_ok(t, LANG_GO, gc, "main.go", &st);
    ck_assert_ptr_nonnull(strstr(out, "server := &pulumi.ResourceState{}"));
    ck_assert_uint_eq(st.inserted, 2);
    free(out);
}
END_TEST

/* A Go component the user registered (their state variable, their statement's shape) is replaced in
 * its call only: the user's state variable stays (`Parent(web)`, as C# and TypeScript keep theirs),
 * cimport's `server := &pulumi.ResourceState{}` is not added. The registration was replaced as a
 * whole statement with `server` in it, `web` left unused (Go: does not build); and an
 * `if err := ctx.RegisterComponentResource(...); err != nil` was taken as the error check of the
 * statement before it, so that statement (`srv := &Server{}`) was dropped, the replacement declared
 * `srv := ctx.Register...` and cimport's err became srv everywhere. Exit 0 both times. */
START_TEST(test_go_user_component_replaced) {
    const char *head = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\n"
                       "type Server struct {\n\tpulumi.ResourceState\n}\n\nfunc main() {\n"
                       "\tpulumi.Run(func(ctx *pulumi.Context) error {\n";
    const char *tail = "\t\tctx.Export(\"x\", pulumi.String(\"y\"))\n\t\treturn nil\n\t})\n}\n";
    const char *a_body = "\t\tweb := &Server{}\n"
                         "\t\terr := ctx.RegisterComponentResource(\"webshop:index:Server\", \"server\", web)\n"
                         "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n";
    const char *b_body = "\t\tsrv := &Server{}\n"
                         "\t\tif err := ctx.RegisterComponentResource(\"webshop:index:Server\", \"server\", srv); "
                         "err != nil {\n\t\t\treturn err\n\t\t}\n";
    const char *g = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                    "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                    "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                    "\t\tserver := &pulumi.ResourceState{}\n"
                    "\t\terr := ctx.RegisterComponentResource(\"webshop:index:Server\", \"server\", server, "
                    "pulumi.Protect(true))\n"
                    "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
                    "\t\t_, err = random.NewRandomId(ctx, \"id\", &random.RandomIdArgs{\n"
                    "\t\t\tByteLength: pulumi.Int(8),\n\t\t}, pulumi.Parent(server))\n\t\tif err != nil {\n"
                    "\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    char ta[1024], tb[1024];
    snprintf(ta, sizeof ta, "%s%s%s", head, a_body, tail);
    snprintf(tb, sizeof tb, "%s%s%s", head, b_body, tail);
    splice_stats_t st;
    char *out = splice_ok(ta, LANG_GO, g, "main.go", &st);
    ck_assert_msg(strstr(out,
                         "\t\tweb := &Server{}\n\t\terr := ctx.RegisterComponentResource(\"webshop:index:Server\", "
                         "\"server\", web, pulumi.Protect(true))\n\t\tif err != nil {\n") != NULL,
                  "%s", out);
    ck_assert_ptr_null(strstr(out, "ResourceState{}"));
    ck_assert_ptr_null(strstr(out, "\"server\", server"));
    ck_assert_ptr_nonnull(strstr(out, "}, pulumi.Parent(web))\n"));
    ck_assert_uint_eq(count(out, "RegisterComponentResource("), 1);
    ck_assert_uint_eq(st.inserted, 1);
    ck_assert_uint_eq(st.replaced, 1);
    free(out);
    out = splice_ok(tb, LANG_GO, g, "main.go", &st);
    ck_assert_msg(strstr(out,
                         "\t\tsrv := &Server{}\n\t\tif err := ctx.RegisterComponentResource(\"webshop:index:Server\", "
                         "\"server\", srv, pulumi.Protect(true)); err != nil {\n\t\t\treturn err\n\t\t}\n") != NULL,
                  "%s", out);
    ck_assert_ptr_null(strstr(out, "ResourceState{}"));
    ck_assert_ptr_nonnull(strstr(out, "\t\t_, err := random.NewRandomId(ctx, \"id\""));
    ck_assert_ptr_nonnull(strstr(out, "}, pulumi.Parent(srv))\n"));
    ck_assert_uint_eq(count(out, "srv :="), 1);
    ck_assert_uint_eq(count(out, "RegisterComponentResource("), 1);
    ck_assert_uint_eq(st.inserted, 1);
    ck_assert_uint_eq(st.replaced, 1);
    free(out);
    /* Registered in a function of its own: its state variable is not in scope where the children go
     * (they named `s`, undefined): refused, with the line */
    const char *tc = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\n"
                     "type Server struct {\n\tpulumi.ResourceState\n}\n\n"
                     "func newServer(ctx *pulumi.Context) (*Server, error) {\n\ts := &Server{}\n"
                     "\terr := ctx.RegisterComponentResource(\"webshop:index:Server\", \"server\", s)\n"
                     "\treturn s, err\n}\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                     "\t\t_, err := newServer(ctx)\n\t\treturn err\n\t})\n}\n";
    char *msg = splice_fail(tc, strlen(tc), LANG_GO, g, "main.go");
    ck_assert_msg(strstr(msg, "main.go:13") && strstr(msg, "component 'server'"), "%s", msg);
    free(msg);
}
END_TEST

START_TEST(test_csharp_stack_class_and_run_async) {
    char *t = fixture("MyStack.cs"), *t2 = fixture("Program.cs"), *g = fixture("gen.cs");
    splice_stats_t st;
    char *out = splice_ok(t, LANG_CSHARP, g, "MyStack.cs", &st);
    /* `Random` is a variable in the constructor: the alias of Pulumi.Random is renamed */
    ck_assert_ptr_nonnull(strstr(out, "using Random2 = Pulumi.Random;\n"));
    ck_assert_ptr_nonnull(
        strstr(out, "        var password = new Random2.RandomPassword(\"password\", new()\n        {\n"));
    /* `var config = new Config();` is already there: reused, not duplicated */
    ck_assert_uint_eq(st.reused, 1);
    ck_assert_uint_eq(count(out, "new Config()"), 1);
    ck_assert_ptr_nonnull(strstr(out, "            Protect = true,\n        });\n    }\n\n    [Output]"));
    char *out2 = splice_ok(t2, LANG_CSHARP, g, "Program.cs", NULL);
    ck_assert_ptr_nonnull(strstr(out2, "    var myKeyPrivateKey = new Tls.PrivateKey(\"my-key\", new()"));
    ck_assert_ptr_nonnull(strstr(out2, "    var config = new Config();\n    var certKeyPem = config.RequireSecret("));
    ck_assert_ptr_nonnull(strstr(out2, "    });\n\n    // Export the key name.\n    return new Dictionary"));
    free(out);
    free(out2);
    free(t);
    free(t2);
    free(g);
}
END_TEST

/* The resource options the user wrote on a definition that is replaced are kept (they were all
 * dropped): beside the generated ones, or as written where the new code has none — but an `import`
 * option the new code does not write is cimport's own and goes (the resource is in the stack), and a
 * `parent` it does not give is refused (another URN). */
START_TEST(test_options_kept) {
    const char *gen = "import * as random from \"@pulumi/random\";\n\nconst pet = new random.RandomPet(\"pet\", {\n"
                      "    length: 2,\n});\n";
    const char *t =
        "import * as random from \"@pulumi/random\";\n\nconst pet = new random.RandomPet(\"pet\", { length: "
        "1 }, { import: \"x\", ignoreChanges: [\"length\"] });\n";
    char *out = splice_ok(t, LANG_TYPESCRIPT, gen, "index.ts", NULL);
    ck_assert_str_eq(out, "import * as random from \"@pulumi/random\";\n\nconst pet = new random.RandomPet(\"pet\", "
                          "{\n  length: 2,\n}, { ignoreChanges: [\"length\"] });\n");
    free(out);
    const char *gt = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                     "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                     "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                     "\t\t_, err := random.NewRandomPet(ctx, \"pet\", &random.RandomPetArgs{}%s)\n"
                     "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    char go_gen[1024], go_t[1024];
    snprintf(go_gen, sizeof go_gen, gt, "");
    snprintf(go_t, sizeof go_t, gt, ", pulumi.Import(pulumi.ID(\"x\"))");
    out = splice_ok(go_t, LANG_GO, go_gen, "main.go", NULL);
    ck_assert_str_eq(out, go_gen);
    free(out);
    snprintf(go_t, sizeof go_t, gt, ", pulumi.Import(pulumi.ID(\"x\")), pulumi.RetainOnDelete(true)");
    out = splice_ok(go_t, LANG_GO, go_gen, "main.go", NULL);
    ck_assert_ptr_nonnull(strstr(out, "&random.RandomPetArgs{}, pulumi.RetainOnDelete(true))\n"));
    free(out);
    const char *tp = "import * as random from \"@pulumi/random\";\n\nconst web = new random.RandomId(\"web\", {});\n"
                     "const pet = new random.RandomPet(\"pet\", { length: 1 }, { parent: web });\n";
    char *msg = splice_fail(tp, strlen(tp), LANG_TYPESCRIPT, gen, "index.ts");
    ck_assert_str_eq(msg, "index.ts:4: the resource 'pet' sets the resource option `parent` (`parent: web`), and the "
                          "import gives it no parent (the stack's resource has another URN): nothing was changed; "
                          "import it with its parent, or remove the option and run again");
    free(msg);
    /* a provider the import did not read it with (it read it with the default provider): the code
     * would declare another provider than the stack records (read9c) */
    const char *tv = "import * as random from \"@pulumi/random\";\n\nconst west = new random.Provider(\"west\", {});\n"
                     "const pet = new random.RandomPet(\"pet\", { length: 1 }, { provider: west });\n";
    msg = splice_fail(tv, strlen(tv), LANG_TYPESCRIPT, gen, "index.ts");
    ck_assert_str_eq(msg, "index.ts:4: the resource 'pet' sets the resource option `provider` (`provider: west`), and "
                          "the import read it with the default provider: nothing was changed; give the resource that "
                          "provider in the import file (its `provider`), or remove the option and run again");
    free(msg);
}
END_TEST

/* Python: resource options given positionally (`RandomPet("pet", RandomPetArgs(...),
 * pulumi.ResourceOptions(protect=True))`, or `RandomPet("pet", pulumi.ResourceOptions(...), length=1)`
 * in the keyword form) are the resource's options: they were not seen, so replacing the definition
 * dropped them (protect lost, exit 0). They are kept as `opts=`, merged with the generated ones, and
 * one set otherwise is refused. */
START_TEST(test_python_positional_options_kept) {
    const char *gen = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\", length=2)\n";
    const char *t = "import pulumi\nimport pulumi_random as random\n\n"
                    "pet = random.RandomPet(\"pet\", random.RandomPetArgs(length=1), "
                    "pulumi.ResourceOptions(protect=True))\n";
    char *out = splice_ok(t, LANG_PYTHON, gen, "__main__.py", NULL);
    ck_assert_str_eq(out, "import pulumi\nimport pulumi_random as random\n\n"
                          "pet = random.RandomPet(\"pet\", length=2, opts=pulumi.ResourceOptions(protect=True))\n");
    free(out);
    /* the keyword form's options: the second positional argument */
    const char *t2 = "import pulumi\nimport pulumi_random as random\n\n"
                     "pet = random.RandomPet(\"pet\", pulumi.ResourceOptions(retain_on_delete=True), length=1)\n";
    out = splice_ok(t2, LANG_PYTHON, gen, "__main__.py", NULL);
    ck_assert_str_eq(out, "import pulumi\nimport pulumi_random as random\n\n"
                          "pet = random.RandomPet(\"pet\", length=2, "
                          "opts=pulumi.ResourceOptions(retain_on_delete=True))\n");
    free(out);
    /* merged with the generated options: one `opts=` */
    const char *gen_o = "import pulumi\nimport pulumi_random as random\n\n"
                        "pet = random.RandomPet(\"pet\", length=2, opts = pulumi.ResourceOptions(protect=True))\n";
    const char *t3 = "import pulumi\nimport pulumi_random as random\n\n"
                     "pet = random.RandomPet(\"pet\", random.RandomPetArgs(length=1), "
                     "pulumi.ResourceOptions(protect=True, ignore_changes=[\"length\"]))\n";
    out = splice_ok(t3, LANG_PYTHON, gen_o, "__main__.py", NULL);
    ck_assert_str_eq(out, "import pulumi\nimport pulumi_random as random\n\n"
                          "pet = random.RandomPet(\"pet\", length=2, opts = pulumi.ResourceOptions(protect=True, "
                          "ignore_changes=[\"length\"]))\n");
    ck_assert_uint_eq(count(out, "opts"), 1);
    free(out);
    /* one the import sets otherwise: refused, nothing written */
    const char *t4 = "import pulumi\nimport pulumi_random as random\n\n"
                     "pet = random.RandomPet(\"pet\", random.RandomPetArgs(length=1), "
                     "pulumi.ResourceOptions(protect=False))\n";
    char *msg = splice_fail(t4, strlen(t4), LANG_PYTHON, gen_o, "__main__.py");
    ck_assert_str_eq(msg, "__main__.py:4: the resource 'pet' sets the resource option `protect` (`protect=False`) "
                          "where the import's code has `protect=True`: nothing was changed; import it without "
                          "protect, make the program say `protect=True`, or remove the option, and run again");
    free(msg);
    /* a variable in the options' place: kept as written where the new code has none */
    const char *t5 = "import pulumi\nimport pulumi_random as random\n\nkeep = pulumi.ResourceOptions(protect=True)\n"
                     "pet = random.RandomPet(\"pet\", random.RandomPetArgs(length=1), keep)\n";
    out = splice_ok(t5, LANG_PYTHON, gen, "__main__.py", NULL);
    ck_assert_ptr_nonnull(strstr(out, "pet = random.RandomPet(\"pet\", length=2, opts=keep)\n"));
    free(out);
}
END_TEST

/* A replaced resource written as `return new X(...)` in a function (a helper that makes it) kept its
 * place but lost its `return`: the statement was replaced by the generated `const pet = new X(...)`,
 * so the function returned undefined (TypeScript, C#/Java: no build; Python: None; Go: no build).
 * The call alone is replaced now, in every language; the `return` stays. */
START_TEST(test_returned_resource_keeps_return) {
    const char *ts_gen = "import * as random from \"@pulumi/random\";\n\n"
                         "const pet = new random.RandomPet(\"pet\", {\n    length: 2,\n});\n";
    const char *ts_t = "import * as random from \"@pulumi/random\";\n\nfunction make() {\n"
                       "    return new random.RandomPet(\"pet\", { length: 1 });\n}\nexport const pet = make();\n";
    splice_stats_t st;
    char *out = splice_ok(ts_t, LANG_TYPESCRIPT, ts_gen, "index.ts", &st);
    ck_assert_str_eq(out, "import * as random from \"@pulumi/random\";\n\nfunction make() {\n"
                          "    return new random.RandomPet(\"pet\", {\n        length: 2,\n    });\n}\n"
                          "export const pet = make();\n");
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_uint_eq(st.inserted, 0);
    free(out);
    const char *py_gen = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\", length=2)\n";
    const char *py_t = "import pulumi\nimport pulumi_random as random\n\n\ndef make():\n"
                       "    return random.RandomPet(\"pet\", length=1)\n\n\npet = make()\n";
    out = splice_ok(py_t, LANG_PYTHON, py_gen, "__main__.py", &st);
    ck_assert_str_eq(out, "import pulumi\nimport pulumi_random as random\n\n\ndef make():\n"
                          "    return random.RandomPet(\"pet\", length=2)\n\n\npet = make()\n");
    free(out);
    const char *go_gen = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                         "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                         "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                         "\t\t_, err := random.NewRandomPet(ctx, \"pet\", &random.RandomPetArgs{\n"
                         "\t\t\tLength: pulumi.Int(2),\n\t\t})\n"
                         "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    const char *go_t = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                       "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\n"
                       "func makePet(ctx *pulumi.Context) (*random.RandomPet, error) {\n"
                       "\treturn random.NewRandomPet(ctx, \"pet\", &random.RandomPetArgs{Length: pulumi.Int(1)})\n}\n\n"
                       "func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                       "\t\t_, err := makePet(ctx)\n\t\treturn err\n\t})\n}\n";
    out = splice_ok(go_t, LANG_GO, go_gen, "main.go", &st);
    ck_assert_ptr_nonnull(strstr(out, "func makePet(ctx *pulumi.Context) (*random.RandomPet, error) {\n"
                                      "\treturn random.NewRandomPet(ctx, \"pet\", &random.RandomPetArgs{\n"
                                      "\t\tLength: pulumi.Int(2),\n\t})\n}\n"));
    ck_assert_ptr_nonnull(strstr(out, "\t\t_, err := makePet(ctx)\n\t\treturn err\n\t})\n}\n"));
    ck_assert_uint_eq(st.inserted, 0);
    free(out);
    const char *cs_gen = "using Pulumi;\nusing Random = Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
                         "    var pet = new Random.RandomPet(\"pet\", new()\n    {\n        Length = 2,\n    });\n\n"
                         "});\n";
    const char *cs_t = "using Pulumi;\nusing Random = Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
                       "    Random.RandomPet Make()\n    {\n"
                       "        return new Random.RandomPet(\"pet\", new() { Length = 1 });\n    }\n"
                       "    Make();\n});\n";
    out = splice_ok(cs_t, LANG_CSHARP, cs_gen, "Program.cs", &st);
    ck_assert_ptr_nonnull(strstr(out, "    {\n        return new Random.RandomPet(\"pet\", new()\n        {\n"
                                      "            Length = 2,\n        });\n    }\n"));
    ck_assert_uint_eq(st.inserted, 0);
    free(out);
    const char *java_gen = "package generated_program;\n\nimport com.pulumi.Context;\nimport com.pulumi.Pulumi;\n"
                           "import com.pulumi.random.RandomPet;\nimport com.pulumi.random.RandomPetArgs;\n\n"
                           "public class App {\n    public static void main(String[] args) {\n"
                           "        Pulumi.run(App::stack);\n    }\n\n    public static void stack(Context ctx) {\n"
                           "        var pet = new RandomPet(\"pet\", RandomPetArgs.builder()\n"
                           "            .length(2)\n            .build());\n\n    }\n}\n";
    const char *java_t = "package myproject;\n\nimport com.pulumi.Context;\nimport com.pulumi.Pulumi;\n"
                         "import com.pulumi.random.RandomPet;\nimport com.pulumi.random.RandomPetArgs;\n\n"
                         "public class App {\n    public static void main(String[] args) {\n"
                         "        Pulumi.run(App::stack);\n    }\n\n    static RandomPet make() {\n"
                         "        return new RandomPet(\"pet\", RandomPetArgs.builder().length(1).build());\n    }\n\n"
                         "    public static void stack(Context ctx) {\n        make();\n    }\n}\n";
    out = splice_ok(java_t, LANG_JAVA, java_gen, "App.java", &st);
    ck_assert_ptr_nonnull(strstr(out,
                                 "    static RandomPet make() {\n        return new RandomPet(\"pet\", "
                                 "RandomPetArgs.builder()\n            .length(2)\n            .build());\n    }\n"));
    ck_assert_uint_eq(st.inserted, 0);
    free(out);
    /* the new code names the returned resource elsewhere (a child's parent): it has no variable there */
    const char *ts_gen2 = "import * as random from \"@pulumi/random\";\n\n"
                          "const pet = new random.RandomPet(\"pet\", {});\n"
                          "const id = new random.RandomId(\"id\", {byteLength: 4}, {parent: pet});\n";
    char *msg = splice_fail(ts_t, strlen(ts_t), LANG_TYPESCRIPT, ts_gen2, "index.ts");
    ck_assert_str_eq(msg, "index.ts:4: the resource 'pet' is the value of a `return` statement, and the new code "
                          "names it as a variable: nothing was changed; assign it to a variable in the program's "
                          "body, or import the resources that name it into another file");
    free(msg);
}
END_TEST

/* A replaced resource that is not the whole of its statement lost what the statement did with it: the
 * statement was replaced by the generated `const x = new X(...)`, so `export const x = new X(...)`
 * lost its `export` (a stack output gone at the next `pulumi up`), `export const all = [new X(...)]`
 * became the one resource, and Python's `pulumi.export("p", X(...))` no export at all. The call alone
 * is replaced now and the statement around it stays; where the new code names the resource as a
 * variable the file does not have, it is refused. */
START_TEST(test_wrapped_resource_keeps_statement) {
    const char *ts_gen = "import * as random from \"@pulumi/random\";\n\n"
                         "const pet = new random.RandomPet(\"pet\", {\n    length: 2,\n});\n";
    const char *ts_t = "import * as random from \"@pulumi/random\";\n\n"
                       "export const myPet = new random.RandomPet(\"pet\", { length: 1 });\n";
    splice_stats_t st;
    char *out = splice_ok(ts_t, LANG_TYPESCRIPT, ts_gen, "index.ts", &st);
    ck_assert_str_eq(out, "import * as random from \"@pulumi/random\";\n\n"
                          "export const myPet = new random.RandomPet(\"pet\", {\n  length: 2,\n});\n");
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_uint_eq(st.inserted, 0);
    free(out);
    /* the new code names it: the file's variable stands for it */
    const char *ts_gen2 = "import * as random from \"@pulumi/random\";\n\n"
                          "const pet = new random.RandomPet(\"pet\", {});\n"
                          "const id = new random.RandomId(\"id\", {byteLength: 4}, {parent: pet});\n";
    out = splice_ok(ts_t, LANG_TYPESCRIPT, ts_gen2, "index.ts", &st);
    ck_assert_str_eq(out, "import * as random from \"@pulumi/random\";\n\n"
                          "export const myPet = new random.RandomPet(\"pet\", {});\n"
                          "const id = new random.RandomId(\"id\", {byteLength: 4}, {parent: myPet});\n");
    free(out);
    const char *ts_arr = "import * as random from \"@pulumi/random\";\n\n"
                         "export const all = [new random.RandomPet(\"pet\", { length: 1 })];\n"
                         "module.exports.other = new random.RandomPet(\"other\", {});\n";
    const char *ts_gen3 = "import * as random from \"@pulumi/random\";\n\n"
                          "const pet = new random.RandomPet(\"pet\", {});\n"
                          "const other = new random.RandomPet(\"other\", {length: 3});\n";
    out = splice_ok(ts_arr, LANG_TYPESCRIPT, ts_gen3, "index.ts", &st);
    ck_assert_str_eq(out, "import * as random from \"@pulumi/random\";\n\n"
                          "export const all = [new random.RandomPet(\"pet\", {})];\n"
                          "module.exports.other = new random.RandomPet(\"other\", {length: 3});\n");
    ck_assert_uint_eq(st.replaced, 2);
    free(out);
    /* named by the new code, where the file has no variable for it: refused */
    char *msg = splice_fail(ts_arr, strlen(ts_arr), LANG_TYPESCRIPT, ts_gen2, "index.ts");
    ck_assert_str_eq(msg, "index.ts:3: the resource 'pet' is not the value of a variable of its own in the "
                          "program (`export const all = [new random.RandomPet(...` does more with it), and the new "
                          "code names it as a variable: nothing was changed; assign it to a variable in the "
                          "program's body, or import the resources that name it into another file");
    free(msg);
    const char *py_gen = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\", length=2)\n";
    const char *py_t = "import pulumi\nimport pulumi_random as random\n\n"
                       "pulumi.export(\"p\", random.RandomPet(\"pet\", length=1))\n";
    out = splice_ok(py_t, LANG_PYTHON, py_gen, "__main__.py", &st);
    ck_assert_str_eq(out, "import pulumi\nimport pulumi_random as random\n\n"
                          "pulumi.export(\"p\", random.RandomPet(\"pet\", length=2))\n");
    ck_assert_uint_eq(st.replaced, 1);
    free(out);
    /* a bare expression statement is the resource alone: replaced whole, as before */
    const char *ts_bare =
        "import * as random from \"@pulumi/random\";\n\nnew random.RandomPet(\"pet\", { length: 1 });\n";
    out = splice_ok(ts_bare, LANG_TYPESCRIPT, ts_gen2, "index.ts", &st);
    ck_assert_ptr_nonnull(strstr(out, "\nconst pet = new random.RandomPet(\"pet\", {});\n"));
    free(out);
}
END_TEST

/* A resource whose logical name the file writes otherwise than as a plain leading string literal was
 * no resource to the splicer: importing it again added a second one of the same type and name (one
 * URN twice: `pulumi up` fails), "1 added". Template literals without substitutions, Python's
 * `resource_name=`, Go raw strings, C# verbatim strings and `name:` arguments, escapes, and C#'s
 * `using Pulumi.Random;` + `new RandomPet(...)` or a fully qualified type are read now: replaced. */
START_TEST(test_names_read_as_written) {
    const char *ts_gen = "import * as random from \"@pulumi/random\";\n\n"
                         "const pet = new random.RandomPet(\"pet\", {\n    length: 2,\n});\n";
    const char *ts_t[] = {
        "import * as random from \"@pulumi/random\";\n\nconst pet = new random.RandomPet(`pet`, {length: 3});\n",
        "import * as random from \"@pulumi/random\";\n\nconst pet = new random.RandomPet(\"p\\u0065t\", {length: "
        "3});\n",
        "import * as random from \"@pulumi/random\";\n\nconst pet = new random.RandomPet('p\\x65t', {length: 3});\n",
    };
    splice_stats_t st;
    for (size_t i = 0; i < sizeof ts_t / sizeof ts_t[0]; i++) {
        char *out = splice_ok(ts_t[i], LANG_TYPESCRIPT, ts_gen, "index.ts", &st);
        ck_assert_msg(st.replaced == 1 && st.inserted == 0, "%s", out);
        ck_assert_uint_eq(count(out, "new random.RandomPet("), 1);
        free(out);
    }
    const char *py_gen = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\", length=2)\n";
    const char *py_t = "import pulumi_random as random\n\npet = random.RandomPet(resource_name=\"pet\", length=3)\n";
    char *out = splice_ok(py_t, LANG_PYTHON, py_gen, "__main__.py", &st);
    ck_assert_msg(st.replaced == 1 && st.inserted == 0, "%s", out);
    ck_assert_uint_eq(count(out, "random.RandomPet("), 1);
    free(out);
    const char *go_gen = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                         "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                         "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                         "\t\t_, err := random.NewRandomPet(ctx, \"pet\", &random.RandomPetArgs{\n"
                         "\t\t\tLength: pulumi.Int(2),\n\t\t})\n"
                         "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    const char *go_t = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                       "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                       "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                       "\t\t_, err := random.NewRandomPet(ctx, `pet`, &random.RandomPetArgs{Length: pulumi.Int(3)})\n"
                       "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    out = splice_ok(go_t, LANG_GO, go_gen, "main.go", &st);
    ck_assert_msg(st.replaced == 1 && st.inserted == 0, "%s", out);
    ck_assert_uint_eq(count(out, "random.NewRandomPet("), 1);
    free(out);
    const char *cs_gen = "using Pulumi;\nusing Random = Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
                         "    var pet = new Random.RandomPet(\"pet\", new()\n    {\n        Length = 2,\n    });\n\n"
                         "});\n";
    const char *cs_t[] = {
        "using Pulumi;\nusing Random = Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
        "    var pet = new Random.RandomPet(@\"pet\", new() { Length = 3 });\n});\n",
        "using Pulumi;\nusing Random = Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
        "    var pet = new Random.RandomPet(name: \"pet\", args: new() { Length = 3 });\n});\n",
        "using Pulumi;\nusing Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
        "    var pet = new RandomPet(\"pet\", new() { Length = 3 });\n});\n",
        "using Pulumi;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
        "    var pet = new Pulumi.Random.RandomPet(\"pet\", new() { Length = 3 });\n});\n",
    };
    for (size_t i = 0; i < sizeof cs_t / sizeof cs_t[0]; i++) {
        out = splice_ok(cs_t[i], LANG_CSHARP, cs_gen, "Program.cs", &st);
        ck_assert_msg(st.replaced == 1 && st.inserted == 0, "%s", out);
        ck_assert_uint_eq(count(out, "RandomPet("), 1);
        free(out);
    }
}
END_TEST

/* A resource of the class the import adds, created under a name that cannot be read (a variable, a
 * loop's, a template with a substitution), may be the imported one: adding a second one would give
 * the program two resources of one URN. Refused, naming the line; nothing written. */
START_TEST(test_unreadable_name_refused) {
    const char *ts_gen = "import * as random from \"@pulumi/random\";\n\n"
                         "const pet = new random.RandomPet(\"pet\", {\n    length: 2,\n});\n";
    const char *ts_t = "import * as random from \"@pulumi/random\";\n\nconst n = \"pet\";\n"
                       "const pet = new random.RandomPet(\n    n, {length: 3});\n";
    char *msg = splice_fail(ts_t, strlen(ts_t), LANG_TYPESCRIPT, ts_gen, "index.ts");
    ck_assert_str_eq(msg, "index.ts:4: the program creates a resource here (`new random.RandomPet`) under a name "
                          "cimport cannot read (`n`), and the import adds 'pet' of that type, which may be the same "
                          "resource: nothing was changed; write that name as a string literal, or add the new "
                          "resource's code by hand");
    free(msg);
    const char *ts_t2 = "import * as random from \"@pulumi/random\";\n\n"
                        "for (const n of [\"a\"]) new random.RandomPet(`${n}-pet`, {});\n";
    msg = splice_fail(ts_t2, strlen(ts_t2), LANG_TYPESCRIPT, ts_gen, "index.ts");
    ck_assert_ptr_nonnull(strstr(msg, "index.ts:3: the program creates a resource here (`new random.RandomPet`) "
                                      "under a name cimport cannot read (``${n}-pet``)"));
    free(msg);
    const char *py_gen = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\", length=2)\n";
    const char *py_t =
        "import pulumi_random as random\n\nfor n in [\"a\"]:\n    random.RandomPet(f\"{n}\", length=3)\n";
    msg = splice_fail(py_t, strlen(py_t), LANG_PYTHON, py_gen, "__main__.py");
    ck_assert_ptr_nonnull(strstr(msg, "__main__.py:4: the program creates a resource here (`random.RandomPet`) "
                                      "under a name cimport cannot read (`f\"{n}\"`)"));
    free(msg);
    /* another class, or a class not of the import's package: no matter */
    const char *ts_t3 = "import * as random from \"@pulumi/random\";\n\nconst n = \"x\";\n"
                        "const id = new random.RandomId(n, {byteLength: 4});\nconst m = new Map(n);\n";
    splice_stats_t st;
    char *out = splice_ok(ts_t3, LANG_TYPESCRIPT, ts_gen, "index.ts", &st);
    ck_assert_uint_eq(st.inserted, 1);
    free(out);
}
END_TEST

/* A component written as a class of the program's own (`class Server extends
 * pulumi.ComponentResource`, `new Server("server")`) was no resource to the splicer: the import's
 * component of the same type and name was added beside it as a plain ComponentResource (one URN
 * twice: `pulumi up` fails). Refused now, naming the instance; a class whose type cannot be read
 * counts as possibly the same; another name is no matter. */
START_TEST(test_component_class_refused) {
    const char *ts_gen = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                         "const server = new pulumi.ComponentResource(\"webshop:index:Server\", \"server\", {}, {});\n"
                         "const pet = new random.RandomPet(\"pet\", {}, {\n    parent: server,\n});\n";
    const char *ts_t = "import * as pulumi from \"@pulumi/pulumi\";\n\n"
                       "class Server extends pulumi.ComponentResource {\n"
                       "    constructor(name: string, opts?: pulumi.ComponentResourceOptions) {\n"
                       "        super(\"webshop:index:Server\", name, {}, opts);\n    }\n}\n"
                       "const server = new Server(\"server\");\n";
    char *msg = splice_fail(ts_t, strlen(ts_t), LANG_TYPESCRIPT, ts_gen, "index.ts");
    ck_assert_str_eq(msg, "index.ts:8: the program creates a component here with its class Server (`new "
                          "Server(\"server\")`), of type webshop:index:Server, and the import adds the component "
                          "'server' (webshop:index:Server), which may be the same one: nothing was changed; add the "
                          "new resources' code by hand, with that component as their parent");
    free(msg);
    const char *ts_t2 = "import * as pulumi from \"@pulumi/pulumi\";\n\n"
                        "class Server extends pulumi.ComponentResource {\n"
                        "    constructor(name: string, t: string) {\n        super(t, name, {});\n    }\n}\n"
                        "const server = new Server(\"server\", \"webshop:index:Server\");\n";
    msg = splice_fail(ts_t2, strlen(ts_t2), LANG_TYPESCRIPT, ts_gen, "index.ts");
    ck_assert_msg(strstr(msg, "index.ts:8: the program creates a component here with its class Server") != NULL, "%s",
                  msg);
    ck_assert_ptr_nonnull(strstr(msg, "a component whose type cimport cannot read from its class"));
    free(msg);
    const char *py_gen = "import pulumi\nimport pulumi_random as random\n\n"
                         "server = pulumi.ComponentResource(\"webshop:index:Server\", \"server\")\n"
                         "pet = random.RandomPet(\"pet\", opts=pulumi.ResourceOptions(parent=server))\n";
    const char *py_t = "import pulumi\n\n\nclass Server(pulumi.ComponentResource):\n"
                       "    def __init__(self, name, opts=None):\n"
                       "        super().__init__(\"webshop:index:Server\", name, None, opts)\n\n\n"
                       "server = Server(\"server\")\n";
    msg = splice_fail(py_t, strlen(py_t), LANG_PYTHON, py_gen, "__main__.py");
    ck_assert_ptr_nonnull(strstr(msg, "__main__.py:9: the program creates a component here with its class Server"));
    free(msg);
    /* another component's name: added */
    const char *ts_t3 =
        "import * as pulumi from \"@pulumi/pulumi\";\n\n"
        "class Server extends pulumi.ComponentResource {\n"
        "    constructor(name: string) {\n        super(\"webshop:index:Server\", name, {});\n    }\n}\n"
        "const other = new Server(\"other\");\n";
    splice_stats_t st;
    char *out = splice_ok(ts_t3, LANG_TYPESCRIPT, ts_gen, "index.ts", &st);
    ck_assert_uint_eq(st.inserted, 2);
    free(out);
}
END_TEST

/* The program already imports the object under another name (its `import` option): a second
 * resource importing the same type and ID was added, exit 0 — two Pulumi resources owning one
 * object, where a `pulumi destroy` of either deletes it. Refused naming the program's resource, as
 * an import file and a stack refuse it. */
START_TEST(test_same_import_id_refused) {
    const char *ts_gen = "import * as random from \"@pulumi/random\";\n\n"
                         "const other = new random.RandomPet(\"other\", {\n    length: 2,\n}, {\n"
                         "    import: \"clever-wombat\",\n});\n";
    const char *ts_t =
        "import * as random from \"@pulumi/random\";\n\n"
        "const pet = new random.RandomPet(\"pet\", {length: 2}, {import: 'clever-wombat', protect: true});\n";
    char *msg = splice_fail(ts_t, strlen(ts_t), LANG_TYPESCRIPT, ts_gen, "index.ts");
    ck_assert_str_eq(msg, "index.ts:3: the resource 'other' has the type and ID ('clever-wombat') of 'pet', which the "
                          "program imports already: two resources would manage one object (a `pulumi destroy` of "
                          "either deletes it): nothing was changed; import it under that name, or remove that "
                          "resource from the program first");
    free(msg);
    /* another ID, or another type: added */
    const char *ts_t2 = "import * as random from \"@pulumi/random\";\n\n"
                        "const pet = new random.RandomPet(\"pet\", {length: 2}, {import: \"brave-otter\"});\n"
                        "const id = new random.RandomId(\"id\", {byteLength: 2}, {import: \"clever-wombat\"});\n";
    splice_stats_t st;
    char *out = splice_ok(ts_t2, LANG_TYPESCRIPT, ts_gen, "index.ts", &st);
    ck_assert_uint_eq(st.inserted, 1);
    free(out);
    /* several of the file's resources with that ID: the first of the type is named, in the file's order */
    const char *ts_t3 = "import * as random from \"@pulumi/random\";\n\n"
                        "const id = new random.RandomId(\"id\", {byteLength: 2}, {import: \"clever-wombat\"});\n"
                        "const a = new random.RandomPet(\"a\", {length: 2}, {import: \"brave-otter\"});\n"
                        "const b = new random.RandomPet(\"b\", {length: 2}, {import: \"clever-wombat\"});\n"
                        "const c = new random.RandomPet(\"c\", {length: 2}, {import: \"clever-wombat\"});\n";
    msg = splice_fail(ts_t3, strlen(ts_t3), LANG_TYPESCRIPT, ts_gen, "index.ts");
    ck_assert_msg(strstr(msg, "index.ts:5: the resource 'other' has the type and ID ('clever-wombat') of 'b'") != NULL,
                  "%s", msg);
    free(msg);
    const char *py_gen =
        "import pulumi\nimport pulumi_random as random\n\n"
        "other = random.RandomPet(\"other\", length=2, opts=pulumi.ResourceOptions(import_=\"clever-wombat\"))\n";
    const char *py_t = "import pulumi\nimport pulumi_random as random\n\n"
                       "pet = random.RandomPet(\"pet\", opts=pulumi.ResourceOptions(import_=\"clever-wombat\"))\n";
    msg = splice_fail(py_t, strlen(py_t), LANG_PYTHON, py_gen, "__main__.py");
    ck_assert_ptr_nonnull(
        strstr(msg, "__main__.py:4: the resource 'other' has the type and ID ('clever-wombat') of 'pet'"));
    free(msg);
    const char *y_gen = "resources:\n  other:\n    type: random:RandomPet\n    properties:\n      length: 2\n"
                        "    options:\n      import: clever-wombat\n";
    const char *y_t = "name: shop\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomPet\n"
                      "    options:\n      import: \"clever-wombat\"\n";
    msg = splice_fail(y_t, strlen(y_t), LANG_YAML, y_gen, "Pulumi.yaml");
    ck_assert_msg(strstr(msg, "Pulumi.yaml:4: the resource 'other' has the type and ID ('clever-wombat') of 'pet'") !=
                      NULL,
                  "%s", msg);
    free(msg);
    /* read18 F16: the file's resource under an explicit provider the import's does not have (another
     * account's object may have that ID; the engine keys objects by provider): added. Under the same
     * provider (as written) on both sides: refused still. */
    const char *ts_tp =
        "import * as random from \"@pulumi/random\";\n\n"
        "const prod = new random.Provider(\"prod\", {});\n"
        "const pet = new random.RandomPet(\"pet\", {length: 2}, {provider: prod, import: \"clever-wombat\"});\n";
    out = splice_ok(ts_tp, LANG_TYPESCRIPT, ts_gen, "index.ts", &st);
    ck_assert_uint_eq(st.inserted, 1);
    free(out);
    const char *ts_genp = "import * as random from \"@pulumi/random\";\n\n"
                          "const other = new random.RandomPet(\"other\", {\n    length: 2,\n}, {\n"
                          "    provider: prod,\n    import: \"clever-wombat\",\n});\n";
    msg = splice_fail(ts_tp, strlen(ts_tp), LANG_TYPESCRIPT, ts_genp, "index.ts");
    ck_assert_msg(strstr(msg, "index.ts:4: the resource 'other' has the type and ID ('clever-wombat') of 'pet'") !=
                      NULL,
                  "%s", msg);
    free(msg);
    const char *y_tp = "name: shop\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomPet\n"
                       "    options:\n      provider: ${prod}\n      import: \"clever-wombat\"\n";
    out = splice_ok(y_tp, LANG_YAML, y_gen, "Pulumi.yaml", &st);
    ck_assert_uint_eq(st.inserted, 1);
    free(out);
}
END_TEST

/* Keeping the file's resources (keep_existing) added the import's beside one of the same type and
 * logical name: one URN twice, so `pulumi up` fails before it imports anything. Refused now; a
 * resource under a parent of its own is another URN and is still added. */
START_TEST(test_keep_existing_same_urn_refused) {
    const char *ts_gen = "import * as random from \"@pulumi/random\";\n\n"
                         "const pet = new random.RandomPet(\"pet\", {\n    length: 2,\n});\n";
    const char *ts_t =
        "import * as random from \"@pulumi/random\";\n\nconst pet = new random.RandomPet(\"pet\", {length: 3});\n";
    splice_options_t o = {.filename = "index.ts", .keep_existing = true};
    diag_list_t d;
    diag_list_init(&d);
    char *out = NULL;
    bool changed = false;
    splicer_t *s = splicer_new();
    bool ok = splicer_splice(s, ts_t, strlen(ts_t), LANG_TYPESCRIPT, ts_gen, strlen(ts_gen), &o, &out, NULL, &changed,
                             NULL, &d);
    ck_assert_msg(!ok, "%s", out ? out : "");
    ck_assert_str_eq(diag_format(&d, d.head),
                     "index.ts:3: the resource 'pet' has the type and logical name of this one, and is to be added "
                     "beside it (the program's resources are kept): one URN twice, which `pulumi up` refuses: nothing "
                     "was changed; import it under another name, or let it replace this one");
    diag_list_free(&d);
    diag_list_init(&d);
    const char *y_gen = "resources:\n  pet:\n    type: random:RandomPet\n    properties:\n      length: 2\n";
    const char *y_t = "name: shop\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomPet\n";
    o.filename = "Pulumi.yaml";
    ok = splicer_splice(s, y_t, strlen(y_t), LANG_YAML, y_gen, strlen(y_gen), &o, &out, NULL, &changed, NULL, &d);
    ck_assert(!ok);
    ck_assert_ptr_nonnull(
        strstr(diag_format(&d, d.head), "Pulumi.yaml:4: the resource 'pet' has the type and logical name of this one"));
    diag_list_free(&d);
    /* under a parent of its own: another URN, added */
    diag_list_init(&d);
    const char *ts_t2 = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                        "const c = new pulumi.ComponentResource(\"x:index:C\", \"c\");\n"
                        "const pet = new random.RandomPet(\"pet\", {length: 3}, {parent: c});\n";
    o.filename = "index.ts";
    ok = splicer_splice(s, ts_t2, strlen(ts_t2), LANG_TYPESCRIPT, ts_gen, strlen(ts_gen), &o, &out, NULL, &changed,
                        NULL, &d);
    ck_assert_msg(ok, "%s", d.head ? diag_format(&d, d.head) : "");
    ck_assert_uint_eq(count(out, "new random.RandomPet("), 2);
    free(out);
    diag_list_free(&d);
    splicer_free(s);
}
END_TEST

/* Options passed through a spread (`new X("pet", ...rest)`, Python `X("pet", **kw)`) were dropped
 * when the resource was replaced: refused now, as a named options variable is. */
START_TEST(test_spread_options_refused) {
    const char *ts_gen = "import * as random from \"@pulumi/random\";\n\n"
                         "const pet = new random.RandomPet(\"pet\", {\n    length: 2,\n}, {\n    protect: true,\n});\n";
    const char *ts_t = "import * as random from \"@pulumi/random\";\n\n"
                       "const rest: [any, any] = [{length: 3}, {retainOnDelete: true}];\n"
                       "const pet = new random.RandomPet(\"pet\", ...rest);\n";
    char *msg = splice_fail(ts_t, strlen(ts_t), LANG_TYPESCRIPT, ts_gen, "index.ts");
    ck_assert_str_eq(msg, "index.ts:4: the resource 'pet' has resource options cimport cannot merge with the import's "
                          "one by one (`...rest`): nothing was changed, so they are not dropped; write them as a list "
                          "of options, or import the resource into another file");
    free(msg);
    const char *py_gen = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\", length=2)\n";
    const char *py_t = "import pulumi_random as random\n\nkw = {}\npet = random.RandomPet(\"pet\", **kw)\n";
    msg = splice_fail(py_t, strlen(py_t), LANG_PYTHON, py_gen, "__main__.py");
    ck_assert_str_eq(msg, "__main__.py:4: the resource 'pet' has resource options cimport cannot merge with the "
                          "import's one by one (`**kw`): nothing was changed, so they are not dropped; write them as a "
                          "list of options, or import the resource into another file");
    free(msg);
}
END_TEST

/* YAML: replacing a resource whose value holds an anchor (`properties: &p`) that another resource
 * aliases (`*p`) dropped the anchor: the program no longer loaded ("found undefined alias"), exit 0.
 * Refused now, naming both; and a result with an alias that names no anchor is never handed back. */
START_TEST(test_yaml_anchor_kept_or_refused) {
    const char *g = "resources:\n  pet:\n    type: random:RandomPet\n    properties:\n      length: 2\n";
    const char *t = "name: shop\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomPet\n"
                    "    properties: &petprops\n      length: 3\n  other:\n    type: random:RandomPet\n"
                    "    properties: *petprops\n";
    char *msg = splice_fail(t, strlen(t), LANG_YAML, g, "Pulumi.yaml");
    ck_assert_str_eq(msg, "Pulumi.yaml:6: the resource 'pet' defines the anchor `&petprops`, which `*petprops` at line "
                          "10 uses, and its new definition has no place for it: nothing was changed; write the aliased "
                          "value out where it is used, and run again");
    free(msg);
    /* an anchor nothing else uses: replaced */
    const char *t2 = "name: shop\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomPet\n"
                     "    properties: &petprops\n      length: 3\n";
    splice_stats_t st;
    char *out = splice_ok(t2, LANG_YAML, g, "Pulumi.yaml", &st);
    ck_assert_uint_eq(st.replaced, 1);
    free(out);
}
END_TEST

/* YAML: a .yaml file that is no Pulumi YAML program (a stack's configuration file, a Kubernetes
 * manifest) got a `resources:` section, exit 0, and the promise that `pulumi up` imports it — which
 * never reads it. Refused now. */
START_TEST(test_yaml_not_a_program_refused) {
    const char *g = "resources:\n  pet:\n    type: random:RandomPet\n";
    const char *cfg = "config:\n  shop:region: eu\n";
    char *msg = splice_fail(cfg, strlen(cfg), LANG_YAML, g, "dir/Pulumi.dev.yaml");
    ck_assert_str_eq(msg, "dir/Pulumi.dev.yaml: this is a stack's configuration file, which Pulumi reads for "
                          "configuration only: resources written here declare nothing; insert into the project's "
                          "program (Pulumi.yaml, or Main.yaml in the directory its `main` names)");
    free(msg);
    const char *cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n";
    msg = splice_fail(cm, strlen(cm), LANG_YAML, g, "cm.yaml");
    ck_assert_str_eq(msg, "cm.yaml:1: the top-level key `apiVersion` is not one of a Pulumi YAML program's (name, "
                          "runtime, config, variables, resources, outputs, ...): Pulumi does not run this file; insert "
                          "into the project's program (Pulumi.yaml, or Main.yaml in the directory its `main` names)");
    free(msg);
}
END_TEST

/* Go: the program body ends `_, err := NewX(...)` then `return err`: the new code went between them, and
 * its own `err =` overwrote the first one's error — a failed NewX returned nil (read11 F12). The error is
 * returned before the new code now (`if err != nil { return err }`), which is what `return err` did. */
START_TEST(test_go_return_err_kept) {
    const char *go_gen = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                         "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                         "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                         "\t\t_, err := random.NewRandomId(ctx, \"id\", &random.RandomIdArgs{\n"
                         "\t\t\tByteLength: pulumi.Int(4),\n\t\t})\n"
                         "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    const char *go_t = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
                       "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
                       "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
                       "\t\t_, err := random.NewRandomPet(ctx, \"pet\", nil)\n\t\treturn err\n\t})\n}\n";
    char *out = splice_ok(go_t, LANG_GO, go_gen, "main.go", NULL);
    ck_assert_msg(strstr(out, "\t\t_, err := random.NewRandomPet(ctx, \"pet\", nil)\n"
                              "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
                              "\t\t_, err = random.NewRandomId(ctx, \"id\", &random.RandomIdArgs{\n") != NULL,
                  "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn err\n\t})\n}\n"));
    free(out);
    /* `return nil`: nothing to keep */
    const char *go_t2 = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\n"
                        "func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\treturn nil\n\t})\n}\n";
    out = splice_ok(go_t2, LANG_GO, go_gen, "main.go", NULL);
    ck_assert_ptr_null(strstr(out, "if err != nil {\n\t\t\treturn err\n\t\t}\n\t\t_, err"));
    free(out);
}
END_TEST

/* Go: a component the file registers with a pointer to its own state (`&web`) stays the parent of the
 * resources imported into it (it was replaced by the generated `server := &pulumi.ResourceState{}`,
 * leaving `var web Server` unused: no build). TypeScript/Python: a component created in a function
 * has its variable out of scope where its new children go: refused, as Go's is. */
START_TEST(test_component_state_kept) {
    const char *go_gen =
        "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
        "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
        "\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tserver := &pulumi.ResourceState{}\n"
        "\t\terr := ctx.RegisterComponentResource(\"webshop:index:Server\", \"server\", server, pulumi.Protect(true))\n"
        "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
        "\t\t_, err = random.NewRandomPet(ctx, \"pet\", &random.RandomPetArgs{}, pulumi.Parent(server))\n"
        "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    const char *go_t = "package main\n\nimport (\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\n"
                       "type Server struct {\n\tpulumi.ResourceState\n}\n\nfunc main() {\n"
                       "\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tvar web Server\n"
                       "\t\terr := ctx.RegisterComponentResource(\"webshop:index:Server\", \"server\", &web, "
                       "pulumi.Protect(true))\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    char *out = splice_ok(go_t, LANG_GO, go_gen, "main.go", NULL);
    ck_assert_ptr_null(strstr(out, "ResourceState{}"));
    ck_assert_ptr_nonnull(strstr(out, "RegisterComponentResource(\"webshop:index:Server\", \"server\", &web, "));
    ck_assert_ptr_nonnull(strstr(out, "pulumi.Parent(&web)"));
    free(out);
    const char *ts_gen = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                         "const server = new pulumi.ComponentResource(\"webshop:index:Server\", \"server\", {}, {});\n"
                         "const pet = new random.RandomPet(\"pet\", {}, {\n    parent: server,\n});\n";
    const char *ts_t = "import * as pulumi from \"@pulumi/pulumi\";\n\nfunction make() {\n"
                       "    const web = new pulumi.ComponentResource(\"webshop:index:Server\", \"server\", {}, {});\n"
                       "    return web;\n}\nmake();\n";
    char *msg = splice_fail(ts_t, strlen(ts_t), LANG_TYPESCRIPT, ts_gen, "index.ts");
    ck_assert_str_eq(msg, "index.ts:4: the resource 'server' is defined outside the program's body, and the new code "
                          "names its variable 'web' where that is not in scope: nothing was changed; define it in the "
                          "program's body, or import the resources that name it into another file");
    free(msg);
    const char *py_gen = "import pulumi\nimport pulumi_random as random\n\n"
                         "server = pulumi.ComponentResource(\"webshop:index:Server\", \"server\")\n"
                         "pet = random.RandomPet(\"pet\", opts=pulumi.ResourceOptions(parent=server))\n";
    const char *py_t = "import pulumi\n\n\ndef make():\n"
                       "    web = pulumi.ComponentResource(\"webshop:index:Server\", \"server\")\n    return web\n\n\n"
                       "make()\n";
    msg = splice_fail(py_t, strlen(py_t), LANG_PYTHON, py_gen, "__main__.py");
    ck_assert_ptr_nonnull(strstr(msg, "__main__.py:5: the resource 'server' is defined outside the program's body"));
    free(msg);
    /* in the same function as its child: in scope, replaced in place */
    const char *ts_t2 =
        "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
        "function make() {\n"
        "    const web = new pulumi.ComponentResource(\"webshop:index:Server\", \"server\", {}, {});\n"
        "    const p = new random.RandomPet(\"pet\", {}, { parent: web });\n    return web;\n}\nmake();\n";
    out = splice_ok(ts_t2, LANG_TYPESCRIPT, ts_gen, "index.ts", NULL);
    ck_assert_uint_eq(count(out, "new random.RandomPet("), 1);
    ck_assert_uint_eq(count(out, "parent: web"), 1);
    free(out);
}
END_TEST

/* A C# component (`new ComponentResource("type", "name", ...)`, a class of `using Pulumi;`) is a
 * resource definition: imported again with other options it is replaced in place. It was no
 * resource, so the second run added `var server2 = new ComponentResource(...)`, the same URN twice
 * (`pulumi up` fails), and said "0 added". The options the file has (`Protect = true`) are kept where
 * the new code has none (test_options_kept). */
START_TEST(test_csharp_component_replaced) {
    const char *t = "using Pulumi;\n\nreturn await Deployment.RunAsync(() =>\n{\n});\n";
    const char *g1 = "using Pulumi;\nusing Random = Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
                     "    var server = new ComponentResource(\"webshop:index:Server\", \"server\", new "
                     "ComponentResourceOptions\n    {\n        Protect = true,\n    });\n\n"
                     "    var pet = new Random.RandomPet(\"pet\", new()\n    {\n        Length = 2,\n    }, new "
                     "CustomResourceOptions\n    {\n        Parent = server,\n    });\n\n});\n";
    const char *g2 = "using Pulumi;\nusing Random = Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
                     "    var server = new ComponentResource(\"webshop:index:Server\", \"server\");\n\n"
                     "    var pet = new Random.RandomPet(\"pet\", new()\n    {\n        Length = 2,\n    }, new "
                     "CustomResourceOptions\n    {\n        Parent = server,\n    });\n\n});\n";
    splice_stats_t st;
    char *out = splice_ok(t, LANG_CSHARP, g1, "Program.cs", &st);
    ck_assert_uint_eq(st.inserted, 2);
    char *out2 = splice_ok(out, LANG_CSHARP, g2, "Program.cs", &st);
    ck_assert_uint_eq(count(out2, "new ComponentResource("), 1);
    ck_assert_ptr_nonnull(strstr(out2,
                                 "    var server = new ComponentResource(\"webshop:index:Server\", \"server\", new "
                                 "ComponentResourceOptions\n    {\n        Protect = true,\n    });\n"));
    ck_assert_uint_eq(st.inserted, 0);
    ck_assert_uint_eq(st.replaced, 2);
    ck_assert_uint_eq(st.renamed, 0);
    free(out);
    free(out2);
}
END_TEST

/* C#/Java: a ComponentResource's arguments are its type, name, inputs, options and `remote` (C#
 * `new ComponentResource(type, name, args, options)`, Java `(type, name, options, remote)` and
 * `(type, name, args, options, remote)`), and the options were read from the third argument: the
 * import's own C# component with inputs and options (four arguments) could not be imported twice
 * ("options cimport cannot merge ... (`new ComponentResourceOptions ...`)"), a file's extra option
 * beside them was refused, and Java's `remote` argument was taken for the options. Each is read from
 * its place now; `remote` stays as written. And two components of one type were one resource: the
 * type, not the name, was taken for the logical name, so importing "b" replaced "a". */
START_TEST(test_component_four_arguments) {
    const char *cs_gen =
        "using System.Collections.Generic;\nusing System.Collections.Immutable;\nusing Pulumi;\n\n"
        "return await Deployment.RunAsync(() =>\n{\n"
        "    var server = new ComponentResource(\"webshop:index:Server\", \"server\", new DictionaryResourceArgs(new "
        "Dictionary<string, object?>\n    {\n        [\"size\"] = 2,\n    }.ToImmutableDictionary()), new "
        "ComponentResourceOptions\n    {\n        Protect = true,\n    });\n\n});\n";
    const char *cs_t = "using Pulumi;\n\nreturn await Deployment.RunAsync(() =>\n{\n});\n";
    splice_stats_t st;
    char *out = splice_ok(cs_t, LANG_CSHARP, cs_gen, "Program.cs", &st); /* and again: no change */
    ck_assert_uint_eq(st.inserted, 1);
    free(out);
    /* the file's own options beside the import's: kept, merged */
    const char *cs_t2 = "using System.Collections.Generic;\nusing System.Collections.Immutable;\nusing Pulumi;\n\n"
                        "return await Deployment.RunAsync(() =>\n{\n"
                        "    var web = new ComponentResource(\"webshop:index:Server\", \"server\", new "
                        "DictionaryResourceArgs(new Dictionary<string, object?>().ToImmutableDictionary()), new "
                        "ComponentResourceOptions { Protect = true, RetainOnDelete = true });\n});\n";
    out = splice_ok(cs_t2, LANG_CSHARP, cs_gen, "Program.cs", &st);
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_ptr_nonnull(strstr(out, "    var web = new ComponentResource(\"webshop:index:Server\", \"server\", new "
                                      "DictionaryResourceArgs(new Dictionary<string, object?>\n    {\n        "
                                      "[\"size\"] = 2,\n    }.ToImmutableDictionary()), new ComponentResourceOptions\n"
                                      "    {\n        Protect = true,\n        RetainOnDelete = true,\n    });\n"));
    free(out);
    /* two components of one type: the one named "server" is replaced, not the first */
    const char *cs_t3 = "using Pulumi;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
                        "    var a = new ComponentResource(\"webshop:index:Server\", \"other\");\n"
                        "    var b = new ComponentResource(\"webshop:index:Server\", \"server\");\n});\n";
    out = splice_ok(cs_t3, LANG_CSHARP, cs_gen, "Program.cs", &st);
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_uint_eq(st.inserted, 0);
    ck_assert_ptr_nonnull(strstr(out, "    var a = new ComponentResource(\"webshop:index:Server\", \"other\");\n"
                                      "    var b = new ComponentResource(\"webshop:index:Server\", \"server\", new "
                                      "DictionaryResourceArgs("));
    free(out);
    const char *java_gen =
        "package generated_program;\n\nimport com.pulumi.Context;\nimport com.pulumi.Pulumi;\n"
        "import com.pulumi.resources.ComponentResource;\nimport com.pulumi.resources.ComponentResourceOptions;\n\n"
        "public class App {\n    public static void main(String[] args) {\n        Pulumi.run(App::stack);\n    }\n\n"
        "    public static void stack(Context ctx) {\n"
        "        var server = new ComponentResource(\"webshop:index:Server\", \"server\", "
        "ComponentResourceOptions.builder()\n            .protect(true)\n            .build());\n\n    }\n}\n";
    const char *java_t =
        "package myproject;\n\nimport com.pulumi.Context;\nimport com.pulumi.Pulumi;\n"
        "import com.pulumi.resources.ComponentResource;\nimport com.pulumi.resources.ComponentResourceOptions;\n\n"
        "public class App {\n    public static void main(String[] args) {\n        Pulumi.run(App::stack);\n    }\n\n"
        "    public static void stack(Context ctx) {\n"
        "        var web = new ComponentResource(\"webshop:index:Server\", \"server\", "
        "ComponentResourceOptions.builder().protect(true).retainOnDelete(true).build(), false);\n    }\n}\n";
    out = splice_ok(java_t, LANG_JAVA, java_gen, "App.java", &st);
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_ptr_nonnull(strstr(out, "        var web = new ComponentResource(\"webshop:index:Server\", \"server\", "
                                      "ComponentResourceOptions.builder()\n            .protect(true)"
                                      ".retainOnDelete(true)\n            .build(), false);\n"));
    free(out);
    /* TypeScript's `remote` (its fifth), Python's positional options (its fourth) */
    const char *ts_gen = "import * as pulumi from \"@pulumi/pulumi\";\n\n"
                         "const server = new pulumi.ComponentResource(\"webshop:index:Server\", \"server\", {}, {\n"
                         "    protect: true,\n});\n";
    const char *ts_t = "import * as pulumi from \"@pulumi/pulumi\";\n\n"
                       "const web = new pulumi.ComponentResource(\"webshop:index:Server\", \"server\", {}, "
                       "{ protect: true, retainOnDelete: true }, false);\n";
    out = splice_ok(ts_t, LANG_TYPESCRIPT, ts_gen, "index.ts", &st);
    ck_assert_str_eq(out, "import * as pulumi from \"@pulumi/pulumi\";\n\n"
                          "const web = new pulumi.ComponentResource(\"webshop:index:Server\", \"server\", {}, {\n"
                          "  protect: true,\n  retainOnDelete: true,\n}, false);\n");
    free(out);
    const char *py_gen = "import pulumi\n\nserver = pulumi.ComponentResource(\"webshop:index:Server\", \"server\")\n";
    const char *py_t = "import pulumi\n\nweb = pulumi.ComponentResource(\"webshop:index:Server\", \"server\", None, "
                       "pulumi.ResourceOptions(protect=True))\n";
    out = splice_ok(py_t, LANG_PYTHON, py_gen, "__main__.py", &st);
    ck_assert_str_eq(out, "import pulumi\n\nweb = pulumi.ComponentResource(\"webshop:index:Server\", \"server\", "
                          "opts=pulumi.ResourceOptions(protect=True))\n");
    free(out);
}
END_TEST

/* A new statement a replaced resource uses goes before it, not at the end: a second import of a
 * resource whose secret now has another config key (the first one holds another value, or the
 * secrets file still has it) replaced the resource in place and appended the new config read after
 * it, so the resource read a `const` before its declaration (TypeScript: ReferenceError at run time;
 * Go: undefined, no build), while the run said "0 added, 1 replaced". */
START_TEST(test_new_config_read_before_replaced_resource) {
    const char *t = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                    "const config = new pulumi.Config();\n"
                    "const petKeepersToken = config.requireSecret(\"petKeepersToken\");\n"
                    "const pet = new random.RandomPet(\"pet\", {keepers: {token: petKeepersToken}});\n"
                    "export const name = pet.id;\n";
    const char *g = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                    "const config = new pulumi.Config();\n"
                    "const petKeepersToken2 = config.requireSecret(\"petKeepersToken2\");\n"
                    "const pet = new random.RandomPet(\"pet\", {keepers: {token: petKeepersToken2}});\n";
    splice_stats_t st;
    char *out = splice_ok(t, LANG_TYPESCRIPT, g, "index.ts", &st);
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_uint_eq(st.inserted, 0);
    ck_assert_ptr_nonnull(strstr(out,
                                 "const petKeepersToken2 = config.requireSecret(\"petKeepersToken2\");\n"
                                 "const pet = new random.RandomPet(\"pet\", {keepers: {token: petKeepersToken2}});\n"
                                 "export const name = pet.id;\n"));
    free(out);
    const char *tg =
        "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
        "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config\"\n)\n\n"
        "func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
        "\t\tcfg := config.New(ctx, \"\")\n\t\tpetKeepersToken := cfg.RequireSecret(\"petKeepersToken\")\n"
        "\t\t_, err := random.NewRandomPet(ctx, \"pet\", &random.RandomPetArgs{\n"
        "\t\t\tKeepers: pulumi.StringMap{\n\t\t\t\t\"token\": petKeepersToken,\n\t\t\t},\n\t\t})\n"
        "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    const char *gg =
        "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
        "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config\"\n)\n\n"
        "func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
        "\t\tcfg := config.New(ctx, \"\")\n\t\tpetKeepersToken2 := cfg.RequireSecret(\"petKeepersToken2\")\n"
        "\t\t_, err := random.NewRandomPet(ctx, \"pet\", &random.RandomPetArgs{\n"
        "\t\t\tKeepers: pulumi.StringMap{\n\t\t\t\t\"token\": petKeepersToken2,\n\t\t\t},\n\t\t})\n"
        "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n";
    out = splice_ok(tg, LANG_GO, gg, "main.go", &st);
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_ptr_nonnull(strstr(out, "\t\tpetKeepersToken2 := cfg.RequireSecret(\"petKeepersToken2\")\n"
                                      "\t\t_, err := random.NewRandomPet(ctx, \"pet\""));
    /* The earlier read, which only the replaced resource used, is kept but declares no variable any
     * more: Go does not build a program with a variable declared and not used (it said "0 added, 1
     * replaced", exit 0) */
    ck_assert_msg(strstr(out, "\t\tcfg := config.New(ctx, \"\")\n\t\t_ = cfg.RequireSecret(\"petKeepersToken\")\n") !=
                      NULL,
                  "%s", out);
    free(out);
    /* still used elsewhere: left as it is */
    char tg2[1024];
    const char *ret = strstr(tg, "\t\treturn nil");
    snprintf(tg2, sizeof tg2, "%.*s\t\tctx.Export(\"t\", petKeepersToken)\n%s", (int)(ret - tg), tg, ret);
    out = splice_ok(tg2, LANG_GO, gg, "main.go", &st);
    ck_assert_ptr_nonnull(strstr(out, "\t\tpetKeepersToken := cfg.RequireSecret(\"petKeepersToken\")\n"));
    ck_assert_ptr_null(strstr(out, "_ = cfg"));
    free(out);
}
END_TEST

START_TEST(test_java_lambda_wildcard_import) {
    char *t = fixture("App.java"), *g = fixture("gen.java");
    splice_stats_t st;
    char *out = splice_ok(t, LANG_JAVA, g, "App.java", &st);
    ck_assert_uint_eq(st.replaced, 1); /* RandomPassword via `import com.pulumi.random.*;` */
    ck_assert_uint_eq(count(out, "import com.pulumi.random"), 1);
    ck_assert_ptr_null(strstr(out, "import java.util.List;")); /* unused generated imports are not added */
    ck_assert_ptr_nonnull(strstr(out,
                                 "import com.pulumi.random.*;\nimport com.pulumi.resources.CustomResourceOptions;\n"
                                 "import com.pulumi.tls.PrivateKey;\n"));
    ck_assert_ptr_nonnull(strstr(out,
                                 "\t\t\tvar password = new RandomPassword(\"password\", RandomPasswordArgs.builder()\n"
                                 "\t\t\t\t.length(16)\n\t\t\t\t.special(true)\n\t\t\t\t.build());\n"));
    ck_assert_ptr_nonnull(strstr(out, "\t\t\t\t\t.protect(true)\n\t\t\t\t\t.build());\n\t\t});\n"));
    free(out);
    free(t);
    free(g);
}
END_TEST

START_TEST(test_yaml_without_resources) {
    char *t = fixture("Pulumi.yaml"), *g = fixture("gen.yaml");
    char *out = splice_ok(t, LANG_YAML, g, "Pulumi.yaml", NULL);
    ck_assert_uint_eq(count(out, "\nresources:\n"), 1);
    ck_assert_uint_eq(count(out, "\nconfiguration:\n"), 1);
    /* the block scalar of the file is untouched */
    ck_assert_ptr_nonnull(strstr(out, "description: |\n    A demo program.\n      Indented line.\nconfiguration:\n"));
    free(out);
    free(t);
    free(g);
}
END_TEST

START_TEST(test_yaml_replace_rename_four_spaces) {
    char *t = fixture("Main.yaml"), *g = fixture("gen.yaml");
    char *out = splice_ok(t, LANG_YAML, g, "Main.yaml", NULL);
    /* same logical name and type (long and short token spellings) → replaced in place */
    ck_assert_ptr_nonnull(strstr(out, "    password:\n        type: random:RandomPassword\n        properties:\n"
                                      "            length: 16\n            special: true\n    my-key:\n"));
    /* `my-key` is another type in the file: the new one gets another key, keeps its name, and the
     * reference follows */
    ck_assert_ptr_nonnull(strstr(out, "    my-key-private-key:\n        name: my-key\n        type: tls:PrivateKey\n"));
    ck_assert_ptr_nonnull(strstr(out, "                - ${my-key-private-key}\n"));
    ck_assert_uint_eq(count(out, "resources:"), 1);
    free(out);
    free(t);
    free(g);
}
END_TEST

START_TEST(test_yaml_empty_and_null_resources) {
    const char *g = "resources:\n  pet:\n    type: random:RandomPet\n";
    char *out = splice_ok("name: x\nruntime: yaml\nresources: {}\noutputs: {}\n", LANG_YAML, g, "Pulumi.yaml", NULL);
    ck_assert_str_eq(out, "name: x\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomPet\noutputs: {}\n");
    free(out);
    out = splice_ok("name: x\nresources:\n# later\n", LANG_YAML, g, "Pulumi.yaml", NULL);
    ck_assert_str_eq(out, "name: x\nresources:\n  pet:\n    type: random:RandomPet\n# later\n");
    free(out);
    const char *flow = "name: x\nresources: {a: {type: random:RandomPet}}\n";
    char *msg = splice_fail(flow, strlen(flow), LANG_YAML, g, "Pulumi.yaml");
    ck_assert_str_eq(msg, "Pulumi.yaml:2: `resources` is written as a flow mapping ({...}): write it as a block "
                          "mapping (one `name:` per line) to insert into it");
    free(msg);
    const char *dup = "name: x\nresources:\n  a: 1\nname: y\n";
    msg = splice_fail(dup, strlen(dup), LANG_YAML, g, "Pulumi.yaml");
    ck_assert_str_eq(msg, "Pulumi.yaml:4: duplicate top-level key `name`: fix the file before inserting into it");
    free(msg);
}
END_TEST

/* A resource whose options cannot be merged, after a resource the splice adds: the refusal dropped
 * the added resource's text without freeing it (a leak found by fuzz_splice_yaml; this test fails
 * in the ASan build before the fix). Nothing is changed, and the message says why. */
START_TEST(test_yaml_refusal_after_added_resource) {
    const char *t = "name: x\nruntime: yaml\nresources:\n  b:\n    type: random:RandomPet\n"
                    "    options: {provider: west}\n";
    const char *g = "resources:\n  a:\n    type: random:RandomPet\n  b:\n    type: random:RandomPet\n";
    char *msg = splice_fail(t, strlen(t), LANG_YAML, g, "Pulumi.yaml");
    ck_assert_str_eq(msg, "Pulumi.yaml:6: the resource 'b' sets the resource option `provider` (`provider: west`), and "
                          "the import read it with the default provider: nothing was changed; give the resource that "
                          "provider in the import file (its `provider`), or remove the option and run again");
    free(msg);
}
END_TEST

/* A form feed in a Python line's indentation sets the column count back to 0 (Python's tokenizer):
 * `\fx = 1` is a statement at column 0, which was refused as "indented differently" (read15 F10); a
 * form feed followed by spaces is still indented. python3 agrees on both. */
START_TEST(test_python_form_feed_indent) {
    const char *g = "import pulumi_random as random\n\npet = random.RandomPet(\"pet\")\n";
    const char *ff = "import pulumi\n\n\fx = 1\nif x:\n\f    y = 2\n    z = 3\n";
    int status = 1;
    free(tu_run_source("t.py", ff, "python3 -m py_compile t.py", &status));
    ck_assert_int_eq(status, 0);
    char *out = splice_ok(ff, LANG_PYTHON, g, "__main__.py", NULL);
    ck_assert_ptr_nonnull(strstr(out, "\fx = 1\nif x:\n\f    y = 2\n    z = 3\n"));
    free(out);
    const char *bad = "import pulumi\n\n\f    x = 1\n";
    free(tu_run_source("t.py", bad, "python3 -m py_compile t.py", &status));
    ck_assert_int_ne(status, 0);
    char *msg = splice_fail(bad, strlen(bad), LANG_PYTHON, g, "__main__.py");
    ck_assert_str_eq(msg, "__main__.py:3: syntax error (a statement is indented differently from the ones before it): "
                          "fix the file before inserting into it");
    free(msg);
}
END_TEST

/* Python 2 forms tree-sitter-python parses without an error (read15 F13: `print "hello"` took "2
 * added", exit 0, though no Python 3 runs the file): refused as syntax errors, the line named; the
 * Python 3 forms beside them are not. Each sample is also given to python3 (py_compile), which must
 * agree. A big file (split parse and walk) is refused for one in its second half too. */
START_TEST(test_python2_forms_refused) {
    const char *g = "import pulumi_random as random\n\npet = random.RandomPet(\"pet\")\n";
    static const struct {
        const char *line, *what;
    } bad[] = {
        {"print \"hello\"", "a Python 2 `print` statement"},
        {"print x,", "a Python 2 `print` statement"},
        {"exec \"x = 1\"", "a Python 2 `exec` statement"},
        {"x = 08", "a Python 2 octal integer"},
        {"x = 0_7", "a Python 2 octal integer"},
        {"x = 10L", "a Python 2 long integer"},
        {"x = 0xffL", "a Python 2 long integer"},
        {"x = 1 <> 2", "the Python 2 operator `<>`"},
        {"x = ur\"a\"", "a string prefix Python 3 does not read"},
        {"x = `y`", "a Python 2 backquote expression"},
        {"raise E, \"m\"", "a Python 2 `raise E, value`"},
        {"def f((a, b)):\n    pass", "a Python 2 tuple parameter"},
        {"def f(a, (b, c)=(1, 2)):\n    pass", "a Python 2 tuple parameter"},
        {"f = lambda (a, b): a", "a Python 2 tuple parameter"},
    };
    static const char *const good[] = {
        "x = 00",
        "x = 0_0",
        "x = 07j",
        "x = 00.5",
        "x = 0o17",
        "print(\"hello\")",
        "exec(\"x = 1\")",
        "p = print",
        "print >>sys.stderr, x",
        "print (a), b",
        "x = 1 != 2",
        "x = rb\"a\"",
        "x = Rb'a'",
        "x = f\"{1}\"",
        "raise (E, \"m\")",
        "x = 0xff",
        "x = 1e5",
        "x = U\"a\"",
        "def f(a, b=(1, 2)):\n    pass",
    };
    char t[512];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(t, sizeof t, "import sys\n\n%s\n", bad[i].line);
        int status = 0;
        free(tu_run_source("t.py", t, "python3 -m py_compile t.py", &status));
        ck_assert_msg(status != 0, "python3 reads `%s`: the sample is no Python 2 form", bad[i].line);
        char *msg = splice_fail(t, strlen(t), LANG_PYTHON, g, "__main__.py");
        char want[256];
        snprintf(want, sizeof want, "__main__.py:3: syntax error (%s", bad[i].what);
        ck_assert_msg(strncmp(msg, want, strlen(want)) == 0 && strstr(msg, "): fix the file before inserting into it"),
                      "`%s`: %s", bad[i].line, msg);
        free(msg);
    }
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        snprintf(t, sizeof t, "import sys\n\n%s\n", good[i]);
        int status = 1;
        free(tu_run_source("t.py", t, "python3 -m py_compile t.py", &status));
        ck_assert_msg(status == 0, "python3 does not read `%s`", good[i]);
        free(splice_ok(t, LANG_PYTHON, g, "__main__.py", NULL));
    }
    /* a big file: parsed and walked in parts; the form in the last part */
    buf_t b;
    buf_init(&b);
    buf_puts(&b, "import sys\n\n");
    for (int i = 0; i < 30000; i++)
        buf_printf(&b, "value_%d = sys.argv[0] + \"%d\"\n", i, i);
    buf_puts(&b, "print \"done\"\n");
    char *big = buf_take(&b);
    ck_assert_uint_gt(strlen(big), (size_t)512 * 1024);
    char *msg = splice_fail(big, strlen(big), LANG_PYTHON, g, "__main__.py");
    ck_assert_str_eq(msg,
                     "__main__.py:30003: syntax error (a Python 2 `print` statement; Python 3 calls `print(...)`): "
                     "fix the file before inserting into it");
    free(msg);
    free(big);
}
END_TEST

/* A Python interpreter that reads f-strings as Python before 3.12 does (PEP 701 lifted the rules the
 * splice must keep to there), or NULL when the machine has none. */
static const char *old_python(void) {
    static const char *const cands[] = {"python3", "python3.11", "python3.10", "python3.9"};
    for (size_t i = 0; i < sizeof cands / sizeof *cands; i++) {
        char cmd[160];
        int status = 1;
        snprintf(cmd, sizeof cmd, "%s -c 'import sys; sys.exit(sys.version_info >= (3, 12))' 2>&1", cands[i]);
        free(tu_run(cmd, &status));
        if (status == 0) return cands[i];
    }
    return NULL;
}

/* Python: a resource replaced inside an f-string's replacement field (read15 F15). Before Python 3.12
 * the field may hold no backslash, no comment, not the f-string's quote and (but in a triple-quoted
 * one) no line break: new code that keeps to that is written, checked by a Python before 3.12; other
 * code is refused, the reason named. */
START_TEST(test_python_fstring_field_replaced_or_refused) {
    const char *head = "import pulumi\nimport pulumi_random as random\n\n";
    const char *one = "import pulumi\nimport pulumi_random as random\n\n"
                      "p = random.RandomPet('p', opts=pulumi.ResourceOptions(import_='a#b'))\n";
    const char *two = "import pulumi\nimport pulumi_random as random\n\n"
                      "p = random.RandomPet('p',\n    # imported\n    opts=pulumi.ResourceOptions(import_='x'))\n";
    const char *three = "import pulumi\nimport pulumi_random as random\n\n"
                        "p = random.RandomPet(\"p\",\n    opts=pulumi.ResourceOptions(import_=\"x\"))\n";
    static const struct {
        const char *field, *gen, *refusal; /* refusal NULL: written */
    } cases[] = {
        {"x = f\"id: {random.RandomPet('p').id}\"\n", NULL, NULL},
        {"x = f'id: {random.RandomPet(\"p\").id}'\n", NULL, "would hold the f-string's own quote, which Python"},
        {"x = f\"\"\"id: {random.RandomPet('p').id}\"\"\"\n", NULL, NULL},
        {"x = f\"\"\"id: {random.RandomPet('p').id}\"\"\"\n", "two", "would hold a comment, which Python"},
        {"x = f\"\"\"id: {random.RandomPet('p').id}\"\"\"\n", "three", NULL},
        {"x = f\"id: {random.RandomPet('p').id}\"\n", "three", "would hold line breaks, which Python"},
        {"x = rf\"a {f'{random.RandomPet(\"p\").id}'}\"\n", "three", "would hold line breaks, which Python"},
    };
    const char *py = old_python();
    if (!py) fprintf(stderr, "test_python_fstring_field_replaced_or_refused: no Python before 3.12 to check with\n");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *g = !cases[i].gen ? one : strcmp(cases[i].gen, "two") == 0 ? two : three;
        char t[512], cmd[160];
        snprintf(t, sizeof t, "%s%s", head, cases[i].field);
        if (cases[i].refusal) {
            char *msg = splice_fail(t, strlen(t), LANG_PYTHON, g, "__main__.py");
            ck_assert_msg(strstr(msg, "__main__.py:4: the resource 'p' is constructed inside an f-string") &&
                              strstr(msg, cases[i].refusal) && strstr(msg, "only from 3.12 on: nothing was changed"),
                          "%zu: %s", i, msg);
            free(msg);
        } else {
            char *out = splice_ok(t, LANG_PYTHON, g, "__main__.py", NULL);
            ck_assert_msg(strstr(out, "import_="), "%zu: not replaced:\n%s", i, out);
            if (py) {
                int status = 1;
                snprintf(cmd, sizeof cmd, "%s -m py_compile __main__.py", py);
                char *o = tu_run_source("__main__.py", out, cmd, &status);
                ck_assert_msg(status == 0, "%zu: %s rejects the result:\n%s\n%s", i, py, out, o);
                free(o);
            }
            free(out);
        }
    }
}
END_TEST

/* The scalar at a path of mapping keys (NULL-ended) of a YAML text as libyaml reads it (malloc'd),
 * or NULL when the text does not load or the path leads to no scalar. */
static char *yaml_scalar_at(const char *text, ...) {
    yaml_parser_t p;
    yaml_document_t doc;
    ck_assert(yaml_parser_initialize(&p));
    yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
    bool loaded = yaml_parser_load(&p, &doc);
    yaml_parser_delete(&p);
    if (!loaded) return NULL;
    yaml_node_t *n = yaml_document_get_root_node(&doc);
    va_list ap;
    va_start(ap, text);
    for (const char *key = va_arg(ap, const char *); key && n; key = va_arg(ap, const char *)) {
        yaml_node_t *next = NULL;
        if (n->type == YAML_MAPPING_NODE)
            for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < n->data.mapping.pairs.top && !next; q++) {
                yaml_node_t *k = yaml_document_get_node(&doc, q->key);
                if (k && k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
                    next = yaml_document_get_node(&doc, q->value);
            }
        n = next;
    }
    va_end(ap);
    char *r = n && n->type == YAML_SCALAR_NODE ? strdup((const char *)n->data.scalar.value) : NULL;
    yaml_document_delete(&doc);
    return r;
}

/* A block scalar with keep chomping (`|+`, `>+`) holds the blank lines that follow it: new pairs go
 * after them, and a pair moved or replaced keeps them (read15 F12: the resources went between the
 * text and its blank lines, so the user's `keepers.script` lost them, 'echo hi\n\n\n' -> 'echo hi\n',
 * and `pulumi up` would replace the resource). Every value is read back with libyaml. */
START_TEST(test_yaml_keep_chomping_blank_lines_kept) {
    const char *g = "resources:\n  pet:\n    type: random:RandomPet\n";
    static const char *const targets[] = {
        "name: y\nruntime: yaml\nresources:\n  cfg:\n    type: random:RandomPet\n    properties:\n      keepers:\n"
        "        script: |+\n          echo hi\n\n\noutputs:\n  o: ${cfg.id}\n",
        "name: y\nruntime: yaml\nresources:\n  cfg:\n    type: random:RandomPet\n    properties:\n      keepers:\n"
        "        script: >+\n          echo hi\n\n\noutputs:\n  o: ${cfg.id}\n",
        "name: y\nruntime: yaml\nresources:\n  cfg:\n    type: random:RandomPet\n    properties:\n      keepers:\n"
        "        script: |2+ # kept\n            echo hi\n  \n\n# a comment\noutputs:\n  o: ${cfg.id}\n",
        "name: y\nruntime: yaml\nresources:\n  cfg:\n    type: random:RandomPet\n    properties:\n      keepers:\n"
        "        script: |+\n          echo hi\n\n\n",
        "name: y\r\nruntime: yaml\r\nresources:\r\n  cfg:\r\n    type: random:RandomPet\r\n    properties:\r\n"
        "      keepers:\r\n        script: |+\r\n          echo hi\r\n\r\n\r\noutputs:\r\n  o: ${cfg.id}\r\n",
    };
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
        char *before = yaml_scalar_at(targets[i], "resources", "cfg", "properties", "keepers", "script", NULL);
        ck_assert_ptr_nonnull(before);
        ck_assert_msg(strlen(before) > 3 && strcmp(before + strlen(before) - 3, "\n\n\n") == 0, "%zu: %s", i, before);
        char *out = splice_ok(targets[i], LANG_YAML, g, "Pulumi.yaml", NULL);
        char *after = yaml_scalar_at(out, "resources", "cfg", "properties", "keepers", "script", NULL);
        ck_assert_msg(after && strcmp(after, before) == 0, "%zu: script '%s' became '%s' in:\n%s", i, before,
                      after ? after : "(none)", out);
        char *type = yaml_scalar_at(out, "resources", "pet", "type", NULL);
        ck_assert_msg(type && strcmp(type, "random:RandomPet") == 0, "%zu: no pet in:\n%s", i, out);
        if (strstr(targets[i], "outputs:")) {
            char *o = yaml_scalar_at(out, "outputs", "o", NULL);
            ck_assert_str_eq(o, "${cfg.id}");
            free(o);
        }
        free(type);
        free(after);
        free(before);
        free(out);
    }
    /* the generated side: a value of the imported resource ending in blank lines (yaml_string writes
     * `|+`) keeps them when the pair is added before the file's next section, or replaces one */
    const char *gk = "resources:\n  pet:\n    type: random:RandomPet\n    properties:\n      keepers:\n"
                     "        script: |+\n          echo hi\n\n\n";
    const char *added = "name: y\nruntime: yaml\nresources:\n  other:\n    type: random:RandomPet\noutputs:\n  o: 1\n";
    const char *replaced = "name: y\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomPet\n    properties:\n"
                           "      keepers:\n        script: |+\n          echo hello\n\n\n\n\noutputs:\n  o: 1\n";
    const char *both[] = {added, replaced};
    for (size_t i = 0; i < 2; i++) {
        char *out = splice_ok(both[i], LANG_YAML, gk, "Pulumi.yaml", NULL);
        char *after = yaml_scalar_at(out, "resources", "pet", "properties", "keepers", "script", NULL);
        ck_assert_msg(after && strcmp(after, "echo hi\n\n\n") == 0, "%zu: script is '%s' in:\n%s", i,
                      after ? after : "(none)", out);
        char *o = yaml_scalar_at(out, "outputs", "o", NULL);
        ck_assert_str_eq(o, "1");
        free(o);
        free(after);
        free(out);
    }
}
END_TEST

/* YAML options written as a flow mapping (`options: {protect: true}`) are kept as a block mapping's
 * are (they were refused since 298c976: "cannot merge ... one by one"), and refused by the same rules. */
START_TEST(test_yaml_flow_options) {
    const char *g = "resources:\n  b:\n    type: random:RandomPet\n    options:\n      protect: true\n";
    const char *t = "name: x\nruntime: yaml\nresources:\n  b:\n    type: random:RandomPet\n"
                    "    options: {protect: true, retainOnDelete: true, import: old-id}\n";
    char *out = splice_ok(t, LANG_YAML, g, "Pulumi.yaml", NULL);
    ck_assert_str_eq(out, "name: x\nruntime: yaml\nresources:\n  b:\n    type: random:RandomPet\n    options:\n"
                          "      protect: true\n      retainOnDelete: true\n");
    free(out);
    /* a generated definition with no options: the user's, one per line, under a new `options:`; a
     * pair written over several lines keeps its lines, indented under its key */
    const char *g2 = "resources:\n  b:\n    type: random:RandomPet\n    properties:\n      length: 2\n";
    const char *t2 = "name: x\nruntime: yaml\nresources:\n  b:\n    type: random:RandomPet\n"
                     "    options: { retainOnDelete: true,\n      ignoreChanges: [length,\n        prefix] }\n"
                     "  c:\n    type: random:RandomPet\n";
    out = splice_ok(t2, LANG_YAML, g2, "Pulumi.yaml", NULL);
    ck_assert_str_eq(out, "name: x\nruntime: yaml\nresources:\n  b:\n    type: random:RandomPet\n    properties:\n"
                          "      length: 2\n    options:\n      retainOnDelete: true\n      ignoreChanges: [length,\n"
                          "          prefix]\n  c:\n    type: random:RandomPet\n");
    free(out);
    /* set otherwise than the import: refused as a block mapping's option is */
    const char *t3 = "name: x\nruntime: yaml\nresources:\n  b:\n    type: random:RandomPet\n"
                     "    options: {retainOnDelete: true, protect: false}\n";
    char *msg = splice_fail(t3, strlen(t3), LANG_YAML, g, "Pulumi.yaml");
    ck_assert_str_eq(msg, "Pulumi.yaml:6: the resource 'b' sets the resource option `protect` (`protect: false`) where "
                          "the import's code has `protect: true`: nothing was changed; import it without protect, "
                          "make the program say `protect: true`, or remove the option, and run again");
    free(msg);
    /* an entry that is no key: value pair, or an alias: not read one by one, refused as before */
    const char *t4 = "name: x\nruntime: yaml\nresources:\n  b:\n    type: random:RandomPet\n"
                     "    options: {retainOnDelete: true, protect}\n";
    msg = splice_fail(t4, strlen(t4), LANG_YAML, g, "Pulumi.yaml");
    ck_assert_str_eq(msg, "Pulumi.yaml:6: the resource 'b' has resource options cimport cannot merge with the import's "
                          "one by one (`{retainOnDelete: true, protect}`): nothing was changed, so they are not "
                          "dropped; write them as a block mapping (one option per line), or import the resource into "
                          "another file");
    free(msg);
}
END_TEST

START_TEST(test_crlf_and_bom_kept) {
    static const struct {
        const char *fixture, *gen, *name;
        lang_t lang;
    } C[] = {{"toplevel.ts", "gen.ts", "index.ts", LANG_TYPESCRIPT},
             {"__main__.py", "gen.py", "__main__.py", LANG_PYTHON},
             {"main.go", "gen.go", "main.go", LANG_GO},
             {"Program.cs", "gen.cs", "Program.cs", LANG_CSHARP},
             {"App.java", "gen.java", "App.java", LANG_JAVA},
             {"Main.yaml", "gen.yaml", "Main.yaml", LANG_YAML}};
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        char *t = fixture(C[i].fixture), *g = fixture(C[i].gen);
        char *crlf = to_crlf(t);
        char *out = splice_ok(crlf, C[i].lang, g, C[i].name, NULL);
        ck_assert_msg(all_crlf(out), "%s: a line ending in LF only after splicing", C[i].fixture);
        ck_assert_uint_gt(strlen(out), strlen(crlf));
        free(out);
        char *bom = malloc(strlen(crlf) + 4);
        memcpy(bom, "\xEF\xBB\xBF", 3);
        strcpy(bom + 3, crlf);
        out = splice_ok(bom, C[i].lang, g, C[i].name, NULL);
        ck_assert_msg(memcmp(out, "\xEF\xBB\xBF", 3) == 0 && count(out, "\xEF\xBB\xBF") == 1, "%s: BOM lost",
                      C[i].fixture);
        ck_assert(all_crlf(out));
        free(out);
        free(bom);
        free(crlf);
        free(t);
        free(g);
    }
}
END_TEST

START_TEST(test_imports_into_file_without_any) {
    const char *g = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                    "const pet = new random.RandomPet(\"pet\", {});\n";
    char *out = splice_ok("\xEF\xBB\xBF"
                          "const a = 1;\n",
                          LANG_TYPESCRIPT, g, "index.ts", NULL);
    ck_assert_str_eq(out, "\xEF\xBB\xBF"
                          "import * as random from \"@pulumi/random\";\n\nconst a = 1;\n"
                          "const pet = new random.RandomPet(\"pet\", {});\n");
    free(out);
    const char *gj = "package p;\n\nimport com.pulumi.Context;\nimport com.pulumi.random.RandomPet;\n\n"
                     "public class App {\n    public static void stack(Context ctx) {\n"
                     "        var pet = new RandomPet(\"pet\");\n\n    }\n}\n";
    out = splice_ok("package p;\n\npublic class S {\n    static void stack(com.pulumi.Context c) {\n    }\n}\n",
                    LANG_JAVA, gj, "S.java", NULL);
    ck_assert_str_eq(out, "package p;\n\nimport com.pulumi.random.RandomPet;\n\npublic class S {\n"
                          "    static void stack(com.pulumi.Context c) {\n        var pet = new RandomPet(\"pet\");\n"
                          "    }\n}\n");
    free(out);
}
END_TEST

/* A TypeScript program starting with a hashbang line and no import (read11 F6): the import went
 * above the `#!` line, the result did not parse, and the refusal called it an internal error and
 * told the user to fix the file. The import goes after the hashbang, and after a directive prologue
 * (`"use strict";`, which stays the file's first statement). */
START_TEST(test_imports_after_hashbang_and_directive) {
    const char *g = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                    "const pet = new random.RandomPet(\"pet\", {});\n";
    char *out = splice_ok("#!/usr/bin/env ts-node\nconst x = 1;\n", LANG_TYPESCRIPT, g, "she.ts", NULL);
    ck_assert_str_eq(out, "#!/usr/bin/env ts-node\n\nimport * as random from \"@pulumi/random\";\nconst x = 1;\n"
                          "const pet = new random.RandomPet(\"pet\", {});\n");
    free(out);
    out = splice_ok("\"use strict\";\nconst x = 1;\n", LANG_TYPESCRIPT, g, "strict.ts", NULL);
    ck_assert_str_eq(out, "\"use strict\";\n\nimport * as random from \"@pulumi/random\";\nconst x = 1;\n"
                          "const pet = new random.RandomPet(\"pet\", {});\n");
    free(out);
}
END_TEST

/* A Python program starting with a `#!` line and no import: the import went above the shebang, so
 * the file no longer ran as a script. It goes after the shebang and an encoding declaration (which
 * must stay on line 1 or 2, PEP 263), and after a module docstring, where Python also requires a
 * `from __future__` import to be. */
START_TEST(test_python_imports_after_shebang_and_coding) {
    const char *g = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\", length=2)\n";
    static const char *const cases[][2] = {
        {"#!/usr/bin/env python3\nx = 1\n", "#!/usr/bin/env python3\n\nimport pulumi_random as random\nx = 1\npet = "
                                            "random.RandomPet(\"pet\", length=2)\n"},
        {"#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nx = 1\n",
         "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\nimport pulumi_random as random\nx = 1\n"
         "pet = random.RandomPet(\"pet\", length=2)\n"},
        {"# vim: set fileencoding=latin-1 :\nx = 1\n",
         "# vim: set fileencoding=latin-1 :\n\nimport pulumi_random as random\nx = 1\n"
         "pet = random.RandomPet(\"pet\", length=2)\n"},
        {"# Copyright\n# coding=utf-8\nx = 1\n",
         "# Copyright\n# coding=utf-8\n\nimport pulumi_random as random\nx = 1\n"
         "pet = random.RandomPet(\"pet\", length=2)\n"},
        {"#!/usr/bin/env python3\n\"\"\"The stack.\"\"\"\nx = 1\n",
         "#!/usr/bin/env python3\n\"\"\"The stack.\"\"\"\n\nimport pulumi_random as random\nx = 1\n"
         "pet = random.RandomPet(\"pet\", length=2)\n"},
        /* a comment below line 2 is no encoding declaration: the import stays above it */
        {"# A stack.\n\n# coding: utf-8\nx = 1\n", "import pulumi_random as random\n\n# A stack.\n\n# coding: utf-8\nx "
                                                   "= 1\npet = random.RandomPet(\"pet\", length=2)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = splice_ok(cases[i][0], LANG_PYTHON, g, "__main__.py", NULL);
        ck_assert_str_eq(out, cases[i][1]);
        free(out);
    }
}
END_TEST

/* A resource constructed through a parenthesised class (`new (random.RandomPet)(...)`, valid
 * TypeScript) was not recognised as the program's: the import was added beside it, two resources of
 * one URN. It is the import's resource now, replaced as `new random.RandomPet(...)` is. */
START_TEST(test_parenthesised_constructor_is_a_resource) {
    const char *g = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                    "const pet = new random.RandomPet(\"pet\", {length: 2});\n";
    static const char *const targets[] = {
        "import * as random from \"@pulumi/random\";\nconst pet = new (random.RandomPet)(\"pet\", {length: 3});\n",
        "import * as random from \"@pulumi/random\";\nconst pet = new ((random.RandomPet))(\"pet\", {length: 3});\n",
        "import {RandomPet} from \"@pulumi/random\";\nconst pet = new (RandomPet)(\"pet\", {length: 3});\n",
    };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        splice_stats_t st;
        char *out = splice_ok(targets[i], LANG_TYPESCRIPT, g, "paren.ts", &st);
        ck_assert_msg(st.replaced == 1 && st.inserted == 0, "%s: replaced %zu, inserted %zu:\n%s", targets[i],
                      (size_t)st.replaced, (size_t)st.inserted, out);
        ck_assert_ptr_null(strstr(strstr(out, "\"pet\"") + 1, "\"pet\""));
        ck_assert_ptr_nonnull(strstr(out, "length: 2"));
        free(out);
    }
}
END_TEST

/* The same headers in a file of CRLF lines (read12c F4): a comment or hashbang node ends before the
 * `\n` but after the `\r`, so the import went between them: `# coding...\r\r\n`, the import line
 * LF-only. Every line keeps its CRLF, as in a CRLF file with no header. */
START_TEST(test_imports_after_header_keep_crlf) {
    const char *py = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\", length=2)\n";
    static const char *const cases[][2] = {
        {"# -*- coding: utf-8 -*-\r\nx = 1\r\n", "# -*- coding: utf-8 -*-\r\n\r\nimport pulumi_random as random\r\n"
                                                 "x = 1\r\npet = random.RandomPet(\"pet\", length=2)\r\n"},
        {"#!/usr/bin/env python3\r\nx = 1\r\n", "#!/usr/bin/env python3\r\n\r\nimport pulumi_random as random\r\n"
                                                "x = 1\r\npet = random.RandomPet(\"pet\", length=2)\r\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = splice_ok(cases[i][0], LANG_PYTHON, py, "__main__.py", NULL);
        ck_assert_str_eq(out, cases[i][1]);
        free(out);
    }
    const char *ts = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                     "const pet = new random.RandomPet(\"pet\", {});\n";
    char *out = splice_ok("#!/usr/bin/env ts-node\r\nconst x = 1;\r\n", LANG_TYPESCRIPT, ts, "she.ts", NULL);
    ck_assert_str_eq(out, "#!/usr/bin/env ts-node\r\n\r\nimport * as random from \"@pulumi/random\";\r\n"
                          "const x = 1;\r\nconst pet = new random.RandomPet(\"pet\", {});\r\n");
    free(out);
}
END_TEST

/* Two resources of the import's type and name, one under a component (read11 F13): the first was
 * taken and the import refused with the advice to remove its `parent` (which would give the program
 * two resources of one URN), though the second is the very resource imported (no parent, as the
 * import). The one whose parent the import gives is replaced. */
START_TEST(test_same_name_picked_by_parent) {
    const char *g = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                    "const pet = new random.RandomPet(\"pet\", {length: 2});\n";
    const char *t = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n"
                    "const comp = new pulumi.ComponentResource(\"x:index:C\", \"comp\");\n"
                    "const inner = new random.RandomPet(\"pet\", {length: 4}, {parent: comp});\n"
                    "const pet = new random.RandomPet(\"pet\", {length: 3});\n";
    splice_stats_t st;
    char *out = splice_ok(t, LANG_TYPESCRIPT, g, "two.ts", &st);
    ck_assert_uint_eq(st.replaced, 1);
    ck_assert_uint_eq(st.inserted, 0);
    ck_assert_ptr_nonnull(strstr(out, "const inner = new random.RandomPet(\"pet\", {length: 4}, {parent: comp});\n"));
    ck_assert_ptr_nonnull(strstr(out, "const pet = new random.RandomPet(\"pet\", {length: 2});\n"));
    free(out);
}
END_TEST

/* A program that holds nothing but its imports: the new import goes with them, above the code (it
 * used to land after the inserted resources, since both edits were at the end of the file). */
START_TEST(test_imports_only_program) {
    const char *g = "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n\n"
                    "const pet = new random.RandomPet(\"pet\", {});\n";
    char *out = splice_ok("import * as pulumi from \"@pulumi/pulumi\";\n", LANG_TYPESCRIPT, g, "index.ts", NULL);
    const char *imp = strstr(out, "import * as random");
    const char *code = strstr(out, "const pet");
    ck_assert_msg(imp && code && imp < code, "the import is not above the code:\n%s", out);
    ck_assert_str_eq(out, "import * as pulumi from \"@pulumi/pulumi\";\nimport * as random from \"@pulumi/random\";\n"
                          "\nconst pet = new random.RandomPet(\"pet\", {});\n");
    free(out);
    const char *gp = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\")\n";
    out = splice_ok("import pulumi\n", LANG_PYTHON, gp, "__main__.py", NULL);
    ck_assert_str_eq(out, "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\")\n");
    free(out);
}
END_TEST

/* keep_existing: the file's resource stays and the new one is added beside it under a fresh variable
 * (the file's is under a parent of its own: another URN; the same URN is refused,
 * test_keep_existing_same_urn_refused). */
START_TEST(test_keep_existing_option) {
    const char *g = "import * as random from \"@pulumi/random\";\nconst pet = new random.RandomPet(\"pet\", {});\n";
    const char *t = "import * as random from \"@pulumi/random\";\n"
                    "const pet = new random.RandomPet(\"pet\", {length: 1}, {parent: c});\n";
    splicer_t *s = splicer_new();
    diag_list_t d;
    diag_list_init(&d);
    splice_options_t o = {.filename = "index.ts", .keep_existing = true};
    char *out;
    bool changed;
    ck_assert(splicer_splice(s, t, strlen(t), LANG_TYPESCRIPT, g, strlen(g), &o, &out, NULL, &changed, NULL, &d));
    ck_assert(changed);
    ck_assert_str_eq(out, "import * as random from \"@pulumi/random\";\n"
                          "const pet = new random.RandomPet(\"pet\", {length: 1}, {parent: c});\n"
                          "const petRandomPet = new random.RandomPet(\"pet\", {});\n");
    free(out);
    diag_list_free(&d);
    splicer_free(s);
}
END_TEST

/* ---------------------------------------------------------------------------------------------- */
/* refusals                                                                                         */

START_TEST(test_refuses_syntax_errors) {
    const char *g = "import * as random from \"@pulumi/random\";\nconst pet = new random.RandomPet(\"pet\", {});\n";
    const char *bad = "import * as pulumi from \"@pulumi/pulumi\";\n\nconst a = foo(;\n";
    char *msg = splice_fail(bad, strlen(bad), LANG_TYPESCRIPT, g, "index.ts");
    ck_assert_str_eq(msg,
                     "index.ts:3: syntax error (unexpected text at column 14): fix the file before inserting into it");
    free(msg);
    const char *py = "import pulumi\nx = 1\n    y = 2\n";
    msg = splice_fail(py, strlen(py), LANG_PYTHON, "import pulumi\n", "__main__.py");
    ck_assert_str_eq(msg, "__main__.py:3: syntax error (a statement is indented differently from the ones before it): "
                          "fix the file before inserting into it");
    free(msg);
    /* the same deep inside multi-line statements (the check descends through every level) */
    const char *pydeep = "import pulumi\nif True:\n    class A:\n        def f(self):\n            x = g(1,\n"
                         "                  2)\n            for i in []:\n                y = 1\n"
                         "                  z = 2\n";
    msg = splice_fail(pydeep, strlen(pydeep), LANG_PYTHON, "import pulumi\n", "__main__.py");
    ck_assert_str_eq(msg, "__main__.py:9: syntax error (a statement is indented differently from the ones before it): "
                          "fix the file before inserting into it");
    free(msg);
    /* in every kind of compound statement, and at the top level after a multi-line statement (the
     * check steps over simple statements, which hold no block) */
    static const struct {
        const char *text;
        int line;
    } pyin[] = {
        {"x = f(1,\n      2)\n  y = 3\n", 3},
        {"with open(p) as f:\n    a = 1\n      b = 2\n", 3},
        {"try:\n    a = 1\nexcept E:\n    b = f(1,\n  2)\n   c = 3\n", 6},
        {"try:\n    a = 1\nfinally:\n    b = 2\n  c = 3\n", 5},
        {"match x:\n    case 1:\n        a = 1\n         b = 2\n", 4},
        {"while x:\n    a = 1\nelse:\n    b = 2\n     c = 3\n", 5},
        {"if x:\n    a = 1\nelif y:\n    b = 2\n      c = 3\n", 5},
        {"@d(1,\n   2)\ndef f():\n    a = 1\n   b = 2\n", 5},
        {"async def f():\n    async for i in g():\n        a = 1\n       b = 2\n", 4},
        {"class A:\n    x = [\n        1,\n    ]\n     y = 2\n", 5},
        {"lambda_ = lambda: (1,\n  2)\nfor i in r:\n    pass\n  q = 1\n", 5},
    };
    for (size_t i = 0; i < sizeof pyin / sizeof *pyin; i++) {
        msg = splice_fail(pyin[i].text, strlen(pyin[i].text), LANG_PYTHON, "import pulumi\n", "__main__.py");
        char want[200];
        snprintf(want, sizeof want,
                 "__main__.py:%d: syntax error (a statement is indented differently from the ones before it): fix the "
                 "file before inserting into it",
                 pyin[i].line);
        ck_assert_msg(strcmp(msg, want) == 0, "case %zu: %s", i, msg);
        free(msg);
    }
    const char *go = "package main\n\nfunc main() {\n\tx := 1\n";
    msg = splice_fail(go, strlen(go), LANG_GO, "package main\n", "main.go");
    ck_assert_str_eq(msg, "main.go:5: syntax error (missing `}` at column 1): fix the file before inserting into it");
    free(msg);
    const char *nobody = "package main\n\nfunc main() {}\n";
    msg = splice_fail(nobody, strlen(nobody), LANG_GO, "package main\n", "main.go");
    ck_assert_str_eq(msg, "main.go: no pulumi.Run(func(ctx *pulumi.Context) error {...}) found: cannot tell where "
                          "resources go; add the definitions by hand or call pulumi.Run in main");
    free(msg);
}
END_TEST

/* A big file's walk is split: the thread walks about three fifths and the caller the rest (Go: of the
 * program body's statements). Names and resources in either part count as in one walk: a resource
 * defined early and one late are replaced, names declared early and late are not taken again. */
START_TEST(test_big_file_walk_split) {
    char *g = fixture("gen.go");
    buf_t b;
    buf_init(&b);
    buf_puts(&b,
             "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
             "\t\"github.com/pulumi/pulumi-tls/sdk/v5/go/tls\"\n\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\n"
             "func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n");
    enum { N = 6000 };
    for (int i = 0; i < N; i++) {
        if (i == N / 10)
            buf_puts(
                &b, "\t\tcertKeyPem := \"x\"\n\t\t_ = certKeyPem\n\t\t_, err := tls.NewPrivateKey(ctx, \"my-key\", "
                    "&tls.PrivateKeyArgs{Algorithm: pulumi.String(\"ECDSA\")})\n\t\tif err != nil {\n\t\t\treturn err\n"
                    "\t\t}\n");
        if (i == N * 9 / 10)
            buf_puts(&b, "\t\tmyKey := \"y\"\n\t\t_ = myKey\n\t\t_, err = random.NewRandomPassword(ctx, \"password\", "
                         "nil)\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n");
        buf_printf(&b, "\t\t_, e%d := random.NewRandomPet(ctx, \"p%d\", nil)\n\t\t_ = e%d\n", i, i, i);
    }
    buf_puts(&b, "\t\treturn nil\n\t})\n}\n");
    char *big = buf_take(&b);
    ck_assert_uint_ge(strlen(big), (size_t)256 * 1024);
    splice_stats_t st;
    char *out = splice_ok(big, LANG_GO, g, "main.go", &st);
    ck_assert_uint_eq(st.replaced, 2);
    ck_assert_uint_eq(st.inserted, 1);
    ck_assert_uint_eq(count(out, "\tmyKey := \"y\""), 1);
    ck_assert_uint_eq(count(out, "\tmyKey, err := "), 0);
    ck_assert_uint_eq(count(out, "\tcertKeyPem := "), 1);
    ck_assert_uint_eq(count(out, "tls.NewPrivateKey("), 1);
    ck_assert_uint_eq(count(out, "random.NewRandomPassword("), 1);
    ck_assert_uint_eq(count(out, "random.NewRandomPet("), N);
    free(out);
    free(big);
    free(g);
}
END_TEST

/* Every diagnostic of a refused splice, formatted, one a line (malloc'd). */
static char *splice_all_diags(const char *target, size_t len, lang_t lang, const char *gen) {
    diag_list_t d;
    diag_list_init(&d);
    splice_options_t o = {.filename = "prog"};
    char *out = NULL;
    splicer_t *s = splicer_new();
    bool ok = splicer_splice(s, target, len, lang, gen, strlen(gen), &o, &out, NULL, NULL, NULL, &d);
    splicer_free(s);
    ck_assert_msg(!ok, "the splice should have been refused");
    ck_assert_ptr_null(out);
    buf_t b;
    buf_init(&b);
    for (const diag_t *x = d.head; x; x = x->next)
        buf_printf(&b, "%s\n", diag_format(&d, x));
    diag_list_free(&d);
    return buf_take(&b);
}

/* A big file (256 KB or more) has the generated program parsed and analysed on a second thread
 * beside its own parse: the refusals, and which one is given when both programs are wrong, are the
 * same as for a small file, where the steps run one after the other. */
START_TEST(test_big_file_refusals_as_small) {
    static const struct {
        lang_t lang;
        const char *head, *stmt, *tail, *bad_tail, *gen_ok, *gen_bad, *gen_nobody;
    } L[] = {
        {LANG_TYPESCRIPT, "import * as random from \"@pulumi/random\";\n",
         "const p%d = new random.RandomPet(\"p%d\", {});\n", "", "const a = foo(;\n",
         "import * as random from \"@pulumi/random\";\nconst q = new random.RandomPet(\"q\", {});\n",
         "import * as random from \"@pulumi/random\";\nconst q = new (;\n", NULL},
        {LANG_PYTHON, "import pulumi_random as random\n", "p%d = random.RandomPet(\"p%d\")\n", "", "x = 1\n    y = 2\n",
         "import pulumi_random as random\nq = random.RandomPet(\"q\")\n",
         "import pulumi_random as random\nq = 1\n  r = 2\n", NULL},
        {LANG_GO,
         "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
         "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
         "\tpulumi.Run(func(ctx *pulumi.Context) error {\n",
         "\t\t_, err%d := random.NewRandomPet(ctx, \"p%d\", nil)\n\t\t_ = err%d\n", "\t\treturn nil\n\t})\n}\n",
         "\t\treturn nil\n\t})\n",
         "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
         "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
         "\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\t_, err := random.NewRandomPet(ctx, \"q\", nil)\n"
         "\t\treturn err\n\t})\n}\n",
         "package main\n\nfunc main() {\n\tx := (\n}\n", "package main\n\nfunc main() {}\n"},
    };
    for (size_t li = 0; li < sizeof L / sizeof *L; li++) {
        for (int big = 0; big < 2; big++) {
            buf_t good, bad, nobody;
            buf_init(&good);
            buf_init(&bad);
            buf_init(&nobody);
            buf_puts(&good, L[li].head);
            int n = big ? 9000 : 3;
            for (int i = 0; i < n; i++)
                buf_printf(&good, L[li].stmt, i, i, i);
            buf_puts(&bad, good.data);
            buf_puts(&bad, L[li].bad_tail);
            buf_puts(&good, L[li].tail);
            if (big) ck_assert_uint_ge(good.len, (size_t)256 * 1024);
            /* the file's error wins over the generated program's; a generated program's error is
             * given for a good file */
            char *r1 = splice_all_diags(bad.data, bad.len, L[li].lang, L[li].gen_bad);
            char *r2 = splice_all_diags(bad.data, bad.len, L[li].lang, L[li].gen_ok);
            char *r3 = splice_all_diags(good.data, good.len, L[li].lang, L[li].gen_bad);
            ck_assert_str_eq(r1, r2);
            ck_assert_msg(strstr(r3, "generated program") && strstr(r3, "cimport bug"), "%s", r3);
            ck_assert_msg(strchr(r1, '\n') == r1 + strlen(r1) - 1, "one error only: %s", r1);
            ck_assert_msg(strstr(r1, "fix the file before inserting into it"), "%s", r1);
            if (L[li].gen_nobody) {
                /* Go: the file without pulumi.Run is named, not the generated program without it */
                buf_puts(&nobody, "package main\n\nfunc helper() {\n");
                for (int i = 0; i < 5 * n; i++)
                    buf_printf(&nobody, "\t_ = %d\n", i);
                buf_puts(&nobody, "}\n\nfunc main() {}\n");
                if (big) ck_assert_uint_ge(nobody.len, (size_t)256 * 1024);
                char *r4 = splice_all_diags(nobody.data, nobody.len, L[li].lang, L[li].gen_nobody);
                char *r5 = splice_all_diags(good.data, good.len, L[li].lang, L[li].gen_nobody);
                ck_assert_msg(strncmp(r4, "prog: no pulumi.Run", 19) == 0 && !strstr(r4, "generated"), "%s", r4);
                ck_assert_msg(strncmp(r5, "generated program: no pulumi.Run", 32) == 0, "%s", r5);
                free(r4);
                free(r5);
            }
            free(r1);
            free(r2);
            free(r3);
            buf_free(&good);
            buf_free(&bad);
            buf_free(&nobody);
        }
    }
}
END_TEST

/* A program whose parse takes unbounded time must not hang cimport (issue 15). Lone `\` line
 * continuations send tree-sitter-python's error recovery into superlinear time (measured with
 * cimport --insert-into before the budget: 16,000 lines 4.1 s, 32,000 lines 12.7 s, 70,000 lines
 * unfinished after 12 minutes). Every parse runs with a time budget; CIMPORT_PARSE_TIMEOUT (seconds) sets it, here
 * 0.2 s so the test stays short. On expiry the splice is refused with nothing returned, and the
 * same splicer (the language server keeps one) parses the next program normally. */
START_TEST(test_parse_budget) {
    ck_assert_int_eq(setenv("CIMPORT_PARSE_TIMEOUT", "0.2", 1), 0);
    buf_t b;
    buf_init(&b);
    buf_printf(&b, "import pulumi\nx = 1\n");
    for (int i = 0; i < 20000; i++)
        buf_printf(&b, "\\\n");
    buf_printf(&b, "y = 2\n");
    const char *gen = "import pulumi\nimport pulumi_random as random\n\npet = random.RandomPet(\"pet\")\n";
    splicer_t *s = splicer_new();
    diag_list_t d;
    diag_list_init(&d);
    splice_options_t o = {.filename = "prog.py"};
    char *out = (char *)1;
    bool changed = true;
    bool ok = splicer_splice(s, b.data, b.len, LANG_PYTHON, gen, strlen(gen), &o, &out, NULL, &changed, NULL, &d);
    ck_assert_msg(!ok, "the splice should have run out of its parse budget");
    ck_assert_ptr_null(out);
    ck_assert_str_eq(diag_format(&d, d.head),
                     "prog.py: cannot parse the Python program within 0.2 s (tree-sitter gave up on text this "
                     "irregular, such as thousands of line continuations; CIMPORT_PARSE_TIMEOUT=SECONDS allows "
                     "longer); nothing was changed");
    ck_assert_int_eq(d.errors, 1);
    ck_assert_int_eq(d.head->code, DIAG_INPUT);
    diag_list_free(&d);
    diag_list_init(&d);
    const char *fine = "import pulumi\n\nx = 1\n";
    ok = splicer_splice(s, fine, strlen(fine), LANG_PYTHON, gen, strlen(gen), &o, &out, NULL, &changed, NULL, &d);
    ck_assert_msg(ok, "%s", d.head ? diag_format(&d, d.head) : "?");
    ck_assert_ptr_nonnull(strstr(out, "pet = random.RandomPet(\"pet\")"));
    free(out);
    diag_list_free(&d);
    splicer_free(s);
    buf_free(&b);
    unsetenv("CIMPORT_PARSE_TIMEOUT");
}
END_TEST

/* A Pulumi YAML program of `n` lines (with `eol` line ends): a description block scalar makes up
 * the bulk, then one resource. */
static char *yaml_program(size_t n, const char *eol) {
    buf_t b;
    buf_init(&b);
    buf_printf(&b, "name: demo%sruntime: yaml%sdescription: |%s", eol, eol, eol);
    for (size_t i = 3; i + 5 < n; i++)
        buf_printf(&b, "  line %zu of the description%s", i, eol);
    buf_printf(&b, "resources:%s  pet:%s    type: random:RandomPet%s    properties:%s      length: 2%s", eol, eol, eol,
               eol, eol);
    return buf_take(&b);
}

/* tree-sitter-yaml 0.7.1's scanner keeps rows in int16_t (CR and LF each count one): past 32,767
 * line breaks it wraps and the whole document becomes an ERROR. Before, a 40,000-line program was
 * refused as "syntax error (unexpected text at column 1): fix the file" (nothing to fix), a CRLF one
 * already at 16,384 lines, and a program just under the limit that the insertion took over it as
 * "internal error ... please report this". Now each says what is wrong, nothing returned; a
 * 30,000-line program is spliced. */
START_TEST(test_yaml_line_limit) {
    const char *g = "resources:\n  extra:\n    type: random:RandomId\n    properties:\n      byteLength: 4\n";
    char *t = yaml_program(40000, "\n");
    char *msg = splice_fail(t, strlen(t), LANG_YAML, g, "Pulumi.yaml");
    ck_assert_str_eq(msg, "Pulumi.yaml: the file has 40000 lines; cimport's YAML grammar (tree-sitter-yaml 0.7.1) "
                          "keeps line numbers in 16 bits and misreads a file of more than 32,767 line breaks (a CR "
                          "LF line end counts as two): split the file, or insert the code by hand");
    free(msg);
    free(t);
    t = yaml_program(20000, "\r\n");
    msg = splice_fail(t, strlen(t), LANG_YAML, g, "Pulumi.yaml");
    ck_assert_str_eq(msg, "Pulumi.yaml: the file has 20000 lines; cimport's YAML grammar (tree-sitter-yaml 0.7.1) "
                          "keeps line numbers in 16 bits and misreads a file of more than 32,767 line breaks (a CR "
                          "LF line end counts as two): split the file, or insert the code by hand");
    free(msg);
    free(t);
    t = yaml_program(32765, "\n");
    msg = splice_fail(t, strlen(t), LANG_YAML, g, "Pulumi.yaml");
    ck_assert_str_eq(msg, "Pulumi.yaml: with the new code inserted, the file has 32769 lines; cimport's YAML grammar "
                          "(tree-sitter-yaml 0.7.1) keeps line numbers in 16 bits and misreads a file of more than "
                          "32,767 line breaks (a CR LF line end counts as two): split the file, or insert the code by "
                          "hand");
    free(msg);
    free(t);
    t = yaml_program(30000, "\n");
    char *out = splice_ok(t, LANG_YAML, g, "Pulumi.yaml", NULL);
    ck_assert_ptr_nonnull(strstr(out, "  extra:\n    type: random:RandomId\n"));
    free(out);
    free(t);
}
END_TEST

START_TEST(test_refuses_bad_encoding) {
    const char *latin1 = "const a = 1;\nconst b = \"Jos\xE9\";\n";
    char *msg = splice_fail(latin1, strlen(latin1), LANG_TYPESCRIPT, "const c = 1;\n", "index.ts");
    ck_assert_str_eq(msg, "index.ts:2: invalid UTF-8 (byte 0xE9): save the file as UTF-8 before inserting into it");
    free(msg);
    const char utf16[] = "\xFF\xFE"
                         "c\0o\0n\0s\0t\0";
    msg = splice_fail(utf16, sizeof utf16 - 1, LANG_TYPESCRIPT, "const c = 1;\n", "index.ts");
    ck_assert_str_eq(msg,
                     "index.ts: the file is UTF-16 (or binary), not UTF-8: save it as UTF-8 before inserting into it");
    free(msg);
    const char *ok = "const b = \"José Müller 🎉\";\n";
    char *out = splice_ok(ok, LANG_TYPESCRIPT, "const c = 1;\n", "index.ts", NULL);
    ck_assert_str_eq(out, "const b = \"José Müller 🎉\";\nconst c = 1;\n");
    free(out);
}
END_TEST

START_TEST(test_write_file_guards) {
    char *dir = tu_mkdtemp();
    char path[1024];
    snprintf(path, sizeof path, "%s/index.ts", dir);
    const char *old = "const a = 1;\n";
    ck_assert(tu_write(path, old));
    ck_assert_int_eq(chmod(path, 0640), 0);
    diag_list_t d;
    diag_list_init(&d);
    /* changed since it was read */
    ck_assert(!splice_write_file(path, "const a = 0;\n", 13, "new\n", 4, &d));
    ck_assert_str_eq(diag_format(&d, d.head),
                     arena_sprintf(d.arena,
                                   "%s: the file changed since it was read (another editor or process wrote "
                                   "it); nothing was written: run the command again",
                                   path));
    char *now = tu_read(path, NULL);
    ck_assert_str_eq(now, old);
    free(now);
    /* read-only */
    ck_assert_int_eq(chmod(path, 0444), 0);
    ck_assert(!splice_write_file(path, old, strlen(old), "new\n", 4, &d));
    ck_assert_str_eq(diag_format(&d, d.tail),
                     arena_sprintf(d.arena, "%s: the file is read-only: make it writable (chmod u+w)", path));
    diag_set_advice(cli_advice); /* the command line's words for what else to do */
    ck_assert(!splice_write_file(path, old, strlen(old), "new\n", 4, &d));
    diag_set_advice(NULL);
    ck_assert_str_eq(diag_format(&d, d.tail),
                     arena_sprintf(d.arena,
                                   "%s: the file is read-only: make it writable (chmod u+w) or print a diff "
                                   "with --diff instead",
                                   path));
    now = tu_read(path, NULL);
    ck_assert_str_eq(now, old);
    free(now);
    /* success keeps the mode and leaves no temporary file */
    ck_assert_int_eq(chmod(path, 0640), 0);
    ck_assert(splice_write_file(path, old, strlen(old), "const a = 2;\n", 13, &d));
    now = tu_read(path, NULL);
    ck_assert_str_eq(now, "const a = 2;\n");
    free(now);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 07777, 0640);
    arena_t *a = arena_new();
    size_t n;
    tu_find_files(a, dir, "", &n);
    ck_assert_uint_eq(n, 1);
    arena_free(a);
    ck_assert_uint_eq(d.errors, 3); /* changed on disk; read-only, with and without the advice */
    diag_list_free(&d);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* ---------------------------------------------------------------------------------------------- */

START_TEST(test_review_diff) {
    const char *old = "a\nb\nc\nd\ne\nf\ng\n";
    const char *neu = "a\nb\nc\nd\nX\ne\nf\ng\n";
    char *diff = review_unified_diff("index.ts", old, strlen(old), neu, strlen(neu));
    ck_assert_str_eq(diff, "--- a/index.ts\n+++ b/index.ts\n@@ -2,6 +2,7 @@ a\n b\n c\n d\n+X\n e\n f\n g\n");
    free(diff);
    diff = review_unified_diff("index.ts", old, strlen(old), old, strlen(old));
    ck_assert_str_eq(diff, "");
    free(diff);
    diff = review_unified_diff("x.py", "a", 1, "a\nb\n", 4);
    ck_assert_str_eq(diff, "--- a/x.py\n+++ b/x.py\n@@ -1 +1,2 @@\n-a\n\\ No newline at end of file\n+a\n+b\n");
    free(diff);
}
END_TEST

START_TEST(test_lang_from_path) {
    static const struct {
        const char *path;
        lang_t lang;
    } P[] = {{"index.ts", LANG_TYPESCRIPT}, {"src/a.mts", LANG_TYPESCRIPT}, {"index.js", LANG_TYPESCRIPT},
             {"__main__.py", LANG_PYTHON},  {"main.go", LANG_GO},           {"Program.cs", LANG_CSHARP},
             {"App.java", LANG_JAVA},       {"Pulumi.yaml", LANG_YAML},     {"dir.d/Main.yml", LANG_YAML}};
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++) {
        lang_t l = LANG_PCL;
        ck_assert_msg(splice_lang_from_path(P[i].path, &l), "%s", P[i].path);
        ck_assert_int_eq(l, P[i].lang);
    }
    lang_t l;
    ck_assert(!splice_lang_from_path("Makefile", &l));
    ck_assert(!splice_lang_from_path("a.rs", &l));
    ck_assert(!splice_lang_from_path("dir.ts/Makefile", &l));
}
END_TEST

/* ---------------------------------------------------------------------------------------------- */
/* real tools: tsc against the SDKs in tests/peers, gofmt, py_compile                               */

START_TEST(test_results_compile) {
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    char *peers = arena_sprintf(a, "%s/tests/peers", SOURCE_DIR);
    struct stat st;
    ck_assert_msg(stat(arena_sprintf(a, "%s/node_modules/typescript/bin/tsc", peers), &st) == 0,
                  "tests/peers/node_modules is missing: run `cd tests/peers && npm ci --ignore-scripts`");
    static const char *const TS[] = {"toplevel.ts", "async.ts", "default.ts"};
    char *gts = fixture("gen.ts");
    buf_t files;
    buf_init(&files);
    for (size_t i = 0; i < 3; i++) {
        char *t = fixture(TS[i]);
        char *out = splice_ok(t, LANG_TYPESCRIPT, gts, TS[i], NULL);
        char *f = arena_sprintf(a, "%s/%s", dir, TS[i]);
        ck_assert(tu_write(f, out));
        buf_printf(&files, "%s\"%s\"", files.len ? "," : "", f);
        free(out);
        free(t);
    }
    buf_putc(&files, 0);
    ck_assert(
        tu_write(arena_sprintf(a, "%s/tsconfig.json", dir),
                 arena_sprintf(a,
                               "{\"compilerOptions\":{\"module\":\"commonjs\",\"target\":\"es2020\",\"strict\":true,"
                               "\"noEmit\":true,\"skipLibCheck\":true,\"moduleResolution\":\"node\","
                               "\"typeRoots\":[\"%s/node_modules/@types\"],\"types\":[\"node\"],"
                               "\"paths\":{\"@pulumi/*\":[\"%s/node_modules/@pulumi/*\"]}},\"files\":[%s]}",
                               peers, peers, files.data)));
    int status;
    char *o = tu_run(
        arena_sprintf(a, "cd '%s' && node '%s/node_modules/typescript/bin/tsc' -p tsconfig.json 2>&1", dir, peers),
        &status);
    ck_assert_msg(status == 0, "tsc rejected spliced TypeScript:\n%s", o);
    free(o);
    buf_free(&files);
    free(gts);

    /* Go: gofmt -l lists nothing; also with the shared emitter's stack_tls output */
    char *ggo = fixture("gen.go"), *tgo = fixture("main.go");
    char *out = splice_ok(tgo, LANG_GO, ggo, "main.go", NULL);
    ck_assert(tu_write(arena_sprintf(a, "%s/main.go", dir), out));
    free(out);
    o = tu_run(arena_sprintf(a, "gofmt -l '%s/main.go' 2>&1", dir), &status);
    ck_assert_msg(status == 0 && o[0] == 0, "gofmt would change the spliced Go:\n%s", o);
    free(o);
    free(ggo);
    free(tgo);

    char *gpy = fixture("gen.py"), *tpy = fixture("__main__.py");
    out = splice_ok(tpy, LANG_PYTHON, gpy, "__main__.py", NULL);
    ck_assert(tu_write(arena_sprintf(a, "%s/__main__.py", dir), out));
    free(out);
    o = tu_run(arena_sprintf(a, "python3 -m py_compile '%s/__main__.py' 2>&1", dir), &status);
    ck_assert_msg(status == 0, "py_compile rejected the spliced Python:\n%s", o);
    free(o);
    free(gpy);
    free(tpy);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* Every program the emitters' own tests keep as golden output (tests/fixtures/emit/<lang>/) spliced
 * into this suite's user programs: parses, is idempotent, and Go stays gofmt-clean. */
START_TEST(test_emitter_outputs) {
    static const struct {
        const char *dir, *ext, *target, *name;
        lang_t lang;
    } C[] = {{"typescript", ".ts", "async.ts", "index.ts", LANG_TYPESCRIPT},
             {"python", ".py", "__main__.py", "__main__.py", LANG_PYTHON},
             {"go", ".go", "main.go", "main.go", LANG_GO},
             {"csharp", ".cs", "MyStack.cs", "MyStack.cs", LANG_CSHARP},
             {"java", ".java", "App.java", "App.java", LANG_JAVA},
             {"yaml", ".yaml", "Main.yaml", "Main.yaml", LANG_YAML}};
    arena_t *a = arena_new();
    char *dir = tu_mkdtemp();
    size_t total = 0;
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        size_t n = 0;
        char **files =
            tu_find_files(a, arena_sprintf(a, "%s/tests/fixtures/emit/%s", SOURCE_DIR, C[i].dir), C[i].ext, &n);
        char *t = fixture(C[i].target);
        for (size_t k = 0; k < n; k++) {
            char *g = tu_read(files[k], NULL);
            ck_assert_ptr_nonnull(g);
            char *out = splice_ok(t, C[i].lang, g, C[i].name, NULL);
            if (C[i].lang == LANG_GO) {
                char *f = arena_sprintf(a, "%s/main%zu.go", dir, k);
                ck_assert(tu_write(f, out));
                int status;
                char *o = tu_run(arena_sprintf(a, "gofmt -l '%s' 2>&1", f), &status);
                ck_assert_msg(status == 0 && o[0] == 0, "gofmt would change %s spliced into main.go", files[k]);
                free(o);
            }
            free(out);
            free(g);
            total++;
        }
        free(t);
    }
    ck_assert_uint_ge(total, 30);
    tu_rmtree(dir);
    free(dir);
    arena_free(a);
}
END_TEST

/* The definitions a file lists, one "logical|type|variable|line" per line. */
static char *defs_text(lang_t lang, const char *text) {
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    splice_definition_t *defs = NULL;
    size_t n = 0;
    bool ok = splice_list_definitions(text, strlen(text), lang, "f", a, &defs, &n, &d);
    ck_assert_msg(ok, "%s", d.head ? diag_format(&d, d.head) : "?");
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < n; i++)
        buf_printf(&b, "%s|%s|%s|%u\n", defs[i].logical_name, defs[i].type, defs[i].variable ? defs[i].variable : "-",
                   defs[i].line);
    diag_list_free(&d);
    arena_free(a);
    return buf_take(&b);
}

/* Resources found through the candidate nodes (the query runs on each constructor call, not the
 * whole tree) are the ones, in the order, the whole-tree query found: nested constructors, a
 * chain whose inner call is a resource too, a comment before the name, a resource in a function.
 * The expected lists are what the whole-tree version listed, and since a name is read past comments
 * before it (not by the query's anchors), the resources with one (a comment before "c", `# why`) too. */
START_TEST(test_resource_candidates_match_whole_tree_query) {
    static const struct {
        lang_t lang;
        const char *text, *want;
    } C[] = {
        {LANG_PYTHON,
         "import pulumi_random as random\n\n"
         "a = random.RandomPet(\"a\", length=2)\n"
         "b = random.RandomId(\"b\", keepers={\"x\": random.RandomPet(\"inner\").id})\n"
         "c = random.RandomPet(\"c\").Other(\"d\")\n"
         "e = random.RandomPet(  # why\n    \"e\")\n"
         "def f():\n    return random.RandomString(\"s\", length=3)\n",
         "a|pulumi_random.RandomPet|a|3\nb|pulumi_random.RandomId|b|4\nc|pulumi_random.RandomPet|-|5\n"
         "e|pulumi_random.RandomPet|e|6\ns|pulumi_random.RandomString|-|9\n"},
        {LANG_TYPESCRIPT,
         "import * as random from \"@pulumi/random\";\n"
         "const a = new random.RandomPet(\"a\", {length: 2});\n"
         "const b = new random.RandomId(\"b\", {keepers: {x: new random.RandomPet(\"inner\").id}});\n"
         "const c = new random.RandomPet(/* c */ \"c\");\n"
         "function f() { return new random.RandomString(\"s\", {length: 3}); }\n",
         "a|@pulumi/random.RandomPet|a|2\nb|@pulumi/random.RandomId|b|3\nc|@pulumi/random.RandomPet|c|4\n"
         "s|@pulumi/random.RandomString|-|5\n"},
        {LANG_GO,
         "package main\n\nimport (\n\t\"github.com/pulumi/pulumi-random/sdk/v4/go/random\"\n"
         "\t\"github.com/pulumi/pulumi/sdk/v3/go/pulumi\"\n)\n\nfunc main() {\n"
         "\tpulumi.Run(func(ctx *pulumi.Context) error {\n"
         "\t\ta, err := random.NewRandomPet(ctx, \"a\", nil)\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n"
         "\t\t_, err = random.NewRandomId(ctx, /* c */ \"b\", &random.RandomIdArgs{Prefix: a.ID()})\n"
         "\t\treturn err\n\t})\n}\n",
         "a|github.com/pulumi/pulumi-random/sdk/v4/go/random.NewRandomPet|a|10\n"
         "b|github.com/pulumi/pulumi-random/sdk/v4/go/random.NewRandomId|-|14\n"},
        {LANG_CSHARP,
         "using Pulumi;\nusing Random = Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n"
         "    var a = new Random.RandomPet(\"a\");\n"
         "    var b = new Random.RandomId(\"b\", new() { Prefix = new Random.RandomPet(\"inner\").Id });\n});\n",
         "a|Pulumi.Random.RandomPet|a|6\nb|Pulumi.Random.RandomId|b|7\n"},
        {LANG_JAVA,
         "package p;\n\nimport com.pulumi.Context;\nimport com.pulumi.Pulumi;\nimport com.pulumi.random.RandomPet;\n\n"
         "public class App {\n    public static void main(String[] args) {\n        Pulumi.run(App::stack);\n    }\n\n"
         "    public static void stack(Context ctx) {\n        var a = new RandomPet(\"a\");\n"
         "        var b = new RandomPet(\"b\", RandomPetArgs.builder().prefix(new "
         "RandomPet(\"inner\").id()).build());\n"
         "    }\n}\n",
         "a|com.pulumi.random.RandomPet|a|13\nb|com.pulumi.random.RandomPet|b|14\n"},
    };
    buf_t bad;
    buf_init(&bad);
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        char *got = defs_text(C[i].lang, C[i].text);
        if (strcmp(got, C[i].want) != 0) buf_printf(&bad, "%s: got\n%s", lang_name(C[i].lang), got);
        free(got);
    }
    ck_assert_msg(bad.len == 0, "%s", bad.data);
    buf_free(&bad);
}
END_TEST

/* Programs the 10-minute fuzz runs crashed the splicer with (a field or child an ERROR-laden tree
 * lacks is a null node, which tree-sitter 0.20.7 dereferences): each is spliced or refused with a
 * message, never a crash. The inputs are fuzz/regressions/splice_<lang>/; as fuzz_splice reads
 * them, a "\n\0\0\n" separates the program from the generated code. */
static void splice_fuzz_regressions(const char *dir, lang_t lang, const char *gen_name) {
    char pat[4200];
    snprintf(pat, sizeof pat, "%s/fuzz/regressions/%s/*", SOURCE_DIR, dir);
    glob_t g;
    ck_assert_int_eq(glob(pat, 0, NULL, &g), 0);
    char *fixture_gen = fixture(gen_name);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        size_t len;
        char *text = tu_read(g.gl_pathv[i], &len);
        ck_assert_ptr_nonnull(text);
        size_t tlen = len;
        const char *gen = fixture_gen;
        size_t glen = strlen(fixture_gen);
        for (size_t k = 0; k + 4 <= len; k++)
            if (memcmp(text + k, "\n\0\0\n", 4) == 0) {
                tlen = k;
                gen = text + k + 4;
                glen = len - k - 4;
                break;
            }
        diag_list_t d;
        diag_list_init(&d);
        splice_options_t o = {.filename = g.gl_pathv[i]};
        char *out = NULL;
        bool changed = false;
        splicer_t *s = splicer_new();
        bool ok = splicer_splice(s, text, tlen, lang, gen, glen, &o, &out, NULL, &changed, NULL, &d);
        ck_assert_msg(ok || d.errors >= 1, "%s: refused without a reason", g.gl_pathv[i]);
        free(out);
        splicer_free(s);
        diag_list_free(&d);
        free(text);
    }
    free(fixture_gen);
    globfree(&g);
}

START_TEST(test_fuzz_regressions_csharp_java) {
    splice_fuzz_regressions("splice_csharp", LANG_CSHARP, "gen.cs");
    splice_fuzz_regressions("splice_java", LANG_JAVA, "gen.java");
}
END_TEST

/* ---------------------------------------------------------------------------------------------- */
/* the program's other files                                                                        */

/* splice_options_t.program_files for the tests: the one file in `user`, the modules the target
 * imports noted. */
typedef struct other_files {
    const splice_file_t *file;
    size_t asked, modules;
} other_files_t;

static bool give_other(void *user, splicer_t *s, const char *const *modules, size_t n_modules,
                       const splice_file_t **others, size_t *n_others, diag_list_t *diags) {
    (void)s;
    (void)modules;
    (void)diags;
    other_files_t *o = user;
    o->asked++;
    o->modules = n_modules;
    *others = o->file;
    *n_others = 1;
    return true;
}

START_TEST(test_read_file_modules_and_resources) {
    splicer_t *s = splicer_new();
    arena_t *a = arena_new();
    diag_list_t d;
    diag_list_init(&d);
    const char *ts = "import * as random from \"@pulumi/random\";\n"
                     "import a from \"./a\";\n"
                     "import \"./b\";\n"
                     "export * from '../c';\n"
                     "const d = require(\"./d\");\n"
                     "import e = require(\"./e\");\n"
                     "// import x from \"./commented\";\n"
                     "const path = \"./not-a-module\";\n"
                     "async function f(name: string) {\n"
                     "    const m = await import(`./f`);\n"
                     "    new random.RandomString(name, {length: 3});\n"
                     "    return new random.RandomString(\"n1\", {length: 3});\n"
                     "}\n";
    splice_file_t f;
    ck_assert(splicer_read_file(s, ts, strlen(ts), LANG_TYPESCRIPT, "lib/other.ts", a, &f, &d));
    ck_assert_str_eq(f.name, "lib/other.ts");
    buf_t b;
    buf_init(&b);
    for (size_t i = 0; i < f.n_modules; i++)
        buf_printf(&b, "%s ", f.modules[i]);
    ck_assert_str_eq(b.data, "./a ./b ./d ./e ../c ./f ");
    b.len = 0;
    const char *py = "import pulumi\nimport storage\nfrom infra import storage as s, net\nfrom . import util\n"
                     "from ..pkg.mod import x\n\ndef g():\n    import lazy\n    return 'not an import'\n";
    splice_file_t pf;
    ck_assert(splicer_read_file(s, py, strlen(py), LANG_PYTHON, "m.py", a, &pf, &d));
    for (size_t i = 0; i < pf.n_modules; i++)
        buf_printf(&b, "%s ", pf.modules[i]);
    ck_assert_str_eq(b.data, "pulumi storage infra infra.storage infra.net .util ..pkg.mod ..pkg.mod.x lazy ");
    buf_free(&b);

    /* splicing a resource the other file defines: refused, naming that file and line */
    const char *g = "import * as random from \"@pulumi/random\";\n"
                    "const n1 = new random.RandomString(\"n1\", {length: 3});\n";
    const char *t = "import * as pulumi from \"@pulumi/pulumi\";\nimport \"./lib/other\";\n";
    other_files_t of = {.file = &f};
    splice_options_t o = {.filename = "index.ts", .program_files = give_other, .program_files_user = &of};
    char *out = NULL;
    bool changed;
    ck_assert(!splicer_splice(s, t, strlen(t), LANG_TYPESCRIPT, g, strlen(g), &o, &out, NULL, &changed, NULL, &d));
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(of.asked, 1);
    ck_assert_uint_eq(of.modules, 1); /* ./lib/other */
    ck_assert_str_eq(diag_format(&d, d.head),
                     "lib/other.ts:12: this file of the program defines the resource 'n1' (`new random.RandomString`), "
                     "and the import would add it to index.ts a second time: one URN twice, which `pulumi up` "
                     "refuses: nothing was changed; leave 'n1' out of this import, or import it into lib/other.ts, "
                     "where its definition would be replaced in place");
    /* a resource of another name: the other file's `new random.RandomString(name, ...)` may be it */
    diag_list_free(&d);
    diag_list_init(&d);
    const char *g2 = "import * as random from \"@pulumi/random\";\n"
                     "const n2 = new random.RandomString(\"n2\", {length: 3});\n";
    ck_assert(!splicer_splice(s, t, strlen(t), LANG_TYPESCRIPT, g2, strlen(g2), &o, &out, NULL, &changed, NULL, &d));
    ck_assert_msg(strstr(diag_format(&d, d.head), "lib/other.ts:11: this file of the program creates a resource (`new "
                                                  "random.RandomString`) under a name cimport cannot read (`name`)"),
                  "%s", diag_format(&d, d.head));
    /* one of another type: added */
    diag_list_free(&d);
    diag_list_init(&d);
    const char *g3 = "import * as random from \"@pulumi/random\";\nconst n1 = new random.RandomPet(\"n1\", {});\n";
    ck_assert(splicer_splice(s, t, strlen(t), LANG_TYPESCRIPT, g3, strlen(g3), &o, &out, NULL, &changed, NULL, &d));
    ck_assert(changed && strstr(out, "new random.RandomPet(\"n1\""));
    free(out);
    /* the other file does not parse: what it defines is unknown */
    const char *bad = "import * as random from \"@pulumi/random\";\nnew random.RandomString(\"n1\", {;\n";
    splice_file_t bf;
    ck_assert(!splicer_read_file(s, bad, strlen(bad), LANG_TYPESCRIPT, "bad.ts", a, &bf, &d));
    ck_assert_msg(strstr(diag_format(&d, d.tail), "bad.ts:2: this file of the program cannot be read: syntax error"),
                  "%s", diag_format(&d, d.tail));
    diag_list_free(&d);
    arena_free(a);
    splicer_free(s);
}
END_TEST

static Suite *splice_suite(void) {
    Suite *s = suite_create("splice");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_typescript_top_level);
    tcase_add_test(tc, test_big_file_walk_on_thread);
    tcase_add_test(tc, test_big_file_walk_split);
    tcase_add_test(tc, test_fuzz_regressions_csharp_java);
    tcase_add_test(tc, test_typescript_async_export_tabs);
    tcase_add_test(tc, test_typescript_export_default);
    tcase_add_test(tc, test_javascript_require_and_no_final_newline);
    tcase_add_test(tc, test_python_nested_replace_and_indent);
    tcase_add_test(tc, test_go_named_run_function);
    tcase_add_test(tc, test_go_existing_err_uses_assign);
    tcase_add_test(tc, test_go_user_component_replaced);
    tcase_add_test(tc, test_csharp_stack_class_and_run_async);
    tcase_add_test(tc, test_csharp_component_replaced);
    tcase_add_test(tc, test_component_four_arguments);
    tcase_add_test(tc, test_options_kept);
    tcase_add_test(tc, test_component_state_kept);
    tcase_add_test(tc, test_python_positional_options_kept);
    tcase_add_test(tc, test_returned_resource_keeps_return);
    tcase_add_test(tc, test_wrapped_resource_keeps_statement);
    tcase_add_test(tc, test_go_return_err_kept);
    tcase_add_test(tc, test_names_read_as_written);
    tcase_add_test(tc, test_unreadable_name_refused);
    tcase_add_test(tc, test_component_class_refused);
    tcase_add_test(tc, test_same_import_id_refused);
    tcase_add_test(tc, test_keep_existing_same_urn_refused);
    tcase_add_test(tc, test_spread_options_refused);
    tcase_add_test(tc, test_yaml_anchor_kept_or_refused);
    tcase_add_test(tc, test_yaml_not_a_program_refused);
    tcase_add_test(tc, test_new_config_read_before_replaced_resource);
    tcase_add_test(tc, test_java_lambda_wildcard_import);
    tcase_add_test(tc, test_yaml_without_resources);
    tcase_add_test(tc, test_yaml_replace_rename_four_spaces);
    tcase_add_test(tc, test_yaml_empty_and_null_resources);
    tcase_add_test(tc, test_yaml_refusal_after_added_resource);
    tcase_add_test(tc, test_yaml_flow_options);
    tcase_add_test(tc, test_yaml_keep_chomping_blank_lines_kept);
    tcase_add_test(tc, test_python_fstring_field_replaced_or_refused);
    tcase_add_test(tc, test_python2_forms_refused);
    tcase_add_test(tc, test_python_form_feed_indent);
    tcase_add_test(tc, test_crlf_and_bom_kept);
    tcase_add_test(tc, test_imports_into_file_without_any);
    tcase_add_test(tc, test_imports_only_program);
    tcase_add_test(tc, test_imports_after_hashbang_and_directive);
    tcase_add_test(tc, test_python_imports_after_shebang_and_coding);
    tcase_add_test(tc, test_imports_after_header_keep_crlf);
    tcase_add_test(tc, test_parenthesised_constructor_is_a_resource);
    tcase_add_test(tc, test_same_name_picked_by_parent);
    tcase_add_test(tc, test_keep_existing_option);
    tcase_add_test(tc, test_read_file_modules_and_resources);
    tcase_add_test(tc, test_refuses_syntax_errors);
    tcase_add_test(tc, test_big_file_refusals_as_small);
    tcase_add_test(tc, test_refuses_bad_encoding);
    tcase_add_test(tc, test_parse_budget);
    tcase_add_test(tc, test_yaml_line_limit);
    tcase_add_test(tc, test_write_file_guards);
    tcase_add_test(tc, test_resource_candidates_match_whole_tree_query);
    tcase_add_test(tc, test_review_diff);
    tcase_add_test(tc, test_lang_from_path);
    tcase_add_test(tc, test_results_compile);
    tcase_add_test(tc, test_emitter_outputs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(splice_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

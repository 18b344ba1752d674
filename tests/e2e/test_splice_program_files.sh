#!/usr/bin/env bash
# test_splice_program_files.sh — a program split across files (read15 F4). Splicing into one file of a
# program must not add a resource that another file of the program already defines: two definitions of
# one URN make `pulumi up` fail. The program's other files are those its language's build or runtime
# takes in: a Go package's .go files (not its tests), the local modules a Python or TypeScript entry
# imports (and what they import), a .NET project's .cs files (not bin/ or obj/), a Java source tree.
# Each case runs the real CLI (`--insert-into`) or the language server (`cimport lsp`) and asserts either
# a refusal — non-zero exit, a message naming the other file, its line and the resource, and every file
# of the program byte-identical — or a success where the other file does not belong to the program.
set -u
unset PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
export PULUMI_HOME="$tmp/pulumi-home"
unset PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
QS="$SOURCE_DIR/examples/quickstart"
SCH="$SHARED_DATA/schemas/random/schema.json"
# server-name and bucket-suffix (no reference between them)
cat >"$tmp/two.json" <<'EOF'
{"resources": [
  {"type": "random:index/randomString:RandomString", "name": "serverName", "logicalName": "server-name", "id": "mq7xk2vt9fzr"},
  {"type": "random:index/randomString:RandomString", "name": "bucket-suffix", "id": "x7k2p9qa"}
]}
EOF

# A digest of every file below a directory (names and contents), run.log and the checks' own files aside.
digest() { (cd "$1" && find . -type f ! -name run.log ! -name digest -print0 | sort -z | xargs -0 sha256sum); }

# refused NAME FILE WANT...: importing two.json into $tmp/NAME/FILE must exit non-zero, leave every file
# of the directory as it was, and say each WANT.
refused() {
  local name=$1 file=$2 d="$tmp/$1"
  shift 2
  digest "$d" >"$tmp/$name.digest"
  if (cd "$d" && "$CIMPORT" --spec "$tmp/two.json" --offline-state "$QS/stack.json" --schema "$SCH" --insert-into "$file" >run.log 2>&1); then
    bad "$name: exit 0, but another file of the program defines a resource the import adds:
$(cat "$d/run.log")
$(cat "$d/$file")"
    return
  fi
  digest "$d" | cmp -s - "$tmp/$name.digest" || { bad "$name: refused but a file changed"; return; }
  local w
  for w in "$@"; do
    grep -qF -- "$w" "$d/run.log" || { bad "$name: the refusal does not say '$w': $(cat "$d/run.log")"; return; }
  done
  ok
}

# added NAME FILE: importing two.json into $tmp/NAME/FILE must succeed and add both resources there.
added() {
  local name=$1 file=$2 d="$tmp/$1"
  if ! (cd "$d" && "$CIMPORT" --spec "$tmp/two.json" --offline-state "$QS/stack.json" --schema "$SCH" --insert-into "$file" >run.log 2>&1); then
    bad "$name: refused, but no other file of the program defines these resources: $(cat "$d/run.log")"
    return
  fi
  grep -q '"server-name"' "$d/$file" && grep -q '"bucket-suffix"' "$d/$file" && grep -qF "2 added" "$d/run.log" && ok ||
    bad "$name: exit 0 but the resources were not added: $(cat "$d/run.log")
$(cat "$d/$file")"
}

# ---- TypeScript: local modules the entry imports --------------------------------------------------------
mkdir -p "$tmp/tsimp" "$tmp/tsdir/lib" "$tmp/tsok" "$tmp/tsbroken" "$tmp/tsunread" "$tmp/tsentry" "$tmp/tsdeep"
for d in tsimp tsdir tsok tsbroken tsunread tsentry tsdeep; do printf 'name: %s\nruntime: nodejs\n' "$d" >"$tmp/$d/Pulumi.yaml"; done
cat >"$tmp/tsimp/index.ts" <<'EOF'
import * as pulumi from "@pulumi/pulumi";
import { name } from "./storage";

export const n = name.result;
EOF
cat >"$tmp/tsimp/storage.ts" <<'EOF'
import * as random from "@pulumi/random";

export const name = new random.RandomString("server-name", {length: 12});
EOF
cp -r "$tmp/tsimp" "$tmp/lspts" # for the language server, below
refused tsimp index.ts "storage.ts:3" "'server-name'" "nothing was changed" "leave 'server-name' out of this import, or import it into storage.ts"
# a directory's index, reached through require() and a side-effect import
printf 'import "./lib";\nconst helpers = require("./helpers");\n\nexport const x = helpers;\n' >"$tmp/tsdir/index.ts"
printf 'export const h = 1;\n' >"$tmp/tsdir/helpers.ts"
printf 'import * as random from "@pulumi/random";\n\nnew random.RandomString("bucket-suffix", {length: 8});\n' >"$tmp/tsdir/lib/index.ts"
refused tsdir index.ts "lib/index.ts:3" "bucket-suffix"
# a module of another resource, and a file no module imports (not part of the program): added
printf 'import { pet } from "./util";\n\nexport const p = pet.id;\n' >"$tmp/tsok/index.ts"
printf 'import * as random from "@pulumi/random";\n\nexport const pet = new random.RandomPet("other");\n' >"$tmp/tsok/util.ts"
printf 'import * as random from "@pulumi/random";\n\nexport const old = new random.RandomString("server-name", {length: 3});\n' >"$tmp/tsok/old.ts"
added tsok index.ts
# a module that does not parse: cimport cannot tell what it defines
printf 'import "./storage";\n' >"$tmp/tsbroken/index.ts"
printf 'import * as random from "@pulumi/random";\n\nexport const name = new random.RandomString("x", {length: 12};\n' >"$tmp/tsbroken/storage.ts"
refused tsbroken index.ts "storage.ts" "cannot be read"
# a JSX module (valid: TypeScript resolves ./page to page.tsx): cimport's TypeScript grammar has no JSX,
# so it says that, not "syntax error ... fix the file" (read17 F2)
mkdir -p "$tmp/tsjsx" && printf 'name: tsjsx\nruntime: nodejs\n' >"$tmp/tsjsx/Pulumi.yaml"
printf 'import { page } from "./page";\n\nexport const n = page;\n' >"$tmp/tsjsx/index.ts"
printf 'export const page = <div className="x">hello</div>;\n' >"$tmp/tsjsx/page.tsx"
refused tsjsx index.ts "page.tsx" "is JSX (.tsx), which cimport cannot read"
# a module that creates resources of the type under a name it computes
cat >"$tmp/tsunread/index.ts" <<'EOF'
import { mk } from "./mk";

export const a = mk("alpha");
EOF
cat >"$tmp/tsunread/mk.ts" <<'EOF'
import * as random from "@pulumi/random";

export function mk(name: string) {
    return new random.RandomString(name, {length: 3});
}
EOF
refused tsunread index.ts "mk.ts:4" "may be the same resource"
# inserting into a module: the entry (index.ts) defines the resource
printf 'import * as random from "@pulumi/random";\nimport "./extra";\n\nexport const s = new random.RandomString("server-name", {length: 12});\n' >"$tmp/tsentry/index.ts"
printf 'import * as random from "@pulumi/random";\n\nexport const e = new random.RandomPet("extra");\n' >"$tmp/tsentry/extra.ts"
refused tsentry extra.ts "index.ts:4" "server-name"
# imported two levels down, through an import written with .js (TypeScript's ESM form) and `export from`
printf 'export * from "./a.js";\n' >"$tmp/tsdeep/index.ts"
printf 'export { b } from "../tsdeep/b";\n' >"$tmp/tsdeep/a.ts"
printf 'import * as random from "@pulumi/random";\n\n\nexport const b = new random.RandomString("server-name", {length: 12});\n' >"$tmp/tsdeep/b.ts"
refused tsdeep index.ts "b.ts:4" "server-name"

# ---- Python: local modules __main__.py imports ------------------------------------------------------------
mkdir -p "$tmp/pyimp" "$tmp/pypkg/infra" "$tmp/pyok"
for d in pyimp pypkg pyok; do printf 'name: %s\nruntime: python\n' "$d" >"$tmp/$d/Pulumi.yaml"; done
printf 'import pulumi\nimport storage\n\npulumi.export("n", storage.name.result)\n' >"$tmp/pyimp/__main__.py"
printf 'import pulumi_random as random\n\nname = random.RandomString("server-name", length=12)\n' >"$tmp/pyimp/storage.py"
refused pyimp __main__.py "storage.py:3" "server-name"
printf 'import pulumi\nfrom infra import storage\n\npulumi.export("n", storage.name.result)\n' >"$tmp/pypkg/__main__.py"
: >"$tmp/pypkg/infra/__init__.py"
printf 'import pulumi_random\n\n\nname = pulumi_random.RandomString(\n    "bucket-suffix", length=8)\n' >"$tmp/pypkg/infra/storage.py"
refused pypkg __main__.py "infra/storage.py:4" "bucket-suffix" "where its definition would be replaced in place"
# a module the program does not import
printf 'import pulumi\n\npulumi.export("x", 1)\n' >"$tmp/pyok/__main__.py"
printf 'import pulumi_random as random\n\nname = random.RandomString("server-name", length=12)\n' >"$tmp/pyok/stray.py"
added pyok __main__.py

# ---- a module the entry never imports: `pulumi up` runs the entry and what it imports, so code added to
# another file would never run (the resources neither imported nor, into a stack, kept): refused. A module
# the entry imports, directly or through another, is inserted into.
mkdir -p "$tmp/pystray" "$tmp/tsstray" "$tmp/pyreach/infra" "$tmp/tsreach/lib"
printf 'name: pystray\nruntime: python\n' >"$tmp/pystray/Pulumi.yaml"
printf 'import pulumi\n\npulumi.export("x", 1)\n' >"$tmp/pystray/__main__.py"
printf 'import pulumi_random as random\n\npet = random.RandomPet("pet")\n' >"$tmp/pystray/stray.py"
refused pystray stray.py "stray.py" "__main__.py" "not imported" "nothing was changed"
printf 'name: tsstray\nruntime: nodejs\n' >"$tmp/tsstray/Pulumi.yaml"
printf 'import * as pulumi from "@pulumi/pulumi";\nimport "./used";\n\nexport const x = 1;\n' >"$tmp/tsstray/index.ts"
printf 'import * as random from "@pulumi/random";\nimport "./old";\n\nexport const p = new random.RandomPet("p");\n' >"$tmp/tsstray/old2.ts"
printf 'export const u = 1;\n' >"$tmp/tsstray/used.ts"
printf 'import * as random from "@pulumi/random";\n\nexport const o = new random.RandomPet("o");\n' >"$tmp/tsstray/old.ts"
refused tsstray old.ts "old.ts" "index.ts" "not imported" "nothing was changed"
printf 'name: pyreach\nruntime: python\n' >"$tmp/pyreach/Pulumi.yaml"
printf 'import pulumi\nfrom infra import storage\n\npulumi.export("n", storage.pet.id)\n' >"$tmp/pyreach/__main__.py"
: >"$tmp/pyreach/infra/__init__.py"
printf 'import pulumi_random as random\n\npet = random.RandomPet("pet")\n' >"$tmp/pyreach/infra/storage.py"
added pyreach infra/storage.py
printf 'name: tsreach\nruntime: nodejs\n' >"$tmp/tsreach/Pulumi.yaml"
printf 'export * from "./lib";\n' >"$tmp/tsreach/index.ts"
printf 'export { p } from "./pets.js";\n' >"$tmp/tsreach/lib/index.ts"
printf 'import * as random from "@pulumi/random";\n\nexport const p = new random.RandomPet("p");\n' >"$tmp/tsreach/lib/pets.ts"
added tsreach lib/pets.ts
# ... nor a module the entry imports for types alone, which the compiler erases (TypeScript `import type`,
# `export type {...} from`, a clause of `type` names only) or the runtime never runs (Python under `if
# TYPE_CHECKING:`): `pulumi up` never loads it (read18 F1). A clause with a value beside its types loads it.
for d in tstype tsexporttype tstypespec tsmixed pytypechecking; do
  mkdir -p "$tmp/$d"
  case $d in ts*) rt=nodejs ;; *) rt=python ;; esac
  printf 'name: %s\nruntime: %s\n' "$d" "$rt" >"$tmp/$d/Pulumi.yaml"
  case $d in
    ts*) printf 'import * as random from "@pulumi/random";\nexport interface Cfg { n: number }\nexport const o = new random.RandomPet("o");\n' >"$tmp/$d/infra.ts" ;;
    *) printf 'import pulumi_random as random\n\no = random.RandomPet("o")\n' >"$tmp/$d/stray.py" ;;
  esac
done
printf 'import type { Cfg } from "./infra";\nconst c: Cfg = { n: 1 };\nexport const x = c.n;\n' >"$tmp/tstype/index.ts"
refused tstype infra.ts "infra.ts" "index.ts" "not imported" "nothing was changed"
printf 'export type { Cfg } from "./infra";\n' >"$tmp/tsexporttype/index.ts"
refused tsexporttype infra.ts "not imported"
printf 'import { type Cfg } from "./infra";\nconst c: Cfg = { n: 1 };\nexport const x = c.n;\n' >"$tmp/tstypespec/index.ts"
refused tstypespec infra.ts "not imported"
printf 'import { type Cfg, o } from "./infra";\nconst c: Cfg = { n: 1 };\nexport const x = [c.n, o];\n' >"$tmp/tsmixed/index.ts"
added tsmixed infra.ts
printf 'import pulumi\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import stray\n\npulumi.export("x", 1)\n' >"$tmp/pytypechecking/__main__.py"
refused pytypechecking stray.py "stray.py" "__main__.py" "not imported"

# ---- Go: the package's other files --------------------------------------------------------------------------
mkdir -p "$tmp/gomulti" "$tmp/gotest"
for d in gomulti gotest; do printf 'name: %s\nruntime: go\n' "$d" >"$tmp/$d/Pulumi.yaml"; done
for d in gomulti gotest; do
  cat >"$tmp/$d/main.go" <<'EOF'
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		return createStorage(ctx)
	})
}
EOF
done
storage_go='package main

import (
	"github.com/pulumi/pulumi-random/sdk/v4/go/random"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func createStorage(ctx *pulumi.Context) error {
	_, err := random.NewRandomString(ctx, "server-name", &random.RandomStringArgs{Length: pulumi.Int(12)})
	return err
}'
printf '%s\n' "$storage_go" >"$tmp/gomulti/storage.go"
refused gomulti main.go "storage.go:9" "server-name" "change its definition in storage.go by hand"
# a test file is not built into the program
printf 'package main\n\nfunc createStorage(ctx *pulumi.Context) error { return nil }\n' >"$tmp/gotest/storage.go"
printf '%s\n' "$storage_go" | sed 's/func createStorage/func testStorage/' >"$tmp/gotest/storage_test.go"
added gotest main.go
# nor are files go build ignores: a name beginning with _ or ., a `//go:build ignore` file (a `go run
# gen.go` generator) (read17 F4: refused as files of the program)
for d in gounder goignore; do
  mkdir -p "$tmp/$d" && printf 'name: %s\nruntime: go\n' "$d" >"$tmp/$d/Pulumi.yaml"
  cp "$tmp/gotest/storage.go" "$tmp/$d/" && cp "$tmp/gomulti/main.go" "$tmp/$d/"
done
printf '%s\n' "$storage_go" | sed 's/func createStorage/func oldStorage/' >"$tmp/gounder/_old.go"
printf '%s\n' "$storage_go" | sed 's/func createStorage/func oldStorage/' >"$tmp/gounder/.hidden.go"
{ printf '//go:build ignore\n\n'; printf '%s\n' "$storage_go" | sed 's/func createStorage/func main/'; } >"$tmp/goignore/gen.go"
added gounder main.go
added goignore main.go
# ... but a constraint that holds here, or one cimport cannot evaluate, keeps the file in
mkdir -p "$tmp/gobuild" && printf 'name: gobuild\nruntime: go\n' >"$tmp/gobuild/Pulumi.yaml"
cp "$tmp/gotest/storage.go" "$tmp/gobuild/" && cp "$tmp/gomulti/main.go" "$tmp/gobuild/"
{ printf '//go:build !ignore\n\n'; printf '%s\n' "$storage_go" | sed 's/func createStorage/func moreStorage/'; } >"$tmp/gobuild/more.go"
refused gobuild main.go "more.go:11" "server-name"

# ---- C#: the project's .cs files (bin/ and obj/ are build output) ---------------------------------------------
mkdir -p "$tmp/csmulti/Infra" "$tmp/csmulti/obj/Debug"
printf 'name: csmulti\nruntime: dotnet\n' >"$tmp/csmulti/Pulumi.yaml"
printf '<Project Sdk="Microsoft.NET.Sdk"></Project>\n' >"$tmp/csmulti/csmulti.csproj"
cat >"$tmp/csmulti/Program.cs" <<'EOF'
using System.Collections.Generic;
using Pulumi;

return await Deployment.RunAsync(() =>
{
    Storage.Create();
    return new Dictionary<string, object?>();
});
EOF
cat >"$tmp/csmulti/Infra/Storage.cs" <<'EOF'
using Pulumi.Random;

static class Storage
{
    public static void Create()
    {
        var name = new RandomString("server-name", new RandomStringArgs { Length = 12 });
    }
}
EOF
printf 'using Pulumi.Random;\n\nstatic class Old { static void M() { new RandomString("bucket-suffix", new RandomStringArgs { Length = 8 }); } }\n' >"$tmp/csmulti/obj/Debug/Old.cs"
refused csmulti Program.cs "Storage.cs:7" "server-name"
grep -qF "Old.cs" "$tmp/csmulti/run.log" && bad "csmulti: obj/ is build output, not the program: $(cat "$tmp/csmulti/run.log")" || ok

# ---- Java: the source tree --------------------------------------------------------------------------------------
mkdir -p "$tmp/javamulti/src/main/java/myproject/infra"
printf 'name: javamulti\nruntime: java\n' >"$tmp/javamulti/Pulumi.yaml"
cat >"$tmp/javamulti/src/main/java/myproject/App.java" <<'EOF'
package myproject;

import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            myproject.infra.Storage.create(ctx);
        });
    }
}
EOF
cat >"$tmp/javamulti/src/main/java/myproject/infra/Storage.java" <<'EOF'
package myproject.infra;

import com.pulumi.Context;
import com.pulumi.random.RandomString;
import com.pulumi.random.RandomStringArgs;

public class Storage {
    public static void create(Context ctx) {
        new RandomString("server-name", RandomStringArgs.builder().length(12).build());
    }
}
EOF
refused javamulti src/main/java/myproject/App.java "Storage.java:9" "server-name"

# ---- read18 F2: a class of the program's own reached through another file — a subclass of the package's
# resource class (which registers the resource's own type), or the package's class re-exported by a local
# module — makes the resource the import adds: one URN twice. cimport cannot trace it: refused, every file
# unchanged. A component class of another file (or one through a base of its own) is the program's own type:
# added.
for d in tssubclass tsreexport tsnsreexport tscomp pysubclass pyreexport pycomp; do
  mkdir -p "$tmp/$d"
  case $d in ts*) rt=nodejs ;; *) rt=python ;; esac
  printf 'name: %s\nruntime: %s\n' "$d" "$rt" >"$tmp/$d/Pulumi.yaml"
done
printf 'import { Str } from "./str";\n\nexport const s = new Str("server-name", {length: 3});\n' >"$tmp/tssubclass/index.ts"
printf 'import * as random from "@pulumi/random";\n\nexport class Str extends random.RandomString {}\n' >"$tmp/tssubclass/str.ts"
refused tssubclass index.ts "index.ts:3" "cannot trace" "may be the same resource" "nothing was changed"
printf 'import { RS } from "./lib";\n\nexport const s = new RS("server-name", {length: 3});\n' >"$tmp/tsreexport/index.ts"
printf 'export { RandomString as RS } from "@pulumi/random";\n' >"$tmp/tsreexport/lib.ts"
refused tsreexport index.ts "cannot trace" "may be the same resource"
printf 'import * as lib from "./lib";\n\nexport const s = new lib.random.RandomString("server-name", {length: 3});\n' >"$tmp/tsnsreexport/index.ts"
printf 'import * as random from "@pulumi/random";\nexport { random };\n' >"$tmp/tsnsreexport/lib.ts"
refused tsnsreexport index.ts "cannot trace" "may be the same resource"
printf 'import { Server } from "./server";\n\nexport const s = new Server("server-name");\n' >"$tmp/tscomp/index.ts"
printf 'import * as pulumi from "@pulumi/pulumi";\n\nexport class Base extends pulumi.ComponentResource {}\n' >"$tmp/tscomp/base.ts"
printf 'import { Base } from "./base";\n\nexport class Server extends Base {\n    constructor(name: string) { super("my:index:Server", name, {}); }\n}\n' >"$tmp/tscomp/server.ts"
added tscomp index.ts
printf 'import pulumi\nfrom strs import Str\n\ns = Str("server-name", length=3)\n' >"$tmp/pysubclass/__main__.py"
printf 'import pulumi_random\n\n\nclass Str(pulumi_random.RandomString):\n    pass\n' >"$tmp/pysubclass/strs.py"
refused pysubclass __main__.py "__main__.py:4" "cannot trace" "may be the same resource"
printf 'import pulumi\nfrom lib import RS\n\ns = RS("server-name", length=3)\n' >"$tmp/pyreexport/__main__.py"
printf 'from pulumi_random import RandomString as RS\n' >"$tmp/pyreexport/lib.py"
refused pyreexport __main__.py "cannot trace" "may be the same resource"
printf 'import pulumi\nfrom comps import Server\n\ns = Server("server-name")\n' >"$tmp/pycomp/__main__.py"
printf 'import pulumi\n\n\nclass Server(\n    pulumi.ComponentResource,\n):\n    def __init__(self, name):\n        super().__init__("my:index:Server", name, None, None)\n' >"$tmp/pycomp/comps.py"
added pycomp __main__.py
# C# and Java: a class of another file of the namespace (package) needs no import; C# also in the same file
mkdir -p "$tmp/cssubclass" "$tmp/cssame" "$tmp/cssameq" "$tmp/javasubclass/src/main/java/myproject"
for d in cssubclass cssame cssameq; do
  printf 'name: %s\nruntime: dotnet\n' "$d" >"$tmp/$d/Pulumi.yaml"
  printf '<Project Sdk="Microsoft.NET.Sdk"></Project>\n' >"$tmp/$d/$d.csproj"
done
printf 'using Pulumi;\nusing Pulumi.Random;\n\nreturn await Deployment.RunAsync(() =>\n{\n    var s = new Str("server-name", new() { Length = 3 });\n});\n' >"$tmp/cssubclass/Program.cs"
printf 'using Pulumi.Random;\n\nclass Str : RandomString\n{\n    public Str(string name, RandomStringArgs args) : base(name, args) { }\n}\n' >"$tmp/cssubclass/Str.cs"
refused cssubclass Program.cs "cannot trace" "may be the same resource"
{ cat "$tmp/cssubclass/Program.cs"; printf '\n'; sed 1,2d "$tmp/cssubclass/Str.cs"; } >"$tmp/cssame/Program.cs"
refused cssame Program.cs "cannot trace" "may be the same resource"
sed -e 's/^using Pulumi.Random;$//' -e 's/class Str : RandomString/class Str : Pulumi.Random.RandomString/' \
  -e 's/RandomStringArgs args/Pulumi.Random.RandomStringArgs args/' "$tmp/cssame/Program.cs" >"$tmp/cssameq/Program.cs"
refused cssameq Program.cs "cannot trace" "may be the same resource"
printf 'name: javasubclass\nruntime: java\n' >"$tmp/javasubclass/Pulumi.yaml"
printf 'package myproject;\n\nimport com.pulumi.Pulumi;\nimport com.pulumi.random.RandomStringArgs;\n\npublic class App {\n    public static void main(String[] args) {\n        Pulumi.run(ctx -> {\n            new Str("server-name", RandomStringArgs.builder().length(3).build());\n        });\n    }\n}\n' >"$tmp/javasubclass/src/main/java/myproject/App.java"
printf 'package myproject;\n\nimport com.pulumi.random.RandomString;\nimport com.pulumi.random.RandomStringArgs;\n\npublic class Str extends RandomString {\n    public Str(String name, RandomStringArgs args) { super(name, args); }\n}\n' >"$tmp/javasubclass/src/main/java/myproject/Str.java"
refused javasubclass src/main/java/myproject/App.java "cannot trace" "may be the same resource"

# ---- too many files: refused, with the cap named ----------------------------------------------------------------
mkdir -p "$tmp/gomany"
printf 'name: gomany\nruntime: go\n' >"$tmp/gomany/Pulumi.yaml"
cp "$tmp/gotest/main.go" "$tmp/gomany/main.go"
printf 'package main\n\nfunc createStorage(ctx *pulumi.Context) error { return nil }\n' >"$tmp/gomany/storage.go"
for i in $(seq 1 1001); do printf 'package main\n' >"$tmp/gomany/f$i.go"; done
refused gomany main.go "1000" "source files"

# ---- the language server: the same refusal for the editor's buffer ------------------------------------------------
cat >"$tmp/lsp.py" <<'EOF'
import json, subprocess, sys
cimport, root, doc, spec, offline, schema = sys.argv[1:7]
p = subprocess.Popen([cimport, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def send(m):
    b = json.dumps(m).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    p.stdin.flush()
def recv():
    n = None
    while True:
        line = p.stdout.readline()
        if not line:
            return None
        if line.startswith(b"Content-Length:"):
            n = int(line.split(b":")[1])
        if line in (b"\r\n", b"\n"):
            return json.loads(p.stdout.read(n))
uri = "file://" + root + "/" + doc
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": "file://" + root,
      "capabilities": {}, "initializationOptions": {"offlineState": offline, "schemas": [schema]}}})
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "typescript",
      "version": 1, "text": open(root + "/" + doc).read()}}})
send({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand", "params": {"command": "cimport.importFile",
      "arguments": [{"path": spec, "uri": uri}]}})
out = "no answer"
while True:
    m = recv()
    if m is None:
        break
    if m.get("id") == 2 and "method" not in m:
        out = "error: " + m["error"]["message"] if "error" in m else "edit: " + json.dumps(m.get("result"))
        break
send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
send({"jsonrpc": "2.0", "method": "exit"})
p.wait(timeout=30)
print(out)
EOF
digest "$tmp/lspts" >"$tmp/lsp.digest"
lsp_out=$(timeout 120 python3 "$tmp/lsp.py" "$CIMPORT" "$tmp/lspts" index.ts "$tmp/two.json" "$QS/stack.json" "$SCH" 2>&1)
case "$lsp_out" in
  error:*storage.ts:3*server-name*) ok ;;
  *) bad "lsp: importing into index.ts, whose module storage.ts defines server-name, was not refused naming it: $lsp_out" ;;
esac
digest "$tmp/lspts" | cmp -s - "$tmp/lsp.digest" && ok || bad "lsp: a file of the program changed"

echo "test_splice_program_files: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# test_splice_order.sh — --insert-into must write code that runs where the program runs (read15 F1, F2,
# F14, F3, F11, F15): a replaced resource must not name a variable declared after it; new code must not go after
# a statement that never completes (a final if/else or switch whose branches all return, a labelled
# return), nor outside a body written on one line; and Go/Java code must pass the program's own Context
# parameter (`pctx`, `context`), not `ctx`; a resource whose class is reached through an alias
# (`const RS = random.RandomString`, `R2 = pulumi_random.RandomString`, `import random = require(...)`)
# must not be added a second time; a resource replaced inside an f-string's replacement field (C#: an
# interpolated string's hole) must be written as the language's versions before 3.12 (C# 11) read it
# (read15 F15). Each case either succeeds and the result is checked by a
# real tool (tsc --strict against tests/peers; python3 run against a stub SDK; `go build` against stub
# modules; TypeScript transpiled and run by node against stubs, counting the resources constructed), or
# is refused: non-zero exit, a message naming the reason, the file byte-identical.
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
peers="$SOURCE_DIR/tests/peers"
tsc="$peers/node_modules/typescript/bin/tsc"
[ -f "$tsc" ] || { echo "FAIL: $peers/node_modules is missing: run scripts/setup.sh first" >&2; exit 1; }
# server-name (RandomString) and http-port (RandomInteger, whose seed the code writes as serverName.id)
cat >"$tmp/imports.json" <<'EOF'
{"resources": [
  {"type": "random:index/randomString:RandomString", "name": "serverName", "logicalName": "server-name", "id": "mq7xk2vt9fzr"},
  {"type": "random:index/randomInteger:RandomInteger", "name": "http-port", "id": "8443,8000,8999,mq7xk2vt9fzr"}
]}
EOF
# server-name and bucket-suffix (no reference between them)
cat >"$tmp/two.json" <<'EOF'
{"resources": [
  {"type": "random:index/randomString:RandomString", "name": "serverName", "logicalName": "server-name", "id": "mq7xk2vt9fzr"},
  {"type": "random:index/randomString:RandomString", "name": "bucket-suffix", "id": "x7k2p9qa"}
]}
EOF

# ---- checkers ----------------------------------------------------------------------------------------
cat >"$tmp/tsconfig.json" <<EOF
{"compilerOptions": {"module": "commonjs", "target": "es2020", "strict": true, "noEmit": true, "skipLibCheck": true,
  "moduleResolution": "node", "typeRoots": ["$peers/node_modules/@types"], "types": ["node"],
  "paths": {"@pulumi/*": ["$peers/node_modules/@pulumi/*"]}}, "files": ["prog.ts"]}
EOF
check_tsc() { cp "$1" "$tmp/prog.ts" && (cd "$tmp" && node "$tsc" -p tsconfig.json 2>&1); }
# run_ts FILE: transpiles and runs the program against stubs (calling an exported function), prints the
# names of the resources constructed, in order
cat >"$tmp/run_ts.js" <<EOF
const ts = require("$peers/node_modules/typescript");
const src = require("fs").readFileSync(process.argv[2], "utf8");
const js = ts.transpileModule(src, {compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020}}).outputText;
const made = [];
class R { constructor(n) { made.push(n); this.id = n; this.result = n; } }
const pulumi = {getStack: () => "dev", interpolate: () => "", Config: class { require() { return "v"; } }, ComponentResource: class {}};
const stubs = {"@pulumi/pulumi": pulumi, "@pulumi/random": {RandomString: R, RandomInteger: R, RandomPet: R},
  "@pulumi/random/randomString": {RandomString: R}};
const m = {exports: {}};
new Function("require", "module", "exports", js)((n) => stubs[n], m, m.exports);
const f = typeof m.exports === "function" ? m.exports : m.exports.default;
Promise.resolve(typeof f === "function" ? f() : undefined).then(() => console.log(made.sort().join(",")));
EOF
mkdir -p "$tmp/pystub/pulumi" "$tmp/pystub/pulumi_random"
cat >"$tmp/pystub/pulumi/__init__.py" <<'EOF'
class ResourceOptions:
    def __init__(self, **kw): pass
def export(k, v): pass
def get_stack(): return "dev"
class Output:
    @staticmethod
    def format(*a, **k): return ""
class ComponentResource:
    def __init__(self, *a, **kw): pass
EOF
cat >"$tmp/pystub/pulumi_random/__init__.py" <<'EOF'
made = []
class _R:
    def __init__(self, name, *a, **kw):
        made.append(name); self.id = name; self.result = name
class RandomString(_R): pass
class RandomInteger(_R): pass
class RandomPet(_R): pass
EOF
printf 'from pulumi_random import RandomString\n' >"$tmp/pystub/pulumi_random/random_string.py"
run_py() { (cd "$tmp/pystub" && python3 -c 'import runpy, sys; runpy.run_path(sys.argv[1]); import pulumi_random; print(",".join(sorted(pulumi_random.made)))' "$1" 2>&1); }
mkdir -p "$tmp/gostub/pulumi/go/pulumi" "$tmp/gostub/random/go/random"
printf 'module github.com/pulumi/pulumi/sdk/v3\n\ngo 1.19\n' >"$tmp/gostub/pulumi/go.mod"
printf 'module github.com/pulumi/pulumi-random/sdk/v4\n\ngo 1.19\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.0.0\n\nreplace github.com/pulumi/pulumi/sdk/v3 => ../pulumi\n' >"$tmp/gostub/random/go.mod"
cat >"$tmp/gostub/pulumi/go/pulumi/pulumi.go" <<'EOF'
package pulumi

import (
	"fmt"
	"sort"
	"strings"
)

// StubMade records a resource constructed (the stub constructors call it); Run prints them all, sorted.
var made []string

func StubMade(name string) { made = append(made, name) }

type Context struct{}
type Input interface{}
type ResourceOption interface{}
type ID string
type IDOutput struct{}
type StringOutput struct{}
type IntOutput struct{}

func Run(f func(*Context) error) {
	err := f(&Context{})
	sort.Strings(made)
	fmt.Println(strings.Join(made, ","))
	if err != nil {
		fmt.Println("err=" + err.Error())
	}
}
func String(s string) Input                           { return s }
func Int(i int) Input                                 { return i }
func Protect(b bool) ResourceOption                   { return b }
func Import(id ID) ResourceOption                     { return id }
func Sprintf(f string, a ...interface{}) StringOutput { return StringOutput{} }
func (c *Context) Export(n string, v interface{})     {}
func (c *Context) Stack() string                      { return "" }
EOF
cat >"$tmp/gostub/random/go/random/random.go" <<'EOF'
package random

import (
	"errors"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type RandomStringArgs struct{ Length, Special pulumi.Input }
type RandomString struct{ Result pulumi.StringOutput }

func (r *RandomString) ID() pulumi.IDOutput { return pulumi.IDOutput{} }
func NewRandomString(ctx *pulumi.Context, name string, args *RandomStringArgs, opts ...pulumi.ResourceOption) (*RandomString, error) {
	pulumi.StubMade(name)
	if name == "fails" { // a resource whose registration fails: its error must reach Run
		return nil, errors.New("fails failed")
	}
	return &RandomString{}, nil
}

type RandomIntegerArgs struct{ Min, Max, Seed pulumi.Input }
type RandomInteger struct{ Result pulumi.IntOutput }

func NewRandomInteger(ctx *pulumi.Context, name string, args *RandomIntegerArgs, opts ...pulumi.ResourceOption) (*RandomInteger, error) {
	pulumi.StubMade(name)
	return &RandomInteger{}, nil
}
EOF
check_go() {
  local d="$tmp/gobuild.$RANDOM"
  mkdir -p "$d" && cp "$1" "$d/main.go"
  printf 'module prog\n\ngo 1.19\n\nrequire (\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.0.0\n\tgithub.com/pulumi/pulumi-random/sdk/v4 v4.0.0\n)\n\nreplace github.com/pulumi/pulumi/sdk/v3 => %s\n\nreplace github.com/pulumi/pulumi-random/sdk/v4 => %s\n' \
    "$tmp/gostub/pulumi" "$tmp/gostub/random" >"$d/go.mod"
  (cd "$d" && GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local go build -o "$d/prog" . 2>&1) || return 1
  [ -z "${2:-}" ] || "$d/prog"
}
# run_go FILE: builds the program against the stubs and runs it: prints the names of the resources
# constructed, sorted
run_go() { check_go "$1" run; }

# case NAME FILE SPEC CHECK WANT REFUSAL: imports SPEC into $tmp/NAME/FILE. Success: CHECK FILE must pass
# (and print WANT when WANT is not empty); refusal: exit non-zero, the file unchanged, and the message
# contains REFUSAL.
case_() {
  local name=$1 file=$2 spec=$3 check=$4 want=$5 refusal=$6 d="$tmp/$1"
  cp "$d/$file" "$d/before"
  if (cd "$d" && "$CIMPORT" --spec "$spec" --offline-state "$QS/stack.json" --schema "$SCH" --insert-into "$file" >run.log 2>&1); then
    local out
    out=$($check "$d/$file") || { bad "$name: exit 0 but the result does not check: $out
$(cat "$d/$file")"; return; }
    if [ -n "$want" ] && [ "$(printf '%s' "$out" | tail -1)" != "$want" ]; then
      bad "$name: exit 0 but the program constructs '$(printf '%s' "$out" | tail -1)', not '$want':
$(cat "$d/$file")"
      return
    fi
    ok
  else
    cmp -s "$d/$file" "$d/before" || { bad "$name: refused but the file changed"; return; }
    grep -qF -- "$refusal" "$d/run.log" && ok || bad "$name: refused without naming the reason ('$refusal'): $(cat "$d/run.log")"
  fi
}
check_py() { run_py "$1"; }
check_ts() { check_tsc "$1" >/dev/null || { check_tsc "$1"; return 1; }; node "$tmp/run_ts.js" "$1" 2>&1; }

# ---- F1: a replaced resource naming a resource declared later ---------------------------------------
mkdir -p "$tmp/f1ts" "$tmp/f1ts2" "$tmp/f1py" "$tmp/f1go" "$tmp/f1mix"
cat >"$tmp/f1ts/index.ts" <<'EOF'
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

const port = new random.RandomInteger("http-port", {min: 8000, max: 8999});
const name = new random.RandomString("server-name", {length: 12});

export const url = pulumi.interpolate`http://${name.result}:${port.result}`;
EOF
case_ f1ts index.ts "$tmp/imports.json" check_ts "http-port,server-name" "used before it is declared"
# only http-port in the program: server-name is inserted, and the seed names it
printf 'import * as random from "@pulumi/random";\n\nexport const port = new random.RandomInteger("http-port", {min: 8000, max: 8999});\n' >"$tmp/f1ts2/index.ts"
case_ f1ts2 index.ts "$tmp/imports.json" check_ts "http-port,server-name" "used before it is declared"
# a top-level resource and the program's body in `export = async () => {...}`
cat >"$tmp/f1mix/index.ts" <<'EOF'
import * as random from "@pulumi/random";

const port = new random.RandomInteger("http-port", {min: 8000, max: 8999});

export = async () => {
    return { port: port.result };
};
EOF
case_ f1mix index.ts "$tmp/imports.json" check_ts "http-port,server-name" "server-name"
cat >"$tmp/f1py/__main__.py" <<'EOF'
import pulumi
import pulumi_random as random

port = random.RandomInteger("http-port", min=8000, max=8999)
name = random.RandomString("server-name", length=12)
pulumi.export("port", port.result)
EOF
case_ f1py __main__.py "$tmp/imports.json" check_py "http-port,server-name" "used before it is declared"
cat >"$tmp/f1go/main.go" <<'EOF'
package main

import (
	"github.com/pulumi/pulumi-random/sdk/v4/go/random"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		port, err := random.NewRandomInteger(ctx, "http-port", &random.RandomIntegerArgs{Min: pulumi.Int(8000), Max: pulumi.Int(8999)})
		if err != nil {
			return err
		}
		name, err := random.NewRandomString(ctx, "server-name", &random.RandomStringArgs{Length: pulumi.Int(12)})
		if err != nil {
			return err
		}
		ctx.Export("port", port.Result)
		ctx.Export("name", name.Result)
		return nil
	})
}
EOF
case_ f1go main.go "$tmp/imports.json" check_go "" "used before it is declared"

# ---- F2: new code after a statement that never completes ---------------------------------------------
mkdir -p "$tmp/f2go" "$tmp/f2lab" "$tmp/f2ts" "$tmp/f2fn"
cat >"$tmp/f2go/main.go" <<'EOF'
package main

import (
	"github.com/pulumi/pulumi-random/sdk/v4/go/random"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		_, err := random.NewRandomString(ctx, "other", &random.RandomStringArgs{Length: pulumi.Int(3)})
		if err != nil {
			return err
		} else {
			return nil
		}
	})
}
EOF
case_ f2go main.go "$tmp/two.json" check_go "" "never completes"
cat >"$tmp/f2lab/main.go" <<'EOF'
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		if ctx == nil {
			goto done
		}
	done:
		return nil
	})
}
EOF
case_ f2lab main.go "$tmp/two.json" check_go "" "never completes"
cat >"$tmp/f2ts/index.ts" <<'EOF'
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

export = async () => {
    const other = new random.RandomPet("other");
    if (pulumi.getStack() === "prod") {
        return { name: other.id };
    } else {
        return { name: other.id, dev: true };
    }
};
EOF
case_ f2ts index.ts "$tmp/two.json" check_ts "bucket-suffix,other,server-name" "never completes"
cat >"$tmp/f2fn/index.ts" <<'EOF'
import * as random from "@pulumi/random";

export = async () => {
    const other = new random.RandomPet("other");
    return { name: helper() };

    function helper() {
        return other.id;
    }
};
EOF
case_ f2fn index.ts "$tmp/two.json" check_ts "bucket-suffix,other,server-name" "never completes"

# a body ending in a conditional return (no else) completes when the condition is false: the new code
# goes before that statement (so it runs whichever way the condition goes), not refused as if the body
# never completed (the stub's getStack() is "dev": code after the `if` would never run)
mkdir -p "$tmp/f2cond"
cat >"$tmp/f2cond/index.ts" <<'EOF'
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

export = async () => {
    const other = new random.RandomPet("other");
    if (pulumi.getStack() === "dev") {
        return { name: other.id };
    }
};
EOF
case_ f2cond index.ts "$tmp/two.json" check_ts "bucket-suffix,other,server-name" "(a conditional return completes: no refusal)"
# ... but not where a goto may pass the code put there (C#: `goto done` jumps over what comes before
# the labelled return): refused
mkdir -p "$tmp/f2goto"
cat >"$tmp/f2goto/Program.cs" <<'EOF'
using System.Collections.Generic;
using Pulumi;
using Random = Pulumi.Random;

return await Deployment.RunAsync(() =>
{
    var other = new Random.RandomPet("other");
    if (other == null) goto done;
    if (Deployment.Instance.StackName == "dev")
    {
        return new Dictionary<string, object?> { ["name"] = other.Id };
    }
done:
    return new Dictionary<string, object?>();
});
EOF
case_ f2goto Program.cs "$tmp/two.json" false "" "the goto may pass them"

# ---- read15 F9: Go's bare `return` of a named error result: the error of the statement before it is
# returned, not overwritten by the new statements' (the stub fails the registration of "fails")
mkdir -p "$tmp/f9go"
printf 'package main\n\nimport (\n\t"github.com/pulumi/pulumi-random/sdk/v4/go/random"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) (err error) {\n\t\t_, err = random.NewRandomString(ctx, "fails", &random.RandomStringArgs{Length: pulumi.Int(3)})\n\t\treturn\n\t})\n}\n' >"$tmp/f9go/main.go"
case_ f9go main.go "$tmp/two.json" run_go "err=fails failed" "(a bare return: no refusal)"

# ---- read15 F8: one resource name defined in exclusive branches: replacing the first alone leaves the
# other creating the resource on the stacks that run it. Success only if every definition imports it.
mkdir -p "$tmp/f8py"
printf 'import pulumi\nimport pulumi_random as random\n\nif pulumi.get_stack() == "prod":\n    name = random.RandomString("server-name", length=20)\nelse:\n    name = random.RandomString("server-name", length=5)\npulumi.export("n", name.result)\n' >"$tmp/f8py/__main__.py"
check_f8() { [ "$(grep -c 'import_="mq7xk2vt9fzr"' "$1")" -ge 2 ] || { echo "a definition of server-name does not import it"; return 1; }; run_py "$1"; }
case_ f8py __main__.py "$tmp/two.json" check_f8 "bucket-suffix,server-name" "cannot tell which definition the import is"

# ---- F14: the body's return on the line that opens the body -------------------------------------------
mkdir -p "$tmp/f14go" "$tmp/f14ts"
printf 'package main\n\nimport (\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error { return nil })\n}\n' >"$tmp/f14go/main.go"
case_ f14go main.go "$tmp/two.json" check_go "" "on one line"
# run_ts prints what the module made before and after calling its function: the resources must be
# made inside the function (not at the module's top level)
printf 'import * as random from "@pulumi/random";\n\nexport = async () => { const a = new random.RandomPet("other"); return { a: a.id }; };\n' >"$tmp/f14ts/index.ts"
case_ f14ts index.ts "$tmp/two.json" check_ts "bucket-suffix,other,server-name" "on one line"
grep -q '^const serverName' "$tmp/f14ts/index.ts" && bad "f14ts: the resource is constructed at the module's top level: $(cat "$tmp/f14ts/index.ts")" || ok

# ---- F3: the program's Context parameter -------------------------------------------------------------
mkdir -p "$tmp/f3go" "$tmp/f3named"
cat >"$tmp/f3go/main.go" <<'EOF'
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(pctx *pulumi.Context) error {
		pctx.Export("x", pulumi.String("y"))
		return nil
	})
}
EOF
case_ f3go main.go "$tmp/two.json" check_go "" "Context"
cat >"$tmp/f3named/main.go" <<'EOF'
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(run)
}

func run(c *pulumi.Context) error {
	ctx := "shadow"
	c.Export("x", pulumi.String(ctx))
	return nil
}
EOF
case_ f3named main.go "$tmp/two.json" check_go "" "Context"
# a Context parameter without a name (`_`, or none at all): the new code has no name to pass it by
mkdir -p "$tmp/f3blank" "$tmp/f3unnamed"
printf 'package main\n\nimport (\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(_ *pulumi.Context) error {\n\t\treturn nil\n\t})\n}\n' >"$tmp/f3blank/main.go"
case_ f3blank main.go "$tmp/two.json" run_go "bucket-suffix,server-name" "Context parameter has no name"
printf 'package main\n\nimport (\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(run)\n}\n\nfunc run(*pulumi.Context) error {\n\treturn nil\n}\n' >"$tmp/f3unnamed/main.go"
case_ f3unnamed main.go "$tmp/two.json" run_go "bucket-suffix,server-name" "Context parameter has no name"
# Java: `Pulumi.run(context -> {...})` and a secret config read (ctx.config()) in the new code
ST="$SHARED_DATA/pulumi-state/pulumi-tls/provider/testdata/recorded/TestProviderUpgrade/index_certrequest/5.0.2/stack.json"
mkdir -p "$tmp/f3java/src/main/java/p"
echo '{"resources":[{"type":"tls:index/certRequest:CertRequest","name":"certRequest","id":"2e7dd8a27499b458e441de745ed528ab7f2e3d4d"}]}' >"$tmp/f3java/cr.json"
cat >"$tmp/f3java/src/main/java/p/App.java" <<'EOF'
package p;

import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(context -> {
            context.export("stack", context.stackName());
        });
    }
}
EOF
J="$tmp/f3java/src/main/java/p/App.java"
cp "$J" "$tmp/f3java/before"
# into a stack: the tls provider implements no importer, so the code's `import` option cannot import it
if (cd "$tmp/f3java" && "$CIMPORT" --spec cr.json --offline-state "$ST" --schema "$SHARED_DATA/schemas/tls/schema.json" \
    --insert-into src/main/java/p/App.java --secrets-file ./s.json \
    --stack-state st.json --new-stack-state --secrets-provider b64 --stack dev --project p >run.log 2>&1); then
  if grep -q 'ctx\b' "$J" || ! grep -q 'context.config()' "$J"; then bad "f3java: the new code does not use the lambda's parameter 'context': $(cat "$J")"; else ok; fi
else
  cmp -s "$J" "$tmp/f3java/before" && grep -qF "Context" "$tmp/f3java/run.log" && ok || bad "f3java: $(cat "$tmp/f3java/run.log")"
fi

# ---- F11: a resource class reached through an alias: the resource must not be added a second time ------
mkdir -p "$tmp/f11ts" "$tmp/f11py" "$tmp/f11req"
cat >"$tmp/f11ts/index.ts" <<'EOF'
import * as random from "@pulumi/random";

const { RandomString } = random;
const RS = random.RandomString;
export const a = new RS("server-name", {length: 3});
export const b = new RandomString("bucket-suffix", {length: 3});
EOF
case_ f11ts index.ts "$tmp/two.json" check_ts "bucket-suffix,server-name" "may be the same resource"
printf 'import pulumi\nfrom pulumi_random import RandomString as RS\nimport pulumi_random\nR2 = pulumi_random.RandomString\n\na = RS("server-name", length=3)\nb = R2("bucket-suffix", length=3)\n' >"$tmp/f11py/__main__.py"
case_ f11py __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" "may be the same resource"
# a class alias whose name begins in lower case (`const mk = random.RandomString; new mk(...)`): `new`
# constructs a class whatever its name's case; it was not looked at, and server-name was added again
# a component class the file itself declares, constructed with the name of a resource the import adds
# (`new StaticSite("site")` around `new aws.s3.Bucket("site", ..., {parent: this})`: Pulumi's common idiom)
# is another URN (its own type): the import goes ahead (read17 F19: refused as a class it cannot trace)
mkdir -p "$tmp/f19ts" "$tmp/f19py"
cat >"$tmp/f19ts/index.ts" <<'EOF'
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

class Suffix extends pulumi.ComponentResource {
    constructor(name: string) {
        super("my:index:Suffix", name, {}, {});
    }
}
export const s = new Suffix("bucket-suffix");
EOF
case_ f19ts index.ts "$tmp/two.json" check_ts "bucket-suffix,server-name" "(not to be refused)"
printf 'import pulumi\nimport pulumi_random\n\n\nclass Suffix(pulumi.ComponentResource):\n    def __init__(self, name):\n        super().__init__("my:index:Suffix", name, None, None)\n\n\ns = Suffix("bucket-suffix")\n' >"$tmp/f19py/__main__.py"
case_ f19py __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" "(not to be refused)"
# ... and one through a base class of its own, or with its bases over several lines (black's style): the
# same (read18 F3: refused as a class cimport cannot trace)
mkdir -p "$tmp/f19tsbase" "$tmp/f19pymulti"
printf 'import * as pulumi from "@pulumi/pulumi";\nimport * as random from "@pulumi/random";\n\nclass Base extends pulumi.ComponentResource {}\nclass Suffix extends Base {\n    constructor(name: string) {\n        super("my:index:Suffix", name, {}, {});\n    }\n}\nexport const s = new Suffix("bucket-suffix");\n' >"$tmp/f19tsbase/index.ts"
case_ f19tsbase index.ts "$tmp/two.json" check_ts "bucket-suffix,server-name" "(not to be refused)"
printf 'import pulumi\nimport pulumi_random\n\n\nclass Suffix(\n    pulumi.ComponentResource,\n):\n    def __init__(self, name):\n        super().__init__("my:index:Suffix", name, None, None)\n\n\ns = Suffix("bucket-suffix")\n' >"$tmp/f19pymulti/__main__.py"
case_ f19pymulti __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" "(not to be refused)"
# ... but a class of its own that extends the package's resource class makes that resource: refused
mkdir -p "$tmp/f19sub"
printf 'import * as random from "@pulumi/random";\n\nclass Str extends random.RandomString {}\nexport const s = new Str("server-name", {length: 3});\n' >"$tmp/f19sub/index.ts"
case_ f19sub index.ts "$tmp/two.json" check_ts "(refused)" "cannot trace to an import"
mkdir -p "$tmp/f11tslow"
printf 'import * as random from "@pulumi/random";\n\nconst mk = random.RandomString;\nexport const a = new mk("server-name", {length: 3});\n' >"$tmp/f11tslow/index.ts"
case_ f11tslow index.ts "$tmp/two.json" check_ts "bucket-suffix,server-name" "may be the same resource"
# Python: a call of any name may construct a class. A class given a lower-case name (`mk =
# pulumi_random.RandomString`, `mk = RandomString` of a from-import, an attribute `self.mk = ...`, a
# from-import's lower-case alias) was taken for a function, and server-name was added again
mkdir -p "$tmp/f11pylow" "$tmp/f11pyimp" "$tmp/f11pyself" "$tmp/f11pyas" "$tmp/f11pywalrus"
printf 'import pulumi\nimport pulumi_random\n\nmk = pulumi_random.RandomString\na = mk("server-name", length=3)\n' >"$tmp/f11pylow/__main__.py"
case_ f11pylow __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" "may be the same resource"
printf 'import pulumi\nfrom pulumi_random import RandomString\n\nmk = RandomString\n\ndef make(n):\n    return mk(n, length=3)\n\nb = mk("server-name", length=3)\n' >"$tmp/f11pyimp/__main__.py"
case_ f11pyimp __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" "may be the same resource"
printf 'import pulumi\nimport pulumi_random\n\nclass Maker:\n    def __init__(self):\n        self.mk = pulumi_random.RandomString\n        self.mk("server-name", length=3)\n\nMaker()\n' >"$tmp/f11pyself/__main__.py"
case_ f11pyself __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" "may be the same resource"
printf 'import pulumi\nfrom pulumi_random import RandomString as mk\n\na = mk("server-name", length=3)\n' >"$tmp/f11pyas/__main__.py"
case_ f11pyas __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" "may be the same resource"
printf 'import pulumi\nimport pulumi_random\n\nif (mk := pulumi_random.RandomString):\n    a = mk("server-name", length=3)\n' >"$tmp/f11pywalrus/__main__.py"
case_ f11pywalrus __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" "may be the same resource"
# ... while an ordinary lower-case call with the resource's name is no resource: the import is added
mkdir -p "$tmp/f11pyfn"
printf 'import pulumi\nimport pulumi_random\n\nmk = print\nlabel = str.upper\nR = pulumi_random.RandomString\n\ndef make(n):\n    return n\n\nmk("server-name")\nx = make("server-name")\ny = label("server-name")\npulumi.export("server-name", x)\n' >"$tmp/f11pyfn/__main__.py"
case_ f11pyfn __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" ""
grep -q 'server_name = .*RandomString("server-name"' "$tmp/f11pyfn/__main__.py" && ok || bad "f11pyfn: the import was not added beside ordinary calls: $(cat "$tmp/f11pyfn/run.log")"
# a from-import of several names (bare or in parentheses, aliased or not) reads them all: the second
# was not read, and the resource constructed through it was taken for an untraceable class
mkdir -p "$tmp/f11pylist" "$tmp/f11pyparen"
printf 'import pulumi\nfrom pulumi_random import RandomPet, RandomString\n\na = RandomString("server-name", length=3)\n' >"$tmp/f11pylist/__main__.py"
case_ f11pylist __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" ""
grep -q '1 replaced' "$tmp/f11pylist/run.log" && ok || bad "f11pylist: server-name was not replaced in place: $(cat "$tmp/f11pylist/run.log")"
printf 'import pulumi\nfrom pulumi_random import (\n    RandomPet,\n    RandomString as RS,\n)\n\na = RS("server-name", length=3)\n' >"$tmp/f11pyparen/__main__.py"
case_ f11pyparen __main__.py "$tmp/two.json" check_py "bucket-suffix,server-name" ""
grep -q '1 replaced' "$tmp/f11pyparen/run.log" && ok || bad "f11pyparen: server-name was not replaced in place: $(cat "$tmp/f11pyparen/run.log")"
printf 'import pulumi = require("@pulumi/pulumi");\nimport random = require("@pulumi/random");\n\nexport const name = new random.RandomString("server-name", {length: 3});\n' >"$tmp/f11req/index.ts"
case_ f11req index.ts "$tmp/two.json" check_ts "bucket-suffix,server-name" "may be the same resource"

# ---- read18 F8: a class imported from the module of its SDK that defines it (what IDEs' auto-import
# writes: `from pulumi_random.random_string import RandomString`, `@pulumi/random/randomString`) is the
# package's class: the resource is replaced in place, never added a second time (one URN twice)
# replaced NAME FILE CHECK: two.json into $tmp/NAME/FILE succeeds, server-name replaced in place
replaced() {
  case_ "$1" "$2" "$tmp/two.json" "$3" "bucket-suffix,server-name" "(not to be refused)"
  grep -q '1 replaced' "$tmp/$1/run.log" && ok || bad "$1: server-name was not replaced in place: $(cat "$tmp/$1/run.log")"
}
mkdir -p "$tmp/pysubmod" "$tmp/pysubmod2" "$tmp/tsdeepimp" "$tmp/tsdeepns"
printf 'import pulumi\nfrom pulumi_random.random_string import RandomString\n\ns = RandomString("server-name", length=3)\n' >"$tmp/pysubmod/__main__.py"
replaced pysubmod __main__.py check_py
printf 'import pulumi\nimport pulumi_random.random_string as rs\n\ns = rs.RandomString("server-name", length=3)\n' >"$tmp/pysubmod2/__main__.py"
replaced pysubmod2 __main__.py check_py
printf 'import { RandomString } from "@pulumi/random/randomString";\n\nexport const s = new RandomString("server-name", {length: 3});\n' >"$tmp/tsdeepimp/index.ts"
replaced tsdeepimp index.ts check_ts
printf 'import * as rs from "@pulumi/random/randomString";\n\nexport const s = new rs.RandomString("server-name", {length: 3});\n' >"$tmp/tsdeepns/index.ts"
replaced tsdeepns index.ts check_ts

# ---- F15: a resource replaced inside an f-string's replacement field --------------------------------------
# Before Python 3.12 (PEP 701) a replacement field may not hold its f-string's quote, a backslash or a `#`,
# nor (but in a triple-quoted f-string) a line break; python3 here is 3.11, as Pulumi's supported versions
# before 3.12 read it. The new code must be valid there or refused.
pyold=
for p in python3 python3.11 python3.10 python3.9; do
  "$p" -c 'import sys; sys.exit(sys.version_info >= (3, 12))' 2>/dev/null && { pyold=$p; break; }
done
[ -n "$pyold" ] || echo "note: no Python before 3.12 here: the F15 results are run by $(python3 --version)" >&2
check_py_old() { [ -z "$pyold" ] || "$pyold" -m py_compile "$1" 2>&1 || return 1; run_py "$1"; }
mkdir -p "$tmp/f15py" "$tmp/f15sq" "$tmp/f15nest" "$tmp/f15tri"
printf 'import pulumi\nimport pulumi_random as random\n\nx = f"id: {random.RandomString(\x27server-name\x27, length=3).id}"\n' >"$tmp/f15py/__main__.py"
case_ f15py __main__.py "$tmp/two.json" check_py_old "bucket-suffix,server-name" "f-string"
printf 'import pulumi\nimport pulumi_random as random\n\nx = f\x27id: {random.RandomString("server-name", length=3).id}\x27\n' >"$tmp/f15sq/__main__.py"
case_ f15sq __main__.py "$tmp/two.json" check_py_old "bucket-suffix,server-name" "f-string"
printf 'import pulumi\nimport pulumi_random as random\n\nx = f"""a {f\x27{random.RandomString("server-name", length=3).id}\x27}"""\n' >"$tmp/f15nest/__main__.py"
case_ f15nest __main__.py "$tmp/two.json" check_py_old "bucket-suffix,server-name" "f-string"
# a triple-quoted f-string holds the new code's line breaks and quotes before 3.12 too: replaced
printf 'import pulumi\nimport pulumi_random as random\n\nx = f"""id: {random.RandomString(\x27server-name\x27, length=3).id}"""\n' >"$tmp/f15tri/__main__.py"
case_ f15tri __main__.py "$tmp/two.json" check_py_old "bucket-suffix,server-name" "f-string"
grep -q 'import_="mq7xk2vt9fzr"' "$tmp/f15tri/__main__.py" && ok || bad "f15tri: server-name not replaced in the triple-quoted f-string: $(cat "$tmp/f15tri/run.log")"

# C#: no compiler here; the check is the language rule itself (before C# 11, .NET 7, a hole of an
# interpolated string that is not verbatim holds no line break): a small scanner of `$"..."` strings
cat >"$tmp/cs_holes.py" <<'EOF'
import sys
s = open(sys.argv[1]).read()
i, bad = 0, []
while True:
    i = s.find('$"', i)
    if i < 0: break
    verbatim = s[i - 1] == '@' or s[i + 2:i + 4] == '""'
    j, depth = i + 2, 0
    while j < len(s):
        ch = s[j]
        if depth == 0:
            if ch == '"': break
            if ch == '{' and s[j + 1] == '{': j += 2; continue
            if ch == '{': depth = 1
        else:
            if ch == '"':  # a string literal inside the hole
                j += 1
                while j < len(s) and s[j] != '"': j += 2 if s[j] == '\\' else 1
            elif ch == '{': depth += 1
            elif ch == '}': depth -= 1
            elif ch == '\n' and not verbatim: bad.append(s.count('\n', 0, j) + 1)
        j += 1
    i = j + 1
if bad: print("line break in an interpolation hole at line %d (C# 11 only)" % bad[0]); sys.exit(1)
print("ok")
EOF
check_cs() { python3 "$tmp/cs_holes.py" "$1"; }
mkdir -p "$tmp/f15cs"
cat >"$tmp/f15cs/Program.cs" <<'EOF'
using Pulumi;
using Random = Pulumi.Random;

return await Deployment.RunAsync(() =>
{
    var s = $"id: {new Random.RandomString("server-name", new() { Length = 3 }).Id}";
});
EOF
case_ f15cs Program.cs "$tmp/two.json" check_cs "" "interpolated string"

# Go: a constructor reached through a function value (`mk := random.NewRandomString`), a package-level
# variable, or a dot import; a wrapper whose constructor call takes the name as a parameter
mkdir -p "$tmp/f11go" "$tmp/f11govar" "$tmp/f11godot" "$tmp/f11gowrap"
gohead='package main\n\nimport (\n\t"github.com/pulumi/pulumi-random/sdk/v4/go/random"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\n'
printf "$gohead"'func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tmk := random.NewRandomString\n\t\t_, err := mk(ctx, "bucket-suffix", &random.RandomStringArgs{Length: pulumi.Int(8)})\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n' >"$tmp/f11go/main.go"
case_ f11go main.go "$tmp/two.json" run_go "bucket-suffix,server-name" "may be the same resource"
printf "$gohead"'var mk = random.NewRandomString\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\t_, err := mk(ctx, "bucket-suffix", &random.RandomStringArgs{Length: pulumi.Int(8)})\n\t\treturn err\n\t})\n}\n' >"$tmp/f11govar/main.go"
case_ f11govar main.go "$tmp/two.json" run_go "bucket-suffix,server-name" "may be the same resource"
printf 'package main\n\nimport (\n\t. "github.com/pulumi/pulumi-random/sdk/v4/go/random"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\t_, err := NewRandomString(ctx, "bucket-suffix", &RandomStringArgs{Length: pulumi.Int(8)})\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n' >"$tmp/f11godot/main.go"
case_ f11godot main.go "$tmp/two.json" run_go "bucket-suffix,server-name" "may be the same resource"
printf "$gohead"'func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tmk := func(n string) error {\n\t\t\t_, err := random.NewRandomString(ctx, n, &random.RandomStringArgs{Length: pulumi.Int(8)})\n\t\t\treturn err\n\t\t}\n\t\tif err := mk("bucket-suffix"); err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn nil\n\t})\n}\n' >"$tmp/f11gowrap/main.go"
case_ f11gowrap main.go "$tmp/two.json" run_go "bucket-suffix,server-name" "may be the same resource"

# Go: a var declaration of several names (`var a, err = random.NewRandomString(...)`, one spec of a
# `var (...)` group): runtime 0.20.7's field lookup answers `name` for the first of a list only, so `err`
# was not seen as declared, and the new resource after it was written `_, err := ...` ("no new variables
# on left side of :=", go build failed); `a, err := ...` reads every name (its left side is one node)
mkdir -p "$tmp/govar" "$tmp/govargrp" "$tmp/goshort"
gobody='\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\t_ = a\n\t\treturn nil\n\t})\n}\n'
printf "$gohead"'func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tvar a, err = random.NewRandomString(ctx, "server-name", &random.RandomStringArgs{Length: pulumi.Int(3)})\n'"$gobody" >"$tmp/govar/main.go"
case_ govar main.go "$tmp/imports.json" run_go "http-port,server-name" "(not to be refused)"
printf "$gohead"'func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tvar (\n\t\t\tn      = 3\n\t\t\ta, err = random.NewRandomString(ctx, "server-name", &random.RandomStringArgs{Length: pulumi.Int(n)})\n\t\t)\n'"$gobody" >"$tmp/govargrp/main.go"
case_ govargrp main.go "$tmp/imports.json" run_go "http-port,server-name" "is not the value of a variable of its own"
mkdir -p "$tmp/govargrp1"
printf "$gohead"'func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\tvar (\n\t\t\ta, err = random.NewRandomString(ctx, "server-name", &random.RandomStringArgs{Length: pulumi.Int(3)})\n\t\t)\n'"$gobody" >"$tmp/govargrp1/main.go"
case_ govargrp1 main.go "$tmp/imports.json" run_go "http-port,server-name" "is not the value of a variable of its own"
printf "$gohead"'func main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\ta, err := random.NewRandomString(ctx, "server-name", &random.RandomStringArgs{Length: pulumi.Int(3)})\n'"$gobody" >"$tmp/goshort/main.go"
case_ goshort main.go "$tmp/imports.json" run_go "http-port,server-name" "(not to be refused)"

echo "test_splice_order: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

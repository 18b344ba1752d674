#!/usr/bin/env bash
# test_splice_config_scope.sh — a secret's config read spliced into a program must be valid where the
# resource uses it: after the config object it reads from, and in a scope the resource sees. Run as a user
# runs it: `cimport --insert-into` of a resource with a secret input (tests/fixtures/cli/secret-string-stack.json)
# into programs that already define that resource, then the result is RUN against stub SDKs (TypeScript:
# transpiled by the real compiler and run by node, after `tsc --strict` type-checks it against the real
# SDKs; Python: run by python3; Go: built by `go build` against stub modules), and run again (no change).
# Before: the read went before the resource but after the user's `const config = new pulumi.Config()` it
# used (ReferenceError, NameError, Go undefined), or at the program's top level after a function that
# defines the resource had been called (ReferenceError / NameError) or outside that function (Go undefined).
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
S="$SHARED_DATA/schemas/random/schema.json"
SS="$SOURCE_DIR/tests/fixtures/cli/secret-string-stack.json"
peers="$SOURCE_DIR/tests/peers"
tsc="$peers/node_modules/typescript/bin/tsc"
[ -f "$tsc" ] || { echo "FAIL: $peers/node_modules is missing: run scripts/setup.sh first" >&2; exit 1; }
# code only (--code-only): the RandomString's secret keeper is no input its importer rebuilds, so the code's
# `import` option is refused for it (test_cli.sh); the config read is spliced as with that option
imp() { "$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" \
  --stack prod --code-only "$@"; }

# ---- stubs: just enough of each SDK to run (or build) the program --------------------------------
cat >"$tmp/run_ts.js" <<EOF
const ts = require("$peers/node_modules/typescript");
const src = require("fs").readFileSync(process.argv[2], "utf8");
const js = ts.transpileModule(src, {compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020}}).outputText;
const made = [];
class Config { require(k) { return "v"; } requireSecret(k) { return "s"; } }
const stubs = {"@pulumi/pulumi": {Config}, "@pulumi/random": {RandomString: class { constructor(n) { made.push(n); } }}};
const m = {exports: {}};
new Function("require", "module", "exports", js)((n) => stubs[n], m, m.exports);
console.log(made.join(","));
EOF
mkdir -p "$tmp/pystub/pulumi" "$tmp/pystub/pulumi_random"
cat >"$tmp/pystub/pulumi/__init__.py" <<'EOF'
class Config:
    def require(self, k): return "v"
    def require_secret(self, k): return "s"
class ResourceOptions:
    def __init__(self, **kw): pass
def export(k, v): pass
EOF
cat >"$tmp/pystub/pulumi_random/__init__.py" <<'EOF'
made = []
class RandomString:
    def __init__(self, name, **kw): made.append(name)
EOF
run_py() { (cd "$tmp/pystub" && python3 -c 'import runpy, sys; runpy.run_path(sys.argv[1]); import pulumi_random; print(",".join(pulumi_random.made))' "$1"); }
mkdir -p "$tmp/gostub/pulumi/go/pulumi/config" "$tmp/gostub/random/go/random"
printf 'module github.com/pulumi/pulumi/sdk/v3\n\ngo 1.19\n' >"$tmp/gostub/pulumi/go.mod"
printf 'module github.com/pulumi/pulumi-random/sdk/v4\n\ngo 1.19\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.0.0\n\nreplace github.com/pulumi/pulumi/sdk/v3 => ../pulumi\n' >"$tmp/gostub/random/go.mod"
cat >"$tmp/gostub/pulumi/go/pulumi/pulumi.go" <<'EOF'
package pulumi

type Context struct{}
type Input interface{}
type ResourceOption interface{}
type ID string
type StringMap map[string]Input

func Run(f func(*Context) error)          { _ = f(&Context{}) }
func String(s string) Input                { return s }
func Int(i int) Input                      { return i }
func Protect(b bool) ResourceOption        { return b }
func Import(id ID) ResourceOption          { return id }
func Parent(r interface{}) ResourceOption  { return r }
EOF
cat >"$tmp/gostub/pulumi/go/pulumi/config/config.go" <<'EOF'
package config

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

type Config struct{}

func New(ctx *pulumi.Context, ns string) *Config          { return &Config{} }
func (c *Config) Require(k string) string                 { return "v" }
func (c *Config) RequireSecret(k string) pulumi.Input      { return "s" }
EOF
cat >"$tmp/gostub/random/go/random/random.go" <<'EOF'
package random

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

type RandomStringArgs struct {
	Keepers pulumi.StringMap
	Length  pulumi.Input
}
type RandomString struct{}

func NewRandomString(ctx *pulumi.Context, name string, args *RandomStringArgs, opts ...pulumi.ResourceOption) (*RandomString, error) {
	return &RandomString{}, nil
}
EOF
build_go() { # DIR: go build the program main.go in DIR against the stubs
  printf 'module prog\n\ngo 1.19\n\nrequire (\n\tgithub.com/pulumi/pulumi/sdk/v3 v3.0.0\n\tgithub.com/pulumi/pulumi-random/sdk/v4 v4.0.0\n)\n\nreplace github.com/pulumi/pulumi/sdk/v3 => %s\n\nreplace github.com/pulumi/pulumi-random/sdk/v4 => %s\n' \
    "$tmp/gostub/pulumi" "$tmp/gostub/random" >"$1/go.mod"
  (cd "$1" && GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local go build -o /dev/null . 2>&1)
}
cat >"$tmp/tsconfig.json" <<EOF
{"compilerOptions": {"module": "commonjs", "target": "es2020", "strict": true, "noEmit": true, "skipLibCheck": true,
  "moduleResolution": "node", "typeRoots": ["$peers/node_modules/@types"], "types": ["node"],
  "paths": {"@pulumi/*": ["$peers/node_modules/@pulumi/*"]}}, "include": ["*/index.ts"]}
EOF

# case NAME FILE: import into FILE (in its own directory NAME), check the run, that it runs, and that a
# second run changes nothing
splice_case() {
  local name=$1 file=$2 lang=$3
  (cd "$tmp/$name" && imp -l "$lang" --insert-into "$file" >run.log 2>&1) || { bad "$name: exit $?: $(cat "$tmp/$name/run.log")"; return; }
  ok
  local out
  case $lang in
    typescript) out=$(node "$tmp/run_ts.js" "$tmp/$name/$file" 2>&1) ;;
    python) out=$(run_py "$tmp/$name/$file" 2>&1) ;;
    go) out=$(build_go "$tmp/$name") && out=apiName ;;
  esac
  [ "$out" = apiName ] && ok || bad "$name: the program does not run: $out
$(cat "$tmp/$name/$file")"
  cp "$tmp/$name/$file" "$tmp/$name/first"
  (cd "$tmp/$name" && imp -l "$lang" --insert-into "$file" >run2.log 2>&1) && cmp -s "$tmp/$name/$file" "$tmp/$name/first" &&
    grep -qF 'no change' "$tmp/$name/run2.log" && ok || bad "$name: a second run changed the file: $(cat "$tmp/$name/run2.log"; diff "$tmp/$name/first" "$tmp/$name/$file")"
}

# ---- TypeScript ------------------------------------------------------------------------------------
mkdir -p "$tmp/ts1" "$tmp/ts2" "$tmp/ts3"
# the resource comes before the user's config object
cat >"$tmp/ts1/index.ts" <<'EOF'
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

const pet = new random.RandomString("apiName", { length: 2 });
const config = new pulumi.Config();
export const greeting = config.require("greeting");
export const petName = pet.id;
EOF
# the resource and the config object in a function
cat >"$tmp/ts2/index.ts" <<'EOF'
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

function makePet() {
  const config = new pulumi.Config();
  const greeting = config.require("greeting");
  const pet = new random.RandomString("apiName", { length: 2, prefix: greeting });
  return pet;
}
export const petName = makePet().id;
EOF
# the config object at the top, the resource in a function called before the program's end
cat >"$tmp/ts3/index.ts" <<'EOF'
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

const config = new pulumi.Config();
function makePet() {
  const pet = new random.RandomString("apiName", { length: 2, prefix: config.require("greeting") });
  return pet;
}
export const petName = makePet().id;
EOF
for n in ts1 ts2 ts3; do splice_case $n index.ts typescript; done
(cd "$tmp" && node "$tsc" -p tsconfig.json >tsc.log 2>&1) && ok || bad "tsc --strict rejects a spliced program: $(cat "$tmp/tsc.log")"

# ---- Python ----------------------------------------------------------------------------------------
mkdir -p "$tmp/py1" "$tmp/py2" "$tmp/py3"
cat >"$tmp/py1/__main__.py" <<'EOF'
import pulumi
import pulumi_random as random

pet = random.RandomString("apiName", length=2)
config = pulumi.Config()
pulumi.export("greeting", config.require("greeting"))
EOF
cat >"$tmp/py2/__main__.py" <<'EOF'
import pulumi
import pulumi_random as random


def make_pet():
    config = pulumi.Config()
    pet = random.RandomString("apiName", length=2, prefix=config.require("greeting"))
    return pet


make_pet()
EOF
cat >"$tmp/py3/__main__.py" <<'EOF'
import pulumi
import pulumi_random as random

config = pulumi.Config()


def make_pet():
    pet = random.RandomString("apiName", length=2, prefix=config.require("greeting"))
    return pet


make_pet()
EOF
for n in py1 py2 py3; do splice_case $n __main__.py python; done

# ---- Go --------------------------------------------------------------------------------------------
mkdir -p "$tmp/go1" "$tmp/go2"
cat >"$tmp/go1/main.go" <<'EOF'
package main

import (
	"github.com/pulumi/pulumi-random/sdk/v4/go/random"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		pet, err := random.NewRandomString(ctx, "apiName", &random.RandomStringArgs{Length: pulumi.Int(2)})
		if err != nil {
			return err
		}
		_ = pet
		cfg := config.New(ctx, "")
		_ = cfg.Require("greeting")
		return nil
	})
}
EOF
cat >"$tmp/go2/main.go" <<'EOF'
package main

import (
	"github.com/pulumi/pulumi-random/sdk/v4/go/random"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func makePet(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	_ = cfg.Require("greeting")
	_, err := random.NewRandomString(ctx, "apiName", &random.RandomStringArgs{Length: pulumi.Int(2)})
	if err != nil {
		return err
	}
	return nil
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		return makePet(ctx)
	})
}
EOF
# the stubs themselves build (so a failure below is the spliced code's)
mkdir -p "$tmp/go0" && cp "$tmp/go1/main.go" "$tmp/go0/" && out=$(build_go "$tmp/go0") && ok || bad "go stubs do not build: $out"
for n in go1 go2; do
  splice_case $n main.go go
  [ -z "$(gofmt -l "$tmp/$n/main.go")" ] && ok || bad "$n: not gofmt-clean: $(gofmt -d "$tmp/$n/main.go")"
done

# ---- where no statement can go before the resource: refused, nothing written ----------------------
mkdir -p "$tmp/no1" "$tmp/no2"
cat >"$tmp/no1/index.ts" <<'EOF'
import * as random from "@pulumi/random";

class Web {
  pet = new random.RandomString("apiName", { length: 2 });
}
new Web();
EOF
printf 'import pulumi_random as random\n\n\ndef make(): return random.RandomString("apiName", length=2)\n\n\nmake()\n' >"$tmp/no2/__main__.py"
for c in "no1 index.ts typescript 4 it is in a class_body, where no statement can go" \
         "no2 __main__.py python 4 its statement does not start a line of its own"; do
  set -- $c
  n=$1 f=$2 l=$3 line=$4
  shift 4
  cp "$tmp/$n/$f" "$tmp/$n/orig"
  (cd "$tmp/$n" && imp -l "$l" --insert-into "$f" >run.log 2>&1)
  rc=$?
  [ $rc = 2 ] && cmp -s "$tmp/$n/$f" "$tmp/$n/orig" && [ "$(ls "$tmp/$n")" = "$(printf '%s\n' "$f" orig run.log)" ] && ok ||
    bad "$n: exit $rc, wrote: $(ls "$tmp/$n"): $(cat "$tmp/$n/run.log")"
  grep -qF "error: $f:$line: the resource 'apiName' here is defined outside the program's body, and the config read its new code needs cannot go before it ($*): nothing was changed" "$tmp/$n/run.log" &&
    ok || bad "$n: message: $(cat "$tmp/$n/run.log")"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# test_splice_options.sh — re-importing a resource the program already defines replaces its definition,
# and must keep the resource options the user wrote there (ignoreChanges, aliases, dependsOn, ...): the
# replaced definition dropped them all, silently. Options the import also sets keep the import's value
# when the user's says the same; where they differ (the program says protect: false, the stack protect:
# true) the run is refused naming the option, and nothing is written. Every language, as a user runs it
# (`cimport --insert-into`), the TypeScript checked by `tsc --strict`, Python compiled, Go gofmt-clean.
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
# the recorded RandomString without its keepers: the code's `import` option (these runs') is refused for
# inputs its importer does not rebuild, as keepers (test_cli.sh)
SS="$tmp/string-stack.json"
python3 - "$SOURCE_DIR/tests/fixtures/cli/secret-string-stack.json" "$SS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["deployment"]["resources"]:
    for k in ("inputs", "outputs"):
        r.get(k, {}).pop("keepers", None)
json.dump(d, open(sys.argv[2], "w"))
PY
peers="$SOURCE_DIR/tests/peers"
tsc="$peers/node_modules/typescript/bin/tsc"
[ -f "$tsc" ] || { echo "FAIL: $peers/node_modules is missing: run scripts/setup.sh first" >&2; exit 1; }
imp() { "$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" \
  --stack prod "$@"; }
has() { grep -qF -- "$2" "$1" && ok || bad "$1 lacks: $2
$(cat "$1")"; }

# run DIR FILE LANG: splice, expect success, then a second run changes nothing
run() {
  (cd "$tmp/$1" && imp -l "$3" --insert-into "$2" >run.log 2>&1) && ok || { bad "$1: exit $?: $(cat "$tmp/$1/run.log")"; return; }
  cp "$tmp/$1/$2" "$tmp/$1/first"
  (cd "$tmp/$1" && imp -l "$3" --insert-into "$2" >run2.log 2>&1) && cmp -s "$tmp/$1/$2" "$tmp/$1/first" && ok ||
    bad "$1: the second run changed the file: $(cat "$tmp/$1/run2.log"; diff "$tmp/$1/first" "$tmp/$1/$2")"
}
# refused DIR FILE LANG OPTION LINE: the run is refused naming OPTION (on LINE), the file and directory unchanged
refused() {
  local before
  before=$(cd "$tmp/$1" && ls && cat "$2")
  (cd "$tmp/$1" && imp -l "$3" --insert-into "$2" >run.log 2>&1)
  local rc=$?
  [ $rc = 2 ] && [ "$(cd "$tmp/$1" && ls | grep -v '^run.log$' && cat "$2")" = "$before" ] && ok || bad "$1: exit $rc, changed: $(ls "$tmp/$1"): $(cat "$tmp/$1/run.log")"
  grep -qF "error: $2:$5: the resource 'apiName' sets the resource option \`$4\` (" "$tmp/$1/run.log" && grep -qF 'nothing was changed' "$tmp/$1/run.log" && ok ||
    bad "$1: message: $(cat "$tmp/$1/run.log")"
}

# ---- TypeScript ------------------------------------------------------------------------------------
mkdir -p "$tmp/ts" "$tmp/ts-none" "$tmp/ts-clash" "$tmp/ts-quoted" "$tmp/ts-quoted-clash"
cat >"$tmp/ts/index.ts" <<'EOF'
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

const other = new random.RandomString("other", { length: 1 });
const pet = new random.RandomString("apiName", { length: 2 }, {
  ignoreChanges: ["keepers"],
  aliases: [{ name: "old-name" }],
  dependsOn: [other],
  protect: true,
});
export const petName = pet.id;
EOF
# options the import does not set, written on one line
cat >"$tmp/ts-none/index.ts" <<'EOF'
import * as random from "@pulumi/random";

const pet = new random.RandomString("apiName", { length: 2 }, { retainOnDelete: true, deleteBeforeReplace: true });
export const petName = pet.id;
EOF
cat >"$tmp/ts-clash/index.ts" <<'EOF'
import * as random from "@pulumi/random";

const pet = new random.RandomString("apiName", { length: 2 }, { protect: false, ignoreChanges: ["length"] });
EOF
run ts index.ts typescript
has "$tmp/ts/index.ts" 'ignoreChanges: ["keepers"],'
has "$tmp/ts/index.ts" 'aliases: [{ name: "old-name" }],'
has "$tmp/ts/index.ts" 'dependsOn: [other],'
has "$tmp/ts/index.ts" 'import: "brave-otter",'
[ "$(grep -c 'protect: true' "$tmp/ts/index.ts")" = 1 ] && ok || bad "ts: protect once: $(cat "$tmp/ts/index.ts")"
run ts-none index.ts typescript
# a quoted key is the same option (read15 F10: `"protect": true` was refused as set otherwise than `protect:
# true`); set otherwise, it is still refused
printf 'import * as random from "@pulumi/random";\n\nconst pet = new random.RandomString("apiName", { length: 2 }, { "protect": true, '"'"'retainOnDelete'"'"': true });\nexport const petName = pet.id;\n' >"$tmp/ts-quoted/index.ts"
run ts-quoted index.ts typescript
[ "$(grep -c 'protect' "$tmp/ts-quoted/index.ts")" = 1 ] && has "$tmp/ts-quoted/index.ts" "'retainOnDelete': true" ||
  bad "ts-quoted: protect once, retainOnDelete kept: $(cat "$tmp/ts-quoted/index.ts")"
printf 'import * as random from "@pulumi/random";\n\nconst pet = new random.RandomString("apiName", { length: 2 }, { "protect": false });\n' >"$tmp/ts-quoted-clash/index.ts"
refused ts-quoted-clash index.ts typescript protect 3
has "$tmp/ts-none/index.ts" 'retainOnDelete: true'
has "$tmp/ts-none/index.ts" 'deleteBeforeReplace: true'
cat >"$tmp/tsconfig.json" <<EOF
{"compilerOptions": {"module": "commonjs", "target": "es2020", "strict": true, "noEmit": true, "skipLibCheck": true,
  "moduleResolution": "node", "typeRoots": ["$peers/node_modules/@types"], "types": ["node"],
  "paths": {"@pulumi/*": ["$peers/node_modules/@pulumi/*"]}}, "files": ["ts/index.ts", "ts-none/index.ts", "ts-quoted/index.ts"]}
EOF
(cd "$tmp" && node "$tsc" -p tsconfig.json >tsc.log 2>&1) && ok || bad "tsc --strict rejects the spliced TypeScript: $(cat "$tmp/tsc.log")"
refused ts-clash index.ts typescript protect 3
# the message is true of a run with no stack (it said "make the program say what the stack has") and
# names the flag that gives the import no protect
has "$tmp/ts-clash/run.log" "error: index.ts:3: the resource 'apiName' sets the resource option \`protect\` (\`protect: false\`) where the import's code has \`protect: true\`: nothing was changed; import it without protect (--protect=false), make the program say \`protect: true\`, or remove the option, and run again"
(cd "$tmp/ts-clash" && imp -l typescript --insert-into index.ts --protect=false >run.log 2>&1) && has "$tmp/ts-clash/index.ts" 'protect: false,' && ! grep -qF 'protect: true' "$tmp/ts-clash/index.ts" ||
  bad "ts-clash with --protect=false: $(cat "$tmp/ts-clash/run.log")"
# into a stack (here a stack export): the option set otherwise is what the stack would record
mkdir -p "$tmp/ts-clash-stack"
printf 'import * as random from "@pulumi/random";\n\nconst pet = new random.RandomString("apiName", { length: 2 }, { protect: false });\n' >"$tmp/ts-clash-stack/index.ts"
python3 - "$SS" "$tmp/ts-clash-stack/st.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["deployment"]["resources"] = [r for r in d["deployment"]["resources"] if r["type"] == "pulumi:pulumi:Stack"]
d["deployment"].pop("secrets_providers", None)
json.dump(d, open(sys.argv[2], "w"))
PY
cp "$tmp/ts-clash-stack/st.json" "$tmp/ts-clash-stack/st.before"
(cd "$tmp/ts-clash-stack" && imp -l typescript --project shop --insert-into index.ts --stack-state st.json --secrets-provider b64 >run.log 2>&1)
rc=$?
[ $rc = 2 ] && cmp -s "$tmp/ts-clash-stack/st.json" "$tmp/ts-clash-stack/st.before" && ok || bad "ts-clash-stack: exit $rc: $(cat "$tmp/ts-clash-stack/run.log")"
has "$tmp/ts-clash-stack/run.log" "error: index.ts:3: the resource 'apiName' sets the resource option \`protect\` (\`protect: false\`) where the import has \`protect: true\`, as the stack would record it: nothing was changed; import it without protect (--protect=false), make the program say \`protect: true\`, or remove the option, and run again"

# ---- Python ----------------------------------------------------------------------------------------
mkdir -p "$tmp/py" "$tmp/py-clash"
cat >"$tmp/py/__main__.py" <<'EOF'
import pulumi
import pulumi_random as random

other = random.RandomString("other", length=1)
pet = random.RandomString("apiName", length=2,
    opts=pulumi.ResourceOptions(ignore_changes=["keepers"], depends_on=[other]))
EOF
cat >"$tmp/py-clash/__main__.py" <<'EOF'
import pulumi
import pulumi_random as random

pet = random.RandomString("apiName", length=2, opts=pulumi.ResourceOptions(import_="another-id"))
EOF
run py __main__.py python
has "$tmp/py/__main__.py" 'ignore_changes=["keepers"]'
has "$tmp/py/__main__.py" 'depends_on=[other]'
has "$tmp/py/__main__.py" 'import_="brave-otter"'
python3 -m py_compile "$tmp/py/__main__.py" && ok || bad "py: does not compile"
refused py-clash __main__.py python import_ 4
has "$tmp/py-clash/run.log" "error: __main__.py:4: the resource 'apiName' sets the resource option \`import_\` (\`import_=\"another-id\"\`) where the import's code has \`import_=\"brave-otter\"\`: nothing was changed; make the program say \`import_=\"brave-otter\"\`, or remove the option, and run again"

# ---- Go --------------------------------------------------------------------------------------------
mkdir -p "$tmp/go" "$tmp/go-clash"
cat >"$tmp/go/main.go" <<'EOF'
package main

import (
	"github.com/pulumi/pulumi-random/sdk/v4/go/random"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		_, err := random.NewRandomString(ctx, "apiName", &random.RandomStringArgs{Length: pulumi.Int(2)},
			pulumi.IgnoreChanges([]string{"keepers"}), pulumi.RetainOnDelete(true))
		if err != nil {
			return err
		}
		return nil
	})
}
EOF
sed 's|pulumi.IgnoreChanges(\[\]string{"keepers"}), pulumi.RetainOnDelete(true)|pulumi.Protect(false)|' "$tmp/go/main.go" >"$tmp/go-clash/main.go"
run go main.go go
has "$tmp/go/main.go" 'pulumi.IgnoreChanges([]string{"keepers"})'
has "$tmp/go/main.go" 'pulumi.RetainOnDelete(true)'
has "$tmp/go/main.go" 'pulumi.Import(pulumi.ID("brave-otter"))'
[ -z "$(gofmt -l "$tmp/go/main.go")" ] && ok || bad "go: not gofmt-clean: $(gofmt -d "$tmp/go/main.go")"
refused go-clash main.go go Protect 11

# ---- C#, Java, YAML --------------------------------------------------------------------------------
mkdir -p "$tmp/cs" "$tmp/java" "$tmp/yaml"
cat >"$tmp/cs/Program.cs" <<'EOF'
using Pulumi;
using Random = Pulumi.Random;

return await Deployment.RunAsync(() =>
{
    var pet = new Random.RandomString("apiName", new()
    {
        Length = 2,
    }, new CustomResourceOptions
    {
        IgnoreChanges = { "keepers" },
    });
});
EOF
cat >"$tmp/java/App.java" <<'EOF'
package myproject;

import com.pulumi.Pulumi;
import com.pulumi.random.RandomString;
import com.pulumi.random.RandomStringArgs;
import com.pulumi.resources.CustomResourceOptions;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var pet = new RandomString("apiName", RandomStringArgs.builder()
                .length(2)
                .build(), CustomResourceOptions.builder()
                    .ignoreChanges("keepers")
                    .build());
        });
    }
}
EOF
cat >"$tmp/yaml/Pulumi.yaml" <<'EOF'
name: shop
runtime: yaml
resources:
  pet:
    type: random:RandomString
    name: apiName
    properties:
      length: 2
    options:
      ignoreChanges:
        - keepers
EOF
run cs Program.cs csharp
has "$tmp/cs/Program.cs" 'IgnoreChanges = { "keepers" },'
has "$tmp/cs/Program.cs" 'ImportId = "brave-otter",'
run java App.java java
has "$tmp/java/App.java" '.ignoreChanges("keepers")'
has "$tmp/java/App.java" '.importId("brave-otter")'
run yaml Pulumi.yaml yaml
python3 - "$tmp/yaml/Pulumi.yaml" <<'PY' && ok || bad "yaml options: $(cat "$tmp/yaml/Pulumi.yaml")"
import sys, yaml
o = yaml.safe_load(open(sys.argv[1]))["resources"]["pet"]["options"]
assert o["ignoreChanges"] == ["keepers"] and o["import"] == "brave-otter", o
PY

# YAML: an option the import sets otherwise is refused
mkdir -p "$tmp/yaml-clash" "$tmp/yaml-none"
printf 'name: shop\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomString\n    name: apiName\n    options:\n      protect: false\n' >"$tmp/yaml-clash/Pulumi.yaml"
refused yaml-clash Pulumi.yaml yaml protect 8
has "$tmp/yaml-clash/run.log" "error: Pulumi.yaml:8: the resource 'apiName' sets the resource option \`protect\` (\`protect: false\`) where the import's code has \`protect: true\`: nothing was changed; import it without protect (--protect=false), make the program say \`protect: true\`, or remove the option, and run again"
# and an option it does not set is kept beside the import's
printf 'name: shop\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomString\n    name: apiName\n    options:\n      retainOnDelete: true\n' >"$tmp/yaml-none/Pulumi.yaml"
run yaml-none Pulumi.yaml yaml
python3 - "$tmp/yaml-none/Pulumi.yaml" <<'PY' && ok || bad "yaml-none options: $(cat "$tmp/yaml-none/Pulumi.yaml")"
import sys, yaml
o = yaml.safe_load(open(sys.argv[1]))["resources"]["pet"]["options"]
assert o["retainOnDelete"] is True and o["import"] == "brave-otter", o
PY

# YAML options written as a flow mapping are kept as a block mapping's are (refused since 298c976)
mkdir -p "$tmp/yaml-flow"
printf 'name: shop\nruntime: yaml\nresources:\n  pet:\n    type: random:RandomString\n    name: apiName\n    options: {retainOnDelete: true, protect: true}\n' >"$tmp/yaml-flow/Pulumi.yaml"
run yaml-flow Pulumi.yaml yaml
python3 - "$tmp/yaml-flow/Pulumi.yaml" <<'PY' && ok || bad "yaml-flow options: $(cat "$tmp/yaml-flow/Pulumi.yaml")"
import sys, yaml
o = yaml.safe_load(open(sys.argv[1]))["resources"]["pet"]["options"]
assert o == {"protect": True, "retainOnDelete": True, "import": "brave-otter"}, o
PY

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# test_secret_config_types.sh — secret config of every type (string, int, number, bool, list, map, and
# an object's fields) is read back with its real type in all six languages, as a user runs it:
# `cimport convert` of a stack export whose secret inputs have each type, then `cimport --secrets config`
# to TypeScript, Python, Go, C#, Java and YAML. TypeScript must type-check with `tsc --strict` against the
# real SDKs in tests/peers, Python must compile, Go must be gofmt-clean, YAML must load; each language
# must read a list as a list and a map as a map (not a string). With a passphrase, the values in
# Pulumi.<stack>.yaml decrypt (Node's crypto) to JSON of those types, which is what the SDKs' object
# getters parse.
set -u
unset PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
export PULUMI_HOME="$tmp/pulumi-home"
unset PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
peers="$SOURCE_DIR/tests/peers"
tsc="$peers/node_modules/typescript/bin/tsc"
[ -f "$tsc" ] || { echo "FAIL: $peers/node_modules is missing: run scripts/setup.sh first" >&2; exit 1; }

# A stack whose resources have secret inputs of every type.
python3 - <<'PY'
import json
sig = "4dabf18193072939515e22adb298388d"
def sec(v): return {sig: "1b47061264138c4ac30d75fd1eb44270", "plaintext": json.dumps(v)}
res = [{"urn": "urn:pulumi:dev::types::pulumi:pulumi:Stack::types-dev", "custom": False, "type": "pulumi:pulumi:Stack"}]
def add(t, name, inputs, outputs=None):
    o = dict(inputs); o.update(outputs or {}); o["id"] = name + "-id"
    res.append({"urn": f"urn:pulumi:dev::types::{t}::{name}", "custom": True, "id": name + "-id", "type": t,
                "inputs": inputs, "outputs": o})
add("random:index/randomString:RandomString", "rs",
    {"length": sec(16), "special": sec(False), "keepers": sec({"team": "a", "env": "b"}), "overrideSpecial": sec("!@")},
    {"result": sec("abcdefghijklmnop")})
add("random:index/randomShuffle:RandomShuffle", "sh", {"inputs": sec(["a", "b", "c"]), "resultCount": 2}, {"results": ["a", "b"]})
add("digitalocean:index/databaseMysqlConfig:DatabaseMysqlConfig", "my", {"clusterId": "c1", "longQueryTime": sec(2.5)})
add("tls:index/selfSignedCert:SelfSignedCert", "cert",
    {"privateKeyPem": sec("-----BEGIN RSA PRIVATE KEY-----\nMII\n-----END RSA PRIVATE KEY-----\n"), "validityPeriodHours": 12,
     "allowedUses": ["key_encipherment"], "subject": sec({"commonName": "example.com", "organization": "Ex"})},
    {"certPem": "x"})
json.dump({"version": 3, "deployment": {"manifest": {"time": "2026-11-20T10:00:00Z", "magic": "", "version": ""},
                                        "resources": res}}, open("stack.json", "w"))
PY
"$CIMPORT" convert --from pulumi stack.json -o imports.json >convert.log 2>&1 || { cat convert.log >&2; exit 1; }
schemas=()
for p in random tls digitalocean; do schemas+=(--schema "$SHARED_DATA/schemas/$p/schema.json"); done
declare -A ext=([typescript]=ts [python]=py [go]=go [csharp]=cs [java]=java [yaml]=yaml)
# Into a stack: a RandomShuffle's and a SelfSignedCert's providers implement no importer, so the code's
# `import` option cannot import them.
for l in typescript python go csharp java yaml; do
  "$CIMPORT" --spec imports.json --offline-state stack.json "${schemas[@]}" --stack dev --project types -l "$l" \
    --stack-state "st-$l.json" --new-stack-state --secrets-provider b64 \
    --secrets config --secrets-dir "sec-$l" -q -o "out.${ext[$l]}" >"$l.log" 2>&1 &&
    ok || bad "$l: exit $?: $(cat "$l.log")"
done
# has FILE TEXT: the generated FILE contains the line fragment TEXT
has() { grep -qF -- "$2" "$1" && ok || bad "$1 lacks: $2"; }

# TypeScript: the real types, checked by tsc against the SDKs.
has out.ts 'config.requireSecretObject<Record<string, string>>("rsKeepers")'
has out.ts 'config.requireSecretObject<Array<string>>("shInputs")' # Pulumi's spelling (conformance expected/typescript)
has out.ts 'config.requireSecretNumber("rsLength")'
has out.ts 'config.requireSecretNumber("myLongQueryTime")'
has out.ts 'config.requireSecretBoolean("rsSpecial")'
has out.ts 'config.requireSecret("certSubjectCommonName")'
cat >tsconfig.json <<EOF
{"compilerOptions": {"module": "commonjs", "target": "es2020", "strict": true, "noEmit": true, "skipLibCheck": true,
  "moduleResolution": "node", "typeRoots": ["$peers/node_modules/@types"], "types": ["node"],
  "paths": {"@pulumi/*": ["$peers/node_modules/@pulumi/*"]}}, "files": ["out.ts"]}
EOF
node "$tsc" -p tsconfig.json >tsc.log 2>&1 && ok || bad "tsc --strict rejects the TypeScript: $(cat tsc.log)"

# Python
has out.py 'rs_keepers = config.require_secret_object("rsKeepers")'
has out.py 'sh_inputs = config.require_secret_object("shInputs")'
has out.py 'config.require_secret_int("rsLength")'
has out.py 'config.require_secret_float("myLongQueryTime")'
has out.py 'config.require_secret_bool("rsSpecial")'
python3 -m py_compile out.py && ok || bad "out.py does not compile"

# Go: a list or map decoded into its Go type and passed on as the SDK's typed secret Output.
has out.go 'var rsKeepersValue map[string]string'
has out.go 'cfg.RequireSecretObject("rsKeepers", &rsKeepersValue)'
has out.go 'rsKeepers := pulumi.ToSecret(rsKeepersValue).(pulumi.StringMapOutput)'
has out.go 'var shInputsValue []string'
has out.go 'shInputs := pulumi.ToSecret(shInputsValue).(pulumi.StringArrayOutput)'
has out.go 'cfg.RequireSecretInt("rsLength")'
has out.go 'cfg.RequireSecretFloat64("myLongQueryTime")'
has out.go 'cfg.RequireSecretBool("rsSpecial")'
[ -z "$(gofmt -l out.go 2>&1)" ] && gofmt -e out.go >/dev/null 2>&1 && ok || bad "out.go is not gofmt-clean: $(gofmt -e out.go 2>&1 | head -5)"

# C#: System.Text.Json types that InputList/InputMap take.
has out.cs 'config.RequireSecretObject<Dictionary<string, string>>("rsKeepers")'
has out.cs 'config.RequireSecretObject<string[]>("shInputs")'
has out.cs 'config.RequireSecretInt32("rsLength")'
has out.cs 'config.RequireSecretDouble("myLongQueryTime")'
has out.cs 'config.RequireSecretBoolean("rsSpecial")'

# Java: Output<Map<String, String>> and Output<List<String>>, as the builders take them.
has out.java 'ctx.config().requireSecretObject("rsKeepers", Map.class).applyValue(v -> (Map<String, String>) v)'
has out.java 'ctx.config().requireSecretObject("shInputs", String[].class).applyValue(Arrays::asList)'
has out.java 'import java.util.Arrays;'
has out.java 'ctx.config().requireSecretInteger("rsLength")'
has out.java 'ctx.config().requireSecretDouble("myLongQueryTime")'
has out.java 'ctx.config().requireSecretBoolean("rsSpecial")'

# YAML: Pulumi YAML's config types, spelled
python3 - <<'PY' && ok || bad "out.yaml config types"
import yaml
c = yaml.safe_load(open("out.yaml"))["configuration"]
# as its language host parses them and pulumi-yaml's generator writes them (8eafb5d)
want = {"rsKeepers": "object", "shInputs": "list<string>", "rsLength": "int", "myLongQueryTime": "number",
        "rsSpecial": "boolean", "rsOverrideSpecial": "string", "certSubjectCommonName": "string"}
for k, t in want.items():
    assert c[k]["type"] == t and c[k]["secret"] is True, (k, c[k])
PY

# The values themselves: JSON of their type in the secrets file, and encrypted into the stack config.
python3 - <<'PY' && ok || bad "secrets file values: $(cat sec-go/cimport-secrets.dev.json)"
import json
v = json.load(open("sec-go/cimport-secrets.dev.json"))
assert v["rsKeepers"] == {"team": "a", "env": "b"} and v["shInputs"] == ["a", "b", "c"], v
assert v["rsLength"] == 16 and v["myLongQueryTime"] == 2.5 and v["rsSpecial"] is False, v
assert v["certSubjectCommonName"] == "example.com", v
PY
mkdir p && cd p
printf 'name: types\nruntime: nodejs\n' >Pulumi.yaml
PULUMI_CONFIG_PASSPHRASE=pw "$CIMPORT" --spec ../imports.json --offline-state ../stack.json "${schemas[@]}" --stack dev \
  -l typescript --secrets config -q -o index.ts --stack-state st.json --new-stack-state >run.log 2>&1 && ok || bad "passphrase run: $(cat run.log)"
PASSPHRASE=pw node "$SOURCE_DIR/tests/peers/passphrase_decrypt.js" config Pulumi.dev.yaml >dec.json 2>dec.err &&
  python3 - <<'PY' && ok || bad "decrypted stack config: $(cat dec.json dec.err)"
import json
v = json.load(open("dec.json"))["values"]
assert json.loads(v["types:rsKeepers"]) == {"team": "a", "env": "b"}, v
assert json.loads(v["types:shInputs"]) == ["a", "b", "c"], v
assert json.loads(v["types:rsLength"]) == 16 and json.loads(v["types:myLongQueryTime"]) == 2.5, v
assert v["types:rsSpecial"] == "false" and v["types:rsOverrideSpecial"] == "!@", v
PY

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

#!/usr/bin/env bash
# test_schema_secrets.sh — what the schema marks `secret` stays secret wherever cimport writes it,
# whatever the provider (or the import file) gave it as: a property of an object type, of a list's or
# a map's elements (read14 F12), and an explicit provider's configuration from the import file
# (read14 F21). No plaintext in the code, --json, the report or the stack state; the code reads the
# values from secret config; the stack state records them as secrets of its secrets provider.
set -u
unset PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE
: "${CIMPORT:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
export PULUMI_HOME="$tmp/pulumi-home"
unset PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN
trap 'rm -rf "$tmp"' EXIT
DEC="$SOURCE_DIR/tests/peers/passphrase_decrypt.js"
cd "$tmp"

# A package whose provider has secret configuration (top level and in an object) and whose resource
# has secret properties in an object type, used as a list's and a map's element and on its own.
cat >schema.json <<'JSON'
{"name": "vault", "version": "1.0.0",
 "config": {"variables": {"host": {"type": "string"}, "password": {"type": "string", "secret": true}}},
 "provider": {"inputProperties": {"host": {"type": "string"}, "password": {"type": "string", "secret": true},
                                  "auth": {"$ref": "#/types/vault:config/auth:Auth"}}},
 "types": {
  "vault:index:Rule": {"type": "object", "properties": {"key": {"type": "string", "secret": true}, "port": {"type": "integer"}}},
  "vault:config/auth:Auth": {"type": "object", "properties": {"token": {"type": "string", "secret": true}, "user": {"type": "string"}}}},
 "resources": {"vault:index:Thing": {
   "inputProperties": {"name": {"type": "string"}, "main": {"$ref": "#/types/vault:index:Rule"},
     "rules": {"type": "array", "items": {"$ref": "#/types/vault:index:Rule"}},
     "byName": {"type": "object", "additionalProperties": {"$ref": "#/types/vault:index:Rule"}}},
   "requiredInputs": ["name"],
   "properties": {"name": {"type": "string"}, "main": {"$ref": "#/types/vault:index:Rule"},
     "rules": {"type": "array", "items": {"$ref": "#/types/vault:index:Rule"}},
     "byName": {"type": "object", "additionalProperties": {"$ref": "#/types/vault:index:Rule"}}},
   "required": ["name"]}}}
JSON
# The stack the resources are read from (offline): the nested values in plaintext, as a provider that
# does not wrap them returns them; t2 under an explicit provider 'replica'.
python3 - <<'PY'
import json
sig, sec = "4dabf18193072939515e22adb298388d", "1b47061264138c4ac30d75fd1eb44270"
ins = {"name": "t1", "rules": [{"key": "NESTED-SEKRIT", "port": 1}], "byName": {"a": {"key": "MAP-SEKRIT", "port": 2}},
       "main": {"key": "OBJ-SEKRIT", "port": 3}}
pre = "urn:pulumi:dev::p::"
res = [{"urn": pre + "pulumi:pulumi:Stack::p-dev", "custom": False, "type": "pulumi:pulumi:Stack"},
       {"urn": pre + "pulumi:providers:vault::default_1_0_0", "custom": True, "id": "pid", "type": "pulumi:providers:vault",
        "inputs": {"version": "1.0.0"}, "outputs": {"version": "1.0.0"}},
       {"urn": pre + "vault:index:Thing::t1", "custom": True, "id": "t1-id", "type": "vault:index:Thing", "inputs": ins,
        "outputs": dict(ins, id="t1-id"), "provider": pre + "pulumi:providers:vault::default_1_0_0::pid"},
       {"urn": pre + "pulumi:providers:vault::replica", "custom": True, "id": "rid", "type": "pulumi:providers:vault",
        "inputs": {"host": "db.internal", "password": {sig: sec, "plaintext": json.dumps("PROV-SEKRIT-pw")}},
        "outputs": {"host": "db.internal"}},
       {"urn": pre + "vault:index:Thing::t2", "custom": True, "id": "t2-id", "type": "vault:index:Thing",
        "inputs": {"name": "t2"}, "outputs": {"name": "t2", "id": "t2-id"},
        "provider": pre + "pulumi:providers:vault::replica::rid"}]
json.dump({"version": 3, "deployment": {"manifest": {"time": "2026-11-20T10:00:00Z", "magic": "", "version": ""},
                                        "resources": res}}, open("stack.json", "w"))
json.dump({"resources": [
    {"type": "pulumi:providers:vault", "name": "replica",
     "inputs": {"host": "db.internal", "password": "PROV-SEKRIT-pw", "auth": {"token": "AUTH-SEKRIT", "user": "u"}}},
    {"type": "vault:index:Thing", "name": "t2", "id": "t2-id", "provider": "replica"},
    {"type": "vault:index:Thing", "name": "t1", "id": "t1-id"}]}, open("imp.json", "w"))
PY
mkdir -p proj && printf 'name: p\nruntime: nodejs\n' >proj/Pulumi.yaml
run() { # DIR [cimport flags...]: one offline import of imp.json in DIR (a copy of proj)
  local d=$1
  shift
  rm -rf "$d" && cp -r proj "$d" && (cd "$d" && "$CIMPORT" --spec ../imp.json --offline-state ../stack.json \
    --schema ../schema.json --stack dev "$@")
}
PLAIN='NESTED-SEKRIT|MAP-SEKRIT|OBJ-SEKRIT|PROV-SEKRIT-pw|AUTH-SEKRIT'
leaks() { grep -rlE "$PLAIN" --exclude=cimport-secrets.dev.json --exclude=Pulumi.dev.yaml "$@" 2>/dev/null; }

# --- the code of every language: the secrets read from config, none written as a literal ----------
declare -A ext=([typescript]=ts [python]=py [go]=go [csharp]=cs [java]=java [yaml]=yaml [pcl]=pp)
for l in typescript python go csharp java yaml pcl; do
  run "c-$l" -l "$l" -o "out.${ext[$l]}" >"c-$l.log" 2>&1
  rc=$?
  [ $rc = 0 ] && [ -z "$(leaks "c-$l" "c-$l.log")" ] && ok || bad "$l (exit $rc): plaintext in $(leaks "c-$l" "c-$l.log")"
  python3 - "c-$l/cimport-secrets.dev.json" <<'PY' && ok || bad "$l: the secrets file: $(cat "c-$l/cimport-secrets.dev.json")"
import json, sys
v = sorted(json.dumps(x) for x in json.load(open(sys.argv[1])).values())
assert v == sorted(json.dumps(x) for x in ["AUTH-SEKRIT", "MAP-SEKRIT", "NESTED-SEKRIT", "OBJ-SEKRIT", "PROV-SEKRIT-pw"]), v
PY
done
grep -qF 'password: replicaPassword,' c-typescript/out.ts && grep -qF "key: t1Rules0Key," c-typescript/out.ts &&
  grep -qF 'const replicaPassword = config.requireSecret("replicaPassword");' c-typescript/out.ts && ok ||
  bad "typescript: $(cat c-typescript/out.ts)"

# --- --json and --report: the nested paths are secretPaths, the values "[secret]" -----------------
run j -l typescript -o out.ts --json --report r.html >j.json 2>j.log
rc=$?
[ $rc = 0 ] && [ -z "$(leaks j j.json j.log)" ] && ok || bad "--json/--report (exit $rc): plaintext in $(leaks j j.json j.log)"
python3 - j.json <<'PY' && ok || bad "--json secretPaths: $(cat j.json)"
import json, sys
r = {e["name"]: e for e in json.load(open(sys.argv[1]))["resources"]}
assert sorted(r["t1"]["secretPaths"]) == ["byName.a.key", "main.key", "rules[0].key"], r["t1"]["secretPaths"]
assert sorted(r["replica"]["secretPaths"]) == ["auth.token", "password"], r["replica"]["secretPaths"]
assert r["t1"]["inputs"]["rules"][0] == {"key": "[secret]", "port": 1}, r["t1"]["inputs"]
PY

# --- the stack state: recorded as secrets of its secrets provider ---------------------------------
run s1 -l typescript -o out.ts --stack-state s.json --new-stack-state --secrets-provider b64 >s1.log 2>&1
rc=$?
[ $rc = 0 ] && [ -z "$(leaks s1 s1.log)" ] && ok || bad "b64 state (exit $rc): plaintext in $(leaks s1 s1.log)"
# offline no plugin runs the explicit provider's CheckConfig, whose answer Pulumi records: what is recorded is said
# (read17 F10)
grep -qF "provider 'replica' of type 'pulumi:providers:vault': recorded with the inputs the import file gives it: offline no vault plugin runs" s1.log &&
  ok || bad "offline explicit provider: what is recorded not said: $(cat s1.log)"
python3 - s1/s.json <<'PY' && ok || bad "b64 state: $(cat s1/s.json)"
import base64, json, sys
sig = "4dabf18193072939515e22adb298388d"
res = {r["urn"].split("::")[-1]: r for r in json.load(open(sys.argv[1]))["deployment"]["resources"]}
def plain(v):  # the b64 secrets provider's ciphertext is the value's JSON in base64
    assert isinstance(v, dict) and v.get(sig) == "1b47061264138c4ac30d75fd1eb44270" and "ciphertext" in v, v
    return json.loads(base64.b64decode(v["ciphertext"]))
for k in ("inputs", "outputs"):
    p = res["replica"][k]
    assert plain(p["password"]) == "PROV-SEKRIT-pw" and plain(p["auth"]["token"]) == "AUTH-SEKRIT", p
    assert p["host"] == "db.internal" and p["auth"]["user"] == "u", p
    t = res["t1"][k]
    assert plain(t["rules"][0]["key"]) == "NESTED-SEKRIT" and t["rules"][0]["port"] == 1, t
    assert plain(t["byName"]["a"]["key"]) == "MAP-SEKRIT" and plain(t["main"]["key"]) == "OBJ-SEKRIT", t
PY
# ... with a passphrase: encrypted for it, and an independent reader decrypts them
command -v node >/dev/null && {
  PULUMI_CONFIG_PASSPHRASE=pw run s2 -l typescript -o out.ts --stack-state s.json --new-stack-state >s2.log 2>&1
  rc=$?
  [ $rc = 0 ] && [ -z "$(leaks s2 s2.log)" ] && ok || bad "passphrase state (exit $rc): plaintext in $(leaks s2 s2.log)"
  PASSPHRASE=pw node "$DEC" state s2/s.json >dec.json 2>dec.err && ok || bad "decrypt: $(cat dec.err)"
  python3 - dec.json <<'PY' && ok || bad "decrypted: $(cat dec.json)"
import json, sys
vals = sorted(set(json.load(open(sys.argv[1]))["values"].values()))
assert vals == sorted('"%s"' % s for s in ["AUTH-SEKRIT", "MAP-SEKRIT", "NESTED-SEKRIT", "OBJ-SEKRIT", "PROV-SEKRIT-pw"]), vals
PY
}

# --- a default provider's configuration the schema marks secret, written plain in Pulumi.<stack>.yaml
# (not `secure:`): recorded as a secret, as Pulumi records it — the engine keeps what the provider's
# CheckConfig answers, and a bridged provider's marks what its schema calls secret (pulumi-terraform-
# bridge MarkSchemaSecrets); the other keys as they are
mkdir -p cfgproj && printf 'name: p\nruntime: nodejs\n' >cfgproj/Pulumi.yaml
printf 'config:\n  vault:host: db1.internal\n  vault:password: CFG-PLAIN-SEKRIT\n' >cfgproj/Pulumi.dev.yaml
printf '{"resources": [{"type": "vault:index:Thing", "name": "t1", "id": "t1-id"}]}' >imp1.json
rm -rf s3 && cp -r cfgproj s3 && (cd s3 && "$CIMPORT" --spec ../imp1.json --offline-state ../stack.json --schema ../schema.json \
  --stack dev -l typescript -o out.ts --stack-state s.json --new-stack-state --secrets-provider b64 >../s3.log 2>&1)
rc=$?
[ $rc = 0 ] && ! grep -qF CFG-PLAIN-SEKRIT s3/s.json s3.log && ok || bad "plain provider config (exit $rc): $(cat s3.log; cat s3/s.json)"
python3 - s3/s.json <<'PY' && ok || bad "plain provider config recorded: $(cat s3/s.json)"
import base64, json, sys
sig = "4dabf18193072939515e22adb298388d"
prov = [r for r in json.load(open(sys.argv[1]))["deployment"]["resources"] if r["type"] == "pulumi:providers:vault"]
assert len(prov) == 1 and prov[0]["urn"].split("::")[-1].startswith("default"), prov
p = prov[0]["inputs"]
v = p["password"]
assert isinstance(v, dict) and v.get(sig) == "1b47061264138c4ac30d75fd1eb44270", p
assert json.loads(base64.b64decode(v["ciphertext"])) == "CFG-PLAIN-SEKRIT", v
assert p["host"] == "db1.internal", p
PY

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

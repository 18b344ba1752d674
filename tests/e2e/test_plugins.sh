#!/usr/bin/env bash
# test_plugins.sh — provider plugins through the CLI as a user runs it (no --offline-state): the
# plugin host finds pulumi-resource-random on $PATH (the Node test provider in examples/providers),
# imports RandomPassword/RandomString/RandomInteger/RandomId and prints TypeScript without the
# password in plaintext; `--attach random=PORT` uses a plugin started by hand; a missing plugin is an
# error naming where it looked and how to install it, with nothing on stdout; and SIGINT/SIGTERM to
# cimport while a provider call hangs leaves no plugin process behind.
#
# Needs the CLI wiring of importer/plugin_host.h (default provider, --attach, --config, signal
# handlers); until that exists the checks below fail with the CLI's own usage errors.
set -u
: "${CIMPORT:?}" "${SOURCE_DIR:?}"
command -v node >/dev/null || { echo "node not installed"; exit 1; }

work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
passed=0
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }

bin="$work/bin"
mkdir -p "$bin" "$work/home"
export PULUMI_HOME="$work/home" XDG_CACHE_HOME="$work/cache"
unset PULUMI_DEBUG_PROVIDERS
sys_path="/usr/local/bin:/usr/bin:/bin"
wrap() { printf '#!/bin/sh\nexec %s "$@"\n' "$2" >"$bin/$1" && chmod +x "$bin/$1"; }
wrap pulumi-resource-random "$SOURCE_DIR/examples/providers/random/pulumi-resource-random"
wrap pulumi-resource-fault "$SOURCE_DIR/examples/providers/fault/pulumi-resource-fault"

password='Xq7-sEcReT-pw!42'
cat >"$work/imports.json" <<JSON
{"resources": [
  {"type": "random:index/randomPassword:RandomPassword", "name": "pw", "id": "$password", "version": "4.21.1"},
  {"type": "random:index/randomString:RandomString", "name": "str", "id": "hello-world", "version": "4.21.1"},
  {"type": "random:index/randomInteger:RandomInteger", "name": "int", "id": "5,1,10", "version": "4.21.1"},
  {"type": "random:index/randomId:RandomId", "name": "rid", "id": "AAECAw", "version": "4.21.1"}]}
JSON

# This run's processes carry a unique tag in their environment, so the checks below see only them
# even when other tests run providers at the same time.
export CIMPORT_TEST_TAG="plugins-$$-$RANDOM"
tagged_plugins() { # prints the PIDs of this run's random/fault provider processes
    local p
    for p in /proc/[0-9]*; do
        grep -qaE 'examples/providers/(random|fault)/index\.js' "$p/cmdline" 2>/dev/null || continue
        tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -qxF "CIMPORT_TEST_TAG=$CIMPORT_TEST_TAG" || continue
        [ "$(awk '{print $3}' "$p/stat" 2>/dev/null)" = Z ] && continue
        echo "${p#/proc/}"
    done
}
no_plugins_left() {
    for _ in $(seq 50); do
        [ -z "$(tagged_plugins)" ] && return 0
        sleep 0.1
    done
    return 1
}

# 1. Discovery on $PATH, code on stdout, the password nowhere in plaintext.
if (cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec imports.json --language typescript --code-only \
    >out.ts 2>err.txt); then
    if grep -q 'new random.RandomPassword("pw"' "$work/out.ts" && grep -q 'new random.RandomId("rid"' "$work/out.ts"; then
        pass
    else
        fail "discovery: unexpected code: $(head -20 "$work/out.ts")"
    fi
else
    fail "discovery: exit $?: $(tail -5 "$work/err.txt")"
fi
if grep -rqF -- "$password" "$work/out.ts" "$work/err.txt"; then fail "the password appears in plaintext"; else pass; fi
no_plugins_left && pass || fail "a plugin process is left after a normal run"

# 1a. The code's `import` option holds the import file's ID, as `pulumi import` writes it, not the ID
# Read returned: RandomInteger "5,1,10" is read as "5", which cannot be imported again ("expected
# result,min,max"); RandomId "pre,AAECAw" as "AAECAw", which would import without its prefix.
printf '%s\n' '{"resources": [' \
    '  {"type": "random:index/randomInteger:RandomInteger", "name": "int", "id": "5,1,10", "version": "4.21.1"},' \
    '  {"type": "random:index/randomId:RandomId", "name": "rid", "id": "pre,AAECAw", "version": "4.21.1"}]}' \
    >"$work/ids.json"
if (cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec ids.json --language typescript >ids.ts 2>ids.err); then
    grep -qF 'import: "5,1,10"' "$work/ids.ts" && grep -qF 'import: "pre,AAECAw"' "$work/ids.ts" && pass ||
        fail "import option is not the import ID: $(grep -F 'import:' "$work/ids.ts")"
else
    fail "import IDs: exit $?: $(tail -5 "$work/ids.err")"
fi
# Two resources whose Reads give one ID (F8): two RandomIds "pre,AAECAw" and "AAECAw" are one object,
# the second refused; two RandomIntegers that drew one result ("5,1,10", "5,0,10": ID "5") are two
# resources, as the stack's twin check keeps them (importid_id_is_no_identity).
printf '%s\n' '{"resources": [' \
    '  {"type": "random:index/randomInteger:RandomInteger", "name": "i1", "id": "5,1,10", "version": "4.21.1"},' \
    '  {"type": "random:index/randomInteger:RandomInteger", "name": "i2", "id": "5,0,10", "version": "4.21.1"},' \
    '  {"type": "random:index/randomId:RandomId", "name": "r1", "id": "pre,AAECAw", "version": "4.21.1"},' \
    '  {"type": "random:index/randomId:RandomId", "name": "r2", "id": "AAECAw", "version": "4.21.1"}]}' \
    >"$work/twins.json"
(cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec twins.json --language typescript >twins.ts 2>twins.err)
rc=$?
[ $rc = 1 ] && grep -qF 'new random.RandomInteger("i1"' "$work/twins.ts" && grep -qF 'new random.RandomInteger("i2"' "$work/twins.ts" &&
  grep -qF 'new random.RandomId("r1"' "$work/twins.ts" && ! grep -qF '"r2"' "$work/twins.ts" &&
  grep -qF "resource 'r2' (import ID 'AAECAw') is the same object as 'r1' (import ID 'pre,AAECAw')" "$work/twins.err" && pass ||
    fail "two resources of one ID (exit $rc): $(cat "$work/twins.err")"
# A password is imported by its value: an `import` option would hold it in plaintext in the code, so
# that resource fails (the value in no message, saying how to import it) and the others are written
# (exit 1).
printf '{"resources": [{"type": "random:index/randomPassword:RandomPassword", "name": "pw", "id": "%s", "version": "4.21.1"},
  {"type": "random:index/randomInteger:RandomInteger", "name": "int", "id": "5,1,10", "version": "4.21.1"}]}' \
    "$password" >"$work/pw.json"
(cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec pw.json --language typescript -o pw.ts >pw.out 2>pw.err)
rc=$?
[ $rc = 1 ] && grep -qF 'import: "5,1,10"' "$work/pw.ts" && ! grep -qF 'RandomPassword' "$work/pw.ts" &&
    grep -qF "resource 'pw' of type 'random:index/randomPassword:RandomPassword': its import ID is a secret value" "$work/pw.err" &&
    pass || fail "a secret import ID in the import option (exit $rc): $(cat "$work/pw.err")"
grep -qF -- "$password" "$work/pw.err" "$work/pw.out" "$work/pw.ts" && fail "the password appears in the refusal" || pass

# 1a. A RandomPet read by the test provider, which refuses to import one as the bridged provider does
# (terraform-provider-random's pet implements no importer): the resource fails with the provider's
# reason, no code (it answered with the ID alone, "imported", and the code's `import:` said `pulumi up`
# imports it).
(cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" random:index/randomPet:RandomPet p clever-wombat \
    --schema "$SHARED_DATA/schemas/random/schema.json" --language typescript -o pet.ts >pet.out 2>pet.err)
rc=$?
[ $rc = 3 ] && [ ! -e "$work/pet.ts" ] && grep -qF "Resource Import Not Implemented" "$work/pet.err" &&
    pass || fail "a RandomPet through the provider (exit $rc): $(cat "$work/pet.err")"

# 1b. --resume over a real provider whose Read gives another ID than the import file's: RandomInteger
# "5,1,10" is read as "5", RandomPassword (imported by its value) as "none". The integer is carried
# over, not read again, and the password's value is nowhere in the results document.
if (cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec imports.json --language typescript --json --code-only \
    >prev.json 2>prev.err); then
    if (cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec imports.json --language typescript \
        --resume prev.json --code-only -o resumed.ts 2>resumed.err); then
        grep -qF '3 carried over' "$work/resumed.err" && grep -qF 'new random.RandomInteger("int"' "$work/resumed.ts" &&
            pass || fail "--resume read again a resource whose Read gave another ID: $(tail -3 "$work/resumed.err")"
    else
        fail "--resume: exit $?: $(tail -5 "$work/resumed.err")"
    fi
    if grep -qF -- "$password" "$work/prev.json"; then fail "the password appears in the results document"; else pass; fi
else
    fail "--json: exit $?: $(tail -5 "$work/prev.err")"
fi
no_plugins_left && pass || fail "a plugin process is left after a resumed run"

# 2. --attach to a plugin started by hand.
PATH="$sys_path" node "$SOURCE_DIR/examples/providers/random/index.js" >"$work/port.txt" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/port.txt" ] && break; sleep 0.1; done
port=$(head -1 "$work/port.txt")
if (cd "$work" && PATH="$sys_path" "$CIMPORT" --spec imports.json --attach "random=$port" --language typescript --code-only \
    >attach.ts 2>attach.err); then
    grep -q 'new random.RandomString("str"' "$work/attach.ts" && pass || fail "attach: unexpected code"
else
    fail "attach: $(tail -5 "$work/attach.err")"
fi
# an explicit provider cannot run on the one attached plugin (a second Configure would change what the
# default provider's resources are read with): refused
cat >"$work/attach-explicit.json" <<'JSON'
{"resources": [{"type": "pulumi:providers:random", "name": "west", "inputs": {}},
  {"type": "random:index/randomString:RandomString", "name": "s1", "id": "hello-world", "provider": "west"}]}
JSON
if (cd "$work" && PATH="$sys_path" "$CIMPORT" --spec attach-explicit.json --attach "random=$port" --language typescript \
    --code-only >/dev/null 2>attach-explicit.err); then
    fail "attach with an explicit provider: exit 0"
else
    grep -qF "its provider 'west' has its own configuration, but the random plugin is one that is attached to" \
        "$work/attach-explicit.err" && pass || fail "attach with an explicit provider: $(cat "$work/attach-explicit.err")"
fi
kill "${pids[0]}" 2>/dev/null

# 3. A missing plugin: a clear error, nothing on stdout.
echo '{"resources": [{"type": "fault:index:Thing", "name": "x", "id": "a", "version": "9.9.9"}]}' >"$work/missing.json"
if (cd "$work" && PATH="$sys_path" "$CIMPORT" --spec missing.json --language typescript >missing.out 2>missing.err); then
    fail "missing plugin: exit 0"
else
    if grep -qF 'no plugin for package '"'"'fault'"'"' version 9.9.9 was found' "$work/missing.err" &&
        grep -qF 'pulumi plugin install resource fault 9.9.9' "$work/missing.err"; then pass; else
        fail "missing plugin: $(cat "$work/missing.err")"
    fi
    [ -s "$work/missing.out" ] && fail "missing plugin: something on stdout" || pass
fi

# 3b. A resource under an explicit provider is read through that provider, configured with its own
# inputs (its own plugin process), not through the package's default one (read14 F0): the fault
# provider's `config` Read answers with the Configure it got.
cat >"$work/explicit.json" <<'JSON'
{"resources": [
  {"type": "pulumi:providers:fault", "name": "west", "inputs": {"region": "us-west-2"}},
  {"type": "fault:index:Thing", "name": "tw", "id": "config", "provider": "west"},
  {"type": "fault:index:Thing", "name": "td", "id": "config"}]}
JSON
# (the default provider's region from the stack's configuration: a --config other than it is refused here)
printf 'config:\n  fault:region: eu-central-1\n' >"$work/Pulumi.dev.yaml"
(cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec explicit.json \
    --stack-state explicit-state.json --new-stack-state -l typescript -o explicit.ts >/dev/null 2>explicit.err)
configured_region() { # configured_region NAME: the region the resource NAME was read with
    node -e 'const d = require(process.argv[1]); const r = d.deployment.resources.find((x) => x.urn.endsWith("::" + process.argv[2]));
             console.log(r ? JSON.parse(r.outputs.value).region : "none")' "$work/explicit-state.json" "$1"
}
[ "$(configured_region tw)" = us-west-2 ] && pass || fail "explicit provider: tw read with $(configured_region tw): $(cat "$work/explicit.err")"
[ "$(configured_region td)" = eu-central-1 ] && pass || fail "default provider: td read with $(configured_region td)"
# an explicit provider known by name only (nameTable: its inputs unknown) is refused, not read with the default's
cat >"$work/named.json" <<'JSON'
{"nameTable": {"east": "urn:pulumi:dev::project::pulumi:providers:fault::east"},
 "resources": [{"type": "fault:index:Thing", "name": "te", "id": "config", "provider": "east"}]}
JSON
if (cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec named.json --code-only -l typescript >/dev/null 2>named.err); then
    fail "explicit provider by name only: exit 0"
else
    grep -qF "its provider 'east' is not in the import file, so cimport does not know that provider's configuration" \
        "$work/named.err" && pass || fail "explicit provider by name only: $(cat "$work/named.err")"
fi

# the engine's own key of a provider's inputs (__internal, in every stack export) is not sent to Configure
node -e 'const d = require(process.argv[1]); const r = d.deployment.resources.find((x) => x.urn.endsWith("::tw"));
         process.exit("__internal" in JSON.parse(r.outputs.value) ? 1 : 0)' "$work/explicit-state.json" &&
    pass || fail "explicit provider configured with __internal"
sed 's/"region": "us-west-2"}/"region": "us-west-2", "__internal": {}}/' "$work/explicit.json" >"$work/explicit-int.json"
(cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec explicit-int.json --stack-state internal-state.json --new-stack-state \
    -l typescript -o internal.ts >/dev/null 2>internal.err)
node -e 'const d = require(process.argv[1]); const r = d.deployment.resources.find((x) => x.urn.endsWith("::tw"));
         const c = JSON.parse(r.outputs.value); process.exit(!("__internal" in c) && c.region === "us-west-2" ? 0 : 1)' \
    "$work/internal-state.json" && pass || fail "__internal sent to Configure: $(cat "$work/internal.err")"
# the stack holds `west` already with other inputs: its resources would be recorded under a provider they
# were not read with — refused, the stack state unchanged
sed 's/us-west-2/ap-south-1/' "$work/explicit.json" >"$work/explicit-other.json"
cp "$work/explicit-state.json" "$work/explicit-state.before"
if (cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec explicit-other.json --stack-state explicit-state.json \
    -l typescript -o other.ts >/dev/null 2>other.err); then
    fail "explicit provider with other inputs than the stack's: exit 0"
else
    grep -qF "is in the stack already with other inputs (region) than the import file gives it" "$work/other.err" &&
        cmp -s "$work/explicit-state.json" "$work/explicit-state.before" && pass ||
        fail "explicit provider with other inputs than the stack's: $(cat "$work/other.err")"
fi
# a --config for a package whose every resource is read through an explicit provider has no effect (the
# provider is configured with its inputs from the import file): refused, naming the key, the provider and
# where the value goes, nothing written
cat >"$work/onlyexp.json" <<'JSON'
{"resources": [{"type": "pulumi:providers:fault", "name": "west", "inputs": {"region": "us-west-2"}},
  {"type": "fault:index:Thing", "name": "tw", "id": "config", "provider": "west"}]}
JSON
(cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec onlyexp.json --code-only -l typescript -o onlyexp.ts \
    --config fault:region=eu-west-1 >/dev/null 2>onlyexp.err)
rc=$?
[ $rc = 2 ] && [ ! -e "$work/onlyexp.ts" ] &&
    grep -qF "the provider configuration fault:region given for this run has no effect: every fault resource of the import is read through an explicit provider ('west')" "$work/onlyexp.err" &&
    grep -qF "\`inputs\` in the import file" "$work/onlyexp.err" && pass ||
    fail "--config for a package only under explicit providers (exit $rc): $(cat "$work/onlyexp.err")"
# ... and one for a package the import reads nothing of (a typo, `aws:` while importing fault) (read17 F6)
(cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec onlyexp.json --code-only -l typescript -o onlyexp.ts \
    --config aws:region=eu-west-1 >/dev/null 2>unused.err)
rc=$?
[ $rc = 2 ] && [ ! -e "$work/onlyexp.ts" ] &&
    grep -qF "the provider configuration aws:region given for this run has no effect: the import reads no aws resource" "$work/unused.err" &&
    pass || fail "--config for a package the import does not read (exit $rc): $(cat "$work/unused.err")"
# a provider of another package is refused
cat >"$work/otherpkg.json" <<'JSON'
{"resources": [{"type": "pulumi:providers:random", "name": "r1", "inputs": {}},
  {"type": "fault:index:Thing", "name": "tx", "id": "config", "provider": "r1"}]}
JSON
if (cd "$work" && PATH="$bin:$sys_path" "$CIMPORT" --spec otherpkg.json --code-only -l typescript >/dev/null 2>otherpkg.err); then
    fail "a provider of another package: exit 0"
else
    grep -qF "its provider 'r1' is a provider of package 'random', not of 'fault'" "$work/otherpkg.err" && pass ||
        fail "a provider of another package: $(cat "$work/otherpkg.err")"
fi

# 3c. The stack's provider configuration is what Pulumi uses (read14 F3, F17, F14, F18): Pulumi.yaml's
# `config:` values under Pulumi.<stack>.yaml's reach Configure; the default provider is recorded with the
# stack's configuration (Pulumi's GetPackageConfig: every value a string, a `secure:` one a secret); a
# --config that differs from the stack's, an ESC environment and disabled default providers are refused.
cfg="$work/cfgp"
dstate="$work/cfgstate"
mkdir -p "$cfg" "$dstate/.pulumi/stacks/cfgp"
printf 'version: 1\n' >"$dstate/.pulumi/meta.yaml"
printf '{"version":3,"checkpoint":{"stack":"organization/cfgp/dev","latest":null}}' >"$dstate/.pulumi/stacks/cfgp/dev.json"
ckpt="$dstate/.pulumi/stacks/cfgp/dev.json"
printf 'name: cfgp\nruntime: nodejs\nconfig:\n  fault:region: from-project\n  fault:zone:\n    value: zone-from-project\n  fault:retries: 3\n' \
    >"$cfg/Pulumi.yaml"
token='Tk-9f2-sEcReT-token'
arn='arn:aws:iam::123456789012:role/SeCrEt-role'
# a passphrase stack config with an encrypted provider value, and one inside an object-valued key
# (`fault:assumeRole: {roleArn: {secure: ...}}`), made the way Pulumi makes them (Node's crypto)
node -e 'const c = require("crypto"); const [pw, tok, arn] = process.argv.slice(1); const salt = c.randomBytes(8);
  const key = c.pbkdf2Sync(pw, salt, 1000000, 32, "sha256");
  const enc = (t) => { const n = c.randomBytes(12); const e = c.createCipheriv("aes-256-gcm", key, n);
    return "v1:" + n.toString("base64") + ":" + Buffer.concat([e.update(t, "utf8"), e.final(), e.getAuthTag()]).toString("base64"); };
  console.log("encryptionsalt: v1:" + salt.toString("base64") + ":" + enc("pulumi"));
  console.log("config:\n  fault:region: eu-central-1\n  fault:token:\n    secure: " + enc(tok));
  console.log("  fault:assumeRole:\n    roleArn:\n      secure: " + enc(arn) + "\n    sessionName: s1");' cfg-pass "$token" "$arn" \
    >"$cfg/Pulumi.dev.yaml"
cp "$cfg/Pulumi.dev.yaml" "$cfg/Pulumi.dev.yaml.orig"
echo '{"resources": [{"type": "fault:index:Thing", "name": "c1", "id": "config", "version": "1.0.0"}]}' >"$cfg/c1.json"
# the fault provider answers CheckConfig here, adding a key (`checked`) as a provider filling in a default does
cfgrun() { (cd "$cfg" && PATH="$bin:$sys_path" PULUMI_BACKEND_URL="file://$dstate" PULUMI_CONFIG_PASSPHRASE=cfg-pass FAULT_CHECKCONFIG=1 \
    "$CIMPORT" --stack dev --yes -l typescript "$@"); }
cfgrun --spec c1.json -o c1.ts >/dev/null 2>"$work/c1.err"
rc=$?
# Configure got the project's zone and retries, the stack file's region (over the project's) and the token, each
# as Pulumi gives a default provider its config (strings: retries "3"), through CheckConfig (its `checked`); the
# token in Configure's args as Pulumi's engine marshals them (KeepSecrets): in the secret signature
node -e 'const d = require(process.argv[1]); const r = d.checkpoint.latest.resources.find((x) => x.urn.endsWith("::c1"));
  const c = JSON.parse(r.outputs.value), t = c.token || {};
  process.exit(c.region === "eu-central-1" && c.zone === "zone-from-project" && c.retries === "3" &&
    t["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270" && t.value === process.argv[2] &&
    c.checked === "by-fault" ? 0 : 1)' \
    "$ckpt" "$token" && [ $rc = 0 ] && pass || fail "project and stack config to Configure (exit $rc): $(cat "$work/c1.err")"
# the object's encrypted field reached Configure decrypted (not its ciphertext), the value a secret
node -e 'const d = require(process.argv[1]); const r = d.checkpoint.latest.resources.find((x) => x.urn.endsWith("::c1"));
  const c = JSON.parse(r.outputs.value); const w = c.assumeRole || {};
  if (w["4dabf18193072939515e22adb298388d"] !== "1b47061264138c4ac30d75fd1eb44270") { console.error(r.outputs.value); process.exit(1); }
  const ar = w.value;
  if (typeof ar === "string" ? JSON.parse(ar).roleArn !== process.argv[2] : !ar || ar.roleArn !== process.argv[2]) { console.error(r.outputs.value); process.exit(1); }' \
    "$ckpt" "$arn" && pass || fail "nested secure config value to Configure: $(cat "$work/c1.err")"
# the default provider records them as Pulumi does: CheckConfig's answer (with its `checked`) to the strings,
# the token a secret (encrypted, not in clear)
node -e 'const d = require(process.argv[1]);
  const p = d.checkpoint.latest.resources.find((x) => x.urn.endsWith("::pulumi:providers:fault::default_1_0_0"));
  const i = p.inputs, s = i.token || {};
  const ok = i.region === "eu-central-1" && i.zone === "zone-from-project" && i.retries === "3" && i.version === "1.0.0" &&
    i.checked === "by-fault" &&
    s["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270" && typeof s.ciphertext === "string" &&
    typeof p.outputs.token.ciphertext === "string" && !JSON.stringify(p).includes(process.argv[2]) &&
    typeof (i.assumeRole || {}).ciphertext === "string" && !JSON.stringify(p).includes(process.argv[3]);
  if (!ok) console.error(JSON.stringify(p)); process.exit(ok ? 0 : 1)' "$ckpt" "$token" "$arn" &&
    PASSPHRASE=cfg-pass node "$SOURCE_DIR/tests/peers/passphrase_decrypt.js" state "$ckpt" >"$work/c1.plain" &&
    grep -qF "default_1_0_0.inputs.token\":\"\\\"$token\\\"\"" "$work/c1.plain" &&
    node -e 'const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).values;
      const k = Object.keys(v).find((x) => x.endsWith("default_1_0_0.inputs.assumeRole"));
      const o = k && JSON.parse(JSON.parse(v[k]));
      process.exit(o && o.roleArn === process.argv[2] && o.sessionName === "s1" && Object.keys(o).length === 2 ? 0 : 1)' "$work/c1.plain" "$arn" &&
    pass || fail "default provider recorded without the stack's config: $(grep -o '"pulumi:providers:fault::default[^}]*}' "$ckpt" | head -1)"
# F14: a --config that differs from the stack's configuration is refused, nothing written
cp "$ckpt" "$work/ckpt.before"
echo '{"resources": [{"type": "fault:index:Thing", "name": "c2", "id": "fine-2", "version": "1.0.0"}]}' >"$cfg/c2.json"
cfgrun --spec c2.json -o c2.ts --config fault:region=us-west-2 >/dev/null 2>"$work/c2.err"
rc=$?
[ $rc = 2 ] && cmp -s "$ckpt" "$work/ckpt.before" && [ ! -e "$cfg/c2.ts" ] &&
    grep -qF "the provider configuration fault:region given for this run differs from the stack's configuration (fault:region is 'eu-central-1')" "$work/c2.err" &&
    grep -qF 'pulumi config set fault:region' "$work/c2.err" && pass || fail "--config other than the stack's (exit $rc): $(cat "$work/c2.err")"
# ... and with the code's `import` option (no stack written, the program's provider reads the stack's)
cfgrun --spec c2.json -o c2.ts --import-option --config fault:zone=z9 >/dev/null 2>"$work/c2i.err"
rc=$?
[ $rc = 2 ] && [ ! -e "$cfg/c2.ts" ] && grep -qF "the provider configuration fault:zone given for this run differs from the stack's configuration (fault:zone is 'zone-from-project')" "$work/c2i.err" &&
    pass || fail "--config other than the stack's with --import-option (exit $rc): $(cat "$work/c2i.err")"
# F3: the stack holds the default provider with another configuration than the stack's now: the resource is
# recorded under it, but the provider's update at the next preview is said, and no "no changes" promised
sed -i 's/eu-central-1/ap-south-1/' "$cfg/Pulumi.dev.yaml"
cfgrun --spec c2.json -o c2.ts >/dev/null 2>"$work/c2b.err"
rc=$?
[ $rc = 1 ] && grep -qF "records another configuration (region) than the stack's configuration gives the fault package now" "$work/c2b.err" &&
    ! grep -qF 'should then show no changes' "$work/c2b.err" && grep -qF '::c2"' "$ckpt" && pass ||
    fail "existing default provider with other config (exit $rc): $(cat "$work/c2b.err")"
# ... said too when every resource of the run is in the stack already (c2, recorded by the run above)
cp "$ckpt" "$work/ckpt.before"
cfgrun --spec c2.json -o c2.ts >/dev/null 2>"$work/c2c.err"
rc=$?
[ $rc = 1 ] && grep -qF "records another configuration (region) than the stack's configuration gives the fault package now" "$work/c2c.err" &&
    ! grep -qF 'should then show no changes' "$work/c2c.err" && pass ||
    fail "existing default provider with other config, every resource in the stack (exit $rc): $(cat "$work/c2c.err")"
cp "$cfg/Pulumi.dev.yaml.orig" "$cfg/Pulumi.dev.yaml"
# F18: default providers the stack disables are refused, naming the setting and the fix
cp "$ckpt" "$work/ckpt.before"
printf '  pulumi:disable-default-providers:\n    - fault\n' >>"$cfg/Pulumi.dev.yaml"
echo '{"resources": [{"type": "fault:index:Thing", "name": "c3", "id": "fine-3", "version": "1.0.0"}]}' >"$cfg/c3.json"
cfgrun --spec c3.json -o c3.ts >/dev/null 2>"$work/c3.err"
rc=$?
[ $rc = 2 ] && cmp -s "$ckpt" "$work/ckpt.before" && [ ! -e "$cfg/c3.ts" ] &&
    grep -qF "would use the default fault provider, which the stack disables (pulumi:disable-default-providers" "$work/c3.err" &&
    grep -qF 'pulumi:providers:fault' "$work/c3.err" && pass || fail "disabled default provider (exit $rc): $(cat "$work/c3.err")"
# ... an explicit provider is fine there
cat >"$cfg/c3e.json" <<'JSON'
{"resources": [{"type": "pulumi:providers:fault", "name": "west", "inputs": {"region": "us-west-2"}, "version": "1.0.0"},
  {"type": "fault:index:Thing", "name": "c3e", "id": "fine-3e", "provider": "west", "version": "1.0.0"}]}
JSON
cfgrun --spec c3e.json -o c3e.ts >/dev/null 2>"$work/c3e.err"
rc=$?
[ $rc = 0 ] && grep -qF '::c3e"' "$ckpt" && pass || fail "explicit provider with default providers disabled (exit $rc): $(cat "$work/c3e.err")"
cp "$cfg/Pulumi.dev.yaml.orig" "$cfg/Pulumi.dev.yaml"
# read17 F10: an explicit provider is recorded as Pulumi records one: its inputs are what its plugin's CheckConfig
# answered (here with the `checked` it fills in), the schema's secrets (token) still secret, not the import file's
# inputs as given
cat >"$cfg/c5.json" <<'JSON'
{"resources": [{"type": "pulumi:providers:fault", "name": "east", "inputs": {"region": "us-east-1", "token": "Tk-east-SeCrEt"},
  "version": "1.0.0"}, {"type": "fault:index:Thing", "name": "c5", "id": "fine-5", "provider": "east", "version": "1.0.0"}]}
JSON
cfgrun --spec c5.json -o c5.ts >/dev/null 2>"$work/c5.err"
rc=$?
node -e 'const d = require(process.argv[1]);
  const p = d.checkpoint.latest.resources.find((x) => x.urn.endsWith("::pulumi:providers:fault::east"));
  const i = (p || {}).inputs || {};
  const ok = i.region === "us-east-1" && i.checked === "by-fault" && i.version === "1.0.0" &&
    typeof (i.token || {}).ciphertext === "string" && !JSON.stringify(d).includes("Tk-east-SeCrEt");
  if (!ok) console.error(JSON.stringify(p)); process.exit(ok ? 0 : 1)' "$ckpt" && [ $rc = 0 ] && pass ||
    fail "explicit provider recorded without its CheckConfig answer (exit $rc): $(cat "$work/c5.err")"
# read17 F11: an explicit provider's input its package's schema does not list cannot be written into the code, so
# recording it would make the next preview change the provider: refused, naming it and the nearest input, nothing
# recorded, no "no changes" promised
cp "$ckpt" "$work/ckpt.before"
cat >"$cfg/c6.json" <<'JSON'
{"resources": [{"type": "pulumi:providers:fault", "name": "north", "inputs": {"region": "eu-north-1", "regoin": "x"},
  "version": "1.0.0"}, {"type": "fault:index:Thing", "name": "c6", "id": "fine-6", "provider": "north", "version": "1.0.0"}]}
JSON
cfgrun --spec c6.json -o c6.ts >/dev/null 2>"$work/c6.err"
rc=$?
[ $rc = 3 ] && cmp -s "$ckpt" "$work/ckpt.before" && [ ! -e "$cfg/c6.ts" ] &&
    grep -qF "'regoin' (in inputs) is not an input of the fault provider: its schema does not list it" "$work/c6.err" &&
    grep -qF "did you mean 'region'?" "$work/c6.err" && grep -qF "skipped: its provider 'north' failed to import" "$work/c6.err" &&
    ! grep -qF 'no changes' "$work/c6.err" && pass || fail "explicit provider input the schema does not list (exit $rc): $(cat "$work/c6.err")"
# ... beside a resource of the default provider, which is imported alone (exit 1): the refused provider and the
# resource under it are not recorded
cat >"$cfg/c6b.json" <<'JSON'
{"resources": [{"type": "pulumi:providers:fault", "name": "north", "inputs": {"region": "eu-north-1", "regoin": "x"},
  "version": "1.0.0"}, {"type": "fault:index:Thing", "name": "c6", "id": "fine-6", "provider": "north", "version": "1.0.0"},
  {"type": "fault:index:Thing", "name": "c6b", "id": "fine-6b", "version": "1.0.0"}]}
JSON
cfgrun --spec c6b.json -o c6b.ts >/dev/null 2>"$work/c6b.err"
rc=$?
[ $rc = 1 ] && grep -qF '::c6b"' "$ckpt" && ! grep -qF '::c6"' "$ckpt" && ! grep -qF 'pulumi:providers:fault::north' "$ckpt" &&
    grep -qF "'regoin' (in inputs) is not an input of the fault provider" "$work/c6b.err" && pass ||
    fail "refused explicit provider beside an imported resource (exit $rc): $(cat "$work/c6b.err")"
# a provider the stack holds, named by the import file only (nameTable): configured with the inputs the stack
# records for it (west: us-west-2), not refused and not read with the default provider's configuration
cat >"$cfg/c4.json" <<'JSON'
{"nameTable": {"west": "urn:pulumi:dev::cfgp::pulumi:providers:fault::west"},
 "resources": [{"type": "fault:index:Thing", "name": "c4", "id": "config", "provider": "west", "version": "1.0.0"}]}
JSON
cfgrun --spec c4.json --generate-code=false >/dev/null 2>"$work/c4.err"
rc=$?
node -e 'const d = require(process.argv[1]); const r = d.checkpoint.latest.resources.find((x) => x.urn.endsWith("::c4"));
  process.exit(r && JSON.parse(r.outputs.value).region === "us-west-2" && r.provider.includes("::pulumi:providers:fault::west::") ? 0 : 1)' \
    "$ckpt" && [ $rc = 0 ] && pass || fail "provider by name from the stack (exit $rc): $(cat "$work/c4.err")"
# F17: a stack file importing a Pulumi ESC environment is refused, naming it
cp "$ckpt" "$work/ckpt.before"
printf 'environment:\n  - aws-prod-creds\n' >>"$cfg/Pulumi.dev.yaml"
cfgrun --spec c3.json -o c3.ts >/dev/null 2>"$work/esc.err"
rc=$?
[ $rc = 2 ] && cmp -s "$ckpt" "$work/ckpt.before" && [ ! -e "$cfg/c3.ts" ] &&
    grep -qF "imports the Pulumi ESC environment 'aws-prod-creds'" "$work/esc.err" && pass ||
    fail "ESC environment (exit $rc): $(cat "$work/esc.err")"
cp "$cfg/Pulumi.dev.yaml.orig" "$cfg/Pulumi.dev.yaml"

# 4. SIGINT / SIGTERM while a call hangs: no plugin left behind.
echo '{"resources": [{"type": "fault:index:Thing", "name": "h", "id": "hang"}]}' >"$work/hang.json"
for sig in INT TERM; do
    (cd "$work" && PATH="$bin:$sys_path" exec "$CIMPORT" --spec hang.json --language typescript >/dev/null 2>&1) &
    cpid=$!
    for _ in $(seq 100); do [ -n "$(tagged_plugins)" ] && break; sleep 0.1; done
    sleep 0.5
    kill -"$sig" "$cpid"
    wait "$cpid" 2>/dev/null
    no_plugins_left && pass || fail "SIG$sig: a pulumi-resource-fault process is left"
done

echo "plugins: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

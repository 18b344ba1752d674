#!/usr/bin/env bash
# test_provider_config_requests.sh — what cimport sends a provider plugin in CheckConfig and Configure,
# as the grpc-go peer (a real gRPC server process) records the requests off the wire, against what
# Pulumi's engine sends (pkg/resource/plugin/provider_plugin.go CheckConfig/Configure,
# pkg/resource/deploy/providers/registry.go Check, ProviderRequest.DefaultName):
#   - a default provider's URN, `name` and `type`: `default_X_Y_Z[_pre…]` for version X.Y.Z, the run's
#     stack and project; an explicit provider's own URN and name;
#   - `news`: the stack's configuration with the `version` input; a secret plain (CheckConfig marshals
#     without KeepSecrets), and `olds` the inputs the stack records for the provider when it holds it;
#   - Configure's `args` the checked inputs with the secret wrapped in Pulumi's secret signature (always:
#     KeepSecrets true), even for a plugin whose Handshake says it accepts no secrets; `variables` plain;
#     CheckConfig's answer keeps the secret a secret where the provider echoed it (annotateSecrets).
set -u
: "${CIMPORT:?}" "${SOURCE_DIR:?}" "${BUILD_DIR:?}"
command -v node >/dev/null || { echo "node not installed"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }

PEER_DIR="$BUILD_DIR/grpcgo-config"
sh "$SOURCE_DIR/tests/peers/grpcgo/build.sh" "$PEER_DIR" >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; exit 1; }
BIN="$TMP/bin"
mkdir -p "$BIN" "$TMP/home" "$TMP/cache"
ln -s "$PEER_DIR/pulumi-resource-peer" "$BIN/pulumi-resource-cfgpeer"
cat >"$TMP/schema.json" <<'JSON'
{"name": "cfgpeer", "version": "1.2.3-beta.1",
 "config": {"variables": {"region": {"type": "string"}, "token": {"type": "string", "secret": true}}},
 "provider": {"inputProperties": {"region": {"type": "string"}, "token": {"type": "string", "secret": true}}},
 "resources": {"cfgpeer:index:Thing": {"properties": {"size": {"type": "string"}}, "required": ["size"],
   "inputProperties": {"size": {"type": "string"}}, "requiredInputs": ["size"]}}}
JSON
peer_data() { # $1: extra JSON members
    cat >"$BIN/pulumi-resource-cfgpeer.json" <<JSON
{"version": "1.2.3-beta.1", "schemaFile": "$TMP/schema.json", "configLog": "$TMP/config.log",
 "checkConfigAdds": {"filled": "by-peer"}$1,
 "resources": {"cfgpeer:index:Thing": {
   "t1": {"inputs": {"size": "s"}, "state": {"size": "s"}},
   "t2": {"inputs": {"size": "m"}, "state": {"size": "m"}},
   "t3": {"inputs": {"size": "l"}, "state": {"size": "l"}}}}}
JSON
}
peer_data ""

proj="$TMP/cfgreq"
state="$TMP/state"
mkdir -p "$proj" "$state/.pulumi/stacks/cfgreq"
printf 'version: 1\n' >"$state/.pulumi/meta.yaml"
printf '{"version":3,"checkpoint":{"stack":"organization/cfgreq/dev","latest":null}}' >"$state/.pulumi/stacks/cfgreq/dev.json"
ckpt="$state/.pulumi/stacks/cfgreq/dev.json"
printf 'name: cfgreq\nruntime: nodejs\n' >"$proj/Pulumi.yaml"
token='Tk-cfgreq-sEcReT-77'
# a passphrase stack with a `secure:` provider value, encrypted the way Pulumi does (Node's crypto)
node -e 'const c = require("crypto"); const [pw, tok] = process.argv.slice(1); const salt = c.randomBytes(8);
  const key = c.pbkdf2Sync(pw, salt, 1000000, 32, "sha256");
  const enc = (t) => { const n = c.randomBytes(12); const e = c.createCipheriv("aes-256-gcm", key, n);
    return "v1:" + n.toString("base64") + ":" + Buffer.concat([e.update(t, "utf8"), e.final(), e.getAuthTag()]).toString("base64"); };
  console.log("encryptionsalt: v1:" + salt.toString("base64") + ":" + enc("pulumi"));
  console.log("config:\n  cfgpeer:region: eu-north-1\n  cfgpeer:token:\n    secure: " + enc(tok));' cfg-pass "$token" \
    >"$proj/Pulumi.dev.yaml"
run() { (cd "$proj" && PATH="$BIN:/usr/local/bin:/usr/bin:/bin" PULUMI_HOME="$TMP/home" XDG_CACHE_HOME="$TMP/cache" \
    PULUMI_BACKEND_URL="file://$state" PULUMI_CONFIG_PASSPHRASE=cfg-pass "$CIMPORT" --stack dev --yes -l typescript "$@"); }
# check NAME JS: JS sees `reqs` (the recorded requests, in order) and `token`; it returns "" when fine,
# else what is wrong
check() {
    local name=$1 js=$2 why
    why=$(node -e 'const fs = require("fs");
      const reqs = fs.readFileSync(process.argv[1], "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
      const token = process.argv[2]; const secretSig = "1b47061264138c4ac30d75fd1eb44270";
      const sig = "4dabf18193072939515e22adb298388d";
      const cc = reqs.filter((r) => r.method === "CheckConfig").map((r) => r.request);
      const cf = reqs.filter((r) => r.method === "Configure").map((r) => r.request);
      const f = (function (reqs, cc, cf, token, sig, secretSig) {'"$js"'});
      const w = f(reqs, cc, cf, token, sig, secretSig);
      if (w) console.log(w + "\n  recorded: " + JSON.stringify(reqs));' "$TMP/config.log" "$token" 2>&1)
    [ -z "$why" ] && pass || fail "$name: $why"
}

# 1. A default provider of version 1.2.3-beta.1, the stack holding none yet.
echo '{"resources": [{"type": "cfgpeer:index:Thing", "name": "t1", "id": "t1", "version": "1.2.3-beta.1"}]}' >"$proj/i1.json"
: >"$TMP/config.log"
run --spec i1.json -o i1.ts >/dev/null 2>"$TMP/e1"
rc=$?
[ $rc = 0 ] && pass || fail "first import (exit $rc): $(cat "$TMP/e1")"
urn='urn:pulumi:dev::cfgreq::pulumi:providers:cfgpeer::default_1_2_3_beta_1'
check "default provider: CheckConfig's urn, name and type" "
  if (cc.length !== 1) return 'CheckConfig calls: ' + cc.length;
  const r = cc[0];
  if (r.urn !== '$urn') return 'urn ' + r.urn;
  if (r.name !== 'default_1_2_3_beta_1') return 'name ' + r.name;
  if (r.type !== 'pulumi:providers:cfgpeer') return 'type ' + r.type;
  return '';"
check "default provider: CheckConfig's news (version input, the secret plain) and empty olds" "
  const n = cc[0].news || {};
  if (n.version !== '1.2.3-beta.1') return 'news.version ' + JSON.stringify(n.version);
  if (n.region !== 'eu-north-1') return 'news.region ' + JSON.stringify(n.region);
  if (n.token !== token) return 'news.token not the plain secret: ' + JSON.stringify(n.token);
  if (Object.keys(n).sort().join() !== 'region,token,version') return 'news keys ' + Object.keys(n);
  if (cc[0].olds && Object.keys(cc[0].olds).length) return 'olds ' + JSON.stringify(cc[0].olds);
  return '';"
check "default provider: Configure's urn/name/type, args (secret wrapped, checked inputs) and variables (plain)" "
  if (cf.length !== 1) return 'Configure calls: ' + cf.length;
  const r = cf[0], a = r.args || {}, v = r.variables || {};
  if (r.urn !== '$urn' || r.name !== 'default_1_2_3_beta_1' || r.type !== 'pulumi:providers:cfgpeer')
    return 'urn/name/type ' + [r.urn, r.name, r.type];
  if (!a.token || a.token[sig] !== secretSig || a.token.value !== token) return 'args.token ' + JSON.stringify(a.token);
  if (a.filled !== 'by-peer' || a.version !== '1.2.3-beta.1' || a.region !== 'eu-north-1') return 'args ' + JSON.stringify(a);
  if (v['cfgpeer:config:token'] !== token || v['cfgpeer:config:region'] !== 'eu-north-1' || 'cfgpeer:config:version' in v)
    return 'variables ' + JSON.stringify(v);
  if (!r.acceptSecrets || !r.acceptResources) return 'acceptSecrets/acceptResources not set';
  return '';"
# the stack records the provider under that URN, its token a secret (never in clear)
node -e 'const d = require(process.argv[1]); const p = d.checkpoint.latest.resources.find((x) => x.urn === process.argv[2]);
  const ok = p && p.inputs.version === "1.2.3-beta.1" && p.inputs.filled === "by-peer" && typeof (p.inputs.token || {}).ciphertext === "string" &&
    !JSON.stringify(d).includes(process.argv[3]);
  if (!ok) console.error(JSON.stringify(p)); process.exit(ok ? 0 : 1)' "$ckpt" "$urn" "$token" && pass ||
    fail "the stack's default provider: $(grep -o '"urn":"[^"]*providers[^"]*"' "$ckpt")"

# 2. The stack holds that provider now: its recorded inputs are CheckConfig's olds (decrypted, plain).
echo '{"resources": [{"type": "cfgpeer:index:Thing", "name": "t2", "id": "t2", "version": "1.2.3-beta.1"}]}' >"$proj/i2.json"
: >"$TMP/config.log"
run --spec i2.json -o i2.ts >/dev/null 2>"$TMP/e2"
rc=$?
[ $rc = 0 ] && pass || fail "second import (exit $rc): $(cat "$TMP/e2")"
check "olds: the inputs the stack records for the provider" "
  if (cc.length !== 1) return 'CheckConfig calls: ' + cc.length;
  const o = cc[0].olds || {};
  if (o.version !== '1.2.3-beta.1' || o.region !== 'eu-north-1' || o.filled !== 'by-peer' || o.token !== token)
    return 'olds ' + JSON.stringify(o);
  if ('__internal' in o || '__internal' in (cc[0].news || {})) return '__internal sent';
  return '';"

# 3. A plugin whose Handshake accepts no secrets: CheckConfig still plain, Configure's args still wrapped
# (the engine marshals them with KeepSecrets whatever the plugin says).
peer_data ', "rejectSecrets": true'
echo '{"resources": [{"type": "cfgpeer:index:Thing", "name": "t3", "id": "t3", "version": "1.2.3-beta.1"}]}' >"$proj/i3.json"
: >"$TMP/config.log"
run --spec i3.json --code-only -o i3.ts >/dev/null 2>"$TMP/e3"
rc=$?
[ $rc = 0 ] && pass || fail "import with a plugin accepting no secrets (exit $rc): $(cat "$TMP/e3")"
check "acceptSecrets false: CheckConfig plain, Configure's args wrapped" "
  if (cc.length !== 1 || cf.length !== 1) return 'calls ' + cc.length + '/' + cf.length;
  if ((cc[0].news || {}).token !== token) return 'news.token ' + JSON.stringify(cc[0].news);
  const t = (cf[0].args || {}).token || {};
  if (t[sig] !== secretSig || t.value !== token) return 'args.token ' + JSON.stringify(t);
  return '';"
peer_data ""

# 4. An explicit provider: its own URN and name, its inputs (with its version) as news.
cat >"$proj/i4.json" <<'JSON'
{"resources": [{"type": "pulumi:providers:cfgpeer", "name": "west", "inputs": {"region": "us-west-2"}, "version": "1.2.3-beta.1"},
  {"type": "cfgpeer:index:Thing", "name": "t4", "id": "t3", "provider": "west", "version": "1.2.3-beta.1"}]}
JSON
: >"$TMP/config.log"
run --spec i4.json --code-only -o i4.ts >/dev/null 2>"$TMP/e4"
rc=$?
[ $rc = 0 ] && pass || fail "explicit provider import (exit $rc): $(cat "$TMP/e4")"
check "explicit provider: its URN and name" "
  const r = cc.find((x) => (x.news || {}).region === 'us-west-2');
  if (!r) return 'no CheckConfig with the explicit provider inputs';
  if (r.urn !== 'urn:pulumi:dev::cfgreq::pulumi:providers:cfgpeer::west' || r.name !== 'west' || r.type !== 'pulumi:providers:cfgpeer')
    return 'urn/name/type ' + [r.urn, r.name, r.type];
  const c = cf.find((x) => (x.args || {}).region === 'us-west-2');
  if (!c || c.urn !== r.urn || c.name !== 'west') return 'Configure ' + JSON.stringify(c);
  return '';"

# 5. A stack whose secrets provider is a cloud KMS (read16 F9): its `secure:` provider value cannot be read by
# cimport, which says so naming that provider and the way out, exits non-zero and writes nothing — it said
# "set PULUMI_CONFIG_PASSPHRASE", which does not help (and, with one set, did not name the provider).
kms='awskms://alias/cimport-test?region=us-east-1'
mkdir -p "$state/.pulumi/stacks/cfgreq"
printf '{"version":3,"checkpoint":{"stack":"organization/cfgreq/kms","latest":null}}' >"$state/.pulumi/stacks/cfgreq/kms.json"
cat >"$proj/Pulumi.kms.yaml" <<YAML
secretsprovider: $kms
encryptedkey: AQICAHhAA2cimportTestKeyNotRealAAAAfjB8BgkqhkiG9w0BBwagbzBtAgEAMGgGCSqGSIb3DQEHATAeBglghkgBZQMEAS4wEQQM
config:
  cfgpeer:region: eu-north-1
  cfgpeer:token:
    secure: v1:9Yt0cimportAAAA:bm90LWEtcmVhbC1jaXBoZXJ0ZXh0LWJ1dC1zaGFwZWQtbGlrZS1vbmU=
YAML
cp "$state/.pulumi/stacks/cfgreq/kms.json" "$TMP/kms.before"
for pass in "" cfg-pass; do
    (cd "$proj" && PATH="$BIN:/usr/local/bin:/usr/bin:/bin" PULUMI_HOME="$TMP/home" XDG_CACHE_HOME="$TMP/cache"         PULUMI_BACKEND_URL="file://$state" PULUMI_CONFIG_PASSPHRASE="$pass" "$CIMPORT" --stack kms --yes -l typescript         --spec i1.json -o kms.ts >/dev/null 2>"$TMP/ekms")
    rc=$?
    [ $rc -ne 0 ] && [ ! -e "$proj/kms.ts" ] && cmp -s "$state/.pulumi/stacks/cfgreq/kms.json" "$TMP/kms.before" &&
        grep -qF "config value 'cfgpeer:token' is encrypted (secure:) by the stack's secrets provider $kms, which cimport cannot open" "$TMP/ekms" &&
        grep -qF 'pulumi stack change-secrets-provider passphrase' "$TMP/ekms" && ! grep -q 'set PULUMI_CONFIG_PASSPHRASE' "$TMP/ekms" &&
        pass || fail "KMS secrets provider (passphrase '${pass}', exit $rc): $(cat "$TMP/ekms")"
done

echo "provider config requests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

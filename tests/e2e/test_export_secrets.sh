#!/usr/bin/env bash
# test_export_secrets.sh — a `pulumi stack export` as it comes, its secrets the source stack's
# ciphertext, used as --offline-state (the `convert --from pulumi` migration path) (read16 F12).
# The export's ciphertexts are decrypted with its own secrets provider (passphrase: the salt state in
# `secrets_providers`, PULUMI_CONFIG_PASSPHRASE) and then are the secrets they are: encrypted for the
# target stack, read by the code from its config. Where they cannot be decrypted (no passphrase, one
# that does not open the export's salt, a service/KMS export) the resources holding them are refused
# naming `pulumi stack export --show-secrets`; another stack's ciphertext is never written.
# An independent reader (Node's crypto, tests/peers/passphrase_decrypt.js) checks what was written.
set -u
unset PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN PULUMI_STACK
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DEC="$SOURCE_DIR/tests/peers/passphrase_decrypt.js"
S="$SHARED_DATA/schemas"
# Real data: pulumi-gcp's recorded upgrade test; the provider test harness (pulumi/providertest)
# runs its stacks with the passphrase "correct horse battery staple", so the export's secret output
# (the SQL user's password) is that stack's passphrase ciphertext.
G="$SHARED_DATA/pulumi-state/pulumi-gcp/provider/testdata/recorded/TestProviderUpgrade/sql-user/6.67.0/stack.json"
SRCPASS='correct horse battery staple'
SS="$SOURCE_DIR/tests/fixtures/cli/secret-string-stack.json"

# mkstack DIR PROJ STACK: a DIY backend DIR/state with an empty stack (as `pulumi stack init` leaves
# it), the project DIR/proj with that stack selected, PULUMI_HOME DIR/home; cds into the project.
mkstack() {
  rm -rf "$1"
  mkdir -p "$1/state/.pulumi/stacks/$2" "$1/home/workspaces" "$1/proj"
  export PULUMI_HOME="$1/home"
  printf 'version: 1\n' >"$1/state/.pulumi/meta.yaml"
  printf '{"version":3,"checkpoint":{"stack":"organization/%s/%s","latest":null}}' "$2" "$3" \
    >"$1/state/.pulumi/stacks/$2/$3.json"
  printf 'name: %s\nruntime: nodejs\n' "$2" >"$1/proj/Pulumi.yaml"
  local sha
  sha=$(printf '%s' "$1/proj/Pulumi.yaml" | sha1sum | cut -d' ' -f1)
  printf '{"stack": "organization/%s/%s"}' "$2" "$3" >"$PULUMI_HOME/workspaces/$2-$sha-workspace.json"
  printf '{"current": "file://%s", "accessTokens": {}}' "$1/state" >"$PULUMI_HOME/credentials.json"
  cd "$1/proj" || exit 1
}
# ciphertexts FILE: every `ciphertext` string of a state, one a line
ciphertexts() { python3 -c '
import json, sys
def walk(v):
    if isinstance(v, dict):
        if "ciphertext" in v: print(v["ciphertext"])
        for x in v.values(): walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
walk(json.load(open(sys.argv[1])))' "$1"; }
ciphertexts "$G" >"$tmp/src.ct"
[ -s "$tmp/src.ct" ] && ok || bad "the shared export holds no ciphertext"
# foreign CHECKPOINT: whether the checkpoint holds one of the source export's ciphertexts
foreign() { ciphertexts "$1" 2>/dev/null | grep -qxFf "$tmp/src.ct"; }

# --- 1. the source's passphrase: decrypted, re-encrypted for the target stack ---------------------
mkstack "$tmp/a" test test
ck="$tmp/a/state/.pulumi/stacks/test/test.json"
"$CIMPORT" convert --from pulumi "$G" -o conv.json -q 2>conv.err || bad "convert: $(cat conv.err)"
PULUMI_CONFIG_PASSPHRASE="$SRCPASS" "$CIMPORT" --spec conv.json --offline-state "$G" --schema "$S/gcp" --yes \
  -o out.ts >run.log 2>&1
rc=$?
[ $rc -le 1 ] && ok || bad "source passphrase: exit $rc: $(cat run.log)"
grep -qF 'tested-resource' "$ck" && ok || bad "the SQL user is not in the stack: $(cat run.log)"
if foreign "$ck"; then bad "the source stack's ciphertext was copied into the target: $(cat run.log)"; else ok; fi
grep -qF '"secrets_providers"' "$ck" && ok || bad "the target checkpoint names no secrets provider"
if grep -qF 'could not decrypt' run.log; then bad "ciphertext warning: $(cat run.log)"; else ok; fi
PASSPHRASE="$SRCPASS" node "$DEC" state "$ck" >a.dec 2>a.err && ok || bad "the target checkpoint does not decrypt: $(cat a.err)"
PASSPHRASE="$SRCPASS" node "$DEC" state "$G" >src.dec 2>&1
python3 - a.dec src.dec <<'PY' && ok || bad "the target's secrets are not the source's: $(cat a.dec src.dec)"
import json, sys
got, want = (json.load(open(f))["values"] for f in sys.argv[1:3])
key = "urn:pulumi:test::test::gcp:sql/user:User::tested-resource.outputs.password"
assert got.get(key) == want[key] == '"MyPassword"', (got, want)
PY
# The user's password input is plaintext in the export's inputs, secret in its outputs: cimport's
# results call it secret, so the code reads it from the stack's config as every other secret, never
# as a literal (read17 F12: `password: "MyPassword"` in out.ts).
if grep -qF 'MyPassword' out.ts; then bad "the secret password is a literal in the code: $(grep -n MyPassword out.ts)"; else ok; fi
grep -qF 'config.requireSecret("tested-resourcePassword")' out.ts && grep -qF 'password: tested_resourcePassword,' out.ts &&
  ok ||
  bad "the password is not read from config: $(cat out.ts)"
PASSPHRASE="$SRCPASS" node "$DEC" config Pulumi.test.yaml >a.cfg 2>&1 && grep -qF 'MyPassword' a.cfg && ok ||
  bad "the stack's config does not hold the password: $(cat a.cfg)"

# The code only (no project, no stack), the source's passphrase to read the export: the password goes
# to the secrets file the run names, not into the code; without one named there is nowhere to put it.
mkdir -p "$tmp/code" && cd "$tmp/code" || exit 1
"$CIMPORT" convert --from pulumi "$G" -o conv.json -q 2>/dev/null
PULUMI_CONFIG_PASSPHRASE="$SRCPASS" "$CIMPORT" --spec conv.json --offline-state "$G" --schema "$S/gcp" -o o.ts \
  --secrets-dir sec >run.log 2>&1
rc=$?
[ $rc -le 1 ] && ok || bad "code only, --secrets-dir: exit $rc: $(cat run.log)"
if grep -qF 'MyPassword' o.ts run.log; then bad "code only: the password is in the code or on stderr"; else ok; fi
grep -qF 'requireSecret("tested-resourcePassword")' o.ts && grep -qF '"MyPassword"' sec/cimport-secrets.json && ok ||
  bad "code only: the password is not in the secrets file: $(cat o.ts run.log)"
PULUMI_CONFIG_PASSPHRASE="$SRCPASS" "$CIMPORT" --spec conv.json --offline-state "$G" --schema "$S/gcp" -o o2.ts \
  >run.log 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e o2.ts ] && grep -qF 'no stack is selected' run.log && ok ||
  bad "code only, no secrets file named: exit $rc: $(cat run.log)"

# --- 2. no passphrase: the resource holding a ciphertext is refused, the fix named ---------------
mkstack "$tmp/b" test test
ck="$tmp/b/state/.pulumi/stacks/test/test.json"
"$CIMPORT" convert --from pulumi "$G" -o conv.json -q 2>/dev/null
"$CIMPORT" --spec conv.json --offline-state "$G" --schema "$S/gcp" --yes -o out.ts >run.log 2>&1
rc=$?
[ $rc != 0 ] && ok || bad "no passphrase: exit 0: $(cat run.log)"
grep -qF 'pulumi stack export --show-secrets' run.log && grep -qF 'PULUMI_CONFIG_PASSPHRASE' run.log && ok ||
  bad "no passphrase: the fix is not named: $(cat run.log)"
if foreign "$ck"; then bad "no passphrase: the source's ciphertext was written: $(cat run.log)"; else ok; fi
if grep -qF 'tested-resource' "$ck"; then bad "no passphrase: the SQL user was written"; else ok; fi

# --- 3. a passphrase that does not open the export's salt: refused, nothing of the source's -------
mkstack "$tmp/c" test test
ck="$tmp/c/state/.pulumi/stacks/test/test.json"
"$CIMPORT" convert --from pulumi "$G" -o conv.json -q 2>/dev/null
PULUMI_CONFIG_PASSPHRASE=hunter2 "$CIMPORT" --spec conv.json --offline-state "$G" --schema "$S/gcp" --yes -o out.ts \
  >run.log 2>&1
rc=$?
[ $rc != 0 ] && ok || bad "wrong passphrase: exit 0: $(cat run.log)"
grep -qF 'pulumi stack export --show-secrets' run.log && grep -qiF 'does not open' run.log && ok ||
  bad "wrong passphrase: not said: $(cat run.log)"
if foreign "$ck"; then bad "wrong passphrase: the source's ciphertext was written"; else ok; fi
if grep -qF 'tested-resource' "$ck"; then bad "wrong passphrase: the SQL user was written"; else ok; fi

# --- 4. an export of a stack on the service's (or a KMS) secrets provider: refused by name --------
mkstack "$tmp/d" test test
ck="$tmp/d/state/.pulumi/stacks/test/test.json"
python3 - "$G" svc.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["deployment"]["secrets_providers"] = {"type": "service", "state": {"url": "https://api.pulumi.com", "owner": "acme",
                                                                      "project": "test", "stack": "test"}}
json.dump(d, open(sys.argv[2], "w"))
PY
"$CIMPORT" convert --from pulumi svc.json -o conv.json -q 2>/dev/null
PULUMI_CONFIG_PASSPHRASE="$SRCPASS" "$CIMPORT" --spec conv.json --offline-state svc.json --schema "$S/gcp" --yes \
  -o out.ts >run.log 2>&1
rc=$?
[ $rc != 0 ] && ok || bad "service export: exit 0: $(cat run.log)"
grep -qF "'service' secrets provider" run.log && grep -qF 'pulumi stack export --show-secrets' run.log && ok ||
  bad "service export: not said: $(cat run.log)"
if foreign "$ck"; then bad "service export: its ciphertext was written"; else ok; fi

# --- 5. a secret input (keepers.apiToken): read as the secret it is, into the code's config -------
# The source: the secret-string fixture imported into a passphrase stack; its checkpoint is the export.
mkstack "$tmp/e" shop dev
PULUMI_CONFIG_PASSPHRASE=src-pass "$CIMPORT" random:index/randomString:RandomString api-name brave-otter \
  --offline-state "$SS" --schema "$S/random/schema.json" --yes -o api.ts >src.log 2>&1 || bad "source stack: $(cat src.log)"
cp "$tmp/e/state/.pulumi/stacks/shop/dev.json" "$tmp/exp.json"
ciphertexts "$tmp/exp.json" >"$tmp/src.ct"
[ -s "$tmp/src.ct" ] && ok || bad "the source stack holds no ciphertext: $(cat src.log)"
mkstack "$tmp/f" shop dev
ck="$tmp/f/state/.pulumi/stacks/shop/dev.json"
PULUMI_CONFIG_PASSPHRASE=src-pass "$CIMPORT" random:index/randomString:RandomString api-name brave-otter \
  --offline-state "$tmp/exp.json" --schema "$S/random/schema.json" --yes -o a.ts >run.log 2>&1
rc=$?
[ $rc = 0 ] && ok || bad "secret input: exit $rc: $(cat run.log)"
grep -qF 'requireSecret("api-nameKeepersApiToken")' a.ts && ok || bad "secret input: not read from config: $(cat a.ts run.log)"
if grep -qF 'does not match the schema' run.log; then bad "secret input: false schema message: $(cat run.log)"; else ok; fi
if foreign "$ck"; then bad "secret input: the source's ciphertext was written"; else ok; fi
PASSPHRASE=src-pass node "$DEC" config Pulumi.dev.yaml >f.dec 2>&1 && grep -qF 'tok-9f8e7d-SECRET-VALUE' f.dec && ok ||
  bad "secret input: the config does not hold the token: $(cat f.dec)"
PASSPHRASE=src-pass node "$DEC" state "$ck" >fs.dec 2>&1 && grep -qF 'tok-9f8e7d-SECRET-VALUE' fs.dec && ok ||
  bad "secret input: the checkpoint does not hold the token: $(cat fs.dec)"
# The same export without a passphrase: refused (it was: the token left out of the code, the
# source's ciphertext in the stack, "no changes" promised).
mkstack "$tmp/g" shop dev
ck="$tmp/g/state/.pulumi/stacks/shop/dev.json"
"$CIMPORT" random:index/randomString:RandomString api-name brave-otter --offline-state "$tmp/exp.json" \
  --schema "$S/random/schema.json" --yes -o a.ts >run.log 2>&1
rc=$?
[ $rc != 0 ] && ok || bad "secret input, no passphrase: exit 0: $(cat run.log)"
if grep -qF 'should then show no changes' run.log; then bad "secret input, no passphrase: no changes promised"; else ok; fi
if foreign "$ck"; then bad "secret input, no passphrase: the source's ciphertext was written"; else ok; fi

echo "export secrets: $pass passed, $fail failed"
[ $fail = 0 ]

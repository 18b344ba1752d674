#!/usr/bin/env bash
# test_secrets.sh — secrets the Pulumi way: with a passphrase, secret values go encrypted into
# Pulumi.<stack>.yaml (comments and other keys kept) and into the stack state's passphrase provider;
# an independent implementation (Node's crypto, tests/peers/passphrase_decrypt.js) decrypts them; a
# wrong passphrase is refused with nothing written; without a passphrase all values go to one 0600
# file; a run whose outputs cannot all be written writes none of them (exit 2).
set -u
unset PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
# No Pulumi backend of the machine: these runs write files only.
export PULUMI_HOME="$tmp/pulumi-home"
unset PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN
trap 'rm -rf "$tmp"' EXIT
S="$SHARED_DATA/schemas/random/schema.json"
SS="$SOURCE_DIR/tests/fixtures/cli/secret-string-stack.json"
DEC="$SOURCE_DIR/tests/peers/passphrase_decrypt.js"
KAT='v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=='
# A run into no stack (no --stack-state, no workspace stack's --yes) writes code only (--code-only): the
# recorded RandomString's secret keeper is no input its importer rebuilds, so the code's `import` option
# is refused for it (test_cli.sh); its secret goes where it goes with that option.
import() {
  case " $* " in *" --stack-state "* | *" --yes "*) ;; *) set -- --code-only "$@" ;; esac
  "$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" \
    --stack prod -l typescript "$@"
}
sums() { find . -type f ! -name '*.log' -print0 | sort -z | xargs -0 sha256sum; }

# --- a passphrase stack: encrypted into Pulumi.prod.yaml in place --------------------------------
mkdir -p "$tmp/p1" && cd "$tmp/p1"
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
cat >Pulumi.prod.yaml <<YAML
# production stack of the shop
encryptionsalt: $KAT
config:
  aws:region: eu-west-1 # keep me
  shop:existing:
    secure: v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==
YAML
cp Pulumi.prod.yaml before.yaml
PULUMI_CONFIG_PASSPHRASE=password import -o index.ts --stack-state stack.json --new-stack-state >run.log 2>&1
[ $? = 0 ] && ok || bad "passphrase run: $(cat run.log)"
grep -qF 'config.requireSecret("apiNameKeepersApiToken")' index.ts && ok || bad "code reads the secret from config"
grep -qxF "note: 1 secret value was encrypted into $tmp/p1/Pulumi.prod.yaml as \`secure:\` stack config (passphrase secrets provider); the code reads it from there" run.log && ok || bad "note: $(cat run.log)"
[ ! -e cimport-secrets.prod.json ] && [ ! -e cimport-secrets ] && ok || bad "no plaintext secrets file with a passphrase"
if grep -rqF 'SECRET-VALUE' --exclude=*.log . ; then bad "plaintext at rest: $(grep -rlF SECRET-VALUE .)"; else ok; fi
# every line of the old file is still there, in order, and the new key comes after the last one
head -n "$(wc -l <before.yaml)" Pulumi.prod.yaml | cmp -s - before.yaml && ok || bad "old config text changed: $(cat Pulumi.prod.yaml)"
tail -n 2 Pulumi.prod.yaml | head -n 1 | grep -qxF '  shop:apiNameKeepersApiToken:' && ok || bad "new key: $(cat Pulumi.prod.yaml)"
PASSPHRASE=password node "$DEC" config Pulumi.prod.yaml >dec.json 2>dec.err && ok || bad "node decrypt config: $(cat dec.err)"
python3 - dec.json <<'PY' && ok || bad "node decrypted config: $(cat dec.json)"
import json, sys
d = json.load(open(sys.argv[1]))["values"]
assert d == {"shop:existing": "pulumi", "shop:apiNameKeepersApiToken": "tok-9f8e7d-SECRET-VALUE"}, d
PY
# the stack state's secrets: passphrase provider with the stack's salt, decrypted by Node too
PASSPHRASE=password node "$DEC" state stack.json >decs.json 2>decs.err && ok || bad "node decrypt state: $(cat decs.err)"
python3 - decs.json "$KAT" <<'PY' && ok || bad "node decrypted state: $(cat decs.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["salt"] == sys.argv[2], d["salt"]
vals = set(d["values"].values())
assert vals == {'"tok-9f8e7d-SECRET-VALUE"'}, d
assert len(d["values"]) == 2, d  # inputs and outputs
PY

# --- a wrong passphrase: refused before anything runs, nothing written --------------------------
rm -f index.ts stack.json && cp before.yaml Pulumi.prod.yaml
before=$(sums)
PULUMI_CONFIG_PASSPHRASE=wrong import -o index.ts --stack-state stack.json --new-stack-state >run2.log 2>&1
rc=$?
[ $rc = 2 ] && ok || bad "wrong passphrase exit $rc"
grep -qxF "error: $tmp/p1/Pulumi.prod.yaml: incorrect passphrase: PULUMI_CONFIG_PASSPHRASE (or the file PULUMI_CONFIG_PASSPHRASE_FILE names) does not decrypt this stack's salt state; set the stack's passphrase" run2.log && ok || bad "wrong passphrase message: $(cat run2.log)"
[ "$(sums)" = "$before" ] && ok || bad "wrong passphrase wrote something: $(ls -la)"
# the passphrase from a file works the same way
printf 'password\n' >"$tmp/pass.txt"
PULUMI_CONFIG_PASSPHRASE_FILE="$tmp/pass.txt" import -o index.ts -q >run3.log 2>&1 && ok || bad "passphrase file: $(cat run3.log)"
grep -qF 'shop:apiNameKeepersApiToken:' Pulumi.prod.yaml && ok || bad "passphrase file run did not write config"

# --- a new stack: the salt state is created, and the stack state shares it ----------------------
mkdir -p "$tmp/p2" && cd "$tmp/p2"
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
PULUMI_CONFIG_PASSPHRASE='new pass' import -o index.ts --stack-state stack.json --new-stack-state -q >run.log 2>&1 && ok || bad "new stack: $(cat run.log)"
grep -q '^encryptionsalt: v1:' Pulumi.prod.yaml && ok || bad "salt state created: $(cat Pulumi.prod.yaml)"
PASSPHRASE='new pass' node "$DEC" config Pulumi.prod.yaml >c.json 2>&1 && PASSPHRASE='new pass' node "$DEC" state stack.json >s.json 2>&1 && ok || bad "node decrypt new stack: $(cat c.json s.json)"
python3 -c 'import json,sys; c=json.load(open("c.json")); s=json.load(open("s.json")); assert c["salt"]==s["salt"]; assert c["values"]=={"shop:apiNameKeepersApiToken":"tok-9f8e7d-SECRET-VALUE"}, c' && ok || bad "one salt for config and state"
PASSPHRASE='other' node "$DEC" config Pulumi.prod.yaml >/dev/null 2>&1 && bad "node accepted a wrong passphrase" || ok
# ... a re-run over the resource the stack records with a secret input (keepers.apiToken, encrypted
# there): the recorded secret is decrypted and compared with the one read now. The same value: no
# change, exit 0. Another value (or another plain value beside it in keepers): the input is named,
# never its value, and exit 1 (it was exit 0, "no change": secrets were not compared). Without the
# passphrase the recorded secret cannot be read: named as not compared, exit 1.
PULUMI_CONFIG_PASSPHRASE='new pass' import -o index2.ts --stack-state stack.json >rr.log 2>&1
rc=$?
[ $rc = 0 ] && ! grep -qF 'warning' rr.log && ok || bad "re-run, same secret (exit $rc): $(cat rr.log)"
cp stack.json stack.before
for change in 's/tok-9f8e7d-SECRET-VALUE/tok-OTHER-VALUE/' 's/eu-west-1/eu-west-2/'; do
  sed "$change" "$SS" >changed.json
  PULUMI_CONFIG_PASSPHRASE='new pass' "$CIMPORT" random:index/randomString:RandomString apiName brave-otter \
    --offline-state changed.json --schema "$S" --stack prod -l typescript -o index2.ts --stack-state stack.json >rr.log 2>&1
  rc=$?
  [ $rc = 1 ] && cmp -s stack.json stack.before &&
    grep -qxF "warning: stack.json: resource 'urn:pulumi:prod::shop::random:index/randomString:RandomString::apiName' is in the stack already, but the stack records other inputs than were read now: keepers; the code written declares what was read, so \`pulumi preview\` with it can show a change for it (an update or a replacement): cimport cannot tell it will not" rr.log &&
    ! grep -qF -e tok- -e SECRET rr.log && ok || bad "re-run, $change (exit $rc): $(cat rr.log)"
done
# ... a secret input on one side only (the record has keepers, the read has none): a difference, not
# "could not be compared: they cannot be read" (read13c F1), which sent the user to the passphrase
python3 - "$SS" >nokeep.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in (d.get("deployment") or d["checkpoint"]["latest"])["resources"]:
    for k in ("inputs", "outputs"):
        (r.get(k) or {}).pop("keepers", None)
print(json.dumps(d))
PY
PULUMI_CONFIG_PASSPHRASE='new pass' "$CIMPORT" random:index/randomString:RandomString apiName brave-otter \
  --offline-state nokeep.json --schema "$S" --stack prod -l typescript -o index2.ts --stack-state stack.json >rr.log 2>&1
rc=$?
[ $rc = 1 ] && cmp -s stack.json stack.before &&
  grep -qxF "warning: stack.json: resource 'urn:pulumi:prod::shop::random:index/randomString:RandomString::apiName' is in the stack already, but the stack records other inputs than were read now: keepers; the code written declares what was read, so \`pulumi preview\` with it can show a change for it (an update or a replacement): cimport cannot tell it will not" rr.log &&
  ! grep -qF 'could not be compared' rr.log && ok || bad "re-run, keepers on one side only (exit $rc): $(cat rr.log)"
"$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" --stack prod \
  -l typescript -o index2.ts --stack-state stack.json >rr.log 2>&1
rc=$?
[ $rc = 1 ] && cmp -s stack.json stack.before &&
  grep -qxF "warning: stack.json: resource 'urn:pulumi:prod::shop::random:index/randomString:RandomString::apiName' is in the stack already, but its secret input keepers could not be compared with the one read now: the stack encrypts them with its passphrase, and no passphrase is set (PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE); cimport cannot tell \`pulumi preview\` with the code written will show no change for it" rr.log &&
  ok || bad "re-run without the passphrase (exit $rc): $(cat rr.log)"
rm -f index2.ts cimport-secrets.prod.json
# ... run from a directory below the project: the new stack config goes beside Pulumi.yaml, where
# `pulumi` reads it (it went to the working directory, sub/Pulumi.prod.yaml, which nothing reads)
mkdir -p "$tmp/p2b/sub" && cd "$tmp/p2b/sub"
printf 'name: shop\nruntime: nodejs\n' >../Pulumi.yaml
PULUMI_CONFIG_PASSPHRASE='new pass' import -o index.ts >run.log 2>&1 && ok || bad "new stack from below: $(cat run.log)"
[ ! -e Pulumi.prod.yaml ] && grep -q '^encryptionsalt: v1:' ../Pulumi.prod.yaml && ok ||
  bad "new stack from below: config not beside Pulumi.yaml: $(ls . ..)"
grep -qF "was encrypted into $tmp/p2b/Pulumi.prod.yaml" run.log && ok || bad "new stack from below: note: $(cat run.log)"

# --- no passphrase: one 0600 file; the stack state refuses plaintext unless b64 is asked for -----
mkdir -p "$tmp/p3" && cd "$tmp/p3"
import -o index.ts >run.log 2>&1 && ok || bad "no passphrase: $(cat run.log)"
[ "$(stat -c %a cimport-secrets.prod.json)" = 600 ] && ok || bad "secrets file mode"
[ ! -e Pulumi.prod.yaml ] && ok || bad "no passphrase: stack config written"
before=$(sums)
import -o index2.ts --stack-state stack.json --new-stack-state >run2.log 2>&1
rc=$?
[ $rc = 2 ] && ok || bad "stack state without a passphrase: exit $rc"
grep -qxF "error: stack.json: 1 resource has secrets and the stack state has no secrets provider to encrypt them for: set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to encrypt them with the passphrase provider (base64, which is not encryption, only when asked for by name); nothing was written" run2.log && ok || bad "no provider message: $(cat run2.log)"
grep -qxF "cimport: read 1 of 1 resources (1 consistent with the schema (offline), none verified by a provider), but nothing was written (see above)" run2.log && ok || bad "summary: $(cat run2.log)"
[ "$(grep -c '^cimport: read ' run2.log)" = 1 ] && ok || bad "one summary line: $(cat run2.log)"
[ "$(sums)" = "$before" ] && [ ! -e index2.ts ] && ok || bad "refused merge wrote something: $(ls)"
import -o index2.ts --stack-state stack.json --new-stack-state --secrets-provider b64 -q >run3.log 2>&1 && ok || bad "b64 by name: $(cat run3.log)"
grep -qF '"type": "b64"' stack.json && ok || bad "b64 provider"

# --- a stack config on a KMS secrets provider: cimport cannot encrypt for it, so the values go to the
# secrets file, with a passphrase set or not; the note's advice is the one that fits that stack (it said
# "or set PULUMI_CONFIG_PASSPHRASE (a passphrase stack) and run again: cimport then encrypts them into
# Pulumi.prod.yaml itself", which the passphrase already set does not do for this stack)
mkdir -p "$tmp/kms" && cd "$tmp/kms"
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
printf 'secretsprovider: awskms://alias/mykey?region=us-east-1\nencryptedkey: AQICAHhAA==\nconfig:\n  aws:region: us-east-1\n' >Pulumi.prod.yaml
cp Pulumi.prod.yaml before.yaml
for pw in set unset; do
  rm -f cimport-secrets.prod.json
  if [ $pw = set ]; then PULUMI_CONFIG_PASSPHRASE=pw import -o a.ts >kms.log 2>&1; else import -o a.ts >kms.log 2>&1; fi
  rc=$?
  [ $rc = 0 ] && cmp -s Pulumi.prod.yaml before.yaml && [ "$(stat -c %a cimport-secrets.prod.json)" = 600 ] && ok ||
    bad "KMS stack config, passphrase $pw: exit $rc: $(cat kms.log)"
  ! grep -qF 'set PULUMI_CONFIG_PASSPHRASE' kms.log &&
    grep -qF "  cimport cannot encrypt for this stack's secrets provider (awskms://alias/mykey?region=us-east-1, in $tmp/kms/Pulumi.prod.yaml): store the values with the commands above, which use it" kms.log &&
    grep -qF 'pulumi config set --secret' kms.log && ok || bad "KMS stack config, passphrase $pw: the note: $(cat kms.log)"
done
cd "$tmp"

# --- the same import again into the program: the same key, no change (it added a second key for the
# same value, apiNameKeepersApiToken2, whose read went after the resource that uses it: the program
# read a const before its declaration; in Go the first read was left unused, which does not build) --
mkdir -p "$tmp/p3b" && cd "$tmp/p3b"
printf 'import * as pulumi from "@pulumi/pulumi";\n' >index.ts
import --insert-into index.ts -q >run.log 2>&1 && import --insert-into index.ts >run2.log 2>&1 && ok || bad "again: $(cat run.log run2.log)"
grep -qxF 'cimport: index.ts: no change: it holds this code already' run2.log && ok || bad "again: changed: $(cat run2.log index.ts)"
# the value is known (in the secrets file): no warning that it is only known encrypted (it said so, and
# to set the key with `pulumi config set --secret`, on every re-run)
! grep -qF 'only known encrypted' run2.log && ok || bad "again: warned: $(cat run2.log)"
python3 -c 'import json; d=json.load(open("cimport-secrets.prod.json")); assert list(d)==["apiNameKeepersApiToken"], d' && ok ||
  bad "again: keys: $(cat cimport-secrets.prod.json)"
# the value in the secrets file of those runs, then a run with a passphrase: the same key, its value now
# encrypted into the stack config where `pulumi` reads it (it said 'no change' and stored nothing, though
# the first run's note said a passphrase run would encrypt it there)
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
PULUMI_CONFIG_PASSPHRASE=pw import --insert-into index.ts >run3.log 2>&1 || bad "passphrase after the file: $(cat run3.log)"
grep -qxF 'cimport: index.ts: no change: it holds this code already' run3.log && [ "$(grep -c 'secure:' Pulumi.prod.yaml 2>/dev/null)" = 1 ] &&
  grep -qF 'shop:apiNameKeepersApiToken:' Pulumi.prod.yaml && ok || bad "passphrase after the file: $(cat run3.log Pulumi.prod.yaml)"
rm -f Pulumi.prod.yaml
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml && rm -f cimport-secrets.prod.json && printf 'import * as pulumi from "@pulumi/pulumi";\n' >index.ts
for i in 1 2; do PULUMI_CONFIG_PASSPHRASE=pw import --insert-into index.ts >run$i.log 2>&1 || bad "again, passphrase: $(cat run$i.log)"; done
grep -qxF 'cimport: index.ts: no change: it holds this code already' run2.log && [ "$(grep -c 'secure:' Pulumi.prod.yaml)" = 1 ] && ok ||
  bad "again, passphrase: $(cat run2.log Pulumi.prod.yaml)"
! grep -qF 'only known encrypted' run2.log && ok || bad "again, passphrase: warned: $(cat run2.log)"

# --- a symbolic link a project ships where secret values go: never written through when it points
# outside the link's directory or at nothing yet (a dangling cimport-secrets.prod.json -> outside/.profile
# got the plaintext secret, 0600, exit 0, while the note named cimport-secrets.prod.json) -------------
mkdir -p "$tmp/p7/proj" "$tmp/p7/outside" && cd "$tmp/p7/proj"
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
ln -s "$tmp/p7/outside/.profile" cimport-secrets.prod.json
import -o index.ts >run.log 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/p7/outside/.profile" ] && [ ! -e index.ts ] && ok ||
  bad "dangling secrets link: exit $rc, $(ls -A "$tmp/p7/outside"): $(cat run.log)"
[ -L cimport-secrets.prod.json ] && ok || bad "dangling secrets link replaced"
grep -qxF "error: cimport-secrets.prod.json: is a symbolic link to $tmp/p7/outside/.profile, which does not exist: cimport writes no secret values through a link to a file that does not exist or lies outside the link's directory; nothing was written: remove the link (or point it at an existing file beside it) and run again" run.log &&
  ok || bad "dangling secrets link message: $(cat run.log)"
if grep -q '^note: .*secret value' run.log; then bad "dangling secrets link: a secrets note: $(cat run.log)"; else ok; fi
printf '{}\n' >"$tmp/p7/outside/other.json" && ln -sfn ../outside/other.json cimport-secrets.prod.json
import -o index.ts >run.log 2>&1
rc=$?
[ $rc = 2 ] && [ "$(cat "$tmp/p7/outside/other.json")" = '{}' ] && grep -qF "error: cimport-secrets.prod.json: is a symbolic link to $tmp/p7/outside/other.json, which lies outside $tmp/p7/proj:" run.log &&
  ok || bad "secrets link outside: exit $rc: $(cat run.log)"
mkdir -p keep && printf '{}\n' >keep/s.json && ln -sfn keep/s.json cimport-secrets.prod.json
import -o index.ts -q >run.log 2>&1 && [ -L cimport-secrets.prod.json ] && grep -qF 'SECRET-VALUE' keep/s.json && ok ||
  bad "secrets link inside: $(cat run.log; ls -la)"
# the same for the stack config with a passphrase
rm -f cimport-secrets.prod.json index.ts && ln -s "$tmp/p7/outside/Pulumi.prod.yaml" Pulumi.prod.yaml
PULUMI_CONFIG_PASSPHRASE=pw import -o index.ts >run.log 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/p7/outside/Pulumi.prod.yaml" ] && [ -L Pulumi.prod.yaml ] &&
  grep -qF "error: $tmp/p7/proj/Pulumi.prod.yaml: is a symbolic link to $tmp/p7/outside/Pulumi.prod.yaml, which does not exist" run.log &&
  ok || bad "dangling stack config link: exit $rc: $(cat run.log)"

# --- stackConfigDir in Pulumi.yaml: the stack config is <dir>/Pulumi.<stack>.yaml, where `pulumi`
# reads it (the secret went into proj/Pulumi.prod.yaml, with a note saying the code reads it there) --
mkdir -p "$tmp/p8/cfg" "$tmp/p8/sub" && cd "$tmp/p8/sub"
printf 'name: shop\nruntime: nodejs\nstackConfigDir: cfg\n' >../Pulumi.yaml
PULUMI_CONFIG_PASSPHRASE=pw import -o index.ts >run.log 2>&1 && ok || bad "stackConfigDir: $(cat run.log)"
[ ! -e ../Pulumi.prod.yaml ] && [ ! -e Pulumi.prod.yaml ] && grep -qF 'shop:apiNameKeepersApiToken:' ../cfg/Pulumi.prod.yaml && ok ||
  bad "stackConfigDir: not in cfg/: $(ls .. ../cfg)"
grep -qF "was encrypted into $tmp/p8/cfg/Pulumi.prod.yaml" run.log && ok || bad "stackConfigDir: note: $(cat run.log)"
PULUMI_CONFIG_PASSPHRASE=wrong import -o index2.ts >run2.log 2>&1
rc=$?
[ $rc = 2 ] && grep -qF "error: $tmp/p8/cfg/Pulumi.prod.yaml: incorrect passphrase" run2.log && ok ||
  bad "stackConfigDir: the config there not read: exit $rc: $(cat run2.log)"
# the older spelling, `config: DIR` (a string), means the same to `pulumi`
rm -rf "$tmp/p8/cfg"/* && printf 'name: shop\nruntime: nodejs\nconfig: cfg\n' >../Pulumi.yaml
PULUMI_CONFIG_PASSPHRASE=pw import -o index3.ts -q >run3.log 2>&1 && [ -e ../cfg/Pulumi.prod.yaml ] && [ ! -e ../Pulumi.prod.yaml ] && ok ||
  bad "config: DIR: $(cat run3.log; ls .. ../cfg)"

# a stackConfigDir that does not exist yet is created, as `pulumi config set` does (it failed: cannot
# create the lock file .../newcfg/Pulumi.prod.yaml.lock, nothing written)
printf 'name: shop\nruntime: nodejs\nstackConfigDir: newcfg\n' >../Pulumi.yaml
PULUMI_CONFIG_PASSPHRASE=pw import -o index4.ts -q >run4.log 2>&1 && grep -qF 'shop:apiNameKeepersApiToken:' ../newcfg/Pulumi.prod.yaml && ok ||
  bad "stackConfigDir not there yet: $(cat run4.log; ls ..)"

# ... also nested (`stackConfigDir: deep/er/cfg`, none of it there: it exited 2, "cannot create the lock
# file", and wrote nothing); a run that writes nothing leaves none of the directories it made
printf 'name: shop\nruntime: nodejs\nstackConfigDir: deep/er/cfg\n' >../Pulumi.yaml
: >ro.ts && chmod 444 ro.ts
PULUMI_CONFIG_PASSPHRASE=pw import -o ro.ts -q >run5.log 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e ../deep ] && ok || bad "nested stackConfigDir, a failed run: exit $rc, left: $(ls ..): $(cat run5.log)"
PULUMI_CONFIG_PASSPHRASE=pw import -o index5.ts -q >run5.log 2>&1 && grep -qF 'shop:apiNameKeepersApiToken:' ../deep/er/cfg/Pulumi.prod.yaml &&
  [ "$(stat -c %a ../deep/er)" = 755 ] && ok || bad "nested stackConfigDir not there yet: $(cat run5.log; ls -R ..)"
# where one cannot be made (a file in the way), the message says which and what to do
printf 'name: shop\nruntime: nodejs\nstackConfigDir: afile/cfg\n' >../Pulumi.yaml && : >../afile
PULUMI_CONFIG_PASSPHRASE=pw import -o index6.ts -q >run6.log 2>&1
rc=$?
[ $rc = 2 ] && [ ! -e index6.ts ] && grep -qxF "error: $tmp/p8/afile/cfg: cannot create the directory for Pulumi.prod.yaml: $tmp/p8/afile is not a directory; nothing was written: point stackConfigDir in Pulumi.yaml (or --config-file) at a directory that can be made, or make it" run6.log &&
  ok || bad "stackConfigDir under a file: exit $rc: $(cat run6.log)"
# --help says where the stack config is
"$CIMPORT" --help 2>&1 | grep -A1 -F -- "--config-file FILE       the stack's config file (default: Pulumi.<stack>.yaml in Pulumi.yaml's" |
  grep -qxF "                               stackConfigDir, else beside Pulumi.yaml)" &&
  ok || bad "--help on --config-file: $("$CIMPORT" --help 2>&1 | grep -A1 -F -- --config-file)"

# --- a merge refused by the stack state: no code, no secrets, exit 2 -----------------------------
mkdir -p "$tmp/p4" && cd "$tmp/p4"
cp "$SS" other.json   # the state of stack prod of project shop; this run says --project other
before=$(sums)
"$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" --stack prod \
  --project other -l typescript -o index.ts --stack-state other.json --secrets-provider b64 >run.log 2>&1
rc=$?
[ $rc = 2 ] && ok || bad "refused merge exit $rc: $(cat run.log)"
[ "$(sums)" = "$before" ] && ok || bad "refused merge wrote files: $(ls)"

# --- a secret another imported resource produces is a reference, not config ---------------------
# (a TLS cert request's privateKeyPem is the private key's privateKeyPem: same value, recorded link).
# Into a stack: the tls provider implements no importer, so the code's `import` option cannot import them.
mkdir -p "$tmp/p5" && cd "$tmp/p5"
T="$SOURCE_DIR/tests/fixtures/cli"
for l in typescript go pcl; do
  "$CIMPORT" --spec "$T/tls-imports.json" --offline-state "$T/tls-stack.json" --schema "$SHARED_DATA/schemas/tls/schema.json" \
    --stack prod --project certs -l $l -o "tls.$l" --stack-state "tls-$l.json" --new-stack-state --secrets-provider b64 \
    >tls.log 2>&1 && ok || bad "tls $l: $(cat tls.log)"
done
grep -qF 'privateKeyPem: signingKey.privateKeyPem,' tls.typescript && ok || bad "tls reference (ts): $(cat tls.typescript)"
grep -qF 'PrivateKeyPem: signingKey.PrivateKeyPem,' tls.go && ok || bad "tls reference (go): $(cat tls.go)"
grep -qF 'privateKeyPem = signingKey.privateKeyPem' tls.pcl && ok || bad "tls reference (pcl): $(cat tls.pcl)"
if grep -qiF 'requireSecret' tls.typescript || grep -qF 'BEGIN RSA' tls.typescript tls.go tls.pcl; then bad "tls key copied into config or code"; else ok; fi
[ ! -e cimport-secrets.prod.json ] && ok || bad "tls: the key was written to disk: $(cat cimport-secrets.prod.json)"

# --- a DIY backend stack on the passphrase provider: its checkpoint gets ciphertext for its salt ----
mkdir -p "$tmp/p6/proj" "$tmp/p6/state/.pulumi/stacks/shop" "$tmp/p6/home/workspaces" && cd "$tmp/p6/proj"
export PULUMI_HOME="$tmp/p6/home" # this part's own backend
printf 'version: 1\n' >"$tmp/p6/state/.pulumi/meta.yaml"
cp=$tmp/p6/state/.pulumi/stacks/shop/prod.json
python3 - "$cp" "$KAT" <<'PY'
import json, sys
latest = {"manifest": {"time": "2026-11-20T10:00:00Z", "magic": "", "version": "v3.200.0"},
          "secrets_providers": {"type": "passphrase", "state": {"salt": sys.argv[2]}},
          "resources": [{"urn": "urn:pulumi:prod::shop::pulumi:pulumi:Stack::shop-prod", "custom": False, "type": "pulumi:pulumi:Stack"}]}
json.dump({"version": 3, "checkpoint": {"stack": "organization/shop/prod", "latest": latest}}, open(sys.argv[1], "w"))
PY
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
printf 'encryptionsalt: %s\n' "$KAT" >Pulumi.prod.yaml
sha=$(printf '%s' "$PWD/Pulumi.yaml" | sha1sum | cut -d' ' -f1)
printf '{"stack": "organization/shop/prod"}' >"$PULUMI_HOME/workspaces/shop-$sha-workspace.json"
printf '{"current": "file://%s", "accessTokens": {}}' "$tmp/p6/state" >"$PULUMI_HOME/credentials.json"
cp "$cp" "$tmp/p6/orig.json"
PULUMI_CONFIG_PASSPHRASE=wrong "$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" \
  --schema "$S" -l typescript -o index.ts --yes >diy0.log 2>&1
rc=$?
[ $rc = 2 ] && cmp -s "$cp" "$tmp/p6/orig.json" && [ ! -e index.ts ] && ok || bad "DIY wrong passphrase: exit $rc: $(cat diy0.log)"
PULUMI_CONFIG_PASSPHRASE=password "$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" \
  --schema "$S" -l typescript -o index.ts --yes >diy.log 2>&1 && ok || bad "DIY passphrase stack: $(cat diy.log)"
if grep -qF 'SECRET-VALUE' "$cp"; then bad "plaintext secret in the checkpoint"; else ok; fi
PASSPHRASE=password node "$DEC" state "$cp" >diy.json 2>&1 && ok || bad "node decrypt checkpoint: $(cat diy.json)"
grep -qF '"tok-9f8e7d-SECRET-VALUE' diy.json && ok || bad "checkpoint secret: $(cat diy.json)"
export PULUMI_HOME="$tmp/pulumi-home"

# --- a config key the program already reads (read11 F15): the secret's key was only kept clear of
# the stack config's keys, so a program's own `config.require("apiNameKeepersApiToken")` (TypeScript)
# or `config: apiNameKeepersApiToken: {type: string, default: hello}` (YAML) got the secret's key: one
# key for two values (the YAML resource read "hello"). The secret takes a fresh key now; a re-run of
# the same import keeps it (no third key, no change).
mkdir -p "$tmp/ck" && cd "$tmp/ck"
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
printf 'import * as pulumi from "@pulumi/pulumi";\nconst config = new pulumi.Config();\nexport const k = config.require("apiNameKeepersApiToken");\n' >index.ts
import --insert-into index.ts >run.log 2>&1
[ $? = 0 ] && grep -qF 'config.requireSecret("apiNameKeepersApiToken2")' index.ts &&
  [ "$(grep -c '"apiNameKeepersApiToken"' index.ts)" = 1 ] && ok || bad "TypeScript reads the key already: $(cat run.log; cat index.ts)"
cp index.ts first.ts
import --insert-into index.ts >run.log 2>&1
[ $? = 0 ] && cmp -s index.ts first.ts && ok || bad "re-run changed the program: $(diff first.ts index.ts)"
mkdir -p "$tmp/cky" && cd "$tmp/cky"
printf 'name: shop\nruntime: yaml\nconfig:\n  apiNameKeepersApiToken:\n    type: string\n    default: hello\nresources:\n  keep:\n    type: random:RandomPet\noutputs:\n  k: ${apiNameKeepersApiToken}\n' >Pulumi.yaml
"$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" --stack prod \
  --code-only --insert-into Pulumi.yaml >run.log 2>&1
[ $? = 0 ] && grep -qF 'apiToken: ${apiNameKeepersApiToken2}' Pulumi.yaml && grep -qF '  k: ${apiNameKeepersApiToken}' Pulumi.yaml &&
  ok || bad "YAML reads the key already: $(cat run.log; cat Pulumi.yaml)"
cd "$tmp"

# --- an ID that is a secret value (read13 F13): a RandomBytes' ID is its base64 output, a secret; a
# RandomPassword is imported by its value. Pulumi records an ID in plaintext (it cannot be made secret),
# so into a stack the preview and a warning say the stack holds it so; everywhere else it is "[secret]"
# — the preview, --json (id, run.inline), the report, the messages — unless --show-secrets. It was in
# plaintext in all of them, and the code-only refusal said a stack "records the secret encrypted".
RB="$SHARED_DATA/pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade"
B64='fE+Jesqco6w20rpufjykBA==' PW='Qp7:#8odTqS)5#bS'
mkdir -p "$tmp/sid/state/.pulumi/stacks/shop" "$tmp/sid/home" && cd "$tmp/sid"
printf 'version: 1\n' >state/.pulumi/meta.yaml
for st in dev dev2; do
  printf '{"version":3,"checkpoint":{"stack":"organization/shop/%s","latest":null}}' $st >state/.pulumi/stacks/shop/$st.json
done
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
sid() { PULUMI_HOME="$tmp/sid/home" PULUMI_BACKEND_URL="file://$tmp/sid/state" PULUMI_CONFIG_PASSPHRASE=pw "$CIMPORT" "$@" \
  --schema "$S" -l typescript; }
sid random:index/randomBytes:RandomBytes rb "$B64" --offline-state "$RB/index_randombytes/4.16.0/stack.json" --stack dev \
  --yes -o rb.ts >rb.out 2>rb.err
rc=$?
[ $rc = 0 ] && grep -qF '= import         random:index/randomBytes:RandomBytes rb (id [secret], a secret the stack records in plaintext)' rb.err &&
  grep -qxF "warning: .pulumi/stacks/shop/dev.json: resource 'urn:pulumi:dev::shop::random:index/randomBytes:RandomBytes::rb': its ID is a secret value, and a stack records every resource's ID in plaintext (Pulumi cannot make an ID secret), so the stack's state holds this value unencrypted, as it would after \`pulumi up\` created the resource; its other secrets are encrypted" rb.err &&
  ! grep -qF "$B64" rb.err && ok || bad "RandomBytes into a stack (exit $rc): $(cat rb.err)"
sid random:index/randomBytes:RandomBytes rb "$B64" --offline-state "$RB/index_randombytes/4.16.0/stack.json" --stack dev2 \
  --yes -o rb2.ts --json --report rb.html >rb.json 2>rb.err
rc=$?
[ $rc = 0 ] && ! grep -qF "$B64" rb.json rb.html rb.err &&
  python3 -c 'import json,sys; d=json.load(open("rb.json")); assert d["resources"][0]["id"]=="[secret]" and d["run"]["inline"].endswith(" rb [secret]"), d' &&
  ok || bad "RandomBytes --json/--report (exit $rc): $(grep -F "$B64" rb.json rb.html rb.err | cut -c1-300)"
sid random:index/randomPassword:RandomPassword pw "$PW" --offline-state "$RB/index_randompassword/4.16.0/stack.json" --stack dev2 \
  --yes -o pw.ts --json --report pw.html >pw.json 2>pw.err
rc=$?
[ $rc = 3 ] && ! grep -qF "$PW" pw.json pw.html pw.err && grep -qF "with ID '[secret]'" pw.json &&
  ok || bad "RandomPassword by value (exit $rc): $(grep -F "$PW" pw.json pw.html pw.err | cut -c1-300)"
sid random:index/randomPassword:RandomPassword pw "$PW" --offline-state "$RB/index_randompassword/4.16.0/stack.json" --stack dev2 \
  --yes -o pw.ts >pw.out 2>pw.err
[ $? = 3 ] && ! grep -qF "$PW" pw.err && ok || bad "RandomPassword by value, stderr: $(cat pw.err)"
# asked for by name: the value
sid random:index/randomBytes:RandomBytes rb "$B64" --offline-state "$RB/index_randombytes/4.16.0/stack.json" --stack dev2 \
  --yes -o rb2.ts --json --show-secrets >rbs.json 2>/dev/null
python3 -c 'import json,sys; d=json.load(open("rbs.json")); assert d["resources"][0]["id"]==sys.argv[1], d' "$B64" && ok ||
  bad "--show-secrets: $(cat rbs.json)"
# no stack: refused, and the refusal says a stack would hold the ID in plaintext too
"$CIMPORT" random:index/randomBytes:RandomBytes rb "$B64" --offline-state "$RB/index_randombytes/4.16.0/stack.json" \
  --schema "$S" -l typescript -o code.ts >code.out 2>code.err
rc=$?
[ $rc = 3 ] && grep -qF "it is also its ID, which a stack records in plaintext too (Pulumi cannot make an ID secret)" code.err &&
  ! grep -qF 'records the secret encrypted' code.err && ok || bad "RandomBytes, no stack (exit $rc): $(cat code.err)"
# the plan's own messages, before any result (read13c F4): one ID imported twice, a resource without a
# name (described by its ID); the ID was in plaintext on stderr and in --json
RBT=random:index/randomBytes:RandomBytes PWT=random:index/randomPassword:RandomPassword
printf '{"resources":[{"type":"%s","name":"a","id":"%s"},{"type":"%s","name":"b","id":"%s"},{"type":"%s","name":"p","id":"%s"},{"type":"%s","name":"q","id":"%s"}]}' \
  $RBT "$B64" $RBT "$B64" $PWT "$PW" $PWT "$PW" >twice.json
printf '{"resources":[{"type":"%s","id":"%s"},{"type":"%s","id":"%s"}]}' $RBT "$B64" $PWT "$PW" >noname.json
for f in twice noname; do
  sid --spec $f.json --offline-state "$RB/index_randombytes/4.16.0/stack.json" --stack dev2 --yes -o $f.ts >$f.out 2>$f.err
  rc=$?
  sid --spec $f.json --offline-state "$RB/index_randombytes/4.16.0/stack.json" --stack dev2 --yes -o $f.ts --json >$f.json.out 2>/dev/null
  rcj=$?
  case $f in twice) want="is imported twice, as 'a' and as 'b'" ;; *) want="of type '$RBT' has no name" ;; esac
  [ $rc = 2 ] && [ $rcj = 2 ] && grep -qF "$want" $f.err && grep -qF "$want" $f.json.out &&
    ! grep -qF -e "$B64" -e "$PW" $f.err $f.json.out && ok || bad "plan message, $f (exit $rc/$rcj): $(cat $f.err $f.json.out)"
done
# a secret ID of a short or common value — the placeholder "none" a stack export records for every
# RandomPassword, a password "dev" — is hidden where it stands as the ID (quoted in a message, the
# result's id), not in unrelated text: every "none" and every "dev" of the output was "[secret]" —
# another resource's ID 'nonexistent-pet' read '[secret]xistent-pet', "verification": "none" and the
# stack "dev" read "[secret]" in --json and the report
PET=random:index/randomPet:RandomPet
printf '{"resources":[{"type":"%s","name":"pw","id":"none"},{"type":"%s","name":"pw2","id":"dev"},{"type":"%s","name":"pet","id":"nonexistent-pet"}]}' \
  $PWT $PWT $PET >common.json
sid --spec common.json --offline-state "$RB/index_randombytes/4.16.0/stack.json" --stack dev --yes -o common.ts \
  --json --report common.html >common.json.out 2>common.json.err
rcj=$?
sid --spec common.json --offline-state "$RB/index_randombytes/4.16.0/stack.json" --stack dev --yes -o common.ts \
  >common.out 2>common.err
rc=$?
python3 - common.json.out <<'PY' && ok || bad "short secret IDs, --json (exit $rcj): $(cat common.json.out)"
import json, sys
d = json.load(open(sys.argv[1]))
r = {e["name"]: e for e in d["resources"]}
assert [r[n]["verification"] for n in ("pw", "pw2", "pet")] == ["none"] * 3, r
assert d["run"]["stack"] == "dev", d["run"]
msgs = {n: " | ".join(x["message"] for x in r[n]["diagnostics"]) for n in r}
assert "with ID 'nonexistent-pet'" in msgs["pet"] and "resource 'nonexistent-pet' does not exist" in msgs["pet"], msgs
for n in ("pw", "pw2"):
    assert "with ID '[secret]'" in msgs[n] and "resource '[secret]' does not exist" in msgs[n], msgs
PY
[ $rcj = 3 ] && [ $rc = 3 ] && grep -qF "resource 'nonexistent-pet' does not exist" common.err &&
  [ "$(grep -c "resource '\[secret\]' does not exist" common.err)" = 2 ] && grep -qF '"verification":"none"' common.html &&
  ! grep -qF -e "'none'" -e "'dev'" -e '"none"' -e '"dev"' -e '[secret]xistent' common.err &&
  ! grep -qF -e "'none'" -e "'dev'" -e '[secret]xistent' common.json.out && ! grep -qF '[secret]xistent' common.html &&
  ok || bad "short secret IDs (exit $rc/$rcj): $(cat common.err; grep -F -e '[secret]' common.html | cut -c1-400)"
# ... but a short password of 4 to 7 letters and digits is hidden wherever it stands as a token of its
# own, not only quoted whole: inside another resource's ID 'Zq9x7,1' (a provider's message quotes that
# one) it was in plaintext on stderr and in --json (read14c 3)
INT=random:index/randomInteger:RandomInteger
printf '{"resources":[{"type":"%s","name":"pw","id":"Zq9x7"},{"type":"%s","name":"n","id":"Zq9x7,1,10"}]}' $PWT $INT >short.json
sid --spec short.json --offline-state "$RB/index_randombytes/4.16.0/stack.json" --stack dev --yes -o short.ts \
  --json >short.json.out 2>short.json.err
sid --spec short.json --offline-state "$RB/index_randombytes/4.16.0/stack.json" --stack dev --yes -o short.ts \
  >short.out 2>short.err
! grep -qF Zq9x7 short.json.out short.json.err short.err && grep -qF "'[secret],1,10'" short.err &&
  grep -qF "'[secret],1,10'" short.json.out && ok ||
  bad "a short password in another ID's message: $(cat short.err short.json.out)"
cd "$tmp"

# --- the secrets file inside the project's git work tree (read13 F14): readable only by the user,
# but a `git add -A` beside the new code commits it; the note says so and how to ignore it, and says
# nothing once a .gitignore names the file (or outside a work tree, as in p3 above)
mkdir -p "$tmp/gitp/sub" && cd "$tmp/gitp" && git init -q . && cd sub
printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
import -o index.ts >run.log 2>&1
[ $? = 0 ] && grep -qxF "  cimport-secrets.prod.json is inside the git work tree $tmp/gitp, and no .gitignore names it: a \`git add -A\` would commit the values in plaintext. Delete it once they are stored, or let git ignore it (\`echo 'cimport-secrets.prod.json' >> $tmp/gitp/.gitignore\`)" run.log &&
  ok || bad "secrets file in a git work tree: $(cat run.log)"
echo 'cimport-secrets.prod.json' >>"$tmp/gitp/.gitignore"
git -C "$tmp/gitp" status --short --untracked-files=all | grep -qF cimport-secrets.prod.json && bad "git still sees it" || ok
rm -f cimport-secrets.prod.json index.ts
import -o index.ts >run.log 2>&1
[ $? = 0 ] && grep -qF 'readable only by you' run.log && ! grep -qF 'git work tree' run.log && ok || bad "ignored: $(cat run.log)"
grep -qF 'git work tree' "$tmp/p3/run.log" && bad "outside a work tree: $(cat "$tmp/p3/run.log")" || ok
cd "$tmp"

# --- --secrets literal: the code keeps its secrets (asked for), --json and the report do not (read15c F9) ---
# The code holds each secret in its language's literal form — a PEM as a TypeScript template literal,
# a Python triple-quoted string, a YAML block scalar, `${` as PCL's `$${`, a tab as `\x09`, U+2028 as
# `\u2028` —, and the code fields of --json and the report show "[secret]" in its place, whatever
# that form; so does the page `cimport report` draws from a --show-secrets document, and the program
# diff of an --insert-into run.
mkdir -p "$tmp/lit" && cd "$tmp/lit"
python3 - <<'PY'
import json
vals = [
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA SEKRITPEMLINEONE\nSEKRITPEMLINETWO+/=\n-----END RSA PRIVATE KEY-----\n",
    "SEKRITONE-a\"b\\c${d}`e\tf-\u00e4\u00f6-\U0001F600-'g'-\u2028-end",
    "SEKRITTWO \"\"\" ''' ${x} $${y} %{z}\r\nnext: line\n- item # not a comment",
    "  SEKRITTHREE leading: spaces  ",
    "SEKRITFOUR\u0000nul\u0085\u2029",
    "SEKRITFIVE\\n\\t\\\\ #{x} \\u0041",
]
SK = "4dabf18193072939515e22adb298388d"
def sec(v): return {SK: "1b47061264138c4ac30d75fd1eb44270", "plaintext": json.dumps(v)}
stack = "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev"
prov = "urn:pulumi:dev::p::pulumi:providers:tls::default_5_0_0"
res = [{"urn": stack, "type": "pulumi:pulumi:Stack", "custom": False},
       {"urn": prov, "type": "pulumi:providers:tls", "custom": True, "id": "pid", "inputs": {"version": "5.0.0"},
        "outputs": {"version": "5.0.0"}}]
imp = []
for i, v in enumerate(vals):
    t = "tls:index/certRequest:CertRequest"
    res.append({"urn": f"urn:pulumi:dev::p::{t}::cr{i}", "type": t, "custom": True, "id": f"cr{i}",
                "inputs": {"privateKeyPem": sec(v), "subject": {"commonName": f"x{i}"}},
                "outputs": {"privateKeyPem": sec(v), "subject": {"commonName": f"x{i}"}, "certRequestPem": f"CSR{i}",
                            "id": f"cr{i}", "keyAlgorithm": "RSA"},
                "provider": prov + "::pid", "parent": stack})
    imp.append({"type": t, "name": f"cr{i}", "id": f"cr{i}"})
json.dump({"version": 3, "deployment": {"manifest": {}, "resources": res}}, open("state.json", "w"))
json.dump({"resources": imp}, open("imports.json", "w"))
PY
LIT=(SEKRITPEMLINEONE SEKRITPEMLINETWO SEKRITONE SEKRITTWO SEKRITTHREE SEKRITFOUR SEKRITFIVE)
lit() { "$CIMPORT" --spec imports.json --offline-state state.json --schema "$SHARED_DATA/schemas/tls/schema.json" \
  --code-only --secrets literal -q "$@"; }
leaks() { for w in "${LIT[@]}"; do grep -lF "$w" "$@"; done | sort -u | tr '\n' ' '; }
for l in typescript python go csharp java yaml pcl; do
  lit -l $l -o "code.$l" --report "r-$l.html" >"run-$l.log" 2>&1 || bad "literal $l: $(cat "run-$l.log")"
  lit -l $l --json >"j-$l.json" 2>/dev/null
  lit -l $l --json --show-secrets >"show-$l.json" 2>/dev/null
  "$CIMPORT" report "show-$l.json" -o "saved-$l.html" 2>/dev/null || bad "cimport report show-$l.json"
  # the code holds every one (--secrets literal asked for it), and so does the --show-secrets document
  for w in "${LIT[@]}"; do grep -qF "$w" "code.$l" && grep -qF "$w" "show-$l.json" || bad "$l: $w not in the code"; done
  bad_files=$(leaks "j-$l.json" "r-$l.html" "saved-$l.html")
  [ -z "$bad_files" ] && ok || bad "$l: a secret in plaintext in $bad_files"
  # the code fields are there, each secret "[secret]" in them
  python3 - "j-$l.json" <<'PY' && ok || bad "$l: the code fields of --json"
import json, sys
d = json.load(open(sys.argv[1]))
assert "[secret]" in d["code"], d["code"]
for r in d["resources"]:
    assert "[secret]" in r["pcl"], r
    assert d["language"] == "pcl" or "[secret]" in r["code"], r
PY
done
# spliced: the program diff of --report and of --json --diff
printf 'name: lit\nruntime: nodejs\n' >Pulumi.yaml
printf 'import * as pulumi from "@pulumi/pulumi";\n\nexport const a = 1;\n' >index.ts
lit -l typescript --insert-into index.ts --report ins.html >ins.log 2>&1 || bad "literal --insert-into: $(cat ins.log)"
for w in "${LIT[@]}"; do grep -qF "$w" index.ts || bad "insert: $w not in the program"; done
printf 'import * as pulumi from "@pulumi/pulumi";\n\nexport const a = 1;\n' >index.ts
lit -l typescript --insert-into index.ts --diff --json >diff.json 2>/dev/null
lit -l typescript --insert-into index.ts --diff --json --show-secrets >diff-show.json 2>/dev/null
"$CIMPORT" report diff-show.json -o diff-saved.html 2>/dev/null || bad "cimport report diff-show.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "[secret]" in d["programDiff"], d' diff.json &&
  grep -qF SEKRITONE diff-show.json && ok || bad "--diff --json: no program diff"
# a re-run into the program that holds them now (one resource changed): the diff's lines of the
# program as it was hold the secrets in the code's own form, so the diff is left out
lit -l typescript --insert-into index.ts >/dev/null 2>&1
sed 's/"x1"/"x7"/' state.json >state2.json
lit -l typescript --insert-into index.ts --diff --json --offline-state state2.json >rediff.json 2>/dev/null
lit -l typescript --insert-into index.ts --diff --json --show-secrets --offline-state state2.json >rediff-show.json 2>/dev/null
"$CIMPORT" report rediff-show.json -o rediff-saved.html 2>/dev/null || bad "cimport report rediff-show.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "programDiff" not in d, d' rediff.json &&
  grep -qF '+    commonName: \"x7\"' rediff-show.json && ok || bad "re-run --diff --json: $(head -c 600 rediff.json)"
bad_files=$(leaks ins.html diff.json diff-saved.html rediff.json rediff-saved.html)
[ -z "$bad_files" ] && ok || bad "spliced: a secret in plaintext in $bad_files"
# ... also a secret with no run of four ASCII letters or digits, which the search for a piece of it
# cannot see (read17 F14: `-  privateKeyPem: pulumi.secret("ab!cd@ef\x09gh#ij"),` in programDiff and
# the page): the program's own lines hold it in the code's form
for sec in 'ab!cd@ef\tgh#ij' 'пароль\tключ-секрет'; do
  mkdir -p "$tmp/lit/f14" && cd "$tmp/lit/f14" && rm -rf ./*
  python3 - "$sec" <<'PY'
import json, sys
v = sys.argv[1].replace("\\t", "\t")
SK = "4dabf18193072939515e22adb298388d"
def sec(x): return {SK: "1b47061264138c4ac30d75fd1eb44270", "plaintext": json.dumps(x)}
prov = "urn:pulumi:dev::p::pulumi:providers:tls::default_5_0_0"
def mk(cn):
    t = "tls:index/certRequest:CertRequest"
    return {"version": 3, "deployment": {"manifest": {}, "resources": [
        {"urn": prov, "type": "pulumi:providers:tls", "custom": True, "id": "pid", "inputs": {}, "outputs": {}},
        {"urn": f"urn:pulumi:dev::p::{t}::cr0", "type": t, "custom": True, "id": "cr0",
         "inputs": {"privateKeyPem": sec(v), "subject": {"commonName": cn}},
         "outputs": {"privateKeyPem": sec(v), "subject": {"commonName": cn}, "certRequestPem": "CSR0", "id": "cr0",
                     "keyAlgorithm": "RSA"}, "provider": prov + "::pid"}]}}
json.dump(mk("x1"), open("state.json", "w")); json.dump(mk("x7"), open("state2.json", "w"))
json.dump({"resources": [{"type": "tls:index/certRequest:CertRequest", "name": "cr0", "id": "cr0"}]}, open("imports.json", "w"))
PY
  word=${sec%%\\t*}
  printf 'name: lit\nruntime: nodejs\n' >Pulumi.yaml
  printf 'import * as pulumi from "@pulumi/pulumi";\n\nexport const a = 1;\n' >index.ts
  lit -l typescript --insert-into index.ts >/dev/null 2>&1
  grep -qF "$word" index.ts || bad "f14 $word: not in the program"
  lit -l typescript --insert-into index.ts --diff --json --offline-state state2.json >rediff.json 2>/dev/null
  lit -l typescript --insert-into index.ts --diff --offline-state state2.json --report rediff.html >/dev/null 2>&1
  lit -l typescript --insert-into index.ts --diff --json --show-secrets --offline-state state2.json >rediff-show.json \
    2>/dev/null
  grep -qF '+    commonName: \"x7\"' rediff-show.json && ok || bad "f14 $word: no re-run diff: $(head -c 600 rediff-show.json)"
  if grep -lF "$word" rediff.json rediff.html; then bad "f14: the old secret $word in plaintext"; else ok; fi
done
cd "$tmp"

# a secret object's numbers and bools, and a secret map's keys, are its value too (sc21): in the code,
# not in --json or the report
mkdir -p "$tmp/lit/obj" && cd "$tmp/lit/obj"
cat >schema.json <<'JSON'
{"name": "vault", "version": "1.0.0",
 "types": {"vault:index:Rule": {"type": "object", "properties": {"key": {"type": "string"}, "port": {"type": "integer"},
                                                                "enabled": {"type": "boolean"}, "ratio": {"type": "number"}}}},
 "resources": {"vault:index:Thing": {
   "inputProperties": {"name": {"type": "string"}, "main": {"$ref": "#/types/vault:index:Rule"},
                       "tags": {"type": "object", "additionalProperties": {"type": "string"}}, "count": {"type": "integer"}},
   "requiredInputs": ["name"],
   "properties": {"name": {"type": "string"}, "main": {"$ref": "#/types/vault:index:Rule"},
                  "tags": {"type": "object", "additionalProperties": {"type": "string"}}, "count": {"type": "integer"}},
   "required": ["name"]}}}
JSON
python3 - <<'PY'
import json
def S(v): return {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "plaintext": json.dumps(v)}
ins = {"name": "t1", "main": S({"key": "OBJKEYSEKRIT", "port": 987654, "enabled": True, "ratio": 0.123456}),
       "tags": S({"TAGKEYSEKRIT": "TAGVALSEKRIT"}), "count": S(4567123)}
pre = "urn:pulumi:dev::p::"
prov = pre + "pulumi:providers:vault::default_1_0_0"
res = [{"urn": pre + "pulumi:pulumi:Stack::p-dev", "custom": False, "type": "pulumi:pulumi:Stack"},
       {"urn": prov, "custom": True, "id": "pid", "type": "pulumi:providers:vault", "inputs": {"version": "1.0.0"},
        "outputs": {"version": "1.0.0"}},
       {"urn": pre + "vault:index:Thing::t1", "custom": True, "id": "t1-id", "type": "vault:index:Thing", "inputs": ins,
        "outputs": dict(ins, id="t1-id"), "provider": prov + "::pid"}]
json.dump({"version": 3, "deployment": {"manifest": {}, "resources": res}}, open("stack.json", "w"))
json.dump({"resources": [{"type": "vault:index:Thing", "name": "t1", "id": "t1-id"}]}, open("imports.json", "w"))
PY
OBJ=(OBJKEYSEKRIT TAGKEYSEKRIT TAGVALSEKRIT 987654 0.123456 4567123)
for l in typescript python go csharp java yaml pcl; do
  o() { "$CIMPORT" --spec imports.json --offline-state stack.json --schema schema.json --code-only --secrets literal -q -l $l "$@"; }
  o -o "code.$l" --report "r-$l.html" >"run-$l.log" 2>&1 || bad "secret object $l: $(cat "run-$l.log")"
  o --json >"j-$l.json" 2>/dev/null
  o --json --show-secrets >"show-$l.json" 2>/dev/null
  "$CIMPORT" report "show-$l.json" -o "saved-$l.html" 2>/dev/null || bad "cimport report show-$l.json ($l)"
  for w in "${OBJ[@]}"; do grep -qF -- "$w" "code.$l" || bad "$l: $w not in the code"; done
  left=$(for w in "${OBJ[@]}"; do grep -lF -- "$w" "j-$l.json" "r-$l.html" "saved-$l.html"; done | sort -u | tr '\n' ' ')
  [ -z "$left" ] && ok || bad "$l: a secret object's value in plaintext in $left"
  python3 - "j-$l.json" <<'PY' && ok || bad "$l: the secret bool in the code fields of --json"
import json, re, sys
d = json.load(open(sys.argv[1]))
for text in [d["code"]] + [r[k] for r in d["resources"] for k in ("code", "pcl") if k in r]:
    line = [x for x in text.splitlines() if re.search("enabled", x, re.I)]
    assert line and not re.search("true", line[0], re.I) and "[secret]" in line[0], text
PY
done
cd "$tmp"

# --- a project whose file is Pulumi.yml (read16 F3): Pulumi names the stack config after the project
# file's extension (workspace.ProjectStackPath: Pulumi.<stack> + filepath.Ext of the project file), so
# the stack's config is Pulumi.prod.yml. The secrets went into a new Pulumi.prod.yaml (a new salt) that
# Pulumi never reads, and the real one was not read: a wrong passphrase was not caught.
for cfgdir in "" cfg; do
  y="$tmp/yml$cfgdir"
  mkdir -p "$y/proj/$cfgdir" "$y/state/.pulumi/stacks/shop" "$y/home/workspaces" && cd "$y/proj"
  export PULUMI_HOME="$y/home"
  printf 'version: 1\n' >"$y/state/.pulumi/meta.yaml"
  printf '{"version":3,"checkpoint":{"stack":"organization/shop/prod","latest":null}}' \
    >"$y/state/.pulumi/stacks/shop/prod.json"
  printf 'name: shop\nruntime: nodejs\n' >Pulumi.yml
  [ -n "$cfgdir" ] && printf 'stackConfigDir: %s\n' "$cfgdir" >>Pulumi.yml
  cfg="$y/proj/${cfgdir:+$cfgdir/}Pulumi.prod.yml"
  printf 'encryptionsalt: %s\n' "$KAT" >"$cfg"
  sha=$(printf '%s' "$PWD/Pulumi.yml" | sha1sum | cut -d' ' -f1)
  printf '{"stack": "organization/shop/prod"}' >"$PULUMI_HOME/workspaces/shop-$sha-workspace.json"
  printf '{"current": "file://%s", "accessTokens": {}}' "$y/state" >"$PULUMI_HOME/credentials.json"
  ck="$y/state/.pulumi/stacks/shop/prod.json"
  cp "$ck" ck.orig && cp "$cfg" cfg.orig
  PULUMI_CONFIG_PASSPHRASE=wrong import -o wrong.ts --yes >yml0.log 2>&1
  rc=$?
  [ $rc = 2 ] && cmp -s "$ck" ck.orig && cmp -s "$cfg" cfg.orig && [ ! -e wrong.ts ] && ok ||
    bad "Pulumi.yml ($cfgdir): a wrong passphrase: exit $rc: $(cat yml0.log)"
  PULUMI_CONFIG_PASSPHRASE=password import -o api.ts --yes >yml.log 2>&1 && ok || bad "Pulumi.yml ($cfgdir): $(cat yml.log)"
  [ -z "$(find "$y/proj" -name 'Pulumi.prod.yaml')" ] && ok || bad "Pulumi.yml ($cfgdir): a Pulumi.prod.yaml was made"
  grep -qF "encrypted into $cfg " yml.log && ok || bad "Pulumi.yml ($cfgdir): note: $(cat yml.log)"
  PASSPHRASE=password node "$DEC" config "$cfg" >yml.dec 2>&1 && grep -qF '"salt":"'"$KAT" yml.dec &&
    grep -qF 'tok-9f8e7d-SECRET-VALUE' yml.dec && ok || bad "Pulumi.yml ($cfgdir): the stack config: $(cat yml.dec)"
  PASSPHRASE=password node "$DEC" state "$ck" >ymls.dec 2>&1 && grep -qF '"salt":"'"$KAT" ymls.dec && ok ||
    bad "Pulumi.yml ($cfgdir): the checkpoint: $(cat ymls.dec)"
done
export PULUMI_HOME="$tmp/pulumi-home"
cd "$tmp"

# --- the value a secret input had in the program before the run (read18 F5) -------------------------
# The program held the keeper in plaintext; the run reads it as a secret now (config.requireSecret). The
# removed line of the review diff is that secret's old value: shown as [secret] on stdout (--diff), in
# --json's programDiff and on the --report page, as Pulumi shows a secret input's old value; with
# --show-secrets it is there.
for lang in typescript python; do
  mkdir -p "$tmp/f5$lang" && cd "$tmp/f5$lang"
  case $lang in
  typescript)
    printf 'name: shop\nruntime: nodejs\n' >Pulumi.yaml
    f=index.ts
    printf 'import * as random from "@pulumi/random";\n\nconst apiName = new random.RandomString("apiName", {\n    length: 11,\n    keepers: {\n        apiToken: "old!tok@42#x",\n        region: "eu-west-1",\n    },\n});\n' >$f ;;
  python)
    printf 'name: shop\nruntime: python\n' >Pulumi.yaml
    f=__main__.py
    printf 'import pulumi_random as random\n\napi_name = random.RandomString("apiName",\n    length=11,\n    keepers={\n        "apiToken": "old!tok@42#x",\n        "region": "eu-west-1",\n    })\n' >$f ;;
  esac
  "$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" --stack prod \
    --code-only --insert-into $f --diff >diff.out 2>diff.err
  rc=$?
  "$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" --stack prod \
    --code-only --insert-into $f --diff --json --report rep.html >out.json 2>json.err
  "$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" --stack prod \
    --code-only --insert-into $f --diff --json --show-secrets >shown.json 2>shown.err
  [ "$rc" = 4 ] && grep -q 'apiToken.*\[secret\]' diff.out && ! grep -qF 'old!tok' diff.out out.json rep.html &&
    grep -qF 'old!tok' shown.json && ok ||
    bad "$lang: a secret input's old value in the program diff (exit $rc): $(cat diff.out diff.err; grep -c 'old!tok' out.json rep.html shown.json)"
done
cd "$tmp"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

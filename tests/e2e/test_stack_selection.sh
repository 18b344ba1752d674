#!/usr/bin/env bash
# test_stack_selection.sh — which stack cimport records into is the one `pulumi` would use, on a DIY
# file backend laid out as Pulumi lays it out: --stack, else PULUMI_STACK (pulumi/pulumi#18717),
# else the workspace file's selection for the backend in use (`"stacks": {BACKEND_URL: STACK}`,
# written by `pulumi stack select` since v3.256, pulumi/pulumi#23974), else its older unscoped
# `"stack"`. A stack named ORG/STACK on a DIY backend, whose one organization is `organization`, is
# refused as Pulumi refuses it; so are project and stack names Pulumi refuses. And an object the stack
# holds pending deletion is not imported again as if it stayed.
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
Q="$SOURCE_DIR/examples/quickstart"
S="$SHARED_DATA/schemas/random/schema.json"
export PULUMI_HOME="$work/home"
unset PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE PULUMI_STACK \
  2>/dev/null || true
state="$work/state" proj="$work/proj" stacks="$work/state/.pulumi/stacks/shop"
mkdir -p "$stacks" "$PULUMI_HOME/workspaces" "$proj"
printf 'version: 1\n' >"$state/.pulumi/meta.yaml"
printf 'name: shop\nruntime: nodejs\n' >"$proj/Pulumi.yaml"
ws="$PULUMI_HOME/workspaces/shop-$(printf '%s' "$proj/Pulumi.yaml" | sha1sum | cut -d' ' -f1)-workspace.json"
printf '{"current": "file://%s", "accessTokens": {}}' "$state" >"$PULUMI_HOME/credentials.json"

# fresh: empty stacks dev and prod, the workspace file as given
fresh() {
  for s in dev prod; do
    printf '{"version":3,"checkpoint":{"stack":"organization/shop/%s","latest":null}}' "$s" >"$stacks/$s.json"
    cp "$stacks/$s.json" "$work/$s.orig"
  done
  rm -rf "$state/.pulumi/backups" "$state/.pulumi/history" "$proj/out.ts"
  printf '%s' "$1" >"$ws"
}
# run NAME ARGS...: the quickstart's import, offline, into the project's stack
run() {
  local name=$1
  shift
  (cd "$proj" && "$CIMPORT" --spec "$Q/imports.json" --offline-state "$Q/stack.json" --schema "$S" --yes -o out.ts \
    "$@" >"$work/$name.out" 2>"$work/$name.err")
  echo $?
}
holds() { grep -q '"urn:pulumi:'"$1"'::shop::random:' "$stacks/$1.json"; }
same() { cmp -s "$stacks/$1.json" "$work/$1.orig"; }

# --- today's workspace file: the selection scoped to the backend wins over an older unscoped one ----
fresh "{\"stack\": \"organization/shop/prod\", \"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
rc=$(run scoped)
[ "$rc" = 0 ] && ok || bad "scoped selection: exit $rc: $(cat "$work/scoped.err")"
holds dev && ok || bad "scoped selection: the resources are not in dev (the stack \`pulumi stack select\` chose)"
same prod && ok || bad "scoped selection: prod (the older unscoped selection) was written"
grep -q 'into stack organization/shop/dev' "$work/scoped.err" "$work/scoped.out" && ok ||
  bad "scoped selection: the summary does not name dev: $(cat "$work/scoped.err")"

# --- only the scoped form (what `pulumi stack select` writes now) ----------------------------------
fresh "{\"stacks\": {\"file://$state/\": \"dev\"}}"
rc=$(run scoped_only)
[ "$rc" = 0 ] && ok || bad "scoped only: exit $rc: $(cat "$work/scoped_only.err")"
holds dev && ok || bad "scoped only: the resources are not in dev: $(cat "$work/scoped_only.err")"

# --- a selection for another backend only: nothing is selected here, nothing written ---------------
fresh '{"stacks": {"https://api.pulumi.com": "acme/shop/prod"}}'
rc=$(run other_backend)
same dev && same prod && ok || bad "a selection for another backend: a stack here was written"
grep -q 'https://api.pulumi.com' "$work/other_backend.err" && ok ||
  bad "a selection for another backend: not named: $(cat "$work/other_backend.err")"
# ... a PostgreSQL backend's URL keys the selection as given to `pulumi login`, its password with it:
# named with the password as xxxxx, on stderr, in --json and in the report (read17 F13: in plaintext)
fresh '{"stacks": {"postgres://admin:Sup3rS3cretPW@db.example.com:5432/pulumi?sslmode=require": "organization/shop/prod", "postgres://db.example.com/pulumi?user=admin&password=QueryPW99": "dev"}}'
rc=$(run pg_keys --report "$work/pg_keys.html")
run pg_keys_json --json >/dev/null
same dev && same prod && ok || bad "selections for PostgreSQL backends: a stack here was written"
grep -qF 'postgres://admin:xxxxx@db.example.com:5432/pulumi?sslmode=require: organization/shop/prod' "$work/pg_keys.err" &&
  grep -qF 'postgres://db.example.com/pulumi?user=admin&password=xxxxx: dev' "$work/pg_keys.err" &&
  grep -qF 'postgres://admin:xxxxx@db.example.com' "$work/pg_keys_json.out" && ok ||
  bad "selections for PostgreSQL backends: not named: $(cat "$work/pg_keys.err")"
if grep -lF -e Sup3rS3cretPW -e QueryPW99 "$work"/pg_keys*.err "$work"/pg_keys*.out "$work/pg_keys.html"; then
  bad "a PostgreSQL backend's password in plaintext (exit $rc)"
else ok; fi

# --- PULUMI_STACK over the workspace file; --stack over PULUMI_STACK --------------------------------
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
rc=$(PULUMI_STACK=prod run env_stack)
[ "$rc" = 0 ] && ok || bad "PULUMI_STACK: exit $rc: $(cat "$work/env_stack.err")"
holds prod && ok || bad "PULUMI_STACK=prod: the resources are not in prod: $(cat "$work/env_stack.err")"
same dev && ok || bad "PULUMI_STACK=prod: dev (the workspace's selection) was written"
grep -q 'PULUMI_STACK' "$work/env_stack.err" "$work/env_stack.out" && ok ||
  bad "PULUMI_STACK: the run does not say where the stack came from: $(cat "$work/env_stack.err")"
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
rc=$(PULUMI_STACK=prod run flag_stack --stack dev)
holds dev && same prod && ok || bad "--stack dev with PULUMI_STACK=prod: not dev alone (exit $rc)"
# PULUMI_STACK set but empty is no stack selected, the workspace file's selection aside, as Pulumi's
# getCurrentStackName (os.LookupEnv): nothing written to dev (read17 F5)
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
rc=$(PULUMI_STACK= run empty_env)
same dev && same prod && grep -qF 'nothing was imported into a stack' "$work/empty_env.err" && ok ||
  bad "PULUMI_STACK= (empty): exit $rc, a stack was written or the run says it was: $(cat "$work/empty_env.err")"

# --- ORG/STACK on a DIY backend: only `organization` -----------------------------------------------
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
rc=$(run myorg --stack myorg/dev)
[ "$rc" = 2 ] && ok || bad "--stack myorg/dev on a DIY backend: exit $rc, want 2: $(cat "$work/myorg.err")"
grep -q "has only 'organization'" "$work/myorg.err" && ok || bad "--stack myorg/dev: no reason: $(cat "$work/myorg.err")"
same dev && same prod && [ ! -e "$proj/out.ts" ] && ok || bad "--stack myorg/dev: something was written"
rc=$(PULUMI_STACK=myorg/prod run env_myorg)
[ "$rc" = 2 ] && ok || bad "PULUMI_STACK=myorg/prod on a DIY backend: exit $rc, want 2"
same dev && same prod && ok || bad "PULUMI_STACK=myorg/prod: a stack was written"

# --- names Pulumi refuses (tokens.ValidateProjectName, the DIY reference store's stack names): never
# joined into the backend's paths — a cloned Pulumi.yaml's `name: ../../x` wrote the checkpoint, backups
# and history outside the backend directory (read16 F15) -------------------------------------------
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
mkdir -p "$work/escape"
printf '{"version":3,"checkpoint":{"stack":"organization/x/dev","latest":null}}' >"$work/escape/dev.json"
cp "$work/escape/dev.json" "$work/escape.orig"
cp "$proj/Pulumi.yaml" "$work/Pulumi.yaml.orig"
printf 'name: ../../../escape\nruntime: nodejs\n' >"$proj/Pulumi.yaml"
rc=$(run badproject --stack dev)
[ "$rc" = 2 ] && ok || bad "project name ../../../escape: exit $rc, want 2: $(cat "$work/badproject.err")"
grep -q 'project names may only contain' "$work/badproject.err" && ok ||
  bad "project name ../../../escape: no reason: $(cat "$work/badproject.err")"
cmp -s "$work/escape/dev.json" "$work/escape.orig" && [ ! -e "$work/escape/dev" ] && [ ! -e "$proj/out.ts" ] && ok ||
  bad "project name ../../../escape: written outside the backend"
cp "$work/Pulumi.yaml.orig" "$proj/Pulumi.yaml"
for name in .. 'a b' "$(printf 'x%.0s' $(seq 101))"; do
  rc=$(run badstack --stack "$name")
  [ "$rc" = 2 ] && grep -q 'stack names' "$work/badstack.err" && ok ||
    bad "stack name '$name': exit $rc, want 2 and the rule: $(cat "$work/badstack.err")"
done
same dev && same prod && ok || bad "a refused name: a stack was written"

# --- an object the stack holds pending deletion (`delete: true`, a replacement whose delete did not
# finish): Pulumi's next update deletes it whatever the program says, so importing it again is no
# "no changes" (read16 F6) ------------------------------------------------------------------------
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
rc=$(run pending_setup)
python3 - "$stacks/dev.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["checkpoint"]["latest"]["resources"]:
    if r["urn"].endswith("::bucket-suffix"):
        r["delete"], r["protect"] = True, False
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
cp "$stacks/dev.json" "$work/dev.pending"
(cd "$proj" && "$CIMPORT" random:index/randomString:RandomString bucket-suffix x7k2p9qa --offline-state "$Q/stack.json" \
  --schema "$S" --yes -o pending.ts >"$work/pending.out" 2>"$work/pending.err")
rc=$?
[ "$rc" = 2 ] && ok || bad "an object pending deletion imported again: exit $rc, want 2: $(cat "$work/pending.err")"
grep -q 'pending deletion' "$work/pending.err" && ok || bad "pending deletion: not said: $(cat "$work/pending.err")"
cmp -s "$stacks/dev.json" "$work/dev.pending" && [ ! -e "$proj/pending.ts" ] && ok ||
  bad "pending deletion: the stack or the code was written"
# ... protected: the update fails on it (Pulumi's deleteProtectedError), it does not delete it yet; with
# retainOnDelete: the update drops the entry and leaves the object (Pulumi's DeleteStep), so the object
# may be imported (read17 F15: refused, "deletes that object")
for how in protect retain; do
  python3 - "$work/dev.pending" "$stacks/dev.json" "$how" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["checkpoint"]["latest"]["resources"]:
    if r["urn"].endswith("::bucket-suffix"):
        r["protect" if sys.argv[3] == "protect" else "retainOnDelete"] = True
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
  (cd "$proj" && "$CIMPORT" random:index/randomString:RandomString bucket-suffix x7k2p9qa --offline-state "$Q/stack.json" \
    --schema "$S" --yes -o pending_$how.ts >"$work/pending_$how.out" 2>"$work/pending_$how.err")
  echo $? >"$work/rc"
done
[ "$(cat "$work/rc")" = 0 ] && grep -c '"urn:pulumi:dev::shop::random:index/randomString:RandomString::bucket-suffix"' "$stacks/dev.json" | grep -qx 2 &&
  ok || bad "pending deletion with retainOnDelete: exit $(cat "$work/rc"), want 0 and the object recorded: $(cat "$work/pending_retain.err")"
grep -qF 'fails on that entry, which is protected' "$work/pending_protect.err" && ok ||
  bad "pending deletion, protected: the reason: $(cat "$work/pending_protect.err")"

# --- a journal a crashed `pulumi up` left (Pulumi's DIY journaling: .pulumi/journal/<project>/<stack>/):
# Pulumi replays it on its next operation only while the checkpoint is the one it was made against; a
# write under it makes Pulumi drop it as stale, and the resources that update made are lost (read16 F5)
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
J="$state/.pulumi/journal/shop/dev"
mkdir -p "$J"
printf '{"epochID":"5f0c1c9e-1111-4222-8333-444455556666","baseCheckpointHash":"%s","createdAt":"2026-11-28T08:00:00Z"}' \
  "$(sha256sum "$stacks/dev.json" | cut -d' ' -f1)" >"$J/manifest.json"
printf '{"version":1,"kind":0,"sequenceID":1,"operationID":1}' >"$J/0000000001.journal.json"
rc=$(run journal)
[ "$rc" = 2 ] && grep -q 'journal' "$work/journal.err" && ok ||
  bad "a stack with a journal: exit $rc, want 2 and the reason: $(cat "$work/journal.err")"
same dev && [ ! -e "$proj/out.ts" ] && [ -e "$J/0000000001.journal.json" ] && ok ||
  bad "a stack with a journal: the stack, the code or the journal changed"
[ -z "$(ls -A "$state/.pulumi/locks/organization/shop/dev" 2>/dev/null)" ] && ok || bad "a stack with a journal: the lock was left"
rm -rf "$state/.pulumi/journal"

# --- a stale <stack>.json beside a newer <stack>.json.zst: Pulumi reads the newest of .json, .json.gz
# and .json.zst; cimport cannot read zstd, so it refuses rather than write the stale one (read16 F13)
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
touch -d '1 hour ago' "$stacks/dev.json"
printf 'not really zstd' >"$stacks/dev.json.zst"
rc=$(run zst)
[ "$rc" = 2 ] && grep -q 'zstd' "$work/zst.err" && ok || bad "a newer .json.zst: exit $rc, want 2: $(cat "$work/zst.err")"
same dev && ok || bad "a newer .json.zst: the stale .json was written"
touch -d '2 hours ago' "$stacks/dev.json.zst"
rc=$(run zst_older)
[ "$rc" = 0 ] && holds dev && ok || bad "an older .json.zst beside the .json: exit $rc: $(cat "$work/zst_older.err")"
rm -f "$stacks/dev.json.zst"
# equal times (a state restored from a tar backup, `cp -p`, `rsync -t`): Pulumi takes the later of
# .json, .json.gz, .json.zst (stackPath replaces its pick unless the file is older), so the .zst or .gz
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
printf 'not really zstd' >"$stacks/dev.json.zst"
touch -d '2026-11-28 10:00:00' "$stacks/dev.json" "$stacks/dev.json.zst"
rc=$(run zst_tie)
[ "$rc" = 2 ] && grep -q 'zstd' "$work/zst_tie.err" && ok || bad "a .json.zst as old as the .json: exit $rc, want 2: $(cat "$work/zst_tie.err")"
same dev && ok || bad "a .json.zst as old as the .json: the .json, which Pulumi does not read, was written"
rm -f "$stacks/dev.json.zst"
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
gzip -c "$stacks/dev.json" >"$stacks/dev.json.gz"
touch -d '2026-11-28 10:00:00' "$stacks/dev.json" "$stacks/dev.json.gz"
rc=$(run gz_tie)
[ "$rc" = 0 ] && gzip -dc "$stacks/dev.json.gz" | grep -q '"urn:pulumi:dev::shop::random:' && ok ||
  bad "a .json.gz as old as the .json: exit $rc, or the resources are not in the .gz Pulumi reads: $(cat "$work/gz_tie.err")"
same dev && ok || bad "a .json.gz as old as the .json: the .json, which Pulumi does not read, was written"
rm -f "$stacks/dev.json.gz"

# --- a stack whose resources use a versioned default provider (`default_4_16_0`, as every SDK program
# records it): a resource imported offline with no version goes under that provider, not a second,
# unversioned `default` the program would move it off and delete in its next preview (read16 F10) -----
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
rc=$(run versioned_setup)
python3 - "$stacks/dev.json" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read().replace("pulumi:providers:random::default", "pulumi:providers:random::default_4_16_0"))
res = d["checkpoint"]["latest"]["resources"]
for r in res:
    if r["type"] == "pulumi:providers:random":
        r["inputs"] = {"version": "4.16.0"}
        r["outputs"] = {"version": "4.16.0"}
d["checkpoint"]["latest"]["resources"] = [r for r in res if not r["urn"].endswith("::http-port")]
json.dump(d, open(sys.argv[1], "w"))
PY
(cd "$proj" && "$CIMPORT" random:index/randomInteger:RandomInteger http-port 8443,8000,8999,mq7xk2vt9fzr \
  --offline-state "$Q/stack.json" --schema "$S" --yes -o hp.ts >"$work/versioned.out" 2>"$work/versioned.err")
rc=$?
python3 - "$stacks/dev.json" <<'PY' && ok || bad "http-port imported offline into a stack on default_4_16_0 (exit $rc): $(cat "$work/versioned.err")"
import json, sys
res = json.load(open(sys.argv[1]))["checkpoint"]["latest"]["resources"]
provs = [r["urn"] for r in res if r["type"] == "pulumi:providers:random"]
hp = [r for r in res if r["urn"].endswith("::http-port")]
assert provs == ["urn:pulumi:dev::shop::pulumi:providers:random::default_4_16_0"], provs
assert len(hp) == 1 and hp[0]["provider"].startswith(provs[0] + "::"), hp
PY

# --- no stack selected: Pulumi has no stack config then (`pulumi config set --secret` says "no stack
# selected; please use `pulumi stack select` to choose one"); cimport encrypted the secrets into a
# Pulumi.dev.yaml of a stack nobody named, beside the project's real Pulumi.prod.yaml (read16 F7) -----
fresh '{}'
SS="$SOURCE_DIR/tests/fixtures/cli/secret-string-stack.json"
salt='encryptionsalt: v1:oQz1i0vUuFA=:v1:EyHLuap/OkI2x+pR:IfnubME+wQxJDeZux6ajxDuIT7shUQ==' # passphrase hunter2
printf '%s\n' "$salt" >"$proj/Pulumi.prod.yaml"
cp "$proj/Pulumi.prod.yaml" "$work/prodcfg.orig"
secret_run() { # secret_run NAME [ENV...]: the secret-string fixture's import, no stack selected
  # (code only: its secret keeper is no input its importer rebuilds, so the `import` option is refused for it)
  local name=$1
  shift
  (cd "$proj" && env "$@" "$CIMPORT" random:index/randomString:RandomString api-name brave-otter --offline-state "$SS" \
    --schema "$S" --code-only -o api.ts >"$work/$name.out" 2>"$work/$name.err")
  echo $?
}
rc=$(secret_run nostack_pass PULUMI_CONFIG_PASSPHRASE=hunter2)
[ "$rc" = 2 ] && ok || bad "no stack, a passphrase: exit $rc, want 2: $(cat "$work/nostack_pass.err")"
grep -q 'no stack is selected' "$work/nostack_pass.err" && grep -q 'pulumi stack select' "$work/nostack_pass.err" && ok ||
  bad "no stack, a passphrase: the refusal does not say why and how: $(cat "$work/nostack_pass.err")"
[ ! -e "$proj/Pulumi.dev.yaml" ] && [ ! -e "$proj/api.ts" ] && [ ! -e "$proj/cimport-secrets.json" ] &&
  cmp -s "$proj/Pulumi.prod.yaml" "$work/prodcfg.orig" && ok ||
  bad "no stack, a passphrase: written: $(ls "$proj")"
# with --stack the same run encrypts into that stack's config
rc=$(secret_run nostack_flag PULUMI_CONFIG_PASSPHRASE=hunter2 PULUMI_STACK=prod)
[ "$rc" = 0 ] && grep -q 'secure:' "$proj/Pulumi.prod.yaml" && [ ! -e "$proj/Pulumi.dev.yaml" ] && ok ||
  bad "PULUMI_STACK=prod, a passphrase: exit $rc: $(cat "$work/nostack_flag.err")"
rm -f "$proj/api.ts"
cp "$work/prodcfg.orig" "$proj/Pulumi.prod.yaml"
# without a passphrase: the secrets file, and no word of a Pulumi.dev.yaml
rc=$(secret_run nostack_file)
[ "$rc" = 0 ] && [ -s "$proj/cimport-secrets.json" ] && ok || bad "no stack, no passphrase: exit $rc: $(cat "$work/nostack_file.err")"
if grep -q 'Pulumi.dev.yaml' "$work/nostack_file.err"; then bad "no stack: a Pulumi.dev.yaml named: $(cat "$work/nostack_file.err")"; else ok; fi
rm -f "$proj/api.ts" "$proj/cimport-secrets.json"
rm -f "$proj/Pulumi.prod.yaml"

# --- without a passphrase, runs for two stacks shared one cimport-secrets.json, and the printed way to
# store it had no --stack: a --stack prod run's note, followed as printed, put dev's and prod's values
# into the selected stack's config and deleted the file; prod's code read another key than dev's
# (`...Token2`) for the same input (read16 F14) -------------------------------------------------------
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
sed 's/tok-9f8e7d-SECRET-VALUE/tok-PROD-OTHER-VALUE/' "$SS" >"$work/ss-prod.json"
mkdir -p "$work/stub"
printf '#!/bin/sh\nprintf "%%s|%%s\\n" "$*" "$(cat)" >>"%s"\n' "$work/stub.log" >"$work/stub/pulumi"
chmod +x "$work/stub/pulumi"
(cd "$proj" && "$CIMPORT" random:index/randomString:RandomString api-name brave-otter --offline-state "$SS" \
  --schema "$S" --code-only -o dev.ts >"$work/sf_dev.out" 2>"$work/sf_dev.err")
(cd "$proj" && "$CIMPORT" random:index/randomString:RandomString api-name brave-otter --offline-state "$work/ss-prod.json" \
  --schema "$S" --code-only --stack prod -o prod.ts >"$work/sf_prod.out" 2>"$work/sf_prod.err")
rc=$?
[ "$rc" = 0 ] && ok || bad "secrets file for prod: exit $rc: $(cat "$work/sf_prod.err")"
grep -qF 'requireSecret("api-nameKeepersApiToken")' "$proj/prod.ts" && ok ||
  bad "prod's code reads another key than dev's for the same input: $(grep requireSecret "$proj/prod.ts")"
loop=$(grep -F 'jq -r' "$work/sf_prod.err")
[ -n "$loop" ] && (cd "$proj" && PATH="$work/stub:$PATH" sh -c "$loop") && ok || bad "prod's store command: $(cat "$work/sf_prod.err")"
[ "$(cat "$work/stub.log" 2>/dev/null)" = "config set --secret --stack prod api-nameKeepersApiToken|tok-PROD-OTHER-VALUE" ] && ok ||
  bad "prod's store command stored: $(cat "$work/stub.log" 2>/dev/null)"
# dev's values are still there for dev's own command
loop=$(grep -F 'jq -r' "$work/sf_dev.err")
: >"$work/stub.log"
[ -n "$loop" ] && (cd "$proj" && PATH="$work/stub:$PATH" sh -c "$loop") &&
  [ "$(cat "$work/stub.log")" = "config set --secret --stack organization/shop/dev api-nameKeepersApiToken|tok-9f8e7d-SECRET-VALUE" ] && ok ||
  bad "dev's store command after prod's: $(cat "$work/stub.log"; cat "$work/sf_dev.err")"
rm -f "$proj"/cimport-secrets*.json "$proj/dev.ts" "$proj/prod.ts"

# --- --preview-only never opened the stack: "the code shown is the code written when they are imported
# into stack nosuch ... next: run again without --preview-only to write it" for a stack that does not
# exist; and a file:// backend URL with Pulumi's query parameters (`?no_tmp_dir=true`, which Pulumi's
# DIY backend parses off and passes to its blob store) was taken for a directory that does not exist
# (read16 F19) ------------------------------------------------------------------------------------
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
preview() { # preview NAME ARGS...: the quickstart's import, --preview-only
  local name=$1
  shift
  (cd "$proj" && "$CIMPORT" --spec "$Q/imports.json" --offline-state "$Q/stack.json" --schema "$S" --preview-only \
    "$@" >"$work/$name.out" 2>"$work/$name.err")
  echo $?
}
rc=$(preview pv_nosuch --stack nosuch)
[ "$rc" = 2 ] && grep -q "the stack 'nosuch' of project 'shop' does not exist" "$work/pv_nosuch.err" && ok ||
  bad "--preview-only into a stack that does not exist: exit $rc, want 2 and why: $(cat "$work/pv_nosuch.err")"
if grep -q 'run again without --preview-only' "$work/pv_nosuch.err"; then bad "--preview-only, no such stack: a write promised"; else ok; fi
rc=$(preview pv_dev)
[ "$rc" = 0 ] && grep -q '= import' "$work/pv_dev.err" && ok ||
  bad "--preview-only into dev: exit $rc, want 0 and the stack's preview: $(cat "$work/pv_dev.err")"
same dev && [ ! -e "$state/.pulumi/backups" ] && [ -z "$(ls -A "$state/.pulumi/locks/organization/shop/dev" 2>/dev/null)" ] && ok ||
  bad "--preview-only into dev: the stack, a backup or a lock was written"
# another process's lock: the preview waits for nothing, takes no lock and says it is held
mkdir -p "$state/.pulumi/locks/organization/shop/dev"
printf '{"pid":4242,"username":"ci","hostname":"runner","timestamp":"2026-11-28T08:00:00Z"}' \
  >"$state/.pulumi/locks/organization/shop/dev/5f0c1c9e-1111-4222-8333-444455556666.json"
rc=$(preview pv_locked)
[ "$rc" = 0 ] && grep -q 'locked' "$work/pv_locked.err" && grep -q 'ci@runner' "$work/pv_locked.err" && ok ||
  bad "--preview-only, the stack locked by another: exit $rc: $(cat "$work/pv_locked.err")"
[ "$(ls "$state/.pulumi/locks/organization/shop/dev")" = 5f0c1c9e-1111-4222-8333-444455556666.json ] && same dev && ok ||
  bad "--preview-only, the stack locked by another: the locks or the stack changed: $(ls "$state/.pulumi/locks/organization/shop/dev")"
rm -rf "$state/.pulumi/locks/organization/shop/dev"
# file://DIR?no_tmp_dir=true: the directory is DIR
rc=$(PULUMI_BACKEND_URL="file://$state?no_tmp_dir=true" run notmp)
[ "$rc" = 0 ] && holds dev && ok || bad "file://DIR?no_tmp_dir=true: exit $rc: $(cat "$work/notmp.err")"

# --- PULUMI_HOME unset: Pulumi takes ~/.pulumi (and `file://~`) from the account's home directory, the
# password database's (pulumihome.Dir and massageBlobPath: os/user.Current, which prefers /etc/passwd to
# $HOME); cimport took $HOME, so where they differ (a CI container job's HOME=/github/home, `sudo` keeping
# HOME) it read another login and another selection than `pulumi` (read16 F4) --------------------------
if [ -n "$(getent passwd "$(id -u)" | cut -d: -f6)" ] && [ "$(getent passwd "$(id -u)" | cut -d: -f6)" != "$work/fakehome" ]; then
  fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
  mkdir -p "$work/fakehome"
  cp -r "$PULUMI_HOME" "$work/fakehome/.pulumi"
  rc=$(unset PULUMI_HOME; HOME="$work/fakehome" preview home_pw)
  if grep -q "$work/fakehome/.pulumi" "$work/home_pw.err" || grep -q '= import' "$work/home_pw.err"; then
    bad "\$HOME's .pulumi taken for PULUMI_HOME (exit $rc): $(cat "$work/home_pw.err")"
  else ok; fi
  grep -q "not the account's home directory" "$work/home_pw.err" && ok ||
    bad "\$HOME other than the account's home: not said: $(cat "$work/home_pw.err")"
  same dev && ok || bad "\$HOME other than the account's home: the stack was written"
fi

# --- the DIY backend's variables as Pulumi reads them (sdk/go/common/env): PULUMI_DIY_BACKEND_DISABLE_
# CHECKPOINT_BACKUPS, else its alternative PULUMI_DISABLE_CHECKPOINT_BACKUPS; PULUMI_DIY_BACKEND_RETAIN_
# CHECKPOINTS, else PULUMI_RETAIN_CHECKPOINTS: every checkpoint also copied to <file>.<unix ns>. Only the
# first names were honoured (read16 F18) ------------------------------------------------------------
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
rc=$(PULUMI_DISABLE_CHECKPOINT_BACKUPS=1 run nobackup)
[ "$rc" = 0 ] && holds dev && [ ! -e "$state/.pulumi/backups" ] && ok ||
  bad "PULUMI_DISABLE_CHECKPOINT_BACKUPS=1: exit $rc, a backup: $(ls -R "$state/.pulumi/backups" 2>/dev/null)"
fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
rc=$(PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS=false PULUMI_DISABLE_CHECKPOINT_BACKUPS=1 run backup_primary)
[ "$rc" = 0 ] && [ -n "$(ls "$state/.pulumi/backups/shop/dev" 2>/dev/null)" ] && ok ||
  bad "the primary variable set false over its alternative: no backup (exit $rc)"
for var in PULUMI_RETAIN_CHECKPOINTS PULUMI_DIY_BACKEND_RETAIN_CHECKPOINTS; do
  fresh "{\"stacks\": {\"file://$state\": \"organization/shop/dev\"}}"
  rm -f "$stacks"/dev.json.[0-9]*
  rc=$(export "$var=true"; run retain)
  kept=$(ls "$stacks" | grep -E '^dev\.json\.[0-9]{19}$')
  [ "$rc" = 0 ] && [ -n "$kept" ] && cmp -s "$stacks/$kept" "$stacks/dev.json" && ok ||
    bad "$var=true: no retained copy of the checkpoint (exit $rc): $(ls "$stacks")"
  rm -f "$stacks"/dev.json.[0-9]*
done

echo "test_stack_selection: $pass passed, $fail failed"
[ "$fail" = 0 ]

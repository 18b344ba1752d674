#!/usr/bin/env bash
# test_stack_faults.sh — one run, one transaction when the import goes into the selected stack of a
# DIY file backend (issue 14 item 7): the stack checkpoint is written together with the run's files
# (the code, the program spliced by --insert-into, the stack config with `secure:` values), so when
# one of them cannot be written the stack is not changed either:
#   - a program with a syntax error for --insert-into (refused before anything is written),
#   - the code file in a read-only directory, a file size limit (RLIMIT_FSIZE),
#   - the code file /dev/full: written last, after the stack, so the stack write is undone,
#   - the stack config (secrets) in a read-only project directory.
# Each: exit 2, a reason, the backend's files byte for byte as before (checkpoint, .bak; no backup or
# history entry left: an undone write leaves nothing of itself), the lock released, the program and
# the other files unchanged, nothing left behind.
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
work=$(mktemp -d)
mounts=()
cleanup() {
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
  chmod -R u+w "$work" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
Q="$SOURCE_DIR/examples/quickstart"
S="$SHARED_DATA/schemas/random/schema.json"
SS="$SOURCE_DIR/tests/fixtures/cli/secret-stack.json"
EXPORT="$SHARED_DATA/pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randomstring/4.16.0/stack.json"
PROJ=index_randomstringTu2iX3Vq02G9
KAT='v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=='
export PULUMI_HOME="$work/home"
unset PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE 2>/dev/null || true
state="$work/w/state"

# A fresh DIY backend holding stack `test` of $PROJ (from a real export) and stack `prod` of `shop`
# (a passphrase stack), with a .bak of an older checkpoint; projects in w/proj and w/shop.
fresh() {
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
  mounts=()
  chmod -R u+w "$work/w" 2>/dev/null
  rm -rf "$work/w" "$PULUMI_HOME"
  mkdir -p "$state/.pulumi/stacks/$PROJ" "$state/.pulumi/stacks/shop" "$PULUMI_HOME/workspaces" "$work/w/proj" \
    "$work/w/shop" "$work/w/out"
  printf 'version: 1\n' >"$state/.pulumi/meta.yaml"
  python3 - "$EXPORT" "$SS" "$state/.pulumi/stacks" "$PROJ" "$KAT" <<'PY'
import json, sys
exp, ss, root, proj, kat = sys.argv[1:]
d = json.load(open(exp))["deployment"]
cp = {"version": 3, "checkpoint": {"stack": "organization/%s/test" % proj, "latest": d}}
open("%s/%s/test.json" % (root, proj), "w").write(json.dumps(cp, separators=(",", ":")))
older = {"version": 3, "checkpoint": {"stack": "organization/%s/test" % proj, "latest": dict(d, resources=d["resources"][:1])}}
open("%s/%s/test.json.bak" % (root, proj), "w").write(json.dumps(older))
s = json.load(open(ss))["deployment"]
s["resources"] = s["resources"][:1]  # just the stack resource
s["secrets_providers"] = {"type": "passphrase", "state": {"salt": kat}}
open("%s/shop/prod.json" % root, "w").write(json.dumps({"version": 3, "checkpoint": {"stack": "organization/shop/prod", "latest": s}}))
PY
  for p in proj:"$PROJ":test shop:shop:prod; do
    IFS=: read -r dir name stack <<<"$p"
    printf 'name: %s\nruntime: nodejs\n' "$name" >"$work/w/$dir/Pulumi.yaml"
    sha=$(printf '%s' "$work/w/$dir/Pulumi.yaml" | sha1sum | cut -d' ' -f1)
    printf '{"stack": "organization/%s/%s"}' "$name" "$stack" >"$PULUMI_HOME/workspaces/$name-$sha-workspace.json"
  done
  printf '# prod\nencryptionsalt: %s\nconfig:\n  aws:region: eu-west-1\n' "$KAT" >"$work/w/shop/Pulumi.prod.yaml"
  printf '{"current": "file://%s", "accessTokens": {}}' "$state" >"$PULUMI_HOME/credentials.json"
  printf 'import * as random from "@pulumi/random";\n\nconst first = new random.RandomPet("first", {});\n' >"$work/w/proj/index.ts"
  printf 'export const before = 1;\n' >"$work/w/out/index.ts"
}
sums() { (cd "$work/w" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
leftovers() { find "$work/w" \( -name '*.cimport-tmp-*' -o -name '*.lock' -o -path '*/.pulumi/locks/*' \) -type f; }
# stderr through a pipe: a file size limit of the run must not cut its own messages short
run() { (set -o pipefail; cd "$work/w/proj" && "$@" 2>&1 >"$work/out.log" | cat >"$work/err.log"); }
imp=(--spec "$Q/imports.json" --offline-state "$Q/stack.json" --schema "$S" --yes -l typescript)

# check NAME RC BEFORE [WHAT]: exit 2, a reason (naming WHAT), nothing changed, nothing left behind.
check() {
  local name=$1 rc=$2 before=$3 what=${4:-}
  [ "$rc" = 2 ] && ok || bad "$name: exit $rc, want 2: $(cat "$work/err.log")"
  grep -q '^error: ' "$work/err.log" && ok || bad "$name: no reason given: $(cat "$work/err.log")"
  [ -z "$what" ] || grep -q "^error: .*$what" "$work/err.log" && ok || bad "$name: the reason does not name $what: $(cat "$work/err.log")"
  grep -qF 'nothing was written' "$work/err.log" && ok || bad "$name: summary: $(cat "$work/err.log")"
  grep -q '^cimport: imported' "$work/err.log" && bad "$name: claims an import: $(cat "$work/err.log")" || ok
  [ "$(sums)" = "$before" ] && ok || bad "$name: files changed: $(diff <(echo "$before") <(sums))"
  [ -z "$(leftovers)" ] && ok || bad "$name: left behind: $(leftovers)"
}
readonly_dir() {
  if [ "$(id -u)" = 0 ]; then
    mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && mounts+=("$1")
  else
    chmod a-w "$1"
  fi
}

# Sanity: with nothing in the way, the stack, the program and the code file are all written.
fresh
before=$(sums)
run "$CIMPORT" "${imp[@]}" --insert-into index.ts
rc=$?
[ "$rc" = 0 ] && ok || bad "sanity run: exit $rc: $(cat "$work/err.log")"
grep -qF "cimport: imported 4 of 5 resources into stack organization/$PROJ/test" "$work/err.log" && ok || bad "sanity summary: $(cat "$work/err.log")"
grep -qF 'new random.RandomString("server-name"' "$work/w/proj/index.ts" && ok || bad "sanity: program not spliced"
[ "$(sums)" != "$before" ] && ok || bad "sanity: nothing changed"
ls "$state/.pulumi/history/$PROJ/test/" | grep -qE '\.history\.json$' && ok || bad "sanity: no history entry"
[ -z "$(leftovers)" ] && ok || bad "sanity: left behind: $(leftovers)"

# (a) --insert-into a program with a syntax error: refused, the stack untouched.
fresh
printf 'import * as random from "@pulumi/random";\n\nconst first = new random.RandomPet("first", {;\n' >"$work/w/proj/index.ts"
before=$(sums)
run "$CIMPORT" "${imp[@]}" --insert-into index.ts
check "syntax error in the program" $? "$before" 'index.ts'

# (b) the code file in a read-only directory.
fresh
readonly_dir "$work/w/out"
before=$(sums)
run "$CIMPORT" "${imp[@]}" -o ../out/index.ts
check "read-only code directory" $? "$before" 'index.ts'

# (c) a file size limit (1 KiB): the code and the checkpoint are larger.
fresh
before=$(sums)
run bash -c 'ulimit -f 1; trap "" XFSZ; exec "$@"' limit "$CIMPORT" "${imp[@]}" -o ../out/index.ts
check "RLIMIT_FSIZE" $? "$before"

# (d) the code into /dev/full: a device is written last, after the stack; the stack write is undone.
fresh
before=$(sums)
run "$CIMPORT" "${imp[@]}" -o /dev/full
check "/dev/full" $? "$before" '/dev/full'

# (e) the stack config (secret values, a passphrase stack) in a read-only project directory.
fresh
readonly_dir "$work/w/shop"
before=$(sums)
(cd "$work/w/shop" && PULUMI_CONFIG_PASSPHRASE=password "$CIMPORT" random:index/randomPet:RandomPet apiName brave-otter \
  --offline-state "$SS" --schema "$S" --yes -l typescript -o ../out/index.ts >"$work/out.log" 2>"$work/err.log")
check "read-only stack config" $? "$before" 'Pulumi.prod.yaml'
if grep -rqF 'SECRET-VALUE' "$work/w" 2>/dev/null; then bad "a secret left behind"; else ok; fi
# ... and with the directory writable the same run lands in full: config, code and stack.
fresh
(cd "$work/w/shop" && PULUMI_CONFIG_PASSPHRASE=password "$CIMPORT" random:index/randomPet:RandomPet apiName brave-otter \
  --offline-state "$SS" --schema "$S" --yes -l typescript -o ../out/index.ts >"$work/out.log" 2>"$work/err.log")
rc=$?
[ "$rc" = 0 ] && ok || bad "secrets run: exit $rc: $(cat "$work/err.log")"
grep -qF 'shop:apiNameKeepersApiToken' "$work/w/shop/Pulumi.prod.yaml" && grep -qF "RandomPet::apiName" "$state/.pulumi/stacks/shop/prod.json" &&
  grep -qF 'new random.RandomPet("apiName"' "$work/w/out/index.ts" && ok || bad "secrets run: not every output written"

[ -n "${KEEP:-}" ] && { trap - EXIT; echo "kept $work"; }
echo "test_stack_faults: $pass passed, $fail failed"
[ "$fail" = 0 ]

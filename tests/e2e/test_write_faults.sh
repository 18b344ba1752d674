#!/usr/bin/env bash
# test_write_faults.sh — one run, one transaction: each output (code file, spliced program, stack
# state, stack config, secrets file) made unwritable in turn — a read-only directory, a full disk
# (a small tmpfs), a file size limit (RLIMIT_FSIZE) — gives exit 2 with the reason, and no file
# changed, no secret left behind, no temporary or lock file left over.
# Read-only directories and full disks need root (bind mounts, tmpfs); without it they fall back to
# chmod (read-only) or are skipped (full disk), and RLIMIT_FSIZE still runs.
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
mounts=()
cleanup() {
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
  chmod -R u+w "$tmp" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
S="$SHARED_DATA/schemas/random/schema.json"
SS="$SOURCE_DIR/tests/fixtures/cli/secret-stack.json"
KAT='v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=='
can_mount=0
if [ "$(id -u)" = 0 ] && mkdir "$tmp/probe" && mount -t tmpfs -o size=16k tmpfs "$tmp/probe" 2>/dev/null; then
  umount "$tmp/probe" && can_mount=1
fi

# Fresh inputs in $tmp/w: proj/ (cwd: Pulumi.yaml, Pulumi.prod.yaml), code/, prog/, state/, secrets/.
fresh() {
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
  mounts=()
  chmod -R u+w "$tmp/w" 2>/dev/null
  rm -rf "$tmp/w"
  mkdir -p "$tmp/w"/{proj,code,prog,state,secrets}
  printf 'name: shop\nruntime: nodejs\n' >"$tmp/w/proj/Pulumi.yaml"
  printf '# prod\nencryptionsalt: %s\nconfig:\n  aws:region: eu-west-1\n' "$KAT" >"$tmp/w/proj/Pulumi.prod.yaml"
  printf 'export const before = 1;\n' >"$tmp/w/code/index.ts"
  printf 'import * as random from "@pulumi/random";\n\nconst first = new random.RandomPet("first", {});\n' >"$tmp/w/prog/index.ts"
  python3 - "$SS" "$tmp/w/state/stack.json" "${1:-pass}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["deployment"]["resources"] = d["deployment"]["resources"][:1]  # just the stack resource
if sys.argv[3] == "pass":
    d["deployment"]["secrets_providers"] = {"type": "passphrase", "state": {"salt": "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=="}}
json.dump(d, open(sys.argv[2], "w"), indent=4)
PY
  printf '{\n  "older": "value"\n}\n' >"$tmp/w/secrets/cimport-secrets.json"
  chmod 600 "$tmp/w/secrets/cimport-secrets.json"
}
sums() { (cd "$tmp/w" && find . -type f ! -name filler ! -name '*.log' -print0 | sort -z | xargs -0 sha256sum); }
leftovers() { find "$tmp/w" \( -name '*.cimport-tmp-*' -o -name '*.lock' \) ! -name filler; }

# The two kinds of run: with a passphrase (code, stack state, stack config) and without (program,
# stack state with b64, secrets file).
run_pass() {
  (cd "$tmp/w/proj" && PULUMI_CONFIG_PASSPHRASE=password "$@" "$CIMPORT" random:index/randomPet:RandomPet apiName \
    brave-otter --offline-state "$SS" --schema "$S" --stack prod -l typescript -o ../code/index.ts \
    --stack-state ../state/stack.json >"$tmp/run.log" 2>&1)
}
run_nopass() {
  (cd "$tmp/w/proj" && "$@" "$CIMPORT" random:index/randomPet:RandomPet apiName brave-otter --offline-state "$SS" \
    --schema "$S" --stack prod --insert-into ../prog/index.ts --stack-state ../state/stack.json \
    --secrets-provider b64 --secrets-file ../secrets/cimport-secrets.json >"$tmp/run.log" 2>&1)
}

# check NAME: exit 2, a reason naming a file, nothing changed, nothing left behind.
check() {
  local name=$1 rc=$2 before=$3
  [ "$rc" = 2 ] && ok || bad "$name: exit $rc, want 2: $(cat "$tmp/run.log")"
  grep -q '^error: ' "$tmp/run.log" && ok || bad "$name: no reason given: $(cat "$tmp/run.log")"
  grep -qF 'nothing was written' "$tmp/run.log" && ok || bad "$name: summary: $(cat "$tmp/run.log")"
  [ "$(sums)" = "$before" ] && ok || bad "$name: files changed: $(diff <(echo "$before") <(sums))"
  [ -z "$(leftovers)" ] && ok || bad "$name: left behind: $(leftovers)"
  if grep -rqF 'SECRET-VALUE' "$tmp/w" 2>/dev/null; then bad "$name: a secret left behind"; else ok; fi
}

# Sanity: both runs work when nothing is in the way.
fresh
run_pass && ok || bad "passphrase run: $(cat "$tmp/run.log")"
grep -qF 'shop:apiNameKeepersApiToken' "$tmp/w/proj/Pulumi.prod.yaml" && ok || bad "config not written"
fresh nopass
run_nopass && ok || bad "no-passphrase run: $(cat "$tmp/run.log")"
grep -qF '"apiNameKeepersApiToken"' "$tmp/w/secrets/cimport-secrets.json" && grep -qF '"older"' "$tmp/w/secrets/cimport-secrets.json" && ok || bad "secrets file not merged"
grep -qF 'new random.RandomPet("apiName"' "$tmp/w/prog/index.ts" && ok || bad "program not spliced: $(cat "$tmp/w/prog/index.ts")"

readonly_dir() {
  if [ "$can_mount" = 1 ]; then
    mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && mounts+=("$1")
  else
    chmod a-w "$1"
  fi
}
full_disk() {
  local d=$1 keep
  keep=$(mktemp -d)
  cp -a "$d/." "$keep/"
  mount -t tmpfs -o size=64k tmpfs "$d" && mounts+=("$d")
  cp -a "$keep/." "$d/"
  rm -rf "$keep"
  dd if=/dev/zero of="$d/filler" bs=1k count=1024 2>/dev/null # until the disk is full
}

for kind in pass nopass; do
  if [ $kind = pass ]; then dirs="proj code state"; else dirs="prog state secrets"; fi
  for d in $dirs; do
    fresh $kind
    readonly_dir "$tmp/w/$d"
    before=$(sums)
    run_$kind
    check "read-only $d ($kind)" $? "$before"
    if [ "$can_mount" = 1 ]; then
      fresh $kind
      full_disk "$tmp/w/$d"
      before=$(sums)
      run_$kind
      check "full disk in $d ($kind)" $? "$before"
    fi
  done
  # A file size limit (1 KiB): the stack state is the largest output and cannot be written.
  fresh $kind
  before=$(sums)
  run_$kind bash -c 'ulimit -f 1; trap "" XFSZ; exec "$@"' limit
  check "RLIMIT_FSIZE ($kind)" $? "$before"
done
[ "$can_mount" = 1 ] || echo "note: not root or no tmpfs: read-only via chmod, full-disk cases skipped" >&2

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

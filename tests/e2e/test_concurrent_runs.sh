#!/usr/bin/env bash
# test_concurrent_runs.sh — writes that never lose another writer's work: 20 cimport runs started
# together, each merging its own resources into one stack state and one TypeScript program
# (--stack-state, --insert-into): every run exits 0 and every resource is in both files once; then
# the same with runs SIGKILLed at random moments: the files always parse, each killed run's resources
# are in a file completely or not at all, and every run that finished has all of its resources in.
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
tmp=$(mktemp -d)
# No Pulumi backend of the machine: these runs write files only.
export PULUMI_HOME="$tmp/pulumi-home"
unset PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN
trap 'kill -9 $(jobs -p) 2>/dev/null; wait; rm -rf "$tmp"' EXIT
cd "$tmp"
S="$SHARED_DATA/schemas/random/schema.json"
TS="$SOURCE_DIR/tests/peers/node_modules/typescript"
N=20 # runs
K=2  # resources per run

# The recorded cloud: N*K pets; one import file per run.
python3 - "$N" "$K" <<'PY'
import json, sys
n, k = int(sys.argv[1]), int(sys.argv[2])
res = [{"urn": "urn:pulumi:legacy::stress::pulumi:pulumi:Stack::stress-legacy", "custom": False, "type": "pulumi:pulumi:Stack"}]
for r in range(n):
    spec = {"resources": []}
    for j in range(k):
        name = f"pet{r}x{j}"
        res.append({"urn": f"urn:pulumi:legacy::stress::random:index/randomPet:RandomPet::{name}", "custom": True,
                    "id": f"id-{r}-{j}", "type": "random:index/randomPet:RandomPet",
                    "inputs": {"length": 2, "separator": "-"}, "outputs": {"id": f"id-{r}-{j}", "length": 2, "separator": "-"}})
        spec["resources"].append({"type": "random:index/randomPet:RandomPet", "name": name, "id": f"id-{r}-{j}"})
    json.dump(spec, open(f"imp{r}.json", "w"))
json.dump({"version": 3, "deployment": {"manifest": {"time": "2026-11-20T10:00:00Z", "magic": "", "version": ""}, "resources": res}}, open("cloud.json", "w"))
PY

fresh() {
  rm -f state.json index.ts ./*.lock ./*.cimport-tmp-* run*.log
  printf '{\n    "version": 3,\n    "deployment": {\n        "manifest": {"time": "2026-11-20T10:00:00Z", "magic": "", "version": ""},\n        "resources": [\n            {"urn": "urn:pulumi:dev::stress::pulumi:pulumi:Stack::stress-dev", "custom": false, "type": "pulumi:pulumi:Stack"}\n        ]\n    }\n}\n' >state.json
  printf 'import * as random from "@pulumi/random";\n\nexport const started = true;\n' >index.ts
}
# exec: the background job's pid is cimport itself, so SIGKILL hits it and not a shell around it.
run() {
  exec "$CIMPORT" --spec "imp$1.json" --offline-state cloud.json --schema "$S" --stack dev --project stress \
    --insert-into index.ts --stack-state state.json --lock-timeout 120s -q >"run$1.log" 2>&1
}

# For each run: how many of its K resources each file holds (state, program); exits 1 if a file is
# not valid (JSON that Pulumi's deployment shape needs; TypeScript that parses).
count() {
  python3 - "$N" "$K" <<'PY' || return 1
import json, sys
n, k = int(sys.argv[1]), int(sys.argv[2])
d = json.load(open("state.json"))
urns = [r["urn"] for r in d["deployment"]["resources"]]
assert len(urns) == len(set(urns)), "a URN twice"
prog = open("index.ts").read()
for r in range(n):
    s = sum(f"urn:pulumi:dev::stress::random:index/randomPet:RandomPet::pet{r}x{j}" in urns for j in range(k))
    p = sum(prog.count(f'new random.RandomPet("pet{r}x{j}"') for j in range(k))
    print(r, s, p)
PY
  node -e '
    const ts = require(process.argv[1]);
    const f = ts.createSourceFile("index.ts", require("fs").readFileSync("index.ts", "utf8"), ts.ScriptTarget.Latest);
    if (f.parseDiagnostics.length) { console.error("index.ts does not parse:", f.parseDiagnostics[0].messageText); process.exit(1); }' "$TS" || return 1
}

# --- 20 runs at once: all land in full -----------------------------------------------------------
fresh
pids=()
t0=$(date +%s%N)
for r in $(seq 0 $((N - 1))); do (run "$r") & pids+=($!); done
codes=""
for p in "${pids[@]}"; do wait "$p"; codes="$codes $?"; done
span_ms=$((($(date +%s%N) - t0) / 1000000)) # how long 20 runs take here: kills are spread over it
echo "20 concurrent runs: ${span_ms} ms" >&2
[ -z "$(echo "$codes" | tr -d ' 0')" ] && ok || bad "exit codes:$codes $(cat run*.log | head -20)"
if count >counts.txt; then
  ok
  awk -v k=$K '$2 != k || $3 != k { bad = 1; print "run " $1 ": " $2 " in the state, " $3 " in the program" } END { exit bad }' counts.txt >&2 && ok || bad "resources lost"
else
  bad "files not valid after concurrent runs"
fi
[ -z "$(ls ./*.lock ./*.cimport-tmp-* 2>/dev/null)" ] && ok || bad "left behind: $(ls ./*.lock ./*.cimport-tmp-* 2>/dev/null)"

# --- the same under SIGKILL at random moments ------------------------------------------------------
for round in 1 2 3; do
  fresh
  pids=()
  for r in $(seq 0 $((N - 1))); do (run "$r") & pids+=($!); done
  # Kill about half of them, each at a random moment of the time all 20 took above.
  killed=()
  for r in $(seq 0 $((N - 1))); do
    if [ $((RANDOM % 2)) = 0 ]; then
      ms=$((RANDOM * RANDOM % (span_ms + 1)))
      (sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"; kill -9 "${pids[$r]}" 2>/dev/null) &
      killed+=("$r")
    fi
  done
  rcs=()
  for r in $(seq 0 $((N - 1))); do wait "${pids[$r]}"; rcs[$r]=$?; done
  wait
  if ! count >counts.txt; then bad "round $round: a torn file"; continue; fi
  ok
  # Whole or nothing per run and file; a run that exited 0 has everything in both.
  landed=0 lost=0 finished=0
  for r in $(seq 0 $((N - 1))); do
    read -r _ s p < <(grep "^$r " counts.txt)
    if [ "${rcs[$r]}" = 0 ]; then
      finished=$((finished + 1))
      [ "$s" = $K ] && [ "$p" = $K ] || bad "round $round: run $r exited 0 but has $s/$p of $K"
    else
      [ "${rcs[$r]}" = 137 ] || bad "round $round: run $r exit ${rcs[$r]}: $(cat "run$r.log")"
      if [ "$s" = $K ]; then landed=$((landed + 1)); else lost=$((lost + 1)); fi
      { [ "$s" = 0 ] || [ "$s" = $K ]; } && { [ "$p" = 0 ] || [ "$p" = $K ]; } || bad "round $round: killed run $r half-merged: $s/$p of $K"
    fi
  done
  ok
  echo "round $round: $finished finished; killed: $landed after landing, $lost before" >&2
  # A later run is not blocked by what killed runs left (their locks died with them).
  (run 0) && ok || bad "round $round: a run after the kills failed: $(cat run0.log)"
  # ... and it cleared what killed runs left beside the files it holds the locks of.
  [ -z "$(ls ./*.cimport-tmp-* 2>/dev/null)" ] && ok || bad "round $round: temporary files left: $(ls ./*.cimport-tmp-*)"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

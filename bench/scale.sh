#!/usr/bin/env bash
# scale.sh — issue 17's figures through the real CLI, on inputs generated from ../shared/data by
# bench/gen_scale.py (nothing large is committed). Run by `bench/run.sh scale` after the Release
# build; prints markdown rows for bench/RESULTS.md.
#
#   SCALE_N=100000        resources in the synthetic stack export
#   SCALE_SCHEMA_MB=200   size of the synthetic schema
#   SCALE_1M=1            also the 1,000,000-resource run (1.8 GB export, minutes)
#   BASELINE=path         an older cimport binary to run the same commands with (ratios in one run)
#   SCALE_DIR=dir         where the inputs go (default: a temporary directory, removed at the end)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${BUILD_DIR:-build-bench}
C=$PWD/$B/cimport
DATA=$PWD/../shared/data
N=${SCALE_N:-100000}
MB=${SCALE_SCHEMA_MB:-200}
if [ -n "${SCALE_DIR:-}" ]; then W=$SCALE_DIR; mkdir -p "$W"; else W=$(mktemp -d); trap 'rm -rf "$W"' EXIT; fi
export XDG_CACHE_HOME=$W/cache
SCH=()
for p in random tls command digitalocean azuread; do SCH+=(--schema "$DATA/schemas/$p"); done

# One timed command: prints "wall user sys rss_mb" into $T (its last line: /usr/bin/time puts "Command
# exited with non-zero status N" first). Exit 1 is a run that finished with some resources refused (the
# code's `import` option cannot import types without an importer, e.g. RandomPet): measured, and the row
# says so; any other failure stops the bench.
T=$W/time.txt
RC=0
timed() {
  RC=0
  /usr/bin/time -f "%e %U %S %M" -o "$T" "$@" >/dev/null 2>"$W/stderr.txt" || RC=$?
  [ "$RC" -le 1 ] || { cat "$W/stderr.txt" >&2; return 1; }
}
row() {
  local what=$1
  [ "$RC" = 0 ] || what="$what (exit $RC: $({ grep '^cimport:' "$W/stderr.txt" || true; } | tail -1 | cut -c10-100 | tr '|' '/'))"
  tail -1 "$T" | awk -v what="$what" '{printf "| %s | %.2f s | %.2f s | %.2f s | %.0f MB |\n", what, $1, $2, $3, $4/1024}'
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "### $N resources: stack export -> import -> code (offline, --secrets literal)"
python3 bench/gen_scale.py export "$N" "$W/export.json"
echo
echo "| run | wall | user | sys | peak RSS |"
echo "|---|---|---|---|---|"
for bin in ${BASELINE:+"$BASELINE"} "$C"; do
  tag=$([ "$bin" = "$C" ] && echo "" || echo "baseline ")
  timed "$bin" convert --from pulumi "$W/export.json" -o "$W/imports.json" -q
  row "${tag}\`convert --from pulumi\` (export → import file)"
done
echo
echo "export: $(du -m "$W/export.json" | cut -f1) MB; import file: $(du -m "$W/imports.json" | cut -f1) MB"
echo
echo "| run | wall | user | sys | peak RSS |"
echo "|---|---|---|---|---|"
for bin in ${BASELINE:+"$BASELINE"} "$C"; do
  tag=$([ "$bin" = "$C" ] && echo "" || echo "baseline ")
  for lang in pcl typescript; do
    for rep in 1 2; do
      timed "$bin" --spec "$W/imports.json" --offline-state "$W/export.json" "${SCH[@]}" -l $lang -o "$W/out.$lang" --secrets literal -q
      row "${tag}$lang (run $rep)"
    done
  done
done
# One command from the export (what a user migrating a stack runs): convert and import together.
for bin in ${BASELINE:+"$BASELINE"} "$C"; do
  tag=$([ "$bin" = "$C" ] && echo "" || echo "baseline ")
  timed "$bin" --from pulumi "$W/export.json" --offline-state "$W/export.json" "${SCH[@]}" -l typescript \
    -o "$W/out.from" --secrets literal -q
  row "${tag}typescript, one command (\`--from pulumi\`)"
done
timed "$C" --spec "$W/imports.json" --offline-state "$W/export.json" "${SCH[@]}" -l typescript -o "$W/out.ts2" \
  --secrets-dir "$W/secrets" -q
row "typescript, default --secrets config"
echo "code: PCL $(du -m "$W/out.pcl" | cut -f1) MB, TypeScript $(du -m "$W/out.typescript" | cut -f1) MB"

if [ "${SCALE_1M:-}" = 1 ]; then
  echo
  echo "### 1,000,000 resources (PCL)"
  python3 bench/gen_scale.py export 1000000 "$W/export1m.json"
  timed "$C" convert --from pulumi "$W/export1m.json" -o "$W/imports1m.json" -q --max-input-size 4G
  row "\`convert --from pulumi\`, 1M"
  timed "$C" --spec "$W/imports1m.json" --offline-state "$W/export1m.json" "${SCH[@]}" -l pcl -o "$W/out1m.pcl" --secrets literal -q
  row "pcl, 1M"
  echo "code: $(du -m "$W/out1m.pcl" | cut -f1) MB"
  rm -f "$W/export1m.json" "$W/imports1m.json" "$W/out1m.pcl"
fi
rm -f "$W/export.json" "$W/imports.json" "$W"/out.*

echo
echo "### One resource from a ${MB} MB schema (CLI, offline, TypeScript)"
python3 bench/gen_scale.py schema "$MB" "$W/big.json"
copy=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['resources']; print(max(int(k.split(':')[1].split('x')[0][3:]) for k in r if 'xrandom/' in k))" "$W/big.json")
id=$(python3 bench/gen_scale.py pet "$copy" "$W/pet.json")
TYPE="big:big${copy}xrandom/index_randomPet:RandomPet"
echo "schema: $(du -m "$W/big.json" | cut -f1) MB; resource $TYPE (the last copy: the scan covers the file)"
echo
echo "| run | wall | user | sys | peak RSS |"
echo "|---|---|---|---|---|"
for bin in ${BASELINE:+"$BASELINE"} "$C"; do
  tag=$([ "$bin" = "$C" ] && echo "" || echo "baseline ")
  for rep in 1 2; do
    CIMPORT_NO_SCHEMA_CACHE=1 timed "$bin" "$TYPE" pet "$id" --offline-state "$W/pet.json" --schema "$W/big.json" -l typescript -q
    row "${tag}cold, no cache (run $rep)"
  done
done
rm -rf "$W/cache"
timed "$C" "$TYPE" pet "$id" --offline-state "$W/pet.json" --schema "$W/big.json" -l typescript -q
row "cold, writes the cache entry"
for rep in 1 2 3; do
  timed "$C" "$TYPE" pet "$id" --offline-state "$W/pet.json" --schema "$W/big.json" -l typescript -q
  row "warm (run $rep)"
done
# Bad big input: the same schema cut in half must be refused with the line, nothing written.
head -c $(( $(stat -c %s "$W/big.json") / 2 )) "$W/big.json" > "$W/cut.json"
rm -rf "$W/cache"
set +e
/usr/bin/time -f "%e %U %S %M" -o "$T" "$C" "$TYPE" pet "$id" --offline-state "$W/pet.json" --schema "$W/cut.json" \
  -l typescript -o "$W/cut.ts" -q 2>"$W/cut.err"
rc=$?
set -e
echo
echo "schema cut in half: exit $rc, $(test -e "$W/cut.ts" && echo "code WRITTEN" || echo "nothing written"), $(tail -1 "$T" | awk '{printf "%.2f s CPU, %.0f MB", $2+$3, $4/1024}'): $(head -c 300 "$W/cut.err")"
rm -f "$W/cut.json"
echo
echo "Every resource of that schema resolved (in-process, medians of 3):"
echo
echo "| run | wall | peak RSS | |"
echo "|---|---|---|---|"
"$B/bench/bench_scale_schema" "$W/big.json" 3
rm -f "$W/big.json"

echo
echo "### Parallel import of $N resources against a 1 ms provider, parallel 64"
BENCH_LATENCY_MS=1 "$B/bench/bench_parallel" "$N"

echo
echo "### Splice 1,000 resources into a 100,000-line program"
BENCH_SPLICE_LINES=100000 BENCH_SPLICE_RESOURCES=1000 "$B/bench/bench_splice" 1 || true
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

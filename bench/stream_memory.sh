#!/usr/bin/env bash
# stream_memory.sh — issue 17: how peak RSS grows with the number of resources for plain PCL output
# (`-l pcl -o FILE`, the path whose program is printed as it is generated), beside the code it
# writes. For each N: bench/gen_scale.py's export, its import file from `convert --from pulumi`, then
# bench/scale.sh's command under /usr/bin/time; prints a markdown row per N and the growth per resource
# between the smallest and the largest N (KB of peak RSS a resource, against the bytes of code a
# resource). Nothing large is kept.
#
#   STREAM_N="25000 50000 100000"   the sizes
#   BASELINE=path                   an older cimport to run the same commands with (rows "baseline")
#   BUILD_DIR=build                 where cimport is
#   LANG_OUT=pcl                    the language (typescript: its code is held whole, for comparison)
set -euo pipefail
cd "$(dirname "$0")/.."
C=$PWD/${BUILD_DIR:-build}/cimport
DATA=$PWD/../shared/data
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export XDG_CACHE_HOME=$W/cache
L=${LANG_OUT:-pcl}
SCH=()
for p in random tls command digitalocean azuread; do SCH+=(--schema "$DATA/schemas/$p"); done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| binary | N | peak RSS (MiB) | user | code written (MiB) | RSS / resource | code / resource |"
echo "|---|---|---|---|---|---|---|"
declare -A first last
for n in ${STREAM_N:-25000 50000 100000}; do
  python3 bench/gen_scale.py export "$n" "$W/export.json"
  # exit 1 with warnings (secret outputs an import file cannot mark): the file is what counts
  "$C" convert --from pulumi "$W/export.json" -o "$W/imports.json" -q --max-input-size 4G 2>/dev/null ||
    [ -s "$W/imports.json" ] || { echo "convert --from pulumi failed at N=$n" >&2; exit 1; }
  for bin in ${BASELINE:+"$BASELINE"} "$C"; do
    tag=$([ "$bin" = "$C" ] && echo "this" || echo "baseline")
    rm -f "$W/out"
    /usr/bin/time -f "%M %U" -o "$W/time.txt" "$bin" --spec "$W/imports.json" --offline-state "$W/export.json" \
      "${SCH[@]}" -l "$L" -o "$W/out" --secrets literal -q --max-input-size 4G 2>/dev/null || true
    # the last line: a run that exits non-zero has "Command exited with non-zero status 1" above it
    read -r kb user < <(tail -n 1 "$W/time.txt")
    bytes=$(stat -c %s "$W/out")
    awk -v t="$tag" -v n="$n" -v kb="$kb" -v u="$user" -v b="$bytes" 'BEGIN {
      printf "| %s | %d | %.1f | %.2f s | %.1f | %.2f KB | %.2f KB |\n", t, n, kb/1024, u, b/1048576, kb/n, b/1024/n }'
    [ -n "${first[$tag]:-}" ] || first[$tag]="$n $kb $bytes"
    last[$tag]="$n $kb $bytes"
  done
  rm -f "$W/export.json" "$W/imports.json" "$W/out"
done
echo
for tag in "${!last[@]}"; do
  read -r n0 kb0 b0 <<< "${first[$tag]}"
  read -r n1 kb1 b1 <<< "${last[$tag]}"
  awk -v t="$tag" -v n0="$n0" -v n1="$n1" -v k0="$kb0" -v k1="$kb1" -v b0="$b0" -v b1="$b1" 'BEGIN {
    if (n1 == n0) exit
    printf "%s: peak RSS grows %.2f KB a resource from %d to %d resources; the code %.2f KB a resource\n", t,
      (k1 - k0) / (n1 - n0), n0, n1, (b1 - b0) / 1024 / (n1 - n0) }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

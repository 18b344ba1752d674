#!/usr/bin/env bash
# hung_provider.sh — what one hung provider call costs (issue 15): 1,000 resources of the fault
# provider (a real plugin process on Pulumi's Node.js host, examples/providers/fault), once all
# well-behaved and once with resource #500's Read hanging forever, with --timeout DEADLINE. The
# hung run should take at most DEADLINE + the clean run's time and import 999.
#
#   bench/hung_provider.sh [CIMPORT] [DEADLINE_SECONDS]     defaults: build/cimport, 10
set -euo pipefail
cd "$(dirname "$0")/.."
cimport=$(realpath "${1:-build/cimport}")
deadline=${2:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec %s "$@"\n' "$PWD/examples/providers/fault/pulumi-resource-fault" >"$work/bin/pulumi-resource-fault"
chmod +x "$work/bin/pulumi-resource-fault"
export PULUMI_HOME="$work/home" XDG_CACHE_HOME="$work/cache" PATH="$work/bin:$PATH"
python3 - "$work" <<'PY'
import json, sys
r = [{"type": "fault:index:Thing", "name": "r%d" % i, "id": "ok-%d" % i} for i in range(1000)]
json.dump({"resources": r}, open(sys.argv[1] + "/clean.json", "w"))
r[500]["id"] = "hang"
json.dump({"resources": r}, open(sys.argv[1] + "/hung.json", "w"))
PY
echo "machine: $(nproc) cores, $(uname -sr), $(date -u +%F), deadline ${deadline}s"
for kind in clean hung; do
  start=$(date +%s%N)
  rc=0
  (cd "$work" && "$cimport" --spec "$kind.json" -l typescript --timeout "${deadline}s" -q >"$kind.ts" 2>"$kind.err") || rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  echo "$kind: $ms ms, exit $rc, $(grep -c 'new fault.Thing' "$work/$kind.ts") of 1000 imported"
done

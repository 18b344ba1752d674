#!/usr/bin/env bash
# run.sh — builds the benchmarks in an optimized build and runs them. Figures go to stdout; copy
# them into bench/RESULTS.md with the date and the machine.
#
#   bench/run.sh [name...]     e.g. bench/run.sh import schema; `scale` and `stream` run the CLI scripts
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr), $(date -u +%F)"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for b in build-bench/bench/bench_*; do names+=("$(basename "$b" | sed 's/^bench_//')"); done
fi
for n in "${names[@]}"; do
  if [ "$n" = stream ]; then
    echo "== stream (bench/stream_memory.sh: peak RSS against N for -l pcl -o, through the CLI)"
    BUILD_DIR=build-bench bench/stream_memory.sh
    continue
  fi
  if [ "$n" = scale ]; then
    echo "== scale (bench/scale.sh: 100k resources, 200 MB schema, through the CLI)"
    bench/scale.sh
    continue
  fi
  echo "== bench_$n"
  ./build-bench/bench/bench_"$n"
done

#!/usr/bin/env bash
# fuzz.sh — builds the libFuzzer targets (fuzz/, clang, ASan+UBSan, build-fuzz/) and runs them.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]     default: all, 60 seconds per target
#   scripts/fuzz.sh --list                     the target names
#
# Each run starts from a seed corpus generated from ../shared/data and tests/fixtures
# (fuzz/seeds.py; nothing of it is committed) plus the target's saved corpus in build-fuzz/corpus.
# Crashers kept in fuzz/regressions/TARGET/ are replayed first and must pass. A crash, leak, UBSan
# report or timeout fails the run (exit 1): the input is saved in build-fuzz/artifacts/TARGET/ —
# copy it into fuzz/regressions/TARGET/ once fixed. Prints one line per target with the seed,
# executions, coverage and features (FUZZ_LOG=FILE appends them).
#
# Replaying a run: every run uses a random seed, printed in its line ("seed 1234"); FUZZ_SEED=1234
# gives libFuzzer that seed (-seed) for every target. The same seed from the same starting corpus
# (CI starts from the seeds alone: a fresh build-fuzz/, or rm -r build-fuzz/corpus/TARGET) makes the
# same mutations in the same order for as long as the coverage the target reports is the same: two
# 3-second fuzz_mapping runs matched for their first ~4,400 executions, then drifted apart. The
# failing input itself is always kept in build-fuzz/artifacts/TARGET/ and replays exactly with
# build-fuzz/fuzz/fuzz_TARGET FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
all=(importfile schema stackstate tfstate mapping pcl pbvalue h2 lsp
     splice_typescript splice_python splice_go splice_csharp splice_java splice_yaml)
if [ "${1:-}" = "--list" ]; then printf '%s\n' "${all[@]}"; exit 0; fi
target=${1:-all}
seconds=${2:-60}
if [ "$target" = all ]; then targets=("${all[@]}"); else targets=("$target"); fi
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (see --list)" >&2; exit 2; }
done
if [ -n "${FUZZ_SEED:-}" ] && ! [[ "$FUZZ_SEED" =~ ^[1-9][0-9]{0,8}$ ]]; then
  echo "fuzz.sh: FUZZ_SEED must be a number from 1 to 999999999, not '$FUZZ_SEED'" >&2
  exit 2
fi
command -v clang >/dev/null || { echo "fuzz.sh: clang is needed (scripts/setup.sh installs it)" >&2; exit 2; }

build=${FUZZ_BUILD_DIR:-build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCIMPORT_FUZZ=ON >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=0
for t in "${targets[@]}"; do
  bin="$build/fuzz/fuzz_$t"
  corpus="$build/corpus/$t"
  seeds="$build/seeds/$t"
  art="$build/artifacts/$t"
  mkdir -p "$corpus" "$art"
  rm -rf "$seeds"
  python3 fuzz/seeds.py "$t" "$seeds" "$src" 2>/dev/null
  # Saved crashers must not crash any more.
  if [ -d "fuzz/regressions/$t" ] && compgen -G "fuzz/regressions/$t/*" >/dev/null; then
    if ! "$bin" -runs=0 fuzz/regressions/"$t"/* >"$art/regressions.log" 2>&1; then
      echo "fuzz.sh: $t: a saved regression input fails again (see $art/regressions.log)" >&2
      failed=1
      continue
    fi
  fi
  log="$art/run.log"
  rc=0
  # Chosen here rather than by libFuzzer so the line below can name it whatever happens to the run
  # (libFuzzer treats 0 as "pick one").
  seed=${FUZZ_SEED:-$((($(od -An -N4 -tu4 /dev/urandom) % 999999999) + 1))}
  # -timeout: one input taking longer than 10 s is a hang; -rss_limit_mb: memory blow-ups.
  "$bin" -seed="$seed" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$art/" "$corpus" "$seeds" >"$log" 2>&1 || rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
  line="fuzz $t: ${seconds}s, seed $seed, ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, exit $rc"
  echo "$line" >&2
  [ -n "${FUZZ_LOG:-}" ] && echo "$line" >>"$FUZZ_LOG"
  if [ "$rc" -ne 0 ]; then
    echo "fuzz.sh: $t found a problem (exit $rc); input in $art/, log $log; replay the run with" \
      "FUZZ_SEED=$seed scripts/fuzz.sh $t $seconds (same starting corpus):" >&2
    grep -m1 -A12 'ERROR\|runtime error\|SUMMARY\|Timeout\|out-of-memory' "$log" >&2 || tail -20 "$log" >&2
    failed=1
  fi
done
exit $failed

#!/usr/bin/env bash
# test.sh — sets everything up, checks that every C file is formatted (scripts/format.sh --check),
# and runs the whole test suite twice: a normal build (then the golden outputs, and clang-tidy
# over the tree, scripts/tidy.sh, on that build's compile_commands.json) and an
# AddressSanitizer + UndefinedBehaviorSanitizer build; then every libFuzzer target (fuzz/) for a
# bounded time (CIMPORT_FUZZ_SECONDS each, default 15: about 4 minutes). Exits non-zero if any test
# fails, a file is not formatted, an output differs from the manifest, clang-tidy has a finding, or a
# fuzzer finds a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
echo "== clang-format over the tree (.clang-format; an unformatted file fails CI)" >&2
scripts/format.sh --check
jobs=$(nproc)
run_suite() {
  local dir=$1; shift
  cmake -S . -B "$dir" "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
  (cd "$dir" && ctest --output-on-failure -j"$jobs")
}
echo "== normal build" >&2
run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo
echo "== the outputs against the committed manifest (tests/golden/manifest.tsv)" >&2
# Every exit code, stdout, stderr and written file of 650 runs over the fixtures and a tenth of the
# shared data, byte for byte: a change that alters output must update the manifest in the same
# commit (scripts/golden-check.sh --quick --out tests/golden/manifest.tsv), so the diff shows it.
scripts/golden-check.sh --cimport build/cimport --quick --compare tests/golden/manifest.tsv
echo "== clang-tidy over the tree (.clang-tidy; any finding fails CI)" >&2
scripts/tidy.sh --build build
echo "== ASan + UBSan build" >&2
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DCIMPORT_SANITIZE=ON
echo "== fuzz targets (bounded: ${CIMPORT_FUZZ_SECONDS:-15} s each; a crash fails CI)" >&2
scripts/fuzz.sh all "${CIMPORT_FUZZ_SECONDS:-15}"
echo "test.sh: all tests passed (formatting, normal and sanitizer builds, golden outputs, clang-tidy, fuzz targets)" >&2

#!/usr/bin/env bash
# pcl_conformance.sh — the conformance table: every program of ../shared/data/pcl-conformance through
# `convert --from pcl`'s front end and all six emitters; per program and language `--` refused,
# `ok` accepted, `eq` accepted and equivalent to Pulumi's own output (TS/Python/Go only); then
# accepted and equivalent counts and the refusals by the construct that blocks them. The test's
# checks run first: accepted TypeScript passes tsc --strict, Go gofmt, Python py_compile/pyflakes,
# C# and Java parse (tree-sitter), Java compiles with javac against pulumi-java's API surface
# (tests/peers/java: our own classes with pulumi-java's signatures, not the real jar, and the test
# providers' classes fixtures/conformance/javastubs.js derives from their schemas), YAML loads.
#
#   bench/pcl_conformance.sh [build-dir]      (default: build; builds test_pcl_conformance first)
# Set CIMPORT_CONFORMANCE_DUMP=DIR to also write every accepted output under DIR/<lang>/<program>/.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
[ -d "$dir" ] || cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j"$(nproc)" --target test_pcl_conformance >/dev/null
CK_FORK=no CIMPORT_CONFORMANCE_TABLE=1 "./$dir/tests/test_pcl_conformance" | grep -v '^Running suite'

#!/usr/bin/env bash
# quickstart.sh — sets everything up, builds cimport, and runs the main job on the bundled example:
# five resources imported from a recorded stack (no cloud account needed), printed as PCL and as
# TypeScript.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target cimport >/dev/null
ex=examples/quickstart
schema=../shared/data/schemas/random/schema.json
[ -f "$schema" ] || { echo "quickstart: $schema not found: clone the project with shared/ beside it" >&2; exit 2; }
echo "== cimport --spec $ex/imports.json --offline-state $ex/stack.json --schema $schema --language pcl" >&2
./build/cimport --spec "$ex/imports.json" --offline-state "$ex/stack.json" --schema "$schema" \
  --language pcl --secrets-dir "$(mktemp -d)/secrets"
echo >&2
echo "== the same, as TypeScript" >&2
./build/cimport --spec "$ex/imports.json" --offline-state "$ex/stack.json" --schema "$schema" \
  --language typescript --secrets-dir "$(mktemp -d)/secrets" --quiet

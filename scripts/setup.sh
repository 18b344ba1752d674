#!/usr/bin/env bash
# setup.sh — installs everything cimport needs on a bare Debian 12 machine (run as root, or with
# sudo available). Idempotent: packages already present are not reinstalled.
#
#   scripts/setup.sh            build dependencies only
#   scripts/setup.sh --tests    also the test peers (Node.js packages pinned by package-lock.json files)
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
[ "${1:-}" = "--tests" ] && with_tests=1

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup.sh: run as root (or install sudo)" >&2; exit 2; }
  SUDO="sudo"
fi

packages=(build-essential cmake pkg-config git ca-certificates
  libcjson-dev libyaml-dev libnghttp2-dev libprotobuf-c-dev protobuf-c-compiler libprotobuf-dev
  libcurl4-openssl-dev libtree-sitter-dev libgit2-dev check python3
  libpq-dev libssl-dev zlib1g-dev
  clang libclang-rt-14-dev) # clang + its sanitizer/libFuzzer runtime: scripts/fuzz.sh (fuzz/)
if [ "$with_tests" = 1 ]; then
  # Test peers: gofmt and grpc-go for the interop provider, Neovim as an LSP client, PostgreSQL,
  # pyflakes over generated Python (a name used and never defined).
  packages+=(golang-go golang-google-grpc-dev golang-google-protobuf-dev protoc-gen-go protoc-gen-go-grpc
    protobuf-compiler neovim postgresql postgresql-contrib valgrind tmux python3-pyflakes)
  # Headless Chromium opens the import report in tests/e2e/test_report.sh and bench/bench_report.c.
  packages+=(chromium)
  # javac compiles the Java the conformance test accepts against tests/peers/java (test_pcl_conformance).
  packages+=(openjdk-17-jdk-headless)
  # Lint (scripts/lint.sh): clang-format and clang-tidy on the lines a change touches.
  packages+=(clang-format clang-tidy)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm fetch grammar sources at build time (and run the test peers). A machine may already
# have a Node.js build of its own (with npm inside); Debian's npm package conflicts with those.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=(nodejs npm)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$with_tests" = 1 ]; then
  for dir in tests/peers examples/providers; do
    if [ -f "$dir/package-lock.json" ]; then
      # npm ci is skipped when node_modules already matches the lock file.
      stamp="$dir/node_modules/.cimport-lock-sha"
      want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
      if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "setup.sh: npm ci in $dir" >&2
        (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
        echo "$want" > "$stamp"
      fi
    fi
  done
fi
echo "setup.sh: ready" >&2

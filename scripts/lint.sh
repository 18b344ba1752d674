#!/usr/bin/env bash
# lint.sh — clang-format and clang-tidy on the lines a change touches.
#
# The whole tree is formatted and clang-tidy clean, and CI keeps it so (scripts/format.sh --check,
# scripts/tidy.sh); this is the quick check before a commit, of only what a change adds or edits:
# the C lines that differ from BASE (committed, staged and unstaged changes, and new files not yet
# added) must be formatted as .clang-format says and raise no .clang-tidy warning.
#
# Usage: scripts/lint.sh [BASE] [--build DIR] [--fix]
#   BASE         the commit to compare with (default: the merge base of HEAD and main)
#   --build DIR  a configured build directory with compile_commands.json (default: build)
#   --fix        apply clang-format's changes to those lines instead of failing on them
#
# Exit: 0 clean; 1 formatting or clang-tidy findings (printed); 2 bad usage or tools missing.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=""
BUILD=build
FIX=0
while [ $# -gt 0 ]; do
    case "$1" in
    --build) BUILD=${2:?--build needs a directory}; shift 2 ;;
    --fix) FIX=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "lint.sh: unknown option '$1'" >&2; exit 2 ;;
    *) BASE=$1; shift ;;
    esac
done

find_tool() { # name: the unversioned tool, else the newest versioned one
    local t
    for t in "$1" "$1"-{19,18,17,16,15,14}; do
        if command -v "$t" >/dev/null; then echo "$t"; return; fi
    done
    for t in "$1".py "$1"-{19,18,17,16,15,14}.py; do
        if command -v "$t" >/dev/null; then echo "$t"; return; fi
    done
}
FORMAT_DIFF=$(find_tool clang-format-diff)
TIDY_DIFF=$(find_tool clang-tidy-diff)
TIDY=$(find_tool clang-tidy)
if [ -z "$FORMAT_DIFF" ] || [ -z "$TIDY_DIFF" ] || [ -z "$TIDY" ]; then
    echo "lint.sh: clang-format-diff, clang-tidy-diff and clang-tidy are needed (Debian: clang-format clang-tidy)" >&2
    exit 2
fi
if [ -z "$BASE" ]; then
    BASE=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
fi
git rev-parse --verify -q "$BASE^{commit}" >/dev/null || { echo "lint.sh: no commit '$BASE'" >&2; exit 2; }
if [ ! -f "$BUILD/compile_commands.json" ]; then
    echo "lint.sh: $BUILD/compile_commands.json is missing; configure first (cmake -S . -B $BUILD)" >&2
    exit 2
fi

# The change as one zero-context diff: tracked files against BASE, then untracked new C files whole.
# Generated and fetched code (the build directories) is never part of it.
change=$(mktemp)
trap 'rm -f "$change" "$change.fmt" "$change.tidy"' EXIT
git diff -U0 --no-color --diff-filter=ACMR "$BASE" -- '*.c' '*.h' >"$change"
git ls-files --others --exclude-standard -- '*.c' '*.h' | while read -r f; do
    git diff -U0 --no-color --no-index /dev/null "$f" || true
done >>"$change"

if [ ! -s "$change" ]; then
    echo "lint.sh: no C lines changed since $(git rev-parse --short "$BASE")" >&2
    exit 0
fi
files=$(grep -c '^+++ ' "$change" || true)
status=0

# clang-format: only the changed lines (clang-format-diff formats the ranges the diff names).
if [ "$FIX" = 1 ]; then
    "$FORMAT_DIFF" -p1 -i <"$change"
else
    "$FORMAT_DIFF" -p1 <"$change" >"$change.fmt" || true
    if [ -s "$change.fmt" ]; then
        echo "lint.sh: clang-format would change these lines (scripts/lint.sh --fix applies it):" >&2
        cat "$change.fmt" >&2
        status=1
    fi
fi

# clang-tidy: warnings on changed lines only (.clang-tidy makes every enabled check an error).
"$TIDY_DIFF" -p1 -path "$BUILD" -clang-tidy-binary "$(command -v "$TIDY")" -quiet -j "$(nproc 2>/dev/null || echo 2)" \
    <"$change" >"$change.tidy" 2>/dev/null || true
if grep -qE '(warning|error): ' "$change.tidy"; then
    echo "lint.sh: clang-tidy findings on changed lines:" >&2
    grep -vE '^[0-9]+ warnings? (generated|treated)|^Suppressed |^Use -header-filter|^Running clang-tidy|^$' "$change.tidy" >&2 || true
    status=1
fi

if [ "$status" = 0 ]; then
    echo "lint.sh: $files changed C file(s) since $(git rev-parse --short "$BASE"): clang-format and clang-tidy clean" >&2
fi
exit "$status"

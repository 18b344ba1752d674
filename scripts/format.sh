#!/usr/bin/env bash
# format.sh — clang-format (.clang-format) over every C file of the project.
#
# The whole tree is kept formatted, so scripts/test.sh runs `format.sh --check` and CI fails on a
# file that clang-format would change. Checked: the library and front-end folders, tests, benches
# and fuzzers (every tracked *.c and *.h there); not the fetched tree-sitter grammars or the
# generated protobuf code (neither is tracked).
#
# Usage: scripts/format.sh [--check]
#   (none)    rewrite every file as clang-format says
#   --check   change nothing; list the files that differ and how many lines, exit 1 if any
#
# Exit: 0 formatted; 1 (--check) files differ; 2 bad usage or clang-format missing.
set -euo pipefail
cd "$(dirname "$0")/.."

CHECK=0
case "${1:-}" in
"") ;;
--check) CHECK=1 ;;
-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
*) echo "format.sh: unknown option '$1'" >&2; exit 2 ;;
esac

FMT=""
for t in clang-format clang-format-{19,18,17,16,15,14}; do
    if command -v "$t" >/dev/null; then FMT=$t; break; fi
done
[ -n "$FMT" ] || { echo "format.sh: clang-format is needed (Debian: clang-format)" >&2; exit 2; }

FOLDERS='base|specs|importer|pcl|emitters|splice|migrate|stacks|session|lsp|report|cli|tests|bench|fuzz'
mapfile -t files < <(git ls-files -- '*.c' '*.h' | grep -E "^($FOLDERS)/")
[ ${#files[@]} -gt 0 ] || { echo "format.sh: no source files found" >&2; exit 2; }

if [ "$CHECK" = 0 ]; then
    "$FMT" --style=file -i "${files[@]}"
    echo "format.sh: ${#files[@]} files formatted" >&2
    exit 0
fi
bad=0
for f in "${files[@]}"; do
    n=$("$FMT" --style=file "$f" | diff "$f" - | grep -c '^[<>]' || true)
    if [ "$n" -gt 0 ]; then
        echo "format.sh: $f: $n lines differ from .clang-format" >&2
        bad=$((bad + 1))
    fi
done
if [ "$bad" -gt 0 ]; then
    echo "format.sh: $bad of ${#files[@]} files are not formatted: run scripts/format.sh (or scripts/lint.sh --fix on a change)" >&2
    exit 1
fi
echo "format.sh: ${#files[@]} files, formatted" >&2

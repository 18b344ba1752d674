#!/usr/bin/env bash
# golden-check.sh — proves that a refactor left cimport's output byte-identical.
#
# Runs a built cimport over every test fixture and the shared data, as a user would: stack exports
# and checkpoints (`convert --from pulumi`, then an offline import of the result in every language,
# --json and --stack-state), Terraform states (`convert --from terraform`, then an offline import in
# every language), PCL programs (`convert --from pcl` to every language), import files, and splices
# into the splice fixtures (`--insert-into --diff`). For each run it records the exit code and the
# SHA-256 of stdout, of stderr and of any file written, one line per run, in a manifest:
#
#   <case>\t<exit code>\t<sha256 of stdout>\t<sha256 of stderr>\t<sha256 of the written file or ->
#
# Commands run from a scratch directory with every input named by the same relative path, so the
# manifest does not depend on where the tree or the build lives. The inputs always come from this
# script's tree; only the binary changes between the runs being compared.
#
# Usage:
#   scripts/golden-check.sh [--cimport BIN] [--out MANIFEST] [--compare MANIFEST] [--keep DIR]
#                           [--jobs N] [--quick]
#     --cimport BIN      the binary to check (default: build/cimport)
#     --out MANIFEST     write the manifest there (default: stdout when not comparing)
#     --compare FILE     compare with a manifest recorded earlier (another build or commit): prints
#                        every case whose exit code or output differs; exit 1 if any does
#     --keep DIR         keep every output (DIR/<case>.out, .err, .file) to look at differences
#     --jobs N           runs in parallel (default: the number of CPUs)
#     --quick            a tenth of the Terraform states, stack exports and PCL conformance programs
#                        (the project's own fixtures whole)
#
# Before/after a refactor:
#   git stash; cmake --build build; scripts/golden-check.sh --out /tmp/before.tsv; git stash pop
#   cmake --build build; scripts/golden-check.sh --compare /tmp/before.tsv --keep /tmp/after
# or build the old commit elsewhere (`git archive OLD | tar -x -C /tmp/old`) and pass --cimport.
#
# Exit: 0 manifest written / identical; 1 differences found; 2 bad usage or missing inputs.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${SHARED_DATA:-$ROOT/../shared/data}
CIMPORT=$ROOT/build/cimport
OUT=""
COMPARE=""
KEEP=""
JOBS=$(nproc 2>/dev/null || echo 2)
QUICK=0
LANGS="typescript python go csharp java yaml pcl"

die() {
    echo "golden-check: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
    --cimport) CIMPORT=${2:?--cimport needs a path}; shift 2 ;;
    --out) OUT=${2:?--out needs a path}; shift 2 ;;
    --compare) COMPARE=${2:?--compare needs a manifest}; shift 2 ;;
    --keep) KEEP=${2:?--keep needs a directory}; shift 2 ;;
    --jobs) JOBS=${2:?--jobs needs a number}; shift 2 ;;
    --quick) QUICK=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done

[ -x "$CIMPORT" ] || die "no cimport binary at $CIMPORT (build it, or pass --cimport BIN)"
CIMPORT=$(cd "$(dirname "$CIMPORT")" && pwd)/$(basename "$CIMPORT")
[ -d "$SHARED/schemas" ] || die "the shared data is not at $SHARED (set SHARED_DATA)"
[ -z "$COMPARE" ] || [ -f "$COMPARE" ] || die "no manifest at $COMPARE"
case "$JOBS" in '' | *[!0-9]* | 0) die "--jobs must be a positive number" ;; esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/golden-check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# Every input is reached as src/... or data/... from the scratch directory.
mkdir -p "$WORK/run" "$WORK/res" "$WORK/specs"
ln -s "$ROOT" "$WORK/run/src"
ln -s "$SHARED" "$WORK/run/data"
SCHEMAS=data/schemas

# Lists of inputs, as paths relative to $WORK/run, sorted so the case names are stable.
# rel_find DIR... -- NAME-PATTERN...: regular files under the DIRs whose name matches a pattern.
rel_find() {
    local dirs=() names=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do dirs+=("$1"); shift; done
    shift
    for n in "$@"; do names+=(-o -name "$n"); done
    (cd "$WORK/run" && find -L "${dirs[@]}" -type f \( -false "${names[@]}" \) 2>/dev/null | LC_ALL=C sort)
}
thin() { if [ "$QUICK" = 1 ]; then awk 'NR % 10 == 1'; else cat; fi; }

{
    rel_find data/pulumi-state -- stack.json state.json | thin
    rel_find data/checkpoints src/tests/fixtures/stackstate src/tests/fixtures/cli -- '*.json'
    echo src/examples/quickstart/stack.json
} >"$WORK/exports"
{
    rel_find data/tfstate -- '*.tfstate' '*.json' | thin
    rel_find src/tests/fixtures/convert -- '*.tfstate'
} >"$WORK/tfstates"
{
    rel_find data/pcl-conformance -- '*.pp' | thin
    rel_find src/tests/fixtures -- '*.pp'
} >"$WORK/pcl"
rel_find src/tests/fixtures/importfile -- sample.json sample.yaml >"$WORK/importfiles"
rel_find src/tests/fixtures/splice -- '*.ts' '*.py' '*.go' '*.cs' '*.java' Main.yaml >"$WORK/splices"
: >"$WORK/exports.idx"
: >"$WORK/tfstates.idx"

# A case: <name> <file the command writes, or -> <command...>. Runs in its own directory (so files a
# run writes, such as secrets, never meet another run's), records exit code and hashes.
cat >"$WORK/case.sh" <<'EOF'
#!/usr/bin/env bash
set -u
name=$1 wrote=$2
shift 2
safe=$(printf '%s' "$name" | tr '/ :' '___')
dir=$WORK/cases/$safe
mkdir -p "$dir"
ln -s "$WORK/run/src" "$dir/src"
ln -s "$WORK/run/data" "$dir/data"
ln -s "$WORK/specs" "$dir/specs"
cd "$dir"
if [ "${SPLICE_COPY:-}" != "" ]; then cp "$SPLICE_COPY" "$dir/$(basename "$SPLICE_COPY")"; fi
"$@" >"$dir/.out" 2>"$dir/.err" </dev/null
rc=$?
h() { sha256sum "$1" | cut -c1-64; }
fh=-
if [ "$wrote" != - ]; then
    if [ -f "$wrote" ]; then fh=$(h "$wrote"); else fh=absent; fi
fi
printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$rc" "$(h .out)" "$(h .err)" "$fh" >"$WORK/res/$safe"
if [ -n "$KEEP" ]; then
    cp .out "$KEEP/$safe.out"
    cp .err "$KEEP/$safe.err"
    if [ "$wrote" != - ] && [ -f "$wrote" ]; then cp "$wrote" "$KEEP/$safe.file"; fi
fi
rm -rf "$dir"
EOF
chmod +x "$WORK/case.sh"
export WORK KEEP
[ -z "$KEEP" ] || { mkdir -p "$KEEP"; KEEP=$(cd "$KEEP" && pwd); }
export KEEP

# Runs the cases of a list file (one per line: name, written file, command — tab-separated, the
# command's words separated by \x1f) in parallel.
run_cases() {
    tr '\t' '\n' <"$1" | tr '\n' '\0' | xargs -0 -n 3 -P "$JOBS" bash -c \
        'IFS=$'"'"'\x1f'"'"' read -r -a cmd <<<"$2"; exec "$WORK/case.sh" "$0" "$1" "${cmd[@]}"'
}
US=$'\x1f'
add() { # name written word...
    local name=$1 wrote=$2
    shift 2
    local IFS=$US
    printf '%s\t%s\t%s\n' "$name" "$wrote" "$*"
}
C=$CIMPORT

# Phase 1: conversions to import files (kept in specs/ for phase 2).
: >"$WORK/phase1"
i=0
while read -r f; do
    add "convert-pulumi:$f" - "$C" convert --from pulumi "$f" -o "specs/p$i.json" -q >>"$WORK/phase1"
    echo "$i $f" >>"$WORK/exports.idx"
    i=$((i + 1))
done <"$WORK/exports"
i=0
while read -r f; do
    add "convert-terraform:$f" - "$C" convert --from terraform "$f" --mapping "$SCHEMAS" --schema "$SCHEMAS" \
        -o "specs/t$i.json" -q >>"$WORK/phase1"
    echo "$i $f" >>"$WORK/tfstates.idx"
    i=$((i + 1))
done <"$WORK/tfstates"
run_cases "$WORK/phase1"
# The converted import files themselves are output too.
for s in "$WORK"/specs/*.json; do
    [ -e "$s" ] || continue
    printf 'import-file:%s\t-\t%s\t-\t-\n' "$(basename "$s")" "$(sha256sum "$s" | cut -c1-64)" >"$WORK/res/import-file_$(basename "$s")"
done

# Phase 2: offline imports of what converted, in every language; PCL conversions; import files;
# splices.
: >"$WORK/phase2"
while read -r i f; do
    spec=specs/p$i.json
    [ -s "$WORK/$spec" ] || continue
    for l in $LANGS; do
        add "import:$f:$l" - "$C" --spec "$spec" --offline-state "$f" --schema "$SCHEMAS" -l "$l" -q >>"$WORK/phase2"
    done
    add "import-json:$f" - "$C" --spec "$spec" --offline-state "$f" --schema "$SCHEMAS" -l pcl --json -q >>"$WORK/phase2"
    add "stack-state:$f" merged.json "$C" --spec "$spec" --offline-state "$f" --schema "$SCHEMAS" -l pcl \
        --stack-state merged.json -q >>"$WORK/phase2"
done <"$WORK/exports.idx"
while read -r i f; do
    spec=specs/t$i.json
    [ -s "$WORK/$spec" ] || continue
    for l in $LANGS; do
        add "import:$f:$l" - "$C" --spec "$spec" --offline-state "$f" --schema "$SCHEMAS" -l "$l" -q >>"$WORK/phase2"
    done
done <"$WORK/tfstates.idx"
while read -r f; do
    for l in $LANGS; do
        add "convert-pcl:$f:$l" - "$C" convert --from pcl "$f" -l "$l" --schema "$SCHEMAS" >>"$WORK/phase2"
    done
done <"$WORK/pcl"
while read -r f; do
    for l in $LANGS; do
        add "importfile:$f:$l" - "$C" --spec "$f" --offline-state src/examples/quickstart/stack.json \
            --schema "$SCHEMAS" -l "$l" -q >>"$WORK/phase2"
    done
done <"$WORK/importfiles"
: >"$WORK/phase2-splice"
while read -r f; do
    add "splice:$f" "$(basename "$f")" "$C" --spec src/examples/quickstart/imports.json \
        --offline-state src/examples/quickstart/stack.json --schema "$SCHEMAS" \
        --insert-into "$(basename "$f")" --diff -q >>"$WORK/phase2-splice"
done <"$WORK/splices"
run_cases "$WORK/phase2"
# Splices edit a copy of the fixture in the case's own directory (--diff: it must stay unchanged).
while IFS=$'\t' read -r name wrote cmd; do
    f=${name#splice:}
    printf '%s\t%s\t%s\n' "$name" "$wrote" "$cmd" >"$WORK/one"
    SPLICE_COPY="$ROOT/${f#src/}" run_cases "$WORK/one"
done <"$WORK/phase2-splice"

LC_ALL=C sort "$WORK"/res/* >"$WORK/manifest"
n=$(wc -l <"$WORK/manifest")
echo "golden-check: $n runs of $CIMPORT" >&2

if [ -n "$OUT" ]; then cp "$WORK/manifest" "$OUT"; fi
if [ -n "$COMPARE" ]; then
    if diff <(LC_ALL=C sort "$COMPARE") "$WORK/manifest" >"$WORK/diff"; then
        echo "golden-check: identical to $COMPARE ($n runs)" >&2
        exit 0
    fi
    echo "golden-check: differs from $COMPARE (< recorded, > this build):" >&2
    cat "$WORK/diff" >&2
    exit 1
fi
[ -n "$OUT" ] || cat "$WORK/manifest"

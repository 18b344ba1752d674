#!/usr/bin/env bash
# test_splice.sh — `cimport --insert-into FILE [--diff]` as a user runs it: the quickstart's
# resources (examples/quickstart, offline state, no cloud) are spliced into existing programs of
# each language (tests/fixtures/splice).
#
# Checks: --diff prints a unified diff and leaves the file byte-identical; without --diff the file
# is edited, still type-checks (tsc against tests/peers), is gofmt-clean, py_compiles; a second
# identical run changes nothing; a file with a syntax error or a read-only file is refused with a
# message naming it and stays byte-identical.
set -euo pipefail

: "${CIMPORT:?CIMPORT must point at the cimport binary}"
: "${SHARED_DATA:?SHARED_DATA must point at the shared data directory}"
: "${SOURCE_DIR:?SOURCE_DIR must point at the source tree}"

fail() { echo "FAIL: $*" >&2; exit 1; }

help_text=$("$CIMPORT" --help 2>&1)
if ! grep -q -- '--insert-into' <<<"$help_text"; then
    fail "cimport has no --insert-into option (splice/splice.h is not wired into cli/ yet)"
fi

peers="$SOURCE_DIR/tests/peers"
tsc="$peers/node_modules/typescript/bin/tsc"
[[ -f "$tsc" ]] || fail "$peers/node_modules is missing: run 'cd tests/peers && npm ci --ignore-scripts'"

work="$(mktemp -d)"
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
qs="$SOURCE_DIR/examples/quickstart"
fx="$SOURCE_DIR/tests/fixtures/splice"
# The quickstart's random resources without the local component (whose type no SDK package has).
cat >"$work/imports.json" <<'JSON'
{"resources": [
  {"type": "random:index/randomString:RandomString", "name": "serverName", "logicalName": "server-name", "id": "mq7xk2vt9fzr"},
  {"type": "random:index/randomId:RandomId", "name": "serverId", "logicalName": "server-id", "id": "q8Vb1f0Zk3Y"},
  {"type": "random:index/randomString:RandomString", "name": "bucket-suffix", "id": "x7k2p9qa"},
  {"type": "random:index/randomInteger:RandomInteger", "name": "http-port", "id": "8443,8000,8999,mq7xk2vt9fzr"}
]}
JSON
common=(--spec "$work/imports.json" --offline-state "$qs/stack.json"
        --schema "$SHARED_DATA/schemas/random/schema.json" --quiet)

run_case() { # language fixture-file name-in-work-dir
    local lang="$1" src="$2" name="$3"
    local f="$work/$lang/$name"
    mkdir -p "$work/$lang"
    cp "$fx/$src" "$f"
    cp "$f" "$f.orig"

    # --diff: a unified diff on stdout, the file untouched
    # exit 4: changes pending (documented in --help)
    rc=0
    "$CIMPORT" "${common[@]}" --language "$lang" --insert-into "$f" --diff >"$work/$lang/diff" || rc=$?
    [[ $rc -eq 4 ]] || fail "$lang: --diff with changes pending exited $rc, want 4"
    grep -q '^--- a/' "$work/$lang/diff" || fail "$lang: --diff printed no unified diff"
    grep -q '^+.*server-name' "$work/$lang/diff" || fail "$lang: the diff does not add the server-name resource"
    cmp -s "$f" "$f.orig" || fail "$lang: --diff changed $f"

    # edit, then a second run changes nothing
    "$CIMPORT" "${common[@]}" --language "$lang" --insert-into "$f" || fail "$lang: insert failed"
    cmp -s "$f" "$f.orig" && fail "$lang: the file was not edited"
    cp "$f" "$f.once"
    "$CIMPORT" "${common[@]}" --language "$lang" --insert-into "$f" || fail "$lang: second insert failed"
    cmp -s "$f" "$f.once" || { diff -u "$f.once" "$f" >&2 || true; fail "$lang: a second identical run changed the file"; }
    # and --diff now reports no change: exit 0 and an empty diff
    "$CIMPORT" "${common[@]}" --language "$lang" --insert-into "$f" --diff >"$work/$lang/diff2" \
        || fail "$lang: --diff with no change pending exited $?, want 0"
    [[ ! -s "$work/$lang/diff2" ]] || fail "$lang: --diff printed a diff when nothing changes"
}

run_case typescript toplevel.ts index.ts
run_case typescript async.ts async.ts
run_case python __main__.py __main__.py
run_case go main.go main.go
run_case csharp Program.cs Program.cs
run_case java App.java App.java
run_case yaml Pulumi.yaml Pulumi.yaml

# the edited programs still compile / are formatted
cat >"$work/typescript/tsconfig.json" <<JSON
{"compilerOptions":{"module":"commonjs","target":"es2020","strict":true,"noEmit":true,"skipLibCheck":true,
 "moduleResolution":"node","typeRoots":["$peers/node_modules/@types"],"types":["node"],
 "paths":{"@pulumi/*":["$peers/node_modules/@pulumi/*"]}},"files":["index.ts","async.ts"]}
JSON
(cd "$work/typescript" && node "$tsc" -p tsconfig.json) || fail "tsc rejected the edited TypeScript"
[[ -z "$(gofmt -l "$work/go/main.go")" ]] || fail "gofmt would change the edited main.go"
python3 -m py_compile "$work/python/__main__.py" || fail "py_compile rejected the edited __main__.py"

# a syntax error: refused, named, untouched
bad="$work/bad/index.ts"
mkdir -p "$work/bad"
printf 'import * as pulumi from "@pulumi/pulumi";\n\nconst a = foo(;\n' >"$bad"
cp "$bad" "$bad.orig"
set +e
"$CIMPORT" "${common[@]}" --language typescript --insert-into "$bad" 2>"$work/bad/err"
rc=$?
set -e
[[ $rc -ne 0 ]] || fail "a file with a syntax error was accepted"
grep -q 'index.ts:3: syntax error' "$work/bad/err" || fail "no 'index.ts:3: syntax error' message: $(cat "$work/bad/err")"
cmp -s "$bad" "$bad.orig" || fail "the broken file was changed"
# valid C# whose `#if` branches each open a brace (tree-sitter-c-sharp reads both branches together): refused,
# untouched, but not called the file's syntax error (read15 F10); the `#if` is named
mkdir -p "$work/csif"
printf 'using Pulumi;\n\nreturn await Deployment.RunAsync(() =>\n{\n#if DEBUG\n    if (true) {\n#else\n    if (false) {\n#endif\n        System.Console.WriteLine("x");\n    }\n});\n' >"$work/csif/Program.cs"
cp "$work/csif/Program.cs" "$work/csif/orig"
set +e
"$CIMPORT" "${common[@]}" --language csharp --insert-into "$work/csif/Program.cs" 2>"$work/csif/err"
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "C# with braces in #if branches: exit $rc"
cmp -s "$work/csif/Program.cs" "$work/csif/orig" || fail "C# with braces in #if branches: the file was changed"
! grep -q 'syntax error' "$work/csif/err" && grep -qF 'the file has a `#if` at line 5' "$work/csif/err" ||
  fail "C# with braces in #if branches: not told apart from a syntax error: $(cat "$work/csif/err")"
# with --json and --report: the results document still comes, saying nothing was written; the page
# is one of the run's outputs, so it is not written (its document's page says so: test_report.sh)
set +e
"$CIMPORT" "${common[@]}" --language typescript --insert-into "$bad" --json --report "$work/bad/report.html" \
  >"$work/bad/out.json" 2>"$work/bad/err"
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "--json, a file with a syntax error: exit $rc"
python3 - "$work/bad/out.json" <<'PY' || fail "--json, a file with a syntax error: no results document saying nothing was written"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"]["written"] is False, d["summary"]
assert any("index.ts:3: syntax error" in x["message"] for x in d["diagnostics"]), d["diagnostics"]
PY
[[ ! -e "$work/bad/report.html" ]] || fail "--report, a file with a syntax error: a page was written though nothing else was"
cmp -s "$bad" "$bad.orig" || fail "the broken file was changed"

# read-only: refused, untouched
ro="$work/ro/index.ts"
mkdir -p "$work/ro"
cp "$fx/toplevel.ts" "$ro"
chmod 0444 "$ro"
set +e
"$CIMPORT" "${common[@]}" --language typescript --insert-into "$ro" 2>"$work/ro/err"
rc=$?
set -e
[[ $rc -ne 0 ]] || fail "a read-only file was edited"
grep -q 'read-only' "$work/ro/err" || fail "no read-only message: $(cat "$work/ro/err")"
cmp -s "$ro" "$fx/toplevel.ts" || fail "the read-only file was changed"

echo "PASS: test_splice (7 programs in 6 languages, diff, idempotence, tsc, gofmt, py_compile, refusals)"

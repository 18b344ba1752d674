#!/usr/bin/env bash
# test_splice_names.sh — --insert-into a program that already declares the name of the resource
# being inserted: the splicer must know the language's identifier rules and rename the new one,
# count the rename, and add no import the inserted code does not use.
#   TypeScript, Python, Go: real programs from ../shared/data/pcl-conformance (Pulumi's own expected
#   outputs) declaring `bytes` / `myStash`; checked with tsc, py_compile and gofmt (go vet is not
#   available, so Go is checked for a second declaration).
#   C#: ../shared has no C# program, so a small one declaring `var group` (C#'s `@group` is the same
#   identifier): the new variable must not be `@group`, and `using System.Linq;` must not be added.
set -euo pipefail
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
Q="$SOURCE_DIR/examples/quickstart"
S="$SHARED_DATA/schemas/random/schema.json"
PC="$SHARED_DATA/pcl-conformance"
peers="$SOURCE_DIR/tests/peers"
tsc="$peers/node_modules/typescript/bin/tsc"
[[ -f "$tsc" ]] || fail "$peers/node_modules is missing: run scripts/setup.sh --tests"
spec() { printf '{"resources":[{"type":"random:index/randomPet:RandomPet","name":"%s","logicalName":"server-name","id":"clever-wombat"}]}' "$1" >"$work/$1.json"; }
splice() { # splice DIR FILE NAME: inserts the pet named NAME into DIR/FILE; the report line goes to DIR/report
    spec "$3"
    (cd "$1" && "$CIMPORT" --spec "$work/$3.json" --offline-state "$Q/stack.json" --schema "$S" --insert-into "$2" \
        2>"$1/err") || { cat "$1/err" >&2; fail "cimport --insert-into $1/$2"; }
    grep -m1 "^cimport: $2:" "$1/err" >"$1/report"
}

# TypeScript: `const bytes` exists
mkdir -p "$work/ts" && cp "$PC/l1-builtin-base64/expected/typescript/index.ts" "$work/ts/" && chmod u+w "$work/ts/index.ts"
splice "$work/ts" index.ts bytes
grep -qF '1 renamed' "$work/ts/report" || fail "TypeScript: rename not reported: $(cat "$work/ts/report")"
[[ $(grep -c '^const bytes = ' "$work/ts/index.ts") == 1 ]] || fail "TypeScript: bytes declared twice"
grep -qF 'const bytes2 = new random.RandomPet("server-name"' "$work/ts/index.ts" || fail "TypeScript: no bytes2"
cat >"$work/ts/tsconfig.json" <<JSON
{"compilerOptions":{"module":"commonjs","target":"es2020","strict":true,"noEmit":true,"skipLibCheck":true,
 "moduleResolution":"node","typeRoots":["$peers/node_modules/@types"],"types":["node"],
 "paths":{"@pulumi/*":["$peers/node_modules/@pulumi/*"]}},"files":["index.ts"]}
JSON
(cd "$work/ts" && node "$tsc" -p tsconfig.json) || fail "tsc rejected the edited index.ts"

# Python: `bytes = ...` exists
mkdir -p "$work/py" && cp "$PC/l1-builtin-base64/expected/python/__main__.py" "$work/py/" && chmod u+w "$work/py/__main__.py"
splice "$work/py" __main__.py bytes
grep -qF '1 renamed' "$work/py/report" || fail "Python: rename not reported: $(cat "$work/py/report")"
[[ $(grep -c '^bytes = ' "$work/py/__main__.py") == 1 ]] || fail "Python: bytes assigned twice"
grep -qF 'bytes_2 = random.RandomPet("server-name"' "$work/py/__main__.py" || fail "Python: no bytes_2"
python3 -m py_compile "$work/py/__main__.py" || fail "py_compile rejected the edited __main__.py"

# Go: `myStash, err :=` exists
mkdir -p "$work/go" && cp "$PC/l1-builtin-stash/expected/go/main.go" "$work/go/" && chmod u+w "$work/go/main.go"
splice "$work/go" main.go myStash
# (the Go emitter binds a variable nobody refers to as `_`, so a clash can only be a redeclaration)
[[ $(grep -c 'myStash, err :=' "$work/go/main.go") == 1 ]] || fail "Go: myStash declared twice"
grep -qE '(_|myStash2)(, err)? :?= random.NewRandomPet\(ctx, "server-name"' "$work/go/main.go" || fail "Go: the pet was not inserted"
[[ -z "$(gofmt -l "$work/go/main.go")" ]] || fail "gofmt would change the edited main.go"

# C#: `var group` exists; `@group` is the same identifier
mkdir -p "$work/cs"
cat >"$work/cs/Program.cs" <<'CS'
using System.Collections.Generic;
using Pulumi;
using Random = Pulumi.Random;

return await Deployment.RunAsync(() =>
{
    var group = new Random.RandomString("group-name", new()
    {
        Length = 8,
    });

    return new Dictionary<string, object?>
    {
        ["groupName"] = group.Result,
    };
});
CS
splice "$work/cs" Program.cs group
grep -qF '1 renamed' "$work/cs/report" || fail "C#: rename not reported: $(cat "$work/cs/report")"
grep -q 'var @group\b' "$work/cs/Program.cs" && fail "C#: var @group redeclares group"
grep -qF 'var group2 = new Random.RandomPet("server-name"' "$work/cs/Program.cs" || fail "C#: no group2"
grep -qF 'using System.Linq;' "$work/cs/Program.cs" && fail "C#: an unused using System.Linq was added"
grep -qF 'Aws2\|Random2' "$work/cs/Program.cs" && fail "C#: a second alias was added"
grep -qF '0 imports added' "$work/cs/report" || fail "C#: imports added: $(cat "$work/cs/report")"
echo "PASS: test_splice_names (TypeScript, Python, Go from ../shared; C#: @-escaping, no unused using)"

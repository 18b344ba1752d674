#!/usr/bin/env bash
# test_splice_names.sh — --insert-into a program that already declares the name of the resource
# being inserted: the splicer must know the language's identifier rules and rename the new one,
# count the rename, and add no import the inserted code does not use.
#   TypeScript, Python, Go: real programs from ../shared/data/pcl-conformance (Pulumi's own expected
#   outputs) declaring `bytes` / `myStash`; checked with tsc, py_compile and gofmt (go vet is not
#   available, so Go is checked for a second declaration).
#   Java, C#, YAML: ../shared has no program in these languages, so Pulumi's conformance program
#   l2-resource-simple (../shared/data/pcl-conformance, it declares `res`) is written in each by
#   `convert --from pcl`, and a RandomString named `res` is inserted into it. Java cannot be compiled here
#   (javac stops at the missing Pulumi SDK before it checks declarations) and C# has no .NET here, so
#   each is parsed again by the splicer (a second --insert-into --diff changes nothing) and its
#   declarations are checked for a second `res`.
#   C# also: a small program declaring `var group` (C#'s `@group` is the same identifier): the new
#   variable must not be `@group`, and `using System.Linq;` must not be added.
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
spec() { printf '{"resources":[{"type":"random:index/randomString:RandomString","name":"%s","logicalName":"server-name","id":"mq7xk2vt9fzr"}]}' "$1" >"$work/$1.json"; }
splice() { # splice DIR FILE NAME: inserts the RandomString named NAME into DIR/FILE; the report line goes to DIR/report
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
grep -qF 'const bytesRandomString = new random.RandomString("server-name"' "$work/ts/index.ts" || fail "TypeScript: not named bytesRandomString"
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
grep -qF 'bytes_random_string = random.RandomString("server-name"' "$work/py/__main__.py" || fail "Python: not named bytes_random_string"
python3 -m py_compile "$work/py/__main__.py" || fail "py_compile rejected the edited __main__.py"

# Go: `myStash, err :=` exists
mkdir -p "$work/go" && cp "$PC/l1-builtin-stash/expected/go/main.go" "$work/go/" && chmod u+w "$work/go/main.go"
splice "$work/go" main.go myStash
# (the Go emitter binds a variable nobody refers to as `_`, so a clash can only be a redeclaration)
[[ $(grep -c 'myStash, err :=' "$work/go/main.go") == 1 ]] || fail "Go: myStash declared twice"
grep -qE '(_|myStashRandomString)(, err)? :?= random.NewRandomString\(ctx, "server-name"' "$work/go/main.go" || fail "Go: the RandomString was not inserted"
[[ -z "$(gofmt -l "$work/go/main.go")" ]] || fail "gofmt would change the edited main.go"

# Java, C#, YAML: Pulumi's conformance program l2-resource-simple, which declares `res`
CS_SCHEMAS="$SOURCE_DIR/tests/fixtures/conformance/schemas"
from_shared() { # from_shared LANG DIR FILE: writes l2-resource-simple in LANG to DIR/FILE
    mkdir -p "$2"
    "$CIMPORT" convert --from pcl "$PC/l2-resource-simple/main.pp" -l "$1" --schema "$CS_SCHEMAS" >"$2/$3" ||
        fail "convert --from pcl l2-resource-simple -l $1"
    grep -q 'res' "$2/$3" || fail "$1: l2-resource-simple does not declare res"
}
unchanged() { # unchanged DIR FILE: the splicer parses the result again and finds nothing to change
    spec res
    (cd "$1" && "$CIMPORT" --spec "$work/res.json" --offline-state "$Q/stack.json" --schema "$S" --insert-into "$2" \
        --diff >/dev/null 2>"$1/err2") || fail "$2: a second --insert-into --diff does not accept the result: $(cat "$1/err2")"
}
from_shared java "$work/java" App.java
cp "$work/java/App.java" "$work/java/App.orig"
splice "$work/java" App.java res
grep -qF '1 renamed' "$work/java/report" || fail "Java: rename not reported: $(cat "$work/java/report")"
grep -qF '1 added' "$work/java/report" || fail "Java: not added: $(cat "$work/java/report")"
# local variables of the method: every `var NAME =` once (Java forbids redeclaring a local)
python3 - "$work/java/App.java" <<'PY' || fail "Java: a local variable is declared twice: $(grep -n ' var ' "$work/java/App.java")"
import re, sys
names = re.findall(r'^\s*var\s+(\w+)\s*=', open(sys.argv[1]).read(), re.M)
sys.exit(0 if len(names) == len(set(names)) and 'res' in names and len(names) == 2 else 1)
PY
grep -qF 'var resRandomString = new RandomString("server-name"' "$work/java/App.java" || fail "Java: not named resRandomString"
# imports added are the ones the RandomString uses, each once
for imp in com.pulumi.random.RandomString com.pulumi.random.RandomStringArgs; do
    [[ $(grep -c "^import $imp;" "$work/java/App.java") == 1 ]] || fail "Java: import $imp missing or repeated"
done
# no unused import added: each new import's class is used in the code
python3 - "$work/java/App.orig" "$work/java/App.java" <<'PY' || fail "Java: an unused import was added"
import re, sys
old, new = (open(f).read() for f in sys.argv[1:3])
added = set(re.findall(r'^import ([\w.]+);$', new, re.M)) - set(re.findall(r'^import ([\w.]+);$', old, re.M))
body = re.sub(r'^import .*$', '', new, flags=re.M)
unused = [i for i in added if not re.search(r'\b%s\b' % i.rsplit('.', 1)[1], body)]
print("added imports:", sorted(added), "unused:", unused, file=sys.stderr)
sys.exit(1 if unused or not added else 0)
PY
unchanged "$work/java" App.java

from_shared csharp "$work/cs-shared" Program.cs
splice "$work/cs-shared" Program.cs res
grep -qF '1 renamed' "$work/cs-shared/report" || fail "C# (l2-resource-simple): rename not reported: $(cat "$work/cs-shared/report")"
[[ $(grep -cE '^\s*var @?res = ' "$work/cs-shared/Program.cs") == 1 ]] || fail "C#: res declared twice"
grep -qF 'var resRandomString = new Random.RandomString("server-name"' "$work/cs-shared/Program.cs" || fail "C#: not named resRandomString"
[[ $(grep -c '^using Random = Pulumi.Random;' "$work/cs-shared/Program.cs") == 1 ]] || fail "C#: no single alias for Pulumi.Random"
unchanged "$work/cs-shared" Program.cs

from_shared yaml "$work/yaml" Pulumi.yaml
splice "$work/yaml" Pulumi.yaml res
grep -qF '1 renamed' "$work/yaml/report" || fail "YAML: rename not reported: $(cat "$work/yaml/report")"
python3 - "$work/yaml/Pulumi.yaml" <<'PY' || fail "YAML: res is not kept with the RandomString beside it: $(cat "$work/yaml/Pulumi.yaml")"
import re, sys
keys = re.findall(r'^  ([\w-]+):$', open(sys.argv[1]).read(), re.M)
sys.exit(0 if keys.count('res') == 1 and 'res-random-string' in keys else 1)
PY
grep -qF 'name: server-name' "$work/yaml/Pulumi.yaml" || fail "YAML: the renamed key lost the logical name"
unchanged "$work/yaml" Pulumi.yaml

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
grep -qF 'var groupRandomString = new Random.RandomString("server-name"' "$work/cs/Program.cs" || fail "C#: not named groupRandomString"
grep -qF 'using System.Linq;' "$work/cs/Program.cs" && fail "C#: an unused using System.Linq was added"
grep -qE '\b(Aws2|Random2)\b' "$work/cs/Program.cs" && fail "C#: a second alias was added"
grep -qF '0 imports added' "$work/cs/report" || fail "C#: imports added: $(cat "$work/cs/report")"
# The program names its resource otherwise than with a plain string literal: a template literal is read
# (replaced, not a second "server-name" beside it); a name cimport cannot read is refused, nothing written
mkdir -p "$work/tpl"
printf 'import * as random from "@pulumi/random";\nconst pet = new random.RandomString(`server-name`, {length: 3});\n' >"$work/tpl/index.ts"
splice "$work/tpl" index.ts pet
grep -qF '0 added, 1 replaced' "$work/tpl/report" || fail "template literal name: not replaced: $(cat "$work/tpl/report")"
[[ $(grep -c 'new random.RandomString(' "$work/tpl/index.ts") == 1 ]] || fail "template literal name: a second RandomString"
printf 'import * as random from "@pulumi/random";\nconst n = "server-name";\nconst pet = new random.RandomString(n, {length: 3});\n' >"$work/tpl/var.ts"
cp "$work/tpl/var.ts" "$work/tpl/var.orig"
spec pet
rc=0
(cd "$work/tpl" && "$CIMPORT" --spec "$work/pet.json" --offline-state "$Q/stack.json" --schema "$S" --insert-into var.ts \
    2>"$work/tpl/err") || rc=$?
[[ $rc == 2 ]] || fail "unreadable name: exit $rc, want 2"
grep -qF "var.ts:3: the program creates a resource here (\`new random.RandomString\`) under a name cimport cannot read (\`n\`)" \
    "$work/tpl/err" || fail "unreadable name: $(cat "$work/tpl/err")"
cmp -s "$work/tpl/var.ts" "$work/tpl/var.orig" || fail "unreadable name: var.ts was changed"

# The program imports the object already under another name: a second resource importing it is refused
printf 'import * as random from "@pulumi/random";\nconst pet = new random.RandomString("pet", {length: 2}, {import: "mq7xk2vt9fzr"});\n' >"$work/tpl/dup.ts"
cp "$work/tpl/dup.ts" "$work/tpl/dup.orig"
rc=0
(cd "$work/tpl" && "$CIMPORT" --spec "$work/pet.json" --offline-state "$Q/stack.json" --schema "$S" --insert-into dup.ts \
    2>"$work/tpl/err") || rc=$?
[[ $rc == 2 ]] || fail "same import ID: exit $rc, want 2"
grep -qF "dup.ts:2: the resource 'server-name' has the type and ID ('mq7xk2vt9fzr') of 'pet', which the program imports already" \
    "$work/tpl/err" || fail "same import ID: $(cat "$work/tpl/err")"
cmp -s "$work/tpl/dup.ts" "$work/tpl/dup.orig" || fail "same import ID: dup.ts was changed"
# ... but one the program imports through an explicit provider (another account's object may have that ID, and
# the engine keys objects by provider): not the same object, the import goes in (read18 F16)
printf 'import * as random from "@pulumi/random";\nconst other = new random.Provider("other", {});\nconst pet = new random.RandomString("pet", {length: 2}, {provider: other, import: "mq7xk2vt9fzr"});\n' >"$work/tpl/dupprov.ts"
(cd "$work/tpl" && "$CIMPORT" --spec "$work/pet.json" --offline-state "$Q/stack.json" --schema "$S" --insert-into dupprov.ts \
    2>"$work/tpl/err") || fail "same import ID under another provider: refused: $(cat "$work/tpl/err")"
grep -qF 'RandomString("server-name"' "$work/tpl/dupprov.ts" || fail "same import ID under another provider: not added: $(cat "$work/tpl/dupprov.ts")"

# --keep-existing beside a resource of the same type and name (one URN twice): refused, unchanged
printf 'import * as random from "@pulumi/random";\nconst pet = new random.RandomString("server-name", {length: 3});\n' >"$work/tpl/ke.ts"
cp "$work/tpl/ke.ts" "$work/tpl/ke.orig"
rc=0
(cd "$work/tpl" && "$CIMPORT" --spec "$work/pet.json" --offline-state "$Q/stack.json" --schema "$S" --insert-into ke.ts \
    --keep-existing 2>"$work/tpl/err") || rc=$?
[[ $rc == 2 ]] || fail "--keep-existing, one URN twice: exit $rc, want 2"
grep -qF "ke.ts:2: the resource 'server-name' has the type and logical name of this one" "$work/tpl/err" ||
    fail "--keep-existing, one URN twice: $(cat "$work/tpl/err")"
cmp -s "$work/tpl/ke.ts" "$work/tpl/ke.orig" || fail "--keep-existing, one URN twice: ke.ts was changed"

echo "PASS: test_splice_names (TypeScript, Python, Go from ../shared; Java, C#, YAML from ../shared's l2-resource-simple; C#: @-escaping, no unused using)"

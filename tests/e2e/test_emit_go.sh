#!/usr/bin/env bash
# test_emit_go.sh — `cimport --language go` as a user runs it: every shared stack export of random,
# tls, command, digitalocean and azuread is converted to an import file, imported offline, and the
# Go program written with -o must be gofmt-clean (`gofmt -l` prints nothing, `gofmt -e` no error).
# Bad input (a package schema that is not given) must write no file.
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}"
command -v gofmt >/dev/null || { echo "gofmt not installed (apt-get install golang-go)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
schemas=()
for p in random tls command digitalocean azuread; do schemas+=(--schema "$SHARED_DATA/schemas/$p"); done

passed=0
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

n=0
while IFS= read -r stack; do
    n=$((n + 1))
    dir="$work/$n"
    mkdir -p "$dir"
    if ! (cd "$dir" && "$CIMPORT" convert --from pulumi "$stack" -o imports.json >convert.log 2>&1); then
        # none with an ID cimport can use (imported by a secret value): listed with the reason, no file
        [ ! -e "$dir/imports.json" ] && grep -q 'imports it by its value' "$dir/convert.log" && continue
        fail "convert $stack: $(tail -3 "$dir/convert.log")"
        continue
    fi
    # a stack with nothing importable converts to an empty list: nothing to generate
    grep -q '"type"' "$dir/imports.json" || continue
    if ! (cd "$dir" && "$CIMPORT" --spec imports.json --offline-state "$stack" "${schemas[@]}" \
        --language go -o main.go -q >import.log 2>&1); then
        # an import ID that is a secret (RandomBytes: its value) would be plaintext in the code's
        # `import` option, and a type whose provider implements no importer (RandomPet, the tls
        # resources) cannot be imported by it, nor inputs its importer does not rebuild (a RandomString's
        # special: false): refused; the code without the option is still checked
        if ! grep -qE 'its import ID is a secret value|its provider implements no importer|its provider.s importer rebuilds the resource' "$dir/import.log" ||
            ! (cd "$dir" && "$CIMPORT" --spec imports.json --offline-state "$stack" "${schemas[@]}" \
                --language go --code-only -o main.go -q >import.log 2>&1); then
            fail "import $stack: $(tail -3 "$dir/import.log")"
            continue
        fi
    fi
    if [ ! -s "$dir/main.go" ]; then
        fail "$stack: no main.go written"
        continue
    fi
    unformatted=$(gofmt -l "$dir/main.go" 2>&1)
    if [ -n "$unformatted" ]; then
        fail "$stack: gofmt would change the file: $(gofmt -d "$dir/main.go" | head -20)"
        continue
    fi
    if ! gofmt -e "$dir/main.go" >/dev/null 2>&1; then
        fail "$stack: gofmt -e reports errors"
        continue
    fi
    grep -q 'pulumi.Run(func(ctx \*pulumi.Context) error {' "$dir/main.go" || { fail "$stack: no pulumi.Run"; continue; }
    passed=$((passed + 1))
done < <(for p in random tls command digitalocean azuread; do
    find "$SHARED_DATA/pulumi-state/pulumi-$p" -name stack.json | sort
done)

# Bad input: without the schema of the package nothing can be generated and no file is written.
stack=$(find "$SHARED_DATA/pulumi-state/pulumi-random" -name stack.json | sort | head -1)
dir="$work/bad"
mkdir -p "$dir"
(cd "$dir" && "$CIMPORT" convert --from pulumi "$stack" -o imports.json >/dev/null 2>&1)
(cd "$dir" && "$CIMPORT" --spec imports.json --offline-state "$stack" --schema "$SHARED_DATA/schemas/tls" \
    --language go -o main.go -q >out.log 2>&1)
rc=$?
if [ "$rc" -eq 0 ] || [ -e "$dir/main.go" ]; then
    fail "missing schema: exit $rc and main.go $( [ -e "$dir/main.go" ] && echo written || echo absent)"
else
    passed=$((passed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# test_emit_typescript.sh — the TypeScript `cimport` writes for every custom resource of the shared
# random, tls, command, digitalocean and azuread stack exports type-checks with
# `tsc --noEmit --strict` against the real Pulumi SDK packages pinned in tests/peers.
#
# Pipeline as a user runs it: `cimport convert --from pulumi STACK -o imports.json`, then
# `cimport --spec imports.json --offline-state STACK --schema DIR --language typescript -o F.ts`.
# Fails (never skips) when tests/peers/node_modules is missing.
set -euo pipefail

: "${CIMPORT:?CIMPORT must point at the cimport binary}"
: "${SHARED_DATA:?SHARED_DATA must point at the shared data directory}"
: "${SOURCE_DIR:?SOURCE_DIR must point at the source tree}"

peers="$SOURCE_DIR/tests/peers"
tsc="$peers/node_modules/typescript/bin/tsc"
if [[ ! -f "$tsc" || ! -d "$peers/node_modules/@pulumi/pulumi" ]]; then
    echo "FAIL: $peers/node_modules is missing: run scripts/setup.sh first" >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mapfile -t stacks < <(find "$SHARED_DATA/pulumi-state" -name stack.json \
    \( -path '*pulumi-random/*' -o -path '*pulumi-tls/*' -o -path '*pulumi-command/*' \
       -o -path '*pulumi-digitalocean/*' -o -path '*pulumi-azuread/*' \) | sort)
if (( ${#stacks[@]} < 19 )); then
    echo "FAIL: expected at least 19 stack exports under $SHARED_DATA/pulumi-state, found ${#stacks[@]}" >&2
    exit 1
fi

schema_args=()
for pkg in random tls command digitalocean azuread; do
    schema_args+=(--schema "$SHARED_DATA/schemas/$pkg/schema.json")
done

files=()
i=0
for stack in "${stacks[@]}"; do
    i=$((i + 1))
    spec="$work/imports$i.json"
    out="$work/stack$i.ts"
    # convert exits 1 when some resources (e.g. default providers) are not importable; the file
    # is still written for the others
    "$CIMPORT" convert --from pulumi "$stack" -o "$spec" >"$work/convert$i.log" 2>&1 || true
    # none with an ID cimport can use (imported by a secret value): listed with the reason, no file
    [[ ! -e "$spec" ]] && grep -q 'imports it by its value' "$work/convert$i.log" && continue
    if [[ ! -s "$spec" ]]; then
        echo "FAIL: cimport convert wrote no import file for $stack" >&2
        cat "$work/convert$i.log" >&2
        exit 1
    fi
    if ! "$CIMPORT" --spec "$spec" --offline-state "$stack" "${schema_args[@]}" \
        --language typescript --secrets-dir "$work/secrets$i" -q -o "$out" >"$work/import$i.log" 2>&1; then
        # an import ID that is a secret (RandomBytes: its value) would be plaintext in the code's
        # `import` option, and a type whose provider implements no importer (RandomPet, the tls
        # resources) cannot be imported by it, nor inputs its importer does not rebuild (a RandomString's
        # special: false): refused; the code without the option is still checked
        grep -qE 'its import ID is a secret value|its provider implements no importer|its provider.s importer rebuilds the resource' "$work/import$i.log" &&
            "$CIMPORT" --spec "$spec" --offline-state "$stack" "${schema_args[@]}" --language typescript \
                --secrets-dir "$work/secrets$i" -q --code-only -o "$out" >"$work/import$i.log" 2>&1 || true
    fi
    if [[ ! -s "$out" ]]; then
        echo "FAIL: cimport could not generate TypeScript for $stack" >&2
        cat "$work/import$i.log" >&2
        exit 1
    fi
    if ! grep -q '^const .* = new ' "$out"; then
        echo "FAIL: no resource declaration in the TypeScript generated for $stack" >&2
        cat "$out" >&2
        exit 1
    fi
    files+=("\"$out\"")
done

file_list="$(IFS=,; echo "${files[*]}")"
cat >"$work/tsconfig.json" <<EOF
{
  "compilerOptions": {
    "module": "commonjs",
    "target": "es2020",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true,
    "moduleResolution": "node",
    "typeRoots": ["$peers/node_modules/@types"],
    "types": ["node"],
    "paths": {"@pulumi/*": ["$peers/node_modules/@pulumi/*"]}
  },
  "files": [$file_list]
}
EOF

if ! (cd "$work" && node "$tsc" -p tsconfig.json) >"$work/tsc.log" 2>&1; then
    echo "FAIL: tsc --strict rejected the generated TypeScript:" >&2
    cat "$work/tsc.log" >&2
    for f in "$work"/stack*.ts; do echo "== $f" >&2; cat "$f" >&2; done
    exit 1
fi
echo "ok: ${#files[@]} generated TypeScript programs type-check against the real SDKs"

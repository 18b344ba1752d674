#!/usr/bin/env bash
# test_existing_refs.sh — `cimport --insert-into FILE --stack-state STATE` writes references to the
# resources the stack and the program already have, instead of literal IDs.
#
# The stack records the quickstart's RandomString `server-name` with ID `mq7xk2vt9fzr`; index.ts
# declares it as `const serverName = new random.RandomString("server-name", ...)`. Importing only the
# RandomInteger `http-port` (whose seed is `mq7xk2vt9fzr`) into index.ts must write
# `seed: serverName.id`, not the literal, and the edited file must type-check with tsc against
# the real SDKs in tests/peers. Without --stack-state the literal stays (nothing to refer to).
set -euo pipefail

: "${CIMPORT:?CIMPORT must point at the cimport binary}"
: "${SHARED_DATA:?SHARED_DATA must point at the shared data directory}"
: "${SOURCE_DIR:?SOURCE_DIR must point at the source tree}"

fail() { echo "FAIL: $*" >&2; exit 1; }

peers="$SOURCE_DIR/tests/peers"
tsc="$peers/node_modules/typescript/bin/tsc"
[[ -f "$tsc" && -d "$peers/node_modules/@pulumi/random" ]] ||
    fail "$peers/node_modules is missing: run 'cd tests/peers && npm ci --ignore-scripts'"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
qs="$SOURCE_DIR/examples/quickstart"

cat >"$work/imports.json" <<'JSON'
{"resources": [
  {"type": "random:index/randomInteger:RandomInteger", "name": "http-port", "id": "8443,8000,8999,mq7xk2vt9fzr"}
]}
JSON

# The user's program: the RandomString the stack already has.
cat >"$work/index.ts" <<'TS'
import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";

const serverName = new random.RandomString("server-name", {length: 12});

export const name = serverName.id;
TS

# The stack: what `pulumi stack export` prints after `pulumi up` of that program.
cat >"$work/stack-export.json" <<'JSON'
{
    "version": 3,
    "deployment": {
        "manifest": {"time": "2026-11-20T09:14:03.512Z", "magic": "", "version": "v3.200.0"},
        "resources": [
            {
                "urn": "urn:pulumi:legacy::webshop::pulumi:pulumi:Stack::webshop-legacy",
                "custom": false,
                "type": "pulumi:pulumi:Stack"
            },
            {
                "urn": "urn:pulumi:legacy::webshop::pulumi:providers:random::default_4_21_1",
                "custom": true,
                "id": "5b0c2e1d-9f7a-4c55-8a3e-2f6b1d0c9e41",
                "type": "pulumi:providers:random",
                "inputs": {"version": "4.21.1"},
                "outputs": {"version": "4.21.1"}
            },
            {
                "urn": "urn:pulumi:legacy::webshop::random:index/randomString:RandomString::server-name",
                "custom": true,
                "id": "mq7xk2vt9fzr",
                "type": "random:index/randomString:RandomString",
                "inputs": {"__defaults": [], "length": 12},
                "outputs": {"id": "mq7xk2vt9fzr", "length": 12, "lower": true, "minLower": 0, "minNumeric": 0, "minSpecial": 0,
                            "minUpper": 0, "number": true, "numeric": true, "result": "mq7xk2vt9fzr", "special": true,
                            "upper": true},
                "parent": "urn:pulumi:legacy::webshop::pulumi:pulumi:Stack::webshop-legacy",
                "provider": "urn:pulumi:legacy::webshop::pulumi:providers:random::default_4_21_1::5b0c2e1d-9f7a-4c55-8a3e-2f6b1d0c9e41"
            }
        ]
    }
}
JSON

common=(--spec "$work/imports.json" --offline-state "$qs/stack.json"
        --schema "$SHARED_DATA/schemas/random/schema.json" --language typescript --quiet)

# Without --stack-state: the literal (the control case).
cp "$work/index.ts" "$work/plain.ts"
"$CIMPORT" "${common[@]}" --insert-into "$work/plain.ts" >"$work/plain.log" 2>&1 ||
    { cat "$work/plain.log" >&2; fail "cimport --insert-into without --stack-state failed"; }
grep -q 'seed: "mq7xk2vt9fzr"' "$work/plain.ts" ||
    { cat "$work/plain.ts" >&2; fail "without --stack-state the seed should stay the literal \"mq7xk2vt9fzr\""; }

# With --stack-state: a reference to the program's variable.
"$CIMPORT" "${common[@]}" --insert-into "$work/index.ts" --stack-state "$work/stack-export.json" --stack legacy --project webshop \
    >"$work/refs.log" 2>&1 || { cat "$work/refs.log" >&2; fail "cimport --insert-into --stack-state failed"; }
if grep -q 'seed: "mq7xk2vt9fzr"' "$work/index.ts"; then
    cat "$work/index.ts" >&2
    fail "the seed is still the literal \"mq7xk2vt9fzr\": the session (session/session.c) does not pass \
existing_refs_collect()'s candidates (session/existing_refs.h) to pcl_generate when --insert-into and --stack-state are both given"
fi
grep -q '^ *seed: serverName\.id,$' "$work/index.ts" ||
    { cat "$work/index.ts" >&2; fail "the edited index.ts has no 'seed: serverName.id'"; }
grep -q '^const http_port = new random\.RandomInteger("http-port", {$' "$work/index.ts" ||
    { cat "$work/index.ts" >&2; fail "the RandomInteger definition was not inserted"; }
[[ "$(grep -c 'new random.RandomString("server-name"' "$work/index.ts")" == 1 ]] ||
    { cat "$work/index.ts" >&2; fail "the existing RandomString definition should stay exactly once"; }

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
  "files": ["index.ts", "plain.ts"]
}
EOF
if ! (cd "$work" && node "$tsc" -p tsconfig.json) >"$work/tsc.log" 2>&1; then
    cat "$work/tsc.log" "$work/index.ts" >&2
    fail "tsc --strict rejected the edited index.ts"
fi

# A second identical run changes nothing.
cp "$work/index.ts" "$work/index.ts.once"
"$CIMPORT" "${common[@]}" --insert-into "$work/index.ts" --stack-state "$work/stack-export.json" --stack legacy --project webshop \
    >"$work/refs2.log" 2>&1 || { cat "$work/refs2.log" >&2; fail "the second run failed"; }
cmp -s "$work/index.ts" "$work/index.ts.once" || { diff -u "$work/index.ts.once" "$work/index.ts" >&2 || true; fail "a second identical run changed index.ts"; }

echo "PASS: test_existing_refs (literal without --stack-state, serverName.id with it, tsc, idempotent)"

#!/usr/bin/env bash
# test_postgresql.sh — imports real PostgreSQL objects through the test PostgreSQL provider
# (examples/providers/postgresql, on Pulumi's Node.js provider host).
#
# Starts Debian's PostgreSQL 15 as the `postgres` user on a free loopback port in a temporary
# directory, creates a role (LOGIN CREATEDB CONNECTION LIMIT 5), a database it owns, a schema, the
# pgcrypto extension and grants, then:
#   1. runs the provider's handlers directly (examples/providers/postgresql/test.js);
#   2. launches pulumi-resource-postgresql and imports the objects with
#      `cimport --spec imports.json --attach postgresql=PORT --json --language typescript`, asserting
#      verified = true for each, the role's login/createDatabase/connectionLimit in the results and
#      the generated code, and (with `--stack-state`) the merged stack state;
#   3. type-checks the generated TypeScript against the real @pulumi/postgresql in tests/peers.
# The server and the provider are stopped and everything removed on every exit path. Fails (never
# skips) when a prerequisite is missing, naming it.
set -euo pipefail

: "${CIMPORT:?CIMPORT must point at the cimport binary}"
: "${SHARED_DATA:?SHARED_DATA must point at the shared data directory}"
: "${SOURCE_DIR:?SOURCE_DIR must point at the source tree}"

pgbin=/usr/lib/postgresql/15/bin
provdir="$SOURCE_DIR/examples/providers"
peers="$SOURCE_DIR/tests/peers"
fail() { echo "FAIL: $*" >&2; exit 1; }

[[ -x "$pgbin/initdb" && -x "$pgbin/pg_ctl" ]] || fail "PostgreSQL 15 is not installed ($pgbin): apt-get install postgresql-15 postgresql-contrib"
command -v psql >/dev/null || fail "psql is not installed: apt-get install postgresql-client"
id postgres >/dev/null 2>&1 || fail "there is no 'postgres' user to run the server as (PostgreSQL refuses root)"
[[ -d "$provdir/node_modules/pg" && -d "$provdir/node_modules/@pulumi/pulumi" ]] ||
    fail "$provdir/node_modules is missing: run 'npm ci --ignore-scripts' there (scripts/setup.sh does)"

work="$(mktemp -d)"
chmod 755 "$work"
provider_pid=""
cleanup() {
    local rc=$?
    if [[ -n "$provider_pid" ]]; then kill "$provider_pid" 2>/dev/null || true; wait "$provider_pid" 2>/dev/null || true; fi
    if [[ -f "$work/pg/data/postmaster.pid" ]]; then
        runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# --- the server -------------------------------------------------------------------------------------
mkdir -p "$work/pg"
chown postgres "$work/pg"
port="$(free_port)"
(cd "$work/pg" && runuser -u postgres -- "$pgbin/initdb" -D "$work/pg/data" -A trust -U postgres >"$work/pg/initdb.log" 2>&1) ||
    { cat "$work/pg/initdb.log" >&2; fail "initdb failed"; }
(cd "$work/pg" && runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w -t 60 \
    -o "-p $port -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null) ||
    { cat "$work/pg/server.log" >&2; fail "the PostgreSQL server did not start"; }

psql -X -q -h 127.0.0.1 -p "$port" -U postgres -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
CREATE ROLE app_owner LOGIN CREATEDB CONNECTION LIMIT 5;
CREATE ROLE app_reader;
CREATE DATABASE app_db OWNER app_owner;
GRANT CONNECT, TEMPORARY ON DATABASE app_db TO app_reader;
\c app_db
CREATE SCHEMA app_schema AUTHORIZATION app_owner;
CREATE EXTENSION pgcrypto;
GRANT USAGE ON SCHEMA app_schema TO app_reader;
SQL

export PGHOST=127.0.0.1 PGPORT="$port" PGUSER=postgres PGSSLMODE=disable
export CIMPORT_SHARED_DATA="$SHARED_DATA"

# --- 1. the provider's handlers, directly ----------------------------------------------------------------
node "$provdir/postgresql/test.js" || fail "the provider's Read/Check/Diff handlers (examples/providers/postgresql/test.js)"

# --- 2. cimport through the provider over gRPC ---------------------------------------------------------------
help="$("$CIMPORT" --help 2>&1 || true)"
if ! grep -q -- '--attach' <<<"$help"; then
    fail "cimport was built without provider plugin support: it has no --attach option (the provider handlers passed; wire --attach to run the import)"
fi

"$provdir/postgresql/pulumi-resource-postgresql" >"$work/provider.out" 2>"$work/provider.err" &
provider_pid=$!
for _ in $(seq 100); do
    [[ -s "$work/provider.out" ]] && break
    kill -0 "$provider_pid" 2>/dev/null || { cat "$work/provider.err" >&2; fail "the provider exited before printing its port"; }
    sleep 0.1
done
provider_port="$(head -n1 "$work/provider.out" | tr -d '[:space:]')"
[[ "$provider_port" =~ ^[0-9]+$ ]] || { cat "$work/provider.err" >&2; fail "the provider printed no port"; }

mkdir -p "$work/project"
cd "$work/project"
cat >Pulumi.yaml <<'EOF'
name: pgimport
runtime: nodejs
EOF
cat >Pulumi.dev.yaml <<EOF
config:
  postgresql:host: 127.0.0.1
  postgresql:port: "$port"
  postgresql:username: postgres
  postgresql:sslmode: disable
EOF
cat >imports.json <<'EOF'
{
    "resources": [
        {"type": "postgresql:index/role:Role", "name": "appOwner", "id": "app_owner"},
        {"type": "postgresql:index/database:Database", "name": "appDb", "id": "app_db"},
        {"type": "postgresql:index/schema:Schema", "name": "appSchema", "id": "app_db.app_schema"},
        {"type": "postgresql:index/extension:Extension", "name": "pgcrypto", "id": "app_db.pgcrypto"},
        {"type": "postgresql:index/grant:Grant", "name": "readerUsage", "id": "app_reader_app_db_app_schema_schema"},
        {"type": "postgresql:index/grant:Grant", "name": "readerConnect", "id": "app_reader_app_db_database"}
    ]
}
EOF

state_args=()
if grep -q -- '--stack-state' <<<"$help"; then state_args=(--stack-state "$work/project/state.json"); fi
if grep -q -- '--new-stack-state' <<<"$help"; then state_args+=(--new-stack-state); fi
rc=0
"$CIMPORT" --spec imports.json --attach "postgresql=$provider_port" --stack dev --project pgimport \
    --language typescript --json "${state_args[@]}" >results.json 2>import.err || rc=$?
if (( rc != 0 )); then
    cat import.err results.json >&2
    fail "cimport exited with $rc"
fi

python3 - results.json <<'PY' || fail "the import results (see above)"
import json, sys
doc = json.load(open(sys.argv[1]))
res = {r["name"]: r for r in doc["resources"]}
want = ["appOwner", "appDb", "appSchema", "pgcrypto", "readerUsage", "readerConnect"]
assert sorted(res) == sorted(want), f"resources {sorted(res)}"
for name in want:
    r = res[name]
    assert r["status"] == "imported", f"{name}: status {r['status']}: {r['diagnostics']}"
    assert r["verified"] is True, f"{name}: not verified, residual {r['residual']}"
role = res["appOwner"]["inputs"]
assert role.get("login") is True and role.get("createDatabase") is True and role.get("connectionLimit") == 5, f"role inputs {role}"
assert role.get("name") == "app_owner", f"role name {role}"
assert res["appDb"]["inputs"].get("name") == "app_db"
grant = res["readerUsage"]["inputs"]
assert grant.get("privileges") == ["USAGE"] and grant.get("schema") == "app_schema", f"grant inputs {grant}"
assert res["readerConnect"]["inputs"].get("privileges") == ["CONNECT", "TEMPORARY"]
assert doc["summary"]["verified"] == 6, doc["summary"]
code = doc["code"]
for needle in ['new postgresql.Role("appOwner"', "login: true", "createDatabase: true", "connectionLimit: 5",
               'new postgresql.Grant("readerUsage"', 'objectType: "schema"']:
    assert needle in code, f"generated code lacks {needle!r}:\n{code}"
open("index.ts", "w").write(code)
print("cimport import: 6 resources verified")
PY

if (( ${#state_args[@]} )); then
    python3 - state.json <<'PY' || fail "the merged stack state"
import json, sys
doc = json.load(open(sys.argv[1]))
rs = doc["deployment"]["resources"]
urns = [r["urn"] for r in rs]
assert urns[0] == "urn:pulumi:dev::pgimport::pulumi:pulumi:Stack::pgimport-dev", urns[0]
prov = [r for r in rs if r["type"] == "pulumi:providers:postgresql"]
assert len(prov) == 1, prov
role = next(r for r in rs if r["urn"].endswith("::appOwner"))
assert role["id"] == "app_owner" and role["provider"] == prov[0]["urn"] + "::" + prov[0]["id"], role
assert role["outputs"]["connectionLimit"] == 5 and role["protect"] is True
print("stack state: %d resources" % len(rs))
PY
fi

# --- 3. the generated TypeScript against the real @pulumi/postgresql ----------------------------------------
tsc="$peers/node_modules/typescript/bin/tsc"
[[ -f "$tsc" && -d "$peers/node_modules/@pulumi/postgresql" ]] || fail "$peers/node_modules is missing: run scripts/setup.sh first"
cat >tsconfig.json <<EOF
{
  "compilerOptions": {
    "module": "commonjs", "target": "es2020", "strict": true, "noEmit": true, "skipLibCheck": true,
    "moduleResolution": "node", "typeRoots": ["$peers/node_modules/@types"], "types": ["node"],
    "paths": {"@pulumi/*": ["$peers/node_modules/@pulumi/*"]}
  },
  "files": ["index.ts"]
}
EOF
node "$tsc" -p tsconfig.json || fail "the generated TypeScript does not type-check against @pulumi/postgresql"
echo "PASS: postgresql import"

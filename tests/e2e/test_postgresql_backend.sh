#!/usr/bin/env bash
# test_postgresql_backend.sh — importing into a stack kept by Pulumi's PostgreSQL DIY backend
# (pkg/backend/diy/postgres: one table of key/data/updated_at rows whose keys are the DIY paths),
# against a real PostgreSQL 15 server started here on a free loopback port (as test_postgresql.sh
# does). The table holds .pulumi/meta.yaml and a checkpoint made from a real `pulumi stack export`.
# Checks: the import lands in the checkpoint row (earlier resources kept, valid checkpoint), the
# backup/.bak/history rows are written, the lock row is taken and released, and a lock row of
# another process makes cimport wait and then refuse, changing nothing; a run whose code cannot be
# written leaves the stack as it was (the write's SQL transaction rolled back).
set -euo pipefail
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pgbin=/usr/lib/postgresql/15/bin
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ -x "$pgbin/initdb" && -x "$pgbin/pg_ctl" ]] || fail "PostgreSQL 15 is not installed ($pgbin): apt-get install postgresql-15"
command -v psql >/dev/null || fail "psql is not installed: apt-get install postgresql-client"
id postgres >/dev/null 2>&1 || fail "there is no 'postgres' user to run the server as (PostgreSQL refuses root)"

work="$(mktemp -d)"
chmod 755 "$work"
cleanup() {
    local rc=$?
    if [[ -f "$work/pg/data/postmaster.pid" ]]; then
        runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

mkdir -p "$work/pg" && chown postgres "$work/pg"
port="$(free_port)"
(cd "$work/pg" && runuser -u postgres -- "$pgbin/initdb" -D "$work/pg/data" -A trust -U postgres >"$work/pg/initdb.log" 2>&1) ||
    { cat "$work/pg/initdb.log" >&2; fail "initdb failed"; }
(cd "$work/pg" && runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w -t 60 \
    -o "-p $port -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null) ||
    { cat "$work/pg/server.log" >&2; fail "the PostgreSQL server did not start"; }
sql() { psql -X -q -A -t -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }

Q="$SOURCE_DIR/examples/quickstart"
S="$SHARED_DATA/schemas/random/schema.json"
EXPORT="$SHARED_DATA/pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randomstring/4.16.0/stack.json"
PROJ=index_randomstringTu2iX3Vq02G9
KEY=".pulumi/stacks/$PROJ/test.json"
# The table as Pulumi creates it, and the stack's rows.
sql -c "CREATE TABLE pulumi_state (key TEXT PRIMARY KEY, data BYTEA NOT NULL, updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now());
        CREATE INDEX pulumi_state_key_prefix_idx ON pulumi_state (key text_pattern_ops);"
python3 - "$EXPORT" "$PROJ" "$work/orig.json" <<'PY' | sql
import json, sys
exp = json.load(open(sys.argv[1]))
cp = json.dumps({"version": 3, "checkpoint": {"stack": "organization/%s/test" % sys.argv[2], "latest": exp["deployment"]}},
                separators=(",", ":"))
open(sys.argv[3], "w").write(cp)
print("INSERT INTO pulumi_state (key, data) VALUES ('.pulumi/meta.yaml', convert_to('version: 1\n', 'UTF8'));")
print("INSERT INTO pulumi_state (key, data) VALUES ('.pulumi/stacks/%s/test.json', decode('%s', 'hex'));" % (sys.argv[2], cp.encode().hex()))
PY
export PULUMI_HOME="$work/home"
mkdir -p "$PULUMI_HOME/workspaces" "$work/proj"
printf 'name: %s\nruntime: nodejs\n' "$PROJ" >"$work/proj/Pulumi.yaml"
sha=$(printf '%s' "$work/proj/Pulumi.yaml" | sha1sum | cut -d' ' -f1)
printf '{"stack": "organization/%s/test"}' "$PROJ" >"$PULUMI_HOME/workspaces/$PROJ-$sha-workspace.json"
# The URL carries a password (the server trusts local connections, so any is accepted): a credential
# that must never be printed (shown as Go's url.Redacted shows it, xxxxx).
export PULUMI_BACKEND_URL="postgres://postgres:Hunter2Secret@127.0.0.1:$port/postgres?sslmode=disable&password=QueryPw77"
no_password() { ! grep -qE 'Hunter2Secret|QueryPw77' "$work/err" || fail "$1: the backend URL's password was printed: $(cat "$work/err")"; }
cd "$work/proj"
row() { sql -c "SELECT convert_from(data, 'UTF8') FROM pulumi_state WHERE key = '$1'"; }
common=(--spec "$Q/imports.json" --offline-state "$Q/stack.json" --schema "$S" -l typescript)

# another process holds the lock: wait, then refuse; nothing changes
LOCK=".pulumi/locks/organization/$PROJ/test/aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee.json"
sql -c "INSERT INTO pulumi_state (key, data) VALUES ('$LOCK', convert_to('{\"pid\":77,\"username\":\"bob\",\"hostname\":\"ci\",\"timestamp\":\"2026-01-01T00:00:00Z\"}', 'UTF8'))"
rc=0
"$CIMPORT" "${common[@]}" --yes --lock-timeout 1 >/dev/null 2>"$work/err" || rc=$?
[[ $rc -eq 2 ]] || fail "locked stack: exit $rc, want 2"
grep -qF 'bob@ci (pid 77)' "$work/err" || fail "the refusal does not name the lock holder: $(cat "$work/err")"
no_password "locked stack"
[[ "$(row "$KEY")" == "$(cat "$work/orig.json")" ]] || fail "the locked run changed the checkpoint"
[[ "$(sql -c "SELECT count(*) FROM pulumi_state WHERE key LIKE '.pulumi/locks/%'")" == 1 ]] || fail "cimport left its own lock row"
sql -c "DELETE FROM pulumi_state WHERE key = '$LOCK'"

# the code cannot be written (/dev/full, written after the stack): the stack's SQL transaction is
# rolled back — the checkpoint row as it was, no backup or history row, the lock row removed, exit 2
rc=0
"$CIMPORT" "${common[@]}" --yes -o /dev/full >/dev/null 2>"$work/err" || rc=$?
[[ $rc -eq 2 ]] || fail "code into /dev/full: exit $rc, want 2: $(cat "$work/err")"
grep -qF 'nothing was written' "$work/err" || fail "code into /dev/full: summary: $(cat "$work/err")"
no_password "code into /dev/full"
[[ "$(row "$KEY")" == "$(cat "$work/orig.json")" ]] || fail "a run whose code could not be written changed the checkpoint"
[[ "$(sql -c "SELECT count(*) FROM pulumi_state WHERE key LIKE '.pulumi/backups/%' OR key LIKE '.pulumi/history/%' OR key = '$KEY.bak'")" == 0 ]] ||
    fail "a run whose code could not be written left backup/history rows"
[[ "$(sql -c "SELECT count(*) FROM pulumi_state WHERE key LIKE '.pulumi/locks/%'")" == 0 ]] || fail "the lock row was not removed after the rollback"

# the import
"$CIMPORT" "${common[@]}" --yes -o "$work/index.ts" 2>"$work/err" || { cat "$work/err" >&2; fail "import into the PostgreSQL stack failed"; }
grep -qF "cimport: imported 4 of 5 resources into stack organization/$PROJ/test at postgres://postgres:xxxxx@127.0.0.1:$port/postgres?sslmode=disable&password=xxxxx" "$work/err" || fail "summary: $(cat "$work/err")"
no_password "the import"
row "$KEY" >"$work/new.json"
python3 - "$work/orig.json" "$work/new.json" <<'PY' || fail "the checkpoint row after the import"
import json, sys
old = json.load(open(sys.argv[1])); new = json.load(open(sys.argv[2]))
o = old["checkpoint"]["latest"]["resources"]; n = new["checkpoint"]["latest"]["resources"]
assert n[:len(o)] == o, "earlier resources changed"
ids = {r.get("id") for r in n[len(o):]}
assert {"mq7xk2vt9fzr", "q8Vb1f0Zk3Y", "x7k2p9qa", "8443"} <= ids, ids
seen = set()
for r in n:
    for ref in [r.get("parent")] + ([r["provider"].rsplit("::", 1)[0]] if r.get("provider") else []):
        assert not ref or ref in seen, r["urn"]
    seen.add(r["urn"])
PY
[[ "$(row "$KEY.bak")" == "$(cat "$work/orig.json")" ]] || fail "no .bak row with the previous checkpoint"
[[ "$(sql -c "SELECT count(*) FROM pulumi_state WHERE key ~ '^\.pulumi/backups/$PROJ/test/test\.[0-9]+\.json$'")" == 1 ]] || fail "no backup row"
[[ "$(sql -c "SELECT count(*) FROM pulumi_state WHERE key ~ '^\.pulumi/history/$PROJ/test/test-[0-9]+\.(history|checkpoint)\.json$'")" == 2 ]] || fail "no history rows"
[[ "$(sql -c "SELECT count(*) FROM pulumi_state WHERE key LIKE '.pulumi/locks/%'")" == 0 ]] || fail "the lock row was not removed"
grep -qF 'new random.RandomString("server-name"' "$work/index.ts" || fail "no code written"

# table=: Pulumi writes the name into its SQL as it is, unquoted (pkg/backend/diy/postgres bucket.go), so
# PostgreSQL folds it to lower case: table=Pulumi_State2 is the table pulumi_state2. cimport quoted it
# ("Pulumi_State2", another table: "relation does not exist") and took the parameter undecoded.
newtable() { # NAME: a table as Pulumi creates it, with meta.yaml and the original checkpoint
    sql -c "CREATE TABLE $1 (key TEXT PRIMARY KEY, data BYTEA NOT NULL, updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now());
            INSERT INTO $1 (key, data) VALUES ('.pulumi/meta.yaml', convert_to('version: 1' || chr(10), 'UTF8'));
            INSERT INTO $1 (key, data) VALUES ('$KEY', decode('$(xxd -p "$work/orig.json" | tr -d '\n')', 'hex'));"
}
base_url="$PULUMI_BACKEND_URL"
newtable pulumi_state2
for t in Pulumi_State2 'PULUMI%5FSTATE2'; do
    sql -c "UPDATE pulumi_state2 SET data = decode('$(xxd -p "$work/orig.json" | tr -d '\n')', 'hex') WHERE key = '$KEY'"
    PULUMI_BACKEND_URL="$base_url&table=$t" "$CIMPORT" "${common[@]}" --yes -o "$work/t.ts" 2>"$work/err" ||
        fail "table=$t (Pulumi's table pulumi_state2): $(cat "$work/err")"
    no_password "table=$t"
    sql -c "SELECT convert_from(data, 'UTF8') FROM pulumi_state2 WHERE key = '$KEY'" | grep -qF '"mq7xk2vt9fzr"' ||
        fail "table=$t: the import is not in pulumi_state2"
done
# a name Pulumi's SQL cannot take as a table (it would run it as SQL: a quote, a space, a ;, a keyword):
# refused before anything is read or written, saying why
digest() { sql -c "SELECT md5(string_agg(key || encode(data, 'hex'), ',' ORDER BY key)) FROM $1"; }
before=$(digest pulumi_state)
for t in 'x%3Bdrop%20table%20pulumi_state' 'my%22table' 'select' '9lives' 'bad%zz'; do
    rc=0
    PULUMI_BACKEND_URL="$base_url&table=$t" "$CIMPORT" "${common[@]}" --yes -o "$work/t.ts" 2>"$work/err" || rc=$?
    [[ $rc -ne 0 ]] && grep -qF "is not a table name Pulumi's PostgreSQL backend can use" "$work/err" ||
        fail "table=$t: exit $rc: $(cat "$work/err")"
    no_password "table=$t"
done
[[ "$(digest pulumi_state)" == "$before" ]] || fail "a refused table name changed the table"

# Two checkpoint rows for the stack (<stack>.json and <stack>.json.gz, as a crash or a switch of
# PULUMI_DIY_BACKEND_GZIP leaves them): Pulumi reads the one updated last (its stackPath compares the
# listing's times, updated_at here), the later key of two updated together. cimport refused any two.
gz_hex=$(python3 -c 'import gzip,sys; sys.stdout.write(gzip.compress(open(sys.argv[1],"rb").read()).hex())' "$work/orig.json")
for when in gz_newer json_newer equal; do
    tb="two_$when"
    newtable "$tb"
    case $when in
    gz_newer) js="now() - interval '1 hour'" gz="now()" ;;
    json_newer) js="now()" gz="now() - interval '1 hour'" ;;
    equal) js="'2026-01-01T00:00:00Z'" gz="'2026-01-01T00:00:00Z'" ;;
    esac
    sql -c "INSERT INTO $tb (key, data) VALUES ('$KEY.gz', decode('$gz_hex', 'hex'));
            UPDATE $tb SET updated_at = $js WHERE key = '$KEY'; UPDATE $tb SET updated_at = $gz WHERE key = '$KEY.gz'"
    PULUMI_BACKEND_URL="$base_url&table=$tb" "$CIMPORT" "${common[@]}" --yes -o "$work/t.ts" 2>"$work/err" ||
        fail "two checkpoints ($when): $(cat "$work/err")"
    json_now=$(sql -c "SELECT encode(data, 'hex') FROM $tb WHERE key = '$KEY'")
    gz_now=$(sql -c "SELECT encode(data, 'hex') FROM $tb WHERE key = '$KEY.gz'")
    if [[ $when == json_newer ]]; then
        [[ "$gz_now" == "$gz_hex" && "$json_now" != "$(xxd -p "$work/orig.json" | tr -d '\n')" ]] ||
            fail "two checkpoints ($when): the import did not go into the .json row alone"
    else
        [[ "$json_now" == "$(xxd -p "$work/orig.json" | tr -d '\n')" && "$gz_now" != "$gz_hex" ]] ||
            fail "two checkpoints ($when): the import did not go into the .json.gz row alone"
        python3 -c 'import gzip,sys; assert b"mq7xk2vt9fzr" in gzip.decompress(bytes.fromhex(sys.argv[1]))' "$gz_now" ||
            fail "two checkpoints ($when): the .json.gz row lacks the import"
    fi
done
echo "PASS: test_postgresql_backend (lock wait + refusal, rollback with the files, import, .bak, backup, history, lock released)"

#!/usr/bin/env bash
# test_cloud_backend.sh — importing into a Pulumi Cloud stack through the REST API (export → merge →
# import), against tests/fixtures/cloud/contract_server.py: a LOCAL TEST SERVER that follows the
# documented contract (it is not Pulumi Cloud). The token comes from $PULUMI_HOME/credentials.json.
# Checks: the merged deployment keeps every earlier resource and adds the imported ones; 401 with a
# wrong token, 409 (update in progress) and 5xx (tried again, then given up) are reported clearly
# and change nothing; an import whose code cannot be written is taken back (the deployment imported
# again).
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
work=$(mktemp -d)
srv_pid=""
trap '[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
Q="$SOURCE_DIR/examples/quickstart"
S="$SHARED_DATA/schemas/random/schema.json"
EXPORT="$SHARED_DATA/pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randomstring/4.16.0/stack.json"
PROJ=index_randomstringTu2iX3Vq02G9
srvdir="$work/server"
mkdir -p "$srvdir/stacks/alice/$PROJ" "$work/home/workspaces" "$work/proj"
cp "$EXPORT" "$srvdir/stacks/alice/$PROJ/test.json"
python3 "$SOURCE_DIR/tests/fixtures/cloud/contract_server.py" "$srvdir" pul-test-token alice >"$work/port" 2>"$work/server.err" &
srv_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
[ -n "$port" ] || { echo "FAIL: the contract server did not start: $(cat "$work/server.err")" >&2; exit 1; }
url="http://127.0.0.1:$port"
export PULUMI_HOME="$work/home"
unset PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN 2>/dev/null || true
printf '{"current": "%s", "accessTokens": {"%s": "pul-test-token"}}' "$url" "$url" >"$PULUMI_HOME/credentials.json"
printf 'name: %s\nruntime: nodejs\n' "$PROJ" >"$work/proj/Pulumi.yaml"
sha=$(printf '%s' "$work/proj/Pulumi.yaml" | sha1sum | cut -d' ' -f1)
printf '{"stack": "test"}' >"$PULUMI_HOME/workspaces/$PROJ-$sha-workspace.json"
cd "$work/proj"
run() { "$CIMPORT" --spec "$Q/imports.json" --offline-state "$Q/stack.json" --schema "$S" -l typescript --yes "$@" >"$work/out" 2>"$work/err"; }
stack="$srvdir/stacks/alice/$PROJ/test.json"

# 401: a wrong token (PULUMI_ACCESS_TOKEN wins over the credentials file)
PULUMI_ACCESS_TOKEN=wrong run; rc=$?
[ "$rc" = 2 ] && grep -qF 'Pulumi Cloud refused the access token (401 Unauthorized)' "$work/err" && ok || bad "401: exit $rc: $(cat "$work/err")"
cmp -s "$stack" "$EXPORT" && ok || bad "401 changed the stack"

# 409 on the import: an update is in progress
echo "import 409 1" >"$srvdir/faults"
run; rc=$?
[ "$rc" = 2 ] && grep -qF 'another update is in progress on the stack alice/'"$PROJ"'/test' "$work/err" && ok || bad "409: exit $rc: $(cat "$work/err")"
cmp -s "$stack" "$EXPORT" && ok || bad "409 changed the stack"

# 5xx that never ends: tried 3 times, then a clear refusal
: >"$srvdir/requests.log"
echo "export 503 10" >"$srvdir/faults"
run; rc=$?
[ "$rc" = 2 ] && grep -qF 'answered 503 (a server error) 3 times' "$work/err" && ok || bad "5xx: exit $rc: $(cat "$work/err")"
[ "$(grep -c '/export ' "$srvdir/requests.log")" = 3 ] && ok || bad "5xx: want 3 tries, got $(grep -c '/export ' "$srvdir/requests.log")"

# a backend URL with user information (a password, or a token as the user name): the messages that name a
# request print the URL as Go's url.Redacted does (the password as xxxxx; a lone user name of an
# http(s) URL, which can only be a credential, likewise). Before, the retry refusal printed
# "GET http://alice:S3cretPw@…/export" on stderr.
for cred in alice:S3cretPw pul-T0kenAsUser; do
  u="http://$cred@127.0.0.1:$port"
  echo "export 503 10" >"$srvdir/faults"
  PULUMI_BACKEND_URL="$u" PULUMI_ACCESS_TOKEN=pul-test-token run; rc=$?
  [ "$rc" = 2 ] && grep -qF 'answered 503 (a server error) 3 times' "$work/err" && ! grep -qE 'S3cretPw|T0kenAsUser' "$work/err" &&
    grep -qF -e "GET http://${cred%%:*}:xxxxx@127.0.0.1:$port/api/stacks/" -e "GET http://xxxxx@127.0.0.1:$port/api/stacks/" "$work/err" &&
    ok || bad "5xx with $cred in the URL: exit $rc: $(cat "$work/err")"
  echo "applied 502 10" >"$srvdir/faults"
  PULUMI_BACKEND_URL="$u" PULUMI_ACCESS_TOKEN=pul-test-token run -o "$work/applied.ts"; rc=$?
  [ "$rc" = 2 ] && grep -qF 'lands is not known' "$work/err" && ! grep -qE 'S3cretPw|T0kenAsUser' "$work/err" &&
    ok || bad "an unconfirmed import with $cred in the URL: exit $rc: $(cat "$work/err")"
  : >"$srvdir/faults"
  cp "$EXPORT" "$stack"
done

# the code cannot be written (/dev/full, written after the stack): the import is taken back by
# importing the exported deployment again (Pulumi Cloud has no other undo), exit 2
: >"$srvdir/faults"
: >"$srvdir/requests.log"
run -o /dev/full; rc=$?
[ "$rc" = 2 ] && grep -qF 'nothing was written' "$work/err" && ok || bad "code into /dev/full: exit $rc: $(cat "$work/err")"
[ "$(grep -c '^POST /api/stacks/alice/'"$PROJ"'/test/import ' "$srvdir/requests.log")" = 2 ] && ok || bad "no import and undo: $(cat "$srvdir/requests.log")"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))' "$EXPORT" "$stack" && ok ||
  bad "the stack after the undo is not the exported deployment"

# the import update is still running when cimport stops waiting (CIMPORT_CLOUD_IMPORT_WAIT, seconds): the
# service has the deployment and may still apply it, so the outcome is not known — not "the stack ... is
# as it was" (said before, exit 2, while the stack then held the import). The update is named, with how
# to check it; no file is written; exit 2.
: >"$srvdir/requests.log"
echo "running 200 100000" >"$srvdir/faults"
CIMPORT_CLOUD_IMPORT_WAIT=1 run -o "$work/running.ts"; rc=$?
[ "$rc" = 2 ] && ! grep -qF 'as it was' "$work/err" &&
  grep -qF "whether the import into the stack alice/$PROJ/test at $url lands is not known" "$work/err" &&
  grep -qF "update 9d8f7e6a-0000-4000-8000-000000000001 ($url/api/stacks/alice/$PROJ/test/update/9d8f7e6a-0000-4000-8000-000000000001)" "$work/err" &&
  grep -qF '`pulumi stack history`' "$work/err" &&
  grep -qF "but no file was written, and whether the import into the stack alice/$PROJ/test at $url landed is not known" "$work/err" &&
  ok || bad "an import update still running: exit $rc: $(cat "$work/err")"
[ ! -e "$work/running.ts" ] && ok || bad "an import update still running: the code was written"
[ "$(grep -c '^POST /api/stacks/alice/'"$PROJ"'/test/import ' "$srvdir/requests.log")" = 1 ] && ok ||
  bad "an import update still running was 'taken back' (imported again): $(cat "$srvdir/requests.log")"
: >"$srvdir/faults"
cp "$EXPORT" "$stack"

# ... and its --json does not say the resources were not added (each said "stack": "notAdded",
# "addedToStack": 0, while the import may land): not known, as on stderr
echo "running 200 100000" >"$srvdir/faults"
CIMPORT_CLOUD_IMPORT_WAIT=1 run -o "$work/running.ts" --json; rc=$?
[ "$rc" = 2 ] && [ ! -e "$work/running.ts" ] && python3 - "$work/out" <<'PY' && ok || bad "--json of an import update still running: exit $rc: $(grep -A14 "\"summary\"" "$work/out" | tr -d "\n\t"; grep -o "\"stack\":[^,]*" "$work/out" | tr "\n" " "; tail -3 "$work/err")"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["written"] is False and "addedToStack" not in s and s["notKnownInStack"] == 5 and s["alreadyInStack"] == 0, s
assert [r["stack"] for r in d["resources"]] == ["notKnown"] * 5, [(r["name"], r.get("stack")) for r in d["resources"]]
PY
: >"$srvdir/faults"
cp "$EXPORT" "$stack"

# the code cannot be written and the import cannot be taken back (every later import answers 503): the
# stack holds the resources, so --json says they were added ("notAdded" before), not written otherwise
echo "undo 503 1" >"$srvdir/faults"
run -o /dev/full --json; rc=$?
rm -f "$srvdir/undo-armed"
[ "$rc" = 2 ] && grep -qF '"mq7xk2vt9fzr"' "$stack" && python3 - "$work/out" <<'PY' && ok || bad "--json of an import that could not be taken back: exit $rc: $(grep -A14 "\"summary\"" "$work/out" | tr -d "\n\t"; grep -o "\"stack\":[^,]*" "$work/out" | tr "\n" " "; tail -3 "$work/err")"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["written"] is False and s["addedToStack"] == 5 and s["alreadyInStack"] == 0, s
assert [r["stack"] for r in d["resources"]] == ["added"] * 5, [(r["name"], r.get("stack")) for r in d["resources"]]
PY
: >"$srvdir/faults"
cp "$EXPORT" "$stack"

# the import request answered 5xx every time it was tried, though the service stored it (a gateway that timed
# out on a request the service took): "nothing was imported" was said (exit 2) while the stack held the
# import. Whether it landed is not known after a POST that got no answer below 500: said so, no undo, no file.
: >"$srvdir/requests.log"
echo "applied 502 10" >"$srvdir/faults"
run -o "$work/applied.ts"; rc=$?
[ "$rc" = 2 ] && ! grep -qF 'nothing was imported' "$work/err" && ! grep -qF 'as it was' "$work/err" &&
  grep -qF "whether the import into the stack alice/$PROJ/test at $url lands is not known" "$work/err" &&
  ok || bad "an import answered 502 after it was stored: exit $rc: $(cat "$work/err")"
[ ! -e "$work/applied.ts" ] && ok || bad "an import answered 502: the code was written"
: >"$srvdir/faults"
cp "$EXPORT" "$stack"

# another update lands between cimport's export and its import (Pulumi Cloud has no lock cimport can
# hold): importing the merged deployment would erase it (the stack lost the other update's resource,
# exit 0). Refused, nothing imported, the other update's state kept.
: >"$srvdir/faults"
: >"$srvdir/requests.log"
echo "bump 200 1" >"$srvdir/faults"
run; rc=$?
[ "$rc" = 2 ] && grep -qF "the stack alice/$PROJ/test at $url changed since cimport read it (another update ran meanwhile)" "$work/err" &&
  ok || bad "a stack changed meanwhile: exit $rc: $(cat "$work/err")"
! grep -q '^POST ' "$srvdir/requests.log" && ok || bad "a stack changed meanwhile was imported into: $(cat "$srvdir/requests.log")"
python3 - "$EXPORT" "$stack" <<'PY' && ok || bad "a stack changed meanwhile lost the other update"
import json, sys
old = json.load(open(sys.argv[1]))["deployment"]["resources"]
new = json.load(open(sys.argv[2]))["deployment"]["resources"]
assert new[:len(old)] == old and len(new) == len(old) + 1 and new[-1]["urn"].endswith("::other"), [r["urn"] for r in new]
PY
cp "$EXPORT" "$stack"

# the export taken again before the import is not JSON: that is what cimport says, not that another
# update ran meanwhile; nothing imported
: >"$srvdir/requests.log"
echo "garble 200 1" >"$srvdir/faults"
run; rc=$?
[ "$rc" = 2 ] && grep -qF "is not a JSON document" "$work/err" && ! grep -qF "changed since cimport read it" "$work/err" &&
  ok || bad "a garbled second export: exit $rc: $(tail -3 "$work/err")"
! grep -q '^POST ' "$srvdir/requests.log" && ok || bad "imported after a garbled export: $(cat "$srvdir/requests.log")"
cmp -s "$stack" "$EXPORT" && ok || bad "a garbled export changed the stack"
: >"$srvdir/faults"

# 5xx twice, then the export works: the import goes through
: >"$srvdir/requests.log"
echo "export 502 2" >"$srvdir/faults"
run; rc=$?
[ "$rc" = 0 ] && ok || bad "import after two 502s: exit $rc: $(cat "$work/err")"
grep -qF "cimport: imported 4 of 5 resources into stack alice/$PROJ/test at $url" "$work/err" && ok || bad "summary: $(cat "$work/err")"
grep -q '^GET /api/user token pul-test-token$' "$srvdir/requests.log" && ok || bad "the token from credentials.json was not sent"
grep -q '^POST /api/stacks/alice/'"$PROJ"'/test/import ' "$srvdir/requests.log" && grep -q '/update/' "$srvdir/requests.log" && ok || bad "no import call and status poll"
python3 - "$EXPORT" "$stack" <<'PY' && ok || bad "the imported deployment"
import json, sys
old = json.load(open(sys.argv[1]))["deployment"]["resources"]
new = json.load(open(sys.argv[2]))["deployment"]["resources"]
assert new[:len(old)] == old
assert {"mq7xk2vt9fzr", "x7k2p9qa"} <= {r.get("id") for r in new}
PY

# The default organization of an unqualified stack name is Pulumi's: `pulumi org set-default` (config.json's
# backends[URL].defaultOrg), else the service's (/api/user/organizations/default), else the user. Before,
# always the user: the import went into alice's stack of that name while `pulumi preview` reads acme's.
mkdir -p "$srvdir/stacks/acme/$PROJ" "$srvdir/stacks/beta/$PROJ"
cp "$EXPORT" "$srvdir/stacks/acme/$PROJ/test.json"
cp "$EXPORT" "$srvdir/stacks/beta/$PROJ/test.json"
cp "$stack" "$work/alice-before.json"
printf '{"backends": {"%s": {"defaultOrg": "acme"}}}' "$url" >"$PULUMI_HOME/config.json"
echo beta >"$srvdir/default-org" # config.json wins over the service's opinion
run; rc=$?
[ "$rc" = 0 ] && grep -qF "cimport: imported 4 of 5 resources into stack acme/$PROJ/test at $url" "$work/err" && ok ||
  bad "config.json defaultOrg: exit $rc: $(cat "$work/err")"
cmp -s "$stack" "$work/alice-before.json" && cmp -s "$srvdir/stacks/beta/$PROJ/test.json" "$EXPORT" && ok ||
  bad "config.json defaultOrg: another organization's stack was written"
# PULUMI_DEFAULT_ORGANIZATION comes before `pulumi org set-default` (Pulumi's env.DefaultOrg: "Takes
# precedence over any default organization set with `pulumi org set-default`"); before, it was ignored
# and the import went into acme's stack while `pulumi preview` reads beta's (read16 F17).
cp "$srvdir/stacks/acme/$PROJ/test.json" "$work/acme-before.json"
PULUMI_DEFAULT_ORGANIZATION=beta run; rc=$?
[ "$rc" = 0 ] && grep -qF "cimport: imported 4 of 5 resources into stack beta/$PROJ/test at $url" "$work/err" && ok ||
  bad "PULUMI_DEFAULT_ORGANIZATION: exit $rc: $(cat "$work/err")"
cmp -s "$srvdir/stacks/acme/$PROJ/test.json" "$work/acme-before.json" && ok ||
  bad "PULUMI_DEFAULT_ORGANIZATION: config.json's organization's stack was written"
cp "$EXPORT" "$srvdir/stacks/beta/$PROJ/test.json"
rm "$PULUMI_HOME/config.json"
run --stack test; rc=$?
[ "$rc" = 0 ] && grep -qF "cimport: imported 4 of 5 resources into stack beta/$PROJ/test at $url" "$work/err" && ok ||
  bad "the service's default organization: exit $rc: $(cat "$work/err")"
cmp -s "$stack" "$work/alice-before.json" && ok || bad "the service's default organization: alice's stack was written"
# ... but a name the workspace file or PULUMI_STACK selects is the user's own unless a default organization
# is configured: Pulumi's CurrentStack qualifies it with the user's name first (getStackNameWithLegacyOrgNameIfNeeded);
# the service's opinion does not enter. Before, beta's stack was written while `pulumi preview` reads alice's
# (read17 F18). PULUMI_DEFAULT_ORGANIZATION is a configured default organization there (pkg/backend's
# getBackendConfigDefaultOrg prefers it over config.json's, TestGetBackendConfigDefaultOrg): the name is that
# organization's, as `pulumi` qualifies it (read18 F6; ba79b0f took it for the user's).
cp "$EXPORT" "$srvdir/stacks/beta/$PROJ/test.json"
for how in workspace PULUMI_STACK PULUMI_DEFAULT_ORGANIZATION; do
  cp "$EXPORT" "$stack"
  cp "$EXPORT" "$srvdir/stacks/beta/$PROJ/test.json"
  owner=alice other="$srvdir/stacks/beta/$PROJ/test.json"
  case $how in
  workspace) run ;;
  PULUMI_STACK) PULUMI_STACK=test run ;;
  PULUMI_DEFAULT_ORGANIZATION) owner=beta other="$stack"; PULUMI_DEFAULT_ORGANIZATION=beta run ;;
  esac
  rc=$?
  [ "$rc" = 0 ] && grep -qF "cimport: imported 4 of 5 resources into stack $owner/$PROJ/test at $url" "$work/err" && ok ||
    bad "a stack selected by $how: exit $rc, not $owner's: $(cat "$work/err")"
  cmp -s "$other" "$EXPORT" && ok || bad "a stack selected by $how: the other organization's stack was written"
done
rm "$srvdir/default-org"

# A Pulumi Cloud stack whose config names no secrets provider and holds no salt uses the service's key
# (`pulumi config set --secret` asks the service to encrypt). With PULUMI_CONFIG_PASSPHRASE set, cimport
# wrote the secret encrypted for that passphrase into Pulumi.test.yaml and added an `encryptionsalt` —
# which makes `pulumi` take the stack for a passphrase stack from then on. The values go to the secrets
# file, with how to store them, as for a KMS stack.
mkdir -p "$work/svc" && cp "$work/proj/Pulumi.yaml" "$work/svc/" && cd "$work/svc"
SS="$SOURCE_DIR/tests/fixtures/cli/secret-stack.json"
printf 'config:\n  aws:region: us-east-1\n' >Pulumi.test.yaml
cp Pulumi.test.yaml before.yaml
for cfg in present absent; do
  [ $cfg = absent ] && rm -f Pulumi.test.yaml
  rm -f cimport-secrets.test.json
  PULUMI_CONFIG_PASSPHRASE=pw "$CIMPORT" random:index/randomPet:RandomPet apiName brave-otter --offline-state "$SS" \
    --schema "$S" -l typescript --stack test --code-only -o svc.ts >"$work/err" 2>&1; rc=$?
  { [ $cfg = absent ] && [ ! -e Pulumi.test.yaml ] || cmp -s Pulumi.test.yaml before.yaml; } && [ "$rc" = 0 ] &&
    [ "$(stat -c %a cimport-secrets.test.json 2>/dev/null)" = 600 ] && grep -qF 'cimport cannot encrypt for this stack' "$work/err" &&
    ok || bad "a service-secrets stack config ($cfg) with a passphrase set: exit $rc: $(cat "$work/err"; cat Pulumi.test.yaml 2>/dev/null)"
done
cd "$work/proj"

echo "test_cloud_backend: $pass passed, $fail failed"
[ "$fail" = 0 ]

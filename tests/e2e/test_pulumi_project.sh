#!/usr/bin/env bash
# test_pulumi_project.sh — cimport inside a real Pulumi project, the way `pulumi import` works there
# (issue 16), on a DIY file backend laid out as the Pulumi CLI lays it out (pkg/backend/diy):
#   <root>/.pulumi/meta.yaml, stacks/<project>/<stack>.json (a checkpoint made from a real
#   `pulumi stack export` in ../shared/data/pulumi-state), locks/organization/<project>/<stack>/,
#   backups/<project>/<stack>/, history/<project>/<stack>/; the selected stack in
#   $PULUMI_HOME/workspaces/<project>-<sha1(Pulumi.yaml path)>-workspace.json and the backend in
#   $PULUMI_HOME/credentials.json.
# Checks: import into the selected stack (every earlier resource kept byte for byte, the result a
# valid checkpoint with parents before children, the backup/.bak/history written, the lock taken
# and released), a concurrent lock holder (wait, then a clear refusal naming the holder; or the
# holder leaves and the import proceeds), non-interactive without --yes (refused, naming the flag),
# the default without a writable stack (code with the `import` option and the next step), the
# --stack-state safeguards, the flags of `pulumi import`, -o's language, "did you mean", counts and
# grouped failures, and the same ID twice.
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
Q="$SOURCE_DIR/examples/quickstart"
S="$SHARED_DATA/schemas/random/schema.json"
EXPORT="$SHARED_DATA/pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randomstring/4.16.0/stack.json"
PROJ=index_randomstringTu2iX3Vq02G9
export PULUMI_HOME="$work/home"
unset PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN PULUMI_CONFIG_PASSPHRASE 2>/dev/null || true
common=(--spec "$Q/imports.json" --offline-state "$Q/stack.json" --schema "$S")

# --- the fixture: a DIY backend with the stack `test` of project $PROJ ---------------------------
state="$work/state"
mkdir -p "$state/.pulumi/stacks/$PROJ" "$PULUMI_HOME/workspaces" "$work/proj/sub"
printf 'version: 1\n' >"$state/.pulumi/meta.yaml"
python3 - "$EXPORT" "$state/.pulumi/stacks/$PROJ/test.json" "$PROJ" <<'PY'
import json, sys
exp = json.load(open(sys.argv[1]))
cp = {"version": 3, "checkpoint": {"stack": "organization/%s/test" % sys.argv[3], "latest": exp["deployment"]}}
open(sys.argv[2], "w").write(json.dumps(cp, separators=(",", ":")))
PY
cp "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json"
printf 'name: %s\nruntime: nodejs\n' "$PROJ" >"$work/proj/Pulumi.yaml"
sha=$(printf '%s' "$work/proj/Pulumi.yaml" | sha1sum | cut -d' ' -f1)
printf '{\n    "stack": "organization/%s/test"\n}' "$PROJ" >"$PULUMI_HOME/workspaces/$PROJ-$sha-workspace.json"
printf '{"current": "file://%s", "accessTokens": {}}' "$state" >"$PULUMI_HOME/credentials.json"
lockdir="$state/.pulumi/locks/organization/$PROJ/test"

# --- non-interactive without --yes: refused before anything runs, naming the flag -----------------
(cd "$work/proj/sub" && "$CIMPORT" "${common[@]}" </dev/null >"$work/out" 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && ok || bad "non-interactive without --yes: exit $rc, want 2"
grep -qF -- '--yes or --skip-preview must be passed in to proceed when running in non-interactive mode' "$work/err" && ok ||
  bad "non-interactive refusal does not name --yes: $(cat "$work/err")"
cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" && ok || bad "the refused run changed the checkpoint"

# --- a concurrent lock holder: wait, then refuse clearly -------------------------------------------
mkdir -p "$lockdir"
printf '{"pid":4242,"username":"alice","hostname":"buildbox","timestamp":"2026-01-01T00:00:00Z"}' >"$lockdir/11111111-2222-4333-8444-555555555555.json"
start=$(date +%s)
(cd "$work/proj/sub" && "$CIMPORT" "${common[@]}" --yes --lock-timeout 2 -l typescript >"$work/out" 2>"$work/err")
rc=$? end=$(date +%s)
[ "$rc" = 2 ] && ok || bad "locked stack: exit $rc, want 2"
[ $((end - start)) -ge 2 ] && ok || bad "cimport did not wait for the lock ($((end - start)) s)"
grep -qF 'is locked by 1 other process' "$work/err" && grep -qF 'alice@buildbox (pid 4242)' "$work/err" && ok ||
  bad "lock refusal does not say who holds it: $(cat "$work/err")"
grep -qF 'pulumi cancel' "$work/err" && ok || bad "lock refusal gives no way out"
cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" && ok || bad "the locked run changed the checkpoint"
[ "$(ls "$lockdir")" = "11111111-2222-4333-8444-555555555555.json" ] && ok || bad "cimport left a lock behind: $(ls "$lockdir")"
[ ! -s "$work/out" ] && ok || bad "code was written although nothing was imported"
grep -qF 'and stayed locked for 2 s, so nothing was imported' "$work/err" && ok || bad "lock refusal: the wait: $(cat "$work/err")"
# a wait under a second is said as it was (it said "stayed locked for 0 s")
(cd "$work/proj/sub" && "$CIMPORT" "${common[@]}" --yes --lock-timeout 300ms -l typescript >/dev/null 2>"$work/err")
grep -qF 'and stayed locked for 300 ms, so nothing was imported' "$work/err" && ok || bad "lock refusal after 300ms: $(cat "$work/err")"

# ... and when the holder finishes while cimport waits, the import proceeds
# The holder lets go once cimport says it waits (not after a fixed sleep: on a loaded machine cimport
# may start later than that, never see the lock and the test would prove nothing).
: >"$work/err"
(for _ in $(seq 1 300); do grep -qF 'waiting for it' "$work/err" 2>/dev/null && break; sleep 0.1; done
 sleep 0.5; rm -f "$lockdir/11111111-2222-4333-8444-555555555555.json") &
(cd "$work/proj/sub" && "$CIMPORT" "${common[@]}" --yes --lock-timeout 20 -l typescript >"$work/out" 2>"$work/err")
rc=$?
wait
[ "$rc" = 0 ] && ok || { bad "import after the lock was released: exit $rc"; cat "$work/err" >&2; }
grep -qF 'waiting for it' "$work/err" && ok || bad "no word about waiting for the lock"
grep -qxF "cimport: imported 4 of 5 resources into stack organization/$PROJ/test at file://$state (4 consistent with the schema (offline), none verified by a provider; 1 not checked: components and providers have nothing to read)" "$work/err" && ok ||
  bad "summary: $(cat "$work/err")"
grep -qF 'Previewing import' "$work/err" && ok || bad "no preview before writing"
# where the previous checkpoint is, as a path one can open (it named .pulumi/backups/..., relative to
# the backend's directory, not to where the user runs)
grep -qE "^cimport: the previous checkpoint is kept in $state/\.pulumi/backups/$PROJ/test/test\.[0-9]+\.json$" "$work/err" && ok ||
  bad "backup path: $(grep 'previous checkpoint' "$work/err")"
# the component is created, not imported: the counts say so, as the preview's lines do
grep -qxF 'Resources: 4 to import, 1 to create, 0 already in the stack, 3 existing kept as they are' "$work/err" && ok ||
  bad "preview counts: $(grep Resources: "$work/err")"
grep -q '^next: ' "$work/err" && ok || bad "no next step"
[ -z "$(ls "$lockdir")" ] && ok || bad "the lock was not released: $(ls "$lockdir")"
grep -qF 'new random.RandomString("server-name"' "$work/out" && ! grep -qF 'import:' "$work/out" && ok ||
  bad "stack import: the code should be plain (no import option)"

python3 - "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json" "$PROJ" <<'PY' && ok || bad "the checkpoint after the import"
import json, sys
old = json.load(open(sys.argv[1])); new = json.load(open(sys.argv[2])); proj = sys.argv[3]
assert new["version"] == 3 and new["checkpoint"]["stack"] == "organization/%s/test" % proj
oldres = old["checkpoint"]["latest"]["resources"]; res = new["checkpoint"]["latest"]["resources"]
byurn = {r["urn"]: r for r in res}
assert len(byurn) == len(res), "duplicate URNs"
for r in oldres:
    assert byurn.get(r["urn"]) == r, "earlier resource changed or lost: " + r["urn"]
assert res[:len(oldres)] == oldres, "earlier resources reordered"
seen = set()
for r in res:
    for ref in [r.get("parent")] + ([r["provider"].rsplit("::", 1)[0]] if r.get("provider") else []):
        assert not ref or ref in seen, "%s refers to %s before it" % (r["urn"], ref)
    seen.add(r["urn"])
new_ids = {r.get("id") for r in res if r["urn"] not in {o["urn"] for o in oldres}}
for i in ["mq7xk2vt9fzr", "q8Vb1f0Zk3Y", "x7k2p9qa", "8443"]:
    assert i in new_ids, "missing " + i
for r in res:
    if r.get("id") in ("mq7xk2vt9fzr", "x7k2p9qa"):
        assert r["urn"].startswith("urn:pulumi:test::%s::" % proj) and r.get("protect") is True
PY
cmp -s "$state/.pulumi/stacks/$PROJ/test.json.bak" "$work/orig.json" && ok || bad "no .bak of the previous checkpoint"
b=$(ls "$state/.pulumi/backups/$PROJ/test/" 2>/dev/null | grep -E '^test\.[0-9]+\.json$' | head -1)
[ -n "$b" ] && cmp -s "$state/.pulumi/backups/$PROJ/test/$b" "$work/orig.json" && ok || bad "no backup under .pulumi/backups"
h=$(ls "$state/.pulumi/history/$PROJ/test/" 2>/dev/null | grep -E '^test-[0-9]+\.history\.json$' | head -1)
[ -n "$h" ] && python3 -c 'import json,sys; u=json.load(open(sys.argv[1])); assert u["kind"]=="import" and u["result"]=="succeeded" and u["resourceChanges"]["import"]==4' "$state/.pulumi/history/$PROJ/test/$h" && ok ||
  bad "no history entry"
ls "$state/.pulumi/history/$PROJ/test/" | grep -qE '^test-[0-9]+\.checkpoint\.json$' && ok || bad "no history checkpoint copy"

# again: nothing is added twice
cp "$state/.pulumi/stacks/$PROJ/test.json" "$work/after1.json"
(cd "$work/proj" && "$CIMPORT" "${common[@]}" --skip-preview -q -l typescript >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 0 ] && ok || bad "second import: exit $rc: $(cat "$work/err")"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a["checkpoint"]["latest"]["resources"]==b["checkpoint"]["latest"]["resources"]' \
  "$work/after1.json" "$state/.pulumi/stacks/$PROJ/test.json" && ok || bad "a second identical import changed the resources"
# ... and says so, not "fix what is reported above" (nothing is wrong)
(cd "$work/proj" && "$CIMPORT" "${common[@]}" --yes -l typescript >/dev/null 2>"$work/err")
grep -qxF "cimport: read 5 of 5 resources (4 consistent with the schema (offline), none verified by a provider; 1 not checked: components and providers have nothing to read); all are already in stack organization/$PROJ/test at file://$state: nothing to import" "$work/err" &&
  tail -n 1 "$work/err" | grep -qxF 'next: add the code above to your program; `pulumi preview` should then show no changes for them' && ok ||
  bad "a re-run's summary: $(tail -n 3 "$work/err")"
# ... and with one resource that fails to read, "all are" would take it in (it said so)
python3 - "$Q/imports.json" "$work/onebad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["resources"][-1]["id"] = "8001,8000,8999"
json.dump(d, open(sys.argv[2], "w"))
PY
(cd "$work/proj" && "$CIMPORT" --spec "$work/onebad.json" --offline-state "$Q/stack.json" --schema "$S" --yes -l typescript >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 1 ] && grep -qxF "cimport: read 4 of 5 resources (3 consistent with the schema (offline), none verified by a provider; 1 not checked: components and providers have nothing to read), 1 failed; the 4 read are already in stack organization/$PROJ/test at file://$state: nothing to import" "$work/err" &&
  ok || bad "a re-run with a failure: exit $rc: $(tail -n 3 "$work/err")"
# ... and with one resource new: "imported 1 of 5" alone read as 4 missing (exit 0); the 4 are there.
# The new one is another object (another port): the same ID under a new name would be a second
# resource of one object, which the merge refuses.
python3 - "$Q/imports.json" "$work/onenew.json" "$Q/stack.json" "$work/onenew-state.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
d["resources"][-1]["name"] = "http-port-2"
d["resources"][-1]["id"] = "8444,8000,8999,mq7xk2vt9fzr"
json.dump(d, open(sys.argv[2], "w"))
st = json.load(open(sys.argv[3]))
rs = st["deployment"]["resources"]
r = copy.deepcopy([x for x in rs if x["urn"].endswith("::http-port")][0])
r["urn"] += "-2"; r["id"] = "8444"; r["outputs"].update({"id": "8444", "result": 8444})
rs.append(r)
json.dump(st, open(sys.argv[4], "w"))
PY
cp "$state/.pulumi/stacks/$PROJ/test.json" "$work/before-onenew.json"
(cd "$work/proj" && "$CIMPORT" --spec "$work/onenew.json" --offline-state "$work/onenew-state.json" --schema "$S" --yes -l typescript >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 0 ] && grep -qxF "cimport: imported 1 of 5 resources into stack organization/$PROJ/test at file://$state (4 consistent with the schema (offline), none verified by a provider; 1 not checked: components and providers have nothing to read), 4 already in it" "$work/err" &&
  ok || bad "a run with one new resource: exit $rc: $(tail -n 3 "$work/err")"
cp "$work/before-onenew.json" "$state/.pulumi/stacks/$PROJ/test.json"

# a merge that would change an existing resource is refused, the stack untouched
echo '{"resources":[{"type":"random:index/randomString:RandomString","name":"server-name","id":"mq7xk2vt9fzr"}]}' >"$work/clash.json"
cp "$state/.pulumi/stacks/$PROJ/test.json" "$work/before.json"
(cd "$work/proj" && "$CIMPORT" --spec "$work/clash.json" --offline-state "$Q/stack.json" --schema "$S" --yes -q >/dev/null 2>"$work/err")
rc=$?
# a top-level server-name is a new URN with the ID of the stack's server-name under the component: a
# second resource of one object (a destroy of either deletes it), refused (read10a F3)
[ "$rc" = 2 ] && grep -qF "which the stack manages already" "$work/err" && cmp -s "$work/before.json" "$state/.pulumi/stacks/$PROJ/test.json" &&
  ok || bad "clash run: exit $rc: $(cat "$work/err")"
[ -z "$(ls "$lockdir")" ] && ok || bad "lock left after a refused merge"

# --cwd, --stack (fully qualified), --config-file, --non-interactive --yes
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"
printf 'config:\n  random:unused: x\n' >"$work/cfg.yaml"
"$CIMPORT" "${common[@]}" --cwd "$work/proj" --stack "organization/$PROJ/test" --config-file "$work/cfg.yaml" \
  --non-interactive --yes -l typescript >/dev/null 2>"$work/err"
rc=$?
# the stack's default provider was recorded without random:unused, which the config file gives the package
# now: Pulumi updates that provider at the next preview (read14 F3), so it is said and the run exits 1
[ "$rc" = 1 ] && grep -qF "into stack organization/$PROJ/test" "$work/err" &&
  grep -qF "pulumi:providers:random::default' records another configuration (unused) than the stack's configuration gives the random package now" "$work/err" &&
  ok || bad "--cwd/--stack/--config-file: exit $rc: $(cat "$work/err")"

# an unknown stack is refused clearly
"$CIMPORT" "${common[@]}" --cwd "$work/proj" --stack nope --yes >/dev/null 2>"$work/err"
rc=$?
[ "$rc" = 2 ] && grep -qF "the stack 'nope' of project '$PROJ' does not exist" "$work/err" && ok || bad "unknown stack: exit $rc: $(cat "$work/err")"

# --- without a writable stack: code with the `import` option, and the next step --------------------
mkdir -p "$work/plain" && cd "$work/plain"
"$CIMPORT" "${common[@]}" -l typescript >out.ts 2>err
rc=$?
[ "$rc" = 0 ] && ok || bad "plain run: exit $rc"
grep -qF 'import: "mq7xk2vt9fzr",' out.ts && ok || bad "default code lacks the import option"
! grep -q '^cimport: imported' err && ok || bad "says 'imported' although no stack was written: $(cat err)"
grep -qF 'nothing was imported into a stack yet' err && grep -q '^next: .*pulumi up' err && ok || bad "no next step: $(cat err)"
"$CIMPORT" "${common[@]}" -l typescript --code-only >co.ts 2>err
! grep -qF 'import:' co.ts && grep -qF 'would try to CREATE them' err && ok || bad "--code-only"

# --stack-state: never creates a document unless asked; the stack and project must match
"$CIMPORT" "${common[@]}" --stack-state new.json >/dev/null 2>err
rc=$?
[ "$rc" = 2 ] && [ ! -e new.json ] && grep -qF 'pulumi stack export --file new.json' err && ok || bad "--stack-state on a missing file: exit $rc: $(cat err)"
"$CIMPORT" "${common[@]}" --stack-state new.json --new-stack-state -q >/dev/null 2>err && [ -s new.json ] && ok || bad "--new-stack-state: $(cat err)"
cp "$EXPORT" other.json
"$CIMPORT" "${common[@]}" --stack-state other.json --stack prod >/dev/null 2>err
rc=$?
[ "$rc" = 2 ] && grep -qF "this export is of stack 'test' in project '$PROJ'" err && cmp -s other.json "$EXPORT" && ok || bad "--stack-state mismatch: exit $rc: $(cat err)"

# flags of `pulumi import`; -o picks the language from the name; did you mean
"$CIMPORT" "${common[@]}" --yes --skip-preview --non-interactive -o main.py 2>err
rc=$?
[ "$rc" = 0 ] && python3 -m py_compile main.py && grep -qF 'import pulumi_random as random' main.py && ok || bad "-o main.py: exit $rc"
expect_line() { grep -qxF -- "$1" err && ok || bad "want '$1', got: $(cat err)"; }
"$CIMPORT" "${common[@]}" --stak dev 2>err; expect_line "cimport: unknown option '--stak'; did you mean '--stack'?"
"$CIMPORT" "${common[@]}" -l typscript 2>err; expect_line "cimport: unknown --language 'typscript'; did you mean 'typescript'?"
"$CIMPORT" --from terraform "$SHARED_DATA/tfstate/none.tfstate" 2>err; [ $? = 2 ] && ok || bad "--from terraform with a missing file"

# --from terraform: a real Terraform state converted and imported (read from the same state)
tf=$(ls "$SHARED_DATA"/tfstate/*/*.tfstate 2>/dev/null | head -1)
if [ -n "$tf" ]; then
  "$CIMPORT" --from terraform "$tf" --preview-only >/dev/null 2>err
  rc=$?
  ! grep -qF 'unknown option' err && [ "$rc" != 2 ] || grep -q 'error: ' err && ok || bad "--from terraform not accepted: $(cat err)"
fi

# readable generated names: two Terraform resources named `test` (a load balancer and its target
# group) — the second is named after itself (its `name` attribute), not `test_2`
LBTF="$SHARED_DATA/tfstate/driftctl/pkg/iac/terraform/state/test/aws_lb_listener/terraform.tfstate"
"$CIMPORT" convert --from terraform "$LBTF" --mapping "$SHARED_DATA/schemas" --mapping "$SOURCE_DIR/tests/fixtures/convert/mapping-aws" -q >lb.json 2>/dev/null
python3 -c 'import json,sys; n=[r["name"] for r in json.load(open(sys.argv[1]))["resources"]]; assert "test_2" not in n and "tf_example_lb_tg" in n, n' lb.json && ok ||
  bad "generated names: $(grep '"name"' lb.json | tr -d ' \n')"

# did you mean: a mistyped type token and package
echo '{"resources":[{"type":"random:index/randomPett:RandomPett","name":"a","id":"clever-wombat"},{"type":"randm:index/randomPet:RandomPet","name":"b","id":"x"}]}' >typo.json
"$CIMPORT" --spec typo.json --offline-state "$Q/stack.json" --schema "$S" >/dev/null 2>err
grep -qF "has no resource type 'random:index/randomPett:RandomPett'; did you mean 'random:index/randomPet:RandomPet'?" err && ok || bad "no suggestion for a type: $(cat err)"
grep -qF "the offline provider needs the schema of package 'randm', but the schemas given are for 'random'; did you mean 'random'?" err && ok || bad "no suggestion for a package: $(cat err)"

# eight resources of three types the schema lacks: one line, the types listed once each
python3 -c "
import json
print(json.dumps({'resources': [{'type': 'random:index/nothing%d:Nothing%d' % (i % 3, i % 3), 'name': 'n%d' % i, 'id': 'x%d' % i} for i in range(8)]}))" >unk.json
"$CIMPORT" --spec unk.json --offline-state "$Q/stack.json" --schema "$S" >/dev/null 2>err
[ "$(grep -c '^error: ' err)" = 1 ] && grep -qF "error: 8 resources failed: the schema of package 'random' has no resource type '<type>'" err &&
  grep -qF '  types: random:index/nothing0:Nothing0, random:index/nothing1:Nothing1, random:index/nothing2:Nothing2 (3 types)' err &&
  grep -qxF 'cimport: read 0 of 8 resources, 8 failed; nothing was imported' err && ok || bad "unknown types not summarized: $(cat err)"

# counts and failures grouped by cause
python3 - >some.json <<'PY'
import json
r = [{"type": "random:index/randomString:RandomString", "name": "good", "id": "x7k2p9qa"}]
r += [{"type": "random:index/randomString:RandomString", "name": "gone%d" % i, "id": "no-such-string-%d" % i} for i in range(5)]
print(json.dumps({"resources": r}))
PY
"$CIMPORT" --spec some.json --offline-state "$Q/stack.json" --schema "$S" >/dev/null 2>err
rc=$?
[ "$rc" = 1 ] && ok || bad "partial failure exit $rc"
grep -qF 'cimport: read 1 of 6 resources (1 consistent with the schema (offline), none verified by a provider), 5 failed;' err && ok || bad "summary counts: $(cat err)"
[ "$(grep -c '^error: ' err)" = 1 ] && grep -qF "error: 5 resources failed: resource '<id>' does not exist" err && ok || bad "failures not grouped: $(cat err)"
# the note each missing ID carries reads once for the five, not five near-identical lines
[ "$(grep -c 'the offline state has no resource' err)" = 1 ] &&
    grep -qF "info: $Q/stack.json: the offline state has no resource of type '<type>' with ID '<id>'; check the ID, or pass the stack state that records it (5 resources)" err &&
    ok || bad "notes not grouped: $(cat err)"

# the same ID under two names: an error, nothing written
echo '{"resources":[{"type":"random:index/randomPet:RandomPet","name":"a","id":"clever-wombat"},{"type":"random:index/randomPet:RandomPet","name":"b","id":"clever-wombat"}]}' >twice.json
"$CIMPORT" --spec twice.json --offline-state "$Q/stack.json" --schema "$S" -o twice.pp 2>err
rc=$?
[ "$rc" = 2 ] && [ ! -e twice.pp ] && grep -qF "is imported twice, as 'a' and as 'b'" err && ok || bad "same ID twice: exit $rc: $(cat err)"

# --diff where the selected stack can be written: the diff is of the code a run without --diff
# writes (into the stack, so no `import` options), and the next step says that run imports into the
# stack. It showed code with 4 `import:` options and "run again without --diff to write index.ts",
# a run that then wrote other code (none) and the stack.
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"
printf 'export const before = 1;\n' >"$work/proj/index.ts"
(cd "$work/proj" && "$CIMPORT" "${common[@]}" --yes -l typescript --insert-into index.ts --diff >"$work/diff.out" 2>"$work/diff.err")
rc=$?
[ "$rc" = 4 ] && cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" && ok || bad "--diff into a stack project: exit $rc, or the stack changed"
grep -q 'import:' "$work/diff.out" && bad "--diff into a stack project shows code with the import option: $(grep -c 'import:' "$work/diff.out")" || ok
grep -qxF "next: review the diff above, then run again without --diff to import them into stack test at file://$state and write index.ts" "$work/diff.err" &&
  ! grep -qF 'the code imports them with the `import` resource option' "$work/diff.err" && ok || bad "--diff into a stack project: $(cat "$work/diff.err")"
(cd "$work/proj" && "$CIMPORT" "${common[@]}" --yes -l typescript --insert-into index.ts >/dev/null 2>"$work/err")
grep '^+' "$work/diff.out" | grep -v '^+++' | cut -c2- >"$work/diff.added"
diff <(printf 'export const before = 1;\n' | diff - "$work/proj/index.ts" | sed -n 's/^> //p') "$work/diff.added" >/dev/null && ok ||
  bad "--diff showed other code than the run then wrote"
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"

# --insert-into a program of another Pulumi project nested below this one (a monorepo): the run
# imported into this project's stack and wrote the code, without `import` options, into the other
# project's program, whose `pulumi up` uses its own stacks (read11 F14: exit 0, "`pulumi preview`
# should show no changes"). Refused before anything runs, naming both projects; nothing changed.
mkdir -p "$work/proj/other"
printf 'name: other\nruntime: nodejs\n' >"$work/proj/other/Pulumi.yaml"
printf 'export const before = 1;\n' >"$work/proj/other/index.ts"
(cd "$work/proj" && "$CIMPORT" "${common[@]}" --yes --insert-into other/index.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" &&
  [ "$(cat "$work/proj/other/index.ts")" = 'export const before = 1;' ] && ok || bad "--insert-into a nested project's program: exit $rc, or something changed"
grep -qxF "error: other/index.ts: this program is of project 'other' ($work/proj/other/Pulumi.yaml), not of project '$PROJ' ($work/proj/Pulumi.yaml), whose stack and config the run uses: run in that project's directory (--cwd $work/proj/other)" "$work/err" &&
  ok || bad "--insert-into a nested project's program: $(cat "$work/err")"
# with the `import` option too: the config and stack named are this project's, not the program's
(cd "$work/proj" && "$CIMPORT" "${common[@]}" --import-option --insert-into other/index.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$work/proj/other/index.ts")" = 'export const before = 1;' ] && ok ||
  bad "--insert-into a nested project's program with --import-option: exit $rc: $(cat "$work/err")"
# from its own directory it goes in (with the `import` option: project other has no stack)
(cd "$work/proj/other" && "$CIMPORT" "${common[@]}" --insert-into index.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 0 ] && grep -qF 'import: ' "$work/proj/other/index.ts" && ok || bad "--insert-into from the nested project: exit $rc: $(cat "$work/err")"
rm -rf "$work/proj/other"
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"

# --insert-into proj/index.ts run from outside any project: the run had no project, so the program's
# was never judged: it wrote the code with `import` options (exit 0) where the same run inside proj/
# imports into its selected stack (and, non-interactive, asks for --yes), and into a program of
# another language than its project's runtime. The program's project is the run's now, as inside it.
printf 'export const before = 1;\n' >"$work/proj/index.ts"
(cd "$work" && "$CIMPORT" "${common[@]}" --insert-into proj/index.ts </dev/null >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$work/proj/index.ts")" = 'export const before = 1;' ] &&
  grep -qF -- '--yes or --skip-preview must be passed in to proceed when running in non-interactive mode' "$work/err" &&
  ok || bad "--insert-into proj/index.ts from outside, non-interactive: exit $rc: $(cat "$work/err")"
(cd "$work" && "$CIMPORT" "${common[@]}" --yes --insert-into proj/index.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 0 ] && grep -qF 'new random.RandomString' "$work/proj/index.ts" && ! grep -qF 'import: ' "$work/proj/index.ts" &&
  ! cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" &&
  ok || bad "--insert-into proj/index.ts from outside: not into stack test: exit $rc: $(cat "$work/err")"
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"
mkdir -p "$work/py"
printf 'name: py\nruntime: python\n' >"$work/py/Pulumi.yaml"
printf 'export const before = 1;\n' >"$work/py/index.ts"
(cd "$work" && "$CIMPORT" "${common[@]}" --insert-into py/index.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$work/py/index.ts")" = 'export const before = 1;' ] &&
  grep -qF "error: py/index.ts: the project's runtime (Pulumi.yaml) is python, so \`pulumi up\` runs its Python program, not this TypeScript file" "$work/err" &&
  ok || bad "--insert-into py/index.ts (a python project) from outside: exit $rc: $(cat "$work/err")"
rm -rf "$work/py"
printf 'export const before = 1;\n' >"$work/proj/index.ts"
# ... with a relative backend URL in Pulumi.yaml (`backend: url: file://../state`): Pulumi resolves
# it against the directory `pulumi` runs in, the project's (`pulumi -C proj`); cimport resolved it
# against its own working directory, outside the project: "the backend directory ../state (from
# file://../state) does not exist" (or, were there one, another backend's stack)
cp "$work/proj/Pulumi.yaml" "$work/Pulumi.yaml.keep"
printf 'backend:\n  url: file://../state\n' >>"$work/proj/Pulumi.yaml"
(cd "$work" && "$CIMPORT" "${common[@]}" --yes --insert-into proj/index.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 0 ] && grep -qF 'new random.RandomString' "$work/proj/index.ts" && ! grep -qF 'import: ' "$work/proj/index.ts" &&
  ! cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" &&
  grep -qF "into stack organization/$PROJ/test at file://$state " "$work/err" &&
  ok || bad "--insert-into proj/index.ts from outside, backend file://../state in Pulumi.yaml: exit $rc: $(cat "$work/err")"
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"
mv "$work/Pulumi.yaml.keep" "$work/proj/Pulumi.yaml"
printf 'export const before = 1;\n' >"$work/proj/index.ts"

# a stack Pulumi keeps zstd-compressed (<stack>.json.zst): cimport cannot read it and says so,
# exit 2, nothing changed; it said the stack does not exist and to create it with `pulumi stack init`
mv "$state/.pulumi/stacks/$PROJ/test.json" "$work/test.json.keep"
printf '\x28\xb5\x2f\xfdzst' >"$state/.pulumi/stacks/$PROJ/test.json.zst"
(cd "$work/proj" && "$CIMPORT" "${common[@]}" --yes -l typescript -o zst.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && [ ! -e "$work/proj/zst.ts" ] && ! grep -qF 'pulumi stack init' "$work/err" &&
  grep -qF "is stored zstd-compressed (.pulumi/stacks/$PROJ/test.json.zst), which cimport cannot read" "$work/err" && ok ||
  bad "a zstd-compressed stack: exit $rc: $(cat "$work/err")"
rm -f "$state/.pulumi/stacks/$PROJ/test.json.zst"
mv "$work/test.json.keep" "$state/.pulumi/stacks/$PROJ/test.json"

# run from the project through a symlinked path (`cd ~/work/app`, a link): Pulumi hashes the project
# path as os.Getwd gives it, which is $PWD when $PWD names the working directory, so `pulumi stack
# select` from there keys the selection by the link's path; cimport hashed the resolved path and
# said no stack is selected (read13 F6)
ln -s "$work/proj" "$work/link"
real_ws="$PULUMI_HOME/workspaces/$PROJ-$sha-workspace.json"
mv "$real_ws" "$work/ws.keep"
lsha=$(printf '%s' "$work/link/Pulumi.yaml" | sha1sum | cut -d' ' -f1)
printf '{\n    "stack": "organization/%s/test"\n}' "$PROJ" >"$PULUMI_HOME/workspaces/$PROJ-$lsha-workspace.json"
(cd "$work/link" && "$CIMPORT" "${common[@]}" --yes -l typescript -o link.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 0 ] && grep -qF "into stack organization/$PROJ/test at file://$state" "$work/err" &&
  ! cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" && ok ||
  bad "run from a symlinked project path, selection keyed by it: exit $rc: $(cat "$work/err")"
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"
# ... and with $PWD naming another directory than the working one (after a chdir), the resolved path
(cd "$work/link" && PWD=/ "$CIMPORT" "${common[@]}" --yes -l typescript -o link2.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 0 ] && grep -qF "no stack is selected" "$work/err" && cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" &&
  ok || bad "run with a stale \$PWD: exit $rc: $(cat "$work/err")"
rm -f "$PULUMI_HOME/workspaces/$PROJ-$lsha-workspace.json" "$work/link"
mv "$work/ws.keep" "$real_ws"

# a project file in JSON (Pulumi.json, which Pulumi reads as it reads Pulumi.yaml) in a directory of
# the project: cimport did not see it and took the parent project's selected stack, where `pulumi`
# there uses the child project (read13 F7); refused now, naming the file, nothing written
mkdir -p "$work/proj/child"
printf '{"name": "childproj", "runtime": "nodejs"}' >"$work/proj/child/Pulumi.json"
(cd "$work/proj/child" && "$CIMPORT" "${common[@]}" --yes -l typescript -o child.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && [ ! -e "$work/proj/child/child.ts" ] && cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" &&
  grep -qF "$work/proj/child/Pulumi.json: a Pulumi project file in JSON" "$work/err" && ok ||
  bad "a child project in Pulumi.json: exit $rc: $(cat "$work/err")"
# the same child's program inserted into from the parent project: the program's own project was
# looked up quietly, its Pulumi.json error taken for "a file in no project", and the code went into
# child/index.ts, the resource into the parent's stack (read13c F7); refused, naming the file
printf 'export const before = 1;\n' >"$work/proj/child/index.ts"
(cd "$work/proj" && "$CIMPORT" "${common[@]}" --yes -l typescript --insert-into child/index.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$work/proj/child/index.ts")" = 'export const before = 1;' ] &&
  cmp -s "$state/.pulumi/stacks/$PROJ/test.json" "$work/orig.json" &&
  grep -qF "$work/proj/child/Pulumi.json: a Pulumi project file in JSON" "$work/err" && ok ||
  bad "--insert-into a Pulumi.json child's program from the parent: exit $rc: $(cat "$work/err")"
# -o over that program from the parent: its project was not told either, and -o replaced it
(cd "$work/proj" && "$CIMPORT" "${common[@]}" --yes -l typescript -o child/index.ts >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && [ "$(cat "$work/proj/child/index.ts")" = 'export const before = 1;' ] &&
  grep -qF "$work/proj/child/Pulumi.json: a Pulumi project file in JSON" "$work/err" && ok ||
  bad "-o over a Pulumi.json child's program from the parent: exit $rc: $(cat "$work/err")"
cp "$work/orig.json" "$state/.pulumi/stacks/$PROJ/test.json"
rm -rf "$work/proj/child"

# --- pulumi:disable-default-providers, offline, code with the `import` option (read18 F12) -------------
# Pulumi refuses a resource that would take a disabled package's default provider ("Default provider for
# 'random' disabled"): the code cimport writes for `pulumi up` must not take one. Checked online and into a
# stack before; an offline run writing code was not (exit 0, "run `pulumi up`: it imports the resources").
mkdir -p "$work/ddp"
printf '{"resources":[{"type":"random:index/randomString:RandomString","name":"bucket-suffix","id":"x7k2p9qa"}]}' >"$work/ddp/i.json"
for where in project stack; do
  rm -f "$work/ddp/"*.ts "$work/ddp/Pulumi.dev.yaml"
  if [ $where = project ]; then
    printf 'name: shop\nruntime: nodejs\nconfig:\n  pulumi:disable-default-providers:\n    - "*"\n' >"$work/ddp/Pulumi.yaml"
    sel=()
  else
    printf 'name: shop\nruntime: nodejs\n' >"$work/ddp/Pulumi.yaml"
    printf 'config:\n  pulumi:disable-default-providers:\n    - random\n  random:token:\n    secure: v1:AAAA:BBBB\n' >"$work/ddp/Pulumi.dev.yaml"
    sel=(--stack dev)
  fi
  (cd "$work/ddp" && "$CIMPORT" --spec i.json --offline-state "$Q/stack.json" --schema "$S" "${sel[@]}" --import-option -o o.ts >/dev/null 2>"$work/err")
  rc=$?
  [ "$rc" = 2 ] && [ ! -e "$work/ddp/o.ts" ] &&
    grep -qF "would use the default random provider, which the stack disables (pulumi:disable-default-providers" "$work/err" &&
    ok || bad "offline code with the default providers disabled in the $where config: exit $rc: $(cat "$work/err")"
done
# --config pulumi:... is Pulumi's own setting, not a package's configuration: said so
rm -f "$work/ddp/Pulumi.dev.yaml"
(cd "$work/ddp" && "$CIMPORT" --spec i.json --schema "$S" --code-only -o o.ts \
  --config 'pulumi:disable-default-providers=["*"]' >/dev/null 2>"$work/err")
rc=$?
[ "$rc" = 2 ] && grep -qF "pulumi:disable-default-providers is a setting of Pulumi's, not a provider's configuration" "$work/err" &&
  ok || bad "--config pulumi:...: exit $rc: $(cat "$work/err")"

echo "test_pulumi_project: $pass passed, $fail failed"
[ "$fail" = 0 ]

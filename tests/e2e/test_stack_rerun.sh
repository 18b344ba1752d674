#!/usr/bin/env bash
# test_stack_rerun.sh — what a run says about a DIY stack it writes, checked against the stack: a
# re-run whose resources are in the stack already promises "`pulumi preview` should then show no
# changes" only when the stack records the inputs read now (a resource that changed since — here
# bucket-suffix's length and upper — is named with the properties that differ, exit 1).
set -u
unset PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
Q="$SOURCE_DIR/examples/quickstart"
S="$SHARED_DATA/schemas/random/schema.json"
state="$work/state"
mkdir -p "$state/.pulumi/stacks/shop" "$work/home" "$work/proj"
printf 'version: 1\n' >"$state/.pulumi/meta.yaml"
printf '{"version":3,"checkpoint":{"stack":"organization/shop/dev","latest":null}}' >"$state/.pulumi/stacks/shop/dev.json"
printf 'name: shop\nruntime: nodejs\n' >"$work/proj/Pulumi.yaml"
export PULUMI_HOME="$work/home" PULUMI_BACKEND_URL="file://$state"
cd "$work/proj" || exit 1
run() { "$CIMPORT" --spec "$Q/imports.json" --schema "$S" --stack dev "$@"; }

# --- #13: a re-run over resources already in the stack ------------------------------------------
run --offline-state "$Q/stack.json" --yes -o imported.ts >/dev/null 2>first.err
[ $? = 0 ] && grep -qF 'imported 4 of 5 resources into stack' first.err && ok || bad "first import: $(cat first.err)"
# the same resources again: the stack records what was read, so the promise is true
run --offline-state "$Q/stack.json" --yes -o imported.ts >/dev/null 2>same.err
rc=$?
[ $rc = 0 ] && grep -qxF 'next: add imported.ts to your program; `pulumi preview` should then show no changes for them' same.err &&
  ok || bad "an unchanged re-run (exit $rc): $(cat same.err)"
# read13 F8: --json (the --report page's data) says which resources this run added to the stack and
# which the stack held already; it said "status": "imported", "imported": 5, "written": true for a
# re-run that wrote nothing (the stack byte for byte as it was)
ckpt="$state/.pulumi/stacks/shop/dev.json"
cp "$ckpt" f8.before
run --offline-state "$Q/stack.json" --yes -l typescript --json >again.json 2>again.err
rc=$?
[ $rc = 0 ] && cmp -s f8.before "$ckpt" && python3 - again.json <<'PY' && ok || bad "--json of a re-run that found every resource in the stack (exit $rc): $(grep -A12 '"summary"' again.json)"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert d["version"] == 2, d["version"]
assert s["written"] is False and s["alreadyInStack"] == 5 and s["addedToStack"] == 0 and s["imported"] == 5, s
assert [r["stack"] for r in d["resources"]] == ["already"] * 5, [(r["name"], r.get("stack")) for r in d["resources"]]
PY
# the same with the code written to a file: something was written (the code), nothing imported
run --offline-state "$Q/stack.json" --yes -o again.ts --json >again-o.json 2>/dev/null
rc=$?
[ $rc = 0 ] && [ -s again.ts ] && cmp -s f8.before "$ckpt" && python3 - again-o.json <<'PY' && ok || bad "--json -o of a re-run (exit $rc): $(grep -A12 '"summary"' again-o.json)"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["written"] is True and s["alreadyInStack"] == 5 and s["addedToStack"] == 0, s
assert all(r["stack"] == "already" for r in d["resources"]), [(r["name"], r.get("stack")) for r in d["resources"]]
PY
# one resource gone from the stack since: that one is added, the others were there
python3 - "$ckpt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
res = d["checkpoint"]["latest"]["resources"]
res[:] = [r for r in res if not r["urn"].endswith("::http-port")]
json.dump(d, open(sys.argv[1], "w"))
PY
run --offline-state "$Q/stack.json" --yes --json >part.json 2>/dev/null
rc=$?
[ $rc = 0 ] && grep -qF '::http-port"' "$ckpt" && python3 - part.json <<'PY' && ok || bad "--json of a run that added one resource of five (exit $rc): $(grep -A12 '"summary"' part.json)"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["written"] is True and s["alreadyInStack"] == 4 and s["addedToStack"] == 1, s
got = {r["name"]: r["stack"] for r in d["resources"]}
assert got == {"server": "already", "serverName": "already", "serverId": "already", "bucket-suffix": "already",
               "http-port": "added"}, got
PY
cp f8.before "$ckpt"
# bucket-suffix changed since (length 8 -> 9, upper false -> true)
python3 - "$Q/stack.json" changed.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["deployment"]["resources"]:
    if r["urn"].endswith("::bucket-suffix"):
        for k in ("inputs", "outputs"):
            r[k]["length"] = 9
            r[k]["upper"] = True
json.dump(d, open(sys.argv[2], "w"))
PY
run --offline-state changed.json --yes -o imported.ts >/dev/null 2>changed.err
rc=$?
[ $rc = 1 ] && ! grep -qF 'should then show no changes' changed.err &&
  grep -qF "resource 'urn:pulumi:dev::shop::random:index/randomString:RandomString::bucket-suffix' is in the stack already, but the stack records other inputs than were read now: length, upper" changed.err &&
  ok || bad "a re-run with other inputs than the stack records (exit $rc): $(cat changed.err)"
# the stack records bucket-suffix under an explicit provider (west) and the code declares it with the
# default one: Pulumi diffs the two providers' configuration and may replace it, so it is not "already
# there" as the code has it (it was, exit 0, with the promise)
ckpt="$state/.pulumi/stacks/shop/dev.json"
cp "$ckpt" ckpt.before
python3 - "$ckpt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
res = d["checkpoint"]["latest"]["resources"]
west = "urn:pulumi:dev::shop::pulumi:providers:random::west"
i = next(k for k, r in enumerate(res) if r["urn"].endswith("::bucket-suffix"))
res.insert(i, {"urn": west, "custom": True, "id": "0e3b7e52-1111-4222-8333-944455566677",
               "type": "pulumi:providers:random", "inputs": {"version": "4.16.0"}, "outputs": {"version": "4.16.0"}})
res[i + 1]["provider"] = west + "::0e3b7e52-1111-4222-8333-944455566677"
json.dump(d, open(sys.argv[1], "w"))
PY
cp "$ckpt" ckpt.west
run --offline-state "$Q/stack.json" --yes -o imported.ts >/dev/null 2>west.err
rc=$?
[ $rc = 1 ] && ! grep -qF 'should then show no changes' west.err && ! grep -qF 'nothing to import' west.err &&
  cmp -s ckpt.west "$ckpt" &&
  grep -qF "resource 'urn:pulumi:dev::shop::random:index/randomString:RandomString::bucket-suffix' is in the stack already with provider 'urn:pulumi:dev::shop::pulumi:providers:random::west', but the code written declares it with the default provider ('urn:pulumi:dev::shop::pulumi:providers:random::default'): Pulumi compares the two providers' configuration and can replace the resource" west.err &&
  ok || bad "a re-run of a resource the stack records under another provider (exit $rc): $(cat west.err)"
cp ckpt.before "$ckpt"

# --- both dev.json and dev.json.gz (a crash, or PULUMI_DIY_BACKEND_GZIP switched): Pulumi reads the
# .json only when it is newer than the .gz (diy backend stackPath), so the merge goes into the one it
# reads and the other is left as it was (it merged into the stale .json, which became the newer one:
# what only the .gz recorded left the stack) ------------------------------------------------------
python3 - "$ckpt" both <<'PY'
import gzip, json, sys
d = json.load(open(sys.argv[1]))
res = d["checkpoint"]["latest"]["resources"]
stack = next(r["urn"] for r in res if r["type"] == "pulumi:pulumi:Stack")
res[:] = [r for r in res if not r["urn"].endswith("::http-port")]  # the import adds it again
res.append({"urn": "urn:pulumi:dev::shop::my:index:Thing::newerInGz", "custom": False, "type": "my:index:Thing",
            "parent": stack})
open(sys.argv[2] + ".json", "w").write(json.dumps(d))
gzip.open(sys.argv[2] + ".json.gz", "wb").write(json.dumps(d).encode())
PY
for newer in gz json; do
  cp both.json "$ckpt" && cp both.json.gz "$ckpt.gz"
  if [ $newer = gz ]; then touch -d '1 hour ago' "$ckpt"; read_one="$ckpt.gz" other="$ckpt"; else
    touch -d '1 hour ago' "$ckpt.gz"; read_one="$ckpt" other="$ckpt.gz"; fi
  cp "$other" other.before
  run --offline-state "$Q/stack.json" --yes -o imported.ts >/dev/null 2>both.err
  rc=$?
  if [ $newer = gz ]; then got=$(gzip -dc "$read_one"); else got=$(cat "$read_one"); fi
  [ $rc = 0 ] && cmp -s other.before "$other" && grep -qF '::newerInGz"' <<<"$got" &&
    grep -qF 'RandomInteger::http-port"' <<<"$got" && grep -qF 'imported 1 of 5 resources into stack' both.err &&
    ok || bad "dev.json and a newer dev.$([ $newer = gz ] && echo json.gz || echo json) (exit $rc): $(cat both.err)"
done
rm -f "$ckpt.gz"
cp ckpt.before "$ckpt"

# --- #11: --stack ORG/PROJECT/STACK names the project and (DIY) the org: another than this one's is
# refused, as pulumi refuses it, not imported into Pulumi.yaml's project's stack ---------------------
mkdir -p "$state/.pulumi/stacks/other"
printf '{"version":3,"checkpoint":{"stack":"organization/other/dev","latest":null}}' >"$state/.pulumi/stacks/other/dev.json"
cp "$state/.pulumi/stacks/shop/dev.json" shopdev.before
cp "$state/.pulumi/stacks/other/dev.json" otherdev.before
"$CIMPORT" --spec "$Q/imports.json" --schema "$S" --offline-state "$Q/stack.json" --stack organization/other/dev --yes -o o.ts >/dev/null 2>other.err
rc=$?
[ $rc = 2 ] && [ ! -e o.ts ] && cmp -s shopdev.before "$state/.pulumi/stacks/shop/dev.json" &&
  cmp -s otherdev.before "$state/.pulumi/stacks/other/dev.json" &&
  grep -qF "error: --stack organization/other/dev names project 'other', but this is project 'shop' ($work/proj/Pulumi.yaml)" other.err &&
  ok || bad "--stack of another project (exit $rc): $(cat other.err)"
"$CIMPORT" --spec "$Q/imports.json" --schema "$S" --offline-state "$Q/stack.json" --stack acme/shop/dev --yes -o o.ts >/dev/null 2>org.err
rc=$?
[ $rc = 2 ] && [ ! -e o.ts ] && cmp -s shopdev.before "$state/.pulumi/stacks/shop/dev.json" &&
  grep -qF "error: --stack acme/shop/dev names organization 'acme', but a DIY backend ($PULUMI_BACKEND_URL) has only 'organization'" org.err &&
  ok || bad "--stack of another org on a DIY backend (exit $rc): $(cat org.err)"
"$CIMPORT" --spec "$Q/imports.json" --schema "$S" --offline-state "$Q/stack.json" --stack organization/shop/dev --yes -o o.ts >/dev/null 2>same.err
rc=$?
[ $rc = 0 ] && ok || bad "--stack organization/shop/dev (exit $rc): $(cat same.err)"

# --project of another project than Pulumi.yaml's: the stack written would be that project's, while
# this program's `pulumi preview` uses its own (it said "should then show no changes", exit 0)
rm -f o.ts
"$CIMPORT" --spec "$Q/imports.json" --schema "$S" --offline-state "$Q/stack.json" --stack dev --project other --yes -o o.ts >/dev/null 2>proj.err
rc=$?
[ $rc = 2 ] && [ ! -e o.ts ] && cmp -s otherdev.before "$state/.pulumi/stacks/other/dev.json" &&
  grep -qF "error: project 'other' is not this program's ('shop', $work/proj/Pulumi.yaml), whose stacks its \`pulumi preview\` and \`pulumi up\` use: run in project other's directory (--cwd), or drop --project" proj.err &&
  ok || bad "--project of another project (exit $rc): $(cat proj.err)"
rm -f o.ts
# --stack-state: the export carries its own stack and project (the merge checks them against the run's),
# so --stack ORG/PROJECT/STACK of another project than Pulumi.yaml's is no stack of this project to
# refuse: it names the export's (it was refused, exit 2); the ref's project is the run's when --project is not given
python3 - "$Q/stack.json" other-export.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["deployment"]["resources"] = [dict(r, urn="urn:pulumi:dev::other::pulumi:pulumi:Stack::other-dev")
                                for r in d["deployment"]["resources"] if r["type"] == "pulumi:pulumi:Stack"]
json.dump(d, open(sys.argv[2], "w"))
PY
cp other-export.json other-export.before
"$CIMPORT" --spec "$Q/imports.json" --schema "$S" --offline-state "$Q/stack.json" --stack organization/other/dev --project other --stack-state other-export.json -o o.ts >/dev/null 2>ss.err
rc=$?
[ $rc = 0 ] && [ -e o.ts ] && grep -qF '"urn:pulumi:dev::other::random:index/randomString:RandomString::bucket-suffix"' other-export.json &&
  cmp -s otherdev.before "$state/.pulumi/stacks/other/dev.json" && cmp -s shopdev.before "$state/.pulumi/stacks/shop/dev.json" &&
  ok || bad "--stack organization/other/dev --project other --stack-state (exit $rc): $(cat ss.err)"
cp other-export.before other-export.json && rm -f o.ts
"$CIMPORT" --spec "$Q/imports.json" --schema "$S" --offline-state "$Q/stack.json" --stack acme/other/dev --stack-state other-export.json -o o.ts >/dev/null 2>ss2.err
rc=$?
[ $rc = 0 ] && grep -qF '"urn:pulumi:dev::other::random:index/randomString:RandomString::bucket-suffix"' other-export.json &&
  ok || bad "--stack acme/other/dev --stack-state, no --project (exit $rc): $(cat ss2.err)"
cp other-export.before other-export.json && rm -f o.ts
# a --project that contradicts the ref's is still refused, nothing written
"$CIMPORT" --spec "$Q/imports.json" --schema "$S" --offline-state "$Q/stack.json" --stack organization/other/dev --project third --stack-state other-export.json -o o.ts >/dev/null 2>ss3.err
rc=$?
[ $rc = 2 ] && [ ! -e o.ts ] && cmp -s other-export.json other-export.before &&
  grep -qF "error: --stack organization/other/dev names project 'other', but --project is 'third'" ss3.err &&
  ok || bad "--stack of project other with --project third (exit $rc): $(cat ss3.err)"
rm -f o.ts

# --- #2: --diff's answer is the real run's: every file it would write, and its refusals ------------
# --diff after the code was written but the stack was not (the DIY stack is not read under --diff:
# exit 4, not "no change")
run --offline-state "$Q/stack.json" -o fresh.ts --code-only >/dev/null 2>&1
run --offline-state "$Q/stack.json" -o fresh.ts --diff >/dev/null 2>diffstack.err
rc=$?
[ $rc = 4 ] && ! grep -qF 'nothing to write' diffstack.err && ok || bad "--diff of a stack import, code unchanged (exit $rc): $(cat diffstack.err)"
mkdir -p "$work/nop" && cd "$work/nop" || exit 1
unset PULUMI_BACKEND_URL
SS="$SOURCE_DIR/tests/fixtures/cli/secret-string-stack.json"
# runs into no stack write code only (--code-only): the RandomString's secret keeper is no input its importer
# rebuilds, so the code's `import` option is refused for it (test_cli.sh)
one() { "$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state "$SS" --schema "$S" "$@"; }
# the secrets file a run writes, gone since (cimport's own note tells to delete it once stored)
one -o sec.ts --code-only >/dev/null 2>/dev/null && [ -e cimport-secrets.json ] && ok || bad "secret run did not write cimport-secrets.json"
rm -f cimport-secrets.json
one -o sec.ts --code-only --diff >/dev/null 2>diffsec.err
rc=$?
[ $rc = 4 ] && [ ! -e cimport-secrets.json ] &&
  grep -qxF 'cimport: --diff: a run without it would also write cimport-secrets.json (not shown)' diffsec.err &&
  ! grep -qF 'nothing to write' diffsec.err && ok || bad "--diff with the secrets file to write (exit $rc): $(cat diffsec.err)"
# --stack-state: the code written already, the export would get the resource
one -o st.ts --code-only >/dev/null 2>&1
python3 - "$SS" st.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["deployment"]["resources"] = [r for r in d["deployment"]["resources"] if r["type"] == "pulumi:pulumi:Stack"]
d["deployment"].pop("secrets_providers", None)
json.dump(d, open(sys.argv[2], "w"))
PY
cp st.json st.before
one -o st.ts --stack prod --project shop --stack-state st.json --code-only --diff >/dev/null 2>diffst.err
one -o st.ts --stack prod --project shop --stack-state st.json --diff >/dev/null 2>diffst.err
rc=$?
cmp -s st.json st.before || bad "--diff wrote st.json"
# the real run refuses (a secret and no passphrase: exit 2), so --diff says so too, not "run again"
one -o st.ts --stack prod --project shop --stack-state st.json >/dev/null 2>realst.err
realrc=$?
[ $rc = $realrc ] && [ $rc != 0 ] && ok || bad "--diff --stack-state exit $rc, the real run's $realrc: $(cat diffst.err)"
# with --secrets-provider b64 the run writes the export: --diff names it, exit 4
one -o st.ts --stack prod --project shop --stack-state st.json --secrets-provider b64 --diff >/dev/null 2>diffst.err
rc=$?
[ $rc = 4 ] && cmp -s st.json st.before && grep -qxF 'cimport: --diff: a run without it would also write st.json (not shown)' diffst.err &&
  ok || bad "--diff --stack-state with the export to write (exit $rc): $(cat diffst.err)"

# --- #8: --stack-state of a stack whose secrets provider cimport cannot encrypt for (Pulumi Cloud's
# `service`, a KMS): its secrets would be plaintext at rest, so the run refuses unless asked by name ---
python3 - "$SS" svc.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["deployment"]["resources"] = [r for r in d["deployment"]["resources"] if r["type"] == "pulumi:pulumi:Stack"]
d["deployment"]["secrets_providers"] = {"type": "service", "state": {"url": "https://api.pulumi.com", "owner": "acme", "project": "shop", "stack": "prod"}}
json.dump(d, open(sys.argv[2], "w"))
PY
chmod 644 svc.json && cp svc.json svc.before
one -o svc.ts --stack prod --project shop --stack-state svc.json >/dev/null 2>svc.err
rc=$?
[ $rc = 2 ] && cmp -s svc.json svc.before && [ ! -e svc.ts ] && ! grep -qF SECRET-VALUE svc.json &&
  grep -qF "pass --secrets-provider plaintext to write them so" svc.err && ok || bad "--stack-state of a service-secrets stack (exit $rc): $(cat svc.err)"
one -o svc.ts --stack prod --project shop --stack-state svc.json --diff >/dev/null 2>svcd.err
rc=$?
[ $rc = 2 ] && ok || bad "--diff --stack-state of a service-secrets stack (exit $rc): $(cat svcd.err)"
# asked by name: written, the file made private
one -o svc.ts --stack prod --project shop --stack-state svc.json --secrets-provider plaintext >/dev/null 2>svc2.err
rc=$?
[ $rc = 0 ] && grep -qF SECRET-VALUE svc.json && [ "$(stat -c %a svc.json)" = 600 ] && ok ||
  bad "--secrets-provider plaintext (exit $rc, mode $(stat -c %a svc.json)): $(cat svc2.err)"

# --- --stack-state of a DIY backend's checkpoint: refused, nothing written -------------------------
# The live checkpoint was rewritten without the stack's lock, backup or history, and the next step
# (`pulumi stack import --file` of a checkpoint, which is no stack export) fails.
live="$state/.pulumi/stacks/shop/dev.json"
cp "$live" live-before.json
run --offline-state "$Q/stack.json" --stack-state "$live" -o ck.ts 2>ck.err
rc=$?
[ $rc = 2 ] && grep -qF "is a DIY backend's checkpoint, not a stack export" ck.err && grep -qF 'run cimport in the project without --stack-state' ck.err &&
  cmp -s "$live" live-before.json && [ ! -e ck.ts ] && ok || bad "--stack-state of the live checkpoint: exit $rc: $(cat ck.err)"
cp "$live" copied-checkpoint.json
run --offline-state "$Q/stack.json" --stack-state copied-checkpoint.json -o ck2.ts 2>ck2.err
rc=$?
[ $rc = 2 ] && grep -qF "checkpoint, not a stack export" ck2.err && cmp -s copied-checkpoint.json "$live" && [ ! -e ck2.ts ] && ok ||
  bad "--stack-state of a checkpoint file: exit $rc: $(cat ck2.err)"

echo "stack_rerun: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# test_report.sh — the import report (`--report FILE`, `cimport report RESULTS.json`) rendered from
# real runs and opened in headless Debian Chromium: the DOM after the page's script ran is checked
# against the run's own results document (counts, outcomes, provenance labels, failure reasons,
# unmapped resources, the program diff), secret values must not be in the page unless
# --show-secrets, screenshots at two sizes must not be blank, and bad input to `cimport report`
# gets a clear error with nothing written.
#
# Runs: the quickstart plus a resource with a secret (tests/fixtures/cli/secret-string-stack.json) and
# one whose ID no state has (fails); three shared `pulumi stack export`s (GCP with a secret
# password, TLS with a private key, AWSX whose package has no schema here: failed and skipped); a
# shared Terraform state plus a resource of a provider no Pulumi package maps (unmapped);
# --insert-into with --diff; the Node random provider plugin (verified by the provider).
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
B="python3 $SOURCE_DIR/tests/e2e/report_browser.py"
CHECK="$SOURCE_DIR/tests/e2e/report_check.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*" >&2; fail=$((fail + 1)); }
RS="$SHARED_DATA/schemas/random/schema.json"
Q="$SOURCE_DIR/examples/quickstart"
SECRET='tok-9f8e7d-SECRET-VALUE'

# --- quickstart + a secret + a failure ----------------------------------------------------------
python3 - "$Q" "$SOURCE_DIR/tests/fixtures/cli/secret-string-stack.json" <<'PY'
import json, sys
q = json.load(open(sys.argv[1] + "/stack.json"))
s = json.load(open(sys.argv[2]))
q["deployment"]["resources"] += [r for r in s["deployment"]["resources"] if r["type"] != "pulumi:pulumi:Stack"]
json.dump(q, open("mix-stack.json", "w"), indent=1)
i = json.load(open(sys.argv[1] + "/imports.json"))
i["resources"] += [{"type": "random:index/randomString:RandomString", "name": "apiName", "id": "brave-otter"},
                   {"type": "random:index/randomPet:RandomPet", "name": "ghostPet", "id": "no-such-pet"}]
json.dump(i, open("mix-imports.json", "w"), indent=1)
PY
# the runs over it write code only (--code-only): apiName's secret keeper is no input its importer rebuilds,
# so the code's `import` option is refused for it (test_cli.sh)
"$CIMPORT" --spec mix-imports.json --offline-state mix-stack.json --schema "$RS" --code-only -l typescript --secrets-dir sec \
  -o mix.ts --report mix.html 2>mix.err
rc=$?
[ $rc = 1 ] && [ -s mix.html ] && [ -s mix.ts ] && grep -qxF "cimport: wrote the import report mix.html" mix.err && ok ||
  bad "--report with one failure (exit $rc): $(tail -3 mix.err)"
"$CIMPORT" --spec mix-imports.json --offline-state mix-stack.json --schema "$RS" --code-only -l typescript --secrets-dir sec2 \
  --json >mix.json 2>/dev/null
"$CIMPORT" --spec mix-imports.json --offline-state mix-stack.json --schema "$RS" --code-only -l typescript --secrets-dir sec3 \
  --json --show-secrets >mix-show.json 2>/dev/null
grep -qF "$SECRET" mix-show.json && ! grep -qF "$SECRET" mix.json && ok || bad "--json secrets baseline"
! grep -qF "$SECRET" mix.html && ok || bad "the secret value is in the page written without --show-secrets"
grep -qF "default-src 'none'" mix.html && ! grep -qiE '(src|href)="?(https?:)?//' mix.html && ok ||
  bad "the page may load something from the network"
$B dom mix.html all >mix.dom || bad "chromium could not open mix.html"
python3 "$CHECK" mix.dom mix.json --offline --no-secret "$SECRET" \
  --res-outcome ghostPet=failed --res-outcome server=imported --res-outcome apiName=offline \
  --res-text "ghostPet=resource 'ghostPet' of type 'random:index/randomPet:RandomPet': resource 'no-such-pet' does not exist" \
  --res-text "apiName=new random.RandomString(\"apiName\"" \
  --provenance "http-port:max=required" --provenance "apiName:keepers.region=diff" --secret-path "apiName:keepers.apiToken" \
  --reference "http-port=serverName" && ok || bad "DOM of the quickstart report"
# the failure's text is what the CLI printed on stderr
grep -qxF "error: resource 'ghostPet' of type 'random:index/randomPet:RandomPet': resource 'no-such-pet' does not exist" mix.err &&
  ok || bad "the CLI's failure line changed: $(grep ghostPet mix.err)"

# the same page from the saved document; --show-secrets only when asked
"$CIMPORT" report mix.json -o saved.html 2>saved.err && [ -s saved.html ] && ok || bad "cimport report: $(cat saved.err)"
$B dom saved.html all >saved.dom && python3 "$CHECK" saved.dom mix.json --offline --no-secret "$SECRET" && ok ||
  bad "DOM of the report from the saved document"
"$CIMPORT" report mix-show.json -o hidden.html 2>/dev/null && ! grep -qF "$SECRET" hidden.html && ok ||
  bad "cimport report kept a secret value without --show-secrets"
"$CIMPORT" report mix-show.json --show-secrets -o shown.html 2>/dev/null && $B dom shown.html all >shown.dom &&
  grep -qF "$SECRET" shown.dom && ok || bad "cimport report --show-secrets did not show the value"

# a run whose output could not be written (a file size limit of 0: exit 2, nothing written; the
# JSON goes through a pipe, which has no limit): the --report page is one of its outputs,
# so it is not written either; the page of its saved document says nothing was written, and why
bash -c 'ulimit -f 0; trap "" XFSZ; exec "$@"' limited \
  "$CIMPORT" --spec "$Q/imports.json" --offline-state "$Q/stack.json" --schema "$RS" -l typescript -o refused.ts \
  --report refused.html --json 2>/dev/null | cat >refused.json
rc=${PIPESTATUS[0]}
[ $rc = 2 ] && [ ! -e refused.html ] && [ ! -e refused.ts ] && ok || bad "--report on a refused write (exit $rc)"
python3 -c 'import json,sys; sys.exit(json.load(open("refused.json"))["summary"]["written"] is not False)' && ok ||
  bad "the refused run's document does not say nothing was written"
"$CIMPORT" report refused.json -o refused-saved.html 2>/dev/null && $B dom refused-saved.html all >refused-saved.dom &&
  python3 "$CHECK" refused-saved.dom refused.json --offline && ok || bad "DOM of the saved refused run's report"
grep -qF "an output could not be written" refused-saved.dom && ok || bad "the page of a refused write does not say why"

# a run that imported nothing (exit 3): the page says nothing was written, and why
echo '{"resources":[{"type":"random:index/randomPet:RandomPet","name":"ghost","id":"no-such-pet"}]}' >ghost.json
"$CIMPORT" --spec ghost.json --offline-state "$Q/stack.json" --schema "$RS" -l typescript -o ghost.ts --report ghost.html \
  --json >ghost-run.json 2>/dev/null
rc=$?
[ $rc = 3 ] && [ ! -e ghost.ts ] && $B dom ghost.html all >ghost.dom && python3 "$CHECK" ghost.dom ghost-run.json --offline &&
  grep -qF "Nothing was written: no resource was imported, so there was nothing to write" ghost.dom && ok ||
  bad "the page of a run that imported nothing (exit $rc)"

# screenshots at two sizes, not blank
$B shot mix.html 1280 900 wide.png r=apiName >/dev/null && ok || bad "screenshot 1280x900"
$B shot mix.html 420 860 narrow.png r=ghostPet >/dev/null && ok || bad "screenshot 420x860"
if [ -n "${REPORT_SHOTS:-}" ]; then mkdir -p "$REPORT_SHOTS" && cp wide.png narrow.png "$REPORT_SHOTS/"; fi

# --- shared stack exports -----------------------------------------------------------------------
P="$SHARED_DATA/pulumi-state"
n=0
for st in "$P/pulumi-gcp/provider/testdata/recorded/TestProviderUpgrade/sql-user/6.67.0/stack.json:MyPassword" \
  "$P/pulumi-tls/provider/testdata/recorded/TestProviderUpgrade/index_privatekey/5.0.2/stack.json:PRIVATE KEY" \
  "$P/pulumi-awsx/provider/testdata/recorded/TestProviderUpgrade/ts-lb-simple/1.0.6/stack.json:"; do
  n=$((n + 1))
  file=${st%%:*} secret=${st#*:}
  "$CIMPORT" convert --from pulumi "$file" -o "s$n.imports.json" -q 2>/dev/null
  # the exports' secrets are ciphertext of the passphrase pulumi/providertest records them under
  PULUMI_CONFIG_PASSPHRASE="correct horse battery staple" \
    "$CIMPORT" --spec "s$n.imports.json" --offline-state "$file" --schema "$SHARED_DATA/schemas" -l python \
    --secrets-dir "sec-s$n" --report "s$n.html" --json >"s$n.json" 2>"s$n.err"
  [ $? != 2 ] && [ -s "s$n.html" ] || { bad "stack export $file: $(tail -2 "s$n.err")"; continue; }
  args=(--offline)
  [ -n "$secret" ] && args+=(--no-secret "$secret")
  $B dom "s$n.html" all >"s$n.dom" && python3 "$CHECK" "s$n.dom" "s$n.json" "${args[@]}" && ok ||
    bad "DOM of the report of $file"
  [ -z "$secret" ] || ! grep -qF "$secret" "s$n.html" || bad "a secret of $file is in its page"
done
python3 - s1.json s3.json <<'PY' || bad "the stack exports do not cover a secret and failures"
import json, sys
a = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
assert any(r.get("secretPaths") for r in a["resources"]), "no secret input in the GCP export"
assert c["summary"]["failed"] > 0 and c["summary"]["skipped"] > 0, c["summary"]
PY

# --- a Terraform state with a resource no Pulumi package maps ------------------------------------
TF="$SHARED_DATA/tfstate/driftctl/pkg/iac/terraform/state/test/github_repository/terraform.tfstate"
python3 - "$TF" "$SHARED_DATA/tfstate/tfquery/sample-data/terraform-terragoat-aws.tfstate" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
a["resources"] += [r for r in b["resources"] if r["type"] == "null_resource"]
json.dump(a, open("tf.tfstate", "w"), indent=1)
PY
"$CIMPORT" convert --from terraform tf.tfstate --mapping "$SHARED_DATA/schemas" -o tf.imports.json -q 2>/dev/null
"$CIMPORT" --spec tf.imports.json --offline-state tf.tfstate --schema "$SHARED_DATA/schemas/github/schema.json" -l go \
  --report tf.html --json >tf.json 2>tf.err
rc=$?
[ $rc = 0 ] && ok || bad "Terraform state import (exit $rc): $(tail -2 tf.err)"
$B dom tf.html all >tf.dom && python3 "$CHECK" tf.dom tf.json --offline --unmapped 1 \
  --res-outcome 'null_resource.push_image=unmapped' --res-text 'null_resource.push_image=no mapping for Terraform provider' &&
  ok || bad "DOM of the Terraform report"

# --- --insert-into with --diff: the program diff, highlighted; the program untouched ---------------
printf 'import * as pulumi from "@pulumi/pulumi";\n\nexport const hello = "world";\n' >index.ts
cp index.ts index.before
"$CIMPORT" random:index/randomString:RandomString apiName brave-otter --offline-state mix-stack.json --schema "$RS" --code-only \
  --insert-into index.ts --diff --report diff.html --secrets-dir sec4 >diff.out 2>diff.err
rc=$?
[ $rc = 4 ] && cmp -s index.ts index.before && [ -s diff.html ] && ok || bad "--insert-into --diff --report (exit $rc)"
$B dom diff.html >diff.dom && python3 - diff.dom <<'PY' && ok || bad "program diff in the report"
import re, sys
d = open(sys.argv[1]).read()
m = re.search(r'<pre class="diff" id="program-diff">(.*?)</pre>', d, re.S)
assert m, "no program diff"
adds = re.findall(r'<span class="add">(.*?)</span>', m.group(1))
assert any("new random.RandomString(&quot;apiName&quot;" in a or 'new random.RandomString("apiName"' in a for a in adds), adds
assert re.search(r'<span class="file">\+\+\+ ', m.group(1)), "no file header"
n = re.search(r'<p[^>]*id="written-note"[^>]*>(.*?)</p>', d, re.S)
assert n and "Nothing was written" in n.group(1) and "--diff" in n.group(1), "no note that --diff wrote nothing"
PY

# --- a real provider plugin: "verified by the provider" (the Node random provider on $PATH) -------
if command -v node >/dev/null; then
  mkdir -p bin home
  printf '#!/bin/sh\nexec %s "$@"\n' "$SOURCE_DIR/examples/providers/random/pulumi-resource-random" >bin/pulumi-resource-random
  chmod +x bin/pulumi-resource-random
  cat >plugin-imports.json <<'JSON'
{"resources": [
  {"type": "random:index/randomPassword:RandomPassword", "name": "pw", "id": "Xq7-sEcReT-pw!42", "version": "4.21.1"},
  {"type": "random:index/randomString:RandomString", "name": "str", "id": "hello-world", "version": "4.21.1"},
  {"type": "random:index/randomInteger:RandomInteger", "name": "int", "id": "5,1,10", "version": "4.21.1"}]}
JSON
  PULUMI_HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cache" PATH="$tmp/bin:/usr/local/bin:/usr/bin:/bin" \
    "$CIMPORT" --spec plugin-imports.json -l typescript --code-only --report plugin.html --json >plugin.json 2>plugin.err
  rc=$?
  [ $rc = 0 ] && ok || bad "import with the random provider plugin (exit $rc): $(tail -2 plugin.err)"
  $B dom plugin.html all >plugin.dom && python3 "$CHECK" plugin.dom plugin.json --no-secret 'Xq7-sEcReT-pw!42' \
    --res-outcome pw=verified --res-outcome str=verified --res-outcome int=verified &&
    grep -qF "Verified means the provider's own Check and Diff reported no difference" plugin.dom && ok ||
    bad "DOM of the report of a run with a real provider"
else
  bad "node is not installed (scripts/setup.sh --tests): the provider plugin case did not run"
fi

# --- into a stack (a DIY backend): what the page says of resources the stack held already ---------
# (read13 F8: a re-run that found every resource in the stack, wrote nothing and said so on stderr
# showed "5 imported" and "Imported into stack ...")
mkdir -p st/state/.pulumi/stacks/shop st/home st/proj
printf 'version: 1\n' >st/state/.pulumi/meta.yaml
printf '{"version":3,"checkpoint":{"stack":"organization/shop/dev","latest":null}}' >st/state/.pulumi/stacks/shop/dev.json
printf 'name: shop\nruntime: nodejs\n' >st/proj/Pulumi.yaml
CK="$tmp/st/state/.pulumi/stacks/shop/dev.json"
STK="organization/shop/dev at file://$tmp/st/state"
stk() { # NAME: a --yes import into the stack with --json NAME.json and --report NAME.html
  (cd st/proj && env -u PULUMI_CONFIG_PASSPHRASE -u PULUMI_CONFIG_PASSPHRASE_FILE PULUMI_HOME="$tmp/st/home" \
    PULUMI_BACKEND_URL="file://$tmp/st/state" "$CIMPORT" --spec "$Q/imports.json" --offline-state "$Q/stack.json" \
    --schema "$RS" --stack dev --yes -l typescript --json --report "$tmp/$1.html" >"$tmp/$1.json" 2>"$tmp/$1.err")
}
note() { # DOM ID: the text of the element with that id
  python3 - "$1" "$2" <<'PY'
import html, re, sys
m = re.search(r'<p[^>]*id="%s"[^>]*>(.*?)</p>' % sys.argv[2], open(sys.argv[1]).read(), re.S)
print(html.unescape(re.sub(r"<[^>]+>", "", m.group(1))) if m else "")
PY
}
count() { grep -o "id=\"count-$2\" data-count=\"[0-9]*\"" "$1" | grep -o '[0-9]*"$' | tr -d '"'; }
stk first
rc=$?
$B dom first.html all >first.dom && python3 "$CHECK" first.dom first.json --offline && [ $rc = 0 ] &&
  [ "$(note first.dom target-note)" = "Imported into stack $STK." ] && [ "$(count first.dom imported-all)" = 5 ] &&
  ok || bad "the page of a first import into a stack (exit $rc): $(note first.dom target-note)"
cp "$CK" st.before
stk again
rc=$?
$B dom again.html all >again.dom && python3 "$CHECK" again.dom again.json --offline && [ $rc = 0 ] && cmp -s "$CK" st.before &&
  [ "$(note again.dom target-note)" = "Already in stack $STK, nothing imported: the stack held every resource read, with the same ID, before this run." ] &&
  [ "$(note again.dom written-note)" = "Nothing was written: every resource read was already in the stack, so there was nothing to write. The resources counted here were read; this run did not import them." ] &&
  [ "$(count again.dom already)" = 5 ] &&
  grep -qF 'already in the stack with this ID: nothing imported' again.dom && ok ||
  bad "the page of a re-run that found every resource in the stack (exit $rc): $(note again.dom target-note) / $(note again.dom written-note) / already $(count again.dom already)"
# one resource gone from the stack since: that one is imported, the others were there
python3 - "$CK" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["checkpoint"]["latest"]["resources"] = [r for r in d["checkpoint"]["latest"]["resources"] if not r["urn"].endswith("::http-port")]
json.dump(d, open(sys.argv[1], "w"))
PY
stk part
rc=$?
$B dom part.html all >part.dom && python3 "$CHECK" part.dom part.json --offline && [ $rc = 0 ] &&
  [ "$(note part.dom target-note)" = "Imported 1 into stack $STK; 4 were already in it, nothing imported for them." ] &&
  [ "$(count part.dom imported-all)" = 1 ] && [ "$(count part.dom already)" = 4 ] && ok ||
  bad "the page of a run that imported one resource of five (exit $rc): $(note part.dom target-note) / imported $(count part.dom imported-all) already $(count part.dom already)"

# --- into a stack export (--stack-state): a re-run that finds every resource in it merges nothing ----
# (the page said "5 merged into the stack export" and "Merged into the stack export ...", --json
# "written": true, while stderr said "nothing to merge" and the file was as it was)
python3 - "$Q/stack.json" exp.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["deployment"]["resources"] = [r for r in d["deployment"]["resources"] if r["type"] == "pulumi:pulumi:Stack"]
json.dump(d, open(sys.argv[2], "w"))
PY
sst() { "$CIMPORT" --spec "$Q/imports.json" --offline-state "$Q/stack.json" --schema "$RS" --stack legacy --project webshop \
  --stack-state exp.json -l typescript --json --report "$1.html" >"$1.json" 2>"$1.err"; }
sst ss1
rc=$?
$B dom ss1.html all >ss1.dom && python3 "$CHECK" ss1.dom ss1.json --offline && [ $rc = 0 ] &&
  [ "$(count ss1.dom imported-all)" = 5 ] && [ "$(count ss1.dom already)" = 0 ] && ok ||
  bad "the page of a first merge into a stack export (exit $rc): $(note ss1.dom target-note)"
cp exp.json exp.before
sst ss2
rc=$?
$B dom ss2.html all >ss2.dom && python3 "$CHECK" ss2.dom ss2.json --offline && [ $rc = 0 ] && cmp -s exp.json exp.before &&
  [ "$(note ss2.dom target-note)" = "Already in the stack export exp.json, nothing merged: it recorded every resource read, with the same ID, before this run." ] &&
  [ "$(count ss2.dom already)" = 5 ] && python3 - ss2.json <<'PY' && ok ||
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s["written"] is False and s["alreadyInStack"] == 5 and s["addedToStack"] == 0, s
assert [r["stack"] for r in d["resources"]] == ["already"] * 5, [(r["name"], r.get("stack")) for r in d["resources"]]
PY
  bad "a re-run into a stack export that records every resource (exit $rc): $(note ss2.dom target-note) / $(note ss2.dom written-note) / $(grep -A12 '"summary"' ss2.json | tr -d '\n\t')"

# --- bad input to `cimport report`: clear errors, nothing written ------------------------------
echo keep >out.html
expect_bad() { # NAME INPUT EXPECTED-STDERR-LINE
  "$CIMPORT" report "$2" -o out.html 2>bad.err
  local rc=$?
  if [ $rc = 2 ] && [ "$(cat out.html)" = keep ] && grep -qxF "$3" bad.err && grep -qxF "cimport: no report written" bad.err &&
    [ -z "$(ls | grep cimport-tmp)" ]; then ok; else bad "$1 (exit $rc): $(cat bad.err)"; fi
}
expect_bad "an import file" mix-imports.json \
  "error: mix-imports.json: this is not a cimport results document (it has no \"version\", \"resources\" and \"summary\"): write one with \`cimport --json ... > results.json\`"
head -c 700 mix.json >trunc.json
expect_bad "a truncated document" trunc.json \
  "error: trunc.json: the results document ends early (truncated after 700 bytes): write it again with \`cimport --json ... > results.json\` and let the run finish"
python3 -c 'import json,sys; d=json.load(open("mix.json")); d["version"]=7; json.dump(d,open("newer.json","w"))'
expect_bad "a newer version" newer.json \
  "error: newer.json: the results document is version 7, written by a newer cimport; this cimport reads results versions up to 2: render it with the cimport that wrote it, or upgrade this one"
printf 'hello\n' >text.json
expect_bad "not JSON" text.json \
  "error: text.json: this is not a cimport results document (not JSON: error at byte 0): write one with \`cimport --json ... > results.json\`"
python3 -c 'import json; d=json.load(open("mix.json")); d["resources"][0]["status"]=5; json.dump(d,open("edited.json","w"))'
expect_bad "an edited resource" edited.json \
  "error: edited.json: resources[0] of the results document has no \"name\", \"type\" and \"status\": the file was changed or is not a cimport results document"
# -o naming the results document itself: refused, the document kept (it is the only copy of the run)
cp mix.json self.json
"$CIMPORT" report self.json -o ./self.json 2>self.err
rc=$?
[ $rc = 2 ] && cmp -s self.json mix.json &&
  grep -qxF "error: -o names the results document self.json: writing the page there would destroy it; choose another file" self.err &&
  grep -qxF "cimport: no report written" self.err && ok || bad "report -o over its input (exit $rc): $(cat self.err)"
"$CIMPORT" report 2>usage.err; [ $? = 2 ] && grep -qF "takes one results document" usage.err && ok || bad "usage error"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

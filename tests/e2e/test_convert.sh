# test_convert.sh — `cimport convert` as a user runs it: import files on stdout and with -o,
# the summary on stderr, exit codes 0/1/2, exact errors for bad input, and nothing written then.
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
FIX="$SOURCE_DIR/tests/fixtures/convert"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_rc() { [ "$1" = "$2" ] || fail "$3: exit code $1, expected $2"; }

# 1. Golden import file on stdout; unmapped resources give exit code 1 and are listed.
"$CIMPORT" convert --from terraform "$FIX/modules.tfstate" --mapping "$SHARED_DATA/schemas" >"$TMP/out.json" 2>"$TMP/err"
expect_rc $? 1 "modules.tfstate"
cmp -s "$TMP/out.json" "$FIX/modules.expected.json" || fail "modules.tfstate: stdout differs from modules.expected.json"
grep -q "^total  *5  *1  *2  *0$" "$TMP/err" || fail "modules.tfstate: summary total line missing: $(cat "$TMP/err")"
grep -qF "null_resource.hook (null_resource): no mapping for Terraform provider 'registry.terraform.io/hashicorp/null' and no schema of Pulumi package 'null' to confirm a type" "$TMP/err" ||
    fail "modules.tfstate: unmapped resource not listed"
# Unmapped resources come first (before the table), with what to do per provider.
head -3 "$TMP/err" | grep -q "^unmapped: 2 resource(s) have no confirmed Pulumi type and were NOT written:" ||
    fail "modules.tfstate: unmapped not listed first: $(head -3 "$TMP/err")"
grep -qF "provider 'aws': install the Pulumi plugin that maps it (\`pulumi plugin install resource aws\`" "$TMP/err" ||
    fail "modules.tfstate: no advice for aws"
grep -q "aws:index" "$TMP/out.json" && fail "modules.tfstate: a guessed aws:index type was written"

# 2. -o writes atomically, nothing on stdout; all converted → exit 0.
"$CIMPORT" convert --from terraform "$SHARED_DATA/tfstate/driftctl/pkg/iac/terraform/state/test/github_repository/terraform.tfstate" \
    --mapping "$SHARED_DATA/schemas/github" -o "$TMP/gh.json" >"$TMP/stdout" 2>"$TMP/err"
expect_rc $? 0 "github_repository -o"
[ -s "$TMP/stdout" ] && fail "-o: something was printed on stdout"
grep -q '"type": "github:index/repository:Repository"' "$TMP/gh.json" || fail "-o: import file lacks the github type"
grep -q "wrote 2 resource spec(s) to $TMP/gh.json" "$TMP/err" || fail "-o: no 'wrote' line"
ls "$TMP" | grep -q cimport-tmp && fail "-o: temporary file left behind"

# 3. Bad input: exact message, exit 2, the existing output file untouched.
echo keep >"$TMP/keep.json"
check_bad() { # file expected-message
    "$CIMPORT" convert --from terraform "$1" -o "$TMP/keep.json" >"$TMP/stdout" 2>"$TMP/err"
    expect_rc $? 2 "$1"
    grep -qF -- "$2" "$TMP/err" || fail "$1: expected '$2', got: $(cat "$TMP/err")"
    [ "$(cat "$TMP/keep.json")" = keep ] || fail "$1: the output file was changed"
    [ -s "$TMP/stdout" ] && fail "$1: something was printed on stdout"
}
check_bad "$FIX/truncated.tfstate" "error: $FIX/truncated.tfstate: not a Terraform state: invalid JSON at line 22, column 5 (is the file truncated?)"
check_bad "$SHARED_DATA/tfstate/inframap/generate/testdata/version_3_state.json" \
    "Terraform state version 3 (written by Terraform 0.11.14) is not supported; cimport reads version 4. Upgrade it by running \`terraform refresh\` (or \`terraform apply\`) with Terraform 0.12 or later, then convert the upgraded state"
check_bad "$TMP/missing.tfstate" "missing.tfstate"

# 4. Unknown provider: the other resource is converted, the unknown one listed, exit 1.
"$CIMPORT" convert --from terraform "$SHARED_DATA/tfstate/pulumi-tool-terraform-migrate/pkg/testdata/unknown_provider_state.json" \
    --mapping "$SHARED_DATA/schemas" >"$TMP/out.json" 2>"$TMP/err"
expect_rc $? 1 "unknown provider"
grep -qF "unknown_resource.example (unknown_resource): no mapping for Terraform provider 'registry.opentofu.org/hashicorp/unknown' and no schema of Pulumi package 'unknown' to confirm a type" "$TMP/err" ||
    fail "unknown provider: reason missing: $(cat "$TMP/err")"
grep -q '"type": "random:index/randomString:RandomString"' "$TMP/out.json" || fail "unknown provider: random_string not converted"

# 4a. A type whose provider implements no importer (terraform-provider-tls's private key) was listed as
# plainly "converted", for `pulumi import` to fail on: it is written (a stack records it from the state)
# and said to go into a stack only (read13 F5).
"$CIMPORT" convert --from terraform "$SHARED_DATA/tfstate/pulumi-tool-terraform-migrate/pkg/testdata/multi_provider_state/state.json" \
    --mapping "$SHARED_DATA/schemas" --no-plugins -o "$TMP/tls.json" >"$TMP/stdout" 2>"$TMP/err"
expect_rc $? 0 "tls_private_key"
grep -q '"type": "tls:index/privateKey:PrivateKey"' "$TMP/tls.json" || fail "tls_private_key: not written"
grep -qF "into a stack only: 1 of the 2 converted resource(s) have a type whose provider implements no importer" "$TMP/err" ||
    fail "tls_private_key: not said to go into a stack only: $(cat "$TMP/err")"
grep -qF "  tls_private_key.example (tls_private_key)" "$TMP/err" || fail "tls_private_key: address not listed: $(cat "$TMP/err")"
grep -qF "tls_private_key → tls:index/privateKey:PrivateKey: into a stack only: its provider implements no importer for tls_private_key" "$TMP/err" ||
    fail "tls_private_key: no note"

# 4b. Empty is not an error: no managed resources → an import file with no resources, exit 0, a note.
for f in empty only-data only-checks; do
    "$CIMPORT" convert --from terraform "$FIX/$f.tfstate" -o "$TMP/$f.json" >"$TMP/stdout" 2>"$TMP/err"
    expect_rc $? 0 "$f.tfstate"
    [ "$(cat "$TMP/$f.json")" = "{}" ] || fail "$f.tfstate: import file is not empty: $(cat "$TMP/$f.json")"
    grep -q "^note: the state has no .*resources" "$TMP/err" || fail "$f.tfstate: no note: $(cat "$TMP/err")"
done

# 4c. A mapping document (GetMapping's format) given with --mapping: its tokens; the type it does not
# list is unmapped (exit 1), never guessed. With no mapping and no schema: every resource unmapped.
"$CIMPORT" convert --from terraform "$FIX/acme.tfstate" --mapping "$FIX/mapping" >"$TMP/acme.json" 2>"$TMP/err"
expect_rc $? 1 "acme.tfstate --mapping"
grep -q '"type": "acme:storage/widget:Widget"' "$TMP/acme.json" || fail "acme: widget token missing"
grep -q '"logicalName": "g-a simple & gadget"' "$TMP/acme.json" || fail "acme: logicalName missing"
grep -q "acme_unlisted" "$TMP/acme.json" && fail "acme: the unlisted type was written"
grep -qF "acme_unlisted.u (acme_unlisted): Terraform type 'acme_unlisted' is not in the mapping of provider 'acme'" "$TMP/err" ||
    fail "acme: unlisted type reason: $(cat "$TMP/err")"
PATH=/usr/bin:/bin PULUMI_HOME="$TMP/nohome" "$CIMPORT" convert --from terraform "$FIX/acme.tfstate" >"$TMP/none.json" 2>"$TMP/err"
expect_rc $? 3 "acme.tfstate without mapping"
[ ! -s "$TMP/none.json" ] || fail "acme without mapping: something was written: $(cat "$TMP/none.json")"
grep -q "^total  *0  *1  *4  *0$" "$TMP/err" || fail "acme without mapping: not all unmapped: $(cat "$TMP/err")"
grep -qxF "4 resource(s) unmapped (listed first above) and none converted: no import file written; exit code 3" "$TMP/err" ||
    fail "acme without mapping: summary: $(tail -2 "$TMP/err")"
# with -o: an import file already there (an earlier conversion) is left as it was, not emptied
echo '{"resources": [{"type": "acme:storage/widget:Widget", "name": "w", "id": "w-1"}]}' >"$TMP/kept.json"
cp "$TMP/kept.json" "$TMP/kept.before"
PATH=/usr/bin:/bin PULUMI_HOME="$TMP/nohome" "$CIMPORT" convert --from terraform "$FIX/acme.tfstate" -o "$TMP/kept.json" 2>"$TMP/err"
expect_rc $? 3 "acme.tfstate without mapping, -o"
cmp -s "$TMP/kept.json" "$TMP/kept.before" || fail "acme without mapping: -o was overwritten: $(cat "$TMP/kept.json")"
grep -q "^wrote " "$TMP/err" && fail "acme without mapping: claims a file was written: $(tail -2 "$TMP/err")"

# 5. Usage errors.
"$CIMPORT" convert --from cloudformation x.json >/dev/null 2>"$TMP/err"
expect_rc $? 2 "--from cloudformation"
grep -qF "error: --from must be terraform, pulumi or pcl, not 'cloudformation'" "$TMP/err" || fail "bad --from message"
"$CIMPORT" convert --from terraform >/dev/null 2>"$TMP/err"
expect_rc $? 2 "no state"
grep -qF "error: missing the Terraform state file to convert" "$TMP/err" || fail "missing state message"
"$CIMPORT" convert --help >"$TMP/help" 2>&1
expect_rc $? 0 "--help"
grep -q -- "--from terraform STATE" "$TMP/help" || fail "--help lacks the terraform form"

# 6. A stack export: components, parents by name, default providers not specs.
"$CIMPORT" convert --from pulumi "$SHARED_DATA/pulumi-state/pulumi-awsx/provider/testdata/recorded/TestProviderUpgrade/ts-lb-attach-ec2/1.0.6/stack.json" \
    -o "$TMP/awsx.json" 2>"$TMP/err"
expect_rc $? 0 "--from pulumi"
grep -q '"component": true' "$TMP/awsx.json" || fail "--from pulumi: no component spec"
grep -q '"parent": "ec2_vpc"' "$TMP/awsx.json" || fail "--from pulumi: children do not name their parent"
grep -q 'pulumi:providers' "$TMP/awsx.json" && fail "--from pulumi: a default provider became a spec"

# 6b. An explicit provider whose configuration holds a secret: an import file cannot carry it (the source
# stack's ciphertext does not decrypt in another, a secret is never written in plaintext, and Pulumi's
# import file takes an explicit provider only by the URN of one the target stack holds), and without it
# the resources under the provider would be read with another configuration. So the provider and the
# resources under it are not converted, the reason names the key and the way to carry it, and the run
# exits 1 (some not converted). It wrote the provider without the secret with a warning and exited 0.
python3 - "$SOURCE_DIR/examples/quickstart/stack.json" "$TMP/psec.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1])); res = d["deployment"]["resources"]
prov = copy.deepcopy([r for r in res if r["type"] == "pulumi:providers:random"][0])
prov["urn"] = prov["urn"].rsplit("::", 1)[0] + "::explicit"; prov["id"] = "11111111-2222-3333-4444-555555555555"
prov["inputs"] = {"region": "x", "someToken": {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
                                              "ciphertext": "v1:abc:def"}}
res.append(prov)
[r for r in res if r.get("id") == "x7k2p9qa"][0]["provider"] = prov["urn"] + "::" + prov["id"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$CIMPORT" convert --from pulumi "$TMP/psec.json" -o "$TMP/psec-imports.json" >/dev/null 2>"$TMP/err"
expect_rc $? 1 "--from pulumi, a provider with a secret"
! grep -q '"explicit"\|someToken\|v1:abc:def\|x7k2p9qa' "$TMP/psec-imports.json" && grep -q '"type"' "$TMP/psec-imports.json" ||
    fail "--from pulumi: the provider with a secret (or a resource under it) was written: $(cat "$TMP/psec-imports.json")"
grep -qF "its configuration holds the secret someToken, which an import file cannot carry" "$TMP/err" &&
    grep -qF "nameTable" "$TMP/err" && grep -qF "::explicit' is not converted: its configuration holds the secret someToken, which an import file cannot carry" "$TMP/err" ||
    fail "--from pulumi: the provider's secret configuration not said, or its resources' reason: $(cat "$TMP/err")"

# 6c. A resource the source program only reads (`Resource.get`: "external" in the export) is not
# imported: the target stack would then manage (and its `pulumi destroy` delete) a resource the
# source stack never owned. It was converted like the others.
python3 - "$SOURCE_DIR/examples/quickstart/stack.json" "$TMP/ext.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["deployment"]["resources"] if r.get("id") == "x7k2p9qa"][0]
r["external"] = True
json.dump(d, open(sys.argv[2], "w"))
PY
"$CIMPORT" convert --from pulumi "$TMP/ext.json" -o "$TMP/ext-imports.json" >/dev/null 2>"$TMP/err"
expect_rc $? 0 "--from pulumi, an external resource"
grep -q '"id": "x7k2p9qa"' "$TMP/ext-imports.json" && fail "--from pulumi: an external resource (read with get) became an import"
grep -q '"id": "clever-wombat"' "$TMP/ext-imports.json" || fail "--from pulumi: the managed resources beside an external one"
grep -qF "bucket-suffix (random:index/randomString:RandomString): skipped: read by the source program (a get), not managed by it" "$TMP/err" ||
    fail "--from pulumi: the external resource is not named: $(cat "$TMP/err")"

# 6d. retainOnDelete cannot be carried by an import file: said, naming the resource (the target's
# code lacked it with no word, so its `pulumi destroy` would delete what the source kept)
python3 - "$SOURCE_DIR/examples/quickstart/stack.json" "$TMP/retain.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
[r for r in d["deployment"]["resources"] if r.get("id") == "x7k2p9qa"][0]["retainOnDelete"] = True
json.dump(d, open(sys.argv[2], "w"))
PY
"$CIMPORT" convert --from pulumi "$TMP/retain.json" -o "$TMP/retain-imports.json" >/dev/null 2>"$TMP/err"
expect_rc $? 0 "--from pulumi, retainOnDelete"
grep -qF "resource 'bucket-suffix' of type 'random:index/randomString:RandomString': the source stack keeps it on delete (retainOnDelete), which an import file cannot carry: add retainOnDelete to its code, or the target's \`pulumi destroy\` deletes it" "$TMP/err" ||
    fail "--from pulumi: retainOnDelete dropped without a word: $(cat "$TMP/err")"

# 6e. additionalSecretOutputs cannot be carried by an import file either: said, naming the outputs (the
# import recorded them in plaintext and the code lacked the option, with no word)
python3 - "$SOURCE_DIR/examples/quickstart/stack.json" "$TMP/aso.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
[r for r in d["deployment"]["resources"] if r.get("id") == "x7k2p9qa"][0]["additionalSecretOutputs"] = ["result", "special"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$CIMPORT" convert --from pulumi "$TMP/aso.json" -o "$TMP/aso-imports.json" >/dev/null 2>"$TMP/err"
expect_rc $? 0 "--from pulumi, additionalSecretOutputs"
grep -qF "resource 'bucket-suffix' of type 'random:index/randomString:RandomString': the source program marks outputs of it secret (additionalSecretOutputs: result, special), which an import file cannot carry" "$TMP/err" ||
    fail "--from pulumi: additionalSecretOutputs dropped without a word: $(cat "$TMP/err")"

# 6f. A module's own provider block is another configuration than the root's: its own spec, and the
# note that a Terraform state records no provider configuration (all were merged, without a word)
cat >"$TMP/al.tfstate" <<'EOF'
{"version":4,"terraform_version":"1.9.1","serial":3,"lineage":"abc","outputs":{},"resources":[
{"mode":"managed","type":"random_pet","name":"a","provider":"provider[\"registry.terraform.io/hashicorp/random\"].west","instances":[{"schema_version":0,"attributes":{"id":"a-pet","length":2}}]},
{"module":"module.m","mode":"managed","type":"random_pet","name":"b","provider":"module.m.provider[\"registry.terraform.io/hashicorp/random\"].west","instances":[{"schema_version":0,"attributes":{"id":"b-pet","length":2}}]},
{"module":"module.n","mode":"managed","type":"random_pet","name":"c","provider":"module.n.provider[\"registry.terraform.io/hashicorp/random\"]","instances":[{"schema_version":0,"attributes":{"id":"c-pet","length":2}}]}]}
EOF
"$CIMPORT" convert --from terraform "$TMP/al.tfstate" --no-plugins --mapping "$SHARED_DATA/schemas/random/bridge-metadata.json" \
    -o "$TMP/al.json" >/dev/null 2>"$TMP/err"
expect_rc $? 0 "--from terraform, module provider blocks"
python3 - "$TMP/al.json" <<'PY' || fail "--from terraform: module provider blocks merged: $(cat "$TMP/al.json")"
import json, sys
specs = json.load(open(sys.argv[1]))["resources"]
prov = {s["id"]: s.get("provider") for s in specs if "id" in s}
names = sorted(s["name"] for s in specs if s["type"] == "pulumi:providers:random")
assert prov == {"a-pet": "random_west", "b-pet": "random_m_west", "c-pet": "random_n"}, prov
assert names == ["random_m_west", "random_n", "random_west"], names
PY
grep -qF "3 explicit provider spec(s) written without configuration (a Terraform state records none)" "$TMP/err" ||
    fail "--from terraform: no word that provider specs have no configuration: $(cat "$TMP/err")"

# 7. Every shared Terraform file either converts (0/1), has no resource it can convert (3: nothing
# written), or is refused (2) with an error line.
converted=0 refused=0 unconverted=0
for f in $(find "$SHARED_DATA/tfstate" -type f | sort); do
    "$CIMPORT" convert --from terraform "$f" --mapping "$SHARED_DATA/schemas" -q >/dev/null 2>"$TMP/err"
    rc=$?
    case $rc in
    0 | 1) converted=$((converted + 1)) ;;
    3) unconverted=$((unconverted + 1)) ;;
    2) refused=$((refused + 1)); grep -q "^error: " "$TMP/err" || fail "$f: refused without an error line" ;;
    *) fail "$f: exit code $rc" ;;
    esac
done
echo "convert e2e: $converted Terraform files converted, $unconverted with nothing convertible, $refused refused"

# 7b. With neither mappings nor schemas (and no plugins): nothing is written for any shared state —
# exit 3 with every managed resource unmapped, 0 only when there is nothing to import, 2 when refused.
none_unmapped=0 none_empty=0
for f in $(find "$SHARED_DATA/tfstate" -type f | sort); do
    PATH=/usr/bin:/bin "$CIMPORT" convert --from terraform "$f" --no-plugins -q >"$TMP/none.json" 2>"$TMP/err"
    rc=$?
    case $rc in
    3) none_unmapped=$((none_unmapped + 1))
       [ ! -s "$TMP/none.json" ] || fail "$f: written without mapping or schema: $(head -c 200 "$TMP/none.json")" ;;
    0) none_empty=$((none_empty + 1))
       grep -q "^note: the state has no" "$TMP/err" || fail "$f: exit 0 without mapping and without the nothing-to-import note" ;;
    2) ;;
    *) fail "$f: exit code $rc without mapping" ;;
    esac
done
echo "convert e2e without mappings or schemas: $none_unmapped states all unmapped (exit 3), $none_empty with nothing to import"
[ $((converted + unconverted + refused)) -gt 230 ] || fail "too few Terraform files seen"

# a tainted instance (its last apply failed part way; Terraform would replace it) is converted with a
# note saying so, not as if it were healthy
cat >"$TMP/tainted.tfstate" <<'EOF'
{"version":4,"terraform_version":"1.5.0","serial":3,"lineage":"x","outputs":{},"resources":[
{"mode":"managed","type":"random_pet","name":"t","provider":"provider[\"registry.terraform.io/hashicorp/random\"]","instances":[
 {"schema_version":0,"status":"tainted","attributes":{"id":"tainted-pet","length":2,"separator":"-"}}]}]}
EOF
"$CIMPORT" convert --from terraform "$TMP/tainted.tfstate" --mapping "$SHARED_DATA/schemas" -o "$TMP/tainted.json" \
  >/dev/null 2>"$TMP/tainted.err" || fail "tainted: exit $?: $(cat "$TMP/tainted.err")"
grep -qxF '  random_pet.t: tainted in Terraform (its last apply failed part way, and Terraform would replace it): imported as it is; check the resource before you rely on it' "$TMP/tainted.err" ||
  fail "tainted: no note: $(cat "$TMP/tainted.err")"

# A RandomInteger from a stack export: the random provider imports it by "result,min,max", not by the
# recorded ID "83" (which was written, and the code's `import: "83"` cannot import); the offline
# snapshot finds the recorded resource by that import ID, and the stack records the resource's ID
RI="$SHARED_DATA/pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randominteger/4.16.0/stack.json"
RS="$SHARED_DATA/schemas/random/schema.json"
"$CIMPORT" convert --from pulumi "$RI" -o "$TMP/ri.json" >/dev/null 2>"$TMP/ri.err" || fail "randominteger convert: exit $?: $(cat "$TMP/ri.err")"
grep -qF '"id": "83,1,100"' "$TMP/ri.json" || fail "randominteger: not the importer's ID: $(cat "$TMP/ri.json")"
(cd "$TMP" && "$CIMPORT" --spec ri.json --offline-state "$RI" --schema "$RS" --import-option -l typescript -o ri.ts >/dev/null 2>ri2.err) ||
  fail "randominteger offline import: exit $?: $(cat "$TMP/ri2.err")"
grep -qF 'import: "83,1,100"' "$TMP/ri.ts" || fail "randominteger: the code's import option: $(cat "$TMP/ri.ts")"
(cd "$TMP" && "$CIMPORT" --spec ri.json --offline-state "$RI" --schema "$RS" --stack test --project p --stack-state ri-st.json --new-stack-state -l typescript -o ri.ts >/dev/null 2>ri3.err) ||
  fail "randominteger into a stack export: exit $?: $(cat "$TMP/ri3.err")"
python3 - "$TMP/ri-st.json" <<'PY' || fail "randominteger: the stack export's record"
import json, sys
rs = [r for r in json.load(open(sys.argv[1]))["deployment"]["resources"] if r["type"].endswith("RandomInteger")]
assert len(rs) == 1 and rs[0]["id"] == "83" and rs[0]["outputs"]["result"] == 83, rs
PY
# an import ID with another range is not the recorded resource (the importer would record that range)
sed 's/83,1,100/83,5,7/' "$TMP/ri.json" >"$TMP/ri-bad.json"
(cd "$TMP" && "$CIMPORT" --spec ri-bad.json --offline-state "$RI" --schema "$RS" --import-option -l typescript -o ri-bad.ts >/dev/null 2>ri4.err)
rc=$?
[ $rc != 0 ] && [ ! -e "$TMP/ri-bad.ts" ] && grep -qF "its import ID is '83,1,100', not '83,5,7'" "$TMP/ri4.err" ||
  fail "randominteger with another range (exit $rc): $(cat "$TMP/ri4.err")"

# Two RandomIntegers that drew one result (ID "1", import ID "1,0,2") are two resources, not one object
# under two addresses: both converted and both imported (read13c F3: the second was dropped, exit 1,
# and the import refused the pair as "imported twice")
cat >"$TMP/dupint.tfstate" <<'EOF'
{"version":4,"terraform_version":"1.5.0","serial":1,"lineage":"x","outputs":{},"resources":[
{"mode":"managed","type":"random_integer","name":"az_a","provider":"provider[\"registry.terraform.io/hashicorp/random\"]","instances":[
 {"schema_version":0,"attributes":{"id":"1","keepers":null,"max":2,"min":0,"result":1,"seed":null}}]},
{"mode":"managed","type":"random_integer","name":"az_b","provider":"provider[\"registry.terraform.io/hashicorp/random\"]","instances":[
 {"schema_version":0,"attributes":{"id":"1","keepers":null,"max":2,"min":0,"result":1,"seed":null}}]}]}
EOF
(cd "$TMP" && "$CIMPORT" --from terraform dupint.tfstate --offline-state dupint.tfstate --schema "$SHARED_DATA/schemas/random" --import-option \
  -l typescript -o dupint.ts >/dev/null 2>dupint.err) || fail "equal RandomIntegers: exit $?: $(cat "$TMP/dupint.err")"
[ "$(grep -c 'import: "1,0,2"' "$TMP/dupint.ts")" = 2 ] || fail "equal RandomIntegers: not both imported: $(cat "$TMP/dupint.ts")"

# A RandomInteger recorded into a stack from a Terraform state keeps the ID the provider's importer
# records, its result "2", and the `id` output, as from a Pulumi export (read13 F12: "2,0,2" and no `id`
# output, so a later run with the provider was refused for that URN); a second run finds it in the stack
cat >"$TMP/ints.tfstate" <<'EOF'
{"version":4,"terraform_version":"1.5.0","serial":1,"lineage":"x","outputs":{},"resources":[
{"mode":"managed","type":"random_integer","name":"az_a","provider":"provider[\"registry.terraform.io/hashicorp/random\"]","instances":[
 {"schema_version":0,"attributes":{"id":"2","keepers":null,"max":2,"min":0,"result":2,"seed":null}}]}]}
EOF
for run in 1 2; do
  new=""; [ $run = 1 ] && new=--new-stack-state
  (cd "$TMP" && "$CIMPORT" --from terraform ints.tfstate --offline-state ints.tfstate --schema "$SHARED_DATA/schemas/random" \
    --stack test --project p --stack-state ints-st.json $new -l typescript -o ints$run.ts >/dev/null 2>ints$run.err) ||
    fail "RandomInteger from a Terraform state into a stack export, run $run: exit $?: $(cat "$TMP/ints$run.err")"
done
grep -qF "no change: it records the resource already" "$TMP/ints2.err" || fail "RandomInteger from a Terraform state: not found in the stack again: $(cat "$TMP/ints2.err")"
python3 - "$TMP/ints-st.json" <<'PY2' || fail "RandomInteger from a Terraform state: the stack export's record"
import json, sys
rs = [r for r in json.load(open(sys.argv[1]))["deployment"]["resources"] if r["type"].endswith("RandomInteger")]
assert len(rs) == 1 and rs[0]["id"] == "2" and rs[0]["outputs"].get("id") == "2" and rs[0]["outputs"]["result"] == 2, rs
PY2

# An `id` Terraform marks sensitive is not written into the import file in plaintext (read13 F4: it was,
# and the import refused that ID as a secret): not converted, with the reason, exit 1
cat >"$TMP/sens.tfstate" <<'EOF'
{"version":4,"terraform_version":"1.5.0","serial":1,"lineage":"x","outputs":{},"resources":[
{"mode":"managed","type":"random_string","name":"s","provider":"provider[\"registry.terraform.io/hashicorp/random\"]","instances":[
 {"schema_version":2,"attributes":{"id":"TopSecretValue1","length":15,"result":"TopSecretValue1","special":false},
  "sensitive_attributes":[[{"type":"get_attr","value":"result"}],[{"type":"get_attr","value":"id"}]]}]},
{"mode":"managed","type":"random_pet","name":"p","provider":"provider[\"registry.terraform.io/hashicorp/random\"]","instances":[
 {"schema_version":0,"attributes":{"id":"x-y","length":2,"separator":"-"}}]}]}
EOF
"$CIMPORT" convert --from terraform "$TMP/sens.tfstate" --mapping "$SHARED_DATA/schemas/random" --no-plugins -o "$TMP/sens.json" >/dev/null 2>"$TMP/sens.err"
expect_rc $? 1 "sensitive id"
grep -qF '"id": "x-y"' "$TMP/sens.json" || fail "sensitive id: the other resource not written: $(cat "$TMP/sens.json")"
grep -q TopSecret "$TMP/sens.json" "$TMP/sens.err" && fail "sensitive id: the value was written: $(cat "$TMP/sens.json")"
grep -qF "random_string.s (random_string): no ID: Terraform marks its \`id\` sensitive, and the provider imports it by that ID: cimport does not write a secret into the import file in plaintext" "$TMP/sens.err" ||
  fail "sensitive id: no reason: $(cat "$TMP/sens.err")"

# AWS types the provider imports by an ID made of other properties (as the Terraform path writes them):
# the export records Terraform's own ID ("my-service-execution-...-2024...", "r-rtb-...", "rtbassoc-..."),
# which `pulumi import` refuses; convert wrote it, and the offline import called it consistent
LB="$SHARED_DATA/pulumi-state/pulumi-awsx/provider/testdata/recorded/TestProviderUpgrade/ts-lb-simple/1.0.6/stack.json"
AS="$SHARED_DATA/schemas/aws-subset-phillipedwards"
"$CIMPORT" convert --from pulumi "$LB" -o "$TMP/lb.json" >/dev/null 2>"$TMP/lb.err" || fail "lb convert: exit $?: $(cat "$TMP/lb.err")"
python3 - "$TMP/lb.json" "$TMP/lb-rpa.json" "$TMP/lb-rpa-old.json" <<'PY' || fail "lb: the import IDs: $(cat "$TMP/lb.json")"
import json, sys
f = json.load(open(sys.argv[1]))
ids = {}
for s in f["resources"]:
    ids.setdefault(s["type"], []).append(s.get("id"))
assert ids["aws:iam/rolePolicyAttachment:RolePolicyAttachment"] == [
    "my-service-execution-787a4d2/arn:aws:iam::aws:policy/service-role/AmazonECSTaskExecutionRolePolicy"], ids
assert "rtb-0035e297c15aea6c2_0.0.0.0/0" in ids["aws:ec2/route:Route"] and len(ids["aws:ec2/route:Route"]) == 3, ids
assert "subnet-0dec5012ceae9d08f/rtb-004f9ebe2fc939752" in ids["aws:ec2/routeTableAssociation:RouteTableAssociation"], ids
assert all(not i.startswith(("r-", "rtbassoc-")) for t in ("aws:ec2/route:Route", "aws:ec2/routeTableAssociation:RouteTableAssociation") for i in ids[t]), ids
rpa = [dict(s) for s in f["resources"] if s["type"] == "aws:iam/rolePolicyAttachment:RolePolicyAttachment"]
for s in rpa:
    s.pop("parent", None)
json.dump({"resources": rpa}, open(sys.argv[2], "w"))
rpa[0]["id"] = "my-service-execution-787a4d2-20240514105624840000000001"
json.dump({"resources": rpa}, open(sys.argv[3], "w"))
PY
(cd "$TMP" && "$CIMPORT" --spec lb-rpa.json --offline-state "$LB" --schema "$AS" --import-option -l typescript -o lb.ts >/dev/null 2>lb2.err) ||
  fail "lb offline import: exit $?: $(cat "$TMP/lb2.err")"
grep -qF 'import: "my-service-execution-787a4d2/arn:aws:iam::aws:policy/service-role/AmazonECSTaskExecutionRolePolicy"' "$TMP/lb.ts" ||
  fail "lb: the code's import option: $(cat "$TMP/lb.ts")"
# the state's own ID is not what the provider imports by: not consistent offline either
(cd "$TMP" && "$CIMPORT" --spec lb-rpa-old.json --offline-state "$LB" --schema "$AS" --import-option -l typescript -o lb-old.ts >/dev/null 2>lb3.err)
rc=$?
[ $rc != 0 ] && [ ! -e "$TMP/lb-old.ts" ] &&
  grep -qF "its import ID is 'my-service-execution-787a4d2/arn:aws:iam::aws:policy/service-role/AmazonECSTaskExecutionRolePolicy', not 'my-service-execution-787a4d2-20240514105624840000000001'" "$TMP/lb3.err" ||
  fail "lb: the state's ID as the import ID (exit $rc): $(cat "$TMP/lb3.err")"

# A warning many resources share is said once, with the count and the first 20 named (a 100,000-
# resource export gave 30,000 lines of the same three warnings); the import file is the same.
python3 "$SOURCE_DIR/bench/gen_scale.py" export 300 "$TMP/scale.json" >/dev/null
"$CIMPORT" convert --from pulumi "$TMP/scale.json" -o "$TMP/scale-imports.json" 2>"$TMP/scale.err"
n=$(grep -c 'which an import file cannot carry' "$TMP/scale.err")
[ "$n" = 3 ] || fail "grouped warnings: $n lines say 'cannot carry', expected 3: $(head -c 2000 "$TMP/scale.err")"
grep -qE "^warning: $TMP/scale.json: the source program marks outputs of it secret \(additionalSecretOutputs: privateKeyPem\), .* \(36 resources: resource 'r9' of type 'tls:index/selfSignedCert:SelfSignedCert', .* and 16 more\)$" "$TMP/scale.err" ||
  fail "grouped warnings: no grouped line with a count: $(head -c 2000 "$TMP/scale.err")"
grep -qx "wrote 276 resource spec(s) to $TMP/scale-imports.json" "$TMP/scale.err" || fail "grouped warnings: not every resource written: $(grep wrote "$TMP/scale.err")"

# A default provider is not converted (the target stack makes its own), but its configuration is what
# the source read its resources under (read16 F16): the gcp project, region and zone. Said with the
# commands that give the target stack the same; a default provider with only a version says nothing.
G="$SHARED_DATA/pulumi-state/pulumi-gcp/provider/testdata/recorded/TestProviderUpgrade/dns-recordset/6.67.0/stack.json"
"$CIMPORT" convert --from pulumi "$G" -o "$TMP/dns.json" >/dev/null 2>"$TMP/dns.err"
for c in 'pulumi config set gcp:project pulumi-ci-gcp-provider' 'pulumi config set gcp:region us-central1' \
  'pulumi config set gcp:zone us-central1-a'; do
  grep -qF "$c" "$TMP/dns.err" || fail "default provider config: '$c' not said: $(cat "$TMP/dns.err")"
done
R="$SHARED_DATA/pulumi-state/pulumi-random/provider/testdata/recorded/TestProviderUpgrade/index_randompet/4.16.0/stack.json"
"$CIMPORT" convert --from pulumi "$R" -o "$TMP/pet.json" >/dev/null 2>"$TMP/pet.err"
grep -qF 'pulumi config set' "$TMP/pet.err" && fail "default provider with only a version: $(cat "$TMP/pet.err")"

[ "$fails" = 0 ] || exit 1
echo "test_convert.sh: all checks passed"

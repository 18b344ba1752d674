# test_offline_shared_ids.sh — offline Read matches type, ID AND provider (then the name), as the
# real engine reads: two RandomPets share the ID `kube-system/aws-auth` under providers cluster1 and
# cluster2 (configured apart, as two clusters' providers are: `context`), two more share `shared` under
# the default provider. Each gets its own recorded inputs;
# a spec no candidate fits, or that its name cannot tell apart, is an error naming the candidates.
# Offline results are "consistent with the schema (offline)", never "verified".
set -u
: "${CIMPORT:?}" "${SHARED_DATA:?}" "${SOURCE_DIR:?}"
FIX="$SOURCE_DIR/tests/fixtures/convert/shared-ids"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The random schema with a provider input `context`, the key the fixture's two providers are configured apart
# by (random's own provider has none; an explicit provider's input its schema does not list is refused)
S="$TMP/random-schema.json"
python3 - "$SHARED_DATA/schemas/random/schema.json" "$S" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d.setdefault("config", {}).setdefault("variables", {})["context"] = {"type": "string"}
d.setdefault("provider", {}).setdefault("inputProperties", {})["context"] = {"type": "string"}
json.dump(d, open(sys.argv[2], "w"))
PY
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$CIMPORT" convert --from pulumi "$FIX/export.json" -o "$TMP/all.json" -q || fail "convert --from pulumi"
# `left` and `right` are the same resource to an engine (type, ID and default provider): importing both
# is refused by the plan, so only `left` is imported — its name picks it among the two recorded.
python3 - "$TMP/all.json" >"$TMP/imports.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["resources"] = [r for r in d["resources"] if r["name"] != "right"]
print(json.dumps(d))
PY
# Into a stack: a RandomPet's provider implements no importer, so the code's `import` option cannot
# import one; recording the state read here runs none.
INTO=(--new-stack-state --stack dev --project eks)
"$CIMPORT" --spec "$TMP/imports.json" --offline-state "$FIX/export.json" --schema "$S" --json \
    --stack-state "$TMP/st.json" "${INTO[@]}" >"$TMP/r.json" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] || fail "exit code $rc: $(cat "$TMP/err")"
python3 - "$TMP/r.json" <<'PY' || fail "results"
import json, sys
d = json.load(open(sys.argv[1]))
r = {x["name"]: x for x in d["resources"]}
for name, prefix in [("cluster1-aws-auth", "cluster1"), ("cluster2-aws-auth", "cluster2"), ("left", "left")]:
    assert r[name]["status"] == "imported", (name, r[name]["diagnostics"])
    assert r[name]["inputs"]["prefix"] == prefix, (name, r[name]["inputs"])
    assert r[name]["verified"] is False and r[name]["verification"] == "offline-schema", r[name]
# the two components are declared, not read: nothing checked them
assert d["summary"]["verified"] == 0 and d["summary"]["consistentOffline"] == 3, d["summary"]
assert d["summary"]["verification"] == "offline-schema"
PY
"$CIMPORT" --spec "$TMP/imports.json" --offline-state "$FIX/export.json" --schema "$S" -l pcl \
    --stack-state "$TMP/st2.json" "${INTO[@]}" >/dev/null 2>"$TMP/err"
grep -qF "cimport: read 5 of 5 resources (3 consistent with the schema (offline), none verified by a provider; 2 not checked: components and providers have nothing to read)" "$TMP/err" ||
    fail "summary line: $(cat "$TMP/err")"
grep -q "(5 verified)" "$TMP/err" && fail "offline results called verified"

"$CIMPORT" --spec "$FIX/ambiguous.json" --offline-state "$FIX/export.json" --schema "$S" -l pcl -o "$TMP/never.pp" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc = 3 ] || fail "ambiguous: exit code $rc"
[ -e "$TMP/never.pp" ] && fail "ambiguous: a file was written"
grep -qF "resource 'stray' of type 'random:index/randomPet:RandomPet': the offline state records 2 resource(s) of type 'random:index/randomPet:RandomPet' with ID 'kube-system/aws-auth', none under a default provider as this resource is: urn:pulumi:dev::eks::random:index/randomPet:RandomPet::cluster1-aws-auth (provider cluster1), urn:pulumi:dev::eks::random:index/randomPet:RandomPet::cluster2-aws-auth (provider cluster2)" "$TMP/err" ||
    fail "wrong-provider error: $(cat "$TMP/err")"
grep -qF "resource 'middle' of type 'random:index/randomPet:RandomPet': the offline state records 2 resources of type 'random:index/randomPet:RandomPet' with ID 'shared' under a default provider, and the name does not tell them apart: urn:pulumi:dev::eks::random:index/randomPet:RandomPet::left (provider default_4_16_0), urn:pulumi:dev::eks::random:index/randomPet:RandomPet::right (provider default_4_16_0)" "$TMP/err" ||
    fail "ambiguous error: $(cat "$TMP/err")"

[ "$fails" = 0 ] || exit 1
echo "test_offline_shared_ids.sh: all checks passed"

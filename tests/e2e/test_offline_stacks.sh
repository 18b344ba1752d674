#!/usr/bin/env bash
# test_offline_stacks.sh — acceptance over real data: every custom resource of every stack export
# under ../shared/data/pulumi-state is turned into an import file (`convert --from pulumi`), imported
# offline with the schemas in ../shared/data/schemas, and its PCL parsed back. Resources whose
# package or type has no schema here must fail with that reason and nothing else; every other one
# must import and verify. Prints the counts.
set -u
unset PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE
: "${CIMPORT:?}" "${SHARED_DATA:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 files=0
: >"$tmp/all.tsv"
while IFS= read -r -d '' st; do
  files=$((files + 1))
  n=$files
  "$CIMPORT" convert --from pulumi "$st" -o "$tmp/i$n.json" -q 2>"$tmp/conv$n.err"
  rc=$?
  # exit 3, no file: none has an ID cimport can use (a RandomPassword or RandomBytes, imported by its
  # secret value), each listed with that reason
  if [ $rc = 3 ] && [ ! -e "$tmp/i$n.json" ] &&
    "$CIMPORT" convert --from pulumi "$st" -o "$tmp/i$n.json" 2>&1 | grep -q 'imports it by its value'; then continue; fi
  if [ $rc -gt 1 ]; then echo "FAIL: convert $st (exit $rc): $(cat "$tmp/conv$n.err")" >&2; fail=$((fail + 1)); continue; fi
  # An export whose secrets are its stack's passphrase ciphertext is read with that stack's passphrase:
  # the provider test harness (pulumi/providertest) records its stacks with "correct horse battery
  # staple". Without it those resources are refused (test_export_secrets.sh). Each run in a directory of
  # its own: with a passphrase, the secrets go to that directory's stack config.
  pass=()
  grep -qF '"ciphertext"' "$st" && pass=(env PULUMI_CONFIG_PASSPHRASE='correct horse battery staple')
  mkdir -p "$tmp/w$n"
  (cd "$tmp/w$n" && "${pass[@]}" "$CIMPORT" --spec "$tmp/i$n.json" --offline-state "$st" --schema "$SHARED_DATA/schemas" \
    --json -l pcl --secrets-dir "$tmp/sec$n" >"$tmp/r$n.json" 2>"$tmp/r$n.err")
  rc=$?
  if [ $rc = 2 ]; then echo "FAIL: import $st (exit 2): $(head -3 "$tmp/r$n.err")" >&2; fail=$((fail + 1)); continue; fi
  python3 - "$tmp/r$n.json" "$st" >>"$tmp/all.tsv" <<'PY' || { echo "FAIL: $st" >&2; fail=$((fail + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for r in d["resources"]:
    msgs = " | ".join(x["message"] for x in r["diagnostics"] if x["severity"] == "error")
    if r["status"] == "imported":
        assert r["verified"] is False, "offline results are never 'verified'"
        print("%s\t%s\t%s" % ("verified" if r["verification"] == "offline-schema" else "unverified", r["type"], sys.argv[2]))
    elif "no schema for package" in msgs or "has no resource type" in msgs or "needs the schema of package" in msgs:
        print("noschema\t%s\t%s" % (r["type"], sys.argv[2]))
    elif "its import ID is a secret value" in msgs:
        # imported by its secret value (RandomBytes): no `import` option can hold it in plaintext
        print("secretid\t%s\t%s" % (r["type"], sys.argv[2]))
    elif "its provider implements no importer" in msgs:
        # read and consistent, but the code's `import` option cannot import it (RandomPet, RandomShuffle,
        # the tls resources): refused with the reason, into a stack instead
        print("noimporter\t%s\t%s" % (r["type"], sys.argv[2]))
    elif "its provider's importer rebuilds the resource from its import ID alone" in msgs:
        # read and consistent, but recorded with inputs its importer does not rebuild (a RandomString's
        # special: false, upper: false, overrideSpecial): the code's `import` option would be refused by
        # `pulumi up`, into a stack instead
        print("notrebuilt\t%s\t%s" % (r["type"], sys.argv[2]))
    elif r["status"] == "skipped" and ("its parent" in msgs or "no resource was imported" in msgs):
        print("skipped\t%s\t%s" % (r["type"], sys.argv[2]))
    else:
        print("failed\t%s\t%s\t%s" % (r["type"], sys.argv[2], msgs), file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY
  # the PCL parses back and prints identically
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); open(sys.argv[2],"w").write(d.get("code") or "")' \
    "$tmp/r$n.json" "$tmp/p$n.pp"
  if [ -s "$tmp/p$n.pp" ]; then
    "$CIMPORT" convert --from pcl "$tmp/p$n.pp" --schema "$SHARED_DATA/schemas" -l pcl >"$tmp/p$n.2.pp" 2>"$tmp/p$n.err"
    if ! cmp -s "$tmp/p$n.pp" "$tmp/p$n.2.pp"; then
      echo "FAIL: PCL of $st does not parse back identically: $(head -3 "$tmp/p$n.err")" >&2; fail=$((fail + 1))
    fi
  fi
done < <(find "$SHARED_DATA/pulumi-state" \( -name stack.json -o -name state.json \) -print0 | sort -z)
v=$(grep -c '^verified' "$tmp/all.tsv"); u=$(grep -c '^unverified' "$tmp/all.tsv")
ns=$(grep -c '^noschema' "$tmp/all.tsv"); sk=$(grep -c '^skipped' "$tmp/all.tsv"); ni=$(grep -c '^noimporter' "$tmp/all.tsv")
nr=$(grep -c '^notrebuilt' "$tmp/all.tsv")
echo "offline stacks: $files files; custom resources with a schema: $((v + u)) imported ($v consistent with the schema offline, $u not); $ni read but refused for the code's import option (no importer), $nr (inputs their importer does not rebuild); $ns without a schema here; $sk skipped (parent without a schema, or a component or provider with no resource imported)"
# the recorded RandomStrings with flags other than the importer's (pulumi-random's own special: false, the
# gcp connection profiles', azure sql's overrideSpecial and upper: false)
[ "$nr" = 4 ] || { echo "FAIL: $nr resources refused for inputs their importer does not rebuild, want 4: $(grep '^notrebuilt' "$tmp/all.tsv")" >&2; fail=$((fail + 1)); }
grep '^unverified' "$tmp/all.tsv" | cut -f2 | sort | uniq -c | sed 's/^/  unverified: /'
[ "$v" -gt 50 ] || { echo "FAIL: too few resources verified ($v)" >&2; fail=$((fail + 1)); }
echo "$((files - fail)) passed, $fail failed"
[ "$fail" = 0 ]

# test_convert_plugins.sh — `cimport convert --from terraform` asking real provider plugins (the
# grpc-go peer, a real gRPC server process) for their Terraform mappings, with no --mapping:
#   - pulumi-resource-acme on $PATH serves GetMapping("terraform", "acme") from a mapping document:
#     its tokens are written, and its field renames reach the offline snapshot;
#   - pulumi-resource-multi lists `gizmo` only in GetMappings: found too;
#   - pulumi-resource-bare implements neither RPC: its resources are unmapped with a clear reason;
#   - pulumi-resource-plain has no mapping but a schema (GetSchema): the token the default naming rule
#     derives is written when the schema has it (plain_item), else unmapped (plain_other);
#   - one GetMapping per provider, and the second run reads the mapping cache keyed by plugin version.
set -u
: "${CIMPORT:?}" "${SOURCE_DIR:?}" "${BUILD_DIR:?}"
FIX="$SOURCE_DIR/tests/fixtures/convert"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

PEER_DIR="$BUILD_DIR/grpcgo-mapping"
sh "$SOURCE_DIR/tests/peers/grpcgo/build.sh" "$PEER_DIR" >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; exit 1; }
BIN="$TMP/bin"
mkdir -p "$BIN" "$TMP/home" "$TMP/cache"
for name in acme multi bare plain; do ln -s "$PEER_DIR/pulumi-resource-peer" "$BIN/pulumi-resource-$name"; done
cat >"$BIN/pulumi-resource-acme.json" <<JSON
{"version": "1.4.0", "mappings": {"acme": "$FIX/mapping/acme.json"}, "getMappings": ["acme"], "callLog": "$TMP/calls.log"}
JSON
cat >"$BIN/pulumi-resource-multi.json" <<JSON
{"version": "0.3.0", "mappings": {"gizmo": "$FIX/plugins/gizmo.json"}, "getMappings": ["gizmo"], "callLog": "$TMP/calls.log"}
JSON
cat >"$BIN/pulumi-resource-bare.json" <<JSON
{"version": "2.0.0", "noGetMapping": true, "callLog": "$TMP/calls.log"}
JSON
cat >"$BIN/pulumi-resource-plain.json" <<JSON
{"version": "3.0.0", "noGetMapping": true, "schemaFile": "$FIX/plugins/plain-schema.json", "callLog": "$TMP/calls.log"}
JSON
run() { PATH="$BIN:/usr/bin:/bin" PULUMI_HOME="$TMP/home" XDG_CACHE_HOME="$TMP/cache" "$CIMPORT" "$@"; }

run convert --from terraform "$FIX/plugins.tfstate" -o "$TMP/out.json" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] || fail "exit code $rc, expected 1 (bare_item unmapped): $(cat "$TMP/err")"
grep -q '"type": "acme:storage/widget:Widget"' "$TMP/out.json" || fail "acme token from the plugin missing"
grep -q '"type": "acme:index/gadget:Gadget"' "$TMP/out.json" || fail "acme gadget token missing"
grep -q '"type": "multi:gizmo/thing:Thing"' "$TMP/out.json" || fail "gizmo (GetMappings only) not mapped"
grep -q "bare" "$TMP/out.json" && fail "bare_item was written"
grep -q '"type": "plain:index/item:Item"' "$TMP/out.json" || fail "plain_item: token confirmed by GetSchema not written"
grep -q "plain_other\|plain:index/other" "$TMP/out.json" && fail "plain_other was written though the schema lacks it"
grep -qF "plain_other.o (plain_other): no mapping for Terraform provider 'registry.terraform.io/example/plain', and 'plain:index/other:Other' (the bridge's default naming) is not in the schema of package 'plain'; pulumi-resource-plain 3.0.0 (\$PATH) does not implement GetMapping, and its schema (GetSchema) has no token the default naming rule derives" "$TMP/err" ||
    fail "plain_other reason: $(grep plain_other "$TMP/err")"
grep -qF "acme: mapping from GetMapping(terraform, acme) of pulumi-resource-acme 1.4.0 (\$PATH)" "$TMP/err" ||
    fail "no line saying where acme's mapping came from: $(cat "$TMP/err")"
grep -qF "bare_item.b (bare_item): no mapping for Terraform provider 'registry.terraform.io/example/bare' and no schema of Pulumi package 'bare' to confirm a type; pulumi-resource-bare 2.0.0 (\$PATH) does not implement GetMapping, and its schema could not be read (GetSchema INTERNAL)" "$TMP/err" ||
    fail "bare: unclear unmapped reason: $(cat "$TMP/err")"
# One GetMapping per mapped provider (acme by name; gizmo after GetMappings); bare answered UNIMPLEMENTED.
[ "$(grep -c '^GetMapping terraform acme$' "$TMP/calls.log")" = 1 ] || fail "acme: GetMapping not called exactly once: $(cat "$TMP/calls.log")"
[ "$(grep -c '^GetMapping terraform gizmo$' "$TMP/calls.log")" = 1 ] || fail "gizmo: GetMapping not called exactly once"
ls "$TMP/cache/cimport/mappings/acme-1.4.0/acme.json" >/dev/null 2>&1 || fail "acme mapping not cached under plugin name+version"

# Field renames from the plugin's document reach the offline snapshot (--offline-state uses the same plugins).
run --spec "$TMP/out.json" --offline-state "$FIX/plugins.tfstate" --schema "$FIX/plugins/acme-schema.json" \
    --language typescript --inputs read >"$TMP/code.ts" 2>"$TMP/err2"
grep -q "sizeGigabytes: 40" "$TMP/code.ts" || fail "offline: the renamed field sizeGigabytes is missing: $(cat "$TMP/code.ts" "$TMP/err2")"
grep -q "diskKind: \"ssd\"" "$TMP/code.ts" || fail "offline: the nested rename diskKind is missing"

# Second run: the acme mapping comes from the cache (acme asked no GetMapping again).
: >"$TMP/calls.log"
run convert --from terraform "$FIX/plugins.tfstate" -o "$TMP/out2.json" 2>"$TMP/err"
cmp -s "$TMP/out.json" "$TMP/out2.json" || fail "second run wrote something else"
grep -q '^GetMapping terraform acme$' "$TMP/calls.log" && fail "acme asked again despite the cache"
grep -qF "acme: mapping from GetMapping(terraform, acme) of pulumi-resource-acme 1.4.0 (\$PATH), cached" "$TMP/err" ||
    fail "second run: cache not used: $(cat "$TMP/err")"

# --no-plugins: nothing asked, everything unmapped: nothing converted, no file written, exit 3.
: >"$TMP/calls.log"
run convert --from terraform "$FIX/plugins.tfstate" --no-plugins -o "$TMP/out3.json" 2>"$TMP/err"
[ $? = 3 ] || fail "--no-plugins: exit code"
[ ! -e "$TMP/out3.json" ] || fail "--no-plugins: something was written"
[ -s "$TMP/calls.log" ] && fail "--no-plugins: a plugin was asked"

# An explicit --mapping wins over plugins: acme is not asked.
: >"$TMP/calls.log"
run convert --from terraform "$FIX/plugins.tfstate" --mapping "$FIX/mapping" -o "$TMP/out4.json" 2>"$TMP/err"
grep -q 'acme' "$TMP/calls.log" && fail "--mapping: acme's plugin was asked anyway"
grep -q '"type": "acme:storage/widget:Widget"' "$TMP/out4.json" || fail "--mapping: acme token missing"

[ "$fails" = 0 ] || exit 1
echo "test_convert_plugins.sh: all checks passed"

#!/usr/bin/env bash
# secrets.sh — where secrets cost time: an offline import of N resources that each carry a secret,
#   --secrets literal                    (the secret in the code, nothing else written)
#   --secrets config, a passphrase       (every value encrypted into Pulumi.<stack>.yaml: one PBKDF2)
#   --secrets config, no passphrase      (every value into one 0600 file)
# each writing TypeScript to a file. Wall time of the whole run, best of REPEAT (default 3).
#
#   [REPEAT=n] bench/secrets.sh [CIMPORT] [N...]      default: build-bench/cimport, 10000 100000
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ge 1 ] && [ -x "$1" ]; then cimport=$(realpath "$1"); shift; else
  cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build-bench -j"$(nproc)" --target cimport >/dev/null
  cimport=$PWD/build-bench/cimport
fi
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000)
S=$PWD/../shared/data/schemas/random/schema.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr), $(date -u +%F)"
best() { # best wall time of 3 runs of "$@", in seconds
  local b=""
  for _ in $(seq "${REPEAT:-3}"); do
    rm -rf "$work/run" && mkdir "$work/run" && cp "$work/Pulumi.yaml" "$work/run/"
    local t0 t1
    t0=$(date +%s%N)
    (cd "$work/run" && "$@" >/dev/null 2>"$work/err") || { cat "$work/err" >&2; exit 1; }
    t1=$(date +%s%N)
    local ms=$(((t1 - t0) / 1000000))
    if [ -z "$b" ] || [ "$ms" -lt "$b" ]; then b=$ms; fi
  done
  printf '%d.%03d' $((b / 1000)) $((b % 1000))
}
printf 'name: bench\nruntime: nodejs\n' >"$work/Pulumi.yaml"
for n in "${sizes[@]}"; do
  python3 - "$n" "$work" <<'PY'
import json, sys
n, w = int(sys.argv[1]), sys.argv[2]
res = [{"urn": "urn:pulumi:legacy::bench::pulumi:pulumi:Stack::bench-legacy", "custom": False, "type": "pulumi:pulumi:Stack"}]
spec = {"resources": []}
sig = "4dabf18193072939515e22adb298388d"
for i in range(n):
    keepers = {"token": {sig: "1b47061264138c4ac30d75fd1eb44270", "plaintext": json.dumps(f"secret-token-{i:06d}")}, "team": "a"}
    # a RandomString: importable by the code's `import` option (a RandomPet's provider has no importer)
    v = f"str-{i:06d}"
    res.append({"urn": f"urn:pulumi:legacy::bench::random:index/randomString:RandomString::p{i}", "custom": True, "id": v,
                "type": "random:index/randomString:RandomString", "inputs": {"keepers": keepers, "length": len(v)},
                "outputs": {"id": v, "result": v, "keepers": keepers, "length": len(v), "lower": True, "minLower": 0,
                            "minNumeric": 0, "minSpecial": 0, "minUpper": 0, "number": True, "numeric": True,
                            "special": True, "upper": True}})
    spec["resources"].append({"type": "random:index/randomString:RandomString", "name": f"p{i}", "id": v})
json.dump({"version": 3, "deployment": {"manifest": {"time": "2026-11-20T10:00:00Z", "magic": "", "version": ""}, "resources": res}}, open(f"{w}/cloud.json", "w"))
json.dump(spec, open(f"{w}/spec.json", "w"))
PY
  args=(--spec "$work/spec.json" --offline-state "$work/cloud.json" --schema "$S" -l typescript -o out.ts -q)
  lit=$(best "$cimport" "${args[@]}" --secrets literal)
  pass=$(best env PULUMI_CONFIG_PASSPHRASE=bench "$cimport" "${args[@]}" --secrets config)
  file=$(best env -u PULUMI_CONFIG_PASSPHRASE "$cimport" "${args[@]}" --secrets config)
  one=$(cd "$work" && python3 -c '
import subprocess, time
t = time.time()
# one PBKDF2-HMAC-SHA256 derivation, 1,000,000 iterations (OpenSSL), for comparison
subprocess.run(["openssl", "kdf", "-keylen", "32", "-kdfopt", "digest:SHA256", "-kdfopt", "pass:bench", "-kdfopt", "hexsalt:0011223344556677", "-kdfopt", "iter:1000000", "PBKDF2"], check=True, capture_output=True)
print("%.3f" % (time.time() - t))')
  echo "N=$n  literal ${lit}s  config+passphrase ${pass}s  config, one file ${file}s  (one PBKDF2 via openssl: ${one}s)"
done

#!/usr/bin/env python3
"""gen_scale.py — synthetic big inputs for `bench/run.sh scale`, built from the real data in
../shared/data (nothing large is committed).

  gen_scale.py export N OUT.json      a `pulumi stack export` (deployment v3) with N custom resources
                                      cloned (unique IDs and names) from the real stack exports of
                                      the packages that have a schema in ../shared/data/schemas
  gen_scale.py schema MB OUT.json     a package schema of about MB megabytes: the real schemas'
                                      resources and types, renamed per copy and repeated, in one
                                      package named `big` (version 1.0.0)
  gen_scale.py pet COPY OUT.json      a stack export with one real RandomPet retyped into copy COPY of
                                      the big schema (`big:big<COPY>xrandom/index_randomPet:RandomPet`)
  gen_scale.py program N OUT.ts       a TypeScript program of N lines (for the splice bench)
"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("CIMPORT_SHARED_DATA", os.path.join(HERE, "..", "..", "shared", "data"))
PACKAGES = ["random", "tls", "command", "digitalocean", "azuread"]


def protos():
    out = []
    for pkg in PACKAGES:
        for f in sorted(glob.glob(f"{DATA}/pulumi-state/pulumi-{pkg}/*/testdata/recorded/*/*/*/stack.json")):
            d = json.load(open(f))
            for r in d["deployment"].get("resources", []):
                if not r.get("custom") or not r.get("id") or r["type"].startswith("pulumi:"):
                    continue
                if r.get("delete") or r.get("pendingReplacement"):
                    continue
                out.append(r)
    return out


def export(n, path):
    ps = protos()
    if not ps:
        sys.exit(f"gen_scale: no resources under {DATA}")
    stack_urn = "urn:pulumi:bench::bench::pulumi:pulumi:Stack::bench-bench"
    with open(path, "w") as w:
        w.write('{"version":3,"deployment":{"manifest":{"time":"2026-01-01T00:00:00Z","magic":"","version":"v3.140.0"},"resources":[\n')
        w.write(json.dumps({"urn": stack_urn, "custom": False, "type": "pulumi:pulumi:Stack"}))
        for pkg in PACKAGES:
            w.write(",\n" + json.dumps({"urn": f"urn:pulumi:bench::bench::pulumi:providers:{pkg}::default",
                                        "custom": True, "id": f"prov-{pkg}", "type": f"pulumi:providers:{pkg}",
                                        "parent": stack_urn}))
        for i in range(n):
            p = ps[i % len(ps)]
            pkg = p["type"].split(":")[0]
            r = dict(p)
            r["urn"] = f"urn:pulumi:bench::bench::{p['type']}::r{i}"
            r["id"] = f"{p['id']}-{i}"
            if p["type"] == "random:index/randomInteger:RandomInteger":
                # its import ID is "result,min,max" (specs/importid.h), and the offline snapshot finds
                # it by the result: each clone gets a result of its own, recorded as its ID
                r["id"] = str(i)
                r["inputs"] = dict(p.get("inputs", {}), min=0, max=n)
                r["outputs"] = dict(p.get("outputs", {}), min=0, max=n, result=i)
            r["parent"] = stack_urn
            r["provider"] = f"urn:pulumi:bench::bench::pulumi:providers:{pkg}::default::prov-{pkg}"
            for k in ("dependencies", "propertyDependencies", "aliases"):
                r.pop(k, None)
            w.write(",\n" + json.dumps(r, separators=(",", ":")))
        w.write("\n]}}\n")


def rename(obj, old, new):
    s = json.dumps(obj, separators=(",", ":"))
    return json.loads(s.replace(f'"{old}:', f'"{new}:').replace(f'#/types/{old}:', f'#/types/{new}:')
                      .replace(f'#/resources/{old}:', f'#/resources/{new}:'))


def schema(mb, path):
    srcs = []
    for pkg in ["azuread", "digitalocean", "kubernetes", "github", "openstack", "docker", "random", "tls"]:
        f = f"{DATA}/schemas/{pkg}/schema.json"
        if os.path.exists(f):
            srcs.append((pkg, json.load(open(f))))
    target = mb * 1000 * 1000
    with open(path, "w") as w:
        w.write('{"name":"big","version":"1.0.0","displayName":"big","meta":{"moduleFormat":"(.*)(?:/[^/]*)"},\n')
        w.write('"config":{},"provider":{"description":"The provider type for the big package.","inputProperties":{}},\n')
        size = 0
        copy = 0
        sections = {"resources": [], "types": []}
        # write resources and types as two sections; collect the per-copy text to stay streaming
        tmp_types = path + ".types.tmp"
        with open(tmp_types, "w") as wt:
            w.write('"resources":{')
            first_r, first_t = True, True
            while size < target:
                for pkg, s in srcs:
                    tag = f"big{copy}x{pkg}"
                    # move every token of pkg into package big, module tag
                    for tok, r in s.get("resources", {}).items():
                        parts = tok.split(":")
                        if len(parts) != 3:
                            continue
                        ntok = f"big:{tag}/{parts[1].replace('/', '_')}:{parts[2]}"
                        txt = json.dumps(r, separators=(",", ":"))
                        txt = fix_refs(txt, pkg, tag)
                        line = ("" if first_r else ",\n") + json.dumps(ntok) + ":" + txt
                        first_r = False
                        w.write(line)
                        size += len(line)
                    for tok, t in s.get("types", {}).items():
                        parts = tok.split(":")
                        if len(parts) != 3:
                            continue
                        ntok = f"big:{tag}/{parts[1].replace('/', '_')}:{parts[2]}"
                        txt = fix_refs(json.dumps(t, separators=(",", ":")), pkg, tag)
                        line = ("" if first_t else ",\n") + json.dumps(ntok) + ":" + txt
                        first_t = False
                        wt.write(line)
                        size += len(line)
                    if size >= target:
                        break
                copy += 1
            w.write('},\n"types":{')
        with open(tmp_types) as rt:
            while True:
                b = rt.read(1 << 20)
                if not b:
                    break
                w.write(b)
        os.unlink(tmp_types)
        w.write("}}\n")


def fix_refs(txt, pkg, tag):
    import re
    def sub(m):
        kind, tok = m.group(1), m.group(2)
        parts = tok.split(":")
        if len(parts) != 3 or parts[0] != pkg:
            return m.group(0)
        return f'"$ref":"#/{kind}/big:{tag}/{parts[1].replace("/", "_").replace("%2F", "_")}:{parts[2]}"'
    return re.sub(r'"\$ref":"#/(types|resources)/([^"]+)"', sub, txt)


def program(n, path):
    with open(path, "w") as w:
        w.write('import * as pulumi from "@pulumi/pulumi";\nimport * as random from "@pulumi/random";\n\n')
        i = 0
        lines = 3
        while lines < n:
            w.write(f'const pet{i} = new random.RandomPet("pet{i}", {{\n    length: {i % 5 + 1},\n}});\n')
            lines += 3
            i += 1


def pet(copy, path):
    for r in protos():
        if r["type"] == "random:index/randomPet:RandomPet":
            r = dict(r)
            r["type"] = f"big:big{copy}xrandom/index_randomPet:RandomPet"
            r["urn"] = f"urn:pulumi:bench::bench::{r['type']}::pet"
            r.pop("provider", None)
            r.pop("parent", None)
            json.dump({"version": 3, "deployment": {"resources": [r]}}, open(path, "w"))
            print(r["id"])
            return
    sys.exit("gen_scale: no RandomPet in the shared stack exports")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    {"export": export, "schema": schema, "program": program, "pet": pet}[kind](n, out)

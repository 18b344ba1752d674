#!/usr/bin/env python3
"""file-cycles.py BUILD_DIR — checks that no two source files of the cimport libraries call each other,
directly or round a longer circle (issue 13: "no circle of files that call each other").

Reads the libraries' object files under BUILD_DIR (cimport_*.dir) with nm: a file calls another when
it uses a symbol the other defines. Prints each circle (a strongly connected set of files) with the
calls that close it and exits 1; prints the count of files and exits 0 when there is none."""
import collections
import glob
import subprocess
import sys


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    objs = sorted(glob.glob(f"{build}/CMakeFiles/cimport_*.dir/**/*.o", recursive=True))
    if not objs:
        print(f"file-cycles: no library objects under {build}/CMakeFiles/cimport_*.dir: build first")
        return 2
    defs, uses = {}, collections.defaultdict(set)
    for o in objs:
        name = o.split(".dir/", 1)[1][:-2]
        for line in subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBR":
                defs[p[2]] = name
            elif len(p) == 2 and p[0] == "U":
                uses[name].add(p[1])
    edges = collections.defaultdict(set)
    for f, us in uses.items():
        for u in us:
            if u in defs and defs[u] != f:
                edges[f].add(defs[u])
    # Tarjan's strongly connected components, iteratively
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
    nodes = sorted(set(defs.values()) | set(uses))
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        sccs.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = counter[0]
                counter[0] += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(edges[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
    for comp in sccs:
        print("file-cycles: these files call each other: " + ", ".join(comp))
        members = set(comp)
        for f in comp:
            for u in sorted(uses[f]):
                if defs.get(u) in members and defs[u] != f:
                    print(f"    {f} -> {defs[u]} ({u})")
    if sccs:
        return 1
    print(f"file-cycles: {len(nodes)} files, no circle of calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())

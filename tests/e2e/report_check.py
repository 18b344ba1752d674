#!/usr/bin/env python3
"""report_check.py — checks the DOM Chromium dumped for an import report (opened with #all, so every
resource's details are drawn) against the run's own results document.

  report_check.py DOM RESULTS.json [--offline] [--no-secret TEXT]... [--unmapped N]
      [--res-outcome NAME=OUTCOME]... [--res-text NAME=TEXT]... [--provenance NAME:PATH=KIND]...
      [--secret-path NAME:PATH]... [--reference NAME=TARGET]...

The outcome of each resource is derived here from the document on its own terms: failed/skipped
from "status"; a residual diff; components and providers not checked ("imported"); verified means
"offline" (consistent with the schema) for an --offline run, else "verified" by the provider."""
import argparse, html, json, re, sys


def expected_outcome(r, offline):
    if r["status"] == "failed":
        return "failed"
    if r["status"] == "skipped":
        return "skipped"
    if r.get("residual"):
        return "residual"
    if r.get("kind") in ("component", "provider"):
        return "imported"
    # offline results have "verified": false and "verification": "offline-schema" (issue 12)
    if r["verified"] or r.get("verification") in ("provider", "offline-schema"):
        kind = r.get("verification")
        if isinstance(kind, str):
            return "offline" if re.search("offline|schema", kind, re.I) else "verified"
        return "offline" if offline else "verified"
    return "imported"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dom")
    ap.add_argument("results")
    ap.add_argument("--offline", action="store_true")
    ap.add_argument("--no-secret", action="append", default=[])
    ap.add_argument("--unmapped", type=int)
    ap.add_argument("--res-outcome", action="append", default=[])
    ap.add_argument("--res-text", action="append", default=[])
    ap.add_argument("--provenance", action="append", default=[])
    ap.add_argument("--secret-path", action="append", default=[])
    ap.add_argument("--reference", action="append", default=[])
    a = ap.parse_args()
    dom = open(a.dom, encoding="utf-8").read()
    doc = json.load(open(a.results))
    errors = []

    def count(key):
        m = re.search(r'id="count-%s" data-count="(\d+)"' % re.escape(key), dom)
        if not m:
            m = re.search(r'data-count="(\d+)"[^>]*id="count-%s"' % re.escape(key), dom)
        return int(m.group(1)) if m else None

    exp = {}
    for r in doc["resources"]:
        o = expected_outcome(r, a.offline)
        exp[o] = exp.get(o, 0) + 1
    unmapped = len(doc.get("unmapped", []))
    exp["unmapped"] = unmapped
    total = len(doc["resources"]) + unmapped
    if count("total") != total:
        errors.append("total: page says %s, document has %d" % (count("total"), total))
    for o in ("verified", "offline", "residual", "imported", "failed", "skipped", "unmapped"):
        if count(o) != exp.get(o, 0):
            errors.append("%s: page says %s, document gives %d" % (o, count(o), exp.get(o, 0)))
    if a.offline and count("verified") != 0:
        errors.append("an offline run shows resources as verified by the provider")
    if a.unmapped is not None and count("unmapped") != a.unmapped:
        errors.append("unmapped: page says %s, expected %d" % (count("unmapped"), a.unmapped))

    # Every resource's details, each with its outcome.
    blocks = {}
    for m in re.finditer(r'<div class="res" id="res-\d+" data-name="([^"]*)" data-outcome="([^"]*)">', dom):
        end = dom.find('<div class="res" id="res-', m.end())
        blocks[html.unescape(m.group(1))] = (m.group(2), dom[m.end():end if end > 0 else len(dom)])
    for r in doc["resources"]:
        o = expected_outcome(r, a.offline)
        got = blocks.get(r["name"])
        if not got:
            errors.append("no details for resource %s" % r["name"])
        elif got[0] != o:
            errors.append("resource %s: page says %s, document gives %s" % (r["name"], got[0], o))
        elif r["status"] == "imported" and r.get("kind") == "resource":
            # provenance labels: one per input path the document records
            for path, kind in r.get("provenance", {}).items():
                if 'data-provenance="%s"' % kind not in got[1]:
                    errors.append("resource %s: no '%s' provenance label (for %s)" % (r["name"], kind, path))
    for u in doc.get("unmapped", []):
        if blocks.get(u["address"], ("",))[0] != "unmapped":
            errors.append("unmapped resource %s is not shown as unmapped" % u["address"])

    def text_of(name):
        b = blocks.get(name)
        return html.unescape(re.sub(r"<[^>]+>", "", b[1])) if b else ""

    for spec in a.res_outcome:
        name, o = spec.split("=", 1)
        if blocks.get(name, ("",))[0] != o:
            errors.append("resource %s: outcome %s, expected %s" % (name, blocks.get(name, ("none",))[0], o))
    for spec in a.res_text:
        name, t = spec.split("=", 1)
        if t not in text_of(name):
            errors.append("resource %s: text %r not shown" % (name, t))
    for spec in a.provenance:
        name, rest = spec.split(":", 1)
        path, kind = rest.split("=", 1)
        b = blocks.get(name, ("", ""))[1]
        m = re.search(r'<tr data-path="%s">(.*?)</tr>' % re.escape(path), b, re.S)
        labels = {"required": "required by schema", "diff": "differed in Diff", "read": "read", "spec": "from import file"}
        if not m or 'data-provenance="%s"' % kind not in m.group(1) or labels[kind] not in m.group(1):
            errors.append("resource %s: input %s is not labelled %r" % (name, path, labels[kind]))
    for spec in a.secret_path:
        name, path = spec.split(":", 1)
        b = blocks.get(name, ("", ""))[1]
        m = re.search(r'<tr data-path="%s">(.*?)</tr>' % re.escape(path), b, re.S)
        if not m or 'class="secret"' not in m.group(1):
            errors.append("resource %s: input %s is not shown as secret" % (name, path))
    for spec in a.reference:
        name, target = spec.split("=", 1)
        b = blocks.get(name, ("", ""))[1]
        m = re.search(r'<ul class="refs">(.*?)</ul>', b, re.S)
        if not m or target not in m.group(1):
            errors.append("resource %s: no inferred reference to %s" % (name, target))
    for s in a.no_secret:
        if s in dom:
            errors.append("secret value %r is in the page" % s)
    # A run that wrote nothing (--diff, --preview-only, a refused write: summary.written false) says
    # so, and does not call what it read imported; a run that wrote its outputs says nothing of it.
    m = re.search(r'<p[^>]*id="written-note"[^>]*>(.*?)</p>', dom, re.S)
    m_all = re.search(r'id="count-imported-all"[^>]*>.*?<span class="l">([^<]*)</span>', dom, re.S)
    if doc["summary"].get("written") is False:
        if not m or "Nothing was written" not in m.group(1):
            errors.append("the document says nothing was written (summary.written false); the page does not")
        if not m_all or m_all.group(1) == "imported":
            errors.append("nothing was written, but the page counts %s as imported" % count("imported-all"))
    elif m:
        errors.append("the page says nothing was written; the document does not: %r" % m.group(1))
    # Why nothing was written: a declined confirmation says so; "see the run diagnostics" only where
    # the document has an error to see (a declined import was blamed on one that did not exist).
    note = html.unescape(re.sub(r"<[^>]+>", "", m.group(1))) if m else ""
    errs = [d for d in doc.get("diagnostics", []) if d.get("severity") == "error"] + \
        [d for r in doc["resources"] for d in r.get("diagnostics", []) if d.get("severity") == "error"]
    if doc["summary"].get("declined") and "declined" not in note:
        errors.append("the import was declined (summary.declined); the page says: %r" % note)
    if "see the run diagnostics" in note and not errs:
        errors.append("the page sends the reader to the run diagnostics, and there is none: %r" % note)
    # Where the import went (run.target): a run that wrote no stack does not count its resources as
    # imported, and says what became of them (before, "4 imported" for code with the `import` option).
    target = doc.get("run", {}).get("target")
    kind = target.get("kind") if isinstance(target, dict) else None
    wants = {"stack": "Imported into stack", "stackState": "Merged into the stack export",
             "importOption": "Code written, not recorded in any stack", "codeOnly": "Code written, not recorded in any stack"}
    t = re.search(r'<p[^>]*id="target-note"[^>]*>(.*?)</p>', dom, re.S)
    t = html.unescape(re.sub(r"<[^>]+>", "", t.group(1))) if t else ""
    # Into a stack (version 2): a resource the stack held already was not imported; the page counts
    # and says so (it said "Imported into stack" and counted it imported, read13 F8).
    read = [r for r in doc["resources"] if r["status"] == "imported"]
    already = [r for r in read if r.get("stack") == "already"]
    added = [r for r in read if r.get("stack") == "added"]
    if kind in ("stack", "stackState") and "alreadyInStack" in doc["summary"]:
        if count("already") != len(already):
            errors.append("already in the stack: page says %s, document gives %d" % (count("already"), len(already)))
        if already and len(already) == len(read):
            first, nothing = ("Already in stack", "nothing imported") if kind == "stack" else \
                ("Already in the stack export", "nothing merged")
            if not t.startswith(first) or nothing not in t:
                errors.append("every resource read was in the stack (export) already; the page's note says %r" % t)
            wants[kind] = first
        elif already:
            wants[kind] = ("Imported %d into stack" if kind == "stack" else "Merged %d into the stack export") % len(added)
        if doc["summary"].get("written") is not False and count("imported-all") != len(added):
            errors.append("imported: page says %s, the stack write added %d" % (count("imported-all"), len(added)))
    if kind not in wants:
        errors.append("the results document does not say where the import went (run.target): %r" % (target,))
    elif doc["summary"].get("written") is not False:
        if wants[kind] not in t:
            errors.append("run.target is %s; the page's note says %r, not %r" % (kind, t, wants[kind]))
        if kind != "stack" and (not m_all or m_all.group(1) == "imported"):
            errors.append("run.target is %s (no stack written), but the page counts %s as imported" %
                          (kind, count("imported-all")))
    if "--import-option" in doc.get("run", {}).get("flags", []):
        errors.append("run.flags lists --import-option: where the import went is run.target's (with its reason)")
    if 'data-ready="1"' not in dom:
        errors.append("the page's script did not finish")
    for e in errors:
        print("report_check: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""report_browser.py — drives headless Debian Chromium for the import report tests and bench.

  report_browser.py dom FILE.html [HASH]          prints the DOM after the page's script ran
  report_browser.py shot FILE.html W H OUT.png [HASH]
                                                  screenshot at W x H, then checks it is not blank
  report_browser.py pixels OUT.png                prints "distinct=<n> ink=<fraction>"

Each run gets a fresh profile directory and every background network feature off; the page itself
forbids fetches (its Content-Security-Policy). The PNG check decodes the screenshot with zlib (8-bit
RGB/RGBA, as Chromium writes them) and counts distinct colours and the share of non-white pixels."""
import os, shutil, struct, subprocess, sys, tempfile, zlib

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio"]


def run(args, timeout=120):
    prof = tempfile.mkdtemp(prefix="cimport-chromium-")
    try:
        p = subprocess.run([CHROMIUM] + FLAGS + ["--user-data-dir=" + prof] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    finally:
        shutil.rmtree(prof, ignore_errors=True)


def url(path, h):
    u = "file://" + os.path.abspath(path)
    return u + ("#" + h if h else "")


def dom(path, h=None, budget=None):
    args = ["--dump-dom"]
    if budget:
        args.append("--virtual-time-budget=%d" % budget)
    rc, out, err = run(args + [url(path, h)])
    if rc != 0 or "<html" not in out:
        sys.stderr.write(err[-2000:])
        raise SystemExit("chromium --dump-dom failed (exit %d)" % rc)
    return out


def png_pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG" % path)
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit("%s: unexpected PNG format" % path)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    i = 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def pixel_stats(path):
    w, h, bpp, rows = png_pixels(path)
    colors, ink = set(), 0
    for r in rows[::2]:
        for x in range(0, w * bpp, bpp * 2):
            px = r[x:x + 3]
            colors.add(px)
            if px != b"\xff\xff\xff":
                ink += 1
    total = len(rows[::2]) * len(range(0, w * bpp, bpp * 2))
    return w, h, len(colors), ink / float(total)


def shot(path, w, h, out, hsh=None):
    rc, _, err = run(["--window-size=%d,%d" % (w, h), "--screenshot=" + out, url(path, hsh)])
    if rc != 0 or not os.path.exists(out):
        sys.stderr.write(err[-2000:])
        raise SystemExit("chromium --screenshot failed (exit %d)" % rc)
    pw, ph, distinct, ink = pixel_stats(out)
    if (pw, ph) != (w, h):
        raise SystemExit("%s: screenshot is %dx%d, not %dx%d" % (out, pw, ph, w, h))
    if distinct < 8 or ink < 0.03:
        raise SystemExit("%s: the screenshot is blank (%d colours, %.1f%% ink)" % (out, distinct, 100 * ink))
    return distinct, ink


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "dom":
        sys.stdout.write(dom(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None))
    elif cmd == "shot":
        d, ink = shot(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5],
                      sys.argv[6] if len(sys.argv) > 6 else None)
        print("distinct=%d ink=%.3f" % (d, ink))
    elif cmd == "pixels":
        w, h, d, ink = pixel_stats(sys.argv[2])
        print("size=%dx%d distinct=%d ink=%.3f" % (w, h, d, ink))
    else:
        raise SystemExit("usage: report_browser.py dom|shot|pixels ...")

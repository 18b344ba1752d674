#!/usr/bin/env python3
"""report_paint.py — how soon headless Chromium has drawn an import report (bench_report runs it).

  report_paint.py PAGE.html [RUNS]

For each run, a fresh headless Chromium (Debian `chromium`, no network features, a new profile) is
driven over the DevTools protocol on a pipe (--remote-debugging-pipe: no port is opened): it
navigates to the page with #paint, waits for the load event, then for the page's own record of when
its script finished and when the first frame after it was produced, and reads the browser's paint
timing entries (first-paint / first-contentful-paint) when it has them. Prints the medians as
"script=<ms> frame=<ms> fcp=<ms> load=<ms>" (times from navigation start)."""
import json, os, shutil, subprocess, sys, tempfile, time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe", "--window-size=1280,900"]


class Browser:
    def __init__(self):
        self.prof = tempfile.mkdtemp(prefix="cimport-paint-")
        to_r, to_w = os.pipe()      # we write commands; chromium reads fd 3
        from_r, from_w = os.pipe()  # chromium writes fd 4; we read

        def child():  # fds 3 and 4 for chromium (through copies: either may be one of the four)
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.p = subprocess.Popen(["chromium"] + FLAGS + ["--user-data-dir=" + self.prof, "about:blank"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=child,
                                  close_fds=False)  # fds 3 and 4 are set up by child()
        os.close(to_r)
        os.close(from_w)
        self.w, self.r = to_w, from_r
        self.buf = b""
        self.next = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next += 1
        m = {"id": self.next, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        os.write(self.w, json.dumps(m).encode() + b"\0")
        return self.next

    def read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise SystemExit("report_paint: chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        i = self.send(method, params, session)
        while True:
            m = self.read()
            if m.get("id") == i:
                if "error" in m:
                    raise SystemExit("report_paint: %s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name):
        for k, m in enumerate(self.events):
            if m.get("method") == name:
                del self.events[k]
                return m
        while True:
            m = self.read()
            if m.get("method") == name:
                return m
            self.events.append(m)

    def close(self):
        try:
            self.send("Browser.close")
            self.p.wait(timeout=20)
        except Exception:
            self.p.kill()
        os.close(self.w)
        os.close(self.r)
        shutil.rmtree(self.prof, ignore_errors=True)


def measure(page):
    b = Browser()
    try:
        t = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.call("Target.attachToTarget", {"targetId": t, "flatten": True})["sessionId"]
        b.call("Page.enable", session=s)
        b.call("Page.navigate", {"url": "file://" + os.path.abspath(page) + "#paint"}, session=s)
        b.wait_event("Page.loadEventFired")
        expr = """new Promise(function (done) {
          (function poll() {
            var p = document.body && document.body.getAttribute('data-paint');
            if (p) {
              var nav = performance.getEntriesByType('navigation')[0];
              var paint = {};
              performance.getEntriesByType('paint').forEach(function (e) { paint[e.name] = e.startTime; });
              done(JSON.stringify({page: p, load: nav ? nav.loadEventEnd : -1, paint: paint}));
            } else setTimeout(poll, 10);
          })();
        })"""
        r = b.call("Runtime.evaluate", {"expression": expr, "awaitPromise": True, "returnByValue": True}, session=s)
        v = json.loads(r["result"]["value"])
        fields = dict(kv.split("=") for kv in v["page"].split() if "=" in kv)
        return {"script": float(fields["script"]), "frame": float(fields["frame"]),
                "fcp": v["paint"].get("first-contentful-paint", -1.0), "load": v["load"]}
    finally:
        b.close()


def main():
    page = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    ms = [measure(page) for _ in range(runs)]
    med = lambda k: sorted(m[k] for m in ms)[len(ms) // 2]
    print("script=%.0f frame=%.0f fcp=%.0f load=%.0f" % (med("script"), med("frame"), med("fcp"), med("load")))


if __name__ == "__main__":
    main()

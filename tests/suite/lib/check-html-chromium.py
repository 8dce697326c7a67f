#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Loads HTML pages in headless Chromium through chromedriver's W3C HTTP API
(Python's standard library only) and checks each page:

  - no console message at level SEVERE (console.error, a Content-Security-
    Policy violation, a failed load) in the browser log;
  - no network request (Network.requestWillBeSent in the performance log)
    other than the page's own file:// URL;
  - the rendered DOM text (document body's text as WebDriver reads it)
    holds every string given with --expect;
  - a screenshot of the whole page is saved (--screenshot, PNG).

  check-html-chromium.py [--expect-fail KIND] [--expect TEXT]... [--screenshot OUT.png]
                         [--width W] [--max-height H] PAGE.html [-- PAGE2 ...]

Several pages share one browser session (one check line each): arguments
after `--` start the next page's own options. --expect-fail KIND (console,
network, text) inverts the verdict: the page must fail that check, which is
how the suite proves the checker can fail.
"""
import base64, json, os, shutil, socket, subprocess, sys, tempfile, time, urllib.error, urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")


def localhost_resolves():
    """Whether "localhost" names a loopback address here (the hosts file)."""
    try:
        return any(a[4][0] in ("127.0.0.1", "::1") for a in socket.getaddrinfo("localhost", None))
    except OSError:
        return False


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Driver:
    started = []  # the processes started, ended when no session could be made

    @classmethod
    def stop_started(cls):
        for p in cls.started:
            if p.poll() is None:
                p.terminate()
                p.wait(timeout=10)

    def __init__(self, log):
        self.port = free_port()
        # chromedriver's own log (how it launched Chromium, what Chromium
        # said): shown when no session could be made
        self.proc = subprocess.Popen([CHROMEDRIVER, f"--port={self.port}", f"--log-path={log}",
                                      "--log-level=INFO"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        Driver.started.append(self.proc)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                if self.proc.poll() is not None:
                    raise OSError(f"{CHROMEDRIVER} exited with status {self.proc.returncode} "
                                  "before it listened")
                time.sleep(0.05)
        self.profile = tempfile.mkdtemp(prefix="bt-chromium-")
        self.browser = None
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", f"--user-data-dir={self.profile}"]
        opts = {"binary": CHROMIUM, "args": args}
        if not localhost_resolves() or os.environ.get("BT_CHROMIUM_ATTACH") == "1":
            # chromedriver reaches the Chromium it starts at "localhost:PORT"
            # (its DevTools client); where that name does not resolve (a
            # minimal root without the hosts file) it fails with "session not
            # created: from disconnected: unable to connect to renderer".
            # Then Chromium is started here, its DevTools on 127.0.0.1, and
            # chromedriver attaches to it by address (debuggerAddress).
            # BT_CHROMIUM_ATTACH=1 takes this way anywhere (to test it).
            opts = {"debuggerAddress": f"127.0.0.1:{self.start_browser(args)}"}
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": opts,
            "goog:loggingPrefs": {"browser": "ALL", "performance": "ALL"}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def start_browser(self, args):
        """Chromium with its DevTools on 127.0.0.1 (port chosen by it, read
        from DevToolsActivePort in the profile); returns the port."""
        self.browser = subprocess.Popen([CHROMIUM, *args, "--remote-debugging-address=127.0.0.1",
                                         "--remote-debugging-port=0", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        Driver.started.append(self.browser)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(400):
            try:
                port = open(port_file).readline().strip()
                if port:
                    return int(port)
            except (OSError, ValueError):
                pass
            if self.browser.poll() is not None:
                raise OSError(f"{CHROMIUM} exited with status {self.browser.returncode} before its "
                              "DevTools listened")
            time.sleep(0.05)
        raise OSError(f"{CHROMIUM} wrote no DevToolsActivePort within 20 s")

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())["value"] if method != "GET" or path != "/status" else None

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.sid}{path}", body)

    def logs(self, kind):
        return self.s("POST", "/se/log", {"type": kind})

    def quit(self):
        try:
            self.s("DELETE", "")
        finally:
            self.proc.terminate()
            self.proc.wait(timeout=10)
            if self.browser:
                self.browser.terminate()
                self.browser.wait(timeout=10)
            shutil.rmtree(self.profile, ignore_errors=True)


def check_page(d, page, expect, shot, width, max_height, expect_fail):
    url = "file://" + os.path.abspath(page)
    # the first tab's own start page fetches chrome:// resources: leave it
    # for an empty page and drain the logs before loading ours
    d.s("POST", "/url", {"url": "about:blank"})
    d.logs("browser"), d.logs("performance")
    d.s("POST", "/window/rect", {"width": width, "height": 900})
    t0 = time.time()
    d.s("POST", "/url", {"url": url})
    load = time.time() - t0
    console = [e for e in d.logs("browser") if e.get("level") == "SEVERE"]
    requests = []
    for e in d.logs("performance"):
        m = json.loads(e["message"])["message"]
        if m.get("method") == "Network.requestWillBeSent":
            u = m["params"]["request"]["url"]
            if u != url:
                requests.append(u)
    body = d.s("POST", "/element", {"using": "css selector", "value": "body"})
    eid = next(iter(body.values()))
    text = d.s("GET", f"/element/{eid}/text")
    missing = [x for x in expect if x not in text]
    failed = {"console": bool(console), "network": bool(requests), "text": bool(missing)}
    if shot:
        h = d.s("POST", "/execute/sync", {"script": "return document.documentElement.scrollHeight", "args": []})
        d.s("POST", "/window/rect", {"width": width, "height": min(int(h) + 20, max_height)})
        png = base64.b64decode(d.s("GET", "/screenshot"))
        os.makedirs(os.path.dirname(os.path.abspath(shot)), exist_ok=True)
        open(shot, "wb").write(png)
    name = os.path.basename(page)
    detail = (f"{len(console)} console errors, {len(requests)} network requests, "
              f"{len(expect) - len(missing)}/{len(expect)} expected texts in the DOM")
    if expect_fail:
        ok = failed[expect_fail]
        caught = {"console": [c.get("message") for c in console], "network": requests, "text": missing}[expect_fail]
        print(f"{'ok  ' if ok else 'FAIL'} {name}: must fail the {expect_fail} check: {detail}"
              + (f" (caught: {caught[0]!s:.110})" if ok else ""))
        return ok
    ok = not any(failed.values())
    print(f"{'ok  ' if ok else 'FAIL'} {name}: loaded in {load:.2f} s, {detail}, "
          f"{len(text)} characters of text" + (f", screenshot {shot} ({len(png)} bytes)" if shot else ""))
    for c in console[:5]:
        print(f"     console: {c.get('message', '')[:200]}")
    for r in requests[:5]:
        print(f"     request: {r}")
    for m in missing[:10]:
        print(f"     missing text: {m!r}")
    return ok


def parse(argv):
    pages, cur = [], None
    i = 0
    def new():
        return {"expect": [], "shot": None, "width": 1280, "max_height": 16000, "fail": None, "page": None}
    cur = new()
    while i < len(argv):
        a = argv[i]
        if a == "--":
            pages.append(cur); cur = new()
        elif a == "--expect":
            i += 1; cur["expect"].append(argv[i])
        elif a == "--expect-file":         # one expected text per line
            i += 1; cur["expect"] += [l.rstrip("\n") for l in open(argv[i]) if l.strip()]
        elif a == "--screenshot":
            i += 1; cur["shot"] = argv[i]
        elif a == "--width":
            i += 1; cur["width"] = int(argv[i])
        elif a == "--max-height":
            i += 1; cur["max_height"] = int(argv[i])
        elif a == "--expect-fail":
            i += 1; cur["fail"] = argv[i]
        else:
            cur["page"] = a
        i += 1
    pages.append(cur)
    return [p for p in pages if p["page"]]


def session_error(e):
    """Why chromedriver gave no session: its own message (the W3C error body
    of an HTTP error, every line of it: the first is only "session not
    created"), else the connection's reason."""
    if isinstance(e, urllib.error.HTTPError):
        try:
            v = json.loads(e.read())["value"]
            lines = [l.strip() for l in v.get("message", "").strip().splitlines() if l.strip()]
            return f'{v.get("error", e.code)}: {" | ".join(lines[:4])}'
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            return f"HTTP {e.code} {e.reason}"
    return str(getattr(e, "reason", None) or e)


def log_tail(log, n=12):
    """The lines of chromedriver's log that say why Chromium did not start."""
    try:
        lines = open(log, errors="replace").read().splitlines()
    except OSError:
        return []
    keep = [l for l in lines if l.startswith("[") and
            any(w in l for w in ("SEVERE", "WARNING", "Launching", "exited", "DevTools", "ERROR",
                                 "failed"))]
    return [l[:300] for l in keep[-n:]]


def main():
    pages = parse(sys.argv[1:])
    logdir = tempfile.mkdtemp(prefix="bt-chromedriver-")
    log = os.path.join(logdir, "chromedriver.log")
    try:
        d = Driver(log)
    except (OSError, ValueError, KeyError) as e:
        # (urllib's errors are OSErrors.) Exit 3: no page was checked.
        print(f"FAIL chromedriver could not start a headless Chromium session: {session_error(e)}")
        Driver.stop_started()
        for l in log_tail(log):
            print(f"     chromedriver log: {l}")
        shutil.rmtree(logdir, ignore_errors=True)
        sys.exit(3)
    shutil.rmtree(logdir, ignore_errors=True)
    ok = True
    try:
        for p in pages:
            ok &= check_page(d, p["page"], p["expect"], p["shot"], p["width"], p["max_height"], p["fail"])
    finally:
        d.quit()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

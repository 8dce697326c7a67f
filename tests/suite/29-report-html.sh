#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~9s
# The HTML report (`baretop-host report --html`, analysis/page-html.c) in a
# real browser: headless Chromium driven through chromedriver's W3C HTTP
# API (tests/suite/lib/check-html-chromium.py, Python standard library).
# Where "localhost" does not resolve (a minimal root without the hosts file:
# chromedriver's DevTools client then fails with "session not created: from
# disconnected: unable to connect to renderer"), the checker starts Chromium
# itself with its DevTools on 127.0.0.1 and chromedriver attaches to it;
# the last pass here takes that way on purpose (BT_CHROMIUM_ATTACH=1).
# Two simulated runs (SKL: four workloads; Zen 4: two, whose level-1 nodes
# are spelled in lower case) make one page. Checked: it loads with no
# console error and no network request but its own file:// URL, a
# screenshot of its top 3000 px is taken (build/report-html/report.png), and the rendered DOM
# text holds every workload, every level-1 node of every workload, the
# SIMULATED banner and each file's model and TMA version. Negative cases
# prove each check can fail: the page with an external
# <script src=http://...> (with its CSP: the browser logs the blocked load;
# without it: a network request), with a console.error() (no CSP), and
# without its banner text. Also: hostile workload names and parameters
# (<script>, quotes, &) stay text (a results file edited to hold them).
set -uo pipefail
make -s -j2 host >/dev/null || { echo "FAIL build"; exit 1; }
for b in /usr/bin/chromium /usr/bin/chromedriver; do
  [ -x "$b" ] || { echo "FAIL $b missing (tools/setup.sh installs chromium and chromium-driver)"; exit 1; }
done
bin=build/baretop-host
out=build/report-html
rm -rf "$out" && mkdir -p "$out"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail=0
"$bin" run --sim=skl --quick -w multiply1 -w ptr-chase-dram -w branch-mispredict -w div-chain \
  --results-dir "$w/skl" -q >/dev/null 2>&1 || { echo "FAIL skl run"; exit 1; }
"$bin" run --sim=zen4 --quick -w multiply2 -w code-footprint --results-dir "$w/zen4" -q >/dev/null 2>&1 ||
  { echo "FAIL zen4 run"; exit 1; }
skl=$w/skl/000001.json zen=$w/zen4/000001.json
"$bin" report "$skl" "$zen" --html "$out/report.html" || { echo "FAIL report --html"; exit 1; }

# what the DOM must show, from the results files themselves
python3 - "$skl" "$zen" >"$w/expect.txt" <<'PY'
import json, sys, re
out = {"SIMULATED \u2014 not measured on hardware"}
for f in sys.argv[1:]:
    d = json.load(open(f))
    out.add(d["run"]["counting"]["model"])
    out.add("TMA version " + re.search(r"TmaVersion (\S+)", d["run"]["counting"]["model_source"]).group(1)
            if "TmaVersion" in d["run"]["counting"]["model_source"] else d["run"]["counting"]["model"])
    for wl in d["run"]["workloads"]:
        out.add(wl["name"])
        for n, nd in wl["counted"]["tree"]["nodes"].items():
            if nd["kind"] == "tree" and nd["level"] == 1:
                out.add(n)
print("\n".join(sorted(out)))
PY
echo "     expected in the DOM: $(tr '\n' ' ' <"$w/expect.txt")"

# negative pages, made from the good one
python3 - "$out/report.html" "$w" <<'PY'
import sys
page, w = sys.argv[1], sys.argv[2]
html = open(page).read()
csp = html[html.index('<meta http-equiv="Content-Security-Policy"'):]
csp = csp[:csp.index(">") + 1]
ext = '<script src="http://127.0.0.1:65000/evil.js"></script>'
open(f"{w}/ext-csp.html", "w").write(html.replace("</body>", ext + "</body>"))
open(f"{w}/ext-nocsp.html", "w").write(html.replace(csp, "").replace("</body>", ext + "</body>"))
open(f"{w}/console.html", "w").write(html.replace(csp, "").replace("</body>", "<script>console.error('boom')</script></body>"))
open(f"{w}/nobanner.html", "w").write(html.replace("SIMULATED &mdash; not measured", "not measured"))
PY

# hostile names: a results file whose workload name and parameters hold markup
python3 - "$skl" "$w/hostile.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wl = d["run"]["workloads"][0]
wl["name"] = "<script>alert(1)</script>&\"x'"
wl["params"] = "<img src=x onerror=alert(2)> a&b \"q\""
json.dump(d, open(sys.argv[2], "w"))
PY
"$bin" report "$w/hostile.json" --html "$w/hostile.html" || { echo "FAIL report of hostile names"; fail=1; }
if grep -q "<script>alert\|<img src=x" "$w/hostile.html"; then
  echo "FAIL hostile names reached the page unescaped"; fail=1
else
  echo "ok   hostile names escaped in the page source (no <script>alert, no <img src=x)"
fi

# one browser session for every page: the report, the negative pages, the hostile names
python3 tests/suite/lib/check-html-chromium.py \
  --expect-file "$w/expect.txt" --screenshot "$out/report.png" --max-height 3000 "$out/report.html" -- \
  --expect-fail console "$w/ext-csp.html" -- \
  --expect-fail network "$w/ext-nocsp.html" -- \
  --expect-fail console "$w/console.html" -- \
  --expect-fail text --expect-file "$w/expect.txt" "$w/nobanner.html" -- \
  --expect "<script>alert(1)</script>&\"x'" --expect "<img src=x onerror=alert(2)> a&b \"q\"" \
  "$w/hostile.html"
rc=$?
# 3: no browser session (the checker said why in one line): nothing else to check
[ "$rc" -eq 3 ] && exit 1
[ "$rc" -eq 0 ] || fail=1
# the way taken where "localhost" does not resolve (a minimal root): the
# checker starts Chromium with DevTools on 127.0.0.1, chromedriver attaches
BT_CHROMIUM_ATTACH=1 python3 tests/suite/lib/check-html-chromium.py \
  --expect-file "$w/expect.txt" "$out/report.html" -- \
  --expect-fail network "$w/ext-nocsp.html" -- \
  --expect-fail console "$w/console.html" | sed 's/^\(ok  \|FAIL\) /\1 (attached by 127.0.0.1) /' || fail=1
[ -s "$out/report.png" ] && head -c 8 "$out/report.png" | od -An -tx1 | grep -q "89 50 4e 47" &&
  echo "ok   screenshot $out/report.png is a PNG of $(stat -c %s "$out/report.png") bytes" ||
  { echo "FAIL no PNG screenshot"; fail=1; }
exit $fail

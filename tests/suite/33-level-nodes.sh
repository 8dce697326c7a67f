#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~3s
# Nodes not measured are not "missing" (report/tree-text.c, tree-json.c,
# analysis/page-common.c): with --level 3 (and with drill-down), the
# nodes below what was measured (every node deeper than level 3) have the
# state "not_measured" in the results file, the console lists none of them and none as "missing", its
# footer counts them ("N deeper nodes not measured: below level 3 ..."), and
# the console, `report` (text) and `report --html` list the same nodes,
# those of the results file that are not "not_measured". The HTML
# workload x node table shows a measured node without a value as "n/a"
# (division by zero) or "missing", never as the "not measured" dash: a
# results file edited to make one node n/a must show "n/a" in its cell.
set -uo pipefail
make -s -j2 host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail=0
for mode in level3 drill; do
  extra=""; [ $mode = level3 ] && extra="--level 3"
  # shellcheck disable=SC2086
  "$bin" run --sim=skl --quick -w ptr-chase-dram --reps 1 --warmups 0 $extra \
    --results-dir "$w/$mode" >"$w/$mode.out" 2>&1 || { echo "FAIL $mode run"; fail=1; continue; }
  f=$(ls "$w/$mode"/*.json | tail -1)
  "$bin" report "$f" >"$w/$mode.txt" 2>&1 || { echo "FAIL $mode report"; fail=1; }
  "$bin" report "$f" --html "$w/$mode.html" >/dev/null 2>&1 || { echo "FAIL $mode report --html"; fail=1; }
  python3 - "$mode" "$f" "$w/$mode.out" "$w/$mode.txt" "$w/$mode.html" <<'PY' || fail=1
import html.parser, json, re, sys
mode, res, con, txt, htm = sys.argv[1:6]
c = json.load(open(res))["run"]["workloads"][0]["counted"]
nodes = c["tree"]["nodes"]
tree = {n: v for n, v in nodes.items() if v["kind"] == "tree"}
unmeasured = {n for n, v in tree.items() if v["state"] == "not_measured"}
listed = set(tree) - unmeasured
fail = []
if mode == "level3":
    deep = {n for n, v in tree.items() if v["level"] > 3}
    if unmeasured != deep:
        fail.append(f"not_measured {len(unmeasured)} nodes, deeper than level 3 {len(deep)}")
    if not unmeasured or any(tree[n]["level"] <= 3 for n in unmeasured):
        fail.append("no node, or a node at level <= 3, is not_measured")
    if "--level 3" not in c["tree"].get("not_measured", ""):
        fail.append(f"the tree does not say why: {c['tree'].get('not_measured')!r}")
else:
    if not unmeasured:
        fail.append("drill-down left no node not_measured")
# the console: the rows between the tree header and its legend
out = open(con).read()
body = out[out.index("  level node"):out.index("* = flagged")]
rows = re.findall(r"^  \d+\s+(\S+)(?:\s+(\S+))?", body, re.M)
cnodes = {r[0] for r in rows}
if any(r[1] == "missing" for r in rows if r[0] in unmeasured) or cnodes & unmeasured:
    fail.append(f"the console lists not-measured nodes: {sorted(cnodes & unmeasured)[:4]}")
m = re.search(r"\n(\d+) deeper nodes not measured: (.*)", out)
if not m or int(m.group(1)) != len(unmeasured):
    fail.append(f"console footer {m.group(0) if m else None!r}, want {len(unmeasured)} nodes")
if mode == "level3" and m and "below level 3" not in m.group(2):
    fail.append(f"the footer does not say the level: {m.group(2)!r}")
if cnodes != listed:
    fail.append(f"console nodes differ from the results file's measured ones: "
                f"{sorted(cnodes ^ listed)[:4]}")
# `report` text: the same set
t = open(txt).read()
tbody = t[t.index("  tree ("):t.index("  bottleneck path:")]
tnodes = set(re.findall(r"^  \d+\s+(\S+)", tbody, re.M))
if tnodes != cnodes:
    fail.append(f"report text nodes differ from the console's: {sorted(tnodes ^ cnodes)[:4]}")
# the HTML tree table: the first cell of its rows (class "nm")
class P(html.parser.HTMLParser):
    def __init__(s):
        super().__init__(); s.tt = False; s.nm = False; s.names = []
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "table": s.tt = a.get("class") == "tt"
        if tag == "td" and s.tt and a.get("class") == "nm": s.nm = True; s.names.append("")
    def handle_endtag(s, tag):
        if tag == "td": s.nm = False
        if tag == "table": s.tt = False
    def handle_data(s, d):
        if s.nm: s.names[-1] += d
p = P(); p.feed(open(htm).read())
hnodes = {n.strip() for n in p.names}
if hnodes != cnodes:
    fail.append(f"HTML nodes differ from the console's: {sorted(hnodes ^ cnodes)[:4]}")
if fail:
    print(f"FAIL {mode}:"); [print("    " + x) for x in fail]; sys.exit(1)
print(f"ok   {mode}: console, report text and HTML list the same {len(cnodes)} nodes; "
      f"{len(unmeasured)} not measured, none called missing")
PY
done

# A measured node whose value is n/a (division by zero) is "n/a" in the
# HTML workload x node table (two files: the table needs two workloads), not
# the "not measured" dash.
f=$(ls "$w/level3"/*.json | tail -1)
python3 - "$f" "$w/na.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
n = d["run"]["workloads"][0]["counted"]["tree"]["nodes"]["Divider"]
n["value"] = None; n["raw"] = None; n["state"] = "invalid"; n.pop("cpi_share", None)
json.dump(d, open(sys.argv[2], "w"))
PY
"$bin" report "$w/na.json" "$f" --html "$w/na.html" >/dev/null 2>&1 || { echo "FAIL report --html of the edited file"; fail=1; }
python3 - "$w/na.html" <<'PY' || fail=1
import re, sys
h = open(sys.argv[1]).read()
heat = h[h.index('class="heat"'):]
row = re.search(r'>Divider</td>(.*?)</tr>', heat, re.S)
if not row or ">n/a<" not in row.group(1):
    print(f"FAIL the n/a node's heat cell: {row.group(1) if row else None!r}"); sys.exit(1)
if "n/a: measured, a division by zero" not in h:
    print("FAIL the heat legend does not say what n/a is"); sys.exit(1)
print("ok   a measured n/a node is n/a in the HTML table, the legend says so")
PY
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~2s
# `baretop-host diff` (analysis/results-diff.h) flags exactly what changed.
# A: one simulated SKL run of three workloads (--level 4). B: A with one
# workload's DRAM stall count (CYCLE_ACTIVITY.STALLS_L3_MISS, the event
# Intel's DRAM_Bound formula adds) scaled by 0.6, its tree evaluated again
# from the edited counts by `replay` (tests/suite/lib/edit-results.py).
# The expected set of affected nodes comes from Intel's own file
# (../shared/reference/intel/SKL/metrics/skylake_metrics.json): the tree
# nodes whose "Events" list that event. Checks:
#   - diff A B: exit 1, every node beyond the spread is in the edited
#     workload, and the set equals the expected set (DRAM_Bound among them);
#     rows sorted by |B - A|;
#   - diff A A and diff A B0 (B0: the same splice without the edit): exit 0,
#     nothing flagged (the negative cases);
#   - with every event's min/max widened to +-5 % of its median (run-to-run
#     noise) and a 1 % edit, the changed nodes are "within spread", none beyond;
#   - report --diff writes the diff into text, CSV and the HTML page;
#   - --level 2 against --level 3: no nan, the reason "not selected".
set -uo pipefail
make -s -j2 host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
lib=tests/suite/lib
ref=${BT_SHARED:-../shared}/reference/intel/SKL/metrics/skylake_metrics.json
if [ ! -f "$ref" ]; then
  # Without ../shared: the names of the metrics that list the event, copied
  # from the same file (a subset: only that event's metrics).
  ref=tests/data/report-diff/skl-stalls-l3-miss-metrics.json
  echo "note: ../shared is absent: the expected node set comes from $ref"
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail=0
ev=CYCLE_ACTIVITY.STALLS_L3_MISS
wl=ptr-chase-dram
"$bin" run --sim=skl --quick -w multiply1 -w $wl -w branch-mispredict --level 4 --results-dir "$w/a" -q \
  >/dev/null 2>&1 || { echo "FAIL run"; exit 1; }
A=$w/a/000001.json
mkdir -p "$w/c"
"$bin" counts "$A" --out-dir "$w/c" >/dev/null || { echo "FAIL counts"; exit 1; }
cf=$(ls "$w"/c/*-$wl-cpu*.json)
python3 $lib/edit-counts.py "$cf" "$w/edited.json" "$ev=0.6"
python3 $lib/edit-counts.py "$cf" "$w/edited1.json" "$ev=0.99"
"$bin" replay "$w/edited.json" --json >"$w/tree.json" || { echo "FAIL replay"; exit 1; }
"$bin" replay "$w/edited1.json" --json >"$w/tree1.json" || { echo "FAIL replay"; exit 1; }
"$bin" replay "$cf" --json >"$w/tree0.json" || { echo "FAIL replay"; exit 1; }
python3 $lib/edit-results.py "$A" "$w/B.json" $wl "$w/tree.json" "$ev=0.6" &&
python3 $lib/edit-results.py "$A" "$w/B0.json" $wl "$w/tree0.json" &&
python3 $lib/edit-results.py "$A" "$w/Aw.json" $wl - --widen 0.05 &&
python3 $lib/edit-results.py "$A" "$w/Bw.json" $wl "$w/tree1.json" "$ev=0.99" --widen 0.05 ||
  { echo "FAIL making B"; exit 1; }

# name expected_exit A B
run_diff() {
  "$bin" diff "$3" "$4" --csv "$w/$1.csv" --text="$w/$1.txt"
  local rc=$?
  [ $rc -eq "$2" ] || { echo "FAIL diff $1: exit $rc, expected $2"; fail=1; }
}
run_diff same 0 "$A" "$A"
run_diff splice 0 "$A" "$w/B0.json"
run_diff dram 1 "$A" "$w/B.json"
run_diff noise 0 "$w/Aw.json" "$w/Bw.json"

python3 - "$w" "$ref" "$A" "$wl" "$ev" <<'PY' || fail=1
import csv, json, sys
w, ref, A, wl, ev = sys.argv[1:]
bad = 0
def rows(name):
    return list(csv.DictReader(open(f"{w}/{name}.csv")))
def beyond(name):
    return [r for r in rows(name) if r["verdict"] == "beyond spread"]
for name in ("same", "splice"):
    b = beyond(name)
    changed = [r for r in rows(name) if r["verdict"] not in ("same", "in neither")]
    if b or changed:
        print(f"FAIL diff {name}: {len(b)} beyond, {len(changed)} not the same (expected none)"); bad = 1
    else:
        print(f"ok   diff {name}: {len(rows(name))} node rows, none beyond the spread, none different")
# the expected nodes, from Intel's file: tree nodes whose events include ev
vendor = {m["MetricName"]: m for m in json.load(open(ref))["Metrics"]}
doc = json.load(open(A))
tree = next(x for x in doc["run"]["workloads"] if x["name"] == wl)["counted"]["tree"]["nodes"]
expected = {n for n, nd in tree.items() if nd["kind"] == "tree" and nd["value"] is not None
            and any(e["Name"] == ev for e in vendor.get(n, {}).get("Events", []))}
b = beyond("dram")
got = {r["node"] for r in b}
others = {r["workload"] for r in b} - {wl}
if others or got != expected or "DRAM_Bound" not in got:
    print(f"FAIL diff dram: beyond spread {sorted(got)} in {sorted({r['workload'] for r in b})}, "
          f"expected {sorted(expected)} in {wl} only"); bad = 1
else:
    d = next(float(r["difference"]) for r in b if r["node"] == "DRAM_Bound")
    print(f"ok   diff dram: {ev} x0.6 in {wl} -> exactly {len(got)} nodes beyond the spread, "
          f"all in {wl}: {', '.join(sorted(got))} (the tree nodes whose events list {ev} in "
          f"skylake_metrics.json); DRAM_Bound {d*100:+.2f} %")
    if d >= 0:
        print("FAIL DRAM_Bound should fall with fewer DRAM stall cycles"); bad = 1
r = rows("dram")
mags = [abs(float(x["difference"])) for x in r if x["difference"]]
if mags != sorted(mags, reverse=True):
    print("FAIL diff rows not sorted by |B - A|"); bad = 1
nb, nr = beyond("noise"), rows("noise")
within = {x["node"] for x in nr if x["verdict"] == "within spread"}
if nb or "DRAM_Bound" not in within:
    print(f"FAIL diff noise: {len(nb)} beyond, within {sorted(within)}"); bad = 1
else:
    print(f"ok   diff noise: event spread +-5 %, {ev} x0.99 -> {len(within)} nodes within the spread "
          f"({', '.join(sorted(within))}), none beyond")
sys.exit(bad)
PY

# the same diff in the report's formats
"$bin" report --diff "$A" "$w/B.json" --text="$w/r.txt" --csv "$w/r.csv" --html "$w/r.html" ||
  { echo "FAIL report --diff"; fail=1; }
if grep -q "DRAM_Bound .*beyond spread" "$w/r.txt" && grep -q "^$wl,DRAM_Bound,.*beyond spread" "$w/r.csv" &&
   grep -q "b-beyond" "$w/r.html" && grep -q "2 node(s) beyond the run-to-run spread" "$w/r.html"; then
  echo "ok   report --diff: the diff in text, CSV and HTML (with both files' reports)"
else
  echo "FAIL report --diff output"; fail=1
fi
# --level 2 against --level 3: the level-3 nodes are only in B; A has no
# value or spread for them (printed "-", never nan), and A's reason is that
# they were not selected, not a retire latency SKL's formulas never read.
"$bin" run --sim=skl --quick -w multiply1:n=64 --level 2 --results-dir "$w/l2" >/dev/null 2>&1
"$bin" run --sim=skl --quick -w multiply1:n=64 --level 3 --results-dir "$w/l3" >/dev/null 2>&1
"$bin" diff "$w"/l2/*.json "$w"/l3/*.json >"$w/l23.out" 2>&1
rc=$?
nb=$(grep -c 'only in B (A: not measured (not selected: --level N or drill-down))' "$w/l23.out")
if [ "$rc" -eq 0 ] && [ "$nb" -gt 0 ] && ! grep -qi 'nan' "$w/l23.out" && ! grep -q 'no retire latency' "$w/l23.out"; then
  echo "ok   diff --level 2 vs 3: $nb node(s) only in B, A's spread '-', not selected (no nan, no retire latency)"
else
  echo "FAIL diff --level 2 vs 3: exit $rc, $nb only in B: $(grep -m1 -i 'nan\|retire latency' "$w/l23.out")"; fail=1
fi
exit $fail

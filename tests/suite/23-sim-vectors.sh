#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~56s
# Every oracle vector (../shared/testdata/tma/*/NNN.json) counted through the
# whole pipeline with the SIMULATED PMU of its model's microarchitecture:
# events planned into counter groups, programmed into the simulated
# registers, counted in windows around a workload, read back (PERF_METRICS
# through its 8-bit fields), evaluated. Each case must reproduce the
# expected tree within 1e-9, or baretop must have said why it cannot: the
# vector holds something no PMU can produce (two events with one encoding
# and different counts, a PERF_METRICS count that no 8-bit field gives),
# naming an event that is an input of every node that differs.
# Each results file also goes through `baretop-host counts` and `replay`:
# the count file written from it must give back the very tree baretop
# computed (every value and flag identical).
set -uo pipefail
shared=${BT_SHARED_TESTDATA:-../shared/testdata}
[ -d "$shared/tma" ] || { echo "skip: $shared/tma is absent (the QEMU step checks the project's own subset)"; exit 77; }  # 77: skipped
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ls "$shared"/tma/*/[0-9]*.json >"$work/case-list"
run_case() {
  case=$1; work=$2
  m=$(basename "$(dirname "$case")"); b=$(basename "$case" .json)
  mkdir -p "$work/cases/$m" "$work/out/$m"
  cp "$case" "$work/cases/$m/"
  ./build/baretop-host run -w alu-independent --quick --reps 1 --warmups 0 --sim --counts "$case" \
    --level 6 --results-dir "$work/res/$m-$b" >"$work/res-$m-$b.log" 2>&1
  ./build/baretop-host counts "$work/res/$m-$b/000001.json" --out-dir "$work/res/$m-$b" \
    >"$work/res/$m-$b/counts.list" 2>&1 &&
  ./build/baretop-host replay "$(head -1 "$work/res/$m-$b/counts.list")" --json \
    >"$work/res/$m-$b/replayed.json" 2>&1
}
export -f run_case
xargs -P "$(nproc)" -I{} bash -c 'run_case "$1" "$2"' _ {} "$work" <"$work/case-list"
# One python for every case (a python start per case cost minutes where
# python3 is a pyenv shim): the results file's tree against the replayed one.
python3 - "$work" <<'PY'
import json, math, os, sys
work = sys.argv[1]
for line in open(f"{work}/case-list"):
    case = line.strip()
    m = os.path.basename(os.path.dirname(case)); b = os.path.basename(case)[:-5]
    if not os.path.exists(f"{work}/res/{m}-{b}/000001.json"):
        open(f"{work}/failed", "a").write(f"{m}/{b}: no results file\n"); continue
    r = json.load(open(f"{work}/res/{m}-{b}/000001.json"))
    assert r["simulated"] is True
    w = r["run"]["workloads"][0]
    if "counted" not in w:
        open(f"{work}/failed", "a").write(f"{m}/{b}: not counted: {w.get('reason')}\n"); continue
    t = w["counted"]["tree"]
    try:
        rp = json.load(open(f"{work}/res/{m}-{b}/replayed.json"))
    except ValueError:
        rp = {"values": {}, "thresh": {}}
    same = lambda x, y: x == y or (x is None and y is None)
    # A node not measured for want of a retire latency has no value in the
    # results file (state not_measured); the replay of its counts must say
    # the same, and gives in its "values" the number of the vectors'
    # definition (perf's -1 for the latency), which check.py compares below.
    nm = {k for k, n in t["nodes"].items() if n.get("state") == "not_measured"}
    rpn = rp.get("nodes", {})
    diff = [k for k in nm if rpn.get(k, {}).get("state") != "not_measured"]
    diff += [k for k in t["values"] if k not in nm and not same(t["values"][k], rp["values"].get(k, "absent"))]
    diff += [k for k in t["thresh"] if k not in nm and t["thresh"][k] != rp["thresh"].get(k, "absent")]
    if diff or len(rp["values"]) != len(t["values"]):
        open(f"{work}/failed", "a").write(f"{m}/{b}: counts -> replay differs from the results file's "
                                          f"tree at {diff[:5]} ({len(rp['values'])} values)\n")
    else:
        open(f"{work}/roundtrip", "a").write(f"{m}/{b} {len(t['values'])}\n")
    vals = {k: rp["values"].get(k) if k in nm else v for k, v in t["values"].items()}
    ths = {k: rp["thresh"].get(k) if k in nm else v for k, v in t["thresh"].items()}
    json.dump({"values": vals, "thresh": ths}, open(f"{work}/out/{m}/{b}.json", "w"))
    if r["run"]["counting"]["notes"] or w["counted"]["notes"]:
        open(f"{work}/noted", "a").write(f"{m}/{b}.json\n")
PY
[ -f "$work/failed" ] && { echo "FAIL"; cat "$work/failed"; exit 1; }
python3 "$shared/check.py" "$work/cases" "$work/out" --require-all --max-report 100000 \
  --json "$work/check.json" >"$work/check.txt" 2>&1
# check.py passes a node where Intel's native file and pmu-tools disagree with
# either value; a node baretop corrects (models --corrections) that matches
# neither (pmu-tools' own 0 for a division by zero) must equal Linux perf's
# form (tests/oracle/second_form.py): only the mismatches left count below.
ref_dir=${BT_SHARED_REFERENCE:-${shared%/testdata}/reference}
if [ -d "$ref_dir/intel" ] && grep -q '^MISMATCH' "$work/check.txt"; then
  python3 tests/oracle/second_form.py --ref "$ref_dir" --host build/baretop-host --cases "$work/cases" \
    --report "$work/check.json" >"$work/second.txt" || true
  grep '^second form' "$work/second.txt" || true
  { grep '^MISMATCH' "$work/second.txt" || true; grep -v '^MISMATCH' "$work/check.txt"; } >"$work/check2.txt"
  mv "$work/check2.txt" "$work/check.txt"
fi
grep MISMATCH "$work/check.txt" | awk '{print $2}' | sort -u >"$work/mismatched"
sort -u "$work/noted" 2>/dev/null >"$work/noted.sorted" || : >"$work/noted.sorted"
unexplained=$(comm -23 "$work/mismatched" "$work/noted.sorted")
total=$(wc -l <"$work/case-list"); mism=$(wc -l <"$work/mismatched"); noted=$(wc -l <"$work/noted.sorted")
tail -1 "$work/check.txt"
# The comparison must have covered every case and many nodes, or it proves nothing.
checked=$(grep -o 'cases=[0-9]*' "$work/check.txt" | cut -d= -f2)
nodes=$(grep -o 'nodes_checked=[0-9]*' "$work/check.txt" | cut -d= -f2)
if [ "${checked:-0}" -ne "$total" ] || [ "${nodes:-0}" -lt $((total * 10)) ]; then
  echo "FAIL: only ${checked:-0} of $total cases (${nodes:-0} nodes) were compared"; exit 1
fi
echo "$total vectors through the simulated PMU: $((total - mism)) reproduce the expected tree exactly;" \
     "$mism differ, each reported by baretop as physically impossible input ($noted vectors carry such a note)"
if [ -n "$unexplained" ]; then
  echo "FAIL: mismatches baretop did not explain:"; echo "$unexplained"
  grep -F -f <(echo "$unexplained") "$work/check.txt" | head -20
  exit 1
fi
echo "ok   no vector differs without baretop saying why"
rt=$(wc -l <"$work/roundtrip"); rtv=$(awk '{n += $2} END {print n}' "$work/roundtrip")
[ "$rt" -eq "$total" ] || { echo "FAIL: only $rt of $total results files went through counts -> replay"; exit 1; }
echo "ok   $rt results files -> baretop-host counts -> replay: the same $rtv node values and flags"
# Finer: each mismatching node must have a noted event among its inputs.
reference=${BT_SHARED_REFERENCE:-${shared%/testdata}/reference}
if [ -d "$reference/intel" ]; then
  python3 tests/suite/lib/explained-mismatches.py "$work/check.txt" "$work/res" "$shared/tma" "$reference" \
    || { echo "FAIL: a mismatching node has no noted input"; exit 1; }
  echo "ok   every mismatching node has an input that baretop's notes name"
else
  echo "skip: $reference is absent: the per-node check of the notes needs the perfmon metric files"
fi

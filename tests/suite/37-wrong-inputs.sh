#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~6s
# A run that did not do what was asked is not a success: every wrong input
# (an event, node, kernel or count name that does not exist, a model the
# PMU cannot count, a defect that cannot apply, an empty plan, a spec entry
# that cannot run as written) is a usage or spec error, status 2, naming the
# input and, where a near name exists, "did you mean"; a run that measured
# nothing exits non-zero. Each case is a command an expert typed and got
# status 0 from. Uses the project's own files plus ../shared's vendor files
# for the --model-files cases (those are skipped without it).
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
res="--results-dir $work/res"
expect() { # expect STATUS PATTERN CMD...: exit status and a line of stderr (or stdout)
  local want=$1 pat=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"; local rc=$?
  if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$work/err" "$work/out"; then
    echo "ok   ${*:2}: status $rc, \"$(grep -h -m1 -- "$pat" "$work/err" "$work/out" | head -1 | cut -c1-200)\""
  else
    echo "FAIL ${*:2}: status $rc (want $want, '$pat'), stderr: $(head -2 "$work/err")"; fail=1
  fi
}

# --sim-miscount naming no event of the model: before, "timed only" and status 0.
expect 2 "did you mean 'CYCLE_ACTIVITY.STALLS_L2_MISS'?" \
  "$bin" run --sim=skl -w ptr-chase-l2 --quick $res \
  --sim-miscount CYCLE_ACTIVITY.STALS_L2_MISS:scale=0.6
expect 2 "did you mean 'CYCLE_ACTIVITY.STALLS_TOTAL'? (names are case-sensitive)" \
  "$bin" run --sim=skl -w ptr-chase-l2 --quick $res \
  --sim-miscount CYCLE_ACTIVITY.STALLS_L2_MISS:swap=cycle_activity.stalls_total
# The correct name still runs and is named.
expect 0 "miscounts on purpose" "$bin" run --sim=skl -w ptr-chase-l2 --quick $res \
  --sim-miscount CYCLE_ACTIVITY.STALLS_L2_MISS:scale=0.6

# A model of the other vendor: before, every node missing and status 0.
expect 2 "--model SKL is a model of GenuineIntel parts, but the simulated PMU .* is AMD's" \
  "$bin" run --sim=zen4 --quick -w ptr-chase-l2 --model SKL $res
expect 2 "--model ZEN4 is a model of AuthenticAMD parts, but the simulated PMU .* is Intel's" \
  "$bin" run --sim=skl --quick -w ptr-chase-l2 --model ZEN4 $res
# ... and of the other vendor than this machine's CPU, without --sim: before,
# a run timed and exit 0 where no PMU was exposed, as if the model applied.
if grep -q -m1 'AuthenticAMD\|HygonGenuine' /proc/cpuinfo; then other=SKL own=AuthenticAMD; else other=ZEN4 own=GenuineIntel; fi
grep -q -m1 "$own\|HygonGenuine" /proc/cpuinfo && expect 2 "--model $other is a model of .* parts, but this CPU is .* (CPUID)" \
  "$bin" run --quick -w multiply1:n=64 --model "$other" $res

# Defects that cannot apply: before, 0 FAIL and status 0.
expect 2 "stuck-counter:7 cannot apply: the simulated skl PMU has 4 general counters" \
  "$bin" validate --sim=skl -q $res --sim-defect=stuck-counter:7
expect 2 "pm-sticky cannot apply: the simulated skl PMU has no PERF_METRICS" \
  "$bin" validate --sim=skl -q $res --sim-defect=pm-sticky
expect 2 "stuck-counter:7 cannot apply" \
  "$bin" run --sim=skl -q -w ptr-chase-l2 $res --sim-defect=stuck-counter:7
# An injected defect is named in the validation header, saved and shown again.
"$bin" validate --sim=skl -q $res --sim-defect=stuck-counter:1 >"$work/v.log" 2>&1
vres=$(awk '/^results/ {print $2}' "$work/v.log")
"$bin" show-validation "$vres" >"$work/show.log" 2>&1 # status 1: a check failed
if grep -q "^  injected defects: stuck-counter:1" "$work/v.log" && [ -f "$vres" ] &&
   grep -q "^  injected defects: stuck-counter:1" "$work/show.log" &&
   grep -q '"injected_defects": *"stuck-counter:1"' "$vres"; then
  echo "ok   validate --sim-defect=stuck-counter:1: the defect named in the header, the results and show-validation"
else
  echo "FAIL validate --sim-defect: the injected defect is not named everywhere"; head -12 "$work/v.log"; fail=1
fi

# --model-files: another generation's files, and a metrics file without one
# Top-Down node (needs ../shared's vendor files).
ref=../shared/reference/intel
if [ -d "$ref/GNR" ] && [ -d "$ref/SKL" ]; then
  expect 2 "its level-1 nodes need PERF_METRICS" "$bin" run --sim=skl --quick -w ptr-chase-l2 $res \
    --model-files "$ref/GNR/metrics/graniterapids_metrics.json,$ref/GNR/events/graniterapids_core.json"
  python3 - "$ref/SKL/metrics/skylake_metrics.json" "$work/no-tma.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["Metrics"] = [m for m in j["Metrics"] if m["MetricName"].startswith("Info_") and "Bound" not in m["Formula"]]
json.dump(j, open(sys.argv[2], "w"))
PY
  # A metrics file without one Top-Down metric is no empty success: its
  # metrics stay as Info and the tree comes from the CPU's own model (SKL
  # here), said on the console; with no model to take it from, status 2
  # (44-sim-cpuid covers that case).
  expect 0 "has no Top-Down metric: its 97 metrics kept as Info" "$bin" run --sim=skl --quick -w ptr-chase-l2 $res \
    --model-files "$work/no-tma.json,$ref/SKL/events/skylake_core.json"
  # The header names the file that was loaded, not the built-in model whose
  # settings it borrows.
  expect 0 "model FILES (loaded from skylake_metrics.json)" "$bin" run --sim=skl --quick -w ptr-chase-l2 $res \
    --model-files "$ref/SKL/metrics/skylake_metrics.json,$ref/SKL/events/skylake_core.json"
else
  echo "ok   --model-files cases skipped: no ../shared vendor files"
fi

# fleet --node that names no node (or in the wrong case): before, an empty
# table, "0 machines stand out" and status 0.
python3 tests/suite/lib/gen-small-fleet.py "$bin" "$work/fp" params || { echo "FAIL gen-small-fleet"; exit 1; }
python3 tests/suite/lib/gen-small-fleet.py "$bin" "$work/fz" mad0 || { echo "FAIL gen-small-fleet"; exit 1; }
expect 2 "no Top-Down node of that name in the database" "$bin" fleet "$work/fz" --db "$work/fz.db" --node NoSuchNode
expect 2 "did you mean 'Backend_Bound'? (names are case-sensitive)" "$bin" fleet --db "$work/fz.db" --node backend_bound
expect 1 "1 machine stands out" "$bin" fleet --db "$work/fz.db" --node Backend_Bound
# A MAD of 0 is said as such, and the outlier's distance is its difference
# from the median, not a number of MADs (values from the generator: 10 %
# below an equal fleet).
python3 - "$work/out" "$work/fz/m0/000001.json" <<'PY' || fail=1
import json, re, sys
out = open(sys.argv[1]).read()
med = json.load(open(sys.argv[2]))["run"]["workloads"][0]["counted"]["tree"]["nodes"]["Backend_Bound"]["value"]
m = re.search(r"Backend_Bound \(SIMULATED\): 8 machines, median \S+, MAD 0 \(no spread\), 1 stands out: \S+ \(MAD 0: ([-+0-9.e]+) from the median\)", out)
if not m or abs(float(m.group(1)) - (-0.1 * med)) > 1e-3:
    print("FAIL fleet with a MAD of 0: " + (out[-600:] if not m else f"difference {m.group(1)}, want {-0.1 * med:.4g}"))
    sys.exit(1)
print(f"ok   fleet: MAD 0 reported as no spread, the outlier {m.group(1)} from the median (10 % of {med:.4g})")
PY
# One workload at two sizes is two rows, never pooled.
"$bin" fleet "$work/fp" --db "$work/fp.db" --csv "$work/fp.csv" --quiet >/dev/null 2>&1
python3 - "$work/fp.csv" <<'PY' || fail=1
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["firmware"] == "(fleet)" and r["node"] == "Backend_Bound"]
got = sorted((r["params"], r["machines"]) for r in rows)
want = [("size=128KiB steps=50000", "7"), ("size=64MiB steps=50000", "1")]
if got != want:
    print(f"FAIL fleet pools workloads of other parameters: Backend_Bound rows {got}, want {want}"); sys.exit(1)
print(f"ok   fleet groups by workload and parameters: {got}")
PY

# plan --events on a folder or a file with no event: before, "groups: 0,
# lower bound: 0" and status 0.
: >"$work/empty.txt"
printf '# a comment\n\n' >"$work/comments.txt"
expect 2 "plan: cannot read $work: Is a directory" "$bin" plan --events "$work"
expect 2 "no events in it (0 lines" "$bin" plan --events "$work/empty.txt"
expect 2 "no events in it (2 lines, all blank or comments)" "$bin" plan --events "$work/comments.txt"

# replay of a file whose counts feed no formula: before, a tree of
# "missing" and status 0.
python3 - tests/data/tma-sim/SKL-000.json "$work/nocounts.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["counts"] = {"NOT.AN_EVENT": 1}
json.dump(j, open(sys.argv[2], "w"))
PY
expect 2 "every node of model SKL is missing" "$bin" replay "$work/nocounts.json"
expect 0 "Frontend_Bound" "$bin" replay tests/data/tma-sim/SKL-000.json

# A bottleneck path where the vendor defines no thresholds (AMD): the
# largest share per level, labelled so in every output. The expected path
# is computed here from the results file's own node values (largest value
# among each level's children), not taken from baretop's path.
label="largest share (the vendor defines no thresholds)"
mkdir -p "$work/amd" "$work/intel"
"$bin" run --sim=zen4 --quick -w ptr-chase-dram --results-dir "$work/amd" >"$work/amd.log" 2>&1
"$bin" run --sim=zen4 --quick -w ptr-chase-dram --results-dir "$work/amd" -q >"$work/amd-q.log" 2>&1
"$bin" run --sim=skl --quick -w ptr-chase-dram --results-dir "$work/intel" >"$work/intel.log" 2>&1
python3 - "$work/amd/000001.json" "$work/intel/000001.json" "$label" <<'PY' || fail=1
import json, sys
label = sys.argv[3]
def tree(p): return json.load(open(p))["run"]["workloads"][0]["counted"]["tree"]
t = tree(sys.argv[1])
nodes = {k: v for k, v in t["nodes"].items() if v.get("kind") == "tree" and v.get("value") is not None}
want, parent = [], None
while True:
    kids = [k for k, v in nodes.items() if v.get("parent") == parent]
    if not kids: break
    parent = max(kids, key=lambda k: nodes[k]["value"]); want.append(parent)
ok = t["bottleneck_path"] == want and len(want) >= 2 and t.get("bottleneck_path_rule") == label
ti = tree(sys.argv[2])
ok_i = ti["bottleneck_path"] and ti.get("bottleneck_path_rule", "").startswith("flagged")
print(("ok  " if ok and ok_i else "FAIL") + f" results JSON: ZEN4 path {t['bottleneck_path']} (largest per level: {want}), "
      f"rule '{t.get('bottleneck_path_rule')}'; SKL rule '{ti.get('bottleneck_path_rule')}'")
sys.exit(0 if ok and ok_i else 1)
PY
check_label() { # check_label WHAT FILE: the label is in FILE
  if grep -q "largest share" "$2"; then echo "ok   $1 says \"$(grep -o -m1 'largest share[^<]*' "$2" | head -1 | cut -c1-80)\""
  else echo "FAIL $1 does not label the AMD path"; fail=1; fi
}
# The console wraps the tree's path line; join it before looking.
tr '\n' ' ' <"$work/amd.log" | sed 's/  */ /g' >"$work/amd-joined.log"
check_label "console tree (run --sim=zen4)" "$work/amd-joined.log"
check_label "console one-line summary (run -q)" "$work/amd-q.log"
"$bin" report "$work/amd/000001.json" --text="$work/r.txt" --csv "$work/r.csv" --html "$work/r.html" >/dev/null 2>&1
check_label "report --text" "$work/r.txt"
check_label "report --csv" "$work/r.csv"
check_label "report --html" "$work/r.html"
"$bin" diff "$work/amd/000001.json" "$work/amd/000002.json" >"$work/d.txt" 2>&1
check_label "diff" "$work/d.txt"
"$bin" fleet "$work/amd" --db "$work/amd.db" >"$work/f.txt" 2>&1
check_label "fleet summary" "$work/f.txt"
if grep -q "largest share" "$work/intel.log"; then
  echo "FAIL an Intel run (thresholds) is labelled largest share"; fail=1
else
  echo "ok   an Intel run's path is not labelled largest share"
fi

exit $fail

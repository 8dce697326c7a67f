#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~4s
# Exports of a results file (`baretop-host export`): the toplev-shaped CSV
# parses with Python's csv module into the documented columns and its values
# are the results file's (tests/suite/lib/check-toplev-csv.py), for a
# drilldown and a --level run of the simulated PMU; the perf-stat-shaped
# JSON lines have one object per counted event with perf's keys, and
# reading them back with `replay --perf-stat` (and the run's constants)
# gives the results file's tree again. Both say the counts are SIMULATED:
# the CSV's Description of every row, the JSON's "provenance" in place of
# pcnt-running (no counter ran), its event-runtime the simulated time (the
# run's TSC ticks at the simulated clock the results file states).
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
"$bin" run --sim=skl --quick -w multiply1 --results-dir "$work/skl" -q >/dev/null 2>&1 || { echo "FAIL skl run"; exit 1; }
"$bin" run --sim=icl --quick -w multiply1 -w alu-independent --level 2 --results-dir "$work/icl" -q >/dev/null 2>&1 ||
  { echo "FAIL icl run"; exit 1; }
skl=$work/skl/000001.json icl=$work/icl/000001.json
for spec in "$skl multiply1" "$icl alu-independent"; do
  set -- $spec
  wl_args=(--workload "$2")
  "$bin" export "$1" "${wl_args[@]}" --toplev-csv "$work/t.csv" || { echo "FAIL export $spec"; fail=1; continue; }
  python3 tests/suite/lib/check-toplev-csv.py "$1" "$2" "$work/t.csv" || fail=1
done
# two counted workloads and no --workload: an error that says so
"$bin" export "$icl" --toplev-csv "$work/x.csv" 2>"$work/err"
[ $? -eq 2 ] && grep -q 'several counted workloads' "$work/err" && echo "ok   several workloads need --workload" ||
  { echo "FAIL several workloads without --workload: $(cat "$work/err")"; fail=1; }

# perf JSON: keys and one line per event, then the round trip. SMT is on
# in the simulated Skylake's CPUID, so every group also counted the SMT
# sibling probe (ONE_THREAD_ACTIVE; REF_XCLK derived from fixed counter 2,
# REF_TSC, at the ratio the part enumerates: CPUID.15H EBX/EAX of the
# Core i7-8700K (06_9EH, a Skylake core with SMT) whose dump the preset
# answers as, read here from tests/data/cpuid/cfl-subset.cpuid, its leaves copied
# from ../shared/reference/cpuid), whose counts decided the formulas: the export
# writes them as two more lines (their totals over every run, as perf
# writes an event counted over many windows; REF_XCLK's provenance says it
# was derived) and replay decides from them, not from the AnyThread events
# the run counted for the SMT branches. Both ways: the sibling idle
# (per-thread branches) and busy 80 % of the time (SMT branches). The
# constants are the run's but SMT_SIBLING_ACTIVE, which the file must
# carry.
skl_cpuid=tests/data/cpuid/cfl-subset.cpuid
"$bin" run --sim=skl --quick -w multiply1 --sim-sibling-active 0.8 --results-dir "$work/skl8" -q \
  >/dev/null 2>&1 || { echo "FAIL skl run with a busy sibling"; exit 1; }
round_trip() { # RESULTS TAG
  "$bin" export "$1" --perf-json "$work/p$2.json" || { echo "FAIL export --perf-json ($2)"; fail=1; return; }
  python3 - "$1" "$work/p$2.json" "$2" "$skl_cpuid" <<'PY' || { fail=1; return; }
import json, sys
doc = json.load(open(sys.argv[1]))
events = doc["run"]["workloads"][0]["counted"]["events"]
lines = [json.loads(l) for l in open(sys.argv[2])]
counted = doc["run"]["workloads"][0]["counted"]
assert counted["simulated"]
# The simulated time of a group's runs: their TSC ticks at the stated clock.
hz = counted["tsc_hz"]
ticks = {}
for st in counted["steps"]:
    for r in st["run_log"]:
        ticks.setdefault(r["group"], []).append(r["tsc"])
def median(v):
    v = sorted(v); n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
probe_names = ("CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", "CPU_CLK_UNHALTED.REF_XCLK")
probe = {l["event"]: l for l in lines if l["event"] in probe_names}
lines = [l for l in lines if l["event"] not in probe_names]
bad = [l for l in lines + list(probe.values())
       if set(l) != {"counter-value", "unit", "event", "event-runtime", "provenance"}
       or not isinstance(l["counter-value"], str) or not l["provenance"].startswith("SIMULATED: ")
       or "simulated time" not in l["provenance"] or l["event-runtime"] <= 0]
wrong_time = [l["event"] for l in lines if events[l["event"]].get("group", -1) in ticks and
              abs(l["event-runtime"] - median(ticks[events[l["event"]]["group"]]) * 1e9 / hz) > 1]
vals = {l["event"]: float(l["counter-value"]) for l in lines}
want = {e: float(s["median"]) for e, s in events.items()}
if bad or vals != want or wrong_time or hz != 3000000000:
    print(f"FAIL perf json ({sys.argv[3]}): {len(bad)} bad lines, values equal: {vals == want}, "
          f"runtime not the simulated time: {wrong_time[:3]}, clock {hz}")
    sys.exit(1)
# The probe from the raw run log: ONE_THREAD_ACTIVE of every run; REF_XCLK
# the runs' fixed counter 2 over the part's TSC-to-crystal ratio (the runs
# that counted REF_XCLK too only check the ratio); the fraction the run
# decided with is 1 - ONE_THREAD_ACTIVE / REF_XCLK, at least 0 (an idle
# sibling's ONE_THREAD_ACTIVE can pass the derived REF_XCLK by the ticks
# the windows' edges cut).
leaf = [l.split() for l in open(sys.argv[4]) if l.startswith("00000015.00 ")][0]
ratio = int(leaf[2], 16) / int(leaf[1], 16)
runs = [r for st in counted["steps"] for r in st["run_log"] if "one_thread_active" in r]
checked = [r for r in runs if "ref_xclk" in r]
ota = sum(r["one_thread_active"] for r in runs)
xclk = sum(r["ref_tsc"] for r in runs) / ratio
got = {k: float(l["counter-value"]) for k, l in probe.items()}
frac = max(0.0, 1 - ota / xclk)
x = probe.get(probe_names[1], {}).get("provenance", "")
if not runs or any("ref_tsc" not in r for r in runs) or not checked or \
        abs(sum(r["ref_tsc"] for r in checked) / sum(r["ref_xclk"] for r in checked) / ratio - 1) > 0.01 or \
        got.get(probe_names[0]) != ota or not abs(got.get(probe_names[1], 0) / xclk - 1) <= 1e-12 or \
        abs(frac - counted["constants"]["SMT_SIBLING_ACTIVE"]) > 1e-12 or \
        "REF_XCLK derived, not counted" not in x or f"{ratio:g} TSC ticks per tick" not in x or \
        any(abs(l["event-runtime"] - sum(r["tsc"] for r in runs) * 1e9 / hz) > 1 for l in probe.values()):
    print(f"FAIL perf json ({sys.argv[3]}): sibling probe lines {got}, want {ota} / {xclk} at "
          f"{ratio:g} TSC ticks per REF_XCLK tick (sibling {frac:.4f}, the run's "
          f"{counted['constants']['SMT_SIBLING_ACTIVE']:.4f}); REF_XCLK's provenance: {x!r}")
    sys.exit(1)
print(f"ok   perf json ({sys.argv[3]}): {len(lines)} lines, one per counted event, perf's keys with "
      f"provenance SIMULATED instead of pcnt-running, event-runtime the simulated time at {hz / 1e9:g} "
      f"GHz; the SMT sibling probe's 2 lines: active {100 * frac:.1f} %, as the run decided, REF_XCLK "
      f"derived from fixed counter 2 at {ratio:g} (CPUID.15H), {len(checked)} run(s) counting it agree")
PY
  consts=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["run"]["workloads"][0]["counted"]["constants"]
print(" ".join(f"--constant {k}={v!r}" for k, v in c.items() if k != "SMT_SIBLING_ACTIVE"))' "$1")
  # shellcheck disable=SC2086
  "$bin" replay --perf-stat "$work/p$2.json" --model SKL --json $consts >"$work/back.json" 2>"$work/err" ||
    { echo "FAIL replay of the export ($2): $(head -2 "$work/err")"; fail=1; return; }
  grep -q 'SMT sibling measured: .* decides the formulas' "$work/err" ||
    { echo "FAIL replay ($2) did not decide SMT from the sibling probe: $(grep SMT "$work/err")"; fail=1; }
  python3 - "$1" "$work/back.json" "$2" <<'PY' || fail=1
import json, sys
a = json.load(open(sys.argv[1]))["run"]["workloads"][0]["counted"]["tree"]
b = json.load(open(sys.argv[2]))
diff = [n for n in a["nodes"] if a["nodes"][n]["value"] != b["nodes"][n]["value"]
        or a["nodes"][n]["thresh"] != b["nodes"][n]["thresh"]]
if diff or a["bottleneck_path"] != b["bottleneck_path"] or a.get("smt") != b.get("smt") or not a.get("smt"):
    print(f"FAIL round trip ({sys.argv[3]}): {len(diff)} nodes differ, e.g. {diff[:3]}; "
          f"smt {a.get('smt')} -> {b.get('smt')}")
    sys.exit(1)
print(f"ok   export --perf-json | replay --perf-stat ({sys.argv[3]}): all {len(a['nodes'])} node "
      f"values and flags equal the results file's, {a['smt']['formulas']} as the run took them")
PY
}
round_trip "$skl" "sibling idle"
round_trip "$work/skl8/000001.json" "sibling busy"
# Retire latencies (a TMA 5 model): the simulated Lunar Lake P-core with timed
# PEBS measures its EVENT:R inputs. The toplev CSV carries each as a row
# "EVENT:R" (cycles, source and samples in Description) after the metrics;
# the perf JSON as a line "EVENT:R" whose counter-value is the mean, as perf
# stat --record-tpebs prints it, with "retire-latency" {source, samples,
# ...}; replay --perf-stat of that file (with the run's constants) gives the
# results file's tree again, each latency with its source.
"$bin" run --sim=LNL-LNC --quick --level 4 --reps 1 --warmups 0 -w code-footprint \
  --results-dir "$work/lnl" -q >/dev/null 2>&1 || { echo "FAIL lnl run"; exit 1; }
lnl=$work/lnl/000001.json
"$bin" export "$lnl" --toplev-csv "$work/l.csv" --perf-json "$work/l.json" || { echo "FAIL export lnl"; fail=1; }
python3 tests/suite/lib/check-toplev-csv.py "$lnl" code-footprint "$work/l.csv" || fail=1
lconsts=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["run"]["workloads"][0]["counted"]["constants"]
print(" ".join(f"--constant {k}={v!r}" for k, v in c.items()))' "$lnl")
# shellcheck disable=SC2086
"$bin" replay --perf-stat "$work/l.json" --model LNL-LNC --json $lconsts >"$work/lback.json" 2>"$work/err" ||
  { echo "FAIL replay of the LNL export: $(head -2 "$work/err")"; fail=1; }
python3 - "$lnl" "$work/l.json" "$work/lback.json" <<'PY' || fail=1
import json, sys
c = json.load(open(sys.argv[1]))["run"]["workloads"][0]["counted"]
rl = {k: v for k, v in c["retire_latency"].items() if v["mean"] is not None}
lines = [json.loads(l) for l in open(sys.argv[2])]
lat = {l["event"][:-2]: l for l in lines if l["event"].endswith(":R")}
b = json.load(open(sys.argv[3]))
err = []
if not any(v["source"] == "measured" for v in rl.values()):
    err.append("no measured latency in the run")
if set(lat) != set(rl):
    err.append(f"latency lines {sorted(lat)[:3]} != inputs with a value {sorted(rl)[:3]}")
for k, l in lat.items():
    v = rl.get(k, {})
    if float(l["counter-value"]) != v.get("mean") or l["retire-latency"]["source"] != v.get("source") \
            or l["retire-latency"]["samples"] != v.get("samples"):
        err.append(f"{k}: {l} vs {v}")
back = {k: v for k, v in b["retire_latency"].items() if v["source"] != "not_measured"}
if {k: (v["mean"], v["source"]) for k, v in back.items()} != {k: (v["mean"], v["source"]) for k, v in rl.items()}:
    err.append("replayed latencies or sources differ")
a = c["tree"]
diff = [n for n in a["nodes"] if a["nodes"][n]["value"] != b["nodes"][n]["value"]]
if diff:
    err.append(f"{len(diff)} node values differ after the round trip, e.g. {diff[:3]}")
if err: print("FAIL LNL export: " + "; ".join(err[:5])); sys.exit(1)
print(f"ok   LNL export: {len(lat)} retire latencies as EVENT:R lines (mean, source, samples); replay "
      f"--perf-stat reads them back: all {len(a['nodes'])} node values and the sources equal")
PY
# A results file is someone else's document: a 9000-character latency source
# (untrusted text) must come out whole in the CSV's Description, not cut at a
# fixed buffer (which once overflowed the stack: the review of this stop).
python3 - "$lnl" "$work/long.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for w in d["run"]["workloads"]:
    for v in ((w.get("counted") or {}).get("retire_latency") or {}).values():
        v["source"] = "x" * 9000
json.dump(d, open(sys.argv[2], "w"))
PY
if "$bin" export "$work/long.json" --toplev-csv "$work/long.csv" 2>"$work/long.err" &&
   python3 -c 'import csv,sys; r=[x for x in csv.reader(open(sys.argv[1])) if x and x[0].endswith(":R")]; sys.exit(0 if r and all("source " + "x"*9000 in x[3] for x in r) else 1)' "$work/long.csv"; then
  echo "ok   a 9000-character latency source is written whole into the toplev CSV"
else
  echo "FAIL long latency source: $(head -c 300 "$work/long.err")"; fail=1
fi
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~4s
# perf stat import read as perf wrote it, with no --constant: perf outputs
# made from the suite's recordings (tests/data/tma, lib/perf-from-counts.py)
# in both layouts (-x, and -j).
# - SMT from the events: a Skylake recording printed with the events the
#   per-thread formulas need (`plan --model SKL`), and with the AnyThread
#   events the SMT-on ones need (`plan --model SKL --smt`):
#   `replay --perf-stat` says which it inferred, and its tree equals the
#   count file's own (evaluated with the recording's HYPERTHREADING_ON);
#   the other setting given by --constant changes the tree (the inference
#   is what makes it right).
# - raw spellings of events the model names: r00c0, cpu/event=0x3c,umask=0x0/
#   (the fixed counters' architectural twins) give the same tree.
# - a file without IDQ_UOPS_NOT_DELIVERED.CORE: Frontend_Bound is missing and
#   names that event, and the input line counts it missing.
# - interval output (-I): one tree per interval, each the recording's.
# - the real recordings (perf's own TopdownL1 output quoted publicly, with
#   the percentages perf printed): baretop's values agree with perf's to its
#   printed 0.1 %; the table is printed.
# - retire latencies: rows of events with perf's R modifier (perf stat
#   --record-tpebs) feed the TMA 5 formulas, checked against Intel's LNL
#   formulas worked by hand (below).
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
gen=tests/suite/lib/perf-from-counts.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

plan_events() { # MODEL LEVEL [--smt]: the events the formulas need, one a line
  "$bin" plan --model "$1" --level "$2" ${3:-} --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
ev = set(d["every_group"])
for g in d["plan"]:
    ev |= set(g["counters"].values())
print("\n".join(sorted(ev)))'
}
# same_tree A B: the node values, flags and states of two replay --json trees
same_tree() {
  python3 - "$1" "$2" <<'PY'
import json, math, sys
def load(p):
    d = json.load(open(p))
    return {k: (v.get('value'), v.get('thresh'), v.get('state')) for k, v in d['nodes'].items() if v.get('level')}
a, b = load(sys.argv[1]), load(sys.argv[2])
bad = [k for k in b if k not in a or a[k][1:] != b[k][1:] or
       (a[k][0] is None) != (b[k][0] is None) or
       (a[k][0] is not None and not math.isclose(a[k][0], b[k][0], rel_tol=1e-12, abs_tol=1e-15))]
ok = sum(1 for k in b if b[k][2] == 'ok')
if bad or not ok:
    print(f'differ at {bad[:5]} ({len(bad)} nodes); {ok} computed'); sys.exit(1)
print(f'{ok} nodes computed, all {len(b)} equal')
PY
}

# The recording (a Skylake count file of an SMT-off machine) holds the
# AnyThread counts too, so it also stands for the same run with SMT on:
# the count file evaluated with HYPERTHREADING_ON=1.
for case in "off::0" "on:--smt:1"; do
  IFS=: read -r smt plan_opt ht <<<"$case"
  rec=SKL/000.json
  cf=tests/data/tma/$rec
  "$bin" replay "$cf" --level 2 --json --constant HYPERTHREADING_ON=$ht >"$work/cf.json" ||
    { echo "FAIL replay $cf"; fail=1; continue; }
  plan_events SKL 2 $plan_opt >"$work/events"
  for fmt in csv json; do
    python3 "$gen" "$cf" $fmt - <"$work/events" >"$work/p.$fmt"
    if ! "$bin" replay --perf-stat "$work/p.$fmt" --model SKL --level 2 --json >"$work/out.json" 2>"$work/err"; then
      echo "FAIL $rec $fmt: $(head -3 "$work/err")"; fail=1; continue
    fi
    if grep -q "SMT $smt: " "$work/err" && r=$(same_tree "$work/out.json" "$work/cf.json"); then
      echo "ok   $rec as perf stat $fmt with the SMT-$smt events, SMT $smt inferred (\"$(grep -o "SMT $smt: [^,]*" "$work/err" | head -1)\"): $r"
    else
      echo "FAIL $rec $fmt: SMT $smt not inferred or tree differs: $(grep SMT "$work/err") $r"; fail=1
    fi
  done
  other=$([ "$smt" = on ] && echo 0 || echo 1)
  "$bin" replay --perf-stat "$work/p.csv" --model SKL --level 2 --json --constant HYPERTHREADING_ON=$other \
    >"$work/forced.json" 2>"$work/err"
  if ! same_tree "$work/forced.json" "$work/cf.json" >/dev/null && grep -q 'HYPERTHREADING_ON overrides' "$work/err"; then
    echo "ok   $rec: --constant HYPERTHREADING_ON=$other overrides the inference and the tree differs"
  else
    echo "FAIL $rec: --constant HYPERTHREADING_ON=$other did not change the tree"; fail=1
  fi
done

# raw spellings, and an SMT-off file that lacks one event
cf=tests/data/tma/SKL/000.json
"$bin" replay "$cf" --level 2 --json >"$work/cf.json"
plan_events SKL 2 >"$work/events"
python3 "$gen" "$cf" csv - --spell INST_RETIRED.ANY=r00c0 --spell 'CPU_CLK_UNHALTED.THREAD=cpu/event=0x3c,umask=0x0/' \
  --spell 'INT_MISC.RECOVERY_CYCLES=cpu/event=0x0d,umask=0x01/' <"$work/events" >"$work/raw.csv"
if "$bin" replay --perf-stat "$work/raw.csv" --model SKL --level 2 --json >"$work/out.json" 2>"$work/err" &&
   r=$(same_tree "$work/out.json" "$work/cf.json") && ! grep -q 'not used' "$work/err"; then
  echo "ok   r00c0, cpu/event=0x3c,umask=0x0/, cpu/event=0x0d,umask=0x01/ read as the events they encode: $r"
else
  echo "FAIL raw spellings: $(grep -v warning "$work/err" | head -3) $r"; fail=1
fi
python3 "$gen" "$cf" json - --drop IDQ_UOPS_NOT_DELIVERED.CORE <"$work/events" >"$work/drop.json"
"$bin" replay --perf-stat "$work/drop.json" --model SKL --level 2 >"$work/out.txt" 2>"$work/err"
if grep -q 'Frontend_Bound is missing: it needs IDQ_UOPS_NOT_DELIVERED.CORE' "$work/err" &&
   tr -s ' \n' ' ' <"$work/out.txt" | grep -q ', 1 missing,'; then
  echo "ok   a file without IDQ_UOPS_NOT_DELIVERED.CORE: \"$(grep -m1 'Frontend_Bound is missing' "$work/err" | cut -c15-)\", input line says 1 missing"
else
  echo "FAIL missing event not named: $(grep missing "$work/err" | head -2); $(grep -m2 'missing' "$work/out.txt")"; fail=1
fi

# interval output: one tree per interval
for fmt in csv json; do
  python3 "$gen" "$cf" $fmt - --intervals 3 <"$work/events" >"$work/i.$fmt"
  if "$bin" replay --perf-stat "$work/i.$fmt" --model SKL --level 2 --json >"$work/i.out" 2>"$work/err" &&
     python3 - "$work/i.out" "$work/cf.json" <<'PY'
import json, math, sys
trees, ref = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))['nodes']
assert len(trees) == 3, len(trees)
for k, t in enumerate(trees, 1):
    assert f'interval {k} of 3' in t['input'], t['input']
    for n, v in ref.items():
        if v.get('level') and v.get('value') is not None:
            assert math.isclose(t['nodes'][n]['value'], v['value'], rel_tol=1e-9), (k, n)
PY
  then
    echo "ok   perf stat -I ($fmt): 3 trees, each labelled with its interval and equal to the recording's"
  else
    echo "FAIL interval output $fmt: $(head -3 "$work/err")"; fail=1
  fi
done

# the real recordings: what perf printed against what baretop computes
for rec in tests/data/tma/real/*.json; do
  model=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["model"])' "$rec")
  python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["counts"]))' "$rec" >"$work/events"
  for fmt in csv json; do
    python3 "$gen" "$rec" $fmt - <"$work/events" >"$work/real.$fmt"
    "$bin" replay --perf-stat "$work/real.$fmt" --model "$model" --json >"$work/real.out" 2>"$work/err" ||
      { echo "FAIL $(basename "$rec") $fmt: $(head -2 "$work/err")"; fail=1; continue; }
    python3 - "$rec" "$work/real.out" "$fmt" <<'PY' || fail=1
import json, sys
rec, out = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))['nodes']
printed = rec.get('perf_printed_percent')
if not printed:
    print(f"FAIL {rec['case']}: no perf_printed_percent"); sys.exit(1)
bad = []
rows = []
for n, p in printed.items():
    v = out[n]['value']
    got = None if v is None else 100 * v
    rows.append(f'{n} perf {p:.1f} baretop {got:.2f}' if got is not None else f'{n} perf {p:.1f} baretop missing')
    if got is None or abs(got - p) > 0.05 + 1e-9:
        bad.append(n)
tag = f"{rec['case']} ({rec['model']}, perf stat {sys.argv[3]})"
if bad:
    print(f'FAIL {tag}: differ from perf at {bad}: ' + '; '.join(rows)); sys.exit(1)
print(f'ok   {tag}: {len(printed)} nodes within perf\'s printed 0.1 %: ' + '; '.join(rows))
PY
  done
done
# Retire latencies as perf stat --record-tpebs prints them: an event with the
# R modifier has the mean sampled latency as its value
# (tools/perf/util/intel-tpebs.c). Hand-written for the Lunar Lake P-core;
# expectations from Intel's formulas (lunarlake_metrics_lioncove_core.json)
# worked by hand: Code_L2_Miss = L2_MISS * L2_MISS:R / CLKS = 1000 * 60 / 1e6
# = 0.06, Code_L2_Hit = max(0, L1I_MISS * L1I_MISS:R / CLKS - Code_L2_Miss) =
# 0.1 - 0.06 = 0.04, Ret_Mispredicts = 2000 * 15 / 1e6 = 0.03; the three
# latencies measured by perf tpebs, in the JSON and the text; without the R
# rows those nodes are not computed (Intel gives them no fallback).
cat >"$work/rl.csv" <<'CSV'
1000000,,cpu_core/CPU_CLK_UNHALTED.THREAD/,1000000,100.00,,
5000,,cpu_core/FRONTEND_RETIRED.L1I_MISS/,1000000,100.00,,
20,,cpu_core/FRONTEND_RETIRED.L1I_MISS/R,1000000,100.00,,
1000,,cpu_core/FRONTEND_RETIRED.L2_MISS/,1000000,100.00,,
60,,cpu_core/FRONTEND_RETIRED.L2_MISS/R,1000000,100.00,,
2000,,cpu_core/BR_MISP_RETIRED.RET_COST/,1000000,100.00,,
15,,cpu_core/BR_MISP_RETIRED.RET_COST/R,1000000,100.00,,
CSV
grep -v '/R,' "$work/rl.csv" >"$work/norl.csv"
"$bin" replay --perf-stat "$work/rl.csv" --model LNL-LNC --json >"$work/rl.json" 2>/dev/null
"$bin" replay --perf-stat "$work/rl.csv" --model LNL-LNC --level 6 >"$work/rl.txt" 2>/dev/null
"$bin" replay --perf-stat "$work/norl.csv" --model LNL-LNC --json >"$work/norl.json" 2>/dev/null
python3 - "$work/rl.json" "$work/norl.json" "$work/rl.txt" <<'PY' || fail=1
import json, math, re, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
text = re.sub(r"\s+", " ", open(sys.argv[3]).read())
want = {"Code_L2_Miss": 0.06, "Code_L2_Hit": 0.04, "Ret_Mispredicts": 0.03}
err = []
for k, v in want.items():
    got = a["nodes"][k]["value"]
    if got is None or not math.isclose(got, v, rel_tol=1e-12):
        err.append(f"{k} = {got}, Intel's formula gives {v}")
    if b["nodes"][k]["value"] is not None:
        err.append(f"{k} = {b['nodes'][k]['value']} without its latency")
rl = {k: v for k, v in a["retire_latency"].items() if v["source"] != "not_measured"}
if rl != {"FRONTEND_RETIRED.L1I_MISS": {"mean": 20, "source": "measured", "detail": "perf tpebs"},
          "FRONTEND_RETIRED.L2_MISS": {"mean": 60, "source": "measured", "detail": "perf tpebs"},
          "BR_MISP_RETIRED.RET_COST": {"mean": 15, "source": "measured", "detail": "perf tpebs"}}:
    err.append(f"latencies {rl}")
if "3 of them retire latencies (EVENT:R, perf tpebs)" not in text or "3 measured (perf tpebs)" not in text:
    err.append("the text does not say the latencies came from perf tpebs")
if err: print("FAIL perf tpebs: " + "; ".join(err)); sys.exit(1)
print("ok   perf stat --record-tpebs rows (EVENT/R): 3 latencies measured by perf tpebs; Code_L2_Miss 0.06, "
      "Code_L2_Hit 0.04, Ret_Mispredicts 0.03 as Intel's formulas give; none of them without the R rows")
PY
exit $fail

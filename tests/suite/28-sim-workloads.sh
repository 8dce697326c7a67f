#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~65s
# Machine load cannot move it: every input is simulated, the time too
# (SYSTEM_TSC_FREQ and DURATIONTIMEINMILLISECONDS are the workload model's
# cycles at the simulated CPU's stated clock, never the host's wall time), so
# it runs beside other steps.
# The workload model behind the simulated PMU (synth/workload-counts.c,
# synth/workload-profiles.c): every built-in model x every built-in workload, run
# hosted with `baretop-host run --sim=MODEL --quick --level 6` (every node
# to full depth), reports the consistency rules (metrics/rules.h) violated
# and the bottleneck path per model and workload, and checks that the
# known-answer workloads show their character:
#   ptr-chase-dram    -> Backend_Bound > Memory_Bound > (DRAM_Bound | L3_Miss_Bound)
#   branch-mispredict -> Bad_Speculation > Branch_Mispredicts
#   div-chain         -> Backend_Bound > Core_Bound > Divider
#   code-footprint    -> Frontend_Bound > Fetch_Latency
#   multiply1/2/3     -> Memory_Bound, then Core_Bound, then Core_Bound (the
#                        Top-Down paper's matrix-multiply case study, 5.5)
#   multiply1:n=512   -> DTLB_Load under L1_Bound, a real share of it, on SKL,
#                        ICL, SPR and LNL-LNC (the catalogue: "DTLB_Load under
#                        L1_Bound as n*8 >= 4 KiB": a row of B is a page, every
#                        load of the column walk on a new one)
# (the E-core names where they differ: Resource_Bound > Non_Mem_Scheduler,
# IFetch_Latency; on AMD, whose files define no thresholds, the path is
# the largest level-1 node and its largest child: baretop's "largest share"
# path, or computed here when a file has none).
# It fails on a violation or a wrong path in the models listed in STRICT
# (the ones the workload model is known to hold for); the others are
# reported honestly, not asserted. Set BT_SIM_WL_MODELS to a subset.
set -euo pipefail
[ -x build/baretop-host ] || make -s -j2 host >/dev/null
models=${BT_SIM_WL_MODELS:-"IVB HSW SKL SKX ICL TGL ICX ADL-GLC ADL-GRT SPR SPR-HBM EMR GNR SRF MTL-RWC MTL-CMT LNL-LNC ARL-LNC LNL-SKT ARL-SKT ZEN4 ZEN5"}
STRICT=${BT_SIM_WL_STRICT:-$models}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
wls=$(build/baretop-host workloads --quick --json 2>/dev/null | python3 -c '
import json,sys
d=json.load(sys.stdin); print(" ".join(w["name"] for w in (d["workloads"] if isinstance(d,dict) else d)))' 2>/dev/null || true)
[ -n "$wls" ] || wls="ptr-chase-l1 ptr-chase-l2 ptr-chase-l3 ptr-chase-dram stream-read stream-triad multiply1 multiply2 multiply3 branch-mispredict code-footprint div-chain alu-dep-chain alu-independent denormal-assist store-fwd-block 4k-alias false-sharing memory-order-clears"
# ptr-chase-dram at its default working set (256 MiB), not --quick's 16 MiB:
# the simulated caches are the simulated CPU's (CPUID leaf 4 / 8000_001DH,
# synth/mem-hierarchy.c), and 16 MiB fits the L3 of most of them (SPR 37.5
# MiB, Zen 4 32 MiB): an L3 chase there, as on silicon. 256 MiB is past
# every modelled L3 (GNR's 144 MiB the largest).
args=""
for w in $wls; do
  [ "$w" = ptr-chase-dram ] && w=ptr-chase-dram:size=256MiB
  args="$args -w $w"
done
# run_bg OUT ARGS...: `baretop-host run ARGS` into OUT in the background,
# two at a time (the runs are independent, each its own results folder;
# their time is simulated, so running beside each other changes nothing)
run_bg() {
  local o=$1; shift
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
  build/baretop-host run "$@" >"$o" 2>&1 &
}
for m in $models; do
  run_bg "$work/$m.out" --sim="$m" --quick --level 6 --reps 1 --warmups 0 $args --results-dir "$work/$m"
done
# An injected miscount per family (--sim-miscount): a violated rule must
# name the event.
# ptr-chase-dram at 256 MiB (a DRAM chase on every model: at --quick's 16
# MiB it is an L3 chase where the L3 holds it, and STALLS_L3_MISS x 3 of 0 is
# 0). SKL's scale: a DRAM chase issues one uop in ~150 slots, so 40x its
# issued uops reads as a plausible Bad_Speculation (~25 %); 400x cannot.
miscounts="SKL:UOPS_ISSUED.ANY:scale=400 ICX:CYCLE_ACTIVITY.STALLS_L3_MISS:scale=3
SPR:MEMORY_ACTIVITY.STALLS_L3_MISS:scale=3 ADL-GLC:MEMORY_ACTIVITY.STALLS_L2_MISS:scale=3
ADL-GRT:TOPDOWN_FE_BOUND.ALL:scale=30 LNL-LNC:INST_RETIRED.ANY:stuck=100000000000
ARL-SKT:TOPDOWN_RETIRING.ALL:scale=100 ZEN4:ex_ret_ops:swap=ls_not_halted_cyc"
for mc in $miscounts; do
  m=${mc%%:*}; spec=${mc#*:}
  run_bg "$work/mc-$m.out" --sim="$m" --quick --level 6 --reps 1 --warmups 0 \
    -w ptr-chase-dram:size=256MiB --sim-miscount "$spec" --results-dir "$work/mc-$m"
done
wait
mfail=0
for mc in $miscounts; do
  m=${mc%%:*}; spec=${mc#*:}; ev=${spec%%:*}
  if python3 - "$work/mc-$m" "$ev" <<'PY'
import glob, json, sys
d = json.load(open(sorted(glob.glob(sys.argv[1] + "/*.json"))[-1]))
c = d["run"]["workloads"][0]["counted"]
bad = [r for r in c["consistency"] if r["state"] == "violated" and sys.argv[2] in r["events"]]
print(f"miscount {sys.argv[2]}: " + (f"named by {len(bad)} violated rule(s), e.g. {bad[0]['rule']}"
                                     if bad else "NOT named by a violated rule"))
sys.exit(0 if bad else 1)
PY
  then :; else mfail=1; fi
done
python3 - "$work" "$STRICT" $models <<'PY'
import glob, json, sys
work, strict, models = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
expect = {
    "ptr-chase-dram": [("Backend_Bound", "backend_bound"),
                       ("Memory_Bound", "backend_bound_memory", "backend_bound_by_memory",
                        "Resource_Bound"),
                       ("DRAM_Bound", "L3_Miss_Bound", "Mem_Scheduler", "Reorder_Buffer", None)],
    "branch-mispredict": [("Bad_Speculation", "bad_speculation"),
                          ("Branch_Mispredicts", "bad_speculation_mispredicts",
                           "bad_speculation_from_mispredicts")],
    "div-chain": [("Backend_Bound", "backend_bound"),
                  ("Core_Bound", "backend_bound_cpu", "backend_bound_by_cpu", "Resource_Bound"),
                  ("Divider", "Non_Mem_Scheduler", None)],
    "code-footprint": [("Frontend_Bound", "frontend_bound"),
                       ("Fetch_Latency", "frontend_bound_latency", "frontend_bound_by_latency",
                        "IFetch_Latency")],
    # The Top-Down paper's matrix-multiply case study (section 5.5): the naive
    # loop is memory bound, loop interchange makes it core bound, and the
    # vectorised loop stays core bound (its memory share rising: checked below).
    "multiply1": [("Backend_Bound", "backend_bound"),
                  ("Memory_Bound", "backend_bound_memory", "backend_bound_by_memory",
                   "Resource_Bound"),
                  ("DRAM_Bound", "L3_Miss_Bound", "L3_Bound", "Mem_Scheduler", None)],
    "multiply2": [("Backend_Bound", "backend_bound"),
                  ("Core_Bound", "backend_bound_cpu", "backend_bound_by_cpu", "Resource_Bound"),
                  ("Ports_Utilization", "Non_Mem_Scheduler", None)],
    "multiply3": [("Backend_Bound", "backend_bound"),
                  ("Core_Bound", "backend_bound_cpu", "backend_bound_by_cpu", "Resource_Bound"),
                  ("Ports_Utilization", "Non_Mem_Scheduler", None)],
}
def path_ok(path, exp):
    for i, alts in enumerate(exp):
        if i >= len(path):
            return None in alts
        if path[i] not in alts:
            return False
    return True
fail, total_bad = [], 0
print(f"{'model':8} {'wl':>3} {'viol':>4}  known-answer paths (ok / differs) and violations")
for m in models:
    files = sorted(glob.glob(f"{work}/{m}/*.json"))
    if not files:
        print(f"{m:8} no results: " + open(f"{work}/{m}.out").read()[-300:].replace("\n", " "))
        if m in strict: fail.append(f"{m}: no results")
        continue
    d = json.load(open(files[-1]))
    nw, nbad, lines = 0, 0, []
    for w in d["run"]["workloads"]:
        c = w.get("counted")
        if not c:
            lines.append(f"    {w['name']}: not counted ({w.get('reason','')})"); continue
        nw += 1
        bad = [r for r in c.get("consistency", []) if r["state"] == "violated"]
        nbad += len(bad)
        path = c["tree"].get("bottleneck_path") or []
        names = [p["name"] if isinstance(p, dict) else p for p in path]
        if not names:
            # No thresholds (AMD): the largest level-1 node, then its largest child.
            nodes = {k: v for k, v in c["tree"]["nodes"].items()
                     if v.get("kind") == "tree" and v.get("value") is not None}
            parent = None
            while True:
                kids = [k for k, v in nodes.items() if v.get("parent") == parent]
                if not kids: break
                parent = max(kids, key=lambda k: nodes[k]["value"])
                names.append(parent)
            names = [n + "(max)" if False else n for n in names]
        tag = ""
        if w["name"] in expect:
            ok = path_ok(names, expect[w["name"]])
            tag = "ok" if ok else "DIFFERS"
            if not ok and m in strict: fail.append(f"{m} {w['name']}: path {' > '.join(names)}")
        if bad or tag:
            lines.append(f"    {w['name']:20} {len(bad)} violated  {' > '.join(names)}  {tag}" +
                         "".join(f"\n        {r['rule']} ({r['lhs']:.4g} against {r['rhs']:.4g})" for r in bad[:3]))
        if bad and m in strict:
            fail.append(f"{m} {w['name']}: " + "; ".join(r["rule"] for r in bad[:3]))
    total_bad += nbad
    print(f"{m:8} {nw:>3} {nbad:>4}{'  (strict)' if m in strict else ''}")
    print("\n".join(lines))
print(f"{total_bad} rule violations over {len(models)} models")
if fail:
    print("FAIL"); print("\n".join(fail[:30])); sys.exit(1)
print("ok   the strict models pass every rule with the expected paths")
PY
# multiply1 at n = 512 (the smallest n whose row of B is 4 KiB), at the
# level of DTLB_Load: it is a child of L1_Bound with a share of at least 5 %
# of the cycles, and at most its parent's.
for m in SKL ICL SPR LNL-LNC; do
  run_bg "$work/tlb-$m.out" --sim="$m" --level 4 --reps 1 --warmups 0 -w multiply1:n=512 \
    --results-dir "$work/tlb-$m"
done
wait
tfail=0
for m in SKL ICL SPR LNL-LNC; do
  python3 - "$work/tlb-$m" "$m" <<'PY' || tfail=1
import glob, json, sys
files = sorted(glob.glob(sys.argv[1] + "/*.json"))
if not files:
    print(f"FAIL {sys.argv[2]} multiply1:n=512: no results"); sys.exit(1)
c = json.load(open(files[-1]))["run"]["workloads"][0]["counted"]
n = c["tree"]["nodes"]
d, p = n.get("DTLB_Load", {}), n.get("L1_Bound", {})
bad = [r["rule"] for r in c["consistency"] if r["state"] == "violated"]
ok = (d.get("parent") == "L1_Bound" and isinstance(d.get("value"), (int, float))
      and isinstance(p.get("value"), (int, float)) and 0.05 <= d["value"] <= p["value"] + 1e-9 and not bad)
print(("ok  " if ok else "FAIL") + f" {sys.argv[2]} multiply1:n=512: DTLB_Load {d.get('value')} under "
      f"{d.get('parent')} {p.get('value')}, {len(bad)} violated")
sys.exit(0 if ok else 1)
PY
done
[ "$mfail" = 0 ] || { echo "FAIL: an injected miscount was not named"; exit 1; }
[ "$tfail" = 0 ] || { echo "FAIL: multiply1:n=512 without DTLB_Load under L1_Bound"; exit 1; }
echo "ok   every injected miscount is named by a violated rule"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~45s
# Known-answer drill-down inside baretop.efi in QEMU: for one model of each
# family, the SIMULATED PMU counting the workload model (no count file), the
# default drill-down (level 1, then the children of flagged nodes) must find
# each known-answer workload's bottleneck path, with every step's counter
# groups at the planner's lower bound and no consistency rule violated.
#   ptr-chase-dram    -> Backend_Bound > Memory_Bound > (DRAM_Bound | L3_Miss_Bound)
#   branch-mispredict -> Bad_Speculation > Branch_Mispredicts
#   div-chain         -> Backend_Bound > Core_Bound > Divider
#   code-footprint    -> Frontend_Bound > Fetch_Latency
# (E-cores: Resource_Bound > Mem_Scheduler / Non_Mem_Scheduler, IFetch_Latency;
# Zen, whose files define no thresholds: baretop's path is then the largest
# share per level; a file without a path (an older baretop) is judged by
# the largest level-1 node and its largest child, computed here.)
# The expectations are the Top-Down method's (Yasin, ISPASS 2014), written
# here by hand; tests/suite/28-sim-workloads.sh checks the same at full
# depth, hosted, on every model.
set -uo pipefail
out=build/qemu/drill-known
rm -rf "$out"; mkdir -p "$out"
make -s -j"$(nproc)" efi >/dev/null || { echo "FAIL build"; exit 1; }
models=${BT_DRILL_MODELS:-"SKL ICX SPR ADL-GLC ADL-GRT LNL-LNC ZEN4"}
# ptr-chase-dram at 64 MiB, not --quick's 16 MiB: the simulated caches are
# the simulated CPU's (CPUID leaf 4 / 8000_001DH, synth/mem-hierarchy.c) and
# 16 MiB fits the L3 of SPR, ICX, ADL and Zen 4 (an L3 chase there, as on
# silicon); 64 MiB is past every L3 of the models below.
wl="-w ptr-chase-dram:size=64MiB -w branch-mispredict -w div-chain -w code-footprint"
fail=0
# Every model's boot, two at a time (independent: each its own ESP); its
# exit status and seconds in $out/MODEL.rc, checked below in order.
for m in $models; do
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  ( t0=$(date +%s)
    bash qemu/run.sh --cpu Skylake-Client --out "$out/$m" --timeout 300 \
      --args "$wl --reps 2 --warmups 1 --sim=$m" >/dev/null 2>"$out/$m.err"
    echo "$? $(( $(date +%s) - t0 ))" >"$out/$m.rc" ) &
done
wait
for m in $models; do
  read -r rc secs <"$out/$m.rc" 2>/dev/null || { rc=none; secs=0; }
  if [ "$rc" != 0 ]; then
    echo "FAIL $m: exit status $rc"; tail -20 "$out/$m/console.txt"; fail=1; continue
  fi
  grep -q "SIMULATED" "$out/$m/console.txt" || { echo "FAIL $m: console not labelled SIMULATED"; fail=1; }
  python3 - "$out/$m/esp/baretop/results/000001.json" "$m" "$secs" <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1])); model = sys.argv[2]
expect = {
    "ptr-chase-dram": [("Backend_Bound", "backend_bound"),
                       ("Memory_Bound", "Resource_Bound", "backend_bound_memory"),
                       ("DRAM_Bound", "L3_Miss_Bound", "Mem_Scheduler", None)],
    "branch-mispredict": [("Bad_Speculation", "bad_speculation"),
                          ("Branch_Mispredicts", "bad_speculation_mispredicts")],
    "div-chain": [("Backend_Bound", "backend_bound"),
                  ("Core_Bound", "Resource_Bound", "backend_bound_cpu"),
                  ("Divider", "Non_Mem_Scheduler", None)],
    "code-footprint": [("Frontend_Bound", "frontend_bound"),
                       ("Fetch_Latency", "IFetch_Latency", "frontend_bound_latency")],
}
def largest_path(tree):
    """Largest level-1 node, then its largest child (models without thresholds)."""
    nodes = tree["nodes"]
    def kids(parent):
        return [n for n, v in nodes.items() if v.get("kind") == "tree" and v.get("parent") == parent
                and isinstance(v.get("value"), (int, float))]
    path, parent = [], None
    for _ in range(2):
        k = kids(parent)
        if not k:
            break
        parent = max(k, key=lambda n: nodes[n]["value"])
        path.append(parent)
    return path
bad = 0
assert doc["simulated"] is True
for w in doc["run"]["workloads"]:
    c = w.get("counted")
    if not c:
        print(f"FAIL {model} {w['name']}: not counted ({w.get('reason')})"); bad = 1; continue
    t = c["tree"]
    path = t.get("bottleneck_path") or []
    if not path:
        path = largest_path(t)
    exp = expect[w["name"]]
    ok = all(i < len(path) and path[i] in alts or (i >= len(path) and None in alts)
             for i, alts in enumerate(exp))
    steps = [(s["level"], s["groups"], s["lower_bound"]) for s in c["steps"]]
    at_bound = all(g == b for _, g, b in steps)
    violated = [r["rule"] for r in c["consistency"] if r["state"] == "violated"]
    line = (f"{model:8} {w['name']:18} {' > '.join(path):60} "
            f"groups/bound per level {' '.join(f'{g}/{b}' for _, g, b in steps)}")
    if ok and at_bound and not violated:
        print("ok   " + line)
    else:
        bad = 1
        print("FAIL " + line + ("" if ok else "  (unexpected path)") +
              ("" if at_bound else "  (above the lower bound)") +
              (f"  (violated: {', '.join(violated[:3])})" if violated else ""))
print(f"     {model}: {len(doc['run']['workloads'])} workloads in {sys.argv[3]} s of QEMU")
sys.exit(bad)
PY
done
bash tests/suite/lib/esp-results-schema.sh "$out" || fail=1
exit $fail

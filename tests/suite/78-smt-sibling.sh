#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~2s
# The SMT sibling measured, not assumed, on the SIMULATED PMU of Haswell and
# Skylake-SP (SMT on, 4 general counters): every group carries
# ONE_THREAD_ACTIVE and REF_XCLK, and each tree takes the model's SMT
# branches or its per-thread ones from what they measured. The expected
# trees are computed here, independently, from the results file's own
# counts with Linux perf's level-1 formulas (tools/perf/pmu-events/arch/x86/
# {haswell,skylakex}/*-metrics.json, as ../shared/reference/intel/*/
# perf-format/ holds them): tma_info_core_core_clks (per thread, #core_wide
# < 1) = CPU_CLK_UNHALTED.THREAD / 2 * (1 + ONE_THREAD_ACTIVE / REF_XCLK),
# tma_info_thread_slots = 4 * core_clks, tma_frontend_bound =
# IDQ_UOPS_NOT_DELIVERED.CORE / slots, tma_bad_speculation = (UOPS_ISSUED.ANY
# - UOPS_RETIRED.RETIRE_SLOTS + 4 * (INT_MISC.RECOVERY_CYCLES_ANY / 2 if
# #SMT_on else INT_MISC.RECOVERY_CYCLES)) / slots, tma_retiring =
# UOPS_RETIRED.RETIRE_SLOTS / slots, backend the rest.
#   - busy sibling (--sim-sibling-active 1): HYPERTHREADING_ON = 1, the tree
#     equal to perf's with #SMT_on = 1 (1e-9), and not to the per-thread one;
#   - idle sibling (0): HYPERTHREADING_ON = 0, the tree equal to the
#     per-thread formulas (perf's with #SMT_on = 0) and to the tree of a run
#     that never sets the knob;
#   - half-busy (0.5): the tree flagged in the results and on the console.
set -uo pipefail
make -s -j2 host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
t0=$(date +%s.%N)

for model in HSW SKX; do
  for f in 1 0 0.5 none; do
    knob=(--sim-sibling-active "$f")
    [ "$f" = none ] && knob=()
    "$bin" run --sim="$model" -w branch-mispredict --quick --level 1 --reps 3 "${knob[@]}" \
      --results-dir "$work/$model-$f" >"$work/$model-$f.txt" 2>&1
    rc=$?
    # a flagged or inconsistent tree exits 1; anything else is a failure
    if [ $rc -gt 1 ]; then echo "FAIL $model f=$f: exit $rc"; sed 's/^/     /' "$work/$model-$f.txt" | tail -5; fail=1; fi
  done
  python3 - "$work" "$model" <<'PY' || fail=1
import glob, json, math, sys
work, model = sys.argv[1], sys.argv[2]

def load(f):
    d = json.load(open(glob.glob(f"{work}/{model}-{f}/*.json")[0]))
    return d['run']['workloads'][0]['counted']

def perf_level1(c, smt_on, per_thread_clks=False):
    ev = {k: v['median'] for k, v in c['events'].items()}
    ota = sum(r['one_thread_active'] for s in c['steps'] for r in s['run_log'])
    xclk = sum(r['ref_xclk'] for s in c['steps'] for r in s['run_log'])
    thread = ev['CPU_CLK_UNHALTED.THREAD']
    clks = thread if per_thread_clks else thread / 2 * (1 + ota / xclk)
    slots = 4 * clks
    rec = ev['INT_MISC.RECOVERY_CYCLES_ANY'] / 2 if smt_on else ev['INT_MISC.RECOVERY_CYCLES']
    fe = ev['IDQ_UOPS_NOT_DELIVERED.CORE'] / slots
    bs = (ev['UOPS_ISSUED.ANY'] - ev['UOPS_RETIRED.RETIRE_SLOTS'] + 4 * rec) / slots
    ret = ev['UOPS_RETIRED.RETIRE_SLOTS'] / slots
    return {'Frontend_Bound': fe, 'Bad_Speculation': bs, 'Retiring': ret,
            'Backend_Bound': 1 - fe - bs - ret}, 1 - ota / xclk

def worst(tree, want):
    return max(abs(tree[k] - v) / max(abs(v), 1e-12) for k, v in want.items())

ok = True
def say(good, text):
    global ok
    ok &= good
    print(('ok   ' if good else 'FAIL ') + f"{model}: " + text)

busy = load('1')
vals, f = perf_level1(busy, True)
smt = busy['tree'].get('smt', {})
e = worst(busy['tree']['values'], vals)
say(smt.get('hyperthreading_on') == 1 and abs(f - 1) < 1e-12 and e < 1e-9,
    f"busy sibling: measured {f:.3f} active, HYPERTHREADING_ON = {smt.get('hyperthreading_on')}, "
    f"tree = perf's SMT-aware formulas by hand (worst {e:.1e}): " +
    ", ".join(f"{k} {v:.4f}" for k, v in vals.items()))
pt, _ = perf_level1(busy, False, per_thread_clks=True)
e2 = worst(busy['tree']['values'], pt)
say(e2 > 0.1, f"busy sibling: the per-thread formulas on the same counts are off by {e2:.0%} "
    "(the check tells them apart)")

idle = load('0')
vals0, f0 = perf_level1(idle, False)
smt0 = idle['tree'].get('smt', {})
e0 = worst(idle['tree']['values'], vals0)
say(smt0.get('hyperthreading_on') == 0 and f0 == 0 and e0 < 1e-9,
    f"idle sibling: measured {f0:.3f}, HYPERTHREADING_ON = {smt0.get('hyperthreading_on')}, "
    f"tree = the per-thread formulas (worst {e0:.1e})")
never = load('none')
same = never['tree']['values'] == idle['tree']['values']
say(same, "idle sibling: the same tree as a run that never sets the knob")

half = load('0.5')
sm = half['tree'].get('smt', {})
say(sm.get('flagged') is True and abs(sm.get('sibling_active', 0) - 0.5) < 1e-9 and
    abs(sm.get('core_clks_error', 0) - 1 / 3) < 1e-9,
    f"half-busy sibling: flagged, core clocks {sm.get('core_clks_error', 0):.0%} off "
    f"(HYPERTHREADING_ON = {sm.get('hyperthreading_on')})")
groups = {r['group'] for s in busy['steps'] for r in s['run_log'] if 'one_thread_active' in r}
say(len(groups) == busy['steps'][0]['groups'],
    f"every group carries the probe ({len(groups)} of {busy['steps'][0]['groups']})")
sys.exit(0 if ok else 1)
PY
  if grep -q "SMT:.*FLAGGED" "$work/$model-0.5.txt" && grep -q "SMT sibling active, per group: 0: 50.0%" "$work/$model-0.5.txt"; then
    echo "ok   $model: the console says the measured fraction per group and FLAGGED"
  else
    echo "FAIL $model: no SMT line on the console"; fail=1
  fi
done
printf '     wall %.1f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)"
exit $fail

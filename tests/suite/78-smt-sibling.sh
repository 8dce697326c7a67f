#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# The SMT sibling measured, not assumed, on the SIMULATED PMU of Haswell and
# Skylake-SP (SMT on, 4 general counters): every group carries
# ONE_THREAD_ACTIVE, REF_XCLK is derived from fixed counter 2 (REF_TSC) at
# the ratio the part enumerates (Haswell: MSR_PLATFORM_INFO[15:8], the
# i7-4770's 34; Skylake-SP: CPUID.15H EBX/EAX, the i9-7900X's 276/2) and
# counted once to check it, and each tree takes the model's SMT branches or
# its per-thread ones from what all its runs measured. The expected trees
# are computed here, independently, from the results file's own counts with
# Linux perf's level-1 formulas (tools/perf/pmu-events/arch/x86/
# {haswell,skylakex}/*-metrics.json, as ../shared/reference/intel/*/
# perf-format/ holds them) on the runs that counted REF_XCLK itself:
# tma_info_core_core_clks (per thread, #core_wide < 1) =
# CPU_CLK_UNHALTED.THREAD / 2 * (1 + ONE_THREAD_ACTIVE / REF_XCLK),
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
#   - half-busy (0.5): the tree flagged in the results and on the console;
#   - the ratio: the one the part enumerates, and REF_XCLK's own count
#     agrees with it; a part whose reference clock is not what it says
#     (--sim-defect xclk-ratio:300, an idle sibling) is caught, named on
#     the console, and the counted ratio keeps the tree per-thread (at the
#     enumerated one it would read a busy sibling);
#   - replayed: the counts of each run (`counts`, then `replay`) give the
#     same SMT decision and the same tree.
set -uo pipefail
make -s -j2 host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
t0=$(date +%s.%N)

for model in HSW SKX; do
  for f in 1 0 0.5 none defect; do
    knob=(--sim-sibling-active "$f")
    [ "$f" = none ] && knob=()
    [ "$f" = defect ] && knob=(--sim-sibling-active 0 --sim-defect xclk-ratio:300)
    "$bin" run --sim="$model" -w branch-mispredict --quick --level 1 --reps 3 "${knob[@]}" \
      --results-dir "$work/$model-$f" >"$work/$model-$f.txt" 2>&1
    rc=$?
    # a flagged or inconsistent tree exits 1; anything else is a failure
    if [ $rc -gt 1 ]; then echo "FAIL $model f=$f: exit $rc"; sed 's/^/     /' "$work/$model-$f.txt" | tail -5; fail=1; fi
    res=$(ls "$work/$model-$f"/*.json 2>/dev/null | head -1)
    if [ -n "$res" ] && [ "$f" != none ]; then
      "$bin" counts "$res" --out-dir "$work/$model-$f.counts" >/dev/null 2>&1 &&
        "$bin" replay "$work/$model-$f.counts"/*.json --json="$work/$model-$f.replay.json" \
          >/dev/null 2>&1 || { echo "FAIL $model f=$f: counts, then replay"; fail=1; }
    fi
  done
  python3 - "$work" "$model" <<'PY' || fail=1
import glob, json, math, sys
work, model = sys.argv[1], sys.argv[2]
want_ratio = {'HSW': (34.0, 'MSR_PLATFORM_INFO[15:8]'), 'SKX': (138.0, 'CPUID.15H EBX/EAX')}[model]

def load(f):
    d = json.load(open(glob.glob(f"{work}/{model}-{f}/*.json")[0]))
    return d['run']['workloads'][0]['counted']

def runs(c):
    return [r for s in c['steps'] for r in s['run_log']]

def perf_level1(c, smt_on, per_thread_clks=False):
    ev = {k: v['median'] for k, v in c['events'].items()}
    # perf's ratio from counted events only: the runs that counted REF_XCLK
    chk = [r for r in runs(c) if 'ref_xclk' in r]
    ota = sum(r['one_thread_active'] for r in chk)
    xclk = sum(r['ref_xclk'] for r in chk)
    thread = ev['CPU_CLK_UNHALTED.THREAD']
    clks = thread if per_thread_clks else thread / 2 * (1 + ota / xclk)
    slots = 4 * clks
    rec = ev['INT_MISC.RECOVERY_CYCLES_ANY'] / 2 if smt_on else ev['INT_MISC.RECOVERY_CYCLES']
    fe = ev['IDQ_UOPS_NOT_DELIVERED.CORE'] / slots
    bs = (ev['UOPS_ISSUED.ANY'] - ev['UOPS_RETIRED.RETIRE_SLOTS'] + 4 * rec) / slots
    ret = ev['UOPS_RETIRED.RETIRE_SLOTS'] / slots
    return {'Frontend_Bound': fe, 'Bad_Speculation': bs, 'Retiring': ret,
            'Backend_Bound': 1 - fe - bs - ret}, 1 - ota / xclk

def pooled(c, ratio):
    # every run of every step, REF_XCLK derived from REF_TSC at the ratio
    rs = runs(c)
    return max(0, 1 - sum(r['one_thread_active'] for r in rs) / sum(r['ref_tsc'] / ratio for r in rs))

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
# REF_XCLK ticks once per tsc_per_xclk TSC ticks: whole ticks put the
# derived fraction within 1e-3 of the knob
say(sm.get('flagged') is True and abs(sm.get('sibling_active', 0) - 0.5) < 1e-3 and
    abs(sm.get('core_clks_error', 0) - 1 / 3) < 1e-3,
    f"half-busy sibling: flagged, core clocks {sm.get('core_clks_error', 0):.1%} off "
    f"(HYPERTHREADING_ON = {sm.get('hyperthreading_on')})")

groups = {r['group'] for s in busy['steps'] for r in s['run_log'] if 'one_thread_active' in r}
say(len(groups) == busy['steps'][0]['groups'],
    f"every group carries ONE_THREAD_ACTIVE ({len(groups)} of {busy['steps'][0]['groups']})")
xg = {r['group'] for r in runs(busy) if 'ref_xclk' in r}
say(len(xg) == 1, f"REF_XCLK counted in one group only ({sorted(xg)}), derived in the others")

for name, c in (('busy', busy), ('idle', idle), ('half-busy', half)):
    p = c['smt_probe']
    r = p['tsc_per_xclk']
    good = (r == want_ratio[0] and p['tsc_per_xclk_from'] == want_ratio[1] and
            abs(p['tsc_per_xclk_counted'] / r - 1) < 0.01 and not p['ratio_disagrees'] and
            abs(pooled(c, r) - c['tree']['smt']['sibling_active']) < 1e-12)
    say(good, f"{name}: REF_XCLK = REF_TSC / {r} ({p['tsc_per_xclk_from']}), counted "
        f"{p['tsc_per_xclk_counted']:.3f}; the tree's fraction is every run's, pooled")

bad = load('defect')
p = bad['smt_probe']
sb = bad['tree'].get('smt', {})
at_enum = 1 - sum(r['one_thread_active'] for r in runs(bad)) / \
    sum(r['ref_tsc'] / want_ratio[0] for r in runs(bad))
say(p['ratio_disagrees'] and abs(p["tsc_per_xclk_counted"] - 300) < 3 and
    p['tsc_per_xclk_from'] == 'counted' and sb.get('hyperthreading_on') == 0 and
    abs(sb.get('sibling_active', 1)) < 1e-3 and at_enum > 0.5,
    f"reference clock not as enumerated (xclk-ratio:300): counted {p['tsc_per_xclk_counted']:.2f}, "
    f"used; idle sibling {sb.get('sibling_active', float('nan')):.3f} (at the enumerated "
    f"{want_ratio[0]:g} it would read {at_enum:.2f})")

for f in ('1', '0', '0.5', 'defect'):
    run = load(f)['tree']
    rep = json.load(open(f"{work}/{model}-{f}.replay.json"))
    keys = ('Frontend_Bound', 'Bad_Speculation', 'Retiring', 'Backend_Bound')
    e = max(abs(rep['values'][k] - run['values'][k]) for k in keys)
    say(rep.get('smt', {}).get('hyperthreading_on') == run['smt']['hyperthreading_on'] and e < 1e-12,
        f"f={f}: replayed from its counts, the same decision (HYPERTHREADING_ON = "
        f"{rep.get('smt', {}).get('hyperthreading_on')}) and tree (worst {e:.1e})")
sys.exit(0 if ok else 1)
PY
  if grep -q "SMT:.*FLAGGED" "$work/$model-0.5.txt" && grep -q "SMT sibling active, per group: 0: 50.0%" "$work/$model-0.5.txt"; then
    echo "ok   $model: the console says the measured fraction per group and FLAGGED"
  else
    echo "FAIL $model: no SMT line on the console"; fail=1
  fi
  if grep -q "WARNING: REF_XCLK counted" "$work/$model-defect.txt"; then
    echo "ok   $model: the console names a reference clock that is not what the part enumerates"
  else
    echo "FAIL $model: no warning for the wrong reference clock"; fail=1
  fi
done
printf '     wall %.1f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)"
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# Every built-in model at every level, SMT off and on, and SMT on as a run
# plans it with the SMT sibling probe (where the formulas have SMT
# branches, Ivy Bridge .. Cascade Lake: both branches' events, counter 0
# reserved in every group for ONE_THREAD_ACTIVE, REF_XCLK derived from
# fixed counter 2 and counted once where a group has room for it), planned
# for the simulated PMU of its own microarchitecture: each plan must pass
# the independent validator and use as many groups as the lower bound.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
for smt in "" --smt --sibling-probe; do
  case "$smt" in
    "") echo "== SMT off" ;;
    --smt) echo "== SMT on" ;;
    *) echo "== SMT on, sibling probe (counter 0 reserved where the formulas have SMT branches)" ;;
  esac
  ./build/baretop-host plan --all-models $smt || fail=1
done
# The probe is really planned: SKX's level-1 groups carry ONE_THREAD_ACTIVE
# on counter 0, and REF_XCLK once (its group has room), no more.
out=$(./build/baretop-host plan --model SKX --level 1 --sibling-probe)
if grep -q "every group: general counter 0 = ONE_THREAD_ACTIVE" <<<"$out" &&
   [ "$(grep -c "CPU_CLK_UNHALTED.REF_XCLK\b" <<<"$out")" = 1 ]; then
  echo "ok   SKX with the sibling probe: counter 0 in every group, REF_XCLK in one"
else
  echo "FAIL SKX with the sibling probe: not counter 0 in every group and REF_XCLK once"; fail=1
fi
# Ice Lake counts its slots per thread (PERF_METRICS): no probe, the same
# plan as SMT on without it.
if [ "$(./build/baretop-host plan --model ICL --sibling-probe | tail -1)" = \
     "$(./build/baretop-host plan --model ICL --smt | tail -1)" ]; then
  echo "ok   ICL: no sibling probe (TOPDOWN.SLOTS and PERF_METRICS count per thread)"
else
  echo "FAIL ICL: planned with a sibling probe"; fail=1
fi
[ $fail -eq 0 ] && echo "ok   every model, every level: valid plans with groups = lower bound"
exit $fail

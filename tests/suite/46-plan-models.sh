#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# Every built-in model at every level, SMT off and on, and SMT on as a run
# plans it with the SMT sibling probe (both branches' events, counters 0
# and 3 reserved in every group on the PMUs without PERF_METRICS), planned
# for the simulated PMU of its own microarchitecture: each plan must pass
# the independent validator and use as many groups as the lower bound.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
for smt in "" --smt --sibling-probe; do
  case "$smt" in
    "") echo "== SMT off" ;;
    --smt) echo "== SMT on" ;;
    *) echo "== SMT on, sibling probe (counters 0 and 3 reserved where the PMU has no PERF_METRICS)" ;;
  esac
  ./build/baretop-host plan --all-models $smt || fail=1
done
# The probe is really planned: SKX's level-1 groups carry it.
if ./build/baretop-host plan --model SKX --level 1 --sibling-probe |
     grep -q "every group: general counters 0, 3 = ONE_THREAD_ACTIVE"; then
  echo "ok   SKX with the sibling probe: counters 0 and 3 in every group"
else
  echo "FAIL SKX with the sibling probe: no reserved probe counters in the plan"; fail=1
fi
[ $fail -eq 0 ] && echo "ok   every model, every level: valid plans with groups = lower bound"
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# Every built-in model at every level, SMT off and on, planned for the
# simulated PMU of its own microarchitecture: each plan must pass the
# independent validator and use as many groups as the lower bound.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
for smt in "" --smt; do
  echo "== SMT $([ -n "$smt" ] && echo on || echo off)"
  ./build/baretop-host plan --all-models $smt || fail=1
done
[ $fail -eq 0 ] && echo "ok   every model, every level: valid plans with groups = lower bound"
exit $fail

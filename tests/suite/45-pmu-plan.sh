#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# baretop-host plan: a realistic event file plans to groups == lower bound on
# several simulated PMUs, the JSON lists the assignment, and bad input exits
# non-zero with a message naming the wrong part.
set -euo pipefail
make -s -j"$(nproc)" host >/dev/null
bin=build/baretop-host
fail=0
for preset in skl nhm icl spr adl-e; do
  out=$($bin plan --events tests/data/pmu/skl-l1.events --preset "$preset" --json)
  read -r groups bound valid < <(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["groups"], d["lower_bound"], d["valid"])' <<<"$out")
  if [ "$valid" = True ] && [ "$groups" = "$bound" ]; then
    echo "ok   plan $preset: $groups groups = lower bound $bound"
  else
    echo "FAIL plan $preset: groups=$groups bound=$bound valid=$valid"; fail=1
  fi
done
if msg=$($bin plan --events tests/data/pmu/too-big-cmask.events 2>&1); then
  echo "FAIL plan accepted cmask=300"; fail=1
elif grep -q "cmask=300: counter mask is 8 bits" <<<"$msg"; then
  echo "ok   plan rejects cmask=300: $msg"
else
  echo "FAIL unexpected message: $msg"; fail=1
fi
exit $fail

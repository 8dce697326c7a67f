#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~45s
# Two published forms of every formula: Intel's perfmon native metrics file
# and Linux perf's conversion of the same tree, both evaluated by the
# independent Python evaluator (tests/oracle/forms.py over tma_oracle.py) on
# the same seeded random counts and on the counts of every shared vector
# (two recorded on real machines). Every node present in both must agree on
# every case, or be a vendor-file defect baretop corrects (its table,
# `baretop-host models --corrections`; baretop's value of the node must then
# equal the corrected text on every case, and the corrected text the perf
# form), or a documented intended difference. Prints, per model, the nodes
# compared, agreements, corrections and intended differences, then the table.
set -euo pipefail
ref=../shared/reference
if [ ! -d "$ref" ]; then
  echo "SKIP: $ref is absent (the comparison reads both vendor forms)"
  exit 77  # skipped
fi
[ -x build/baretop-host ] || make -s -j2 host >/dev/null
vec=../shared/testdata/tma
[ -d "$vec" ] || vec=tests/data/tma
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
python3 tests/oracle/forms.py --ref "$ref" --host build/baretop-host --vectors "$vec" \
  --per-model 18 --seed 1 >"$out" 2>&1 || rc=$?
cat "$out"
# The corrections the issue found must be among them, each proven.
for m in LNL-LNC ARL-LNC MTL-RWC; do
  for n in L3_Hit_Latency Contested_Accesses Data_Sharing; do
    if grep -Eq "^  $m +$n +[0-9]+/[0-9]+ +CORRECTED" "$out"; then
      echo "ok   $m $n corrected and equal to Linux perf's form"
    else
      echo "FAIL $m $n is not listed as corrected"; rc=1
    fi
  done
done
# Zero disagreements over zero comparisons would prove nothing.
n=$(sed -n 's/.* \([0-9]*\) nodes compared.*/\1/p' "$out")
if [ "${n:-0}" -lt 2000 ]; then
  echo "FAIL only ${n:-0} nodes compared"; rc=1
fi
if [ $rc -eq 0 ]; then
  echo "ok   every disagreement of the two published forms is corrected or documented"
else
  echo "FAIL the forms disagree where neither a correction nor a documented difference says why"
fi
exit $rc

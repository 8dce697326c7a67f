#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~12s
# Two published forms of every formula: Intel's perfmon native metrics file
# and Linux perf's conversion of the same tree, both evaluated by the
# independent Python evaluator (tests/oracle/forms.py over tma_oracle.py) on
# the same seeded random counts and on the counts of every shared vector
# (two recorded on real machines). Every event the two forms spell
# differently is first made one count (tests/oracle/spellings.py: :c1 and
# cmask=1, :ocr_msr_val= and @offcore_rsp=, :one_unit and cha_0, RAPL
# counters, equal encodings), so a spelling cannot hide a formula
# difference. Every node present in both must then agree on every case, or
# be a vendor-file defect baretop corrects (its table, `baretop-host models
# --corrections`; baretop's value of the node must equal the corrected text
# on every case, and the corrected text the perf form), or have its reason
# in tests/oracle/intended.tsv. Prints, per model, the nodes compared,
# agreements, corrections and intended differences, the spellings joined,
# the nodes they settled, and the table with each reason; then plants a
# defect behind a spelling the old rule called "another method" and
# requires it caught.
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
t0=$(date +%s)
rc=0
python3 tests/oracle/forms.py --ref "$ref" --host build/baretop-host --vectors "$vec" \
  --per-model 18 --seed 1 >"$out" 2>&1 || rc=$?
cat "$out"
# The corrections found so far must be among them, each proven.
for mn in LNL-LNC:L3_Hit_Latency LNL-LNC:Contested_Accesses LNL-LNC:Data_Sharing \
    ARL-LNC:L3_Hit_Latency ARL-LNC:Contested_Accesses ARL-LNC:Data_Sharing \
    MTL-RWC:L3_Hit_Latency MTL-RWC:Contested_Accesses MTL-RWC:Data_Sharing \
    EMR:Bottleneck_Data_Cache_Memory_Bandwidth EMR:Bottleneck_Data_Cache_Memory_Latency \
    EMR:Bottleneck_Other_Bottlenecks; do
  m=${mn%%:*} n=${mn#*:}
  if grep -Eq "^  $m +$n +[0-9]+/[0-9]+ +CORRECTED" "$out"; then
    echo "ok   $m $n corrected and equal to Linux perf's form"
  else
    echo "FAIL $m $n is not listed as corrected"; rc=1
  fi
done
# Zero disagreements over zero comparisons would prove nothing.
n=$(sed -n 's/.* \([0-9]*\) nodes compared.*/\1/p' "$out")
if [ "${n:-0}" -lt 2000 ]; then
  echo "FAIL only ${n:-0} nodes compared"; rc=1
fi
# A planted defect behind a harmonised spelling (SPR False_Sharing reads
# OCR.DEMAND_RFO.L3_MISS, spelled :ocr_msr_val= natively and @offcore_rsp=
# by perf) is caught, not filed as another method.
prc=0
python3 tests/oracle/forms.py --ref "$ref" --host build/baretop-host --vectors "$vec" --models SPR \
  --plant SPR:False_Sharing >"$out" 2>&1 || prc=$?
if [ $prc -ne 0 ] && grep -q '^FAIL SPR False_Sharing: .*no row of tests/oracle/intended.tsv explains it' "$out"; then
  echo "ok   a planted 1 % defect in SPR False_Sharing (behind the OCR spelling) is caught"
else
  echo "FAIL a planted defect in SPR False_Sharing was not caught"; cat "$out"; rc=1
fi
if [ $rc -eq 0 ]; then
  echo "ok   every disagreement of the two published forms is corrected or has its reason ($(( $(date +%s) - t0 )) s)"
else
  echo "FAIL the forms disagree where neither a correction nor a row of tests/oracle/intended.tsv says why"
fi
exit $rc

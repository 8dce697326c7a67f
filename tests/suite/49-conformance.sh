#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# PMU conformance against the SIMULATED PMU (issue 12, items 3 and 6b):
# tests/unit/validate/test-conformance on every preset with no defect (every
# check PASS or SKIP, SKIP only where the preset lacks the feature, the
# register file restored) and with each injectable defect (the FAIL set
# equals exactly the checks that defect must break, on every preset where it
# applies), counters left by firmware reported and restored, a faulting MSR
# named; then the defect x preset table. Also `--sim-defect=help` and a
# malformed --sim-defect refused with its message.
set -uo pipefail
make -s -j"$(nproc)" host tests >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
start=$(date +%s%N)
out=$(./build/host/tests/test-conformance 2>&1)
rc=$?
echo "$out" | grep -E '^(ok|not ok)' | sed 's/^/  /'
if [ $rc -ne 0 ]; then
    echo "$out" | grep -E '^#   tests/' | head -20
    echo "FAIL test-conformance (status $rc)"
    fail=1
fi
echo "$out" | grep -q '0 verdicts differing from the expected set' ||
    { echo "FAIL the defect matrix differs from the expected FAIL sets"; fail=1; }
# The defects at the register level, and their name parser.
if d=$(./build/host/tests/test-sim-defect 2>&1); then
    echo "ok: test-sim-defect: $(echo "$d" | grep -c '^ok') register-level defect and parser tests"
else
    echo "$d" | grep -E '^(not ok|#   tests/)'; echo "FAIL test-sim-defect"; fail=1
fi
echo "--- SIMULATED PMU: defect x preset (PASS/FAIL per check) ---"
echo "$out" | sed -n '/^# SIMULATED PMU: defect x preset/,$p' | grep '^#' | sed 's/^# \{0,1\}//'

help=$(./build/baretop-host run --sim-defect=help 2>&1)
n=$(echo "$help" | grep -c '^[a-z0-9-]*\(\[:[A-Z/]*\]\)\{0,1\}: ')
if [ "$n" -ne 11 ]; then
    echo "FAIL --sim-defect=help lists $n defects, expected 11"; fail=1
else
    echo "ok: --sim-defect=help lists $n defects"
fi
bad=$(./build/baretop-host run --sim=skl --sim-defect=stuck-counter:99 --no-results 2>&1)
brc=$?
if [ $brc -eq 0 ] || ! echo "$bad" | grep -q "expected stuck-counter\[:K\]"; then
    echo "FAIL a malformed --sim-defect was not refused with its message (status $brc): $bad"
    fail=1
else
    echo "ok: --sim-defect=stuck-counter:99 refused (status $brc): $(echo "$bad" | head -1)"
fi
end=$(date +%s%N)
echo "step time: $(( (end - start) / 1000000 )) ms"
[ $fail -eq 0 ] && echo "PASS conformance" || echo "FAIL conformance"
exit $fail

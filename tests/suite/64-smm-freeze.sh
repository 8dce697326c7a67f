#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~2s
# SMM and the counts, through the SIMULATED PMU: where the CPU offers
# IA32_PERF_CAPABILITIES[12] (the Skylake model's PMU does), baretop sets
# IA32_DEBUGCTL.FREEZE_WHILE_SMM for its counting and says so in the
# console and the results file; the Haswell model's PMU (a Nehalem-class
# preset without the bit) gets no DEBUGCTL write and no such claim. The
# register-level rules (read-modify-write, restore, #GP on a reserved bit)
# are unit-tested in tests/unit/pmu/test-pmu-smm.c.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for model in SKL HSW; do
  ./build/baretop-host run -w alu-independent --quick --reps 1 --warmups 0 --sim --model "$model" \
    --level 1 --results-dir "$work/$model" >"$work/$model.log" 2>&1 \
    || { echo "FAIL $model: exit status $?"; cat "$work/$model.log"; fail=1; continue; }
  python3 - "$work/$model/000001.json" "$work/$model.log" "$model" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
log = open(sys.argv[2]).read()
model = sys.argv[3]
assert r["simulated"] is True
steps = r["run"]["workloads"][0]["counted"]["steps"]
frozen = [s["smm_frozen"] for s in steps]
said = "FREEZE_WHILE_SMM" in log
want = model == "SKL"
if frozen != [want] * len(steps) or said != want:
    print(f"FAIL {model}: smm_frozen {frozen}, console mentions the freeze: {said}, expected {want}")
    sys.exit(1)
print(f"ok   {model}: counters {'frozen' if want else 'not frozen'} in SMM, and the output says so" if want
      else f"ok   {model}: no PERF_CAPABILITIES[12], no freeze claimed")
PY
done
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~70s
# The whole counting pipeline inside baretop.efi in QEMU, with the SIMULATED
# PMU selected explicitly and fed from a count file: the Top-Down tree in the
# results file must equal the vector's expected values (1e-9) and flags.
# One vector per PMU kind (tests/data/tma-sim, copies of oracle vectors whose
# counts a PMU can produce): SKL (perfmon v4), HSW with SMT on (AnyThread),
# SPR (perfmon v5, 8 PERF_METRICS fields), ADL-GRT (hybrid E-core), ZEN4
# (AMD PerfMonV2). And the counter health check in the EFI app: a stuck
# general counter named and left out, the bottleneck unchanged.
set -uo pipefail
out=build/qemu/sim-tree
mkdir -p "$out"
make -s -j"$(nproc)" efi >/dev/null || { echo "FAIL build"; exit 1; }
check=tests/qemu/check-tree.py
fail=0
for vec in tests/data/tma-sim/*.json; do
  name=$(basename "$vec" .json)
  esp_name=$(echo "$name" | tr -d -- '-' | cut -c1-8)
  t0=$(date +%s)
  bash qemu/run.sh --cpu Skylake-Client --out "$out/$name" --timeout 300 \
    --add "$vec=/tma/$esp_name.json" \
    --args "-w alu-independent --reps 2 --sim --counts \\tma\\$esp_name.json --level 6" \
    >/dev/null 2>"$out/$name.err"
  rc=$?
  secs=$(( $(date +%s) - t0 ))
  # exit 1 only for a violated consistency rule, its nodes untrusted (ZEN4
  # 000 counts 0 cycles or instructions: CPI divides by zero, the IPC rule
  # is violated and CPI untrusted); the tree must still equal the vector's
  if [ $rc -eq 1 ] && grep -q "^untrusted (" "$out/$name/console.txt" &&
     grep -qE "consistency: [0-9]+ rules held, [1-9][0-9]* violated" "$out/$name/console.txt"; then
    echo "     $name: exit status 1: a violated consistency rule, its nodes untrusted"
  elif [ $rc -ne 0 ]; then
    echo "FAIL $name: exit status $rc"; tail -25 "$out/$name/console.txt"; fail=1; continue
  fi
  if python3 "$check" "$out/$name/esp/baretop/results/000001.json" "$vec"; then
    echo "ok   $name: tree equals the vector's expected values (${secs}s in QEMU)"
  else
    fail=1
  fi
  grep -q "SIMULATED: every count below comes from the simulated PMU" "$out/$name/console.txt" \
    || { echo "FAIL $name: the console does not say the counts are simulated"; fail=1; }
done
# The model loaded at run time from Intel's perfmon files on the ESP (new
# silicon needs no rebuild) gives the same tree as the built-in one. The
# vendor files are copied onto the test ESP, never into the project.
ref=${BT_SHARED_REFERENCE:-../shared/reference}
if [ -f "$ref/intel/SKL/metrics/skylake_metrics.json" ]; then
  bash qemu/run.sh --cpu Skylake-Client --out "$out/model-files" --timeout 300 \
    --add "$ref/intel/SKL/metrics/skylake_metrics.json=/tma/sklmet.json" \
    --add "$ref/intel/SKL/events/skylake_core.json=/tma/sklev.json" \
    --add "tests/data/tma-sim/SKL-000.json=/tma/skl000.json" \
    --args '-w alu-independent --reps 2 --sim --counts \tma\skl000.json --level 6 --model-files \tma\sklmet.json,\tma\sklev.json' \
    >/dev/null 2>"$out/model-files.err"
  rc=$?
  if [ $rc -eq 0 ] && grep -q "loaded at run time from" "$out/model-files/console.txt" &&
     python3 "$check" "$out/model-files/esp/baretop/results/000001.json" tests/data/tma-sim/SKL-000.json; then
    echo "ok   --model-files: SKL loaded from vendor JSON on the ESP gives the same tree"
  else
    echo "FAIL --model-files (exit $rc)"; tail -20 "$out/model-files/console.txt"; fail=1
  fi
else
  echo "skip --model-files: $ref is absent"
fi
# The counter health check in baretop.efi (app/ is shared with the hosted
# run): a stuck general counter 1 of the simulated SKL is named on the
# console, left out of the plan (results: counter_health left_out_of_plan
# [1]) and the tree's bottleneck stays DRAM_Bound (ptr-chase-dram's).
bash qemu/run.sh --cpu Skylake-Client --out "$out/health" --timeout 300 \
  --args '--sim=skl --quick -w ptr-chase-dram --level 3 --reps 2 --sim-defect=stuck-counter:1' \
  >/dev/null 2>"$out/health.err"
rc=$?
hres="$out/health/esp/baretop/results/000001.json"
if [ $rc -eq 0 ] && grep -q "health        FAIL: general counter 1 (counted 0 of" "$out/health/console.txt" &&
   grep -q "bottleneck path: Backend_Bound > Memory_Bound > DRAM_Bound" "$out/health/console.txt" &&
   python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["run"]["counting"]["counter_health"]; sys.exit(not (h["verdict"] == "FAIL" and h["left_out_of_plan"] == [1]))' "$hres"; then
  echo "ok   EFI: --sim-defect=stuck-counter:1: counter 1 named, left out of the plan, DRAM_Bound stays the bottleneck"
else
  echo "FAIL EFI counter health (exit $rc)"; grep -E "^health|bottleneck" "$out/health/console.txt"; fail=1
fi
bash tests/suite/lib/esp-results-schema.sh "$out" || fail=1
exit $fail

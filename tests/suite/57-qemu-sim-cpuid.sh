#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~25s
# --sim-cpuid inside baretop.efi in QEMU: the simulated PMU answers CPUID as a
# CPU of a dump read from the ESP (tests/data/cpuid/ptl-subset.cpuid, the
# Panther Lake leaves). Expected by hand from its CPUID, as in the hosted step
# 44-sim-cpuid: the Darkmont E-core (CPU 4) gets ARCH with slots = 8 x cycles
# (SLOTS_PER_CYC) and Bad Speculation counted; the Cougar Cove P-core (CPU 0)
# gets ARCH, and with MSRs of a preset without PERF_METRICS (--sim=adl-e) its
# Bad Speculation is derived; level 1 sums to 100 % on both. The Elkhart
# Lake dump (tests/data/cpuid/ehl-subset.cpuid, Tremont: no architectural
# Top-Down events) gets TNT, level 1 from Tremont's own TOPDOWN events.
set -uo pipefail
out=build/qemu/sim-cpuid
mkdir -p "$out"
make -s -j"$(nproc)" efi >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
l1sum() { # console: the level-1 values of the one workload, summed
  python3 -c '
import re, sys
v = [float(m.group(1)) for l in open(sys.argv[1])
     for m in [re.match(r"\s{2}1\s+\w+\s+([\d.]+)%", l)] if m]
assert len(v) == 4, v
print(f"{sum(v):.2f}")' "$1"
}
for c in "e:ptl:@4::ARCH" "p:ptl:@0:--sim=adl-e:ARCH" "t:ehl:@0::TNT"; do
  IFS=: read -r name dump cpu extra model <<<"$c"
  rm -rf "$out/$name"
  bash qemu/run.sh --cpu Skylake-Client --out "$out/$name" --timeout 200 \
    --add "tests/data/cpuid/$dump-subset.cpuid=/$dump.cpuid" \
    --args "-w branch-mispredict --reps 2 --level 1 --sim-cpuid \\$dump.cpuid$cpu $extra" \
    >/dev/null 2>"$out/$name.err"
  rc=$?
  con=$out/$name/console.txt
  case $name in
    e) want="SLOTS_PER_CYC 8 x core cycles"; label="model ARCH (architectural (CPUID-enumerated)"; part="Panther Lake E-core" ;;
    p) want="Bad_Speculation derived, an approximation"; label="model ARCH (architectural (CPUID-enumerated)"; part="Panther Lake P-core" ;;
    t) want="bottleneck path: Bad_Speculation"; label="model TNT (Tremont model-specific Top-Down events"; part="Elkhart Lake (Tremont)" ;;
  esac
  s=$( [ -f "$con" ] && l1sum "$con" 2>/dev/null )
  if [ $rc -eq 0 ] && grep -q "$label" "$con" &&
     grep -q "$want" "$con" && grep -q "SIMULATED" "$con" &&
     # four values printed to 0.01 %: their sum is 100 within 4 x 0.005
     python3 -c "import sys; sys.exit(abs(float('$s') - 100) > 0.02 + 1e-9)" 2>/dev/null; then
    echo "ok   $part in QEMU (--sim-cpuid $dump$cpu $extra): $model, \"$want\", level 1 = $s %"
  else
    echo "FAIL $part in QEMU: status $rc, level 1 sum ${s:-none}"; fail=1
  fi
done
exit $fail

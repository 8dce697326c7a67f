#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~11s
# The architectural Top-Down model (ARCH, metrics/arch-model.c) counted through
# the simulated PMU, hosted: `baretop-host run --sim-cpuid FILE@CPU` answers
# CPUID as that CPU of a dump (tests/data/cpuid/ptl-subset.cpuid: the Panther
# Lake leaves, so no ../shared is needed). Expected by hand from CPUID and the
# rules: the Darkmont E-core (CPU 4, 23H.3 = 1F7Fh, 23H.0 ECX = 8) gets ARCH
# with slots = 8 x cycles and Bad Speculation counted; the Cougar Cove P-core
# (CPU 0, 1DFFh) gets ARCH from PERF_METRICS with the Lion Cove class's
# IA32_PERF_CAPABILITIES, and from the events with Bad Speculation derived when
# the MSRs are taken from a preset without PERF_METRICS (--sim=adl-e); level 1
# sums to 100 % on every one. ARCH forced on Lion Cove and Skymont (--sim=LNL-LNC,
# --sim=LNL-SKT --model ARCH) gives the full models' level 1 on the same
# workloads (the workload model drives the architectural events from the same
# slot quantities), within 0.5 points. Elkhart Lake (Tremont) gets TNT, its own
# TOPDOWN_* events over 4 x cycles. A metrics file without Top-Down metrics
# keeps them as Info under ARCH's (or TNT's) tree. A malformed dump: its line,
# status 2.
set -uo pipefail
make -s -j2 host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
ptl=tests/data/cpuid/ptl-subset.cpuid
wl="-w branch-mispredict -w ptr-chase-dram -w div-chain"

run() { # NAME ARGS...: console output in $work/NAME.out
  local name=$1; shift
  "$bin" run --quick --reps 1 --warmups 0 --level 1 $wl --results-dir "$work/$name.d" "$@" \
    >"$work/$name.out" 2>&1
}

# Level 1 per workload, "wl node value" lines, from the console's tables.
level1='
import re, sys
wl = None
for line in open(sys.argv[1]):
    m = re.match(r"\s{2}(\S+)\s+[\d.]+ ms per run", line)
    if m: wl = m.group(1)
    m = re.match(r"\s{2}1\s+(\w+)\s+([\d.]+)%", line)
    if m and wl: print(wl, m.group(1), m.group(2))
'
sum_ok() { # FILE: level 1 sums to 100 % for every workload
  python3 -c "$level1" "$1" | python3 -c '
import sys, collections
s = collections.defaultdict(float); n = collections.Counter()
for l in sys.stdin:
    w, node, v = l.split(); s[w] += float(v); n[w] += 1
assert len(s) == 3, dict(s)
for w in s:
    assert n[w] == 4 and abs(s[w] - 100) < 0.02, (w, s[w], n[w])
'
}

if run ptl-e --sim-cpuid "$ptl@4" && grep -q "model ARCH (architectural (CPUID-enumerated))" "$work/ptl-e.out" &&
   grep -q "SLOTS_PER_CYC 8 x core cycles" "$work/ptl-e.out" &&
   grep -q "Bad_Speculation counted (73H/00H)" "$work/ptl-e.out" &&
   grep -q "IA32_PERF_CAPABILITIES and the other MSRs as baretop's simulated adl-e" "$work/ptl-e.out" &&
   sum_ok "$work/ptl-e.out"; then
  echo "ok   Panther Lake E-core (--sim-cpuid @4): ARCH, 8 x cycles, Bad Speculation counted, level 1 = 100 %"
else
  echo "FAIL Panther Lake E-core"; tail -5 "$work/ptl-e.out"; fail=1
fi
if run ptl-p --sim-cpuid "$ptl@0" && grep -q "model ARCH" "$work/ptl-p.out" &&
   grep -q "PERF_METRICS (8 fields) over fixed counter 3" "$work/ptl-p.out" &&
   grep -q "simulated lnl-p (same core class: Lion Cove)" "$work/ptl-p.out" && sum_ok "$work/ptl-p.out"; then
  echo "ok   Panther Lake P-core (--sim-cpuid @0): ARCH from PERF_METRICS (MSRs as lnl-p), level 1 = 100 %"
else
  echo "FAIL Panther Lake P-core"; tail -5 "$work/ptl-p.out"; fail=1
fi
if run ptl-p-nopm --sim-cpuid "$ptl@0" --sim=adl-e && grep -q "slots = Topdown Slots" "$work/ptl-p-nopm.out" &&
   grep -q "Bad_Speculation derived, an approximation" "$work/ptl-p-nopm.out" &&
   grep -q "simulated adl-e (named with --sim)" "$work/ptl-p-nopm.out" && sum_ok "$work/ptl-p-nopm.out"; then
  echo "ok   Panther Lake P-core without PERF_METRICS: Topdown Slots, Bad Speculation derived, level 1 = 100 %"
else
  echo "FAIL Panther Lake P-core without PERF_METRICS"; tail -5 "$work/ptl-p-nopm.out"; fail=1
fi

# Tremont (Elkhart Lake, 6-96: CPUID.0AH length 7, no leaf 23H, so neither a
# published model nor ARCH): TNT, level 1 from Tremont's own TOPDOWN_* events
# (Linux core.c: 71H/00H, 73H/06H, 74H/00H, C2H/00H) over 4 x cycles, chosen by
# core lineage. Expected by hand: the label, branch-mispredict's largest node
# Bad_Speculation, ptr-chase-dram's (a DRAM-latency chase) Backend_Bound, level
# 1 = 100 %. The tests/data subset always; the full reference dump when present.
largest='
import re, sys
wl = None; best = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s{2}(\S+)\s+[\d.]+ ms per run", line)
    if m: wl = m.group(1)
    m = re.match(r"\s{2}1\s+(\w+)\s+([\d.]+)%", line)
    if m and wl and float(m.group(2)) > best.get(wl, ("", -1))[1]:
        best[wl] = (m.group(1), float(m.group(2)))
assert best["branch-mispredict"][0] == "Bad_Speculation", best
assert best["ptr-chase-dram"][0] == "Backend_Bound", best
print(", ".join(f"{w} {n} {v:.2f}%" for w, (n, v) in sorted(best.items())))
'
for ehl in tests/data/cpuid/ehl-subset.cpuid \
           "${BT_SHARED_CPUID:-../shared/reference/cpuid}/GenuineIntel0090661_ElkhartLake_CPUID01.cpuid"; do
  [ -f "$ehl" ] || { echo "skip $ehl: not found"; continue; }
  name=ehl-$(basename "$ehl" .cpuid)
  if run "$name" --sim-cpuid "$ehl" &&
     grep -q "counting: model TNT (Tremont model-specific Top-Down events (Linux core.c); selected from the simulated CPU's CPUID (GenuineIntel-6-96-1" "$work/$name.out" &&
     grep -q "CPU_CLK_UNHALTED.CORE (Tremont's 4-wide" "$work/$name.out" &&
     sum_ok "$work/$name.out" && top=$(python3 -c "$largest" "$work/$name.out"); then
    echo "ok   Elkhart Lake ($(basename "$ehl")): TNT, level 1 = 100 %; largest: $top"
  else
    echo "FAIL Elkhart Lake TNT ($ehl)"; grep -m3 "counting\|no built-in\|FAIL" "$work/$name.out"; fail=1
  fi
done

# The simulated Tremont by name (--sim=TNT: Elkhart Lake's CPUID) gets its model;
# --list-models and `baretop-host models` name TNT; models says why ARCH has no row.
# (the listings go to files first: `grep -q` stops reading at its match,
# and under pipefail the writer's SIGPIPE would fail the pipeline)
"$bin" run --list-models >"$work/list-models.txt" 2>&1
"$bin" models >"$work/models.txt" 2>&1
if run tnt --sim=TNT && grep -q "counting: model TNT (Tremont model-specific Top-Down events (Linux core.c); the model of the simulated CPU (--sim=TNT)), SIMULATED baretop sim: Elkhart Lake PMU (Tremont, perfmon v5) PMU: 4 general counters, fixed mask 0x7" "$work/tnt.out" &&
   sum_ok "$work/tnt.out" && python3 -c "$largest" "$work/tnt.out" >/dev/null &&
   grep -q "^  TNT      Tremont model-specific Top-Down events (Linux core.c)" "$work/list-models.txt" &&
   grep -q "^TNT .* 4 .*  4  " "$work/models.txt" && grep -q "^ARCH, the architectural model" "$work/models.txt"; then
  echo "ok   --sim=TNT: TNT on 4 general counters, fixed 0-2; --list-models and models name it (models: why ARCH is not a row)"
else
  echo "FAIL --sim=TNT / --list-models"; grep -m2 "counting" "$work/tnt.out"; fail=1
fi

# ARCH next to the full models on the same simulated workloads.
for m in LNL-LNC LNL-SKT; do
  run "$m" --sim="$m" && run "$m-arch" --sim="$m" --model ARCH
  python3 -c "$level1" "$work/$m.out" >"$work/$m.l1"
  python3 -c "$level1" "$work/$m-arch.out" >"$work/$m-arch.l1"
  if grep -q "model ARCH" "$work/$m-arch.out" && python3 - "$work/$m.l1" "$work/$m-arch.l1" <<'PY'
import sys
full = {tuple(l.split()[:2]): float(l.split()[2]) for l in open(sys.argv[1])}
arch = {tuple(l.split()[:2]): float(l.split()[2]) for l in open(sys.argv[2])}
assert len(full) == 12 and set(full) == set(arch), (full, arch)
for k in full:
    assert abs(full[k] - arch[k]) <= 0.5, (k, full[k], arch[k])
print("# " + ", ".join(f"{w} {n} {full[(w, n)]:.2f}/{arch[(w, n)]:.2f}" for w, n in sorted(full) if w == "ptr-chase-dram"))
PY
  then
    echo "ok   $m and --model ARCH agree on level 1 (3 workloads, <= 0.5 points)"
  else
    echo "FAIL $m vs ARCH"; tail -3 "$work/$m-arch.out"; fail=1
  fi
done

# A metrics file without Top-Down metrics, as Intel's first Clearwater Forest
# file: made here from Sierra Forest's file, its non-TMA metrics only and
# TmaVersion empty (skipped without ../shared). Its metrics are kept as Info and
# the tree comes from ARCH (the Darkmont E-core of the Panther Lake dump), or
# from TNT on Elkhart Lake (Tremont's own events); with no model for the CPU at
# all (Haswell-EP, 6-3F: no built-in model, no architectural Top-Down events) it
# says that nothing would be measured.
srf=${BT_SHARED_INTEL:-../shared/reference/intel}/SRF
if [ -f "$srf/metrics/sierraforest_metrics.json" ]; then
  python3 - "$srf/metrics/sierraforest_metrics.json" "$work/notma.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["Metrics"] = [m for m in d["Metrics"] if m.get("Category") != "TMA"]
d["Header"]["TmaVersion"] = ""
assert d["Metrics"]
json.dump(d, open(sys.argv[2], "w"))
PY
  files="$work/notma.json,$srf/events/sierraforest_core.json"
  if run notma --sim-cpuid "$ptl@4" --model-files "$files" &&
     grep -q "has no Top-Down metric: its [1-9][0-9]* metrics kept as Info" "$work/notma.out" &&
     grep -q "the tree from ARCH" "$work/notma.out" && sum_ok "$work/notma.out"; then
    echo "ok   metrics file without Top-Down metrics: $(grep -o 'its [0-9]* metrics kept as Info' "$work/notma.out" | head -1), the tree from ARCH"
  else
    echo "FAIL metrics file without Top-Down metrics"; grep -m2 "counting\|no counts" "$work/notma.out"; fail=1
  fi
  shared_cpuid=${BT_SHARED_CPUID:-../shared/reference/cpuid}
  elk=$shared_cpuid/GenuineIntel0090661_ElkhartLake_CPUID01.cpuid
  if [ -f "$elk" ]; then
    if run notma-tnt --sim-cpuid "$elk" --model-files "$files" &&
       grep -q "has no Top-Down metric: its [1-9][0-9]* metrics kept as Info" "$work/notma-tnt.out" &&
       grep -q "the tree from TNT" "$work/notma-tnt.out" && sum_ok "$work/notma-tnt.out"; then
      echo "ok   ... on Elkhart Lake the tree from TNT (Tremont's own events)"
    else
      echo "FAIL metrics file without Top-Down metrics on Elkhart Lake"
      grep -m2 "counting\|no counts" "$work/notma-tnt.out"; fail=1
    fi
  fi
  hsx=$shared_cpuid/GenuineIntel00306F2_HaswellEP_00_CPUID.cpuid
  if [ -f "$hsx" ]; then
    run notree --sim-cpuid "$hsx" --model-files "$files"
    if grep -q "no Top-Down metric in it .* nothing would be measured" "$work/notree.out" &&
       ! grep -q "counted (SIMULATED PMU)" "$work/notree.out"; then
      echo "ok   ... and with no model for the CPU (Haswell-EP): nothing counted, said so"
    else
      echo "FAIL no tree at all"; grep -m2 "counting\|no counts" "$work/notree.out"; fail=1
    fi
  fi
else
  echo "skip metrics file without Top-Down metrics: $srf not found"
fi

printf 'cpus 0\n00000000.00 00000020 756E6547 6C65746E 49656E69\n0000000A.00 0730 0 0 0\n' >"$work/bad.cpuid"
"$bin" run --sim-cpuid "$work/bad.cpuid" -w branch-mispredict >"$work/bad.out" 2>&1; rc=$?
if [ "$rc" -eq 2 ] && grep -q "bad.cpuid: line 3:" "$work/bad.out"; then
  echo "ok   malformed dump: status 2, $(grep -m1 'line 3' "$work/bad.out")"
else
  echo "FAIL malformed dump: status $rc"; fail=1
fi
"$bin" run --sim-cpuid "$ptl@9" -w branch-mispredict >"$work/nocpu.out" 2>&1; rc=$?
if [ "$rc" -ne 0 ] && grep -q "no logical CPU 9 in the dump" "$work/nocpu.out"; then
  echo "ok   a CPU the dump lacks: refused"
else
  echo "FAIL CPU 9: status $rc"; fail=1
fi
# A CPU number is digits only: strtoul alone would read "+1" and " 1" as 1.
for cpu in '+1' ' 1' '-1' '1x' ''; do
  "$bin" run --sim-cpuid "$ptl@$cpu" -w branch-mispredict >"$work/badcpu.out" 2>&1; rc=$?
  if [ "$rc" -eq 2 ] && grep -q "is not a logical CPU number" "$work/badcpu.out"; then
    echo "ok   --sim-cpuid FILE@'$cpu': status 2, not a logical CPU number"
  else
    echo "FAIL --sim-cpuid FILE@'$cpu': status $rc: $(head -c 200 "$work/badcpu.out")"; fail=1
  fi
done
exit $fail

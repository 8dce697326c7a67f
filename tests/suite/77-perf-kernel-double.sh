#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~2s
# The perf_event backend planned for the running kernel's facts, against a
# kernel double written from Linux's source (SIMULATED: no real kernel;
# tests/unit/lib/perf-kernel-double.c), each release with its own
# extra_regs masks and constraint tables. Every model's plan (levels 1-3
# and full, SMT on and off) for the CPUs of each kernel tree in
# tests/data/sysfs (SKX, HSW, ADL hybrid P and E, LNL on 6.6, 6.11, 6.12.7,
# 6.12.9 and 6.14, ARL-H with cpu_lowpower, MTL on 6.3 and 6.8, Genoa, a
# KVM guest, the guest again with a host event filter whose denied events
# read 0) must open and schedule pinned with the NMI watchdog and count, or
# have its events refused before counting by name: the table model x
# flavour -> groups, refused, errors, with errors = 0 (test-perf-kernel),
# and the refusals by name. A hybrid thread moved between detection and
# counting counts on the right kind (test-perf-pmu, SIMULATED CPUs), and
# the smaller kernel rules hold (test-perf-facts). Then the command a
# user runs: `plan --backend=perf --json` for an ADL E-core (cpu_atom's
# type on every event) and for LNL on 6.6 (umask2/eq events refused by
# name, exit 1: incomplete), checked here against the trees' own files; a
# CPU, model or kernel of the other vendor is refused (exit 2).
set -uo pipefail
make -s -j2 host tests >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

if build/host/tests/test-perf-kernel >"$work/unit" 2>&1; then
  echo "ok   test-perf-kernel: $(grep -c '^ok' "$work/unit") tests (facts reader, each rule of the double, every plan under every flavour, old plans fail)"
else
  echo "FAIL test-perf-kernel"; grep -v '^ok' "$work/unit" | head -20 | sed 's/^/     /'; fail=1
fi
echo "     SIMULATED kernel (the double): model x flavour, levels 1,2,3,full x SMT on,off"
grep '^# table' "$work/unit" | sed 's/^# table /     /'
bad=$(grep '^# table' "$work/unit" | awk 'NR > 1 && $8 != 0' | wc -l)
rows=$(grep -c '^# table' "$work/unit")
echo "     refused by name (first of each; full plan, SMT off):"
grep '^# refused' "$work/unit" | cut -c1-230 | sed 's/^# refused /     /'
for t in test-perf-pmu test-perf-facts; do
  if build/host/tests/$t >"$work/$t" 2>&1; then
    echo "ok   $t: $(grep -c '^ok' "$work/$t") tests"
  else
    echo "FAIL $t"; grep -v '^ok' "$work/$t" | head -20 | sed 's/^/     /'; fail=1
  fi
done
grep '^# CPU' "$work/test-perf-pmu" | sed 's/^# /     hybrid migration (ADL tree, SIMULATED CPUs): /'
if [ "$rows" -ge 24 ] && [ "$bad" -eq 0 ]; then
  echo "ok   $((rows - 1)) rows, errors = 0 in every row"
else
  echo "FAIL $((rows - 1)) rows, $bad with errors"; fail=1
fi

# ADL E-core: every event with cpu_atom's type, as the tree says it.
atom_type=$(cat tests/data/sysfs/adl-6.6/sys/bus/event_source/devices/cpu_atom/type)
"$bin" plan --backend=perf --kernel-root tests/data/sysfs/adl-6.6 \
  --cpuid tests/data/cpuid/adl-subset.cpuid@12 --json="$work/adl-e.json" || { echo "FAIL plan ADL E-core"; fail=1; }
python3 - "$work/adl-e.json" "$atom_type" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); want = int(sys.argv[2])
types = {e['type'] for g in d['groups'] for e in g['events']}
n = sum(len(g['events']) for g in d['groups'])
leaders = all(g['events'][0]['pinned'] and not any(e['pinned'] for e in g['events'][1:]) for g in d['groups'])
ok = d['model'] == 'ADL-GRT' and d['kernel']['pmu'] == 'cpu_atom' and types == {want} and leaders
print(('ok  ' if ok else 'FAIL') + f" ADL E-core (CPU {d['cpu']}): model {d['model']}, PMU {d['kernel']['pmu']}, "
      f"{len(d['groups'])} groups, {n} events, types {sorted(types)} (cpu_atom/type = {want}), leaders pinned: {leaders}")
sys.exit(0 if ok else 1)
PY
# LNL on 6.6: no umask2/eq formats, so those events are refused by name,
# and the plan is incomplete: exit 1 and "valid": false (`plan --help`).
"$bin" plan --backend=perf --kernel-root tests/data/sysfs/lnl-6.6 \
  --cpuid tests/data/cpuid/lnl-subset.cpuid@0 --json="$work/lnl.json"
rc=$?
if [ "$rc" -eq 1 ] && grep -q '"valid": false' "$work/lnl.json"; then
  echo "ok   LNL on 6.6 with refused events: exit 1, \"valid\": false"
else
  echo "FAIL plan LNL 6.6 with refused events: exit $rc, $(grep -o '"valid": [a-z]*' "$work/lnl.json")"; fail=1
fi
ls tests/data/sysfs/lnl-6.6/sys/bus/event_source/devices/cpu/format/ >"$work/formats"
python3 - "$work/lnl.json" "$work/formats" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); formats = open(sys.argv[2]).read().split()
r = d['refused']
u2 = [x['event'] for x in r if 'umask2 (config:40-47)' in x['why']]
eq = [x['event'] for x in r if 'eq (config:36)' in x['why']]
ok = 'eq' not in formats and u2 and eq and d['kernel']['release'].startswith('6.6')
print(('ok  ' if ok else 'FAIL') + f" LNL P-core on Linux {d['kernel']['release']} (formats: {' '.join(formats)}): "
      f"{len(d['groups'])} groups, {len(r)} refused; umask2: {', '.join(u2)}; eq: {', '.join(eq)}")
sys.exit(0 if ok else 1)
PY
# The CPU, the model and the kernel's PMU driver of one vendor, or nothing
# is planned: Linux's AMD driver exports event as config:0-7,32-35, the
# Intel one config:0-7 (the trees' own format files, read here).
grep -q '32-35' tests/data/sysfs/genoa-6.6/sys/bus/event_source/devices/cpu/format/event &&
  ! grep -q '32-35' tests/data/sysfs/skx-6.6/sys/bus/event_source/devices/cpu/format/event ||
  { echo "FAIL the trees' event formats are not AMD's and Intel's"; fail=1; }
for c in "skx-6.6 skx --model ZEN4" "skx-6.6 genoa" "genoa-6.6 skx"; do
  set -- $c
  "$bin" plan --backend=perf --kernel-root "tests/data/sysfs/$1" --cpuid "tests/data/cpuid/$2-subset.cpuid@0" \
    ${3:-} ${4:-} >"$work/v.out" 2>"$work/v.err"
  rc=$?
  if [ "$rc" -eq 2 ] && [ ! -s "$work/v.out" ] && grep -q 'AMD' "$work/v.err" && grep -q 'Intel' "$work/v.err"; then
    echo "ok   $1 kernel, $2 CPU ${3:-} ${4:-}: exit 2, $(cut -c1-110 "$work/v.err")"
  else
    echo "FAIL $1 kernel, $2 CPU ${3:-} ${4:-}: exit $rc: $(head -c 200 "$work/v.err")"; fail=1
  fi
done
# ARL-H low-power E-core (CPU 14): cpu_lowpower's own type on every event.
lp_type=$(cat tests/data/sysfs/arlh-6.13/sys/bus/event_source/devices/cpu_lowpower/type)
"$bin" plan --backend=perf --kernel-root tests/data/sysfs/arlh-6.13 \
  --cpuid tests/data/cpuid/arlh-subset.cpuid@14 --json="$work/arlh.json" || { echo "FAIL plan ARL-H LP E-core"; fail=1; }
python3 - "$work/arlh.json" "$lp_type" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1])); want = int(sys.argv[2])
types = {e['type'] for g in d['groups'] for e in g['events']}
ok = d['model'] == 'MTL-CMT' and d['kernel']['pmu'] == 'cpu_lowpower' and types == {want}
print(('ok  ' if ok else 'FAIL') + f" ARL-H low-power E-core (CPU {d['cpu']}): model {d['model']}, PMU {d['kernel']['pmu']} "
      f"({d['kernel']['pmu_name']}), {len(d['groups'])} groups, types {sorted(types)} (cpu_lowpower/type = {want})")
sys.exit(0 if ok else 1)
PY
# The real kernel: run --backend=perf next to perf stat only where Linux
# exposes a PMU to this process.
if "$bin" run --backend=perf --no-results --no-workloads >/dev/null 2>"$work/probe"; then
  echo "     this machine exposes a PMU: run 'baretop-host run --backend=perf --quick' next to 'perf stat -M TopdownL1' (not automated here)"
else
  echo "skip run --backend=perf next to perf stat -M TopdownL1: $(head -c 200 "$work/probe")"
fi
exit $fail

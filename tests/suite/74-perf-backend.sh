#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# `baretop-host run --backend=perf` on a machine whose PMU Linux exposes:
# counts by the kernel's perf_event driver, not baretop's. Whether there is
# one is decided by perf_event_open of instructions made independently of
# baretop (tests/suite/lib/perf-probe.py; never an MSR probe). Without one
# the step checks that baretop says the same in one line naming the errno
# and perf_event_paranoid, then prints exactly one line, "skipped: no PMU
# exposed to Linux (REASON)", and exits 77.
#
# With one, it asserts only what any working PMU satisfies, so a noisy
# virtual PMU cannot make it flaky:
#   - the known-count kernels at n and 2n (build/kernel-census declare):
#     retired instructions (raw C0H), corrected for the calibration window
#     (kernel `empty`, as the validation engine does), equal the declared
#     count minus empty's within the measured overhead plus the runs'
#     spread, and the 2n - n difference (where the overhead cancels) within
#     the spread;
#   - the default quick suite at --level 6 (every planned group of the
#     host's model) runs with every group opened pinned, never multiplexed
#     (a group that cannot be scheduled fails its workload), each counted
#     workload has a tree, and every output names the kernel's driver and
#     never says "bare metal";
# and reports as figures: branches (C4H Intel, C2H AMD) against the
# declared counts, the trees of multiply1/2/3, ptr-chase-dram and
# stream-read with their consistency verdicts, and baretop's level 1 next
# to `perf stat -M TopdownL1` (AMD: PipelineL1) on the same workload. The
# results files are kept under build/perf-results/ (real-PMU test data,
# with their provenance).
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

probe=$(python3 tests/suite/lib/perf-probe.py)
"$bin" run --backend=perf --no-workloads --no-results >"$work/probe.out" 2>"$work/probe.err"
rc=$?
if [ "$probe" != ok ]; then
  # baretop must agree, in one line: the errno and perf_event_paranoid.
  errname=${probe%%:*}
  paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo unreadable)
  line=$(cat "$work/probe.err")
  if [ "$rc" -eq 0 ] || [ "$(wc -l <"$work/probe.err")" -ne 1 ] ||
     ! grep -q -- "--backend=perf: perf_event_open(instructions) failed with $errname " "$work/probe.err" ||
     ! grep -q -- "perf_event_paranoid = $paranoid\$" "$work/probe.err"; then
    echo "FAIL probe says \"$probe\" (paranoid $paranoid), baretop-host run --backend=perf: status $rc, stderr: $line"
    exit 1
  fi
  echo "skipped: no PMU exposed to Linux (${line#*--backend=perf: })"
  exit 77
fi
if [ "$rc" -ne 0 ]; then
  echo "FAIL perf_event_open of instructions works here, but run --backend=perf: status $rc: $(head -2 "$work/probe.err")"
  exit 1
fi
fail=0
keep=build/perf-results/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$keep"
vendor=$(awk -F': ' '/^vendor_id/ {print $2; exit}' /proc/cpuinfo)
if [ "$vendor" = AuthenticAMD ]; then branch=rC2; l1group=PipelineL1; else branch=rC4; l1group=TopdownL1; fi

# 1. The known-count kernels at n and 2n.
build/kernel-census declare >"$work/declare.txt" || { echo "FAIL kernel-census declare"; exit 1; }
python3 - "$work/declare.txt" "$branch" >"$work/spec.json" <<'EOF'
import json, sys
kernels, checks = [], []
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == 'kernel' and f[1] != 'empty':
        kernels.append((f[1], int(f[3]), int(f[4])))
for name, n1, n2 in kernels:
    for n in (n1, n2):
        # tolerance 100 %: the verdict is this step's (below), not the spec's.
        checks.append({"event": "rC0", "kernel": name, "n": n, "expect": {"exact": "k.instructions"},
                       "tolerance_pct": 100})
        checks.append({"event": sys.argv[2], "kernel": name, "n": n, "expect": {"exact": "k.branches"},
                       "tolerance_pct": 100, "plausibility": True})
json.dump({"format": "baretop-validate-spec", "checks": checks}, sys.stdout, indent=1)
EOF
"$bin" run --backend=perf --validate --validate-spec "$work/spec.json" --results-dir "$work/k" \
  >"$work/k.log" 2>&1
cp "$work"/k/*.json "$keep/" 2>/dev/null
kres=$(ls "$work"/k/*.json 2>/dev/null | head -1)
[ -n "$kres" ] || { echo "FAIL kernels: no results file: $(grep -m1 -- '--backend=perf' "$work/k.log")"; exit 1; }
python3 - "$work/declare.txt" "$kres" "$branch" <<'EOF' || fail=1
import json, sys
decl, n_of = {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == 'kernel':
        n_of[f[1]] = (int(f[3]), int(f[4]))
    elif f and f[0] == 'count':
        decl[(f[1], f[2])] = (int(f[3]), int(f[4]))
doc = json.load(open(sys.argv[2]))
print('     ' + doc['validation']['pmu'])
checks = doc['validation']['checks']
bad = 0
def expected(kernel, count, n):
    if (kernel, count) not in decl or ('empty', count) not in decl:
        return None
    i = n_of[kernel].index(n)
    return decl[(kernel, count)][i] - decl[('empty', count)][0]
got = {}
for c in checks:
    k = c['kernel'].split()[0] if c.get('kernel') else ''
    got[(c['event'], k, c['n'])] = c
print(f'     {"kernel":<22} {"n":>9} {"declared":>12} {"counted":>12} {"min..max":>23} {"overhead":>8}  (instructions)')
for k, (n1, n2) in n_of.items():
    if k == 'empty':
        continue
    rows = []
    for n in (n1, n2):
        c, e = got.get(('rC0', k, n)), expected(k, 'instructions', n)
        if not c or 'median' not in c or e is None:
            print(f'     {k:<22} {n:>9} skipped: {c["detail"] if c else "no check"}')
            rows = None
            break
        spread, over = c['max'] - c['min'], c['overhead']
        ok = abs(c['median'] - e) <= over + spread
        print(f'{"ok  " if ok else "FAIL"} {k:<22} {n:>9} {e:>12} {c["median"]:>12} {c["min"]:>11}..{c["max"]:<11} {over:>8}')
        bad += not ok
        rows.append((c, e))
    if rows:
        (c1, e1), (c2, e2) = rows
        d, de = c2['median'] - c1['median'], e2 - e1
        tol = (c1['max'] - c1['min']) + (c2['max'] - c2['min'])
        ok = abs(d - de) <= tol
        print(f'{"ok  " if ok else "FAIL"} {k:<22} 2n - n: counted {d}, declared {de} (spread {tol})')
        bad += not ok
print(f'     branches ({sys.argv[3]}), figures only:')
for k, (n1, n2) in n_of.items():
    for n in (n1, n2):
        c, e = got.get((sys.argv[3], k, n)), expected(k, 'branches', n)
        if c and 'median' in c and e is not None:
            print(f'     {k:<22} {n:>9} declared {e:>10} counted {c["median"]:>10}')
sys.exit(1 if bad else 0)
EOF

# 2. Every planned group of the model, the default quick suite, level 6.
"$bin" run --backend=perf --quick --level 6 --results-dir "$work/t" >"$work/t.log" 2>&1
rc=$?
cp "$work"/t/*.json "$keep/" 2>/dev/null
# Refused before counting (no Top-Down model for this CPU...): not the
# PMU's failure, and nothing more to check.
if [ $rc -ne 0 ] && grep -q -- "^baretop-host run: --backend=perf: " "$work/t.log"; then
  echo "     the trees were not counted: $(grep -m1 -- "^baretop-host run: --backend=perf: " "$work/t.log")"
  echo "     results kept in $keep"
  exit $fail
fi
if [ $rc -eq 0 ]; then
  echo "ok   run --backend=perf --quick --level 6: status 0 (every group opened pinned, none multiplexed)"
else
  echo "FAIL run --backend=perf --quick --level 6: status $rc"; grep -i "fail\|error\|could not" "$work/t.log" | head -5 | sed 's/^/     /'
  fail=1
fi
want="counted by Linux perf_event (the kernel's driver, not baretop's), kernel $(uname -r)"
if grep -qF "$want" "$work/t.log"; then echo "ok   console: $want"; else echo "FAIL console lacks: $want"; fail=1; fi
results=$(ls "$work"/t/*.json 2>/dev/null | head -1)
"$bin" report "$results" >"$work/report.txt" 2>&1
"$bin" export "$results" --workload multiply2 --toplev-csv "$work/toplev.csv" >/dev/null 2>&1
for f in t.log report.txt toplev.csv; do
  if grep -qi "bare[ -]metal" "$work/$f"; then echo "FAIL $f says bare metal"; fail=1; fi
  grep -qF "counted by Linux perf_event" "$work/$f" || { echo "FAIL $f does not name Linux perf_event"; fail=1; }
done
python3 - "$results" "$want" <<'EOF' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
r = d['run']
bad = 0
counting = r.get('counting') or {}
if (counting.get('counted_by') or '').startswith(sys.argv[2]):
    print('ok   results: run.counting.counted_by = ' + counting['counted_by'])
else:
    print('FAIL results: run.counting.counted_by = %r' % counting.get('counted_by')); bad = 1
groups = 0
for w in r['workloads']:
    c = w.get('counted')
    if not c or not c.get('tree'):
        print(f'FAIL {w["name"]}: no tree ({w.get("reason") or w.get("not_counted")})'); bad = 1
        continue
    groups += c.get('groups') or 0
    if w['name'] in ('multiply1', 'multiply2', 'multiply3', 'ptr-chase-dram', 'stream-read'):
        v = c['tree']['values']
        l1 = {k: v.get(k) for k in ('Frontend_Bound', 'Bad_Speculation', 'Backend_Bound', 'Retiring')}
        print(f'     {w["name"]:<16} ' + ' '.join(f'{k}={x:.3f}' if x is not None else f'{k}=-' for k, x in l1.items()))
        for rule in c.get('consistency') or []:
            print(f'       {rule["state"]:<8} {rule["rule"]}')
print(f'ok   {groups} counter groups over {len(r["workloads"])} workloads, every one pinned' if not bad else
      f'     {groups} counter groups')
sys.exit(bad)
EOF

# 3. baretop's level 1 next to perf's, figures only.
if command -v perf >/dev/null; then
  for w in multiply1 multiply2 multiply3; do
    perf stat -M "$l1group" -x, -o "$work/perf-$w.csv" -- "$bin" workloads --quick --reps 1 "$w" \
      >/dev/null 2>&1 || { echo "     perf stat -M $l1group $w: failed"; continue; }
    echo "     perf stat -M $l1group, $w (whole process, not only the window):"
    grep -v '^#' "$work/perf-$w.csv" | grep -i "bound\|retiring\|speculation" | sed 's/^/       /'
  done
else
  echo "     perf is not installed: no perf stat -M $l1group comparison"
fi
echo "     results kept in $keep"
exit $fail

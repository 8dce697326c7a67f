#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~3s
# The last screen of `./dev.sh run` (qemu/summary.py) on a hosted run of the
# simulated PMU, checked against the results file itself: the SIMULATED
# line, one row per workload whose level-1 shares are the file's tree values
# (in percent, summing to 100) and whose path is the file's bottleneck_path;
# a workload that was not counted says so; the results and report paths.
# dev.sh's option handling: --no-sim and --args reach qemu/run.sh as the
# README says (dev.sh is run with a stand-in for make and qemu/run.sh).
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
fail=0
build/baretop-host run --sim=skl --quick -w multiply1 -w branch-mispredict -w code-footprint \
  --results-dir "$w/sim" -q >/dev/null 2>&1 || { echo "FAIL run --sim=skl"; exit 1; }
build/baretop-host run --no-count --quick -w alu-independent --reps 1 --warmups 0 \
  --results-dir "$w/plain" -q >/dev/null 2>&1 || { echo "FAIL run --no-count"; exit 1; }
for d in sim plain; do
  python3 qemu/summary.py "$w/$d/000001.json" "$w/$d/000001.html" >"$w/$d.txt" 2>&1 ||
    { echo "FAIL summary.py $d: $(tail -2 "$w/$d.txt")"; fail=1; }
done
python3 - "$w/sim/000001.json" "$w/sim.txt" "$w/plain/000001.json" "$w/plain.txt" <<'PY' || fail=1
import json, sys
ok = True
def check(cond, what):
    global ok
    print(('ok   ' if cond else 'FAIL ') + what)
    ok &= bool(cond)
r = json.load(open(sys.argv[1])); out = open(sys.argv[2]).read().splitlines()
check(any(l.startswith('SIMULATED') for l in out), 'simulated run: a SIMULATED line')
check(len(out) <= 25, f'simulated run: one screen ({len(out)} lines for {len(r["run"]["workloads"])} workloads)')
for wl in r['run']['workloads']:
    t = wl['counted']['tree']
    row = [l for l in out if l.split()[:1] == [wl['name']]]
    if not row:
        check(False, f'{wl["name"]}: no row'); continue
    f = row[0].split()
    shares = [float(x) for x in f[1:5]]
    want = [100 * t['values'][n] for n in ('Frontend_Bound', 'Bad_Speculation', 'Backend_Bound', 'Retiring')]
    check(all(abs(a - b) <= 0.05 for a, b in zip(shares, want)) and abs(sum(shares) - 100) <= 0.3,
          f'{wl["name"]}: level 1 {shares} = the file\'s values, sum {sum(shares):.1f}')
    check(f[5] == '>'.join(t['bottleneck_path']), f'{wl["name"]}: path {f[5]} = the file\'s bottleneck_path')
check(out[-2] == 'results   ' + sys.argv[1] and out[-1].startswith('report    '), 'results and report paths last')
p = open(sys.argv[4]).read()
check('not counted' in p and 'SIMULATED' not in p, 'plain run: the workload "not counted", no SIMULATED line')
sys.exit(0 if ok else 1)
PY
# dev.sh with stand-ins: make does nothing, tools/setup.sh is not run (a copy
# of dev.sh in a scratch tree), qemu/run.sh prints its arguments.
mkdir -p "$w/tree/tools" "$w/tree/qemu" "$w/tree/bin"
cp dev.sh "$w/tree/"
echo 'exit 0' >"$w/tree/tools/setup.sh"
printf '#!/usr/bin/env sh\nexit 0\n' >"$w/tree/bin/make"; chmod +x "$w/tree/bin/make"
echo 'printf "%s|" "$@" >"$(dirname "$0")/args"; echo >>"$(dirname "$0")/args"; exit 0' >"$w/tree/qemu/run.sh"
cp qemu/summary.py "$w/tree/qemu/"
(cd "$w/tree" && PATH=$w/tree/bin:$PATH ./dev.sh run --no-sim --cpu Skylake-Client --args "--level 2" >/dev/null 2>&1)
grep -qxF -- '--show|--smp|3|--args|--level 2|--cpu|Skylake-Client|' "$w/tree/qemu/args" &&
  echo "ok   dev.sh run --no-sim: qemu/run.sh --show with the given options, no --sim" ||
  { echo "FAIL dev.sh run --no-sim: $(cat "$w/tree/qemu/args")"; fail=1; }
(cd "$w/tree" && PATH=$w/tree/bin:$PATH ./dev.sh run --args "--level 2" >/dev/null 2>&1); rc=$?
grep -qxF -- '--show|--smp|3|--timeout|1800|--args|--sim=skl --level 2|' "$w/tree/qemu/args" &&
  echo "ok   dev.sh run: --sim=skl before the given --args" ||
  { echo "FAIL dev.sh run: $(cat "$w/tree/qemu/args")"; fail=1; }
[ "$rc" -eq 1 ] && echo "ok   dev.sh run: no results file back: an error (status 1)" ||
  { echo "FAIL dev.sh run without results: status 0"; fail=1; }
exit $fail

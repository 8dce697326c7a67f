#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~2s
# baretop-host's own command line: bad option values are usage errors
# (status 2, a message naming the option), `counts` refuses what is not a
# results file and never replaces a file, and a hosted run writes its
# results next to the binary (build/results), nothing in the working
# directory, or under --results-dir; --backend: a bad value is a usage
# error, perf without a PMU Linux exposes one line and status 1. Uses only
# the project's own files.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
case_file=tests/data/tma-sim/SKL-000.json
expect() { # expect STATUS PATTERN CMD...: exit status and a line of stderr
  local want=$1 pat=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"; local rc=$?
  if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$work/err"; then
    echo "ok   baretop-host ${*:2}: status $rc, \"$(grep -m1 -- "$pat" "$work/err")\""
  else
    echo "FAIL baretop-host ${*:2}: status $rc (want $want), stderr: $(head -2 "$work/err")"; fail=1
  fi
}
expect 2 "replay: --level 'x'" "$bin" replay --level x "$case_file"
expect 2 "replay: --level '0'" "$bin" replay --level 0 "$case_file"
expect 2 "workloads: --cpu '-1'" "$bin" workloads --cpu -1 alu-independent
expect 2 "workloads: --reps '2x'" "$bin" workloads --reps 2x alu-independent
expect 2 "plan: --level '0'" "$bin" plan --model SKL --level 0
expect 2 "is not a baretop results file" "$bin" counts "$case_file" --out-dir "$work"
expect 2 "--backend hw, sim or perf, not 'kernel'" "$bin" run --backend=kernel --no-results
# --backend=perf where Linux lets no process count (decided independently of
# baretop, tests/suite/lib/perf-probe.py): exit 1 and one line, the errno and
# perf_event_paranoid; nothing on stdout. Where it can count,
# tests/suite/74-perf-backend.sh checks the rest.
probe=$(python3 tests/suite/lib/perf-probe.py)
if [ "$probe" != ok ]; then
  expect 1 "^baretop-host run: --backend=perf: perf_event_open(instructions) failed with ${probe%%:*} (.*perf_event_paranoid = " \
    "$bin" run --backend=perf -w alu-independent --quick
  if [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ]; then
    echo "ok   run --backend=perf without a PMU: one line on stderr, nothing run"
  else
    echo "FAIL run --backend=perf without a PMU: $(wc -l <"$work/err") stderr lines, $(wc -l <"$work/out") stdout lines"; fail=1
  fi
fi

# A hosted run with the simulated PMU: results under results/ next to the
# binary (a copy in $work/bin, so build/results is left alone) and nothing
# in the working directory; then counts -> count file, and a second counts
# call must refuse to replace it.
mkdir -p "$work/bin" "$work/cwd"
cp "$bin" "$work/bin/baretop-host"
(cd "$work/cwd" && "$work/bin/baretop-host" run -w alu-independent --quick --reps 1 --warmups 0 \
   --sim=SKL --counts "$OLDPWD/$case_file" --level 1 -q >"$work/run.log" 2>&1)
if [ -f "$work/bin/results/000001.json" ]; then
  echo "ok   hosted run wrote results/000001.json next to the binary"
else
  echo "FAIL hosted run: no results/000001.json next to the binary"; cat "$work/run.log"; fail=1
fi
if [ -z "$(ls -A "$work/cwd")" ]; then
  echo "ok   hosted run wrote nothing in the working directory"
else
  echo "FAIL hosted run wrote in the working directory: $(ls -A "$work/cwd")"; fail=1
fi
(cd "$work/cwd" && "$work/bin/baretop-host" run --sim=SKL --no-workloads -q \
   --results-dir "$work/explicit" >"$work/run2.log" 2>&1)
if [ -f "$work/explicit/000001.json" ] && [ -z "$(ls -A "$work/cwd")" ] &&
   [ ! -e "$work/bin/results/000002.json" ]; then
  echo "ok   hosted run with --results-dir wrote there only"
else
  echo "FAIL hosted run with --results-dir"; cat "$work/run2.log"; fail=1
fi
mkdir -p "$work/c"
if "$bin" counts "$work/bin/results/000001.json" --out-dir "$work/c" >"$work/list" 2>"$work/err" &&
   [ "$(wc -l <"$work/list")" -eq 1 ] && "$bin" replay "$(cat "$work/list")" >"$work/replayed" 2>&1 &&
   grep -q "SIMULATED PMU" "$work/replayed"; then
  echo "ok   counts wrote $(basename "$(cat "$work/list")"); replay says it came from the SIMULATED PMU"
else
  echo "FAIL counts/replay: $(cat "$work/err")"; fail=1
fi
expect 2 "exists already" "$bin" counts "$work/bin/results/000001.json" --out-dir "$work/c"
# --sim=PRESET: the model is the simulated CPU's, from the CPUID it answers
# (its part's signature and hybrid core type), never the host's: an Intel
# preset on an AMD host once got the host's ZEN5 model. The expected model
# per signature is Intel's mapfile (Alder Lake 0x97 P-core Golden Cove /
# E-core Gracemont, Arrow Lake 0xC5 P Lion Cove / E Skymont); Core 2 and
# Zen 2 have no Top-Down model at all.
for pm in adl-p:ADL-GLC adl-e:ADL-GRT lnl-p:LNL-LNC arlh-p:ARL-LNC arlh-e:ARL-SKT core2:none zen2:none; do
  p=${pm%%:*}; want=${pm#*:}
  "$bin" run --sim="$p" --quick -w alu-independent --reps 1 --warmups 0 --level 1 \
    --results-dir "$work/sim-$p" >"$work/sim-$p.log" 2>&1
  got=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1])).get("run",{}).get("counting") or {}; print(c.get("model") or "none")' \
        "$work/sim-$p/000001.json" 2>/dev/null || echo "no results")
  if [ "$got" = "$want" ]; then
    echo "ok   --sim=$p counts with model $want"
  else
    echo "FAIL --sim=$p: model $got, want $want"; fail=1
  fi
done
exit $fail

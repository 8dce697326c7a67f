#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~4s
# Provenance is a property of the data, not of one flag: a results file
# says "simulated" in several places (the top-level "simulated",
# run.counting.simulated, counted.simulated, counted.input, counted.time;
# validation.simulated for a --validate run), a count file in "kind",
# source.simulated and source.input. Editing one of them must not turn a
# simulated run into a measured one: every reader (report, diff, export,
# counts, show-validation, fleet, replay) refuses a file whose labels
# disagree, status 2 (fleet: the file skipped, status 3), naming the fields.
# The unedited files still read, and say SIMULATED.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
expect() { # expect STATUS PATTERN CMD...
  local want=$1 pat=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"; local rc=$?
  if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$work/err" "$work/out"; then
    echo "ok   ${*:2}: status $rc, \"$(grep -h -m1 -- "$pat" "$work/err" "$work/out" | head -1 | cut -c1-160)\""
  else
    echo "FAIL ${*:2}: status $rc (want $want, '$pat'), stderr: $(head -2 "$work/err")"; fail=1
  fi
}
# set_label FILE OUT PATH VALUE: the JSON member at PATH (dots, [N] for a list
# item) set to VALUE (JSON), nothing else changed
set_label() {
  python3 - "$@" <<'PY'
import json, re, sys
src, out, path, value = sys.argv[1:5]
doc = json.load(open(src))
keys = [int(k[1:-1]) if k.startswith('[') else k for k in re.findall(r'\[\d+\]|[^.\[]+', path)]
obj = doc
for k in keys[:-1]:
    obj = obj[k]
assert keys[-1] in obj, path
obj[keys[-1]] = json.loads(value)
json.dump(doc, open(out, 'w'), indent=2)
PY
}

"$bin" run --sim=spr -w multiply1:n=64 --quick --results-dir "$work/r" >/dev/null 2>&1 || { echo "FAIL run --sim"; exit 1; }
orig=$work/r/000001.json
# Only the top-level "simulated" (the first one in the file) set to false.
set_label "$orig" "$work/top.json" simulated false
why='provenance labels contradict each other: run.counting.simulated says simulated, "simulated" (line [0-9]*) says measured'
expect 2 "$why" "$bin" report "$work/top.json"
expect 2 "$why" "$bin" diff "$work/top.json" "$orig"
expect 2 "$why" "$bin" export "$work/top.json" --toplev-csv
expect 2 "$why" "$bin" counts "$work/top.json" --out-dir "$work/c1"
mkdir -p "$work/fleet" && cp "$work/top.json" "$work/fleet/"
expect 3 "skipped .*$why" "$bin" fleet --db "$work/f.db" "$work/fleet"
# Only the workload's counted.simulated, and only its input line.
set_label "$orig" "$work/w.json" 'run.workloads[0].counted.simulated' false
expect 2 'run.workloads\[0\].counted.simulated (line [0-9]*) says measured' "$bin" report "$work/w.json"
set_label "$orig" "$work/in.json" 'run.workloads[0].counted.input' '"counted by the Intel perfmon v5 PMU of CPU 1"'
expect 2 'run.workloads\[0\].counted.input (line [0-9]*) says counted by baretop on bare metal' "$bin" report "$work/in.json"
# The unedited file reads and says so.
expect 0 'SIMULATED: counts of baretop' "$bin" report "$orig"

# A count file: "kind" against source.simulated.
"$bin" counts "$orig" --out-dir "$work/c" >/dev/null 2>&1 || { echo "FAIL counts"; fail=1; }
cf=$(ls "$work"/c/*.json | head -1)
set_label "$cf" "$work/cf.json" source.simulated false
expect 2 '"kind" says simulated, source.simulated (line [0-9]*) says measured' "$bin" replay "$work/cf.json"
set_label "$cf" "$work/ck.json" kind '"baretop results: measured"'
expect 2 '"kind" says measured, source.simulated (line [0-9]*) says simulated' "$bin" replay "$work/ck.json"
expect 0 'SIMULATED' "$bin" replay "$cf"

# A --validate run's validation.simulated.
"$bin" validate --sim=spr --quick --results-dir "$work/v" >/dev/null 2>&1 || { echo "FAIL validate"; fail=1; }
set_label "$work/v/000001.json" "$work/v.json" validation.simulated false
expect 2 '"simulated" says simulated, validation.simulated (line [0-9]*) says measured' \
  "$bin" show-validation "$work/v.json"
exit $fail

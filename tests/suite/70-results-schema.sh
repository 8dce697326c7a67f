#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~9s
# The results schema (report/results.schema.json, format_version =
# BT_RESULTS_FORMAT_VERSION) on results files this step writes itself: hosted
# runs with the simulated PMU of several models, drilldown and --level (LNL
# P-core to level 6: nodes not measured for want of a retire latency), and a
# run that counts nothing. Fails if any is invalid, or if a wrong type or a
# missing required key in a main section is accepted. The results files of
# the QEMU boots are checked against the same schema by each QEMU step
# (tests/suite/lib/esp-results-schema.sh), on the files it made.
# Needs python3-jsonschema (tools/setup.sh).
set -uo pipefail
python3 -c 'import jsonschema' 2>/dev/null || { echo "FAIL python3-jsonschema missing (tools/setup.sh)"; exit 1; }
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
run() { # DIR ARGS...: one hosted run, its results in $work/DIR
  local d=$work/$1; shift
  "$bin" run "$@" --results-dir "$d" -q >"$work/log" 2>&1; local rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAIL baretop-host run $* (status $rc): $(tail -2 "$work/log")"; fail=1
  fi
}
run skl --sim=skl --quick -w multiply1
run skl-l1 --sim=skl --quick -w multiply1 --level 1
run icl --sim=icl --quick -w multiply1 -w alu-independent
run spr-l2 --sim=spr --quick -w alu-independent --level 2
run zen4 --sim=zen4 --quick -w multiply1
# nodes not measured for want of a retire latency (state not_measured)
run lnl-l6 --sim=LNL-LNC --quick -w branch-mispredict --level 6 --reps 1 --warmups 0
run counts --sim=SKL --quick -w alu-independent --reps 1 --warmups 0 --level 1 \
    --counts tests/data/tma-sim/SKL-000.json
run nocount --no-count --quick -w alu-independent --reps 1 --warmups 0
files=()
for f in "$work"/*/*.json; do
  [ -f "$f" ] && files+=("$f")
done
if [ "${#files[@]}" -eq 0 ]; then
  echo "FAIL no results file written"; exit 1
fi
echo "validating the ${#files[@]} results files of the runs above"
python3 tests/suite/lib/check-results-schema.py report/results.schema.json report/results.h "${files[@]}" || fail=1
exit $fail

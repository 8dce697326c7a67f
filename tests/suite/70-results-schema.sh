#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The results schema (report/results.schema.json, format_version =
# BT_RESULTS_FORMAT_VERSION) validates every results file the suite writes:
# those the QEMU steps left under build/qemu/**/esp/baretop/results/ and the
# hosted default build/results/ (whichever exist when this step runs; it is
# numbered to run after them), plus fresh hosted runs made here with the
# simulated PMU of several models, drilldown and --level, and a run that
# counts nothing. Fails if no file was found at all, if any is invalid, or if
# a wrong type or a missing required key in a main section is accepted.
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
run counts --sim=SKL --quick -w alu-independent --reps 1 --warmups 0 --level 1 \
    --counts tests/data/tma-sim/SKL-000.json
run nocount --no-count --quick -w alu-independent --reps 1 --warmups 0
files=()
# QEMU steps keep their ESPs under build/qemu/<step>/ or build/qemu/<step>/<case>/
# Step 50 puts an "earlier result" of its own on some ESPs (build/qemu/suite/
# tmp/, to show it is never overwritten): a file equal to one it planted is not
# baretop's and is left out, by content, so a real result is never skipped.
planted=$(find build/qemu -path '*/tmp/*.json' 2>/dev/null)
n_planted=0
while IFS= read -r f; do
  for p in $planted; do
    if cmp -s "$f" "$p"; then n_planted=$((n_planted + 1)); continue 2; fi
  done
  files+=("$f")
done < <(find build/qemu -path '*/esp/baretop/results/*.json' 2>/dev/null | sort)
for f in build/results/*.json "$work"/*/*.json; do
  [ -f "$f" ] && files+=("$f")
done
if [ "${#files[@]}" -eq 0 ]; then
  echo "FAIL no results file found"; exit 1
fi
n_qemu=$(printf '%s\n' "${files[@]}" | grep -c '^build/qemu/')
echo "validating ${#files[@]} results files ($n_qemu from QEMU steps; $n_planted planted by step 50 left out)"
python3 tests/suite/lib/check-results-schema.py report/results.schema.json report/results.h "${files[@]}" || fail=1
exit $fail

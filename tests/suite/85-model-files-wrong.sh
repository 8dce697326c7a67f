#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~5s
# The files baretop reads from the ESP at run time are checked for structure
# as well as syntax (issue 33 items 3, 11-14); each case ran with status 0
# or with a misleading message before:
#   - --model-files: a ParentCategory cycle (before: the nodes measured,
#     never shown, status 0), a Level "2abc" (atoi took 2), a file too
#     large to be a vendor's (before: 40,000 metrics took 33 s), each
#     refused with status 2, file:line:column and the nodes named;
#   - perf-format levels (models IVB --load): TopdownL256 (before: stored
#     as 0 in a uint8_t) and TopdownL4294967298 (before: level 2);
#   - --retire-latency-file: 1e999 (before: +inf, "inf file"), 1e300,
#     MIN -7, MIN "abc", MIN > MEAN, a misspelled event (before: ignored),
#     each status 2 with file:line:column (in run, and for the misspelling
#     in replay too); the bounds are a Timed PEBS record's 16-bit latency
#     field, 0..65535 cycles.
# Uses only files written here (the replay case needs ../shared's LNL vectors).
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
res="--results-dir $work/res"
expect() { # expect STATUS PATTERN CMD...: exit status and a line of its output
  local want=$1 pat=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"; local rc=$?
  if [ "$rc" -eq "$want" ] && grep -qF -- "$pat" "$work/err" "$work/out"; then
    echo "ok   status $rc, \"$(grep -hF -m1 -- "$pat" "$work/err" "$work/out" | head -1 | sed "s|$work/||g" | cut -c1-220)\""
  else
    echo "FAIL ${*:2}: status $rc (want $want, '$pat'), stderr: $(head -2 "$work/err")"; fail=1
  fi
}

# Events (encodings as in Intel's skylake_core.json / ivybridge_core.json).
cat >"$work/events.json" <<'JSON'
{"Events": [
 {"EventName": "INST_RETIRED.ANY", "EventCode": "0x00", "UMask": "0x01", "Counter": "Fixed counter 0"},
 {"EventName": "CPU_CLK_UNHALTED.THREAD", "EventCode": "0x00", "UMask": "0x02", "Counter": "Fixed counter 1"},
 {"EventName": "UOPS_ISSUED.ANY", "EventCode": "0x0E", "UMask": "0x01", "Counter": "0,1,2,3"}]}
JSON
metric() { # NAME LEVEL PARENT
  printf '{"MetricName": "%s", "Category": "TMA", "Level": %s, %s"Events": [{"Name": "UOPS_ISSUED.ANY", "Alias": "a"}, {"Name": "CPU_CLK_UNHALTED.THREAD", "Alias": "b"}], "Formula": "100 * a / ( 4 * b )", "UnitOfMeasure": "percent"}' \
    "$1" "$2" "${3:+\"ParentCategory\": \"$3\", }"
}
{ echo '{"Metrics": ['; metric Frontend_Bound 1; echo ','; metric Loop_A 2 Loop_B; echo ','
  metric Loop_B 2 Loop_A; echo ']}'; } >"$work/cycle.json"
expect 2 "cycle.json:3:1: model FILES: node Loop_A: its parents form a cycle (Loop_A -> Loop_B -> Loop_A), which reaches no level-1 root" \
  "$bin" run --sim=skl --quick -w ptr-chase-l2 $res --model-files "$work/cycle.json,$work/events.json"
{ echo '{"Metrics": ['; metric Frontend_Bound 1; echo ','; metric Fetch_Latency '"2abc"' Frontend_Bound
  echo ']}'; } >"$work/level.json"
expect 2 "tree metric Fetch_Latency has no valid Level (a whole number from 1 to 20 expected)" \
  "$bin" run --sim=skl --quick -w ptr-chase-l2 $res --model-files "$work/level.json,$work/events.json"
# The same tree without the cycle runs (the checks refuse only what is wrong).
{ echo '{"Metrics": ['; metric Frontend_Bound 1; echo ','; metric Fetch_Latency 2 Frontend_Bound
  echo ']}'; } >"$work/good.json"
expect 0 "Fetch_Latency" \
  "$bin" run --sim=skl --quick -w ptr-chase-l2 $res --model-files "$work/good.json,$work/events.json"
# 9 MB of metrics: refused by its size before it is parsed.
python3 -c "
import sys; print('{\"Metrics\": [' + ','.join(['{\"MetricName\": \"N%d\", \"Category\": \"TMA\", \"Level\": 1, \"Formula\": \"1\", \"Pad\": \"%s\"}' % (i, 'x' * 100) for i in range(60000)]) + ']}')" >"$work/big.json"
expect 2 "bytes: larger than the 8 MB a metrics file may have" \
  "$bin" run --sim=skl --quick -w ptr-chase-l2 $res --model-files "$work/big.json,$work/events.json"

# perf-format levels through the IVB recipe's file names.
mkdir -p "$work/ref/intel/IVB/perf-format" "$work/ref/intel/IVB/events"
cp "$work/events.json" "$work/ref/intel/IVB/events/ivybridge_core.json"
for lv in 256 4294967298; do
  cat >"$work/ref/intel/IVB/perf-format/ivb-metrics.json" <<JSON
[{"MetricName": "tma_frontend_bound", "MetricGroup": "TopdownL1;tma_L1_group", "MetricExpr": "UOPS_ISSUED.ANY / (4 * CPU_CLK_UNHALTED.THREAD)"},
 {"MetricName": "tma_fetch_latency", "MetricGroup": "Frontend;TopdownL$lv;tma_L2_group;tma_frontend_bound_group",
  "MetricExpr": "UOPS_ISSUED.ANY / (4 * CPU_CLK_UNHALTED.THREAD)"}]
JSON
  expect 2 "ivb-metrics.json:2:53: metric tma_fetch_latency: MetricGroup \"TopdownL$lv\": a level from 1 to 20 expected" \
    "$bin" models IVB --load "$work/ref"
done

# Retire-latency files on the simulated Lunar Lake P-core (27 inputs, none published).
rl() { echo "{\"Data\": {\"MEM_LOAD_RETIRED.L3_HIT\": {$1}}}" >"$work/rl.json"; }
lnl() { "$bin" run --sim=LNL-LNC --quick -w ptr-chase-l2 --level 3 --no-pebs $res --retire-latency-file "$work/rl.json"; }
rl '"MEAN": 1e999'; expect 2 'rl.json:1:47: MEM_LOAD_RETIRED.L3_HIT "MEAN" is 1e999: a number of cycles from 0 to 65535 expected' lnl
rl '"MEAN": 1e300'; expect 2 'MEM_LOAD_RETIRED.L3_HIT "MEAN" is 1e300: a number of cycles from 0 to 65535 expected' lnl
rl '"MEAN": 5, "MIN": -7, "MAX": -1e999'; expect 2 'rl.json:1:57: MEM_LOAD_RETIRED.L3_HIT "MIN" is -7' lnl
rl '"MEAN": 5, "MIN": "abc"'; expect 2 'MEM_LOAD_RETIRED.L3_HIT "MIN": not a number of cycles' lnl
rl '"MEAN": 5, "MIN": 9, "MAX": 100'; expect 2 'rl.json:1:38: MEM_LOAD_RETIRED.L3_HIT: MIN 9, MEAN 5, MAX 100: MIN <= MEAN <= MAX expected' lnl
# LNL-LNC: every one of its 27 inputs has a published mean (pmu-tools lnl-retlat.json, metrics/gen/rl-pmu-tools.c)
echo '{"Data": {"MEM_LOAD_RETIRED.L3HIT": {"MIN": 1, "MAX": 100, "MEAN": 40}}}' >"$work/rl.json"
expect 2 "rl.json:1:37: MEM_LOAD_RETIRED.L3HIT is not a retire-latency input of model LNL-LNC (27 inputs, 27 published); did you mean 'MEM_LOAD_RETIRED.L3_HIT'?" lnl
# replay reads the same file (with ../shared's LNL vectors)
vec=$(ls ../shared/testdata/tma/LNL-LNC/*.json 2>/dev/null | head -1)
if [ -n "$vec" ]; then
  expect 2 "is not a retire-latency input of model LNL-LNC (27 inputs, 27 published); did you mean 'MEM_LOAD_RETIRED.L3_HIT'?" \
    "$bin" replay "$vec" --retire-latency-file "$work/rl.json"
else
  echo "ok   replay --retire-latency-file case skipped: no ../shared LNL vectors"
fi
rl '"MEAN": 41, "MIN": 9, "MAX": 100'; expect 0 "MEM_LOAD_RETIRED.L3_HIT:R 41.00 file (min 9, max 100)" lnl
exit $fail

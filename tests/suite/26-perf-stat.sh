#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~1s
# perf stat import: `baretop-host replay --perf-stat FILE --model SKL` on
# files written by hand in perf's documented field order
# (tests/data/perf-stat/skl-l2.csv for -x,, skl-l2.json for -j; multiplexed
# rows, <not counted>, <not supported>, names, cpu/event=../ and rNNNN) gives
# the tree of the same counts as a count file (skl-l2.counts.json), every
# line of the JSON tree but the "input" label equal; each multiplexed and
# missing event is named on stderr; a malformed line is a line-numbered
# error (status 2).
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=build/baretop-host
dir=tests/data/perf-stat
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
consts=(--constant HYPERTHREADING_ON=0 --constant NUM_CPUS=4 --constant SYSTEM_TSC_FREQ=2100000000
        --constant DURATIONTIMEINMILLISECONDS=232.701736)
"$bin" replay "$dir/skl-l2.counts.json" --level 2 --json >"$work/cf.json" || { echo "FAIL count file replay"; exit 1; }
grep -v '"input"' "$work/cf.json" >"$work/cf.tree"
for f in skl-l2.csv skl-l2.json; do
  if ! "$bin" replay --perf-stat "$dir/$f" --model SKL --level 2 --json "${consts[@]}" >"$work/out" 2>"$work/err"; then
    echo "FAIL replay --perf-stat $f: $(head -2 "$work/err")"; fail=1; continue
  fi
  if grep -v '"input"' "$work/out" | cmp -s - "$work/cf.tree"; then
    echo "ok   $f: tree equals the count file's ($(grep -c '"state": "ok"' "$work/out") nodes computed, $(grep -c '"state": "missing"' "$work/out") missing)"
  else
    echo "FAIL $f: tree differs from the count file's"; diff <(grep -v '"input"' "$work/out") "$work/cf.tree" | head; fail=1
  fi
  n_mux=$(grep -c 'perf multiplexed it' "$work/err")
  if [ "$n_mux" -eq 6 ] && grep -q '<not counted>: the event is missing' "$work/err" &&
     grep -q '<not supported>: the event is missing' "$work/err" &&
     grep -q 'measured over\|different intervals' "$work/err"; then
    echo "ok   $f: 6 multiplexed events warned, <not counted> and <not supported> named missing"
  else
    echo "FAIL $f: warnings: $(cat "$work/err")"; fail=1
  fi
done
# the graded node values must not be vacuous: level 1 computed
grep -q '"Frontend_Bound": {"value": 0\.' "$work/cf.json" || { echo "FAIL Frontend_Bound not computed"; fail=1; }

expect_err() { # FILE-CONTENT PATTERN
  printf '%b' "$1" >"$work/bad"
  "$bin" replay --perf-stat "$work/bad" --model SKL >/dev/null 2>"$work/err"; local rc=$?
  if [ "$rc" -eq 2 ] && grep -q -- "$2" "$work/err"; then
    echo "ok   malformed: $(head -1 "$work/err")"
  else
    echo "FAIL malformed (status $rc, want 2 and '$2'): $(head -1 "$work/err")"; fail=1
  fi
}
expect_err '1,,cycles,1,100.00\n\n12x,,instructions,1,100.00\n' "$work/bad:3: counter value '12x'"
expect_err '1,,cycles,1,100.00\n5,,\n' "$work/bad:2: no event name"
expect_err '{"counter-value" : "1", "event" : "cycles"}\n{"counter-value" : "1", "event" : cycles}\n' "$work/bad:2: not a JSON object"
expect_err '1,,cpu/event=0x3c,umask=0x1ff/,1,100\n' "$work/bad:1: 'cpu/event=0x3c,umask=0x1ff/': umask=0x1ff: unit mask is 8 bits"
expect_err '1,,cycles,1,100\n2,,cycles,1,100\n' "$work/bad:2: cycles gives"
"$bin" replay --perf-stat "$dir/skl-l2.csv" >/dev/null 2>"$work/err"
[ $? -eq 2 ] && grep -q -- '--model' "$work/err" && echo "ok   --perf-stat without --model: usage error" ||
  { echo "FAIL --perf-stat without --model"; fail=1; }
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~4s
# Wrong inputs that were believed: each is refused (status 2) with its
# location and the accepted form, or named for what it is. Impossible
# CPUID leaf 0AH answers (SDM vol. 2A leaf 0AH: versions 1-6, at most 32
# general and 16 fixed counters, widths 1-64) are named as impossible by
# detect and --sim-cpuid and no Top-Down model is claimed without a PMU;
# --sim-miscount numbers go through checked accessors; spec mistakes are
# spec errors; perf stat -A / --per-thread output is named; a directory
# given as a file says "Is a directory"; no output goes over an input, an
# earlier result or a folder, and a missing chainload target is refused
# before measuring. Uses tests/data only.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
data=$PWD/tests/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
expect() { # expect STATUS PATTERN CMD...: exit status and a line of stderr or stdout
  local want=$1 pat=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"; local rc=$?
  if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$work/err" "$work/out"; then
    echo "ok   ${*:2}: status $rc, \"$(grep -h -m1 -- "$pat" "$work/err" "$work/out" | sed 's/^ *//' | cut -c1-150)\""
  else
    echo "FAIL ${*:2}: status $rc (want $want, '$pat'), stderr: $(head -2 "$work/err")"; fail=1
  fi
}
absent() { # absent PATTERN FILE: the output must not say it
  if grep -q -- "$1" "$2"; then echo "FAIL $2 says '$1'"; fail=1; else echo "ok   not said: $1"; fi
}

# --- impossible CPUID leaf 0AH (Elkhart Lake's real answer 07300405h / EDX 8603h, one field broken)
leaf0a() { sed "s/^0000000A.00 07300405 00000000 00000007 00008603/0000000A.00 $1/" "$data/cpuid/ehl-subset.cpuid" > "$work/$2.cpuid"; }
leaf0a "FFFFFFFF 00000000 00000007 00008603" ff
leaf0a "07FF0405 00000000 00000007 00008603" width
leaf0a "07300405 00000000 00000007 0000861F" fixed
leaf0a "00000000 00000000 00000000 00000000" none
expect 0 'Top-Down          none: no PMU to count with (CPUID.0AH is impossible: version 255 (EAX\[7:0\]; the SDM defines versions 1 to 6)' \
  "$bin" detect --cpuid "$work/ff.cpuid"
absent 'level 1 from' "$work/out"
expect 0 'impossible: general counters 255 bits wide (EAX\[23:16\]; a counter is one 64-bit MSR: 1 to 64)' \
  "$bin" detect --cpuid "$work/width.cpuid"
expect 0 'impossible: 31 fixed counters (EDX\[4:0\]' "$bin" detect --cpuid "$work/fixed.cpuid"
expect 0 'Top-Down          none: no PMU to count with (CPUID.0AH reports version 0' \
  "$bin" detect --cpuid "$work/none.cpuid"
absent 'level 1 from' "$work/out"
expect 2 "sim-cpuid .*ff.cpuid: CPU 0: CPUID.0AH is impossible: version 255" \
  "$bin" run --sim-cpuid "$work/ff.cpuid" -w multiply1:n=64 --no-results
expect 0 'PMU               Intel architectural perfmon, version 5' "$bin" detect --cpuid "$data/cpuid/ehl-subset.cpuid"

# --- --sim-miscount numbers (before: exit 0 and "instructions 0", scale=-1 wrapped at 2^48)
mc() { expect 2 "$1" "$bin" run --sim=skl -w multiply1:n=64 --no-results --sim-miscount "$2"; }
mc "scale=X takes a decimal number from 0 to 1000 (e.g. scale=0.6), not 'abc'" INST_RETIRED.ANY:scale=abc
mc "scale=X takes a decimal number from 0 to 1000 (e.g. scale=0.6), not ''" INST_RETIRED.ANY:scale=
mc "scale=X takes a decimal number from 0 to 1000 (e.g. scale=0.6), not '1e400'" INST_RETIRED.ANY:scale=1e400
mc "scale=X takes a decimal number from 0 to 1000 (e.g. scale=0.6), not '-1'" INST_RETIRED.ANY:scale=-1
mc "stuck=N takes a whole number from 0 to 281474976710655 (2^48 - 1, decimal or 0x hex), not 'abc'" INST_RETIRED.ANY:stuck=abc
mc "is not among the events of model SKL; did you mean 'INST_RETIRED.ANY'?" INST_RETIRD.ANY:scale=2
mc "is not among the events of model SKL; did you mean 'BR_MISP_RETIRED.ALL_BRANCHES'?" BR_MISP_RETIRED.ALL:scale=2
# stuck=010 is ten (decimal), as every number of baretop's options, not octal eight
expect 0 'miscounts on purpose' "$bin" run --sim=skl -w multiply1:n=64 --results-dir "$work/mc" \
  --sim-miscount INST_RETIRED.ANY:stuck=010
python3 - "$work"/mc/*.json <<'PY' || fail=1
import json, sys
ev = json.load(open(sys.argv[1]))['run']['workloads'][0]['counted']['events']
v = ev['INST_RETIRED.ANY']['median']
print(('ok  ' if v == 10 else 'FAIL') + f' stuck=010: INST_RETIRED.ANY counted {v}, want 10')
sys.exit(v != 10)
PY

# --- spec mistakes are spec errors (status 2, file, entry, field), not FAIL or SKIP of the PMU
spec() { printf '{ "format": "baretop-validate-spec",\n  "checks": [\n    %s\n  ]%s }\n' "$2" "${3:-}" > "$work/$1.json"; }
spec range '{ "event": "cpu/event=0xc4,umask=0x00/", "kernel": "loop-dec-jnz", "expect": { "range": ["2*k.cond", "k.cond"] } }'
spec cmask '{ "event": "cpu/event=0xc4,umask=0x00,cmask=300/", "kernel": "loop-dec-jnz", "expect": { "exact": "k.cond" } }'
spec dup '{ "event": "cpu/event=0xc4,umask=0x00/", "kernel": "loop-dec-jnz", "expect": { "exact": "k.cond" } }' \
  ',
  "checks": [ { "event": "cpu/event=0xc0,umask=0x00/", "kernel": "loop-dec-jnz", "expect": { "exact": "k.instructions" } } ]'
spec good '{ "event": "cpu/event=0xc4,umask=0x00/", "kernel": "loop-dec-jnz", "expect": { "range": ["k.cond", "2*k.cond"] } }'
v() { "$bin" validate --sim=skl --quick --no-results --validate-spec "$work/$1.json"; }
expect 2 "spec error: .*range.json: checks\[0\] (line 3): \"expect.range\": LOW '2\*k.cond' = 2000000 is above HIGH 'k.cond' = 1000000 at n = 1000000" v range
expect 2 "spec error: .*cmask.json: checks\[0\] (line 3): \"event\": 'cpu/event=0xc4,umask=0x00,cmask=300/' is no event any PMU counts: cmask=300: counter mask is 8 bits (0-255)" v cmask
expect 2 'spec error: .*dup.json:5:3: key "checks" given twice in one object (first at line 2 column 3)' v dup
expect 0 'PASS  event:cpu/event=0xc4,umask=0x00/@loop-dec-jnz' v good
# every JSON document: a duplicate key in a results file too
"$bin" run --sim=spr -w multiply1:n=64 --quick --results-dir "$work/dr" >/dev/null 2>&1
python3 - "$work/dr/000001.json" "$work/dupres.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
i = t.index('"sequence"')
open(sys.argv[2], 'w').write(t[:i] + '"sequence": 7,\n  ' + t[i:])
PY
expect 2 'dupres.json:[0-9]*:[0-9]*: key "sequence" given twice in one object' "$bin" report "$work/dupres.json"

# --- perf stat -A / --per-thread / --per-core rows: named, not "no event name (third field)"
ps=$data/perf-stat/skl-l2
grep -v '^#' "$ps.csv" | grep . | sed 's/^/app-1001,/' > "$work/pt.csv"
grep -v '^#' "$ps.csv" | grep . | sed 's/^/CPU0,/' > "$work/pa.csv"
grep -v '^#' "$ps.csv" | grep . | sed 's/^/1.000,S0-D0-C1,4,/' > "$work/pc.csv"
sed 's/^{/{"thread" : "app-1001", /' "$ps.json" > "$work/pt.json"
sed 's/^{/{"interval" : 1.0, "cpu" : "0", /' "$ps.json" > "$work/pa.json"
only="only perf stat's default aggregation is read (every CPU and thread summed into one row per event; -I intervals are read, one tree each)"
expect 2 "pt.csv:1: 'app-1001': a row of perf stat --per-thread; $only" "$bin" replay --perf-stat "$work/pt.csv" --model SKL
expect 2 "pa.csv:1: 'CPU0': a row of perf stat -A (--no-aggr: one row per CPU); $only" "$bin" replay --perf-stat "$work/pa.csv" --model SKL
expect 2 "pc.csv:1: 'S0-D0-C1': a row of perf stat --per-core; $only" "$bin" replay --perf-stat "$work/pc.csv" --model SKL
expect 2 "pt.json:1: \"thread\": a row of perf stat --per-thread; $only" "$bin" replay --perf-stat "$work/pt.json" --model SKL
expect 2 "pa.json:1: \"cpu\": a row of perf stat -A (--no-aggr: one row per CPU); $only" "$bin" replay --perf-stat "$work/pa.json" --model SKL
absent 'no -I, -A or --per-' "$work/err"
expect 0 'model SKL' "$bin" replay --perf-stat "$ps.csv" --model SKL

# --- a directory given as an input file: "Is a directory" (tools/baretop-host/README.md), not "read error"
mkdir -p "$work/adir"
d=$work/adir
for c in "report $d" "diff $d $d" "export $d --toplev-csv" "counts $d --out-dir $work/cx" "show-validation $d" \
         "replay $d" "replay --perf-stat $d --model SKL" "efivar $d" "detect --cpuid $d"; do
  # shellcheck disable=SC2086
  expect 2 "adir: Is a directory" "$bin" $c
done
expect 2 "counts: .*adir: Is a directory" "$bin" run --sim=spr -w multiply1 --no-results --counts "$d"
expect 2 "adir: Is a directory" "$bin" run --sim=spr -w multiply1 --no-results --config "$d"
expect 2 ".*nonexistent.json: cannot open: No such file or directory" "$bin" report "$work/nonexistent.json"

# --- no output over an input or an earlier result (base/out-check.h, one check
# for every output option): each refused before anything is written, the file
# left as it was; a page or CSV of one's own may be written again.
"$bin" run --sim=skl --quick -w multiply1:n=64 --results-dir "$work/ro" >/dev/null 2>&1
res=$(ls "$work"/ro/*.json | head -1)
cp "$(ls tests/data/tma/SKL/*.json | head -1)" "$work/counts.json"
cp tests/data/atlas/spr-subset.json "$work/events.json"
for f in "$res" "$work/counts.json" "$work/events.json"; do cp "$f" "$f.before"; done
expect 2 "will not write over .*counts.json: it is a count file" "$bin" report "$res" --text "$work/counts.json"
expect 2 "will not write over .*events.json: it is an event list" "$bin" report "$res" --csv "$work/events.json"
expect 2 "will not write over .*000001.json: this command also reads it" "$bin" report "$res" --html "$res"
expect 2 "will not write over .*p.out: this command also reads it (or writes it twice)" "$bin" report "$res" --html "$work/p.out" --csv "$work/p.out"
expect 2 "will not write over .*: it is a folder" "$bin" export "$res" --perf-json="$work"
expect 2 "will not write over .*counts.json: it is a count file" "$bin" plan --model SKL --level 1 --json="$work/counts.json"
for f in "$res" "$work/counts.json" "$work/events.json"; do
  cmp -s "$f" "$f.before" && echo "ok   $(basename "$f") unchanged" || { echo "FAIL $f was written over"; fail=1; }
done
[ ! -e "$work/p.out" ] && echo "ok   nothing written where two outputs named one file" || { echo "FAIL p.out written"; fail=1; }
"$bin" report "$res" --text "$work/page.txt" && "$bin" report "$res" --text "$work/page.txt" &&
  grep -q '^baretop report' "$work/page.txt" && echo "ok   a text page of one's own is written again" ||
  { echo "FAIL report --text FILE a second time"; fail=1; }

# --- a results folder that is a file: refused before measuring, not a run
# whose results are lost at its end (exit 3)
expect 2 "--results-dir $work/counts.json: a file, not a folder" \
  "$bin" run --sim=skl --quick -w multiply1:n=64 --results-dir "$work/counts.json"

# --- a hand-over target checked before measuring: a missing chainload file
# is a usage error, not a run recorded as handed over
expect 2 "--then chainload:$work/missing.efi: no such file on the boot volume" \
  "$bin" run --sim=skl --quick -w multiply1:n=64 --results-dir "$work/ho" --then "chainload:$work/missing.efi"
[ ! -d "$work/ho" ] || [ -z "$(ls "$work/ho")" ] && echo "ok   no results file for the refused hand-over" ||
  { echo "FAIL a results file was written for a missing chainload target"; fail=1; }

exit $fail

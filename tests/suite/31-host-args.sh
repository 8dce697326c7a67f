#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~6s
# One option convention in every baretop-host command (README "Options of
# baretop-host", tools/baretop-host/host-args.h): each command's --help
# lists exactly the options its parser's table holds (read from
# `baretop-host --option-table`), `validate --help` only a validation's;
# --opt VALUE and --opt=VALUE both; an output format's FILE is optional
# (standard output) and may follow as the next word; a usage error is one
# line on stderr naming the word, "did you mean" the nearest option, and
# status 2; model and preset names without case; `counts --out-dir` makes
# its folder; `fleet`'s default database is next to the binary, never in
# the working directory; `detect --cpuid` says why a file cannot be read;
# each --help states the exit statuses. Also the two regression inputs
# of the fuzzers (tests/fuzz/corpus/): a negative steps[].level and a huge
# "sequence" are refused with their place, not converted.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# 1. --help against the parser's table, per command
"$bin" --option-table >"$work/table" || bad "--option-table"
cmds=$(awk '{print $1}' "$work/table" | sort -u)
[ "$(echo "$cmds" | wc -l)" -ge 13 ] || bad "--option-table lists only: $cmds"
for c in $cmds; do
  if ! "$bin" "$c" --help >"$work/help" 2>"$work/help.err" || [ -s "$work/help.err" ]; then
    bad "$c --help: status or stderr"; continue
  fi
  python3 - "$c" "$work/table" "$work/help" <<'PY' || fail=1
import re, sys
cmd, table, help_text = sys.argv[1], open(sys.argv[2]).read().split('\n'), open(sys.argv[3]).read()
want = set()
for line in table:
    f = line.split()
    if len(f) >= 3 and f[0] == cmd:
        want.add(f[1])
want.add('-h')  # --help, -h: every command
# the option lines: "  --name ARG  help", "  --name [FILE], -q  help" (an
# alias after a comma); the left column ends at two spaces or the line's end
shown = set()
for line in help_text.split('\n'):
    if line.startswith('  --'):
        left = re.split(r'\s{2,}', line.strip())[0]
        shown |= set(re.findall(r'(?<![\w-])(--?[a-z][a-z0-9-]*)', left))
if 'Exit status' not in help_text:
    print(f'FAIL {cmd} --help states no exit status'); sys.exit(1)
if want != shown:
    print(f'FAIL {cmd} --help vs its option table: only in the table {sorted(want - shown)}, '
          f'only in the help {sorted(shown - want)}'); sys.exit(1)
print(f'ok   {cmd} --help lists exactly its {len(want)} table options and the exit statuses')
PY
done
# validate: baretop's own options, but only those a validation uses
"$bin" validate --help >"$work/vhelp" && "$bin" run --help >"$work/rhelp" || bad "validate/run --help"
vopts=$(grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' "$work/vhelp" | grep -oE -- '--[a-z-]+' | sort -u)
ropts=$(grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' "$work/rhelp" | grep -oE -- '--[a-z-]+' | sort -u)
extra=$(comm -23 <(echo "$vopts") <(echo "$ropts"))
if [ -n "$vopts" ] && [ -z "$extra" ] && ! echo "$vopts" | grep -q -- '--then-boot\|--workload\|--exec' &&
   [ "$(echo "$vopts" | wc -l)" -lt "$(echo "$ropts" | wc -l)" ] && grep -q 'Exit status' "$work/vhelp"; then
  ok "validate --help: $(echo "$vopts" | wc -l) of run's $(echo "$ropts" | wc -l) options, no workload or boot options"
else
  bad "validate --help: options $(echo $vopts) (not in run's: $extra)"
fi

# 2. usage errors: one line naming the word, did-you-mean, status 2
usage() { # usage PATTERN CMD...
  local pat=$1; shift
  "$bin" "$@" >"$work/out" 2>"$work/err"; local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$pat" "$work/err" &&
     grep -q "see 'baretop-host" "$work/err" && [ ! -s "$work/out" ]; then
    ok "baretop-host $*: status 2, one line: $(cat "$work/err")"
  else
    bad "baretop-host $*: status $rc, stdout $(wc -c <"$work/out") bytes, stderr: $(head -3 "$work/err")"
  fi
}
usage "unknown option '--kk', did you mean --k?" fleet --kk 3
usage "unknown option '--htm', did you mean --html?" report --htm x.html
usage "unknown option '--cpuidd', did you mean --cpuid?" detect --cpuidd x
usage "unknown option '--out-dri', did you mean --out-dir?" counts --out-dri d x.json
usage "unknown option '--bogus'" export --bogus
usage "--k needs a value" fleet --k
usage "--quiet takes no value" fleet --quiet=1
usage "no such constant, did you mean HYPERTHREADING_ON?" replay --perf-stat x --model SKL --constant HYPERTHREADING=0
usage "--preset goes with --events" plan --model skl --preset icl
usage "--level goes with --model" plan --events x --level 2
usage "--smt and --smt-off together" plan --model SKL --smt --smt-off
usage "unknown command 'flet', did you mean fleet?" flet
usage "--info, --flagged and --all-rules shape the text report" replay --json --info tests/data/tma-sim/SKL-000.json
usage "--base goes with --out-dir" replay --base x tests/data/tma-sim/SKL-000.json
"$bin" run --resluts-dir x >"$work/out" 2>"$work/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "did you mean --results-dir?" "$work/err" &&
  ok "run --resluts-dir: status 2, one line: $(cat "$work/err")" || bad "run --resluts-dir: $rc $(cat "$work/err")"

# 3. both spellings; an output FILE optional or the next word
case_file=tests/data/tma-sim/SKL-000.json
"$bin" run --sim=SKL --counts "$case_file" -w alu-independent --quick --reps 1 --warmups 0 --level 2 -q \
  --results-dir "$work/r" >"$work/run.log" 2>&1 || { bad "sim run: $(tail -3 "$work/run.log")"; exit 1; }
res=$work/r/000001.json
"$bin" report "$res" --csv "$work/a.csv" && "$bin" report "$res" --csv="$work/b.csv" &&
  "$bin" report "$res" --csv >"$work/c.csv" && "$bin" report "$res" --csv=- >"$work/d.csv" &&
  "$bin" report --csv - "$res" >"$work/e.csv" || bad "report --csv spellings"
if cmp -s "$work/a.csv" "$work/b.csv" && cmp -s "$work/a.csv" "$work/c.csv" && cmp -s "$work/a.csv" "$work/d.csv" &&
   cmp -s "$work/a.csv" "$work/e.csv" && [ "$(head -c 8 "$work/a.csv")" = "section," ]; then
  ok "report --csv FILE, --csv=FILE, --csv, --csv=-, --csv - FILE: the same CSV"
else
  bad "report --csv spellings differ"
fi
"$bin" report "$res" --text "$work/t1" && "$bin" report "$res" --text="$work/t2" && "$bin" report "$res" >"$work/t3" &&
  "$bin" report "$res" --html "$work/h.html" --text >"$work/t4" || bad "report --text spellings"
cmp -s "$work/t1" "$work/t2" && cmp -s "$work/t1" "$work/t3" && cmp -s "$work/t1" "$work/t4" &&
  grep -q '<html' "$work/h.html" && ok "report --text FILE, --text=FILE, default, --html F --text: the same text" ||
  bad "report --text spellings differ"
cp "$res" "$work/keep.json"
"$bin" report "$res" --text "$work/keep.json" >"$work/out" 2>"$work/err"; rc=$?
cmp -s "$res" "$work/keep.json" && [ $rc -eq 2 ] && grep -q "will not write over" "$work/err" &&
  ok "an output over a results file is refused: $(cat "$work/err")" || bad "wrote over a results file (status $rc)"
"$bin" export "$res" --toplev-csv "$work/x1.csv" && "$bin" export "$res" --toplev-csv="$work/x2.csv" &&
  cmp -s "$work/x1.csv" "$work/x2.csv" && ok "export --toplev-csv FILE and =FILE agree" || bad "export spellings"
"$bin" detect --cpuid tests/data/cpuid/raw-rpl-2p2e.txt --json >"$work/j1" &&
  "$bin" detect --cpuid=tests/data/cpuid/raw-rpl-2p2e.txt --json >"$work/j2" && cmp -s "$work/j1" "$work/j2" &&
  ok "detect --cpuid FILE and --cpuid=FILE agree" || bad "detect spellings"

# --json[=FILE]: the FILE only after '=', so the next word stays an input
"$bin" replay --json "$case_file" >"$work/rj1" && "$bin" replay --json="$work/rj2" "$case_file" &&
  "$bin" replay "$case_file" --json=- >"$work/rj3" || bad "replay --json spellings"
cmp -s "$work/rj1" "$work/rj2" && cmp -s "$work/rj1" "$work/rj3" &&
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["values"]' "$work/rj2" &&
  ok "replay --json, --json=FILE, --json=-: the same JSON, with values" || bad "replay --json spellings differ"
cp "$case_file" "$work/in.json"
"$bin" replay --json="$work/in.json" "$work/in.json" >"$work/out" 2>"$work/err"; rc=$?
cmp -s "$case_file" "$work/in.json" && [ $rc -eq 2 ] && grep -q "would write over the input" "$work/err" &&
  ok "replay --json=F over its own input refused: $(cat "$work/err")" || bad "replay --json=F over its input: status $rc"
for c in "detect --cpuid tests/data/cpuid/raw-rpl-2p2e.txt" "plan --model skl --level 1"; do
  "$bin" $c --json >"$work/c1" && "$bin" $c --json="$work/c2" && cmp -s "$work/c1" "$work/c2" &&
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/c2" &&
    ok "${c%% *} --json and --json=FILE: the same JSON" || bad "${c%% *} --json=FILE"
done
"$bin" workloads --quick --reps 1 --json="$work/w.json" alu-independent >"$work/out" 2>&1 &&
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["tool"] == "baretop-host workloads"' "$work/w.json" &&
  [ ! -s "$work/out" ] && ok "workloads --json=FILE: the JSON in FILE, nothing on stdout" || bad "workloads --json=FILE: $(head -2 "$work/out")"
# an output is written whole or not at all: a failing command leaves the old file
echo keep >"$work/old.json"
"$bin" plan --model nosuch --json="$work/old.json" >/dev/null 2>&1
[ "$(cat "$work/old.json")" = keep ] && ok "a failed plan leaves an earlier --json=FILE as it was" ||
  bad "a failed plan changed the earlier output file"
[ -z "$(ls "$work" | grep '\.tmp')" ] && ok "no temporary files left beside the outputs" || bad "temporary files left: $(ls "$work" | grep tmp)"
# ... written through a link to its target (the link stays), keeping an
# existing file's permissions
echo old >"$work/target.txt"; chmod 600 "$work/target.txt"; ln -s target.txt "$work/link.txt"
"$bin" plan --model skl --level 1 --json="$work/link.txt" >/dev/null 2>"$work/err"
if [ -L "$work/link.txt" ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/target.txt" &&
   [ "$(stat -c %a "$work/target.txt")" = 600 ]; then
  ok "--json=LINK writes the link's target (the link stays, mode 600 kept)"
else
  bad "--json=LINK: link $( [ -L "$work/link.txt" ] && echo kept || echo replaced), target mode $(stat -c %a "$work/target.txt"): $(cat "$work/err")"
fi

# 4. names without case
"$bin" plan --model skl --level 1 >"$work/p1" 2>&1 && "$bin" plan --model SKL --level 1 >"$work/p2" 2>&1 &&
  cmp -s "$work/p1" "$work/p2" && ok "plan --model skl = --model SKL" || bad "plan --model skl: $(head -2 "$work/p1")"
"$bin" plan --events tests/data/pmu/skl-l1.events --preset ICL >"$work/p3" 2>&1 &&
  "$bin" plan --events tests/data/pmu/skl-l1.events --preset icl >"$work/p4" 2>&1 && cmp -s "$work/p3" "$work/p4" &&
  ok "plan --preset ICL = --preset icl" || bad "plan --preset ICL: $(head -2 "$work/p3")"
for s in icx:ICX Zen4:ZEN4 adl-GLC:ADL-GLC; do
  name=${s%%:*}; want=${s#*:}
  "$bin" run --sim="$name" -w alu-independent --quick --reps 1 --warmups 0 --level 1 -q \
    --results-dir "$work/sim-$name" >"$work/sim.log" 2>&1
  got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run"]["counting"]["model"])' \
        "$work/sim-$name/000001.json" 2>/dev/null || echo "no results: $(head -2 "$work/sim.log")")
  [ "$got" = "$want" ] && ok "--sim=$name counts with model $want" || bad "--sim=$name: $got"
done

# 5. folders and files
"$bin" counts "$res" --out-dir "$work/new/deep" >"$work/list" 2>"$work/err" && [ -d "$work/new/deep" ] &&
  [ -s "$(head -1 "$work/list")" ] && ok "counts --out-dir makes its folder: $(basename "$(head -1 "$work/list")")" ||
  bad "counts --out-dir new folder: $(cat "$work/err")"
mkdir -p "$work/bin" "$work/cwd"
cp "$bin" "$work/bin/baretop-host"
(cd "$work/cwd" && "$work/bin/baretop-host" fleet "$res" >"$work/fleet.out" 2>&1); rc=$?
if [ -f "$work/bin/baretop-fleet.db" ] && [ -z "$(ls -A "$work/cwd")" ] && [ $rc -eq 0 ]; then
  ok "fleet's default database is next to the binary, nothing in the working directory, status 0"
else
  bad "fleet default database: status $rc, cwd: $(ls -A "$work/cwd"), $(head -2 "$work/fleet.out")"
fi
"$bin" detect --cpuid /nonexistent/x >/dev/null 2>"$work/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'No such file or directory' "$work/err" && ok "detect --cpuid missing: $(cat "$work/err")" ||
  bad "detect missing: $rc $(cat "$work/err")"
"$bin" detect --cpuid "$work" >/dev/null 2>"$work/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'Is a directory' "$work/err" && ok "detect --cpuid folder: $(cat "$work/err")" ||
  bad "detect folder: $rc $(cat "$work/err")"

# 6. the fuzzers' regression inputs: refused with their place
"$bin" report tests/fuzz/corpus/report/regress-negative-step-level.json >/dev/null 2>"$work/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'line [0-9]* column [0-9]*: "level" is -10: a whole number from 0' "$work/err" &&
  ok "steps[].level -10 refused: $(cut -c1-160 "$work/err")" || bad "negative level: $rc $(cat "$work/err")"
"$bin" fleet --db "$work/f.db" tests/fuzz/corpus/fleet-record/regress-huge-sequence.json >/dev/null 2>"$work/err"; rc=$?
[ $rc -eq 3 ] && grep -q '"sequence" is 1.9e85: a whole number' "$work/err" &&
  ok "sequence 1.9e85 skipped with its place, status 3: $(cut -c1-160 "$work/err")" || bad "huge sequence: $rc $(cat "$work/err")"
exit $fail

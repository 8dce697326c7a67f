#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~5s
# alone: its --budget checks compare wall time with the budget, which other steps running beside it would stretch
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
# --budget plans every counter group of a started workload (pmu/measure.c):
# multiply1 at n=512 runs about 0.25 s hosted, a group of a warm-up and 3
# repetitions about 1 s, so the groups of --level 3 (11 before the SMT
# sibling probe, 16 with it: the simulated i7-8700K has SMT on) cannot fit
# in 2 s (at n=384 an idle machine ran 10 of 11: too close to the budget
# to fail for sure). How many groups the run plans is what `plan` plans for
# that model and level as a run does (--sibling-probe), not a figure
# written here. Whatever the machine's speed: some groups are left out,
# the runs kept are those of the groups run, the events of the groups left
# out are not in "events", the nodes named as not measured (budget) are
# "missing" in the tree, the boot record lists the workload as partial,
# and the boot stayed within its budget. The same workload with an ample
# budget is measured whole (n=128: a few ms a run).
groups=$("$bin" plan --model SKL --level 3 --sibling-probe --json |
         python3 -c 'import json, sys; print(json.load(sys.stdin)["groups"])')
"$bin" run --sim=SKL -w multiply1:n=512 --level 3 --reps 3 --budget 2 \
  --results-dir "$work/budget" >"$work/budget.log" 2>&1
if python3 - "$work/budget/000001.json" "$groups" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
planned = int(sys.argv[2])
c = d["run"]["workloads"][0]["counted"]
s = c["steps"][0]
p = c["partial"]
boot = d["result"]["boot"]
run_groups = s["groups"] - s["groups_skipped"]
tree = c["tree"]["nodes"]
nodes = [n for n in p["nodes_not_measured"].split(", ") if n]
bad = [e for e, v in c["events"].items() if v["group"] >= run_groups]
ok = (s["groups"] == planned and 1 <= s["groups_skipped"] <= planned and p["reason"] == "budget"
      and p["groups_skipped"] == s["groups_skipped"] and s["runs"] == 3 * run_groups
      and not bad and nodes and all(tree[n]["state"] == "missing" for n in nodes)
      and boot["budget_ended"] and boot["elapsed_s"] <= 2.0 and boot["steps_not_run"] == []
      and len(boot["steps_partial"]) == 1
      and re.fullmatch(r"multiply1 on CPU [0-9]+: %d of %d counter groups not run"
                       % (s["groups_skipped"], planned), boot["steps_partial"][0]))
print("groups run %d of %d (as plan plans them: %d), left out %d, %d nodes not measured "
      "(budget), elapsed %.2f s%s"
      % (run_groups, s["groups"], planned, s["groups_skipped"], len(nodes), boot["elapsed_s"],
         "" if not bad else ", events of groups left out: %s" % bad))
sys.exit(0 if ok else 1)
PY
then
  echo "ok   --budget 2 --sim: counter groups planned, the ones left out recorded as partial"
else
  echo "FAIL --budget 2 --sim: partial record"; tail -20 "$work/budget.log"; fail=1
fi
# the console wraps at 79 columns: read it as one line
joined=$(tr '\n' ' ' <"$work/budget.log" | tr -s ' ')
if grep -q "multiply1 PARTIAL (budget): [0-9]* of $groups counter groups not run" <<<"$joined" &&
   grep -q "PARTIAL (budget): [0-9]* counter group(s) not run, as the time budget" <<<"$joined" &&
   grep -q "nodes not measured (budget): [A-Z]" <<<"$joined"; then
  echo "ok   --budget 2 --sim: the console says which groups and nodes the budget left out"
else
  echo "FAIL --budget 2 --sim: console"; fail=1
fi
"$bin" run --sim=SKL -w multiply1:n=128 --level 3 --reps 3 --budget 60 \
  --results-dir "$work/budget-ample" >"$work/budget-ample.log" 2>&1
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["run"]["workloads"][0]["counted"]; s=c["steps"][0]
sys.exit(0 if c["partial"] is None and s["groups_skipped"] == 0 and s["runs"] == 3 * s["groups"] and not d["result"]["boot"]["budget_ended"] and d["result"]["boot"]["steps_partial"] == [] else 1)' \
   "$work/budget-ample/000001.json" && ! grep -q "PARTIAL (budget)" "$work/budget-ample.log"; then
  echo "ok   --budget 60 --sim: every counter group run, nothing partial"
else
  echo "FAIL --budget 60 --sim: not measured whole"; fail=1
fi
# --max-window-ms splits a run longer than the cap into windows (counters
# stopped, not cleared, between them; interrupts open) and sums them. With
# the simulated PMU a run of multiply1 at n=64 is ~2.6 ms of simulated time
# (its rows ~0.04 ms each): a cap of 0.1 ms splits it, and every event,
# the tree and the checksum must equal those of the same run whole. A
# workload that declares no split (alu-independent) runs whole, warned.
expect 2 "--max-window-ms 0: give milliseconds" "$bin" run --max-window-ms 0
expect 2 "--max-window-ms 90000: give milliseconds" "$bin" run --max-window-ms 90000
for cap in whole:1000 split:0.1; do
  "$bin" run --sim=SKL --quick -w multiply1:n=64 -w alu-independent --level 3 --reps 2 \
    --max-window-ms "${cap#*:}" --results-dir "$work/cap-${cap%%:*}" >"$work/cap-${cap%%:*}.log" 2>&1
done
if python3 - "$work/cap-whole/000001.json" "$work/cap-split/000001.json" <<'PY'
import json, sys
w, s = (json.load(open(f)) for f in sys.argv[1:3])
def wl(d, name):
    return next(o for o in d["run"]["workloads"] if o["name"] == name)
mw, ms = wl(w, "multiply1"), wl(s, "multiply1")
sw, ss = mw["counted"]["steps"][0], ms["counted"]["steps"][0]
# the windows are timed in the counted workload's TSC (the simulated CPU's
# stated clock), not the host's
tsc_hz = ms["counted"].get("tsc_hz") or s["cpu"]["tsc_hz"]
cap_ticks = 0.1e-3 * tsc_hz
# the Top-Down tree comes from the counts alone (info metrics also read
# the TSC rate, calibrated anew by each run)
def tree_of(o):
    t = o["counted"]["tree"]["nodes"]
    return {k: (v["value"], v["state"]) for k, v in t.items() if v["kind"] == "tree"}
ev_w = {k: v["median"] for k, v in mw["counted"]["events"].items()}
ev_s = {k: v["median"] for k, v in ms["counted"]["events"].items()}
diff = [k for k in ev_w if ev_w[k] != ev_s.get(k)]
ok = (sw["windows_per_run"] == 1 and ss["windows_per_run"] >= 2
      and ss["tsc_median"] / ss["windows_per_run"] < cap_ticks
      and ev_w and not diff and set(ev_w) == set(ev_s)
      and tree_of(mw) == tree_of(ms)
      and mw["checksum"] == ms["checksum"]
      and s["run"]["counting"]["max_window_ms"] == 0.1)
a = wl(s, "alu-independent")["counted"]
ok = ok and a["steps"][0]["windows_per_run"] == 1 and a["steps"][0]["over_window_cap_whole"]
print("multiply1: %d windows per run, %d events equal whole and split%s"
      % (ss["windows_per_run"], len(ev_w) - len(diff), "" if not diff else "; differ: %s" % diff[:5]))
sys.exit(0 if ok else 1)
PY
then
  echo "ok   --max-window-ms 0.1 --sim: multiply1 split, every count, the tree and the checksum equal the whole run's"
else
  echo "FAIL --max-window-ms 0.1 --sim: split run differs"; tail -20 "$work/cap-split.log"; fail=1
fi
joined=$(tr '\n' ' ' <"$work/cap-split.log" | tr -s ' ')
if grep -q "each run in [0-9]* windows, interrupts open between them (--max-window-ms)" <<<"$joined" &&
   grep -q "WARNING: a run of this workload is one window of [0-9.]* ms with interrupts masked, over the cap of 0.1 ms (--max-window-ms), and it cannot be split: it ran whole" <<<"$joined" &&
   ! grep -q "each run in" "$work/cap-whole.log"; then
  echo "ok   --max-window-ms: the console says how runs were split, and warns for the one that cannot be"
else
  echo "FAIL --max-window-ms: console"; fail=1
fi
# Off a terminal the console is written line by line: a full-size run that
# takes minutes shows its header (and each workload as it ends) in a file
# at once, not at exit. multiply1 at full size runs for many seconds here.
"$bin" run --no-results -w multiply1 >"$work/lines.txt" 2>&1 &
pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do grep -q "^Workloads" "$work/lines.txt" && break; sleep 0.5; done
if kill -0 "$pid" 2>/dev/null && grep -q "^Workloads" "$work/lines.txt"; then
  echo "ok   run into a file: the header is there while the run goes on"
else
  echo "FAIL run into a file: nothing written while it runs ($(wc -l <"$work/lines.txt") lines)"; fail=1
fi
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
# The ESP's free-space floor and the default bound of kept results
# (report/results-file.h): below the floor no file is written (exit 3, the
# report on the console); a file records both bounds.
"$bin" run --no-workloads --results-dir "$work/floor" --min-free 1048576 >"$work/floor.txt" 2>&1
rc=$?
if [ "$rc" = 3 ] && grep -q 'below the floor of 1048576 MiB (--min-free)' "$work/floor.txt" &&
   [ -z "$(ls "$work/floor" 2>/dev/null)" ]; then
  echo "ok   --min-free above the free space: no results file, exit 3, says why"
else
  echo "FAIL --min-free above the free space: exit $rc, $(ls "$work/floor" 2>/dev/null | wc -l) file(s)"; fail=1
fi
"$bin" run --no-workloads --results-dir "$work/bounds" >/dev/null 2>&1
"$bin" run --no-workloads --results-dir "$work/bounds" --keep-results all --min-free 0 >/dev/null 2>&1
if python3 -c "
import json, sys
a = json.load(open('$work/bounds/000001.json'))['result']['results_volume']
b = json.load(open('$work/bounds/000002.json'))['result']['results_volume']
sys.exit(0 if (a['keep_results'], a['min_free_bytes'], b['keep_results'], b['min_free_bytes']) == (100, 32 << 20, None, 0) else 1)"; then
  echo "ok   defaults recorded: keep_results 100, min_free_bytes 32 MiB; --keep-results all, --min-free 0: null, 0"
else
  echo "FAIL results_volume bounds"; fail=1
fi
exit $fail

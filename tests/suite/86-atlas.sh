#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~4s
# The event atlas hosted (README "The event atlas"): `baretop-host atlas
# --sim=spr --quick` over a committed subset of Intel's SPR core list
# (tests/data/atlas/, encodings only). Classes against expectations taken
# from the kernels' instructions, not from baretop's output: loop-dec-jnz
# retires DEC + JNZ per iteration (2 instructions, 1 branch, 1 conditional),
# call-ret one CALL and one RET per iteration; an event the simulated PMU
# does not model is "not modelled", never zero; events needing an extra MSR
# are refused naming it. Invariants all hold on the clean run, and a
# double-counting encoding (--sim-defect) is caught by an invariant alone
# naming the event. The spec generated from the atlas PASSes a second run
# and FAILs the defective one naming the event. A malformed list: exit 2
# with file:line:col; the results file matches the schema.
set -uo pipefail
[ -x build/baretop-host ] || make -s -j2 host >/dev/null
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
list=tests/data/atlas/spr-subset.json

"$bin" atlas --sim=spr --quick --events-file "$list" --results-dir "$work/res" \
	--json="$work/a.json" --atlas-spec "$work/spec.json" >"$work/clean.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && echo "ok clean atlas exits 0" || bad "clean atlas: exit $rc: $(tail -3 "$work/clean.out")"
grep -q '^atlas .*cost: .*estimated' "$work/clean.out" && echo "ok cost printed before the run" ||
	bad "no cost estimate printed"

python3 - "$work/a.json" "$work/res" <<'PY' || fail=1
import glob, json, sys
a = json.load(open(sys.argv[1]))["atlas"]
ev = {e["event"]: e for e in a["events"]}
bad = False
def check(cond, what):
    global bad
    print(("ok " if cond else "FAIL ") + what)
    bad |= not cond
def linear(name, kernel, slope, match):
    e = ev[name]
    check(e["class"] == "linear" and e["per"] == kernel and e["slope"] == slope
          and match in e["matches"],
          f"{name}: linear, {slope} per {kernel} iteration, matches {match} ({e['class']}, {e['slope']}, {e['matches']})")
check(a["simulated"], "labelled simulated")
linear("INST_RETIRED.ANY_P", "loop-dec-jnz", 2, "instructions")
linear("INST_RETIRED.ANY", "loop-dec-jnz", 2, "instructions")
linear("BR_INST_RETIRED.ALL_BRANCHES", "loop-dec-jnz", 1, "branches")
linear("BR_INST_RETIRED.COND", "loop-dec-jnz", 1, "cond")
linear("BR_INST_RETIRED.NEAR_CALL", "call-ret", 1, "near_calls")
linear("BR_INST_RETIRED.NEAR_RETURN", "call-ret", 1, "near_returns")
# one not-taken conditional per run (the loop's exit): the same at n and 2n
check(ev["BR_INST_RETIRED.COND_NTAKEN"]["class"] == "constant", "COND_NTAKEN constant (one loop exit per run)")
for n in ("L1D.REPLACEMENT", "INT_MISC.CLEAR_RESTEER_CYCLES"):
    check(ev[n]["class"] == "not modelled" and "not modelled by the simulated PMU" in ev[n]["why"],
          f"{n}: not modelled ({ev[n]['class']})")
for n, msr in (("OCR.DEMAND_DATA_RD.ANY_RESPONSE", "0x1A6"), ("FRONTEND_RETIRED.DSB_MISS", "0x3F7"),
               ("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", "0x3F6")):
    check(ev[n]["class"] == "refused" and msr in ev[n]["why"], f"{n}: refused naming MSR {msr}")
check(a["invariant_totals"]["violated"] == 0 and a["invariant_totals"]["checked"] > 20,
      f"clean run: {a['invariant_totals']['checked']} invariants held, none violated")
inv = {(i["event"], i["invariant"]): i["state"] for i in a["invariants"]}
check(inv.get(("BR_INST_RETIRED.COND_TAKEN", "c1+c1:inv=cycles")) == "held", "c1 + c1:inv = cycles held")
check(inv.get(("INST_RETIRED.ANY", "fixed=arch-event")) == "held", "fixed counter 0 = 0xC0/0x00 held")
check(inv.get(("L1D.REPLACEMENT", "c1<=cycles")) == "not checkable", "not modelled: its invariants not checkable")
w = a["windows"]
check(w["run"] == w["lower_bound"] and w["groups"] == w["lower_bound_groups"],
      f"windows run {w['run']} = lower bound {w['lower_bound']}")
# the results file carries the same atlas and matches the schema
files = glob.glob(sys.argv[2] + "/*.json")
check(len(files) == 1, "one results file")
d = json.load(open(files[0]))
check(d.get("atlas", {}).get("events") == a["events"], "results file holds the atlas")
try:
    import jsonschema
    s = jsonschema.Draft202012Validator(json.load(open("report/results.schema.json")))
    errs = list(s.iter_errors(d))
    check(not errs, "results file matches the schema" + (f": {errs[0].message}" if errs else ""))
except ImportError:
    check(False, "python3-jsonschema missing")
sys.exit(1 if bad else 0)
PY

# A defect found by the invariants alone (no known count): 0xC4/0x01
# (BR_INST_RETIRED.COND_TAKEN on Golden Cove) counting twice.
"$bin" atlas --sim=spr --quick --events-file "$list" --no-results \
	--sim-defect=double-count:0xC4/0x01 >"$work/defect.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && echo "ok defect: exit 1" || bad "defect: exit $rc"
grep -q 'VIOLATED BR_INST_RETIRED.COND_TAKEN: c1+c1:inv=cycles' "$work/defect.out" &&
	echo "ok defect caught by c1+c1:inv=cycles naming BR_INST_RETIRED.COND_TAKEN" ||
	bad "defect not caught by an invariant: $(grep VIOLATED "$work/defect.out")"
[ "$(grep -c VIOLATED "$work/defect.out")" -eq "$(grep -c 'VIOLATED BR_INST_RETIRED.COND_TAKEN' "$work/defect.out")" ] &&
	echo "ok only the defective event violated" || bad "other events violated: $(grep VIOLATED "$work/defect.out")"

# Every defect kind of the simulated PMU through the invariants alone: caught
# (an invariant VIOLATED) or listed as invisible to them with the reason,
# never silent, never both. amd-alias-split cannot apply to an Intel PMU.
for d in stuck-counter stuck-counter:1 stuck-counter:7 double-count double-count:0xC0/0x00 \
	fixed-dead:0 fixed-dead:1 rdpmc-fixed-gp narrow-counter no-overflow-bit fw-truncates pm-sticky \
	global-ignored umask-ignored fixed-dead:2 fixed-dead:3; do
	"$bin" atlas --sim=spr --quick --events-file "$list" --no-results --sim-defect="$d" >"$work/d.out" 2>&1
	rc=$?
	v=$(grep -c '^atlas *VIOLATED' "$work/d.out")
	i=$(grep -c "^atlas *--sim-defect $d: invisible to the invariants: " "$work/d.out")
	if [ "$v" -gt 0 ] && [ "$i" -eq 0 ] && [ "$rc" -eq 1 ]; then
		echo "ok defect $d caught: $v invariant violation(s)"
	elif [ "$v" -eq 0 ] && [ "$i" -eq 1 ] && [ "$rc" -eq 0 ]; then
		echo "ok defect $d listed invisible to the invariants"
	else
		bad "defect $d: exit $rc, $v violation(s), invisible line $i"
	fi
done

# `report` on an atlas: CSV one row per event, the HTML page with the
# violations first (from the defective run's results file).
"$bin" atlas --sim=spr --quick --events-file "$list" --results-dir "$work/dres" \
	--sim-defect=double-count:0xC4/0x01 >/dev/null 2>&1
dres=$(ls "$work/dres"/*.json 2>/dev/null | head -1)
if [ -n "$dres" ] && "$bin" report "$dres" --html "$work/a.html" --csv "$work/a.csv"; then
	python3 - "$work/a.csv" "$work/a.html" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
h = open(sys.argv[2]).read()
ok = len(rows) == 20 and [r["event"] for r in rows if r["invariants_violated"] != "0"] == ["BR_INST_RETIRED.COND_TAKEN"]
ok = ok and {r["provenance"] for r in rows} == {"SIMULATED"}
print(("ok " if ok else "FAIL ") + f"report --csv: {len(rows)} events, the violated one named, each row SIMULATED")
v, e = h.find("Invariant violations"), h.find("<h2>Events</h2>")
ok2 = "SIMULATED" in h and 0 <= v < h.find("c1+c1:inv=cycles") < e and h.find("<tr class=\"violated\">", e) > e
print(("ok " if ok2 else "FAIL ") + "report --html: SIMULATED, violations first, then the events table")
sys.exit(0 if ok and ok2 else 1)
PY
else
	bad "report on an atlas results file failed"
fi

# The text report of an atlas says what counted it, as the page does; the
# diff of two atlases is text: --html is refused, not silently left out.
"$bin" report "$dres" >"$work/rt.out" 2>&1 && sed -n 2p "$work/rt.out" | grep -q '^SIMULATED: counted by the simulated PMU' &&
	echo "ok report --text of an atlas: SIMULATED on its second line" || bad "report --text of an atlas: $(head -2 "$work/rt.out")"
"$bin" report --diff "$work/a.json" "$dres" --html "$work/d.html" >"$work/dh.out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && [ ! -e "$work/d.html" ] && grep -q 'diff of two atlases is text' "$work/dh.out" &&
	echo "ok report --diff of atlases --html: exit 2, said" || bad "atlas diff --html: exit $rc: $(head -1 "$work/dh.out")"
"$bin" report --diff "$work/a.json" "$dres" --text "$work/d.txt" >/dev/null 2>&1
[ "$?" -eq 1 ] && grep -q 'atlas diff:' "$work/d.txt" && echo "ok report --diff of atlases --text FILE: written" ||
	bad "atlas diff --text FILE not written"

# `report --diff` of two atlases: the clean one against itself changes
# nothing (exit 0); against the defective run only the doubled event changes.
"$bin" report --diff "$work/a.json" "$(ls "$work/res"/*.json | head -1)" >"$work/same.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q 'atlas diff: 0 change' "$work/same.out" && echo "ok atlas diff: same atlas, no change" ||
	bad "atlas diff of the same atlas: exit $rc: $(tail -1 "$work/same.out")"
"$bin" report --diff "$work/a.json" "$dres" >"$work/diff.out" 2>&1
rc=$?
others=$(grep '^  ' "$work/diff.out" | grep -vc '^  BR_INST_RETIRED.COND_TAKEN ')
if [ "$rc" -eq 1 ] && [ "$others" -eq 0 ] && grep -q 'c1+c1:inv=cycles: held -> violated' "$work/diff.out"; then
	echo "ok atlas diff: only BR_INST_RETIRED.COND_TAKEN changed ($(tail -1 "$work/diff.out"))"
else
	bad "atlas diff: exit $rc, $others other line(s): $(head -5 "$work/diff.out")"
fi

# The generated spec: PASS on a second run, FAIL naming the event with the defect.
"$bin" validate --sim=spr --quick --validate-spec "$work/spec.json" --no-results >"$work/v1.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && echo "ok generated spec PASSes a second run ($(grep '^validate:' "$work/v1.out"))" ||
	bad "generated spec on a second run: exit $rc: $(grep -E 'FAIL|^validate:' "$work/v1.out" | head -3)"
"$bin" validate --sim=spr --quick --validate-spec "$work/spec.json" --no-results \
	--sim-defect=double-count:0xC4/0x01 >"$work/v2.out" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q 'FAIL  event:.*name=BR_INST_RETIRED.COND_TAKEN/' "$work/v2.out"; then
	echo "ok generated spec FAILs the defect naming BR_INST_RETIRED.COND_TAKEN"
else
	bad "generated spec with the defect: exit $rc: $(grep -E 'FAIL' "$work/v2.out" | head -3)"
fi

# Lion Cove (the LNL subset on --sim=lnl-p, every kernel): its conditional
# branches carry a second unit mask (UMaskExt: COND_TAKEN C4H/01H+01H, COND
# C4H/11H+01H; C4H/01H+00H is COND_TAKEN_BWD and C4H/00H+01H COND_TAKEN_FWD,
# which the kernels' declarations cannot split: not modelled, never zero);
# retired loads / stores (D0H/81H, 82H) are the instructions reading /
# writing data memory: 1 per load-stride, store-stride and call-ret (RET's
# pop, CALL's push) iteration, 0 per loop-dec-jnz iteration; Topdown Slots
# A4H/01H counts what fixed counter 3 counts (SDM vol. 3B Table 20-2), so a
# dead fixed counter 3 is caught by that invariant alone.
lnl=tests/data/atlas/lnl-subset.json
"$bin" atlas --sim=lnl-p --events-file "$lnl" --no-results --json="$work/lnl.json" >"$work/lnl.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && echo "ok LNL atlas exits 0" || bad "LNL atlas: exit $rc: $(tail -3 "$work/lnl.out")"
python3 - "$work/lnl.json" <<'PY' || fail=1
import json, sys
a = json.load(open(sys.argv[1]))["atlas"]
ev = {e["event"]: e for e in a["events"]}
bad = False
def check(cond, what):
    global bad
    print(("ok " if cond else "FAIL ") + what)
    bad |= not cond
def linear(name, kernel, slope, match):
    e = ev[name]
    check(e["class"] == "linear" and e["per"] == kernel and e["slope"] == slope and match in e["matches"],
          f"LNL {name}: linear, {slope} per {kernel} iteration, matches {match} ({e['class']}, {e['slope']}, {e['matches']})")
linear("BR_INST_RETIRED.COND_TAKEN", "loop-dec-jnz", 1, "cond_taken")
linear("BR_INST_RETIRED.COND", "loop-dec-jnz", 1, "cond")
for n in ("BR_INST_RETIRED.COND_TAKEN_BWD", "BR_INST_RETIRED.COND_TAKEN_FWD"):
    check(ev[n]["class"] == "not modelled", f"LNL {n}: not modelled ({ev[n]['class']})")
linear("MEM_INST_RETIRED.ALL_LOADS", "call-ret", 1, "loads")
linear("MEM_INST_RETIRED.ALL_STORES", "call-ret", 1, "stores")
check(ev["MEM_INST_RETIRED.ALL_LOADS"]["matches"] == ["loads"],
      f"LNL ALL_LOADS matches loads alone over every kernel ({ev['MEM_INST_RETIRED.ALL_LOADS']['matches']})")
inv = {(i["event"], i["invariant"]): i["state"] for i in a["invariants"]}
check(inv.get(("TOPDOWN.SLOTS", "fixed=arch-event")) == "held", "LNL fixed counter 3 = Topdown Slots 0xA4/0x01 held")
check(a["invariant_totals"]["violated"] == 0, f"LNL: {a['invariant_totals']['checked']} invariants held, none violated")
sys.exit(1 if bad else 0)
PY
"$bin" atlas --sim=lnl-p --quick --events-file "$lnl" --no-results --sim-defect=fixed-dead:3 >"$work/lnl-d.out" 2>&1
rc=$?
if [ "$rc" -eq 1 ] && [ "$(grep -c '^atlas *VIOLATED' "$work/lnl-d.out")" -eq 1 ] &&
   grep -q '^atlas *VIOLATED TOPDOWN.SLOTS: fixed=arch-event' "$work/lnl-d.out"; then
	echo "ok LNL fixed-dead:3 caught by fixed=arch-event naming TOPDOWN.SLOTS alone"
else
	bad "LNL fixed-dead:3: exit $rc: $(grep VIOLATED "$work/lnl-d.out" | head -3)"
fi

# Every output target is checked before the atlas counts anything (hours on
# silicon): the spec is never replaced (the first atlas's kept), never a
# folder or a missing folder; --json never over the list it reads or over a
# results file; a folder of baretop's own (above the results folder, as
# \baretop on a fresh ESP) is made.
cp "$work/spec.json" "$work/spec.before"
cp "$list" "$work/list.json"
echo "a note" >"$work/v1.note"
res1=$(ls "$work/res"/*.json | head -1)
cp "$res1" "$work/res1.before"
while IFS='|' read -r what args want; do
	# shellcheck disable=SC2086
	"$bin" atlas --sim=spr --quick --events-file "$work/list.json" --no-results $args \
		--sim-defect=double-count:0xC4/0x01 >"$work/again.out" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$want" "$work/again.out" && ! grep -q '^atlas .*cost:' "$work/again.out"; then
		echo "ok $what: exit 2 before counting ($(grep -m1 '^baretop:' "$work/again.out" | cut -c10-120))"
	else
		bad "$what: exit $rc: $(grep -m1 'baretop:\|^atlas' "$work/again.out")"
	fi
done <<EOF2
--atlas-spec to an existing spec|--atlas-spec $work/spec.json|will not write over $work/spec.json: it is a validation spec
--atlas-spec to a folder|--atlas-spec $work|will not write over $work: it is a folder
--atlas-spec in a missing folder|--atlas-spec $work/nope/s.json|the folder $work/nope does not exist
--json over its own --events-file|--json=$work/list.json|will not write over $work/list.json: this command also reads it
--json over a results file|--json=$res1|will not write over $res1: it is a baretop results file
--atlas-spec over any existing file|--atlas-spec $work/v1.note|the file exists, and a spec is never replaced
EOF2
cmp -s "$work/spec.json" "$work/spec.before" && cmp -s "$work/list.json" "$list" && cmp -s "$res1" "$work/res1.before" &&
	echo "ok the spec, the list and the results file are as they were" || bad "an input or earlier result changed"
"$bin" atlas --sim=spr --quick --events-file "$list" --results-dir "$work/esp/baretop/results" \
	--atlas-spec "$work/esp/baretop/spec.json" >"$work/fresh.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && [ -s "$work/esp/baretop/spec.json" ] && echo "ok a fresh ESP: baretop's folder made, the spec written" ||
	bad "fresh ESP spec: exit $rc: $(grep -m1 'baretop:\|^atlas:' "$work/fresh.out")"

# Untrusted input: a malformed list is a located error, exit 2.
printf '{"Events": [{"EventName": "X", "EventCode": "0xZZ", "UMask": "0x00", "Counter": "0"}]}\n' >"$work/bad.json"
"$bin" atlas --sim=spr --quick --events-file "$work/bad.json" --no-results >"$work/bad.out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'bad.json:1:[0-9]*: event X: bad EventCode' "$work/bad.out"; then
	echo "ok malformed list: exit 2, file:line:col"
else
	bad "malformed list: exit $rc: $(grep atlas "$work/bad.out" | head -2)"
fi
# The wrong vendor's list is refused by name before anything is counted:
# AMD's 0xC4 is taken branches, Intel's 0xC4/0x00 every branch (Linux's
# amdzen4/branch.json, Intel's SPR list). An Intel list in Linux perf's
# array form (its events name a "Counter") is read as Intel's: the same
# events and refusals as the perfmon file it came from.
amd=tests/data/atlas/zen4-subset.json
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["Events"], open(sys.argv[2], "w"))' \
	"$list" "$work/spr-array.json"
for c in "spr $amd AMD" "zen4 $list Intel" "zen4 $work/spr-array.json Intel"; do
	set -- $c
	"$bin" atlas --sim="$1" --quick --events-file "$2" --no-results >"$work/v.out" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "^atlas: $2 is an\? $3 event list" "$work/v.out" &&
	   ! grep -q '^atlas .*SIMULATED PMU' "$work/v.out"; then
		echo "ok --sim=$1 with $3's list $(basename "$2"): exit 2 before counting"
	else
		bad "--sim=$1 with $3's list $2: exit $rc: $(grep -m1 '^atlas' "$work/v.out")"
	fi
done
"$bin" atlas --sim=spr --quick --events-file "$work/spr-array.json" --no-results --json="$work/arr.json" >/dev/null 2>&1
python3 - "$work/arr.json" "$work/a.json" <<'PY' || fail=1
import json, sys
arr, obj = (json.load(open(f))["atlas"] for f in sys.argv[1:])
key = lambda a: sorted((e["event"], e["encoding"], e["class"]) for e in a["events"])
ok = arr["list"]["format"] == "linux-perf-intel" and key(arr) == key(obj)
print(("ok  " if ok else "FAIL") + f" SPR list as an array: format {arr['list']['format']}, "
      f"{len(arr['events'])} events, classes {'equal to' if key(arr) == key(obj) else 'NOT'} the perfmon file's")
sys.exit(0 if ok else 1)
PY
"$bin" atlas --sim=zen4 --quick --events-file "$amd" --no-results >"$work/z.out" 2>&1 &&
	echo "ok --sim=zen4 counts AMD's list" || bad "--sim=zen4 with $amd: $(grep -m1 '^atlas:' "$work/z.out")"
# --sim-miscount reaches the atlas's windows: 0xC4/0x00 at twice
# loop-dec-jnz's one branch per iteration, matching no declared count.
"$bin" atlas --sim=spr --quick --events-file "$list" --no-results --json="$work/mc.json" \
	--sim-miscount BR_INST_RETIRED.ALL_BRANCHES:scale=2 >"$work/mc.out" 2>&1
python3 - "$work/mc.json" "$work/a.json" <<'PY' || fail=1
import json, sys
mc, clean = ({e["event"]: e for e in json.load(open(f))["atlas"]["events"]} for f in sys.argv[1:])
m, c = mc["BR_INST_RETIRED.ALL_BRANCHES"], clean["BR_INST_RETIRED.ALL_BRANCHES"]
ok = m["slope"] == 2 and m["matches"] == [] and c["slope"] == 1 and "branches" in c["matches"]
print(("ok  " if ok else "FAIL") + f" --sim-miscount in the atlas: slope {m['slope']} (clean {c['slope']}), "
      f"matches {m['matches']} (clean {c['matches']})")
sys.exit(0 if ok else 1)
PY
grep -q '^atlas .*miscounts on purpose (--sim-miscount BR_INST_RETIRED.ALL_BRANCHES:scale=2)' "$work/mc.out" &&
	echo "ok the atlas says the PMU miscounts on purpose" || bad "no miscount note in the atlas's output"
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~6s
# --validate hosted (README "Validating PMU events"): `baretop-host validate
# --sim=P` on one preset of every simulated PMU family must PASS every check
# (SKIP allowed only for kernels not in this build), its results file must
# match the schema and print again with show-validation; a spec file with
# raw events validates; a deliberately wrong spec FAILs (exit 1) and WARNs,
# so the checker can fail; malformed specs give located errors (exit 2);
# without --sim there is no PMU here and validate says so (exit 4);
# --sim-miscount is seen by validate and --bring-up's validation phase.
set -uo pipefail
start=$(date +%s)
[ -x build/baretop-host ] || make -s -j2 host >/dev/null
bin=build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

# preset or model id -> family: Intel v2, v3, v4, v5 (icl, SPR), hybrid P / E
# (ADL-GLC, ADL-GRT), Lunar Lake P, Sierra Forest E,
# AMD legacy, core extension (Zen 2), PerfMonV2 (ZEN4). Model ids give the
# part's CPUID, so the Top-Down level-1/2 events of its model are checked too.
presets="core2 nhm skl icl SPR ADL-GLC ADL-GRT LNL-LNC SRF amd-legacy zen2 ZEN4"
made=()
for p in $presets; do
  "$bin" validate --sim="$p" -q --results-dir "$work/$p" >"$work/$p.out" 2>&1; rc=$?
  sum=$(grep '^validate:' "$work/$p.out")
  [ "$rc" -eq 0 ] || bad "$p: exit status $rc ($sum)"
  f=$(ls "$work/$p"/*.json 2>/dev/null | head -1)
  [ -n "$f" ] || { bad "$p: no results file"; continue; }
  made+=("$f" "$p")
  again=$("$bin" show-validation "$f" | grep '^validate:')
  [ "$again" = "$sum" ] || bad "$p: show-validation says '$again', the run said '$sum'"
done
# Every results file (FILE PRESET pairs) in one python: one start and one
# schema compile for all.
[ ${#made[@]} -eq 0 ] || python3 - "${made[@]}" <<'PY' || fail=1
import json, sys
try:
    import jsonschema
    schema = jsonschema.Draft202012Validator(json.load(open("report/results.schema.json")))
except ImportError:
    schema = None
failed = False
for f, p in zip(sys.argv[1::2], sys.argv[2::2]):
    d = json.load(open(f)); v = d["validation"]; ok = True
    def bad(msg):
        global ok, failed; ok = False; failed = True; print(f"FAIL {p}: {msg}")
    if not (d["simulated"] and v["simulated"]): bad("not labelled simulated")
    n_pass = 0
    for c in v["checks"]:
        if c["verdict"] == "PASS": n_pass += 1
        elif c["verdict"] == "SKIP" and c["detail"] == "no such kernel in this build": pass
        # a PMU conformance check the part cannot have (AMD rules on Intel, no
        # PERF_METRICS, ...) is skipped with its reason
        elif c["verdict"] == "SKIP" and c["id"].startswith("conf:") and c["detail"]: pass
        else: bad(f'{c["id"]}: {c["verdict"]} {c["detail"]}')
        # Independent of the code: INST_RETIRED over DEC/JNZ is MOV + 2n + RET,
        # minus the calibration window's RET: 2n + 1.
        if c["id"] in ("event:cpu/event=0xc0,umask=0x00/@loop-dec-jnz",
                       "event:cpu/event=0xc0,umask=0x00,fixed=0/@loop-dec-jnz"):
            if not (c["median"] == c["min"] == c["max"] == 2 * c["n"] + 1):
                bad(f'{c["id"]}: {c["median"]} != 2n+1 = {2 * c["n"] + 1}')
        if c["id"].startswith("event:cpu/event=0xc0,umask=0x00/@empty") and c["median"] != 0:
            bad(f'{c["id"]}: the empty kernel counted {c["median"]}, not 0')
    if n_pass < 6: bad(f"only {n_pass} PASS")
    if schema is None:
        bad("python3-jsonschema missing")
    else:
        errs = list(schema.iter_errors(d))
        if errs: bad(f"schema: {errs[0].message[:160]}")
    if ok:
        print(f"ok   {p}: {n_pass} PASS, {len(v['checks']) - n_pass} SKIP (kernels not built, PMU features absent), "
              f"{v['pmu']}, SIMULATED")
sys.exit(1 if failed else 0)
PY

# The verdicts of a spec's own event checks (the conformance checks run too,
# and must not FAIL): "P W F S" from the report's table.
event_tally() {
  awk '$2 ~ /^event:/ { n[$1]++ } $2 ~ /^conf:/ && $1 == "FAIL" { cf++ }
       END { printf "%d PASS, %d WARN, %d FAIL, %d SKIP, %d conformance FAIL\n", n["PASS"], n["WARN"], n["FAIL"], n["SKIP"], cf }' "$1"
}
# A spec file with raw events (exact, relation, range, le) on Ice Lake.
"$bin" validate --sim=icl -q --no-results --validate-spec tests/data/validate/raw-branches-icl.json \
  >"$work/raw.out" 2>&1; rc=$?
sum=$(event_tally "$work/raw.out")
if [ "$rc" -eq 0 ] && [ "$sum" = "4 PASS, 0 WARN, 0 FAIL, 0 SKIP, 0 conformance FAIL" ]; then
  echo "ok   raw-event spec on icl: $sum"
else
  bad "raw-event spec: status $rc, '$sum'"
fi
# dtlb-walk's TLB-miss expectation follows the pages of its buffer, read
# from /proc/self/smaps hosted, and the report says so.
"$bin" validate --sim=skl --quick -q --no-results --validate-spec tests/data/validate/dtlb-pages-skl.json \
  >"$work/pages.out" 2>&1; rc=$?
[ "$rc" -eq 0 ] || bad "dtlb-walk pages spec: status $rc"
python3 tests/suite/lib/validate-pages-check.py "$work/pages.out" /proc/self/smaps || fail=1
# A wrong expectation must FAIL (exit 1), a 1 % one WARN.
"$bin" validate --sim=skl -q --no-results --validate-spec tests/data/validate/wrong-expectation.json \
  >"$work/wrong.out" 2>&1; rc=$?
sum=$(event_tally "$work/wrong.out")
if [ "$rc" -eq 1 ] && [ "$sum" = "0 PASS, 1 WARN, 1 FAIL, 0 SKIP, 0 conformance FAIL" ]; then
  echo "ok   wrong spec: exit 1, $sum"
else
  bad "wrong spec: status $rc, '$sum'"
fi

# Malformed specs: exit 2 and an error naming file, entry and field.
S='{"format":"baretop-validate-spec","checks":['
cases=(
  "expr|$S{\"event\":\"r00c0\",\"kernel\":\"empty\",\"expect\":{\"exact\":\"1\"}},
{\"event\":\"r00c0\",\"kernel\":\"empty\",\"expect\":{\"exact\":\"k.instructions +\"}}]}|checks[1] (line 2): \"expect.exact\""
  "field|$S{\"event\":\"r00c0\",\"kernel\":\"empty\",\"expect\":{\"exact\":\"1\"},\"tolerance\":3}]}|checks[0] (line 1): \"tolerance\": unknown field"
  "missing|$S{\"kernel\":\"empty\",\"expect\":{\"exact\":\"1\"}}]}|checks[0] (line 1): \"event\": missing"
  "range|$S{\"event\":\"e\",\"kernel\":\"empty\",\"expect\":{\"range\":[\"1\"]}}]}|\"expect.range\": expected [LOW, HIGH]"
  "warn|$S{\"event\":\"e\",\"kernel\":\"empty\",\"expect\":{\"exact\":\"1\"},\"tolerance_pct\":5,\"warn_pct\":1}]}|\"warn_pct\": 1 is below tolerance_pct 5"
  "truncated|$S{\"event\":\"e\",\"kernel\":\"empty\",|truncated.json:1:"
  "format|{\"format\":\"x\",\"checks\":[]}|\"format\": must be \"baretop-validate-spec\""
  # Entries that cannot run as written: the writer's mistake, never a SKIP
  # that lets the run pass (nor, for a division by zero, a FAIL of the PMU).
  "count|$S{\"event\":\"r00c0\",\"kernel\":\"loop-dec-jnz\",\"expect\":{\"exact\":\"k.instrs\"}}]}|checks[0] (line 1): \"expect.exact\": kernel loop-dec-jnz declares no count 'instrs'; did you mean 'k.instructions'?"
  "kernel|$S{\"event\":\"r00c0\",\"kernel\":\"no-such-kernel\",\"expect\":{\"exact\":\"1\"}}]}|\"kernel\": no kernel 'no-such-kernel' in this build"
  "kernel-typo|$S{\"event\":\"r00c0\",\"kernel\":\"loop-dec-jzn\",\"expect\":{\"exact\":\"1\"}}]}|did you mean 'loop-dec-jnz'?"
  "lower|$S{\"event\":\"inst_retired.any\",\"kernel\":\"loop-dec-jnz\",\"expect\":{\"exact\":\"k.instructions\"}}]}|\"event\": 'inst_retired.any' is neither a raw event"
  "unknown-event|$S{\"event\":\"r00c0\",\"kernel\":\"loop-dec-jnz\",\"expect\":{\"le\":\"CPU_CLK_UNHALTED.THRAED\"}}]}|\"expect.le\": 'CPU_CLK_UNHALTED.THRAED' is neither a raw event"
  "nop-n|$S{\"event\":\"r00c0\",\"kernel\":\"nop-sled\",\"n\":100000000,\"expect\":{\"exact\":\"k.instructions\"}}]}|\"n\": kernel nop-sled runs NOPs = 0..4096, not 100000000"
  "div0|$S{\"event\":\"r00c0\",\"kernel\":\"loop-dec-jnz\",\"expect\":{\"exact\":\"k.instructions/0\"}}]}|\"expect.exact\": column 15: division by zero"
)
for c in "${cases[@]}"; do
  name=${c%%|*}; rest=${c#*|}; text=${rest%|*}; want=${rest##*|}
  printf '%s' "$text" >"$work/$name.json"
  out=$(timeout 10 "$bin" validate --sim=skl -q --no-results --validate-spec "$work/$name.json" 2>&1); rc=$?
  err=$(printf '%s\n' "$out" | grep 'spec error')
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$name.json"* ]] && [[ "$err" == *"$want"* ]]; then
    echo "ok   malformed ($name): ${err#validate: spec error: $work/}"
  else
    bad "malformed ($name): status $rc, '$err' lacks '$want'"
  fi
done

# No PMU on this machine without --sim: says why, exit 4.
out=$("$bin" validate -q --no-results 2>&1); rc=$?
if [ "$rc" -eq 4 ] && printf '%s' "$out" | grep -q '^validate: nothing validated: '; then
  echo "ok   no --sim: exit 4, $(printf '%s\n' "$out" | grep '^validate: nothing' | cut -c1-100)..."
else
  bad "no --sim: status $rc"
fi
# One simulated PMU for every phase: --sim-miscount reaches the kernels'
# windows as it reaches the workloads'. BR_INST_RETIRED.ALL_BRANCHES is
# 0xC4/0x00 (Intel's SPR list); loop-dec-jnz retires one branch per
# iteration, so scale=2 doubles k.branches (a FAIL naming the event) and
# swap with INST_RETIRED.ANY exchanges the two declared counts.
mc() { # WHAT MODE... : runs on SPR with --sim-miscount WHAT
  local what=$1; shift
  "$bin" run --sim=spr --quick --no-results --sim-miscount "$what" "$@" >"$work/mc.out" 2>&1
}
mc BR_INST_RETIRED.ALL_BRANCHES:scale=2 --validate; rc=$?
f=$(grep -c '^  FAIL  event:cpu/event=0xc4,umask=0x00/@loop-dec-jnz  *20000 ' "$work/mc.out")
if [ "$rc" -eq 1 ] && [ "$f" -eq 1 ] && [ "$(grep -c '^  FAIL ' "$work/mc.out")" -eq 1 ] &&
   grep -q '^  injected miscount: BR_INST_RETIRED.ALL_BRANCHES:scale=2' "$work/mc.out"; then
  echo "ok   validate --sim-miscount ALL_BRANCHES:scale=2: exit 1, 0xC4/0x00 FAILs at 20000 (k.branches 10000), labelled"
else
  bad "validate --sim-miscount scale=2: exit $rc, $f FAIL of 0xC4: $(grep -m2 'FAIL\|^validate:' "$work/mc.out")"
fi
mc BR_INST_RETIRED.ALL_BRANCHES:swap=INST_RETIRED.ANY --validate; rc=$?
if [ "$rc" -eq 1 ] && grep -q 'FAIL  event:cpu/event=0xc4,umask=0x00/@loop-dec-jnz  *20001 ' "$work/mc.out" &&
   grep -q 'FAIL  event:cpu/event=0xc0,umask=0x00,fixed=0/@loop-dec-jnz  *10000 ' "$work/mc.out"; then
  echo "ok   validate --sim-miscount swap: branches read 20001, fixed counter 0 reads 10000"
else
  bad "validate --sim-miscount swap: exit $rc: $(grep -m2 'FAIL' "$work/mc.out")"
fi
mc BR_INST_RETIRED.ALL_BRANCHES:scale=2 --bring-up; rc=$?
if [ "$rc" -eq 1 ] && grep -q '^bring-up  *1 event(s) of model SPR FAILed validation' "$work/mc.out" &&
   grep -q 'FAIL  event:BR_INST_RETIRED.ALL_BRANCHES@loop-dec-jnz' "$work/mc.out"; then
  echo "ok   --bring-up --sim-miscount: its validation phase FAILs the event the Top-Down phase sees miscount"
else
  bad "--bring-up --sim-miscount: exit $rc: $(grep -m2 '^bring-up\|FAIL' "$work/mc.out")"
fi
# A spec's size limit is documented (docs/validate-spec.md: 4096 checks)
# and named when passed; an atlas's spec of 600 linear events validates.
for n in 600 4097; do
  python3 -c 'import json, sys; json.dump({"format": "baretop-validate-spec", "checks": [{"event": "cpu/event=0xc4,umask=0x00/", "kernel": "loop-dec-jnz", "expect": {"exact": "k.branches"}}] * int(sys.argv[1])}, open(sys.argv[2], "w"))' "$n" "$work/s$n.json"
  "$bin" validate --sim=spr --quick --no-results --validate-spec "$work/s$n.json" >"$work/s$n.out" 2>&1
  echo $? >"$work/s$n.rc"
done
grep -q 'at most 4096 checks' docs/validate-spec.md ||
  bad "docs/validate-spec.md does not state the 4096-check limit"
if [ "$(cat "$work/s600.rc")" -eq 0 ] && grep -q '^validate: 6[0-9][0-9] PASS, 0 WARN, 0 FAIL' "$work/s600.out" &&
   [ "$(cat "$work/s4097.rc")" -eq 2 ] && grep -q 'checks\[4096\].*more than 4096 checks, a spec.s limit' "$work/s4097.out"; then
  echo "ok   a 600-check spec validates; 4097 checks: exit 2 naming the limit"
else
  bad "spec limit: 600 -> exit $(cat "$work/s600.rc"), 4097 -> exit $(cat "$work/s4097.rc"): $(grep -m1 'spec error' "$work/s4097.out")"
fi
echo "step time: $(( $(date +%s) - start )) s"
exit $fail

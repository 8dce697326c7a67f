#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~30s
# The event atlas inside baretop.efi in QEMU (README "The event atlas"):
# `--atlas --quick --sim=spr` over a committed subset of Intel's SPR core
# list read from the ESP (tests/data/atlas/spr-subset.json, encodings only),
# checked against expectations taken from the kernels' instructions and the
# list's encodings, not from baretop's output:
#   - the console prints the cost and its estimate before the first batch;
#   - the results file on the ESP: written whole (no temporary left), holds
#     the atlas: INST_RETIRED.ANY linear at 2 per loop-dec-jnz iteration
#     (DEC + JNZ, kernels/loop.c), BR_INST_RETIRED.NEAR_CALL at 1 per
#     call-ret iteration, the MSR-index events refused naming their MSR,
#     an unmodelled event "not modelled" (never zero), no invariant
#     violated, windows run = the lower bound (groups x 2 kernels x 2 sizes
#     x (3 calibration + 1 warm-up + 3 runs)); it matches the schema;
#   - the validation spec the atlas wrote on the ESP (in \baretop, which a
#     fresh ESP lacks when the atlas starts): one check per linear
#     event with a raw encoding, INST_RETIRED.ANY_P expecting 2*n;
#   - two more boots of the same ESP (both at once): --validate with that
#     spec PASSes (exit 0, a second results file beside the first), and with
#     a double-counting 0xC4/0x01 (--sim-defect) FAILs naming
#     BR_INST_RETIRED.COND_TAKEN (exit 1).
# tests/suite/86-atlas.sh runs the same hosted, with every defect kind.
set -uo pipefail
out=build/qemu/atlas
rm -rf "$out"; mkdir -p "$out"
make -s -j2 efi >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
bad() { echo "FAIL $*"; fail=1; }
list=tests/data/atlas/spr-subset.json
[ -f "$list" ] || { echo "FAIL $list missing"; exit 1; }

boot() { # DIR WANT ARGS...: one boot; console in DIR/console.txt, ESP copy in DIR/esp
  local dir=$1 want=$2; shift 2
  bash qemu/run.sh --cpu Skylake-Client --smp 1 --timeout 120 --out "$dir" "$@" \
    >/dev/null 2>"$dir.err"
  local rc=$?
  echo "$rc" >"$dir.rc"
  [ "$rc" -eq "$want" ] || { bad "$(basename "$dir"): exit status $rc, want $want: $(tail -3 "$dir/console.txt" 2>/dev/null)"; return 1; }
}

# The list at the ESP's root: \baretop does not exist when the atlas starts
# (a fresh ESP), and the spec's folder is made before the run, as the
# results folder is.
boot "$out/atlas" 0 --add "$list=/spr-subset.json" \
  --args '--atlas --sim=spr --events-file \spr-subset.json --atlas-spec \baretop\atlas-spec.json' ||
  { exit 1; }
con=$out/atlas/console.txt
echo "ok atlas boot: exit 0 ($(grep -m1 '^atlas .*classes:' "$con" | sed 's/^atlas *//'))"

# The estimate before the run: its line comes before the first batch's.
awk '/^atlas .*cost: .*windows .*estimated [0-9.]+ s/ && !c { c = NR }
     /^atlas .*batch 1\/[0-9]+ measured/ && !b { b = NR }
     END { exit !(c && b && c < b) }' "$con" &&
  echo "ok the cost and its estimate printed before the run ($(grep -m1 -o 'estimated [0-9.]* s' "$con"))" ||
  bad "no estimate before the first batch: $(grep -m2 '^atlas' "$con")"

python3 - "$out/atlas/esp/baretop" <<'PY' || fail=1
import json, os, sys
esp = sys.argv[1]
bad = False
def check(cond, what):
    global bad
    print(("ok " if cond else "FAIL ") + what)
    bad |= not cond
res = os.path.join(esp, "results")
names = sorted(os.listdir(res))
jsons = [n for n in names if n.endswith(".json")]
check(jsons == ["000001.json"] and not any(n.endswith(".tmp") for n in names),
      f"results on the ESP: one file, no temporary left ({names})")
d = json.load(open(os.path.join(res, jsons[0])))
a = d.get("atlas")
check(a is not None and a["simulated"] and d.get("simulated"), "the results file holds the atlas, labelled simulated")
ev = {e["event"]: e for e in a["events"]}
def linear(name, kernel, slope, match):
    e = ev[name]
    check(e["class"] == "linear" and e["per"] == kernel and e["slope"] == slope and match in e["matches"],
          f"{name}: linear, {slope} per {kernel} iteration, matches {match} "
          f"({e['class']}, {e.get('slope')}, {e['matches']})")
linear("INST_RETIRED.ANY", "loop-dec-jnz", 2, "instructions")
linear("INST_RETIRED.ANY_P", "loop-dec-jnz", 2, "instructions")
linear("BR_INST_RETIRED.NEAR_CALL", "call-ret", 1, "near_calls")
for n, msr in (("OCR.DEMAND_DATA_RD.ANY_RESPONSE", "0x1A6"), ("FRONTEND_RETIRED.DSB_MISS", "0x3F7"),
               ("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", "0x3F6")):
    check(ev[n]["class"] == "refused" and msr in ev[n]["why"], f"{n}: refused naming MSR {msr}")
e = ev["L1D.REPLACEMENT"]
check(e["class"] == "not modelled" and "not modelled by the simulated PMU" in e["why"],
      f"L1D.REPLACEMENT: not modelled, not zero ({e['class']})")
t = a["invariant_totals"]
check(t["violated"] == 0 and t["checked"] > 20, f"invariants: {t['checked']} checked, none violated")
w = a["windows"]
want = w["lower_bound_groups"] * len(a["kernels"]) * 2 * (3 + 1 + 3)
check(len(a["kernels"]) == 2 and w["run"] == w["lower_bound"] == want and w["groups"] == w["lower_bound_groups"],
      f"windows run {w['run']} = lower bound {want} ({w['lower_bound_groups']} groups x 2 kernels x 2 sizes x 7)")
check(a["time"]["estimated_s"] > 0, f"estimated {a['time']['estimated_s']:.2f} s, took {a['time']['actual_s']:.2f} s")
try:
    import jsonschema
    errs = list(jsonschema.Draft202012Validator(json.load(open("report/results.schema.json"))).iter_errors(d))
    check(not errs, "results file matches the schema" + (f": {errs[0].message}" if errs else ""))
except ImportError:
    check(False, "python3-jsonschema missing")
# The spec the atlas generated on the ESP.
s = json.load(open(os.path.join(esp, "atlas-spec.json")))
checks = {c["event"].split("name=")[1].rstrip("/"): c for c in s["checks"]}
lin = {e["event"] for e in a["events"] if e["class"] == "linear" and not e["encoding"].startswith("fixed")}
check(s["format"] == "baretop-validate-spec" and set(checks) == lin,
      f"atlas-spec.json on the ESP: one check per linear event ({len(checks)})")
c = checks.get("INST_RETIRED.ANY_P", {})
check(c.get("kernel") == "loop-dec-jnz" and c.get("expect", {}).get("exact", "").startswith("2*n"),
      f"spec: INST_RETIRED.ANY_P expects {c.get('expect')} over {c.get('kernel')}")
sys.exit(1 if bad else 0)
PY

# The next boots of the same ESP: the generated spec validates a sound run
# and a defective one, both at once (one vCPU each).
for c in pass defect; do mkdir -p "$out/$c"; cp "$out/atlas/esp.img" "$out/$c/esp.img"; done
vargs='--validate --sim=spr --validate-spec \baretop\atlas-spec.json'
boot "$out/pass" 0 --keep-esp --args "$vargs" &
boot "$out/defect" 1 --keep-esp --args "$vargs --sim-defect=double-count:0xC4/0x01" &
wait
for c in pass defect; do
  rc=$(cat "$out/$c.rc" 2>/dev/null || echo none)
  case $c:$rc in
    pass:0|defect:1) ;;
    *) bad "$c boot: exit status $rc"; fail=1 ;;
  esac
done
if grep -q '^validate:.* 0 FAIL' "$out/pass/console.txt" &&
   [ -f "$out/pass/esp/baretop/results/000001.json" ] && [ -f "$out/pass/esp/baretop/results/000002.json" ]; then
  echo "ok generated spec PASSes the next boot ($(grep -m1 '^validate:' "$out/pass/console.txt")), its results beside the atlas's"
else
  bad "generated spec on the next boot: $(grep -m1 '^validate:' "$out/pass/console.txt"); $(ls "$out/pass/esp/baretop/results" 2>&1 | tr '\n' ' ')"
fi
if grep -q 'FAIL  event:.*name=BR_INST_RETIRED.COND_TAKEN/' "$out/defect/console.txt" &&
   [ "$(grep -c 'FAIL  event:' "$out/defect/console.txt")" -eq "$(grep -c 'FAIL  event:.*name=BR_INST_RETIRED.COND_TAKEN/' "$out/defect/console.txt")" ]; then
  echo "ok generated spec FAILs the defective boot naming BR_INST_RETIRED.COND_TAKEN only"
else
  bad "defective boot: $(grep 'FAIL' "$out/defect/console.txt" | head -3)"
fi
exit $fail

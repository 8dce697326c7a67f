#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~120s
# --validate inside baretop.efi in QEMU (README "Validating PMU events"):
#   - the PMU conformance checks and the built-in spec on the SIMULATED PMU
#     of every preset (Intel perfmon v2..v6, hybrid P/E cores, AMD legacy,
#     core extension, PerfMonV2): every check PASS (SKIP only for kernels not
#     in this build and, with their reason, conformance checks of features
#     the part lacks), exit 0;
#   - a spec file on the ESP (--validate-spec \validate\raw.json, raw
#     perf-syntax events) on icl (perfmon v5, PERF_METRICS): its 4 event
#     checks PASS, and the conformance checks that run first do not FAIL;
#   - dtlb-walk's page-walk check from a spec on the ESP: its expectation
#     follows the pages of its buffer, read from the page tables;
#   - a malformed spec file on the ESP: its located error, exit 2;
#   - plain TCG without --sim: no PMU, says why, exit 4.
# Every results file of these boots is checked against the results schema;
# tests/suite/48-validate-host.sh runs the same hosted.
set -uo pipefail
start=$(date +%s)
out=build/qemu/validate
rm -rf "$out"; mkdir -p "$out"
make -s -j2 efi >/dev/null || { echo "FAIL build"; exit 1; }
fail=0
bad() { echo "FAIL $*"; fail=1; }
# launch CASE ARGS...: one boot in the background, two at a time (each QEMU
# runs one vCPU on this 2-core machine); its console in $out/CASE/console.txt,
# its exit status in $out/CASE.rc. boot CASE WANT_STATUS waits for it.
declare -A bpid=()
launch() {
  local name=$1; shift
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  ( bash qemu/run.sh --cpu Skylake-Client --smp 1 --out "$out/$name" --timeout 120 "$@" \
      >/dev/null 2>"$out/$name.err"
    echo $? >"$out/$name.rc" ) &
  bpid[$name]=$!
}
boot() {
  local name=$1 want=$2 rc
  wait "${bpid[$name]}" 2>/dev/null
  rc=$(cat "$out/$name.rc" 2>/dev/null || echo none)
  [ "$rc" = "$want" ] || { bad "$name: exit status $rc, want $want"; tail -5 "$out/$name/console.txt"; return 1; }
}
summary() { grep '^validate:' "$out/$1/console.txt" | head -1; }
# every check PASS or SKIP for a kernel not in this build, in the results file
all_pass() {
  python3 - "$out/$1/esp/baretop/results/000001.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); v = d["validation"]
bad = [c for c in v["checks"] if c["verdict"] != "PASS" and
       not (c["verdict"] == "SKIP" and (c["detail"] == "no such kernel in this build" or
                                        (c["id"].startswith("conf:") and c["detail"])))]
for c in bad: print(f'       {c["id"]}: {c["verdict"]} {c["detail"]}')
n = sum(c["verdict"] == "PASS" for c in v["checks"])
sys.exit(0 if d["simulated"] and v["simulated"] and n >= 6 and not bad else 1)
PY
}

# Every simulated preset, then the cases below, all started here.
presets="core2 nhm skl icl spr adl-p adl-e lnl-p arlh-p arlh-e arlh-lpe amd-legacy zen2 zen4"
for p in $presets; do launch "$p" --args "--validate --sim=$p"; done
cat >"$out/bad.json" <<'JSON'
{"format": "baretop-validate-spec", "checks": [
 {"event": "cpu/event=0xc0,umask=0x00/", "kernel": "loop-dec-jnz", "expect": {"exact": "k.instructions"}},
 {"event": "cpu/event=0xc0,umask=0x00/", "kernel": "loop-dec-jnz", "expect": {"exact": "k.instructions"}, "tolerance_pct": -1}]}
JSON
launch defect --args "--validate --sim=skl --sim-defect=stuck-counter:1"
launch spec --add tests/data/validate/raw-branches-icl.json=/validate/raw.json \
  --args '--validate --sim=icl --validate-spec \validate\raw.json'
launch pages --add tests/data/validate/dtlb-pages-skl.json=/validate/pages.json \
  --args '--validate --quick --sim=skl --validate-spec \validate\pages.json'
launch malformed --add "$out/bad.json=/validate/bad.json" \
  --args '--validate --sim=skl --validate-spec \validate\bad.json'
launch nopmu --args '--validate'

for p in $presets; do
  wait "${bpid[$p]}" 2>/dev/null
  rc=$(cat "$out/$p.rc" 2>/dev/null || echo none)
  if [ "$rc" != 0 ]; then
    bad "$p: exit status $rc, want 0"; tail -5 "$out/$p/console.txt" 2>/dev/null; continue
  fi
  if all_pass "$p" && grep -q '^validation    SIMULATED' "$out/$p/console.txt"; then
    echo "ok   $p: $(summary "$p")"
  else
    bad "$p: $(summary "$p")"
  fi
done

# An injected defect in the EFI build too: a stuck general counter 1 breaks
# exactly conf:gp-agree, conf:width-wrap and the issued-uops relation whose
# second event sits on counter 1 (tests/suite/49-conformance.sh covers every
# defect hosted), exit 1.
if boot defect 1; then
  got=$(awk '$1 == "FAIL" { print $2 }' "$out/defect/console.txt" | sort | tr '\n' ' ')
  if [ "$got" = "conf:gp-agree conf:width-wrap event:UOPS_ISSUED.ANY@loop-dec-jnz#2 " ]; then
    echo "ok   skl --sim-defect=stuck-counter:1: exit 1, FAIL exactly $got"
  else
    bad "stuck-counter:1: FAIL set '$got'"
  fi
fi

if boot spec 0; then
  s=$(awk '$2 ~ /^event:/ { n[$1]++ } $2 ~ /^conf:/ && $1 == "FAIL" { cf++ }
          END { printf "%d PASS, %d WARN, %d FAIL, %d SKIP, %d conformance FAIL", n["PASS"], n["WARN"], n["FAIL"], n["SKIP"], cf }' \
        "$out/spec/console.txt")
  if [ "$s" = "4 PASS, 0 WARN, 0 FAIL, 0 SKIP, 0 conformance FAIL" ] &&
     grep -q 'PASS  event:cpu/event=0xc4,umask=0x11/@loop-dec-jnz' "$out/spec/console.txt"; then
    echo "ok   --validate-spec on the ESP (raw events, icl): $s"
  else
    bad "--validate-spec: '$s'"
  fi
fi
# dtlb-walk's TLB-miss expectation from the pages OVMF maps its buffer with,
# read from the page tables, and said in the report.
if boot pages 0; then
  python3 tests/suite/lib/validate-pages-check.py "$out/pages/console.txt" 'page tables (CR3, ' || fail=1
fi
if boot malformed 2; then
  e=$(grep 'spec error' "$out/malformed/console.txt" | tr -d '\r')
  if [[ "$e" == *'bad.json: checks[1] (line 3): "tolerance_pct": -1 is outside'* ]]; then
    echo "ok   malformed spec on the ESP: exit 2, ${e#validate: }"
  else
    bad "malformed spec: '$e'"
  fi
fi
if boot nopmu 4; then
  if grep -q '^validate: nothing validated: ' "$out/nopmu/console.txt" &&
     grep -q 'exit status 4: no PMU to validate' "$out/nopmu/console.txt"; then
    echo "ok   plain TCG: exit 4, $(grep '^validate: nothing' "$out/nopmu/console.txt" | cut -c1-90)..."
  else
    bad "plain TCG: no reason on the console"
  fi
fi
bash tests/suite/lib/esp-results-schema.sh "$out" || fail=1
echo "step time: $(( $(date +%s) - start )) s"
exit $fail

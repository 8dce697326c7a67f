#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: qemu ~25s
# --bring-up inside baretop.efi in QEMU + OVMF, with a defect injected into
# the simulated PMU (--sim-defect), under the boot-time run policy and
# without one. What each boot must show is written here from the models'
# formulas, not from baretop's output:
#  - run=once (persistent NVRAM, an ESP kept across boots, hand-over to a
#    stand-in OS loader): the Panther Lake E-core (--sim-cpuid, ARCH: each
#    level-1 node is its own architectural event over the slots) with
#    Topdown Retiring (C2H/02H) counted twice. Its validation FAILs, so
#    Retiring alone is untrusted and off the bottleneck path, the other
#    level-1 nodes keep their values, one results file holds conformance,
#    validation and tree, exit status 1. The policy records the run as
#    failed (in the results folder's note, then, on the next boot, NVRAM
#    last_status=failed), hands over to the loader all the same, and does
#    not measure again on the next boot: run=once counts runs, not
#    successful ones (app/README.md, "The boot state variable").
#  - no policy, a forced model on a --sim preset: --sim=skl --model SKL at
#    level 1 with UOPS_ISSUED.ANY (0EH/01H) doubled. SKL's level 1 reads it
#    in Bad_Speculation ((UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS +
#    4 x INT_MISC.RECOVERY_CYCLES) / slots) and in Backend_Bound (1 minus
#    the other three), not in Frontend_Bound or Retiring: exactly those two
#    untrusted; the exit status reaches QEMU's exit device: 1.
#  - no policy, ARCH with PERF_METRICS (the Panther Lake P-core) with
#    Topdown Frontend Bound (9CH/01H) doubled on code-footprint (mostly
#    frontend bound): the cross-check of Frontend_Bound is violated and
#    names the event, the cross-checks of Backend_Bound and Retiring hold;
#    Frontend_Bound alone is untrusted (verdict CROSS) and the exit status
#    is 1, a failed check of the bring-up.
set -uo pipefail
out=build/qemu/bring-up
guid=6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93
loader='\EFI\os\loader.efi'
fail=0
t_start=$(date +%s)
ok()  { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

mkdir -p "$out"
make -s -j"$(nproc)" efi tests >/dev/null || { echo "FAIL build"; exit 1; }

# boot NAME [qemu/run.sh options...]: one boot into $out/NAME/ (status in rc).
boot() {
  local name=$1; shift
  bash qemu/run.sh --smp 1 --out "$out/$name" --timeout 120 \
    --add "tests/data/cpuid/ptl-subset.cpuid=/ptl.cpuid" "$@" >/dev/null 2>"$out/$name.err"
  rc=$?
}
con() { tr -s ' \n' ' ' <"$out/$1/console.txt"; }
# check NAME DESCRIPTION PYTHON over r (the one results file of a boot)
check() {
  local f
  f=$(ls "$out/$1/esp/baretop/results/"[0-9]*.json 2>/dev/null)
  if [ "$(echo "$f" | grep -c .)" != 1 ]; then bad "$1: not one results file: $f"; return; fi
  if python3 - "$f" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
w = r["run"]["workloads"]
t = w[0]["counted"]["tree"] if len(w) == 1 and w[0].get("counted") else None
untrusted = {n for n, v in t["nodes"].items() if "untrusted" in v} if t else None
checks = r.get("validation", {}).get("checks", [])
def fails(ev):
    return [c["id"] for c in checks if c["event"] == ev and c["verdict"] == "FAIL"]
xc = {c["rule"].split(" = ")[0]: c for c in w[0]["counted"]["consistency"]
      if c["kind"] == "cross_check"} if t else {}
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
  then ok "$1: $2"; else bad "$1: $2"; fi
}

# --- run=once: boot 1 measures, boot 2 does not ------------------------
rm -rf "$out/once"; mkdir -p "$out/once"
once=(--vars "$out/once/vars.fd" --add build/tests/fake-os-loader.efi=/EFI/os/loader.efi
      --args "--run=once --then=chainload:$loader --bring-up --sim-cpuid \\ptl.cpuid@4 --sim-defect=double-count:0xc2/0x02 --level 1 -w alu-independent --reps 2")
boot once "${once[@]}"
cp "$out/once/console.txt" "$out/once/boot1.txt"
c=$(con once)
[ "$rc" = 0 ] || bad "once boot 1: qemu/run.sh exit status $rc (the loader powers off)"
case "$c" in
  *"run=once: the first run"*"bring-up 1 event(s) of model ARCH FAILed validation"*"untrusted: Topdown_Retiring failed validation"*"done exit status 1"*"then starting the --then-boot file"*"fake-os-loader: started"*)
    ok "once boot 1: console: first run, 1 event FAILed, Retiring untrusted, exit status 1, then the loader" ;;
  *) bad "once boot 1: console lacks the bring-up, untrusted, exit status or hand-over lines" ;;
esac
check once "one file: conformance (conf:*) and event checks, Topdown_Retiring FAILed, the tree" \
  "any(c['id'].startswith('conf:') for c in checks) and fails('Topdown_Retiring') and t is not None"
check once "exactly Retiring untrusted, by that check; the others keep values; path without it" \
  "untrusted == {'Retiring'} and t['nodes']['Retiring']['untrusted']['check'] in fails('Topdown_Retiring') and all(t['nodes'][n]['value'] is not None for n in ('Frontend_Bound', 'Bad_Speculation', 'Backend_Bound')) and t['bottleneck_path'] and 'Retiring' not in t['bottleneck_path']"
check once "result: exit status 1, policy once, run 1, handed over to the loader" \
  "r['result']['exit_status'] == 1 and r['result']['boot']['policy'] == 'once' and r['result']['boot']['run_number'] == 1 and r['result']['boot']['handover'] == 'chainload:' + r'$loader'"
# nvram KEY=VALUE...: the state read independently has them all
nvram() {
  local state missing=""
  state=$(python3 tests/suite/lib/ovmf_varstore.py "$out/once/vars.fd" BaretopState "$guid" --decode-baretop 2>&1)
  for kv in "$@"; do grep -qx -- "$kv" <<<"$state" || missing="$missing $kv"; done
  [ -z "$missing" ] || echo "lacks$missing: $(tr '\n' ' ' <<<"$state")"
}
m=$(nvram runs=1 completed=0 in_progress=True)
# the run's end (status 2, failed) in the results folder's note, under its run_tag
tag=$(python3 tests/suite/lib/ovmf_varstore.py "$out/once/vars.fd" BaretopState "$guid" --decode-baretop 2>/dev/null | sed -n 's/^run_tag=//p')
[ -z "$m" ] && [ -n "$tag" ] && grep -qx "1 run=$(printf %016x "$tag") status=2" "$out/once/esp/baretop/results/next-sequence" &&
  ok "once boot 1: NVRAM (read independently) runs=1 in progress; its end, failed, in the results note" ||
  bad "once boot 1: NVRAM $m; note: $(tail -1 "$out/once/esp/baretop/results/next-sequence" 2>/dev/null)"
boot once "${once[@]}" --keep-esp
c=$(con once)
n=$(ls "$out/once/esp/baretop/results/" | grep -c '^[0-9]*\.json$')
case "$c" in
  *"run 1 ended failed (results 000001"*"run=once: done already"*"fake-os-loader: started"*)
    m=$(nvram runs=1 completed=1 last_status=failed in_progress=False)
    [ -z "$m" ] && ok "once boot 2: NVRAM (read independently) runs=1 completed=1 last_status=failed, not in progress" ||
      bad "once boot 2: NVRAM $m"
    if [ "$n" = 1 ] && [[ "$c" != *"event(s) of model"* ]]; then
      ok "once boot 2: a failed bring-up is not run again (run=once counts runs): no measurement, still 1 results file, the loader"
    else bad "once boot 2: measured again ($n results files)"; fi ;;
  *) bad "once boot 2: not 'done already' and handed over" ;;
esac

# --- no policy: forced SKL on --sim=skl --------------------------------
rm -rf "$out/skl"
boot skl --args "--bring-up --sim=skl --model SKL --level 1 -w multiply1 --reps 2 --sim-defect=double-count:0x0e/0x01"
[ "$rc" = 1 ] && ok "skl: exit status 1 through QEMU's exit device" || bad "skl: qemu/run.sh exit status $rc, not 1"
check skl "UOPS_ISSUED.ANY FAILed; exactly Bad_Speculation and Backend_Bound untrusted; Frontend_Bound and Retiring keep values" \
  "fails('UOPS_ISSUED.ANY') and untrusted & {'Frontend_Bound', 'Bad_Speculation', 'Backend_Bound', 'Retiring'} == {'Bad_Speculation', 'Backend_Bound'} and all(t['nodes'][n]['value'] is not None and 'untrusted' not in t['nodes'][n] for n in ('Frontend_Bound', 'Retiring')) and not set(t['bottleneck_path']) & untrusted and r['result']['exit_status'] == 1"
case "$(con skl)" in
  *"untrusted: UOPS_ISSUED.ANY failed validation (event:UOPS_ISSUED.ANY@"*) ok "skl: the console marks the untrusted nodes" ;;
  *) bad "skl: no untrusted mark on the console" ;;
esac

# --- no policy: ARCH with PERF_METRICS, the cross-check ------------------
rm -rf "$out/xc"
boot xc --args "--bring-up --sim-cpuid \\ptl.cpuid@0 --level 1 -w code-footprint --reps 2 --sim-defect=double-count:0x9c/0x01"
check xc "Frontend_Bound's cross-check violated, naming Topdown_Frontend_Bound; Backend_Bound's and Retiring's held; no Bad_Speculation one (73H/00H not enumerated)" \
  "set(xc) == {'Frontend_Bound', 'Backend_Bound', 'Retiring'} and xc['Frontend_Bound']['state'] == 'violated' and 'Topdown_Frontend_Bound' in xc['Frontend_Bound']['events'] and xc['Backend_Bound']['state'] == 'held' and xc['Retiring']['state'] == 'held'"
check xc "exit status 1 (a violated cross-check is a failed check), the results file's too; Frontend_Bound alone untrusted (CROSS) and off the path" \
  "r['result']['exit_status'] == $rc == 1 and {n for n, v in t['nodes'].items() if 'untrusted' in v} == {'Frontend_Bound'} and t['nodes']['Frontend_Bound']['untrusted']['verdict'] == 'CROSS' and 'Frontend_Bound' not in t['bottleneck_path']"
case "$(con xc)" in
  *"finding: an event does not count as the formula assumes: Frontend_Bound = Arch_Frontend_Bound (cross-check: Topdown_Frontend_Bound / TOPDOWN.SLOTS)"*)
    ok "xc: the console shows the violated cross-check" ;;
  *) bad "xc: the console does not show the violated cross-check" ;;
esac

bash tests/suite/lib/esp-results-schema.sh "$out" || fail=1
echo "step time: $(( $(date +%s) - t_start )) s"
exit $fail
